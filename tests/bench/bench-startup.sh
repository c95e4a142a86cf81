# koma-replay's start-up: a database of one game a file (KIF files) starts a tool
# a game. koma-replay on a one-record file (the first shogi record of
# tests/data/replay/shogi.jsonl), run BENCH_STARTUP_RUNS times in a shell loop,
# beside /bin/true run as many times by the same loop, in the same run (sourced
# by run.sh). The figure is the wall time a start, and /bin/true's beside it.
#   BENCH_STARTUP_RUNS=500
runs=${BENCH_STARTUP_RUNS:-500}
one=$work/startup-one.jsonl
head -n 1 "$here/../data/replay/shogi.jsonl" >"$one"
koma-replay "$one" >/dev/null || echo "  WARNING: koma-replay does not replay $one"
loop='i=0; while [ $i -lt "$0" ]; do "$1" "$2" >/dev/null; i=$((i + 1)); done'
# least wall of three, interleaved (the load of the other sessions)
kr_secs= tr_secs=
for run in 1 2 3; do
    measure "koma-replay ONE x$runs (run $run)" sh -c "$loop" "$runs" koma-replay "$one"
    if [ -z "$kr_secs" ] || less "$secs" "$kr_secs"; then kr_secs=$secs; kr_cpu=$cpu; fi
    measure "/bin/true x$runs (run $run)" sh -c "$loop" "$runs" /bin/true "$one"
    if [ -z "$tr_secs" ] || less "$secs" "$tr_secs"; then tr_secs=$secs; tr_cpu=$cpu; fi
done
kr_ms=$(awk -v s="$kr_secs" -v n="$runs" 'BEGIN { printf "%.2f", s * 1000 / n }')
tr_ms=$(awk -v s="$tr_secs" -v n="$runs" 'BEGIN { printf "%.2f", s * 1000 / n }')
echo "  koma-replay of one record: $kr_ms ms wall a start ($(awk -v s="$kr_cpu" -v n="$runs" \
     'BEGIN { printf "%.2f", s * 1000 / n }') ms CPU); /bin/true: $tr_ms ms; $(ratio "$kr_secs" "$tr_secs")x /bin/true's"
# the floor (5 ms a start) and the goal (2 ms), wall; /bin/true's beside it
target_at_most "koma-replay start-up, one record (wall)" "$kr_ms" 5 2 " ms" \
    "/bin/true $tr_ms ms ($(ratio "$kr_secs" "$tr_secs")x); least wall of 3 loops of $runs"
