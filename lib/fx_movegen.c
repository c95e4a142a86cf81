/*
 * lib/fx_movegen.c — the effect engine's moves (fx_internal.h): every way a piece may move
 * under its definition, each turned into the effect record of the canonical PMN
 * chain (koma/pmn.h), deduplicated on that record (perft counts distinct chains).
 *
 * A move is built in two steps. The movement: one leg or a ride (with the
 * enemies a through-ride passes), two legs (lion-like: the second may come back
 * to the origin), a path of steps (thunderclap), then the shots of a shooter
 * (after its move, in place, or after each leg, as the definition says). Then the
 * after-move rules, in this order (koma-games(7), KO SHOGI):
 *   1. a burner (a piece that burns at the start of its move) removes every enemy
 *      around its final point;
 *   2. a piece that ends away from its origin beside an enemy burner is removed
 *      (arrival_burn), and does not promote;
 *   3. promotion: forced when the piece removed (by landing, or by a shot when
 *      shots count) a victim its capture_promotion entries name; else optional
 *      (or forced, promotion.optional false) when the zone is touched
 *      (promotion.trigger); promotion_requires may forbid either;
 *   4. the cascades of a promotion (promote own pieces, remove enemy ones);
 *   5. the reversions, in the definition's order.
 * All of it is done on the board with logged temporary changes, read back into
 * the record, and undone. A move whose piece has no shot, no burn, no possible
 * promotion and no after-move rule in play is recorded directly (the fast path).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fx_state.h"

#define MAX_TEMP 512
#define MAX_LIST 64

typedef struct gen {
    koma__fx *fx;
    const koma__fx_def *d;
    fx_store *st;
    koma_error *err;
    int side;
    int failed;

    /* node flags: which after-move rules may act */
    int post_any;
    int arrival_live;                  /* the enemy has a burner on the board */

    /* the move being built */
    int from, to, first;               /* first: the first landing (two legs), else -1 */
    uint16_t actor;
    int aid;
    int ncap;
    int16_t cap[MAX_LIST];             /* squares whose enemy the actor removed by landing */
    uint16_t capcode[MAX_LIST];
    int nshot;
    int16_t shot[8];
    uint16_t shotcode[8];
    int nrem;                          /* every removal so far, in order */
    int16_t rem[MAX_LIST];
    int nchg;
    int16_t chg[MAX_LIST];             /* squares whose identity the rules changed */

    /* temporary board changes: square and its previous code */
    int nt;
    int16_t tsq[MAX_TEMP];
    uint16_t tcode[MAX_TEMP];
} gen;

/* ---- temporary changes ---------------------------------------------------------- */

static void tset(gen *g, int sq, uint16_t code)
{
    koma__fx *fx = g->fx;
    uint16_t old = fx->board[sq];
    if (g->nt < MAX_TEMP) {
        g->tsq[g->nt] = (int16_t)sq;
        g->tcode[g->nt] = old;
        g->nt++;
    } else {
        g->failed = 1;                 /* never in practice: a move has few effects */
    }
    if (FX_PIECE(old)) fx->cnt[old]--;
    if (FX_PIECE(code)) fx->cnt[code]++;
    fx->board[sq] = code;
}

static void trestore(gen *g, int mark)
{
    koma__fx *fx = g->fx;
    while (g->nt > mark) {
        g->nt--;
        int sq = g->tsq[g->nt];
        uint16_t cur = fx->board[sq], old = g->tcode[g->nt];
        if (FX_PIECE(cur)) fx->cnt[cur]--;
        if (FX_PIECE(old)) fx->cnt[old]++;
        fx->board[sq] = old;
    }
}

/* The code a square had before this move's temporary changes. */
static uint16_t original(const gen *g, int sq)
{
    for (int i = 0; i < g->nt; i++)
        if (g->tsq[i] == sq) return g->tcode[i];
    return g->fx->board[sq];
}

static void remove_temp(gen *g, int sq)
{
    if (g->nrem < MAX_LIST) g->rem[g->nrem++] = (int16_t)sq;
    else g->failed = 1;
    tset(g, sq, 0);
}

/* ---- store ---------------------------------------------------------------------- */

void koma__fx_store_free(fx_store *st)
{
    free(st->rec);
    free(st->pool);
    free(st->table);
    memset(st, 0, sizeof *st);
}

static int store_reset(fx_store *st, koma_error *err)
{
    st->n = 0;
    st->npool = 0;
    if (st->table == NULL) {
        st->tcap = 1024;
        st->table = calloc(st->tcap, sizeof *st->table);
        if (st->table == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (moves)");
    } else {
        memset(st->table, 0, st->tcap * sizeof *st->table);
    }
    return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

static int rec_equal(const fx_store *st, const fx_rec *a, const fx_rec *b)
{
    if (a->from != b->from || a->to != b->to || a->actor != b->actor || a->cap != b->cap ||
        a->nrem != b->nrem || a->nchg != b->nchg)
        return 0;
    return a->nrem + a->nchg == 0 ||
           memcmp(st->pool + a->off, st->pool + b->off,
                  (size_t)(a->nrem + a->nchg) * sizeof *st->pool) == 0;
}

static int grow_table(fx_store *st, koma_error *err)
{
    size_t cap = st->tcap * 2;
    uint32_t *t = calloc(cap, sizeof *t);
    if (t == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (moves)");
    for (size_t i = 0; i < st->n; i++) {
        size_t h = (size_t)st->rec[i].key & (cap - 1);
        while (t[h]) h = (h + 1) & (cap - 1);
        t[h] = (uint32_t)i + 1;
    }
    free(st->table);
    st->table = t;
    st->tcap = cap;
    return 0;
}

/* Add a record (its removals and changes already at the end of the pool); a
 * duplicate is dropped. */
static int store_add(gen *g, fx_rec *r)
{
    fx_store *st = g->st;
    uint64_t h = mix(mix(mix(0x6B6F6D61ull, r->from), r->to), (uint64_t)r->actor << 8 | r->cap);
    for (unsigned i = 0; i < (unsigned)r->nrem + r->nchg; i++) h = mix(h, st->pool[r->off + i]);
    r->key = h;
    size_t slot = (size_t)h & (st->tcap - 1);
    while (st->table[slot]) {
        const fx_rec *o = &st->rec[st->table[slot] - 1];
        if (o->key == h && rec_equal(st, o, r)) {
            st->npool = r->off;        /* drop it */
            return 0;
        }
        slot = (slot + 1) & (st->tcap - 1);
    }
    if (st->n >= KOMA__FX_MAX_MOVES)
        return koma_error_set(g->err, KOMA_E_GAME_LIMIT, 0, "more than %u moves in one position",
                              KOMA__FX_MAX_MOVES);
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 256;
        fx_rec *nr = realloc(st->rec, cap * sizeof *nr);
        if (nr == NULL) return koma_error_set(g->err, KOMA_E_MEMORY, 0, "out of memory (moves)");
        st->rec = nr;
        st->cap = cap;
    }
    st->rec[st->n] = *r;
    st->table[slot] = (uint32_t)st->n + 1;
    st->n++;
    if (st->n * 2 > st->tcap && grow_table(st, g->err) != 0) return -1;
    return 0;
}

static int pool_reserve(gen *g, size_t n)
{
    fx_store *st = g->st;
    if (st->npool + n <= st->cappool) return 0;
    size_t cap = st->cappool ? st->cappool * 2 : 1024;
    while (cap < st->npool + n) cap *= 2;
    uint32_t *p = realloc(st->pool, cap * sizeof *p);
    if (p == NULL) return koma_error_set(g->err, KOMA_E_MEMORY, 0, "out of memory (moves)");
    st->pool = p;
    st->cappool = cap;
    return 0;
}

static void sort_u32(uint32_t *a, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint32_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* ---- records ----------------------------------------------------------------------- */

/* The fast path: a displacement (maybe capturing), no other effect. */
static int record_plain(gen *g, int from, int to, int cap)
{
    fx_rec r;
    r.from = (uint16_t)from;
    r.to = (uint16_t)to;
    r.actor = g->actor;
    r.cap = (uint8_t)cap;
    r.nrem = 0;
    r.nchg = 0;
    r.off = (uint32_t)g->st->npool;
    return store_add(g, &r);
}

/* Read the board back into a record: the move as the canonical chain has it. */
static int record_now(gen *g)
{
    koma__fx *fx = g->fx;
    int from = g->from, to = g->to, moved = from != to;
    int dead = moved && fx->board[to] == 0;      /* removed where it arrived */
    if (pool_reserve(g, (size_t)g->nrem + (size_t)g->nchg + 2) != 0) return -1;
    fx_rec r;
    /* a move without displacement has no element 1: nothing of its piece is in the
     * record but its changes (so the same effects by two pieces are one move) */
    r.from = (uint16_t)(moved ? from : 0);
    r.to = (uint16_t)(moved ? to : 0);
    r.cap = 0;
    for (int i = 0; i < g->ncap; i++)
        if (g->cap[i] == to) r.cap = (uint8_t)moved;
    r.actor = !moved ? 0 : dead ? g->actor : fx->board[to];
    r.off = (uint32_t)g->st->npool;
    uint32_t *p = g->st->pool + g->st->npool;
    int nr = 0;
    for (int i = 0; i < g->nrem; i++) {
        int sq = g->rem[i];
        if (moved && sq == to && !dead) continue;          /* element 1's capture */
        int dup = 0;
        for (int j = 0; j < nr; j++)
            if (p[j] == (uint32_t)sq) dup = 1;
        if (!dup) p[nr++] = (uint32_t)sq;
    }
    if (dead) {
        int have = 0;
        for (int j = 0; j < nr; j++)
            if (p[j] == (uint32_t)to) have = 1;
        if (!have) p[nr++] = (uint32_t)to;
    }
    sort_u32(p, nr);
    uint32_t *c = p + nr;
    int nc = 0;
    for (int i = 0; i < g->nchg; i++) {
        int sq = g->chg[i];
        if (moved && sq == to) continue;
        uint16_t cur = fx->board[sq];
        if (!FX_PIECE(cur)) continue;
        if (cur == original(g, sq)) continue;
        uint32_t e = (uint32_t)sq << 16 | cur;
        int dup = 0;
        for (int j = 0; j < nc; j++)
            if ((c[j] >> 16) == (uint32_t)sq) dup = 1;
        if (!dup) c[nc++] = e;
    }
    if (!moved && fx->board[from] != g->actor && FX_PIECE(fx->board[from])) {
        int dup = 0;
        for (int j = 0; j < nc; j++)
            if ((c[j] >> 16) == (uint32_t)from) dup = 1;
        if (!dup) c[nc++] = (uint32_t)from << 16 | fx->board[from];
    }
    sort_u32(c, nc);
    if (nr > KOMA__FX_MAX_EFFECTS || nc > KOMA__FX_MAX_EFFECTS) {
        g->failed = 1;
        return koma_error_set(g->err, KOMA_E_GAME_LIMIT, 0, "a move with more than %d effects",
                              KOMA__FX_MAX_EFFECTS);
    }
    r.nrem = (uint8_t)nr;
    r.nchg = (uint8_t)nc;
    g->st->npool += (size_t)nr + (size_t)nc;
    return store_add(g, &r);
}

/* ---- the after-move rules ---------------------------------------------------------- */

static int own_count(const gen *g, int side, const koma__fx_ids set)
{
    const koma__fx *fx = g->fx;
    int n = 0;
    for (unsigned id = 0; id < g->d->nids; id++)
        if (koma__fx_has(set, id)) n += fx->cnt[FX_CODE(id, side)];
    return n;
}

/* Do the own pieces of `set` stand in the zone: all of them (vacuously), or one? */
static int own_in_zone(const gen *g, const koma__fx_ids set, int all)
{
    const koma__fx *fx = g->fx;
    if (own_count(g, g->side, set) == 0) return all;
    for (int sq = 0; sq < fx->nsq; sq++) {
        int idx = fx->sq_index[sq];
        uint16_t c = fx->board[idx];
        if (!FX_PIECE(c) || FX_SIDE(c) != g->side || !koma__fx_has(set, (unsigned)FX_ID(c))) continue;
        int in = fx->in_zone[g->side][idx];
        if (all && !in) return 0;
        if (!all && in) return 1;
    }
    return all;
}

/* Whether the promotion requirements let the actor promote: zone (1) or by capture (0). */
static int promotion_allowed(const gen *g, int zone)
{
    const koma__fx_def *d = g->d;
    for (unsigned i = 0; i < d->nrequire; i++) {
        const koma__fx_require *r = &d->require[i];
        if (!koma__fx_has(r->pieces, (unsigned)g->aid)) continue;
        if (r->zone_only && !zone) continue;
        if (r->own_on_board && own_count(g, g->side, r->own) == 0) return 0;
        if (r->in_zone && !own_in_zone(g, r->own, r->all)) return 0;
    }
    return 1;
}

static int chebyshev(const koma__fx *fx, int a, int b)
{
    int df = abs((int)fx->file_of[a] - (int)fx->file_of[b]);
    int dr = abs((int)fx->rank_of[a] - (int)fx->rank_of[b]);
    return df > dr ? df : dr;
}

/* Does a piece of `other` stand near square sq (reversion kind 1)? */
static int near_other(const gen *g, const koma__fx_reversion *r, int sq, int side)
{
    const koma__fx *fx = g->fx;
    for (int s = 0; s < fx->nsq; s++) {
        int idx = fx->sq_index[s];
        uint16_t c = fx->board[idx];
        if (!FX_PIECE(c) || idx == sq || !koma__fx_has(r->other, (unsigned)FX_ID(c))) continue;
        if (r->enemy_only && FX_SIDE(c) == side) continue;
        int dist = chebyshev(fx, sq, idx);
        if (dist > r->within) continue;
        if (r->geometry == KOMA__FX_GEOM_BOX) return 1;
        int df = (int)fx->file_of[idx] - (int)fx->file_of[sq];
        int dr = (int)fx->rank_of[idx] - (int)fx->rank_of[sq];
        if (!(df == 0 || dr == 0 || abs(df) == abs(dr))) continue;
        if (r->clear) {
            int stepf = df > 0 ? 1 : df < 0 ? -1 : 0, stepr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
            int step = stepf + stepr * fx->stride, t = sq + step, blocked = 0;
            while (t != idx) {
                if (fx->board[t] != 0) blocked = 1;
                t += step;
            }
            if (blocked) continue;
        }
        return 1;
    }
    return 0;
}

static void note_change(gen *g, int sq)
{
    if (g->nchg < MAX_LIST) g->chg[g->nchg++] = (int16_t)sq;
    else g->failed = 1;
}

/* The reversions after a move, in order. */
static void reversions(gen *g)
{
    koma__fx *fx = g->fx;
    const koma__fx_def *d = g->d;
    for (unsigned i = 0; i < d->nreversion; i++) {
        const koma__fx_reversion *r = &d->reversion[i];
        int live = 0;
        for (unsigned id = 0; id < d->nids && !live; id++)
            if (koma__fx_has(r->pieces, id) && (fx->cnt[FX_CODE(id, 0)] || fx->cnt[FX_CODE(id, 1)])) live = 1;
        if (!live) continue;
        int skip[2] = {0, 0};
        if (r->kind == 0)
            for (int s = 0; s < 2; s++) skip[s] = own_count(g, s, r->other) > 0;
        for (int sq = 0; sq < fx->nsq; sq++) {
            int idx = fx->sq_index[sq];
            uint16_t c = fx->board[idx];
            if (!FX_PIECE(c) || !koma__fx_has(r->pieces, (unsigned)FX_ID(c))) continue;
            int s = FX_SIDE(c);
            if (r->kind == 0 ? skip[s] : !near_other(g, r, idx, s)) continue;
            tset(g, idx, FX_CODE(d->ids[FX_ID(c)].demotes_to, s));
            note_change(g, idx);
        }
    }
}

/* After the movement and shots (applied): the rules, then the record(s). */
static int after_move(gen *g)
{
    koma__fx *fx = g->fx;
    const koma__fx_def *d = g->d;
    const koma__fx_id *a = &d->ids[g->aid];
    int mark = g->nt, rmark = g->nrem, cmark = g->nchg;
    int from = g->from, to = g->to, moved = from != to;
    int s = g->side, rc = 0;

    /* A pass: back on its origin, nothing captured on a leg nor shot. What the rules
     * below then do (a promotion in place, c=+X) leaves it a pass, which is no move
     * without double_move_pass (koma-games(7), option double-movers.pass). */
    if (!moved && g->ncap == 0 && g->nshot == 0 && !d->double_move_pass) return 0;

    /* 1. burns */
    if (a->burns)
        for (int k = 0; k < 8; k++) {
            int n = to + fx->king[k];
            uint16_t c = fx->board[n];
            if (FX_PIECE(c) && FX_SIDE(c) != s) remove_temp(g, n);
        }
    /* 2. burned on arrival */
    int dead = 0;
    if (d->arrival_burn && moved && g->arrival_live)
        for (int k = 0; k < 8 && !dead; k++) {
            uint16_t c = fx->board[to + fx->king[k]];
            if (FX_PIECE(c) && FX_SIDE(c) != s && fx_is_burner(fx, s ^ 1, c)) dead = 1;
        }
    if (dead) remove_temp(g, to);

    /* 3. promotion */
    int choices[2], nchoice = 0;
    if (!dead && a->promotes_to >= 0) {
        int forced = 0;
        for (int i = 0; i < g->ncap && !forced; i++)
            if (koma__fx_has(d->trig[g->aid], (unsigned)FX_ID(g->capcode[i]))) forced = 1;
        if (d->shot_is_capture)
            for (int i = 0; i < g->nshot && !forced; i++)
                if (koma__fx_has(d->trig[g->aid], (unsigned)FX_ID(g->shotcode[i]))) forced = 1;
        int zone = fx->in_zone[s][to] || (d->trigger != KOMA__FX_TRIGGER_FINAL && fx->in_zone[s][from]) ||
                   (d->trigger == KOMA__FX_TRIGGER_ANY_LANDING && g->first >= 0 && fx->in_zone[s][g->first]);
        if (forced && promotion_allowed(g, 0)) {
            choices[nchoice++] = 1;
        } else if (zone && promotion_allowed(g, 1)) {
            if (d->promotion_optional) choices[nchoice++] = 0;
            choices[nchoice++] = 1;
        } else {
            choices[nchoice++] = 0;
        }
    } else {
        choices[nchoice++] = 0;
    }
    for (int ci = 0; ci < nchoice && rc == 0; ci++) {
        int m2 = g->nt, r2 = g->nrem, c2 = g->nchg;
        if (choices[ci]) {
            tset(g, to, FX_CODE(a->promotes_to, s));
            note_change(g, to);
            /* 4. cascades */
            for (unsigned k = 0; k < d->ncascade; k++) {
                const koma__fx_cascade *cs = &d->cascade[k];
                if (!koma__fx_has(cs->on, (unsigned)g->aid)) continue;
                for (int sq = 0; sq < fx->nsq; sq++) {
                    int idx = fx->sq_index[sq];
                    uint16_t c = fx->board[idx];
                    if (!FX_PIECE(c) || idx == to) continue;
                    int id = FX_ID(c);
                    if (FX_SIDE(c) == s && koma__fx_has(cs->promote_own, (unsigned)id) &&
                        d->ids[id].promotes_to >= 0) {
                        tset(g, idx, FX_CODE(d->ids[id].promotes_to, s));
                        note_change(g, idx);
                    } else if (FX_SIDE(c) != s && koma__fx_has(cs->remove_enemy, (unsigned)id)) {
                        remove_temp(g, idx);
                    }
                }
            }
        }
        /* 5. reversions */
        if (g->post_any) reversions(g);
        if (g->failed) rc = koma_error_set(g->err, KOMA_E_GAME_LIMIT, 0, "a move with too many effects");
        else rc = record_now(g);
        trestore(g, m2);
        g->nrem = r2;
        g->nchg = c2;
    }
    trestore(g, mark);
    g->nrem = rmark;
    g->nchg = cmark;
    return rc;
}

/* ---- shots ------------------------------------------------------------------------- */

/* The enemies the actor (identity aid) may shoot from square p (count up to cap). */
static int shot_targets(gen *g, int p, const koma__fx_shot *sh, int16_t *out, int cap)
{
    koma__fx *fx = g->fx;
    const koma__fx_def *d = g->d;
    int n = 0;
    for (int k = 0; k < 8; k++) {
        int t = p;
        for (int dist = 1; dist <= sh->range; dist++) {
            t += fx->line[k];
            uint16_t c = fx->board[t];
            if (c & KOMA__FX_OFF) break;
            if (c == 0) continue;
            if (FX_SIDE(c) != g->side && dist >= d->shot_min[g->aid][FX_ID(c)] && n < cap)
                out[n++] = (int16_t)t;
            if (!sh->over) break;
        }
    }
    return n;
}

/* From square p: no shot (unless need_shot), or up to sh->count shots (a second
 * shot may hit what the first uncovered; the record dedupe keeps each set
 * once); then `next`. */
static int with_shots(gen *g, int p, const koma__fx_shot *sh, int (*next)(gen *, void *), void *ctx,
                      int need_shot)
{
    int rc = need_shot ? 0 : next(g, ctx);
    if (rc != 0 || sh->count == 0) return rc;
    int16_t t1[64];
    int n1 = shot_targets(g, p, sh, t1, 64);
    for (int i = 0; i < n1 && rc == 0; i++) {
        int mark = g->nt, rmark = g->nrem;
        g->shot[g->nshot] = t1[i];
        g->shotcode[g->nshot] = g->fx->board[t1[i]];
        g->nshot++;
        remove_temp(g, t1[i]);
        rc = next(g, ctx);
        if (rc == 0 && sh->count >= 2) {
            int16_t t2[64];
            int n2 = shot_targets(g, p, sh, t2, 64);
            for (int j = 0; j < n2 && rc == 0; j++) {
                int m2 = g->nt, r2 = g->nrem;
                g->shot[g->nshot] = t2[j];
                g->shotcode[g->nshot] = g->fx->board[t2[j]];
                g->nshot++;
                remove_temp(g, t2[j]);
                rc = next(g, ctx);
                g->nshot--;
                trestore(g, m2);
                g->nrem = r2;
            }
        }
        g->nshot--;
        trestore(g, mark);
        g->nrem = rmark;
    }
    return rc;
}

static int next_after_move(gen *g, void *ctx)
{
    (void)ctx;
    return after_move(g);
}

/* ---- movement --------------------------------------------------------------------- */

/* May the actor land on c (an enemy)? */
static int capturable(const gen *g, uint16_t c)
{
    const koma__fx_id *a = &g->d->ids[g->aid];
    int id = FX_ID(c);
    if (a->capture_none) return 0;
    if (a->capture_class >= 0 && !((g->d->ids[id].classes >> a->capture_class) & 1u)) return 0;
    return !koma__fx_has(g->d->no_displace[g->aid], (unsigned)id);
}

/* What a leg may land on: 1 an empty point (mod allows), 2 an enemy it captures,
 * 0 neither. */
static int landing(const gen *g, uint16_t c, uint8_t mod)
{
    if (c & KOMA__FX_OFF) return 0;
    if (c == 0) return (mod & KOMA__FX_EMPTY) ? 1 : 0;
    if (FX_SIDE(c) == g->side || !(mod & KOMA__FX_ENEMY) || !capturable(g, c)) return 0;
    return 2;
}

/* The movement is applied: shots (when the piece shoots after moving), then the rules. */
static int moved_applied(gen *g)
{
    const koma__fx_id *a = &g->d->ids[g->aid];
    if (a->shot.count && (a->shot.with_move || g->d->shoot_when != KOMA__FX_SHOOT_IN_PLACE))
        return with_shots(g, g->to, &a->shot, next_after_move, NULL, 0);
    return after_move(g);
}

/* A one-leg move (maybe a through-ride's): from -> to, capturing caps. */
static int one_leg(gen *g, int to, int ncap, const int16_t *caps)
{
    koma__fx *fx = g->fx;
    const koma__fx_def *d = g->d;
    const koma__fx_id *a = &d->ids[g->aid];
    int s = g->side;
    if (!g->post_any && !a->burns && !a->shot.count &&
        !(g->arrival_live && d->arrival_burn) && (ncap == 0 || (ncap == 1 && caps[0] == to))) {
        int promo = 0;
        if (a->promotes_to >= 0) {
            if (fx->in_zone[s][to] || (d->trigger != KOMA__FX_TRIGGER_FINAL && fx->in_zone[s][g->from]))
                promo = 1;
            if (ncap && koma__fx_has(d->trig[g->aid], (unsigned)FX_ID(fx->board[caps[0]]))) promo = 1;
        }
        if (!promo) return record_plain(g, g->from, to, ncap > 0);
    }
    int mark = g->nt, rmark = g->nrem;
    g->to = to;
    g->first = -1;
    g->ncap = 0;
    for (int i = 0; i < ncap; i++) {
        g->cap[g->ncap] = caps[i];
        g->capcode[g->ncap++] = fx->board[caps[i]];
        remove_temp(g, caps[i]);
    }
    tset(g, g->from, 0);
    tset(g, to, g->actor);
    int rc = moved_applied(g);
    trestore(g, mark);
    g->nrem = rmark;
    g->ncap = 0;
    return rc;
}

static int gen_vectors(gen *g, int n, const int16_t *off, const uint8_t *range, const uint8_t *mod)
{
    koma__fx *fx = g->fx;
    int from = g->from, rc = 0;
    for (int v = 0; v < n && rc == 0; v++) {
        int t = from, steps = 0;
        int16_t caps[32];
        int ncap = 0;
        for (;;) {
            t += off[v];
            steps++;
            uint16_t c = fx->board[t];
            if (c & KOMA__FX_OFF) break;
            if (c == 0) {
                if (mod[v] & KOMA__FX_EMPTY) rc = one_leg(g, t, ncap, caps);
            } else if (FX_SIDE(c) == g->side) {
                break;
            } else {
                if (!(mod[v] & (KOMA__FX_ENEMY | KOMA__FX_THROUGH)) || !capturable(g, c)) break;
                if (ncap < 32) caps[ncap++] = (int16_t)t;
                rc = one_leg(g, t, ncap, caps);
                if (!(mod[v] & KOMA__FX_THROUGH)) break;
            }
            if (rc != 0 || range[v] == 1 || (range[v] != 0 && steps >= range[v])) break;
        }
    }
    return rc;
}

/* Two legs. The second may land on the vacated origin. With shots after each
 * leg (pair_shoot_each) the first leg's shots come before the second leg. */
typedef struct pair_ctx {
    int v;                             /* the pair */
} pair_ctx;

static int second_leg(gen *g, void *ctx);

static int gen_pairs(gen *g, const fx_move_tab *tab)
{
    koma__fx *fx = g->fx;
    const koma__fx_id *a = &g->d->ids[g->aid];
    int from = g->from, rc = 0;
    /* first legs are shared by many pairs: do each distinct first leg once */
    for (int v = 0; v < tab->npair && rc == 0; v++) {
        int dup = 0;
        for (int w = 0; w < v && !dup; w++)
            if (tab->off1[w] == tab->off1[v] && tab->mod1[w] == tab->mod1[v]) dup = 1;
        if (dup) continue;
        int l1 = from + tab->off1[v];
        uint16_t c = fx->board[l1];
        int land = landing(g, c, tab->mod1[v]);
        if (land == 0) continue;
        int capt = land == 2;
        int mark = g->nt, rmark = g->nrem, ncap = g->ncap;
        if (capt) {
            g->cap[g->ncap] = (int16_t)l1;
            g->capcode[g->ncap++] = c;
            remove_temp(g, l1);
        }
        tset(g, from, 0);
        tset(g, l1, g->actor);
        g->first = l1;
        pair_ctx pc = {v};
        if (a->pair_shoot_each && a->shot.count)
            rc = with_shots(g, l1, &a->shot, second_leg, &pc, 0);
        else
            rc = second_leg(g, &pc);
        trestore(g, mark);
        g->nrem = rmark;
        g->ncap = ncap;
        g->first = -1;
    }
    return rc;
}

/* From the first landing g->first: every second leg of the pairs sharing v's first leg. */
static int second_leg(gen *g, void *ctx)
{
    koma__fx *fx = g->fx;
    const koma__fx_id *a = &g->d->ids[g->aid];
    const fx_move_tab *tab = &fx->mv[g->actor];
    int v0 = ((pair_ctx *)ctx)->v, l1 = g->first, rc = 0;
    for (int v = v0; v < tab->npair && rc == 0; v++) {
        if (tab->off1[v] != tab->off1[v0] || tab->mod1[v] != tab->mod1[v0]) continue;
        int l2 = l1 + tab->off2[v];
        uint16_t c = fx->board[l2];
        int land = landing(g, c, tab->mod2[v]);
        if (land == 0) continue;
        int capt = land == 2;
        int mark = g->nt, rmark = g->nrem, ncap = g->ncap;
        if (capt) {
            g->cap[g->ncap] = (int16_t)l2;
            g->capcode[g->ncap++] = c;
            remove_temp(g, l2);
        }
        tset(g, l1, 0);
        tset(g, l2, g->actor);
        g->to = l2;
        if (a->shot.count && (a->shot.with_move || g->d->shoot_when != KOMA__FX_SHOOT_IN_PLACE))
            rc = with_shots(g, l2, &a->shot, next_after_move, NULL, 0);
        else
            rc = after_move(g);
        trestore(g, mark);
        g->nrem = rmark;
        g->ncap = ncap;
    }
    return rc;
}

/* The path of steps (thunderclap): depth-first, exactly tab->npath-vector steps. */
static int path_step(gen *g, const fx_move_tab *tab, int at, int left, int last, int16_t *visited,
                     int nvisited)
{
    koma__fx *fx = g->fx;
    const koma__fx_id *a = &g->d->ids[g->aid];
    if (left == 0) {
        g->to = at;
        return moved_applied(g);
    }
    int rc = 0;
    for (int k = 0; k < tab->npath && rc == 0; k++) {
        int off = tab->path[k], t = at + off;
        uint16_t c = fx->board[t];
        if (c & KOMA__FX_OFF) continue;
        if (a->path.revisit == KOMA__FX_REVISIT_NONE) {
            int seen = 0;
            for (int i = 0; i < nvisited; i++)
                if (visited[i] == t) seen = 1;
            if (seen) continue;
        } else if (a->path.revisit == KOMA__FX_REVISIT_NO_REVERSAL && last != 0 && off == -last) {
            continue;
        }
        int capt = 0;
        if (c != 0) {
            if (FX_SIDE(c) == g->side || !capturable(g, c)) continue;
            capt = 1;
        }
        int mark = g->nt, rmark = g->nrem, ncap = g->ncap;
        if (capt) {
            g->cap[g->ncap] = (int16_t)t;
            g->capcode[g->ncap++] = c;
            remove_temp(g, t);
        }
        tset(g, at, 0);
        tset(g, t, g->actor);
        visited[nvisited] = (int16_t)t;
        rc = path_step(g, tab, t, left - 1, off, visited, nvisited + 1);
        trestore(g, mark);
        g->nrem = rmark;
        g->ncap = ncap;
    }
    return rc;
}

/* In-place shots (shoot_when in-place or both): the shooter stays. */
static int gen_in_place(gen *g)
{
    const koma__fx_id *a = &g->d->ids[g->aid];
    g->to = g->from;
    g->first = -1;
    return with_shots(g, g->from, &a->shot, next_after_move, NULL, 1);
}

static int gen_piece(gen *g, int sq)
{
    koma__fx *fx = g->fx;
    const koma__fx_def *d = g->d;
    uint16_t code = fx->board[sq];
    const fx_move_tab *tab = &fx->mv[code];
    const koma__fx_id *a = &d->ids[FX_ID(code)];
    g->from = sq;
    g->to = sq;
    g->first = -1;
    g->actor = code;
    g->aid = FX_ID(code);
    g->ncap = 0;
    g->nshot = 0;
    int rc = 0;
    rc = gen_vectors(g, tab->nvec, tab->off, tab->range, tab->mod);
    for (int k = 0; k < tab->ncond && rc == 0; k++)
        if (own_count(g, g->side, a->cond[k].if_own) > 0)
            rc = gen_vectors(g, tab->cond_n[k], tab->cond_off[k], tab->cond_range[k], tab->cond_mod[k]);
    if (rc == 0 && tab->npair) rc = gen_pairs(g, tab);
    if (rc == 0 && tab->npath) {
        int16_t visited[32];
        visited[0] = (int16_t)sq;
        int mark = g->nt;
        rc = path_step(g, tab, sq, a->path.steps, 0, visited, 1);
        trestore(g, mark);
    }
    if (rc == 0 && a->shot.count && !a->shot.with_move && d->shoot_when != KOMA__FX_SHOOT_AFTER_MOVE)
        rc = gen_in_place(g);
    return rc;
}

int koma__fx_gen(koma__fx *fx, int side, fx_store *st, koma_error *err)
{
    const koma__fx_def *d = fx->def;
    gen *g = malloc(sizeof *g);
    if (g == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (moves)");
    memset(g, 0, offsetof(gen, tsq));
    g->fx = fx;
    g->d = d;
    g->st = st;
    g->err = err;
    g->side = side;
    if (store_reset(st, err) != 0) {
        free(g);
        return -1;
    }
    /* which after-move rules are in play at this node */
    for (unsigned c = 0; c < KOMA__FX_CODES; c++)
        if (fx->cnt[c] && fx_is_burner(fx, side ^ 1, c)) g->arrival_live = 1;
    for (unsigned i = 0; i < d->nreversion && !g->post_any; i++) {
        const koma__fx_reversion *r = &d->reversion[i];
        const uint64_t *watch = r->kind == 0 ? r->pieces : r->other;
        for (unsigned id = 0; id < d->nids; id++)
            if (koma__fx_has(watch, id) && (fx->cnt[FX_CODE(id, 0)] || fx->cnt[FX_CODE(id, 1)]))
                g->post_any = 1;
    }
    int rc = 0;
    for (int s = 0; s < fx->nsq && rc == 0; s++) {
        int idx = fx->sq_index[s];
        uint16_t c = fx->board[idx];
        if (!FX_PIECE(c) || FX_SIDE(c) != side) continue;
        rc = gen_piece(g, idx);
        if (g->failed && rc == 0) rc = koma_error_set(err, KOMA_E_GAME_LIMIT, 0, "a move with too many effects");
    }
    free(g);
    return rc;
}
