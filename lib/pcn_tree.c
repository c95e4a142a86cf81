/*
 * lib/pcn_tree.c — a PCN record in memory: the tree (jansson), its life cycle
 * (wrap, new, copy, free, equal), the accessors and JSON-pointer look-ups, the
 * setters, and the names of JSON types and outcome results shared by the layers
 * above.
 *
 * The PCN modules, bottom-up (each calls only the ones before it):
 *   pcn_tree.c    the record in memory (this file)
 *   pcn_validate.c   validation of a tree (koma-formats(5), PCN)
 *   pcn_quick.c   the same rules in one pass over a JSON text, no tree (speed)
 *   pcn_json.c    one record from / to JSON (jansson), then validated
 *   pcn_yaml.c    one record from / to YAML (libyaml), the same tree
 *   pcn.c         the format-neutral entry points: parse and write by format
 *   pcn_stream.c  databases: JSON Lines and YAML streams, record by record
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pcn_internal.h"
#include <koma/cgsn.h>
#include <koma/feen.h>
#include <koma/pmn.h>

/* ---- names -------------------------------------------------------------------- */

const char *koma__pcn_type_name(const json_t *v)
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

/* The one table of results (koma_result_parse and _name read it too): the
 * first three are KOMA_RESULT_FIRST, _SECOND and _DRAW, in that order. */
static const char *const results[] = {
    "1-0", "0-1", "1/2-1/2", "1/2-0", "0-1/2", "1-1/2", "1/2-1",
};
#define NRESULTS (sizeof results / sizeof results[0])

int koma__pcn_result_index(const char *s, size_t len)
{
    for (size_t i = 0; i < NRESULTS; i++)
        if (strlen(results[i]) == len && memcmp(results[i], s, len) == 0) return (int)i;
    return -1;
}

const char *koma__pcn_result_text(int i)
{
    return i >= 0 && (size_t)i < NRESULTS ? results[i] : "*";
}

int koma__pcn_result_ok(const char *s, size_t len)
{
    return koma__pcn_result_index(s, len) >= 0;
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
    p->light = NULL;
    return p;
}

void koma__pcn_light_free(koma__pcn_light *l)
{
    if (l == NULL) return;
    free(l->text);
    free(l->plies);
    free(l);
}

void koma_pcn_free(koma_pcn *p)
{
    if (p == NULL) return;
    json_decref(p->root);
    koma__pcn_light_free(p->light);
    free(p);
}

static koma_pcn *new_pcn(const char *feen, size_t len, koma_error *err)
{
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &pos, err);
    koma_position_cleanup(&pos);
    if (rc) return NULL;
    /* each value owned by its parent as soon as it is made (jansson frees a
     * value it could not add), so a failure leaks none */
    json_t *root = json_object(), *setup = root ? json_object() : NULL;
    if (setup == NULL || json_object_set_new(root, "setup", setup) != 0 ||
        json_object_set_new(setup, "feen", json_stringn(feen, len)) != 0) {
        json_decref(root);
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    return koma__pcn_wrap(root, err);
}

int koma_pcn_new(const char *feen, size_t len, koma_pcn **out, koma_error *err)
{
    return KOMA__MADE(out, new_pcn(feen, len, err));
}

static koma_pcn *copy_pcn(const koma_pcn *p, koma_error *err)
{
    if (p == NULL) return NULL;
    json_t *root = json_deep_copy(p->root);
    if (root == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    return koma__pcn_wrap(root, err);
}

int koma_pcn_copy(const koma_pcn *p, koma_pcn **out, koma_error *err)
{
    return KOMA__MADE(out, copy_pcn(p, err));
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
    if (p->light) {
        if (p->light->feen && len) *len = p->light->feen_len;
        return p->light->feen;
    }
    return string_of(member(member(p->root, "setup"), "feen"), len);
}

size_t koma_pcn_ply_count(const koma_pcn *p)
{
    if (p == NULL) return 0;
    if (p->light) return p->light->nplies;
    json_t *plies = member(p->root, "plies");
    return json_is_array(plies) ? json_array_size(plies) : 0;
}

const koma_move *koma__pcn_ply_move(const koma_pcn *p, size_t i)
{
    if (p == NULL || p->light == NULL || i >= p->light->nplies || !p->light->plies[i].parsed)
        return NULL;
    return &p->light->plies[i].move;
}

const char *koma_pcn_ply_pmn(const koma_pcn *p, size_t i, size_t *len)
{
    if (p != NULL && p->light) {
        if (i >= p->light->nplies) return NULL;
        if (len) *len = p->light->plies[i].len;
        return p->light->text + p->light->plies[i].off;
    }
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
    if (p != NULL && p->light) return p->light->has_outcome;
    return p != NULL && json_is_object(member(p->root, "outcome"));
}

const char *koma_pcn_outcome_result(const koma_pcn *p)
{
    if (p == NULL) return NULL;
    if (p->light) return p->light->result;
    return string_of(member(member(p->root, "outcome"), "result"), NULL);
}

const char *koma_pcn_outcome_status(const koma_pcn *p)
{
    if (p == NULL) return NULL;
    if (p->light) return p->light->status;
    return string_of(member(member(p->root, "outcome"), "status"), NULL);
}

int koma_pcn_outcome_ply(const koma_pcn *p, uint64_t *ply)
{
    if (p == NULL) return 0;
    if (p->light) {
        if (p->light->has_ply && ply) *ply = p->light->ply;
        return p->light->has_ply;
    }
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

/* Does the escaped reference token t[0..n) name the member key[0..kn)? */
static int token_names(const char *t, size_t n, const char *key, size_t kn)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++, k++) {
        char ch = t[i];
        if (ch == '~') {
            if (i + 1 == n || (t[i + 1] != '0' && t[i + 1] != '1')) return 0;
            ch = t[++i] == '0' ? '~' : '/';
        }
        if (k == kn || key[k] != ch) return 0;
    }
    return k == kn;
}

json_t *koma__pcn_resolve(json_t *v, const char *pointer)
{
    if (pointer == NULL) return NULL;
    const char *p = pointer;
    while (*p != '\0') {
        if (*p != '/' || v == NULL) return NULL;
        const char *t = ++p;
        while (*p != '\0' && *p != '/') p++;
        size_t n = (size_t)(p - t);
        if (json_is_object(v)) {
            if (memchr(t, '~', n) == NULL) {
                v = json_object_getn(v, t, n);
                continue;
            }
            json_t *found = NULL;
            for (void *it = json_object_iter(v); it && !found; it = json_object_iter_next(v, it))
                if (token_names(t, n, json_object_iter_key(it), json_object_iter_key_len(it)))
                    found = json_object_iter_value(it);
            v = found;
        } else if (json_is_array(v)) {
            if (n == 0 || (n > 1 && t[0] == '0')) return NULL;
            size_t idx = 0;
            for (size_t i = 0; i < n; i++) {
                if (!KOMA_IS_DIGIT(t[i]) || idx > ((size_t)-1 - 9) / 10) return NULL;
                idx = idx * 10 + (size_t)(t[i] - '0');
            }
            v = json_array_get(v, idx);
        } else {
            return NULL;
        }
    }
    return v;
}

void koma__pcn_value_of(const json_t *v, koma_pcn_value *out)
{
    memset(out, 0, sizeof *out);
    if (v == NULL) {
        out->type = KOMA_PCN_ABSENT;
        return;
    }
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
}

koma_pcn_type koma_pcn_get(const koma_pcn *p, const char *pointer, koma_pcn_value *out)
{
    koma_pcn_value tmp;
    if (out == NULL) out = &tmp;
    koma__pcn_value_of(p ? koma__pcn_resolve(p->root, pointer) : NULL, out);
    return out->type;
}

const char *koma_pcn_key(const koma_pcn *p, const char *pointer, size_t i, size_t *len)
{
    json_t *obj = p ? koma__pcn_resolve(p->root, pointer) : NULL;
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
                       koma__pcn_type_name(o));
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

int koma_pcn_unset_outcome_csa(koma_pcn *p)
{
    json_t *o = member(p->root, "outcome");
    if (json_is_object(o)) json_object_del(o, "csa");
    return 0;
}

int koma_pcn_append_ply(koma_pcn *p, const char *pmn, size_t len, koma_error *err)
{
    koma_chain m;                      /* a move, or a chain of elements (koma/pmn.h) */
    if (koma_chain_parse(pmn, len, &m, err) != 0) return -1;
    if (!json_is_object(p->root))
        return koma_error_set(err, KOMA_E_PCN_TYPE, 0, "a PCN record must be an object");
    json_t *plies = json_object_get(p->root, "plies");
    if (plies == NULL) {
        plies = json_array();
        if (plies == NULL || json_object_set_new(p->root, "plies", plies))
            return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    } else if (!json_is_array(plies)) {
        return koma_error_set(err, KOMA_E_PCN_TYPE, 0, "expected an array, found %s at /plies",
                              koma__pcn_type_name(plies));
    }
    if (json_array_size(plies) >= KOMA_LIMIT_PLIES)
        return koma_error_set(err, KOMA_E_PCN_PLIES_LIMIT, 0, "more than %u plies",
                              KOMA_LIMIT_PLIES);
    json_t *ply = json_object(), *s = json_stringn(pmn, len);
    if (ply == NULL || s == NULL || json_object_set_new(ply, "pmn", s)) {
        json_decref(ply);
        if (ply == NULL) json_decref(s);
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    }
    if (json_array_append_new(plies, ply)) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    return 0;
}

/* ---- buffers ------------------------------------------------------------------ */

void koma_buffer_cleanup(koma_buffer *b)
{
    if (b == NULL) return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
