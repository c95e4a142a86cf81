/* tests/unit/test_repeats.c — the table of positions seen (koma/repeats.h,
 * lib/repeats.c): counts per position, each one's occurrences in order, the
 * list of repeated positions that have a FEEN (by first occurrence, the first
 * FEEN kept), a reset that forgets every position (also after a table too big
 * to keep), and positions keyed by the FID of their FEEN with every "'"
 * removed. */
#include <stdlib.h>

#include "unit.h"

static unsigned long count_of(koma_repeats *t, uint64_t key, unsigned long where)
{
    unsigned long n = 0;
    koma_error err;
    assert_int_equal(koma_repeats_add(t, key, where, &n, &err), 0);
    return n;
}

/* The occurrences of key as "w1 w2 ...". */
static void expect_where(const koma_repeats *t, uint64_t key, const char *want)
{
    koma_repeat r;
    assert_int_equal(koma_repeats_find(t, key, &r), 1);
    char got[256] = "";
    unsigned long w;
    size_t k = 0;
    while (koma_repeats_where(t, &r, &w)) k += (size_t)snprintf(got + k, sizeof got - k, "%s%lu", k ? " " : "", w);
    assert_string_equal(got, want);
}

static const char fid_a[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char fid_b[] = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

static void test_counts(void **state)
{
    (void)state;
    koma_repeats *t;
    koma_error err;
    assert_int_equal(koma_repeats_new(&t, &err), 0);
    koma_repeat r;
    assert_int_equal(koma_repeats_find(t, 10, &r), 0);    /* nothing noted yet */
    static const uint64_t keys[] = {10, 20, 10, 30, 10, 20};
    static const unsigned long counts[] = {1, 1, 2, 1, 3, 2};
    for (size_t i = 0; i < 6; i++) assert_int_equal(count_of(t, keys[i], 100 + i), counts[i]);
    assert_int_equal(koma_repeats_add(t, 40, 106, NULL, &err), 0);   /* count may be NULL */
    assert_int_equal(koma_repeats_total(t), 7);
    assert_int_equal(koma_repeats_find(t, 10, &r), 1);
    assert_int_equal(r.key, 10);
    assert_int_equal(r.count, 3);
    assert_int_equal(r.first, 100);
    assert_int_equal(r.last, 104);
    assert_null(r.feen);
    assert_null(r.fid);
    assert_int_equal(koma_repeats_find(t, 11, &r), 0);
    expect_where(t, 10, "100 102 104");
    expect_where(t, 20, "101 105");
    expect_where(t, 30, "103");

    /* listed: repeated and described, by first occurrence; the first FEEN kept */
    size_t n;
    assert_int_equal(koma_repeats_list(t, &n, &err), 0);
    assert_int_equal(n, 0);
    assert_int_equal(koma_repeats_attach_feen(t, 20, LIT("feen-b x"), fid_b, &err), 0);
    assert_int_equal(koma_repeats_attach_feen(t, 10, LIT("feen-a"), fid_a, &err), 0);
    assert_int_equal(koma_repeats_attach_feen(t, 10, LIT("another"), fid_b, &err), 0);
    assert_int_equal(koma_repeats_attach_feen(t, 30, LIT("once"), fid_b, &err), 0);
    assert_int_equal(koma_repeats_attach_feen(t, 99, LIT("never seen"), fid_b, &err), 0);
    assert_int_equal(koma_repeats_list(t, &n, &err), 0);
    assert_int_equal(n, 2);
    koma_repeats_at(t, 0, &r);
    assert_int_equal(r.key, 10);
    assert_string_equal(r.feen, "feen-a");
    assert_string_equal(r.fid, fid_a);
    unsigned long w;
    assert_int_equal(koma_repeats_where(t, &r, &w), 1);
    assert_int_equal(w, 100);
    koma_repeats_at(t, 1, &r);
    assert_int_equal(r.key, 20);
    assert_int_equal(r.count, 2);
    assert_string_equal(r.feen, "feen-b x");

    /* reset: every position forgotten, the table used again */
    koma_repeats_reset(t);
    assert_int_equal(koma_repeats_total(t), 0);
    assert_int_equal(koma_repeats_find(t, 10, &r), 0);
    assert_int_equal(koma_repeats_list(t, &n, &err), 0);
    assert_int_equal(n, 0);
    assert_int_equal(count_of(t, 10, 7), 1);
    assert_int_equal(count_of(t, 10, 8), 2);
    expect_where(t, 10, "7 8");
    assert_int_equal(koma_repeats_find(t, 10, &r), 1);
    assert_null(r.feen);                   /* the old FEEN went with the reset */
    koma_repeats_free(t);
}

/* More positions than the table keeps across a reset: all counted while the
 * table grows, none left after the reset. */
static void test_big(void **state)
{
    (void)state;
    koma_repeats *t;
    koma_error err;
    assert_int_equal(koma_repeats_new(&t, &err), 0);
    enum { N = 20000 };
    for (int round = 0; round < 2; round++) {
        for (uint64_t i = 0; i < N; i++)
            assert_int_equal(count_of(t, i * 0x9e3779b97f4a7c15ull, (unsigned long)i), 1);
        for (uint64_t i = 0; i < N; i += 7)
            assert_int_equal(count_of(t, i * 0x9e3779b97f4a7c15ull, N + (unsigned long)i), 2);
        assert_int_equal(koma_repeats_total(t), N + (N + 6) / 7);
        koma_repeat r;
        assert_int_equal(koma_repeats_find(t, 14 * 0x9e3779b97f4a7c15ull, &r), 1);
        assert_int_equal(r.count, 2);
        assert_int_equal(r.first, 14);
        assert_int_equal(r.last, N + 14);
        assert_int_equal(koma_repeats_find(t, 15 * 0x9e3779b97f4a7c15ull, &r), 1);
        assert_int_equal(r.count, 1);
        koma_repeats_reset(t);
        assert_int_equal(koma_repeats_find(t, 14 * 0x9e3779b97f4a7c15ull, &r), 0);
    }
    koma_repeats_free(t);
    koma_repeats_free(NULL);
}

/* Positions keyed by their FID: the same position found again whatever its "'"
 * marks, the second occurrence giving it its FEEN (stripped) and FID. */
static void test_positions(void **state)
{
    (void)state;
    koma_repeats *t;
    koma_error err;
    assert_int_equal(koma_repeats_new(&t, &err), 0);
    static const char *const feens[] = {
        "4k^3/8/8/8/8/8/8/4K^3 / O/o",
        "4k^3/8/8/8/8/8/8/3K^4 / o/O",
        "4k^3/8/8/8/8/8/8/4K^'3 / O/o",   /* the first again, with a derivation mark */
        "4k^3/8/8/8/8/8/8/4K^3 / O/o",
    };
    for (size_t i = 0; i < 4; i++) {
        koma_position pos;
        koma_position_init(&pos);
        if (koma_feen_parse(feens[i], strlen(feens[i]), 0, &pos, &err) != 0) fail_msg("%s: %s", feens[i], err.message);
        assert_int_equal(koma_repeats_add_position(t, &pos, i + 1, &err), 0);
        koma_position_cleanup(&pos);
    }
    size_t n;
    assert_int_equal(koma_repeats_list(t, &n, &err), 0);
    assert_int_equal(n, 1);
    koma_repeat r;
    koma_repeats_at(t, 0, &r);
    assert_int_equal(r.count, 3);
    assert_int_equal(r.first, 1);
    assert_int_equal(r.last, 4);
    assert_string_equal(r.feen, feens[0]);
    char fid[KOMA_FID_BUF];
    koma_fid_of(feens[0], strlen(feens[0]), fid);
    assert_string_equal(r.fid, fid);
    uint64_t key = 0;
    for (int i = 0; i < 16; i++) key = (key << 4) | (uint64_t)(fid[i] <= '9' ? fid[i] - '0' : fid[i] - 'a' + 10);
    assert_int_equal(r.key, key);
    expect_where(t, key, "1 3 4");
    koma_repeats_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_big),
        cmocka_unit_test(test_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
