/*
 * lib/fmt_csa.c — CSA records (V2, V2.1, V2.2, V3.0), read and written through
 * the shogi-world record of koma/record.h.
 *
 * Reading: records are separated by "/" lines. A record is in the encoding
 * its first line declares ("'CSA encoding=UTF-8" (V3.0) or "'encoding=...",
 * which applies to the following records of the file too) when its bytes are
 * valid in it; else in the first of UTF-8, EUC-JP (older computer-shogi
 * records) and Shift_JIS (CP932) in which they are, with a warning when that
 * contradicts a declaration (decode); the caller may impose one (ASCII is all
 * of them). Statements may share a line, separated by ',' (not N, $ and '
 * lines). Comment lines (') attach to the move (or special move) they follow;
 * those before the first move are the setup's comment. The initial position
 * is PI (the even game, minus the pieces listed: handicaps), P1..P9 rank
 * lines, P+/P- piece lists with 00 (a hand) and 00AL (every piece not placed
 * yet, kings excepted), then the side to move (+ or -). Moves name the piece
 * after the move (a promotion shows as TO, UM...). T gives a move's time in
 * seconds (V3.0: with up to 3 decimals).
 *
 * Writing: V2.2 (or the version the record came from; V3.0 when a time has
 * milliseconds or a text has a character Shift_JIS cannot hold), with
 * "'CSA encoding=UTF-8" for V3.0 and Shift_JIS with an "'encoding=Shift_JIS"
 * line for V2.x text that is not ASCII; a record read from Shift_JIS or EUC-JP
 * in it again, declared. The position is PI (even games and
 * the usual handicaps) or P1..P9 with P+/P- hands. Header fields with no CSA
 * line, and an ending with no CSA code, are written as comments. Only Shogi
 * records can be written (convert.unrepresentable otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"
#include "internal.h"
#include "record_internal.h"

#define SHOGI_START "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"

/* CSA's piece codes and the records CSA holds are the hub's (record_shogi.c). */
static koma_piece piece_of(const char *s) { return koma__shogi_piece(s, 2); }
static const char *code_of(koma_piece kind) { return koma__shogi_code(kind); }

/* ---- splitting ---------------------------------------------------------------------- */

static int split_csa(const char *s, size_t len, int at_end, koma__enc forced, size_t *rec_len, size_t *used)
{
    (void)forced;
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
        if (!nl && !at_end) return KOMA__SPLIT_MORE;
        size_t m = n;
        if (m && s[i + m - 1] == '\r') m--;
        if (m == 1 && s[i] == '/') {
            *rec_len = i;
            *used = nl ? i + n + 1 : len;
            return KOMA__SPLIT_RECORD;
        }
        if (!nl) break;
        i += n + 1;
    }
    if (!at_end) return KOMA__SPLIT_MORE;
    *rec_len = *used = len;
    return KOMA__SPLIT_RECORD;
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct csa_state {
    koma__enc encoding;                /* declared by a record, for the following ones */
    unsigned long declared_at;         /* the line of that declaration */
} csa_state;

typedef struct rd {
    koma_shogi_record *r;
    koma_error *err;
    unsigned long line;                /* current line number */
    int in_moves;                      /* after the side-to-move line */
    int position_given;                /* PI or P lines seen */
    int turn;
    koma_shogi_move *last;                  /* the last move, for T and comments */
    int after_end;                     /* a special move was read */
    int any_move;
} rd;

static int fail(rd *d, size_t col0, koma_code code, const char *fmt, const char *tok, size_t n)
{
    char q[80];
    koma_quote(q, sizeof q, tok, n);
    return koma__error_at(d->err, code, d->line, col0 + 1, 0, "%s: \"%s\"", fmt, q);
}

static int board_set(rd *d, koma_sq sq, koma_piece p)
{
    uint32_t k;
    if (koma_sq_to_square(&d->r->setup.shape, sq, &k) != 0) return -1;
    d->r->setup.board[k] = p;
    return 0;
}

static koma_piece on_board(koma_piece kind, int side) { return koma__shogi_on_board(kind, side); }

static int set_even(rd *d)
{
    return koma_feen_parse(SHOGI_START, strlen(SHOGI_START), 0, &d->r->setup, d->err);
}

/* 00AL: every piece of the standard set not on the board nor in a hand (kings
 * excepted) goes to side's hand. */
static int all_rest(rd *d, int side)
{
    static const struct { char l; unsigned n; } set[] = {
        {'R', 2}, {'B', 2}, {'G', 4}, {'S', 4}, {'N', 4}, {'L', 4}, {'P', 18}};
    koma_position *pos = &d->r->setup;
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) {
        koma_piece k = koma_piece_from_letter(set[i].l);
        unsigned used = 0;
        for (uint32_t q = 0; q < pos->shape.squares; q++)
            if (pos->board[q] && (pos->board[q] & KOMA_PIECE_LETTER) == (k & KOMA_PIECE_LETTER)) used++;
        for (int s = 0; s < 2; s++)
            for (size_t j = 0; j < pos->hands[s].len; j++)
                if ((pos->hands[s].items[j].piece & KOMA_PIECE_LETTER) == (k & KOMA_PIECE_LETTER))
                    used += pos->hands[s].items[j].count;
        if (used < set[i].n &&
            koma_hand_add(&pos->hands[side], on_board(k, side), set[i].n - used, d->err) != 0)
            return -1;
    }
    return 0;
}

/*
 * A time control's text in the canonical form the writer gives back: V2
 * "$TIME_LIMIT:HH:MM+SS" (main time, byoyomi seconds), V3 "$TIME:T+B+I" in whole
 * seconds (main, byoyomi, increment), and V3's per-side "$TIME+:T+B+I" /
 * "$TIME-:T+B+I". 1 with the three numbers (seconds), else 0.
 */
static int canonical_time(int v3, const char *v, size_t n, long long *pa, long long *pb, long long *pc)
{
    char buf[64], again[64];
    long long a, b, c = 0;
    if (n >= sizeof buf) return 0;
    memcpy(buf, v, n);
    buf[n] = '\0';
    if (!v3) {
        long long h, m;
        if (sscanf(buf, "%2lld:%2lld+%2lld", &h, &m, &b) != 3) return 0;
        snprintf(again, sizeof again, "%02lld:%02lld+%02lld", h, m, b);
        a = (h * 60 + m) * 60;
    } else {
        if (sscanf(buf, "%lld+%lld+%lld", &a, &b, &c) != 3) return 0;
        snprintf(again, sizeof again, "%lld+%lld+%lld", a, b, c);
    }
    if (strcmp(again, buf) != 0 || a < 0 || b < 0 || c < 0) return 0;
    *pa = a;
    *pb = b;
    *pc = c;
    return 1;
}

/* A canonical time control into PCN periods (side 1 first player, 2 second; 0
 * both): the main time (with the increment) and, when there is one, the
 * byoyomi as a period of one ply. Returns 1 when taken. */
static int time_control(koma_shogi_record *r, int side, int v3, const char *v, size_t n)
{
    long long a, b, c;
    if (r->nperiods[side] || !canonical_time(v3, v, n, &a, &b, &c)) return 0;
    koma_shogi_period *p = r->periods[side];
    p[0].duration_ms = a * 1000;
    p[0].increment_ms = v3 && c ? c * 1000 : KOMA_TIME_NONE;
    p[0].plies = 0;
    r->nperiods[side] = 1;
    if (b > 0) {
        p[1].duration_ms = b * 1000;
        p[1].increment_ms = KOMA_TIME_NONE;
        p[1].plies = 1;
        r->nperiods[side] = 2;
    }
    return 1;
}

/* A $ key (after the '$'): no blank, control character or ':' (the writer's test too). */
static int key_ok(const char *k, size_t kl)
{
    if (kl == 0) return 0;
    for (size_t i = 0; i < kl; i++)
        if ((unsigned char)k[i] < 0x21 || k[i] == 0x7f || k[i] == ':') return 0;
    return 1;
}

static int header(rd *d, const char *s, size_t n)
{
    const char *colon = memchr(s, ':', n);
    if (colon == NULL) return fail(d, 0, KOMA_E_CSA_LINE, "a $ line needs KEY:value", s, n);
    const char *k = s + 1;
    size_t kl = (size_t)(colon - k);
    if (!key_ok(k, kl)) return fail(d, 0, KOMA_E_CSA_LINE, "a $ key is letters, with no blank or control character", s, n);
    const char *v = colon + 1;
    size_t vl = n - kl - 2;
    koma_shogi_header_key key = KOMA_H_OTHER;
#define IS(w) (kl == strlen(w) && memcmp(k, w, kl) == 0)
    if (IS("EVENT")) key = KOMA_H_EVENT;
    else if (IS("SITE")) key = KOMA_H_SITE;
    else if (IS("OPENING")) key = KOMA_H_OPENING;
    else if (IS("START_TIME") || IS("END_TIME")) {
        /* YYYY/MM/DD[ HH:MM:SS] -> ISO form; otherwise, or when the record
         * already has that date (a line given twice), kept as written */
        char iso[32];
        koma_shogi_header_key dk = IS("START_TIME") ? KOMA_H_START : KOMA_H_END;
        int ok = (vl == 10 || vl == 19) && v[4] == '/' && v[7] == '/' &&
                 koma_shogi_record_header(d->r, dk, NULL) == NULL;
        for (size_t i = 0; ok && i < vl; i++) {
            int dig = i != 4 && i != 7 && i != 10 && i != 13 && i != 16;
            if (dig ? !KOMA_IS_DIGIT(v[i]) : 0) ok = 0;
        }
        if (ok && vl == 19 && (v[10] != ' ' || v[13] != ':' || v[16] != ':')) ok = 0;
        if (ok) {
            memcpy(iso, v, vl);
            iso[4] = iso[7] = '-';
            if (vl == 19) iso[10] = 'T';
            return koma_shogi_record_add_header(d->r, dk, NULL, 0, iso, vl, d->err);
        }
    } else if (IS("TIME_LIMIT") || IS("TIME")) {
        key = KOMA_H_TIME_CONTROL;
    } else if ((IS("TIME+") || IS("TIME-")) && time_control(d->r, k[4] == '+' ? 1 : 2, 1, v, vl)) {
        return 0; /* else kept as written, as any other $ line */
    }
#undef IS
    if (key == KOMA_H_TIME_CONTROL && time_control(d->r, 0, kl == 4, v, vl)) return 0;
    if (key == KOMA_H_OTHER) return koma_shogi_record_add_header(d->r, key, s, kl + 1, v, vl, d->err);
    if (key == KOMA_H_TIME_CONTROL) {
        /* keep which line it was: $TIME_LIMIT (V2) or $TIME (V3) */
        if (kl == 4) return koma_shogi_record_add_header(d->r, KOMA_H_OTHER, "$TIME", 5, v, vl, d->err);
    }
    return koma_shogi_record_add_header(d->r, key, NULL, 0, v, vl, d->err);
}

static int time_stmt(rd *d, const char *s, size_t n, size_t col0)
{
    long long ms = 0;
    size_t i = 1, digits = 0;
    while (i < n && KOMA_IS_DIGIT(s[i]) && digits < 12) ms = ms * 10 + (s[i++] - '0'), digits++;
    if (digits == 0) return fail(d, col0, KOMA_E_CSA_TIME, "invalid time", s, n);
    ms *= 1000;
    if (i < n && s[i] == '.') {
        i++;
        long long scale = 100;
        while (i < n && KOMA_IS_DIGIT(s[i])) {
            if (scale) ms += (s[i] - '0') * scale;
            scale /= 10;
            i++;
        }
    }
    if (i != n) return fail(d, col0, KOMA_E_CSA_TIME, "invalid time", s, n);
    if (d->after_end) d->r->main.end.elapsed_ms = ms;
    else if (d->last) d->last->elapsed_ms = ms;
    else return fail(d, col0, KOMA_E_CSA_TIME, "a time before any move", s, n);
    return 0;
}

static int sq_digit(char c) { return c >= '0' && c <= '9'; }

static int move_stmt(rd *d, const char *s, size_t n, size_t col0)
{
    if (d->after_end) return fail(d, col0, KOMA_E_CSA_MOVE, "a move after the special move", s, n);
    if (n != 7 || !sq_digit(s[1]) || !sq_digit(s[2]) || !sq_digit(s[3]) || !sq_digit(s[4]))
        return fail(d, col0, KOMA_E_CSA_MOVE, "a move is +FFTTPC (from, to, piece)", s, n);
    koma_piece p = piece_of(s + 5);
    if (p == KOMA_PIECE_NONE) return fail(d, col0 + 5, KOMA_E_CSA_PIECE, "unknown piece", s + 5, 2);
    koma_shogi_move m;
    koma_shogi_move_init(&m);
    m.side = s[0] == '+' ? KOMA_FIRST : KOMA_SECOND;
    m.line = d->line;
    m.column = col0 + 1;
    m.to.file = (uint8_t)(s[3] - '0');
    m.to.rank = (uint8_t)(s[4] - '0');
    if (m.to.file == 0 || m.to.rank == 0) return fail(d, col0 + 3, KOMA_E_CSA_SQUARE, "invalid square", s + 3, 2);
    if (s[1] == '0' && s[2] == '0') {
        m.drop = 1;
        m.piece = p;
        m.promote = KOMA_PROMOTE_NO;
        if (p & KOMA_PIECE_STATE) return fail(d, col0 + 5, KOMA_E_CSA_MOVE, "a promoted piece dropped", s, n);
    } else {
        m.from.file = (uint8_t)(s[1] - '0');
        m.from.rank = (uint8_t)(s[2] - '0');
        if (m.from.file == 0 || m.from.rank == 0)
            return fail(d, col0 + 1, KOMA_E_CSA_SQUARE, "invalid square", s + 1, 2);
        m.after = p;
    }
    d->last = koma_shogi_line_push(&d->r->main, &m, d->err);
    d->any_move = 1;
    return d->last ? 0 : -1;
}

static int special_stmt(rd *d, const char *s, size_t n)
{
    if (d->after_end) {
        /* the same special move again (floodgate writes %KACHI twice): one ending */
        const char *first = d->r->main.end.csa;
        if (first && strlen(first) == n && memcmp(first, s, n) == 0) return 0;
        return fail(d, 0, KOMA_E_CSA_SPECIAL, "a second special move", s, n);
    }
    size_t k = 1;
    while (k < n && (KOMA_IS_UPPER(s[k]) || s[k] == '_' || s[k] == '+' || s[k] == '-')) k++;
    if (k != n || n < 2) return fail(d, 0, KOMA_E_CSA_SPECIAL, "unknown special move", s, n);
    /* the mover: who is to move after the moves so far */
    int mover = (int)((d->turn + d->r->main.len) % 2);
    koma_shogi_ending *e = &d->r->main.end;
    e->code = koma_shogi_ending_from_csa(s, n, mover);
    e->line = d->line;
    e->column = 1;
    if (koma_shogi_set_text(&e->csa, s, n, 0, d->err) != 0) return -1;
    if (e->code == KOMA_SHOGI_ENDING_OTHER && koma_shogi_set_text(&e->text, s, n, 0, d->err) != 0) return -1;
    d->after_end = 1;
    return 0;
}

static int rank_line(rd *d, const char *s, size_t n)
{
    int rank = s[1] - '0';
    if (!d->position_given) {
        if (koma_position_reset(&d->r->setup, &d->r->setup.shape, d->err) != 0) return -1;
        d->position_given = 1;
    }
    size_t i = 2;
    for (int f = 9; f >= 1; f--) {
        if (i + 3 > n) {
            /* trailing blanks may be cut: the rest is empty */
            for (; i < n; i++)
                if (s[i] != ' ' && s[i] != '*') return fail(d, i, KOMA_E_CSA_POSITION, "invalid rank line", s, n);
            break;
        }
        const char *c = s + i;
        koma_sq sq = {(uint8_t)f, (uint8_t)rank};
        if (c[0] == ' ' && c[1] == '*') {
            board_set(d, sq, KOMA_PIECE_NONE);
        } else if (c[0] == '+' || c[0] == '-') {
            koma_piece p = piece_of(c + 1);
            if (p == KOMA_PIECE_NONE) return fail(d, i + 1, KOMA_E_CSA_PIECE, "unknown piece", c + 1, 2);
            board_set(d, sq, on_board(p, c[0] == '+' ? KOMA_FIRST : KOMA_SECOND));
        } else {
            return fail(d, i, KOMA_E_CSA_POSITION, "a square is ' * ', +XX or -XX", c, 3);
        }
        i += 3;
    }
    if (i < n) {
        for (size_t k = i; k < n; k++)
            if (s[k] != ' ') return fail(d, i, KOMA_E_CSA_POSITION, "more than 9 squares", s + i, n - i);
    }
    return 0;
}

static int pieces_line(rd *d, const char *s, size_t n)
{
    int side = s[1] == '+' ? KOMA_FIRST : KOMA_SECOND;
    if (!d->position_given) {
        if (koma_position_reset(&d->r->setup, &d->r->setup.shape, d->err) != 0) return -1;
        d->position_given = 1;
    }
    for (size_t i = 2; i < n; i += 4) {
        if (i + 4 > n) return fail(d, i, KOMA_E_CSA_POSITION, "a piece is FRPC (square, piece)", s + i, n - i);
        const char *c = s + i;
        if (memcmp(c, "00AL", 4) == 0) {
            if (all_rest(d, side) != 0) return -1;
            continue;
        }
        if (!sq_digit(c[0]) || !sq_digit(c[1])) return fail(d, i, KOMA_E_CSA_SQUARE, "invalid square", c, 2);
        koma_piece p = piece_of(c + 2);
        if (p == KOMA_PIECE_NONE) return fail(d, i + 2, KOMA_E_CSA_PIECE, "unknown piece", c + 2, 2);
        if (c[0] == '0' && c[1] == '0') {
            if ((p & KOMA_PIECE_STATE) || (p & KOMA_PIECE_LETTER) == ('K' - 'A' + 1))
                return fail(d, i, KOMA_E_CSA_POSITION, "only unpromoted pieces other than kings go to a hand", c, 4);
            if (koma_hand_add(&d->r->setup.hands[side], on_board(p, side), 1, d->err) != 0) return -1;
        } else {
            koma_sq sq = {(uint8_t)(c[0] - '0'), (uint8_t)(c[1] - '0')};
            if (sq.file == 0 || sq.rank == 0) return fail(d, i, KOMA_E_CSA_SQUARE, "invalid square", c, 2);
            board_set(d, sq, on_board(p, side));
        }
    }
    return 0;
}

static int pi_line(rd *d, const char *s, size_t n)
{
    if (set_even(d) != 0) return -1;
    d->position_given = 1;
    for (size_t i = 2; i < n; i += 4) {
        if (i + 4 > n) return fail(d, i, KOMA_E_CSA_POSITION, "PI lists squares and pieces (FRPC)", s + i, n - i);
        const char *c = s + i;
        koma_piece p = piece_of(c + 2);
        koma_sq sq = {(uint8_t)(c[0] - '0'), (uint8_t)(c[1] - '0')};
        uint32_t k;
        if (!sq_digit(c[0]) || !sq_digit(c[1]) || koma_sq_to_square(&d->r->setup.shape, sq, &k) != 0)
            return fail(d, i, KOMA_E_CSA_SQUARE, "invalid square", c, 2);
        if (p == KOMA_PIECE_NONE) return fail(d, i + 2, KOMA_E_CSA_PIECE, "unknown piece", c + 2, 2);
        koma_piece there = d->r->setup.board[k];
        if (there == KOMA_PIECE_NONE || (there & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE)) != p)
            return fail(d, i, KOMA_E_CSA_POSITION, "PI removes a piece that is not there", c, 4);
        d->r->setup.board[k] = KOMA_PIECE_NONE;
    }
    return 0;
}

/* One statement (a whole line for N, $ and '). */
static int statement(rd *d, const char *s, size_t n, size_t col0)
{
    if (n == 0) return 0;
    char c = s[0];
    if (c == 'V') {
        if (d->in_moves) return fail(d, col0, KOMA_E_CSA_LINE, "a version line among the moves", s, n);
        if (!((n == 2 && s[1] == '2') || (n == 4 && (!memcmp(s, "V2.1", 4) || !memcmp(s, "V2.2", 4) ||
                                                     !memcmp(s, "V3.0", 4)))))
            return fail(d, col0, KOMA_E_CSA_LINE, "not a CSA version (V2, V2.1, V2.2, V3.0)", s, n);
        return koma_shogi_set_text(&d->r->source_version, s, n, 0, d->err);
    }
    if (c == 'N' && n >= 2 && (s[1] == '+' || s[1] == '-'))
        return koma_shogi_record_add_header(d->r, s[1] == '+' ? KOMA_H_FIRST_NAME : KOMA_H_SECOND_NAME, NULL, 0,
                                    s + 2, n - 2, d->err);
    if (c == '$') return header(d, s, n);
    if (c == 'P' && !d->in_moves) {
        if (n >= 2 && s[1] == 'I') return pi_line(d, s, n);
        if (n >= 2 && s[1] >= '1' && s[1] <= '9') return rank_line(d, s, n);
        if (n >= 2 && (s[1] == '+' || s[1] == '-')) return pieces_line(d, s, n);
        return fail(d, col0, KOMA_E_CSA_LINE, "unknown P line", s, n);
    }
    if ((c == '+' || c == '-') && n == 1) {
        if (d->in_moves) return fail(d, col0, KOMA_E_CSA_LINE, "a second side-to-move line", s, n);
        if (!d->position_given && set_even(d) != 0) return -1;
        d->in_moves = 1;
        d->turn = c == '+' ? KOMA_FIRST : KOMA_SECOND;
        d->r->setup.turn = d->turn;
        return 0;
    }
    if (c == '+' || c == '-') {
        if (!d->in_moves) return fail(d, col0, KOMA_E_CSA_LINE, "a move before the side to move (+ or -)", s, n);
        return move_stmt(d, s, n, col0);
    }
    if (c == 'T') {
        if (!d->in_moves) return fail(d, col0, KOMA_E_CSA_LINE, "a time before the moves", s, n);
        return time_stmt(d, s, n, col0);
    }
    if (c == '%') {
        if (!d->in_moves) return fail(d, col0, KOMA_E_CSA_LINE, "a special move before the side to move", s, n);
        return special_stmt(d, s, n);
    }
    return fail(d, col0, KOMA_E_CSA_LINE, "not a CSA statement", s, n);
}

static int comment(rd *d, const char *s, size_t n)
{
    char **dst;
    if (d->after_end) dst = &d->r->main.end.comment;
    else if (d->last) dst = &d->last->comment;
    else dst = &d->r->setup_comment;
    return koma_shogi_set_text(dst, s, n, 1, d->err);
}

static int has_prefix(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}

/* The line and column of byte off of the record s (first line `line`). */
static void where_at(const char *s, size_t off, unsigned long line, unsigned long *ln, unsigned long *col)
{
    *ln = line;
    *col = 1;
    for (size_t i = 0; i < off; i++, (*col)++)
        if (s[i] == '\n') (*ln)++, *col = 0;
}

/*
 * The record's text as UTF-8 (*s, *len; decoded into dec unless it is UTF-8),
 * its source encoding in r. The encoding is the caller's (r->encoding:
 * --encoding, or UTF-16 the stream made UTF-8); else the one its first line
 * declares ("'CSA encoding=...", "'encoding=..."), or an earlier record of the
 * input declared, when the bytes are valid in it; else the first of UTF-8,
 * EUC-JP and Shift_JIS in which they are: a declaration the bytes contradict is
 * not followed (a warning says so). ASCII is read as it is.
 */
static int decode(csa_state *st, koma_shogi_record *r, const char **s_io, size_t *len_io, unsigned long line,
                  koma_buffer *dec, koma_error *err)
{
    const char *s = *s_io;
    size_t len = *len_io, bad = 0;
    unsigned long ln, col;
    const char *nl = memchr(s, '\n', len);
    size_t l1 = nl ? (size_t)(nl - s) : len;
    int declared_here = 0;
    unsigned long decl_line = st->declared_at;
    size_t decl_col = 1;
    if (has_prefix(s, l1, "'CSA encoding=") || has_prefix(s, l1, "'encoding=")) {
        const char *eq = memchr(s, '=', l1);
        size_t k = l1 - (size_t)(eq + 1 - s);
        if (k && eq[k] == '\r') k--;
        koma__enc named = koma__enc_find(eq + 1, k);
        /* a name koma does not know: Shift_JIS, CSA's own */
        st->encoding = named != KOMA__ENC_NONE ? named : KOMA__ENC_SJIS;
        st->declared_at = decl_line = line;
        decl_col = (size_t)(eq + 1 - s) + 1;
        declared_here = 1;
    }
    const char *nul = memchr(s, '\0', len);
    if (nul) {
        /* text files hold no NUL byte (and C strings would cut the text there), as KIF */
        where_at(s, (size_t)(nul - s), line, &ln, &col);
        return koma__error_at(err, KOMA_E_CONVERT_ENCODING, ln, col, (size_t)(nul - s), "a NUL byte in the text");
    }
    int ascii = 1;
    for (size_t i = 0; i < len && ascii; i++)
        if ((unsigned char)s[i] >= 0x80) ascii = 0;
    koma__enc given = r->encoding ? koma__enc_find(r->encoding, strlen(r->encoding)) : KOMA__ENC_NONE;
    koma__enc declared = st->encoding, enc = r->transcoded ? KOMA__ENC_UTF8 : given;
    if (!ascii && enc == KOMA__ENC_NONE) {
        koma__enc best = KOMA__ENC_NONE;
        if (declared != KOMA__ENC_NONE && !koma__enc_utf16(declared) && koma__enc_valid(declared, s, len, &bad))
            enc = declared;
        else if ((enc = koma__enc_detect(s, len, declared && !koma__enc_utf16(declared) ? NULL : &bad, &best)) ==
                 KOMA__ENC_NONE) {
            where_at(s, bad, line, &ln, &col);
            return koma__error_at(err, KOMA_E_CONVERT_ENCODING, ln, col, bad, "invalid %s",
                                  koma__enc_name(declared && !koma__enc_utf16(declared) ? declared : best));
        } else if (declared != KOMA__ENC_NONE) {
            koma__error_at(&r->warning, KOMA_E_CONVERT_ENCODING, decl_line, decl_col, 0,
                           "%s declares %s, but its bytes are %s: read as %s",
                           declared_here ? "the record" : "the input", koma__enc_name(declared), koma__enc_name(enc),
                           koma__enc_name(enc));
        }
    }
    if (r->transcoded && declared_here && declared != given && !(declared == KOMA__ENC_UTF16 && koma__enc_utf16(given)))
        koma__error_at(&r->warning, KOMA_E_CONVERT_ENCODING, decl_line, decl_col, 0,
                       "the record declares %s, but its byte order mark says %s: read as %s",
                       koma__enc_name(declared), koma__enc_name(given), koma__enc_name(given));
    if (!ascii && enc != KOMA__ENC_UTF8) {
        const char *t;
        size_t tl;
        int x = koma__enc_decode(enc, s, len, dec, &t, &tl, &bad);
        if (x == -2) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        if (x != 0) {
            where_at(s, bad, line, &ln, &col);
            return koma__error_at(err, KOMA_E_CONVERT_ENCODING, ln, col, bad, "invalid %s", koma__enc_name(enc));
        }
        *s_io = t;
        *len_io = tl;
    } else if (!ascii && !koma__utf8_valid(s, len, &bad)) {
        where_at(s, bad, line, &ln, &col);
        return koma__error_at(err, KOMA_E_CONVERT_ENCODING, ln, col, bad, "invalid UTF-8");
    }
    /* the encoding is the record's when it declares one, has text that is not
     * ASCII, or comes from the caller */
    koma__enc src = r->transcoded ? given : enc != KOMA__ENC_NONE ? enc : declared;
    if (src != KOMA__ENC_NONE && (declared_here || !ascii || given != KOMA__ENC_NONE)) {
        const char *name = koma__enc_name(src);
        if (koma_shogi_set_text(&r->source_encoding, name, strlen(name), 0, err) != 0) return -1;
    }
    return 0;
}

static int read_csa(koma_hub *h, void *state, const char *s, size_t len, unsigned long line,
                    koma_shogi_record *r, koma_error *err)
{
    (void)h;
    csa_state *st = state;
    koma_buffer dec = {0};
    int rc = -1;
    if (koma_shogi_set_text(&r->source_format, "csa", 3, 0, err) != 0) goto out;
    if (decode(st, r, &s, &len, line, &dec, err) != 0) goto out;
    koma_shape shape = {2, {9, 9, 1}, 81};
    if (koma_position_reset(&r->setup, &shape, err) != 0) goto out;
    r->setup.style[0] = 'S';
    r->setup.style[1] = 's';
    rd d = {r, err, line, 0, 0, KOMA_FIRST, NULL, 0, 0};
    size_t i = 0;
    while (i < len) {
        const char *e = memchr(s + i, '\n', len - i);
        size_t n = e ? (size_t)(e - (s + i)) : len - i;
        const char *ls = s + i;
        size_t m = n;
        if (m && ls[m - 1] == '\r') m--;
        if (m == 0) {
            /* blank line */
        } else if (ls[0] == '\'') {
            if (!(d.line == line && (has_prefix(ls, m, "'CSA encoding=") || has_prefix(ls, m, "'encoding="))) &&
                comment(&d, ls + 1, m - 1) != 0)
                goto out;
        } else if (ls[0] == 'N' || ls[0] == '$') {
            if (statement(&d, ls, m, 0) != 0) goto out;
        } else {
            size_t a = 0;
            while (a <= m) {
                if (a < m && ls[a] == '\'') {
                    /* a comment after a comma: the rest of the line */
                    if (comment(&d, ls + a + 1, m - a - 1) != 0) goto out;
                    break;
                }
                const char *comma = memchr(ls + a, ',', m - a);
                size_t b = comma ? (size_t)(comma - ls) : m;
                if (statement(&d, ls + a, b - a, a) != 0) goto out;
                a = b + 1;
            }
        }
        d.line++;
        if (!e) break;
        i += n + 1;
    }
    if (!d.in_moves) {
        if (!d.position_given && !d.any_move) {
            rc = koma__error_at(err, KOMA_E_CSA_POSITION, line, 1, 0,
                                "no initial position (PI, P1..P9 or P+/P-) and no side to move");
            goto out;
        }
        rc = koma__error_at(err, KOMA_E_CSA_POSITION, d.line > line ? d.line - 1 : line, 1, 0,
                            "the position is not followed by the side to move (+ or -)");
        goto out;
    }
    rc = 0;
out:
    koma_buffer_cleanup(&dec);
    return rc;
}

/* ---- writing ------------------------------------------------------------------------- */

/* A key a "$KEY:value" line can hold: '$', then printable ASCII but ':'. */
static int is_csa_key(const char *k) { return k && k[0] == '$' && key_ok(k + 1, strlen(k + 1)); }

static int put_time(koma_buffer *o, long long ms, int v3, koma_error *err)
{
    if (ms == KOMA_TIME_NONE) return 0;
    if (ms % 1000 == 0 || !v3) return koma__buf_printf(o, err, "T%lld\n", ms / 1000);
    char t[32];
    int n = snprintf(t, sizeof t, "T%lld.%03lld", ms / 1000, ms % 1000);
    while (t[n - 1] == '0') n--;
    t[n++] = '\n';
    return koma__buf_put(o, t, (size_t)n, err);
}

/* The date as CSA writes it (YYYY/MM/DD HH:MM:SS), or NULL when it is not ISO. */
static const char *csa_date(const char *v, char buf[32])
{
    size_t n = strlen(v);
    if ((n != 10 && n != 19) || v[4] != '-' || v[7] != '-' || (n == 19 && v[10] != 'T')) return NULL;
    memcpy(buf, v, n + 1);
    buf[4] = buf[7] = '/';
    if (n == 19) buf[10] = ' ';
    return buf;
}

static int even_start(const koma_position *p)
{
    char f[KOMA_FEEN_MAX_LEN + 1];
    koma_feen_write(p, f, sizeof f);
    return strcmp(f, SHOGI_START) == 0;
}

/* PI with the squares of the even start that are empty: when every other
 * square and the hands are as in the even start (1; 0 when not, -1 when out of
 * memory: not to be read as "not a PI position", which writes P1..P9). */
static int pi_form(const koma_position *p, char *buf, size_t cap, koma_error *err)
{
    koma_position even;
    koma_position_init(&even);
    if (koma_feen_parse(SHOGI_START, strlen(SHOGI_START), 0, &even, err) != 0) {
        koma_position_cleanup(&even);
        return -1;
    }
    int ok = p->hands[0].len == 0 && p->hands[1].len == 0 && p->shape.squares == 81;
    size_t n = (size_t)snprintf(buf, cap, "PI");
    for (uint32_t q = 0; ok && q < 81; q++) {
        koma_piece a = p->board[q] & (koma_piece)~KOMA_PIECE_DERIVED, b = even.board[q];
        if (a == b) continue;
        if (a != KOMA_PIECE_NONE || n + 5 >= cap) {
            ok = 0;
            break;
        }
        koma_sq sq = koma_sq_from_square(&p->shape, q);
        n += (size_t)snprintf(buf + n, cap - n, "%u%u%s", sq.file, sq.rank, code_of(b));
    }
    koma_position_cleanup(&even);
    return ok;
}

static int write_line_moves(koma_buffer *o, const koma_shogi_line *l, int v3, int turn, koma_error *err)
{
    for (size_t i = 0; i < l->len; i++) {
        const koma_shogi_move *m = &l->moves[i];
        const char *code = code_of(m->drop ? m->piece : m->after);
        if (code == NULL) return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "ply %zu: no CSA piece", i + 1);
        if (koma__buf_printf(o, err, "%c%u%u%u%u%s\n", m->side == KOMA_FIRST ? '+' : '-', m->drop ? 0 : m->from.file,
                             m->drop ? 0 : m->from.rank, m->to.file, m->to.rank, code))
            return -1;
        if (put_time(o, m->elapsed_ms, v3, err)) return -1;
        if (m->comment && koma__buf_lines(o, "'", m->comment, err)) return -1;
    }
    const koma_shogi_ending *e = &l->end;
    int mover = (int)((turn + l->len) % 2);
    if (e->code != KOMA_SHOGI_ENDING_NONE) {
        const char *code = e->csa ? e->csa : koma_shogi_ending_csa(e->code, 1 - mover);
        if (code && code[0] == '%') {
            if (koma__buf_puts(o, code, err) || koma__buf_put(o, "\n", 1, err)) return -1;
            if (put_time(o, e->elapsed_ms, v3, err)) return -1;
        } else if (koma__buf_printf(o, err, "'outcome: %s\n", e->text ? e->text : "?")) {
            return -1;
        }
    }
    if (e->comment && koma__buf_lines(o, "'", e->comment, err)) return -1;
    return 0;
}

static int needs_v3(const koma_shogi_record *r)
{
    if (r->nperiods[1] || r->nperiods[2]) return 1; /* $TIME+ and $TIME- are V3.0's */
    for (size_t i = 0; i < r->main.len; i++)
        if (r->main.moves[i].elapsed_ms != KOMA_TIME_NONE && r->main.moves[i].elapsed_ms % 1000) return 1;
    if (r->main.end.elapsed_ms != KOMA_TIME_NONE && r->main.end.elapsed_ms % 1000) return 1;
    return 0;
}

/* PCN periods as a CSA time control, when they have that shape (a main time,
 * maybe with an increment, then maybe a byoyomi period of one ply); else a comment.
 * side 0: both sides' ($TIME_LIMIT or $TIME); 1 and 2: one side's ($TIME+, $TIME-;
 * the record is then V3.0). */
static int write_periods(koma_buffer *o, const koma_shogi_record *r, int side, int v3, koma_error *err)
{
    const koma_shogi_period *p = r->periods[side];
    size_t n = r->nperiods[side];
    static const char *const key[] = {"", "+", "-"};
    int ok = n <= 2 && p[0].plies == 0 && p[0].duration_ms % 1000 == 0 &&
             (n == 1 || (p[1].plies == 1 && p[1].increment_ms == KOMA_TIME_NONE && p[1].duration_ms % 1000 == 0));
    long long a = p[0].duration_ms / 1000, b = n == 2 ? p[1].duration_ms / 1000 : 0;
    long long c = p[0].increment_ms == KOMA_TIME_NONE ? 0 : p[0].increment_ms;
    if (ok && c % 1000) ok = 0;
    c /= 1000;
    if (ok && side == 0 && !v3 && c == 0 && a % 60 == 0 && a / 3600 < 100 && b < 100)
        return koma__buf_printf(o, err, "$TIME_LIMIT:%02lld:%02lld+%02lld\n", a / 3600, a / 60 % 60, b);
    if (ok) return koma__buf_printf(o, err, "$TIME%s:%lld+%lld+%lld\n", key[side], a, b, c);
    for (size_t i = 0; i < n; i++)
        if (koma__buf_printf(o, err, "'period%s: %lld ms, increment %lld ms, %lld plies\n", key[side],
                             p[i].duration_ms, p[i].increment_ms == KOMA_TIME_NONE ? 0 : p[i].increment_ms,
                             p[i].plies))
            return -1;
    return 0;
}

/* The side whose time control a header's line would be read as when its text
 * is canonical (0 both: $TIME_LIMIT, $TIME; 1 $TIME+; 2 $TIME-), or -1. */
static int periods_side(const koma_shogi_header *h)
{
    if (h->key == KOMA_H_TIME_CONTROL) return 0;
    if (h->key != KOMA_H_OTHER || h->name == NULL) return -1;
    if (!strcmp(h->name, "$TIME")) return 0;
    if (!strcmp(h->name, "$TIME+")) return 1;
    if (!strcmp(h->name, "$TIME-")) return 2;
    return -1;
}

static int write_body(const koma_shogi_record *r, int v3, koma_buffer *o, koma_error *err)
{
    const char *ver = v3 ? "V3.0" : "V2.2";
    if (!v3 && r->source_version && strncmp(r->source_version, "V2", 2) == 0) ver = r->source_version;
    /* a CSA record read without a version line is written without one */
    int no_version = r->source_format && !strcmp(r->source_format, "csa") && !r->source_version;
    if (!no_version && (koma__buf_puts(o, ver, err) || koma__buf_put(o, "\n", 1, err))) return -1;
    const char *v;
    if ((v = koma_shogi_record_header(r, KOMA_H_FIRST_NAME, NULL)) && koma__buf_lines(o, "N+", v, err)) return -1;
    if ((v = koma_shogi_record_header(r, KOMA_H_SECOND_NAME, NULL)) && koma__buf_lines(o, "N-", v, err)) return -1;
    char d[32];
    char *other = NULL;
    int periods_done[3] = {0, 0, 0};
    for (size_t i = 0; i < r->nheaders; i++) {
        const koma_shogi_header *h = &r->headers[i];
        int rc = 0;
        const char *prefix = NULL;
        /* a side's periods line before any other line of its key, which the
         * reader takes as that side's time control when it comes first */
        int ps = periods_side(h);
        if (ps >= 0 && r->nperiods[ps] && !periods_done[ps]) {
            if (write_periods(o, r, ps, v3, err) != 0) return -1;
            periods_done[ps] = 1;
        }
        /* with no periods for that side, a line in a time control's form would
         * read back as periods: refused rather than changed */
        for (const char *l = h->value; ps >= 0 && !r->nperiods[ps] && l;) {
            const char *e = strchr(l, '\n');
            size_t ln = e ? (size_t)(e - l) : strlen(l);
            long long a, b, c;
            if (canonical_time(h->key == KOMA_H_TIME_CONTROL ? 0 : 1, l, ln, &a, &b, &c))
                return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                                      "CSA would read the time control \"%.*s\" back as PCN periods "
                                      "(give it as periods)", (int)ln, l);
            l = e ? e + 1 : NULL;
        }
        switch (h->key) {
        case KOMA_H_EVENT: prefix = "$EVENT:"; break;
        case KOMA_H_SITE: prefix = "$SITE:"; break;
        case KOMA_H_OPENING: prefix = "$OPENING:"; break;
        case KOMA_H_TIME_CONTROL: prefix = "$TIME_LIMIT:"; break;
        case KOMA_H_START:
        case KOMA_H_END:
            if (strchr(h->value, '\n') == NULL && csa_date(h->value, d)) {
                rc = koma__buf_printf(o, err, "$%s:%s\n", h->key == KOMA_H_START ? "START_TIME" : "END_TIME", d);
                prefix = NULL;
            } else {
                prefix = h->key == KOMA_H_START ? "'start: " : "'end: ";
            }
            break;
        case KOMA_H_OTHER: {
            /* a CSA key as a $ line; another format's key as a comment (any length) */
            size_t kl = h->name ? strlen(h->name) : 0;
            if ((other = malloc(kl + 4)) == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            if (is_csa_key(h->name)) snprintf(other, kl + 4, "%s:", h->name);
            else snprintf(other, kl + 4, "'%s: ", h->name ? h->name : "");
            prefix = other;
            break;
        }
        case KOMA_H_NAME: prefix = "'name: "; break;
        case KOMA_H_ROUND: prefix = "'round: "; break;
        case KOMA_H_HANDICAP:
            /* 平手 (even) says no more than PI: only a real handicap's name is kept */
            prefix = even_start(&r->setup) && strcmp(h->value, "\xe5\xb9\xb3\xe6\x89\x8b") == 0 ? NULL : "'handicap: ";
            break;
        default: prefix = NULL; break;
        }
        if (rc == 0 && prefix) rc = koma__buf_lines(o, prefix, h->value, err);
        free(other);
        other = NULL;
        if (rc) return -1;
    }
    for (int side = 0; side < 3; side++)
        if (r->nperiods[side] && !periods_done[side] && write_periods(o, r, side, v3, err) != 0) return -1;
    const koma_position *p = &r->setup;
    char pi[96];
    int is_pi = p->turn == KOMA_SECOND && !even_start(p) ? pi_form(p, pi, sizeof pi, err) : 0;
    if (is_pi < 0) return -1;
    if (even_start(p)) {
        if (koma__buf_puts(o, "PI\n+\n", err)) return -1;
    } else if (is_pi) {
        if (koma__buf_printf(o, err, "%s\n-\n", pi)) return -1;
    } else {
        for (unsigned rank = 1; rank <= 9; rank++) {
            if (koma__buf_printf(o, err, "P%u", rank)) return -1;
            for (unsigned file = 9; file >= 1; file--) {
                uint32_t q;
                koma_sq sq = {(uint8_t)file, (uint8_t)rank};
                koma_sq_to_square(&p->shape, sq, &q);
                koma_piece x = p->board[q];
                if (x == KOMA_PIECE_NONE) {
                    if (koma__buf_puts(o, " * ", err)) return -1;
                } else if (koma__buf_printf(o, err, "%c%s", koma_piece_side(x) == KOMA_FIRST ? '+' : '-', code_of(x))) {
                    return -1;
                }
            }
            if (koma__buf_put(o, "\n", 1, err)) return -1;
        }
        for (int s = 0; s < 2; s++) {
            if (p->hands[s].len == 0) continue;
            if (koma__buf_printf(o, err, "P%c", s == KOMA_FIRST ? '+' : '-')) return -1;
            static const char order[] = "RBGSNLP";
            for (const char *c = order; *c; c++) {
                koma_piece k = koma_piece_from_letter(s ? (char)(*c | 0x20) : *c);
                uint32_t n = koma_hand_count(&p->hands[s], k);
                for (uint32_t j = 0; j < n; j++)
                    if (koma__buf_printf(o, err, "00%s", code_of(k))) return -1;
            }
            if (koma__buf_put(o, "\n", 1, err)) return -1;
        }
        if (koma__buf_puts(o, p->turn == KOMA_FIRST ? "+\n" : "-\n", err)) return -1;
    }
    if (r->setup_comment && koma__buf_lines(o, "'", r->setup_comment, err)) return -1;
    return write_line_moves(o, &r->main, v3, p->turn, err);
}

static int write_csa(koma_hub *h, const koma_shogi_record *r, size_t index, unsigned flags, koma_buffer *out,
                     koma_error *err)
{
    (void)h, (void)flags;
    if (koma__srec_shogi_only(r, "CSA", err) != 0) return -1;
    if (koma__srec_no_forks(r, "CSA", err) != 0) return -1;
    int v3 = needs_v3(r) || (r->source_version && strcmp(r->source_version, "V3.0") == 0);
    koma_buffer body = {0};
    int rc = -1;
    if (write_body(r, v3, &body, err) != 0) goto out;
    int ascii = 1;
    for (size_t i = 0; i < body.len; i++)
        if ((unsigned char)body.data[i] >= 0x80) ascii = 0;
    if (index > 0 && koma__buf_puts(out, "/\n", err)) goto out;
    /* Shift_JIS: V2 text that is not ASCII, or a record read from Shift_JIS (V3.0
     * then declares it, as V3.0 without a declaration is read as UTF-8 when
     * valid); EUC-JP, declared, for a record read from EUC-JP */
    koma__enc source = r->source_encoding ? koma__enc_find(r->source_encoding, strlen(r->source_encoding))
                                          : KOMA__ENC_NONE;
    if ((!v3 && !ascii) || source == KOMA__ENC_SJIS || source == KOMA__ENC_EUCJP) {
        koma__enc enc = source == KOMA__ENC_EUCJP ? KOMA__ENC_EUCJP : KOMA__ENC_SJIS;
        koma_buffer sj = {0};
        size_t bad;
        int x = koma__from_utf8(koma__enc_iconv(enc), body.data, body.len, &sj, &bad);
        if (x == 0) {
            rc = koma__buf_puts(out,
                                enc == KOMA__ENC_EUCJP ? (v3 ? "'CSA encoding=EUC-JP\n" : "'encoding=EUC-JP\n")
                                : v3                   ? "'CSA encoding=SHIFT_JIS\n"
                                                       : "'encoding=Shift_JIS\n",
                                err) ||
                         koma__buf_put(out, sj.data, sj.len, err)
                     ? -1
                     : 0;
            koma_buffer_cleanup(&sj);
            goto out;
        }
        koma_buffer_cleanup(&sj);
        if (x == -2) {
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            goto out;
        }
        /* a character the encoding cannot hold: V3.0 in UTF-8 */
        if (!v3) {
            body.len = 0;
            v3 = 1;
            if (write_body(r, 1, &body, err) != 0) goto out;
        }
    }
    /* a CSA V3.0 record read without the encoding line, all ASCII, is written
     * without it too (it reads the same in UTF-8 and in the default Shift_JIS) */
    int as_read = ascii && r->source_format && !strcmp(r->source_format, "csa") && !r->source_encoding;
    if (v3 && !as_read && koma__buf_puts(out, "'CSA encoding=UTF-8\n", err)) goto out;
    rc = koma__buf_put(out, body.data, body.len, err);
out:
    koma_buffer_cleanup(&body);
    return rc;
}

/* ---- detection ------------------------------------------------------------------------- */

static int detect_csa(const char *s, size_t len, int at_end)
{
    (void)at_end;
    int score = 0;
    size_t i = 0, lines = 0;
    while (i < len && lines < 64) {
        const char *e = memchr(s + i, '\n', len - i);
        size_t n = e ? (size_t)(e - (s + i)) : len - i;
        const char *l = s + i;
        if (has_prefix(l, n, "'CSA encoding=")) score += 3;
        else if ((has_prefix(l, n, "V2") || has_prefix(l, n, "V3.0")) && n <= 5) score += 2;
        else if (has_prefix(l, n, "N+") || has_prefix(l, n, "N-") || has_prefix(l, n, "PI")) score += 1;
        else if (n >= 11 && l[0] == 'P' && l[1] >= '1' && l[1] <= '9' && (l[2] == ' ' || l[2] == '+' || l[2] == '-'))
            score += 1;
        else if (n >= 7 && (l[0] == '+' || l[0] == '-') && sq_digit(l[1]) && sq_digit(l[2]) && sq_digit(l[3]) &&
                 sq_digit(l[4]) && piece_of(l + 5) != KOMA_PIECE_NONE)
            score += 2;
        else if (has_prefix(l, n, "$START_TIME:") || has_prefix(l, n, "$EVENT:")) score += 1;
        lines++;
        if (!e) break;
        i += n + 1;
    }
    return score >= 4 ? 3 : score >= 2 ? 2 : score ? 1 : 0;
}

const koma_format koma__fmt_csa = {
    .name = "csa", .aliases = "", .title = "CSA records (V2.2, V3.0; Shift_JIS, EUC-JP or UTF-8)",
    .kind = KOMA_FORMAT_RECORD, .detect = detect_csa, .split = split_csa,
    .state_size = sizeof(csa_state), .read_record = read_csa, .write_record = write_csa,
};
