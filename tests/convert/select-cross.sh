#!/bin/sh
# The position-search cross-test: for random legal Shogi games (koma's move
# generator, tests/convert/gen-usi.c, as USI position commands), the set of games
# that reach each of a hundred positions must be the same whether koma-select
# finds them (koma-select -l -p FEEN over the USI file) or tsshogi, a shogi
# library from the npm registry, plays every game and looks
# (tests/convert/select-cross.cjs, which also chooses the positions: the 60
# reached by the most games, openings where transpositions meet, and 40 deep
# in single games). The positions go from tsshogi's SFEN to FEEN with
# koma-convert (checked by sfen-cross.sh). tsshogi comes from the cache of
# tsshogi.sh; without it the suite says SKIPPED.
# Usage: select-cross.sh BINDIR      (KOMA_SELECT_GAMES, KOMA_SELECT_SEED to vary)
bindir=$(cd "$1" && pwd) || exit 2
root=$(pwd)
games=${KOMA_SELECT_GAMES:-2000}
seed=${KOMA_SELECT_SEED:-20261128}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

skip() {
    echo "select-cross: SKIPPED: $1"
    echo "select-cross: 0 passed, 0 failed, 1 skipped"
    exit 0
}

. "$root/tests/convert/tsshogi.sh"
why=$(tsshogi_ready "$tmp") || skip "$why"

cc -std=c11 -I"$root/lib/include" -o "$tmp/gen-usi" "$root/tests/convert/gen-usi.c" \
    "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm || { echo "select-cross: cannot build gen-usi"; exit 1; }
"$tmp/gen-usi" "$seed" "$games" 120 >"$tmp/games.usi" || { echo "select-cross: gen-usi failed"; exit 1; }
NODE_PATH="$tsshogi_path" node "$root/tests/convert/select-cross.cjs" <"$tmp/games.usi" >"$tmp/tsshogi.txt" ||
    { echo "select-cross: node failed"; exit 1; }
cut -f 1 "$tmp/tsshogi.txt" | "$bindir/koma-convert" --from sfen --to feen >"$tmp/targets.feen" ||
    { echo "select-cross: koma-convert failed"; exit 1; }
n=0 pairs=0 fail=0
while IFS= read -r feen; do
    n=$((n + 1))
    want=$(sed -n "${n}p" "$tmp/tsshogi.txt" | cut -f 2)
    got=$("$bindir/koma-select" -l -p "$feen" "$tmp/games.usi" | cut -d: -f 2 | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" = "$want" ]; then
        pairs=$((pairs + $(echo "$want" | wc -w)))
    else
        fail=$((fail + 1))
        [ $fail -le 5 ] && echo "select-cross: $feen: koma-select finds games [$got], tsshogi [$want]"
    fi
done <"$tmp/targets.feen"
if [ "$n" -ne 100 ]; then echo "select-cross: $n positions searched, not 100"; fail=$((fail + 1)); fi
if [ $fail -eq 0 ]; then
    echo "select-cross: $games games, $n positions, $pairs (game, position) pairs: koma-select finds the games tsshogi@$tsshogi_version finds"
    echo "select-cross: 1 passed, 0 failed"
    exit 0
fi
echo "select-cross: 0 passed, 1 failed"
exit 1
