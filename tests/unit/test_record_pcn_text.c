/*
 * tests/unit/test_record_pcn_text.c — a shogi-world record written straight to
 * PCN JSON text (lib/record_pcn_text.c, koma__srec_pcn_text) against the
 * general path: koma_shogi_record_to_pcn's tree written by koma_pcn_write
 * (compact). The same bytes, or the same error (code, message, line, column).
 *
 * Two levels: the converter (koma-convert's path: every record of an input
 * read and written as PCN JSON, once straight and once through the tree with
 * koma__converter_tree; each record's event, text and diagnostics compared) on
 * every shogi-world file of tests/data and the kif, ki2, csa, jkf, usi and sfen
 * fuzz corpora; and the writer itself on random legal games made records and
 * edited at random: headers (repeated keys, remarks, dates with and without a
 * zone, text with quotes, backslashes, controls, non-ASCII and bytes that are
 * not UTF-8), periods, comments, bookmarks, times, forks (nested, some with a
 * move that does not apply), every ending, CSA's move limit.
 */
#include <stdlib.h>

#include "unit.h"
#include "format_internal.h"
#include "record_internal.h"

static unsigned long files_compared, records_compared, texts_written, errors_compared;
static int counting;                   /* the straight run's events are counted */
static unsigned long long seed = 20261129ull;

static unsigned rnd(unsigned n) { return rnd_next(&seed, n); }

/* ---- the converter, both ways ------------------------------------------------- */

static void log_error(koma_buffer *log, const char *what, const koma_error *e)
{
    koma_error err;
    if (e == NULL) return;
    char head[128];
    snprintf(head, sizeof head, "%s %s %lu:%lu ", what, koma_code_name(e->code), e->line, e->column);
    assert_int_equal(koma__buf_puts(log, head, &err), 0);
    assert_int_equal(koma__buf_puts(log, e->message, &err), 0);
    assert_int_equal(koma__buf_put(log, "\n", 1, &err), 0);
}

static int log_event(void *ctx, const koma_convert_event *ev)
{
    koma_buffer *log = ctx;
    koma_error err;
    char head[64];
    snprintf(head, sizeof head, "event %d line %lu\n", (int)ev->kind, ev->line);
    assert_int_equal(koma__buf_puts(log, head, &err), 0);
    if (ev->kind == KOMA_CONVERT_RECORD) {
        assert_int_equal(koma__buf_put(log, ev->text, ev->len, &err), 0);
        records_compared += counting;
    } else {
        log_error(log, "error", ev->err);
        errors_compared += counting;
    }
    log_error(log, "warning", ev->warning);
    return 0;
}

/* text converted to PCN JSON, straight (tree 0) or through the tree (1): its log. */
static void convert_log(const char *text, size_t len, int tree, koma_buffer *log)
{
    koma_convert_options o = KOMA_CONVERT_OPTIONS_INIT;
    o.to = koma_format_find("pcn", 3);
    assert_non_null(o.to);
    koma_converter *cv = NULL;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_converter_new(&o, &cv, &err), 0);
    koma__converter_tree(cv, tree);
    counting = !tree;
    mem_src src = {text, len, 0, 4096};
    koma_error_clear(&err);
    int rc = koma_converter_input(cv, mem_read, &src, log_event, log, &err);
    char tail[64];
    snprintf(tail, sizeof tail, "input %d\n", rc);
    assert_int_equal(koma__buf_puts(log, tail, &err), 0);
    koma_converter_free(cv);
}

static void same_converted(const char *what, const char *text, size_t len)
{
    koma_buffer a = {0}, b = {0};
    convert_log(text, len, 0, &a);
    convert_log(text, len, 1, &b);
    if (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len) != 0))
        fail_msg("%s: the PCN text written straight differs from the tree's:\n--- straight\n%.*s\n--- tree\n%.*s",
                 what, (int)a.len, a.data ? a.data : "", (int)b.len, b.data ? b.data : "");
    files_compared++;
    koma_buffer_cleanup(&a);
    koma_buffer_cleanup(&b);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t l = strlen(s), k = strlen(suffix);
    return l >= k && strcmp(s + l - k, suffix) == 0;
}

static int shogi_file(const char *name)
{
    static const char *const suffixes[] = {".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".jkf", ".usi", ".sfen"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (ends_with(name, suffixes[i])) return 1;
    return 0;
}

/* A file of the walk: all of them (*all 1) or the shogi-world ones. */
static void same_for_file(const char *path, const char *name, void *ctx)
{
    if (!*(int *)ctx && !shogi_file(name)) return;
    size_t len;
    char *text = read_whole_file(path, &len);
    if (text == NULL) return;
    same_converted(path, text, len);
    free(text);
}

static void same_for_files(const char *dir, int all) { walk_files(dir, same_for_file, &all); }

static void sample_records(void **state)
{
    (void)state;
    unsigned long f = files_compared, r = records_compared;
    same_for_files("tests/data", 0);
    print_message("tests/data: %lu files (%lu records), the same both ways\n", files_compared - f,
                  records_compared - r);
    assert_true(files_compared - f >= 80);
}

static void fuzz_corpora(void **state)
{
    (void)state;
    unsigned long f = files_compared, r = records_compared, e = errors_compared;
    static const char *const dirs[] = {"kif", "ki2", "csa", "jkf", "usi", "sfen"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char dir[64];
        snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", dirs[i]);
        same_for_files(dir, 1);
    }
    print_message("fuzz corpora: %lu inputs (%lu records, %lu errors), the same both ways\n", files_compared - f,
                  records_compared - r, errors_compared - e);
    assert_true(files_compared - f >= 5000);
    assert_true(records_compared - r >= 1000 && errors_compared - e >= 1000);
}

/* ---- random records, edited --------------------------------------------------- */

static koma_hub *hub;

static int hub_setup(void **state)
{
    (void)state;
    koma_error err;
    return koma_hub_new(NULL, &hub, &err);
}

static int hub_teardown(void **state)
{
    (void)state;
    koma_hub_free(hub);
    return 0;
}

/* Text with what JSON escapes and what UTF-8 refuses, now and then. */
static const char *const texts[] = {
    "plain", "", "with \"quotes\" and \\backslash\\", "tab\there\r\nand a\bbell\x01\x1f\x7f", "先手 ▲7六歩 「名人戦」",
    "line one\nline two", "/slash/ and </script>", "é\xe2\x80\xa8 sep", "\xff not UTF-8", "cut \xe6\x97",
};
#define NTEXTS (sizeof texts / sizeof texts[0])

static const char *pick_text(void)
{
    /* mostly valid text: a record with a bad one fails at its first */
    unsigned i = rnd(40) == 0 ? rnd(NTEXTS) : rnd(NTEXTS - 2);
    return texts[i];
}

static char *dup_text(const char *s)
{
    char *d = NULL;
    koma_error err;
    assert_int_equal(koma_shogi_set_text(&d, s, strlen(s), 0, &err), 0);
    return d;
}

/* *dst = a copy of s, the text it held freed */
static void set_text(char **dst, const char *s)
{
    koma_error err;
    assert_int_equal(koma_shogi_set_text(dst, s, strlen(s), 0, &err), 0);
}

static void add_headers(koma_shogi_record *r)
{
    static const char *const names[] = {"#", "棋戦", "foo", "", "bar\x01", "bad\xff", "foo"};
    koma_error err;
    unsigned n = rnd(12);
    for (unsigned i = 0; i < n; i++) {
        koma_shogi_header_key key = (koma_shogi_header_key)rnd(KOMA_H_SECOND_NAME + 1);
        const char *name = key == KOMA_H_OTHER ? names[rnd(rnd(30) ? 5 : 7)] : NULL;
        const char *value = pick_text();
        if (key == KOMA_H_START)
            value = (const char *[]){"2026-11-29", "2026-11-29T08:00:00+09:00", "2026-11-29T08:00:00Z",
                                     "2026-11-29T08:00:00"}[rnd(4)];
        assert_int_equal(koma_shogi_record_add_header(r, key, name, name ? strlen(name) : 0, value, strlen(value),
                                                      &err),
                         0);
    }
    for (int s = 0; s < 3; s++) {
        r->nperiods[s] = rnd(3) == 0 ? rnd(3) : 0;
        for (size_t i = 0; i < r->nperiods[s]; i++) {
            r->periods[s][i].duration_ms = (long long)rnd(7200000);
            r->periods[s][i].increment_ms = rnd(2) ? KOMA_TIME_NONE : (long long)rnd(60000);
            r->periods[s][i].plies = rnd(2) ? 0 : (long long)rnd(60);
        }
    }
    if (rnd(2)) {
        set_text(&r->source_format, rnd(2) ? "csa" : "kif");
        if (rnd(2)) set_text(&r->source_version, rnd(20) ? "3.0" : "\xfe");
        if (rnd(2)) set_text(&r->source_encoding, "Shift_JIS");
    }
    if (rnd(4) == 0) set_text(&r->setup_comment, pick_text());
    if (rnd(6) == 0) set_text(&r->setup_bookmark, pick_text());
}

static void edit_ending(koma_shogi_ending *e)
{
    if (rnd(3) == 0) return;
    e->code = (koma_shogi_ending_code)rnd(KOMA_SHOGI_ENDING_OTHER + 1);
    if (e->code == KOMA_SHOGI_ENDING_OTHER && rnd(2)) set_text(&e->text, rnd(2) ? "封じ手" : pick_text());
    if (rnd(5) == 0) set_text(&e->csa, rnd(2) ? "%KACHI" : "%+ILLEGAL_ACTION");
    if (rnd(3) == 0) e->elapsed_ms = (long long)rnd(100000);
    if (rnd(3) == 0) e->total_ms = (long long)rnd(1000000);
    if (rnd(4) == 0) set_text(&e->comment, pick_text());
    if (rnd(8) == 0) set_text(&e->bookmark, pick_text());
}

static void edit_move(koma_shogi_move *m)
{
    if (rnd(3) == 0) m->elapsed_ms = rnd(20) ? (long long)rnd(600000) : -(long long)rnd(100) - 2;
    if (rnd(4) == 0) m->total_ms = (long long)rnd(10000000);
    if (rnd(6) == 0) set_text(&m->comment, pick_text());
    if (rnd(15) == 0) set_text(&m->bookmark, pick_text());
}

/* A copy of src's moves [from, to) (their times and texts too, not their forks). */
static void copy_moves(koma_shogi_line *dst, const koma_shogi_line *src, size_t from, size_t to)
{
    koma_error err;
    for (size_t i = from; i < to; i++) {
        koma_shogi_move m = src->moves[i];
        m.forks = NULL;
        m.nforks = 0;
        m.comment = m.comment ? dup_text(m.comment) : NULL;
        m.bookmark = m.bookmark ? dup_text(m.bookmark) : NULL;
        assert_non_null(koma_shogi_line_push(dst, &m, &err));
    }
}

/* Forks on line (a copy of some of its own moves: they apply; now and then a
 * move spoilt: an error inside a variation), nested up to depth levels. */
static void add_forks(koma_shogi_line *line, unsigned depth)
{
    koma_error err;
    if (line->len == 0) return;
    unsigned n = rnd(3);
    for (unsigned k = 0; k < n; k++) {
        size_t at = rnd((unsigned)line->len);
        koma_shogi_line *f = koma_shogi_move_add_fork(&line->moves[at], &err);
        assert_non_null(f);
        size_t end = at + rnd((unsigned)(line->len - at) + 1);
        copy_moves(f, line, at, end);
        if (f->len && rnd(15) == 0) f->moves[rnd((unsigned)f->len)].to = (koma_sq){5, 5};
        for (size_t i = 0; i < f->len; i++) edit_move(&f->moves[i]);
        edit_ending(&f->end);
        if (depth > 1 && rnd(2)) add_forks(f, depth - 1);
    }
}

static const char *const starts[] = {
    "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s",
    "k^8/9/9/9/9/9/9/9/8K^ 4G4L4N4S2B2R/18p S/s",
    "4k^4/9/9/9/9/9/9/8K^/+R7+R 2B2G/2g S/s",
};

/* The writer against the tree on r: the same text, or the same error. */
static void same_written(const koma_shogi_record *r)
{
    koma_buffer a = {0}, b = {0};
    koma_error ea, eb;
    koma_error_clear(&ea);
    koma_error_clear(&eb);
    assert_int_equal(koma__buf_put(&a, "kept", 4, &ea), 0);
    int ra = koma__srec_pcn_text(hub, r, &a, &ea);
    koma_pcn *p = NULL;
    int rb = koma_shogi_record_to_pcn(hub, r, &p, &eb);
    if (rb == 0) rb = koma_pcn_write(p, KOMA_PCN_JSON, 0, &b, &eb);
    koma_pcn_free(p);
    assert_true(ra == 0 || ra == -1);
    if (ra != rb || ea.code != eb.code || strcmp(ea.message, eb.message) != 0 || ea.line != eb.line ||
        ea.column != eb.column || (ra == 0 && (a.len - 4 != b.len || memcmp(a.data + 4, b.data, b.len) != 0)))
        fail_msg("the PCN text written straight differs from the tree's:\n--- straight %d %s %s\n%.*s\n--- tree %d %s "
                 "%s\n%.*s",
                 ra, koma_code_name(ea.code), ea.message, (int)a.len, a.data, rb, koma_code_name(eb.code),
                 eb.message, (int)b.len, b.data ? b.data : "");
    /* an error leaves out as it was */
    assert_true(ra == 0 || (a.len == 4 && memcmp(a.data, "kept", 5) == 0));
    if (ra == 0) texts_written++;
    else errors_compared++;
    koma_buffer_cleanup(&a);
    koma_buffer_cleanup(&b);
}

static void random_records(void **state)
{
    (void)state;
    unsigned long w = texts_written, e = errors_compared;
    koma_shogi_record r;
    koma_shogi_record_init(&r);
    for (int i = 0; i < 1500; i++) {
        koma_pcn *g = random_legal_game(koma_hub_games(hub), starts[rnd(3)], rnd(40), &seed, NULL, 0, NULL);
        assert_non_null(g);
        koma_error err;
        koma_shogi_record_reset(&r);
        assert_int_equal(koma_shogi_record_from_pcn(hub, g, &r, &err), 0);
        koma_pcn_free(g);
        add_headers(&r);
        if (rnd(5) == 0) {
            /* floodgate's move limit reached (or not: a plies count off by one) */
            char c[64];
            snprintf(c, sizeof c, "Max_Moves:%zu%s", r.main.len + (rnd(4) == 0), rnd(2) ? "\nmore" : "");
            set_text(&r.source_format, "csa");
            set_text(&r.setup_comment, c);
        }
        for (size_t k = 0; k < r.main.len; k++) edit_move(&r.main.moves[k]);
        add_forks(&r.main, 3);
        edit_ending(&r.main.end);
        same_written(&r);
    }
    koma_shogi_record_cleanup(&r);
    print_message("random records: %lu written, %lu errors, the same both ways\n", texts_written - w,
                  errors_compared - e);
    assert_true(texts_written - w >= 500 && errors_compared - e >= 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sample_records),
        cmocka_unit_test(fuzz_corpora),
        cmocka_unit_test_setup_teardown(random_records, hub_setup, hub_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
