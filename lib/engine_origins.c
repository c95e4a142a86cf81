/*
 * lib/engine_origins.c — the pieces of one kind of the side to move that have a
 * board move to one square, read from a position (koma_position) with the
 * engine's tables only: the engine's state is neither read nor changed, so the
 * question costs a look at the board, not a set position and a move list.
 * KI2's reader asks it for every move (lib/record_relative.c: which piece goes
 * to the square the move names) and generates the move list only when several
 * pieces can.
 *
 * The answer is that of koma__gen_pseudo on the same position: the same
 * origins, in its order (the board's squares in order), each with the
 * promotion choices its move has (push_board in engine_movegen.c: promote in
 * the zone, and not promote unless the move must). The position is first
 * checked as koma__position_fits checks it; a position that would not fit
 * gets no answer (-1), so that the caller's koma_engine_set_position says why.
 */
#include "internal.h"
#include "engine_internal.h"

/* 1 when koma__position_fits(e->game, pos) would accept pos, the board aside
 * (koma__mb_origins looks at it): its shape and styles are the game's, a hand
 * holds its owner's pieces of the game and no more than the board has squares. */
static int fits_but_board(const koma_engine *e, const koma_position *pos)
{
    const koma_game *g = e->game;
    if (pos->shape.ndims != 2 || pos->shape.size[0] != g->files || pos->shape.size[1] != g->ranks ||
        pos->shape.squares != (uint32_t)e->nsquares)
        return 0;
    if (pos->style[0] != g->style || pos->style[1] != (char)(g->style - 'A' + 'a')) return 0;
    for (int s = 0; s < 2; s++) {
        const koma_hand *h = &pos->hands[s];
        for (size_t i = 0; i < h->len; i++) {
            koma_piece p = h->items[i].piece;
            if (e->kind_of_pin[p & KOMA_PIECE_MASK] < 0 || koma_piece_side(p) != s ||
                h->items[i].count > pos->shape.squares)
                return 0;
        }
    }
    return 1;
}

/* 1 when the mover code on the padded square `from` reaches `to` on pos's board
 * (a leap, or a ride within its range over empty squares). */
static int reaches(const koma_engine *e, const koma_position *pos, unsigned code, int from, int to)
{
    const koma__movement *mv = &e->mv[KOMA__MOVER(code)];
    for (int i = 0; i < mv->nleap; i++)
        if (from + mv->leap[i] == to) return 1;
    for (int i = 0; i < mv->nride; i++) {
        int off = mv->ride[i].off, t = from + off;
        unsigned range = mv->ride[i].range, n = 1;
        for (;;) {
            if (t == to) return 1;
            int sq = e->index_sq[t];
            if (sq < 0 || pos->board[sq] != KOMA_PIECE_NONE || (range && n >= range)) break;
            t += off;
            n++;
        }
    }
    return 0;
}

int koma__mb_origins(const koma_engine *e, const koma_position *pos, koma_piece kind, uint32_t to,
                     uint32_t *from, unsigned *moves, size_t cap)
{
    if (e->board == NULL || e->game->fx || e->game->sanki || !fits_but_board(e, pos) ||
        to >= pos->shape.squares)
        return -1;
    int s = pos->turn;
    /* one pass over the board: the rest of the fit (every piece the game's, one
     * royal a side under the check rule) and the pieces of the kind */
    const koma_piece want = (koma_piece)(kind | (s ? KOMA_PIECE_SECOND : 0));
    int royals[2] = {0, 0}, unknown = 0;
    int16_t cand[KOMA__MAX_BOARD];
    int ncand = 0;
    const koma_piece *board = pos->board;
    const int8_t *kind_of = e->kind_of_pin;
    const uint8_t *royal = e->royal_code + 1;          /* by kind: the first player's codes */
    for (int sq = 0, nsq = e->nsquares; sq < nsq; sq++) {
        koma_piece p = board[sq];
        if (p == KOMA_PIECE_NONE) continue;
        int k = kind_of[p & KOMA_PIECE_MASK];
        unknown |= k;                                  /* negative: not a piece of the game */
        if (royal[k & KOMA__KIND_BITS]) royals[koma_piece_side(p)]++;
        if ((p & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE | KOMA_PIECE_SECOND)) == want) cand[ncand++] = (int16_t)sq;
    }
    if (unknown < 0 || (e->game->check_rule && (royals[0] > 1 || royals[1] > 1))) return -1;
    koma_piece target = pos->board[to];
    if (target != KOMA_PIECE_NONE && koma_piece_side(target) == s) return 0;
    int pto = e->sq_index[to];
    size_t n = 0;
    for (int j = 0; j < ncand; j++) {
        int sq = cand[j], pfrom = e->sq_index[sq];
        unsigned code = KOMA__CODE(e->kind_of_pin[pos->board[sq] & KOMA_PIECE_MASK], s), mover = KOMA__MOVER(code);
        if (!reaches(e, pos, code, pfrom, pto)) continue;
        unsigned bits = 1u;
        if (e->promote_code[mover] && (e->in_zone[s][pfrom] | e->in_zone[s][pto]))
            bits = 2u | (e->last_dist[s][pto] >= e->must_rank[mover] ? 1u : 0u);
        if (n < cap) {
            from[n] = (uint32_t)sq;
            moves[n] = bits;
        }
        n++;
    }
    return (int)n;
}
