/*
 * lib/record_pcn.c — the hub: a shogi-world record (koma/record.h) to PCN and
 * back, with the position (and, for moves without an origin, the move
 * generator) as context. The extension keys are listed in koma/record.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "format_internal.h"
#include "internal.h"
#include "pcn_internal.h"
#include "record_internal.h"

static int oom(koma_error *err) { return koma_error_set(err, KOMA_E_MEMORY, 0, NULL); }

/* ---- pieces and squares --------------------------------------------------------- */

/* The kind of a piece: letter and state, first player's case, no markers. */
static koma_piece kind_of(koma_piece p) { return (koma_piece)(p & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE)); }

static void piece_text(koma_piece p, char buf[KOMA_EPIN_BUF])
{
    if (p == KOMA_PIECE_NONE) {
        strcpy(buf, "none");
        return;
    }
    koma_epin_write(p, buf);
}

/* "5e" (a digit and a letter: written by hand, as every ply asks for it), or "12,30". */
static void sq_text(koma_sq sq, char *buf, size_t cap)
{
    if (sq.file < 10 && sq.rank <= 26 && sq.rank >= 1 && cap >= 3) {
        buf[0] = (char)('0' + sq.file);
        buf[1] = (char)('a' + sq.rank - 1);
        buf[2] = '\0';
    } else {
        snprintf(buf, cap, "%u,%u", sq.file, sq.rank);
    }
}

/* Shogi records only: the default names (Sente, Gote). */
static const char *side_name(int side) { return koma_game_side_name(NULL, side); }

/* Where a move was read, for its errors. */
static int move_error(koma_error *err, const koma_shogi_move *sm, size_t ply, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int move_error(koma_error *err, const koma_shogi_move *sm, size_t ply, const char *fmt, ...)
{
    if (err == NULL) return -1;
    char msg[KOMA_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    koma_error_set(err, KOMA_E_CONVERT_MOVE, 0, "ply %zu: %s", ply, msg);
    err->line = sm->line;
    err->column = sm->column ? sm->column : 1;
    return -1;
}

/* ---- finding an origin (KI2) -------------------------------------------------- */

/* The origin of a move that gives none (record_relative.c): 0 with *from; 1 when
 * no piece of that kind can move there at all (err not set); -1 with err. */
static int find_origin(koma_hub *h, const koma_game *g, const koma_position *pos,
                       const koma_shogi_move *sm, koma_sq to, size_t ply, koma_sq *from,
                       koma_error *err)
{
    koma__origins o;
    if (koma__relative_collect(h, g, pos, sm->piece, to, &o, err) != 0) return -1;
    if (o.n == 0) return 1;
    size_t a = 0, b = 0;
    int i = koma__relative_pick(&o, sm->promote, sm->relative, to, pos->turn, &a, &b);
    if (i >= 0) {
        *from = o.sq[i];
        return 0;
    }
    char p[KOMA_EPIN_BUF], t[16];
    piece_text(sm->piece, p);
    sq_text(to, t, sizeof t);
    if (i == -1) return move_error(err, sm, ply, "no move of %s to %s fits what the record says", p, t);
    char x[16], y[16];                 /* -2: several */
    sq_text(o.sq[a], x, sizeof x);
    sq_text(o.sq[b], y, sizeof y);
    return move_error(err, sm, ply, "ambiguous: %s to %s from %s or %s", p, t, x, y);
}

/* ---- one shogi-world move to PMN --------------------------------------------- */

static int resolve(koma_hub *h, const koma_game *g, const koma_position *pos, const koma_shogi_move *sm,
                   koma_sq prev_to, size_t ply, koma_move *m, koma_error *err);

/* The move resolved, written as PMN into buf and applied to pos: its length;
 * 0 with err (the move's error, or memory). */
size_t koma__srec_play(koma_hub *h, const koma_game *g, koma_position *pos, const koma_shogi_move *sm,
                       koma_sq *prev_to, size_t ply, char buf[KOMA_PMN_BUF], koma_error *err)
{
    koma_move m;
    if (resolve(h, g, pos, sm, *prev_to, ply, &m, err) != 0) return 0;
    size_t n = koma_pmn_write(&m, buf);
    koma_error aerr;
    if (n == 0 || koma_move_apply(pos, &m, &aerr) != 0) {
        if (n != 0 && aerr.code == KOMA_E_MEMORY) oom(err);   /* not the record's fault */
        else move_error(err, sm, ply, "%s: %s", n ? buf : "?", n ? aerr.message : "not writable");
        return 0;
    }
    uint32_t d;
    koma_shape_square(&pos->shape, &m.dst, &d, NULL);
    *prev_to = koma_sq_from_square(&pos->shape, d);
    return n;
}

static int resolve(koma_hub *h, const koma_game *g, const koma_position *pos, const koma_shogi_move *sm,
                   koma_sq prev_to, size_t ply, koma_move *m, koma_error *err)
{
    memset(m, 0, sizeof *m);
    int mover = pos->turn;
    if (sm->side >= 0 && sm->side != mover)
        return move_error(err, sm, ply, "a move by %s, but %s is to move", side_name(sm->side),
                          side_name(mover));
    koma_sq to = sm->same ? prev_to : sm->to;
    uint32_t dst;
    /* the squares and pieces in words only for an error (T, F: the destination
     * and the origin as text) */
    char t[16], f[16];
#define T (sq_text(to, t, sizeof t), t)
#define F (sq_text(from, f, sizeof f), f)
    if (sm->same && to.file == 0) return move_error(err, sm, ply, "'same square' with no previous move");
    if (sm->same && sm->to.file != 0 && (sm->to.file != to.file || sm->to.rank != to.rank)) {
        char u[16];
        sq_text(sm->to, u, sizeof u);
        return move_error(err, sm, ply, "the move goes to %s, but 'same square' is %s", u, T);
    }
    if (koma_sq_to_square(&pos->shape, to, &dst) != 0)
        return move_error(err, sm, ply, "square %s is not on the board", T);
    koma_shape_cell(&pos->shape, dst, &m->dst);
    koma_piece target = pos->board[dst];
    if (sm->drop) {
        koma_piece want = sm->piece;
        const koma_hand *hand = &pos->hands[mover];
        koma_piece found = KOMA_PIECE_NONE;
        for (size_t i = 0; i < hand->len; i++)
            if (kind_of(hand->items[i].piece) == want) found = hand->items[i].piece;
        char p[KOMA_EPIN_BUF];
        piece_text(want, p);
        if (found == KOMA_PIECE_NONE)
            return move_error(err, sm, ply, "drop of %s, which is not in %s's hand", p,
                              side_name(mover));
        if (target != KOMA_PIECE_NONE)
            return move_error(err, sm, ply, "drop of %s on %s, which is occupied", p, T);
        m->kind = KOMA_MOVE_DROP;
        m->piece = found;
        return 0;
    }
    koma_sq from = sm->from;
    if (from.file == 0 && from.rank == 0) {
        if (sm->piece == KOMA_PIECE_NONE) return move_error(err, sm, ply, "a move with neither origin nor piece");
        int rc = find_origin(h, g, pos, sm, to, ply, &from, err);
        if (rc < 0) return -1;
        if (rc == 1) {
            /* no board piece can go there: a drop, when nothing says otherwise (KI2
             * writes 打 only when a board piece could also go there) */
            if (sm->relative == 0 && sm->promote != KOMA_PROMOTE_YES && !(sm->piece & KOMA_PIECE_STATE)) {
                koma_shogi_move d = *sm;
                d.drop = 1;
                const koma_hand *hand = &pos->hands[pos->turn];
                for (size_t i = 0; i < hand->len; i++)
                    if (kind_of(hand->items[i].piece) == sm->piece) return resolve(h, g, pos, &d, prev_to, ply, m, err);
                char p[KOMA_EPIN_BUF];
                piece_text(sm->piece, p);
                return move_error(err, sm, ply, "no %s can move to %s, and %s holds none", p, T, side_name(pos->turn));
            }
            char p[KOMA_EPIN_BUF];
            piece_text(sm->piece, p);
            return move_error(err, sm, ply, "no %s can move to %s", p, T);
        }
    }
    uint32_t src;
    if (koma_sq_to_square(&pos->shape, from, &src) != 0)
        return move_error(err, sm, ply, "square %s is not on the board", F);
    if (src == dst) return move_error(err, sm, ply, "a move from %s to the same square", F);
    koma_piece actor = pos->board[src];
    if (actor == KOMA_PIECE_NONE) return move_error(err, sm, ply, "no piece on %s", F);
    koma_piece kind = kind_of(actor);
    char a[KOMA_EPIN_BUF], p[KOMA_EPIN_BUF];
#define A (piece_text(kind, a), a)
    int promote = sm->promote == KOMA_PROMOTE_YES;
    if (sm->piece != KOMA_PIECE_NONE && sm->piece != kind) {
        piece_text(sm->piece, p);
        return move_error(err, sm, ply, "the move names %s, but %s holds %s", p, F, A);
    }
    if (sm->after != KOMA_PIECE_NONE) {
        if (sm->after == kind) {
            promote = 0;
        } else if (!(kind & KOMA_PIECE_STATE) && sm->after == (kind | KOMA_PIECE_ENHANCED)) {
            promote = 1;
        } else {
            piece_text(sm->after, p);
            return move_error(err, sm, ply, "%s on %s cannot become %s", A, F, p);
        }
    }
    if (promote && (kind & KOMA_PIECE_STATE))
        return move_error(err, sm, ply, "%s on %s is already promoted", A, F);
    koma_shape_cell(&pos->shape, src, &m->src);
    if (promote) m->actor = (koma_piece)(actor | KOMA_PIECE_ENHANCED);
    if (sm->captured != KOMA_PIECE_NONE && kind_of(target) != sm->captured) {
        char c[KOMA_EPIN_BUF];
        piece_text(sm->captured, p);
        piece_text(kind_of(target), c);
        return move_error(err, sm, ply, "the move captures %s, but %s holds %s", p, T, c);
    }
    if (target == KOMA_PIECE_NONE) {
        m->kind = KOMA_MOVE_QUIET;
    } else {
        m->kind = KOMA_MOVE_CAPTURE;
        koma_piece cap = koma_capture_identity(target, mover);
        if (cap != target) m->captured = cap;
    }
    return 0;
#undef T
#undef F
#undef A
}

/* ---- what writers say beyond PCN (KI2, JKF) ------------------------------------ */

static int annotate_line(koma_hub *h, const koma_game *g, koma_position *pos, koma_shogi_line *line,
                         koma_sq prev_to, size_t first, koma_error *err)
{
    koma_position fork;
    koma_position_init(&fork);
    int rc = -1;
    for (size_t i = 0; i < line->len; i++) {
        koma_shogi_move *sm = &line->moves[i];
        size_t ply = first + i;
        for (size_t k = 0; k < sm->nforks; k++)
            if (koma_position_copy(&fork, pos, err) != 0 ||
                annotate_line(h, g, &fork, &sm->forks[k], prev_to, ply, err) != 0)
                goto out;
        koma_move m;
        if (resolve(h, g, pos, sm, prev_to, ply, &m, err) != 0) goto out;
        uint32_t d, s = 0;
        koma_shape_square(&pos->shape, &m.dst, &d, NULL);
        koma_sq to = koma_sq_from_square(&pos->shape, d);
        int drop = m.kind == KOMA_MOVE_DROP;
        if (!drop) koma_shape_square(&pos->shape, &m.src, &s, NULL);
        koma_piece kind = drop ? kind_of(m.piece) : kind_of(pos->board[s]);
        koma__origins o;
        if (koma__relative_collect(h, g, pos, kind, to, &o, err) != 0) goto out;
        sm->relative = 0;
        sm->promotable = 0;
        if (drop) {
            if (o.n > 0) sm->relative = KOMA_REL_DROP;
        } else {
            koma_sq from = koma_sq_from_square(&pos->shape, s);
            size_t j = 0;
            while (j < o.n && (o.sq[j].file != from.file || o.sq[j].rank != from.rank)) j++;
            if (j == o.n) {
                sm->relative = KOMA__REL_UNTOLD;
            } else {
                sm->promotable = (o.pseudo[j] & 3u) == 3u;
                int said = m.actor != KOMA_PIECE_NONE ? KOMA_PROMOTE_YES
                           : sm->promotable          ? KOMA_PROMOTE_NO
                                                     : KOMA_PROMOTE_UNSAID;
                unsigned rel;
                if (koma__relative_marks(&o, j, kind, said, to, pos->turn, &rel) == 0) sm->relative = rel;
                else sm->relative = KOMA__REL_UNTOLD;
            }
        }
        koma_error aerr;
        if (koma_move_apply(pos, &m, &aerr) != 0) {
            if (aerr.code == KOMA_E_MEMORY) oom(err);    /* not the record's fault */
            else move_error(err, sm, ply, "%s", aerr.message);
            goto out;
        }
        prev_to = to;
    }
    rc = 0;
out:
    koma_position_cleanup(&fork);
    return rc;
}

int koma__srec_annotate(koma_hub *h, koma_shogi_record *r, koma_error *err)
{
    const koma_game *g = r->game ? r->game : koma__hub_game(h, &r->setup, err);
    if (g == NULL) return -1;
    if (koma_position_copy(&h->pos, &r->setup, err) != 0) return -1;
    koma_sq none = {0, 0};
    return annotate_line(h, g, &h->pos, &r->main, none, 1, err);
}

/* ---- to PCN --------------------------------------------------------------------- */

typedef struct to_ctx {
    koma_hub *h;
    const koma_game *game;
    koma_error *err;
} to_ctx;

static int jset(json_t *obj, const char *key, json_t *v, koma_error *err)
{
    if (v == NULL || json_object_set_new(obj, key, v) != 0) return oom(err);
    return 0;
}

int koma__srec_text_ok(const char *s, size_t n, koma_error *err)
{
    size_t bad;
    if (koma__utf8_valid(s, n, &bad)) return 0;
    char q[64];
    koma_quote(q, sizeof q, s + bad, n - bad);
    return koma_error_set(err, KOMA_E_CONVERT_ENCODING, 0, "text is not UTF-8: \"%s\"", q);
}

/* A UTF-8 string (convert.encoding when it is not). */
static json_t *jstr(const char *s, koma_error *err)
{
    if (koma__srec_text_ok(s, strlen(s), err) != 0) return NULL;
    json_t *v = json_string(s);
    if (v == NULL) oom(err);
    return v;
}

static int set_str(json_t *obj, const char *key, const char *s, koma_error *err)
{
    json_t *v = jstr(s, err);
    if (v == NULL) return -1;
    return jset(obj, key, v, err);
}

static int has_zone(const char *s)
{
    size_t n = strlen(s);
    if (n < 20 || s[10] != 'T') return 0;
    return s[n - 1] == 'Z' || (n >= 6 && (s[n - 6] == '+' || s[n - 6] == '-') && s[n - 3] == ':');
}

static json_t *periods_json(const koma_shogi_period *p, size_t n, koma_error *err)
{
    json_t *a = json_array();
    if (a == NULL) {
        oom(err);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        if (o == NULL || json_array_append_new(a, o) != 0 ||
            jset(o, "duration_ms", json_integer(p[i].duration_ms), err) != 0 ||
            (p[i].increment_ms != KOMA_TIME_NONE &&
             jset(o, "increment_ms", json_integer(p[i].increment_ms), err) != 0) ||
            (p[i].plies > 0 && jset(o, "plies", json_integer(p[i].plies), err) != 0)) {
            json_decref(a);
            if (o == NULL) oom(err);
            return NULL;
        }
    }
    return a;
}

/* The result, status and ply an ending gives; the mover is to move after n plies. */
typedef struct outcome_of {
    const char *result;                /* NULL: none */
    const char *status;                /* NULL: none */
    int has_ply;
    size_t ply;
} outcome_of;

static const char *win(int side) { return side == KOMA_FIRST ? "1-0" : "0-1"; }

static void ending_outcome(koma_shogi_ending_code code, int mover, size_t n, outcome_of *o)
{
    memset(o, 0, sizeof *o);
    o->has_ply = 1;
    o->ply = n;
    int other = 1 - mover;
    switch (code) {
    case KOMA_SHOGI_ENDING_RESIGN: o->result = win(other); o->status = "resignation"; break;
    case KOMA_SHOGI_ENDING_REPETITION: o->result = "1/2-1/2"; o->status = "repetition"; break;
    case KOMA_SHOGI_ENDING_PERPETUAL_CHECK: o->result = win(mover); o->status = "repetition"; break;
    case KOMA_SHOGI_ENDING_IMPASSE: o->result = "1/2-1/2"; break;
    case KOMA_SHOGI_ENDING_MATE: o->result = win(other); o->status = "checkmate"; break;
    case KOMA_SHOGI_ENDING_TIME_UP: o->result = win(other); o->status = "timelimit"; break;
    case KOMA_SHOGI_ENDING_ILLEGAL_LOSS: o->result = win(other); o->status = "illegalmove"; break;
    case KOMA_SHOGI_ENDING_ILLEGAL_WIN: o->result = win(mover); o->status = "illegalmove"; break;
    case KOMA_SHOGI_ENDING_ENTERING_KING: o->result = win(mover); break;
    case KOMA_SHOGI_ENDING_DRAW: o->result = "1/2-1/2"; break;
    case KOMA_SHOGI_ENDING_MAX_MOVES: o->result = "1/2-1/2"; break;
    default: o->has_ply = 0; break;
    }
}

/* The ending an outcome says, for a line of n plies with mover to move. */
static koma_shogi_ending_code outcome_ending(const char *result, const char *status, const char *csa,
                                     int has_ply, uint64_t ply, int mover, size_t n)
{
    if (csa != NULL) return koma_shogi_ending_from_csa(csa, strlen(csa), mover);
    if (status == NULL) {
        if (result == NULL) return KOMA_SHOGI_ENDING_NONE;
        return KOMA_SHOGI_ENDING_OTHER;
    }
    int mover_lost = result != NULL && strcmp(result, win(1 - mover)) == 0;
    int mover_won = result != NULL && strcmp(result, win(mover)) == 0;
    if (!strcmp(status, "resignation") && mover_lost) return KOMA_SHOGI_ENDING_RESIGN;
    if (!strcmp(status, "timelimit") && mover_lost) return KOMA_SHOGI_ENDING_TIME_UP;
    if (!strcmp(status, "checkmate") && mover_lost) return KOMA_SHOGI_ENDING_MATE;
    if (!strcmp(status, "repetition")) {
        if (result != NULL && !strcmp(result, "1/2-1/2")) return KOMA_SHOGI_ENDING_REPETITION;
        if (mover_won) return KOMA_SHOGI_ENDING_PERPETUAL_CHECK;
    }
    if (!strcmp(status, "illegalmove")) {
        /* at the last ply (the illegal action itself is not in the record) */
        if (mover_lost && (!has_ply || ply == n)) return KOMA_SHOGI_ENDING_ILLEGAL_LOSS;
        if (mover_won && (!has_ply || ply == n)) return KOMA_SHOGI_ENDING_ILLEGAL_WIN;
    }
    if (!strcmp(status, "agreement") && result != NULL && !strcmp(result, "1/2-1/2"))
        return KOMA_SHOGI_ENDING_DRAW;
    return KOMA_SHOGI_ENDING_OTHER;
}

int koma__srec_outcome_of(const koma_shogi_ending *e, int mover, size_t n, koma__srec_outcome *o)
{
    if (e->code == KOMA_SHOGI_ENDING_NONE && e->comment == NULL && e->bookmark == NULL &&
        e->elapsed_ms == KOMA_TIME_NONE && e->total_ms == KOMA_TIME_NONE)
        return 0;
    outcome_of oc;
    ending_outcome(e->code, mover, n, &oc);
    o->result = oc.result;
    o->status = oc.status;
    o->has_ply = oc.has_ply;
    o->ply = oc.ply;
    o->csa = o->text = NULL;
    if (e->code != KOMA_SHOGI_ENDING_NONE) {
        /* outcome.csa when result and status do not give the code back */
        const char *want = e->csa ? e->csa : koma_shogi_ending_csa(e->code, 1 - mover);
        koma_shogi_ending_code back = outcome_ending(oc.result, oc.status, NULL, oc.has_ply, oc.ply, mover, n);
        const char *backcsa = back == KOMA_SHOGI_ENDING_OTHER ? NULL : koma_shogi_ending_csa(back, 1 - mover);
        if (want != NULL && (backcsa == NULL || strcmp(backcsa, want) != 0)) o->csa = want;
        if (e->code == KOMA_SHOGI_ENDING_OTHER) o->text = e->text;
    }
    return 1;
}

static int outcome_json(const koma_shogi_ending *e, int mover, size_t n, json_t **out, koma_error *err)
{
    *out = NULL;
    koma__srec_outcome oc;
    if (!koma__srec_outcome_of(e, mover, n, &oc)) return 0;
    json_t *o = json_object();
    if (o == NULL) return oom(err);
    if ((oc.result && jset(o, "result", json_string(oc.result), err)) ||
        (oc.status && jset(o, "status", json_string(oc.status), err)) ||
        (oc.has_ply && jset(o, "ply", json_integer((json_int_t)oc.ply), err)) ||
        (oc.csa && set_str(o, "csa", oc.csa, err)) || (oc.text && set_str(o, "text", oc.text, err)))
        goto fail;
    if (e->elapsed_ms != KOMA_TIME_NONE && jset(o, "elapsed_ms", json_integer(e->elapsed_ms), err))
        goto fail;
    if (e->total_ms != KOMA_TIME_NONE && jset(o, "total_ms", json_integer(e->total_ms), err)) goto fail;
    if (e->comment && set_str(o, "comment", e->comment, err)) goto fail;
    if (e->bookmark && set_str(o, "bookmark", e->bookmark, err)) goto fail;
    *out = o;
    return 0;
fail:
    json_decref(o);
    return -1;
}

/* Convert a line of play from pos (changed: the position after it) into plies
 * (an array) and *outcome; first is the number of its first ply. */
static int line_to_json(to_ctx *c, koma_position *pos, const koma_shogi_line *line, koma_sq prev_to,
                        size_t first, json_t *plies, json_t **outcome)
{
    koma_error *err = c->err;
    koma_position fork;
    koma_position_init(&fork);
    int rc = -1;
    for (size_t i = 0; i < line->len; i++) {
        const koma_shogi_move *sm = &line->moves[i];
        size_t ply = first + i;
        json_t *o = json_object();
        if (o == NULL || json_array_append_new(plies, o) != 0) {
            oom(err);
            goto out;
        }
        json_t *vars = NULL;
        if (sm->nforks) {
            vars = json_array();
            if (vars == NULL) {
                oom(err);
                goto out;
            }
            for (size_t k = 0; k < sm->nforks; k++) {
                json_t *v = json_object(), *vp = json_array(), *vo = NULL;
                if (v == NULL || json_array_append_new(vars, v) != 0) {
                    json_decref(vp);       /* (jansson frees v when it cannot add it) */
                    json_decref(vars);
                    oom(err);
                    goto out;
                }
                if (jset(v, "plies", vp, err)) {
                    json_decref(vars);
                    goto out;
                }
                if (koma_position_copy(&fork, pos, err) != 0 ||
                    line_to_json(c, &fork, &sm->forks[k], prev_to, ply, vp, &vo) != 0 ||
                    (vo && jset(v, "outcome", vo, err))) {
                    json_decref(vars);
                    goto out;
                }
            }
        }
        char buf[KOMA_PMN_BUF];
        size_t n = koma__srec_play(c->h, c->game, pos, sm, &prev_to, ply, buf, err);
        if (n == 0) {
            json_decref(vars);
            goto out;
        }
        /* pmn first, then the rest, in the order PCN lists them */
        json_t *pmn = json_stringn(buf, n);
        if (pmn == NULL || json_object_set_new(o, "pmn", pmn) != 0) {
            json_decref(vars);
            oom(err);
            goto out;
        }
        if ((sm->elapsed_ms != KOMA_TIME_NONE && jset(o, "elapsed_ms", json_integer(sm->elapsed_ms), err)) ||
            (sm->total_ms != KOMA_TIME_NONE && jset(o, "total_ms", json_integer(sm->total_ms), err)) ||
            (sm->comment && set_str(o, "comment", sm->comment, err)) ||
            (sm->bookmark && set_str(o, "bookmark", sm->bookmark, err))) {
            json_decref(vars);
            goto out;
        }
        if (vars && jset(o, "variations", vars, err)) goto out;
    }
    rc = outcome_json(&line->end, pos->turn, first + line->len - 1, outcome, err);
out:
    koma_position_cleanup(&fork);
    return rc;
}

const koma_shogi_header *koma__srec_header_next(const koma_shogi_record *r, size_t *pass, size_t *at)
{
    /* the fields in one order whatever the source's, so that a record written
     * in another format and read again is the same PCN */
    static const koma_shogi_header_key order[] = {KOMA_H_NAME,         KOMA_H_EVENT,    KOMA_H_SITE,       KOMA_H_ROUND,
                                      KOMA_H_START,        KOMA_H_END,      KOMA_H_OPENING,    KOMA_H_TIME_CONTROL,
                                      KOMA_H_HANDICAP,     KOMA_H_FIRST_NAME, KOMA_H_SECOND_NAME, KOMA_H_OTHER,
                                      KOMA_H_OTHER};
    const size_t remarks = sizeof order / sizeof order[0] - 2; /* KIF's "#" remarks first, as written */
    for (; *pass < sizeof order / sizeof order[0]; (*pass)++, *at = 0)
        while (*at < r->nheaders) {
            const koma_shogi_header *h = &r->headers[(*at)++];
            if (h->key != order[*pass]) continue;
            if (h->key == KOMA_H_OTHER && (*pass == remarks) != (h->name && strcmp(h->name, "#") == 0)) continue;
            return h;
        }
    return NULL;
}

const char *koma__srec_header_place(const koma_shogi_header *h, int *where)
{
    *where = KOMA__SREC_IN_META;
    switch (h->key) {
    case KOMA_H_NAME: return "name";
    case KOMA_H_EVENT: return "event";
    case KOMA_H_SITE: return "site";
    case KOMA_H_ROUND: return "round";
    case KOMA_H_START: return has_zone(h->value) ? "started_at" : "started_at_local";
    case KOMA_H_END: return "ended_at_local";
    case KOMA_H_OPENING: return "opening";
    case KOMA_H_TIME_CONTROL: return "time_control";
    case KOMA_H_HANDICAP: return "handicap";
    case KOMA_H_FIRST_NAME: *where = KOMA__SREC_IN_FIRST; return "name";
    case KOMA_H_SECOND_NAME: *where = KOMA__SREC_IN_SECOND; return "name";
    default: *where = KOMA__SREC_IN_HEADERS; return h->name ? h->name : "";
    }
}

static int meta_json(const koma_shogi_record *r, json_t *root, koma_error *err)
{
    json_t *meta = json_object(), *sides = json_object(), *first = json_object(),
           *second = json_object(), *headers = json_object();
    int rc = -1;
    if (!meta || !sides || !first || !second || !headers) {
        oom(err);
        goto out;
    }
    size_t pass = 0, at = 0;
    for (const koma_shogi_header *h; (h = koma__srec_header_next(r, &pass, &at)) != NULL;) {
        int where;
        const char *key = koma__srec_header_place(h, &where);
        json_t *obj = where == KOMA__SREC_IN_FIRST    ? first
                      : where == KOMA__SREC_IN_SECOND  ? second
                      : where == KOMA__SREC_IN_HEADERS ? headers
                                                       : meta;
        json_t *old = json_object_get(obj, key);
        if (old != NULL && json_is_string(old)) {
            /* a repeated field: its values joined by a line feed */
            size_t n = json_string_length(old), m = strlen(h->value);
            char *joined = malloc(n + m + 2);
            if (joined == NULL) {
                oom(err);
                goto out;
            }
            memcpy(joined, json_string_value(old), n);
            joined[n] = '\n';
            memcpy(joined + n + 1, h->value, m + 1);
            int s = set_str(obj, key, joined, err);
            free(joined);
            if (s) goto out;
        } else if (set_str(obj, key, h->value, err)) {
            goto out;
        }
    }
    if (json_object_size(headers) && jset(meta, "headers", json_incref(headers), err)) goto out;
    if (r->source_format) {
        json_t *src = json_object();
        if (jset(meta, "source", src, err) || set_str(src, "format", r->source_format, err) ||
            (r->source_version && set_str(src, "version", r->source_version, err)) ||
            (r->source_encoding && set_str(src, "encoding", r->source_encoding, err)))
            goto out;
    }
    if (json_object_size(meta) && jset(root, "meta", json_incref(meta), err)) goto out;
    if (r->nperiods[0] && jset(root, "periods", periods_json(r->periods[0], r->nperiods[0], err), err))
        goto out;
    if (r->nperiods[1] && jset(first, "periods", periods_json(r->periods[1], r->nperiods[1], err), err))
        goto out;
    if (r->nperiods[2] && jset(second, "periods", periods_json(r->periods[2], r->nperiods[2], err), err))
        goto out;
    if (json_object_size(first) && jset(sides, "first", json_incref(first), err)) goto out;
    if (json_object_size(second) && jset(sides, "second", json_incref(second), err)) goto out;
    if (json_object_size(sides) && jset(root, "sides", json_incref(sides), err)) goto out;
    rc = 0;
out:
    json_decref(meta);
    json_decref(sides);
    json_decref(first);
    json_decref(second);
    json_decref(headers);
    return rc;
}

/* A CSA record whose comments before the first move hold floodgate's move limit
 * ("Max_Moves:N", a line of its own) and whose main line has exactly N moves. */
int koma__srec_move_limit(const koma_shogi_record *r)
{
    if (r->setup_comment == NULL || r->main.len == 0 || r->source_format == NULL ||
        strcmp(r->source_format, "csa") != 0)
        return 0;
    for (const char *l = r->setup_comment; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        static const char key[] = "Max_Moves:";
        if (n > sizeof key - 1 && n < sizeof key + 6 && memcmp(l, key, sizeof key - 1) == 0) {
            unsigned long v = 0;
            size_t i = sizeof key - 1;
            while (i < n && l[i] >= '0' && l[i] <= '9') v = v * 10 + (unsigned long)(l[i++] - '0');
            return i == n && v == r->main.len;
        }
        l = e ? e + 1 : NULL;
    }
    return 0;
}

int koma__srec_start(koma_hub *h, const koma_shogi_record *r, const koma_game **game,
                     char feen[KOMA_FEEN_MAX_LEN + 1], size_t *fl, koma_error *err)
{
    *game = r->game ? r->game : koma__hub_game(h, &r->setup, err);
    if (*game == NULL) return -1;
    *fl = koma_feen_write(&r->setup, feen, KOMA_FEEN_MAX_LEN + 1);
    if (*fl > KOMA_FEEN_MAX_LEN) return koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, "setup FEEN exceeds 4096 bytes");
    return 0;
}

int koma_shogi_record_to_pcn(koma_hub *h, const koma_shogi_record *r, koma_pcn **out, koma_error *err)
{
    *out = NULL;
    to_ctx c = {h, NULL, err};
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t fl;
    if (koma__srec_start(h, r, &c.game, feen, &fl, err) != 0) return -1;
    json_t *root = json_object(), *setup = json_object(), *plies = json_array(), *outcome = NULL;
    if (!root || !setup || !plies) {
        json_decref(root);
        json_decref(setup);
        json_decref(plies);
        return oom(err);
    }
    if (meta_json(r, root, err) != 0) goto fail;
    if (jset(root, "setup", setup, err) || jset(setup, "feen", json_stringn(feen, fl), err)) {
        setup = NULL;
        goto fail;
    }
    if ((r->setup_comment && set_str(setup, "comment", r->setup_comment, err)) ||
        (r->setup_bookmark && set_str(setup, "bookmark", r->setup_bookmark, err))) {
        setup = NULL;
        goto fail;
    }
    setup = NULL;
    if (koma_position_copy(&h->pos, &r->setup, err) != 0) goto fail;
    koma_sq none = {0, 0};
    if (line_to_json(&c, &h->pos, &r->main, none, 1, plies, &outcome) != 0) goto fail;
    if (outcome == NULL && koma__srec_move_limit(r)) {
        /* floodgate's move limit, a comment line, reached with no ending line: a draw */
        outcome = json_object();
        if (outcome == NULL) {
            oom(err);
            goto fail;
        }
        if (jset(outcome, "result", json_string("1/2-1/2"), err) ||
            jset(outcome, "ply", json_integer((json_int_t)r->main.len), err) ||
            set_str(outcome, "csa", "%MAX_MOVES", err))
            goto fail;
    }
    if (r->main.len && jset(root, "plies", json_incref(plies), err)) goto fail;
    if (outcome && jset(root, "outcome", outcome, err)) {
        outcome = NULL;
        goto fail;
    }
    json_decref(plies);
    *out = koma__pcn_wrap(root, err);
    return *out ? 0 : -1;
fail:
    json_decref(root);
    json_decref(setup);
    json_decref(plies);
    json_decref(outcome);
    return -1;
}

/* ---- from PCN ------------------------------------------------------------------- */

static const char *str_of(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int add_hdr(koma_shogi_record *r, koma_shogi_header_key key, const char *name, const char *value, koma_error *err)
{
    if (value == NULL) return 0;
    return koma_shogi_record_add_header(r, key, name, name ? strlen(name) : 0, value, strlen(value), err);
}

static void periods_from(json_t *a, koma_shogi_period *p, size_t *n)
{
    *n = 0;
    if (!json_is_array(a)) return;
    for (size_t i = 0; i < json_array_size(a) && *n < KOMA_SHOGI_MAX_PERIODS; i++) {
        json_t *o = json_array_get(a, i);
        json_t *d = json_object_get(o, "duration_ms"), *inc = json_object_get(o, "increment_ms"),
               *pl = json_object_get(o, "plies");
        if (!json_is_number(d)) continue;
        p[*n].duration_ms = (long long)json_number_value(d);
        p[*n].increment_ms = json_is_number(inc) ? (long long)json_number_value(inc) : KOMA_TIME_NONE;
        p[*n].plies = json_is_number(pl) ? (long long)json_number_value(pl) : 0;
        (*n)++;
    }
}

static int text_of(json_t *obj, const char *key, char **dst, koma_error *err)
{
    const char *s = str_of(obj, key);
    if (s == NULL) return 0;
    return koma_shogi_set_text(dst, s, strlen(s), 0, err);
}

static int line_from_json(koma_hub *h, koma_position *pos, json_t *plies, json_t *outcome,
                          size_t first, koma_sq prev_to, koma_shogi_line *line, koma_error *err)
{
    koma_position fork;
    koma_position_init(&fork);
    int rc = -1;
    size_t n = json_array_size(plies);
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_array_get(plies, i);
        const char *s = str_of(o, "pmn");
        size_t ply = first + i;
        koma_shogi_move sm;
        koma_shogi_move_init(&sm);
        koma_move m;
        if (s == NULL) {
            koma_error_set(err, KOMA_E_PCN_REQUIRED, 0, "ply %zu has no pmn", ply);
            goto out;
        }
        if (koma_pmn_parse(s, strlen(s), &m, err) != 0 || koma_pmn_resolve(pos, &m, err) != 0) {
            char msg[KOMA_ERROR_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "%s", err->message);
            koma_error_set(err, err->code, 0, "ply %zu \"%s\": %s", ply, s, msg);
            goto out;
        }
        if (m.kind != KOMA_MOVE_QUIET && m.kind != KOMA_MOVE_CAPTURE && m.kind != KOMA_MOVE_DROP) {
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                           "ply %zu \"%s\": a move shogi-world formats cannot write", ply, s);
            goto out;
        }
        sm.side = pos->turn;
        uint32_t d;
        if (koma_shape_square(&pos->shape, &m.dst, &d, err) != 0) goto out;
        sm.to = koma_sq_from_square(&pos->shape, d);
        sm.same = prev_to.file == sm.to.file && prev_to.rank == sm.to.rank;
        if (m.kind == KOMA_MOVE_DROP) {
            sm.drop = 1;
            sm.piece = kind_of(m.piece);
            sm.after = m.actor ? kind_of(m.actor) : sm.piece;
            sm.promote = KOMA_PROMOTE_NO;
        } else {
            uint32_t s2;
            if (koma_shape_square(&pos->shape, &m.src, &s2, err) != 0) goto out;
            sm.from = koma_sq_from_square(&pos->shape, s2);
            koma_piece actor = pos->board[s2];
            sm.piece = kind_of(actor);
            sm.after = m.actor ? kind_of(m.actor) : sm.piece;
            sm.promote = sm.after != sm.piece ? KOMA_PROMOTE_YES : KOMA_PROMOTE_NO;
            if (pos->board[d] != KOMA_PIECE_NONE) sm.captured = kind_of(pos->board[d]);
        }
        json_t *el = json_object_get(o, "elapsed_ms"), *tot = json_object_get(o, "total_ms");
        if (json_is_number(el)) sm.elapsed_ms = (long long)json_number_value(el);
        if (json_is_number(tot)) sm.total_ms = (long long)json_number_value(tot);
        if (text_of(o, "comment", &sm.comment, err) != 0 || text_of(o, "bookmark", &sm.bookmark, err) != 0) {
            free(sm.comment);
            goto out;
        }
        koma_shogi_move *stored = koma_shogi_line_push(line, &sm, err);
        if (stored == NULL) {
            free(sm.comment);
            free(sm.bookmark);
            goto out;
        }
        json_t *vars = json_object_get(o, "variations");
        for (size_t k = 0; json_is_array(vars) && k < json_array_size(vars); k++) {
            json_t *v = json_array_get(vars, k);
            koma_shogi_line *fl = koma_shogi_move_add_fork(&line->moves[line->len - 1], err);
            if (fl == NULL) goto out;
            if (koma_position_copy(&fork, pos, err) != 0) goto out;
            if (line_from_json(h, &fork, json_object_get(v, "plies"), json_object_get(v, "outcome"),
                               ply, prev_to, fl, err) != 0)
                goto out;
        }
        koma_error aerr;
        if (koma_move_apply(pos, &m, &aerr) != 0) {
            koma_error_set(err, aerr.code, 0, "ply %zu \"%s\": %s", ply, s, aerr.message);
            goto out;
        }
        prev_to = sm.to;
    }
    if (json_is_object(outcome)) {
        koma_shogi_ending *e = &line->end;
        json_t *pl = json_object_get(outcome, "ply");
        const char *csa = str_of(outcome, "csa");
        e->code = outcome_ending(str_of(outcome, "result"), str_of(outcome, "status"), csa,
                                 json_is_integer(pl), json_is_integer(pl) ? (uint64_t)json_integer_value(pl) : 0,
                                 pos->turn, first + n - 1);
        if (e->code == KOMA_SHOGI_ENDING_NONE && str_of(outcome, "text")) e->code = KOMA_SHOGI_ENDING_OTHER;
        if (csa && koma_shogi_set_text(&e->csa, csa, strlen(csa), 0, err)) goto out;
        if (e->code == KOMA_SHOGI_ENDING_OTHER && !csa) {
            char t[64];
            snprintf(t, sizeof t, "%s%s%s", str_of(outcome, "result") ? str_of(outcome, "result") : "",
                     str_of(outcome, "status") ? " " : "",
                     str_of(outcome, "status") ? str_of(outcome, "status") : "");
            const char *tx = str_of(outcome, "text");
            if (koma_shogi_set_text(&e->text, tx ? tx : t, strlen(tx ? tx : t), 0, err)) goto out;
        }
        json_t *el = json_object_get(outcome, "elapsed_ms"), *tot = json_object_get(outcome, "total_ms");
        if (json_is_number(el)) e->elapsed_ms = (long long)json_number_value(el);
        if (json_is_number(tot)) e->total_ms = (long long)json_number_value(tot);
        if (text_of(outcome, "comment", &e->comment, err) != 0 || text_of(outcome, "bookmark", &e->bookmark, err) != 0)
            goto out;
    }
    rc = 0;
out:
    koma_position_cleanup(&fork);
    return rc;
}

int koma_shogi_record_from_pcn(koma_hub *h, const koma_pcn *p, koma_shogi_record *r, koma_error *err)
{
    json_t *root = p->root;
    size_t flen;
    const char *feen = koma_pcn_setup_feen(p, &flen);
    if (feen == NULL) return koma_error_set(err, KOMA_E_PCN_REQUIRED, 0, "no setup.feen");
    if (koma_feen_parse(feen, flen, KOMA_FEEN_STRICT, &r->setup, err) != 0) return -1;
    r->game = koma__hub_game(h, &r->setup, err);
    if (r->game == NULL) return -1;
    json_t *meta = json_object_get(root, "meta");
    if (json_is_object(meta)) {
        if (add_hdr(r, KOMA_H_NAME, NULL, str_of(meta, "name"), err) ||
            add_hdr(r, KOMA_H_EVENT, NULL, str_of(meta, "event"), err) ||
            add_hdr(r, KOMA_H_SITE, NULL, str_of(meta, "site"), err) ||
            add_hdr(r, KOMA_H_ROUND, NULL, str_of(meta, "round"), err) ||
            add_hdr(r, KOMA_H_START, NULL,
                    str_of(meta, "started_at") ? str_of(meta, "started_at") : str_of(meta, "started_at_local"),
                    err) ||
            add_hdr(r, KOMA_H_END, NULL, str_of(meta, "ended_at_local"), err) ||
            add_hdr(r, KOMA_H_OPENING, NULL, str_of(meta, "opening"), err) ||
            add_hdr(r, KOMA_H_TIME_CONTROL, NULL, str_of(meta, "time_control"), err) ||
            add_hdr(r, KOMA_H_HANDICAP, NULL, str_of(meta, "handicap"), err))
            return -1;
        json_t *hd = json_object_get(meta, "headers");
        const char *k;
        json_t *v;
        if (json_is_object(hd)) {
            json_object_foreach(hd, k, v) {
                if (json_is_string(v) && add_hdr(r, KOMA_H_OTHER, k, json_string_value(v), err)) return -1;
            }
        }
        json_t *src = json_object_get(meta, "source");
        if (json_is_object(src) && (text_of(src, "format", &r->source_format, err) ||
                                    text_of(src, "version", &r->source_version, err) ||
                                    text_of(src, "encoding", &r->source_encoding, err)))
            return -1;
    }
    json_t *sides = json_object_get(root, "sides");
    json_t *first = json_object_get(sides, "first"), *second = json_object_get(sides, "second");
    if (add_hdr(r, KOMA_H_FIRST_NAME, NULL, str_of(first, "name"), err) ||
        add_hdr(r, KOMA_H_SECOND_NAME, NULL, str_of(second, "name"), err))
        return -1;
    periods_from(json_object_get(root, "periods"), r->periods[0], &r->nperiods[0]);
    periods_from(json_object_get(first, "periods"), r->periods[1], &r->nperiods[1]);
    periods_from(json_object_get(second, "periods"), r->periods[2], &r->nperiods[2]);
    if (text_of(json_object_get(root, "setup"), "comment", &r->setup_comment, err) ||
        text_of(json_object_get(root, "setup"), "bookmark", &r->setup_bookmark, err))
        return -1;
    if (koma_position_copy(&h->pos, &r->setup, err) != 0) return -1;
    koma_sq none = {0, 0};
    json_t *plies = json_object_get(root, "plies");
    return line_from_json(h, &h->pos, json_is_array(plies) ? plies : NULL,
                          json_object_get(root, "outcome"), 1, none, &r->main, err);
}
