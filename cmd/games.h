/*
 * cmd/games.h — the games of the commands: the built-in set, the --game option
 * (a built-in id or a YAML definition file) and a small cache of rule engines,
 * one a game, reused from record to record.
 *
 * A game without rules (a definition without pieces, which only names a game)
 * named on the command line is a usage error, `prog: --game: game.norules: game
 * ID defines no pieces, so it has no rule engine` (koma_game_require_rules);
 * met in the data (a record's setup, a FEEN operand) it is a data diagnostic
 * with the same code, given by the tool.
 */
#ifndef KOMA_CMD_GAMES_H
#define KOMA_CMD_GAMES_H

#include "cli.h"

/* The game of a position when nothing says otherwise (--start start, perft):
 * a choice of the commands, not of the library. */
#define DEFAULT_GAME "ogi"

/* The built-in games into *out. -1 after reporting the trouble (status 2). */
int games_open(cli *c, koma_game_set **out);

/* The game of a built-in id (or of a definition loaded in its place): 0 with
 * *out (NULL: no game has that id), or -1 after reporting (status 2) that it
 * could not be compiled (built-in games are compiled at their first lookup). */
int games_lookup(cli *c, const koma_game_set *games, const char *id, const koma_game **out);

/*
 * --game ARG: a built-in id, or a definition file (a name with '/' or ending in
 * .yaml/.yml) loaded into games. The game must have rules; norules_hint (may
 * be NULL) is added to that usage error, e.g. "(--fid-only needs none)".
 * Returns 0 with *out set, or -1 after reporting (status 2): an unknown game or
 * one without rules (usage errors), a file that cannot be read, an invalid
 * definition.
 */
int games_option(cli *c, koma_game_set *games, const char *arg, const char *norules_hint,
                 const koma_game **out);

#define ENGINE_CACHE_MAX 8

/* Engines for the games met so far (the oldest goes when a ninth is needed). */
typedef struct engine_cache {
    koma_engine *engines[ENGINE_CACHE_MAX];
    size_t n;
} engine_cache;

/* The engine of game g (made on first use); NULL with err (game.norules,
 * memory) when it cannot be made. Its position is whatever the last user left. */
koma_engine *engine_cache_get(engine_cache *ec, const koma_game *g, koma_error *err);
void engine_cache_free(engine_cache *ec);

#endif
