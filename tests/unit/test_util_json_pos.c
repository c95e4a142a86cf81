/* tests/unit/test_util_json_pos.c — lib/util_json_pos.c: depth pre-scan, JSON pointer
 * location, offsets to line/column, jansson errors, pointer building. */
#include "unit.h"

#include <stdlib.h>
#include "util_json_alloc.h"
#include "util_json_pos.h"

/* ---- depth -------------------------------------------------------------------- */

typedef struct depth_case {
    const char *text;
    size_t limit;
    int rc;
    size_t offset;             /* when rc == 1 */
} depth_case;

static const depth_case depth_cases[] = {
    { "", 1, 0, 0 },
    { "1", 0, 0, 0 },
    { "[1]", 0, 1, 0 },
    { "[[1]]", 2, 0, 0 },
    { "[[1]]", 1, 1, 1 },
    { "{\"a\":[{}]}", 3, 0, 0 },
    { "{\"a\":[{}]}", 2, 1, 6 },
    { "[\"[[[{\"]", 1, 0, 0 },            /* brackets inside a string */
    { "[\"\\\"[\"]", 1, 0, 0 },           /* an escaped quote inside a string */
    { "[\"\\\\\",[1]]", 1, 1, 6 },        /* an escaped backslash ends before the quote */
    { "]]][[", 1, 1, 4 },                 /* stray closers never go below zero */
    { "[\"[[[", 1, 0, 0 },                /* unterminated string */
    { "[1],[2],[3]", 1, 0, 0 },           /* siblings do not add up */
    { "{\"k\\u005b\":[]}", 2, 0, 0 },
};

static void test_depth_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof depth_cases / sizeof depth_cases[0]; i++) {
        const depth_case *c = &depth_cases[i];
        size_t off = 12345;
        int rc = koma__json_depth(c->text, strlen(c->text), c->limit, &off);
        if (rc != c->rc || (rc == 1 && off != c->offset))
            print_error("case %zu: %s: rc %d offset %zu\n", i, c->text, rc, off);
        assert_int_equal(rc, c->rc);
        if (rc == 1) assert_int_equal(off, c->offset);
        else assert_int_equal(off, 12345);
    }
}

static char *nested(size_t depth)
{
    char *s = malloc(2 * depth + 1);
    assert_non_null(s);
    for (size_t i = 0; i < depth; i++) {
        s[i] = '[';
        s[2 * depth - 1 - i] = ']';
    }
    s[2 * depth] = '\0';
    return s;
}

static void test_depth_64_65(void **state)
{
    (void)state;
    char *s64 = nested(64), *s65 = nested(65);
    size_t off = 0;
    assert_int_equal(koma__json_depth(s64, strlen(s64), KOMA_JSON_DEPTH_MAX, &off), 0);
    assert_int_equal(koma__json_depth(s65, strlen(s65), KOMA_JSON_DEPTH_MAX, &off), 1);
    assert_int_equal(off, 64);
    assert_int_equal(koma__json_depth(s65, strlen(s65), 65, NULL), 0);
    /* The length bounds the scan: the first 128 bytes of s65 are 64 + 64 brackets. */
    assert_int_equal(koma__json_depth(s65, 64, KOMA_JSON_DEPTH_MAX, &off), 0);
    free(s64);
    free(s65);
}

/* ---- locate ------------------------------------------------------------------- */

static const char doc[] =
    "{\n"
    "  \"plies\": [\n"
    "    {\"pmn\": \"e2-e4\"},\n"
    "    {\"pmn\": \"e7-e5\", \"x\": [1, 2.5, true, null, {\"y\": \"}\"}]}\n"
    "  ],\n"
    "  \"a/b\": 1, \"m~n\": 2, \"\\u0041\": 3, \"\": 4,\n"
    "  \"O:K^\": {\"e4\": {\"d3\": [{\"must\": {\"d3\": \"empty\"}}]}}\n"
    "}\n";

typedef struct locate_case {
    const char *pointer;
    int rc;
    size_t value;              /* koma__json_locate */
    size_t key;                /* koma__json_locate_key */
} locate_case;

static const locate_case locate_cases[] = {
    { "", 0, 0, 0 },
    { "/plies", 0, 13, 4 },
    { "/plies/0", 0, 19, 19 },
    { "/plies/0/pmn", 0, 27, 20 },
    { "/plies/1", 0, 41, 41 },
    { "/plies/1/x/1", 0, 67, 67 },
    { "/plies/1/x/3", 0, 78, 78 },
    { "/plies/1/x/4/y", 0, 90, 85 },
    { "/a~1b", 0, 111, 104 },
    { "/m~0n", 0, 121, 114 },
    { "/A", 0, 134, 124 },           /* "\u0041" decodes to "A" */
    { "/", 0, 141, 137 },            /* the empty key */
    { "/O:K^", 0, 154, 146 },
    { "/O:K^/e4", 0, 161, 155 },
    { "/O:K^/e4/d3/0/must/d3", 0, 185, 179 },
    /* not found: the deepest value that resolved */
    { "/nope", -1, 0, 0 },
    { "/plies/2", -1, 13, 13 },
    { "/plies/01", -1, 13, 13 },
    { "/plies/-", -1, 13, 13 },
    { "/plies/0/pmn/x", -1, 27, 27 },
    { "/a~2b", -1, 0, 0 },           /* bad escape */
    { "/a/b", -1, 0, 0 },            /* "/a" does not exist */
    { "plies", -1, 0, 0 },           /* not a pointer */
    { "/O:K^/e4/d3/1", -1, 168, 168 },
};

static void test_locate_table(void **state)
{
    (void)state;
    size_t len = sizeof doc - 1;
    for (size_t i = 0; i < sizeof locate_cases / sizeof locate_cases[0]; i++) {
        const locate_case *c = &locate_cases[i];
        size_t v = 999, k = 999;
        int rv = koma__json_locate(doc, len, c->pointer, &v);
        int rk = koma__json_locate_key(doc, len, c->pointer, &k);
        if (rv != c->rc || v != c->value || rk != c->rc || k != c->key)
            print_error("case %s: rc %d/%d value %zu key %zu\n", c->pointer, rv, rk, v, k);
        assert_int_equal(rv, c->rc);
        assert_int_equal(rk, c->rc);
        assert_int_equal(v, c->value);
        assert_int_equal(k, c->key);
    }
}

static void test_locate_edges(void **state)
{
    (void)state;
    size_t off = 99;
    assert_int_equal(koma__json_locate("", 0, "", &off), 0);
    assert_int_equal(off, 0);
    assert_int_equal(koma__json_locate("  \n [1]", 7, "", &off), 0);
    assert_int_equal(off, 4);
    assert_int_equal(koma__json_locate("  \n [1]", 7, "/0", &off), 0);
    assert_int_equal(off, 5);
    assert_int_equal(koma__json_locate("[]", 2, "/0", &off), -1);
    assert_int_equal(off, 0);
    assert_int_equal(koma__json_locate("{}", 2, "/a", &off), -1);
    assert_int_equal(off, 0);
    /* Truncated text: no crash, not found. */
    assert_int_equal(koma__json_locate("{\"a\":[1,", 8, "/a/5", &off), -1);
    assert_int_equal(off, 5);
    assert_int_equal(koma__json_locate("{\"a\"", 4, "/a", &off), -1);
    /* Escapes in keys: \" \\ \/ \n and a surrogate pair (U+1F600 = F0 9F 98 80). */
    static const char esc[] = "{\"q\\\"\\\\\\/\\n\":1,\"\\ud83d\\ude00\":2,\"\\u00e9\":3}";
    assert_int_equal(koma__json_locate(esc, sizeof esc - 1, "/q\"\\~1\n", &off), 0);
    assert_int_equal(off, 13);
    assert_int_equal(koma__json_locate(esc, sizeof esc - 1, "/\xf0\x9f\x98\x80", &off), 0);
    assert_int_equal(off, 30);
    assert_int_equal(koma__json_locate(esc, sizeof esc - 1, "/\xc3\xa9", &off), 0);
    assert_int_equal(off, 41);
    /* The first of duplicate names wins. */
    assert_int_equal(koma__json_locate("{\"a\":1,\"a\":2}", 13, "/a", &off), 0);
    assert_int_equal(off, 5);
    /* Large index. */
    assert_int_equal(koma__json_locate("[0,1,2,3,4,5,6,7,8,9,10,11]", 27, "/11", &off), 0);
    assert_int_equal(off, 24);
    assert_int_equal(koma__json_locate("[0]", 3, "/99999999999999999999999", &off), -1);
}

/* The pointer at the value (and at the member name) of every case that resolves. */
static void test_pointer_at_roundtrip(void **state)
{
    (void)state;
    size_t len = sizeof doc - 1;
    for (size_t i = 0; i < sizeof locate_cases / sizeof locate_cases[0]; i++) {
        const locate_case *c = &locate_cases[i];
        if (c->rc != 0) continue;
        char buf[128];
        size_t n = koma__json_pointer_at(doc, len, c->value, buf, sizeof buf);
        const char *want = strcmp(c->pointer, "/A") == 0 ? "/A" : c->pointer;
        if (strcmp(buf, want) != 0) print_error("value of %s: %s\n", c->pointer, buf);
        assert_string_equal(buf, want);
        assert_int_equal(n, strlen(want));
        n = koma__json_pointer_at(doc, len, c->key, buf, sizeof buf);
        if (strcmp(buf, want) != 0) print_error("key of %s: %s\n", c->pointer, buf);
        assert_string_equal(buf, want);
    }
}

typedef struct at_case {
    const char *text;
    size_t offset;
    const char *pointer;
} at_case;

static const at_case at_cases[] = {
    { "{\"a\":[1,2]}", 0, "" },
    { "{\"a\":[1,2]}", 2, "/a" },                /* inside the member name */
    { "{\"a\":[1,2]}", 4, "/a" },                /* the colon */
    { "{\"a\":[1,2]}", 7, "/a/0" },              /* the comma after element 0 */
    { "{\"a\":[1,2]}", 8, "/a/1" },
    { "{\"a\":[1,2]}", 9, "/a" },                /* the closing bracket of /a */
    { "{\"a\":[1,2]}", 10, "" },
    { "{\"a\":[1,2]}", 99, "" },                 /* clamped to the end */
    { "{\"a\":[1,2 x]}", 10, "/a/1" },           /* a syntax error after element 1 */
    { "{\"a\":[1,2], }", 13, "" },               /* a trailing comma: the root */
    { "{\"C:P\":{},\"C:P\":{}}", 10, "/C:P" },    /* a duplicate member name */
    { "{\"x\":{\"y\":[{\"z\":tru}]}}", 16, "/x/y/0/z" },
    { "{\"x\":{\"y\":[{\"z\":tru}]}}", 19, "/x/y/0" },  /* jansson's offset after "tru" */
    { "{\"\\u0041/~\":[[],[],{\"k\":\"v\"}]}", 24, "/A~1~0/2/k" },
    { "[[],{},[[]],5]", 12, "/3" },
    { "[[],{},[[]],5]", 8, "/2/0" },
    { "  \"abc\"", 4, "" },
    { "", 0, "" },
    { "{\"a\" 1}", 5, "/a" },                    /* ':' expected */
};

static void test_pointer_at_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof at_cases / sizeof at_cases[0]; i++) {
        const at_case *c = &at_cases[i];
        char buf[128];
        size_t n = koma__json_pointer_at(c->text, strlen(c->text), c->offset, buf, sizeof buf);
        if (strcmp(buf, c->pointer) != 0) print_error("case %zu: %s\n", i, buf);
        assert_string_equal(buf, c->pointer);
        assert_int_equal(n, strlen(c->pointer));
    }
    /* deeper than the limit: the first 64 levels */
    char deep[141];
    memset(deep, '[', 70);
    memset(deep + 70, ']', 70);
    deep[140] = '\0';
    char buf[256];
    size_t n = koma__json_pointer_at(deep, 140, 69, buf, sizeof buf);
    assert_int_equal(n, 128);
    assert_memory_equal(buf, "/0/0/0/0/0/0/0/0", 16);
    /* a short buffer truncates */
    char small[8];
    n = koma__json_pointer_at(doc, sizeof doc - 1, 185, small, sizeof small);
    assert_string_equal(small, "/O:K...");
    assert_int_equal(n, 7);
}

/* ---- lines and columns -------------------------------------------------------- */

static void test_linecol(void **state)
{
    (void)state;
    static const char t[] = "ab\ncd\r\nef";
    static const struct { size_t off; unsigned long line, col; } cases[] = {
        { 0, 1, 1 }, { 1, 1, 2 }, { 2, 1, 3 }, { 3, 2, 1 }, { 5, 2, 3 },
        { 6, 2, 4 }, { 7, 3, 1 }, { 9, 3, 3 }, { 100, 3, 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned long line = 0, col = 0;
        koma__offset_to_linecol(t, sizeof t - 1, cases[i].off, &line, &col);
        assert_int_equal(line, cases[i].line);
        assert_int_equal(col, cases[i].col);
    }
    unsigned long line = 0, col = 0;
    koma__offset_to_linecol("", 0, 0, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    /* Columns are bytes: "é" is two. */
    koma__offset_to_linecol("\xc3\xa9x", 3, 2, &line, &col);
    assert_int_equal(col, 3);
}

static void test_error_at(void **state)
{
    (void)state;
    koma_error e;
    memset(&e, 0, sizeof e);
    e.source = "f.json";
    assert_int_equal(koma__json_error_at(&e, KOMA_E_INTERNAL, "a\nbc", 4, 3, "at %d", 7), -1);
    assert_int_equal(e.code, KOMA_E_INTERNAL);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 2);
    assert_int_equal(e.offset, 3);
    assert_string_equal(e.message, "at 7");
    assert_string_equal(e.source, "f.json");
    assert_int_equal(koma__json_error_at(&e, KOMA_E_INTERNAL, "a\nbc", 4, 9, NULL), -1);
    assert_int_equal(e.offset, 4);
    assert_int_equal(e.column, 3);
    assert_string_equal(e.message, "internal error");
    assert_int_equal(koma__json_error_at(NULL, KOMA_E_INTERNAL, "", 0, 0, NULL), -1);
}

/* ---- jansson errors ----------------------------------------------------------- */

typedef struct jerr_case {
    const char *text;
    size_t len;                /* 0: strlen */
    unsigned long line, column;
    size_t offset;
    const char *message;
} jerr_case;

static const jerr_case jerr_cases[] = {
    { "{\"a\":1,\"a\":2}", 0, 1, 8, 7, "duplicate object key near '\"a\"' at /a" },
    { "{\n\"a\":\n  1,\n \"a\" : 2}", 0, 4, 2, 13,
      "duplicate object key near '\"a\"' at /a" },
    { "{\"\xc3\xa9\":1,\"\xc3\xa9\":2}", 0, 1, 9, 8,
      "duplicate object key near '\"\xc3\xa9\"' at /\xc3\xa9" },
    { "{\"a\":tru}", 0, 1, 9, 8, "invalid token near 'tru'" },
    { "[01]", 0, 1, 3, 2, "invalid token near '0' at /0" },
    { "[1.]", 0, 1, 4, 3, "invalid token near '1.'" },
    { "[1,]", 0, 1, 4, 3, "unexpected token near ']'" },
    { "{\"a\" 1}", 0, 1, 6, 5, "':' expected near '1' at /a" },
    { "{\"a\":1} x", 0, 1, 9, 8, "end of file expected near 'x'" },
    { "[1,2", 0, 1, 5, 4, "']' expected near end of file at /1" },
    { "\"abc", 0, 1, 5, 4, "premature end of input near '\"abc'" },
    { "", 0, 1, 1, 0, "'[' or '{' expected near end of file" },
    { "  \n ", 0, 2, 2, 4, "'[' or '{' expected near end of file" },
    { "[\"a\tb\"]", 0, 1, 4, 3, "control character 0x9 near '\"a' at /0" },
    { "[\"\x80\"]", 0, 1, 3, 2, "unable to decode byte 0x80 near '\"' at /0" },
    { "[\"a\\u0000\"]", 0, 1, 2, 1,
      "\\u0000 is not allowed without JSON_ALLOW_NUL near '\"a\\u0000\"' at /0" },
    { "[1e999]", 0, 1, 2, 1, "real number overflow near '1e999' at /0" },
    { "x", 0, 1, 1, 0, "'[' or '{' expected near 'x'" },
    { "[x]", 0, 1, 2, 1, "invalid token near 'x' at /0" },
    { "[tx]", 0, 1, 3, 2, "invalid token near 'tx' at /0" },
    { "[truex]", 0, 1, 6, 5, "invalid token near 'truex' at /0" },
    { "[nul]", 0, 1, 5, 4, "invalid token near 'nul'" },
    { "[-]", 0, 1, 3, 2, "invalid token near '-'" },
    { "[\xef\xbb\xbf]", 0, 1, 2, 1, "invalid token near '\\xef\\xbb\\xbf' at /0" },
    { "{\"abcdefghijklmnopqrstuvwxyz\":1,\n\"abcdefghijklmnopqrstuvwxyz\":2}", 0, 2, 1, 33,
      "duplicate object key at /abcdefghijklmnopqrstuvwxyz" },
};

static void test_jansson_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof jerr_cases / sizeof jerr_cases[0]; i++) {
        const jerr_case *c = &jerr_cases[i];
        size_t len = c->len ? c->len : strlen(c->text);
        json_error_t je;
        json_t *j = json_loadb(c->text, len, JSON_REJECT_DUPLICATES, &je);
        assert_null(j);
        koma_error e;
        memset(&e, 0, sizeof e);
        assert_int_equal(koma__json_error(&e, KOMA_E_INTERNAL, c->text, len, &je), -1);
        if (e.line != c->line || e.column != c->column || e.offset != c->offset ||
            strcmp(e.message, c->message) != 0)
            print_error("case %zu: %lu:%lu off %zu: %s\n", i, e.line, e.column, e.offset,
                        e.message);
        assert_int_equal(e.code, KOMA_E_INTERNAL);
        assert_int_equal(e.line, c->line);
        assert_int_equal(e.column, c->column);
        assert_int_equal(e.offset, c->offset);
        assert_string_equal(e.message, c->message);
    }
}

/* ---- pointers ----------------------------------------------------------------- */

static void test_pointer_build(void **state)
{
    (void)state;
    char buf[64];
    size_t len = 0;
    buf[0] = '\0';
    assert_int_equal(koma__json_pointer_push(buf, sizeof buf, &len, LIT("O:K^")), 0);
    assert_int_equal(koma__json_pointer_push(buf, sizeof buf, &len, LIT("a/b~c")), 0);
    assert_int_equal(koma__json_pointer_index(buf, sizeof buf, &len, 17), 0);
    assert_int_equal(koma__json_pointer_push(buf, sizeof buf, &len, "", 0), 0);
    assert_string_equal(buf, "/O:K^/a~1b~0c/17/");
    assert_int_equal(len, 17);
    /* The built pointer finds its value again. */
    static const char t[] = "{\"O:K^\":{\"a/b~c\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,{\"\":5}]}}";
    size_t off;
    assert_int_equal(koma__json_locate(t, sizeof t - 1, buf, &off), 0);
    assert_int_equal(off, 56);

    char small[8];
    len = 0;
    small[0] = '\0';
    assert_int_equal(koma__json_pointer_push(small, sizeof small, &len, LIT("abcdefghij")), -1);
    assert_string_equal(small, "/abc...");
    assert_int_equal(len, 7);
}

/* ---- koma__json_dump: a failure of the sink sticks ------------------------------------ */

typedef struct flaky {
    unsigned long calls, fail_at;      /* the piece (1-based) that fails, once */
    char text[512];
    size_t len;
} flaky;

static int flaky_sink(void *ctx, const char *data, size_t len)
{
    flaky *f = ctx;
    if (++f->calls == f->fail_at) return -1;
    assert_true(f->len + len < sizeof f->text);
    memcpy(f->text + f->len, data, len);
    f->len += len;
    return 0;
}

/* A sink that fails one piece and takes the next ones (a buffer that could not
 * grow once): every such dump fails, whichever piece it is. jansson ignores
 * its callback in places (an object's key with JSON_PRESERVE_ORDER): koma-convert
 * --to jkf and --to pcn printed a record with a key left out, exit 0. The
 * compact form is koma's own writer (util_json_emit.c, a few pieces of some
 * kilobytes); the indented one jansson's (a piece a token). */
static void dump_sticky(size_t flags, const char *want, unsigned long min_pieces)
{
    json_t *v = json_pack("{s:{s:s,s:i},s:[{s:s},{s:s}]}", "header", "event", "x", "n", 7,
                          "moves", "pmn", "e3-e4", "pmn", "e6-e5");
    assert_non_null(v);
    flaky f = {0, 0, {0}, 0};
    int failed = -1;
    assert_int_equal(koma__json_dump(v, flags, flaky_sink, &f, &failed), 0);
    assert_int_equal(failed, 0);
    f.text[f.len] = '\0';
    assert_string_equal(f.text, want);
    unsigned long pieces = f.calls;
    assert_true(pieces >= min_pieces);
    for (unsigned long k = 1; k <= pieces; k++) {
        flaky g = {0, k, {0}, 0};
        failed = 0;
        if (koma__json_dump(v, flags, flaky_sink, &g, &failed) == 0)
            fail_msg("piece %lu of %lu failed, the dump did not", k, pieces);
        assert_int_equal(failed, 1);
    }
    json_decref(v);
}

static void test_dump_sticky(void **state)
{
    (void)state;
    dump_sticky(JSON_COMPACT | JSON_PRESERVE_ORDER,
                "{\"header\":{\"event\":\"x\",\"n\":7},\"moves\":[{\"pmn\":\"e3-e4\"},{\"pmn\":\"e6-e5\"}]}", 1);
    dump_sticky(JSON_INDENT(1) | JSON_COMPACT | JSON_PRESERVE_ORDER,
                "{\n \"header\":{\n  \"event\":\"x\",\n  \"n\":7\n },\n \"moves\":[\n  {\n   \"pmn\":\"e3-e4\"\n  },\n  {\n"
                "   \"pmn\":\"e6-e5\"\n  }\n ]\n}", 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_table),
        cmocka_unit_test(test_depth_64_65),
        cmocka_unit_test(test_locate_table),
        cmocka_unit_test(test_locate_edges),
        cmocka_unit_test(test_pointer_at_roundtrip),
        cmocka_unit_test(test_pointer_at_table),
        cmocka_unit_test(test_linecol),
        cmocka_unit_test(test_error_at),
        cmocka_unit_test(test_jansson_errors),
        cmocka_unit_test(test_pointer_build),
        cmocka_unit_test(test_dump_sticky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
