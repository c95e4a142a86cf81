/*
 * tests/fuzz/fuzz_replay.c — libFuzzer harness for a whole PCN JSON record
 * replayed under the rules through the library calls koma-replay makes
 * (cmd/replay_core.c is command code; this is its library part).
 *
 * The record is read (koma_pcn_parse, plies' PMN checked by the caller as with
 * a dialect); its setup FEEN picks the game (koma_game_set_find_position) and
 * is set on that game's engine; the recorded outcome is read (a recorded
 * resignation before the last ply stops the replay there). Each ply is read as
 * canonical PMN and played (koma_engine_play); an illegal ply ends the game
 * and lists the legal moves from the same square (the "alternatives"). Checked
 * (abort() on a violation):
 *  - after each ply, the engine's FEEN reads back strictly, names the same game,
 *    and set afresh on a second engine gives the same FEEN and hash; the ply
 *    count follows the plies played;
 *  - an ending has a status the rules decide and a result; every ply after it
 *    is refused (rules.over); an illegal ply's alternatives are legal moves
 *    from its square, none equal to it except an illegal repetition;
 *  - the verdict written back into a copy of the record (outcome result,
 *    status, ply; or the status removed and the ply kept or removed, as
 *    replay_write_outcome does) validates, writes as JSON and reads back as an
 *    equal record; the original record is unchanged.
 */

#include <koma/koma.h>
#include "fuzz.h"

#define MAX_GAMES 16

static koma_game_set *games;
static const koma_game *cached_game[MAX_GAMES];
static koma_engine *cached[MAX_GAMES], *fresh[MAX_GAMES];
static koma_emove *moves;
static size_t capmoves;

static void init(void)
{
    koma_error err;
    CHECK(koma_game_set_new(&games, &err) == 0);
}

/* The engine of game g (and a second one), made once. NULL for a game
 * without rules. */
static koma_engine *engine_for(const koma_game *g, koma_engine **second)
{
    koma_error err;
    for (size_t i = 0; i < MAX_GAMES; i++) {
        if (cached_game[i] == g) {
            *second = fresh[i];
            return cached[i];
        }
        if (cached_game[i] == NULL) {
            if (koma_engine_new(g, &cached[i], &err) != 0) {
                CHECK(err.code == KOMA_E_GAME_NO_RULES);
                return NULL;
            }
            CHECK(koma_engine_new(g, &fresh[i], &err) == 0);
            cached_game[i] = g;
            size_t max = koma_engine_max_moves(cached[i]);
            if (max > capmoves) {
                koma_emove *m = realloc(moves, max * sizeof *m);
                CHECK(m != NULL);
                moves = m;
                capmoves = max;
            }
            *second = fresh[i];
            return cached[i];
        }
    }
    abort();
}

static int explicit_status(koma_status st)
{
    return st == KOMA_STATUS_RESIGNATION || st == KOMA_STATUS_TIMELIMIT ||
           st == KOMA_STATUS_AGREEMENT;
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

/* The position after a ply: a FEEN that reads back, of the same game, and
 * sets up afresh to the same FEEN and hash. */
static void check_reached(koma_engine *e, koma_engine *second, const koma_game *g)
{
    char feen[KOMA_FEEN_MAX_LEN + 1], again[KOMA_FEEN_MAX_LEN + 1];
    size_t n = koma_engine_feen(e, feen, sizeof feen);
    CHECK(n > 0 && n < sizeof feen);
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    if (koma_feen_parse(feen, n, KOMA_FEEN_STRICT, &pos, &err) != 0) {
        fprintf(stderr, "fuzz_replay: the engine wrote a FEEN it cannot read: %s: %s\n", feen,
                err.message);
        abort();
    }
    const koma_game *h = koma_game_set_find_position(games, &pos, &err);
    CHECK(h != NULL && koma_game_style(h) == koma_game_style(g) &&
          koma_game_files(h) == koma_game_files(g) && koma_game_ranks(h) == koma_game_ranks(g));
    CHECK(koma_engine_set_position(second, &pos, &err) == 0);
    CHECK(koma_engine_feen(second, again, sizeof again) == n && strcmp(feen, again) == 0);
    CHECK(koma_engine_hash(second) == koma_engine_hash(e));
    koma_position_cleanup(&pos);
}

/* The legal moves from the illegal ply's square (its target for a drop),
 * as replay_core.c lists them. */
static void alternatives(koma_engine *e, const koma_move *m, int repetition)
{
    size_t n = koma_engine_legal_moves(e, moves);
    CHECK(n <= capmoves);
    int drop = m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP;
    char self[KOMA_PMN_BUF], buf[KOMA_PMN_BUF];
    koma_pmn_write(m, self);
    int seen_self = 0;
    for (size_t i = 0; i < n; i++) {
        koma_move lm;
        koma_engine_move_pmn(e, moves[i], &lm);
        int same = drop ? lm.kind == KOMA_MOVE_DROP && koma_cell_equal(&lm.dst, &m->dst)
                        : lm.kind != KOMA_MOVE_DROP && m->src.ndims &&
                          koma_cell_equal(&lm.src, &m->src);
        if (!same) continue;
        size_t len = koma_pmn_write(&lm, buf);
        CHECK(len > 0 && len <= KOMA_PMN_MAX_LEN);
        koma_emove found;
        koma_error err;
        CHECK(koma_engine_find_move(e, &lm, &found, &err) == 0);
        if (strcmp(buf, self) == 0) seen_self = 1;
    }
    /* the refused ply is among the legal moves only as an illegal repetition */
    if (seen_self) CHECK(repetition);
}

typedef struct verdict {
    int over;
    koma_ending end;
    size_t ply;                        /* the deciding ply (0: the setup) */
} verdict;

/* Write the verdict into a copy of the record, as replay_write_outcome does. */
static void write_back(const koma_pcn *rec, const verdict *v)
{
    koma_error err;
    koma_pcn *copy = koma_pcn_copy(rec, &err);
    if (copy == NULL) {
        CHECK(err.code == KOMA_E_MEMORY);
        return;
    }
    CHECK(koma_pcn_equal(copy, rec));
    int rc;
    if (v->over) {
        const char *res = koma_result_name(v->end.result), *st = koma_cgsn_name(v->end.status);
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
    koma_pcn_buffer b = {0};
    CHECK(koma_pcn_write_json(copy, 0, &b, &err) == 0);
    koma_pcn *back = koma_pcn_parse(KOMA_PCN_JSON, b.data, b.len, KOMA_PCN_NO_PMN, &err);
    CHECK(back != NULL);
    CHECK(koma_pcn_equal(back, copy));
    koma_pcn_free(back);
    koma_pcn_buffer_cleanup(&b);
    koma_pcn_free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (games == NULL) init();
    koma_error err;
    koma_pcn *rec = koma_pcn_parse(KOMA_PCN_JSON, (const char *)data, size, KOMA_PCN_NO_PMN, &err);
    if (rec == NULL) return 0;
    koma_pcn *orig = koma_pcn_copy(rec, &err);
    CHECK(orig != NULL);

    size_t flen;
    const char *feen = koma_pcn_setup_feen(rec, &flen);
    koma_position pos;
    koma_position_init(&pos);
    const koma_game *g = NULL;
    koma_engine *e = NULL, *second = NULL;
    koma_error_clear(&err);
    if (feen != NULL && koma_feen_parse(feen, flen, KOMA_FEEN_STRICT, &pos, &err) == 0 &&
        (g = koma_game_set_find_position(games, &pos, &err)) != NULL &&
        (e = engine_for(g, &second)) != NULL && koma_engine_set_position(e, &pos, &err) != 0)
        e = NULL;
    if (e == NULL) {
        /* no FEEN, an invalid one, no game, a game without rules, or a position
         * the game refuses: "cannot replay this record" */
        if (err.code != KOMA_OK) check_message(&err);
        koma_position_cleanup(&pos);
        koma_pcn_free(orig);
        koma_pcn_free(rec);
        return 0;
    }
    koma_position_cleanup(&pos);

    /* a recorded resignation (or a bare result) before the last ply stops there */
    size_t n = koma_pcn_ply_count(rec), stop = n;
    if (koma_pcn_has_outcome(rec)) {
        uint64_t ply;
        const char *st = koma_pcn_outcome_status(rec);
        koma_status status;
        int has_status = st && koma_cgsn_parse(st, strlen(st), &status, NULL) == 0;
        if (koma_pcn_outcome_ply(rec, &ply) && ply < n &&
            ((has_status && explicit_status(status)) ||
             (!has_status && koma_pcn_outcome_result(rec) != NULL)))
            stop = (size_t)ply;
    }

    verdict v;
    memset(&v, 0, sizeof v);
    koma_engine_position_ending(e, &v.end);
    v.over = v.end.over;
    size_t played = 0;
    for (size_t i = 0; i < stop && !v.over; i++) {
        size_t len;
        const char *s = koma_pcn_ply_pmn(rec, i, &len);
        koma_move m;
        if (s == NULL || koma_pmn_parse(s, len, &m, &err) != 0) {
            if (s != NULL) check_message(&err);
            break;                     /* unreadable: the record is invalid */
        }
        koma_ending end;
        int rc = koma_engine_play(e, &m, &end, &err);
        CHECK(rc >= 0);                /* not over yet */
        if (rc == 1) {
            check_message(&err);
            CHECK(end.over && (end.status == KOMA_STATUS_ILLEGALMOVE ||
                               end.status == KOMA_STATUS_REPETITION));
            alternatives(e, &m, end.status == KOMA_STATUS_REPETITION);
            v.over = 1;
            v.end = end;
            v.ply = i + 1;
            break;
        }
        played++;
        CHECK(koma_engine_ply(e) == played);
        check_reached(e, second, g);
        if (end.over) {
            v.over = 1;
            v.end = end;
            v.ply = i + 1;
        }
    }
    if (v.over) {
        CHECK(decided_status(v.end.status) && v.end.result != KOMA_RESULT_NONE);
        /* every ply after the end is refused */
        koma_move any;
        koma_ending after;
        memset(&any, 0, sizeof any);
        CHECK(koma_engine_play(e, &any, &after, &err) == -1 && err.code == KOMA_E_RULES_OVER);
        CHECK(!after.over);
    }
    write_back(rec, &v);
    CHECK(koma_pcn_equal(rec, orig));
    koma_pcn_free(orig);
    koma_pcn_free(rec);
    return 0;
}
