/*
 * koma/version.h — the version of libkoma and of its tools, and what every
 * public header shares: the export macro and the sized structs' check.
 * The one source of the version: the Makefile reads the three numbers from
 * here (the shared library's SONAME too); never type them again.
 * The ABI rules these serve are libkoma(3)'s (Conventions) and lib/README.md's.
 */
#ifndef KOMA_VERSION_H
#define KOMA_VERSION_H

#include <stddef.h>

#define KOMA_VERSION_MAJOR 0
#define KOMA_VERSION_MINOR 2
#define KOMA_VERSION_PATCH 0
/* One number for comparisons: 10000 * major + 100 * minor + patch (0.1.0: 100). */
#define KOMA_VERSION_NUMBER \
    (KOMA_VERSION_MAJOR * 10000L + KOMA_VERSION_MINOR * 100L + KOMA_VERSION_PATCH)
#define KOMA_VERSION_TEXT_(a, b, c) #a "." #b "." #c
#define KOMA_VERSION_TEXT(a, b, c) KOMA_VERSION_TEXT_(a, b, c)
/* "0.1.0" */
#define KOMA_VERSION KOMA_VERSION_TEXT(KOMA_VERSION_MAJOR, KOMA_VERSION_MINOR, KOMA_VERSION_PATCH)

/* What libkoma exports: every public function is declared with it (only
 * koma_* names leave the shared library). */
#if defined(__GNUC__) && !defined(KOMA_STATIC_BUILD)
#define KOMA_API __attribute__((visibility("default")))
#else
#define KOMA_API
#endif

/* A function whose failure must not go unnoticed (its result is the error). */
#if defined(__GNUC__)
#define KOMA_NODISCARD __attribute__((warn_unused_result))
#else
#define KOMA_NODISCARD
#endif

/*
 * A sized struct (koma_verdict, the option structs) begins with `size_t size`,
 * the size the caller was built with, set by the struct's _INIT macro. Members
 * are only ever appended, so that a library newer than the caller serves the
 * members the caller knows; KOMA_SIZED_HAS says whether a struct p of type t,
 * as the caller sized it, holds member m.
 */
#define KOMA_SIZED_HAS(p, t, m) (offsetof(t, m) + sizeof(((t *)0)->m) <= (p)->size)

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version as KOMA_VERSION_NUMBER gives it, and as text
 * ("0.1.0"): a program compares them with the header's it was built with. Ownership: none. */
KOMA_API long koma_version(void);
/* Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_version_string(void);

#ifdef __cplusplus
}
#endif
#endif
