/* tests/unit/test_pmn_dialect.c — PMN input dialects converted to canonical PMN
 * with a position (koma-formats(5), PMN, Input dialects: canonical, seed, json-array). */
#include "unit.h"

#define OGI_START "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"
#define SEED KOMA_PMN_DIALECT_SEED
#define JSON KOMA_PMN_DIALECT_JSON_ARRAY

/* Each dialect's moves read against a position, canonical or refused with a code and
 * a column, are cases of tests/spec/pmn.tsv (test_spec.c); here the lines of a JSON
 * array, the messages and the dialects' names. */

/* JSON errors on a later line carry that line and the column within it. */
static void test_json_lines(void **state)
{
    (void)state;
    static const char *const in = "[\n  \"e3\",\n  \"e9\"\n]";
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(LIT(OGI_START), KOMA_FEEN_STRICT, &pos, &err), 0);
    assert_int_equal(koma_pmn_parse_dialect(JSON, in, strlen(in), &pos, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_SQUARE_BOARD);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 3);
    assert_int_equal(err.offset, 12);
    assert_string_equal(err.message, "coordinate is not on the board: \"e9\"");

    static const char *const in2 = "[\n\"e3\",\n\"e4\",\n\"Q:\"]";
    assert_int_equal(koma_pmn_parse_dialect(JSON, in2, strlen(in2), &pos, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_JSON_PIECE);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.column, 1);
    assert_string_equal(err.message, "invalid QPI piece: \"Q:\"");
    koma_position_cleanup(&pos);
}

static void test_seed_messages(void **state)
{
    (void)state;
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(LIT("8/8/8/8/8/8/8/8 2P+PpS/ O/o"), KOMA_FEEN_STRICT, &pos,
                                     &err), 0);
    assert_int_equal(koma_pmn_parse_dialect(SEED, LIT("*-e5"), &pos, NULL, &err), -1);
    assert_string_equal(err.message,
                        "several pieces in hand could be dropped (+P, P, S): \"*-e5\"");
    assert_int_equal(koma_pmn_parse_dialect(SEED, LIT("e3+e4"), &pos, NULL, &err), -1);
    assert_string_equal(err.message,
                        "expected '-' after the coordinate (seed moves are a-b): \"e3+e4\"");
    koma_position_cleanup(&pos);
}

static void test_names(void **state)
{
    (void)state;
    koma_pmn_dialect d = (koma_pmn_dialect)99;
    assert_int_equal(koma_pmn_dialect_from_name(LIT("seed"), &d), 0);
    assert_int_equal(d, KOMA_PMN_DIALECT_SEED);
    assert_int_equal(koma_pmn_dialect_from_name(LIT("json-array"), &d), 0);
    assert_int_equal(d, KOMA_PMN_DIALECT_JSON_ARRAY);
    assert_int_equal(koma_pmn_dialect_from_name(LIT("pmn"), &d), 0);
    assert_int_equal(d, KOMA_PMN_DIALECT_CANONICAL);
    assert_int_equal(koma_pmn_dialect_from_name(LIT("canonical"), &d), 0);
    assert_int_equal(d, KOMA_PMN_DIALECT_CANONICAL);
    assert_int_equal(koma_pmn_dialect_from_name(LIT("json"), &d), -1);
    assert_int_equal(koma_pmn_dialect_from_name(LIT("Seed"), &d), -1);
    assert_int_equal(koma_pmn_dialect_from_name(LIT("seed "), &d), -1);
    assert_string_equal(koma_pmn_dialect_name(KOMA_PMN_DIALECT_SEED), "seed");
    assert_string_equal(koma_pmn_dialect_name(KOMA_PMN_DIALECT_JSON_ARRAY), "json-array");
    assert_string_equal(koma_pmn_dialect_name(KOMA_PMN_DIALECT_CANONICAL), "pmn");
    assert_null(koma_pmn_dialect_name((koma_pmn_dialect)7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_seed_messages),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests_name("pmn_dialect", tests, NULL, NULL);
}
