/* tests/unit/test_pmn_dialect.c — PMN input dialects converted to canonical PMN
 * with a position (koma-formats(5), PMN, Input dialects: canonical, seed, json-array, sanki),
 * and canonical moves written in the Sanki form. */
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

/* A canonical move in pos written as [from, to, actor]; want NULL: refused with code. */
static void sanki_out(const char *feen, const char *pmn, const char *want, koma_code code)
{
    koma_position pos;
    koma_move m;
    koma_error err;
    char buf[64];
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &pos, &err), 0);
    assert_int_equal(koma_pmn_parse(pmn, strlen(pmn), &m, &err), 0);
    size_t n = koma_sanki_move_write(&pos, &m, buf, sizeof buf, &err);
    if (want == NULL) {
        assert_int_equal(n, 0);
        assert_int_equal(err.code, code);
    } else {
        assert_string_equal(buf, want);
        assert_int_equal(n, strlen(want));
        /* and read back to the same move */
        koma_move back;
        if (koma_pmn_parse_dialect(KOMA_PMN_DIALECT_SANKI, buf, n, &pos, &back, &err) != 0)
            fail_msg("%s: %s: %s", buf, koma_code_name(err.code), err.message);
        if (m.kind != KOMA_MOVE_SPECIAL && koma_sanki_actor_word(pos.style[pos.turn], koma_piece_letter(m.actor)))
            assert_true(koma_move_equal(&m, &back));
    }
    koma_position_cleanup(&pos);
}

static void test_sanki_write(void **state)
{
    (void)state;
    const char *w = "rnbqk^bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK^BNR / W/w";
    sanki_out(w, "e2-e4", "[\"e2\",\"e4\",null]", KOMA_OK);
    sanki_out(w, "e2-e4=-P", "[\"e2\",\"e4\",null]", KOMA_OK);       /* a state only */
    sanki_out("4k^3/P7/8/8/8/8/8/4K^3 / W/w", "a7-a8=Q", "[\"a7\",\"a8\",\"queen\"]", KOMA_OK);
    sanki_out("r3k^3/1P6/8/8/8/8/8/4K^3 / W/w", "b7+a8=N", "[\"b7\",\"a8\",\"knight\"]", KOMA_OK);
    sanki_out("4k^3/8/8/8/8/8/8/4K^2+R / W/w", "e1~g1", "[\"e1\",\"g1\",null]", KOMA_OK);
    sanki_out("7k^/8/5N2/8/8/8/8/4K^1R1 F/ J/j", "F*h7", "[null,\"h7\",\"fu\"]", KOMA_OK);
    sanki_out("4k^3/8/8/8/8/8/8/4K^3 /i j/W", "i*c3", "[null,\"c3\",\"princess\"]", KOMA_OK);
    sanki_out("4k^3/4F3/8/8/8/8/8/4K^3 / J/j", "e7-e8=T", "[\"e7\",\"e8\",null]", KOMA_OK); /* no word */
    sanki_out("4g^3/3S4/8/8/8/8/8/4G^3 / C/c", "d7-d8=E", "[\"d7\",\"d8\",\"empress\"]", KOMA_OK);
    sanki_out("4k^3/8/8/8/8/8/8/4K^3 Q/ W/w", "Q*c3", "[null,\"c3\",\"queen\"]", KOMA_OK);
    sanki_out("4k^3/8/8/8/8/8/8/4K^3 P/ W/w", "P*c3", NULL, KOMA_E_CONVERT_UNREPRESENTABLE);
    sanki_out(w, "...", NULL, KOMA_E_CONVERT_UNREPRESENTABLE);
    sanki_out("4k^3/8/8/8/8/8/8/4K^3 / O/o", "e1-e2", "[\"e1\",\"e2\",null]", KOMA_OK);
    sanki_out("4k^3/4P3/8/8/8/8/8/4K^3 / O/o", "e7-e8=+P", "[\"e7\",\"e8\",null]", KOMA_OK);
    sanki_out("3k^4/4P3/8/8/8/8/8/4K^3 / O/o", "e7-e8=Q", NULL, KOMA_E_PMN_SANKI_STYLE);
    sanki_out("4k^3/8/8/8/8/8/8/4K^3 P/ O/o", "P*e2", NULL, KOMA_E_PMN_SANKI_STYLE);
    /* snprintf-style: the full length, cut to the buffer */
    koma_position pos;
    koma_move m;
    koma_error err;
    char small[6];
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(LIT("4k^3/P7/8/8/8/8/8/4K^3 / W/w"), KOMA_FEEN_STRICT, &pos, &err), 0);
    assert_int_equal(koma_pmn_parse(LIT("a7-a8=Q"), &m, &err), 0);
    assert_int_equal(koma_sanki_move_write(&pos, &m, small, sizeof small, &err), 19);
    assert_string_equal(small, "[\"a7\"");
    koma_position_cleanup(&pos);
    assert_string_equal(koma_sanki_actor_word('c', 'b'), "bear");
    assert_null(koma_sanki_actor_word('W', 'K'));
    assert_int_equal(koma_sanki_actor_letter('j', LIT("princess")), 'I');
    assert_int_equal(koma_sanki_actor_letter('X', LIT("queen")), 0);
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
    assert_int_equal(koma_pmn_dialect_from_name(LIT("sanki"), &d), 0);
    assert_int_equal(d, KOMA_PMN_DIALECT_SANKI);
    assert_string_equal(koma_pmn_dialect_name(KOMA_PMN_DIALECT_SANKI), "sanki");
    assert_null(koma_pmn_dialect_name((koma_pmn_dialect)7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_seed_messages),
        cmocka_unit_test(test_sanki_write),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests_name("pmn_dialect", tests, NULL, NULL);
}
