/*
 * lib/engine_movegen.c — move generation and attack detection.
 *
 * Pseudo-legal moves: every board move the piece's Betza vectors allow (with
 * the promotion choices: promote, and not promote unless the move must), the
 * King's privilege as two moves, and every allowed drop (forbidden ranks, nifu,
 * never-dropped kinds). Legal moves: in games with the check rule, those not
 * leaving the mover's royal attacked and not mating with a no-mate drop (pawn);
 * without the check rule, all pseudo-legal moves (Ōgi: a king may be captured).
 *
 * Replaying a record never needs the whole list: koma_engine_find_move builds
 * the one move the text names and tests it (koma__drop_pseudo,
 * koma__legal_pseudo), and "has a legal move" stops at the first move found,
 * generating piece by piece (without the check rule, a piece with a free or
 * enemy square at its first step is enough). After a ply koma_engine_find_move
 * found, the side to move's check is known from that ply (koma__mb_make:
 * koma__checked_by) and a piece's pin is read from its one line
 * (koma__pinned_line, engine_internal.h), without the royal scan.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "internal.h"
#include "engine_internal.h"

/* The generators are shared by koma__gen_pseudo and the lazy look-ups; perft
 * needs them inlined into koma__gen_pseudo. */
#if defined(__GNUC__)
#define GEN_INLINE static inline __attribute__((always_inline))
#else
#define GEN_INLINE static inline
#endif


static inline int own_or_off(unsigned c, int s)
{
    return c != KOMA__EMPTY && ((c & KOMA__OFF) || KOMA__SIDE_OF(c) == s);
}

int koma__attacked(const koma_engine *e, int sq, int by)
{
    const uint8_t *b = e->board;
    const koma__probe *pr = e->leap_probe[by];
    for (int i = 0, n = e->nleap_probe[by]; i < n; i++)
        if ((pr[i].mask >> KOMA__MOVER(b[sq - pr[i].off])) & 1u) return 1;
    pr = e->ride_probe[by];
    for (int i = 0, n = e->nride_probe[by]; i < n; i++) {
        int off = pr[i].off, t = sq - off, steps = 1;
        while (b[t] == KOMA__EMPTY) {
            t -= off;
            steps++;
        }
        unsigned c = KOMA__MOVER(b[t]);
        if ((pr[i].mask >> c) & 1u) {
            if (!pr[i].limited) return 1;
            unsigned r = e->ride_range[c][i];
            if (r == 0 || (unsigned)steps <= r) return 1;
        }
    }
    return 0;
}

int koma__in_check(const koma_engine *e, int s)
{
    if (e->nroyal[s] == 0) return 0;
    if (e->nroyal[s] == 1) {
        int r = e->royal_sq[s];
        unsigned c = r >= 0 ? e->board[r] : 0;
        if (c != KOMA__EMPTY && !(c & KOMA__OFF) && KOMA__SIDE_OF(c) == s && e->royal_code[KOMA__MOVER(c)])
            return koma__attacked(e, r, s ^ 1);
    }
    for (int sq = 0; sq < e->nsquares; sq++) {
        int idx = e->sq_index[sq];
        unsigned c = e->board[idx];
        if (c != KOMA__EMPTY && KOMA__SIDE_OF(c) == s && e->royal_code[KOMA__MOVER(c)] &&
            koma__attacked(e, idx, s ^ 1))
            return 1;
    }
    return 0;
}

/*
 * A ride reaches `to` when to - from is k times its step (in files and rows,
 * k >= 1, within its range) and, unless blockers are ignored, the k - 1 squares
 * between are empty. (Every square of that straight line lies on the board, as
 * both ends do.)
 */
int koma__reaches(const koma_engine *e, uint8_t code, int from, int to, int ignore_blockers)
{
    return koma__reaches_in(e, code, from, to, ignore_blockers);
}

int koma__reaches_walk(const koma_engine *e, uint8_t code, int from, int to, int ignore_blockers)
{
    const koma__movement *mv = &e->mv[KOMA__MOVER(code)];
    if (!e->leap_by)
        for (int i = 0; i < mv->nleap; i++)
            if (from + mv->leap[i] == to) return 1;
    int df = (int)e->file_of[to] - (int)e->file_of[from];
    int dr = (int)e->last_dist[KOMA_FIRST][to] - (int)e->last_dist[KOMA_FIRST][from];
    for (int i = 0; i < mv->nride; i++) {
        int sf = e->ride_step[KOMA__MOVER(code)][i][0], sr = e->ride_step[KOMA__MOVER(code)][i][1], k;
        if (sf == 1 || sf == -1) k = df * sf;            /* most steps: no division */
        else if (sr == 1 || sr == -1) k = dr * sr;
        else if (sf != 0) {
            if (df % sf != 0) continue;
            k = df / sf;
        } else {
            if (sr == 0 || dr % sr != 0) continue;
            k = dr / sr;
        }
        if (k < 1 || df != k * sf || dr != k * sr) continue;
        unsigned range = mv->ride[i].range;
        if (range && (unsigned)k > range) continue;
        if (ignore_blockers) return 1;
        int off = mv->ride[i].off, t = from + off;
        while (t != to && e->board[t] == KOMA__EMPTY) t += off;
        if (t == to) return 1;
    }
    return 0;
}

/* The board-move variants of one (from, to): promotion choices, King's privilege. */
GEN_INLINE koma_emove *push_board(const koma_engine *e, koma_emove *out, int s, unsigned p,
                                     int from, int to, unsigned c)
{
    koma_emove m = KOMA__MOVE(from, to);
    if (e->promote_code[KOMA__MOVER(p)] && (e->in_zone[s][from] | e->in_zone[s][to])) {
        *out++ = m | KOMA__M_PROMOTE;
        if (e->last_dist[s][to] >= e->must_rank[KOMA__MOVER(p)]) *out++ = m;
        return out;
    }
    if (c != KOMA__EMPTY && e->privilege_code[KOMA__MOVER(p)] && e->promoted_code[KOMA__MOVER(c)])
        *out++ = m | KOMA__M_KEEP;
    *out++ = m;
    return out;
}

/* The moves the rule system makes of the board displacement from -> to of the
 * side to move (promotion choices, the King's privilege pair), as
 * koma__gen_pseudo makes them: at most 2, into out. Used by the GGN-driven
 * generator (game_ggn.c). */
size_t koma__board_variants(const koma_engine *e, int from, int to, koma_emove *out)
{
    return (size_t)(push_board(e, out, e->turn, e->board[from], from, to, e->board[to]) - out);
}

static koma_emove *gen_piece_overlap(const koma_engine *e, int s, unsigned p, int from,
                                     koma_emove *out);

/* The board moves of the piece p of side s on `from`, in generation order. */
GEN_INLINE koma_emove *gen_piece(const koma_engine *e, int s, unsigned p, int from,
                                    koma_emove *out)
{
    if (e->overlap[KOMA__MOVER(p)]) return gen_piece_overlap(e, s, p, from, out);
    const uint8_t *b = e->board;
    const koma__movement *mv = &e->mv[KOMA__MOVER(p)];
    for (int i = 0; i < mv->nleap; i++) {
        int to = from + mv->leap[i];
        unsigned c = b[to];
        if (own_or_off(c, s)) continue;
        out = push_board(e, out, s, p, from, to, c);
    }
    for (int i = 0; i < mv->nride; i++) {
        int off = mv->ride[i].off, to = from + off;
        unsigned range = mv->ride[i].range, n = 1;
        for (;;) {
            unsigned c = b[to];
            if (c == KOMA__EMPTY) {
                out = push_board(e, out, s, p, from, to, c);
                if (range && n >= range) break;
                to += off;
                n++;
                continue;
            }
            if (!own_or_off(c, s)) out = push_board(e, out, s, p, from, to, c);
            break;
        }
    }
    return out;
}

/*
 * gen_piece for a piece whose vectors reach some square two ways (a W rider and
 * a D leap both go two squares ahead: "RD"): one displacement is one move (one
 * canonical PMN), however many vectors reach it, so each destination is
 * emitted once, at its first reach.
 */
static koma_emove *gen_piece_overlap(const koma_engine *e, int s, unsigned p, int from,
                                     koma_emove *out)
{
    const uint8_t *b = e->board;
    const koma__movement *mv = &e->mv[KOMA__MOVER(p)];
    uint8_t seen[KOMA__MAX_BOARD];
    memset(seen, 0, (size_t)e->size);
    for (int i = 0; i < mv->nleap; i++) {
        int to = from + mv->leap[i];
        unsigned c = b[to];
        if (own_or_off(c, s) || seen[to]) continue;
        seen[to] = 1;
        out = push_board(e, out, s, p, from, to, c);
    }
    for (int i = 0; i < mv->nride; i++) {
        int off = mv->ride[i].off, to = from + off;
        unsigned range = mv->ride[i].range, n = 1;
        for (;;) {
            unsigned c = b[to];
            if (own_or_off(c, s)) break;
            if (!seen[to]) {
                seen[to] = 1;
                out = push_board(e, out, s, p, from, to, c);
            }
            if (c != KOMA__EMPTY || (range && n >= range)) break;
            to += off;
            n++;
        }
    }
    return out;
}

/* 1 when the piece p of side s on `from` has a board move (each displacement
 * gives at least one move: push_board always emits one). */
static inline int piece_moves(const koma_engine *e, int s, unsigned p, int from)
{
    const uint8_t *b = e->board;
    const koma__movement *mv = &e->mv[KOMA__MOVER(p)];
    for (int i = 0; i < mv->nleap; i++)
        if (!own_or_off(b[from + mv->leap[i]], s)) return 1;
    for (int i = 0; i < mv->nride; i++)
        if (!own_or_off(b[from + mv->ride[i].off], s)) return 1;
    return 0;
}

/* The hand slots of side s that may be dropped and are held; returns their number. */
GEN_INLINE int held_drop_slots(const koma_engine *e, int s, int *slots)
{
    int nslots = 0;
    for (int i = 0; i < e->ndrop_slots; i++) {
        int slot = e->drop_slots[i];
        if (e->hand[s][slot]) slots[nslots++] = slot;
    }
    return nslots;
}

/* 1 when a piece of the slot may be dropped on the empty square `to` (forbidden
 * ranks, nifu). */
GEN_INLINE int drop_allowed(const koma_engine *e, int s, int slot, int to)
{
    const koma_game *g = e->game;
    int k = KOMA__SLOT_KIND(slot);
    const koma__kind *kd = &g->kinds[k];
    if (e->last_dist[s][to] < kd->drop_forbidden_ranks) return 0;
    if (kd->nifu &&
        e->nifu[((size_t)s * g->nkinds + (size_t)k) * (size_t)e->files + e->file_of[to]])
        return 0;
    return 1;
}

GEN_INLINE koma_emove *gen_drops(const koma_engine *e, int s, koma_emove *out)
{
    int slots[KOMA__SLOTS];
    int nslots = held_drop_slots(e, s, slots);
    if (nslots == 0) return out;
    const uint8_t *b = e->board;
    const koma_game *g = e->game;
    for (int sq = 0; sq < e->nsquares; sq++) {
        int to = e->sq_index[sq];
        if (b[to] != KOMA__EMPTY) continue;
        unsigned dist = e->last_dist[s][to];
        for (int i = 0; i < nslots; i++) {
            int slot = slots[i], k = KOMA__SLOT_KIND(slot);
            const koma__kind *kd = &g->kinds[k];
            if (dist < kd->drop_forbidden_ranks) continue;     /* as drop_allowed */
            if (kd->nifu &&
                e->nifu[((size_t)s * g->nkinds + (size_t)k) * (size_t)e->files + e->file_of[to]])
                continue;
            *out++ = KOMA__M_DROP | KOMA__MOVE(slot, to);
        }
    }
    return out;
}


/*
 * The padded squares of side s's pieces, in square order (rank by rank: the
 * order of e->sq_index); returns their number. The board is read 16 squares at
 * a time where SSE2 is there (a byte compare and a mask per 16 squares instead
 * of a test per square), else one by one.
 */
static int own_squares(const koma_engine *e, int s, int16_t *out)
{
    const uint8_t *b = e->board;
    int i = e->sq_index[0], hi = e->sq_index[e->nsquares - 1] + 1, n = 0;
    const unsigned want = s ? KOMA__SIDE : 0u;
#if defined(__SSE2__)
    const __m128i sel = _mm_set1_epi8((char)(KOMA__OFF | KOMA__SIDE));
    const __m128i side = _mm_set1_epi8((char)want), zero = _mm_setzero_si128();
    for (; i + 16 <= hi; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
        __m128i own = _mm_andnot_si128(_mm_cmpeq_epi8(v, zero),
                                       _mm_cmpeq_epi8(_mm_and_si128(v, sel), side));
        unsigned bits = (unsigned)_mm_movemask_epi8(own);
        while (bits) {
            out[n++] = (int16_t)(i + __builtin_ctz(bits));
            bits &= bits - 1;
        }
    }
#endif
    for (; i < hi; i++) {
        unsigned c = b[i];
        if (c != KOMA__EMPTY && (c & (KOMA__OFF | KOMA__SIDE)) == want) out[n++] = (int16_t)i;
    }
    return n;
}

size_t koma__gen_pseudo(koma_engine *e, koma_emove *moves)
{
    const uint8_t *b = e->board;
    int s = e->turn;
    koma_emove *out = moves;
    int16_t own[KOMA__MAX_BOARD];
    for (int j = 0, n = own_squares(e, s, own); j < n; j++) {
        int from = own[j];
        out = gen_piece(e, s, b[from], from, out);
    }
    out = gen_drops(e, s, out);
    return (size_t)(out - moves);
}

int koma__drop_pseudo(const koma_engine *e, int slot, int to)
{
    int s = e->turn;
    return e->board[to] == KOMA__EMPTY && e->hand[s][slot] &&
           e->game->kinds[KOMA__SLOT_KIND(slot)].droppable && drop_allowed(e, s, slot, to);
}

/* 1 when the side to move has a pseudo-legal move (stops at the first). */
static int any_pseudo(const koma_engine *e)
{
    const uint8_t *b = e->board;
    int s = e->turn;
    /* over the padded board from the first to the last real square (skipping
     * the KOMA__OFF padding between ranks), starting from the side's own first
     * rank, where its pieces most likely are */
    int lo = e->sq_index[0], hi = e->sq_index[e->nsquares - 1];
    if (s == KOMA_FIRST) {
        for (int from = hi; from >= lo; from--) {
            unsigned p = b[from];
            if (p == KOMA__EMPTY || (p & (KOMA__OFF | KOMA__SIDE))) continue;
            if (piece_moves(e, s, p, from)) return 1;
        }
    } else {
        for (int from = lo; from <= hi; from++) {
            unsigned p = b[from];
            if ((p & (KOMA__OFF | KOMA__SIDE)) != KOMA__SIDE) continue;
            if (piece_moves(e, s, p, from)) return 1;
        }
    }
    int slots[KOMA__SLOTS];
    int nslots = held_drop_slots(e, s, slots);
    if (nslots == 0) return 0;
    for (int sq = 0; sq < e->nsquares; sq++) {
        int to = e->sq_index[sq];
        if (b[to] != KOMA__EMPTY) continue;
        for (int i = 0; i < nslots; i++)
            if (drop_allowed(e, s, slots[i], to)) return 1;
    }
    return 0;
}

static int has_legal_level(koma_engine *e, int level);
static int has_legal_now(koma_engine *e);

/* Legality of a pseudo-legal move in a check-rule game. */
static int legal_move(koma_engine *e, koma_emove m, int level)
{
    int s = e->turn;
    /* A no-mate drop (the pawn) is illegal when the dropped piece itself gives
     * check and the opponent has no legal reply. "Gives check" is the dropped
     * piece attacking the opponent's one royal, as in koma__gen_legal's fast path,
     * so both paths agree even in positions where the opponent was already in
     * check before the drop. */
    int oksq = e->nroyal[s ^ 1] == 1 ? e->royal_sq[s ^ 1] : -1;
    int no_mate_drop = (m & KOMA__M_DROP) && e->game->kinds[KOMA__SLOT_KIND(KOMA__M_FROM(m))].drop_no_mate &&
                       oksq >= 0;
    koma__undo u;
    unsigned quick = e->quick;         /* (the same position after the unmake) */
    koma__make(e, m, &u);
    int ok = !koma__in_check(e, s);
    if (ok && no_mate_drop && level < KOMA__SCRATCH_LEVELS &&
        koma__reaches(e, KOMA__CODE(KOMA__SLOT_KIND(KOMA__M_FROM(m)), s), KOMA__M_TO(m), oksq, 0))
        ok = level == 0 ? has_legal_now(e) : has_legal_level(e, level);   /* (the same answer) */
    koma__unmake(e, &u);
    e->quick = quick;
    return ok;
}

static int has_legal_level(koma_engine *e, int level)
{
    if (koma__over(e)) return 0;
    if (!e->game->check_rule) return any_pseudo(e);
    /* piece by piece, stopping at the first legal move */
    koma_emove *buf = e->scratch + (size_t)level * e->max_moves;
    const uint8_t *b = e->board;
    int s = e->turn;
    for (int sq = 0; sq < e->nsquares; sq++) {
        int from = e->sq_index[sq];
        unsigned p = b[from];
        if (p == KOMA__EMPTY || KOMA__SIDE_OF(p) != s) continue;
        size_t n = (size_t)(gen_piece(e, s, p, from, buf) - buf);
        for (size_t i = 0; i < n; i++)
            if (legal_move(e, buf[i], level + 1)) return 1;
    }
    size_t n = (size_t)(gen_drops(e, s, buf) - buf);
    for (size_t i = 0; i < n; i++)
        if (legal_move(e, buf[i], level + 1)) return 1;
    return 0;
}

static int royal_scan(const koma_engine *e, int ksq, int s, int *pins, int cap);
#if KOMA__HAVE_BB
static int royal_scan_bb_64(const koma_engine *e, int ksq, int s, int *pins, int cap);
static int royal_scan_bb_128(const koma_engine *e, int ksq, int s, int *pins, int cap);
static int attacked_lifted_bb_64(const koma_engine *e, int ksq, int to, int s);
static int attacked_lifted_bb_128(const koma_engine *e, int ksq, int to, int s);
#endif

/* koma__attacked(e, to, s ^ 1), the royal of side s on ksq lifted (its moves). */
static int attacked_lifted(koma_engine *e, int ksq, int to, int s)
{
#if KOMA__HAVE_BB
    if (e->use_bb)
        return e->nsquares <= 64 ? attacked_lifted_bb_64(e, ksq, to, s) : attacked_lifted_bb_128(e, ksq, to, s);
#endif
    uint8_t king = e->board[ksq];
    e->board[ksq] = KOMA__EMPTY;
    int a = koma__attacked(e, to, s ^ 1);
    e->board[ksq] = king;
    return a;
}

/* The side to move's one royal, on the board and still its own (else -1). */
static int single_royal(const koma_engine *e)
{
    int s = e->turn;
    if (e->nroyal[s] != 1) return -1;
    int ksq = e->royal_sq[s];
    unsigned c = ksq >= 0 ? e->board[ksq] : KOMA__EMPTY;
    if (c == KOMA__EMPTY || (c & KOMA__OFF) || KOMA__SIDE_OF(c) != s || !e->royal_code[KOMA__MOVER(c)])
        return -1;
    return ksq;
}

const koma__royal_info *koma__royal_scan(koma_engine *e)
{
    koma__royal_info *st = &e->royal;
    int s = e->turn;
    st->ksq = single_royal(e);
    st->in_check = 0;
    st->npins = 0;
    if (st->ksq >= 0) {
        /* one walk of the royal's rays: check, or the pins (-1 also when too many) */
#if KOMA__HAVE_BB
        if (e->use_bb)
            st->npins = e->nsquares <= 64 ? royal_scan_bb_64(e, st->ksq, s, st->pins, KOMA__PINS_MAX)
                                          : royal_scan_bb_128(e, st->ksq, s, st->pins, KOMA__PINS_MAX);
        else
#endif
            st->npins = royal_scan(e, st->ksq, s, st->pins, KOMA__PINS_MAX);
        if (st->npins < 0 && (st->in_check = koma__attacked(e, st->ksq, s ^ 1)) != 0)
            st->npins = 0;             /* (pins are not asked in check) */
    }
    e->royal_known = 1;
    return st;
}

int koma__pinned_find(koma_engine *e, int from)
{
    const koma__royal_info *st = koma__royal_scan(e);
    return st->npins < 0 || koma__pinned(st, from);
}

/* 1 when a piece of the side to move that is neither its royal nor pinned has
 * a move (any move of such a piece is legal when not in check). */
static int free_piece_moves(const koma_engine *e, const koma__royal_info *st)
{
    const uint8_t *b = e->board;
    int s = e->turn;
#if KOMA__HAVE_BB
    if (e->use_bb) {
        koma__bb own = e->occ[s] & ~e->bit[st->ksq];
        for (int half = 0; half < 2; half++, own >>= 64)
            for (uint64_t w = (uint64_t)own; w; w &= w - 1) {
                int from = e->sq_index[64 * half + __builtin_ctzll(w)];
                if (!koma__pinned(st, from) && piece_moves(e, s, b[from], from)) return 1;
            }
        return 0;
    }
#endif
    for (int sq = 0; sq < e->nsquares; sq++) {
        int from = e->sq_index[sq];
        unsigned p = b[from];
        if (p == KOMA__EMPTY || KOMA__SIDE_OF(p) != s || from == st->ksq) continue;
        if (!koma__pinned(st, from) && piece_moves(e, s, p, from)) return 1;
    }
    return 0;
}

/* 1 when the royal of side to move on ksq has a move to a square not attacked
 * (the royal lifted: as koma__gen_legal tests it). buf: room for its moves. */
static int royal_escapes(koma_engine *e, int ksq, koma_emove *buf)
{
    int s = e->turn;
    size_t n = (size_t)(gen_piece(e, s, e->board[ksq], ksq, buf) - buf);
    for (size_t i = 0; i < n; i++)
        if (!attacked_lifted(e, ksq, KOMA__M_TO(buf[i]), s)) return 1;
    return 0;
}

static int check_blocks(const koma_engine *e, int ksq, int s, int *sq, int cap);

static inline int in_list(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

/*
 * In check, the side to move's one royal on ksq: 1 when it has a legal move,
 * the likeliest first: a drop between the royal and its checker, the royal's
 * escapes, another piece onto a square that ends the check (each tested in
 * full; as koma__gen_legal's evasions, no other move can be legal).
 */
static int evasion_exists(koma_engine *e, int ksq, koma_emove *buf)
{
    int s = e->turn;
    int blocks[64];
    int nb = check_blocks(e, ksq, s, blocks, 64);
    if (nb == 0 || nb == -2) return royal_escapes(e, ksq, buf) || has_legal_level(e, 0);
    int slots[KOMA__SLOTS];
    int nslots = nb > 0 ? held_drop_slots(e, s, slots) : 0;
    for (int j = 0; j < nb && nslots; j++) {
        int to = blocks[j];
        if (e->board[to] != KOMA__EMPTY) continue;
        for (int i = 0; i < nslots; i++)
            if (drop_allowed(e, s, slots[i], to) && legal_move(e, KOMA__M_DROP | KOMA__MOVE(slots[i], to), 1))
                return 1;
    }
    if (royal_escapes(e, ksq, buf)) return 1;
    if (nb < 0) return 0;              /* two checkers: only the royal may move */
    int16_t own[KOMA__MAX_BOARD];
    for (int j = 0, nown = own_squares(e, s, own); j < nown; j++) {
        int from = own[j];
        if (from == ksq) continue;
        size_t n = (size_t)(gen_piece(e, s, e->board[from], from, buf) - buf);
        for (size_t i = 0; i < n; i++)
            if (in_list(blocks, nb, KOMA__M_TO(buf[i])) && legal_move(e, buf[i], 1)) return 1;
    }
    return 0;
}

/*
 * Whether the side to move has a legal move, with the royal state: not in
 * check, a piece that is neither the royal nor pinned and has a pseudo-legal
 * move is enough (as koma__gen_legal accepts its moves untested), else a drop
 * that cannot be a no-mate drop giving check; only then the royal's moves, the
 * pinned pieces' and those drops are tested. In check, the royal's escapes
 * first, then every move in full (has_legal_level). The same answer as
 * has_legal_level, which tries every move in full.
 */
static int has_legal_now(koma_engine *e)
{
    if (koma__over(e)) return 0;
    if (!e->game->check_rule) return any_pseudo(e);
    koma__royal_info st = *koma__royal_state(e);    /* (a copy: legal_move forgets it) */
    if (st.ksq < 0 || st.npins < 0) return has_legal_level(e, 0);
    koma_emove *buf = e->scratch;
    if (st.in_check) return evasion_exists(e, st.ksq, buf);
    const uint8_t *b = e->board;
    int s = e->turn;
    if (free_piece_moves(e, &st)) return 1;
    int slots[KOMA__SLOTS];
    int nslots = held_drop_slots(e, s, slots);
    int oksq = e->nroyal[s ^ 1] == 1 ? e->royal_sq[s ^ 1] : -1;
    for (int sq = 0; sq < e->nsquares && nslots; sq++) {
        int to = e->sq_index[sq];
        if (b[to] != KOMA__EMPTY) continue;
        for (int i = 0; i < nslots; i++) {
            int slot = slots[i], k = KOMA__SLOT_KIND(slot);
            if (!drop_allowed(e, s, slot, to)) continue;
            if (!e->game->kinds[k].drop_no_mate ||
                (oksq >= 0 && !koma__reaches(e, KOMA__CODE(k, s), to, oksq, 0)))
                return 1;
            if (legal_move(e, KOMA__M_DROP | KOMA__MOVE(slot, to), 1)) return 1;
        }
    }
    if (royal_escapes(e, st.ksq, buf)) return 1;
    for (int q = 0; q < st.npins; q++) {
        int from = st.pins[q];
        size_t n = (size_t)(gen_piece(e, s, b[from], from, buf) - buf);
        for (size_t i = 0; i < n; i++)
            if (legal_move(e, buf[i], 1)) return 1;
    }
    return 0;
}

int koma__has_legal_move(koma_engine *e) { return has_legal_now(e); }

/* As koma__gen_legal decides it, with the royal state: only the royal's moves,
 * the pinned pieces', the no-mate drops giving check and every move in check
 * are made and tested. */
int koma__legal_pseudo(koma_engine *e, koma_emove m)
{
    if (koma__over(e)) return 0;
    if (!e->game->check_rule) return 1;
    int in_check, ksq = koma__check_state(e, &in_check);
    if (ksq < 0) return legal_move(e, m, 0);
    int s = e->turn;
    if (m & KOMA__M_DROP) {
        int kind = KOMA__SLOT_KIND(KOMA__M_FROM(m));
        int oksq = e->nroyal[s ^ 1] == 1 ? e->royal_sq[s ^ 1] : -1;
        if (in_check || (e->game->kinds[kind].drop_no_mate &&
                         (oksq < 0 || koma__reaches(e, KOMA__CODE(kind, s), KOMA__M_TO(m), oksq, 0))))
            return legal_move(e, m, 0);
        return 1;
    }
    int from = KOMA__M_FROM(m);
    if (from == ksq) return !attacked_lifted(e, ksq, KOMA__M_TO(m), s);
    if (in_check || koma__pinned_now(e, ksq, from)) return legal_move(e, m, 0);
    return 1;
}

/*
 * Own pieces pinned to the royal on ksq: the first own piece on a line from the
 * royal, when the next piece on that line is an enemy rider that would reach the
 * royal along it. Returns their number (at most cap).
 */
static int find_pins(const koma_engine *e, int ksq, int s, int *pins, int cap)
{
    const uint8_t *b = e->board;
    const koma__probe *pr = e->ride_probe[s ^ 1];
    int n = 0;
    for (int i = 0, np = e->nride_probe[s ^ 1]; i < np; i++) {
        int off = pr[i].off, t = ksq - off, steps = 1;
        while (b[t] == KOMA__EMPTY) {
            t -= off;
            steps++;
        }
        unsigned c = b[t];
        if (c == KOMA__OFF || KOMA__SIDE_OF(c) != s) continue;
        int pinned = t;
        do {
            t -= off;
            steps++;
        } while (b[t] == KOMA__EMPTY);
        c = KOMA__MOVER(b[t]);
        if (!((pr[i].mask >> c) & 1u)) continue;
        if (pr[i].limited) {
            unsigned r = e->ride_range[c][i];
            if (r != 0 && (unsigned)steps > r) continue;
        }
        if (n < cap) pins[n++] = pinned;
        else return -1;                /* too many: callers test every move */
    }
    return n;
}

/*
 * The squares that end a check on the royal at ksq (side s): the checker's square
 * and, for a rider, the squares between it and the royal. Returns the number of
 * squares (in sq[], at most cap), or -1 when two or more pieces give check (then
 * only royal moves can be legal). Movement is leaps and rides (koma__movement):
 * a leap's check ends only by its capture, a ride's also by a piece put between.
 */
static int check_blocks(const koma_engine *e, int ksq, int s, int *sq, int cap)
{
    const uint8_t *b = e->board;
    int n = 0, checker = -1;           /* the square of the one checker found */
    const koma__probe *pr = e->leap_probe[s ^ 1];
    for (int i = 0, np = e->nleap_probe[s ^ 1]; i < np; i++) {
        int t = ksq - pr[i].off;
        if ((pr[i].mask >> KOMA__MOVER(b[t])) & 1u) {
            if (checker >= 0 && checker != t) return -1;
            if (checker != t) sq[n++] = t;
            checker = t;
        }
    }
    pr = e->ride_probe[s ^ 1];
    for (int i = 0, np = e->nride_probe[s ^ 1]; i < np; i++) {
        int off = pr[i].off, t = ksq - off, steps = 1;
        while (b[t] == KOMA__EMPTY) {
            t -= off;
            steps++;
        }
        unsigned c = KOMA__MOVER(b[t]);
        if (!((pr[i].mask >> c) & 1u)) continue;
        if (pr[i].limited) {
            unsigned r = e->ride_range[c][i];
            if (r != 0 && (unsigned)steps > r) continue;
        }
        /* the same piece may be found by several probes (a W leap and a R ride
         * both reach the next square; W6D2 checks along a file by its W ride and
         * its D ride): one checker, whose lines of approach all end the check
         * when cut (a superset: each such move is still tested in full) */
        if (checker >= 0 && checker != t) return -1;
        checker = t;
        if (n + steps > cap) return -2;               /* too long: test every move */
        for (int u = ksq - off; u != t; u -= off) sq[n++] = u;
        sq[n++] = t;
    }
    return n;
}

size_t koma__gen_legal(koma_engine *e, koma_emove *moves)
{
    if (koma__over(e)) return 0;
    size_t n = koma__gen_pseudo(e, moves);
    const koma_game *g = e->game;
    if (!g->check_rule) return n;
    int s = e->turn;
    int ksq = -1;
    if (e->nroyal[s] == 1) {
        ksq = e->royal_sq[s];
        unsigned c = e->board[ksq];
        if (c == KOMA__EMPTY || (c & KOMA__OFF) || KOMA__SIDE_OF(c) != s || !e->royal_code[KOMA__MOVER(c)])
            ksq = -2;                  /* stale: test every move */
    } else if (e->nroyal[s] > 1) {
        ksq = -2;
    }
    int in_check = ksq >= 0 && koma__attacked(e, ksq, s ^ 1);
    int pins[16], npins = 0;
    if (ksq >= 0 && !in_check) npins = find_pins(e, ksq, s, pins, 16);
    /* in check: a move that neither moves the royal nor ends on a square that
     * ends the check cannot be legal; the others are tested in full */
    int blocks[64], nblocks = 0;
    if (in_check) nblocks = check_blocks(e, ksq, s, blocks, 64);
    int evade = in_check && nblocks != -2;
    int slow = ksq == -2 || (in_check && !evade) || npins < 0;
    /* the opponent's royal, for the no-mate drops */
    int oksq = e->nroyal[s ^ 1] == 1 ? e->royal_sq[s ^ 1] : -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        koma_emove m = moves[i];
        int ok;
        if (evade) {
            if (!(m & KOMA__M_DROP) && KOMA__M_FROM(m) == ksq) {
                uint8_t king = e->board[ksq];
                e->board[ksq] = KOMA__EMPTY;
                ok = !koma__attacked(e, KOMA__M_TO(m), s ^ 1);
                e->board[ksq] = king;
            } else {
                ok = nblocks > 0 && in_list(blocks, nblocks, KOMA__M_TO(m)) && legal_move(e, m, 0);
            }
        } else if (m & KOMA__M_DROP) {
            int kind = KOMA__SLOT_KIND(KOMA__M_FROM(m));
            if (g->kinds[kind].drop_no_mate &&
                (oksq < 0 || koma__reaches(e, KOMA__CODE(kind, s), KOMA__M_TO(m), oksq, 0)))
                ok = legal_move(e, m, 0);
            else
                ok = slow ? legal_move(e, m, 0) : 1;
        } else if (slow) {
            ok = legal_move(e, m, 0);
        } else {
            int from = KOMA__M_FROM(m);
            if (from == ksq) {
                uint8_t king = e->board[ksq];
                e->board[ksq] = KOMA__EMPTY;
                ok = !koma__attacked(e, KOMA__M_TO(m), s ^ 1);
                e->board[ksq] = king;
            } else {
                ok = 1;
                for (int j = 0; j < npins; j++)
                    if (pins[j] == from) {
                        ok = legal_move(e, m, 0);
                        break;
                    }
            }
        }
        if (ok) moves[k++] = m;
    }
    return k;
}

/* ---- counting (perft's last ply) ------------------------------------------------ */

/* The number of moves push_board makes of from -> to. */
GEN_INLINE size_t count_board(const koma_engine *e, int s, unsigned p, int from, int to, unsigned c)
{
    if (e->promote_code[KOMA__MOVER(p)] && (e->in_zone[s][from] | e->in_zone[s][to]))
        return 1u + (e->last_dist[s][to] >= e->must_rank[KOMA__MOVER(p)]);
    return 1u + (c != KOMA__EMPTY && e->privilege_code[KOMA__MOVER(p)] &&
                 e->promoted_code[KOMA__MOVER(c)]);
}

/* The number of moves gen_piece makes (no overlapping vectors). */
GEN_INLINE size_t count_piece(const koma_engine *e, int s, unsigned p, int from)
{
    const uint8_t *b = e->board;
    const koma__movement *mv = &e->mv[KOMA__MOVER(p)];
    size_t n = 0;
    for (int i = 0; i < mv->nleap; i++) {
        int to = from + mv->leap[i];
        unsigned c = b[to];
        if (own_or_off(c, s)) continue;
        n += count_board(e, s, p, from, to, c);
    }
    for (int i = 0; i < mv->nride; i++) {
        int off = mv->ride[i].off, to = from + off;
        unsigned range = mv->ride[i].range, k = 1;
        for (;;) {
            unsigned c = b[to];
            if (c == KOMA__EMPTY) {
                n += count_board(e, s, p, from, to, c);
                if (range && k >= range) break;
                to += off;
                k++;
                continue;
            }
            if (!own_or_off(c, s)) n += count_board(e, s, p, from, to, c);
            break;
        }
    }
    return n;
}

/*
 * koma__attacked(e, ksq, s ^ 1) and find_pins(e, ksq, s, pins, cap) in one walk
 * of the rays from the royal: -1 when the royal is attacked (or more than cap
 * pieces are pinned: callers then test every move), else the number of pins.
 */
static int royal_scan(const koma_engine *e, int ksq, int s, int *pins, int cap)
{
    const uint8_t *b = e->board;
    const koma__probe *pr = e->leap_probe[s ^ 1];
    for (int i = 0, n = e->nleap_probe[s ^ 1]; i < n; i++)
        if ((pr[i].mask >> KOMA__MOVER(b[ksq - pr[i].off])) & 1u) return -1;
    pr = e->ride_probe[s ^ 1];
    int n = 0;
    for (int i = 0, np = e->nride_probe[s ^ 1]; i < np; i++) {
        int off = pr[i].off, t = ksq - off, steps = 1;
        while (b[t] == KOMA__EMPTY) {
            t -= off;
            steps++;
        }
        unsigned c = b[t];
        if ((pr[i].mask >> KOMA__MOVER(c)) & 1u) {
            /* the first piece on the ray rides to the royal: check (as koma__attacked) */
            if (!pr[i].limited) return -1;
            unsigned r = e->ride_range[KOMA__MOVER(c)][i];
            if (r == 0 || (unsigned)steps <= r) return -1;
            continue;
        }
        if (c == KOMA__OFF || KOMA__SIDE_OF(c) != s) continue;
        /* an own piece: pinned when the next piece rides to the royal (as find_pins) */
        int pinned = t;
        do {
            t -= off;
            steps++;
        } while (b[t] == KOMA__EMPTY);
        c = KOMA__MOVER(b[t]);
        if (!((pr[i].mask >> c) & 1u)) continue;
        if (pr[i].limited) {
            unsigned r = e->ride_range[c][i];
            if (r != 0 && (unsigned)steps > r) continue;
        }
        if (n == cap) return -1;
        pins[n++] = pinned;
    }
    return n;
}

/* The number of moves koma__gen_pseudo makes. */
static size_t count_pseudo(const koma_engine *e, koma_emove *buf)
{
    const uint8_t *b = e->board;
    int s = e->turn;
    size_t total = 0;
    int16_t own[KOMA__MAX_BOARD];
    for (int j = 0, n = own_squares(e, s, own); j < n; j++) {
        int from = own[j];
        unsigned p = b[from];
        if (e->overlap[KOMA__MOVER(p)]) total += (size_t)(gen_piece(e, s, p, from, buf) - buf);
        else total += count_piece(e, s, p, from);
    }
    return total + (size_t)(gen_drops(e, s, buf) - buf);
}


/* ---- counting with bitboards (boards of at most 128 squares) ----------------------- */

#if KOMA__HAVE_BB
#define RAY(e, d, sq) ((e)->ray_bb[(size_t)(d) * (size_t)(e)->nsquares + (size_t)(sq)])
#define BB_AT(e, tab, code, sq) ((e)->tab[(size_t)(code) * (size_t)(e)->nsquares + (size_t)(sq)])
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_POPCNT_CLONE 1
#endif

/* The number of moves of a piece whose rides the tables do not hold (a limited
 * range): counted, or generated and tested when `test` (in check, pinned). */
static size_t count_piece_slow(koma_engine *e, int s, unsigned p, int from, int test, koma_emove *buf)
{
    if (!test && !e->overlap[KOMA__MOVER(p)]) return count_piece(e, s, p, from);
    size_t n = (size_t)(gen_piece(e, s, p, from, buf) - buf);
    if (!test) return n;
    size_t ok = 0;
    for (size_t i = 0; i < n; i++) ok += (size_t)legal_move(e, buf[i], 0);
    return ok;
}

/* koma__make and koma__unmake of a move that captures nothing, for perft's
 * last-but-one ply (count_children_bb) only: the board, the hands, the bitboards,
 * the royal's square and the nifu counts as they keep them, the hashes left as
 * they were (nothing below that ply reads them, and quiet_unmake leaves them
 * as quiet_make found them). */
GEN_INLINE void quiet_make(koma_engine *e, koma_emove m)
{
    int s = e->turn, to = KOMA__M_TO(m);
    const koma__kind *kinds = e->game->kinds;
    e->royal_known = 0;
    e->quick = 0;
    if (m & KOMA__M_DROP) {
        int slot = KOMA__M_FROM(m), k = KOMA__SLOT_KIND(slot);
        uint8_t c = (uint8_t)(KOMA__CODE(k, s) | ((slot & KOMA__SLOT_DERIVED) ? KOMA__DERIVED : 0));
        if (--e->hand[s][slot] == 0) e->held[s] &= ~(1ull << slot);
        e->board[to] = c;
        e->occ[s] |= e->bit[to];
        koma__set_flip(e, c, e->bit[to]);
        if (kinds[k].nifu) (*koma__nifu_at(e, s, k, to))++;
    } else {
        int from = KOMA__M_FROM(m);
        uint8_t p = e->board[from], np = p;
        if (m & KOMA__M_PROMOTE) np = (uint8_t)(e->promote_code[KOMA__MOVER(p)] | (p & KOMA__DERIVED));
        e->board[from] = KOMA__EMPTY;
        e->board[to] = np;
        koma__bb bf = e->bit[from], bt = e->bit[to];
        e->occ[s] ^= bf | bt;
        koma__set_flip(e, p, bf);
        koma__set_flip(e, np, bt);
        if (e->royal_code[KOMA__MOVER(p)]) e->royal_sq[s] = to;
        if (kinds[KOMA__KIND(p)].nifu) {
            (*koma__nifu_at(e, s, KOMA__KIND(p), from))--;
            if (kinds[KOMA__KIND(np)].nifu) (*koma__nifu_at(e, s, KOMA__KIND(np), to))++;
        }
    }
    e->turn ^= 1;
}

GEN_INLINE void quiet_unmake(koma_engine *e, koma_emove m, uint8_t moved)
{
    int s = (e->turn ^= 1), to = KOMA__M_TO(m);
    const koma__kind *kinds = e->game->kinds;
    e->royal_known = 0;
    e->quick = 0;
    uint8_t c = e->board[to];
    e->board[to] = KOMA__EMPTY;
    e->occ[s] ^= e->bit[to];
    koma__set_flip(e, c, e->bit[to]);
    if (m & KOMA__M_DROP) {
        int slot = KOMA__M_FROM(m), k = KOMA__SLOT_KIND(slot);
        e->hand[s][slot]++;
        e->held[s] |= 1ull << slot;
        if (kinds[k].nifu) (*koma__nifu_at(e, s, k, to))--;
    } else {
        int from = KOMA__M_FROM(m);
        e->board[from] = moved;
        e->occ[s] |= e->bit[from];
        koma__set_flip(e, moved, e->bit[from]);
        if (e->royal_code[KOMA__MOVER(moved)]) e->royal_sq[s] = from;
        if (kinds[KOMA__KIND(moved)].nifu) {
            if (kinds[KOMA__KIND(c)].nifu) (*koma__nifu_at(e, s, KOMA__KIND(c), to))--;
            (*koma__nifu_at(e, s, KOMA__KIND(moved), from))++;
        }
    }
}

#define BB uint64_t
#define BB_BITS 64
#define BBF(name) name##_64
#include "engine_movegen_bb.inc"
#undef BB
#undef BB_BITS
#undef BBF
#define BB koma__bb
#define BB_BITS 128
#define BBF(name) name##_128
#include "engine_movegen_bb.inc"
#undef BB
#undef BB_BITS
#undef BBF
#endif

/*
 * The number of legal moves, as koma__gen_legal(e, buf) returns, without the
 * list. On boards of at most 128 squares: count_check_bb / count_pseudo_bb
 * (every case, on bitboards). Otherwise, on the mailbox, where it can: when the side to move is not in check, the moves of a
 * piece that is neither the royal nor pinned are all legal and only counted,
 * and so are the drops that cannot be a no-mate drop giving check. The royal,
 * pinned pieces, those drops and every other case are generated and tested as
 * koma__gen_legal does. buf has room for e->max_moves moves.
 */
size_t koma__count_legal(koma_engine *e, koma_emove *buf)
{
    if (koma__over(e)) return 0;
    const koma_game *g = e->game;
    int s = e->turn;
    if (!g->check_rule) {
#if KOMA__HAVE_BB
        if (e->use_bb) {
#ifdef HAVE_POPCNT_CLONE
            if (e->popcnt)
                return e->nsquares <= 64 ? count_pseudo_popcnt_64(e, buf) : count_pseudo_popcnt_128(e, buf);
#endif
            return e->nsquares <= 64 ? count_pseudo_plain_64(e, buf) : count_pseudo_plain_128(e, buf);
        }
#endif
        return count_pseudo(e, buf);
    }
    if (e->nroyal[s] != 1) return koma__gen_legal(e, buf);
    int ksq = e->royal_sq[s];
    unsigned kc = e->board[ksq];
    if (kc == KOMA__EMPTY || (kc & KOMA__OFF) || KOMA__SIDE_OF(kc) != s || !e->royal_code[KOMA__MOVER(kc)])
        return koma__gen_legal(e, buf);
#if KOMA__HAVE_BB
    if (e->use_bb) {
#ifdef HAVE_POPCNT_CLONE
        if (e->popcnt)
            return e->nsquares <= 64 ? count_check_popcnt_64(e, ksq, buf) : count_check_popcnt_128(e, ksq, buf);
#endif
        return e->nsquares <= 64 ? count_check_plain_64(e, ksq, buf) : count_check_plain_128(e, ksq, buf);
    }
#endif
    int pins[16];
    int npins = royal_scan(e, ksq, s, pins, 16);
    if (npins < 0) return koma__gen_legal(e, buf);      /* in check, or many pins */

    const uint8_t *b = e->board;
    size_t total = 0;
    int16_t own[KOMA__MAX_BOARD];
    for (int j = 0, nown = own_squares(e, s, own); j < nown; j++) {
        int from = own[j];
        unsigned p = b[from];
        int tested = from == ksq || e->overlap[KOMA__MOVER(p)];
        for (int q = 0; q < npins && !tested; q++) tested = pins[q] == from;
        if (!tested) {
            total += count_piece(e, s, p, from);
            continue;
        }
        size_t n = (size_t)(gen_piece(e, s, p, from, buf) - buf);
        for (size_t i = 0; i < n; i++) {
            koma_emove m = buf[i];
            int ok;
            if (from == ksq) {
                e->board[ksq] = KOMA__EMPTY;
                ok = !koma__attacked(e, KOMA__M_TO(m), s ^ 1);
                e->board[ksq] = (uint8_t)kc;
            } else {
                int pinned = 0;
                for (int q = 0; q < npins; q++) pinned |= pins[q] == from;
                ok = pinned ? legal_move(e, m, 0) : 1;
            }
            total += (size_t)ok;
        }
    }

    /* drops (as gen_drops), testing only the no-mate drops that would give check */
    int slots[KOMA__SLOTS];
    int nslots = held_drop_slots(e, s, slots);
    if (nslots == 0) return total;
    int oksq = e->nroyal[s ^ 1] == 1 ? e->royal_sq[s ^ 1] : -1;
    for (int sq = 0; sq < e->nsquares; sq++) {
        int to = e->sq_index[sq];
        if (b[to] != KOMA__EMPTY) continue;
        unsigned dist = e->last_dist[s][to];
        for (int i = 0; i < nslots; i++) {
            int slot = slots[i], k = KOMA__SLOT_KIND(slot);
            const koma__kind *kd = &g->kinds[k];
            if (dist < kd->drop_forbidden_ranks) continue;
            if (kd->nifu &&
                e->nifu[((size_t)s * g->nkinds + (size_t)k) * (size_t)e->files + e->file_of[to]])
                continue;
            if (kd->drop_no_mate && (oksq < 0 || koma__reaches(e, KOMA__CODE(k, s), to, oksq, 0)))
                total += (size_t)legal_move(e, KOMA__M_DROP | KOMA__MOVE(slot, to), 0);
            else
                total++;
        }
    }
    return total;
}

/* perft's last two plies (engine_perft.c): the sum of koma__count_legal after each
 * of the legal moves[0 .. n) of the side to move; buf as koma__count_legal's. */
uint64_t koma__count_children(koma_engine *e, const koma_emove *moves, size_t n, koma_emove *buf)
{
#if KOMA__HAVE_BB
    if (e->use_bb && e->bb_side[0] && e->bb_side[1]) {
#ifdef HAVE_POPCNT_CLONE
        if (e->popcnt)
            return e->nsquares <= 64 ? count_children_popcnt_64(e, moves, n, buf)
                                     : count_children_popcnt_128(e, moves, n, buf);
#endif
        return e->nsquares <= 64 ? count_children_plain_64(e, moves, n, buf)
                                 : count_children_plain_128(e, moves, n, buf);
    }
#endif
    uint64_t total = 0;
    koma__undo u;
    for (size_t i = 0; i < n; i++) {
        koma__make(e, moves[i], &u);
        if (!koma__finished(e)) total += koma__count_legal(e, buf);
        koma__unmake(e, &u);
    }
    return total;
}
