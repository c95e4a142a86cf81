/*
 * lib/select_pattern.c — board patterns and material specifications
 * (koma/select.h): parsed once, matched against koma_positions. A pattern is a
 * list of the squares it constrains (a '?' constrains nothing); a material
 * specification a list of conditions, each two sums of counts. Pieces compare
 * by letter, case, state and '^'; "'" too only with KOMA_MATCH_MARKS (Ko
 * shogi, where it is part of a piece's identity; koma-games(7)).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One element of a class or of a count. */
enum { EL_PIECE, EL_RANGE, EL_EMPTY, EL_ANY };
typedef struct el {
    uint8_t kind;
    char lo, hi;                       /* EL_RANGE: letters of one case */
    koma_piece state;                  /* EL_RANGE: KOMA_PIECE_ENHANCED, _DIMINISHED, or
                                          0xffff: any state */
    koma_piece piece;                  /* EL_PIECE */
} el;

/* A class: elements [first, first + n) of the owner's table. */
typedef struct cls {
    size_t first, n;
    int negate;
} cls;

typedef struct els {
    el *v;
    size_t n, cap;
} els;

static int push_el(els *t, const el *e, koma_error *err)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        el *v = realloc(t->v, cap * sizeof *v);
        if (v == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n++] = *e;
    return 0;
}

static int same_piece(koma_piece a, koma_piece b, unsigned flags)
{
    if (flags & KOMA_MATCH_MARKS) return a == b;
    return (a & ~KOMA_PIECE_DERIVED) == (b & ~KOMA_PIECE_DERIVED);
}

/* Does element e accept the square's content p (KOMA_PIECE_NONE: empty)? */
static int el_accepts(const el *e, koma_piece p, unsigned flags)
{
    switch (e->kind) {
    case EL_EMPTY: return p == KOMA_PIECE_NONE;
    case EL_ANY: return p != KOMA_PIECE_NONE;
    case EL_PIECE: return p != KOMA_PIECE_NONE && same_piece(p, e->piece, flags);
    default: {
        if (p == KOMA_PIECE_NONE) return 0;
        char c = koma_piece_letter(p);
        if (c < e->lo || c > e->hi) return 0;
        if (e->state == 0xffffu) return 1;
        return (p & KOMA_PIECE_STATE) == e->state;
    }
    }
}

static int cls_accepts(const el *t, const cls *c, koma_piece p, unsigned flags)
{
    int in = 0;
    for (size_t i = 0; i < c->n && !in; i++) in = el_accepts(&t[c->first + i], p, flags);
    return c->negate ? !in : in;
}

/* A piece token (EPIN) at s[*i]: 1 with *p and *i past it, 0 when none starts there. */
static int scan_piece(const char *s, size_t len, size_t *i, koma_piece *p)
{
    size_t n = koma_epin_scan(s + *i, len - *i, p);
    if (n == 0) return 0;
    *i += n;
    return 1;
}

/*
 * A class "[...]" at s[*i] (s[*i] is '['): its elements appended to t, c set,
 * *i past the ']'. code: the caller's error code.
 */
static int parse_class(const char *s, size_t len, size_t *i, els *t, cls *c, koma_code code,
                       koma_error *err)
{
    size_t open = *i, k = *i + 1;
    c->first = t->n;
    c->negate = 0;
    if (k < len && s[k] == '^') {
        c->negate = 1;
        k++;
    }
    for (;;) {
        if (k >= len || s[k] == '/' || s[k] == ',')
            return koma_error_set(err, code, open, "'[' without its ']'");
        char ch = s[k];
        if (ch == ']') break;
        el e;
        memset(&e, 0, sizeof e);
        koma_piece st = 0xffffu;
        size_t at = k;
        if ((ch == '+' || ch == '-') && k + 1 < len && KOMA_IS_ALPHA(s[k + 1]) && k + 2 < len &&
            s[k + 2] == '-' && k + 3 < len && KOMA_IS_ALPHA(s[k + 3])) {
            st = ch == '+' ? KOMA_PIECE_ENHANCED : KOMA_PIECE_DIMINISHED;
            k++;
            ch = s[k];
        }
        if (KOMA_IS_ALPHA(ch) && k + 2 < len && s[k + 1] == '-' && KOMA_IS_ALPHA(s[k + 2])) {
            char lo = ch, hi = s[k + 2];
            if (KOMA_IS_UPPER(lo) != KOMA_IS_UPPER(hi) || lo > hi)
                return koma__error_token(err, code, at, "a range runs from a letter to a later one of the same case",
                                         s + at, k + 3 - at);
            e.kind = EL_RANGE;
            e.lo = lo;
            e.hi = hi;
            e.state = st;
            k += 3;
        } else if (ch == '_') {
            e.kind = EL_EMPTY;
            k++;
        } else if (ch == '*') {
            e.kind = EL_ANY;
            k++;
        } else if (scan_piece(s, len, &k, &e.piece)) {
            e.kind = EL_PIECE;
        } else {
            return koma__error_token(err, code, k, "not a piece, a range or '_' in a class", s + k, 1);
        }
        if (push_el(t, &e, err) != 0) return -1;
    }
    c->n = t->n - c->first;
    if (c->n == 0) return koma_error_set(err, code, open, "an empty class");
    *i = k + 1;
    return 0;
}

/* ---- patterns ------------------------------------------------------------------------ */

enum { CELL_EMPTY, CELL_ANY_PIECE, CELL_PIECE, CELL_CLASS };
typedef struct pcell {
    uint32_t square;
    uint8_t kind;
    koma_piece piece;                  /* CELL_PIECE */
    cls c;                             /* CELL_CLASS */
} pcell;

struct koma_pattern {
    uint16_t files, ranks;
    int side;                          /* -1: either side to move */
    pcell *cells;                      /* the constrained squares, in FEEN order */
    size_t ncells, cap;
    els t;                             /* the classes' elements */
};

void koma_pattern_free(koma_pattern *p)
{
    if (p == NULL) return;
    free(p->cells);
    free(p->t.v);
    free(p);
}

static int add_cell(koma_pattern *p, const pcell *c, koma_error *err)
{
    if (p->ncells == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        pcell *v = realloc(p->cells, cap * sizeof *v);
        if (v == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        p->cells = v;
        p->cap = cap;
    }
    p->cells[p->ncells++] = *c;
    return 0;
}

/* The side field after the placement: "first", "second", or a FEEN style field. */
static int parse_side(const char *s, size_t len, size_t at, int *side, koma_error *err)
{
    if (len == 5 && memcmp(s, "first", 5) == 0) *side = KOMA_FIRST;
    else if (len == 6 && memcmp(s, "second", 6) == 0) *side = KOMA_SECOND;
    else if (len == 3 && KOMA_IS_ALPHA(s[0]) && s[1] == '/' && KOMA_IS_ALPHA(s[2]) &&
             KOMA_IS_UPPER(s[0]) != KOMA_IS_UPPER(s[2]))
        *side = KOMA_IS_UPPER(s[0]) ? KOMA_FIRST : KOMA_SECOND;
    else
        return koma__error_token(err, KOMA_E_SELECT_PATTERN, at,
                                 "the side to move is first, second or a FEEN style field (S/s)", s, len);
    return 0;
}

int koma_pattern_parse(const char *s, size_t len, koma_pattern **out, koma_error *err)
{
    *out = NULL;
    if (len > KOMA_SELECT_TEXT_MAX)
        return koma_error_set(err, KOMA_E_SELECT_PATTERN, KOMA_SELECT_TEXT_MAX,
                              "a pattern is at most %d bytes", KOMA_SELECT_TEXT_MAX);
    koma_pattern *p = calloc(1, sizeof *p);
    if (p == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    p->side = -1;
    size_t end = len;
    const char *sp = memchr(s, ' ', len);
    if (sp) {
        end = (size_t)(sp - s);
        if (parse_side(sp + 1, len - end - 1, end + 1, &p->side, err) != 0) goto fail;
    }
    if (end == 0) {
        koma_error_set(err, KOMA_E_SELECT_PATTERN, 0, "an empty pattern");
        goto fail;
    }
    size_t files = 0, rank = 0, square = 0;
    size_t rank_start = 0;
    for (size_t i = 0; i <= end;) {
        if (i == end || s[i] == '/') {
            if (i < end && i + 1 < end && s[i + 1] == '/') {
                koma_error_set(err, KOMA_E_SELECT_PATTERN, i, "patterns are two-dimensional (no '//')");
                goto fail;
            }
            if (files == 0 && rank == 0) files = square;
            if (files == 0) {
                koma_error_set(err, KOMA_E_SELECT_PATTERN, i, "an empty rank");
                goto fail;
            }
            if (square != (rank + 1) * files) {
                koma_error_set(err, KOMA_E_SELECT_PATTERN, i < end ? i : end > 0 ? end - 1 : 0,
                               "rank %zu has %zu squares, the first has %zu", rank + 1,
                               square - rank * files, files);
                goto fail;
            }
            if (files > KOMA_MAX_DIMENSION) {
                koma_error_set(err, KOMA_E_SELECT_PATTERN, rank_start, "more than %u files",
                               KOMA_MAX_DIMENSION);
                goto fail;
            }
            rank++;
            if (rank > KOMA_MAX_DIMENSION) {
                koma_error_set(err, KOMA_E_SELECT_PATTERN, i, "more than %u ranks", KOMA_MAX_DIMENSION);
                goto fail;
            }
            if (i == end) break;
            i++;
            rank_start = i;
            continue;
        }
        char ch = s[i];
        pcell c;
        memset(&c, 0, sizeof c);
        if (KOMA_IS_DIGIT(ch)) {
            if (ch == '0') {
                koma_error_set(err, KOMA_E_SELECT_PATTERN, i, "a run of empty squares starts with 1 to 9");
                goto fail;
            }
            size_t n = 0, at = i;
            while (i < end && KOMA_IS_DIGIT(s[i]) && n <= KOMA_MAX_DIMENSION) n = n * 10 + (size_t)(s[i++] - '0');
            if (n > KOMA_MAX_DIMENSION) {
                koma_error_set(err, KOMA_E_SELECT_PATTERN, at, "more than %u files", KOMA_MAX_DIMENSION);
                goto fail;
            }
            c.kind = CELL_EMPTY;
            for (size_t k = 0; k < n; k++) {
                c.square = (uint32_t)square++;
                if (add_cell(p, &c, err) != 0) goto fail;
            }
            continue;
        }
        if (ch == '?') {
            i++;
            square++;
            continue;
        }
        if (ch == '_') {
            c.kind = CELL_EMPTY;
            i++;
        } else if (ch == '*') {
            c.kind = CELL_ANY_PIECE;
            i++;
        } else if (ch == '[') {
            c.kind = CELL_CLASS;
            if (parse_class(s, end, &i, &p->t, &c.c, KOMA_E_SELECT_PATTERN, err) != 0) goto fail;
        } else if (scan_piece(s, end, &i, &c.piece)) {
            c.kind = CELL_PIECE;
        } else {
            koma__error_token(err, KOMA_E_SELECT_PATTERN, i,
                              "not a square of a pattern (a piece, a digit, ?, _, * or [...])", s + i, 1);
            goto fail;
        }
        c.square = (uint32_t)square++;
        if (add_cell(p, &c, err) != 0) goto fail;
        if (rank == 0 && square > KOMA_MAX_DIMENSION) {
            koma_error_set(err, KOMA_E_SELECT_PATTERN, i, "more than %u files", KOMA_MAX_DIMENSION);
            goto fail;
        }
    }
    p->files = (uint16_t)files;
    p->ranks = (uint16_t)rank;
    *out = p;
    return 0;
fail:
    koma_pattern_free(p);
    return -1;
}

int koma_pattern_match(const koma_pattern *p, const koma_position *pos, unsigned flags)
{
    const koma_shape *sh = &pos->shape;
    if (sh->ndims != 2 || sh->size[0] != p->files || sh->size[1] != p->ranks) return 0;
    if (p->side >= 0 && pos->turn != p->side) return 0;
    for (size_t i = 0; i < p->ncells; i++) {
        const pcell *c = &p->cells[i];
        koma_piece q = pos->board[c->square];
        switch (c->kind) {
        case CELL_EMPTY:
            if (q != KOMA_PIECE_NONE) return 0;
            break;
        case CELL_ANY_PIECE:
            if (q == KOMA_PIECE_NONE) return 0;
            break;
        case CELL_PIECE:
            if (q == KOMA_PIECE_NONE || !same_piece(q, c->piece, flags)) return 0;
            break;
        default:
            if (!cls_accepts(p->t.v, &c->c, q, flags)) return 0;
        }
    }
    return 1;
}

/* ---- material ------------------------------------------------------------------------ */

enum { PLACE_ALL, PLACE_BOARD, PLACE_HAND };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

/* A sum of counts: elements [first, first + n) of the table, at place. */
typedef struct count {
    int place;
    size_t first, n;
} count;

typedef struct mcond {
    count lhs, rhs;                    /* rhs.n 0: the number */
    int op;
    unsigned long number;
} mcond;

struct koma_material {
    mcond *conds;
    size_t n;
    els t;
};

void koma_material_free(koma_material *m)
{
    if (m == NULL) return;
    free(m->conds);
    free(m->t.v);
    free(m);
}

static size_t skip_blanks(const char *s, size_t len, size_t i)
{
    while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
    return i;
}

static int parse_count(const char *s, size_t len, size_t *i, els *t, count *c, koma_error *err)
{
    size_t k = skip_blanks(s, len, *i);
    c->place = PLACE_ALL;
    if (len - k >= 6 && memcmp(s + k, "board:", 6) == 0) {
        c->place = PLACE_BOARD;
        k += 6;
    } else if (len - k >= 5 && memcmp(s + k, "hand:", 5) == 0) {
        c->place = PLACE_HAND;
        k += 5;
    }
    c->first = t->n;
    for (;;) {
        k = skip_blanks(s, len, k);
        if (k >= len) break;
        el e;
        memset(&e, 0, sizeof e);
        if (s[k] == '*') {
            e.kind = EL_ANY;
            k++;
        } else if (s[k] == '[') {
            /* a class's elements are items like the others, added up */
            cls cl;
            size_t at = k;
            if (parse_class(s, len, &k, t, &cl, KOMA_E_SELECT_MATERIAL, err) != 0) return -1;
            if (cl.negate)
                return koma_error_set(err, KOMA_E_SELECT_MATERIAL, at, "a negated class cannot be counted");
            continue;
        } else if (!scan_piece(s, len, &k, &e.piece)) {
            break;
        } else {
            e.kind = EL_PIECE;
        }
        if (push_el(t, &e, err) != 0) return -1;
    }
    c->n = t->n - c->first;
    if (c->n == 0) {
        if (k < len)
            return koma__error_token(err, KOMA_E_SELECT_MATERIAL, k,
                                     "expected a piece, '*' or a class to count", s + k, 1);
        return koma_error_set(err, KOMA_E_SELECT_MATERIAL, k > 0 ? k - 1 : 0, "a count without pieces");
    }
    *i = k;
    return 0;
}

int koma_material_parse(const char *s, size_t len, koma_material **out, koma_error *err)
{
    *out = NULL;
    if (len > KOMA_SELECT_TEXT_MAX)
        return koma_error_set(err, KOMA_E_SELECT_MATERIAL, KOMA_SELECT_TEXT_MAX,
                              "a material specification is at most %d bytes", KOMA_SELECT_TEXT_MAX);
    koma_material *m = calloc(1, sizeof *m);
    if (m == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    size_t i = 0, cap = 0;
    for (;;) {
        mcond c;
        memset(&c, 0, sizeof c);
        if (parse_count(s, len, &i, &m->t, &c.lhs, err) != 0) goto fail;
        i = skip_blanks(s, len, i);
        c.op = OP_GE;
        c.number = 1;
        if (i < len && s[i] != ',') {
            size_t at = i;
            char a = s[i], b = i + 1 < len ? s[i + 1] : '\0';
            if (a == '=' && b == '=') c.op = OP_EQ, i += 2;
            else if (a == '=') c.op = OP_EQ, i++;
            else if (a == '!' && b == '=') c.op = OP_NE, i += 2;
            else if (a == '<' && b == '=') c.op = OP_LE, i += 2;
            else if (a == '<') c.op = OP_LT, i++;
            else if (a == '>' && b == '=') c.op = OP_GE, i += 2;
            else if (a == '>') c.op = OP_GT, i++;
            else {
                koma__error_token(err, KOMA_E_SELECT_MATERIAL, at,
                                  "a comparison is one of = == != < <= > >=", s + at, 1);
                goto fail;
            }
            i = skip_blanks(s, len, i);
            if (i < len && KOMA_IS_DIGIT(s[i])) {
                unsigned long n = 0;
                while (i < len && KOMA_IS_DIGIT(s[i])) {
                    if (n > 100000000ul) {
                        koma_error_set(err, KOMA_E_SELECT_MATERIAL, i, "a number too large");
                        goto fail;
                    }
                    n = n * 10 + (unsigned long)(s[i++] - '0');
                }
                c.number = n;
            } else {
                if (parse_count(s, len, &i, &m->t, &c.rhs, err) != 0) goto fail;
            }
            i = skip_blanks(s, len, i);
        }
        if (m->n == cap) {
            cap = cap ? 2 * cap : 4;
            mcond *v = realloc(m->conds, cap * sizeof *v);
            if (v == NULL) {
                koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
                goto fail;
            }
            m->conds = v;
        }
        m->conds[m->n++] = c;
        if (i >= len) break;
        if (s[i] != ',') {
            koma__error_token(err, KOMA_E_SELECT_MATERIAL, i, "conditions are separated by ','", s + i, 1);
            goto fail;
        }
        i++;
    }
    *out = m;
    return 0;
fail:
    koma_material_free(m);
    return -1;
}

static unsigned long count_of(const koma_material *m, const count *c, const koma_position *pos,
                              unsigned flags)
{
    unsigned long total = 0;
    const el *t = m->t.v + c->first;
    if (c->place != PLACE_HAND) {
        uint32_t n = pos->shape.squares;
        for (uint32_t sq = 0; sq < n; sq++) {
            koma_piece p = pos->board[sq];
            if (p == KOMA_PIECE_NONE) continue;
            for (size_t k = 0; k < c->n; k++)
                if (el_accepts(&t[k], p, flags)) total++;
        }
    }
    if (c->place != PLACE_BOARD) {
        for (int side = 0; side < 2; side++) {
            const koma_hand *h = &pos->hands[side];
            for (size_t j = 0; j < h->len; j++)
                for (size_t k = 0; k < c->n; k++)
                    if (el_accepts(&t[k], h->items[j].piece, flags)) total += h->items[j].count;
        }
    }
    return total;
}

int koma_material_match(const koma_material *m, const koma_position *pos, unsigned flags)
{
    for (size_t i = 0; i < m->n; i++) {
        const mcond *c = &m->conds[i];
        unsigned long a = count_of(m, &c->lhs, pos, flags);
        unsigned long b = c->rhs.n ? count_of(m, &c->rhs, pos, flags) : c->number;
        int ok;
        switch (c->op) {
        case OP_EQ: ok = a == b; break;
        case OP_NE: ok = a != b; break;
        case OP_LT: ok = a < b; break;
        case OP_LE: ok = a <= b; break;
        case OP_GT: ok = a > b; break;
        default: ok = a >= b;
        }
        if (!ok) return 0;
    }
    return 1;
}
