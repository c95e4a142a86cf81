/*
 * lib/pcn_walk.c — the members of a PCN record, depth first, each with its JSON
 * pointer (RFC 6901; "~" and "/" in member names escaped by util_json_pos.c, the one
 * place that escapes them), and the growable pointer the walk and the record
 * comparison (pcn_diff.c) build as they go down.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_json_pos.h"
#include "pcn_internal.h"

/* ---- the pointer being built ----------------------------------------------------- */

static int path_reserve(koma__pcn_path *p, size_t extra)
{
    if (extra > SIZE_MAX / 2 - p->len) return -1;
    size_t need = p->len + extra + 1;
    if (need <= p->cap) return 0;
    size_t cap = p->cap ? p->cap : 128;
    while (cap < need) cap *= 2;
    char *nb = realloc(p->buf, cap);
    if (nb == NULL) return -1;
    p->buf = nb;
    p->cap = cap;
    return 0;
}

int koma__pcn_path_set(koma__pcn_path *p, const char *pointer, size_t len)
{
    p->len = 0;
    if (path_reserve(p, len) != 0) return -1;
    memcpy(p->buf, pointer, len);
    p->len = len;
    p->buf[len] = '\0';
    return 0;
}

int koma__pcn_path_key(koma__pcn_path *p, const char *key, size_t n, size_t *saved)
{
    *saved = p->len;
    /* "/" and each byte escaped to at most two */
    if (n > SIZE_MAX / 2 - 1 || path_reserve(p, 1 + 2 * n) != 0) return -1;
    return koma__json_pointer_push(p->buf, p->cap, &p->len, key, n);
}

int koma__pcn_path_index(koma__pcn_path *p, size_t i, size_t *saved)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%zu", i);
    return koma__pcn_path_key(p, num, (size_t)n, saved);
}

void koma__pcn_path_pop(koma__pcn_path *p, size_t saved)
{
    p->len = saved;
    if (p->buf != NULL) p->buf[saved] = '\0';
}

void koma__pcn_path_free(koma__pcn_path *p)
{
    free(p->buf);
    memset(p, 0, sizeof *p);
}

/* ---- the walk ----------------------------------------------------------------------- */

typedef struct walk {
    koma_pcn_walk_fn fn;
    void *ctx;
    koma__pcn_path path;
    int oom;                           /* the path could not grow */
} walk;

static int path_oom(walk *w)
{
    w->oom = 1;
    return -1;
}

static int visit(walk *w, json_t *v, const char *key, size_t key_len, size_t index,
                 size_t depth)
{
    koma_pcn_node n;
    koma__pcn_value_of(v, &n.value);
    n.pointer = w->path.buf;
    n.pointer_len = w->path.len;
    n.key = key;
    n.key_len = key_len;
    n.index = index;
    n.depth = depth;
    int container = json_is_object(v) || json_is_array(v);
    n.step = container ? KOMA_PCN_OPEN : KOMA_PCN_LEAF;
    int rc = w->fn(w->ctx, &n);
    if (rc != 0 || !container) return rc;
    size_t saved;
    if (json_is_object(v)) {
        size_t i = 0;
        for (void *it = json_object_iter(v); it != NULL; it = json_object_iter_next(v, it), i++) {
            const char *k = json_object_iter_key(it);
            size_t kl = json_object_iter_key_len(it);
            if (koma__pcn_path_key(&w->path, k, kl, &saved) != 0) return path_oom(w);
            rc = visit(w, json_object_iter_value(it), k, kl, i, depth + 1);
            koma__pcn_path_pop(&w->path, saved);
            if (rc != 0) return rc;
        }
    } else {
        size_t len = json_array_size(v);
        for (size_t i = 0; i < len; i++) {
            if (koma__pcn_path_index(&w->path, i, &saved) != 0) return path_oom(w);
            rc = visit(w, json_array_get(v, i), NULL, 0, i, depth + 1);
            koma__pcn_path_pop(&w->path, saved);
            if (rc != 0) return rc;
        }
    }
    n.step = KOMA_PCN_CLOSE;           /* the pointer buffer may have moved */
    n.pointer = w->path.buf;
    return w->fn(w->ctx, &n);
}

int koma_pcn_walk(const koma_pcn *p, const char *pointer, koma_pcn_walk_fn fn, void *ctx,
                  koma_error *err)
{
    if (pointer == NULL) pointer = "";
    walk w = { fn, ctx, { NULL, 0, 0 }, 0 };
    int rc = -1;
    if (koma__pcn_path_set(&w.path, pointer, strlen(pointer)) != 0) w.oom = 1;
    else rc = visit(&w, p ? koma__pcn_resolve(p->root, pointer) : NULL, NULL, 0, 0, 0);
    koma__pcn_path_free(&w.path);
    if (w.oom) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    return rc;
}
