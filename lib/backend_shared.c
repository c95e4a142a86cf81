/*
 * lib/backend_shared.c — the entries of the table of operations
 * (engine_backend.h) written once for several backends, on the table itself:
 *   - a divided perft and a split one (koma_engine_perft_divide,
 *     koma_engine_perft_split), for the backends whose moves are handles of the
 *     current position (the effect engine, the Sanki engine): each root move
 *     with the perft below it, and the positions `plies` plies down, each
 *     handed to the job as canonical FEEN with the depth left;
 *   - the refusal of GGN-driven generation (koma_engine_ggn_moves) by a backend
 *     whose moves GGN cannot express, in its own words (its ggn_refusal).
 * The backend's own entries are called through its table, never through the
 * facade.
 */
#include <stdlib.h>

#include "internal.h"
#include "engine_internal.h"

typedef struct split {
    koma_engine *e;
    koma_perft_job_fn job;
    void *ctx;
    unsigned left;
    size_t max;
    koma_emove *moves;                 /* max moves a ply */
    char *feen;
} split;

static int split_rec(split *sp, unsigned plies, koma_emove *moves, koma_error *err)
{
    koma_engine *e = sp->e;
    if (plies == 0) {
        koma_position pos;
        koma_position_init(&pos);
        int rc = e->ops->get_position(e, &pos, err);
        size_t len = rc == 0 ? koma_feen_write(&pos, sp->feen, KOMA_FEEN_MAX_LEN + 1) : 0;
        koma_position_cleanup(&pos);
        if (rc != 0) return -1;
        if (len > KOMA_FEEN_MAX_LEN)
            return koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, "the position's FEEN needs %zu bytes",
                                  len + 1);
        return sp->job(sp->ctx, sp->left, sp->feen, len);   /* its own value stops */
    }
    size_t n = e->ops->legal_moves(e, moves);
    if (e->ops->take_failure(e)) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (split)");
    for (size_t i = 0; i < n; i++) {
        if (e->ops->make(e, moves[i], err) != 0) return -1;
        int rc = split_rec(sp, plies - 1, moves + sp->max, err);
        e->ops->unmake(e);
        if (rc) return rc;
    }
    return 0;
}

int koma__ops_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                          koma_perft_job_fn job,
                          void *ctx, koma_error *err)
{
    split sp = {e, job, ctx, depth - plies, e->ops->max_moves(e), NULL, NULL};
    sp.moves = malloc((plies ? plies : 1) * sp.max * sizeof *sp.moves);
    sp.feen = malloc(KOMA_FEEN_MAX_LEN + 1);
    int rc = sp.moves && sp.feen ? split_rec(&sp, plies, sp.moves, err)
                                 : koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (split)");
    free(sp.moves);
    free(sp.feen);
    return rc;
}

/* (the facade sorts the entries) */
int koma__ops_perft_divide(koma_engine *e, unsigned depth, koma_perft_entry **out, size_t *count,
                           koma_perft_progress_fn progress, void *ctx,
                           koma_error *err)
{
    koma_emove *moves = malloc(e->ops->max_moves(e) * sizeof *moves);
    if (moves == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (divide)");
    size_t n = e->ops->legal_moves(e, moves);
    koma_perft_entry *entries = e->ops->take_failure(e) ? NULL : calloc(n ? n : 1, sizeof *entries);
    int rc = entries ? 0 : koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (divide)"), stop = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        e->ops->move_text(e, moves[i], entries[i].pmn, sizeof entries[i].pmn);
        if (e->ops->make(e, moves[i], err) != 0) {
            rc = -1;
            break;
        }
        entries[i].nodes = 1;
        if (depth > 1) rc = e->ops->perft(e, depth - 1, &entries[i].nodes, err);
        e->ops->unmake(e);
        if (rc == 0 && progress && (stop = progress(ctx, i + 1, n)) != 0) break;
    }
    free(moves);
    if (rc != 0 || stop != 0) {
        free(entries);
        return rc != 0 ? -1 : stop;     /* a progress callback's own value stops */
    }
    *out = entries;
    *count = n;
    return 0;
}

/* game.ggn: the game's id, the backend's reason in parentheses when it gives one. */
int koma__ops_ggn_refused(koma_engine *e, const koma_ggn *ggn, koma_move_fn emit, void *ctx,
                          koma_error *err)
{
    (void)ggn;
    (void)emit;
    (void)ctx;
    const char *why = e->ops->ggn_refusal;
    return koma_error_set(err, KOMA_E_GAME_GGN, 0,
                          "GGN cannot express the moves of %s%s%s%s: no GGN-driven generation",
                          koma_game_id(e->game), why ? " (" : "", why ? why : "", why ? ")" : "");
}
