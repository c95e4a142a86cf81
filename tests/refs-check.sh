#!/bin/sh
# tests/refs-check.sh — every reference the tree makes can be followed from a
# clone: the documents, manual pages and source files it names are in the tree
# (or are standard system manual pages, or public addresses), and no text cites
# an issue tracker's numbers.
#
# Usage: sh tests/refs-check.sh [--pending FILE] [ROOT]
#        sh tests/refs-check.sh --self-test
#
# ROOT (default: the tree this script is in) is read file by file: the files git
# tracks when ROOT is the top of a git work tree, else every file under ROOT but
# .git/ and build*/. One line a finding, `FILE:LINE: what`, on stdout, and exit
# 1; when there is none, one line saying how many files were read, and exit 0;
# exit 2 on trouble. The findings:
#
#   - a working note of the project's first sessions that was never part of
#     the tree, named (the design note, the notation digest and the Ko shogi
#     reading: their names are in the pattern below; say the fact, or cite
#     koma(7), koma-formats(5), koma-games(7), lib/README.md or a public address);
#   - a Markdown document (NAME.md, DIR/NAME.md) that is not in the tree, or a
#     text document with a directory (DIR/NAME.txt) that is not; a path is looked
#     up from the file's directory and from ROOT, a bare NAME.md anywhere in the
#     tree, and a path that is part of an address (https://...) is not a file;
#   - a C file name (NAME.c, NAME.h) that no file of the tree has, other than the
#     headers of the C library and of the packages the build uses (SYSTEM_HEADERS
#     below) and the placeholders a usage line writes in capitals (fuzz_NAME.c);
#   - a manual page that is not in man/: mdoc's `Xr NAME N`, or NAME(N) in text,
#     unless NAME(N) is a standard system page of SYSTEM_PAGES below. In C,
#     JavaScript and '#'-commented files (shell, Python, YAML, the Makefile...)
#     only the comments are read for NAME(N), and only a NAME that starts with
#     koma or libkoma or holds a '-' counts there: code and comments are full of
#     calls such as exit(1) and perft(1);
#   - an issue number: the word issue (or issues) followed by a number, with
#     or without '#', also with the number on the next line, and "defect N of
#     issue";
#   - a rule tag of a document not in the tree: [R7] (say the rule instead);
#   - a section sign with a number (§ 4, §8.3) on a line without an address: the
#     section of a document the reader cannot find (name a man page's section by
#     its title instead).
#
# In C, JavaScript and '#'-commented files the checks of manual pages, C file
# names and DIR/NAME.txt read the comments only; every other check reads the
# whole text of every file. Not read:
#   - tests/fuzz/corpus/: fuzzer inputs, bytes rather than prose;
#   - tests/data/ except its README files: sample databases, records and
#     positions the suites read;
#   - the golden files of tests/cli/cases/*/*/ (stdin, stdout, stderr, status):
#     what a tool reads and prints, compared byte for byte (their cmd files, the
#     command lines, are read);
#   - binary files (pictures);
#   - this script, whose self-test writes out every kind of bad reference.
#
# Pending files. tests/refs-pending.txt (or --pending FILE; '#' starts a comment)
# lists, one path a line, files being rewritten elsewhere: their findings are not
# printed. A listed manual page that is not in the tree yet (man/NAME.N) may be
# cited. Every line must still be needed, or it is a finding itself: a listed
# file with no finding left, a listed page not in the tree that nothing cites,
# or a listed path that is neither.
#
# --self-test copies the tree into a temporary directory, checks that the copy
# passes, then plants each kind of bad reference in turn (and a stale pending
# line) and expects exit 1 with the planted FILE:LINE; references planted in the
# excluded places, and in a pending file, must not fail.
set -u

# Standard manual pages of the system (Debian's) that the tree may cite.
SYSTEM_PAGES='mdoc(7) man(7) mandoc(1) groff(1) iconv(1) iconv(3) iconv_open(3)
parallel(1) jq(1) sh(1) make(1) git(1) awk(1) sed(1) grep(1) diff(1) cmp(1)
sort(1) sha256sum(1) script(1) time(1) valgrind(1) cc(1) gcc(1) clang(1)
python3(1) node(1) rsvg-convert(1) pkg-config(1) ld.so(8) apt-get(8)
malloc(3) realloc(3) free(3) write(2) read(2) open(2) printf(3) fprintf(3)
snprintf(3) stdio(3) getopt(3) getopt_long(3) setlocale(3) regex(3) signal(7)
sigpipe(7) utf-8(7) locale(7) environ(7) hier(7) glob(7) regex(7)'

# Headers of the C library, POSIX and the packages the build uses.
SYSTEM_HEADERS='assert.h ctype.h dirent.h emmintrin.h errno.h fcntl.h float.h
getopt.h iconv.h immintrin.h inttypes.h limits.h locale.h malloc.h math.h
pthread.h regex.h setjmp.h signal.h stdarg.h stdbool.h stddef.h stdint.h
stdio.h stdlib.h string.h strings.h time.h unistd.h wchar.h
sys/stat.h sys/types.h sys/wait.h sys/resource.h
yaml.h jansson.h cmocka.h nettle/sha2.h'

usage() { echo "usage: sh tests/refs-check.sh [--pending FILE] [ROOT] | --self-test" >&2; exit 2; }

self_test=0 pending=
while [ $# -gt 0 ]; do
    case $1 in
    --self-test) self_test=1; shift ;;
    --pending) [ $# -ge 2 ] || usage; pending=$2; shift 2 ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -le 1 ] || usage
here=$(cd "$(dirname "$0")/.." && pwd) || exit 2
root=${1:-$here}
root=$(cd "$root" && pwd) || exit 2

# The files of the tree, relative to root, one a line.
list_files() {
    top=$(git -C "$1" rev-parse --show-toplevel 2>/dev/null) || top=
    if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$1" && pwd -P)" ]; then
        git -C "$1" ls-files
    else
        (cd "$1" && find . -path ./.git -prune -o -path './build*' -prune -o -type f -print |
            sed 's#^\./##')
    fi
}

# check ROOT PENDING-FILE: the findings on stdout; 0 none, 1 some, 2 trouble.
check() {
    r=$1 pend=$2
    work=$(mktemp -d) || return 2
    list_files "$r" | LC_ALL=C sort >"$work/all" || { rm -rf "$work"; return 2; }
    # what is read: not the excluded places, not binary files
    grep -v -e '^tests/fuzz/corpus/' -e '^tests/cli/cases/.*/\(stdin\|stdout\|stderr\|status\)$' \
        -e '^tests/refs-check\.sh$' \
        "$work/all" | grep -v '^tests/data/' >"$work/scan0"
    grep '^tests/data/\(.*/\)\?README[^/]*$' "$work/all" >>"$work/scan0"
    (cd "$r" && tr '\n' '\0' <"$work/scan0" | xargs -0 grep -Il '' 2>/dev/null) >"$work/scan"
    : >"$work/pending"
    if [ -n "$pend" ] && [ -f "$pend" ]; then cp "$pend" "$work/pending"; fi
    (cd "$r" && LC_ALL=C awk -v ALL="$work/all" -v SCAN="$work/scan" -v PEND="$work/pending" \
        -v PENDNAME="${pend#"$r"/}" -v PAGES="$SYSTEM_PAGES" -v HEADERS="$SYSTEM_HEADERS" '
function basename(p) { sub(/.*\//, "", p); return p }
function dirname(p) { if (p !~ /\//) return ""; sub(/\/[^\/]*$/, "", p); return p }
# p with "." and ".." resolved; "" when it climbs out of the tree
function norm(p,   n, a, i, out, k, s) {
    n = split(p, a, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (a[i] == "" || a[i] == ".") continue
        if (a[i] == "..") { if (k == 0) return ""; k--; continue }
        s[++k] = a[i]
    }
    out = ""
    for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") s[i]
    return out
}
function in_tree(tok, f,   d, p) {
    if (tok ~ /^\//) return 0
    d = dirname(f)
    p = norm((d == "" ? "" : d "/") tok); if (p != "" && (p in file)) return 1
    p = norm(tok); if (p != "" && (p in file)) return 1
    return 0
}
# some file of the tree is DIR/tok (a path given from another directory)
function suffix_in_tree(tok,   p) {
    for (p in file) if (length(p) > length(tok) && substr(p, length(p) - length(tok)) == "/" tok) return 1
    return 0
}
function finding(f, n, msg) {
    if (f in pendfile) { pendhits[f]++; return }
    printf "%s:%d: %s\n", f, n, msg
    bad = 1
}
function kind(f) {
    if (f ~ /\.(c|h|inc|def|js|cjs)$/) return "c"
    if (f ~ /^man\/[^\/]*\.[1-9]$/) return "man"
    if (f ~ /\.(md|json)$/ || basename(f) ~ /^README/) return "doc"
    if (f ~ /\.py$/) return "py"
    return "hash"
}
# The comment text of line s of a C-like file (the rest blanked); state in inblock.
function c_comments(s,   out, i, c, n, q) {
    if (!inblock && index(s, "/") == 0) return ""
    out = ""; n = length(s); q = ""
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (inblock) {
            if (c == "*" && substr(s, i + 1, 1) == "/") { inblock = 0; out = out "  "; i++; continue }
            out = out c; continue
        }
        if (q != "") {
            if (c == "\\") { i++; out = out "  "; continue }
            if (c == q) q = ""
            out = out " "; continue
        }
        if (c == "\"" || c == "\047") { q = c; out = out " "; continue }
        if (c == "/" && substr(s, i + 1, 1) == "*") { inblock = 1; out = out "  "; i++; continue }
        if (c == "/" && substr(s, i + 1, 1) == "/") return out substr(s, i)
        out = out " "
    }
    return out
}
# The comment of line s of a "#"-commented file: from the first "#" that starts
# the line or follows a blank, outside quotes.
function hash_comment(s,   i, c, n, q, prev) {
    if (index(s, "#") == 0) return ""
    n = length(s); q = ""; prev = " "
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (q != "") { if (c == q) q = ""; prev = c; continue }
        if (c == "\"" || c == "\047") { q = c; prev = c; continue }
        if (c == "#" && (prev == " " || prev == "\t")) return substr(s, i)
        prev = c
    }
    return ""
}
function man_ref(f, n, name, sec,   key) {
    key = name "(" sec ")"
    if (("man/" name "." sec) in file) return
    if (key in syspage) return
    if (("man/" name "." sec) in pendfile) { pendcited["man/" name "." sec] = 1; return }
    finding(f, n, "manual page " key " is not in man/ (nor a system page of the allow-list)")
}
function scan_manrefs(f, n, text, strict,   t, name, sec, m) {
    t = text
    while (match(t, /[A-Za-z][A-Za-z0-9_.+-]*\([1-9][a-z]*\)/)) {
        m = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
        name = m; sub(/\(.*/, "", name)
        sec = m; sub(/^[^(]*\(/, "", sec); sub(/[a-z]*\)$/, "", sec)
        if (!strict && name !~ /^(lib)?koma/ && name !~ /-/) continue
        man_ref(f, n, name, sec)
    }
}
# The comment text of line s of a Python file: its "#" comment, or the whole
# line when it is in or opens or closes a docstring; state in inblock.
function py_comment(s,   t, c) {
    t = s; c = gsub(/"""|\047\047\047/, "", t)
    if (inblock || c > 0) { if (c % 2 == 1) inblock = !inblock; return s }
    return hash_comment(s)
}
function scan_line(f, n, s, k,   t, m, low, tok, comment, before) {
    # working notes never in the tree
    t = s
    while (match(t, /(DESIGN|notations|ko-shogi)\.md/)) {
        finding(f, n, "names " substr(t, RSTART, RLENGTH) ", a working note not in the tree")
        t = substr(t, RSTART + RLENGTH)
    }
    # issue numbers
    low = tolower(s)
    if (low ~ /(^|[^a-z])issues?[ \t]*#?[ \t]*[0-9]/ || low ~ /defects?[ \t]+[0-9]+[ \t]+of[ \t]+(the[ \t]+)?issue/)
        finding(f, n, "cites an issue number")
    # rule tags; sections of an unnamed document
    if (s ~ /\[R[0-9]+\]/) finding(f, n, "cites a rule tag such as [R7] of a document not in the tree")
    if (s ~ /\302\247[ ]?[0-9A-Z]/ && s !~ /:\/\//) finding(f, n, "cites a section (\302\247N) of a document it does not name by its address")
    # the text where manual pages and C file names count
    if (k == "c") comment = c_comments(s)
    else if (k == "hash") comment = hash_comment(s)
    else if (k == "py") comment = py_comment(s)
    else comment = s
    if (k == "man") {
        t = s
        while (match(t, /(^|[ \t.])Xr[ \t]+[A-Za-z0-9_.+-]+[ \t]+[1-9]/)) {
            m = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
            sub(/^[ \t.]*Xr[ \t]+/, "", m)
            split(m, xr, /[ \t]+/)
            man_ref(f, n, xr[1], xr[2])
        }
    }
    scan_manrefs(f, n, comment, k == "man" || k == "doc")
    # Markdown documents (the whole text); text documents with a directory (the
    # comments, as for C file names)
    t = s
    while (match(t, /[A-Za-z0-9_.~\/:-]*[A-Za-z0-9_-]\.(md|txt)/)) {
        before = RSTART > 1 ? substr(t, RSTART - 1, 1) : ""
        tok = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
        if (t ~ /^[A-Za-z0-9_]/) continue                 # NAME.mdx, NAME.txt2
        if (before == "$" || before == "}" || before == ")") continue   # $dir/NAME.md
        if (tok ~ /:\/\// || tok ~ /^[a-z0-9.-]+\.[a-z]+\//) continue   # an address
        if (tok ~ /(^|\/)(DESIGN|notations|ko-shogi)\.md$/) continue   # said above
        if (tok ~ /^(build[^\/]*|work|tmp)\//) continue    # made by a run
        if (tok ~ /\.txt$/ && (tok !~ /\// || tok ~ /[A-Z][A-Z]/ || index(comment, tok) == 0)) continue
        if (in_tree(tok, f)) continue
        if (tok ~ /\// && tok !~ /^\.\.?\// && tok !~ /^\// && suffix_in_tree(tok)) continue
        if (tok !~ /\// && (tok in base)) continue
        finding(f, n, "names " tok ", which is not in the tree")
    }
    # C file names (not the command line of a compiler: cc prog.c)
    t = comment
    if (t ~ /(^|[ \t])(cc|gcc|clang)[ \t]/) t = ""
    while (match(t, /[A-Za-z0-9_.\/-]*[A-Za-z0-9_]\.[ch]/)) {
        tok = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
        if (t ~ /^[A-Za-z0-9_]/) continue
        if (tok ~ /:\/\//) continue
        if (tok in sysheader) continue
        if (tok ~ /[A-Z][A-Z]/) continue                  # a placeholder: fuzz_NAME.c
        if (basename(tok) in base) continue
        finding(f, n, "names " tok ", which no file of the tree is")
    }
}
BEGIN {
    while ((getline line < ALL) > 0) { file[line] = 1; base[basename(line)] = 1 }
    np = split(PAGES, pg, /[ \t\n]+/); for (i = 1; i <= np; i++) if (pg[i] != "") syspage[pg[i]] = 1
    nh = split(HEADERS, hd, /[ \t\n]+/); for (i = 1; i <= nh; i++) if (hd[i] != "") sysheader[hd[i]] = 1
    npend = 0
    while ((getline line < PEND) > 0) {
        npend++
        sub(/#.*/, "", line); gsub(/^[ \t]+|[ \t]+$/, "", line)
        if (line == "") continue
        pendfile[line] = 1; pendline[line] = npend
    }
    while ((getline f < SCAN) > 0) {
        k = kind(f); inblock = 0; n = 0; held = ""
        while ((getline s < f) > 0) {
            n++
            scan_line(f, n, s, k)
            # "issue" at the end of one line, its number at the start of the next
            if (held != "" && tolower(s) ~ /^[ \t\/*#;.-]*#?[0-9]/) finding(f, n - 1, "cites an issue number")
            held = (tolower(s) ~ /(^|[^a-z])issues?[ \t]*$/) ? "issue" : ""
        }
        close(f)
    }
    for (p in pendfile) {
        if (p in file) {
            if (!(p in pendhits))
                printf "%s:%d: %s has no finding left: take it off the list\n", PENDNAME, pendline[p], p
            else continue
        } else if (p ~ /^man\/[^\/]*\.[1-9]$/) {
            if (p in pendcited) continue
            printf "%s:%d: %s is cited by no file: take it off the list\n", PENDNAME, pendline[p], p
        } else
            printf "%s:%d: %s is not in the tree\n", PENDNAME, pendline[p], p
        bad = 1
    }
    exit bad ? 1 : 0
}') >"$work/out"
    st=$?
    LC_ALL=C sort -t: -k1,1 -k2,2n "$work/out"
    nread=$(wc -l <"$work/scan" | tr -d ' ')
    rm -rf "$work"
    return $st
}

if [ "$self_test" -eq 0 ]; then
    if [ -z "$pending" ] && [ -f "$root/tests/refs-pending.txt" ]; then pending=$root/tests/refs-pending.txt; fi
    check "$root" "$pending"
    st=$?
    [ "$st" -eq 0 ] && echo "refs-check: $nread files read, no finding"
    exit $st
fi

# ---- the self-test ------------------------------------------------------------
# Every bad reference is planted at once (each on a line of its own), the check
# runs once and must name each planted FILE:LINE, and nothing else; then the
# pending list's rules, one run each.
. "$here/tests/lib.sh"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
copy=$tmp/tree
mkdir "$copy" "$tmp/orig" || exit 2
# the tree without the fuzz corpus (not read, and large)
list_files "$root" | grep -v '^tests/fuzz/corpus/' >"$tmp/files"
(cd "$root" && while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done <"$tmp/files" |
    tar cf - -T -) | (cd "$copy" && tar xf -) || exit 2
pend=$copy/tests/refs-pending.txt
[ -f "$pend" ] || : >"$pend"
cp "$pend" "$tmp/pend.orig"

# run WANT-STATUS WHAT: the check on the copy, its status compared, output kept
run() {
    check "$copy" "$pend" >"$tmp/out" 2>&1
    st=$?
    if [ "$st" -eq "$1" ]; then return 0; fi
    suite_fail "refs-check self-test: $2: exit $st, not $1:"
    sed 's/^/  /' "$tmp/out" >&2
    return 1
}
# plant FILE TEXT...: lines added to FILE of the copy (made if need be), the
# original kept; sets planted=FILE:LINE of the first one
plant() {
    f=$1; shift
    if [ ! -e "$tmp/orig/$f" ] && [ ! -e "$tmp/orig/$f.none" ]; then
        mkdir -p "$(dirname "$tmp/orig/$f")" "$(dirname "$copy/$f")"
        if [ -f "$copy/$f" ]; then cp "$copy/$f" "$tmp/orig/$f"; else : >"$tmp/orig/$f.none"; fi
        printf '%s\n' "$f" >>"$tmp/planted-files"
    fi
    n=$(cat "$copy/$f" 2>/dev/null | wc -l | tr -d ' ')
    printf '%s\n' "$@" >>"$copy/$f"
    planted=$f:$((n + 1))
}
unplant_all() {
    [ -f "$tmp/planted-files" ] || return 0
    while IFS= read -r f; do
        if [ -e "$tmp/orig/$f.none" ]; then rm -f "$copy/$f" "$tmp/orig/$f.none"
        else cp "$tmp/orig/$f" "$copy/$f" && rm -f "$tmp/orig/$f"; fi
    done <"$tmp/planted-files"
    rm -f "$tmp/planted-files"
}
: >"$tmp/want"
# The names the check refuses, put together here so that this script does not
# cite them itself.
design=DESIGN; design=$design.md
digest=notations; digest=$digest.md
koshogi=ko-shogi; koshogi=$koshogi.md
iss=issue; Iss=Issue
bad() {   # FILE TEXT...: must be a finding at the first line planted
    plant "$@"
    printf '%s\n' "$planted" >>"$tmp/want"
}

run 0 "the tree as it is" && suite_pass

bad lib/cell.c "/* the rules of $design section 4 */"
bad lib/games/shogi.yaml "# see $digest"
bad tests/koshogi/README.md "As $koshogi says."
bad Makefile '# see docs/rules.md for the rules'
bad README.md 'Read [the guide](GUIDE.md).'
bad tests/perft/suite.tsv '# sources: seeds/ogi-rule-system.txt'
bad man/koma.7 '.Xr koma-nosuch 1 ,'
bad lib/README.md 'See nosuch(3).'
bad cmd/cli.c '/* see koma-nosuch(7), KO SHOGI */'
bad tests/cli/progress.sh '# (koma-nosuch(1))'
bad lib/atoms.c '/* what movegen_old.c used to do */'
bad tests/lib.sh "# fixed for $iss 12"
bad lib/pcn.c "/* the bug of $iss #3 */"
bad schemas/pcn.schema.json '"description": "defect 4 of issue twelve"'
bad man/koma-formats.5 ".\\\" $Iss 13 asks for it"
bad tests/unit/test_cgsn.c '/* a status of its own (Issue' ' * 4, defect 2) */'
bad lib/games/koshogi.yaml '# a burner burns on arrival [R8]'
bad lib/fid.c '/* the ranks (§7.3) */'
bad tests/data/README.md "As $design says."
# not findings: real pages and files, calls, addresses, the places not read
plant lib/cgsn.c '/* exit(1) and perft(1) in a comment; koma-formats(5), koma(7) */' \
    '    if (x) exit(1); /* lib/README.md, tests/data/README.md */' \
    '/* https://example.org/spec §4 */'
plant tests/bench/README 'https://github.com/o/r/blob/main/NOTES.md and https://example.org/issues/12'
plant tests/data/pcn/new.jsonl "{\"note\":\"$design $iss 12 [R7]\"}"
plant tests/cli/cases/validate/usage/stdout "$iss 12 $design"
plant tests/fuzz/corpus/pmn/x "$digest §10"
if run 1 "every kind of bad reference"; then
    sort -u "$tmp/want" >"$tmp/want.s"
    cut -d: -f1,2 "$tmp/out" | sort -u >"$tmp/got.s"
    if cmp -s "$tmp/want.s" "$tmp/got.s"; then
        suite_pass
    else
        suite_fail "refs-check self-test: the findings are not the planted lines:"
        comm -23 "$tmp/want.s" "$tmp/got.s" | sed 's/^/  not found: /' >&2
        comm -13 "$tmp/want.s" "$tmp/got.s" | sed 's/^/  not planted: /' >&2
    fi
fi
unplant_all

# pending files: findings hidden; a line no longer needed fails
lastline() { wc -l <"$pend" | tr -d ' '; }
printf 'lib/cell.c\n' >>"$pend"
plant lib/cell.c "/* $design */"
run 0 "a pending file's finding is not printed" && suite_pass
unplant_all
run 1 "a pending file with no finding left" &&
    if grep -q "^tests/refs-pending.txt:$(lastline): " "$tmp/out"; then suite_pass
    else suite_fail "refs-check self-test: the stale pending line is not named"; fi
cp "$tmp/pend.orig" "$pend"
printf 'man/koma-nosuch.7\n' >>"$pend"
run 1 "a pending page that nothing cites" &&
    if grep -q "^tests/refs-pending.txt:$(lastline): " "$tmp/out"; then suite_pass
    else suite_fail "refs-check self-test: the uncited pending page is not named"; fi
plant lib/cell.c '/* koma-nosuch(7) */'
run 0 "a pending page may be cited" && suite_pass
unplant_all
cp "$tmp/pend.orig" "$pend"
printf 'lib/nosuch.c\n' >>"$pend"
run 1 "a pending path not in the tree" &&
    if grep -q "^tests/refs-pending.txt:$(lastline): " "$tmp/out"; then suite_pass
    else suite_fail "refs-check self-test: the pending path not in the tree is not named"; fi
cp "$tmp/pend.orig" "$pend"
run 0 "the tree as it is, after the plants" && suite_pass
suite_end refs-check-self-test
