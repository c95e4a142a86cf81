# Shared helpers for tests/bench/bench-*.sh (sourced).

# measure LABEL CMD...: run CMD (stdout discarded), set $secs (wall), $cpu (user +
# system: what a loaded, shared machine skews least) and $rss_kb (peak RSS).
measure() {
    label=$1; shift
    /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" "$@" >/dev/null 2>"$work/stderr.out"
    status=$?
    # (GNU time writes "Command exited with non-zero status N" first when it fails)
    read -r secs rss_kb usr sys <<EOF_TIME
$(tail -n 1 "$work/time.out")
EOF_TIME
    cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    printf '  %-28s %8.2f s wall %7.2f s CPU  peak RSS %7d KiB  (exit %d)\n' "$label" "$secs" "$cpu" \
        "$rss_kb" "$status"
}

# target NAME MEASURED FLOOR GOAL [NOTE]: one line of the summary of targets (printed
# again at the end of make bench); MEASURED, FLOOR and GOAL are ratios, higher is better.
target() { target_line "$1" "$2" "$3" "$4" x 1 "${5:-}"; }

# target_at_most NAME MEASURED FLOOR GOAL UNIT [NOTE]: the same for a figure that
# is better lower (a time in UNIT): the floor and the goal are the most allowed.
target_at_most() { target_line "$1" "$2" "$3" "$4" "$5" -1 "${6:-}"; }

# target_line NAME MEASURED FLOOR GOAL UNIT SIGN NOTE (SIGN -1: lower is better)
target_line() {
    verdict=$(awk -v m="$2" -v f="$3" -v g="$4" -v s="$6" 'BEGIN {
        if (s * m >= s * g) print "target reached"
        else if (f == "-") print "below the target"
        else print (s * m >= s * f) ? "floor reached" : "below the floor" }')
    line=$(printf '%-44s %6s%s  (floor %s%s, target %s%s): %s%s' "$1" "$2" "$5" "$3" "$5" "$4" "$5" \
        "$verdict" "${7:+; $7}")
    echo "  TARGET $line"
    echo "$line" >>"$work/targets.txt"
}

# flat KIB_SMALL KIB_FULL: "yes" when the peak RSS of the full input is within 10%
# of a tenth's (memory is flat in the input's size).
flat() { awk -v a="$1" -v b="$2" 'BEGIN { print (b <= a * 1.10) ? "yes" : "no" }'; }

# rate COUNT SECS -> COUNT/SECS with 1 decimal (awk, no bc needed)
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.001; printf "%.1f", n / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.001; printf "%.2f", a / b }'; }

need() {
    for p in "$@"; do
        command -v "$p" >/dev/null 2>&1 && continue
        echo "  (skipped: $p not installed)"; return 1
    done
}

# less A B: A < B (awk; CPU seconds)
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# keep_least CPU_VAR RSS_VAR: after a measure, keep in the two variables the least
# $cpu and the least $rss_kb of the runs so far (empty before the first)
keep_least() {
    eval "kl_cpu=\${$1:-}; kl_rss=\${$2:-}"
    if [ -z "$kl_cpu" ] || less "$cpu" "$kl_cpu"; then eval "$1=\$cpu"; fi
    if [ -z "$kl_rss" ] || [ "$rss_kb" -lt "$kl_rss" ]; then eval "$2=\$rss_kb"; fi
}

# gen_records_db N SEED FILE: N random legal games (half Ogi, then half shogi) made
# by gen-records.c (built against libkoma.a) into FILE, once (FILE.log: one line a
# game, "gen-records: GAME: N records, P plies, F finished"); 1 when it cannot.
gen_records_db() {
    gen=$work/gen-records
    if [ ! -x "$gen" ] || [ "$here/gen-records.c" -nt "$gen" ] || [ "$bindir/../lib/libkoma.a" -nt "$gen" ]; then
        if ! ${CC:-cc} -O2 -std=c11 -I"$here/../../lib/include" -o "$gen" "$here/gen-records.c" \
            "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm; then
            echo "  (skipped: gen-records does not build)"
            return 1
        fi
    fi
    if [ ! -s "$3" ] || [ ! -s "$3.log" ]; then
        echo "  generating $(($1 / 2)) random legal Ogi games and $(($1 - $1 / 2)) shogi games (gen-records, seed $2)"
        { "$gen" ogi "$(($1 / 2))" "$2" && "$gen" shogi "$(($1 - $1 / 2))" "$2"; } >"$3.tmp" 2>"$3.log" &&
            mv "$3.tmp" "$3"
    fi
}
