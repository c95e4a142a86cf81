#!/bin/sh
# Progress on stderr (koma(7), COMMON CONTRACT): a long run shows `prog: N records, R/s` on
# stderr when stderr is a terminal, and never otherwise. The golden cases cannot
# see it (their stderr is a file), so each tool runs here under script(1), which
# gives it a terminal, on a database fed in two halves with a pause between
# (the pause makes the run long enough for a progress line, whatever the speed
# of the machine). Asserted for each tool:
#   - on the terminal: the progress line `\rprog: N records, R/s`, and its erasure;
#   - stderr redirected to a file, under script: nothing in the file or on the terminal;
#   - no terminal at all: nothing on stderr;
#   - with -q, nothing on the terminal.
# Needs script(1) (bsdutils, an essential Debian package).
# Usage: progress.sh BINDIR
bindir=$(cd "$1" && pwd) || exit 2
if ! command -v script >/dev/null 2>&1; then
    echo "progress: script(1) is needed to give the tools a terminal (apt-get install bsdutils)" >&2
    exit 2
fi
root=$(pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt 40 ]; do
    cat "$root/tests/data/replay/ogi.jsonl"
    i=$((i + 1))
done >"$tmp/db.jsonl"
i=0
while [ $i -lt 1000 ]; do
    echo 'lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o'
    i=$((i + 1))
done >"$tmp/db.feen"

# half a second between the halves (a whole one where sleep takes only integers)
pause=0.5
sleep $pause 2>/dev/null || pause=1
# check NAME PATTERN: PATTERN (a grep -E expression) is on the terminal of NAME
check() {
    if grep -Eq "$2" "$tmp/$1.tty"; then
        pass=$((pass + 1))
    else
        echo "progress: $1: no progress on the terminal matching /$2/:" >&2
        od -c "$tmp/$1.tty" | head -n 20 >&2
        fail=$((fail + 1))
    fi
}
# none NAME FILE: FILE holds no progress text
none() {
    if grep -Eq '[a-z]: [0-9]+ (records|lines)' "$2" || grep -q "$(printf '\033')" "$2"; then
        echo "progress: $1: progress text where it must not be ($2):" >&2
        od -c "$2" | head -n 20 >&2
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

for t in validate-pcn validate-feen replay repetition-check; do
    case $t in
        validate-pcn) tool=koma-validate; args="--type pcn"; db=$tmp/db.jsonl; noun=records ;;
        validate-feen) tool=koma-validate; args="--type feen"; db=$tmp/db.feen; noun=lines ;;
        replay) tool=koma-replay; args=""; db=$tmp/db.jsonl; noun=records ;;
        repetition-check) tool=koma-repetition-check; args=""; db=$tmp/db.jsonl; noun=records ;;
    esac
    run="{ cat '$db'; sleep $pause; cat '$db'; } | '$bindir/$tool' $args >/dev/null"
    # stderr on the terminal
    script -qfec "sh -c \"$run\"" "$tmp/$t.tty" </dev/null >/dev/null 2>&1
    esc=$(printf '\033')
    check "$t" "$(printf '\r')$tool: [0-9]+ $noun, [0-9]+/s$esc\\[K"
    check "$t" "$(printf '\r')$esc\\[K"
    # stderr redirected to a file, under a terminal
    script -qfec "sh -c \"$run 2>'$tmp/$t.err'\"" "$tmp/$t-redirected.tty" </dev/null >/dev/null 2>&1
    none "$t (stderr a file)" "$tmp/$t.err"
    none "$t (stderr a file, the terminal)" "$tmp/$t-redirected.tty"
    # no terminal
    sh -c "$run" 2>"$tmp/$t-plain.err" </dev/null
    none "$t (no terminal)" "$tmp/$t-plain.err"
done
# -q prints nothing, progress included
script -qfec "sh -c \"{ cat '$tmp/db.jsonl'; sleep $pause; cat '$tmp/db.jsonl'; } | '$bindir/koma-replay' -q\"" \
    "$tmp/quiet.tty" </dev/null >/dev/null 2>&1
none "replay -q (the terminal)" "$tmp/quiet.tty"
suite_end progress
[ "$fail" -eq 0 ]
