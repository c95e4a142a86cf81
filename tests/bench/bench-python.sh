# The Python package koma (lib/python) beside the command it binds: every record
# of a database judged with koma.replay (tests/bench/python-replay.py) against
# koma-replay --json on the same records, least CPU of three interleaved runs
# each (target: at most 1.5x the command's CPU); then the C extension beside a
# minimal cffi binding (python-cffi.py, when python3-cffi is installed): one
# small call and the same replay (sourced by run.sh).
#   BENCH_PYTHON_RECORDS=20000   records: half Ogi, then half shogi (gen-records.c)
pyrec=${BENCH_PYTHON_RECORDS:-20000}
py=${PYTHON:-python3}
pydir=$bindir/../python
if ! PYTHONPATH=$pydir "$py" -c 'import koma' 2>/dev/null; then
    echo "  (skipped: the package koma is not built in $pydir)"
    return 0
fi
pydb=$work/python-$pyrec.jsonl
gen_records_db "$pyrec" 20260501 "$pydb" || return 0
echo "  input: $pyrec records, $(wc -c <"$pydb") bytes"
measure "koma-replay --json" koma-replay --json "$pydb"; cli_cpu=$cpu
PYTHONPATH=$pydir measure "python3 koma.replay" "$py" "$here/python-replay.py" "$pydb"; py_cpu=$cpu
for run in 2 3; do
    measure "koma-replay --json (run $run)" koma-replay --json "$pydb"
    less "$cpu" "$cli_cpu" && cli_cpu=$cpu
    PYTHONPATH=$pydir measure "python3 koma.replay (run $run)" "$py" "$here/python-replay.py" "$pydb"
    less "$cpu" "$py_cpu" && py_cpu=$cpu
done
echo "  least CPU of three: koma-replay --json $cli_cpu s, koma.replay $py_cpu s:" \
     "Python costs $(ratio "$py_cpu" "$cli_cpu")x the command"
target "koma.replay vs koma-replay --json (CPU)" "$(ratio "$cli_cpu" "$py_cpu")" 0.67 0.67 \
    "the inverse of Python's cost, at most 1.5x: at least 0.67x"
if PYTHONPATH=$pydir "$py" -c 'import cffi' 2>/dev/null; then
    PYTHONPATH=$pydir "$py" "$here/python-cffi.py" "$here/../.." "$work" "$pydb" ||
        echo "  (the cffi binding did not build)"
else
    echo "  (skipped the cffi comparison: python3-cffi not installed)"
fi
