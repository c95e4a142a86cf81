/*
 * tests/unit/test_referee_koshogi.c — the referee (koma/referee.h) on Ko shogi,
 * the effect engine behind koma/engine.h: every kind of verdict the game has
 * (the survival test after a ply, both sides failing it, the fourfold
 * repetition, perpetual check on the sole commanding piece, an illegal ply, the
 * record's own ending), plies as PMN chains (leg forms and non-canonical orders
 * are notation slips), the repeated position's FEEN keeping the tokens' "'",
 * and rule options from a PCN record's meta.
 */
#include "unit.h"

#include <stdlib.h>

static const koma_game *ko(void)
{
    const koma_game *g = koma_game_set_find_id(games_set(), "koshogi", 7);
    assert_non_null(g);
    return g;
}

/* A referee on Ko shogi from feen (NULL: the start). */
static koma_referee *begin(const char *feen)
{
    koma_referee *ref;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_referee_new(NULL, &ref, &err), 0);
    const koma_game *g = ko();
    if (feen == NULL) feen = koma_game_start(g);
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_game_set_open_feen(games_set(), feen, strlen(feen), &pos, &g, &err);
    if (rc == 0) rc = koma_referee_begin(ref, g, &pos, &err);
    if (rc != 0) print_error("%s: %s\n", feen, err.message);
    assert_int_equal(rc, 0);
    koma_position_cleanup(&pos);
    return ref;
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

static void expect(const char *feen, const char *plies, koma_verdict_kind kind, koma_status st,
                   koma_result res, size_t ply, int mover, koma_verdict *v)
{
    koma_referee *ref = begin(feen);
    feed(ref, plies);
    finish(ref, v);
    if (v->kind != kind || v->status != st || v->result != res || v->ply != ply ||
        v->mover != mover)
        print_error("[%s]: kind %d status %s result %s ply %zu mover %d\n", plies, v->kind,
                    koma_cgsn_name(v->status), koma_result_name(v->result), v->ply, v->mover);
    assert_int_equal(v->kind, kind);
    assert_int_equal(v->has_status, 1);
    assert_int_equal(v->status, st);
    assert_int_equal(v->result, res);
    assert_int_equal(v->has_ply, 1);
    assert_int_equal(v->ply, ply);
    assert_int_equal(v->mover, mover);
    koma_referee_free(ref);
}

/* tests/koshogi/movelists/29: the second player has its general only (j11). */
#define LONE_GENERAL "19/19/19/19/19/19/19/12L6/9k^9/9GK^8/19/19/19/19/19/19/19/19/19 / K/k"
/* movelists/32: both generals alone, an enemy poison flame on k12 beside j11. */
#define FLAME "19/19/19/19/19/19/19/10+u8/9k^1S7/9K^9/19/19/19/19/19/19/19/19/19 / K/k"
/* movelists/30: the second player lives on middle troop j12 + banner j14 */
#define PAIR "19/19/19/19/19/9b^9/19/9m^9/19/19/10F8/19/19/19/19/19/19/19/K^18 / K/k"

static void test_survival(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    /* the general taken: the mover wins at that ply */
    expect(LONE_GENERAL, "k10+j11", KOMA_VERDICT_RULES, KOMA_STATUS_MAREKING, KOMA_RESULT_FIRST,
           1, KOMA_FIRST, &v);
    assert_string_equal(v.move, "k10+j11");
    /* by a long bow's shot, the shooter promoting (a shot is a capture), after a first ply of the
     * second player that does not end the game */
    expect(LONE_GENERAL, "m12-l11 j11-i12 l11-m12 i12-j11 m12-l11=+L,+j11", KOMA_VERDICT_RULES,
           KOMA_STATUS_MAREKING, KOMA_RESULT_FIRST, 5, KOMA_FIRST, &v);
    /* the gatling's two shots take middle troop and banner: the pair is broken */
    expect(PAIR, "k9-j10=+F,+j12,+j14", KOMA_VERDICT_RULES, KOMA_STATUS_MAREKING,
           KOMA_RESULT_FIRST, 1, KOMA_FIRST, &v);
    /* one of the pair is enough: the banner alone does not survive */
    expect(PAIR, "k9-j10=+F,+j12", KOMA_VERDICT_RULES, KOMA_STATUS_MAREKING, KOMA_RESULT_FIRST, 1,
           KOMA_FIRST, &v);
    /* a move that takes nothing: the game goes on */
    koma_referee *ref = begin(PAIR);
    assert_int_equal(feed(ref, "k9-l8 j12-j11"), KOMA_PLY_PLAYED);
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    koma_referee_free(ref);
}

static void test_both_fail(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    /* the general takes the enemy general beside an enemy flame and burns (burned on arrival):
     * both sides fail the survival test; the mover's capture came first, it wins */
    expect(FLAME, "j10+j11,+j11", KOMA_VERDICT_RULES, KOMA_STATUS_MAREKING, KOMA_RESULT_FIRST, 1,
           KOMA_FIRST, &v);
    /* only destroying itself (legal): the mover loses */
    expect(FLAME, "j10-k11,+k11", KOMA_VERDICT_RULES, KOMA_STATUS_MAREKING, KOMA_RESULT_SECOND, 1,
           KOMA_FIRST, &v);
    /* the same in a position the second player moves in: the second player wins */
    expect("19/19/19/19/19/19/19/19/9k^9/9K^1s7/10+U8/19/19/19/19/19/19/19/19 / k/K",
           "j11+j10,+j10", KOMA_VERDICT_RULES, KOMA_STATUS_MAREKING, KOMA_RESULT_SECOND, 1,
           KOMA_SECOND, &v);
}

/* Generals in opposite corners, a chariot unit R' on j10 that never moves. */
#define CORNERS "18k^/19/19/19/19/19/19/19/19/9R'9/19/19/19/19/19/19/19/19/K^18 / K/k"
#define SHUFFLE "a1-a2 s19-s18 a2-a1 s18-s19 "

static void test_fourfold(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    koma_referee *ref;
    /* the setup a fourth time at ply 12: no contest */
    expect(CORNERS, SHUFFLE SHUFFLE SHUFFLE, KOMA_VERDICT_RULES, KOMA_STATUS_REPETITION,
           KOMA_RESULT_DRAW, 12, KOMA_SECOND, &v);
    assert_int_equal(v.perpetual, -1);
    /* the repeated position keeps the tokens' "'" (a chariot unit is not a chariot) */
    assert_string_equal(v.repeated_feen, CORNERS);
    /* three times only: the game goes on */
    ref = begin(CORNERS);
    feed(ref, SHUFFLE SHUFFLE "a1-a2 s19-s18 a2-a1");
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    koma_referee_free(ref);
}

/* The second player's sole commanding piece (its general, s19) and a promoted
 * chariot (a rook) that checks it on every move of the cycle. */
#define CHECKER "18k^/+R18/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k"
#define CHECK_CYCLE "a18-a19 s19-s18 a19-a18 s18-s19 "

static void test_perpetual_check(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    expect(CHECKER, CHECK_CYCLE CHECK_CYCLE CHECK_CYCLE, KOMA_VERDICT_RULES,
           KOMA_STATUS_REPETITION, KOMA_RESULT_SECOND, 12, KOMA_SECOND, &v);
    assert_int_equal(v.perpetual, KOMA_FIRST);
    /* a shot is a threat too: a long bow on g14 shoots j17 (range 3) after its
     * diagonal steps; it checks the general from h15 and i16, not from g14 */
    koma_referee *ref = begin("19/19/9k^9/19/19/6L12/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k");
    feed(ref, "g14-h15 j17-j16");
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    koma_referee_free(ref);
    koma_engine *en;
    koma_error err;
    assert_int_equal(koma_engine_new(ko(), &en, &err), 0);
    assert_int_equal(koma_engine_set_feen(en, LIT("19/19/9k^9/19/19/6L12/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k"), &err), 0);
    assert_int_equal(koma_engine_threatens(en, KOMA_FIRST), 1);   /* g14-h15,+j17 ... */
    assert_int_equal(koma_engine_threatens(en, KOMA_SECOND), 0);
    koma_engine_free(en);
}

static void test_illegal(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    /* no legal move matches: the mover loses, the ply is not applied */
    expect(NULL, "a1-a5", KOMA_VERDICT_RULES, KOMA_STATUS_ILLEGALMOVE, KOMA_RESULT_SECOND, 1,
           KOMA_FIRST, &v);
    assert_int_equal(v.illegal, 1);
    assert_int_equal(v.played, 0);
    /* a shot the piece cannot make (out of the long bow's range) */
    expect(LONE_GENERAL, "m12-l13=+L,+j17", KOMA_VERDICT_RULES, KOMA_STATUS_ILLEGALMOVE,
           KOMA_RESULT_SECOND, 1, KOMA_FIRST, &v);
    /* a chain missing its burn is not the move (burned on arrival: the burn is part of it) */
    expect(FLAME, "j10+j11", KOMA_VERDICT_RULES, KOMA_STATUS_ILLEGALMOVE, KOMA_RESULT_SECOND, 1,
           KOMA_FIRST, &v);
    /* the second player's illegal ply */
    expect(NULL, "b2-c2 a19-a15", KOMA_VERDICT_RULES, KOMA_STATUS_ILLEGALMOVE, KOMA_RESULT_FIRST,
           2, KOMA_SECOND, &v);
}

static void test_not_a_move(void **state)
{
    (void)state;
    /* text that is no PMN chain at all: the record cannot be judged */
    koma_referee *ref = begin(NULL);
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_referee_ply(ref, LIT("b2-c2,,"), &err), KOMA_PLY_UNREADABLE);
    koma_verdict v = KOMA_VERDICT_INIT;
    finish(ref, &v);
    assert_int_equal(v.kind, KOMA_VERDICT_UNREADABLE);
    koma_referee_free(ref);
    /* a leg form of a legal move: applied, as a notation slip naming the canonical chain */
    ref = begin(PAIR);
    koma_error_clear(&err);
    assert_int_equal(koma_referee_ply(ref, LIT("k9-j10=+F,+j14,+j12"), &err), KOMA_PLY_NOTATION);
    assert_int_equal(err.code, KOMA_E_REPLAY_NOTATION);
    assert_non_null(strstr(err.message, "\"k9-j10=+F,+j12,+j14\""));
    finish(ref, &v);
    assert_int_equal(v.status, KOMA_STATUS_MAREKING);
    assert_int_equal(v.result, KOMA_RESULT_FIRST);
    koma_referee_free(ref);
}

static void test_recorded(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    const char *st[] = {"resignation", "timelimit", "agreement"};
    const char *res[] = {"0-1", "1-0", "1/2-1/2"};
    koma_status want[] = {KOMA_STATUS_RESIGNATION, KOMA_STATUS_TIMELIMIT, KOMA_STATUS_AGREEMENT};
    for (int i = 0; i < 3; i++) {
        koma_referee *ref = begin(NULL);
        koma_recorded rec;
        memset(&rec, 0, sizeof rec);
        rec.has_result = 1;
        strcpy(rec.result, res[i]);
        rec.has_status = 1;
        assert_int_equal(koma_cgsn_parse(st[i], strlen(st[i]), &rec.status, NULL), 0);
        koma_referee_expect(ref, &rec);
        feed(ref, "b2-c2 r18-q18");
        finish(ref, &v);
        assert_int_equal(v.kind, KOMA_VERDICT_RECORDED);
        assert_int_equal(v.status, want[i]);
        assert_string_equal(v.result_text, res[i]);
        assert_int_equal(v.disputes, 0);
        koma_referee_free(ref);
    }
}

/* Judge a JSON record with koma_referee_pcn: 0 judged (v), 1 not judgeable (err). */
static int judge_json(koma_referee *ref, const char *json, koma_verdict *v, koma_error *err)
{
    koma_pcn *rec = NULL;
    koma_pcn_parse_json(json, strlen(json), &rec, err);
    assert_non_null(rec);
    int rc = koma_referee_pcn(ref, games_set(), NULL, rec, NULL, v, err);
    koma_pcn_free(rec);
    return rc;
}

/* A gatling on g7 and a pawn on h15: the step to h8 and a shot 7 points away. */
#define GATLING "18k^/19/19/19/7p11/19/19/19/19/19/19/19/6F12/19/19/19/19/19/K^18 / K/k"

static void test_rule_options(void **state)
{
    (void)state;
    koma_referee *ref;
    koma_error err;
    koma_verdict v = KOMA_VERDICT_INIT;
    assert_int_equal(koma_referee_new(NULL, &ref, &err), 0);
    /* default rules (gatling.range 7): the shot is legal */
    assert_int_equal(judge_json(ref, "{\"setup\":{\"feen\":\"" GATLING "\"},"
                                     "\"plies\":[{\"pmn\":\"g7-h8,+h15\"}]}", &v, &err), 0);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    assert_int_equal(v.played, 1);
    /* meta.rule_options: gatling.range 5 (a string or an integer): the same ply is illegal */
    const char *five[] = {"\"5\"", "5"};
    for (int i = 0; i < 2; i++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"meta\":{\"rule_options\":{\"gatling.range\":%s}},\"setup\":{\"feen\":\"" GATLING
                 "\"},\"plies\":[{\"pmn\":\"g7-h8,+h15\"}]}", five[i]);
        assert_int_equal(judge_json(ref, json, &v, &err), 0);
        assert_int_equal(v.kind, KOMA_VERDICT_RULES);
        assert_int_equal(v.status, KOMA_STATUS_ILLEGALMOVE);
        assert_int_equal(v.result, KOMA_RESULT_SECOND);
        assert_string_equal(koma_game_id(v.game), "koshogi");
    }
    /* a boolean: no pass for double movers (a wrestler's pass "..." is illegal) */
    const char *ws = "{\"meta\":{\"rule_options\":{\"double-movers.pass\":false}},"
                     "\"setup\":{\"feen\":\"18k^/19/19/19/19/19/19/19/19/9W9/19/19/19/19/19/19/19/19/K^18 / K/k\"},"
                     "\"plies\":[{\"pmn\":\"...\"}]}";
    assert_int_equal(judge_json(ref, ws, &v, &err), 0);
    assert_int_equal(v.status, KOMA_STATUS_ILLEGALMOVE);
    /* nor a pass that promotes in place: a cavalry in its zone out and back for
     * nothing, "j15=+N'", is illegal without passes, legal by default; its igui
     * with the promotion is legal both ways */
    static const char *const cz[] = {"j15=+N'", "+k17,j15=+N'"};
    for (int i = 0; i < 2; i++)
        for (int pass = 0; pass < 2; pass++) {
            char json[1024];
            snprintf(json, sizeof json,
                     "{\"meta\":{\"rule_options\":{\"double-movers.pass\":%s}},"
                     "\"setup\":{\"feen\":\"18k^/19/10p8/19/9N'9/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k\"},"
                     "\"plies\":[{\"pmn\":\"%s\"}]}", pass ? "true" : "false", cz[i]);
            assert_int_equal(judge_json(ref, json, &v, &err), 0);
            if (i == 0 && !pass) {
                assert_int_equal(v.status, KOMA_STATUS_ILLEGALMOVE);
                assert_int_equal(v.result, KOMA_RESULT_SECOND);
                assert_int_equal(v.played, 0);
            } else {
                assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
                assert_int_equal(v.played, 1);
            }
        }
    /* and the default again, after the variants */
    assert_int_equal(judge_json(ref, "{\"meta\":{\"rule_options\":{}},\"setup\":{\"feen\":\"" GATLING "\"},"
                                     "\"plies\":[{\"pmn\":\"g7-h8,+h15\"}]}", &v, &err), 0);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    /* options that cannot be honoured: the record cannot be judged */
    /* (and the member at fault: the option, or the object itself) */
    static const struct { const char *opts; koma_code code; const char *member; } bad[] = {
        {"{\"gatling.range\":\"6\"}", KOMA_E_GAME_OPTION_VALUE, "/meta/rule_options/gatling.range"},
        {"{\"no.such\":\"x\"}", KOMA_E_GAME_OPTION_UNKNOWN, "/meta/rule_options/no.such"},
        {"{\"hand\":\"shogi\"}", KOMA_E_GAME_OPTION_UNSUPPORTED, "/meta/rule_options/hand"},
        {"{\"gatling.range\":[5]}", KOMA_E_GAME_OPTION_VALUE, "/meta/rule_options/gatling.range"},
        {"\"gatling.range=5\"", KOMA_E_GAME_OPTION_VALUE, "/meta/rule_options"},
        /* the second of two options; a name with '/' and '~' escaped */
        {"{\"gatling.range\":5,\"hand\":\"shogi\"}", KOMA_E_GAME_OPTION_UNSUPPORTED,
         "/meta/rule_options/hand"},
        {"{\"gatling.range\":\"5\",\"a/b~c\":1}", KOMA_E_GAME_OPTION_UNKNOWN, "/meta/rule_options/a~1b~0c"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char json[1024];
        snprintf(json, sizeof json, "{\"meta\":{\"rule_options\":%s},\"setup\":{\"feen\":\"" GATLING
                 "\"},\"plies\":[]}", bad[i].opts);
        koma_error_clear(&err);
        assert_int_equal(judge_json(ref, json, &v, &err), 1);
        if (err.code != bad[i].code) print_error("%s: %s\n", bad[i].opts, err.message);
        assert_int_equal(err.code, bad[i].code);
        assert_string_equal(v.unjudged_member, bad[i].member);
    }
    /* a game without options */
    koma_error_clear(&err);
    assert_int_equal(judge_json(ref, "{\"meta\":{\"rule_options\":{\"gatling.range\":\"5\"}},"
                                     "\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"}}",
                                &v, &err), 1);
    assert_int_equal(err.code, KOMA_E_GAME_OPTION_UNKNOWN);
    assert_string_equal(v.unjudged_member, "/meta/rule_options");
    /* options that are fine and a position that does not fit the game: the setup */
    koma_error_clear(&err);
    assert_int_equal(judge_json(ref, "{\"meta\":{\"rule_options\":{\"gatling.range\":\"5\"}},"
                                     "\"setup\":{\"feen\":\"18k^/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/B18 / K/k\"}}",
                                &v, &err), 1);
    assert_string_equal(v.unjudged_member, "/setup/feen");
    koma_referee_free(ref);
}

/* The limits of meta.rule_options: 32 members, values of 24 bytes, names the
 * member pointer cannot hold (the object itself is named), 32 different
 * settings in one run (the 33rd is game.limit; those seen before still play). */
static void test_rule_options_limits(void **state)
{
    (void)state;
    koma_referee *ref;
    koma_error err;
    koma_verdict v = KOMA_VERDICT_INIT;
    assert_int_equal(koma_referee_new(NULL, &ref, &err), 0);
    char opts[2048], json[4096];
    size_t k = (size_t)sprintf(opts, "{");
    for (int i = 0; i < 33; i++) k += (size_t)sprintf(opts + k, "%s\"o%d\":1", i ? "," : "", i);
    sprintf(opts + k, "}");
    char longname[300];
    memset(longname, 'x', 200);
    longname[200] = '\0';
    char longopt[400];
    sprintf(longopt, "{\"%s\":1}", longname);
    static const struct { const char *opts; koma_code code; const char *member; } bad[] = {
        {"{\"gatling.range\":\"7777777777777777777777777\"}", KOMA_E_GAME_OPTION_VALUE,
         "/meta/rule_options/gatling.range"},
        {NULL, KOMA_E_GAME_OPTION_VALUE, "/meta/rule_options"},     /* 33 members */
        {NULL, KOMA_E_GAME_OPTION_UNKNOWN, "/meta/rule_options"},   /* a 200-byte name */
    };
    for (size_t i = 0; i < 3; i++) {
        snprintf(json, sizeof json, "{\"meta\":{\"rule_options\":%s},\"setup\":{\"feen\":\"" GATLING
                 "\"},\"plies\":[]}", bad[i].opts ? bad[i].opts : i == 1 ? opts : longopt);
        koma_error_clear(&err);
        assert_int_equal(judge_json(ref, json, &v, &err), 1);
        if (err.code != bad[i].code) fail_msg("%zu: %s", i, err.message);
        assert_string_equal(v.unjudged_member, bad[i].member);
    }
    /* 33 different settings: 2 gatling ranges x 3 shooting times x 3 fog reversions x 3 paths */
    static const char *const gat[] = {"7", "5"}, *const when[] = {"after-move", "in-place", "both"},
                             *const fog[] = {"line-5", "line-5-clear", "box-5-enemy-only"},
                             *const path[] = {"no-revisit", "any", "no-reversal"};
    int n = 0, limited = 0;
    for (int a = 0; a < 2 && !limited; a++)
        for (int b = 0; b < 3 && !limited; b++)
            for (int c = 0; c < 3 && !limited; c++)
                for (int d = 0; d < 3 && !limited; d++) {
                    snprintf(json, sizeof json,
                             "{\"meta\":{\"rule_options\":{\"gatling.range\":\"%s\",\"shoot.when\":\"%s\","
                             "\"fog.revert\":\"%s\",\"thunderclap.path\":\"%s\"}},\"setup\":{\"feen\":\"" GATLING
                             "\"},\"plies\":[]}", gat[a], when[b], fog[c], path[d]);
                    koma_error_clear(&err);
                    int rc = judge_json(ref, json, &v, &err);
                    n++;
                    if (rc == 1) {
                        assert_int_equal(err.code, KOMA_E_GAME_LIMIT);
                        limited = n;
                    } else {
                        assert_int_equal(rc, 0);
                    }
                }
    assert_int_equal(limited, 33);
    /* a setting seen before is still played */
    snprintf(json, sizeof json, "{\"meta\":{\"rule_options\":{\"gatling.range\":\"7\",\"shoot.when\":"
             "\"after-move\",\"fog.revert\":\"line-5\",\"thunderclap.path\":\"any\"}},\"setup\":{\"feen\":\""
             GATLING "\"},\"plies\":[{\"pmn\":\"g7-h8,+h15\"}]}");
    assert_int_equal(judge_json(ref, json, &v, &err), 0);
    assert_int_equal(v.kind, KOMA_VERDICT_UNFINISHED);
    assert_int_equal(v.played, 1);
    koma_referee_free(ref);
}

/* The moves of a position whose text starts with `prefix`, joined by ' ' (sorted). */
static void moves_from(const char *feen, const char *prefix, char *out, size_t cap)
{
    koma_engine *e;
    koma_error err;
    assert_int_equal(koma_engine_new(ko(), &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, feen, strlen(feen), &err), 0);
    koma_emove *m = malloc(koma_engine_max_moves(e) * sizeof *m);
    assert_non_null(m);
    size_t n = koma_engine_legal_moves(e, m);
    list l = LIST_INIT;
    for (size_t i = 0; i < n; i++) {
        char t[KOMA_MOVE_TEXT_BUF];
        koma_engine_move_text(e, m[i], t, sizeof t);
        if (strncmp(t, prefix, strlen(prefix)) == 0) list_add(&l, t);
    }
    list_sort(&l);
    out[0] = '\0';
    for (size_t i = 0; i < l.n; i++) {
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, l.m[i], cap - strlen(out) - 1);
    }
    list_free(&l);
    free(m);
    koma_engine_free(e);
}

/* The engine API on Ko shogi: koma_engine_find_move finds every legal move
 * that is one PMN move as that move (and refuses the others), koma_engine_ply
 * counts the plies made and taken back. */
static void test_engine_api(void **state)
{
    (void)state;
    static const char feen[] = "19/19/9k^9/19/19/6L12/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k";
    koma_engine *e;
    koma_error err;
    assert_int_equal(koma_engine_new(ko(), &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, LIT(feen), &err), 0);
    assert_int_equal(koma_engine_ply(e), 0);
    koma_emove *m = malloc(koma_engine_max_moves(e) * sizeof *m);
    assert_non_null(m);
    size_t n = koma_engine_legal_moves(e, m), single = 0;
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        koma_move pm;
        if (koma_engine_move_pmn(e, m[i], &pm) != 0) continue;   /* a chain */
        single++;
        koma_emove found;
        if (koma_engine_find_move(e, &pm, &found, &err) != 0) fail_msg("%zu: %s", i, err.message);
        char a[KOMA_MOVE_TEXT_BUF], b[KOMA_MOVE_TEXT_BUF];
        koma_engine_move_text(e, m[i], a, sizeof a);
        koma_engine_move_text(e, found, b, sizeof b);
        assert_string_equal(a, b);
    }
    assert_true(single > 0);
    koma_move pm;
    assert_int_equal(koma_pmn_parse(LIT("a1-a3"), &pm, &err), 0);     /* not a general's move */
    assert_int_equal(koma_engine_find_move(e, &pm, &m[0], &err), -1);
    assert_int_equal(koma_engine_make(e, m[n - 1], &err), 0);
    assert_int_equal(koma_engine_ply(e), 1);
    assert_int_equal(koma_engine_unmake(e), 0);
    assert_int_equal(koma_engine_ply(e), 0);
    free(m);
    koma_engine_free(e);
}

/* Lead ruling: a clerk that enters the zone beside an enemy poison flame burns on
 * arrival before it could promote: no promotion, no cascade of its guards. */
static void test_clerk_beside_flame(void **state)
{
    (void)state;
    char got[512];
    /* no flame: the clerk may promote entering the zone, its guard b15 with it (the clerk's cascade) */
    moves_from("18k^/19/19/19/1A17/19/19/9I9/19/19/19/19/19/19/19/19/19/19/K^18 / K/k", "j12-j14",
               got, sizeof got);
    assert_string_equal(got, "j12-j14 j12-j14=+I,b15=+A");
    /* an enemy flame on k15: burned on arrival, nothing else */
    moves_from("18k^/19/19/19/1A8+u8/19/19/9I9/19/19/19/19/19/19/19/19/19/19/K^18 / K/k", "j12-j14",
               got, sizeof got);
    assert_string_equal(got, "j12-j14,+j14");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_survival),
        cmocka_unit_test(test_both_fail),
        cmocka_unit_test(test_fourfold),
        cmocka_unit_test(test_perpetual_check),
        cmocka_unit_test(test_illegal),
        cmocka_unit_test(test_not_a_move),
        cmocka_unit_test(test_recorded),
        cmocka_unit_test(test_rule_options),
        cmocka_unit_test(test_rule_options_limits),
        cmocka_unit_test(test_clerk_beside_flame),
        cmocka_unit_test(test_engine_api),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
