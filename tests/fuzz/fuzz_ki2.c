/* tests/fuzz/fuzz_ki2.c — libFuzzer harness for the KI2 reader and writer (stream_harness.h). */
#define FUZZ_FORMAT "ki2"
#include "stream_harness.h"
