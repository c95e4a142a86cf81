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

size_t koma_quote(char *dst, size_t cap, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (cap == 0) return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        char tmp[4];
        size_t k;
        if (c == '"' || c == '\\') { tmp[0] = '\\'; tmp[1] = (char)c; k = 2; }
        else if (c >= 0x20 && c < 0x7f) { tmp[0] = (char)c; k = 1; }
        else { tmp[0] = '\\'; tmp[1] = 'x'; tmp[2] = hex[c >> 4]; tmp[3] = hex[c & 15]; k = 4; }
        if (n + k + 4 > cap) {          /* keep room for "..." and NUL */
            if (n + 4 <= cap) { memcpy(dst + n, "...", 3); n += 3; }
            break;
        }
        memcpy(dst + n, tmp, k);
        n += k;
    }
    dst[n] = '\0';
    return n;
}

const char *koma_version(void) { return KOMA_VERSION; }
