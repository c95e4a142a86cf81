#!/bin/sh
# The KIF/KI2/JKF cross-test against tsshogi (npm), a mainstream shogi library
# that reads and writes all three (tests/convert/kif-cross.cjs):
#   1. every real KIF, KI2 and JKF record of tests/data/shogi-records is read by
#      koma and by tsshogi, and both give the same USI main line;
#   2. random legal games (tests/convert/gen-usi.c, with drops, promotions and
#      pieces that need relative marks) written by koma in each format are read
#      by tsshogi: the same moves;
#   3. the same games written by tsshogi in each format are read by koma: the
#      same moves.
# tsshogi is installed into the cache of sfen-cross.sh ($KOMA_NPM_CACHE); when it
# cannot be, the suite says SKIPPED (and counts it) instead of failing.
# Usage: kif-cross.sh BINDIR      (KOMA_KIF_GAMES, KOMA_KIF_SEED to vary)
bindir=$(cd "$1" && pwd) || exit 2
root=$(pwd)
games=${KOMA_KIF_GAMES:-200}
seed=${KOMA_KIF_SEED:-20261126}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

skip() {
    echo "kif-cross: SKIPPED: $1"
    echo "kif-cross: 0 passed, 0 failed, 1 skipped"
    exit 0
}

. "$root/tests/convert/tsshogi.sh"
why=$(tsshogi_ready "$tmp") || skip "$why"
export NODE_PATH="$tsshogi_path"
version=$tsshogi_version
PATH="$bindir:$PATH"
pass=0 fail=0
check() {            # check NAME A B: A and B the same file
    if cmp -s "$2" "$3"; then
        pass=$((pass + 1))
        echo "kif-cross: $1: $(wc -l <"$2") records the same"
    else
        fail=$((fail + 1))
        echo "kif-cross: $1: koma and tsshogi@$version disagree (koma first):"
        diff "$2" "$3" | head -n 6 | cut -c1-200
    fi
}
utf8() { if iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then cat "$1"; else iconv -f CP932 -t UTF-8 "$1"; fi; }

# 1. the real records
for f in "$root"/tests/data/shogi-records/*.kif "$root"/tests/data/shogi-records/*.ki2 \
    "$root"/tests/data/shogi-records/*.jkf; do
    ext=${f##*.}
    koma-convert --from "$ext" --to usi --drop variations "$f" >>"$tmp/real-koma.usi" 2>&1
    utf8 "$f" >"$tmp/real.$ext"
    node "$root/tests/convert/kif-cross.cjs" read "$ext" "$tmp/real.$ext" >>"$tmp/real-ts.usi" ||
        { echo "kif-cross: node failed"; exit 1; }
done
check "real KIF, KI2 and JKF records read" "$tmp/real-koma.usi" "$tmp/real-ts.usi"

# 2. and 3. random games
cc -std=c11 -I"$root/lib/include" -o "$tmp/gen-usi" "$root/tests/convert/gen-usi.c" \
    "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm || { echo "kif-cross: cannot build gen-usi"; exit 1; }
"$tmp/gen-usi" "$seed" "$games" 200 >"$tmp/games.usi" || { echo "kif-cross: gen-usi failed"; exit 1; }
koma-convert --from usi --to usi "$tmp/games.usi" >"$tmp/koma.usi" || { echo "kif-cross: koma-convert failed"; exit 1; }
for fmt in kif ki2 jkf; do
    koma-convert --from usi --to "$fmt" "$tmp/games.usi" >"$tmp/koma.$fmt" || { echo "kif-cross: koma-convert failed"; exit 1; }
    node "$root/tests/convert/kif-cross.cjs" read "$fmt" "$tmp/koma.$fmt" >"$tmp/ts-read.usi" ||
        { echo "kif-cross: node failed"; exit 1; }
    check "tsshogi reads koma's $fmt" "$tmp/koma.usi" "$tmp/ts-read.usi"
    node "$root/tests/convert/kif-cross.cjs" write "$fmt" <"$tmp/koma.usi" >"$tmp/ts.$fmt" ||
        { echo "kif-cross: node failed"; exit 1; }
    koma-convert --from "$fmt" --to usi "$tmp/ts.$fmt" >"$tmp/koma-read.usi" 2>"$tmp/err"
    cat "$tmp/err" >>"$tmp/koma-read.usi"
    check "koma reads tsshogi's $fmt" "$tmp/koma.usi" "$tmp/koma-read.usi"
done
echo "kif-cross: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
