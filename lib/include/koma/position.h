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

/* Caller storage. init zeroes; cleanup frees what parsing or edits allocated. */
KOMA_API void koma_position_init(koma_position *pos);
KOMA_API void koma_position_cleanup(koma_position *pos);
/* Deep copy; dst must be initialised (its buffers are reused). */
KOMA_API int koma_position_copy(koma_position *dst, const koma_position *src, koma_error *err);
/* 1 when equal in every respect FEEN encodes. */
KOMA_API int koma_position_equal(const koma_position *a, const koma_position *b);
/* Resize the board to shape (all squares empty); hands emptied. */
KOMA_API int koma_position_reset(koma_position *pos, const koma_shape *shape, koma_error *err);

/* Remove every "'" (derivation marker) from the board and the hands (hand items
 * that become equal are merged). Positions compared for repetition are equal
 * exactly when their stripped forms are. -1 (memory). */
KOMA_API int koma_position_strip_derived(koma_position *pos, koma_error *err);

KOMA_API uint32_t koma_hand_count(const koma_hand *hand, koma_piece p);
/* Number of pieces (sum of counts). */
KOMA_API uint64_t koma_hand_total(const koma_hand *hand);
KOMA_API int koma_hand_add(koma_hand *hand, koma_piece p, uint32_t n, koma_error *err);
/* Remove n of p; -1 (the hand untouched) when fewer than n are held. */
KOMA_API int koma_hand_remove(koma_hand *hand, koma_piece p, uint32_t n);
KOMA_API void koma_hand_clear(koma_hand *hand);

#ifdef __cplusplus
}
#endif
#endif
