/*
 * lib/fmt_kif.c — KIF records (Kifu for Windows' format), read and written
 * through the shogi-world record of koma/record.h. What KIF shares with KI2
 * (encoding, headers, board diagram, comments, variations, endings) is in
 * lib/fmt_kakinoki.c; this module reads and writes the numbered move lines:
 *
 *      1 ７六歩(77)   ( 0:02/00:00:02)
 *      2 同　歩(23)   ( 0:05/00:00:05)+
 *     36 ６四角打     ( 8:00/01:40:00)
 *     48 １一香成(15)
 *    143 投了         ( 0:00/00:00:00)
 *
 * A move is its number (the ply, in sequence within its line of play), the
 * destination (or 同 for the previous move's), the piece as it was before the
 * move, 成 (or 不成, read and not written: KIF programs do not all read it),
 * then 打 for a drop or the origin in ASCII digits; then, optionally, the time
 * spent and the mover's total "(M:SS/H:MM:SS)" (M:SS alone, and 81Dojo's empty
 * total "( 0:7/)", are read too; a second time field is kif.time), and "+" when
 * the move has variations. A line with an ending word (投了, 中断, ...) in place
 * of a move ends the line of play; the word may follow the side it is said of
 * ("2 先手 反則負け", Shogi Club 24). A line after the ending is kif.end.
 *
 * Written: the moves as above, aligned as Kifu for Windows aligns them; a
 * time with both parts (a missing total is the mover's running total, a
 * missing time spent the difference of totals), but a record read from KIF
 * keeps a time spent without a total as it was, "( 0:27)"; whole seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fmt_kakinoki.h"

/* ---- reading ------------------------------------------------------------------------ */

static int is_move_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    size_t j = i;
    while (j < n && KOMA_IS_DIGIT(s[j])) j++;
    return j > i && (j == n || s[j] == ' ' || s[j] == '\t' || koma__kakinoki_lit(s + j, n - j, "\xe3\x80\x80"));
}

/* Digits of a time field: the value and *i moved past them; -1 when none. */
static long long digits(const char *s, size_t n, size_t *i)
{
    long long v = 0;
    size_t j = *i;
    while (*i < n && KOMA_IS_DIGIT(s[*i]) && *i - j < 12) v = v * 10 + (s[(*i)++] - '0');
    return *i > j ? v : -1;
}

/* [H:]M:SS into seconds; -1 when not that. */
static long long clock_of(const char *s, size_t n, size_t *i, int parts_max)
{
    long long v[3];
    int k = 0;
    for (;;) {
        while (*i < n && s[*i] == ' ') (*i)++;
        if ((v[k] = digits(s, n, i)) < 0) return -1;
        k++;
        if (k == parts_max || *i >= n || s[*i] != ':') break;
        (*i)++;
    }
    if (k < 2) return -1;
    if (v[k - 1] > 59 || (k == 3 && v[1] > 59)) return -1;
    return k == 3 ? (v[0] * 60 + v[1]) * 60 + v[2] : v[0] * 60 + v[1];
}

/* "( 0:02/00:00:02)" at s[*i]: times in ms (total KOMA_TIME_NONE when not given). */
static int time_field(kk_reader *d, const char *s, size_t n, size_t *i, long long *elapsed, long long *total)
{
    const char *start = s + *i;
    size_t j = *i + 1;
    long long el = clock_of(s, n, &j, 3), tot = KOMA_TIME_NONE;
    if (el < 0) return koma__kakinoki_fail(d, start, KOMA_E_KIF_TIME, "a time is (M:SS/H:MM:SS)", start, n - *i);
    while (j < n && s[j] == ' ') j++;
    if (j < n && s[j] == '/') {
        j++;
        while (j < n && s[j] == ' ') j++;
        if (j < n && s[j] != ')') {
            /* an empty total, "( 0:7/)" (81Dojo), says none */
            tot = clock_of(s, n, &j, 3);
            if (tot < 0) return koma__kakinoki_fail(d, start, KOMA_E_KIF_TIME, "a total time is H:MM:SS", start, n - *i);
            tot *= 1000;
            while (j < n && s[j] == ' ') j++;
        }
    }
    if (j >= n || s[j] != ')') return koma__kakinoki_fail(d, s + j, KOMA_E_KIF_TIME, "a time ends with )", start, n - *i);
    *i = j + 1;
    *elapsed = el * 1000;
    *total = tot;
    return 0;
}

static int move_line(kk_reader *d, const char *s, size_t n)
{
    size_t i = koma__kakinoki_blanks(s, n), k;
    const char *numtok = s + i;
    long long num = koma__kakinoki_number(s + i, n - i, &k);
    size_t next, ended_at;
    koma__kakinoki_current(d, &next);
    const char *ended = koma__kakinoki_ended(d, &ended_at);
    if (ended != NULL) {
        /* "122 投了" then "123 中断": a line of play ends once */
        char msg[160], word[64];
        koma_quote(word, sizeof word, ended, strlen(ended));
        snprintf(msg, sizeof msg, "the line of play already ended at move %zu (%s)", ended_at, word);
        return koma__kakinoki_fail(d, numtok, KOMA_E_KIF_END, msg, numtok, n - (size_t)(numtok - s));
    }
    if (num < 0 || (unsigned long long)num != next) {
        char msg[64];
        snprintf(msg, sizeof msg, "move %zu expected", next);
        return koma__kakinoki_fail(d, numtok, KOMA_E_KIF_NUMBER, msg, numtok, k);
    }
    i += k;
    i += koma__kakinoki_blanks(s + i, n - i);
    koma_shogi_move m;
    koma_shogi_move_init(&m);
    koma__kakinoki_where(d, s + i, &m.line, &m.column);
    const char *mv = s + i;
    /* a side mark some programs put before the move */
    if ((k = koma__kakinoki_lit(s + i, n - i, "▲")) || (k = koma__kakinoki_lit(s + i, n - i, "☗"))) m.side = KOMA_FIRST;
    else if ((k = koma__kakinoki_lit(s + i, n - i, "△")) || (k = koma__kakinoki_lit(s + i, n - i, "☖"))) m.side = KOMA_SECOND;
    i += k;
    int is_move = koma__kakinoki_square(s + i, n - i, &m.to, &m.same, &k) == 0;
    long long elapsed = KOMA_TIME_NONE, total = KOMA_TIME_NONE;
    const char *word = NULL;
    size_t wn = 0;
    int named = -1;
    const char *from = NULL;
    if (is_move) {
        i += k;
        m.piece = koma__kakinoki_piece(s + i, n - i, &k);
        if (m.piece == KOMA_PIECE_NONE) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_MOVE, "expected a piece", mv, n - (size_t)(mv - s));
        i += k;
        if ((k = koma__kakinoki_lit(s + i, n - i, "成"))) m.promote = KOMA_PROMOTE_YES;
        else if ((k = koma__kakinoki_lit(s + i, n - i, "不成"))) m.promote = KOMA_PROMOTE_NO;
        i += k;
        if ((k = koma__kakinoki_lit(s + i, n - i, "打"))) {
            if (m.promote != KOMA_PROMOTE_UNSAID)
                return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_MOVE, "a drop does not promote", mv, n - (size_t)(mv - s));
            m.drop = 1;
            m.promote = KOMA_PROMOTE_NO;
            i += k;
        } else {
            if (!(i + 4 <= n && s[i] == '(' && s[i + 1] >= '1' && s[i + 1] <= '9' && s[i + 2] >= '1' &&
                  s[i + 2] <= '9' && s[i + 3] == ')'))
                return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_MOVE, "expected a drop (uchi) or the origin (FR)", mv, n - (size_t)(mv - s));
            m.from.file = (uint8_t)(s[i + 1] - '0');
            m.from.rank = (uint8_t)(s[i + 2] - '0');
            i += 4;
        }
    } else {
        /* an ending word, after the side it is said of ("先手 反則負け",
         * "先手の反則負け": Shogi Club 24) */
        from = s + i;
        if ((named = koma__kakinoki_side(s + i, n - i, &k)) >= 0) {
            size_t b = koma__kakinoki_blanks(s + i + k, n - i - k), no = 0;
            if (b == 0) no = koma__kakinoki_lit(s + i + k, n - i - k, "の");
            if (b || no) i += k + b + no;
            else named = -1;
        }
        word = s + i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '(' && !koma__kakinoki_lit(s + i, n - i, "\xe3\x80\x80")) i++;
        wn = (size_t)(s + i - word);
        if (wn == 0) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_MOVE, "expected a move or an ending", s, n);
    }
    i += koma__kakinoki_blanks(s + i, n - i);
    if (i < n && s[i] == '(' && time_field(d, s, n, &i, &elapsed, &total) != 0) return -1;
    i += koma__kakinoki_blanks(s + i, n - i);
    if (i < n && s[i] == '(' && elapsed != KOMA_TIME_NONE)
        return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_TIME, "a second time field (a move has one)", s + i, n - i);
    if (i < n && s[i] == '+') i++;      /* "this move has variations": they say so themselves */
    i += koma__kakinoki_blanks(s + i, n - i);
    if (i < n) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_MOVE, "unexpected text after the move", s + i, n - i);
    if (word) return koma__kakinoki_end_word(d, from, word, wn, named, elapsed, total);
    m.elapsed_ms = elapsed;
    m.total_ms = total;
    return koma__kakinoki_push(d, mv, &m) ? 0 : -1;
}

static const kk_syntax kif_syntax = {"kif", 0, is_move_line, move_line};

static int read_kif(koma_hub *h, void *state, const char *s, size_t len, unsigned long line, koma_shogi_record *r,
                    koma_error *err)
{
    (void)state;
    return koma__kakinoki_read(&kif_syntax, h, s, len, line, r, err);
}

static int split_kif(const char *s, size_t len, int at_end, koma__enc forced, size_t *rec_len, size_t *used)
{
    return koma__kakinoki_split(&kif_syntax, s, len, at_end, forced, rec_len, used);
}

/* ---- writing ------------------------------------------------------------------------ */

/* "NNNN " and the move padded to 13 columns, then the time, then "+" */
static int put_timed(koma_buffer *o, const char *text, size_t tn, long long el, long long tot, int plus,
                     koma_error *err)
{
    if (koma__buf_put(o, text, tn, err)) return -1;
    if (el != KOMA_TIME_NONE || plus) {
        size_t w = koma__kakinoki_width(text, tn);
        for (size_t k = w; k < 18; k++)
            if (koma__buf_put(o, " ", 1, err)) return -1;
        if (w >= 18 && koma__buf_put(o, " ", 1, err)) return -1;
    }
    if (el != KOMA_TIME_NONE && tot == KOMA_TIME_NONE) {
        long long e = el / 1000;
        if (koma__buf_printf(o, err, "(%2lld:%02lld)", e / 60, e % 60)) return -1;
    } else if (el != KOMA_TIME_NONE) {
        long long e = el / 1000, t = tot / 1000;
        if (koma__buf_printf(o, err, "(%2lld:%02lld/%02lld:%02lld:%02lld)", e / 60, e % 60, t / 3600, t / 60 % 60,
                             t % 60))
            return -1;
    }
    if (plus && koma__buf_put(o, "+", 1, err)) return -1;
    return koma__buf_put(o, "\n", 1, err);
}

/* 1 when an ending's word, written on a move line, reads back as that word
 * (move_line): not empty, not a side mark or a square first, no blank or '('. */
static int word_reads_back(const char *w)
{
    if (*w == '\0' || koma__kakinoki_lit(w, strlen(w), "▲") || koma__kakinoki_lit(w, strlen(w), "△") ||
        koma__kakinoki_lit(w, strlen(w), "☗") || koma__kakinoki_lit(w, strlen(w), "☖"))
        return 0;
    koma_sq to;
    int same;
    size_t k;
    if (koma__kakinoki_square(w, strlen(w), &to, &same, &k) == 0) return 0;
    for (const char *p = w; *p; p++)
        if (*p == ' ' || *p == '\t' || *p == '(' || *p == '\r' || koma__kakinoki_lit(p, strlen(p), "\xe3\x80\x80"))
            return 0;
    return 1;
}

static int write_line(kk_writer *w, const koma_shogi_line *l, size_t first, koma_buffer *o, koma_error *err)
{
    long long *run = koma__kakinoki_running(w);
    int as_read = koma__kakinoki_read_from(w, "kif");
    koma_buffer t = {0};
    int rc = -1;
    for (size_t i = 0; i < l->len; i++) {
        const koma_shogi_move *m = &l->moves[i];
        size_t ply = first + i;
        const char *name = koma__kakinoki_piece_name(m->piece);
        if (name == NULL) {
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "ply %zu: a piece KIF has no name for", ply);
            goto out;
        }
        t.len = 0;
        if (koma__buf_printf(&t, err, "%4zu ", ply) || koma__kakinoki_put_square(&t, m, err) || koma__buf_puts(&t, name, err) ||
            (m->promote == KOMA_PROMOTE_YES && koma__buf_puts(&t, "成", err)))
            goto out;
        if (m->drop ? koma__buf_puts(&t, "打", err) : koma__buf_printf(&t, err, "(%u%u)", m->from.file, m->from.rank))
            goto out;
        long long el, tot;
        koma__times_both(run, koma__kakinoki_mover(w, ply), m->elapsed_ms, m->total_ms, &el, &tot);
        if (m->total_ms == KOMA_TIME_NONE && as_read) tot = KOMA_TIME_NONE;   /* ( 0:27), as read */
        if (put_timed(o, t.data, t.len, el, tot, m->nforks > 0, err) ||
            koma__kakinoki_put_comment(o, m->comment, m->bookmark, err))
            goto out;
    }
    const koma_shogi_ending *e = &l->end;
    /* an ending whose text is no word (several words, a move's look) is said
     * by the closing まで line alone, unless it has a time to say */
    const char *word = koma__kakinoki_end_word_of(e);
    if (e->code != KOMA_SHOGI_ENDING_NONE && !word_reads_back(word) &&
        (e->elapsed_ms != KOMA_TIME_NONE || e->total_ms != KOMA_TIME_NONE)) {
        koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                       "ply %zu: KIF cannot hold a time for the ending \"%s\"", first + l->len, word);
        goto out;
    }
    if (e->code != KOMA_SHOGI_ENDING_NONE && word_reads_back(word)) {
        size_t ply = first + l->len;
        long long el = KOMA_TIME_NONE, tot = KOMA_TIME_NONE;
        long long keep[2] = {run[0], run[1]};
        koma__times_both(keep, koma__kakinoki_mover(w, ply), e->elapsed_ms, e->total_ms, &el, &tot);
        if (e->total_ms == KOMA_TIME_NONE && as_read) tot = KOMA_TIME_NONE;
        t.len = 0;
        if (koma__buf_printf(&t, err, "%4zu ", ply) || koma__buf_puts(&t, word, err) ||
            put_timed(o, t.data, t.len, el, tot, 0, err))
            goto out;
    }
    rc = 0;
out:
    koma_buffer_cleanup(&t);
    return rc;
}

static const kk_wsyntax kif_wsyntax = {"KIF", &kif_syntax, "#KIF version=2.0 encoding=",
                                       "手数----指手---------消費時間--", write_line};

static int write_kif(koma_hub *h, const koma_shogi_record *r, size_t index, unsigned flags, koma_buffer *out,
                     koma_error *err)
{
    (void)index;
    return koma__kakinoki_write(&kif_wsyntax, h, r, flags, out, err);
}

/* ---- detection ------------------------------------------------------------------------- */

static int detect_kif(const char *s, size_t len, int at_end)
{
    (void)at_end;
    /* 手数---- in UTF-8 or Shift_JIS */
    if (koma__contains(s, len, "\xe6\x89\x8b\xe6\x95\xb0----") || koma__contains(s, len, "\x8e\xe8\x90\x94----")) return 3;
    if (koma__contains(s, len, "#KIF ")) return 3;
    /* a numbered move: "   1 ７六" or "   1 同" */
    for (size_t i = 0; i < len;) {
        const char *e = memchr(s + i, '\n', len - i);
        size_t n = e ? (size_t)(e - (s + i)) : len - i;
        const char *l = s + i;
        size_t j = 0;
        while (j < n && l[j] == ' ') j++;
        size_t k = j;
        while (k < n && KOMA_IS_DIGIT(l[k])) k++;
        if (k > j && k < n && l[k] == ' ') {
            while (k < n && l[k] == ' ') k++;
            const unsigned char *c = (const unsigned char *)l + k;
            size_t m = n - k;
            if ((m >= 3 && c[0] == 0xef && c[1] == 0xbc && c[2] >= 0x91 && c[2] <= 0x99) ||
                (m >= 3 && memcmp(c, "同", 3) == 0) || (m >= 2 && c[0] == 0x82 && c[1] >= 0x50 && c[1] <= 0x58) ||
                (m >= 2 && c[0] == 0x93 && c[1] == 0xaf))
                return 3;
        }
        if (!e) break;
        i += n + 1;
    }
    /* 手合割, or a board diagram with 持駒 lines (BOD, a KIF with no moves), with no ▲△ moves */
    int named = koma__contains(s, len, "\xe6\x89\x8b\xe5\x90\x88\xe5\x89\xb2") ||
                koma__contains(s, len, "\x8e\xe8\x8d\x87\x8a\x84");
    int diagram = koma__contains(s, len, "+---------------------------+") &&
                  (koma__contains(s, len, "\xe6\x8c\x81\xe9\xa7\x92") || koma__contains(s, len, "\x8e\x9d\x8b\xee"));
    if ((named || diagram) && !koma__contains(s, len, "\n\xe2\x96\xb2") && !koma__contains(s, len, "\n\x81\xa3"))
        return 2;
    return 0;
}

const koma_format koma__fmt_kif = {
    .name = "kif", .aliases = "kifu", .title = "KIF records (Kifu for Windows; Shift_JIS, EUC-JP or UTF-8)",
    .kind = KOMA_FORMAT_RECORD, .detect = detect_kif, .split = split_kif,
    .read_record = read_kif, .write_record = write_kif,
};
