#!/bin/sh
# Compare koma's Ko shogi move generation with tests/koshogi/refgen.py (written
# separately from the C engine): the exact move sets (canonical chains) of positions
# reached by random play, and perft d1, d2 of the start position (issue 11, "Done when").
# Usage: compare-engine.sh BINDIR [FEENFILE | SEED N]
#   FEENFILE  one FEEN a line; default: `refgen.py random SEED N` (default SEED 1, N 200)
# Prints one line per disagreement (with the diff: '<' koma only, '>' refgen only) and
# "compare-engine: N positions compared, M agree"; exit 1 on any disagreement.
bindir=$1
[ -x "$bindir/koma-perft" ] || { echo "usage: compare-engine.sh BINDIR [FEENFILE | SEED N]" >&2; exit 2; }
here=$(dirname "$0")
gen="python3 $here/refgen.py"
LC_ALL=C
export LC_ALL
tmp=${TMPDIR:-/tmp}/compare-engine.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

if [ $# -eq 2 ]; then
    cp "$2" "$tmp.feens" || exit 2
else
    $gen random "${2:-1}" "${3:-200}" >"$tmp.feens" || exit 2
fi

total=0 agree=0
start=$($gen start)
for depth in 1 2; do
    want=$($gen perft "$start" $depth)
    got=$("$bindir/koma-perft" --game koshogi --depth $depth "$start")
    if [ "$got" = "$want" ]; then agree=$((agree + 1)); else echo "start perft d$depth: koma $got, refgen $want"; fi
    total=$((total + 1))
done

while IFS= read -r feen; do
    [ -n "$feen" ] || continue
    total=$((total + 1))
    if ! "$bindir/koma-perft" --game koshogi --divide --depth 1 "$feen" >"$tmp.koma" 2>"$tmp.err"; then
        echo "koma-perft fails on $feen: $(cat "$tmp.err")"
        continue
    fi
    grep -v '^Nodes searched' "$tmp.koma" | sed 's/: [0-9]*$//' | sort >"$tmp.k"
    $gen moves "$feen" >"$tmp.r" || { echo "refgen fails on $feen"; continue; }
    if cmp -s "$tmp.k" "$tmp.r"; then
        agree=$((agree + 1))
    else
        echo "moves differ: $feen"
        diff "$tmp.k" "$tmp.r" | grep '^[<>]' | sed 's/^/    /'
    fi
done <"$tmp.feens"

echo "compare-engine: $total positions compared ($((total - 2)) random, and perft d1, d2 of the start), $agree agree"
[ "$total" -gt 2 ] && [ "$agree" = "$total" ]
