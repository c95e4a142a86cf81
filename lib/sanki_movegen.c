/*
 * lib/sanki_movegen.c — the Sanki engine's moves (sanki_state.h): each side's
 * pieces move as their letter says, a foot soldier as its owner's variant
 * says (koma-games(7), SANKI): board moves and captures, the double step,
 * en passant (a chess pawn diagonally, a xiongqi soldier past the river
 * sideways; never an Ōgi Fu), promotion on the last rank (chess and xiongqi:
 * the player's choice of four; Ōgi: the Tokin), castling, and the Ōgi side's
 * drops (an empty square; a Fu neither on its last rank nor on a file holding
 * one of its side's Fu, and never mating: uchifuzume). Three readings of
 * "a move": pseudo-legal (no self-check test), legal without the uchifuzume
 * test (the escapes of the side a Fu drop checks), legal.
 */
#include <string.h>

#include "internal.h"
#include "sanki_movegen.h"

#define BIT(s) (1ull << (s))
#define LETTER(p) ((int)((p) & KOMA_PIECE_LETTER))
#define L(c) ((c) - 'A' + 1)

typedef struct gen {
    koma__sk *sk;
    koma__sk_pos *p;
    int side, mode, first;
    uint32_t *out;
    size_t n;
} gen;

/* 1 when the generation may stop (one move found and only one was asked for) */
static int emit(gen *g, uint32_t m)
{
    if (g->n == KOMA__SK_MAX_MOVES) return 1;  /* (cannot happen: the bound holds) */
    if (g->out) g->out[g->n] = m;
    g->n++;
    return g->first;
}

static koma_piece promoted(koma_piece q, int letter)
{
    return (koma_piece)((q & (KOMA_PIECE_SECOND | KOMA_PIECE_DERIVED)) | (koma_piece)letter);
}

/* A board move from -> to of the piece q (ep: the square it takes en passant,
 * or -1), with its promotions. */
static int board_move(gen *g, int from, int to, koma_piece q, int ep)
{
    static const char chess[] = "QRBN", xiongqi[] = "RNBE";
    const koma__sk *sk = g->sk;
    int s = g->side;
    if (g->mode != KOMA__SK_PSEUDO &&
        !koma__sk_safe_after(sk, g->p, s, from, to, ep, (q & KOMA_PIECE_TERMINAL) != 0))
        return 0;
    int type = ep >= 0 ? KOMA__SK_EP : KOMA__SK_BOARD;
    if (koma__sk_class_of(q) == KOMA__SK_FOOT && (to >> 3) == koma__sk_last_rank(s) &&
        (to >> 3) != (from >> 3)) {
        if (sk->var[s] == KOMA__SK_OGI)
            return emit(g, KOMA__SK_MOVE(from, to, type, promoted(q, L('T'))));
        const char *c = sk->var[s] == KOMA__SK_CHESS ? chess : xiongqi;
        for (int i = 0; c[i]; i++)
            if (emit(g, KOMA__SK_MOVE(from, to, type, promoted(q, L(c[i]))))) return 1;
        return 0;
    }
    return emit(g, KOMA__SK_MOVE(from, to, type, 0));
}

static int targets(gen *g, int from, uint64_t b, koma_piece q)
{
    for (; b; b &= b - 1)
        if (board_move(g, from, __builtin_ctzll(b), q, -1)) return 1;
    return 0;
}

static int foot_moves(gen *g, int from, koma_piece q)
{
    const koma__sk *sk = g->sk;
    const koma__sk_pos *p = g->p;
    int s = g->side, v = sk->var[s], fwd = koma__sk_forward(s);
    uint64_t opp = p->occ[s ^ 1];
    int s1 = from + fwd;
    if (s1 >= 0 && s1 < 64) {
        if (p->sq[s1] == KOMA_PIECE_NONE) {
            if (board_move(g, from, s1, q, -1)) return 1;
            int s2 = s1 + fwd;
            if ((q & KOMA_PIECE_STATE) == KOMA_PIECE_ENHANCED && s2 >= 0 && s2 < 64 &&
                p->sq[s2] == KOMA_PIECE_NONE && board_move(g, from, s2, q, -1))
                return 1;
        } else if ((opp & BIT(s1)) && v != KOMA__SK_CHESS) {
            if (board_move(g, from, s1, q, -1)) return 1;
        }
    }
    uint64_t side_squares = 0;
    if (v == KOMA__SK_CHESS) side_squares = sk->foot[v][s][from];
    else if (v == KOMA__SK_XIONGQI && koma__sk_crossed_river(s, from))
        side_squares = sk->orth1[from] & (0xFFull << (from & ~7));
    for (uint64_t b = side_squares; b; b &= b - 1) {
        int to = __builtin_ctzll(b);
        if (opp & BIT(to)) {
            if (board_move(g, from, to, q, -1)) return 1;
        } else if (p->sq[to] == KOMA_PIECE_NONE) {
            int victim = koma__sk_ep_victim(sk, p, s, from, to);
            if ((victim >= 0 || v == KOMA__SK_XIONGQI) && board_move(g, from, to, q, victim)) return 1;
        }
    }
    return 0;
}

/* Files (bits 0-7) holding a Fu of side s. */
static unsigned fu_files(const koma__sk_pos *p, int s)
{
    unsigned files = 0;
    for (uint64_t b = p->bb[s][KOMA__SK_FOOT]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        if (LETTER(p->sq[sq]) == L('F')) files |= 1u << (sq & 7);
    }
    return files;
}

int koma__sk_uchifuzume(koma__sk *sk, int side, koma_piece q, int to)
{
    koma__sk_pos *p = &sk->cur;
    int front = to + koma__sk_forward(side), r = p->royal[side ^ 1];
    if (LETTER(q) != L('F') || r < 0 || front != r) return 0;
    koma__sk_put(p, to, q);
    int mate = koma__sk_in_check(sk, p, side ^ 1) &&
               koma__sk_generate(sk, side ^ 1, KOMA__SK_PLAIN, NULL, 1) == 0;
    koma__sk_take(p, to);
    return mate;
}

static int drops(gen *g)
{
    koma__sk_pos *p = g->p;
    int s = g->side;
    unsigned seen = 0, fu = fu_files(p, s);
    uint64_t empty = ~(p->occ[0] | p->occ[1]);
    for (int i = 0; i < p->nhand[s]; i++) {
        koma_piece q = p->hand[s][i].p;
        int l = LETTER(q);
        if (koma_piece_side(q) != s || (seen & (1u << l))) continue;
        if (l != L('F') && l != L('R') && l != L('B') && l != L('N') && l != L('I')) continue;
        seen |= 1u << l;
        for (uint64_t b = empty; b; b &= b - 1) {
            int to = __builtin_ctzll(b);
            if (l == L('F') && ((to >> 3) == koma__sk_last_rank(s) || (fu & (1u << (to & 7))))) continue;
            if (g->mode != KOMA__SK_PSEUDO && !koma__sk_safe_after(g->sk, p, s, -1, to, -1, 0)) continue;
            if (g->mode == KOMA__SK_LEGAL && koma__sk_uchifuzume(g->sk, s, q, to)) continue;
            if (emit(g, KOMA__SK_MOVE(0, to, KOMA__SK_DROP, q))) return 1;
        }
    }
    return 0;
}

size_t koma__sk_generate(koma__sk *sk, int side, int mode, uint32_t *out, int first)
{
    gen g = {sk, &sk->cur, side, mode, first, out, 0};
    const koma__sk_pos *p = g.p;
    uint64_t own = p->occ[side], all = p->occ[0] | p->occ[1], opp = p->occ[side ^ 1];
    int var = sk->var[side], home = side ? 56 : 0;
    int royal_letter = var == KOMA__SK_XIONGQI ? L('G') : L('K');
    for (int c = 0; c < KOMA__SK_NCLASS; c++)
        for (uint64_t b = p->bb[side][c]; b; b &= b - 1) {
            int from = __builtin_ctzll(b);
            koma_piece q = p->sq[from];
            uint64_t t;
            switch (c) {
            case KOMA__SK_K: t = sk->king[from]; break;
            case KOMA__SK_G: t = (sk->orth1[from] & ~all) | (koma__sk_rook(sk, from, all) & opp); break;
            case KOMA__SK_Q: t = koma__sk_rook(sk, from, all) | koma__sk_bishop(sk, from, all); break;
            case KOMA__SK_R: t = koma__sk_rook(sk, from, all); break;
            case KOMA__SK_B: t = koma__sk_bishop(sk, from, all); break;
            case KOMA__SK_N: t = sk->knight[from]; break;
            case KOMA__SK_I: t = koma__sk_bishop(sk, from, all) | sk->knight[from]; break;
            case KOMA__SK_E: t = koma__sk_rook(sk, from, all) | sk->knight[from]; break;
            case KOMA__SK_T: t = sk->gold[side][from]; break;
            default:
                if (foot_moves(&g, from, q)) return g.n;
                continue;
            }
            if (targets(&g, from, t & ~own, q)) return g.n;
            if (from == home + 4 && LETTER(q) == royal_letter)
                for (int to = home + 6; to >= home + 2; to -= 4)
                    if (p->sq[to] == KOMA_PIECE_NONE && koma__sk_can_castle(sk, p, side, to, 0) &&
                        emit(&g, KOMA__SK_MOVE(from, to, KOMA__SK_CASTLE, 0)))
                        return g.n;
        }
    if (var == KOMA__SK_OGI) drops(&g);
    return g.n;
}
