/* cmd/games.c — the built-in games, --game, and the engine cache (see games.h). */
#include "games.h"

#include <stdlib.h>
#include <string.h>

int games_open(cli *c, koma_game_set **out)
{
    koma_error err;
    koma_error_clear(&err);
    if (koma_game_set_new(out, &err) == 0) return 0;
    cli_trouble(c, "built-in games: %s: %s", koma_code_name(err.code), err.message);
    return -1;
}

int games_lookup(cli *c, const koma_game_set *games, const char *id, const koma_game **out)
{
    koma_error err;
    koma_error_clear(&err);
    if (koma_game_set_lookup(games, id, strlen(id), out, &err) == 0) return 0;
    cli_trouble(c, "built-in games: %s: %s", koma_code_name(err.code), err.message);
    return -1;
}

/* A name that is meant as a file rather than a built-in id. */
static int names_a_file(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') != NULL || (n > 5 && strcmp(arg + n - 5, ".yaml") == 0) ||
           (n > 4 && strcmp(arg + n - 4, ".yml") == 0);
}

int games_option(cli *c, koma_game_set *games, const char *arg, const char *norules_hint,
                 const koma_game **out)
{
    koma_error err;
    koma_error_clear(&err);
    if (games_lookup(c, games, arg, out) != 0) return -1;
    if (*out == NULL) {
        if (!names_a_file(arg)) {
            cli_usage_error(c, "unknown game '%s' (" KOMA_GAME_IDS ", or a FILE.yaml)", arg);
            return -1;
        }
        if (koma_game_set_load_file(games, arg, out, &err) != 0) {
            if (err.code == KOMA_E_IO_OPEN || err.code == KOMA_E_IO_READ)
                cli_io_error(c, arg, err.code == KOMA_E_IO_OPEN ? 0 : 1, koma_code_name(err.code),
                             err.message);
            else
                cli_diag_error(c, CLI_TROUBLE, arg, &err, NULL);
            return -1;
        }
    }
    if (koma_game_require_rules(*out, &err) != 0) {
        cli_usage_error(c, "--game: %s: %s%s%s", koma_code_name(err.code), err.message,
                        norules_hint ? " " : "", norules_hint ? norules_hint : "");
        return -1;
    }
    return 0;
}

koma_engine *engine_cache_get(engine_cache *ec, const koma_game *g, koma_error *err)
{
    for (size_t i = 0; i < ec->n; i++)
        if (koma_engine_game(ec->engines[i]) == g) return ec->engines[i];
    koma_engine *e;
    if (koma_engine_new(g, &e, err) != 0) return NULL;
    if (ec->n == ENGINE_CACHE_MAX) {
        koma_engine_free(ec->engines[0]);
        memmove(ec->engines, ec->engines + 1, (ENGINE_CACHE_MAX - 1) * sizeof ec->engines[0]);
        ec->n--;
    }
    ec->engines[ec->n++] = e;
    return e;
}

void engine_cache_free(engine_cache *ec)
{
    for (size_t i = 0; i < ec->n; i++) koma_engine_free(ec->engines[i]);
    ec->n = 0;
}
