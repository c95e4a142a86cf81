# koma-replay on 2 cores: GNU parallel splits a large database of random legal
# Ogi and shogi games (gen-records.c, as the replay bench's) into 16 MiB blocks
# at newlines (the default --recend '\n': a JSON Lines record is never cut) and
# runs one koma-replay a block, one job at a time (-j1) or two at once (-j2);
# --keep-order prints the jobs' outputs in the file's order (sourced by run.sh).
# The figure is the wall speed-up of -j2 over -j1; the output of -j2 must be
# koma-replay's own on the whole file, record for record.
#   BENCH_PARALLEL_MB=1024       size of the database (about 324 records a MiB)
#   BENCH_PARALLEL_SEED=20260501 seed of the generator
#   BENCH_PARALLEL_BLOCK=16M     parallel's --block
need parallel || return 0
pmb=${BENCH_PARALLEL_MB:-1024}
pseed=${BENCH_PARALLEL_SEED:-20260501}
block=${BENCH_PARALLEL_BLOCK:-16M}
pnrec=$((pmb * 324))
pdb=$work/parallel-$pnrec-$pseed.jsonl
gen_records_db "$pnrec" "$pseed" "$pdb" || return 0
pplies=$(awk '/^gen-records: / { n += $5 } END { printf "%d", n }' "$pdb.log")
echo "  input: $pnrec records, $pplies plies, $(wc -c <"$pdb") bytes; $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$pdb" >/dev/null    # into the page cache: every run reads it from memory
# With the kernel's autogroups, the cores are shared between sessions, not
# processes: under other sessions' load a second job of this one gains only what
# they leave (tests/bench/README, profile summary).
if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ]; then
    echo "  (sched_autogroup_enabled=1: the cores are shared by session; under load -j2 gains less than 2x)"
fi

# timed OUT CMD...: CMD's output in OUT, its diagnostics in $work/stderr.out;
# sets $secs (wall), $cpu (user + system, its children's included), $rss_kb
# (the largest process's peak RSS) and $status (as measure in lib.sh)
timed() {
    tout=$1; shift
    /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" "$@" >"$tout" 2>"$work/stderr.out"
    status=$?
    read -r secs rss_kb usr sys <<EOF_TIME
$(tail -n 1 "$work/time.out")
EOF_TIME
    cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

# prun LABEL OUT PARALLEL-ARGS...: parallel ... koma-replay, its output in OUT;
# each job's user and system time and peak RSS appended to $work/jobs.txt by
# its own GNU time. Sets timed's figures and $jobs_cpu, $own_cpu (parallel's
# own: the rest), $jobs, $job_rss (the largest job's).
prun() {
    plabel=$1 pout=$2; shift 2
    : >"$work/jobs.txt"
    timed "$pout" parallel -q "$@" /usr/bin/time -a -o "$work/jobs.txt" -f '%U %S %M' koma-replay
    read -r jobs jobs_cpu job_rss <<EOF_JOBS
$(awk '/^[0-9.]+ [0-9.]+ [0-9]+$/ { n++; c += $1 + $2; if ($3 > m) m = $3 }
       END { printf "%d %.2f %d\n", n, c, m }' "$work/jobs.txt")
EOF_JOBS
    own_cpu=$(awk -v a="$cpu" -v b="$jobs_cpu" 'BEGIN { printf "%.2f", a - b }')
    printf '  %-28s %8.2f s wall %7.2f s CPU  (jobs %.2f s, parallel %.2f s; %d jobs, each peak RSS <= %d KiB)  (exit %d)\n' \
        "$plabel" "$secs" "$cpu" "$jobs_cpu" "$own_cpu" "$jobs" "$job_rss" "$status"
}

# the reference: one koma-replay on the whole file, its output kept
timed "$work/parallel-one.out" koma-replay "$pdb"
cp "$work/stderr.out" "$work/parallel-one.err"
one_secs=$secs one_cpu=$cpu one_rss=$rss_kb one_status=$status
printf '  %-28s %8.2f s wall %7.2f s CPU  peak RSS %7d KiB  (exit %d)\n' "koma-replay (one process)" \
    "$secs" "$cpu" "$rss_kb" "$status"
# three runs each, interleaved, the least wall kept (the other sessions' load)
j1_secs='' j2_secs=''
for run in 1 2 3; do
    prun "parallel -j1 (run $run)" /dev/null --pipepart -a "$pdb" --block "$block" --keep-order -j1
    if [ -z "$j1_secs" ] || less "$secs" "$j1_secs"; then j1_secs=$secs; fi
    prun "parallel -j2 (run $run)" "$work/parallel-j2.out" --pipepart -a "$pdb" --block "$block" --keep-order -j2
    j2_status=$status; j2_rss=$job_rss; j2_jobs=$jobs
    cp "$work/stderr.out" "$work/parallel-j2.err"
    if [ -z "$j2_secs" ] || less "$secs" "$j2_secs"; then j2_secs=$secs; j2_own=$own_cpu; fi
done
# --pipe (parallel reads the file and writes each block to its job) beside
# --pipepart (each job reads its own part of the file): once each
prun "parallel --pipe -j1" /dev/null --pipe --block "$block" --keep-order -j1 <"$pdb"
pipe1_secs=$secs
prun "parallel --pipe -j2" /dev/null --pipe --block "$block" --keep-order -j2 <"$pdb"
pipe2_secs=$secs; pipe2_own=$own_cpu

# The same output: each job reads its block on stdin, so the SOURCE column of
# its lines and the FILE:LINE of its diagnostics are <stdin>:LINE, counted from
# the block's start; the rest must be byte for byte koma-replay's on the file.
for f in one j2; do
    cut -f 2- "$work/parallel-$f.out" >"$work/parallel-$f.out-"
    sed 's/^\(koma-replay: \)[^:]*:[0-9]*:/\1/' "$work/parallel-$f.err" >"$work/parallel-$f.err-"
done
if cmp -s "$work/parallel-one.out-" "$work/parallel-j2.out-" && cmp -s "$work/parallel-one.err-" "$work/parallel-j2.err-"; then
    same=yes
    echo "  parallel -j2 --keep-order: the same $(wc -l <"$work/parallel-one.out") lines as koma-replay's" \
         "and the same $(wc -l <"$work/parallel-one.err") diagnostics, byte for byte but the FILE:LINE of each"
else
    same=no
    echo "  WARNING: parallel -j2's output differs from koma-replay's (see $work/parallel-one.out, $work/parallel-j2.out)"
fi
# parallel's exit status is the number of failed jobs: 0 exactly when koma-replay's is
if { [ "$one_status" -eq 0 ] && [ "$j2_status" -eq 0 ]; } || { [ "$one_status" -ne 0 ] && [ "$j2_status" -ne 0 ]; }; then
    echo "  exit status: koma-replay $one_status, parallel -j2 $j2_status (failed jobs): they agree"
else
    same=no
    echo "  WARNING: exit status: koma-replay $one_status, parallel -j2 $j2_status (failed jobs)"
fi
echo "  koma-replay alone $one_secs s wall ($one_cpu s CPU, peak RSS $one_rss KiB); parallel -j1 $j1_secs s," \
     "-j2 $j2_secs s (parallel's own CPU $j2_own s); --pipe -j1 $pipe1_secs s, -j2 $pipe2_secs s (its own CPU $pipe2_own s)"
target "koma-replay on 2 cores vs 1 (parallel, wall)" "$(ratio "$j1_secs" "$j2_secs")" 1.6 1.9 \
    "--pipepart, least wall of 3; vs koma-replay alone $(ratio "$one_secs" "$j2_secs")x; --pipe $(ratio "$pipe1_secs" "$pipe2_secs")x; output identical: $same; each job <= $j2_rss KiB RSS ($j2_jobs jobs), alone $one_rss KiB"
