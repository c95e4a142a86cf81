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
#endif
