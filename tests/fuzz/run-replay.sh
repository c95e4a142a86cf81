#!/bin/sh
# Replay each harness's corpus (tests/fuzz/corpus/NAME/) through its replay binary.
dir=$1
pass=0 fail=0
for bin in "$dir"/fuzz_*-replay; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin" -replay); name=${name#fuzz_}
    corpus=tests/fuzz/corpus/$name
    if out=$("$bin" "$corpus" 2>&1); then
        pass=$((pass + 1)); echo "fuzz-replay: $name: $out"
    else
        fail=$((fail + 1)); echo "fuzz-replay: $name FAILED" >&2; echo "$out" >&2
    fi
done
echo "fuzz-replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
