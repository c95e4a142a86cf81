/*
 * tests/bench/gen-records.c — random legal games of one built-in game (Ōgi,
 * shogi, ...) as a PCN JSON Lines database, for the replay benchmark
 * (bench-replay.sh builds it against libkoma.a).
 *
 *   gen-records GAME COUNT [SEED [MAXPLIES]]     > games.jsonl
 *
 * Each game starts from GAME's start position; every ply is a legal move
 * drawn uniformly (xorshift64*, seeded from SEED and the game number, so the
 * output depends only on the arguments) and given to the referee
 * (koma/referee.h), which applies every rule. A move the rules refuse (an
 * illegal repetition, such as Ōgi's: koma_referee_allows) is not played:
 * another is drawn. A game ends when the rules end it (its outcome then holds
 * result, status and ply) or after MAXPLIES plies (default 300; no outcome).
 * The totals go to stderr: "gen-records: GAME: records, plies, finished".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <koma/koma.h>

static uint64_t next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: gen-records GAME COUNT [SEED [MAXPLIES]]\n", stderr);
        return 2;
    }
    const char *id = argv[1];
    unsigned long count = strtoul(argv[2], NULL, 10);
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    unsigned long maxplies = argc > 4 ? strtoul(argv[4], NULL, 10) : 300;
    koma_error err;
    koma_error_clear(&err);
    koma_game_set *games;
    koma_engine *e;
    koma_referee *ref;
    const koma_game *game;
    if (koma_game_set_new(&games, &err) != 0) {
        fprintf(stderr, "gen-records: %s\n", err.message);
        return 2;
    }
    if ((game = koma_game_set_find_id(games, id, strlen(id))) == NULL) {
        fprintf(stderr, "gen-records: no built-in game '%s'\n", id);
        return 2;
    }
    if (koma_engine_new(game, &e, &err) != 0 || koma_referee_new(NULL, &ref, &err) != 0) {
        fprintf(stderr, "gen-records: %s\n", err.message);
        return 2;
    }
    const char *start = koma_game_start(game);
    size_t max = koma_engine_max_moves(e);
    koma_emove *moves = malloc(max * sizeof *moves);
    koma_position pos;
    koma_position_init(&pos);
    if (moves == NULL || koma_feen_parse(start, strlen(start), KOMA_FEEN_STRICT, &pos, &err) != 0)
        return 2;
    koma_verdict *v = malloc(sizeof *v);
    if (v == NULL) return 2;
    v->size = sizeof *v;
    unsigned long long total = 0;
    unsigned long finished = 0;
    for (unsigned long g = 0; g < count; g++) {
        uint64_t s = (seed * 0x9E3779B97F4A7C15ull) ^ (g + 1) * 0xD1B54A32D192ED03ull;
        if (s == 0) s = 1;
        if (koma_engine_set_start(e, &err) != 0 || koma_referee_begin(ref, game, &pos, &err) != 0)
            return 2;
        printf("{\"setup\":{\"feen\":\"%s\"},\"plies\":[", start);
        unsigned long n = 0;
        while (n < maxplies && !koma_referee_over(ref)) {
            size_t k = koma_engine_legal_moves(e, moves);
            int played = 0;
            while (k > 0 && !played) {
                size_t i = (size_t)(next(&s) % k);
                char b[KOMA_MOVE_TEXT_BUF];
                size_t len = koma_engine_move_text(e, moves[i], b, sizeof b);
                int ok = koma_referee_allows(ref, b, len, &err);
                if (ok < 0) return 2;
                if (ok) {
                    if (koma_referee_ply(ref, b, len, &err) != KOMA_PLY_PLAYED ||
                        koma_engine_make(e, moves[i], &err) != 0)
                        return 2;
                    printf("%s{\"pmn\":\"%s\"}", n ? "," : "", b);
                    n++;
                    played = 1;
                } else {
                    /* refused (an illegal repetition): draw another */
                    moves[i] = moves[--k];
                }
            }
            if (!played) break;        /* no legal move left that the rules allow */
        }
        fputs("]", stdout);
        if (koma_referee_over(ref)) {
            if (koma_referee_finish(ref, v, &err) != 0) return 2;
            printf(",\"outcome\":{\"result\":\"%s\",\"status\":\"%s\",\"ply\":%lu}",
                   v->result_text, koma_cgsn_name(v->status), n);
            finished++;
        }
        fputs("}\n", stdout);
        total += n;
    }
    fprintf(stderr, "gen-records: %s: %lu records, %llu plies, %lu finished\n", id, count, total,
            finished);
    free(moves);
    free(v);
    koma_position_cleanup(&pos);
    koma_referee_free(ref);
    koma_engine_free(e);
    koma_game_set_free(games);
    return ferror(stdout) ? 2 : 0;
}
