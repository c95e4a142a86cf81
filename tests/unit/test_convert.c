/* tests/unit/test_convert.c — converting inputs (lib/convert.c): which settings fit
 * (koma_convert_check's bits, the flags a writer takes), FEEN lines versus records,
 * start positions, and the converter of one input. The option words and messages of
 * koma-convert are cmd/convert_opts.c's (tests/cli/cases/convert). */
#include "unit.h"

#define START_SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#define START_FEEN "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"

static const koma_format *fmt(const char *name)
{
    const koma_format *f = koma_format_find(name, strlen(name));
    assert_non_null(f);
    return f;
}

/* koma_convert_check's bits for options from -> to (from NULL: detect). */
static unsigned check(const char *from, const char *to, unsigned write, int normalise, const char *start,
                      int split)
{
    koma_convert_options o = {sizeof o, from ? fmt(from) : NULL, fmt(to), write, normalise, start, split, NULL};
    koma_error err;
    unsigned bad = koma_convert_check(&o, &err);
    /* err says why only for a start that is not a position */
    if (bad & KOMA_CONVERT_UNFIT_START) assert_int_not_equal(err.code, KOMA_OK);
    else assert_int_equal(err.code, KOMA_OK);
    return bad;
}

static void test_convert_check(void **state)
{
    (void)state;
    assert_int_equal(check(NULL, "pcn", 0, 0, NULL, 0), 0);
    assert_int_equal(check("csa", "kif", KOMA_WRITE_SHIFT_JIS | KOMA_WRITE_DROP_TIMES, 0, NULL, 0), 0);
    assert_int_equal(check("pgn", "pcn", 0, 0, NULL, 0), KOMA_CONVERT_UNFIT_FROM);
    assert_int_equal(check(NULL, "pgn", 0, 0, NULL, 0), KOMA_CONVERT_UNFIT_TO);
    /* every misfit, not only the first */
    assert_int_equal(check("pgn", "csa", KOMA_WRITE_PRETTY, 1, NULL, 0),
                     KOMA_CONVERT_UNFIT_FROM | KOMA_CONVERT_UNFIT_NORMALISE | KOMA_CONVERT_UNFIT_WRITE);
    assert_int_equal(check(NULL, "pcn", 0, 1, NULL, 0), KOMA_CONVERT_UNFIT_NORMALISE);
    assert_int_equal(check("feen", "sfen", 0, 1, NULL, 0), 0);
    assert_int_equal(check(NULL, "pcn", KOMA_WRITE_EACH, 0, NULL, 0), KOMA_CONVERT_UNFIT_WRITE);
    assert_int_equal(check(NULL, "csa", 0, 0, NULL, 1), KOMA_CONVERT_UNFIT_SPLIT);
    assert_int_equal(check(NULL, "svg", KOMA_WRITE_EACH, 0, NULL, 1), 0);
    assert_int_equal(check(NULL, "svg", 0, 0, NULL, 1), 0);
    /* SVG documents cannot be concatenated: every position needs outputs of its own */
    assert_int_equal(check(NULL, "svg", KOMA_WRITE_EACH, 0, NULL, 0), KOMA_CONVERT_UNFIT_JOINED);
    assert_int_equal(check(NULL, "ascii", KOMA_WRITE_EACH, 0, NULL, 0), 0);
    assert_int_equal(check(NULL, "csa", KOMA_WRITE_PRETTY, 0, NULL, 0), KOMA_CONVERT_UNFIT_WRITE);
    assert_int_equal(check(NULL, "jkf", KOMA_WRITE_PRETTY, 0, NULL, 0), 0);
    assert_int_equal(check(NULL, "csa", KOMA_WRITE_UTF8, 0, NULL, 0), KOMA_CONVERT_UNFIT_WRITE);
    assert_int_equal(check(NULL, "pcn", KOMA_WRITE_DROP_VARIATIONS, 0, NULL, 0), KOMA_CONVERT_UNFIT_WRITE);
    assert_int_equal(check("pmn", "pcn", 0, 0, NULL, 0), KOMA_CONVERT_UNFIT_NO_START);
    assert_int_equal(check("usi-move", "pcn", 0, 0, NULL, 0), 0);    /* the Shogi start */
    assert_int_equal(check("pmn", "pcn", 0, 0, START_SFEN, 0), 0);
    assert_int_equal(check("usi-move", "pcn", 0, 0, START_FEEN, 0), 0);
    assert_int_equal(check("csa", "pcn", 0, 0, START_FEEN, 0), KOMA_CONVERT_UNFIT_START_UNUSED);
    assert_int_equal(check(NULL, "pcn", 0, 0, START_FEEN, 0), KOMA_CONVERT_UNFIT_START_UNUSED);
    /* a start that is neither FEEN nor SFEN: the FEEN parser's error */
    assert_int_equal(check("usi-move", "pcn", 0, 0, "9/9 x", 0), KOMA_CONVERT_UNFIT_START);
    assert_int_equal(check("csa", "pcn", 0, 0, "9/9 x", 0), KOMA_CONVERT_UNFIT_START | KOMA_CONVERT_UNFIT_START_UNUSED);
    koma_convert_options o = {sizeof o, fmt("usi-move"), fmt("pcn"), 0, 0, "9/9 x", 0, NULL};
    assert_int_equal(koma_convert_check(&o, NULL), KOMA_CONVERT_UNFIT_START);    /* err may be NULL */
}

static void test_convert_write_flags(void **state)
{
    (void)state;
    const unsigned drop = KOMA_WRITE_DROP_TIMES | KOMA_WRITE_DROP_VARIATIONS;
    const unsigned enc = KOMA_WRITE_UTF8 | KOMA_WRITE_SHIFT_JIS;
    assert_int_equal(koma_convert_write_flags(fmt("svg")), KOMA_WRITE_EACH);
    assert_int_equal(koma_convert_write_flags(fmt("feen")), KOMA_WRITE_EACH);
    assert_int_equal(koma_convert_write_flags(fmt("pcn")), KOMA_WRITE_PRETTY);
    assert_int_equal(koma_convert_write_flags(fmt("jkf")), KOMA_WRITE_PRETTY | drop);
    assert_int_equal(koma_convert_write_flags(fmt("kif")), enc | drop);
    assert_int_equal(koma_convert_write_flags(fmt("ki2")), enc | drop);
    assert_int_equal(koma_convert_write_flags(fmt("csa")), drop);
    assert_int_equal(koma_convert_write_flags(fmt("usi-move")), 0);
    assert_int_equal(koma_convert_write_flags(fmt("pgn")), 0);     /* not written */
    /* the registry as data: every format a front end may list, each check agreeing */
    for (size_t i = 0; i < koma_format_count(); i++) {
        const koma_format *f = koma_format_at(i);
        unsigned w = koma_convert_write_flags(f);
        koma_convert_options o = {sizeof o, NULL, f, w, 0, NULL, 0, NULL};
        if (w & KOMA_WRITE_EACH) o.split = 1;          /* SVG: one output a position */
        if ((w & enc) == enc) o.write &= ~KOMA_WRITE_UTF8;
        if (koma_format_caps(f) & KOMA_FORMAT_WRITE) assert_int_equal(koma_convert_check(&o, NULL), 0);
        else assert_int_equal(koma_convert_check(&o, NULL), KOMA_CONVERT_UNFIT_TO);
    }
}

static void test_convert_feen_lines(void **state)
{
    (void)state;
    koma_convert_options o = {sizeof o, NULL, fmt("feen"), 0, 0, NULL, 0, NULL};
    assert_true(koma_convert_feen_lines(&o));
    o.from = fmt("feen");
    assert_true(koma_convert_feen_lines(&o));
    o.from = fmt("csa");
    assert_false(koma_convert_feen_lines(&o));
    o.from = NULL;
    o.write = KOMA_WRITE_EACH;
    assert_false(koma_convert_feen_lines(&o));
    o.write = 0;
    o.split = 1;
    assert_false(koma_convert_feen_lines(&o));
    o.split = 0;
    o.to = fmt("sfen");
    assert_false(koma_convert_feen_lines(&o));
    /* detected: FEEN or nothing known stays on the line path; CSA does not */
    assert_true(koma_convert_input_is_feen(LIT(START_FEEN "\n"), 1));
    assert_true(koma_convert_input_is_feen(LIT("what is this\n"), 1));
    assert_false(koma_convert_input_is_feen(LIT("V2.2\nPI\n+\n+7776FU\n%TORYO\n"), 1));
}

static void test_convert_start(void **state)
{
    (void)state;
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t n = 0;
    koma_error err;
    assert_int_equal(koma_convert_start(LIT(START_SFEN), feen, sizeof feen, &n, &err), 0);
    assert_string_equal(feen, START_FEEN);
    assert_int_equal(n, strlen(START_FEEN));
    assert_int_equal(koma_convert_start(LIT(START_FEEN), feen, sizeof feen, &n, &err), 0);
    assert_string_equal(feen, START_FEEN);
    assert_int_equal(koma_convert_start(LIT("not a position"), feen, sizeof feen, &n, &err), -1);
    assert_int_not_equal(err.code, KOMA_OK);
    /* a buffer too small is an error, never a cut FEEN */
    assert_int_equal(koma_convert_start(LIT(START_SFEN), feen, 10, &n, &err), -1);
    assert_int_equal(err.code, KOMA_E_FEEN_LENGTH);
}

/* ---- the converter ------------------------------------------------------------------ */

typedef struct seen {
    list events;                       /* "KIND LINE text-or-code" */
    int stop_after;                    /* stop the input after this many events (0: never) */
} seen;

static int on_event(void *ctx, const koma_convert_event *ev)
{
    seen *s = ctx;
    static const char *kinds[] = {"record", "invalid", "unwritable", "fatal"};
    if (ev->kind == KOMA_CONVERT_RECORD) list_addf(&s->events, "%s %lu %.*s", kinds[ev->kind], ev->line, (int)ev->len, ev->text);
    else list_addf(&s->events, "%s %lu %s %lu:%lu", kinds[ev->kind], ev->line, koma_code_name(ev->err->code),
                   ev->err->line, ev->err->column);
    return s->stop_after && s->events.n >= (size_t)s->stop_after ? 5 : 0;   /* 5: any non-zero value */
}

static const char csa[] = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nPI\n+\n+5554FU\n%TORYO\n/\n"
                          "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";

static void test_convert_records(void **state)
{
    (void)state;
    koma_convert_options o = {sizeof o, fmt("csa"), fmt("usi"), 0, 0, NULL, 0, NULL};
    koma_error err;
    koma_converter *cv = NULL;
    koma_converter_new(&o, &cv, &err);
    assert_non_null(cv);
    seen s = {LIST_INIT, 0};
    mem_src in = {csa, sizeof csa - 1, 0, 7};     /* fed in small pieces */
    assert_int_equal(koma_converter_input(cv, mem_read, &in, on_event, &s, &err), 0);
    assert_int_equal(s.events.n, 3);
    assert_string_equal(s.events.m[0], "record 1 position startpos moves 7g7f\n");
    assert_string_equal(s.events.m[1], "invalid 7 convert.move 10:1");     /* 5554FU: no piece on 5e */
    assert_string_equal(s.events.m[2], "record 13 position startpos moves 7g7f 3c3d\n");
    koma_convert_counts n;
    koma_converter_counts(cv, &n);
    assert_int_equal(n.records, 3);
    assert_int_equal(n.converted, 2);
    assert_int_equal(n.failed, 1);
    /* a second input: the counts go on; fn stops the input after its first record,
     * and the call returns fn's value */
    s.stop_after = 4;
    in.pos = 0;
    assert_int_equal(koma_converter_input(cv, mem_read, &in, on_event, &s, &err), 5);
    assert_int_equal(s.events.n, 4);
    koma_converter_counts(cv, &n);
    assert_int_equal(n.records, 4);
    list_free(&s.events);
    koma_converter_free(cv);

    /* a record the target cannot hold: unwritable, at its line, column 1 */
    static const char ogi[] = "{\"setup\":{\"feen\":\"lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o\"},\"plies\":[]}\n";
    o.from = NULL;
    koma_converter_new(&o, &cv, &err);
    assert_non_null(cv);
    seen t = {LIST_INIT, 0};
    mem_src in2 = {ogi, sizeof ogi - 1, 0, 1 << 16};
    assert_int_equal(koma_converter_input(cv, mem_read, &in2, on_event, &t, &err), 0);
    assert_int_equal(t.events.n, 1);
    assert_string_equal(t.events.m[0], "unwritable 1 sfen.game 1:1");
    list_free(&t.events);
    koma_converter_free(cv);
}

static unsigned long pos_records[8];
static size_t pos_plies[8], npos;

static int on_position(void *ctx, unsigned long record, size_t ply, const char *text, size_t len)
{
    (void)ctx;
    (void)text;
    assert_true(len > 0);
    if (npos < 8) {
        pos_records[npos] = record;
        pos_plies[npos] = ply;
    }
    npos++;
    return 0;
}

static void test_convert_each_position(void **state)
{
    (void)state;
    koma_convert_options o = {sizeof o, fmt("csa"), fmt("sfen"), KOMA_WRITE_EACH, 0, NULL, 1, NULL};
    koma_error err;
    koma_converter *cv = NULL;
    koma_converter_new(&o, &cv, &err);
    assert_non_null(cv);
    koma_converter_each_position(cv, on_position, NULL);
    seen s = {LIST_INIT, 0};
    mem_src in = {csa, sizeof csa - 1, 0, 1 << 16};
    assert_int_equal(koma_converter_input(cv, mem_read, &in, on_event, &s, &err), 0);
    /* record 1: setup and one ply; record 2 unreadable; record 3: setup and two plies */
    assert_int_equal(npos, 5);
    assert_int_equal(pos_records[0], 1);
    assert_int_equal(pos_plies[1], 1);
    assert_int_equal(pos_records[2], 3);
    assert_int_equal(pos_plies[4], 2);
    list_free(&s.events);
    koma_converter_free(cv);
}

static void test_convert_feen_line(void **state)
{
    (void)state;
    koma_convert_options o = {sizeof o, NULL, fmt("feen"), 0, 1, NULL, 0, NULL};
    koma_error err, bad;
    koma_converter *cv = NULL;
    koma_converter_new(&o, &cv, &err);
    assert_non_null(cv);
    seen s = {LIST_INIT, 0};
    /* --normalise: a hand out of order is accepted and written canonically */
    assert_int_equal(koma_converter_line(cv, LIT("4k^3/8/8/8/8/8/8/4K^3 PP/ C/c"), 4, NULL, on_event, &s), 0);
    assert_int_equal(koma_converter_line(cv, LIT("4k^3/8/8/8/8/8/8/4K^3 / x"), 5, NULL, on_event, &s), 0);
    koma_error_clear(&bad);
    koma_error_set(&bad, KOMA_E_IO_READ, 0, "line too long");
    bad.column = 1;
    assert_int_equal(koma_converter_line(cv, NULL, 0, 6, &bad, on_event, &s), 0);
    assert_int_equal(s.events.n, 3);
    assert_string_equal(s.events.m[0], "record 4 4k^3/8/8/8/8/8/8/4K^3 2P/ C/c\n");
    assert_true(strncmp(s.events.m[1], "invalid 5 feen.", 15) == 0);
    assert_string_equal(s.events.m[2], "invalid 6 io.read 6:1");
    koma_convert_counts n;
    koma_converter_counts(cv, &n);
    assert_int_equal(n.lines, 3);
    assert_int_equal(n.converted, 1);
    assert_int_equal(n.invalid, 2);
    assert_int_equal(n.records, 0);
    list_free(&s.events);
    koma_converter_free(cv);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_convert_check),
        cmocka_unit_test(test_convert_write_flags),
        cmocka_unit_test(test_convert_feen_lines),
        cmocka_unit_test(test_convert_start),
        cmocka_unit_test(test_convert_records),
        cmocka_unit_test(test_convert_each_position),
        cmocka_unit_test(test_convert_feen_line),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
