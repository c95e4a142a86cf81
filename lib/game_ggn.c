/*
 * lib/game_ggn.c — a game definition exported as GGN, and legal moves generated
 * from a GGN document plus the game's rule system (issue 4, item 6).
 *
 * What the exported document expresses (GGN v1.0.0 can say no more: it answers
 * "is this displacement pseudo-legal here?", notations.md §11.3):
 *
 *   - For every piece identity of both sides (the game's style letter and the
 *     PIN, promoted forms and the royal's '^' included) and every board square,
 *     every destination its Betza vectors reach on the board. Two possibilities
 *     a destination: the quiet move, {must: path "empty", destination "empty"},
 *     and the capture, {must: path "empty", destination "enemy"}. The path is
 *     the intermediate squares of a ride (src + i * vector), in order; a leap
 *     has none. "deny" is {}.
 *   - For every kind that may be dropped (not royal, not `drop.never`; promoted
 *     kinds only where promoted pieces drop promoted, Ōgi's King's privilege),
 *     the source "*" with every square not on its forbidden last ranks (those
 *     are simply not listed), {must: destination "empty"}; for a `drop.nifu`
 *     kind "deny" names the same QPI on every other square of the file, so a
 *     second unpromoted pawn of the side on a file is not pseudo-legal.
 *
 * What stays with the rule system (the engine; koma_engine_ggn_moves below
 * applies it to the GGN displacements, reusing the engine's own functions):
 *
 *   - promotion: whether a move may, must or cannot promote (the zone, optional
 *     or compulsory promotion, forced promotion where the piece would have no
 *     further move) and into what (`=+P`); a displacement into the zone is one
 *     GGN entry and one or two moves;
 *   - captures: what enters the hand (demoted and turned to the capturer, `/P`),
 *     and the King's privilege (a royal capturing a promoted piece may keep it
 *     promoted: `/+P` and `/P` are two moves);
 *   - the check rule (a move leaving one's royal attacked is illegal), mate by
 *     pawn drop (a check-giving drop of a `drop.no_mate` kind leaving no legal
 *     reply), a finished game (a royal in a hand: no moves);
 *   - the endings and history rules: checkmate, stalemate, no move, bare king,
 *     repetition, move limit.
 *
 * Squares, in sources and destinations alike, go file by file (a1 a2 ... a8
 * b1 ...), so the Ōgi king on e4 lists d3 d4 d5 e3 e5 f3 f4 f5, as the rule
 * page does.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"
#include "jsonpos.h"

/* ---- export ------------------------------------------------------------------ */

typedef struct reach {
    uint16_t key;                      /* destination: file * ranks + rank */
    uint8_t v;                         /* vector index */
    uint8_t t;                         /* steps along it */
} reach;

static int reach_cmp(const void *a, const void *b)
{
    const reach *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

static koma_cell cell_at(int f, int r)
{
    koma_cell c;
    memset(&c, 0, sizeof c);
    c.ndims = 2;
    c.idx[0] = (uint8_t)f;
    c.idx[1] = (uint8_t)r;
    return c;
}

static koma_location location_at(int f, int r)
{
    koma_location l;
    memset(&l, 0, sizeof l);
    l.cell = cell_at(f, r);
    return l;
}

#define MAX_REACH (KOMA_BETZA_MAX_VECTORS * KOMA__MAX_RANKS)
#define MAX_PATH (KOMA__MAX_FILES > KOMA__MAX_RANKS ? KOMA__MAX_FILES : KOMA__MAX_RANKS)

/* The board moves of one kind of one side from (sf, sr). */
static int export_source(koma_ggn *ggn, const koma_game *g, const koma__kind *kd, int side,
                         const koma_qpi *q, int sf, int sr, koma_error *err)
{
    int files = (int)g->files, ranks = (int)g->ranks;
    reach rs[MAX_REACH];
    size_t n = 0;
    for (unsigned v = 0; v < kd->nvec; v++) {
        int dx = side ? -kd->vec[v].dx : kd->vec[v].dx;
        int dy = side ? -kd->vec[v].dy : kd->vec[v].dy;
        unsigned range = kd->vec[v].range;
        for (unsigned t = 1;; t++) {
            int f = sf + (int)t * dx, r = sr + (int)t * dy;
            if (f < 0 || f >= files || r < 0 || r >= ranks) break;
            if (n == MAX_REACH) break;  /* cannot happen: a ray has fewer than 26 squares */
            rs[n].key = (uint16_t)(f * ranks + r);
            rs[n].v = (uint8_t)v;
            rs[n].t = (uint8_t)t;
            n++;
            if (range != 0 && t >= range) break;
        }
    }
    if (n == 0) return 0;
    qsort(rs, n, sizeof rs[0], reach_cmp);
    koma_location src = location_at(sf, sr);
    koma_lcn must[MAX_PATH + 1];
    for (size_t i = 0; i < n; i++) {
        int dx = side ? -kd->vec[rs[i].v].dx : kd->vec[rs[i].v].dx;
        int dy = side ? -kd->vec[rs[i].v].dy : kd->vec[rs[i].v].dy;
        size_t nm = 0;
        for (int s = 1; s < rs[i].t; s++) {
            memset(&must[nm], 0, sizeof must[nm]);
            must[nm].cell = cell_at(sf + s * dx, sr + s * dy);
            must[nm].kind = KOMA_LCN_EMPTY;
            nm++;
        }
        int df = rs[i].key / ranks, dr = rs[i].key % ranks;
        koma_location dst = location_at(df, dr);
        memset(&must[nm], 0, sizeof must[nm]);
        must[nm].cell = dst.cell;
        must[nm].kind = KOMA_LCN_EMPTY;
        if (koma_ggn_add(ggn, q, &src, &dst, must, nm + 1, NULL, 0, err) != 0) return -1;
        must[nm].kind = KOMA_LCN_ENEMY;
        if (koma_ggn_add(ggn, q, &src, &dst, must, nm + 1, NULL, 0, err) != 0) return -1;
    }
    return 0;
}

/* The drops of one kind of one side. */
static int export_drops(koma_ggn *ggn, const koma_game *g, const koma__kind *kd, int side,
                        const koma_qpi *q, koma_error *err)
{
    int files = (int)g->files, ranks = (int)g->ranks;
    koma_location star;
    memset(&star, 0, sizeof star);
    star.hand = 1;
    koma_lcn must, deny[KOMA__MAX_RANKS];
    for (int f = 0; f < files; f++) {
        for (int r = 0; r < ranks; r++) {
            int last_dist = side ? r : ranks - 1 - r;   /* ranks from the side's last rank */
            if (last_dist < kd->drop_forbidden_ranks) continue;
            koma_location dst = location_at(f, r);
            memset(&must, 0, sizeof must);
            must.cell = dst.cell;
            must.kind = KOMA_LCN_EMPTY;
            size_t nd = 0;
            if (kd->nifu) {
                for (int r2 = 0; r2 < ranks; r2++) {
                    if (r2 == r) continue;
                    memset(&deny[nd], 0, sizeof deny[nd]);
                    deny[nd].cell = cell_at(f, r2);
                    deny[nd].kind = KOMA_LCN_PIECE;
                    deny[nd].piece = *q;
                    nd++;
                }
            }
            if (koma_ggn_add(ggn, q, &star, &dst, &must, 1, nd ? deny : NULL, nd, err) != 0)
                return -1;
        }
    }
    return 0;
}

/*
 * The number of possibilities the export makes for g, counted without building
 * anything. A possibility is written in at least 35 bytes (compact:
 * {"must":{"a1":"empty"},"deny":{}} and a comma), so a document of more than
 * KOMA_RECORD_MAX / 35 could never be read back (koma_ggn_load's 16 MiB); a
 * user definition of a large board with many riders would otherwise make a
 * document of gigabytes.
 */
#define EXPORT_MAX (KOMA_RECORD_MAX / 35)

static size_t export_count(const koma_game *g)
{
    int files = (int)g->files, ranks = (int)g->ranks;
    size_t n = 0;
    for (int side = 0; side < 2; side++) {
        for (unsigned k = 0; k < g->nkinds; k++) {
            const koma__kind *kd = &g->kinds[k];
            for (int sf = 0; sf < files; sf++)
                for (int sr = 0; sr < ranks; sr++)
                    for (unsigned v = 0; v < kd->nvec; v++) {
                        int dx = side ? -kd->vec[v].dx : kd->vec[v].dx;
                        int dy = side ? -kd->vec[v].dy : kd->vec[v].dy;
                        for (unsigned t = 1;; t++) {
                            int f = sf + (int)t * dx, r = sr + (int)t * dy;
                            if (f < 0 || f >= files || r < 0 || r >= ranks) break;
                            n += 2;
                            if (kd->vec[v].range != 0 && t >= kd->vec[v].range) break;
                        }
                    }
            if (kd->droppable && !kd->royal) {
                unsigned forbidden = kd->drop_forbidden_ranks;
                if (forbidden < (unsigned)ranks)
                    n += (size_t)files * (size_t)((unsigned)ranks - forbidden);
            }
        }
    }
    return n;
}

koma_ggn *koma_game_to_ggn(const koma_game *g, koma_error *err)
{
    if (g == NULL) {
        koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_game_to_ggn: missing game");
        return NULL;
    }
    if (!g->playable) {
        koma_error_set(err, KOMA_E_GAME_NO_RULES, 0, "game %s has no rule engine yet", g->id);
        return NULL;
    }
    size_t count = export_count(g);
    if (count > EXPORT_MAX) {
        koma_error_set(err, KOMA_E_GAME_LIMIT, 0,
                       "the GGN document of %s would have %zu possibilities (at most %zu: "
                       "a GGN document is at most 16 MiB)", g->id, count, (size_t)EXPORT_MAX);
        return NULL;
    }
    koma_ggn *ggn = koma_ggn_new(err);
    if (ggn == NULL) return NULL;
    for (int side = 0; side < 2; side++) {
        for (unsigned k = 0; k < g->nkinds; k++) {
            const koma__kind *kd = &g->kinds[k];
            koma_qpi q;
            q.style = side ? (char)(g->style - 'A' + 'a') : g->style;
            q.piece = (koma_piece)(kd->pin | (side ? KOMA_PIECE_SECOND : 0));
            for (int f = 0; f < (int)g->files; f++)
                for (int r = 0; r < (int)g->ranks; r++)
                    if (export_source(ggn, g, kd, side, &q, f, r, err) != 0) goto fail;
            if (kd->droppable && !kd->royal && export_drops(ggn, g, kd, side, &q, err) != 0)
                goto fail;
        }
    }
    koma_error_clear(err);
    return ggn;
fail:
    koma_ggn_free(ggn);
    return NULL;
}

/* ---- generation ---------------------------------------------------------------- */

typedef struct gen {
    koma_engine *e;
    const koma_ggn *ggn;
    int level;                         /* look-ahead level, 0 for the position itself */
    int (*emit)(const char *pmn, size_t len, const koma_move *move, void *ctx);
    void *ctx;                         /* NULL emit: only find whether a move exists */
    int found;                         /* a legal move was found (look-ahead) */
    int stopped;                       /* emit asked to stop */
    int failed;                        /* an error (err set) */
    koma_error *err;
} gen;

static int has_legal(gen *g, int level);

/*
 * The rule system's legality of a move built from a GGN displacement: the
 * engine's own test (movegen.c, legal_move: make, is the mover's royal
 * attacked, and after a drop of a no-mate kind that leaves the opponent in
 * check, has the opponent a legal reply, at most KOMA__SCRATCH_LEVELS deep),
 * written again here only because the replies must come from the GGN
 * document too, not from the built-in generator.
 */
static int legal(gen *g, koma_emove m, int level)
{
    koma_engine *e = g->e;
    const koma_game *game = e->game;
    if (!game->check_rule) return 1;
    int s = e->turn;
    koma__undo u;
    koma__make(e, m, &u);
    int ok = !koma__in_check(e, s);
    if (ok && (m & KOMA__M_DROP) && game->kinds[KOMA__M_FROM(m) & 31].drop_no_mate &&
        level < KOMA__SCRATCH_LEVELS && koma__in_check(e, s ^ 1))
        ok = has_legal(g, level);
    koma__unmake(e, &u);
    return ok;
}

static int square_index(const koma_engine *e, const koma_cell *c, int *idx)
{
    uint32_t sq;
    if (koma_shape_square(&e->shape, c, &sq, NULL) != 0) return -1;
    *idx = e->sq_index[sq];
    return 0;
}

/* One displacement of koma_ggn_moves: its moves under the rule system. */
static int on_displacement(const char *pmn, size_t len, const koma_move *m, void *ctx)
{
    gen *g = ctx;
    koma_engine *e = g->e;
    koma_emove cand[4];
    size_t n = 0;
    int from, to;
    (void)pmn;
    (void)len;
    if (m->kind == KOMA_MOVE_QUIET || m->kind == KOMA_MOVE_CAPTURE) {
        if (square_index(e, &m->src, &from) != 0 || square_index(e, &m->dst, &to) != 0) return 0;
        unsigned p = e->board[from], c = e->board[to];
        if (p == KOMA__EMPTY || KOMA__SIDE_OF(p) != e->turn) return 0;
        if (c != KOMA__EMPTY && KOMA__SIDE_OF(c) == e->turn) return 0;   /* own piece */
        n = koma__board_variants(e, from, to, cand);
    } else if (m->kind == KOMA_MOVE_DROP) {
        int k = koma__game_kind_of(e->game, m->piece);
        if (k < 0 || koma_piece_side(m->piece) != e->turn) return 0;
        int slot = k + ((m->piece & KOMA_PIECE_DERIVED) ? 32 : 0);
        if (square_index(e, &m->dst, &to) != 0 || e->board[to] != KOMA__EMPTY ||
            e->hand[e->turn][slot] == 0)
            return 0;
        cand[n++] = KOMA__M_DROP | KOMA__MOVE(slot, to);
    } else {
        return 0;                      /* static capture, drop with capture: no such moves */
    }
    for (size_t i = 0; i < n; i++) {
        if (!legal(g, cand[i], g->level)) {
            if (g->failed) return 1;
            continue;
        }
        if (g->failed) return 1;
        if (g->emit == NULL) {
            g->found = 1;
            return 1;
        }
        koma_move mv;
        char text[KOMA_PMN_BUF];
        koma_engine_move_pmn(e, cand[i], &mv);
        size_t tl = koma_pmn_write(&mv, text);
        if (g->emit(text, tl, &mv, g->ctx) != 0) {
            g->stopped = 1;
            return 1;
        }
    }
    return 0;
}

/* Run the document on the engine's current position. */
static int run(gen *g)
{
    koma_engine *e = g->e;
    if (koma__over(e)) return 0;               /* the game is over: no moves */
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_engine_get_position(e, &pos, g->err);
    if (rc == 0) {
        rc = koma_ggn_moves(g->ggn, &pos, on_displacement, g, g->err);
        if (rc > 0) rc = 0;                    /* stopped by us */
    }
    koma_position_cleanup(&pos);
    if (rc != 0) g->failed = 1;
    return g->failed ? -1 : 0;
}

/* Whether the side to move has a legal move, at look-ahead level `level`
 * (the engine's has_legal_level, with GGN displacements). */
static int has_legal(gen *g, int level)
{
    gen sub;
    memset(&sub, 0, sizeof sub);
    sub.e = g->e;
    sub.ggn = g->ggn;
    sub.level = level + 1;
    sub.err = g->err;
    if (run(&sub) != 0) {
        g->failed = 1;
        return 0;
    }
    return sub.found;
}

int koma_engine_ggn_moves(koma_engine *e, const koma_ggn *ggn,
                          int (*emit)(const char *pmn, size_t len, const koma_move *move,
                                      void *ctx),
                          void *ctx, koma_error *err)
{
    if (e == NULL || ggn == NULL || emit == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_engine_ggn_moves: missing argument");
    koma_error_clear(err);
    gen g;
    memset(&g, 0, sizeof g);
    g.e = e;
    g.ggn = ggn;
    g.emit = emit;
    g.ctx = ctx;
    g.err = err;
    if (run(&g) != 0) return -1;
    return g.stopped ? 1 : 0;
}

int koma_ggn_generate(const koma_ggn *ggn, const koma_game *game, const koma_position *pos,
                      int (*emit)(const char *pmn, size_t len, const koma_move *move, void *ctx),
                      void *ctx, koma_error *err)
{
    if (ggn == NULL || game == NULL || pos == NULL || emit == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_ggn_generate: missing argument");
    koma_engine *e;
    if (koma_engine_new(game, &e, err) != 0) return -1;
    int rc = koma_engine_set_position(e, pos, err);
    if (rc == 0) rc = koma_engine_ggn_moves(e, ggn, emit, ctx, err);
    koma_engine_free(e);
    return rc;
}
