/*
 * lib/game_ggn_sanki.c — the Sanki family (koma-games(7), SANKI) exported as GGN:
 * which displacements are pseudo-legal, for every piece identity of each
 * variant and side (the QPI keys W:K^ ... c:s), as GGN v1 can say them.
 *
 * Said (each displacement with its conditions, on the 8x8 board):
 *   - every piece's own steps, rides and leaps: quiet onto an empty square,
 *     capture onto an enemy; the Pawn's forward step quiet only and its forward
 *     diagonals captures only; the Xiongqi General's orthogonal step quiet only
 *     and its orthogonal rides captures only (the "flying general" included);
 *     the Soldier's sideways step once past the river (ranks 5-8 for the first
 *     player, 1-4 for the second);
 *   - the double step of a foot soldier that holds it (+P, +F, +S): both squares
 *     empty;
 *   - castling, as the royal's own displacement (K^ or G^ on its e-file home
 *     square to c or g): the squares between it and the rook empty, the rook of
 *     its style holding the right (+R) on the corner;
 *   - en passant, the Pawn's diagonal step onto an empty square beside an enemy
 *     foot soldier that may be taken so (-P, -F, -S, whatever its variant);
 *   - Ogi's drops ("*"): the pieces of the side's own case, on an empty square;
 *     a Fu never on its last rank, nor on a file where the side has an unmarked
 *     Fu (a deny condition names one piece a square: a Fu with a marker, +F or
 *     -F, is the rules' to see).
 *
 * Not said (GGN v1 has no words for it; the rules say it: koma-formats(5), GGN):
 *   - what a move turns pieces into: the promotion chosen or made, the captured
 *     piece's identity in hand (each pairing its own), and every state marker a
 *     move sets or clears (the double step spent, the en passant exposure, the
 *     castling rights, the check marker of the royal);
 *   - the second piece of a move: castling's rook, the en passant victim;
 *   - the squares a castling king may not cross under attack, a Fu dropped on
 *     a file whose Fu has a marker, the check rule, mate by a Fu drop, and the
 *     endings.
 * koma_game_ggn_note gives that second list as one sentence.
 */
#include <string.h>

#include "internal.h"
#include "game_internal.h"

enum { STEP, RIDE };

/* How a piece moves: vectors (first player's; the second's mirrored in rank). */
typedef struct vec { int8_t dx, dy, ride; } vec;

static const vec KING[] = {{1, 0, STEP}, {-1, 0, STEP}, {0, 1, STEP}, {0, -1, STEP},
                           {1, 1, STEP}, {1, -1, STEP}, {-1, 1, STEP}, {-1, -1, STEP}};
static const vec ORTHO[] = {{1, 0, RIDE}, {-1, 0, RIDE}, {0, 1, RIDE}, {0, -1, RIDE}};
static const vec DIAG[] = {{1, 1, RIDE}, {1, -1, RIDE}, {-1, 1, RIDE}, {-1, -1, RIDE}};
static const vec KNIGHT[] = {{1, 2, STEP}, {2, 1, STEP}, {2, -1, STEP}, {1, -2, STEP},
                             {-1, -2, STEP}, {-2, -1, STEP}, {-2, 1, STEP}, {-1, 2, STEP}};
static const vec GOLD[] = {{1, 0, STEP}, {-1, 0, STEP}, {0, 1, STEP}, {0, -1, STEP},
                           {1, 1, STEP}, {-1, 1, STEP}};

typedef struct set { const vec *v; size_t n; } set;
#define SET(a) {a, sizeof a / sizeof a[0]}

/* One identity of a piece: its PIN (first player's) and how it moves. */
typedef struct ident {
    const char *pin;
    set sets[2];                       /* move and capture alike */
    int kind;                          /* the special moves below */
} ident;

enum { PLAIN, ROYAL, GENERAL, PAWN, FU, SOLDIER };

#define WITH(a, b) {SET(a), SET(b)}
#define ONE(a) {SET(a), {NULL, 0}}
#define NONE {{NULL, 0}, {NULL, 0}}

/* The identities each variant's rules make ('+' a right held, '-' exposed or in check). */
static const ident chess[] = {
    {"K^", ONE(KING), ROYAL}, {"-K^", ONE(KING), PLAIN},
    {"Q", WITH(ORTHO, DIAG), PLAIN}, {"R", ONE(ORTHO), PLAIN}, {"+R", ONE(ORTHO), PLAIN},
    {"-R", ONE(ORTHO), PLAIN}, {"B", ONE(DIAG), PLAIN}, {"N", ONE(KNIGHT), PLAIN},
    {"P", NONE, PAWN}, {"+P", NONE, PAWN}, {"-P", NONE, PAWN},
};
static const ident ogi[] = {
    {"K^", ONE(KING), ROYAL}, {"-K^", ONE(KING), PLAIN},
    {"R", ONE(ORTHO), PLAIN}, {"+R", ONE(ORTHO), PLAIN}, {"-R", ONE(ORTHO), PLAIN},
    {"B", ONE(DIAG), PLAIN}, {"N", ONE(KNIGHT), PLAIN}, {"I", WITH(DIAG, KNIGHT), PLAIN},
    {"T", ONE(GOLD), PLAIN}, {"F", NONE, FU}, {"+F", NONE, FU}, {"-F", NONE, FU},
};
static const ident xiongqi[] = {
    {"G^", NONE, GENERAL}, {"-G^", NONE, GENERAL},
    {"R", ONE(ORTHO), PLAIN}, {"+R", ONE(ORTHO), PLAIN}, {"-R", ONE(ORTHO), PLAIN},
    {"N", ONE(KNIGHT), PLAIN}, {"B", ONE(DIAG), PLAIN}, {"E", WITH(ORTHO, KNIGHT), PLAIN},
    {"S", NONE, SOLDIER}, {"+S", NONE, SOLDIER}, {"-S", NONE, SOLDIER},
};

/* The pieces Ogi drops (the pieces of its own case in its hand). */
static const char *const drops[] = {"R", "B", "N", "I", "F"};

#define N 8                            /* the board: 8 files, 8 ranks */

typedef struct out {
    koma_ggn *ggn;
    koma_qpi q;                        /* the piece being exported */
    int side;                          /* 0 first, 1 second */
    char style;                        /* its style, uppercase */
    koma_error *err;
} out;

static koma_location loc(int f, int r)
{
    koma_location l;
    memset(&l, 0, sizeof l);
    l.cell.ndims = 2;
    l.cell.idx[0] = (uint8_t)f;
    l.cell.idx[1] = (uint8_t)r;
    return l;
}

static koma_lcn cond(int f, int r, koma_lcn_kind kind)
{
    koma_lcn c;
    memset(&c, 0, sizeof c);
    c.cell = loc(f, r).cell;
    c.kind = kind;
    return c;
}

/* A piece of a style and side as a QPI condition value. */
static koma_lcn piece_cond(int f, int r, char style, int side, const char *pin)
{
    koma_lcn c = cond(f, r, KOMA_LCN_PIECE);
    koma_piece p = KOMA_PIECE_NONE;
    koma_epin_parse(pin, strlen(pin), &p, NULL);
    c.piece.style = side ? (char)(style | 0x20) : style;
    c.piece.piece = (koma_piece)(p | (side ? KOMA_PIECE_SECOND : 0));
    return c;
}

static int on(int f, int r) { return f >= 0 && f < N && r >= 0 && r < N; }

/* The displacement (sf, sr) -> (f, r) with the path must[0..n) and the
 * destination as dkind; deny[0..nd). */
static int add(out *o, int sf, int sr, int f, int r, koma_lcn *must, size_t n,
               koma_lcn_kind dkind, const koma_lcn *deny, size_t nd)
{
    koma_location src = loc(sf, sr), dst = loc(f, r);
    must[n] = cond(f, r, dkind);
    return koma_ggn_add(o->ggn, &o->q, &src, &dst, must, n + 1, deny, nd, o->err);
}

/* The vectors of a set from (sf, sr): quiet and/or capture. */
static int rays(out *o, int sf, int sr, set s, int quiet, int capture)
{
    koma_lcn must[N + 1];
    int fwd = o->side ? -1 : 1;
    for (size_t i = 0; i < s.n; i++) {
        int dx = s.v[i].dx, dy = s.v[i].dy * fwd;
        size_t n = 0;
        for (int t = 1;; t++) {
            int f = sf + t * dx, r = sr + t * dy;
            if (!on(f, r)) break;
            if (quiet && add(o, sf, sr, f, r, must, n, KOMA_LCN_EMPTY, NULL, 0) != 0) return -1;
            if (capture && add(o, sf, sr, f, r, must, n, KOMA_LCN_ENEMY, NULL, 0) != 0) return -1;
            if (s.v[i].ride == STEP) break;
            must[n++] = cond(f, r, KOMA_LCN_EMPTY);
        }
    }
    return 0;
}

/* Castling of a royal on its home square: to g (rook h) and to c (rook a). */
static int castling(out *o, int sf, int sr)
{
    int home = o->side ? N - 1 : 0;
    if (sf != 4 || sr != home) return 0;
    koma_lcn must[5];
    /* kingside: f, g empty, +R on h */
    must[0] = cond(5, home, KOMA_LCN_EMPTY);
    must[1] = piece_cond(7, home, o->style, o->side, "+R");
    if (add(o, sf, sr, 6, home, must, 2, KOMA_LCN_EMPTY, NULL, 0) != 0) return -1;
    /* queenside: b, d empty (c is the destination), +R on a */
    must[0] = cond(1, home, KOMA_LCN_EMPTY);
    must[1] = cond(3, home, KOMA_LCN_EMPTY);
    must[2] = piece_cond(0, home, o->style, o->side, "+R");
    return add(o, sf, sr, 2, home, must, 3, KOMA_LCN_EMPTY, NULL, 0);
}

/* A foot soldier's forward step (quiet, and capture when straight captures) and
 * its double step when it holds it. */
static int forward(out *o, int sf, int sr, int straight_capture, int dbl)
{
    int fwd = o->side ? -1 : 1, r1 = sr + fwd, r2 = sr + 2 * fwd;
    koma_lcn must[2];
    if (!on(sf, r1)) return 0;
    if (add(o, sf, sr, sf, r1, must, 0, KOMA_LCN_EMPTY, NULL, 0) != 0) return -1;
    if (straight_capture && add(o, sf, sr, sf, r1, must, 0, KOMA_LCN_ENEMY, NULL, 0) != 0)
        return -1;
    if (!dbl || !on(sf, r2)) return 0;
    must[0] = cond(sf, r1, KOMA_LCN_EMPTY);
    return add(o, sf, sr, sf, r2, must, 1, KOMA_LCN_EMPTY, NULL, 0);
}

static int pawn(out *o, int sf, int sr, int dbl)
{
    static const char *const victims[3][2] = {{"W", "-P"}, {"J", "-F"}, {"C", "-S"}};
    int fwd = o->side ? -1 : 1;
    koma_lcn must[2];
    if (forward(o, sf, sr, 0, dbl) != 0) return -1;
    for (int dx = -1; dx <= 1; dx += 2) {
        int f = sf + dx, r = sr + fwd;
        if (!on(f, r)) continue;
        if (add(o, sf, sr, f, r, must, 0, KOMA_LCN_ENEMY, NULL, 0) != 0) return -1;
        /* en passant: the victim beside, on the square the step passes */
        for (int v = 0; v < 3; v++) {
            must[0] = piece_cond(f, sr, victims[v][0][0], !o->side, victims[v][1]);
            if (add(o, sf, sr, f, r, must, 1, KOMA_LCN_EMPTY, NULL, 0) != 0) return -1;
        }
    }
    return 0;
}

static int soldier(out *o, int sf, int sr, int dbl)
{
    if (forward(o, sf, sr, 1, dbl) != 0) return -1;
    int crossed = o->side ? sr <= 3 : sr >= 4;
    if (!crossed) return 0;
    koma_lcn must[1];
    for (int dx = -1; dx <= 1; dx += 2) {
        if (!on(sf + dx, sr)) continue;
        if (add(o, sf, sr, sf + dx, sr, must, 0, KOMA_LCN_EMPTY, NULL, 0) != 0 ||
            add(o, sf, sr, sf + dx, sr, must, 0, KOMA_LCN_ENEMY, NULL, 0) != 0)
            return -1;
    }
    return 0;
}

static int source(out *o, const ident *id, int sf, int sr)
{
    int dbl = id->pin[0] == '+';
    switch (id->kind) {
    case PAWN: return pawn(o, sf, sr, dbl);
    case FU: return forward(o, sf, sr, 1, dbl);
    case SOLDIER: return soldier(o, sf, sr, dbl);
    case GENERAL: {
        static const vec step[] = {{1, 0, STEP}, {-1, 0, STEP}, {0, 1, STEP}, {0, -1, STEP}};
        if (rays(o, sf, sr, (set)SET(step), 1, 0) != 0 || rays(o, sf, sr, (set)SET(ORTHO), 0, 1) != 0)
            return -1;
        return id->pin[0] == '-' ? 0 : castling(o, sf, sr);
    }
    default:
        for (int k = 0; k < 2; k++)
            if (id->sets[k].v != NULL && rays(o, sf, sr, id->sets[k], 1, 1) != 0) return -1;
        return id->kind == ROYAL ? castling(o, sf, sr) : 0;
    }
}

static int ogi_drops(out *o, const char *pin)
{
    koma_location star;
    memset(&star, 0, sizeof star);
    star.hand = 1;
    int fu = strcmp(pin, "F") == 0, last = o->side ? 0 : N - 1;
    for (int f = 0; f < N; f++)
        for (int r = 0; r < N; r++) {
            if (fu && r == last) continue;
            koma_location dst = loc(f, r);
            koma_lcn must = cond(f, r, KOMA_LCN_EMPTY), deny[N];
            size_t nd = 0;
            /* a deny condition names one piece a square: the plain Fu (not +F, -F) */
            for (int r2 = 0; fu && r2 < N; r2++)
                if (r2 != r) deny[nd++] = piece_cond(f, r2, 'J', o->side, "F");
            if (koma_ggn_add(o->ggn, &o->q, &star, &dst, &must, 1, nd ? deny : NULL, nd, o->err) != 0)
                return -1;
        }
    return 0;
}

static int export_style(out *o, char style, const ident *ids, size_t nids)
{
    o->style = style;
    for (size_t i = 0; i < nids; i++) {
        koma_piece p = KOMA_PIECE_NONE;
        if (koma_epin_parse(ids[i].pin, strlen(ids[i].pin), &p, o->err) != 0) return -1;
        o->q.style = o->side ? (char)(style | 0x20) : style;
        o->q.piece = (koma_piece)(p | (o->side ? KOMA_PIECE_SECOND : 0));
        for (int f = 0; f < N; f++)
            for (int r = 0; r < N; r++)
                if (source(o, &ids[i], f, r) != 0) return -1;
        if (style != 'J' || ids[i].pin[0] == '+' || ids[i].pin[0] == '-') continue;
        for (size_t d = 0; d < sizeof drops / sizeof drops[0]; d++)
            if (strcmp(drops[d], ids[i].pin) == 0 && ogi_drops(o, ids[i].pin) != 0) return -1;
    }
    return 0;
}

koma_ggn *koma__game_sanki_ggn(const char *styles, koma_error *err)
{
    koma_ggn *ggn = NULL;
    koma_ggn_new(&ggn, err);
    if (ggn == NULL) return NULL;
    out o;
    memset(&o, 0, sizeof o);
    o.ggn = ggn;
    o.err = err;
    for (o.side = 0; o.side < 2; o.side++)
        for (const char *s = styles; *s; s++) {
            int rc = *s == 'W' ? export_style(&o, 'W', chess, sizeof chess / sizeof chess[0])
                   : *s == 'J' ? export_style(&o, 'J', ogi, sizeof ogi / sizeof ogi[0])
                   : *s == 'C' ? export_style(&o, 'C', xiongqi, sizeof xiongqi / sizeof xiongqi[0])
                               : 0;
            if (rc != 0) {
                koma_ggn_free(ggn);
                return NULL;
            }
        }
    koma_error_clear(err);
    return ggn;
}

const char *koma__game_sanki_ggn_note(void)
{
    return "GGN says which displacements are pseudo-legal; what a Sanki move makes "
           "(promotions, hand identities, state markers), castling's rook, the en passant "
           "victim, attacked castling squares, a Fu beside a marked Fu are the rules'";
}
