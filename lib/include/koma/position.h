/* koma/position.h — a position as FEEN describes it: board, two hands, styles, turn. */
#ifndef KOMA_POSITION_H
#define KOMA_POSITION_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>
#include <koma/atoms.h>
#include <koma/cell.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOMA_MAX_DIMENSION 255u        /* squares per dimension */
#define KOMA_MAX_SQUARES 65025u        /* squares per board */

typedef struct koma_hand_item {
    koma_piece piece;
    uint32_t count;                    /* >= 1 */
} koma_hand_item;

/*
 * A multiset of pieces. Items are kept sorted by koma_piece_hand_key() (one item
 * per identity); the FEEN writer orders them by count first, as FEEN requires.
 */
typedef struct koma_hand {
    koma_hand_item *items;
    size_t len, cap;
} koma_hand;

typedef struct koma_position {
    koma_shape shape;
    koma_piece *board;                 /* shape.squares entries, FEEN order */
    size_t board_cap;
    koma_hand hands[2];                /* [KOMA_FIRST], [KOMA_SECOND] */
    char style[2];                     /* [0] first's SIN (uppercase), [1] second's (lowercase) */
    int turn;                          /* KOMA_FIRST or KOMA_SECOND: the side to move */
} koma_position;

/* Caller storage. init zeroes; cleanup frees what parsing or edits allocated.
 * Ownership: none; the caller releases it with koma_position_cleanup. */
KOMA_API void koma_position_init(koma_position *pos);
/* Ownership: frees what pos owns (not pos itself). */
KOMA_API void koma_position_cleanup(koma_position *pos);
/* Deep copy; dst must be initialised (its buffers are reused). Ownership: none. */
KOMA_API int koma_position_copy(koma_position *dst, const koma_position *src, koma_error *err);
/* 1 when equal in every respect FEEN encodes. Ownership: none. */
KOMA_API int koma_position_equal(const koma_position *a, const koma_position *b);
/* Resize the board to shape (all squares empty); hands emptied. Ownership: none. */
KOMA_API int koma_position_reset(koma_position *pos, const koma_shape *shape, koma_error *err);

/* Remove every "'" (derivation marker) from the board and the hands (hand items
 * that become equal are merged). Positions compared for repetition are equal
 * exactly when their stripped forms are. -1 (memory). Ownership: none. */
KOMA_API int koma_position_strip_derived(koma_position *pos, koma_error *err);

/* Ownership: none. */
KOMA_API uint32_t koma_hand_count(const koma_hand *hand, koma_piece p);
/* Number of pieces (sum of counts). Ownership: none. */
KOMA_API uint64_t koma_hand_total(const koma_hand *hand);
/* Ownership: none. */
KOMA_API int koma_hand_add(koma_hand *hand, koma_piece p, uint32_t n, koma_error *err);
/* Remove n of p; -1 (the hand untouched) when fewer than n are held. Ownership: none. */
KOMA_API int koma_hand_remove(koma_hand *hand, koma_piece p, uint32_t n);
/* Ownership: none. */
KOMA_API void koma_hand_clear(koma_hand *hand);

/* ---- differences (position_diff.c) ---- */

typedef enum koma_position_diff_kind {
    KOMA_DIFF_BOARD,                   /* the board shapes differ */
    KOMA_DIFF_SQUARE,                  /* a square's piece differs (or it is off one board) */
    KOMA_DIFF_HAND,                    /* a hand holds a different count of a piece */
    KOMA_DIFF_STYLE,                   /* a player's style letter differs */
    KOMA_DIFF_TURN                     /* the side to move differs */
} koma_position_diff_kind;

#define KOMA_DIFF_TEXT 16

/* One difference between positions [0] and [1]; only the fields of its kind are
 * set, and each is also given as text. */
typedef struct koma_position_diff {
    koma_position_diff_kind kind;
    int side;                          /* HAND, STYLE: KOMA_FIRST or KOMA_SECOND */
    koma_cell cell;                    /* SQUARE */
    int on_board[2];                   /* SQUARE: the cell is on each board */
    koma_piece piece[2];               /* SQUARE: each piece (KOMA_PIECE_NONE: empty);
                                          HAND: the piece (both the same) */
    uint32_t count[2];                 /* HAND */
    const koma_shape *shape[2];        /* BOARD */
    char style[2];                     /* STYLE */
    int turn[2];                       /* TURN */
    /* As text: what differs ("e4" for a square, "P" for a hand's piece, else "");
     * the same as a label ("board", "e4", "first hand P", "second style", "side
     * to move"); and each side's value: a piece (EPIN), "." (empty) or "off"
     * (off the board); a count; a shape ("9x9"); a style letter; "first" or
     * "second". */
    char what[KOMA_DIFF_TEXT];
    char label[2 * KOMA_DIFF_TEXT];
    char text[2][KOMA_DIFF_TEXT];
} koma_position_diff;

/* Return 0 to go on; any other value stops the walk and is returned. */
typedef int (*koma_position_diff_fn)(void *ctx, const koma_position_diff *d);

/*
 * Call fn (may be NULL: count only) for each difference between a and b: the
 * shapes, then the squares in FEEN order of the smallest board holding both
 * (same number of dimensions only; an empty square off the other board is no
 * difference), the hands (first's, then second's, in koma_piece_hand_key
 * order), the styles, the side to move. Allocates nothing. *count (may be NULL)
 * gets the number of differences reported. Returns 0, or fn's non-zero value
 * when it stopped the walk.
 * Ownership: none.
 */
KOMA_API int koma_position_diff_walk(const koma_position *a, const koma_position *b,
                                     koma_position_diff_fn fn, void *ctx, size_t *count);

#ifdef __cplusplus
}
#endif
#endif
