/*
 * tests/unit/test_util_json_alloc.c — the memory budget of a record (lib/util_json_alloc.c)
 * counts the record, not the heap: every block gives back what it was charged,
 * and where a record passes the budget (pcn.memory.limit: valid or not, and the
 * column) is the same whatever the C library's heap held before.
 *
 * The budget once counted the chunks the C library handed out, whose
 * sizes depend on the heap's history (blocks mapped on their own pages past a
 * threshold the library moves, remainders too small to split off); the same
 * 16 MiB record was refused at column 0x9db82 in one run and 0x9db85 in
 * another. mallopt changes the heap's behaviour between the reads here, so this
 * binary runs on its own.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include "unit.h"
#include "util_json_alloc.h"

typedef struct verdict {
    int valid;
    koma_code code;
    unsigned long line, column;
} verdict;

static verdict read_record(const char *s, size_t len)
{
    koma_error e;
    koma_error_clear(&e);
    koma_pcn *p = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s, len, 0, &p, &e);
    verdict v = { p != NULL, e.code, e.line, e.column };
    koma_pcn_free(p);
    return v;
}

/* {"setup":...,"x":[item,item,...]} with n items */
static char *record_of(const char *item, size_t n, size_t *len)
{
    static const char head[] = "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":[";
    size_t m = strlen(item), cap = sizeof head + n * (m + 1) + 4;
    char *s = malloc(cap);
    assert_non_null(s);
    memcpy(s, head, sizeof head - 1);
    size_t k = sizeof head - 1;
    for (size_t i = 0; i < n; i++) {
        if (i) s[k++] = ',';
        memcpy(s + k, item, m);
        k += m;
    }
    memcpy(s + k, "]}", 2);
    *len = k + 2;
    return s;
}

/* The heaps the same records are read on. */
enum { HEAP_AS_IS, HEAP_SMALL_MMAP, HEAP_NO_MMAP, HEAP_HOLES, HEAPS };
static const char *const heap_name[HEAPS] = {"as is", "mmap from 4 KiB", "no mmap", "holes"};

static void **holes;
#define NHOLES 200000

static void heap_enter(int h)
{
    switch (h) {
    case HEAP_SMALL_MMAP: mallopt(M_MMAP_THRESHOLD, 4096); break;
    case HEAP_NO_MMAP: mallopt(M_MMAP_THRESHOLD, 64 << 20); break;
    case HEAP_HOLES:
        /* blocks of many sizes, every other one freed: free chunks that a
         * request may take whole rather than split */
        holes = calloc(NHOLES, sizeof *holes);
        assert_non_null(holes);
        for (size_t i = 0; i < NHOLES; i++) {
            holes[i] = malloc(24 + (i * 37) % 280);
            assert_non_null(holes[i]);
        }
        for (size_t i = 0; i < NHOLES; i += 2) {
            free(holes[i]);
            holes[i] = NULL;
        }
        break;
    default: break;
    }
}

static void heap_leave(int h)
{
    if (h == HEAP_SMALL_MMAP || h == HEAP_NO_MMAP) mallopt(M_MMAP_THRESHOLD, 128 << 10);
    if (h == HEAP_HOLES) {
        for (size_t i = 0; i < NHOLES; i++) free(holes[i]);
        free(holes);
        holes = NULL;
    }
}

static void assert_same(const verdict *a, const verdict *b, const char *what, int h)
{
    if (a->valid != b->valid || a->code != b->code || a->line != b->line ||
        a->column != b->column)
        print_error("%s on the heap %s: %s %s %lu:%lu, as is: %s %s %lu:%lu\n", what,
                    heap_name[h], b->valid ? "valid" : "invalid", koma_code_name(b->code),
                    b->line, b->column, a->valid ? "valid" : "invalid", koma_code_name(a->code),
                    a->line, a->column);
    assert_int_equal(a->valid, b->valid);
    assert_int_equal(a->code, b->code);
    assert_int_equal(a->line, b->line);
    assert_int_equal(a->column, b->column);
}

/* The largest record of {} the budget takes, one item more, and 16 MiB of {}:
 * the same verdicts on every heap. */
static void test_heap_history(void **state)
{
    (void)state;
    static const char *const items[] = {"{}", "[1]", "\"abc\""};
    for (size_t t = 0; t < sizeof items / sizeof *items; t++) {
        size_t lo = 0, hi = (KOMA_LIMIT_RECORD - 64) / (strlen(items[t]) + 1), len;
        char *s = record_of(items[t], hi, &len);
        verdict whole = read_record(s, len);
        free(s);
        assert_false(whole.valid);
        assert_int_equal(whole.code, KOMA_E_PCN_MEMORY_LIMIT);
        /* the most items taken */
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            s = record_of(items[t], mid, &len);
            if (read_record(s, len).valid) lo = mid;
            else hi = mid - 1;
            free(s);
        }
        char *at = record_of(items[t], lo, &len);
        size_t at_len = len;
        char *past = record_of(items[t], lo + 1, &len);
        size_t past_len = len;
        verdict v_at = read_record(at, at_len), v_past = read_record(past, past_len);
        assert_true(v_at.valid);
        assert_int_equal(v_past.code, KOMA_E_PCN_MEMORY_LIMIT);
        s = record_of(items[t], (KOMA_LIMIT_RECORD - 64) / (strlen(items[t]) + 1), &len);
        for (int h = 1; h < HEAPS; h++) {
            heap_enter(h);
            verdict a = read_record(at, at_len), p = read_record(past, past_len),
                    w = read_record(s, len);
            heap_leave(h);
            assert_same(&v_at, &a, "the largest record taken", h);
            assert_same(&v_past, &p, "one item more", h);
            assert_same(&whole, &w, "16 MiB", h);
        }
        free(s);
        free(at);
        free(past);
    }
}

#define BIG ((size_t)1 << 30)

/* item x n, read under the budget that is on (it takes n x 64 bytes at least) */
static json_t *load_under_budget(const char *item, size_t n)
{
    size_t len;
    char *s = record_of(item, n, &len);
    size_t before = koma__json_budget_left();
    json_error_t jerr;
    int oom = 0;
    json_t *v = koma__json_loadb(s, len, 0, &jerr, &oom);
    free(s);
    assert_non_null(v);
    assert_int_equal(oom, 0);
    assert_true(koma__json_budget_left() < before - n * 64);
    return v;
}

/* A tree built and freed under a budget gives back exactly what it took: a
 * value held meanwhile keeps its charge outstanding, so a block giving back
 * more than it took would show (the count never rises past the budget's start,
 * which would hide it otherwise). */
static void build_and_free(const char *item, size_t n)
{
    koma__json_budget_start(BIG);
    json_t *sentinel = json_string("held meanwhile");
    assert_non_null(sentinel);
    size_t held = BIG - koma__json_budget_left();
    json_decref(load_under_budget(item, n));
    assert_int_equal(koma__json_budget_left(), BIG - held);
    json_decref(sentinel);
    assert_int_equal(koma__json_budget_left(), BIG);
    koma__json_budget_stop();
}

/* ... also when nearly every block is one whose cost the C library cannot tell
 * back (on pages of its own, heap_map_new_blocks), so that the table of such
 * blocks grows, shrinks and goes. */
static void test_all_given_back(void **state)
{
    (void)state;
    static const char item[] = "{\"a\":[1,2,3],\"b\":\"a string of some length\"}";
    build_and_free(item, 20000);
    heap_map_new_blocks(1);
    build_and_free(item, 3000);
    heap_map_new_blocks(0);
    build_and_free(item, 20000);
}

/* A tree built under a budget outlives it: freed after, and in another thread. */
static void *free_tree(void *v)
{
    json_decref(v);
    return NULL;
}

static void test_tree_outlives_budget(void **state)
{
    (void)state;
    static const char item[] = "[\"x\",{\"k\":null}]";
    heap_map_new_blocks(1);
    koma__json_budget_start(BIG);
    json_t *v = load_under_budget(item, 5000);
    koma__json_budget_stop();
    json_decref(v);
    koma__json_budget_start(BIG);
    v = load_under_budget(item, 5000);
    koma__json_budget_stop();
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, free_tree, v), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    /* the blocks the other thread freed are not charged again, nor given back
     * twice: a tree built and freed here still gives back exactly its cost */
    build_and_free(item, 5000);
    heap_map_new_blocks(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_history),
        cmocka_unit_test(test_all_given_back),
        cmocka_unit_test(test_tree_outlives_budget),
    };
    return cmocka_run_group_tests_name("json_alloc", tests, NULL, NULL);
}
