/*
 * lib/sanki_rules.c — the Sanki engine's rules above its moves (sanki_rules.h):
 * a move's canonical PMN (koma-games(7), SANKI, "Moves in PMN"), "is this move
 * legal here" with the reason, the endings a position decides (checkmate,
 * stalemate, no move at all, the dead positions of each pairing of variants),
 * and perft (plain, divided, split).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sanki_rules.h"

#define LETTER(p) ((int)((p) & KOMA_PIECE_LETTER))
#define L(c) ((c) - 'A' + 1)

static koma_cell cell_of(int sq)
{
    koma_cell c;
    memset(&c, 0, sizeof c);
    c.ndims = 2;
    c.idx[0] = (uint8_t)(sq & 7);
    c.idx[1] = (uint8_t)(sq >> 3);
    return c;
}

void koma__sk_move_pmn(const koma__sk *sk, uint32_t m, koma_move *out)
{
    const koma__sk_pos *p = &sk->cur;
    int s = p->turn, from = KOMA__SK_M_FROM(m), to = KOMA__SK_M_TO(m);
    memset(out, 0, sizeof *out);
    out->dst = cell_of(to);
    koma_piece victim = KOMA_PIECE_NONE;
    switch (KOMA__SK_M_TYPE(m)) {
    case KOMA__SK_DROP:
        out->kind = KOMA_MOVE_DROP;
        out->piece = KOMA__SK_M_PIECE(m);
        return;
    case KOMA__SK_CASTLE:
        out->kind = KOMA_MOVE_SPECIAL;
        out->src = cell_of(from);
        return;
    case KOMA__SK_EP:
        out->kind = KOMA_MOVE_SPECIAL;
        victim = p->sq[koma__sk_ep_victim(sk, p, s, from, to)];
        break;
    default:
        victim = p->sq[to];
        out->kind = victim ? KOMA_MOVE_CAPTURE : KOMA_MOVE_QUIET;
        out->actor = KOMA__SK_M_PIECE(m);
        break;
    }
    out->src = cell_of(from);
    if (victim) {
        koma_piece id = koma__sk_captured_identity(sk, victim, s);
        if (id != victim) out->captured = id;
    }
}

/* ---- is this move legal here ---------------------------------------------------------- */

static int square_of(const koma_cell *c, int *sq, koma_error *err)
{
    if (c->ndims != 2 || c->idx[0] > 7 || c->idx[1] > 7)
        return koma_error_set(err, KOMA_E_CELL_SHAPE, 0, "the square is off the 8x8 board");
    *sq = c->idx[1] * 8 + c->idx[0];
    return 0;
}

/* The reason a drop that is no legal move is refused. */
static int drop_reason(koma__sk *sk, const koma_move *m, int to, koma_error *err)
{
    const koma__sk_pos *p = &sk->cur;
    int s = p->turn;
    koma_piece q = m->piece;
    if (sk->var[s] != KOMA__SK_OGI)
        return koma_error_set(err, KOMA_E_RULES_DROP_PIECE, 0,
                              "only an Ogi side drops (this side plays %s)",
                              sk->var[s] == KOMA__SK_CHESS ? "chess" : "xiongqi");
    if (q == KOMA_PIECE_NONE)
        return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, "no piece of the hand can be dropped there");
    if (koma__sk_hand_count(p, s, q) == 0)
        return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, "the piece is not in the mover's hand");
    int l = LETTER(q);
    if (koma_piece_side(q) != s || (l != L('F') && l != L('R') && l != L('B') && l != L('N') && l != L('I')))
        return koma_error_set(err, KOMA_E_RULES_DROP_PIECE, 0, "this piece is never dropped");
    if (p->sq[to] != KOMA_PIECE_NONE)
        return koma_error_set(err, KOMA_E_RULES_DROP_OCCUPIED, 0, "a drop needs an empty square");
    if (l == L('F') && (to >> 3) == koma__sk_last_rank(s))
        return koma_error_set(err, KOMA_E_RULES_DROP_RANK, 0, "a Fu is not dropped on its last rank");
    if (l == L('F'))
        for (int r = 0; r < 8; r++) {
            koma_piece o = p->sq[r * 8 + (to & 7)];
            if (o && LETTER(o) == L('F') && koma_piece_side(o) == s)
                return koma_error_set(err, KOMA_E_RULES_DROP_NIFU, 0,
                                      "a Fu of the side is already on this file");
        }
    if (!koma__sk_safe_after(sk, p, s, -1, to, -1, 0))
        return koma_error_set(err, KOMA_E_RULES_CHECK, 0, "the drop leaves the mover's royal attacked");
    if (koma__sk_uchifuzume(sk, s, q, to))
        return koma_error_set(err, KOMA_E_RULES_DROP_MATE, 0, "a Fu drop may not mate (uchifuzume)");
    return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "illegal drop");
}

/* The reason a board move that is no legal move is refused. */
static int board_reason(koma__sk *sk, const koma_move *m, int from, int to, const uint32_t *legal,
                        size_t n, koma_error *err)
{
    const koma__sk_pos *p = &sk->cur;
    int s = p->turn;
    koma_piece q = p->sq[from];
    if (q == KOMA_PIECE_NONE) return koma_error_set(err, KOMA_E_RULES_EMPTY, 0, "no piece on the origin square");
    if (koma_piece_side(q) != s)
        return koma_error_set(err, KOMA_E_RULES_OWNER, 0, "the piece belongs to the other side");
    if (p->sq[to] && koma_piece_side(p->sq[to]) == s)
        return koma_error_set(err, KOMA_E_RULES_OCCUPIED, 0, "the destination holds a piece of the mover");
    if ((m->kind == KOMA_MOVE_QUIET && p->sq[to]) || (m->kind == KOMA_MOVE_CAPTURE && !p->sq[to]))
        return koma_error_set(err, KOMA_E_RULES_OPERATOR, 0, "a capture is written with '+', a move with '-'");
    /* the same displacement legal in another form */
    for (size_t i = 0; i < n; i++) {
        if (KOMA__SK_M_TYPE(legal[i]) == KOMA__SK_DROP || KOMA__SK_M_FROM(legal[i]) != from ||
            KOMA__SK_M_TO(legal[i]) != to)
            continue;
        koma_move lm;
        koma__sk_move_pmn(sk, legal[i], &lm);
        char t[KOMA_PMN_BUF];
        koma_pmn_write(&lm, t);
        if (lm.kind != m->kind)
            return koma_error_set(err, KOMA_E_RULES_FORM, 0, "castling and en passant are written with "
                                  "'~', other moves with '-' or '+' (\"%s\")", t);
        if (lm.actor != m->actor) {
            if (m->actor == KOMA_PIECE_NONE)
                return koma_error_set(err, KOMA_E_RULES_MUSTPROMOTE, 0, "the move must promote (\"%s\")", t);
            return koma_error_set(err, KOMA_E_RULES_PROMOTION, 0, "promotion not allowed or to another "
                                  "piece (\"%s\")", t);
        }
        return koma_error_set(err, KOMA_E_RULES_CAPTURED, 0, "the captured piece enters the hand "
                              "otherwise (\"%s\")", t);
    }
    uint32_t *pseudo = malloc(KOMA__SK_MAX_MOVES * sizeof *pseudo);
    if (pseudo == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory");
    size_t np = koma__sk_generate(sk, s, KOMA__SK_PSEUDO, pseudo, 0);
    int check = 0;
    for (size_t i = 0; i < np && !check; i++)
        check = KOMA__SK_M_TYPE(pseudo[i]) != KOMA__SK_DROP && KOMA__SK_M_FROM(pseudo[i]) == from &&
                KOMA__SK_M_TO(pseudo[i]) == to;
    free(pseudo);
    if (check)
        return koma_error_set(err, KOMA_E_RULES_CHECK, 0, "the move leaves the mover's royal attacked");
    int home = s ? 56 : 0;
    if (from == home + 4 && (to == home + 2 || to == home + 6) && !p->sq[to] &&
        LETTER(q) == (sk->var[s] == KOMA__SK_XIONGQI ? L('G') : L('K')))
        return koma_error_set(err, KOMA_E_RULES_PATTERN, 0,
                              "castling is not allowed here (the rook's right, the squares between, "
                              "or a square of the royal's path attacked)");
    return koma_error_set(err, KOMA_E_RULES_PATTERN, 0, "the piece cannot move that way");
}

int koma__sk_find(koma__sk *sk, const koma_move *m, uint32_t *out, koma_error *err)
{
    if (m->kind == KOMA_MOVE_PASS || m->kind == KOMA_MOVE_STATIC || m->kind == KOMA_MOVE_DROPCAP ||
        m->kind == KOMA_MOVE_MUTATE)
        return koma_error_set(err, KOMA_E_RULES_FORM, 0, "Sanki has no such move");
    int from = 0, to = 0;
    if (square_of(&m->dst, &to, err) != 0) return -1;
    if (m->kind != KOMA_MOVE_DROP && square_of(&m->src, &from, err) != 0) return -1;
    uint32_t *legal = malloc(KOMA__SK_MAX_MOVES * sizeof *legal);
    if (legal == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory");
    size_t n = koma__sk_generate(sk, sk->cur.turn, KOMA__SK_LEGAL, legal, 0);
    int rc = -1, found = 0;
    for (size_t i = 0; i < n; i++) {
        koma_move lm;
        koma__sk_move_pmn(sk, legal[i], &lm);
        /* a drop written without its piece: the one kind that may be dropped there */
        if (m->kind == KOMA_MOVE_DROP && m->piece == KOMA_PIECE_NONE && lm.kind == KOMA_MOVE_DROP)
            lm.piece = KOMA_PIECE_NONE;
        if (koma_move_equal(&lm, m)) {
            *out = legal[i];
            found++;
        }
    }
    if (found == 1) rc = 0;
    else if (found > 1)
        rc = koma_error_set(err, KOMA_E_PMN_HAND_AMBIGUOUS, 0, "more than one piece may be dropped there");
    else if (n == 0)
        rc = koma_error_set(err, KOMA_E_RULES_OVER, 0, "the game is over: the side to move has no legal move");
    else if (m->kind == KOMA_MOVE_DROP)
        rc = drop_reason(sk, m, to, err);
    else
        rc = board_reason(sk, m, from, to, legal, n, err);
    free(legal);
    return rc;
}

/* ---- endings ------------------------------------------------------------------------- */

static int only_royals(const koma__sk_pos *p)
{
    for (uint64_t b = p->occ[0] | p->occ[1]; b; b &= b - 1)
        if (!(p->sq[__builtin_ctzll(b)] & KOMA_PIECE_TERMINAL)) return 0;
    return 1;
}

/* Pure chess: kings and bishops all on squares of one colour; or one knight. */
static int chess_dead(const koma__sk_pos *p)
{
    int knights = 0, bishops[2] = {0, 0};
    for (uint64_t b = p->occ[0] | p->occ[1]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        koma_piece q = p->sq[sq];
        if (q & KOMA_PIECE_TERMINAL) continue;
        if (LETTER(q) == L('N')) knights++;
        else if (LETTER(q) == L('B')) bishops[((sq & 7) ^ (sq >> 3)) & 1]++;
        else return 0;
    }
    if (knights == 0) return bishops[0] == 0 || bishops[1] == 0;
    return knights == 1 && bishops[0] + bishops[1] == 0;
}

int koma__sk_dead(const koma__sk *sk)
{
    const koma__sk_pos *p = &sk->cur;
    int a = sk->var[0], b = sk->var[1];
    if (a == b) {
        if (a == KOMA__SK_CHESS) return chess_dead(p);
        if (a == KOMA__SK_XIONGQI) return only_royals(p);
        return 0;                      /* pure Ōgi: never */
    }
    if (!only_royals(p)) return 0;
    for (int s = 0; s < 2; s++)        /* a piece either side could still drop */
        for (int i = 0; i < p->nhand[s]; i++)
            if (koma_piece_side(p->hand[s][i].p) == s) return 0;
    return 1;
}

koma_status koma__sk_ending(koma__sk *sk, int *over)
{
    int s = sk->cur.turn;
    *over = 1;
    if (koma__sk_generate(sk, s, KOMA__SK_LEGAL, NULL, 1)) {
        if (koma__sk_dead(sk)) return KOMA_STATUS_INSUFFICIENT;
        *over = 0;
        return KOMA_STATUS_CHECK;
    }
    if (koma__sk_generate(sk, s, KOMA__SK_PSEUDO, NULL, 1) == 0) return KOMA_STATUS_NOMOVE;
    return koma__sk_in_check(sk, &sk->cur, s) ? KOMA_STATUS_CHECKMATE : KOMA_STATUS_STALEMATE;
}

/* ---- perft --------------------------------------------------------------------------- */

int koma__sk_perft(koma__sk *sk, unsigned depth, uint64_t *nodes, koma_error *err)
{
    uint32_t moves[KOMA__SK_MAX_MOVES];
    size_t n = koma__sk_generate(sk, sk->cur.turn, KOMA__SK_LEGAL, moves, 0);
    if (depth <= 1) {
        *nodes = depth ? n : 1;
        return 0;
    }
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t sub;
        if (koma__sk_make(sk, moves[i], err) != 0) return -1;
        int rc = koma__sk_perft(sk, depth - 1, &sub, err);
        koma__sk_unmake(sk);
        if (rc != 0) return -1;
        total += sub;
    }
    *nodes = total;
    return 0;
}
