/* lib/pcn_internal.h — shared by lib/pcn*.c; not installed, not exported.
 * Grouped by the module that defines each name, bottom-up (the layer order is
 * at the top of pcn_tree.c). */
#ifndef KOMA_PCN_INTERNAL_H
#define KOMA_PCN_INTERNAL_H

#include <jansson.h>
#include <koma/pcn.h>
#include <koma/position.h>
#include <koma/pmn.h>

/* A record read with KOMA_PCN_LIGHT whose tree was not built (pcn_quick.c): what
 * the light accessors return, pointing into a copy of the record's text in which
 * each of these strings is NUL-ended. */
typedef struct koma__pcn_light {
    char *text;                    /* owned */
    const char *feen;              /* setup.feen (NULL: absent) */
    size_t feen_len;
    size_t nplies, cap;
    struct koma__pcn_span {
        size_t off, len;           /* each plies[i].pmn (offsets) */
        int parsed;                /* move: the PMN parsed (one move, no chain) */
        koma_move move;
    } *plies;
    int has_outcome;
    const char *result, *status;   /* outcome.result, outcome.status (NULL: absent) */
    int has_ply;
    uint64_t ply;                  /* outcome.ply */
    size_t feen_off, result_off, status_off;             /* (offsets, during the pass) */
    size_t result_len, status_len;
    int has_feen, has_result, has_status;
    int tree_needed;               /* meta.rule_options, outcome.csa: the referee reads them (a tree) */
    int has_source;                /* meta.source: with an illegalmove outcome, the
                                      referee reads meta.source.format (a tree) */
} koma__pcn_light;

struct koma_pcn {
    json_t *root;                  /* owned; an empty object when light */
    koma__pcn_light *light;        /* owned; NULL: the tree is the record */
};

void koma__pcn_light_free(koma__pcn_light *l);

/* The move of plies[i].pmn as the record's one pass parsed it (a light record,
 * one move that is not a chain), else NULL: the referee then parses the text. */
const koma_move *koma__pcn_ply_move(const koma_pcn *p, size_t i);

/* Longest JSON pointer kept for a message (longer ones end in "..."). */
#define KOMA__PCN_POINTER_MAX 256

/* ---- pcn_tree.c ---- */

/* Wrap root (stolen, even on failure). */
koma_pcn *koma__pcn_wrap(json_t *root, koma_error *err);

/* "an object", "a string", ... for messages. */
const char *koma__pcn_type_name(const json_t *v);

/* One of the seven outcome.result values; its index in the table of results
 * (0 "1-0", 1 "0-1", 2 "1/2-1/2", then the asymmetric ones), or -1; the text
 * of index i ("*" for any other). */
int koma__pcn_result_ok(const char *s, size_t len);
int koma__pcn_result_index(const char *s, size_t len);
const char *koma__pcn_result_text(int i);

/* The value at an RFC 6901 pointer below v, or NULL. */
json_t *koma__pcn_resolve(json_t *v, const char *pointer);

/* A value as koma_pcn_get describes it (v NULL: KOMA_PCN_ABSENT). */
void koma__pcn_value_of(const json_t *v, koma_pcn_value *out);

/* ---- pcn_walk.c ---- */

/* A JSON pointer built as a walk goes down (members escaped by util_json_pos.c). Every
 * function returns -1 when out of memory; *saved is what pop takes back to. */
typedef struct koma__pcn_path {
    char *buf;                     /* NUL-terminated once anything is set */
    size_t len, cap;
} koma__pcn_path;
int koma__pcn_path_set(koma__pcn_path *p, const char *pointer, size_t len);
int koma__pcn_path_key(koma__pcn_path *p, const char *key, size_t n, size_t *saved);
int koma__pcn_path_index(koma__pcn_path *p, size_t i, size_t *saved);
void koma__pcn_path_pop(koma__pcn_path *p, size_t saved);
void koma__pcn_path_free(koma__pcn_path *p);

/* ---- pcn_validate.c ---- */

/*
 * Validate the tree. On error: -1, err has the code and message (no position)
 * and pointer[] the JSON pointer of the offending value (of the object missing
 * a required key). scratch may be NULL (a position is then made and freed).
 */
int koma__pcn_check(json_t *root, unsigned flags, koma_position *scratch,
                    char pointer[KOMA__PCN_POINTER_MAX], koma_error *err);

/* An RFC 3339 date-time (meta.started_at). */
int koma__pcn_datetime_ok(const char *s, size_t n);

/* ---- pcn_quick.c ---- */

/* 1 when the JSON text s[0..len) is a valid record under flags (checked in one
 * pass, no tree); 0 when it is not or when the pass cannot tell (the full path
 * decides). light (may be NULL, else zeroed): the light accessors' values, with
 * light->text the NUL-ended copy (the caller frees it with koma__pcn_light_free). */
int koma__pcn_quick_check(const char *s, size_t len, unsigned flags, koma_position *scratch,
                          koma__pcn_light *light);

/* ---- pcn_json.c, pcn_yaml.c ---- */

/* Parse one record; positions relative to s. */
koma_pcn *koma__pcn_parse_json(const char *s, size_t len, unsigned flags,
                               koma_position *scratch, koma_error *err);
koma_pcn *koma__pcn_parse_yaml(const char *s, size_t len, unsigned flags,
                               koma_position *scratch, koma_error *err);

/* Offset of the node at a JSON pointer in one YAML document s[0..len) (of the
 * deepest node found on the way when it does not resolve). */
size_t koma__pcn_yaml_locate(const char *s, size_t len, const char *pointer);

/* v written as compact JSON into out (pcn_json_write.c: json_dump_callback's bytes
 * with JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY): 0; 1 when v holds
 * what it leaves to jansson (a real, a string that is not UTF-8, too deep a
 * nesting: out as it was); -1 with err (memory). */
int koma__json_write_compact(const json_t *v, koma_buffer *out, koma_error *err);

/* Writers: hand the text to sink piece by piece. */
typedef int (*koma__pcn_sink)(void *ctx, const char *data, size_t len);
int koma__pcn_emit_json(const koma_pcn *p, unsigned flags, koma__pcn_sink sink, void *ctx,
                        koma_error *err);
int koma__pcn_emit_yaml(const koma_pcn *p, unsigned flags, koma__pcn_sink sink, void *ctx,
                        koma_error *err);

#endif
