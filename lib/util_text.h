/*
 * lib/util_text.h — the text helpers of lib/util_text.c (not installed): output
 * buffers (a koma_buffer appended to), errors located at a line and column of
 * a multi-line input, text encodings (iconv) and UTF-8 checks.
 */
#ifndef KOMA_UTIL_TEXT_H
#define KOMA_UTIL_TEXT_H

#include <koma/koma.h>

/* An output buffer: koma_buffer, appended to. */
int koma__buf_put(koma_buffer *b, const char *s, size_t len, koma_error *err);
int koma__buf_puts(koma_buffer *b, const char *s, koma_error *err);
/* Each line of text (lines separated by '\n') as prefix, the line, '\n'. */
int koma__buf_lines(koma_buffer *b, const char *prefix, const char *text, koma_error *err);
/* 1 when needle occurs in s[0..len) (detection). */
int koma__contains(const char *s, size_t len, const char *needle);
int koma__buf_printf(koma_buffer *b, koma_error *err, const char *fmt, ...)
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
int koma__to_utf8(const char *from, const char *s, size_t len, koma_buffer *out, size_t *bad);
/* From UTF-8 to `to`; -1 with *bad at a character `to` cannot hold. */
int koma__from_utf8(const char *to, const char *s, size_t len, koma_buffer *out, size_t *bad);
/* 1 when s[0..len) is valid UTF-8; *bad gets the first invalid byte otherwise. */
int koma__utf8_valid(const char *s, size_t len, size_t *bad);

/*
 * The encodings of the shogi world's text formats (KIF, KI2, CSA). The
 * ASCII-compatible ones are read record by record; UTF-16 (with its byte order
 * mark) is made UTF-8 by the record stream before a reader sees it.
 */
typedef enum koma__enc {
    KOMA__ENC_NONE = 0, KOMA__ENC_UTF8, KOMA__ENC_SJIS, KOMA__ENC_EUCJP, KOMA__ENC_UTF16LE,
    KOMA__ENC_UTF16BE, KOMA__ENC_UTF16          /* UTF-16, its byte order mark saying which */
} koma__enc;
/* By name, any case: UTF-8 (UTF8), Shift_JIS (SJIS, Shift-JIS, CP932, Windows-31J,
 * MS932), EUC-JP (EUCJP, EUC_JP, eucJP-ms), UTF-16LE, UTF-16BE, UTF-16; NONE when
 * koma reads no such encoding. */
koma__enc koma__enc_find(const char *name, size_t len);
/* 1 for the UTF-16 encodings. */
static inline int koma__enc_utf16(koma__enc e)
{
    return e == KOMA__ENC_UTF16LE || e == KOMA__ENC_UTF16BE || e == KOMA__ENC_UTF16;
}
/* The name koma writes ("Shift_JIS"), and iconv's ("CP932", "EUC-JP-MS"). */
const char *koma__enc_name(koma__enc e);
const char *koma__enc_iconv(koma__enc e);
/* 1 when s[0..len) is valid text in e; *bad gets the first byte that is not. */
int koma__enc_valid(koma__enc e, const char *s, size_t len, size_t *bad);
/* 1 when s[0..len) is made of EUC-JP's sequences: ASCII, 8E then A1..DF
 * (half-width katakana), A1..FE twice (JIS X 0208), 8F then A1..FE twice (JIS
 * X 0212); *bad gets the first byte of one that is not. (glibc's decoder takes
 * some malformed 8F sequences for nothing at all: EUC-JP is checked with this
 * before it is decoded.) */
int koma__eucjp_well_formed(const char *s, size_t len, size_t *bad);
/* The encoding of text that declares none: the first of UTF-8, EUC-JP and
 * Shift_JIS in which s[0..len) is valid; NONE when it is in none of them, with
 * *bad, *best the first byte of the longest valid start and its encoding. */
koma__enc koma__enc_detect(const char *s, size_t len, size_t *bad, koma__enc *best);
/* s[0..len) in e as UTF-8: *text is s itself (UTF-8) or out's data. 0; -1 with
 * *bad at the first byte not valid in e; -2 on memory trouble. */
int koma__enc_decode(koma__enc e, const char *s, size_t len, koma_buffer *out, const char **text,
                     size_t *tlen, size_t *bad);

#endif
