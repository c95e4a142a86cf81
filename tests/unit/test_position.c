/* tests/unit/test_position.c — positions and hands. */
#include "unit.h"

#include <stdlib.h>

/* a constant expression, usable in static tables */
#define PC(c) ((koma_piece)((c) >= 'a' ? ((c) - 'a' + 1) | KOMA_PIECE_SECOND : (c) - 'A' + 1))
#define ENH KOMA_PIECE_ENHANCED
#define DIM KOMA_PIECE_DIMINISHED
#define TER KOMA_PIECE_TERMINAL
#define DER KOMA_PIECE_DERIVED

static void assert_hand_sorted(const koma_hand *h)
{
    for (size_t i = 0; i < h->len; i++) {
        assert_true(h->items[i].count >= 1);
        if (i > 0)
            assert_true(koma_piece_hand_key(h->items[i - 1].piece) <
                        koma_piece_hand_key(h->items[i].piece));
    }
}

static void test_hand_add_count(void **state)
{
    (void)state;
    koma_hand h = {NULL, 0, 0};
    koma_error err;
    assert_int_equal(koma_hand_count(&h, PC('P')), 0);
    assert_int_equal(koma_hand_total(&h), 0);
    /* insertion in any order keeps the hand sorted, one item per identity */
    static const koma_piece pieces[] = {
        PC('P'), PC('b'), PC('P') | ENH, PC('A'), PC('P') | DIM, PC('p'), PC('K') | TER,
        PC('K') | TER | DER, PC('K') | DER, PC('K'), PC('z'), PC('Z'), PC('B'),
    };
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        assert_int_equal(koma_hand_add(&h, pieces[i], (uint32_t)(i + 1), &err), 0);
        assert_hand_sorted(&h);
    }
    assert_int_equal(h.len, sizeof pieces / sizeof *pieces);
    uint64_t total = 0;
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        assert_int_equal(koma_hand_count(&h, pieces[i]), i + 1);
        total += i + 1;
    }
    assert_int_equal(koma_hand_total(&h), total);
    assert_int_equal(h.items[0].piece, PC('A'));
    assert_int_equal(h.items[1].piece, PC('B'));
    assert_int_equal(h.items[2].piece, PC('b'));
    /* adding again merges */
    assert_int_equal(koma_hand_add(&h, PC('P'), 5, &err), 0);
    assert_int_equal(koma_hand_count(&h, PC('P')), 6);
    assert_int_equal(h.len, sizeof pieces / sizeof *pieces);
    /* n == 0 is a no-op */
    assert_int_equal(koma_hand_add(&h, PC('Q'), 0, &err), 0);
    assert_int_equal(koma_hand_count(&h, PC('Q')), 0);
    assert_int_equal(h.len, sizeof pieces / sizeof *pieces);
    /* absent identities */
    assert_int_equal(koma_hand_count(&h, PC('Q')), 0);
    assert_int_equal(koma_hand_count(&h, PC('P') | TER), 0);
    assert_int_equal(koma_hand_count(NULL, PC('P')), 0);
    assert_int_equal(koma_hand_total(NULL), 0);

    koma_hand_clear(&h);
    assert_int_equal(h.len, 0);
    assert_int_equal(koma_hand_count(&h, PC('P')), 0);
    koma_hand_clear(NULL);
    free(h.items);
}

static void test_hand_add_errors(void **state)
{
    (void)state;
    koma_hand h = {NULL, 0, 0};
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_hand_add(&h, KOMA_PIECE_NONE, 1, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    assert_int_equal(koma_hand_add(&h, (koma_piece)27, 1, &err), -1);
    assert_int_equal(koma_hand_add(&h, PC('P') | ENH | DIM, 1, &err), -1);
    assert_int_equal(koma_hand_add(&h, (koma_piece)(PC('P') | 0x400), 1, NULL), -1);
    assert_int_equal(koma_hand_add(NULL, PC('P'), 1, NULL), -1);
    assert_int_equal(h.len, 0);
    /* overflow is refused, the hand untouched */
    assert_int_equal(koma_hand_add(&h, PC('P'), UINT32_MAX, &err), 0);
    assert_int_equal(koma_hand_add(&h, PC('P'), 1, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    assert_int_equal(koma_hand_count(&h, PC('P')), UINT32_MAX);
    assert_int_equal(koma_hand_add(&h, PC('p'), UINT32_MAX, &err), 0);
    assert_int_equal(koma_hand_total(&h), 2ull * UINT32_MAX);
    free(h.items);
}

static void test_hand_remove(void **state)
{
    (void)state;
    koma_hand h = {NULL, 0, 0};
    assert_int_equal(koma_hand_add(&h, PC('P'), 3, NULL), 0);
    assert_int_equal(koma_hand_add(&h, PC('B'), 1, NULL), 0);
    assert_int_equal(koma_hand_add(&h, PC('r'), 2, NULL), 0);
    /* too many, or absent: -1, hand untouched */
    assert_int_equal(koma_hand_remove(&h, PC('P'), 4), -1);
    assert_int_equal(koma_hand_remove(&h, PC('p'), 1), -1);
    assert_int_equal(koma_hand_remove(&h, PC('N'), 1), -1);
    assert_int_equal(koma_hand_remove(NULL, PC('N'), 1), -1);
    assert_int_equal(koma_hand_count(&h, PC('P')), 3);
    assert_int_equal(h.len, 3);
    /* partial, then to zero: the item goes */
    assert_int_equal(koma_hand_remove(&h, PC('P'), 2), 0);
    assert_int_equal(koma_hand_count(&h, PC('P')), 1);
    assert_int_equal(koma_hand_remove(&h, PC('P'), 0), 0);
    assert_int_equal(koma_hand_remove(&h, PC('P'), 1), 0);
    assert_int_equal(koma_hand_count(&h, PC('P')), 0);
    assert_int_equal(h.len, 2);
    assert_hand_sorted(&h);
    assert_int_equal(koma_hand_remove(&h, PC('B'), 1), 0);
    assert_int_equal(koma_hand_remove(&h, PC('r'), 2), 0);
    assert_int_equal(h.len, 0);
    assert_int_equal(koma_hand_total(&h), 0);
    assert_int_equal(koma_hand_remove(&h, PC('r'), 1), -1);
    /* and add again after emptying */
    assert_int_equal(koma_hand_add(&h, PC('r'), 1, NULL), 0);
    assert_int_equal(h.len, 1);
    free(h.items);
}

/* Add/remove through a parsed position; the FEEN follows. */
static void test_hand_in_feen(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);
    char buf[128];
    assert_int_equal(koma_feen_parse(LIT("8/8/8/8/8/8/8/8 3B2PNR/2qp C/c"), 0, &pos, NULL), 0);
    assert_int_equal(koma_hand_remove(&pos.hands[0], PC('B'), 1), 0);
    assert_int_equal(koma_hand_add(&pos.hands[1], PC('p'), 1, NULL), 0);
    assert_int_equal(koma_hand_add(&pos.hands[1], PC('p') | ENH, 1, NULL), 0);
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, "8/8/8/8/8/8/8/8 2B2PNR/2p2q+p C/c");
    assert_int_equal(koma_hand_remove(&pos.hands[0], PC('N'), 1), 0);
    assert_int_equal(koma_hand_remove(&pos.hands[0], PC('R'), 1), 0);
    assert_int_equal(koma_hand_remove(&pos.hands[1], PC('p'), 2), 0);
    assert_int_equal(koma_hand_remove(&pos.hands[1], PC('q'), 2), 0);
    assert_int_equal(koma_hand_remove(&pos.hands[1], PC('p') | ENH, 1), 0);
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, "8/8/8/8/8/8/8/8 2B2P/ C/c");
    assert_int_equal(koma_hand_remove(&pos.hands[0], PC('B'), 2), 0);
    assert_int_equal(koma_hand_remove(&pos.hands[0], PC('P'), 2), 0);
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, "8/8/8/8/8/8/8/8 / C/c");
    koma_position_cleanup(&pos);
}

static void test_init_cleanup(void **state)
{
    (void)state;
    koma_position pos;
    memset(&pos, 0xa5, sizeof pos);
    koma_position_init(&pos);
    assert_null(pos.board);
    assert_int_equal(pos.board_cap, 0);
    assert_int_equal(pos.shape.squares, 0);
    assert_int_equal(pos.hands[0].len, 0);
    assert_null(pos.hands[1].items);
    assert_int_equal(pos.turn, KOMA_FIRST);
    koma_position_cleanup(&pos);
    koma_position_cleanup(&pos);             /* twice is fine */
    koma_position_cleanup(NULL);
    koma_position_init(NULL);
    /* cleanup after use leaves an initialised position */
    assert_int_equal(koma_feen_parse(LIT("K / C/c"), 0, &pos, NULL), 0);
    koma_position_cleanup(&pos);
    assert_null(pos.board);
    assert_int_equal(pos.shape.squares, 0);
}

static void test_copy_equal(void **state)
{
    (void)state;
    static const char *const feens[] = {
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / o/O",
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/s",
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / S/o",
        "lnsik^'snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL P/ O/o",
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL /P O/o",
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL 2P/ O/o",
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL +P/ O/o",
        "8/8/8/8/8/8/8/8 / O/o",
        "16/16/16/16 / O/o",
        "64 / O/o",
        "4/4//4/4//4/4//4/4 / O/o",
        "8/8//8/8//8/8//8/8 / O/o",
        "K / C/c",
        "k / C/c",
    };
    const size_t n = sizeof feens / sizeof *feens;
    koma_position a, b, c;
    koma_position_init(&a);
    koma_position_init(&b);
    koma_position_init(&c);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(koma_feen_parse(feens[i], strlen(feens[i]), 0, &a, NULL), 0);
        assert_true(koma_position_equal(&a, &a));
        for (size_t j = 0; j < n; j++) {
            assert_int_equal(koma_feen_parse(feens[j], strlen(feens[j]), 0, &b, NULL), 0);
            assert_int_equal(koma_position_equal(&a, &b), i == j);
            assert_int_equal(koma_position_equal(&b, &a), i == j);
        }
        /* copy into a position holding something else (buffers reused or grown) */
        assert_int_equal(koma_position_copy(&c, &a, NULL), 0);
        assert_true(koma_position_equal(&c, &a));
        char x[256], y[256];
        koma_feen_write(&a, x, sizeof x);
        koma_feen_write(&c, y, sizeof y);
        assert_string_equal(x, y);
    }
    /* the copy is deep */
    assert_int_equal(koma_feen_parse(LIT("2 P/p C/c"), 0, &a, NULL), 0);
    assert_int_equal(koma_position_copy(&c, &a, NULL), 0);
    a.board[0] = PC('K');
    assert_int_equal(koma_hand_add(&a.hands[0], PC('P'), 1, NULL), 0);
    assert_false(koma_position_equal(&a, &c));
    char buf[64];
    koma_feen_write(&c, buf, sizeof buf);
    assert_string_equal(buf, "2 P/p C/c");
    /* self copy, NULLs */
    assert_int_equal(koma_position_copy(&c, &c, NULL), 0);
    koma_error err;
    assert_int_equal(koma_position_copy(NULL, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    assert_int_equal(koma_position_copy(&c, NULL, NULL), -1);
    assert_true(koma_position_equal(NULL, NULL));
    assert_false(koma_position_equal(&c, NULL));
    /* copy of an empty (initialised) position */
    koma_position e;
    koma_position_init(&e);
    assert_int_equal(koma_position_copy(&c, &e, NULL), 0);
    assert_true(koma_position_equal(&c, &e));
    koma_position_cleanup(&e);
    koma_position_cleanup(&a);
    koma_position_cleanup(&b);
    koma_position_cleanup(&c);
}

static void test_reset(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);
    koma_error err;
    assert_int_equal(koma_feen_parse(LIT("lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL P/p O/o"),
                                     0, &pos, NULL), 0);
    koma_shape s9 = {2, {9, 9, 0}, 0};        /* unused sizes and squares are recomputed */
    assert_int_equal(koma_position_reset(&pos, &s9, &err), 0);
    assert_int_equal(pos.shape.squares, 81);
    assert_int_equal(pos.shape.size[2], 1);
    assert_int_equal(pos.hands[0].len, 0);
    assert_int_equal(pos.hands[1].len, 0);
    assert_int_equal(pos.style[0], 'O');     /* styles and turn kept */
    for (int i = 0; i < 81; i++) assert_int_equal(pos.board[i], 0);
    char buf[64];
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, "9/9/9/9/9/9/9/9/9 / O/o");

    static const struct {
        koma_shape shape;
        koma_code code;
    } bad[] = {
        {{0, {8, 8, 1}, 64}, KOMA_E_FEEN_PLACEMENT_DIMENSIONS},
        {{4, {8, 8, 1}, 64}, KOMA_E_FEEN_PLACEMENT_DIMENSIONS},
        {{2, {0, 8, 1}, 0}, KOMA_E_FEEN_PLACEMENT_SIZE},
        {{2, {256, 8, 1}, 0}, KOMA_E_FEEN_PLACEMENT_SIZE},
        {{1, {256, 1, 1}, 0}, KOMA_E_FEEN_PLACEMENT_SIZE},
        {{3, {8, 8, 256}, 0}, KOMA_E_FEEN_PLACEMENT_SIZE},
        {{2, {8, 1, 1}, 8}, KOMA_E_FEEN_PLACEMENT_COHERENCE},
        {{3, {8, 1, 2}, 16}, KOMA_E_FEEN_PLACEMENT_COHERENCE},
        {{3, {8, 2, 1}, 16}, KOMA_E_FEEN_PLACEMENT_COHERENCE},
        {{3, {255, 255, 2}, 0}, KOMA_E_FEEN_PLACEMENT_SQUARES},
        {{3, {255, 3, 86}, 0}, KOMA_E_FEEN_PLACEMENT_SQUARES},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        koma_error_clear(&err);
        assert_int_equal(koma_position_reset(&pos, &bad[i].shape, &err), -1);
        assert_int_equal(err.code, bad[i].code);
        assert_int_equal(koma_position_reset(&pos, &bad[i].shape, NULL), -1);
    }
    /* a failed reset leaves the position as it was */
    assert_int_equal(pos.shape.squares, 81);
    assert_int_equal(koma_position_reset(NULL, &s9, NULL), -1);
    assert_int_equal(koma_position_reset(&pos, NULL, NULL), -1);

    /* the largest shapes */
    koma_shape big2 = {2, {255, 255, 1}, 65025};
    koma_shape big3 = {3, {255, 3, 85}, 65025};
    koma_shape line = {1, {255, 7, 7}, 255};
    assert_int_equal(koma_position_reset(&pos, &big2, NULL), 0);
    assert_int_equal(pos.shape.squares, 65025);
    assert_int_equal(koma_position_reset(&pos, &big3, NULL), 0);
    assert_int_equal(pos.shape.squares, 65025);
    assert_int_equal(koma_position_reset(&pos, &line, NULL), 0);
    assert_int_equal(pos.shape.squares, 255);
    assert_int_equal(pos.shape.size[1], 1);
    assert_int_equal(pos.shape.size[2], 1);
    koma_position_cleanup(&pos);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_add_count),
        cmocka_unit_test(test_hand_add_errors),
        cmocka_unit_test(test_hand_remove),
        cmocka_unit_test(test_hand_in_feen),
        cmocka_unit_test(test_init_cleanup),
        cmocka_unit_test(test_copy_equal),
        cmocka_unit_test(test_reset),
    };
    return cmocka_run_group_tests_name("position", tests, NULL, NULL);
}
