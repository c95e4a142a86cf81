#!/bin/sh
# Golden tests for the commands. Each case is a directory tests/cli/cases/TOOL/NAME/:
#   cmd      one shell command line, run in tests/data/ with the built tools first on PATH
#   stdin    (optional) fed to the command; otherwise stdin is /dev/null
#   stdout   expected standard output (exact)
#   stderr   expected standard error (exact)
#   status   expected exit status (a number)
#   why      (optional) one line: what the case is there to keep true, printed when it
#            fails, so that a failure says what broke, not only what differs
# Usage: run.sh BINDIR [CASE-DIR...]      UPDATE=1 rewrites the expected files (review them!)
bindir=$(cd "$1" && pwd) || exit 2
shift
root=$(pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/lib.sh"
if [ $# -eq 0 ]; then set -- "$root"/tests/cli/cases/*/*/; fi
for d in "$@"; do
    d=${d%/}
    case $d in /*) ;; *) d=$root/$d ;; esac
    name=${d#"$root"/tests/cli/cases/}
    if [ ! -f "$d/cmd" ]; then suite_fail "cli: $name: no cmd file"; continue; fi
    input=/dev/null
    [ -f "$d/stdin" ] && input=$d/stdin
    (cd "$root/tests/data" && PATH="$bindir:$PATH" LC_ALL=C sh -c "$(cat "$d/cmd")" \
        <"$input" >"$tmp/stdout" 2>"$tmp/stderr"; echo $? >"$tmp/status")
    if [ -n "$UPDATE" ]; then
        cp "$tmp/stdout" "$d/stdout"; cp "$tmp/stderr" "$d/stderr"; cp "$tmp/status" "$d/status"
    fi
    ok=1
    why=
    if [ -f "$d/why" ]; then
        why=$(cat "$d/why")
        if [ -z "$why" ] || [ "$(wc -l <"$d/why")" -gt 1 ]; then
            echo "cli: $name: why must be one line of text" >&2; ok=0
        fi
    fi
    for f in stdout stderr status; do
        if [ ! -f "$d/$f" ]; then
            echo "cli: $name: missing expected file $f" >&2; ok=0
        elif ! cmp -s "$d/$f" "$tmp/$f"; then
            echo "cli: $name: $f differs:" >&2
            diff -u "$d/$f" "$tmp/$f" | head -n 30 >&2
            ok=0
        fi
    done
    if [ $ok -eq 1 ]; then suite_pass; else
        [ -n "$why" ] && echo "cli: $name: why this case: $why" >&2
        suite_fail
    fi
done
suite_end cli
