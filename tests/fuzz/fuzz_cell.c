/*
 * tests/fuzz/fuzz_cell.c — libFuzzer harness for the atom parsers: CELL (parse
 * and scan), locations, the HAND token, board shapes, PIN, EPIN (parse and scan),
 * QPI, SNN and SIN. Every accepted input must be canonical (write(parse(s)) == s)
 * and re-parse to the same value; every rejection must carry a code of the
 * parser's family, an offset inside the input and a printable message.
 */

#include <koma/koma.h>
#include "fuzz.h"

static void check_error(const koma_error *err, size_t len, koma_code lo, koma_code hi)
{
    CHECK(err->code >= lo && err->code <= hi);
    CHECK(err->offset <= len);
    CHECK(err->line == 1 && err->column == err->offset + 1);
    check_message(err);
}

static void same_cell(const koma_cell *a, const koma_cell *b)
{
    CHECK(koma_cell_equal(a, b));
    CHECK(a->ndims >= 1 && a->ndims <= KOMA_CELL_MAX_DIMS);
}

/* A shape just big enough for c (plus a margin taken from the input): the
 * square of c must convert back to c. */
static void check_shape(const koma_cell *c, const uint8_t *data, size_t size)
{
    koma_shape shape;
    koma_error err;
    memset(&shape, 0, sizeof shape);
    shape.ndims = c->ndims;
    shape.squares = 1;
    for (unsigned d = 0; d < c->ndims; d++) {
        unsigned margin = size > d ? data[d] % 4u : 0u;
        shape.size[d] = (uint16_t)(c->idx[d] + 1u + margin);
        if (shape.size[d] > 255) shape.size[d] = 255;
        shape.squares *= shape.size[d];
    }
    uint32_t sq = UINT32_MAX;
    if (c->idx[0] == 255 || (c->ndims >= 2 && c->idx[1] == 255) ||
        (c->ndims >= 3 && c->idx[2] == 255)) {
        /* index 255 is never on a board (dimensions stop at 255) */
        CHECK(koma_shape_square(&shape, c, &sq, &err) == -1);
        CHECK(err.code == KOMA_E_CELL_SHAPE);
        return;
    }
    CHECK(koma_shape_square(&shape, c, &sq, &err) == 0);
    CHECK(sq < shape.squares);
    koma_cell back;
    koma_shape_cell(&shape, sq, &back);
    same_cell(&back, c);
}

static void fuzz_cell(const char *s, size_t len, const uint8_t *data)
{
    koma_cell c, back;
    koma_error err;
    char buf[KOMA_CELL_BUF];

    koma_error_clear(&err);
    if (koma_cell_parse(s, len, &c, &err) == 0) {
        CHECK(len >= 1 && len <= KOMA_CELL_MAX_LEN);
        size_t n = koma_cell_write(&c, buf);
        CHECK(n == len && memcmp(buf, s, len) == 0 && buf[n] == '\0');
        CHECK(koma_cell_parse(buf, n, &back, NULL) == 0);
        same_cell(&back, &c);
        check_shape(&c, data, len);
    } else {
        check_error(&err, len, KOMA_E_CELL_EMPTY, KOMA_E_CELL_INDEX);
        if (len > KOMA_CELL_MAX_LEN) CHECK(err.code == KOMA_E_CELL_LENGTH && err.offset == 7);
    }

    /* scan: the prefix it reads parses on its own to the same cell */
    koma_error_clear(&err);
    size_t n = koma_cell_scan(s, len, &c, &err);
    if (n > 0) {
        CHECK(n <= len && n <= KOMA_CELL_MAX_LEN);
        CHECK(koma_cell_parse(s, n, &back, NULL) == 0);
        same_cell(&back, &c);
    } else {
        check_error(&err, len, KOMA_E_CELL_EMPTY, KOMA_E_CELL_INDEX);
        CHECK(err.code != KOMA_E_CELL_LENGTH && err.code != KOMA_E_CELL_CHAR);
    }

    /* location: "*" or a CELL */
    koma_location loc;
    koma_error_clear(&err);
    if (koma_location_parse(s, len, &loc, &err) == 0) {
        if (loc.hand) {
            CHECK(len == 1 && s[0] == '*');
            CHECK(koma_hand_token_parse(s, len, NULL) == 0);
        } else {
            CHECK(koma_cell_write(&loc.cell, buf) == len && memcmp(buf, s, len) == 0);
        }
    } else {
        CHECK(err.code == KOMA_E_HAND_TOKEN ||
              (err.code >= KOMA_E_CELL_EMPTY && err.code <= KOMA_E_CELL_INDEX));
        check_error(&err, len, KOMA_E_CELL_EMPTY, KOMA_E_HAND_TOKEN);
    }
    koma_error_clear(&err);
    if (koma_hand_token_parse(s, len, &err) != 0)
        check_error(&err, len, KOMA_E_HAND_TOKEN, KOMA_E_HAND_TOKEN);
}

static void fuzz_pieces(const char *s, size_t len)
{
    koma_piece p, q;
    koma_error err;
    char buf[KOMA_EPIN_BUF];

    koma_error_clear(&err);
    if (koma_pin_parse(s, len, &p, &err) == 0) {
        CHECK(!(p & KOMA_PIECE_DERIVED));
        CHECK(koma_epin_write(p, buf) == len && memcmp(buf, s, len) == 0);
        CHECK(koma_epin_parse(s, len, &q, NULL) == 0 && q == p);
    } else {
        check_error(&err, len, KOMA_E_PIN_EMPTY, KOMA_E_PIN_DERIVATION);
    }

    koma_error_clear(&err);
    if (koma_epin_parse(s, len, &p, &err) == 0) {
        CHECK(len >= 1 && len <= KOMA_EPIN_MAX_LEN);
        CHECK((p & ~KOMA_PIECE_MASK) == 0);
        size_t n = koma_epin_write(p, buf);
        CHECK(n == len && memcmp(buf, s, len) == 0 && buf[n] == '\0');
        CHECK(koma_epin_parse(buf, n, &q, NULL) == 0 && q == p);
        CHECK(koma_piece_flip(koma_piece_flip(p)) == p);
        CHECK(koma_piece_hand_key(p) != koma_piece_hand_key(koma_piece_flip(p)));
    } else {
        check_error(&err, len, KOMA_E_PIN_EMPTY, KOMA_E_EPIN_DERIVATION);
    }

    /* scan: the token it reads is an EPIN of its own */
    size_t n = koma_epin_scan(s, len, &p);
    CHECK(n <= len && n <= KOMA_EPIN_MAX_LEN);
    if (n > 0) {
        CHECK(koma_epin_parse(s, n, &q, NULL) == 0 && q == p);
    } else {
        CHECK(p == KOMA_PIECE_NONE);
    }

    koma_qpi qpi, qback;
    char qbuf[KOMA_QPI_BUF];
    koma_error_clear(&err);
    if (koma_qpi_parse(s, len, &qpi, &err) == 0) {
        size_t k = koma_qpi_write(&qpi, qbuf);
        CHECK(k == len && memcmp(qbuf, s, len) == 0 && qbuf[k] == '\0');
        CHECK(koma_qpi_parse(qbuf, k, &qback, NULL) == 0);
        CHECK(qback.style == qpi.style && qback.piece == qpi.piece);
        CHECK(koma_sin_parse(s, 1, NULL, NULL) == 0);
        CHECK(koma_pin_parse(s + 2, len - 2, NULL, NULL) == 0);
    } else {
        check_error(&err, len, KOMA_E_QPI_SYNTAX, KOMA_E_QPI_DERIVATION);
    }
}

static void fuzz_styles(const char *s, size_t len)
{
    koma_error err;
    char out[KOMA_SNN_MAX_LEN + 1], back[KOMA_SNN_MAX_LEN + 1];
    koma_error_clear(&err);
    if (koma_snn_parse(s, len, out, &err) == 0) {
        CHECK(len >= 1 && len <= KOMA_SNN_MAX_LEN);
        CHECK(strlen(out) == len && memcmp(out, s, len) == 0);
        CHECK(koma_snn_parse(out, len, back, NULL) == 0 && strcmp(out, back) == 0);
    } else {
        check_error(&err, len, KOMA_E_SNN_EMPTY, KOMA_E_SNN_CHAR);
        if (len > KOMA_SNN_MAX_LEN) CHECK(err.code == KOMA_E_SNN_LENGTH && err.offset == 32);
    }

    char c = 0;
    koma_error_clear(&err);
    if (koma_sin_parse(s, len, &c, &err) == 0) {
        CHECK(len == 1 && c == s[0]);
    } else {
        check_error(&err, len, KOMA_E_SIN_EMPTY, KOMA_E_SIN_LETTER);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_copy(data, size);
    if (s == NULL) return 0;
    fuzz_cell(s, size, data);
    fuzz_pieces(s, size);
    fuzz_styles(s, size);
    free(s);
    return 0;
}
