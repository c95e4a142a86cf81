/* tests/unit/test_pcn.c — lib/pcn.c and lib/pcn_json.c: PCN records as JSON,
 * validation (koma-formats(5), PCN; the examples of
 * https://sashite.dev/specs/pcn/1.0.0/ and its reference implementations), limits,
 * error positions, accessors, setters, writers, and the JSON -> YAML -> JSON round
 * trip of every sample record in tests/data/pcn/. */
#include "unit.h"

#include <stdlib.h>

#define SAMPLES "tests/data/pcn/"

/* ---- helpers -------------------------------------------------------------------- */

static koma_pcn *parse_ok(koma_pcn_format fmt, const char *text, size_t len, unsigned flags)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn *p = NULL;
    koma_pcn_parse(fmt, text, len, flags, &p, &e);
    if (p == NULL)
        print_error("unexpected error on %.200s: %s %lu:%lu %s\n", text, koma_code_name(e.code),
                    e.line, e.column, e.message);
    assert_non_null(p);
    assert_int_equal(e.code, KOMA_OK);
    return p;
}

static koma_pcn *json_ok(const char *text)
{
    return parse_ok(KOMA_PCN_JSON, text, strlen(text), 0);
}

static koma_pcn *json_ok_n(const char *text, size_t len)
{
    return parse_ok(KOMA_PCN_JSON, text, len, 0);
}

/* Write p and return the text (caller frees); checks NUL termination and the final '\n'. */
static char *write_text(const koma_pcn *p, koma_pcn_format fmt, unsigned flags)
{
    koma_buffer b = { 0 };
    koma_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(koma_pcn_write(p, fmt, flags, &b, &e), 0);
    assert_non_null(b.data);
    assert_int_equal(strlen(b.data), b.len);
    assert_true(b.len > 0 && b.data[b.len - 1] == '\n');
    return b.data;
}

/* The compact JSON of p, without the final newline. */
static char *compact(const koma_pcn *p)
{
    char *s = write_text(p, KOMA_PCN_JSON, 0);
    s[strlen(s) - 1] = '\0';
    return s;
}

static void expect_error(koma_pcn_format fmt, const char *text, size_t len, koma_code code,
                         unsigned long line, unsigned long column, const char *needle)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    e.source = "src";
    koma_pcn *p = NULL;
    koma_pcn_parse(fmt, text, len, 0, &p, &e);
    if (p != NULL || e.code != code || e.line != line || e.column != column ||
        (needle && strstr(e.message, needle) == NULL))
        print_error("%.300s\n  want %s %lu:%lu \"%s\"\n  got  %s %lu:%lu \"%s\"\n", text,
                    koma_code_name(code), line, column, needle ? needle : "",
                    koma_code_name(e.code), e.line, e.column, e.message);
    assert_null(p);
    assert_int_equal(e.code, code);
    assert_int_equal(e.line, line);
    assert_int_equal(e.column, column);
    assert_string_equal(e.source, "src");
    if (needle) assert_non_null(strstr(e.message, needle));
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) print_error("cannot open %s (run from the repository root)\n", path);
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    assert_non_null(buf);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* ---- valid records ---------------------------------------------------------------- */

#define SCHOLAR                                                                           \
    "{\"meta\":{\"name\":\"Scholar's Mate\"},"                                           \
    "\"sides\":{\"first\":{\"variant\":\"Chess\"},\"second\":{\"variant\":\"Chess\"}},"   \
    "\"setup\":{\"feen\":\"-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / C/c\"}," \
    "\"plies\":[{\"pmn\":\"e2-e4\"},{\"pmn\":\"e7-e5\"},{\"pmn\":\"f1-c4\"},{\"pmn\":\"b8-c6\"}," \
    "{\"pmn\":\"d1-h5\"},{\"pmn\":\"g8-f6\",\"assessment\":\"blunder\"},"                \
    "{\"pmn\":\"h5+f7\",\"check\":true,\"mate\":true}],"                                 \
    "\"outcome\":{\"result\":\"1-0\"}}"

/* The valid records (every example of the PCN specification, every field of its
 * layout) are cases of tests/spec/pcn.tsv, as are the invalid ones with their
 * codes, lines, columns and messages (test_spec.c); here what the records read
 * and write. */

/* Compact output keeps key order, integers, reals, escapes. */
static void test_compact_output(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        { SCHOLAR, SCHOLAR },
        { "{ \"z\" : 1 ,\n \"setup\" : { \"feen\" : \"K / C/c\" } , \"a\" : [ 1.5 , 2 , -0 , 1E2 ] }",
          "{\"z\":1,\"setup\":{\"feen\":\"K / C/c\"},\"a\":[1.5,2,0,100.0]}" },
        { "{\"setup\":{\"feen\":\"K / C/c\"},\"s\":\"\\u00e9\\u014c\\/\\t\\u0001\"}",
          "{\"setup\":{\"feen\":\"K / C/c\"},\"s\":\"\xc3\xa9\xc5\x8c/\\t\\u0001\"}" },
        { "{\"setup\":{\"feen\":\"K / C/c\"},\"n\":[9223372036854775807,-9223372036854775808,0.1]}",
          "{\"setup\":{\"feen\":\"K / C/c\"},\"n\":[9223372036854775807,-9223372036854775808,0.10000000000000001]}" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_pcn *p = json_ok(cases[i].in);
        char *s = compact(p);
        assert_string_equal(s, cases[i].out);
        free(s);
        koma_pcn_free(p);
    }
}

/* The byte offset is set too, and a message quotes bad bytes printably. */
static void test_error_offset(void **state)
{
    (void)state;
    static const char text[] = "{\"setup\":{\"feen\":\"K / C/c\"},\n\"plies\":[{\"pmn\":\"\\u00e9\\n\"}]}";
    koma_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(koma_pcn_parse_json(LIT(text), &(koma_pcn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_PLY_PMN);
    assert_int_equal(e.offset, 45);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 17);
    assert_non_null(strstr(e.message, "invalid PMN \"\xc3\xa9\\x0a\" at /plies/0/pmn"));
}

/* ---- limits ------------------------------------------------------------------------ */

static char *nested(const char *head, size_t depth, const char *tail)
{
    size_t n = strlen(head) + 2 * depth + strlen(tail) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    strcpy(s, head);
    size_t o = strlen(head);
    for (size_t i = 0; i < depth; i++) s[o++] = '[';
    for (size_t i = 0; i < depth; i++) s[o++] = ']';
    strcpy(s + o, tail);
    return s;
}

static void test_depth(void **state)
{
    (void)state;
    /* the record is level 1: 63 arrays inside it make 64 levels */
    char *ok = nested("{\"setup\":{\"feen\":\"K / C/c\"},\"x\":", 63, "}");
    koma_pcn *p = json_ok(ok);
    koma_pcn_value v;
    assert_int_equal(koma_pcn_get(p, "/x/0/0/0", &v), KOMA_PCN_ARRAY);
    koma_pcn_free(p);
    free(ok);
    char *bad = nested("{\"setup\":{\"feen\":\"K / C/c\"},\"x\":", 64, "}");
    expect_error(KOMA_PCN_JSON, bad, strlen(bad), KOMA_E_PCN_DEPTH, 1, 33 + 63,
                 "nesting deeper than 64 levels");
    free(bad);
    /* checked before jansson: a deep and broken text is a depth error */
    char *broken = nested("{\"x\":", 100000, "");
    expect_error(KOMA_PCN_JSON, broken, strlen(broken), KOMA_E_PCN_DEPTH, 1, 6 + 63, NULL);
    free(broken);
    /* brackets inside strings do not count */
    char *strings = malloc(1000);
    strcpy(strings, "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":\"");
    for (int i = 0; i < 100; i++) strcat(strings, "[");
    strcat(strings, "\"}");
    p = json_ok(strings);
    koma_pcn_free(p);
    free(strings);
}

static char *plies_record(size_t n)
{
    static const char head[] = "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[";
    static const char ply[] = "{\"pmn\":\"...\"}";
    size_t cap = sizeof head + n * sizeof ply + 8;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t o = sizeof head - 1;
    memcpy(s, head, o);
    for (size_t i = 0; i < n; i++) {
        if (i) s[o++] = ',';
        memcpy(s + o, ply, sizeof ply - 1);
        o += sizeof ply - 1;
    }
    memcpy(s + o, "]}", 3);
    return s;
}

static void test_plies_limit(void **state)
{
    (void)state;
    char *s = plies_record(KOMA_LIMIT_PLIES);
    koma_pcn *p = json_ok(s);
    assert_int_equal(koma_pcn_ply_count(p), 65536);
    koma_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(koma_pcn_append_ply(p, LIT("..."), &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_PLIES_LIMIT);
    koma_pcn_free(p);
    free(s);
    s = plies_record(KOMA_LIMIT_PLIES + 1);
    /* the 65537th ply: 37 bytes of head, then 65536 plies of 13 bytes and a comma */
    expect_error(KOMA_PCN_JSON, s, strlen(s), KOMA_E_PCN_PLIES_LIMIT, 1, 37 + 65536 * 14 + 1,
                 "more than 65536 plies (ply 65537 at /plies/65536)");
    free(s);
}

/* Plies are counted while the text is read: a million are refused at the
 * 65537th, before the rest is built, in YAML too. */
static void test_plies_counted_while_parsing(void **state)
{
    (void)state;
    char *s = plies_record(1000000);
    expect_error(KOMA_PCN_JSON, s, strlen(s), KOMA_E_PCN_PLIES_LIMIT, 1, 37 + 65536 * 14 + 1,
                 "more than 65536 plies");
    free(s);
    static const char head[] = "setup: {feen: 'k/K / K/k'}\nplies:\n", ply[] = "- pmn: e3-e4\n";
    size_t n = 70000, len = sizeof head - 1 + n * (sizeof ply - 1);
    s = malloc(len + 1);
    assert_non_null(s);
    memcpy(s, head, sizeof head - 1);
    for (size_t i = 0; i < n; i++) memcpy(s + sizeof head - 1 + i * (sizeof ply - 1), ply, sizeof ply - 1);
    s[len] = '\0';
    expect_error(KOMA_PCN_YAML, s, len, KOMA_E_PCN_PLIES_LIMIT, 3 + 65536, 3, "more than 65536 plies");
    free(s);
}

/* The tree a record builds is bounded (KOMA_LIMIT_TREE), whatever its shape:
 * empty objects cost ~200 bytes each for 3 bytes of text. */
static void test_memory_limit(void **state)
{
    (void)state;
    static const char head[] = "{\"x\":[";
    size_t n = 400000, len = sizeof head - 1 + n * 3 + 1;
    char *s = malloc(len + 1);
    assert_non_null(s);
    memcpy(s, head, sizeof head - 1);
    for (size_t i = 0; i < n; i++) memcpy(s + sizeof head - 1 + 3 * i, i + 1 < n ? "{}," : "{}]", 3);
    s[len - 1] = '}';
    s[len] = '\0';
    koma_error e;
    memset(&e, 0, sizeof e);
    for (int fmt = 0; fmt < 2; fmt++) {
        if (fmt) memcpy(s, "{x:  [", 6);   /* the same as YAML flow */
        assert_int_equal(koma_pcn_parse(fmt ? KOMA_PCN_YAML : KOMA_PCN_JSON, s, len, 0, &(koma_pcn *){NULL}, &e), -1);
        assert_int_equal(e.code, KOMA_E_PCN_MEMORY_LIMIT);
        assert_int_equal(e.line, 1);
        if (!(e.column > 100000 && e.column < len)) print_error("fmt %d: %lu:%lu %s\n", fmt, e.line, e.column, e.message);
        assert_true(e.column > 100000 && e.column < len);
    }
    free(s);
    /* a tenth of it is read (and found invalid for want of a setup) */
    s = malloc(len + 1);
    assert_non_null(s);
    n /= 10;
    memcpy(s, head, sizeof head - 1);
    for (size_t i = 0; i < n; i++) memcpy(s + sizeof head - 1 + 3 * i, i + 1 < n ? "{}," : "{}]", 3);
    memcpy(s + sizeof head - 1 + 3 * n, "}", 2);
    assert_int_equal(koma_pcn_parse(KOMA_PCN_JSON, s, strlen(s), 0, &(koma_pcn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_REQUIRED);
    free(s);
}

static void test_size_limit(void **state)
{
    (void)state;
    size_t n = KOMA_LIMIT_RECORD + 1;
    char *s = malloc(n);
    assert_non_null(s);
    memset(s, ' ', n);
    memcpy(s, "{\"setup\":{\"feen\":\"K / C/c\"}}", 28);
    expect_error(KOMA_PCN_JSON, s, n, KOMA_E_PCN_SIZE, 1, KOMA_LIMIT_RECORD + 1, "exceeds 16 MiB");
    expect_error(KOMA_PCN_YAML, s, n, KOMA_E_PCN_SIZE, 1, KOMA_LIMIT_RECORD + 1, "exceeds 16 MiB");
    /* exactly at the limit: fine */
    koma_pcn *p = parse_ok(KOMA_PCN_JSON, s, n - 1, 0);
    koma_pcn_free(p);
    free(s);
}

/* ---- flags -------------------------------------------------------------------------- */

static void test_flags(void **state)
{
    (void)state;
    static const char loose_feen[] = "{\"setup\":{\"feen\":\"8/8/8/8/8/8/8/8 PpP/p C/c\"}}";
    static const char seed_pmn[] = "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e7-e8/+P\"},{\"pmn\":7}]}";
    static const char wrong[] = "{\"setup\":1,\"outcome\":{\"result\":\"9-9\"}}";
    expect_error(KOMA_PCN_JSON, LIT(loose_feen), KOMA_E_PCN_SETUP_FEEN, 1, 18, "feen.hand.aggregate");
    koma_pcn *p = parse_ok(KOMA_PCN_JSON, LIT(loose_feen), KOMA_PCN_FEEN_NORMALISE);
    koma_pcn_free(p);

    koma_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(koma_pcn_parse(KOMA_PCN_JSON, LIT(seed_pmn), KOMA_PCN_NO_PMN, &(koma_pcn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_TYPE);          /* types are still checked */
    assert_int_equal(e.column, 64);
    static const char seed_ok[] = "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e7-e8/+P\"}]}";
    p = parse_ok(KOMA_PCN_JSON, LIT(seed_ok), KOMA_PCN_NO_PMN);
    assert_int_equal(koma_pcn_validate(p, KOMA_PCN_NO_PMN, &e), 0);
    assert_int_equal(koma_pcn_validate(p, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_PLY_PMN);
    assert_int_equal(e.line, 0);
    assert_int_equal(e.column, 0);
    assert_non_null(strstr(e.message, "invalid PMN \"e7-e8/+P\" at /plies/0/pmn"));
    koma_pcn_free(p);

    /* NO_VALIDATE: syntax only; accessors read what fits */
    p = parse_ok(KOMA_PCN_JSON, LIT(wrong), KOMA_PCN_NO_VALIDATE);
    assert_null(koma_pcn_setup_feen(p, NULL));
    assert_int_equal(koma_pcn_ply_count(p), 0);
    assert_string_equal(koma_pcn_outcome_result(p), "9-9");
    assert_int_equal(koma_pcn_validate(p, 0, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_TYPE);
    assert_non_null(strstr(e.message, "expected an object, found an integer at /setup"));
    koma_pcn_free(p);
    /* but limits and duplicates still apply */
    memset(&e, 0, sizeof e);
    assert_int_equal(koma_pcn_parse(KOMA_PCN_JSON, LIT("{\"a\":1,\"a\":1}"), KOMA_PCN_NO_VALIDATE, &(koma_pcn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_DUPLICATE);
}

/* ---- accessors -------------------------------------------------------------------- */

static void test_accessors(void **state)
{
    (void)state;
    koma_pcn *p = json_ok(SCHOLAR);
    size_t len = 0;
    const char *feen = koma_pcn_setup_feen(p, &len);
    assert_string_equal(feen, "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / C/c");
    assert_int_equal(len, strlen(feen));
    assert_int_equal(koma_pcn_ply_count(p), 7);
    assert_string_equal(koma_pcn_ply_pmn(p, 0, &len), "e2-e4");
    assert_int_equal(len, 5);
    assert_string_equal(koma_pcn_ply_pmn(p, 6, NULL), "h5+f7");
    assert_null(koma_pcn_ply_pmn(p, 7, NULL));
    assert_string_equal(koma_pcn_ply_string(p, 5, "assessment", &len), "blunder");
    assert_null(koma_pcn_ply_string(p, 4, "assessment", NULL));
    assert_null(koma_pcn_ply_string(p, 6, "check", NULL));
    assert_int_equal(koma_pcn_ply_flag(p, 6, "check"), 1);
    assert_int_equal(koma_pcn_ply_flag(p, 6, "mate"), 1);
    assert_int_equal(koma_pcn_ply_flag(p, 5, "mate"), -1);
    uint64_t ms = 77;
    assert_int_equal(koma_pcn_ply_elapsed_ms(p, 0, &ms), 0);
    assert_int_equal(ms, 77);
    assert_int_equal(koma_pcn_has_outcome(p), 1);
    assert_string_equal(koma_pcn_outcome_result(p), "1-0");
    assert_null(koma_pcn_outcome_status(p));
    uint64_t ply = 99;
    assert_int_equal(koma_pcn_outcome_ply(p, &ply), 0);
    assert_string_equal(koma_pcn_meta(p, "name", &len), "Scholar's Mate");
    assert_null(koma_pcn_meta(p, "event", NULL));
    assert_string_equal(koma_pcn_side(p, KOMA_FIRST, "variant", NULL), "Chess");
    assert_string_equal(koma_pcn_side(p, KOMA_SECOND, "variant", NULL), "Chess");
    assert_null(koma_pcn_side(p, 2, "variant", NULL));
    assert_null(koma_pcn_side(p, KOMA_FIRST, "name", NULL));

    koma_pcn_value v;
    assert_int_equal(koma_pcn_get(p, "", &v), KOMA_PCN_OBJECT);
    assert_int_equal(v.len, 5);
    assert_int_equal(koma_pcn_get(p, "/plies", &v), KOMA_PCN_ARRAY);
    assert_int_equal(v.len, 7);
    assert_int_equal(koma_pcn_get(p, "/plies/6/mate", &v), KOMA_PCN_BOOL);
    assert_int_equal(v.boolean, 1);
    assert_int_equal(koma_pcn_get(p, "/plies/6/pmn", &v), KOMA_PCN_STRING);
    assert_int_equal(v.len, 5);
    assert_memory_equal(v.string, "h5+f7", 5);
    assert_int_equal(koma_pcn_get(p, "/plies/07", &v), KOMA_PCN_ABSENT);
    assert_int_equal(koma_pcn_get(p, "/plies/-1", &v), KOMA_PCN_ABSENT);
    assert_int_equal(koma_pcn_get(p, "/plies/7", &v), KOMA_PCN_ABSENT);
    assert_int_equal(koma_pcn_get(p, "plies", &v), KOMA_PCN_ABSENT);
    assert_int_equal(koma_pcn_get(p, "/setup/feen/x", &v), KOMA_PCN_ABSENT);
    assert_int_equal(koma_pcn_get(p, "/nothing", NULL), KOMA_PCN_ABSENT);
    assert_string_equal(koma_pcn_key(p, "", 0, &len), "meta");
    assert_string_equal(koma_pcn_key(p, "", 4, &len), "outcome");
    assert_int_equal(len, 7);
    assert_null(koma_pcn_key(p, "", 5, NULL));
    assert_null(koma_pcn_key(p, "/plies", 0, NULL));
    assert_string_equal(koma_pcn_key(p, "/plies/5", 1, NULL), "assessment");
    koma_pcn_free(p);

    p = json_ok("{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"...\",\"elapsed_ms\":2400},"
                "{\"pmn\":\"...\",\"elapsed_ms\":3e3,\"check\":false}],"
                "\"outcome\":{\"status\":\"resignation\",\"ply\":2},\"a~/b\":{\"\":[1.5,null,-7]}}");
    assert_int_equal(koma_pcn_ply_elapsed_ms(p, 0, &ms), 1);
    assert_int_equal(ms, 2400);
    assert_int_equal(koma_pcn_ply_elapsed_ms(p, 1, &ms), 1);
    assert_int_equal(ms, 3000);
    assert_int_equal(koma_pcn_ply_flag(p, 1, "check"), 0);
    assert_string_equal(koma_pcn_outcome_status(p), "resignation");
    assert_null(koma_pcn_outcome_result(p));
    assert_int_equal(koma_pcn_outcome_ply(p, &ply), 1);
    assert_int_equal(ply, 2);
    assert_int_equal(koma_pcn_get(p, "/a~0~1b//0", &v), KOMA_PCN_REAL);
    assert_true(v.real == 1.5);
    assert_int_equal(koma_pcn_get(p, "/a~0~1b//1", &v), KOMA_PCN_NULL);
    assert_int_equal(koma_pcn_get(p, "/a~0~1b//2", &v), KOMA_PCN_INTEGER);
    assert_int_equal(v.integer, -7);
    assert_int_equal(koma_pcn_get(p, "/a~2b", &v), KOMA_PCN_ABSENT);
    koma_pcn_free(p);

    /* NULL records read as empty */
    assert_null(koma_pcn_setup_feen(NULL, NULL));
    assert_int_equal(koma_pcn_ply_count(NULL), 0);
    assert_int_equal(koma_pcn_has_outcome(NULL), 0);
    assert_int_equal(koma_pcn_get(NULL, "", &v), KOMA_PCN_ABSENT);
    koma_pcn_free(NULL);
}

/* ---- setters ------------------------------------------------------------------------ */

static void test_setters(void **state)
{
    (void)state;
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn *p = json_ok("{\"setup\":{\"feen\":\"K / C/c\"},\"x\":1}");
    assert_int_equal(koma_pcn_set_outcome_status(p, LIT("checkmate"), &e), 0);
    assert_int_equal(koma_pcn_set_outcome_ply(p, 0, &e), 0);
    assert_int_equal(koma_pcn_set_outcome_result(p, LIT("0-1"), &e), 0);
    char *s = compact(p);
    assert_string_equal(s, "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":1,"
                           "\"outcome\":{\"status\":\"checkmate\",\"ply\":0,\"result\":\"0-1\"}}");
    free(s);
    /* replacing keeps the place */
    assert_int_equal(koma_pcn_set_outcome_status(p, LIT("stalemate"), &e), 0);
    assert_int_equal(koma_pcn_set_outcome_ply(p, 12, &e), 0);
    s = compact(p);
    assert_string_equal(s, "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":1,"
                           "\"outcome\":{\"status\":\"stalemate\",\"ply\":12,\"result\":\"0-1\"}}");
    free(s);
    /* invalid values are refused and change nothing */
    assert_int_equal(koma_pcn_set_outcome_result(p, LIT("2-0"), &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_OUTCOME_RESULT);
    assert_int_equal(koma_pcn_set_outcome_status(p, LIT("stale mate"), &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_OUTCOME_STATUS);
    assert_int_equal(koma_pcn_set_outcome_ply(p, (uint64_t)1 << 63, &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_NUMBER);
    /* removing */
    assert_int_equal(koma_pcn_set_outcome_status(p, NULL, 0, &e), 0);
    assert_int_equal(koma_pcn_unset_outcome_ply(p), 0);
    assert_int_equal(koma_pcn_append_ply(p, LIT("e2-e4"), &e), 0);
    assert_int_equal(koma_pcn_append_ply(p, LIT("e2e4"), &e), -1);
    assert_int_equal(e.code, KOMA_E_PMN_SYNTAX);
    s = compact(p);
    assert_string_equal(s, "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":1,\"outcome\":{\"result\":\"0-1\"},"
                           "\"plies\":[{\"pmn\":\"e2-e4\"}]}");
    free(s);
    assert_int_equal(koma_pcn_set_outcome_result(p, NULL, 0, &e), 0);
    s = compact(p);
    assert_string_equal(s, "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":1,\"outcome\":{},"
                           "\"plies\":[{\"pmn\":\"e2-e4\"}]}");
    free(s);
    assert_int_equal(koma_pcn_validate(p, 0, &e), 0);
    koma_pcn_free(p);

    /* a record whose outcome is not an object (read without validation) */
    p = parse_ok(KOMA_PCN_JSON, LIT("{\"outcome\":[],\"plies\":{}}"), KOMA_PCN_NO_VALIDATE);
    assert_int_equal(koma_pcn_set_outcome_result(p, LIT("1-0"), &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_TYPE);
    assert_int_equal(koma_pcn_append_ply(p, LIT("..."), &e), -1);
    assert_int_equal(e.code, KOMA_E_PCN_TYPE);
    koma_pcn_free(p);

    /* new and copy */
    assert_int_equal(koma_pcn_new(LIT("K PP/ C/c"), &(koma_pcn *){NULL}, &e), -1);
    assert_int_equal(e.code, KOMA_E_FEEN_HAND_AGGREGATE);
    koma_pcn_new(LIT("lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"), &p, &e);
    assert_non_null(p);
    assert_int_equal(koma_pcn_append_ply(p, LIT("e3-e4"), &e), 0);
    koma_pcn *q = NULL;
    koma_pcn_copy(p, &q, &e);
    assert_int_equal(koma_pcn_equal(p, q), 1);
    assert_int_equal(koma_pcn_set_outcome_result(q, LIT("1-0"), &e), 0);
    assert_int_equal(koma_pcn_equal(p, q), 0);
    s = compact(p);
    assert_string_equal(s, "{\"setup\":{\"feen\":\"lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o\"},"
                           "\"plies\":[{\"pmn\":\"e3-e4\"}]}");
    free(s);
    koma_pcn_free(p);
    koma_pcn_free(q);
}

static void test_equal(void **state)
{
    (void)state;
    koma_pcn *a = json_ok("{\"setup\":{\"feen\":\"K / C/c\"},\"a\":1,\"b\":[0.0]}");
    koma_pcn *b = json_ok("{\"setup\":{\"feen\":\"K / C/c\"},\"b\":[0.0],\"a\":1}");
    koma_pcn *c = json_ok("{\"setup\":{\"feen\":\"K / C/c\"},\"a\":1,\"b\":[-0.0]}");
    koma_pcn *d = json_ok("{\"setup\":{\"feen\":\"K / C/c\"},\"a\":1,\"b\":[0]}");
    koma_pcn *a2 = json_ok(" {\"setup\":{\"feen\":\"K / C/c\"}, \"a\":1, \"b\":[0e0]}");
    assert_int_equal(koma_pcn_equal(a, a2), 1);
    assert_int_equal(koma_pcn_equal(a, b), 0);          /* member order matters */
    assert_int_equal(koma_pcn_equal(a, c), 0);          /* 0.0 and -0.0 print differently */
    assert_int_equal(koma_pcn_equal(a, d), 0);          /* 0.0 is not 0 */
    assert_int_equal(koma_pcn_equal(NULL, NULL), 1);
    assert_int_equal(koma_pcn_equal(a, NULL), 0);
    koma_pcn_free(a);
    koma_pcn_free(a2);
    koma_pcn_free(b);
    koma_pcn_free(c);
    koma_pcn_free(d);
}

/* ---- writers ------------------------------------------------------------------------ */

static void test_write_pretty(void **state)
{
    (void)state;
    koma_pcn *p = json_ok("{\"meta\":{\"name\":\"x\"},\"setup\":{\"feen\":\"K / C/c\"},"
                          "\"plies\":[{\"pmn\":\"...\",\"check\":true}],\"outcome\":{}}");
    char *s = write_text(p, KOMA_PCN_JSON, KOMA_PCN_PRETTY);
    assert_string_equal(s, "{\n"
                           "  \"meta\": {\n"
                           "    \"name\": \"x\"\n"
                           "  },\n"
                           "  \"setup\": {\n"
                           "    \"feen\": \"K / C/c\"\n"
                           "  },\n"
                           "  \"plies\": [\n"
                           "    {\n"
                           "      \"pmn\": \"...\",\n"
                           "      \"check\": true\n"
                           "    }\n"
                           "  ],\n"
                           "  \"outcome\": {}\n"
                           "}\n");
    /* pretty JSON reads back to the same record */
    koma_pcn *q = json_ok(s);
    assert_int_equal(koma_pcn_equal(p, q), 1);
    koma_pcn_free(q);
    free(s);
    koma_pcn_free(p);
}

static void test_write_yaml_text(void **state)
{
    (void)state;
    koma_pcn *p = json_ok(
        "{\"meta\":{\"name\":\"Scholar's Mate\",\"round\":\"12\",\"started_at\":\"2026-08-21T09:30:00Z\"},"
        "\"setup\":{\"feen\":\"8/8/8/8/8/8/8/8 / C/c\"},"
        "\"plies\":[{\"pmn\":\"...\",\"elapsed_ms\":2400,\"comment\":\"a: b\"},{\"pmn\":\"P*e5\"},{\"pmn\":\"+d4\"}],"
        "\"outcome\":{\"result\":\"1/2-1/2\",\"status\":\"agreement\",\"ply\":2},"
        "\"x\":[null,true,false,1.5,-3,\"\",\"null\",\"~\",\"true\",\"False\",\"12\",\"0x1F\",\".5\",\"1e3\","
        "\".inf\",\"-.Inf\",\".NaN\",\"yes\",\"off\",\"1-0\",\"line\\nbreak\",\"tab\\t\",\" lead\",\"trail \","
        "\"\xc5\x8cgi\",\"#c\",\"- x\",\"{}\",\"[a]\",\"&a\",\"*a\",\"!t\",\"%p\",\"@\",\"`\",\"'q'\",\"\\\"q\\\"\","
        "\"\xc2\x85\",\"\\u2028\",\"\\u007f\"],"
        "\"12\":{\"\":[],\"true\":{}}}");
    char *s = write_text(p, KOMA_PCN_YAML, 0);
    assert_string_equal(s,
        "---\n"
        "meta:\n"
        "  name: Scholar's Mate\n"
        "  round: '12'\n"
        "  started_at: '2026-08-21T09:30:00Z'\n"
        "setup:\n"
        "  feen: 8/8/8/8/8/8/8/8 / C/c\n"
        "plies:\n"
        "- pmn: '...'\n"
        "  elapsed_ms: 2400\n"
        "  comment: 'a: b'\n"
        "- pmn: P*e5\n"
        "- pmn: +d4\n"
        "outcome:\n"
        "  result: 1/2-1/2\n"
        "  status: agreement\n"
        "  ply: 2\n"
        "x:\n"
        "- null\n"
        "- true\n"
        "- false\n"
        "- 1.5\n"
        "- -3\n"
        "- ''\n"
        "- 'null'\n"
        "- '~'\n"
        "- 'true'\n"
        "- 'False'\n"
        "- '12'\n"
        "- '0x1F'\n"
        "- '.5'\n"
        "- '1e3'\n"
        "- '.inf'\n"
        "- '-.Inf'\n"
        "- '.NaN'\n"
        "- 'yes'\n"
        "- 'off'\n"
        "- '1-0'\n"
        "- \"line\\nbreak\"\n"
        "- \"tab\\t\"\n"
        "- ' lead'\n"
        "- 'trail '\n"
        "- \xc5\x8cgi\n"
        "- '#c'\n"
        "- '- x'\n"
        "- '{}'\n"
        "- '[a]'\n"
        "- '&a'\n"
        "- '*a'\n"
        "- '!t'\n"
        "- '%p'\n"
        "- '@'\n"
        "- '`'\n"
        "- '''q'''\n"
        "- '\"q\"'\n"
        "- \"\\N\"\n"
        "- \"\\L\"\n"
        "- \"\\x7F\"\n"
        "'12':\n"
        "  '': []\n"
        "  'true': {}\n");
    /* and it reads back to the same tree */
    koma_pcn *q = parse_ok(KOMA_PCN_YAML, s, strlen(s), 0);
    assert_int_equal(koma_pcn_equal(p, q), 1);
    koma_pcn_free(q);
    free(s);
    koma_pcn_free(p);
}

static void test_write_buffer_append(void **state)
{
    (void)state;
    koma_pcn *p = json_ok("{\"setup\":{\"feen\":\"K / C/c\"}}");
    koma_buffer b = { 0 };
    koma_error e;
    for (int i = 0; i < 3; i++) assert_int_equal(koma_pcn_write_json(p, 0, &b, &e), 0);
    assert_string_equal(b.data, "{\"setup\":{\"feen\":\"K / C/c\"}}\n{\"setup\":{\"feen\":\"K / C/c\"}}\n"
                                "{\"setup\":{\"feen\":\"K / C/c\"}}\n");
    b.len = 0;
    assert_int_equal(koma_pcn_write_yaml(p, 0, &b, &e), 0);
    assert_int_equal(koma_pcn_write_yaml(p, 0, &b, &e), 0);
    assert_string_equal(b.data, "---\nsetup:\n  feen: K / C/c\n---\nsetup:\n  feen: K / C/c\n");
    koma_buffer_cleanup(&b);
    assert_null(b.data);
    koma_buffer_cleanup(NULL);

    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(koma_pcn_fwrite(p, KOMA_PCN_JSON, 0, f, &e), 0);
    assert_int_equal(koma_pcn_fwrite(p, KOMA_PCN_YAML, 0, f, &e), 0);
    rewind(f);
    char buf[200];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    assert_string_equal(buf, "{\"setup\":{\"feen\":\"K / C/c\"}}\n---\nsetup:\n  feen: K / C/c\n");
    fclose(f);
    koma_pcn_free(p);
}

/* ---- round trips over the samples ------------------------------------------------- */

/* JSON -> YAML -> JSON of one line: byte-identical; returns 1 when the line is valid. */
static int round_trip_line(const char *line, size_t len)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn *p = NULL;
    koma_pcn_parse_json(line, len, &p, &e);
    if (p == NULL) return 0;
    char *json = write_text(p, KOMA_PCN_JSON, 0);
    char *yaml = write_text(p, KOMA_PCN_YAML, 0);
    koma_pcn *q = parse_ok(KOMA_PCN_YAML, yaml, strlen(yaml), 0);
    char *json2 = write_text(q, KOMA_PCN_JSON, 0);
    assert_string_equal(json, json2);
    /* and the pretty form too */
    char *pretty = write_text(q, KOMA_PCN_JSON, KOMA_PCN_PRETTY);
    koma_pcn *r = json_ok(pretty);
    char *json3 = write_text(r, KOMA_PCN_JSON, 0);
    assert_string_equal(json, json3);
    free(json);
    free(json2);
    free(json3);
    free(yaml);
    free(pretty);
    koma_pcn_free(p);
    koma_pcn_free(q);
    koma_pcn_free(r);
    return 1;
}

static size_t round_trip_file(const char *path, int all_valid)
{
    size_t len, valid = 0;
    char *text = read_file(path, &len);
    char *s = text;
    while (*s) {
        char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        int ok = round_trip_line(s, n);
        if (all_valid) assert_true(ok);
        valid += (size_t)ok;
        if (ok) {
            /* the samples are compact already: the output is the line itself */
            koma_pcn *p = json_ok_n(s, n);
            char *c = compact(p);
            if (all_valid) {
                assert_int_equal(strlen(c), n);
                assert_memory_equal(c, s, n);
            }
            free(c);
            koma_pcn_free(p);
        }
        s += n + (nl != NULL);
    }
    free(text);
    return valid;
}

static void test_round_trip_samples(void **state)
{
    (void)state;
    assert_int_equal(round_trip_file(SAMPLES "games.jsonl", 1), 120);
    assert_int_equal(round_trip_file(SAMPLES "mixed.jsonl", 0), 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact_output),
        cmocka_unit_test(test_error_offset),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_plies_limit),
        cmocka_unit_test(test_plies_counted_while_parsing),
        cmocka_unit_test(test_memory_limit),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_accessors),
        cmocka_unit_test(test_setters),
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_write_pretty),
        cmocka_unit_test(test_write_yaml_text),
        cmocka_unit_test(test_write_buffer_append),
        cmocka_unit_test(test_round_trip_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
