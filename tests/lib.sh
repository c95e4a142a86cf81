# tests/lib.sh — sourced by the test scripts: counting and the closing line.
#   suite_pass               one check passed
#   suite_fail MESSAGE       one check failed (MESSAGE on stderr)
#   suite_end NAME           print "NAME: P passed, F failed"; the status is 0 only
#                            when nothing failed AND something ran: a suite that
#                            finds nothing to run (no cases, no binaries, a lost
#                            exec bit) fails instead of passing silently.
pass=0 fail=0
suite_pass() { pass=$((pass + 1)); }
suite_fail() { fail=$((fail + 1)); [ $# -gt 0 ] && echo "$*" >&2; return 0; }
suite_end() {
    echo "$1: $pass passed, $fail failed"
    if [ $((pass + fail)) -eq 0 ]; then
        echo "$1: FAILED: nothing was run" >&2
        return 1
    fi
    [ "$fail" -eq 0 ]
}
