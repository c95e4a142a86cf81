/* tests/unit/test_position_diff.c — lib/position_diff.c: what differs between two
 * positions, item by item, in the documented order, with its text. */
#include "unit.h"

typedef struct seen {
    char lines[64][64];
    size_t n;
    size_t stop_after;                 /* 0: never stop */
} seen;

static int collect(void *ctx, const koma_position_diff *d)
{
    seen *s = ctx;
    assert_true(s->n < 64);
    snprintf(s->lines[s->n++], sizeof s->lines[0], "%s: %s -> %s", d->label, d->text[0],
             d->text[1]);
    return s->stop_after && s->n == s->stop_after ? 7 : 0;   /* 7: any non-zero value */
}

static void pos(koma_position *p, const char *feen)
{
    koma_error err;
    koma_position_init(p);
    if (koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, p, &err) != 0) {
        print_error("%s: %s\n", feen, err.message);
        fail();
    }
}

/* The differences of a and b as "label: A -> B" lines, compared with want (NULL-ended). */
static void expect(const char *a, const char *b, const char *const *want)
{
    koma_position pa, pb;
    pos(&pa, a);
    pos(&pb, b);
    seen s = { .n = 0 };
    size_t n = 0, m = 0;
    assert_int_equal(koma_position_diff_walk(&pa, &pb, collect, &s, &n), 0);
    assert_int_equal(n, s.n);
    assert_int_equal(koma_position_diff_walk(&pa, &pb, NULL, NULL, &m), 0);
    assert_int_equal(m, n);
    size_t w = 0;
    for (; want[w]; w++) {
        if (w >= s.n) print_error("missing: %s\n", want[w]);
        assert_true(w < s.n);
        assert_string_equal(s.lines[w], want[w]);
    }
    for (size_t i = w; i < s.n; i++) print_error("extra: %s\n", s.lines[i]);
    assert_int_equal(s.n, w);
    koma_position_cleanup(&pa);
    koma_position_cleanup(&pb);
}

#define OGI "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"

static void test_same(void **state)
{
    (void)state;
    static const char *const none[] = {NULL};
    expect(OGI, OGI, none);
}

static void test_squares_in_feen_order(void **state)
{
    (void)state;
    /* e3-e4 then the reply d6-d5: rank 6 comes before rank 4 in FEEN order */
    static const char *const want[] = {"d6: p -> .", "d5: . -> p", "e4: . -> P", "e3: P -> .",
                                       NULL};
    expect(OGI, "lnsik^snl/1r4b1/ppp1pppp/3p4/4P3/PPPP1PPP/1B4R1/LNSIK^SNL / O/o", want);
}

static void test_turn_styles_hands(void **state)
{
    (void)state;
    static const char *const turn[] = {"side to move: first -> second", NULL};
    expect("K^7/8/8/8/8/8/8/7k^ / O/o", "K^7/8/8/8/8/8/8/7k^ / o/O", turn);
    static const char *const styles[] = {"first style: O -> S", "second style: o -> s", NULL};
    expect("K^7/8/8/8/8/8/8/7k^ / O/o", "K^7/8/8/8/8/8/8/7k^ / S/s", styles);
    /* hands merged in koma_piece_hand_key order (+P before P): +P only in b,
     * P 2 -> 1, b only in a (second hand) */
    static const char *const hands[] = {"first hand +P: 0 -> 1", "first hand P: 2 -> 1",
                                        "second hand b: 1 -> 0", NULL};
    expect("K^7/8/8/8/8/8/8/7k^ 2P/b O/o", "K^7/8/8/8/8/8/8/7k^ +PP/ O/o", hands);
}

static void test_shapes(void **state)
{
    (void)state;
    /* 2x2 against 3x2: the shape, then the squares of the 3x2 board; a square
     * only b has is "off" in a (its empty squares are no difference) */
    static const char *const want[] = {"board: 2x2 -> 3x2", "c2: off -> p", "b1: K -> .",
                                       "c1: off -> K", NULL};
    expect("2/1K / O/o", "2p/2K / O/o", want);
    /* different dimension counts: the shape only, then the rest */
    static const char *const dims[] = {"board: 2 -> 2x2", "side to move: first -> second", NULL};
    expect("K1 / O/o", "2/K1 / o/O", dims);
}

static void test_stop(void **state)
{
    (void)state;
    koma_position a, b;
    pos(&a, "K^7/8/8/8/8/8/8/7k^ 2P/b O/o");
    pos(&b, "8/8/8/8/8/8/8/8 / S/s");
    seen s = { .n = 0, .stop_after = 2 };
    size_t n = 0;
    assert_int_equal(koma_position_diff_walk(&a, &b, collect, &s, &n), 7);   /* collect's value */
    assert_int_equal(n, 2);
    assert_string_equal(s.lines[0], "a8: K^ -> .");
    koma_position_cleanup(&a);
    koma_position_cleanup(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same),
        cmocka_unit_test(test_squares_in_feen_order),
        cmocka_unit_test(test_turn_styles_hands),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
