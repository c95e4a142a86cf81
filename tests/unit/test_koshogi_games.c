/*
 * tests/unit/test_koshogi_games.c — random Ko shogi games through the public API
 * (koma/engine.h and the referee of koma/referee.h): thousands of seeded random
 * games never reach an internal error, every ply the engine lists is one the
 * referee applies as canonical, and every game ends by a rule of the game
 * (koma-games(7): the survival test, the fourfold repetition) or at this test's
 * own ply cap (a cap of the test, not a rule of the game).
 *
 * The same playouts write the sample database tests/data/koshogi/games.jsonl
 * when KOMA_KOSHOGI_SAMPLES names a file (see tests/data/README.md).
 */
#include "unit.h"

#include <stdlib.h>

#define GAMES 2000                     /* engine-only games (make/unmake, endings) */
#define JUDGED 150                     /* of them, also ply by ply through the referee */
#define CAP 200                        /* the test's ply cap */

static koma_game_set *games;
static const koma_game *ko;

static int setup(void **state)
{
    (void)state;
    koma_error err;
    if (koma_game_set_new(&games, &err) != 0) return -1;
    ko = koma_game_set_find_id(games, "koshogi", 7);
    return ko ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    koma_game_set_free(games);
    return 0;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random legal move, captures and promotions preferred (games that end). */
static koma_emove pick(koma_engine *e, const koma_emove *moves, size_t n)
{
    static unsigned weight[4096];
    unsigned total = 0;
    for (size_t i = 0; i < n && i < 4096; i++) {
        koma_move_facts f;
        koma_engine_move_facts(e, moves[i], &f);
        unsigned w = 1 + 40 * f.captures;  /* captures, shots, burns */
        weight[i] = w;
        total += w;
    }
    unsigned r = (unsigned)(next() % total);
    for (size_t i = 0; i < n; i++) {
        if (r < weight[i]) return moves[i];
        r -= weight[i];
    }
    return moves[n - 1];
}

typedef struct tally {
    unsigned mareking, repetition, nomove, capped;
    unsigned long plies;
} tally;

/* One game from the start: its plies' texts in plies[] (when not NULL), the
 * ending in *end (over = 0: the cap). */
static size_t play(koma_engine *e, koma_referee *ref, char (*plies)[KOMA_MOVE_TEXT_BUF],
                   koma_ending *end)
{
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_set_start(e, &err), 0);
    size_t cap = koma_engine_max_moves(e);
    koma_emove *moves = malloc(cap * sizeof *moves);
    assert_non_null(moves);
    size_t ply = 0;
    memset(end, 0, sizeof *end);
    while (ply < CAP) {
        koma_engine_position_ending(e, end);
        if (end->over) break;
        size_t n = koma_engine_legal_moves(e, moves);
        assert_true(n > 0 && n <= cap);
        koma_emove m = pick(e, moves, n);
        char t[KOMA_MOVE_TEXT_BUF];
        size_t tl = koma_engine_move_text(e, m, t, sizeof t);
        assert_true(tl > 0 && tl < sizeof t);
        /* the text names that move, and is canonical: the chain reader agrees */
        koma_emove back;
        if (koma_engine_parse_move(e, t, tl, &back, &err) != 0) fail_msg("%s: %s", t, err.message);
        assert_int_equal(back, m);
        if (ref) {
            koma_error why;
            koma_error_clear(&why);
            int st = koma_referee_ply(ref, t, tl, &why);
            if (st != KOMA_PLY_PLAYED) fail_msg("ply %zu %s: referee %d: %s", ply + 1, t, st, why.message);
        }
        if (plies) memcpy(plies[ply], t, tl + 1);
        uint64_t h = koma_engine_hash(e);
        assert_int_equal(koma_engine_make(e, m, &err), 0);
        ply++;
        /* make/unmake restores the position */
        if (ply % 16 == 0) {
            uint64_t after = koma_engine_hash(e);
            assert_int_equal(koma_engine_unmake(e), 0);
            assert_int_equal(koma_engine_hash(e), h);
            assert_int_equal(koma_engine_make(e, m, &err), 0);
            assert_int_equal(koma_engine_hash(e), after);
        }
        if (ref && koma_referee_over(ref)) break;
    }
    if (!end->over && ply < CAP) koma_engine_position_ending(e, end);
    free(moves);
    return ply;
}

/* ---- the sample database ------------------------------------------------------------ */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_record(FILE *f, const char *name, const char *feen, char (*plies)[KOMA_MOVE_TEXT_BUF],
                         size_t n, const char *result, const char *status, size_t at)
{
    fputs("{\"meta\":{\"name\":", f);
    json_string(f, name);
    fputs("},\"setup\":{\"feen\":", f);
    json_string(f, feen);
    fputs("},\"plies\":[", f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",{\"pmn\":" : "{\"pmn\":", f);
        json_string(f, plies[i]);
        fputc('}', f);
    }
    fputc(']', f);
    if (result) {
        fputs(",\"outcome\":{\"result\":", f);
        json_string(f, result);
        if (status) {
            fputs(",\"status\":", f);
            json_string(f, status);
            fprintf(f, ",\"ply\":%zu", at);
        }
        fputc('}', f);
    }
    fputs("}\n", f);
}

/* ---- the tests ------------------------------------------------------------------------ */

static void test_playouts(void **state)
{
    (void)state;
    koma_engine *e;
    koma_error err;
    assert_int_equal(koma_engine_new(ko, &e, &err), 0);
    koma_referee *ref;
    assert_int_equal(koma_referee_new(NULL, &ref, &err), 0);
    koma_position start;
    koma_position_init(&start);
    const koma_game *g = ko;
    const char *sf = koma_game_start(ko);
    assert_int_equal(koma_game_set_open_feen(games, sf, strlen(sf), &start, &g, &err), 0);

    const char *out = getenv("KOMA_KOSHOGI_SAMPLES");
    FILE *samples = out ? fopen(out, "w") : NULL;
    if (out && samples == NULL) fail_msg("cannot write %s", out);
    static char plies[CAP + 1][KOMA_MOVE_TEXT_BUF];
    unsigned written_mareking = 0, written_recorded = 0, written_illegal = 0;

    tally t = {0, 0, 0, 0, 0};
    for (unsigned i = 0; i < GAMES; i++) {
        int judged = i < JUDGED;
        if (judged) assert_int_equal(koma_referee_begin(ref, ko, &start, &err), 0);
        koma_ending end;
        size_t n = play(e, judged ? ref : NULL, plies, &end);
        t.plies += n;
        if (!end.over) {
            assert_int_equal(n, CAP);
            t.capped++;
        } else if (end.status == KOMA_STATUS_MAREKING) {
            t.mareking++;
            /* the mover of the last ply won (its captures resolve first) */
            int mover = n % 2 == 1 ? KOMA_FIRST : KOMA_SECOND;
            assert_int_equal(end.result, mover == KOMA_FIRST ? KOMA_RESULT_FIRST : KOMA_RESULT_SECOND);
        } else {
            fail_msg("game %u ended by %s at ply %zu", i, koma_cgsn_name(end.status), n);
        }
        if (judged) {
            koma_verdict v = KOMA_VERDICT_INIT;
            assert_int_equal(koma_referee_finish(ref, &v, &err), 0);
            assert_int_equal(v.played, n);
            if (end.over) {
                assert_int_equal(v.kind, KOMA_VERDICT_RULES);
                assert_int_equal(v.status, end.status);
                assert_int_equal(v.result, end.result);
                assert_int_equal(v.ply, n);
            } else {
                assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
            }
        }
        if (samples == NULL) continue;
        char name[128];
        if (end.over && written_mareking < 6 && n >= 20) {
            snprintf(name, sizeof name, "Ko shogi: random game %u, the survival test at ply %zu", i, n);
            write_record(samples, name, sf, plies, n, end.result == KOMA_RESULT_FIRST ? "1-0" : "0-1",
                         "mareking", n);
            written_mareking++;
        } else if (!end.over && written_recorded < 3) {
            /* cut short, with a recorded ending at the cut */
            static const char *st[] = {"resignation", "timelimit", "agreement"};
            size_t at = 40 + 20 * written_recorded;
            const char *res = written_recorded == 2 ? "1/2-1/2" : (at % 2 ? "1-0" : "0-1");
            snprintf(name, sizeof name, "Ko shogi: random game %u, %s after ply %zu", i,
                     st[written_recorded], at);
            write_record(samples, name, sf, plies, at, res, st[written_recorded], at);
            written_recorded++;
        } else if (!end.over && written_illegal < 1) {
            /* a ply no legal move matches (a general two points away) */
            size_t at = 31;
            snprintf(plies[at - 1], KOMA_MOVE_TEXT_BUF, "%s", "j19-j17");
            snprintf(name, sizeof name, "Ko shogi: random game %u, an illegal ply %zu", i, at);
            write_record(samples, name, sf, plies, at, at % 2 ? "0-1" : "1-0", "illegalmove", at);
            written_illegal++;
        }
    }
    if (samples) fclose(samples);
    print_message("koshogi playouts: %u games (%u through the referee), %lu plies: %u ended by "
                  "the survival test, %u by repetition, %u at the cap of %d plies\n",
                  GAMES, JUDGED, t.plies, t.mareking, t.repetition, t.capped, CAP);
    assert_int_equal(t.mareking + t.repetition + t.capped, GAMES);
    assert_true(t.mareking > 0);
    koma_position_cleanup(&start);
    koma_referee_free(ref);
    koma_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_playouts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
