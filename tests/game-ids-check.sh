#!/bin/sh
# tests/game-ids-check.sh — the built-in game ids are the files of lib/games/,
# never typed again: KOMA_GAME_IDS is generated from them (Makefile), so every
# tool taking --game names exactly those ids (its unknown-game message), no
# source under cmd/ spells a list of ids itself, and each man page's --game
# list names every id.
# Usage: game-ids-check.sh BINDIR
bindir=$(cd "${1:-build/bin}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
ids=$(for f in "$root"/lib/games/*.yaml; do basename "$f" .yaml; done | LC_ALL=C sort)
[ -n "$ids" ] || { echo "game-ids: no lib/games/*.yaml" >&2; exit 2; }
list=$(printf '%s\n' "$ids" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n/, /g')
for tool in replay repetition-check perft convert; do
    msg=$("$bindir/koma-$tool" --game nosuch-game --to ggn 2>&1 </dev/null; "$bindir/koma-$tool" --game nosuch-game 2>&1 </dev/null)
    if printf '%s\n' "$msg" | grep -qF "unknown game 'nosuch-game' ($list, or a FILE.yaml)"; then
        pass=$((pass + 1))
    else
        echo "game-ids: koma-$tool does not name the ids of lib/games ($list):"
        printf '%s\n' "$msg" | head -n 2; fail=$((fail + 1))
    fi
done
# a list of ids typed in a command (two ids in a row, in any order)
typed=$(grep -nE '"[^"]*\b(ogi|shogi|minishogi|okisaki|koshogi|ogi-classic), (ogi|shogi|minishogi|okisaki|koshogi|ogi-classic)\b' \
    "$root"/cmd/*.c "$root"/cmd/*.h 2>/dev/null)
if [ -z "$typed" ]; then
    pass=$((pass + 1))
else
    echo "game-ids: a list of game ids typed in cmd/ (use KOMA_GAME_IDS):"; printf '%s\n' "$typed" | head -n 3
    fail=$((fail + 1))
fi
# every man page with a --game list names every id
for page in "$root"/man/*.1; do
    grep -q '^\.It Fl g , Fl -game Ar game' "$page" || continue
    for id in $ids; do
        if grep -qE "^\\.Cm $id( ,)?\$" "$page"; then
            pass=$((pass + 1))
        else
            echo "game-ids: ${page#"$root"/}: the --game list lacks $id"; fail=$((fail + 1))
        fi
    done
done
suite_end game-ids
