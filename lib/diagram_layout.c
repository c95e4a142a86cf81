/*
 * lib/diagram_layout.c — what every diagram form needs (koma/diagram.h): the
 * output that remembers its first failure, UTF-8 widths, the last move's squares,
 * the hands in display order, piece names from the game definition, coordinate
 * labels. The text forms are diagram.c's, the SVG form diagram_svg.c's; both
 * call this module, which calls neither.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "game_internal.h"
#include "diagram_internal.h"

/* ---- output --------------------------------------------------------------------- */

int koma__dgm_put(koma__dgm_out *o, const char *s, size_t len)
{
    if (o->failed) return -1;
    if (len == 0) return 0;
    if ((o->stopped = o->write(o->ctx, s, len)) != 0) {
        o->failed = 1;
        return koma_error_set(o->err, KOMA_E_IO_WRITE, 0, "cannot write the diagram");
    }
    return 0;
}

int koma__dgm_puts(koma__dgm_out *o, const char *s) { return koma__dgm_put(o, s, strlen(s)); }

int koma__dgm_printf(koma__dgm_out *o, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf) {
        o->failed = 1;
        return koma_error_set(o->err, KOMA_E_INTERNAL, 0, "diagram line too long");
    }
    return koma__dgm_put(o, buf, (size_t)n);
}

/* ---- UTF-8 -------------------------------------------------------------------------- */

/* The code point at s[*i], advancing *i; -1 (advancing one byte) for malformed
 * UTF-8: a bad lead or continuation byte, a truncated, overlong or surrogate form. */
static int utf8_next(const char *s, size_t len, size_t *i, unsigned *cp)
{
    static const unsigned min[] = {0, 0x80, 0x800, 0x10000};
    unsigned char c = (unsigned char)s[*i];
    unsigned v, need;
    if (c < 0x80) { v = c; need = 0; }
    else if ((c & 0xE0) == 0xC0) { v = c & 0x1Fu; need = 1; }
    else if ((c & 0xF0) == 0xE0) { v = c & 0x0Fu; need = 2; }
    else if ((c & 0xF8) == 0xF0) { v = c & 0x07u; need = 3; }
    else goto bad;
    if (*i + need >= len) goto bad;
    for (unsigned k = 1; k <= need; k++) {
        unsigned char d = (unsigned char)s[*i + k];
        if ((d & 0xC0) != 0x80) goto bad;
        v = (v << 6) | (d & 0x3Fu);
    }
    if (v < min[need] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) goto bad;
    *i += need + 1;
    *cp = v;
    return 0;
bad:
    (*i)++;
    *cp = 0xFFFDu;
    return -1;
}

static unsigned next_cp(const char *s, size_t len, size_t *i)
{
    unsigned cp;
    utf8_next(s, len, i, &cp);
    return cp;
}

/* 1 when the code point takes two terminal columns (East Asian Wide/Fullwidth). */
static int wide(unsigned cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
           (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
           (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
           (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

size_t koma__dgm_width(const char *s, size_t len)
{
    size_t i = 0, w = 0;
    while (i < len) w += wide(next_cp(s, len, &i)) ? 2 : 1;
    return w;
}

size_t koma__dgm_chars(const char *s, size_t len)
{
    size_t i = 0, n = 0;
    while (i < len) {
        next_cp(s, len, &i);
        n++;
    }
    return n;
}

/* A caption: valid UTF-8 without control characters. */
static int caption_ok(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned cp;
        if (utf8_next(s, len, &i, &cp) != 0) return 0;
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029) return 0;
    }
    return 1;
}

/* ---- the prepared position ------------------------------------------------------------ */

/* Where the text of cell c is in the element s[0..len): the origin is its first
 * occurrence, the destination its last (the error then points at it). */
static size_t cell_offset(const koma_cell *c, const char *s, size_t len, int last)
{
    char text[KOMA_CELL_BUF];
    size_t n = koma_cell_write(c, text), at = 0;
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, text, n) == 0) {
            at = i;
            if (!last) break;
        }
    return at;
}

static int add_mark(koma__dgm *d, const koma_cell *c, int kind, const char *s, size_t len,
                    size_t at, koma_error *err)
{
    if (c->ndims == 0) return 0;
    uint32_t sq;
    if (koma_shape_square(&d->pos->shape, c, &sq, err) != 0) {
        koma_error_shift(err, at + cell_offset(c, s, len, kind == KOMA__MARK_TO));
        return -1;
    }
    for (unsigned i = 0; i < d->nmarks; i++)
        if (d->mark_sq[i] == sq) {
            if (kind > d->mark_kind[i]) d->mark_kind[i] = (unsigned char)kind;
            return 0;
        }
    if (d->nmarks >= KOMA__DGM_MAX_MARKS)
        return koma_error_set(err, KOMA_E_PMN_LENGTH, at, "last move names more than %d squares",
                              KOMA__DGM_MAX_MARKS);
    d->mark_sq[d->nmarks] = sq;
    d->mark_kind[d->nmarks++] = (unsigned char)kind;
    return 0;
}

/* The squares of the last move: those of every element of a chain (koma/pmn.h). */
static int parse_last_move(koma__dgm *d, const char *s, size_t len, koma_error *err)
{
    koma_chain c;
    if (koma_chain_parse(s, len, &c, err) != 0) return -1;
    for (size_t i = 0; i < c.len; i++) {
        size_t at = c.at[i], end = i + 1 < c.len ? c.at[i + 1] - 1 : len;
        if (add_mark(d, &c.el[i].src, KOMA__MARK_FROM, s + at, end - at, at, err) != 0 ||
            add_mark(d, &c.el[i].dst, KOMA__MARK_TO, s + at, end - at, at, err) != 0)
            return -1;
    }
    return 0;
}

/* The style letter of p's variant: its side's, the other side's when p has "'". */
static char piece_style(const koma_position *pos, koma_piece p)
{
    int side = koma_piece_side(p);
    if (p & KOMA_PIECE_DERIVED) side = !side;
    return (char)(pos->style[side] & ~0x20);
}

/*
 * The label naming p, or -1. A name keyed by QPI (Sanki: "W:K^") is for the pieces
 * of its style: p's own first, then p without its state marker (Sanki's markers
 * are not promotions), then without "'", each of p's side and then of the other
 * (a style whose two sides share their names needs one key). Else the names
 * keyed by EPIN, as koma_game_kanji finds them.
 */
static int label_of(const koma_game *g, const koma_position *pos, koma_piece p)
{
    if (g == NULL || p == KOMA_PIECE_NONE) return -1;
    koma_piece base = (koma_piece)(p & KOMA_PIECE_MASK);
    char st = piece_style(pos, p);
    const koma_piece tries[3] = {base, (koma_piece)(base & ~KOMA_PIECE_STATE),
                                 (koma_piece)(base & ~(KOMA_PIECE_STATE | KOMA_PIECE_DERIVED))};
    for (int t = 0; t < 3; t++)
        for (int flip = 0; flip < 2; flip++) {
            koma_piece q = flip ? (koma_piece)(tries[t] ^ KOMA_PIECE_SECOND) : tries[t];
            for (unsigned i = 0; i < g->nlabels; i++)
                if (g->labels[i].style == st && g->labels[i].piece == q) return (int)i;
        }
    koma_piece key = (koma_piece)(base & ~KOMA_PIECE_SECOND);
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < g->nlabels; i++)
            if (g->labels[i].style == 0 && g->labels[i].piece == key) return (int)i;
        if (!(key & KOMA_PIECE_DERIVED)) break;
        key = (koma_piece)(key & ~KOMA_PIECE_DERIVED);    /* a marker the game does not name */
    }
    return -1;
}

/* Where p comes in the game's kanji order (pieces it does not name last). */
static unsigned display_rank(const koma__dgm *d, koma_piece p)
{
    int i = label_of(d->g, d->pos, p);
    return i < 0 ? KOMA__MAX_LABELS : (unsigned)i;
}

static int prepare_hand(koma__dgm *d, int side, koma_error *err)
{
    const koma_hand *h = &d->pos->hands[side];
    d->nhand[side] = 0;
    if (h->len == 0) return 0;
    koma_hand_item *items = malloc(h->len * sizeof *items);
    if (items == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (diagram)");
    /* insertion sort, stable: hands are short and already in hand-key order */
    for (size_t i = 0; i < h->len; i++) {
        koma_hand_item it = h->items[i];
        unsigned r = display_rank(d, it.piece);
        size_t j = i;
        while (j > 0 && display_rank(d, items[j - 1].piece) > r) {
            items[j] = items[j - 1];
            j--;
        }
        items[j] = it;
    }
    d->hand[side] = items;
    d->nhand[side] = h->len;
    return 0;
}

int koma__dgm_init(koma__dgm *d, const koma_position *pos, const koma_game *g,
                   const koma_diagram_options *opt, koma_error *err)
{
    memset(d, 0, sizeof *d);
    d->pos = pos;
    d->g = g;
    d->opt = opt;
    if (pos->shape.ndims < 1 || pos->shape.ndims > 2)
        return koma_error_set(err, KOMA_E_DIAGRAM_SHAPE, 0,
                              "a %u-dimensional board cannot be drawn", (unsigned)pos->shape.ndims);
    d->files = pos->shape.size[0];
    d->ranks = pos->shape.ndims >= 2 ? pos->shape.size[1] : 1u;
    d->shogi = g != NULL && g->coords == KOMA__COORDS_SHOGI;
    d->points = g != NULL && g->grid == KOMA__GRID_POINTS;
    if (opt->caption != NULL && !caption_ok(opt->caption, opt->caption_len))
        return koma_error_set(err, KOMA_E_DIAGRAM_CAPTION, 0, "%s",
                              koma_strerror(KOMA_E_DIAGRAM_CAPTION));
    if (opt->last_move != NULL && parse_last_move(d, opt->last_move, opt->last_move_len, err) != 0)
        return -1;
    if (prepare_hand(d, KOMA_FIRST, err) != 0 || prepare_hand(d, KOMA_SECOND, err) != 0) {
        koma__dgm_cleanup(d);
        return -1;
    }
    return 0;
}

void koma__dgm_cleanup(koma__dgm *d)
{
    free(d->hand[0]);
    free(d->hand[1]);
    d->hand[0] = d->hand[1] = NULL;
}

int koma__dgm_mark(const koma__dgm *d, uint32_t square)
{
    for (unsigned i = 0; i < d->nmarks; i++)
        if (d->mark_sq[i] == square) return d->mark_kind[i];
    return KOMA__MARK_NONE;
}

koma_piece koma__dgm_at(const koma__dgm *d, unsigned f, unsigned r)
{
    return d->pos->board[(size_t)r * d->files + f];
}

const char *koma__dgm_kanji(const koma__dgm *d, koma_piece p, char *style)
{
    int i = label_of(d->g, d->pos, p);
    if (style != NULL) *style = i < 0 ? 0 : d->g->labels[i].style;
    return i < 0 ? NULL : d->g->labels[i].text;
}

const char *koma__dgm_name(const koma__dgm *d, koma_piece p, char buf[KOMA_EPIN_BUF])
{
    const char *k = koma__dgm_kanji(d, p, NULL);
    if (k != NULL) return k;
    koma_epin_write((koma_piece)(p & ~KOMA_PIECE_SECOND), buf);
    return buf;
}

/* ---- coordinates -------------------------------------------------------------------- */

void koma__dgm_kanji_number(unsigned n, char buf[KOMA__DGM_LABEL])
{
    static const char *const digit[] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    unsigned h = n / 100 % 10, t = n / 10 % 10, u = n % 10;
    buf[0] = '\0';
    if (h) {
        if (h > 1) strcat(buf, digit[h]);
        strcat(buf, "百");
    }
    if (t) {
        if (t > 1) strcat(buf, digit[t]);
        strcat(buf, "十");
    }
    if (u) strcat(buf, digit[u]);
}

/* ASCII letters and digits as their full-width forms (two columns each). */
static void fullwidth(const char *ascii, char buf[KOMA__DGM_LABEL])
{
    size_t n = 0;
    for (const char *c = ascii; *c && n + 4 < KOMA__DGM_LABEL; c++) {
        unsigned cp = 0xFF00u + (unsigned char)*c - 0x20u;   /* U+FF01.. for '!'.. */
        buf[n++] = (char)(0xE0 | (cp >> 12));
        buf[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[n++] = (char)(0x80 | (cp & 0x3F));
    }
    buf[n] = '\0';
}

/* A number for the Unicode form: one digit full-width, more digits as they are
 * (both two columns up to 99). */
static void wide_number(unsigned n, int unicode, char buf[KOMA__DGM_LABEL])
{
    char ascii[12];
    snprintf(ascii, sizeof ascii, "%u", n);
    if (unicode && n < 10) fullwidth(ascii, buf);
    else snprintf(buf, KOMA__DGM_LABEL, "%s", ascii);
}

void koma__dgm_file_label(const koma__dgm *d, unsigned f, int unicode, char buf[KOMA__DGM_LABEL])
{
    if (d->shogi) {
        wide_number(d->files - f, unicode, buf);
        return;
    }
    koma_cell c;
    memset(&c, 0, sizeof c);
    c.ndims = 1;
    c.idx[0] = (uint8_t)f;
    char letters[KOMA_CELL_BUF];
    koma_cell_write(&c, letters);
    if (unicode && strlen(letters) == 1) fullwidth(letters, buf);
    else snprintf(buf, KOMA__DGM_LABEL, "%s", letters);
}

void koma__dgm_rank_label(const koma__dgm *d, unsigned r, int unicode, char buf[KOMA__DGM_LABEL])
{
    if (d->shogi) {
        if (unicode) koma__dgm_kanji_number(r + 1, buf);
        else if (d->ranks <= 26) snprintf(buf, KOMA__DGM_LABEL, "%c", 'a' + (int)r);
        else snprintf(buf, KOMA__DGM_LABEL, "%u", r + 1);
        return;
    }
    wide_number(d->ranks - r, unicode, buf);
}
