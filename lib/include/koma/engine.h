/* koma/engine.h — the rules engine: legal moves, make/unmake, the endings a
 * position decides, perft. (Judging a whole game — history rules, verdicts —
 * is the referee's, koma/referee.h.)
 *
 * An engine plays one game (koma/game.h) on one position at a time, on the
 * backend the game's definition asks for: the mailbox engine (a padded board
 * of one byte a square and bitboards, hands as counts, an incremental Zobrist
 * hash), for a game whose moves have several effects (Ko shogi) the effect
 * engine, or for the Sanki family the Sanki engine (64-bit bitboards, the
 * FEEN state markers recomposed after every ply). The first two never
 * allocate per move: every buffer is sized when the engine is created; the
 * Sanki engine's stack of plies made grows by doubling (a make may then fail
 * on memory, as its contract allows).
 *
 * Moves are koma_emove handles, valid for the position they were generated in;
 * they convert to canonical PMN (koma_move / koma_pmn_write) and back. Two moves
 * with the same canonical PMN are the same move (koma-perft(1)).
 *
 * Positions are compared (hash, repetition) on board, hands and side to move
 * with every "'" removed (the Jeweled King's marker), as koma-games(7) says.
 *
 * Choices (where the rules of koma-games(7) leave room):
 * - A captured royal goes to the capturer's hand like any piece (`/K^`); a
 *   royal in a hand is how a position shows that a king was captured
 *   (mareking: its holder won), so a FEEN alone tells the game is over
 *   (the game's defeat.royal_captured, the default; defeat.survival adds a
 *   survival test on the board, see schemas/game.schema.json).
 * - A hand holds only pieces of its owner's case (rules.hand); any piece of the
 *   game may be there (K^ after a capture, +P in a shogi hand: never dropped).
 * - Games with the check rule allow at most one royal a side (rules.royal); a
 *   side without a royal is never in check (tsume positions).
 * - The "'" marker is kept on the board and in hands (a captured `k^'` enters
 *   the hand as `K^'`, a promoted `S'` becomes `+S'`) but never changes a move's
 *   legality or the hash.
 * - The bare-king rule (Okisaki) is decided from the position: the side that has
 *   just moved is bare (king alone, empty hand): it loses, or a draw when the
 *   side to move is bare too. Perft treats such a position as finished.
 * - Positions are identified by 64-bit Zobrist hashes (keys from a fixed
 *   seed, computed into the engine object; no global state).
 */
#ifndef KOMA_ENGINE_H
#define KOMA_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>
#include <koma/position.h>
#include <koma/pmn.h>
#include <koma/cgsn.h>
#include <koma/game.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct koma_engine koma_engine;
typedef uint32_t koma_emove;

/* An engine for a playable game (game.norules otherwise). The game must outlive
 * the engine. The engine starts on the game's start position.
 * Ownership: the caller frees *out with koma_engine_free; game is borrowed (its set must
 * outlive *out). */
KOMA_API int koma_engine_new(const koma_game *game, koma_engine **out, koma_error *err);
/* Ownership: frees e and what it owns. */
KOMA_API void koma_engine_free(koma_engine *e);
/* Ownership: the result is the game e was made for, borrowed from its set. */
KOMA_API const koma_game *koma_engine_game(const koma_engine *e);

/*
 * Set the position. It must fit the game: shape, style letters (the game's
 * letter in both cases, or for a game with `styles` such as Sanki two of
 * them, either side any), every piece one of the game's (rules.piece), hands
 * holding only pieces of their owner's case (rules.hand), and in games with the
 * check rule at most one royal piece a side (rules.royal). The history (for
 * repetition and the move limit) is cleared: the position is the setup.
 * Ownership: none.
 */
KOMA_API int koma_engine_set_position(koma_engine *e, const koma_position *pos, koma_error *err);
/* Parse a FEEN (strict) and set it; errors keep the FEEN's offsets. Ownership: none. */
KOMA_API int koma_engine_set_feen(koma_engine *e, const char *feen, size_t len, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_engine_set_start(koma_engine *e, koma_error *err);

/* The current position as a koma_position (pos initialised by the caller). Ownership: none. */
KOMA_API int koma_engine_get_position(const koma_engine *e, koma_position *pos, koma_error *err);
/* The current position as canonical FEEN into buf (cap bytes, NUL-terminated),
 * its length into *len (may be NULL). -1 with err when it cannot be written
 * (memory; feen.length when cap is too small: KOMA_FEEN_MAX_LEN + 1 always
 * fits a game's position): buf then holds "" and *len 0, never a partial FEEN.
 * Ownership: none. */
KOMA_API KOMA_NODISCARD int koma_engine_feen(const koma_engine *e, char *buf, size_t cap,
                                             size_t *len, koma_error *err);

/* Ownership: none. */
KOMA_API int koma_engine_turn(const koma_engine *e);          /* KOMA_FIRST / KOMA_SECOND */
/* Ownership: none. */
KOMA_API uint64_t koma_engine_hash(const koma_engine *e);
/* 1 when the side to move has a royal piece attacked (any game). Ownership: none. */
KOMA_API int koma_engine_in_check(koma_engine *e);

/*
 * 1 when `side` threatens to end the game on its next move in this position:
 * it attacks a royal piece of the other side (check), or, in games with
 * defeat.survival, a piece of the other side whose capture would make it fail
 * the survival test. The perpetual-check rule asks this after every ply.
 * Ownership: none.
 */
KOMA_API int koma_engine_threatens(koma_engine *e, int side);

/* ---- moves ------------------------------------------------------------------ */

/* The size a move buffer needs for any position of this game. Ownership: none. */
KOMA_API size_t koma_engine_max_moves(const koma_engine *e);

/* The legal moves (at most koma_engine_max_moves); none in a finished position
 * (a royal captured). Order: unspecified but deterministic. Ownership: none. */
KOMA_API size_t koma_engine_legal_moves(koma_engine *e, koma_emove *moves);

/* The canonical PMN of a move of the current position. A move of an effect game
 * (Ko shogi) that is a chain of several elements is no one PMN move:
 * koma_engine_move_pmn then returns -1 (out zeroed), and koma_engine_move_write
 * returns 0 (buf "") for a chain longer than KOMA_PMN_MAX_LEN, never a cut text;
 * koma_engine_move_text writes any chain. Ownership: none. */
KOMA_API int koma_engine_move_pmn(const koma_engine *e, koma_emove m, koma_move *out);
/* Ownership: none. */
KOMA_API size_t koma_engine_move_write(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF]);
/* The same into buf of any size (NUL-terminated, cut to cap - 1 bytes); returns
 * the full length of the move's canonical text. Ownership: none. */
KOMA_API size_t koma_engine_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap);

/* What the history rules need to know of a legal move m of the current
 * position (before it is made). */
typedef struct koma_move_facts {
    uint64_t key;                      /* the move's identity for a same-move repetition
                                          rule: piece, origin or hand, target, promotion
                                          and privilege choice, every "'" ignored */
    unsigned captures;                 /* pieces it removes from the board */
    int resets;                        /* it moves a piece whose move resets the move-limit
                                          count (resets_move_limit; a drop never does) */
} koma_move_facts;
/* Ownership: none. */
KOMA_API void koma_engine_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out);

/*
 * "Is this move legal here": the legal move whose canonical PMN is m, or -1
 * with the reason (rules.* codes: rules.over, rules.form, rules.empty,
 * rules.owner, rules.occupied, rules.operator, rules.pattern, rules.blocked,
 * rules.promotion, rules.mustpromote, rules.captured, rules.drop.*, rules.check,
 * cell.shape). A drop without its piece (`*e5`) is accepted when exactly one
 * droppable kind could be meant. The error offset points into the canonical
 * text of m (the offending cell, piece or suffix).
 * Ownership: none.
 */
KOMA_API int koma_engine_find_move(koma_engine *e, const koma_move *m, koma_emove *out,
                                   koma_error *err);
/* The same from PMN text (pmn.* syntax errors first); offsets point into s. Ownership: none. */
KOMA_API int koma_engine_parse_move(koma_engine *e, const char *s, size_t len,
                                    koma_emove *out, koma_error *err);

/*
 * The one legal move that has the squares and the piece choice of named (a board
 * move's origin and target, its '=' piece by letter and side; a drop's target and
 * piece by letter and side), whatever else it does: castling's second piece, an
 * en passant victim, state markers, the '/' identity. A named move without a
 * choice takes the legal move without a change of piece, else the only one with
 * those squares (a promotion the rules make alone). -1 with rules.pattern (no
 * legal move has those squares), rules.promotion (several: the choice is
 * missing), rules.form (named is no board move or drop), memory.
 * Ownership: none (*out is a handle valid in the current position only).
 */
KOMA_API int koma_engine_match_move(koma_engine *e, const koma_move *named, koma_emove *out,
                                    koma_error *err);

/* Play a legal move of the current position / take back the last one. At most
 * KOMA_LIMIT_PLIES plies are kept for unmake (rules.illegal beyond). No
 * history rule is applied here: that is the referee's (koma/referee.h). Ownership: none. */
KOMA_API int koma_engine_make(koma_engine *e, koma_emove m, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_engine_unmake(koma_engine *e);
/* Plies made since the position was set. Ownership: none. */
KOMA_API size_t koma_engine_ply(const koma_engine *e);

/* ---- endings the position decides (koma-games(7), ENDINGS ON ONE PLY) --------- */

typedef struct koma_ending {
    int over;                      /* 1 when the game has ended */
    koma_status status;            /* the CGSN status when over */
    koma_result result;
    int side;                      /* the side concerned (the defeated side, the side
                                      to move without a legal move, the bare side);
                                      -1 when not over */
} koma_ending;

/*
 * The endings the position alone decides, in the order of koma-games(7) (ENDINGS ON ONE PLY), as the
 * game's definition gives them: a side defeated (mareking: its royal in the
 * other side's hand, or its board failing defeat.survival; when both sides are,
 * the side to move lost), no legal move (checkmate / stalemate / nomove, as
 * no_legal_move maps them), a bare king (bare_king games: the side that has
 * just moved is bare: it loses, or a draw when the side to move is bare too).
 * The result is the game's termination for the side concerned.
 * Ownership: none.
 */
KOMA_API void koma_engine_position_ending(koma_engine *e, koma_ending *out);

/* ---- GGN-driven generation ------------------------------------------------------ */

/*
 * The legal moves of a position taken from a GGN document instead of the
 * built-in generator: the displacements come from ggn (koma_ggn_moves; koma-formats(5), GGN),
 * and the game's rule system turns each into its moves and keeps the legal ones:
 *   - a board move becomes the promoting move (`=+P`) when the piece promotes and
 *     the move starts or ends in the zone, and also the plain move unless
 *     promotion is compulsory or the piece would have no further move;
 *   - a capture carries the captured piece's identity in the hand (`/P`), and a
 *     royal with the King's privilege capturing a promoted piece gives both
 *     `/+P` (kept) and `/P`;
 *   - a capture of a piece of the mover, a drop onto an occupied square, a
 *     static capture or a move to the hand are not moves of these rule systems
 *     and are skipped;
 *   - with the check rule, a move leaving the mover's royal attacked is
 *     illegal, and so is a check-giving drop of a `drop.no_mate` kind (the pawn)
 *     that leaves the opponent no legal reply, the replies being generated from
 *     ggn the same way (as deep as the built-in generator looks);
 *   - a finished position (a royal in a hand) has no moves.
 * Drop restrictions (never dropped, forbidden ranks, nifu) are the document's:
 * for the document of koma_game_to_ggn the result is the set of
 * koma_engine_legal_moves, which a test checks on random positions.
 *
 * Moves are emitted in the document's order as canonical PMN (and koma_move);
 * emit returns 0 to go on, anything else to stop (the call then returns that value).
 * emit must not change the engine. Returns 0 when all were emitted, -1 with
 * err on an error (memory).
 * Ownership: none.
 */
KOMA_API int koma_engine_ggn_moves(koma_engine *e, const koma_ggn *ggn, koma_move_fn emit,
                                   void *ctx, koma_error *err);

/* The same for a position of a game (an engine is made for the call): -1 with
 * err also when the position does not fit the game (rules.*, as
 * koma_engine_set_position) or the game has no rules (game.norules). Ownership: none. */
KOMA_API int koma_ggn_generate(const koma_ggn *ggn, const koma_game *game,
                               const koma_position *pos, koma_move_fn emit, void *ctx,
                               koma_error *err);

/* ---- perft -------------------------------------------------------------------- */

/* Leaves of the legal-move tree of the given depth into *nodes (koma-perft(1):
 * finished positions have no moves; history rules ignored). -1 only when the
 * move buffers (depth x koma_engine_max_moves) cannot be allocated. Ownership: none. */
KOMA_API int koma_engine_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err);

/* One root move of a divided perft. */
typedef struct koma_perft_entry {
    char pmn[KOMA_MOVE_TEXT_BUF];          /* a PMN move, or a chain (an effect game) */
    uint64_t nodes;
} koma_perft_entry;

/*
 * Divided perft: one entry per legal root move, sorted by PMN (byte order),
 * into *out (malloc'd, the caller frees), *count entries. depth >= 1.
 * progress (may be NULL) is called after each root move with the number done
 * and the total; a non-zero return stops the perft, which returns that value
 * (*out then NULL).
 */
typedef int (*koma_perft_progress_fn)(void *ctx, size_t done, size_t total);
/* Ownership: the caller frees *out with free(). */
KOMA_API int koma_engine_perft_divide(koma_engine *e, unsigned depth,
                                      koma_perft_entry **out, size_t *count,
                                      koma_perft_progress_fn progress, void *ctx,
                                      koma_error *err);

/*
 * Split a perft of `depth` into jobs: every position reached after `plies`
 * plies (one job per path, so duplicates are kept) with depth - plies left.
 * job() is called with each FEEN and remaining depth; a non-zero return stops.
 * The jobs' perfts sum to perft(depth). plies <= depth (perft.depth).
 * Returns 0 when done, the job's non-zero value when it stopped it, -1 on error.
 */
typedef int (*koma_perft_job_fn)(void *ctx, unsigned depth, const char *feen, size_t len);
/* Ownership: none. */
KOMA_API int koma_engine_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                                     koma_perft_job_fn job, void *ctx, koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
