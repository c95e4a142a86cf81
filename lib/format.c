/*
 * lib/format.c — the format registry (koma/format.h), what an input looks
 * like, and the record streams: any readable format in, PCN records out; PCN
 * records in, any writable format out. The small helpers every format module
 * shares (output buffers, text encodings, located errors) are lib/util_text.c's.
 */
#include <errno.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"
#include "internal.h"
#include "record_internal.h"

/* ---- formats koma recognises but does not read ------------------------------------ */

#define has koma__contains

/* The first non-blank byte. */
static const char *skip_blank(const char *s, size_t len, size_t *rest)
{
    size_t i = 0;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) i = 3;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    *rest = len - i;
    return s + i;
}

static int detect_pgn(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t n;
    const char *p = skip_blank(s, len, &n);
    if (n > 8 && p[0] == '[' && (has(p, n < 64 ? n : 64, " \"") && (has(s, len, "[Event ") ||
                                                                    has(s, len, "[White "))))
        return 3;
    /* movetext alone: "1. e4", "1.d4", "1. Nf3" */
    if (n >= 4 && p[0] == '1' && p[1] == '.') {
        size_t i = 2;
        while (i < n && p[i] == ' ') i++;
        if (i + 1 < n && ((p[i] >= 'a' && p[i] <= 'h' && p[i + 1] >= '1' && p[i + 1] <= '8') ||
                          (p[i] && strchr("NBRQK", p[i]) && p[i + 1] >= 'a' && p[i + 1] <= 'h')))
            return 2;
    }
    return 0;
}

/* A chess (X-)FEN or EPD line: eight ranks of pnbrqk and 1-8, then w or b and the
 * castling field. (Chess positions are read as FEEN; Fairy-Stockfish FEN, with
 * hands in brackets, only for the shogi games.) */
static int detect_chess_fen(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t n, i = 0;
    const char *p = skip_blank(s, len, &n);
    int ranks = 1;
    for (; i < n && p[i] != ' '; i++) {
        if (p[i] == '/') ranks++;
        else if (p[i] == '\0' || (!(p[i] >= '1' && p[i] <= '8') && !strchr("pnbrqkPNBRQK", p[i]))) return 0;
    }
    if (ranks != 8 || i + 4 > n || (p[i + 1] != 'w' && p[i + 1] != 'b') || p[i + 2] != ' ') return 0;
    return p[i + 3] == '-' || (p[i + 3] && strchr("KQkqABCDEFGHabcdefgh", p[i + 3])) ? 2 : 0;
}

static int detect_sgf(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t n;
    const char *p = skip_blank(s, len, &n);
    return n >= 2 && p[0] == '(' && p[1] == ';' ? 3 : 0;
}

/* PSN (Portable Shogi Notation): PGN's tag pairs with Sente/Gote, or moves
 * such as "P7g-7f" / "Bx2b+" after tag pairs. */
static int detect_psn(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t n;
    const char *p = skip_blank(s, len, &n);
    if (n < 8 || p[0] != '[') return 0;
    if (has(s, len, "[Sente \"") || has(s, len, "[Gote \"") || has(s, len, "[Handicap \"")) return 4;
    for (size_t i = 0; i + 6 <= len; i++) {
        const char *m = s + i;
        if ((i == 0 || m[-1] == ' ' || m[-1] == '.') && m[0] && strchr("PLNSGBRK", m[0]) &&
            m[1] >= '1' && m[1] <= '9' && m[2] >= 'a' && m[2] <= 'i' && (m[3] == '-' || m[3] == 'x') &&
            m[4] >= '1' && m[4] <= '9' && m[5] >= 'a' && m[5] <= 'i')
            return 4;
    }
    return 0;
}

/* USEN, tsshogi's URL-safe record notation: "~0." then base-36 moves. */
static int detect_usen(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t n;
    const char *p = skip_blank(s, len, &n);
    return n >= 4 && p[0] == '~' && KOMA_IS_DIGIT(p[1]) && p[2] == '.' ? 3 : 0;
}

#define DETECT_ONLY(id, nm, ttl, fn) \
    static const koma_format id = {.name = nm, .aliases = "", .title = ttl, \
                                   .kind = KOMA_FORMAT_DETECT, .detect = fn}

DETECT_ONLY(fmt_pgn, "pgn", "PGN chess games (not read by koma)", detect_pgn);
DETECT_ONLY(fmt_sgf, "sgf", "SGF game records (not read by koma)", detect_sgf);
DETECT_ONLY(fmt_chess_fen, "chess-fen", "chess FEN or EPD (not read: write chess positions as FEEN)", detect_chess_fen);
DETECT_ONLY(fmt_psn, "psn", "PSN shogi games (Portable Shogi Notation; not read by koma)", detect_psn);
DETECT_ONLY(fmt_usen, "usen", "USEN shogi records (tsshogi's URL-safe notation; not read by koma)", detect_usen);

/* ---- the registry -------------------------------------------------------------------- */

/* Order matters for detection ties: the first that claims an input most surely wins. */
/* koma-validate --type lists the KOMA_FORMAT_CHECK formats in this order, the
 * line formats first. */
static const koma_format *const formats[] = {
    &koma__fmt_ggn,
    &koma__fmt_pcn_json, &koma__fmt_pcn_yaml, &koma__fmt_feen,
    &koma__fmt_cell,     &koma__fmt_pin,      &koma__fmt_epin,     &koma__fmt_sin,
    &koma__fmt_snn,      &koma__fmt_qpi,                           &koma__fmt_fid,
    &koma__fmt_sfen,     &koma__fmt_fen,      &koma__fmt_pmn,      &koma__fmt_cgsn,
    &koma__fmt_usi_move,
    &koma__fmt_fen_move, &koma__fmt_sanki_move, &koma__fmt_usi,      &koma__fmt_csa,      &koma__fmt_ascii,
    &koma__fmt_unicode,  &koma__fmt_svg,      &koma__fmt_jkf,
    &koma__fmt_kif,      &koma__fmt_ki2,      &fmt_psn,            &fmt_pgn,
    &fmt_sgf,            &fmt_usen,           &fmt_chess_fen,
};
#define NFORMATS (sizeof formats / sizeof formats[0])

size_t koma_format_count(void) { return NFORMATS; }
const koma_format *koma_format_at(size_t i) { return i < NFORMATS ? formats[i] : NULL; }
const char *koma_format_name(const koma_format *f) { return f->name; }
const char *koma_format_aliases(const koma_format *f) { return f->aliases; }
const char *koma_format_title(const koma_format *f) { return f->title; }
koma_format_kind koma_format_kind_of(const koma_format *f) { return f->kind; }

unsigned koma_format_caps(const koma_format *f)
{
    unsigned c = 0;
    if (f->pcn || f->read_record || f->read_position || f->read_move) c |= KOMA_FORMAT_READ;
    if (f->pcn || f->write_record || f->write_position || f->write_move) c |= KOMA_FORMAT_WRITE;
    if (f->check) c |= KOMA_FORMAT_CHECK;
    return c;
}

const char *koma_format_check_title(const koma_format *f) { return f->check ? f->check_title : NULL; }
int koma_format_check_lines(const koma_format *f) { return f->check != NULL && f->check_lines; }

int koma_format_check(const koma_format *f, const char *s, size_t len, koma_error *err)
{
    if (f->check == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma does not check %s (%s)", f->name, f->title);
    return f->check(s, len, err);
}

const koma_format *koma_format_of_line(const char *s, size_t len)
{
    size_t spaces = 0;
    for (size_t i = 0; i < len; i++) spaces += s[i] == ' ';
    return spaces == 2 ? &koma__fmt_feen : &koma__fmt_pmn;
}

int koma_format_pcn(const koma_format *f, koma_pcn_format *out)
{
    if (!f->pcn) return 0;
    if (out) *out = (koma_pcn_format)(f->pcn - 1);
    return 1;
}

static int word_in(const char *list, const char *w, size_t len)
{
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == len && memcmp(p, w, len) == 0) return 1;
        p += n;
        while (*p == ' ') p++;
    }
    return 0;
}

const koma_format *koma_format_find(const char *name, size_t len)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if ((strlen(formats[i]->name) == len && memcmp(formats[i]->name, name, len) == 0) ||
            word_in(formats[i]->aliases, name, len))
            return formats[i];
    return NULL;
}

static const koma_format *detect_in(const char *s, size_t len, int at_end, int *confidence)
{
    const koma_format *best = NULL;
    int bc = 0;
    for (size_t i = 0; i < NFORMATS; i++) {
        if (formats[i]->detect == NULL) continue;
        int c = formats[i]->detect(s, len, at_end);
        if (c > bc) {
            bc = c;
            best = formats[i];
        }
    }
    *confidence = bc;
    return best;
}

const koma_format *koma_format_detect(const char *s, size_t len, int at_end, int *confidence)
{
    int bc;
    const koma_format *best = detect_in(s, len, at_end, &bc);
    size_t bad;
    if (bc < 3 && !koma__utf8_valid(s, len, &bad) && (at_end || len - bad > 3)) {
        /* text that is not UTF-8 (the formats look for UTF-8 and Shift_JIS
         * bytes): looked at again decoded from EUC-JP, else Shift_JIS, the last
         * character of a start that is not the whole input left out when cut */
        static const koma__enc encs[] = {KOMA__ENC_EUCJP, KOMA__ENC_SJIS};
        for (size_t k = 0; k < 2; k++) {
            for (size_t cut = 0; cut <= (at_end ? 0u : 2u) && cut < len; cut++) {
                koma_buffer b = {0};
                const char *t;
                size_t tl;
                int x = koma__enc_decode(encs[k], s, len - cut, &b, &t, &tl, &bad);
                int c = 0;
                const koma_format *f = x == 0 ? detect_in(t, tl, at_end, &c) : NULL;
                koma_buffer_cleanup(&b);
                if (x != 0) continue;
                if (c > bc) {
                    bc = c;
                    best = f;
                }
                k = 2;
                break;
            }
        }
    }
    if (confidence) *confidence = bc;
    return best;
}

const char *koma_encoding_name(const char *name, size_t len)
{
    koma__enc e = koma__enc_find(name, len);
    return e == KOMA__ENC_NONE ? NULL : koma__enc_name(e);
}

/* ---- reading ---------------------------------------------------------------------- */

#define HEAD_MAX 4096u                 /* bytes kept for detection */
#define LINE_MAX_BYTES KOMA_LIMIT_LINE

struct koma_format_reader {
    koma_hub *h;
    const koma_format *fmt;
    int explicit_fmt;
    koma_format_reader_options opt;
    char *start;                       /* copy of opt.start */
    koma_pcn_reader *pr;
    char *buf;                         /* pending input */
    size_t len, cap;
    size_t skip;                       /* bytes read before buf in its block (buf - skip
                                          was allocated: records are consumed by moving
                                          buf on, the rest moved back at the next feed) */
    unsigned long line;                /* line number of buf[0] */
    size_t base;                       /* input offset of buf[0] */
    int at_end, stopped, records_seen, failed_first;
    char head[HEAD_MAX];
    size_t headlen;
    void *state;
    koma_shogi_record rec;
    koma_position pos;
    unsigned long last_line;
    koma_pcn *moves_rec;               /* MOVES: the record being read */
    int moves_bad;                     /* MOVES: the record is invalid (skip to a blank line) */
    koma_error moves_err;
    char *text;                        /* the last record's text (koma_format_reader_text) */
    size_t text_len, text_cap;
    int has_text;
    koma__enc forced;                  /* opt.encoding */
    koma_error warning;                /* the last record's */
    /* UTF-16 input, made UTF-8 as it is fed */
    int u16;                           /* -1 not decided yet, 0 not UTF-16, else its koma__enc */
    iconv_t u16cd;
    char u16pend[4];                   /* bytes of a character not yet complete */
    size_t u16npend;
    unsigned long u16lines;            /* line feeds made so far */
    unsigned long u16bad;              /* the first line with a unit that is not UTF-16, 0: none */
    int u16told;                       /* its warning given */
    int oom;                           /* memory ran out at the end of the input */
    koma_buffer *pcn_text;             /* koma__format_reader_pcn_text: shogi-world records
                                          written there as PCN JSON text, no koma_pcn */
};

void koma__format_reader_pcn_text(koma_format_reader *rs, koma_buffer *out) { rs->pcn_text = out; }

/* A shogi-world record as PCN: the tree, or its JSON text appended to
 * rs->pcn_text (written straight from the record, or, for a record the text
 * writer leaves to the tree, the tree's compact text). */
static int record_out(koma_format_reader *rs, koma_pcn **out, koma_error *err)
{
    if (rs->pcn_text == NULL) return koma_shogi_record_to_pcn(rs->h, &rs->rec, out, err);
    int rc = koma__srec_pcn_text(rs->h, &rs->rec, rs->pcn_text, err);
    if (rc != 1) return rc;
    koma_pcn *p = NULL;
    rc = koma_shogi_record_to_pcn(rs->h, &rs->rec, &p, err);
    if (rc == 0) rc = koma_pcn_write(p, KOMA_PCN_JSON, 0, rs->pcn_text, err);
    koma_pcn_free(p);
    return rc;
}

static koma_format_reader *new_format_reader(koma_hub *h, const koma_format *fmt, const koma_format_reader_options *opt,
                               koma_error *err)
{
    if (fmt && !(koma_format_caps(fmt) & KOMA_FORMAT_READ)) {
        koma_error_set(err, KOMA_E_CONVERT_FORMAT, 0, "koma does not read %s (%s)", fmt->name,
                       fmt->title);
        return NULL;
    }
    koma_format_reader *rs = calloc(1, sizeof *rs);
    if (rs == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    rs->h = h;
    rs->fmt = fmt;
    rs->explicit_fmt = fmt != NULL;
    if (koma__sized_read(&rs->opt, sizeof rs->opt, opt, KOMA__FORMAT_READER_OPTIONS_FIRST,
                         "koma_format_reader_options", err) != 0) {
        free(rs);
        return NULL;
    }
    rs->line = 1;
    rs->u16 = -1;
    rs->u16cd = (iconv_t)-1;
    if (rs->opt.encoding) {
        rs->forced = koma__enc_find(rs->opt.encoding, strlen(rs->opt.encoding));
        if (rs->forced == KOMA__ENC_NONE) {
            char q[48];
            koma_quote(q, sizeof q, rs->opt.encoding, strlen(rs->opt.encoding));
            koma_error_set(err, KOMA_E_CONVERT_ENCODING, 0,
                           "unknown encoding \"%s\" (koma reads UTF-8, Shift_JIS, EUC-JP and UTF-16)", q);
            free(rs);
            return NULL;
        }
        rs->opt.encoding = koma__enc_name(rs->forced);
    }
    koma_shogi_record_init(&rs->rec);
    koma_position_init(&rs->pos);
    if (opt && opt->start) {
        rs->start = malloc(opt->start_len + 1);
        if (rs->start == NULL) {
            koma_format_reader_free(rs);
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            return NULL;
        }
        memcpy(rs->start, opt->start, opt->start_len);
        rs->start[opt->start_len] = '\0';
        rs->opt.start = rs->start;
    }
    return rs;
}

int koma_format_reader_new(koma_hub *h, const koma_format *fmt,
                           const koma_format_reader_options *opt, koma_format_reader **out,
                           koma_error *err)
{
    return KOMA__MADE(out, new_format_reader(h, fmt, opt, err));
}

void koma_format_reader_free(koma_format_reader *rs)
{
    if (rs == NULL) return;
    koma_pcn_reader_free(rs->pr);
    if (rs->state && rs->fmt && rs->fmt->free_state) rs->fmt->free_state(rs->state);
    free(rs->state);
    free(rs->buf ? rs->buf - rs->skip : NULL);
    free(rs->start);
    free(rs->text);
    if (rs->u16cd != (iconv_t)-1) iconv_close(rs->u16cd);
    koma_shogi_record_cleanup(&rs->rec);
    koma_position_cleanup(&rs->pos);
    koma_pcn_free(rs->moves_rec);
    free(rs);
}

const koma_format *koma_format_reader_format(const koma_format_reader *rs) { return rs->fmt; }

const char *koma_format_reader_text(const koma_format_reader *rs, size_t *len, const koma_format **fmt)
{
    if (fmt) *fmt = rs->fmt;
    if (rs->pr) {
        if (fmt && koma_pcn_reader_format(rs->pr) == KOMA_PCN_YAML) *fmt = koma_format_find("yaml", 4);
        else if (fmt) *fmt = koma_format_find("pcn", 3);
        return koma_pcn_reader_text(rs->pr, len);
    }
    *len = rs->has_text ? rs->text_len : 0;
    return rs->has_text ? (rs->text ? rs->text : "") : NULL;
}

/* The record's text: s[0..n) replaces it (append 0) or is added to it. -1 on memory. */
static int keep_text(koma_format_reader *rs, const char *s, size_t n, int append)
{
    size_t at = append ? rs->text_len : 0;
    rs->has_text = 1;
    if (at + n + 1 > rs->text_cap) {
        size_t cap = rs->text_cap ? rs->text_cap : 4096;
        while (cap < at + n + 1) cap *= 2;
        char *t = realloc(rs->text, cap);
        if (t == NULL) {
            rs->has_text = 0;
            return -1;
        }
        rs->text = t;
        rs->text_cap = cap;
    }
    if (n) memcpy(rs->text + at, s, n);
    rs->text_len = at + n;
    rs->text[rs->text_len] = '\0';
    return 0;
}
unsigned long koma_format_reader_line(const koma_format_reader *rs) { return rs->last_line; }

int koma_format_reader_warning(const koma_format_reader *rs, koma_error *out)
{
    if (rs->warning.code == KOMA_OK) return 0;
    *out = rs->warning;
    return 1;
}

int koma_format_reader_locate(const koma_format_reader *rs, const char *pointer, unsigned long *line,
                        unsigned long *column)
{
    if (rs->pr) return koma_pcn_reader_locate(rs->pr, pointer, line, column);
    /* a shogi-world record: its moves and ending where its reader read them */
    const koma_shogi_line *m = &rs->rec.main;
    unsigned long l = 0, c = 0;
    if (pointer && strncmp(pointer, "/plies/", 7) == 0) {
        char *end;
        unsigned long i = strtoul(pointer + 7, &end, 10);
        if (end != pointer + 7 && (*end == '\0' || *end == '/') && i < m->len) {
            l = m->moves[i].line;
            c = m->moves[i].column;
        }
    } else if (pointer && strncmp(pointer, "/outcome", 8) == 0) {
        l = m->end.line;
        c = m->end.column;
    }
    if (l == 0) return -1;
    *line = l;
    *column = c ? c : 1;
    return 0;
}

/* Text to read (UTF-8 once made so from UTF-16). */
static int feed_text(koma_format_reader *rs, const char *data, size_t len, koma_error *err)
{
    if (len == 0) return 0;
    if (rs->headlen < HEAD_MAX) {
        size_t n = len < HEAD_MAX - rs->headlen ? len : HEAD_MAX - rs->headlen;
        memcpy(rs->head + rs->headlen, data, n);
        rs->headlen += n;
    }
    if (rs->pr) return koma_pcn_reader_feed(rs->pr, data, len, err);
    if (rs->skip) {
        memmove(rs->buf - rs->skip, rs->buf, rs->len);
        rs->buf -= rs->skip;
        rs->skip = 0;
    }
    if (rs->len + len > rs->cap) {
        size_t cap = rs->cap ? rs->cap : 65536;
        while (cap < rs->len + len) cap *= 2;
        char *p = realloc(rs->buf, cap);
        if (p == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        rs->buf = p;
        rs->cap = cap;
    }
    memcpy(rs->buf + rs->len, data, len);
    rs->len += len;
    return 0;
}

/* UTF-16 bytes made UTF-8 (pending bytes first): a unit that is not UTF-16 (a
 * surrogate alone) becomes U+FFFD, and the record that holds it gets a warning;
 * at the end, so does a character cut short. */
static int feed_utf16(koma_format_reader *rs, const char *data, size_t len, koma_error *err)
{
    char out[4096];
    while (len > 0 || (rs->at_end && rs->u16npend > 0)) {
        char in[sizeof out / 4 + 4];
        size_t n = rs->u16npend, take = len < sizeof in - n ? len : sizeof in - n;
        memcpy(in, rs->u16pend, n);
        memcpy(in + n, data, take);
        data += take;
        len -= take;
        n += take;
        char *ip = in, *op = out;
        size_t il = n, ol = sizeof out;
        while (il > 0) {
            size_t r = iconv(rs->u16cd, &ip, &il, &op, &ol);
            if (r != (size_t)-1) break;
            int e = errno;
            if (e == EINVAL && !(rs->at_end && len == 0)) break;   /* the rest comes later */
            for (const char *p = out; p < op; p++)
                if (*p == '\n') rs->u16lines++;
            if (feed_text(rs, out, (size_t)(op - out), err) != 0) return -1;
            op = out;
            ol = sizeof out;
            if (e == E2BIG) continue;
            /* not UTF-16, or cut short at the end: U+FFFD for the unit */
            if (rs->u16bad == 0) rs->u16bad = rs->u16lines + 1;
            if (feed_text(rs, "\xef\xbf\xbd", 3, err) != 0) return -1;
            size_t skip = il < 2 ? il : 2;
            ip += skip;
            il -= skip;
            iconv(rs->u16cd, NULL, NULL, NULL, NULL);
        }
        for (const char *p = out; p < op; p++)
            if (*p == '\n') rs->u16lines++;
        if (feed_text(rs, out, (size_t)(op - out), err) != 0) return -1;
        memmove(rs->u16pend, ip, il);  /* less than a character: under four bytes */
        rs->u16npend = il;
        if (il == n) break;            /* nothing taken: more input is needed */
    }
    return 0;
}

/* The warning of a unit of UTF-16 input that was not UTF-16 (U+FFFD in its
 * place), on the record being returned. */
static void tell_utf16(koma_format_reader *rs)
{
    rs->u16told = 1;
    if (rs->warning.code == KOMA_OK)
        koma__error_at(&rs->warning, KOMA_E_CONVERT_ENCODING, rs->u16bad, 1, 0, "a unit that is not %s, read as U+FFFD",
                       koma__enc_name((koma__enc)rs->u16));
}

/* Is the input UTF-16? Decided on its first two bytes (pending bytes kept until
 * then): the caller's encoding, else a byte order mark. */
static int decide_utf16(koma_format_reader *rs, const char **data, size_t *len, koma_error *err)
{
    while (rs->u16npend < 2 && *len > 0) {
        rs->u16pend[rs->u16npend++] = **data;
        (*data)++;
        (*len)--;
    }
    if (rs->u16npend < 2 && !rs->at_end) return 0;
    const unsigned char *b = (const unsigned char *)rs->u16pend;
    int le = rs->u16npend == 2 && b[0] == 0xff && b[1] == 0xfe, be = rs->u16npend == 2 && b[0] == 0xfe && b[1] == 0xff;
    koma__enc e = KOMA__ENC_NONE;
    if (rs->forced == KOMA__ENC_UTF16LE || rs->forced == KOMA__ENC_UTF16BE) e = rs->forced;
    else if ((rs->forced == KOMA__ENC_NONE || rs->forced == KOMA__ENC_UTF16) && (le || be))
        e = le ? KOMA__ENC_UTF16LE : KOMA__ENC_UTF16BE;
    else if (rs->forced == KOMA__ENC_UTF16) e = KOMA__ENC_UTF16LE;
    if (e == KOMA__ENC_NONE) {
        rs->u16 = 0;
        size_t n = rs->u16npend;
        rs->u16npend = 0;
        return feed_text(rs, rs->u16pend, n, err);
    }
    rs->u16cd = iconv_open("UTF-8", koma__enc_iconv(e));
    if (rs->u16cd == (iconv_t)-1) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    rs->u16 = (int)e;
    /* the byte order mark is no text */
    if ((e == KOMA__ENC_UTF16LE && le) || (e == KOMA__ENC_UTF16BE && be)) rs->u16npend = 0;
    return 0;
}

int koma_format_reader_feed(koma_format_reader *rs, const char *data, size_t len, koma_error *err)
{
    if (rs->stopped || len == 0) return 0;
    if (rs->u16 < 0 && decide_utf16(rs, &data, &len, err) != 0) return -1;
    if (rs->u16 < 0) return 0;
    if (rs->u16 > 0) return feed_utf16(rs, data, len, err);
    return feed_text(rs, data, len, err);
}

void koma_format_reader_finish(koma_format_reader *rs)
{
    rs->at_end = 1;
    koma_error e;
    /* what was held back: a first byte alone, or a character cut short (memory
     * trouble here is told by koma_format_reader_next) */
    const char *none = "";
    size_t zero = 0;
    if (rs->u16 < 0 && !rs->stopped && decide_utf16(rs, &none, &zero, &e) != 0) rs->oom = 1;
    else if (rs->u16 > 0 && !rs->stopped && feed_utf16(rs, "", 0, &e) != 0) rs->oom = 1;
    if (rs->pr) koma_pcn_reader_finish(rs->pr);
}

/* Drop n bytes from the front of the pending input, counting lines. */
static void consume(koma_format_reader *rs, size_t n)
{
    for (const char *p = rs->buf, *e = rs->buf + n; n && (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
        rs->line++;
    rs->buf += n;                      /* the rest moves back at the next feed */
    rs->skip += n;
    rs->len -= n;
    rs->base += n;
}

/* The input looks like another format: one diagnostic, the rest not read. */
static int wrong_format(koma_format_reader *rs, koma_error *err)
{
    int conf;
    const koma_format *seen = koma_format_detect(rs->head, rs->headlen, rs->at_end, &conf);
    if (seen == NULL || seen == rs->fmt || conf < 2) return 0;
    if (rs->fmt && rs->fmt->detect && rs->fmt->detect(rs->head, rs->headlen, rs->at_end) >= conf)
        return 0;
    koma_error_clear(err);
    koma_error_set(err, KOMA_E_CONVERT_FORMAT, 0, "this looks like %s (%s), not %s%s%s", seen->name,
                   seen->title, rs->fmt ? rs->fmt->name : "a format koma reads",
                   koma_format_caps(seen) & KOMA_FORMAT_READ ? "; try --from " : "",
                   koma_format_caps(seen) & KOMA_FORMAT_READ ? seen->name : "");
    err->line = 1;
    err->column = 1;
    rs->stopped = 1;
    rs->len = 0;
    return 1;
}

static int start_pcn_reader(koma_format_reader *rs, koma_error *err)
{
    koma_pcn_format pf = (koma_pcn_format)(rs->fmt->pcn - 1);
    /* detected: JSON or YAML decided per record (a broken first line loses nothing) */
    unsigned flags = rs->opt.pcn_flags | (rs->explicit_fmt ? 0 : KOMA_PCN_AUTO);
    koma_pcn_reader_new(pf, flags, NULL, NULL, &rs->pr, err);
    if (rs->pr == NULL) return -1;
    if (rs->len && koma_pcn_reader_feed(rs->pr, rs->buf, rs->len, err) != 0) return -1;
    if (rs->at_end) koma_pcn_reader_finish(rs->pr);
    free(rs->buf ? rs->buf - rs->skip : NULL);
    rs->buf = NULL;
    rs->len = rs->cap = rs->skip = 0;
    return 0;
}

/* The next line of the pending input: 1 with *s, *n (without "\r\n"), *used;
 * 0 when more input is needed; 2 for a line over the limit (skipped). */
static int next_line(koma_format_reader *rs, const char **s, size_t *n, size_t *used)
{
    char *nl = rs->len ? memchr(rs->buf, '\n', rs->len) : NULL;   /* buf is NULL before any input */
    if (nl == NULL) {
        if (rs->len > LINE_MAX_BYTES) return 2;
        if (!rs->at_end || rs->len == 0) return 0;
        *used = rs->len;
    } else {
        *used = (size_t)(nl - rs->buf) + 1;
        if (*used - 1 > LINE_MAX_BYTES) return 2;
    }
    *s = rs->buf;
    *n = nl ? (size_t)(nl - rs->buf) : rs->len;
    if (*n && (*s)[*n - 1] == '\r') (*n)--;
    return 1;
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return 0;
    return 1;
}

static int too_long(koma_format_reader *rs, koma_error *err)
{
    rs->has_text = 0;
    koma__error_at(err, KOMA_E_LINE_LENGTH, rs->line, LINE_MAX_BYTES + 1, rs->base, NULL);
    /* skip to the end of the line */
    char *nl = memchr(rs->buf, '\n', rs->len);
    if (nl) consume(rs, (size_t)(nl - rs->buf) + 1);
    else {
        rs->base += rs->len;
        rs->len = 0;
    }
    return KOMA_PCN_INVALID;
}

static int first_failure(koma_format_reader *rs, koma_error *err)
{
    if (!rs->records_seen && rs->explicit_fmt && !rs->failed_first) {
        rs->failed_first = 1;
        if (wrong_format(rs, err)) return 1;
    }
    rs->failed_first = 1;
    return 0;
}

static int next_position(koma_format_reader *rs, koma_pcn **out, koma_error *err)
{
    for (;;) {
        const char *s;
        size_t n, used;
        int r = next_line(rs, &s, &n, &used);
        if (r == 0) return rs->at_end ? KOMA_PCN_END : KOMA_PCN_AGAIN;
        if (r == 2) return too_long(rs, err);
        unsigned long line = rs->line;
        if (blank(s, n) || (n > 0 && s[0] == '#')) {
            consume(rs, used);
            continue;
        }
        rs->last_line = line;
        if (keep_text(rs, s, n, 0) != 0) {
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            return KOMA_PCN_FATAL;
        }
        int rc = rs->fmt->read_position(rs->h, s, n, rs->opt.feen_flags, &rs->pos, err);
        if (rc == 0) {
            char feen[KOMA_FEEN_MAX_LEN + 1];
            size_t fl = koma_feen_write(&rs->pos, feen, sizeof feen);
            consume(rs, used);
            if (fl >= sizeof feen) {
                koma__error_at(err, KOMA_E_FEEN_LENGTH, line, 1, 0, "the position's FEEN exceeds 4096 bytes");
                return KOMA_PCN_INVALID;
            }
            koma_pcn_new(feen, fl, out, err);
            if (*out == NULL) return KOMA_PCN_FATAL;
            rs->records_seen++;
            return KOMA_PCN_RECORD;
        }
        consume(rs, used);
        if (err) err->line = line;
        if (first_failure(rs, err)) return KOMA_PCN_INVALID;
        return KOMA_PCN_INVALID;
    }
}

/* MOVES: a run of move lines from the start position. */
static int moves_begin(koma_format_reader *rs, koma_error *err)
{
    const char *start = rs->opt.start ? rs->opt.start : rs->fmt->default_start;
    if (start == NULL)
        return koma_error_set(err, KOMA_E_CONVERT_FORMAT, 0, "%s moves need a start position",
                              rs->fmt->name);
    if (koma_feen_parse(start, strlen(start), KOMA_FEEN_STRICT, &rs->pos, err) != 0) return -1;
    koma_pcn_new(start, strlen(start), &rs->moves_rec, err);
    return rs->moves_rec ? 0 : -1;
}

static int moves_end(koma_format_reader *rs, koma_pcn **out, koma_error *err)
{
    if (rs->moves_bad) {
        *err = rs->moves_err;
        rs->moves_bad = 0;
        koma_pcn_free(rs->moves_rec);
        rs->moves_rec = NULL;
        return KOMA_PCN_INVALID;
    }
    *out = rs->moves_rec;
    rs->moves_rec = NULL;
    rs->records_seen++;
    return KOMA_PCN_RECORD;
}

/* One move of a run: read in the position, applied, a ply of the record. */
static int add_move(koma_format_reader *rs, const char *s, size_t len, koma_error *e)
{
    koma_move m;
    char pmn[KOMA_PMN_BUF];
    if (rs->fmt->read_move(rs->h, &rs->pos, s, len, &m, e) != 0) return -1;
    if (koma_pmn_write(&m, pmn) == 0)
        return koma_error_set(e, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "the move has no PMN");
    if (koma__hub_apply(rs->h, &rs->pos, &m, e) != 0) return -1;
    return koma_pcn_append_ply(rs->moves_rec, pmn, strlen(pmn), e);
}

/* The moves of a list line, each added in turn (at: where the failing one starts). */
typedef struct list_ctx {
    koma_format_reader *rs;
    const char *s;
    size_t at;
    int bad;
    koma_error *e;
} list_ctx;

static int list_move(void *ctx, size_t at, size_t len)
{
    list_ctx *l = ctx;
    l->at = at;
    if (add_move(l->rs, l->s + at, len, l->e) == 0) return 0;
    l->bad = 1;
    return -1;
}

static int next_moves(koma_format_reader *rs, koma_pcn **out, koma_error *err)
{
    for (;;) {
        const char *s;
        size_t n, used;
        int r = next_line(rs, &s, &n, &used);
        if (r == 0) {
            if (!rs->at_end) return KOMA_PCN_AGAIN;
            if (rs->moves_rec || rs->moves_bad) return moves_end(rs, out, err);
            return KOMA_PCN_END;
        }
        if (r == 2) return too_long(rs, err);
        unsigned long line = rs->line;
        if (blank(s, n)) {
            consume(rs, used);
            if (rs->moves_rec || rs->moves_bad) return moves_end(rs, out, err);
            continue;
        }
        int list = rs->fmt->move_lists && koma_sanki_is_list(s, n);
        /* a list is a record of its own: a run before it ends first (the line is
         * read again) */
        if (list && (rs->moves_rec || rs->moves_bad)) return moves_end(rs, out, err);
        int began = 0;
        if (rs->moves_rec == NULL && !rs->moves_bad) {
            rs->last_line = line;
            if (moves_begin(rs, err) != 0) {
                if (err->code == KOMA_E_MEMORY) return KOMA_PCN_FATAL;
                rs->stopped = 1;
                rs->len = 0;
                err->line = line;
                err->column = 1;
                return KOMA_PCN_INVALID;
            }
            began = 1;
        }
        /* the record's text: its lines */
        if (keep_text(rs, s, n, !began) != 0 || keep_text(rs, "\n", 1, 1) != 0) {
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            return KOMA_PCN_FATAL;
        }
        if (rs->moves_bad) {
            consume(rs, used);
            continue;
        }
        koma_error e;
        koma_error_clear(&e);
        size_t b = 0;
        while (b < n && (s[b] == ' ' || s[b] == '\t')) b++;
        size_t t = n;
        while (t > b && (s[t - 1] == ' ' || s[t - 1] == '\t')) t--;
        int rc;
        if (list) {
            list_ctx l = {rs, s + b, 0, 0, &e};
            rc = koma_sanki_move_list(s + b, t - b, list_move, &l, &e) < 0 ? -1 : 0;
            if (rc != 0 && l.bad) e.column += l.at;     /* the move's place in the line */
        } else {
            rc = add_move(rs, s + b, t - b, &e);
        }
        if (rc == 0) {
            consume(rs, used);
            if (list) return moves_end(rs, out, err);
            continue;
        }
        if (e.code == KOMA_E_MEMORY) {
            *err = e;
            return KOMA_PCN_FATAL;
        }
        e.line = line;
        e.column += b;
        rs->moves_err = e;
        rs->moves_bad = 1;
        koma_pcn_free(rs->moves_rec);
        rs->moves_rec = NULL;
        consume(rs, used);
        if (!rs->records_seen && first_failure(rs, err)) return KOMA_PCN_INVALID;
        if (list) return moves_end(rs, out, err);
    }
}

static int next_record(koma_format_reader *rs, koma_pcn **out, koma_error *err)
{
    for (;;) {
        size_t rec_len = rs->len, used = rs->len;
        if (rs->fmt->split) {
            /* a splitter never sees NULL: an empty stream has no buffer yet */
            koma__enc forced = rs->u16 > 0 ? KOMA__ENC_UTF8 : rs->forced;
            int sr = rs->fmt->split(rs->buf ? rs->buf : "", rs->len, rs->at_end, forced, &rec_len, &used);
            if (sr == KOMA__SPLIT_MEMORY) {
                koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
                return KOMA_PCN_FATAL;
            }
            if (sr == KOMA__SPLIT_MORE) {
                if (rs->len > KOMA_LIMIT_RECORD) {
                    koma__error_at(err, KOMA_E_CONVERT_SIZE, rs->line, 1, rs->base,
                                   "record exceeds 16 MiB");
                    rs->has_text = 0;
                    rs->stopped = 1;
                    rs->len = 0;
                    return KOMA_PCN_INVALID;
                }
                return rs->at_end ? KOMA_PCN_END : KOMA_PCN_AGAIN;
            }
        } else if (!rs->at_end) {
            if (rs->len > KOMA_LIMIT_RECORD) {
                koma__error_at(err, KOMA_E_CONVERT_SIZE, rs->line, 1, rs->base, "record exceeds 16 MiB");
                rs->has_text = 0;
                rs->stopped = 1;
                rs->len = 0;
                return KOMA_PCN_INVALID;
            }
            return KOMA_PCN_AGAIN;
        }
        if (used == 0) return KOMA_PCN_END;
        if (blank(rs->buf, rec_len) || rs->buf[0] == '\0') {
            int only_blank = 1;
            for (size_t i = 0; i < rec_len; i++)
                if (rs->buf[i] != ' ' && rs->buf[i] != '\t' && rs->buf[i] != '\r' && rs->buf[i] != '\n')
                    only_blank = 0;
            if (only_blank) {
                consume(rs, used);
                continue;
            }
        }
        unsigned long line = rs->line;
        rs->last_line = line;
        if (rec_len > KOMA_LIMIT_RECORD) {
            consume(rs, used);
            koma__error_at(err, KOMA_E_CONVERT_SIZE, line, 1, 0, "record exceeds 16 MiB");
            rs->has_text = 0;
            return KOMA_PCN_INVALID;
        }
        if (rs->state == NULL && rs->fmt->state_size) {
            rs->state = calloc(1, rs->fmt->state_size);
            if (rs->state == NULL) {
                koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
                return KOMA_PCN_FATAL;
            }
        }
        if (keep_text(rs, rs->buf, rec_len, 0) != 0) {
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            return KOMA_PCN_FATAL;
        }
        koma_shogi_record_reset(&rs->rec);
        rs->rec.line = line;
        rs->rec.transcoded = rs->u16 > 0;
        rs->rec.encoding = rs->u16 > 0 ? koma__enc_name((koma__enc)rs->u16) : rs->opt.encoding;
        int rc = rs->fmt->read_record(rs->h, rs->state, rs->buf, rec_len, line, &rs->rec, err);
        if (rc == 0) rc = record_out(rs, out, err);
        consume(rs, used);
        rs->warning = rs->rec.warning;
        /* the record holds the unit that was not UTF-16 */
        if (rs->u16bad && !rs->u16told && rs->u16bad < rs->line + (rs->len == 0 && rs->at_end)) tell_utf16(rs);
        if (rc == 0) {
            rs->records_seen++;
            return KOMA_PCN_RECORD;
        }
        if (err && err->code == KOMA_E_MEMORY) return KOMA_PCN_FATAL;
        if (err && err->line == 0) {
            err->line = line;
            err->column = 1;
        }
        first_failure(rs, err);
        return KOMA_PCN_INVALID;
    }
}

static int next_any(koma_format_reader *rs, koma_pcn **out, koma_error *err);

int koma_format_reader_next(koma_format_reader *rs, koma_pcn **out, koma_error *err)
{
    int rc = next_any(rs, out, err);
    /* a shogi-world record is told it when it holds the unit (next_record);
     * a record of another format, when it is the next one returned */
    if ((rc == KOMA_PCN_RECORD || rc == KOMA_PCN_INVALID) && rs->u16bad && !rs->u16told && rs->fmt &&
        rs->fmt->read_record == NULL)
        tell_utf16(rs);
    return rc;
}

static int next_any(koma_format_reader *rs, koma_pcn **out, koma_error *err)
{
    *out = NULL;
    koma_error_clear(&rs->warning);
    if (rs->oom) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return KOMA_PCN_FATAL;
    }
    if (rs->stopped) return rs->at_end ? KOMA_PCN_END : KOMA_PCN_AGAIN;
    if (rs->fmt == NULL) {
        if (rs->len < HEAD_MAX && !rs->at_end) return KOMA_PCN_AGAIN;
        size_t n;
        skip_blank(rs->buf ? rs->buf : "", rs->len, &n);
        if (n == 0) return rs->at_end ? KOMA_PCN_END : KOMA_PCN_AGAIN;
        int conf;
        const koma_format *f = koma_format_detect(rs->head, rs->headlen, rs->at_end, &conf);
        if (f == NULL || !(koma_format_caps(f) & KOMA_FORMAT_READ)) {
            if (f)
                koma_error_set(err, KOMA_E_CONVERT_FORMAT, 0, "this looks like %s (%s)", f->name, f->title);
            else
                koma_error_set(err, KOMA_E_CONVERT_FORMAT, 0,
                               "not a format koma reads (see koma-convert --list)");
            err->line = 1;
            err->column = 1;
            rs->stopped = 1;
            rs->len = 0;
            return KOMA_PCN_INVALID;
        }
        rs->fmt = f;
    }
    if (rs->fmt->pcn) {
        if (rs->pr == NULL && start_pcn_reader(rs, err) != 0) return KOMA_PCN_FATAL;
        int rc = koma_pcn_reader_next(rs->pr, out, err);
        if (rc == KOMA_PCN_RECORD || rc == KOMA_PCN_INVALID) rs->last_line = koma_pcn_reader_line(rs->pr);
        if (rc == KOMA_PCN_RECORD) rs->records_seen++;
        if (rc == KOMA_PCN_INVALID && first_failure(rs, err)) {
            koma_pcn_reader_free(rs->pr);
            rs->pr = NULL;
        }
        return rc;
    }
    switch (rs->fmt->kind) {
    case KOMA_FORMAT_POSITION: return next_position(rs, out, err);
    case KOMA_FORMAT_MOVES: return next_moves(rs, out, err);
    default: return next_record(rs, out, err);
    }
}

/* ---- writing ------------------------------------------------------------------------ */

struct koma_format_writer {
    koma_hub *h;
    const koma_format *fmt;
    unsigned flags;
    size_t index;
    koma_shogi_record rec;
    koma_position pos;
    koma_format_writer_position_fn position_fn; /* koma_format_writer_each_position */
    void *position_ctx;
    int stopped;                   /* position_fn's non-zero value, this record */
    koma_buffer one;               /* one position's text for position_fn */
};

static koma_format_writer *new_format_writer(koma_hub *h, const koma_format *fmt, unsigned flags, koma_error *err)
{
    if (!(koma_format_caps(fmt) & KOMA_FORMAT_WRITE)) {
        koma_error_set(err, KOMA_E_CONVERT_FORMAT, 0, "koma does not write %s (%s)", fmt->name,
                       fmt->title);
        return NULL;
    }
    koma_format_writer *ws = calloc(1, sizeof *ws);
    if (ws == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    ws->h = h;
    ws->fmt = fmt;
    ws->flags = flags;
    koma_shogi_record_init(&ws->rec);
    koma_position_init(&ws->pos);
    return ws;
}

int koma_format_writer_new(koma_hub *h, const koma_format *fmt, unsigned flags,
                           koma_format_writer **out, koma_error *err)
{
    return KOMA__MADE(out, new_format_writer(h, fmt, flags, err));
}

void koma_format_writer_free(koma_format_writer *ws)
{
    if (ws == NULL) return;
    koma_shogi_record_cleanup(&ws->rec);
    koma_position_cleanup(&ws->pos);
    koma_buffer_cleanup(&ws->one);
    free(ws);
}

void koma_format_writer_each_position(koma_format_writer *ws, koma_format_writer_position_fn fn, void *ctx)
{
    ws->position_fn = fn;
    ws->position_ctx = ctx;
}

/* One position of a position format: into out, or alone to position_fn. */
static int put_position(koma_format_writer *ws, const koma_game *g, const koma_move *last, size_t ply,
                        koma_buffer *out, koma_error *err)
{
    const koma_format *f = ws->fmt;
    if (ws->position_fn == NULL) return f->write_position(ws->h, &ws->pos, g, last, ply, ws->index, out, err);
    ws->one.len = 0;
    if (f->write_position(ws->h, &ws->pos, g, last, ply, 0, &ws->one, err) != 0) return -1;
    ws->stopped = ws->position_fn(ws->position_ctx, ply, ws->one.data ? ws->one.data : "", ws->one.len);
    if (ws->stopped != 0)
        return koma_error_set(err, KOMA_E_IO_WRITE, 0, "cannot write the position after ply %zu", ply);
    return 0;
}

/* Each ply of rec in turn: fn before applying it (m resolved), then applied. */
static int write_plies(koma_format_writer *ws, const koma_pcn *rec, const koma_game *g, koma_buffer *out,
                       koma_error *err)
{
    size_t n = koma_pcn_ply_count(rec);
    const koma_format *f = ws->fmt;
    int each = f->kind == KOMA_FORMAT_POSITION && (ws->flags & KOMA_WRITE_EACH);
    if (each && put_position(ws, g, NULL, 0, out, err) != 0) return -1;
    koma_move m;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = koma_pcn_ply_pmn(rec, i, &len);
        if (s == NULL || koma_pmn_parse(s, len, &m, err) != 0 || koma_pmn_resolve(&ws->pos, &m, err) != 0) {
            if (err) {
                char msg[KOMA_ERROR_MESSAGE_MAX];
                snprintf(msg, sizeof msg, "%s", err->message);
                koma_error_set(err, err->code, 0, "ply %zu: %s", i + 1, msg);
            }
            return -1;
        }
        if (f->kind == KOMA_FORMAT_MOVES) {
            if (f->write_move(ws->h, &ws->pos, &m, out, err) != 0) {
                char msg[KOMA_ERROR_MESSAGE_MAX];
                snprintf(msg, sizeof msg, "%s", err ? err->message : "");
                if (err) koma_error_set(err, err->code, 0, "ply %zu \"%.*s\": %s", i + 1, (int)len, s, msg);
                return -1;
            }
            if (koma__buf_put(out, "\n", 1, err) != 0) return -1;
        }
        if (koma__hub_apply(ws->h, &ws->pos, &m, err) != 0) {
            char msg[KOMA_ERROR_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "%s", err ? err->message : "");
            if (err) koma_error_set(err, err->code, 0, "ply %zu \"%.*s\": %s", i + 1, (int)len, s, msg);
            return -1;
        }
        if (each && put_position(ws, g, &m, i + 1, out, err) != 0) return -1;
    }
    /* the last position, with the move that led to it (a diagram shades it) */
    if (f->kind == KOMA_FORMAT_POSITION && !each) return put_position(ws, g, n ? &m : NULL, n, out, err);
    return 0;
}

int koma_format_writer_record(koma_format_writer *ws, const koma_pcn *rec, koma_buffer *out, koma_error *err)
{
    size_t mark = out->len;
    int rc;
    const koma_format *f = ws->fmt;
    ws->stopped = 0;
    if (f->pcn) {
        rc = koma_pcn_write(rec, (koma_pcn_format)(f->pcn - 1),
                            (ws->flags & KOMA_WRITE_PRETTY) ? KOMA_PCN_PRETTY : 0, out, err);
    } else if (f->kind == KOMA_FORMAT_RECORD) {
        koma_shogi_record_reset(&ws->rec);
        rc = koma_shogi_record_from_pcn(ws->h, rec, &ws->rec, err);
        if (rc == 0) koma__srec_drop(&ws->rec, ws->flags);
        if (rc == 0 && f->annotate) rc = koma__srec_annotate(ws->h, &ws->rec, err);
        if (rc == 0) rc = f->write_record(ws->h, &ws->rec, ws->index, ws->flags, out, err);
    } else {
        size_t len;
        const char *feen = koma_pcn_setup_feen(rec, &len);
        const koma_game *g = NULL;
        rc = -1;
        if (feen == NULL) koma_error_set(err, KOMA_E_PCN_REQUIRED, 0, "no setup.feen");
        else if (koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &ws->pos, err) == 0) {
            koma_error ge;
            koma_error_clear(&ge);
            g = koma_game_set_find_position(koma_hub_games(ws->h), &ws->pos, &ge);
            if (g == NULL && ge.code == KOMA_E_MEMORY)
                rc = koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (games)");
            else if (f->kind == KOMA_FORMAT_MOVES && ws->index > 0 && koma__buf_put(out, "\n", 1, err) != 0)
                rc = -1;
            else
                rc = write_plies(ws, rec, g, out, err);
        }
    }
    if (rc != 0) {
        out->len = mark;
        if (out->data) out->data[mark] = '\0';
        return ws->stopped != 0 ? ws->stopped : -1;
    }
    ws->index++;
    return 0;
}
