/*
 * tests/unit/test_pcn_json_fast.c — PCN JSON records read by lib/pcn_json.c's
 * fast path give the very tree jansson gives, and what the fast path leaves to
 * jansson (escapes, non-ASCII, negative or real numbers, duplicate keys,
 * errors, too deep a nesting) is reported as jansson reports it.
 *
 * Each text is read with koma_pcn_parse (no validation, so any JSON value is a
 * record) and written back with koma_pcn_write_json; the same text loaded by
 * jansson and dumped with the writer's flags must give the same bytes, and a
 * text jansson refuses must be refused (the compact writer on trees no reader
 * makes: test_util_json_emit).
 */
#include <stdlib.h>
#include <jansson.h>
#include "unit.h"

static void same_as_jansson(const char *s, size_t len)
{
    koma_error err;
    koma_error_clear(&err);
    koma_pcn *p = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s, len, KOMA_PCN_NO_VALIDATE, &p, &err);
    json_error_t jerr;
    json_t *j = json_loadb(s, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if ((p == NULL) != (j == NULL))
        print_error("%.*s: koma %s, jansson %s\n", (int)len, s, p ? "reads it" : err.message,
                    j ? "reads it" : jerr.text);
    assert_int_equal(p == NULL, j == NULL);
    if (p == NULL) {
        assert_true(err.code != KOMA_OK);
        return;
    }
    koma_buffer out = {0};
    assert_int_equal(koma_pcn_write_json(p, 0, &out, &err), 0);
    char *want = json_dumps(j, JSON_PRESERVE_ORDER | JSON_ENCODE_ANY | JSON_COMPACT);
    assert_non_null(want);
    size_t wl = strlen(want);
    /* the writer ends the record with a newline */
    if (out.len != wl + 1 || memcmp(out.data, want, wl) != 0)
        print_error("%.*s: koma %.*s, jansson %s\n", (int)len, s, (int)out.len, out.data, want);
    assert_int_equal(out.len, wl + 1);
    assert_memory_equal(out.data, want, wl);
    free(want);
    koma_buffer_cleanup(&out);
    json_decref(j);
    koma_pcn_free(p);
}

#define SAME(lit) same_as_jansson(LIT(lit))

static void test_values(void **state)
{
    (void)state;
    SAME("{\"setup\":{\"feen\":\"8/8/8/8/8/8/8/8 / O/o\"},\"plies\":[{\"pmn\":\"e2-e3\"},{\"pmn\":\"P*e5\"}]}");
    SAME(" \t\r\n{ \"a\" : [ 1 , 2 ,3 ] , \"b\" : { } , \"c\" : [ ] } \n");
    SAME("{\"t\":true,\"f\":false,\"n\":null}");
    SAME("[0, 7, 123456789012345678, 999999999999999999]");
    SAME("{\"x\":\"\"}");
    SAME("\"top-level string\"");
    SAME("42");
    SAME("[]");
    /* left to jansson */
    SAME("[1234567890123456789, 9223372036854775807, -5, -0, 1.5, 2e3, 1E-2, 0.0]");
    SAME("{\"s\":\"tab\\tquote\\\"slash\\/u\\u00e9\"}");
    SAME("{\"name\":\"\xe7\x8e\x8b\xe6\xa3\x8b\"}");
    SAME("{\"a\":1,\"a\":2}");
    SAME("{\"a\":{\"b\":1,\"b\":1}}");
    SAME("{\"c\":\"\\u0001\\u001f\\b\\f\\n\\r\\t\\\\\\\" \\u007f\\u2028\\ud83d\\ude00\",\"\\n\\u0002\":[{},[]]}");
}

static void test_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", " ", "{", "}", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}",
        "[01]", "[1 2]", "[tru]", "[truex]", "[nul]", "[true1]", "{} {}", "{}x", "\"open",
        "[\"\x01\"]", "[\"\xff\"]", "[9223372036854775808]", "[-]", "[1.]", "[.5]", "['a']",
        "[\"\\x\"]", "[\"\\u0000\"]", "{\"\\u0000\":1}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) same_as_jansson(bad[i], strlen(bad[i]));
    /* a NUL byte inside */
    same_as_jansson("[1]\0", 4);
    same_as_jansson("[\"a\0b\"]", 7);
}

/* Nesting: 64 levels are read, 65 are pcn.depth (the pre-scan), on either path. */
static void test_depth(void **state)
{
    (void)state;
    char s[200];
    for (int depth = 63; depth <= 65; depth++) {
        size_t n = 0;
        for (int i = 0; i < depth; i++) s[n++] = '[';
        for (int i = 0; i < depth; i++) s[n++] = ']';
        koma_error err;
        koma_error_clear(&err);
        koma_pcn *p = NULL;
        koma_pcn_parse(KOMA_PCN_JSON, s, n, KOMA_PCN_NO_VALIDATE, &p, &err);
        if (depth <= 64) {
            assert_non_null(p);
            koma_pcn_free(p);
        } else {
            assert_null(p);
            assert_int_equal(err.code, KOMA_E_PCN_DEPTH);
            assert_int_equal(err.offset, 64);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
