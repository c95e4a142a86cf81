#!/bin/sh
# Compare koma's Ko shogi move generation with tests/koshogi/refgen.py (written
# separately from the C engine): the exact move sets (canonical chains) of positions
# reached by random play, and perft d1, d2 of the start position.
# Usage: compare-engine.sh BINDIR [FEENFILE | SEED N]
#   FEENFILE  one FEEN a line (make check: positions.feen, made by
#             `refgen.py random 1 200`); default: `refgen.py random SEED N`
#             (default SEED 1, N 200)
# Both sides run once over all positions (koma-perft --divide --depth 1 -, and
# refmoves.py, refgen.py's own legal_moves in one process).
# Prints one line per disagreement (with the diff: '<' koma only, '>' refgen only) and
# "compare-engine: N positions compared, M agree"; exit 1 on any disagreement.
bindir=$1
[ -x "$bindir/koma-perft" ] || { echo "usage: compare-engine.sh BINDIR [FEENFILE | SEED N]" >&2; exit 2; }
here=$(dirname "$0")
gen="python3 $here/refgen.py"
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -eq 2 ]; then
    grep -v '^$' "$2" >"$tmp/feens" || exit 2
else
    $gen random "${2:-1}" "${3:-200}" >"$tmp/feens" || exit 2
fi
npos=$(wc -l <"$tmp/feens")
[ "$npos" -gt 0 ] || { echo "compare-engine: no positions" >&2; exit 1; }

total=0 agree=0
start=$($gen start)
for depth in 1 2; do
    want=$($gen perft "$start" $depth)
    got=$("$bindir/koma-perft" --game koshogi --depth $depth "$start")
    if [ "$got" = "$want" ] && [ -n "$got" ]; then agree=$((agree + 1))
    else echo "start perft d$depth: koma $got, refgen $want"; fi
    total=$((total + 1))
done

# one block a position: its chains, sorted, then an empty line
"$bindir/koma-perft" --game koshogi --divide --depth 1 - <"$tmp/feens" >"$tmp/koma.raw" 2>"$tmp/err" ||
    { echo "koma-perft fails: $(head -n 3 "$tmp/err")"; exit 1; }
awk '/^Nodes searched/ { print ""; next } /^$/ { next } { sub(/: [0-9]+$/, ""); print }' \
    "$tmp/koma.raw" >"$tmp/koma"
python3 "$here/refmoves.py" <"$tmp/feens" >"$tmp/ref" || { echo "refmoves.py fails"; exit 1; }

# split both into one file a position and compare them
awk -v d="$tmp" -v s=k 'BEGIN { n = 1 } /^$/ { close(f); n++; next } { f = d "/" s n; print >>f }' "$tmp/koma"
awk -v d="$tmp" -v s=r 'BEGIN { n = 1 } /^$/ { close(f); n++; next } { f = d "/" s n; print >>f }' "$tmp/ref"
i=0
while IFS= read -r feen; do
    i=$((i + 1))
    total=$((total + 1))
    touch "$tmp/k$i" "$tmp/r$i"
    sort "$tmp/k$i" -o "$tmp/k$i"
    if grep -q '^! ' "$tmp/r$i"; then
        echo "refgen rejects $feen: $(cat "$tmp/r$i")"
    elif [ ! -s "$tmp/r$i" ] && [ ! -s "$tmp/k$i" ]; then
        agree=$((agree + 1))           # both: no move (a side has lost)
    elif cmp -s "$tmp/k$i" "$tmp/r$i"; then
        agree=$((agree + 1))
    else
        echo "moves differ: $feen"
        diff "$tmp/k$i" "$tmp/r$i" | grep '^[<>]' | sed 's/^/    /'
    fi
done <"$tmp/feens"

moves=$(grep -vc '^$' "$tmp/ref")
echo "compare-engine: $total positions compared ($npos random, $moves moves in all; and perft d1, d2 of the start), $agree agree"
[ "$agree" = "$total" ]
