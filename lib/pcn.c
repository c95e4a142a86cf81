/*
 * lib/pcn.c — the format-neutral entry points of PCN records: parse one record
 * from JSON or YAML, write one to a buffer or a FILE. The tree is pcn_tree.c,
 * its validation pcn_validate.c, the two formats pcn_json.c and pcn_yaml.c, and
 * databases pcn_stream.c (see the top of pcn_tree.c for the layer order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pcn_internal.h"

static koma_pcn *parse_pcn(koma_pcn_format fmt, const char *s, size_t len, unsigned flags,
                         koma_error *err)
{
    if (s == NULL && len > 0) {
        koma_error_set(err, KOMA_E_INTERNAL, 0, "NULL input");
        return NULL;
    }
    if (s == NULL) s = "";
    if (fmt == KOMA_PCN_YAML) return koma__pcn_parse_yaml(s, len, flags, NULL, err);
    if (!(flags & (KOMA_PCN_CHECK_ONLY | KOMA_PCN_LIGHT)))
        return koma__pcn_parse_json(s, len, flags, NULL, err);
    koma_position scratch;             /* the quick check parses setup.feen into it */
    koma_position_init(&scratch);
    koma_pcn *p = koma__pcn_parse_json(s, len, flags, &scratch, err);
    koma_position_cleanup(&scratch);
    return p;
}

int koma_pcn_parse(koma_pcn_format fmt, const char *s, size_t len, unsigned flags,
                   koma_pcn **out, koma_error *err)
{
    return KOMA__MADE(out, parse_pcn(fmt, s, len, flags, err));
}

int koma_pcn_parse_json(const char *s, size_t len, koma_pcn **out, koma_error *err)
{
    return koma_pcn_parse(KOMA_PCN_JSON, s, len, 0, out, err);
}

int koma_pcn_parse_yaml(const char *s, size_t len, koma_pcn **out, koma_error *err)
{
    return koma_pcn_parse(KOMA_PCN_YAML, s, len, 0, out, err);
}

/* ---- writers ------------------------------------------------------------------ */

static int buffer_sink(void *ctx, const char *data, size_t len)
{
    koma_buffer *b = ctx;
    if (len >= b->cap - b->len || b->data == NULL) {
        size_t need = b->len + len + 1;
        if (need < b->len) return -1;
        size_t cap = b->cap ? b->cap : 256;
        while (cap < need) {
            if (cap > ((size_t)-1) / 2) return -1;
            cap *= 2;
        }
        char *nd = realloc(b->data, cap);
        if (nd == NULL) return -1;
        b->data = nd;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

static int file_sink(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

static int emit(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, koma__pcn_sink sink,
                void *ctx, koma_error *err)
{
    if (p == NULL) return koma_error_set(err, KOMA_E_INTERNAL, 0, "NULL record");
    if (fmt == KOMA_PCN_YAML) return koma__pcn_emit_yaml(p, flags, sink, ctx, err);
    return koma__pcn_emit_json(p, flags, sink, ctx, err);
}

int koma_pcn_write(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, koma_buffer *out,
                   koma_error *err)
{
    size_t len0 = out->len;
    if (emit(p, fmt, flags, buffer_sink, out, err) == 0) return 0;
    if (out->data != NULL) {
        out->len = len0;
        out->data[len0] = '\0';
    }
    if (err && err->code == KOMA_E_IO_WRITE) koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    return -1;
}

int koma_pcn_write_json(const koma_pcn *p, unsigned flags, koma_buffer *out, koma_error *err)
{
    return koma_pcn_write(p, KOMA_PCN_JSON, flags, out, err);
}

int koma_pcn_write_yaml(const koma_pcn *p, unsigned flags, koma_buffer *out, koma_error *err)
{
    return koma_pcn_write(p, KOMA_PCN_YAML, flags, out, err);
}

int koma_pcn_fwrite(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, FILE *f,
                    koma_error *err)
{
    return emit(p, fmt, flags, file_sink, f, err);
}
