/* koma/pmn.h — PMN moves (operator strings), their input dialects, and the
 * protocol-level move applier (koma-formats(5), PMN). */
#ifndef KOMA_PMN_H
#define KOMA_PMN_H

#include <stddef.h>
#include <koma/error.h>
#include <koma/limits.h>
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

/* A move told to a caller (koma_ggn_moves, koma_engine_ggn_moves): its PMN
 * pmn[0..len) and parsed. Return 0 to go on; any other value stops the call,
 * which returns it. */
typedef int (*koma_move_fn)(void *ctx, const char *pmn, size_t len, const koma_move *move);

/*
 * Parse s[0..len) as current PMN (koma-formats(5), PMN, Grammar), context-free. The 25-byte limit is
 * checked first. Errors: pmn.* codes; the column is the byte where the input
 * stops being a valid prefix of a move (len + 1 when it ends early).
 * Ownership: none.
 */
KOMA_API int koma_pmn_parse(const char *s, size_t len, koma_move *out, koma_error *err);

/* Canonical text of m (NUL-terminated); returns its length, 0 when m is not a
 * writable move (a bad kind or a missing cell). A pieceless drop stays `*e5`.
 * Ownership: none. */
KOMA_API size_t koma_pmn_write(const koma_move *m, char buf[KOMA_PMN_BUF]);

/* 1 when a and b are the same move (the same canonical text). Ownership: none. */
KOMA_API int koma_move_equal(const koma_move *a, const koma_move *b);

/*
 * With a position: the canonicality rule and the protocol's preconditions
 * (koma-formats(5), PMN, "Moves in a position").
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
 * Ownership: none.
 */
KOMA_API int koma_pmn_check(const koma_position *pos, const koma_move *m, koma_error *err);

/*
 * Fill in the piece of a pieceless drop or capture-drop (`*e5`, `.c3`): the one
 * identity of the active player's case in the active player's hand. Errors:
 * pmn.hand.missing (none) or pmn.hand.ambiguous (the message lists the
 * candidates). Other moves are left alone.
 * Ownership: none.
 */
KOMA_API int koma_pmn_resolve(const koma_position *pos, koma_move *m, koma_error *err);

/*
 * The identity a captured piece takes in the capturer's hand by the default
 * rule (koma-formats(5), PMN, "Captured pieces"): the capturer's case, the state prefix dropped, '^' and
 * "'" kept. (Rules such as the King's privilege may choose otherwise.)
 * Ownership: none.
 */
KOMA_API koma_piece koma_capture_identity(koma_piece board_piece, int capturer_side);

/*
 * The generic applier: checks the protocol preconditions (not the
 * canonicality rule: call koma_pmn_check for that), then performs the actions
 * and toggles the side to move. Captured pieces go to the active player's
 * hand, as the '/' suffix says or unchanged. A pieceless drop is resolved as
 * koma_pmn_resolve does. A special move (`~`) is refused with pmn.special: its
 * implicit actions need a rule system. On error pos is unchanged.
 * Ownership: none.
 */
KOMA_API int koma_move_apply(koma_position *pos, const koma_move *m, koma_error *err);

/* Input dialects (koma-formats(5), PMN, "Input dialects"). */
typedef enum koma_pmn_dialect {
    KOMA_PMN_DIALECT_CANONICAL,    /* current PMN */
    KOMA_PMN_DIALECT_SEED,         /* e7-e8, e7-e8/+P, e7-e8/P, *-e5 */
    KOMA_PMN_DIALECT_JSON_ARRAY,   /* legacy ["e2","e4","C:P"] */
    KOMA_PMN_DIALECT_LEGS,         /* chains in leg form: e5+e6,e6+f7; e5e6,e6f7+; e6xh6xk6 */
    KOMA_PMN_DIALECT_SANKI         /* the Sanki platform's ["e7","e8","queen"], [null,"h7","fu"] */
} koma_pmn_dialect;

/* "pmn" (also "canonical"), "seed", "json-array", "legs", "sanki"; -1 when unknown. Ownership: none. */
KOMA_API int koma_pmn_dialect_from_name(const char *s, size_t len, koma_pmn_dialect *out);
/* Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_pmn_dialect_name(koma_pmn_dialect d);

/*
 * Read s[0..len) in dialect d and produce the canonical move.
 * CANONICAL: koma_pmn_parse; with pos (may be NULL) also koma_pmn_resolve and
 * koma_pmn_check. SEED and JSON_ARRAY need pos (pmn.context without it); the
 * result always passes koma_pmn_check against pos. Error columns refer to s.
 * Ownership: none.
 */
KOMA_API int koma_pmn_parse_dialect(koma_pmn_dialect d, const char *s, size_t len,
                                    const koma_position *pos, koma_move *out,
                                    koma_error *err);

/*
 * The Sanki move form (koma-formats(5), PMN, Input dialects, "sanki"): the JSON
 * array [from, to, actor], from null for a drop, actor a word of the mover's
 * variant (its side's style: W chess, J Ogi, C Xiongqi) naming the piece dropped
 * or chosen, or null. Read with KOMA_PMN_DIALECT_SANKI (the move at the protocol
 * level; the referee finds the legal move it names). koma_sanki_move_write
 * writes m (canonical, for pos) in that form (snprintf-style: the full length,
 * at most cap bytes with the NUL); 0 with err when it has no such form
 * (convert.unrepresentable, pmn.sanki.style). Ownership: none.
 */
KOMA_API size_t koma_sanki_move_write(const koma_position *pos, const koma_move *m, char *buf,
                                      size_t cap, koma_error *err);
/* The word of a piece letter (either case) in the variant of a style letter, or NULL.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_sanki_actor_word(char style, char letter);
/* The uppercase letter of a word in the variant of a style letter, or 0. Ownership: none. */
KOMA_API char koma_sanki_actor_letter(char style, const char *word, size_t len);

/*
 * A list of Sanki moves, the JSON array [[from, to, actor], ...] (one game's plies):
 * koma_sanki_is_list says whether s[0..len) starts as one ("[[" or "[]", blanks
 * allowed). koma_sanki_move_list calls fn with the byte range of each move in
 * turn (each then read as KOMA_PMN_DIALECT_SANKI); fn returns 0 to go on, and
 * any other value stops the call, which returns that value (err as fn left it).
 * Returns the number of moves, or -1 with pmn.sanki.syntax at the place the
 * list stops being one. Ownership: none (fn's ranges are into s).
 */
typedef int (*koma_sanki_move_fn)(void *ctx, size_t at, size_t len);
/* (above) Ownership: none. */
KOMA_API int koma_sanki_is_list(const char *s, size_t len);
/* (above) Ownership: none (fn's ranges are into s). */
KOMA_API long koma_sanki_move_list(const char *s, size_t len, koma_sanki_move_fn fn, void *ctx,
                                   koma_error *err);

/* ---- PMN chains (koma-formats(5), PMN, Chains) --------------------------------
 *
 * A move with several effects (Ko shogi: a step and a shot, two captures, a
 * burn, promotions of other pieces) is a chain of current-PMN elements joined
 * by ',':
 *     chain   = "..." / element *( "," element )
 *     element = quiet / capture / static / mutate       (each at most 25 bytes)
 * at most 16 elements and 256 bytes. A chain of one element is any PMN move,
 * so every PMN move is a chain. The elements are applied left to right as
 * their direct effects (every removed piece to the active player's hand); the
 * turn passes once, after the whole chain.
 *
 * Canonical form (one string per result; what koma writes, and what it reads
 * by default): (1) the actor's displacement from its origin to its final
 * square, when they differ: `a-b`, or `a+b` when b held a piece at the start,
 * with `=X` when the actor's identity at the end differs from its first one;
 * (2) every other removal `+c`, squares ascending; (3) every other identity
 * change `c=X`, squares ascending (the actor's too when it ends where it
 * started); `...` when nothing changes. Squares ascend rank-major from a1
 * (a1 b1 ... a2 ...; layers last). A '/Y' suffix is written only when the
 * piece enters the hand as another identity than it had on the board.
 */
#define KOMA_CHAIN_MAX_ELEMENTS 16
/* (a chain's 256 bytes: KOMA_LIMIT_MOVE_TEXT, koma/limits.h) */
#define KOMA_MOVE_TEXT_BUF (KOMA_LIMIT_MOVE_TEXT + 1)

typedef struct koma_chain {
    size_t len;                             /* elements, 1..KOMA_CHAIN_MAX_ELEMENTS */
    koma_move el[KOMA_CHAIN_MAX_ELEMENTS];
    size_t at[KOMA_CHAIN_MAX_ELEMENTS];     /* where each element starts in the text read */
} koma_chain;

/*
 * Parse s[0..len) as a canonical chain, context-free: the grammar above, the
 * limits (pmn.chain.length is checked first, pmn.chain.elements), the forms
 * (pmn.chain.element), and the order rules that need no position
 * (pmn.chain.order: one displacement, first; captures before mutations, each
 * group strictly ascending; no mutation of the actor's squares). A text
 * without ',' is parsed exactly as koma_pmn_parse does (same errors).
 * Element errors are the pmn.* codes with offsets into s.
 * Ownership: none.
 */
KOMA_API int koma_chain_parse(const char *s, size_t len, koma_chain *out, koma_error *err);

/* The text of c: elements joined by ','; snprintf-style (returns the full
 * length, writes at most cap bytes with the NUL); 0 when c is not writable. Ownership: none. */
KOMA_API size_t koma_chain_write(const koma_chain *c, char *buf, size_t cap);

/* 1 when a and b have the same text. Ownership: none. */
KOMA_API int koma_chain_equal(const koma_chain *a, const koma_chain *b);

/* A one-element chain holding m. Ownership: none. */
KOMA_API void koma_chain_of_move(const koma_move *m, koma_chain *out);

/*
 * The rule-agnostic applier: each element's protocol preconditions
 * against the position as the elements before it left it, then its direct
 * effects; the turn toggles once. '~' elements are refused (pmn.special).
 * On error pos is unchanged; offsets point into the chain's text (c->at).
 * Ownership: none.
 */
KOMA_API int koma_chain_apply(koma_position *pos, const koma_chain *c, koma_error *err);

/*
 * The canonical form of the effects of c in pos (c need not be canonical: any
 * order, several legs of the moving piece). Errors: those of koma_chain_apply,
 * pmn.chain.actor (two different pieces move), pmn.chain.elements or
 * pmn.chain.length (the canonical form would exceed the limits).
 * Ownership: none.
 */
KOMA_API int koma_chain_canonical(const koma_position *pos, const koma_chain *c,
                                  koma_chain *out, koma_error *err);

/*
 * With a position: c's preconditions, each element's canonicality
 * (pmn.canonical.*), and that c is the canonical form of its effects
 * (pmn.chain.canonical, the message gives that form).
 * Ownership: none.
 */
KOMA_API int koma_chain_check(const koma_position *pos, const koma_chain *c, koma_error *err);

/*
 * Read a move written in leg form and normalise it (needs pos): tokens joined
 * by ',', each a PMN quiet, capture, static or mutate element, an XBoard leg
 * `e5e6` (a capture when the target is occupied) or a koengine shot
 * `e6xh6xk6` (the piece on e6 removes h6, then k6, without moving); XBoard
 * legs and shots may end in '+': the moving (or shooting) piece takes the
 * enhanced state ('+', a promotion in Ko shogi's tokens). `@@@@` is a pass.
 * Legs continue the moving piece's path: `e5+e6,e6+f7` is `e5+f7,+e6`.
 * Errors: pmn.chain.leg (a token that is none of these, at its byte), the
 * errors of koma_chain_canonical.
 * Ownership: none.
 */
KOMA_API int koma_chain_read_legs(const char *s, size_t len, const koma_position *pos,
                                  koma_chain *out, koma_error *err);

/*
 * Read s[0..len) in dialect d as a chain: CANONICAL is koma_chain_parse, and
 * with pos (may be NULL) koma_pmn_resolve and koma_chain_check; SEED and
 * JSON_ARRAY read one move (koma_pmn_parse_dialect); LEGS is
 * koma_chain_read_legs (pmn.context without pos).
 * Ownership: none.
 */
KOMA_API int koma_chain_parse_dialect(koma_pmn_dialect d, const char *s, size_t len,
                                      const koma_position *pos, koma_chain *out,
                                      koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
