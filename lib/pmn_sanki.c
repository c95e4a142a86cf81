/*
 * lib/pmn_sanki.c — the Sanki platform's move form (koma-formats(5), PMN, Input
 * dialects, "sanki"): a JSON array of three elements [from, to, actor].
 *
 *   ["e2","e4",null]       a board move (a capture when the square is occupied;
 *                          castling and en passant name the mover's two squares)
 *   ["e7","e8","queen"]    a board move with the promotion the player chose
 *   [null,"h7","fu"]       a drop: actor names the piece taken from the hand
 *
 * The actor is a word of the mover's variant, which is its side's style letter:
 *   W chess     queen Q, rook R, bishop B, knight N      (promotion choices)
 *   J Ogi       fu F, rook R, bishop B, knight N, princess I  (drops; the Fu's
 *               promotion to the Tokin T is the only one and takes no word)
 *   C Xiongqi   chariot R, knight N, bear B, empress E   (promotion choices)
 *
 * Read against a position, the array is the move at the protocol level: a-b or
 * a+b, '=X' for the chosen piece (the mover's side and derivation kept), the
 * captured piece's identity in hand by the Sanki suite's rule ('/Y' when it
 * differs from the piece on the board): a Chess or Xiongqi capturer keeps the
 * piece as it was (the opponent's case: it cannot be dropped), an Ogi capturer
 * turns an Ogi piece to its own side and any other piece into a Fu; the state
 * marker is dropped and a Tokin goes back to a Fu. What the rules alone decide
 * (castling's rook, en passant's victim, the state markers of the pieces, the
 * Fu's promotion) is not said here: the referee finds the one legal move that
 * the array names (lib/referee.c, read_ply).
 *
 * Written from canonical PMN: the mover's squares, and the word of the piece
 * dropped or chosen when the variant has one (a piece change without a word, the
 * Tokin's, writes null). Errors: pmn.sanki.syntax (the form), pmn.cell (a square),
 * pmn.sanki.actor (a word), pmn.sanki.style (not a Sanki style), the pmn.* checks
 * of the move in the position; columns at the offending element.
 */
#include <string.h>

#include "pmn_internal.h"

#define SANKI_MAX_LEN 256              /* the platform's bound on a ply's content */
#define WORD_MAX 16

typedef struct word {
    const char *word;
    char letter;
} word;

static const word chess_words[] = {{"queen", 'Q'}, {"rook", 'R'}, {"bishop", 'B'},
                                   {"knight", 'N'}, {NULL, 0}};
static const word ogi_words[] = {{"fu", 'F'}, {"rook", 'R'}, {"bishop", 'B'}, {"knight", 'N'},
                                 {"princess", 'I'}, {NULL, 0}};
static const word xiongqi_words[] = {{"chariot", 'R'}, {"knight", 'N'}, {"bear", 'B'},
                                     {"empress", 'E'}, {NULL, 0}};

/* The words of a style letter's variant, NULL when it is not a Sanki style. */
static const word *variant_words(char style, const char **name)
{
    switch (style & ~0x20) {
    case 'W': *name = "chess (W)"; return chess_words;
    case 'J': *name = "Ogi (J)"; return ogi_words;
    case 'C': *name = "Xiongqi (C)"; return xiongqi_words;
    }
    *name = NULL;
    return NULL;
}

const char *koma_sanki_actor_word(char style, char letter)
{
    const char *name;
    const word *w = variant_words(style, &name);
    for (; w != NULL && w->word != NULL; w++)
        if (w->letter == (letter & ~0x20)) return w->word;
    return NULL;
}

char koma_sanki_actor_letter(char style, const char *s, size_t len)
{
    const char *name;
    const word *w = variant_words(style, &name);
    for (; w != NULL && w->word != NULL; w++)
        if (strlen(w->word) == len && memcmp(w->word, s, len) == 0) return w->letter;
    return 0;
}

/* ---- reading ---------------------------------------------------------------- */

typedef struct elem {
    int null;
    koma__pmn_jitem it;                /* it.off: the element's first byte */
} elem;

static int syntax(koma_error *err, size_t off, const char *what, const char *s, size_t len)
{
    return koma__pmn_json_fail(err, KOMA_E_PMN_SANKI_SYNTAX, off, what, s, len);
}

static int elem_error(koma_error *err, koma_code code, const char *what, const elem *e,
                      const char *s, size_t len)
{
    if (e->null) {
        koma__error_token(err, code, e->it.off, what, "null", 4);
    } else {
        size_t n = e->it.len < KOMA__PMN_JITEM_MAX ? e->it.len : KOMA__PMN_JITEM_MAX;
        koma__error_token(err, code, e->it.off, what, e->it.text, n);
    }
    return koma__pmn_json_place(err, s, len);
}

/* The array's three elements. */
static int triple(const char *s, size_t len, elem el[3], koma_error *err)
{
    size_t i = koma__pmn_json_ws(s, len, 0), arr;
    if (i >= len || s[i] != '[') return syntax(err, i, "expected a JSON array '['", s, len);
    arr = i++;
    for (int k = 0; k < 3; k++) {
        i = koma__pmn_json_ws(s, len, i);
        memset(&el[k], 0, sizeof el[k]);
        if (k == 0 && i < len && s[i] == ']')
            return syntax(err, arr, "the array is empty, not [from, to, actor]", s, len);
        if (i < len && s[i] == '"') {
            if (koma__pmn_json_string(s, len, &i, &el[k].it, KOMA_E_PMN_SANKI_SYNTAX, err))
                return -1;
        } else if (i + 4 <= len && memcmp(s + i, "null", 4) == 0) {
            el[k].null = 1;
            el[k].it.off = i;
            i += 4;
        } else {
            return syntax(err, i, "expected a string or null", s, len);
        }
        i = koma__pmn_json_ws(s, len, i);
        if (k < 2 && i < len && s[i] == ']')
            return syntax(err, arr, k == 0 ? "the array has 1 element, not 3 [from, to, actor]"
                                           : "the array has 2 elements, not 3 [from, to, actor]",
                          s, len);
        if (k < 2 && (i >= len || s[i] != ','))
            return syntax(err, i, "expected ','", s, len);
        if (k == 2 && i < len && s[i] == ',')
            return syntax(err, arr, "the array has more than 3 elements [from, to, actor]", s,
                          len);
        if (k == 2 && (i >= len || s[i] != ']')) return syntax(err, i, "expected ']'", s, len);
        i++;
    }
    i = koma__pmn_json_ws(s, len, i);
    if (i < len) return syntax(err, i, "unexpected text after the array", s, len);
    return 0;
}

static int square(const elem *e, koma_cell *c, koma_error *err, const char *s, size_t len)
{
    if (e->null || e->it.len > KOMA__PMN_JITEM_MAX ||
        koma_cell_parse(e->it.text, e->it.len, c, NULL) != 0)
        return elem_error(err, KOMA_E_PMN_CELL, "invalid square (a CELL coordinate such as \"e4\")",
                          e, s, len);
    return 0;
}

/* The letter of the actor word for the mover's variant. */
static int actor_letter(const koma_position *pos, const elem *e, char *letter, koma_error *err,
                        const char *s, size_t len)
{
    int ok = e->it.len >= 1 && e->it.len <= WORD_MAX;
    for (size_t k = 0; ok && k < e->it.len && k < KOMA__PMN_JITEM_MAX; k++)
        ok = e->it.text[k] >= 'a' && e->it.text[k] <= 'z';
    if (!ok)
        return elem_error(err, KOMA_E_PMN_SANKI_ACTOR,
                          "a piece word is 1 to 16 lowercase letters", e, s, len);
    char style = pos->style[pos->turn == KOMA_SECOND ? 1 : 0];
    const char *name;
    const word *w = variant_words(style, &name);
    if (w == NULL) {
        char what[80];
        snprintf(what, sizeof what,
                 "the mover's style %c is not a Sanki variant (W, J, C), which has no word", style);
        return elem_error(err, KOMA_E_PMN_SANKI_STYLE, what, e, s, len);
    }
    *letter = koma_sanki_actor_letter(style, e->it.text, e->it.len);
    if (*letter == 0) {
        char what[120];
        size_t n = (size_t)snprintf(what, sizeof what, "not a word of %s:", name);
        for (; w->word != NULL && n < sizeof what; w++)
            n += (size_t)snprintf(what + n, sizeof what - n, " %s", w->word);
        return elem_error(err, KOMA_E_PMN_SANKI_ACTOR, what, e, s, len);
    }
    return 0;
}

/* The identity the captured piece v takes in the hand of side (the Sanki rule). */
static koma_piece captured_identity(const koma_position *pos, koma_piece v, int side)
{
    char capturer = (char)(pos->style[side] & ~0x20), owner = (char)(pos->style[!side] & ~0x20);
    koma_piece base = (koma_piece)(v & ~KOMA_PIECE_STATE);
    if (koma_piece_letter(base) == 'T' || koma_piece_letter(base) == 't')
        base = (koma_piece)((base & ~KOMA_PIECE_LETTER) |
                            (koma_piece_from_letter('F') & KOMA_PIECE_LETTER));
    if (capturer != 'J') return base;
    koma_piece mine = side == KOMA_SECOND ? KOMA_PIECE_SECOND : 0;
    if (owner == 'J') return (koma_piece)((base & ~KOMA_PIECE_SECOND) | mine);
    return (koma_piece)((koma_piece_from_letter('F') & KOMA_PIECE_LETTER) | mine);
}

/* The piece of the mover's case with that letter in the mover's hand (a native one
 * first), else the native piece for the check to report missing. */
static koma_piece hand_piece(const koma_position *pos, int side, char letter)
{
    koma_piece want = (koma_piece)((koma_piece_from_letter(letter) & KOMA_PIECE_LETTER) |
                                   (side == KOMA_SECOND ? KOMA_PIECE_SECOND : 0));
    const koma_hand *h = &pos->hands[side];
    if (koma_hand_count(h, want) > 0) return want;
    for (size_t i = 0; i < h->len; i++) {
        koma_piece p = h->items[i].piece;
        if ((p & (KOMA_PIECE_LETTER | KOMA_PIECE_SECOND)) == want) return p;
    }
    return want;
}

int koma__pmn_read_sanki(const char *s, size_t len, const koma_position *pos, koma_move *out,
                         koma_error *err)
{
    elem el[3];
    koma_move m;
    koma__pmn_spans sp;
    char letter = 0;
    int side = pos->turn == KOMA_SECOND ? KOMA_SECOND : KOMA_FIRST;

    memset(&m, 0, sizeof m);
    memset(&sp, 0, sizeof sp);
    if (len == 0) return koma_error_set(err, KOMA_E_PMN_EMPTY, 0, "empty move");
    if (len > SANKI_MAX_LEN)
        return syntax(err, SANKI_MAX_LEN, "a Sanki move is at most 256 bytes", s, len);
    if (triple(s, len, el, err) != 0) return -1;
    const elem *from = &el[0], *to = &el[1], *actor = &el[2];
    if (square(to, &m.dst, err, s, len) != 0) return -1;
    if (!from->null && square(from, &m.src, err, s, len) != 0) return -1;
    if (!actor->null && actor_letter(pos, actor, &letter, err, s, len) != 0) return -1;
    sp.dst = to->it.off;
    if (from->null) {
        if (actor->null)
            return elem_error(err, KOMA_E_PMN_SANKI_ACTOR, "a drop names its piece", actor, s,
                              len);
        m.kind = KOMA_MOVE_DROP;
        m.piece = hand_piece(pos, side, letter);
        sp.piece = actor->it.off;
    } else {
        uint32_t a, b;
        sp.src = from->it.off;
        if (koma_cell_equal(&m.src, &m.dst))
            return elem_error(err, KOMA_E_PMN_SQUARE_SAME,
                              "origin and destination are the same square", to, s, len);
        if (koma__pmn_square(pos, &m.src, &a, sp.src, err) != 0 ||
            koma__pmn_square(pos, &m.dst, &b, sp.dst, err) != 0)
            return koma__pmn_json_place(err, s, len);
        koma_piece mover = pos->board[a], victim = pos->board[b];
        m.kind = KOMA_MOVE_QUIET;
        if (victim != KOMA_PIECE_NONE) {
            m.kind = KOMA_MOVE_CAPTURE;
            koma_piece y = captured_identity(pos, victim, side);
            if (y != victim) m.captured = y;
            sp.captured = sp.dst;
        }
        if (letter != 0 && mover != KOMA_PIECE_NONE) {
            koma_piece x = (koma_piece)((koma_piece_from_letter(letter) & KOMA_PIECE_LETTER) |
                                        (mover & (KOMA_PIECE_SECOND | KOMA_PIECE_DERIVED)));
            if (x != mover) m.actor = x;
            sp.actor = actor->it.off;
        }
    }
    if (koma__pmn_check_at(pos, &m, &sp, KOMA__PMN_CANONICAL, NULL, err) != 0)
        return koma__pmn_json_place(err, s, len);
    if (out != NULL) *out = m;
    return 0;
}

/* ---- writing ---------------------------------------------------------------- */

static size_t put(char *buf, size_t cap, size_t n, const char *t)
{
    size_t k = strlen(t);
    for (size_t i = 0; i < k; i++, n++)
        if (n + 1 < cap) buf[n] = t[i];
    if (cap) buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

static size_t put_cell(char *buf, size_t cap, size_t n, const koma_cell *c)
{
    char t[KOMA_CELL_BUF + 2];
    t[0] = '"';
    size_t k = koma_cell_write(c, t + 1);
    t[k + 1] = '"';
    t[k + 2] = '\0';
    return put(buf, cap, n, t);
}

static size_t unrepresentable(koma_error *err, const char *what)
{
    koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "the Sanki move form has no %s", what);
    return 0;
}

size_t koma_sanki_move_write(const koma_position *pos, const koma_move *m, char *buf, size_t cap,
                             koma_error *err)
{
    int side = pos->turn == KOMA_SECOND ? 1 : 0;
    char style = pos->style[side];
    const char *w = NULL, *name;
    uint32_t a = 0;
    /* a word is needed for a drop and a change of piece: only then the variant */
    int sanki = variant_words(style, &name) != NULL, needs = m->kind == KOMA_MOVE_DROP;
    switch (m->kind) {
    case KOMA_MOVE_QUIET:
    case KOMA_MOVE_CAPTURE:
    case KOMA_MOVE_SPECIAL:
        if (koma_shape_square(&pos->shape, &m->src, &a, err) != 0) return 0;
        if (m->actor != KOMA_PIECE_NONE &&
            (koma_piece_letter(m->actor) & ~0x20) != (koma_piece_letter(pos->board[a]) & ~0x20)) {
            needs = 1;
            w = koma_sanki_actor_word(style, koma_piece_letter(m->actor));
        }
        break;
    case KOMA_MOVE_DROP:
        if (m->actor != KOMA_PIECE_NONE) return unrepresentable(err, "promoted drop");
        if (!sanki) break;
        w = koma_sanki_actor_word(style, koma_piece_letter(m->piece));
        if (w == NULL) {
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                           "%s has no word for the dropped piece %c", name,
                           koma_piece_letter(m->piece));
            return 0;
        }
        break;
    default:
        return unrepresentable(err, "pass, in-place capture, capture by drop or mutation");
    }
    if (needs && !sanki) {
        koma_error_set(err, KOMA_E_PMN_SANKI_STYLE, 0,
                       "the mover's style %c is not a Sanki variant (W, J, C): no word for the "
                       "piece", style);
        return 0;
    }
    size_t n = put(buf, cap, 0, "[");
    n = m->kind == KOMA_MOVE_DROP ? put(buf, cap, n, "null") : put_cell(buf, cap, n, &m->src);
    n = put(buf, cap, n, ",");
    n = put_cell(buf, cap, n, &m->dst);
    n = put(buf, cap, n, ",");
    if (w != NULL) {
        n = put(buf, cap, n, "\"");
        n = put(buf, cap, n, w);
        n = put(buf, cap, n, "\"");
    } else {
        n = put(buf, cap, n, "null");
    }
    return put(buf, cap, n, "]");
}

/* ---- a list of moves -------------------------------------------------------- */

int koma_sanki_is_list(const char *s, size_t len)
{
    size_t i = koma__pmn_json_ws(s, len, 0);
    if (i >= len || s[i] != '[') return 0;
    i = koma__pmn_json_ws(s, len, i + 1);
    return i < len && (s[i] == '[' || s[i] == ']');
}

long koma_sanki_move_list(const char *s, size_t len, koma_sanki_move_fn fn, void *ctx,
                          koma_error *err)
{
    size_t i = koma__pmn_json_ws(s, len, 0);
    long n = 0;
    if (i >= len || s[i] != '[') return syntax(err, i, "expected a JSON array of moves '['", s, len);
    i = koma__pmn_json_ws(s, len, i + 1);
    if (i < len && s[i] == ']') {
        i++;
    } else {
        for (;;) {
            if (i >= len || s[i] != '[')
                return syntax(err, i, "expected a move [from, to, actor]", s, len);
            size_t at = i;
            /* the move ends at the first ']' outside its strings */
            int in_string = 0;
            for (i++; i < len; i++) {
                if (in_string) {
                    if (s[i] == '\\') {
                        if (++i >= len) break;     /* a last '\\': the string never ends */
                        continue;                  /* past the escaped byte */
                    }
                    if (s[i] == '"') in_string = 0;
                } else if (s[i] == '"') {
                    in_string = 1;
                } else if (s[i] == ']' || s[i] == '[') {
                    break;
                }
            }
            if (i >= len || s[i] != ']')
                return syntax(err, i, "expected the end of the move ']'", s, len);
            i++;
            int rc = fn(ctx, at, i - at);
            if (rc != 0) return rc;     /* the callback's own value stops the call */
            n++;
            i = koma__pmn_json_ws(s, len, i);
            if (i < len && s[i] == ']') {
                i++;
                break;
            }
            if (i >= len || s[i] != ',') return syntax(err, i, "expected ',' or ']'", s, len);
            i = koma__pmn_json_ws(s, len, i + 1);
        }
    }
    i = koma__pmn_json_ws(s, len, i);
    if (i < len) return syntax(err, i, "unexpected text after the moves", s, len);
    return n;
}
