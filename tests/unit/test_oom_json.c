/* tests/unit/test_oom_json.c — out of memory inside jansson is "memory", never
 * invalid data (issue 12, defect 2). jansson is given an allocator that fails its
 * Nth allocation before libkoma first uses it (libkoma's counting wrapper then
 * sits on top of it); a record or GGN document is parsed for every N until one
 * run needs no failing allocation: each run either fails with KOMA_E_MEMORY or
 * gives exactly the record of the run without failures. The JKF reader too:
 * its out of memory was reported as jkf.syntax. */
#include <stdlib.h>
#include <jansson.h>
#include "unit.h"

static unsigned long fail_at, calls;   /* fail allocation number fail_at (1-based); 0: never */

static void *failing_malloc(size_t n)
{
    if (fail_at && ++calls == fail_at) return NULL;
    return malloc(n);
}

/* Records with escapes, negative and real numbers, unknown keys: jansson's path
 * (the fast path only takes plain records). */
static const char pcn_rec[] =
    "{\"meta\":{\"event\":\"Ry\\u016b\\u014d-sen\",\"round\":\"7\"},"
    "\"sides\":{\"first\":{\"name\":\"Fujii \\\"Sota\\\"\",\"elo\":-12},"
    "\"second\":{\"name\":\"Habu\",\"x\":[1.5,2e3,{\"k\":null}]}},"
    "\"setup\":{\"feen\":\"lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o\"},"
    "\"plies\":[{\"pmn\":\"e3-e4\",\"comment\":\"a\\tb\"},{\"pmn\":\"e6-e5\"}],"
    "\"outcome\":{\"result\":\"1-0\"}}";

static void test_pcn_json(void **state)
{
    (void)state;
    koma_error err;
    fail_at = 0;
    koma_pcn *good = koma_pcn_parse_json(pcn_rec, strlen(pcn_rec), &err);
    assert_non_null(good);
    unsigned long runs = 0, mem = 0;
    for (fail_at = 1;; fail_at++) {
        calls = 0;
        koma_error_clear(&err);
        koma_pcn *p = koma_pcn_parse_json(pcn_rec, strlen(pcn_rec), &err);
        runs++;
        if (p == NULL) {
            if (err.code != KOMA_E_MEMORY)
                print_error("allocation %lu failed: %s: %s\n", fail_at, koma_code_name(err.code),
                            err.message);
            assert_int_equal(err.code, KOMA_E_MEMORY);
            mem++;
            continue;
        }
        assert_true(koma_pcn_equal(p, good));
        koma_pcn_free(p);
        if (calls < fail_at) break;    /* no allocation failed: every point was tried */
    }
    assert_true(mem > 10);
    fail_at = 0;
    koma_pcn_free(good);
}

static void test_ggn(void **state)
{
    (void)state;
    static const char doc[] =
        "{\"O:K^\":{\"a1\":{\"a2\":[{\"must\":{\"a2\":\"empty\"},\"deny\":{}},"
        "{\"must\":{\"a2\":\"enemy\"},\"deny\":{\"b\\u0032\":\"O:P\"}}]}}}";
    koma_error err;
    fail_at = 0;
    koma_ggn *good = koma_ggn_load(doc, strlen(doc), &err);
    if (good == NULL) print_error("%s\n", err.message);
    assert_non_null(good);
    koma_ggn_free(good);
    unsigned long mem = 0;
    for (fail_at = 1;; fail_at++) {
        calls = 0;
        koma_ggn *g = koma_ggn_load(doc, strlen(doc), &err);
        int ok = g != NULL;
        koma_ggn_free(g);
        if (calls < fail_at) {
            assert_true(ok);
            break;
        }
        if (!ok) {
            if (err.code != KOMA_E_MEMORY)
                print_error("allocation %lu failed: %s: %s\n", fail_at, koma_code_name(err.code),
                            err.message);
            assert_int_equal(err.code, KOMA_E_MEMORY);
            mem++;
        }
    }
    assert_true(mem > 0);
    fail_at = 0;
}

/* A JKF record read through a record stream: each run either reads the record
 * of the run without failures or fails with KOMA_E_MEMORY (the stream's own
 * allocations fail too; those are memory errors as well). */
static const char jkf[] =
    "{\"header\":{\"\\u5148\\u624b\":\"Fujii\",\"\\u5f8c\\u624b\":\"Habu \\\"Y\\\"\"},"
    "\"initial\":{\"preset\":\"HIRATE\"},"
    "\"moves\":[{\"comments\":[\"a\",\"b\"]},"
    "{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},"
    "\"time\":{\"now\":{\"m\":0,\"s\":12},\"total\":{\"h\":0,\"m\":0,\"s\":12}}},"
    "{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}}]}";

static koma_pcn *read_jkf(koma_hub *hub, koma_error *err)
{
    koma_rstream *rs = koma_rstream_new(hub, koma_format_find(LIT("jkf")), NULL, err);
    if (rs == NULL) return NULL;
    koma_pcn *rec = NULL;
    int rc = koma_rstream_feed(rs, jkf, strlen(jkf), err);
    if (rc == 0) {
        koma_rstream_finish(rs);
        rc = koma_rstream_next(rs, &rec, err);
        if (rc != KOMA_PCN_RECORD) rec = NULL;
    }
    koma_rstream_free(rs);
    return rec;
}

static void test_jkf(void **state)
{
    (void)state;
    koma_error err;
    fail_at = 0;
    koma_hub *hub = koma_hub_new(NULL, NULL);
    assert_non_null(hub);
    koma_pcn *good = read_jkf(hub, &err);
    if (good == NULL) print_error("%s: %s\n", koma_code_name(err.code), err.message);
    assert_non_null(good);
    assert_int_equal(koma_pcn_ply_count(good), 2);
    unsigned long mem = 0;
    for (fail_at = 1;; fail_at++) {
        calls = 0;
        koma_error_clear(&err);
        koma_pcn *p = read_jkf(hub, &err);
        if (p == NULL) {
            if (err.code != KOMA_E_MEMORY)
                print_error("allocation %lu failed: %s: %s\n", fail_at, koma_code_name(err.code),
                            err.message);
            assert_int_equal(err.code, KOMA_E_MEMORY);
            mem++;
            continue;
        }
        assert_true(koma_pcn_equal(p, good));
        koma_pcn_free(p);
        if (calls < fail_at) break;
    }
    assert_true(mem > 10);
    fail_at = 0;
    koma_pcn_free(good);
    koma_hub_free(hub);
}

int main(void)
{
    /* before libkoma's first JSON call, so that its wrapper sits on this one */
    json_set_alloc_funcs(failing_malloc, free);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcn_json),
        cmocka_unit_test(test_ggn),
        cmocka_unit_test(test_jkf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
