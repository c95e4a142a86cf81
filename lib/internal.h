/* lib/internal.h — helpers shared by libkoma modules; not installed, not exported. */
#ifndef KOMA_INTERNAL_H
#define KOMA_INTERNAL_H

#include <stdarg.h>

#include <koma/koma.h>

#define KOMA_IS_LOWER(c) ((c) >= 'a' && (c) <= 'z')
#define KOMA_IS_UPPER(c) ((c) >= 'A' && (c) <= 'Z')
#define KOMA_IS_ALPHA(c) (KOMA_IS_LOWER(c) || KOMA_IS_UPPER(c))
#define KOMA_IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define KOMA_IS_ALNUM(c) (KOMA_IS_ALPHA(c) || KOMA_IS_DIGIT(c))

/* koma_error_set with a va_list (the message is the code's text when fmt is NULL);
 * line 1, column offset + 1. Returns -1. */
int koma__error_vset(koma_error *err, koma_code code, size_t offset, const char *fmt,
                     va_list ap);

/* Set err with a message "TEXT: \"QUOTED\"" quoting s[0..len). Returns -1. */
int koma__error_token(koma_error *err, koma_code code, size_t offset,
                      const char *text, const char *s, size_t len);

#endif
