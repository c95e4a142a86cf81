/*
 * lib/pcn.c — PCN records: the tree, its validation (notations.md §13,
 * DESIGN.md §3), accessors, setters and the format-neutral entry points.
 * Parsing lives in pcn_json.c and pcn_yaml.c, databases in pcn_stream.c.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jsonpos.h"
#include "pcn_internal.h"
#include <koma/cgsn.h>
#include <koma/feen.h>
#include <koma/pmn.h>

/* ---- validation ------------------------------------------------------------ */

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

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: {
        double d = json_real_value(v);
        return d == floor(d) ? "a number" : "a number with a fraction";
    }
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "a value";
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
    return fail(c, KOMA_E_PCN_TYPE, NULL, "expected %s, found %s", expected, type_name(v));
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
static int rfc3339(const char *s, size_t n)
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
            if (rc == 0 && !rfc3339(json_string_value(v), json_string_length(v))) {
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
    koma_move m;
    if (koma_pmn_parse(json_string_value(v), json_string_length(v), &m, NULL) == 0) return 0;
    /* again, for the details (only on an error) */
    memset(&sub, 0, sizeof sub);
    koma_pmn_parse(json_string_value(v), json_string_length(v), &m, &sub);
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
    if (n > KOMA_PCN_MAX_PLIES) {
        push_index(c, KOMA_PCN_MAX_PLIES);
        return fail(c, KOMA_E_PCN_PLIES_LIMIT, NULL, "%zu plies, more than %u", n,
                    KOMA_PCN_MAX_PLIES);
    }
    for (size_t i = 0; i < n; i++) {
        size_t saved = push_index(c, i);
        if (check_ply(c, json_array_get(plies, i))) return -1;
        pop(c, saved);
    }
    return 0;
}

static const char *const results[] = {
    "1-0", "0-1", "1/2-1/2", "1/2-0", "0-1/2", "1-1/2", "1/2-1",
};

int koma__pcn_result_ok(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strlen(results[i]) == len && memcmp(results[i], s, len) == 0) return 1;
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
                    type_name(root));
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

/* ---- records ---------------------------------------------------------------- */

koma_pcn *koma__pcn_wrap(json_t *root, koma_error *err)
{
    koma_pcn *p = malloc(sizeof *p);
    if (p == NULL) {
        json_decref(root);
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    p->root = root;
    return p;
}

koma_pcn *koma_pcn_parse(koma_pcn_format fmt, const char *s, size_t len, unsigned flags,
                         koma_error *err)
{
    if (s == NULL && len > 0) {
        koma_error_set(err, KOMA_E_INTERNAL, 0, "NULL input");
        return NULL;
    }
    if (s == NULL) s = "";
    if (fmt == KOMA_PCN_YAML) return koma__pcn_parse_yaml(s, len, flags, NULL, err);
    return koma__pcn_parse_json(s, len, flags, NULL, err);
}

koma_pcn *koma_pcn_parse_json(const char *s, size_t len, koma_error *err)
{
    return koma_pcn_parse(KOMA_PCN_JSON, s, len, 0, err);
}

koma_pcn *koma_pcn_parse_yaml(const char *s, size_t len, koma_error *err)
{
    return koma_pcn_parse(KOMA_PCN_YAML, s, len, 0, err);
}

void koma_pcn_free(koma_pcn *p)
{
    if (p == NULL) return;
    json_decref(p->root);
    free(p);
}

koma_pcn *koma_pcn_new(const char *feen, size_t len, koma_error *err)
{
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &pos, err);
    koma_position_cleanup(&pos);
    if (rc) return NULL;
    json_t *root = json_object(), *setup = json_object(), *f = json_stringn(feen, len);
    if (root == NULL || setup == NULL || f == NULL || json_object_set_new(setup, "feen", f) ||
        json_object_set_new(root, "setup", setup)) {
        json_decref(root);
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    return koma__pcn_wrap(root, err);
}

koma_pcn *koma_pcn_copy(const koma_pcn *p, koma_error *err)
{
    if (p == NULL) return NULL;
    json_t *root = json_deep_copy(p->root);
    if (root == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    return koma__pcn_wrap(root, err);
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

/* Same tree, members in the same order (json_equal ignores member order). */
static int same_tree(const json_t *a, const json_t *b)
{
    if (json_typeof(a) != json_typeof(b)) return 0;
    if (json_is_object(a)) {
        if (json_object_size(a) != json_object_size(b)) return 0;
        void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
        while (ia != NULL && ib != NULL) {
            size_t la = json_object_iter_key_len(ia), lb = json_object_iter_key_len(ib);
            if (la != lb || memcmp(json_object_iter_key(ia), json_object_iter_key(ib), la) != 0)
                return 0;
            if (!same_tree(json_object_iter_value(ia), json_object_iter_value(ib))) return 0;
            ia = json_object_iter_next((json_t *)a, ia);
            ib = json_object_iter_next((json_t *)b, ib);
        }
        return ia == NULL && ib == NULL;
    }
    if (json_is_array(a)) {
        size_t n = json_array_size(a);
        if (n != json_array_size(b)) return 0;
        for (size_t i = 0; i < n; i++)
            if (!same_tree(json_array_get(a, i), json_array_get(b, i))) return 0;
        return 1;
    }
    if (json_is_real(a)) {                 /* bitwise: -0.0 differs from 0.0 */
        double x = json_real_value(a), y = json_real_value(b);
        return memcmp(&x, &y, sizeof x) == 0;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

int koma_pcn_equal(const koma_pcn *a, const koma_pcn *b)
{
    if (a == NULL || b == NULL) return a == b;
    return same_tree(a->root, b->root);
}

/* ---- accessors ---------------------------------------------------------------- */

static json_t *member(const json_t *obj, const char *key)
{
    if (!json_is_object(obj)) return NULL;
    if (json_object_size(obj) <= 2) {
        /* a ply's object: comparing one or two keys is quicker than hashing */
        for (void *it = json_object_iter((json_t *)obj); it; it = json_object_iter_next((json_t *)obj, it))
            if (strcmp(json_object_iter_key(it), key) == 0) return json_object_iter_value(it);
        return NULL;
    }
    return json_object_get(obj, key);
}

static const char *string_of(const json_t *v, size_t *len)
{
    if (!json_is_string(v)) return NULL;
    if (len) *len = json_string_length(v);
    return json_string_value(v);
}

static json_t *ply_at(const koma_pcn *p, size_t i)
{
    if (p == NULL) return NULL;
    json_t *plies = member(p->root, "plies");
    return json_is_array(plies) ? json_array_get(plies, i) : NULL;
}

/* A non-negative integral value as uint64_t; 0 when not one. */
static int uint_of(const json_t *v, uint64_t *out)
{
    if (json_is_integer(v)) {
        if (json_integer_value(v) < 0) return 0;
        *out = (uint64_t)json_integer_value(v);
        return 1;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (!(d >= 0 && d < 18446744073709551616.0) || d != floor(d)) return 0;
        *out = (uint64_t)d;
        return 1;
    }
    return 0;
}

const char *koma_pcn_setup_feen(const koma_pcn *p, size_t *len)
{
    if (p == NULL) return NULL;
    return string_of(member(member(p->root, "setup"), "feen"), len);
}

size_t koma_pcn_ply_count(const koma_pcn *p)
{
    if (p == NULL) return 0;
    json_t *plies = member(p->root, "plies");
    return json_is_array(plies) ? json_array_size(plies) : 0;
}

const char *koma_pcn_ply_pmn(const koma_pcn *p, size_t i, size_t *len)
{
    return string_of(member(ply_at(p, i), "pmn"), len);
}

int koma_pcn_ply_elapsed_ms(const koma_pcn *p, size_t i, uint64_t *ms)
{
    uint64_t v;
    if (!uint_of(member(ply_at(p, i), "elapsed_ms"), &v)) return 0;
    if (ms) *ms = v;
    return 1;
}

const char *koma_pcn_ply_string(const koma_pcn *p, size_t i, const char *key, size_t *len)
{
    return string_of(member(ply_at(p, i), key), len);
}

int koma_pcn_ply_flag(const koma_pcn *p, size_t i, const char *key)
{
    json_t *v = member(ply_at(p, i), key);
    if (!json_is_boolean(v)) return -1;
    return json_is_true(v);
}

int koma_pcn_has_outcome(const koma_pcn *p)
{
    return p != NULL && json_is_object(member(p->root, "outcome"));
}

const char *koma_pcn_outcome_result(const koma_pcn *p)
{
    if (p == NULL) return NULL;
    return string_of(member(member(p->root, "outcome"), "result"), NULL);
}

const char *koma_pcn_outcome_status(const koma_pcn *p)
{
    if (p == NULL) return NULL;
    return string_of(member(member(p->root, "outcome"), "status"), NULL);
}

int koma_pcn_outcome_ply(const koma_pcn *p, uint64_t *ply)
{
    if (p == NULL) return 0;
    uint64_t v;
    if (!uint_of(member(member(p->root, "outcome"), "ply"), &v)) return 0;
    if (ply) *ply = v;
    return 1;
}

const char *koma_pcn_meta(const koma_pcn *p, const char *key, size_t *len)
{
    if (p == NULL || key == NULL) return NULL;
    return string_of(member(member(p->root, "meta"), key), len);
}

const char *koma_pcn_side(const koma_pcn *p, int side, const char *key, size_t *len)
{
    if (p == NULL || key == NULL || (side != 0 && side != 1)) return NULL;
    json_t *sides = member(p->root, "sides");
    return string_of(member(member(sides, side ? "second" : "first"), key), len);
}

/* Resolve an RFC 6901 pointer in the tree. */
static json_t *resolve(json_t *v, const char *pointer)
{
    if (pointer == NULL) return NULL;
    const char *p = pointer;
    char tok[1024];
    while (*p != '\0') {
        if (*p != '/' || v == NULL) return NULL;
        p++;
        size_t n = 0;
        while (*p != '\0' && *p != '/') {
            char ch = *p++;
            if (ch == '~') {
                if (*p == '0') ch = '~';
                else if (*p == '1') ch = '/';
                else return NULL;
                p++;
            }
            if (n + 1 >= sizeof tok) return NULL;
            tok[n++] = ch;
        }
        tok[n] = '\0';
        if (json_is_object(v)) {
            v = json_object_getn(v, tok, n);
        } else if (json_is_array(v)) {
            if (n == 0 || (n > 1 && tok[0] == '0')) return NULL;
            size_t idx = 0;
            for (size_t i = 0; i < n; i++) {
                if (!KOMA_IS_DIGIT(tok[i]) || idx > ((size_t)-1 - 9) / 10) return NULL;
                idx = idx * 10 + (size_t)(tok[i] - '0');
            }
            v = json_array_get(v, idx);
        } else {
            return NULL;
        }
    }
    return v;
}

koma_pcn_type koma_pcn_get(const koma_pcn *p, const char *pointer, koma_pcn_value *out)
{
    koma_pcn_value tmp;
    if (out == NULL) out = &tmp;
    memset(out, 0, sizeof *out);
    json_t *v = p ? resolve(p->root, pointer) : NULL;
    if (v == NULL) return out->type = KOMA_PCN_ABSENT;
    switch (json_typeof(v)) {
    case JSON_OBJECT: out->type = KOMA_PCN_OBJECT; out->len = json_object_size(v); break;
    case JSON_ARRAY: out->type = KOMA_PCN_ARRAY; out->len = json_array_size(v); break;
    case JSON_STRING:
        out->type = KOMA_PCN_STRING;
        out->string = json_string_value(v);
        out->len = json_string_length(v);
        break;
    case JSON_INTEGER: out->type = KOMA_PCN_INTEGER; out->integer = json_integer_value(v); break;
    case JSON_REAL: out->type = KOMA_PCN_REAL; out->real = json_real_value(v); break;
    case JSON_TRUE: out->type = KOMA_PCN_BOOL; out->boolean = 1; break;
    case JSON_FALSE: out->type = KOMA_PCN_BOOL; out->boolean = 0; break;
    case JSON_NULL: out->type = KOMA_PCN_NULL; break;
    }
    return out->type;
}

const char *koma_pcn_key(const koma_pcn *p, const char *pointer, size_t i, size_t *len)
{
    json_t *obj = p ? resolve(p->root, pointer) : NULL;
    if (!json_is_object(obj)) return NULL;
    size_t k = 0;
    for (void *it = json_object_iter(obj); it != NULL; it = json_object_iter_next(obj, it), k++) {
        if (k == i) {
            if (len) *len = json_object_iter_key_len(it);
            return json_object_iter_key(it);
        }
    }
    return NULL;
}

/* ---- setters ------------------------------------------------------------------ */

static json_t *outcome_for_write(koma_pcn *p, koma_error *err)
{
    if (!json_is_object(p->root)) {
        koma_error_set(err, KOMA_E_PCN_TYPE, 0, "a PCN record must be an object");
        return NULL;
    }
    json_t *o = json_object_get(p->root, "outcome");
    if (o == NULL) {
        o = json_object();
        if (o == NULL || json_object_set_new(p->root, "outcome", o)) {
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            return NULL;
        }
    } else if (!json_is_object(o)) {
        koma_error_set(err, KOMA_E_PCN_TYPE, 0, "expected an object, found %s at /outcome",
                       type_name(o));
        return NULL;
    }
    return o;
}

static int set_member(json_t *obj, const char *key, json_t *v, koma_error *err)
{
    if (v == NULL || json_object_set_new(obj, key, v)) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return -1;
    }
    return 0;
}

int koma_pcn_set_outcome_result(koma_pcn *p, const char *result, size_t len, koma_error *err)
{
    if (result != NULL && !koma__pcn_result_ok(result, len)) {
        char q[64];
        koma_quote(q, sizeof q, result, len);
        return koma_error_set(err, KOMA_E_PCN_OUTCOME_RESULT, 0, "unknown result \"%s\"", q);
    }
    json_t *o = outcome_for_write(p, err);
    if (o == NULL) return -1;
    if (result == NULL) {
        json_object_del(o, "result");
        return 0;
    }
    return set_member(o, "result", json_stringn(result, len), err);
}

int koma_pcn_set_outcome_status(koma_pcn *p, const char *status, size_t len, koma_error *err)
{
    koma_status st;
    if (status != NULL && koma_cgsn_parse(status, len, &st, NULL) != 0) {
        char q[64];
        koma_quote(q, sizeof q, status, len);
        return koma_error_set(err, KOMA_E_PCN_OUTCOME_STATUS, 0,
                              "unknown CGSN status \"%s\"", q);
    }
    json_t *o = outcome_for_write(p, err);
    if (o == NULL) return -1;
    if (status == NULL) {
        json_object_del(o, "status");
        return 0;
    }
    return set_member(o, "status", json_stringn(status, len), err);
}

int koma_pcn_set_outcome_ply(koma_pcn *p, uint64_t ply, koma_error *err)
{
    if (ply > (uint64_t)LLONG_MAX)
        return koma_error_set(err, KOMA_E_PCN_NUMBER, 0, "ply number too large");
    json_t *o = outcome_for_write(p, err);
    if (o == NULL) return -1;
    return set_member(o, "ply", json_integer((json_int_t)ply), err);
}

int koma_pcn_unset_outcome_ply(koma_pcn *p)
{
    json_t *o = member(p->root, "outcome");
    if (json_is_object(o)) json_object_del(o, "ply");
    return 0;
}

int koma_pcn_append_ply(koma_pcn *p, const char *pmn, size_t len, koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(pmn, len, &m, err) != 0) return -1;
    if (!json_is_object(p->root))
        return koma_error_set(err, KOMA_E_PCN_TYPE, 0, "a PCN record must be an object");
    json_t *plies = json_object_get(p->root, "plies");
    if (plies == NULL) {
        plies = json_array();
        if (plies == NULL || json_object_set_new(p->root, "plies", plies))
            return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    } else if (!json_is_array(plies)) {
        return koma_error_set(err, KOMA_E_PCN_TYPE, 0, "expected an array, found %s at /plies",
                              type_name(plies));
    }
    if (json_array_size(plies) >= KOMA_PCN_MAX_PLIES)
        return koma_error_set(err, KOMA_E_PCN_PLIES_LIMIT, 0, "more than %u plies",
                              KOMA_PCN_MAX_PLIES);
    json_t *ply = json_object(), *s = json_stringn(pmn, len);
    if (ply == NULL || s == NULL || json_object_set_new(ply, "pmn", s)) {
        json_decref(ply);
        if (ply == NULL) json_decref(s);
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    }
    if (json_array_append_new(plies, ply)) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    return 0;
}

/* ---- writers -------------------------------------------------------------------- */

void koma_pcn_buffer_cleanup(koma_pcn_buffer *b)
{
    if (b == NULL) return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

static int buffer_sink(void *ctx, const char *data, size_t len)
{
    koma_pcn_buffer *b = ctx;
    if (len >= b->cap - b->len || b->data == NULL) {
        size_t need = b->len + len + 1;
        if (need < b->len) return -1;
        size_t cap = b->cap ? b->cap : 256;
        while (cap < need) {
            if (cap > ((size_t)-1) / 2) return -1;
            cap *= 2;
        }
        char *nd = realloc(b->data, cap);
        if (nd == NULL) return -1;
        b->data = nd;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

static int file_sink(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

static int emit(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, koma__pcn_sink sink,
                void *ctx, koma_error *err)
{
    if (p == NULL) return koma_error_set(err, KOMA_E_INTERNAL, 0, "NULL record");
    if (fmt == KOMA_PCN_YAML) return koma__pcn_emit_yaml(p, flags, sink, ctx, err);
    return koma__pcn_emit_json(p, flags, sink, ctx, err);
}

int koma_pcn_write(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, koma_pcn_buffer *out,
                   koma_error *err)
{
    size_t len0 = out->len;
    if (emit(p, fmt, flags, buffer_sink, out, err) == 0) return 0;
    if (out->data != NULL) {
        out->len = len0;
        out->data[len0] = '\0';
    }
    if (err && err->code == KOMA_E_IO_WRITE) koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    return -1;
}

int koma_pcn_write_json(const koma_pcn *p, unsigned flags, koma_pcn_buffer *out, koma_error *err)
{
    return koma_pcn_write(p, KOMA_PCN_JSON, flags, out, err);
}

int koma_pcn_write_yaml(const koma_pcn *p, unsigned flags, koma_pcn_buffer *out, koma_error *err)
{
    return koma_pcn_write(p, KOMA_PCN_YAML, flags, out, err);
}

int koma_pcn_fwrite(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, FILE *f,
                    koma_error *err)
{
    return emit(p, fmt, flags, file_sink, f, err);
}
