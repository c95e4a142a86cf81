/*
 * tests/unit/test_movegen_ogi.c — Ōgi and ogi-classic: small positions with their
 * COMPLETE list of legal moves in canonical PMN, written by hand from the rules
 * (koma-games(7), ŌGI), one rule per position. The
 * generator must reproduce each list exactly (same set, no duplicates).
 *
 * Board: files a-h, ranks 1-8; a FEEN's first rank written is rank 8. The first
 * player (uppercase) moves up, zone ranks 6-8; the second down, zone ranks 1-3.
 * Lists for "every empty square" drops are built by a loop over the board with
 * the rule's exclusions written out (drop_list, tests/unit/helpers.c), the rest literally.
 */
#include <stdlib.h>
#include "unit.h"

/* ---- 1. no check rule; a king may be captured; a captured king ends the game ---- */

static void test_no_check_rule(void **state)
{
    (void)state;
    /* First king e1, a second rook on e2 gives check. Ōgi has no check rule: the
     * king may go to d2/f2 (attacked by the rook along rank 2) or stay in reach. */
    static const char *const m1[] = {"e1+e2/R", "e1-d1", "e1-d2", "e1-f1", "e1-f2", NULL};
    expect_list("ogi", "4k^3/8/8/8/8/8/4r3/4K^3 / O/o", m1);
}

static void test_king_capture(void **state)
{
    (void)state;
    /* The rook a1 sees the second king on a8: capturing it is a legal move
     * (captured identity: capturer's case, '^' kept: /K^). a6, a7, a8 are in the
     * zone: promotion optional for the rook. King e1: d1 d2 e2 f1 f2. */
    static const char *const m[] = {
        "a1+a8/K^", "a1+a8=+R/K^", "a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6", "a1-a6=+R",
        "a1-a7", "a1-a7=+R", "a1-b1", "a1-c1", "a1-d1",
        "e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2", NULL};
    expect_list("ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", m);
    /* After the capture the king is in the first hand: the game is over
     * (mareking, the capturer wins) and there are no moves. */
    static const char *const none[] = {NULL};
    expect_list("ogi", "R7/8/8/8/8/8/8/4K^3 K^/ o/O", none);
    expect_ending("ogi", "R7/8/8/8/8/8/8/4K^3 K^/ o/O", 1, KOMA_STATUS_MAREKING, KOMA_RESULT_FIRST);
    expect_ending("ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", 0, 0, 0);
    expect_illegal("ogi", "R7/8/8/8/8/8/8/4K^3 K^/ o/O", "e1-e2", KOMA_E_RULES_OVER);
}

/* ---- 2. promotion: optional in and out of the zone, forced where no further move --- */

static void test_promotion_pawns(void **state)
{
    (void)state;
    /* c7-c8 must promote (a pawn on the last rank could never move); d5-d6 enters
     * the zone, e6-e7 moves within it: both optional. */
    static const char *const m[] = {"c7-c8=+P", "d5-d6", "d5-d6=+P", "e6-e7", "e6-e7=+P",
                                    "h1-g1", "h1-g2", "h1-h2", NULL};
    expect_list("ogi", "k^7/2P5/4P3/3P4/8/8/8/7K^ / O/o", m);
    expect_illegal("ogi", "k^7/2P5/4P3/3P4/8/8/8/7K^ / O/o", "c7-c8", KOMA_E_RULES_MUSTPROMOTE);
    expect_illegal("ogi", "k^7/2P5/4P3/3P4/8/8/8/7K^ / O/o", "h1-h2=+K^", KOMA_E_RULES_PROMOTION);
    expect_illegal("ogi", "k^7/8/8/8/8/3P4/8/7K^ / O/o", "d3-d4=+P", KOMA_E_RULES_PROMOTION);
}

static void test_promotion_knight_lance(void **state)
{
    (void)state;
    /* Knight b5 (forward jumps only) lands on rank 7: must promote. Knight d4
     * lands on rank 6: optional. Lance g3: g4 g5 plain, g6 g7 optional, g8 must. */
    static const char *const m[] = {
        "b5-a7=+N", "b5-c7=+N", "d4-c6", "d4-c6=+N", "d4-e6", "d4-e6=+N",
        "g3-g4", "g3-g5", "g3-g6", "g3-g6=+L", "g3-g7", "g3-g7=+L", "g3-g8=+L",
        "h1-g1", "h1-g2", "h1-h2", NULL};
    expect_list("ogi", "k^7/8/8/1N6/3N4/6L1/8/7K^ / O/o", m);
    expect_illegal("ogi", "k^7/8/8/1N6/3N4/6L1/8/7K^ / O/o", "b5-a7", KOMA_E_RULES_MUSTPROMOTE);
    expect_illegal("ogi", "k^7/8/8/1N6/3N4/6L1/8/7K^ / O/o", "g3-g8", KOMA_E_RULES_MUSTPROMOTE);
    expect_illegal("ogi", "k^7/8/8/1N6/3N4/6L1/8/7K^ / O/o", "g3-g5=+L", KOMA_E_RULES_PROMOTION);
    expect_illegal("ogi", "k^7/8/8/1N6/3N4/6L1/8/7K^ / O/o", "d4-d6", KOMA_E_RULES_PATTERN);
    expect_illegal("ogi", "k^7/8/8/1N6/3N4/6L1/8/7K^ / O/o", "d4-c6=+S", KOMA_E_RULES_PROMOTION);
}

static void test_promotion_silver(void **state)
{
    (void)state;
    /* Silver c6 (in the zone): forwards into rank 7 and backwards out of the zone
     * to rank 5: every move may promote or not. */
    static const char *const m[] = {
        "c6-b5", "c6-b5=+S", "c6-b7", "c6-b7=+S", "c6-c7", "c6-c7=+S",
        "c6-d5", "c6-d5=+S", "c6-d7", "c6-d7=+S", "h1-g1", "h1-g2", "h1-h2", NULL};
    expect_list("ogi", "k^7/8/2S5/8/8/8/8/7K^ / O/o", m);
    /* The second player: silver f3 in its zone (ranks 1-3), forward is down. */
    static const char *const m2[] = {
        "f3-e2", "f3-e2=+s", "f3-e4", "f3-e4=+s", "f3-f2", "f3-f2=+s",
        "f3-g2", "f3-g2=+s", "f3-g4", "f3-g4=+s", "h8-g7", "h8-g8", "h8-h7", NULL};
    expect_list("ogi", "7k^/8/8/8/8/5s2/8/K^7 / o/O", m2);
}

/* ---- 3. King's privilege: two moves when a king captures a promoted piece ---------- */

static void test_kings_privilege(void **state)
{
    (void)state;
    /* King e4 next to a dragon d5, a tokin e5 and a pawn f5 (all second's).
     * Capturing a promoted piece: kept (/+R) or reverted (/R); the pawn: /P. */
    static const char *const m[] = {
        "e4+d5/+R", "e4+d5/R", "e4+e5/+P", "e4+e5/P", "e4+f5/P",
        "e4-d3", "e4-d4", "e4-e3", "e4-f3", "e4-f4", NULL};
    expect_list("ogi", "k^7/8/8/3+r+pp2/4K^3/8/8/8 / O/o", m);
    /* A silver capturing the dragon: only the ordinary, demoting capture. */
    static const char *const m2[] = {"c4+d5/R", "c4-b3", "c4-b5", "c4-c5", "c4-d3",
                                     "h1-g1", "h1-g2", "h1-h2", NULL};
    expect_list("ogi", "k^7/8/8/3+r4/2S5/8/8/7K^ / O/o", m2);
    expect_illegal("ogi", "k^7/8/8/3+r4/2S5/8/8/7K^ / O/o", "c4+d5/+R", KOMA_E_RULES_CAPTURED);
    expect_illegal("ogi", "k^7/8/8/3+r4/2S5/8/8/7K^ / O/o", "c4+d5/r", KOMA_E_RULES_CAPTURED);
    expect_illegal("ogi", "k^7/8/8/3+r4/2S5/8/8/7K^ / O/o", "c4-d5", KOMA_E_RULES_OPERATOR);
    /* The second player's king captures a first tokin: /+p or /p. */
    static const char *const m3[] = {"d5+d4/+p", "d5+d4/p", "d5-c4", "d5-c5", "d5-c6",
                                     "d5-d6", "d5-e4", "d5-e5", "d5-e6", NULL};
    expect_list("ogi", "8/8/8/3k^4/3+P4/8/8/7K^ / o/O", m3);
}

/* ---- 4. drops: unpromoted pawns never; lance not last rank; knight not last two --- */

static void test_drop_restrictions(void **state)
{
    (void)state;
    list want = LIST_INIT;
    /* First: L anywhere but rank 8; N anywhere but ranks 7-8; P nowhere. */
    drop_list(&want, "L", 8, 8, "a8 h1", 8, 8, 0);
    drop_list(&want, "N", 8, 8, "a8 h1", 7, 8, 0);
    list_add(&want, "h1-g1");
    list_add(&want, "h1-g2");
    list_add(&want, "h1-h2");
    assert_int_equal(want.n, 55 + 47 + 3);
    expect_moves("ogi", "k^7/8/8/8/8/8/8/7K^ LNP/ O/o", &want);
    /* Second: l anywhere but rank 1; n anywhere but ranks 1-2; p nowhere. */
    drop_list(&want, "l", 8, 8, "a8 h1", 1, 1, 0);
    drop_list(&want, "n", 8, 8, "a8 h1", 1, 2, 0);
    list_add(&want, "a8-a7");
    list_add(&want, "a8-b7");
    list_add(&want, "a8-b8");
    assert_int_equal(want.n, 55 + 47 + 3);
    expect_moves("ogi", "k^7/8/8/8/8/8/8/7K^ /lnp o/O", &want);
    const char *f = "k^7/8/8/8/8/8/8/7K^ LNP/ O/o";
    expect_illegal("ogi", f, "P*e4", KOMA_E_RULES_DROP_PIECE);
    expect_illegal("ogi", f, "L*e8", KOMA_E_RULES_DROP_RANK);
    expect_illegal("ogi", f, "N*e7", KOMA_E_RULES_DROP_RANK);
    expect_illegal("ogi", f, "N*h1", KOMA_E_RULES_DROP_OCCUPIED);
    expect_illegal("ogi", f, "S*e4", KOMA_E_RULES_DROP_HAND);
    expect_illegal("ogi", f, "L*e4=+L", KOMA_E_RULES_PROMOTION);
    expect_illegal("ogi", f, "*e4", KOMA_E_RULES_DROP_HAND);   /* L or N: ambiguous */
}

static void test_promoted_drops(void **state)
{
    (void)state;
    list want = LIST_INIT;
    /* Promoted pieces kept by the privilege drop promoted, anywhere (also on the
     * last ranks); the unpromoted pawn beside them still cannot drop. */
    drop_list(&want, "+P", 8, 8, "a8 h1", 0, 0, 0);
    drop_list(&want, "+N", 8, 8, "a8 h1", 0, 0, 0);
    list_add(&want, "h1-g1");
    list_add(&want, "h1-g2");
    list_add(&want, "h1-h2");
    assert_int_equal(want.n, 62 + 62 + 3);
    expect_moves("ogi", "k^7/8/8/8/8/8/8/7K^ +N+PP/ O/o", &want);
    /* `*e4` names the one droppable kind: +P (the plain P never drops). */
    koma_engine *e = engine_at("ogi", "k^7/8/8/8/8/8/8/7K^ +PP/ O/o");
    koma_emove m;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_parse_move(e, "*e4", 3, &m, &err), 0);
    char b[KOMA_PMN_BUF];
    koma_engine_move_write(e, m, b);
    assert_string_equal(b, "+P*e4");
    koma_engine_free(e);
}

/* ---- 5. ogi-classic: compulsory promotion; check must be answered; checkmate ------ */

static void test_classic_promotion(void **state)
{
    (void)state;
    static const char *const m1[] = {"c7-c8=+P", "d5-d6=+P", "e6-e7=+P",
                                     "h1-g1", "h1-g2", "h1-h2", NULL};
    expect_list("ogi-classic", "k^7/2P5/4P3/3P4/8/8/8/7K^ / O/o", m1);
    static const char *const m2[] = {
        "b5-a7=+N", "b5-c7=+N", "d4-c6=+N", "d4-e6=+N", "g3-g4", "g3-g5",
        "g3-g6=+L", "g3-g7=+L", "g3-g8=+L", "h1-g1", "h1-g2", "h1-h2", NULL};
    expect_list("ogi-classic", "k^7/8/8/1N6/3N4/6L1/8/7K^ / O/o", m2);
    static const char *const m3[] = {"c6-b5=+S", "c6-b7=+S", "c6-c7=+S", "c6-d5=+S",
                                     "c6-d7=+S", "h1-g1", "h1-g2", "h1-h2", NULL};
    expect_list("ogi-classic", "k^7/8/2S5/8/8/8/8/7K^ / O/o", m3);
    expect_illegal("ogi-classic", "k^7/8/2S5/8/8/8/8/7K^ / O/o", "c6-b5", KOMA_E_RULES_MUSTPROMOTE);
}

static void test_classic_check(void **state)
{
    (void)state;
    /* In check from the rook e2: capture it, or step to d1/f1 (d2, f2 are on the
     * rook's rank). */
    static const char *const m1[] = {"e1+e2/R", "e1-d1", "e1-f1", NULL};
    expect_list("ogi-classic", "4k^3/8/8/8/8/8/4r3/4K^3 / O/o", m1);
    expect_illegal("ogi-classic", "4k^3/8/8/8/8/8/4r3/4K^3 / O/o", "e1-d2", KOMA_E_RULES_CHECK);
    /* A silver pinned on rank 4 by the rook a4 cannot move; Ōgi lets it. */
    static const char *const m2[] = {"h4-g3", "h4-g4", "h4-g5", "h4-h3", "h4-h5", NULL};
    expect_list("ogi-classic", "k^7/8/8/8/r2S3K^/8/8/8 / O/o", m2);
    static const char *const m3[] = {"d4-c3", "d4-c5", "d4-d5", "d4-e3", "d4-e5",
                                     "h4-g3", "h4-g4", "h4-g5", "h4-h3", "h4-h5", NULL};
    expect_list("ogi", "k^7/8/8/8/r2S3K^/8/8/8 / O/o", m3);
    /* The privilege under the check rule: the tokin e5 checks the king e4; both
     * captures are legal, d4 f4 d5 f5 are covered by the tokin. */
    static const char *const m4[] = {"e4+e5/+P", "e4+e5/P", "e4-d3", "e4-e3", "e4-f3", NULL};
    expect_list("ogi-classic", "k^7/8/8/4+p3/4K^3/8/8/8 / O/o", m4);
    static const char *const m5[] = {"e4+e5/+P", "e4+e5/P", "e4-d3", "e4-d4", "e4-d5",
                                     "e4-e3", "e4-f3", "e4-f4", "e4-f5", NULL};
    expect_list("ogi", "k^7/8/8/4+p3/4K^3/8/8/8 / O/o", m5);
}

static void test_classic_checkmate(void **state)
{
    (void)state;
    /* Rooks g2 h2 against the king h1: every escape is covered. ogi-classic:
     * no legal move in check = checkmate (the second player wins). Ōgi: the king
     * may step into attack or take a defended rook. */
    static const char *const none[] = {NULL};
    const char *f = "k^7/8/8/8/8/8/6rr/7K^ / O/o";
    expect_list("ogi-classic", f, none);
    expect_ending("ogi-classic", f, 1, KOMA_STATUS_CHECKMATE, KOMA_RESULT_SECOND);
    static const char *const m[] = {"h1+g2/R", "h1+h2/R", "h1-g1", NULL};
    expect_list("ogi", f, m);
    expect_ending("ogi", f, 0, 0, 0);
}

static void test_nomove(void **state)
{
    (void)state;
    /* A side with no move at all loses (nomove). */
    static const char *const none[] = {NULL};
    expect_list("ogi", "4k^3/8/8/8/8/8/8/8 / O/o", none);
    expect_ending("ogi", "4k^3/8/8/8/8/8/8/8 / O/o", 1, KOMA_STATUS_NOMOVE, KOMA_RESULT_SECOND);
    /* A pawn captures the way it moves (forwards): its only move. */
    static const char *const m[] = {"a2+a3/P", NULL};
    expect_list("ogi", "4k^3/8/8/8/8/p7/P7/8 / O/o", m);
}

/* ---- 6. history: Ōgi's same-move repetition; hash and make/unmake ---------------- */

/* (Ōgi's same-move repetition and the king capture in play: tests/unit/test_referee.c) */

static void test_make_unmake_hash(void **state)
{
    (void)state;
    /* Play every legal move two plies deep from a busy position (promotions,
     * privilege captures, drops of promoted pieces) and take them back: the
     * FEEN and the hash come back; the hash of each reached position equals the
     * hash of that position set from its FEEN. */
    const char *f = "4k^3/1+p4+r1/8/3+s4/8/2+B5/8/4K^3 +N+PR/+bs O/o";
    koma_engine *e = engine_at("ogi", f);
    koma_engine *x = engine_at("ogi", f);
    koma_emove *m1 = malloc(koma_engine_max_moves(e) * sizeof *m1);
    koma_emove *m2 = malloc(koma_engine_max_moves(e) * sizeof *m2);
    uint64_t h0 = koma_engine_hash(e);
    size_t n1 = koma_engine_legal_moves(e, m1), checked = 0;
    koma_error err;
    koma_error_clear(&err);
    for (size_t i = 0; i < n1; i++) {
        assert_int_equal(koma_engine_make(e, m1[i], &err), 0);
        size_t n2 = koma_engine_legal_moves(e, m2);
        for (size_t j = 0; j < n2; j += 7) {
            assert_int_equal(koma_engine_make(e, m2[j], &err), 0);
            char feen[256];
            assert_int_equal(koma_engine_feen(e, feen, sizeof feen, NULL, &err), 0);
            assert_int_equal(koma_engine_set_feen(x, feen, strlen(feen), &err), 0);
            assert_true(koma_engine_hash(x) == koma_engine_hash(e));
            assert_int_equal(koma_engine_unmake(e), 0);
            checked++;
        }
        assert_int_equal(koma_engine_unmake(e), 0);
    }
    assert_int_equal(n1, 192);
    assert_true(checked > 3000);
    char feen[256];
    assert_int_equal(koma_engine_feen(e, feen, sizeof feen, NULL, &err), 0);
    assert_string_equal(feen, f);
    assert_true(koma_engine_hash(e) == h0);
    /* the Jeweled King's "'" does not change the hash, but is kept */
    assert_int_equal(koma_engine_set_feen(x, LIT("4k^'3/8/8/8/8/8/8/4K^3 / O/o"), &err), 0);
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^3/8/8/8/8/8/8/4K^3 / O/o"), &err), 0);
    assert_true(koma_engine_hash(x) == koma_engine_hash(e));
    assert_int_equal(koma_engine_feen(x, feen, sizeof feen, NULL, &err), 0);
    assert_string_equal(feen, "4k^'3/8/8/8/8/8/8/4K^3 / O/o");
    free(m1);
    free(m2);
    koma_engine_free(e);
    koma_engine_free(x);
}

static void test_positions_refused(void **state)
{
    (void)state;
    const koma_game *g = game_of("ogi");
    koma_engine *e;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^3/8/8/8/8/8/8/4G3 / O/o"), &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_PIECE);
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^3/8/8/8/8/8/8/4K^3 p/ O/o"), &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_HAND);
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^3/8/8/8/8/8/8/4K^3 / S/s"), &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_STYLE);
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^4/9/9/9/9/9/9/9/4K^4 / O/o"), &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_SHAPE);
    /* two kings a side: fine without the check rule, refused with it */
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^3/8/8/8/8/8/8/3K^K^3 / O/o"), &err), 0);
    koma_engine_free(e);
    g = game_of("ogi-classic");
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^3/8/8/8/8/8/8/3K^K^3 / O/o"), &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_ROYAL);
    koma_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_check_rule),
        cmocka_unit_test(test_king_capture),
        cmocka_unit_test(test_promotion_pawns),
        cmocka_unit_test(test_promotion_knight_lance),
        cmocka_unit_test(test_promotion_silver),
        cmocka_unit_test(test_kings_privilege),
        cmocka_unit_test(test_drop_restrictions),
        cmocka_unit_test(test_promoted_drops),
        cmocka_unit_test(test_classic_promotion),
        cmocka_unit_test(test_classic_check),
        cmocka_unit_test(test_classic_checkmate),
        cmocka_unit_test(test_nomove),
        cmocka_unit_test(test_make_unmake_hash),
        cmocka_unit_test(test_positions_refused),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
