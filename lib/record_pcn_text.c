/*
 * lib/record_pcn_text.c — a shogi-world record written straight to PCN JSON
 * text (record_internal.h, koma__srec_pcn_text): the bytes that
 * koma_shogi_record_to_pcn's tree gives through koma_pcn_write's compact form,
 * without the tree (no allocation a ply). The members in the tree's order, the
 * strings escaped as the compact writer escapes them (lib/util_json_emit.c),
 * and each error the one the tree path meets first: the records' reading of
 * the moves is record_pcn.c's (koma__srec_play), and the variations of a move
 * are written before the move is read, as the tree path does.
 */
#include <string.h>

#include "format_internal.h"
#include "internal.h"
#include "record_internal.h"
#include "util_json_emit.h"
#include "util_text.h"

typedef struct text_ctx {
    koma_hub *h;
    const koma_game *game;
    koma_buffer *out;
    koma_error *err;
} text_ctx;

static int put(text_ctx *w, const char *s, size_t n)
{
    koma_buffer *b = w->out;
    if (b->len + n + 1 > b->cap) return koma__buf_put(b, s, n, w->err);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

#define PUT(w, lit) put(w, lit, sizeof lit - 1)

/* s[0..n) escaped as the compact writer escapes it (no quotes). */
static int put_escaped(text_ctx *w, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        char esc[6];
        if (put(w, s + run, i - run) != 0 || put(w, esc, koma__json_escape(c, esc)) != 0) return -1;
        run = i + 1;
    }
    return put(w, s + run, n - run);
}

static int put_str(text_ctx *w, const char *s, size_t n)
{
    return PUT(w, "\"") || put_escaped(w, s, n) || PUT(w, "\"") ? -1 : 0;
}

/* ,"key":"text" (prefix: what goes before the key), the text checked first. */
static int member_text(text_ctx *w, const char *prefix, const char *s)
{
    size_t n = strlen(s);
    if (koma__srec_text_ok(s, n, w->err) != 0) return -1;
    return put(w, prefix, strlen(prefix)) || put_str(w, s, n) ? -1 : 0;
}

static int member_int(text_ctx *w, const char *prefix, long long v)
{
    char d[24];
    return put(w, prefix, strlen(prefix)) || put(w, d, koma__json_int(v, d)) ? -1 : 0;
}

/* ---- meta, periods, sides ------------------------------------------------------ */

/* The headers in PCN's order, with where each goes. */
typedef struct placed {
    const koma_shogi_header *h;
    const char *key;
    int where;
} placed;

/* "key":"value[\nvalue]..." for the first header of its place and key, the
 * later ones joined (a repeated field); nothing for a later one. */
static int member_joined(text_ctx *w, const placed *p, size_t n, size_t i, int *first)
{
    for (size_t j = 0; j < i; j++)
        if (p[j].where == p[i].where && strcmp(p[j].key, p[i].key) == 0) return 0;
    if ((!*first && PUT(w, ",")) || put_str(w, p[i].key, strlen(p[i].key)) || PUT(w, ":\"")) return -1;
    *first = 0;
    int more = 0;
    for (size_t j = i; j < n; j++) {
        if (p[j].where != p[i].where || strcmp(p[j].key, p[i].key) != 0) continue;
        if ((more && PUT(w, "\\n")) || put_escaped(w, p[j].h->value, strlen(p[j].h->value))) return -1;
        more = 1;
    }
    return PUT(w, "\"");
}

/* Each field of `where` as a member (comma-separated); *any: one was written. */
static int members_of(text_ctx *w, const placed *p, size_t n, int where, int *any)
{
    int first = 1;
    for (size_t i = 0; i < n; i++)
        if (p[i].where == where && member_joined(w, p, n, i, &first) != 0) return -1;
    *any = !first;
    return 0;
}

static int periods(text_ctx *w, const char *prefix, const koma_shogi_period *p, size_t n)
{
    if (put(w, prefix, strlen(prefix)) != 0) return -1;
    for (size_t i = 0; i < n; i++)
        if (member_int(w, i ? ",{\"duration_ms\":" : "{\"duration_ms\":", p[i].duration_ms) ||
            (p[i].increment_ms != KOMA_TIME_NONE && member_int(w, ",\"increment_ms\":", p[i].increment_ms)) ||
            (p[i].plies > 0 && member_int(w, ",\"plies\":", p[i].plies)) || PUT(w, "}"))
            return -1;
    return PUT(w, "]");
}

/* One side's object: "key":{...}, or nothing when it has no member. */
static int side(text_ctx *w, const char *key, const placed *p, size_t n, int where, const koma_shogi_period *per,
                size_t nper, int *comma)
{
    size_t mark = w->out->len;
    int any;
    if ((*comma && PUT(w, ",")) || put(w, key, strlen(key)) || members_of(w, p, n, where, &any)) return -1;
    if (nper && periods(w, any ? ",\"periods\":[" : "\"periods\":[", per, nper) != 0) return -1;
    if (!any && !nper) {
        w->out->len = mark;
        return 0;
    }
    *comma = 1;
    return PUT(w, "}");
}

/* "meta", "periods", "sides", each followed by a comma (setup comes next). */
static int meta(text_ctx *w, const koma_shogi_record *r)
{
    placed p[KOMA__SREC_TEXT_HEADERS];
    size_t n = 0, pass = 0, at = 0;
    for (const koma_shogi_header *h; (h = koma__srec_header_next(r, &pass, &at)) != NULL; n++) {
        p[n].h = h;
        p[n].key = koma__srec_header_place(h, &p[n].where);
        /* the tree's checks, in its order: the value, then a key of meta.headers
         * (jansson refuses a key that is not UTF-8: a failed insertion) */
        if (koma__srec_text_ok(h->value, strlen(h->value), w->err) != 0) return -1;
        if (p[n].where == KOMA__SREC_IN_HEADERS && !koma__utf8_valid(p[n].key, strlen(p[n].key), NULL))
            return koma_error_set(w->err, KOMA_E_MEMORY, 0, NULL);
    }
    if (r->source_format && ((koma__srec_text_ok(r->source_format, strlen(r->source_format), w->err)) ||
                             (r->source_version &&
                              koma__srec_text_ok(r->source_version, strlen(r->source_version), w->err)) ||
                             (r->source_encoding &&
                              koma__srec_text_ok(r->source_encoding, strlen(r->source_encoding), w->err))))
        return -1;
    size_t mark = w->out->len;
    int any, hdrs;
    if (PUT(w, "\"meta\":{") || members_of(w, p, n, KOMA__SREC_IN_META, &any)) return -1;
    size_t before = w->out->len;
    if ((any && PUT(w, ",")) || PUT(w, "\"headers\":{") || members_of(w, p, n, KOMA__SREC_IN_HEADERS, &hdrs))
        return -1;
    if (hdrs) {
        if (PUT(w, "}")) return -1;
        any = 1;
    } else {
        w->out->len = before;
    }
    if (r->source_format &&
        ((any && PUT(w, ",")) || member_text(w, "\"source\":{\"format\":", r->source_format) ||
         (r->source_version && member_text(w, ",\"version\":", r->source_version)) ||
         (r->source_encoding && member_text(w, ",\"encoding\":", r->source_encoding)) || PUT(w, "}")))
        return -1;
    any |= r->source_format != NULL;
    if (any ? PUT(w, "},") : 0) return -1;
    if (!any) w->out->len = mark;
    if (r->nperiods[0] && (periods(w, "\"periods\":[", r->periods[0], r->nperiods[0]) || PUT(w, ",")))
        return -1;
    mark = w->out->len;
    int comma = 0;
    if (PUT(w, "\"sides\":{") ||
        side(w, "\"first\":{", p, n, KOMA__SREC_IN_FIRST, r->periods[1], r->nperiods[1], &comma) ||
        side(w, "\"second\":{", p, n, KOMA__SREC_IN_SECOND, r->periods[2], r->nperiods[2], &comma))
        return -1;
    if (!comma) {
        w->out->len = mark;
        return 0;
    }
    return PUT(w, "},");
}

/* ---- plies and outcomes -------------------------------------------------------- */

/* ,"outcome":{...} (prefix before "outcome"), or nothing when the line has none. */
static int outcome(text_ctx *w, const char *prefix, const koma_shogi_ending *e, int mover, size_t n)
{
    koma__srec_outcome o;
    if (!koma__srec_outcome_of(e, mover, n, &o)) return 0;
    int c = 0;
    if (put(w, prefix, strlen(prefix)) || PUT(w, "\"outcome\":{")) return -1;
#define SEP(k) (c++ ? "," k : k)
    if ((o.result && member_text(w, SEP("\"result\":"), o.result)) ||
        (o.status && member_text(w, SEP("\"status\":"), o.status)) ||
        (o.has_ply && member_int(w, SEP("\"ply\":"), (long long)o.ply)) ||
        (o.csa && member_text(w, SEP("\"csa\":"), o.csa)) || (o.text && member_text(w, SEP("\"text\":"), o.text)) ||
        (e->elapsed_ms != KOMA_TIME_NONE && member_int(w, SEP("\"elapsed_ms\":"), e->elapsed_ms)) ||
        (e->total_ms != KOMA_TIME_NONE && member_int(w, SEP("\"total_ms\":"), e->total_ms)) ||
        (e->comment && member_text(w, SEP("\"comment\":"), e->comment)) ||
        (e->bookmark && member_text(w, SEP("\"bookmark\":"), e->bookmark)))
        return -1;
#undef SEP
    return PUT(w, "}");
}

static int line(text_ctx *w, koma_position *pos, const koma_shogi_line *ln, koma_sq prev_to, size_t first);

/* The variations of the move at ply `ply` into their own buffer (written before
 * the move is read, so that their errors come first, as in the tree path). */
static int variations(text_ctx *w, const koma_position *pos, const koma_shogi_move *sm, koma_sq prev_to,
                      size_t ply, koma_buffer *vars)
{
    koma_position fork;
    koma_position_init(&fork);
    text_ctx v = {w->h, w->game, vars, w->err};
    int rc = -1;
    for (size_t k = 0; k < sm->nforks; k++) {
        const koma_shogi_line *f = &sm->forks[k];
        if ((k && PUT(&v, ",")) || PUT(&v, "{\"plies\":[") || koma_position_copy(&fork, pos, w->err) ||
            line(&v, &fork, f, prev_to, ply) || PUT(&v, "]") ||
            outcome(&v, ",", &f->end, fork.turn, ply + f->len - 1) || PUT(&v, "}"))
            goto out;
    }
    rc = 0;
out:
    koma_position_cleanup(&fork);
    return rc;
}

/* The plies of a line from pos (changed: the position after it), comma-separated;
 * first is the number of its first ply. */
static int line(text_ctx *w, koma_position *pos, const koma_shogi_line *ln, koma_sq prev_to, size_t first)
{
    koma_buffer vars = {0};
    int rc = -1;
    for (size_t i = 0; i < ln->len; i++) {
        const koma_shogi_move *sm = &ln->moves[i];
        size_t ply = first + i;
        if (sm->nforks) {
            vars.len = 0;
            if (variations(w, pos, sm, prev_to, ply, &vars) != 0) goto out;
        }
        char buf[KOMA_PMN_BUF];
        size_t n = koma__srec_play(w->h, w->game, pos, sm, &prev_to, ply, buf, w->err);
        if (n == 0 || put(w, i ? ",{\"pmn\":\"" : "{\"pmn\":\"", i ? 9 : 8) || put_escaped(w, buf, n) ||
            PUT(w, "\"") ||
            (sm->elapsed_ms != KOMA_TIME_NONE && member_int(w, ",\"elapsed_ms\":", sm->elapsed_ms)) ||
            (sm->total_ms != KOMA_TIME_NONE && member_int(w, ",\"total_ms\":", sm->total_ms)) ||
            (sm->comment && member_text(w, ",\"comment\":", sm->comment)) ||
            (sm->bookmark && member_text(w, ",\"bookmark\":", sm->bookmark)) ||
            (sm->nforks && (PUT(w, ",\"variations\":[") || put(w, vars.data, vars.len) || PUT(w, "]"))) ||
            PUT(w, "}"))
            goto out;
    }
    rc = 0;
out:
    koma_buffer_cleanup(&vars);
    return rc;
}

/* 1 when forks nest deeper than `left` levels. */
static int forks_deeper(const koma_shogi_line *ln, unsigned left)
{
    for (size_t i = 0; i < ln->len; i++)
        for (size_t k = 0; k < ln->moves[i].nforks; k++)
            if (left == 0 || forks_deeper(&ln->moves[i].forks[k], left - 1)) return 1;
    return 0;
}

/* ---- the record ---------------------------------------------------------------- */

static int record(text_ctx *w, const koma_shogi_record *r, const char *feen, size_t fl)
{
    if (PUT(w, "{") || meta(w, r) || PUT(w, "\"setup\":{\"feen\":") || put_str(w, feen, fl) ||
        (r->setup_comment && member_text(w, ",\"comment\":", r->setup_comment)) ||
        (r->setup_bookmark && member_text(w, ",\"bookmark\":", r->setup_bookmark)) || PUT(w, "}") ||
        koma_position_copy(&w->h->pos, &r->setup, w->err))
        return -1;
    koma_sq none = {0, 0};
    size_t mark = w->out->len;
    if (PUT(w, ",\"plies\":[") || line(w, &w->h->pos, &r->main, none, 1) || PUT(w, "]")) return -1;
    if (r->main.len == 0) w->out->len = mark;
    koma__srec_outcome o;
    if (!koma__srec_outcome_of(&r->main.end, w->h->pos.turn, r->main.len, &o) && koma__srec_move_limit(r)) {
        /* floodgate's move limit, a comment line, reached with no ending line: a draw */
        if (member_int(w, ",\"outcome\":{\"result\":\"1/2-1/2\",\"ply\":", (long long)r->main.len) ||
            PUT(w, ",\"csa\":\"%MAX_MOVES\"}"))
            return -1;
    } else if (outcome(w, ",", &r->main.end, w->h->pos.turn, r->main.len) != 0) {
        return -1;
    }
    return PUT(w, "}\n");
}

int koma__srec_pcn_text(koma_hub *h, const koma_shogi_record *r, koma_buffer *out, koma_error *err)
{
    if (r->nheaders > KOMA__SREC_TEXT_HEADERS || forks_deeper(&r->main, KOMA__SREC_TEXT_FORKS)) return 1;
    text_ctx w = {h, NULL, out, err};
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t fl;
    if (koma__srec_start(h, r, &w.game, feen, &fl, err) != 0) return -1;
    size_t mark = out->len;
    if (record(&w, r, feen, fl) == 0) return 0;
    out->len = mark;
    if (out->data) out->data[mark] = '\0';
    return -1;
}
