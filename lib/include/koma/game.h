/* koma/game.h — game definitions (rule systems) and the Betza movement parser.
 *
 * A game definition is a YAML document (schemas/game.schema.json; the built-in
 * ones are lib/games/NAME.yaml, embedded into libkoma at build). It names the game
 * (id, SNN name, SIN style letter, board shape, start FEEN) and, for the games
 * koma can play, the pieces with their Betza movement, promotion, drops, the
 * check rule, captures, repetition, move limit and how each ending maps to a
 * CGSN status and a result (the rules of each game: koma-games(7)).
 *
 * Definitions are held in a caller-owned koma_game_set (no global state): the
 * set starts with the built-in games; more can be loaded from YAML text. A game
 * is found by id (`--game ID`) or by the FEEN's style letter and board shape.
 */
#ifndef KOMA_GAME_H
#define KOMA_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>
#include <koma/limits.h>
#include <koma/atoms.h>
#include <koma/cell.h>
#include <koma/position.h>
#include <koma/cgsn.h>
#include <koma/ggn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Betza ----------------------------------------------------------------- */

/*
 * One movement vector of a Betza description, in the first player's frame:
 * dx > 0 towards higher files (right, seen by the first player), dy > 0 forwards
 * (towards higher ranks). range 1 is a leap; 0 an unlimited ride; n > 1 a ride
 * of at most n steps. Every vector moves or captures (the m and c modalities are
 * not supported).
 */
typedef struct koma_betza_vector {
    int8_t dx, dy;
    uint8_t range;
} koma_betza_vector;

#define KOMA_BETZA_MAX_VECTORS 64
#define KOMA_BETZA_MAX_LEN 64

/*
 * Parse a Betza description s[0..len) into at most cap distinct vectors (a
 * vector that appears twice is kept once, with the longer range). Supported:
 * the atoms W F D N A H C Z G (leaps), the sliders R B Q (= WW FF, riders), K
 * (= WF), a doubled atom for a rider (NN), an atom followed by a count for a
 * limited ride (W3), and the directional modifiers f b l r v s, alone or in
 * pairs (ff bb ll rr fs bs lv rv fl fr bl br) applied to the next atom:
 *   f/b/l/r  the vectors going forwards / backwards / left / right;
 *   v/s      vertical / sideways: for orthogonal atoms the pure vertical or
 *            horizontal ones, for oblique atoms (N, C, Z) the narrow (|dy|>|dx|)
 *            or wide (|dx|>|dy|) ones;
 *   pairs    for oblique atoms ff = forward narrow, fs = forward wide, ll = left
 *            wide, lv = left narrow (bb bs rr rv alike); fl fr bl br = the
 *            vectors in that quadrant (oblique and diagonal atoms). For
 *            orthogonal atoms two letters are read separately (fs = f + s).
 * Several modifiers before one atom select the union (fbR = forward and
 * backward rook). Returns 0, or -1 with err (betza.syntax, betza.unsupported).
 * Ownership: none.
 */
KOMA_API int koma_betza_parse(const char *s, size_t len, koma_betza_vector *out,
                              size_t cap, size_t *count, koma_error *err);

/* ---- game definitions ---------------------------------------------------------- */

typedef struct koma_game koma_game;
typedef struct koma_game_set koma_game_set;

/* An id's length: KOMA_LIMIT_GAME_ID; a game definition nests at most
 * KOMA_LIMIT_DEPTH deep (game.depth; koma(7), LIMITS). */

/*
 * A new set holding every built-in game. A built-in game is compiled from its
 * definition the first time a lookup returns it (koma_game_set_at, a find, an
 * open), once per set whatever the threads; a lookup that cannot compile it
 * (memory) returns NULL, and says why where it takes an err.
 * Ownership: the caller frees *out with koma_game_set_free.
 */
KOMA_API int koma_game_set_new(koma_game_set **out, koma_error *err);
/* Compile now every built-in game not compiled yet: 0, or -1 with the error.
 * Ownership: none (the games stay the set's). */
KOMA_API int koma_game_set_load_all(const koma_game_set *set, koma_error *err);
/* Ownership: frees set and what it owns. */
KOMA_API void koma_game_set_free(koma_game_set *set);

/*
 * Load a game definition from YAML text yaml[0..len) into the set; `source`
 * (may be NULL) names it in errors, whose line and column point into the YAML.
 * A game with the id of a built-in game replaces it (so `--game FILE` can
 * override a built-in; the built-in stays allocated until the set is freed, so
 * pointers to it, and engines made for it, stay valid). A game with the id of
 * a game loaded before by this function is an error (game.duplicate, at the
 * id), and the set is unchanged. *out (may be NULL) receives the game.
 * Ownership: *out is borrowed from set until the set is freed.
 */
KOMA_API int koma_game_set_load(koma_game_set *set, const char *yaml, size_t len,
                                const char *source, const koma_game **out,
                                koma_error *err);

/* Read a YAML file and load it (io.open, io.read, then as above).
 * Ownership: *out is borrowed from set until the set is freed. */
KOMA_API int koma_game_set_load_file(koma_game_set *set, const char *path,
                                     const koma_game **out, koma_error *err);

/* Ownership: none. */
KOMA_API size_t koma_game_set_count(const koma_game_set *set);
/* Ownership: the result is borrowed from set until the set is freed. */
KOMA_API const koma_game *koma_game_set_at(const koma_game_set *set, size_t i);

/* By id ("ogi", "shogi", ...); NULL when unknown (or not compiled: memory).
 * Ownership: the result is borrowed from set until the set is freed. */
KOMA_API const koma_game *koma_game_set_find_id(const koma_game_set *set,
                                                const char *id, size_t len);
/* The same, telling an unknown id (0, *out NULL) from a built-in game that
 * cannot be compiled (-1 with err: memory).
 * Ownership: *out is borrowed from set until the set is freed. */
KOMA_API int koma_game_set_lookup(const koma_game_set *set, const char *id, size_t len,
                                  const koma_game **out, koma_error *err);

/*
 * By style letter (either case) and 2-D board shape; NULL when none fits. A
 * definition with `by_feen: false` is never found this way (ogi-classic: an `O`
 * 8×8 FEEN means ogi); when several other games share both, the first loaded wins.
 * Ownership: the result is borrowed from set until the set is freed.
 */
KOMA_API const koma_game *koma_game_set_find_style(const koma_game_set *set, char style,
                                                   unsigned files, unsigned ranks);

/* The game of a position (its first player's style and its shape); NULL with
 * err set (game.unknown) when none fits.
 * Ownership: the result is borrowed from set until the set is freed. */
KOMA_API const koma_game *koma_game_set_find_position(const koma_game_set *set,
                                                      const koma_position *pos,
                                                      koma_error *err);

/*
 * Open a position of a game from a FEEN: parse feen[0..len) (strict) into pos
 * (initialised by the caller), take *game when it is not NULL (--game), else
 * the game the FEEN's style and board give (game.unknown), and check that the
 * game has rules (game.norules) and that the position fits it as an engine
 * needs (rules.shape, rules.style, rules.piece, rules.hand, rules.royal). *game
 * is set to the game as soon as it is known. 0, or -1 with err (a FEEN error
 * keeps its offsets into feen).
 * Ownership: *game is borrowed from set until the set is freed; pos is the caller's.
 */
KOMA_API int koma_game_set_open_feen(const koma_game_set *set, const char *feen, size_t len,
                                     koma_position *pos, const koma_game **game,
                                     koma_error *err);

/*
 * Rule options (Ko shogi's readings where the sources disagree; koma-formats(5),
 * GAME DEFINITIONS, Ko shogi):
 * a game's options and the value of each in force (the first value of each is
 * the default). koma_game_option_count is 0 for a game without options.
 * Ownership: none.
 */
KOMA_API size_t koma_game_option_count(const koma_game *g);
/* Ownership: the result is borrowed from g until its set is freed. */
KOMA_API const char *koma_game_option_name(const koma_game *g, size_t i);
/* Ownership: the result is borrowed from g until its set is freed. */
KOMA_API const char *koma_game_option_value(const koma_game *g, size_t i);

/*
 * The variant of game g under rule options: opts[0..n) are "NAME=VALUE"
 * settings over the definition's own. The variant belongs to the set (the same
 * settings give the same variant, until the set is freed); it keeps g's id, and
 * is neither listed nor found by id. With n = 0, a game without options is its
 * own variant. Errors: game.option.unknown (no such option, or a game without
 * options), game.option.value (not one of the option's values),
 * game.option.unsupported (a value koma does not play), memory.
 * Ownership: *out is borrowed from set until the set is freed.
 */
KOMA_API int koma_game_set_variant(koma_game_set *set, const koma_game *g,
                                   const char *const *opts, size_t n, const koma_game **out,
                                   koma_error *err);

/* Ownership: the result is borrowed from g until its set is freed. */
KOMA_API const char *koma_game_id(const koma_game *g);
/* Ownership: the result is borrowed from g until its set is freed. */
KOMA_API const char *koma_game_name(const koma_game *g);      /* SNN */
/* Ownership: none. */
KOMA_API char koma_game_style(const koma_game *g);            /* uppercase SIN */
/* Ownership: none. */
KOMA_API unsigned koma_game_files(const koma_game *g);
/* Ownership: none. */
KOMA_API unsigned koma_game_ranks(const koma_game *g);
/* Ownership: the result is borrowed from g until its set is freed. */
KOMA_API const char *koma_game_start(const koma_game *g);     /* start FEEN */
/* 1 when the definition has pieces and rules (an engine can be built for it);
 * 0 for a game that is only recognised (a definition without pieces). Ownership: none. */
KOMA_API int koma_game_playable(const koma_game *g);
/* 0 when g has rules (koma_game_playable); else -1 with err game.norules, whose
 * message ("game ID defines no pieces, so it has no rule engine") is the one every
 * caller gives. Ownership: none. */
KOMA_API int koma_game_require_rules(const koma_game *g, koma_error *err);
/* The name of a player (KOMA_FIRST or KOMA_SECOND) in the game's verdict texts:
 * its definition's side_names, else "Sente" and "Gote" (g may be NULL).
 * Ownership: borrowed from g (static for the default names). */
KOMA_API const char *koma_game_side_name(const koma_game *g, int side);
/* The longest side name, in bytes (a definition's longer one is game.field). */
#define KOMA_GAME_SIDE_NAME_MAX 23
/* 1 when a side loses by failing a survival test (Ko shogi: no general, no
 * governor, not both middle troop and banner; status mareking) rather than by
 * the capture of its king. Ownership: none. */
KOMA_API int koma_game_survival_test(const koma_game *g);

/*
 * The name written on a piece (UTF-8, 1 to 3 characters: "歩", "と", "成姫", "仏狼機"),
 * from the `diagram.kanji` map of the definition; the second player's piece has
 * the name of the first player's. A piece with "'" the game does not name takes
 * the name of the piece without it. NULL when the game names no such piece.
 * Ownership: the result is borrowed from g until its set is freed.
 */
KOMA_API const char *koma_game_kanji(const koma_game *g, koma_piece p);

/*
 * The pseudo-legal move patterns of a playable game as a GGN document (koma/ggn.h;
 * free it with koma_ggn_free). Every piece identity of the game, first player
 * then second, in the order of the definition, is a key QPI (the game's style
 * letter and the PIN, both in the side's case: "O:K^", "o:+p"). Under it:
 *
 *   board sources   every square (files a.., ranks 1.., file by file), when the
 *                   piece has a destination from there. For each destination its
 *                   Betza movement reaches on the board, one possibility for a
 *                   quiet move and one for a capture: a ride's intermediate
 *                   squares "empty" (in path order), then the destination
 *                   "empty" or "enemy". A leap has no path condition (it jumps).
 *   source "*"      for a kind that may be dropped (not royal, not `drop.never`,
 *                   promoted kinds only when the game drops them promoted): every
 *                   square except those of its forbidden last ranks, which are
 *                   simply not listed, with the destination "empty"; for a
 *                   `drop.nifu` kind, "deny" holds the same QPI on every other
 *                   square of the file (two unpromoted pawns of a side on a file).
 *
 * Destinations are in the same file-by-file order; "deny" is {} except for nifu.
 * GGN says only which displacements are pseudo-legal. Everything else stays with
 * the rule system (koma_ggn_generate applies it): whether a move promotes (zone,
 * optional, compulsory, forced on the last ranks) and into what; what a capture
 * puts in the hand (demoted, turned to the capturer, or kept promoted by the
 * King's privilege: two moves); self-check in games with the check rule; mate by
 * pawn drop; a game already over (a king captured); and the endings (checkmate,
 * stalemate, no move, bare king, repetition, move limit). The "'" marker is not
 * part of a QPI: a piece with it uses the same patterns.
 * Errors: game.norules (a definition without pieces), game.ggn (an effect game
 * such as Ko shogi, whose moves GGN cannot express), game.limit (the
 * document would have more than 479349 possibilities: its text could not be
 * within the 16 MiB koma_ggn_load reads; a large board with many riders),
 * memory.
 * Ownership: the caller frees *out with koma_ggn_free.
 */
KOMA_API int koma_game_to_ggn(const koma_game *g, koma_ggn **out, koma_error *err);
/*
 * What the GGN export of g leaves to the rules beyond what every export leaves
 * (above), as one sentence, or NULL. For the Sanki family (its document: the
 * pieces of each variant and their marked forms, double steps, castling as the
 * royal's displacement, en passant, Ogi's drops; koma-formats(5), GGN): what a
 * move turns pieces into and the markers it sets, castling's rook, the en passant
 * victim, the squares a castling royal may not cross under attack.
 * Ownership: the result is static (the library's constant data).
 */
KOMA_API const char *koma_game_ggn_note(const koma_game *g);

/* Who wins when a game ends. */
typedef enum koma_result {
    KOMA_RESULT_NONE = 0,          /* the game goes on */
    KOMA_RESULT_FIRST,             /* the first player (uppercase) wins */
    KOMA_RESULT_SECOND,            /* the second player wins */
    KOMA_RESULT_DRAW
} koma_result;

/* "1-0", "0-1", "1/2-1/2", "*".
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_result_name(koma_result r);
/* The reverse: KOMA_RESULT_FIRST, _SECOND, _DRAW for "1-0", "0-1", "1/2-1/2";
 * KOMA_RESULT_NONE for anything else (an asymmetric result like "1/2-0", "*").
 * Ownership: none. */
KOMA_API koma_result koma_result_parse(const char *s, size_t len);

/* The result of an ending of the game with this status for the side concerned
 * (KOMA_FIRST / KOMA_SECOND), as the definition's termination maps the status:
 * a loss, a draw or a win for that side (a loss when the status is not listed).
 * Ownership: none. */
KOMA_API koma_result koma_game_result(const koma_game *g, koma_status status, int side);

#ifdef __cplusplus
}
#endif
#endif
