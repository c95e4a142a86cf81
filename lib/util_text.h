/*
 * lib/util_text.h — the text helpers of lib/util_text.c (not installed): output
 * buffers (a koma_pcn_buffer appended to), errors located at a line and column of
 * a multi-line input, text encodings (iconv) and UTF-8 checks.
 */
#ifndef KOMA_UTIL_TEXT_H
#define KOMA_UTIL_TEXT_H

#include <koma/koma.h>

/* An output buffer: koma_pcn_buffer, appended to. */
int koma__buf_put(koma_pcn_buffer *b, const char *s, size_t len, koma_error *err);
int koma__buf_puts(koma_pcn_buffer *b, const char *s, koma_error *err);
/* Each line of text (lines separated by '\n') as prefix, the line, '\n'. */
int koma__buf_lines(koma_pcn_buffer *b, const char *prefix, const char *text, koma_error *err);
/* 1 when needle occurs in s[0..len) (detection). */
int koma__contains(const char *s, size_t len, const char *needle);
int koma__buf_printf(koma_pcn_buffer *b, koma_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Set err at a line and column of a multi-line input (offset: from the input's start). */
int koma__error_at(koma_error *err, koma_code code, unsigned long line, unsigned long column,
                   size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Text encodings (iconv): convert s[0..len) from `from` ("CP932", ...) to UTF-8
 * into out (appended). On a byte that is not valid in `from`: -1 with
 * *bad the offset of it in s. -2 on memory trouble. */
int koma__to_utf8(const char *from, const char *s, size_t len, koma_pcn_buffer *out, size_t *bad);
/* From UTF-8 to `to`; -1 with *bad at a character `to` cannot hold. */
int koma__from_utf8(const char *to, const char *s, size_t len, koma_pcn_buffer *out, size_t *bad);
/* 1 when s[0..len) is valid UTF-8; *bad gets the first invalid byte otherwise. */
int koma__utf8_valid(const char *s, size_t len, size_t *bad);

#endif
