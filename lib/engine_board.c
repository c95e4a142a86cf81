/*
 * lib/engine_board.c — the mailbox engine's board (the lowest layer of the mailbox
 * backend, engine_backend.h): an engine made from a game definition, positions
 * set and read (koma_position; FEEN is the facade's, engine.c), make and unmake,
 * the Zobrist hash, the facts of a move the history rules need, and what the pieces alone say: a side defeated (the game's
 * `defeat` data), a bare king. Move generation is engine_movegen.c's; the legality of
 * a named move and the endings, engine_rules.c's.
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

#if KOMA__HAVE_BB
static int dir_of(koma_engine *e, int off)
{
    for (int d = 0; d < e->ndirs; d++)
        if (e->dir_off[d] == off) return d;
    if (e->ndirs == KOMA__BB_DIRS) return -1;
    e->dir_off[e->ndirs] = (int16_t)off;
    return e->ndirs++;
}

/*
 * The bitboard tables, compiled from the movement tables (e->mv, the probes):
 * leap destinations and the two-move squares (a promotion that may be declined)
 * of every mover code on every square, the rays of every ride direction, the
 * drop ranks. build_bb returns 0 with e->use_bb set, or 0 with it clear when the
 * board or the rides do not fit (the mailbox code then does everything), -1 out
 * of memory; its phases below, in order.
 */
#define RAYB(e, d, sq) ((e)->ray_bb[(size_t)(d) * (size_t)(e)->nsquares + (size_t)(sq)])

/* The ride directions of every mover code and of every ride probe; whether a
 * code's (a side's) rides are all unlimited. 0 when there are too many
 * directions. */
static int bb_directions(koma_engine *e)
{
    const koma_game *g = e->game;
    e->ndirs = 0;
    memset(e->dir_reach, 0, sizeof e->dir_reach);
    for (unsigned code = 0; code < KOMA__MOVERS; code++) {
        const koma__movement *mv = &e->mv[code];
        int unlimited = 1;
        for (int i = 0; i < mv->nride; i++) {
            int d = dir_of(e, mv->ride[i].off), r = dir_of(e, -mv->ride[i].off);
            if (d < 0 || r < 0) return 0;
            e->ride_dir[code][i] = (uint8_t)d;
            uint8_t most = mv->ride[i].range == 0 ? 0xFF : mv->ride[i].range;
            if (most > e->dir_reach[code][d]) e->dir_reach[code][d] = most;
            if (mv->ride[i].range != 0 && mv->ride[i].range < (e->files > e->ranks ? e->files : e->ranks))
                unlimited = 0;
        }
        e->bb_rides[code] = (uint8_t)unlimited;
    }
    for (int s = 0; s < 2; s++) {
        e->bb_side[s] = 1;
        for (unsigned k = 0; k < g->nkinds; k++)
            if (!e->bb_rides[KOMA__CODE(k, s)]) e->bb_side[s] = 0;
    }
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < e->nride_probe[s]; i++) {
            int d = dir_of(e, -e->ride_probe[s][i].off);
            if (d < 0) return 0;
            e->probe_dir[s][i] = (uint8_t)d;
        }
    return 1;
}

/* Each square's bit, the rays of every direction, and of every mover code on
 * every square: its leaps, its two-move squares, its reach on an empty board. */
static int bb_squares(koma_engine *e)
{
    int n = e->nsquares;
    e->bit = calloc((size_t)e->size, sizeof *e->bit);
    e->sq_bb = calloc((size_t)KOMA__MOVERS * (size_t)n, sizeof *e->sq_bb);
    e->full_bb = calloc((size_t)KOMA__MOVERS * (size_t)n, sizeof *e->full_bb);
    e->ray_bb = calloc((size_t)(e->ndirs ? e->ndirs : 1) * (size_t)n, sizeof *e->ray_bb);
    if (!e->bit || !e->sq_bb || !e->full_bb || !e->ray_bb) return -1;
    for (int sq = 0; sq < n; sq++) e->bit[e->sq_index[sq]] = (koma__bb)1 << sq;
    for (int d = 0; d < e->ndirs; d++)
        for (int sq = 0; sq < n; sq++) {
            koma__bb r = 0;
            for (int t = e->sq_index[sq] + e->dir_off[d]; e->index_sq[t] >= 0; t += e->dir_off[d])
                r |= e->bit[t];
            e->ray_bb[(size_t)d * (size_t)n + (size_t)sq] = r;
        }
    for (unsigned code = 0; code < KOMA__MOVERS; code++) {
        const koma__movement *mv = &e->mv[code];
        int s = KOMA__SIDE_OF(code);
        /* where a promoter may promote: from the zone, anywhere it may stop
         * unpromoted (far enough from the last rank); from outside, the zone's */
        koma__bb may_stop = 0, zone = 0;
        if (e->promote_code[code])
            for (int to_sq = 0; to_sq < n; to_sq++) {
                int to = e->sq_index[to_sq];
                if (e->last_dist[s][to] < e->must_rank[code]) continue;
                may_stop |= e->bit[to];
                if (e->in_zone[s][to]) zone |= e->bit[to];
            }
        for (int sq = 0; sq < n; sq++) {
            int from = e->sq_index[sq];
            koma__bb st = 0, full;
            for (int i = 0; i < mv->nleap; i++)
                if (e->index_sq[from + mv->leap[i]] >= 0) st |= e->bit[from + mv->leap[i]];
            full = st;
            for (int i = 0; i < mv->nride; i++)
                full |= e->ray_bb[(size_t)e->ride_dir[code][i] * (size_t)n + (size_t)sq];
            koma__bb two = e->in_zone[s][from] ? may_stop : zone;
            e->sq_bb[(size_t)code * (size_t)n + (size_t)sq].step = st;
            e->sq_bb[(size_t)code * (size_t)n + (size_t)sq].two = two;
            e->full_bb[(size_t)code * (size_t)n + (size_t)sq] = full;
        }
    }
    return 0;
}

/* Where each square's rays go, for the royal scan: the lines of the ride
 * probes, the squares leapers reach a square from, the leapers of each offset,
 * the direction from one square to another. */
static int bb_royal_scan(koma_engine *e)
{
    const koma_game *g = e->game;
    int n = e->nsquares;
    e->probe_lines = calloc((size_t)2 * (size_t)n, sizeof *e->probe_lines);
    e->leap_from = calloc((size_t)2 * (size_t)n, sizeof *e->leap_from);
    e->dir_to = malloc((size_t)n * (size_t)n);
    e->leap_span = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < e->nleap_probe[s]; i++)
            if (abs(e->leap_probe[s][i].off) > e->leap_span) e->leap_span = abs(e->leap_probe[s][i].off);
    e->leap_by = calloc((size_t)2 * (size_t)(2 * e->leap_span + 1), sizeof *e->leap_by);
    if (!e->probe_lines || !e->leap_from || !e->dir_to || !e->leap_by) return -1;
    for (int s = 0; s < 2; s++) e->leap_mid[s] = e->leap_by + (size_t)s * (size_t)(2 * e->leap_span + 1) + e->leap_span;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < e->nleap_probe[s]; i++)
            e->leap_by[(size_t)s * (size_t)(2 * e->leap_span + 1) + (size_t)(e->leap_probe[s][i].off + e->leap_span)] =
                e->leap_probe[s][i].mask;
    for (int s = 0; s < 2; s++)        /* (the other side's leaps are the reversed vectors) */
        for (unsigned k = 0; k < g->nkinds; k++)
            for (int sq = 0; sq < n; sq++)
                e->leap_from[(size_t)s * (size_t)n + (size_t)sq] |=
                    e->sq_bb[(size_t)KOMA__CODE(k, s ^ 1) * (size_t)n + (size_t)sq].step;
    memset(e->dir_to, 0xFF, (size_t)n * (size_t)n);
    for (int d = 0; d < e->ndirs && e->dir_to; d++)
        for (int sq = 0; sq < n && e->dir_to; sq++)
            for (int t = e->sq_index[sq] + e->dir_off[d]; e->index_sq[t] >= 0; t += e->dir_off[d]) {
                uint8_t *at = &e->dir_to[(size_t)sq * (size_t)n + (size_t)e->index_sq[t]];
                if (*at != 0xFF) {         /* two directions reach it: walk the probes */
                    free(e->dir_to);
                    e->dir_to = NULL;
                    break;
                }
                *at = (uint8_t)d;
            }
    for (int s = 0; s < 2; s++) {
        memset(e->probe_of[s], -1, sizeof e->probe_of[s]);
        for (int i = 0; i < e->nride_probe[s]; i++) {
            int d = e->probe_dir[s][i];
            e->probe_of[s][d] = (int8_t)i;
            for (int sq = 0; sq < n; sq++) e->probe_lines[(size_t)s * (size_t)n + (size_t)sq] |= RAYB(e, d, sq);
        }
    }
    return 0;
}

/* The squares of each file (nifu), and where each kind may be dropped. */
static void bb_files_drops(koma_engine *e)
{
    const koma_game *g = e->game;
    for (int f = 0; f < e->files; f++) {
        e->file_bb[f] = 0;
        for (int r = 0; r < e->ranks; r++) e->file_bb[f] |= (koma__bb)1 << (r * e->files + f);
    }
    for (int s = 0; s < 2; s++)
        for (unsigned k = 0; k < g->nkinds; k++) {
            e->drop_bb[s][k] = 0;
            for (int sq = 0; sq < e->nsquares; sq++)
                if (e->last_dist[s][e->sq_index[sq]] >= g->kinds[k].drop_forbidden_ranks)
                    e->drop_bb[s][k] |= (koma__bb)1 << sq;
        }
}

/* Leaper classes: codes of a side with the same leaps and promotion rule, no
 * ride, not royal, no overlapping vectors (moved together by perft's count);
 * every code's sets of squares (set_of). */
static int bb_leaper_classes(koma_engine *e)
{
    const koma_game *g = e->game;
    int n = e->nsquares;
    int nsteps = 0;
    for (unsigned code = 0; code < KOMA__MOVERS; code++) nsteps += e->mv[code].nleap;
    e->lstep = calloc((size_t)(nsteps ? nsteps : 1), sizeof *e->lstep);
    if (e->lstep == NULL) return -1;
    nsteps = 0;
    for (int s = 0; s < 2; s++) {
        e->nlclass[s] = 0;
        for (unsigned k = 0; k < g->nkinds; k++) {
            unsigned code = KOMA__CODE(k, s);
            const koma__movement *mv = &e->mv[code];
            e->set_of[code][1] = (uint8_t)(mv->nride ? KOMA__SET_RIDERS(s) : 0);
            if (e->royal_code[code]) {
                e->set_of[code][0] = KOMA__SET_ROYAL(s);
                continue;
            }
            if (mv->nride || e->overlap[code] || e->privilege_code[code]) {
                e->set_of[code][0] = KOMA__SET_PIECES(s);
                continue;
            }
            int j = 0;
            for (; j < e->nlclass[s]; j++) {
                unsigned c0 = (unsigned)__builtin_ctzll(e->lclass[s][j].codes);
                const koma__movement *m0 = &e->mv[c0];
                if (m0->nleap == mv->nleap && !memcmp(m0->leap, mv->leap, (size_t)mv->nleap * sizeof mv->leap[0]) &&
                    (e->promote_code[c0] != 0) == (e->promote_code[code] != 0) &&
                    e->must_rank[c0] == e->must_rank[code])
                    break;
            }
            e->set_of[code][0] = (uint8_t)KOMA__SET_CLASS(s, j);
            if (j < e->nlclass[s]) {
                e->lclass[s][j].codes |= 1ull << code;
                continue;
            }
            koma__bbclass *cl = &e->lclass[s][e->nlclass[s]++];
            cl->codes = 1ull << code;
            cl->step = nsteps;
            cl->nstep = 0;
            for (int i = 0; i < mv->nleap; i++) {
                koma__bbstep *st = &e->lstep[nsteps];
                st->valid = st->two = 0;
                st->shift = 0;
                for (int sq = 0; sq < n; sq++) {
                    int to = e->sq_index[sq], from = to - mv->leap[i];
                    if (e->index_sq[from] < 0) continue;
                    st->shift = sq - e->index_sq[from];
                    st->valid |= e->bit[to];
                    if (e->promote_code[code] && (e->in_zone[s][from] | e->in_zone[s][to]) &&
                        e->last_dist[s][to] >= e->must_rank[code])
                        st->two |= e->bit[to];
                }
                if (st->valid) {
                    nsteps++;
                    cl->nstep++;
                }
            }
        }
    }
    return 0;
}

static int build_bb(koma_engine *e)
{
    e->use_bb = 0;
    if (e->nsquares > KOMA__BB_SQUARES || !bb_directions(e)) return 0;
    if (bb_squares(e) != 0 || bb_royal_scan(e) != 0) return -1;
    bb_files_drops(e);
    if (bb_leaper_classes(e) != 0) return -1;
    e->use_bb = 1;
    e->lines = e->dir_to != NULL;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    e->popcnt = __builtin_cpu_supports("popcnt") != 0;
#endif
    return 0;
}
#endif

/* The board's geometry: the padded mailbox (pad = the longest leap component)
 * and its maps (square <-> padded index, file, distance to each side's last
 * rank, promotion zones), allocated with the other per-square tables. -1 with
 * err (a board too large, memory). */
static int board_geometry(koma_engine *e, koma_error *err)
{
    const koma_game *g = e->game;
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
    if (e->size > KOMA__MAX_BOARD)
        return koma_error_set(err, KOMA_E_GAME_LIMIT, 0, "board too large for the rule engine");
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
    e->zboard = malloc((size_t)KOMA__MOVERS * (size_t)e->size * sizeof *e->zboard);
    if (!e->board || !e->sq_index || !e->index_sq || !e->file_of || !e->last_dist[0] ||
        !e->last_dist[1] || !e->in_zone[0] || !e->in_zone[1] || !e->nifu || !e->zboard)
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    e->shape.ndims = 2;
    e->shape.size[0] = (uint16_t)e->files;
    e->shape.size[1] = (uint16_t)e->ranks;
    e->shape.size[2] = 1;
    e->shape.squares = (uint32_t)e->nsquares;
    e->cell_base = e->base + (e->ranks - 1 + pad) * e->stride;
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
    return 0;
}

/* The movement tables and attack probes of every mover code, the per-code rule
 * facts (royal, promotion, privilege, overlapping vectors), the droppable hand
 * slots, and the size of a move buffer. */
static void movement_tables(koma_engine *e)
{
    const koma_game *g = e->game;
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
            e->drop_slots[e->ndrop_slots++] = (uint8_t)(k + KOMA__SLOT_DERIVED);
            e->drop_mask |= 1ull << k | 1ull << (k + KOMA__SLOT_DERIVED);
        }
    }
    e->max_moves = (size_t)e->nsquares * ((size_t)maxdest * 2 + 2 * g->nkinds) + 16;
}

/* The Zobrist keys, from a fixed seed ("koma"): the same keys for every run. */
static void zobrist_keys(koma_engine *e)
{
    uint64_t seed = 0x6B6F6D61ull;
    for (size_t i = 0; i < (size_t)KOMA__MOVERS * (size_t)e->size; i++) e->zboard[i] = splitmix(&seed);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < KOMA__SLOTS; k++) e->zhand[s][k] = splitmix(&seed);
    e->zturn = splitmix(&seed);
}

/* The mailbox engine of g, without a position (the facade, engine.c, sets the
 * start): the board, the movement tables, the keys, the look-ahead scratch and
 * the bitboard tables, in that order. */
int koma__mb_create(const koma_game *g, koma_engine **out, koma_error *err)
{
    *out = NULL;
    koma_engine *e = calloc(1, sizeof *e);
    if (e == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    e->game = g;
    for (unsigned p = 0; p <= KOMA_PIECE_MASK; p++) e->kind_of_pin[p] = (int8_t)koma__game_kind_of(g, p);
    e->royal_captured = (uint8_t)g->royal_captured;
    e->survival = (uint8_t)(g->nsurvival > 0);
    e->plain_end = (uint8_t)(!e->survival && !g->bare_king);
    if (board_geometry(e, err) != 0) {
        koma__mb_destroy(e);
        return -1;
    }
    movement_tables(e);
    zobrist_keys(e);
    koma__mb_feen_table(e);
    e->scratch = malloc((KOMA__SCRATCH_LEVELS + 1) * e->max_moves * sizeof *e->scratch);
    int bb_rc = 0;
#if KOMA__HAVE_BB
    bb_rc = build_bb(e);
#endif
    if (e->scratch == NULL || bb_rc != 0) {
        koma__mb_destroy(e);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (engine)");
    }
    *out = e;
    return 0;
}

static void setup_free(struct koma__mb_setup *c);

void koma__mb_destroy(koma_engine *e)
{
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
    free(e->bit);
    free(e->sq_bb);
    free(e->full_bb);
    free(e->ray_bb);
    free(e->lstep);
    free(e->dir_to);
    free(e->probe_lines);
    free(e->leap_from);
    free(e->leap_by);
    setup_free(e->setup);
    free(e);
}

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
    int k = e->kind_of_pin[p & KOMA_PIECE_MASK];        /* koma__game_kind_of by table */
    if (k < 0) return 0;
    uint8_t c = KOMA__CODE(k, koma_piece_side(p));
    if (p & KOMA_PIECE_DERIVED) c |= KOMA__DERIVED;
    return c;
}

/* Hand slot -> identity in the hand of side s. */
koma_piece koma__piece_of_slot(const koma_engine *e, int s, int slot)
{
    return koma__piece_of_code(e, KOMA__CODE(KOMA__SLOT_KIND(slot), s) | ((slot & KOMA__SLOT_DERIVED) ? KOMA__DERIVED : 0));
}

static uint64_t zb(const koma_engine *e, unsigned code, int idx)
{
    return e->zboard[(size_t)KOMA__MOVER(code) * (size_t)e->size + (size_t)idx];
}

static void recompute(koma_engine *e)
{
    const koma_game *g = e->game;
    e->hash_board = 0;
    e->hash_hand = 0;
    e->nroyal[0] = e->nroyal[1] = 0;
    e->royal_sq[0] = e->royal_sq[1] = -1;
    e->royal_in_hand = 0;
    e->royal_known = 0;
    e->quick = 0;
    e->material[0] = e->material[1] = 0;
    memset(e->nifu, 0, (size_t)2 * g->nkinds * (size_t)e->files);
    e->held[0] = e->held[1] = 0;
    memset(e->occ, 0, sizeof e->occ);
    memset(e->set_bb, 0, sizeof e->set_bb);
    for (int sq = 0; sq < e->nsquares; sq++) {
        int idx = e->sq_index[sq];
        unsigned c = e->board[idx];
        if (c == KOMA__EMPTY) continue;
        int s = KOMA__SIDE_OF(c), k = KOMA__KIND(c);
#if KOMA__HAVE_BB
        if (e->use_bb) {
            e->occ[s] |= e->bit[idx];
            koma__set_flip(e, c, e->bit[idx]);
        }
#endif
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
            e->held[s] |= 1ull << slot;
            e->hash_hand += (uint64_t)n * e->zhand[s][KOMA__SLOT_KIND(slot)];
            if (g->kinds[KOMA__SLOT_KIND(slot)].royal) e->royal_in_hand += (int)n;
            else e->material[s] += (int)n;
        }
}

/* ---- the last position set, kept ----------------------------------------------------- */

/* What koma__mb_set_position makes of a position: every field of the engine's
 * state (struct koma_engine, "state") that it and recompute set. */
struct koma__mb_setup {
    int valid;
    koma_position pos;                 /* the position as given */
    uint8_t *board;                    /* e->size bytes */
    uint8_t *nifu;                     /* 2 * nkinds * files bytes */
    int turn;
    uint16_t hand[2][KOMA__SLOTS];
    uint64_t held[2];
    int royal_sq[2], nroyal[2], royal_in_hand, material[2];
    uint64_t hash_board, hash_hand;
    koma__bb occ[2];
    koma__bb set_bb[KOMA__BB_SETS];
};

static size_t nifu_bytes(const koma_engine *e)
{
    return (size_t)2 * e->game->nkinds * (size_t)e->files;
}

static void setup_free(struct koma__mb_setup *c)
{
    if (c == NULL) return;
    koma_position_cleanup(&c->pos);
    free(c->board);
    free(c->nifu);
    free(c);
}

/* The state between the engine and the kept setup: into the setup, or (back)
 * from it into the engine. */
static void setup_copy(koma_engine *e, struct koma__mb_setup *c, int back)
{
#define STATE(f) (back ? memcpy(&e->f, &c->f, sizeof e->f) : memcpy(&c->f, &e->f, sizeof e->f))
    STATE(turn);
    STATE(hand);
    STATE(held);
    STATE(royal_sq);
    STATE(nroyal);
    STATE(royal_in_hand);
    STATE(material);
    STATE(hash_board);
    STATE(hash_hand);
    STATE(occ);
    STATE(set_bb);
#undef STATE
    uint8_t *board = back ? e->board : c->board, *nifu = back ? e->nifu : c->nifu;
    memcpy(board, back ? c->board : e->board, (size_t)e->size);
    memcpy(nifu, back ? c->nifu : e->nifu, nifu_bytes(e));
}

/* Keep pos and the state set from it (nothing kept when memory is short: the
 * next position is then set in full). */
static void setup_keep(koma_engine *e, const koma_position *pos)
{
    struct koma__mb_setup *c = e->setup;
    if (c == NULL) {
        if ((c = calloc(1, sizeof *c)) == NULL) return;
        koma_position_init(&c->pos);
        c->board = malloc((size_t)e->size);
        c->nifu = malloc(nifu_bytes(e) ? nifu_bytes(e) : 1);
        if (c->board == NULL || c->nifu == NULL) {
            setup_free(c);
            return;
        }
        e->setup = c;
    }
    c->valid = 0;
    if (koma_position_copy(&c->pos, pos, NULL) != 0) return;
    setup_copy(e, c, 0);
    c->valid = 1;
}

/* The state of the kept position set again, when pos is that position: 1. */
static int setup_again(koma_engine *e, const koma_position *pos)
{
    struct koma__mb_setup *c = e->setup;
    if (c == NULL || !c->valid || e->undo == NULL || !koma_position_equal(&c->pos, pos)) return 0;
    setup_copy(e, c, 1);
    e->royal_known = 0;
    e->quick = 0;
    e->nundo = 0;
    return 1;
}

int koma__mb_set_position(koma_engine *e, const koma_position *pos, koma_error *err)
{
    const koma_game *g = e->game;
    if (setup_again(e, pos)) return 0;
    if (koma__position_fits_kinds(g, pos, e->kind_of_pin, err) != 0) return -1;
    uint8_t *board = e->board;
    uint16_t hand[2][KOMA__SLOTS];
    memset(hand, 0, sizeof hand);
    for (int s = 0; s < 2; s++) {
        const koma_hand *h = &pos->hands[s];
        for (size_t i = 0; i < h->len; i++) {
            koma_piece p = h->items[i].piece;
            int k = e->kind_of_pin[p & KOMA_PIECE_MASK];
            hand[s][k + ((p & KOMA_PIECE_DERIVED) ? KOMA__SLOT_DERIVED : 0)] = (uint16_t)h->items[i].count;
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
    setup_keep(e, pos);
    return 0;
}

int koma__mb_get_position(const koma_engine *e, koma_position *pos, koma_error *err)
{
    if (koma_position_reset(pos, &e->shape, err) != 0) return -1;
    for (int sq = 0; sq < e->nsquares; sq++) {
        unsigned c = e->board[e->sq_index[sq]];
        pos->board[sq] = c == KOMA__EMPTY ? KOMA_PIECE_NONE : koma__piece_of_code(e, c);
    }
    /* the slots held, in order (e->held: a bit a slot with pieces) */
    for (int s = 0; s < 2; s++)
        for (uint64_t w = e->held[s]; w; w &= w - 1) {
            int slot = __builtin_ctzll(w);
            if (koma_hand_add(&pos->hands[s], koma__piece_of_slot(e, s, slot), e->hand[s][slot], err) != 0)
                return -1;
        }
    pos->style[0] = e->game->style;
    pos->style[1] = (char)(e->game->style - 'A' + 'a');
    pos->turn = e->turn;
    return 0;
}

/* ---- make / unmake ------------------------------------------------------------------ */

/* koma__make's body, inlined also in koma__mb_make (the referee's make of every
 * ply: no second call). */
static inline __attribute__((always_inline)) void make_move(koma_engine *e, koma_emove m, koma__undo *u)
{
    const koma_game *g = e->game;
    int s = e->turn;
    int to = KOMA__M_TO(m);
    u->move = m;
    e->royal_known = 0;
    u->hash_board = e->hash_board;
    u->hash_hand = e->hash_hand;
    if (m & KOMA__M_DROP) {
        int slot = KOMA__M_FROM(m);
        int k = KOMA__SLOT_KIND(slot);
        uint8_t c = (uint8_t)(KOMA__CODE(k, s) | ((slot & KOMA__SLOT_DERIVED) ? KOMA__DERIVED : 0));
        if (--e->hand[s][slot] == 0) e->held[s] &= ~(1ull << slot);
        e->hash_hand -= e->zhand[s][k];
        e->board[to] = c;
        e->hash_board ^= zb(e, c, to);
#if KOMA__HAVE_BB
        if (e->use_bb) {
            e->occ[s] |= e->bit[to];
            koma__set_flip(e, c, e->bit[to]);
        }
#endif
        if (g->kinds[k].nifu) (*koma__nifu_at(e, s, k, to))++;
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
            int hslot = hk + ((c & KOMA__DERIVED) ? KOMA__SLOT_DERIVED : 0);
            e->hand[s][hslot]++;
            e->held[s] |= 1ull << hslot;
            e->hash_hand += e->zhand[s][hk];
            e->hash_board ^= zb(e, c, to);
            if (g->kinds[ck].royal) {
                e->nroyal[s ^ 1]--;
                e->royal_in_hand++;
            } else {
                e->material[s ^ 1]--;
                e->material[s]++;
            }
            if (g->kinds[ck].nifu) (*koma__nifu_at(e, s ^ 1, ck, to))--;
        }
        uint8_t np = p;
        if (m & KOMA__M_PROMOTE) np = (uint8_t)(e->promote_code[KOMA__MOVER(p)] | (p & KOMA__DERIVED));
        e->board[from] = KOMA__EMPTY;
        e->board[to] = np;
        e->hash_board ^= zb(e, p, from) ^ zb(e, np, to);
#if KOMA__HAVE_BB
        if (e->use_bb) {
            koma__bb bf = e->bit[from], bt = e->bit[to];
            e->occ[s] ^= bf | bt;
            if (np == p) {
                koma__set_flip(e, p, bf | bt);      /* (the usual move: its sets flipped once) */
            } else {
                koma__set_flip(e, p, bf);
                koma__set_flip(e, np, bt);
            }
            if (c != KOMA__EMPTY) {
                e->occ[s ^ 1] ^= bt;
                koma__set_flip(e, c, bt);
            }
        }
#endif
        if (e->royal_code[KOMA__MOVER(p)]) e->royal_sq[s] = to;
        if (g->kinds[pk].nifu) {
            (*koma__nifu_at(e, s, pk, from))--;
            int nk = KOMA__KIND(np);
            if (g->kinds[nk].nifu) (*koma__nifu_at(e, s, nk, to))++;
        }
    }
    e->turn ^= 1;
}

void koma__make(koma_engine *e, koma_emove m, koma__undo *u)
{
    make_move(e, m, u);
    e->quick = 0;
}

void koma__unmake(koma_engine *e, const koma__undo *u)
{
    const koma_game *g = e->game;
    e->turn ^= 1;
    e->royal_known = 0;
    e->quick = 0;
    int s = e->turn;
    koma_emove m = u->move;
    int to = KOMA__M_TO(m);
    if (m & KOMA__M_DROP) {
        int slot = KOMA__M_FROM(m);
        int k = KOMA__SLOT_KIND(slot);
        e->hand[s][slot]++;
        e->held[s] |= 1ull << slot;
        e->board[to] = KOMA__EMPTY;
#if KOMA__HAVE_BB
        if (e->use_bb) {
            e->occ[s] ^= e->bit[to];
            koma__set_flip(e, u->moved, e->bit[to]);
        }
#endif
        if (g->kinds[k].nifu) (*koma__nifu_at(e, s, k, to))--;
    } else {
        int from = KOMA__M_FROM(m);
        uint8_t p = u->moved, c = u->captured;
        int pk = KOMA__KIND(p);
        if (g->kinds[pk].nifu) {
            int nk = KOMA__KIND(e->board[to]);
            if (g->kinds[nk].nifu) (*koma__nifu_at(e, s, nk, to))--;
            (*koma__nifu_at(e, s, pk, from))++;
        }
#if KOMA__HAVE_BB
        if (e->use_bb) {
            koma__bb bf = e->bit[from], bt = e->bit[to];
            e->occ[s] ^= bf | bt;
            koma__set_flip(e, p, bf);
            koma__set_flip(e, e->board[to], bt);
            if (c != KOMA__EMPTY) {
                e->occ[s ^ 1] ^= bt;
                koma__set_flip(e, c, bt);
            }
        }
#endif
        e->board[from] = p;
        e->board[to] = c;
        if (e->royal_code[KOMA__MOVER(p)]) e->royal_sq[s] = from;
        if (c != KOMA__EMPTY) {
            int ck = KOMA__KIND(c);
            int hk = (m & KOMA__M_KEEP) ? ck : g->kinds[ck].demotes_to;
            int hslot = hk + ((c & KOMA__DERIVED) ? KOMA__SLOT_DERIVED : 0);
            if (--e->hand[s][hslot] == 0) e->held[s] &= ~(1ull << hslot);
            if (g->kinds[ck].royal) {
                e->nroyal[s ^ 1]++;
                e->royal_sq[s ^ 1] = to;
                e->royal_in_hand--;
            } else {
                e->material[s ^ 1]++;
                e->material[s]--;
            }
            if (g->kinds[ck].nifu) (*koma__nifu_at(e, s ^ 1, ck, to))++;
        }
    }
    e->hash_board = u->hash_board;
    e->hash_hand = u->hash_hand;
}

static int push_history(koma_engine *e, koma_error *err)
{
    if (e->nundo >= KOMA_LIMIT_PLIES)
        return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "more than %d plies",
                              KOMA_LIMIT_PLIES);
    if (e->nundo == e->cap_undo) {
        size_t cap = e->cap_undo * 2;
        koma__undo *u = realloc(e->undo, cap * sizeof *u);
        if (u == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (history)");
        e->undo = u;
        e->cap_undo = cap;
    }
    return 0;
}

void koma__mb_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out)
{
    koma__mb_facts(e, m, out);
}

int koma__mb_make(koma_engine *e, koma_emove m, koma_error *err)
{
    if (push_history(e, err) != 0) return -1;
    /* a move found legal leaves its side's royal safe; after a ply from a
     * position where the other side's royal was safe, only that ply may check
     * it (the new facts set before make_move, which leaves them) */
    unsigned q = e->quick;
    if (q)
        e->quick = ((q & KOMA__Q_PROVED) && e->proved == m ? KOMA__Q_SAFE : 0u) |
                   ((q & KOMA__Q_SAFE) ? KOMA__Q_CHECK : 0u);
    make_move(e, m, &e->undo[e->nundo]);
    e->nundo++;
#if KOMA__HAVE_BB
    if (e->quick & KOMA__Q_CHECK) {
        int ksq = e->royal_sq[e->turn];
        e->check_ksq = ksq;
        e->check_on = koma__checked_by(e, ksq, (m & KOMA__M_DROP) ? -1 : KOMA__M_FROM(m), KOMA__M_TO(m));
    }
#endif
    return 0;
}

int koma__mb_unmake(koma_engine *e)
{
    if (e->nundo == 0) return -1;
    e->nundo--;
    koma__unmake(e, &e->undo[e->nundo]);
    return 0;
}

/* ---- defeat, bare king ------------------------------------------------------------- */

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

