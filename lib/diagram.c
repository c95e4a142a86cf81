/*
 * lib/diagram.c — positions as pictures (koma/diagram.h): what every form needs
 * (the last move's squares, the hands in display order, piece names from the game
 * definition, coordinate labels) and the two text forms. The SVG form is
 * diagram_svg.c.
 *
 * Text layout, row by row (the board seen from the first player's side):
 *
 *       9  8  7  6  5  4  3  2  1              shogi-style files (top)
 *     +---------------------------+
 *     | l  n  s  g  k^ g  s  n  l | a   second hand: -
 *     ...
 *     | L  N  S  G  K^ G  S  N  L | i   first hand: 2P
 *     +---------------------------+
 *     first to move
 *
 * CELL-style games put rank numbers on the left and file letters under the frame.
 * The hands stand beside the top rank (second player) and the bottom rank (first
 * player); a hand too long for one line wraps onto the next rows, and lines that
 * do not fit beside the board follow it.
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
    if (o->write(o->ctx, s, len) != 0) {
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

/* Where p comes in the game's kanji order (pieces it does not name last). */
static unsigned display_rank(const koma_game *g, koma_piece p)
{
    koma_piece key = (koma_piece)(p & KOMA_PIECE_MASK & ~KOMA_PIECE_SECOND);
    if (g != NULL)
        for (int pass = 0; pass < 2; pass++) {
            for (unsigned i = 0; i < g->nlabels; i++)
                if (g->labels[i].piece == key) return i;
            if (!(key & KOMA_PIECE_DERIVED)) break;
            key = (koma_piece)(key & ~KOMA_PIECE_DERIVED);
        }
    return KOMA__MAX_LABELS;
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
        unsigned r = display_rank(d->g, it.piece);
        size_t j = i;
        while (j > 0 && display_rank(d->g, items[j - 1].piece) > r) {
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

const char *koma__dgm_name(const koma__dgm *d, koma_piece p, char buf[KOMA_EPIN_BUF])
{
    const char *k = koma_game_kanji(d->g, p);
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

/* ---- text forms ------------------------------------------------------------------------- */

/* A growable line. */
typedef struct line {
    char *s;
    size_t len, cap;
    size_t cols;                       /* terminal columns */
} line;

typedef struct text {
    koma__dgm_out *o;
    koma_error *err;
    int unicode;
    int oom;
} text;

static int line_add(text *t, line *l, const char *s, size_t len)
{
    if (t->oom) return -1;
    if (l->len + len + 1 > l->cap) {
        size_t cap = l->cap ? l->cap : 64;
        while (cap < l->len + len + 1) cap *= 2;
        char *p = realloc(l->s, cap);
        if (p == NULL) {
            t->oom = 1;
            return koma_error_set(t->err, KOMA_E_MEMORY, 0, "out of memory (diagram)");
        }
        l->s = p;
        l->cap = cap;
    }
    memcpy(l->s + l->len, s, len);
    l->len += len;
    l->s[l->len] = '\0';
    l->cols += koma__dgm_width(s, len);
    return 0;
}

static int line_str(text *t, line *l, const char *s) { return line_add(t, l, s, strlen(s)); }

static int line_pad(text *t, line *l, size_t cols)
{
    while (l->cols < cols)
        if (line_add(t, l, " ", 1) != 0) return -1;
    return 0;
}

/* s right-aligned so that it ends at column `end`. */
static int line_right(text *t, line *l, const char *s, size_t end)
{
    size_t w = koma__dgm_width(s, strlen(s));
    if (line_pad(t, l, end > w ? end - w : 0) != 0) return -1;
    if (l->cols > 0 && l->cols + w > end && l->s[l->len - 1] != ' ')
        if (line_add(t, l, " ", 1) != 0) return -1;    /* a label too wide: keep a gap */
    return line_str(t, l, s);
}

/* The text of one board cell. ASCII: state prefix column, letter, suffix columns
 * padded to sw. Unicode: the "v" marker and the name centred in kw columns. */
static int cell_text(text *t, const koma__dgm *d, line *l, koma_piece p, size_t sw, size_t kw)
{
    if (!t->unicode) {
        char tok[KOMA_EPIN_BUF];
        size_t start = l->cols;
        if (p == KOMA_PIECE_NONE) {
            if (line_str(t, l, " .") != 0) return -1;
        } else {
            koma_epin_write(p, tok);
            if (!(p & KOMA_PIECE_STATE) && line_add(t, l, " ", 1) != 0) return -1;
            if (line_str(t, l, tok) != 0) return -1;
        }
        return line_pad(t, l, start + (sw + 2 > 3 ? sw + 2 : 3));
    }
    char buf[KOMA_EPIN_BUF];
    const char *name = p == KOMA_PIECE_NONE ? "・" : koma__dgm_name(d, p, buf);
    size_t w = koma__dgm_width(name, strlen(name));
    size_t start = l->cols;
    if (line_pad(t, l, start + (kw - w) / 2) != 0 ||
        line_str(t, l, (p != KOMA_PIECE_NONE && (p & KOMA_PIECE_SECOND)) ? "v" : " ") != 0 ||
        line_str(t, l, name) != 0)
        return -1;
    return line_pad(t, l, start + 1 + kw);
}

/* One hand as wrapped lines ("second hand: r b 3p" / "☖ hand: 飛 角 歩×3"). */
#define HAND_WRAP 48

static int hand_lines(text *t, const koma__dgm *d, int side, line *out, size_t *n, size_t max)
{
    const char *head = t->unicode ? (side == KOMA_FIRST ? "☗ hand:" : "☖ hand:")
                                  : (side == KOMA_FIRST ? "first hand:" : "second hand:");
    size_t indent = koma__dgm_width(head, strlen(head)) + 1;
    line *l = &out[*n];
    if (line_str(t, l, head) != 0) return -1;
    if (d->nhand[side] == 0) return line_str(t, l, " -") == 0 ? (++*n, 0) : -1;
    for (size_t i = 0; i < d->nhand[side]; i++) {
        const koma_hand_item *it = &d->hand[side][i];
        char item[64], buf[KOMA_EPIN_BUF];
        if (t->unicode) {
            const char *name = koma__dgm_name(d, it->piece, buf);
            if (it->count > 1) snprintf(item, sizeof item, "%s×%lu", name, (unsigned long)it->count);
            else snprintf(item, sizeof item, "%s", name);
        } else {
            koma_epin_write(it->piece, buf);
            if (it->count > 1) snprintf(item, sizeof item, "%lu%s", (unsigned long)it->count, buf);
            else snprintf(item, sizeof item, "%s", buf);
        }
        size_t w = koma__dgm_width(item, strlen(item));
        if (l->cols > indent && l->cols + 1 + w > HAND_WRAP && *n + 1 < max) {
            l = &out[++*n];
            if (line_pad(t, l, indent - 1) != 0) return -1;
        }
        if (line_str(t, l, " ") != 0 || line_str(t, l, item) != 0) return -1;
    }
    ++*n;
    return 0;
}

/* Where the label of file f ends: ASCII, at the letter column; Unicode, centred
 * over the names (a two-column label ends with a one-character cell, as in BOD). */
static size_t label_end(size_t left, unsigned f, size_t cw, size_t kw, int unicode, const char *lab)
{
    size_t start = left + 1 + (size_t)f * cw;
    if (!unicode) return start + 2;
    size_t w = koma__dgm_width(lab, strlen(lab));
    return start + 1 + (kw > w ? (kw - w) / 2 : 0) + w;
}

static int frame(text *t, line *l, size_t left, size_t inner, int top)
{
    if (line_pad(t, l, left) != 0) return -1;
    if (!t->unicode) {
        if (line_str(t, l, "+") != 0) return -1;
        for (size_t i = 0; i < inner; i++)
            if (line_str(t, l, "-") != 0) return -1;
        return line_str(t, l, "+");
    }
    if (line_str(t, l, top ? "┌" : "└") != 0) return -1;
    for (size_t i = 0; i < inner; i++)
        if (line_str(t, l, "─") != 0) return -1;
    return line_str(t, l, top ? "┐" : "┘");
}

static int emit(text *t, line *l)
{
    /* no trailing blanks */
    while (l->len > 0 && l->s[l->len - 1] == ' ') l->len--;
    if (koma__dgm_put(t->o, l->s ? l->s : "", l->len) != 0) return -1;
    return koma__dgm_put(t->o, "\n", 1);
}

static int write_text(const koma__dgm *d, koma__dgm_out *o, int unicode)
{
    text t = {o, o->err, unicode, 0};
    unsigned files = d->files, ranks = d->ranks;
    /* cell geometry */
    size_t sw = 0, kw = 2;
    for (size_t i = 0; i < d->pos->shape.squares; i++) {
        koma_piece p = d->pos->board[i];
        if (p == KOMA_PIECE_NONE) continue;
        size_t s = ((p & KOMA_PIECE_TERMINAL) ? 1 : 0) + ((p & KOMA_PIECE_DERIVED) ? 1 : 0);
        if (s > sw) sw = s;
        char buf[KOMA_EPIN_BUF];
        const char *name = koma__dgm_name(d, p, buf);
        size_t w = koma__dgm_width(name, strlen(name));
        if (w > kw) kw = w;
    }
    size_t cw = unicode ? kw + 1 : (sw + 2 > 3 ? sw + 2 : 3);
    /* ASCII: a blank before the right edge when a suffix could reach it ("a'|") */
    size_t inner = (size_t)files * cw + (!unicode && sw > 0);
    /* CELL style: rank labels on the left */
    size_t left = 0;
    char lab[KOMA__DGM_LABEL];
    if (!d->shogi) {
        for (unsigned r = 0; r < ranks; r++) {
            koma__dgm_rank_label(d, r, unicode, lab);
            size_t w = koma__dgm_width(lab, strlen(lab));
            if (w + 1 > left) left = w + 1;
        }
    }
    size_t rlab = 0;                   /* shogi style: widest rank label on the right */
    if (d->shogi)
        for (unsigned r = 0; r < ranks; r++) {
            koma__dgm_rank_label(d, r, unicode, lab);
            size_t w = koma__dgm_width(lab, strlen(lab));
            if (w > rlab) rlab = w;
        }
    size_t side_col = left + inner + 2 + (d->shogi ? rlab : 0) + 3;   /* where hands start */

    /* the hands, beside the rows: second from the top, first ending at the bottom */
    size_t maxl = d->nhand[0] + d->nhand[1] + 4;
    line *hl = calloc(maxl, sizeof *hl);
    if (hl == NULL) return koma_error_set(o->err, KOMA_E_MEMORY, 0, "out of memory (diagram)");
    size_t nsecond = 0, nfirst = 0;
    int rc = -1;
    line l = {NULL, 0, 0, 0};
    if (hand_lines(&t, d, KOMA_SECOND, hl, &nsecond, maxl) != 0) goto done;
    nfirst = nsecond;
    if (hand_lines(&t, d, KOMA_FIRST, hl, &nfirst, maxl) != 0) goto done;
    nfirst -= nsecond;
    size_t nrows = ranks;              /* rows with hand text; extra ones follow the board */
    size_t first_at = nsecond + nfirst <= ranks ? ranks - nfirst : nsecond;
    if (first_at + nfirst > nrows) nrows = first_at + nfirst;

    if (d->opt->caption != NULL) {
        if (line_add(&t, &l, d->opt->caption, d->opt->caption_len) != 0 || emit(&t, &l) != 0)
            goto done;
        l.len = l.cols = 0;
    }
    if (d->shogi) {                    /* file numbers above the frame */
        for (unsigned f = 0; f < files; f++) {
            koma__dgm_file_label(d, f, unicode, lab);
            if (line_right(&t, &l, lab, label_end(left, f, cw, kw, unicode, lab)) != 0) goto done;
        }
        if (emit(&t, &l) != 0) goto done;
        l.len = l.cols = 0;
    }
    if (frame(&t, &l, left, inner, 1) != 0 || emit(&t, &l) != 0) goto done;
    for (size_t r = 0; r < nrows; r++) {
        l.len = l.cols = 0;
        if (r < ranks) {
            if (!d->shogi) {
                koma__dgm_rank_label(d, (unsigned)r, unicode, lab);
                if (line_right(&t, &l, lab, left - 1) != 0 || line_pad(&t, &l, left) != 0) goto done;
            }
            if (line_str(&t, &l, unicode ? "│" : "|") != 0) goto done;
            for (unsigned f = 0; f < files; f++)
                if (cell_text(&t, d, &l, koma__dgm_at(d, f, (unsigned)r), sw, kw) != 0) goto done;
            if (line_pad(&t, &l, left + 1 + inner) != 0 ||
                line_str(&t, &l, unicode ? "│" : "|") != 0)
                goto done;
            if (d->shogi) {
                koma__dgm_rank_label(d, (unsigned)r, unicode, lab);
                if ((!unicode && line_str(&t, &l, " ") != 0) || line_str(&t, &l, lab) != 0) goto done;
            }
        } else if (r == ranks) {
            if (frame(&t, &l, left, inner, 0) != 0 || emit(&t, &l) != 0) goto done;
            l.len = l.cols = 0;
        }
        const line *h = NULL;
        if (r < nsecond) h = &hl[r];
        else if (r >= first_at && r < first_at + nfirst) h = &hl[nsecond + (r - first_at)];
        if (h != NULL) {
            if (line_pad(&t, &l, side_col) != 0 || line_add(&t, &l, h->s, h->len) != 0) goto done;
        }
        if (emit(&t, &l) != 0) goto done;
    }
    l.len = l.cols = 0;
    if (nrows == ranks && (frame(&t, &l, left, inner, 0) != 0 || emit(&t, &l) != 0)) goto done;
    if (!d->shogi) {                   /* file letters under the frame */
        l.len = l.cols = 0;
        for (unsigned f = 0; f < files; f++) {
            koma__dgm_file_label(d, f, unicode, lab);
            if (line_right(&t, &l, lab, label_end(left, f, cw, kw, unicode, lab)) != 0) goto done;
        }
        if (emit(&t, &l) != 0) goto done;
    }
    l.len = l.cols = 0;
    if (unicode) {
        if (line_str(&t, &l, d->pos->turn == KOMA_FIRST ? "☗ to move" : "☖ to move") != 0) goto done;
    } else if (line_str(&t, &l, d->pos->turn == KOMA_FIRST ? "first to move" : "second to move") != 0) {
        goto done;
    }
    if (emit(&t, &l) != 0) goto done;
    if (d->opt->last_move != NULL) {
        l.len = l.cols = 0;
        if (line_str(&t, &l, "last move: ") != 0 ||
            line_add(&t, &l, d->opt->last_move, d->opt->last_move_len) != 0 || emit(&t, &l) != 0)
            goto done;
    }
    rc = 0;
done:
    free(l.s);
    for (size_t i = 0; i < maxl; i++) free(hl[i].s);
    free(hl);
    return rc;
}

/* ---- the API ------------------------------------------------------------------------------- */

int koma_diagram_write(const koma_position *pos, const koma_game *g,
                       const koma_diagram_options *opt, koma_diagram_write_fn write, void *ctx,
                       koma_error *err)
{
    koma_diagram_options eff;          /* an empty caption or last move is none */
    if (opt != NULL) eff = *opt;
    else memset(&eff, 0, sizeof eff);
    if (eff.caption_len == 0) eff.caption = NULL;
    if (eff.last_move_len == 0) eff.last_move = NULL;
    opt = &eff;
    koma__dgm d;
    if (koma__dgm_init(&d, pos, g, opt, err) != 0) return -1;
    koma__dgm_out o = {write, ctx, err, 0};
    int rc;
    switch (opt->format) {
    case KOMA_DIAGRAM_ASCII: rc = write_text(&d, &o, 0); break;
    case KOMA_DIAGRAM_UNICODE: rc = write_text(&d, &o, 1); break;
    case KOMA_DIAGRAM_SVG: rc = koma__dgm_svg(&d, &o); break;
    default: rc = koma_error_set(err, KOMA_E_INTERNAL, 0, "unknown diagram format"); break;
    }
    koma__dgm_cleanup(&d);
    return rc;
}

typedef struct membuf {
    char *buf;
    size_t cap, len;
} membuf;

static int membuf_write(void *ctx, const char *data, size_t len)
{
    membuf *m = ctx;
    if (m->len < m->cap) {
        size_t room = m->cap - m->len;
        memcpy(m->buf + m->len, data, len < room ? len : room);
    }
    m->len += len;
    return 0;
}

int koma_diagram_print(const koma_position *pos, const koma_game *g,
                       const koma_diagram_options *opt, char *buf, size_t cap, size_t *len,
                       koma_error *err)
{
    membuf m = {buf, cap, 0};
    int rc = koma_diagram_write(pos, g, opt, membuf_write, &m, err);
    if (cap > 0) buf[m.len < cap ? m.len : cap - 1] = '\0';
    if (len != NULL) *len = m.len;
    return rc;
}

static const char *const format_names[] = {"ascii", "unicode", "svg"};

const char *koma_diagram_format_name(koma_diagram_format f)
{
    return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : NULL;
}

int koma_diagram_format_from_name(const char *s, size_t len, koma_diagram_format *out)
{
    for (unsigned i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (strlen(format_names[i]) == len && memcmp(format_names[i], s, len) == 0) {
            *out = (koma_diagram_format)i;
            return 0;
        }
    return -1;
}
