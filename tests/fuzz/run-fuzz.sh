#!/bin/sh
# make fuzz: build each harness with clang's libFuzzer + ASan/UBSan and run it for
# SECONDS on a scratch copy of its corpus; new interesting inputs are merged back.
secs=$1; shift
command -v clang >/dev/null 2>&1 || { echo "fuzz: clang is needed (apt-get install clang)" >&2; exit 2; }
mkdir -p build-fuzz
# The built-in game definitions are generated C (see lib/games/embed.sh).
sh lib/games/embed.sh build-fuzz/games.c lib/games/*.yaml || exit 2
for src in "$@"; do
    name=$(basename "$src" .c); short=${name#fuzz_}
    bin=build-fuzz/$name
    clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -Ilib/include -Ilib lib/*.c build-fuzz/games.c "$src" -o "$bin" -lyaml -ljansson -lnettle -lm || exit 2
    mkdir -p "build-fuzz/corpus-$short" "tests/fuzz/corpus/$short"
    echo "fuzz: $short for ${secs}s" >&2
    dict=; [ -f "tests/fuzz/$short.dict" ] && dict=-dict="tests/fuzz/$short.dict"
    "$bin" -max_total_time="$secs" -max_len=8192 -timeout="${FUZZ_TIMEOUT:-30}" $dict "build-fuzz/corpus-$short" "tests/fuzz/corpus/$short" || exit 1
done
