#!/bin/sh
# tests/man-c-example.sh BUILD MANPAGE — the C program of libkoma(3)'s
# "Replaying records" is taken out of the page, compiled against the static
# library and the public headers only, run on a sample database, and compared
# with the columns koma-replay --adjudicate prints for the same records: an
# example that no longer compiles, or says something else than the tool, fails.
set -u
b=${1:?usage: man-c-example.sh BUILD MANPAGE}
page=${2:?usage: man-c-example.sh BUILD MANPAGE}
data=tests/data/pcn/games.jsonl
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
# the literal block after the subsection title, its roff escapes undone
awk '/^\.Ss Replaying records/ { s = 1; next }
     s == 1 && /^\.Bd/ { s = 2; next }
     s == 2 && /^\.Ed/ { exit }
     s == 2 { print }' "$page" | sed 's/\\e/\\/g' > "$t/replay.c"
if ! grep -q 'int$' "$t/replay.c" || ! grep -q 'main(void)' "$t/replay.c"; then
    echo "man-c-example: no program found under \"Replaying records\" in $page"
    exit 1
fi
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -Ilib/include "$t/replay.c" "$b/lib/libkoma.a" \
        -lyaml -ljansson -lnettle -lm -o "$t/replay" 2> "$t/cc.err"; then
    echo "man-c-example: the program of $page does not compile:"
    cat "$t/cc.err"
    exit 1
fi
"$t/replay" < "$data" > "$t/got" 2> "$t/got.err"
"$b/bin/koma-replay" --adjudicate "$data" 2>/dev/null | cut -f 2,3,5 > "$t/want"
if [ ! -s "$t/want" ] || ! cmp -s "$t/got" "$t/want"; then
    echo "man-c-example: the program of $page and koma-replay --adjudicate differ on $data:"
    diff "$t/want" "$t/got" | head -20
    exit 1
fi
echo "man-c-example: 1 passed, 0 failed ($(wc -l < "$t/got") records)"
