/*
 * lib/sanki_backend.c — the Sanki engine's table of operations
 * (engine_backend.h), for games whose definition says `engine: sanki` (the
 * Sanki family: chess, Ōgi on 8×8, Xiongqi, each side its own; koma-games(7),
 * SANKI). Moves are koma_emove values that encode the move itself
 * (sanki_state.h), so a move found again is the same value.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"
#include "sanki_rules.h"

static int ske_create(const koma_game *g, koma_engine **out, koma_error *err)
{
    *out = NULL;
    koma_engine *e = calloc(1, sizeof *e);
    if (e == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    e->game = g;
    if (koma__sk_new(&e->sk, err) != 0) {
        free(e);
        return -1;
    }
    *out = e;
    return 0;
}

static void ske_destroy(koma_engine *e)
{
    koma__sk_free(e->sk);
    free(e);
}

static int ske_set_position(koma_engine *e, const koma_position *pos, koma_error *err)
{
    if (koma__position_fits(e->game, pos, err) != 0) return -1;
    koma__sk_set(e->sk, pos);
    return 0;
}

static int ske_get_position(const koma_engine *e, koma_position *pos, koma_error *err)
{
    return koma__sk_get(e->sk, pos, err);
}

static int ske_turn(const koma_engine *e) { return e->sk->cur.turn; }
static uint64_t ske_hash(const koma_engine *e) { return koma__sk_hash(e->sk); }
static size_t ske_ply(const koma_engine *e) { return e->sk->nundo; }
static size_t ske_max_moves(const koma_engine *e) { (void)e; return KOMA__SK_MAX_MOVES; }

static size_t ske_legal_moves(koma_engine *e, koma_emove *moves)
{
    return koma__sk_generate(e->sk, e->sk->cur.turn, KOMA__SK_LEGAL, moves, 0);
}

static int ske_move_pmn(const koma_engine *e, koma_emove m, koma_move *out)
{
    koma__sk_move_pmn(e->sk, m, out);
    return 0;
}

static size_t ske_move_write(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF])
{
    koma_move mv;
    koma__sk_move_pmn(e->sk, m, &mv);
    return koma_pmn_write(&mv, buf);
}

static size_t ske_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap)
{
    char t[KOMA_PMN_BUF];
    size_t n = ske_move_write(e, m, t);
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, t, k);
        buf[k] = '\0';
    }
    return n;
}

/* A capture (en passant included) or a board move of a foot soldier resets the
 * move-limit count; castling and drops do not. */
static void ske_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out)
{
    const koma__sk_pos *p = &e->sk->cur;
    memset(out, 0, sizeof *out);
    out->key = (uint64_t)m ^ ((uint64_t)p->turn << 63);
    int type = KOMA__SK_M_TYPE(m);
    if (type == KOMA__SK_EP || (type == KOMA__SK_BOARD && p->sq[KOMA__SK_M_TO(m)] != KOMA_PIECE_NONE))
        out->captures = 1;
    out->resets = (type == KOMA__SK_BOARD || type == KOMA__SK_EP) &&
                  koma__sk_class_of(p->sq[KOMA__SK_M_FROM(m)]) == KOMA__SK_FOOT;
}

static int ske_find_move(koma_engine *e, const koma_move *m, koma_emove *out, koma_error *err)
{
    uint32_t mv;
    if (koma__sk_find(e->sk, m, &mv, err) != 0) return -1;
    *out = mv;
    return 0;
}

static int ske_parse_move(koma_engine *e, const char *s, size_t len, koma_emove *out, koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(s, len, &m, err) != 0) return -1;
    return ske_find_move(e, &m, out, err);
}

static int ske_make(koma_engine *e, koma_emove m, koma_error *err)
{
    if (e->sk->nundo >= KOMA_LIMIT_PLIES)
        return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "more than %d plies", KOMA_LIMIT_PLIES);
    return koma__sk_make(e->sk, m, err);
}

static int ske_unmake(koma_engine *e)
{
    if (e->sk->nundo == 0) return -1;
    koma__sk_unmake(e->sk);
    return 0;
}

static void ske_position_ending(koma_engine *e, koma_ending *out, int has_move)
{
    (void)has_move;                    /* (a dead position is decided with moves too) */
    memset(out, 0, sizeof *out);
    out->side = -1;
    int over;
    koma_status st = koma__sk_ending(e->sk, &over);
    if (!over) return;
    out->over = 1;
    out->status = st;
    out->side = e->sk->cur.turn;
    out->result = koma_game_result(e->game, st, out->side);
}

static int ske_threatens(koma_engine *e, int side)
{
    return koma__sk_in_check(e->sk, &e->sk->cur, side ^ 1);
}

static int ske_in_check(koma_engine *e) { return koma__sk_in_check(e->sk, &e->sk->cur, e->sk->cur.turn); }
static int ske_take_failure(koma_engine *e) { (void)e; return 0; }

static int ske_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err)
{
    return koma__sk_perft(e->sk, depth, nodes, err);
}

const koma__engine_ops koma__sanki_ops = {
    .name = "sanki",
    .flags = KOMA__ENGINE_ONE_PMN | KOMA__ENGINE_MARKED_IDENTITY,
    /* GGN cannot express castling, en passant nor the FEEN markers a move recomposes */
    .ggn_refusal = "castling, en passant, the FEEN markers a move changes",
    .create = ske_create,
    .destroy = ske_destroy,
    .set_position = ske_set_position,
    .get_position = ske_get_position,
    .turn = ske_turn,
    .hash = ske_hash,
    .ply = ske_ply,
    .max_moves = ske_max_moves,
    .legal_moves = ske_legal_moves,
    .move_pmn = ske_move_pmn,
    .move_write = ske_move_write,
    .move_text = ske_move_text,
    .move_facts = ske_move_facts,
    .find_move = ske_find_move,
    .parse_move = ske_parse_move,
    .make = ske_make,
    .unmake = ske_unmake,
    .position_ending = ske_position_ending,
    .in_check = ske_in_check,
    .threatens = ske_threatens,
    .take_failure = ske_take_failure,
    .perft = ske_perft,
    .perft_divide = koma__ops_perft_divide,
    .perft_split = koma__ops_perft_split,
    .ggn_moves = koma__ops_ggn_refused,
};
