/*
 * tests/fuzz/fuzz_koshogi.c — libFuzzer harness for Ko shogi played through
 * koma/engine.h (the effect engine) and judged by the referee.
 *
 * Input: lines. The first is a FEEN: the game starts there when it is a Ko
 * shogi position the engine takes, else at the start. Each further line is a
 * ply: `#N` plays legal move N (modulo their number), anything else is read
 * as a move text (a PMN chain).
 *
 * Invariants checked (abort() on violation):
 *  - every legal move's text is at most KOMA_LIMIT_MOVE_TEXT bytes, parses as a
 *    chain, and koma_engine_parse_move finds that very move; perft(1) is the
 *    number of legal moves; the texts are distinct;
 *  - a text the engine refuses gets a diagnostic (known code, printable
 *    message); one it accepts is played, and unmake restores the hash, make
 *    gives the same hash again;
 *  - the referee, fed the same plies, plays (PLAYED) every ply the engine
 *    accepts, and none it refuses; it is over when the engine's position has
 *    ended (it may end earlier: the repetition rule);
 *  - koma_engine_threatens and koma_engine_position_ending never fail.
 */
#include "fuzz.h"

#define MAX_PLIES 64

static koma_game_set *games;
static const koma_game *ko;
static koma_engine *e;
static koma_referee *ref;
static koma_emove *moves;

static void init(void)
{
    koma_error err;
    CHECK(koma_game_set_new(&games, &err) == 0);
    ko = koma_game_set_find_id(games, "koshogi", 7);
    CHECK(ko != NULL);
    CHECK(koma_engine_new(ko, &e, &err) == 0);
    CHECK(koma_referee_new(NULL, &ref, &err) == 0);
    moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    CHECK(moves != NULL);
}

static int next_line(const char *text, size_t size, size_t *at, const char **line, size_t *len)
{
    if (*at >= size) return 0;
    const char *p = text + *at;
    const char *nl = memchr(p, '\n', size - *at);
    size_t n = nl ? (size_t)(nl - p) : size - *at;
    *line = p;
    *len = n;
    *at += n + (nl != NULL);
    return 1;
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The legal moves: each text parses back to its move; perft(1) agrees. */
static size_t check_moves(void)
{
    koma_error err;
    size_t n = koma_engine_legal_moves(e, moves);
    CHECK(n <= koma_engine_max_moves(e));
    static char texts[4096][KOMA_MOVE_TEXT_BUF];
    static char *order[4096];
    CHECK(n <= 4096);
    for (size_t i = 0; i < n; i++) {
        size_t tl = koma_engine_move_text(e, moves[i], texts[i], sizeof texts[i]);
        CHECK(tl > 0 && tl <= KOMA_LIMIT_MOVE_TEXT);
        koma_chain c;
        CHECK(koma_chain_parse(texts[i], tl, &c, &err) == 0);
        koma_emove back;
        CHECK(koma_engine_parse_move(e, texts[i], tl, &back, &err) == 0);
        CHECK(back == moves[i]);
        order[i] = texts[i];
    }
    qsort(order, n, sizeof order[0], cmp_text);
    for (size_t i = 1; i < n; i++) CHECK(strcmp(order[i - 1], order[i]) != 0);
    uint64_t nodes;
    CHECK(koma_engine_perft(e, 1, &nodes, &err) == 0);
    CHECK(nodes == n);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (games == NULL) init();
    char *text = fuzz_copy(data, size);
    if (text == NULL) return 0;
    size_t at = 0;
    const char *line;
    size_t len;
    koma_error err;

    /* the setup */
    koma_position pos;
    koma_position_init(&pos);
    int set = next_line(text, size, &at, &line, &len) &&
              koma_feen_parse(line, len, KOMA_FEEN_STRICT, &pos, &err) == 0 &&
              koma_engine_set_position(e, &pos, &err) == 0;
    if (!set) CHECK(koma_engine_set_start(e, &err) == 0);
    CHECK(koma_engine_get_position(e, &pos, &err) == 0);
    CHECK(koma_referee_begin(ref, ko, &pos, &err) == 0);
    koma_position_cleanup(&pos);

    for (int ply = 0; ply < MAX_PLIES && next_line(text, size, &at, &line, &len); ply++) {
        koma_ending end;
        koma_engine_position_ending(e, &end);
        (void)koma_engine_threatens(e, KOMA_FIRST);
        (void)koma_engine_threatens(e, KOMA_SECOND);
        size_t n = check_moves();
        if (end.over) {
            CHECK(n == 0);
            CHECK(koma_referee_over(ref));
            break;
        }
        CHECK(n > 0);
        if (koma_referee_over(ref)) break;      /* the repetition rule ended it */

        char buf[KOMA_MOVE_TEXT_BUF];
        const char *ply_text = line;
        size_t ply_len = len;
        koma_emove m;
        int ok;
        if (len > 0 && line[0] == '#') {
            unsigned long k = strtoul(line + 1 < line + len ? line + 1 : "0", NULL, 10);
            m = moves[k % n];
            ply_len = koma_engine_move_text(e, m, buf, sizeof buf);
            ply_text = buf;
            ok = 1;
        } else {
            koma_error_clear(&err);
            ok = koma_engine_parse_move(e, line, len, &m, &err) == 0;
            if (!ok) check_message(&err);
        }
        koma_error why;
        koma_error_clear(&why);
        int st = koma_referee_ply(ref, ply_text, ply_len, &why);
        CHECK(st >= 0);
        if (!ok) {
            /* not a canonical legal move: the referee does not play it as one (it
             * may still read a notation slip); the engine and the referee part */
            CHECK(st != KOMA_PLY_PLAYED);
            break;
        }
        CHECK(st == KOMA_PLY_PLAYED);
        uint64_t before = koma_engine_hash(e);
        CHECK(koma_engine_make(e, m, &err) == 0);
        uint64_t after = koma_engine_hash(e);
        CHECK(koma_engine_unmake(e) == 0);
        CHECK(koma_engine_hash(e) == before);
        CHECK(koma_engine_legal_moves(e, moves) == n);
        CHECK(koma_engine_make(e, m, &err) == 0);
        CHECK(koma_engine_hash(e) == after);
    }
    koma_verdict v = KOMA_VERDICT_INIT;
    CHECK(koma_referee_finish(ref, &v, &err) == 0);
    free(text);
    return 0;
}
