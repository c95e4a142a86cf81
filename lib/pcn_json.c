/*
 * lib/pcn_json.c — PCN records as JSON (jansson).
 *
 * Reading: size limit, then the depth pre-scan (util_json_pos.h) before jansson sees
 * the text, then jansson with duplicate keys rejected, then the validator; a
 * validation error is placed on the offending value by scanning the raw text
 * for its JSON pointer (only when there is an error).
 *
 * Fast path: most records are plain JSON (ASCII strings without escapes,
 * non-negative integers). fast_parse builds the very tree jansson would build
 * for them, without jansson's lexer; anything else (an escape, a non-ASCII
 * byte, a negative or real number, a duplicate key, an error of any kind, too
 * deep a nesting) makes it give up, and the record takes the path above, which
 * reports the error: the fast path never reports one itself, so a record gets the
 * same verdict and diagnostic whichever path reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_json_alloc.h"
#include "util_json_pos.h"
#include "util_text.h"
#include "pcn_internal.h"

/* ---- fast path ---------------------------------------------------------------- */

typedef struct fast {
    const char *end;
    unsigned depth;
    int plies;                         /* the next array is the record's plies */
    const char *stop;                  /* where a value could not be allocated */
} fast;

/* v, or (v NULL) the place where an allocation failed noted: out of memory or
 * past the record's memory budget, which is reported there. */
static json_t *fast_made(fast *f, json_t *v, const char *at)
{
    if (v == NULL && f->stop == NULL) f->stop = at;
    return v;
}

#define FAST_MAX_KEYS 32               /* more keys in one object: the slow path */

static const char *fast_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
    return p;
}

/* p after the opening quote; the end of a plain string (at its closing quote),
 * or NULL when the string has an escape, a control or a non-ASCII byte. */
static const char *fast_string_end(const char *p, const char *end)
{
    for (; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') return p;
        if (c < 0x20 || c == '\\' || c >= 0x80) return NULL;
    }
    return NULL;
}

static json_t *fast_value(fast *f, const char **pp);

static json_t *fast_object(fast *f, const char **pp)
{
    const char *p = fast_ws(*pp + 1, f->end);
    json_t *obj = fast_made(f, json_object(), *pp);
    if (obj == NULL) return NULL;
    if (p < f->end && *p == '}') {
        *pp = p + 1;
        return obj;
    }
    const char *keys[FAST_MAX_KEYS];
    size_t lens[FAST_MAX_KEYS], nkeys = 0;
    for (;;) {
        if (p >= f->end || *p != '"' || nkeys == FAST_MAX_KEYS) goto fail;
        const char *k = p + 1, *ke = fast_string_end(k, f->end);
        if (ke == NULL) goto fail;
        size_t klen = (size_t)(ke - k);
        for (size_t i = 0; i < nkeys; i++)
            if (lens[i] == klen && memcmp(keys[i], k, klen) == 0) goto fail;  /* duplicate */
        keys[nkeys] = k;
        lens[nkeys++] = klen;
        p = fast_ws(ke + 1, f->end);
        if (p >= f->end || *p != ':') goto fail;
        p = fast_ws(p + 1, f->end);
        f->plies = f->depth == 1 && klen == 5 && memcmp(k, "plies", 5) == 0;
        json_t *v = fast_value(f, &p);
        if (v == NULL) goto fail;
        if (json_object_setn_new_nocheck(obj, k, klen, v) != 0) {
            fast_made(f, NULL, k - 1);
            goto fail;
        }
        p = fast_ws(p, f->end);
        if (p >= f->end) goto fail;
        if (*p == '}') break;
        if (*p != ',') goto fail;
        p = fast_ws(p + 1, f->end);
    }
    *pp = p + 1;
    return obj;
fail:
    json_decref(obj);
    return NULL;
}

static json_t *fast_array(fast *f, const char **pp)
{
    const char *p = fast_ws(*pp + 1, f->end);
    /* the plies are counted as they are read: past the limit, the slow path
     * reports it (pcn.plies.limit) before building anything */
    size_t left = f->plies ? KOMA_LIMIT_PLIES : (size_t)-1;
    f->plies = 0;
    json_t *arr = fast_made(f, json_array(), *pp);
    if (arr == NULL) return NULL;
    if (p < f->end && *p == ']') {
        *pp = p + 1;
        return arr;
    }
    for (;;) {
        if (left-- == 0) goto fail;
        const char *at = p;
        json_t *v = fast_value(f, &p);
        if (v == NULL) goto fail;
        if (json_array_append_new(arr, v) != 0) {
            fast_made(f, NULL, at);
            goto fail;
        }
        p = fast_ws(p, f->end);
        if (p >= f->end) goto fail;
        if (*p == ']') break;
        if (*p != ',') goto fail;
        p = fast_ws(p + 1, f->end);
    }
    *pp = p + 1;
    return arr;
fail:
    json_decref(arr);
    return NULL;
}

static int fast_word(const char *p, const char *end, const char *w, size_t n)
{
    return (size_t)(end - p) >= n && memcmp(p, w, n) == 0;
}

/* *pp at a value's first byte; on success *pp is just past it. */
static json_t *fast_value(fast *f, const char **pp)
{
    const char *p = *pp;
    if (p >= f->end) return NULL;
    switch (*p) {
    case '"': {
        const char *e = fast_string_end(p + 1, f->end);
        if (e == NULL) return NULL;
        *pp = e + 1;
        return fast_made(f, json_stringn_nocheck(p + 1, (size_t)(e - p - 1)), p);
    }
    case '{':
    case '[': {
        if (++f->depth > KOMA_LIMIT_DEPTH) return NULL;
        json_t *v = *p == '{' ? fast_object(f, pp) : fast_array(f, pp);
        f->depth--;
        return v;
    }
    case 't':
        if (!fast_word(p, f->end, "true", 4)) return NULL;
        *pp = p + 4;
        return fast_made(f, json_true(), p);
    case 'f':
        if (!fast_word(p, f->end, "false", 5)) return NULL;
        *pp = p + 5;
        return fast_made(f, json_false(), p);
    case 'n':
        if (!fast_word(p, f->end, "null", 4)) return NULL;
        *pp = p + 4;
        return fast_made(f, json_null(), p);
    default:
        break;
    }
    /* a non-negative integer of at most 18 digits, no leading zero, no fraction
     * or exponent (anything else, jansson decides) */
    if (*p < '0' || *p > '9') return NULL;
    json_int_t v = 0;
    const char *d = p;
    while (p < f->end && *p >= '0' && *p <= '9' && p - d < 18) v = v * 10 + (*p++ - '0');
    if (*d == '0' && p - d > 1) return NULL;
    if (p < f->end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E'))
        return NULL;
    *pp = p;
    return fast_made(f, json_integer(v), d);
}

/* The tree of s[0..len), or NULL when the fast path does not apply; *stop is
 * where an allocation failed, or NULL. */
static json_t *fast_parse(const char *s, size_t len, const char **stop)
{
    fast f = { s + len, 0, 0, NULL };
    const char *p = fast_ws(s, f.end);
    json_t *root = fast_value(&f, &p);
    *stop = f.stop;
    if (root == NULL) return NULL;
    if (fast_ws(p, f.end) != f.end) {
        json_decref(root);
        return NULL;
    }
    return root;
}

static json_t *memory_limit(const char *s, size_t len, size_t at, koma_error *err)
{
    koma__json_error_at(err, KOMA_E_PCN_MEMORY_LIMIT, s, len, at < len ? at : 0,
                        "the record's values need more than %zu MiB of memory",
                        KOMA_LIMIT_TREE >> 20);
    return NULL;
}

/* A record, within the limits of koma(7), LIMITS: nesting, plies and memory are
 * checked while its tree is built (the budget is koma__pcn_parse_json's). */
static koma_pcn *parse_json(const char *s, size_t len, unsigned flags, koma_position *scratch,
                            koma_error *err)
{
    if (len > KOMA_LIMIT_RECORD) {
        koma__json_error_at(err, KOMA_E_PCN_SIZE, s, len, KOMA_LIMIT_RECORD,
                            "record of %zu bytes exceeds 16 MiB", len);
        return NULL;
    }
    /* One pass (pcn_quick.c) tells most valid records: a validator's read then
     * needs no tree at all, and a tree built for a record it passed need not be
     * validated again. */
    koma__pcn_light *light = NULL;
    if ((flags & KOMA_PCN_LIGHT) && !(flags & KOMA_PCN_CHECK_ONLY)) light = calloc(1, sizeof *light);
    int checked = !(flags & KOMA_PCN_NO_VALIDATE) && scratch != NULL &&
                  koma__pcn_quick_check(s, len, flags, scratch, light);
    if (checked && ((flags & KOMA_PCN_CHECK_ONLY) || light != NULL)) {
        /* a validator's read, or a light one: no tree (an empty object stands in) */
        json_t *empty = json_object();
        koma_pcn *p = empty ? koma__pcn_wrap(empty, err) : NULL;
        if (p == NULL) {
            koma__pcn_light_free(light);
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            return NULL;
        }
        p->light = light;
        return p;
    }
    koma__pcn_light_free(light);
    /* a tree from the fast path nests at most KOMA_LIMIT_DEPTH deep, as the
     * pre-scan would have found */
    const char *stop;
    json_t *root = fast_parse(s, len, &stop);
    if (root == NULL) {
        /* what the fast path read before a failed allocation was plain JSON
         * within the other limits: past the budget, that is the first fault */
        if (stop != NULL && koma__json_budget_hit()) {
            memory_limit(s, len, (size_t)(stop - s), err);
            return NULL;
        }
        /* the first limit passed in the text, unless a syntax error comes before
         * (also the plies: the fast path stops past them) */
        size_t where = len, at;
        koma_code limit = KOMA_E_PCN_DEPTH;
        if (koma__json_depth(s, len, KOMA_LIMIT_DEPTH, &at)) where = at;
        if (koma__json_plies(s, len, KOMA_LIMIT_PLIES, &at) && at < where) {
            where = at;
            limit = KOMA_E_PCN_PLIES_LIMIT;
        }
        koma__json_budget_start(KOMA_LIMIT_TREE);     /* what the fast path held is freed */
        if (where < len && koma__json_limit_first(s, where, &at)) {
            if (koma__json_budget_hit()) memory_limit(s, len, at, err);
            else if (limit == KOMA_E_PCN_DEPTH)
                koma__json_error_at(err, limit, s, len, where, "nesting deeper than %u levels",
                                    KOMA_LIMIT_DEPTH);
            else
                koma__json_error_at(err, limit, s, len, where,
                                    "more than %u plies (ply %u at /plies/%u)", KOMA_LIMIT_PLIES,
                                    KOMA_LIMIT_PLIES + 1, KOMA_LIMIT_PLIES);
            return NULL;
        }
        koma__json_budget_start(KOMA_LIMIT_TREE);
    }
    json_error_t jerr;
    int oom = 0;
    if (root == NULL)
        root = koma__json_loadb(s, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr, &oom);
    if (root == NULL && koma__json_budget_hit()) {
        /* where jansson had read to, at most 64 bytes past the value it was
         * building: the start of the innermost value there */
        size_t read = koma__json_budget_where(), off = 0;
        char ptr[KOMA__PCN_POINTER_MAX];
        koma__json_pointer_at(s, len, read > 0 ? read - 1 : 0, ptr, sizeof ptr);
        koma__json_locate(s, len, ptr, &off);
        memory_limit(s, len, off, err);
        return NULL;
    }
    if (oom) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    if (root == NULL) {
        koma_code code = KOMA_E_PCN_JSON;
        switch (json_error_code(&jerr)) {
        case json_error_duplicate_key: code = KOMA_E_PCN_DUPLICATE; break;
        case json_error_numeric_overflow: code = KOMA_E_PCN_NUMBER; break;
        default: break;
        }
        koma__json_error(err, code, s, len, &jerr);
        return NULL;
    }
    if (!(flags & KOMA_PCN_NO_VALIDATE) && !checked) {
        char ptr[KOMA__PCN_POINTER_MAX];
        if (koma__pcn_check(root, flags, scratch, ptr, err) != 0) {
            json_decref(root);
            if (err) {
                size_t off = 0;
                koma__json_locate(s, len, ptr, &off);
                err->offset = off;
                koma__offset_to_linecol(s, len, off, &err->line, &err->column);
            }
            return NULL;
        }
    }
    return koma__pcn_wrap(root, err);
}

/* The tree a record builds while it is read may hold KOMA_LIMIT_TREE bytes. */
koma_pcn *koma__pcn_parse_json(const char *s, size_t len, unsigned flags,
                               koma_position *scratch, koma_error *err)
{
    koma__json_budget_start(KOMA_LIMIT_TREE);
    koma_pcn *p = parse_json(s, len, flags, scratch, err);
    koma__json_budget_stop();
    return p;
}

int koma__pcn_emit_json(const koma_pcn *p, unsigned flags, koma__pcn_sink sink, void *ctx,
                        koma_error *err)
{
    size_t jflags = JSON_PRESERVE_ORDER | JSON_ENCODE_ANY;
    jflags |= (flags & KOMA_PCN_PRETTY) ? JSON_INDENT(2) : JSON_COMPACT;
    int failed;
    if (koma__json_dump(p->root, jflags, sink, ctx, &failed) != 0)
        return koma_error_set(err, failed ? KOMA_E_IO_WRITE : KOMA_E_MEMORY, 0, NULL);
    if (sink(ctx, "\n", 1) != 0) return koma_error_set(err, KOMA_E_IO_WRITE, 0, NULL);
    return 0;
}
