/*
 * tests/unit/test_engine_feen.c — koma_engine_feen's quick path (the mailbox
 * engine's koma__mb_feen, lib/engine_feen.c: FEEN written straight from the
 * board and hands) gives the bytes of the general one (koma_engine_get_position
 * and koma_feen_write), on every position of random games of every playable
 * built-in game, from its start and from positions with full hands (counts of
 * one and two digits, equal counts, promoted pieces held); and with a buffer
 * too small for the quick path's bound, koma_engine_feen still writes the whole
 * FEEN when it fits and refuses (an empty buffer, feen.length) when it does not.
 */
#include <stdlib.h>
#include "unit.h"
#include "engine_internal.h"

static uint64_t seed = 1;

static uint64_t next_random(void)
{
    uint64_t x = seed;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    seed = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static unsigned long compared, quick_written;

/* The position's FEEN both ways, and koma_engine_feen with each small buffer. */
static void same_feen(koma_engine *e)
{
    koma_position pos;
    koma_position_init(&pos);
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_get_position(e, &pos, &err), 0);
    char general[KOMA_FEEN_MAX_LEN + 1];
    size_t n = koma_feen_write(&pos, general, sizeof general);
    koma_position_cleanup(&pos);
    assert_true(n > 0 && n < sizeof general);

    char quick[KOMA_FEEN_MAX_LEN + 1];
    size_t len = 0;
    assert_int_equal(koma_engine_feen(e, quick, sizeof quick, &len, &err), 0);
    if (len != n || strcmp(quick, general) != 0)
        print_error("koma_engine_feen: %s\n  the position's FEEN: %s\n", quick, general);
    assert_int_equal(len, n);
    assert_string_equal(quick, general);
    if (e->ops->feen) {
        memset(quick, 'x', sizeof quick);
        assert_int_equal(e->ops->feen(e, quick, sizeof quick), n);
        assert_string_equal(quick, general);
        quick_written++;
    }
    compared++;

    /* buffers from too small to just enough: the whole FEEN or an error */
    for (size_t cap = n > 3 ? n - 3 : 1; cap <= n + 2; cap++) {
        char small[KOMA_FEEN_MAX_LEN + 1];
        memset(small, 'x', sizeof small);
        koma_error_clear(&err);
        len = 99;
        int rc = koma_engine_feen(e, small, cap, &len, &err);
        if (cap > n) {
            assert_int_equal(rc, 0);
            assert_int_equal(len, n);
            assert_string_equal(small, general);
        } else {
            assert_int_not_equal(rc, 0);
            assert_int_equal(err.code, KOMA_E_FEEN_LENGTH);
            assert_int_equal(len, 0);
            assert_int_equal(small[0], '\0');
        }
        assert_int_equal(small[cap], 'x');   /* nothing past the buffer */
    }
}

static void random_game(koma_engine *e, int plies)
{
    size_t max = koma_engine_max_moves(e);
    koma_emove *moves = malloc(max * sizeof *moves);
    assert_non_null(moves);
    koma_error err;
    koma_error_clear(&err);
    same_feen(e);
    for (int ply = 0; ply < plies; ply++) {
        size_t n = koma_engine_legal_moves(e, moves);
        if (n == 0) break;
        assert_int_equal(koma_engine_make(e, moves[next_random() % n], &err), 0);
        same_feen(e);
    }
    free(moves);
}

static void test_every_game(void **state)
{
    (void)state;
    const koma_game_set *set = games_set();
    koma_error err;
    koma_error_clear(&err);
    size_t games = 0;
    for (size_t i = 0; i < koma_game_set_count(set); i++) {
        const koma_game *g = koma_game_set_at(set, i);
        if (g == NULL || !koma_game_playable(g)) continue;
        koma_engine *e;
        assert_int_equal(koma_engine_new(g, &e, &err), 0);
        for (int k = 0; k < 3; k++) {
            assert_int_equal(koma_engine_set_start(e, &err), 0);
            random_game(e, 150);
        }
        koma_engine_free(e);
        games++;
    }
    assert_true(games >= 5);
}

/* Positions with hands: each set, then a random game from it. */
static void from_feens(const char *id, const char *const *feens)
{
    koma_error err;
    koma_error_clear(&err);
    koma_engine *e;
    assert_int_equal(koma_engine_new(game_of(id), &e, &err), 0);
    assert_non_null(e->ops->feen);
    for (const char *const *f = feens; *f; f++)
        for (int k = 0; k < 4; k++) {
            if (koma_engine_set_feen(e, *f, strlen(*f), &err) != 0)
                print_error("%s: %s\n", *f, err.message);
            assert_int_equal(err.code, KOMA_OK);
            random_game(e, 80);
        }
    koma_engine_free(e);
}

static void test_hands(void **state)
{
    (void)state;
    static const char *const shogi[] = {
        "4k^4/9/9/9/9/9/9/9/4K^4 12P3L2BGRS/6p3g3n3slr S/s",
        "4k^4/9/9/9/9/9/9/9/4K^4 2G2L2N2P2S/2g2l2n2p2sbr s/S",
        "3gk^g3/9/9/9/9/9/9/9/3GK^G3 2B2RLP/2l2p S/s",
        "l3k^3l/9/p+P+Pp+p+Bpp1/9/9/9/P+p+P+r4P/9/L3K^3L 10P2G/ S/s",
        NULL,
    };
    from_feens("shogi", shogi);
    static const char *const ogi[] = {
        "k^6r/8/8/3+P4/8/8/8/R6K^ 2PN+R/bil O/o",
        "k^7/8/8/8/8/8/8/7K^ 10P2N2S/12pbl o/O",
        NULL,
    };
    from_feens("ogi", ogi);
    static const char *const mini[] = { "4k^/5/5/5/K^4 BGPRS/bgprs S/s", NULL };
    from_feens("minishogi", mini);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game),
        cmocka_unit_test(test_hands),
    };
    int rc = cmocka_run_group_tests(tests, games_setup, games_teardown);
    if (rc == 0 && (compared < 1000 || quick_written < 1000)) {
        fprintf(stderr, "test_engine_feen: only %lu positions compared (%lu quick)\n", compared,
                quick_written);
        return 1;
    }
    return rc;
}
