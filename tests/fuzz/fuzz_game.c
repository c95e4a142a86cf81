/*
 * tests/fuzz/fuzz_game.c — libFuzzer harness for game definitions (YAML, as
 * `--game FILE.yaml` loads them: koma_game_set_load, lib/game.c, lib/betza.c).
 *
 * The input is loaded into a fresh set (the built-in games). A refused input
 * leaves the set as it was and carries a code other than ok, a line and column
 * of at least 1, the source name, and a printable message. An accepted input
 * is in the set under its id (or style and shape) with the fields it gave; its
 * start FEEN reads strictly and has the game's shape and styles. A playable
 * game gets an engine, which must take the start position; on it every
 * invariant of engine_checks.h (legal moves, make/unmake, hash, ending, perft
 * and the GGN-driven generator fed koma_game_to_ggn's document), then perft(2)
 * when the first ply is small, and the same checks after each of a few first
 * moves and along a playout of PLAYOUT plies drawn by the input's hash (then
 * taken back to the start).
 *
 * Work stays bounded: the export by the library (game.limit past what a
 * 16 MiB document holds), the rest by the harness: the GGN cross-check only
 * for documents of at most GGN_MAX possibilities, perft(2) only when the first
 * ply has at most PERFT2_MAX moves (the engine has no bound of its own that
 * keeps perft(2) cheap on a 26x26 board full of riders).
 */

#include <koma/koma.h>
#include "fuzz.h"
#include "engine_internal.h"
#include "engine_checks.h"
#include "util_json_pos.h"

#define GGN_MAX 100000u                /* possibilities for the GGN cross-check */
#define PERFT2_MAX 300u                /* first-ply moves for perft(2) */
#define FIRST_MOVES 4u                 /* first moves whose positions are checked too */
#define PLAYOUT 16u                    /* plies of the playout */

static const char *const source = "fuzz.yaml";

/* An upper bound of the possibilities koma_game_to_ggn makes for g: two a
 * reachable board destination, one a drop square. */
static unsigned long ggn_size(const koma_game *g)
{
    unsigned long n = 0, squares = (unsigned long)g->files * g->ranks;
    unsigned long longest = g->files > g->ranks ? g->files : g->ranks;
    for (unsigned k = 0; k < g->nkinds; k++) {
        for (unsigned v = 0; v < g->kinds[k].nvec; v++) {
            unsigned long r = g->kinds[k].vec[v].range;
            n += 2 * squares * (r == 0 || r > longest ? longest : r);
        }
        n += squares;
    }
    return 2 * n;
}

static void check_error(const koma_error *err, size_t size)
{
    check_message(err);
    CHECK(err->line >= 1 && err->column >= 1);
    CHECK(err->offset <= size);
    CHECK(err->code == KOMA_E_MEMORY || err->source == source);
}

static void check_game(const koma_game_set *set, const koma_game *g)
{
    check_game_id(set, g);
    CHECK(koma_game_files(g) >= 1 && koma_game_ranks(g) >= 2);
    char style = koma_game_style(g);
    CHECK(style >= 'A' && style <= 'Z');
    const koma_game *by_style = koma_game_set_find_style(set, style, koma_game_files(g),
                                                         koma_game_ranks(g));
    CHECK(by_style != NULL && koma_game_style(by_style) == style);
    const char *start = koma_game_start(g);
    if (start == NULL) {
        CHECK(!koma_game_playable(g));
        return;
    }
    koma_position pos;
    parse_game_start(g, start, &pos);
    CHECK(pos.style[0] == style && pos.style[1] == style - 'A' + 'a');
    koma_position_cleanup(&pos);
}

static void play_game(const koma_game *g, uint64_t seed)
{
    koma_error err;
    koma_engine *e;
    if (koma_engine_new(g, &e, &err) != 0) {
        if (err.code == KOMA_E_MEMORY) return;
        fprintf(stderr, "fuzz_game: no engine for an accepted game: %s %s\n",
                koma_code_name(err.code), err.message);
        abort();
    }
    /* the export is bounded by the library (game.limit); the cross-check with
     * the GGN-driven generator only on the smaller documents */
    koma_ggn *ggn = NULL;
    koma_game_to_ggn(g, &ggn, &err);
    if (ggn == NULL) {
        CHECK(err.code == KOMA_E_MEMORY || err.code == KOMA_E_GAME_LIMIT || err.code == KOMA_E_GAME_GGN);
        check_message(&err);
    } else {
        CHECK(koma_ggn_piece_count(ggn) <= 2u * g->nkinds);
        CHECK(koma_ggn_possibility_count(ggn) <= ggn_size(g));
        CHECK(koma_ggn_possibility_count(ggn) <= KOMA_RECORD_MAX / 35);
        if (koma_ggn_possibility_count(ggn) > GGN_MAX) {
            koma_ggn_free(ggn);
            ggn = NULL;
        }
    }
    checker c;
    if (checker_init(&c, e, ggn) == 0) {
        check_position(&c);
        size_t n = c.a.n;
        if (n > 0 && n <= PERFT2_MAX) {
            uint64_t nodes;
            CHECK(koma_engine_perft(e, 2, &nodes, &err) == 0 || err.code == KOMA_E_MEMORY);
        }
        /* a few first moves, and the positions they reach */
        koma_emove *first = malloc(koma_engine_max_moves(e) * sizeof *first);
        CHECK(first != NULL);
        size_t nfirst = koma_engine_legal_moves(e, first);
        CHECK(nfirst == n);
        for (size_t i = 0; i < nfirst && i < FIRST_MOVES; i++) {
            size_t pick = i * 7919u % nfirst;
            CHECK(koma_engine_make(e, first[pick], &err) == 0);
            check_position(&c);
            CHECK(koma_engine_unmake(e) == 0);
        }
        /* a playout, its moves drawn by the input's hash, checked at every ply
         * (promotions, captures into the hand and drops of the game's rules) */
        char start[KOMA_FEEN_MAX_LEN + 1], now[KOMA_FEEN_MAX_LEN + 1];
        engine_feen(e, start);
        uint64_t start_hash = koma_engine_hash(e), r = seed;
        for (unsigned ply = 0; ply < PLAYOUT; ply++) {
            size_t k = koma_engine_legal_moves(e, first);
            if (k == 0) break;
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            CHECK(koma_engine_make(e, first[(r >> 33) % k], &err) == 0);
            check_position(&c);
        }
        while (koma_engine_ply(e) > 0) CHECK(koma_engine_unmake(e) == 0);
        engine_feen(e, now);
        CHECK(strcmp(start, now) == 0 && koma_engine_hash(e) == start_hash);
        free(first);
        checker_cleanup(&c);
    }
    koma_ggn_free(ggn);
    koma_engine_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    CHECK(koma_game_set_new(&set, &err) == 0);
    size_t count = koma_game_set_count(set);
    const koma_game *before[16];
    CHECK(count <= 16);
    for (size_t i = 0; i < count; i++) before[i] = koma_game_set_at(set, i);

    const koma_game *g = NULL;
    if (koma_game_set_load(set, (const char *)data, size, source, &g, &err) != 0) {
        check_error(&err, size);
        CHECK(g == NULL);
        CHECK(koma_game_set_count(set) == count);
        for (size_t i = 0; i < count; i++) CHECK(koma_game_set_at(set, i) == before[i]);
        koma_game_set_free(set);
        return 0;
    }
    CHECK(g != NULL);
    check_game(set, g);
    /* a second load of the same text: a duplicate (only built-ins are replaced) */
    const koma_game *again = NULL;
    CHECK(koma_game_set_load(set, (const char *)data, size, source, &again, &err) != 0);
    CHECK(err.code == KOMA_E_GAME_DUPLICATE && again == NULL);
    check_error(&err, size);
    uint64_t seed = 14695981039346656037ull;       /* FNV-1a of the input */
    for (size_t i = 0; i < size; i++) seed = (seed ^ data[i]) * 1099511628211ull;
    if (koma_game_playable(g)) play_game(g, seed);
    else CHECK(koma_game_to_ggn(g, &(koma_ggn *){NULL}, &err) == -1 && err.code == KOMA_E_GAME_NO_RULES);
    koma_game_set_free(set);
    return 0;
}
