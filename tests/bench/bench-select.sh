# koma-select --position over the replay bench's database (random legal Ōgi and
# shogi games, gen-records.c: the same file, made by bench-replay.sh when it ran
# first, otherwise here the same way) beside koma-replay on the same input, and
# beside pgn-extract's positional match (-x) on the replay bench's chess
# database of the same plies, in the same run (sourced by run.sh).
# The position searched is the one after ply 40 of the last record (a shogi
# game): reached there and hardly anywhere else, so every record is replayed
# to its end, the costliest case. Three runs each, interleaved, the least CPU
# kept (see README). Variables: those of bench-replay.sh.
nrec=${BENCH_REPLAY_RECORDS:-50000}
rseed=${BENCH_REPLAY_SEED:-20260501}
db=$work/replay-$nrec-$rseed.jsonl
gen_records_db "$nrec" "$rseed" "$db" || return 0
plies=$(awk '/^gen-records: / { n += $5 } END { printf "%d", n }' "$db.log")
pos=$(tail -n 1 "$db" | koma-replay --each 2>/dev/null | sed -n 41p)
echo "  input: $nrec records, $plies plies; position: $pos"
found=$(koma-select -c -p "$pos" "$db")
echo "  koma-select -c -p finds it in $found record(s)"

# BENCH_RUNS (5) runs of each, in turn, the least CPU of each kept (as the replay
# row: a slow spell of the VM can last several runs of one program)
runs=${BENCH_RUNS:-5}
sel_cpu=; rep_cpu=; run=1
while [ "$run" -le "$runs" ]; do
    measure "koma-replay (run $run)" koma-replay "$db"
    if [ -z "$rep_cpu" ] || less "$cpu" "$rep_cpu"; then rep_cpu=$cpu; rep_secs=$secs; fi
    measure "koma-select -p (run $run)" koma-select -c -p "$pos" "$db"
    if [ -z "$sel_cpu" ] || less "$cpu" "$sel_cpu"; then sel_cpu=$cpu; sel_secs=$secs; sel_rss=$rss_kb; fi
    run=$((run + 1))
done
echo "  least CPU of $runs: koma-select -p $sel_cpu s, koma-replay $rep_cpu s;" \
     "koma-select $(rate "$plies" "$sel_secs") plies/s, peak RSS $sel_rss KiB"
# at most 1.5x koma-replay's cost (the floor), 1.2x (the target): here as replay CPU
# over select CPU, higher is better (0.67x, 0.83x)
target "koma-select -p vs koma-replay (CPU)" "$(ratio "$rep_cpu" "$sel_cpu")" 0.67 0.83 \
    "koma-select costs $(ratio "$sel_cpu" "$rep_cpu")x koma-replay; least CPU of $runs runs each, in turn; at most 1.5x (floor), 1.2x (target)"
measure "koma-select --unique" koma-select -c --unique "$db"
echo "  koma-select --unique: $(rate "$nrec" "$secs") records/s, peak RSS $rss_kb KiB"

pe=$(command -v pgn-extract 2>/dev/null || { [ -x /usr/games/pgn-extract ] && echo /usr/games/pgn-extract; })
pgn=$work/chess-$plies-$rseed.pgn
if [ -z "$pe" ]; then
    echo "  (pgn-extract not installed: apt-get install pgn-extract)"
elif [ ! -s "$pgn" ]; then
    echo "  (no chess database of $plies plies: bench-replay.sh makes it, with node and chess.js)"
else
    # the position after the first 40 plies of the last complete game, as a
    # variation file of SAN moves (pgn-extract -x matches transpositions too)
    awk 'BEGIN { RS = "" } /^1\./ { last = $0 } END { print last }' "$pgn" |
        tr '\n' ' ' | sed 's/[0-9]*\.//g; s/  */ /g' | awk '{ for (i = 1; i <= 40 && i <= NF; i++) printf "%s ", $i; print "" }' \
        >"$work/select-variation.txt"
    pe_cpu=
    for run in 1 2 3; do
        measure "pgn-extract -x (run $run)" "$pe" -s -x"$work/select-variation.txt" "$pgn"
        if [ -z "$pe_cpu" ] || less "$cpu" "$pe_cpu"; then pe_cpu=$cpu; pe_secs=$secs; fi
    done
    echo "  pgn-extract -x: $(rate "$plies" "$pe_secs") plies/s (least CPU $pe_cpu s)"
    target "koma-select -p vs pgn-extract -x (CPU)" "$(ratio "$pe_cpu" "$sel_cpu")" 1 3 \
        "the same plies; pgn-extract on chess"
fi
