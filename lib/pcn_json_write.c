/*
 * lib/pcn_json_write.c — a JSON tree (jansson's) written compact, straight into a
 * buffer: the bytes json_dump_callback writes with JSON_COMPACT |
 * JSON_PRESERVE_ORDER | JSON_ENCODE_ANY, without its cost per value (a
 * callback a piece, and a table of the open containers to catch cycles,
 * which a tree koma built has not). PCN records are written this way
 * (koma__pcn_emit_json); tests/unit/test_pcn_json_fast.c compares the two.
 *
 * The form: no blank between tokens; members in the object's order; a string
 * as its bytes with '"', '\\' and the control characters escaped (\b \f \n \r
 * \t, the others \u00XX with capital hex digits), the rest (UTF-8) as is;
 * integers in decimal. A real number, a string that is not UTF-8 (jansson
 * refuses to write it) or a nesting past KOMA_LIMIT_DEPTH is left to jansson
 * (the caller falls back on koma__json_dump).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "pcn_internal.h"
#include "util_text.h"

/* koma__buf_put, inline while the buffer has room (a record is written a few
 * bytes at a time). */
static inline int put(koma_buffer *b, const char *s, size_t len, koma_error *err)
{
    if (b->len + len + 1 > b->cap) return koma__buf_put(b, s, len, err);
    memcpy(b->data + b->len, s, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

static int put_string(koma_buffer *b, const char *s, size_t len, koma_error *err)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t run = 0, i;
    int ascii = 1;
    if (put(b, "\"", 1, err)) return -1;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) ascii = 0;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        if (put(b, s + run, i - run, err)) return -1;
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        if (put(b, esc, n, err)) return -1;
        run = i + 1;
    }
    if (!ascii && !koma__utf8_valid(s, len, NULL)) return 1;
    if (put(b, s + run, len - run, err) || put(b, "\"", 1, err)) return -1;
    return 0;
}

static int put_value(koma_buffer *b, const json_t *v, int depth, koma_error *err)
{
    if (depth > (int)KOMA_LIMIT_DEPTH) return 1;
    switch (json_typeof(v)) {
    case JSON_NULL: return put(b, "null", 4, err);
    case JSON_TRUE: return put(b, "true", 4, err);
    case JSON_FALSE: return put(b, "false", 5, err);
    case JSON_INTEGER: {
        char num[32];
        int n = snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return put(b, num, (size_t)n, err);
    }
    case JSON_STRING: return put_string(b, json_string_value(v), json_string_length(v), err);
    case JSON_ARRAY: {
        if (put(b, "[", 1, err)) return -1;
        for (size_t i = 0, n = json_array_size(v); i < n; i++) {
            int rc = i ? put(b, ",", 1, err) : 0;
            if (rc == 0) rc = put_value(b, json_array_get(v, i), depth + 1, err);
            if (rc) return rc;
        }
        return put(b, "]", 1, err);
    }
    case JSON_OBJECT: {
        if (put(b, "{", 1, err)) return -1;
        int first = 1;
        for (void *it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
            int rc = first ? 0 : put(b, ",", 1, err);
            first = 0;
            if (rc == 0) rc = put_string(b, json_object_iter_key(it), json_object_iter_key_len(it), err);
            if (rc == 0) rc = put(b, ":", 1, err);
            if (rc == 0) rc = put_value(b, json_object_iter_value(it), depth + 1, err);
            if (rc) return rc;
        }
        return put(b, "}", 1, err);
    }
    default:                           /* a real */
        return 1;
    }
}

int koma__json_write_compact(const json_t *v, koma_buffer *out, koma_error *err)
{
    size_t start = out->len;
    int rc = put_value(out, v, 0, err);
    if (rc == 1) {
        out->len = start;
        if (out->data) out->data[start] = '\0';
    }
    return rc;
}
