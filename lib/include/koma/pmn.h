/* koma/pmn.h — PMN moves (operator strings), their input dialects, and the
 * protocol-level move applier (notations.md §10, DESIGN.md §3). */
#ifndef KOMA_PMN_H
#define KOMA_PMN_H

#include <stddef.h>
#include <koma/error.h>
#include <koma/atoms.h>
#include <koma/cell.h>
#include <koma/position.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOMA_PMN_MAX_LEN 25            /* "iv256IV~iv256IV=+K^'/+K^'" */
#define KOMA_PMN_BUF (KOMA_PMN_MAX_LEN + 1)

typedef enum koma_move_kind {
    KOMA_MOVE_PASS,        /* ...            */
    KOMA_MOVE_QUIET,       /* a-b[=X]        */
    KOMA_MOVE_CAPTURE,     /* a+b[=X][/Y]    */
    KOMA_MOVE_STATIC,      /* +b[/Y]         */
    KOMA_MOVE_SPECIAL,     /* a~b[=X][/Y]    */
    KOMA_MOVE_DROP,        /* [P]*b[=X]      */
    KOMA_MOVE_DROPCAP,     /* [P].b[=X][/Y]  */
    KOMA_MOVE_MUTATE       /* b=X            */
} koma_move_kind;

/*
 * One move. Fields a kind does not use are zero (cells with ndims 0, pieces
 * KOMA_PIECE_NONE).
 *   src       the origin a of quiet, capture and special moves
 *   dst       the target square b of every kind but pass (the captured square of
 *             a static capture, the mutated square of a mutation)
 *   piece     the dropped piece of drop and dropcap; NONE when omitted (`*e5`)
 *   actor     the '=' suffix (the actor's new identity); for a mutation, the new
 *             identity after the '=' operator (never NONE for a mutation)
 *   captured  the '/' suffix (the captured piece's identity in hand), or NONE
 * koma_pmn_parse fills every byte of the struct (padding zeroed), and
 * koma_pmn_write(koma_pmn_parse(s)) == s for every valid s.
 */
typedef struct koma_move {
    koma_move_kind kind;
    koma_cell src, dst;
    koma_piece piece;
    koma_piece actor;
    koma_piece captured;
} koma_move;

/*
 * Parse s[0..len) as current PMN (§10.1), context-free. The 25-byte limit is
 * checked first. Errors: pmn.* codes; the column is the byte where the input
 * stops being a valid prefix of a move (len + 1 when it ends early).
 */
KOMA_API int koma_pmn_parse(const char *s, size_t len, koma_move *out, koma_error *err);

/* Canonical text of m (NUL-terminated); returns its length, 0 when m is not a
 * writable move (a bad kind or a missing cell). A pieceless drop stays `*e5`. */
KOMA_API size_t koma_pmn_write(const koma_move *m, char buf[KOMA_PMN_BUF]);

/* 1 when a and b are the same move (the same canonical text). */
KOMA_API int koma_move_equal(const koma_move *a, const koma_move *b);

/*
 * With a position: the §10.2 canonicality rule and the §10.3 preconditions.
 * Cells on the board; quiet: a occupied, b empty; capture: a, b occupied, a != b;
 * static and dropcap: b occupied; special: a occupied, a != b; drop: b empty;
 * mutate: b occupied and X differs from it; a dropped piece (when written) is in
 * the active player's hand; an '=' suffix differs from the actor's identity
 * (the board piece at a, or the dropped piece); a '/' suffix differs from the
 * piece on b (capture, static, dropcap; not checked on special, whose victim
 * the rule system chooses). A pieceless drop needs exactly one candidate
 * (see koma_pmn_resolve). Error columns refer to the canonical text of m, which
 * is the input text when m came from koma_pmn_parse: the start of the offending
 * coordinate or piece token.
 */
KOMA_API int koma_pmn_check(const koma_position *pos, const koma_move *m, koma_error *err);

/*
 * Fill in the piece of a pieceless drop or capture-drop (`*e5`, `.c3`): the one
 * identity of the active player's case in the active player's hand. Errors:
 * pmn.hand.missing (none) or pmn.hand.ambiguous (the message lists the
 * candidates). Other moves are left alone.
 */
KOMA_API int koma_pmn_resolve(const koma_position *pos, koma_move *m, koma_error *err);

/*
 * The identity a captured piece takes in the capturer's hand by the default
 * rule of DESIGN.md §3: the capturer's case, the state prefix dropped, '^' and
 * "'" kept. (Rules such as the King's privilege may choose otherwise.)
 */
KOMA_API koma_piece koma_capture_identity(koma_piece board_piece, int capturer_side);

/*
 * The generic applier (§10.3): checks the protocol preconditions (not the
 * canonicality rule: call koma_pmn_check for that), then performs the actions
 * and toggles the side to move. Captured pieces go to the active player's
 * hand, as the '/' suffix says or unchanged. A pieceless drop is resolved as
 * koma_pmn_resolve does. A special move (`~`) is refused with pmn.special: its
 * implicit actions need a rule system. On error pos is unchanged.
 */
KOMA_API int koma_move_apply(koma_position *pos, const koma_move *m, koma_error *err);

/* Input dialects (DESIGN.md §3). */
typedef enum koma_pmn_dialect {
    KOMA_PMN_DIALECT_CANONICAL,    /* current PMN (§10.1) */
    KOMA_PMN_DIALECT_SEED,         /* e7-e8, e7-e8/+P, e7-e8/P, *-e5 */
    KOMA_PMN_DIALECT_JSON_ARRAY    /* legacy ["e2","e4","C:P"] (§10.6) */
} koma_pmn_dialect;

/* "pmn" (also "canonical"), "seed", "json-array"; -1 when unknown. */
KOMA_API int koma_pmn_dialect_from_name(const char *s, size_t len, koma_pmn_dialect *out);
KOMA_API const char *koma_pmn_dialect_name(koma_pmn_dialect d);

/*
 * Read s[0..len) in dialect d and produce the canonical move.
 * CANONICAL: koma_pmn_parse; with pos (may be NULL) also koma_pmn_resolve and
 * koma_pmn_check. SEED and JSON_ARRAY need pos (pmn.context without it); the
 * result always passes koma_pmn_check against pos. Error columns refer to s.
 */
KOMA_API int koma_pmn_parse_dialect(koma_pmn_dialect d, const char *s, size_t len,
                                    const koma_position *pos, koma_move *out,
                                    koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
