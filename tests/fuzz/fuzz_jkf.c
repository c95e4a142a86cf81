/* tests/fuzz/fuzz_jkf.c — libFuzzer harness for the JKF reader and writer (stream_harness.h). */
#define FUZZ_FORMAT "jkf"
#include "stream_harness.h"
