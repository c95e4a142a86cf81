/*
 * lib/diagram.c — positions as pictures (koma/diagram.h): the API and the two
 * text forms. What every form needs (the last move's squares, the hands in display
 * order, piece names from the game definition, coordinate labels) is
 * diagram_layout.c's; the SVG form is diagram_svg.c.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "game_internal.h"
#include "diagram_internal.h"

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
                       const koma_diagram_options *opt, koma_write_fn write, void *ctx,
                       koma_error *err)
{
    koma_diagram_options eff;          /* an empty caption or last move is none */
    if (koma__sized_read(&eff, sizeof eff, opt, KOMA__DIAGRAM_OPTIONS_FIRST, "koma_diagram_options",
                         err) != 0)
        return -1;
    if (eff.caption_len == 0) eff.caption = NULL;
    if (eff.last_move_len == 0) eff.last_move = NULL;
    opt = &eff;
    koma__dgm d;
    if (koma__dgm_init(&d, pos, g, opt, err) != 0) return -1;
    koma__dgm_out o = {write, ctx, err, 0, 0};
    int rc;
    switch (opt->format) {
    case KOMA_DIAGRAM_ASCII: rc = write_text(&d, &o, 0); break;
    case KOMA_DIAGRAM_UNICODE: rc = write_text(&d, &o, 1); break;
    case KOMA_DIAGRAM_SVG: rc = koma__dgm_svg(&d, &o); break;
    default: rc = koma_error_set(err, KOMA_E_INTERNAL, 0, "unknown diagram format"); break;
    }
    koma__dgm_cleanup(&d);
    return rc != 0 && o.stopped != 0 ? o.stopped : rc;
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
