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

/* koma_feen_parse flag for tests: skip the fast path (lib/feen.c parse_fast), so
 * the careful parser alone decides; the two must always agree. */
#define KOMA__FEEN_CAREFUL 0x100u

/* lib/feen_quick.c: the verdict alone (KOMA_FEEN_CHECK_ONLY). 1 when s[0..len) is a
 * valid strict FEEN, 0 when the checker cannot tell (the parser decides). The _at
 * forms take the level (at most the machine's): tests compare every level. */
enum { KOMA__FEEN_LEVEL_NONE, KOMA__FEEN_LEVEL_SSE2, KOMA__FEEN_LEVEL_AVX2, KOMA__FEEN_LEVEL_AVX512 };
int koma__feen_level(void);            /* the machine's */
int koma__feen_check(const char *s, size_t len);
int koma__feen_check_at(const char *s, size_t len, int level);
size_t koma__feen_valid_lines_at(const char *s, size_t len, size_t *lines, int level);

/* koma_piece_hand_key, inline for the parsers' inner loops (atoms.c exports it). */
static inline unsigned koma__hand_key(koma_piece p)
{
    unsigned letter = p & KOMA_PIECE_LETTER;
    unsigned second = (p & KOMA_PIECE_SECOND) ? 1u : 0u;
    unsigned state = (p & KOMA_PIECE_DIMINISHED) ? 0u : (p & KOMA_PIECE_ENHANCED) ? 1u : 2u;
    if ((p & KOMA_PIECE_STATE) == KOMA_PIECE_STATE) state = 3u;   /* not a valid piece */
    unsigned terminal = (p & KOMA_PIECE_TERMINAL) ? 1u : 0u;
    unsigned derived = (p & KOMA_PIECE_DERIVED) ? 1u : 0u;
    return ((((letter * 2u + second) * 4u + state) * 2u + terminal) * 2u) + derived;
}

/* koma_error_set with a va_list (the message is the code's text when fmt is NULL);
 * line 1, column offset + 1. Returns -1. */
int koma__error_vset(koma_error *err, koma_code code, size_t offset, const char *fmt,
                     va_list ap);

/* koma_quote, with '"' and '\\' left as they are when escape_quotes is 0 (a
 * message that does not put the text between quotes). */
size_t koma__quote_text(char *dst, size_t cap, const char *s, size_t len, int escape_quotes);

/* strerror(errnum) into buf, thread-safe (strerror_r; strerror may use one
 * buffer for every thread). Returns buf. */
const char *koma__strerror(int errnum, char *buf, size_t cap);

/* Set err with a message "TEXT: \"QUOTED\"" quoting s[0..len). Returns -1. */
int koma__error_token(koma_error *err, koma_code code, size_t offset,
                      const char *text, const char *s, size_t len);

/*
 * Sized structs (koma/version.h, KOMA_SIZED_HAS): a caller's struct that begins
 * with its size is served when that size is a layout this library knows: from
 * `first` (the first layout of this SONAME; when members are appended, it stays
 * the offset of the first one appended) to `full` (sizeof now). -1 with api.size
 * naming `type` otherwise.
 */
int koma__sized_check(size_t size, size_t first, size_t full, const char *type, koma_error *err);
/* An options struct read into the library's own copy out[0..full): its defaults
 * (zero, out's size full) when opt is NULL, else the caller's members and zero
 * for those it does not know. -1 with api.size. */
int koma__sized_read(void *out, size_t full, const void *opt, size_t first, const char *type,
                     koma_error *err);
/* The first layout of each sized struct in this SONAME (a member appended: the
 * offset of the first one appended). */
#define KOMA__VERDICT_FIRST sizeof(koma_verdict)
#define KOMA__REFEREE_OPTIONS_FIRST sizeof(koma_referee_options)
#define KOMA__FORMAT_READER_OPTIONS_FIRST sizeof(koma_format_reader_options)
#define KOMA__CONVERT_OPTIONS_FIRST sizeof(koma_convert_options)
#define KOMA__DIAGRAM_OPTIONS_FIRST sizeof(koma_diagram_options)

/* A constructor's return (libkoma(3), CONVENTIONS): *out gets what expr made;
 * 0, or -1 when it made nothing (expr has set err). */
#define KOMA__MADE(out, expr) ((*(out) = (expr)) != NULL ? 0 : -1)

/* engine.c (the engine's facade), for the referee: */
/* 1 when memory ran out, since the last call, in an engine function that cannot
 * say so (the legal moves, ending or threats of an effect game, which then look
 * like no moves or no threat); clears it. */
int koma__engine_trouble(koma_engine *e);
/* koma_engine_position_ending, told (has_move) that the side to move has a
 * legal move (a move found legal here): no search for one. */
void koma__position_ending(koma_engine *e, koma_ending *out, int has_move);
/* The engine's backend flags (KOMA__ENGINE_*, engine_backend.h). */
unsigned koma__engine_flags(const koma_engine *e);

#endif
