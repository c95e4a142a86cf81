/*
 * tests/unit/test_fmt_jkf_quick.c — JKF's one-pass reader (lib/fmt_jkf_quick.c)
 * gives every record it reads the record jansson's tree reader (lib/fmt_jkf.c)
 * gives: the same header, start position, moves with their places (line and
 * column), comments, bookmarks, times, forks and endings; and what it does not
 * read, the tree reader reads or refuses (the format's reader then takes the
 * tree's record or error, so its diagnostics are the tree reader's).
 *
 * The records: every JKF file of tests/data, the JKF fuzz corpus
 * (tests/fuzz/corpus/jkf), random legal games written by koma's JKF writer
 * (compact and --pretty), hand-made forms, and random edits of all of them.
 */
#include <dirent.h>
#include <stdlib.h>
#include "unit.h"
#include "fmt_jkf.h"
#include "format_internal.h"

static unsigned long quick_read, tree_only, compared;
static unsigned long long rng = 88172645463325252ull;

static unsigned long long next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* ---- the two readers compared ------------------------------------------------ */

static int jkf_same_text(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static int jkf_same_line(const koma_shogi_line *a, const koma_shogi_line *b)
{
    if (a->len != b->len) return 0;
    for (size_t i = 0; i < a->len; i++) {
        const koma_shogi_move *x = &a->moves[i], *y = &b->moves[i];
        if (x->drop != y->drop || x->from.file != y->from.file || x->from.rank != y->from.rank ||
            x->to.file != y->to.file || x->to.rank != y->to.rank || x->same != y->same || x->piece != y->piece ||
            x->after != y->after || x->promote != y->promote || x->relative != y->relative || x->side != y->side ||
            x->captured != y->captured || x->elapsed_ms != y->elapsed_ms || x->total_ms != y->total_ms ||
            !jkf_same_text(x->comment, y->comment) || !jkf_same_text(x->bookmark, y->bookmark) ||
            x->promotable != y->promotable || x->nforks != y->nforks || x->line != y->line ||
            x->column != y->column)
            return 0;
        for (size_t k = 0; k < x->nforks; k++)
            if (!jkf_same_line(&x->forks[k], &y->forks[k])) return 0;
    }
    const koma_shogi_ending *e = &a->end, *f = &b->end;
    return e->code == f->code && jkf_same_text(e->text, f->text) && jkf_same_text(e->csa, f->csa) &&
           e->elapsed_ms == f->elapsed_ms && e->total_ms == f->total_ms && jkf_same_text(e->comment, f->comment) &&
           jkf_same_text(e->bookmark, f->bookmark) && e->line == f->line && e->column == f->column;
}

static int jkf_same_record(const koma_shogi_record *a, const koma_shogi_record *b)
{
    if (!koma_position_equal(&a->setup, &b->setup) || !jkf_same_text(a->setup_comment, b->setup_comment) ||
        !jkf_same_text(a->setup_bookmark, b->setup_bookmark) || a->nheaders != b->nheaders ||
        !jkf_same_text(a->source_format, b->source_format) || !jkf_same_text(a->source_version, b->source_version) ||
        a->line != b->line || memcmp(a->nperiods, b->nperiods, sizeof a->nperiods) != 0)
        return 0;
    for (size_t i = 0; i < a->nheaders; i++)
        if (a->headers[i].key != b->headers[i].key || !jkf_same_text(a->headers[i].name, b->headers[i].name) ||
            !jkf_same_text(a->headers[i].value, b->headers[i].value))
            return 0;
    for (int s = 0; s < 3; s++)
        for (size_t i = 0; i < a->nperiods[s]; i++)
            if (a->periods[s][i].duration_ms != b->periods[s][i].duration_ms ||
                a->periods[s][i].increment_ms != b->periods[s][i].increment_ms ||
                a->periods[s][i].plies != b->periods[s][i].plies)
                return 0;
    return jkf_same_line(&a->main, &b->main);
}

/* 1: both read the same record; 0: the one-pass reader left it to the tree
 * (the record reset); -1: they differ. */
static int jkf_both(const char *s, size_t len, unsigned long line)
{
    koma_shogi_record q, t;
    koma_shogi_record_init(&q);
    koma_shogi_record_init(&t);
    q.line = t.line = line;
    koma_error eq, et;
    koma_error_clear(&eq);
    koma_error_clear(&et);
    int rq = koma__jkf_read_quick(s, len, line, &q, &eq);
    int rt = koma__jkf_read_tree(s, len, line, &t, &et);
    int rc = rq == 1 ? (rt == 0 && jkf_same_record(&q, &t) ? 1 : -1)
             : rq == 0 ? (q.main.len == 0 && q.nheaders == 0 && q.line == line && q.setup_comment == NULL ? 0 : -1)
                       : -1;
    koma_shogi_record_cleanup(&q);
    koma_shogi_record_cleanup(&t);
    return rc;
}

/* Each record of a text, split as the format splits its input, given to fn
 * with its first line. */
static void jkf_each_record(const char *s, size_t len, void (*fn)(const char *, size_t, unsigned long, void *),
                                   void *ctx)
{
    size_t off = 0;
    unsigned long line = 1;
    while (off < len) {
        size_t rec_len = 0, used = 0;
        if (koma__fmt_jkf.split(s + off, len - off, 1, 0, &rec_len, &used) != KOMA__SPLIT_RECORD || used == 0) break;
        fn(s + off, rec_len, line, ctx);
        for (size_t i = 0; i < used; i++)
            if (s[off + i] == '\n') line++;
        off += used;
    }
}

/* One record's text: both readers (jkf_both). Returns 1 when the one-pass reader read it. */
static int compare(const char *s, size_t len, unsigned long line)
{
    int rc = jkf_both(s, len, line);
    if (rc < 0) print_error("%.*s\n  the two readers differ\n", (int)(len > 2000 ? 2000 : len), s);
    assert_true(rc >= 0);
    if (rc == 1) quick_read++;
    else tree_only++;
    compared++;
    return rc == 1;
}

/* Random edits of a record that reads: a byte dropped, a byte of JSON or of
 * JKF put in, a span repeated. */
static void edits(const char *s, size_t len, int n)
{
    static const char bytes[] = "{}[],:\"\\ \n0129-.tfnxyUHLR";
    char *t = malloc(2 * len + 16);
    assert_non_null(t);
    for (int k = 0; k < n; k++) {
        size_t at = len ? (size_t)(next_rand() % len) : 0, m = 0;
        switch (next_rand() % 3) {
        case 0:
            memcpy(t, s, at);
            memcpy(t + at, s + at + (at < len), len - at - (at < len));
            m = len - (at < len);
            break;
        case 1:
            memcpy(t, s, at);
            t[at] = bytes[next_rand() % (sizeof bytes - 1)];
            memcpy(t + at + 1, s + at, len - at);
            m = len + 1;
            break;
        default: {
            size_t span = 1 + (size_t)(next_rand() % 40);
            if (at + span > len) span = len - at;
            memcpy(t, s, at + span);
            memcpy(t + at + span, s + at, len - at);
            m = len + span;
        }
        }
        compare(t, m, 1);
    }
    free(t);
}

typedef struct each {
    size_t read;
    int nedits;
} each;

static void one_record(const char *s, size_t len, unsigned long line, void *ctx)
{
    each *e = ctx;
    for (size_t i = 0; i < len; i++)
        if (!strchr(" \t\r\n", s[i])) {
            if (compare(s, len, line)) e->read++;
            if (e->nedits) edits(s, len, e->nedits);
            return;
        }
}

/* Each record of a text (blank ones left out), with nedits edits of each. */
static size_t records(const char *s, size_t len, int nedits)
{
    each e = {0, nedits};
    jkf_each_record(s, len, one_record, &e);
    return e.read;
}

static void test_data_files(void **state)
{
    (void)state;
    static const char *const files[] = {
        "tests/data/convert/pair/game.jkf", "tests/data/convert/refused.jkf", "tests/data/convert/bad.jkf",
        "tests/data/select/dup.jkf", "tests/data/shogi-records/sample01.jkf", "tests/data/shogi-records/sample02.jkf",
        "tests/data/shogi-records/sample03.jkf",
    };
    size_t read = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len;
        char *s = read_whole_file(files[i], &len);
        if (s == NULL) print_error("cannot read %s\n", files[i]);
        assert_non_null(s);
        read += records(s, len, 200);
        free(s);
    }
    /* the real records and the sample games are of the forms read in one pass */
    assert_true(read >= 6);
}

static void test_fuzz_corpus(void **state)
{
    (void)state;
    DIR *d = opendir("tests/fuzz/corpus/jkf");
    assert_non_null(d);
    size_t files = 0, read = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "tests/fuzz/corpus/jkf/%s", de->d_name);
        size_t len;
        char *s = read_whole_file(path, &len);
        if (s == NULL) continue;
        read += records(s, len, 2);
        files++;
        free(s);
    }
    closedir(d);
    assert_true(files > 100);
    assert_true(read > 50);
}

/* Random legal Shogi games (as make bench makes them), written as JKF by koma. */
static void test_generated_games(void **state)
{
    (void)state;
    koma_error err;
    koma_hub *hub = NULL;
    assert_int_equal(koma_hub_new(NULL, &hub, &err), 0);
    const koma_game *g = game_of("shogi");
    koma_engine *e = NULL;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    assert_non_null(moves);
    koma_position pos;
    koma_position_init(&pos);
    const koma_format *usi = koma_format_find(LIT("usi")), *jkf = koma_format_find(LIT("jkf"));
    size_t read = 0;
    for (int n = 0; n < 200; n++) {
        char text[4096];
        size_t tl = (size_t)snprintf(text, sizeof text, "position startpos moves");
        assert_int_equal(koma_engine_set_start(e, &err), 0);
        long plies = 1 + (long)(next_rand() % 150);
        for (long p = 0; p < plies; p++) {
            size_t k = koma_engine_legal_moves(e, moves);
            if (k == 0) break;
            koma_emove m = moves[next_rand() % k];
            koma_move mv;
            char u[16];
            koma_engine_move_pmn(e, m, &mv);
            assert_int_equal(koma_engine_get_position(e, &pos, &err), 0);
            assert_true(koma_usi_move_write(&pos, &mv, u, sizeof u, &err) > 0);
            tl += (size_t)snprintf(text + tl, sizeof text - tl, " %s", u);
            assert_int_equal(koma_engine_make(e, m, &err), 0);
        }
        koma_format_reader *rs = NULL;
        assert_int_equal(koma_format_reader_new(hub, usi, NULL, &rs, &err), 0);
        assert_int_equal(koma_format_reader_feed(rs, text, tl, &err), 0);
        koma_format_reader_finish(rs);
        koma_pcn *rec = NULL;
        assert_int_equal(koma_format_reader_next(rs, &rec, &err), KOMA_PCN_RECORD);
        koma_format_writer *ws = NULL;
        assert_int_equal(koma_format_writer_new(hub, jkf, n % 4 == 0 ? KOMA_WRITE_PRETTY : 0, &ws, &err), 0);
        koma_buffer out = {0};
        assert_int_equal(koma_format_writer_record(ws, rec, &out, &err), 0);
        read += records(out.data, out.len, n % 10 == 0 ? 20 : 0);
        koma_buffer_cleanup(&out);
        koma_format_writer_free(ws);
        koma_pcn_free(rec);
        koma_format_reader_free(rs);
    }
    assert_int_equal(read, 200);
    koma_position_cleanup(&pos);
    free(moves);
    koma_engine_free(e);
    koma_hub_free(hub);
}

/* Forms chosen by hand: what is read in one pass and what is left to the tree. */
static const char *const cases[] = {
    "{\"header\":{},\"moves\":[{}]}",
    "{\"moves\":[{}]}",
    "{\"moves\":[]}",
    "{\"header\":{\"先手\":\"a\",\"後手\":\"b\",\"開始日時\":\"2024/01/02 03:04:05\",\"持ち時間\":\"10分+30秒\",\"x\":\"y\"},\"moves\":[{}]}",
    "{\"header\":{\"先手\":\"a\",\"先手\":\"b\"},\"moves\":[{}]}",
    "{\"initial\":{\"preset\":\"KY\"},\"moves\":[{},{\"move\":{\"color\":1,\"from\":{\"x\":2,\"y\":2},\"to\":{\"x\":8,\"y\":8},\"piece\":\"KA\",\"promote\":true}}]}",
    "{\"initial\":{\"preset\":\"OTHER\",\"data\":{\"color\":0,\"board\":[],\"hands\":[{},{}]}},\"moves\":[{}]}",
    "{\"initial\":{\"preset\":\"HIRATE\",\"data\":{}},\"moves\":[{}]}",
    "{\"initial\":{\"preset\":\"NOPE\"},\"moves\":[{}]}",
    "{\"moves\":[{}],\"initial\":{\"preset\":\"KY\"}}",
    "{\"type\":\"kifu\",\"moves\":[{}]}",
    "{\"type\":1,\"moves\":[{}]}",
    "{\"moves\":[{\"comments\":[\"a\",\"b\"],\"bookmark\":\"m\"},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"comments\":[\"c\"],\"time\":{\"now\":{\"m\":1,\"s\":2},\"total\":{\"h\":0,\"m\":1,\"s\":2}},\"bookmark\":\"b\"},{\"special\":\"TORYO\",\"time\":{\"now\":{\"m\":0,\"s\":5},\"total\":{\"h\":0,\"m\":0,\"s\":5}},\"comments\":[\"end\"]}]}",
    "{\"moves\":[{},{\"comments\":[\"c\"],\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"forks\":[[{\"move\":{\"color\":0,\"from\":{\"x\":2,\"y\":7},\"to\":{\"x\":2,\"y\":6},\"piece\":\"FU\"}},{\"special\":\"CHUDAN\"}],[{\"move\":{\"color\":0,\"from\":{\"x\":5,\"y\":7},\"to\":{\"x\":5,\"y\":6},\"piece\":\"FU\"},\"forks\":[[{\"move\":{\"color\":0,\"from\":{\"x\":1,\"y\":7},\"to\":{\"x\":1,\"y\":6},\"piece\":\"FU\"}}]]}]],\"bookmark\":\"z\"},{\"move\":{\"color\":1,\"from\":{\"x\":3,\"y\":3},\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}}]}",
    "{\"moves\":[{},{\"forks\":[[{\"move\":{\"color\":0,\"to\":{\"x\":2,\"y\":6},\"piece\":\"FU\"}}]],\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"forks\":[[]]}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"forks\":[]}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\"forks\":[[{\"special\":\"TORYO\"}]]}]}",
    "{\"moves\":[{},{\"special\":\"TORYO\",\"forks\":[]}]}",
    "{\"moves\":[{},{\"special\":\"TORYO\"},{\"special\":\"TORYO\"}]}",
    "{\"moves\":[{},{\"special\":\"+ILLEGAL_ACTION\"}]}",
    "{\"moves\":[{},{\"special\":\"NOPE\"}]}",
    "{\"moves\":[{},{\"ending\":\"封じ手\",\"bookmark\":\"e\"}]}",
    "{\"moves\":[{},{\"ending\":\"\"}]}",
    "{\"moves\":[{},{\"special\":\"TORYO\",\"ending\":\"x\"}]}",
    "{\"moves\":[{},{\"special\":null}]}",
    "{\"moves\":[{},{}]}",
    "{\"moves\":[{\"move\":null}]}",
    "{\"moves\":[{\"time\":{\"now\":{\"m\":0,\"s\":1},\"total\":{\"m\":0,\"s\":1}}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KA\",\"relative\":\"H\"}},{\"move\":{\"color\":1,\"same\":true,\"piece\":\"FU\",\"relative\":\"C\",\"capture\":\"KA\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KA\",\"promote\":true}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"from\":{\"x\":5,\"y\":5},\"to\":{\"x\":5,\"y\":4},\"piece\":\"KA\",\"relative\":\"H\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\",\"relative\":\"RU\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\",\"relative\":\"RR\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\",\"relative\":\"Q\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":2,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":0,\"y\":5},\"piece\":\"KI\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5},\"piece\":\"KI\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5,\"z\":1},\"piece\":\"KI\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"XX\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"piece\":\"KI\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\",\"extra\":1}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"},\"time\":{\"now\":{\"m\":0,\"s\":60},\"total\":{\"m\":0,\"s\":1}}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"},\"time\":{\"now\":{\"h\":1,\"m\":0,\"s\":1}}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"},\"comments\":[\"a\\nb\"]}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"},\"comments\":[1]}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"},\"comments\":[]}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"}}]} x",
    "\xef\xbb\xbf{\"moves\":[{},\n  {\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"}}]}",
    "{\n  \"moves\": [\n    {},\n    {\n      \"move\": {\"color\": 0, \"to\": {\"x\": 5, \"y\": 5}, \"piece\": \"KI\"}\n    },\n\t{\"move\": {\"color\": 1, \"to\": {\"x\": 5, \"y\": 4}, \"piece\": \"FU\"}}\r\n  ]\n}\n",
    "[]", "\"x\"", "", "{", "{\"moves\":[{}],}", "{\"moves\":[{}],\"moves\":[{}]}", "{\"moves\":[{}]}}",
    "{\"moves\":[{}],\"x\":1}", "{\"header\":[],\"moves\":[{}]}", "{\"header\":{\"a\":1},\"moves\":[{}]}",
    "{\"moves\":[{},{\"move\":{\"color\":01,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0.0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"KI\"}}]}",
    "{\"moves\":[{},{\"move\":{\"color\":0,\"to\":{\"x\":5,\"y\":5},\"piece\":\"K\\u0049\"}}]}",
};

static void test_cases(void **state)
{
    (void)state;
    size_t read = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        read += (size_t)compare(cases[i], strlen(cases[i]), 3);
        edits(cases[i], strlen(cases[i]), 100);
    }
    assert_true(read >= 15);
}

static void test_counts(void **state)
{
    (void)state;
    printf("  %lu records: %lu read in one pass, %lu left to the tree\n", compared, quick_read, tree_only);
    /* both kinds met: the comparison is not empty */
    assert_true(quick_read > 500);
    assert_true(tree_only > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_data_files),
        cmocka_unit_test(test_fuzz_corpus),
        cmocka_unit_test(test_generated_games),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
