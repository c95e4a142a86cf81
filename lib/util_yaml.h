/* lib/util_yaml.h — reading a libyaml document tree with errors placed at the
 * offending node (line and column of the YAML text). Shared by the modules that
 * read YAML definitions. Not installed, not exported. */
#ifndef KOMA_UTIL_YAML_H
#define KOMA_UTIL_YAML_H

#include <stddef.h>
#include <yaml.h>
#include <koma/error.h>

typedef struct koma__ydoc {
    yaml_document_t doc;
    koma_error *err;
    const char *source;                /* names the YAML in errors (may be NULL) */
} koma__ydoc;

/* The error of a libyaml parser that failed (game.yaml at the parser's problem
 * mark, or memory: libyaml fails without an error only when an allocation
 * fails) into err, named source. For every module that reads YAML definitions. */
void koma__yaml_parser_error(const yaml_parser_t *parser, const char *source, koma_error *err);

/* Load the one document of yaml[0..len) (a second one is game.yaml); 0 or -1
 * with err (game.yaml, memory) at the parser's line and column. */
int koma__ydoc_load(koma__ydoc *y, const char *yaml, size_t len, const char *source,
                    koma_error *err);
void koma__ydoc_free(koma__ydoc *y);

/* Set the error (code, printf message) at node n (its start mark); returns -1. */
int koma__y_error(koma__ydoc *y, const yaml_node_t *n, koma_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

yaml_node_t *koma__y_root(koma__ydoc *y);
yaml_node_t *koma__y_node(koma__ydoc *y, int index);
int koma__y_is_scalar(const yaml_node_t *n);
const char *koma__y_sval(const yaml_node_t *n);
size_t koma__y_slen(const yaml_node_t *n);
/* 1 when n is a scalar equal to s. */
int koma__y_scalar_is(const yaml_node_t *n, const char *s);
/* The value of key in mapping map, or NULL. */
yaml_node_t *koma__y_get(koma__ydoc *y, const yaml_node_t *map, const char *key);
/* map is a mapping whose keys are scalars among `allowed` (NULL-terminated), each
 * once: else game.field at the key. */
int koma__y_check_keys(koma__ydoc *y, const yaml_node_t *map, const char *what,
                       const char *const *allowed);
/* A plain decimal integer scalar in lo..hi; game.field otherwise. */
int koma__y_uint(koma__ydoc *y, const yaml_node_t *n, const char *what, unsigned lo, unsigned hi,
                 unsigned *out);
/* A plain true/false scalar. */
int koma__y_bool(koma__ydoc *y, const yaml_node_t *n, const char *what, int *out);
/* A scalar (no NUL) copied into buf of cap bytes (with its NUL). */
int koma__y_str(koma__ydoc *y, const yaml_node_t *n, const char *what, char *buf, size_t cap);

/* The same for the member key of mapping map, the messages naming it in quotes
 * ("\"files\" must be an integer"). An absent member is 0 with *out left as it
 * is (koma__y_get_str: buf ""), or, when required, game.field "missing \"key\""
 * at map. koma__y_get_str also gives the member's node (NULL when absent). */
int koma__y_get_uint(koma__ydoc *y, const yaml_node_t *map, const char *key, unsigned lo,
                     unsigned hi, unsigned *out, int required);
int koma__y_get_bool(koma__ydoc *y, const yaml_node_t *map, const char *key, int *out);
int koma__y_get_str(koma__ydoc *y, const yaml_node_t *map, const char *key, char *buf, size_t cap,
                    int required, yaml_node_t **node);

#endif
