/* tests/unit/test_sniff.c — lib/sniff.c (what an input holds, BOMs) and the PCN
 * reader's per-record format decision (KOMA_PCN_AUTO, lib/pcn_stream.c): no
 * BOM, broken or over-long line loses the records after it, in pull mode and pushed in chunks of every small size. */
#include "unit.h"

#include <stdlib.h>

#define BOM "\xef\xbb\xbf"
#define FEEN_S "k^8/9/9/9/9/9/9/9/K^8 / S/s"
#define J(name) "{\"meta\":{\"name\":\"" name "\"},\"setup\":{\"feen\":\"" FEEN_S "\"}}\n"
#define Y(name) "---\nmeta:\n  name: " name "\nsetup:\n  feen: \"" FEEN_S "\"\n"

static void test_bom_len(void **state)
{
    (void)state;
    assert_int_equal(koma_bom_len(LIT(BOM "{")), 3);
    assert_int_equal(koma_bom_len(LIT(BOM)), 3);
    assert_int_equal(koma_bom_len(LIT("\xef\xbb")), 0);
    assert_int_equal(koma_bom_len(LIT("{}")), 0);
    assert_int_equal(koma_bom_len("", 0), 0);
}

static void test_sniff_input(void **state)
{
    (void)state;
    assert_int_equal(koma_sniff_input(LIT(J("a")), 1), KOMA_INPUT_PCN);
    assert_int_equal(koma_sniff_input(LIT(BOM J("a")), 1), KOMA_INPUT_PCN);
    assert_int_equal(koma_sniff_input(LIT(Y("a")), 1), KOMA_INPUT_PCN);
    assert_int_equal(koma_sniff_input(LIT("# c\n%TAG ! x\nsetup:\n"), 1), KOMA_INPUT_PCN);
    assert_int_equal(koma_sniff_input(LIT(BOM FEEN_S "\n"), 1), KOMA_INPUT_LINES);
    assert_int_equal(koma_sniff_input(LIT("e2-e4\n"), 1), KOMA_INPUT_LINES);
    assert_int_equal(koma_sniff_input(LIT("\n\n"), 1), KOMA_INPUT_LINES);
    assert_int_equal(koma_sniff_input(LIT("{\"K\": {\"e1\": {}}}\n"), 1), KOMA_INPUT_JSON);
    /* a first JSON text that goes on: more is needed, unless that is all */
    assert_int_equal(koma_sniff_input(LIT("{\"K\": {\"e1\":"), 0), KOMA_INPUT_MORE);
    assert_int_equal(koma_sniff_input(LIT("{\"K\": {\"e1\":"), 1), KOMA_INPUT_JSON);
    /* a "setup" below the top level is not a record's */
    assert_int_equal(koma_sniff_input(LIT("{\"x\":{\"setup\":1}}\n"), 1), KOMA_INPUT_JSON);
    /* JSON Lines whose first line is broken: a later record line decides */
    assert_int_equal(koma_sniff_input(LIT("{broken\n" J("a")), 0), KOMA_INPUT_PCN);
    assert_int_equal(koma_sniff_input(LIT("{\"meta\":{\"name\":\"x\n" BOM J("a")), 0),
                     KOMA_INPUT_PCN);
}

/* ---- the reader with KOMA_PCN_AUTO ------------------------------------------------ */

typedef struct got {
    char seen[64];                 /* per record: 'j' JSON, 'y' YAML; upper case when invalid */
    unsigned long line[64];        /* koma_pcn_reader_line */
    koma_code code[64];
    size_t n;
} got;

static void take(got *g, koma_pcn_reader *r, int rc, koma_pcn *p, const koma_error *e)
{
    assert_true(g->n < 63);
    char f = koma_pcn_reader_format(r) == KOMA_PCN_JSON ? 'j' : 'y';
    g->seen[g->n] = rc == KOMA_PCN_RECORD ? f : (char)(f - 'a' + 'A');
    g->line[g->n] = koma_pcn_reader_line(r);
    g->code[g->n] = rc == KOMA_PCN_RECORD ? KOMA_OK : e->code;
    g->n++;
    g->seen[g->n] = '\0';
    koma_pcn_free(p);
}

/* Push s in chunks of `chunk` bytes (0: all at once), flags | KOMA_PCN_AUTO. */
static void read_auto(const char *s, size_t len, size_t chunk, got *g)
{
    koma_error e;
    koma_error_clear(&e);
    memset(g, 0, sizeof *g);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_JSON, KOMA_PCN_AUTO, NULL, NULL, &r, &e);
    assert_non_null(r);
    size_t pos = 0;
    if (chunk == 0) chunk = len ? len : 1;
    for (;;) {
        koma_pcn *p = NULL;
        int rc = koma_pcn_reader_next(r, &p, &e);
        if (rc == KOMA_PCN_AGAIN) {
            if (pos < len) {
                size_t n = len - pos < chunk ? len - pos : chunk;
                assert_int_equal(koma_pcn_reader_feed(r, s + pos, n, &e), 0);
                pos += n;
            } else {
                koma_pcn_reader_finish(r);
            }
            continue;
        }
        if (rc == KOMA_PCN_END) break;
        assert_true(rc == KOMA_PCN_RECORD || rc == KOMA_PCN_INVALID);
        take(g, r, rc, p, &e);
    }
    koma_pcn_reader_free(r);
}

/* Every chunk size from 1 to 9 and all at once give `want` (and the lines). */
static void expect_auto(const char *s, const char *want, const unsigned long *lines)
{
    for (size_t chunk = 0; chunk <= 9; chunk++) {
        got g;
        read_auto(s, strlen(s), chunk, &g);
        if (strcmp(g.seen, want) != 0) fail_msg("chunk %zu: read \"%s\", want \"%s\"", chunk, g.seen, want);
        for (size_t i = 0; lines && i < g.n; i++)
            if (g.line[i] != lines[i])
                fail_msg("chunk %zu: record %zu at line %lu, want %lu", chunk, i + 1, g.line[i], lines[i]);
    }
}

static void test_auto_json_lines(void **state)
{
    (void)state;
    static const unsigned long l1[] = {1, 2, 3};
    expect_auto(J("a") J("b") J("c"), "jjj", l1);
    expect_auto(BOM J("a") J("b") J("c"), "jjj", l1);
    /* a malformed first line is one invalid record, not a YAML database */
    expect_auto("{\"setup\": {\"feen\": broken\n" J("b") J("c"), "Jjj", l1);
    expect_auto("{\"setup\":{\"feen\":\"" FEEN_S "\"}\n" J("b") J("c"), "Jjj", l1);
    /* a BOM at the start of a later line (files concatenated) */
    expect_auto(J("a") BOM J("b") J("c"), "jjj", l1);
    /* blank lines and comments between records */
    static const unsigned long l2[] = {2, 5};
    expect_auto("\n" J("a") "\n# c\n" J("b"), "jj", l2);
}

static void test_auto_yaml(void **state)
{
    (void)state;
    static const unsigned long l1[] = {1, 6};
    expect_auto(Y("a") Y("b"), "yy", l1);
    /* YAML documents, then JSON Lines: a '{' line ends a document with content */
    static const unsigned long l2[] = {1, 6, 11, 12};
    expect_auto(Y("a") Y("b") J("c") J("d"), "yyjj", l2);
    /* a JSON text after "---" is that document's content */
    static const unsigned long l3[] = {1, 3};
    expect_auto("---\n" J("a") "---\n" J("b"), "yy", l3);
    /* an implicit document (no "---") */
    static const unsigned long l4[] = {1, 3};
    expect_auto("setup:\n  feen: \"" FEEN_S "\"\n" J("b"), "yj", l4);
    /* JSON Lines, then a YAML document */
    static const unsigned long l5[] = {1, 2};
    expect_auto(J("a") Y("b"), "jy", l5);
}

static void test_auto_pretty_json(void **state)
{
    (void)state;
    const char *pretty = "{\n  \"setup\": {\n    \"feen\": \"" FEEN_S "\"\n  }\n}\n";
    char buf[1024];
    /* jq . of a database: concatenated pretty texts */
    snprintf(buf, sizeof buf, "%s%s" J("c"), pretty, pretty);
    static const unsigned long l1[] = {1, 6, 11};
    expect_auto(buf, "jjj", l1);
    /* a pretty text cut short ends before the next record line */
    snprintf(buf, sizeof buf, "{\n  \"setup\": {\n" J("b") "%s", pretty);
    static const unsigned long l2[] = {1, 3, 4};
    expect_auto(buf, "Jjj", l2);
    /* or at the end of the input */
    expect_auto("{\n  \"setup\": 1\n", "J", NULL);
}

/* A first line over the record limit is reported and skipped; the records after
 * it are read (as JSON Lines, and after an over-long YAML document too). */
static void test_auto_oversize(void **state)
{
    (void)state;
    size_t big = KOMA_LIMIT_RECORD + 100;
    const char *tail = J("b") J("c");
    char *s = malloc(big + 64 + strlen(tail));
    assert_non_null(s);
    size_t n = 0;
    memcpy(s + n, "{\"meta\":{\"name\":\"", 17);
    n += 17;
    memset(s + n, 'x', big);
    n += big;
    memcpy(s + n, "\"}}\n", 4);
    n += 4;
    strcpy(s + n, tail);
    got g;
    read_auto(s, strlen(s), 65536, &g);
    assert_string_equal(g.seen, "Jjj");
    assert_int_equal(g.code[0], KOMA_E_PCN_SIZE);
    assert_int_equal(g.line[1], 2);
    /* a pretty JSON text over the limit, then a record line */
    n = 0;
    memcpy(s + n, "{\n\"meta\":\"", 10);
    n += 10;
    memset(s + n, 'x', big);
    n += big;
    memcpy(s + n, "\"\n}\n", 4);
    n += 4;
    strcpy(s + n, tail);
    read_auto(s, strlen(s), 65536, &g);
    assert_string_equal(g.seen, "Jjj");
    assert_int_equal(g.code[0], KOMA_E_PCN_SIZE);
    assert_int_equal(g.line[1], 4);
    /* an over-long YAML document, then JSON Lines */
    n = 0;
    memcpy(s + n, "---\nmeta: ", 10);
    n += 10;
    memset(s + n, 'x', big);
    n += big;
    s[n++] = '\n';
    strcpy(s + n, tail);
    read_auto(s, strlen(s), 65536, &g);
    assert_string_equal(g.seen, "Yjj");
    assert_int_equal(g.code[0], KOMA_E_PCN_SIZE);
    assert_int_equal(g.line[1], 3);
    free(s);
}

/* An explicit format stays what it is: no per-record decision. */
static void test_explicit_format(void **state)
{
    (void)state;
    koma_error e;
    koma_error_clear(&e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_YAML, 0, NULL, NULL, &r, &e);
    assert_non_null(r);
    const char *s = J("a") J("b");
    assert_int_equal(koma_pcn_reader_feed(r, s, strlen(s), &e), 0);
    koma_pcn_reader_finish(r);
    koma_pcn *p = NULL;
    /* two flow mappings in one YAML document: one invalid record */
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_INVALID);
    assert_int_equal(koma_pcn_reader_format(r), KOMA_PCN_YAML);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_END);
    koma_pcn_reader_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bom_len),
        cmocka_unit_test(test_sniff_input),
        cmocka_unit_test(test_auto_json_lines),
        cmocka_unit_test(test_auto_yaml),
        cmocka_unit_test(test_auto_pretty_json),
        cmocka_unit_test(test_auto_oversize),
        cmocka_unit_test(test_explicit_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
