/*
 * tests/fuzz/pcn_checks.h — what the two PCN harnesses (fuzz_pcn_json,
 * fuzz_pcn_yaml) check alike: a refused record's error (a pcn.* or memory code,
 * its offset inside the input and the line and byte column of that offset, a
 * printable message), a record written and read back, and the input read as a
 * stream of records in small chunks (record lines increase, every error lies
 * inside the input).
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
    check_located(err, text, len);
}

/* p written in fmt: one text ending in a newline, no NUL inside */
static char *write_text(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, size_t *len)
{
    koma_buffer b = { 0 };
    koma_error err;
    CHECK(koma_pcn_write(p, fmt, flags, &b, &err) == 0);
    CHECK(b.data != NULL && strlen(b.data) == b.len && b.len > 0 && b.data[b.len - 1] == '\n');
    *len = b.len;
    return b.data;
}

/* a text koma wrote, read back: it must be accepted */
static koma_pcn *reread(koma_pcn_format fmt, const char *text, size_t len)
{
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn *p = NULL;
    koma_pcn_parse(fmt, text, len, 0, &p, &err);
    if (p == NULL) {
        fprintf(stderr, "reread as %s failed: %s %lu:%lu %s\n%s\n",
                fmt == KOMA_PCN_JSON ? "JSON" : "YAML", koma_code_name(err.code), err.line,
                err.column, err.message, text);
        abort();
    }
    return p;
}

typedef struct chunks {
    const char *s;
    size_t len, pos, most;              /* most: the largest chunk handed over */
} chunks;

static long chunk_read(void *ctx, char *buf, size_t cap)
{
    chunks *c = ctx;
    size_t n = c->len - c->pos;
    if (n > c->most) n = c->most;
    if (n > cap) n = cap;
    memcpy(buf, c->s + c->pos, n);
    c->pos += n;
    return (long)n;
}

/* text[0..len) read as a stream of fmt records, most bytes at a time; with
 * same_line (JSON Lines), an error must be on the line of its record */
static void read_records(koma_pcn_format fmt, const char *text, size_t len, size_t most,
                         int same_line)
{
    chunks c = { text, len, 0, most };
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn_reader *r = NULL;
    koma_pcn_reader_new(fmt, 0, chunk_read, &c, &r, &err);
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
            CHECK(err.offset <= len);
            CHECK(same_line ? err.line == line : err.line >= 1);
        }
    }
    koma_pcn_reader_free(r);
}
