/*
 * lib/fmt_kakinoki.h — what KIF and KI2 (the Kakinoki formats, after the Kifu for
 * Windows program that defined them) share, internal to libkoma: the text's
 * encoding, header lines, the board diagram (BOD), the handicap (手合割),
 * comments (*) and bookmarks (&), variations (変化：N手), the ending words and
 * the closing "まで N手で..." line, piece and square names; a reader that walks
 * the lines and hands each move line to its format, and a writer that prints
 * everything but the moves. lib/fmt_kif.c and lib/fmt_ki2.c give the moves.
 */
#ifndef KOMA_FMT_KAKINOKI_H
#define KOMA_FMT_KAKINOKI_H

#include <string.h>

#include "format_internal.h"
#include "record_internal.h"

/* ---- characters ------------------------------------------------------------------ */

/* The length of the UTF-8 literal lit when s[0..n) starts with it, else 0 (inline:
 * the readers try a dozen literals a move, whose lengths the compiler knows). */
static inline size_t koma__kakinoki_lit(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && s[0] == lit[0] && memcmp(s, lit, k) == 0 ? k : 0;
}
/* Bytes of blanks (space, tab, U+3000) at the start of s[0..n). */
size_t koma__kakinoki_blanks(const char *s, size_t n);
/* A digit 1-9, ASCII or full-width (１..９): its value and *used bytes; 0 when none. */
int koma__kakinoki_digit(const char *s, size_t n, size_t *used);
/* A kanji numeral 一..九: its value and *used; 0 when none. */
int koma__kakinoki_kanji_digit(const char *s, size_t n, size_t *used);
/* A decimal number (ASCII or full-width digits): *used bytes; -1 when none. */
long long koma__kakinoki_number(const char *s, size_t n, size_t *used);
/* Display columns of UTF-8 text (characters of 3 or more bytes count 2). */
size_t koma__kakinoki_width(const char *s, size_t n);

/* A piece name as moves write it (歩 .. 龍, 成香, 成桂, 成銀, also 杏 圭 全 竜 王):
 * the kind (first player's case) and *used; NONE when none. */
koma_piece koma__kakinoki_piece(const char *s, size_t n, size_t *used);
/* The name moves use ("成香"), and the one-character name of diagrams ("杏"). */
const char *koma__kakinoki_piece_name(koma_piece kind);
const char *koma__kakinoki_piece_char(koma_piece kind);
/* A destination: 同 (then blanks) -> *same = 1; or a digit and a kanji numeral
 * (７六). *used bytes; -1 when neither. */
int koma__kakinoki_square(const char *s, size_t n, koma_sq *sq, int *same, size_t *used);
/* The destination as written: "同　" or "７六". */
int koma__kakinoki_put_square(koma_buffer *o, const koma_shogi_move *m, koma_error *err);

/* ---- the reader ---------------------------------------------------------------------- */

typedef struct kk_reader kk_reader;

/* What a format gives the shared reader. */
typedef struct kk_syntax {
    const char *name;              /* "kif", "ki2": source format, messages */
    int ki2;                       /* 1: the まで line says the ending, moves carry ▲△ */
    /* 1 when s[0..n) (a line, blanks kept) is a move line of this format */
    int (*is_move_line)(const char *s, size_t n);
    /* read one move line */
    int (*move_line)(kk_reader *d, const char *s, size_t n);
} kk_syntax;

/* Read one record: s[0..len) as the input holds it (Shift_JIS or UTF-8, see
 * fmt_kakinoki.c), line its first line in the input. */
int koma__kakinoki_read(const kk_syntax *syn, koma_hub *h, const char *s, size_t len, unsigned long line,
                  koma_shogi_record *r, koma_error *err);

/* For move_line: the line being read and its number in the line of play (the
 * next ply); set an error at a byte of the current line. */
koma_shogi_line *koma__kakinoki_current(kk_reader *d, size_t *next_ply);
int koma__kakinoki_fail(kk_reader *d, const char *at, koma_code code, const char *msg, const char *tok, size_t n);
/* Where a byte of the current line is (for koma_shogi_move.line/column). */
void koma__kakinoki_where(kk_reader *d, const char *at, unsigned long *line, unsigned long *column);
/* Append a move (read at `at`) to the current line, which must not have
 * ended (its strings are owned by the line after). */
koma_shogi_move *koma__kakinoki_push(kk_reader *d, const char *at, const koma_shogi_move *m);
/* The ending word at s[0..n) (投了, 中断 ...) for the current line, which must
 * have no ending yet; side (-1: none) the side the line names before the word,
 * from where the side starts ("先手 反則負け": the word is said of that side;
 * from is s when no side is named). */
int koma__kakinoki_end_word(kk_reader *d, const char *from, const char *s, size_t n, int side, long long elapsed,
                            long long total);
/* The word of the current line's ending and *ply its move number, or NULL
 * while the line has not ended. */
const char *koma__kakinoki_ended(kk_reader *d, size_t *ply);
/* A side named (先手 or 下手 the first player, 後手 or 上手 the second): *used
 * bytes; -1 when none. */
int koma__kakinoki_side(const char *s, size_t n, size_t *used);
/* The side to move at the start (KI2: the first move's mark says it when no
 * diagram line did). */
void koma__kakinoki_first_side(kk_reader *d, int side);

/* Splitting several records in one input (cat *.kif): a record ends before a
 * header line that follows moves. */
int koma__kakinoki_split(const kk_syntax *syn, const char *s, size_t len, int at_end, koma__enc forced, size_t *rec_len,
                   size_t *used);

/* ---- the writer ---------------------------------------------------------------------- */

typedef struct kk_writer kk_writer;

typedef struct kk_wsyntax {
    const char *name;              /* "KIF", "KI2": messages */
    const kk_syntax *syntax;       /* how it reads (what a header line must read back as) */
    const char *declaration;       /* "#KIF version=2.0 encoding=", "#KI2 ..." */
    const char *moves_header;      /* "手数----指手---------消費時間--" or NULL */
    /* the moves of a line of play and its ending word (not the まで line) */
    int (*write_line)(kk_writer *w, const koma_shogi_line *l, size_t first, koma_buffer *o,
                      koma_error *err);
} kk_wsyntax;

/* Flags of the KIF and KI2 writers (koma_format_writer flags). */
int koma__kakinoki_write(const kk_wsyntax *syn, koma_hub *h, const koma_shogi_record *r, unsigned flags,
                   koma_buffer *out, koma_error *err);

/* For write_line: the side to move before ply `ply` of the record; the
 * mover's total time before it, as the writer keeps it (KIF). */
int koma__kakinoki_mover(const kk_writer *w, size_t ply);
long long *koma__kakinoki_running(kk_writer *w);
/* 1 when the record was read from a file of format fmt ("kif": meta.source). */
int koma__kakinoki_read_from(const kk_writer *w, const char *fmt);
/* The word of an ending (投了, 中断, ... or its text). */
const char *koma__kakinoki_end_word_of(const koma_shogi_ending *e);
/* Comment lines (*) and bookmark lines (&) of a move or an ending. */
int koma__kakinoki_put_comment(koma_buffer *o, const char *comment, const char *bookmark, koma_error *err);

#endif
