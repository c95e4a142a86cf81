/* tests/unit/test_pcn_yaml.c — lib/pcn_yaml.c: PCN records as YAML. The YAML 1.2
 * core schema for plain scalars, tags, keys, duplicates, nesting (aliases
 * included), alias bombs, syntax errors and their byte positions, the writer's
 * quoting, and round trips. */
#include "unit.h"

#include <stdlib.h>

#define HEAD "setup: {feen: K / C/c}\n"

static koma_pcn *yaml_ok(const char *text)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn *p = NULL;
    koma_pcn_parse_yaml(text, strlen(text), &p, &e);
    if (p == NULL)
        print_error("unexpected error on %.300s: %s %lu:%lu %s\n", text, koma_code_name(e.code),
                    e.line, e.column, e.message);
    assert_non_null(p);
    assert_int_equal(e.code, KOMA_OK);
    return p;
}

static char *write_text(const koma_pcn *p, koma_pcn_format fmt)
{
    koma_buffer b = { 0 };
    koma_error e;
    assert_int_equal(koma_pcn_write(p, fmt, 0, &b, &e), 0);
    return b.data;
}

static char *compact(const koma_pcn *p)
{
    char *s = write_text(p, KOMA_PCN_JSON);
    s[strlen(s) - 1] = '\0';
    return s;
}

static void expect_error(const char *text, size_t len, koma_code code, unsigned long line,
                         unsigned long column, const char *needle)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    e.source = "src";
    koma_pcn *p = NULL;
    koma_pcn_parse(KOMA_PCN_YAML, text, len, 0, &p, &e);
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

/* ---- the YAML 1.2 core schema ------------------------------------------------------ */

typedef struct scalar_case {
    const char *yaml;              /* what follows "x: " */
    const char *json;              /* the value of x as compact JSON */
} scalar_case;

static const scalar_case scalars[] = {
    /* null */
    { "", "null" }, { "~", "null" }, { "null", "null" }, { "Null", "null" }, { "NULL", "null" },
    { "nULL", "\"nULL\"" }, { "nul", "\"nul\"" },
    /* booleans: three spellings each; YAML 1.1 words stay strings */
    { "true", "true" }, { "True", "true" }, { "TRUE", "true" }, { "tRUE", "\"tRUE\"" },
    { "false", "false" }, { "False", "false" }, { "FALSE", "false" },
    { "yes", "\"yes\"" }, { "No", "\"No\"" }, { "on", "\"on\"" }, { "OFF", "\"OFF\"" },
    { "y", "\"y\"" }, { "n", "\"n\"" },
    /* integers */
    { "0", "0" }, { "-0", "0" }, { "+12", "12" }, { "007", "7" }, { "-42", "-42" },
    { "9223372036854775807", "9223372036854775807" },
    { "-9223372036854775808", "-9223372036854775808" },
    { "0o17", "15" }, { "0o0", "0" }, { "0o", "\"0o\"" }, { "0o8", "\"0o8\"" },
    { "0x1F", "31" }, { "0xff", "255" }, { "0x7fffffffffffffff", "9223372036854775807" },
    { "0X1F", "\"0X1F\"" }, { "-0x1", "\"-0x1\"" }, { "0x", "\"0x\"" }, { "0xg", "\"0xg\"" },
    { "1_000", "\"1_000\"" }, { "0b101", "\"0b101\"" }, { "1:30", "\"1:30\"" },
    /* floats */
    { "1.5", "1.5" }, { ".5", "0.5" }, { "-.5", "-0.5" }, { "+.5", "0.5" }, { "1.", "1.0" },
    { "-1.", "-1.0" }, { "1e3", "1000.0" }, { "1E-3", "0.001" }, { "+1.5e+3", "1500.0" },
    { "-0.0", "-0.0" }, { "007.50", "7.5" }, { "1.e2", "100.0" }, { "1e-400", "0.0" },
    { "1e", "\"1e\"" }, { ".", "\".\"" }, { "-.", "\"-.\"" }, { "1.2.3", "\"1.2.3\"" },
    { ".e3", "\".e3\"" }, { "1e+", "\"1e+\"" }, { "inf", "\"inf\"" }, { ".Inf5", "\".Inf5\"" },
    { "nan", "\"nan\"" }, { "+.nan", "\"+.nan\"" },
    /* strings */
    { "e2-e4", "\"e2-e4\"" }, { "1-0", "\"1-0\"" }, { "1/2-1/2", "\"1/2-1/2\"" },
    { "2026-08-21", "\"2026-08-21\"" }, { "2026-08-21T09:30:00Z", "\"2026-08-21T09:30:00Z\"" },
    { "K / C/c", "\"K / C/c\"" }, { "a b  c", "\"a b  c\"" }, { "\xc5\x8cgi", "\"\xc5\x8cgi\"" },
    { "<<", "\"<<\"" }, { "=", "\"=\"" },
    /* quoted scalars stay strings */
    { "'12'", "\"12\"" }, { "\"true\"", "\"true\"" }, { "'null'", "\"null\"" }, { "''", "\"\"" },
    { "\"\"", "\"\"" }, { "'~'", "\"~\"" }, { "\"0x1F\"", "\"0x1F\"" }, { "'.inf'", "\".inf\"" },
    { "'it''s'", "\"it's\"" }, { "\"a\\tb\\u014C\\x41\\\"\"", "\"a\\tb\xc5\x8c" "A\\\"\"" },
    { "\"a\\\n  b\"", "\"ab\"" }, { "'a\n  b'", "\"a b\"" }, { "'a\n\n  b'", "\"a\\nb\"" },
    /* block scalars */
    { "|\n  a\n  b\n", "\"a\\nb\\n\"" }, { ">\n  a\n  b\n", "\"a b\\n\"" },
    { "|-\n  12\n", "\"12\"" }, { ">+\n  x\n\n", "\"x\\n\\n\\n\"" },
    /* explicit core tags */
    { "!!str 12", "\"12\"" }, { "!!str", "\"\"" }, { "!!str true", "\"true\"" }, { "! 12", "\"12\"" },
    { "!!int \"12\"", "12" }, { "!!int 0x10", "16" }, { "!!float 1", "1.0" },
    { "!!float \"2.5\"", "2.5" }, { "!!float -7", "-7.0" }, { "!!null ''", "null" },
    { "!!null ~", "null" }, { "!!bool True", "true" }, { "!<tag:yaml.org,2002:int> 3", "3" },
    { "!!seq [1]", "[1]" }, { "!!map {a: 1}", "{\"a\":1}" }, { "! [1]", "[1]" },
    /* collections */
    { "[]", "[]" }, { "{}", "{}" }, { "[1, a, \"b\", [null]]", "[1,\"a\",\"b\",[null]]" },
    { "\n  - 1\n  - two: 2\n    three: [3]\n", "[1,{\"two\":2,\"three\":[3]}]" },
    { "{1: a, true: b, null: c, ~: d, 0x10: e}", "{\"1\":\"a\",\"true\":\"b\",\"null\":\"c\",\"~\":\"d\",\"0x10\":\"e\"}" },
    { "{? a, b: }", "{\"a\":null,\"b\":null}" },
    /* anchors and aliases are copies */
    { "[&a 1, *a, &b [x, *a], *b, &a 2, *a]", "[1,1,[\"x\",1],[\"x\",1],2,2]" },
    { "{a: &k key, *k : v}", NULL },
};

static void test_core_schema(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        if (scalars[i].json == NULL) continue;
        char text[512], want[512];
        snprintf(text, sizeof text, HEAD "x: %s\n", scalars[i].yaml);
        snprintf(want, sizeof want, "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":%s}", scalars[i].json);
        koma_pcn *p = yaml_ok(text);
        char *got = compact(p);
        if (strcmp(got, want) != 0) print_error("x: %s\n", scalars[i].yaml);
        assert_string_equal(got, want);
        free(got);
        koma_pcn_free(p);
    }
}

/* Every string of the table, as a string, goes through the writer unchanged. */
static void test_strings_round_trip(void **state)
{
    (void)state;
    static const char *const extra[] = {
        "", " ", "  lead", "trail  ", "a\tb", "\t", "line\nbreak", "\r\n", "x\n", "\n\n",
        "#", "a #b", "a# b", "a: b", "a:b", "- x", "-x", "? x", "?x", ": x", ",", "[", "]", "{", "}",
        "&a", "*a", "!a", "|", ">", "'", "\"", "%", "@", "`", "\\", "\\n", "...", "---", "--- x",
        "\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xef\xbb\xbf", "\xef\xbf\xbe", "\x7f", "\x1b[0m",
        "\xc2\xa0", "a\xc2\xa0", "\xc2\x9f", "\xf0\x9f\x98\x80", "\xe9\xa7\x92", "K^'", "+K^'", "S*e5",
        "*d4", ".c3", "+d4", "iv256IV~iv256IV=+K^'/+K^'", "Yes", "NO", "On", "Off", "Y", "N",
        "0", "00", "1_0", "0b1", "0o7", "0x0", "1:2:3", "1.0", "-1", "+1", ".1", "1e1",
        "2026-08-21 09:30:00", "12:30", "Null", "NULL", "~", "null", "true", "False",
        ".inf", "-.inf", "+.INF", ".nan", ".NaN", "<<", "=",
    };
    for (size_t k = 0; k < 2; k++) {
        size_t n = k == 0 ? sizeof scalars / sizeof scalars[0] : sizeof extra / sizeof extra[0];
        for (size_t i = 0; i < n; i++) {
            const char *s = k == 0 ? scalars[i].yaml : extra[i];
            char json[2048], quoted[600];
            size_t q = 0;
            for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
                if (*c == '"' || *c == '\\') { quoted[q++] = '\\'; quoted[q++] = (char)*c; }
                else if (*c < 0x20 || *c == 0x7f) q += (size_t)snprintf(quoted + q, 8, "\\u%04x", *c);
                else quoted[q++] = (char)*c;
            }
            quoted[q] = '\0';
            snprintf(json, sizeof json,
                     "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"...\",\"comment\":\"%s\"}],"
                     "\"x\":[\"%s\"],\"%s\":0}", quoted, quoted, quoted);
            koma_error e;
            memset(&e, 0, sizeof e);
            koma_pcn *p = NULL;
            koma_pcn_parse_json(json, strlen(json), &p, &e);
            if (p == NULL) print_error("%s: %s\n", json, e.message);
            assert_non_null(p);
            char *yaml = write_text(p, KOMA_PCN_YAML);
            koma_pcn *r = NULL;
            koma_pcn_parse_yaml(yaml, strlen(yaml), &r, &e);
            if (r == NULL) print_error("%s\n%s: %s\n", json, yaml, e.message);
            assert_non_null(r);
            char *a = compact(p), *b = compact(r);
            if (strcmp(a, b) != 0) print_error("YAML:\n%s\n", yaml);
            assert_string_equal(a, b);
            free(a);
            free(b);
            free(yaml);
            koma_pcn_free(p);
            koma_pcn_free(r);
        }
    }
}

/* The invalid records, with their codes, lines, columns and messages, are cases of
 * tests/spec/pcn.tsv (test_spec.c). */

/* ---- limits ------------------------------------------------------------------------ */

static char *flow_nest(const char *head, size_t depth)
{
    char *s = malloc(strlen(head) + 2 * depth + 2);
    assert_non_null(s);
    strcpy(s, head);
    size_t o = strlen(head);
    for (size_t i = 0; i < depth; i++) s[o++] = '[';
    for (size_t i = 0; i < depth; i++) s[o++] = ']';
    s[o++] = '\n';
    s[o] = '\0';
    return s;
}

static void test_depth(void **state)
{
    (void)state;
    /* flow: the record is level 1 */
    char *s = flow_nest(HEAD "x: ", 63);
    koma_pcn *p = yaml_ok(s);
    koma_pcn_free(p);
    free(s);
    s = flow_nest(HEAD "x: ", 64);
    expect_error(s, strlen(s), KOMA_E_PCN_DEPTH, 2, 4 + 63, "nesting deeper than 64 levels");
    free(s);
    s = flow_nest(HEAD "x: ", 100000);            /* libyaml itself would not stop */
    expect_error(s, strlen(s), KOMA_E_PCN_DEPTH, 2, 4 + 63, NULL);
    free(s);

    /* block: HEAD, then m nested "k:" mappings, then "v: 1": 1 + m levels */
    for (int m = 63; m <= 64; m++) {
        char block[64 * 70];
        size_t o = (size_t)snprintf(block, sizeof block, "%s", HEAD);
        for (int i = 0; i <= m; i++) {
            for (int k = 0; k < i; k++) block[o++] = ' ';
            o += (size_t)snprintf(block + o, sizeof block - o, i < m ? "k:\n" : "v: 1\n");
        }
        if (m == 63) {
            p = yaml_ok(block);
            koma_pcn_free(p);
        } else {
            /* the 65th level is the mapping that starts at "v" */
            expect_error(block, strlen(block), KOMA_E_PCN_DEPTH, 66, 65, NULL);
        }
    }

    /* through aliases: an anchored value of height 10 used at level 55 and 56 */
    char text[2048];
    char *deep = flow_nest("", 10);
    deep[strlen(deep) - 1] = '\0';
    char *at55 = flow_nest("", 53);
    at55[strlen(at55) - 1] = '\0';
    /* put "*d" in the middle of 53 brackets: level 1 + 53, then height 10 = 64 */
    size_t half = strlen(at55) / 2;
    snprintf(text, sizeof text, HEAD "d: &d %s\nx: %.*s*d%s\n", deep, (int)half, at55, at55 + half);
    p = yaml_ok(text);
    /* x holds 53 + 10 arrays: /x and 62 times /0 reach the innermost, empty one */
    char ptr[200] = "/x";
    for (int i = 0; i < 62; i++) strcat(ptr, "/0");
    koma_pcn_value v;
    assert_int_equal(koma_pcn_get(p, ptr, &v), KOMA_PCN_ARRAY);
    assert_int_equal(v.len, 0);
    strcat(ptr, "/0");
    assert_int_equal(koma_pcn_get(p, ptr, &v), KOMA_PCN_ABSENT);
    koma_pcn_free(p);
    free(at55);
    at55 = flow_nest("", 54);
    at55[strlen(at55) - 1] = '\0';
    half = strlen(at55) / 2;
    snprintf(text, sizeof text, HEAD "d: &d %s\nx: %.*s*d%s\n", deep, (int)half, at55, at55 + half);
    expect_error(text, strlen(text), KOMA_E_PCN_DEPTH, 3, 4 + 54, "through an alias");
    free(at55);
    free(deep);
}

static void test_alias_bomb(void **state)
{
    (void)state;
    /* 9 levels of 9 aliases: 9^9 = 387 million strings if expanded */
    char text[4096];
    size_t o = (size_t)snprintf(text, sizeof text, HEAD "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (char c = 'b'; c <= 'i'; c++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n",
                              c, c, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1, c - 1);
    /* fails at the first alias whose expansion passes the bound: 16 MiB / (4 + 32) */
    expect_error(text, strlen(text), KOMA_E_PCN_SIZE, 7, 28, "aliases expand beyond 16 MiB");

    /* a quadratic bomb made of one long string */
    char *big = malloc(2 * 1024 * 1024);
    assert_non_null(big);
    o = (size_t)snprintf(big, 64, HEAD "s: &s ");
    memset(big + o, 'x', 1024 * 1024);
    o += 1024 * 1024;
    o += (size_t)snprintf(big + o, 200, "\nx: [*s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s]\n");
    /* the 15th alias: the anchor and 14 copies make 15 MiB, one more would pass 16 */
    expect_error(big, o, KOMA_E_PCN_SIZE, 3, 5 + 14 * 4, NULL);
    free(big);

    /* aliases that stay small are fine */
    koma_pcn *p = yaml_ok(HEAD "a: &a [1, 2]\nb: [*a, *a, *a]\n");
    char *s = compact(p);
    assert_string_equal(s, "{\"setup\":{\"feen\":\"K / C/c\"},\"a\":[1,2],\"b\":[[1,2],[1,2],[1,2]]}");
    free(s);
    koma_pcn_free(p);
}

/* An alias is a copy: changing the record later changes one place only. */
static void test_alias_copy(void **state)
{
    (void)state;
    koma_pcn *p = yaml_ok("setup: {feen: K / C/c}\noutcome: &o {result: 1-0}\nx: *o\n");
    koma_error e;
    assert_int_equal(koma_pcn_set_outcome_result(p, LIT("0-1"), &e), 0);
    char *s = compact(p);
    assert_string_equal(s, "{\"setup\":{\"feen\":\"K / C/c\"},\"outcome\":{\"result\":\"0-1\"},"
                           "\"x\":{\"result\":\"1-0\"}}");
    free(s);
    koma_pcn_free(p);
}

/* ---- records ------------------------------------------------------------------------ */

static void test_valid_records(void **state)
{
    (void)state;
    static const struct { const char *yaml, *json; } cases[] = {
        { "setup:\n  feen: 8/8/8/8/8/8/8/8 / C/c\n",
          "{\"setup\":{\"feen\":\"8/8/8/8/8/8/8/8 / C/c\"}}" },
        { "%YAML 1.2\n---\n# Scholar's mate\nmeta:\n  name: Scholar's Mate\nsides:\n"
          "  first: {variant: Chess}\n  second: {variant: Chess}\nsetup:\n"
          "  feen: -rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / C/c\n"
          "plies:\n- pmn: e2-e4\n- pmn: e7-e5\n- pmn: f1-c4\n- pmn: b8-c6\n- pmn: d1-h5\n"
          "- {pmn: g8-f6, assessment: blunder}\n- pmn: h5+f7\n  check: true\n  mate: true\n"
          "outcome:\n  result: 1-0\n...\n",
          "{\"meta\":{\"name\":\"Scholar's Mate\"},\"sides\":{\"first\":{\"variant\":\"Chess\"},"
          "\"second\":{\"variant\":\"Chess\"}},\"setup\":{\"feen\":\"-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/"
          "+P+P+P+P+P+P+P+P/-RNBQK^BN-R / C/c\"},\"plies\":[{\"pmn\":\"e2-e4\"},{\"pmn\":\"e7-e5\"},"
          "{\"pmn\":\"f1-c4\"},{\"pmn\":\"b8-c6\"},{\"pmn\":\"d1-h5\"},{\"pmn\":\"g8-f6\","
          "\"assessment\":\"blunder\"},{\"pmn\":\"h5+f7\",\"check\":true,\"mate\":true}],"
          "\"outcome\":{\"result\":\"1-0\"}}" },
        { "\xef\xbb\xbf{setup: {feen: \"K / C/c\"}, plies: [{pmn: '...', elapsed_ms: 0x10}], "
          "periods: [{duration_ms: 3e5}], outcome: {ply: 0o1}}",
          "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"...\",\"elapsed_ms\":16}],"
          "\"periods\":[{\"duration_ms\":300000.0}],\"outcome\":{\"ply\":1}}" },
        { "--- {setup: {feen: K / C/c}}\r\n...\r\n",
          "{\"setup\":{\"feen\":\"K / C/c\"}}" },
        { "meta:\n  started_at: 2026-08-21T09:30:00+09:00\n  round: \"3\"\nsetup: {feen: K / C/c}\n",
          "{\"meta\":{\"started_at\":\"2026-08-21T09:30:00+09:00\",\"round\":\"3\"},"
          "\"setup\":{\"feen\":\"K / C/c\"}}" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_pcn *p = yaml_ok(cases[i].yaml);
        char *s = compact(p);
        assert_string_equal(s, cases[i].json);
        free(s);
        koma_pcn_free(p);
    }
}

/* What the YAML writer writes reads back as the same tree, and as the same JSON. */
static void test_round_trip(void **state)
{
    (void)state;
    static const char *const records[] = {
        "{\"setup\":{\"feen\":\"K / C/c\"}}",
        "{\"meta\":{\"name\":\"\xc5\x8cgi \xe5\xb0\x86\xe6\xa3\x8b\",\"round\":\"007\"},\"setup\":{\"feen\":\"K / C/c\"},"
        "\"x\":[[],{},[[]],[{}],{\"a\":{}},0.1,1e300,-2.5e-300,123456789012345678,true,null,\"\"],"
        "\"\":{\"\":\"\"},\"plies\":[]}",
        "{\"setup\":{\"feen\":\"K / C/c\"},\"long\":\"" /* a long string is not folded */
        "aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff gggggggggg hhhhhhhhhh "
        "iiiiiiiiii jjjjjjjjjj kkkkkkkkkk llllllllll mmmmmmmmmm nnnnnnnnnn\","
        "\"long key long key long key long key long key long key long key long key long key long key "
        "long key long key long key long key long key long key long key long key\":1}",
    };
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        koma_error e;
        memset(&e, 0, sizeof e);
        koma_pcn *p = NULL;
        koma_pcn_parse_json(records[i], strlen(records[i]), &p, &e);
        assert_non_null(p);
        char *yaml = write_text(p, KOMA_PCN_YAML);
        koma_pcn *q = yaml_ok(yaml);
        assert_int_equal(koma_pcn_equal(p, q), 1);
        char *json = compact(q), *json0 = compact(p);
        assert_string_equal(json, json0);
        free(json0);
        /* the long string stays on one line */
        if (i == 2) assert_non_null(strstr(yaml, "aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee "
                                                 "ffffffffff gggggggggg hhhhhhhhhh iiiiiiiiii"));
        free(json);
        free(yaml);
        koma_pcn_free(p);
        koma_pcn_free(q);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core_schema),
        cmocka_unit_test(test_strings_round_trip),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_alias_bomb),
        cmocka_unit_test(test_alias_copy),
        cmocka_unit_test(test_valid_records),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
