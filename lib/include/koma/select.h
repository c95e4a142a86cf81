/*
 * koma/select.h — finding records in game databases: criteria on a record's
 * positions, moves, metadata and verdict, and the keys that tell two copies of
 * one game from two games (koma-select(1) is its front end).
 *
 * The parts, each usable alone:
 *
 *   koma_pattern    a board pattern in FEEN's placement syntax with wildcards,
 *                   optionally with the side to move (select_pattern.c)
 *   koma_material   counts of pieces on the board and in hand, compared
 *                   (select_pattern.c)
 *   koma_meta_cond  one condition on a PCN record's members: equality, a POSIX
 *                   extended regular expression, a numeric or date comparison
 *                   (select_meta.c)
 *   koma_game_key   128 bits naming a game (its setup and plies, or one
 *                   position), and koma_keyset, a set of them in bounded memory
 *                   (select_keys.c)
 *   koma_select     all of these as one selector over PCN records: the
 *                   criteria that need the rules replay each record once with
 *                   the referee (koma/referee.h), testing each position by the
 *                   engine's incremental hash (select.c)
 *
 * Pattern syntax (PLACEMENT [SIDE]): ranks from the top, separated by '/', as
 * in FEEN; in a rank, a digit run N is N empty squares, a piece (EPIN: "P",
 * "+r", "K^", "g'") is that piece, and
 *     ?        any square, empty or not
 *     _        an empty square (as "1")
 *     *        any piece (either side)
 *     [...]    one of: pieces ("[RB+R]"), letter ranges of one case ("A-Z":
 *              any piece of the first player, "a-z" of the second; a '+' or
 *              '-' before a range keeps that state only: "+A-Z"), '_' (empty);
 *              '^' first negates the class ("[^_]" is "*")
 * Every rank has as many squares as the board has files; a pattern matches
 * boards of its own shape only (two dimensions). SIDE, after one space, is
 * "first" or "second", or a FEEN style field whose first letter's case gives
 * the side to move ("S/s": the first player). A piece compares as positions
 * do for repetition: every "'" is ignored, except in a game where it is part
 * of a piece's identity (Ko shogi); koma_pattern_match takes that as a flag.
 *
 * Material syntax (CONDITION[,CONDITION]...; all must hold; blanks ignored):
 *     CONDITION  COUNT [OP (NUMBER | COUNT)]      OP: = == != < <= > >=
 *                (no OP: at least one, "hand:R")
 *     COUNT      [board: | hand:] ITEM...          no prefix: board and hands
 *     ITEM       a piece (EPIN, exact: "P" is an unpromoted pawn of the first
 *                player, "+P" a promoted one), '*' (any piece) or a class
 *                "[...]" as in patterns; the items of a COUNT are added up
 * A piece on the board counts for its side by its case; in a hand, for the
 * hand's owner (hand pieces are written in their owner's case). Examples:
 * "hand:R" (the first player has a rook in hand), "board:Pp<3" (fewer than
 * three unpromoted pawns on the board), "Rr+R+r=4", "hand:[A-Z]>hand:[a-z]".
 *
 * Meta condition syntax: KEY OP VALUE, OP one of = != ~ !~ < <= > >=. KEY is a
 * path of member names separated by '.' from the record's root
 * ("sides.first.elo", "meta.headers.棋戦"), a bare name for a member of meta
 * ("event" is meta.event), or one of: "player" (either side's name), "first"
 * or "sente" (sides.first.name), "second" or "gote" (sides.second.name),
 * "date" (meta.started_at, else meta.started_at_local). A key cannot name a
 * member whose name holds '.', '=', '!', '~', '<' or '>'. '=' and '!=' compare
 * text (a number as JSON writes it; numbers also by value); '~' and '!~'
 * match a POSIX extended regular expression (bytes, not characters) anywhere
 * in the text (one whose repetitions could make regcomp copy it more than a
 * million times, or with back references, is refused); '<' '<=' '>' '>=' compare numbers when VALUE is a number and
 * the member a number (or a string holding one), and dates when VALUE is a
 * date ("2020", "2020-05", "2020-05-01", "2020-05-01T12:00"): the member's
 * first as many characters ('/' read as '-'), so "date<2020" is any date of
 * 2019 or before and "date>=2020-05" any from May 2020 on. A member that is
 * missing, or not comparable, fails every condition (also != and !~).
 */
#ifndef KOMA_SELECT_H
#define KOMA_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>
#include <koma/position.h>
#include <koma/feen.h>
#include <koma/cgsn.h>
#include <koma/game.h>
#include <koma/pcn.h>
#include <koma/referee.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest pattern, material specification, meta condition or move list. */
#define KOMA_SELECT_TEXT_MAX 4096

/* koma_pattern_match, koma_material_match flags */
#define KOMA_MATCH_MARKS 1u            /* "'" is part of a piece's identity (Ko shogi):
                                          compared; otherwise ignored */

/* ---- board patterns (select_pattern.c) -------------------------------------------- */

typedef struct koma_pattern koma_pattern;

/* Parse a pattern (syntax above). -1 with err (select.pattern at the offending
 * byte; memory). Ownership: the caller frees *out with koma_pattern_free. */
KOMA_API int koma_pattern_parse(const char *s, size_t len, koma_pattern **out, koma_error *err);
/* Ownership: frees p and what it owns. */
KOMA_API void koma_pattern_free(koma_pattern *p);
/* 1 when pos matches (its board of the pattern's shape, its side to move the
 * pattern's when it gives one), 0 otherwise. Ownership: none. */
KOMA_API int koma_pattern_match(const koma_pattern *p, const koma_position *pos, unsigned flags);

/* ---- material (select_pattern.c) -------------------------------------------------- */

typedef struct koma_material koma_material;

/* Parse a material specification (syntax above). -1 with err (select.material at
 * the offending byte; memory). Ownership: the caller frees *out with koma_material_free. */
KOMA_API int koma_material_parse(const char *s, size_t len, koma_material **out,
                                 koma_error *err);
/* Ownership: frees m and what it owns. */
KOMA_API void koma_material_free(koma_material *m);
/* 1 when every condition holds in pos, 0 otherwise. Ownership: none. */
KOMA_API int koma_material_match(const koma_material *m, const koma_position *pos,
                                 unsigned flags);

/* ---- conditions on a record's members (select_meta.c) ------------------------------ */

typedef struct koma_meta_cond koma_meta_cond;

/* Parse one condition (syntax above; the regular expression is compiled here).
 * -1 with err (select.meta at the offending byte, the regular expression's own
 * message; memory). Ownership: the caller frees *out with koma_meta_cond_free. */
KOMA_API int koma_meta_cond_parse(const char *s, size_t len, koma_meta_cond **out,
                                  koma_error *err);
/* Ownership: frees c and what it owns. */
KOMA_API void koma_meta_cond_free(koma_meta_cond *c);
/* 1 when the record satisfies the condition, 0 otherwise. The record must have
 * its tree (not read with KOMA_PCN_LIGHT). Ownership: none. */
KOMA_API int koma_meta_cond_match(const koma_meta_cond *c, const koma_pcn *rec);

/* ---- game keys (select_keys.c) --------------------------------------------------- */

/*
 * A game key: the first 128 bits of a SHA-256. Two records of one game (same
 * setup position, same plies) have the same key; two different games have
 * different keys but with a chance of about n * n / 2^129 that some two of n
 * distinct games share one (10^9 games: 1.5e-21).
 */
#define KOMA_GAME_KEY_BYTES 16
typedef struct koma_game_key {
    uint8_t b[KOMA_GAME_KEY_BYTES];
} koma_game_key;

/*
 * The key of a game given as its setup FEEN and its plies' texts: the SHA-256
 * of the FEEN and of each ply, each followed by a line feed. With marks 0
 * (every game but Ko shogi) every "'" is left out of the FEEN (then written
 * canonically again: hand items it made equal are merged) and of the plies, so
 * a record with the Jeweled King and one without are one game. -1 with err
 * (the FEEN does not parse; memory). Used through koma_game_key_begin / _ply /
 * _end for plies one at a time.
 */
typedef struct koma_game_key_ctx {
    uint64_t state_[16];               /* (a SHA-256 context) */
    int marks;
} koma_game_key_ctx;
/* Ownership: none. */
KOMA_API int koma_game_key_begin(koma_game_key_ctx *k, const char *feen, size_t len, int marks,
                                 koma_error *err);
/* Ownership: none. */
KOMA_API void koma_game_key_ply(koma_game_key_ctx *k, const char *ply, size_t len);
/* Ownership: none. */
KOMA_API void koma_game_key_end(koma_game_key_ctx *k, koma_game_key *out);

/* A set of game keys: 16 bytes a key in an open-addressing table kept between
 * 3/8 and 3/4 full, so at most 43 bytes a distinct key (64 for the moment the
 * table doubles), whatever the records. */
typedef struct koma_keyset koma_keyset;
/* Ownership: the caller frees *out with koma_keyset_free. */
KOMA_API int koma_keyset_new(koma_keyset **out, koma_error *err);
/* Ownership: frees s and what it owns. */
KOMA_API void koma_keyset_free(koma_keyset *s);
/* Add a key: 1 when it is new, 0 when it was there, -1 with err (memory: the
 * set is unchanged). Ownership: none. */
KOMA_API int koma_keyset_add(koma_keyset *s, const koma_game_key *key, koma_error *err);
/* Keys held, and the bytes their table takes. Ownership: none. */
KOMA_API size_t koma_keyset_count(const koma_keyset *s);
/* Ownership: none. */
KOMA_API size_t koma_keyset_bytes(const koma_keyset *s);

/* ---- the selector (select.c) ------------------------------------------------------ */

typedef struct koma_select koma_select;

/* A selector over the games of `games` (the caller's; it must outlive the
 * selector). With no criterion every record matches.
 * Ownership: the caller frees *out with koma_select_free; games is borrowed until then. */
KOMA_API int koma_select_new(const koma_game_set *games, koma_select **out, koma_error *err);
/* Ownership: frees s and what it owns. */
KOMA_API void koma_select_free(koma_select *s);

/*
 * Position criteria. The record matches when, at some ply it reaches (0 the
 * setup, N the position after ply N, as the rules play it: an illegal ply and
 * what follows it are not reached), within the window, every kind given holds
 * of that one position: one of the positions (by FEEN, or by FID), one of the
 * patterns, one of the material specifications. Positions compare as
 * repetition does (board, hands, side to move; every "'" ignored but in Ko
 * shogi). A FEEN no built-in game plays, or that does not parse, is refused
 * (err: feen.*, game.unknown, game.norules, rules.*); a FID that does not
 * parse (fid.*); patterns and materials as koma_pattern_parse and
 * koma_material_parse. A FID matches the position's FID as written or with
 * every "'" removed.
 * Ownership: none.
 */
KOMA_API int koma_select_position(koma_select *s, const char *feen, size_t len, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_select_fid(koma_select *s, const char *fid, size_t len, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_select_pattern(koma_select *s, const char *pat, size_t len, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_select_material(koma_select *s, const char *spec, size_t len,
                                  koma_error *err);
/* The plies where a position criterion may hold: first..last (inclusive;
 * SIZE_MAX: no end). Default 0..SIZE_MAX. Ownership: none. */
KOMA_API void koma_select_window(koma_select *s, size_t first, size_t last);

/*
 * The record's plies start with these (anywhere 1: hold these, one after the
 * other, somewhere): moves[0..len) is PMN texts separated by blanks or commas,
 * compared as written with the record's plies (give them in canonical PMN, as
 * koma writes a record's plies). Read as text, not through the rules. -1 with
 * err (select.moves: an empty list, a word that is not PMN).
 * Ownership: none.
 */
KOMA_API int koma_select_moves(koma_select *s, const char *moves, size_t len, int anywhere,
                               koma_error *err);
/* A condition on the record's members (koma_meta_cond_parse); all must hold.
 * Ownership: none. */
KOMA_API int koma_select_meta(koma_select *s, const char *cond, size_t len, koma_error *err);
/* The record's game is one of these: its setup fits the game (style, board,
 * pieces), and it is replayed under that game's rules (so ogi-classic selects
 * the Ōgi records and judges them by the classic reading). Ownership: none. */
KOMA_API int koma_select_game(koma_select *s, const koma_game *game, koma_error *err);
/* The verdict of the rules (koma/referee.h: the rules' ending, or the record's
 * own honoured) has one of these results ("1-0", "0-1", "1/2-1/2", "*" for an
 * unfinished game) / one of these statuses (a CGSN status; "none" for a game
 * without one). select.result / select.status for a word that is neither. Ownership: none. */
KOMA_API int koma_select_result(koma_select *s, const char *result, size_t len, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_select_status(koma_select *s, const char *status, size_t len, koma_error *err);
/* The record has min..max plies, as recorded (SIZE_MAX: no maximum). Ownership: none. */
KOMA_API void koma_select_length(koma_select *s, size_t min, size_t max);
/* The verdict disagrees with the record (koma_verdict.disputes). Ownership: none. */
KOMA_API void koma_select_disputed(koma_select *s);

/* The key koma_select_record gives with KOMA_SELECT_KEY: the game (setup and
 * plies: koma_game_key_begin) when ply is SIZE_MAX (the default), otherwise
 * the position reached at that ply (its canonical FEEN, every "'" removed but
 * in Ko shogi; none when the record does not reach it). Ownership: none. */
KOMA_API void koma_select_key_at(koma_select *s, size_t ply);

/* What the selector needs of a record (koma_select_needs). */
#define KOMA_SELECT_NEEDS_TREE  1u     /* the record's tree: not read with KOMA_PCN_LIGHT */
#define KOMA_SELECT_NEEDS_RULES 2u     /* a replay under the rules */
/* Ownership: none. */
KOMA_API unsigned koma_select_needs(const koma_select *s, unsigned flags);

/* koma_select_record flags */
#define KOMA_SELECT_ALL_PLIES 1u       /* every ply where the position criteria hold, not
                                          only the first */
#define KOMA_SELECT_FID       2u       /* the FID of the first such position; with no
                                          position criterion, of the final position
                                          (the record is then replayed) */
#define KOMA_SELECT_KEY       4u       /* the record's key (koma_select_key_at), whether
                                          it matches or not */

/* What koma_select_record found (caller storage; koma_select_record fills it). */
typedef struct koma_selection {
    int matched;                       /* every criterion holds */
    const koma_game *game;             /* the record's game, when known */
    const size_t *plies;               /* the plies where the position criteria held, in */
    size_t nplies;                     /* order (only the first without ALL_PLIES); valid
                                          until the next call */
    char fid[KOMA_FID_BUF];            /* KOMA_SELECT_FID: the FID, or "" */
    int has_key;                       /* KOMA_SELECT_KEY: key holds the key (0: the record
                                          does not reach the key's ply, or cannot be
                                          replayed) */
    koma_game_key key;
    const koma_verdict *verdict;       /* the verdict when the whole record was replayed,
                                          else NULL (valid until the next call) */
    /* A criterion needed the rules and the record cannot be judged: its setup or
     * rule options (unjudged 1), or a ply that is not a move (unreadable 1: the
     * positions before it were searched). problem says why, member where
     * (a JSON pointer: "/setup/feen", "/plies/7/pmn"). matched is then 0 for
     * an unjudged record. */
    int unjudged, unreadable;
    koma_error problem;
    char member[KOMA_VERDICT_POINTER_MAX];
} koma_selection;

/*
 * Test one record (read with KOMA_PCN_LIGHT unless koma_select_needs says
 * NEEDS_TREE). Criteria that need no rules are tested first and alone when
 * they fail (metadata, plies, moves and game read no ply through the rules);
 * a replay stops as soon as nothing it could still find would change the
 * answer. 0 with out filled; -1 with err on trouble (memory).
 * Ownership: none.
 */
KOMA_API int koma_select_record(koma_select *s, const koma_pcn *rec, unsigned flags,
                                koma_selection *out, koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
