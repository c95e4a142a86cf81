/* tests/fuzz/fuzz_kif.c — libFuzzer harness for the KIF reader and writer (stream_harness.h). */
#define FUZZ_FORMAT "kif"
#include "stream_harness.h"
