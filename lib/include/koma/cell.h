/* koma/cell.h — CELL coordinates, the HAND token and board shapes. */
#ifndef KOMA_CELL_H
#define KOMA_CELL_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOMA_CELL_MAX_DIMS 3
#define KOMA_CELL_MAX_LEN 7        /* "iv256IV" */
#define KOMA_CELL_BUF (KOMA_CELL_MAX_LEN + 1)

/*
 * A coordinate: idx[0] is the file (lowercase letters), idx[1] the rank
 * (1-based decimal, stored 0-based), idx[2] the layer (uppercase letters).
 * Only the first ndims entries are meaningful.
 */
typedef struct koma_cell {
    uint8_t ndims;                 /* 1..3 */
    uint8_t idx[KOMA_CELL_MAX_DIMS];
} koma_cell;

/* Parse exactly s[0..len). 0 on success, -1 with err set. Ownership: none. */
KOMA_API int koma_cell_parse(const char *s, size_t len, koma_cell *out, koma_error *err);

/*
 * Parse the longest CELL prefix of s[0..len) (letters, digits, capitals in the
 * CELL cycle) and return the number of bytes consumed; 0 with err set when the
 * prefix is not a valid coordinate. Used by PMN and other composite parsers.
 * Ownership: none.
 */
KOMA_API size_t koma_cell_scan(const char *s, size_t len, koma_cell *out, koma_error *err);

/* Canonical text of c into buf (NUL-terminated); returns its length. Ownership: none. */
KOMA_API size_t koma_cell_write(const koma_cell *c, char buf[KOMA_CELL_BUF]);

/* Ownership: none. */
KOMA_API int koma_cell_equal(const koma_cell *a, const koma_cell *b);

/* The HAND location token: exactly "*". Ownership: none. */
KOMA_API int koma_hand_token_parse(const char *s, size_t len, koma_error *err);

/* A location is either a board cell or a hand ("*"), as in GGN and legacy PMN. */
typedef struct koma_location {
    int hand;                      /* 1: the hand token "*" */
    koma_cell cell;                /* when !hand */
} koma_location;

/* Ownership: none. */
KOMA_API int koma_location_parse(const char *s, size_t len, koma_location *out, koma_error *err);

/*
 * The shape of a board. size[0] = files, size[1] = ranks, size[2] = layers;
 * unused dimensions are 1. squares = the product.
 * Square numbering is FEEN order (row-major as written): layer group g (0 first
 * in the string), row r (0 = first rank written), file f:
 *     square = (g * ranks + r) * files + f
 * CELL orientation (koma-formats(5), FEEN, Orientation): row r is rank index ranks-1-r; file f is file f;
 * layer group g is layer index g (the first "//" group is layer A).
 */
typedef struct koma_shape {
    uint8_t ndims;                 /* 1..3 */
    uint16_t size[KOMA_CELL_MAX_DIMS];
    uint32_t squares;
} koma_shape;

/* Convert a cell to a square number; -1 (err KOMA_E_CELL_SHAPE) when off board
 * or when the cell does not have the board's number of dimensions. Ownership: none. */
KOMA_API int koma_shape_square(const koma_shape *shape, const koma_cell *c,
                               uint32_t *square, koma_error *err);
/* Convert a square number (< squares) to its cell. Ownership: none. */
KOMA_API void koma_shape_cell(const koma_shape *shape, uint32_t square, koma_cell *c);

#ifdef __cplusplus
}
#endif
#endif
