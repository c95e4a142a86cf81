/* koma/io.h — what every reader and writer of libkoma shares: the output buffer
 * writers append to, and the two kinds of callback that move bytes (libkoma(3),
 * CONVENTIONS).
 */
#ifndef KOMA_IO_H
#define KOMA_IO_H

#include <stddef.h>
#include <koma/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A growable heap buffer every writer appends to (koma_pcn_write,
 * koma_format_writer_record, ...): zero-initialise it; reset len to 0 to reuse
 * it for the next record; free data with koma_buffer_cleanup. The text is
 * always NUL-terminated (data[len] == '\0').
 */
typedef struct koma_buffer {
    char *data;
    size_t len;
    size_t cap;
} koma_buffer;

/* Frees b->data and zeroes b.
 * Ownership: frees what b owns (not b itself). */
KOMA_API void koma_buffer_cleanup(koma_buffer *b);

/* A source of bytes: up to cap bytes into buf; the number read, 0 at the end,
 * -1 on an error (the call reading then fails with io.read). */
typedef long (*koma_read_fn)(void *ctx, char *buf, size_t cap);

/* A sink of bytes: data[0..len) written; 0, or non-zero to stop the call
 * writing (it then returns that value, err io.write). */
typedef int (*koma_write_fn)(void *ctx, const char *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
