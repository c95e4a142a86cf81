/*
 * lib/ggn_moves.c — the GGN move query (koma-formats(5), GGN, "Moves from a
 * document"): the pseudo-legal
 * moves a GGN document allows in a position (koma_ggn_moves), each
 * possibility's must and deny conditions tested against the position.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ggn_internal.h"

/* ---- the move query ------------------------------------------------------------------ */

void koma_ggn_qpi_of(koma_piece p, const char styles[2], koma_qpi *out)
{
    int side = koma_piece_side(p);
    int style_side = (p & KOMA_PIECE_DERIVED) ? 1 - side : side;
    char st = styles[style_side];
    if (side == KOMA_SECOND && KOMA_IS_UPPER(st)) st = (char)(st - 'A' + 'a');
    if (side == KOMA_FIRST && KOMA_IS_LOWER(st)) st = (char)(st - 'a' + 'A');
    out->style = st;
    out->piece = (koma_piece)(p & ~(koma_piece)KOMA_PIECE_DERIVED);
}

/* The piece on a cell, or -1 when the cell is not on the board. */
static int piece_at(const koma_position *pos, const koma_cell *c, koma_piece *out)
{
    uint32_t sq;
    if (koma_shape_square(&pos->shape, c, &sq, NULL) != 0) return -1;
    *out = pos->board[sq];
    return 0;
}

static int lcn_holds(const koma_position *pos, const koma_lcn *c)
{
    koma_piece p;
    if (piece_at(pos, &c->cell, &p) != 0) return 0;
    switch (c->kind) {
    case KOMA_LCN_EMPTY: return p == KOMA_PIECE_NONE;
    case KOMA_LCN_ENEMY: return p != KOMA_PIECE_NONE && koma_piece_side(p) != pos->turn;
    case KOMA_LCN_PIECE: {
        if (p == KOMA_PIECE_NONE) return 0;
        koma_qpi q;
        koma_ggn_qpi_of(p, pos->style, &q);
        return koma__qpi_equal(&q, &c->piece);
    }
    }
    return 0;
}

static int allowed(const koma_ggn *g, const koma_position *pos, const ggn_dst *d)
{
    for (size_t i = 0; i < d->n; i++) {
        const ggn_poss *p = &d->poss[i];
        size_t k;
        for (k = 0; k < p->nmust; k++)
            if (!lcn_holds(pos, &g->conds[p->must + k])) break;
        if (k < p->nmust) continue;
        for (k = 0; k < p->ndeny; k++)
            if (lcn_holds(pos, &g->conds[p->deny + k])) break;
        if (k < p->ndeny) continue;
        return 1;
    }
    return 0;
}

static const ggn_src *find_source(const koma_ggn *g, const koma_qpi *q, const koma_location *l)
{
    for (size_t i = 0; i < g->n; i++) {
        const ggn_piece *pc = &g->pieces[i];
        if (!koma__qpi_equal(&pc->qpi, q)) continue;
        for (size_t j = 0; j < pc->n; j++)
            if (koma__location_equal(&pc->srcs[j].loc, l)) return &pc->srcs[j];
        return NULL;
    }
    return NULL;
}

int koma_ggn_moves(const koma_ggn *g, const koma_position *pos,
                   koma_move_fn emit,
                   void *ctx, koma_error *err)
{
    if (g == NULL || pos == NULL || emit == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_ggn_moves: missing argument");
    koma_error_clear(err);
    char text[KOMA_PMN_BUF];
    char a[KOMA_CELL_BUF], b[KOMA_CELL_BUF], e[KOMA_EPIN_BUF];

    /* Board pieces of the side to move. */
    for (uint32_t sq = 0; sq < pos->shape.squares; sq++) {
        koma_piece p = pos->board[sq];
        if (p == KOMA_PIECE_NONE || koma_piece_side(p) != pos->turn) continue;
        koma_qpi q;
        koma_location from;
        koma_ggn_qpi_of(p, pos->style, &q);
        memset(&from, 0, sizeof from);
        koma_shape_cell(&pos->shape, sq, &from.cell);
        const ggn_src *s = find_source(g, &q, &from);
        if (s == NULL) continue;
        size_t alen = koma_cell_write(&from.cell, a);
        for (size_t k = 0; k < s->n; k++) {
            const ggn_dst *d = &s->dsts[k];
            koma_move m;
            memset(&m, 0, sizeof m);
            size_t n;
            if (d->loc.hand) {
                if (!allowed(g, pos, d)) continue;
                m.kind = KOMA_MOVE_STATIC;
                m.dst = from.cell;
                text[0] = '+';
                memcpy(text + 1, a, alen + 1);
                n = alen + 1;
            } else {
                koma_piece target;
                if (koma_cell_equal(&d->loc.cell, &from.cell)) continue;
                if (piece_at(pos, &d->loc.cell, &target) != 0) continue;
                if (!allowed(g, pos, d)) continue;
                size_t blen = koma_cell_write(&d->loc.cell, b);
                m.kind = target == KOMA_PIECE_NONE ? KOMA_MOVE_QUIET : KOMA_MOVE_CAPTURE;
                m.src = from.cell;
                m.dst = d->loc.cell;
                memcpy(text, a, alen);
                text[alen] = m.kind == KOMA_MOVE_QUIET ? '-' : '+';
                memcpy(text + alen + 1, b, blen + 1);
                n = alen + 1 + blen;
            }
            int stop = emit(ctx, text, n, &m);
            if (stop != 0) return stop;
        }
    }

    /* Drops: pieces of the side to move in its own hand. */
    const koma_hand *hand = &pos->hands[pos->turn];
    koma_location star;
    memset(&star, 0, sizeof star);
    star.hand = 1;
    for (size_t i = 0; i < hand->len; i++) {
        koma_piece p = hand->items[i].piece;
        if (hand->items[i].count == 0 || koma_piece_side(p) != pos->turn) continue;
        koma_qpi q;
        koma_ggn_qpi_of(p, pos->style, &q);
        const ggn_src *s = find_source(g, &q, &star);
        if (s == NULL) continue;
        size_t elen = koma_epin_write(p, e);
        for (size_t k = 0; k < s->n; k++) {
            const ggn_dst *d = &s->dsts[k];
            koma_piece target;
            if (d->loc.hand) continue;
            if (piece_at(pos, &d->loc.cell, &target) != 0) continue;
            if (!allowed(g, pos, d)) continue;
            koma_move m;
            memset(&m, 0, sizeof m);
            m.kind = target == KOMA_PIECE_NONE ? KOMA_MOVE_DROP : KOMA_MOVE_DROPCAP;
            m.piece = p;
            m.dst = d->loc.cell;
            size_t blen = koma_cell_write(&d->loc.cell, b);
            memcpy(text, e, elen);
            text[elen] = m.kind == KOMA_MOVE_DROP ? '*' : '.';
            memcpy(text + elen + 1, b, blen + 1);
            int stop = emit(ctx, text, elen + 1 + blen, &m);
            if (stop != 0) return stop;
        }
    }
    return 0;
}
