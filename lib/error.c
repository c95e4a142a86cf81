/* lib/error.c — error codes, their names, and message formatting. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const code_names[KOMA_CODE_COUNT] = {
    "ok",
#define KOMA_CODE(id, name, text) name,
#include <koma/codes.def>
#undef KOMA_CODE
};

static const char *const code_texts[KOMA_CODE_COUNT] = {
    "no error",
#define KOMA_CODE(id, name, text) text,
#include <koma/codes.def>
#undef KOMA_CODE
};

void koma_error_clear(koma_error *err)
{
    if (err == NULL) return;
    memset(err, 0, sizeof *err);
}

int koma__error_vset(koma_error *err, koma_code code, size_t offset, const char *fmt,
                     va_list ap)
{
    if (err == NULL) return -1;
    err->code = code;
    err->offset = offset;
    err->line = 1;
    err->column = (unsigned long)offset + 1;
    if (fmt == NULL) snprintf(err->message, sizeof err->message, "%s", koma_strerror(code));
    else vsnprintf(err->message, sizeof err->message, fmt, ap);
    return -1;
}

int koma_error_set(koma_error *err, koma_code code, size_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    koma__error_vset(err, code, offset, fmt, ap);
    va_end(ap);
    return -1;
}

void koma_error_shift(koma_error *err, size_t base)
{
    if (err == NULL) return;
    err->offset += base;
    err->column += (unsigned long)base;
}

int koma__error_token(koma_error *err, koma_code code, size_t offset,
                      const char *text, const char *s, size_t len)
{
    char quoted[96];
    koma_quote(quoted, sizeof quoted, s, len);
    return koma_error_set(err, code, offset, "%s: \"%s\"", text ? text : koma_strerror(code),
                          quoted);
}

const char *koma_code_name(koma_code code)
{
    if ((unsigned)code >= KOMA_CODE_COUNT) return "unknown";
    return code_names[code];
}

const char *koma_strerror(koma_code code)
{
    if ((unsigned)code >= KOMA_CODE_COUNT) return "unknown error";
    return code_texts[code];
}

koma_code koma_code_from_name(const char *name)
{
    if (name == NULL) return KOMA_CODE_COUNT;
    for (int i = 0; i < KOMA_CODE_COUNT; i++)
        if (strcmp(code_names[i], name) == 0) return (koma_code)i;
    return KOMA_CODE_COUNT;
}

/* The length of the UTF-8 character at s[0..len) that a quotation shows as
 * text, or 0: not valid UTF-8 (each byte escaped), or a character that would
 * break or turn the line or not show (C0 and C1 controls, DEL, U+2028 and
 * U+2029, the direction marks and embeddings U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069, and U+FEFF, a byte order mark). */
static size_t shown_char(const unsigned char *s, size_t len)
{
    unsigned c = s[0];
    size_t n;
    unsigned cp, min;
    if (c < 0x80) return c >= 0x20 && c != 0x7f ? 1 : 0;
    if (c >= 0xc2 && c <= 0xdf) { n = 2; min = 0x80; cp = c & 0x1fu; }
    else if (c >= 0xe0 && c <= 0xef) { n = 3; min = 0x800; cp = c & 0x0fu; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 4; min = 0x10000; cp = c & 0x07u; }
    else return 0;
    if (len < n) return 0;
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[k] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    if (cp <= 0x9f || cp == 0x2028 || cp == 0x2029 || cp == 0x200e || cp == 0x200f ||
        (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff)
        return 0;
    return n;
}

size_t koma__quote_text(char *dst, size_t cap, const char *s, size_t len, int escape_quotes)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (cap == 0) return 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        char tmp[4];
        const char *piece = tmp;
        size_t k, used = shown_char((const unsigned char *)s + i, len - i);
        if (escape_quotes && (c == '"' || c == '\\')) { tmp[0] = '\\'; tmp[1] = (char)c; k = 2; used = 1; }
        else if (used) { piece = s + i; k = used; }
        else { tmp[0] = '\\'; tmp[1] = 'x'; tmp[2] = hex[c >> 4]; tmp[3] = hex[c & 15]; k = 4; used = 1; }
        if (n + k + 4 > cap) {          /* keep room for "..." and NUL */
            if (n + 4 <= cap) { memcpy(dst + n, "...", 3); n += 3; }
            break;
        }
        memcpy(dst + n, piece, k);
        n += k;
        i += used;
    }
    dst[n] = '\0';
    return n;
}

size_t koma_quote(char *dst, size_t cap, const char *s, size_t len)
{
    return koma__quote_text(dst, cap, s, len, 1);
}

long koma_version(void) { return KOMA_VERSION_NUMBER; }
const char *koma_version_string(void) { return KOMA_VERSION; }

int koma__sized_check(size_t size, size_t first, size_t full, const char *type, koma_error *err)
{
    if (size >= first && size <= full) return 0;
    return koma_error_set(err, KOMA_E_API_SIZE, 0, "%s of %zu bytes: this libkoma (%s) knows %zu to %zu",
                          type, size, KOMA_VERSION, first, full);
}

int koma__sized_read(void *out, size_t full, const void *opt, size_t first, const char *type,
                     koma_error *err)
{
    size_t size = full;
    if (opt) memcpy(&size, opt, sizeof size);
    if (koma__sized_check(size, first, full, type, err) != 0) return -1;
    memset(out, 0, full);
    if (opt) memcpy(out, opt, size);
    memcpy(out, &full, sizeof full);
    return 0;
}

const char *koma__strerror(int errnum, char *buf, size_t cap)
{
    /* the XSI strerror_r (not _GNU_SOURCE): 0, or an error number */
    if (strerror_r(errnum, buf, cap) != 0) snprintf(buf, cap, "error %d", errnum);
    return buf;
}
