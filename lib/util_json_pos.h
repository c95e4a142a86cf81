/*
 * lib/util_json_pos.h — positions inside raw JSON text (internal to libkoma; not installed).
 *
 * jansson parses a document into a tree but forgets where each value was. These
 * helpers scan the raw text again, without allocating, to find the byte offset of
 * the value (or of the member name) at an RFC 6901 JSON pointer, to measure nesting
 * depth before jansson sees the text, and to turn offsets and jansson errors into
 * koma_error positions (1-based line, 1-based BYTE column).
 *
 * Lines are separated by '\n' (a "\r\n" pair counts once: the '\r' is simply the
 * last byte of its line). Columns count bytes, not characters.
 */
#ifndef KOMA_UTIL_JSON_POS_H
#define KOMA_UTIL_JSON_POS_H

#include <stddef.h>
#include <jansson.h>
#include <koma/error.h>
#include <koma/limits.h>

/* koma(7), LIMITS: nesting depth of a JSON or YAML document. */
#define KOMA_JSON_DEPTH_MAX KOMA_LIMIT_DEPTH
/* koma(7), LIMITS: size of one record. */
#define KOMA_RECORD_MAX KOMA_LIMIT_RECORD

/*
 * The members of the top-level object of text[0..len) named "plies" (written
 * without escapes), when it is an array: 1 when it has more than limit
 * elements, with *offset at the first one past the limit; 0 otherwise (also for
 * malformed text: the parser reports that). Allocation-free.
 */
int koma__json_plies(const char *text, size_t len, size_t limit, size_t *offset);

/*
 * Pre-scan text[0..len) and check that no array or object nests deeper than
 * `limit` (the root container is depth 1, so `[[1]]` has depth 2). Strings are
 * skipped correctly; the text need not be valid JSON (the scan only counts '['
 * and '{' outside strings, and a stray ']' never makes the depth negative).
 * Returns 0 when the depth is within limit; 1 when exceeded, with
 * *offset_of_violation (if not NULL) set to the offset of the first opening
 * bracket at depth limit + 1. Never fails otherwise.
 */
int koma__json_depth(const char *text, size_t len, size_t limit, size_t *offset_of_violation);

/*
 * 1 when a limit found by a pre-scan at `offset` is the first thing wrong with
 * text, that is when text[0..offset) is the beginning of a JSON text; 0 when a
 * syntax error comes before it (the caller then lets jansson report that). Only
 * called on the error path: it parses the prefix. When a memory budget is on
 * and the prefix alone passes it (koma__json_budget_hit), that comes first:
 * *stop (if not NULL) is where the parse stopped.
 */
int koma__json_limit_first(const char *text, size_t offset, size_t *stop);

/*
 * Find the value at an RFC 6901 JSON pointer (NUL-terminated; "" is the root,
 * "/plies/17/pmn" a nested value; "~0" and "~1" escape '~' and '/') inside
 * text[0..len), which should be a valid JSON text (e.g. one jansson accepted).
 * Object member names are compared after decoding their JSON escapes, so
 * "\u0041" matches "A". With duplicate names the first one wins.
 * Returns 0 with *offset = the 0-based offset of the value's first byte ('{',
 * '[', '"', a digit, '-', 't', 'f' or 'n'); -1 when the pointer does not
 * resolve (or the text is malformed), with *offset = the offset of the deepest
 * value that did resolve (the root at worst, 0 for an empty text).
 */
int koma__json_locate(const char *text, size_t len, const char *pointer, size_t *offset);

/*
 * The same, but for a pointer whose last token names an object member: *offset
 * is the offset of that member NAME (its opening '"'), which is where a bad key
 * is reported. When the last token indexes an array, this is the element.
 */
int koma__json_locate_key(const char *text, size_t len, const char *pointer, size_t *offset);

/* 1-based line and 1-based byte column of a 0-based offset (clamped to len). */
void koma__offset_to_linecol(const char *text, size_t len, size_t offset,
                             unsigned long *line, unsigned long *column);

/*
 * Set err (if not NULL) at a 0-based offset of a multi-line text: code, offset,
 * line and byte column computed from the text, and a printf-style message.
 * Returns -1.
 */
int koma__json_error_at(koma_error *err, koma_code code, const char *text, size_t len,
                        size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/*
 * Turn a jansson parse error into a koma_error with `code`: the offset starts
 * from jerr->position (bytes; clamped to len), line and byte column are
 * recomputed from text (jansson's own column counts UTF-8 characters), and the
 * message is jerr->text made printable. jansson reports most errors just after
 * the token it names ("near 'T'"); the offset is corrected to the column of
 * koma(7), COMMON CONTRACT (where the input stops being valid):
 *   - lexical errors stay where jansson stopped, the first invalid byte
 *     (bad UTF-8, a control character, premature end, "01", "1.");
 *   - a misspelt word points at its first wrong byte ("tx" at 'x', "tru}" at
 *     '}'), a token that cannot start a value at its start (a stray 'x', a BOM);
 *   - a well-formed but unexpected token, a duplicate key, a number overflow,
 *     a NUL escape: the start of that token.
 * Returns -1.
 */
int koma__json_error(koma_error *err, koma_code code, const char *text, size_t len,
                     const json_error_t *jerr);

/*
 * The JSON pointer of what is at byte `offset` of text[0..len): the innermost
 * value that starts at or contains that byte, or, for a member name, that
 * member (a duplicate key at offset gives the pointer of the duplicate). An
 * offset between tokens or past a syntax error gives the innermost open
 * container with the member or element being read. Only text[0..offset) needs
 * to be well-formed, as it is for a jansson error at offset. Written into
 * buf[0..cap) NUL-terminated, truncated as koma__json_pointer_push does
 * (levels deeper than KOMA_JSON_DEPTH_MAX are left out). Returns the length
 * written; a key that decodes to a NUL byte ("\u0000") puts that byte in the
 * pointer, so use the length (koma_quote prints it as \x00). Allocation-free.
 */
size_t koma__json_pointer_at(const char *text, size_t len, size_t offset, char *buf, size_t cap);

/*
 * Append one reference token to a JSON pointer being built in buf[0..cap)
 * (NUL-terminated, current length *plen): writes '/' then the token with '~'
 * as "~0" and '/' as "~1". On overflow the pointer is truncated and ends in
 * "..." (still NUL-terminated) and -1 is returned; 0 otherwise.
 * koma__json_pointer_index appends a decimal array index.
 */
int koma__json_pointer_push(char *buf, size_t cap, size_t *plen, const char *tok, size_t toklen);
int koma__json_pointer_index(char *buf, size_t cap, size_t *plen, size_t index);

#endif
