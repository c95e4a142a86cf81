/* tests/unit/test_pcn_stream.c — lib/pcn_stream.c: PCN databases (JSON Lines and
 * YAML streams) read record by record: line numbers and positions in the whole
 * input, invalid records in the middle, resynchronisation after YAML syntax
 * errors, over-long records, pull and push modes over every chunk size, and
 * the sample databases of tests/data/pcn/ (README.md there lists what each
 * invalid record must report). */
#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define SAMPLES "tests/data/pcn/"

/* ---- collecting what a reader yields --------------------------------------------- */

typedef struct item {
    int status;                    /* KOMA_PCN_RECORD or KOMA_PCN_INVALID */
    unsigned long rec_line;        /* koma_pcn_reader_line */
    koma_code code;
    unsigned long line, column;
    size_t offset;
    size_t plies;                  /* RECORD: number of plies */
    char *json;                    /* RECORD: compact JSON */
} item;

typedef struct items {
    item *v;
    size_t n, cap;
} items;

static void items_free(items *it)
{
    for (size_t i = 0; i < it->n; i++) free(it->v[i].json);
    free(it->v);
    memset(it, 0, sizeof *it);
}

static void take(items *it, koma_pcn_reader *r, int status, koma_pcn *p, const koma_error *e)
{
    if (it->n == it->cap) {
        it->cap = it->cap ? it->cap * 2 : 16;
        it->v = realloc(it->v, it->cap * sizeof *it->v);
        assert_non_null(it->v);
    }
    item *x = &it->v[it->n++];
    memset(x, 0, sizeof *x);
    x->status = status;
    x->rec_line = koma_pcn_reader_line(r);
    if (status == KOMA_PCN_RECORD) {
        assert_non_null(p);
        assert_int_equal(e->code, KOMA_OK);
        x->plies = koma_pcn_ply_count(p);
        koma_buffer b = { 0 };
        assert_int_equal(koma_pcn_write_json(p, 0, &b, NULL), 0);
        b.data[b.len - 1] = '\0';
        x->json = b.data;
        koma_pcn_free(p);
    } else {
        assert_null(p);
        x->code = e->code;
        x->line = e->line;
        x->column = e->column;
        x->offset = e->offset;
        assert_string_equal(e->source, "db");
    }
}

static void pull_all(koma_pcn_format fmt, const char *s, size_t len, size_t chunk, items *out)
{
    mem_src m = { s, len, 0, chunk };
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(fmt, 0, mem_read, &m, &r, &e);
    assert_non_null(r);
    e.source = "db";
    for (;;) {
        koma_pcn *p = (koma_pcn *)&m;      /* must be reset to NULL by next */
        int rc = koma_pcn_reader_next(r, &p, &e);
        assert_true(rc == KOMA_PCN_RECORD || rc == KOMA_PCN_INVALID || rc == KOMA_PCN_END);
        if (rc == KOMA_PCN_END) {
            assert_null(p);
            break;
        }
        take(out, r, rc, p, &e);
    }
    /* the end stays the end */
    koma_pcn *p;
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_END);
    koma_pcn_reader_free(r);
}

static void push_all(koma_pcn_format fmt, const char *s, size_t len, size_t chunk, items *out)
{
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(fmt, 0, NULL, NULL, &r, &e);
    assert_non_null(r);
    e.source = "db";
    size_t pos = 0;
    int finished = 0;
    for (;;) {
        koma_pcn *p;
        int rc = koma_pcn_reader_next(r, &p, &e);
        if (rc == KOMA_PCN_AGAIN) {
            assert_false(finished);
            if (pos < len) {
                size_t n = len - pos < chunk ? len - pos : chunk;
                assert_int_equal(koma_pcn_reader_feed(r, s + pos, n, &e), 0);
                pos += n;
            } else {
                koma_pcn_reader_finish(r);
                finished = 1;
            }
            continue;
        }
        if (rc == KOMA_PCN_END) break;
        assert_true(rc == KOMA_PCN_RECORD || rc == KOMA_PCN_INVALID);
        take(out, r, rc, p, &e);
    }
    assert_int_equal(pos, len);
    koma_pcn_reader_free(r);
}

static void same_items(const items *a, const items *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        assert_int_equal(a->v[i].status, b->v[i].status);
        assert_int_equal(a->v[i].rec_line, b->v[i].rec_line);
        assert_int_equal(a->v[i].code, b->v[i].code);
        assert_int_equal(a->v[i].line, b->v[i].line);
        assert_int_equal(a->v[i].column, b->v[i].column);
        assert_int_equal(a->v[i].offset, b->v[i].offset);
        assert_int_equal(a->v[i].plies, b->v[i].plies);
        if (a->v[i].json) assert_string_equal(a->v[i].json, b->v[i].json);
    }
}

/* Read s whole, then again in every chunking and in push mode: always the same. */
static void read_all_ways(koma_pcn_format fmt, const char *s, size_t len, items *out)
{
    pull_all(fmt, s, len, (size_t)-1, out);
    static const size_t chunks[] = { 1, 2, 3, 5, 7, 13, 64, 4096 };
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        items other = { 0 };
        pull_all(fmt, s, len, chunks[i], &other);
        same_items(out, &other);
        items_free(&other);
        push_all(fmt, s, len, chunks[i], &other);
        same_items(out, &other);
        items_free(&other);
    }
}

typedef struct want {
    int status;
    unsigned long rec_line;
    koma_code code;                /* INVALID */
    unsigned long line, column;
    size_t offset;
    size_t plies;                  /* RECORD */
} want;

static void check(const items *got, const want *w, size_t n)
{
    if (got->n != n) {
        for (size_t i = 0; i < got->n; i++)
            print_error("got %d line %lu %s %lu:%lu @%zu\n", got->v[i].status, got->v[i].rec_line,
                        koma_code_name(got->v[i].code), got->v[i].line, got->v[i].column,
                        got->v[i].offset);
    }
    assert_int_equal(got->n, n);
    for (size_t i = 0; i < n; i++) {
        const item *x = &got->v[i];
        if (x->status != w[i].status || x->rec_line != w[i].rec_line ||
            (w[i].status == KOMA_PCN_INVALID &&
             (x->code != w[i].code || x->line != w[i].line || x->column != w[i].column ||
              (w[i].offset != (size_t)-1 && x->offset != w[i].offset))))
            print_error("item %zu: got %d line %lu %s %lu:%lu @%zu\n", i, x->status, x->rec_line,
                        koma_code_name(x->code), x->line, x->column, x->offset);
        assert_int_equal(x->status, w[i].status);
        assert_int_equal(x->rec_line, w[i].rec_line);
        if (w[i].status == KOMA_PCN_INVALID) {
            assert_int_equal(x->code, w[i].code);
            assert_int_equal(x->line, w[i].line);
            assert_int_equal(x->column, w[i].column);
            if (w[i].offset != (size_t)-1) assert_int_equal(x->offset, w[i].offset);
        } else {
            assert_int_equal(x->plies, w[i].plies);
        }
    }
}

#define OK(line, plies) { KOMA_PCN_RECORD, line, KOMA_OK, 0, 0, 0, plies }
#define BAD(line, code, eline, col, off) { KOMA_PCN_INVALID, line, code, eline, col, off, 0 }
#define ANY ((size_t)-1)

/* ---- JSON Lines ------------------------------------------------------------------- */

static void test_json_lines(void **state)
{
    (void)state;
    static const char db[] =
        "{\"setup\":{\"feen\":\"K / C/c\"}}\n"                                   /* 1, @0 */
        "\n"                                                                       /* 2, @29 */
        "   \t\r\n"                                                                /* 3, @30 */
        "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"e2e4\"}]}\r\n"   /* 4, @36 */
        "{bad\n"                                                                   /* 5, @90 */
        "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"...\"},{\"pmn\":\"...\"}]}\n" /* 6 */
        "{\"setup\":{\"feen\":\"K / C/c\"},\"x\":1,\"x\":2}\n"                   /* 7, @163 */
        "\n"
        "{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"...\"}]}";      /* 9, no '\n' */
    static const want w[] = {
        OK(1, 0),
        BAD(4, KOMA_E_PCN_PLY_PMN, 4, 45, 36 + 44),
        BAD(5, KOMA_E_PCN_JSON, 5, 2, 92),
        OK(6, 2),
        BAD(7, KOMA_E_PCN_DUPLICATE, 7, 35, 163 + 34),
        OK(9, 1),
    };
    items got = { 0 };
    read_all_ways(KOMA_PCN_JSON, LIT(db), &got);
    check(&got, w, sizeof w / sizeof w[0]);
    items_free(&got);

    /* empty inputs */
    pull_all(KOMA_PCN_JSON, "", 0, 1, &got);
    assert_int_equal(got.n, 0);
    pull_all(KOMA_PCN_JSON, LIT("\n\n \n"), 1, &got);
    assert_int_equal(got.n, 0);
    /* a UTF-8 BOM at the start is skipped; columns on line 1 count after it */
    static const char bom[] = "\xef\xbb\xbf{\"setup\":{\"feen\":\"bad\"}}\n{\"setup\":{\"feen\":\"K / C/c\"}}";
    static const want wb[] = { BAD(1, KOMA_E_PCN_SETUP_FEEN, 1, 18, 3 + 17), OK(2, 0) };
    read_all_ways(KOMA_PCN_JSON, LIT(bom), &got);
    check(&got, wb, 2);
    items_free(&got);
    /* a pretty-printed record is not JSON Lines: each of its lines is an error */
    static const char pretty[] = "{\n  \"setup\": {\"feen\": \"K / C/c\"}\n}\n";
    static const want wp[] = {
        BAD(1, KOMA_E_PCN_JSON, 1, 2, 1),
        BAD(2, KOMA_E_PCN_JSON, 2, 10, 11),
        BAD(3, KOMA_E_PCN_JSON, 3, 1, 33),
    };
    read_all_ways(KOMA_PCN_JSON, LIT(pretty), &got);
    check(&got, wp, 3);
    items_free(&got);
}

/* The raw text of the record just read. */
static void test_record_text(void **state)
{
    (void)state;
    static const char db[] = "\n{\"setup\":{\"feen\":\"K / C/c\"}}\r\n[]\n";
    mem_src m = { db, sizeof db - 1, 0, 3 };
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_JSON, 0, mem_read, &m, &r, &e);
    assert_null(koma_pcn_reader_text(r, NULL));
    unsigned long line, col;
    assert_int_equal(koma_pcn_reader_locate(r, "", &line, &col), -1);   /* no record yet */
    assert_int_equal(line, 0);
    assert_int_equal(col, 0);
    assert_int_equal(koma_pcn_reader_line(r), 0);
    koma_pcn *p;
    size_t len;
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    const char *t = koma_pcn_reader_text(r, &len);
    assert_int_equal(len, 29);
    assert_memory_equal(t, "{\"setup\":{\"feen\":\"K / C/c\"}}\r", 29);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_INVALID);
    t = koma_pcn_reader_text(r, &len);
    assert_int_equal(len, 2);
    assert_memory_equal(t, "[]", 2);
    assert_int_equal(koma_pcn_reader_line(r), 3);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_END);
    assert_int_equal(koma_pcn_reader_locate(r, "", &line, &col), 0);     /* the last record */
    assert_int_equal(line, 3);
    assert_int_equal(col, 1);
    koma_pcn_reader_free(r);
    koma_pcn_reader_free(NULL);

    /* positions of values of the record last read, in the whole input */
    static const char jl[] = "\n{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"...\"}]}\n";
    mem_src mj = { jl, sizeof jl - 1, 0, 5 };
    koma_pcn_reader_new(KOMA_PCN_JSON, 0, mem_read, &mj, &r, &e);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_locate(r, "/plies/0/pmn", &line, &col), 0);
    assert_int_equal(line, 2);
    assert_int_equal(col, 45);
    assert_int_equal(koma_pcn_reader_locate(r, "/plies/1", &line, &col), -1);
    assert_int_equal(line, 2);
    assert_int_equal(col, 37);
    koma_pcn_reader_free(r);
    static const char yl[] = "# c\n---\nsetup: {feen: K / C/c}\nplies:\n- pmn: '...'\n";
    mem_src my = { yl, sizeof yl - 1, 0, 5 };
    koma_pcn_reader_new(KOMA_PCN_YAML, 0, mem_read, &my, &r, &e);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_line(r), 2);
    assert_int_equal(koma_pcn_reader_locate(r, "/plies/0/pmn", &line, &col), 0);
    assert_int_equal(line, 5);
    assert_int_equal(col, 8);
    assert_int_equal(koma_pcn_reader_locate(r, "/setup/feen", &line, &col), 0);
    assert_int_equal(line, 3);
    assert_int_equal(col, 15);
    koma_pcn_reader_free(r);
    /* keys with '/' and '~' (RFC 6901: "~1" and "~0"), and tokens that match nothing */
    static const char yk[] = "setup: {feen: K / C/c}\nmeta:\n  a~b: 1\n  c/d: 2\n  c~1d: 3\n";
    mem_src mk = { yk, sizeof yk - 1, 0, 5 };
    koma_pcn_reader_new(KOMA_PCN_YAML, 0, mem_read, &mk, &r, &e);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_locate(r, "/meta/a~0b", &line, &col), 0);
    assert_int_equal(line, 3);
    assert_int_equal(col, 8);
    assert_int_equal(koma_pcn_reader_locate(r, "/meta/c~1d", &line, &col), 0);
    assert_int_equal(line, 4);
    assert_int_equal(col, 8);
    assert_int_equal(koma_pcn_reader_locate(r, "/meta/c~01d", &line, &col), 0);
    assert_int_equal(line, 5);
    assert_int_equal(col, 9);
    /* "~2" escapes nothing, "a~b" is no token of "a~b": the deepest value found, meta */
    assert_int_equal(koma_pcn_reader_locate(r, "/meta/c~2d", &line, &col), 0);
    assert_int_equal(line, 3);
    assert_int_equal(col, 3);
    assert_int_equal(koma_pcn_reader_locate(r, "/meta/a~b", &line, &col), 0);
    assert_int_equal(line, 3);
    assert_int_equal(col, 3);
    koma_pcn_reader_free(r);
}

static long failing_read(void *ctx, char *buf, size_t cap)
{
    int *calls = ctx;
    if ((*calls)++ == 0) {
        static const char first[] = "{\"setup\":{\"feen\":\"K / C/c\"}}\n{\"se";
        memcpy(buf, first, sizeof first - 1);
        (void)cap;
        return (long)(sizeof first - 1);
    }
    errno = EIO;
    return -1;
}

static void test_read_error(void **state)
{
    (void)state;
    int calls = 0;
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_JSON, 0, failing_read, &calls, &r, &e);
    koma_pcn *p;
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_FATAL);
    assert_int_equal(e.code, KOMA_E_IO_READ);
    assert_null(p);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_FATAL);
    assert_int_equal(e.code, KOMA_E_IO_READ);
    koma_pcn_reader_free(r);
}

/* koma_pcn_read_stdio: records from a stdio stream; a stream that cannot be
 * read (opened for writing only) is a read error, not an empty input. */
static void test_stdio(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    fputs("{\"setup\":{\"feen\":\"K / C/c\"}}\n{\"setup\":{\"feen\":\"k / C/c\"}}\n", f);
    rewind(f);
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_JSON, 0, koma_pcn_read_stdio, f, &r, &e);
    koma_pcn *p;
    size_t len;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
        assert_string_equal(koma_pcn_setup_feen(p, &len), i ? "k / C/c" : "K / C/c");
        koma_pcn_free(p);
    }
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_END);
    koma_pcn_reader_free(r);
    fclose(f);

    char path[] = "/tmp/koma-stdio-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    f = fopen(path, "w");
    assert_non_null(f);
    koma_pcn_reader_new(KOMA_PCN_JSON, 0, koma_pcn_read_stdio, f, &r, &e);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_FATAL);
    assert_int_equal(e.code, KOMA_E_IO_READ);
    koma_pcn_reader_free(r);
    fclose(f);
    unlink(path);
}

/* ---- YAML streams ------------------------------------------------------------------- */

static void test_yaml_stream(void **state)
{
    (void)state;
    static const char db[] =
        "# a database\n"                          /* 1  (prefix of the first document) */
        "%YAML 1.2\n"                             /* 2 */
        "---\n"                                   /* 3  record */
        "setup: {feen: K / C/c}\n"                /* 4 */
        "---\n"                                   /* 5  empty: skipped */
        "# nothing\n"                             /* 6 */
        "--- \n"                                  /* 7  record, invalid PMN */
        "setup:\n"                                /* 8 */
        "  feen: K / C/c\n"                       /* 9 */
        "plies:\n"                                /* 10 */
        "- pmn: e2e4\n"                           /* 11 */
        "---\n"                                   /* 12 syntax error */
        "setup: [1,\n"                            /* 13 */
        "--- {setup: {feen: K / C/c}}\n"          /* 14 record on the marker line */
        "...\n"                                   /* 15 */
        "# between\n"                             /* 16 */
        "setup: {feen: K / C/c}\n"                /* 17 bare document */
        "plies: [{pmn: '...'}]\n"                 /* 18 */
        "...\n"                                   /* 19 */
        "...\n"                                   /* 20 stray end marker */
        "---\n"                                   /* 21 unterminated quote */
        "broken: \"\n"                            /* 22 */
        "--- |\n"                                 /* 23 a string record */
        "  text\n"                                /* 24 */
        "----\n"                                  /* 25 not a marker: content */
        "---\r\n"                                 /* 26 CRLF */
        "setup: {feen: K / C/c}\r\n"              /* 27 */
        "---\n"                                   /* 28 */
        "setup: {feen: K / C/c}";                 /* 29 no final newline */
    static const want w[] = {
        OK(3, 0),
        BAD(7, KOMA_E_PCN_PLY_PMN, 11, 8, ANY),
        BAD(12, KOMA_E_PCN_YAML, 14, 1, ANY),
        OK(14, 0),
        OK(17, 1),
        BAD(21, KOMA_E_PCN_YAML, 23, 1, ANY),
        BAD(23, KOMA_E_PCN_YAML, 25, 1, ANY),
        OK(26, 0),
        OK(28, 0),
    };
    items got = { 0 };
    read_all_ways(KOMA_PCN_YAML, LIT(db), &got);
    check(&got, w, sizeof w / sizeof w[0]);
    /* offsets are those of the whole input */
    assert_int_equal(got.v[1].offset, (size_t)(strstr(db, "e2e4") - db));
    items_free(&got);

    /* no marker at all: one bare document; a marker-only stream: nothing */
    static const char bare[] = "\n# c\nsetup:\n  feen: bad\n";
    static const want wbare[] = { BAD(3, KOMA_E_PCN_SETUP_FEEN, 4, 9, 20) };
    read_all_ways(KOMA_PCN_YAML, LIT(bare), &got);
    check(&got, wbare, 1);
    items_free(&got);
    pull_all(KOMA_PCN_YAML, LIT("---\n---\n# x\n...\n"), 2, &got);
    assert_int_equal(got.n, 0);
    pull_all(KOMA_PCN_YAML, "", 0, 2, &got);
    assert_int_equal(got.n, 0);
    /* a BOM before the first marker */
    static const char bom[] = "\xef\xbb\xbf---\nsetup: {feen: K / C/c}\n---\n[]\n";
    static const want wb[] = { OK(1, 0), BAD(3, KOMA_E_PCN_TYPE, 4, 1, 34) };
    read_all_ways(KOMA_PCN_YAML, LIT(bom), &got);
    check(&got, wb, 2);
    items_free(&got);
}

/* ---- over-long records ---------------------------------------------------------------- */

/* A generated input: head, then `fill` bytes of filler, then tail; never all in memory. */
typedef struct gen_src {
    const char *head, *tail;
    char filler;
    size_t fill, pos, chunk;
} gen_src;

static long gen_read(void *ctx, char *buf, size_t cap)
{
    gen_src *g = ctx;
    size_t hl = strlen(g->head), tl = strlen(g->tail), total = hl + g->fill + tl;
    size_t n = 0;
    if (cap > g->chunk) cap = g->chunk;
    while (n < cap && g->pos < total) {
        size_t p = g->pos;
        if (p < hl) buf[n] = g->head[p];
        else if (p < hl + g->fill) buf[n] = g->filler;
        else buf[n] = g->tail[p - hl - g->fill];
        n++;
        g->pos++;
    }
    return (long)n;
}

static void test_oversize_json_line(void **state)
{
    (void)state;
    gen_src g = { "{\"setup\":{\"feen\":\"K / C/c\"}}\n{\"setup\":{\"feen\":\"K / C/c\"},\"x\":\"",
                  "\"}\n{\"setup\":{\"feen\":\"K / C/c\"},\"plies\":[{\"pmn\":\"bad\"}]}\n",
                  'x', KOMA_LIMIT_RECORD + 100, 0, 1 << 20 };
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_JSON, 0, gen_read, &g, &r, &e);
    koma_pcn *p;
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_INVALID);
    assert_int_equal(e.code, KOMA_E_PCN_SIZE);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, KOMA_LIMIT_RECORD + 1);
    assert_int_equal(e.offset, 29 + KOMA_LIMIT_RECORD);
    assert_int_equal(koma_pcn_reader_line(r), 2);
    assert_null(koma_pcn_reader_text(r, NULL));
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_INVALID);
    assert_int_equal(e.code, KOMA_E_PCN_PLY_PMN);
    assert_int_equal(e.line, 3);
    assert_int_equal(e.column, 45);
    assert_int_equal(e.offset, 29 + 33 + KOMA_LIMIT_RECORD + 100 + 3 + 44);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_END);
    koma_pcn_reader_free(r);

    /* push mode, fed in big chunks: the same */
    koma_pcn_reader_new(KOMA_PCN_JSON, 0, NULL, NULL, &r, &e);
    gen_src g2 = g;
    g2.pos = 0;
    char *chunk = malloc(3 << 20);
    assert_non_null(chunk);
    int seen = 0;
    for (;;) {
        int rc = koma_pcn_reader_next(r, &p, &e);
        if (rc == KOMA_PCN_AGAIN) {
            long n = gen_read(&g2, chunk, 3 << 20);
            if (n == 0) koma_pcn_reader_finish(r);
            else assert_int_equal(koma_pcn_reader_feed(r, chunk, (size_t)n, &e), 0);
            continue;
        }
        if (rc == KOMA_PCN_END) break;
        if (rc == KOMA_PCN_RECORD) koma_pcn_free(p);
        seen++;
        if (seen == 2) {
            assert_int_equal(e.code, KOMA_E_PCN_SIZE);
            assert_int_equal(e.line, 2);
            assert_int_equal(e.column, KOMA_LIMIT_RECORD + 1);
        }
        if (seen == 3) {
            assert_int_equal(e.code, KOMA_E_PCN_PLY_PMN);
            assert_int_equal(e.line, 3);
        }
    }
    assert_int_equal(seen, 3);
    free(chunk);
    koma_pcn_reader_free(r);
}

static void test_oversize_yaml_document(void **state)
{
    (void)state;
    /* a document of 1 + 2 lines then 16 MiB + 100 bytes of "x\n"-lines in a block scalar */
    gen_src g = { "---\nsetup: {feen: K / C/c}\n---\nsetup: {feen: K / C/c}\nx: |\n",
                  "\n---\nsetup: {feen: bad}\n",
                  '\n', KOMA_LIMIT_RECORD + 100, 0, 1 << 20 };
    koma_error e;
    memset(&e, 0, sizeof e);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_YAML, 0, gen_read, &g, &r, &e);
    koma_pcn *p;
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_INVALID);
    assert_int_equal(e.code, KOMA_E_PCN_SIZE);
    assert_int_equal(koma_pcn_reader_line(r), 3);
    /* the document starts at offset 27 (line 3); byte 27 + 16 MiB is on line
     * 3 + 2 + (16 MiB - 27) newlines of filler, column 1 */
    assert_int_equal(e.offset, 27 + KOMA_LIMIT_RECORD);
    assert_int_equal(e.line, 5 + (KOMA_LIMIT_RECORD - 27 - 5) + 1);
    assert_int_equal(e.column, 1);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_INVALID);
    assert_int_equal(e.code, KOMA_E_PCN_SETUP_FEEN);
    /* filler lines 6 .. 5 + N, the tail's "\n" ends line 6 + N, "---" is line 7 + N */
    assert_int_equal(koma_pcn_reader_line(r), 7 + KOMA_LIMIT_RECORD + 100);
    assert_int_equal(e.line, 8 + KOMA_LIMIT_RECORD + 100);
    assert_int_equal(e.column, 15);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_END);
    koma_pcn_reader_free(r);

    /* one over-long line inside a document */
    gen_src g2 = { "---\nx: ", "\n---\nsetup: {feen: K / C/c}\n", 'y', KOMA_LIMIT_RECORD, 0, 1 << 20 };
    koma_pcn_reader_new(KOMA_PCN_YAML, 0, gen_read, &g2, &r, &e);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_INVALID);
    assert_int_equal(e.code, KOMA_E_PCN_SIZE);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, KOMA_LIMIT_RECORD + 1 - 4);
    assert_int_equal(koma_pcn_reader_line(r), 1);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_RECORD);
    assert_int_equal(koma_pcn_reader_line(r), 3);
    koma_pcn_free(p);
    assert_int_equal(koma_pcn_reader_next(r, &p, &e), KOMA_PCN_END);
    koma_pcn_reader_free(r);
}

/* ---- the sample databases --------------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) print_error("cannot open %s (run from the repository root)\n", path);
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void test_sample_games(void **state)
{
    (void)state;
    size_t jl, yl;
    char *json = read_file(SAMPLES "games.jsonl", &jl);
    char *yaml = read_file(SAMPLES "games.yaml", &yl);
    items a = { 0 }, b = { 0 };
    pull_all(KOMA_PCN_JSON, json, jl, 65536, &a);
    pull_all(KOMA_PCN_YAML, yaml, yl, 65536, &b);
    assert_int_equal(a.n, 120);
    assert_int_equal(b.n, 120);
    const char *line = json;
    for (size_t i = 0; i < 120; i++) {
        assert_int_equal(a.v[i].status, KOMA_PCN_RECORD);
        assert_int_equal(b.v[i].status, KOMA_PCN_RECORD);
        assert_int_equal(a.v[i].rec_line, i + 1);
        /* the same record in both files; the JSON output is the JSON Lines line */
        assert_string_equal(a.v[i].json, b.v[i].json);
        size_t n = strlen(a.v[i].json);
        assert_memory_equal(a.v[i].json, line, n);
        assert_int_equal(line[n], '\n');
        line += n + 1;
        assert_true(a.v[i].plies >= 10 && a.v[i].plies <= 143);
    }
    assert_int_equal(b.v[0].rec_line, 1);
    items_free(&a);
    items_free(&b);
    free(json);
    free(yaml);
}

static void test_sample_mixed(void **state)
{
    (void)state;
    static const want wj[] = {
        OK(1, 0), OK(2, 7),
        BAD(3, KOMA_E_PCN_REQUIRED, 3, 1, ANY),
        BAD(4, KOMA_E_PCN_TYPE, 4, 10, ANY),
        BAD(5, KOMA_E_PCN_SETUP_FEEN, 5, 18, ANY),
        OK(6, 101),
        BAD(7, KOMA_E_PCN_PLY_PMN, 7, 45, ANY),
        BAD(8, KOMA_E_PCN_FIELD, 8, 64, ANY),
        BAD(9, KOMA_E_PCN_OUTCOME_RESULT, 9, 49, ANY),
        BAD(10, KOMA_E_PCN_REQUIRED, 10, 40, ANY),
        BAD(12, KOMA_E_PCN_TYPE, 12, 37, ANY),
        BAD(13, KOMA_E_PCN_TYPE, 13, 53, ANY),
        OK(14, 50),
        BAD(15, KOMA_E_PCN_OUTCOME_STATUS, 15, 64, ANY),
        BAD(16, KOMA_E_PCN_DUPLICATE, 16, 21, ANY),
        BAD(17, KOMA_E_PCN_JSON, 17, 54, ANY),
        BAD(19, KOMA_E_PCN_TYPE, 19, 1, ANY),
        BAD(20, KOMA_E_PCN_DEPTH, 20, 96, ANY),
        BAD(21, KOMA_E_PCN_TYPE, 21, 18, ANY),
        BAD(22, KOMA_E_PCN_DATETIME, 22, 23, ANY),
        BAD(23, KOMA_E_PCN_FIELD, 23, 61, ANY),
        BAD(24, KOMA_E_PCN_TYPE, 24, 59, ANY),
        OK(25, 1), OK(26, 1),
        BAD(27, KOMA_E_PCN_NUMBER, 27, 64, ANY),
        BAD(28, KOMA_E_PCN_PLY_PMN, 28, 45, ANY),
        BAD(29, KOMA_E_PCN_TYPE, 29, 10, ANY),
        BAD(30, KOMA_E_PCN_REQUIRED, 30, 10, ANY),
        OK(31, 100), OK(32, 2),
        BAD(33, KOMA_E_PCN_TYPE, 33, 67, ANY),
        OK(34, 0),
        BAD(35, KOMA_E_PCN_DUPLICATE, 35, 28, ANY),
        OK(36, 1), OK(37, 142),
    };
    static const want wy[] = {
        OK(4, 0),
        BAD(9, KOMA_E_PCN_YAML, 11, 6, ANY),
        BAD(12, KOMA_E_PCN_DUPLICATE, 15, 3, ANY),
        BAD(18, KOMA_E_PCN_YAML_TAG, 20, 9, ANY),
        BAD(21, KOMA_E_PCN_YAML_ALIAS, 23, 10, ANY),
        OK(26, 2),
        BAD(43, KOMA_E_PCN_TYPE, 45, 10, ANY),
        BAD(48, KOMA_E_PCN_NUMBER, 53, 15, ANY),
        OK(54, 1),
        BAD(65, KOMA_E_PCN_TYPE, 70, 10, ANY),
        BAD(71, KOMA_E_PCN_DEPTH, 73, 67, ANY),
        BAD(76, KOMA_E_PCN_SIZE, 83, 28, ANY),
        BAD(87, KOMA_E_PCN_YAML_KEY, 89, 3, ANY),
        BAD(91, KOMA_E_PCN_SETUP_FEEN, 93, 9, ANY),
        BAD(94, KOMA_E_PCN_TYPE, 95, 1, ANY),
        OK(98, 2),
        BAD(110, KOMA_E_PCN_OUTCOME_STATUS, 114, 11, ANY),
        BAD(115, KOMA_E_PCN_PLY_PMN, 118, 15, ANY),
        OK(120, 0),
    };
    size_t len;
    char *text = read_file(SAMPLES "mixed.jsonl", &len);
    items got = { 0 };
    read_all_ways(KOMA_PCN_JSON, text, len, &got);
    check(&got, wj, sizeof wj / sizeof wj[0]);
    items_free(&got);
    free(text);
    text = read_file(SAMPLES "mixed.yaml", &len);
    pull_all(KOMA_PCN_YAML, text, len, 4096, &got);
    check(&got, wy, sizeof wy / sizeof wy[0]);
    /* the anchors record: aliases expanded, "1-0" a string */
    assert_string_equal(got.v[5].json,
        "{\"meta\":{\"name\":\"Anchors and aliases\"},"
        "\"periods\":[{\"duration_ms\":300000,\"increment_ms\":2000},{\"duration_ms\":300000,\"increment_ms\":2000}],"
        "\"sides\":{\"first\":{\"name\":\"Kato\",\"variant\":\"Shogi\",\"elo\":1800},"
        "\"second\":{\"name\":\"Kato\",\"variant\":\"Shogi\",\"elo\":1800}},"
        "\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
        "\"plies\":[{\"pmn\":\"g3-g4\"},{\"pmn\":\"c7-c6\"}],"
        "\"outcome\":{\"result\":\"1-0\",\"status\":\"resignation\"}}");
    items_free(&got);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_record_text),
        cmocka_unit_test(test_read_error),
        cmocka_unit_test(test_stdio),
        cmocka_unit_test(test_yaml_stream),
        cmocka_unit_test(test_oversize_json_line),
        cmocka_unit_test(test_oversize_yaml_document),
        cmocka_unit_test(test_sample_games),
        cmocka_unit_test(test_sample_mixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
