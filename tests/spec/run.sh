#!/bin/sh
# tests/spec/run.sh BINDIR [FILE.tsv...] — every case of tests/spec (each NAME.tsv, or
# the files given) through `koma-validate --type NAME --json`: a valid input must be
# valid, an invalid one must give the case's code, line and column. Rows whose cli
# column is not empty are skipped; the column says why (tests/spec/README.md).
# Prints "spec: P passed, F failed, S skipped"; fails when a case fails or none ran.
if [ $# -lt 1 ]; then
    echo "usage: sh tests/spec/run.sh BINDIR [FILE.tsv...]" >&2
    exit 2
fi
exec python3 "$(dirname "$0")/run.py" "$@"
