/*
 * lib/pmn_dialect.c — PMN input dialects (koma-formats(5), PMN, "Input dialects"),
 * each converted to the canonical move with the position as context.
 *
 * seed (the Ōgi rule page's forms):
 *     a-b        any board move: a capture when b is occupied. The captured piece
 *                enters the mover's hand by the default rule (the mover's case,
 *                state prefix dropped, '^' and "'" kept; koma_capture_identity),
 *                written '/Y' when that differs from the piece on b.
 *     a-b/X      the same, X being the mover's final identity; its letter case is
 *                taken from the side to move (`/+P` reads as `+p` for Gote). It
 *                becomes '=X' only when it differs from the piece on a.
 *     *-b        a drop; the piece is the one kind of the mover's case in the
 *                mover's hand (pmn.hand.ambiguous lists the candidates).
 *   The King's privilege (keeping a promoted capture promoted) cannot be said.
 *   Errors use the pmn.* codes with columns in the seed text.
 *
 * json-array (the specification's earlier form): a JSON array of strings, actions of
 * [source, destination, piece?], locations CELL or "*", pieces QPI giving the
 * final identity. QPI -> EPIN: the piece's case is its side; the derivation
 * marker is set when the QPI style letter differs from that side's style in
 * the position. When both sides have the same style letter (Ōgi `O/o`), QPI
 * cannot tell, and the marker of the piece before the action is kept (so a
 * Jeweled King `k^'` stays `k^'`; a dropped piece is looked up in hand with
 * and without the marker). Mapping:
 *     []                       ...   (one version of the spec's examples)
 *     [a,b,Q?]                 a-b[=X]       (b must be empty)
 *     [a,a,Q]                  a=X
 *     ["*",b,Q?]               P*b           (Q? omitted: the one kind in hand)
 *     [a,"*",Y?]               +a[/Y]
 *     [x,"*",Y, a,x,Z?]        a+x[=Z][/Y]
 *     [x,"*",Y, "*",x,Q?]      Q.x[/Y]
 *     anything else            a~b[=X][/Y]: a-b is the first board-to-board
 *                              action, Y from the first board-to-hand action
 * Suffixes are written only when the identity changes. Errors: pmn.json.*
 * (and the pmn.* check codes); the line and column are those of the offending
 * string in the JSON text (its opening quote), or of the array for its length.
 */
#include <stdio.h>
#include <string.h>

#include "pmn_internal.h"

int koma_pmn_dialect_from_name(const char *s, size_t len, koma_pmn_dialect *out)
{
    static const struct { const char *name; koma_pmn_dialect d; } names[] = {
        { "pmn", KOMA_PMN_DIALECT_CANONICAL },
        { "canonical", KOMA_PMN_DIALECT_CANONICAL },
        { "seed", KOMA_PMN_DIALECT_SEED },
        { "json-array", KOMA_PMN_DIALECT_JSON_ARRAY },
        { "legs", KOMA_PMN_DIALECT_LEGS },
        { "sanki", KOMA_PMN_DIALECT_SANKI },
    };
    if (s == NULL) return -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == len && memcmp(names[i].name, s, len) == 0) {
            if (out != NULL) *out = names[i].d;
            return 0;
        }
    return -1;
}

const char *koma_pmn_dialect_name(koma_pmn_dialect d)
{
    switch (d) {
    case KOMA_PMN_DIALECT_CANONICAL: return "pmn";
    case KOMA_PMN_DIALECT_SEED: return "seed";
    case KOMA_PMN_DIALECT_JSON_ARRAY: return "json-array";
    case KOMA_PMN_DIALECT_LEGS: return "legs";
    case KOMA_PMN_DIALECT_SANKI: return "sanki";
    }
    return NULL;
}

static int side_to_move(const koma_position *pos)
{
    return pos->turn == KOMA_SECOND ? KOMA_SECOND : KOMA_FIRST;
}

static koma_piece recase(koma_piece p, int side)
{
    p = (koma_piece)(p & ~KOMA_PIECE_SECOND);
    if (side == KOMA_SECOND) p |= KOMA_PIECE_SECOND;
    return p;
}

/* ---- canonical ------------------------------------------------------------ */

static int read_canonical(const char *s, size_t len, const koma_position *pos, koma_move *out,
                          koma_error *err)
{
    koma_move m;
    koma__pmn_spans sp;
    koma_piece dropped = KOMA_PIECE_NONE;

    if (koma_pmn_parse(s, len, &m, err) != 0) return -1;
    if (pos != NULL) {
        /* the text is the canonical text of m, so its spans are m's */
        koma__pmn_spans_of(&m, &sp);
        if (koma__pmn_check_at(pos, &m, &sp, KOMA__PMN_CANONICAL, &dropped, err) != 0)
            return -1;
        if ((m.kind == KOMA_MOVE_DROP || m.kind == KOMA_MOVE_DROPCAP) &&
            m.piece == KOMA_PIECE_NONE)
            m.piece = dropped;
    }
    if (out != NULL) memcpy(out, &m, sizeof m);
    return 0;
}

/* ---- seed ----------------------------------------------------------------- */

static int read_seed(const char *s, size_t len, const koma_position *pos, koma_move *out,
                     koma_error *err)
{
    koma__pmn_failure f;
    koma__pmn_spans sp;
    koma_move m;
    size_t i = 0;
    koma_piece final = KOMA_PIECE_NONE;
    int side = side_to_move(pos);

    memset(&m, 0, sizeof m);
    memset(&sp, 0, sizeof sp);
    if (len == 0) return koma_error_set(err, KOMA_E_PMN_EMPTY, 0, "empty move");
    if (len > KOMA_PMN_MAX_LEN)
        return koma__error_token(err, KOMA_E_PMN_LENGTH, KOMA_PMN_MAX_LEN, NULL, s, len);

    if (s[0] == '*') {
        m.kind = KOMA_MOVE_DROP;
        i = 1;
        if (i >= len || s[i] != '-') {
            koma__pmn_fail(&f, s, len, i, KOMA_E_PMN_SYNTAX,
                           "expected '-' after '*' (seed drop *-b)");
            goto syntax;
        }
        i++;
        sp.dst = i;
        if (koma__pmn_cell(s, len, &i, &m.dst, &f)) goto syntax;
        if (i < len) {
            koma__pmn_fail(&f, s, len, i, s[i] == '/' || s[i] == '=' ? KOMA_E_PMN_SUFFIX
                                                                     : KOMA_E_PMN_SYNTAX,
                           "unexpected character after the seed drop");
            goto syntax;
        }
        if (koma__pmn_hand_pick(pos, side, &m.piece, 0, s, len, err)) return -1;
    } else if (KOMA_IS_LOWER(s[0])) {
        sp.src = 0;
        if (koma__pmn_cell(s, len, &i, &m.src, &f)) goto syntax;
        if (i >= len || s[i] != '-') {
            koma__pmn_fail(&f, s, len, i, KOMA_E_PMN_SYNTAX,
                           "expected '-' after the coordinate (seed moves are a-b)");
            goto syntax;
        }
        sp.op = i++;
        sp.dst = i;
        if (koma__pmn_cell(s, len, &i, &m.dst, &f)) goto syntax;
        if (i < len && s[i] == '/') {
            i++;
            sp.actor = i;
            if (koma__pmn_epin(s, len, &i, &final, &f)) goto syntax;
        }
        if (i < len) {
            koma__pmn_fail(&f, s, len, i, s[i] == '/' || s[i] == '=' ? KOMA_E_PMN_SUFFIX
                                                                     : KOMA_E_PMN_SYNTAX,
                           "unexpected character after the seed move");
            goto syntax;
        }
        uint32_t a, b;
        if (koma__pmn_square(pos, &m.src, &a, sp.src, err)) return -1;
        if (koma__pmn_square(pos, &m.dst, &b, sp.dst, err)) return -1;
        koma_piece mover = pos->board[a], victim = pos->board[b];
        m.kind = KOMA_MOVE_QUIET;
        if (victim != KOMA_PIECE_NONE && a != b) {
            m.kind = KOMA_MOVE_CAPTURE;
            koma_piece cap = koma_capture_identity(victim, side);
            if (cap != victim) m.captured = cap;
            sp.captured = sp.dst;
        }
        if (final != KOMA_PIECE_NONE && mover != KOMA_PIECE_NONE) {
            final = recase(final, side);
            if (final != mover) m.actor = final;
        }
    } else {
        koma__pmn_fail(&f, s, len, 0, KOMA_E_PMN_SYNTAX,
                       "a seed move starts with a coordinate or '*-'");
        goto syntax;
    }
    if (koma__pmn_check_at(pos, &m, &sp, KOMA__PMN_CANONICAL, NULL, err) != 0) return -1;
    if (out != NULL) memcpy(out, &m, sizeof m);
    return 0;

syntax:
    return koma__error_token(err, f.code, f.off, f.what, s, len);
}

/* ---- json-array ----------------------------------------------------------- */

#define JSON_MAX_ITEMS 60
#define JSON_ITEM_MAX KOMA__PMN_JITEM_MAX

typedef koma__pmn_jitem jitem;

typedef struct jaction {
    koma_location src, dst;
    const jitem *is, *id, *ip;     /* ip NULL when the piece is omitted */
} jaction;

/* The array: items[0..*n), its '[' at *arr. */
static int json_array(const char *s, size_t len, jitem *items, size_t *n, size_t *arr,
                      koma_error *err)
{
    size_t i = koma__pmn_json_ws(s, len, 0);
    *n = 0;
    if (i >= len || s[i] != '[')
        return koma__pmn_json_fail(err, KOMA_E_PMN_JSON_SYNTAX, i, "expected a JSON array '['", s, len);
    *arr = i;
    i = koma__pmn_json_ws(s, len, i + 1);
    if (i < len && s[i] == ']') {
        i++;
    } else {
        for (;;) {
            if (i >= len || s[i] != '"')
                return koma__pmn_json_fail(err, KOMA_E_PMN_JSON_SYNTAX, i, "expected a string", s, len);
            if (*n >= JSON_MAX_ITEMS)
                return koma__pmn_json_fail(err, KOMA_E_PMN_JSON_LENGTH, i, "more than 60 items", s, len);
            if (koma__pmn_json_string(s, len, &i, &items[*n], KOMA_E_PMN_JSON_SYNTAX, err)) return -1;
            (*n)++;
            i = koma__pmn_json_ws(s, len, i);
            if (i < len && s[i] == ']') { i++; break; }
            if (i >= len || s[i] != ',')
                return koma__pmn_json_fail(err, KOMA_E_PMN_JSON_SYNTAX, i, "expected ',' or ']'", s, len);
            i = koma__pmn_json_ws(s, len, i + 1);
        }
    }
    i = koma__pmn_json_ws(s, len, i);
    if (i < len)
        return koma__pmn_json_fail(err, KOMA_E_PMN_JSON_SYNTAX, i, "unexpected text after the array", s, len);
    return 0;
}

static int item_error(koma_error *err, koma_code code, const char *what, const jitem *it,
                      const char *s, size_t len)
{
    size_t n = it->len < JSON_ITEM_MAX ? it->len : JSON_ITEM_MAX;
    koma__error_token(err, code, it->off, what, it->text, n);
    return koma__pmn_json_place(err, s, len);
}

static int json_location(const jitem *it, koma_location *loc, koma_error *err, const char *s,
                         size_t len)
{
    if (it->len > JSON_ITEM_MAX || koma_location_parse(it->text, it->len, loc, NULL) != 0)
        return item_error(err, KOMA_E_PMN_JSON_LOCATION,
                          "invalid location (a CELL coordinate or \"*\")", it, s, len);
    return 0;
}

/*
 * The EPIN of a QPI item. ref is the identity before the action (the piece on
 * the source square), whose derivation marker is kept when QPI cannot tell.
 */
static int json_piece(const koma_position *pos, const jitem *it, koma_piece ref,
                      koma_piece *out, koma_error *err, const char *s, size_t len)
{
    koma_qpi q;
    memset(&q, 0, sizeof q);
    if (it->len > JSON_ITEM_MAX || koma_qpi_parse(it->text, it->len, &q, NULL) != 0)
        return item_error(err, KOMA_E_PMN_JSON_PIECE, "invalid QPI piece", it, s, len);
    int side = koma_piece_side(q.piece);
    char own = (char)(pos->style[side] | 0x20), other = (char)(pos->style[!side] | 0x20);
    char style = (char)(q.style | 0x20);
    koma_piece p = q.piece;
    if (own == other) {
        if (ref & KOMA_PIECE_DERIVED) p |= KOMA_PIECE_DERIVED;
    } else if (style != own) {
        p |= KOMA_PIECE_DERIVED;
    }
    *out = p;
    return 0;
}

/* The board piece on a cell (NONE when off board: the check reports that). */
static koma_piece board_at(const koma_position *pos, const koma_cell *c)
{
    uint32_t sq;
    if (koma__pmn_square(pos, c, &sq, 0, NULL) != 0) return KOMA_PIECE_NONE;
    return pos->board[sq];
}

/* A suffix identity from a QPI item, NONE when omitted or unchanged from ref. */
static int json_suffix(const koma_position *pos, const jitem *it, koma_piece ref,
                       koma_piece *out, koma_error *err, const char *s, size_t len)
{
    koma_piece p = KOMA_PIECE_NONE;
    *out = KOMA_PIECE_NONE;
    if (it == NULL) return 0;
    if (json_piece(pos, it, ref, &p, err, s, len)) return -1;
    if (p != ref) *out = p;
    return 0;
}

/* The dropped piece of a QPI item: as computed, or (same style letters) with
 * or without the marker, whichever the hand holds. */
static int json_drop_piece(const koma_position *pos, const jitem *it, koma_piece *out,
                           koma_error *err, const char *s, size_t len)
{
    koma_piece p = KOMA_PIECE_NONE;
    if (json_piece(pos, it, KOMA_PIECE_NONE, &p, err, s, len)) return -1;
    const koma_hand *h = &pos->hands[side_to_move(pos)];
    if ((pos->style[0] | 0x20) == (pos->style[1] | 0x20) && koma_hand_count(h, p) == 0 &&
        koma_hand_count(h, (koma_piece)(p | KOMA_PIECE_DERIVED)) > 0)
        p |= KOMA_PIECE_DERIVED;
    *out = p;
    return 0;
}

static int is_board(const koma_location *l) { return !l->hand; }

static int read_json(const char *s, size_t len, const koma_position *pos, koma_move *out,
                     koma_error *err)
{
    jitem items[JSON_MAX_ITEMS];
    jaction act[JSON_MAX_ITEMS / 3 + 1];
    size_t n = 0, arr = 0;
    koma_move m;
    koma__pmn_spans sp;
    koma_piece dropped = KOMA_PIECE_NONE;

    memset(&m, 0, sizeof m);
    memset(&sp, 0, sizeof sp);
    if (json_array(s, len, items, &n, &arr, err)) return -1;
    if (n == 0) {
        m.kind = KOMA_MOVE_PASS;
        if (out != NULL) memcpy(out, &m, sizeof m);
        return 0;
    }
    if (n < 2 || n % 3 == 1)
        return koma__pmn_json_fail(err, KOMA_E_PMN_JSON_LENGTH, arr,
                     "legacy PMN array length must be 3n or 3n+2 (at least 2)", s, len);

    size_t na = (n + 2) / 3;
    for (size_t k = 0; k < na; k++) {
        jaction *a = &act[k];
        a->is = &items[3 * k];
        a->id = &items[3 * k + 1];
        a->ip = 3 * k + 2 < n ? &items[3 * k + 2] : NULL;
        if (json_location(a->is, &a->src, err, s, len)) return -1;
        if (json_location(a->id, &a->dst, err, s, len)) return -1;
        if (a->ip != NULL) {
            koma_qpi q;
            if (a->ip->len > JSON_ITEM_MAX ||
                koma_qpi_parse(a->ip->text, a->ip->len, &q, NULL) != 0)
                return item_error(err, KOMA_E_PMN_JSON_PIECE, "invalid QPI piece", a->ip, s,
                                  len);
        }
        if (a->src.hand && a->dst.hand)
            return item_error(err, KOMA_E_PMN_JSON_HAND, "hand-to-hand action", a->is, s, len);
    }

    const jaction *a0 = &act[0], *a1 = na > 1 ? &act[1] : NULL;
    if (na == 1 && is_board(&a0->src) && is_board(&a0->dst) &&
        koma_cell_equal(&a0->src.cell, &a0->dst.cell)) {
        if (a0->ip == NULL)
            return item_error(err, KOMA_E_PMN_JSON_UNSUPPORTED,
                              "an in-place action needs its piece", a0->is, s, len);
        m.kind = KOMA_MOVE_MUTATE;
        m.dst = a0->src.cell;
        sp.dst = a0->is->off;
        sp.actor = a0->ip->off;
        if (json_piece(pos, a0->ip, board_at(pos, &m.dst), &m.actor, err, s, len)) return -1;
    } else if (na == 1 && is_board(&a0->src) && is_board(&a0->dst)) {
        m.kind = KOMA_MOVE_QUIET;
        m.src = a0->src.cell;
        m.dst = a0->dst.cell;
        sp.src = a0->is->off;
        sp.dst = a0->id->off;
        sp.actor = a0->ip != NULL ? a0->ip->off : 0;
        if (json_suffix(pos, a0->ip, board_at(pos, &m.src), &m.actor, err, s, len)) return -1;
    } else if (na == 1 && a0->src.hand) {
        m.kind = KOMA_MOVE_DROP;
        m.dst = a0->dst.cell;
        sp.dst = a0->id->off;
        sp.piece = a0->ip != NULL ? a0->ip->off : a0->is->off;
        if (a0->ip != NULL && json_drop_piece(pos, a0->ip, &m.piece, err, s, len)) return -1;
    } else if (na == 1) {
        m.kind = KOMA_MOVE_STATIC;
        m.dst = a0->src.cell;
        sp.dst = a0->is->off;
        sp.captured = a0->ip != NULL ? a0->ip->off : 0;
        if (json_suffix(pos, a0->ip, board_at(pos, &m.dst), &m.captured, err, s, len))
            return -1;
    } else if (na == 2 && is_board(&a0->src) && a0->dst.hand &&
               is_board(&a1->dst) && koma_cell_equal(&a1->dst.cell, &a0->src.cell) &&
               (a1->src.hand || !koma_cell_equal(&a1->src.cell, &a1->dst.cell))) {
        /* capture on x, then something arrives on x */
        m.dst = a0->src.cell;
        sp.dst = a1->id->off;
        sp.captured = a0->ip != NULL ? a0->ip->off : 0;
        if (json_suffix(pos, a0->ip, board_at(pos, &m.dst), &m.captured, err, s, len))
            return -1;
        if (a1->src.hand) {
            m.kind = KOMA_MOVE_DROPCAP;
            sp.piece = a1->ip != NULL ? a1->ip->off : a1->is->off;
            if (a1->ip != NULL && json_drop_piece(pos, a1->ip, &m.piece, err, s, len))
                return -1;
        } else {
            m.kind = KOMA_MOVE_CAPTURE;
            m.src = a1->src.cell;
            sp.src = a1->is->off;
            sp.actor = a1->ip != NULL ? a1->ip->off : 0;
            if (json_suffix(pos, a1->ip, board_at(pos, &m.src), &m.actor, err, s, len))
                return -1;
        }
    } else {
        const jaction *mv = NULL, *cap = NULL;
        for (size_t k = 0; k < na; k++) {
            const jaction *a = &act[k];
            if (mv == NULL && is_board(&a->src) && is_board(&a->dst) &&
                !koma_cell_equal(&a->src.cell, &a->dst.cell))
                mv = a;
            if (cap == NULL && is_board(&a->src) && a->dst.hand) cap = a;
        }
        if (mv == NULL)
            return koma__pmn_json_fail(err, KOMA_E_PMN_JSON_UNSUPPORTED, arr,
                         "no board-to-board action to write as a special move", s, len);
        m.kind = KOMA_MOVE_SPECIAL;
        m.src = mv->src.cell;
        m.dst = mv->dst.cell;
        sp.src = mv->is->off;
        sp.dst = mv->id->off;
        sp.actor = mv->ip != NULL ? mv->ip->off : 0;
        if (json_suffix(pos, mv->ip, board_at(pos, &m.src), &m.actor, err, s, len)) return -1;
        if (cap != NULL) {
            sp.captured = cap->ip != NULL ? cap->ip->off : 0;
            if (json_suffix(pos, cap->ip, board_at(pos, &cap->src.cell), &m.captured, err, s,
                            len))
                return -1;
        }
    }

    if (koma__pmn_check_at(pos, &m, &sp, KOMA__PMN_CANONICAL, &dropped, err) != 0)
        return koma__pmn_json_place(err, s, len);
    if ((m.kind == KOMA_MOVE_DROP || m.kind == KOMA_MOVE_DROPCAP) && m.piece == KOMA_PIECE_NONE)
        m.piece = dropped;
    if (out != NULL) memcpy(out, &m, sizeof m);
    return 0;
}

/* ---- entry ---------------------------------------------------------------- */

int koma_pmn_parse_dialect(koma_pmn_dialect d, const char *s, size_t len,
                           const koma_position *pos, koma_move *out, koma_error *err)
{
    if (s == NULL && len > 0)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_pmn_parse_dialect: no input");
    switch (d) {
    case KOMA_PMN_DIALECT_CANONICAL:
        return read_canonical(s, len, pos, out, err);
    case KOMA_PMN_DIALECT_SEED:
        if (pos == NULL)
            return koma_error_set(err, KOMA_E_PMN_CONTEXT, 0,
                                  "the seed dialect needs a position (a FEEN)");
        return read_seed(s, len, pos, out, err);
    case KOMA_PMN_DIALECT_JSON_ARRAY:
        if (pos == NULL)
            return koma_error_set(err, KOMA_E_PMN_CONTEXT, 0,
                                  "the json-array dialect needs a position (a FEEN)");
        return read_json(s, len, pos, out, err);
    case KOMA_PMN_DIALECT_SANKI:
        if (pos == NULL)
            return koma_error_set(err, KOMA_E_PMN_CONTEXT, 0,
                                  "the sanki dialect needs a position (a FEEN)");
        return koma__pmn_read_sanki(s, len, pos, out, err);
    case KOMA_PMN_DIALECT_LEGS: {
        /* leg forms (pmn_chain.c): a move here when its canonical form is one element */
        koma_chain c;
        if (koma_chain_read_legs(s, len, pos, &c, err) != 0) return -1;
        if (c.len != 1)
            return koma_error_set(err, KOMA_E_PMN_CHAIN_ELEMENTS, 0,
                                  "the move is a chain of %zu elements, not one PMN move", c.len);
        if (out != NULL) *out = c.el[0];
        return 0;
    }
    }
    return koma_error_set(err, KOMA_E_INTERNAL, 0, "unknown PMN dialect %d", (int)d);
}

/* A chain in a dialect (koma/pmn.h): here, above pmn_chain.c, which it calls
 * (canonical chains, legs), so the two modules form no circle. */
int koma_chain_parse_dialect(koma_pmn_dialect d, const char *s, size_t len,
                             const koma_position *pos, koma_chain *out, koma_error *err)
{
    koma_chain c;
    switch (d) {
    case KOMA_PMN_DIALECT_CANONICAL:
        if (koma_chain_parse(s, len, &c, err) != 0) return -1;
        if (pos != NULL) {
            if (c.len == 1) {
                /* one move: exactly what koma_pmn_parse_dialect does */
                if (koma_pmn_parse_dialect(d, s, len, pos, &c.el[0], err) != 0) return -1;
            } else if (koma_chain_check(pos, &c, err) != 0) {
                return -1;
            }
        }
        break;
    case KOMA_PMN_DIALECT_SEED:
    case KOMA_PMN_DIALECT_JSON_ARRAY:
    case KOMA_PMN_DIALECT_SANKI: {
        koma_move m;
        if (koma_pmn_parse_dialect(d, s, len, pos, &m, err) != 0) return -1;
        koma_chain_of_move(&m, &c);
        break;
    }
    case KOMA_PMN_DIALECT_LEGS:
        if (koma_chain_read_legs(s, len, pos, &c, err) != 0) return -1;
        break;
    default:
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "unknown PMN dialect %d", (int)d);
    }
    if (out != NULL) *out = c;
    return 0;
}
