/*
 * tests/unit/test_util_json_emit.c — koma's compact JSON writer
 * (lib/util_json_emit.c) writes the bytes jansson's json_dump_callback writes
 * with JSON_COMPACT and JSON_PRESERVE_ORDER, on every tree it takes: the
 * records of tests/data/pcn/games.jsonl and of the PCN JSON fuzz corpus, and
 * hand-made trees (every escape, controls, NUL bytes, non-ASCII text, long
 * strings, the integer extremes, empty and nested containers); it leaves to
 * jansson what it does not write (reals, text that is not UTF-8, deeper
 * levels); a sink that fails is not called again.
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include "unit.h"
#include "util_json_emit.h"

static unsigned long written, left;

typedef struct out {
    char *data;
    size_t len, cap;
    int calls, fail_at;                    /* fail_at > 0: the call that fails */
} out;

static int sink(void *ctx, const char *data, size_t len)
{
    out *o = ctx;
    o->calls++;
    if (o->fail_at > 0 && o->calls >= o->fail_at) {
        assert_int_equal(o->calls, o->fail_at);        /* never called again */
        return -1;
    }
    if (o->len + len + 1 > o->cap) {
        o->cap = 2 * (o->len + len + 1);
        o->data = realloc(o->data, o->cap);
        assert_non_null(o->data);
    }
    memcpy(o->data + o->len, data, len);
    o->len += len;
    o->data[o->len] = '\0';
    return 0;
}

/* The writer against jansson on v; 1 when the writer took it. */
static int same_as_jansson(const json_t *v)
{
    out o = {NULL, 0, 0, 0, 0};
    int rc = koma__json_emit_compact(v, sink, &o);
    assert_true(rc == 0 || rc == 1);
    if (rc == 1) {
        assert_int_equal(o.len, 0);                    /* nothing written */
        left++;
        free(o.data);
        return 0;
    }
    char *want = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    assert_non_null(want);
    if (strlen(want) != o.len || memcmp(want, o.data, o.len) != 0)
        print_error("jansson: %s\nkoma:    %.*s\n", want, (int)o.len, o.data);
    assert_int_equal(strlen(want), o.len);
    assert_memory_equal(want, o.data, o.len);
    /* a sink that fails at each call in turn */
    for (int k = 1; k <= o.calls; k++) {
        out f = {NULL, 0, 0, 0, k};
        assert_int_equal(koma__json_emit_compact(v, sink, &f), -1);
        free(f.data);
    }
    free(want);
    free(o.data);
    written++;
    return 1;
}

static void same_text(const char *s, size_t len)
{
    json_error_t jerr;
    json_t *v = json_loadb(s, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (v == NULL) return;
    same_as_jansson(v);
    json_decref(v);
}

static void test_hand_made(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "{}", "[]", "{\"a\":[]}", "[{}]", "\"\"", "0", "-1", "true", "false", "null",
        "{\"a\":1,\"b\":[1,2,{\"c\":null}],\"d\":true,\"e\":false}",
        "{\"z\":1,\"a\":2,\"m\":3}",
        "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0001 \\u001f \\u007f \\u0000 end\"",
        "{\"\\u0000k\\n\":\"v\\u0000\"}",
        "\"\xc5\x8c \xe5\xb0\x86\xe6\xa3\x8b \xf0\x9f\x98\x80 \\u2028 \\ud83d\\ude00\"",
        "[9223372036854775807,-9223372036854775808,1000000000000,-42]",
        "{\"plies\":[{\"pmn\":\"c1-d2\"},{\"pmn\":\"P*e5\",\"elapsed_ms\":1500,\"comment\":\"a\\nb\"}]}",
        "1.5", "[1,2.0]", "{\"a\":{\"b\":0.25}}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) same_text(texts[i], strlen(texts[i]));
    /* a long string, longer than the writer's pieces, with escapes across them */
    size_t n = 20000;
    char *big = malloc(n);
    assert_non_null(big);
    for (size_t i = 0; i < n; i++) big[i] = "ab\"c\\d\n\x01"[i % 8];
    json_t *v = json_pack("{s:s%,s:[s%]}", "big", big, n, "more", big, n / 3);
    assert_non_null(v);
    assert_true(same_as_jansson(v));
    json_decref(v);
    free(big);
    /* left to jansson: text that is not UTF-8, deeper than the writer goes */
    v = json_stringn_nocheck("\xc0\xaf", 2);
    assert_false(same_as_jansson(v));
    json_decref(v);
    json_t *deep = json_array();
    for (unsigned i = 0; i < KOMA__JSON_EMIT_DEPTH + 1; i++) {
        json_t *up = json_array();
        json_array_append_new(up, deep);
        deep = up;
    }
    assert_false(same_as_jansson(deep));
    json_decref(deep);
}

static void test_records(void **state)
{
    (void)state;
    size_t len;
    char *db = read_whole_file("tests/data/pcn/games.jsonl", &len);
    assert_non_null(db);
    for (char *p = db, *e; p < db + len; p = e + 1) {
        e = memchr(p, '\n', (size_t)(db + len - p));
        if (e == NULL) e = db + len;
        same_text(p, (size_t)(e - p));
    }
    free(db);
    DIR *d = opendir("tests/fuzz/corpus/pcn_json");
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "tests/fuzz/corpus/pcn_json/%s", de->d_name);
        char *s = read_whole_file(path, &len);
        if (s == NULL) continue;
        same_text(s, len);
        free(s);
    }
    closedir(d);
}

static void test_counts(void **state)
{
    (void)state;
    printf("  %lu trees written as jansson writes them, %lu left to jansson\n", written, left);
    assert_true(written > 200);
    assert_true(left >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
