/*
 * lib/game_ggn.c — a game definition exported as GGN; the
 * legal moves generated from a GGN document are lib/engine_ggn.c's.
 *
 * What the exported document expresses (GGN v1.0.0 can say no more: it answers
 * "is this displacement pseudo-legal here?", koma-formats(5), GGN):
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
 * (lib/engine_ggn.c) applies it to the GGN displacements, reusing the engine's
 * own functions):
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
#include "game_internal.h"
#include "util_json_pos.h"

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

static koma_ggn *game_ggn(const koma_game *g, koma_error *err)
{
    if (g == NULL) {
        koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_game_to_ggn: missing game");
        return NULL;
    }
    if (koma_game_require_rules(g, err) != 0) return NULL;
    if (g->fx) {
        /* GGN v1 has one displacement a possibility (koma-formats(5), GGN): no shot,
         * burn, second capture, nor a change to another piece */
        koma_error_set(err, KOMA_E_GAME_GGN, 0,
                       "GGN cannot express the moves of %s (shots, burns, several captures in "
                       "one move, promotions of other pieces): no GGN export", g->id);
        return NULL;
    }
    /* Sanki: each variant's pieces as GGN can say them (game_ggn_sanki.c) */
    if (g->sanki) return koma__game_sanki_ggn(g->styles, err);
    size_t count = export_count(g);
    if (count > EXPORT_MAX) {
        koma_error_set(err, KOMA_E_GAME_LIMIT, 0,
                       "the GGN document of %s would have %zu possibilities (at most %zu: "
                       "a GGN document is at most 16 MiB)", g->id, count, (size_t)EXPORT_MAX);
        return NULL;
    }
    koma_ggn *ggn = NULL;
    koma_ggn_new(&ggn, err);
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

int koma_game_to_ggn(const koma_game *g, koma_ggn **out, koma_error *err)
{
    return KOMA__MADE(out, game_ggn(g, err));
}

const char *koma_game_ggn_note(const koma_game *g)
{
    return g != NULL && g->sanki ? koma__game_sanki_ggn_note() : NULL;
}
