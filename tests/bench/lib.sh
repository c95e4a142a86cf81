# Shared helpers for tests/bench/bench-*.sh (sourced).

# measure LABEL CMD...: run CMD (stdout discarded), set $secs and $rss_kb (peak RSS).
measure() {
    label=$1; shift
    /usr/bin/time -f '%e %M' -o "$work/time.out" "$@" >/dev/null 2>"$work/stderr.out"
    status=$?
    read -r secs rss_kb <"$work/time.out"
    printf '  %-28s %8.2f s  peak RSS %7d KiB  (exit %d)\n' "$label" "$secs" "$rss_kb" "$status"
}

# rate COUNT SECS -> COUNT/SECS with 1 decimal (awk, no bc needed)
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.001; printf "%.1f", n / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.001; printf "%.2f", a / b }'; }

need() {
    for p in "$@"; do
        command -v "$p" >/dev/null 2>&1 && continue
        echo "  (skipped: $p not installed)"; return 1
    done
}
