/*
 * lib/sanki_state.c — the Sanki engine's board (sanki_state.h): a position as
 * 64-bit bitboards and the pieces' FEEN identities, the attack relation of the
 * three variants, make/unmake, and after every ply the recomposition of the
 * transient FEEN markers (koma-games(7), SANKI, "FEEN markers"): a royal in check
 * `-`, a foot soldier's double step `+` dropped once it has left its home rank,
 * the `-` of a foot soldier that has just double-stepped when an en passant
 * capture of it is legal next ply, a rook's castling right `+R` (performable
 * now) / `-R` (held, blocked now) / `R` (lost).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sanki_state.h"

#define BIT(s) (1ull << (s))
#define LETTER(p) ((int)((p) & KOMA_PIECE_LETTER))
#define L(c) ((c) - 'A' + 1)

int koma__sk_class_of(koma_piece p)
{
    switch (LETTER(p)) {
    case L('K'): return KOMA__SK_K;
    case L('G'): return KOMA__SK_G;
    case L('Q'): return KOMA__SK_Q;
    case L('R'): return KOMA__SK_R;
    case L('B'): return KOMA__SK_B;
    case L('N'): return KOMA__SK_N;
    case L('I'): return KOMA__SK_I;
    case L('E'): return KOMA__SK_E;
    case L('T'): return KOMA__SK_T;
    case L('P'): case L('F'): case L('S'): return KOMA__SK_FOOT;
    default: return -1;
    }
}

int koma__sk_variant_of_style(char style)
{
    switch (style) {
    case 'W': case 'w': return KOMA__SK_CHESS;
    case 'J': case 'j': return KOMA__SK_OGI;
    case 'C': case 'c': return KOMA__SK_XIONGQI;
    default: return -1;
    }
}

int koma__sk_forward(int side) { return side ? -8 : 8; }
int koma__sk_last_rank(int side) { return side ? 0 : 7; }
int koma__sk_crossed_river(int side, int sq) { return side ? (sq >> 3) <= 3 : (sq >> 3) >= 4; }

/* ---- tables ------------------------------------------------------------------------ */

static const int8_t dir_df[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int8_t dir_dr[8] = {1, -1, 0, 0, 1, 1, -1, -1};

static int offset(int sq, int df, int dr)
{
    int f = (sq & 7) + df, r = (sq >> 3) + dr;
    return (f < 0 || f > 7 || r < 0 || r > 7) ? -1 : r * 8 + f;
}

static uint64_t steps(int sq, const int8_t (*d)[2], int n)
{
    uint64_t b = 0;
    for (int i = 0; i < n; i++) {
        int t = offset(sq, d[i][0], d[i][1]);
        if (t >= 0) b |= BIT(t);
    }
    return b;
}

static void tables(koma__sk *sk)
{
    static const int8_t knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int8_t king[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int sq = 0; sq < 64; sq++) {
        for (int d = 0; d < 8; d++) {
            uint64_t r = 0;
            for (int t = offset(sq, dir_df[d], dir_dr[d]); t >= 0; t = offset(t, dir_df[d], dir_dr[d]))
                r |= BIT(t);
            sk->ray[d][sq] = r;
        }
        sk->knight[sq] = steps(sq, knight, 8);
        sk->king[sq] = steps(sq, king, 8);
        sk->orth1[sq] = steps(sq, king, 4);
        for (int s = 0; s < 2; s++) {
            int8_t f = (int8_t)(s ? -1 : 1);
            const int8_t gold[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {-1, f}, {1, f}};
            const int8_t pawn[2][2] = {{-1, f}, {1, f}};
            const int8_t fu[1][2] = {{0, f}};
            const int8_t side_[2][2] = {{-1, 0}, {1, 0}};
            sk->gold[s][sq] = steps(sq, gold, 6);
            sk->foot[KOMA__SK_CHESS][s][sq] = steps(sq, pawn, 2);
            sk->foot[KOMA__SK_OGI][s][sq] = steps(sq, fu, 1);
            sk->foot[KOMA__SK_XIONGQI][s][sq] =
                steps(sq, fu, 1) | (koma__sk_crossed_river(s, sq) ? steps(sq, side_, 2) : 0);
        }
    }
    memset(sk->goldrev, 0, sizeof sk->goldrev);
    memset(sk->footrev, 0, sizeof sk->footrev);
    for (int s = 0; s < 2; s++)
        for (int sq = 0; sq < 64; sq++)
            for (int t = 0; t < 64; t++) {
                if (sk->gold[s][sq] & BIT(t)) sk->goldrev[s][t] |= BIT(sq);
                for (int v = 0; v < 3; v++)
                    if (sk->foot[v][s][sq] & BIT(t)) sk->footrev[v][s][t] |= BIT(sq);
            }
}

static uint64_t ray_attack(const koma__sk *sk, int d, int sq, uint64_t occ)
{
    uint64_t r = sk->ray[d][sq], b = r & occ;
    if (b) {
        /* directions 0, 2, 4, 5 go to higher squares: the nearest blocker is the lowest */
        int first = (d == 0 || d == 2 || d == 4 || d == 5) ? __builtin_ctzll(b) : 63 - __builtin_clzll(b);
        r ^= sk->ray[d][first];
    }
    return r;
}

uint64_t koma__sk_rook(const koma__sk *sk, int sq, uint64_t occ)
{
    return ray_attack(sk, 0, sq, occ) | ray_attack(sk, 1, sq, occ) | ray_attack(sk, 2, sq, occ) |
           ray_attack(sk, 3, sq, occ);
}

uint64_t koma__sk_bishop(const koma__sk *sk, int sq, uint64_t occ)
{
    return ray_attack(sk, 4, sq, occ) | ray_attack(sk, 5, sq, occ) | ray_attack(sk, 6, sq, occ) |
           ray_attack(sk, 7, sq, occ);
}

int koma__sk_new(koma__sk **out, koma_error *err)
{
    koma__sk *sk = calloc(1, sizeof *sk);
    *out = NULL;
    if (sk == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    tables(sk);
    *out = sk;
    return 0;
}

void koma__sk_free(koma__sk *sk)
{
    if (sk == NULL) return;
    free(sk->undo);
    free(sk);
}

/* ---- attacks ----------------------------------------------------------------------- */

int koma__sk_attacked(const koma__sk *sk, const koma__sk_pos *p, int target, int by, uint64_t occ,
                      uint64_t excl)
{
    const uint64_t *b = p->bb[by];
    uint64_t keep = ~excl;
    if (sk->knight[target] & (b[KOMA__SK_N] | b[KOMA__SK_I] | b[KOMA__SK_E]) & keep) return 1;
    if (sk->king[target] & b[KOMA__SK_K] & keep) return 1;
    if (sk->goldrev[by][target] & b[KOMA__SK_T] & keep) return 1;
    if (sk->footrev[sk->var[by]][by][target] & b[KOMA__SK_FOOT] & keep) return 1;
    uint64_t orth = (b[KOMA__SK_R] | b[KOMA__SK_Q] | b[KOMA__SK_E] | b[KOMA__SK_G]) & keep;
    if (orth && (koma__sk_rook(sk, target, occ) & orth)) return 1;
    uint64_t diag = (b[KOMA__SK_B] | b[KOMA__SK_Q] | b[KOMA__SK_I]) & keep;
    return diag && (koma__sk_bishop(sk, target, occ) & diag);
}

int koma__sk_in_check(const koma__sk *sk, const koma__sk_pos *p, int side)
{
    int r = p->royal[side];
    return r >= 0 && koma__sk_attacked(sk, p, r, side ^ 1, p->occ[0] | p->occ[1], 0);
}

int koma__sk_ep_victim(const koma__sk *sk, const koma__sk_pos *p, int side, int from, int to)
{
    if (p->sq[to] != KOMA_PIECE_NONE) return -1;
    int df = (to & 7) - (from & 7), dr = (to >> 3) - (from >> 3);
    if (df != 1 && df != -1) return -1;
    switch (sk->var[side]) {
    case KOMA__SK_CHESS:
        if (dr != (side ? -1 : 1)) return -1;
        break;
    case KOMA__SK_XIONGQI:
        if (dr != 0 || !koma__sk_crossed_river(side, from)) return -1;
        break;
    default:
        return -1;                     /* the Ōgi foot soldier never takes en passant */
    }
    int v = to - koma__sk_forward(side);
    if (v < 0 || v > 63) return -1;
    koma_piece q = p->sq[v];
    if (q == KOMA_PIECE_NONE || koma_piece_side(q) == side || koma__sk_class_of(q) != KOMA__SK_FOOT ||
        (q & KOMA_PIECE_STATE) != KOMA_PIECE_DIMINISHED)
        return -1;
    return v;
}

int koma__sk_safe_after(const koma__sk *sk, const koma__sk_pos *p, int side, int from, int to,
                        int ep, int royal)
{
    uint64_t occ = p->occ[0] | p->occ[1], excl = BIT(to);
    if (from >= 0) occ &= ~BIT(from);
    occ |= BIT(to);
    if (ep >= 0) {
        occ &= ~BIT(ep);
        excl |= BIT(ep);
    }
    int k = royal ? to : p->royal[side];
    return k < 0 || !koma__sk_attacked(sk, p, k, side ^ 1, occ, excl);
}

static int letter_at(const koma__sk_pos *p, int sq, int side, int letter)
{
    koma_piece q = p->sq[sq];
    return q != KOMA_PIECE_NONE && koma_piece_side(q) == side && LETTER(q) == letter;
}

int koma__sk_can_castle(const koma__sk *sk, const koma__sk_pos *p, int side, int to,
                        int rook_enhanced)
{
    static const int8_t kbetween[] = {5, 6, -1}, kpath[] = {4, 5, 6, -1};
    static const int8_t qbetween[] = {1, 2, 3, -1}, qpath[] = {4, 3, 2, -1};
    int home = side ? 56 : 0;
    int royal = sk->var[side] == KOMA__SK_XIONGQI ? L('G') : L('K');
    if (!letter_at(p, home + 4, side, royal)) return 0;
    const int8_t *between, *path;
    int rook;
    if (to == home + 6) {
        rook = home + 7;
        between = kbetween;
        path = kpath;
    } else if (to == home + 2) {
        rook = home;
        between = qbetween;
        path = qpath;
    } else {
        return 0;
    }
    if (!letter_at(p, rook, side, L('R'))) return 0;
    if (!rook_enhanced && (p->sq[rook] & KOMA_PIECE_STATE) != KOMA_PIECE_ENHANCED) return 0;
    for (int i = 0; between[i] >= 0; i++)
        if (p->sq[home + between[i]] != KOMA_PIECE_NONE) return 0;
    uint64_t occ = p->occ[0] | p->occ[1];
    for (int i = 0; path[i] >= 0; i++)
        if (koma__sk_attacked(sk, p, home + path[i], side ^ 1, occ, 0)) return 0;
    return 1;
}

koma_piece koma__sk_captured_identity(const koma__sk *sk, koma_piece victim, int captor)
{
    koma_piece base = (koma_piece)(victim & ~KOMA_PIECE_STATE);
    if (LETTER(base) == L('T')) base = (koma_piece)((base & ~KOMA_PIECE_LETTER) | L('F'));
    if (sk->var[captor] != KOMA__SK_OGI) return base;          /* kept as it was: inert */
    if (sk->var[captor ^ 1] == KOMA__SK_OGI) return koma_piece_flip(base);
    return (koma_piece)(L('F') | (captor ? KOMA_PIECE_SECOND : 0)); /* any other piece: a Fu */
}

/* ---- hands ------------------------------------------------------------------------- */

uint32_t koma__sk_hand_count(const koma__sk_pos *p, int side, koma_piece q)
{
    for (int i = 0; i < p->nhand[side]; i++)
        if (p->hand[side][i].p == q) return p->hand[side][i].n;
    return 0;
}

static int hand_add(koma__sk_pos *p, int side, koma_piece q)
{
    koma__sk_item *h = p->hand[side];
    int n = p->nhand[side], i = 0;
    unsigned key = koma_piece_hand_key(q);
    for (; i < n; i++) {
        if (h[i].p == q) {
            h[i].n++;
            return 0;
        }
        if (koma_piece_hand_key(h[i].p) > key) break;
    }
    if (n == KOMA__SK_HAND_MAX) return -1;
    memmove(h + i + 1, h + i, (size_t)(n - i) * sizeof *h);
    h[i].p = q;
    h[i].n = 1;
    p->nhand[side]++;
    return 0;
}

static void hand_remove(koma__sk_pos *p, int side, koma_piece q)
{
    koma__sk_item *h = p->hand[side];
    int n = p->nhand[side];
    for (int i = 0; i < n; i++)
        if (h[i].p == q) {
            if (--h[i].n == 0) {
                memmove(h + i, h + i + 1, (size_t)(n - i - 1) * sizeof *h);
                p->nhand[side]--;
            }
            return;
        }
}

/* ---- positions --------------------------------------------------------------------- */

void koma__sk_put(koma__sk_pos *p, int sq, koma_piece q)
{
    int s = koma_piece_side(q);
    p->sq[sq] = q;
    p->occ[s] |= BIT(sq);
    p->bb[s][koma__sk_class_of(q)] |= BIT(sq);
    if (q & KOMA_PIECE_TERMINAL) p->royal[s] = (int8_t)sq;
}

koma_piece koma__sk_take(koma__sk_pos *p, int sq)
{
    koma_piece q = p->sq[sq];
    int s = koma_piece_side(q);
    p->sq[sq] = KOMA_PIECE_NONE;
    p->occ[s] &= ~BIT(sq);
    p->bb[s][koma__sk_class_of(q)] &= ~BIT(sq);
    if (p->royal[s] == sq) p->royal[s] = -1;
    return q;
}

static int feen_index(int sq) { return (7 - (sq >> 3)) * 8 + (sq & 7); }

void koma__sk_set(koma__sk *sk, const koma_position *pos)
{
    koma__sk_pos *p = &sk->cur;
    memset(p, 0, sizeof *p);
    p->royal[0] = p->royal[1] = -1;
    for (int sq = 0; sq < 64; sq++) {
        koma_piece q = pos->board[feen_index(sq)];
        if (q != KOMA_PIECE_NONE) koma__sk_put(p, sq, (koma_piece)(q & KOMA_PIECE_MASK));
    }
    for (int s = 0; s < 2; s++) {
        const koma_hand *h = &pos->hands[s];
        for (size_t i = 0; i < h->len; i++) {
            p->hand[s][i].p = h->items[i].piece;
            p->hand[s][i].n = h->items[i].count;
        }
        p->nhand[s] = (uint8_t)h->len;
    }
    p->turn = (uint8_t)pos->turn;
    for (int s = 0; s < 2; s++) {
        sk->style[s] = pos->style[s];
        sk->var[s] = (uint8_t)koma__sk_variant_of_style(pos->style[s]);
    }
    sk->nundo = 0;
}

int koma__sk_get(const koma__sk *sk, koma_position *pos, koma_error *err)
{
    koma_shape shape = {.ndims = 2, .size = {8, 8, 1}, .squares = 64};
    if (koma_position_reset(pos, &shape, err) != 0) return -1;
    const koma__sk_pos *p = &sk->cur;
    for (int sq = 0; sq < 64; sq++) pos->board[feen_index(sq)] = p->sq[sq];
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < p->nhand[s]; i++)
            if (koma_hand_add(&pos->hands[s], p->hand[s][i].p, p->hand[s][i].n, err) != 0) return -1;
    pos->style[0] = sk->style[0];
    pos->style[1] = sk->style[1];
    pos->turn = p->turn;
    return 0;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Board, hands (every marker kept: positions are the same exactly when their
 * canonical FEEN is), side to move. */
uint64_t koma__sk_hash(const koma__sk *sk)
{
    const koma__sk_pos *p = &sk->cur;
    uint64_t h = p->turn ? 0x5A5A5A5A5A5A5A5Aull : 0;
    for (uint64_t occ = p->occ[0] | p->occ[1]; occ; occ &= occ - 1) {
        int sq = __builtin_ctzll(occ);
        h ^= mix(((uint64_t)sq << 16) | p->sq[sq]);
    }
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < p->nhand[s]; i++)
            h ^= mix(((uint64_t)(100 + s) << 48) | ((uint64_t)p->hand[s][i].n << 16) | p->hand[s][i].p);
    return h;
}

/* ---- make / unmake ----------------------------------------------------------------- */

static koma_piece with_state(koma_piece q, koma_piece state)
{
    return (koma_piece)((q & ~KOMA_PIECE_STATE) | state);
}

/* The square (or -1) of the foot soldier that has just double-stepped from
 * `from` to `to` when the other side may take it en passant next ply. */
static int ep_flag(const koma__sk *sk, koma__sk_pos *p, int from, int to)
{
    int mover = koma_piece_side(p->sq[to]), c = mover ^ 1, skipped = (from + to) / 2;
    if (p->sq[skipped] != KOMA_PIECE_NONE) return -1;
    koma_piece victim = p->sq[to];
    p->sq[to] = with_state(victim, KOMA_PIECE_DIMINISHED); /* as if marked, to ask */
    int found = 0;
    for (uint64_t b = p->bb[c][KOMA__SK_FOOT]; b && !found; b &= b - 1) {
        int cf = __builtin_ctzll(b);
        if (koma__sk_ep_victim(sk, p, c, cf, skipped) == to &&
            koma__sk_safe_after(sk, p, c, cf, skipped, to, (p->sq[cf] & KOMA_PIECE_TERMINAL) != 0))
            found = 1;
    }
    p->sq[to] = victim;
    return found ? to : -1;
}

/* What a ply did, for the markers' recomposition. */
typedef struct effect {
    int arrived[2];                    /* squares a piece arrived on (-1 none) */
    int king_moved;                    /* the side whose K or G moved, -1 */
    int dfrom, dto;                    /* a double step, or -1 */
} effect;

static void recompose(const koma__sk *sk, koma__sk_pos *p, const effect *ef)
{
    uint64_t occ = p->occ[0] | p->occ[1];
    for (int t = 0; t < 2; t++) {      /* the check marker */
        int r = p->royal[t];
        if (r >= 0)
            p->sq[r] = with_state(p->sq[r], koma__sk_attacked(sk, p, r, t ^ 1, occ, 0)
                                                ? KOMA_PIECE_DIMINISHED : 0);
    }
    for (int t = 0; t < 2; t++)        /* the double step, on the home rank only */
        for (uint64_t b = p->bb[t][KOMA__SK_FOOT]; b; b &= b - 1) {
            int s = __builtin_ctzll(b);
            if ((p->sq[s] & KOMA_PIECE_ENHANCED) && (s >> 3) != (t ? 6 : 1)) p->sq[s] = with_state(p->sq[s], 0);
        }
    int flagged = ef->dto >= 0 ? ep_flag(sk, p, ef->dfrom, ef->dto) : -1;
    for (int t = 0; t < 2; t++)        /* en passant: the one foot soldier just flagged */
        for (uint64_t b = p->bb[t][KOMA__SK_FOOT]; b; b &= b - 1) {
            int s = __builtin_ctzll(b);
            if (s == flagged) p->sq[s] = with_state(p->sq[s], KOMA_PIECE_DIMINISHED);
            else if ((p->sq[s] & KOMA_PIECE_STATE) == KOMA_PIECE_DIMINISHED) p->sq[s] = with_state(p->sq[s], 0);
        }
    for (int t = 0; t < 2; t++) {      /* castling rights */
        int home = t ? 56 : 0;
        int royal_home = letter_at(p, home + 4, t, L('K')) || letter_at(p, home + 4, t, L('G'));
        for (uint64_t b = p->bb[t][KOMA__SK_R]; b; b &= b - 1) {
            int s = __builtin_ctzll(b);
            if ((p->sq[s] & KOMA_PIECE_STATE) == 0) continue;    /* lost for good */
            int lost = (s != home && s != home + 7) || s == ef->arrived[0] || s == ef->arrived[1] ||
                       ef->king_moved == t || !royal_home;
            koma_piece st = lost ? 0
                          : koma__sk_can_castle(sk, p, t, s == home ? home + 2 : home + 6, 1)
                              ? KOMA_PIECE_ENHANCED : KOMA_PIECE_DIMINISHED;
            p->sq[s] = with_state(p->sq[s], st);
        }
    }
}

static int is_k_or_g(koma_piece q) { return LETTER(q) == L('K') || LETTER(q) == L('G'); }

int koma__sk_make(koma__sk *sk, uint32_t m, koma_error *err)
{
    if (sk->nundo == sk->cap) {
        size_t cap = sk->cap ? 2 * sk->cap : 64;
        koma__sk_pos *u = realloc(sk->undo, cap * sizeof *u);
        if (u == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (plies)");
        sk->undo = u;
        sk->cap = cap;
    }
    sk->undo[sk->nundo++] = sk->cur;
    koma__sk_pos *p = &sk->cur;
    int s = p->turn, from = KOMA__SK_M_FROM(m), to = KOMA__SK_M_TO(m);
    effect ef = {{to, -1}, -1, -1, -1};
    koma_piece captured = KOMA_PIECE_NONE;
    switch (KOMA__SK_M_TYPE(m)) {
    case KOMA__SK_BOARD: {
        koma_piece placed = KOMA__SK_M_PIECE(m);
        if (p->sq[to] != KOMA_PIECE_NONE) captured = koma__sk_take(p, to);
        koma_piece mover = koma__sk_take(p, from);
        if (placed == KOMA_PIECE_NONE) placed = mover;
        koma__sk_put(p, to, placed);
        if (is_k_or_g(placed)) ef.king_moved = s;
        if (captured == KOMA_PIECE_NONE && koma__sk_class_of(placed) == KOMA__SK_FOOT &&
            (to - from == 16 || from - to == 16)) {
            ef.dfrom = from;
            ef.dto = to;
        }
        break;
    }
    case KOMA__SK_EP: {
        int v = koma__sk_ep_victim(sk, p, s, from, to);
        captured = koma__sk_take(p, v);
        koma__sk_put(p, to, koma__sk_take(p, from));
        break;
    }
    case KOMA__SK_CASTLE: {
        int home = s ? 56 : 0, kingside = to == home + 6;
        int rf = kingside ? home + 7 : home, rt = kingside ? home + 5 : home + 3;
        koma__sk_put(p, to, koma__sk_take(p, from));
        koma__sk_put(p, rt, koma__sk_take(p, rf));
        ef.arrived[1] = rt;
        ef.king_moved = s;
        break;
    }
    default: {                         /* a drop */
        koma_piece q = KOMA__SK_M_PIECE(m);
        hand_remove(p, s, q);
        koma__sk_put(p, to, q);
        break;
    }
    }
    if (captured != KOMA_PIECE_NONE && hand_add(p, s, koma__sk_captured_identity(sk, captured, s)) != 0) {
        sk->cur = sk->undo[--sk->nundo];
        return koma_error_set(err, KOMA_E_RULES_HAND, 0, "more than %d kinds of piece in a hand",
                              KOMA__SK_HAND_MAX);
    }
    p->turn ^= 1u;
    recompose(sk, p, &ef);
    return 0;
}

void koma__sk_unmake(koma__sk *sk)
{
    if (sk->nundo) sk->cur = sk->undo[--sk->nundo];
}
