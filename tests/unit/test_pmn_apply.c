/* tests/unit/test_pmn_apply.c — the protocol-level move applier (lib/pmn_apply.c). */
#include "unit.h"

#define OGI_START "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"

static void load(koma_position *pos, const char *feen)
{
    koma_error err;
    if (koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, pos, &err) != 0)
        fail_msg("bad test FEEN %s: %s", feen, err.message);
}

static void feen_is(const koma_position *pos, const char *want)
{
    char buf[512];
    size_t n = koma_feen_write(pos, buf, sizeof buf);
    if (n >= sizeof buf || strcmp(buf, want) != 0)
        fail_msg("FEEN \"%s\", want \"%s\"", buf, want);
}

static int apply_text(koma_position *pos, const char *pmn, koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(pmn, strlen(pmn), &m, err) != 0) fail_msg("bad test PMN %s", pmn);
    return koma_move_apply(pos, &m, err);
}

typedef struct { const char *before, *pmn, *after; } apply_case;

static const apply_case cases[] = {
    /* quiet, with and without an identity change */
    { OGI_START, "e3-e4",
      "lnsik^snl/1r4b1/pppppppp/8/4P3/PPPP1PPP/1B4R1/LNSIK^SNL / o/O" },
    { "8/4P3/8/8/8/8/8/8 / C/c", "e7-e8=Q", "4Q3/8/8/8/8/8/8/8 / c/C" },
    /* not canonical, still applied */
    { "8/4P3/8/8/8/8/8/8 / C/c", "e7-e8=P", "4P3/8/8/8/8/8/8/8 / c/C" },
    { "8/4-k^'3/8/8/8/8/8/8 / o/O", "e7-d8=k^'", "3k^'4/8/8/8/8/8/8/8 / O/o" },
    /* capture: the captured piece as '/' says, else unchanged, into the mover's hand */
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e4+d5/P", "4k^3/8/8/3P4/8/8/8/4K^3 P/ o/O" },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e4+d5", "4k^3/8/8/3P4/8/8/8/4K^3 +p/ o/O" },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e4+d5=+P/P", "4k^3/8/8/3+P4/8/8/8/4K^3 P/ o/O" },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e1+e8/K^", "4K^3/8/8/3+p4/4P3/8/8/8 K^/ o/O" },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 P/ o/O", "e8+e1/k^", "8/8/8/3+p4/4P3/8/8/4k^3 P/k^ O/o" },
    { "8/8/8/8/8/8/8/R3r3 2P/p C/c", "a1+e1", "8/8/8/8/8/8/8/4R3 2Pr/p c/C" },
    /* static capture */
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "+d5", "4k^3/8/8/8/4P3/8/8/4K^3 +p/ o/O" },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "+d5/P", "4k^3/8/8/8/4P3/8/8/4K^3 P/ o/O" },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / o/O", "+e4/p", "4k^3/8/8/3+p4/8/8/8/4K^3 /p O/o" },
    /* drops */
    { "8/8/8/8/8/8/8/8 2P/ S/s", "P*e5", "8/8/8/4P3/8/8/8/8 P/ s/S" },
    { "8/8/8/8/8/8/8/8 2P/ S/s", "*e5", "8/8/8/4P3/8/8/8/8 P/ s/S" },
    { "8/8/8/8/8/8/8/8 2P/ S/s", "P*e5=+P", "8/8/8/4+P3/8/8/8/8 P/ s/S" },
    { "8/8/8/8/8/8/8/8 /Ps s/S", "P*a1", "8/8/8/8/8/8/8/P7 /s S/s" },
    { "8/8/8/8/8/8/8/8 /+PP s/S", "+P*h8", "7+P/8/8/8/8/8/8/8 /P S/s" },
    /* capture-drops */
    { "8/8/8/4p3/8/8/8/8 P/ S/s", "P.e5/P", "8/8/8/4P3/8/8/8/8 P/ s/S" },
    { "8/8/8/4p3/8/8/8/8 L/ S/s", "L.e5", "8/8/8/4L3/8/8/8/8 p/ s/S" },
    { "8/8/8/4p3/8/8/8/8 L/ S/s", ".e5=+L/P", "8/8/8/4+L3/8/8/8/8 P/ s/S" },
    /* mutation and pass */
    { "8/8/8/4P3/8/8/8/8 / S/s", "e5=+P", "8/8/8/4+P3/8/8/8/8 / s/S" },
    { "8/8/8/4P3/8/8/8/8 / S/s", "e5=k^'", "8/8/8/4k^'3/8/8/8/8 / s/S" },
    { "8/8/8/4P3/8/8/8/8 / s/S", "...", "8/8/8/4P3/8/8/8/8 / S/s" },
    /* 3-D */
    { "2/K1//2/2 / C/c", "a1A-b2B", "2/2//1K/2 / c/C" },
};

static void test_apply_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_position pos;
        koma_error err;
        koma_position_init(&pos);
        load(&pos, cases[i].before);
        if (apply_text(&pos, cases[i].pmn, &err) != 0)
            fail_msg("#%zu %s: %s %s", i, cases[i].pmn, koma_code_name(err.code), err.message);
        feen_is(&pos, cases[i].after);
        koma_position_cleanup(&pos);
    }
}

typedef struct { const char *before, *pmn; koma_code code; unsigned long column; } refusal;

static const refusal refusals[] = {
    { "4k^3/8/8/3+p4/4P3/8/8/4K^2+R / O/o", "e1~g1", KOMA_E_PMN_SPECIAL, 3 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e4-d5", KOMA_E_PMN_SQUARE_OCCUPIED, 4 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e3-e4", KOMA_E_PMN_SQUARE_EMPTY, 1 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e4+e5", KOMA_E_PMN_SQUARE_EMPTY, 4 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "e4+e4", KOMA_E_PMN_SQUARE_SAME, 4 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "+a1", KOMA_E_PMN_SQUARE_EMPTY, 2 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "a1=P", KOMA_E_PMN_SQUARE_EMPTY, 1 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 / O/o", "j1-a1", KOMA_E_PMN_SQUARE_BOARD, 1 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 p/ O/o", "P*a1", KOMA_E_PMN_HAND_MISSING, 1 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 p/ O/o", "*a1", KOMA_E_PMN_HAND_MISSING, 1 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 PR/ O/o", "*a1", KOMA_E_PMN_HAND_AMBIGUOUS, 1 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 P/ O/o", "P*e4", KOMA_E_PMN_SQUARE_OCCUPIED, 3 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 P/ O/o", "P.e5", KOMA_E_PMN_SQUARE_EMPTY, 3 },
    { "4k^3/8/8/3+p4/4P3/8/8/4K^3 P/ o/O", "P.e4", KOMA_E_PMN_HAND_MISSING, 1 },
};

/* Refused moves leave the position exactly as it was. */
static void test_refusals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        koma_position pos;
        koma_error err;
        memset(&err, 0, sizeof err);
        koma_position_init(&pos);
        load(&pos, refusals[i].before);
        if (apply_text(&pos, refusals[i].pmn, &err) == 0)
            fail_msg("#%zu %s applied", i, refusals[i].pmn);
        if (err.code != refusals[i].code || err.column != refusals[i].column)
            fail_msg("#%zu %s: got %s col %lu, want %s col %lu", i, refusals[i].pmn,
                     koma_code_name(err.code), err.column, koma_code_name(refusals[i].code),
                     refusals[i].column);
        feen_is(&pos, refusals[i].before);
        koma_position_cleanup(&pos);
    }
}

static void test_special_message(void **state)
{
    (void)state;
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    load(&pos, "8/8/8/8/8/8/8/4K^2+R / C/c");
    assert_int_equal(apply_text(&pos, "e1~g1", &err), -1);
    assert_string_equal(koma_code_name(err.code), "pmn.special");
    assert_string_equal(err.message, "a '~' move needs a rule system to be applied: \"e1~g1\"");
    assert_int_equal(koma_move_apply(&pos, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    koma_position_cleanup(&pos);
}

/* A short game from the Ōgi start, each ply checked then applied. */
static void test_sequence(void **state)
{
    (void)state;
    static const struct { const char *pmn, *feen; } plies[] = {
        { "e3-e4", "lnsik^snl/1r4b1/pppppppp/8/4P3/PPPP1PPP/1B4R1/LNSIK^SNL / o/O" },
        { "d6-d5", "lnsik^snl/1r4b1/ppp1pppp/3p4/4P3/PPPP1PPP/1B4R1/LNSIK^SNL / O/o" },
        { "e4+d5", "lnsik^snl/1r4b1/ppp1pppp/3P4/8/PPPP1PPP/1B4R1/LNSIK^SNL p/ o/O" },
        { "b7+b3/p", "lnsik^snl/6b1/ppp1pppp/3P4/8/PrPP1PPP/1B4R1/LNSIK^SNL p/p O/o" },
        { "...", "lnsik^snl/6b1/ppp1pppp/3P4/8/PrPP1PPP/1B4R1/LNSIK^SNL p/p o/O" },
        { "*e4", "lnsik^snl/6b1/ppp1pppp/3P4/4p3/PrPP1PPP/1B4R1/LNSIK^SNL p/ O/o" },
        { "p.e4", "lnsik^snl/6b1/ppp1pppp/3P4/4p3/PrPP1PPP/1B4R1/LNSIK^SNL p/ o/O" },
        { "e4=+p", "lnsik^snl/6b1/ppp1pppp/3P4/4+p3/PrPP1PPP/1B4R1/LNSIK^SNL p/ O/o" },
    };
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    load(&pos, OGI_START);
    for (size_t i = 0; i < sizeof plies / sizeof plies[0]; i++) {
        koma_move m;
        if (koma_pmn_parse(plies[i].pmn, strlen(plies[i].pmn), &m, &err) != 0)
            fail_msg("%s: %s", plies[i].pmn, err.message);
        if (koma_pmn_check(&pos, &m, &err) != 0)
            fail_msg("ply %zu %s: %s %s", i + 1, plies[i].pmn, koma_code_name(err.code),
                     err.message);
        if (koma_move_apply(&pos, &m, &err) != 0)
            fail_msg("ply %zu %s: %s", i + 1, plies[i].pmn, err.message);
        feen_is(&pos, plies[i].feen);
    }
    koma_position_cleanup(&pos);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apply_cases),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_special_message),
        cmocka_unit_test(test_sequence),
    };
    return cmocka_run_group_tests_name("apply", tests, NULL, NULL);
}
