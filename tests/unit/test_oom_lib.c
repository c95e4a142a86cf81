/* tests/unit/test_oom_lib.c — out of memory inside libkoma itself is a memory
 * error, never data: linked like the fault builds (tests/faults/failalloc.c wraps
 * malloc and its kin), each call below is made with its Nth allocation failing
 * (and with it the next one too: a fallback that allocates again), for every N
 * until a call needs no failing allocation. Each call either fails with
 * KOMA_E_MEMORY or gives exactly what it gives without failures. The cases are
 * the make faults findings that read a failed allocation as "not this": no
 * position in a diff, no handicap preset (KIF, CSA's PI, JKF), not FEEN so SFEN
 * (koma_convert_start), a JKF hand with a count left out; and the table of
 * blocks the memory budget keeps (lib/util_json_alloc.c), whose growth can fail. */
#include <stdlib.h>
#include "unit.h"
#include "util_json_alloc.h"

/* tests/faults/failalloc.c */
void koma_fault_arm(unsigned long n, unsigned long burst);
unsigned long koma_fault_count(void);

/* ---- koma_convert_start --------------------------------------------------------- */

static void test_convert_start(void **state)
{
    (void)state;
    static const char sfen[] = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    char good[KOMA_FEEN_MAX_LEN + 1], feen[KOMA_FEEN_MAX_LEN + 1];
    size_t n, gn;
    koma_error err;
    assert_int_equal(koma_convert_start(LIT(sfen), good, sizeof good, &gn, &err), 0);
    unsigned long mem = 0;
    for (unsigned long burst = 1; burst <= 2; burst++) {
        for (unsigned long at = 1;; at++) {
            koma_fault_arm(at, burst);
            int rc = koma_convert_start(LIT(sfen), feen, sizeof feen, &n, &err);
            unsigned long used = koma_fault_count();
            koma_fault_arm(0, 1);
            if (rc != 0) {
                if (err.code != KOMA_E_MEMORY)
                    print_error("allocation %lu (burst %lu): %s: %s\n", at, burst, koma_code_name(err.code),
                                err.message);
                assert_int_equal(err.code, KOMA_E_MEMORY);
                mem++;
            } else {
                assert_string_equal(feen, good);
            }
            if (used < at) break;
        }
    }
    assert_true(mem > 0);
}

/* ---- koma_pcn_diff_compare ------------------------------------------------------- */

typedef struct report {
    char text[2048];
    size_t len;
} report;

static int on_member(void *ctx, const koma_pcn_member_diff *m)
{
    report *r = ctx;
    char a[KOMA_FEEN_MAX_LEN + 1] = "", b[KOMA_FEEN_MAX_LEN + 1] = "";
    if (m->setup[0]) koma_feen_write(m->setup[0], a, sizeof a);
    if (m->setup[1]) koma_feen_write(m->setup[1], b, sizeof b);
    r->len += (size_t)snprintf(r->text + r->len, sizeof r->text - r->len, "%.*s [%s] [%s]\n",
                               (int)m->pointer_len, m->pointer, a, b);
    return 0;
}

/* The whole report of one comparison (fn's lines, then where the plies part). */
static int compare(const koma_pcn *a, const koma_pcn *b, report *r, koma_error *err)
{
    koma_pcn_diff d;
    koma_pcn_diff_init(&d);
    r->len = 0;
    r->text[0] = '\0';
    int rc = koma_pcn_diff_compare(&d, a, b, on_member, r, err);
    if (rc >= 0)
        r->len += (size_t)snprintf(r->text + r->len, sizeof r->text - r->len, "ply %zu %d%d [%s] [%s] %d\n",
                                   d.ply, d.known[0], d.known[1], d.feen[0], d.feen[1], d.same_position);
    koma_pcn_diff_cleanup(&d);
    return rc;
}

static void test_diff_setup(void **state)
{
    (void)state;
    static const char ja[] = "{\"setup\":{\"feen\":\"rbsgk^/4p/5/P4/K^GSBR P/ S/s\"},"
                             "\"plies\":[{\"pmn\":\"a2-a3\"},{\"pmn\":\"e4-e3\"},{\"pmn\":\"a3-a4\"}]}";
    static const char jb[] = "{\"setup\":{\"feen\":\"rbsgk^/4p/5/P4/K^GSBR 2P/ S/s\"},"
                             "\"plies\":[{\"pmn\":\"a2-a3\"},{\"pmn\":\"e4-e3\"},{\"pmn\":\"P*c3\"}]}";
    koma_error err;
    koma_pcn *a, *b;
    koma_pcn_parse_json(LIT(ja), &a, &err);
    koma_pcn_parse_json(LIT(jb), &b, &err);
    assert_non_null(a);
    assert_non_null(b);
    static report good, r;
    assert_int_equal(compare(a, b, &good, &err), 1);
    assert_non_null(strstr(good.text, "/setup/feen [rbsgk^"));
    unsigned long mem = 0;
    for (unsigned long burst = 1; burst <= 2; burst++) {
        for (unsigned long at = 1;; at++) {
            koma_fault_arm(at, burst);
            int rc = compare(a, b, &r, &err);
            unsigned long used = koma_fault_count();
            koma_fault_arm(0, 1);
            if (rc < 0) {
                assert_int_equal(err.code, KOMA_E_MEMORY);
                mem++;
            } else {
                if (strcmp(r.text, good.text) != 0) print_error("allocation %lu (burst %lu):\n%s", at, burst, r.text);
                assert_string_equal(r.text, good.text);
            }
            if (used < at) break;
        }
    }
    assert_true(mem > 0);
    koma_pcn_free(a);
    koma_pcn_free(b);
}

/* ---- the shogi-world writers: the handicap preset, JKF hands ---------------------- */

typedef struct out {
    char text[8192];
    int records, other;
    koma_code code;
} out;

static int on_event(void *ctx, const koma_convert_event *ev)
{
    out *o = ctx;
    if (ev->kind == KOMA_CONVERT_RECORD) {
        snprintf(o->text, sizeof o->text, "%.*s", (int)ev->len, ev->text);
        o->records++;
    } else {
        o->other++;
        o->code = ev->err->code;
    }
    return 0;
}

/* input (from) converted by a new converter into out; -1 with err when the
 * input failed */
static int convert(const koma_convert_options *o, const char *input, unsigned long at, unsigned long burst,
                   out *got, unsigned long *used, koma_error *err)
{
    koma_converter *cv = NULL;
    koma_converter_new(o, &cv, err);
    assert_non_null(cv);
    mem_src in = {input, strlen(input), 0, 4096};
    memset(got, 0, sizeof *got);
    koma_fault_arm(at, burst);
    int rc = koma_converter_input(cv, mem_read, &in, on_event, got, err);
    *used = koma_fault_count();
    koma_fault_arm(0, 1);
    koma_converter_free(cv);
    return rc;
}

/* input (from) converted to `to` with its Nth allocation failing, every N */
static void convert_each_point(const char *from, const char *input, const char *to)
{
    const koma_format *f = koma_format_find(from, strlen(from));
    const koma_format *t = koma_format_find(to, strlen(to));
    assert_non_null(f);
    assert_non_null(t);
    koma_convert_options o = {sizeof o, f, t, 0, 0, NULL, 0, NULL};
    koma_error err;
    static out good, got;
    unsigned long used;
    assert_int_equal(convert(&o, input, 0, 1, &good, &used, &err), 0);
    assert_int_equal(good.records, 1);
    assert_int_equal(good.other, 0);
    unsigned long mem = 0;
    for (unsigned long burst = 1; burst <= 2; burst++) {
        for (unsigned long at = 1;; at++) {
            int rc = convert(&o, input, at, burst, &got, &used, &err);
            if (rc != 0 || got.other) {
                koma_code c = rc != 0 ? err.code : got.code;
                if (c != KOMA_E_MEMORY) print_error("%s: allocation %lu (burst %lu): %s\n", to, at, burst, koma_code_name(c));
                assert_int_equal(c, KOMA_E_MEMORY);
                mem++;
            } else {
                if (strcmp(got.text, good.text) != 0)
                    print_error("%s: allocation %lu (burst %lu):\n%s\n", to, at, burst, got.text);
                assert_string_equal(got.text, good.text);
            }
            if (used < at) break;
        }
    }
    assert_true(mem > 0);
}

static const char handicap_kif[] = "手合割：香落ち\n上手：Uwate\n下手：Shitate\n手数----指手---------消費時間--\n"
                                   "   1 ３四歩(33)   ( 0:05/00:00:05)\n   2 ７六歩(77)   ( 0:10/00:00:10)\n"
                                   "   3 ８八角成(22)\n";
static const char even_pcn[] = "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
                               "\"plies\":[{\"pmn\":\"c3-c4\"}]}\n";
static const char hands_pcn[] = "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSN1 L/ S/s\"},"
                                "\"plies\":[{\"pmn\":\"L*a5\"}]}\n";

static void test_write_preset(void **state)
{
    (void)state;
    convert_each_point("kif", handicap_kif, "kif");
    convert_each_point("kif", handicap_kif, "csa");
    convert_each_point("kif", handicap_kif, "jkf");
    convert_each_point("pcn", even_pcn, "kif");
    convert_each_point("pcn", even_pcn, "jkf");
}

static void test_write_jkf_hands(void **state)
{
    (void)state;
    convert_each_point("pcn", hands_pcn, "jkf");
}

/* ---- the memory budget's table of blocks (util_json_alloc.c) -------------------------- */

/* New blocks on pages of their own (heap_map_new_blocks), so that nearly each
 * one the budget charges goes in its table: a failure there (the table's growth) is out of memory, never a
 * record past its budget, and every block gives back exactly what it took. A
 * value held through each read (sentinel) keeps its charge outstanding, so a
 * block that gave back more than it took would show (the budget's count never
 * rises past its start, which would hide it otherwise). */
static void test_budget_table(void **state)
{
    (void)state;
    static const char text[] = "[{\"a\":[1,2,3]},\"s\",{\"b\":{\"c\":[[],{}]}},4,5,6,7,8,9,10,11,12,13,"
                               "14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35]";
    const size_t budget = (size_t)1 << 20;
    json_error_t jerr;
    int oom;
    heap_map_new_blocks(1);
    /* read with no budget: its blocks stay out of the table, which each read
     * below then makes and grows anew */
    json_t *want = koma__json_loadb(LIT(text), 0, &jerr, &oom);
    assert_non_null(want);
    unsigned long mem = 0;
    for (unsigned long burst = 1; burst <= 2; burst++) {
        for (unsigned long at = 1;; at++) {
            koma__json_budget_start(budget);
            json_t *sentinel = json_string("held through the read");
            assert_non_null(sentinel);
            size_t held = budget - koma__json_budget_left();
            koma_fault_arm(at, burst);
            json_t *v = koma__json_loadb(LIT(text), 0, &jerr, &oom);
            unsigned long used = koma_fault_count();
            koma_fault_arm(0, 1);
            if (v == NULL) {
                assert_int_equal(oom, 1);
                assert_false(koma__json_budget_hit());
                mem++;
            } else {
                assert_true(json_equal(v, want));
                json_decref(v);
            }
            assert_int_equal(koma__json_budget_left(), budget - held);
            json_decref(sentinel);
            assert_int_equal(koma__json_budget_left(), budget);
            koma__json_budget_stop();
            if (used < at) break;
        }
    }
    heap_map_new_blocks(0);
    json_decref(want);
    assert_true(mem > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_convert_start),
        cmocka_unit_test(test_diff_setup),
        cmocka_unit_test(test_write_preset),
        cmocka_unit_test(test_write_jkf_hands),
        cmocka_unit_test(test_budget_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
