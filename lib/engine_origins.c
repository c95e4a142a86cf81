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
 * With a memo (the hub's: one a stream of positions, such as a record's plies),
 * the board is not read whole each time: the fit is counted again only on the
 * squares that differ from the last board read (a move changes two or three),
 * and on a board of up to 128 squares the pieces of the kind come from a bit
 * set a piece kept there, in the board's order.
 */
#include <string.h>

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

/* A piece's part in the fit: royals[side] counted, unknown counted (sign: +1 on
 * the board, -1 off it); and its square in where[] (on a small board). */
static inline void tally(const koma_engine *e, koma__origins_memo *m, uint32_t sq, koma_piece p, int sign)
{
    if (p == KOMA_PIECE_NONE) return;
    int k = e->kind_of_pin[p & KOMA_PIECE_MASK];
    if (k < 0) m->unknown += sign;
    if (e->royal_code[1 + (k & KOMA__KIND_BITS)]) m->royals[koma_piece_side(p)] += sign;
    if (m->nsquares <= KOMA__MEMO_SQUARES) m->where[p & 0xffu][sq >> 6] ^= 1ull << (sq & 63);
}

/* The board's fit in memo: counted again where pos's board differs from the last
 * one read (whole, for another engine or size), four squares at a time. */
static void memo_update(const koma_engine *e, const koma_position *pos, koma__origins_memo *m)
{
    uint32_t n = pos->shape.squares, sq = 0;
    const koma_piece *b = pos->board;
    if (m->e != e || m->nsquares != n) {
        m->e = e;
        m->nsquares = n;
        m->royals[0] = m->royals[1] = m->unknown = 0;
        if (n <= KOMA__MEMO_SQUARES) memset(m->where, 0, sizeof m->where);
        for (; sq < n; sq++) tally(e, m, sq, m->board[sq] = b[sq], 1);
        return;
    }
    for (; sq + 4 <= n; sq += 4) {
        uint64_t x, y;
        memcpy(&x, m->board + sq, sizeof x);
        memcpy(&y, b + sq, sizeof y);
        if (x == y) continue;
        for (uint32_t j = sq; j < sq + 4; j++) {
            if (m->board[j] == b[j]) continue;
            tally(e, m, j, m->board[j], -1);
            tally(e, m, j, m->board[j] = b[j], 1);
        }
    }
    for (; sq < n; sq++) {
        if (m->board[sq] == b[sq]) continue;
        tally(e, m, sq, m->board[sq], -1);
        tally(e, m, sq, m->board[sq] = b[sq], 1);
    }
}

int koma__mb_origins(const koma_engine *e, const koma_position *pos, koma_piece kind, uint32_t to,
                     uint32_t *from, unsigned *moves, size_t cap, koma__origins_memo *memo)
{
    if (e->board == NULL || e->game->fx || e->game->sanki || !fits_but_board(e, pos) ||
        to >= pos->shape.squares)
        return -1;
    int s = pos->turn;
    const koma_piece want = (koma_piece)(kind | (s ? KOMA_PIECE_SECOND : 0));
    int16_t cand[KOMA__MAX_BOARD];
    int ncand = 0;
    const koma_piece *board = pos->board;
    if (memo != NULL) {
        /* the fit from what changed since the last board; then the pieces of the kind */
        memo_update(e, pos, memo);
        if (memo->unknown > 0 || (e->game->check_rule && (memo->royals[0] > 1 || memo->royals[1] > 1))) return -1;
        if (memo->nsquares <= KOMA__MEMO_SQUARES) {
            /* the squares of the kind (markers aside: above the low byte), in order */
            const uint64_t *w = memo->where[want & 0xffu];
            for (unsigned i = 0; want <= 0xffu && i < KOMA__MEMO_SQUARES / 64; i++)
                for (uint64_t bits = w[i]; bits; bits &= bits - 1)
                    cand[ncand++] = (int16_t)(i * 64 + (unsigned)__builtin_ctzll(bits));
        } else {
            for (int sq = 0, nsq = e->nsquares; sq < nsq; sq++)
                if ((board[sq] & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE | KOMA_PIECE_SECOND)) == want &&
                    board[sq] != KOMA_PIECE_NONE)
                    cand[ncand++] = (int16_t)sq;
        }
    } else {
        /* one pass over the board: the rest of the fit (every piece the game's, one
         * royal a side under the check rule) and the pieces of the kind */
        int royals[2] = {0, 0}, unknown = 0;
        const int8_t *kind_of = e->kind_of_pin;
        const uint8_t *royal = e->royal_code + 1;      /* by kind: the first player's codes */
        for (int sq = 0, nsq = e->nsquares; sq < nsq; sq++) {
            koma_piece p = board[sq];
            if (p == KOMA_PIECE_NONE) continue;
            int k = kind_of[p & KOMA_PIECE_MASK];
            unknown |= k;                              /* negative: not a piece of the game */
            if (royal[k & KOMA__KIND_BITS]) royals[koma_piece_side(p)]++;
            if ((p & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE | KOMA_PIECE_SECOND)) == want) cand[ncand++] = (int16_t)sq;
        }
        if (unknown < 0 || (e->game->check_rule && (royals[0] > 1 || royals[1] > 1))) return -1;
    }
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
