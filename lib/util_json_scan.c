/*
 * lib/util_json_scan.c — plain JSON read token by token (util_json_scan.h).
 */
#include <string.h>

#include "internal.h"
#include "util_json_scan.h"

int koma__jscan_text(const char **pp, const char *endp, const char **s, size_t *n)
{
    const unsigned char *p = (const unsigned char *)*pp + 1, *end = (const unsigned char *)endp;
    const unsigned char *start = p;
    while (p < end) {
        unsigned c = *p;
        if (c == '"') {
            *s = (const char *)start;
            *n = (size_t)(p - start);
            *pp = (const char *)p + 1;
            return 1;
        }
        if (c < 0x80) {
            if (c < 0x20 || c == '\\') return 0;
            p++;
            continue;
        }
        /* well-formed UTF-8 only (no overlong form, surrogate or value past U+10FFFF) */
        size_t k = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (k == 0 || (size_t)(end - p) < k) return 0;
        for (size_t i = 1; i < k; i++)
            if ((p[i] & 0xc0) != 0x80) return 0;
        if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) ||
            (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
            return 0;
        p += k;
    }
    return 0;
}

int koma__jscan_uint(const char **pp, const char *end, uint64_t *v)
{
    const char *p = *pp, *d = p;
    uint64_t x = 0;
    while (p < end && KOMA_IS_DIGIT(*p) && p - d < 18) x = x * 10u + (uint64_t)(*p++ - '0');
    if (p == d || (*d == '0' && p - d > 1)) return 0;
    if (p < end && (KOMA_IS_DIGIT(*p) || *p == '.' || *p == 'e' || *p == 'E')) return 0;
    *v = x;
    *pp = p;
    return 1;
}

int koma__jscan_word(const char **pp, const char *end, char *c)
{
    const char *p = *pp;
    if (p >= end) return 0;
    const char *word = *p == 't' ? "true" : *p == 'f' ? "false" : *p == 'n' ? "null" : NULL;
    if (word == NULL) return 0;
    size_t n = strlen(word);
    if ((size_t)(end - p) < n || memcmp(p, word, n) != 0) return 0;
    *c = *p;
    *pp = p + n;
    return 1;
}
