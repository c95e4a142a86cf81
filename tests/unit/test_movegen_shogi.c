/*
 * tests/unit/test_movegen_shogi.c — Shogi, Minishogi and Okisaki: hand-written
 * complete move lists and refusal reasons for each rule (koma-games(7), SHOGI): self-check,
 * nifu, mate by pawn drop, dead pieces (forced promotion, forbidden drop ranks),
 * check evasion by drops, Okisaki's queen, chess knight, `fbR` lance, pawn-only
 * forced promotion, bare king; endings (checkmate, stalemate, bareking).
 */
#include <stdlib.h>
#include "unit.h"

/* ---- Minishogi -------------------------------------------------------------------- */

static void test_minishogi_start(void **state)
{
    (void)state;
    /* K a1: b2; P a2: a3; G b1: b2 c2; S c1: b2 c2 d2; B d1: c2 b3 a4 e2;
     * R e1: e2 e3, takes the pawn e4. Nothing reaches the zone (rank 5). */
    static const char *const m[] = {
        "a1-b2", "a2-a3", "b1-b2", "b1-c2", "c1-b2", "c1-c2", "c1-d2",
        "d1-a4", "d1-b3", "d1-c2", "d1-e2", "e1+e4/P", "e1-e2", "e1-e3", NULL};
    expect_list("minishogi", "rbsgk^/4p/5/P4/K^GSBR / S/s", m);
}

static void test_nifu(void **state)
{
    (void)state;
    /* Pawn drops: never on file c (the pawn c2), never on rank 5. */
    list want = LIST_INIT;
    drop_list(&want, "P", 5, 5, "a1", 5, 5, 'c');
    list_add(&want, "c2-c3");
    list_add(&want, "a1-a2");
    list_add(&want, "a1-b1");
    list_add(&want, "a1-b2");
    assert_int_equal(want.n, 19);
    expect_moves("minishogi", "k^4/5/5/2P2/K^4 P/ S/s", &want);
    expect_illegal_at("minishogi", "k^4/5/5/2P2/K^4 P/ S/s", "P*c3", KOMA_E_RULES_DROP_NIFU, 2);
    expect_illegal_at("minishogi", "k^4/5/5/2P2/K^4 P/ S/s", "P*b5", KOMA_E_RULES_DROP_RANK, 2);
    /* a promoted pawn on the file does not count */
    expect_legal("minishogi", "k^4/5/5/2+P2/K^4 P/ S/s", "P*c3");
}

/* ---- Shogi -------------------------------------------------------------------------- */

static void test_pawn_drop_mate(void **state)
{
    (void)state;
    /* King a9 boxed by the gold c8 (b8, b9); a pawn dropped on a8 would be
     * protected by the lance a1: mate by pawn drop, illegal. The same mate by
     * a lance drop is legal and ends the game. */
    const char *f = "k^8/2G6/9/9/9/9/9/9/L3K^4 LP/ S/s";
    expect_illegal_at("shogi", f, "P*a8", KOMA_E_RULES_DROP_MATE, 2);
    expect_legal("shogi", f, "L*a8");
    expect_ending("shogi", "k^8/L1G6/9/9/9/9/9/9/L3K^4 P/ s/S", 1, KOMA_STATUS_CHECKMATE,
                  KOMA_RESULT_FIRST);
    /* A pawn drop that checks but does not mate is legal. */
    expect_legal("shogi", "k^8/9/9/9/9/9/9/9/L3K^4 P/ S/s", "P*a8");
    /* Okisaki too: king j10, gold h9 covers i9 i10, the lance j1 (fbR) protects j9. */
    expect_illegal_at("okisaki", "9k^/7G2/10/10/10/10/10/10/10/K^8L P/ Q/q", "P*j9",
                   KOMA_E_RULES_DROP_MATE, 2);
}

static void test_dead_pieces(void **state)
{
    (void)state;
    /* Knight e6 lands on rank 8: must promote. */
    static const char *const m1[] = {"e6-d8=+N", "e6-f8=+N", "e1-d1", "e1-d2", "e1-e2",
                                     "e1-f1", "e1-f2", NULL};
    expect_list("shogi", "4k^4/9/9/4N4/9/9/9/9/4K^4 / S/s", m1);
    /* Lance a1: a2-a6 plain, a7 a8 optional, a9 must promote. */
    static const char *const m2[] = {"a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6",
                                     "a1-a7", "a1-a7=+L", "a1-a8", "a1-a8=+L", "a1-a9=+L",
                                     "e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2", NULL};
    expect_list("shogi", "4k^4/9/9/9/9/9/9/9/L3K^4 / S/s", m2);
    static const char *const m3[] = {"a8-a9=+P", "e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2", NULL};
    expect_list("shogi", "4k^4/P8/9/9/9/9/9/9/4K^4 / S/s", m3);
    expect_illegal_at("shogi", "4k^4/P8/9/9/9/9/9/9/4K^4 / S/s", "a8-a9", KOMA_E_RULES_MUSTPROMOTE, 5);
    const char *f = "4k^4/9/9/9/9/9/9/9/4K^4 LNP/ S/s";
    expect_illegal_at("shogi", f, "N*e8", KOMA_E_RULES_DROP_RANK, 2);
    expect_illegal_at("shogi", f, "L*a9", KOMA_E_RULES_DROP_RANK, 2);
    expect_illegal_at("shogi", f, "P*a9", KOMA_E_RULES_DROP_RANK, 2);
    expect_legal("shogi", f, "N*e7");
    expect_legal("shogi", f, "L*a8");
    /* drops: L 71 (ranks 1-8 less e1) + N 62 (ranks 1-7 less e1) + P 71, king 5 */
    expect_count("shogi", f, 71 + 62 + 71 + 5);
    /* a promoted piece in a shogi hand never drops */
    static const char *const m4[] = {"e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2", NULL};
    expect_list("shogi", "4k^4/9/9/9/9/9/9/9/4K^4 +P/ S/s", m4);
    expect_illegal_at("shogi", "4k^4/9/9/9/9/9/9/9/4K^4 +P/ S/s", "+P*e5", KOMA_E_RULES_DROP_PIECE, 0);
}

static void test_self_check(void **state)
{
    (void)state;
    /* Rook e2 pinned on the e-file by the rook e5: only along the file. */
    static const char *const m[] = {"e2+e5/R", "e2-e3", "e2-e4", "e1-d1", "e1-d2", "e1-f1",
                                    "e1-f2", NULL};
    const char *f = "4k^4/9/9/9/4r4/9/9/4R4/4K^4 / S/s";
    expect_list("shogi", f, m);
    expect_illegal_at("shogi", f, "e2-d2", KOMA_E_RULES_CHECK, 3);
    expect_illegal_at("shogi", f, "e1-e2", KOMA_E_RULES_OCCUPIED, 3);
    /* In check on the file: step aside (not e2) or interpose a dropped gold. */
    static const char *const m2[] = {"G*e2", "G*e3", "G*e4", "e1-d1", "e1-d2", "e1-f1",
                                     "e1-f2", NULL};
    const char *f2 = "4k^4/9/9/9/4r4/9/9/9/4K^4 G/ S/s";
    expect_list("shogi", f2, m2);
    koma_engine *e = engine_at("shogi", f2);
    assert_int_equal(koma_engine_in_check(e), 1);
    koma_engine_free(e);
    expect_illegal_at("shogi", f2, "G*a1", KOMA_E_RULES_CHECK, 2);
}

static void test_move_reasons(void **state)
{
    (void)state;
    const char *f = "rbsgk^/4p/5/P4/K^GSBR / S/s";
    expect_illegal_at("minishogi", f, "a1-a3", KOMA_E_RULES_PATTERN, 3);
    expect_illegal_at("minishogi", f, "e1+e5/K^", KOMA_E_RULES_BLOCKED, 3);
    expect_illegal_at("minishogi", f, "e1-e5", KOMA_E_RULES_OPERATOR, 2);
    expect_illegal_at("minishogi", f, "e1-d1", KOMA_E_RULES_OCCUPIED, 3);
    expect_illegal_at("minishogi", f, "e4-e3", KOMA_E_RULES_OWNER, 0);
    expect_illegal_at("minishogi", f, "c3-c4", KOMA_E_RULES_EMPTY, 0);
    expect_illegal_at("minishogi", f, "e1-e4", KOMA_E_RULES_OPERATOR, 2);
    expect_illegal_at("minishogi", f, "e1+e4", KOMA_E_RULES_CAPTURED, 5);
    expect_illegal_at("minishogi", f, "e1+e4/p", KOMA_E_RULES_CAPTURED, 5);
    expect_illegal_at("minishogi", f, "e1+e3/P", KOMA_E_RULES_OPERATOR, 2);
    expect_illegal_at("minishogi", f, "e1~e2", KOMA_E_RULES_FORM, 0);
    expect_illegal_at("minishogi", f, "e1-e6", KOMA_E_CELL_SHAPE, 3);
    expect_illegal_at("minishogi", f, "P*c3", KOMA_E_RULES_DROP_HAND, 0);
    expect_illegal_at("minishogi", f, "e1-e2=+R", KOMA_E_RULES_PROMOTION, 5);
    expect_illegal_at("minishogi", f, "e1-e", KOMA_E_CELL_SHAPE, 3);   /* a 1-D cell */
    expect_illegal_at("minishogi", f, "e1-", KOMA_E_PMN_END, 3);
}

static void test_endings(void **state)
{
    (void)state;
    /* King a9 not in check, every square around covered: stalemate, a loss. */
    expect_ending("shogi", "k^8/2G6/1S7/9/9/9/9/9/4K^4 / s/S", 1, KOMA_STATUS_STALEMATE,
                  KOMA_RESULT_FIRST);
    expect_ending("shogi", "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s",
                  0, 0, 0);
    /* no bare-king rule in shogi */
    expect_ending("shogi", "k^8/9/9/9/9/9/9/9/7PK^ / S/s", 0, 0, 0);
    /* the king on a9 cannot move, but a pawn in hand can be dropped: no
     * stalemate; without the pawn, stalemate */
    expect_ending("shogi", "k^8/2G6/1S7/9/9/9/9/9/4K^4 /p s/S", 0, 0, 0);
    expect_ending("minishogi", "k^2r1/5/4g/5/4K^ P/ S/s", 0, 0, 0);
    expect_ending("minishogi", "k^2r1/5/4g/5/4K^ / S/s", 1, KOMA_STATUS_STALEMATE, KOMA_RESULT_SECOND);
    expect_list("minishogi", "k^2r1/5/4g/5/4K^ P/ S/s",
                (const char *const[]){"P*a1", "P*a2", "P*a3", "P*a4", "P*b1", "P*b2", "P*b3", "P*b4",
                                      "P*c1", "P*c2", "P*c3", "P*c4", "P*d1", "P*d2", "P*d3", "P*d4",
                                      "P*e2", "P*e4", NULL});
}

/* ---- Okisaki ------------------------------------------------------------------------- */

static void test_okisaki_pieces(void **state)
{
    (void)state;
    /* Chess knight b8, in the zone (ranks 8-10): six jumps, each optional;
     * never forced, even to rank 10. */
    static const char *const m1[] = {
        "b8-a10", "b8-a10=+N", "b8-a6", "b8-a6=+N", "b8-c10", "b8-c10=+N", "b8-c6", "b8-c6=+N",
        "b8-d7", "b8-d7=+N", "b8-d9", "b8-d9=+N", "a1-a2", "a1-b1", "a1-b2", NULL};
    expect_list("okisaki", "9k^/10/1N8/10/10/10/10/10/10/K^9 / Q/q", m1);
    /* Lance c9 (fbR): c10 forwards, c8..c1 backwards; it starts in the zone, so
     * every move may promote; none must. */
    list want = LIST_INIT;
    for (int r = 1; r <= 10; r++) {
        if (r == 9) continue;
        list_addf(&want, "%s%d", "c9-c", r);
        list_addf(&want, "%s%d=+L", "c9-c", r);
    }
    list_add(&want, "a1-a2");
    list_add(&want, "a1-b1");
    list_add(&want, "a1-b2");
    assert_int_equal(want.n, 21);
    expect_moves("okisaki", "9k^/2L7/10/10/10/10/10/10/10/K^9 / Q/q", &want);
    /* pawns must promote on the last rank */
    expect_illegal_at("okisaki", "9k^/P9/10/10/10/10/10/10/10/K^9 / Q/q", "a9-a10",
                   KOMA_E_RULES_MUSTPROMOTE, 6);
    /* the queen e5: 35 squares (5+4+4+5 orthogonal, 4+5+4+4 diagonal), no
     * promotion; king j1: 3 */
    expect_count("okisaki", "k^9/10/10/10/10/4Q5/10/10/10/9K^ / Q/q", 38);
    expect_legal("okisaki", "k^9/10/10/10/10/4Q5/10/10/10/9K^ / Q/q", "e5-j10");
    expect_illegal_at("okisaki", "k^9/10/10/10/10/4Q5/10/10/10/9K^ / Q/q", "e5-j10=+Q",
                   KOMA_E_RULES_PROMOTION, 6);
    /* drops: lances and knights anywhere (also rank 10), pawns not on rank 10 */
    list d = LIST_INIT;
    drop_list(&d, "L", 10, 10, "a1 j10", 0, 0, 0);
    drop_list(&d, "N", 10, 10, "a1 j10", 0, 0, 0);
    drop_list(&d, "P", 10, 10, "a1 j10", 10, 10, 0);
    list_add(&d, "a1-a2");
    list_add(&d, "a1-b1");
    list_add(&d, "a1-b2");
    assert_int_equal(d.n, 98 + 98 + 89 + 3);
    expect_moves("okisaki", "9k^/10/10/10/10/10/10/10/10/K^9 LNP/ Q/q", &d);
}

static void test_bare_king(void **state)
{
    (void)state;
    /* The second player (who has just moved) is bare: it loses at once. */
    expect_ending("okisaki", "k^9/10/10/10/10/10/10/10/10/8PK^ / Q/q", 1, KOMA_STATUS_BAREKING,
                  KOMA_RESULT_FIRST);
    /* The bare side is to move: it still has its reply. */
    expect_ending("okisaki", "k^9/10/10/10/10/10/10/10/10/8PK^ / q/Q", 0, 0, 0);
    /* Both bare: a draw. */
    expect_ending("okisaki", "k^9/10/10/10/10/10/10/10/10/9K^ / Q/q", 1, KOMA_STATUS_BAREKING,
                  KOMA_RESULT_DRAW);
    /* A piece in hand is not bare. */
    expect_ending("okisaki", "k^9/10/10/10/10/10/10/10/10/8PK^ /p Q/q", 0, 0, 0);
}

/* ---- history: fourfold repetition, perpetual check ------------------------------- */

/* (fourfold repetition and perpetual check: tests/unit/test_referee.c) */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minishogi_start),
        cmocka_unit_test(test_nifu),
        cmocka_unit_test(test_pawn_drop_mate),
        cmocka_unit_test(test_dead_pieces),
        cmocka_unit_test(test_self_check),
        cmocka_unit_test(test_move_reasons),
        cmocka_unit_test(test_endings),
        cmocka_unit_test(test_okisaki_pieces),
        cmocka_unit_test(test_bare_king),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
