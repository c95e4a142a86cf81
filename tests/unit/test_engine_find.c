/*
 * tests/unit/test_engine_find.c — the lazy look-ups agree with the legal list.
 *
 * koma_engine_find_move (and so the referee) checks one move without
 * generating the legal list, and koma_engine_position_ending decides "no legal
 * move" by stopping at the first move. On positions of random games of every
 * playable built-in game, from its start and from sparse positions with hands:
 *   - every move of koma_engine_legal_moves is found back, as the same move;
 *   - a text made for every own piece and every square (quiet or capture as the
 *     square says, with and without a promotion suffix, with each captured
 *     identity) and every drop of every kind on every square is accepted
 *     exactly when its canonical PMN is in the legal list, as that move;
 *   - the position ends with no legal move (checkmate, stalemate, nomove)
 *     exactly when the list is empty and no royal was captured.
 * The find's short cuts are compared so with the list's own tests: the reach
 * from the tables (koma__reaches_in) and a move of a piece neither royal nor
 * pinned taken as legal out of check (koma__free_mover); either made wrong
 * (blockers ignored, pins or the check forgotten) fails here.
 */
#include <stdlib.h>
#include "unit.h"

typedef struct ctx {
    koma_engine *e;
    koma_emove *moves;
    char (*pmn)[KOMA_PMN_BUF];         /* the legal moves' PMN, sorted */
    koma_emove *sorted;                /* the moves in that order */
    size_t n;
    uint64_t seed;
    unsigned long tried, accepted;
} ctx;

static uint64_t next(ctx *c)
{
    uint64_t x = c->seed;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    c->seed = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static int find(const ctx *c, const char *pmn)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int d = strcmp(c->pmn[mid], pmn);
        if (d == 0) return (int)mid;
        if (d < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

static void try_text(ctx *c, const char *text)
{
    koma_error err;
    koma_error_clear(&err);
    koma_move m;
    if (koma_pmn_parse(text, strlen(text), &m, &err) != 0) return;
    char canon[KOMA_PMN_BUF];
    koma_pmn_write(&m, canon);
    int at = find(c, canon);
    koma_emove em;
    int rc = koma_engine_find_move(c->e, &m, &em, &err);
    c->tried++;
    if ((rc == 0) != (at >= 0))
        print_error("%s: find_move %d (%s), in the legal list: %s\n", text, rc,
                    rc ? err.message : "", at >= 0 ? "yes" : "no");
    assert_int_equal(rc == 0, at >= 0);
    if (rc == 0) {
        assert_int_equal(em, c->sorted[at]);
        c->accepted++;
    } else {
        assert_true(err.code != KOMA_OK);
    }
}

static void sort_legal(ctx *c)
{
    /* insertion sort of (pmn, move) pairs: lists are short */
    for (size_t i = 0; i < c->n; i++) {
        char p[KOMA_PMN_BUF];
        koma_engine_move_write(c->e, c->moves[i], p);
        size_t j = i;
        while (j > 0 && strcmp(c->pmn[j - 1], p) > 0) {
            memcpy(c->pmn[j], c->pmn[j - 1], KOMA_PMN_BUF);
            c->sorted[j] = c->sorted[j - 1];
            j--;
        }
        memcpy(c->pmn[j], p, KOMA_PMN_BUF);
        c->sorted[j] = c->moves[i];
    }
}

static char letter(koma_piece p, int upper)
{
    return (char)((upper ? 'A' : 'a') + (int)(p & KOMA_PIECE_LETTER) - 1);
}

static void check_position(ctx *c, const koma_game *g, int candidates)
{
    koma_engine *e = c->e;
    c->n = koma_engine_legal_moves(e, c->moves);
    sort_legal(c);
    for (size_t i = 1; i < c->n; i++) assert_true(strcmp(c->pmn[i - 1], c->pmn[i]) < 0);

    koma_ending end;
    koma_engine_position_ending(e, &end);
    int nomove = end.over && (end.status == KOMA_STATUS_CHECKMATE ||
                              end.status == KOMA_STATUS_STALEMATE ||
                              end.status == KOMA_STATUS_NOMOVE);
    int captured = end.over && end.status == KOMA_STATUS_MAREKING;
    assert_int_equal(nomove, c->n == 0 && !captured);

    for (size_t i = 0; i < c->n; i++) try_text(c, c->pmn[i]);
    if (!candidates) return;

    koma_position pos;
    koma_position_init(&pos);
    koma_error err;
    assert_int_equal(koma_engine_get_position(e, &pos, &err), 0);
    unsigned files = koma_game_files(g), ranks = koma_game_ranks(g);
    int side = koma_engine_turn(e);
    static const char kinds[] = "KIRBSNLPGQ";
    for (unsigned f = 0; f < files; f++)
        for (unsigned r = 0; r < ranks; r++) {
            koma_piece p = pos.board[(ranks - 1 - r) * files + f];
            char t[64];
            if (p != KOMA_PIECE_NONE && koma_piece_side(p) == side) {
                char own = letter(p, side == KOMA_FIRST);
                for (unsigned f2 = 0; f2 < files; f2++)
                    for (unsigned r2 = 0; r2 < ranks; r2++) {
                        koma_piece q = pos.board[(ranks - 1 - r2) * files + f2];
                        char op = q == KOMA_PIECE_NONE ? '-' : '+';
                        int n = snprintf(t, sizeof t, "%c%u%c%c%u", 'a' + f, r + 1, op, 'a' + f2,
                                         r2 + 1);
                        char base[32];
                        memcpy(base, t, (size_t)n + 1);
                        try_text(c, base);
                        snprintf(t, sizeof t, "%s=+%c", base, own);
                        try_text(c, t);
                        if (q != KOMA_PIECE_NONE) {
                            /* the captured piece as the mover would hold it */
                            char held = letter(q, side == KOMA_FIRST);
                            snprintf(t, sizeof t, "%s/%c", base, held);
                            try_text(c, t);
                            snprintf(t, sizeof t, "%s/+%c", base, held);
                            try_text(c, t);
                            snprintf(t, sizeof t, "%s=+%c/%c", base, own, held);
                            try_text(c, t);
                            if (q & KOMA_PIECE_TERMINAL) {
                                snprintf(t, sizeof t, "%s/%c^", base, held);
                                try_text(c, t);
                            }
                        }
                    }
            }
            for (const char *k = kinds; *k; k++) {
                char d = side == KOMA_FIRST ? *k : (char)(*k - 'A' + 'a');
                snprintf(t, sizeof t, "%c*%c%u", d, 'a' + f, r + 1);
                try_text(c, t);
                snprintf(t, sizeof t, "+%c*%c%u", d, 'a' + f, r + 1);
                try_text(c, t);
            }
        }
    koma_position_cleanup(&pos);
}

static void random_games(const char *id, const char *feen, int games, int plies, uint64_t seed)
{
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g = koma_game_set_find_id(set, id, strlen(id));
    assert_non_null(g);
    ctx c;
    memset(&c, 0, sizeof c);
    assert_int_equal(koma_engine_new(g, &c.e, &err), 0);
    size_t max = koma_engine_max_moves(c.e);
    c.moves = malloc(max * sizeof *c.moves);
    c.sorted = malloc(max * sizeof *c.sorted);
    c.pmn = malloc(max * sizeof *c.pmn);
    assert_non_null(c.moves);
    assert_non_null(c.sorted);
    assert_non_null(c.pmn);
    c.seed = seed;
    for (int gi = 0; gi < games; gi++) {
        assert_int_equal(koma_engine_set_feen(c.e, feen, strlen(feen), &err), 0);
        for (int ply = 0; ply < plies; ply++) {
            check_position(&c, g, ply % 5 == 0);
            if (c.n == 0) break;
            assert_int_equal(koma_engine_make(c.e, c.sorted[next(&c) % c.n], &err), 0);
            koma_ending end;
            koma_engine_position_ending(c.e, &end);
            if (end.over) {
                check_position(&c, g, 1);
                break;
            }
        }
    }
    assert_true(c.accepted > 0);
    assert_true(c.tried > c.accepted);
    free(c.moves);
    free(c.sorted);
    free(c.pmn);
    koma_engine_free(c.e);
    koma_game_set_free(set);
}

static void test_ogi(void **state)
{
    (void)state;
    random_games("ogi", "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o", 3, 80, 1);
    random_games("ogi", "k^6r/8/8/3+P4/8/8/8/R6K^ 2PN+R/bil O/o", 3, 60, 2);
}

static void test_ogi_classic(void **state)
{
    (void)state;
    random_games("ogi-classic", "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o", 3,
                 80, 3);
    random_games("ogi-classic", "k^6r/8/8/3+P4/8/8/8/R6K^ 2PN+R/bil O/o", 3, 60, 4);
}

static void test_shogi(void **state)
{
    (void)state;
    random_games("shogi", "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s", 2,
                 80, 5);
    /* pawn drops next to a king: mate by pawn drop, nifu */
    random_games("shogi", "4k^4/9/4G4/9/9/9/9/9/4K^4 2PR/p s/S", 3, 60, 6);
    /* full hands on a bare board: checks by drops, interpositions, pins by
     * riders, double checks (the royal state: koma__royal_state) */
    random_games("shogi", "4k^4/9/9/9/9/9/9/9/4K^4 3PBGLNRS/3pbglnrs S/s", 6, 80, 9);
    random_games("shogi", "3gk^g3/9/9/9/9/9/9/9/3GK^G3 2B2RLP/2l2p S/s", 6, 80, 10);
}

static void test_minishogi_okisaki(void **state)
{
    (void)state;
    random_games("minishogi", "rbsgk^/4p/5/P4/K^GSBR / S/s", 4, 80, 7);
    random_games("minishogi", "4k^/5/5/5/K^4 BGPRS/bgprs S/s", 6, 60, 11);
    random_games("okisaki",
                 "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSNL / Q/q", 2,
                 60, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ogi),
        cmocka_unit_test(test_ogi_classic),
        cmocka_unit_test(test_shogi),
        cmocka_unit_test(test_minishogi_okisaki),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
