#!/bin/sh
# tests/cmd-size-check.sh — a warning sign, not a rule: a file of cmd/ over 400
# lines (koma-replay and koma-repetition-check, the referee's callers, over 300)
# may be doing more than its command's job. Warns, never fails. The cure is the
# boundary of lib/README.md ("Library and commands"): what any front end needs
# (a GUI, bindings) goes into the library, speaking in data; the command's own
# option handling (option words, usage texts, messages naming options) stays in
# cmd/, in a helper file of cmd/ when a command file grows, never exported
# from libkoma to make a file shorter.
# Usage: cmd-size-check.sh [ROOT]
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
. "$root/tests/lib.sh"
bound() {
    case $(basename "$1") in
    koma-replay.c | koma-repetition-check.c) echo 300 ;;
    *) echo 400 ;;
    esac
}
warned=0
for f in "$root"/cmd/*.c "$root"/cmd/*.h; do
    [ -f "$f" ] || continue
    n=$(wc -l <"$f")
    max=$(bound "$f")
    if [ "$n" -gt "$max" ]; then
        echo "cmd-size: warning: cmd/$(basename "$f") has $n lines, more than $max (is all of it the command's job?)" >&2
        warned=$((warned + 1))
    fi
    suite_pass
done
[ "$warned" -eq 0 ] || echo "cmd-size: $warned warning(s), not failures" >&2
suite_end cmd-size
