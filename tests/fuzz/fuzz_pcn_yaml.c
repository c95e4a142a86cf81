/*
 * tests/fuzz/fuzz_pcn_yaml.c — libFuzzer harness for PCN records in YAML.
 *
 * A rejected input must carry a pcn.* (or memory) code, an offset inside the
 * input, the line and byte column of that offset, and a printable message.
 * An accepted record is written as YAML and as JSON; each text must read back
 * to an equal record, and JSON -> YAML -> JSON must give the same bytes. The
 * input is also read as a YAML stream in small chunks: record lines increase
 * and every error lies inside the input.
 */

#include <koma/koma.h>
#include "fuzz.h"

static int pcn_code(koma_code c)
{
    return c == KOMA_E_MEMORY || (c >= KOMA_E_PCN_JSON && c <= KOMA_E_PCN_OUTCOME_STATUS);
}

static void check_error(const koma_error *err, const char *text, size_t len)
{
    CHECK(pcn_code(err->code));
    CHECK(err->offset <= len);
    unsigned long line = 1, col = 1;
    for (size_t i = 0; i < err->offset; i++) {
        if (text[i] == '\n') { line++; col = 1; }
        else col++;
    }
    CHECK(err->line == line && err->column == col);
    check_message(err);
}

static char *write_text(const koma_pcn *p, koma_pcn_format fmt, size_t *len)
{
    koma_buffer b = { 0 };
    koma_error err;
    CHECK(koma_pcn_write(p, fmt, 0, &b, &err) == 0);
    CHECK(b.data != NULL && strlen(b.data) == b.len && b.len > 0 && b.data[b.len - 1] == '\n');
    *len = b.len;
    return b.data;
}

static koma_pcn *reread(koma_pcn_format fmt, const char *text, size_t len)
{
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn *p = NULL;
    koma_pcn_parse(fmt, text, len, 0, &p, &err);
    if (p == NULL) {
        fprintf(stderr, "fuzz_pcn_yaml: reread failed: %s %lu:%lu %s\n%s\n",
                koma_code_name(err.code), err.line, err.column, err.message, text);
        abort();
    }
    return p;
}

typedef struct chunks {
    const char *s;
    size_t len, pos;
} chunks;

static long chunk_read(void *ctx, char *buf, size_t cap)
{
    chunks *c = ctx;
    size_t n = c->len - c->pos;
    if (n > 5) n = 5;
    if (n > cap) n = cap;
    memcpy(buf, c->s + c->pos, n);
    c->pos += n;
    return (long)n;
}

static void read_stream(const char *text, size_t len)
{
    chunks c = { text, len, 0 };
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(KOMA_PCN_YAML, 0, chunk_read, &c, &r, &err);
    CHECK(r != NULL);
    unsigned long last = 0;
    for (;;) {
        koma_pcn *p;
        int rc = koma_pcn_reader_next(r, &p, &err);
        if (rc == KOMA_PCN_END) break;
        CHECK(rc == KOMA_PCN_RECORD || rc == KOMA_PCN_INVALID);
        unsigned long line = koma_pcn_reader_line(r);
        CHECK(line > last);
        last = line;
        if (rc == KOMA_PCN_RECORD) {
            CHECK(p != NULL);
            koma_pcn_free(p);
        } else {
            CHECK(p == NULL && pcn_code(err.code));
            CHECK(err.line >= 1 && err.offset <= len);
        }
    }
    koma_pcn_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    read_stream(text, size);
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn *p = NULL;
    koma_pcn_parse_yaml(text, size, &p, &err);
    if (p == NULL) {
        check_error(&err, text, size);
        return 0;
    }
    CHECK(err.code == KOMA_OK);
    CHECK(koma_pcn_validate(p, 0, &err) == 0);

    size_t ylen, jlen, j2len, j3len;
    char *yaml = write_text(p, KOMA_PCN_YAML, &ylen);
    char *json = write_text(p, KOMA_PCN_JSON, &jlen);
    /* aliases may expand a small input: re-read only what fits the record limit */
    if (ylen <= KOMA_LIMIT_RECORD && jlen <= KOMA_LIMIT_RECORD) {
        koma_pcn *a = reread(KOMA_PCN_YAML, yaml, ylen);
        koma_pcn *b = reread(KOMA_PCN_JSON, json, jlen);
        CHECK(koma_pcn_equal(p, a) && koma_pcn_equal(p, b));
        char *j2 = write_text(a, KOMA_PCN_JSON, &j2len);
        CHECK(j2len == jlen && memcmp(j2, json, jlen) == 0);
        char *y2 = write_text(b, KOMA_PCN_YAML, &j3len);
        CHECK(j3len == ylen && memcmp(y2, yaml, ylen) == 0);
        free(j2);
        free(y2);
        koma_pcn_free(a);
        koma_pcn_free(b);
    }
    free(yaml);
    free(json);
    koma_pcn_free(p);
    return 0;
}
