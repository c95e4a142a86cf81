/*
 * tests/unit/test_verdict.c — a verdict in words and written back into its
 * record (koma/verdict.h): the reason sentence, each dispute's message, the
 * snprintf-like lengths (a short buffer cut, the whole length returned), and
 * the outcome writer.
 */
#include "unit.h"

static koma_game_set *games;
static koma_referee *ref;

static int setup(void **state)
{
    (void)state;
    koma_error err;
    if (koma_game_set_new(&games, &err) != 0) return -1;
    return koma_referee_new(NULL, &ref, &err);
}

static int teardown(void **state)
{
    (void)state;
    koma_referee_free(ref);
    koma_game_set_free(games);
    return 0;
}

#define MINI "{\"setup\":{\"feen\":\"rbsgk^/4p/5/P4/K^GSBR / S/s\"},"

/* Judge a PCN record (JSON) into *v; the record is returned (to free). */
static koma_pcn *judge(const char *json, koma_verdict *v)
{
    koma_error err;
    koma_pcn *rec = NULL;
    koma_pcn_parse_json(json, strlen(json), &rec, &err);
    assert_non_null(rec);
    assert_int_equal(koma_referee_pcn(ref, games, NULL, rec, NULL, v, &err), 0);
    return rec;
}

static void reason_is(const char *json, const char *want)
{
    koma_verdict v = KOMA_VERDICT_INIT;
    koma_pcn *rec = judge(json, &v);
    char buf[512];
    size_t n = koma_verdict_reason(&v, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
    koma_pcn_free(rec);
}

static void test_reasons(void **state)
{
    (void)state;
    reason_is(MINI "\"plies\":[{\"pmn\":\"e1-e3\"}],\"outcome\":{\"result\":\"1-0\",\"status\":\"resignation\"}}",
              "Gote resigned after ply 1 (recorded); Sente wins");
    reason_is(MINI "\"plies\":[{\"pmn\":\"e1-e5\"}]}",
              "Sente's ply 1 \"e1-e5\" is illegal (move onto an enemy piece (write '+')); Gote wins");
    reason_is(MINI "\"plies\":[{\"pmn\":\"e1-e3\"},{\"pmn\":\"c5-d4\"}]}",
              "the game is not over after 2 plies; Sente to move");
}

/* A buffer too short: cut and NUL-terminated, the whole length returned. */
static void test_short_buffer(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    koma_pcn *rec = judge(MINI "\"plies\":[{\"pmn\":\"e1-e3\"},{\"pmn\":\"c5-d4\"}]}", &v);
    const char *want = "the game is not over after 2 plies; Sente to move";
    char buf[8];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(koma_verdict_reason(&v, buf, sizeof buf), strlen(want));
    assert_string_equal(buf, "the gam");
    assert_int_equal(koma_verdict_reason(&v, NULL, 0), strlen(want));
    koma_pcn_free(rec);
}

static void test_disputes(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    koma_pcn *rec = judge(MINI "\"plies\":[{\"pmn\":\"e1-e5\"}]}", &v);
    char buf[512];
    assert_true(v.disputes & KOMA_DISPUTE_ILLEGAL);
    koma_verdict_dispute(&v, KOMA_DISPUTE_ILLEGAL, buf, sizeof buf);
    assert_string_equal(buf, "ply 1 \"e1-e5\" by Sente: move onto an enemy piece (write '+'); legal from "
                             "e1: e1+e4/P, e1-e2, e1-e3; the rules give 0-1 (illegalmove)");
    /* a flag the verdict does not have: the empty text */
    assert_int_equal(koma_verdict_dispute(&v, KOMA_DISPUTE_EXTRA, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    koma_pcn_free(rec);

    rec = judge(MINI "\"plies\":[{\"pmn\":\"e1-e3\"},{\"pmn\":\"c5-d4\"}],"
                     "\"outcome\":{\"result\":\"1-0\",\"status\":\"checkmate\",\"ply\":2}}", &v);
    assert_true(v.disputes & KOMA_DISPUTE_OUTCOME);
    koma_verdict_dispute(&v, KOMA_DISPUTE_OUTCOME, buf, sizeof buf);
    assert_string_equal(buf, "recorded 1-0 checkmate at ply 2, but the rules do not end the game after "
                             "ply 2: Sente is not in check");
    assert_string_equal(koma_outcome_member_pointer(v.disagrees), "/outcome/status");
    assert_null(koma_outcome_member_pointer(KOMA_MEMBER_NONE));
    koma_pcn_free(rec);
}

/* The verdict written back: the rules' ending replaces the record's. */
static void test_outcome(void **state)
{
    (void)state;
    koma_verdict v = KOMA_VERDICT_INIT;
    koma_error err;
    koma_pcn *rec = judge(MINI "\"plies\":[{\"pmn\":\"e1-e5\"}]}", &v);
    assert_int_equal(koma_verdict_outcome(&v, rec, &err), 0);
    assert_string_equal(koma_pcn_outcome_result(rec), "0-1");
    assert_string_equal(koma_pcn_outcome_status(rec), "illegalmove");
    uint64_t ply = 0;
    assert_int_equal(koma_pcn_outcome_ply(rec, &ply), 1);
    assert_int_equal(ply, 1);
    koma_pcn_free(rec);

    /* a result kept with no status: the recorded status is removed */
    rec = judge(MINI "\"plies\":[{\"pmn\":\"e1-e3\"},{\"pmn\":\"c5-d4\"}],"
                     "\"outcome\":{\"result\":\"1-0\",\"status\":\"checkmate\",\"ply\":2}}", &v);
    assert_int_equal(koma_verdict_outcome(&v, rec, &err), 0);
    assert_string_equal(koma_pcn_outcome_result(rec), "1-0");
    assert_null(koma_pcn_outcome_status(rec));
    koma_pcn_free(rec);
}

/* A notation slip's message names the player as the game does: Sente and Gote
 * by default, Sanki's own names there. */
static void test_notation_message(void **state)
{
    (void)state;
    koma_error err;
    koma_error_set(&err, KOMA_E_REPLAY_NOTATION, 0, "not the canonical form");
    char buf[256];
    size_t n = koma_ply_notation_message(7, "h5+f7", 5, NULL, KOMA_FIRST, &err, buf, sizeof buf);
    assert_string_equal(buf, "ply 7 \"h5+f7\" by Sente: not the canonical form");
    assert_int_equal(n, strlen(buf));
    const koma_game *shogi = koma_game_set_find_id(games, "shogi", 5);
    koma_ply_notation_message(2, "e7-e6", 5, shogi, KOMA_SECOND, &err, buf, sizeof buf);
    assert_string_equal(buf, "ply 2 \"e7-e6\" by Gote: not the canonical form");
    const koma_game *sanki = koma_game_set_find_id(games, "sanki", 5);
    assert_non_null(sanki);
    koma_ply_notation_message(7, "h5+f7", 5, sanki, KOMA_FIRST, &err, buf, sizeof buf);
    assert_string_equal(buf, "ply 7 \"h5+f7\" by the first player: not the canonical form");
    n = koma_ply_notation_message(8, "e8-e7", 5, sanki, KOMA_SECOND, &err, buf, 10);
    assert_string_equal(buf, "ply 8 \"e8");
    assert_int_equal(n, strlen("ply 8 \"e8-e7\" by the second player: not the canonical form"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reasons),
        cmocka_unit_test(test_short_buffer),
        cmocka_unit_test(test_disputes),
        cmocka_unit_test(test_outcome),
        cmocka_unit_test(test_notation_message),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
