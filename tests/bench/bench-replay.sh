# koma-replay on random legal Ōgi and shogi games made by koma itself
# (gen-records.c, built against libkoma.a), beside pgn-extract -r -s validating
# random legal chess games of the same number of plies (gen-chess.js, with npm's
# chess.js), in the same run (sourced by run.sh). Both databases are made once,
# from fixed seeds, and kept in the work folder.
#   BENCH_REPLAY_RECORDS=50000   records in all: half Ōgi, then half shogi (the
#                                chess database matches their plies)
#   BENCH_REPLAY_SEED=20260501   seed of the generators
nrec=${BENCH_REPLAY_RECORDS:-50000}
rseed=${BENCH_REPLAY_SEED:-20260501}
db=$work/replay-$nrec-$rseed.jsonl
gen_records_db "$nrec" "$rseed" "$db" || return 0
# "gen-records: GAME: N records, P plies, F finished", one line a game
plies=$(awk '/^gen-records: / { n += $5 } END { printf "%d", n }' "$db.log")
bytes=$(wc -c <"$db")
echo "  input: $nrec records, $plies plies, $bytes bytes ($(sed 's/^gen-records: //' "$db.log" | paste -sd ';' - | sed 's/;/; /g'))"

# Bounded memory: a tenth of the database must peak at about the same RSS.
tenth=$work/replay-$nrec-$rseed-tenth.jsonl
[ -s "$tenth" ] || awk 'NR % 10 == 1' "$db" >"$tenth"     # (both games, as in the whole)
measure "koma-replay (1/10 of it)" koma-replay "$tenth"; small_rss=$rss_kb
measure "koma-replay" koma-replay "$db"; kr_secs=$secs; kr_cpu=$cpu; kr_rss=$rss_kb; kr_status=$status
[ "$kr_status" -eq 0 ] || echo "  WARNING: koma-replay disagrees with the generator (exit $kr_status)"
echo "  koma-replay: $(rate "$plies" "$kr_secs") plies/s, $(rate "$nrec" "$kr_secs") records/s;" \
     "peak RSS $kr_rss KiB (a tenth of the records: $small_rss KiB)"

pe=$(command -v pgn-extract 2>/dev/null || { [ -x /usr/games/pgn-extract ] && echo /usr/games/pgn-extract; })
if [ -z "$pe" ]; then
    echo "  (pgn-extract not installed: apt-get install pgn-extract)"
elif need node npm; then
    if [ ! -d "$work/node_modules/chess.js" ]; then
        echo "  installing chess.js into $work (npm)"
        (cd "$work" && npm install --no-save --no-audit --no-fund --silent chess.js@1 >/dev/null 2>&1)
    fi
    pgn=$work/chess-$plies-$rseed.pgn
    if [ -d "$work/node_modules/chess.js" ] && { [ -s "$pgn" ] && [ -s "$pgn.log" ] ||
        { echo "  generating random legal chess games of $plies plies (gen-chess.js, seed $rseed)";
          (cd "$work" && node "$here/gen-chess.js" "$plies" "$rseed" >"$pgn.tmp" 2>"$pgn.log") &&
          mv "$pgn.tmp" "$pgn"; }; }; then
        echo "  chess input: $(sed 's/^gen-chess: //' "$pgn.log"), $(wc -c <"$pgn") bytes"
        # BENCH_RUNS runs each (5), in turn, the least CPU time kept: on a shared
        # virtual machine one run's CPU time can be inflated by its neighbours (a
        # busy sibling hyperthread, the host's clock moving), differently for each
        # program; run in turn, both meet the same states of the machine.
        runs=${BENCH_RUNS:-5}
        measure "pgn-extract -r -s" "$pe" -r -s "$pgn"; pe_secs=$secs; pe_cpu=$cpu
        run=2
        while [ "$run" -le "$runs" ]; do
            measure "koma-replay (run $run)" koma-replay "$db"
            if less "$cpu" "$kr_cpu"; then kr_cpu=$cpu; kr_secs=$secs; fi
            measure "pgn-extract -r -s (run $run)" "$pe" -r -s "$pgn"
            if less "$cpu" "$pe_cpu"; then pe_cpu=$cpu; pe_secs=$secs; fi
            run=$((run + 1))
        done
        echo "  least CPU of $runs: koma-replay $kr_cpu s, pgn-extract $pe_cpu s"
        # (pgn-extract writes "Games: N" progress to stderr; anything else is a complaint)
        if tr '\r' '\n' <"$work/stderr.out" | grep -v -e '^Games: [0-9]*$' -e '^$' | grep -q .; then
            echo "  WARNING: pgn-extract reported problems (see $work/stderr.out)"
        fi
        echo "  pgn-extract -r -s: $(rate "$plies" "$pe_secs") plies/s"
        echo "  koma-replay replays Ōgi and shogi at $(ratio "$pe_secs" "$kr_secs")x the plies/s of pgn-extract -r -s on chess"
        target "koma-replay vs pgn-extract -r -s (plies/s)" "$(ratio "$pe_cpu" "$kr_cpu")" 7 10 \
            "least CPU of $runs runs each, in turn; wall $(ratio "$pe_secs" "$kr_secs")x; RSS flat: $(flat "$small_rss" "$kr_rss")"
    else
        echo "  (skipped: chess.js could not be installed with npm)"
    fi
fi
