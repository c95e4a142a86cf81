/*
 * lib/record_kiftime.c — time controls as KIF's 持ち時間 text (and JKF's, whose
 * header keys are KIF's): koma's own form, which it writes and reads back as
 * PCN periods alone, and the forms other programs write, read as periods with
 * the text kept as written (koma-formats(5), KIF time controls).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "record_internal.h"

/* ---- koma's own form ---------------------------------------------------------------- */

/* "1時間30分", "45秒": one duration in koma's canonical form (ASCII digits,
 * parts in order, none zero, "0秒" for nothing); ms, or -1. */
static long long duration_in(const char *s, size_t n, size_t *used)
{
    static const struct {
        const char *unit;
        long long ms;
    } units[] = {{"時間", 3600000}, {"分", 60000}, {"秒", 1000}};
    size_t i = 0;
    long long total = 0;
    int any = 0, last = -1;
    for (;;) {
        size_t j = i;
        long long v = 0;
        while (j < n && KOMA_IS_DIGIT(s[j]) && j - i < 9) v = v * 10 + (s[j++] - '0');
        if (j == i || (s[i] == '0' && j - i > 1)) break;
        int u = -1;
        for (int k = 0; k < 3; k++) {
            size_t ul = strlen(units[k].unit);
            if (n - j >= ul && memcmp(s + j, units[k].unit, ul) == 0) {
                u = k;
                j += ul;
                break;
            }
        }
        if (u <= last || (v == 0 && !(u == 2 && !any))) break;
        total += v * units[u].ms;
        any = 1;
        last = u;
        i = j;
    }
    *used = i;
    return any ? total : -1;
}

static int duration_out(long long ms, char *buf, size_t cap)
{
    if (ms < 0 || ms % 1000) return -1;
    long long s = ms / 1000;
    size_t k = 0;
    if (s >= 3600) k += (size_t)snprintf(buf + k, cap - k, "%lld時間", s / 3600);
    if (s / 60 % 60) k += (size_t)snprintf(buf + k, cap - k, "%lld分", s / 60 % 60);
    if (s % 60 || s == 0) k += (size_t)snprintf(buf + k, cap - k, "%lld秒", s % 60);
    return k < cap ? 0 : -1;
}

/* The periods of a main time (with its increment, or none) and a byo-yomi (a
 * period of one ply; none: 0 or less). */
static void periods_set(long long main, long long inc, long long byo, koma_shogi_period *p, size_t *np)
{
    p[0].duration_ms = main;
    p[0].increment_ms = inc;
    p[0].plies = 0;
    *np = 1;
    if (byo > 0) {
        p[1].duration_ms = byo;
        p[1].increment_ms = KOMA_TIME_NONE;
        p[1].plies = 1;
        *np = 2;
    }
}

int koma__kif_periods_in(const char *v, size_t n, int each, koma_shogi_period *p, size_t *np)
{
    size_t i = 0, u;
    if (each) {
        if (n < 3 || memcmp(v, "各", 3) != 0) return 0;
        i = 3;
    }
    long long main = duration_in(v + i, n - i, &u), inc = KOMA_TIME_NONE, byo = -1;
    if (main < 0) return 0;
    i += u;
    static const char plus_inc[] = "+1手", added[] = "加算", plus_byo[] = "+秒読み";
    if (n - i > strlen(plus_inc) && memcmp(v + i, plus_inc, strlen(plus_inc)) == 0) {
        i += strlen(plus_inc);
        inc = duration_in(v + i, n - i, &u);
        if (inc <= 0) return 0;
        i += u;
        if (n - i < strlen(added) || memcmp(v + i, added, strlen(added)) != 0) return 0;
        i += strlen(added);
    }
    if (n - i > strlen(plus_byo) && memcmp(v + i, plus_byo, strlen(plus_byo)) == 0) {
        i += strlen(plus_byo);
        byo = duration_in(v + i, n - i, &u);
        if (byo <= 0) return 0;
        i += u;
    }
    if (i != n) return 0;
    periods_set(main, inc, byo, p, np);
    return 1;
}

int koma__kif_periods_out(const koma_shogi_period *p, size_t n, int each, char *buf, size_t cap)
{
    if (n < 1 || n > 2 || p[0].plies != 0 || (n == 2 && (p[1].plies != 1 || p[1].increment_ms != KOMA_TIME_NONE)))
        return -1;
    size_t k = (size_t)snprintf(buf, cap, "%s", each ? "各" : "");
    if (k >= cap || duration_out(p[0].duration_ms, buf + k, cap - k) != 0) return -1;
    k = strlen(buf);
    if (p[0].increment_ms != KOMA_TIME_NONE) {
        if (p[0].increment_ms <= 0) return -1;
        k += (size_t)snprintf(buf + k, cap - k, "+1手");
        if (k >= cap || duration_out(p[0].increment_ms, buf + k, cap - k) != 0) return -1;
        k = strlen(buf);
        k += (size_t)snprintf(buf + k, cap - k, "加算");
    }
    if (n == 2) {
        if (p[1].duration_ms <= 0) return -1;
        k += (size_t)snprintf(buf + k, cap - k, "+秒読み");
        if (k >= cap || duration_out(p[1].duration_ms, buf + k, cap - k) != 0) return -1;
    }
    return strlen(buf) < cap - 1 ? 0 : -1;
}

/* ---- the forms people write ------------------------------------------------------------- */

typedef struct scan {
    const char *s;
    size_t n, i;
} scan;

/* The word w next: taken (1), or not (0, nothing moved). */
static int word(scan *c, const char *w)
{
    size_t l = strlen(w);
    if (c->n - c->i < l || memcmp(c->s + c->i, w, l) != 0) return 0;
    c->i += l;
    return 1;
}

/* A digit, ASCII or full-width. */
static int digit(scan *c, int *d)
{
    const unsigned char *u = (const unsigned char *)c->s + c->i;
    if (c->i < c->n && KOMA_IS_DIGIT(c->s[c->i])) {
        *d = c->s[c->i++] - '0';
        return 1;
    }
    if (c->n - c->i >= 3 && u[0] == 0xEF && u[1] == 0xBC && u[2] >= 0x90 && u[2] <= 0x99) {
        *d = u[2] - 0x90;
        c->i += 3;
        return 1;
    }
    return 0;
}

/* "1時間30分", "１０分", "30秒", "0秒": numbers with units in order; ms, or -1
 * (nothing taken). */
static long long loose_duration(scan *c)
{
    static const struct {
        const char *unit;
        long long ms;
    } units[] = {{"時間", 3600000}, {"分", 60000}, {"秒", 1000}};
    size_t start = c->i;
    long long total = 0;
    int last = -1;
    for (;;) {
        size_t here = c->i;
        long long v = 0;
        int d, digits = 0;
        while (digits < 6 && digit(c, &d)) {
            v = v * 10 + d;
            digits++;
        }
        int u = -1;
        for (int k = 0; digits && u < 0 && k < 3; k++)
            if (word(c, units[k].unit)) u = k;
        if (u <= last) {
            c->i = here;
            break;
        }
        total += v * units[u].ms;
        last = u;
    }
    if (c->i == start) return -1;
    return total;
}

/* Blanks and the marks that only separate: + ＋ 、 ・ , and spaces. */
static int separator(scan *c)
{
    static const char *const seps[] = {" ", "\t", "\xe3\x80\x80" /* 　 */, "+", "＋", "、", "・", ",", "，"};
    for (size_t k = 0; k < sizeof seps / sizeof seps[0]; k++)
        if (word(c, seps[k])) return 1;
    return 0;
}

int koma__kif_time_in(const char *v, size_t n, koma_shogi_period *p, size_t *np)
{
    scan c = {v, n, 0};
    while (separator(&c)) {}
    word(&c, "各");
    long long main = loose_duration(&c), bare = -1, byo = -1, inc = -1, d;
    if (main < 0) return 0;
    int bare_inc = 0, sudden = 0, depth = 0, took = 0;
    while (c.i < c.n) {
        if (separator(&c) || word(&c, "チェスクロック使用")) continue;
        if (word(&c, "(") || word(&c, "（")) {
            if (depth++) return 0;
        } else if (word(&c, ")") || word(&c, "）")) {
            if (depth-- == 0) return 0;
        } else if (word(&c, "切れ負け")) {
            sudden = 1;
        } else if (word(&c, "切れたら") || word(&c, "使い切ったら") || word(&c, "秒読み")) {
            /* 切れたら1分将棋, 切れたら秒読み30秒, 秒読み60秒 */
            word(&c, "秒読み");
            if ((d = loose_duration(&c)) < 0 || byo >= 0) return 0;
            word(&c, "将棋");
            byo = d;
        } else if (word(&c, "1手") || word(&c, "１手") || word(&c, "一手")) {
            /* 1手ごとに加算 (the duration before it), 1手10秒加算, 1手ごとに10秒加算 */
            if (!word(&c, "ごとに")) word(&c, "毎に");
            d = loose_duration(&c);
            if (!word(&c, "加算")) return 0;
            if (d < 0) bare_inc = 1;
            else if (inc >= 0) return 0;
            else inc = d;
        } else if (word(&c, "加算") || word(&c, "フィッシャー") || word(&c, "Fischer")) {
            bare_inc = 1;
        } else if (!took && (d = loose_duration(&c)) >= 0) {
            /* 10分+30秒: byo-yomi, unless said to be added (加算, フィッシャー);
             * 1分将棋: byo-yomi */
            took = 1;
            if (!word(&c, "将棋")) bare = d;
            else if (byo >= 0) return 0;
            else byo = d;
        } else {
            return 0;
        }
    }
    if (depth) return 0;
    if (bare >= 0 && bare_inc > 0) {
        if (inc >= 0) return 0;
        inc = bare;
    } else if (bare >= 0) {
        if (byo >= 0) return 0;
        byo = bare;
    } else if (bare_inc) {
        return 0;
    }
    if (sudden && byo > 0) return 0;
    periods_set(main, inc > 0 ? inc : KOMA_TIME_NONE, byo, p, np);
    return 1;
}

int koma__kif_periods_said(const koma_shogi_record *r, int side)
{
    static const char *const keys[] = {NULL, KOMA__KIF_FIRST_TIME, KOMA__KIF_SECOND_TIME};
    const char *text = koma_shogi_record_header(r, side == 0 ? KOMA_H_TIME_CONTROL : KOMA_H_OTHER, keys[side]);
    koma_shogi_period p[2];
    size_t np, n = text ? strlen(text) : 0;
    if (text == NULL || r->nperiods[side] == 0 || koma__kif_periods_in(text, n, side == 0, p, &np) ||
        !koma__kif_time_in(text, n, p, &np) || np != r->nperiods[side])
        return 0;
    for (size_t k = 0; k < np; k++) {
        const koma_shogi_period *q = &r->periods[side][k];
        if (q->duration_ms != p[k].duration_ms || q->increment_ms != p[k].increment_ms || q->plies != p[k].plies)
            return 0;
    }
    return 1;
}
