/*
 * lib/engine_ggn.c — the mailbox engine's legal moves of a position generated from
 * a GGN document plus the game's rule system (koma_engine_ggn_moves through its
 * table, engine_mailbox.c; what the rule system adds to the document's
 * displacements is listed at the top of lib/game_ggn.c). It sits on the rules
 * layer: the engine's own promotion, capture, check and drop-mate functions
 * turn each displacement into moves.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"
#include "util_json_pos.h"

/* ---- generation ---------------------------------------------------------------- */

typedef struct gen {
    koma_engine *e;
    const koma_ggn *ggn;
    int level;                         /* look-ahead level, 0 for the position itself */
    koma_move_fn emit;
    void *ctx;                         /* NULL emit: only find whether a move exists */
    int found;                         /* a legal move was found (look-ahead) */
    int stopped;                       /* emit asked to stop: its value */
    int failed;                        /* an error (err set) */
    koma_error *err;
} gen;

static int has_legal(gen *g, int level);

/*
 * The rule system's legality of a move built from a GGN displacement: the
 * engine's own test (engine_movegen.c, legal_move: make, is the mover's royal
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
    if (ok && (m & KOMA__M_DROP) && game->kinds[KOMA__SLOT_KIND(KOMA__M_FROM(m))].drop_no_mate &&
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
static int on_displacement(void *ctx, const char *pmn, size_t len, const koma_move *m)
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
        int slot = k + ((m->piece & KOMA_PIECE_DERIVED) ? KOMA__SLOT_DERIVED : 0);
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
        koma__mb_move_pmn(e, cand[i], &mv);
        size_t tl = koma_pmn_write(&mv, text);
        if ((g->stopped = g->emit(g->ctx, text, tl, &mv)) != 0) return 1;
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
    int rc = koma__mb_get_position(e, &pos, g->err);
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

/* (arguments checked by the facade, engine.c) */
int koma__mb_ggn_moves(koma_engine *e, const koma_ggn *ggn,
                       koma_move_fn emit,
                       void *ctx, koma_error *err)
{
    koma_error_clear(err);
    gen g;
    memset(&g, 0, sizeof g);
    g.e = e;
    g.ggn = ggn;
    g.emit = emit;
    g.ctx = ctx;
    g.err = err;
    if (run(&g) != 0) return -1;
    return g.stopped;
}
