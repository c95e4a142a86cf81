/*
 * tests/fuzz/fuzz_jkf.c — libFuzzer harness for the JKF reader and writer
 * (stream_harness.h), and JKF's two readers (lib/fmt_jkf.h): on each record of
 * the input, as the format splits it, the one-pass reader reads it as the tree
 * reader does (the PCN record the hub makes of both, or its error, code and
 * place, the same) or leaves it to the tree reader with the record reset.
 */
#define FUZZ_FORMAT "jkf"
#define FUZZ_EXTRA(data, size) jkf_records((const char *)(data), (size))
#include "fmt_jkf.h"
#include "format_internal.h"

static void jkf_records(const char *s, size_t len);

#include "stream_harness.h"

/* The PCN text the hub makes of r, or its error as "code line:column". */
static char *hub_text(koma_hub *h, const koma_shogi_record *r)
{
    koma_error err;
    koma_pcn *p = NULL;
    koma_buffer out = {0};
    char *t;
    if (koma_shogi_record_to_pcn(h, r, &p, &err) == 0) {
        CHECK(koma_pcn_write(p, KOMA_PCN_JSON, 0, &out, &err) == 0);
        t = out.data;
    } else {
        t = malloc(128);
        CHECK(t != NULL);
        snprintf(t, 128, "%s %lu:%lu", koma_code_name(err.code), err.line, err.column);
    }
    koma_pcn_free(p);
    return t;
}

static void one_record(koma_hub *h, const char *s, size_t len, unsigned long line)
{
    koma_shogi_record q, t;
    koma_shogi_record_init(&q);
    koma_shogi_record_init(&t);
    q.line = t.line = line;
    koma_error eq, et;
    int rq = koma__jkf_read_quick(s, len, line, &q, &eq);
    int rt = koma__jkf_read_tree(s, len, line, &t, &et);
    CHECK(rq == 0 || rq == 1);
    if (rq == 1) {
        CHECK(rt == 0);
        char *a = hub_text(h, &q), *b = hub_text(h, &t);
        CHECK(strcmp(a, b) == 0);
        free(a);
        free(b);
    } else {
        CHECK(q.main.len == 0 && q.nheaders == 0 && q.line == line && q.setup_comment == NULL);
    }
    koma_shogi_record_cleanup(&q);
    koma_shogi_record_cleanup(&t);
}

static void jkf_records(const char *s, size_t len)
{
    static koma_hub *hub;
    if (hub == NULL) koma_hub_new(NULL, &hub, NULL);
    CHECK(hub != NULL);
    size_t off = 0;
    unsigned long line = 1;
    while (off < len) {
        size_t rec_len = 0, used = 0;
        if (koma__fmt_jkf.split(s + off, len - off, 1, 0, &rec_len, &used) != KOMA__SPLIT_RECORD || used == 0) break;
        one_record(hub, s + off, rec_len, line);
        for (size_t i = 0; i < used; i++)
            if (s[off + i] == '\n') line++;
        off += used;
    }
}
