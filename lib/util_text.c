/*
 * lib/util_text.c — the small helpers the format modules and the hub share (declared
 * in util_text.h): output buffers (koma_buffer appended to), text
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
#include <strings.h>

#include "util_text.h"
#include "internal.h"

/* ---- buffers -------------------------------------------------------------------- */

int koma__buf_put(koma_buffer *b, const char *s, size_t len, koma_error *err)
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

int koma__buf_puts(koma_buffer *b, const char *s, koma_error *err)
{
    return koma__buf_put(b, s, strlen(s), err);
}

int koma__buf_lines(koma_buffer *b, const char *prefix, const char *text, koma_error *err)
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

int koma__buf_printf(koma_buffer *b, koma_error *err, const char *fmt, ...)
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
    /* each sequence by the ranges of its bytes (Unicode's table of well-formed
     * UTF-8: no overlong form, no surrogate, nothing past U+10FFFF); ASCII eight
     * bytes at a time */
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    for (;;) {
        while (len - i >= 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= len) return 1;
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
        } else if (c >= 0xe0 && c <= 0xef) {
            unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
            if (len - i < 3 || p[i + 1] < lo || p[i + 1] > hi || (p[i + 2] & 0xc0) != 0x80) break;
            i += 3;
        } else if (c >= 0xc2 && c <= 0xdf) {
            if (len - i < 2 || (p[i + 1] & 0xc0) != 0x80) break;
            i += 2;
        } else if (c >= 0xf0 && c <= 0xf4) {
            unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
            if (len - i < 4 || p[i + 1] < lo || p[i + 1] > hi || (p[i + 2] & 0xc0) != 0x80 ||
                (p[i + 3] & 0xc0) != 0x80)
                break;
            i += 4;
        } else {
            break;
        }
    }
    if (bad) *bad = i;
    return 0;
}

static int iconv_run(const char *to, const char *from, const char *s, size_t len,
                     koma_buffer *out, size_t *bad)
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

int koma__to_utf8(const char *from, const char *s, size_t len, koma_buffer *out, size_t *bad)
{
    return iconv_run("UTF-8", from, s, len, out, bad);
}

int koma__from_utf8(const char *to, const char *s, size_t len, koma_buffer *out, size_t *bad)
{
    return iconv_run(to, "UTF-8", s, len, out, bad);
}

static const struct {
    const char *name;
    koma__enc enc;
} enc_names[] = {
    {"UTF-8", KOMA__ENC_UTF8},         {"UTF8", KOMA__ENC_UTF8},
    {"Shift_JIS", KOMA__ENC_SJIS},     {"SJIS", KOMA__ENC_SJIS},       {"Shift-JIS", KOMA__ENC_SJIS},
    {"CP932", KOMA__ENC_SJIS},         {"Windows-31J", KOMA__ENC_SJIS}, {"MS932", KOMA__ENC_SJIS},
    {"EUC-JP", KOMA__ENC_EUCJP},       {"EUCJP", KOMA__ENC_EUCJP},     {"EUC_JP", KOMA__ENC_EUCJP},
    {"eucJP-ms", KOMA__ENC_EUCJP},     {"EUC-JP-MS", KOMA__ENC_EUCJP},
    {"UTF-16LE", KOMA__ENC_UTF16LE},   {"UTF-16BE", KOMA__ENC_UTF16BE}, {"UTF-16", KOMA__ENC_UTF16},
};

koma__enc koma__enc_find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof enc_names / sizeof enc_names[0]; i++)
        if (strlen(enc_names[i].name) == len && strncasecmp(enc_names[i].name, name, len) == 0)
            return enc_names[i].enc;
    return KOMA__ENC_NONE;
}

const char *koma__enc_name(koma__enc e)
{
    switch (e) {
    case KOMA__ENC_UTF8: return "UTF-8";
    case KOMA__ENC_SJIS: return "Shift_JIS";
    case KOMA__ENC_EUCJP: return "EUC-JP";
    case KOMA__ENC_UTF16LE: return "UTF-16LE";
    case KOMA__ENC_UTF16BE: return "UTF-16BE";
    case KOMA__ENC_UTF16: return "UTF-16";
    default: return "?";
    }
}

const char *koma__enc_iconv(koma__enc e)
{
    switch (e) {
    case KOMA__ENC_SJIS: return "CP932";
    case KOMA__ENC_EUCJP: return "EUC-JP-MS";   /* the CP932 repertoire, as Windows writes EUC-JP */
    default: return koma__enc_name(e);
    }
}

int koma__eucjp_well_formed(const char *s, size_t len, size_t *bad)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
#define EUC_BYTE(k) (i + (k) < len && p[i + (k)] >= 0xa1 && p[i + (k)] <= 0xfe)
    while (i < len) {
        unsigned c = p[i];
        if (c < 0x80) i++;
        else if (c == 0x8e && i + 1 < len && p[i + 1] >= 0xa1 && p[i + 1] <= 0xdf) i += 2;
        else if (c == 0x8f && EUC_BYTE(1) && EUC_BYTE(2)) i += 3;
        else if (EUC_BYTE(0) && EUC_BYTE(1)) i += 2;
        else {
            if (bad) *bad = i;
            return 0;
        }
    }
#undef EUC_BYTE
    return 1;
}

int koma__enc_decode(koma__enc e, const char *s, size_t len, koma_buffer *out, const char **text,
                     size_t *tlen, size_t *bad)
{
    if (e == KOMA__ENC_UTF8) {
        if (!koma__utf8_valid(s, len, bad)) return -1;
        *text = s;
        *tlen = len;
        return 0;
    }
    if (e == KOMA__ENC_EUCJP && !koma__eucjp_well_formed(s, len, bad)) return -1;
    out->len = 0;
    int x = koma__to_utf8(koma__enc_iconv(e), s, len, out, bad);
    if (x != 0) return x;
    *text = out->data;
    *tlen = out->len;
    return 0;
}

int koma__enc_valid(koma__enc e, const char *s, size_t len, size_t *bad)
{
    if (e == KOMA__ENC_UTF8) return koma__utf8_valid(s, len, bad);
    koma_buffer b = {0};
    const char *t;
    size_t tl, at = 0;
    int x = koma__enc_decode(e, s, len, &b, &t, &tl, &at);
    free(b.data);                      /* a koma_buffer's, freed at this layer */
    if (x == -2) {
        /* no memory to tell: taken as valid, the decoding that follows says so */
        return 1;
    }
    if (x != 0 && bad) *bad = at;
    return x == 0;
}

koma__enc koma__enc_detect(const char *s, size_t len, size_t *bad, koma__enc *best)
{
    static const koma__enc order[] = {KOMA__ENC_UTF8, KOMA__ENC_EUCJP, KOMA__ENC_SJIS};
    size_t far = 0;
    koma__enc far_enc = KOMA__ENC_UTF8;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        size_t at = 0;
        if (koma__enc_valid(order[i], s, len, &at)) return order[i];
        if (at > far || i == 0) {
            far = at;
            far_enc = order[i];
        }
    }
    if (bad) *bad = far;
    if (best) *best = far_enc;
    return KOMA__ENC_NONE;
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
