/*
 * lib/engine.c — the rules engine's facade (koma/engine.h): the backend is chosen
 * once, when the engine is made (the game's definition: `engine: effects` for
 * the effect engine, `engine: sanki` the Sanki engine, the mailbox engine
 * otherwise), and every call that differs
 * per backend is one call through the engine's table of operations
 * (engine_backend.h). What is the same for every backend is here, once: FEEN in
 * and out, the start position, argument checks, the sorting of a divided perft,
 * the engine made for one GGN generation.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"

/* ---- the engine --------------------------------------------------------------------- */

int koma_engine_new(const koma_game *g, koma_engine **out, koma_error *err)
{
    *out = NULL;
    if (koma_game_require_rules(g, err) != 0) return -1;
    const koma__engine_ops *ops = g->fx      ? &koma__fx_ops
                              : g->sanki ? &koma__sanki_ops
                                         : &koma__mailbox_ops;
    koma_engine *e;
    if (ops->create(g, &e, err) != 0) return -1;
    e->ops = ops;
    if (koma_engine_set_start(e, err) != 0) {
        koma_engine_free(e);
        return -1;
    }
    *out = e;
    return 0;
}

void koma_engine_free(koma_engine *e)
{
    if (e) e->ops->destroy(e);
}

const koma_game *koma_engine_game(const koma_engine *e) { return e->game; }
unsigned koma__engine_flags(const koma_engine *e) { return e->ops->flags; }

/* ---- positions ---------------------------------------------------------------------- */

int koma_engine_set_position(koma_engine *e, const koma_position *pos, koma_error *err)
{
    return e->ops->set_position(e, pos, err);
}

int koma_engine_set_feen(koma_engine *e, const char *feen, size_t len, koma_error *err)
{
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &pos, err);
    if (rc == 0) rc = e->ops->set_position(e, &pos, err);
    koma_position_cleanup(&pos);
    return rc;
}

int koma_engine_set_start(koma_engine *e, koma_error *err)
{
    return koma_engine_set_feen(e, e->game->start, e->game->start_len, err);
}

int koma_engine_get_position(const koma_engine *e, koma_position *pos, koma_error *err)
{
    return e->ops->get_position(e, pos, err);
}

int koma_engine_feen(const koma_engine *e, char *buf, size_t cap, size_t *len, koma_error *err)
{
    size_t quick = e->ops->feen ? e->ops->feen(e, buf, cap) : 0;
    if (quick > 0) {
        if (len) *len = quick;
        return 0;
    }
    koma_position pos;
    koma_position_init(&pos);
    int rc = e->ops->get_position(e, &pos, err);
    size_t n = 0;
    if (rc == 0) {
        n = koma_feen_write(&pos, buf, cap);
        if (n >= cap) rc = koma_error_set(err, KOMA_E_FEEN_LENGTH, 0,
                                          "the position's FEEN needs %zu bytes", n + 1);
    }
    koma_position_cleanup(&pos);
    if (rc != 0) {
        /* never a partial FEEN that could pass for a position */
        if (cap) buf[0] = '\0';
        n = 0;
    }
    if (len) *len = n;
    return rc;
}

int koma_engine_turn(const koma_engine *e) { return e->ops->turn(e); }
uint64_t koma_engine_hash(const koma_engine *e) { return e->ops->hash(e); }
size_t koma_engine_ply(const koma_engine *e) { return e->ops->ply(e); }

/* ---- moves -------------------------------------------------------------------------- */

size_t koma_engine_max_moves(const koma_engine *e) { return e->ops->max_moves(e); }

size_t koma_engine_legal_moves(koma_engine *e, koma_emove *moves)
{
    return e->ops->legal_moves(e, moves);
}

int koma_engine_move_pmn(const koma_engine *e, koma_emove m, koma_move *out)
{
    return e->ops->move_pmn(e, m, out);
}

size_t koma_engine_move_write(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF])
{
    return e->ops->move_write(e, m, buf);
}

size_t koma_engine_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap)
{
    return e->ops->move_text(e, m, buf, cap);
}

void koma_engine_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out)
{
    e->ops->move_facts(e, m, out);
}

int koma_engine_find_move(koma_engine *e, const koma_move *m, koma_emove *out, koma_error *err)
{
    return e->ops->find_move(e, m, out, err);
}

int koma_engine_parse_move(koma_engine *e, const char *s, size_t len, koma_emove *out,
                           koma_error *err)
{
    return e->ops->parse_move(e, s, len, out, err);
}

int koma_engine_make(koma_engine *e, koma_emove m, koma_error *err)
{
    return e->ops->make(e, m, err);
}

int koma_engine_unmake(koma_engine *e) { return e->ops->unmake(e); }

/* ---- endings and threats ---------------------------------------------------------------- */

void koma_engine_position_ending(koma_engine *e, koma_ending *out)
{
    e->ops->position_ending(e, out, 0);
}

void koma__position_ending(koma_engine *e, koma_ending *out, int has_move)
{
    e->ops->position_ending(e, out, has_move);
}

int koma_engine_in_check(koma_engine *e) { return e->ops->in_check(e); }
int koma_engine_threatens(koma_engine *e, int side) { return e->ops->threatens(e, side); }
int koma__engine_trouble(koma_engine *e) { return e->ops->take_failure(e); }

/* ---- GGN-driven generation ---------------------------------------------------------- */

int koma_engine_ggn_moves(koma_engine *e, const koma_ggn *ggn,
                          koma_move_fn emit,
                          void *ctx, koma_error *err)
{
    if (e == NULL || ggn == NULL || emit == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_engine_ggn_moves: missing argument");
    return e->ops->ggn_moves(e, ggn, emit, ctx, err);
}

int koma_ggn_generate(const koma_ggn *ggn, const koma_game *game, const koma_position *pos,
                      koma_move_fn emit,
                      void *ctx, koma_error *err)
{
    if (ggn == NULL || game == NULL || pos == NULL || emit == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_ggn_generate: missing argument");
    koma_engine *e;
    if (koma_engine_new(game, &e, err) != 0) return -1;
    int rc = koma_engine_set_position(e, pos, err);
    if (rc == 0) rc = koma_engine_ggn_moves(e, ggn, emit, ctx, err);
    koma_engine_free(e);
    return rc;
}

/* ---- perft -------------------------------------------------------------------------- */

int koma_engine_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err)
{
    if (depth == 0) {
        *nodes = 1;
        return 0;
    }
    return e->ops->perft(e, depth, nodes, err);
}

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const koma_perft_entry *)a)->pmn, ((const koma_perft_entry *)b)->pmn);
}

int koma_engine_perft_divide(koma_engine *e, unsigned depth, koma_perft_entry **out,
                             size_t *count, koma_perft_progress_fn progress,
                             void *ctx, koma_error *err)
{
    *out = NULL;
    *count = 0;
    if (depth == 0) return koma_error_set(err, KOMA_E_PERFT_DEPTH, 0, "divide needs a depth of at least 1");
    int rc = e->ops->perft_divide(e, depth, out, count, progress, ctx, err);
    if (rc != 0) return rc;
    qsort(*out, *count, sizeof **out, entry_cmp);
    return 0;
}

int koma_engine_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                            koma_perft_job_fn job,
                            void *ctx, koma_error *err)
{
    if (plies > depth)
        return koma_error_set(err, KOMA_E_PERFT_DEPTH, 0, "split plies (%u) exceed the depth (%u)",
                              plies, depth);
    return e->ops->perft_split(e, depth, plies, job, ctx, err);
}
