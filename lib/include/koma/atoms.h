/* koma/atoms.h — the one-token notations: PIN, EPIN, SIN, SNN, QPI. */
#ifndef KOMA_ATOMS_H
#define KOMA_ATOMS_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A piece identity (EPIN) packed in 16 bits; 0 means "no piece" (an empty square).
 *   bits 0-4  letter, 1 = A/a ... 26 = Z/z
 *   bit  5    second player (lowercase)
 *   bit  6    enhanced state  '+'
 *   bit  7    diminished state '-'
 *   bit  8    terminal '^'
 *   bit  9    derived style "'"
 */
typedef uint16_t koma_piece;

#define KOMA_PIECE_NONE       0x0000u
#define KOMA_PIECE_LETTER     0x001Fu
#define KOMA_PIECE_SECOND     0x0020u
#define KOMA_PIECE_ENHANCED   0x0040u
#define KOMA_PIECE_DIMINISHED 0x0080u
#define KOMA_PIECE_STATE      (KOMA_PIECE_ENHANCED | KOMA_PIECE_DIMINISHED)
#define KOMA_PIECE_TERMINAL   0x0100u
#define KOMA_PIECE_DERIVED    0x0200u
#define KOMA_PIECE_MASK       0x03FFu

#define KOMA_EPIN_MAX_LEN 4            /* "+K^'" */
#define KOMA_EPIN_BUF (KOMA_EPIN_MAX_LEN + 1)

enum { KOMA_FIRST = 0, KOMA_SECOND = 1 };

/* 'A'..'Z' or 'a'..'z' -> piece of that letter and side, normal state. */
static inline koma_piece koma_piece_from_letter(char c)
{
    if (c >= 'A' && c <= 'Z') return (koma_piece)(c - 'A' + 1);
    if (c >= 'a' && c <= 'z') return (koma_piece)((c - 'a' + 1) | KOMA_PIECE_SECOND);
    return KOMA_PIECE_NONE;
}
static inline int koma_piece_side(koma_piece p) { return (p & KOMA_PIECE_SECOND) ? KOMA_SECOND : KOMA_FIRST; }
/* The letter with its case: 'K' or 'k'. */
static inline char koma_piece_letter(koma_piece p)
{
    return (char)(((p & KOMA_PIECE_SECOND) ? 'a' : 'A') + (int)(p & KOMA_PIECE_LETTER) - 1);
}
/* The same identity on the other side. */
static inline koma_piece koma_piece_flip(koma_piece p) { return (koma_piece)(p ^ KOMA_PIECE_SECOND); }

/*
 * Total order of hand items of equal multiplicity (koma-formats(5), FEEN,
 * Hands: the keys after the count):
 * letter, uppercase first, '-' < '+' < none, terminal absent first,
 * derived absent first. a < b  <=>  key(a) < key(b).
 * Ownership: none.
 */
KOMA_API unsigned koma_piece_hand_key(koma_piece p);

/* PIN: [+-]?[A-Za-z]^? exactly. Ownership: none. */
KOMA_API int koma_pin_parse(const char *s, size_t len, koma_piece *out, koma_error *err);
/* EPIN: PIN followed by an optional "'". Ownership: none. */
KOMA_API int koma_epin_parse(const char *s, size_t len, koma_piece *out, koma_error *err);
/*
 * Greedy scan of one EPIN token at the start of s[0..len) (prefix, letter, '^', "'"
 * in that order); returns bytes consumed, or 0 when no token starts there.
 * Ownership: none.
 */
KOMA_API size_t koma_epin_scan(const char *s, size_t len, koma_piece *out);
/* Canonical EPIN text (NUL-terminated); returns its length (0 for NONE). Ownership: none. */
KOMA_API size_t koma_epin_write(koma_piece p, char buf[KOMA_EPIN_BUF]);

/* SIN: one ASCII letter. Ownership: none. */
KOMA_API int koma_sin_parse(const char *s, size_t len, char *out, koma_error *err);

/* SNN: [A-Z][A-Za-z]*[0-9]*, at most 32 bytes. out gets a NUL-terminated copy. */
#define KOMA_SNN_MAX_LEN 32
/* Ownership: none. */
KOMA_API int koma_snn_parse(const char *s, size_t len, char out[KOMA_SNN_MAX_LEN + 1],
                            koma_error *err);

/* QPI: SIN ':' PIN, both of the same side, no derivation marker. */
typedef struct koma_qpi {
    char style;                    /* SIN letter, case = side */
    koma_piece piece;              /* PIN (never DERIVED) */
} koma_qpi;
#define KOMA_QPI_MAX_LEN 5             /* "C:+K^" */
#define KOMA_QPI_BUF (KOMA_QPI_MAX_LEN + 1)
/* Ownership: none. */
KOMA_API int koma_qpi_parse(const char *s, size_t len, koma_qpi *out, koma_error *err);
/* Ownership: none. */
KOMA_API size_t koma_qpi_write(const koma_qpi *q, char buf[KOMA_QPI_BUF]);

#ifdef __cplusplus
}
#endif
#endif
