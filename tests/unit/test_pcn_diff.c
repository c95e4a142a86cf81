/* tests/unit/test_pcn_diff.c — lib/pcn_walk.c and lib/pcn_diff.c: the member walk
 * (order, pointers escaped once, stopping, pointers that do not resolve) and the
 * comparison of two records (members, then the plies: annotations of the plies
 * both share, where the move lists part and the positions there). */
#include <stdlib.h>
#include "unit.h"

static koma_pcn *rec(const char *json)
{
    koma_error e;
    koma_error_clear(&e);
    koma_pcn *p = NULL;
    koma_pcn_parse_json(json, strlen(json), &p, &e);
    if (p == NULL) print_error("%s: %s\n", json, e.message);
    assert_non_null(p);
    return p;
}

/* ---- walk ---------------------------------------------------------------------- */

typedef struct trace {
    char text[2048];
    size_t len;
    size_t stop_at;                    /* stop (return 7) at this node number, from 1 */
    size_t nodes;
} trace;

static int trace_node(void *ctx, const koma_pcn_node *n)
{
    trace *t = ctx;
    static const char *const step[] = {"leaf", "open", "close"};
    assert_int_equal(strlen(n->pointer), n->pointer_len);
    t->len += (size_t)snprintf(t->text + t->len, sizeof t->text - t->len, "%s %s %zu %zu%s%.*s\n",
                               step[n->step], n->pointer, n->depth, n->index, n->key ? " " : "",
                               (int)n->key_len, n->key ? n->key : "");
    assert_true(t->len < sizeof t->text);
    return ++t->nodes == t->stop_at ? 7 : 0;
}

static void test_walk(void **state)
{
    (void)state;
    koma_pcn *p = rec("{\"setup\":{\"feen\":\"K1/2 / O/o\"},\"a/b\":[1,{\"m~n\":true}],\"e\":{}}");
    trace t = { .len = 0 };
    koma_error err;
    assert_int_equal(koma_pcn_walk(p, "", trace_node, &t, &err), 0);
    assert_string_equal(t.text,
                        "open  0 0\n"
                        "open /setup 1 0 setup\n"
                        "leaf /setup/feen 2 0 feen\n"
                        "close /setup 1 0 setup\n"
                        "open /a~1b 1 1 a/b\n"
                        "leaf /a~1b/0 2 0\n"
                        "open /a~1b/1 2 1\n"
                        "leaf /a~1b/1/m~0n 3 0 m~n\n"
                        "close /a~1b/1 2 1\n"
                        "close /a~1b 1 1 a/b\n"
                        "open /e 1 2 e\n"
                        "close /e 1 2 e\n"
                        "close  0 0\n");
    /* from an escaped pointer: depth counts from there */
    t.len = t.nodes = 0;
    t.text[0] = '\0';
    assert_int_equal(koma_pcn_walk(p, "/a~1b/1", trace_node, &t, &err), 0);
    assert_string_equal(t.text, "open /a~1b/1 0 0\nleaf /a~1b/1/m~0n 1 0 m~n\nclose /a~1b/1 0 0\n");
    /* a pointer that does not resolve: one absent leaf */
    t.len = t.nodes = 0;
    assert_int_equal(koma_pcn_walk(p, "/nope/0", trace_node, &t, &err), 0);
    assert_string_equal(t.text, "leaf /nope/0 0 0\n");
    koma_pcn_value v;
    assert_int_equal(koma_pcn_get(p, "/a~1b/1/m~0n", &v), KOMA_PCN_BOOL);
    assert_int_equal(koma_pcn_get(p, "/a~1b/1/m~2n", &v), KOMA_PCN_ABSENT);
    /* the callback stops the walk with its own value */
    t.len = t.nodes = 0;
    t.stop_at = 3;
    assert_int_equal(koma_pcn_walk(p, NULL, trace_node, &t, &err), 7);
    assert_int_equal(t.nodes, 3);
    koma_pcn_free(p);
}

static int count_node(void *ctx, const koma_pcn_node *n)
{
    assert_int_equal(strlen(n->pointer), n->pointer_len);
    assert_true(n->value.type != KOMA_PCN_ABSENT);
    ++*(size_t *)ctx;
    return 0;
}

static void test_long_keys(void **state)
{
    (void)state;
    /* member names longer than any fixed buffer: pointers grow, and resolve back */
    size_t n = 5000;
    char *json = malloc(2 * n + 100);
    assert_non_null(json);
    int len = sprintf(json, "{\"setup\":{\"feen\":\"K1/2 / O/o\"},\"");
    for (size_t i = 0; i < n; i++) json[len++] = i % 2 ? '~' : 'x';
    len += sprintf(json + len, "\":[\"v\"]}");
    koma_pcn *p = rec(json);
    char *ptr = malloc(2 * n + 10);
    assert_non_null(ptr);
    size_t k = 0;
    ptr[k++] = '/';
    for (size_t i = 0; i < n; i++) {
        if (i % 2) {
            ptr[k++] = '~';
            ptr[k++] = '0';
        } else {
            ptr[k++] = 'x';
        }
    }
    strcpy(ptr + k, "/0");
    koma_pcn_value v;
    assert_int_equal(koma_pcn_get(p, ptr, &v), KOMA_PCN_STRING);
    koma_error err;
    size_t count = 0;
    assert_int_equal(koma_pcn_walk(p, ptr, count_node, &count, &err), 0);
    assert_int_equal(count, 1);
    count = 0;
    assert_int_equal(koma_pcn_walk(p, "", count_node, &count, &err), 0);
    assert_int_equal(count, 8);   /* { setup { feen } key [ "v" ] } */
    free(ptr);
    free(json);
    koma_pcn_free(p);
}

/* ---- diff ---------------------------------------------------------------------- */

typedef struct diffs {
    char text[2048];
    size_t len;
} diffs;

static int note(void *ctx, const koma_pcn_member_diff *d)
{
    diffs *s = ctx;
    static const char *const type[] = {"absent", "null", "bool", "integer", "real", "string",
                                       "array", "object"};
    s->len += (size_t)snprintf(s->text + s->len, sizeof s->text - s->len, "%s %s %s%s\n",
                               d->pointer, type[d->type[0]], type[d->type[1]],
                               d->setup[0] ? " positions" : "");
    assert_true(s->len < sizeof s->text);
    return 0;
}

/* The records of the last comparison (d points into them), freed by the next. */
static koma_pcn *last[2];

static int compare(koma_pcn_diff *d, const char *a, const char *b, diffs *s)
{
    koma_pcn_free(last[0]);
    koma_pcn_free(last[1]);
    last[0] = rec(a);
    last[1] = rec(b);
    koma_error err;
    s->len = 0;
    s->text[0] = '\0';
    int rc = koma_pcn_diff_compare(d, last[0], last[1], note, s, &err);
    assert_true(rc == 0 || rc == 1);
    return rc;
}

static int free_last(void **state)
{
    (void)state;
    koma_pcn_free(last[0]);
    koma_pcn_free(last[1]);
    last[0] = last[1] = NULL;
    return 0;
}

#define START "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"

static void test_diff_members(void **state)
{
    (void)state;
    koma_pcn_diff d;
    diffs s;
    koma_pcn_diff_init(&d);
    const char *a = "{\"meta\":{\"event\":\"x\",\"round\":\"1\"},\"setup\":{\"feen\":\"" START "\"}}";
    assert_int_equal(compare(&d, a, a, &s), 0);
    assert_string_equal(s.text, "");
    assert_int_equal(d.members, 0);
    assert_int_equal(d.ply, 0);
    /* a's members in a's order, then b's that a lacks; member order alone is no
     * difference; a key with '/' is escaped */
    const char *b = "{\"setup\":{\"feen\":\"" START "\"},\"a/b\":null,"
                    "\"meta\":{\"round\":\"2\",\"event\":\"x\",\"site\":\"y\"}}";
    assert_int_equal(compare(&d, a, b, &s), 1);
    assert_string_equal(s.text, "/meta/round string string\n/meta/site absent string\n"
                                "/a~1b absent null\n");
    assert_int_equal(d.members, 3);
    /* setup.feen: with the two positions when both are valid */
    const char *c = "{\"setup\":{\"feen\":\"K^7/8/8/8/8/8/8/7k^ / O/o\"}}";
    const char *e = "{\"setup\":{\"feen\":\"K^7/8/8/8/8/8/8/7k^ / o/O\"}}";
    assert_int_equal(compare(&d, c, e, &s), 1);
    assert_string_equal(s.text, "/setup/feen string string positions\n");
    koma_pcn_diff_cleanup(&d);
}

static void test_diff_plies(void **state)
{
    (void)state;
    koma_pcn_diff d;
    diffs s;
    koma_pcn_diff_init(&d);
    /* the same moves (a pieceless drop read as the one kind in hand): only the
     * annotations differ, ply by ply */
    const char *f = "K^7/8/8/8/8/8/8/7k^ P/p O/o";
    char a[512], b[512];
    snprintf(a, sizeof a, "{\"setup\":{\"feen\":\"%s\"},\"plies\":[{\"pmn\":\"P*e5\"},"
             "{\"pmn\":\"h1-h2\",\"comment\":\"x\"}]}", f);
    snprintf(b, sizeof b, "{\"setup\":{\"feen\":\"%s\"},\"plies\":[{\"pmn\":\"*e5\",\"elapsed_ms\":3},"
             "{\"pmn\":\"h1-h2\",\"comment\":\"y\"}]}", f);
    assert_int_equal(compare(&d, a, b, &s), 1);
    assert_string_equal(s.text, "/plies/0/elapsed_ms absent integer\n/plies/1/comment string string\n");
    assert_int_equal(d.ply, 0);
    assert_int_equal(d.plies[0], 2);
    assert_int_equal(d.plies[1], 2);
    /* the lists part at ply 2: the PMN of each, the position before it */
    snprintf(b, sizeof b, "{\"setup\":{\"feen\":\"%s\"},\"plies\":[{\"pmn\":\"P*e5\"},"
             "{\"pmn\":\"h1-g2\",\"comment\":\"y\"},{\"pmn\":\"a8-a7\"}]}", f);
    assert_int_equal(compare(&d, a, b, &s), 1);
    assert_string_equal(s.text, "");
    assert_int_equal(d.ply, 2);
    assert_int_equal(d.plies[1], 3);
    assert_memory_equal(d.pmn[0], "h1-h2", 5);
    assert_memory_equal(d.pmn[1], "h1-g2", 5);
    assert_true(d.known[0] && d.known[1] && d.same_position);
    assert_string_equal(d.feen[0], "K^7/8/8/4P3/8/8/8/7k^ /p o/O");
    assert_string_equal(d.feen[1], d.feen[0]);
    /* one list is a prefix of the other: it parts where the shorter ends */
    snprintf(b, sizeof b, "{\"setup\":{\"feen\":\"%s\"},\"plies\":[{\"pmn\":\"P*e5\"}]}", f);
    assert_int_equal(compare(&d, a, b, &s), 1);
    assert_int_equal(d.ply, 2);
    assert_non_null(d.pmn[0]);
    assert_null(d.pmn[1]);
    /* an unknown position (a move that cannot apply): known is 0, feen "" */
    snprintf(a, sizeof a, "{\"setup\":{\"feen\":\"%s\"},\"plies\":[{\"pmn\":\"c3-c4\"},"
             "{\"pmn\":\"h8-h7\"}]}", f);
    snprintf(b, sizeof b, "{\"setup\":{\"feen\":\"%s\"},\"plies\":[{\"pmn\":\"c3-c4\"}]}", f);
    assert_int_equal(compare(&d, a, b, &s), 1);
    assert_int_equal(d.ply, 2);
    assert_false(d.known[0] || d.known[1] || d.same_position);
    assert_string_equal(d.feen[0], "");
    koma_pcn_diff_cleanup(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_long_keys),
        cmocka_unit_test(test_diff_members),
        cmocka_unit_test(test_diff_plies),
    };
    return cmocka_run_group_tests(tests, NULL, free_last);
}
