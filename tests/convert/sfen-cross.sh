#!/bin/sh
# The SFEN cross-test: random legal Shogi games (koma's move
# generator, tests/convert/gen-usi.c) are played move by move in koma
# (koma-convert --from usi --to sfen --each) and in tsshogi, a mainstream shogi
# library from the npm registry (tests/convert/sfen-cross.cjs); the SFEN after
# every move must be byte-identical, and tsshogi must accept every move.
# tsshogi is installed into a cache outside the source tree
# ($KOMA_NPM_CACHE, default ~/.cache/koma/npm); when it cannot be installed the
# suite says SKIPPED (and counts it) instead of failing.
# Usage: sfen-cross.sh BINDIR      (KOMA_SFEN_GAMES, KOMA_SFEN_SEED to vary)
bindir=$(cd "$1" && pwd) || exit 2
root=$(pwd)
games=${KOMA_SFEN_GAMES:-300}
seed=${KOMA_SFEN_SEED:-20261125}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

skip() {
    echo "sfen-cross: SKIPPED: $1"
    echo "sfen-cross: 0 passed, 0 failed, 1 skipped"
    exit 0
}

. "$root/tests/convert/tsshogi.sh"
why=$(tsshogi_ready "$tmp") || skip "$why"
version=$tsshogi_version
cache=$tsshogi_cache

cc -std=c11 -I"$root/lib/include" -o "$tmp/gen-usi" "$root/tests/convert/gen-usi.c" \
    "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm || { echo "sfen-cross: cannot build gen-usi"; exit 1; }
"$tmp/gen-usi" "$seed" "$games" 160 >"$tmp/games.usi" || { echo "sfen-cross: gen-usi failed"; exit 1; }
"$bindir/koma-convert" --from usi --to sfen --each "$tmp/games.usi" >"$tmp/koma.sfen" ||
    { echo "sfen-cross: koma-convert failed"; exit 1; }
NODE_PATH="$cache/node_modules" node "$root/tests/convert/sfen-cross.cjs" <"$tmp/games.usi" >"$tmp/tsshogi.sfen" ||
    { echo "sfen-cross: node failed"; exit 1; }
total=$(wc -l <"$tmp/koma.sfen")
if cmp -s "$tmp/koma.sfen" "$tmp/tsshogi.sfen"; then
    echo "sfen-cross: $games games, $total positions: koma's SFEN is tsshogi@$version's"
    echo "sfen-cross: 1 passed, 0 failed"
    exit 0
fi
echo "sfen-cross: koma and tsshogi@$version disagree (koma first):"
diff "$tmp/koma.sfen" "$tmp/tsshogi.sfen" | head -n 20
echo "sfen-cross: 0 passed, 1 failed"
exit 1
