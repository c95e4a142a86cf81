/* lib/diagram_internal.h — what the text and SVG diagram writers share: defined in
 * diagram_layout.c, used by diagram.c (text) and diagram_svg.c (SVG). Not installed,
 * not exported. */
#ifndef KOMA_DIAGRAM_INTERNAL_H
#define KOMA_DIAGRAM_INTERNAL_H

#include <stdint.h>
#include <koma/koma.h>

#define KOMA__DGM_MAX_MARKS (2 * KOMA_CHAIN_MAX_ELEMENTS) /* squares a last move shades */
#define KOMA__DGM_LABEL 24             /* a coordinate label, NUL included */

enum { KOMA__MARK_NONE = 0, KOMA__MARK_FROM = 1, KOMA__MARK_TO = 2 };

/* The output: every write goes through put; the first failure sticks. */
typedef struct koma__dgm_out {
    koma_write_fn write;
    void *ctx;
    koma_error *err;
    int failed;
    int stopped;                       /* write's non-zero value, returned by the call */
} koma__dgm_out;

int koma__dgm_put(koma__dgm_out *o, const char *s, size_t len);
int koma__dgm_puts(koma__dgm_out *o, const char *s);
int koma__dgm_printf(koma__dgm_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A position prepared for drawing. */
typedef struct koma__dgm {
    const koma_position *pos;
    const koma_game *g;                /* may be NULL */
    const koma_diagram_options *opt;
    unsigned files, ranks;             /* a 1-D board is one rank */
    int shogi;                         /* shogi-style coordinates */
    int points;                        /* pieces on the points of a go board */
    uint32_t mark_sq[KOMA__DGM_MAX_MARKS];
    unsigned char mark_kind[KOMA__DGM_MAX_MARKS];
    unsigned nmarks;
    koma_hand_item *hand[2];           /* display order: the game's kanji order first */
    size_t nhand[2];
} koma__dgm;

int koma__dgm_init(koma__dgm *d, const koma_position *pos, const koma_game *g,
                   const koma_diagram_options *opt, koma_error *err);
void koma__dgm_cleanup(koma__dgm *d);

/* KOMA__MARK_* of a square (a destination wins over an origin). */
int koma__dgm_mark(const koma__dgm *d, uint32_t square);
/* The piece at file f (0 = left) of row r (0 = top). */
koma_piece koma__dgm_at(const koma__dgm *d, unsigned f, unsigned r);
/* The name the game gives p in this position (diagram_layout.c: label_of), or NULL;
 * style (may be NULL): the style letter the name is keyed by, 0 for any. */
const char *koma__dgm_kanji(const koma__dgm *d, koma_piece p, char *style);
/* The name drawn on p: its kanji, else its EPIN token in the first player's case. */
const char *koma__dgm_name(const koma__dgm *d, koma_piece p, char buf[KOMA_EPIN_BUF]);
/* Coordinate labels of file f (0 = left) and row r (0 = top): ASCII when !kanji,
 * else the Unicode forms (kanji numerals for shogi ranks, full-width letters and
 * digits where they keep two columns). */
void koma__dgm_file_label(const koma__dgm *d, unsigned f, int unicode, char buf[KOMA__DGM_LABEL]);
void koma__dgm_rank_label(const koma__dgm *d, unsigned r, int unicode, char buf[KOMA__DGM_LABEL]);
/* The kanji numeral of n (1..999). */
void koma__dgm_kanji_number(unsigned n, char buf[KOMA__DGM_LABEL]);
/* Terminal columns of UTF-8 text (East Asian wide characters count 2). */
size_t koma__dgm_width(const char *s, size_t len);
/* Characters (code points) of UTF-8 text. */
size_t koma__dgm_chars(const char *s, size_t len);

int koma__dgm_svg(const koma__dgm *d, koma__dgm_out *o);

#endif
