/*
 * tests/fuzz/engine_checks.h — the rules-engine invariants shared by the
 * fuzz_game and fuzz_engine harnesses (static functions; included by both).
 *
 * check_position() checks the engine's current position (abort() on a
 * violation):
 *  - the legal moves fit koma_engine_max_moves, have distinct canonical PMN,
 *    and each PMN reads back (koma_engine_parse_move) as the same move;
 *  - make + unmake of each move gives back the same FEEN and hash; after the
 *    make, the side to move changed and the incremental hash is the one the
 *    engine computes from scratch for the reached position (koma_engine_feen ->
 *    koma_engine_set_feen on a second engine);
 *  - koma_engine_position_ending: over when there is no legal move; with legal
 *    moves, over only by a bare king;
 *  - perft(1) is the number of legal moves (in an unfinished position);
 *  - the GGN-driven generator, fed the game's exported document, gives the same
 *    sorted PMN list as the built-in generator (skipped, as
 *    tests/unit/test_game_ggn.c does, where the side not to move is in check in
 *    a check-rule game: such positions cannot arise in play, and the two
 *    generators test "the pawn drop gives check" differently there).
 */
#ifndef FUZZ_ENGINE_CHECKS_H
#define FUZZ_ENGINE_CHECKS_H

#include <koma/koma.h>
#include "fuzz.h"
#include "engine_internal.h"

/* At most this many moves of a position get the per-move checks (make/unmake,
 * read back, the hash against a fresh set-up: most of a harness's time), taken
 * at an even stride over the list when it is longer, so every kind of move in
 * generation order is still sampled; the list itself is always checked whole. */
#define CHECK_MOVES_MAX 48

typedef struct pmn_list {
    char (*m)[KOMA_PMN_BUF];
    size_t n, cap;
} pmn_list;

static inline void pmn_list_push(pmn_list *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        char (*nm)[KOMA_PMN_BUF] = realloc(l->m, cap * sizeof *nm);
        CHECK(nm != NULL);
        l->m = nm;
        l->cap = cap;
    }
    CHECK(strlen(s) < KOMA_PMN_BUF);
    memcpy(l->m[l->n++], s, strlen(s) + 1);
}

static inline int pmn_cmp(const void *a, const void *b) { return strcmp(a, b); }

static inline int pmn_collect(void *ctx, const char *pmn, size_t len, const koma_move *move)
{
    char buf[KOMA_PMN_BUF];
    CHECK(len > 0 && len <= KOMA_PMN_MAX_LEN && strlen(pmn) == len);
    CHECK(koma_pmn_write(move, buf) == len && memcmp(buf, pmn, len) == 0);
    pmn_list_push(ctx, pmn);
    return 0;
}

typedef struct checker {
    koma_engine *e;                    /* the engine under test */
    koma_engine *fresh;                /* a second engine of the same game */
    koma_emove *moves;                 /* max_moves */
    const koma_ggn *ggn;               /* the game's exported document, or NULL */
    pmn_list a, b;
    unsigned long positions, compared;
} checker;

static inline int checker_init(checker *c, koma_engine *e, const koma_ggn *ggn)
{
    koma_error err;
    memset(c, 0, sizeof *c);
    c->e = e;
    c->ggn = ggn;
    if (koma_engine_new(koma_engine_game(e), &c->fresh, &err) != 0) {
        CHECK(err.code == KOMA_E_MEMORY);
        return -1;
    }
    c->moves = malloc(koma_engine_max_moves(e) * sizeof *c->moves);
    CHECK(c->moves != NULL);
    return 0;
}

static inline void checker_cleanup(checker *c)
{
    koma_engine_free(c->fresh);
    free(c->moves);
    free(c->a.m);
    free(c->b.m);
}

/* The engine's FEEN into buf (KOMA_FEEN_MAX_LEN + 1 bytes). */
static inline size_t engine_feen(const koma_engine *e, char *buf)
{
    size_t n;
    CHECK(koma_engine_feen(e, buf, KOMA_FEEN_MAX_LEN + 1, &n, NULL) == 0);
    CHECK(n > 0 && n <= KOMA_FEEN_MAX_LEN && strlen(buf) == n);
    return n;
}

/* The sorted legal PMN list of the engine's position into c->a; returns the count. */
static inline size_t legal_list(checker *c)
{
    koma_engine *e = c->e;
    size_t n = koma_engine_legal_moves(e, c->moves);
    CHECK(n <= koma_engine_max_moves(e));
    c->a.n = 0;
    for (size_t i = 0; i < n; i++) {
        char buf[KOMA_PMN_BUF];
        size_t len = koma_engine_move_write(e, c->moves[i], buf);
        CHECK(len > 0 && len <= KOMA_PMN_MAX_LEN);
        pmn_list_push(&c->a, buf);
    }
    if (c->a.n > 1) qsort(c->a.m, c->a.n, sizeof c->a.m[0], pmn_cmp);
    for (size_t i = 1; i < c->a.n; i++) CHECK(strcmp(c->a.m[i - 1], c->a.m[i]) != 0);
    return n;
}

static inline int in_list(const pmn_list *l, const char *s)
{
    if (l->n == 0) return 0;
    return bsearch(s, l->m, l->n, sizeof l->m[0], pmn_cmp) != NULL;
}

/* With the check rule, is the side not to move in check (a position that cannot
 * arise in play)? */
static inline int other_side_in_check(checker *c)
{
    koma_engine *e = c->e;
    if (!koma_engine_game(e)->check_rule) return 0;
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    int in_check = 0;
    if (koma_engine_get_position(e, &pos, &err) == 0) {
        pos.turn ^= 1;
        CHECK(koma_engine_set_position(c->fresh, &pos, &err) == 0);
        in_check = koma_engine_in_check(c->fresh);
    }
    koma_position_cleanup(&pos);
    return in_check;
}

static inline void compare_ggn(checker *c)
{
    koma_error err;
    if (c->ggn == NULL || other_side_in_check(c)) return;
    c->b.n = 0;
    int rc = koma_engine_ggn_moves(c->e, c->ggn, pmn_collect, &c->b, &err);
    if (rc != 0) {
        CHECK(rc == -1 && err.code == KOMA_E_MEMORY);
        return;
    }
    if (c->b.n > 1) qsort(c->b.m, c->b.n, sizeof c->b.m[0], pmn_cmp);
    int same = c->a.n == c->b.n;
    for (size_t i = 0; same && i < c->a.n; i++) same = strcmp(c->a.m[i], c->b.m[i]) == 0;
    if (!same) {
        char feen[KOMA_FEEN_MAX_LEN + 1];
        engine_feen(c->e, feen);
        fprintf(stderr, "%s: %s\n  built-in %zu:", koma_game_id(koma_engine_game(c->e)), feen,
                c->a.n);
        for (size_t i = 0; i < c->a.n; i++) fprintf(stderr, " %s", c->a.m[i]);
        fprintf(stderr, "\n  ggn %zu:", c->b.n);
        for (size_t i = 0; i < c->b.n; i++) fprintf(stderr, " %s", c->b.m[i]);
        fprintf(stderr, "\n");
        abort();
    }
    c->compared++;
}

/* Every invariant on the engine's current position. Leaves the sorted legal PMN
 * list in c->a (also when it returns early). */
static inline void check_position(checker *c)
{
    koma_engine *e = c->e;
    koma_error err;
    char before[KOMA_FEEN_MAX_LEN + 1], after[KOMA_FEEN_MAX_LEN + 1];
    engine_feen(e, before);
    uint64_t hash = koma_engine_hash(e);
    int turn = koma_engine_turn(e);
    size_t ply = koma_engine_ply(e);
    c->positions++;

    size_t n = legal_list(c);
    /* the list came from c->moves in generation order; the per-move checks */
    size_t lim = n < CHECK_MOVES_MAX ? n : CHECK_MOVES_MAX;
    for (size_t k = 0; k < lim; k++) {
        koma_emove m = c->moves[k * n / lim];
        char pmn[KOMA_PMN_BUF], pmn2[KOMA_PMN_BUF];
        size_t len = koma_engine_move_write(e, m, pmn);
        koma_emove found;
        if (koma_engine_parse_move(e, pmn, len, &found, &err) != 0) {
            fprintf(stderr, "legal move %s refused: %s %s\n", pmn, koma_code_name(err.code),
                    err.message);
            abort();
        }
        CHECK(koma_engine_move_write(e, found, pmn2) == len && strcmp(pmn, pmn2) == 0);
        CHECK(koma_engine_make(e, m, &err) == 0);
        CHECK(koma_engine_turn(e) == (turn ^ 1));
        CHECK(koma_engine_ply(e) == ply + 1);
        engine_feen(e, after);
        CHECK(koma_engine_set_feen(c->fresh, after, strlen(after), &err) == 0);
        if (koma_engine_hash(c->fresh) != koma_engine_hash(e)) {
            fprintf(stderr, "hash after %s differs from a fresh set-up of %s\n", pmn, after);
            abort();
        }
        CHECK(koma_engine_unmake(e) == 0);
        engine_feen(e, after);
        if (strcmp(before, after) != 0 || koma_engine_hash(e) != hash) {
            fprintf(stderr, "make/unmake of %s: %s -> %s\n", pmn, before, after);
            abort();
        }
        CHECK(koma_engine_turn(e) == turn && koma_engine_ply(e) == ply);
    }

    koma_ending end;
    koma_engine_position_ending(e, &end);
    if (n == 0) CHECK(end.over);
    /* with moves left, only Okisaki's bare king and Sanki's dead position end a game
     * (Sanki's perft goes on through a dead position, as its reference does) */
    else if (end.over) CHECK(end.status == KOMA_STATUS_BAREKING || end.status == KOMA_STATUS_INSUFFICIENT);
    if (end.over) CHECK(end.result != KOMA_RESULT_NONE);

    uint64_t nodes;
    CHECK(koma_engine_perft(e, 1, &nodes, &err) == 0);
    if (!(end.over && end.status == KOMA_STATUS_BAREKING)) CHECK(nodes == n);
    else CHECK(nodes == 0);
    engine_feen(e, after);
    CHECK(strcmp(before, after) == 0 && koma_engine_hash(e) == hash);

    compare_ggn(c);
    engine_feen(e, after);
    CHECK(strcmp(before, after) == 0 && koma_engine_hash(e) == hash);
}

/* A game of the set: its id finds it, and its start FEEN parses strictly to a
 * board of the game's size (into *pos, initialised here; the caller cleans up). */
static inline void check_game_id(const koma_game_set *set, const koma_game *g)
{
    const char *id = koma_game_id(g);
    CHECK(id[0] != '\0' && strlen(id) <= KOMA_LIMIT_GAME_ID);
    CHECK(koma_game_set_find_id(set, id, strlen(id)) == g);
}

static inline void parse_game_start(const koma_game *g, const char *start, koma_position *pos)
{
    koma_error err;
    koma_position_init(pos);
    CHECK(koma_feen_parse(start, strlen(start), KOMA_FEEN_STRICT, pos, &err) == 0);
    CHECK(pos->shape.ndims == 2 && pos->shape.size[0] == koma_game_files(g) &&
          pos->shape.size[1] == koma_game_ranks(g));
}

#endif
