/* tests/unit/test_convert.c — koma-convert's dispatch (lib/convert.c): which options
 * fit, FEEN lines versus records, start positions, output patterns, --drop and
 * --encoding words, the format list, and the converter of one input. */
#include "unit.h"

#define START_SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#define START_FEEN "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"

static const koma_format *fmt(const char *name)
{
    const koma_format *f = koma_format_find(name, strlen(name));
    assert_non_null(f);
    return f;
}

/* The check's message for options from -> to (from NULL: detect), or "" when they fit. */
static const char *check(const char *from, const char *to, unsigned write, int normalise,
                         const char *start, const char *output)
{
    static char msg[512];
    koma_convert_options o = {from ? fmt(from) : NULL, fmt(to), write, normalise, start, output};
    int rc = koma_convert_check(&o, msg, sizeof msg);
    assert_int_equal(rc, msg[0] ? -1 : 0);
    return msg;
}

static void test_convert_check(void **state)
{
    (void)state;
    assert_string_equal(check(NULL, "pcn", 0, 0, NULL, NULL), "");
    assert_string_equal(check("csa", "kif", KOMA_WRITE_SHIFT_JIS | KOMA_WRITE_DROP_TIMES, 0, NULL, NULL), "");
    char want[256];
    snprintf(want, sizeof want, "koma does not read pgn (%s)", koma_format_title(fmt("pgn")));
    assert_string_equal(check("pgn", "pcn", 0, 0, NULL, NULL), want);
    assert_string_equal(check("pgn", "csa", KOMA_WRITE_PRETTY, 1, NULL, NULL), want);  /* the first fault named */
    snprintf(want, sizeof want, "koma does not write pgn (%s)", koma_format_title(fmt("pgn")));
    assert_string_equal(check(NULL, "pgn", 0, 0, NULL, NULL), want);
    assert_string_equal(check(NULL, "pcn", 0, 1, NULL, NULL), "--normalise needs --to feen or --from feen");
    assert_string_equal(check("feen", "sfen", 0, 1, NULL, NULL), "");
    assert_string_equal(check(NULL, "pcn", KOMA_WRITE_EACH, 0, NULL, NULL),
                        "--each needs a position format (--to svg, ascii, unicode, feen, sfen, fen, fid)");
    assert_string_equal(check(NULL, "csa", 0, 0, NULL, "x%r"),
                        "-o needs a position format (--to svg, ascii, unicode, feen, sfen, fen, fid)");
    assert_string_equal(check(NULL, "svg", KOMA_WRITE_EACH, 0, NULL, "x%r"),
                        "-o x%r with --each: add %p (the ply) to name one file a position");
    assert_string_equal(check(NULL, "svg", KOMA_WRITE_EACH, 0, NULL, "x%r-%p"), "");
    assert_string_equal(check(NULL, "svg", 0, 0, NULL, "x%q"),
                        "-o x%q: only %r (record), %p (ply) and %% may follow '%'");
    assert_string_equal(check(NULL, "svg", KOMA_WRITE_EACH, 0, NULL, NULL),
                        "--to svg --each draws one picture a position: name their files with "
                        "-o PATTERN (%p the ply, %r the record)");
    assert_string_equal(check(NULL, "csa", KOMA_WRITE_PRETTY, 0, NULL, NULL), "--pretty needs --to pcn or jkf");
    assert_string_equal(check(NULL, "jkf", KOMA_WRITE_PRETTY, 0, NULL, NULL), "");
    assert_string_equal(check(NULL, "csa", KOMA_WRITE_UTF8, 0, NULL, NULL), "--encoding needs --to kif or ki2");
    assert_string_equal(check(NULL, "pcn", KOMA_WRITE_DROP_VARIATIONS, 0, NULL, NULL),
                        "--drop needs --to csa, usi, kif, ki2 or jkf (PCN keeps everything)");
    assert_string_equal(check("pmn", "pcn", 0, 0, NULL, NULL), "--from pmn needs --start POSITION (the moves' start)");
    assert_string_equal(check("pmn", "pcn", 0, 0, START_SFEN, NULL), "");
    assert_string_equal(check("usi-move", "pcn", 0, 0, START_FEEN, NULL), "");
    assert_string_equal(check("csa", "pcn", 0, 0, START_FEEN, NULL), "--start needs --from pmn, usi-move or fen-move");
    /* a start that is neither FEEN nor SFEN: the FEEN parser's error */
    const char *m = check("usi-move", "pcn", 0, 0, "9/9 x", NULL);
    assert_true(strncmp(m, "--start: column ", 16) == 0);
}

static void test_convert_feen_lines(void **state)
{
    (void)state;
    koma_convert_options o = {NULL, fmt("feen"), 0, 0, NULL, NULL};
    assert_true(koma_convert_feen_lines(&o));
    o.from = fmt("feen");
    assert_true(koma_convert_feen_lines(&o));
    o.from = fmt("csa");
    assert_false(koma_convert_feen_lines(&o));
    o.from = NULL;
    o.write = KOMA_WRITE_EACH;
    assert_false(koma_convert_feen_lines(&o));
    o.write = 0;
    o.output = "x%r";
    assert_false(koma_convert_feen_lines(&o));
    o.output = NULL;
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

static void test_convert_output_pattern(void **state)
{
    (void)state;
    int r = 0, p = 0;
    assert_int_equal(koma_convert_output_pattern("pos-%r-%03p.svg", &r, &p), 0);
    assert_true(r && p);
    r = p = 0;
    assert_int_equal(koma_convert_output_pattern("100%%-%p", &r, &p), 0);
    assert_true(!r && p);
    assert_int_equal(koma_convert_output_pattern("x%123p", &r, &p), -1);
    assert_int_equal(koma_convert_output_pattern("x%s", &r, &p), -1);
    char buf[64];
    assert_int_equal(koma_convert_output_name("pos-%r-%03p.svg", 12, 7, buf, sizeof buf), 0);
    assert_string_equal(buf, "pos-12-007.svg");
    assert_int_equal(koma_convert_output_name("%%%2r|%p", 3, 0, buf, sizeof buf), 0);
    assert_string_equal(buf, "% 3|0");
    assert_int_equal(koma_convert_output_name("abcdefgh%r", 1, 0, buf, 9), -1);
}

static void test_convert_words(void **state)
{
    (void)state;
    unsigned flags = 0;
    const char *bad = NULL;
    size_t bad_len = 0;
    assert_int_equal(koma_convert_drop_flags("times,variations", &flags, &bad, &bad_len), 0);
    assert_int_equal(flags, KOMA_WRITE_DROP_TIMES | KOMA_WRITE_DROP_VARIATIONS);
    flags = 0;
    assert_int_equal(koma_convert_drop_flags("times,comments,x", &flags, &bad, &bad_len), -1);
    assert_int_equal(bad_len, 8);
    assert_memory_equal(bad, "comments", 8);
    assert_int_equal(koma_convert_encoding_flag("UTF-8"), KOMA_WRITE_UTF8);
    assert_int_equal(koma_convert_encoding_flag("cp932"), KOMA_WRITE_SHIFT_JIS);
    assert_int_equal(koma_convert_encoding_flag("latin1"), 0);
    char text[8192];
    size_t n = koma_convert_list(text, sizeof text);
    assert_int_equal(n, strlen(text));
    assert_non_null(strstr(text, "\ncsa       rw    record   "));
    assert_non_null(strstr(text, "\nggn       w     game     the move patterns of a game (--game), as GGN\n"));
    /* a small buffer: truncated, NUL-terminated, the full length returned */
    char small[16];
    assert_int_equal(koma_convert_list(small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
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
    return s->stop_after && s->events.n >= (size_t)s->stop_after ? -1 : 0;
}

static const char csa[] = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nPI\n+\n+5554FU\n%TORYO\n/\n"
                          "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";

static void test_convert_records(void **state)
{
    (void)state;
    koma_convert_options o = {fmt("csa"), fmt("usi"), 0, 0, NULL, NULL};
    koma_error err;
    koma_converter *cv = koma_converter_new(&o, &err);
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
    /* a second input: the counts go on; fn stops the input after its first record */
    s.stop_after = 4;
    in.pos = 0;
    assert_int_equal(koma_converter_input(cv, mem_read, &in, on_event, &s, &err), 0);
    assert_int_equal(s.events.n, 4);
    koma_converter_counts(cv, &n);
    assert_int_equal(n.records, 4);
    list_free(&s.events);
    koma_converter_free(cv);

    /* a record the target cannot hold: unwritable, at its line, column 1 */
    static const char ogi[] = "{\"setup\":{\"feen\":\"lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o\"},\"plies\":[]}\n";
    o.from = NULL;
    cv = koma_converter_new(&o, &err);
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
    koma_convert_options o = {fmt("csa"), fmt("sfen"), KOMA_WRITE_EACH, 0, NULL, "x%r-%p"};
    koma_error err;
    koma_converter *cv = koma_converter_new(&o, &err);
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
    koma_convert_options o = {NULL, fmt("feen"), 0, 1, NULL, NULL};
    koma_error err, bad;
    koma_converter *cv = koma_converter_new(&o, &err);
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
        cmocka_unit_test(test_convert_feen_lines),
        cmocka_unit_test(test_convert_start),
        cmocka_unit_test(test_convert_output_pattern),
        cmocka_unit_test(test_convert_words),
        cmocka_unit_test(test_convert_records),
        cmocka_unit_test(test_convert_each_position),
        cmocka_unit_test(test_convert_feen_line),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
