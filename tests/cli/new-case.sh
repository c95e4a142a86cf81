#!/bin/sh
# Create a golden case: new-case.sh TOOL/NAME 'command line' [stdin-text [why]]
# then run `UPDATE=1 sh tests/cli/run.sh build/bin tests/cli/cases/TOOL/NAME` and
# READ the expected files it wrote before committing them.
# The case is the directory tests/cli/cases/TOOL/NAME/: cmd, stdin (optional), the
# expected stdout, stderr and status, and an optional one-line `why`: what the case
# keeps true, which tests/cli/run.sh prints when the case fails (give '' as the
# stdin-text for a case without stdin).
d=tests/cli/cases/$1
mkdir -p "$d"
printf '%s\n' "$2" >"$d/cmd"
if [ $# -ge 3 ] && { [ -n "$3" ] || [ $# -lt 4 ]; }; then printf '%s' "$3" >"$d/stdin"; fi
if [ $# -ge 4 ]; then printf '%s\n' "$4" >"$d/why"; fi
