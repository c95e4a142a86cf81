#!/bin/sh
# make coverage: line and branch coverage of lib/ over the test suites, from the
# .gcda files the instrumented build (build-cov/, --coverage) wrote while they ran.
# Writes BUILD/lib.info (lcov), BUILD/html/ (genhtml) and prints the summary and
# each file of lib/ with its line and branch coverage, least covered first.
# Usage: coverage.sh BUILD
set -u
b=${1:?usage: coverage.sh BUILD}
rc="--rc lcov_branch_coverage=1"
lcov -q $rc --capture --directory "$b/obj/lib" --base-directory . --output-file "$b/all.info" \
    2>"$b/lcov.log" || { cat "$b/lcov.log" >&2; exit 2; }
lcov -q $rc --extract "$b/all.info" "$(pwd)/lib/*" --output-file "$b/lib.info" 2>>"$b/lcov.log" ||
    { cat "$b/lcov.log" >&2; exit 2; }
genhtml -q $rc --output-directory "$b/html" "$b/lib.info" >>"$b/lcov.log" 2>&1 || true
echo "coverage of lib/ (make check's suites; HTML in $b/html/index.html):"
lcov $rc --summary "$b/lib.info" 2>&1 | grep -E 'lines|branches|functions'
echo "per file, least covered lines first (lines% branches%):"
lcov $rc --list "$b/lib.info" 2>/dev/null |
    awk -F'|' '/\.c *\|/ { split($2, l, " "); split($4, br, " "); sub(/ +$/, "", $1);
                          printf "  %-22s %7s %7s  (%s lines)\n", $1, l[1], br[1], l[2] }' |
    sort -k2 -n
