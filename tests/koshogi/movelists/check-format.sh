#!/bin/sh
# check-format.sh — checks the FORMAT of the hand-written Ko shogi move lists
# (tests/koshogi/movelists/NN-name.txt); their content is checked by the generators.
#
#   sh tests/koshogi/movelists/check-format.sh [FILE...]     (default: every NN-*.txt here)
#
# Per file: "# title:" and "# rules:" header lines (the rules line lists readings of
# tests/koshogi/README.md by name, separated by ", "); at most one "# options:" line (rule
# options NAME=VALUE, separated by ", ", the list's position played under them); comments
# only above "feen:"; one
# "feen:" line whose FEEN has exactly 3 fields, 19 ranks of 19 points (Ko shogi's EPIN
# tokens), a hands field with one "/", and style-turn K/k or k/K; then "moves: N" and
# exactly N move lines, each a syntactically valid PMN chain in canonical element order
# (displacement first, then "+c" removals ascending by CELL, then "c=X" changes ascending),
# the list sorted in byte order with no duplicate; no trailing blanks, no CR, no tabs.
# Exit 0 when every file passes, 1 otherwise (one diagnostic per problem, FILE:LINE: ...).
LC_ALL=C
export LC_ALL
dir=$(dirname "$0")
if [ $# -eq 0 ]; then
    set -- "$dir"/[0-9][0-9]-*.txt
    [ -e "$1" ] || { echo "check-format: no move-list files in $dir" >&2; exit 1; }
fi
status=0
for f in "$@"; do
    awk -v F="$f" '
    function err(msg) { printf "%s:%d: %s\n", F, NR, msg; bad = 1 }
    function cellkey(c,   fl, rk) {      # rank-major key: rank*32 + file
        fl = index("abcdefghijklmnopqrs", substr(c, 1, 1))
        rk = substr(c, 2) + 0
        return rk * 32 + fl
    }
    function checkfeen(s,   n, fld, ranks, i, j, r, cnt, tok, c) {
        n = split(s, fld, " ")
        if (s ~ /  / || s ~ /^ / || s ~ / $/ || n != 3) { err("FEEN must have exactly 3 fields separated by single spaces"); return }
        if (split(fld[1], ranks, "/") != 19) { err("FEEN placement must have 19 ranks"); return }
        for (i = 1; i <= 19; i++) {
            r = ranks[i]; cnt = 0
            while (length(r) > 0) {
                if (match(r, /^[1-9][0-9]*/)) {
                    cnt += substr(r, 1, RLENGTH) + 0
                } else if (match(r, /^[-+]?[A-Za-z]\^?'"'"'?/)) {
                    cnt++
                } else { err("FEEN rank " (20 - i) ": bad token at \"" r "\""); cnt = -1000; break }
                r = substr(r, RLENGTH + 1)
            }
            if (cnt != 19 && cnt > -1000) err("FEEN rank " (20 - i) " has " cnt " points, not 19")
        }
        if (fld[2] !~ /^[^\/]*\/[^\/]*$/) err("FEEN hands field must contain exactly one /")
        if (fld[3] != "K/k" && fld[3] != "k/K") err("FEEN style-turn must be K/k or k/K")
    }
    function checkchain(m,   n, el, i, e, stage, last, k, cell) {
        if (m == "...") return
        n = split(m, el, ",")
        if (n > 16 || length(m) > 256) err("chain longer than 16 elements or 256 bytes")
        stage = 0; last = -1
        for (i = 1; i <= n; i++) {
            e = el[i]
            if (i == 1 && e ~ /^[a-s]([1-9]|1[0-9])[-+][a-s]([1-9]|1[0-9])(=[-+]?[A-Za-z]\^?'"'"'?)?$/) {
                stage = 1
            } else if (e ~ /^\+[a-s]([1-9]|1[0-9])$/) {
                if (stage > 2) err("removal after an identity change in \"" m "\"")
                if (stage < 2) { stage = 2; last = -1 }
                k = cellkey(substr(e, 2))
                if (k <= last) err("removals not in ascending CELL order in \"" m "\"")
                last = k
            } else if (e ~ /^[a-s]([1-9]|1[0-9])=[-+]?[A-Za-z]\^?'"'"'?$/) {
                if (stage < 3) { stage = 3; last = -1 }
                cell = substr(e, 1, index(e, "=") - 1)
                k = cellkey(cell)
                if (k <= last) err("identity changes not in ascending CELL order in \"" m "\"")
                last = k
            } else err("bad chain element \"" e "\" in \"" m "\"")
        }
    }
    BEGIN {
        state = 0; bad = 0; title = 0; rules = 0; options = 0
        # the readings of tests/koshogi/README.md
        nr = split("setup|zone promotion|capture promotion|step movers|commanding pieces|" \
                   "survival|burning|burned on arrival|immunities|shooting|priest jumps|" \
                   "priest loss|clerk|pawn and drum|fog reversion|thunderclap|roaming assault|" \
                   "double movers|canonical chains|inert hands|promoted natives|" \
                   "non-capturing movers|shot range", rd, "|")
        for (i = 1; i <= nr; i++) reading[rd[i]] = 1
    }
    /\r/ { err("carriage return") }
    /\t/ { err("tab character") }
    /[ ]$/ { err("trailing blank") }
    state == 0 {
        if ($0 ~ /^# title: ./) title++
        else if ($0 ~ /^# rules: /) {
            rules++
            nn = split(substr($0, 10), names, ", ")
            if (nn == 0) err("rules line names no reading")
            for (i = 1; i <= nn; i++)
                if (!(names[i] in reading)) err("rules line: \"" names[i] "\" is not a reading of tests/koshogi/README.md")
        }
        else if ($0 ~ /^# options:/) {
            if (++options > 1) err("more than one \"# options:\" line")
            nn = split(substr($0, 12), names, ", ")
            if (nn == 0) err("options line names no option")
            for (i = 1; i <= nn; i++)
                if (names[i] !~ /^[a-z][a-z.-]*=[A-Za-z0-9.+-]+$/) err("options line: \"" names[i] "\" is not NAME=VALUE")
        }
        if ($0 ~ /^#/) next
        if ($0 ~ /^feen: /) {
            if (title != 1) err("need exactly one \"# title:\" line above feen:")
            if (rules != 1) err("need exactly one \"# rules:\" line above feen:")
            checkfeen(substr($0, 7)); state = 1; next
        }
        err("only comments may come before \"feen:\""); next
    }
    state == 1 {
        if ($0 ~ /^moves: (0|[1-9][0-9]*)$/) { want = substr($0, 8) + 0; got = 0; state = 2; prev = ""; next }
        err("\"moves: N\" must follow the feen: line"); state = 2; want = -1; next
    }
    state == 2 {
        if ($0 == "" || $0 ~ /^#/) { err("blank or comment line inside the move block"); next }
        got++
        if (got > 1) {
            if ($0 == prev) err("duplicate move \"" $0 "\"")
            else if ($0 < prev) err("moves not sorted in byte order: \"" $0 "\" after \"" prev "\"")
        }
        prev = $0
        checkchain($0)
        next
    }
    END {
        if (state < 2) { NR++; err("missing feen: or moves: line") }
        else if (want >= 0 && got != want) { printf "%s: moves: says %d, %d move lines follow\n", F, want, got; bad = 1 }
        exit bad
    }' "$f" || status=1
done
[ $status -eq 0 ] && echo "check-format: $# move lists OK"
exit $status
