/*
 * tests/unit/test_movegen_count.c — perft counts its last ply without listing
 * the moves (koma__count_legal: bitboards compiled from the Betza vectors on
 * boards of at most 128 squares, the mailbox otherwise), and its last two
 * plies together (koma__count_children: each piece counted once, then only
 * what a move changes). perft(1) must be the length of the legal move list,
 * perft(2) the sum of perft(1) after each move, in every position: checked on
 * random games of every built-in game (pins, checks, double checks, drops,
 * mate by pawn drop arise on the way), on hand-made positions, and on test
 * games whose pieces the tables do not hold (a limited ride, overlapping
 * vectors), on a board of more than 128 squares and on one of exactly 128.
 */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "engine_internal.h"

/* perft(1) against the legal move list, then a random move; `plies` plies from
 * the engine's position, `games` times. */
static void walk(koma_engine *e, unsigned games, unsigned plies, unsigned seed)
{
    koma_error err;
    koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    assert_non_null(moves);
    srand(seed);
    unsigned long positions = 0;
    for (unsigned g = 0; g < games; g++) {
        unsigned made = 0;
        for (unsigned p = 0; p < plies; p++) {
            /* perft counts nothing in a finished position (a bare king decided) */
            size_t n = koma__finished(e) ? 0 : koma_engine_legal_moves(e, moves);
            uint64_t nodes = 0;
            assert_int_equal(koma_engine_perft(e, 1, &nodes, &err), 0);
            if (nodes != n) {
                char feen[KOMA_FEEN_MAX_LEN + 1];
                if (koma_engine_feen(e, feen, sizeof feen, NULL, &err) != 0) feen[0] = '\0';
                fail_msg("%s: perft(1) = %llu, %zu legal moves: %s", koma_game_id(koma_engine_game(e)),
                         (unsigned long long)nodes, n, feen);
            }
            /* perft(2) counts the last two plies together (koma__count_children):
             * the sum of perft(1) after each move */
            if (n > 0 && p % 3 == 0) {
                uint64_t two = 0, sum = 0;
                assert_int_equal(koma_engine_perft(e, 2, &two, &err), 0);
                for (size_t i = 0; i < n; i++) {
                    uint64_t one = 0;
                    assert_int_equal(koma_engine_make(e, moves[i], &err), 0);
                    assert_int_equal(koma_engine_perft(e, 1, &one, &err), 0);
                    assert_int_equal(koma_engine_unmake(e), 0);
                    sum += one;
                }
                if (two != sum) {
                    char feen[KOMA_FEEN_MAX_LEN + 1];
                    if (koma_engine_feen(e, feen, sizeof feen, NULL, &err) != 0) feen[0] = '\0';
                    fail_msg("%s: perft(2) = %llu, the moves' perft(1) add up to %llu: %s",
                             koma_game_id(koma_engine_game(e)), (unsigned long long)two,
                             (unsigned long long)sum, feen);
                }
            }
            positions++;
            if (n == 0) break;
            assert_int_equal(koma_engine_make(e, moves[(size_t)rand() % n], &err), 0);
            made++;
        }
        while (made--) assert_int_equal(koma_engine_unmake(e), 0);
    }
    assert_true(positions >= games);
    free(moves);
}

static void test_builtin_games(void **state)
{
    (void)state;
    static const char *const ids[] = {"shogi", "minishogi", "okisaki", "ogi", "ogi-classic"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        koma_engine *e;
        koma_error err;
        assert_int_equal(koma_engine_new(game_of(ids[i]), &e, &err), 0);
        walk(e, 60, 160, 1000u + (unsigned)i);
        koma_engine_free(e);
    }
}

/* Positions where the cases meet at the last ply: a pinned rook, a check by a
 * rider to block with a drop, a double check, a pawn drop that would mate, a
 * lance pinned along its own line, a king that may not take a defended piece. */
static void test_positions(void **state)
{
    (void)state;
    static const struct { const char *game, *feen; } pos[] = {
        {"shogi", "k^8/2G6/9/9/9/9/9/9/L3K^4 LP/ S/s"},
        {"shogi", "4k^4/9/9/9/4r4/9/9/4R4/4K^4 GP/ S/s"},
        {"shogi", "4k^4/9/9/9/4r4/9/9/9/4K^4 GP/ S/s"},
        {"shogi", "4k^4/9/9/9/1b2r4/9/9/9/4K^4 GP/ S/s"},
        {"shogi", "4k^4/4l4/9/9/9/9/9/4L4/4K^4 P/ S/s"},
        {"shogi", "l6nl/5+P1gk^/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bK^L GR/5pgns s/S"},
        {"shogi", "R8/2K^1S1SSk^/4B4/9/9/9/9/9/1L1L1L3 BGLNPRS/17p3g3n S/s"},
        {"minishogi", "k^4/5/5/2P2/K^4 P/ S/s"},
        {"okisaki", "9k^/7G2/10/10/10/10/10/10/10/K^8L P/ Q/q"},
        {"ogi-classic", "4k^3/8/8/8/4r3/8/8/4K^3 / O/o"},
    };
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        koma_engine *e = engine_at(pos[i].game, pos[i].feen);
        walk(e, 20, 40, 2000u + (unsigned)i);
        koma_engine_free(e);
    }
}

/* Test games: a rook limited to two squares (W2) (no table: counted on the
 * mailbox, and tested in full when pinned or in check), a rook that also jumps
 * two squares (two vectors to one square: one move), a bishop, a pawn that
 * must promote, drops with nifu and no pawn-drop mate. */
#define TEST_PIECES                                                                      \
    "pieces:\n"                                                                          \
    "  - {pin: \"K^\", betza: K, royal: true}\n"                                          \
    "  - {pin: R, betza: W2, promotes_to: \"+R\"}\n"                                      \
    "  - {pin: \"+R\", betza: RF}\n"                                                      \
    "  - {pin: D, betza: RD}\n"                                                           \
    "  - {pin: B, betza: B}\n"                                                            \
    "  - {pin: G, betza: WfF}\n"                                                          \
    "  - {pin: P, betza: fW, promotes_to: \"+P\", must_promote_ranks: 1,\n"                \
    "     drop: {forbidden_ranks: 1, nifu: true, no_mate: true}}\n"                       \
    "  - {pin: \"+P\", betza: WfF}\n"

static const char game6[] =
    "id: count6\n"
    "name: Count\n"
    "style: T\n"
    "board: {files: 6, ranks: 6}\n"
    "start: \"rdbgk^1/5p/6/6/P5/1K^GBDR / T/t\"\n"
    "promotion: {zone: 2, compulsory: false}\n"
    "check: true\n"
    "no_legal_move: {in_check: checkmate, otherwise: stalemate}\n"
    "defeat: {royal_captured: true}\n"
    TEST_PIECES;

/* 16 x 8 = 128 squares: bitboards of exactly 128 bits */
static const char game128[] =
    "id: count128\n"
    "name: Count\n"
    "style: U\n"
    "board: {files: 16, ranks: 8}\n"
    "start: \"rdbgk^gbdrdbgrdbg/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/BDRGBDRBGK^GBDR2 / U/u\"\n"
    "promotion: {zone: 2, compulsory: false}\n"
    "check: true\n"
    "no_legal_move: {in_check: checkmate, otherwise: stalemate}\n"
    "defeat: {royal_captured: true}\n"
    TEST_PIECES;

/* 12 x 12 = 144 squares: the mailbox only */
static const char game144[] =
    "id: count144\n"
    "name: Count\n"
    "style: V\n"
    "board: {files: 12, ranks: 12}\n"
    "start: \"rdbgk^gbdrbdg/pppppppppppp/12/12/12/12/12/12/12/12/PPPPPPPPPPPP/BDRGBDRBGK^GR / V/v\"\n"
    "promotion: {zone: 3, compulsory: false}\n"
    "check: true\n"
    "no_legal_move: {in_check: checkmate, otherwise: stalemate}\n"
    "defeat: {royal_captured: true}\n"
    TEST_PIECES;

static void test_game_yaml(const char *yaml, size_t len, unsigned games, unsigned plies)
{
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    if (koma_game_set_load(set, yaml, len, "count.yaml", &g, &err) != 0)
        fail_msg("%s:%lu: %s", err.source, err.line, err.message);
    koma_engine *e;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    walk(e, games, plies, (unsigned)len);
    koma_engine_free(e);
    koma_game_set_free(set);
}

static void test_tables_partial(void **state)
{
    (void)state;
    test_game_yaml(LIT(game6), 200, 120);
}

static void test_board_128(void **state)
{
    (void)state;
    test_game_yaml(LIT(game128), 10, 150);
}

static void test_board_144(void **state)
{
    (void)state;
    test_game_yaml(LIT(game144), 10, 150);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_games),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_tables_partial),
        cmocka_unit_test(test_board_128),
        cmocka_unit_test(test_board_144),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
