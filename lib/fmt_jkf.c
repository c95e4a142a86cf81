/*
 * lib/fmt_jkf.c — JKF, the JSON Kifu Format of json-kifu-format, read and
 * written (jansson) through the shogi-world record of koma/record.h:
 *
 *   {"header": {"先手": "...", ...},            KIF's header names
 *    "initial": {"preset": "HIRATE" | "KY" | ... | "OTHER",
 *                "data": {"color": 0, "board": [[{"color":1,"kind":"KY"}, {}, ...]],
 *                         "hands": [{"FU": 1, ...}, {...}]}},
 *    "moves": [{"comments": [...]},                the setup's comments
 *              {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6},
 *                        "piece": "FU", "same": true, "promote": false,
 *                        "capture": "FU", "relative": "LU"},
 *               "time": {"now": {"m": 0, "s": 2}, "total": {"h": 0, "m": 0, "s": 2}},
 *               "comments": [...], "forks": [[...moves replacing this one...]]},
 *              {"special": "TORYO"}]}
 *
 * Coordinates are x = file 1-9 and y = rank 1-9; pieces are CSA's codes, the
 * piece before the move; color 0 is the first player (sente). A move without
 * "from" is a drop, unless its "relative" says otherwise (JKF read from KI2
 * and not normalised: the hub finds the origin as for KI2). "capture" and
 * "same" are checked against the position. The specials are CSA's end codes
 * without the '%'.
 *
 * koma adds two members JKF has no place for (readers that do not know them
 * ignore them): "bookmark" (a KIF bookmark) on a move entry or the first
 * entry, and "ending" (an ending word with no CSA code, such as 封じ手) on the
 * entry that ends a line, in place of "special".
 *
 * A record is read first in one pass with no tree (fmt_jkf_quick.c, the same
 * record); what that pass leaves is read here through jansson's tree, which
 * gives every diagnostic (fmt_jkf.h).
 *
 * Several records: one JSON document after another (JSON Lines, or pretty
 * documents one after the other). Written: one record a line (--pretty:
 * indented), keys in the order above; "promote": false when promoting was a
 * choice, "relative" the fewest marks that tell the origin, times in whole
 * seconds with both parts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fmt_jkf.h"
#include "format_internal.h"
#include "internal.h"
#include "util_json_alloc.h"
#include "util_json_pos.h"
#include "record_internal.h"

/* ---- splitting ---------------------------------------------------------------------- */

/* One JSON document: from the first '{' to its matching '}' (strings skipped).
 * A line that starts with '{' while a document is still open starts the next
 * one: the open one is broken (JSON Lines, or jansson's and JavaScript's
 * indented output, never put a nested '{' at the start of a line), so that a
 * bad record does not swallow the rest of the input. */
static int split_jkf(const char *s, size_t len, int at_end, koma__enc forced, size_t *rec_len, size_t *used)
{
    (void)forced;
    size_t i = 0;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) i = 3;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    if (i == len) {
        if (!at_end) return KOMA__SPLIT_MORE;
        *rec_len = *used = len;
        return KOMA__SPLIT_RECORD;
    }
    if (s[i] == '{') {
        /* the bytes that matter here; the others are passed over in a run */
        static const unsigned char special[256] = {['"'] = 1, ['\\'] = 1, ['{'] = 1, ['}'] = 1,
                                                   ['['] = 1, [']'] = 1, ['\n'] = 1};
        size_t depth = 0;
        int in_str = 0;
        for (size_t j = i; j < len; j++) {
            while (j < len && !special[(unsigned char)s[j]]) j++;
            if (j == len) break;
            char c = s[j];
            if (c == '\n' && j + 1 < len && s[j + 1] == '{') {
                *rec_len = *used = j + 1;
                return KOMA__SPLIT_RECORD;
            }
            if (in_str) {
                if (c == '\\') j++;
                else if (c == '"') in_str = 0;
            } else if (c == '"') {
                in_str = 1;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && depth > 0 && --depth == 0) {
                /* the rest of the line (blanks) goes with it */
                size_t k = j + 1;
                while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r')) k++;
                if (k < len && s[k] == '\n') k++;
                *rec_len = j + 1;
                *used = k;
                return KOMA__SPLIT_RECORD;
            }
        }
    }
    if (!at_end) return KOMA__SPLIT_MORE;
    *rec_len = *used = len;
    return KOMA__SPLIT_RECORD;
}

/* ---- reading ------------------------------------------------------------------------ */

typedef struct rd {
    koma_shogi_record *r;
    koma_error *err;
    const char *s;                     /* the record's text */
    size_t len;
    unsigned long line;                /* its first line in the input */
    char ptr[256];                     /* the JSON pointer of what is being read */
    size_t plen;
} rd;

/* A diagnostic at the value the pointer names (or the nearest that resolves). */
static int fail(rd *d, koma_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(rd *d, koma_code code, const char *fmt, ...)
{
    char msg[160], q[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t off = 0;
    koma__json_locate(d->s, d->len, d->ptr, &off);
    koma_quote(q, sizeof q, d->ptr, d->plen);
    koma__json_error_at(d->err, code, d->s, d->len, off, "%s at %s", msg, q[0] ? q : "/");
    if (d->err) d->err->line += d->line - 1;
    return -1;
}

static size_t push_key(rd *d, const char *k)
{
    size_t saved = d->plen;
    koma__json_pointer_push(d->ptr, sizeof d->ptr, &d->plen, k, strlen(k));
    return saved;
}

static size_t push_index(rd *d, size_t i)
{
    size_t saved = d->plen;
    koma__json_pointer_index(d->ptr, sizeof d->ptr, &d->plen, i);
    return saved;
}

static void pop(rd *d, size_t saved)
{
    d->plen = saved;
    d->ptr[saved] = '\0';
}

/* The members of obj must be among names (NULL-terminated). */
static int only(rd *d, json_t *obj, const char *const *names)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        size_t i = 0;
        while (names[i] && strcmp(names[i], k) != 0) i++;
        if (names[i] == NULL) {
            size_t saved = push_key(d, k);
            char q[64];
            koma_quote(q, sizeof q, k, strlen(k));
            int rc = fail(d, KOMA_E_JKF_VALUE, "unknown member \"%s\"", q);
            pop(d, saved);
            return rc;
        }
    }
    return 0;
}

/* An integer member in [lo, hi] (absent: *out = dflt when dflt >= lo, else an error). */
static int int_member(rd *d, json_t *obj, const char *key, long long lo, long long hi, long long dflt, long long *out)
{
    json_t *v = json_object_get(obj, key);
    size_t saved = push_key(d, key);
    int rc = 0;
    if (v == NULL || json_is_null(v)) {
        if (dflt >= lo) *out = dflt;
        else rc = fail(d, KOMA_E_JKF_VALUE, "missing \"%s\"", key);
    } else if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        rc = fail(d, KOMA_E_JKF_VALUE, "\"%s\" must be an integer from %lld to %lld", key, lo, hi);
    } else {
        *out = json_integer_value(v);
    }
    pop(d, saved);
    return rc;
}

/* {"x": 1-9, "y": 1-9} */
static int place(rd *d, json_t *v, const char *key, koma_sq *sq)
{
    size_t saved = push_key(d, key);
    static const char *const names[] = {"x", "y", NULL};
    long long x, y;
    int rc = !json_is_object(v) ? fail(d, KOMA_E_JKF_VALUE, "a square is {\"x\": 1-9, \"y\": 1-9}")
             : only(d, v, names) || int_member(d, v, "x", 1, 9, -1, &x) || int_member(d, v, "y", 1, 9, -1, &y) ? -1
                                                                                                             : 0;
    if (rc == 0) {
        sq->file = (uint8_t)x;
        sq->rank = (uint8_t)y;
    }
    pop(d, saved);
    return rc;
}

static int kind_member(rd *d, json_t *obj, const char *key, koma_piece *out)
{
    json_t *v = json_object_get(obj, key);
    size_t saved = push_key(d, key);
    int rc = 0;
    *out = json_is_string(v) ? koma__shogi_piece(json_string_value(v), json_string_length(v)) : KOMA_PIECE_NONE;
    if (*out == KOMA_PIECE_NONE) rc = fail(d, KOMA_E_JKF_VALUE, "\"%s\" must be a piece code (FU .. RY)", key);
    pop(d, saved);
    return rc;
}

static int string_member(rd *d, json_t *obj, const char *key, char **dst)
{
    json_t *v = json_object_get(obj, key);
    if (v == NULL) return 0;
    size_t saved = push_key(d, key);
    int rc = json_is_string(v) ? koma_shogi_set_text(dst, json_string_value(v), json_string_length(v), 0, d->err)
                               : fail(d, KOMA_E_JKF_VALUE, "\"%s\" must be a string", key);
    pop(d, saved);
    return rc;
}

/* "comments": ["line", ...] joined by line feeds */
static int comments(rd *d, json_t *entry, char **dst)
{
    json_t *a = json_object_get(entry, "comments");
    if (a == NULL || json_is_null(a)) return 0;
    size_t saved = push_key(d, "comments");
    if (!json_is_array(a)) return fail(d, KOMA_E_JKF_VALUE, "comments are an array of strings");
    size_t i;
    json_t *c;
    json_array_foreach(a, i, c) {
        size_t s2 = push_index(d, i);
        if (!json_is_string(c)) return fail(d, KOMA_E_JKF_VALUE, "a comment is a string");
        if (koma_shogi_set_text(dst, json_string_value(c), json_string_length(c), 1, d->err) != 0) return -1;
        pop(d, s2);
    }
    pop(d, saved);
    return 0;
}

/* {"h": H, "m": M, "s": S} in ms */
static int clock(rd *d, json_t *t, const char *key, long long *ms)
{
    json_t *v = json_object_get(t, key);
    size_t saved = push_key(d, key);
    static const char *const names[] = {"h", "m", "s", NULL};
    long long h, m, s;
    int rc = !json_is_object(v) ? fail(d, KOMA_E_JKF_VALUE, "a time is {\"h\", \"m\", \"s\"}")
             : only(d, v, names) || int_member(d, v, "h", 0, 1000000, 0, &h) ||
                     int_member(d, v, "m", 0, 60000000, -1, &m) || int_member(d, v, "s", 0, 59, -1, &s)
                 ? -1
                 : 0;
    if (rc == 0) *ms = ((h * 60 + m) * 60 + s) * 1000;
    pop(d, saved);
    return rc;
}

static int times(rd *d, json_t *entry, long long *elapsed, long long *total)
{
    json_t *t = json_object_get(entry, "time");
    if (t == NULL || json_is_null(t)) return 0;
    size_t saved = push_key(d, "time");
    static const char *const names[] = {"now", "total", NULL};
    int rc = !json_is_object(t) ? fail(d, KOMA_E_JKF_VALUE, "a time is {\"now\", \"total\"}")
             : only(d, t, names) || clock(d, t, "now", elapsed) || clock(d, t, "total", total) ? -1
                                                                                              : 0;
    pop(d, saved);
    return rc;
}

static const struct {
    char letter;
    unsigned bit;
} rel_letters[] = {
    {'L', KOMA_REL_LEFT}, {'R', KOMA_REL_RIGHT}, {'C', KOMA_REL_STRAIGHT}, {'U', KOMA_REL_UP},
    {'D', KOMA_REL_DOWN}, {'M', KOMA_REL_SIDEWAYS}, {'H', KOMA_REL_DROP},
};

static int move_of(rd *d, json_t *mv, koma_shogi_move *m)
{
    size_t saved = push_key(d, "move");
    static const char *const names[] = {"color", "from", "to", "piece", "same", "promote", "capture", "relative", NULL};
    long long color;
    if (!json_is_object(mv)) return fail(d, KOMA_E_JKF_VALUE, "a move is an object");
    if (only(d, mv, names) || int_member(d, mv, "color", 0, 1, -1, &color) || kind_member(d, mv, "piece", &m->piece))
        return -1;
    m->side = color == 0 ? KOMA_FIRST : KOMA_SECOND;
    json_t *v;
    if ((v = json_object_get(mv, "relative")) != NULL && !json_is_null(v)) {
        size_t s2 = push_key(d, "relative");
        if (!json_is_string(v)) return fail(d, KOMA_E_JKF_VALUE, "\"relative\" is a string of L C R U M D H");
        for (const char *p = json_string_value(v); *p; p++) {
            size_t k = 0;
            while (k < sizeof rel_letters / sizeof rel_letters[0] && rel_letters[k].letter != *p) k++;
            if (k == sizeof rel_letters / sizeof rel_letters[0] || (m->relative & rel_letters[k].bit))
                return fail(d, KOMA_E_JKF_VALUE, "\"relative\" is a string of L C R U M D H");
            m->relative |= rel_letters[k].bit;
        }
        pop(d, s2);
    }
    if ((v = json_object_get(mv, "same")) != NULL && !json_is_null(v)) {
        size_t s2 = push_key(d, "same");
        if (!json_is_boolean(v)) return fail(d, KOMA_E_JKF_VALUE, "\"same\" is true or false");
        m->same = json_is_true(v);
        pop(d, s2);
    }
    if ((v = json_object_get(mv, "to")) != NULL && !json_is_null(v)) {
        if (place(d, v, "to", &m->to) != 0) return -1;
    } else if (!m->same) {
        return fail(d, KOMA_E_JKF_VALUE, "a move needs \"to\" (or \"same\")");
    }
    if ((v = json_object_get(mv, "promote")) != NULL && !json_is_null(v)) {
        size_t s2 = push_key(d, "promote");
        if (!json_is_boolean(v)) return fail(d, KOMA_E_JKF_VALUE, "\"promote\" is true or false");
        m->promote = json_is_true(v) ? KOMA_PROMOTE_YES : KOMA_PROMOTE_NO;
        pop(d, s2);
    }
    if ((v = json_object_get(mv, "capture")) != NULL && !json_is_null(v) &&
        kind_member(d, mv, "capture", &m->captured) != 0)
        return -1;
    if ((v = json_object_get(mv, "from")) != NULL && !json_is_null(v)) {
        if (place(d, v, "from", &m->from) != 0) return -1;
        if (m->relative & KOMA_REL_DROP) return fail(d, KOMA_E_JKF_VALUE, "a drop (relative H) has no \"from\"");
    } else if (m->relative == 0 || (m->relative & KOMA_REL_DROP)) {
        /* no origin: a drop (normalised JKF) */
        if (m->promote == KOMA_PROMOTE_YES) return fail(d, KOMA_E_JKF_VALUE, "a drop does not promote");
        m->drop = 1;
        m->promote = KOMA_PROMOTE_NO;
    }
    pop(d, saved);
    return 0;
}

static int read_moves(rd *d, json_t *moves, koma_shogi_line *line, int top);
static int read_entries(rd *d, json_t *moves, koma_shogi_line *line, int top, const unsigned long *lines,
                        const unsigned long *cols, size_t nplaces);

/* An entry that ends the line: "special" (CSA's codes) or koma's "ending". */
static int ending(rd *d, json_t *entry, koma_shogi_line *line, size_t mover)
{
    koma_shogi_ending *e = &line->end;
    json_t *v = json_object_get(entry, "special");
    if (v != NULL && !json_is_null(v)) {
        size_t saved = push_key(d, "special");
        char code[40];
        if (!json_is_string(v) || json_string_length(v) + 2 > sizeof code)
            return fail(d, KOMA_E_JKF_VALUE, "\"special\" is one of CSA's end codes (TORYO ...)");
        snprintf(code, sizeof code, "%%%s", json_string_value(v));
        e->code = koma_shogi_ending_from_csa(code, strlen(code), (int)mover);
        if (e->code == KOMA_SHOGI_ENDING_OTHER) {
            char q[48];
            koma_quote(q, sizeof q, json_string_value(v), json_string_length(v));
            return fail(d, KOMA_E_JKF_VALUE, "unknown special \"%s\"", q);
        }
        pop(d, saved);
    } else {
        size_t saved = push_key(d, "ending");
        v = json_object_get(entry, "ending");
        if (!json_is_string(v) || json_string_length(v) == 0)
            return fail(d, KOMA_E_JKF_VALUE, "\"ending\" is a word");
        e->code = KOMA_SHOGI_ENDING_OTHER;
        if (koma_shogi_set_text(&e->text, json_string_value(v), json_string_length(v), 0, d->err) != 0) return -1;
        pop(d, saved);
    }
    e->line = d->line;
    e->column = 1;
    return times(d, entry, &e->elapsed_ms, &e->total_ms) || comments(d, entry, &e->comment) ||
                   string_member(d, entry, "bookmark", &e->bookmark)
               ? -1
               : 0;
}

static const char *const entry_names[] = {"comments", "move", "time", "special", "forks", "bookmark", "ending", NULL};

/* Where each element of the array at d->ptr starts (line, column), found in
 * one pass over the text (locating each element on its own would take time
 * quadratic in the record). *n elements at most cap; -1 when not found. */
static int element_places(rd *d, unsigned long *lines, unsigned long *cols, size_t cap, size_t *n)
{
    size_t at;
    *n = 0;
    if (koma__json_locate(d->s, d->len, d->ptr, &at) != 0 || at >= d->len || d->s[at] != '[') return -1;
    unsigned long ln = 1, col = 1;
    for (size_t i = 0; i < at; i++, col++)
        if (d->s[i] == '\n') ln++, col = 0;
    int depth = 0, in_str = 0, want = 1;
    for (size_t i = at; i < d->len; i++, col++) {
        char c = d->s[i];
        if (c == '\n') {
            ln++;
            col = 0;
            continue;
        }
        if (in_str) {
            if (c == '\\') i++, col++;
            else if (c == '"') in_str = 0;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') continue;
        if (depth == 1 && want && c != ']') {
            if (*n == cap) return 0;
            lines[*n] = ln + d->line - 1;
            cols[*n] = col;
            (*n)++;
            want = 0;
        }
        if (c == '"') in_str = 1;
        else if (c == '[' || c == '{') depth++;
        else if (c == ']' || c == '}') {
            if (--depth == 0) return 0;
        } else if (c == ',' && depth == 1) want = 1;
    }
    return 0;
}

/* The entries of a line of play (top: the record's moves, whose first entry is
 * the setup's); the mover of the first is not known here: the hub checks the
 * colours. */
static int read_moves(rd *d, json_t *moves, koma_shogi_line *line, int top)
{
    if (!json_is_array(moves)) return fail(d, KOMA_E_JKF_VALUE, "moves are an array");
    size_t nplaces = 0, count = json_array_size(moves);
    unsigned long *lines = malloc((count ? count : 1) * 2 * sizeof *lines);
    if (lines == NULL) return koma_error_set(d->err, KOMA_E_MEMORY, 0, NULL);
    element_places(d, lines, lines + count, count, &nplaces);
    int rc = read_entries(d, moves, line, top, lines, lines + count, nplaces);
    free(lines);
    return rc;
}

static int read_entries(rd *d, json_t *moves, koma_shogi_line *line, int top, const unsigned long *lines,
                        const unsigned long *cols, size_t nplaces)
{
    size_t i;
    json_t *entry;
    json_array_foreach(moves, i, entry) {
        size_t saved = push_index(d, i);
        if (!json_is_object(entry) || only(d, entry, entry_names) != 0)
            return json_is_object(entry) ? -1 : fail(d, KOMA_E_JKF_VALUE, "a move entry is an object");
        json_t *mv = json_object_get(entry, "move");
        int has_move = mv != NULL && !json_is_null(mv);
        int has_end = (json_object_get(entry, "special") && !json_is_null(json_object_get(entry, "special"))) ||
                      json_object_get(entry, "ending");
        if (top && i == 0) {
            if (has_move || has_end || json_object_get(entry, "forks") || json_object_get(entry, "time"))
                return fail(d, KOMA_E_JKF_VALUE, "the first entry holds only the setup's comments");
            if (comments(d, entry, &d->r->setup_comment) || string_member(d, entry, "bookmark", &d->r->setup_bookmark))
                return -1;
            pop(d, saved);
            continue;
        }
        if (line->end.code != KOMA_SHOGI_ENDING_NONE) return fail(d, KOMA_E_JKF_VALUE, "an entry after the end of the line");
        if (has_move && has_end) return fail(d, KOMA_E_JKF_VALUE, "an entry is a move or an ending, not both");
        if (!has_move && !has_end) return fail(d, KOMA_E_JKF_VALUE, "an entry needs \"move\" or \"special\"");
        if (has_end) {
            if (json_object_get(entry, "forks")) return fail(d, KOMA_E_JKF_VALUE, "forks of an ending are not kept");
            /* the mover: the colour of the previous move's opponent, else
             * resolved by the hub (KOMA_FIRST is corrected there for
             * ILLEGAL_ACTION only through the code itself) */
            int mover = line->len ? 1 - line->moves[line->len - 1].side : d->r->setup.turn;
            if (ending(d, entry, line, (size_t)mover) != 0) return -1;
            pop(d, saved);
            continue;
        }
        koma_shogi_move m;
        koma_shogi_move_init(&m);
        if (i < nplaces) {
            m.line = lines[i];
            m.column = cols[i];
        } else {
            m.line = d->line;
            m.column = 1;
        }
        if (move_of(d, mv, &m) != 0 || times(d, entry, &m.elapsed_ms, &m.total_ms) != 0 ||
            comments(d, entry, &m.comment) != 0 || string_member(d, entry, "bookmark", &m.bookmark) != 0) {
            free(m.comment);
            free(m.bookmark);
            return -1;
        }
        koma_shogi_move *stored = koma_shogi_line_push(line, &m, d->err);
        if (stored == NULL) {
            free(m.comment);
            free(m.bookmark);
            return -1;
        }
        json_t *forks = json_object_get(entry, "forks");
        if (forks != NULL && !json_is_null(forks)) {
            size_t s2 = push_key(d, "forks");
            if (!json_is_array(forks)) return fail(d, KOMA_E_JKF_VALUE, "forks are an array of move lists");
            size_t k;
            json_t *f;
            json_array_foreach(forks, k, f) {
                size_t s3 = push_index(d, k);
                koma_shogi_line *fl = koma_shogi_move_add_fork(&line->moves[line->len - 1], d->err);
                if (fl == NULL || read_moves(d, f, fl, 0) != 0) return -1;
                if (fl->len == 0) return fail(d, KOMA_E_JKF_VALUE, "a fork begins with a move");
                pop(d, s3);
            }
            pop(d, s2);
        }
        pop(d, saved);
    }
    return 0;
}

static int initial(rd *d, json_t *ini)
{
    koma_shogi_record *r = d->r;
    if (ini == NULL || json_is_null(ini)) return koma__preset_position(koma__preset_by_jkf("HIRATE", 6), &r->setup, d->err);
    size_t saved = push_key(d, "initial");
    static const char *const names[] = {"preset", "data", NULL};
    if (!json_is_object(ini) || only(d, ini, names) != 0)
        return json_is_object(ini) ? -1 : fail(d, KOMA_E_JKF_VALUE, "\"initial\" is an object");
    json_t *pv = json_object_get(ini, "preset");
    size_t s2 = push_key(d, "preset");
    if (!json_is_string(pv)) return fail(d, KOMA_E_JKF_VALUE, "\"preset\" names the start position");
    const char *ps = json_string_value(pv);
    if (strcmp(ps, "OTHER") != 0) {
        const koma__preset *p = koma__preset_by_jkf(ps, json_string_length(pv));
        if (p == NULL) {
            char q[48];
            koma_quote(q, sizeof q, ps, json_string_length(pv));
            return fail(d, KOMA_E_JKF_VALUE, "unknown preset \"%s\"", q);
        }
        pop(d, saved);
        return koma__preset_position(p, &r->setup, d->err);
    }
    pop(d, s2);
    json_t *data = json_object_get(ini, "data");
    s2 = push_key(d, "data");
    static const char *const dnames[] = {"color", "board", "hands", NULL};
    long long color;
    if (!json_is_object(data) || only(d, data, dnames) != 0 || int_member(d, data, "color", 0, 1, -1, &color) != 0)
        return json_is_object(data) ? -1 : fail(d, KOMA_E_JKF_VALUE, "preset OTHER needs \"data\"");
    koma_shape shape = {2, {9, 9, 1}, 81};
    if (koma_position_reset(&r->setup, &shape, d->err) != 0) return -1;
    r->setup.style[0] = 'S';
    r->setup.style[1] = 's';
    r->setup.turn = color == 0 ? KOMA_FIRST : KOMA_SECOND;
    json_t *board = json_object_get(data, "board");
    size_t s3 = push_key(d, "board");
    if (!json_is_array(board) || json_array_size(board) != 9) return fail(d, KOMA_E_JKF_VALUE, "a board is 9 files of 9 squares");
    for (size_t x = 0; x < 9; x++) {
        json_t *col = json_array_get(board, x);
        size_t s4 = push_index(d, x);
        if (!json_is_array(col) || json_array_size(col) != 9) return fail(d, KOMA_E_JKF_VALUE, "a file is 9 squares");
        for (size_t y = 0; y < 9; y++) {
            json_t *sq = json_array_get(col, y);
            size_t s5 = push_index(d, y);
            static const char *const snames[] = {"color", "kind", NULL};
            if (!json_is_object(sq) || only(d, sq, snames) != 0)
                return json_is_object(sq) ? -1 : fail(d, KOMA_E_JKF_VALUE, "a square is an object");
            json_t *kv = json_object_get(sq, "kind");
            if (kv != NULL && !json_is_null(kv)) {
                koma_piece k;
                long long c;
                if (kind_member(d, sq, "kind", &k) || int_member(d, sq, "color", 0, 1, -1, &c)) return -1;
                koma_sq at = {(uint8_t)(x + 1), (uint8_t)(y + 1)};
                uint32_t q;
                koma_sq_to_square(&r->setup.shape, at, &q);
                r->setup.board[q] = koma__shogi_on_board(k, c == 0 ? KOMA_FIRST : KOMA_SECOND);
            }
            pop(d, s5);
        }
        pop(d, s4);
    }
    pop(d, s3);
    json_t *hands = json_object_get(data, "hands");
    s3 = push_key(d, "hands");
    if (!json_is_array(hands) || json_array_size(hands) != 2) return fail(d, KOMA_E_JKF_VALUE, "hands are two objects");
    for (int side = 0; side < 2; side++) {
        json_t *h = json_array_get(hands, (size_t)side);
        size_t s4 = push_index(d, (size_t)side);
        if (!json_is_object(h)) return fail(d, KOMA_E_JKF_VALUE, "a hand is an object of counts");
        const char *k;
        json_t *v;
        json_object_foreach(h, k, v) {
            size_t s5 = push_key(d, k);
            koma_piece p = koma__shogi_piece(k, strlen(k));
            if (p == KOMA_PIECE_NONE || (p & KOMA_PIECE_STATE) || p == koma_piece_from_letter('K'))
                return fail(d, KOMA_E_JKF_VALUE, "not a piece a hand holds");
            if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 18)
                return fail(d, KOMA_E_JKF_VALUE, "a count from 0 to 18");
            if (json_integer_value(v) > 0 &&
                koma_hand_add(&r->setup.hands[side], koma__shogi_on_board(p, side), (uint32_t)json_integer_value(v),
                              d->err) != 0)
                return -1;
            pop(d, s5);
        }
        pop(d, s4);
    }
    pop(d, saved);
    return 0;
}

static int header(rd *d, json_t *hd)
{
    if (hd == NULL || json_is_null(hd)) return 0;
    size_t saved = push_key(d, "header");
    if (!json_is_object(hd)) return fail(d, KOMA_E_JKF_VALUE, "\"header\" is an object of strings");
    const char *k;
    json_t *v;
    json_object_foreach(hd, k, v) {
        size_t s2 = push_key(d, k);
        if (!json_is_string(v)) return fail(d, KOMA_E_JKF_VALUE, "a header value is a string");
        if (koma__kif_header_add(d->r, k, strlen(k), json_string_value(v), json_string_length(v), d->err) != 0)
            return -1;
        pop(d, s2);
    }
    pop(d, saved);
    return 0;
}

int koma__jkf_read_tree(const char *s, size_t len, unsigned long line, koma_shogi_record *r, koma_error *err)
{
    rd d = {r, err, s, len, line, "", 0};
    size_t where;
    if (koma__json_depth(s, len, KOMA_JSON_DEPTH_MAX, &where)) {
        koma__json_error_at(err, KOMA_E_JKF_SYNTAX, s, len, where, "nesting deeper than %u levels", KOMA_JSON_DEPTH_MAX);
        err->line += line - 1;
        return -1;
    }
    size_t skip = len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    json_error_t jerr;
    int oom;   /* jansson reports its own failed allocations as syntax errors */
    json_t *root = koma__json_loadb(s + skip, len - skip, JSON_REJECT_DUPLICATES, &jerr, &oom);
    if (oom) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    if (root == NULL) {
        koma__json_error(err, KOMA_E_JKF_SYNTAX, s + skip, len - skip, &jerr);
        err->line += line - 1;
        if (err->line == line) err->column += (unsigned long)skip;
        return -1;
    }
    d.s = s + skip;
    d.len = len - skip;
    int rc = -1;
    static const char *const names[] = {"header", "initial", "moves", "type", NULL};
    if (!json_is_object(root)) {
        fail(&d, KOMA_E_JKF_VALUE, "a JKF record is an object");
        goto out;
    }
    if (only(&d, root, names) != 0 || koma_shogi_set_text(&r->source_format, "jkf", 3, 0, err) != 0 ||
        header(&d, json_object_get(root, "header")) != 0 || initial(&d, json_object_get(root, "initial")) != 0)
        goto out;
    json_t *moves = json_object_get(root, "moves");
    size_t saved = push_key(&d, "moves");
    if (moves == NULL) {
        fail(&d, KOMA_E_JKF_VALUE, "a JKF record needs \"moves\"");
        goto out;
    }
    if (read_moves(&d, moves, &r->main, 1) != 0) goto out;
    pop(&d, saved);
    rc = 0;
out:
    json_decref(root);
    return rc;
}

/* One pass with no tree first (fmt_jkf_quick.c); what it leaves, the tree. */
static int read_jkf(koma_hub *h, void *state, const char *s, size_t len, unsigned long line, koma_shogi_record *r,
                    koma_error *err)
{
    (void)h, (void)state;
    int rc = koma__jkf_read_quick(s, len, line, r, err);
    if (rc != 0) return rc > 0 ? 0 : -1;
    return koma__jkf_read_tree(s, len, line, r, err);
}

/* ---- writing ------------------------------------------------------------------------ */

typedef struct wr {
    const koma_shogi_record *r;
    koma_error *err;
} wr;

static int oom(koma_error *err) { return koma_error_set(err, KOMA_E_MEMORY, 0, NULL); }

static int jset(json_t *o, const char *k, json_t *v, koma_error *err)
{
    if (v == NULL || json_object_set_new(o, k, v) != 0) return oom(err);
    return 0;
}

static json_t *place_json(koma_sq sq)
{
    json_t *o = json_object();
    if (o && (json_object_set_new(o, "x", json_integer(sq.file)) || json_object_set_new(o, "y", json_integer(sq.rank)))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* "a\nb" -> ["a", "b"] */
static int comments_json(json_t *o, const char *text, koma_error *err)
{
    if (text == NULL) return 0;
    json_t *a = json_array();
    if (a == NULL || json_object_set_new(o, "comments", a) != 0) return oom(err);
    for (const char *p = text;;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (json_array_append_new(a, json_stringn(p, n)) != 0) return oom(err);
        if (!e) return 0;
        p = e + 1;
    }
}

static int time_json(json_t *o, long long el, long long tot, koma_error *err)
{
    if (el == KOMA_TIME_NONE) return 0;
    long long e = el / 1000, t = tot / 1000;
    json_t *now = json_pack("{s:I,s:I}", "m", (json_int_t)(e / 60), "s", (json_int_t)(e % 60));
    json_t *total = json_pack("{s:I,s:I,s:I}", "h", (json_int_t)(t / 3600), "m", (json_int_t)(t / 60 % 60), "s",
                              (json_int_t)(t % 60));
    json_t *time = json_object();
    if (now == NULL || total == NULL || time == NULL) {
        json_decref(now);
        json_decref(total);
        json_decref(time);
        return oom(err);
    }
    /* (json_object_set_new frees the value it could not add) */
    if (json_object_set_new(time, "now", now) != 0) {
        json_decref(total);
        json_decref(time);
        return oom(err);
    }
    if (json_object_set_new(time, "total", total) != 0) {
        json_decref(time);
        return oom(err);
    }
    return jset(o, "time", time, err);
}

static int mover_of(const koma_shogi_record *r, size_t ply) { return (int)((r->setup.turn + ply - 1) % 2); }

static int line_json(wr *w, const koma_shogi_line *l, size_t first, long long run0[2], json_t *arr);

static int move_json(wr *w, const koma_shogi_move *m, size_t ply, long long run[2], json_t *entry)
{
    koma_error *err = w->err;
    json_t *mv = json_object();
    if (mv == NULL || json_object_set_new(entry, "move", mv) != 0) return oom(err);
    const char *piece = koma__shogi_code(m->piece);
    if (piece == NULL) return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "ply %zu: no JKF piece", ply);
    if (jset(mv, "color", json_integer(mover_of(w->r, ply)), err) ||
        (!m->drop && jset(mv, "from", place_json(m->from), err)) || jset(mv, "to", place_json(m->to), err) ||
        jset(mv, "piece", json_string(piece), err) || (m->same && jset(mv, "same", json_true(), err)))
        return -1;
    if (m->promote == KOMA_PROMOTE_YES && jset(mv, "promote", json_true(), err)) return -1;
    if (m->promote != KOMA_PROMOTE_YES && m->promotable && jset(mv, "promote", json_false(), err)) return -1;
    if (m->captured != KOMA_PIECE_NONE && koma__shogi_code(m->captured) &&
        jset(mv, "capture", json_string(koma__shogi_code(m->captured)), err))
        return -1;
    unsigned rel = m->relative;
    if (rel && !(rel & KOMA__REL_UNTOLD)) {
        char t[8];
        size_t n = 0;
        if (rel & KOMA_REL_LEFT) t[n++] = 'L';
        if (rel & KOMA_REL_STRAIGHT) t[n++] = 'C';
        if (rel & KOMA_REL_RIGHT) t[n++] = 'R';
        if (rel & KOMA_REL_UP) t[n++] = 'U';
        if (rel & KOMA_REL_SIDEWAYS) t[n++] = 'M';
        if (rel & KOMA_REL_DOWN) t[n++] = 'D';
        if (rel & KOMA_REL_DROP) t[n++] = 'H';
        if (jset(mv, "relative", json_stringn(t, n), err)) return -1;
    }
    long long el, tot;
    koma__times_both(run, mover_of(w->r, ply), m->elapsed_ms, m->total_ms, &el, &tot);
    if (time_json(entry, el, tot, err)) return -1;
    if (m->nforks) {
        json_t *forks = json_array();
        if (forks == NULL || json_object_set_new(entry, "forks", forks) != 0) return oom(err);
        for (size_t k = 0; k < m->nforks; k++) {
            json_t *fa = json_array();
            if (fa == NULL || json_array_append_new(forks, fa) != 0) return oom(err);
            long long frun[2] = {run[0], run[1]};
            /* the fork replaces this move: the totals before it */
            if (el != KOMA_TIME_NONE) frun[mover_of(w->r, ply)] = tot - el;
            if (line_json(w, &m->forks[k], ply, frun, fa) != 0) return -1;
        }
    }
    return 0;
}

static int line_json(wr *w, const koma_shogi_line *l, size_t first, long long run0[2], json_t *arr)
{
    koma_error *err = w->err;
    long long run[2] = {run0[0], run0[1]};
    json_t *last = NULL;
    for (size_t i = 0; i < l->len; i++) {
        const koma_shogi_move *m = &l->moves[i];
        json_t *entry = json_object();
        if (entry == NULL || json_array_append_new(arr, entry) != 0) return oom(err);
        last = entry;
        if (comments_json(entry, m->comment, err) || move_json(w, m, first + i, run, entry) ||
            (m->bookmark && jset(entry, "bookmark", json_string(m->bookmark), err)))
            return -1;
    }
    const koma_shogi_ending *e = &l->end;
    if (e->code == KOMA_SHOGI_ENDING_NONE) {
        /* a comment with no ending goes on the last move */
        if (e->comment && last) {
            json_t *c = json_object_get(last, "comments");
            if (c == NULL) return comments_json(last, e->comment, err);
            json_t *more = json_object();
            if (more == NULL) return oom(err);
            int rc = comments_json(more, e->comment, err) ? -1
                     : json_array_extend(c, json_object_get(more, "comments")) != 0 ? oom(err) : 0;
            json_decref(more);
            if (rc != 0) return -1;
        }
        return 0;
    }
    json_t *entry = json_object();
    if (entry == NULL || json_array_append_new(arr, entry) != 0) return oom(err);
    size_t ply = first + l->len;
    int mover = mover_of(w->r, ply);
    const char *code = e->code == KOMA_SHOGI_ENDING_OTHER ? NULL : e->csa ? e->csa : koma_shogi_ending_csa(e->code, 1 - mover);
    if (comments_json(entry, e->comment, err)) return -1;
    if (code && code[0] == '%') {
        if (jset(entry, "special", json_string(code + 1), err)) return -1;
    } else if (jset(entry, "ending", json_string(e->text ? e->text : code ? code : "?"), err)) {
        return -1;
    }
    long long el, tot;
    koma__times_both(run, mover, e->elapsed_ms, e->total_ms, &el, &tot);
    if (time_json(entry, el, tot, err)) return -1;
    if (e->bookmark && jset(entry, "bookmark", json_string(e->bookmark), err)) return -1;
    return 0;
}

/* The initial object; NULL when out of memory. */
static json_t *initial_json(const koma_position *p)
{
    const koma__preset *ps;
    if (koma__preset_of(p, &ps, NULL) != 0) return NULL;
    if (ps) return json_pack("{s:s}", "preset", ps->jkf);
    json_t *board = json_array();
    for (unsigned x = 1; board && x <= 9; x++) {
        json_t *col = json_array();
        if (col == NULL || json_array_append_new(board, col) != 0) {
            json_decref(board);
            return NULL;
        }
        for (unsigned y = 1; y <= 9; y++) {
            koma_sq sq = {(uint8_t)x, (uint8_t)y};
            uint32_t q;
            koma_sq_to_square(&p->shape, sq, &q);
            koma_piece k = p->board[q];
            json_t *o = k ? json_pack("{s:i,s:s}", "color", koma_piece_side(k) == KOMA_FIRST ? 0 : 1, "kind",
                                      koma__shogi_code(k))
                          : json_object();
            if (o == NULL || json_array_append_new(col, o) != 0) {
                json_decref(board);
                return NULL;
            }
        }
    }
    json_t *hands = json_array();
    static const char kinds[] = "PLNSGBR";
    /* a hand that could not be built in full fails the whole (not written short) */
    int short_hand = 0;
    for (int side = 0; hands && !short_hand && side < 2; side++) {
        json_t *h = json_object();
        if (h == NULL || json_array_append_new(hands, h) != 0) short_hand = 1;
        for (const char *c = kinds; !short_hand && *c; c++) {
            koma_piece k = koma_piece_from_letter(side ? (char)(*c | 0x20) : *c);
            if (json_object_set_new(h, koma__shogi_code(koma_piece_from_letter(*c)),
                                    json_integer(koma_hand_count(&p->hands[side], k))) != 0)
                short_hand = 1;
        }
    }
    if (board == NULL || hands == NULL || short_hand) {
        json_decref(board);
        json_decref(hands);
        return NULL;
    }
    return json_pack("{s:s,s:{s:i,s:o,s:o}}", "preset", "OTHER", "data", "color", p->turn == KOMA_FIRST ? 0 : 1,
                     "board", board, "hands", hands);
}

/* The header object; a key must read back as the same field. */
static json_t *header_json(const koma_shogi_record *r, koma_error *err)
{
    json_t *hd = json_object();
    if (hd == NULL) {
        oom(err);
        return NULL;
    }
    const koma__preset *p;
    if (koma__preset_of(&r->setup, &p, err) != 0) {
        json_decref(hd);
        return NULL;
    }
    int handicap = p != NULL && strcmp(p->kif, "平手") != 0;
    for (size_t i = 0; i < r->nheaders; i++) {
        const koma_shogi_header *h = &r->headers[i];
        const char *name = h->key == KOMA_H_OTHER ? h->name : koma__kif_header_name(h->key, handicap);
        const char *value = h->value;
        char date[32], iso[48];
        if (h->key == KOMA_H_START || h->key == KOMA_H_END) {
            value = koma__kif_date_out(h->value, date);
            if (koma__kif_date_in(value, strlen(value), iso) == 0) {
                json_decref(hd);
                koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "JKF cannot hold the date \"%.40s\"", h->value);
                return NULL;
            }
        }
        /* the key the reader gives it back (koma__kif_header_add): a date's key
         * whose value is no date koma reads is another field, kept as written */
        koma_shogi_header_key back = name ? koma__kif_header_key(name, strlen(name)) : KOMA_H_OTHER;
        if ((back == KOMA_H_START || back == KOMA_H_END) && koma__kif_date_in(value, strlen(value), iso) == 0)
            back = KOMA_H_OTHER;
        if (name == NULL || back != h->key) {
            char q[64];
            koma_quote(q, sizeof q, name ? name : "", name ? strlen(name) : 0);
            json_decref(hd);
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "JKF cannot hold the header \"%s\"", q);
            return NULL;
        }
        json_t *old = json_object_get(hd, name);
        if (old) {
            /* a repeated field: one value, lines joined (as PCN has it) */
            size_t n = json_string_length(old), m = strlen(value);
            char *joined = malloc(n + m + 2);
            if (joined == NULL) {
                json_decref(hd);
                oom(err);
                return NULL;
            }
            memcpy(joined, json_string_value(old), n);
            joined[n] = '\n';
            memcpy(joined + n + 1, value, m + 1);
            int rc = json_object_set_new(hd, name, json_string(joined));
            free(joined);
            if (rc != 0) {
                json_decref(hd);
                oom(err);
                return NULL;
            }
        } else if (json_object_set_new(hd, name, json_string(value)) != 0) {
            json_decref(hd);
            oom(err);
            return NULL;
        }
    }
    /* periods as 持ち時間 headers in koma's form, unless the text there says them
     * (another text there: no room) */
    static const char *const keys[] = {"持ち時間", KOMA__KIF_FIRST_TIME, KOMA__KIF_SECOND_TIME};
    for (int side = 0; side < 3; side++) {
        if (r->nperiods[side] == 0 || koma__kif_periods_said(r, side)) continue;
        char text[128];
        if (json_object_get(hd, keys[side]) ||
            koma__kif_periods_out(r->periods[side], r->nperiods[side], side == 0, text, sizeof text) != 0) {
            json_decref(hd);
            koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                           "JKF cannot say these time control periods (a main time, an increment, byoyomi)");
            return NULL;
        }
        if (json_object_set_new(hd, keys[side], json_string(text)) != 0) {
            json_decref(hd);
            oom(err);
            return NULL;
        }
    }
    return hd;
}

typedef struct jkf_sink {
    koma_buffer *out;
    koma_error *err;
} jkf_sink;

static int put_piece(void *ctx, const char *data, size_t len)
{
    jkf_sink *s = ctx;
    return koma__buf_put(s->out, data, len, s->err);
}

static int write_jkf(koma_hub *h, const koma_shogi_record *r, size_t index, unsigned flags, koma_buffer *out,
                     koma_error *err)
{
    (void)h, (void)index;
    if (koma__srec_shogi_only(r, "JKF", err) != 0) return -1;
    wr w = {r, err};
    json_t *root = json_object(), *moves = json_array(), *first = json_object();
    int rc = -1;
    if (root == NULL || moves == NULL || first == NULL) {
        json_decref(moves);
        json_decref(first);
        oom(err);
        goto out;
    }
    json_t *hd = header_json(r, err);
    if (hd == NULL || jset(root, "header", hd, err)) {
        json_decref(moves);
        json_decref(first);
        goto out;
    }
    if (jset(root, "initial", initial_json(&r->setup), err)) {
        json_decref(moves);
        json_decref(first);
        goto out;
    }
    /* (jansson frees a value it could not add: first, when moves could not be) */
    if (json_object_set_new(root, "moves", moves) != 0) {
        json_decref(first);
        oom(err);
        goto out;
    }
    if (json_array_append_new(moves, first) != 0) {
        oom(err);
        goto out;
    }
    if (comments_json(first, r->setup_comment, err) ||
        (r->setup_bookmark && jset(first, "bookmark", json_string(r->setup_bookmark), err)))
        goto out;
    long long run[2] = {0, 0};
    if (line_json(&w, &r->main, 1, run, moves) != 0) goto out;
    /* straight into out, a failure sticking (koma__json_dump): json_dumps lost a
     * key when its buffer could not grow */
    size_t len0 = out->len;
    jkf_sink s = { out, err };
    if (koma__json_dump(root, (flags & KOMA_WRITE_PRETTY ? JSON_INDENT(2) : JSON_COMPACT) | JSON_PRESERVE_ORDER,
                        put_piece, &s, NULL) != 0 || koma__buf_put(out, "\n", 1, err) != 0) {
        if (out->data != NULL) {
            out->len = len0;
            out->data[len0] = '\0';
        }
        oom(err);
        goto out;
    }
    rc = 0;
out:
    json_decref(root);
    return rc;
}

/* ---- detection ------------------------------------------------------------------------- */

static int detect_jkf(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t i = len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    if (i == len || s[i] != '{') return 0;
    if (koma__contains(s + i, len - i, "\"moves\"") && (koma__contains(s + i, len - i, "\"header\"") || koma__contains(s + i, len - i, "\"initial\"")))
        return 3;
    return 0;
}

const koma_format koma__fmt_jkf = {
    .name = "jkf", .aliases = "", .title = "JKF records (JSON Kifu Format)",
    .kind = KOMA_FORMAT_RECORD, .detect = detect_jkf, .split = split_jkf,
    .read_record = read_jkf, .write_record = write_jkf, .annotate = 1,
};
