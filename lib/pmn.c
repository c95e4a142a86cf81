/*
 * lib/pmn.c — PMN operator strings (koma-formats(5), PMN): parse, canonical write,
 * and the checks that need a position (canonicality, the protocol's
 * preconditions: koma-formats(5), PMN, "Moves in a position").
 *
 * Grammar:
 *     pass    = "..."
 *     quiet   = cell "-" cell [ "=" epin ]
 *     capture = cell "+" cell [ "=" epin ] [ "/" epin ]
 *     static  = "+" cell [ "/" epin ]
 *     special = cell "~" cell [ "=" epin ] [ "/" epin ]
 *     drop    = [ epin ] "*" cell [ "=" epin ]
 *     dropcap = [ epin ] "." cell [ "=" epin ] [ "/" epin ]
 *     mutate  = cell "=" epin
 *
 * The parse is deterministic: by the first byte, at most two alternatives are
 * possible (a lowercase letter starts a coordinate or a lowercase EPIN; '+' a
 * static capture or an enhanced EPIN; '.' a pass or a pieceless capture-drop).
 * Each alternative is parsed to the end; when both fail, the error of the one
 * that got further is reported (the first one on a tie), so the column is the
 * byte where the input stops being a prefix of any valid move.
 *
 * Error codes and columns (1-based; "+1" = one past the input when it ends early):
 *     pmn.empty   1              pmn.length  26 (checked first)
 *     pmn.end     len+1          the input ends where a token is still needed
 *     pmn.syntax  the byte       an unexpected byte (an operator, trailing text)
 *     pmn.ascii   the byte       the same, when the byte is not ASCII
 *     pmn.cell    the byte       where the coordinate stops being valid
 *     pmn.epin    the byte       where a piece identifier was expected
 *     pmn.suffix  the '=' or '/' a suffix the form does not allow (or out of order)
 */
#include <stdio.h>
#include <string.h>

#include "pmn_internal.h"

/* ---- parse ---------------------------------------------------------------- */

int koma__pmn_fail(koma__pmn_failure *f, const char *s, size_t len, size_t off, koma_code code,
                const char *what)
{
    if (off < len && (unsigned char)s[off] >= 0x80) {
        code = KOMA_E_PMN_ASCII;
        what = "non-ASCII byte in move";
    } else if (off >= len && code != KOMA_E_PMN_SUFFIX) {
        code = KOMA_E_PMN_END;
    }
    f->code = code;
    f->off = off;
    snprintf(f->what, sizeof f->what, "%s", what);
    return -1;
}

int koma__pmn_cell(const char *s, size_t len, size_t *i, koma_cell *c, koma__pmn_failure *f)
{
    koma_error e;
    if (*i >= len) return koma__pmn_fail(f, s, len, *i, KOMA_E_PMN_END, "expected a coordinate");
    size_t n = koma_cell_scan(s + *i, len - *i, c, NULL);
    if (n == 0) {
        /* again, for the details (only on an error) */
        memset(&e, 0, sizeof e);
        koma_cell_scan(s + *i, len - *i, c, &e);
        size_t off = *i + e.offset;
        if (e.code == KOMA_E_CELL_START || e.code == KOMA_E_CELL_EMPTY)
            return koma__pmn_fail(f, s, len, off, KOMA_E_PMN_CELL, "expected a coordinate");
        char what[120];
        snprintf(what, sizeof what, "invalid coordinate (%s: %s)", koma_code_name(e.code),
                 koma_strerror(e.code));
        return koma__pmn_fail(f, s, len, off, KOMA_E_PMN_CELL, what);
    }
    *i += n;
    return 0;
}

int koma__pmn_epin(const char *s, size_t len, size_t *i, koma_piece *p, koma__pmn_failure *f)
{
    if (*i >= len)
        return koma__pmn_fail(f, s, len, *i, KOMA_E_PMN_END, "expected a piece identifier");
    size_t n = koma_epin_scan(s + *i, len - *i, p);
    if (n == 0) {
        if (s[*i] == '+' || s[*i] == '-')
            return koma__pmn_fail(f, s, len, *i + 1, KOMA_E_PMN_EPIN,
                        "expected a piece letter after the state prefix");
        return koma__pmn_fail(f, s, len, *i, KOMA_E_PMN_EPIN, "expected a piece identifier");
    }
    *i += n;
    return 0;
}

/* The suffixes from s[i] to the end: '=' epin (if allowed) then '/' epin (if allowed). */
static int p_tail(const char *s, size_t len, size_t i, int allow_actor, int allow_captured,
                  koma_move *m, koma__pmn_failure *f)
{
    int seen_actor = 0, seen_captured = 0;
    while (i < len) {
        if (s[i] == '=') {
            if (!allow_actor)
                return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SUFFIX,
                                      "this move takes no '=' suffix");
            if (seen_actor)
                return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SUFFIX, "duplicate '=' suffix");
            if (seen_captured)
                return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SUFFIX,
                            "the '=' suffix must come before the '/' suffix");
            i++;
            if (koma__pmn_epin(s, len, &i, &m->actor, f)) return -1;
            seen_actor = 1;
        } else if (s[i] == '/') {
            if (!allow_captured)
                return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SUFFIX,
                            "a '/' suffix needs a capturing move (+, ~, . or static +)");
            if (seen_captured)
                return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SUFFIX, "duplicate '/' suffix");
            i++;
            if (koma__pmn_epin(s, len, &i, &m->captured, f)) return -1;
            seen_captured = 1;
        } else {
            return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SYNTAX,
                                  "unexpected character after the move");
        }
    }
    return 0;
}

/* cell ( "-" | "+" | "~" ) cell suffixes, or cell "=" epin. */
static int p_board(const char *s, size_t len, koma_move *m, koma__pmn_failure *f)
{
    static const char *const op_msg = "expected '-', '+', '~' or '=' after the coordinate";
    size_t i = 0;
    int actor = 1, captured = 0;

    if (koma__pmn_cell(s, len, &i, &m->src, f)) return -1;
    if (i >= len) return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_END, op_msg);
    switch (s[i]) {
    case '-': m->kind = KOMA_MOVE_QUIET; break;
    case '+': m->kind = KOMA_MOVE_CAPTURE; captured = 1; break;
    case '~': m->kind = KOMA_MOVE_SPECIAL; captured = 1; break;
    case '=':
        m->kind = KOMA_MOVE_MUTATE;
        m->dst = m->src;
        memset(&m->src, 0, sizeof m->src);
        i++;
        if (koma__pmn_epin(s, len, &i, &m->actor, f)) return -1;
        return p_tail(s, len, i, 0, 0, m, f);
    default:
        return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SYNTAX, op_msg);
    }
    i++;
    if (koma__pmn_cell(s, len, &i, &m->dst, f)) return -1;
    return p_tail(s, len, i, actor, captured, m, f);
}

/* [ epin ] ( "*" | "." ) cell suffixes. */
static int p_drop(const char *s, size_t len, koma_move *m, koma__pmn_failure *f)
{
    size_t i = 0;
    if (s[0] != '*' && s[0] != '.') {
        if (koma__pmn_epin(s, len, &i, &m->piece, f)) return -1;
        if (i >= len || (s[i] != '*' && s[i] != '.'))
            return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SYNTAX,
                                  "expected '*' or '.' after the piece");
    }
    m->kind = s[i] == '*' ? KOMA_MOVE_DROP : KOMA_MOVE_DROPCAP;
    i++;
    if (koma__pmn_cell(s, len, &i, &m->dst, f)) return -1;
    return p_tail(s, len, i, 1, m->kind == KOMA_MOVE_DROPCAP, m, f);
}

/* "+" cell [ "/" epin ] */
static int p_static(const char *s, size_t len, koma_move *m, koma__pmn_failure *f)
{
    size_t i = 1;
    m->kind = KOMA_MOVE_STATIC;
    if (koma__pmn_cell(s, len, &i, &m->dst, f)) return -1;
    return p_tail(s, len, i, 0, 1, m, f);
}

/* "..." */
static int p_pass(const char *s, size_t len, koma_move *m, koma__pmn_failure *f)
{
    for (size_t i = 0; i < 3; i++)
        if (i >= len || s[i] != '.')
            return koma__pmn_fail(f, s, len, i, KOMA_E_PMN_SYNTAX, "expected '...'");
    m->kind = KOMA_MOVE_PASS;
    return p_tail(s, len, 3, 0, 0, m, f);
}

typedef int (*parse_fn)(const char *, size_t, koma_move *, koma__pmn_failure *);

/* ---- the common forms, in one go ------------------------------------------------ */

int koma_pmn_parse(const char *s, size_t len, koma_move *out, koma_error *err)
{
    if (koma__pmn_quick(s, len, out)) return 0;
    return koma__pmn_parse_grammar(s, len, out, err);
}

/* The parsers of the grammar alone (no quick forms): tests compare the two. */
int koma__pmn_parse_grammar(const char *s, size_t len, koma_move *out, koma_error *err)
{
    parse_fn first = NULL, second = NULL;
    koma_move a, b;
    koma__pmn_failure fa, fb;

    if (len == 0) return koma_error_set(err, KOMA_E_PMN_EMPTY, 0, "empty move");
    if (len > KOMA_PMN_MAX_LEN)
        return koma__error_token(err, KOMA_E_PMN_LENGTH, KOMA_PMN_MAX_LEN, NULL, s, len);

    char c = s[0];
    if (KOMA_IS_LOWER(c)) { first = p_board; second = p_drop; }
    else if (c == '+') { first = p_static; second = p_drop; }
    else if (c == '.') { first = p_drop; second = p_pass; }
    else if (KOMA_IS_UPPER(c) || c == '-' || c == '*') { first = p_drop; }
    else {
        koma__pmn_failure f0;
        koma__pmn_fail(&f0, s, len, 0, KOMA_E_PMN_SYNTAX,
             "a move starts with a coordinate, a piece, '*', '.', '+' or '...'");
        return koma__error_token(err, f0.code, 0, f0.what, s, len);
    }

    /* "p*e5", "r.e5": a lowercase piece dropped. A coordinate needs a digit after
     * its letter, so the board form cannot read it: try the drop first, which
     * spares the failing board parse its message (the errors, when both fail,
     * are still decided below in the usual order). */
    if (first == p_board && len > 1 && (s[1] == '*' || s[1] == '.')) {
        memset(&b, 0, sizeof b);
        if (p_drop(s, len, &b, &fb) == 0) {
            if (out != NULL) memcpy(out, &b, sizeof b);
            return 0;
        }
    }
    memset(&a, 0, sizeof a);
    if (first(s, len, &a, &fa) == 0) {
        if (out != NULL) memcpy(out, &a, sizeof a);
        return 0;
    }
    if (second != NULL) {
        memset(&b, 0, sizeof b);
        if (second(s, len, &b, &fb) == 0) {
            if (out != NULL) memcpy(out, &b, sizeof b);
            return 0;
        }
        if (fb.off > fa.off) fa = fb;
    }
    return koma__error_token(err, fa.code, fa.off, fa.what, s, len);
}

/* ---- write ---------------------------------------------------------------- */

static int cell_ok(const koma_cell *c)
{
    char buf[KOMA_CELL_BUF];
    return koma_cell_write(c, buf) > 0;
}

static int piece_ok(koma_piece p)
{
    char buf[KOMA_EPIN_BUF];
    return koma_epin_write(p, buf) > 0;
}

/* Whether m is a move koma_pmn_write can write: every field its kind uses is
 * valid, every field it does not use is empty. */
static int move_ok(const koma_move *m)
{
    int src = 0, dst = 1, piece = 0, actor = 1, captured = 0;
    switch (m->kind) {
    case KOMA_MOVE_PASS: dst = 0; actor = 0; break;
    case KOMA_MOVE_QUIET: src = 1; break;
    case KOMA_MOVE_CAPTURE: src = 1; captured = 1; break;
    case KOMA_MOVE_STATIC: actor = 0; captured = 1; break;
    case KOMA_MOVE_SPECIAL: src = 1; captured = 1; break;
    case KOMA_MOVE_DROP: piece = 1; break;
    case KOMA_MOVE_DROPCAP: piece = 1; captured = 1; break;
    case KOMA_MOVE_MUTATE: if (m->actor == KOMA_PIECE_NONE) return 0; break;
    default: return 0;
    }
    if (src ? !cell_ok(&m->src) : m->src.ndims != 0) return 0;
    if (dst ? !cell_ok(&m->dst) : m->dst.ndims != 0) return 0;
    if (m->piece != KOMA_PIECE_NONE && (!piece || !piece_ok(m->piece))) return 0;
    if (m->actor != KOMA_PIECE_NONE && (!actor || !piece_ok(m->actor))) return 0;
    if (m->captured != KOMA_PIECE_NONE && (!captured || !piece_ok(m->captured))) return 0;
    return 1;
}

/* Write m into buf (when not NULL) and fill sp (when not NULL). */
static size_t layout(const koma_move *m, char *buf, koma__pmn_spans *sp)
{
    char tmp[KOMA_PMN_BUF];
    char *p = buf != NULL ? buf : tmp;
    size_t n = 0;
    koma__pmn_spans s;
    memset(&s, 0, sizeof s);

    if (m->kind == KOMA_MOVE_PASS) {
        memcpy(p, "...", 3);
        n = 3;
    } else if (m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP) {
        s.piece = 0;
        if (m->piece != KOMA_PIECE_NONE) n += koma_epin_write(m->piece, p + n);
        s.op = n;
        p[n++] = m->kind == KOMA_MOVE_DROP ? '*' : '.';
        s.dst = n;
        n += koma_cell_write(&m->dst, p + n);
    } else if (m->kind == KOMA_MOVE_STATIC) {
        s.op = 0;
        p[n++] = '+';
        s.dst = n;
        n += koma_cell_write(&m->dst, p + n);
    } else if (m->kind == KOMA_MOVE_MUTATE) {
        s.dst = 0;
        n += koma_cell_write(&m->dst, p + n);
        s.op = n;
        p[n++] = '=';
        s.actor = n;
        n += koma_epin_write(m->actor, p + n);
    } else {
        s.src = 0;
        n += koma_cell_write(&m->src, p + n);
        s.op = n;
        p[n++] = m->kind == KOMA_MOVE_QUIET ? '-' : m->kind == KOMA_MOVE_CAPTURE ? '+' : '~';
        s.dst = n;
        n += koma_cell_write(&m->dst, p + n);
    }
    if (m->kind != KOMA_MOVE_MUTATE && m->actor != KOMA_PIECE_NONE) {
        p[n++] = '=';
        s.actor = n;
        n += koma_epin_write(m->actor, p + n);
    }
    if (m->captured != KOMA_PIECE_NONE) {
        p[n++] = '/';
        s.captured = n;
        n += koma_epin_write(m->captured, p + n);
    }
    p[n] = '\0';
    if (sp != NULL) *sp = s;
    return n;
}

size_t koma_pmn_write(const koma_move *m, char buf[KOMA_PMN_BUF])
{
    if (m == NULL || !move_ok(m)) {
        buf[0] = '\0';
        return 0;
    }
    return layout(m, buf, NULL);
}

void koma__pmn_spans_of(const koma_move *m, koma__pmn_spans *sp)
{
    if (!move_ok(m)) {
        memset(sp, 0, sizeof *sp);
        return;
    }
    layout(m, NULL, sp);
}

int koma_move_equal(const koma_move *a, const koma_move *b)
{
    char x[KOMA_PMN_BUF], y[KOMA_PMN_BUF];
    size_t nx = koma_pmn_write(a, x), ny = koma_pmn_write(b, y);
    return nx > 0 && nx == ny && memcmp(x, y, nx) == 0;
}

/* ---- checks against a position -------------------------------------------- */

koma_piece koma_capture_identity(koma_piece board_piece, int capturer_side)
{
    if (board_piece == KOMA_PIECE_NONE) return KOMA_PIECE_NONE;
    koma_piece p = (koma_piece)(board_piece & ~(KOMA_PIECE_STATE | KOMA_PIECE_SECOND));
    if (capturer_side == KOMA_SECOND) p |= KOMA_PIECE_SECOND;
    return p;
}

static int cell_error(koma_error *err, koma_code code, size_t off, const char *text,
                      const koma_cell *c)
{
    char buf[KOMA_CELL_BUF];
    size_t n = koma_cell_write(c, buf);
    return koma__error_token(err, code, off, text, buf, n);
}

static int piece_error(koma_error *err, koma_code code, size_t off, const char *text,
                       koma_piece p)
{
    char buf[KOMA_EPIN_BUF];
    size_t n = koma_epin_write(p, buf);
    return koma__error_token(err, code, off, text, buf, n);
}

int koma__pmn_square(const koma_position *pos, const koma_cell *c, uint32_t *sq, size_t off,
                     koma_error *err)
{
    if (c->ndims < 1 || c->ndims > KOMA_CELL_MAX_DIMS ||
        koma_shape_square(&pos->shape, c, sq, NULL) != 0 || *sq >= pos->shape.squares)
        return cell_error(err, KOMA_E_PMN_SQUARE_BOARD, off, NULL, c);
    return 0;
}

int koma__pmn_hand_pick(const koma_position *pos, int side, koma_piece *out, size_t off,
                        const char *s, size_t len, koma_error *err)
{
    const koma_hand *h = &pos->hands[side];
    size_t found = 0;
    koma_piece pick = KOMA_PIECE_NONE;
    char list[160];
    size_t ln = 0;
    char quoted[64];

    list[0] = '\0';
    for (size_t i = 0; i < h->len; i++) {
        koma_piece p = h->items[i].piece;
        if (h->items[i].count == 0 || koma_piece_side(p) != side) continue;
        char e[KOMA_EPIN_BUF];
        koma_epin_write(p, e);
        if (ln + strlen(e) + 8 < sizeof list) {
            ln += (size_t)snprintf(list + ln, sizeof list - ln, "%s%s", found ? ", " : "", e);
        } else if (ln + 6 < sizeof list && strstr(list, "...") == NULL) {
            ln += (size_t)snprintf(list + ln, sizeof list - ln, ", ...");
        }
        pick = p;
        found++;
    }
    koma_quote(quoted, sizeof quoted, s, len);
    if (found == 0)
        return koma_error_set(err, KOMA_E_PMN_HAND_MISSING, off,
                              "no piece of the active player's side in hand to drop: \"%s\"",
                              quoted);
    if (found > 1)
        return koma_error_set(err, KOMA_E_PMN_HAND_AMBIGUOUS, off,
                              "several pieces in hand could be dropped (%s): \"%s\"", list,
                              quoted);
    *out = pick;
    return 0;
}

int koma__pmn_check_at(const koma_position *pos, const koma_move *m,
                       const koma__pmn_spans *sp, unsigned flags, koma_piece *dropped,
                       koma_error *err)
{
    int canon = (flags & KOMA__PMN_CANONICAL) != 0;
    uint32_t a = 0, b = 0;
    koma_piece actor_before = KOMA_PIECE_NONE, drop = KOMA_PIECE_NONE;
    const koma_piece *board = pos->board;
    int side = pos->turn == KOMA_SECOND ? KOMA_SECOND : KOMA_FIRST;

    if (dropped != NULL) *dropped = KOMA_PIECE_NONE;
    if (!move_ok(m))
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "not a well-formed move");

    switch (m->kind) {
    case KOMA_MOVE_PASS:
        return 0;

    case KOMA_MOVE_QUIET:
    case KOMA_MOVE_CAPTURE:
    case KOMA_MOVE_SPECIAL:
        if (koma__pmn_square(pos, &m->src, &a, sp->src, err)) return -1;
        if (koma__pmn_square(pos, &m->dst, &b, sp->dst, err)) return -1;
        if (board[a] == KOMA_PIECE_NONE)
            return cell_error(err, KOMA_E_PMN_SQUARE_EMPTY, sp->src, "no piece to move on",
                              &m->src);
        if (a == b)
            return cell_error(err, KOMA_E_PMN_SQUARE_SAME, sp->dst, NULL, &m->dst);
        if (m->kind == KOMA_MOVE_QUIET && board[b] != KOMA_PIECE_NONE)
            return cell_error(err, KOMA_E_PMN_SQUARE_OCCUPIED, sp->dst,
                              "destination of a quiet move is occupied", &m->dst);
        if (m->kind == KOMA_MOVE_CAPTURE && board[b] == KOMA_PIECE_NONE)
            return cell_error(err, KOMA_E_PMN_SQUARE_EMPTY, sp->dst, "no piece to capture on",
                              &m->dst);
        actor_before = board[a];
        break;

    case KOMA_MOVE_STATIC:
        if (koma__pmn_square(pos, &m->dst, &b, sp->dst, err)) return -1;
        if (board[b] == KOMA_PIECE_NONE)
            return cell_error(err, KOMA_E_PMN_SQUARE_EMPTY, sp->dst, "no piece to capture on",
                              &m->dst);
        break;

    case KOMA_MOVE_DROP:
    case KOMA_MOVE_DROPCAP:
        if (m->piece != KOMA_PIECE_NONE) {
            if (koma_hand_count(&pos->hands[side], m->piece) == 0)
                return piece_error(err, KOMA_E_PMN_HAND_MISSING, sp->piece, NULL, m->piece);
            drop = m->piece;
        } else {
            char text[KOMA_PMN_BUF];
            size_t n = koma_pmn_write(m, text);
            if (koma__pmn_hand_pick(pos, side, &drop, sp->piece, text, n, err)) return -1;
        }
        if (koma__pmn_square(pos, &m->dst, &b, sp->dst, err)) return -1;
        if (m->kind == KOMA_MOVE_DROP && board[b] != KOMA_PIECE_NONE)
            return cell_error(err, KOMA_E_PMN_SQUARE_OCCUPIED, sp->dst,
                              "drop on an occupied square", &m->dst);
        if (m->kind == KOMA_MOVE_DROPCAP && board[b] == KOMA_PIECE_NONE)
            return cell_error(err, KOMA_E_PMN_SQUARE_EMPTY, sp->dst, "no piece to capture on",
                              &m->dst);
        actor_before = drop;
        if (dropped != NULL) *dropped = drop;
        break;

    case KOMA_MOVE_MUTATE:
        if (koma__pmn_square(pos, &m->dst, &b, sp->dst, err)) return -1;
        if (board[b] == KOMA_PIECE_NONE)
            return cell_error(err, KOMA_E_PMN_SQUARE_EMPTY, sp->dst, "no piece to mutate on",
                              &m->dst);
        if (canon && m->actor == board[b])
            return piece_error(err, KOMA_E_PMN_CANONICAL_MUTATE, sp->actor,
                               "mutation to the same identity", m->actor);
        return 0;
    }

    if (canon && m->actor != KOMA_PIECE_NONE && m->actor == actor_before)
        return piece_error(err, KOMA_E_PMN_CANONICAL_ACTOR, sp->actor,
                           "'=' suffix repeats the actor's identity", m->actor);
    if (canon && m->captured != KOMA_PIECE_NONE && m->kind != KOMA_MOVE_SPECIAL &&
        m->captured == board[b])
        return piece_error(err, KOMA_E_PMN_CANONICAL_CAPTURED, sp->captured,
                           "'/' suffix repeats the captured piece's identity", m->captured);
    return 0;
}

int koma_pmn_check(const koma_position *pos, const koma_move *m, koma_error *err)
{
    koma__pmn_spans sp;
    if (pos == NULL || m == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_pmn_check: no position or move");
    koma__pmn_spans_of(m, &sp);
    return koma__pmn_check_at(pos, m, &sp, KOMA__PMN_CANONICAL, NULL, err);
}

int koma_pmn_resolve(const koma_position *pos, koma_move *m, koma_error *err)
{
    if (pos == NULL || m == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_pmn_resolve: no position or move");
    if ((m->kind != KOMA_MOVE_DROP && m->kind != KOMA_MOVE_DROPCAP) ||
        m->piece != KOMA_PIECE_NONE)
        return 0;
    char text[KOMA_PMN_BUF];
    size_t n = koma_pmn_write(m, text);
    koma_piece p;
    if (koma__pmn_hand_pick(pos, pos->turn == KOMA_SECOND ? KOMA_SECOND : KOMA_FIRST, &p, 0,
                            text, n, err))
        return -1;
    m->piece = p;
    return 0;
}
