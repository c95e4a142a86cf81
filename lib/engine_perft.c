/*
 * lib/engine_perft.c — perft (leaf counts of the legal-move tree), divided perft and
 * the split of a perft into independent jobs.
 *
 * Convention (DESIGN.md §4): distinct canonical PMN = distinct move; history
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

int koma_engine_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err)
{
    if (e->fx) return koma__fxe_perft(e, depth, nodes, err);
    *nodes = 0;
    if (depth == 0) {
        *nodes = 1;
        return 0;
    }
    if (koma__movebuf(e, depth, err) != 0) return -1;
    *nodes = perft_rec(e, depth, e->movebuf);
    return 0;
}

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const koma_perft_entry *)a)->pmn, ((const koma_perft_entry *)b)->pmn);
}

int koma_engine_perft_divide(koma_engine *e, unsigned depth, koma_perft_entry **out,
                             size_t *count, void (*progress)(void *ctx, size_t done, size_t total),
                             void *ctx, koma_error *err)
{
    *out = NULL;
    *count = 0;
    if (depth == 0) return koma_error_set(err, KOMA_E_PERFT_DEPTH, 0, "divide needs a depth of at least 1");
    if (e->fx) {
        if (koma__fxe_perft_divide(e, depth, out, count, progress, ctx, err) != 0) return -1;
        qsort(*out, *count, sizeof **out, entry_cmp);
        return 0;
    }
    if (koma__movebuf(e, depth, err) != 0) return -1;
    koma_emove *root = e->movebuf;
    size_t n = koma__finished(e) ? 0 : koma__gen_legal(e, root);
    koma_perft_entry *entries = calloc(n ? n : 1, sizeof *entries);
    if (entries == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (divide)");
    koma__undo u;
    for (size_t i = 0; i < n; i++) {
        koma_engine_move_write(e, root[i], entries[i].pmn);
        koma__make(e, root[i], &u);
        entries[i].nodes = depth == 1 ? 1 : perft_rec(e, depth - 1, root + e->max_moves);
        koma__unmake(e, &u);
        if (progress) progress(ctx, i + 1, n);
    }
    qsort(entries, n, sizeof *entries, entry_cmp);
    *out = entries;
    *count = n;
    return 0;
}

typedef struct split_ctx {
    unsigned left;                     /* depth of each job */
    int (*job)(void *ctx, unsigned depth, const char *feen, size_t len);
    void *ctx;
    char *feen;
    size_t cap;
    koma_error *err;
} split_ctx;

static int split_rec(koma_engine *e, unsigned plies, koma_emove *buf, split_ctx *sc)
{
    if (plies == 0) {
        size_t len;
        if (koma_engine_feen(e, sc->feen, sc->cap, &len, sc->err) != 0) return -1;
        int rc = sc->job(sc->ctx, sc->left, sc->feen, len);
        return rc ? 1 : 0;
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

int koma_engine_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                            int (*job)(void *ctx, unsigned depth, const char *feen, size_t len),
                            void *ctx, koma_error *err)
{
    if (plies > depth)
        return koma_error_set(err, KOMA_E_PERFT_DEPTH, 0, "split plies (%u) exceed the depth (%u)",
                              plies, depth);
    if (e->fx) return koma__fxe_perft_split(e, depth, plies, job, ctx, err);
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
    return rc < 0 ? -1 : rc;
}
