/*
 * lib/util_json_emit.c — a jansson tree written as compact JSON (util_json_emit.h).
 *
 * jansson's compact form: no white space; a string between quotes with '"'
 * and '\\' escaped by a backslash, the controls below 0x20 as \b \f \n \r \t
 * or \u00XX (upper-case hex), every other byte as it is (the text is UTF-8);
 * an integer in decimal; members in the order they were set.
 */
#include <string.h>

#include "internal.h"
#include "util_json_emit.h"
#include "util_text.h"

#define EMIT_CHUNK 4096

/*
 * What the writer does not write (a real, text that is not UTF-8, levels past
 * the limit) is found as it writes, in the text still held; a tree whose text
 * passes one piece is first checked whole (plain), before the sink sees any of
 * it: so nothing is written of a tree left to jansson.
 */
typedef struct emit {
    koma__json_sink sink;
    void *ctx;
    const json_t *root;
    size_t len;
    int failed, bad, checked;
    unsigned depth;
    char buf[EMIT_CHUNK];
} emit;

static int plain(const json_t *v, unsigned depth);

static void flush(emit *e)
{
    if (!e->checked) {
        e->checked = 1;
        if (!plain(e->root, KOMA__JSON_EMIT_DEPTH)) e->bad = 1;
    }
    if (e->len && !e->failed && !e->bad && e->sink(e->ctx, e->buf, e->len) != 0) e->failed = 1;
    e->len = 0;
}

static void put(emit *e, const char *s, size_t n)
{
    if (n > EMIT_CHUNK - e->len) {
        flush(e);
        if (n > EMIT_CHUNK) {
            if (!e->failed && !e->bad && e->sink(e->ctx, s, n) != 0) e->failed = 1;
            return;
        }
    }
    memcpy(e->buf + e->len, s, n);
    e->len += n;
}

static void put_char(emit *e, char c)
{
    if (e->len == EMIT_CHUNK) flush(e);
    e->buf[e->len++] = c;
}

size_t koma__json_escape(unsigned char c, char esc[6])
{
    static const char hex[] = "0123456789ABCDEF";
    esc[0] = '\\';
    switch (c) {
    case '"': esc[1] = '"'; return 2;
    case '\\': esc[1] = '\\'; return 2;
    case '\b': esc[1] = 'b'; return 2;
    case '\f': esc[1] = 'f'; return 2;
    case '\n': esc[1] = 'n'; return 2;
    case '\r': esc[1] = 'r'; return 2;
    case '\t': esc[1] = 't'; return 2;
    default:
        esc[1] = 'u';
        esc[2] = esc[3] = '0';
        esc[4] = hex[c >> 4];
        esc[5] = hex[c & 15];
        return 6;
    }
}

static void put_string(emit *e, const char *s, size_t n)
{
    put_char(e, '"');
    size_t run = 0;
    unsigned high = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        high |= c;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        put(e, s + run, i - run);
        run = i + 1;
        char esc[6];
        put(e, esc, koma__json_escape(c, esc));
    }
    put(e, s + run, n - run);
    put_char(e, '"');
    if ((high & 0x80) && !koma__utf8_valid(s, n, NULL)) e->bad = 1;
}

size_t koma__json_int(long long v, char buf[24])
{
    char d[24];
    size_t i = sizeof d;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        d[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) d[--i] = '-';
    memcpy(buf, d + i, sizeof d - i);
    return sizeof d - i;
}

static void put_integer(emit *e, json_int_t v)
{
    char d[24];
    put(e, d, koma__json_int(v, d));
}

/* Only what is written here, and no deeper than depth levels. */
static int plain(const json_t *v, unsigned depth)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (depth == 0) return 0;
        for (void *it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it))
            if (!koma__utf8_valid(json_object_iter_key(it), json_object_iter_key_len(it), NULL) ||
                !plain(json_object_iter_value(it), depth - 1))
                return 0;
        return 1;
    }
    case JSON_ARRAY:
        if (depth == 0) return 0;
        for (size_t i = 0; i < json_array_size(v); i++)
            if (!plain(json_array_get(v, i), depth - 1)) return 0;
        return 1;
    case JSON_STRING: return koma__utf8_valid(json_string_value(v), json_string_length(v), NULL);
    case JSON_INTEGER: case JSON_TRUE: case JSON_FALSE: case JSON_NULL: return 1;
    default: return 0;
    }
}

static void value(emit *e, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (++e->depth > KOMA__JSON_EMIT_DEPTH) {
            e->bad = 1;
            return;
        }
        put_char(e, '{');
        int first = 1;
        for (void *it = json_object_iter((json_t *)v); it && !e->failed && !e->bad;
             it = json_object_iter_next((json_t *)v, it)) {
            if (!first) put_char(e, ',');
            first = 0;
            put_string(e, json_object_iter_key(it), json_object_iter_key_len(it));
            put_char(e, ':');
            value(e, json_object_iter_value(it));
        }
        put_char(e, '}');
        e->depth--;
        return;
    }
    case JSON_ARRAY:
        if (++e->depth > KOMA__JSON_EMIT_DEPTH) {
            e->bad = 1;
            return;
        }
        put_char(e, '[');
        for (size_t i = 0; i < json_array_size(v) && !e->failed && !e->bad; i++) {
            if (i) put_char(e, ',');
            value(e, json_array_get(v, i));
        }
        put_char(e, ']');
        e->depth--;
        return;
    case JSON_STRING: put_string(e, json_string_value(v), json_string_length(v)); return;
    case JSON_INTEGER: put_integer(e, json_integer_value(v)); return;
    case JSON_TRUE: put(e, "true", 4); return;
    case JSON_FALSE: put(e, "false", 5); return;
    case JSON_NULL: put(e, "null", 4); return;
    default: e->bad = 1; return;
    }
}

int koma__json_emit_compact(const json_t *v, koma__json_sink sink, void *ctx)
{
    if (v == NULL) return 1;
    emit e;
    e.sink = sink;
    e.ctx = ctx;
    e.root = v;
    e.len = 0;
    e.failed = e.bad = e.checked = 0;
    e.depth = 0;
    value(&e, v);
    if (e.bad) return 1;           /* found before any piece went to the sink */
    e.checked = 1;                 /* written whole: nothing else to check */
    flush(&e);
    return e.failed ? -1 : 0;
}
