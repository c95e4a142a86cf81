#!/bin/sh
# make bench: throughput of the koma tools beside reference programs, in the same run.
# Figures are ratios on this machine, never pass/fail thresholds.
#   BENCH_MB=1024   size of the generated FEEN file (MB)
#   BENCH_ONLY=name run one benchmark (validate-feen, ...), or several: "replay select"
bindir=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
work=${BENCH_DIR:-$here/work}
mkdir -p "$work"
export PATH="$bindir:$PATH"
. "$here/lib.sh"

: >"$work/targets.txt"
machine="$(nproc 2>/dev/null) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
echo "make bench on $(uname -n) ($machine), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
for b in "$here"/bench-*.sh; do
    name=$(basename "$b" .sh); name=${name#bench-}
    case " ${BENCH_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
    echo "== $name =="
    . "$b"
done
if [ -s "$work/targets.txt" ]; then
    echo "== targets: ratios measured in this run (CPU time, user + system) =="
    echo "   on $machine, load average at the end $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    sed 's/^/  /' "$work/targets.txt"
fi
