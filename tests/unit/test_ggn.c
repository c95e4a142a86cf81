/* tests/unit/test_ggn.c — lib/ggn.c: GGN loading and validation (the GGN
 * examples of https://sashite.dev/specs/ggn/1.0.0/ and
 * https://github.com/sashite/ggn.rb), positions of errors, writing, building,
 * equality and the move query (koma-formats(5), GGN). */
#include "unit.h"

#include <stdlib.h>

/* ---- helpers -------------------------------------------------------------------- */

static koma_ggn *load_ok(const char *text)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_ggn *g = NULL;
    koma_ggn_load(text, strlen(text), &g, &e);
    if (g == NULL) print_error("unexpected error on %s: %s %lu:%lu %s\n", text,
                               koma_code_name(e.code), e.line, e.column, e.message);
    assert_non_null(g);
    assert_int_equal(e.code, KOMA_OK);
    return g;
}

static char *dump(const koma_ggn *g, unsigned flags)
{
    koma_error e;
    size_t len = 0;
    char *s = NULL;
    koma_ggn_dump(g, flags, &len, &s, &e);
    assert_non_null(s);
    assert_int_equal(strlen(s), len);
    return s;
}

/* ---- valid documents: load, then the compact dump ---------------------------------- */

typedef struct valid_case {
    const char *text;
    const char *compact;       /* without the final "\n" */
    size_t pieces, possibilities;
} valid_case;

static const valid_case valid_cases[] = {
    /* the valid examples of GGN, in order */
    { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\",\"e4\":\"empty\"},\"deny\":{}}]}}}",
      "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\",\"e4\":\"empty\"},\"deny\":{}}]}}}", 1, 1 },
    { "{\"C:P\":{\"e4\":{\"d5\":[{\"must\":{\"d5\":\"enemy\"},\"deny\":{}}]}}}",
      "{\"C:P\":{\"e4\":{\"d5\":[{\"must\":{\"d5\":\"enemy\"},\"deny\":{}}]}}}", 1, 1 },
    { "{\"C:K\":{\"e1\":{\"g1\":[{\"must\":{\"f1\":\"empty\",\"g1\":\"empty\",\"h1\":\"C:+R\"},\"deny\":{}}]}}}",
      "{\"C:K\":{\"e1\":{\"g1\":[{\"must\":{\"f1\":\"empty\",\"g1\":\"empty\",\"h1\":\"C:+R\"},\"deny\":{}}]}}}", 1, 1 },
    { "{\"C:P\":{\"e5\":{\"f6\":[{\"must\":{\"f6\":\"empty\",\"f5\":\"c:-p\"},\"deny\":{}}]}}}",
      "{\"C:P\":{\"e5\":{\"f6\":[{\"must\":{\"f6\":\"empty\",\"f5\":\"c:-p\"},\"deny\":{}}]}}}", 1, 1 },
    { "{\"S:P\":{\"*\":{\"e4\":[{\"must\":{\"e4\":\"empty\"},\"deny\":{\"e1\":\"S:P\",\"e2\":\"S:P\",\"e3\":\"S:P\",\"e5\":\"S:P\",\"e6\":\"S:P\",\"e7\":\"S:P\",\"e8\":\"S:P\",\"e9\":\"S:P\"}}]}}}",
      "{\"S:P\":{\"*\":{\"e4\":[{\"must\":{\"e4\":\"empty\"},\"deny\":{\"e1\":\"S:P\",\"e2\":\"S:P\",\"e3\":\"S:P\",\"e5\":\"S:P\",\"e6\":\"S:P\",\"e7\":\"S:P\",\"e8\":\"S:P\",\"e9\":\"S:P\"}}]}}}", 1, 1 },
    { "{\"O:K^\":{\"e4\":{\"d3\":[{\"must\":{\"d3\":\"empty\"}},{\"must\":{\"d3\":\"enemy\"}}]}}}",
      "{\"O:K^\":{\"e4\":{\"d3\":[{\"must\":{\"d3\":\"empty\"},\"deny\":{}},{\"must\":{\"d3\":\"enemy\"},\"deny\":{}}]}}}", 1, 2 },
    { "{\"C:Q\":{\"d1\":{\"d4\":[{\"must\":{\"d2\":\"empty\",\"d3\":\"empty\",\"d4\":\"empty\"}},{\"must\":{\"d2\":\"empty\",\"d3\":\"empty\",\"d4\":\"enemy\"}}]}}}",
      "{\"C:Q\":{\"d1\":{\"d4\":[{\"must\":{\"d2\":\"empty\",\"d3\":\"empty\",\"d4\":\"empty\"},\"deny\":{}},{\"must\":{\"d2\":\"empty\",\"d3\":\"empty\",\"d4\":\"enemy\"},\"deny\":{}}]}}}", 1, 2 },
    { "{}", "{}", 0, 0 },
    { "{\"X:D^\":{\"e4\":{\"a4\":[{\"must\":{\"b4\":\"empty\",\"c4\":\"empty\",\"d4\":\"empty\",\"a4\":\"enemy\"}}]}}}",
      "{\"X:D^\":{\"e4\":{\"a4\":[{\"must\":{\"b4\":\"empty\",\"c4\":\"empty\",\"d4\":\"empty\",\"a4\":\"enemy\"},\"deny\":{}}]}}}", 1, 1 },
    { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{},\"deny\":{}}]}}}",
      "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{},\"deny\":{}}]}}}", 1, 1 },
    /* no "deny": refused by ggn.rb, valid for koma (and the specification) */
    { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\"}}]}}}",
      "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\"},\"deny\":{}}]}}}", 1, 1 },
    /* koma's own */
    { "{\"S:L\":{\"a1\":{\"a2\":[{\"deny\":{\"a2\":\"S:K^\"}},{}]}}}",
      "{\"S:L\":{\"a1\":{\"a2\":[{\"must\":{},\"deny\":{\"a2\":\"S:K^\"}},{\"must\":{},\"deny\":{}}]}}}", 1, 2 },
    { "{\"C:R\":{\"a1\":{\"a2\":[]},\"h1\":{}},\"c:r\":{}}",
      "{\"C:R\":{\"a1\":{\"a2\":[]},\"h1\":{}},\"c:r\":{}}", 2, 0 },
    { "{\"O:+P\":{\"e5\":{\"*\":[{\"must\":{\"e6\":\"o:k^\"},\"deny\":{}}]}}}",
      "{\"O:+P\":{\"e5\":{\"*\":[{\"must\":{\"e6\":\"o:k^\"},\"deny\":{}}]}}}", 1, 1 },
    { "{\"G:R\":{\"a1A\":{\"a1B\":[{\"must\":{\"a1B\":\"empty\"},\"deny\":{}}],\"iv256IV\":[{\"must\":{},\"deny\":{\"b2B\":\"enemy\"}}]}}}",
      "{\"G:R\":{\"a1A\":{\"a1B\":[{\"must\":{\"a1B\":\"empty\"},\"deny\":{}}],\"iv256IV\":[{\"must\":{},\"deny\":{\"b2B\":\"enemy\"}}]}}}", 1, 2 },
    { "{\"C:\\u0050\":{\"\\u0065\\u0032\":{\"e4\":[{\"\\u006dust\":{\"e3\":\"\\u0065mpty\"}}]}}}",
      "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\"},\"deny\":{}}]}}}", 1, 1 },
    { " \n\t{ \"c:-p^\" : { \"a\" : { \"b\" : [ { \"deny\" : { \"c\" : \"c:+k\" } , \"must\" : { } } ] } } }\r\n",
      "{\"c:-p^\":{\"a\":{\"b\":[{\"must\":{},\"deny\":{\"c\":\"c:+k\"}}]}}}", 1, 1 },
    { "{\"C:P\":{\"e2\":{\"e4\":[{},{},{}]}},\"C:+P\":{\"*\":{\"a1\":[{}]}}}",
      "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{},\"deny\":{}},{\"must\":{},\"deny\":{}},{\"must\":{},\"deny\":{}}]}},\"C:+P\":{\"*\":{\"a1\":[{\"must\":{},\"deny\":{}}]}}}", 2, 4 },
};

static void test_valid_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof valid_cases / sizeof valid_cases[0]; i++) {
        const valid_case *c = &valid_cases[i];
        koma_ggn *g = load_ok(c->text);
        char *s = dump(g, KOMA_GGN_COMPACT);
        size_t n = strlen(c->compact);
        if (strncmp(s, c->compact, n) != 0) print_error("case %zu: %s\n", i, s);
        assert_int_equal(strlen(s), n + 1);
        assert_memory_equal(s, c->compact, n);
        assert_int_equal(s[n], '\n');
        assert_int_equal(koma_ggn_piece_count(g), c->pieces);
        assert_int_equal(koma_ggn_possibility_count(g), c->possibilities);
        /* reload: equal, and the same text again */
        koma_ggn *h = load_ok(s);
        assert_true(koma_ggn_equal(g, h));
        char *t = dump(h, KOMA_GGN_COMPACT);
        assert_string_equal(s, t);
        /* the pretty form describes the same document */
        char *p = dump(g, KOMA_GGN_PRETTY);
        koma_ggn *k = load_ok(p);
        assert_true(koma_ggn_equal(g, k));
        free(s);
        free(t);
        free(p);
        koma_ggn_free(g);
        koma_ggn_free(h);
        koma_ggn_free(k);
    }
}

/* ---- invalid documents: their codes, lines, columns and messages are
 * tests/spec/ggn.tsv (test_spec.c); here the offsets and the limits -------------- */

static void check_invalid(const char *text, size_t len, koma_code code, unsigned long line,
                          unsigned long column, const char *message)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_ggn *g = NULL;
    koma_ggn_load(text, len, &g, &e);
    if (g != NULL || e.code != code || e.line != line || e.column != column ||
        (message && strcmp(e.message, message) != 0))
        print_error("%s: got %s %lu:%lu \"%s\"\n", text, koma_code_name(e.code), e.line, e.column,
                    e.message);
    assert_null(g);
    assert_int_equal(e.code, code);
    assert_int_equal(e.line, line);
    assert_int_equal(e.column, column);
    if (message) assert_string_equal(e.message, message);
    assert_true(e.offset <= len);
}

static void test_offsets(void **state)
{
    (void)state;
    koma_error e;
    static const char t[] = "{\n  \"C:P\": {\"e2\": {\"e4\": [{\"must\": {\"e3\": \"ally\"}}]}}\n}";
    assert_int_equal(koma_ggn_load(t, sizeof t - 1, &(koma_ggn *){NULL}, &e), -1);
    assert_int_equal(e.offset, 42);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 41);
    /* Not NUL-terminated: only len bytes are read. */
    static const char u[] = "{}xxxx";
    koma_ggn *g = NULL;
    koma_ggn_load(u, 2, &g, &e);
    assert_non_null(g);
    koma_ggn_free(g);
    assert_int_equal(koma_ggn_load(u, 3, &(koma_ggn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_JSON);
    assert_int_equal(e.column, 3);
    /* NULL text with length 0 is the empty text. */
    assert_int_equal(koma_ggn_load(NULL, 0, &(koma_ggn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_JSON);
    /* A NULL err is fine. */
    assert_int_equal(koma_ggn_load("[]", 2, &(koma_ggn *){NULL}, NULL), -1);
}

static void test_long_key(void **state)
{
    (void)state;
    /* A 300-byte bad key: the pointer in the message is cut, the column exact. */
    char text[400];
    memcpy(text, "{\"C:P\":{\"", 9);
    memset(text + 9, 'x', 300);
    memcpy(text + 309, "\":{}}}", 7);
    koma_error e;
    assert_int_equal(koma_ggn_load(text, strlen(text), &(koma_ggn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_LOCATION);
    assert_int_equal(e.column, 9);
    char expected[256];
    int n = snprintf(expected, sizeof expected, "invalid source location at /C:P/");
    memset(expected + n, 'x', 151);
    snprintf(expected + n + 151, sizeof expected - (size_t)n - 151,
             "...: coordinate exceeds 7 bytes");
    assert_string_equal(e.message, expected);
}

/* ---- limits --------------------------------------------------------------------------- */

static char *deep_doc(size_t inner)
{
    /* {"C:P":{"e2":{"e4":[ + inner '[' + inner ']' + ]}}} : depth 4 + inner */
    size_t len = 20 + 2 * inner + 4;
    char *s = malloc(len + 1);
    assert_non_null(s);
    memcpy(s, "{\"C:P\":{\"e2\":{\"e4\":[", 20);
    memset(s + 20, '[', inner);
    memset(s + 20 + inner, ']', inner);
    memcpy(s + 20 + 2 * inner, "]}}}", 5);
    return s;
}

static void test_depth(void **state)
{
    (void)state;
    char *d64 = deep_doc(60), *d65 = deep_doc(61);
    /* 64 levels: within the limit, but an array is not a possibility. */
    check_invalid(d64, strlen(d64), KOMA_E_GGN_POSSIBILITY, 1, 21,
                  "possibility is not an object at /C:P/e2/e4/0, got an array");
    check_invalid(d65, strlen(d65), KOMA_E_GGN_DEPTH, 1, 81, "JSON nesting exceeds 64 levels");
    free(d64);
    free(d65);
    /* Brackets in strings do not count. */
    static const char s[] = "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"}}]}}}";
    check_invalid(s, sizeof s - 1, KOMA_E_GGN_LCN_VALUE, 1, 35, NULL);
}

static void test_size(void **state)
{
    (void)state;
    size_t max = (size_t)16 * 1024 * 1024;
    char *big = malloc(max + 1);
    assert_non_null(big);
    memset(big, ' ', max + 1);
    big[0] = '{';
    big[1] = '}';
    koma_error e;
    koma_ggn *g = NULL;
    koma_ggn_load(big, max, &g, &e);      /* exactly 16 MiB: fine */
    assert_non_null(g);
    assert_int_equal(koma_ggn_piece_count(g), 0);
    koma_ggn_free(g);
    assert_int_equal(koma_ggn_load(big, max + 1, &(koma_ggn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_SIZE);
    assert_int_equal(e.offset, max);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, max + 1);
    assert_string_equal(e.message, "GGN document exceeds 16 MiB (16777217 bytes)");
    free(big);
}

static void test_large_document(void **state)
{
    (void)state;
    /* 26 files x 40 ranks of sources, 48 destinations each: 49,920 possibilities. */
    size_t cap = 8u << 20, n = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    n += (size_t)sprintf(t + n, "{\"C:R\":{");
    for (int f = 0; f < 26; f++)
        for (int r = 1; r <= 40; r++) {
            n += (size_t)sprintf(t + n, "%s\"%c%d\":{", (f || r > 1) ? "," : "", 'a' + f, r);
            int k = 0;
            for (int df = 0; df < 26 && k < 48; df++)
                for (int dr = 1; dr <= 2 && k < 48; dr++, k++)
                    n += (size_t)sprintf(t + n,
                                         "%s\"%c%d\":[{\"must\":{\"%c%d\":\"empty\"},"
                                         "\"deny\":{\"a1\":\"c:k^\"}}]",
                                         k ? "," : "", 'a' + df, dr + 40, 'a' + df, dr + 40);
            n += (size_t)sprintf(t + n, "}");
        }
    n += (size_t)sprintf(t + n, "}}\n");
    assert_true(n < cap);
    koma_ggn *g = load_ok(t);
    assert_int_equal(koma_ggn_piece_count(g), 1);
    assert_int_equal(koma_ggn_possibility_count(g), 26 * 40 * 48);
    char *s = dump(g, KOMA_GGN_COMPACT);
    assert_string_equal(s, t);
    koma_ggn *h = load_ok(s);
    assert_true(koma_ggn_equal(g, h));
    free(s);
    free(t);
    koma_ggn_free(g);
    koma_ggn_free(h);
}

/* ---- writing --------------------------------------------------------------------------- */

static void test_pretty(void **state)
{
    (void)state;
    koma_ggn *g = load_ok("{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\",\"e4\":\"empty\"}}],"
                          "\"e3\":[]}},\"c:p\":{},\"S:+R\":{\"*\":{\"a1\":[{}]}}}");
    char *s = dump(g, KOMA_GGN_PRETTY);
    assert_string_equal(s,
        "{\n"
        "  \"C:P\": {\n"
        "    \"e2\": {\n"
        "      \"e4\": [\n"
        "        {\n"
        "          \"must\": {\n"
        "            \"e3\": \"empty\",\n"
        "            \"e4\": \"empty\"\n"
        "          },\n"
        "          \"deny\": {}\n"
        "        }\n"
        "      ],\n"
        "      \"e3\": []\n"
        "    }\n"
        "  },\n"
        "  \"c:p\": {},\n"
        "  \"S:+R\": {\n"
        "    \"*\": {\n"
        "      \"a1\": [\n"
        "        {\n"
        "          \"must\": {},\n"
        "          \"deny\": {}\n"
        "        }\n"
        "      ]\n"
        "    }\n"
        "  }\n"
        "}\n");
    free(s);
    koma_ggn *e = load_ok("{}");
    s = dump(e, KOMA_GGN_PRETTY);
    assert_string_equal(s, "{}\n");
    free(s);
    koma_ggn_free(e);
    koma_ggn_free(g);
}

typedef struct sink_state {
    size_t calls, bytes, fail_after;
} sink_state;

static int counting_sink(void *ctx, const char *s, size_t len)
{
    sink_state *st = ctx;
    (void)s;
    st->calls++;
    st->bytes += len;
    return st->calls > st->fail_after ? -1 : 0;
}

static void test_write_sink(void **state)
{
    (void)state;
    /* A document bigger than the writer's buffer is written in several pieces. */
    koma_ggn *g = NULL;
    koma_ggn_new(&g, NULL);
    assert_non_null(g);
    koma_qpi q = { 'C', koma_piece_from_letter('R') };
    for (int f = 0; f < 8; f++)
        for (int r = 0; r < 8; r++) {
            koma_location a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            a.cell.ndims = b.cell.ndims = 2;
            a.cell.idx[0] = (uint8_t)f;
            a.cell.idx[1] = (uint8_t)r;
            b.cell.idx[0] = (uint8_t)((f + 1) % 8);
            b.cell.idx[1] = (uint8_t)r;
            koma_lcn c = { b.cell, KOMA_LCN_EMPTY, { 0, 0 } };
            assert_int_equal(koma_ggn_add(g, &q, &a, &b, &c, 1, NULL, 0, NULL), 0);
        }
    size_t len;
    char *s = NULL;
    koma_ggn_dump(g, KOMA_GGN_COMPACT, &len, &s, NULL);
    assert_non_null(s);
    sink_state st = { 0, 0, (size_t)-1 };
    koma_error e;
    assert_int_equal(koma_ggn_write(g, KOMA_GGN_COMPACT, counting_sink, &st, &e), 0);
    assert_int_equal(st.bytes, len);
    assert_int_equal(len, 3082);
    assert_int_equal(st.calls, 1);
    sink_state st2 = { 0, 0, (size_t)-1 };
    assert_int_equal(koma_ggn_write(g, KOMA_GGN_PRETTY, counting_sink, &st2, &e), 0);
    assert_true(st2.calls >= 2);
    sink_state st3 = { 0, 0, 0 };
    assert_int_equal(koma_ggn_write(g, KOMA_GGN_PRETTY, counting_sink, &st3, &e), -1);
    assert_int_equal(e.code, KOMA_E_IO_WRITE);
    assert_int_equal(koma_ggn_write(NULL, 0, counting_sink, &st3, &e), -1);
    assert_int_equal(e.code, KOMA_E_INTERNAL);
    free(s);
    koma_ggn_free(g);
}

/* ---- building, reading, equality --------------------------------------------------------- */

static koma_location loc(const char *s)
{
    koma_location l;
    koma_error e;
    assert_int_equal(koma_location_parse(s, strlen(s), &l, &e), 0);
    return l;
}

static int cell_is(const koma_cell *c, const char *text)
{
    koma_location l = loc(text);
    return koma_cell_equal(c, &l.cell);
}

static koma_qpi qpi(const char *s)
{
    koma_qpi q;
    koma_error e;
    assert_int_equal(koma_qpi_parse(s, strlen(s), &q, &e), 0);
    return q;
}

static koma_lcn lcn(const char *cell, koma_lcn_kind kind, const char *piece)
{
    koma_lcn c;
    memset(&c, 0, sizeof c);
    c.cell = loc(cell).cell;
    c.kind = kind;
    if (piece) c.piece = qpi(piece);
    return c;
}

static void test_builder(void **state)
{
    (void)state;
    koma_error e;
    koma_ggn *g = NULL;
    koma_ggn_new(&g, &e);
    assert_non_null(g);
    koma_qpi k = qpi("O:K^"), p = qpi("S:P");
    koma_location e4 = loc("e4"), d3 = loc("d3"), d4 = loc("d4"), star = loc("*");
    koma_lcn m1 = lcn("d3", KOMA_LCN_EMPTY, NULL), m2 = lcn("d3", KOMA_LCN_ENEMY, NULL);
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d3, &m1, 1, NULL, 0, &e), 0);
    assert_int_equal(e.code, KOMA_OK);
    koma_lcn deny[2] = { lcn("d1", KOMA_LCN_PIECE, "S:P"), lcn("d2", KOMA_LCN_PIECE, "S:P") };
    assert_int_equal(koma_ggn_add(g, &p, &star, &d4, &m1, 0, deny, 2, &e), 0);
    /* merged into the existing entries, in order */
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d3, &m2, 1, NULL, 0, &e), 0);
    koma_lcn m3 = lcn("d4", KOMA_LCN_EMPTY, NULL);
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d4, &m3, 1, NULL, 0, &e), 0);
    assert_int_equal(koma_ggn_piece_count(g), 2);
    assert_int_equal(koma_ggn_possibility_count(g), 4);
    char *s = dump(g, KOMA_GGN_COMPACT);
    assert_string_equal(s,
        "{\"O:K^\":{\"e4\":{\"d3\":[{\"must\":{\"d3\":\"empty\"},\"deny\":{}},"
        "{\"must\":{\"d3\":\"enemy\"},\"deny\":{}}],\"d4\":[{\"must\":{\"d4\":\"empty\"},\"deny\":{}}]}},"
        "\"S:P\":{\"*\":{\"d4\":[{\"must\":{},\"deny\":{\"d1\":\"S:P\",\"d2\":\"S:P\"}}]}}}\n");
    koma_ggn *h = load_ok(s);
    assert_true(koma_ggn_equal(g, h));
    free(s);

    /* errors leave the document unchanged */
    koma_qpi bad = { 'C', (koma_piece)(koma_piece_from_letter('k')) };
    assert_int_equal(koma_ggn_add(g, &bad, &e4, &d3, NULL, 0, NULL, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_PIECE);
    koma_qpi derived = { 'C', (koma_piece)(koma_piece_from_letter('K') | KOMA_PIECE_DERIVED) };
    assert_int_equal(koma_ggn_add(g, &derived, &e4, &d3, NULL, 0, NULL, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_PIECE);
    assert_int_equal(koma_ggn_add(g, &p, &star, &star, NULL, 0, NULL, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_HAND_TO_HAND);
    koma_location none;
    memset(&none, 0, sizeof none);
    assert_int_equal(koma_ggn_add(g, &p, &none, &d3, NULL, 0, NULL, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_LOCATION);
    koma_lcn twice[2] = { m1, m2 };
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d3, twice, 2, NULL, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_DUPLICATE);
    assert_string_equal(e.message, "cell \"d3\" twice in must");
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d3, NULL, 0, twice, 2, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_DUPLICATE);
    assert_string_equal(e.message, "cell \"d3\" twice in deny");
    koma_lcn badkind = m1;
    badkind.kind = (koma_lcn_kind)7;
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d3, &badkind, 1, NULL, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_LCN_VALUE);
    koma_lcn badqpi = lcn("a1", KOMA_LCN_PIECE, "C:K");
    badqpi.piece.style = 'c';
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d3, NULL, 0, &badqpi, 1, &e), -1);
    assert_int_equal(e.code, KOMA_E_GGN_LCN_VALUE);
    /* the same cell in must and deny is fine */
    assert_int_equal(koma_ggn_add(g, &k, &e4, &d3, &m1, 1, &m1, 1, &e), 0);
    assert_false(koma_ggn_equal(g, h));
    assert_int_equal(koma_ggn_possibility_count(g), 5);
    koma_ggn_free(g);
    koma_ggn_free(h);
    koma_ggn_free(NULL);
}

static void test_equal(void **state)
{
    (void)state;
    static const char *const same[][2] = {
        /* key order of objects does not matter */
        { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\",\"e4\":\"empty\"}}]}},\"C:K\":{}}",
          "{\"C:K\":{},\"C:P\":{\"e2\":{\"e4\":[{\"deny\":{},\"must\":{\"e4\":\"empty\",\"e3\":\"empty\"}}]}}}" },
        { "{\"C:P\":{\"e2\":{\"e4\":[],\"e3\":[]},\"*\":{}}}",
          "{\"C:P\":{\"*\":{},\"e2\":{\"e3\":[],\"e4\":[]}}}" },
        { "{\"C:P\":{\"e2\":{\"e4\":[{}]}}}", "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{},\"deny\":{}}]}}}" },
    };
    static const char *const differ[][2] = {
        /* possibilities are ordered */
        { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\"}},{}]}}}",
          "{\"C:P\":{\"e2\":{\"e4\":[{},{\"must\":{\"e3\":\"empty\"}}]}}}" },
        { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\"}}]}}}",
          "{\"C:P\":{\"e2\":{\"e4\":[{\"deny\":{\"e3\":\"empty\"}}]}}}" },
        { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"C:P\"}}]}}}",
          "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"C:+P\"}}]}}}" },
        { "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\"}}]}}}",
          "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"enemy\"}}]}}}" },
        { "{\"C:P\":{\"e2\":{\"e4\":[]}}}", "{\"C:P\":{\"e2\":{\"e5\":[]}}}" },
        { "{\"C:P\":{\"e2\":{}}}", "{\"C:P\":{\"*\":{}}}" },
        { "{\"C:P\":{}}", "{\"c:p\":{}}" },
        { "{\"C:P\":{}}", "{\"C:P\":{},\"C:R\":{}}" },
        { "{\"C:P\":{\"e2\":{\"e4\":[{}]}}}", "{\"C:P\":{\"e2\":{\"e4\":[{},{}]}}}" },
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        koma_ggn *a = load_ok(same[i][0]), *b = load_ok(same[i][1]);
        assert_true(koma_ggn_equal(a, b));
        assert_true(koma_ggn_equal(b, a));
        koma_ggn_free(a);
        koma_ggn_free(b);
    }
    for (size_t i = 0; i < sizeof differ / sizeof differ[0]; i++) {
        koma_ggn *a = load_ok(differ[i][0]), *b = load_ok(differ[i][1]);
        if (koma_ggn_equal(a, b)) print_error("differ case %zu\n", i);
        assert_false(koma_ggn_equal(a, b));
        assert_false(koma_ggn_equal(b, a));
        koma_ggn_free(a);
        koma_ggn_free(b);
    }
    assert_true(koma_ggn_equal(NULL, NULL));
    koma_ggn *e = load_ok("{}");
    assert_false(koma_ggn_equal(e, NULL));
    koma_ggn_free(e);
}

typedef struct walk_state {
    char log[1024];
    size_t n;
    int stop_at;
} walk_state;

static int walker(void *ctx, const koma_ggn_entry *en)
{
    walk_state *w = ctx;
    char q[KOMA_QPI_BUF], a[KOMA_CELL_BUF] = "*", b[KOMA_CELL_BUF] = "*";
    koma_qpi_write(&en->piece, q);
    if (!en->source.hand) koma_cell_write(&en->source.cell, a);
    if (!en->destination.hand) koma_cell_write(&en->destination.cell, b);
    w->n += (size_t)snprintf(w->log + w->n, sizeof w->log - w->n, "%s %s %s %zu/%zu m%zu d%zu;", q,
                             a, b, en->index, en->count, en->nmust, en->ndeny);
    if (en->nmust > 0 && en->must[0].kind == KOMA_LCN_PIECE) {
        koma_qpi_write(&en->must[0].piece, q);
        w->n += (size_t)snprintf(w->log + w->n, sizeof w->log - w->n, "[%s]", q);
    }
    return --w->stop_at == 0 ? 42 : 0;
}

static void test_foreach(void **state)
{
    (void)state;
    koma_ggn *g = load_ok("{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"C:+R\",\"e4\":\"empty\"}},{\"deny\":{\"a1\":\"enemy\"}}],"
                          "\"e3\":[]},\"*\":{\"a1\":[{}]}},\"c:p\":{}}");
    walk_state w;
    memset(&w, 0, sizeof w);
    w.stop_at = -1;
    assert_int_equal(koma_ggn_foreach(g, walker, &w), 0);
    assert_string_equal(w.log, "C:P e2 e4 0/2 m2 d0;[C:+R]C:P e2 e4 1/2 m0 d1;C:P e2 e3 0/0 m0 d0;"
                               "C:P * a1 0/1 m0 d0;");
    memset(&w, 0, sizeof w);
    w.stop_at = 2;
    assert_int_equal(koma_ggn_foreach(g, walker, &w), 42);
    assert_string_equal(w.log, "C:P e2 e4 0/2 m2 d0;[C:+R]C:P e2 e4 1/2 m0 d1;");
    assert_int_equal(koma_ggn_foreach(NULL, walker, &w), 0);
    koma_ggn_free(g);
}

static void test_qpi_of(void **state)
{
    (void)state;
    static const struct { const char *epin, *styles, *qpi; } cases[] = {
        { "P", "Cc", "C:P" },  { "p", "Cc", "c:p" },     { "P'", "Cs", "S:P" },
        { "p'", "Cs", "c:p" }, { "+K^'", "Os", "S:+K^" }, { "-r^", "Xm", "m:-r^" },
        { "k^'", "Oo", "o:k^" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_piece p;
        koma_error e;
        assert_int_equal(koma_epin_parse(cases[i].epin, strlen(cases[i].epin), &p, &e), 0);
        koma_qpi q;
        koma_ggn_qpi_of(p, cases[i].styles, &q);
        char buf[KOMA_QPI_BUF];
        koma_qpi_write(&q, buf);
        assert_string_equal(buf, cases[i].qpi);
    }
}

/* ---- the move query ------------------------------------------------------------------------ */

typedef struct movelist {
    char items[512][KOMA_PMN_BUF];
    koma_move moves[512];
    size_t n;
    size_t stop_after;
} movelist;

static int collect(void *ctx, const char *pmn, size_t len, const koma_move *m)
{
    movelist *l = ctx;
    assert_true(len < KOMA_PMN_BUF);
    assert_int_equal(strlen(pmn), len);
    memcpy(l->items[l->n], pmn, len + 1);
    l->moves[l->n] = *m;
    l->n++;
    return l->stop_after && l->n >= l->stop_after;
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* Moves of ggn in feen, sorted and joined by spaces. */
static void expect_moves_doc(const koma_ggn *g, const char *feen, const char *expected)
{
    koma_position pos;
    koma_position_init(&pos);
    koma_error e;
    memset(&e, 0, sizeof e);
    int rc = koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &pos, &e);
    if (rc != 0) print_error("bad FEEN %s: %s\n", feen, e.message);
    assert_int_equal(rc, 0);
    static movelist l;
    memset(&l, 0, sizeof l);
    assert_int_equal(koma_ggn_moves(g, &pos, collect, &l, &e), 0);
    qsort(l.items, l.n, sizeof l.items[0], cmp_str);
    char got[4096];
    size_t n = 0;
    got[0] = '\0';
    for (size_t i = 0; i < l.n; i++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", i ? " " : "", l.items[i]);
    if (strcmp(got, expected) != 0) print_error("%s: got \"%s\"\n", feen, got);
    assert_string_equal(got, expected);
    /* each move once */
    for (size_t i = 1; i < l.n; i++) assert_true(strcmp(l.items[i - 1], l.items[i]) != 0);
    koma_position_cleanup(&pos);
}

static void expect_ggn_moves(const char *ggn, const char *feen, const char *expected)
{
    koma_ggn *g = load_ok(ggn);
    expect_moves_doc(g, feen, expected);
    koma_ggn_free(g);
}

/* The king's step (quiet or capture) from every square of an 8x8 board, both sides. */
static koma_ggn *king_doc(void)
{
    koma_ggn *g = NULL;
    koma_ggn_new(&g, NULL);
    assert_non_null(g);
    const char *names[2] = { "O:K^", "o:k^" };
    for (int side = 0; side < 2; side++) {
        koma_qpi q = qpi(names[side]);
        for (int f = 0; f < 8; f++)
            for (int r = 0; r < 8; r++)
                for (int df = -1; df <= 1; df++)
                    for (int dr = -1; dr <= 1; dr++) {
                        if ((!df && !dr) || f + df < 0 || f + df > 7 || r + dr < 0 || r + dr > 7)
                            continue;
                        koma_location a, b;
                        memset(&a, 0, sizeof a);
                        memset(&b, 0, sizeof b);
                        a.cell.ndims = b.cell.ndims = 2;
                        a.cell.idx[0] = (uint8_t)f;
                        a.cell.idx[1] = (uint8_t)r;
                        b.cell.idx[0] = (uint8_t)(f + df);
                        b.cell.idx[1] = (uint8_t)(r + dr);
                        koma_lcn c = { b.cell, KOMA_LCN_EMPTY, { 0, 0 } };
                        assert_int_equal(koma_ggn_add(g, &q, &a, &b, &c, 1, NULL, 0, NULL), 0);
                        c.kind = KOMA_LCN_ENEMY;
                        assert_int_equal(koma_ggn_add(g, &q, &a, &b, &c, 1, NULL, 0, NULL), 0);
                    }
    }
    return g;
}

static void test_moves_king(void **state)
{
    (void)state;
    koma_ggn *g = king_doc();
    assert_int_equal(koma_ggn_possibility_count(g), 2 * 2 * 420);
    expect_moves_doc(g, "8/8/8/3P4/3pK^3/5p2/8/8 / O/o",
                     "e4+d4 e4+f3 e4-d3 e4-e3 e4-e5 e4-f4 e4-f5");
    expect_moves_doc(g, "7K^/8/8/8/8/8/8/8 / O/o", "h8-g7 h8-g8 h8-h7");
    expect_moves_doc(g, "8/8/8/8/8/8/1P6/k^7 / o/O", "a1+b2 a1-a2 a1-b1");
    /* the first player's king does not move when the second is to move */
    expect_moves_doc(g, "8/8/8/8/4K^3/8/8/8 / o/O", "");
    /* the Ōgi start */
    expect_moves_doc(g, "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
                     "e1-d2 e1-e2 e1-f2");
    expect_moves_doc(g, "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / o/O",
                     "e8-d7 e8-e7 e8-f7");
    /* a king of another style is another QPI */
    expect_moves_doc(g, "8/8/8/8/4K^3/8/8/8 / S/o", "");
    /* K^' in an O/o game is O:K^ too */
    expect_moves_doc(g, "8/8/8/8/8/8/8/K^'7 / O/o", "a1-a2 a1-b1 a1-b2");
    koma_ggn_free(g);
}

static void test_moves_section_11(void **state)
{
    (void)state;
    /* the first valid example: a double step */
    static const char dbl[] =
        "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{\"e3\":\"empty\",\"e4\":\"empty\"},\"deny\":{}}]}}}";
    expect_ggn_moves(dbl, "8/8/8/8/8/8/4P3/8 / C/c", "e2-e4");
    expect_ggn_moves(dbl, "8/8/8/8/8/4p3/4P3/8 / C/c", "");
    expect_ggn_moves(dbl, "8/8/8/8/4p3/8/4P3/8 / C/c", "");
    expect_ggn_moves(dbl, "8/8/8/8/8/8/4+P3/8 / C/c", "");   /* C:+P is another identity */
    /* #2 pawn capture */
    static const char cap[] = "{\"C:P\":{\"e4\":{\"d5\":[{\"must\":{\"d5\":\"enemy\"},\"deny\":{}}]}}}";
    expect_ggn_moves(cap, "8/8/8/3p4/4P3/8/8/8 / C/c", "e4+d5");
    expect_ggn_moves(cap, "8/8/8/3P4/4P3/8/8/8 / C/c", "");
    expect_ggn_moves(cap, "8/8/8/8/4P3/8/8/8 / C/c", "");
    /* #3 castling (QPI condition) */
    static const char cas[] =
        "{\"C:K\":{\"e1\":{\"g1\":[{\"must\":{\"f1\":\"empty\",\"g1\":\"empty\",\"h1\":\"C:+R\"},\"deny\":{}}]}}}";
    expect_ggn_moves(cas, "8/8/8/8/8/8/8/4K2+R / C/c", "e1-g1");
    expect_ggn_moves(cas, "8/8/8/8/8/8/8/4K2R / C/c", "");
    expect_ggn_moves(cas, "8/8/8/8/8/8/8/4K2+r / C/c", "");
    expect_ggn_moves(cas, "8/8/8/8/8/8/8/4KB1+R / C/c", "");
    /* #4 en passant */
    static const char ep[] =
        "{\"C:P\":{\"e5\":{\"f6\":[{\"must\":{\"f6\":\"empty\",\"f5\":\"c:-p\"},\"deny\":{}}]}}}";
    expect_ggn_moves(ep, "8/8/8/4P-p2/8/8/8/8 / C/c", "e5-f6");
    expect_ggn_moves(ep, "8/8/8/4Pp2/8/8/8/8 / C/c", "");
    /* #5 shogi pawn drop with nifu */
    static const char nifu[] =
        "{\"S:P\":{\"*\":{\"e4\":[{\"must\":{\"e4\":\"empty\"},\"deny\":{\"e1\":\"S:P\",\"e2\":\"S:P\","
        "\"e3\":\"S:P\",\"e5\":\"S:P\",\"e6\":\"S:P\",\"e7\":\"S:P\",\"e8\":\"S:P\",\"e9\":\"S:P\"}}]}}}";
    expect_ggn_moves(nifu, "9/9/9/9/9/9/9/9/9 P/ S/s", "P*e4");
    expect_ggn_moves(nifu, "9/9/9/9/9/9/4P4/9/9 P/ S/s", "");
    expect_ggn_moves(nifu, "9/9/9/9/9/9/4+P4/9/9 P/ S/s", "P*e4");  /* a promoted pawn is not S:P */
    expect_ggn_moves(nifu, "9/9/9/9/9/9/4p4/9/9 P/ S/s", "P*e4");
    expect_ggn_moves(nifu, "9/9/9/9/9/9/9/9/9 p/ S/s", "");        /* inert: wrong case */
    expect_ggn_moves(nifu, "9/9/9/9/9/9/9/9/9 /p s/S", "");        /* s:p has no entry */
    /* #7 slider ray */
    static const char ray[] =
        "{\"C:Q\":{\"d1\":{\"d4\":[{\"must\":{\"d2\":\"empty\",\"d3\":\"empty\",\"d4\":\"empty\"}},"
        "{\"must\":{\"d2\":\"empty\",\"d3\":\"empty\",\"d4\":\"enemy\"}}]}}}";
    expect_ggn_moves(ray, "8/8/8/8/8/8/8/3Q4 / C/c", "d1-d4");
    expect_ggn_moves(ray, "8/8/8/8/3r4/8/8/3Q4 / C/c", "d1+d4");
    expect_ggn_moves(ray, "8/8/8/8/3R4/8/8/3Q4 / C/c", "");
    expect_ggn_moves(ray, "8/8/8/8/3r4/8/3p4/3Q4 / C/c", "");
    /* #8 and #10 */
    expect_ggn_moves("{}", "8/8/8/8/8/8/8/3Q4 / C/c", "");
    static const char unc[] = "{\"C:P\":{\"e2\":{\"e4\":[{\"must\":{},\"deny\":{}}]}}}";
    expect_ggn_moves(unc, "8/8/8/8/4p3/4p3/4P3/8 / C/c", "e2+e4");
    expect_ggn_moves(unc, "8/8/8/8/4P3/8/4P3/8 / C/c", "e2+e4");   /* GGN allows it: a capture */
    /* #9 capture at range, second player */
    static const char rng[] =
        "{\"x:d^\":{\"e4\":{\"a4\":[{\"must\":{\"b4\":\"empty\",\"c4\":\"empty\",\"d4\":\"empty\",\"a4\":\"enemy\"}}]}}}";
    expect_ggn_moves(rng, "9/9/9/9/9/R3d^4/9/9/9 / x/X", "e4+a4");
    expect_ggn_moves(rng, "9/9/9/9/9/r3d^4/9/9/9 / x/X", "");
}

static void test_moves_forms(void **state)
{
    (void)state;
    /* board -> hand, drop, drop with capture */
    static const char doc[] =
        "{\"O:+P\":{\"e5\":{\"*\":[{\"must\":{\"e6\":\"o:k^\"}}]}},"
        "\"O:R\":{\"*\":{\"a1\":[{}],\"a2\":[{\"must\":{\"a2\":\"empty\"}}],\"a3\":[{\"must\":{\"a3\":\"enemy\"}}]}}}";
    expect_ggn_moves(doc, "8/8/4k^3/4+P3/8/8/8/p7 R/ O/o", "+e5 R*a2 R.a1");
    expect_ggn_moves(doc, "8/8/4k^'3/4+P3/8/8/8/8 2R/ O/o", "+e5 R*a1 R*a2");
    expect_ggn_moves(doc, "8/8/4k3/4+P3/8/8/8/8 / O/o", "");
    /* the same board with its move records */
    koma_ggn *g = load_ok(doc);
    koma_position pos;
    koma_position_init(&pos);
    koma_error e;
    static const char feen[] = "8/8/4k^3/4+P3/8/8/8/p7 R/ O/o";
    assert_int_equal(koma_feen_parse(feen, sizeof feen - 1, 0, &pos, &e), 0);
    static movelist l;
    memset(&l, 0, sizeof l);
    assert_int_equal(koma_ggn_moves(g, &pos, collect, &l, &e), 0);
    assert_int_equal(l.n, 3);
    /* document order: board squares first (FEEN order), then the hand */
    assert_string_equal(l.items[0], "+e5");
    assert_int_equal(l.moves[0].kind, KOMA_MOVE_STATIC);
    assert_true(cell_is(&l.moves[0].dst, "e5"));
    assert_int_equal(l.moves[0].src.ndims, 0);
    assert_string_equal(l.items[1], "R.a1");
    assert_int_equal(l.moves[1].kind, KOMA_MOVE_DROPCAP);
    assert_int_equal(l.moves[1].piece, koma_piece_from_letter('R'));
    assert_true(cell_is(&l.moves[1].dst, "a1"));
    assert_string_equal(l.items[2], "R*a2");
    assert_int_equal(l.moves[2].kind, KOMA_MOVE_DROP);
    assert_int_equal(l.moves[2].actor, KOMA_PIECE_NONE);
    assert_int_equal(l.moves[2].captured, KOMA_PIECE_NONE);
    /* emit can stop the walk */
    memset(&l, 0, sizeof l);
    l.stop_after = 2;
    assert_int_equal(koma_ggn_moves(g, &pos, collect, &l, &e), 1);
    assert_int_equal(l.n, 2);
    assert_int_equal(koma_ggn_moves(NULL, &pos, collect, &l, &e), -1);
    assert_int_equal(e.code, KOMA_E_INTERNAL);
    koma_position_cleanup(&pos);
    koma_ggn_free(g);

    /* moves and their records: quiet and capture */
    static const char rook[] = "{\"C:R\":{\"a1\":{\"a2\":[{}],\"b1\":[{}]}}}";
    g = load_ok(rook);
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(LIT("3/p2/R2 / C/c"), 0, &pos, &e), 0);
    memset(&l, 0, sizeof l);
    assert_int_equal(koma_ggn_moves(g, &pos, collect, &l, &e), 0);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.items[0], "a1+a2");
    assert_int_equal(l.moves[0].kind, KOMA_MOVE_CAPTURE);
    assert_true(cell_is(&l.moves[0].src, "a1"));
    assert_true(cell_is(&l.moves[0].dst, "a2"));
    assert_string_equal(l.items[1], "a1-b1");
    assert_int_equal(l.moves[1].kind, KOMA_MOVE_QUIET);
    koma_position_cleanup(&pos);
    koma_ggn_free(g);
}

static void test_moves_styles(void **state)
{
    (void)state;
    /* a derived piece looks up the other side's style */
    static const char doc[] = "{\"C:P\":{\"b2\":{\"a3\":[{}]}},\"S:P\":{\"b2\":{\"b3\":[{}]}},"
                              "\"S:R\":{\"*\":{\"c3\":[{}]}},\"C:R\":{\"*\":{\"a1\":[{}]}}}";
    expect_ggn_moves(doc, "3/1P'1/3 / C/s", "b2-b3");
    expect_ggn_moves(doc, "3/1P1/3 / C/s", "b2-a3");
    expect_ggn_moves(doc, "3/1P1/3 R'/ C/s", "R'*c3 b2-a3");
    expect_ggn_moves(doc, "3/1P1/3 RR'/ C/s", "R'*c3 R*a1 b2-a3");
    /* a QPI condition on a derived piece */
    static const char cond[] = "{\"C:R\":{\"a1\":{\"a3\":[{\"must\":{\"a2\":\"S:P\"}}]}}}";
    expect_ggn_moves(cond, "3/P'2/R2 / C/s", "a1-a3");
    expect_ggn_moves(cond, "3/P2/R2 / C/s", "");
    /* "enemy" is relative to the side to move */
    static const char en[] = "{\"c:r\":{\"a3\":{\"a1\":[{\"must\":{\"a1\":\"enemy\"}}]}}}";
    expect_ggn_moves(en, "r2/3/R2 / c/C", "a3+a1");
    expect_ggn_moves(en, "r2/3/r2 / c/C", "");
}

static void test_moves_shapes(void **state)
{
    (void)state;
    /* off-board and other-dimension cells */
    static const char doc[] =
        "{\"C:R\":{\"a1\":{\"z26\":[{}],\"a1A\":[{}],\"a1\":[{}],\"a3\":[{\"must\":{\"i9\":\"empty\"}}],"
        "\"b1\":[{\"deny\":{\"i9\":\"empty\"}}],\"c1\":[{\"deny\":{\"a1A\":\"enemy\"}}],"
        "\"*\":[{\"must\":{\"c3\":\"empty\"}}]}}}";
    expect_ggn_moves(doc, "3/3/R2 / C/c", "+a1 a1-b1 a1-c1");
    expect_ggn_moves(doc, "2p/3/R2 / C/c", "a1-b1 a1-c1");
    /* a 1-D board */
    static const char one[] = "{\"C:K^\":{\"a\":{\"b\":[{\"must\":{\"b\":\"empty\"}}],\"c\":[{\"must\":{\"c\":\"enemy\"}}]}}}";
    expect_ggn_moves(one, "K^2 / C/c", "a-b");
    expect_ggn_moves(one, "K^1k / C/c", "a+c a-b");
    /* a 3-D board: 2 files, 2 ranks, 2 layers */
    static const char three[] = "{\"G:R\":{\"a1A\":{\"a1B\":[{\"must\":{\"a1B\":\"empty\"}}],\"b2A\":[{}]}}}";
    expect_ggn_moves(three, "2/R1//2/2 / G/g", "a1A-a1B a1A-b2A");
    expect_ggn_moves(three, "2/R1//2/r1 / G/g", "a1A-b2A");
    expect_ggn_moves(three, "2/2//2/R1 / G/g", "");
    /* many possibilities for one move: emitted once */
    expect_ggn_moves("{\"C:R\":{\"a1\":{\"a2\":[{},{},{\"must\":{\"a2\":\"empty\"}}]}}}", "3/3/R2 / C/c",
                 "a1-a2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_table),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_long_key),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_large_document),
        cmocka_unit_test(test_pretty),
        cmocka_unit_test(test_write_sink),
        cmocka_unit_test(test_builder),
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_foreach),
        cmocka_unit_test(test_qpi_of),
        cmocka_unit_test(test_moves_king),
        cmocka_unit_test(test_moves_section_11),
        cmocka_unit_test(test_moves_forms),
        cmocka_unit_test(test_moves_styles),
        cmocka_unit_test(test_moves_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
