/*
 * lib/fid.c — FID: the lowercase hex SHA-256 of a canonical FEEN (koma-formats(5),
 * FID).
 * SHA-256 comes from nettle.
 */
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "internal.h"

void koma_fid_of(const char *feen, size_t len, char out[KOMA_FID_BUF])
{
    static const char hex[] = "0123456789abcdef";
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    if (len > 0) sha256_update(&ctx, len, (const uint8_t *)feen);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
    for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15u];
    }
    out[KOMA_FID_LEN] = '\0';
}

int koma_position_fid(const koma_position *pos, char out[KOMA_FID_BUF], koma_error *err)
{
    char stack[KOMA_FEEN_MAX_LEN + 1];
    if (pos == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_position_fid: NULL position");
    size_t n = koma_feen_write(pos, stack, sizeof stack);
    if (n < sizeof stack) {
        koma_fid_of(stack, n, out);
        return 0;
    }
    /* Positions built by hand can dump longer than any parsed FEEN. */
    char *heap = malloc(n + 1);
    if (heap == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (FID)");
    koma_feen_write(pos, heap, n + 1);
    koma_fid_of(heap, n, out);
    free(heap);
    return 0;
}

/* Left to right: a bad character wins over a wrong length found later. */
int koma_fid_parse(const char *s, size_t len, koma_error *err)
{
    size_t n = len < KOMA_FID_LEN ? len : KOMA_FID_LEN;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!KOMA_IS_DIGIT(c) && !(c >= 'a' && c <= 'f'))
            return koma__error_token(err, KOMA_E_FID_CHAR, i, NULL, s + i, 1);
    }
    if (len != KOMA_FID_LEN)
        return koma_error_set(err, KOMA_E_FID_LENGTH, n,
                              "FID must be 64 characters, not %zu", len);
    return 0;
}
