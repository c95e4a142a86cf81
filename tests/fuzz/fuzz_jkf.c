/*
 * tests/fuzz/fuzz_jkf.c — libFuzzer harness for the JKF reader and writer
 * (stream_harness.h), and JKF's two readers (lib/fmt_jkf.h): on each record of
 * the input, as the format splits it, the one-pass reader gives the tree
 * reader's record or leaves the record to it (jkf_both.h).
 */
#define FUZZ_FORMAT "jkf"
#define FUZZ_EXTRA(data, size) jkf_records((const char *)(data), (size))
#include "jkf_both.h"

static void jkf_records(const char *s, size_t len);

#include "stream_harness.h"

static void one_record(const char *s, size_t len, unsigned long line, void *ctx)
{
    (void)ctx;
    CHECK(jkf_both(s, len, line) >= 0);
}

static void jkf_records(const char *s, size_t len) { jkf_each_record(s, len, one_record, NULL); }
