#!/bin/sh
# Create a golden case: new-case.sh TOOL/NAME 'command line' [stdin-text]
# then run `UPDATE=1 sh tests/cli/run.sh build/bin tests/cli/cases/TOOL/NAME` and
# READ the expected files it wrote before committing them.
d=tests/cli/cases/$1
mkdir -p "$d"
printf '%s\n' "$2" >"$d/cmd"
if [ $# -ge 3 ]; then printf '%s' "$3" >"$d/stdin"; fi
