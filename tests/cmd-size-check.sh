#!/bin/sh
# tests/cmd-size-check.sh — the commands stay thin (lib/README.md): no file in cmd/ is
# over 400 lines, and the referee's callers koma-replay and koma-repetition-check
# stay well under 300 (the judging is libkoma's, lib/referee.c; what the commands
# share is in cmd/judge.c and cmd/verdict_*.c). A file that outgrows its bound
# moves what is not its own job into the library or a helper file of cmd/.
# Usage: cmd-size-check.sh [ROOT]
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
. "$root/tests/lib.sh"
bound() {
    case $(basename "$1") in
    koma-replay.c | koma-repetition-check.c) echo 300 ;;
    *) echo 400 ;;
    esac
}
for f in "$root"/cmd/*.c "$root"/cmd/*.h; do
    [ -f "$f" ] || continue
    n=$(wc -l <"$f")
    max=$(bound "$f")
    if [ "$n" -le "$max" ]; then
        suite_pass
    else
        suite_fail "cmd-size: cmd/$(basename "$f") has $n lines, more than $max"
    fi
done
suite_end cmd-size
