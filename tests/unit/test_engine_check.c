/*
 * tests/unit/test_engine_check.c — the check and the pins found from the last
 * ply agree with the royal scan and the legal list.
 *
 * After a move that koma_engine_find_move found legal, the mailbox engine
 * knows the mover's royal safe (KOMA__Q_SAFE); after the next ply from such a
 * position it finds the side to move's check from that ply alone (the piece on
 * its destination, the line its origin opened: koma__checked_by, in
 * koma__mb_make), and a piece's pin from the one line between it and the
 * royal (koma__pinned_line), without the royal scan. On random games of the
 * check-rule games with tables (shogi from its start and from bare boards with
 * full hands: drops that check, discovered checks, pins by every rider;
 * minishogi; okisaki), each move found by its PMN before it is made, every
 * position reached so is checked:
 *   - the check so found is koma__in_check's, the royal on its square;
 *   - each own piece's pin is the royal scan's (koma__royal_scan);
 *   - koma__legal_pseudo, with only those facts known, accepts exactly the
 *     pseudo-legal moves in koma__gen_legal's list, and every board move of a
 *     piece koma__free_mover calls free is in it;
 *   - every legal move is found again by koma_engine_find_move so.
 * A discovered check or a pin left out, or a check by a ride through a
 * blocker, fails here.
 */
#include <stdlib.h>
#include "unit.h"
#include "engine_internal.h"

static unsigned long long seed = 1;

static unsigned long positions, checks, pins;

static int cmp_move(const void *a, const void *b)
{
    koma_emove x = *(const koma_emove *)a, y = *(const koma_emove *)b;
    return (x > y) - (x < y);
}

/* The facts the last ply left (quick), as the position's only knowledge. */
static void forget(koma_engine *e, unsigned quick)
{
    e->royal_known = 0;
    e->quick = quick;
}

static void check_position(koma_engine *e, koma_emove *legal, koma_emove *pseudo)
{
    if (!(e->quick & KOMA__Q_CHECK)) return;
    unsigned quick = e->quick;
    int ksq = e->check_ksq, on = e->check_on, s = e->turn;
    positions++;
    checks += (unsigned long)on;
    assert_int_equal(ksq, e->royal_sq[s]);
    assert_int_equal(on, koma__in_check(e, s));

    size_t n = koma__gen_legal(e, legal);
    qsort(legal, n, sizeof *legal, cmp_move);
    forget(e, quick);
    size_t np = koma__gen_pseudo(e, pseudo);
    for (size_t i = 0; i < np; i++) {
        koma_emove m = pseudo[i];
        int listed = bsearch(&m, legal, n, sizeof *legal, cmp_move) != NULL;
        forget(e, quick);
        int lazy = koma__legal_pseudo(e, m);
        if (lazy != listed) print_error("move %#x: koma__legal_pseudo %d, in the legal list %d\n", m, lazy, listed);
        assert_int_equal(lazy, listed);
        if (!(m & KOMA__M_DROP)) {
            forget(e, quick);
            if (koma__free_mover(e, KOMA__M_FROM(m))) assert_true(listed);
        }
    }

    /* each own piece's pin, then the royal scan's */
    int lazy_pin[KOMA__MAX_BOARD];
    for (int sq = 0; sq < e->nsquares; sq++) {
        int from = e->sq_index[sq];
        unsigned c = e->board[from];
        forget(e, quick);
        lazy_pin[sq] = c != KOMA__EMPTY && KOMA__SIDE_OF(c) == s && from != ksq && koma__pinned_now(e, ksq, from);
    }
    const koma__royal_info *st = koma__royal_scan(e);
    assert_int_equal(st->ksq, ksq);
    assert_int_equal(st->in_check, on);
    if (!on && st->npins >= 0)
        for (int sq = 0; sq < e->nsquares; sq++) {
            int from = e->sq_index[sq];
            unsigned c = e->board[from];
            int scanned = c != KOMA__EMPTY && KOMA__SIDE_OF(c) == s && from != ksq && koma__pinned(st, from);
            assert_int_equal(lazy_pin[sq], scanned);
            pins += (unsigned long)scanned;
        }

    /* every legal move found again from its PMN with only those facts */
    for (size_t i = 0; i < n; i++) {
        koma_move mv;
        koma_emove found;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_engine_move_pmn(e, legal[i], &mv), 0);
        forget(e, quick);
        assert_int_equal(koma_engine_find_move(e, &mv, &found, &err), 0);
        assert_int_equal(found, legal[i]);
    }
    forget(e, quick);
}

static void random_games(const char *id, const char *feen, int games, int plies)
{
    koma_error err;
    koma_error_clear(&err);
    koma_engine *e = engine_at(id, feen);
    assert_true(e->lines);             /* (the games here have the tables) */
    size_t max = koma_engine_max_moves(e);
    koma_emove *legal = malloc(max * sizeof *legal), *pseudo = malloc(max * sizeof *pseudo);
    assert_non_null(legal);
    assert_non_null(pseudo);
    unsigned long before = positions;
    for (int gi = 0; gi < games; gi++) {
        assert_int_equal(koma_engine_set_feen(e, feen, strlen(feen), &err), 0);
        assert_int_equal(e->quick, 0);
        for (int ply = 0; ply < plies; ply++) {
            size_t n = koma_engine_legal_moves(e, legal);
            if (n == 0) break;
            koma_emove m = legal[rnd_next(&seed, (unsigned)n)], found;
            koma_move mv;
            assert_int_equal(koma_engine_move_pmn(e, m, &mv), 0);
            e->royal_known = 0;        /* (as the referee finds it: without the list) */
            assert_int_equal(koma_engine_find_move(e, &mv, &found, &err), 0);
            assert_int_equal(found, m);
            assert_int_equal(koma_engine_make(e, m, &err), 0);
            check_position(e, legal, pseudo);
            koma_ending end;
            koma_engine_position_ending(e, &end);
            if (end.over) break;
        }
        /* a ply taken back forgets what the plies told */
        if (koma_engine_ply(e) > 0) {
            assert_int_equal(koma_engine_unmake(e), 0);
            assert_int_equal(e->quick, 0);
        }
    }
    assert_true(positions > before);   /* the path was taken */
    free(legal);
    free(pseudo);
    koma_engine_free(e);
}

static void test_shogi(void **state)
{
    (void)state;
    random_games("shogi", "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s", 3, 100);
    random_games("shogi", "4k^4/9/9/9/9/9/9/9/4K^4 3PBGLNRS/3pbglnrs S/s", 8, 80);
    random_games("shogi", "3gk^g3/9/9/9/9/9/9/9/3GK^G3 2B2RLP/2l2p S/s", 8, 80);
    random_games("shogi", "4k^4/9/4G4/9/9/9/9/9/4K^4 2PR/p s/S", 4, 60);
    /* the cases a wrong short cut would get wrong, each seen */
    assert_true(checks > 50);
    assert_true(pins > 50);
}

/* A set position tells nothing: here the side not to move is in check, and
 * stays so after the other side's first ply, which the ply alone would not
 * show. */
static void test_set_position(void **state)
{
    (void)state;
    koma_error err;
    koma_error_clear(&err);
    koma_engine *e = engine_at("shogi", "4k^4/9/9/9/4R4/9/9/9/K^8 / S/s");
    koma_emove m;
    assert_int_equal(koma_engine_parse_move(e, LIT("a1-a2"), &m, &err), 0);
    assert_int_equal(koma_engine_make(e, m, &err), 0);
    assert_int_equal(e->quick & KOMA__Q_CHECK, 0);
    assert_int_equal(koma__in_check_now(e), 1);
    koma_engine_free(e);
}

static void test_minishogi_okisaki(void **state)
{
    (void)state;
    random_games("minishogi", "rbsgk^/4p/5/P4/K^GSBR / S/s", 4, 80);
    random_games("minishogi", "4k^/5/5/5/K^4 BGPRS/bgprs S/s", 6, 60);
    random_games("okisaki", "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSNL / Q/q", 2, 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shogi),
        cmocka_unit_test(test_minishogi_okisaki),
        cmocka_unit_test(test_set_position),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
