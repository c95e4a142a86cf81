/*
 * tests/fuzz/fuzz_game_yaml.c — libFuzzer harness for `--game FILE.yaml` exactly
 * as the tools load it (cmd/games.c): the input is a file, read by
 * koma_game_set_load_file into the set of built-in games (its 1 MiB cap, the
 * nesting pre-scan, libyaml, the game reader and, for `engine: effects`, the
 * rules compiler of fx_def.c), then, as the tools go on, an engine made for a
 * game with rules and the moves of its start position.
 *
 * Checked: a refused file leaves the set as it was and carries a known code,
 * a printable message, the file's name (memory aside) and a line and column
 * of at least 1 (not past the input); a loaded game is found by its id, with
 * an id of at most KOMA_LIMIT_GAME_ID bytes, a board within the limits, and a
 * start FEEN of its shape; an engine is made for it (or memory) and ends or
 * has moves on its start position; without rule options it is its own variant.
 * Nothing is timed: a file of any shape is loaded or refused (libFuzzer's
 * -timeout catches a quadratic path, as 200,000 '[' once were).
 *
 * Cheaper than fuzz_game (which plays every accepted game): the built-in set
 * is made once, and again only after a file was loaded into it (a refused file
 * leaves it unchanged, which is checked).
 */
#include <unistd.h>

#include <koma/koma.h>
#include "fuzz.h"
#include "engine_checks.h"

static koma_game_set *set;
static size_t builtins;
static char path[64];

static void check_refusal(const koma_error *err, size_t size)
{
    check_message(err);
    if (err->code == KOMA_E_MEMORY) return;
    CHECK(err->source != NULL && strcmp(err->source, path) == 0);
    CHECK(err->line >= 1 && err->column >= 1);
    CHECK(err->offset <= size);
}

static void check_loaded(const koma_game *g)
{
    check_game_id(set, g);
    CHECK(koma_game_files(g) >= 1 && koma_game_files(g) <= KOMA_MAX_DIMENSION);
    CHECK(koma_game_ranks(g) >= 2 && koma_game_ranks(g) <= KOMA_MAX_DIMENSION);
    const char *start = koma_game_start(g);
    if (!koma_game_playable(g)) return;        /* the tools stop here: game.norules */
    CHECK(koma_game_files(g) <= KOMA_LIMIT_GAME_FILES && koma_game_ranks(g) <= KOMA_LIMIT_GAME_RANKS);
    CHECK(start != NULL);
    koma_position pos;
    koma_error err;
    parse_game_start(g, start, &pos);
    koma_position_cleanup(&pos);
    const koma_game *v;
    if (koma_game_set_variant(set, g, NULL, 0, &v, &err) == 0)
        CHECK(koma_game_option_count(g) > 0 || v == g);
    else
        CHECK(err.code == KOMA_E_MEMORY || (koma_game_option_count(g) == 0 &&
                                            err.code == KOMA_E_GAME_OPTION_UNKNOWN));
    koma_engine *e;
    if (koma_engine_new(g, &e, &err) != 0) {
        CHECK(err.code == KOMA_E_MEMORY);
        return;
    }
    koma_emove *moves = malloc((koma_engine_max_moves(e) + 1) * sizeof *moves);
    CHECK(moves != NULL);
    size_t n = koma_engine_legal_moves(e, moves);
    CHECK(n <= koma_engine_max_moves(e));
    koma_ending end;
    koma_engine_position_ending(e, &end);
    CHECK(end.over ? n == 0 : 1);
    free(moves);
    koma_engine_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    koma_error err;
    if (set == NULL) {
        snprintf(path, sizeof path, "/tmp/fuzz_game_yaml.%ld.yaml", (long)getpid());
        CHECK(koma_game_set_new(&set, &err) == 0);
        builtins = koma_game_set_count(set);
    }
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK(fwrite(data, 1, size, f) == size);
    CHECK(fclose(f) == 0);
    const koma_game *before[16];
    CHECK(builtins <= 16);
    for (size_t i = 0; i < builtins; i++) before[i] = koma_game_set_at(set, i);

    const koma_game *g = NULL;
    koma_error_clear(&err);
    if (koma_game_set_load_file(set, path, &g, &err) != 0) {
        check_refusal(&err, size);
        CHECK(g == NULL);
        CHECK(koma_game_set_count(set) == builtins);
        for (size_t i = 0; i < builtins; i++) CHECK(koma_game_set_at(set, i) == before[i]);
    } else {
        CHECK(g != NULL);
        check_loaded(g);
        /* the next input finds the built-in set again */
        koma_game_set_free(set);
        CHECK(koma_game_set_new(&set, &err) == 0);
    }
    unlink(path);
    return 0;
}
