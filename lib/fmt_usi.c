/*
 * lib/fmt_usi.c — USI `position` commands as records, one a line:
 *   position startpos [moves M...]
 *   position sfen BOARD SIDE HANDS [NUMBER] [moves M...]
 * ("position " may be left out). Written as `position startpos` for the
 * Shogi start position, `position sfen ...` otherwise; only the position and
 * the moves are written (a USI command holds nothing else).
 */
#include <string.h>

#include "format_internal.h"
#include "internal.h"
#include "record_internal.h"
#include <koma/sfen.h>

#define SHOGI_START "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"

static int split_line(const char *s, size_t len, int at_end, koma__enc forced, size_t *rec_len, size_t *used)
{
    (void)forced;
    const char *nl = memchr(s, '\n', len);
    if (nl == NULL) {
        if (!at_end) return KOMA__SPLIT_MORE;
        *rec_len = *used = len;
    } else {
        *rec_len = (size_t)(nl - s);
        *used = *rec_len + 1;
    }
    if (*rec_len && s[*rec_len - 1] == '\r') (*rec_len)--;
    return KOMA__SPLIT_RECORD;
}

static int word(const char *s, size_t len, size_t i, const char *w)
{
    size_t n = strlen(w);
    return i + n <= len && memcmp(s + i, w, n) == 0 && (i + n == len || s[i + n] == ' ');
}

static int at(koma_error *err, unsigned long line, size_t col0, koma_code code, const char *msg)
{
    return koma__error_at(err, code, line, col0 + 1, col0, "%s", msg);
}

static int read_usi(koma_hub *h, void *state, const char *s, size_t len, unsigned long line,
                    koma_shogi_record *r, koma_error *err)
{
    (void)h, (void)state;
    size_t i = 0;
    while (i < len && s[i] == ' ') i++;
    if (word(s, len, i, "position")) i += 9;
    while (i < len && s[i] == ' ') i++;
    size_t moves_at = len;
    for (size_t k = i; k + 5 <= len; k++)
        if ((k == 0 || s[k - 1] == ' ') && word(s, len, k, "moves")) {
            moves_at = k;
            break;
        }
    size_t end = moves_at;
    while (end > i && s[end - 1] == ' ') end--;
    if (word(s, len, i, "startpos")) {
        if (i + 8 != end) return at(err, line, i + 9, KOMA_E_USI_POSITION, "unexpected text after startpos");
        if (koma_feen_parse(SHOGI_START, strlen(SHOGI_START), 0, &r->setup, err) != 0) return -1;
    } else if (word(s, len, i, "sfen")) {
        /* "sfen" may end the line: the position is then empty, never past end */
        i += 4;
        while (i < end && s[i] == ' ') i++;
        if (i == end) return at(err, line, i, KOMA_E_USI_POSITION, "expected an SFEN position after sfen");
        if (koma_sfen_parse(s + i, end - i, &r->setup, err) != 0) {
            unsigned long col = err->column;
            err->line = line;
            err->column = col + i;
            return -1;
        }
    } else {
        return at(err, line, i, KOMA_E_USI_POSITION, "expected startpos or sfen");
    }
    r->game = NULL;
    if (moves_at == len) return 0;
    i = moves_at + 5;
    koma_position *pos = &r->setup;
    (void)pos;
    while (i < len) {
        while (i < len && s[i] == ' ') i++;
        if (i >= len) break;
        size_t j = i;
        while (j < len && s[j] != ' ') j++;
        const char *m = s + i;
        size_t n = j - i;
        koma_shogi_move sm;
        koma_shogi_move_init(&sm);
        sm.line = line;
        sm.column = i + 1;
        if (n == 4 && m[1] == '*' && KOMA_IS_UPPER(m[0]) && KOMA_IS_DIGIT(m[2]) && KOMA_IS_LOWER(m[3])) {
            sm.drop = 1;
            sm.piece = koma_piece_from_letter(m[0]);
            sm.to.file = (uint8_t)(m[2] - '0');
            sm.to.rank = (uint8_t)(m[3] - 'a' + 1);
            sm.promote = KOMA_PROMOTE_NO;
        } else if ((n == 4 || (n == 5 && m[4] == '+')) && KOMA_IS_DIGIT(m[0]) && KOMA_IS_LOWER(m[1]) &&
                   KOMA_IS_DIGIT(m[2]) && KOMA_IS_LOWER(m[3])) {
            sm.from.file = (uint8_t)(m[0] - '0');
            sm.from.rank = (uint8_t)(m[1] - 'a' + 1);
            sm.to.file = (uint8_t)(m[2] - '0');
            sm.to.rank = (uint8_t)(m[3] - 'a' + 1);
            sm.promote = n == 5 ? KOMA_PROMOTE_YES : KOMA_PROMOTE_NO;
            if (sm.from.file == 0 || sm.to.file == 0)
                return at(err, line, i, KOMA_E_USI_MOVE, "file 0 in a USI move");
        } else {
            char q[64];
            koma_quote(q, sizeof q, m, n);
            return koma__error_at(err, KOMA_E_USI_MOVE, line, i + 1, i, "not a USI move: \"%s\"", q);
        }
        if (koma_shogi_line_push(&r->main, &sm, err) == NULL) return -1;
        i = j;
    }
    return 0;
}

static int write_usi(koma_hub *h, const koma_shogi_record *r, size_t index, unsigned flags, koma_buffer *out,
                     koma_error *err)
{
    (void)h, (void)index, (void)flags;
    if (koma__srec_no_forks(r, "USI", err) != 0) return -1;
    char start[KOMA_FEEN_MAX_LEN + 1];
    koma_feen_write(&r->setup, start, sizeof start);
    if (strcmp(start, SHOGI_START) == 0) {
        if (koma__buf_puts(out, "position startpos", err)) return -1;
    } else {
        char sfen[512];
        size_t n = koma_sfen_write(&r->setup, 1, sfen, sizeof sfen, err);
        if (n == 0 || n >= sizeof sfen) return -1;
        if (koma__buf_puts(out, "position sfen ", err) || koma__buf_put(out, sfen, n, err)) return -1;
    }
    if (r->main.len && koma__buf_puts(out, " moves", err)) return -1;
    for (size_t i = 0; i < r->main.len; i++) {
        const koma_shogi_move *m = &r->main.moves[i];
        char t[8];
        if (m->to.file > 9 || m->from.file > 9)
            return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "USI squares have one digit");
        if (m->drop)
            snprintf(t, sizeof t, " %c*%u%c", koma_piece_letter(m->piece), m->to.file, 'a' + m->to.rank - 1);
        else
            snprintf(t, sizeof t, " %u%c%u%c%s", m->from.file, 'a' + m->from.rank - 1, m->to.file,
                     'a' + m->to.rank - 1, m->promote == KOMA_PROMOTE_YES ? "+" : "");
        if (koma__buf_puts(out, t, err)) return -1;
    }
    return koma__buf_put(out, "\n", 1, err);
}

static int detect_usi(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++;
    if (word(s, len, i, "position")) return 3;
    if (word(s, len, i, "startpos")) return 3;
    if (word(s, len, i, "sfen")) return 2;
    return 0;
}

const koma_format koma__fmt_usi = {
    .name = "usi", .aliases = "", .title = "USI position commands (startpos or sfen, with moves), one a line",
    .kind = KOMA_FORMAT_RECORD, .detect = detect_usi, .split = split_line, .read_record = read_usi,
    .write_record = write_usi,
};
