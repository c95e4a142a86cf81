/*
 * lib/engine_backend.h — the seam between the rules-engine API (koma/engine.h) and
 * its backends: one table of operations a backend fills, held by every engine.
 * Not installed, not exported.
 *
 * Three backends implement the API:
 *   - the mailbox engine (engine_board.c, engine_movegen.c, engine_rules.c,
 *     engine_perft.c, engine_ggn.c; its table in engine_mailbox.c): every game
 *     whose definition names no other engine;
 *   - the effect engine (fx_state.c, fx_movegen.c, the rules compiled by
 *     fx_def.c; its table in fx_backend.c): games whose definition says
 *     `engine: effects` (Ko shogi);
 *   - the Sanki engine (sanki_state.c, sanki_movegen.c, sanki_rules.c; its
 *     table in sanki_backend.c): games whose definition says `engine: sanki`
 *     (chess, Ogi and Xiongqi on 8x8, each side its own).
 * The facade (engine.c) chooses the table once, when the engine is made
 * (koma_engine_new, from the game), and every public koma_engine_* call that
 * differs per backend is one call through it; what is the same for all (FEEN
 * in and out, the start position, argument checks, the sorting of a divided
 * perft) is written once, in the facade, on top of the table. A backend never
 * calls the facade: inside a backend, and above all in its hot paths (move
 * generation, make/unmake, perft's recursion and bulk counting), its calls are
 * direct.
 *
 * The contract. Every entry is set (no NULL). Moves are koma_emove handles,
 * valid only in the position they were generated or found in, and opaque to
 * every caller; the facade passes them through untouched. An operation that
 * fails sets err and returns -1 unless said otherwise; a move that could not
 * be made was not made.
 *
 * Who asks what. The tools and the records layer use the whole API; the
 * referee (referee.c) judges a game through the facade only, and asks about
 * positions and moves, never which backend answers (only its flags,
 * koma__engine_flags): set_position for the setup;
 * parse_move (or find_move) for each ply's text, then move_facts, make, hash,
 * turn; threatens after each ply (the perpetual-check rule); position_ending
 * after each ply; legal_moves, max_moves, move_text and move_pmn for the
 * alternatives of an illegal ply and to tell a notation slip from an illegal
 * move (a text that is one PMN element but not the canonical form of a
 * legal move is matched against the legal texts; a chain written in another
 * order or in leg form is read against the position, koma_chain_read_legs,
 * and given to parse_move again); get_position (FEEN) for the final and the
 * repeated positions; take_failure after the calls that cannot report memory
 * trouble themselves.
 * The history rules (repetition, perpetual check, move limit) and the
 * termination table are the referee's, from the game definition; the rules of
 * each game are koma-games(7)'s (Ko shogi's in its Ko shogi section).
 */
#ifndef KOMA_ENGINE_BACKEND_H
#define KOMA_ENGINE_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <koma/engine.h>

/* koma__engine_ops.flags (the referee reads them: koma__engine_flags) */
#define KOMA__ENGINE_ONE_PMN 1u        /* every move is one PMN move: parse_move is
                                          koma_pmn_parse then find_move, and
                                          position_ending uses has_move, so the referee
                                          may parse a ply once and read the next one
                                          ahead (find_move on its koma_move) */
#define KOMA__ENGINE_MARKED_IDENTITY 2u /* the "'" marker is part of a position's
                                          identity (hash, and the FEEN of a repeated
                                          position keeps it: Ko shogi, where "'" is a
                                          second alphabet); otherwise every "'" is
                                          ignored by hash and stripped from that FEEN */
#define KOMA__ENGINE_NO_FAILURE 4u     /* take_failure always returns 0 (nothing that
                                          cannot report memory trouble allocates): the
                                          referee's quick loop does not ask it */

typedef struct koma__engine_ops {
    const char *name;                  /* "mailbox", "effects", "sanki" */
    unsigned flags;                    /* KOMA__ENGINE_* */
    /* Why GGN cannot express the backend's moves, in the words of its refusal
     * (ggn_moves = koma__ops_ggn_refused); NULL: no reason given, or a backend
     * that generates from GGN. */
    const char *ggn_refusal;

    /* ---- the engine ------------------------------------------------------------ */

    /* An engine for the playable game g (the facade has checked g->playable),
     * without a position yet: the facade sets the game's start after it and
     * sets e->ops. -1 with err (memory, a board too large: game.limit). */
    int (*create)(const koma_game *g, koma_engine **out, koma_error *err);
    /* Frees what create and the later calls allocated, and e. */
    void (*destroy)(koma_engine *e);

    /* ---- positions ------------------------------------------------------------- */

    /* koma_engine_set_position: the position must fit the game (rules.* codes,
     * cell.shape: koma__position_fits, game.c, says what fits); the history
     * (unmake, ply) is cleared. */
    int (*set_position)(koma_engine *e, const koma_position *pos, koma_error *err);
    /* koma_engine_get_position: pos was initialised by the caller; -1 on memory. */
    int (*get_position)(const koma_engine *e, koma_position *pos, koma_error *err);
    /* koma_engine_feen's quick path (may be NULL): the position as FEEN into
     * buf[cap], get_position's and koma_feen_write's bytes; its length, or 0
     * when it wrote nothing (cap may be too small: get_position is then used). */
    size_t (*feen)(const koma_engine *e, char *buf, size_t cap);
    int (*turn)(const koma_engine *e);            /* KOMA_FIRST / KOMA_SECOND */
    /* The position's identity: board, hands, side to move; positions are equal
     * exactly when the rules say so (every "'" ignored, unless
     * KOMA__ENGINE_MARKED_IDENTITY). The referee's repetition rules stand on it. */
    uint64_t (*hash)(const koma_engine *e);
    size_t (*ply)(const koma_engine *e);          /* plies made since the position was set */

    /* ---- moves ----------------------------------------------------------------- */

    /* The size of a move buffer for any position of the game. */
    size_t (*max_moves)(const koma_engine *e);
    /* The legal moves into moves[0 .. max_moves); none in a finished position.
     * Deterministic order. On memory trouble: 0, and take_failure says so. */
    size_t (*legal_moves)(koma_engine *e, koma_emove *moves);
    /* The canonical PMN of a move of the current position; -1 with out zeroed
     * when the move is no one PMN move (a chain of several elements). */
    int (*move_pmn)(const koma_engine *e, koma_emove m, koma_move *out);
    /* Its canonical text into buf[KOMA_PMN_BUF]: the length, or 0 (buf "") when
     * it needs more than KOMA_PMN_MAX_LEN bytes (never a cut text). */
    size_t (*move_write)(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF]);
    /* Its canonical text (PMN, or the canonical chain; koma-formats(5)) into buf
     * (cap bytes, NUL-terminated, cut to cap - 1); the full length. */
    size_t (*move_text)(const koma_engine *e, koma_emove m, char *buf, size_t cap);
    /* What the history rules need of a legal move, before it is made: its
     * identity for a same-move rule (every "'" ignored), the pieces it
     * removes, whether it resets the move-limit count. A backend whose games
     * have no same-move rule nor move limit may leave key and resets 0. */
    void (*move_facts)(const koma_engine *e, koma_emove m, koma_move_facts *out);
    /* "Is this move legal here": the legal move whose canonical form is m, or -1
     * with the reason (rules.* codes, cell.shape; offsets into m's canonical
     * text); rules.over in a finished position. */
    int (*find_move)(koma_engine *e, const koma_move *m, koma_emove *out, koma_error *err);
    /* The legal move the text s[0..len) names, or -1: a pmn.* code when the
     * text is not a move at all (the referee then takes the record as
     * unreadable), another code (rules.*) when it is a move that is not legal
     * here; memory as memory. Any length of text (a Ko shogi chain may run to
     * KOMA_LIMIT_MOVE_TEXT, koma/referee.h); offsets into s. */
    int (*parse_move)(koma_engine *e, const char *s, size_t len, koma_emove *out,
                      koma_error *err);
    /* Play a legal move of the current position (-1, rules.illegal, beyond
     * KOMA_LIMIT_PLIES plies; memory) / take back the last one (-1 when
     * none). No history rule here. */
    int (*make)(koma_engine *e, koma_emove m, koma_error *err);
    int (*unmake)(koma_engine *e);

    /* ---- endings and threats --------------------------------------------------- */

    /* The endings the position decides, in the order of koma-games(7), from the
     * game definition: a side defeated (mareking: the definition's `defeat`
     * data, a royal captured or a survival test failed; when both sides are,
     * the side to move lost), no legal move (checkmate / stalemate / nomove as
     * its no_legal_move maps them), a bare king (bare_king games). The result
     * is koma_game_result's. has_move: the caller knows that the side to move
     * has a legal move (no search for one; a backend may ignore it). On memory
     * trouble: not over, and take_failure says so. */
    void (*position_ending)(koma_engine *e, koma_ending *out, int has_move);
    /* 1 when the side to move is threatened as koma_engine_in_check says: its
     * royal attacked, or (an effect game) the other side threatens to end the
     * game. */
    int (*in_check)(koma_engine *e);
    /* 1 when `side` threatens to end the game with its next move: it attacks a
     * royal of the other side, or a piece whose capture would make the other
     * side fail its survival test (Ko shogi: any legal move, shots included,
     * that would). The perpetual-check rule asks it after every ply. On
     * memory trouble: 0, and take_failure says so. */
    int (*threatens)(koma_engine *e, int side);
    /* 1 when memory ran out, since the last call, in a legal_moves,
     * position_ending, in_check or threatens call (which cannot say so); clears
     * it. A backend that never fails there returns 0. */
    int (*take_failure)(koma_engine *e);

    /* ---- whole trees ----------------------------------------------------------- */

    /* Perft (koma_engine_perft) for depth >= 1 (the facade answers depth 0):
     * finished positions have no moves; history rules ignored. */
    int (*perft)(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err);
    /* One entry per legal root move (depth >= 1), in any order: the facade
     * sorts them. *out is malloc'd (at least one entry's room). */
    int (*perft_divide)(koma_engine *e, unsigned depth, koma_perft_entry **out, size_t *count,
                        koma_perft_progress_fn progress, void *ctx,
                        koma_error *err);
    /* koma_engine_perft_split for plies <= depth (the facade checks it). */
    int (*perft_split)(koma_engine *e, unsigned depth, unsigned plies,
                       koma_perft_job_fn job,
                       void *ctx, koma_error *err);
    /* koma_engine_ggn_moves (arguments checked by the facade); a backend whose
     * moves GGN cannot express refuses with game.ggn (koma__ops_ggn_refused). */
    int (*ggn_moves)(koma_engine *e, const koma_ggn *ggn,
                     koma_move_fn emit,
                     void *ctx, koma_error *err);
} koma__engine_ops;

/* The entries written once (backend_shared.c). koma_engine_perft_divide and
 * _split on any table whose moves are handles of the current position: the
 * effect and Sanki engines'. */
int koma__ops_perft_divide(koma_engine *e, unsigned depth, koma_perft_entry **out, size_t *count,
                           koma_perft_progress_fn progress, void *ctx, koma_error *err);
int koma__ops_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                          koma_perft_job_fn job, void *ctx, koma_error *err);
/* koma_engine_ggn_moves refused (game.ggn), the table's ggn_refusal saying why:
 * "GGN cannot express the moves of ID (WHY): no GGN-driven generation". */
int koma__ops_ggn_refused(koma_engine *e, const koma_ggn *ggn, koma_move_fn emit, void *ctx,
                          koma_error *err);

/* The three tables (engine_mailbox.c, fx_backend.c, sanki_backend.c). */
extern const koma__engine_ops koma__mailbox_ops;
extern const koma__engine_ops koma__fx_ops;
extern const koma__engine_ops koma__sanki_ops;

#endif
