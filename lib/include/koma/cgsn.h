/* koma/cgsn.h — CGSN game statuses (koma-formats(5), CGSN): the 14 current names. */
#ifndef KOMA_CGSN_H
#define KOMA_CGSN_H

#include <stddef.h>
#include <koma/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In the order of the specification's table. */
typedef enum koma_status {
    KOMA_STATUS_CHECK,
    KOMA_STATUS_STALE,
    KOMA_STATUS_CHECKMATE,
    KOMA_STATUS_STALEMATE,
    KOMA_STATUS_NOMOVE,
    KOMA_STATUS_BAREKING,
    KOMA_STATUS_MAREKING,
    KOMA_STATUS_INSUFFICIENT,
    KOMA_STATUS_RESIGNATION,
    KOMA_STATUS_ILLEGALMOVE,
    KOMA_STATUS_TIMELIMIT,
    KOMA_STATUS_MOVELIMIT,
    KOMA_STATUS_REPETITION,
    KOMA_STATUS_AGREEMENT
} koma_status;

#define KOMA_STATUS_COUNT 14
#define KOMA_CGSN_MAX_LEN 12           /* "insufficient" */

typedef enum koma_status_class {
    KOMA_STATUS_INFERABLE,         /* FEEN + rule system decide it */
    KOMA_STATUS_EXPLICIT           /* needs history, clocks or a declaration */
} koma_status_class;

/* Exactly one of the 14 lowercase names; else cgsn.unknown at column 1. Ownership: none. */
KOMA_API int koma_cgsn_parse(const char *s, size_t len, koma_status *out, koma_error *err);
/* "checkmate" ...; NULL for a value outside the enum.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_cgsn_name(koma_status st);
/* Ownership: none. */
KOMA_API koma_status_class koma_cgsn_class(koma_status st);

#ifdef __cplusplus
}
#endif
#endif
