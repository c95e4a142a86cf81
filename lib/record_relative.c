/*
 * lib/record_relative.c — where a move comes from when its record does not say
 * (KI2, and JKF written from KI2, give a destination, a piece and relative
 * marks: 右 左 直 上 引 寄 打), and the fewest marks that tell it (the KI2 and
 * JKF writers). Both use one collection of the origins (the pieces that reach
 * the square, lib/engine_origins.c; the move generator when several do) and
 * one reading of the marks (koma__relative_pick), so that what a writer says
 * reads back as it meant.
 *
 * The reading, for the side to move ("forward" is towards the opponent):
 *   上 the piece moves forward, 引 backward, 寄 sideways (same rank),
 *   直 straight forward on its own file;
 *   右 / 左 of the origins left, the one furthest to the mover's right / left.
 * Marks are applied only while several origins remain (a mark that is not
 * needed is not checked). Legal moves are tried first; pseudo-legal ones
 * (leaving one's king attacked...) only when no legal move fits, so that a
 * record with an illegal move still reads, and koma-replay can judge it.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "format_internal.h"
#include "internal.h"
#include "record_internal.h"

static koma_piece kind_of(koma_piece p) { return (koma_piece)(p & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE)); }

/* The origins from the whole list of pseudo-legal moves, each tested for
 * legality: the reference (koma__relative_collect when the hub's full_origins is
 * set, and for a position the quick look-up does not answer). */
static int collect_full(koma_engine *e, const koma_position *pos, koma_piece kind, uint32_t tosq,
                        koma__origins *o, koma_error *err)
{
    if (koma_engine_set_position(e, pos, err) != 0) return -1;
    koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    if (moves == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    size_t n = koma__gen_pseudo(e, moves);
    for (size_t i = 0; i < n; i++) {
        koma_move m;
        koma_engine_move_pmn(e, moves[i], &m);
        if (m.kind != KOMA_MOVE_QUIET && m.kind != KOMA_MOVE_CAPTURE) continue;
        uint32_t s, d;
        if (koma_shape_square(&pos->shape, &m.dst, &d, NULL) != 0 || d != tosq) continue;
        if (koma_shape_square(&pos->shape, &m.src, &s, NULL) != 0) continue;
        if (kind_of(pos->board[s]) != kind) continue;
        koma_sq f = koma_sq_from_square(&pos->shape, s);
        size_t j = 0;
        while (j < o->n && (o->sq[j].file != f.file || o->sq[j].rank != f.rank)) j++;
        if (j == o->n) {
            if (o->n == KOMA__MAX_ORIGINS) continue;
            o->sq[j] = f;
            o->legal[j] = o->pseudo[j] = 0;
            o->n++;
        }
        unsigned bit = m.actor != KOMA_PIECE_NONE ? 2u : 1u;
        o->pseudo[j] |= bit;
        if (koma__legal_pseudo(e, moves[i])) o->legal[j] |= bit;
    }
    free(moves);
    return 0;
}

int koma__relative_collect(koma_hub *h, const koma_game *g, const koma_position *pos, koma_piece kind,
                          koma_sq to, koma__origins *o, koma_error *err)
{
    o->n = 0;
    uint32_t tosq;
    if (koma_sq_to_square(&pos->shape, to, &tosq) != 0) return 0;
    koma_engine *e = koma__hub_engine(h, g, err);
    if (e == NULL) return -1;
    /* The pieces that can make the move, found on the board alone. Most moves
     * have one, or none: with one origin its legality changes no reading
     * (koma__relative_pick takes it legal or not, marks and all;
     * koma__relative_marks then needs none), so legal[] repeats pseudo[]. With
     * several, each one's moves are tested. */
    uint32_t from[KOMA__MAX_ORIGINS];
    unsigned moves[KOMA__MAX_ORIGINS];
    if (h->memo == NULL && !h->full_origins && (h->memo = malloc(sizeof *h->memo)) != NULL) h->memo->e = NULL;
    int n = h->full_origins ? -1 : koma__mb_origins(e, pos, kind, tosq, from, moves, KOMA__MAX_ORIGINS, h->memo);
    if (n < 0 || n > KOMA__MAX_ORIGINS) return collect_full(e, pos, kind, tosq, o, err);
    for (int i = 0; i < n; i++) {
        o->sq[i] = koma_sq_from_square(&pos->shape, from[i]);
        o->legal[i] = o->pseudo[i] = moves[i];
    }
    o->n = (size_t)n;
    if (n < 2) return 0;
    /* several: the legality of each one's moves (the position set in the engine) */
    if (koma_engine_set_position(e, pos, err) != 0) return -1;
    int to_idx = e->sq_index[tosq];
    for (int i = 0; i < n; i++) {
        koma_emove v[2];
        size_t nv = koma__board_variants(e, e->sq_index[from[i]], to_idx, v);
        o->legal[i] = 0;
        for (size_t k = 0; k < nv; k++)
            if (koma__legal_pseudo(e, v[k])) o->legal[i] |= (v[k] & KOMA__M_PROMOTE) ? 2u : 1u;
    }
    return 0;
}

/* dy > 0: the move from `from` to `to` goes forward for turn. */
static int forward(koma_sq from, koma_sq to, int turn)
{
    int dy = (int)from.rank - (int)to.rank;
    return turn == KOMA_FIRST ? dy : -dy;
}

static int motion_fits(koma_sq from, koma_sq to, int turn, unsigned rel)
{
    int dy = forward(from, to, turn);
    if ((rel & KOMA_REL_UP) && dy <= 0) return 0;
    if ((rel & KOMA_REL_DOWN) && dy >= 0) return 0;
    if ((rel & KOMA_REL_SIDEWAYS) && dy != 0) return 0;
    if ((rel & KOMA_REL_STRAIGHT) && (dy <= 0 || from.file != to.file)) return 0;
    return 1;
}

/* How far to the mover's right (larger: further right). */
static int rightness(koma_sq sq, int turn) { return turn == KOMA_FIRST ? -(int)sq.file : (int)sq.file; }

/* Narrow idx[0..n) (indexes into o) by the marks; the new count. */
static size_t narrow(const koma__origins *o, size_t *idx, size_t n, unsigned rel, koma_sq to, int turn)
{
    if (n > 1 && (rel & (KOMA_REL_UP | KOMA_REL_DOWN | KOMA_REL_SIDEWAYS | KOMA_REL_STRAIGHT))) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (motion_fits(o->sq[idx[j]], to, turn, rel)) idx[k++] = idx[j];
        n = k;
    }
    if (n > 1 && (rel & (KOMA_REL_RIGHT | KOMA_REL_LEFT))) {
        int sign = (rel & KOMA_REL_RIGHT) ? 1 : -1, best = 0;
        for (size_t j = 0; j < n; j++) {
            int v = sign * rightness(o->sq[idx[j]], turn);
            if (j == 0 || v > best) best = v;
        }
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (sign * rightness(o->sq[idx[j]], turn) == best) idx[k++] = idx[j];
        n = k;
    }
    return n;
}

int koma__relative_pick(const koma__origins *o, int promote, unsigned rel, koma_sq to, int turn, size_t *a,
                       size_t *b)
{
    unsigned want = promote == KOMA_PROMOTE_YES ? 2u : promote == KOMA_PROMOTE_NO ? 1u : 3u;
    size_t idx[KOMA__MAX_ORIGINS];
    for (int stage = 0; stage < 2; stage++) {
        const unsigned *bits = stage == 0 ? o->legal : o->pseudo;
        size_t n = 0;
        for (size_t j = 0; j < o->n; j++)
            if (bits[j] & want) idx[n++] = j;
        if (n == 0) continue;
        n = narrow(o, idx, n, rel, to, turn);
        if (n == 1) return (int)idx[0];
        if (n > 1) {
            if (a) *a = idx[0];
            if (b) *b = idx[1];
            return -2;
        }
    }
    return -1;
}

/* 1 when the marks leave exactly origin i among all pseudo-legal origins too
 * (what a reader that does not test legality would make of them). */
static int unique_among_all(const koma__origins *o, size_t i, unsigned rel, koma_sq to, int turn)
{
    size_t idx[KOMA__MAX_ORIGINS], n = o->n;
    for (size_t j = 0; j < n; j++) idx[j] = j;
    n = narrow(o, idx, n, rel, to, turn);
    return n == 1 && idx[0] == i;
}

int koma__relative_marks(const koma__origins *o, size_t i, koma_piece kind, int promote, koma_sq to, int turn,
                        unsigned *rel)
{
    koma_sq from = o->sq[i];
    int dy = forward(from, to, turn);
    unsigned motion = dy > 0 ? KOMA_REL_UP : dy < 0 ? KOMA_REL_DOWN : KOMA_REL_SIDEWAYS;
    int big = (kind & KOMA_PIECE_STATE) && ((kind & KOMA_PIECE_LETTER) == ('R' - 'A' + 1) ||
                                            (kind & KOMA_PIECE_LETTER) == ('B' - 'A' + 1));
    unsigned tries[8];
    size_t nt = 0;
    tries[nt++] = 0;
    tries[nt++] = motion;
    if (!big && dy > 0 && from.file == to.file) tries[nt++] = KOMA_REL_STRAIGHT;
    tries[nt++] = KOMA_REL_RIGHT;
    tries[nt++] = KOMA_REL_LEFT;
    tries[nt++] = KOMA_REL_RIGHT | motion;
    tries[nt++] = KOMA_REL_LEFT | motion;
    /* first marks that every reader understands alike, then marks koma reads */
    for (int pass = 0; pass < 2; pass++)
        for (size_t t = 0; t < nt; t++) {
            if (koma__relative_pick(o, promote, tries[t], to, turn, NULL, NULL) != (int)i) continue;
            if (pass == 0 && !unique_among_all(o, i, tries[t], to, turn)) continue;
            *rel = tries[t];
            return 0;
        }
    return -1;
}
