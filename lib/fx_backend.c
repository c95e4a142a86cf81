/*
 * lib/fx_backend.c — the effect engine's table of operations (engine_backend.h):
 * the rules engine API (koma/engine.h) on the effect engine (fx_internal.h), for
 * games whose definition says `engine: effects` (Ko shogi; its rules are
 * koma-games(7)'s Ko shogi section). The facade (engine.c) hands every call for
 * such a game to the entry of the same name here, so the tools and the referee
 * see one engine API whatever the backend.
 *
 * Moves are handles into the move store of the current ply (fx_state.c): the
 * moves generated last in this position, 0..n-1, in a deterministic order, so a
 * handle found again (koma_engine_parse_move) is the same handle.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"
#include "fx_state.h"

/* The engine of an effect game, without a position yet (the facade sets the start). */
static int fxe_create(const koma_game *g, koma_engine **out, koma_error *err)
{
    *out = NULL;
    koma_engine *e = calloc(1, sizeof *e);
    if (e == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    e->game = g;
    if (koma__fx_new(g->fx, &e->fx, err) != 0) {
        free(e);
        return -1;
    }
    *out = e;
    return 0;
}

static int fxe_set_position(koma_engine *e, const koma_position *pos, koma_error *err)
{
    return koma__fx_set_position(e->fx, pos, err);
}

/* The moves of the current position into the store of this ply; -1 on trouble. */
static long generate(koma_engine *e, koma_error *err)
{
    size_t n = koma__fx_generate(e->fx, err);
    if (n == (size_t)-1) {
        e->fx->failed = 1;
        return -1;
    }
    return (long)n;
}

static size_t fxe_legal_moves(koma_engine *e, koma_emove *moves)
{
    koma_error err;
    long n = generate(e, &err);
    if (n < 0) return 0;
    for (long i = 0; i < n; i++) moves[i] = (koma_emove)i;
    return (size_t)n;
}

static int fxe_move_pmn(const koma_engine *e, koma_emove m, koma_move *out)
{
    koma_chain c;
    koma__fx_move_chain(e->fx, m, &c);
    /* a move of several elements is no one PMN move (move_text has it) */
    if (c.len != 1) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    *out = c.el[0];
    return 0;
}

static size_t fxe_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap)
{
    return koma__fx_move_text(e->fx, m, buf, cap);
}

/* A chain longer than a PMN move is refused, never cut. */
static size_t fxe_move_write(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF])
{
    char chain[KOMA_MOVE_TEXT_BUF];
    size_t n = koma__fx_move_text(e->fx, m, chain, sizeof chain);
    if (n >= KOMA_PMN_BUF) n = 0;
    memcpy(buf, chain, n);
    buf[n] = '\0';
    return n;
}

static void fxe_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out)
{
    memset(out, 0, sizeof *out);
    const koma__fx *fx = e->fx;
    if (fx->nundo >= fx->nstores || m >= fx->stores[fx->nundo].n) return;
    const fx_rec *r = &fx->stores[fx->nundo].rec[m];
    out->key = r->key ^ ((uint64_t)fx->turn << 63);
    out->captures = (unsigned)r->nrem + r->cap;
    out->resets = 0;
}

static int fxe_parse_move(koma_engine *e, const char *s, size_t len, koma_emove *out, koma_error *err)
{
    koma_chain c;
    if (koma_chain_parse(s, len, &c, err) != 0) return -1;
    uint32_t m;
    if (koma__fx_find(e->fx, &c, &m, err) != 0) return -1;
    *out = m;
    return 0;
}

static int fxe_find_move(koma_engine *e, const koma_move *mv, koma_emove *out, koma_error *err)
{
    koma_chain c;
    koma_chain_of_move(mv, &c);
    uint32_t m;
    if (koma__fx_find(e->fx, &c, &m, err) != 0) return -1;
    *out = m;
    return 0;
}

/* (has_move unused: the survival test comes first, and a generation is cheap
 * next to it) */
static void fxe_position_ending(koma_engine *e, koma_ending *out, int has_move)
{
    (void)has_move;
    const koma_game *g = e->game;
    memset(out, 0, sizeof *out);
    out->side = -1;
    int lost = koma__fx_defeated(e->fx);
    koma_status st = KOMA_STATUS_MAREKING;
    if (lost < 0) {
        koma_error err;
        long n = generate(e, &err);
        if (n != 0) return;            /* moves (or trouble, reported by the next call) */
        lost = e->fx->turn;
        st = g->nolegal_other == KOMA__NL_CHECKMATE ? KOMA_STATUS_CHECKMATE
           : g->nolegal_other == KOMA__NL_STALEMATE ? KOMA_STATUS_STALEMATE : KOMA_STATUS_NOMOVE;
    }
    out->over = 1;
    out->status = st;
    out->side = lost;
    out->result = koma_game_result(g, st, lost);
}

static int fxe_threatens(koma_engine *e, int side)
{
    koma_error err;
    int t = koma__fx_threatens(e->fx, side, &err);
    if (t < 0) e->fx->failed = 1;
    return t == 1;
}

/* The side to move is threatened: the other side threatens to end the game. */
static int fxe_in_check(koma_engine *e)
{
    return fxe_threatens(e, koma__fx_turn(e->fx) ^ 1);
}

static int fxe_take_failure(koma_engine *e)
{
    int f = e->fx->failed;
    e->fx->failed = 0;
    return f;
}

/* ---- perft --------------------------------------------------------------------- */

/* ---- the rest of the API ---------------------------------------------------------- */

static void fxe_destroy(koma_engine *e)
{
    koma__fx_free(e->fx);
    free(e);
}

static int fxe_get_position(const koma_engine *e, koma_position *pos, koma_error *err)
{
    return koma__fx_get_position(e->fx, pos, err);
}

static size_t fxe_max_moves(const koma_engine *e)
{
    (void)e;
    return KOMA__FX_MAX_MOVES;
}

static int fxe_turn(const koma_engine *e) { return koma__fx_turn(e->fx); }
static uint64_t fxe_hash(const koma_engine *e) { return koma__fx_hash(e->fx); }
static size_t fxe_ply(const koma_engine *e) { return koma__fx_ply(e->fx); }

static int fxe_make(koma_engine *e, koma_emove m, koma_error *err)
{
    if (koma__fx_ply(e->fx) >= KOMA_LIMIT_PLIES)
        return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "more than %d plies", KOMA_LIMIT_PLIES);
    return koma__fx_make(e->fx, m, err);
}

static int fxe_unmake(koma_engine *e) { return koma__fx_unmake(e->fx); }

static int fxe_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err)
{
    return koma__fx_perft(e->fx, depth, nodes, err);
}

/* ---- the table ------------------------------------------------------------------- */

const koma__engine_ops koma__fx_ops = {
    .name = "effects",
    .flags = KOMA__ENGINE_MARKED_IDENTITY,
    /* GGN cannot express a move of an effect game (a chain: shots, burns,
     * several captures); its refusal names no reason */
    .ggn_refusal = NULL,
    .create = fxe_create,
    .destroy = fxe_destroy,
    .set_position = fxe_set_position,
    .get_position = fxe_get_position,
    .turn = fxe_turn,
    .hash = fxe_hash,
    .ply = fxe_ply,
    .max_moves = fxe_max_moves,
    .legal_moves = fxe_legal_moves,
    .move_pmn = fxe_move_pmn,
    .move_write = fxe_move_write,
    .move_text = fxe_move_text,
    .move_facts = fxe_move_facts,
    .find_move = fxe_find_move,
    .parse_move = fxe_parse_move,
    .make = fxe_make,
    .unmake = fxe_unmake,
    .position_ending = fxe_position_ending,
    .in_check = fxe_in_check,
    .threatens = fxe_threatens,
    .take_failure = fxe_take_failure,
    .perft = fxe_perft,
    .perft_divide = koma__ops_perft_divide,
    .perft_split = koma__ops_perft_split,
    .ggn_moves = koma__ops_ggn_refused,
};
