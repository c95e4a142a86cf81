#!/bin/sh
# Run every cmocka unit-test binary given; report a closing count line.
pass=0 fail=0
for t in "$@"; do
    if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "unit: FAILED $t" >&2; fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
