/* tests/unit/test_pmn_dialect.c — PMN input dialects converted to canonical PMN
 * with a position (DESIGN.md §3: canonical, seed, json-array). */
#include "unit.h"

#define OGI_START "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"
#define CAPT "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o"
#define CAPT2 "4k^3/8/8/3+p4/4P3/8/8/4K^3 / o/O"

typedef struct {
    koma_pmn_dialect d;
    const char *feen;      /* NULL: no position */
    const char *in;
    const char *out;       /* canonical PMN, or NULL when an error is expected */
    koma_code code;
    unsigned long line, column;
} dcase;

#define CAN KOMA_PMN_DIALECT_CANONICAL
#define SEED KOMA_PMN_DIALECT_SEED
#define JSON KOMA_PMN_DIALECT_JSON_ARRAY
#define OK(d, f, in, out) { d, f, in, out, KOMA_OK, 0, 0 }
#define BAD(d, f, in, code, col) { d, f, in, NULL, code, 1, col }

static const dcase cases[] = {
    /* canonical: without a position, syntax only; with one, checks and resolution */
    OK(CAN, NULL, "*e5", "*e5"),
    OK(CAN, NULL, "e7-e8=P", "e7-e8=P"),
    BAD(CAN, NULL, "e7e8", KOMA_E_PMN_SYNTAX, 3),
    OK(CAN, "8/8/8/8/8/8/8/8 P/ O/o", "*e5", "P*e5"),
    OK(CAN, "8/8/8/8/4p3/8/8/8 Pp/ O/o", ".e4=+P/P", "P.e4=+P/P"),
    BAD(CAN, "8/8/8/8/8/8/8/8 PS/ O/o", "*e5", KOMA_E_PMN_HAND_AMBIGUOUS, 1),
    BAD(CAN, "8/4P3/8/8/8/8/8/8 / O/o", "e7-e8=P", KOMA_E_PMN_CANONICAL_ACTOR, 7),
    OK(CAN, OGI_START, "e3-e4", "e3-e4"),

    /* seed: a-b, a-b/X (the mover's final identity), *-b */
    OK(SEED, OGI_START, "e3-e4", "e3-e4"),
    OK(SEED, OGI_START, "b2-h8", "b2+h8/L"),
    OK(SEED, CAPT, "e4-d5", "e4+d5/P"),
    OK(SEED, CAPT, "e4-d5/+P", "e4+d5=+P/P"),
    OK(SEED, CAPT, "e4-d5/P", "e4+d5/P"),
    OK(SEED, CAPT, "e4-d5/+p", "e4+d5=+P/P"),             /* case follows the mover */
    OK(SEED, CAPT2, "d5-e4", "d5+e4/p"),
    OK(SEED, CAPT2, "d5-e4/+P", "d5+e4/p"),
    OK(SEED, CAPT2, "d5-e4/P", "d5+e4=p/p"),
    OK(SEED, "8/4P3/8/8/8/8/8/4K^3 / O/o", "e7-e8/+P", "e7-e8=+P"),
    OK(SEED, "8/4P3/8/8/8/8/8/4K^3 / O/o", "e7-e8/P", "e7-e8"),
    /* the King's privilege cannot be said: a king's capture demotes */
    OK(SEED, "4k^3/8/8/8/8/8/3+p4/4K^3 / O/o", "e1-d2", "e1+d2/P"),
    OK(SEED, "4k^'3/4R3/8/8/8/8/8/4K^3 / O/o", "e7-e8", "e7+e8/K^'"),
    OK(SEED, "4k^'3/4R3/8/8/8/8/8/4K^3 / O/o", "e7-e8/+R", "e7+e8=+R/K^'"),
    /* a capture of a piece already in the capturer's case (protocol allows it) */
    OK(SEED, "8/8/8/8/8/8/3P4/4K^3 / O/o", "e1-d2", "e1+d2"),
    OK(SEED, "8/8/8/8/8/8/8/8 P/ O/o", "*-e5", "P*e5"),
    OK(SEED, "8/8/8/8/8/8/8/8 /Pp o/O", "*-e5", "p*e5"),
    OK(SEED, "8/8/8/8/8/8/8/8 2+P/ O/o", "*-a1", "+P*a1"),
    BAD(SEED, "8/8/8/8/8/8/8/8 +PPS/ O/o", "*-e5", KOMA_E_PMN_HAND_AMBIGUOUS, 1),
    BAD(SEED, "8/8/8/8/8/8/8/8 p/ O/o", "*-e5", KOMA_E_PMN_HAND_MISSING, 1),
    BAD(SEED, "8/8/8/4p3/8/8/8/8 P/ O/o", "*-e5", KOMA_E_PMN_SQUARE_OCCUPIED, 3),
    BAD(SEED, OGI_START, "e3e4", KOMA_E_PMN_SYNTAX, 3),
    BAD(SEED, OGI_START, "e3+e4", KOMA_E_PMN_SYNTAX, 3),
    BAD(SEED, OGI_START, "e3-e4=+P", KOMA_E_PMN_SUFFIX, 6),
    BAD(SEED, OGI_START, "e3-e4/P/P", KOMA_E_PMN_SUFFIX, 8),
    BAD(SEED, OGI_START, "e3-e4/", KOMA_E_PMN_END, 7),
    BAD(SEED, OGI_START, "e3-e4/++P", KOMA_E_PMN_EPIN, 8),
    BAD(SEED, OGI_START, "e3-", KOMA_E_PMN_END, 4),
    BAD(SEED, OGI_START, "e0-e4", KOMA_E_PMN_CELL, 2),
    BAD(SEED, OGI_START, "*e5", KOMA_E_PMN_SYNTAX, 2),
    BAD(SEED, OGI_START, "*-e5/P", KOMA_E_PMN_SUFFIX, 5),
    BAD(SEED, OGI_START, "*-", KOMA_E_PMN_END, 3),
    BAD(SEED, OGI_START, "P*e5", KOMA_E_PMN_SYNTAX, 1),
    BAD(SEED, OGI_START, "...", KOMA_E_PMN_SYNTAX, 1),
    BAD(SEED, OGI_START, "", KOMA_E_PMN_EMPTY, 1),
    BAD(SEED, OGI_START, "a1-a2-a3-a4-a5-a6-a7-a8-a9", KOMA_E_PMN_LENGTH, 26),
    BAD(SEED, OGI_START, "a4-a5", KOMA_E_PMN_SQUARE_EMPTY, 1),
    BAD(SEED, OGI_START, "e3-e3", KOMA_E_PMN_SQUARE_SAME, 4),
    BAD(SEED, OGI_START, "i3-e4", KOMA_E_PMN_SQUARE_BOARD, 1),
    BAD(SEED, OGI_START, "e3-e9", KOMA_E_PMN_SQUARE_BOARD, 4),
    BAD(SEED, OGI_START, "e3-e4\xc3\xa9", KOMA_E_PMN_ASCII, 6),
    BAD(SEED, NULL, "e3-e4", KOMA_E_PMN_CONTEXT, 1),

    /* json-array (legacy §10.6) */
    OK(JSON, OGI_START, "[\"e3\",\"e4\",\"O:P\"]", "e3-e4"),
    OK(JSON, OGI_START, "[\"e3\",\"e4\"]", "e3-e4"),
    OK(JSON, OGI_START, " [ \"e3\" , \"e4\" , \"O:+P\" ] \n", "e3-e4=+P"),
    OK(JSON, OGI_START, "[\"\\u0065\\u0033\",\"e4\"]", "e3-e4"),
    OK(JSON, OGI_START, "[]", "..."),
    OK(JSON, CAPT, "[\"d5\",\"*\",\"O:P\",\"e4\",\"d5\",\"O:P\"]", "e4+d5/P"),
    OK(JSON, CAPT, "[\"d5\",\"*\",\"o:+p\",\"e4\",\"d5\"]", "e4+d5"),
    OK(JSON, CAPT, "[\"d5\",\"*\",\"O:P\",\"e4\",\"d5\",\"O:+P\"]", "e4+d5=+P/P"),
    OK(JSON, CAPT, "[\"d5\",\"*\",\"O:P\"]", "+d5/P"),
    OK(JSON, CAPT, "[\"d5\",\"*\"]", "+d5"),
    OK(JSON, "8/8/8/8/8/8/8/8 P/ O/o", "[\"*\",\"e5\",\"O:P\"]", "P*e5"),
    OK(JSON, "8/8/8/8/8/8/8/8 P/ O/o", "[\"*\",\"e5\"]", "P*e5"),
    OK(JSON, "8/8/8/4p3/8/8/8/8 L/ O/o", "[\"e5\",\"*\",\"O:P\",\"*\",\"e5\",\"O:L\"]",
       "L.e5/P"),
    OK(JSON, "8/8/8/4p3/8/8/8/8 L/ O/o", "[\"e5\",\"*\",\"O:P\",\"*\",\"e5\"]", "L.e5/P"),
    OK(JSON, "8/8/8/4P3/8/8/8/8 / O/o", "[\"e5\",\"e5\",\"O:+P\"]", "e5=+P"),
    OK(JSON, "8/8/8/8/8/8/8/4K^2+R / C/c",
       "[\"e1\",\"g1\",\"C:K^\",\"h1\",\"f1\",\"C:R\"]", "e1~g1"),
    OK(JSON, "8/8/8/4Pp2/8/8/8/8 / C/c", "[\"e5\",\"f6\",\"C:P\",\"f5\",\"*\",\"c:p\"]",
       "e5~f6"),
    OK(JSON, "8/8/8/4Pp2/8/8/8/8 / C/c", "[\"e5\",\"f6\",\"C:P\",\"f5\",\"*\",\"C:P\"]",
       "e5~f6/P"),
    OK(JSON, "8/8/8/8/8/8/1S6/l7 / S/s", "[\"a1\",\"*\",\"S:L\",\"b2\",\"a1\",\"S:S\"]",
       "b2+a1/L"),
    OK(JSON, "8/8/8/8/8/4A3/4a3/8 / X/x",
       "[\"e2\",\"*\",\"X:A\",\"e3\",\"e2\",\"X:B\",\"*\",\"e3\",\"X:A\"]", "e3~e2=B/A"),
    /* QPI -> EPIN: the derivation marker from the styles */
    OK(JSON, "8/8/8/8/8/8/8/4K3 / C/s", "[\"e1\",\"e2\",\"S:K\"]", "e1-e2=K'"),
    OK(JSON, "8/8/8/8/8/8/8/4K3 / C/s", "[\"e1\",\"e2\",\"C:K\"]", "e1-e2"),
    OK(JSON, "8/8/8/8/8/8/8/4K'3 / C/s", "[\"e1\",\"e2\",\"S:K\"]", "e1-e2"),
    OK(JSON, "8/8/8/8/8/8/8/4K'3 / C/s", "[\"e1\",\"e2\",\"C:K\"]", "e1-e2=K"),
    OK(JSON, "8/8/8/8/8/8/8/8 P'/ C/s", "[\"*\",\"e2\",\"S:P\"]", "P'*e2"),
    /* same style letters: QPI cannot tell, the piece keeps its marker */
    OK(JSON, "4k^'3/8/8/8/8/8/8/4K^3 / o/O", "[\"e8\",\"e7\",\"o:k^\"]", "e8-e7"),
    OK(JSON, "4k^'3/8/8/8/8/8/8/4K^3 / o/O", "[\"e8\",\"e7\",\"o:+k^\"]", "e8-e7=+k^'"),
    OK(JSON, "8/8/8/8/8/8/8/8 /k^' o/O", "[\"*\",\"e7\",\"o:k^\"]", "k^'*e7"),
    /* errors, with the column of the offending string */
    BAD(JSON, OGI_START, "[\"e2\"]", KOMA_E_PMN_JSON_LENGTH, 1),
    BAD(JSON, OGI_START, "[\"e3\",\"e4\",\"O:P\",\"e5\"]", KOMA_E_PMN_JSON_LENGTH, 1),
    BAD(JSON, OGI_START, "  [\"e3\",\"e4\",\"O:P\",\"e5\",\"e6\",\"O:P\",\"e7\"]",
        KOMA_E_PMN_JSON_LENGTH, 3),
    BAD(JSON, OGI_START, "[\"e3\",\"e9x\"]", KOMA_E_PMN_JSON_LOCATION, 7),
    BAD(JSON, OGI_START, "[\"e3\",\"7g\"]", KOMA_E_PMN_JSON_LOCATION, 7),
    BAD(JSON, OGI_START, "[\"e3\",\"**\"]", KOMA_E_PMN_JSON_LOCATION, 7),
    BAD(JSON, OGI_START, "[\"e3\",\"e4\",\"InvalidPiece\"]", KOMA_E_PMN_JSON_PIECE, 12),
    BAD(JSON, OGI_START, "[\"e3\",\"e4\",\"O:p\"]", KOMA_E_PMN_JSON_PIECE, 12),
    BAD(JSON, OGI_START, "[\"e3\",\"e4\",\"O:P'\"]", KOMA_E_PMN_JSON_PIECE, 12),
    BAD(JSON, OGI_START, "[\"*\",\"*\",\"O:P\"]", KOMA_E_PMN_JSON_HAND, 2),
    BAD(JSON, OGI_START, "[\"e3\",\"e3\"]", KOMA_E_PMN_JSON_UNSUPPORTED, 2),
    BAD(JSON, OGI_START, "[\"*\",\"e5\",\"O:P\",\"*\",\"e6\",\"O:P\"]",
        KOMA_E_PMN_JSON_UNSUPPORTED, 1),
    BAD(JSON, OGI_START, "[\"e3\",\"e4\"] x", KOMA_E_PMN_JSON_SYNTAX, 13),
    BAD(JSON, OGI_START, "{\"e3\":\"e4\"}", KOMA_E_PMN_JSON_SYNTAX, 1),
    BAD(JSON, OGI_START, "[\"e3\",4]", KOMA_E_PMN_JSON_SYNTAX, 7),
    BAD(JSON, OGI_START, "[\"e3\",\"e4\",]", KOMA_E_PMN_JSON_SYNTAX, 12),
    BAD(JSON, OGI_START, "[\"e3\" \"e4\"]", KOMA_E_PMN_JSON_SYNTAX, 7),
    BAD(JSON, OGI_START, "[\"e3\",\"e4", KOMA_E_PMN_JSON_SYNTAX, 10),
    BAD(JSON, OGI_START, "[\"e3\",\"e\\q\"]", KOMA_E_PMN_JSON_SYNTAX, 10),
    BAD(JSON, OGI_START, "[\"e3\",\"e\\u00g4\"]", KOMA_E_PMN_JSON_SYNTAX, 13),
    BAD(JSON, OGI_START, "[\"e3\",\"e\t4\"]", KOMA_E_PMN_JSON_SYNTAX, 9),
    BAD(JSON, OGI_START, "", KOMA_E_PMN_JSON_SYNTAX, 1),
    BAD(JSON, OGI_START, "[", KOMA_E_PMN_JSON_SYNTAX, 2),
    /* the checks, placed on the JSON strings */
    BAD(JSON, OGI_START, "[\"e4\",\"e5\",\"O:P\"]", KOMA_E_PMN_SQUARE_EMPTY, 2),
    BAD(JSON, OGI_START, "[\"e1\",\"e3\"]", KOMA_E_PMN_SQUARE_OCCUPIED, 7),
    BAD(JSON, OGI_START, "[\"e1\",\"e9\"]", KOMA_E_PMN_SQUARE_BOARD, 7),
    BAD(JSON, OGI_START, "[\"*\",\"e5\",\"O:P\"]", KOMA_E_PMN_HAND_MISSING, 11),
    BAD(JSON, OGI_START, "[\"*\",\"e5\"]", KOMA_E_PMN_HAND_MISSING, 2),
    BAD(JSON, "8/8/8/4P3/8/8/8/8 / O/o", "[\"e5\",\"e5\",\"O:P\"]",
        KOMA_E_PMN_CANONICAL_MUTATE, 12),
    BAD(JSON, "8/8/8/8/8/8/8/4K^2+R / C/c", "[\"d1\",\"g1\",\"C:K^\",\"h1\",\"f1\",\"C:R\"]",
        KOMA_E_PMN_SQUARE_EMPTY, 2),
    BAD(JSON, NULL, "[]", KOMA_E_PMN_CONTEXT, 1),
};

static void run_case(size_t i, const dcase *c)
{
    koma_position pos;
    koma_error err;
    koma_move m;
    char buf[KOMA_PMN_BUF];

    koma_position_init(&pos);
    if (c->feen != NULL &&
        koma_feen_parse(c->feen, strlen(c->feen), KOMA_FEEN_STRICT, &pos, &err) != 0)
        fail_msg("#%zu bad test FEEN %s: %s", i, c->feen, err.message);
    memset(&err, 0, sizeof err);
    int rc = koma_pmn_parse_dialect(c->d, c->in, strlen(c->in), c->feen ? &pos : NULL, &m,
                                    &err);
    if (c->out != NULL) {
        if (rc != 0)
            fail_msg("#%zu %s: %s %s (col %lu)", i, c->in, koma_code_name(err.code), err.message,
                     err.column);
        koma_pmn_write(&m, buf);
        if (strcmp(buf, c->out) != 0) fail_msg("#%zu %s: got %s, want %s", i, c->in, buf, c->out);
        /* the canonical result passes the canonical checks */
        if (c->feen != NULL && koma_pmn_check(&pos, &m, &err) != 0)
            fail_msg("#%zu %s -> %s fails the check: %s", i, c->in, buf, err.message);
    } else {
        if (rc == 0) fail_msg("#%zu %s accepted", i, c->in);
        if (err.code != c->code || err.line != c->line || err.column != c->column)
            fail_msg("#%zu %s: got %s %lu:%lu, want %s %lu:%lu (%s)", i, c->in,
                     koma_code_name(err.code), err.line, err.column, koma_code_name(c->code),
                     c->line, c->column, err.message);
    }
    koma_position_cleanup(&pos);
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(i, &cases[i]);
}

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
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_seed_messages),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests_name("pmn_dialect", tests, NULL, NULL);
}
