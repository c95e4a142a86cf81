#!/bin/sh
# Replay each harness's corpus (tests/fuzz/corpus/NAME/) through its replay binary.
# Every harness tests/fuzz/fuzz_NAME.c needs its binary and a non-empty corpus.
. "$(dirname "$0")/../lib.sh"
dir=$1
for src in tests/fuzz/fuzz_*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c); name=${name#fuzz_}
    bin=$dir/fuzz_$name-replay
    corpus=tests/fuzz/corpus/$name
    if [ ! -x "$bin" ]; then
        suite_fail "fuzz-replay: $name: no binary $bin"
    elif ! ls "$corpus"/* >/dev/null 2>&1; then
        suite_fail "fuzz-replay: $name: empty or missing corpus $corpus"
    elif out=$("$bin" "$corpus" 2>&1); then
        suite_pass; echo "fuzz-replay: $name: $out"
    else
        suite_fail "fuzz-replay: $name FAILED"; echo "$out" >&2
    fi
done
suite_end fuzz-replay
