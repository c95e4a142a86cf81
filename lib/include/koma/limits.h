/*
 * koma/limits.h — the one source of what every koma tool shares: the limits
 * (each with its own diagnostic code; koma(7) lists them; the version is
 * koma/version.h's).
 * Each limit has one name, KOMA_LIMIT_*, used everywhere (libkoma(3),
 * CONVENTIONS); a buffer that holds a text at its limit is KOMA_*_BUF, the
 * limit plus one. Never type the numbers again.
 */
#ifndef KOMA_LIMITS_H
#define KOMA_LIMITS_H

#include <stddef.h>

/* A record or document (a JSON line, a YAML document, a GGN document, a
 * foreign record): 16 MiB (pcn.size, ggn.size, convert.size). */
#define KOMA_LIMIT_RECORD ((size_t)16 * 1024 * 1024)
/* Nesting of JSON and YAML, game definitions included (the record object is
 * level 1): 64 (pcn.depth, game.yaml). */
#define KOMA_LIMIT_DEPTH 64u
/* A line of a line format (FEEN, PMN, SFEN, ...): 1 MiB (line.length). */
#define KOMA_LIMIT_LINE ((size_t)1024 * 1024)
/* A game definition file (--game FILE.yaml): 1 MiB (game.yaml). */
#define KOMA_LIMIT_GAME_FILE ((size_t)1024 * 1024)
/* Plies of one record, counted while parsing: 65,536 (pcn.plies.limit). */
#define KOMA_LIMIT_PLIES 65536u
/* A move's text, a PMN move or a chain of them (Ko shogi): 256 bytes
 * (pmn.chain.length); a verdict keeps a move's text whole. */
#define KOMA_LIMIT_MOVE_TEXT 256
/* What one record's tree of values may take in memory while it is read (bytes
 * held, pcn.memory.limit): a few times the record's text at most, whatever its
 * shape: 48 MiB. */
#define KOMA_LIMIT_TREE ((size_t)48 * 1024 * 1024)

/* Game definitions: the board of a game with rules (the rule engine's),
 * 26 files and 26 ranks (game.limit); an id, 32 bytes (game.field); a
 * piece's name, 47 bytes (game.field). A game's name is a style name (SNN,
 * 32 bytes: snn.length). */
#define KOMA_LIMIT_GAME_FILES 26
#define KOMA_LIMIT_GAME_RANKS 26
#define KOMA_LIMIT_GAME_ID 32
#define KOMA_LIMIT_PIECE_NAME 47

#endif
