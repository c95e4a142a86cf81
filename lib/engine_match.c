/*
 * lib/engine_match.c — the legal move a move form names by its squares and its
 * piece choice alone (koma/engine.h, koma_engine_match_move), for forms that
 * leave to the rules what the move does besides: the Sanki platform's
 * [from, to, actor] (koma-formats(5), PMN, Input dialects) says neither
 * castling's rook, nor en passant's victim, nor the state markers, nor a
 * promotion the rules make alone.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The letter and side of a piece: what a form that names pieces by words tells. */
static koma_piece kind(koma_piece p) { return (koma_piece)(p & (KOMA_PIECE_LETTER | KOMA_PIECE_SECOND)); }

static int board_kind(koma_move_kind k)
{
    return k == KOMA_MOVE_QUIET || k == KOMA_MOVE_CAPTURE || k == KOMA_MOVE_SPECIAL;
}

/* 2: l has n's squares and n's choice; 1: n's squares, and a piece change n does
 * not name; 0: not n. mover: the piece on n's origin. */
static int fits(const koma_move *n, const koma_move *l, koma_piece mover)
{
    if (!koma_cell_equal(&n->dst, &l->dst)) return 0;
    if (n->kind == KOMA_MOVE_DROP) {
        if (l->kind != KOMA_MOVE_DROP && l->kind != KOMA_MOVE_DROPCAP) return 0;
        if (kind(l->piece) != kind(n->piece)) return 0;
        return l->actor == KOMA_PIECE_NONE || kind(l->actor) == kind(n->piece) ? 2 : 1;
    }
    if (!board_kind(l->kind) || !koma_cell_equal(&n->src, &l->src)) return 0;
    koma_piece changed = l->actor != KOMA_PIECE_NONE && kind(l->actor) != kind(mover) ? l->actor
                                                                                     : KOMA_PIECE_NONE;
    if (n->actor != KOMA_PIECE_NONE && kind(n->actor) != kind(mover))
        return changed != KOMA_PIECE_NONE && kind(changed) == kind(n->actor) ? 2 : 0;
    return changed == KOMA_PIECE_NONE ? 2 : 1;
}

int koma_engine_match_move(koma_engine *e, const koma_move *named, koma_emove *out, koma_error *err)
{
    if (named->kind != KOMA_MOVE_DROP && !board_kind(named->kind))
        return koma_error_set(err, KOMA_E_RULES_FORM, 0, "the move names no squares to match");
    koma_position pos;
    koma_position_init(&pos);
    koma_piece mover = KOMA_PIECE_NONE;
    if (named->kind != KOMA_MOVE_DROP) {
        uint32_t a;
        if (koma_engine_get_position(e, &pos, err) != 0) {
            koma_position_cleanup(&pos);   /* what it set up before failing */
            return -1;
        }
        if (koma_shape_square(&pos.shape, &named->src, &a, NULL) == 0) mover = pos.board[a];
        koma_position_cleanup(&pos);
    }
    size_t max = koma_engine_max_moves(e);
    koma_emove *mv = malloc((max ? max : 1) * sizeof *mv);
    if (mv == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (legal moves)");
    size_t n = koma_engine_legal_moves(e, mv);
    if (koma__engine_trouble(e)) {
        free(mv);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (legal moves)");
    }
    /* the moves that fit exactly; else the one that fits with a change of its own */
    size_t exact = 0, loose = 0;
    koma_emove best = 0, other = 0;
    for (size_t i = 0; i < n; i++) {
        koma_move l;
        if (koma_engine_move_pmn(e, mv[i], &l) != 0) continue;
        int f = fits(named, &l, mover);
        if (f == 2 && exact++ == 0) best = mv[i];
        if (f == 1 && loose++ == 0) other = mv[i];
    }
    free(mv);
    if (exact == 1 || (exact == 0 && loose == 1)) {
        *out = exact == 1 ? best : other;
        return 0;
    }
    if (exact + loose == 0)
        return koma_error_set(err, KOMA_E_RULES_PATTERN, 0, "no legal move has these squares");
    return koma_error_set(err, KOMA_E_RULES_PROMOTION, 0,
                          "several legal moves have these squares: the piece choice is missing");
}
