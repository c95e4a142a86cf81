/*
 * lib/fmt_kakinoki.c — the parts of KIF and KI2 that are the same in both (see
 * fmt_kakinoki.h): encoding, header lines, board diagram, handicap, comments,
 * bookmarks, variations, endings; the shared reader and writer.
 *
 * Encoding (decode): the caller's (koma_shogi_record.encoding), else UTF-8 after a byte
 * order mark, else the one the record declares ("#KIF version=2.0
 * encoding=Shift_JIS", also "#KI2 ...") when its bytes are valid in it, else
 * the first of UTF-8, EUC-JP and Shift_JIS (CP932) in which they are
 * (koma__enc_detect); a declaration the bytes contradict gets a warning. UTF-16
 * comes made UTF-8 by the record stream. File names are not trusted (many
 * programs write UTF-8 .kif files). Columns in diagnostics count bytes of the
 * input as it is, Shift_JIS, EUC-JP or not.
 *
 * Lines (trailing blanks and CRs aside): "#..." a program's comment (kept in
 * meta.headers["#"]), "KEY：VALUE" a header (also "KEY:VALUE"), 手合割 the
 * handicap, "後手の持駒：", "|...|一" rows and "先手の持駒：" a board diagram,
 * "先手番"/"後手番" the side to move (also 上手/下手), "手数----" the start of
 * KIF's moves, "*..." a comment and "&..." a bookmark on what precedes (the
 * setup before any move), "変化：N手" a variation replacing move N of the line
 * last read (or of the line it branched from, nearest first; or continuing the
 * nearest that stops just before move N, Gekisashi's "#--separator--" form),
 * "まで N手で..." the ending, the format's move lines; after the moves, a line
 * of dashes starts a footer whose lines are remarks (Gekisashi's clipboard KI2).
 */
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "fmt_kakinoki.h"

#define FULL_COLON "\xef\xbc\x9a"      /* ： */
#define IDEO_SPACE "\xe3\x80\x80"      /* U+3000 */

/* ---- characters ------------------------------------------------------------------ */

size_t koma__kakinoki_blanks(const char *s, size_t n)
{
    size_t i = 0;
    for (;;) {
        if (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
        else if (koma__kakinoki_lit(s + i, n - i, IDEO_SPACE)) i += 3;
        else return i;
    }
}

/* Trailing blanks (and CRs) of s[0..n): the length without them. */
static size_t rtrim(const char *s, size_t n)
{
    for (;;) {
        if (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
        else if (n >= 3 && memcmp(s + n - 3, IDEO_SPACE, 3) == 0) n -= 3;
        else return n;
    }
}

int koma__kakinoki_digit(const char *s, size_t n, size_t *used)
{
    if (n >= 1 && s[0] >= '1' && s[0] <= '9') {
        *used = 1;
        return s[0] - '0';
    }
    if (n >= 3 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbc &&
        (unsigned char)s[2] >= 0x91 && (unsigned char)s[2] <= 0x99) {
        *used = 3;
        return (unsigned char)s[2] - 0x90;
    }
    return 0;
}

static const char *const kanji_digits[] = {"一", "二", "三", "四", "五", "六", "七", "八", "九"};

int koma__kakinoki_kanji_digit(const char *s, size_t n, size_t *used)
{
    for (int i = 0; i < 9; i++)
        if ((*used = koma__kakinoki_lit(s, n, kanji_digits[i])) != 0) return i + 1;
    return 0;
}

long long koma__kakinoki_number(const char *s, size_t n, size_t *used)
{
    long long v = 0;
    size_t i = 0, digits = 0;
    while (i < n && digits < 15) {
        if (KOMA_IS_DIGIT(s[i])) {
            v = v * 10 + (s[i] - '0');
            i++;
        } else if (n - i >= 3 && (unsigned char)s[i] == 0xef && (unsigned char)s[i + 1] == 0xbc &&
                   (unsigned char)s[i + 2] >= 0x90 && (unsigned char)s[i + 2] <= 0x99) {
            v = v * 10 + ((unsigned char)s[i + 2] - 0x90);
            i += 3;
        } else {
            break;
        }
        digits++;
    }
    *used = i;
    return digits ? v : -1;
}

size_t koma__kakinoki_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xc0) == 0x80) continue;
        w += c >= 0xe0 ? 2 : 1;
    }
    return w;
}

/* A count of pieces in a hand: 一..十八 (or digits); *used; 0 when none. */
static int kanji_count(const char *s, size_t n, size_t *used)
{
    size_t u = 0, k;
    int v = 0;
    if ((k = koma__kakinoki_lit(s, n, "十")) != 0) {
        v = 10;
        u = k;
    }
    int d = koma__kakinoki_kanji_digit(s + u, n - u, &k);
    if (d) {
        v += d;
        u += k;
    }
    if (u == 0) {
        long long x = koma__kakinoki_number(s, n, &k);
        if (x > 0 && x < 100) {
            *used = k;
            return (int)x;
        }
        return 0;
    }
    *used = u;
    return v;
}

/* ---- pieces and squares ----------------------------------------------------------- */

static const struct {
    const char *name;
    char letter;
    int promoted;
} names[] = {
    /* the two-character names first (longest match) */
    {"成香", 'L', 1}, {"成桂", 'N', 1}, {"成銀", 'S', 1},
    {"歩", 'P', 0},   {"香", 'L', 0},   {"桂", 'N', 0},   {"銀", 'S', 0}, {"金", 'G', 0},
    {"角", 'B', 0},   {"飛", 'R', 0},   {"玉", 'K', 0},   {"王", 'K', 0}, {"と", 'P', 1},
    {"杏", 'L', 1},   {"圭", 'N', 1},   {"全", 'S', 1},   {"馬", 'B', 1}, {"龍", 'R', 1},
    {"竜", 'R', 1},
};
#define NNAMES (sizeof names / sizeof names[0])

static koma_piece name_kind(size_t i)
{
    return (koma_piece)(koma_piece_from_letter(names[i].letter) | (names[i].promoted ? KOMA_PIECE_ENHANCED : 0));
}

koma_piece koma__kakinoki_piece(const char *s, size_t n, size_t *used)
{
    for (size_t i = 0; i < NNAMES; i++)
        if ((*used = koma__kakinoki_lit(s, n, names[i].name)) != 0) return name_kind(i);
    return KOMA_PIECE_NONE;
}

const char *koma__kakinoki_piece_name(koma_piece kind)
{
    kind = (koma_piece)(kind & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE));
    for (size_t i = 0; i < NNAMES; i++)
        if (name_kind(i) == kind) return names[i].name;
    return NULL;
}

const char *koma__kakinoki_piece_char(koma_piece kind)
{
    kind = (koma_piece)(kind & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE));
    for (size_t i = 3; i < NNAMES; i++)
        if (name_kind(i) == kind) return names[i].name;
    return NULL;
}

int koma__kakinoki_square(const char *s, size_t n, koma_sq *sq, int *same, size_t *used)
{
    size_t k = koma__kakinoki_lit(s, n, "同");
    if (k) {
        *same = 1;
        sq->file = sq->rank = 0;
        *used = k + koma__kakinoki_blanks(s + k, n - k);
        return 0;
    }
    size_t a, b;
    int f = koma__kakinoki_digit(s, n, &a);
    if (!f) return -1;
    int r = koma__kakinoki_kanji_digit(s + a, n - a, &b);
    if (!r) r = koma__kakinoki_digit(s + a, n - a, &b);
    if (!r) return -1;
    *same = 0;
    sq->file = (uint8_t)f;
    sq->rank = (uint8_t)r;
    *used = a + b;
    return 0;
}

static const char *const wide_digits[] = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};

int koma__kakinoki_put_square(koma_buffer *o, const koma_shogi_move *m, koma_error *err)
{
    if (m->same) return koma__buf_puts(o, "同" IDEO_SPACE, err);
    if (m->to.file < 1 || m->to.file > 9 || m->to.rank < 1 || m->to.rank > 9)
        return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "a square off the 9x9 board");
    return koma__buf_puts(o, wide_digits[m->to.file - 1], err) || koma__buf_puts(o, kanji_digits[m->to.rank - 1], err)
               ? -1 : 0;
}

/* ---- endings ------------------------------------------------------------------------ */

static const struct {
    const char *word;
    koma_shogi_ending_code code;
} words[] = {
    {"投了", KOMA_SHOGI_ENDING_RESIGN},          {"中断", KOMA_SHOGI_ENDING_INTERRUPT},
    {"千日手", KOMA_SHOGI_ENDING_REPETITION},    {"持将棋", KOMA_SHOGI_ENDING_IMPASSE},
    {"詰み", KOMA_SHOGI_ENDING_MATE},            {"詰", KOMA_SHOGI_ENDING_MATE},
    {"不詰", KOMA_SHOGI_ENDING_NO_MATE},         {"切れ負け", KOMA_SHOGI_ENDING_TIME_UP},
    {"Time-up", KOMA_SHOGI_ENDING_TIME_UP},      /* 81Dojo's */
    {"反則勝ち", KOMA_SHOGI_ENDING_ILLEGAL_WIN}, {"反則負け", KOMA_SHOGI_ENDING_ILLEGAL_LOSS},
    {"入玉勝ち", KOMA_SHOGI_ENDING_ENTERING_KING}, {"引き分け", KOMA_SHOGI_ENDING_DRAW},
    {"最大手数", KOMA_SHOGI_ENDING_MAX_MOVES},   {"連続王手の千日手", KOMA_SHOGI_ENDING_PERPETUAL_CHECK},
    {"待った", KOMA_SHOGI_ENDING_MATTA},         {"エラー", KOMA_SHOGI_ENDING_ERROR},
};
#define NWORDS (sizeof words / sizeof words[0])

static koma_shogi_ending_code word_code(const char *s, size_t n)
{
    for (size_t i = 0; i < NWORDS; i++)
        if (strlen(words[i].word) == n && memcmp(words[i].word, s, n) == 0) return words[i].code;
    return KOMA_SHOGI_ENDING_OTHER;
}

const char *koma__kakinoki_end_word_of(const koma_shogi_ending *e)
{
    for (size_t i = 0; i < NWORDS; i++)
        if (words[i].code == e->code) return words[i].word;
    return e->text ? e->text : e->csa ? e->csa : "?";
}

/* ---- the reader ---------------------------------------------------------------------- */

typedef struct kk_seg {
    koma_shogi_line *line;
    size_t first;                      /* the ply of its first move */
} kk_seg;

struct kk_reader {
    const kk_syntax *syn;
    koma_hub *h;
    koma_shogi_record *r;
    koma_error *err;
    const char *src;                   /* the record as given */
    size_t bom;                        /* bytes of a byte order mark */
    koma__enc enc;                     /* the encoding the text was decoded from */
    unsigned long line;                /* the current line, in the input */
    unsigned long first_line;
    const char *ls;                    /* the current line (UTF-8) */
    size_t ln;
    const char *src_ls;                /* the same line as given */
    size_t src_ln;
    int in_moves;
    int footer;                        /* after a line of dashes that ends the moves */
    int rows;                          /* board rows read */
    unsigned long rows_line;           /* where the diagram started */
    int hands_given, turn_given, handicap_given;
    const koma__preset *preset;
    int side_from_move;                /* KI2: the first move's mark may set the turn */
    kk_seg *path;
    size_t depth, cap;
};

void koma__kakinoki_where(kk_reader *d, const char *at, unsigned long *line, unsigned long *column)
{
    size_t off = (size_t)(at - d->ls);
    if (off > d->ln) off = d->ln;
    unsigned long col = (unsigned long)off + 1;
    if (d->enc == KOMA__ENC_SJIS || d->enc == KOMA__ENC_EUCJP) {
        /* the same text in its encoding: its length is the column in the input */
        koma_buffer b = {0};
        size_t bad;
        if (koma__from_utf8(koma__enc_iconv(d->enc), d->ls, off, &b, &bad) == 0) col = (unsigned long)b.len + 1;
        koma_buffer_cleanup(&b);
    }
    if (d->line == d->first_line) col += (unsigned long)d->bom;
    *line = d->line;
    *column = col;
}

int koma__kakinoki_fail(kk_reader *d, const char *at, koma_code code, const char *msg, const char *tok, size_t n)
{
    unsigned long line, col;
    koma__kakinoki_where(d, at, &line, &col);
    if (tok == NULL) return koma__error_at(d->err, code, line, col, 0, "%s", msg);
    char q[96];
    koma_quote(q, sizeof q, tok, n);
    return koma__error_at(d->err, code, line, col, 0, "%s: \"%s\"", msg, q);
}

static int fail_line(kk_reader *d, koma_code code, const char *msg)
{
    return koma__kakinoki_fail(d, d->ls, code, msg, d->ls, d->ln);
}

koma_shogi_line *koma__kakinoki_current(kk_reader *d, size_t *next_ply)
{
    kk_seg *s = &d->path[d->depth - 1];
    *next_ply = s->first + s->line->len;
    return s->line;
}

/* The current line must not have ended yet. */
static int not_ended(kk_reader *d, const char *at)
{
    kk_seg *s = &d->path[d->depth - 1];
    if (s->line->end.code == KOMA_SHOGI_ENDING_NONE) return 0;
    return koma__kakinoki_fail(d, at, KOMA_E_KIF_LINE, "a move after the end of the line of play", at, d->ln - (size_t)(at - d->ls));
}

koma_shogi_move *koma__kakinoki_push(kk_reader *d, const char *at, const koma_shogi_move *m)
{
    kk_seg *s = &d->path[d->depth - 1];
    if (not_ended(d, at) != 0) return NULL;
    return koma_shogi_line_push(s->line, m, d->err);
}

void koma__kakinoki_first_side(kk_reader *d, int side)
{
    if (d->side_from_move && d->depth == 1 && d->r->main.len == 0) d->r->setup.turn = side;
    d->side_from_move = 0;
}

int koma__kakinoki_side(const char *s, size_t n, size_t *used)
{
    if ((*used = koma__kakinoki_lit(s, n, "先手")) || (*used = koma__kakinoki_lit(s, n, "下手"))) return KOMA_FIRST;
    if ((*used = koma__kakinoki_lit(s, n, "後手")) || (*used = koma__kakinoki_lit(s, n, "上手"))) return KOMA_SECOND;
    return -1;
}

/* Set the current line's ending. */
static int set_end(kk_reader *d, const char *at, koma_shogi_ending_code code, const char *text, size_t tn,
                   long long elapsed, long long total)
{
    kk_seg *s = &d->path[d->depth - 1];
    koma_shogi_ending *e = &s->line->end;
    e->code = code;
    e->elapsed_ms = elapsed;
    e->total_ms = total;
    koma__kakinoki_where(d, at, &e->line, &e->column);
    if (code == KOMA_SHOGI_ENDING_OTHER && koma_shogi_set_text(&e->text, text, tn, 0, d->err) != 0) return -1;
    return 0;
}

/* The side to move after the current line's last ply (n plies from the start). */
static int mover_after(kk_reader *d, size_t plies) { return (int)((d->r->setup.turn + plies) % 2); }

/* The side an ending makes the winner, the mover being `mover`; -1 for an
 * ending that names none (a draw, no result, another word). */
static int end_winner(koma_shogi_ending_code code, int mover)
{
    switch (code) {
    case KOMA_SHOGI_ENDING_RESIGN:
    case KOMA_SHOGI_ENDING_MATE:
    case KOMA_SHOGI_ENDING_TIME_UP:
    case KOMA_SHOGI_ENDING_ILLEGAL_LOSS: return 1 - mover;
    case KOMA_SHOGI_ENDING_ILLEGAL_WIN:
    case KOMA_SHOGI_ENDING_ENTERING_KING:
    case KOMA_SHOGI_ENDING_PERPETUAL_CHECK: return mover;
    default: return -1;
    }
}

int koma__kakinoki_end_word(kk_reader *d, const char *from, const char *s, size_t n, int side, long long elapsed,
                            long long total)
{
    if (not_ended(d, from) != 0) return -1;
    koma_shogi_ending_code code = word_code(s, n);
    if (code == KOMA_SHOGI_ENDING_OTHER) {
        /* a word koma does not know: kept as written, the side too */
        n += (size_t)(s - from);
        s = from;
        side = -1;
    }
    size_t next;
    koma__kakinoki_current(d, &next);
    int mover = mover_after(d, next - 1);
    if (side >= 0 && side != mover) {
        /* the word said of the side that just moved: 反則負け is the mover's
         * 反則勝ち and the other way round; a word that makes a winner otherwise
         * is said of the mover only */
        if (code == KOMA_SHOGI_ENDING_ILLEGAL_LOSS) code = KOMA_SHOGI_ENDING_ILLEGAL_WIN;
        else if (code == KOMA_SHOGI_ENDING_ILLEGAL_WIN) code = KOMA_SHOGI_ENDING_ILLEGAL_LOSS;
        else if (end_winner(code, mover) >= 0)
            return koma__kakinoki_fail(d, from, KOMA_E_KIF_END, "this ending is said of the side to move, not of the side named",
                                       from, n + (size_t)(s - from));
    }
    return set_end(d, from, code, s, n, elapsed, total);
}

const char *koma__kakinoki_ended(kk_reader *d, size_t *ply)
{
    kk_seg *seg = &d->path[d->depth - 1];
    if (seg->line->end.code == KOMA_SHOGI_ENDING_NONE) return NULL;
    *ply = seg->first + seg->line->len;
    return koma__kakinoki_end_word_of(&seg->line->end);
}

/* "まで N手で X" (also "まで、N手で", "まで N手詰"): the current line's ending
 * when the line has none yet (KI2; a KIF whose moves do not end with one),
 * else checked against it. */
/* The ending a closing line says: the line's, when its moves did not say one
 * (KI2; a KIF without an ending move); else it must be the same. */
static int made_end(kk_reader *d, const char *at, koma_shogi_ending_code code, const char *text, size_t tn)
{
    const koma_shogi_ending *e = &d->path[d->depth - 1].line->end;
    if (e->code == KOMA_SHOGI_ENDING_NONE) return set_end(d, at, code, text, tn, KOMA_TIME_NONE, KOMA_TIME_NONE);
    if (e->code == code &&
        (code != KOMA_SHOGI_ENDING_OTHER || (e->text && strlen(e->text) == tn && memcmp(e->text, text, tn) == 0)))
        return 0;
    return koma__kakinoki_fail(d, at, KOMA_E_KIF_END, "the closing line does not say the ending the moves say", at,
                         d->ln - (size_t)(at - d->ls));
}

static int made_line(kk_reader *d, const char *s, size_t n)
{
    size_t i = koma__kakinoki_lit(s, n, "まで"), k;
    i += koma__kakinoki_lit(s + i, n - i, "、");
    i += koma__kakinoki_blanks(s + i, n - i);
    long long plies = koma__kakinoki_number(s + i, n - i, &k);
    if (plies < 0) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_END, "a closing line needs the number of moves", s, n);
    i += k;
    if (!(k = koma__kakinoki_lit(s + i, n - i, "手"))) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_END, "expected the number of moves and te", s + i, n - i);
    i += k;
    kk_seg *seg = &d->path[d->depth - 1];
    size_t last = seg->first + seg->line->len - 1;
    if ((size_t)plies != last) {
        char msg[96];
        snprintf(msg, sizeof msg, "the closing line says %lld moves, the line of play has %zu", plies, last);
        return koma__kakinoki_fail(d, s, KOMA_E_KIF_END, msg, NULL, 0);
    }
    int mover = mover_after(d, last);
    const char *x = s + i;
    size_t xn = n - i;
    if ((k = koma__kakinoki_lit(x, xn, "詰")) != 0 && (k == xn || (k + 3 == xn && koma__kakinoki_lit(x + k, 3, "み"))))
        return made_end(d, x, KOMA_SHOGI_ENDING_MATE, NULL, 0);
    if (!(k = koma__kakinoki_lit(x, xn, "で")))
        return koma__kakinoki_fail(d, x, KOMA_E_KIF_END, "expected de (the ending) after the number of moves", x, xn);
    x += k;
    xn -= k;
    /* [時間切れにより] SIDE の (勝ち|反則勝ち|反則負け|入玉勝ち|切れ負け) */
    size_t t = koma__kakinoki_lit(x, xn, "時間切れにより"), u;
    int side = koma__kakinoki_side(x + t, xn - t, &u);
    if (side >= 0 && (k = koma__kakinoki_lit(x + t + u, xn - t - u, "の")) != 0) {
        const char *w = x + t + u + k;
        size_t wn = xn - t - u - k;
        koma_shogi_ending_code code = KOMA_SHOGI_ENDING_NONE;
        int ok = 1;
        if (t) {
            ok = koma__kakinoki_lit(w, wn, "勝ち") == wn && side != mover;
            code = KOMA_SHOGI_ENDING_TIME_UP;
        } else if (koma__kakinoki_lit(w, wn, "勝ち") == wn) {
            /* "SIDEの勝ち" names the winner only: it agrees with an ending of the
             * moves that makes SIDE win (詰み, 反則勝ち, ...); alone, the mover resigned */
            const koma_shogi_ending *e = &d->path[d->depth - 1].line->end;
            if (e->code != KOMA_SHOGI_ENDING_NONE && end_winner(e->code, mover) == side) return 0;
            ok = side != mover;
            code = KOMA_SHOGI_ENDING_RESIGN;
        } else if (koma__kakinoki_lit(w, wn, "反則勝ち") == wn) {
            code = side == mover ? KOMA_SHOGI_ENDING_ILLEGAL_WIN : KOMA_SHOGI_ENDING_ILLEGAL_LOSS;
        } else if (koma__kakinoki_lit(w, wn, "反則負け") == wn) {
            code = side == mover ? KOMA_SHOGI_ENDING_ILLEGAL_LOSS : KOMA_SHOGI_ENDING_ILLEGAL_WIN;
        } else if (koma__kakinoki_lit(w, wn, "入玉勝ち") == wn) {
            ok = side == mover;
            code = KOMA_SHOGI_ENDING_ENTERING_KING;
        } else if (koma__kakinoki_lit(w, wn, "切れ負け") == wn || koma__kakinoki_lit(w, wn, "時間切れ負け") == wn) {
            ok = side == mover;
            code = KOMA_SHOGI_ENDING_TIME_UP;
        }
        if (code != KOMA_SHOGI_ENDING_NONE) {
            if (!ok)
                return koma__kakinoki_fail(d, x, KOMA_E_KIF_END,
                                     "the closing line's winner is not the one the side to move makes", x, xn);
            return made_end(d, x, code, NULL, 0);
        }
    }
    if (xn == 0) return koma__kakinoki_fail(d, x, KOMA_E_KIF_END, "the closing line does not say how the game ended", s, n);
    return made_end(d, x, word_code(x, xn), x, xn);
}

/* ---- header lines -------------------------------------------------------------------- */

typedef enum kk_kind {
    KK_EMPTY, KK_PROGRAM, KK_COMMENT, KK_BOOKMARK, KK_VARIATION, KK_MADE, KK_MOVES_HEADER,
    KK_BOD_TRAILER, KK_HANDICAP, KK_HAND_FIRST, KK_HAND_SECOND, KK_ROW, KK_BORDER, KK_FILES,
    KK_TURN_FIRST, KK_TURN_SECOND, KK_MOVE, KK_HEADER, KK_FOOTER, KK_SEPARATOR, KK_UNKNOWN
} kk_kind;

/* 1 when s[0..n) is three dashes or more and nothing else (trailing blanks aside). */
static int dashes(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == '-') i++;
    return i >= 3 && i == rtrim(s, n);
}

/* The key of a header line: *kl bytes, *v the value's start; 0 when none. */
static int header_split(const char *s, size_t n, size_t *kl, size_t *v)
{
    for (size_t i = 0; i < n; i++) {
        size_t c = koma__kakinoki_lit(s + i, n - i, FULL_COLON);
        if (c == 0 && s[i] == ':') c = 1;
        if (c) {
            if (i == 0) return 0;
            *kl = i;
            *v = i + c;
            return 1;
        }
        if (s[i] == ' ' || s[i] == '\t' || koma__kakinoki_lit(s + i, n - i, IDEO_SPACE)) return 0;
    }
    return 0;
}

static kk_kind classify(const kk_syntax *syn, const char *s, size_t n, int in_moves)
{
    size_t b = koma__kakinoki_blanks(s, n), kl, v;
    if (b == n) return KK_EMPTY;
    if (in_moves && koma__kakinoki_lit(s, n, "#--separator--") == rtrim(s, n)) return KK_SEPARATOR;
    if (s[0] == '#') return KK_PROGRAM;
    if (s[0] == '*') return KK_COMMENT;
    if (s[0] == '&') return KK_BOOKMARK;
    if (koma__kakinoki_lit(s + b, n - b, "変化")) return KK_VARIATION;
    if (koma__kakinoki_lit(s, n, "まで")) return KK_MADE;
    if (koma__kakinoki_lit(s, n, "手数----")) return KK_MOVES_HEADER;
    if (koma__kakinoki_lit(s, n, "手数＝")) return KK_BOD_TRAILER;
    if (koma__kakinoki_lit(s, n, "手合割" FULL_COLON) || koma__kakinoki_lit(s, n, "手合割:")) return KK_HANDICAP;
    if (koma__kakinoki_lit(s, n, "先手の持駒") || koma__kakinoki_lit(s, n, "下手の持駒")) return KK_HAND_FIRST;
    if (koma__kakinoki_lit(s, n, "後手の持駒") || koma__kakinoki_lit(s, n, "上手の持駒")) return KK_HAND_SECOND;
    if (s[0] == '|') return KK_ROW;
    if (s[0] == '+' && n > 1 && s[1] == '-') return KK_BORDER;
    if (koma__kakinoki_lit(s, n, "先手番") || koma__kakinoki_lit(s, n, "下手番")) return KK_TURN_FIRST;
    if (koma__kakinoki_lit(s, n, "後手番") || koma__kakinoki_lit(s, n, "上手番")) return KK_TURN_SECOND;
    if (syn->is_move_line(s, n)) return KK_MOVE;
    if (!in_moves && b > 0 && koma__kakinoki_lit(s + b, n - b, "９")) return KK_FILES;
    if (header_split(s, n, &kl, &v)) return KK_HEADER;
    if (in_moves && dashes(s, n)) return KK_FOOTER;
    return KK_UNKNOWN;
}

static int header_line(kk_reader *d, const char *s, size_t n)
{
    size_t kl, v;
    header_split(s, n, &kl, &v);
    size_t vb = v + koma__kakinoki_blanks(s + v, n - v);
    return koma__kif_header_add(d->r, s, kl, s + vb, rtrim(s + vb, n - vb), d->err);
}

static int handicap_line(kk_reader *d, const char *s, size_t n)
{
    size_t kl, v;
    header_split(s, n, &kl, &v);
    size_t vb = v + koma__kakinoki_blanks(s + v, n - v);
    size_t vl = rtrim(s + vb, n - vb);
    if (d->handicap_given) return fail_line(d, KOMA_E_KIF_HEADER, "a second handicap line");
    d->handicap_given = 1;
    d->preset = koma__preset_by_kif(s + vb, vl);
    return koma_shogi_record_add_header(d->r, KOMA_H_HANDICAP, NULL, 0, s + vb, vl, d->err);
}

/* "先手の持駒：飛　角二　歩十八" or "なし" */
static int hand_line(kk_reader *d, const char *s, size_t n, int side)
{
    size_t kl, v;
    if (!header_split(s, n, &kl, &v)) return fail_line(d, KOMA_E_KIF_BOARD, "a hand line is NAME, a full-width colon, then PIECES");
    if (d->hands_given & (1 << side)) return fail_line(d, KOMA_E_KIF_BOARD, "a second hand line for one side");
    d->hands_given |= 1 << side;
    size_t i = v;
    for (;;) {
        i += koma__kakinoki_blanks(s + i, n - i);
        if (i >= n) break;
        size_t k;
        if ((k = koma__kakinoki_lit(s + i, n - i, "なし")) != 0) {
            i += k;
            continue;
        }
        koma_piece p = koma__kakinoki_piece(s + i, n - i, &k);
        if (p == KOMA_PIECE_NONE || (p & KOMA_PIECE_STATE) || p == koma_piece_from_letter('K'))
            return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_BOARD, "not a piece a hand holds", s + i, n - i);
        i += k;
        int c = kanji_count(s + i, n - i, &k);
        if (c) i += k;
        else c = 1;
        if (koma_hand_add(&d->r->setup.hands[side], koma__shogi_on_board(p, side), (uint32_t)c, d->err) != 0)
            return -1;
    }
    return 0;
}

/* "| ・v香 ・ ..|一": nine squares, each a side mark (' ' or 'v') and a piece or ・ */
static int row_line(kk_reader *d, const char *s, size_t n)
{
    if (d->rows == 9) return fail_line(d, KOMA_E_KIF_BOARD, "more than nine rows");
    if (d->rows == 0) d->rows_line = d->line;
    int rank = ++d->rows;
    size_t i = 1;
    for (int f = 9; f >= 1; f--) {
        if (i >= n) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_BOARD, "a row has nine squares", s, n);
        int side = s[i] == 'v' ? KOMA_SECOND : s[i] == ' ' ? KOMA_FIRST : -1;
        if (side < 0) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_BOARD, "a square starts with ' ' or 'v'", s + i, n - i);
        i++;
        size_t k;
        koma_piece p = KOMA_PIECE_NONE;
        if ((k = koma__kakinoki_lit(s + i, n - i, "・")) == 0) {
            p = koma__kakinoki_piece(s + i, n - i, &k);
            if (p == KOMA_PIECE_NONE || k != 3)
                return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_BOARD, "not a piece", s + i, n - i);
        }
        koma_sq sq = {(uint8_t)f, (uint8_t)rank};
        uint32_t q;
        koma_sq_to_square(&d->r->setup.shape, sq, &q);
        d->r->setup.board[q] = p ? koma__shogi_on_board(p, side) : KOMA_PIECE_NONE;
        i += k;
    }
    if (i >= n || s[i] != '|') return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_BOARD, "a row ends with |", s + i, n - i);
    i++;
    size_t k;
    int r = koma__kakinoki_kanji_digit(s + i, n - i, &k);
    if (i < n && r != rank) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_BOARD, "the rank is not the next one", s + i, n - i);
    return 0;
}

/* The header is over: the setup position from the diagram, the handicap or
 * the even game. */
static int begin_moves(kk_reader *d)
{
    if (d->in_moves) return 0;
    koma_shogi_record *r = d->r;
    if (d->rows > 0 && d->rows < 9)
        return koma__error_at(d->err, KOMA_E_KIF_BOARD, d->rows_line, 1, 0, "a board diagram of %d rows", d->rows);
    if (d->rows == 0) {
        if (d->hands_given)
            return koma__error_at(d->err, KOMA_E_KIF_BOARD, d->line, 1, 0, "hands without a board diagram");
        if (d->handicap_given && d->preset == NULL) {
            const char *v = koma_shogi_record_header(r, KOMA_H_HANDICAP, NULL);
            char q[96];
            koma_quote(q, sizeof q, v, strlen(v));
            return koma__error_at(d->err, KOMA_E_KIF_HANDICAP, d->first_line, 1, 0,
                                  "unknown handicap \"%s\" and no board diagram", q);
        }
        int turn = r->setup.turn;
        const koma__preset *p = d->preset ? d->preset : koma__preset_by_kif("平手", strlen("平手"));
        if (koma__preset_position(p, &r->setup, d->err) != 0) return -1;
        if (d->turn_given) r->setup.turn = turn;
    } else if (!d->turn_given) {
        d->side_from_move = d->syn->ki2;
    }
    if (!d->handicap_given) {
        const koma__preset *p;
        if (koma__preset_of(&r->setup, &p, d->err) != 0) return -1;
        if (p && koma_shogi_record_add_header(r, KOMA_H_HANDICAP, NULL, 0, p->kif, strlen(p->kif), d->err) != 0) return -1;
    }
    d->in_moves = 1;
    d->path[0].line = &r->main;
    d->path[0].first = 1;
    d->depth = 1;
    return 0;
}

/* "変化：N手": a line replacing move N of the nearest line of the path that has
 * one, or continuing the nearest that stops just before move N. */
static int variation_line(kk_reader *d, const char *s, size_t n)
{
    if (begin_moves(d) != 0) return -1;
    size_t b = koma__kakinoki_blanks(s, n), k;
    size_t i = b + koma__kakinoki_lit(s + b, n - b, "変化");
    if ((k = koma__kakinoki_lit(s + i, n - i, FULL_COLON)) == 0 && i < n && s[i] == ':') k = 1;
    i += k;
    i += koma__kakinoki_blanks(s + i, n - i);
    long long ply = koma__kakinoki_number(s + i, n - i, &k);
    if (ply < 1) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_VARIATION, "a variation needs its move number", s, n);
    i += k;
    i += koma__kakinoki_blanks(s + i, n - i);
    i += koma__kakinoki_lit(s + i, n - i, "手");
    if (rtrim(s + i, n - i) != 0) return koma__kakinoki_fail(d, s + i, KOMA_E_KIF_VARIATION, "unexpected text", s + i, n - i);
    for (size_t j = d->depth; j-- > 0;) {
        kk_seg *seg = &d->path[j];
        size_t N = (size_t)ply;
        if ((j == 0 ? N >= seg->first : N > seg->first) && N < seg->first + seg->line->len) {
            koma_shogi_move *m = &seg->line->moves[N - seg->first];
            d->depth = j + 1;
            if (d->depth == d->cap) {
                size_t cap = d->cap * 2;
                kk_seg *p = realloc(d->path, cap * sizeof *p);
                if (p == NULL) return koma_error_set(d->err, KOMA_E_MEMORY, 0, NULL);
                d->path = p;
                d->cap = cap;
            }
            koma_shogi_line *fork = koma_shogi_move_add_fork(m, d->err);
            if (fork == NULL) return -1;
            d->path[d->depth].line = fork;
            d->path[d->depth].first = N;
            d->depth++;
            return 0;
        }
    }
    /* no line has move N, but one stops just before it with no ending: the
     * variation continues that line (Gekisashi writes a main line that stops,
     * "#--separator--", then "変化：3手" for its third move) */
    for (size_t j = d->depth; j-- > 0;) {
        kk_seg *seg = &d->path[j];
        if ((size_t)ply == seg->first + seg->line->len && seg->line->end.code == KOMA_SHOGI_ENDING_NONE) {
            d->depth = j + 1;
            return 0;
        }
    }
    return koma__kakinoki_fail(d, s, KOMA_E_KIF_VARIATION, "no line of play read so far has that move", s, n);
}

/* A comment or bookmark line: on the last thing read. */
static int note_line(kk_reader *d, const char *s, size_t n, int bookmark)
{
    char **dst;
    koma_shogi_record *r = d->r;
    if (!d->in_moves) {
        dst = bookmark ? &r->setup_bookmark : &r->setup_comment;
    } else {
        kk_seg *seg = &d->path[d->depth - 1];
        koma_shogi_line *l = seg->line;
        if (l->end.code != KOMA_SHOGI_ENDING_NONE) dst = bookmark ? &l->end.bookmark : &l->end.comment;
        else if (l->len) dst = bookmark ? &l->moves[l->len - 1].bookmark : &l->moves[l->len - 1].comment;
        else if (d->depth == 1) dst = bookmark ? &r->setup_bookmark : &r->setup_comment;
        else return fail_line(d, KOMA_E_KIF_LINE, "a comment before the first move of a variation");
    }
    /* a comment keeps its blanks; only the line end goes */
    while (n && s[n - 1] == '\r') n--;
    return koma_shogi_set_text(dst, s + 1, n - 1, 1, d->err);
}

/* The encoding a '#' line l[0..n) declares ("encoding=NAME"): KOMA__ENC_NONE
 * when it declares none, -1 for a name koma does not know (at *at, *vn bytes). */
static int declared_encoding(const char *l, size_t n, size_t *at, size_t *vn)
{
    for (size_t k = 0; k + 9 <= n; k++)
        if (memcmp(l + k, "encoding=", 9) == 0) {
            const char *v = l + k + 9;
            size_t m = 0;
            while (k + 9 + m < n && v[m] != ' ' && v[m] != '\r' && v[m] != '\t') m++;
            if (at) *at = k + 9;
            if (vn) *vn = m;
            koma__enc enc = koma__enc_find(v, m);
            return enc != KOMA__ENC_NONE ? (int)enc : -1;
        }
    return KOMA__ENC_NONE;
}

/* The line and column of byte off of the record's text t (after the mark). */
static void text_where(const kk_reader *d, const char *t, size_t off, unsigned long *line, unsigned long *column)
{
    unsigned long ln = d->first_line, col = 1;
    for (size_t i = 0; i < off; i++, col++)
        if (t[i] == '\n') ln++, col = 0;
    if (ln == d->first_line) col += d->bom;
    *line = ln;
    *column = col;
}

/*
 * The record's text as UTF-8 (decoded into dec unless it is UTF-8) and the
 * encoding it is read in (d->enc, and *enc for meta.source): the caller's
 * (koma_shogi_record.encoding: --encoding, or UTF-16 the stream made UTF-8); else a
 * UTF-8 byte order mark; else the encoding the first '#' lines declare, when the
 * bytes are valid in it; else the first of UTF-8, EUC-JP and Shift_JIS in which
 * they are (koma__enc_detect). A declaration the bytes or the mark contradict is
 * followed by neither: the record is read as its bytes say, with a warning.
 */
static int decode(kk_reader *d, const char *s, size_t len, koma_buffer *dec, const char **text, size_t *tlen,
                  koma__enc *enc_out)
{
    koma_shogi_record *r = d->r;
    koma__enc given = r->encoding ? koma__enc_find(r->encoding, strlen(r->encoding)) : KOMA__ENC_NONE;
    koma__enc forced = r->transcoded ? KOMA__ENC_UTF8 : given;
    d->bom = 0;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 && (forced == KOMA__ENC_NONE || forced == KOMA__ENC_UTF8))
        d->bom = 3;
    /* a declaration among the first lines of '#' */
    koma__enc declared = KOMA__ENC_NONE;
    unsigned long lines = 0, decl_line = 0, decl_col = 0;
    for (size_t i = d->bom; declared == KOMA__ENC_NONE && i < len && s[i] == '#'; lines++) {
        const char *e = memchr(s + i, '\n', len - i);
        size_t n = e ? (size_t)(e - (s + i)) : len - i;
        size_t at = 0, vn = 0;
        int x = declared_encoding(s + i, n, &at, &vn);
        decl_line = d->first_line + lines;
        decl_col = at + 1 + (lines == 0 ? d->bom : 0);
        if (x < 0 && forced == KOMA__ENC_NONE) {
            char q[48];
            koma_quote(q, sizeof q, s + i + at, vn);
            return koma__error_at(d->err, KOMA_E_CONVERT_ENCODING, decl_line, decl_col, 0,
                                  "unknown encoding \"%s\" (koma reads UTF-8, Shift_JIS, EUC-JP and UTF-16)", q);
        }
        if (x > 0) declared = (koma__enc)x;
        if (!e) break;
        i += n + 1;
    }
    const char *t = s + d->bom;
    size_t tl = len - d->bom, bad = 0;
    unsigned long ln, col;
    const char *nul = memchr(t, '\0', tl);
    if (nul) {
        /* text files hold no NUL byte (and C strings would cut the text there) */
        bad = (size_t)(nul - t);
        text_where(d, t, bad, &ln, &col);
        return koma__error_at(d->err, KOMA_E_CONVERT_ENCODING, ln, col, bad, "a NUL byte in the text");
    }
    koma__enc enc = forced, best = KOMA__ENC_NONE;
    const char *why = NULL;
    if (enc == KOMA__ENC_NONE && d->bom) {
        enc = KOMA__ENC_UTF8;
        why = "its byte order mark says UTF-8";
    } else if (enc == KOMA__ENC_NONE && declared != KOMA__ENC_NONE && !koma__enc_utf16(declared) &&
               koma__enc_valid(declared, t, tl, &bad)) {
        enc = declared;
    } else if (enc == KOMA__ENC_NONE) {
        enc = koma__enc_detect(t, tl, declared && !koma__enc_utf16(declared) ? NULL : &bad, &best);
        if (enc == KOMA__ENC_NONE) {
            /* valid in nothing: as the declaration says, else as the longest valid start */
            text_where(d, t, bad, &ln, &col);
            return koma__error_at(d->err, KOMA_E_CONVERT_ENCODING, ln, col, bad, "invalid %s",
                                  koma__enc_name(declared && !koma__enc_utf16(declared) ? declared : best));
        }
        why = "its bytes are";
    }
    if (r->transcoded && declared != KOMA__ENC_NONE && declared != given &&
        !(declared == KOMA__ENC_UTF16 && koma__enc_utf16(given))) {
        koma__error_at(&r->warning, KOMA_E_CONVERT_ENCODING, decl_line, decl_col, 0,
                       "the record declares %s, but its byte order mark says %s: read as %s",
                       koma__enc_name(declared), koma__enc_name(given), koma__enc_name(given));
    } else if (why && declared != KOMA__ENC_NONE && declared != enc) {
        koma__error_at(&r->warning, KOMA_E_CONVERT_ENCODING, decl_line, decl_col, 0,
                       "the record declares %s, but %s%s%s: read as %s", koma__enc_name(declared), why,
                       d->bom ? "" : " ", d->bom ? "" : koma__enc_name(enc), koma__enc_name(enc));
    }
    d->enc = enc;
    if (enc == KOMA__ENC_UTF8 && (why == NULL ? forced == KOMA__ENC_NONE : !d->bom)) {
        /* UTF-8 the text was found valid in just now (declared, or detected) */
        *text = t;
        *tlen = tl;
        *enc_out = r->transcoded ? given : enc;
        return 0;
    }
    int x = koma__enc_decode(enc, t, tl, dec, text, tlen, &bad);
    if (x == -2) return koma_error_set(d->err, KOMA_E_MEMORY, 0, NULL);
    if (x != 0) {
        text_where(d, t, bad, &ln, &col);
        return koma__error_at(d->err, KOMA_E_CONVERT_ENCODING, ln, col, bad, "invalid %s", koma__enc_name(enc));
    }
    *enc_out = r->transcoded ? given : enc;
    return 0;
}

int koma__kakinoki_read(const kk_syntax *syn, koma_hub *h, const char *s, size_t len, unsigned long line,
                  koma_shogi_record *r, koma_error *err)
{
    kk_reader d;
    memset(&d, 0, sizeof d);
    d.syn = syn;
    d.h = h;
    d.r = r;
    d.err = err;
    d.src = s;
    d.first_line = line;
    koma_buffer dec = {0};
    const char *text = NULL;
    size_t tlen = 0;
    int rc = -1;
    d.cap = 8;
    d.path = malloc(d.cap * sizeof *d.path);
    if (d.path == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    koma__enc enc = KOMA__ENC_UTF8;
    if (decode(&d, s, len, &dec, &text, &tlen, &enc) != 0) goto out;
    const char *encname = koma__enc_name(enc);
    if (koma_shogi_set_text(&r->source_format, syn->name, strlen(syn->name), 0, err) != 0 ||
        koma_shogi_set_text(&r->source_encoding, encname, strlen(encname), 0, err) != 0)
        goto out;
    koma_shape shape = {2, {9, 9, 1}, 81};
    if (koma_position_reset(&r->setup, &shape, err) != 0) goto out;
    r->setup.style[0] = 'S';
    r->setup.style[1] = 's';
    r->setup.turn = KOMA_FIRST;
    const char *src = s + d.bom;
    size_t srclen = len - d.bom, sp = 0;
    d.line = line;
    for (size_t i = 0; i <= tlen;) {
        const char *e = memchr(text + i, '\n', tlen - i);
        size_t n = e ? (size_t)(e - (text + i)) : tlen - i;
        d.ls = text + i;
        d.ln = n;
        const char *se = memchr(src + sp, '\n', srclen - sp);
        d.src_ls = src + sp;
        d.src_ln = se ? (size_t)(se - (src + sp)) : srclen - sp;
        size_t m = n;
        while (m && d.ls[m - 1] == '\r') m--;
        kk_kind kind = classify(syn, d.ls, m, d.in_moves);
        int x = 0;
        if (d.footer && (kind == KK_MOVE || kind == KK_VARIATION || kind == KK_MADE || kind == KK_MOVES_HEADER)) {
            x = fail_line(&d, KOMA_E_KIF_LINE, "play after the footer (the line of dashes that ends the moves)");
        } else if (d.footer && kind != KK_EMPTY) {
            /* a footer's lines ("generated by ...", Gekisashi's clipboard KI2):
             * the program's remarks */
            x = koma_shogi_record_add_header(r, KOMA_H_OTHER, "#", 1, d.ls, rtrim(d.ls, m), err);
            kind = KK_EMPTY;
        }
        if (x != 0) goto out;
        switch (kind) {
        case KK_EMPTY: case KK_BORDER: case KK_FILES: case KK_BOD_TRAILER: case KK_SEPARATOR: break;
        case KK_FOOTER: d.footer = 1; break;
        case KK_PROGRAM:
            /* the encoding declaration is the writer's to make again */
            if (!(koma__kakinoki_lit(d.ls, m, "#KIF ") || koma__kakinoki_lit(d.ls, m, "#KI2 ")))
                x = koma_shogi_record_add_header(r, KOMA_H_OTHER, "#", 1, d.ls + 1, m - 1, err);
            break;
        case KK_COMMENT: x = note_line(&d, d.ls, m, 0); break;
        case KK_BOOKMARK: x = note_line(&d, d.ls, m, 1); break;
        case KK_VARIATION: x = variation_line(&d, d.ls, m); break;
        case KK_MADE: x = begin_moves(&d) || made_line(&d, d.ls, rtrim(d.ls, m)); break;
        case KK_MOVES_HEADER: x = begin_moves(&d); break;
        case KK_MOVE: x = begin_moves(&d) || syn->move_line(&d, d.ls, m); break;
        case KK_HANDICAP:
        case KK_HAND_FIRST:
        case KK_HAND_SECOND:
        case KK_ROW:
        case KK_TURN_FIRST:
        case KK_TURN_SECOND:
        case KK_HEADER:
            if (d.in_moves) {
                x = fail_line(&d, KOMA_E_KIF_LINE, "a header or board line among the moves");
                break;
            }
            if (kind == KK_HANDICAP) x = handicap_line(&d, d.ls, m);
            else if (kind == KK_HAND_FIRST) x = hand_line(&d, d.ls, m, KOMA_FIRST);
            else if (kind == KK_HAND_SECOND) x = hand_line(&d, d.ls, m, KOMA_SECOND);
            else if (kind == KK_ROW) x = row_line(&d, d.ls, rtrim(d.ls, m));
            else if (kind == KK_HEADER) x = header_line(&d, d.ls, m);
            else {
                d.turn_given = 1;
                r->setup.turn = kind == KK_TURN_FIRST ? KOMA_FIRST : KOMA_SECOND;
            }
            break;
        case KK_UNKNOWN: x = fail_line(&d, KOMA_E_KIF_LINE, d.syn->ki2 ? "not a line of KI2" : "not a line of KIF"); break;
        }
        if (x != 0) goto out;
        if (!e) break;
        i += n + 1;
        if (se) sp += d.src_ln + 1;
        d.line++;
    }
    if (begin_moves(&d) != 0) goto out;
    rc = 0;
out:
    free(d.path);
    koma_buffer_cleanup(&dec);
    return rc;
}

/* ---- several records in one input -------------------------------------------------- */

/*
 * A record ends before a line that opens another (a declaration #KIF/#KI2, a
 * header KEY：VALUE, 手合割, a hand line) after one of its move lines. Each line
 * is decoded and classified as the reader does (classify), in the encoding the
 * reader will give the record (decode): the caller's, or the byte order mark's;
 * else the first of the declared encoding, UTF-8, EUC-JP and Shift_JIS in which
 * the record's bytes are valid. The record is scanned in each of them in turn:
 * reaching a line that is not valid in one means the record holds it, so it is
 * scanned again in the next. Valid in none, it is scanned in the declared
 * encoding (Shift_JIS without one), what cannot be decoded taken for a line of
 * no kind.
 */
enum { SCAN_NOT_VALID = 2 };

typedef struct kk_scan {
    const kk_syntax *syn;
    koma__enc enc;                     /* of cd */
    iconv_t cd;                        /* enc to UTF-8, opened when first needed */
    char *buf;                         /* a decoded line */
    size_t cap;
} kk_scan;

/* The line s[0..n) as UTF-8 in *t, *tn: itself (UTF-8) or decoded from enc. 1
 * when it is not text in that encoding, -1 on memory. */
static int scan_line(kk_scan *sc, koma__enc enc, const char *s, size_t n, const char **t, size_t *tn)
{
    if (enc == KOMA__ENC_UTF8) {
        *t = s;
        *tn = n;
        return koma__utf8_valid(s, n, NULL) ? 0 : 1;
    }
    if (enc == KOMA__ENC_EUCJP && !koma__eucjp_well_formed(s, n, NULL)) return 1;
    if (sc->cd != (iconv_t)-1 && sc->enc != enc) {
        iconv_close(sc->cd);
        sc->cd = (iconv_t)-1;
    }
    if (sc->cd == (iconv_t)-1) {
        if ((sc->cd = iconv_open("UTF-8", koma__enc_iconv(enc))) == (iconv_t)-1) return 1;
        sc->enc = enc;
    }
    if (n > (SIZE_MAX - 1) / 3) return 1;
    if (sc->cap < n * 3 + 1) {
        char *b = realloc(sc->buf, n * 3 + 1);
        if (b == NULL) return -1;
        sc->buf = b;
        sc->cap = n * 3 + 1;
    }
    char *in = (char *)s, *out = sc->buf;
    size_t left = n, room = sc->cap;
    iconv(sc->cd, NULL, NULL, NULL, NULL);
    if (iconv(sc->cd, &in, &left, &out, &room) == (size_t)-1) return 1;
    *t = sc->buf;
    *tn = (size_t)(out - sc->buf);
    return 0;
}

/* Scan s[from..len) in encoding enc (sure: lines that are not text in it are
 * lines of no kind, else SCAN_NOT_VALID). */
static int scan_record(kk_scan *sc, koma__enc enc, int sure, const char *s, size_t len, size_t from, int at_end,
                       size_t *rec_len)
{
    int moves = 0, in_moves = 0;
    for (size_t i = from; i < len;) {
        const char *e = memchr(s + i, '\n', len - i);
        if (!e && !at_end) return KOMA__SPLIT_MORE;
        size_t n = e ? (size_t)(e - (s + i)) : len - i, m = n, tn;
        while (m && s[i + m - 1] == '\r') m--;
        const char *t;
        int x = scan_line(sc, enc, s + i, m, &t, &tn);
        if (x < 0) return KOMA__SPLIT_MEMORY;
        if (x > 0 && !sure) return SCAN_NOT_VALID;
        kk_kind k = x ? KK_UNKNOWN : classify(sc->syn, t, tn, in_moves);
        if (moves && (k == KK_HEADER || k == KK_HANDICAP || k == KK_HAND_FIRST || k == KK_HAND_SECOND ||
                      (k == KK_PROGRAM && (koma__kakinoki_lit(t, tn, "#KIF") || koma__kakinoki_lit(t, tn, "#KI2"))))) {
            *rec_len = i;
            return KOMA__SPLIT_RECORD;
        }
        if (k == KK_MOVE) moves = 1;
        /* the reader's begin_moves */
        if (k == KK_MOVE || k == KK_MADE || k == KK_MOVES_HEADER || k == KK_VARIATION) in_moves = 1;
        if (!e) break;
        i += n + 1;
    }
    if (!at_end) return KOMA__SPLIT_MORE;
    *rec_len = len;
    return KOMA__SPLIT_RECORD;
}

int koma__kakinoki_split(const kk_syntax *syn, const char *s, size_t len, int at_end, koma__enc forced,
                         size_t *rec_len, size_t *used)
{
    static const char bom[] = "\xef\xbb\xbf";
    int mark = forced == KOMA__ENC_NONE || forced == KOMA__ENC_UTF8;
    if (mark && len < 3 && !at_end && (len == 0 || memcmp(s, bom, len) == 0)) return KOMA__SPLIT_MORE;
    size_t from = mark && len >= 3 && memcmp(s, bom, 3) == 0 ? 3 : 0;
    koma__enc order[4];
    size_t n = 0;
    if (forced != KOMA__ENC_NONE) order[n++] = forced;
    else if (from) order[n++] = KOMA__ENC_UTF8;
    else {
        /* a declaration among the first lines of '#' (as decode reads it) */
        for (size_t i = 0; n == 0 && i < len && s[i] == '#';) {
            const char *e = memchr(s + i, '\n', len - i);
            if (!e && !at_end) return KOMA__SPLIT_MORE;
            size_t ln = e ? (size_t)(e - (s + i)) : len - i;
            int x = declared_encoding(s + i, ln, NULL, NULL);
            if (x < 0) break;              /* a name koma does not know: the reader says so */
            if (x > 0 && !koma__enc_utf16((koma__enc)x)) order[n++] = (koma__enc)x;
            if (x > 0 || !e) break;
            i += ln + 1;
        }
        static const koma__enc detect[] = {KOMA__ENC_UTF8, KOMA__ENC_EUCJP, KOMA__ENC_SJIS};
        for (size_t k = 0; k < 3; k++)
            if (n == 0 || order[0] != detect[k]) order[n++] = detect[k];
    }
    /* valid in none of them: read (and refused) in the first */
    koma__enc last = n > 1 && order[0] == KOMA__ENC_UTF8 ? KOMA__ENC_SJIS : order[0];
    kk_scan sc = {syn, KOMA__ENC_NONE, (iconv_t)-1, NULL, 0};
    int rc = SCAN_NOT_VALID;
    for (size_t k = 0; k < n && rc == SCAN_NOT_VALID; k++)
        rc = scan_record(&sc, order[k], 0, s, len, from, at_end, rec_len);
    if (rc == SCAN_NOT_VALID) rc = scan_record(&sc, last, 1, s, len, from, at_end, rec_len);
    if (sc.cd != (iconv_t)-1) iconv_close(sc.cd);
    free(sc.buf);
    if (rc == KOMA__SPLIT_RECORD) *used = *rec_len;
    return rc;
}

/* ---- the writer ---------------------------------------------------------------------- */

struct kk_writer {
    const kk_wsyntax *syn;
    koma_hub *h;
    const koma_shogi_record *r;
    int handicap;                      /* a handicap game: 下手 and 上手 */
    long long run[2];                  /* each side's total time so far */
};

int koma__kakinoki_read_from(const kk_writer *w, const char *fmt)
{
    return w->r->source_format != NULL && strcmp(w->r->source_format, fmt) == 0;
}

int koma__kakinoki_mover(const kk_writer *w, size_t ply) { return (int)((w->r->setup.turn + ply - 1) % 2); }
long long *koma__kakinoki_running(kk_writer *w) { return w->run; }

int koma__kakinoki_put_comment(koma_buffer *o, const char *comment, const char *bookmark, koma_error *err)
{
    if (comment && koma__buf_lines(o, "*", comment, err)) return -1;
    if (bookmark && koma__buf_lines(o, "&", bookmark, err)) return -1;
    return 0;
}

/* The key a header line KEY：VALUE reads as (koma__kif_header_add): a date's
 * key with a value that is not a date koma reads (2022年01月09日, 14：59) is
 * another key, its value kept as written. */
static koma_shogi_header_key read_key(const char *k, size_t kl, const char *v, size_t vl)
{
    koma_shogi_header_key key = koma__kif_header_key(k, kl);
    char iso[48];
    if ((key == KOMA_H_START || key == KOMA_H_END) && koma__kif_date_in(v, vl, iso) == 0) return KOMA_H_OTHER;
    return key;
}

/* "KEY：VALUE" lines (one a line of a value); the line must read back as that key. */
static int put_header(kk_writer *w, koma_buffer *o, const char *key, const char *value, koma_shogi_header_key want,
                      koma_error *err)
{
    const char *p = value;
    for (;;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        /* blanks around a value cannot be kept (a reader trims them): refused
         * rather than dropped */
        const char *next = e ? e + 1 : NULL;
        if (koma__kakinoki_blanks(p, n) != 0 || rtrim(p, n) != n) {
            char q[64];
            koma_quote(q, sizeof q, key, strlen(key));
            return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                                  "%s cannot hold the header \"%s\" with blanks around its value", w->syn->name, q);
        }
        size_t mark = o->len;
        if (koma__buf_puts(o, key, err) || koma__buf_puts(o, FULL_COLON, err) || koma__buf_put(o, p, n, err))
            return -1;
        const char *l = o->data + mark;
        size_t ln = o->len - mark, kl, v;
        kk_kind kind = classify(w->syn->syntax, l, ln, 0);
        int ok = (kind == KK_HEADER || (kind == KK_HANDICAP && want == KOMA_H_HANDICAP)) && header_split(l, ln, &kl, &v) &&
                 kl == strlen(key) && read_key(l, kl, p, n) == want &&
                 rtrim(l + v, ln - v) - koma__kakinoki_blanks(l + v, ln - v) == n;
        if (!ok) {
            char q[64];
            koma_quote(q, sizeof q, key, strlen(key));
            return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                                  "%s cannot hold the header \"%s\" with that value", w->syn->name, q);
        }
        if (koma__buf_put(o, "\n", 1, err)) return -1;
        if (!next) return 0;
        p = next;
    }
}

static const char *const count_kanji[] = {"",   "",     "二",   "三",   "四",   "五",   "六",
                                          "七", "八",   "九",   "十",   "十一", "十二", "十三",
                                          "十四", "十五", "十六", "十七", "十八"};

static int put_hand(koma_buffer *o, const koma_position *p, int side, const char *label, koma_error *err)
{
    if (koma__buf_puts(o, label, err)) return -1;
    static const char order[] = "RBGSNLP";
    int any = 0;
    for (const char *c = order; *c; c++) {
        koma_piece k = koma_piece_from_letter(side ? (char)(*c | 0x20) : *c);
        uint32_t n = koma_hand_count(&p->hands[side], k);
        if (n == 0) continue;
        any = 1;
        if (koma__buf_puts(o, koma__kakinoki_piece_char(koma_piece_from_letter(*c)), err)) return -1;
        if (n >= 2 && n <= 18 && koma__buf_puts(o, count_kanji[n], err)) return -1;
        if (n > 18 && koma__buf_printf(o, err, "%u", n)) return -1;
        if (koma__buf_puts(o, IDEO_SPACE, err)) return -1;
    }
    if (!any && koma__buf_puts(o, "なし", err)) return -1;
    return koma__buf_put(o, "\n", 1, err);
}

static int put_board(koma_buffer *o, const koma_position *p, koma_error *err)
{
    if (put_hand(o, p, KOMA_SECOND, "後手の持駒" FULL_COLON, err) ||
        koma__buf_puts(o, "  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n", err))
        return -1;
    for (unsigned rank = 1; rank <= 9; rank++) {
        if (koma__buf_put(o, "|", 1, err)) return -1;
        for (unsigned file = 9; file >= 1; file--) {
            uint32_t q;
            koma_sq sq = {(uint8_t)file, (uint8_t)rank};
            koma_sq_to_square(&p->shape, sq, &q);
            koma_piece x = p->board[q];
            if (x == KOMA_PIECE_NONE) {
                if (koma__buf_puts(o, " ・", err)) return -1;
            } else if (koma__buf_puts(o, koma_piece_side(x) == KOMA_SECOND ? "v" : " ", err) ||
                       koma__buf_puts(o, koma__kakinoki_piece_char(x), err)) {
                return -1;
            }
        }
        if (koma__buf_puts(o, "|", err) || koma__buf_puts(o, kanji_digits[rank - 1], err) ||
            koma__buf_put(o, "\n", 1, err))
            return -1;
    }
    if (koma__buf_puts(o, "+---------------------------+\n", err) ||
        put_hand(o, p, KOMA_FIRST, "先手の持駒" FULL_COLON, err))
        return -1;
    if (p->turn == KOMA_SECOND && koma__buf_puts(o, "後手番\n", err)) return -1;
    return 0;
}

static const char *side_word(const kk_writer *w, int side)
{
    return koma__kif_header_name(side == KOMA_FIRST ? KOMA_H_FIRST_NAME : KOMA_H_SECOND_NAME, w->handicap);
}

/* "まで N手で..." for a line of play whose last ply is `last`. */
static int put_made(kk_writer *w, koma_buffer *o, const koma_shogi_ending *e, size_t last, koma_error *err)
{
    if (e->code == KOMA_SHOGI_ENDING_NONE) return 0;
    int mover = (int)((w->r->setup.turn + last) % 2), other = 1 - mover;
    if (koma__buf_printf(o, err, "まで%zu手で", last)) return -1;
    int rc;
    switch (e->code) {
    case KOMA_SHOGI_ENDING_RESIGN: rc = koma__buf_printf(o, err, "%sの勝ち", side_word(w, other)); break;
    case KOMA_SHOGI_ENDING_TIME_UP: rc = koma__buf_printf(o, err, "時間切れにより%sの勝ち", side_word(w, other)); break;
    case KOMA_SHOGI_ENDING_ILLEGAL_WIN: rc = koma__buf_printf(o, err, "%sの反則勝ち", side_word(w, mover)); break;
    case KOMA_SHOGI_ENDING_ILLEGAL_LOSS: rc = koma__buf_printf(o, err, "%sの反則負け", side_word(w, mover)); break;
    case KOMA_SHOGI_ENDING_ENTERING_KING: rc = koma__buf_printf(o, err, "%sの入玉勝ち", side_word(w, mover)); break;
    default: rc = koma__buf_puts(o, koma__kakinoki_end_word_of(e), err); break;
    }
    return rc || koma__buf_put(o, "\n", 1, err) ? -1 : 0;
}

/* The running totals after moves [0, k) of l, from run. */
static void run_to(const kk_writer *w, const koma_shogi_line *l, size_t first, size_t k, long long run[2])
{
    for (size_t i = 0; i < k; i++) {
        const koma_shogi_move *m = &l->moves[i];
        int side = koma__kakinoki_mover(w, first + i);
        if (m->total_ms != KOMA_TIME_NONE) run[side] = m->total_ms;
        else if (m->elapsed_ms != KOMA_TIME_NONE) run[side] += m->elapsed_ms;
    }
}

/* A line of play, its closing line, then its variations, the last branch first. */
static int put_tree(kk_writer *w, koma_buffer *o, const koma_shogi_line *l, size_t first, const long long run0[2],
                    koma_error *err)
{
    w->run[0] = run0[0];
    w->run[1] = run0[1];
    if (w->syn->write_line(w, l, first, o, err) != 0) return -1;
    if (put_made(w, o, &l->end, first + l->len - 1, err)) return -1;
    if (koma__kakinoki_put_comment(o, l->end.comment, l->end.bookmark, err)) return -1;
    for (size_t i = l->len; i-- > 0;) {
        const koma_shogi_move *m = &l->moves[i];
        if (m->nforks == 0) continue;
        long long run[2] = {run0[0], run0[1]};
        run_to(w, l, first, i, run);
        for (size_t k = 0; k < m->nforks; k++) {
            if (koma__buf_printf(o, err, "\n変化" FULL_COLON "%zu手\n", first + i)) return -1;
            if (put_tree(w, o, &m->forks[k], first + i, run, err) != 0) return -1;
        }
    }
    return 0;
}

/* The periods of the record as 持ち時間 lines (each side's too), but those its
 * time control text says already (as another program wrote it). */
static int put_periods(kk_writer *w, koma_buffer *o, koma_error *err)
{
    static const char *const keys[] = {"持ち時間", KOMA__KIF_FIRST_TIME, KOMA__KIF_SECOND_TIME};
    const koma_shogi_record *r = w->r;
    for (int side = 0; side < 3; side++) {
        if (r->nperiods[side] == 0 || koma__kif_periods_said(r, side)) continue;
        char text[128];
        if (koma__kif_periods_out(r->periods[side], r->nperiods[side], side == 0, text, sizeof text) != 0)
            return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                                  "%s cannot say these time control periods (a main time, an increment, byoyomi)",
                                  w->syn->name);
        if (put_header(w, o, keys[side], text, side == 0 ? KOMA_H_TIME_CONTROL : KOMA_H_OTHER, err)) return -1;
    }
    return 0;
}

static int put_record(kk_writer *w, koma_buffer *o, koma__enc enc, koma_error *err)
{
    const koma_shogi_record *r = w->r;
    if (koma__buf_printf(o, err, "%s%s\n", w->syn->declaration, koma__enc_name(enc))) return -1;
    for (size_t i = 0; i < r->nheaders; i++)
        if (r->headers[i].key == KOMA_H_OTHER && r->headers[i].name && !strcmp(r->headers[i].name, "#") &&
            koma__buf_lines(o, "#", r->headers[i].value, err))
            return -1;
    static const koma_shogi_header_key order[] = {KOMA_H_START,   KOMA_H_END,          KOMA_H_NAME, KOMA_H_EVENT,
                                      KOMA_H_ROUND,   KOMA_H_OPENING,      KOMA_H_TIME_CONTROL, KOMA_H_SITE};
    char date[32];
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        /* periods before a time control text, so that each reads back as itself */
        if (order[k] == KOMA_H_TIME_CONTROL && put_periods(w, o, err) != 0) return -1;
        for (size_t i = 0; i < r->nheaders; i++) {
            const koma_shogi_header *hd = &r->headers[i];
            if (hd->key != order[k]) continue;
            const char *v = hd->key == KOMA_H_START || hd->key == KOMA_H_END ? koma__kif_date_out(hd->value, date) : hd->value;
            if (put_header(w, o, koma__kif_header_name(order[k], 0), v, order[k], err)) return -1;
        }
    }
    for (size_t i = 0; i < r->nheaders; i++) {
        const koma_shogi_header *hd = &r->headers[i];
        if (hd->key != KOMA_H_OTHER || (hd->name && !strcmp(hd->name, "#"))) continue;
        if (put_header(w, o, hd->name ? hd->name : "", hd->value, KOMA_H_OTHER, err)) return -1;
    }
    /* the handicap line (as the record has it, else the setup's name), then a
     * diagram when the setup is not the position that name gives */
    const char *hc = koma_shogi_record_header(r, KOMA_H_HANDICAP, NULL);
    const koma__preset *setup_preset;
    if (koma__preset_of(&r->setup, &setup_preset, err) != 0) return -1;
    if (hc == NULL && setup_preset) hc = setup_preset->kif;
    const koma__preset *named = hc ? koma__preset_by_kif(hc, strlen(hc)) : NULL;
    if (hc && put_header(w, o, "手合割", hc, KOMA_H_HANDICAP, err)) return -1;
    if ((named == NULL || named != setup_preset) && put_board(o, &r->setup, err)) return -1;
    const char *v;
    if ((v = koma_shogi_record_header(r, KOMA_H_FIRST_NAME, NULL)) &&
        put_header(w, o, side_word(w, KOMA_FIRST), v, KOMA_H_FIRST_NAME, err))
        return -1;
    if ((v = koma_shogi_record_header(r, KOMA_H_SECOND_NAME, NULL)) &&
        put_header(w, o, side_word(w, KOMA_SECOND), v, KOMA_H_SECOND_NAME, err))
        return -1;
    if (w->syn->moves_header && (koma__buf_puts(o, w->syn->moves_header, err) || koma__buf_put(o, "\n", 1, err)))
        return -1;
    if (koma__kakinoki_put_comment(o, r->setup_comment, r->setup_bookmark, err)) return -1;
    long long run0[2] = {0, 0};
    return put_tree(w, o, &r->main, 1, run0, err);
}

int koma__kakinoki_write(const kk_wsyntax *syn, koma_hub *h, const koma_shogi_record *r, unsigned flags, koma_buffer *out,
                   koma_error *err)
{
    if (koma__srec_shogi_only(r, syn->name, err) != 0) return -1;
    kk_writer w = {syn, h, r, 0, {0, 0}};
    const koma__preset *p;
    if (koma__preset_of(&r->setup, &p, err) != 0) return -1;
    w.handicap = p != NULL && strcmp(p->kif, "平手") != 0;
    /* Shift_JIS when asked; else the encoding of the KIF or KI2 the record came
     * from when it is Shift_JIS or EUC-JP (UTF-16 is written as UTF-8) */
    int from_kk = r->source_format && (!strcmp(r->source_format, "kif") || !strcmp(r->source_format, "ki2"));
    koma__enc source = from_kk && r->source_encoding ? koma__enc_find(r->source_encoding, strlen(r->source_encoding))
                                                     : KOMA__ENC_NONE;
    koma__enc enc = (flags & KOMA_WRITE_SHIFT_JIS) ? KOMA__ENC_SJIS
                    : !(flags & KOMA_WRITE_UTF8) && (source == KOMA__ENC_SJIS || source == KOMA__ENC_EUCJP) ? source
                                                                                                      : KOMA__ENC_UTF8;
    koma_buffer body = {0};
    int rc = -1;
    if (put_record(&w, &body, enc, err) != 0) goto out;
    if (enc == KOMA__ENC_UTF8) {
        rc = koma__buf_put(out, body.data, body.len, err);
        goto out;
    }
    koma_buffer sj = {0};
    size_t bad;
    int x = koma__from_utf8(koma__enc_iconv(enc), body.data, body.len, &sj, &bad);
    if (x == 0) rc = koma__buf_put(out, sj.data, sj.len, err);
    koma_buffer_cleanup(&sj);
    if (x == -2) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    } else if (x == -1) {
        if (flags & KOMA_WRITE_SHIFT_JIS) {
            char q[32];
            unsigned char lead = (unsigned char)body.data[bad];
            size_t cn = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;   /* the character */
            koma_quote(q, sizeof q, body.data + bad, body.len - bad < cn ? body.len - bad : cn);
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "Shift_JIS has no character \"%s\"", q);
        } else {
            /* a character the source's encoding cannot hold: UTF-8 instead */
            body.len = 0;
            if (put_record(&w, &body, KOMA__ENC_UTF8, err) == 0) rc = koma__buf_put(out, body.data, body.len, err);
        }
    }
out:
    koma_buffer_cleanup(&body);
    return rc;
}
