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

/* A diagnostic has a known code, and a message that is never empty and always
 * printable ASCII. */
static inline void check_message(const koma_error *err)
{
    CHECK(err->code != KOMA_OK && err->code < KOMA_CODE_COUNT);
    CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
    CHECK(err->message[0] != '\0');
    for (const char *p = err->message; *p; p++) CHECK(*p >= 0x20 && *p < 0x7f);
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
