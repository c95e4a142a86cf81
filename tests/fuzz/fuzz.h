/*
 * tests/fuzz/fuzz.h — what every libFuzzer harness includes: the entry point's
 * prototype and the checks. A harness checks its invariants with CHECK(); a
 * violation prints the file, line and condition and abort()s, which libFuzzer
 * (and the corpus replay of `make check`) reports as a finding.
 */
#ifndef KOMA_FUZZ_H
#define KOMA_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <koma/koma.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            abort();                                                                   \
        }                                                                              \
    } while (0)

/* A message is UTF-8 text on one line: valid UTF-8 without C0 or C1 controls,
 * DEL, line separators or direction marks (koma_quote escapes them). */
static inline void check_text(const char *m)
{
    const unsigned char *p = (const unsigned char *)m;
    while (*p) {
        unsigned c = *p, cp;
        size_t n;
        CHECK(c >= 0x20 && c != 0x7f);
        if (c < 0x80) { p++; continue; }
        CHECK(c >= 0xc2 && c <= 0xf4);
        n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        cp = c & (0x7fu >> n);
        for (size_t k = 1; k < n; k++) {
            CHECK((p[k] & 0xc0) == 0x80);
            cp = (cp << 6) | (p[k] & 0x3fu);
        }
        CHECK(cp > 0x9f && !(cp >= 0xd800 && cp <= 0xdfff) && cp <= 0x10ffff);
        CHECK(cp >= (n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u));
        CHECK(cp != 0x2028 && cp != 0x2029 && cp != 0x200e && cp != 0x200f && cp != 0xfeff);
        CHECK(!(cp >= 0x202a && cp <= 0x202e) && !(cp >= 0x2066 && cp <= 0x2069));
        p += n;
    }
}

/* A diagnostic has a known code, and a message that is never empty and always
 * UTF-8 text on one line. */
static inline void check_message(const koma_error *err)
{
    CHECK(err->code != KOMA_OK && err->code < KOMA_CODE_COUNT);
    CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
    CHECK(err->message[0] != '\0');
    check_text(err->message);
}

/* An error of a reader given text[0..len): its offset lies inside the text, its
 * line and byte column are those of the offset, and its message is one line. */
static inline void check_located(const koma_error *err, const char *text, size_t len)
{
    CHECK(err->offset <= len);
    unsigned long line = 1, col = 1;
    for (size_t i = 0; i < err->offset; i++) {
        if (text[i] == '\n') { line++; col = 1; }
        else col++;
    }
    CHECK(err->line == line && err->column == col);
    check_message(err);
}

/* A private copy of the input without a terminator (free() it), so that reading
 * past size is caught by ASan; NULL when out of memory. */
static inline char *fuzz_copy(const uint8_t *data, size_t size)
{
    char *s = malloc(size ? size : 1);
    if (s != NULL && size) memcpy(s, data, size);
    return s;
}

#endif
