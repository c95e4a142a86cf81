/*
 * lib/position.c — positions (board, two hands, styles, turn) and hands.
 *
 * A hand keeps one item per piece identity, sorted by koma_piece_hand_key(), so
 * look-ups are binary searches and two equal multisets have identical arrays.
 * Buffers only grow: a position that is parsed into again and again stops
 * allocating once it has reached the size of the largest input.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- hands ------------------------------------------------------------------ */

/* Index of p in hand, or of the place where it would be inserted; *found says which. */
static size_t hand_find(const koma_hand *hand, koma_piece p, int *found)
{
    unsigned key = koma_piece_hand_key(p);
    size_t lo = 0, hi = hand->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        unsigned k = koma_piece_hand_key(hand->items[mid].piece);
        if (k == key) { *found = 1; return mid; }
        if (k < key) lo = mid + 1;
        else hi = mid;
    }
    *found = 0;
    return lo;
}

/* A piece the hand can hold: a letter, at most one state prefix, no stray bits. */
static int piece_ok(koma_piece p)
{
    unsigned letter = p & KOMA_PIECE_LETTER;
    return letter >= 1 && letter <= 26 && (p & ~KOMA_PIECE_MASK) == 0 &&
           (p & KOMA_PIECE_STATE) != KOMA_PIECE_STATE;
}

static int hand_reserve(koma_hand *hand, size_t need, koma_error *err)
{
    if (need <= hand->cap) return 0;
    size_t cap = hand->cap ? hand->cap * 2 : 8;
    if (cap < need) cap = need;
    koma_hand_item *items = realloc(hand->items, cap * sizeof *items);
    if (items == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (hand)");
    hand->items = items;
    hand->cap = cap;
    return 0;
}

uint32_t koma_hand_count(const koma_hand *hand, koma_piece p)
{
    if (hand == NULL || hand->len == 0) return 0;
    int found;
    size_t i = hand_find(hand, p, &found);
    return found ? hand->items[i].count : 0;
}

uint64_t koma_hand_total(const koma_hand *hand)
{
    uint64_t total = 0;
    if (hand == NULL) return 0;
    for (size_t i = 0; i < hand->len; i++) total += hand->items[i].count;
    return total;
}

int koma_hand_add(koma_hand *hand, koma_piece p, uint32_t n, koma_error *err)
{
    if (hand == NULL || !piece_ok(p))
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_hand_add: invalid piece 0x%x",
                              (unsigned)p);
    if (n == 0) return 0;
    int found;
    size_t i = hand_find(hand, p, &found);
    if (found) {
        if (hand->items[i].count > UINT32_MAX - n)
            return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_hand_add: count overflow");
        hand->items[i].count += n;
        return 0;
    }
    if (hand_reserve(hand, hand->len + 1, err) != 0) return -1;
    memmove(hand->items + i + 1, hand->items + i, (hand->len - i) * sizeof *hand->items);
    hand->items[i].piece = p;
    hand->items[i].count = n;
    hand->len++;
    return 0;
}

int koma_hand_remove(koma_hand *hand, koma_piece p, uint32_t n)
{
    if (hand == NULL) return -1;
    if (n == 0) return 0;
    int found;
    size_t i = hand_find(hand, p, &found);
    if (!found || hand->items[i].count < n) return -1;
    hand->items[i].count -= n;
    if (hand->items[i].count == 0) {
        memmove(hand->items + i, hand->items + i + 1, (hand->len - i - 1) * sizeof *hand->items);
        hand->len--;
    }
    return 0;
}

void koma_hand_clear(koma_hand *hand)
{
    if (hand != NULL) hand->len = 0;
}

static int hand_copy(koma_hand *dst, const koma_hand *src, koma_error *err)
{
    if (hand_reserve(dst, src->len, err) != 0) return -1;
    if (src->len > 0) memcpy(dst->items, src->items, src->len * sizeof *src->items);
    dst->len = src->len;
    return 0;
}

static int hand_equal(const koma_hand *a, const koma_hand *b)
{
    if (a->len != b->len) return 0;
    for (size_t i = 0; i < a->len; i++)
        if (a->items[i].piece != b->items[i].piece || a->items[i].count != b->items[i].count)
            return 0;
    return 1;
}

/* ---- positions -------------------------------------------------------------- */

void koma_position_init(koma_position *pos)
{
    if (pos == NULL) return;
    memset(pos, 0, sizeof *pos);
    pos->turn = KOMA_FIRST;
}

void koma_position_cleanup(koma_position *pos)
{
    if (pos == NULL) return;
    free(pos->board);
    free(pos->hands[0].items);
    free(pos->hands[1].items);
    koma_position_init(pos);
}

static int board_reserve(koma_position *pos, size_t need, koma_error *err)
{
    if (need <= pos->board_cap) return 0;
    size_t cap = pos->board_cap ? pos->board_cap * 2 : 64;
    if (cap < need) cap = need;
    if (cap > KOMA_MAX_SQUARES && need <= KOMA_MAX_SQUARES) cap = KOMA_MAX_SQUARES;
    koma_piece *board = realloc(pos->board, cap * sizeof *board);
    if (board == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (board)");
    pos->board = board;
    pos->board_cap = cap;
    return 0;
}

int koma_position_copy(koma_position *dst, const koma_position *src, koma_error *err)
{
    if (dst == NULL || src == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_position_copy: NULL position");
    if (dst == src) return 0;
    if (board_reserve(dst, src->shape.squares, err) != 0) return -1;
    if (hand_copy(&dst->hands[0], &src->hands[0], err) != 0) return -1;
    if (hand_copy(&dst->hands[1], &src->hands[1], err) != 0) return -1;
    dst->shape = src->shape;
    if (src->shape.squares > 0)
        memcpy(dst->board, src->board, src->shape.squares * sizeof *src->board);
    dst->style[0] = src->style[0];
    dst->style[1] = src->style[1];
    dst->turn = src->turn;
    return 0;
}

int koma_position_equal(const koma_position *a, const koma_position *b)
{
    if (a == b) return 1;
    if (a == NULL || b == NULL) return 0;
    if (a->shape.ndims != b->shape.ndims || a->shape.squares != b->shape.squares) return 0;
    for (int d = 0; d < KOMA_CELL_MAX_DIMS; d++)
        if (a->shape.size[d] != b->shape.size[d]) return 0;
    if (a->style[0] != b->style[0] || a->style[1] != b->style[1] || a->turn != b->turn) return 0;
    if (a->shape.squares > 0 &&
        memcmp(a->board, b->board, a->shape.squares * sizeof *a->board) != 0)
        return 0;
    return hand_equal(&a->hands[0], &b->hands[0]) && hand_equal(&a->hands[1], &b->hands[1]);
}

/*
 * Only shapes FEEN can write are accepted: 1 to 3 dimensions of 1..255 squares,
 * at most 65025 squares, and (as FEEN reads the number of dimensions from the
 * separators) at least 2 ranks in 2-D and 3-D, at least 2 layers in 3-D.
 */
int koma_position_reset(koma_position *pos, const koma_shape *shape, koma_error *err)
{
    if (pos == NULL || shape == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_position_reset: NULL argument");
    if (shape->ndims < 1 || shape->ndims > KOMA_CELL_MAX_DIMS)
        return koma_error_set(err, KOMA_E_FEEN_PLACEMENT_DIMENSIONS, 0,
                              "board must have 1 to 3 dimensions, not %u", (unsigned)shape->ndims);
    koma_shape s;
    memset(&s, 0, sizeof s);
    s.ndims = shape->ndims;
    uint32_t squares = 1;
    for (int d = 0; d < KOMA_CELL_MAX_DIMS; d++) {
        uint16_t n = d < shape->ndims ? shape->size[d] : 1;
        if (n < 1 || n > KOMA_MAX_DIMENSION)
            return koma_error_set(err, KOMA_E_FEEN_PLACEMENT_SIZE, 0,
                                  "board dimension %d has size %u (1..255)", d + 1, (unsigned)n);
        if (d > 0 && d < shape->ndims && n < 2)
            return koma_error_set(err, KOMA_E_FEEN_PLACEMENT_COHERENCE, 0,
                                  "a %u-dimensional board needs at least 2 %s",
                                  (unsigned)shape->ndims, d == 1 ? "ranks" : "layers");
        s.size[d] = n;
        squares *= n;
    }
    if (squares > KOMA_MAX_SQUARES)
        return koma_error_set(err, KOMA_E_FEEN_PLACEMENT_SQUARES, 0,
                              "board of %lu squares exceeds 65025", (unsigned long)squares);
    s.squares = squares;
    if (board_reserve(pos, squares, err) != 0) return -1;
    pos->shape = s;
    memset(pos->board, 0, squares * sizeof *pos->board);
    pos->hands[0].len = 0;
    pos->hands[1].len = 0;
    return 0;
}

int koma_position_strip_derived(koma_position *pos, koma_error *err)
{
    for (uint32_t i = 0; i < pos->shape.squares; i++)
        pos->board[i] = (koma_piece)(pos->board[i] & ~KOMA_PIECE_DERIVED);
    for (int s = 0; s < 2; s++) {
        koma_hand *h = &pos->hands[s];
        /* take a marked item out and add it back unmarked (merged, in order),
         * until none is left (hands are short) */
        for (size_t k = 0; k < h->len;) {
            if (!(h->items[k].piece & KOMA_PIECE_DERIVED)) {
                k++;
                continue;
            }
            koma_hand_item it = h->items[k];
            memmove(h->items + k, h->items + k + 1, (h->len - k - 1) * sizeof *h->items);
            h->len--;
            if (koma_hand_add(h, (koma_piece)(it.piece & ~KOMA_PIECE_DERIVED), it.count, err) != 0)
                return -1;
            k = 0;
        }
    }
    return 0;
}
