/* tests/unit/test_sfen.c — SFEN, USI moves, Fairy-Stockfish FEN and moves (lib/sfen.c). */
#include "unit.h"

#define START_FEEN "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"
#define START_SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

static void feen_of(const koma_position *p, char *buf)
{
    size_t n = koma_feen_write(p, buf, KOMA_FEEN_MAX_LEN + 1);
    assert_true(n <= KOMA_FEEN_MAX_LEN);
}

static void test_sfen_start(void **state)
{
    (void)state;
    koma_position p;
    koma_position_init(&p);
    char buf[KOMA_FEEN_MAX_LEN + 1];
    assert_int_equal(koma_sfen_parse(LIT(START_SFEN), &p, NULL), 0);
    feen_of(&p, buf);
    assert_string_equal(buf, START_FEEN);
    assert_int_equal(koma_sfen_write(&p, 1, buf, sizeof buf, NULL), strlen(START_SFEN));
    assert_string_equal(buf, START_SFEN);
    koma_position_cleanup(&p);
}

static void test_sfen_hands_and_promoted(void **state)
{
    (void)state;
    koma_position p;
    koma_position_init(&p);
    char buf[KOMA_FEEN_MAX_LEN + 1];
    /* hands in any order and with counts read; written R B G S N L P, counts > 1 */
    assert_int_equal(koma_sfen_parse(LIT("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w 3pSbgn 124"),
                                     &p, NULL), 0);
    feen_of(&p, buf);
    assert_string_equal(buf, "8l/1l+R2P3/p2pBG1pp/k^ps1p4/Nn1P2G2/P1P1P2PP/1PS6/1K^SG3+r1/LN2+p3L S/3pbgn s/S");
    assert_true(koma_sfen_write(&p, 124, buf, sizeof buf, NULL) > 0);
    assert_string_equal(buf, "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124");
    /* minishogi */
    assert_int_equal(koma_sfen_parse(LIT("rbsgk/4p/5/P4/KGSBR b - 1"), &p, NULL), 0);
    feen_of(&p, buf);
    assert_string_equal(buf, "rbsgk^/4p/5/P4/K^GSBR / S/s");
    koma_position_cleanup(&p);
}

static void test_sfen_errors(void **state)
{
    (void)state;
    koma_position p;
    koma_position_init(&p);
    koma_error err;
    assert_int_equal(koma_sfen_parse(LIT("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_SFEN_SIDE);
    assert_int_equal(err.column, 59);
    assert_int_equal(koma_sfen_parse(LIT("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_SFEN_BOARD);
    assert_int_equal(koma_sfen_parse(LIT("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_SFEN_HAND);
    /* more pieces than squares is no position (FEEN's cardinality rule): 2 kings
     * and 79 in hand fit 81 squares, 80 do not (found by fuzz_sfen) */
    assert_int_equal(koma_sfen_parse(LIT("4k4/9/9/9/9/9/9/9/4K4 b 79P 1"), &p, &err), 0);
    assert_int_equal(koma_sfen_parse(LIT("4k4/9/9/9/9/9/9/9/4K4 b 79Pp 1"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_SFEN_HAND);
    assert_non_null(strstr(err.message, "82 pieces, 81 squares"));
    assert_int_equal(koma_fen_parse(LIT("4k4/9/9/9/9/9/9/9/4K4[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP] w - - 0 1"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_FEN_SYNTAX);
    assert_non_null(strstr(err.message, "82 pieces, 81 squares"));
    assert_int_equal(koma_sfen_parse(LIT("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/+LNSGKGSNL b - 1"), &p, &err), 0);
    assert_int_equal(koma_sfen_parse(LIT("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/L+NSG+KGSNL b - 1"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_SFEN_BOARD);
    assert_int_equal(koma_sfen_parse(LIT("8/8/8/8/8/8/8/8 b - 1"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_SFEN_GAME);
    assert_int_equal(koma_sfen_parse(LIT("9/9/9/9/9/9/9/9/9 b"), &p, &err), -1);
    assert_int_equal(err.code, KOMA_E_SFEN_FIELDS);
    /* an Ōgi position has no SFEN */
    char buf[256];
    assert_int_equal(koma_feen_parse(LIT("lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"), 0, &p, NULL), 0);
    assert_int_equal(koma_sfen_write(&p, 1, buf, sizeof buf, &err), 0);
    assert_int_equal(err.code, KOMA_E_SFEN_GAME);
    koma_position_cleanup(&p);
}

/* USI move -> PMN in the position, and back. */
static void usi(koma_position *p, const char *m, const char *pmn)
{
    koma_move mv;
    char buf[KOMA_PMN_BUF], back[16];
    assert_int_equal(koma_usi_move_parse(p, m, strlen(m), &mv, NULL), 0);
    koma_pmn_write(&mv, buf);
    assert_string_equal(buf, pmn);
    assert_int_equal(koma_usi_move_write(p, &mv, back, sizeof back, NULL), strlen(m));
    assert_string_equal(back, m);
    assert_int_equal(koma_move_apply(p, &mv, NULL), 0);
}

static void fenmove(koma_position *p, const char *m, const char *pmn)
{
    koma_move mv;
    char buf[KOMA_PMN_BUF], back[32];
    assert_int_equal(koma_fen_move_parse(p, m, strlen(m), &mv, NULL), 0);
    koma_pmn_write(&mv, buf);
    assert_string_equal(buf, pmn);
    assert_int_equal(koma_fen_move_write(p, &mv, back, sizeof back, NULL), strlen(m));
    assert_string_equal(back, m);
    assert_int_equal(koma_move_apply(p, &mv, NULL), 0);
}

static void test_usi_moves(void **state)
{
    (void)state;
    koma_position p;
    koma_position_init(&p);
    assert_int_equal(koma_sfen_parse(LIT(START_SFEN), &p, NULL), 0);
    usi(&p, "7g7f", "c3-c4");
    usi(&p, "3c3d", "g7-g6");
    usi(&p, "8h2b+", "b2+h8=+B/B");
    usi(&p, "3a2b", "g9+h8/b");
    usi(&p, "B*4e", "B*f5");
    usi(&p, "B*5e", "b*e5");
    koma_move mv;
    koma_error err;
    assert_int_equal(koma_usi_move_parse(&p, LIT("R*5f"), &mv, &err), -1);   /* not in hand */
    assert_int_equal(err.code, KOMA_E_USI_MOVE);
    assert_int_equal(koma_usi_move_parse(&p, LIT("5e5e"), &mv, &err), -1);
    assert_int_equal(koma_usi_move_parse(&p, LIT("0a1b"), &mv, &err), -1);
    assert_int_equal(koma_usi_move_parse(&p, LIT("7g7f+x"), &mv, &err), -1);
    koma_position_cleanup(&p);
}

static void test_fen(void **state)
{
    (void)state;
    koma_position p;
    koma_position_init(&p);
    char buf[KOMA_FEEN_MAX_LEN + 1];
    assert_int_equal(koma_fen_parse(LIT("4k4/9/9/9/9/9/9/9/4K4[GNLPPSRBgnlpsrrb] b - - 0 1"), &p, NULL), 0);
    feen_of(&p, buf);
    assert_string_equal(buf, "4k^4/9/9/9/9/9/9/9/4K^4 2PBGLNRS/2rbglnps s/S");
    assert_true(koma_fen_write(&p, 1, buf, sizeof buf, NULL) > 0);
    assert_string_equal(buf, "4k4/9/9/9/9/9/9/9/4K4[GNLPPSRBgnlpsrrb] b - - 0 1");
    assert_int_equal(koma_fen_parse(LIT(START_FEEN), &p, NULL), -1);
    assert_int_equal(koma_fen_parse(LIT("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w - - 0 1"), &p, NULL), 0);
    fenmove(&p, "c3c4", "c3-c4");
    fenmove(&p, "g7g6", "g7-g6");
    fenmove(&p, "b2h8+", "b2+h8=+B/B");
    fenmove(&p, "g9h8", "g9+h8/b");
    fenmove(&p, "B@e5", "B*e5");
    koma_position_cleanup(&p);
}

/* ---- what each notation refuses, with its code and message -------------------------- */

static void expect_refused(int rc, const koma_error *err, koma_code code, const char *says)
{
    assert_int_equal(rc, -1);
    if (err->code != code || strstr(err->message, says) == NULL)
        fail_msg("%s: %s (wanted %s, \"%s\")", koma_code_name(err->code), err->message, koma_code_name(code), says);
}

#define EMPTY9 "4k4/9/9/9/9/9/9/9/4K4"

static void test_refusals(void **state)
{
    (void)state;
    koma_position p;
    koma_position_init(&p);
    koma_error err;
    char buf[KOMA_FEEN_MAX_LEN + 1];
    /* SFEN: counts and move numbers */
    expect_refused(koma_sfen_parse(LIT(EMPTY9 " b 0P 1"), &p, &err), &err, KOMA_E_SFEN_HAND, "invalid count");
    expect_refused(koma_sfen_parse(LIT(EMPTY9 " b 02P 1"), &p, &err), &err, KOMA_E_SFEN_HAND, "invalid count");
    expect_refused(koma_sfen_parse(LIT(EMPTY9 " b - 0"), &p, &err), &err, KOMA_E_SFEN_NUMBER, "invalid move number");
    expect_refused(koma_sfen_parse(LIT(EMPTY9 " b - 1x"), &p, &err), &err, KOMA_E_SFEN_NUMBER, "invalid move number");
    expect_refused(koma_sfen_parse(LIT(EMPTY9 " b - 1234567890"), &p, &err), &err, KOMA_E_SFEN_NUMBER,
                   "invalid move number");
    assert_int_equal(koma_sfen_parse(LIT(EMPTY9 " b - 123456789"), &p, &err), 0);

    /* SFEN and FEN writing: what a 9x9 shogi-styled FEEN may hold that they cannot */
    static const struct {
        const char *feen, *says;
    } unwritable[] = {
        {"4k^4/9/9/9/4-P4/9/9/9/4K^4 / S/s", "has no '-' state"},
        {"4k^4/9/9/9/4G^4/9/9/9/4K^4 / S/s", "marks only kings royal"},
        {"4k^4/9/9/9/9/9/9/9/4K^4 +P/ S/s", "hands hold only unpromoted pieces other than kings"},
        {"4k^4/9/9/9/9/9/9/9/4K^4 X/ S/s", "hold"},
    };
    for (size_t i = 0; i < sizeof unwritable / sizeof unwritable[0]; i++) {
        assert_int_equal(koma_feen_parse(unwritable[i].feen, strlen(unwritable[i].feen), 0, &p, &err), 0);
        koma_error_clear(&err);
        assert_int_equal(koma_sfen_write(&p, 1, buf, sizeof buf, &err), 0);
        if (err.code != KOMA_E_CONVERT_UNREPRESENTABLE || strstr(err.message, unwritable[i].says) == NULL)
            fail_msg("SFEN of %s: %s", unwritable[i].feen, err.message);
        koma_error_clear(&err);
        assert_int_equal(koma_fen_write(&p, 1, buf, sizeof buf, &err), 0);
        if (err.code != KOMA_E_CONVERT_UNREPRESENTABLE)
            fail_msg("FEN of %s: %s", unwritable[i].feen, err.message);
    }
    assert_non_null(strstr(err.message, "no Fairy-Stockfish hand piece X"));

    /* USI moves */
    koma_move mv;
    assert_int_equal(koma_sfen_parse(LIT(EMPTY9 " b P 1"), &p, &err), 0);
    expect_refused(koma_usi_move_parse(&p, LIT("X*5e"), &mv, &err), &err, KOMA_E_USI_MOVE, "invalid piece to drop");
    expect_refused(koma_usi_move_parse(&p, LIT("P*5z"), &mv, &err), &err, KOMA_E_USI_MOVE, "invalid square");
    assert_int_equal(err.offset, 2);
    expect_refused(koma_usi_move_parse(&p, LIT("P*5a"), &mv, &err), &err, KOMA_E_USI_MOVE,
                   "drop onto an occupied square");
    expect_refused(koma_usi_move_parse(&p, LIT("5i5z"), &mv, &err), &err, KOMA_E_USI_MOVE, "invalid square");
    assert_int_equal(err.offset, 2);
    assert_int_equal(koma_usi_move_parse(&p, LIT("P*5e"), &mv, &err), 0);
    /* what USI cannot say: a pass, a promoted drop, a square of file 10 */
    koma_move odd = mv;
    odd.kind = KOMA_MOVE_PASS;
    assert_int_equal(koma_usi_move_write(&p, &odd, buf, sizeof buf, &err), 0);
    assert_string_equal(err.message, "USI has no such move");
    assert_int_equal(koma_fen_move_write(&p, &odd, buf, sizeof buf, &err), 0);
    assert_string_equal(err.message, "Fairy-Stockfish has no such move");
    odd = mv;
    odd.piece = (koma_piece)(odd.piece | KOMA_PIECE_ENHANCED);
    assert_int_equal(koma_usi_move_write(&p, &odd, buf, sizeof buf, &err), 0);
    assert_string_equal(err.message, "USI has no promoted drop");
    assert_int_equal(koma_usi_move_write(&p, &mv, buf, sizeof buf, &err), 4);
    assert_string_equal(buf, "P*5e");
    static const char oki[] = "k^9/10/10/10/10/10/10/10/10/K^9 P/ Q/q";
    assert_int_equal(koma_feen_parse(LIT(oki), 0, &p, &err), 0);
    assert_int_equal(koma_pmn_parse(LIT("P*a5"), &mv, &err), 0);
    assert_int_equal(koma_pmn_resolve(&p, &mv, &err), 0);
    assert_int_equal(koma_usi_move_write(&p, &mv, buf, sizeof buf, &err), 0);
    assert_string_equal(err.message, "USI squares have one digit");
    assert_int_equal(koma_fen_move_write(&p, &mv, buf, sizeof buf, &err), 4);
    assert_string_equal(buf, "P@a5");

    /* Fairy-Stockfish moves and FEN */
    assert_int_equal(koma_sfen_parse(LIT(EMPTY9 " b P 1"), &p, &err), 0);
    expect_refused(koma_fen_move_parse(&p, LIT("p@e5"), &mv, &err), &err, KOMA_E_FEN_MOVE, "invalid piece to drop");
    expect_refused(koma_fen_move_parse(&p, LIT("P@z9"), &mv, &err), &err, KOMA_E_FEN_MOVE, "invalid square");
    expect_refused(koma_fen_move_parse(&p, LIT("zz"), &mv, &err), &err, KOMA_E_FEN_MOVE, "invalid square");
    expect_refused(koma_fen_move_parse(&p, LIT("e1z9"), &mv, &err), &err, KOMA_E_FEN_MOVE, "invalid square");
    assert_int_equal(err.offset, 2);
    expect_refused(koma_fen_move_parse(&p, LIT("e1e2x"), &mv, &err), &err, KOMA_E_FEN_MOVE, "unexpected suffix");
    expect_refused(koma_fen_move_parse(&p, LIT("e1e2++"), &mv, &err), &err, KOMA_E_FEN_MOVE, "unexpected suffix");
    assert_int_equal(koma_fen_move_parse(&p, LIT("e1e2="), &mv, &err), 0);
    expect_refused(koma_fen_parse(LIT(EMPTY9 "[K] w - - 0 1"), &p, &err), &err, KOMA_E_FEN_SYNTAX,
                   "invalid piece in hand");
    expect_refused(koma_fen_parse(LIT(EMPTY9 "[-] x - - 0 1"), &p, &err), &err, KOMA_E_FEN_SYNTAX,
                   "side to move must be w or b");
    expect_refused(koma_fen_parse(LIT(EMPTY9 "[-] wb - - 0 1"), &p, &err), &err, KOMA_E_FEN_SYNTAX,
                   "side to move must be w or b");
    expect_refused(koma_fen_parse(LIT(EMPTY9 "[-] w - - 0 1\t"), &p, &err), &err, KOMA_E_FEN_SYNTAX,
                   "unexpected byte");
    koma_position_cleanup(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sfen_start),
        cmocka_unit_test(test_sfen_hands_and_promoted),
        cmocka_unit_test(test_sfen_errors),
        cmocka_unit_test(test_usi_moves),
        cmocka_unit_test(test_fen),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
