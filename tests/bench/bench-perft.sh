# koma-perft beside Debian's fairy-stockfish (UCI `go perft`), same positions, same
# run (sourced by run.sh). Both count the last ply in bulk. Times are CPU seconds
# (user + system), so a busy machine skews both alike; nodes/s = nodes / CPU s.
#   BENCH_PERFT_DEEP=1  also shogi d6 and minishogi d7 (a minute or more)
fsf=$(command -v fairy-stockfish 2>/dev/null || { [ -x /usr/games/fairy-stockfish ] && echo /usr/games/fairy-stockfish; })

cpu_time() {      # cpu_time CMD... < stdin : sets $cpu (user + sys) and $wall
    /usr/bin/time -f '%U %S %e' -o "$work/time.out" "$@" >"$work/perft.out" 2>/dev/null
    read -r u s wall <"$work/time.out"
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
}

perft_pair() {    # perft_pair GAME VARIANT DEPTH
    game=$1 variant=$2 depth=$3
    # koma's run is short (a tenth of a second: the CPU time is read in
    # hundredths): it is run again until the runs add up to a second of CPU, at
    # least three times, and its time is their mean
    kcpu=0; kwall=0; runs=0
    while [ "$runs" -lt 3 ] || awk -v a="$kcpu" 'BEGIN { exit !(a < 1) }'; do
        cpu_time koma-perft --game "$game" --depth "$depth"
        kcpu=$(awk -v a="$kcpu" -v b="$cpu" 'BEGIN { printf "%.2f", a + b }')
        kwall=$(awk -v a="$kwall" -v b="$wall" 'BEGIN { printf "%.2f", a + b }')
        runs=$((runs + 1))
        [ "$runs" -ge 100 ] && break
    done
    kcpu=$(awk -v a="$kcpu" -v n="$runs" 'BEGIN { printf "%.3f", a / n }')
    kwall=$(awk -v a="$kwall" -v n="$runs" 'BEGIN { printf "%.3f", a / n }')
    nodes=$(cat "$work/perft.out")
    printf '  %-10s d%s  koma-perft     %12s nodes  %6s s CPU (%6s s wall)  %7s M nodes/s  (mean of %s runs)\n' \
        "$game" "$depth" "$nodes" "$kcpu" "$kwall" "$(rate "$nodes" "$kcpu" | awk '{ printf "%.1f", $1 / 1e6 }')" "$runs"
    if [ -z "$fsf" ]; then echo "  (fairy-stockfish not installed: apt-get install fairy-stockfish)"; return; fi
    printf 'uci\nsetoption name VariantPath value %s\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' \
        "$here/fsf-variants.ini" "$variant" "$depth" >"$work/fsf.in"
    cpu_time "$fsf" <"$work/fsf.in"
    fnodes=$(sed -n 's/^Nodes searched: //p' "$work/perft.out")
    printf '  %-10s d%s  fairy-stockfish %11s nodes  %6s s CPU (%6s s wall)  %7s M nodes/s\n' \
        "$game" "$depth" "$fnodes" "$cpu" "$wall" "$(rate "$fnodes" "$cpu" | awk '{ printf "%.1f", $1 / 1e6 }')"
    if [ "$fnodes" != "$nodes" ]; then
        case $game$depth$fnodes in
        minishogi7132680698) echo "  (counts differ: Fairy-Stockfish generates mate by pawn drop, 132680698 at d7 where koma has 132680617)" ;;
        okisaki*|ogi*) echo "  (counts differ: tests/bench/fsf-variants.ini approximates the game; nodes/s compared)" ;;
        *) echo "  WARNING: the node counts differ" ;;
        esac
    fi
    # nodes/s ratio (the trees differ slightly for the variants-file games)
    speed=$(awk -v a="$nodes" -v ka="$kcpu" -v b="$fnodes" -v kb="$cpu" 'BEGIN { if (ka <= 0) ka = 0.01; if (kb <= 0) kb = 0.01; printf "%.1f", (a / ka) / (b / kb) }')
    wspeed=$(awk -v a="$nodes" -v ka="$kwall" -v b="$fnodes" -v kb="$wall" 'BEGIN { if (ka <= 0) ka = 0.01; if (kb <= 0) kb = 0.01; printf "%.1f", (a / ka) / (b / kb) }')
    echo "  koma-perft is ${speed}x as fast (nodes/s ratio, CPU time; wall ${wspeed}x)"
    case $game in
    shogi) target "perft $game d$depth vs Fairy-Stockfish (nodes/s)" "$speed" 15 20 "wall ${wspeed}x" ;;
    minishogi) target "perft $game d$depth vs Fairy-Stockfish (nodes/s)" "$speed" 8 10 "wall ${wspeed}x" ;;
    *) target "perft $game d$depth vs Fairy-Stockfish (nodes/s)" "$speed" - 10 "wall ${wspeed}x" ;;
    esac
}

perft_pair shogi shogi 5
shogi_nodes=$nodes shogi_cpu=$kcpu
perft_pair minishogi minishogi 6
perft_pair okisaki okisaki 5
perft_pair ogi ogi 6
if [ -n "${BENCH_PERFT_DEEP:-}" ]; then
    perft_pair shogi shogi 6
    perft_pair minishogi minishogi 7
fi

# Ko shogi: no other engine plays it (Fairy-Stockfish has no Ko shogi), so koma's
# nodes/s are shown beside its own shogi figure above, and beside the one other Ko
# shogi generator, tests/koshogi/refgen.py (pure Python, written for clarity).
ko_start=$(koma-perft --game koshogi --depth 0 --split 0 | cut -f 2)
cpu_time koma-perft --game koshogi --depth 3
knodes=$(cat "$work/perft.out"); kcpu=$cpu
printf '  %-10s d%s  koma-perft     %12s nodes  %6s s CPU (%6s s wall)  %7s M nodes/s\n' \
    koshogi 3 "$knodes" "$kcpu" "$wall" "$(rate "$knodes" "$kcpu" | awk '{ printf "%.1f", $1 / 1e6 }')"
echo "  Ko shogi perft runs at $(awk -v a="$knodes" -v ka="$kcpu" -v b="$shogi_nodes" -v kb="$shogi_cpu" 'BEGIN { if (ka <= 0) ka = 0.01; if (kb <= 0) kb = 0.01; printf "%.2f", (a / ka) / (b / kb) }')x the nodes/s of shogi (d5 above)"
if command -v python3 >/dev/null 2>&1; then
    cpu_time python3 "$here/../koshogi/refgen.py" perft "$ko_start" 2
    rnodes=$(cat "$work/perft.out")
    printf '  %-10s d%s  refgen.py      %12s nodes  %6s s CPU (%6s s wall)  %7s M nodes/s\n' \
        koshogi 2 "$rnodes" "$cpu" "$wall" "$(rate "$rnodes" "$cpu" | awk '{ printf "%.3f", $1 / 1e6 }')"
    echo "  koma-perft is $(awk -v a="$knodes" -v ka="$kcpu" -v b="$rnodes" -v kb="$cpu" 'BEGIN { if (ka <= 0) ka = 0.01; if (kb <= 0) kb = 0.01; printf "%.0f", (a / ka) / (b / kb) }')x as fast as refgen.py (nodes/s ratio, CPU time)"
fi

# YaneuraOu (a shogi engine, not a Debian package: built outside the repository,
# tests/bench/README says how), when YANEURAOU names its executable: its USI
# `go perft N` on the start position, d5 (and d6 with BENCH_PERFT_DEEP=1). Its
# perft is single-threaded and, like koma's, counts the leaves with the last ply
# in bulk (the legal moves of each node above the leaves generated and counted,
# not made; every move, the non-promotions too). Its CPU time is the session's
# less the same session's without `go perft` (start-up and `isready`, with the
# hash table at 1 MB and no book). The two are timed in turn, three rounds, the
# least CPU of each kept (a round: the mean of 10 perfts at d5, 1 at d6; koma's
# start-up included), so that both see the same load.
if [ -z "${YANEURAOU:-}" ]; then
    echo "  (YaneuraOu: not run; set YANEURAOU to its executable, built as tests/bench/README says, to compare shogi perft)"
elif [ ! -x "$YANEURAOU" ]; then
    echo "  (YaneuraOu: $YANEURAOU is not an executable)"
elif ! printf 'usi\nquit\n' | "$YANEURAOU" 2>/dev/null | grep -q '^usiok'; then
    echo "  (YaneuraOu: $YANEURAOU does not answer usi with usiok)"
else
    # yane_session DEPTH RUNS: one session, RUNS times `go perft DEPTH` (0: none)
    # -> $cpu $wall, perft.out
    yane_session() {
        printf 'usi\nsetoption name Threads value 1\nsetoption name USI_Hash value 1\nsetoption name USI_OwnBook value false\nisready\nposition startpos\n' >"$work/yane.in"
        k=0
        while [ "$k" -lt "$2" ]; do printf 'go perft %s\n' "$1" >>"$work/yane.in"; k=$((k + 1)); done
        echo quit >>"$work/yane.in"
        cpu_time "$YANEURAOU" <"$work/yane.in"
    }
    # yane_pair DEPTH RUNS: YaneuraOu's perft beside koma's, each RUNS times a
    # round (the mean) -> $yspeed
    yane_pair() {
        ycpu='' kcpu=''
        for round in 1 2 3; do
            yane_session "$1" 0; y0=$cpu
            yane_session "$1" "$2"; y1=$cpu
            ynodes=$(sed -n 's/^Nodes searched: //p' "$work/perft.out" | sort -u)
            c=$(awk -v a="$y1" -v b="$y0" -v n="$2" 'BEGIN { printf "%.3f", (a - b) / n }')
            if [ -z "$ycpu" ] || less "$c" "$ycpu"; then ycpu=$c ywall=$wall ystart=$y0; fi
            c=0; k=0
            while [ "$k" -lt "$2" ]; do
                cpu_time koma-perft --game shogi --depth "$1"
                c=$(awk -v a="$c" -v b="$cpu" 'BEGIN { printf "%.2f", a + b }'); k=$((k + 1))
            done
            c=$(awk -v a="$c" -v n="$2" 'BEGIN { printf "%.3f", a / n }')
            if [ -z "$kcpu" ] || less "$c" "$kcpu"; then kcpu=$c; fi
        done
        knodes=$(cat "$work/perft.out")
        printf '  %-10s d%s  YaneuraOu      %12s nodes  %6s s CPU (%6s s wall; start-up %s s CPU left out)  %7s M nodes/s\n' \
            shogi "$1" "$ynodes" "$ycpu" "$ywall" "$ystart" "$(rate "$ynodes" "$ycpu" | awk '{ printf "%.1f", $1 / 1e6 }')"
        printf '  %-10s d%s  koma-perft     %12s nodes  %6s s CPU, in turn with it      %7s M nodes/s\n' \
            shogi "$1" "$knodes" "$kcpu" "$(rate "$knodes" "$kcpu" | awk '{ printf "%.1f", $1 / 1e6 }')"
        [ "$ynodes" = "$knodes" ] || echo "  WARNING: YaneuraOu counts ${ynodes:-no} nodes at d$1, koma $knodes"
        [ -n "$ynodes" ] || return 0
        yspeed=$(awk -v a="$knodes" -v ka="$kcpu" -v b="$ynodes" -v kb="$ycpu" 'BEGIN { if (ka <= 0) ka = 0.01; if (kb <= 0) kb = 0.01; printf "%.2f", (a / ka) / (b / kb) }')
        echo "  koma-perft is ${yspeed}x as fast as YaneuraOu at d$1 (nodes/s ratio, CPU time; least of 3 rounds each)"
    }
    yane_pair 5 10
    [ -n "$ynodes" ] && target "perft shogi d5 vs YaneuraOu (nodes/s)" "$yspeed" 2 2 "YaneuraOu one thread, its start-up left out; in turn, least of 3"
    if [ -n "${BENCH_PERFT_DEEP:-}" ]; then yane_pair 6 1; fi
fi
