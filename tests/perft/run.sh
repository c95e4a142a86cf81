#!/bin/sh
# Perft suites: run every line of tests/perft/suite.tsv of the "check" tier (all
# tiers with "deep") through koma-perft and compare the node counts; then check
# that --divide adds up and that a --split run, summed, equals the direct count
# (with GNU parallel when installed, and with a plain pipe).
# Usage: run.sh BINDIR [deep]
bindir=$1
mode=${2:-check}
perft=$bindir/koma-perft
suite=$(dirname "$0")/suite.tsv
[ -x "$perft" ] || { echo "perft: $perft not built" >&2; exit 2; }
LC_ALL=C
export LC_ALL
tab=$(printf '\t')
. "$(dirname "$0")/../lib.sh"

note() {
    if [ "$1" = ok ]; then suite_pass; else suite_fail "perft: FAILED $2"; fi
}

tmp_count=$(mktemp) || exit 2
while IFS="$tab" read -r tier game depth nodes feen; do
    case $tier in ''|'#'*) continue ;; esac
    [ "$tier" = check ] || [ "$mode" = deep ] || continue
    start=$(date +%s)
    got=$("$perft" --game "$game" --depth "$depth" -- "$feen")
    secs=$(( $(date +%s) - start ))
    if [ "$got" = "$nodes" ]; then note ok; else note bad "$game d$depth: got '$got', want $nodes: $feen"; fi
    [ "$mode" = deep ] && echo "perft: $game d$depth = $got (${secs}s)"
    echo >>"$tmp_count"
done <"$suite"
[ -s "$tmp_count" ] || note bad "no suite line of tier $mode in $suite"
rm -f "$tmp_count"

# --divide: one line per root move, sorted by PMN, and the total.
shogi='lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s'
out=$("$perft" --divide --depth 3 "$shogi")
lines=$(printf '%s\n' "$out" | grep -c ': ')
sum=$(printf '%s\n' "$out" | grep -v '^Nodes searched' | awk -F': ' '{s += $2} END {print s}')
last=$(printf '%s\n' "$out" | tail -n 1)
sorted=$(printf '%s\n' "$out" | grep -v '^Nodes searched' | cut -d: -f1 | sort -c 2>&1 && echo sorted)
if [ "$lines" = 31 ] && [ "$sum" = 25470 ] && [ "$last" = "Nodes searched: 25470" ] &&
   [ "$sorted" = sorted ]; then note ok; else note bad "divide: $lines lines, sum $sum, '$last', $sorted"; fi

# Sanki: a divide counted by hand (tests/perft/sanki-uchifuzume.divide says how).
hand=$(dirname "$0")/sanki-uchifuzume.divide
feen=$(sed -n 's/^#   \(7k.*\)$/\1/p' "$hand")
got=$("$perft" --divide --depth 1 -- "$feen" | grep ': 1$' | cut -d: -f1 | sort)
want=$(grep -v '^#' "$hand" | sort)
if [ -n "$feen" ] && [ "$got" = "$want" ]; then note ok
else note bad "sanki divide by hand: $(printf '%s\n' "$got" | wc -l) moves, the hand list has $(printf '%s\n' "$want" | wc -l)"; fi

# --split: the jobs of a depth-4 perft split at 2 plies sum to the direct count.
want=$("$perft" --game ogi --depth 4)
jobs=$("$perft" --game ogi --depth 4 --split 2 | wc -l)
sum=$("$perft" --game ogi --depth 4 --split 2 | "$perft" --game ogi - | awk '{s += $1} END {print s}')
if [ "$want" = 358253 ] && [ "$jobs" = 625 ] && [ "$sum" = "$want" ]; then note ok
else note bad "split (pipe): $jobs jobs, sum $sum, want $want"; fi
if command -v parallel >/dev/null 2>&1; then
    sum=$("$perft" --game shogi --depth 4 --split 2 |
          parallel --will-cite --pipe -k -N 100 "$perft" --game shogi - | awk '{s += $1} END {print s}')
    if [ "$sum" = 719731 ]; then note ok; else note bad "split (parallel): sum $sum, want 719731"; fi
fi

# Ko shogi: --divide lists every root move as its canonical chain, --split jobs
# sum to the direct count (tests/koshogi/README.md: d2 = 49593).
out=$("$perft" --game koshogi --divide --depth 2)
lines=$(printf '%s\n' "$out" | grep -c ': ')
sum=$(printf '%s\n' "$out" | grep -v '^Nodes searched' | awk -F': ' '{s += $2} END {print s}')
passline=$(printf '%s\n' "$out" | grep -c '^\.\.\.: 223$')
if [ "$lines" = 224 ] && [ "$sum" = 49593 ] && [ "$passline" = 1 ] &&
   [ "$(printf '%s\n' "$out" | tail -n 1)" = "Nodes searched: 49593" ]; then note ok
else note bad "koshogi divide: $lines lines, sum $sum, pass line $passline"; fi
jobs=$("$perft" --game koshogi --depth 2 --split 1 | wc -l)
sum=$("$perft" --game koshogi --depth 2 --split 1 | "$perft" --game koshogi - | awk '{s += $1} END {print s}')
if [ "$jobs" = 223 ] && [ "$sum" = 49593 ]; then note ok
else note bad "koshogi split: $jobs jobs, sum $sum, want 223 jobs, 49593"; fi

suite_end perft
