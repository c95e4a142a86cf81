#!/bin/sh
# make demo: show what koma does on the bundled sample data (tests/data/).
# Each step prints the command it runs, then its output.
bindir=$(cd "$1" && pwd) || exit 2
PATH="$bindir:$PATH"
export PATH
cd tests/data || exit 2

step() {
    printf '\n\033[1m$ %s\033[0m\n' "$*" 2>/dev/null || printf '\n$ %s\n' "$*"
    sh -c "$*"
    echo "(exit status $?)"
}
plain_step() {
    printf '\n$ %s\n' "$*"
    sh -c "$*"
    echo "(exit status $?)"
}
[ -t 1 ] || step() { plain_step "$@"; }

echo "koma demo — tools in $bindir"
echo "== FEEN positions: validate a file of game positions =="
step "koma validate --summary feen/games.feen"
echo
echo "== Fingerprints (FID) of the Ōgi start and the published tsume puzzles =="
step "head -n 1 feen/games.feen | koma-validate --print-fid"
step "sed -n '11,13p' feen/games.feen | koma-validate --print-fid"
echo
echo "== A database with mistakes: one diagnostic per bad line, file:line:column =="
step "koma-validate --summary feen/mixed.feen"
echo
echo "== The same as JSON Lines, for scripts =="
step "koma-validate --json feen/mixed.feen | head -n 3"
echo
echo "== Moves (PMN): syntax, and checked against a position =="
step "printf 'e3-e4\\nP*e5\\ne3e4\\n' | koma-validate --type pmn --position 'lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o'"
echo
echo "== Game records (PCN) as JSON Lines and YAML; move patterns (GGN) =="
step "koma-validate --type pcn --summary pcn/games.jsonl pcn/games.yaml"
step "koma-validate --type pcn pcn/mixed.jsonl | head -n 4"
step "koma-validate --type auto --summary ggn/valid-*.json pcn/games.jsonl feen/games.feen"
echo
echo "== The rules: perft of the Ōgi, Shogi and Okisaki start positions =="
step "koma-perft --game ogi --depth 4"
step "koma-perft --game shogi --depth 5"
step "koma-perft --game okisaki --depth 3"
step "koma-perft --game minishogi --depth 2 --divide | tail -n 4"
echo
echo "== A perft split into jobs and run on both cores with GNU parallel =="
step "koma-perft --game shogi --depth 5 --split 1 | parallel --pipe -k -N 8 koma-perft --game shogi - | awk '{ s += \$1 } END { print s }'"
echo
echo "== Replaying records under the rules: final positions, verdicts, disputes =="
step "koma-replay replay/ogi.jsonl 2>/dev/null | head -n 3 | cut -f 1-5"
step "koma-replay --adjudicate replay/ogi.jsonl replay/shogi.jsonl replay/okisaki.jsonl 2>/dev/null | cut -f 2- | sort | uniq | head -n 12"
step "koma-replay --summary replay/shogi.jsonl 2>/dev/null | tail -n 1"
step "koma-replay replay/shogi.jsonl 2>&1 >/dev/null | head -n 4"
step "koma-replay --each replay/ogi.jsonl 2>/dev/null | koma-repetition-check --fid-only --summary | tail -n 1"
step "koma-repetition-check repetition/shogi.jsonl | grep verdict | cut -f 1,3-5,7"
step "koma-diff --feen 'lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o' 'lnsik^snl/1r4b1/pppppppp/8/4P3/PPPP1PPP/1B4R1/LNSIK^SNL / o/O'"
echo
echo "== A database replayed on both cores with GNU parallel (same output as one process) =="
step "cat pcn/games.jsonl | parallel --will-cite --pipe -k -N 30 koma-replay | cut -f 3 | sort | uniq -c | sort -rn"
echo
echo "== The Ōgi rules as GGN move patterns (first lines of a 4 MB document) =="
step "koma-convert --to ggn --game ogi | head -n 12"
step "printf '4k^3/8/8/8/8/8/8/4K^3 PpBP/p O/o\\n' | koma-convert --normalise"
echo
echo "== koma-convert: the shogi world's records, positions and moves =="
step "koma-convert --list | head -n 14"
step "koma-convert --to yaml shogi-records/chudan.csa"
step "koma-convert --to pcn --summary shogi-records/*.csa | cut -c 1-120"
step "koma-replay --from csa shogi-records/v2.csa | cut -f 2-4"
step "koma-convert --to pcn convert/multi.csa | koma-convert --to csa | head -n 12"
step "echo 'position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e' | koma-convert --to sfen --each"
step "echo 'position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e' | koma-convert --to fen"
step "printf '7g7f\\n3c3d\\n8h2b+\\n' | koma-convert --from usi-move --to pmn"
step "echo 'position startpos moves 7g7f 3c3d 8h2b+' | koma-convert --to unicode"
step "koma-convert --to pcn shogi-records/henka.kif"
step "koma-convert --to kif --encoding utf-8 shogi-records/20091203.ki2 | head -n 12"
step "koma-convert --to ki2 --drop times --encoding utf-8 shogi-records/chudan.kif"
step "koma-convert --to pcn shogi-records/*.kif shogi-records/*.ki2 | koma-replay 2>/dev/null | cut -f 2-4 | sort | uniq -c"
step "koma-convert --from yaml --to pcn shogi-records/v2.csa"
step "head -n 1 replay/ogi.jsonl | koma-convert --to csa"
echo
echo "== koma-select: the games that reach a position, one copy of each game, in any format =="
step "koma-select -l -p 'lnsgk^gsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGK^GSNL B/ s/S' convert/pair/game.kif convert/pair/game.ki2 convert/pair/game.csa convert/pair/game.jkf convert/pair/game.usi convert/pair/game.yaml"
step "koma-select -l -p 'rb1gk^/2s2/P3p/2S2/K^G1BR / S/s' select/minishogi.jsonl"
step "koma-select -l --unique select/dup.kif select/dup.csa select/dup.jkf select/dup.jsonl select/changed.csa"
step "koma-select -l --duplicates koshogi/games.jsonl koshogi/variant.jsonl"
step "koma-select -l --status checkmate replay/shogi.jsonl"
step "koma-select --meta 'player=Gote' --meta 'date>=2026' --to usi convert/pair/game.kif"
step "koma-select -l --ply 30: --material 'hand:[A-Z]>=3' --pattern '????k^???/????????/????????/????????/????????/????????/????????/????K^???' pcn/games.jsonl | head -n 3"
echo
echo "== Pictures: the last position of a record as a diagram, and as an SVG file =="
pictures=$(cd "$bindir/.." && pwd)/demo
mkdir -p "$pictures"
step "head -n 2 replay/ogi.jsonl | tail -n 1 | koma-convert --to unicode"
step "head -n 2 replay/ogi.jsonl | tail -n 1 | koma-convert --to svg -o '$pictures/ogi-record2.svg' && echo 'SVG picture written to $pictures/ogi-record2.svg (rsvg-convert or a browser shows it)'"
echo
echo "== Ko shogi: 19x19, shots, burns, several captures in one move (PMN chains) =="
step "koma-perft --game koshogi --depth 3"
step "koma-perft --game koshogi --divide '19/19/19/19/19/9b^9/19/9m^9/19/19/10F8/19/19/19/19/19/19/19/K^18 / K/k' | grep +"
step "koma-validate --type pcn --replay --summary koshogi/games.jsonl"
step "koma-replay --adjudicate koshogi/games.jsonl 2>/dev/null | cut -f 2-"
step "koma-repetition-check koshogi/games.jsonl 2>/dev/null | grep verdict | grep -v none | cut -f 1,3-5"
step "koma-convert --to ggn --game koshogi"
echo
echo "== Sanki: chess (W), Ogi (J) and Xiongqi (C) on 8x8, each side its own =="
step "koma-convert --to unicode sanki/daily.feen"
step "koma-validate --print-fid sanki/daily.feen"
step "cat sanki/daily-solution.sanki"
step "koma-replay --pmn-dialect sanki --start \"\$(cat sanki/daily.feen)\" sanki/daily-solution.sanki | cut -f 2-5"
step "koma-convert --from sanki-move --start \"\$(cat sanki/daily.feen)\" --to pmn sanki/daily-solution.sanki"
step "koma-perft --depth 5 -- '-rnbik^bn-r/+f+f+f+f+f+f+f+f/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / W/j'"
step "head -n 1 sanki/games.jsonl | koma-convert --to unicode"
step "koma-convert --to sanki-move sanki/games.jsonl | tail -n 3"
step "koma-select -l --status checkmate sanki/games.jsonl; koma-repetition-check sanki/games.jsonl | grep verdict | cut -f 1,3-5"
step "koma-convert --to ggn --game sanki --compact | koma-validate --type ggn --summary"
echo
echo "== The atoms: coordinates, pieces, styles =="
step "printf 'e4\na1A\niv256IV\na0\n' | koma-validate --type cell"
step "printf 'K^\n+p\nK^^\n' | koma-validate --type pin"
step "printf 'O:K^\nC:k\n' | koma-validate --type qpi"
