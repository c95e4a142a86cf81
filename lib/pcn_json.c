/*
 * lib/pcn_json.c — PCN records as JSON (jansson).
 *
 * Reading: size limit, then the depth pre-scan (jsonpos.h) before jansson sees
 * the text, then jansson with duplicate keys rejected, then the validator; a
 * validation error is placed on the offending value by scanning the raw text
 * for its JSON pointer (only when there is an error).
 */
#include <string.h>

#include "internal.h"
#include "jsonpos.h"
#include "pcn_internal.h"

koma_pcn *koma__pcn_parse_json(const char *s, size_t len, unsigned flags,
                               koma_position *scratch, koma_error *err)
{
    if (len > KOMA_PCN_MAX_RECORD) {
        koma__json_error_at(err, KOMA_E_PCN_SIZE, s, len, KOMA_PCN_MAX_RECORD,
                            "record of %zu bytes exceeds 16 MiB", len);
        return NULL;
    }
    size_t where;
    if (koma__json_depth(s, len, KOMA_PCN_MAX_DEPTH, &where)) {
        koma__json_error_at(err, KOMA_E_PCN_DEPTH, s, len, where,
                            "nesting deeper than %u levels", KOMA_PCN_MAX_DEPTH);
        return NULL;
    }
    json_error_t jerr;
    json_t *root = json_loadb(s, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (root == NULL) {
        koma_code code = KOMA_E_PCN_JSON;
        switch (json_error_code(&jerr)) {
        case json_error_duplicate_key: code = KOMA_E_PCN_DUPLICATE; break;
        case json_error_numeric_overflow: code = KOMA_E_PCN_NUMBER; break;
        case json_error_out_of_memory: code = KOMA_E_MEMORY; break;
        default: break;
        }
        koma__json_error(err, code, s, len, &jerr);
        return NULL;
    }
    if (!(flags & KOMA_PCN_NO_VALIDATE)) {
        char ptr[KOMA__PCN_POINTER_MAX];
        if (koma__pcn_check(root, flags, scratch, ptr, err) != 0) {
            json_decref(root);
            if (err) {
                size_t off = 0;
                koma__json_locate(s, len, ptr, &off);
                err->offset = off;
                koma__offset_to_linecol(s, len, off, &err->line, &err->column);
            }
            return NULL;
        }
    }
    return koma__pcn_wrap(root, err);
}

typedef struct json_sink_ctx {
    koma__pcn_sink sink;
    void *ctx;
    int failed;
} json_sink_ctx;

static int dump_cb(const char *buffer, size_t size, void *data)
{
    json_sink_ctx *c = data;
    if (c->sink(c->ctx, buffer, size) != 0) {
        c->failed = 1;
        return -1;
    }
    return 0;
}

int koma__pcn_emit_json(const koma_pcn *p, unsigned flags, koma__pcn_sink sink, void *ctx,
                        koma_error *err)
{
    size_t jflags = JSON_PRESERVE_ORDER | JSON_ENCODE_ANY;
    jflags |= (flags & KOMA_PCN_PRETTY) ? JSON_INDENT(2) : JSON_COMPACT;
    json_sink_ctx c = { sink, ctx, 0 };
    if (json_dump_callback(p->root, dump_cb, &c, jflags) != 0)
        return koma_error_set(err, c.failed ? KOMA_E_IO_WRITE : KOMA_E_MEMORY, 0, NULL);
    if (sink(ctx, "\n", 1) != 0) return koma_error_set(err, KOMA_E_IO_WRITE, 0, NULL);
    return 0;
}
