#!/bin/sh
# Run tests/koshogi/refgen.py on every hand-written move list of tests/koshogi/movelists/
# and diff.  A list file holds one or more positions, each written as
#     # comment lines (a "# options: NAME=VALUE, ..." line: the rule options of every
#     # position of the file, given to refgen.py as -o NAME=VALUE)
#     feen: FEEN
#     moves: N
#     N canonical chains, sorted, one a line
# Prints one line per position (ok / DIFFERS, with the diff: '<' only in the list,
# '>' only in refgen's answer) and a summary; exit 1 when any position differs or a
# list is malformed, 0 when all agree.
# Usage: check-movelists.sh [LISTFILE...]     (default: every file of movelists/)
here=$(dirname "$0")
gen="python3 $here/refgen.py"
LC_ALL=C
export LC_ALL
tmp=${TMPDIR:-/tmp}/check-movelists.$$
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp" || exit 2

[ $# -gt 0 ] || set -- $(find "$here/movelists" -type f -name '*.txt' 2>/dev/null | sort)
[ $# -gt 0 ] || { echo "check-movelists: no list files found in $here/movelists" >&2; exit 2; }

total=0 agree=0 bad=0
for file in "$@"; do
    # Split the file into blocks: $tmp/N.feen, $tmp/N.count, $tmp/N.list
    rm -f "$tmp"/*
    awk -v dir="$tmp" '
        /^[ \t]*#/ || /^[ \t]*$/ { next }
        /^feen: / { n++; sub(/^feen: /, ""); print > (dir "/" n ".feen"); close(dir "/" n ".feen");
                    printf "" > (dir "/" n ".list"); next }
        /^moves: / { sub(/^moves: /, ""); print > (dir "/" n ".count"); close(dir "/" n ".count"); next }
        n { print >> (dir "/" n ".list") }
        !n { print "line " NR ": text before the first feen:" > "/dev/stderr"; bad = 1 }
        END { exit bad }' "$file" || { echo "$file: malformed" ; bad=$((bad + 1)); continue; }
    opts=
    for o in $(sed -n 's/^# options: //p' "$file" | sed 's/, / /g'); do opts="$opts -o $o"; done
    i=1
    while [ -f "$tmp/$i.feen" ]; do
        n=$tmp/$i feenfile=$tmp/$i.feen
        i=$((i + 1))
        total=$((total + 1))
        name="$file#$((i - 1))"
        want=$(cat "$n.count" 2>/dev/null)
        have=$(wc -l <"$n.list" | tr -d ' ')
        if [ "$want" != "$have" ]; then
            echo "$name: the list says moves: $want but holds $have chains"
        fi
        if ! $gen $opts moves "$(cat "$feenfile")" >"$n.got" 2>"$n.err"; then
            echo "$name: refgen rejects the position: $(cat "$n.err")"
            bad=$((bad + 1))
            continue
        fi
        sort "$n.list" >"$n.want"
        if cmp -s "$n.want" "$n.got" && [ "$want" = "$have" ]; then
            echo "$name: ok ($have moves)"
            agree=$((agree + 1))
        else
            echo "$name: DIFFERS (list $have, refgen $(wc -l <"$n.got" | tr -d ' '))"
            diff "$n.want" "$n.got" | grep '^[<>]' | sed 's/^/    /'
            bad=$((bad + 1))
        fi
    done
done
echo "check-movelists: $total positions compared, $agree agree, $bad differ or fail"
[ "$bad" = 0 ]
