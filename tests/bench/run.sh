#!/bin/sh
# make bench: throughput of the koma tools beside reference programs, in the same run.
# Figures are ratios on this machine, never pass/fail thresholds.
#   BENCH_MB=1024   size of the generated FEEN file (MB)
#   BENCH_ONLY=name run one benchmark (validate-feen, ...)
bindir=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
work=${BENCH_DIR:-$here/work}
mkdir -p "$work"
export PATH="$bindir:$PATH"
. "$here/lib.sh"

for b in "$here"/bench-*.sh; do
    name=$(basename "$b" .sh); name=${name#bench-}
    [ -n "${BENCH_ONLY:-}" ] && [ "$BENCH_ONLY" != "$name" ] && continue
    echo "== $name =="
    . "$b"
done
