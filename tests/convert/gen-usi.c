/*
 * tests/convert/gen-usi.c — random legal games for the cross-tests:
 *   gen-usi SEED GAMES MAXPLIES                  Shogi, USI position commands
 *                                                (sfen-cross.sh, make bench)
 *   gen-usi SEED GAMES MAXPLIES GAME fen         GAME's moves in Fairy-Stockfish
 *                                                notation, one a line, a blank
 *                                                line after each game (fen-cross.sh)
 * Moves are drawn uniformly from koma's legal moves (a game stops early when
 * the side to move has none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <koma/koma.h>

static unsigned long long rng;

static unsigned long long next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: gen-usi SEED GAMES MAXPLIES [GAME fen]\n");
        return 2;
    }
    rng = strtoull(argv[1], NULL, 10) * 2654435761u + 88172645463325252ull;
    long games = atol(argv[2]), maxplies = atol(argv[3]);
    koma_error err;
    koma_game_set *set;
    koma_engine *e;
    if (koma_game_set_new(&set, &err) != 0) return 2;
    const char *id = argc == 6 ? argv[4] : "shogi";
    int fen = argc == 6;
    const koma_game *g = koma_game_set_find_id(set, id, strlen(id));
    if (g == NULL || koma_engine_new(g, &e, &err) != 0) return 2;
    koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    koma_position pos;
    koma_position_init(&pos);
    if (moves == NULL) return 2;
    for (long n = 0; n < games; n++) {
        koma_engine_set_start(e, &err);
        if (!fen) fputs("position startpos moves", stdout);
        long plies = 1 + (long)(next() % (unsigned long long)maxplies);
        for (long p = 0; p < plies; p++) {
            size_t k = koma_engine_legal_moves(e, moves);
            if (k == 0) break;
            koma_emove m = moves[next() % k];
            koma_move mv;
            char usi[16];
            koma_engine_move_pmn(e, m, &mv);
            if (koma_engine_get_position(e, &pos, &err) != 0 ||
                (fen ? koma_fen_move_write(&pos, &mv, usi, sizeof usi, &err)
                     : koma_usi_move_write(&pos, &mv, usi, sizeof usi, &err)) == 0)
                return 2;
            printf(fen ? "%s\n" : " %s", usi);
            if (koma_engine_make(e, m, &err) != 0) return 2;
        }
        putchar('\n');
    }
    koma_position_cleanup(&pos);
    free(moves);
    koma_engine_free(e);
    koma_game_set_free(set);
    return 0;
}
