#!/bin/sh
# Run every cmocka unit-test binary given; report a closing count line.
# (none given: the suite fails, see tests/lib.sh)
. "$(dirname "$0")/lib.sh"
for t in "$@"; do
    if "$t"; then suite_pass; else suite_fail "unit: FAILED $t"; fi
done
suite_end unit
