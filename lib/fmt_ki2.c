/*
 * lib/fmt_ki2.c — KI2 records (Kifu for Windows' readable form), read and
 * written through the shogi-world record of koma/record.h. What KI2 shares
 * with KIF is in lib/fmt_kakinoki.c; this module reads and writes the moves:
 *
 *   ▲７六歩 △８四歩 ▲６八銀 △３四歩 ▲５七銀右 △同　歩 ▲２二角成 △４五銀打
 *
 * A move is a side mark (▲ or ☗ for the first player, △ or ☖ for the
 * second; ▼ and ▽ read as ▲ and △), the destination (or 同), the piece
 * before the move, relative marks (右 左 直, 上 引 寄: which of several pieces
 * of that kind moves, in the reading of lib/record_relative.c), 成 or 不成, and
 * 打 for a drop when a piece on the board could have gone there too; several
 * moves a line. KI2 gives no origin: the hub finds it with the move generator
 * (an ambiguous or impossible move is a located convert.move error). The
 * ending is the closing line "まで N手で..." (fmt_kakinoki.c).
 *
 * Written: six moves a line, each padded to twelve columns; the fewest
 * relative marks that tell the origin (koma__srec_annotate), 不成 when
 * promoting was a choice. KI2 has no times: a record with times is not
 * representable (convert.unrepresentable), nor is a move no marks can tell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fmt_kakinoki.h"

static size_t side_mark(const char *s, size_t n, int *side)
{
    size_t k;
    if ((k = koma__kakinoki_lit(s, n, "▲")) || (k = koma__kakinoki_lit(s, n, "☗")) || (k = koma__kakinoki_lit(s, n, "▼"))) {
        *side = KOMA_FIRST;
        return k;
    }
    if ((k = koma__kakinoki_lit(s, n, "△")) || (k = koma__kakinoki_lit(s, n, "☖")) || (k = koma__kakinoki_lit(s, n, "▽"))) {
        *side = KOMA_SECOND;
        return k;
    }
    return 0;
}

static int is_move_line(const char *s, size_t n)
{
    int side;
    size_t b = koma__kakinoki_blanks(s, n);
    return side_mark(s + b, n - b, &side) != 0;
}

static const struct {
    const char *mark;
    unsigned bit;
} marks[] = {
    {"右", KOMA_REL_RIGHT}, {"左", KOMA_REL_LEFT}, {"直", KOMA_REL_STRAIGHT},
    {"上", KOMA_REL_UP},    {"引", KOMA_REL_DOWN}, {"寄", KOMA_REL_SIDEWAYS},
};
#define NMARKS (sizeof marks / sizeof marks[0])

/* One move at s[*i] (after its side mark). */
static int one_move(kk_reader *d, const char *s, size_t n, size_t *i, int side, const char *start)
{
    koma_shogi_move m;
    koma_shogi_move_init(&m);
    m.side = side;
    koma__kakinoki_where(d, start, &m.line, &m.column);
    size_t k, end_guess = *i;
    while (end_guess < n && s[end_guess] != ' ' && s[end_guess] != '\t') end_guess++;
    size_t tokn = end_guess - (size_t)(start - s);
    if (koma__kakinoki_square(s + *i, n - *i, &m.to, &m.same, &k) != 0)
        return koma__kakinoki_fail(d, s + *i, KOMA_E_KI2_MOVE, "expected a square or dou (same)", start, tokn);
    *i += k;
    m.piece = koma__kakinoki_piece(s + *i, n - *i, &k);
    if (m.piece == KOMA_PIECE_NONE) return koma__kakinoki_fail(d, s + *i, KOMA_E_KI2_MOVE, "expected a piece", start, tokn);
    *i += k;
    for (;;) {
        size_t j;
        for (j = 0; j < NMARKS; j++)
            if ((k = koma__kakinoki_lit(s + *i, n - *i, marks[j].mark)) != 0) break;
        if (j == NMARKS) break;
        if (m.relative & marks[j].bit)
            return koma__kakinoki_fail(d, s + *i, KOMA_E_KI2_MOVE, "a relative mark twice", start, tokn);
        m.relative |= marks[j].bit;
        *i += k;
    }
    if ((k = koma__kakinoki_lit(s + *i, n - *i, "成"))) m.promote = KOMA_PROMOTE_YES;
    else if ((k = koma__kakinoki_lit(s + *i, n - *i, "不成"))) m.promote = KOMA_PROMOTE_NO;
    else if ((k = koma__kakinoki_lit(s + *i, n - *i, "生"))) m.promote = KOMA_PROMOTE_NO;
    *i += k;
    if ((k = koma__kakinoki_lit(s + *i, n - *i, "打"))) {
        if (m.promote != KOMA_PROMOTE_UNSAID || m.relative)
            return koma__kakinoki_fail(d, s + *i, KOMA_E_KI2_MOVE, "a drop has no other marks", start, tokn);
        m.drop = 1;
        m.relative = KOMA_REL_DROP;
        m.promote = KOMA_PROMOTE_NO;
        *i += k;
    }
    koma__kakinoki_first_side(d, side);
    return koma__kakinoki_push(d, start, &m) ? 0 : -1;
}

static int move_line(kk_reader *d, const char *s, size_t n)
{
    size_t i = koma__kakinoki_blanks(s, n);
    while (i < n) {
        int side;
        const char *start = s + i;
        size_t k = side_mark(s + i, n - i, &side);
        if (k == 0) return koma__kakinoki_fail(d, s + i, KOMA_E_KI2_MOVE, "expected a side mark (a black or white triangle) before a move", s + i, n - i);
        i += k;
        if (one_move(d, s, n, &i, side, start) != 0) return -1;
        size_t b = koma__kakinoki_blanks(s + i, n - i);
        i += b;
        if (i < n && b == 0 && !side_mark(s + i, n - i, &side))
            return koma__kakinoki_fail(d, s + i, KOMA_E_KI2_MOVE, "unexpected text after a move", s + i, n - i);
    }
    return 0;
}

static const kk_syntax ki2_syntax = {"ki2", 1, is_move_line, move_line};

static int read_ki2(koma_hub *h, void *state, const char *s, size_t len, unsigned long line, koma_shogi_record *r,
                    koma_error *err)
{
    (void)state;
    return koma__kakinoki_read(&ki2_syntax, h, s, len, line, r, err);
}

static int split_ki2(const char *s, size_t len, int at_end, koma__enc forced, size_t *rec_len, size_t *used)
{
    return koma__kakinoki_split(&ki2_syntax, s, len, at_end, forced, rec_len, used);
}

/* ---- writing ------------------------------------------------------------------------ */

static int write_line(kk_writer *w, const koma_shogi_line *l, size_t first, koma_buffer *o, koma_error *err)
{
    koma_buffer t = {0};
    int rc = -1, in_line = 0, on_line = 0;
    for (size_t i = 0; i < l->len; i++) {
        const koma_shogi_move *m = &l->moves[i];
        size_t ply = first + i;
        if (m->elapsed_ms != KOMA_TIME_NONE || m->total_ms != KOMA_TIME_NONE) {
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "KI2 has no times; ply %zu has one (--drop times leaves them out)", ply);
            goto out;
        }
        if (m->relative & KOMA__REL_UNTOLD) {
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                           "ply %zu: no relative marks tell which piece moves (KI2 gives no origin)", ply);
            goto out;
        }
        const char *name = koma__kakinoki_piece_name(m->piece);
        if (name == NULL) {
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "ply %zu: a piece KI2 has no name for", ply);
            goto out;
        }
        t.len = 0;
        if (koma__buf_puts(&t, koma__kakinoki_mover(w, ply) == KOMA_FIRST ? "▲" : "△", err) ||
            (m->same ? koma__buf_puts(&t, "同", err) : koma__kakinoki_put_square(&t, m, err)))
            goto out;
        size_t after_square = t.len;
        if (koma__buf_puts(&t, name, err)) goto out;
        unsigned rel = m->relative;
        if (((rel & KOMA_REL_RIGHT) && koma__buf_puts(&t, "右", err)) ||
            ((rel & KOMA_REL_LEFT) && koma__buf_puts(&t, "左", err)) ||
            ((rel & KOMA_REL_STRAIGHT) && koma__buf_puts(&t, "直", err)) ||
            ((rel & KOMA_REL_UP) && koma__buf_puts(&t, "上", err)) ||
            ((rel & KOMA_REL_DOWN) && koma__buf_puts(&t, "引", err)) ||
            ((rel & KOMA_REL_SIDEWAYS) && koma__buf_puts(&t, "寄", err)))
            goto out;
        if (m->drop) {
            if ((rel & KOMA_REL_DROP) && koma__buf_puts(&t, "打", err)) goto out;
        } else if (m->promote == KOMA_PROMOTE_YES) {
            if (koma__buf_puts(&t, "成", err)) goto out;
        } else if (m->promotable && koma__buf_puts(&t, "不成", err)) {
            goto out;
        }
        /* 同 is followed by an ideographic space when one character follows it (同　歩, 同角成) */
        if (m->same && koma__kakinoki_width(t.data + after_square, t.len - after_square) == 2) {
            if (koma__buf_puts(&t, "\xe3\x80\x80", err)) goto out;
            memmove(t.data + after_square + 3, t.data + after_square, t.len - 3 - after_square);
            memcpy(t.data + after_square, "\xe3\x80\x80", 3);
        }
        if (in_line > 0) {
            /* the previous move padded to 12 columns */
            size_t prev = (size_t)in_line;
            for (size_t k = prev; k < 12; k++)
                if (koma__buf_put(o, " ", 1, err)) goto out;
            if (prev >= 12 && koma__buf_put(o, " ", 1, err)) goto out;
        }
        if (koma__buf_put(o, t.data, t.len, err)) goto out;
        in_line = (int)koma__kakinoki_width(t.data, t.len);
        if (m->comment || m->bookmark || i + 1 == l->len || ++on_line == 6) {
            if (koma__buf_put(o, "\n", 1, err) || koma__kakinoki_put_comment(o, m->comment, m->bookmark, err)) goto out;
            in_line = on_line = 0;
        }
    }
    const koma_shogi_ending *e = &l->end;
    if (e->elapsed_ms != KOMA_TIME_NONE || e->total_ms != KOMA_TIME_NONE) {
        koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "KI2 has no times; the ending has one (--drop times leaves them out)");
        goto out;
    }
    rc = 0;
out:
    koma_buffer_cleanup(&t);
    return rc;
}

static const kk_wsyntax ki2_wsyntax = {"KI2", &ki2_syntax, "#KI2 version=2.0 encoding=", NULL, write_line};

static int write_ki2(koma_hub *h, const koma_shogi_record *r, size_t index, unsigned flags, koma_buffer *out,
                     koma_error *err)
{
    (void)index;
    return koma__kakinoki_write(&ki2_wsyntax, h, r, flags, out, err);
}

/* ---- detection ------------------------------------------------------------------------- */

static int detect_ki2(const char *s, size_t len, int at_end)
{
    (void)at_end;
    /* a line starting with ▲ or △ and a square or 同, in UTF-8 or Shift_JIS */
    for (size_t i = 0; i < len;) {
        const char *e = memchr(s + i, '\n', len - i);
        size_t n = e ? (size_t)(e - (s + i)) : len - i;
        const unsigned char *l = (const unsigned char *)s + i;
        size_t k = 0;
        if (n >= 3 && l[0] == 0xe2 && l[1] == 0x96 && (l[2] == 0xb2 || l[2] == 0xb3)) k = 3;
        else if (n >= 2 && l[0] == 0x81 && (l[1] == 0xa3 || l[1] == 0xa2)) k = 2;
        if (k) {
            const unsigned char *c = l + k;
            size_t m = n - k;
            if ((m >= 3 && c[0] == 0xef && c[1] == 0xbc && c[2] >= 0x91 && c[2] <= 0x99) ||
                (m >= 3 && memcmp(c, "同", 3) == 0) || (m >= 2 && c[0] == 0x82 && c[1] >= 0x50 && c[1] <= 0x58) ||
                (m >= 2 && c[0] == 0x93 && c[1] == 0xaf))
                return 3;
        }
        if (!e) break;
        i += n + 1;
    }
    if (len >= 5 && memcmp(s, "#KI2 ", 5) == 0) return 3;
    return 0;
}

const koma_format koma__fmt_ki2 = {
    .name = "ki2", .aliases = "ki2u", .title = "KI2 records (Kifu for Windows; Shift_JIS, EUC-JP or UTF-8)",
    .kind = KOMA_FORMAT_RECORD, .detect = detect_ki2, .split = split_ki2,
    .read_record = read_ki2, .write_record = write_ki2, .annotate = 1,
};
