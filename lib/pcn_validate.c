/*
 * lib/pcn_validate.c — validation of a PCN tree (koma-formats(5), PCN):
 * the types and ranges of the known members, setup.feen as strict FEEN, each
 * plies[].pmn as PMN, outcome.result and outcome.status; unknown keys are kept
 * and not checked. On error the JSON pointer of the offending value is rendered
 * for the message; the readers (pcn_json.c, pcn_yaml.c) place it in the text.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "util_json_pos.h"
#include "pcn_internal.h"
#include <koma/cgsn.h>
#include <koma/feen.h>
#include <koma/pmn.h>

/* The path to the value being checked, rendered as a JSON pointer only on error. */
typedef struct path_seg {
    const char *key;               /* NULL: an array index */
    size_t index;
} path_seg;

#define PATH_MAX_SEGS 8            /* the validator never looks deeper than 4 */

typedef struct check_ctx {
    unsigned flags;
    koma_position *pos;
    path_seg path[PATH_MAX_SEGS];
    size_t depth;
    char *ptr;                     /* KOMA__PCN_POINTER_MAX bytes for the rendered pointer */
    koma_error *err;
} check_ctx;

static void render_path(check_ctx *c)
{
    size_t len = 0;
    c->ptr[0] = '\0';
    for (size_t i = 0; i < c->depth; i++) {
        if (c->path[i].key != NULL)
            koma__json_pointer_push(c->ptr, KOMA__PCN_POINTER_MAX, &len, c->path[i].key,
                                    strlen(c->path[i].key));
        else
            koma__json_pointer_index(c->ptr, KOMA__PCN_POINTER_MAX, &len, c->path[i].index);
    }
}

/* Message: printf(fmt) " at POINTER" [": " tail]. Returns -1. */
static int fail(check_ctx *c, koma_code code, const char *tail, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int fail(check_ctx *c, koma_code code, const char *tail, const char *fmt, ...)
{
    render_path(c);
    koma_error *err = c->err;
    if (err == NULL) return -1;
    char head[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    err->code = code;                  /* err->source stays as the caller set it */
    err->line = err->column = 0;
    err->offset = 0;
    snprintf(err->message, sizeof err->message, "%s at %s%s%s", head,
             c->ptr[0] ? c->ptr : "the top level", tail ? ": " : "", tail ? tail : "");
    return -1;
}

static int type_fail(check_ctx *c, const json_t *v, const char *expected)
{
    return fail(c, KOMA_E_PCN_TYPE, NULL, "expected %s, found %s", expected,
                koma__pcn_type_name(v));
}

static size_t push_key(check_ctx *c, const char *key)
{
    size_t saved = c->depth;
    if (c->depth < PATH_MAX_SEGS) {
        c->path[c->depth].key = key;
        c->path[c->depth].index = 0;
        c->depth++;
    }
    return saved;
}

static size_t push_index(check_ctx *c, size_t i)
{
    size_t saved = c->depth;
    if (c->depth < PATH_MAX_SEGS) {
        c->path[c->depth].key = NULL;
        c->path[c->depth].index = i;
        c->depth++;
    }
    return saved;
}

static void pop(check_ctx *c, size_t saved)
{
    c->depth = saved;
}

static int check_string(check_ctx *c, const json_t *v)
{
    return json_is_string(v) ? 0 : type_fail(c, v, "a string");
}

static int check_bool(check_ctx *c, const json_t *v)
{
    return json_is_boolean(v) ? 0 : type_fail(c, v, "a boolean");
}

/* An integer in the JSON Schema sense: 12 or 12.0. */
static int is_integral(const json_t *v)
{
    if (json_is_integer(v)) return 1;
    if (json_is_real(v)) {
        double d = json_real_value(v);
        return isfinite(d) && d == floor(d);
    }
    return 0;
}

static int check_int(check_ctx *c, const json_t *v)
{
    return is_integral(v) ? 0 : type_fail(c, v, "an integer");
}

static int check_uint(check_ctx *c, const json_t *v)
{
    if (!is_integral(v)) return type_fail(c, v, "a non-negative integer");
    if (json_is_integer(v)) {
        if (json_integer_value(v) < 0)
            return fail(c, KOMA_E_PCN_FIELD, NULL, "negative integer %lld",
                        (long long)json_integer_value(v));
    } else if (json_real_value(v) < 0) {
        return fail(c, KOMA_E_PCN_FIELD, NULL, "negative integer %.17g", json_real_value(v));
    }
    return 0;
}

static int check_object(check_ctx *c, const json_t *v)
{
    return json_is_object(v) ? 0 : type_fail(c, v, "an object");
}

static int check_array(check_ctx *c, const json_t *v)
{
    return json_is_array(v) ? 0 : type_fail(c, v, "an array");
}

static int required(check_ctx *c, const json_t *obj, const char *key)
{
    if (json_object_get(obj, key) != NULL) return 0;
    return fail(c, KOMA_E_PCN_REQUIRED, NULL, "missing required key \"%s\"", key);
}

static int digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!KOMA_IS_DIGIT(s[i])) return 0;
    return 1;
}

static int num2(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

/*
 * RFC 3339 date-time (the pattern of schemas/pcn.schema.json):
 * YYYY-MM-DD[Tt ]hh:mm:ss[.frac](Z|z|+hh:mm|-hh:mm), month 01-12, day 01-31,
 * hour 00-23, minute 00-59, second 00-60.
 */
int koma__pcn_datetime_ok(const char *s, size_t n)
{
    if (n < 20) return 0;
    if (!digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' || !digits(s + 8, 2))
        return 0;
    if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return 0;
    if (!digits(s + 11, 2) || s[13] != ':' || !digits(s + 14, 2) || s[16] != ':' ||
        !digits(s + 17, 2))
        return 0;
    int mon = num2(s + 5), day = num2(s + 8), hh = num2(s + 11), mm = num2(s + 14),
        ss = num2(s + 17);
    if (mon < 1 || mon > 12 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60) return 0;
    size_t i = 19;
    if (i < n && s[i] == '.') {
        size_t j = ++i;
        while (i < n && KOMA_IS_DIGIT(s[i])) i++;
        if (i == j) return 0;
    }
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) return i + 1 == n;
    if (i + 6 != n || (s[i] != '+' && s[i] != '-')) return 0;
    if (!digits(s + i + 1, 2) || s[i + 3] != ':' || !digits(s + i + 4, 2)) return 0;
    return num2(s + i + 1) <= 23 && num2(s + i + 4) <= 59;
}

static int check_meta(check_ctx *c, json_t *meta)
{
    if (check_object(c, meta)) return -1;
    const char *key;
    json_t *v;
    json_object_foreach(meta, key, v) {
        size_t saved = push_key(c, key);
        int rc = 0;
        if (!strcmp(key, "name") || !strcmp(key, "event") || !strcmp(key, "site") ||
            !strcmp(key, "round")) {
            rc = check_string(c, v);
        } else if (!strcmp(key, "started_at")) {
            rc = check_string(c, v);
            if (rc == 0 && !koma__pcn_datetime_ok(json_string_value(v), json_string_length(v))) {
                char q[80];
                koma_quote(q, sizeof q, json_string_value(v), json_string_length(v));
                rc = fail(c, KOMA_E_PCN_DATETIME, NULL, "not an RFC 3339 date-time \"%s\"", q);
            }
        }
        if (rc) return -1;
        pop(c, saved);
    }
    return 0;
}

static int check_links(check_ctx *c, json_t *links)
{
    if (check_array(c, links)) return -1;
    size_t i;
    json_t *link;
    json_array_foreach(links, i, link) {
        size_t saved = push_index(c, i);
        if (check_object(c, link)) return -1;
        const char *key;
        json_t *v;
        json_object_foreach(link, key, v) {
            size_t s2 = push_key(c, key);
            if ((!strcmp(key, "rel") || !strcmp(key, "href")) && check_string(c, v)) return -1;
            pop(c, s2);
        }
        pop(c, saved);
    }
    return 0;
}

static int check_periods(check_ctx *c, json_t *periods)
{
    if (check_array(c, periods)) return -1;
    size_t i;
    json_t *period;
    json_array_foreach(periods, i, period) {
        size_t saved = push_index(c, i);
        if (check_object(c, period)) return -1;
        const char *key;
        json_t *v;
        json_object_foreach(period, key, v) {
            size_t s2 = push_key(c, key);
            if ((!strcmp(key, "duration_ms") || !strcmp(key, "increment_ms") ||
                 !strcmp(key, "plies")) && check_uint(c, v))
                return -1;
            pop(c, s2);
        }
        if (required(c, period, "duration_ms")) return -1;
        pop(c, saved);
    }
    return 0;
}

static int check_side(check_ctx *c, json_t *side)
{
    if (check_object(c, side)) return -1;
    const char *key;
    json_t *v;
    json_object_foreach(side, key, v) {
        size_t saved = push_key(c, key);
        int rc = 0;
        if (!strcmp(key, "name") || !strcmp(key, "variant")) rc = check_string(c, v);
        else if (!strcmp(key, "elo")) rc = check_int(c, v);
        if (rc) return -1;
        pop(c, saved);
    }
    return 0;
}

static int check_sides(check_ctx *c, json_t *sides)
{
    if (check_object(c, sides)) return -1;
    const char *key;
    json_t *v;
    json_object_foreach(sides, key, v) {
        size_t saved = push_key(c, key);
        if ((!strcmp(key, "first") || !strcmp(key, "second")) && check_side(c, v)) return -1;
        pop(c, saved);
    }
    return 0;
}

static int check_feen(check_ctx *c, const json_t *v)
{
    if (check_string(c, v)) return -1;
    koma_error sub;
    memset(&sub, 0, sizeof sub);
    unsigned fl = (c->flags & KOMA_PCN_FEEN_NORMALISE) ? KOMA_FEEN_NORMALISE : KOMA_FEEN_STRICT;
    if (koma_feen_parse(json_string_value(v), json_string_length(v), fl, c->pos, &sub) == 0)
        return 0;
    if (sub.code == KOMA_E_MEMORY) return fail(c, KOMA_E_MEMORY, NULL, "out of memory");
    char q[96], tail[KOMA_ERROR_MESSAGE_MAX + 48];
    koma_quote(q, sizeof q, json_string_value(v), json_string_length(v));
    snprintf(tail, sizeof tail, "%s: %s", koma_code_name(sub.code), sub.message);
    return fail(c, KOMA_E_PCN_SETUP_FEEN, tail, "invalid FEEN \"%s\"", q);
}

static int check_setup(check_ctx *c, json_t *setup)
{
    if (check_object(c, setup)) return -1;
    const char *key;
    json_t *v;
    json_object_foreach(setup, key, v) {
        size_t saved = push_key(c, key);
        if (!strcmp(key, "feen") && check_feen(c, v)) return -1;
        pop(c, saved);
    }
    return required(c, setup, "feen");
}

static int check_pmn(check_ctx *c, const json_t *v)
{
    if (check_string(c, v)) return -1;
    if (c->flags & KOMA_PCN_NO_PMN) return 0;
    koma_error sub;
    koma_chain m;                      /* a move, or a chain of elements (koma/pmn.h) */
    if (koma_chain_parse(json_string_value(v), json_string_length(v), NULL, NULL) == 0) return 0;
    /* again, for the details (only on an error) */
    memset(&sub, 0, sizeof sub);
    koma_chain_parse(json_string_value(v), json_string_length(v), &m, &sub);
    char q[64], tail[KOMA_ERROR_MESSAGE_MAX + 48];
    koma_quote(q, sizeof q, json_string_value(v), json_string_length(v));
    snprintf(tail, sizeof tail, "%s: %s", koma_code_name(sub.code), sub.message);
    return fail(c, KOMA_E_PCN_PLY_PMN, tail, "invalid PMN \"%s\"", q);
}

static int check_ply(check_ctx *c, json_t *ply)
{
    if (check_object(c, ply)) return -1;
    const char *key;
    json_t *v;
    json_object_foreach(ply, key, v) {
        size_t saved = push_key(c, key);
        int rc = 0;
        if (!strcmp(key, "pmn")) rc = check_pmn(c, v);
        else if (!strcmp(key, "elapsed_ms")) rc = check_uint(c, v);
        else if (!strcmp(key, "assessment") || !strcmp(key, "comment")) rc = check_string(c, v);
        else if (!strcmp(key, "check") || !strcmp(key, "mate")) rc = check_bool(c, v);
        if (rc) return -1;
        pop(c, saved);
    }
    return required(c, ply, "pmn");
}

static int check_plies(check_ctx *c, json_t *plies)
{
    if (check_array(c, plies)) return -1;
    size_t n = json_array_size(plies);
    if (n > KOMA_LIMIT_PLIES) {
        push_index(c, KOMA_LIMIT_PLIES);
        return fail(c, KOMA_E_PCN_PLIES_LIMIT, NULL, "%zu plies, more than %u", n,
                    KOMA_LIMIT_PLIES);
    }
    for (size_t i = 0; i < n; i++) {
        size_t saved = push_index(c, i);
        if (check_ply(c, json_array_get(plies, i))) return -1;
        pop(c, saved);
    }
    return 0;
}

static int check_outcome(check_ctx *c, json_t *outcome)
{
    if (check_object(c, outcome)) return -1;
    const char *key;
    json_t *v;
    json_object_foreach(outcome, key, v) {
        size_t saved = push_key(c, key);
        int rc = 0;
        if (!strcmp(key, "result")) {
            rc = check_string(c, v);
            if (rc == 0 && !koma__pcn_result_ok(json_string_value(v), json_string_length(v))) {
                char q[64];
                koma_quote(q, sizeof q, json_string_value(v), json_string_length(v));
                rc = fail(c, KOMA_E_PCN_OUTCOME_RESULT, NULL, "unknown result \"%s\"", q);
            }
        } else if (!strcmp(key, "status")) {
            rc = check_string(c, v);
            koma_status st;
            if (rc == 0 &&
                koma_cgsn_parse(json_string_value(v), json_string_length(v), &st, NULL) != 0) {
                char q[64];
                koma_quote(q, sizeof q, json_string_value(v), json_string_length(v));
                rc = fail(c, KOMA_E_PCN_OUTCOME_STATUS, NULL, "unknown CGSN status \"%s\"", q);
            }
        } else if (!strcmp(key, "ply")) {
            rc = check_uint(c, v);
        }
        if (rc) return -1;
        pop(c, saved);
    }
    return 0;
}

int koma__pcn_check(json_t *root, unsigned flags, koma_position *scratch,
                    char pointer[KOMA__PCN_POINTER_MAX], koma_error *err)
{
    koma_position own;
    check_ctx c;
    c.flags = flags;
    c.pos = scratch;
    c.depth = 0;
    c.ptr = pointer;
    c.err = err;
    pointer[0] = '\0';
    if (!json_is_object(root))
        return fail(&c, KOMA_E_PCN_TYPE, NULL, "a PCN record must be an object, found %s",
                    koma__pcn_type_name(root));
    if (scratch == NULL) {
        koma_position_init(&own);
        c.pos = &own;
    }
    int rc = 0;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        size_t saved = push_key(&c, key);
        if (!strcmp(key, "meta")) rc = check_meta(&c, v);
        else if (!strcmp(key, "links")) rc = check_links(&c, v);
        else if (!strcmp(key, "periods")) rc = check_periods(&c, v);
        else if (!strcmp(key, "sides")) rc = check_sides(&c, v);
        else if (!strcmp(key, "setup")) rc = check_setup(&c, v);
        else if (!strcmp(key, "plies")) rc = check_plies(&c, v);
        else if (!strcmp(key, "outcome")) rc = check_outcome(&c, v);
        if (rc) break;
        pop(&c, saved);
    }
    if (rc == 0) rc = required(&c, root, "setup");
    if (scratch == NULL) koma_position_cleanup(&own);
    return rc;
}


int koma_pcn_validate(const koma_pcn *p, unsigned flags, koma_error *err)
{
    char ptr[KOMA__PCN_POINTER_MAX];
    if (koma__pcn_check(p->root, flags, NULL, ptr, err) == 0) return 0;
    if (err) {
        err->line = 0;
        err->column = 0;
        err->offset = 0;
    }
    return -1;
}
