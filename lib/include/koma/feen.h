/* koma/feen.h — FEEN positions and FID fingerprints. */
#ifndef KOMA_FEEN_H
#define KOMA_FEEN_H

#include <stddef.h>
#include <koma/position.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOMA_FEEN_MAX_LEN 4096

/* Parse flags. */
#define KOMA_FEEN_STRICT    0u
/* Accept hands that are not aggregated or not in canonical order (they are
 * normalised in the position); every other rule still applies. */
#define KOMA_FEEN_NORMALISE 1u
/* Only the verdict is wanted (a validator): on success the content of pos is
 * unspecified (most valid lines are then checked without building it); the
 * errors are the same as without the flag. */
#define KOMA_FEEN_CHECK_ONLY 2u

/*
 * Parse s[0..len) into pos (initialised by the caller; its buffers are reused,
 * so one position can parse millions of lines without allocating).
 * Errors carry a feen.* code and the offset of the offending byte (or of the
 * start of the offending token for semantic errors).
 * Ownership: none.
 */
KOMA_API int koma_feen_parse(const char *s, size_t len, unsigned flags,
                             koma_position *pos, koma_error *err);

/*
 * Verdicts in bulk, for a validator: how many bytes of s[0..len) the leading lines
 * take (each line ends in '\n', which is counted) that are each, without their
 * '\n', a valid strict FEEN; *lines gets how many lines that is. It may stop
 * before any line (one it does not decide quickly, such as a 3-D board or a line
 * near the end of s): the caller checks that line with koma_feen_parse and may
 * call again after it. Reads no byte past s[len - 1]; allocates nothing.
 * Ownership: none.
 */
KOMA_API size_t koma_feen_valid_lines(const char *s, size_t len, size_t *lines);

/*
 * Canonical FEEN of pos into buf, snprintf-style: returns the full length and
 * writes at most cap bytes including the NUL.
 * Ownership: none.
 */
KOMA_API size_t koma_feen_write(const koma_position *pos, char *buf, size_t cap);

/* FID: lowercase hex SHA-256 of a canonical FEEN string. */
#define KOMA_FID_LEN 64
#define KOMA_FID_BUF (KOMA_FID_LEN + 1)
/* Hash the bytes as given (the caller guarantees they are canonical FEEN). Ownership: none. */
KOMA_API void koma_fid_of(const char *feen, size_t len, char out[KOMA_FID_BUF]);
/* Dump pos canonically and hash it. Ownership: none. */
KOMA_API int koma_position_fid(const koma_position *pos, char out[KOMA_FID_BUF], koma_error *err);
/* Check that s is a well-formed FID (64 lowercase hex digits). Ownership: none. */
KOMA_API int koma_fid_parse(const char *s, size_t len, koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
