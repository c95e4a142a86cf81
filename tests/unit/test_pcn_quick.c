/*
 * tests/unit/test_pcn_quick.c — KOMA_PCN_CHECK_ONLY (lib/pcn_quick.c, one pass
 * with no tree) gives every JSON record the verdict of the full path: the same
 * validity, and for an invalid record the same code, line and column; and
 * KOMA_PCN_LIGHT's accessors (no tree) give the tree's values.
 *
 * The records are those of tests/data/pcn/games.jsonl, hand-made cases for each
 * rule pcn_validate.c applies, and random edits of both.
 */
#include <stdlib.h>
#include "unit.h"
#include "pcn_internal.h"

static unsigned long accepted;

static void same_verdict(const char *s, size_t len, unsigned flags)
{
    koma_error ef, eq;
    koma_error_clear(&ef);
    koma_error_clear(&eq);
    koma_pcn *full = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s, len, flags, &full, &ef);
    koma_pcn *quick = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s, len, flags | KOMA_PCN_CHECK_ONLY, &quick, &eq);
    if ((full == NULL) != (quick == NULL) || ef.code != eq.code || ef.line != eq.line ||
        ef.column != eq.column)
        print_error("%.*s\n  full: %s %s %lu:%lu  check-only: %s %s %lu:%lu\n", (int)len, s,
                    full ? "valid" : "invalid", koma_code_name(ef.code), ef.line, ef.column,
                    quick ? "valid" : "invalid", koma_code_name(eq.code), eq.line, eq.column);
    assert_int_equal(full == NULL, quick == NULL);
    assert_int_equal(ef.code, eq.code);
    assert_int_equal(ef.line, eq.line);
    assert_int_equal(ef.column, eq.column);
    if (full) accepted++;
    koma_pcn_free(full);
    koma_pcn_free(quick);
}

#define SAME(lit) same_verdict(LIT(lit), 0)

static const char *const cases[] = {
    "{\"setup\":{\"feen\":\"8/8/8/8/8/8/8/8 / O/o\"},\"plies\":[{\"pmn\":\"e2-e3\"},{\"pmn\":\"P*e5\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"}}",
    "{\"setup\":{}}",
    "{\"plies\":[]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"setup\":{\"feen\":\"K / C/c\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\",\"x\":{\"a\":1,\"a\":2}}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"meta\":{\"name\":\"x\",\"started_at\":\"2024-01-02T03:04:05Z\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"meta\":{\"started_at\":\"2024-13-02T03:04:05Z\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"meta\":{\"name\":7}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"meta\":[]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"links\":[{\"rel\":\"a\",\"href\":\"b\"},{}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"links\":[{\"rel\":1}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"periods\":[{\"duration_ms\":1,\"increment_ms\":2,\"plies\":3}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"periods\":[{\"increment_ms\":2}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"periods\":[{\"duration_ms\":-1}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"periods\":[{\"duration_ms\":1.0}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"periods\":[{\"duration_ms\":1.5}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"sides\":{\"first\":{\"name\":\"a\",\"elo\":-5},\"second\":{\"elo\":12}}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"sides\":{\"first\":{\"elo\":\"12\"}}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"sides\":{\"third\":3}}",
    "{\"setup\":{\"feen\":\"K  / C/c\"}}",
    "{\"setup\":{\"feen\":7}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\",\"elapsed_ms\":5,\"comment\":\"\xc5\x8cte\",\"check\":true,\"mate\":false}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\",\"check\":null}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\",\"comment\":\"\xc0\xaf\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\",\"comment\":\"a\\nb\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"elapsed_ms\":3}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[\"e2-e3\"]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":{}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"outcome\":{\"result\":\"1-0\",\"status\":\"checkmate\",\"ply\":0}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"outcome\":{\"result\":\"2-0\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"outcome\":{\"status\":\"won\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"outcome\":{\"ply\":01}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
    "{\"setup\":{\"feen\":\"K / C/c\"}} x",
    " \t{\"setup\":{\"feen\":\"K / C/c\"}}\r\n",
    "[]", "\"x\"", "", "{", "{\"setup\":{\"feen\":\"K / C/c\"},}",
    /* the quick ply form {"pmn":"..."} and what falls back from it */
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\"} ,{\"pmn\":\"e3-e4\" }]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e\\u0032-e3\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\"}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e9x\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2\xc3\xa9\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\"},{\"pmn\":\"e2-e3\",\"pmn\":\"a1-a2\"}]}",
    "{\"plies\":[{\"pmn\":\"e2-e3\"}],\"setup\":{\"feen\":\"K / C/c\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{\"pmn\":\"e2-e3\"}]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{\"pmn\":\"e2-e3\"}]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
    /* the quick ply's string read 16 bytes at a time: the quote at each end of the
     * window and past it, a control byte, a backslash or a non-ASCII byte before it */
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3,e3-e4,e4-e5,e5-e6\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3,e3-e4,e4-\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3,e3-e4,e4-e\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"\"},{\"pmn\":\"e2-e3\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\x01\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\x7f\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2\\\"-e3\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\xc3\xa9\"}]}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\"}]}         ",
    /* what may follow a ply of the usual form (the light pass reads those in a
     * loop of its own): another, white space, the end, or something else */
#define PLIES(sep) "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e1-e2\"}" sep \
    "{\"pmn\":\"e2-e3\"},{\"pmn\":\"e3-e4\"}],\"meta\":{\"name\":\"x\"}}"
    PLIES(","), PLIES(" ,"), PLIES(", "), PLIES(" , "), PLIES("\n,\t"), PLIES(""), PLIES(":"),
    PLIES(";"), PLIES(",,"), PLIES("],["), PLIES(",1,"), PLIES(",{},"), PLIES(",\"x\","),
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e1-e2\"},{\"pmn\":\"e2-e3\"} ],\"meta\":{\"name\":\"x\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e1-e2\"},{\"pmn\":\"e2-e3\"},],\"meta\":{\"name\":\"x\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e1-e2\"},{\"pmn\":\"e2-e3\"}}],\"meta\":{\"name\":\"x\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e1-e2,e2-e3\"},{\"pmn\":\"e2-e3\"}],\"meta\":{\"name\":\"x\"}}",
    "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e1-e2\",\"x\":1},{\"pmn\":\"e2-e3\"}],\"meta\":{\"name\":\"x\"}}",
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        same_verdict(cases[i], strlen(cases[i]), 0);
        same_verdict(cases[i], strlen(cases[i]), KOMA_PCN_NO_PMN);
        same_verdict(cases[i], strlen(cases[i]), KOMA_PCN_FEEN_NORMALISE);
    }
    SAME("{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2-e3\",\"comment\":\"\xed\xa0\x80\"}]}");
    /* the pass keeps the last FEEN it found valid, with its flags: a hand out
     * of order is valid normalised, not strict, right after; and one byte
     * changed is another text */
    static const char odd[] = "{\"setup\":{\"feen\":\"4k^4/9/9/9/9/9/9/9/4K^4 PG/ S/s\"}}";
    same_verdict(LIT(odd), KOMA_PCN_FEEN_NORMALISE);
    same_verdict(LIT(odd), 0);
    same_verdict(LIT(odd), KOMA_PCN_FEEN_NORMALISE);
    static const char even[] = "{\"setup\":{\"feen\":\"4k^4/9/9/9/9/9/9/9/4K^4 GP/ S/s\"}}";
    static const char ten[] = "{\"setup\":{\"feen\":\"4k^4/9/9/9/9/9/9/9/4K^4 GP/ S/t\"}}";
    same_verdict(LIT(even), 0);
    same_verdict(LIT(ten), 0);
    same_verdict(LIT(even), 0);
}

static void same_light(const char *s, size_t len);

/* Every record of the sample database as is, then random edits of them (each
 * also read light). */
static void test_records(void **state)
{
    (void)state;
    size_t len;
    char *db = read_whole_file("tests/data/pcn/games.jsonl", &len);
    assert_non_null(db);
    static const char alphabet[] = "{}[]\":,0123456789-. \\aex/";
    unsigned long seed = 20261125ul;
    char *buf = malloc(len + 64);
    assert_non_null(buf);
    accepted = 0;
    unsigned long records = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(db + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (db + at)) : len - at;
        same_verdict(db + at, n, 0);
        records++;
        for (int round = 0; round < 40; round++) {
            memcpy(buf, db + at, n);
            size_t m = n;
            seed = seed * 6364136223846793005ul + 1442695040888963407ul;
            size_t pos = (size_t)(seed >> 33) % (m + 1);
            char ch = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
            switch ((seed >> 8) % 3) {
            case 0: if (pos < m) buf[pos] = ch; break;
            case 1: memmove(buf + pos + 1, buf + pos, m - pos); buf[pos] = ch; m++; break;
            default: if (pos < m) { memmove(buf + pos, buf + pos + 1, m - pos - 1); m--; }
            }
            same_verdict(buf, m, 0);
            same_light(buf, m);
        }
        at += n + 1;
    }
    assert_true(records >= 100);
    assert_true(accepted >= records);          /* the sample records are valid */
    free(buf);
    free(db);
}

/* A record of the setup and "x": n copies of item in an array (in an object of
 * n members with keys "kN" when keyed). */
static char *shaped(const char *item, size_t n, int keyed, size_t *len)
{
    static const char head[] = "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":";
    size_t cap = sizeof head + n * (strlen(item) + 16) + 8;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t k = (size_t)sprintf(s, "%s%c", head, keyed ? '{' : '[');
    size_t m = strlen(item);
    for (size_t i = 0; i < n; i++) {
        if (i) s[k++] = ',';
        if (keyed) k += (size_t)sprintf(s + k, "\"k%zu\":", i);
        memcpy(s + k, item, m);
        k += m;
    }
    k += (size_t)sprintf(s + k, "%c}", keyed ? '}' : ']');
    *len = k;
    return s;
}

/* The tree-free check never calls valid a record whose tree the full path
 * refuses (pcn.memory.limit, KOMA_LIMIT_TREE): for each costly shape, the
 * most items the check passes give a record the full path takes, and one more
 * item still the same verdict both ways (without the bound, 16 MiB of {} would be
 * valid to koma-validate and pcn.memory.limit to koma-convert). */
static void test_memory_budget(void **state)
{
    (void)state;
    static const struct { const char *item; int keyed; } shapes[] = {
        {"{}", 0}, {"[]", 0}, {"1", 0}, {"\"ab\"", 0}, {"{\"k\":1}", 0},
        {"{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9}", 0},
        {"[1,2,3,4,5,6,7,8,9]", 0}, {"\"\xc3\xa9\"", 0},
        {"\"ccccccccccccccccccccccccccccccccccccccc\xc3\xa9\"", 0}, {"{}", 1},
    };
    koma_position scratch;
    koma_position_init(&scratch);
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        /* keyed: one object of 32 members at most (the pass reads no more) */
        /* (an item costs 40 bytes at least: a table slot and a block) */
        size_t lo = 0, hi = shapes[i].keyed ? 32 : KOMA_LIMIT_RECORD / (strlen(shapes[i].item) + 1);
        if (hi > KOMA_LIMIT_TREE / 40) hi = KOMA_LIMIT_TREE / 40;
        size_t len;
        /* the most items the check passes (it passes 0, and fails past the budget) */
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            char *s = shaped(shapes[i].item, mid, shapes[i].keyed, &len);
            if (koma__pcn_quick_check(s, len, 0, &scratch, NULL)) lo = mid;
            else hi = mid - 1;
            free(s);
        }
        char *s = shaped(shapes[i].item, lo, shapes[i].keyed, &len);
        koma_error e;
        koma_pcn *full = NULL;
        koma_pcn_parse(KOMA_PCN_JSON, s, len, 0, &full, &e);
        if (full == NULL)
            print_error("%s x %zu: the check passes it, the full path says %s\n", shapes[i].item,
                        lo, koma_code_name(e.code));
        assert_non_null(full);
        koma_pcn_free(full);
        free(s);
        s = shaped(shapes[i].item, lo + 1, shapes[i].keyed, &len);
        if (len <= KOMA_LIMIT_RECORD) same_verdict(s, len, 0);
        free(s);
    }
    koma_position_cleanup(&scratch);
    /* 16 MiB of {} (3 bytes an item): refused by both, at the same place */
    size_t len;
    char *s = shaped("{}", (KOMA_LIMIT_RECORD - 64) / 3, 0, &len);
    koma_error e;
    koma_error_clear(&e);
    assert_int_equal(koma_pcn_parse(KOMA_PCN_JSON, s, len, KOMA_PCN_CHECK_ONLY, &(koma_pcn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_MEMORY_LIMIT);
    same_verdict(s, len, 0);
    free(s);
}

/* KOMA_PCN_LIGHT: the light accessors give what the tree gives. */
static void same_light(const char *s, size_t len)
{
    koma_error ef, el;
    koma_error_clear(&ef);
    koma_error_clear(&el);
    koma_pcn *full = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s, len, 0, &full, &ef);
    koma_pcn *light = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s, len, KOMA_PCN_LIGHT, &light, &el);
    assert_int_equal(full == NULL, light == NULL);
    assert_int_equal(ef.code, el.code);
    if (full == NULL) return;
    size_t a = 0, b = 0;
    const char *fa = koma_pcn_setup_feen(full, &a), *fb = koma_pcn_setup_feen(light, &b);
    assert_int_equal(fa == NULL, fb == NULL);
    if (fa) {
        assert_int_equal(a, b);
        assert_memory_equal(fa, fb, a);
    }
    assert_int_equal(koma_pcn_ply_count(full), koma_pcn_ply_count(light));
    for (size_t i = 0; i <= koma_pcn_ply_count(full); i++) {
        const char *pa = koma_pcn_ply_pmn(full, i, &a), *pb = koma_pcn_ply_pmn(light, i, &b);
        assert_int_equal(pa == NULL, pb == NULL);
        if (pa) {
            assert_int_equal(a, b);
            assert_memory_equal(pa, pb, a);
            assert_int_equal(pb[b], '\0');
            /* a light record's move the pass kept: the text's one move, or
             * none for a chain */
            if (light->light == NULL) continue;
            koma_move m;
            memset(&m, 0, sizeof m);
            const koma_move *kept = koma__pcn_ply_move(light, i);
            int one = koma_pmn_parse(pb, b, &m, NULL) == 0;
            if (one != (kept != NULL) || (kept && memcmp(kept, &m, sizeof m) != 0))
                print_error("ply %zu \"%.*s\": %s, kept %s\n", i, (int)b, pb, one ? "one move" : "a chain",
                            kept ? "a move (or another one)" : "none");
            assert_int_equal(one, kept != NULL);
            if (kept) assert_memory_equal(kept, &m, sizeof m);
        }
    }
    assert_int_equal(koma_pcn_has_outcome(full), koma_pcn_has_outcome(light));
    const char *ra = koma_pcn_outcome_result(full), *rb = koma_pcn_outcome_result(light);
    assert_int_equal(ra == NULL, rb == NULL);
    if (ra) assert_string_equal(ra, rb);
    ra = koma_pcn_outcome_status(full);
    rb = koma_pcn_outcome_status(light);
    assert_int_equal(ra == NULL, rb == NULL);
    if (ra) assert_string_equal(ra, rb);
    uint64_t x = 7, y = 7;
    assert_int_equal(koma_pcn_outcome_ply(full, &x), koma_pcn_outcome_ply(light, &y));
    assert_true(x == y);
    accepted++;
    koma_pcn_free(full);
    koma_pcn_free(light);
}

static void test_light(void **state)
{
    (void)state;
    size_t len;
    char *db = read_whole_file("tests/data/pcn/games.jsonl", &len);
    assert_non_null(db);
    accepted = 0;
    unsigned long records = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(db + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (db + at)) : len - at;
        if (n > 0) {
            same_light(db + at, n);
            records++;
        }
        at += n + 1;
    }
    assert_true(records >= 100 && accepted == records);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) same_light(cases[i], strlen(cases[i]));
    SAME("{\"setup\":{\"feen\":\"K / C/c\"},\"outcome\":{\"result\":\"1-0\",\"status\":\"resignation\",\"ply\":12}}");
    same_light(LIT("{\"setup\":{\"feen\":\"K / C/c\"},\"outcome\":{\"result\":\"1-0\",\"status\":\"resignation\",\"ply\":12}}"));
    free(db);
    /* plies that only the PMN grammar reads (a 3-D cell, a rank of three digits),
     * among the usual ones: the light pass keeps each as the text's move */
    static const char grammar[] = "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"a1A-a2A\"},"
                                  "{\"pmn\":\"c3-c4\"},{\"pmn\":\"a100-a99\"},{\"pmn\":\"K*a1A\"},"
                                  "{\"pmn\":\"a1A+b2A/P\"},{\"pmn\":\"R*b8\"}]}";
    same_light(grammar, sizeof grammar - 1);
    /* (read by the pass itself, not handed to the full path: the record is light,
     * every move kept) */
    koma_pcn *g = NULL;
    koma_error eg;
    assert_int_equal(koma_pcn_parse(KOMA_PCN_JSON, grammar, sizeof grammar - 1, KOMA_PCN_LIGHT, &g, &eg), 0);
    assert_non_null(g->light);
    assert_int_equal(koma_pcn_ply_count(g), 6);
    for (size_t i = 0; i < 6; i++) assert_non_null(koma__pcn_ply_move(g, i));
    koma_pcn_free(g);
    /* the most plies a record holds, and one more: the same verdict both ways */
    for (size_t n = KOMA_LIMIT_PLIES; n <= KOMA_LIMIT_PLIES + 1; n++) {
        static const char head[] = "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[";
        char *s = malloc(sizeof head + n * 16 + 8);
        assert_non_null(s);
        size_t k = (size_t)sprintf(s, "%s", head);
        for (size_t i = 0; i < n; i++) k += (size_t)sprintf(s + k, "%s{\"pmn\":\"%s\"}", i ? "," : "", i % 2 ? "a2-a1" : "a1-a2");
        k += (size_t)sprintf(s + k, "]}");
        same_verdict(s, k, 0);
        same_light(s, k);
        free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_light),
        cmocka_unit_test(test_memory_budget),
    };
    return cmocka_run_group_tests_name("pcn_quick", tests, NULL, NULL);
}
