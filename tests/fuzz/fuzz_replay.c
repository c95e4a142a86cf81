/*
 * tests/fuzz/fuzz_replay.c — libFuzzer harness for a whole PCN JSON record
 * judged by the referee (koma_referee_pcn, as koma-replay and koma-validate
 * --replay judge one).
 *
 * The record is read (koma_pcn_parse, plies' PMN checked by the caller as with
 * a dialect); the referee opens its setup with its game, reads its outcome (a
 * recorded resignation before the last ply stops the judging there) and plays
 * each ply. Checked (abort() on a violation):
 *  - after each applied ply, the FEEN reads back strictly, names the same game,
 *    and set afresh on a second engine gives the same FEEN; the plies follow
 *    the plies given; every error message is printable;
 *  - a rule ending has a status the rules decide and a result; a ply after it
 *    counts as after the end; an illegal ply's alternatives are legal moves
 *    from its square in the position it was refused in, none equal to it;
 *  - the verdict written back into a copy of the record (outcome result,
 *    status, ply; or the status removed and the ply kept or removed, as
 *    koma-replay --write-outcome does) validates, writes as JSON and reads back
 *    as an equal record; the original record is unchanged.
 */
#include <koma/koma.h>
#include "fuzz.h"

#define MAX_GAMES 16

static koma_game_set *games;
static koma_referee *referee;
static const koma_game *cached_game[MAX_GAMES];
static koma_engine *fresh[MAX_GAMES];

static void init(void)
{
    koma_error err;
    CHECK(koma_game_set_new(&games, &err) == 0);
    CHECK(koma_referee_new(NULL, &referee, &err) == 0);
}

/* A second engine of game g (made once). */
static koma_engine *engine_for(const koma_game *g)
{
    koma_error err;
    for (size_t i = 0; i < MAX_GAMES; i++) {
        if (cached_game[i] == g) return fresh[i];
        if (cached_game[i] == NULL) {
            CHECK(koma_engine_new(g, &fresh[i], &err) == 0);
            cached_game[i] = g;
            return fresh[i];
        }
    }
    abort();
}

static int decided_status(koma_status st)
{
    switch (st) {
    case KOMA_STATUS_CHECKMATE: case KOMA_STATUS_STALEMATE: case KOMA_STATUS_NOMOVE:
    case KOMA_STATUS_BAREKING: case KOMA_STATUS_MAREKING: case KOMA_STATUS_ILLEGALMOVE:
    case KOMA_STATUS_REPETITION: case KOMA_STATUS_MOVELIMIT:
        return 1;
    default:
        return 0;
    }
}

/* The referee's position: a FEEN that reads back, of the same game, and sets
 * up afresh on a second engine to the same FEEN. */
static void check_reached(koma_referee *ref, const koma_game *g)
{
    char feen[KOMA_FEEN_MAX_LEN + 1], again[KOMA_FEEN_MAX_LEN + 1];
    size_t n, m;
    koma_error err;
    CHECK(koma_referee_feen(ref, feen, sizeof feen, &n, &err) == 0);
    CHECK(n > 0 && n < sizeof feen && strlen(feen) == n);
    koma_position pos;
    koma_position_init(&pos);
    if (koma_feen_parse(feen, n, KOMA_FEEN_STRICT, &pos, &err) != 0) {
        fprintf(stderr, "fuzz_replay: the referee wrote a FEEN it cannot read: %s: %s\n", feen,
                err.message);
        abort();
    }
    const koma_game *h = koma_game_set_find_position(games, &pos, &err);
    CHECK(h != NULL && koma_game_style(h) == koma_game_style(g) &&
          koma_game_files(h) == koma_game_files(g) && koma_game_ranks(h) == koma_game_ranks(g));
    koma_engine *second = engine_for(g);
    CHECK(koma_engine_set_position(second, &pos, &err) == 0);
    CHECK(koma_engine_feen(second, again, sizeof again, &m, &err) == 0);
    CHECK(m == n && strcmp(feen, again) == 0);
    koma_position_cleanup(&pos);
}

/* An illegal ply's alternatives (v->legal): legal moves in the position it was
 * refused in (the final one), from its square (onto it for a drop), none equal
 * to the refused text. */
static void check_alternatives(const koma_verdict *v)
{
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    CHECK(koma_feen_parse(v->feen, strlen(v->feen), KOMA_FEEN_STRICT, &pos, &err) == 0);
    koma_engine *e = engine_for(v->game);
    CHECK(koma_engine_set_position(e, &pos, &err) == 0);
    koma_position_cleanup(&pos);
    for (const char *p = v->legal; *p;) {
        const char *end = strchr(p, ' ');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        koma_emove m;
        koma_move mv;
        CHECK(koma_engine_parse_move(e, p, n, &m, &err) == 0);
        CHECK(koma_pmn_parse(p, n, &mv, &err) == 0);
        char sq[KOMA_CELL_BUF];
        koma_cell_write(v->alt_drop ? &mv.dst : &mv.src, sq);
        CHECK(strcmp(sq, v->alt_square) == 0);
        CHECK(strlen(v->refused_text) != n || memcmp(v->refused_text, p, n) != 0);
        p += n;
        if (*p == ' ') p++;
    }
}

typedef struct run {
    const koma_game *game;
    size_t plies;                      /* plies given */
} run;

static int on_begun(void *ctx, koma_referee *ref)
{
    check_reached(ref, ((run *)ctx)->game);
    return 0;
}

static int on_ply(void *ctx, koma_referee *ref, size_t index, int status, const koma_error *err)
{
    run *r = ctx;
    CHECK(index == r->plies);
    r->plies++;
    CHECK(status >= KOMA_PLY_PLAYED && status <= KOMA_PLY_IGNORED);
    if (status == KOMA_PLY_PLAYED || status == KOMA_PLY_NOTATION) check_reached(ref, r->game);
    if (status == KOMA_PLY_NOTATION || status == KOMA_PLY_ILLEGAL || status == KOMA_PLY_UNREADABLE)
        check_message(err);
    if (status == KOMA_PLY_NOTATION) CHECK(err->code == KOMA_E_REPLAY_NOTATION);
    return 0;
}

/* Write the verdict into a copy of the record, as koma-replay --write-outcome does. */
static void write_back(const koma_pcn *rec, const koma_verdict *v)
{
    koma_error err;
    koma_pcn *copy = NULL;
    koma_pcn_copy(rec, &copy, &err);
    if (copy == NULL) {
        CHECK(err.code == KOMA_E_MEMORY);
        return;
    }
    CHECK(koma_pcn_equal(copy, rec));
    int rc;
    if (v->kind == KOMA_VERDICT_RULES || v->kind == KOMA_VERDICT_RECORDED) {
        const char *res = v->result_text, *st = koma_cgsn_name(v->status);
        rc = koma_pcn_set_outcome_result(copy, res, strlen(res), &err);
        if (rc == 0) rc = koma_pcn_set_outcome_status(copy, st, strlen(st), &err);
        if (rc == 0) rc = koma_pcn_set_outcome_ply(copy, v->ply, &err);
        if (rc == 0) {
            CHECK(strcmp(koma_pcn_outcome_result(copy), res) == 0);
            CHECK(strcmp(koma_pcn_outcome_status(copy), st) == 0);
            uint64_t ply;
            CHECK(koma_pcn_outcome_ply(copy, &ply) == 1 && ply == v->ply);
        }
    } else {
        rc = koma_pcn_set_outcome_status(copy, NULL, 0, &err);
        if (rc == 0 && koma_pcn_has_outcome(copy)) {
            koma_pcn_unset_outcome_ply(copy);
            uint64_t ply;
            CHECK(koma_pcn_outcome_ply(copy, &ply) == 0);
            CHECK(koma_pcn_outcome_status(copy) == NULL);
        }
    }
    if (rc != 0) {
        check_message(&err);
        CHECK(err.code == KOMA_E_MEMORY || err.code == KOMA_E_PCN_TYPE);
        koma_pcn_free(copy);
        return;
    }
    /* the rest of the record was valid; so is the verdict written into it */
    if (koma_pcn_validate(copy, KOMA_PCN_NO_PMN, &err) != 0) {
        fprintf(stderr, "fuzz_replay: the record with its verdict is invalid: %s %s\n",
                koma_code_name(err.code), err.message);
        abort();
    }
    koma_buffer b = {0};
    CHECK(koma_pcn_write_json(copy, 0, &b, &err) == 0);
    koma_pcn *back = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, b.data, b.len, KOMA_PCN_NO_PMN, &back, &err);
    CHECK(back != NULL);
    CHECK(koma_pcn_equal(back, copy));
    koma_pcn_free(back);
    koma_buffer_cleanup(&b);
    koma_pcn_free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (games == NULL) init();
    koma_error err;
    koma_pcn *rec = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, (const char *)data, size, KOMA_PCN_NO_PMN, &rec, &err);
    if (rec == NULL) return 0;
    koma_pcn *orig = NULL;
    koma_pcn_copy(rec, &orig, &err);
    CHECK(orig != NULL);
    koma_verdict *v = malloc(sizeof *v);
    CHECK(v != NULL);
    v->size = sizeof *v;

    /* the game, as koma_referee_pcn finds it (the hooks need it) */
    run r = {NULL, 0};
    size_t flen;
    const char *feen = koma_pcn_setup_feen(rec, &flen);
    koma_position pos;
    koma_position_init(&pos);
    int open = koma_game_set_open_feen(games, feen ? feen : "", feen ? flen : 0, &pos, &r.game, &err);
    koma_position_cleanup(&pos);

    koma_referee_hooks hooks = {on_begun, on_ply, &r};
    koma_error_clear(&err);
    int rc = koma_referee_pcn(referee, games, NULL, rec, &hooks, v, &err);
    CHECK(rc >= 0);
    CHECK((rc == 1) == (open != 0));
    if (rc == 0) {
        size_t n = koma_pcn_ply_count(rec);
        CHECK(v->game == r.game);
        CHECK(v->plies == r.plies && r.plies <= n && v->played <= v->plies);
        if (v->kind == KOMA_VERDICT_UNREADABLE) {
            CHECK(v->refused && v->refused_ply == r.plies);
        } else {
            CHECK(r.plies == n);
            CHECK(v->played + v->extra + (v->illegal ? 1u : 0u) == n);
        }
        if (v->kind == KOMA_VERDICT_RULES) {
            CHECK(decided_status(v->status) && v->result != KOMA_RESULT_NONE);
            CHECK(v->has_ply && v->ply <= n);
            if (v->illegal) {
                CHECK(v->status == KOMA_STATUS_ILLEGALMOVE || v->status == KOMA_STATUS_REPETITION);
                check_alternatives(v);
            }
            /* a ply after the end is after the end */
            koma_error e2;
            CHECK(koma_referee_ply(referee, "e1-e2", 5, &e2) == KOMA_PLY_AFTER_END);
        }
        write_back(rec, v);
    } else {
        check_message(&err);
    }
    free(v);
    CHECK(koma_pcn_equal(rec, orig));
    koma_pcn_free(orig);
    koma_pcn_free(rec);
    return 0;
}
