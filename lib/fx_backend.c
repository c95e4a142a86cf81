/*
 * lib/fx_backend.c — the rules engine API (koma/engine.h) on the effect engine
 * (fx_internal.h), for games whose definition says `engine: effects` (Ko shogi). engine.c
 * and engine_perft.c hand every call for such a game to the function of the same name
 * here (koma__fxe_*), so the tools and the referee see one engine API whatever
 * the backend; the shogi-family engine's own code and hot paths are untouched.
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

/* The engine of an effect game, without a position yet (engine_board.c's koma_engine_new
 * sets the start). */
int koma__fxe_new(const koma_game *g, koma_engine **out, koma_error *err)
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

int koma__fxe_set_position(koma_engine *e, const koma_position *pos, koma_error *err)
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

size_t koma__fxe_legal_moves(koma_engine *e, koma_emove *moves)
{
    koma_error err;
    long n = generate(e, &err);
    if (n < 0) return 0;
    for (long i = 0; i < n; i++) moves[i] = (koma_emove)i;
    return (size_t)n;
}

int koma__fxe_move_pmn(const koma_engine *e, koma_emove m, koma_move *out)
{
    koma_chain c;
    koma__fx_move_chain(e->fx, m, &c);
    /* a move of several elements is no one PMN move (koma_engine_move_text has it) */
    if (c.len != 1) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    *out = c.el[0];
    return 0;
}

size_t koma__fxe_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap)
{
    return koma__fx_move_text(e->fx, m, buf, cap);
}

void koma__fxe_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out)
{
    memset(out, 0, sizeof *out);
    const koma__fx *fx = e->fx;
    if (fx->nundo >= fx->nstores || m >= fx->stores[fx->nundo].n) return;
    const fx_rec *r = &fx->stores[fx->nundo].rec[m];
    out->key = r->key ^ ((uint64_t)fx->turn << 63);
    out->captures = (unsigned)r->nrem + r->cap;
    out->resets = 0;
}

int koma__fxe_parse_move(koma_engine *e, const char *s, size_t len, koma_emove *out, koma_error *err)
{
    koma_chain c;
    if (koma_chain_parse(s, len, &c, err) != 0) return -1;
    uint32_t m;
    if (koma__fx_find(e->fx, &c, &m, err) != 0) return -1;
    *out = m;
    return 0;
}

int koma__fxe_find_move(koma_engine *e, const koma_move *mv, koma_emove *out, koma_error *err)
{
    koma_chain c;
    koma_chain_of_move(mv, &c);
    uint32_t m;
    if (koma__fx_find(e->fx, &c, &m, err) != 0) return -1;
    *out = m;
    return 0;
}

void koma__fxe_position_ending(koma_engine *e, koma_ending *out)
{
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

int koma__fxe_threatens(koma_engine *e, int side)
{
    koma_error err;
    int t = koma__fx_threatens(e->fx, side, &err);
    if (t < 0) e->fx->failed = 1;
    return t == 1;
}

int koma__fxe_take_failure(koma_engine *e)
{
    int f = e->fx->failed;
    e->fx->failed = 0;
    return f;
}

/* ---- perft --------------------------------------------------------------------- */

int koma__fxe_perft_divide(koma_engine *e, unsigned depth, koma_perft_entry **out, size_t *count,
                           void (*progress)(void *ctx, size_t done, size_t total), void *ctx,
                           koma_error *err)
{
    koma__fx *fx = e->fx;
    long n = generate(e, err);
    if (n < 0) return -1;
    koma_perft_entry *entries = calloc(n ? (size_t)n : 1, sizeof *entries);
    if (entries == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (divide)");
    for (long i = 0; i < n; i++) {
        koma__fx_move_text(fx, (uint32_t)i, entries[i].pmn, sizeof entries[i].pmn);
        if (koma__fx_make(fx, (uint32_t)i, err) != 0) {
            free(entries);
            return -1;
        }
        int rc = koma__fx_perft(fx, depth - 1, &entries[i].nodes, err);
        koma__fx_unmake(fx);
        if (rc != 0) {
            free(entries);
            return -1;
        }
        if (progress) progress(ctx, (size_t)i + 1, (size_t)n);
    }
    *out = entries;
    *count = (size_t)n;
    return 0;
}

static int split_rec(koma_engine *e, unsigned plies, unsigned left,
                     int (*job)(void *ctx, unsigned depth, const char *feen, size_t len),
                     void *ctx, char *feen, koma_error *err)
{
    koma__fx *fx = e->fx;
    if (plies == 0) {
        koma_position pos;
        koma_position_init(&pos);
        int rc = koma__fx_get_position(fx, &pos, err);
        size_t len = rc == 0 ? koma_feen_write(&pos, feen, KOMA_FEEN_MAX_LEN + 1) : 0;
        koma_position_cleanup(&pos);
        if (rc != 0) return -1;
        if (len > KOMA_FEEN_MAX_LEN)
            return koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, "the position's FEEN needs %zu bytes",
                                  len + 1);
        return job(ctx, left, feen, len) ? 1 : 0;
    }
    long n = generate(e, err);
    if (n < 0) return -1;
    for (long i = 0; i < n; i++) {
        if (koma__fx_make(fx, (uint32_t)i, err) != 0) return -1;
        int rc = split_rec(e, plies - 1, left, job, ctx, feen, err);
        koma__fx_unmake(fx);
        if (rc) return rc;
    }
    return 0;
}

int koma__fxe_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                          int (*job)(void *ctx, unsigned depth, const char *feen, size_t len),
                          void *ctx, koma_error *err)
{
    char *feen = malloc(KOMA_FEEN_MAX_LEN + 1);
    if (feen == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (split)");
    int rc = split_rec(e, plies, depth - plies, job, ctx, feen, err);
    free(feen);
    return rc;
}

/* ---- the rest of the API ---------------------------------------------------------- */

void koma__fxe_free(koma_engine *e)
{
    koma__fx_free(e->fx);
    e->fx = NULL;
}

int koma__fxe_get_position(const koma_engine *e, koma_position *pos, koma_error *err)
{
    return koma__fx_get_position(e->fx, pos, err);
}

size_t koma__fxe_max_moves(const koma_engine *e)
{
    (void)e;
    return KOMA__FX_MAX_MOVES;
}

int koma__fxe_turn(const koma_engine *e) { return koma__fx_turn(e->fx); }
uint64_t koma__fxe_hash(const koma_engine *e) { return koma__fx_hash(e->fx); }
size_t koma__fxe_ply(const koma_engine *e) { return koma__fx_ply(e->fx); }

int koma__fxe_make(koma_engine *e, koma_emove m, koma_error *err)
{
    if (koma__fx_ply(e->fx) >= KOMA_ENGINE_MAX_PLIES)
        return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "more than %d plies", KOMA_ENGINE_MAX_PLIES);
    return koma__fx_make(e->fx, m, err);
}

int koma__fxe_unmake(koma_engine *e) { return koma__fx_unmake(e->fx); }

int koma__fxe_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err)
{
    return koma__fx_perft(e->fx, depth, nodes, err);
}
