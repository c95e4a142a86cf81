/*
 * lib/util_yaml.c — reading a libyaml document tree (util_yaml.h): the one
 * document of a text, typed scalars, mappings with known keys, and errors at
 * the node's line and column.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "util_yaml.h"

void koma__yaml_parser_error(const yaml_parser_t *parser, const char *source, koma_error *err)
{
    if (err == NULL) return;
    /* libyaml's loader gives up without setting an error only when an allocation
     * fails (yaml_strdup of a default tag): that is memory too, not bad YAML */
    if (parser->error == YAML_MEMORY_ERROR || parser->error == YAML_NO_ERROR) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        err->source = source;
        return;
    }
    koma_error_set(err, KOMA_E_GAME_YAML, parser->problem_mark.index, "%s",
                   parser->problem ? parser->problem : "invalid YAML");
    err->line = (unsigned long)parser->problem_mark.line + 1;
    err->column = (unsigned long)parser->problem_mark.column + 1;
    err->source = source;
}

int koma__ydoc_load(koma__ydoc *y, const char *yaml, size_t len, const char *source,
                    koma_error *err)
{
    memset(y, 0, sizeof *y);
    y->err = err;
    y->source = source;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (YAML parser)");
    yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
    if (!yaml_parser_load(&parser, &y->doc)) {
        koma__yaml_parser_error(&parser, source, err);
        yaml_parser_delete(&parser);
        memset(&y->doc, 0, sizeof y->doc);
        return -1;
    }
    yaml_document_t extra;
    int rc = 0;
    if (yaml_parser_load(&parser, &extra)) {
        yaml_node_t *r = yaml_document_get_root_node(&extra);
        if (r != NULL) rc = koma__y_error(y, r, KOMA_E_GAME_YAML, "more than one YAML document");
        yaml_document_delete(&extra);
    } else {
        koma__yaml_parser_error(&parser, source, err);
        rc = -1;
    }
    yaml_parser_delete(&parser);
    if (rc != 0) {
        yaml_document_delete(&y->doc);
        memset(&y->doc, 0, sizeof y->doc);
    }
    return rc;
}

void koma__ydoc_free(koma__ydoc *y)
{
    if (y->doc.nodes.start != NULL) yaml_document_delete(&y->doc);
    memset(&y->doc, 0, sizeof y->doc);
}

int koma__y_error(koma__ydoc *y, const yaml_node_t *n, koma_code code, const char *fmt, ...)
{
    if (y->err == NULL) return -1;
    char msg[KOMA_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    koma_error_set(y->err, code, n ? n->start_mark.index : 0, "%s", msg);
    if (n) {
        y->err->line = (unsigned long)n->start_mark.line + 1;
        y->err->column = (unsigned long)n->start_mark.column + 1;
    }
    y->err->source = y->source;
    return -1;
}

yaml_node_t *koma__y_root(koma__ydoc *y) { return yaml_document_get_root_node(&y->doc); }
yaml_node_t *koma__y_node(koma__ydoc *y, int index) { return yaml_document_get_node(&y->doc, index); }
int koma__y_is_scalar(const yaml_node_t *n) { return n != NULL && n->type == YAML_SCALAR_NODE; }
const char *koma__y_sval(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }
size_t koma__y_slen(const yaml_node_t *n) { return n->data.scalar.length; }

int koma__y_scalar_is(const yaml_node_t *n, const char *s)
{
    return koma__y_is_scalar(n) && koma__y_slen(n) == strlen(s) &&
           memcmp(koma__y_sval(n), s, koma__y_slen(n)) == 0;
}

yaml_node_t *koma__y_get(koma__ydoc *y, const yaml_node_t *map, const char *key)
{
    if (map == NULL || map->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++)
        if (koma__y_scalar_is(koma__y_node(y, p->key), key)) return koma__y_node(y, p->value);
    return NULL;
}

int koma__y_check_keys(koma__ydoc *y, const yaml_node_t *map, const char *what,
                       const char *const *allowed)
{
    if (map == NULL || map->type != YAML_MAPPING_NODE)
        return koma__y_error(y, map, KOMA_E_GAME_FIELD, "%s must be a mapping", what);
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = koma__y_node(y, p->key);
        if (!koma__y_is_scalar(k))
            return koma__y_error(y, k, KOMA_E_GAME_FIELD, "%s: key must be a scalar", what);
        char q[64];
        koma_quote(q, sizeof q, koma__y_sval(k), koma__y_slen(k));
        int ok = allowed == NULL;
        for (size_t i = 0; allowed && allowed[i]; i++)
            if (koma__y_scalar_is(k, allowed[i])) ok = 1;
        if (!ok) return koma__y_error(y, k, KOMA_E_GAME_FIELD, "%s: unknown key \"%s\"", what, q);
        for (yaml_node_pair_t *p2 = map->data.mapping.pairs.start; p2 < p; p2++) {
            yaml_node_t *k2 = koma__y_node(y, p2->key);
            if (koma__y_is_scalar(k2) && koma__y_slen(k2) == koma__y_slen(k) &&
                memcmp(koma__y_sval(k2), koma__y_sval(k), koma__y_slen(k)) == 0)
                return koma__y_error(y, k, KOMA_E_GAME_FIELD, "%s: duplicate key \"%s\"", what, q);
        }
    }
    return 0;
}

int koma__y_uint(koma__ydoc *y, const yaml_node_t *n, const char *what, unsigned lo, unsigned hi,
                 unsigned *out)
{
    if (!koma__y_is_scalar(n) || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        koma__y_slen(n) == 0 || koma__y_slen(n) > 6)
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "%s must be an integer", what);
    unsigned v = 0;
    for (size_t i = 0; i < koma__y_slen(n); i++) {
        char c = koma__y_sval(n)[i];
        if (!KOMA_IS_DIGIT(c)) return koma__y_error(y, n, KOMA_E_GAME_FIELD, "%s must be an integer", what);
        v = v * 10 + (unsigned)(c - '0');
    }
    if (v < lo || v > hi)
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "%s must be between %u and %u", what, lo, hi);
    *out = v;
    return 0;
}

int koma__y_bool(koma__ydoc *y, const yaml_node_t *n, const char *what, int *out)
{
    if (koma__y_is_scalar(n) && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
        if (koma__y_scalar_is(n, "true")) { *out = 1; return 0; }
        if (koma__y_scalar_is(n, "false")) { *out = 0; return 0; }
    }
    return koma__y_error(y, n, KOMA_E_GAME_FIELD, "%s must be true or false", what);
}

int koma__y_str(koma__ydoc *y, const yaml_node_t *n, const char *what, char *buf, size_t cap)
{
    if (!koma__y_is_scalar(n)) return koma__y_error(y, n, KOMA_E_GAME_FIELD, "%s must be a string", what);
    if (memchr(koma__y_sval(n), '\0', koma__y_slen(n)) != NULL)
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "%s contains a NUL character", what);
    if (koma__y_slen(n) + 1 > cap)
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "%s exceeds %zu bytes", what, cap - 1);
    memcpy(buf, koma__y_sval(n), koma__y_slen(n));
    buf[koma__y_slen(n)] = '\0';
    return 0;
}

/* "key" in quotes, for the messages of the keyed forms. */
static const char *quoted_key(char *buf, size_t cap, const char *key)
{
    snprintf(buf, cap, "\"%s\"", key);
    return buf;
}

/* The member key of map; NULL when absent (an error when required: *rc = -1). */
static yaml_node_t *member(koma__ydoc *y, const yaml_node_t *map, const char *key, int required,
                           int *rc)
{
    yaml_node_t *n = koma__y_get(y, map, key);
    *rc = 0;
    if (n == NULL && required) *rc = koma__y_error(y, map, KOMA_E_GAME_FIELD, "missing \"%s\"", key);
    return n;
}

int koma__y_get_uint(koma__ydoc *y, const yaml_node_t *map, const char *key, unsigned lo,
                     unsigned hi, unsigned *out, int required)
{
    int rc;
    yaml_node_t *n = member(y, map, key, required, &rc);
    if (n == NULL) return rc;
    char what[80];
    return koma__y_uint(y, n, quoted_key(what, sizeof what, key), lo, hi, out);
}

int koma__y_get_bool(koma__ydoc *y, const yaml_node_t *map, const char *key, int *out)
{
    int rc;
    yaml_node_t *n = member(y, map, key, 0, &rc);
    if (n == NULL) return rc;
    char what[80];
    return koma__y_bool(y, n, quoted_key(what, sizeof what, key), out);
}

int koma__y_get_str(koma__ydoc *y, const yaml_node_t *map, const char *key, char *buf, size_t cap,
                    int required, yaml_node_t **node)
{
    int rc;
    yaml_node_t *n = member(y, map, key, required, &rc);
    if (node) *node = n;
    if (n == NULL) {
        buf[0] = '\0';
        return rc;
    }
    char what[80];
    return koma__y_str(y, n, quoted_key(what, sizeof what, key), buf, cap);
}
