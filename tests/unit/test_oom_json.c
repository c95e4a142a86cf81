/* tests/unit/test_oom_json.c — out of memory inside jansson is "memory", never
 * invalid data. jansson is given an allocator that fails its
 * Nth allocation before libkoma first uses it (libkoma's counting wrapper then
 * sits on top of it); a record or GGN document is parsed for every N until one
 * run needs no failing allocation: each run either fails with KOMA_E_MEMORY or
 * gives exactly the record of the run without failures. The JKF reader too:
 * its out of memory was reported as jkf.syntax. The JKF writer: each run writes
 * the record of the run without failures or fails with KOMA_E_MEMORY, and
 * frees every block of jansson it took (the hands of a setup were written with
 * pieces left out, a ply's time leaked). */
#include <stdlib.h>
#include <jansson.h>
#include "unit.h"

static unsigned long fail_at, calls;   /* fail allocation number fail_at (1-based); 0: never */
static long live;                      /* jansson's blocks not yet freed */

static void *failing_malloc(size_t n)
{
    if (fail_at && ++calls == fail_at) return NULL;
    void *p = malloc(n);
    if (p) live++;
    return p;
}

static void counting_free(void *p)
{
    if (p) live--;
    free(p);
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

/* A record read with each jansson allocation failing in turn, until a run
 * needs no failing allocation: each run either gives exactly the record of the
 * run without failures or fails with KOMA_E_MEMORY (more than 10 do). */
typedef koma_pcn *(*reader_fn)(void *ctx, koma_error *err);

static void expect_each_failure(reader_fn read, void *ctx)
{
    koma_error err;
    fail_at = 0;
    koma_pcn *good = read(ctx, &err);
    if (good == NULL) fail_msg("%s: %s", koma_code_name(err.code), err.message);
    unsigned long mem = 0;
    for (fail_at = 1;; fail_at++) {
        calls = 0;
        koma_error_clear(&err);
        koma_pcn *p = read(ctx, &err);
        if (p == NULL) {
            if (err.code != KOMA_E_MEMORY)
                fail_msg("allocation %lu failed: %s: %s", fail_at, koma_code_name(err.code), err.message);
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

static koma_pcn *parse_pcn(void *ctx, koma_error *err)
{
    (void)ctx;
    koma_pcn *p;
    koma_pcn_parse_json(pcn_rec, strlen(pcn_rec), &p, err);
    return p;
}

static void test_pcn_json(void **state)
{
    (void)state;
    expect_each_failure(parse_pcn, NULL);
}

static void test_ggn(void **state)
{
    (void)state;
    static const char doc[] =
        "{\"O:K^\":{\"a1\":{\"a2\":[{\"must\":{\"a2\":\"empty\"},\"deny\":{}},"
        "{\"must\":{\"a2\":\"enemy\"},\"deny\":{\"b\\u0032\":\"O:P\"}}]}}}";
    koma_error err;
    fail_at = 0;
    koma_ggn *good = NULL;
    koma_ggn_load(doc, strlen(doc), &good, &err);
    if (good == NULL) print_error("%s\n", err.message);
    assert_non_null(good);
    koma_ggn_free(good);
    unsigned long mem = 0;
    for (fail_at = 1;; fail_at++) {
        calls = 0;
        koma_ggn *g = NULL;
        koma_ggn_load(doc, strlen(doc), &g, &err);
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

static koma_pcn *read_as(koma_hub *hub, const char *fmt, const char *text, koma_error *err)
{
    koma_format_reader *rs = NULL;
    koma_format_reader_new(hub, koma_format_find(fmt, strlen(fmt)), NULL, &rs, err);
    if (rs == NULL) return NULL;
    koma_pcn *rec = NULL;
    int rc = koma_format_reader_feed(rs, text, strlen(text), err);
    if (rc == 0) {
        koma_format_reader_finish(rs);
        rc = koma_format_reader_next(rs, &rec, err);
        if (rc != KOMA_PCN_RECORD) rec = NULL;
    }
    koma_format_reader_free(rs);
    return rec;
}

static koma_pcn *read_jkf(void *hub, koma_error *err) { return read_as(hub, "jkf", jkf, err); }

static void test_jkf(void **state)
{
    (void)state;
    koma_hub *hub = NULL;
    koma_hub_new(NULL, &hub, NULL);
    assert_non_null(hub);
    koma_error err;
    koma_pcn *rec = read_jkf(hub, &err);
    assert_non_null(rec);
    assert_int_equal(koma_pcn_ply_count(rec), 2);
    koma_pcn_free(rec);
    expect_each_failure(read_jkf, hub);
    koma_hub_free(hub);
}

/* ---- the JKF writer ---- */

static int write_jkf(koma_hub *hub, const koma_pcn *rec, koma_buffer *out, koma_error *err)
{
    koma_format_writer *ws = NULL;
    koma_format_writer_new(hub, koma_format_find(LIT("jkf")), 0, &ws, err);
    if (ws == NULL) return -1;
    int rc = koma_format_writer_record(ws, rec, out, err);
    koma_format_writer_free(ws);
    return rc;
}

/* text (in format fmt) written as JKF with each jansson allocation failing in turn */
static void expect_jkf_write(koma_hub *hub, const char *fmt, const char *text, const char *part)
{
    koma_error err;
    fail_at = 0;
    koma_pcn *rec = read_as(hub, fmt, text, &err);
    if (rec == NULL) fail_msg("%s: %s: %s", fmt, koma_code_name(err.code), err.message);
    koma_buffer good = {0};
    if (write_jkf(hub, rec, &good, &err) != 0) fail_msg("%s: %s", koma_code_name(err.code), err.message);
    /* the output has what the record is chosen for */
    if (strstr(good.data, part) == NULL) fail_msg("no %s in %s", part, good.data);
    unsigned long mem = 0;
    for (fail_at = 1;; fail_at++) {
        calls = 0;
        long before = live;
        koma_buffer out = {0};
        koma_error_clear(&err);
        int rc = write_jkf(hub, rec, &out, &err);
        if (live != before) fail_msg("allocation %lu failed: %ld blocks of jansson left", fail_at, live - before);
        if (rc != 0) {
            if (err.code != KOMA_E_MEMORY)
                fail_msg("allocation %lu failed: %s: %s", fail_at, koma_code_name(err.code), err.message);
            mem++;
        } else if (strcmp(out.data, good.data) != 0) {
            size_t at = 0;
            while (out.data[at] == good.data[at]) at++;
            size_t from = at > 40 ? at - 40 : 0;
            fail_msg("allocation %lu failed, and this was written (at %zu):\n%.100s\ninstead of\n%.100s", fail_at,
                     at, out.data + from, good.data + from);
        }
        koma_buffer_cleanup(&out);
        if (calls < fail_at) {
            assert_int_equal(rc, 0);
            break;
        }
    }
    assert_true(mem > 10);
    fail_at = 0;
    koma_buffer_cleanup(&good);
    koma_pcn_free(rec);
}

/* 9x9 files (x 1..9) of a setup that is no preset: the start with a bishop and
 * a rook exchanged and a pawn in first's hand */
#define SQ(c, k) "{\"color\":" #c ",\"kind\":\"" k "\"}"
#define FILE9(a, b, c, d, e) "[" a "," b "," SQ(1, "FU") ",{},{},{}," SQ(0, "FU") "," d "," e "]"
static const char jkf_other[] =
    "{\"header\":{\"\\u958b\\u59cb\\u65e5\\u6642\":\"2024/01/02 10:00:00\",\"\\u5148\\u624b\":\"Fujii\"},"
    "\"initial\":{\"preset\":\"OTHER\",\"data\":{\"color\":0,\"board\":["
    FILE9(SQ(1, "KY"), "{}", "", "{}", SQ(0, "KY")) ","
    FILE9(SQ(1, "KE"), SQ(1, "KA"), "", SQ(0, "HI"), SQ(0, "KE")) ","
    FILE9(SQ(1, "GI"), "{}", "", "{}", SQ(0, "GI")) ","
    FILE9(SQ(1, "KI"), "{}", "", "{}", SQ(0, "KI")) ","
    FILE9(SQ(1, "OU"), "{}", "", "{}", SQ(0, "OU")) ","
    FILE9(SQ(1, "KI"), "{}", "", "{}", SQ(0, "KI")) ","
    FILE9(SQ(1, "GI"), "{}", "", "{}", SQ(0, "GI")) ","
    FILE9(SQ(1, "KE"), SQ(1, "HI"), "", SQ(0, "KA"), SQ(0, "KE")) ","
    FILE9(SQ(1, "KY"), "{}", "", "{}", SQ(0, "KY")) "],"
    "\"hands\":[{\"FU\":1},{}]}},"
    "\"moves\":[{\"comments\":[\"setup\"],\"bookmark\":\"start\"},"
    "{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},"
    "\"comments\":[\"a\",\"b\"],\"time\":{\"now\":{\"m\":0,\"s\":12},\"total\":{\"h\":0,\"m\":0,\"s\":12}},"
    "\"forks\":[[{\"move\":{\"color\":0,\"from\":{\"x\":2,\"y\":7},\"to\":{\"x\":2,\"y\":6},\"piece\":\"FU\"}},"
    "{\"special\":\"TORYO\"}]]},"
    "{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"},\"bookmark\":\"m2\"},"
    "{\"move\":{\"color\":0,\"from\":{\"x\":8,\"y\":8},\"to\":{\"x\":2,\"y\":2},\"piece\":\"KA\",\"capture\":\"KA\","
    "\"promote\":true}},"
    "{\"special\":\"TORYO\",\"comments\":[\"end\"],\"time\":{\"now\":{\"m\":0,\"s\":3},"
    "\"total\":{\"h\":0,\"m\":0,\"s\":3}},\"bookmark\":\"over\"}]}";
#undef FILE9
#undef SQ

/* a repeated header field (joined), a ply's time */
static const char kif_headers[] =
    "\xe9\x96\x8b\xe5\xa7\x8b\xe6\x97\xa5\xe6\x99\x82\xef\xbc\x9a" "2024/01/02 10:00:00\n"   /* 開始日時： */
    "\xe6\xa3\x8b\xe6\x88\xa6\xef\xbc\x9a" "A\n"                                               /* 棋戦： */
    "\xe6\xa3\x8b\xe6\x88\xa6\xef\xbc\x9a" "B\n"
    "\xe6\x89\x8b\xe5\x90\x88\xe5\x89\xb2\xef\xbc\x9a\xe5\xb9\xb3\xe6\x89\x8b\n"               /* 手合割：平手 */
    "\xe6\x89\x8b\xe6\x95\xb0----\xe6\x8c\x87\xe6\x89\x8b---------\xe6\xb6\x88\xe8\xb2\xbb\xe6\x99\x82\xe9\x96\x93--\n"
    "   1 \xef\xbc\x97\xe5\x85\xad\xe6\xad\xa9(77)   ( 0:01/00:00:01)\n"                        /* ７六歩 */
    "*move comment\n";

/* a closing comment with no ending, on a ply that has comments: one list */
static const char pcn_end_comment[] =
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
    "\"plies\":[{\"pmn\":\"c3-c4\",\"comment\":\"m1\"}],\"outcome\":{\"comment\":\"end\\nnote\"}}";

static void test_jkf_write(void **state)
{
    (void)state;
    koma_hub *hub = NULL;
    koma_hub_new(NULL, &hub, NULL);
    assert_non_null(hub);
    expect_jkf_write(hub, "jkf", jkf_other, "\"hands\":[{\"FU\":1,");
    expect_jkf_write(hub, "kif", kif_headers, "\"A\\nB\"");
    expect_jkf_write(hub, "pcn", pcn_end_comment, "\"comments\":[\"m1\",\"end\",\"note\"]");
    koma_hub_free(hub);
}

int main(void)
{
    /* before libkoma's first JSON call, so that its wrapper sits on this one */
    json_set_alloc_funcs(failing_malloc, counting_free);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcn_json),
        cmocka_unit_test(test_ggn),
        cmocka_unit_test(test_jkf),
        cmocka_unit_test(test_jkf_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
