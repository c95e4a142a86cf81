/*
 * tests/unit/test_engine_chain.c — a Ko shogi move of several elements is no one
 * PMN move: koma_engine_move_pmn refuses it (-1) rather than give its first
 * element, and koma_engine_move_write refuses a chain longer than a PMN move
 * rather than cut it; koma_engine_move_text writes any chain. A one-element move
 * (and every move of the other games) is a PMN move: koma_engine_move_pmn gives
 * it, and koma_engine_move_write writes the same text.
 */
#include <stdlib.h>
#include "unit.h"

/* A Ko shogi position (tests/koshogi/positions.feen) with a legal chain of 29
 * bytes: a shot at seven points. */
#define LONG_FEEN                                                                                   \
    "a2j1g2+N'k^3+T1j1t'a/a'6yb^5gq'1ha'/2xl2xl3l2elx1e/c1n1c8x4c/3psp1p3p2np3/1P'3s7s1s3/18s'/"   \
    "2p'2e8r4/1t6n5R4/19/1U12e1U1u/19/9V2S4p'1/9S'3S1P1S'1/5P1P1WNP1PN3X/2NS4+uP'NECEN1LH1/"       \
    "E6L1FNLX3Q'C1/A'H6DM^B^Y3J2A'/AT'+q4ZIK^OZWGG'3A "                                               \
    "5n5r2e2g'2+r2s2s'2w2zcdfhim^+n'n'opp'qq'+r'r'vy/4+R3E3R3S2C2N2Q2XGG'JL+N'PP'Q'+R'R'S'Y k/K"
#define LONG_CHAIN "i4+j3,+i2,+j2,+k2,+k3,+j4,+k4"
/* A gatling on g7 and a pawn on h15: the step to h8 and a shot, two elements. */
#define GATLING "18k^/19/19/19/7p11/19/19/19/19/19/19/19/6F12/19/19/19/19/19/K^18 / K/k"

/* The legal move of e whose chain text is `text`. */
static koma_emove find(koma_engine *e, const char *text)
{
    koma_emove *m = malloc(koma_engine_max_moves(e) * sizeof *m);
    assert_non_null(m);
    size_t n = koma_engine_legal_moves(e, m);
    for (size_t i = 0; i < n; i++) {
        char t[KOMA_MOVE_TEXT_BUF];
        koma_engine_move_text(e, m[i], t, sizeof t);
        if (strcmp(t, text) == 0) {
            koma_emove found = m[i];
            free(m);
            return found;
        }
    }
    print_error("no legal move %s\n", text);
    free(m);
    fail();
    return 0;
}

static void test_long_chain_refused(void **state)
{
    (void)state;
    koma_engine *e = engine_at("koshogi", LONG_FEEN);
    koma_emove m = find(e, LONG_CHAIN);
    koma_move mv;
    memset(&mv, 0xAB, sizeof mv);
    assert_int_equal(koma_engine_move_pmn(e, m, &mv), -1);
    assert_int_equal(mv.kind, 0);                  /* zeroed, not the first element */
    char buf[KOMA_PMN_BUF];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(koma_engine_move_write(e, m, buf), 0);
    assert_string_equal(buf, "");                  /* never a cut chain */
    char t[KOMA_MOVE_TEXT_BUF];
    assert_int_equal(koma_engine_move_text(e, m, t, sizeof t), strlen(LONG_CHAIN));
    assert_string_equal(t, LONG_CHAIN);
    koma_engine_free(e);
}

static void test_short_chain(void **state)
{
    (void)state;
    koma_engine *e = engine_at("koshogi", GATLING);
    /* two elements: no one PMN move, but its text fits a PMN buffer */
    koma_emove m = find(e, "g7-h8,+h15");
    koma_move mv;
    assert_int_equal(koma_engine_move_pmn(e, m, &mv), -1);
    char buf[KOMA_PMN_BUF];
    assert_int_equal(koma_engine_move_write(e, m, buf), strlen("g7-h8,+h15"));
    assert_string_equal(buf, "g7-h8,+h15");
    /* one element: the move, as PMN and as text */
    m = find(e, "g7-h8");
    assert_int_equal(koma_engine_move_pmn(e, m, &mv), 0);
    char pmn[KOMA_PMN_BUF];
    koma_pmn_write(&mv, pmn);
    assert_string_equal(pmn, "g7-h8");
    assert_int_equal(koma_engine_move_write(e, m, buf), 5);
    assert_string_equal(buf, "g7-h8");
    koma_engine_free(e);
}

static void test_other_games(void **state)
{
    (void)state;
    koma_engine *e = engine_at("shogi", "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s");
    koma_emove *m = malloc(koma_engine_max_moves(e) * sizeof *m);
    assert_non_null(m);
    size_t n = koma_engine_legal_moves(e, m);
    assert_int_equal(n, 30);
    for (size_t i = 0; i < n; i++) {
        koma_move mv;
        char a[KOMA_PMN_BUF], b[KOMA_PMN_BUF];
        assert_int_equal(koma_engine_move_pmn(e, m[i], &mv), 0);
        koma_pmn_write(&mv, a);
        assert_true(koma_engine_move_write(e, m[i], b) > 0);
        assert_string_equal(a, b);
    }
    free(m);
    koma_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_long_chain_refused),
        cmocka_unit_test(test_short_chain),
        cmocka_unit_test(test_other_games),
    };
    return cmocka_run_group_tests(t, games_setup, games_teardown);
}
