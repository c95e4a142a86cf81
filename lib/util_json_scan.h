/*
 * lib/util_json_scan.h — plain JSON read token by token, with no tree
 * (internal to libkoma; not installed). The readers that read a record in one
 * pass without jansson (pcn_quick.c: a PCN record checked; fmt_jkf_quick.c: a
 * JKF record read) take their tokens from here.
 *
 * Only the plain forms are read: strings of valid UTF-8 without escapes or
 * control bytes, non-negative integers of at most 18 digits without a leading
 * zero, fraction or exponent, true, false and null. Each function gets *p at
 * the token's first byte and end past the text; it returns 1 with *p past the
 * token, or 0 (*p then undefined) when the token is not of a plain form: the
 * caller then leaves the record to jansson, which reads every form and
 * reports every error. What these accept, jansson reads as the same value.
 */
#ifndef KOMA_UTIL_JSON_SCAN_H
#define KOMA_UTIL_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Past JSON's white space (space, tab, line feed, carriage return). */
static inline const char *koma__jscan_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
    return p;
}

/* *p at '"': the string's bytes s[0..n) (no escape: the text itself). A
 * string of ASCII bytes is read here; at the first other byte the whole string
 * is read again by koma__jscan_text, which checks its UTF-8. */
int koma__jscan_text(const char **p, const char *end, const char **s, size_t *n);

static inline int koma__jscan_string(const char **pp, const char *end, const char **s, size_t *n)
{
    for (const char *p = *pp + 1; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            *s = *pp + 1;
            *n = (size_t)(p - *s);
            *pp = p + 1;
            return 1;
        }
        if (c < 0x20 || c == '\\' || c >= 0x80) break;
    }
    return koma__jscan_text(pp, end, s, n);
}

/* A non-negative integer: *v. */
int koma__jscan_uint(const char **p, const char *end, uint64_t *v);

/* true, false or null: *c its first letter ('t', 'f', 'n'). */
int koma__jscan_word(const char **p, const char *end, char *c);

#endif
