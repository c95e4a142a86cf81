/*
 * lib/cell.c — CELL coordinates (koma-formats(5), CELL), the HAND token "*",
 * locations (CELL or HAND) and board shapes.
 *
 * CELL: up to three dimensions in the fixed cycle
 *     file  = lowercase letters (bijective base 26: a=0 .. z=25, aa=26 .. iv=255)
 *     rank  = positive decimal, no leading zero (1-based text, 0-based index)
 *     layer = uppercase letters (as the file)
 * every index 0..255, at most 7 bytes, ASCII only.
 *
 * Error offsets (0-based, column = offset + 1) are the byte where the input
 * stops being a valid prefix of a coordinate:
 *     cell.empty       0
 *     cell.length      7 (koma_cell_parse checks the length before anything else)
 *     cell.start       0
 *     cell.char        the unexpected byte ("aA" -> 1, "a1a" -> 2, "a@1" -> 1)
 *     cell.zero        the '0' starting a rank ("a0", "a01" -> 1)
 *     cell.dimensions  the lowercase letter that would start a 4th dimension ("a1Aa" -> 3)
 *     cell.index       the byte whose addition makes the index exceed 255:
 *                      "iw" -> 1, "aaa" -> 2 (a 3-letter run is never <= 255),
 *                      "a257" -> 3, "a1IW" -> 3
 */
#include <string.h>

#include "internal.h"

#define CELL_MAX_INDEX 255u

/*
 * The scanner shared by koma_cell_parse and koma_cell_scan. Reads the longest
 * prefix of s[0..len) that follows the CELL cycle. Returns the number of bytes
 * consumed (> 0) with *cell filled, or 0 with *code / *where describing the error.
 * A lowercase letter right after a layer is a 4th dimension: cell.dimensions.
 */
static size_t cell_core(const char *s, size_t len, koma_cell *cell, koma_code *code,
                        size_t *where)
{
    size_t pos = 0;
    unsigned dim = 0;

    memset(cell, 0, sizeof *cell);
    if (len == 0) { *code = KOMA_E_CELL_EMPTY; *where = 0; return 0; }
    if (!KOMA_IS_LOWER(s[0])) { *code = KOMA_E_CELL_START; *where = 0; return 0; }

    while (pos < len) {
        unsigned char c = (unsigned char)s[pos];
        unsigned v = 0;
        if (dim == 0 || dim == 2) {
            /* a letter run: lowercase for the file, uppercase for the layer */
            char base = dim == 0 ? 'a' : 'A';
            if (c < (unsigned char)base || c > (unsigned char)(base + 25)) break;
            v = (unsigned)(c - (unsigned char)base);
            pos++;
            if (pos < len && (unsigned char)s[pos] >= (unsigned char)base &&
                (unsigned char)s[pos] <= (unsigned char)(base + 25)) {
                v = 26u + v * 26u + (unsigned)((unsigned char)s[pos] - (unsigned char)base);
                if (v > CELL_MAX_INDEX) { *code = KOMA_E_CELL_INDEX; *where = pos; return 0; }
                pos++;
                if (pos < len && (unsigned char)s[pos] >= (unsigned char)base &&
                    (unsigned char)s[pos] <= (unsigned char)(base + 25)) {
                    /* a run of 3 letters is at least 702 */
                    *code = KOMA_E_CELL_INDEX; *where = pos; return 0;
                }
            }
            cell->idx[dim] = (uint8_t)v;
        } else if (dim == 1) {
            if (!KOMA_IS_DIGIT(c)) break;
            if (c == '0') { *code = KOMA_E_CELL_ZERO; *where = pos; return 0; }
            while (pos < len && KOMA_IS_DIGIT(s[pos])) {
                v = v * 10u + (unsigned)(s[pos] - '0');
                if (v - 1u > CELL_MAX_INDEX) { *code = KOMA_E_CELL_INDEX; *where = pos; return 0; }
                pos++;
            }
            cell->idx[1] = (uint8_t)(v - 1u);
        } else {
            /* dim == 3: only a lowercase letter would continue the cycle */
            if (KOMA_IS_LOWER(c)) { *code = KOMA_E_CELL_DIMENSIONS; *where = pos; return 0; }
            break;
        }
        dim++;
    }
    cell->ndims = (uint8_t)(dim > KOMA_CELL_MAX_DIMS ? KOMA_CELL_MAX_DIMS : dim);
    return pos;
}

int koma_cell_parse(const char *s, size_t len, koma_cell *out, koma_error *err)
{
    koma_cell cell;
    koma_code code = KOMA_OK;
    size_t where = 0;

    if (len > KOMA_CELL_MAX_LEN)
        return koma__error_token(err, KOMA_E_CELL_LENGTH, KOMA_CELL_MAX_LEN, NULL, s, len);
    size_t n = cell_core(s, len, &cell, &code, &where);
    if (n == 0) return koma__error_token(err, code, where, NULL, s, len);
    if (n < len) return koma__error_token(err, KOMA_E_CELL_CHAR, n, NULL, s, len);
    if (out != NULL) *out = cell;
    return 0;
}

size_t koma_cell_scan(const char *s, size_t len, koma_cell *out, koma_error *err)
{
    koma_cell cell;
    koma_code code = KOMA_OK;
    size_t where = 0;

    /* the common 2-D case, a letter and a rank of one or two digits followed by
     * neither a digit nor a layer letter: what cell_core reads, quicker */
    if (len >= 2 && KOMA_IS_LOWER(s[0]) && s[1] >= '1' && s[1] <= '9') {
        size_t n = 2;
        unsigned r = (unsigned)(s[1] - '0');
        if (len > 2 && KOMA_IS_DIGIT(s[2])) r = r * 10u + (unsigned)(s[n++] - '0');
        if (n == len || !(KOMA_IS_DIGIT(s[n]) || (s[n] >= 'A' && s[n] <= 'Z'))) {
            if (out != NULL) {
                memset(out, 0, sizeof *out);
                out->ndims = 2;
                out->idx[0] = (uint8_t)(s[0] - 'a');
                out->idx[1] = (uint8_t)(r - 1u);
            }
            return n;
        }
    }

    size_t n = cell_core(s, len, &cell, &code, &where);
    if (n == 0) {
        /* quote the coordinate-like text up to and including the bad byte */
        size_t q = where + 1 < len ? where + 1 : len;
        koma__error_token(err, code, where, NULL, s, q);
        return 0;
    }
    if (out != NULL) *out = cell;
    return n;
}

/* Letters of index v (0..255) in bijective base 26 from base ('a' or 'A'). */
static size_t write_letters(char *p, unsigned v, char base)
{
    if (v < 26u) { p[0] = (char)(base + (int)v); return 1; }
    v -= 26u;
    p[0] = (char)(base + (int)(v / 26u));
    p[1] = (char)(base + (int)(v % 26u));
    return 2;
}

size_t koma_cell_write(const koma_cell *c, char buf[KOMA_CELL_BUF])
{
    size_t n = 0;
    if (c == NULL || c->ndims < 1 || c->ndims > KOMA_CELL_MAX_DIMS) {
        buf[0] = '\0';
        return 0;
    }
    n += write_letters(buf + n, c->idx[0], 'a');
    if (c->ndims >= 2) {
        unsigned r = (unsigned)c->idx[1] + 1u;          /* 1..256 */
        char digits[3];
        size_t k = 0;
        do { digits[k++] = (char)('0' + (int)(r % 10u)); r /= 10u; } while (r > 0);
        while (k > 0) buf[n++] = digits[--k];
    }
    if (c->ndims >= 3) n += write_letters(buf + n, c->idx[2], 'A');
    buf[n] = '\0';
    return n;
}

int koma_cell_equal(const koma_cell *a, const koma_cell *b)
{
    if (a->ndims != b->ndims) return 0;
    for (unsigned d = 0; d < a->ndims && d < KOMA_CELL_MAX_DIMS; d++)
        if (a->idx[d] != b->idx[d]) return 0;
    return 1;
}

/* hand.token at the first byte that makes s[0..len) differ from "*". */
int koma_hand_token_parse(const char *s, size_t len, koma_error *err)
{
    if (len == 1 && s[0] == '*') return 0;
    size_t where = (len >= 1 && s[0] == '*') ? 1 : 0;
    return koma__error_token(err, KOMA_E_HAND_TOKEN, where, NULL, s, len);
}

/* "*" (or anything starting with '*': hand.token) is a hand, the rest a CELL. */
int koma_location_parse(const char *s, size_t len, koma_location *out, koma_error *err)
{
    koma_location loc;
    memset(&loc, 0, sizeof loc);
    if (len >= 1 && s[0] == '*') {
        if (koma_hand_token_parse(s, len, err) != 0) return -1;
        loc.hand = 1;
    } else if (koma_cell_parse(s, len, &loc.cell, err) != 0) {
        return -1;
    }
    if (out != NULL) *out = loc;
    return 0;
}

/* The size of dimension d of a shape, 1 when unused. */
static uint32_t shape_dim(const koma_shape *shape, unsigned d)
{
    return d < shape->ndims ? shape->size[d] : 1u;
}

int koma_shape_square(const koma_shape *shape, const koma_cell *c, uint32_t *square,
                      koma_error *err)
{
    char text[KOMA_CELL_BUF];
    size_t tlen;

    if (shape->ndims < 1 || shape->ndims > KOMA_CELL_MAX_DIMS || c->ndims != shape->ndims) {
        tlen = koma_cell_write(c, text);
        return koma__error_token(err, KOMA_E_CELL_SHAPE, 0,
                                 "coordinate has the wrong number of dimensions", text, tlen);
    }
    for (unsigned d = 0; d < shape->ndims; d++)
        if ((uint32_t)c->idx[d] >= shape_dim(shape, d)) {
            tlen = koma_cell_write(c, text);
            return koma__error_token(err, KOMA_E_CELL_SHAPE, 0, NULL, text, tlen);
        }

    uint32_t files = shape_dim(shape, 0), ranks = shape_dim(shape, 1);
    uint32_t f = c->idx[0];
    uint32_t r = shape->ndims >= 2 ? ranks - 1u - c->idx[1] : 0u;
    uint32_t g = shape->ndims >= 3 ? c->idx[2] : 0u;
    if (square != NULL) *square = (g * ranks + r) * files + f;
    return 0;
}

/*
 * Inverse of koma_shape_square. A square outside the board (or a shape with
 * no dimension) gives a cell with ndims 0, which every parser and writer rejects.
 */
void koma_shape_cell(const koma_shape *shape, uint32_t square, koma_cell *c)
{
    memset(c, 0, sizeof *c);
    if (shape->ndims < 1 || shape->ndims > KOMA_CELL_MAX_DIMS) return;
    uint32_t files = shape_dim(shape, 0), ranks = shape_dim(shape, 1);
    uint32_t layers = shape_dim(shape, 2);
    if (files == 0 || ranks == 0 || layers == 0) return;
    if ((uint64_t)square >= (uint64_t)files * ranks * layers) return;
    uint32_t f = square % files, t = square / files;
    uint32_t r = t % ranks, g = t / ranks;
    c->ndims = shape->ndims;
    c->idx[0] = (uint8_t)f;
    if (shape->ndims >= 2) c->idx[1] = (uint8_t)(ranks - 1u - r);
    if (shape->ndims >= 3) c->idx[2] = (uint8_t)g;
}
