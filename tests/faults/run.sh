#!/bin/sh
# Fault injection over every tool (the fault model: koma(7), DESIGN DECISIONS):
# each run of tests/faults/runs.txt is made once as it is (counting its
# allocations and its output calls), then again with the Nth allocation failing
# and with the disk full from the Nth output call on, for every N (make faults)
# or a sample of them (make check, make sanitize: FAULT_SAMPLE points of each
# kind a run spread evenly over it, and every one of the last FAULT_TAIL, where
# the writes and the cleanup fail).
# The loading of the built-in games (the loader: about 17,000 allocations, the
# same sequence in every run) is counted apart by the fault builds: its points
# are tried in the run named game-set; any other run tries its own points and
# the loader's first and last (how the tool takes a failed loading), unless its
# loader is not the same sequence as game-set's (then all of them, as there).
# The tools are the fault builds (tests/faults/failalloc.c), under ASan + UBSan
# in make sanitize and make faults. Asserted for each point:
#   allocation: either the run recovered (exactly the status, stdout and stderr
#     of the clean run), or it exits 2 with a memory diagnostic on stderr, and
#     every line it printed on stdout is a line the clean run printed (nothing
#     partial or wrong printed as valid);
#   output: exit 2 and "No space left on device" on stderr;
#   both: no sanitizer report (leaks included), no crash, no hang (20 s).
# Usage: run.sh FAULT-BINDIR [all]
# Environment (make faults takes long: it can be run in parts):
#   FAULT_RUNS=REGEX   only the runs whose name matches (grep -E)
#   FAULT_SHARD=K/N    only the runs K, K+N, K+2N, ... (from 0) of those
#   FAULT_DONE=FILE    (all) a run listed there as clean with the same counts
#                      is skipped; each run found clean is added to it
. "$(dirname "$0")/../lib.sh"
bindir=$(cd "$1" && pwd) || exit 2
mode=${2:-sample}
sample=${FAULT_SAMPLE:-40}
tail_points=${FAULT_TAIL:-50}
only=${FAULT_RUNS:-}
shard=${FAULT_SHARD:-0/1}
done_file=${FAULT_DONE:-}
root=$(pwd)
runs=$root/tests/faults/runs.txt
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
# libyaml's one known leak on a failed allocation (tests/faults/lsan.supp)
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/faults/lsan.supp:print_suppressions=0}
export LC_ALL=C

# run CMD ENVVAR VALUE: run CMD in tests/data with the fault tools first on PATH;
# $tmp/out, $tmp/err, $tmp/status
run() {
    (cd "$root/tests/data" && env "$2=$3" PATH="$bindir:$PATH" timeout 20 sh -c "$1" \
        >"$tmp/out" 2>"$tmp/err" </dev/null; echo $? >"$tmp/status")
}

# summary_shape: a summary line with its counts (and plurals) left out
summary_shape() {
    sed -E 's/[0-9]+/#/g; s/([a-z])s([^a-z]|$)/\1\2/g'
}

# new_lines: the lines of $tmp/out the clean run does not print, leaving out the
# memory diagnostic itself (a JSON object with --json) and, for a command with
# --summary, a last line of the clean one's shape (its counts may differ: the run
# stopped; exit status 2 says so)
new_lines() {
    out=$tmp/out
    case $cmd in
    *--summary*)
        shape=$(tail -n 1 "$tmp/clean.out" | summary_shape)
        if [ "$(tail -n 1 "$tmp/out" | summary_shape)" = "$shape" ]; then
            sed '$d' "$tmp/out" >"$tmp/out.cut"; out=$tmp/out.cut
        fi ;;
    esac
    grep -v '"code":"memory"' "$out" | sort -u | comm -23 - "$tmp/clean.lines"
}

# points N: the points to try among 1..N
points() {
    if [ "$mode" = all ] || [ "$1" -le "$sample" ]; then seq 1 "$1"; return; fi
    # spread over the whole run, and each of the last FAULT_TAIL (the output,
    # the cleanup)
    awk -v n="$1" -v k="$sample" -v t="$tail_points" 'BEGIN {
        for (i = 0; i < k; i++) print 1 + int(i * (n - 1) / (k - 1))
        for (i = n - t + 1; i <= n; i++) if (i >= 1) print i
    }' | sort -n | uniq
}

# counts: the clean run's counts from $tmp/count into nalloc nout nloader lhash
counts() {
    nalloc=0 nout=0 nloader=0 lhash=0
    read -r nalloc nout nloader lhash <"$tmp/count"
}

# try_alloc VAR I: the run with allocation I (VAR: KOMA_FAULT_ALLOC, outside the
# loader, or KOMA_FAULT_LOADER, inside) failing; counts tried, recovered, bad
try_alloc() {
    tried=$((tried + 1))
    run "$cmd" "$1" "$2"
    st=$(cat "$tmp/status")
    if [ "$st" = "$clean" ] && cmp -s "$tmp/out" "$tmp/clean.out" && cmp -s "$tmp/err" "$tmp/clean.err"; then
        recovered=$((recovered + 1)); return
    fi
    why=
    if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then why="sanitizer report"
    elif [ "$st" != 2 ]; then why="exit $st"
    elif ! grep -q 'memory' "$tmp/err"; then why="no memory diagnostic"
    elif [ -n "$(new_lines)" ]; then why="stdout has lines the clean run does not print"
    fi
    [ -z "$why" ] && return
    bad=$((bad + 1))
    if [ $bad -le 3 ]; then
        case $1 in KOMA_FAULT_LOADER) what="loader allocation $2 of $nloader" ;;
                   *) what="allocation $2 of $nalloc" ;; esac
        echo "faults: $name: $what: $why" >&2
        head -n 5 "$tmp/err" | sed 's/^/  stderr: /' >&2
        new_lines | head -n 3 | sed 's/^/  stdout: /' >&2
    fi
}

# The loader's sequence as the game-set run makes it (whatever FAULT_RUNS and
# FAULT_SHARD choose): a run whose loader hashes the same has its points tried
# there.
ref_hash=
ref_cmd=$(awk -F '\t' '$1 == "game-set" { print $2; exit }' "$runs")
if [ -n "$ref_cmd" ]; then
    rm -f "$tmp/count"
    run "$ref_cmd" KOMA_FAULT_COUNT "$tmp/count"
    [ -s "$tmp/count" ] && counts && ref_hash=$lhash
fi

total=0 index=-1
shard_k=${shard%/*} shard_n=${shard#*/}
while IFS='	' read -r name cmd; do
    case $name in ''|'#'*) continue ;; esac
    if [ -n "$only" ] && ! printf '%s\n' "$name" | grep -Eq -- "$only"; then continue; fi
    index=$((index + 1))
    [ $((index % shard_n)) -eq "$shard_k" ] || continue
    rm -f "$tmp/count"
    run "$cmd" KOMA_FAULT_COUNT "$tmp/count"
    clean=$(cat "$tmp/status")
    if [ "$clean" -gt 1 ] || [ ! -s "$tmp/count" ]; then
        suite_fail "faults: $name: the clean run exits $clean"; sed 's/^/  /' "$tmp/err" >&2; continue
    fi
    cp "$tmp/out" "$tmp/clean.out"; cp "$tmp/err" "$tmp/clean.err"
    sort -u "$tmp/clean.out" >"$tmp/clean.lines"
    counts
    if [ -n "$done_file" ] && grep -q "^$name	$nalloc	$nout	$nloader	$lhash	clean	" "$done_file" 2>/dev/null; then
        echo "faults: $name: done before ($done_file)"; suite_pass; continue
    fi
    # the loader's points: all (or a sample) in game-set and wherever the loader
    # differs from game-set's; elsewhere its first and last
    if [ "$nloader" -eq 0 ]; then loader_points=
    elif [ "$name" = game-set ] || [ "$lhash" != "$ref_hash" ]; then
        loader_points=$(points "$nloader")
        [ "$name" = game-set ] || echo "faults: $name: its loader differs from game-set's: every loader point tried here"
    else loader_points=$(printf '1\n%s\n' "$nloader" | uniq)
    fi
    bad=0 tried=0 recovered=0
    for i in $(points "$nalloc"); do try_alloc KOMA_FAULT_ALLOC "$i"; done
    ltried=$tried
    for i in $loader_points; do try_alloc KOMA_FAULT_LOADER "$i"; done
    ltried=$((tried - ltried))
    wtried=0
    for i in $( [ "$nout" -gt 0 ] && points "$nout"); do
        wtried=$((wtried + 1))
        run "$cmd" KOMA_FAULT_WRITE "$i"
        st=$(cat "$tmp/status")
        why=
        if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then why="sanitizer report"
        elif [ "$st" != 2 ]; then why="exit $st"
        elif ! grep -q 'No space left on device' "$tmp/err"; then why="no 'No space left on device'"
        fi
        [ -z "$why" ] && continue
        bad=$((bad + 1))
        if [ $bad -le 3 ]; then
            echo "faults: $name: output $i of $nout: $why" >&2
            head -n 5 "$tmp/err" | sed 's/^/  stderr: /' >&2
        fi
    done
    total=$((total + tried + wtried))
    echo "faults: $name: $nalloc allocations and $nloader in the loader ($((tried - ltried)) and $ltried tried, $recovered recovered), $nout outputs ($wtried tried)${bad:+, $bad bad}" | sed 's/, 0 bad$//'
    if [ $bad -eq 0 ]; then suite_pass; else suite_fail; fi
    if [ -n "$done_file" ]; then
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$nalloc" "$nout" "$nloader" "$lhash" \
            "$([ $bad -eq 0 ] && echo clean || echo "$bad-bad")" "$(date -u +%Y-%m-%dT%H:%MZ)" >>"$done_file"
    fi
done <"$runs"
echo "faults: $total failure points tried"
suite_end faults
