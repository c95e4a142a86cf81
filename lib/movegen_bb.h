/*
 * lib/movegen_bb.h — perft's last ply counted on bitboards (included by
 * movegen.c only, once for each width): BB is the bitboard type, BB_BITS its
 * width (64 for boards of at most 64 squares, 128 up to 128), BBF(name) the
 * name of this width's copy of a function. The tables and the state are
 * 128-bit (koma__bb); a 64-bit copy reads their low halves.
 */
#define attacked_bb BBF(attacked_bb)
#define attacks_bb BBF(attacks_bb)
#define bb_first BBF(bb_first)
#define board_bb BBF(board_bb)
#define count_check_bb BBF(count_check_bb)
#define count_children_bb BBF(count_children_bb)
#define count_drops_bb BBF(count_drops_bb)
#define count_one_bb BBF(count_one_bb)
#define count_pieces_bb BBF(count_pieces_bb)
#define count_pseudo_bb BBF(count_pseudo_bb)
#define count_to BBF(count_to)
#define moves_bb BBF(moves_bb)
#define nifu_files BBF(nifu_files)
#define probe_rides BBF(probe_rides)
#define ride_bb BBF(ride_bb)
#define rides_bb BBF(rides_bb)
#define bb_lsb BBF(bb_lsb)
#define bb_msb BBF(bb_msb)
#define bb_count BBF(bb_count)

#if BB_BITS == 128
static inline int bb_lsb(BB x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int bb_msb(BB x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

static inline int bb_count(BB x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
#else
static inline int bb_lsb(BB x) { return __builtin_ctzll(x); }
static inline int bb_msb(BB x) { return 63 - __builtin_clzll(x); }
static inline int bb_count(BB x) { return __builtin_popcountll(x); }
#endif

/* The first occupied square of blk (non-empty, on the ray of direction d). */
static inline int bb_first(const koma_engine *e, int d, BB blk)
{
    return e->dir_off[d] > 0 ? bb_lsb(blk) : bb_msb(blk);
}

/* The squares a ride of direction d from square sq reaches, the first occupied one included. */
static inline BB ride_bb(const koma_engine *e, int d, int sq, BB occ)
{
    BB r = (BB)RAY(e, d, sq), blk = r & occ;
#if BB_BITS == 64
    /* towards higher bits: every bit up to the lowest blocker (all when there
     * is none); towards lower bits: every bit from the highest (bit 0 on) */
    if (e->dir_off[d] > 0) return r & (blk ^ (blk - 1));
    return r & (~(BB)0 << bb_msb(blk | 1));
#else
    if (blk) r &= ~(BB)RAY(e, d, bb_first(e, d, blk));
    return r;
#endif
}

static inline BB rides_bb(const koma_engine *e, unsigned code, int sq, BB occ)
{
    BB m = 0;
    for (int i = 0, n = e->mv[code].nride; i < n; i++) m |= ride_bb(e, e->ride_dir[code][i], sq, occ);
    return m;
}

/* The destinations of mover code (e->bb_rides[code]) from square sq, own pieces included. */
static inline BB moves_bb(const koma_engine *e, unsigned code, int sq, BB occ)
{
    BB m = BB_AT(e, sq_bb, code, sq).step;
    if (e->mv[code].nride) m |= rides_bb(e, code, sq, occ);
    return m;
}

/* The moves push_board makes to the squares of `to` from square sq (promotion choices). */
static inline size_t count_to(const koma_engine *e, unsigned code, int sq, BB to)
{
    return (size_t)bb_count(to) + (size_t)bb_count(to & BB_AT(e, sq_bb, code, sq).two);
}

/* 1 when the mover code c riding along probe i (of pr) reaches over the squares
 * `upto` (from the target to c's square): its range allows that many steps. */
static inline int probe_rides(const koma_engine *e, const koma__probe *pr, int i, unsigned c,
                              BB upto)
{
    if (!((pr[i].mask >> c) & 1u)) return 0;
    if (!pr[i].limited) return 1;
    unsigned r = e->ride_range[c][i];
    return r == 0 || (unsigned)bb_count(upto) <= r;
}

/* koma__attacked(e, t, by) with the occupied squares occ (the rides' blockers;
 * the leaps read the mailbox, where a lifted royal is never the attacker) and
 * riders, the squares of `by`'s pieces that ride: a ray with none is skipped. */
static inline int attacked_bb(const koma_engine *e, int t, int tb, int by, BB occ, BB riders)
{
    const uint8_t *b = e->board;
    const koma__probe *pr = e->leap_probe[by];
    for (int i = 0, n = e->nleap_probe[by]; i < n; i++)
        if ((pr[i].mask >> KOMA__MOVER(b[t - pr[i].off])) & 1u) return 1;
    pr = e->ride_probe[by];
    for (int i = 0, n = e->nride_probe[by]; i < n; i++) {
        int d = e->probe_dir[by][i];
        BB r = RAY(e, d, tb);
        if (!(r & riders)) continue;
        BB blk = r & occ;
        int a = bb_first(e, d, blk);
        if (probe_rides(e, pr, i, KOMA__MOVER(b[e->sq_index[a]]), r & ~RAY(e, d, a))) return 1;
    }
    return 0;
}

/* The files holding an unpromoted piece of kind k of side s (nifu). */
static inline BB nifu_files(const koma_engine *e, int s, int k)
{
    const uint8_t *nf = &e->nifu[((size_t)s * e->game->nkinds + (size_t)k) * (size_t)e->files];
    BB m = 0;
    for (int f = 0; f < e->files; f++)
        if (nf[f]) m |= e->file_bb[f];
    return m;
}

static inline BB board_bb(const koma_engine *e)
{
    return e->nsquares == BB_BITS ? ~(BB)0 : (((BB)1 << e->nsquares) - 1);
}

/* The drops of side s on the squares of `empty`, with the no-mate test of the
 * drops that give check (against the opponent's one royal). */
GEN_INLINE size_t count_drops_bb(koma_engine *e, int s, BB empty, BB occ)
{
    const koma_game *g = e->game;
    size_t total = 0;
    int oksq = e->nroyal[s ^ 1] == 1 ? e->royal_sq[s ^ 1] : -1;
    for (uint64_t held = e->held[s] & e->drop_mask; held; held &= held - 1) {
        int slot = __builtin_ctzll(held);
        int k = KOMA__SLOT_KIND(slot);
        const koma__kind *kd = &g->kinds[k];
        BB to = empty & e->drop_bb[s][k];
        if (kd->nifu) to &= ~nifu_files(e, s, k);
        total += (size_t)bb_count(to);
        if (!kd->drop_no_mate || oksq < 0) continue;
        /* the squares from which the dropped piece attacks the royal: where the
         * opponent's piece of the kind (the reversed vectors) reaches from it */
        unsigned rc = KOMA__CODE(k, s ^ 1);
        BB gives = e->bb_rides[rc] ? to & moves_bb(e, rc, e->index_sq[oksq], occ) : to;
        for (; gives; gives &= gives - 1) {
            int t = e->sq_index[bb_lsb(gives)];
            if (!e->bb_rides[rc] && !koma__reaches(e, KOMA__CODE(k, s), t, oksq, 0)) continue;
            total -= (size_t)!legal_move(e, KOMA__M_DROP | KOMA__MOVE(slot, t), 0);
        }
    }
    return total;
}

/* The moves of side s's pieces other than its royals, pinned pieces and
 * `skip`, to the squares of target: leapers a class at a time, the others
 * piece by piece (test: in check, every move of a piece without the tables
 * is tested in full). */
GEN_INLINE size_t count_one_bb(koma_engine *e, int s, int f, BB target, BB occ,
                               int test, koma_emove *buf)
{
    const uint8_t *b = e->board;
    int from = e->sq_index[f];
    unsigned p = b[from], code = KOMA__MOVER(p);
    if (!e->bb_rides[code]) return count_piece_slow(e, s, p, from, test, buf);
    const koma__bbsq *t = &BB_AT(e, sq_bb, code, f);
    BB to = t->step;
    if (e->mv[code].nride) to |= rides_bb(e, code, f, occ);
    to &= target;
    size_t n = (size_t)bb_count(to) + (size_t)bb_count(to & t->two);
    if (e->privilege_code[code])             /* the King's privilege: two captures */
        for (BB cap = to & e->occ[s ^ 1]; cap; cap &= cap - 1)
            n += (size_t)(e->promoted_code[KOMA__MOVER(b[e->sq_index[bb_lsb(cap)]])] != 0);
    return n;
}

/* The moves of side s's pieces other than its royals and those of `skip`, to
 * the squares of target: a leaper class with more pieces than leaps a class
 * at a time (its bitboard shifted by each leap), the others piece by piece
 * (test: in check, every move of a piece without the tables is tested in
 * full). */
GEN_INLINE size_t count_pieces_bb(koma_engine *e, int s, BB skip, BB target, BB occ,
                                  int test, koma_emove *buf)
{
    size_t total = 0;
    BB each = e->set_bb[KOMA__SET_PIECES(s)];
    for (int j = 0; j < e->nlclass[s]; j++) {
        const koma__bbclass *cl = &e->lclass[s][j];
        BB pcs = e->set_bb[KOMA__SET_CLASS(s, j)];
        if (!pcs) continue;
        if (bb_count(pcs) <= cl->nstep) {
            each |= pcs;
            continue;
        }
        pcs &= ~skip;
        for (int i = 0; i < cl->nstep; i++) {
            const koma__bbstep *st = &e->lstep[cl->step + i];
            BB to = (st->shift >= 0 ? pcs << st->shift : pcs >> -st->shift) & st->valid & target;
            total += (size_t)bb_count(to) + (size_t)bb_count(to & st->two);
        }
    }
    each &= ~skip;
    for (uint64_t w = (uint64_t)each; w; w &= w - 1)
        total += count_one_bb(e, s, __builtin_ctzll(w), target, occ, test, buf);
#if BB_BITS == 128
    for (uint64_t w = (uint64_t)(each >> 64); w; w &= w - 1)
        total += count_one_bb(e, s, 64 + __builtin_ctzll(w), target, occ, test, buf);
#endif
    return total;
}

/* The squares of `zone` side o attacks (every piece's destinations, own pieces
 * included) with the occupied squares occ; every code of side o has the
 * tables (bb_side). A piece that reaches no square of the zone on an empty
 * board is skipped; *sees is set when a piece that rides reaches `royal` so. */
GEN_INLINE BB attacks_bb(const koma_engine *e, int o, BB occ, BB zone, BB royal,
                               int *sees)
{
    const uint8_t *b = e->board;
    BB a = 0;
    for (int j = 0; j < e->nlclass[o]; j++) {
        const koma__bbclass *cl = &e->lclass[o][j];
        BB pcs = e->set_bb[KOMA__SET_CLASS(o, j)];
        if (!pcs) continue;
        if (bb_count(pcs) > cl->nstep) {
            for (int i = 0; i < cl->nstep; i++) {
                const koma__bbstep *st = &e->lstep[cl->step + i];
                a |= (st->shift >= 0 ? pcs << st->shift : pcs >> -st->shift) & st->valid;
            }
            continue;
        }
        unsigned code = (unsigned)__builtin_ctzll(cl->codes);   /* all move alike */
        for (; pcs; pcs &= pcs - 1) a |= BB_AT(e, sq_bb, code, bb_lsb(pcs)).step;
    }
    int see = 0;
    for (BB pcs = e->set_bb[KOMA__SET_PIECES(o)] | e->set_bb[KOMA__SET_ROYAL(o)]; pcs; pcs &= pcs - 1) {
        int f = bb_lsb(pcs);
        unsigned code = KOMA__MOVER(b[e->sq_index[f]]);
        BB full = BB_AT(e, full_bb, code, f), step = BB_AT(e, sq_bb, code, f).step;
        if (full & royal & ~step) see = 1;
        if (!(full & zone)) continue;
        a |= step;
        if (e->mv[code].nride) a |= rides_bb(e, code, f, occ);
    }
    *sees = see;
    return a & zone;
}

/*
 * koma__count_legal of a check-rule position whose side to move has one royal,
 * on ksq: the checkers and the pins from the royal's rays, then the pieces'
 * destinations as bitboards (count_pieces_bb), narrowed in check to the
 * squares that end it and for a pinned piece to its line, counted with their
 * promotion choices; the royal's destinations tested one by one (the royal
 * lifted), the drops counted by square sets and only the no-mate drops that
 * give check tested in full.
 */
GEN_INLINE size_t count_check_bb(koma_engine *e, int ksq, koma_emove *buf, const size_t *pre)
{
    const uint8_t *b = e->board;
    int s = e->turn, kb = e->index_sq[ksq];
    BB own = e->occ[s], occ = own | e->occ[s ^ 1], kbit = e->bit[ksq];
    BB riders = e->set_bb[KOMA__SET_RIDERS(s ^ 1)];

    /* the squares the opponent attacks, the royal lifted (when its codes all
     * have the tables) */
    unsigned kc = KOMA__MOVER(b[ksq]);
    int amap = e->bb_side[s ^ 1] && e->bb_rides[kc], sees = 1;
    BB kdest = amap ? moves_bb(e, kc, kb, occ) & ~own : 0;
    BB attacked = amap ? attacks_bb(e, s ^ 1, occ & ~kbit, kdest | kbit, kbit, &sees) : 0;

    /* checkers, the squares that end a check, pins and their lines */
    BB checkers = 0, block = 0, pinned = 0;
    int pinsq[KOMA_BETZA_MAX_VECTORS * 2], npins = 0;
    BB pinline[KOMA_BETZA_MAX_VECTORS * 2];
    const koma__probe *pr = e->leap_probe[s ^ 1];
    if (!amap || (attacked & kbit))
        for (int i = 0, n = e->nleap_probe[s ^ 1]; i < n; i++) {
            int t = ksq - pr[i].off;
            if ((pr[i].mask >> KOMA__MOVER(b[t])) & 1u) checkers |= e->bit[t];
        }
    /* a check ends on the squares that stop every attack of the checker: only
     * its capture when it also leaps there ("RD" two squares away) */
    BB between = checkers ? 0 : ~(BB)0;
    pr = e->ride_probe[s ^ 1];
    for (int i = 0, n = sees ? e->nride_probe[s ^ 1] : 0; i < n; i++) {
        int d = e->probe_dir[s ^ 1][i];
        BB r = RAY(e, d, kb);
        if (!(r & riders)) continue;
        BB blk = r & occ;
        int a = bb_first(e, d, blk);
        unsigned c = b[e->sq_index[a]];
        if (KOMA__SIDE_OF(c) != s) {
            BB upto = r & ~RAY(e, d, a);
            if (probe_rides(e, pr, i, KOMA__MOVER(c), upto)) {
                checkers |= (BB)1 << a;
                between &= upto & ~((BB)1 << a);
            }
            continue;
        }
        blk &= RAY(e, d, a);
        if (!blk) continue;
        int a2 = bb_first(e, d, blk);
        unsigned c2 = b[e->sq_index[a2]];
        BB upto = r & ~RAY(e, d, a2);
        if (KOMA__SIDE_OF(c2) != s && probe_rides(e, pr, i, KOMA__MOVER(c2), upto)) {
            pinned |= (BB)1 << a;
            pinsq[npins] = a;
            pinline[npins++] = upto;
        }
    }

    /* the royal */
    size_t total = 0;
    if (amap) {
        BB to = kdest & ~attacked;
        total += count_to(e, kc, kb, to);
        if (e->privilege_code[kc])              /* the King's privilege: two captures */
            for (BB cap = to & e->occ[s ^ 1]; cap; cap &= cap - 1)
                total += (size_t)(e->promoted_code[KOMA__MOVER(b[e->sq_index[bb_lsb(cap)]])] != 0);
    } else if (e->bb_rides[kc]) {
        BB occ_k = occ & ~kbit;
        for (BB to = moves_bb(e, kc, kb, occ) & ~own; to; to &= to - 1) {
            int tb = bb_lsb(to), t = e->sq_index[tb];
            if (attacked_bb(e, t, tb, s ^ 1, occ_k, riders)) continue;
            unsigned c = b[t];
            total += 1u + (size_t)((BB_AT(e, sq_bb, kc, kb).two >> tb) & 1u) +
                     (size_t)(c != KOMA__EMPTY && e->privilege_code[kc] && e->promoted_code[KOMA__MOVER(c)]);
        }
    } else {
        size_t n = (size_t)(gen_piece(e, s, b[ksq], ksq, buf) - buf);
        uint8_t king = e->board[ksq];
        e->board[ksq] = KOMA__EMPTY;
        for (size_t i = 0; i < n; i++) total += (size_t)!koma__attacked(e, KOMA__M_TO(buf[i]), s ^ 1);
        e->board[ksq] = king;
    }
    if (checkers & (checkers - 1)) return total;       /* double check: the royal moves */
    block = checkers | (checkers ? between : 0);

    /* the other pieces; the pinned ones along their lines (pre: their count
     * without pins, when not in check) */
    BB target = checkers ? block & ~own : ~own;
    if (pre && !checkers) {
        total += *pre;
        for (int q = 0; q < npins; q++)
            total += count_one_bb(e, s, pinsq[q], target & pinline[q], occ, 1, buf) -
                     count_one_bb(e, s, pinsq[q], target, occ, 1, buf);
    } else {
        total += count_pieces_bb(e, s, pinned, target, occ, checkers != 0, buf);
        for (int q = 0; q < npins; q++)
            total += count_one_bb(e, s, pinsq[q], target & pinline[q], occ, 1, buf);
    }

    /* drops: any empty square, in check only between the royal and its checker */
    BB empty = ~occ & board_bb(e);
    if (checkers) empty &= block & ~checkers;
    if (empty) total += count_drops_bb(e, s, empty, occ);
    return total;
}

/* count_pseudo with the tables: every move of every piece, and every drop. */
GEN_INLINE size_t count_pseudo_bb(koma_engine *e, koma_emove *buf, const size_t *pre)
{
    int s = e->turn;
    BB own = e->occ[s], occ = own | e->occ[s ^ 1];
    size_t total = pre ? *pre : count_pieces_bb(e, s, 0, ~own, occ, 0, buf);
    /* the royals (any number: no check rule) */
    for (BB pcs = e->set_bb[KOMA__SET_ROYAL(s)]; pcs; pcs &= pcs - 1)
        total += count_one_bb(e, s, bb_lsb(pcs), ~own, occ, 0, buf);
    BB empty = ~occ & board_bb(e);
    for (uint64_t held = empty ? e->held[s] & e->drop_mask : 0; held; held &= held - 1) {
        int slot = __builtin_ctzll(held);
        int k = KOMA__SLOT_KIND(slot);
        BB to = empty & e->drop_bb[s][k];
        if (e->game->kinds[k].nifu) to &= ~nifu_files(e, s, k);
        total += (size_t)bb_count(to);
    }
    return total;
}

/*
 * perft's last two plies: the number of moves of the side not to move after
 * each of the moves[0 .. n) of the side to move (legal, and as
 * koma__count_legal counts them). Every table holds the game (bb_side). Each
 * of its non-royal pieces is counted once here, on this position; a move that
 * captures nothing changes no piece's count but those of the riders whose
 * rays it crosses (the squares it leaves and takes stay theirs to reach), so
 * after it only those are counted again, beside the royal, the pins, the
 * checks and the drops. A capture is counted in full.
 */
GEN_INLINE uint64_t count_children_bb(koma_engine *e, const koma_emove *moves, size_t n, koma_emove *buf)
{
    const uint8_t *b = e->board;
    int s = e->turn ^ 1;
    BB own = e->occ[s], occ = own | e->occ[s ^ 1];
    BB pieces = own & ~e->set_bb[KOMA__SET_ROYAL(s)];
    uint16_t cnt[BB_BITS];
    size_t base = 0;
    for (BB p = pieces; p; p &= p - 1) {
        int f = bb_lsb(p);
        size_t c = count_one_bb(e, s, f, ~own, occ, 0, buf);
        cnt[f] = (uint16_t)c;
        base += c;
    }
    BB riders = pieces & e->set_bb[KOMA__SET_RIDERS(s)];
    int check = e->game->check_rule;
    uint64_t total = 0;
    koma__undo u;
    for (size_t i = 0; i < n; i++) {
        koma_emove m = moves[i];
        int to = KOMA__M_TO(m);
        if (!(m & KOMA__M_DROP) && b[to] != KOMA__EMPTY) {
            koma__make(e, m, &u);
            if (!koma__finished(e)) total += koma__count_legal(e, buf);
            koma__unmake(e, &u);
            continue;
        }
        BB changed = e->bit[to] | ((m & KOMA__M_DROP) ? 0 : e->bit[KOMA__M_FROM(m)]);
        koma__make(e, m, &u);
        if (koma__finished(e)) {
            koma__unmake(e, &u);
            continue;
        }
        BB nocc = e->occ[0] | e->occ[1];
        size_t sum = base;
        for (BB p = riders; p; p &= p - 1) {
            int f = bb_lsb(p);
            if (BB_AT(e, full_bb, KOMA__MOVER(b[e->sq_index[f]]), f) & changed)
                sum += count_one_bb(e, s, f, ~own, nocc, 0, buf) - cnt[f];
        }
        if (!check) {
            total += count_pseudo_bb(e, buf, &sum);
        } else {
            int ksq = e->nroyal[s] == 1 ? e->royal_sq[s] : -1;
            unsigned kc = ksq >= 0 ? e->board[ksq] : KOMA__EMPTY;
            if (kc == KOMA__EMPTY || (kc & KOMA__OFF) || KOMA__SIDE_OF(kc) != s || !e->royal_code[KOMA__MOVER(kc)])
                total += koma__count_legal(e, buf);
            else
                total += count_check_bb(e, ksq, buf, &sum);
        }
        koma__unmake(e, &u);
    }
    return total;
}

/* royal_scan (movegen.c) on the bitboards: the royal of side s on ksq
 * attacked (-1), or its pinned pieces (their number; -1 also when more than
 * cap). A ray with no rider of the opponent on it is not walked. */
/* 1 when a piece of side o leaps to the square of bit tb: only the pieces on
 * the squares it may be leapt to from are looked at, each by its offset
 * (small tables: the leap tables per square miss the cache). */
static inline int BBF(leapt_to)(const koma_engine *e, int tb, int o)
{
    const uint8_t *b = e->board;
    BB near = (BB)e->occ[o] & (BB)e->leap_from[(size_t)o * (size_t)e->nsquares + (size_t)tb];
    if (!near) return 0;
    int t = e->sq_index[tb];
    const uint64_t *by = e->leap_by + (size_t)o * (size_t)(2 * e->leap_span + 1) + e->leap_span;
    for (; near; near &= near - 1) {
        int f = e->sq_index[bb_lsb(near)];
        if ((by[t - f] >> KOMA__MOVER(b[f])) & 1u) return 1;
    }
    return 0;
}

static int BBF(royal_scan_bb)(const koma_engine *e, int ksq, int s, int *pins, int cap)
{
    const uint8_t *b = e->board;
    int kb = e->index_sq[ksq], n = 0;
    const koma__probe *pr;
    if (e->dir_to) {
        if (BBF(leapt_to)(e, kb, s ^ 1)) return -1;
    } else {
        pr = e->leap_probe[s ^ 1];
        for (int i = 0, np = e->nleap_probe[s ^ 1]; i < np; i++)
            if ((pr[i].mask >> KOMA__MOVER(b[ksq - pr[i].off])) & 1u) return -1;
    }
    BB occ = (BB)(e->occ[0] | e->occ[1]), riders = (BB)e->set_bb[KOMA__SET_RIDERS(s ^ 1)];
    pr = e->ride_probe[s ^ 1];
    if (e->dir_to) {
        /* from the attackers: only the riders on a line from the royal, each
         * with the squares between (one direction reaches each square) */
        const uint8_t *dt = e->dir_to + (size_t)kb * (size_t)e->nsquares;
        for (BB on = riders & (BB)e->probe_lines[(size_t)(s ^ 1) * (size_t)e->nsquares + (size_t)kb]; on;
             on &= on - 1) {
            int f = bb_lsb(on), d = dt[f], i = e->probe_of[s ^ 1][d];
            BB upto = RAY(e, d, kb) & ~RAY(e, d, f);
            BB blk = upto & occ & ~((BB)1 << f);      /* the pieces between */
            unsigned c = KOMA__MOVER(b[e->sq_index[f]]);
            if (!blk) {
                if (probe_rides(e, pr, i, c, upto)) return -1;
                continue;
            }
            if ((blk & (blk - 1)) || !(blk & e->occ[s]) || !probe_rides(e, pr, i, c, upto)) continue;
            if (n == cap) return -1;
            pins[n++] = e->sq_index[bb_lsb(blk)];
        }
        return n;
    }
    for (int i = 0, np = e->nride_probe[s ^ 1]; i < np; i++) {
        int d = e->probe_dir[s ^ 1][i];
        BB r = RAY(e, d, kb);
        if (!(r & riders)) continue;
        BB blk = r & occ;
        int a = bb_first(e, d, blk);
        unsigned c = b[e->sq_index[a]];
        if (KOMA__SIDE_OF(c) != s) {
            if (probe_rides(e, pr, i, KOMA__MOVER(c), r & ~RAY(e, d, a))) return -1;
            continue;
        }
        /* an own piece: pinned when the next piece rides to the royal */
        blk &= RAY(e, d, a);
        if (!(blk & riders)) continue;
        int a2 = bb_first(e, d, blk);
        unsigned c2 = b[e->sq_index[a2]];
        if (KOMA__SIDE_OF(c2) == s || !probe_rides(e, pr, i, KOMA__MOVER(c2), r & ~RAY(e, d, a2))) continue;
        if (n == cap) return -1;
        pins[n++] = e->sq_index[a];
    }
    return n;
}

/* koma__attacked(e, to, s ^ 1) with the royal of side s on ksq lifted: from
 * the attackers (e->dir_to) or by the probes. */
static int BBF(attacked_lifted_bb)(const koma_engine *e, int ksq, int to, int s)
{
    int o = s ^ 1, tb = e->index_sq[to];
    BB occ = (BB)((e->occ[0] | e->occ[1]) & ~e->bit[ksq]), riders = (BB)e->set_bb[KOMA__SET_RIDERS(o)];
    if (!e->dir_to) return attacked_bb(e, to, tb, o, occ, riders);
    if (BBF(leapt_to)(e, tb, o)) return 1;
    const uint8_t *b = e->board, *dt = e->dir_to + (size_t)tb * (size_t)e->nsquares;
    const koma__probe *pr = e->ride_probe[o];
    for (BB on = riders & (BB)e->probe_lines[(size_t)o * (size_t)e->nsquares + (size_t)tb]; on; on &= on - 1) {
        int f = bb_lsb(on), d = dt[f];
        BB upto = RAY(e, d, tb) & ~RAY(e, d, f);
        if (!(upto & occ & ~((BB)1 << f)) &&
            probe_rides(e, pr, e->probe_of[o][d], KOMA__MOVER(b[e->sq_index[f]]), upto))
            return 1;
    }
    return 0;
}

/* The two above compiled twice: with the POPCNT instruction (chosen at run time,
 * e->popcnt) and without (the build targets plain x86-64). */
static size_t BBF(count_check_plain)(koma_engine *e, int ksq, koma_emove *buf)
{
    return count_check_bb(e, ksq, buf, NULL);
}
static size_t BBF(count_pseudo_plain)(koma_engine *e, koma_emove *buf) { return count_pseudo_bb(e, buf, NULL); }
static uint64_t BBF(count_children_plain)(koma_engine *e, const koma_emove *moves, size_t n, koma_emove *buf)
{
    return count_children_bb(e, moves, n, buf);
}
#ifdef HAVE_POPCNT_CLONE
__attribute__((target("popcnt"))) static size_t BBF(count_check_popcnt)(koma_engine *e, int ksq, koma_emove *buf)
{
    return count_check_bb(e, ksq, buf, NULL);
}
__attribute__((target("popcnt"))) static size_t BBF(count_pseudo_popcnt)(koma_engine *e, koma_emove *buf)
{
    return count_pseudo_bb(e, buf, NULL);
}
__attribute__((target("popcnt"))) static uint64_t BBF(count_children_popcnt)(koma_engine *e, const koma_emove *moves,
                                                                           size_t n, koma_emove *buf)
{
    return count_children_bb(e, moves, n, buf);
}
#endif

#undef attacked_bb
#undef attacks_bb
#undef bb_first
#undef board_bb
#undef count_check_bb
#undef count_children_bb
#undef count_drops_bb
#undef count_one_bb
#undef count_pieces_bb
#undef count_pseudo_bb
#undef count_to
#undef moves_bb
#undef nifu_files
#undef probe_rides
#undef ride_bb
#undef rides_bb
#undef bb_lsb
#undef bb_msb
#undef bb_count
