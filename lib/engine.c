/*
 * lib/engine.c — the position engine: board set-up from a game definition,
 * conversion from and to koma_position / FEEN, make and unmake, the Zobrist
 * hash, canonical PMN of moves and "is this PMN move legal here", game endings
 * (DESIGN.md §4, in its order) and play with history (repetition, move limit).
 *
 * Board: a padded mailbox, one byte a square (engine_internal.h); `pad` rows
 * above and below and `pad` columns between ranks, pad = the longest leap
 * component, so a leap from any real square lands on a real square or on
 * KOMA__OFF. Side-relative geometry: the first player moves up the FEEN
 * (towards rank index ranks-1); a second-player vector is the 180° rotation.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"

/* ---- creation ----------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int add_probe(koma__probe *probes, int *n, int off, unsigned code, int limited)
{
    for (int i = 0; i < *n; i++) {
        if (probes[i].off == off) {
            probes[i].mask |= 1ull << code;
            if (limited) probes[i].limited = 1;
            return i;
        }
    }
    probes[*n].off = (int16_t)off;
    probes[*n].mask = 1ull << code;
    probes[*n].limited = (uint8_t)limited;
    return (*n)++;
}

/* 1 when two vectors of kd reach the same displacement on a board whose longer
 * side is `reach` squares (a rider and a leap or another rider in the same
 * direction: "RD", "W2D", "WWDD"); the generator then emits each destination
 * once. */
static int kind_overlaps(const koma__kind *kd, int reach)
{
    enum { R = KOMA__MAX_FILES > KOMA__MAX_RANKS ? KOMA__MAX_FILES : KOMA__MAX_RANKS, W = 2 * R + 1 };
    uint8_t seen[W][W];
    memset(seen, 0, sizeof seen);
    for (unsigned v = 0; v < kd->nvec; v++) {
        int dx = kd->vec[v].dx, dy = kd->vec[v].dy;
        for (int k = 1; kd->vec[v].range == 0 || k <= kd->vec[v].range; k++) {
            int x = k * dx, y = k * dy;
            if (x <= -reach || x >= reach || y <= -reach || y >= reach) break;
            if (seen[x + R][y + R]) return 1;
            seen[x + R][y + R] = 1;
        }
    }
    return 0;
}

int koma_engine_new(const koma_game *g, koma_engine **out, koma_error *err)
{
    *out = NULL;
    if (!g->playable)
        return koma_error_set(err, KOMA_E_GAME_NO_RULES, 0, "game %s has no rule engine yet", g->id);
    koma_engine *e = calloc(1, sizeof *e);
    if (e == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    e->game = g;
    e->royal_captured = (uint8_t)g->royal_captured;
    e->survival = (uint8_t)(g->nsurvival > 0);
    e->files = (int)g->files;
    e->ranks = (int)g->ranks;
    int pad = 1;
    for (unsigned k = 0; k < g->nkinds; k++)
        for (unsigned v = 0; v < g->kinds[k].nvec; v++) {
            int ax = abs(g->kinds[k].vec[v].dx), ay = abs(g->kinds[k].vec[v].dy);
            if (ax > pad) pad = ax;
            if (ay > pad) pad = ay;
        }
    e->pad = pad;
    e->stride = e->files + pad;
    e->base = pad;
    e->size = e->base + (e->ranks + 2 * pad) * e->stride + pad;
    if (e->size > KOMA__MAX_BOARD) {
        free(e);
        return koma_error_set(err, KOMA_E_GAME_LIMIT, 0, "board too large for the rule engine");
    }
    e->nsquares = e->files * e->ranks;
    e->board = malloc((size_t)e->size);
    e->sq_index = malloc((size_t)e->nsquares * sizeof *e->sq_index);
    e->index_sq = malloc((size_t)e->size * sizeof *e->index_sq);
    e->file_of = calloc((size_t)e->size, 1);
    e->last_dist[0] = calloc((size_t)e->size, 1);
    e->last_dist[1] = calloc((size_t)e->size, 1);
    e->in_zone[0] = calloc((size_t)e->size, 1);
    e->in_zone[1] = calloc((size_t)e->size, 1);
    e->nifu = calloc((size_t)2 * g->nkinds * (size_t)e->files, 1);
    e->zboard = malloc((size_t)64 * (size_t)e->size * sizeof *e->zboard);
    if (!e->board || !e->sq_index || !e->index_sq || !e->file_of || !e->last_dist[0] ||
        !e->last_dist[1] || !e->in_zone[0] || !e->in_zone[1] || !e->nifu || !e->zboard) {
        koma_engine_free(e);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    }
    e->shape.ndims = 2;
    e->shape.size[0] = (uint16_t)e->files;
    e->shape.size[1] = (uint16_t)e->ranks;
    e->shape.size[2] = 1;
    e->shape.squares = (uint32_t)e->nsquares;
    memset(e->board, KOMA__OFF, (size_t)e->size);
    for (int i = 0; i < e->size; i++) e->index_sq[i] = -1;
    for (int r = 0; r < e->ranks; r++)
        for (int f = 0; f < e->files; f++) {
            int sq = r * e->files + f;
            int idx = e->base + (r + pad) * e->stride + f;
            e->sq_index[sq] = (int16_t)idx;
            e->index_sq[idx] = (int16_t)sq;
            e->board[idx] = KOMA__EMPTY;
            e->file_of[idx] = (uint8_t)f;
            e->last_dist[KOMA_FIRST][idx] = (uint8_t)r;               /* row 0 = top rank */
            e->last_dist[KOMA_SECOND][idx] = (uint8_t)(e->ranks - 1 - r);
            e->in_zone[KOMA_FIRST][idx] = (uint8_t)((unsigned)r < g->zone);
            e->in_zone[KOMA_SECOND][idx] = (uint8_t)((unsigned)(e->ranks - 1 - r) < g->zone);
        }

    /* movement tables and attack probes */
    int maxdest = 0;
    for (unsigned k = 0; k < g->nkinds; k++) {
        const koma__kind *kd = &g->kinds[k];
        int dest = 0;
        for (int side = 0; side < 2; side++) {
            unsigned code = KOMA__CODE(k, side);
            koma__movement *mv = &e->mv[code];
            for (unsigned v = 0; v < kd->nvec; v++) {
                int off = kd->vec[v].dx - kd->vec[v].dy * e->stride;
                if (side) off = -off;
                if (kd->vec[v].range == 1) {
                    mv->leap[mv->nleap++] = (int16_t)off;
                    add_probe(e->leap_probe[side], &e->nleap_probe[side], off, code, 0);
                    if (side == 0) dest += 1;
                } else {
                    mv->ride[mv->nride].off = (int16_t)off;
                    mv->ride[mv->nride].range = kd->vec[v].range;
                    e->ride_step[code][mv->nride][0] = (int8_t)(side ? -kd->vec[v].dx : kd->vec[v].dx);
                    e->ride_step[code][mv->nride][1] = (int8_t)(side ? kd->vec[v].dy : -kd->vec[v].dy);
                    mv->nride++;
                    int pi = add_probe(e->ride_probe[side], &e->nride_probe[side], off, code,
                                       kd->vec[v].range != 0);
                    e->ride_range[code][pi] = kd->vec[v].range;
                    if (side == 0) {
                        int reach = e->files > e->ranks ? e->files : e->ranks;
                        if (kd->vec[v].range != 0 && kd->vec[v].range < reach) reach = kd->vec[v].range;
                        dest += reach;
                    }
                }
            }
            e->royal_code[code] = kd->royal;
            e->must_rank[code] = g->compulsory_promotion ? 255 : kd->must_promote_ranks;
            e->privilege_code[code] = (uint8_t)(g->kings_privilege && kd->royal);
            e->promoted_code[code] = kd->promoted;
            e->promote_code[code] = kd->promotes_to >= 0 ? KOMA__CODE(kd->promotes_to, side) : 0;
            e->overlap[code] = (uint8_t)kind_overlaps(kd, e->files > e->ranks ? e->files : e->ranks);
        }
        if (dest > maxdest) maxdest = dest;
        if (kd->droppable) {
            e->drop_slots[e->ndrop_slots++] = (uint8_t)k;
            e->drop_slots[e->ndrop_slots++] = (uint8_t)(k + 32);
        }
    }
    e->max_moves = (size_t)e->nsquares * ((size_t)maxdest * 2 + 2 * g->nkinds) + 16;

    uint64_t seed = 0x6B6F6D61ull;        /* "koma": the same keys for every run */
    for (size_t i = 0; i < (size_t)64 * (size_t)e->size; i++) e->zboard[i] = splitmix(&seed);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < KOMA__SLOTS; k++) e->zhand[s][k] = splitmix(&seed);
    e->zturn = splitmix(&seed);

    e->scratch = malloc((KOMA__SCRATCH_LEVELS + 1) * e->max_moves * sizeof *e->scratch);
    if (e->scratch == NULL) {
        koma_engine_free(e);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    }
    if (koma_engine_set_start(e, err) != 0) {
        koma_engine_free(e);
        return -1;
    }
    *out = e;
    return 0;
}

void koma_engine_free(koma_engine *e)
{
    if (e == NULL) return;
    free(e->board);
    free(e->sq_index);
    free(e->index_sq);
    free(e->file_of);
    free(e->last_dist[0]);
    free(e->last_dist[1]);
    free(e->in_zone[0]);
    free(e->in_zone[1]);
    free(e->nifu);
    free(e->zboard);
    free(e->undo);
    free(e->movebuf);
    free(e->scratch);
    free(e);
}

const koma_game *koma_engine_game(const koma_engine *e) { return e->game; }
size_t koma_engine_max_moves(const koma_engine *e) { return e->max_moves; }
int koma_engine_turn(const koma_engine *e) { return e->turn; }
uint64_t koma_engine_hash(const koma_engine *e) { return koma__hash(e); }
size_t koma_engine_ply(const koma_engine *e) { return e->nundo; }

int koma__movebuf(koma_engine *e, unsigned depth, koma_error *err)
{
    if (depth <= e->movebuf_depth) return 0;
    koma_emove *b = realloc(e->movebuf, (size_t)depth * e->max_moves * sizeof *b);
    if (b == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (move buffers)");
    e->movebuf = b;
    e->movebuf_depth = depth;
    return 0;
}

/* ---- positions ------------------------------------------------------------------- */

static uint8_t code_of_piece(const koma_engine *e, koma_piece p)
{
    int k = koma__game_kind_of(e->game, p);
    if (k < 0) return 0;
    uint8_t c = KOMA__CODE(k, koma_piece_side(p));
    if (p & KOMA_PIECE_DERIVED) c |= KOMA__DERIVED;
    return c;
}

static koma_piece piece_of_code(const koma_engine *e, unsigned c)
{
    koma_piece p = e->game->kinds[KOMA__KIND(c)].pin;
    if (c & KOMA__SIDE) p |= KOMA_PIECE_SECOND;
    if (c & KOMA__DERIVED) p |= KOMA_PIECE_DERIVED;
    return p;
}

/* Hand slot -> identity in the hand of side s. */
static koma_piece piece_of_slot(const koma_engine *e, int s, int slot)
{
    return piece_of_code(e, KOMA__CODE(slot & 31, s) | ((slot & 32) ? KOMA__DERIVED : 0));
}

static uint64_t zb(const koma_engine *e, unsigned code, int idx)
{
    return e->zboard[(size_t)(code & 0x3Fu) * (size_t)e->size + (size_t)idx];
}

static void recompute(koma_engine *e)
{
    const koma_game *g = e->game;
    e->hash_board = 0;
    e->hash_hand = 0;
    e->nroyal[0] = e->nroyal[1] = 0;
    e->royal_sq[0] = e->royal_sq[1] = -1;
    e->royal_in_hand = 0;
    e->material[0] = e->material[1] = 0;
    memset(e->nifu, 0, (size_t)2 * g->nkinds * (size_t)e->files);
    for (int sq = 0; sq < e->nsquares; sq++) {
        int idx = e->sq_index[sq];
        unsigned c = e->board[idx];
        if (c == KOMA__EMPTY) continue;
        int s = KOMA__SIDE_OF(c), k = KOMA__KIND(c);
        e->hash_board ^= zb(e, c, idx);
        if (g->kinds[k].royal) {
            e->nroyal[s]++;
            e->royal_sq[s] = idx;
        } else {
            e->material[s]++;
        }
        if (g->kinds[k].nifu) e->nifu[((size_t)s * g->nkinds + (size_t)k) * (size_t)e->files + e->file_of[idx]]++;
    }
    for (int s = 0; s < 2; s++)
        for (int slot = 0; slot < KOMA__SLOTS; slot++) {
            unsigned n = e->hand[s][slot];
            if (n == 0) continue;
            e->hash_hand += (uint64_t)n * e->zhand[s][slot & 31];
            if (g->kinds[slot & 31].royal) e->royal_in_hand += (int)n;
            else e->material[s] += (int)n;
        }
}

/*
 * Whether pos fits game g as koma_engine_set_position requires: its shape and
 * styles, every piece one of the game's, hands of their owner's case holding at
 * most as many of a kind as the board has squares, at most one royal a side
 * with the check rule. Also
 * used on a definition's start position (game.c), so a game that loads can be
 * played from its start.
 */
int koma__position_fits(const koma_game *g, const koma_position *pos, koma_error *err)
{
    if (pos->shape.ndims != 2 || pos->shape.size[0] != g->files || pos->shape.size[1] != g->ranks)
        return koma_error_set(err, KOMA_E_RULES_SHAPE, 0, "%s is played on a %ux%u board", g->id,
                              g->files, g->ranks);
    char lower = (char)(g->style - 'A' + 'a');
    if (pos->style[0] != g->style || pos->style[1] != lower)
        return koma_error_set(err, KOMA_E_RULES_STYLE, 0, "%s positions use the styles %c/%c",
                              g->id, g->style, lower);
    for (uint32_t sq = 0; sq < pos->shape.squares; sq++) {
        koma_piece p = pos->board[sq];
        if (p != KOMA_PIECE_NONE && koma__game_kind_of(g, p) < 0) {
            char b[KOMA_EPIN_BUF];
            koma_epin_write(p, b);
            return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" is not a piece of %s", b, g->id);
        }
    }
    for (int s = 0; s < 2; s++) {
        const koma_hand *h = &pos->hands[s];
        for (size_t i = 0; i < h->len; i++) {
            koma_piece p = h->items[i].piece;
            char b[KOMA_EPIN_BUF];
            koma_epin_write(p, b);
            if (koma__game_kind_of(g, p) < 0)
                return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" in hand is not a piece of %s",
                                      b, g->id);
            if (koma_piece_side(p) != s)
                return koma_error_set(err, KOMA_E_RULES_HAND, 0,
                                      "\"%s\" in the %s player's hand: a hand holds its owner's pieces",
                                      b, s ? "second" : "first");
            if (h->items[i].count > pos->shape.squares)
                return koma_error_set(err, KOMA_E_RULES_HAND, 0, "too many \"%s\" in hand", b);
        }
    }
    if (g->check_rule) {
        for (int s = 0; s < 2; s++) {
            int n = 0;
            for (uint32_t sq = 0; sq < pos->shape.squares; sq++) {
                koma_piece p = pos->board[sq];
                if (p != KOMA_PIECE_NONE && koma_piece_side(p) == s &&
                    g->kinds[koma__game_kind_of(g, p)].royal)
                    n++;
            }
            if (n > 1)
                return koma_error_set(err, KOMA_E_RULES_ROYAL, 0,
                                      "%s: the %s player has %d royal pieces", g->id,
                                      s ? "second" : "first", n);
        }
    }
    return 0;
}

int koma_engine_set_position(koma_engine *e, const koma_position *pos, koma_error *err)
{
    const koma_game *g = e->game;
    if (koma__position_fits(g, pos, err) != 0) return -1;
    uint8_t *board = e->board;
    uint16_t hand[2][KOMA__SLOTS];
    memset(hand, 0, sizeof hand);
    for (int s = 0; s < 2; s++) {
        const koma_hand *h = &pos->hands[s];
        for (size_t i = 0; i < h->len; i++) {
            koma_piece p = h->items[i].piece;
            int k = koma__game_kind_of(g, p);
            hand[s][k + ((p & KOMA_PIECE_DERIVED) ? 32 : 0)] = (uint16_t)h->items[i].count;
        }
    }
    for (int sq = 0; sq < e->nsquares; sq++) {
        koma_piece p = pos->board[sq];
        board[e->sq_index[sq]] = p == KOMA_PIECE_NONE ? KOMA__EMPTY : code_of_piece(e, p);
    }
    memcpy(e->hand, hand, sizeof hand);
    e->turn = pos->turn;
    recompute(e);
    e->nundo = 0;
    if (e->undo == NULL) {
        e->cap_undo = 256;
        e->undo = malloc(e->cap_undo * sizeof *e->undo);
        if (e->undo == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (history)");
    }
    return 0;
}

int koma_engine_set_feen(koma_engine *e, const char *feen, size_t len, koma_error *err)
{
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &pos, err);
    if (rc == 0) rc = koma_engine_set_position(e, &pos, err);
    koma_position_cleanup(&pos);
    return rc;
}

int koma_engine_set_start(koma_engine *e, koma_error *err)
{
    return koma_engine_set_feen(e, e->game->start, e->game->start_len, err);
}

int koma_engine_get_position(const koma_engine *e, koma_position *pos, koma_error *err)
{
    if (koma_position_reset(pos, &e->shape, err) != 0) return -1;
    for (int sq = 0; sq < e->nsquares; sq++) {
        unsigned c = e->board[e->sq_index[sq]];
        pos->board[sq] = c == KOMA__EMPTY ? KOMA_PIECE_NONE : piece_of_code(e, c);
    }
    for (int s = 0; s < 2; s++)
        for (int slot = 0; slot < KOMA__SLOTS; slot++)
            if (e->hand[s][slot] &&
                koma_hand_add(&pos->hands[s], piece_of_slot(e, s, slot), e->hand[s][slot], err) != 0)
                return -1;
    pos->style[0] = e->game->style;
    pos->style[1] = (char)(e->game->style - 'A' + 'a');
    pos->turn = e->turn;
    return 0;
}

int koma_engine_feen(const koma_engine *e, char *buf, size_t cap, size_t *len, koma_error *err)
{
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_engine_get_position(e, &pos, err);
    size_t n = 0;
    if (rc == 0) {
        n = koma_feen_write(&pos, buf, cap);
        if (n >= cap) rc = koma_error_set(err, KOMA_E_FEEN_LENGTH, 0,
                                          "the position's FEEN needs %zu bytes", n + 1);
    }
    koma_position_cleanup(&pos);
    if (rc != 0) {
        /* never a partial FEEN that could pass for a position */
        if (cap) buf[0] = '\0';
        n = 0;
    }
    if (len) *len = n;
    return rc;
}

/* ---- make / unmake ------------------------------------------------------------------ */

static inline uint8_t *nifu_at(koma_engine *e, int s, int k, int idx)
{
    return &e->nifu[((size_t)s * e->game->nkinds + (size_t)k) * (size_t)e->files + e->file_of[idx]];
}

void koma__make(koma_engine *e, koma_emove m, koma__undo *u)
{
    const koma_game *g = e->game;
    int s = e->turn;
    int to = KOMA__M_TO(m);
    u->move = m;
    u->hash_board = e->hash_board;
    u->hash_hand = e->hash_hand;
    if (m & KOMA__M_DROP) {
        int slot = KOMA__M_FROM(m);
        int k = slot & 31;
        uint8_t c = (uint8_t)(KOMA__CODE(k, s) | ((slot & 32) ? KOMA__DERIVED : 0));
        e->hand[s][slot]--;
        e->hash_hand -= e->zhand[s][k];
        e->board[to] = c;
        e->hash_board ^= zb(e, c, to);
        if (g->kinds[k].nifu) (*nifu_at(e, s, k, to))++;
        u->moved = c;
        u->captured = 0;
    } else {
        int from = KOMA__M_FROM(m);
        uint8_t p = e->board[from], c = e->board[to];
        int pk = KOMA__KIND(p);
        u->moved = p;
        u->captured = c;
        if (c != KOMA__EMPTY) {
            int ck = KOMA__KIND(c);
            int hk = (m & KOMA__M_KEEP) ? ck : g->kinds[ck].demotes_to;
            e->hand[s][hk + ((c & KOMA__DERIVED) ? 32 : 0)]++;
            e->hash_hand += e->zhand[s][hk];
            e->hash_board ^= zb(e, c, to);
            if (g->kinds[ck].royal) {
                e->nroyal[s ^ 1]--;
                e->royal_in_hand++;
            } else {
                e->material[s ^ 1]--;
                e->material[s]++;
            }
            if (g->kinds[ck].nifu) (*nifu_at(e, s ^ 1, ck, to))--;
        }
        uint8_t np = p;
        if (m & KOMA__M_PROMOTE) np = (uint8_t)(e->promote_code[p & 0x3F] | (p & KOMA__DERIVED));
        e->board[from] = KOMA__EMPTY;
        e->board[to] = np;
        e->hash_board ^= zb(e, p, from) ^ zb(e, np, to);
        if (e->royal_code[p & 0x3F]) e->royal_sq[s] = to;
        if (g->kinds[pk].nifu) {
            (*nifu_at(e, s, pk, from))--;
            int nk = KOMA__KIND(np);
            if (g->kinds[nk].nifu) (*nifu_at(e, s, nk, to))++;
        }
    }
    e->turn ^= 1;
}

void koma__unmake(koma_engine *e, const koma__undo *u)
{
    const koma_game *g = e->game;
    e->turn ^= 1;
    int s = e->turn;
    koma_emove m = u->move;
    int to = KOMA__M_TO(m);
    if (m & KOMA__M_DROP) {
        int slot = KOMA__M_FROM(m);
        int k = slot & 31;
        e->hand[s][slot]++;
        e->board[to] = KOMA__EMPTY;
        if (g->kinds[k].nifu) (*nifu_at(e, s, k, to))--;
    } else {
        int from = KOMA__M_FROM(m);
        uint8_t p = u->moved, c = u->captured;
        int pk = KOMA__KIND(p);
        if (g->kinds[pk].nifu) {
            int nk = KOMA__KIND(e->board[to]);
            if (g->kinds[nk].nifu) (*nifu_at(e, s, nk, to))--;
            (*nifu_at(e, s, pk, from))++;
        }
        e->board[from] = p;
        e->board[to] = c;
        if (e->royal_code[p & 0x3F]) e->royal_sq[s] = from;
        if (c != KOMA__EMPTY) {
            int ck = KOMA__KIND(c);
            int hk = (m & KOMA__M_KEEP) ? ck : g->kinds[ck].demotes_to;
            e->hand[s][hk + ((c & KOMA__DERIVED) ? 32 : 0)]--;
            if (g->kinds[ck].royal) {
                e->nroyal[s ^ 1]++;
                e->royal_sq[s ^ 1] = to;
                e->royal_in_hand--;
            } else {
                e->material[s ^ 1]++;
                e->material[s]--;
            }
            if (g->kinds[ck].nifu) (*nifu_at(e, s ^ 1, ck, to))++;
        }
    }
    e->hash_board = u->hash_board;
    e->hash_hand = u->hash_hand;
}

static int push_history(koma_engine *e, koma_error *err)
{
    if (e->nundo >= KOMA_ENGINE_MAX_PLIES)
        return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "more than %d plies",
                              KOMA_ENGINE_MAX_PLIES);
    if (e->nundo == e->cap_undo) {
        size_t cap = e->cap_undo * 2;
        koma__undo *u = realloc(e->undo, cap * sizeof *u);
        if (u == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (history)");
        e->undo = u;
        e->cap_undo = cap;
    }
    return 0;
}

void koma_engine_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out)
{
    /* the identity for a same-move rule: mover (no "'"), origin or hand slot
     * (no "'"), target, promotion and privilege flags */
    uint32_t mm = m;
    unsigned mover;
    if (m & KOMA__M_DROP) {
        mm &= ~((uint32_t)KOMA__SLOT_DERIVED << KOMA__M_FROM_SHIFT);
        mover = (unsigned)KOMA__SLOT_KIND(KOMA__M_FROM(m)) + 1;
        out->captures = 0;
        out->resets = 0;
    } else {
        unsigned p = e->board[KOMA__M_FROM(m)];
        mover = KOMA__MOVER(p);
        out->captures = e->board[KOMA__M_TO(m)] != KOMA__EMPTY;
        out->resets = e->game->kinds[KOMA__KIND(p)].resets_move_limit;
    }
    out->key = ((uint64_t)mover << 32) | mm;
}

int koma_engine_make(koma_engine *e, koma_emove m, koma_error *err)
{
    if (push_history(e, err) != 0) return -1;
    koma__make(e, m, &e->undo[e->nundo]);
    e->nundo++;
    return 0;
}

int koma_engine_unmake(koma_engine *e)
{
    if (e->nundo == 0) return -1;
    e->nundo--;
    koma__unmake(e, &e->undo[e->nundo]);
    return 0;
}

int koma_engine_in_check(koma_engine *e) { return koma__in_check(e, e->turn); }

/* ---- PMN ------------------------------------------------------------------------------- */

void koma_engine_move_pmn(const koma_engine *e, koma_emove m, koma_move *out)
{
    memset(out, 0, sizeof *out);
    int to = KOMA__M_TO(m);
    koma_shape_cell(&e->shape, (uint32_t)e->index_sq[to], &out->dst);
    if (m & KOMA__M_DROP) {
        out->kind = KOMA_MOVE_DROP;
        out->piece = piece_of_slot(e, e->turn, KOMA__M_FROM(m));
        return;
    }
    int from = KOMA__M_FROM(m);
    koma_shape_cell(&e->shape, (uint32_t)e->index_sq[from], &out->src);
    unsigned p = e->board[from], c = e->board[to];
    out->kind = c == KOMA__EMPTY ? KOMA_MOVE_QUIET : KOMA_MOVE_CAPTURE;
    if (m & KOMA__M_PROMOTE)
        out->actor = piece_of_code(e, e->promote_code[p & 0x3F] | (p & KOMA__DERIVED));
    if (c != KOMA__EMPTY) {
        int ck = KOMA__KIND(c);
        int hk = (m & KOMA__M_KEEP) ? ck : e->game->kinds[ck].demotes_to;
        out->captured = piece_of_code(e, KOMA__CODE(hk, e->turn) | (c & KOMA__DERIVED));
    }
}

size_t koma_engine_move_write(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF])
{
    koma_move mv;
    koma_engine_move_pmn(e, m, &mv);
    return koma_pmn_write(&mv, buf);
}

size_t koma_engine_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap)
{
    char b[KOMA_PMN_BUF];
    size_t n = koma_engine_move_write(e, m, b);
    if (cap) {
        size_t k = n < cap ? n : cap - 1;
        memcpy(buf, b, k);
        buf[k] = '\0';
    }
    return n;
}

/* Offsets of the parts of the canonical text of m. */
typedef struct pmn_parts {
    size_t src, dst, actor, captured;
} pmn_parts;

static void parts_of(const koma_move *m, pmn_parts *pp)
{
    char cb[KOMA_CELL_BUF], eb[KOMA_EPIN_BUF];
    size_t pos = 0;
    pp->src = 0;
    if (m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP) {
        pos = m->piece ? koma_epin_write(m->piece, eb) : 0;
        pos += 1;
    } else if (m->kind == KOMA_MOVE_STATIC) {
        pos = 1;
    } else if (m->src.ndims) {
        pos = koma_cell_write(&m->src, cb) + 1;
    }
    pp->dst = pos;
    pos += m->dst.ndims ? koma_cell_write(&m->dst, cb) : 0;
    pp->actor = pos;
    if (m->actor) pos += 1 + koma_epin_write(m->actor, eb);
    pp->captured = pos;
}

/* The offset of one part of the canonical text of m (computed for errors only). */
enum { PART_DST, PART_ACTOR, PART_CAPTURED };

static size_t part_offset(const koma_move *m, int part)
{
    pmn_parts pp;
    parts_of(m, &pp);
    return part == PART_DST ? pp.dst : part == PART_ACTOR ? pp.actor : pp.captured;
}

/* The padded index of the cell c of m; on error the offset is that of the part
 * (the origin: 0). */
static int cell_index(const koma_engine *e, const koma_move *m, const koma_cell *c, int part,
                      int *idx, koma_error *err)
{
    uint32_t sq;
    if (koma_shape_square(&e->shape, c, &sq, err) != 0) {
        if (err) {
            size_t offset = part < 0 ? 0 : part_offset(m, part);
            koma_error_shift(err, offset - err->offset);
        }
        return -1;
    }
    *idx = e->sq_index[sq];
    return 0;
}

static int drop_reason(koma_engine *e, int slot, int to, size_t off_piece, size_t off_dst,
                       koma_error *err)
{
    const koma_game *g = e->game;
    const koma__kind *k = &g->kinds[slot & 31];
    int s = e->turn;
    if (e->board[to] != KOMA__EMPTY)
        return koma_error_set(err, KOMA_E_RULES_DROP_OCCUPIED, off_dst, "drop onto an occupied square");
    if (!k->droppable)
        return koma_error_set(err, KOMA_E_RULES_DROP_PIECE, off_piece, "%s %s may not be dropped",
                              k->promoted ? "a promoted" : "this", k->name[0] ? k->name : "piece");
    if (e->last_dist[s][to] < k->drop_forbidden_ranks)
        return koma_error_set(err, KOMA_E_RULES_DROP_RANK, off_dst,
                              "a %s dropped there would have no further move", k->name);
    if (k->nifu && *nifu_at(e, s, slot & 31, to))
        return koma_error_set(err, KOMA_E_RULES_DROP_NIFU, off_dst,
                              "a second unpromoted %s on this file (nifu)", k->name);
    koma__undo u;
    koma__make(e, KOMA__M_DROP | KOMA__MOVE(slot, to), &u);
    int self = g->check_rule && koma__in_check(e, s);
    int mate = !self && k->drop_no_mate && g->check_rule && koma__in_check(e, s ^ 1) &&
               !koma__has_legal_move(e);
    koma__unmake(e, &u);
    if (self)
        return koma_error_set(err, KOMA_E_RULES_CHECK, off_dst, "the drop leaves the king attacked");
    if (mate)
        return koma_error_set(err, KOMA_E_RULES_DROP_MATE, off_dst, "mate by %s drop",
                              k->name[0] ? k->name : "pawn");
    return koma_error_set(err, KOMA_E_RULES_ILLEGAL, off_dst, "illegal drop");
}

/*
 * The recorded move is looked for without generating the legal list: the checks
 * below make the move that koma__gen_pseudo would generate for this origin (or
 * hand slot) and destination, with the promotion and privilege choice the text
 * names, and then one legality test decides (koma__legal_pseudo, the same test
 * koma__gen_legal applies). So the move is found exactly when it is in
 * koma_engine_legal_moves.
 */
int koma_engine_find_move(koma_engine *e, const koma_move *m, koma_emove *out, koma_error *err)
{
    const koma_game *g = e->game;
    int s = e->turn;
    if (koma__over(e))
        return koma_error_set(err, KOMA_E_RULES_OVER, 0, koma__defeated_sides(e) && e->royal_in_hand ?
                              "the game is over (a king was captured)" : "the game is over");
    int to;
    if (m->kind == KOMA_MOVE_DROP) {
        if (cell_index(e, m, &m->dst, PART_DST, &to, err) != 0) return -1;
        int slot = -1;
        if (m->piece == KOMA_PIECE_NONE) {
            /* `*e5`: the one droppable kind in hand */
            int found = 0;
            for (int sl = 0; sl < KOMA__SLOTS; sl++)
                if (e->hand[s][sl] && g->kinds[sl & 31].droppable) {
                    found++;
                    slot = sl;
                }
            if (found != 1)
                return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, found ?
                                      "more than one kind in hand could be dropped: write the piece" :
                                      "nothing droppable in hand");
        } else {
            int k = koma__game_kind_of(g, m->piece);
            if (k < 0 || koma_piece_side(m->piece) != s) {
                char b[KOMA_EPIN_BUF];
                koma_epin_write(m->piece, b);
                return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, "\"%s\" is not in the mover's hand", b);
            }
            slot = k + ((m->piece & KOMA_PIECE_DERIVED) ? 32 : 0);
            if (e->hand[s][slot] == 0) {
                char b[KOMA_EPIN_BUF];
                koma_epin_write(m->piece, b);
                return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, "\"%s\" is not in the mover's hand", b);
            }
        }
        if (m->actor != KOMA_PIECE_NONE)
            return koma_error_set(err, KOMA_E_RULES_PROMOTION, part_offset(m, PART_ACTOR),
                                  "a drop does not promote");
        koma_emove em = KOMA__M_DROP | KOMA__MOVE(slot, to);
        if (koma__drop_pseudo(e, slot, to) && koma__legal_pseudo(e, em)) {
            *out = em;
            return 0;
        }
        return drop_reason(e, slot, to, 0, part_offset(m, PART_DST), err);
    }
    if (m->kind != KOMA_MOVE_QUIET && m->kind != KOMA_MOVE_CAPTURE)
        return koma_error_set(err, KOMA_E_RULES_FORM, 0, "%s uses quiet moves, captures and drops only",
                              g->id);
    int from;
    if (cell_index(e, m, &m->src, -1, &from, err) != 0) return -1;
    if (cell_index(e, m, &m->dst, PART_DST, &to, err) != 0) return -1;
    unsigned p = e->board[from], c = e->board[to];
    if (p == KOMA__EMPTY) return koma_error_set(err, KOMA_E_RULES_EMPTY, 0, "no piece on the origin square");
    if (KOMA__SIDE_OF(p) != s)
        return koma_error_set(err, KOMA_E_RULES_OWNER, 0, "the piece on the origin belongs to the other side");
    if (c != KOMA__EMPTY && KOMA__SIDE_OF(c) == s)
        return koma_error_set(err, KOMA_E_RULES_OCCUPIED, part_offset(m, PART_DST),
                              "the destination holds a piece of the mover");
    if ((c == KOMA__EMPTY) != (m->kind == KOMA_MOVE_QUIET))
        return koma_error_set(err, KOMA_E_RULES_OPERATOR, part_offset(m, PART_DST) - 1,
                              c == KOMA__EMPTY ? "capture onto an empty square (write '-')"
                                               : "move onto an enemy piece (write '+')");
    if (!koma__reaches(e, (uint8_t)p, from, to, 0)) {
        if (!koma__reaches(e, (uint8_t)p, from, to, 1))
            return koma_error_set(err, KOMA_E_RULES_PATTERN, part_offset(m, PART_DST),
                                  "the %s cannot move that way", g->kinds[KOMA__KIND(p)].name);
        return koma_error_set(err, KOMA_E_RULES_BLOCKED, part_offset(m, PART_DST), "the path is blocked");
    }
    koma_emove em = KOMA__MOVE(from, to);
    int can_promote = e->promote_code[p & 0x3F] && (e->in_zone[s][from] || e->in_zone[s][to]);
    if (m->actor != KOMA_PIECE_NONE) {
        koma_piece want = can_promote ? piece_of_code(e, e->promote_code[p & 0x3F] | (p & KOMA__DERIVED)) : 0;
        if (!can_promote || m->actor != want)
            return koma_error_set(err, KOMA_E_RULES_PROMOTION, part_offset(m, PART_ACTOR), can_promote ?
                                  "wrong promoted identity" : "this move cannot promote");
        em |= KOMA__M_PROMOTE;
    } else if (can_promote && (g->compulsory_promotion ||
                               e->last_dist[s][to] < g->kinds[KOMA__KIND(p)].must_promote_ranks)) {
        return koma_error_set(err, KOMA_E_RULES_MUSTPROMOTE, part_offset(m, PART_ACTOR),
                              "the move must promote");
    }
    if (c != KOMA__EMPTY) {
        int ck = KOMA__KIND(c);
        koma_piece plain = piece_of_code(e, KOMA__CODE(g->kinds[ck].demotes_to, s) | (c & KOMA__DERIVED));
        int privilege = g->kings_privilege && e->royal_code[p & 0x3F] && g->kinds[ck].promoted;
        if (m->captured == plain) {
            /* reverted */
        } else if (privilege && m->captured == piece_of_code(e, KOMA__CODE(ck, s) | (c & KOMA__DERIVED))) {
            em |= KOMA__M_KEEP;
        } else {
            char b[KOMA_EPIN_BUF];
            koma_epin_write(plain, b);
            return koma_error_set(err, KOMA_E_RULES_CAPTURED, part_offset(m, PART_CAPTURED),
                                  "the captured piece enters the hand as \"%s\"%s", b,
                                  privilege ? " (or kept promoted)" : "");
        }
    } else if (m->captured != KOMA_PIECE_NONE) {
        return koma_error_set(err, KOMA_E_RULES_CAPTURED, part_offset(m, PART_CAPTURED),
                              "nothing is captured");
    }
    /* em is now the pseudo-legal move koma__gen_pseudo makes for this text */
    if (koma__legal_pseudo(e, em)) {
        *out = em;
        return 0;
    }
    if (g->check_rule) {
        koma__undo u;
        koma__make(e, em, &u);
        int self = koma__in_check(e, s);
        koma__unmake(e, &u);
        if (self)
            return koma_error_set(err, KOMA_E_RULES_CHECK, part_offset(m, PART_DST),
                                  "the move leaves the king attacked");
    }
    return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "illegal move");
}

int koma_engine_parse_move(koma_engine *e, const char *s, size_t len, koma_emove *out,
                           koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(s, len, &m, err) != 0) return -1;
    return koma_engine_find_move(e, &m, out, err);
}

/* ---- endings -------------------------------------------------------------------------- */

int koma__bare(const koma_engine *e, int s)
{
    return e->nroyal[s] > 0 && e->material[s] == 0;
}

int koma__defeated_sides(const koma_engine *e)
{
    const koma_game *g = e->game;
    int lost = 0;
    if (e->royal_captured && e->royal_in_hand > 0) {
        /* the holder of a royal captured it: the other side lost */
        for (unsigned k = 0; k < g->nkinds; k++) {
            if (!g->kinds[k].royal) continue;
            for (int s = 0; s < 2; s++)
                if (e->hand[s][k] || e->hand[s][k + KOMA__SLOT_DERIVED]) lost |= 1 << (s ^ 1);
        }
    }
    if (e->survival) {
        /* a side survives while its board holds every piece of one set */
        uint16_t count[2][KOMA__MAX_KINDS];
        memset(count, 0, sizeof count);
        for (int sq = 0; sq < e->nsquares; sq++) {
            unsigned c = e->board[e->sq_index[sq]];
            if (c != KOMA__EMPTY) count[KOMA__SIDE_OF(c)][KOMA__KIND(c)]++;
        }
        for (int s = 0; s < 2; s++) {
            int survives = 0;
            for (unsigned i = 0; i < g->nsurvival && !survives; i++) {
                const struct koma__survival_set *set = &g->survival[i];
                unsigned j = 0;
                while (j < set->n && count[s][set->kinds[j]]) j++;
                survives = j == set->n;
            }
            if (!survives) lost |= 1 << s;
        }
    }
    return lost;
}

int koma__finished(const koma_engine *e)
{
    if (koma__over(e)) return 1;
    return e->game->bare_king && koma__bare(e, e->turn ^ 1);
}

static void set_ending(const koma_game *g, koma_ending *out, koma_status st, int side)
{
    out->over = 1;
    out->status = st;
    out->side = side;
    out->result = koma_game_result(g, st, side);
}

void koma_engine_position_ending(koma_engine *e, koma_ending *out)
{
    const koma_game *g = e->game;
    int s = e->turn;
    memset(out, 0, sizeof *out);
    out->side = -1;
    int lost = koma__defeated_sides(e);
    if (lost) {
        /* both sides defeated: the side that has just moved resolved its
         * captures first, so the side to move lost */
        int victim = lost == 3 ? s : (lost & (1 << KOMA_FIRST)) ? KOMA_FIRST : KOMA_SECOND;
        set_ending(g, out, KOMA_STATUS_MAREKING, victim);
        return;
    }
    if (!koma__has_legal_move(e)) {
        int in_check = koma__in_check(e, s);
        int kind = in_check ? g->nolegal_check : g->nolegal_other;
        koma_status st = kind == KOMA__NL_CHECKMATE ? KOMA_STATUS_CHECKMATE
                       : kind == KOMA__NL_STALEMATE ? KOMA_STATUS_STALEMATE : KOMA_STATUS_NOMOVE;
        set_ending(g, out, st, s);
        return;
    }
    if (g->bare_king && koma__bare(e, s ^ 1)) {
        set_ending(g, out, KOMA_STATUS_BAREKING, s ^ 1);
        if (koma__bare(e, s)) out->result = KOMA_RESULT_DRAW;
    }
}

int koma_engine_threatens(koma_engine *e, int side)
{
    /* a royal of the other side attacked (check) */
    if (koma__in_check(e, side ^ 1)) return 1;
    if (!e->survival) return 0;
    /* a piece of the other side whose capture would fail its survival test */
    const koma_game *g = e->game;
    int other = side ^ 1;
    uint16_t count[KOMA__MAX_KINDS];
    memset(count, 0, sizeof count);
    for (int sq = 0; sq < e->nsquares; sq++) {
        unsigned c = e->board[e->sq_index[sq]];
        if (c != KOMA__EMPTY && KOMA__SIDE_OF(c) == other) count[KOMA__KIND(c)]++;
    }
    for (int sq = 0; sq < e->nsquares; sq++) {
        int idx = e->sq_index[sq];
        unsigned c = e->board[idx];
        if (c == KOMA__EMPTY || KOMA__SIDE_OF(c) != other) continue;
        int k = KOMA__KIND(c), survives = 0;
        count[k]--;
        for (unsigned i = 0; i < g->nsurvival && !survives; i++) {
            const struct koma__survival_set *set = &g->survival[i];
            unsigned j = 0;
            while (j < set->n && count[set->kinds[j]]) j++;
            survives = j == set->n;
        }
        count[k]++;
        if (!survives && koma__attacked(e, idx, side)) return 1;
    }
    return 0;
}
