/*
 * lib/pmn_chain.c — PMN chains (koma-formats(5), PMN, Chains): moves of several current-PMN
 * elements joined by ',' for games whose moves have several effects (Ko shogi).
 * Rule-agnostic, like the rest of PMN: the parse and its context-free order
 * rules, the writer, the applier (every effect is explicit in a chain, so a
 * record can be replayed without the rules), the canonical form of a chain's
 * effects, and the leg forms other programs write (PMN legs `e5+e6,e6+f7`,
 * XBoard legs `e5e6,e6f7+`, koengine shots `e6xh6xk6`) read and normalised.
 *
 * The canonical form is computed from effects, never by reordering text: the
 * elements are applied to a copy of the position while a tag per square
 * remembers which starting square each piece came from, so the moving piece
 * (the actor), every removal and every identity change are known; the chain is
 * then written from them in the canonical order (koma/pmn.h). Two chains with
 * the same canonical form have the same effects on the board and the hands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmn_internal.h"

/* ---- helpers ----------------------------------------------------------------- */

/* The canonical order of squares: rank-major from a1, layers last. */
static unsigned long cell_key(const koma_cell *c)
{
    unsigned long file = c->ndims > 0 ? c->idx[0] : 0;
    unsigned long rank = c->ndims > 1 ? c->idx[1] : 0;
    unsigned long layer = c->ndims > 2 ? c->idx[2] : 0;
    return (layer << 16) | (rank << 8) | file;
}

static int is_displacement(const koma_move *m)
{
    return m->kind == KOMA_MOVE_QUIET || m->kind == KOMA_MOVE_CAPTURE;
}

static int chain_element_kind(koma_move_kind k)
{
    return k == KOMA_MOVE_QUIET || k == KOMA_MOVE_CAPTURE || k == KOMA_MOVE_STATIC ||
           k == KOMA_MOVE_MUTATE;
}

/* An error about element i of c (its text quoted), at its start + off. */
static int element_error(koma_error *err, koma_code code, const koma_chain *c, size_t i,
                         size_t off, const char *text)
{
    char buf[KOMA_PMN_BUF];
    size_t n = koma_pmn_write(&c->el[i], buf);
    return koma__error_token(err, code, c->at[i] + off, text, buf, n);
}

void koma_chain_of_move(const koma_move *m, koma_chain *out)
{
    memset(out, 0, sizeof *out);
    out->len = 1;
    out->el[0] = *m;
}

/* ---- parse -------------------------------------------------------------------- */

/* The order rules that need no position (koma/pmn.h, koma_chain_parse). */
static int check_order(const koma_chain *c, koma_error *err)
{
    if (c->len < 2) return 0;
    int groups = 0;                      /* 0 displacement, 1 captures, 2 mutations */
    unsigned long last = 0;
    int have_last = 0;
    for (size_t i = 0; i < c->len; i++) {
        const koma_move *m = &c->el[i];
        if (!chain_element_kind(m->kind))
            return element_error(err, KOMA_E_PMN_CHAIN_ELEMENT, c, i, 0,
                                 "a chain holds moves, captures '+c' and mutations 'c=X' only");
        if (is_displacement(m)) {
            if (i != 0)
                return element_error(err, KOMA_E_PMN_CHAIN_ORDER, c, i, 0,
                                     "only the first element moves a piece (leg forms are read "
                                     "with the legs dialect)");
            continue;
        }
        int g = m->kind == KOMA_MOVE_STATIC ? 1 : 2;
        if (g < groups)
            return element_error(err, KOMA_E_PMN_CHAIN_ORDER, c, i, 0,
                                 "captures '+c' come before mutations 'c=X'");
        if (g > groups) have_last = 0;
        groups = g;
        unsigned long k = cell_key(&m->dst);
        if (have_last && k <= last)
            return element_error(err, KOMA_E_PMN_CHAIN_ORDER, c, i, 0,
                                 g == 1 ? "captures are written in ascending square order"
                                        : "mutations are written in ascending square order");
        last = k;
        have_last = 1;
        if (g == 2 && is_displacement(&c->el[0]) &&
            (koma_cell_equal(&m->dst, &c->el[0].dst) || koma_cell_equal(&m->dst, &c->el[0].src)))
            return element_error(err, KOMA_E_PMN_CHAIN_ORDER, c, i, 0,
                                 "the moving piece's change is written '=X' on the first element");
    }
    return 0;
}

int koma_chain_parse(const char *s, size_t len, koma_chain *out, koma_error *err)
{
    if (s == NULL && len > 0)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_chain_parse: no input");
    if (len == 0) return koma_error_set(err, KOMA_E_PMN_EMPTY, 0, "empty move");
    if (len > KOMA_LIMIT_MOVE_TEXT)
        return koma__error_token(err, KOMA_E_PMN_CHAIN_LENGTH, KOMA_LIMIT_MOVE_TEXT, NULL, s, len);
    if (memchr(s, ',', len) == NULL) {
        /* one move (the common case): no chain-sized scratch to clear and copy */
        koma_move m;
        if (koma_pmn_parse(s, len, &m, err) != 0) return -1;
        if (out != NULL) {
            memset(out, 0, sizeof *out);
            out->el[0] = m;
            out->len = 1;
        }
        return 0;
    }
    koma_chain c;
    memset(&c, 0, sizeof c);
    size_t start = 0;
    for (;;) {
        const char *comma = memchr(s + start, ',', len - start);
        size_t end = comma ? (size_t)(comma - s) : len;
        if (c.len == KOMA_CHAIN_MAX_ELEMENTS)
            return koma__error_token(err, KOMA_E_PMN_CHAIN_ELEMENTS, start - 1,
                                     "move chain exceeds 16 elements", s, len);
        if (koma_pmn_parse(s + start, end - start, &c.el[c.len], err) != 0) {
            if (err) koma_error_shift(err, start);
            return -1;
        }
        c.at[c.len++] = start;
        if (comma == NULL) break;
        start = end + 1;
    }
    if (check_order(&c, err) != 0) return -1;
    if (out != NULL) *out = c;
    return 0;
}

/* ---- write -------------------------------------------------------------------- */

size_t koma_chain_write(const koma_chain *c, char *buf, size_t cap)
{
    size_t n = 0;
    if (cap > 0) buf[0] = '\0';
    if (c == NULL || c->len == 0 || c->len > KOMA_CHAIN_MAX_ELEMENTS) return 0;
    for (size_t i = 0; i < c->len; i++) {
        char e[KOMA_PMN_BUF];
        size_t k = koma_pmn_write(&c->el[i], e);
        if (k == 0) {
            if (cap > 0) buf[0] = '\0';
            return 0;
        }
        if (i > 0) {
            if (n + 1 < cap) buf[n] = ',';
            n++;
        }
        for (size_t j = 0; j < k; j++, n++)
            if (n + 1 < cap) buf[n] = e[j];
    }
    if (cap > 0) buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

int koma_chain_equal(const koma_chain *a, const koma_chain *b)
{
    char x[KOMA_MOVE_TEXT_BUF], y[KOMA_MOVE_TEXT_BUF];
    size_t nx = koma_chain_write(a, x, sizeof x), ny = koma_chain_write(b, y, sizeof y);
    return nx > 0 && nx == ny && memcmp(x, y, nx) == 0;
}

/* ---- effects ------------------------------------------------------------------- */

typedef struct removal {
    uint32_t sq;                         /* where the piece was removed */
    int32_t tag;                         /* the square it started on */
    koma_piece board;                    /* its identity on the board then */
    koma_piece hand;                     /* the identity it entered the hand as */
} removal;

/* A chain being applied: the position, the starting squares of the pieces, the
 * removals, the moving piece. */
typedef struct tracker {
    koma_position pos;
    const koma_position *start;
    int32_t *tag;                        /* per square: starting square, -1 empty */
    removal rem[KOMA_CHAIN_MAX_ELEMENTS * 2 + 2];
    size_t nrem;
    int32_t actor;                       /* the actor's starting square, -1 none yet */
    int side;
} tracker;

static int tracker_init(tracker *t, const koma_position *pos, koma_error *err)
{
    memset(t, 0, sizeof *t);
    koma_position_init(&t->pos);
    t->start = pos;
    t->actor = -1;
    t->side = pos->turn == KOMA_SECOND ? KOMA_SECOND : KOMA_FIRST;
    if (koma_position_copy(&t->pos, pos, err) != 0) return -1;
    t->tag = malloc((pos->shape.squares ? pos->shape.squares : 1) * sizeof *t->tag);
    if (t->tag == NULL) {
        koma_position_cleanup(&t->pos);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (chain)");
    }
    for (uint32_t i = 0; i < pos->shape.squares; i++)
        t->tag[i] = pos->board[i] == KOMA_PIECE_NONE ? -1 : (int32_t)i;
    return 0;
}

static void tracker_cleanup(tracker *t)
{
    koma_position_cleanup(&t->pos);
    free(t->tag);
}

static void note_removal(tracker *t, uint32_t sq, koma_piece hand)
{
    if (t->nrem < sizeof t->rem / sizeof t->rem[0]) {
        removal *r = &t->rem[t->nrem++];
        r->sq = sq;
        r->tag = t->tag[sq];
        r->board = t->pos.board[sq];
        r->hand = hand != KOMA_PIECE_NONE ? hand : t->pos.board[sq];
    }
    t->tag[sq] = -1;
}

/*
 * Apply one element (already parsed) to the tracker: preconditions (offsets
 * from sp), the effects on the position and the tags. `at` is where the
 * element starts in the text (errors are shifted by it).
 */
static int tracker_apply(tracker *t, const koma_move *m, size_t at, koma_error *err)
{
    koma__pmn_spans sp;
    koma__pmn_spans_of(m, &sp);
    if (m->kind == KOMA_MOVE_SPECIAL) {
        char text[KOMA_PMN_BUF];
        size_t n = koma_pmn_write(m, text);
        koma__error_token(err, KOMA_E_PMN_SPECIAL, sp.op,
                          "a '~' move needs a rule system to be applied", text, n);
        if (err) koma_error_shift(err, at);
        return -1;
    }
    if (koma__pmn_check_at(&t->pos, m, &sp, 0u, NULL, err) != 0) {
        if (err) koma_error_shift(err, at);
        return -1;
    }
    uint32_t a = 0, b = 0;
    if (m->kind != KOMA_MOVE_PASS) koma__pmn_square(&t->pos, &m->dst, &b, 0, NULL);
    if (is_displacement(m)) {
        koma__pmn_square(&t->pos, &m->src, &a, 0, NULL);
        if (t->actor < 0) {
            t->actor = t->tag[a];
        } else if (t->tag[a] != t->actor) {
            char text[KOMA_PMN_BUF];
            size_t n = koma_pmn_write(m, text);
            koma__error_token(err, KOMA_E_PMN_CHAIN_ACTOR, 0,
                              "a second piece moves (a leg must start where the moving piece "
                              "stands)", text, n);
            if (err) koma_error_shift(err, at);
            return -1;
        }
    }
    if (m->kind == KOMA_MOVE_CAPTURE || m->kind == KOMA_MOVE_STATIC || m->kind == KOMA_MOVE_DROPCAP)
        note_removal(t, b, m->captured);
    int turn = t->pos.turn;
    if (koma_move_apply(&t->pos, m, err) != 0) {
        if (err) koma_error_shift(err, at);
        return -1;
    }
    t->pos.turn = turn;
    if (is_displacement(m)) {
        t->tag[b] = t->tag[a];
        t->tag[a] = -1;
    } else if (m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP) {
        t->tag[b] = -2;                  /* from the hand: never the actor */
    }
    return 0;
}

static int mutation_key_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Add element m to out, or fail when the chain would exceed its limits. */
static int push(koma_chain *out, const koma_move *m, size_t *textlen, koma_error *err)
{
    char buf[KOMA_PMN_BUF];
    size_t n = koma_pmn_write(m, buf);
    if (out->len == KOMA_CHAIN_MAX_ELEMENTS)
        return koma_error_set(err, KOMA_E_PMN_CHAIN_ELEMENTS, 0,
                              "the canonical form of this move has more than 16 elements");
    *textlen += n + (out->len ? 1 : 0);
    if (*textlen > KOMA_LIMIT_MOVE_TEXT)
        return koma_error_set(err, KOMA_E_PMN_CHAIN_LENGTH, 0,
                              "the canonical form of this move exceeds 256 bytes");
    out->at[out->len] = *textlen - n;
    out->el[out->len++] = *m;
    return 0;
}

/* A removal as the canonical form writes it. */
typedef struct canon_removal {
    unsigned long key;                   /* canonical square order */
    koma_cell cell;
    koma_piece hand;                     /* identity entering the hand */
    koma_piece board;                    /* identity on the board in the canonical replay */
} canon_removal;

static int canon_removal_cmp(const void *x, const void *y)
{
    const canon_removal *a = x, *b = y;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* The canonical chain of what the tracker did (koma/pmn.h). */
static int tracker_canonical(const tracker *t, koma_chain *out, koma_error *err)
{
    const koma_position *p0 = t->start, *p1 = &t->pos;
    const koma_shape *shape = &p0->shape;
    koma_chain c;
    memset(&c, 0, sizeof c);
    size_t textlen = 0;
    int consumed = -1;                   /* the removal element 1 writes as its capture */

    /* the actor: where it ends (on the board, or where it was removed) */
    int32_t fin = -1;
    koma_piece fin_id = KOMA_PIECE_NONE;
    if (t->actor >= 0) {
        for (uint32_t i = 0; i < shape->squares; i++)
            if (t->tag[i] == t->actor) {
                fin = (int32_t)i;
                fin_id = p1->board[i];
            }
        if (fin < 0)
            for (size_t i = 0; i < t->nrem; i++)
                if (t->rem[i].tag == t->actor) {
                    fin = (int32_t)t->rem[i].sq;
                    fin_id = t->rem[i].board;
                }
    }
    int moved = t->actor >= 0 && fin >= 0 && fin != t->actor;
    if (moved) {
        koma_move m;
        memset(&m, 0, sizeof m);
        koma_shape_cell(shape, (uint32_t)t->actor, &m.src);
        koma_shape_cell(shape, (uint32_t)fin, &m.dst);
        m.kind = p0->board[fin] != KOMA_PIECE_NONE ? KOMA_MOVE_CAPTURE : KOMA_MOVE_QUIET;
        if (fin_id != p0->board[t->actor]) m.actor = fin_id;
        if (m.kind == KOMA_MOVE_CAPTURE) {
            /* the piece that stood on the final square: its removal is this capture */
            for (size_t i = 0; i < t->nrem; i++)
                if (t->rem[i].tag == fin) {
                    if (t->rem[i].hand != p0->board[fin]) m.captured = t->rem[i].hand;
                    consumed = (int)i;
                    break;
                }
        }
        if (push(&c, &m, &textlen, err) != 0) return -1;
    }
    /* removals, ascending; the identity each has when the canonical form removes
     * it: the starting one, or the actor's after element 1 */
    canon_removal rem[sizeof t->rem / sizeof t->rem[0]];
    size_t nrem = 0;
    for (size_t i = 0; i < t->nrem; i++) {
        if ((int)i == consumed) continue;
        canon_removal *r = &rem[nrem++];
        koma_shape_cell(shape, t->rem[i].sq, &r->cell);
        r->key = cell_key(&r->cell);
        r->hand = t->rem[i].hand;
        if (t->rem[i].tag == t->actor && t->actor >= 0)
            r->board = moved ? fin_id : p0->board[t->actor];
        else
            r->board = t->rem[i].tag >= 0 ? p0->board[t->rem[i].tag] : t->rem[i].board;
    }
    qsort(rem, nrem, sizeof rem[0], canon_removal_cmp);
    for (size_t i = 0; i < nrem; i++) {
        koma_move m;
        memset(&m, 0, sizeof m);
        m.kind = KOMA_MOVE_STATIC;
        m.dst = rem[i].cell;
        if (rem[i].hand != rem[i].board) m.captured = rem[i].hand;
        if (push(&c, &m, &textlen, err) != 0) return -1;
    }
    /* identity changes of pieces that did not move (the actor's when it is back) */
    size_t nmut = 0;
    uint64_t *keys = malloc((shape->squares ? shape->squares : 1) * sizeof *keys);
    if (keys == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (chain)");
    for (uint32_t i = 0; i < shape->squares; i++) {
        if (t->tag[i] != (int32_t)i || p1->board[i] == p0->board[i]) continue;
        koma_cell cell;
        koma_shape_cell(shape, i, &cell);
        keys[nmut++] = ((uint64_t)cell_key(&cell) << 20) | i;
    }
    qsort(keys, nmut, sizeof *keys, mutation_key_cmp);
    int rc = 0;
    for (size_t i = 0; i < nmut && rc == 0; i++) {
        uint32_t sq = (uint32_t)(keys[i] & 0xFFFFFu);
        koma_move m;
        memset(&m, 0, sizeof m);
        m.kind = KOMA_MOVE_MUTATE;
        koma_shape_cell(shape, sq, &m.dst);
        m.actor = p1->board[sq];
        rc = push(&c, &m, &textlen, err);
    }
    free(keys);
    if (rc != 0) return -1;
    if (c.len == 0) {
        c.len = 1;
        c.el[0].kind = KOMA_MOVE_PASS;
    }
    *out = c;
    return 0;
}

/* ---- apply, canonical form, check ------------------------------------------------ */

/* Run c through a tracker; *t is initialised (clean it up) unless -1 is returned
 * before that. */
static int track_chain(tracker *t, const koma_position *pos, const koma_chain *c, koma_error *err)
{
    if (tracker_init(t, pos, err) != 0) return -1;
    for (size_t i = 0; i < c->len; i++) {
        if (c->len > 1 && c->el[i].kind == KOMA_MOVE_PASS) {
            element_error(err, KOMA_E_PMN_CHAIN_ELEMENT, c, i, 0,
                          "'...' is a whole move, not an element of a chain");
            tracker_cleanup(t);
            return -1;
        }
        if (tracker_apply(t, &c->el[i], c->at[i], err) != 0) {
            tracker_cleanup(t);
            return -1;
        }
    }
    return 0;
}

int koma_chain_apply(koma_position *pos, const koma_chain *c, koma_error *err)
{
    if (pos == NULL || c == NULL || c->len == 0 || c->len > KOMA_CHAIN_MAX_ELEMENTS)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_chain_apply: no position or move");
    tracker t;
    if (track_chain(&t, pos, c, err) != 0) return -1;
    t.pos.turn = t.side == KOMA_FIRST ? KOMA_SECOND : KOMA_FIRST;
    /* the new position replaces pos; pos's buffers go with the tracker */
    koma_position old = *pos;
    *pos = t.pos;
    t.pos = old;
    tracker_cleanup(&t);
    return 0;
}

int koma_chain_canonical(const koma_position *pos, const koma_chain *c, koma_chain *out,
                         koma_error *err)
{
    if (pos == NULL || c == NULL || c->len == 0 || c->len > KOMA_CHAIN_MAX_ELEMENTS)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_chain_canonical: no position or move");
    tracker t;
    if (track_chain(&t, pos, c, err) != 0) return -1;
    int rc = 0;
    if (c->len == 1 && !chain_element_kind(c->el[0].kind)) {
        /* a pass, a drop: one PMN move is its own canonical form */
        *out = *c;
        out->at[0] = 0;
    } else {
        rc = tracker_canonical(&t, out, err);
    }
    tracker_cleanup(&t);
    return rc;
}

int koma_chain_check(const koma_position *pos, const koma_chain *c, koma_error *err)
{
    if (pos == NULL || c == NULL || c->len == 0 || c->len > KOMA_CHAIN_MAX_ELEMENTS)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_chain_check: no position or move");
    if (c->len == 1) return koma_pmn_check(pos, &c->el[0], err);
    tracker t;
    if (tracker_init(&t, pos, err) != 0) return -1;
    int rc = 0;
    for (size_t i = 0; i < c->len && rc == 0; i++) {
        if (c->el[i].kind == KOMA_MOVE_PASS) {
            rc = element_error(err, KOMA_E_PMN_CHAIN_ELEMENT, c, i, 0,
                               "'...' is a whole move, not an element of a chain");
            break;
        }
        /* the element's own canonicality (pmn.canonical.*) where it stands */
        koma__pmn_spans sp;
        koma__pmn_spans_of(&c->el[i], &sp);
        if (c->el[i].kind != KOMA_MOVE_SPECIAL &&
            koma__pmn_check_at(&t.pos, &c->el[i], &sp, KOMA__PMN_CANONICAL, NULL, err) != 0) {
            if (err) koma_error_shift(err, c->at[i]);
            rc = -1;
            break;
        }
        rc = tracker_apply(&t, &c->el[i], c->at[i], err);
    }
    koma_chain canon;
    if (rc == 0) rc = tracker_canonical(&t, &canon, err);
    tracker_cleanup(&t);
    if (rc != 0) return -1;
    if (!koma_chain_equal(&canon, c)) {
        char want[KOMA_MOVE_TEXT_BUF];
        koma_chain_write(&canon, want, sizeof want);
        /* the first element that differs */
        size_t i = 0;
        while (i < c->len && i < canon.len && koma_move_equal(&c->el[i], &canon.el[i])) i++;
        if (i >= c->len) i = c->len - 1;
        char msg[KOMA_MOVE_TEXT_BUF + 40];
        snprintf(msg, sizeof msg, "the canonical form is \"%s\"", want);
        return element_error(err, KOMA_E_PMN_CHAIN_CANONICAL, c, i, 0, msg);
    }
    return 0;
}

/* ---- leg forms ------------------------------------------------------------------- */

static int leg_error(koma_error *err, const char *s, size_t len, size_t off, const char *what)
{
    return koma__error_token(err, KOMA_E_PMN_CHAIN_LEG, off, what, s, len);
}

/* The piece p with the enhanced state (the '+' suffix of XBoard legs). */
static int enhance(koma_piece p, koma_piece *out)
{
    if (p & KOMA_PIECE_STATE) return -1;
    *out = (koma_piece)(p | KOMA_PIECE_ENHANCED);
    return 0;
}

/*
 * One token of a leg form, s[0..len) at offset at of the whole text: a PMN
 * element, or an XBoard leg / koengine shot. Applied to the tracker.
 */
static int read_leg(tracker *t, const char *whole, size_t wlen, const char *s, size_t len,
                    size_t at, koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(s, len, &m, NULL) == 0) {
        if (!chain_element_kind(m.kind))
            return leg_error(err, whole, wlen, at,
                             "a leg is a move, a capture '+c' or a mutation 'c=X'");
        return tracker_apply(t, &m, at, err);
    }
    /* cell ( cell | ("x" cell)+ ) ["+"] */
    koma_cell a, b;
    size_t i = koma_cell_scan(s, len, &a, NULL);
    if (i == 0) return leg_error(err, whole, wlen, at, "expected a PMN element or a leg 'e5e6'");
    int promote = len > i && s[len - 1] == '+';
    size_t end = promote ? len - 1 : len;
    uint32_t sa;
    if (koma__pmn_square(&t->pos, &a, &sa, 0, err) != 0) {
        if (err) koma_error_shift(err, at);
        return -1;
    }
    if (t->pos.board[sa] == KOMA_PIECE_NONE) {
        char cb[KOMA_CELL_BUF];
        size_t n = koma_cell_write(&a, cb);
        return koma__error_token(err, KOMA_E_PMN_SQUARE_EMPTY, at, "no piece on", cb, n);
    }
    if (i < end && s[i] == 'x') {
        /* shots: the piece on a stays */
        while (i < end) {
            if (s[i] != 'x') return leg_error(err, whole, wlen, at + i, "expected 'x' and a target");
            size_t k = koma_cell_scan(s + i + 1, end - i - 1, &b, NULL);
            if (k == 0) return leg_error(err, whole, wlen, at + i + 1, "expected a target square");
            memset(&m, 0, sizeof m);
            m.kind = KOMA_MOVE_STATIC;
            m.dst = b;
            if (tracker_apply(t, &m, at + i, err) != 0) return -1;
            i += 1 + k;
        }
        if (promote) {
            memset(&m, 0, sizeof m);
            m.kind = KOMA_MOVE_MUTATE;
            m.dst = a;
            if (enhance(t->pos.board[sa], &m.actor) != 0)
                return leg_error(err, whole, wlen, at + len - 1, "the piece cannot take '+' again");
            if (tracker_apply(t, &m, at, err) != 0) return -1;
        }
        return 0;
    }
    size_t k = koma_cell_scan(s + i, end - i, &b, NULL);
    if (k == 0) return leg_error(err, whole, wlen, at + i, "expected the leg's target square");
    if (i + k != end)
        return leg_error(err, whole, wlen, at + i + k, "unexpected character after the leg");
    uint32_t sb;
    if (koma__pmn_square(&t->pos, &b, &sb, 0, err) != 0) {
        if (err) koma_error_shift(err, at + i);
        return -1;
    }
    memset(&m, 0, sizeof m);
    m.src = a;
    m.dst = b;
    m.kind = t->pos.board[sb] != KOMA_PIECE_NONE ? KOMA_MOVE_CAPTURE : KOMA_MOVE_QUIET;
    if (promote && enhance(t->pos.board[sa], &m.actor) != 0)
        return leg_error(err, whole, wlen, at + len - 1, "the piece cannot take '+' again");
    return tracker_apply(t, &m, at, err);
}

int koma_chain_read_legs(const char *s, size_t len, const koma_position *pos, koma_chain *out,
                         koma_error *err)
{
    if (pos == NULL)
        return koma_error_set(err, KOMA_E_PMN_CONTEXT, 0, "leg forms need a position (a FEEN)");
    if (s == NULL && len > 0)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_chain_read_legs: no input");
    if (len == 0) return koma_error_set(err, KOMA_E_PMN_EMPTY, 0, "empty move");
    if (len > KOMA_LIMIT_MOVE_TEXT)
        return koma__error_token(err, KOMA_E_PMN_CHAIN_LENGTH, KOMA_LIMIT_MOVE_TEXT, NULL, s, len);
    if ((len == 3 && memcmp(s, "...", 3) == 0) || (len == 4 && memcmp(s, "@@@@", 4) == 0)) {
        memset(out, 0, sizeof *out);
        out->len = 1;
        out->el[0].kind = KOMA_MOVE_PASS;
        return 0;
    }
    tracker t;
    if (tracker_init(&t, pos, err) != 0) return -1;
    size_t start = 0, n = 0;
    int rc = 0;
    for (;;) {
        const char *comma = memchr(s + start, ',', len - start);
        size_t end = comma ? (size_t)(comma - s) : len;
        if (++n > KOMA_CHAIN_MAX_ELEMENTS) {
            rc = koma__error_token(err, KOMA_E_PMN_CHAIN_ELEMENTS, start - 1,
                                   "move exceeds 16 legs", s, len);
            break;
        }
        if (end == start) {
            rc = leg_error(err, s, len, start, "empty leg");
            break;
        }
        if ((rc = read_leg(&t, s, len, s + start, end - start, start, err)) != 0) break;
        if (comma == NULL) break;
        start = end + 1;
    }
    if (rc == 0) rc = tracker_canonical(&t, out, err);
    tracker_cleanup(&t);
    return rc;
}
