/*
 * lib/referee_explain.c — what the referee tells with an illegal ply or a
 * recorded mate the rules do not find: the legal moves (from the ply's origin;
 * a mated side's escapes, interpositions and captures), the one legal move a
 * notation slip names, and the kind a dialect's pieceless drop can only be.
 */
#include <stdlib.h>
#include <string.h>

#include "referee_internal.h"

/* The legal moves of the current position as canonical texts (r->texts,
 * KOMA_MOVE_TEXT_BUF bytes each); their number, or -1 (memory). */
long koma__referee_legal_texts(koma_referee *r, koma_error *err)
{
    size_t max = koma_engine_max_moves(r->e);
    if (max > r->capmoves) {
        koma_emove *mv = realloc(r->moves, max * sizeof *mv);
        if (mv == NULL) return oom(err);
        r->moves = mv;
        r->capmoves = max;
    }
    size_t n = koma_engine_legal_moves(r->e, r->moves);
    if (koma__engine_trouble(r->e)) return oom(err);
    if (n > r->captexts) {
        char *t = realloc(r->texts, n * KOMA_MOVE_TEXT_BUF);
        if (t == NULL) return oom(err);
        r->texts = t;
        r->captexts = n;
    }
    for (size_t i = 0; i < n; i++)
        koma_engine_move_text(r->e, r->moves[i], r->texts + i * KOMA_MOVE_TEXT_BUF, KOMA_MOVE_TEXT_BUF);
    return (long)n;
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* r->texts[0..k) space-separated into out[KOMA_VERDICT_LEGAL_MAX] (cut at a
 * move when they do not fit); join_sorted sorts them first. */
static void join(koma_referee *r, size_t k, char *out)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        const char *t = r->texts + i * KOMA_MOVE_TEXT_BUF;
        size_t w = strlen(t);
        if (len + w + 2 >= KOMA_VERDICT_LEGAL_MAX) break;
        if (len) out[len++] = ' ';
        memcpy(out + len, t, w + 1);
        len += w;
    }
}

static void join_sorted(koma_referee *r, size_t k, char *out)
{
    qsort(r->texts, k, KOMA_MOVE_TEXT_BUF, cmp_text);
    join(r, k, out);
}

/* Whether the piece on square sq gives the only check to the side to move:
 * without it, that side is not in check. 1, 0, or -1 (memory). */
static int sole_checker(koma_referee *r, uint32_t sq, koma_error *err)
{
    koma_engine *e2;
    koma_position p;
    koma_position_init(&p);
    int rc = -1;
    if (koma_position_copy(&p, &r->pos, err) != 0) goto out;
    p.board[sq] = KOMA_PIECE_NONE;
    if (koma_engine_new(r->g, &e2, err) != 0) goto out;
    koma_error why;
    if (koma_engine_set_position(e2, &p, &why) == 0) rc = !koma_engine_in_check(e2);
    else if (why.code == KOMA_E_MEMORY) *err = why;
    else rc = 0;
    koma_engine_free(e2);
out:
    koma_position_cleanup(&p);
    return rc;
}

/* A recorded checkmate the rules do not find: what the side to move can still
 * do (koma_verdict.mate_*): its legal moves, sorted by kind (king escapes,
 * interpositions, captures of the checker), each kind sorted. */
int koma__referee_mate_refutation(koma_referee *r, koma_verdict *v, koma_error *err)
{
    long n = koma__referee_legal_texts(r, err);
    if (n < 0) return -1;
    v->mate_refuted = 1;
    v->mate_in_check = koma_engine_in_check(r->e);
    v->mate_moves = (size_t)n;
    v->mate_interpositions = v->mate_escapes = v->mate_captures = 0;
    if (!v->mate_in_check || n == 0) {
        join_sorted(r, (size_t)n, v->legal);
        return 0;
    }
    if (koma_engine_get_position(r->e, &r->pos, err) != 0) return -1;
    unsigned char *kind = malloc((size_t)n);
    if (kind == NULL) return oom(err);
    for (long i = 0; i < n; i++) {
        koma_move m;
        uint32_t from = 0, to = 0;
        kind[i] = 1;                   /* a drop, or a move between */
        if (koma_engine_move_pmn(r->e, r->moves[i], &m) != 0 || m.kind == KOMA_MOVE_DROP ||
            m.kind == KOMA_MOVE_DROPCAP || !m.src.ndims ||
            koma_shape_square(&r->pos.shape, &m.src, &from, NULL) != 0 ||
            koma_shape_square(&r->pos.shape, &m.dst, &to, NULL) != 0)
            continue;
        int king = (r->pos.board[from] & KOMA_PIECE_TERMINAL) != 0;
        int takes = r->pos.board[to] != KOMA_PIECE_NONE;
        if (takes && !king) {
            kind[i] = 2;               /* a capture that answers check takes the checker */
        } else if (takes) {
            int c = sole_checker(r, to, err);
            if (c < 0) {
                free(kind);
                return -1;
            }
            kind[i] = c ? 2 : 0;
        } else if (king) {
            kind[i] = 0;
        }
    }
    /* grouped: escapes, interpositions, captures; each group sorted */
    char tmp[KOMA_MOVE_TEXT_BUF];
    size_t at = 0;
    for (unsigned char k = 0; k < 3; k++) {
        size_t start = at;
        for (size_t i = at; i < (size_t)n; i++) {
            if (kind[i] != k) continue;
            if (i != at) {
                memcpy(tmp, r->texts + at * KOMA_MOVE_TEXT_BUF, KOMA_MOVE_TEXT_BUF);
                memcpy(r->texts + at * KOMA_MOVE_TEXT_BUF, r->texts + i * KOMA_MOVE_TEXT_BUF, KOMA_MOVE_TEXT_BUF);
                memcpy(r->texts + i * KOMA_MOVE_TEXT_BUF, tmp, KOMA_MOVE_TEXT_BUF);
                unsigned char t = kind[at];
                kind[at] = kind[i];
                kind[i] = t;
            }
            at++;
        }
        qsort(r->texts + start * KOMA_MOVE_TEXT_BUF, at - start, KOMA_MOVE_TEXT_BUF, cmp_text);
        if (k == 0) v->mate_escapes = at - start;
        else if (k == 1) v->mate_interpositions = at - start;
        else v->mate_captures = at - start;
    }
    free(kind);
    join(r, (size_t)n, v->legal);
    return 0;
}

/* The legal moves from the origin of the illegal ply (a drop: onto its square),
 * sorted, into r->legal. */
int koma__referee_alternatives(koma_referee *r, const char *canon, size_t clen, koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(canon, clen, &m, NULL) != 0) return 0;
    int drop = m.kind == KOMA_MOVE_DROP || m.kind == KOMA_MOVE_DROPCAP;
    if (drop) koma_cell_write(&m.dst, r->alt_square);
    else if (m.src.ndims) koma_cell_write(&m.src, r->alt_square);
    else return 0;
    r->alt_drop = drop;
    long n = koma__referee_legal_texts(r, err);
    if (n < 0) return -1;
    size_t k = 0;
    char self[KOMA_PMN_BUF];
    koma_pmn_write(&m, self);
    for (long i = 0; i < n; i++) {
        char *t = r->texts + (size_t)i * KOMA_MOVE_TEXT_BUF;
        koma_move lm;
        if (koma_pmn_parse(t, strlen(t), &lm, NULL) != 0) continue;
        int same = drop ? lm.kind == KOMA_MOVE_DROP && koma_cell_equal(&lm.dst, &m.dst)
                        : lm.kind != KOMA_MOVE_DROP && koma_cell_equal(&lm.src, &m.src);
        if (!same || strcmp(t, self) == 0) continue;   /* an Ōgi repeat is legal but refused */
        if ((size_t)i != k) memcpy(r->texts + k * KOMA_MOVE_TEXT_BUF, t, KOMA_MOVE_TEXT_BUF);
        k++;
    }
    join_sorted(r, k, r->legal);
    return 0;
}

static int same_piece(koma_piece a, koma_piece b)
{
    return ((a ^ b) & (koma_piece)~KOMA_PIECE_SECOND) == 0;
}

/* Whether the move m names the legal move l: the same origin (a drop: the same
 * piece) and destination, the same promotion choice, the same captured
 * identity when it is written; the case of a letter and the operator aside. */
static int names(const koma_move *m, const koma_move *l)
{
    int mb = m->kind == KOMA_MOVE_QUIET || m->kind == KOMA_MOVE_CAPTURE;
    int lb = l->kind == KOMA_MOVE_QUIET || l->kind == KOMA_MOVE_CAPTURE;
    if (mb != lb || !koma_cell_equal(&m->dst, &l->dst)) return 0;
    if (mb) {
        if (!koma_cell_equal(&m->src, &l->src)) return 0;
    } else if (m->kind != KOMA_MOVE_DROP || l->kind != KOMA_MOVE_DROP ||
               m->piece == KOMA_PIECE_NONE || !same_piece(m->piece, l->piece)) {
        return 0;
    }
    if ((m->actor != KOMA_PIECE_NONE) != (l->actor != KOMA_PIECE_NONE)) return 0;
    if (m->actor != KOMA_PIECE_NONE && !same_piece(m->actor, l->actor)) return 0;
    return m->captured == KOMA_PIECE_NONE || same_piece(m->captured, l->captured);
}

/*
 * A ply that is not a legal move as written but names exactly one legal move
 * (a notation slip): *out is that move, fixed its canonical text.
 * 1 when found, 0 when not (none or several), -1 (memory).
 */
/* A chain (Ko shogi) naming a legal move in another order or in leg form: read
 * it against the position (koma_chain_read_legs normalises it); 1 when its
 * canonical form is a legal move (*out, fixed). */
static int chain_slip(koma_referee *r, const char *text, size_t len, koma_emove *out,
                      char *fixed, size_t cap, koma_error *err)
{
    koma_chain c;
    koma_error why;
    if (koma_engine_get_position(r->e, &r->pos, err) != 0) return -1;
    if (koma_chain_read_legs(text, len, &r->pos, &c, &why) != 0) return 0;
    char t[KOMA_MOVE_TEXT_BUF];
    size_t n = koma_chain_write(&c, t, sizeof t);
    if (n == 0 || n >= sizeof t || (n == len && memcmp(t, text, len) == 0)) return 0;
    if (koma_engine_parse_move(r->e, t, n, out, &why) != 0) {
        if (why.code != KOMA_E_MEMORY) return 0;
        *err = why;
        return -1;
    }
    copy(fixed, cap, t);
    return 1;
}

int koma__referee_notation_slip(koma_referee *r, const char *canon, size_t clen, koma_emove *out,
                         char *fixed, size_t cap, koma_error *err)
{
    if (memchr(canon, ',', clen) != NULL) return chain_slip(r, canon, clen, out, fixed, cap, err);
    koma_move m;
    if (koma_pmn_parse(canon, clen, &m, NULL) != 0) return 0;
    if (m.kind != KOMA_MOVE_QUIET && m.kind != KOMA_MOVE_CAPTURE && m.kind != KOMA_MOVE_DROP)
        return 0;
    long n = koma__referee_legal_texts(r, err);
    if (n < 0) return -1;
    long found = -1;
    for (long i = 0; i < n; i++) {
        const char *t = r->texts + (size_t)i * KOMA_MOVE_TEXT_BUF;
        koma_move lm;
        if (koma_pmn_parse(t, strlen(t), &lm, NULL) != 0 || !names(&m, &lm)) continue;
        if (found >= 0) return 0;      /* several: the text does not say which */
        found = i;
    }
    if (found < 0) return 0;
    *out = r->moves[found];
    copy(fixed, cap, r->texts + (size_t)found * KOMA_MOVE_TEXT_BUF);
    return 1;
}

/*
 * A dialect's pieceless drop (`*-e5`) that the rule-agnostic reader found
 * ambiguous (err: pmn.hand.ambiguous, r->pos the position): read it again with
 * each kind of the mover's hand alone and keep the kinds the rules let drop
 * there. One left: *m is that drop, 0. None or several: err lists them, -1.
 */
int koma__referee_resolve_drop(koma_referee *r, const char *s, size_t len, koma_move *m, koma_error *err)
{
    koma_hand *hand = &r->pos.hands[r->pos.turn];
    const koma_hand saved = *hand;
    char kept[160] = "", all[160] = "", square[KOMA_CELL_BUF] = "";
    size_t nkept = 0, nk = 0, na = 0;
    koma_error unread;                 /* why the first kind could not be read there */
    koma_error_clear(&unread);
    for (size_t i = 0; i < saved.len; i++) {
        koma_piece p = saved.items[i].piece;
        if (koma_piece_side(p) != r->pos.turn) continue;
        koma_move cand;
        koma_emove em;
        koma_error why;
        koma_error_clear(&why);
        hand->items = &saved.items[i];
        hand->len = 1;
        int ok = koma_pmn_parse_dialect(r->opt.dialect, s, len, &r->pos, &cand, &why) == 0;
        *hand = saved;
        if (!ok) {
            if (unread.code == KOMA_OK) unread = why;
            continue;
        }
        char e[KOMA_EPIN_BUF], text[KOMA_PMN_BUF];
        koma_epin_write(p, e);
        koma_cell_write(&cand.dst, square);
        if (na + strlen(e) + 3 < sizeof all)
            na += (size_t)snprintf(all + na, sizeof all - na, "%s%s", na ? ", " : "", e);
        size_t tl = koma_pmn_write(&cand, text);
        if (koma_engine_parse_move(r->e, text, tl, &em, &why) != 0) continue;
        if (nk + strlen(e) + 3 < sizeof kept)
            nk += (size_t)snprintf(kept + nk, sizeof kept - nk, "%s%s", nk ? ", " : "", e);
        if (nkept++ == 0) *m = cand;
    }
    if (nkept == 1) return 0;
    if (square[0] == '\0') {
        /* no kind can be read there (an occupied square...): that is the error */
        if (unread.code != KOMA_OK) *err = unread;
        return -1;
    }
    char q[64];
    koma_quote(q, sizeof q, s, len);
    if (nkept == 0)
        koma_error_set(err, KOMA_E_PMN_HAND_AMBIGUOUS, err->offset,
                       "none of the pieces in hand (%s) can be dropped on %s: \"%s\"", all,
                       square, q);
    else
        koma_error_set(err, KOMA_E_PMN_HAND_AMBIGUOUS, err->offset,
                       "several pieces in hand could be dropped on %s (%s): \"%s\"", square,
                       kept, q);
    return -1;
}
