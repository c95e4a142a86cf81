/* lib/ggn_internal.h — a GGN document as held in memory (pieces -> sources ->
 * destinations -> possibilities, conditions in one pool), shared by ggn.c
 * (load, build, write) and ggn_moves.c (the move query). Not installed. */
#ifndef KOMA_GGN_INTERNAL_H
#define KOMA_GGN_INTERNAL_H

#include <stddef.h>
#include <koma/ggn.h>

typedef struct ggn_poss {
    size_t must, nmust;            /* conditions g->conds[must .. must+nmust) */
    size_t deny, ndeny;
} ggn_poss;

typedef struct ggn_dst {
    koma_location loc;
    ggn_poss *poss;
    size_t n, cap;
} ggn_dst;

typedef struct ggn_src {
    koma_location loc;
    ggn_dst *dsts;
    size_t n, cap;
} ggn_src;

typedef struct ggn_piece {
    koma_qpi qpi;
    ggn_src *srcs;
    size_t n, cap;
} ggn_piece;

struct koma_ggn {
    ggn_piece *pieces;
    size_t n, cap;
    koma_lcn *conds;
    size_t nconds, condcap;
    size_t nposs;
};

/* The conditions of g from index i: NULL (never NULL + 0, undefined behaviour)
 * in a document that has none yet, where every count is 0. */
static inline const koma_lcn *koma__ggn_conds(const koma_ggn *g, size_t i)
{
    return g->conds ? g->conds + i : NULL;
}

static inline int koma__qpi_equal(const koma_qpi *a, const koma_qpi *b)
{
    return a->style == b->style && a->piece == b->piece;
}

static inline int koma__location_equal(const koma_location *a, const koma_location *b)
{
    if (a->hand || b->hand) return a->hand && b->hand;
    return koma_cell_equal(&a->cell, &b->cell);
}

#endif
