/*
 * tests/unit/test_engine_backend.c — the seam between the engine API and its
 * backends (lib/engine_backend.h, lib/engine.c):
 *   - every built-in game's engine holds the table its definition asks for (the
 *     effect engine's for Ko shogi, the mailbox engine's otherwise), and both
 *     tables have every entry;
 *   - the public calls answer what the engine's table answers (positions, moves,
 *     their texts and facts, make/unmake, endings, threats, perft), on the start
 *     position and after a few plies;
 *   - a mailbox engine set again to the position it was last set to (its
 *     state then copied back, not rebuilt) is the engine set afresh: FEEN,
 *     hash, turn, plies, check, perft;
 *   - what the facade does once for both: perft of depth 0, a divided perft
 *     sorted, the checks of split and GGN generation, and the GGN generation
 *     of an effect game and of a Sanki game refused (the shared entry, each
 *     table's reason).
 */
#include <stdlib.h>
#include "unit.h"

#include "internal.h"
#include "engine_internal.h"

static const char *const ids[] = {"shogi", "minishogi", "ogi", "ogi-classic", "okisaki", "koshogi"};

static void every_entry(const koma__engine_ops *ops)
{
#define SET(f) (ops->f != NULL)
    const int set[] = {
        SET(create), SET(destroy), SET(set_position), SET(get_position), SET(turn), SET(hash),
        SET(ply), SET(max_moves), SET(legal_moves), SET(move_pmn), SET(move_write),
        SET(move_text), SET(move_facts), SET(find_move), SET(parse_move), SET(make),
        SET(unmake), SET(position_ending), SET(in_check), SET(threatens), SET(take_failure),
        SET(perft), SET(perft_divide), SET(perft_split), SET(ggn_moves),
    };
#undef SET
    assert_non_null(ops->name);
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) assert_true(set[i]);
}

static void tables_filled(void **state)
{
    (void)state;
    every_entry(&koma__mailbox_ops);
    every_entry(&koma__fx_ops);
    assert_string_equal(koma__mailbox_ops.name, "mailbox");
    assert_string_equal(koma__fx_ops.name, "effects");
    assert_true(koma__mailbox_ops.flags & KOMA__ENGINE_ONE_PMN);
    assert_false(koma__mailbox_ops.flags & KOMA__ENGINE_MARKED_IDENTITY);
    assert_false(koma__fx_ops.flags & KOMA__ENGINE_ONE_PMN);
    assert_true(koma__fx_ops.flags & KOMA__ENGINE_MARKED_IDENTITY);
    /* the referee's quick loop does not ask the mailbox engine for trouble
     * (agree: its take_failure answers 0 after every call), nor writes its
     * FEEN through a position (test_engine_feen) */
    assert_true(koma__mailbox_ops.flags & KOMA__ENGINE_NO_FAILURE);
    assert_false(koma__fx_ops.flags & KOMA__ENGINE_NO_FAILURE);
    assert_non_null(koma__mailbox_ops.feen);
}

/* The public calls and the table agree on the engine's current position. */
static void agree(koma_engine *e)
{
    const koma__engine_ops *ops = e->ops;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_turn(e), ops->turn(e));
    assert_true(koma_engine_hash(e) == ops->hash(e));
    assert_int_equal(koma_engine_ply(e), ops->ply(e));
    assert_int_equal(koma_engine_max_moves(e), ops->max_moves(e));
    assert_int_equal(koma_engine_in_check(e), ops->in_check(e));
    for (int side = 0; side < 2; side++)
        assert_int_equal(koma_engine_threatens(e, side), ops->threatens(e, side));
    koma_ending a, b;
    koma_engine_position_ending(e, &a);
    ops->position_ending(e, &b, 0);
    assert_int_equal(a.over, b.over);
    assert_int_equal(a.side, b.side);
    if (a.over) {
        assert_int_equal(a.status, b.status);
        assert_int_equal(a.result, b.result);
    }
    size_t max = koma_engine_max_moves(e);
    koma_emove *m1 = malloc(max * sizeof *m1), *m2 = malloc(max * sizeof *m2);
    assert_non_null(m1);
    assert_non_null(m2);
    size_t n = koma_engine_legal_moves(e, m1);
    assert_int_equal(ops->legal_moves(e, m2), n);
    assert_int_equal(koma__engine_trouble(e), 0);
    if (ops->flags & KOMA__ENGINE_NO_FAILURE) assert_int_equal(ops->take_failure(e), 0);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(m1[i], m2[i]);
        char t1[KOMA_MOVE_TEXT_BUF], t2[KOMA_MOVE_TEXT_BUF], p1[KOMA_PMN_BUF], p2[KOMA_PMN_BUF];
        size_t l1 = koma_engine_move_text(e, m1[i], t1, sizeof t1);
        assert_int_equal(ops->move_text(e, m1[i], t2, sizeof t2), l1);
        assert_string_equal(t1, t2);
        assert_int_equal(koma_engine_move_write(e, m1[i], p1), ops->move_write(e, m1[i], p2));
        assert_string_equal(p1, p2);
        koma_move mv1, mv2;
        assert_int_equal(koma_engine_move_pmn(e, m1[i], &mv1), ops->move_pmn(e, m1[i], &mv2));
        assert_memory_equal(&mv1, &mv2, sizeof mv1);
        koma_move_facts f1, f2;
        koma_engine_move_facts(e, m1[i], &f1);
        ops->move_facts(e, m1[i], &f2);
        assert_memory_equal(&f1, &f2, sizeof f1);
        /* the text names the move, through the facade as through the table */
        koma_emove back = (koma_emove)-1;
        assert_int_equal(koma_engine_parse_move(e, t1, l1, &back, &err), 0);
        assert_int_equal(back, m1[i]);
        assert_int_equal(ops->parse_move(e, t1, l1, &back, &err), 0);
        assert_int_equal(back, m1[i]);
        if (koma_engine_move_pmn(e, m1[i], &mv1) == 0) {
            assert_int_equal(koma_engine_find_move(e, &mv1, &back, &err), 0);
            assert_int_equal(back, m1[i]);
        }
    }
    koma_position p1, p2;
    koma_position_init(&p1);
    koma_position_init(&p2);
    assert_int_equal(koma_engine_get_position(e, &p1, &err), 0);
    assert_int_equal(ops->get_position(e, &p2, &err), 0);
    char f1[KOMA_FEEN_MAX_LEN + 1], f2[KOMA_FEEN_MAX_LEN + 1];
    size_t len;
    assert_int_equal(koma_engine_feen(e, f1, sizeof f1, &len, &err), 0);
    assert_int_equal(koma_feen_write(&p2, f2, sizeof f2), len);
    assert_string_equal(f1, f2);
    koma_position_cleanup(&p1);
    koma_position_cleanup(&p2);
    uint64_t nodes = 0, table = 0;
    assert_int_equal(koma_engine_perft(e, 1, &nodes, &err), 0);
    assert_int_equal(ops->perft(e, 1, &table, &err), 0);
    assert_true(nodes == table);
    assert_true(nodes == n);
    free(m1);
    free(m2);
}

/* Take back ply `made` (0-based), through the table or the facade in turn. */
static int k_unmake_either(koma_engine *e, size_t made)
{
    return (made & 1) ? e->ops->unmake(e) : koma_engine_unmake(e);
}

static int emit_none(void *ctx, const char *pmn, size_t len, const koma_move *move)
{
    (void)pmn;
    (void)len;
    (void)move;
    (void)ctx;
    return 0;
}

static void each_game(void **state)
{
    (void)state;
    for (size_t g = 0; g < sizeof ids / sizeof ids[0]; g++) {
        const koma_game *game = game_of(ids[g]);
        koma_engine *e;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_engine_new(game, &e, &err), 0);
        int effects = strcmp(ids[g], "koshogi") == 0;
        assert_ptr_equal(e->ops, effects ? &koma__fx_ops : &koma__mailbox_ops);
        assert_int_equal(koma__engine_flags(e), e->ops->flags);
        assert_ptr_equal(koma_engine_game(e), game);
        /* the start, then a few plies of the first legal move (made through the
         * facade and through the table in turn), then back */
        koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
        assert_non_null(moves);
        agree(e);
        size_t made = 0;
        for (int k = 0; k < 4; k++) {
            size_t n = koma_engine_legal_moves(e, moves);
            if (n == 0) break;
            koma_emove m = moves[(size_t)k * 7 % n];
            if (k & 1) assert_int_equal(e->ops->make(e, m, &err), 0);
            else assert_int_equal(koma_engine_make(e, m, &err), 0);
            made++;
            assert_int_equal(koma_engine_ply(e), made);
            agree(e);
        }
        while (made--) assert_int_equal(k_unmake_either(e, made), 0);
        free(moves);
        koma_engine_free(e);
    }
}

/* e and a fresh engine agree on the position they were both set to. */
static void same_as_fresh(koma_engine *e, const char *feen)
{
    koma_engine *f;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_new(koma_engine_game(e), &f, &err), 0);
    assert_int_equal(koma_engine_set_feen(f, feen, strlen(feen), &err), 0);
    char a[KOMA_FEEN_MAX_LEN + 1], b[KOMA_FEEN_MAX_LEN + 1];
    assert_int_equal(koma_engine_feen(e, a, sizeof a, NULL, &err), 0);
    assert_int_equal(koma_engine_feen(f, b, sizeof b, NULL, &err), 0);
    assert_string_equal(a, b);
    assert_true(koma_engine_hash(e) == koma_engine_hash(f));
    assert_int_equal(koma_engine_turn(e), koma_engine_turn(f));
    assert_int_equal(koma_engine_ply(e), 0);
    assert_int_equal(koma_engine_in_check(e), koma_engine_in_check(f));
    uint64_t ne, nf;
    assert_int_equal(koma_engine_perft(e, 2, &ne, &err), 0);
    assert_int_equal(koma_engine_perft(f, 2, &nf, &err), 0);
    assert_true(ne == nf);
    /* and every field of the mailbox engine's state */
    assert_memory_equal(e->board, f->board, (size_t)e->size);
    assert_memory_equal(e->nifu, f->nifu, (size_t)2 * e->game->nkinds * (size_t)e->files);
    assert_memory_equal(e->hand, f->hand, sizeof e->hand);
    assert_memory_equal(e->held, f->held, sizeof e->held);
    assert_memory_equal(e->royal_sq, f->royal_sq, sizeof e->royal_sq);
    assert_memory_equal(e->nroyal, f->nroyal, sizeof e->nroyal);
    assert_int_equal(e->royal_in_hand, f->royal_in_hand);
    assert_memory_equal(e->material, f->material, sizeof e->material);
    assert_true(e->hash_board == f->hash_board && e->hash_hand == f->hash_hand);
    assert_memory_equal(e->occ, f->occ, sizeof e->occ);
    assert_memory_equal(e->set_bb, f->set_bb, sizeof e->set_bb);
    koma_engine_free(f);
}

static void set_again(void **state)
{
    (void)state;
    /* each game's start, and a position with pieces in hand and a king in check */
    static const struct { const char *id, *feen; } cases[] = {
        {"shogi", "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"},
        {"shogi", "4k^4/9/4R4/9/9/9/9/9/4K^4 2PG/b s/S"},
        {"ogi", "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"},
        {"minishogi", "rbsgk^/4p/5/P4/K^GSBR / S/s"},
        {"okisaki", NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        koma_engine *e;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_engine_new(game_of(cases[c].id), &e, &err), 0);
        char start[KOMA_FEEN_MAX_LEN + 1];
        if (cases[c].feen == NULL) {   /* the game's start */
            assert_int_equal(koma_engine_set_start(e, &err), 0);
            assert_int_equal(koma_engine_feen(e, start, sizeof start, NULL, &err), 0);
        }
        const char *feen = cases[c].feen ? cases[c].feen : start;
        koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
        assert_non_null(moves);
        char other[KOMA_FEEN_MAX_LEN + 1];
        for (int round = 0; round < 3; round++) {
            assert_int_equal(koma_engine_set_feen(e, feen, strlen(feen), &err), 0);
            same_as_fresh(e, feen);
            /* plies made, a capture whenever there is one */
            for (int k = 0; k < 12; k++) {
                size_t n = koma_engine_legal_moves(e, moves);
                if (n == 0) break;
                koma_emove m = moves[(size_t)(k * 11 + round) % n];
                for (size_t i = 0; i < n; i++) {
                    koma_move_facts f;
                    koma_engine_move_facts(e, moves[i], &f);
                    if (f.captures) {
                        m = moves[i];
                        break;
                    }
                }
                assert_int_equal(koma_engine_make(e, m, &err), 0);
            }
            assert_int_equal(koma_engine_feen(e, other, sizeof other, NULL, &err), 0);
            /* round 1: another position set in between */
            if (round == 1) {
                assert_int_equal(koma_engine_set_feen(e, other, strlen(other), &err), 0);
                same_as_fresh(e, other);
            }
        }
        free(moves);
        koma_engine_free(e);
    }
}

static void facade_once(void **state)
{
    (void)state;
    const char *const two[] = {"shogi", "koshogi"};
    for (size_t g = 0; g < 2; g++) {
        koma_engine *e;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_engine_new(game_of(two[g]), &e, &err), 0);
        uint64_t nodes = 0;
        assert_int_equal(koma_engine_perft(e, 0, &nodes, &err), 0);
        assert_true(nodes == 1);
        koma_perft_entry *entries;
        size_t count;
        assert_int_equal(koma_engine_perft_divide(e, 0, &entries, &count, NULL, NULL, &err), -1);
        assert_int_equal(err.code, KOMA_E_PERFT_DEPTH);
        assert_int_equal(koma_engine_perft_divide(e, 1, &entries, &count, NULL, NULL, &err), 0);
        assert_true(count > 0);
        for (size_t i = 1; i < count; i++) assert_true(strcmp(entries[i - 1].pmn, entries[i].pmn) < 0);
        free(entries);
        assert_int_equal(koma_engine_perft_split(e, 1, 2, NULL, NULL, &err), -1);
        assert_int_equal(err.code, KOMA_E_PERFT_DEPTH);
        assert_int_equal(koma_engine_ggn_moves(e, NULL, NULL, NULL, &err), -1);
        assert_int_equal(err.code, KOMA_E_INTERNAL);
        koma_engine_free(e);
    }
    /* an effect game's and a Sanki game's moves are no GGN: refused by the
     * shared entry, each table's reason in its words (the Sanki engine's; none
     * for the effect engine) */
    static const struct { const char *id, *message; } refused[] = {
        {"koshogi", "GGN cannot express the moves of koshogi: no GGN-driven generation"},
        {"sanki", "GGN cannot express the moves of sanki (castling, en passant, the FEEN markers "
                  "a move changes): no GGN-driven generation"},
    };
    koma_error err;
    koma_error_clear(&err);
    koma_ggn *ggn = NULL;
    koma_game_to_ggn(game_of("shogi"), &ggn, &err);
    assert_non_null(ggn);
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        koma_engine *e;
        assert_int_equal(koma_engine_new(game_of(refused[i].id), &e, &err), 0);
        assert_ptr_equal(e->ops->ggn_moves, koma__ops_ggn_refused);
        assert_int_equal(koma_engine_ggn_moves(e, ggn, emit_none, NULL, &err), -1);
        assert_int_equal(err.code, KOMA_E_GAME_GGN);
        assert_string_equal(err.message, refused[i].message);
        koma_engine_free(e);
    }
    koma_ggn_free(ggn);
    koma_engine_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tables_filled),
        cmocka_unit_test(each_game),
        cmocka_unit_test(set_again),
        cmocka_unit_test(facade_once),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
