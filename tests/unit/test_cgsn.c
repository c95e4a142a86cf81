/* tests/unit/test_cgsn.c — CGSN statuses (koma-formats(5), CGSN). */
#include "unit.h"

static const struct {
    const char *name;
    koma_status st;
    koma_status_class cls;
} statuses[] = {
    { "check", KOMA_STATUS_CHECK, KOMA_STATUS_INFERABLE },
    { "stale", KOMA_STATUS_STALE, KOMA_STATUS_INFERABLE },
    { "checkmate", KOMA_STATUS_CHECKMATE, KOMA_STATUS_INFERABLE },
    { "stalemate", KOMA_STATUS_STALEMATE, KOMA_STATUS_INFERABLE },
    { "nomove", KOMA_STATUS_NOMOVE, KOMA_STATUS_INFERABLE },
    { "bareking", KOMA_STATUS_BAREKING, KOMA_STATUS_INFERABLE },
    { "mareking", KOMA_STATUS_MAREKING, KOMA_STATUS_INFERABLE },
    { "insufficient", KOMA_STATUS_INSUFFICIENT, KOMA_STATUS_INFERABLE },
    { "resignation", KOMA_STATUS_RESIGNATION, KOMA_STATUS_EXPLICIT },
    { "illegalmove", KOMA_STATUS_ILLEGALMOVE, KOMA_STATUS_EXPLICIT },
    { "timelimit", KOMA_STATUS_TIMELIMIT, KOMA_STATUS_EXPLICIT },
    { "movelimit", KOMA_STATUS_MOVELIMIT, KOMA_STATUS_EXPLICIT },
    { "repetition", KOMA_STATUS_REPETITION, KOMA_STATUS_EXPLICIT },
    { "agreement", KOMA_STATUS_AGREEMENT, KOMA_STATUS_EXPLICIT },
};

static void test_valid(void **state)
{
    (void)state;
    assert_int_equal(sizeof statuses / sizeof statuses[0], KOMA_STATUS_COUNT);
    for (size_t i = 0; i < KOMA_STATUS_COUNT; i++) {
        koma_status st = (koma_status)99;
        koma_error err;
        assert_int_equal(koma_cgsn_parse(statuses[i].name, strlen(statuses[i].name), &st, &err),
                         0);
        assert_int_equal(st, statuses[i].st);
        assert_int_equal(st, (koma_status)i);
        assert_string_equal(koma_cgsn_name(st), statuses[i].name);
        assert_int_equal(koma_cgsn_class(st), statuses[i].cls);
        assert_true(strlen(statuses[i].name) <= KOMA_CGSN_MAX_LEN);
    }
    assert_null(koma_cgsn_name((koma_status)KOMA_STATUS_COUNT));
    assert_null(koma_cgsn_name((koma_status)-1));
}

/* The unknown statuses, with their code and column, are tests/spec/cgsn.tsv
 * (test_spec.c); here the length of the input. */
static void test_invalid(void **state)
{
    (void)state;
    koma_error err;
    /* a prefix of the input must not match: length counts */
    assert_int_equal(koma_cgsn_parse("checkmate", 5, NULL, &err), 0);
    assert_int_equal(koma_cgsn_parse("checkmate", 6, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_CGSN_UNKNOWN);
    assert_string_equal(koma_code_name(err.code), "cgsn.unknown");
    assert_int_equal(koma_cgsn_parse(LIT("check"), NULL, NULL), 0);
    assert_int_equal(koma_cgsn_parse(LIT("checks"), NULL, NULL), -1);
}

static void test_messages(void **state)
{
    (void)state;
    koma_error err;
    assert_int_equal(koma_cgsn_parse(LIT("Checkmate"), NULL, &err), -1);
    assert_string_equal(err.message,
                        "unknown game status (statuses are lowercase: checkmate): \"Checkmate\"");
    assert_int_equal(koma_cgsn_parse(LIT("bare_king"), NULL, &err), -1);
    assert_string_equal(err.message,
                        "unknown game status (not a current CGSN name; bareking?): \"bare_king\"");
    assert_int_equal(koma_cgsn_parse(LIT("in_progress"), NULL, &err), -1);
    assert_string_equal(err.message, "unknown game status: \"in_progress\"");
    assert_int_equal(koma_cgsn_parse(LIT("a\xff"), NULL, &err), -1);
    assert_string_equal(err.message, "unknown game status: \"a\\xff\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_messages),
    };
    return cmocka_run_group_tests_name("cgsn", tests, NULL, NULL);
}
