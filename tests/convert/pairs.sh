#!/bin/sh
# Golden test of every pair of formats koma-convert reads and writes, on inputs
# written by hand (tests/data/convert/pair/: one short game in each record
# format; positions in FEEN, SFEN and Fairy-Stockfish FEN; moves in PMN, USI and
# Fairy-Stockfish notation). For each output format it prints what the PCN (or
# the FEEN, or the PMN) input gives, then for each other input format "same" or
# the lines that differ (-: from PCN, +: from that format). Run from tests/data
# with the tools on PATH (tests/cli/cases/convert/pairs).
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
dir=convert/pair
# convert FROM TO FILE [OPTION...]: the output, and the diagnostics after it
convert() {
    from=$1 to=$2 file=$3; shift 3
    if [ "$to" = svg ]; then
        # one file a picture (-o): their texts one after the other, then the diagnostics
        rm -rf "$tmp/svg"; mkdir "$tmp/svg"
        koma-convert --from "$from" --to svg -o "$tmp/svg/%03r.svg" "$@" "$file" 2>"$tmp/svg.err" ||
            echo "(exit $?)" >>"$tmp/svg.err"
        cat "$tmp/svg"/*.svg "$tmp/svg.err" 2>/dev/null
        return
    fi
    koma-convert --from "$from" --to "$to" "$@" "$file" 2>&1 || echo "(exit $?)"
}
compare() {   # compare REF-FROM TO FILE-PATTERN SOURCES... -- OPTIONS
    ref=$1 to=$2 pat=$3; shift 3
    sources=; while [ $# -gt 0 ] && [ "$1" != -- ]; do sources="$sources $1"; shift; done
    [ $# -gt 0 ] && shift
    echo "== $to (from $ref)"
    convert "$ref" "$to" "$(printf "$pat" "$ref")" "$@" >"$tmp/ref"
    if [ "$to" = svg ]; then
        echo "$(grep -c '<svg' "$tmp/ref") SVG pictures, $(grep -c '</svg>' "$tmp/ref") closed"
    else
        cat "$tmp/ref"
    fi
    for s in $sources; do
        convert "$s" "$to" "$(printf "$pat" "$s")" "$@" >"$tmp/out"
        if cmp -s "$tmp/ref" "$tmp/out"; then echo "-- from $s: same"
        else echo "-- from $s:"; diff "$tmp/ref" "$tmp/out" | grep -a '^[<>]' | sed 's/^</-/; s/^>/+/'; fi
    done
}
records="kif ki2 csa jkf usi yaml"
for to in pcn yaml csa kif ki2 jkf usi; do
    compare pcn "$to" "$dir/game.%s" $records
done
# positions: each position format, and a record (its last position)
for to in feen sfen fen fid ascii unicode svg; do
    compare feen "$to" "$dir/positions.%s" sfen fen
    case $to in
    feen|sfen|fen|fid) compare pcn "$to" "$dir/game.%s" kif csa usi -- --each ;;
    *) compare pcn "$to" "$dir/game.%s" kif csa usi ;;
    esac
done
# moves, from the shogi start
start="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
for to in pmn usi-move fen-move; do
    compare pmn "$to" "$dir/game.%s" usi-move fen-move -- --start "$start"
done
