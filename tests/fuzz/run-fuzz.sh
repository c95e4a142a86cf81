#!/bin/sh
# make fuzz: build each harness with clang's libFuzzer + ASan/UBSan and run it for
# SECONDS on a scratch copy of its corpus; new interesting inputs stay in
# build-fuzz/corpus-NAME (merge them into tests/fuzz/corpus/NAME with -merge=1).
#   run-fuzz.sh SECONDS HARNESS.c...      build, then run each
#   FUZZ_BUILD_ONLY=1 run-fuzz.sh 0 HARNESS.c...   build only (build-fuzz/fuzz_NAME)
#
# The library is compiled once (build-fuzz/obj/), each harness linked to it.
# Comparison tracing (-fsanitize-coverage=trace-cmp, part of -fsanitize=fuzzer)
# lets libFuzzer solve the comparisons of a parser against its input, but in the
# rules engine's loops, which compare board codes the input does not spell, it
# was three quarters of fuzz_engine's time (perf, 2026-11-27); the files of
# NO_CMP_TRACE keep their edge coverage and lose only that tracing.
secs=$1; shift
command -v clang >/dev/null 2>&1 || { echo "fuzz: clang is needed (apt-get install clang)" >&2; exit 2; }
NO_CMP_TRACE="pmn_apply engine engine_mailbox engine_board fx_backend fid fx_state fx_movegen engine_ggn ggn_moves engine_movegen engine_perft position referee repeats engine_rules"
CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -Ilib/include -Ilib"
mkdir -p build-fuzz/obj
# The built-in game definitions are generated C (see lib/games/embed.sh).
sh lib/games/embed.sh build-fuzz/games.c lib/games/*.yaml || exit 2
# and their index (id, styles, board), written at build by lib/games/index.c
make --no-print-directory B="${B:-build}" "${B:-build}/gen/games_index.c" >/dev/null || exit 2
cmp -s "${B:-build}/gen/games_index.c" build-fuzz/games_index.c || cp "${B:-build}/gen/games_index.c" build-fuzz/ || exit 2
for src in lib/*.c build-fuzz/games.c build-fuzz/games_index.c; do
    name=$(basename "$src" .c); obj=build-fuzz/obj/$name.o
    [ -f "$obj" ] && [ "$obj" -nt "$src" ] && [ "$obj" -nt "$0" ] && ! find lib -name '*.h' -newer "$obj" | grep -q . && continue
    extra=
    case " $NO_CMP_TRACE " in *" $name "*) extra=-fno-sanitize-coverage=trace-cmp ;; esac
    clang $CFLAGS -fsanitize=fuzzer-no-link $extra -c "$src" -o "$obj" || exit 2
done
for src in "$@"; do
    name=$(basename "$src" .c); short=${name#fuzz_}
    bin=build-fuzz/$name
    clang $CFLAGS -fsanitize=fuzzer "$src" build-fuzz/obj/*.o -o "$bin" -lyaml -ljansson -lnettle -lm || exit 2
    [ -n "$FUZZ_BUILD_ONLY" ] && continue
    mkdir -p "build-fuzz/corpus-$short" "tests/fuzz/corpus/$short"
    echo "fuzz: $short for ${secs}s" >&2
    dict=; [ -f "tests/fuzz/$short.dict" ] && dict=-dict="tests/fuzz/$short.dict"
    "$bin" -max_total_time="$secs" -max_len=8192 -timeout="${FUZZ_TIMEOUT:-30}" -print_final_stats=1 $dict \
        "build-fuzz/corpus-$short" "tests/fuzz/corpus/$short" || exit 1
done
