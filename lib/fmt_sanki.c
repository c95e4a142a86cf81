/*
 * lib/fmt_sanki.c — the Sanki platform's moves as a moves format (koma-convert
 * --from/--to sanki-move; koma-formats(5), PMN, Input dialects, "sanki"): one
 * move [from, to, actor] a line, or a line holding a game's moves as one JSON
 * array [[from, to, actor], ...] (format.c reads such a line as a record of its
 * own). A move is read against the position (lib/pmn_sanki.c) and, when the
 * position's game has rules, is the legal move it names (koma_engine_match_move):
 * castling's rook, en passant's victim and the state markers are the rules'.
 */
#include <string.h>

#include "format_internal.h"
#include "internal.h"

/* A coordinate string "a1".."zz99": letters then digits. */
static size_t square_string(const char *s, size_t len, size_t i)
{
    size_t k = i;
    if (k >= len || s[k] != '"') return 0;
    k++;
    size_t a = k;
    while (k < len && KOMA_IS_LOWER(s[k])) k++;
    if (k == a) return 0;
    size_t d = k;
    while (k < len && KOMA_IS_DIGIT(s[k])) k++;
    if (k == d || k >= len || s[k] != '"') return 0;
    return k + 1 - i;
}

static size_t ws(const char *s, size_t len, size_t i)
{
    while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
    return i;
}

/* A line that looks like ["e2","e4",null], [null,"e5","fu"] or a list of them. */
static int is_sanki_line(const char *s, size_t n)
{
    size_t i = ws(s, n, 0), k;
    if (i >= n || s[i] != '[') return 0;
    i = ws(s, n, i + 1);
    if (i < n && s[i] == '[') return 1;
    if (i + 4 <= n && memcmp(s + i, "null", 4) == 0) i += 4;
    else if ((k = square_string(s, n, i)) != 0) i += k;
    else return 0;
    i = ws(s, n, i);
    if (i >= n || s[i] != ',') return 0;
    i = ws(s, n, i + 1);
    if ((k = square_string(s, n, i)) == 0) return 0;
    i = ws(s, n, i + k);
    return i < n && s[i] == ',';
}

static int detect_sanki(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t i = 0, seen = 0;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) i = 3;
    while (i < len && seen < 8) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
        size_t m = n && s[i + n - 1] == '\r' ? n - 1 : n;
        if (ws(s + i, m, 0) < m) {
            if (!is_sanki_line(s + i, m)) return 0;
            seen++;
        }
        if (!nl) break;
        i += n + 1;
    }
    return seen ? 2 : 0;
}

static int read_sanki(koma_hub *h, const koma_position *pos, const char *s, size_t len,
                      koma_move *out, koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse_dialect(KOMA_PMN_DIALECT_SANKI, s, len, pos, &m, err) != 0) return -1;
    *out = m;
    koma_error none;
    const koma_game *g = koma__hub_game(h, pos, &none);
    if (g == NULL || !koma_game_playable(g)) return 0;
    koma_engine *e = koma__hub_engine(h, g, err);
    koma_emove em;
    if (e == NULL) return -1;
    if (koma_engine_set_position(e, pos, err) != 0) return -1;
    if (koma_engine_match_move(e, &m, &em, &none) == 0) {
        if (koma_engine_move_pmn(e, em, out) != 0) *out = m;
    } else if (none.code == KOMA_E_MEMORY) {
        *err = none;
        return -1;
    }
    return 0;                          /* an illegal move is kept for koma-replay to judge */
}

static int write_sanki(koma_hub *h, const koma_position *pos, const koma_move *m,
                       koma_buffer *out, koma_error *err)
{
    (void)h;
    char buf[64];
    size_t n = koma_sanki_move_write(pos, m, buf, sizeof buf, err);
    return n ? koma__buf_put(out, buf, n, err) : -1;
}

const koma_format koma__fmt_sanki_move = {
    .name = "sanki-move", .aliases = "sanki",
    .title = "Sanki platform moves [from, to, actor], one a line, or a game's as one "
             "JSON array a line (from --start)",
    .kind = KOMA_FORMAT_MOVES, .detect = detect_sanki, .read_move = read_sanki,
    .write_move = write_sanki, .move_lists = 1,
};
