/*
 * lib/pcn_diff.c — two PCN records compared key by key and ply by ply (the work
 * of koma-diff(1), in the library): see koma/pcn.h for the order of the report.
 * Rule-free: moves are compared as PMN moves and applied with the protocol-level
 * applier (pmn_apply.c) only to show the position where the move lists part.
 */
#include <stdlib.h>
#include <string.h>

#include "pcn_internal.h"
#include <koma/feen.h>
#include <koma/pmn.h>

typedef struct cmp {
    koma_pcn_diff *d;
    koma__pcn_path *path;
    koma_pcn_diff_fn fn;
    void *ctx;
    int stop;                          /* fn's non-zero value: the comparison stops */
} cmp;

static int scalar_equal(const koma_pcn_value *x, const koma_pcn_value *y)
{
    if (x->type != y->type) return 0;
    switch (x->type) {
    case KOMA_PCN_ABSENT:
    case KOMA_PCN_NULL: return 1;
    case KOMA_PCN_BOOL: return !x->boolean == !y->boolean;
    case KOMA_PCN_INTEGER: return x->integer == y->integer;
    case KOMA_PCN_REAL: return x->real == y->real;
    case KOMA_PCN_STRING: return x->len == y->len && memcmp(x->string, y->string, x->len) == 0;
    default: return x->len == 0 && y->len == 0;     /* empty containers */
    }
}

/* FEEN s into pos: 1 when it is one, 0 when not, -1 when out of memory (not to be
 * read as a FEEN that is none: the position would be reported unknown). */
static int parse_feen(const char *s, size_t len, koma_position *pos)
{
    koma_error e;
    koma_error_clear(&e);
    if (koma_feen_parse(s, len, KOMA_FEEN_STRICT, pos, &e) == 0) return 1;
    return e.code == KOMA_E_MEMORY ? -1 : 0;
}

/* A differing value at the current pointer. -1 when out of memory or when fn
 * stops the comparison (c->stop). */
static int report(cmp *c, const koma_pcn_value *va, const koma_pcn_value *vb)
{
    koma_pcn_diff *d = c->d;
    d->members++;
    if (c->fn == NULL) return 0;
    koma_pcn_member_diff m;
    m.pointer = c->path->buf;
    m.pointer_len = c->path->len;
    m.type[0] = va->type;
    m.type[1] = vb->type;
    m.setup[0] = m.setup[1] = NULL;
    /* setup.feen: the positions too, for a square-by-square report */
    if (strcmp(m.pointer, "/setup/feen") == 0 && va->type == KOMA_PCN_STRING &&
        vb->type == KOMA_PCN_STRING) {
        int ka = parse_feen(va->string, va->len, &d->before[0]);
        int kb = ka == 1 ? parse_feen(vb->string, vb->len, &d->before[1]) : 0;
        if (ka < 0 || kb < 0) return -1;
        if (kb == 1) {
            m.setup[0] = &d->before[0];
            m.setup[1] = &d->before[1];
        }
    }
    c->stop = c->fn(c->ctx, &m);
    return c->stop != 0 ? -1 : 0;
}

static int is_nonempty(const koma_pcn_value *v, koma_pcn_type t)
{
    return v->type == t && v->len > 0;
}

static int fits(const koma_pcn_value *v, koma_pcn_type t)
{
    return v->type == t || v->type == KOMA_PCN_ABSENT;
}

static int is_skipped(const char *skip, const char *k, size_t kl)
{
    return skip != NULL && strlen(skip) == kl && memcmp(skip, k, kl) == 0;
}

/* Compare a and b (either may be NULL: absent) below the current pointer; `skip`
 * (may be NULL) is a member of this object left out. -1 when out of memory. */
static int compare(cmp *c, json_t *a, json_t *b, const char *skip)
{
    koma_pcn_value va, vb;
    koma__pcn_value_of(a, &va);
    koma__pcn_value_of(b, &vb);
    size_t saved;
    if (fits(&va, KOMA_PCN_OBJECT) && fits(&vb, KOMA_PCN_OBJECT) &&
        (is_nonempty(&va, KOMA_PCN_OBJECT) || is_nonempty(&vb, KOMA_PCN_OBJECT))) {
        /* a's members in a's order, then b's members a lacks (order is ignored) */
        for (int side = 0; side < 2; side++) {
            json_t *obj = side ? b : a;
            if (!json_is_object(obj)) continue;
            for (void *it = json_object_iter(obj); it; it = json_object_iter_next(obj, it)) {
                const char *k = json_object_iter_key(it);
                size_t kl = json_object_iter_key_len(it);
                if (is_skipped(skip, k, kl)) continue;
                json_t *in_a = json_is_object(a) ? json_object_getn(a, k, kl) : NULL;
                if (side && in_a != NULL) continue;
                json_t *in_b = side ? json_object_iter_value(it)
                                    : json_is_object(b) ? json_object_getn(b, k, kl) : NULL;
                if (koma__pcn_path_key(c->path, k, kl, &saved) != 0) return -1;
                int r = compare(c, in_a, in_b, NULL);
                koma__pcn_path_pop(c->path, saved);
                if (r != 0) return r;
            }
        }
        return 0;
    }
    if (fits(&va, KOMA_PCN_ARRAY) && fits(&vb, KOMA_PCN_ARRAY) &&
        (is_nonempty(&va, KOMA_PCN_ARRAY) || is_nonempty(&vb, KOMA_PCN_ARRAY))) {
        size_t n = va.type == KOMA_PCN_ARRAY ? va.len : 0;
        if (vb.type == KOMA_PCN_ARRAY && vb.len > n) n = vb.len;
        for (size_t i = 0; i < n; i++) {
            if (koma__pcn_path_index(c->path, i, &saved) != 0) return -1;
            int r = compare(c, json_array_get(a, i), json_array_get(b, i), NULL);
            koma__pcn_path_pop(c->path, saved);
            if (r != 0) return r;
        }
        return 0;
    }
    if (!scalar_equal(&va, &vb)) return report(c, &va, &vb);
    return 0;
}

/* Ply i of p as a move, a pieceless drop resolved against pos when known. */
static int ply_move(const koma_pcn *p, size_t i, const koma_position *pos, int known,
                    koma_move *m)
{
    size_t len;
    const char *s = koma_pcn_ply_pmn(p, i, &len);
    if (s == NULL || koma_pmn_parse(s, len, m, NULL) != 0) return -1;
    if (known && (m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP) &&
        m->piece == KOMA_PIECE_NONE)
        koma_pmn_resolve(pos, m, NULL);
    return 0;
}

/* The setup position of p into pos (*known: it is one); -1 when out of memory. */
static int set_setup(const koma_pcn *p, koma_position *pos, int *known)
{
    size_t len;
    const char *feen = koma_pcn_setup_feen(p, &len);
    *known = 0;
    if (feen == NULL) return 0;
    int r = parse_feen(feen, len, pos);
    *known = r == 1;
    return r < 0 ? -1 : 0;
}

static int compare_plies(cmp *c, const koma_pcn *a, const koma_pcn *b)
{
    koma_pcn_diff *d = c->d;
    const koma_pcn *rec[2] = {a, b};
    json_t *plies[2];
    for (int k = 0; k < 2; k++) {
        d->plies[k] = koma_pcn_ply_count(rec[k]);
        plies[k] = json_object_get(rec[k]->root, "plies");
        if (set_setup(rec[k], &d->before[k], &d->known[k]) != 0) return -1;
    }
    size_t i = 0, saved;
    for (; i < d->plies[0] && i < d->plies[1]; i++) {
        koma_move m[2];
        int r[2], same;
        for (int k = 0; k < 2; k++) r[k] = ply_move(rec[k], i, &d->before[k], d->known[k], &m[k]);
        if (r[0] == 0 && r[1] == 0) {
            same = koma_move_equal(&m[0], &m[1]);
        } else {
            size_t l0, l1;
            const char *s0 = koma_pcn_ply_pmn(a, i, &l0), *s1 = koma_pcn_ply_pmn(b, i, &l1);
            same = s0 && s1 && l0 == l1 && memcmp(s0, s1, l0) == 0;
        }
        if (!same) break;
        /* the same move: compare its other members (elapsed_ms, comment, ...) */
        if (koma__pcn_path_key(c->path, "plies", 5, &saved) != 0) return -1;
        size_t s2;
        if (koma__pcn_path_index(c->path, i, &s2) != 0) return -1;
        int rc = compare(c, json_array_get(plies[0], i), json_array_get(plies[1], i), "pmn");
        koma__pcn_path_pop(c->path, saved);
        if (rc != 0) return rc;
        for (int k = 0; k < 2; k++) {
            if (!d->known[k]) continue;
            koma_error e;
            koma_error_clear(&e);
            if (r[k] == 0 && koma_move_apply(&d->before[k], &m[k], &e) == 0) continue;
            if (e.code == KOMA_E_MEMORY) return -1;   /* not a move that cannot be applied */
            d->known[k] = 0;
        }
    }
    if (i == d->plies[0] && i == d->plies[1]) return 0;
    d->ply = i + 1;
    for (int k = 0; k < 2; k++) {
        if (i < d->plies[k]) d->pmn[k] = koma_pcn_ply_pmn(rec[k], i, &d->pmn_len[k]);
        if (d->known[k]) koma_feen_write(&d->before[k], d->feen[k], sizeof d->feen[k]);
    }
    d->same_position =
        d->known[0] && d->known[1] && koma_position_equal(&d->before[0], &d->before[1]);
    return 0;
}

void koma_pcn_diff_init(koma_pcn_diff *d)
{
    memset(d, 0, sizeof *d);
    koma_position_init(&d->before[0]);
    koma_position_init(&d->before[1]);
}

void koma_pcn_diff_cleanup(koma_pcn_diff *d)
{
    if (d == NULL) return;
    koma_position_cleanup(&d->before[0]);
    koma_position_cleanup(&d->before[1]);
    if (d->priv_ != NULL) {
        koma__pcn_path_free(d->priv_);
        free(d->priv_);
    }
    d->priv_ = NULL;
}

int koma_pcn_diff_compare(koma_pcn_diff *d, const koma_pcn *a, const koma_pcn *b,
                          koma_pcn_diff_fn fn, void *ctx, koma_error *err)
{
    d->members = d->ply = 0;
    d->plies[0] = d->plies[1] = d->pmn_len[0] = d->pmn_len[1] = 0;
    d->pmn[0] = d->pmn[1] = NULL;
    d->known[0] = d->known[1] = d->same_position = 0;
    d->feen[0][0] = d->feen[1][0] = '\0';
    if (d->priv_ == NULL && (d->priv_ = calloc(1, sizeof(koma__pcn_path))) == NULL)
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    cmp c = { d, d->priv_, fn, ctx, 0 };
    if (koma__pcn_path_set(c.path, "", 0) != 0 ||
        compare(&c, a->root, b->root, "plies") != 0 || compare_plies(&c, a, b) != 0)
        return c.stop != 0 ? c.stop : koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    return d->members > 0 || d->ply > 0;
}
