/*
 * lib/pcn_yaml.c — PCN records as YAML (libyaml), the same tree as JSON.
 *
 * Reading builds a jansson tree from libyaml's events:
 *   - plain scalars are resolved by the YAML 1.2 core schema (null, ~, empty;
 *     true/false in three casings; decimal, 0o and 0x integers; floats, .inf
 *     and .nan); quoted and block scalars, and scalars tagged "!" or !!str,
 *     stay strings; !!null, !!bool, !!int, !!float must fit their text; any
 *     other tag is refused (pcn.yaml.tag). Numbers JSON cannot hold (integers
 *     beyond 64 bits, .inf, .nan) are refused (pcn.number).
 *   - mapping keys are scalars taken as their text (a plain `1:` key is the
 *     string "1"); duplicates are refused (pcn.duplicate).
 *   - nesting is counted here (libyaml 0.2.5 has no limit), aliases included;
 *     an alias is expanded as a copy of its anchor's value. The document may
 *     not expand beyond 16 MiB of JSON-like text, and what aliases add may not
 *     exceed 16 MiB counted with 32 bytes more per node (about its memory), so
 *     "billion laughs" documents fail early (pcn.size), before anything big is
 *     copied and within some tens of MiB.
 * A validation error is placed on its value by parsing the events again and
 * following the JSON pointer (only when there is an error).
 *
 * libyaml marks count characters; positions are turned into byte offsets, then
 * into the 1-based line ('\n' ends a line) and byte column used everywhere.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "internal.h"
#include "util_json_alloc.h"
#include "util_json_pos.h"
#include "pcn_internal.h"

#define CORE_TAG "tag:yaml.org,2002:"
/* What a node costs in memory beyond its text, for bounding alias expansion. */
#define NODE_WEIGHT 32

/* ---- YAML 1.2 core schema ---------------------------------------------------- */

enum core { CORE_NULL, CORE_TRUE, CORE_FALSE, CORE_INT, CORE_FLOAT, CORE_INF, CORE_NAN, CORE_STR };

static int is_word(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

static int all_in(const char *s, size_t n, int (*pred)(int))
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!pred((unsigned char)s[i])) return 0;
    return 1;
}

static int is_dec(int c) { return c >= '0' && c <= '9'; }
static int is_oct(int c) { return c >= '0' && c <= '7'; }
static int is_hex(int c) { return is_dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static int is_float_text(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    size_t d0 = i;
    while (i < n && is_dec((unsigned char)s[i])) i++;
    size_t ndig = i - d0;
    if (i < n && s[i] == '.') {
        i++;
        size_t f0 = i;
        while (i < n && is_dec((unsigned char)s[i])) i++;
        if (ndig == 0 && i == f0) return 0;      /* "." alone, "-." */
    } else if (ndig == 0) {
        return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        size_t e0 = i;
        while (i < n && is_dec((unsigned char)s[i])) i++;
        if (i == e0) return 0;
    }
    return i == n;
}

static enum core core_kind(const char *s, size_t n)
{
    if (n == 0 || is_word(s, n, "~") || is_word(s, n, "null") || is_word(s, n, "Null") ||
        is_word(s, n, "NULL"))
        return CORE_NULL;
    if (is_word(s, n, "true") || is_word(s, n, "True") || is_word(s, n, "TRUE")) return CORE_TRUE;
    if (is_word(s, n, "false") || is_word(s, n, "False") || is_word(s, n, "FALSE"))
        return CORE_FALSE;
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (all_in(s + i, n - i, is_dec)) return CORE_INT;
    if (n > 2 && s[0] == '0' && s[1] == 'o' && all_in(s + 2, n - 2, is_oct)) return CORE_INT;
    if (n > 2 && s[0] == '0' && s[1] == 'x' && all_in(s + 2, n - 2, is_hex)) return CORE_INT;
    if (is_float_text(s, n)) return CORE_FLOAT;
    const char *t = s + i;
    size_t m = n - i;
    if (is_word(t, m, ".inf") || is_word(t, m, ".Inf") || is_word(t, m, ".INF")) return CORE_INF;
    if (is_word(s, n, ".nan") || is_word(s, n, ".NaN") || is_word(s, n, ".NAN")) return CORE_NAN;
    return CORE_STR;
}

/* Integer text of a CORE_INT scalar; -1 when it does not fit in 64 bits. */
static int int_value(const char *s, size_t n, long long *out)
{
    unsigned long long v = 0, base = 10;
    size_t i = 0;
    int neg = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
        base = s[1] == 'o' ? 8 : 16;
        i = 2;
    } else if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        i = 1;
    }
    unsigned long long limit = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
    for (; i < n; i++) {
        int c = (unsigned char)s[i];
        unsigned d = is_dec(c) ? (unsigned)(c - '0')
                   : (c >= 'a' ? (unsigned)(c - 'a' + 10) : (unsigned)(c - 'A' + 10));
        if (v > (limit - d) / base) return -1;
        v = v * base + d;
    }
    if (neg) *out = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
    else *out = (long long)v;
    return 0;
}

/*
 * A CORE_FLOAT scalar as a jansson real: rewritten as JSON number text
 * ("+.5" -> "0.5", "1." -> "1.0", "007.5" -> "7.5") and read by jansson, so
 * the value is exactly the one JSON input gives, whatever the C locale.
 * NULL with *overflow set when the magnitude is too large.
 */
static json_t *float_value(const char *s, size_t n, int *overflow)
{
    char small[128];
    char *buf = n + 8 <= sizeof small ? small : malloc(n + 8);
    *overflow = 0;
    if (buf == NULL) return NULL;
    size_t i = 0, o = 0;
    if (s[i] == '-' || s[i] == '+') {
        if (s[i] == '-') buf[o++] = '-';
        i++;
    }
    size_t d0 = i;
    while (i < n && is_dec((unsigned char)s[i])) i++;
    size_t z = d0;
    while (z + 1 < i && s[z] == '0') z++;
    if (i == d0) buf[o++] = '0';
    else {
        memcpy(buf + o, s + z, i - z);
        o += i - z;
    }
    if (i < n && s[i] == '.') {
        i++;
        size_t f0 = i;
        while (i < n && is_dec((unsigned char)s[i])) i++;
        buf[o++] = '.';
        if (i == f0) buf[o++] = '0';
        else {
            memcpy(buf + o, s + f0, i - f0);
            o += i - f0;
        }
    }
    if (i < n) {                      /* exponent, already checked */
        memcpy(buf + o, s + i, n - i);
        o += n - i;
    } else if (memchr(buf, '.', o) == NULL) {
        buf[o++] = '.';               /* "!!float 3": a real, not an integer */
        buf[o++] = '0';
    }
    json_error_t jerr;
    int oom;
    json_t *v = koma__json_loadb(buf, o, JSON_DECODE_ANY, &jerr, &oom);
    if (v == NULL && !oom && json_error_code(&jerr) == json_error_numeric_overflow) *overflow = 1;
    if (buf != small) free(buf);
    return v;
}

/* Strings a YAML 1.1 reader would take for something else. */
static int yaml11_special(const char *s, size_t n)
{
    static const char *const words[] = {
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
        "on", "On", "ON", "off", "Off", "OFF", "<<", "=",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (is_word(s, n, words[i])) return 1;
    size_t i = 0;
    if (n > 1 && (s[0] == '-' || s[0] == '+' || s[0] == '.')) i = 1;
    if (!(i < n && (is_dec((unsigned char)s[i]) || (s[i] == '.' && i == 1)))) return 0;
    for (size_t k = 0; k < n; k++) {
        char c = s[k];
        if (!(KOMA_IS_ALPHA(c) || KOMA_IS_DIGIT(c) || c == '_' || c == ':' || c == '.' ||
              c == '+' || c == '-'))
            return 0;
    }
    return 1;
}

/* Characters that only a double-quoted scalar keeps exactly. */
static int needs_double(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) return 1;
        if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
            (unsigned char)s[i + 1] <= 0x9f)
            return 1;                                     /* C1 controls, NEL */
        if (c == 0xe2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
            ((unsigned char)s[i + 2] == 0xa8 || (unsigned char)s[i + 2] == 0xa9))
            return 1;                                     /* LS, PS */
        if (c == 0xef && i + 2 < n && (((unsigned char)s[i + 1] == 0xbb &&
                                         (unsigned char)s[i + 2] == 0xbf) ||
                                        ((unsigned char)s[i + 1] == 0xbf &&
                                         (unsigned char)s[i + 2] >= 0xbe)))
            return 1;                                     /* BOM, U+FFFE, U+FFFF */
    }
    return 0;
}

/* ---- positions -------------------------------------------------------------------- */

/* libyaml is given the text after a UTF-8 byte-order mark (with the encoding set
 * to UTF-8, it would take the mark for content). */
static size_t bom_len(const char *s, size_t len)
{
    return len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

/* Byte offset of a libyaml mark: its index counts characters after the BOM. */
static size_t mark_offset(const char *s, size_t len, const yaml_mark_t *mark)
{
    size_t i = bom_len(s, len), chars = 0;
    while (i < len && chars < mark->index) {
        unsigned char c = (unsigned char)s[i++];
        if (c >= 0xc0)
            while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80) i++;
        chars++;
    }
    return i;
}

static int error_at(koma_error *err, koma_code code, const char *s, size_t len, size_t off,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static int error_at(koma_error *err, koma_code code, const char *s, size_t len, size_t off,
                    const char *fmt, ...)
{
    char msg[KOMA_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return koma__json_error_at(err, code, s, len, off, "%s", msg);
}

static int parser_error(const yaml_parser_t *ps, const char *s, size_t len, koma_error *err)
{
    if (ps->error == YAML_MEMORY_ERROR) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    size_t off = ps->error == YAML_READER_ERROR ? bom_len(s, len) + ps->problem_offset
                                                : mark_offset(s, len, &ps->problem_mark);
    char problem[120];
    koma_quote(problem, sizeof problem, ps->problem ? ps->problem : "syntax error",
               strlen(ps->problem ? ps->problem : "syntax error"));
    if (ps->context != NULL) {
        char context[100];
        koma_quote(context, sizeof context, ps->context, strlen(ps->context));
        return error_at(err, KOMA_E_PCN_YAML, s, len, off, "%s %s", problem, context);
    }
    return error_at(err, KOMA_E_PCN_YAML, s, len, off, "%s", problem);
}

/* ---- anchors ------------------------------------------------------------------------ */

typedef struct anchor {
    char *name;                    /* NULL: free slot */
    json_t *node;
    size_t cost;                   /* JSON-like size of the value */
    size_t weight;                 /* cost plus NODE_WEIGHT per node: about its memory */
    unsigned height;
} anchor;

typedef struct anchors {
    anchor *slots;
    size_t cap, count;             /* cap: 0 or a power of two */
} anchors;

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static anchor *anchor_find(anchors *a, const char *name)
{
    if (a->cap == 0) return NULL;
    for (size_t i = (size_t)hash_name(name) & (a->cap - 1);; i = (i + 1) & (a->cap - 1)) {
        if (a->slots[i].name == NULL) return NULL;
        if (strcmp(a->slots[i].name, name) == 0) return &a->slots[i];
    }
}

static int anchor_grow(anchors *a)
{
    size_t cap = a->cap ? a->cap * 2 : 16;
    anchor *slots = calloc(cap, sizeof *slots);
    if (slots == NULL) return -1;
    for (size_t k = 0; k < a->cap; k++) {
        if (a->slots[k].name == NULL) continue;
        size_t i = (size_t)hash_name(a->slots[k].name) & (cap - 1);
        while (slots[i].name != NULL) i = (i + 1) & (cap - 1);
        slots[i] = a->slots[k];
    }
    free(a->slots);
    a->slots = slots;
    a->cap = cap;
    return 0;
}

/* Define (or redefine) an anchor; node is borrowed and kept alive (incref). */
static int anchor_put(anchors *a, const char *name, json_t *node, size_t cost, size_t weight,
                      unsigned height)
{
    anchor *e = anchor_find(a, name);
    if (e == NULL) {
        if ((a->count + 1) * 2 > a->cap && anchor_grow(a)) return -1;
        size_t i = (size_t)hash_name(name) & (a->cap - 1);
        while (a->slots[i].name != NULL) i = (i + 1) & (a->cap - 1);
        e = &a->slots[i];
        e->name = strdup(name);
        if (e->name == NULL) return -1;
        a->count++;
    } else {
        json_decref(e->node);
    }
    e->node = json_incref(node);
    e->cost = cost;
    e->weight = weight;
    e->height = height;
    return 0;
}

static void anchors_free(anchors *a)
{
    for (size_t i = 0; i < a->cap; i++) {
        if (a->slots[i].name == NULL) continue;
        free(a->slots[i].name);
        json_decref(a->slots[i].node);
    }
    free(a->slots);
    a->slots = NULL;
    a->cap = a->count = 0;
}

/* ---- building the tree ------------------------------------------------------------ */

typedef struct frame {
    json_t *node;                  /* the open container (owned until added) */
    int is_map;
    int have_key;                  /* mapping: a key was read, its value is next */
    char *key;                     /* mapping: the pending key (buffer reused) */
    size_t keylen, keycap;
    char *anchor;                  /* owned copy of the container's anchor, or NULL */
    size_t cost0, weight0;         /* builder cost and weight when the container started */
    unsigned maxchild;             /* greatest height of a child */
} frame;

typedef struct builder {
    const char *s;
    size_t len;
    frame frames[KOMA_LIMIT_DEPTH];
    size_t depth;
    size_t used;                   /* frames whose key buffers were allocated */
    json_t *root;
    int docs;
    anchors anchors;
    size_t cost;                   /* about the size of the expanded tree as JSON text */
    size_t weight;                 /* cost plus NODE_WEIGHT per node */
    size_t alias_weight;           /* weight added by alias expansions */
    koma_error *err;
} builder;

static int build_error(builder *b, koma_code code, const yaml_mark_t *mark, const char *fmt,
                       ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int build_error(builder *b, koma_code code, const yaml_mark_t *mark, const char *fmt, ...)
{
    char msg[KOMA_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return koma__json_error_at(b->err, code, b->s, b->len, mark_offset(b->s, b->len, mark),
                               "%s", msg);
}

static int memory_error(builder *b)
{
    return koma_error_set(b->err, KOMA_E_MEMORY, 0, NULL);
}

/* The JSON pointer of the node about to be added (the pending key or next index). */
static void path_here(const builder *b, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < b->depth; i++) {
        const frame *f = &b->frames[i];
        if (f->is_map) {
            if (f->have_key || i + 1 < b->depth)
                koma__json_pointer_push(buf, cap, &len, f->key, f->keylen);
        } else {
            size_t n = json_array_size(f->node);
            koma__json_pointer_index(buf, cap, &len, i + 1 < b->depth && n > 0 ? n - 1 : n);
        }
    }
    if (len == 0) snprintf(buf, cap, "the top level");
}

/* The plies are counted as they are read (a node about to be added to the
 * root mapping's "plies" sequence is one more). */
static int count_ply(builder *b, const yaml_mark_t *mark)
{
    if (b->depth != 2 || !b->frames[0].is_map || b->frames[1].is_map ||
        b->frames[0].keylen != 5 || memcmp(b->frames[0].key, "plies", 5) != 0 ||
        json_array_size(b->frames[1].node) < KOMA_LIMIT_PLIES)
        return 0;
    return build_error(b, KOMA_E_PCN_PLIES_LIMIT, mark, "more than %u plies (ply %u at /plies/%u)",
                       KOMA_LIMIT_PLIES, KOMA_LIMIT_PLIES + 1, KOMA_LIMIT_PLIES);
}

/* One node of n bytes of text. */
static int add_cost(builder *b, size_t n, const yaml_mark_t *mark)
{
    if (count_ply(b, mark)) return -1;
    if (n > KOMA_LIMIT_RECORD - b->cost)
        return build_error(b, KOMA_E_PCN_SIZE, mark, "document expands beyond 16 MiB");
    b->cost += n;
    b->weight += n + NODE_WEIGHT;
    return 0;
}

/* Add a finished value (stolen) to the open container, or make it the root. */
static int add_value(builder *b, json_t *v, unsigned height)
{
    if (b->depth == 0) {
        json_decref(b->root);
        b->root = v;
        return 0;
    }
    frame *top = &b->frames[b->depth - 1];
    int rc;
    if (top->is_map) {
        rc = json_object_setn_new_nocheck(top->node, top->key, top->keylen, v);
        top->have_key = 0;
    } else {
        rc = json_array_append_new(top->node, v);
    }
    if (rc) return memory_error(b);
    if (height > top->maxchild) top->maxchild = height;
    return 0;
}

static int tag_is(const char *tag, const char *name)
{
    size_t n = sizeof CORE_TAG - 1;
    return strncmp(tag, CORE_TAG, n) == 0 && strcmp(tag + n, name) == 0;
}

static json_t *typed_scalar(builder *b, const yaml_event_t *ev)
{
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    const yaml_mark_t *mark = &ev->start_mark;
    enum core kind;
    if (tag == NULL) {
        kind = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? core_kind(s, n) : CORE_STR;
    } else if (strcmp(tag, "!") == 0 || tag_is(tag, "str")) {
        kind = CORE_STR;
    } else {
        enum core k = core_kind(s, n);
        int fits;
        if (tag_is(tag, "null")) fits = k == CORE_NULL;
        else if (tag_is(tag, "bool")) fits = k == CORE_TRUE || k == CORE_FALSE;
        else if (tag_is(tag, "int")) fits = k == CORE_INT;
        else if (tag_is(tag, "float")) fits = k == CORE_FLOAT || k == CORE_INT || k == CORE_INF ||
                                              k == CORE_NAN;
        else {
            char q[80];
            koma_quote(q, sizeof q, tag, strlen(tag));
            build_error(b, KOMA_E_PCN_YAML_TAG, mark, "unsupported tag \"%s\"", q);
            return NULL;
        }
        if (!fits) {
            char q[64], t[80];
            koma_quote(q, sizeof q, s, n);
            koma_quote(t, sizeof t, tag, strlen(tag));
            build_error(b, KOMA_E_PCN_YAML_TAG, mark, "\"%s\" is not a valid %s", q, t);
            return NULL;
        }
        kind = k;
        if (tag_is(tag, "float") && k == CORE_INT) kind = CORE_FLOAT;
    }
    json_t *v = NULL;
    switch (kind) {
    case CORE_NULL: v = json_null(); break;
    case CORE_TRUE: v = json_true(); break;
    case CORE_FALSE: v = json_false(); break;
    case CORE_INT: {
        long long x;
        if (int_value(s, n, &x) != 0) {
            char q[64];
            koma_quote(q, sizeof q, s, n);
            build_error(b, KOMA_E_PCN_NUMBER, mark, "integer %s does not fit in 64 bits", q);
            return NULL;
        }
        v = json_integer((json_int_t)x);
        break;
    }
    case CORE_FLOAT: {
        if (n > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {   /* !!float 0x10 */
            char q[64];
            koma_quote(q, sizeof q, s, n);
            build_error(b, KOMA_E_PCN_YAML_TAG, mark, "\"%s\" is not a valid !!float", q);
            return NULL;
        }
        int overflow;
        v = float_value(s, n, &overflow);
        if (v == NULL && overflow) {
            char q[64];
            koma_quote(q, sizeof q, s, n);
            build_error(b, KOMA_E_PCN_NUMBER, mark, "number %s is too large", q);
            return NULL;
        }
        break;
    }
    case CORE_INF:
    case CORE_NAN: {
        char q[64];
        koma_quote(q, sizeof q, s, n);
        build_error(b, KOMA_E_PCN_NUMBER, mark, "%s has no JSON equivalent", q);
        return NULL;
    }
    case CORE_STR:
        v = json_stringn_nocheck(s, n);
        break;
    }
    if (v == NULL) memory_error(b);
    return v;
}

static int on_key(builder *b, const yaml_event_t *ev)
{
    frame *top = &b->frames[b->depth - 1];
    const yaml_mark_t *mark = &ev->start_mark;
    if (ev->type != YAML_SCALAR_EVENT)
        return build_error(b, KOMA_E_PCN_YAML_KEY, mark, "mapping key must be a scalar, not %s",
                           ev->type == YAML_ALIAS_EVENT ? "an alias" : "a collection");
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    if (tag != NULL && strcmp(tag, "!") != 0 && !tag_is(tag, "str"))
        return build_error(b, KOMA_E_PCN_YAML_KEY, mark, "mapping key must be a string");
    if (memchr(s, '\0', n) != NULL)
        return build_error(b, KOMA_E_PCN_YAML, mark, "NUL character in a key");
    if (json_object_getn(top->node, s, n) != NULL) {
        char q[64], where[KOMA__PCN_POINTER_MAX], pw[96];
        koma_quote(q, sizeof q, s, n);
        path_here(b, where, sizeof where);
        koma_quote(pw, sizeof pw, where, strlen(where));     /* keys may be any UTF-8 */
        return build_error(b, KOMA_E_PCN_DUPLICATE, mark, "duplicate key \"%s\" in %s", q, pw);
    }
    if (add_cost(b, n + 1, mark)) return -1;
    if (n + 1 > top->keycap) {
        size_t cap = top->keycap ? top->keycap : 32;
        while (cap < n + 1) cap *= 2;
        char *k = realloc(top->key, cap);
        if (k == NULL) return memory_error(b);
        top->key = k;
        top->keycap = cap;
    }
    memcpy(top->key, s, n);
    top->key[n] = '\0';
    top->keylen = n;
    top->have_key = 1;
    if (ev->data.scalar.anchor != NULL) {
        json_t *k = json_stringn_nocheck(s, n);
        if (k == NULL) return memory_error(b);
        int rc = anchor_put(&b->anchors, (const char *)ev->data.scalar.anchor, k, n + 1,
                            n + 1 + NODE_WEIGHT, 0);
        json_decref(k);
        if (rc) return memory_error(b);
    }
    return 0;
}

static int on_scalar(builder *b, const yaml_event_t *ev)
{
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    if (memchr(s, '\0', n) != NULL)
        return build_error(b, KOMA_E_PCN_YAML, &ev->start_mark, "NUL character in a string");
    if (add_cost(b, n + 1, &ev->start_mark)) return -1;
    json_t *v = typed_scalar(b, ev);
    if (v == NULL) return -1;
    if (ev->data.scalar.anchor != NULL &&
        anchor_put(&b->anchors, (const char *)ev->data.scalar.anchor, v, n + 1,
                   n + 1 + NODE_WEIGHT, 0)) {
        json_decref(v);
        return memory_error(b);
    }
    return add_value(b, v, 0);
}

static int on_alias(builder *b, const yaml_event_t *ev)
{
    const char *name = (const char *)ev->data.alias.anchor;
    anchor *a = anchor_find(&b->anchors, name);
    if (a == NULL) {
        char q[64];
        koma_quote(q, sizeof q, name, strlen(name));
        return build_error(b, KOMA_E_PCN_YAML_ALIAS, &ev->start_mark,
                           "undefined or recursive alias *%s", q);
    }
    if (count_ply(b, &ev->start_mark)) return -1;
    if (b->depth + a->height > KOMA_LIMIT_DEPTH)
        return build_error(b, KOMA_E_PCN_DEPTH, &ev->start_mark,
                           "nesting deeper than %u levels (through an alias)",
                           KOMA_LIMIT_DEPTH);
    if (a->cost > KOMA_LIMIT_RECORD - b->cost ||
        a->weight > KOMA_LIMIT_RECORD - b->alias_weight)
        return build_error(b, KOMA_E_PCN_SIZE, &ev->start_mark,
                           "aliases expand beyond 16 MiB");
    b->cost += a->cost;
    b->weight += a->weight;
    b->alias_weight += a->weight;
    json_t *v = json_deep_copy(a->node);
    if (v == NULL) return memory_error(b);
    return add_value(b, v, a->height);
}

static int on_start(builder *b, const yaml_event_t *ev, int is_map)
{
    const yaml_mark_t *mark = &ev->start_mark;
    const char *tag = (const char *)(is_map ? ev->data.mapping_start.tag
                                            : ev->data.sequence_start.tag);
    const char *anchor_name = (const char *)(is_map ? ev->data.mapping_start.anchor
                                                    : ev->data.sequence_start.anchor);
    if (b->depth >= KOMA_LIMIT_DEPTH)
        return build_error(b, KOMA_E_PCN_DEPTH, mark, "nesting deeper than %u levels",
                           KOMA_LIMIT_DEPTH);
    if (tag != NULL && strcmp(tag, "!") != 0 && !tag_is(tag, is_map ? "map" : "seq")) {
        char q[80];
        koma_quote(q, sizeof q, tag, strlen(tag));
        return build_error(b, KOMA_E_PCN_YAML_TAG, mark, "unsupported tag \"%s\" on a %s", q,
                           is_map ? "mapping" : "sequence");
    }
    if (add_cost(b, 2, mark)) return -1;
    frame *f = &b->frames[b->depth];
    f->node = is_map ? json_object() : json_array();
    if (f->node == NULL) return memory_error(b);
    f->is_map = is_map;
    f->have_key = 0;
    f->keylen = 0;
    f->maxchild = 0;
    f->cost0 = b->cost - 2;
    f->weight0 = b->weight - 2 - NODE_WEIGHT;
    f->anchor = NULL;
    if (anchor_name != NULL && (f->anchor = strdup(anchor_name)) == NULL) {
        json_decref(f->node);
        f->node = NULL;
        return memory_error(b);
    }
    b->depth++;
    if (b->depth > b->used) b->used = b->depth;
    return 0;
}

static int on_end(builder *b)
{
    frame *f = &b->frames[--b->depth];
    json_t *node = f->node;
    unsigned height = f->maxchild + 1;
    f->node = NULL;
    if (f->anchor != NULL) {
        int rc = anchor_put(&b->anchors, f->anchor, node, b->cost - f->cost0,
                            b->weight - f->weight0, height);
        free(f->anchor);
        f->anchor = NULL;
        if (rc) {
            json_decref(node);
            return memory_error(b);
        }
    }
    return add_value(b, node, height);
}

static void builder_cleanup(builder *b)
{
    for (size_t i = 0; i < b->used; i++) {
        json_decref(b->frames[i].node);
        free(b->frames[i].key);
        free(b->frames[i].anchor);
    }
    json_decref(b->root);
    anchors_free(&b->anchors);
}

/* One YAML document -> tree (NULL with err set). */
static json_t *yaml_load(const char *s, size_t len, koma_error *err)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.len = len;
    b.err = err;
    yaml_parser_t ps;
    if (!yaml_parser_initialize(&ps)) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    size_t bom = bom_len(s, len);
    yaml_parser_set_input_string(&ps, (const unsigned char *)s + bom, len - bom);
    yaml_parser_set_encoding(&ps, YAML_UTF8_ENCODING);
    int rc = 0, done = 0;
    while (!done && rc == 0) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&ps, &ev)) {
            rc = parser_error(&ps, s, len, err);
            break;
        }
        int in_key = b.depth > 0 && b.frames[b.depth - 1].is_map &&
                     !b.frames[b.depth - 1].have_key;
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++b.docs > 1)
                rc = build_error(&b, KOMA_E_PCN_YAML_DOCUMENTS, &ev.start_mark,
                                 "more than one YAML document");
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_SCALAR_EVENT:
            rc = in_key ? on_key(&b, &ev) : on_scalar(&b, &ev);
            break;
        case YAML_ALIAS_EVENT:
            rc = in_key ? on_key(&b, &ev) : on_alias(&b, &ev);
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            rc = in_key ? on_key(&b, &ev)
                        : on_start(&b, &ev, ev.type == YAML_MAPPING_START_EVENT);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            rc = on_end(&b);
            break;
        default:
            break;
        }
        if (rc != 0 && koma__json_budget_hit())     /* not out of memory: too much */
            rc = build_error(&b, KOMA_E_PCN_MEMORY_LIMIT, &ev.start_mark,
                             "the record's values need more than %zu MiB of memory",
                             KOMA_LIMIT_TREE >> 20);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&ps);
    if (rc == 0 && b.docs == 0) {
        yaml_mark_t m;
        memset(&m, 0, sizeof m);
        rc = build_error(&b, KOMA_E_PCN_YAML_DOCUMENTS, &m, "no YAML document");
    }
    json_t *root = NULL;
    if (rc == 0) {
        root = b.root;
        b.root = NULL;
    }
    builder_cleanup(&b);
    return root;
}

/* ---- locating a JSON pointer ------------------------------------------------------ */

/* Compare the reference token at p (up to '/' or NUL) with s[0..n). */
static int token_is(const char *p, const char *s, size_t n)
{
    size_t i = 0;
    while (*p != '\0' && *p != '/') {
        char c = *p++;
        if (c == '~') {
            if (*p == '0') c = '~';
            else if (*p == '1') c = '/';
            else return 0;
            p++;
        }
        if (i >= n || s[i] != c) return 0;
        i++;
    }
    return i == n;
}

static int token_index(const char *p, size_t *out)
{
    size_t v = 0, n = 0;
    for (; p[n] != '\0' && p[n] != '/'; n++) {
        if (!KOMA_IS_DIGIT(p[n]) || (n > 0 && p[0] == '0') || v > ((size_t)-1 - 9) / 10)
            return -1;
        v = v * 10 + (size_t)(p[n] - '0');
    }
    if (n == 0) return -1;
    *out = v;
    return 0;
}

static int is_node(yaml_event_type_t t)
{
    return t == YAML_SCALAR_EVENT || t == YAML_ALIAS_EVENT || t == YAML_SEQUENCE_START_EVENT ||
           t == YAML_MAPPING_START_EVENT;
}

/* ev is a node's first event (consumed): consume the rest of that node. */
static int skip_node(yaml_parser_t *ps, const yaml_event_t *ev)
{
    if (ev->type != YAML_SEQUENCE_START_EVENT && ev->type != YAML_MAPPING_START_EVENT) return 0;
    size_t depth = 1;
    while (depth > 0) {
        yaml_event_t e;
        if (!yaml_parser_parse(ps, &e)) return -1;
        if (e.type == YAML_SEQUENCE_START_EVENT || e.type == YAML_MAPPING_START_EVENT) depth++;
        else if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT) depth--;
        else if (e.type == YAML_STREAM_END_EVENT) depth = 0;
        yaml_event_delete(&e);
    }
    return 0;
}

/* Offset of the node at pointer (of the deepest node found on the way). */
static size_t yaml_locate(const char *s, size_t len, const char *pointer)
{
    yaml_parser_t ps;
    if (!yaml_parser_initialize(&ps)) return 0;
    size_t bom = bom_len(s, len);
    yaml_parser_set_input_string(&ps, (const unsigned char *)s + bom, len - bom);
    yaml_parser_set_encoding(&ps, YAML_UTF8_ENCODING);
    yaml_event_t cur;
    size_t off = 0;
    for (;;) {
        if (!yaml_parser_parse(&ps, &cur)) goto out;
        if (is_node(cur.type)) break;
        int end = cur.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&cur);
        if (end) goto out;
    }
    const char *p = pointer;
    for (;;) {
        off = mark_offset(s, len, &cur.start_mark);
        if (*p != '/') break;
        const char *tok = p + 1;
        const char *next = tok;
        while (*next != '\0' && *next != '/') next++;
        yaml_event_t found;
        int have = 0;
        if (cur.type == YAML_MAPPING_START_EVENT) {
            for (;;) {
                yaml_event_t k, v;
                if (!yaml_parser_parse(&ps, &k)) break;
                if (k.type == YAML_MAPPING_END_EVENT || k.type == YAML_STREAM_END_EVENT) {
                    yaml_event_delete(&k);
                    break;
                }
                int match = k.type == YAML_SCALAR_EVENT &&
                            token_is(tok, (const char *)k.data.scalar.value,
                                     k.data.scalar.length);
                int bad = skip_node(&ps, &k);
                yaml_event_delete(&k);
                if (bad || !yaml_parser_parse(&ps, &v)) break;
                if (match) {
                    found = v;
                    have = 1;
                    break;
                }
                bad = skip_node(&ps, &v);
                yaml_event_delete(&v);
                if (bad) break;
            }
        } else if (cur.type == YAML_SEQUENCE_START_EVENT) {
            size_t want;
            if (token_index(tok, &want) == 0) {
                for (size_t i = 0;; i++) {
                    yaml_event_t e;
                    if (!yaml_parser_parse(&ps, &e)) break;
                    if (!is_node(e.type)) {
                        yaml_event_delete(&e);
                        break;
                    }
                    if (i == want) {
                        found = e;
                        have = 1;
                        break;
                    }
                    int bad = skip_node(&ps, &e);
                    yaml_event_delete(&e);
                    if (bad) break;
                }
            }
        }
        if (!have) break;
        yaml_event_delete(&cur);
        cur = found;
        p = next;
    }
    yaml_event_delete(&cur);
out:
    yaml_parser_delete(&ps);
    return off;
}

/* For koma_pcn_reader_locate (pcn_stream.c). */
size_t koma__pcn_yaml_locate(const char *s, size_t len, const char *pointer)
{
    return yaml_locate(s, len, pointer);
}

koma_pcn *koma__pcn_parse_yaml(const char *s, size_t len, unsigned flags,
                               koma_position *scratch, koma_error *err)
{
    if (len > KOMA_LIMIT_RECORD) {
        koma__json_error_at(err, KOMA_E_PCN_SIZE, s, len, KOMA_LIMIT_RECORD,
                            "record of %zu bytes exceeds 16 MiB", len);
        return NULL;
    }
    koma__json_budget_start(KOMA_LIMIT_TREE);
    json_t *root = yaml_load(s, len, err);
    koma__json_budget_stop();
    if (root == NULL) return NULL;
    if (!(flags & KOMA_PCN_NO_VALIDATE)) {
        char ptr[KOMA__PCN_POINTER_MAX];
        if (koma__pcn_check(root, flags, scratch, ptr, err) != 0) {
            json_decref(root);
            if (err) {
                size_t off = yaml_locate(s, len, ptr);
                err->offset = off;
                koma__offset_to_linecol(s, len, off, &err->line, &err->column);
            }
            return NULL;
        }
    }
    return koma__pcn_wrap(root, err);
}

/* ---- writing ------------------------------------------------------------------------ */

typedef struct emit_ctx {
    koma__pcn_sink sink;
    void *ctx;
    int failed;
} emit_ctx;

static int output_cb(void *data, unsigned char *buffer, size_t size)
{
    emit_ctx *c = data;
    if (c->sink(c->ctx, (const char *)buffer, size) != 0) {
        c->failed = 1;
        return 0;
    }
    return 1;
}

static int emit_scalar(yaml_emitter_t *e, const char *s, size_t n, int plain, int quoted,
                       yaml_scalar_style_t style)
{
    yaml_event_t ev;
    if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)n, plain, quoted,
                                      style))
        return -1;
    return yaml_emitter_emit(e, &ev) ? 0 : -1;
}

static int emit_string(yaml_emitter_t *e, const char *s, size_t n)
{
    if (n > INT32_MAX) return -1;
    if (needs_double(s, n)) return emit_scalar(e, s, n, 0, 1, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
    if (core_kind(s, n) != CORE_STR || yaml11_special(s, n))
        return emit_scalar(e, s, n, 0, 1, YAML_SINGLE_QUOTED_SCALAR_STYLE);
    return emit_scalar(e, s, n, 1, 1, YAML_ANY_SCALAR_STYLE);
}

static int emit_value(yaml_emitter_t *e, json_t *v)
{
    yaml_event_t ev;
    char buf[64];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) ||
            !yaml_emitter_emit(e, &ev))
            return -1;
        for (void *it = json_object_iter(v); it != NULL; it = json_object_iter_next(v, it)) {
            if (emit_string(e, json_object_iter_key(it), json_object_iter_key_len(it)) ||
                emit_value(e, json_object_iter_value(it)))
                return -1;
        }
        if (!yaml_mapping_end_event_initialize(&ev) || !yaml_emitter_emit(e, &ev)) return -1;
        return 0;
    }
    case JSON_ARRAY: {
        if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE) ||
            !yaml_emitter_emit(e, &ev))
            return -1;
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++)
            if (emit_value(e, json_array_get(v, i))) return -1;
        if (!yaml_sequence_end_event_initialize(&ev) || !yaml_emitter_emit(e, &ev)) return -1;
        return 0;
    }
    case JSON_STRING:
        return emit_string(e, json_string_value(v), json_string_length(v));
    case JSON_INTEGER:
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return emit_scalar(e, buf, strlen(buf), 1, 0, YAML_PLAIN_SCALAR_STYLE);
    case JSON_REAL: {
        size_t n = json_dumpb(v, buf, sizeof buf, JSON_ENCODE_ANY | JSON_COMPACT);
        if (n == 0 || n >= sizeof buf) return -1;
        return emit_scalar(e, buf, n, 1, 0, YAML_PLAIN_SCALAR_STYLE);
    }
    case JSON_TRUE: return emit_scalar(e, "true", 4, 1, 0, YAML_PLAIN_SCALAR_STYLE);
    case JSON_FALSE: return emit_scalar(e, "false", 5, 1, 0, YAML_PLAIN_SCALAR_STYLE);
    case JSON_NULL: return emit_scalar(e, "null", 4, 1, 0, YAML_PLAIN_SCALAR_STYLE);
    }
    return -1;
}

int koma__pcn_emit_yaml(const koma_pcn *p, unsigned flags, koma__pcn_sink sink, void *ctx,
                        koma_error *err)
{
    (void)flags;
    yaml_emitter_t e;
    if (!yaml_emitter_initialize(&e)) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    emit_ctx c = { sink, ctx, 0 };
    yaml_emitter_set_output(&e, output_cb, &c);
    yaml_emitter_set_unicode(&e, 1);
    yaml_emitter_set_width(&e, -1);
    yaml_emitter_set_indent(&e, 2);
    yaml_event_t ev;
    int ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
             yaml_emitter_emit(&e, &ev) &&
             yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0) &&
             yaml_emitter_emit(&e, &ev) && emit_value(&e, p->root) == 0 &&
             yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
             yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev) &&
             yaml_emitter_flush(&e);
    yaml_emitter_delete(&e);
    if (ok) return 0;
    return koma_error_set(err, c.failed ? KOMA_E_IO_WRITE : KOMA_E_MEMORY, 0, NULL);
}
