/* koma/ggn.h — GGN move-pattern documents (koma-formats(5), GGN). */
#ifndef KOMA_GGN_H
#define KOMA_GGN_H

#include <stddef.h>
#include <koma/error.h>
#include <koma/io.h>
#include <koma/atoms.h>
#include <koma/cell.h>
#include <koma/position.h>
#include <koma/pmn.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A GGN document is a JSON object
 *
 *     { QPI: { SOURCE: { DESTINATION: [ { "must": LCN, "deny": LCN }, ... ] } } }
 *
 * SOURCE and DESTINATION are CELL coordinates or "*" (the active player's hand),
 * never both "*". An LCN is an object whose keys are CELLs (never "*") and whose
 * values are "empty", "enemy" or a QPI. "must" and "deny" are both optional on
 * input (a missing one is {}); no other key is allowed in a possibility. Both
 * are always written. Duplicate keys, nesting deeper than 64 and documents over
 * 16 MiB are rejected, each with its own ggn.* code.
 *
 * koma_ggn is opaque. It keeps the document's order (pieces, sources,
 * destinations, possibilities and conditions as they were loaded or added), so
 * writing a loaded document preserves its key order.
 */
typedef struct koma_ggn koma_ggn;

typedef enum koma_lcn_kind {
    KOMA_LCN_EMPTY = 1,            /* "empty": the square is unoccupied */
    KOMA_LCN_ENEMY = 2,            /* "enemy": a piece not of the active side */
    KOMA_LCN_PIECE = 3             /* a QPI: exactly that piece */
} koma_lcn_kind;

/* One LCN condition: cell -> value. */
typedef struct koma_lcn {
    koma_cell cell;
    koma_lcn_kind kind;
    koma_qpi piece;                /* when kind == KOMA_LCN_PIECE */
} koma_lcn;

/*
 * Load and validate a whole document text[0..len) (UTF-8 JSON) into *out.
 * Returns -1 (*out NULL) with err set on any error: the code (ggn.*), the 1-based line and byte
 * column
 * and the 0-based offset of the offending value (of the offending member name
 * for a bad key), and a message naming its JSON pointer, e.g.
 *     ggn.piece: invalid QPI key at /C:k: style and piece of different sides
 * JSON syntax errors (ggn.json, ggn.duplicate) are positioned at the byte where
 * the text stops being valid JSON, or at the start of the offending token.
 * Allocation failure: KOMA_E_MEMORY.
 * Ownership: the caller frees *out with koma_ggn_free.
 */
KOMA_API int koma_ggn_load(const char *text, size_t len, koma_ggn **out, koma_error *err);

/* An empty document ({}), to be filled with koma_ggn_add.
 * Ownership: the caller frees *out with koma_ggn_free. */
KOMA_API int koma_ggn_new(koma_ggn **out, koma_error *err);

/* NULL is fine. Ownership: frees g and what it owns. */
KOMA_API void koma_ggn_free(koma_ggn *g);

/*
 * Builder: append one possibility {must, deny} to the entry piece -> src -> dst,
 * creating the piece, source and destination as needed (new ones go last, an
 * existing entry keeps its place). must/deny may be NULL when their count is 0.
 * The conditions are copied. Errors (offset 0): ggn.piece (an invalid QPI),
 * ggn.hand-to-hand (both locations "*"), ggn.duplicate (a cell twice in must, or
 * twice in deny), ggn.lcn.value (an invalid kind or QPI in a condition),
 * memory. On error g is unchanged.
 *
 * Example (the Ōgi king's step e4 -> d3, quiet or capture):
 *     koma_qpi k; koma_qpi_parse("O:K^", 4, &k, &e);
 *     koma_location a, b; koma_location_parse("e4", 2, &a, &e);
 *     koma_location_parse("d3", 2, &b, &e);
 *     koma_lcn c = { b.cell, KOMA_LCN_EMPTY, {0, 0} };
 *     koma_ggn_add(g, &k, &a, &b, &c, 1, NULL, 0, &e);
 *     c.kind = KOMA_LCN_ENEMY;
 *     koma_ggn_add(g, &k, &a, &b, &c, 1, NULL, 0, &e);
 * Ownership: none.
 */
KOMA_API int koma_ggn_add(koma_ggn *g, const koma_qpi *piece, const koma_location *src,
                          const koma_location *dst, const koma_lcn *must, size_t nmust,
                          const koma_lcn *deny, size_t ndeny, koma_error *err);

/* One possibility, as koma_ggn_foreach presents it. Pointers valid during the call. */
typedef struct koma_ggn_entry {
    koma_qpi piece;
    koma_location source, destination;
    size_t index;                  /* position in its possibilities array */
    size_t count;                  /* length of that array */
    const koma_lcn *must;
    size_t nmust;
    const koma_lcn *deny;
    size_t ndeny;
} koma_ggn_entry;

/*
 * Call fn for every possibility in document order. A destination with an empty
 * possibilities array ([]) is reported once with count 0 (and nothing in must
 * or deny). fn returns 0 to go on; any other value stops the walk and is
 * returned. Returns 0 after a complete walk.
 */
typedef int (*koma_ggn_entry_fn)(void *ctx, const koma_ggn_entry *e);
/* Ownership: none. */
KOMA_API int koma_ggn_foreach(const koma_ggn *g, koma_ggn_entry_fn fn, void *ctx);

/* Numbers of piece keys and of possibilities in the document. Ownership: none. */
KOMA_API size_t koma_ggn_piece_count(const koma_ggn *g);
/* Ownership: none. */
KOMA_API size_t koma_ggn_possibility_count(const koma_ggn *g);

/*
 * 1 when a and b describe the same document: JSON objects compared as sets of
 * members (key order does not matter), possibilities arrays in order, a missing
 * must/deny equal to {}.
 * Ownership: none.
 */
KOMA_API int koma_ggn_equal(const koma_ggn *a, const koma_ggn *b);

/* Write flags. */
#define KOMA_GGN_COMPACT 0u        /* one line */
#define KOMA_GGN_PRETTY  1u        /* two-space indentation, as `jq .` prints it */

/*
 * Serialise g as JSON followed by one "\n", in document order, with both "must"
 * and "deny" in every possibility. The text goes to sink in pieces; sink returns
 * 0 on success, anything else to fail (koma_ggn_write then returns that value
 * with KOMA_E_IO_WRITE). Returns 0.
 * Ownership: none.
 */
KOMA_API int koma_ggn_write(const koma_ggn *g, unsigned flags, koma_write_fn sink, void *ctx,
                            koma_error *err);

/* The same into *out, a malloc'd NUL-terminated string (free() it); *len (if not
 * NULL) gets its length. -1 (*out NULL) with KOMA_E_MEMORY on allocation failure.
 * Ownership: the caller frees *out with free(). */
KOMA_API int koma_ggn_dump(const koma_ggn *g, unsigned flags, size_t *len, char **out,
                           koma_error *err);

/*
 * The QPI (koma-formats(5), QPI) of a piece in a position whose styles are styles[0] (first,
 * uppercase) and styles[1] (second, lowercase): the side is the piece's case;
 * the style is its side's own style, or the other side's when the piece carries
 * the derivation marker "'", re-cased to the piece's side; the PIN is the piece
 * without "'". Example: styles "C","s" and P' give S:P.
 * Ownership: none.
 */
KOMA_API void koma_ggn_qpi_of(koma_piece p, const char styles[2], koma_qpi *out);

/*
 * The pseudo-legal moves document g allows in position pos (koma-formats(5),
 * GGN, "Moves from a document"), as canonical PMN strings (and as koma_move
 * values). For each piece of the side to move on the board (in FEEN square order), its QPI
 * (koma_ggn_qpi_of) and square select
 * g[QPI][cell]; then each piece of the side to move in its own hand (in hand
 * order; pieces of the other side's case in that hand are inert) selects
 * g[QPI]["*"]. For every destination (in document order) the move is allowed
 * when at least one possibility has all its must conditions true and none of
 * its deny conditions true, evaluated on the current board:
 *     "empty"  the square is empty
 *     "enemy"  it holds a piece whose side is not the side to move
 *     QPI      it holds a piece whose QPI is exactly that
 * A condition on a square that is not on the board (off the edge, or a cell of
 * another number of dimensions) is never true.
 *
 * GGN says nothing about transformations, so no move carries an '=' or '/'
 * suffix. The move's form follows from the board:
 *     board -> empty square       a-b     (quiet)
 *     board -> occupied square    a+b     (capture, whatever the occupant)
 *     board -> "*"                +a      (the piece goes to the mover's hand:
 *                                          PMN's static capture of square a)
 *     hand  -> empty square       P*b     (drop; P is the hand piece's EPIN)
 *     hand  -> occupied square    P.b     (drop with capture)
 * A destination equal to its source, or off the board, gives no move. A move
 * is emitted once even if several possibilities allow it.
 *
 * emit returns 0 to go on, anything else to stop (koma_ggn_moves then returns
 * that value). Returns 0 when every move was emitted; -1 (KOMA_E_INTERNAL) only when g,
 * pos or emit is NULL. Nothing is allocated.
 * Ownership: none.
 */
KOMA_API int koma_ggn_moves(const koma_ggn *g, const koma_position *pos, koma_move_fn emit,
                            void *ctx, koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
