/* lib/games_embedded.h — the built-in game definitions compiled into libkoma. */
#ifndef KOMA_GAMES_EMBEDDED_H
#define KOMA_GAMES_EMBEDDED_H
#include <stddef.h>

struct koma__embedded_game {
    const char *id;        /* file name without .yaml: "ogi", "shogi", ... */
    const char *yaml;      /* the file's bytes (NUL-terminated) */
    size_t len;
};
/* Terminated by an entry whose id is NULL. */
extern const struct koma__embedded_game koma__embedded_games[];

/* What finding a built-in game needs, read from its definition at build time by
 * lib/games/index.c (which compiles every built-in: a broken one fails the
 * build), in the order of koma__embedded_games: a lookup compiles only the game
 * it finds (game_set.c). */
struct koma__game_key {
    const char *id;
    char style;                        /* uppercase */
    char styles[8];                    /* "" when each side uses style */
    unsigned files, ranks;
    int by_feen;
};
extern const struct koma__game_key koma__games_index[];
#endif
