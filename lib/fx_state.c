/*
 * lib/fx_state.c — the effect engine's state (fx_internal.h, fx_state.h): the padded
 * board of 16-bit codes, hands as counts, per-code counts, the Zobrist hash;
 * positions in and out; make and unmake of effect records with a change log;
 * the moves of a ply as handles into its store, their canonical PMN chains and
 * the look-up of a chain; the survival test, threats and perft.
 *
 * Board: rank-major from a1 (rank 1 is row 0), `pad` rows below and above and
 * `pad` columns between the ranks, pad = the longest component of a leap, so any
 * leap from a real square lands on a real square or on KOMA__FX_OFF; ascending
 * padded indices are the canonical order of squares of a PMN chain.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fx_state.h"

/* ---- creation -------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int vec_pad(const koma__fx_vec *v, unsigned n, int pad)
{
    for (unsigned i = 0; i < n; i++) {
        int ax = abs(v[i].dx), ay = abs(v[i].dy);
        if (ax > pad) pad = ax;
        if (ay > pad) pad = ay;
    }
    return pad;
}

static int16_t offset_of(const koma__fx *fx, int dx, int dy, int side)
{
    int off = dx + dy * fx->stride;
    return (int16_t)(side ? -off : off);
}

static void build_tables(koma__fx *fx)
{
    const koma__fx_def *d = fx->def;
    static const int kx[8] = {1, 1, 0, -1, -1, -1, 0, 1}, ky[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    for (int k = 0; k < 8; k++) {
        fx->king[k] = offset_of(fx, kx[k], ky[k], 0);
        fx->line[k] = fx->king[k];
        fx->line_dx[k] = (int8_t)kx[k];
        fx->line_dy[k] = (int8_t)ky[k];
    }
    for (unsigned id = 0; id < d->nids; id++) {
        const koma__fx_id *a = &d->ids[id];
        for (int s = 0; s < 2; s++) {
            uint16_t code = FX_CODE(id, s);
            fx_move_tab *t = &fx->mv[code];
            t->nvec = a->nvec;
            for (unsigned v = 0; v < a->nvec; v++) {
                t->off[v] = offset_of(fx, a->vec[v].dx, a->vec[v].dy, s);
                t->range[v] = a->vec[v].range;
                t->mod[v] = a->vec[v].mod;
            }
            t->npair = a->npair;
            for (unsigned v = 0; v < a->npair; v++) {
                t->off1[v] = offset_of(fx, a->pair[v].dx1, a->pair[v].dy1, s);
                t->off2[v] = offset_of(fx, a->pair[v].dx2, a->pair[v].dy2, s);
                t->mod1[v] = a->pair[v].mod1;
                t->mod2[v] = a->pair[v].mod2;
            }
            t->npath = a->path.steps ? a->path.nvec : 0;
            for (unsigned v = 0; v < a->path.nvec; v++)
                t->path[v] = offset_of(fx, a->path.dx[v], a->path.dy[v], s);
            t->ncond = a->ncond;
            for (unsigned k = 0; k < a->ncond; k++) {
                t->cond_n[k] = a->cond[k].nvec;
                for (unsigned v = 0; v < a->cond[k].nvec; v++) {
                    t->cond_off[k][v] = offset_of(fx, a->cond[k].vec[v].dx, a->cond[k].vec[v].dy, s);
                    t->cond_range[k][v] = a->cond[k].vec[v].range;
                    t->cond_mod[k][v] = a->cond[k].vec[v].mod;
                }
            }
            if (a->burns) fx->burner_codes[s][code >> 6] |= 1ull << (code & 63);
        }
    }
}

int koma__fx_new(const koma__fx_def *def, koma__fx **out, koma_error *err)
{
    *out = NULL;
    koma__fx *fx = calloc(1, sizeof *fx);
    if (fx == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    fx->def = def;
    fx->files = (int)def->files;
    fx->ranks = (int)def->ranks;
    int pad = 1;
    for (unsigned i = 0; i < def->nids; i++) {
        const koma__fx_id *a = &def->ids[i];
        pad = vec_pad(a->vec, a->nvec, pad);
        for (unsigned v = 0; v < a->npair; v++) {
            koma__fx_vec t[2] = {{a->pair[v].dx1, a->pair[v].dy1, 1, 0}, {a->pair[v].dx2, a->pair[v].dy2, 1, 0}};
            pad = vec_pad(t, 2, pad);
        }
        for (unsigned k = 0; k < a->ncond; k++) pad = vec_pad(a->cond[k].vec, a->cond[k].nvec, pad);
    }
    fx->pad = pad;
    fx->stride = fx->files + pad;
    fx->base = pad;
    fx->size = fx->base + (fx->ranks + 2 * pad) * fx->stride + pad;
    fx->nsq = fx->files * fx->ranks;
    fx->board = malloc((size_t)fx->size * sizeof *fx->board);
    fx->sq_index = malloc((size_t)fx->nsq * sizeof *fx->sq_index);
    fx->index_sq = malloc((size_t)fx->size * sizeof *fx->index_sq);
    fx->rank_of = calloc((size_t)fx->size, 1);
    fx->file_of = calloc((size_t)fx->size, 1);
    fx->in_zone[0] = calloc((size_t)fx->size, 1);
    fx->in_zone[1] = calloc((size_t)fx->size, 1);
    fx->mv = calloc(KOMA__FX_CODES, sizeof *fx->mv);
    fx->zboard = malloc((size_t)KOMA__FX_CODES * (size_t)fx->size * sizeof *fx->zboard);
    if (!fx->board || !fx->sq_index || !fx->index_sq || !fx->rank_of || !fx->file_of ||
        !fx->in_zone[0] || !fx->in_zone[1] || !fx->mv || !fx->zboard) {
        koma__fx_free(fx);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    }
    fx->shape.ndims = 2;
    fx->shape.size[0] = (uint16_t)fx->files;
    fx->shape.size[1] = (uint16_t)fx->ranks;
    fx->shape.size[2] = 1;
    fx->shape.squares = (uint32_t)fx->nsq;
    for (int i = 0; i < fx->size; i++) {
        fx->board[i] = KOMA__FX_OFF;
        fx->index_sq[i] = -1;
    }
    for (int sq = 0; sq < fx->nsq; sq++) {
        koma_cell c;
        koma_shape_cell(&fx->shape, (uint32_t)sq, &c);
        int f = c.idx[0], r = c.idx[1];                   /* r: 0 = rank 1 */
        int idx = fx->base + (r + pad) * fx->stride + f;
        fx->sq_index[sq] = (int16_t)idx;
        fx->index_sq[idx] = (int16_t)sq;
        fx->board[idx] = 0;
        fx->rank_of[idx] = (uint8_t)r;
        fx->file_of[idx] = (uint8_t)f;
        fx->in_zone[0][idx] = (uint8_t)(r >= fx->ranks - (int)def->zone);
        fx->in_zone[1][idx] = (uint8_t)(r < (int)def->zone);
    }
    /* generation walks the squares in canonical order */
    {
        int n = 0;
        for (int idx = 0; idx < fx->size; idx++)
            if (fx->index_sq[idx] >= 0) fx->sq_index[n++] = (int16_t)idx;
        for (int i = 0; i < fx->nsq; i++) fx->index_sq[fx->sq_index[i]] = (int16_t)i;
    }
    build_tables(fx);
    uint64_t seed = 0x6B6F6D61667Eull;   /* fixed keys: the same hash in every run */
    for (size_t i = 0; i < (size_t)KOMA__FX_CODES * (size_t)fx->size; i++) fx->zboard[i] = splitmix(&seed);
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < KOMA__FX_CODES; c++) fx->zhand[s][c] = splitmix(&seed);
    fx->zturn = splitmix(&seed);
    *out = fx;
    return 0;
}

void koma__fx_free(koma__fx *fx)
{
    if (fx == NULL) return;
    free(fx->board);
    free(fx->sq_index);
    free(fx->index_sq);
    free(fx->rank_of);
    free(fx->file_of);
    free(fx->in_zone[0]);
    free(fx->in_zone[1]);
    free(fx->mv);
    free(fx->zboard);
    free(fx->undo);
    free(fx->log);
    for (size_t i = 0; i < fx->nstores; i++) koma__fx_store_free(&fx->stores[i]);
    free(fx->stores);
    koma__fx_store_free(&fx->scratch);
    free(fx);
}

uint64_t koma__fx_zb(const koma__fx *fx, unsigned code, int idx)
{
    return fx->zboard[(size_t)code * (size_t)fx->size + (size_t)idx];
}

/* ---- positions -------------------------------------------------------------------- */

/* The FEEN square of a cell-order padded index is index_sq after the reordering in
 * koma__fx_new: fx->sq_index is the list of padded indices in canonical order. */
static uint32_t feen_square(const koma__fx *fx, int idx)
{
    koma_cell c;
    c.ndims = 2;
    c.idx[0] = fx->file_of[idx];
    c.idx[1] = fx->rank_of[idx];
    c.idx[2] = 0;
    uint32_t sq = 0;
    koma_shape_square(&fx->shape, &c, &sq, NULL);
    return sq;
}

static int code_of(const koma__fx_def *d, koma_piece p)
{
    int id = koma__fx_id_of(d, p);
    if (id < 0) return -1;
    return FX_CODE(id, koma_piece_side(p));
}

static koma_piece piece_of(const koma__fx_def *d, unsigned code)
{
    koma_piece p = d->ids[FX_ID(code)].token;
    if (FX_SIDE(code)) p |= KOMA_PIECE_SECOND;
    return p;
}

static void recompute(koma__fx *fx)
{
    memset(fx->cnt, 0, sizeof fx->cnt);
    uint64_t h = 0;
    for (int i = 0; i < fx->nsq; i++) {
        int idx = fx->sq_index[i];
        uint16_t c = fx->board[idx];
        if (!FX_PIECE(c)) continue;
        fx->cnt[c]++;
        h ^= koma__fx_zb(fx, c, idx);
    }
    uint64_t hh = 0;
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < KOMA__FX_CODES; c++) hh += (uint64_t)fx->hand[s][c] * fx->zhand[s][c];
    fx->hash_board = h;
    fx->hash_hand = hh;
}

int koma__fx_set_position(koma__fx *fx, const koma_position *pos, koma_error *err)
{
    const koma__fx_def *d = fx->def;
    if (koma__fx_position_fits(d, pos, err) != 0) return -1;
    for (int i = 0; i < fx->nsq; i++) {
        int idx = fx->sq_index[i];
        koma_piece p = pos->board[feen_square(fx, idx)];
        fx->board[idx] = p == KOMA_PIECE_NONE ? 0 : (uint16_t)code_of(d, p);
    }
    memset(fx->hand, 0, sizeof fx->hand);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < pos->hands[s].len; i++)
            fx->hand[s][code_of(d, pos->hands[s].items[i].piece)] += pos->hands[s].items[i].count;
    fx->turn = pos->turn == KOMA_SECOND ? KOMA_SECOND : KOMA_FIRST;
    fx->nundo = 0;
    for (size_t i = 0; i < fx->nstores; i++) fx->stores[i].valid = 0;
    fx->nlog = 0;
    fx->failed = 0;
    recompute(fx);
    return 0;
}

int koma__fx_get_position(const koma__fx *fx, koma_position *pos, koma_error *err)
{
    if (koma_position_reset(pos, &fx->shape, err) != 0) return -1;
    for (int i = 0; i < fx->nsq; i++) {
        int idx = fx->sq_index[i];
        uint16_t c = fx->board[idx];
        pos->board[feen_square(fx, idx)] = FX_PIECE(c) ? piece_of(fx->def, c) : KOMA_PIECE_NONE;
    }
    for (int s = 0; s < 2; s++)
        for (unsigned c = 1; c < KOMA__FX_CODES; c++)
            if (fx->hand[s][c] && koma_hand_add(&pos->hands[s], piece_of(fx->def, c), fx->hand[s][c], err) != 0)
                return -1;
    pos->style[0] = fx->def->style;
    pos->style[1] = (char)(fx->def->style - 'A' + 'a');
    pos->turn = fx->turn;
    return 0;
}

int koma__fx_turn(const koma__fx *fx) { return fx->turn; }
uint64_t koma__fx_hash(const koma__fx *fx)
{
    return fx->hash_board ^ fx->hash_hand ^ (fx->turn ? fx->zturn : 0);
}
size_t koma__fx_ply(const koma__fx *fx) { return fx->nundo; }

/* ---- make / unmake ----------------------------------------------------------------- */

static int log_push(koma__fx *fx, uint16_t sq, uint16_t code)
{
    if (fx->nlog == fx->caplog) {
        size_t cap = fx->caplog ? fx->caplog * 2 : 1024;
        fx_log *l = realloc(fx->log, cap * sizeof *l);
        if (l == NULL) return -1;
        fx->log = l;
        fx->caplog = cap;
    }
    fx->log[fx->nlog].sq = sq;
    fx->log[fx->nlog].code = code;
    fx->nlog++;
    return 0;
}

/* The log has room: make reserves it before it starts, so it cannot fail half-way. */
static void put(koma__fx *fx, int idx, uint16_t code)
{
    uint16_t old = fx->board[idx];
    fx->log[fx->nlog].sq = (uint16_t)idx;
    fx->log[fx->nlog].code = old;
    fx->nlog++;
    if (FX_PIECE(old)) {
        fx->cnt[old]--;
        fx->hash_board ^= koma__fx_zb(fx, old, idx);
    }
    if (FX_PIECE(code)) {
        fx->cnt[code]++;
        fx->hash_board ^= koma__fx_zb(fx, code, idx);
    }
    fx->board[idx] = code;
}

static void to_hand(koma__fx *fx, int side, uint16_t code)
{
    fx->log[fx->nlog].sq = (uint16_t)(0xFFF0u + (unsigned)side);
    fx->log[fx->nlog].code = code;
    fx->nlog++;
    fx->hand[side][code]++;
    fx->hash_hand += fx->zhand[side][code];
}

/* Apply record r (of the position) for side `s`; the turn toggles. */
static int apply(koma__fx *fx, const fx_store *st, const fx_rec *r)
{
    size_t need = 4 + 2u * ((size_t)r->nrem + (size_t)r->nchg);
    while (fx->nlog + need > fx->caplog) {
        if (log_push(fx, 0, 0) != 0) return -1;
        fx->nlog--;
    }
    if (fx->nundo == fx->capundo) {
        size_t cap = fx->capundo ? fx->capundo * 2 : 64;
        fx_undo *u = realloc(fx->undo, cap * sizeof *u);
        if (u == NULL) return -1;
        fx->undo = u;
        fx->capundo = cap;
    }
    fx->undo[fx->nundo].nlog = fx->nlog;
    fx->undo[fx->nundo].hash_board = fx->hash_board;
    fx->undo[fx->nundo].hash_hand = fx->hash_hand;
    fx->nundo++;
    if (fx->nundo < fx->nstores) fx->stores[fx->nundo].valid = 0;
    int s = fx->turn;
    const uint32_t *p = fx_effects(st, r);
    if (r->from != r->to) {
        uint16_t victim = fx->board[r->to];
        if (FX_PIECE(victim)) to_hand(fx, s, victim);
        put(fx, r->from, 0);
        put(fx, r->to, r->actor);
    }
    for (unsigned i = 0; i < r->nrem; i++) {
        int sq = (int)p[i];
        to_hand(fx, s, fx->board[sq]);
        put(fx, sq, 0);
    }
    for (unsigned i = 0; i < r->nchg; i++) put(fx, (int)(p[r->nrem + i] >> 16), (uint16_t)(p[r->nrem + i] & 0xFFFFu));
    fx->turn ^= 1;
    return 0;
}

int koma__fx_unmake(koma__fx *fx)
{
    if (fx->nundo == 0) return -1;
    fx->nundo--;
    size_t mark = fx->undo[fx->nundo].nlog;
    while (fx->nlog > mark) {
        fx->nlog--;
        fx_log *l = &fx->log[fx->nlog];
        if (l->sq >= 0xFFF0u) {
            fx->hand[l->sq - 0xFFF0u][l->code]--;
        } else {
            uint16_t cur = fx->board[l->sq];
            if (FX_PIECE(cur)) fx->cnt[cur]--;
            if (FX_PIECE(l->code)) fx->cnt[l->code]++;
            fx->board[l->sq] = l->code;
        }
    }
    fx->hash_board = fx->undo[fx->nundo].hash_board;
    fx->hash_hand = fx->undo[fx->nundo].hash_hand;
    fx->turn ^= 1;
    return 0;
}

/* ---- moves ------------------------------------------------------------------------- */

static fx_store *ply_store(koma__fx *fx, koma_error *err)
{
    if (fx->nundo >= fx->nstores) {
        size_t n = fx->nundo + 8;
        fx_store *s = realloc(fx->stores, n * sizeof *s);
        if (s == NULL) {
            koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (moves)");
            return NULL;
        }
        memset(s + fx->nstores, 0, (n - fx->nstores) * sizeof *s);
        fx->stores = s;
        fx->nstores = n;
    }
    return &fx->stores[fx->nundo];
}

int koma__fx_survives(const koma__fx *fx, int side)
{
    const koma__fx_def *d = fx->def;
    if (d->nsurvival == 0) return 1;
    for (unsigned i = 0; i < d->nsurvival; i++) {
        int all = 1;
        for (unsigned k = 0; k < d->survival_n[i] && all; k++)
            if (fx->cnt[FX_CODE(d->survival[i][k], side)] == 0) all = 0;
        if (all) return 1;
    }
    return 0;
}

int koma__fx_defeated(const koma__fx *fx)
{
    int a = !koma__fx_survives(fx, KOMA_FIRST), b = !koma__fx_survives(fx, KOMA_SECOND);
    if (a && b) return fx->turn;
    return a ? KOMA_FIRST : b ? KOMA_SECOND : -1;
}

size_t koma__fx_generate(koma__fx *fx, koma_error *err)
{
    fx_store *st = ply_store(fx, err);
    if (st == NULL) return (size_t)-1;
    if (st->valid) return st->n;       /* this position's moves, generated already */
    if (koma__fx_defeated(fx) >= 0) {
        st->n = 0;
        st->npool = 0;
        st->valid = 1;
        return 0;
    }
    if (koma__fx_gen(fx, fx->turn, st, err) != 0) {
        st->n = 0;
        return (size_t)-1;
    }
    st->valid = 1;
    return st->n;
}

static const fx_store *cur_store(const koma__fx *fx)
{
    return fx->nundo < fx->nstores ? &fx->stores[fx->nundo] : NULL;
}

void koma__fx_move_chain(const koma__fx *fx, uint32_t m, koma_chain *out)
{
    const fx_store *st = cur_store(fx);
    memset(out, 0, sizeof *out);
    if (st == NULL || m >= st->n) return;
    const fx_rec *r = &st->rec[m];
    const uint32_t *p = fx_effects(st, r);
    const koma__fx_def *d = fx->def;
    size_t n = 0;
    if (r->from != r->to) {
        koma_move *e = &out->el[n++];
        e->kind = r->cap ? KOMA_MOVE_CAPTURE : KOMA_MOVE_QUIET;
        koma_shape_cell(&fx->shape, feen_square(fx, r->from), &e->src);
        koma_shape_cell(&fx->shape, feen_square(fx, r->to), &e->dst);
        if (r->actor != fx->board[r->from]) e->actor = piece_of(d, r->actor);
    }
    for (unsigned i = 0; i < r->nrem && n < KOMA_CHAIN_MAX_ELEMENTS; i++) {
        koma_move *e = &out->el[n++];
        e->kind = KOMA_MOVE_STATIC;
        koma_shape_cell(&fx->shape, feen_square(fx, (int)p[i]), &e->dst);
    }
    for (unsigned i = 0; i < r->nchg && n < KOMA_CHAIN_MAX_ELEMENTS; i++) {
        koma_move *e = &out->el[n++];
        uint32_t c = p[r->nrem + i];
        e->kind = KOMA_MOVE_MUTATE;
        koma_shape_cell(&fx->shape, feen_square(fx, (int)(c >> 16)), &e->dst);
        e->actor = piece_of(d, c & 0xFFFFu);
    }
    if (n == 0) {
        out->el[0].kind = KOMA_MOVE_PASS;
        n = 1;
    }
    out->len = n;
}

size_t koma__fx_move_text(const koma__fx *fx, uint32_t m, char *buf, size_t cap)
{
    koma_chain c;
    koma__fx_move_chain(fx, m, &c);
    if (c.len == 0) {
        if (cap) buf[0] = '\0';
        return 0;
    }
    return koma_chain_write(&c, buf, cap);
}

/* The padded index of a cell, -1 when off the board. */
static int index_of(const koma__fx *fx, const koma_cell *c)
{
    uint32_t sq;
    if (koma_shape_square(&fx->shape, c, &sq, NULL) != 0) return -1;
    koma_cell cc;
    koma_shape_cell(&fx->shape, sq, &cc);
    return fx->base + (cc.idx[1] + fx->pad) * fx->stride + cc.idx[0];
}

int koma__fx_find(koma__fx *fx, const koma_chain *c, uint32_t *out, koma_error *err)
{
    const koma__fx_def *d = fx->def;
    size_t n = koma__fx_generate(fx, err);
    if (n == (size_t)-1) return -1;
    if (koma__fx_defeated(fx) >= 0)
        return koma_error_set(err, KOMA_E_RULES_OVER, 0, "the game is over (a side has lost)");
    const fx_store *st = &fx->stores[fx->nundo];
    /* the record the chain describes (canonical chains only) */
    int from = -1, to = -1, cap = 0;
    uint16_t actor = 0;
    uint32_t eff[2 * KOMA_CHAIN_MAX_ELEMENTS];
    unsigned nrem = 0, nchg = 0;
    int ok = 1;
    for (size_t i = 0; i < c->len && ok; i++) {
        const koma_move *m = &c->el[i];
        if (m->captured != KOMA_PIECE_NONE) ok = 0;
        switch (m->kind) {
        case KOMA_MOVE_PASS:
            break;
        case KOMA_MOVE_QUIET:
        case KOMA_MOVE_CAPTURE: {
            from = index_of(fx, &m->src);
            to = index_of(fx, &m->dst);
            if (from < 0 || to < 0) return koma_error_set(err, KOMA_E_CELL_SHAPE, c->at[i], "a square off the board");
            uint16_t p = fx->board[from];
            if (!FX_PIECE(p)) return koma_error_set(err, KOMA_E_RULES_EMPTY, c->at[i], "no piece on the origin square");
            if (FX_SIDE(p) != fx->turn)
                return koma_error_set(err, KOMA_E_RULES_OWNER, c->at[i], "the piece on the origin belongs to the other side");
            cap = m->kind == KOMA_MOVE_CAPTURE;
            actor = p;
            if (m->actor != KOMA_PIECE_NONE) {
                int k = code_of(d, m->actor);
                if (k < 0) ok = 0;
                else actor = (uint16_t)k;
            }
            break;
        }
        case KOMA_MOVE_STATIC: {
            int sq = index_of(fx, &m->dst);
            if (sq < 0) return koma_error_set(err, KOMA_E_CELL_SHAPE, c->at[i], "a square off the board");
            eff[nrem++] = (uint32_t)sq;
            break;
        }
        case KOMA_MOVE_MUTATE: {
            int sq = index_of(fx, &m->dst), k = code_of(d, m->actor);
            if (sq < 0) return koma_error_set(err, KOMA_E_CELL_SHAPE, c->at[i], "a square off the board");
            if (k < 0) ok = 0;
            else eff[nrem + nchg++] = (uint32_t)sq << 16 | (uint32_t)k;
            break;
        }
        default:
            return koma_error_set(err, KOMA_E_RULES_FORM, c->at[i],
                                  "moves of this game are board moves, captures and changes (no drops)");
        }
    }
    for (size_t i = 0; ok && i < n; i++) {
        const fx_rec *r = &st->rec[i];
        int rf = r->from != r->to ? r->from : -1, rt = r->from != r->to ? r->to : -1;
        if (rf != from || rt != to || r->nrem != nrem || r->nchg != nchg) continue;
        if (from >= 0 && (r->actor != actor || r->cap != cap)) continue;
        if (nrem + nchg && memcmp(st->pool + r->off, eff, (size_t)(nrem + nchg) * sizeof *eff) != 0)
            continue;
        *out = (uint32_t)i;
        return 0;
    }
    return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "no legal move has these effects");
}

int koma__fx_make(koma__fx *fx, uint32_t m, koma_error *err)
{
    const fx_store *st = cur_store(fx);
    if (st == NULL || m >= st->n) return koma_error_set(err, KOMA_E_INTERNAL, 0, "not a move of this position");
    if (apply(fx, st, &st->rec[m]) != 0) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (history)");
    return 0;
}

int koma__fx_threatens(koma__fx *fx, int side, koma_error *err)
{
    if (koma__fx_defeated(fx) >= 0) return 0;
    int turn = fx->turn;
    if (koma__fx_gen(fx, side, &fx->scratch, err) != 0) return -1;
    int found = 0;
    fx->turn = side;
    for (size_t i = 0; i < fx->scratch.n && !found; i++) {
        const fx_rec *r = &fx->scratch.rec[i];
        if (r->nrem == 0 && r->nchg == 0 && !r->cap) continue;
        if (apply(fx, &fx->scratch, r) != 0) {
            fx->turn = turn;
            return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (history)");
        }
        if (!koma__fx_survives(fx, side ^ 1)) found = 1;
        koma__fx_unmake(fx);
    }
    fx->turn = turn;
    return found;
}

/* ---- perft ------------------------------------------------------------------------- */

static int perft_rec(koma__fx *fx, unsigned depth, uint64_t *nodes, koma_error *err)
{
    size_t n = koma__fx_generate(fx, err);
    if (n == (size_t)-1) return -1;
    if (depth == 1) {
        *nodes += n;
        return 0;
    }
    const fx_store *st = &fx->stores[fx->nundo];
    for (size_t i = 0; i < n; i++) {
        if (apply(fx, st, &st->rec[i]) != 0) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (history)");
        int rc = perft_rec(fx, depth - 1, nodes, err);
        koma__fx_unmake(fx);
        if (rc != 0) return -1;
        st = &fx->stores[fx->nundo];   /* the stores may have moved */
    }
    return 0;
}

int koma__fx_perft(koma__fx *fx, unsigned depth, uint64_t *nodes, koma_error *err)
{
    *nodes = 0;
    if (depth == 0) {
        *nodes = 1;
        return 0;
    }
    return perft_rec(fx, depth, nodes, err);
}
