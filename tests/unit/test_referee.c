/*
 * tests/unit/test_referee.c — the referee (koma/referee.h): koma_verdict for
 * every ending of koma-games(7) in every game that has it (Ōgi, Ōgi classic,
 * Shogi, Minishogi, Okisaki, and a small game with a Ko-shogi-style survival
 * test), the order of endings on one ply (koma-games(7), ENDINGS ON ONE PLY), the
 * record's own outcome, notation slips, unreadable plies, dialects, and the table
 * of positions.
 */
#include "unit.h"

#include <stdlib.h>

static koma_game_set *games;

static int setup(void **state)
{
    (void)state;
    koma_error err;
    return koma_game_set_new(&games, &err);
}

static int teardown(void **state)
{
    (void)state;
    koma_game_set_free(games);
    return 0;
}

static const koma_game *game(const char *id)
{
    const koma_game *g = koma_game_set_find_id(games, id, strlen(id));
    assert_non_null(g);
    return g;
}

/* A referee on game id from feen (NULL: the start), reading a dialect. */
static koma_referee *begin_dialect(const char *id, const char *feen, unsigned flags, koma_pmn_dialect dialect)
{
    koma_referee *ref;
    koma_error err;
    koma_error_clear(&err);
    koma_referee_options opt = {sizeof opt, dialect, flags, KOMA_DECLARE_DEFAULT};
    assert_int_equal(koma_referee_new(&opt, &ref, &err), 0);
    const koma_game *g = game(id);
    if (feen == NULL) feen = koma_game_start(g);
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_game_set_open_feen(games, feen, strlen(feen), &pos, &g, &err);
    if (rc == 0) rc = koma_referee_begin(ref, g, &pos, &err);
    if (rc != 0) print_error("%s: %s\n", feen, err.message);
    assert_int_equal(rc, 0);
    koma_position_cleanup(&pos);
    return ref;
}

static koma_referee *begin(const char *id, const char *feen, unsigned flags)
{
    return begin_dialect(id, feen, flags, KOMA_PMN_DIALECT_CANONICAL);
}

/* Feed the space-separated plies; the status of the last one. */
static int feed(koma_referee *ref, const char *plies)
{
    int last = KOMA_PLY_PLAYED;
    const char *p = plies;
    while (p && *p) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        koma_error err;
        koma_error_clear(&err);
        last = koma_referee_ply(ref, p, n, &err);
        assert_true(last >= 0);
        p = e ? e + 1 : NULL;
    }
    return last;
}

static void finish(koma_referee *ref, koma_verdict *v)
{
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_referee_finish(ref, v, &err), 0);
}

typedef struct ending {
    const char *game, *feen, *plies;
    koma_verdict_kind kind;
    koma_status status;
    koma_result result;
    size_t ply;                        /* the deciding ply */
    int mover;                         /* its player */
} ending;

/* The ply hook's calls: plies played, plies of any other status (their sum of
 * indices and statuses, to tell calls apart). */
typedef struct ply_calls {
    size_t played, other, other_sum;
} ply_calls;

static int count_ply(void *ctx, koma_referee *ref, size_t index, int status, const koma_error *err)
{
    (void)ref;
    (void)err;
    ply_calls *c = ctx;
    if (status == KOMA_PLY_PLAYED) c->played++;
    else {
        c->other++;
        c->other_sum += index * 16 + (size_t)status;
    }
    return 0;
}

/* rec judged under flags with the counting hook: its verdict in *w. */
static void judge_counted(const koma_pcn *rec, const char *id, unsigned flags, koma_verdict *w,
                          ply_calls *calls)
{
    koma_error err;
    koma_error_clear(&err);
    koma_referee *ref;
    koma_referee_options opt = {sizeof opt, KOMA_PMN_DIALECT_CANONICAL, flags, KOMA_DECLARE_DEFAULT};
    assert_int_equal(koma_referee_new(&opt, &ref, &err), 0);
    memset(calls, 0, sizeof *calls);
    koma_referee_hooks hooks = {NULL, count_ply, calls};
    *w = (koma_verdict)KOMA_VERDICT_INIT;
    assert_int_equal(koma_referee_pcn(ref, games, game(id), rec, &hooks, w, &err), 0);
    koma_referee_free(ref);
}

/* KOMA_REFEREE_QUIET_PLAYED: the same verdict, no hook call for a played ply
 * and the same calls for the others, in the quick loop and in the general one. */
static void check_quiet_played(const koma_pcn *rec, const char *id)
{
    for (unsigned general = 0; general <= KOMA_REFEREE_GENERAL; general += KOMA_REFEREE_GENERAL) {
        koma_verdict a, b;
        ply_calls ca, cb;
        judge_counted(rec, id, general, &a, &ca);
        judge_counted(rec, id, general | KOMA_REFEREE_QUIET_PLAYED, &b, &cb);
        assert_int_equal(ca.played, a.played);
        assert_int_equal(cb.played, 0);
        assert_int_equal(cb.other, ca.other);
        assert_int_equal(cb.other_sum, ca.other_sum);
        assert_int_equal(b.kind, a.kind);
        assert_int_equal(b.ply, a.ply);
        assert_int_equal(b.played, a.played);
        assert_int_equal(b.plies, a.plies);
        assert_string_equal(b.feen, a.feen);
    }
}

/* The plies of c as a light PCN record (koma-replay's reading: each ply's move
 * parsed in the pass), and one ply more when more is given. */
static koma_pcn *light_record(const ending *c, const char *more)
{
    const char *feen = c->feen ? c->feen : koma_game_start(game(c->game));
    char json[4096];
    size_t n = (size_t)snprintf(json, sizeof json, "{\"setup\":{\"feen\":\"%s\"},\"plies\":[", feen);
    int first = 1;
    for (const char *p = c->plies; p && *p; first = 0) {
        const char *e = strchr(p, ' ');
        int len = e ? (int)(e - p) : (int)strlen(p);
        n += (size_t)snprintf(json + n, sizeof json - n, "%s{\"pmn\":\"%.*s\"}", first ? "" : ",", len, p);
        p = e ? e + 1 : NULL;
    }
    if (more) n += (size_t)snprintf(json + n, sizeof json - n, "%s{\"pmn\":\"%s\"}", first ? "" : ",", more);
    n += (size_t)snprintf(json + n, sizeof json - n, "]}");
    assert_true(n < sizeof json);
    koma_error err;
    koma_error_clear(&err);
    koma_pcn *rec = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, json, n, KOMA_PCN_LIGHT, &rec, &err);
    if (rec == NULL) print_error("%s: %s\n", json, err.message);
    assert_non_null(rec);
    return rec;
}

/* rec judged by koma_referee_pcn under flags (no hooks): *w. */
static void judge_light(const koma_pcn *rec, const char *id, unsigned flags, koma_verdict *w)
{
    koma_error err;
    koma_error_clear(&err);
    koma_referee *ref;
    koma_referee_options opt = {sizeof opt, KOMA_PMN_DIALECT_CANONICAL, flags, KOMA_DECLARE_DEFAULT};
    assert_int_equal(koma_referee_new(&opt, &ref, &err), 0);
    *w = (koma_verdict)KOMA_VERDICT_INIT;
    assert_int_equal(koma_referee_pcn(ref, games, game(id), rec, NULL, w, &err), 0);
    koma_referee_free(ref);
}

static void same_verdict(const koma_verdict *w, const koma_verdict *v)
{
    assert_int_equal(w->kind, v->kind);
    assert_int_equal(w->status, v->status);
    assert_int_equal(w->result, v->result);
    assert_int_equal(w->ply, v->ply);
    assert_int_equal(w->mover, v->mover);
    assert_int_equal(w->played, v->played);
    assert_int_equal(w->plies, v->plies);
    assert_int_equal(w->illegal, v->illegal);
    assert_int_equal(w->extra, v->extra);
    assert_string_equal(w->feen, v->feen);
    assert_string_equal(w->move, v->move);
}

/*
 * When every ply of c was played: the same record with one legal ply more
 * after the end (the quick loop then knows the next move ahead, and the usual
 * ending's short cut must still see the end the position decides: a king in a
 * hand, a bare king), judged by the quick loop and by the general path
 * (KOMA_REFEREE_GENERAL): the same verdict.
 */
static void check_ply_after(const ending *c, const koma_verdict *v)
{
    size_t n = 0;
    for (const char *p = c->plies; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL) n++;
    if (v->played != n) return;
    koma_engine *e;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_new(game(c->game), &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, v->feen, strlen(v->feen), &err), 0);
    koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    assert_non_null(moves);
    char t[KOMA_MOVE_TEXT_BUF] = "";
    if (koma_engine_legal_moves(e, moves) > 0) koma_engine_move_text(e, moves[0], t, sizeof t);
    free(moves);
    koma_engine_free(e);
    if (t[0] == '\0') return;
    koma_pcn *rec = light_record(c, t);
    koma_verdict quick, general;
    judge_light(rec, c->game, 0, &quick);
    judge_light(rec, c->game, KOMA_REFEREE_GENERAL, &general);
    same_verdict(&quick, &general);
    koma_pcn_free(rec);
}

/*
 * The same game as a PCN record read as koma-replay reads it (KOMA_PCN_LIGHT:
 * each ply's move parsed in the pass) through koma_referee_pcn, which reads
 * the next ply ahead (a legal next move shows a legal move: no search): the
 * same verdict as ply by ply; and with KOMA_REFEREE_QUIET_PLAYED
 * (check_quiet_played).
 */
static void check_pcn_path(const ending *c, const koma_verdict *v)
{
    koma_pcn *rec = light_record(c, NULL);
    koma_verdict w;
    judge_light(rec, c->game, 0, &w);
    same_verdict(&w, v);
    check_quiet_played(rec, c->game);
    koma_pcn_free(rec);
    check_ply_after(c, v);
}

static void check_ending(const ending *c, koma_verdict *v)
{
    koma_referee *ref = begin(c->game, c->feen, 0);
    feed(ref, c->plies);
    finish(ref, v);
    check_pcn_path(c, v);
    if (v->kind != c->kind || v->status != c->status || v->result != c->result ||
        v->ply != c->ply || v->mover != c->mover)
        print_error("%s %s [%s]: kind %d status %s result %s ply %zu mover %d\n", c->game,
                    c->feen ? c->feen : "start", c->plies ? c->plies : "", v->kind,
                    koma_cgsn_name(v->status), koma_result_name(v->result), v->ply, v->mover);
    assert_int_equal(v->kind, c->kind);
    assert_int_equal(v->has_status, 1);
    assert_int_equal(v->status, c->status);
    assert_int_equal(v->result, c->result);
    assert_string_equal(v->result_text, koma_result_name(c->result));
    assert_int_equal(v->has_ply, 1);
    assert_int_equal(v->ply, c->ply);
    assert_int_equal(v->mover, c->mover);
    assert_int_equal(v->game, game(c->game));
    /* a record without an outcome does not name an illegal ply as its end */
    assert_int_equal(v->disputes, v->illegal ? KOMA_DISPUTE_ILLEGAL : 0);
    koma_referee_free(ref);
}

#define RULES KOMA_VERDICT_RULES
#define FIRST KOMA_RESULT_FIRST
#define SECOND KOMA_RESULT_SECOND
#define DRAW KOMA_RESULT_DRAW

/* ---- every ending in every game ------------------------------------------------- */

static void test_ogi(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    const ending cases[] = {
        /* a king captured: the capturer wins at once */
        {"ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", "a1+a8/K^", RULES, KOMA_STATUS_MAREKING, FIRST, 1, KOMA_FIRST},
        /* already captured in the setup (the side not to move "played" it) */
        {"ogi", "R7/8/8/8/8/8/8/4K^3 K^/ o/O", "", RULES, KOMA_STATUS_MAREKING, FIRST, 0, KOMA_FIRST},
        /* no legal move: the side to move loses */
        {"ogi", "4k^3/8/8/8/8/8/8/8 / O/o", "", RULES, KOMA_STATUS_NOMOVE, SECOND, 0, KOMA_SECOND},
        {"ogi", "4k^3/8/8/8/8/8/8/8 / o/O", "e8-e7", RULES, KOMA_STATUS_NOMOVE, SECOND, 1, KOMA_SECOND},
        /* an illegal ply: its player loses, it is not applied */
        {"ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", "a1-b2", RULES, KOMA_STATUS_ILLEGALMOVE, SECOND, 1, KOMA_FIRST},
        /* the same move to the same position again (ply 5 repeats ply 1) */
        {"ogi", "4k^3/8/8/8/8/8/8/4K^3 / O/o", "e1-d1 e8-d8 d1-e1 d8-e8 e1-d1", RULES,
         KOMA_STATUS_REPETITION, SECOND, 5, KOMA_FIRST},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_ending(&cases[i], &v);
    /* the details of the last two */
    check_ending(&cases[4], &v);
    assert_int_equal(v.illegal, 1);
    assert_int_equal(v.refused_code, KOMA_E_RULES_PATTERN);
    assert_string_equal(v.refused_text, "a1-b2");
    assert_string_equal(v.alt_square, "a1");
    assert_int_equal(v.played, 0);
    check_ending(&cases[5], &v);
    assert_int_equal(v.illegal, 1);
    assert_int_equal(v.refused_code, KOMA_E_RULES_REPETITION);
    assert_int_equal(v.repeats, 1);
    assert_int_equal(v.played, 4);
    assert_string_equal(v.move, "e1-d1");
    assert_string_equal(v.repeated_feen, "4k^3/8/8/8/8/8/8/3K^4 / o/O");
    assert_string_equal(v.feen, "4k^3/8/8/8/8/8/8/4K^3 / O/o");
    check_ending(&cases[0], &v);
    assert_string_equal(v.move, "a1+a8/K^");
    assert_string_equal(v.feen, "R7/8/8/8/8/8/8/4K^3 K^/ o/O");
}

/*
 * 100 plies without a capture or a pawn move: the kings walk (never the same
 * move to the same position, never a capture), chosen with a second engine.
 */
static void king_walk(const char *id, const char *feen, char *out, size_t cap, size_t plies)
{
    koma_engine *e;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_new(game(id), &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, feen, strlen(feen), &err), 0);
    koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    uint64_t *seen = calloc(plies * 2 + 2, sizeof *seen);
    assert_non_null(moves);
    assert_non_null(seen);
    size_t len = 0, nseen = 0;
    out[0] = '\0';
    for (size_t p = 0; p < plies; p++) {
        size_t n = koma_engine_legal_moves(e, moves), pick = n;
        for (size_t i = 0; i < n && pick == n; i++) {
            koma_move_facts f;
            koma_engine_move_facts(e, moves[i], &f);
            if (f.captures || f.resets) continue;
            assert_int_equal(koma_engine_make(e, moves[i], &err), 0);
            uint64_t h = koma_engine_hash(e) ^ f.key, fresh = 1;
            for (size_t j = 0; j < nseen; j++) fresh &= seen[j] != h;
            koma_ending end;
            koma_engine_position_ending(e, &end);
            koma_engine_unmake(e);
            if (fresh && !end.over) {
                pick = i;
                seen[nseen++] = h;
            }
        }
        assert_true(pick < n);
        char t[KOMA_MOVE_TEXT_BUF];
        koma_engine_move_text(e, moves[pick], t, sizeof t);
        len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? " " : "", t);
        assert_true(len < cap);
        assert_int_equal(koma_engine_make(e, moves[pick], &err), 0);
    }
    free(moves);
    free(seen);
    koma_engine_free(e);
}

static void test_movelimit(void **state)
{
    (void)state;
    static char walk[4096];
    koma_verdict v = KOMA_VERDICT_INIT;
    const char *feen = "k^7/8/8/8/8/8/8/7K^ / O/o";
    static const char *const ids[] = {"ogi", "ogi-classic"};
    for (int i = 0; i < 2; i++) {
        king_walk(ids[i], feen, walk, sizeof walk, 100);
        ending c = {ids[i], feen, walk, RULES, KOMA_STATUS_MOVELIMIT, DRAW, 100, KOMA_SECOND};
        check_ending(&c, &v);
        assert_int_equal(v.played, 100);
        /* one ply short: not over */
        *strrchr(walk, ' ') = '\0';
        koma_referee *ref = begin(ids[i], feen, 0);
        feed(ref, walk);
        assert_false(koma_referee_over(ref));
        koma_referee_free(ref);
    }
}

/* The move-limit count and its resets, and fourfold with another count, on a
 * tiny custom game. */
static const char shuffle_game[] =
    "id: shuffle\nname: Shuffle\nstyle: X\nboard: {files: 4, ranks: 4}\n"
    "start: \"k^3/4/4/2PK^ / X/x\"\ncheck: true\n"
    "repetition: {rule: fourfold, count: 3}\nmove_limit: {plies: 6}\n"
    "termination: {movelimit: draw, repetition: draw}\n"
    "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n"
    "  - {pin: P, betza: fW, resets_move_limit: true}\n";

static void test_history(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    assert_int_equal(koma_game_set_load(set, LIT(shuffle_game), "shuffle.yaml", NULL, &err), 0);
    koma_game_set *saved = games;
    games = set;
    koma_verdict v = KOMA_VERDICT_INIT;
    /* six plies without a capture or a pawn move: movelimit, a draw */
    ending c = {"shuffle", NULL, "d1-d2 a4-b4 d2-d1 b4-a4 d1-d2 a4-b4", RULES,
                KOMA_STATUS_MOVELIMIT, DRAW, 6, KOMA_SECOND};
    check_ending(&c, &v);
    /* a pawn move (ply 3) resets the count: the limit comes at ply 9 */
    c.plies = "d1-d2 a4-b4 c1-c2 b4-a4 d2-d1 a4-b4 d1-d2 b4-a4 d2-d1";
    c.ply = 9;
    c.mover = KOMA_FIRST;
    check_ending(&c, &v);
    koma_game_set_free(set);
    /* without the move limit, the third occurrence of the setup (plies 0, 4, 8)
     * is a repetition: a draw */
    char nolimit[sizeof shuffle_game];
    memcpy(nolimit, shuffle_game, sizeof shuffle_game);
    char *six = strstr(nolimit, "plies: 6");
    assert_non_null(six);
    six[7] = '0';
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    assert_int_equal(koma_game_set_load(set, nolimit, strlen(nolimit), "shuffle.yaml", NULL, &err), 0);
    games = set;
    ending r = {"shuffle", NULL, "d1-d2 a4-b4 d2-d1 b4-a4 d1-d2 a4-b4 d2-d1 b4-a4", RULES,
                KOMA_STATUS_REPETITION, DRAW, 8, KOMA_SECOND};
    check_ending(&r, &v);
    assert_int_equal(v.occurrences, 3);
    games = saved;
    koma_game_set_free(set);
}

static void test_ogi_classic(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    const ending cases[] = {
        /* check must be answered: checkmate ends the game */
        {"ogi-classic", "k^7/8/K^7/8/8/8/8/7R / O/o", "h1-h8=+R", RULES, KOMA_STATUS_CHECKMATE, FIRST, 1, KOMA_FIRST},
        /* no legal move, not in check: nomove */
        {"ogi-classic", "k^7/8/K^7/8/8/8/8/1R6 / o/O", "", RULES, KOMA_STATUS_NOMOVE, FIRST, 0, KOMA_FIRST},
        /* a king left in check: illegal */
        {"ogi-classic", "4k^3/8/8/8/8/8/8/4K^2r / O/o", "e1-d1", RULES, KOMA_STATUS_ILLEGALMOVE, SECOND, 1, KOMA_FIRST},
        {"ogi-classic", "4k^3/8/8/8/8/8/8/4K^3 / O/o", "e1-d1 e8-d8 d1-e1 d8-e8 e1-d1", RULES,
         KOMA_STATUS_REPETITION, SECOND, 5, KOMA_FIRST},
        /* a captured king in a hand (kings are never captured in play) */
        {"ogi-classic", "4k^3/8/8/8/8/8/8/8 K^/ o/O", "", RULES, KOMA_STATUS_MAREKING, FIRST, 0, KOMA_FIRST},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_ending(&cases[i], &v);
    check_ending(&cases[2], &v);
    assert_int_equal(v.refused_code, KOMA_E_RULES_CHECK);
}

/* The endings of the shogi family: checkmate, stalemate, an illegal ply, a
 * fourfold repetition (a draw) and perpetual check (the checker loses), a
 * king in a hand from the setup. */
static void shogi_family(const char *id, const char *mate, const char *mate_ply,
                         const char *stalemate, const char *shuffle, const char *shuffle_plies,
                         const char *bad,
                         const char *perpetual, const char *perpetual_plies, const char *inhand)
{
    koma_verdict v = KOMA_VERDICT_INIT;
    const ending cases[] = {
        {id, mate, mate_ply, RULES, KOMA_STATUS_CHECKMATE, FIRST, 1, KOMA_FIRST},
        {id, stalemate, "", RULES, KOMA_STATUS_STALEMATE, FIRST, 0, KOMA_FIRST},
        /* a pawn dropped to mate: illegal */
        {id, mate, "P*a8", RULES, KOMA_STATUS_ILLEGALMOVE, SECOND, 1, KOMA_FIRST},
        {id, shuffle, shuffle_plies, RULES, KOMA_STATUS_REPETITION, DRAW, 12, KOMA_SECOND},
        {id, perpetual, perpetual_plies, RULES, KOMA_STATUS_REPETITION, SECOND, 12, KOMA_SECOND},
        {id, inhand, "", RULES, KOMA_STATUS_MAREKING, FIRST, 0, KOMA_FIRST},
        /* a king moving two squares: illegal */
        {id, shuffle, bad, RULES, KOMA_STATUS_ILLEGALMOVE, SECOND, 1, KOMA_FIRST},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (i == 2 && strcmp(id, "shogi") != 0) continue;
        check_ending(&cases[i], &v);
    }
    check_ending(&cases[3], &v);
    assert_int_equal(v.cycle_first, 0);
    assert_int_equal(v.occurrences, 4);
    assert_int_equal(v.perpetual, -1);
    check_ending(&cases[4], &v);
    assert_int_equal(v.perpetual, KOMA_FIRST);
    assert_int_equal(v.all_threatened[KOMA_FIRST], 1);
    assert_int_equal(v.all_threatened[KOMA_SECOND], 0);
    assert_string_equal(v.repeated_feen, perpetual);
}

static void test_shogi(void **state)
{
    (void)state;
    shogi_family("shogi", "k^8/2G6/9/9/9/9/9/9/L3K^4 LP/ S/s", "L*a8",
                 "k^8/2G6/1G7/9/9/9/9/9/8K^ / s/S",
                 "k^8/9/9/9/9/9/9/9/8K^ / S/s", "i1-h1 a9-b9 h1-i1 b9-a9 i1-h1 a9-b9 h1-i1 b9-a9 i1-h1 a9-b9 h1-i1 b9-a9",
                 "i1-i3",
                 "k^8/9/9/9/9/9/9/9/1R6K^ / S/s",
                 "b1-a1 a9-b9 a1-b1 b9-a9 b1-a1 a9-b9 a1-b1 b9-a9 b1-a1 a9-b9 a1-b1 b9-a9",
                 "9/9/9/9/9/9/9/9/8K^ K^/ s/S");
}

/* Plies after the end and illegal plies after legal ones: the look-ahead of
 * koma_referee_pcn (a move that is not legal, or no move at all, is no proof
 * of a legal move) gives the verdict of the plies given one by one. */
static void test_read_ahead(void **state)
{
    (void)state;
    const ending cases[] = {
        {"shogi", "k^8/2G6/9/9/9/9/9/9/L3K^4 LP/ S/s", "L*a8 a9-b9", 0, 0, 0, 0, 0},
        {"shogi", "k^8/2G6/9/9/9/9/9/9/L3K^4 LP/ S/s", "L*a8 a9-b9 e1-d1", 0, 0, 0, 0, 0},
        {"shogi", "k^8/2G6/1G7/9/9/9/9/9/8K^ / s/S", "a9-b9", 0, 0, 0, 0, 0},
        {"shogi", "k^8/2G6/9/9/9/9/9/9/L3K^4 LP/ S/s", "e1-d1 a9-a8 P*a7", 0, 0, 0, 0, 0},
        {"shogi", "k^8/2G6/9/9/9/9/9/9/L3K^4 LP/ S/s", "P*a8 a9+a8/P", 0, 0, 0, 0, 0},
        {"shogi", NULL, "c3-c4 c7-c6 b2+h8=+B/B c9-d8 h8+i9/L a9-a8 L*c9", 0, 0, 0, 0, 0},
        {"minishogi", "k^4/5/1G3/5/4K^ G/ S/s", "G*a4 a5-b5", 0, 0, 0, 0, 0},
        {"ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", "a1+a8/K^ e1-e2", 0, 0, 0, 0, 0},
        {"ogi-classic", "k^7/8/K^7/8/8/8/8/7R / O/o", "h1-h8=+R a8-b8", 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_verdict v = KOMA_VERDICT_INIT;
        koma_referee *ref = begin(cases[i].game, cases[i].feen, 0);
        feed(ref, cases[i].plies);
        finish(ref, &v);
        koma_referee_free(ref);
        check_pcn_path(&cases[i], &v);
    }
}

static void test_minishogi(void **state)
{
    (void)state;
    shogi_family("minishogi", "k^4/5/1G3/5/4K^ G/ S/s", "G*a4", "k^4/2G2/1G3/5/4K^ / s/S",
                 "k^4/5/5/5/4K^ / S/s", "e1-d1 a5-b5 d1-e1 b5-a5 e1-d1 a5-b5 d1-e1 b5-a5 e1-d1 a5-b5 d1-e1 b5-a5",
                 "e1-e3",
                 "k^4/5/5/5/1R2K^ / S/s",
                 "b1-a1 a5-b5 a1-b1 b5-a5 b1-a1 a5-b5 a1-b1 b5-a5 b1-a1 a5-b5 a1-b1 b5-a5",
                 "5/5/5/5/4K^ K^/ s/S");
}

static void test_okisaki(void **state)
{
    (void)state;
    /* (Gote holds a pawn: a king alone would be bare) */
    shogi_family("okisaki", "k^9/10/1G8/10/10/10/10/10/10/9K^ G/p Q/q", "G*a9",
                 "k^9/2G7/1G8/10/10/10/10/10/10/9K^ / q/Q",
                 "k^9/10/10/10/10/10/10/10/10/9K^ P/p Q/q",
                 "j1-i1 a10-b10 i1-j1 b10-a10 j1-i1 a10-b10 i1-j1 b10-a10 j1-i1 a10-b10 i1-j1 b10-a10",
                 "j1-j3",
                 "k^9/10/10/10/10/10/10/10/10/1R7K^ /p Q/q",
                 "b1-a1 a10-b10 a1-b1 b10-a10 b1-a1 a10-b10 a1-b1 b10-a10 b1-a1 a10-b10 a1-b1 b10-a10",
                 "10/10/10/10/10/10/10/10/10/9K^ K^/ q/Q");
    koma_verdict v = KOMA_VERDICT_INIT;
    /* bare king: decided at the reply; both bare: a draw */
    const ending bare[] = {
        {"okisaki", "k^9/10/10/10/10/4p5/10/10/10/4R4K^ / Q/q", "e1+e5/P a10-b10", RULES,
         KOMA_STATUS_BAREKING, FIRST, 2, KOMA_SECOND},
        {"okisaki", "k^9/10/10/10/10/10/10/10/10/9K^ / Q/q", "", RULES, KOMA_STATUS_BAREKING, DRAW,
         0, KOMA_SECOND},
    };
    for (size_t i = 0; i < 2; i++) check_ending(&bare[i], &v);
    /* the capture alone does not decide it (the bared side still replies) */
    koma_referee *ref = begin("okisaki", bare[0].feen, 0);
    assert_int_equal(feed(ref, "e1+e5/P"), KOMA_PLY_PLAYED);
    assert_false(koma_referee_over(ref));
    koma_referee_free(ref);
}

/* A game whose end is a survival test (Ko shogi's, on a small board): a side
 * survives while it has its general K^, or its governor +M^, or both its
 * middle troop M^ and its banner B^ (or +B^). */
static const char survival_game[] =
    "id: survive\nname: Survive\nstyle: Z\nboard: {files: 5, ranks: 5}\n"
    "start: \"k^4/5/5/5/R3K^ / Z/z\"\n"
    "promotion: {zone: 1}\n"
    "repetition: {rule: fourfold, count: 4, perpetual_check: loss}\n"
    "termination: {mareking: loss, nomove: loss, repetition: draw}\n"
    "defeat:\n"
    "  royal_captured: false\n"
    "  survival: [[K^], [+M^], [M^, B^], [M^, +B^]]\n"
    "pieces:\n"
    "  - {pin: \"K^\", betza: K}\n"
    "  - {pin: \"M^\", betza: WfF, promotes_to: \"+M^\"}\n"
    "  - {pin: \"+M^\", betza: K}\n"
    "  - {pin: \"B^\", betza: fW, promotes_to: \"+B^\"}\n"
    "  - {pin: \"+B^\", betza: WF}\n"
    "  - {pin: R, betza: R}\n";

static void test_survival(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    int rc = koma_game_set_load(set, LIT(survival_game), "survive.yaml", &g, &err);
    if (rc != 0) print_error("%s\n", err.message);
    assert_int_equal(rc, 0);
    koma_game_set *saved = games;
    games = set;
    koma_verdict v = KOMA_VERDICT_INIT;
    const ending cases[] = {
        /* the general captured, nothing else: mareking, the capturer wins */
        {"survive", "k^4/5/5/5/R3K^ / Z/z", "a1+a5/K^", RULES, KOMA_STATUS_MAREKING, FIRST, 1, KOMA_FIRST},
        /* the banner captured: the middle troop alone does not survive */
        {"survive", "b^3m^/5/5/5/R3K^ / Z/z", "a1+a5/B^", RULES, KOMA_STATUS_MAREKING, FIRST, 1, KOMA_FIRST},
        /* a setup where both fail: the side to move lost */
        {"survive", "r4/5/5/5/R4 / z/Z", "", RULES, KOMA_STATUS_MAREKING, FIRST, 0, KOMA_FIRST},
        /* perpetual threat on the sole general: the threatening side loses */
        {"survive", "k^4/5/5/5/1R2K^ / Z/z",
         "b1-a1 a5-b5 a1-b1 b5-a5 b1-a1 a5-b5 a1-b1 b5-a5 b1-a1 a5-b5 a1-b1 b5-a5", RULES,
         KOMA_STATUS_REPETITION, SECOND, 12, KOMA_SECOND},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_ending(&cases[i], &v);
    assert_int_equal(v.perpetual, KOMA_FIRST);
    /* the general captured while middle troop and banner stand: the game goes on;
     * and a side without a general but with its governor survives too */
    const char *const goes_on[] = {"k^m^b^2/5/5/5/R3K^ / Z/z", "k^+m^3/5/5/5/R3K^ / Z/z",
                                   "k^m^2+b^/5/5/5/R3K^ / Z/z"};
    for (size_t i = 0; i < 3; i++) {
        koma_referee *ref = begin("survive", goes_on[i], 0);
        assert_int_equal(feed(ref, "a1+a5/K^"), KOMA_PLY_PLAYED);
        assert_false(koma_referee_over(ref));
        koma_referee_free(ref);
    }
    /* a king in a hand is no defeat here (royal_captured: false) */
    koma_engine *e;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, LIT("k^4/5/5/5/R3K^ K^/ z/Z"), &err), 0);
    koma_ending end;
    koma_engine_position_ending(e, &end);
    assert_false(end.over);
    /* the threat: the rook attacks the sole general */
    assert_int_equal(koma_engine_set_feen(e, LIT("k^4/5/5/5/R3K^ / z/Z"), &err), 0);
    assert_int_equal(koma_engine_threatens(e, KOMA_FIRST), 1);
    assert_int_equal(koma_engine_threatens(e, KOMA_SECOND), 0);
    /* not when middle troop and banner would still stand */
    assert_int_equal(koma_engine_set_feen(e, LIT("k^m^b^2/5/5/5/R3K^ / z/Z"), &err), 0);
    assert_int_equal(koma_engine_threatens(e, KOMA_FIRST), 0);
    koma_engine_free(e);
    games = saved;
    koma_game_set_free(set);
}

/*
 * termination: for every status the rules decide, "loss", "draw" and "win" are
 * that result for the side concerned, and a status not listed is a loss.
 */
static const char *const walk4[] = {"c1-c2", "a3-a2", "c2-c1", "a2-a3"};

static void check_termination(const char *rules, const char *status, const char *feen,
                              const char *const *plies, size_t nplies, int last_refused,
                              koma_status want, int concerned)
{
    static const char *const variants[] = {"loss", "draw", "win", NULL};
    koma_result lose = concerned == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
    koma_result win = concerned == KOMA_FIRST ? KOMA_RESULT_FIRST : KOMA_RESULT_SECOND;
    const koma_result expect[] = {lose, KOMA_RESULT_DRAW, win, lose};
    for (int v = 0; v < 4; v++) {
        char yaml[1024], term[64] = "";
        if (variants[v]) snprintf(term, sizeof term, "termination: {%s: %s}\n", status, variants[v]);
        snprintf(yaml, sizeof yaml,
                 "id: term\nname: Term\nstyle: X\nboard: {files: 3, ranks: 3}\n"
                 "start: \"k^2/3/2K^ / X/x\"\n%s%s"
                 "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n  - {pin: R, betza: R}\n"
                 "  - {pin: P, betza: fW, drop: {never: true}}\n",
                 rules, term);
        koma_game_set *set;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_game_set_new(&set, &err), 0);
        const koma_game *g;
        int rc = koma_game_set_load(set, yaml, strlen(yaml), "term.yaml", &g, &err);
        if (rc != 0) print_error("%s\n", err.message);
        assert_int_equal(rc, 0);
        koma_referee *ref;
        assert_int_equal(koma_referee_new(NULL, &ref, &err), 0);
        koma_position pos;
        koma_position_init(&pos);
        assert_int_equal(koma_game_set_open_feen(set, feen, strlen(feen), &pos, &g, &err), 0);
        assert_int_equal(koma_referee_begin(ref, g, &pos, &err), 0);
        for (size_t i = 0; i < nplies; i++) {
            int prc = koma_referee_ply(ref, plies[i], strlen(plies[i]), &err);
            if (i + 1 < nplies) {
                assert_int_equal(prc, KOMA_PLY_PLAYED);
                assert_false(koma_referee_over(ref));
            } else {
                assert_int_equal(prc, last_refused ? KOMA_PLY_ILLEGAL : KOMA_PLY_PLAYED);
            }
        }
        koma_verdict vd = KOMA_VERDICT_INIT;
        assert_int_equal(koma_referee_finish(ref, &vd, &err), 0);
        if (vd.kind != KOMA_VERDICT_RULES || vd.status != want || vd.result != expect[v])
            print_error("%s %s: kind %d status %s result %s\n", status,
                        variants[v] ? variants[v] : "(unlisted)", vd.kind,
                        koma_cgsn_name(vd.status), koma_result_name(vd.result));
        assert_int_equal(vd.kind, KOMA_VERDICT_RULES);
        assert_int_equal(vd.status, want);
        assert_int_equal(vd.result, expect[v]);
        koma_position_cleanup(&pos);
        koma_referee_free(ref);
        koma_game_set_free(set);
    }
}

static void test_termination(void **state)
{
    (void)state;
    static const char *const capture[] = {"a2+a3/K^"};
    static const char *const illegal[] = {"c1-a1"};
    static const char *const same[] = {"c1-c2", "a3-a2", "c2-c1", "a2-a3", "c1-c2"};
    const char *eight[8];
    for (int i = 0; i < 8; i++) eight[i] = walk4[i % 4];
    /* the side whose royal was captured */
    check_termination("", "mareking", "k^2/K^2/3 / X/x", capture, 1, 0, KOMA_STATUS_MAREKING,
                      KOMA_SECOND);
    /* the side to move */
    check_termination("", "nomove", "2K^/p2/p2 / x/X", NULL, 0, 0, KOMA_STATUS_NOMOVE,
                      KOMA_SECOND);
    check_termination("check: true\n", "checkmate", "k^1R/3/K^2 / x/X", NULL, 0, 0,
                      KOMA_STATUS_CHECKMATE, KOMA_SECOND);
    check_termination("check: true\n", "stalemate", "k^2/3/K^R1 / x/X", NULL, 0, 0,
                      KOMA_STATUS_STALEMATE, KOMA_SECOND);
    /* the bare side (the side that has just moved) */
    check_termination("check: true\nbare_king: true\n", "bareking", "k^p1/3/K^2 / x/X", NULL, 0,
                      0, KOMA_STATUS_BAREKING, KOMA_FIRST);
    /* the player of the ply */
    check_termination("", "illegalmove", "k^2/3/2K^ / X/x", illegal, 1, 1,
                      KOMA_STATUS_ILLEGALMOVE, KOMA_FIRST);
    check_termination("repetition: {rule: same-move}\n", "repetition", "k^2/3/2K^ / X/x", same,
                      5, 1, KOMA_STATUS_REPETITION, KOMA_FIRST);
    /* the player of the ply completing the repetition (the third occurrence of
     * the setup, at ply 8) or reaching the move limit (ply 4) */
    check_termination("check: true\nrepetition: {rule: fourfold, count: 3}\n", "repetition",
                      "k^2/3/2K^ / X/x", eight, 8, 0, KOMA_STATUS_REPETITION, KOMA_SECOND);
    check_termination("move_limit: {plies: 4}\n", "movelimit", "k^2/3/2K^ / X/x", walk4, 4, 0,
                      KOMA_STATUS_MOVELIMIT, KOMA_SECOND);
    check_termination("move_limit: {plies: 3}\n", "movelimit", "k^2/3/2K^ / X/x", walk4, 3, 0,
                      KOMA_STATUS_MOVELIMIT, KOMA_FIRST);
}

/* ---- the order of endings on one ply ---------------------------------------------- */

static void test_order(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    /* a king capture that also reaches the move limit is mareking */
    static const char limit[] =
        "id: lim\nname: Lim\nstyle: X\nboard: {files: 3, ranks: 3}\n"
        "start: \"k^2/3/R1K^ / X/x\"\nmove_limit: {plies: 1, capture_resets: false}\n"
        "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n  - {pin: R, betza: R}\n";
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    assert_int_equal(koma_game_set_load(set, LIT(limit), "lim.yaml", NULL, &err), 0);
    koma_game_set *saved = games;
    games = set;
    ending c = {"lim", NULL, "a1+a3/K^", RULES, KOMA_STATUS_MAREKING, FIRST, 1, KOMA_FIRST};
    check_ending(&c, &v);
    c.plies = "a1-a2";
    c.status = KOMA_STATUS_MOVELIMIT;
    c.result = SECOND;                 /* movelimit unlisted: a loss for the player of the ply */
    check_ending(&c, &v);
    games = saved;
    koma_game_set_free(set);
    /* an illegal ply comes before anything else: a repetition refused at ply 5
     * although a fourfold rule is not in play; after the end, plies are extra */
    koma_referee *ref = begin("ogi", "4k^3/8/8/8/8/8/8/4K^3 / O/o", 0);
    assert_int_equal(feed(ref, "e1-d1 e8-d8 d1-e1 d8-e8 e1-d1"), KOMA_PLY_ILLEGAL);
    assert_int_equal(feed(ref, "e1-f1 e8-f8"), KOMA_PLY_AFTER_END);
    finish(ref, &v);
    assert_int_equal(v.extra, 2);
    assert_int_equal(v.extra_ply, 6);
    assert_string_equal(v.extra_text, "e1-f1");
    assert_int_equal(v.disputes, KOMA_DISPUTE_ILLEGAL | KOMA_DISPUTE_EXTRA);
    koma_referee_free(ref);
}

/* ---- the record's own outcome ---------------------------------------------------------- */

static void expect_rec(koma_referee *ref, const char *result, int status, long ply)
{
    koma_recorded rec;
    memset(&rec, 0, sizeof rec);
    if (result) {
        rec.has_result = 1;
        snprintf(rec.result, sizeof rec.result, "%s", result);
    }
    if (status >= 0) {
        rec.has_status = 1;
        rec.status = (koma_status)status;
    }
    if (ply >= 0) {
        rec.has_ply = 1;
        rec.ply = (uint64_t)ply;
    }
    koma_referee_expect(ref, &rec);
}

/* The record's own endings (resignation, time limit, agreement) in every game of
 * this file, after one ply of its start (Ko shogi's: test_referee_koshogi.c). */
static void test_recorded_every_game(void **state)
{
    (void)state;
    static const char *const ids[] = {"ogi", "ogi-classic", "shogi", "minishogi", "okisaki"};
    static const struct { const char *result; koma_status status; koma_result want; } rec[] = {
        {"1-0", KOMA_STATUS_RESIGNATION, FIRST},
        {"1-0", KOMA_STATUS_TIMELIMIT, FIRST},
        {"1/2-1/2", KOMA_STATUS_AGREEMENT, DRAW},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        /* the first legal move of the start */
        koma_engine *e;
        koma_error err;
        assert_int_equal(koma_engine_new(game(ids[i]), &e, &err), 0);
        koma_emove *m = malloc(koma_engine_max_moves(e) * sizeof *m);
        assert_non_null(m);
        assert_true(koma_engine_legal_moves(e, m) > 0);
        char first[KOMA_MOVE_TEXT_BUF];
        koma_engine_move_text(e, m[0], first, sizeof first);
        free(m);
        koma_engine_free(e);
        for (size_t k = 0; k < sizeof rec / sizeof rec[0]; k++) {
            koma_referee *ref = begin(ids[i], NULL, 0);
            expect_rec(ref, rec[k].result, rec[k].status, 1);
            assert_int_equal(feed(ref, first), KOMA_PLY_PLAYED);
            koma_verdict v = KOMA_VERDICT_INIT;
            finish(ref, &v);
            if (v.kind != KOMA_VERDICT_RECORDED || v.status != rec[k].status || v.disputes)
                print_error("%s %s: kind %d status %s disputes %u\n", ids[i], koma_cgsn_name(rec[k].status),
                            v.kind, koma_cgsn_name(v.status), v.disputes);
            assert_int_equal(v.kind, KOMA_VERDICT_RECORDED);
            assert_int_equal(v.status, rec[k].status);
            assert_int_equal(v.result, rec[k].want);
            assert_int_equal(v.ply, 1);
            assert_int_equal(v.played, 1);
            assert_int_equal(v.disputes, 0);
            assert_ptr_equal(v.game, game(ids[i]));
            koma_referee_free(ref);
        }
    }
}

static void test_recorded(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    const char *plies = "e3-e4 e6-e5 f3-f4 d6-d5";
    /* a resignation after ply 2: honoured, the later plies are after the end */
    koma_referee *ref = begin("ogi", NULL, 0);
    expect_rec(ref, "0-1", KOMA_STATUS_RESIGNATION, 2);
    feed(ref, plies);
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_RECORDED);
    assert_int_equal(v.status, KOMA_STATUS_RESIGNATION);
    assert_int_equal(v.result, SECOND);
    assert_int_equal(v.ply, 2);
    assert_int_equal(v.played, 2);
    assert_int_equal(v.extra, 2);
    assert_int_equal(v.disputes, KOMA_DISPUTE_EXTRA);
    koma_referee_free(ref);
    /* a resignation recorded as a draw: the result is the other side's win */
    ref = begin("ogi", NULL, 0);
    expect_rec(ref, "1/2-1/2", KOMA_STATUS_RESIGNATION, -1);
    feed(ref, plies);
    finish(ref, &v);
    assert_int_equal(v.result, SECOND);    /* Sente to move resigned */
    assert_int_equal(v.disputes, KOMA_DISPUTE_RESULT);
    koma_referee_free(ref);
    /* a time limit keeps any recorded result; an agreement is a draw */
    ref = begin("ogi", NULL, 0);
    expect_rec(ref, "1/2-0", KOMA_STATUS_TIMELIMIT, 4);
    feed(ref, plies);
    finish(ref, &v);
    assert_string_equal(v.result_text, "1/2-0");
    assert_int_equal(v.result, KOMA_RESULT_NONE);
    assert_int_equal(v.disputes, 0);
    koma_referee_free(ref);
    ref = begin("ogi", NULL, 0);
    expect_rec(ref, NULL, KOMA_STATUS_AGREEMENT, -1);
    feed(ref, plies);
    finish(ref, &v);
    assert_int_equal(v.result, DRAW);
    assert_int_equal(v.ply, 4);
    koma_referee_free(ref);
    /* a bare result is kept; a status the rules do not give disagrees */
    ref = begin("ogi", NULL, 0);
    expect_rec(ref, "1-0", -1, -1);
    feed(ref, plies);
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_RESULT_ONLY);
    assert_string_equal(v.result_text, "1-0");
    assert_int_equal(v.disputes, 0);
    koma_referee_free(ref);
    ref = begin("ogi", NULL, 0);
    expect_rec(ref, "1-0", KOMA_STATUS_MAREKING, 4);
    feed(ref, plies);
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_RESULT_ONLY);
    assert_int_equal(v.disagrees, KOMA_MEMBER_STATUS);
    assert_int_equal(v.disputes, KOMA_DISPUTE_OUTCOME);
    koma_referee_free(ref);
    /* unfinished: no result */
    ref = begin("ogi", NULL, 0);
    feed(ref, plies);
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    assert_string_equal(v.result_text, "*");
    assert_int_equal(v.has_status, 0);
    assert_int_equal(v.turn, KOMA_FIRST);
    koma_referee_free(ref);
    /* a rule ending the record names wrongly: the first member that disagrees */
    ref = begin("ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", 0);
    expect_rec(ref, "0-1", KOMA_STATUS_MAREKING, 1);
    feed(ref, "a1+a8/K^");
    finish(ref, &v);
    assert_int_equal(v.disagrees, KOMA_MEMBER_RESULT);
    koma_referee_free(ref);
    /* an illegal ply the record names as its end is not disputed */
    ref = begin("ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", 0);
    expect_rec(ref, "0-1", KOMA_STATUS_ILLEGALMOVE, 1);
    feed(ref, "a1-b2");
    finish(ref, &v);
    assert_int_equal(v.disputes, 0);
    koma_referee_free(ref);
}

/* Lead ruling: the loser's resignation (or time loss) recorded at the deciding
 * ply of a rule ending is not a dispute; any other recorded word still is. */
static void gave_up(const char *result, int status, long ply, const char *plies, int disputed)
{
    koma_verdict v = KOMA_VERDICT_INIT;
    koma_referee *ref = begin("ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", 0);
    expect_rec(ref, result, status, ply);
    feed(ref, plies);
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_RULES);
    if (disputed) {
        assert_int_not_equal(v.disputes, 0);
    } else {
        assert_int_equal(v.disputes, 0);
        assert_int_equal(v.disagrees, KOMA_MEMBER_NONE);
        assert_int_equal(v.status, KOMA_STATUS_MAREKING);     /* the rules' ending */
        assert_int_equal(v.recorded.status, (koma_status)status);   /* kept as a note */
    }
    koma_referee_free(ref);
}

static void test_gave_up(void **state)
{
    (void)state;
    /* a1+a8/K^ takes Gote's king at ply 1: 1-0 mareking */
    gave_up("1-0", KOMA_STATUS_RESIGNATION, 1, "a1+a8/K^", 0);
    gave_up(NULL, KOMA_STATUS_RESIGNATION, -1, "a1+a8/K^", 0);
    gave_up("1-0", KOMA_STATUS_TIMELIMIT, 1, "a1+a8/K^", 0);
    /* the winner resigning, another ply, or a draw by agreement: disputes */
    gave_up("0-1", KOMA_STATUS_RESIGNATION, 1, "a1+a8/K^", 1);
    gave_up("1-0", KOMA_STATUS_RESIGNATION, 2, "a1+a8/K^", 1);
    gave_up("1/2-1/2", KOMA_STATUS_AGREEMENT, 1, "a1+a8/K^", 1);
    /* an illegal ply the record does not name stays a dispute */
    gave_up("0-1", KOMA_STATUS_RESIGNATION, 1, "a1-b2", 1);
}

/* ---- notation slips, unreadable plies, dialects ----------------------------------------- */

static void test_notation(void **state)
{
    (void)state;
    /* a notation slip: "b9+a8/P" where the canonical form is "b9+a8/p" */
    const char *feen = "1s7/P8/9/9/k^8/9/9/9/8K^ / s/S";
    koma_referee *ref = begin("shogi", feen, 0);
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_referee_ply(ref, LIT("b9+a8/P"), &err), KOMA_PLY_NOTATION);
    assert_int_equal(err.code, KOMA_E_REPLAY_NOTATION);
    assert_non_null(strstr(err.message, "\"b9+a8/p\""));
    assert_int_equal(err.offset, 5);
    assert_int_equal(koma_referee_played(ref), 1);
    koma_verdict v = KOMA_VERDICT_INIT;
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    assert_int_equal(v.notation_faults, 1);
    assert_int_equal(v.notation_ply, 1);
    assert_int_equal(v.disputes, KOMA_DISPUTE_NOTATION);
    assert_string_equal(v.feen, "9/s8/9/9/k^8/9/9/9/8K^ /p S/s");
    koma_referee_free(ref);
    /* a wrong piece, a missing promotion, a wrong origin: no legal move named */
    static const char *const illegal[] = {"b9+a8/S", "b9+a8=+S/p", "c9+a8/p"};
    for (size_t i = 0; i < 3; i++) {
        ref = begin("shogi", feen, 0);
        assert_int_equal(koma_referee_ply(ref, illegal[i], strlen(illegal[i]), &err), KOMA_PLY_ILLEGAL);
        koma_referee_free(ref);
    }
    /* the operator and the case of a promotion are notation too */
    ref = begin("shogi", feen, 0);
    assert_int_equal(koma_referee_ply(ref, LIT("b9-a8"), &err), KOMA_PLY_NOTATION);
    koma_referee_free(ref);
    /* Ōgi's King's privilege: without the captured piece the text names two moves */
    ref = begin("ogi", "4k^3/8/8/8/8/8/3+p4/4K^3 / O/o", 0);
    assert_int_equal(koma_referee_ply(ref, LIT("e1+d2"), &err), KOMA_PLY_ILLEGAL);
    assert_int_equal(err.code, KOMA_E_RULES_CAPTURED);
    koma_referee_free(ref);
    ref = begin("ogi", "4k^3/8/8/8/8/8/3+p4/4K^3 / O/o", 0);
    assert_int_equal(koma_referee_ply(ref, LIT("e1+d2/+p"), &err), KOMA_PLY_NOTATION);
    assert_non_null(strstr(err.message, "\"e1+d2/+P\""));
    koma_referee_free(ref);
}

static void test_unreadable(void **state)
{
    (void)state;
    koma_referee *ref = begin("ogi", NULL, 0);
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_referee_ply(ref, LIT("e3-e4"), &err), KOMA_PLY_PLAYED);
    assert_int_equal(koma_referee_ply(ref, LIT("e6e5"), &err), KOMA_PLY_UNREADABLE);
    assert_int_equal(err.code, KOMA_E_PMN_SYNTAX);
    assert_int_equal(err.offset, 2);
    assert_int_equal(koma_referee_ply(ref, LIT("e6-e5"), &err), KOMA_PLY_IGNORED);
    koma_verdict v = KOMA_VERDICT_INIT;
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNREADABLE);
    assert_int_equal(v.refused_ply, 2);
    assert_string_equal(v.refused_text, "e6e5");
    assert_int_equal(v.played, 1);
    koma_referee_free(ref);
    /* a line the caller could not read */
    ref = begin("ogi", NULL, 0);
    koma_error_set(&err, KOMA_E_LINE_LENGTH, 0, "line too long");
    koma_referee_ply_unreadable(ref, &err);
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNREADABLE);
    assert_int_equal(v.refused_code, KOMA_E_LINE_LENGTH);
    koma_referee_free(ref);
}

static void test_dialect(void **state)
{
    (void)state;
    koma_referee *ref;
    koma_error err;
    koma_error_clear(&err);
    koma_referee_options opt = {sizeof opt, KOMA_PMN_DIALECT_SEED, 0, KOMA_DECLARE_DEFAULT};
    assert_int_equal(koma_referee_new(&opt, &ref, &err), 0);
    koma_position pos;
    koma_position_init(&pos);
    const koma_game *g = NULL;
    const char *feen = "k^7/8/8/8/8/8/8/R3K^3 / O/o";
    assert_int_equal(koma_game_set_open_feen(games, feen, strlen(feen), &pos, &g, &err), 0);
    assert_int_equal(koma_referee_begin(ref, g, &pos, &err), 0);
    /* the seed dialect writes every board move with '-' */
    assert_int_equal(koma_referee_ply(ref, LIT("a1-a8"), &err), KOMA_PLY_PLAYED);
    koma_verdict v = KOMA_VERDICT_INIT;
    finish(ref, &v);
    assert_int_equal(v.status, KOMA_STATUS_MAREKING);
    assert_string_equal(v.move, "a1+a8/K^");
    koma_position_cleanup(&pos);
    koma_referee_free(ref);
}

/* ---- asking before playing ----------------------------------------------------------- */

/* koma_referee_allows says what koma_referee_ply would do with a ply, and
 * changes nothing: a legal move yes, an illegal or unreadable one no, Ōgi's
 * same move to the same position no (shogi has no such rule: yes), nothing
 * after the end or after a recorded resignation, nothing in another dialect. */
static void expect_allows(koma_referee *ref, const char *ply, int want)
{
    koma_error err;
    koma_error_clear(&err);
    int got = koma_referee_allows(ref, ply, strlen(ply), &err);
    if (got != want) fail_msg("allows %s: %d, not %d", ply, got, want);
}

static void test_allows(void **state)
{
    (void)state;
    koma_referee *ref = begin("ogi", "4k^3/8/8/8/8/8/8/4K^3 / O/o", 0);
    expect_allows(ref, "e1-d1", 1);
    expect_allows(ref, "e1-c1", 0);                 /* not a king's move */
    expect_allows(ref, "e8-d8", 0);                 /* not Sente's piece */
    expect_allows(ref, "e1-", 0);                   /* no move at all */
    assert_int_equal(feed(ref, "e1-d1 e8-d8 d1-e1 d8-e8"), KOMA_PLY_PLAYED);
    /* ply 5 would repeat ply 1 (the same move to the same position) */
    expect_allows(ref, "e1-d1", 0);
    expect_allows(ref, "e1-f1", 1);
    /* asking changed nothing: the repetition is still refused, the other move played */
    assert_int_equal(feed(ref, "e1-d1"), KOMA_PLY_ILLEGAL);
    expect_allows(ref, "e1-f1", 0);                 /* the game is over */
    koma_referee_free(ref);

    ref = begin("ogi", "4k^3/8/8/8/8/8/8/4K^3 / O/o", 0);
    feed(ref, "e1-d1 e8-d8 d1-e1 d8-e8");
    expect_allows(ref, "e1-f1", 1);
    assert_int_equal(feed(ref, "e1-f1"), KOMA_PLY_PLAYED);
    koma_referee_free(ref);

    /* shogi repeats positions, not moves: the same walk is allowed */
    ref = begin("minishogi", "k^4/5/5/5/4K^ / S/s", 0);
    feed(ref, "e1-d1 a5-b5 d1-e1 b5-a5");
    expect_allows(ref, "e1-d1", 1);
    koma_referee_free(ref);

    /* a resignation recorded after ply 2: ply 3 is after the end */
    ref = begin("ogi", NULL, 0);
    expect_rec(ref, "0-1", KOMA_STATUS_RESIGNATION, 2);
    expect_allows(ref, "e3-e4", 1);
    feed(ref, "e3-e4 e6-e5");
    expect_allows(ref, "f3-f4", 0);
    koma_referee_free(ref);

    /* another dialect than the canonical: never */
    ref = begin_dialect("ogi", "k^7/8/8/8/8/8/8/R3K^3 / O/o", 0, KOMA_PMN_DIALECT_SEED);
    expect_allows(ref, "a1-a2", 0);
    assert_int_equal(feed(ref, "a1-a2"), KOMA_PLY_PLAYED);
    koma_referee_free(ref);
}

/* ---- positions, setup errors, the FEEN that cannot be written -------------------------- */

static void test_track(void **state)
{
    (void)state;
    koma_referee *ref = begin("minishogi", "k^4/5/5/5/4K^ / S/s", KOMA_REFEREE_TRACK);
    feed(ref, "e1-d1 a5-b5 d1-e1 b5-a5 e1-d1 a5-b5");
    koma_repeats *t = koma_referee_positions(ref);
    assert_non_null(t);
    size_t n;
    koma_error err;
    assert_int_equal(koma_repeats_list(t, &n, &err), 0);
    assert_int_equal(n, 3);
    koma_repeat r;
    koma_repeats_at(t, 0, &r);
    assert_int_equal(r.count, 2);
    assert_string_equal(r.feen, "k^4/5/5/5/4K^ / S/s");
    unsigned long where, got[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(koma_repeats_where(t, &r, &where), 1);
        got[i] = where;
    }
    assert_int_equal(koma_repeats_where(t, &r, &where), 0);
    assert_int_equal(got[0], 0);
    assert_int_equal(got[1], 4);
    koma_referee_free(ref);
    /* (no table without KOMA_REFEREE_TRACK) */
    ref = begin("ogi", NULL, 0);
    assert_null(koma_referee_positions(ref));
    koma_referee_free(ref);
}

static void test_setup_errors(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);
    const koma_game *g = NULL;
    koma_error err;
    koma_error_clear(&err);
    /* a Ko shogi position with a piece the game does not have (Z^), a position
     * that does not fit */
    const char *ko = "Z^18/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 / K/k";
    assert_int_equal(koma_game_set_open_feen(games, ko, strlen(ko), &pos, &g, &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_PIECE);
    assert_non_null(g);
    g = game("shogi");
    assert_int_equal(koma_game_set_open_feen(games, LIT("k^7/8/8/8/8/8/8/4K^3 / O/o"), &pos, &g, &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_SHAPE);
    g = NULL;
    assert_int_equal(koma_game_set_open_feen(games, LIT("k^7/8/8/8/8/8/8/4K^3 / X/x"), &pos, &g, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_UNKNOWN);
    koma_position_cleanup(&pos);
}

/* ---- the record's claims: entering-king declarations and impasses ------------------ */

static void count_feen(const char *feen, int side, int rc, int in_zone, unsigned pieces,
                       unsigned zone_points, unsigned total)
{
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &pos, &err), 0);
    koma_entering_count c;
    assert_int_equal(koma_entering_count_side(&pos, side, &c), rc);
    if (rc == 0) {
        assert_int_equal(c.king_in_zone, in_zone);
        assert_int_equal(c.zone_pieces, pieces);
        assert_int_equal(c.zone_points, zone_points);
        assert_int_equal(c.total_points, total);
    }
    koma_position_cleanup(&pos);
}

/* The counts, by hand: a rook or bishop (promoted or not) 5, every other piece
 * but the king 1; the zone is the enemy's three ranks (Sente: the first three
 * ranks written, Gote: the last three). */
static void test_entering_count(void **state)
{
    (void)state;
    const char *start = koma_game_start(game("shogi"));
    /* the start: R B 10 + G G S S N N L L 8 + 9 P = 27 a side, nothing in the zone */
    count_feen(start, KOMA_FIRST, 0, 0, 0, 0, 27);
    count_feen(start, KOMA_SECOND, 0, 0, 0, 0, 27);
    /* Sente: 9a R, 8a B, 7a 6a G G, 4a 3a S S, 2a 1a 9b 8b tokins: 10 pieces,
     * 5 + 5 + 8 = 18 points; hand 6 P 2 L 2 N: 10; king 5b in the zone */
    const char *decl = "RBGG1SS+P+P/+P+P2K^4/9/9/9/9/6ppp/9/8k^ 6P2L2N/ S/s";
    count_feen(decl, KOMA_FIRST, 0, 1, 10, 28, 28);
    /* Gote there: king 1i and pawns 3g 2g 1g are in Sente's camp, Gote's zone */
    count_feen(decl, KOMA_SECOND, 0, 1, 3, 3, 3);
    /* promoted rook and bishop count 5 each */
    count_feen("+R+B7/4K^4/9/9/9/9/9/9/4k^4 / S/s", KOMA_FIRST, 0, 1, 2, 10, 10);
    /* hands only: Sente R R B 15 + G G S S N N L L 8 + 8 P = 31; Gote B 5 + 8 + 10 P = 23 */
    const char *hands = "4k^4/9/9/9/9/9/9/9/4K^4 8P2G2L2N2R2SB/10p2g2l2n2sb S/s";
    count_feen(hands, KOMA_FIRST, 0, 0, 0, 31, 31);
    count_feen(hands, KOMA_SECOND, 0, 0, 0, 23, 23);
    /* not a 9x9 board */
    count_feen(koma_game_start(game("minishogi")), KOMA_FIRST, -1, 0, 0, 0, 0);
}

/* A PCN record's claim judged by koma_referee_pcn under a run's rule. */
static void claim(const char *json, koma_declaration_rule run, koma_verdict *v)
{
    koma_error err;
    koma_error_clear(&err);
    koma_pcn *rec = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, json, strlen(json), KOMA_PCN_LIGHT, &rec, &err);
    if (rec == NULL) print_error("%s: %s\n", json, err.message);
    assert_non_null(rec);
    koma_referee *ref;
    koma_referee_options opt = {sizeof opt, KOMA_PMN_DIALECT_CANONICAL, 0, run};
    assert_int_equal(koma_referee_new(&opt, &ref, &err), 0);
    assert_int_equal(koma_referee_pcn(ref, games, NULL, rec, NULL, v, &err), 0);
    koma_referee_free(ref);
    koma_pcn_free(rec);
}

static void test_claims(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    /* 28 points, 10 pieces, king in the zone, not in check: the 27-point rule's win */
    const char *kachi = "{\"setup\":{\"feen\":\"RBGG1SS+P+P/+P+P2K^4/9/9/9/9/6ppp/9/8k^ 6P2L2N/ S/s\"},"
                        "\"outcome\":{\"result\":\"1-0\",\"ply\":0,\"csa\":\"%KACHI\"}}";
    claim(kachi, KOMA_DECLARE_DEFAULT, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_CLAIM);
    assert_int_equal(v.claim, KOMA_CLAIM_DECLARATION);
    assert_int_equal(v.claim_rule, KOMA_DECLARE_27);
    assert_int_equal(v.declarer, KOMA_FIRST);
    assert_int_equal(v.result, KOMA_RESULT_FIRST);
    assert_int_equal(v.points[KOMA_FIRST], 28);
    assert_int_equal(v.points_needed, 28);
    assert_int_equal(v.zone_pieces, 10);
    assert_int_equal(v.claim_failed, 0);
    assert_int_equal(v.disputes, 0);
    /* the same under the 24-point rule: 28 is from 24 to 30, a draw; the record's win disagrees */
    claim(kachi, KOMA_DECLARE_24, &v);
    assert_int_equal(v.result, KOMA_RESULT_DRAW);
    assert_int_equal(v.points_needed, 31);
    assert_int_equal(v.claim_failed, KOMA_CLAIM_FAIL_POINTS);
    assert_int_equal(v.disagrees, KOMA_MEMBER_RESULT);
    assert_true(v.disputes & KOMA_DISPUTE_OUTCOME);
    /* the record's rule option wins over the run's: try, 5a empty and not attacked */
    const char *try_rule = "{\"meta\":{\"rule_options\":{\"declaration\":\"try\"}},"
                           "\"setup\":{\"feen\":\"RBGG1SS+P+P/+P+P2K^4/9/9/9/9/6ppp/9/8k^ 6P2L2N/ S/s\"},"
                           "\"outcome\":{\"result\":\"1-0\",\"ply\":0,\"csa\":\"%KACHI\"}}";
    claim(try_rule, KOMA_DECLARE_24, &v);
    assert_int_equal(v.claim_rule, KOMA_DECLARE_TRY);
    assert_int_equal(v.result, KOMA_RESULT_FIRST);
    assert_int_equal(v.disputes, 0);
    /* two plies from the start: king out, no piece, no point */
    const char *early = "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
                        "\"plies\":[{\"pmn\":\"c3-c4\"},{\"pmn\":\"g7-g6\"}],"
                        "\"outcome\":{\"result\":\"1-0\",\"ply\":2,\"csa\":\"%KACHI\"}}";
    claim(early, KOMA_DECLARE_DEFAULT, &v);
    assert_int_equal(v.result, KOMA_RESULT_SECOND);
    assert_int_equal(v.claim_failed, KOMA_CLAIM_FAIL_ZONE | KOMA_CLAIM_FAIL_PIECES | KOMA_CLAIM_FAIL_POINTS);
    assert_int_equal(v.points[KOMA_FIRST], 0);
    assert_int_equal(v.ply, 2);
    assert_true(v.disputes & KOMA_DISPUTE_OUTCOME);
    /* impasse: Sente 31, Gote 23 below 24: Sente wins, the recorded draw disagrees */
    const char *imp = "{\"setup\":{\"feen\":\"4k^4/9/9/9/9/9/9/9/4K^4 8P2G2L2N2R2SB/10p2g2l2n2sb S/s\"},"
                      "\"outcome\":{\"result\":\"1/2-1/2\",\"ply\":0,\"csa\":\"%JISHOGI\"}}";
    claim(imp, KOMA_DECLARE_DEFAULT, &v);
    assert_int_equal(v.claim, KOMA_CLAIM_IMPASSE);
    assert_int_equal(v.points[KOMA_FIRST], 31);
    assert_int_equal(v.points[KOMA_SECOND], 23);
    assert_int_equal(v.result, KOMA_RESULT_FIRST);
    assert_int_equal(v.disagrees, KOMA_MEMBER_RESULT);
}

/* A recorded time loss against the clocks: main time 60 s, byo-yomi 10 s,
 * Sente's thinks t1 and t3 (ms) on plies 1 and 3, its last think (-1: not
 * recorded); the time left and spent counted by hand beside each case. */
static void clock_case(long long t1, long long t3, long long last, int state, long long left,
                       long long spent)
{
    char json[1024], end[48] = "";
    if (last >= 0) snprintf(end, sizeof end, ",\"elapsed_ms\":%lld", last);
    snprintf(json, sizeof json,
             "{\"periods\":[{\"duration_ms\":60000},{\"duration_ms\":10000,\"plies\":1}],"
             "\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
             "\"plies\":[{\"pmn\":\"c3-c4\",\"elapsed_ms\":%lld},{\"pmn\":\"g7-g6\",\"elapsed_ms\":1000},"
             "{\"pmn\":\"h3-h4\",\"elapsed_ms\":%lld},{\"pmn\":\"b7-b6\",\"elapsed_ms\":1000}],"
             "\"outcome\":{\"result\":\"0-1\",\"status\":\"timelimit\",\"ply\":4%s}}",
             t1, t3, end);
    koma_verdict v = KOMA_VERDICT_INIT;
    claim(json, KOMA_DECLARE_DEFAULT, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_RECORDED);
    assert_int_equal(v.clock, state);
    assert_int_equal(v.clock_side, KOMA_FIRST);
    if (state != KOMA_CLOCK_UNCHECKED) {
        assert_int_equal(v.clock_left_ms, left);
        assert_int_equal(v.clock_spent_ms, spent);
    }
    assert_int_equal((v.disputes & KOMA_DISPUTE_CLOCK) != 0,
                     state == KOMA_CLOCK_TIME_LEFT || state == KOMA_CLOCK_EARLIER);
}

static void test_clock(void **state)
{
    (void)state;
    /* 20.9 s and 29.5 s count 20 and 29: 60 - 49 = 11 left + 10 byo-yomi = 21 */
    clock_case(20900, 29500, 21999, KOMA_CLOCK_TIME_LEFT, 21000, 21000);
    clock_case(20900, 29500, 22000, KOMA_CLOCK_AGREES, 21000, 22000);
    /* 55 then 15 (5 of main, 10 of byo-yomi): 0 + 10 left; 10 in time, 11 out */
    clock_case(55000, 15000, 10000, KOMA_CLOCK_TIME_LEFT, 10000, 10000);
    clock_case(55000, 15000, 11000, KOMA_CLOCK_AGREES, 10000, 11000);
    /* 55 then 16, over 5 + 10: ran out on ply 3 */
    clock_case(55000, 16000, 11000, KOMA_CLOCK_EARLIER, 15000, 16000);
    /* no last think: not checked */
    clock_case(10000, 10000, -1, KOMA_CLOCK_UNCHECKED, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ogi),
        cmocka_unit_test(test_movelimit),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_ogi_classic),
        cmocka_unit_test(test_shogi),
        cmocka_unit_test(test_read_ahead),
        cmocka_unit_test(test_minishogi),
        cmocka_unit_test(test_okisaki),
        cmocka_unit_test(test_survival),
        cmocka_unit_test(test_termination),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_recorded),
        cmocka_unit_test(test_recorded_every_game),
        cmocka_unit_test(test_gave_up),
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_unreadable),
        cmocka_unit_test(test_dialect),
        cmocka_unit_test(test_allows),
        cmocka_unit_test(test_track),
        cmocka_unit_test(test_setup_errors),
        cmocka_unit_test(test_entering_count),
        cmocka_unit_test(test_claims),
        cmocka_unit_test(test_clock),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
