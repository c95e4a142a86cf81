/*
 * lib/engine_perft.c — the mailbox engine's perft (leaf counts of the legal-move
 * tree), divided perft and the split of a perft into independent jobs, reached
 * through its table (engine_mailbox.c); the recursion calls the board and the
 * generator directly.
 *
 * Convention (koma-perft(1)): distinct canonical PMN = distinct move; history
 * rules ignored; a finished position (a royal captured, a bare king decided, or
 * no legal move) has no moves; the last ply is counted in bulk.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"

static uint64_t perft_rec(koma_engine *e, unsigned depth, koma_emove *buf)
{
    if (koma__finished(e)) return 0;
    if (depth == 1) return koma__count_legal(e, buf);
    size_t n = koma__gen_legal(e, buf);
    if (depth == 2) return koma__count_children(e, buf, n, buf + e->max_moves);
    uint64_t total = 0;
    koma_emove *next = buf + e->max_moves;
    koma__undo u;
    for (size_t i = 0; i < n; i++) {
        koma__make(e, buf[i], &u);
        total += perft_rec(e, depth - 1, next);
        koma__unmake(e, &u);
    }
    return total;
}

int koma__mb_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err)
{
    *nodes = 0;
    if (koma__movebuf(e, depth, err) != 0) return -1;
    *nodes = perft_rec(e, depth, e->movebuf);
    return 0;
}

/* (depth >= 1; the facade sorts the entries) */
int koma__mb_perft_divide(koma_engine *e, unsigned depth, koma_perft_entry **out,
                          size_t *count, koma_perft_progress_fn progress,
                          void *ctx, koma_error *err)
{
    if (koma__movebuf(e, depth, err) != 0) return -1;
    koma_emove *root = e->movebuf;
    size_t n = koma__finished(e) ? 0 : koma__gen_legal(e, root);
    koma_perft_entry *entries = calloc(n ? n : 1, sizeof *entries);
    if (entries == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (divide)");
    koma__undo u;
    for (size_t i = 0; i < n; i++) {
        koma__mb_move_write(e, root[i], entries[i].pmn);
        koma__make(e, root[i], &u);
        entries[i].nodes = depth == 1 ? 1 : perft_rec(e, depth - 1, root + e->max_moves);
        koma__unmake(e, &u);
        int stop = progress ? progress(ctx, i + 1, n) : 0;
        if (stop != 0) {
            free(entries);
            return stop;
        }
    }
    *out = entries;
    *count = n;
    return 0;
}

typedef struct split_ctx {
    unsigned left;                     /* depth of each job */
    koma_perft_job_fn job;
    void *ctx;
    char *feen;
    size_t cap;
    koma_error *err;
} split_ctx;

static int split_rec(koma_engine *e, unsigned plies, koma_emove *buf, split_ctx *sc)
{
    if (plies == 0) {
        koma_position pos;
        koma_position_init(&pos);
        int rc = koma__mb_get_position(e, &pos, sc->err);
        size_t len = rc == 0 ? koma_feen_write(&pos, sc->feen, sc->cap) : 0;
        koma_position_cleanup(&pos);
        if (rc != 0) return -1;
        if (len >= sc->cap)
            return koma_error_set(sc->err, KOMA_E_FEEN_LENGTH, 0, "the position's FEEN needs %zu bytes",
                                  len + 1);
        return sc->job(sc->ctx, sc->left, sc->feen, len);
    }
    if (koma__finished(e)) return 0;
    size_t n = koma__gen_legal(e, buf);
    koma__undo u;
    for (size_t i = 0; i < n; i++) {
        koma__make(e, buf[i], &u);
        int rc = split_rec(e, plies - 1, buf + e->max_moves, sc);
        koma__unmake(e, &u);
        if (rc) return rc;
    }
    return 0;
}

/* (plies <= depth: the facade checked) */
int koma__mb_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                         koma_perft_job_fn job,
                         void *ctx, koma_error *err)
{
    if (koma__movebuf(e, plies ? plies : 1, err) != 0) return -1;
    split_ctx sc;
    sc.left = depth - plies;
    sc.job = job;
    sc.ctx = ctx;
    sc.cap = KOMA_FEEN_MAX_LEN + 1;
    sc.err = err;
    sc.feen = malloc(sc.cap);
    if (sc.feen == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (split)");
    int rc = split_rec(e, plies, e->movebuf, &sc);
    free(sc.feen);
    return rc;
}
