#!/bin/sh
# The Fairy-Stockfish FEN cross-test: random legal games of Shogi, Minishogi,
# Okisaki and Ōgi (koma's move generator) played in koma (koma-convert --from
# fen-move --to fen --each) and in Debian's fairy-stockfish (Okisaki and Ōgi
# through tests/bench/fsf-variants.ini); the board, hands and side to move of every
# position must agree. Where the variants file's rules differ from koma's (see its
# header), Fairy-Stockfish refuses a move and the rest of that game is not compared.
# SKIPPED when fairy-stockfish is not installed.  Usage: fen-cross.sh BINDIR
bindir=$(cd "$1" && pwd) || exit 2
root=$(pwd)
fsf=$(command -v fairy-stockfish || ls /usr/games/fairy-stockfish 2>/dev/null)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
if [ -z "$fsf" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "fen-cross: SKIPPED: fairy-stockfish (or python3) is not installed"
    echo "fen-cross: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
cc -std=c11 -I"$root/lib/include" -o "$tmp/gen" "$root/tests/convert/gen-usi.c" \
    "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm || { echo "fen-cross: cannot build gen-usi"; exit 1; }
pass=0 fail=0
for game in shogi minishogi okisaki ogi; do
    case $game in
        shogi) start='lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s' ;;
        minishogi) start='rbsgk^/4p/5/P4/K^GSBR / S/s' ;;
        okisaki) start='lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSNL / Q/q' ;;
        ogi) start='lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o' ;;
    esac
    "$tmp/gen" 11 40 60 "$game" fen >"$tmp/$game.moves" || { echo "fen-cross: $game: gen failed"; fail=$((fail + 1)); continue; }
    # one game at a time: a game whose positions FEN cannot hold (a promoted piece
    # kept in hand by Ogi's King's privilege) is left out of the comparison
    rm -f "$tmp"/g.*; awk -v d="$tmp" 'BEGIN { n = 1 } /^$/ { n++; next } { print > (d "/g." n) }' "$tmp/$game.moves"
    : >"$tmp/$game.ok"; : >"$tmp/$game.koma"; skipped=0
    for g in "$tmp"/g.*; do
        if "$bindir/koma-convert" --from fen-move --start "$start" --to fen --each "$g" >"$tmp/one" 2>/dev/null; then
            cut -d' ' -f1-2 "$tmp/one" >>"$tmp/$game.koma"; cat "$g" >>"$tmp/$game.ok"; echo >>"$tmp/$game.ok"
        else
            skipped=$((skipped + 1))
        fi
    done
    python3 "$root/tests/convert/fen-cross.py" "$fsf" "$root/tests/bench/fsf-variants.ini" "$game" \
        <"$tmp/$game.ok" >"$tmp/$game.fsf"
    total=$(wc -l <"$tmp/$game.koma")
    bad=$(paste -d'|' "$tmp/$game.koma" "$tmp/$game.fsf" | awk -F'|' '$2 != "STOP" && $1 != $2' | wc -l)
    compared=$(grep -vc '^STOP$' "$tmp/$game.fsf")
    if [ "$total" -eq "$(wc -l <"$tmp/$game.fsf")" ] && [ "$bad" -eq 0 ] && [ "$compared" -gt 0 ]; then
        pass=$((pass + 1)); echo "fen-cross: $game: $compared of $total positions compared, all the same ($skipped games left out)"
    else
        fail=$((fail + 1)); echo "fen-cross: $game: $bad of $compared positions differ (koma|fairy-stockfish):"
        paste -d'|' "$tmp/$game.koma" "$tmp/$game.fsf" | awk -F'|' '$2 != "STOP" && $1 != $2' | head -n 5
    fi
done
echo "fen-cross: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
