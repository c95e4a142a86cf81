/* koma/error.h — diagnostics shared by every libkoma module. */
#ifndef KOMA_ERROR_H
#define KOMA_ERROR_H

#include <stddef.h>
#include <koma/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Stable code enum; the dotted names in codes.def are the public contract. */
typedef enum koma_code {
    KOMA_OK = 0,
#define KOMA_CODE(id, name, text) KOMA_E_##id,
#include <koma/codes.def>
#undef KOMA_CODE
    KOMA_CODE_COUNT
} koma_code;

#define KOMA_ERROR_MESSAGE_MAX 256

/*
 * A caller-allocated error. Parsers of a single string set line = 1 and
 * column = offset + 1; readers of multi-line inputs set the real line.
 * The message is UTF-8 text on one line: what it quotes is shown as koma_quote
 * shows it (valid UTF-8 as text, other bytes and controls escaped).
 */
typedef struct koma_error {
    koma_code code;
    unsigned long line;    /* 1-based */
    unsigned long column;  /* 1-based byte column */
    size_t offset;         /* 0-based byte offset into the parsed input */
    const char *source;    /* source name (not owned), may be NULL */
    char message[KOMA_ERROR_MESSAGE_MAX];
} koma_error;

/* Zero every field (code KOMA_OK, no source). Ownership: none. */
KOMA_API void koma_error_clear(koma_error *err);

/* Set err (if not NULL) at a 0-based offset of a one-line input; returns -1.
 * Ownership: none. */
KOMA_API int koma_error_set(koma_error *err, koma_code code, size_t offset,
                            const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Move an error found inside a sub-string that starts at `base` (0-based). Ownership: none. */
KOMA_API void koma_error_shift(koma_error *err, size_t base);

/* "feen.hand.order" for KOMA_E_FEEN_HAND_ORDER; "ok" for KOMA_OK.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_code_name(koma_code code);
/* Default English text of a code.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_strerror(koma_code code);
/* Reverse lookup; KOMA_CODE_COUNT when unknown. Ownership: none. */
KOMA_API koma_code koma_code_from_name(const char *name);

/*
 * Write a quotation of bytes s[0..len) into dst (NUL-terminated, truncated
 * with "..." past cap, never inside a character): valid UTF-8 is kept as text;
 * bytes that are not valid UTF-8, control characters (C0, DEL, C1) and the
 * characters that would break or turn a line or not show (U+2028, U+2029,
 * the direction marks and embeddings, U+FEFF) become \xNN, one a byte; '"'
 * and '\\' are backslash-escaped. Returns the length written.
 * Ownership: none.
 */
KOMA_API size_t koma_quote(char *dst, size_t cap, const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
