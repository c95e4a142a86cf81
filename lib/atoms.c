/*
 * lib/atoms.c — the one-token notations (koma-formats(5): SIN, SNN, PIN AND
 * EPIN, QPI):
 *     SIN   one ASCII letter
 *     SNN   [A-Z][A-Za-z]*[0-9]*, at most 32 bytes
 *     PIN   [+-]?[A-Za-z]\^?
 *     EPIN  PIN '?
 *     QPI   SIN ':' PIN, both halves of the same letter case
 *
 * Error offsets (0-based; column = offset + 1) are the byte where the input
 * stops being a valid prefix of the notation, or len when it ends too early:
 *     sin.empty 0; sin.letter 0 (first byte not a letter: "1", "\xc3\xa9");
 *     sin.length 1 (a letter followed by anything: "CC", "C ").
 *     snn.empty 0; snn.length 32 (checked first); snn.start 0; snn.char at the
 *     first bad byte ("Chess9x" -> 6, "Chess-960" -> 5).
 *     pin.empty 0; pin.syntax at the bad byte or at len ("+" -> 1, "KK" -> 1,
 *     "K^^" -> 2, "^K" -> 0); pin.derivation at the "'" ("K'" -> 1).
 *     EPIN: the PIN codes, and epin.derivation at an "'" where none may stand
 *     ("'K" -> 0, "-'" -> 1) or at any byte after the marker ("K''" -> 2,
 *     "K'^" -> 2, "K'+" -> 2).
 *     qpi.syntax at the bad byte or at len ("" -> 0, ":K" -> 0, "CK" -> 1,
 *     "C:" -> 2, "C::K" -> 2); qpi.side at the PIN letter whose case differs
 *     from the style letter ("C:k" -> 2, "c:+K" -> 3); qpi.derivation at the
 *     "'" ("C:K'" -> 3).
 */
#include <string.h>

#include "internal.h"

/* ---- pieces --------------------------------------------------------------- */

/* A piece value that the writers accept: letter 1..26, at most one state bit. */
static int piece_valid(koma_piece p)
{
    unsigned letter = p & KOMA_PIECE_LETTER;
    if (p & ~KOMA_PIECE_MASK) return 0;
    if (letter < 1 || letter > 26) return 0;
    if ((p & KOMA_PIECE_STATE) == KOMA_PIECE_STATE) return 0;
    return 1;
}

unsigned koma_piece_hand_key(koma_piece p)
{
    return koma__hand_key(p);
}

/*
 * The PIN part of s[0..len): optional prefix, letter, optional '^'. Returns the
 * number of bytes read (> 0) with *out set, or 0 with *where at the byte where a
 * letter was expected (len when the input ends first).
 */
static size_t pin_core(const char *s, size_t len, koma_piece *out, size_t *where)
{
    size_t pos = 0;
    koma_piece state = 0;
    if (pos < len && (s[pos] == '+' || s[pos] == '-')) {
        state = s[pos] == '+' ? KOMA_PIECE_ENHANCED : KOMA_PIECE_DIMINISHED;
        pos++;
    }
    if (pos >= len || !KOMA_IS_ALPHA(s[pos])) { *where = pos; return 0; }
    koma_piece p = (koma_piece)(koma_piece_from_letter(s[pos]) | state);
    pos++;
    if (pos < len && s[pos] == '^') { p |= KOMA_PIECE_TERMINAL; pos++; }
    *out = p;
    return pos;
}

int koma_pin_parse(const char *s, size_t len, koma_piece *out, koma_error *err)
{
    koma_piece p = KOMA_PIECE_NONE;
    size_t where = 0;
    if (len == 0) return koma__error_token(err, KOMA_E_PIN_EMPTY, 0, NULL, s, len);
    size_t n = pin_core(s, len, &p, &where);
    if (n == 0)
        return koma__error_token(err, where < len && s[where] == '\'' ? KOMA_E_PIN_DERIVATION
                                                                       : KOMA_E_PIN_SYNTAX,
                                 where, NULL, s, len);
    if (n < len)
        return koma__error_token(err, s[n] == '\'' ? KOMA_E_PIN_DERIVATION : KOMA_E_PIN_SYNTAX,
                                 n, NULL, s, len);
    if (out != NULL) *out = p;
    return 0;
}

int koma_epin_parse(const char *s, size_t len, koma_piece *out, koma_error *err)
{
    koma_piece p = KOMA_PIECE_NONE;
    size_t where = 0;
    if (len == 0) return koma__error_token(err, KOMA_E_PIN_EMPTY, 0, NULL, s, len);
    size_t n = pin_core(s, len, &p, &where);
    if (n == 0)
        return koma__error_token(err, where < len && s[where] == '\'' ? KOMA_E_EPIN_DERIVATION
                                                                       : KOMA_E_PIN_SYNTAX,
                                 where, NULL, s, len);
    if (n < len && s[n] == '\'') {
        p |= KOMA_PIECE_DERIVED;
        n++;
        if (n < len)        /* the marker must be the last byte */
            return koma__error_token(err, KOMA_E_EPIN_DERIVATION, n, NULL, s, len);
    }
    if (n < len) return koma__error_token(err, KOMA_E_PIN_SYNTAX, n, NULL, s, len);
    if (out != NULL) *out = p;
    return 0;
}

size_t koma_epin_scan(const char *s, size_t len, koma_piece *out)
{
    koma_piece p = KOMA_PIECE_NONE;
    size_t where = 0;
    size_t n = pin_core(s, len, &p, &where);
    if (n > 0 && n < len && s[n] == '\'') { p |= KOMA_PIECE_DERIVED; n++; }
    if (out != NULL) *out = n > 0 ? p : KOMA_PIECE_NONE;
    return n;
}

/* Writes "" and returns 0 for NONE and for values that are no valid piece. */
size_t koma_epin_write(koma_piece p, char buf[KOMA_EPIN_BUF])
{
    size_t n = 0;
    if (!piece_valid(p)) { buf[0] = '\0'; return 0; }
    if (p & KOMA_PIECE_ENHANCED) buf[n++] = '+';
    else if (p & KOMA_PIECE_DIMINISHED) buf[n++] = '-';
    buf[n++] = koma_piece_letter(p);
    if (p & KOMA_PIECE_TERMINAL) buf[n++] = '^';
    if (p & KOMA_PIECE_DERIVED) buf[n++] = '\'';
    buf[n] = '\0';
    return n;
}

/* ---- SIN, SNN --------------------------------------------------------------- */

int koma_sin_parse(const char *s, size_t len, char *out, koma_error *err)
{
    if (len == 0) return koma__error_token(err, KOMA_E_SIN_EMPTY, 0, NULL, s, len);
    if (!KOMA_IS_ALPHA(s[0])) return koma__error_token(err, KOMA_E_SIN_LETTER, 0, NULL, s, len);
    if (len > 1) return koma__error_token(err, KOMA_E_SIN_LENGTH, 1, NULL, s, len);
    if (out != NULL) *out = s[0];
    return 0;
}

int koma_snn_parse(const char *s, size_t len, char out[KOMA_SNN_MAX_LEN + 1], koma_error *err)
{
    if (len == 0) return koma__error_token(err, KOMA_E_SNN_EMPTY, 0, NULL, s, len);
    if (len > KOMA_SNN_MAX_LEN)
        return koma__error_token(err, KOMA_E_SNN_LENGTH, KOMA_SNN_MAX_LEN, NULL, s, len);
    if (!KOMA_IS_UPPER(s[0])) return koma__error_token(err, KOMA_E_SNN_START, 0, NULL, s, len);
    size_t pos = 1;
    while (pos < len && KOMA_IS_ALPHA(s[pos])) pos++;
    while (pos < len && KOMA_IS_DIGIT(s[pos])) pos++;
    if (pos < len) return koma__error_token(err, KOMA_E_SNN_CHAR, pos, NULL, s, len);
    if (out != NULL) {
        memcpy(out, s, len);
        out[len] = '\0';
    }
    return 0;
}

/* ---- QPI ---------------------------------------------------------------------- */

int koma_qpi_parse(const char *s, size_t len, koma_qpi *out, koma_error *err)
{
    if (len == 0 || !KOMA_IS_ALPHA(s[0]))
        return koma__error_token(err, KOMA_E_QPI_SYNTAX, 0, NULL, s, len);
    if (len < 2 || s[1] != ':') return koma__error_token(err, KOMA_E_QPI_SYNTAX, 1, NULL, s, len);

    koma_piece p = KOMA_PIECE_NONE;
    size_t where = 0;
    size_t n = pin_core(s + 2, len - 2, &p, &where);
    if (n == 0)
        return koma__error_token(err, KOMA_E_QPI_SYNTAX, 2 + where, NULL, s, len);
    int style_second = KOMA_IS_LOWER(s[0]);
    if (style_second != (koma_piece_side(p) == KOMA_SECOND)) {
        size_t letter = 2 + ((p & KOMA_PIECE_STATE) ? 1u : 0u);
        return koma__error_token(err, KOMA_E_QPI_SIDE, letter, NULL, s, len);
    }
    n += 2;
    if (n < len)
        return koma__error_token(err, s[n] == '\'' ? KOMA_E_QPI_DERIVATION : KOMA_E_QPI_SYNTAX, n,
                                 NULL, s, len);
    if (out != NULL) {
        out->style = s[0];
        out->piece = p;
    }
    return 0;
}

/* Writes "" and returns 0 unless the style is a letter of the piece's case and
 * the piece is a valid, non-derived PIN. */
size_t koma_qpi_write(const koma_qpi *q, char buf[KOMA_QPI_BUF])
{
    char pin[KOMA_EPIN_BUF];
    buf[0] = '\0';
    if (!KOMA_IS_ALPHA(q->style) || (q->piece & KOMA_PIECE_DERIVED) || !piece_valid(q->piece))
        return 0;
    if (KOMA_IS_LOWER(q->style) != (koma_piece_side(q->piece) == KOMA_SECOND)) return 0;
    size_t n = koma_epin_write(q->piece, pin);
    buf[0] = q->style;
    buf[1] = ':';
    memcpy(buf + 2, pin, n + 1);
    return n + 2;
}
