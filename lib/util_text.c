/*
 * lib/util_text.c — the small helpers the format modules and the hub share (declared
 * in util_text.h): output buffers (koma_pcn_buffer appended to), text
 * encodings (UTF-8 checked; iconv from the C library), searching, and errors
 * located at a line and column of a multi-line input. It calls only
 * the base layer (koma_error).
 */
#include <errno.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util_text.h"
#include "internal.h"

/* ---- buffers -------------------------------------------------------------------- */

int koma__buf_put(koma_pcn_buffer *b, const char *s, size_t len, koma_error *err)
{
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len + 1) cap *= 2;
        char *p = realloc(b->data, cap);
        if (p == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        b->data = p;
        b->cap = cap;
    }
    if (len) memcpy(b->data + b->len, s, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

int koma__buf_puts(koma_pcn_buffer *b, const char *s, koma_error *err)
{
    return koma__buf_put(b, s, strlen(s), err);
}

int koma__buf_lines(koma_pcn_buffer *b, const char *prefix, const char *text, koma_error *err)
{
    const char *p = text;
    for (;;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (koma__buf_puts(b, prefix, err) || koma__buf_put(b, p, n, err) || koma__buf_put(b, "\n", 1, err))
            return -1;
        if (!e) return 0;
        p = e + 1;
    }
}

int koma__buf_printf(koma_pcn_buffer *b, koma_error *err, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return koma_error_set(err, KOMA_E_INTERNAL, 0, "format error");
    if ((size_t)n < sizeof small) return koma__buf_put(b, small, (size_t)n, err);
    char *big = malloc((size_t)n + 1);
    if (big == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int rc = koma__buf_put(b, big, (size_t)n, err);
    free(big);
    return rc;
}

/* ---- encodings ------------------------------------------------------------------ */

int koma__utf8_valid(const char *s, size_t len, size_t *bad)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        size_t n;
        unsigned min;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xc2 && c <= 0xdf) { n = 1; min = 0x80; }
        else if (c >= 0xe0 && c <= 0xef) { n = 2; min = 0x800; }
        else if (c >= 0xf0 && c <= 0xf4) { n = 3; min = 0x10000; }
        else goto invalid;
        if (len - i <= n) goto invalid;
        unsigned cp = c & (0x3fu >> n);
        for (size_t k = 1; k <= n; k++) {
            if ((p[i + k] & 0xc0) != 0x80) goto invalid;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) goto invalid;
        i += n + 1;
    }
    return 1;
invalid:
    if (bad) *bad = i;
    return 0;
}

static int iconv_run(const char *to, const char *from, const char *s, size_t len,
                     koma_pcn_buffer *out, size_t *bad)
{
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1) {
        if (bad) *bad = 0;
        return -1;
    }
    char *in = (char *)s;
    size_t left = len;
    int rc = 0;
    while (left > 0) {
        if (out->cap - out->len < left * 3 + 16) {
            size_t cap = out->cap ? out->cap : 256;
            while (cap - out->len < left * 3 + 16) cap *= 2;
            char *p = realloc(out->data, cap);
            if (p == NULL) {
                rc = -2;
                break;
            }
            out->data = p;
            out->cap = cap;
        }
        char *o = out->data + out->len;
        size_t room = out->cap - out->len - 1;
        size_t r = iconv(cd, &in, &left, &o, &room);
        out->len = (size_t)(o - out->data);
        if (r == (size_t)-1 && errno != E2BIG) {
            if (bad) *bad = (size_t)(in - s);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && out->data == NULL) {
        out->data = malloc(1);
        if (out->data == NULL) rc = -2;
        else out->cap = 1;
    }
    if (out->data) out->data[out->len] = '\0';
    iconv_close(cd);
    return rc;
}

int koma__to_utf8(const char *from, const char *s, size_t len, koma_pcn_buffer *out, size_t *bad)
{
    return iconv_run("UTF-8", from, s, len, out, bad);
}

int koma__from_utf8(const char *to, const char *s, size_t len, koma_pcn_buffer *out, size_t *bad)
{
    return iconv_run(to, "UTF-8", s, len, out, bad);
}

/* ---- searching ------------------------------------------------------------------ */

int koma__contains(const char *s, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    if (n > len) return 0;
    for (size_t i = 0; i + n <= len; i++)
        if (s[i] == needle[0] && memcmp(s + i, needle, n) == 0) return 1;
    return 0;
}

/* ---- located errors ---------------------------------------------------------- */

int koma__error_at(koma_error *err, koma_code code, unsigned long line, unsigned long column,
                   size_t offset, const char *fmt, ...)
{
    if (err == NULL) return -1;
    va_list ap;
    va_start(ap, fmt);
    koma__error_vset(err, code, offset, fmt, ap);
    va_end(ap);
    err->line = line;
    err->column = column;
    return -1;
}
