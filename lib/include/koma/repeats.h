/* koma/repeats.h — a table of positions seen, for finding repetitions.
 *
 * A position is a 64-bit key (an engine hash, or the first 64 bits of an FID);
 * each time one is seen it is noted with a number `where` (the ply after which
 * it occurs, or a line number). The table answers how often a position has
 * occurred so far, and at the end lists the positions seen more than once, in
 * the order of their first occurrence, each with every `where` and, when the
 * caller attached one, its FEEN and FID. The referee (koma/referee.h) keeps one
 * when asked (KOMA_REFEREE_TRACK); koma-repetition-check --fid-only keys one by
 * FID. Memory grows with the occurrences noted; reset keeps it for the next
 * record (a large one is given back).
 */
#ifndef KOMA_REPEATS_H
#define KOMA_REPEATS_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct koma_repeats koma_repeats;

/* Ownership: the caller frees *out with koma_repeats_free. */
KOMA_API int koma_repeats_new(koma_repeats **out, koma_error *err);
/* Ownership: frees t and what it owns. */
KOMA_API void koma_repeats_free(koma_repeats *t);
/* Forget every position (the next record). Ownership: none. */
KOMA_API void koma_repeats_reset(koma_repeats *t);

/* Note an occurrence of position `key` at `where`; *count (may be NULL) gets
 * how many times it has occurred, this one included. -1 with err (memory). Ownership: none. */
KOMA_API int koma_repeats_add(koma_repeats *t, uint64_t key, unsigned long where,
                              unsigned long *count, koma_error *err);

/* Note an occurrence of the position pos at `where`, keyed by the FID of its
 * canonical FEEN with every "'" removed (pos is stripped in place); the second
 * occurrence attaches that FEEN and FID. -1 with err (memory). */
struct koma_position;
/* Ownership: none. */
KOMA_API int koma_repeats_add_position(koma_repeats *t, struct koma_position *pos,
                                       unsigned long where, koma_error *err);

/* Occurrences noted so far (all positions). Ownership: none. */
KOMA_API size_t koma_repeats_total(const koma_repeats *t);

/* Attach the FEEN feen[0..len) and its FID (64 hex digits) to the position
 * `key` (noted before); a position keeps the first FEEN attached. -1 (memory).
 * Ownership: none. */
KOMA_API int koma_repeats_attach_feen(koma_repeats *t, uint64_t key, const char *feen, size_t len,
                                   const char *fid, koma_error *err);

/* A position seen more than once. */
typedef struct koma_repeat {
    uint64_t key;
    unsigned long count;               /* occurrences */
    unsigned long first, last;         /* the first and last `where` */
    const char *feen;                  /* attached FEEN, or NULL */
    const char *fid;                   /* its FID, or NULL */
    uint32_t cursor_;                  /* (for koma_repeats_where) */
} koma_repeat;

/*
 * The positions seen more than once that have a FEEN attached, sorted by their
 * first occurrence: the count into *n; koma_repeats_at gets the i-th. (The
 * table is sorted in place: call after the last koma_repeats_add of a record.)
 * -1 (memory).
 * Ownership: none.
 */
KOMA_API int koma_repeats_list(koma_repeats *t, size_t *n, koma_error *err);
/* Ownership: none. */
KOMA_API void koma_repeats_at(const koma_repeats *t, size_t i, koma_repeat *out);

/* The position `key` (seen at least once): 1 with *out filled, 0 when unknown.
 * Ownership: none. */
KOMA_API int koma_repeats_find(const koma_repeats *t, uint64_t key, koma_repeat *out);

/* The occurrences of a position in order: call with the koma_repeat from
 * koma_repeats_at or _find; each call gives the next `where` (1), or 0 at the end.
 * Ownership: none. */
KOMA_API int koma_repeats_where(const koma_repeats *t, koma_repeat *r, unsigned long *where);

#ifdef __cplusplus
}
#endif
#endif
