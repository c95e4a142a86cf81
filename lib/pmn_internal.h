/* lib/pmn_internal.h — helpers shared by pmn.c, pmn_dialect.c and pmn_apply.c;
 * not installed, not exported. */
#ifndef KOMA_PMN_INTERNAL_H
#define KOMA_PMN_INTERNAL_H

#include <string.h>

#include "internal.h"

/*
 * Where the tokens of a move stand in the text it was read from (0-based
 * offsets), so that semantic errors point at the offending token whatever the
 * dialect: src and dst coordinates, the dropped piece (or the '*' / '.' of a
 * pieceless drop), the actor identity (the EPIN after '='), the captured
 * identity (the EPIN after '/'), and the operator.
 */
typedef struct koma__pmn_spans {
    size_t src, dst, piece, actor, captured, op;
} koma__pmn_spans;

/*
 * A parse failure: the code, the 0-based offset where the input stops being
 * valid, and a short description (the message is built from it by the caller).
 */
typedef struct koma__pmn_failure {
    koma_code code;
    size_t off;
    char what[120];
} koma__pmn_failure;

/* Record a failure at off (pmn.ascii when s[off] is not ASCII, pmn.end when
 * off >= len unless code is pmn.suffix). Returns -1. */
int koma__pmn_fail(koma__pmn_failure *f, const char *s, size_t len, size_t off,
                   koma_code code, const char *what);
/* A CELL at s[*i]; advances *i. 0, or -1 with f set (pmn.cell / pmn.end). */
/* koma_pmn_parse without its quick forms (koma__pmn_quick): the
 * grammar's parsers alone, which must give the same move and the same errors
 * (tests, fuzz_pmn). */
int koma__pmn_parse_grammar(const char *s, size_t len, koma_move *out, koma_error *err);

/*
 * The usual moves straight from the bytes, before the grammar's parsers (in
 * koma_pmn_parse, and in the record's one pass, pcn_quick.c): a quiet move,
 * capture or special move between two 2-D cells ("e2-e4", "e5+d4/p",
 * "b7-b8=+P", "a10-a9") and a drop of an EPIN or of none ("S*e2", "+P*c3",
 * "*e5"), each with its allowed suffixes in order. 1 with *out (when not NULL)
 * filled exactly as the grammar fills it, padding zeroed; 0, *out untouched,
 * for anything else (the grammar decides, and reports any error).
 */

/* An EPIN at p: [+-] letter [^] ['], as koma_epin_scan reads it. */
static inline int koma__pmn_quick_piece(const unsigned char *p, const unsigned char *e,
                                        koma_piece *out, const unsigned char **next)
{
    koma_piece state = 0;
    if (p < e && (*p == '+' || *p == '-')) {
        state = *p == '+' ? KOMA_PIECE_ENHANCED : KOMA_PIECE_DIMINISHED;
        p++;
    }
    if (p >= e || !KOMA_IS_ALPHA(*p)) return 0;
    koma_piece piece = (koma_piece)(koma_piece_from_letter((char)*p++) | state);
    if (p < e && *p == '^') { piece |= KOMA_PIECE_TERMINAL; p++; }
    if (p < e && *p == '\'') { piece |= KOMA_PIECE_DERIVED; p++; }
    *out = piece;
    *next = p;
    return 1;
}

/* A 2-D cell at p: a file letter and a rank of 1 to 99 with no leading zero.
 * (A third rank digit or a layer letter after it is no character the callers
 * take next: the move is then left to the grammar.) */
static inline int koma__pmn_quick_cell(const unsigned char *p, const unsigned char *e, koma_cell *c,
                                       const unsigned char **next)
{
    if (e - p < 2 || (unsigned)(p[0] - 'a') >= 26u || (unsigned)(p[1] - '1') >= 9u) return 0;
    unsigned rank = (unsigned)(p[1] - '0');
    const unsigned char *q = p + 2;
    if (q < e && (unsigned)(*q - '0') < 10u) rank = rank * 10u + (unsigned)(*q++ - '0');
    c->ndims = 2;
    c->idx[0] = (uint8_t)(p[0] - 'a');
    c->idx[1] = (uint8_t)(rank - 1u);
    *next = q;
    return 1;
}

static inline int koma__pmn_quick(const char *s, size_t len, koma_move *out)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + len;
    koma_move m;
    int captures = 0;
    if (len < 3 || len > KOMA_PMN_MAX_LEN) return 0;
    memset(&m, 0, sizeof m);
    if (koma__pmn_quick_cell(p, e, &m.src, &p)) {
        if (p >= e) return 0;
        switch (*p++) {
        case '-': m.kind = KOMA_MOVE_QUIET; break;
        case '+': m.kind = KOMA_MOVE_CAPTURE; captures = 1; break;
        case '~': m.kind = KOMA_MOVE_SPECIAL; captures = 1; break;
        default: return 0;
        }
    } else {
        if (p[0] != '*' && !koma__pmn_quick_piece(p, e, &m.piece, &p)) return 0;
        if (p >= e || *p++ != '*') return 0;
        m.kind = KOMA_MOVE_DROP;
    }
    if (!koma__pmn_quick_cell(p, e, &m.dst, &p)) return 0;
    if (p < e && *p == '=' && !koma__pmn_quick_piece(p + 1, e, &m.actor, &p)) return 0;
    if (captures && p < e && *p == '/' && !koma__pmn_quick_piece(p + 1, e, &m.captured, &p))
        return 0;
    if (p != e) return 0;
    if (out != NULL) *out = m;
    return 1;
}

/*
 * koma__pmn_quick for a text followed by a quote (s[len] == '"', and s[len + 1]
 * readable): the record's one pass, where each ply's PMN is a JSON string
 * closed by '"}'. No move holds a quote, so it ends every form: the bytes are
 * read without a test of the end before each one. The same answer and the same
 * move as koma__pmn_quick (tests/unit/test_pmn.c compares the two on every text
 * it parses).
 */
static inline const unsigned char *koma__pmn_quoted_cell(const unsigned char *p, koma_cell *c)
{
    unsigned f = (unsigned)(p[0] - 'a'), r = (unsigned)(p[1] - '1');
    if (f >= 26u || r >= 9u) return NULL;
    unsigned d = (unsigned)(p[2] - '0');
    p += 2;
    if (d < 10u) {
        r = r * 10u + d + 9u;              /* (r + 1) * 10 + d, less one */
        p++;
    }
    c->ndims = 2;
    c->idx[0] = (uint8_t)f;
    c->idx[1] = (uint8_t)r;
    return p;
}

static inline const unsigned char *koma__pmn_quoted_piece(const unsigned char *p, koma_piece *out)
{
    koma_piece state = 0;
    if (*p == '+' || *p == '-') state = *p++ == '+' ? KOMA_PIECE_ENHANCED : KOMA_PIECE_DIMINISHED;
    if (!KOMA_IS_ALPHA(*p)) return NULL;
    koma_piece piece = (koma_piece)(koma_piece_from_letter((char)*p++) | state);
    if (*p == '^') { piece |= KOMA_PIECE_TERMINAL; p++; }
    if (*p == '\'') { piece |= KOMA_PIECE_DERIVED; p++; }
    *out = piece;
    return p;
}

/* The usual forms with one-digit ranks, each tested at once (koma__pmn_quick_quoted's
 * first step; the record's pass calls it inline): a quiet move "c3-c4", a capture of
 * a plain piece "f3+f4/P", a drop "R*b8". 1 with *out filled as koma__pmn_quick
 * fills it, else 0 (*out untouched). */
static inline __attribute__((always_inline)) int koma__pmn_quick_usual(const unsigned char *p, size_t len,
                                                                      koma_move *out)
{
    if (len == 5 || len == 7) {
        unsigned f0 = (unsigned)(p[0] - 'a'), r0 = (unsigned)(p[1] - '1');
        unsigned f1 = (unsigned)(p[3] - 'a'), r1 = (unsigned)(p[4] - '1');
        if ((f0 < 26u) & (r0 < 9u) & (f1 < 26u) & (r1 < 9u) &
            (len == 5 ? p[2] == '-' : p[2] == '+' && p[5] == '/' && KOMA_IS_ALPHA(p[6]))) {
            memset(out, 0, sizeof *out);
            out->kind = len == 5 ? KOMA_MOVE_QUIET : KOMA_MOVE_CAPTURE;
            out->src.ndims = out->dst.ndims = 2;
            out->src.idx[0] = (uint8_t)f0;
            out->src.idx[1] = (uint8_t)r0;
            out->dst.idx[0] = (uint8_t)f1;
            out->dst.idx[1] = (uint8_t)r1;
            if (len == 7) out->captured = koma_piece_from_letter((char)p[6]);
            return 1;
        }
    } else if (len == 4) {
        unsigned f = (unsigned)(p[2] - 'a'), r = (unsigned)(p[3] - '1');
        if (KOMA_IS_ALPHA(p[0]) & (p[1] == '*') & (f < 26u) & (r < 9u)) {
            memset(out, 0, sizeof *out);
            out->kind = KOMA_MOVE_DROP;
            out->piece = koma_piece_from_letter((char)p[0]);
            out->dst.ndims = 2;
            out->dst.idx[0] = (uint8_t)f;
            out->dst.idx[1] = (uint8_t)r;
            return 1;
        }
    }
    return 0;
}

/* koma__pmn_quick_quoted's forms but the usual ones (for a caller that has
 * tried koma__pmn_quick_usual already) */
static inline int koma__pmn_quick_quoted_rest(const char *s, size_t len, koma_move *out)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + len, *q;
    koma_move m;
    int captures = 0;
    if (len > KOMA_PMN_MAX_LEN) return 0;
    memset(&m, 0, sizeof m);
    if ((q = koma__pmn_quoted_cell(p, &m.src)) != NULL) {
        switch (*q) {
        case '-': m.kind = KOMA_MOVE_QUIET; break;
        case '+': m.kind = KOMA_MOVE_CAPTURE; captures = 1; break;
        case '~': m.kind = KOMA_MOVE_SPECIAL; captures = 1; break;
        default: return 0;
        }
        p = q + 1;
    } else {
        if (*p != '*' && (p = koma__pmn_quoted_piece(p, &m.piece)) == NULL) return 0;
        if (*p++ != '*') return 0;
        m.kind = KOMA_MOVE_DROP;
    }
    if ((p = koma__pmn_quoted_cell(p, &m.dst)) == NULL) return 0;
    if (*p == '=' && (p = koma__pmn_quoted_piece(p + 1, &m.actor)) == NULL) return 0;
    if (captures && *p == '/' && (p = koma__pmn_quoted_piece(p + 1, &m.captured)) == NULL) return 0;
    if (p != e) return 0;
    *out = m;
    return 1;
}

static inline int koma__pmn_quick_quoted(const char *s, size_t len, koma_move *out)
{
    return koma__pmn_quick_usual((const unsigned char *)s, len, out) || koma__pmn_quick_quoted_rest(s, len, out);
}

int koma__pmn_cell(const char *s, size_t len, size_t *i, koma_cell *c, koma__pmn_failure *f);
/* An EPIN at s[*i]; advances *i. 0, or -1 with f set (pmn.epin / pmn.end). */
int koma__pmn_epin(const char *s, size_t len, size_t *i, koma_piece *p, koma__pmn_failure *f);

/* The spans of m's canonical text (as koma_pmn_write lays it out). */
void koma__pmn_spans_of(const koma_move *m, koma__pmn_spans *sp);

/* Flags of koma__pmn_check_at. */
#define KOMA__PMN_CANONICAL 1u     /* also the canonical suffix rules */

/*
 * The checks of koma_pmn_check (with KOMA__PMN_CANONICAL) or only the protocol
 * preconditions (without), errors placed with sp. When dropped is not NULL it
 * receives the dropped piece (resolved for a pieceless drop), else NONE.
 */
int koma__pmn_check_at(const koma_position *pos, const koma_move *m,
                       const koma__pmn_spans *sp, unsigned flags, koma_piece *dropped,
                       koma_error *err);

/*
 * The one identity of side's case in side's hand; -1 with pmn.hand.missing or
 * pmn.hand.ambiguous (candidates listed) at offset off, quoting s[0..len).
 */
int koma__pmn_hand_pick(const koma_position *pos, int side, koma_piece *out, size_t off,
                        const char *s, size_t len, koma_error *err);

/* The board square of c, or -1 with pmn.square.board at offset off. */
int koma__pmn_square(const koma_position *pos, const koma_cell *c, uint32_t *sq, size_t off,
                     koma_error *err);

/* ---- JSON forms of a move (pmn_dialect.c: json-array; pmn_sanki.c: sanki) ---- */

#define KOMA__PMN_JITEM_MAX 15

/* A JSON string of a move: where it stands and its first bytes, decoded
 * (characters outside ASCII as 0xff bytes: no square or piece holds one). */
typedef struct koma__pmn_jitem {
    size_t off;                    /* of the opening quote */
    size_t len;                    /* decoded length (may exceed KOMA__PMN_JITEM_MAX) */
    char text[KOMA__PMN_JITEM_MAX + 1];
} koma__pmn_jitem;

/* Set err's line and column from its offset in the (multi-line) JSON text s. -1. */
int koma__pmn_json_place(koma_error *err, const char *s, size_t len);
/* err = code at off, quoting what follows; placed; -1. */
int koma__pmn_json_fail(koma_error *err, koma_code code, size_t off, const char *what,
                        const char *s, size_t len);
/* The first byte at or after i that is not JSON white space. */
size_t koma__pmn_json_ws(const char *s, size_t len, size_t i);
/* The JSON string at s[*i] == '"' into it; *i past it. Errors: syntax, placed. */
int koma__pmn_json_string(const char *s, size_t len, size_t *i, koma__pmn_jitem *it,
                          koma_code syntax, koma_error *err);

/* The sanki dialect (pmn_sanki.c): [from, to, actor] read against pos. */
int koma__pmn_read_sanki(const char *s, size_t len, const koma_position *pos, koma_move *out,
                         koma_error *err);

#endif
