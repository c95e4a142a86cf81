/*
 * tests/unit/test_referee_setup.c — what koma_referee_pcn keeps from one
 * record to the next with the same setup text (lib/referee_record.c's
 * read_setup, lib/referee_claims.c): the setup position and its claims (the
 * game judges the Shogi world's claims, the points a handicap removed) are
 * those a fresh referee finds, record after record, through runs of one setup,
 * another, a handicap, another game and a rule option, in both of the
 * referee's loops.
 */
#include <stdlib.h>
#include "unit.h"
#include "referee_internal.h"

static const char *const records[] = {
    /* Shogi's start, twice */
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
    "\"plies\":[{\"pmn\":\"c3-c4\"},{\"pmn\":\"g7-g6\"}]}",
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
    "\"plies\":[{\"pmn\":\"g3-g4\"}]}",
    /* a two-piece handicap (no rook, no bishop: 10 points), twice */
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S\"},"
    "\"plies\":[{\"pmn\":\"c7-c6\"}]}",
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S\"},"
    "\"plies\":[{\"pmn\":\"g7-g6\"}]}",
    /* the start again, under the referee's own rule option (the same game) */
    "{\"meta\":{\"rule_options\":{\"declaration\":\"24\"}},"
    "\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"}}",
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"}}",
    /* Minishogi (no claims), twice, then the handicap again */
    "{\"setup\":{\"feen\":\"rbsgk^/4p/5/P4/K^GSBR / S/s\"},\"plies\":[{\"pmn\":\"a2-a3\"}]}",
    "{\"setup\":{\"feen\":\"rbsgk^/4p/5/P4/K^GSBR / S/s\"}}",
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S\"}}",
    /* hands: no handicap inferred */
    "{\"setup\":{\"feen\":\"4k^4/9/9/9/9/9/9/9/4K^4 8P2G2L2N2R2SB/10p2g2l2n2sb S/s\"}}",
    "{\"setup\":{\"feen\":\"4k^4/9/9/9/9/9/9/9/4K^4 8P2G2L2N2R2SB/10p2g2l2n2sb S/s\"}}",
};

static koma_game_set *games;

static void judge(koma_referee *ref, const koma_pcn *rec, koma_verdict *v)
{
    koma_error err;
    koma_error_clear(&err);
    *v = (koma_verdict)KOMA_VERDICT_INIT;
    assert_int_equal(koma_referee_pcn(ref, games, NULL, rec, NULL, v, &err), 0);
}

static void run(unsigned flags)
{
    koma_error err;
    koma_error_clear(&err);
    koma_referee_options opt = {sizeof opt, KOMA_PMN_DIALECT_CANONICAL, flags, KOMA_DECLARE_DEFAULT};
    koma_referee *kept;
    assert_int_equal(koma_referee_new(&opt, &kept, &err), 0);
    unsigned handicaps = 0, claims = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
            koma_pcn *rec = NULL;
            koma_pcn_parse(KOMA_PCN_JSON, records[i], strlen(records[i]), KOMA_PCN_LIGHT, &rec, &err);
            if (rec == NULL) print_error("%s: %s\n", records[i], err.message);
            assert_non_null(rec);
            koma_referee *fresh;
            assert_int_equal(koma_referee_new(&opt, &fresh, &err), 0);
            koma_verdict a, b;
            judge(kept, rec, &a);
            judge(fresh, rec, &b);
            assert_int_equal(kept->claims, fresh->claims);
            assert_int_equal(kept->handicap_points[0], fresh->handicap_points[0]);
            assert_int_equal(kept->handicap_points[1], fresh->handicap_points[1]);
            assert_true(koma_position_equal(&kept->setup, &fresh->setup));
            assert_ptr_equal(kept->g, fresh->g);
            assert_int_equal(a.kind, b.kind);
            assert_int_equal(a.played, b.played);
            assert_string_equal(a.feen, b.feen);
            handicaps += fresh->handicap_points[0] + fresh->handicap_points[1] > 0;
            claims += fresh->claims;
            koma_referee_free(fresh);
            koma_pcn_free(rec);
        }
    assert_true(handicaps >= 4);       /* the cases are what they say */
    assert_true(claims >= 10);
    koma_referee_free(kept);
}

static void test_kept(void **state)
{
    (void)state;
    koma_error err;
    assert_int_equal(koma_game_set_new(&games, &err), 0);
    run(0);
    run(KOMA_REFEREE_GENERAL);
    koma_game_set_free(games);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
