/*
 * lib/ggn.c — GGN documents: load and validate (jansson), build, write
 * (koma-formats(5), GGN); the pseudo-legal move query is
 * lib/ggn_moves.c.
 *
 * A document is held as nested arrays in document order:
 *   pieces[] -> sources[] -> destinations[] -> possibilities[]
 * and every possibility refers to its must and deny conditions in one pool.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "internal.h"
#include "util_json_alloc.h"
#include "util_json_pos.h"
#include "ggn_internal.h"

/* ---- small helpers ---------------------------------------------------------- */

/* Make room for `need` elements of size `elem` in *p (capacity *cap). */
static int reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t ncap = *cap ? *cap : 4;
    while (ncap < need) {
        if (ncap > ((size_t)-1 / 2) / elem) return -1;
        ncap *= 2;
    }
    void *np = realloc(*p, ncap * elem);
    if (np == NULL) return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

static int qpi_valid(const koma_qpi *q)
{
    koma_piece p = q->piece;
    unsigned letter = p & KOMA_PIECE_LETTER;
    if (!KOMA_IS_ALPHA(q->style)) return 0;
    if (letter < 1 || letter > 26) return 0;
    if (p & ~(koma_piece)(KOMA_PIECE_LETTER | KOMA_PIECE_SECOND | KOMA_PIECE_STATE |
                          KOMA_PIECE_TERMINAL))
        return 0;
    if ((p & KOMA_PIECE_STATE) == KOMA_PIECE_STATE) return 0;
    return (KOMA_IS_LOWER(q->style) != 0) == ((p & KOMA_PIECE_SECOND) != 0);
}

static int location_valid(const koma_location *l)
{
    return l->hand || (l->cell.ndims >= 1 && l->cell.ndims <= KOMA_CELL_MAX_DIMS);
}

static void free_contents(koma_ggn *g)
{
    for (size_t i = 0; i < g->n; i++) {
        ggn_piece *pc = &g->pieces[i];
        for (size_t j = 0; j < pc->n; j++) {
            ggn_src *s = &pc->srcs[j];
            for (size_t k = 0; k < s->n; k++) free(s->dsts[k].poss);
            free(s->dsts);
        }
        free(pc->srcs);
    }
    free(g->pieces);
    free(g->conds);
}

void koma_ggn_free(koma_ggn *g)
{
    if (g == NULL) return;
    free_contents(g);
    free(g);
}

static koma_ggn *new_ggn(koma_error *err)
{
    koma_ggn *g = calloc(1, sizeof *g);
    if (g == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    koma_error_clear(err);
    return g;
}

int koma_ggn_new(koma_ggn **out, koma_error *err)
{
    return KOMA__MADE(out, new_ggn(err));
}

/* ---- validation context ---------------------------------------------------- */

#define PATH_MAX_DEPTH 6           /* piece / source / destination / index / must / cell */

typedef struct vctx {
    const char *text;
    size_t len;
    koma_error *err;
    int depth;
    const char *tok[PATH_MAX_DEPTH];
    size_t toklen[PATH_MAX_DEPTH];
    size_t index[PATH_MAX_DEPTH];
    int is_index[PATH_MAX_DEPTH];
} vctx;

static void path_key(vctx *v, const char *key, size_t len)
{
    v->tok[v->depth] = key;
    v->toklen[v->depth] = len;
    v->is_index[v->depth] = 0;
    v->depth++;
}

static void path_index(vctx *v, size_t i)
{
    v->index[v->depth] = i;
    v->is_index[v->depth] = 1;
    v->depth++;
}

static const char *json_type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: return "null";
    }
    return "a value";
}

/*
 * Report an error at the current path: at the member name when at_key, else at
 * the value. The message is "WHAT at POINTER" followed by EXTRA (may be "").
 */
static int verr(vctx *v, koma_code code, int at_key, const char *what, const char *extra)
{
    size_t cap = 1;
    for (int i = 0; i < v->depth; i++) cap += v->is_index[i] ? 24 : 1 + 2 * v->toklen[i];
    char *ptr = malloc(cap);
    size_t offset = 0;
    char shown[160];
    if (ptr == NULL) {
        return koma_error_set(v->err, KOMA_E_MEMORY, 0, NULL);   /* not the data's fault */
    } else {
        size_t plen = 0;
        ptr[0] = '\0';
        for (int i = 0; i < v->depth; i++) {
            if (v->is_index[i]) koma__json_pointer_index(ptr, cap, &plen, v->index[i]);
            else koma__json_pointer_push(ptr, cap, &plen, v->tok[i], v->toklen[i]);
        }
        if (at_key) koma__json_locate_key(v->text, v->len, ptr, &offset);
        else koma__json_locate(v->text, v->len, ptr, &offset);
        koma_quote(shown, sizeof shown, ptr, plen);
        free(ptr);
    }
    return koma__json_error_at(v->err, code, v->text, v->len, offset, "%s at %s%s", what,
                               shown, extra ? extra : "");
}

static int verr_type(vctx *v, const char *expected, const json_t *got)
{
    char extra[64];
    snprintf(extra, sizeof extra, ", got %s", json_type_name(got));
    return verr(v, KOMA_E_GGN_TYPE, 0, expected, extra);
}

static int verr_reason(vctx *v, koma_code code, int at_key, const char *what, koma_code why)
{
    char extra[128];
    snprintf(extra, sizeof extra, ": %s", koma_strerror(why));
    return verr(v, code, at_key, what, extra);
}

/* ---- loading ------------------------------------------------------------------ */

static int load_lcn(vctx *v, koma_ggn *g, const json_t *obj, size_t *start, size_t *count)
{
    if (!json_is_object(obj)) return verr_type(v, "expected an object (LCN)", obj);
    size_t n = json_object_size(obj);
    if (reserve((void **)&g->conds, &g->condcap, g->nconds + n, sizeof *g->conds) != 0)
        return koma_error_set(v->err, KOMA_E_MEMORY, 0, NULL);
    *start = g->nconds;
    *count = 0;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        size_t klen = strlen(key);
        koma_lcn c;
        koma_error sub;
        memset(&c, 0, sizeof c);
        path_key(v, key, klen);
        if (klen == 1 && key[0] == '*')
            return verr(v, KOMA_E_GGN_LCN_KEY, 1, "invalid LCN key",
                        ": the hand \"*\" is not a CELL");
        if (koma_cell_parse(key, klen, &c.cell, &sub) != 0)
            return verr_reason(v, KOMA_E_GGN_LCN_KEY, 1, "invalid LCN key", sub.code);
        if (!json_is_string(val)) {
            char extra[64];
            snprintf(extra, sizeof extra, ": %s, not a string", json_type_name(val));
            return verr(v, KOMA_E_GGN_LCN_VALUE, 0, "invalid LCN value", extra);
        }
        const char *s = json_string_value(val);
        size_t slen = json_string_length(val);
        if (slen == 5 && memcmp(s, "empty", 5) == 0) {
            c.kind = KOMA_LCN_EMPTY;
        } else if (slen == 5 && memcmp(s, "enemy", 5) == 0) {
            c.kind = KOMA_LCN_ENEMY;
        } else if (koma_qpi_parse(s, slen, &c.piece, &sub) == 0) {
            c.kind = KOMA_LCN_PIECE;
        } else {
            char quoted[64], extra[160];
            koma_quote(quoted, sizeof quoted, s, slen);
            if (memchr(s, ':', slen) != NULL)
                snprintf(extra, sizeof extra, ": \"%s\": %s", quoted, koma_strerror(sub.code));
            else
                snprintf(extra, sizeof extra, ": \"%s\" is not \"empty\", \"enemy\" or a QPI",
                         quoted);
            return verr(v, KOMA_E_GGN_LCN_VALUE, 0, "invalid LCN value", extra);
        }
        g->conds[g->nconds++] = c;
        (*count)++;
        v->depth--;
    }
    return 0;
}

static int load_possibility(vctx *v, koma_ggn *g, const json_t *obj, ggn_poss *out)
{
    memset(out, 0, sizeof *out);
    out->must = out->deny = g->nconds;
    if (!json_is_object(obj)) {
        char extra[64];
        snprintf(extra, sizeof extra, ", got %s", json_type_name(obj));
        return verr(v, KOMA_E_GGN_POSSIBILITY, 0, "possibility is not an object", extra);
    }
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        size_t klen = strlen(key);
        path_key(v, key, klen);
        int rc;
        if (strcmp(key, "must") == 0)
            rc = load_lcn(v, g, val, &out->must, &out->nmust);
        else if (strcmp(key, "deny") == 0)
            rc = load_lcn(v, g, val, &out->deny, &out->ndeny);
        else
            rc = verr(v, KOMA_E_GGN_KEY, 1, "unknown possibility key",
                      " (only \"must\" and \"deny\")");
        if (rc != 0) return rc;
        v->depth--;
    }
    return 0;
}

static int load_location(vctx *v, const char *key, size_t klen, koma_location *out,
                         const char *what)
{
    koma_error sub;
    if (koma_location_parse(key, klen, out, &sub) != 0)
        return verr_reason(v, KOMA_E_GGN_LOCATION, 1, what, sub.code);
    return 0;
}

static int load_sources(vctx *v, koma_ggn *g, const json_t *obj, ggn_piece *pc)
{
    if (!json_is_object(obj)) return verr_type(v, "expected an object (sources)", obj);
    size_t n = json_object_size(obj);
    if (n > 0 && (pc->srcs = calloc(n, sizeof *pc->srcs)) == NULL)
        return koma_error_set(v->err, KOMA_E_MEMORY, 0, NULL);
    pc->cap = n;
    const char *skey;
    json_t *sval;
    json_object_foreach((json_t *)obj, skey, sval) {
        ggn_src *s = &pc->srcs[pc->n];
        size_t sklen = strlen(skey);
        path_key(v, skey, sklen);
        if (load_location(v, skey, sklen, &s->loc, "invalid source location") != 0) return -1;
        if (!json_is_object(sval)) return verr_type(v, "expected an object (destinations)", sval);
        pc->n++;
        size_t nd = json_object_size(sval);
        if (nd > 0 && (s->dsts = calloc(nd, sizeof *s->dsts)) == NULL)
            return koma_error_set(v->err, KOMA_E_MEMORY, 0, NULL);
        s->cap = nd;
        const char *dkey;
        json_t *dval;
        json_object_foreach(sval, dkey, dval) {
            ggn_dst *d = &s->dsts[s->n];
            size_t dklen = strlen(dkey);
            path_key(v, dkey, dklen);
            if (load_location(v, dkey, dklen, &d->loc, "invalid destination location") != 0)
                return -1;
            if (s->loc.hand && d->loc.hand)
                return verr(v, KOMA_E_GGN_HAND_TO_HAND, 1, "hand to hand (\"*\" to \"*\")", "");
            if (!json_is_array(dval))
                return verr_type(v, "expected an array (possibilities)", dval);
            s->n++;
            size_t np = json_array_size(dval);
            if (np > 0 && (d->poss = calloc(np, sizeof *d->poss)) == NULL)
                return koma_error_set(v->err, KOMA_E_MEMORY, 0, NULL);
            d->cap = np;
            for (size_t i = 0; i < np; i++) {
                path_index(v, i);
                if (load_possibility(v, g, json_array_get(dval, i), &d->poss[i]) != 0) return -1;
                d->n++;
                g->nposs++;
                v->depth--;
            }
            v->depth--;
        }
        v->depth--;
    }
    return 0;
}

static int load_root(vctx *v, koma_ggn *g, const json_t *root)
{
    if (!json_is_object(root)) {
        char msg[96];
        snprintf(msg, sizeof msg, "the document is %s, not an object", json_type_name(root));
        size_t offset = 0;
        koma__json_locate(v->text, v->len, "", &offset);
        return koma__json_error_at(v->err, KOMA_E_GGN_TYPE, v->text, v->len, offset, "%s", msg);
    }
    size_t n = json_object_size(root);
    if (n > 0 && (g->pieces = calloc(n, sizeof *g->pieces)) == NULL)
        return koma_error_set(v->err, KOMA_E_MEMORY, 0, NULL);
    g->cap = n;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)root, key, val) {
        ggn_piece *pc = &g->pieces[g->n];
        size_t klen = strlen(key);
        koma_error sub;
        path_key(v, key, klen);
        if (koma_qpi_parse(key, klen, &pc->qpi, &sub) != 0)
            return verr_reason(v, KOMA_E_GGN_PIECE, 1, "invalid QPI key", sub.code);
        g->n++;
        if (load_sources(v, g, val, pc) != 0) return -1;
        v->depth--;
    }
    return 0;
}

static koma_ggn *load_ggn(const char *text, size_t len, koma_error *err)
{
    if (text == NULL) text = "";
    koma_error_clear(err);
    if (len > KOMA_RECORD_MAX) {
        koma__json_error_at(err, KOMA_E_GGN_SIZE, text, len, KOMA_RECORD_MAX,
                            "GGN document exceeds 16 MiB (%zu bytes)", len);
        return NULL;
    }
    size_t deep;
    if (koma__json_depth(text, len, KOMA_JSON_DEPTH_MAX, &deep) != 0 &&
        koma__json_limit_first(text, deep, NULL)) {
        koma__json_error_at(err, KOMA_E_GGN_DEPTH, text, len, deep,
                            "JSON nesting exceeds %u levels", KOMA_JSON_DEPTH_MAX);
        return NULL;
    }
    json_error_t jerr;
    int oom;
    json_t *root = koma__json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr, &oom);
    if (oom) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    if (root == NULL) {
        koma_code code = json_error_code(&jerr) == json_error_duplicate_key ? KOMA_E_GGN_DUPLICATE
                                                                            : KOMA_E_GGN_JSON;
        koma__json_error(err, code, text, len, &jerr);
        return NULL;
    }
    koma_ggn *g = calloc(1, sizeof *g);
    if (g == NULL) {
        json_decref(root);
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    vctx v;
    memset(&v, 0, sizeof v);
    v.text = text;
    v.len = len;
    v.err = err;
    int rc = load_root(&v, g, root);
    json_decref(root);
    if (rc != 0) {
        koma_ggn_free(g);
        return NULL;
    }
    return g;
}

int koma_ggn_load(const char *text, size_t len, koma_ggn **out, koma_error *err)
{
    return KOMA__MADE(out, load_ggn(text, len, err));
}

/* ---- building --------------------------------------------------------------- */

static int lcn_valid(const koma_lcn *c, size_t n, koma_error *err, const char *which)
{
    for (size_t i = 0; i < n; i++) {
        if (c[i].cell.ndims < 1 || c[i].cell.ndims > KOMA_CELL_MAX_DIMS)
            return koma_error_set(err, KOMA_E_GGN_LCN_KEY, 0, "invalid LCN cell in %s", which);
        if (c[i].kind != KOMA_LCN_EMPTY && c[i].kind != KOMA_LCN_ENEMY &&
            c[i].kind != KOMA_LCN_PIECE)
            return koma_error_set(err, KOMA_E_GGN_LCN_VALUE, 0, "invalid LCN kind in %s", which);
        if (c[i].kind == KOMA_LCN_PIECE && !qpi_valid(&c[i].piece))
            return koma_error_set(err, KOMA_E_GGN_LCN_VALUE, 0, "invalid LCN QPI in %s", which);
        for (size_t j = 0; j < i; j++)
            if (koma_cell_equal(&c[i].cell, &c[j].cell)) {
                char t[KOMA_CELL_BUF];
                koma_cell_write(&c[i].cell, t);
                return koma_error_set(err, KOMA_E_GGN_DUPLICATE, 0,
                                      "cell \"%s\" twice in %s", t, which);
            }
    }
    return 0;
}

int koma_ggn_add(koma_ggn *g, const koma_qpi *piece, const koma_location *src,
                 const koma_location *dst, const koma_lcn *must, size_t nmust,
                 const koma_lcn *deny, size_t ndeny, koma_error *err)
{
    if (g == NULL || piece == NULL || src == NULL || dst == NULL ||
        (nmust > 0 && must == NULL) || (ndeny > 0 && deny == NULL))
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_ggn_add: missing argument");
    if (!qpi_valid(piece)) return koma_error_set(err, KOMA_E_GGN_PIECE, 0, NULL);
    if (!location_valid(src) || !location_valid(dst))
        return koma_error_set(err, KOMA_E_GGN_LOCATION, 0, NULL);
    if (src->hand && dst->hand) return koma_error_set(err, KOMA_E_GGN_HAND_TO_HAND, 0, NULL);
    if (lcn_valid(must, nmust, err, "must") != 0 || lcn_valid(deny, ndeny, err, "deny") != 0)
        return -1;

    /* Find what exists (searching from the end: builders usually append in order). */
    ggn_piece *pc = NULL;
    ggn_src *s = NULL;
    ggn_dst *d = NULL;
    for (size_t i = g->n; i-- > 0;)
        if (koma__qpi_equal(&g->pieces[i].qpi, piece)) { pc = &g->pieces[i]; break; }
    if (pc != NULL)
        for (size_t i = pc->n; i-- > 0;)
            if (koma__location_equal(&pc->srcs[i].loc, src)) { s = &pc->srcs[i]; break; }
    if (s != NULL)
        for (size_t i = s->n; i-- > 0;)
            if (koma__location_equal(&s->dsts[i].loc, dst)) { d = &s->dsts[i]; break; }

    /* Reserve everything first, so that a failure leaves g as it was. */
    if (nmust + ndeny > (size_t)-1 / 2 - g->nconds ||
        reserve((void **)&g->conds, &g->condcap, g->nconds + nmust + ndeny, sizeof *g->conds))
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    ggn_src *new_srcs = NULL;
    ggn_dst *new_dsts = NULL;
    ggn_poss *new_poss = NULL;
    if (d != NULL) {
        if (reserve((void **)&d->poss, &d->cap, d->n + 1, sizeof *d->poss) != 0)
            return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    } else {
        new_poss = malloc(4 * sizeof *new_poss);
        if (new_poss == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        if (s != NULL) {
            if (reserve((void **)&s->dsts, &s->cap, s->n + 1, sizeof *s->dsts) != 0) goto oom;
        } else {
            new_dsts = malloc(4 * sizeof *new_dsts);
            if (new_dsts == NULL) goto oom;
            if (pc != NULL) {
                if (reserve((void **)&pc->srcs, &pc->cap, pc->n + 1, sizeof *pc->srcs) != 0)
                    goto oom;
            } else {
                new_srcs = malloc(4 * sizeof *new_srcs);
                if (new_srcs == NULL) goto oom;
                if (reserve((void **)&g->pieces, &g->cap, g->n + 1, sizeof *g->pieces) != 0)
                    goto oom;
            }
        }
    }

    /* Commit. */
    if (pc == NULL) {
        pc = &g->pieces[g->n++];
        memset(pc, 0, sizeof *pc);
        pc->qpi = *piece;
        pc->srcs = new_srcs;
        pc->cap = 4;
    }
    if (s == NULL) {
        s = &pc->srcs[pc->n++];
        memset(s, 0, sizeof *s);
        s->loc = *src;
        s->dsts = new_dsts;
        s->cap = 4;
    }
    if (d == NULL) {
        d = &s->dsts[s->n++];
        memset(d, 0, sizeof *d);
        d->loc = *dst;
        d->poss = new_poss;
        d->cap = 4;
    }
    ggn_poss *p = &d->poss[d->n++];
    p->must = g->nconds;
    p->nmust = nmust;
    if (nmust) memcpy(g->conds + g->nconds, must, nmust * sizeof *must);
    g->nconds += nmust;
    p->deny = g->nconds;
    p->ndeny = ndeny;
    if (ndeny) memcpy(g->conds + g->nconds, deny, ndeny * sizeof *deny);
    g->nconds += ndeny;
    g->nposs++;
    koma_error_clear(err);
    return 0;
oom:
    free(new_srcs);
    free(new_dsts);
    free(new_poss);
    return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
}

/* ---- reading -------------------------------------------------------------------- */

size_t koma_ggn_piece_count(const koma_ggn *g) { return g ? g->n : 0; }
size_t koma_ggn_possibility_count(const koma_ggn *g) { return g ? g->nposs : 0; }

int koma_ggn_foreach(const koma_ggn *g, koma_ggn_entry_fn fn, void *ctx)
{
    if (g == NULL || fn == NULL) return 0;
    for (size_t i = 0; i < g->n; i++) {
        const ggn_piece *pc = &g->pieces[i];
        for (size_t j = 0; j < pc->n; j++) {
            const ggn_src *s = &pc->srcs[j];
            for (size_t k = 0; k < s->n; k++) {
                const ggn_dst *d = &s->dsts[k];
                koma_ggn_entry e;
                memset(&e, 0, sizeof e);
                e.piece = pc->qpi;
                e.source = s->loc;
                e.destination = d->loc;
                e.count = d->n;
                if (d->n == 0) {
                    int rc = fn(ctx, &e);
                    if (rc != 0) return rc;
                }
                for (size_t m = 0; m < d->n; m++) {
                    const ggn_poss *p = &d->poss[m];
                    e.index = m;
                    e.must = koma__ggn_conds(g, p->must);
                    e.nmust = p->nmust;
                    e.deny = koma__ggn_conds(g, p->deny);
                    e.ndeny = p->ndeny;
                    int rc = fn(ctx, &e);
                    if (rc != 0) return rc;
                }
            }
        }
    }
    return 0;
}

/* ---- equality --------------------------------------------------------------------- */

static int lcn_equal(const koma_lcn *a, const koma_lcn *b)
{
    return koma_cell_equal(&a->cell, &b->cell) && a->kind == b->kind &&
           (a->kind != KOMA_LCN_PIECE || koma__qpi_equal(&a->piece, &b->piece));
}

/* Two LCN maps as sets (cells are unique within one map). */
static int lcn_set_equal(const koma_lcn *a, size_t na, const koma_lcn *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t i = 0; i < na; i++) {
        if (lcn_equal(&a[i], &b[i])) continue;
        size_t j;
        for (j = 0; j < nb; j++)
            if (koma_cell_equal(&a[i].cell, &b[j].cell)) break;
        if (j == nb || !lcn_equal(&a[i], &b[j])) return 0;
    }
    return 1;
}

static int dst_equal(const koma_ggn *ga, const ggn_dst *a, const koma_ggn *gb, const ggn_dst *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        const ggn_poss *p = &a->poss[i], *q = &b->poss[i];
        if (!lcn_set_equal(koma__ggn_conds(ga, p->must), p->nmust, koma__ggn_conds(gb, q->must), q->nmust) ||
            !lcn_set_equal(koma__ggn_conds(ga, p->deny), p->ndeny, koma__ggn_conds(gb, q->deny), q->ndeny))
            return 0;
    }
    return 1;
}

static int src_equal(const koma_ggn *ga, const ggn_src *a, const koma_ggn *gb, const ggn_src *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        const ggn_dst *m = NULL;
        if (koma__location_equal(&a->dsts[i].loc, &b->dsts[i].loc)) m = &b->dsts[i];
        for (size_t j = 0; m == NULL && j < b->n; j++)
            if (koma__location_equal(&a->dsts[i].loc, &b->dsts[j].loc)) m = &b->dsts[j];
        if (m == NULL || !dst_equal(ga, &a->dsts[i], gb, m)) return 0;
    }
    return 1;
}

static int piece_equal(const koma_ggn *ga, const ggn_piece *a, const koma_ggn *gb,
                       const ggn_piece *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        const ggn_src *m = NULL;
        if (koma__location_equal(&a->srcs[i].loc, &b->srcs[i].loc)) m = &b->srcs[i];
        for (size_t j = 0; m == NULL && j < b->n; j++)
            if (koma__location_equal(&a->srcs[i].loc, &b->srcs[j].loc)) m = &b->srcs[j];
        if (m == NULL || !src_equal(ga, &a->srcs[i], gb, m)) return 0;
    }
    return 1;
}

int koma_ggn_equal(const koma_ggn *a, const koma_ggn *b)
{
    if (a == NULL || b == NULL) return a == b;
    if (a->n != b->n || a->nposs != b->nposs) return 0;
    for (size_t i = 0; i < a->n; i++) {
        const ggn_piece *m = NULL;
        if (koma__qpi_equal(&a->pieces[i].qpi, &b->pieces[i].qpi)) m = &b->pieces[i];
        for (size_t j = 0; m == NULL && j < b->n; j++)
            if (koma__qpi_equal(&a->pieces[i].qpi, &b->pieces[j].qpi)) m = &b->pieces[j];
        if (m == NULL || !piece_equal(a, &a->pieces[i], b, m)) return 0;
    }
    return 1;
}

/* ---- writing ------------------------------------------------------------------------ */

typedef struct writer {
    char buf[4096];
    size_t n;
    koma_write_fn sink;
    void *ctx;
    int failed;                        /* the sink's non-zero value */
    int pretty;
} writer;

static void w_flush(writer *w)
{
    if (w->n > 0 && !w->failed) w->failed = w->sink(w->ctx, w->buf, w->n);
    w->n = 0;
}

static void w_put(writer *w, const char *s, size_t len)
{
    while (len > 0) {
        if (w->n == sizeof w->buf) w_flush(w);
        size_t k = sizeof w->buf - w->n;
        if (k > len) k = len;
        memcpy(w->buf + w->n, s, k);
        w->n += k;
        s += k;
        len -= k;
    }
}

static void w_str(writer *w, const char *s) { w_put(w, s, strlen(s)); }

/* Newline and indentation (pretty) before an item at `depth`. */
static void w_nl(writer *w, int depth)
{
    if (!w->pretty) return;
    w_put(w, "\n", 1);
    for (int i = 0; i < depth; i++) w_put(w, "  ", 2);
}

/* Opening of member `"key":` at depth (first: no comma). */
static void w_key(writer *w, int depth, int first, const char *key)
{
    if (!first) w_put(w, ",", 1);
    w_nl(w, depth);
    w_put(w, "\"", 1);
    w_str(w, key);
    w_str(w, w->pretty ? "\": " : "\":");
}

static void w_location(char buf[KOMA_CELL_BUF], const koma_location *l)
{
    if (l->hand) { buf[0] = '*'; buf[1] = '\0'; }
    else koma_cell_write(&l->cell, buf);
}

static void w_lcn(writer *w, int depth, const koma_lcn *c, size_t n)
{
    if (n == 0) { w_str(w, "{}"); return; }
    w_put(w, "{", 1);
    for (size_t i = 0; i < n; i++) {
        char cell[KOMA_CELL_BUF];
        koma_cell_write(&c[i].cell, cell);
        w_key(w, depth + 1, i == 0, cell);
        if (c[i].kind == KOMA_LCN_EMPTY) {
            w_str(w, "\"empty\"");
        } else if (c[i].kind == KOMA_LCN_ENEMY) {
            w_str(w, "\"enemy\"");
        } else {
            char q[KOMA_QPI_BUF];
            koma_qpi_write(&c[i].piece, q);
            w_put(w, "\"", 1);
            w_str(w, q);
            w_put(w, "\"", 1);
        }
    }
    w_nl(w, depth);
    w_put(w, "}", 1);
}

static void w_doc(writer *w, const koma_ggn *g)
{
    if (g->n == 0) { w_str(w, "{}"); return; }
    w_put(w, "{", 1);
    for (size_t i = 0; i < g->n; i++) {
        const ggn_piece *pc = &g->pieces[i];
        char q[KOMA_QPI_BUF];
        koma_qpi_write(&pc->qpi, q);
        w_key(w, 1, i == 0, q);
        if (pc->n == 0) { w_str(w, "{}"); continue; }
        w_put(w, "{", 1);
        for (size_t j = 0; j < pc->n; j++) {
            const ggn_src *s = &pc->srcs[j];
            char loc[KOMA_CELL_BUF];
            w_location(loc, &s->loc);
            w_key(w, 2, j == 0, loc);
            if (s->n == 0) { w_str(w, "{}"); continue; }
            w_put(w, "{", 1);
            for (size_t k = 0; k < s->n; k++) {
                const ggn_dst *d = &s->dsts[k];
                w_location(loc, &d->loc);
                w_key(w, 3, k == 0, loc);
                if (d->n == 0) { w_str(w, "[]"); continue; }
                w_put(w, "[", 1);
                for (size_t m = 0; m < d->n; m++) {
                    const ggn_poss *p = &d->poss[m];
                    if (m > 0) w_put(w, ",", 1);
                    w_nl(w, 4);
                    w_put(w, "{", 1);
                    w_key(w, 5, 1, "must");
                    w_lcn(w, 5, koma__ggn_conds(g, p->must), p->nmust);
                    w_key(w, 5, 0, "deny");
                    w_lcn(w, 5, koma__ggn_conds(g, p->deny), p->ndeny);
                    w_nl(w, 4);
                    w_put(w, "}", 1);
                }
                w_nl(w, 3);
                w_put(w, "]", 1);
            }
            w_nl(w, 2);
            w_put(w, "}", 1);
        }
        w_nl(w, 1);
        w_put(w, "}", 1);
    }
    w_nl(w, 0);
    w_put(w, "}", 1);
}

int koma_ggn_write(const koma_ggn *g, unsigned flags, koma_write_fn sink, void *ctx,
                   koma_error *err)
{
    if (g == NULL || sink == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_ggn_write: missing argument");
    writer *w = malloc(sizeof *w);
    if (w == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    w->n = 0;
    w->sink = sink;
    w->ctx = ctx;
    w->failed = 0;
    w->pretty = (flags & KOMA_GGN_PRETTY) != 0;
    w_doc(w, g);
    w_put(w, "\n", 1);
    w_flush(w);
    int failed = w->failed;
    free(w);
    if (failed) {
        koma_error_set(err, KOMA_E_IO_WRITE, 0, NULL);
        return failed;
    }
    koma_error_clear(err);
    return 0;
}

typedef struct strbuf {
    char *s;
    size_t n, cap;
} strbuf;

static int strbuf_sink(void *ctx, const char *s, size_t len)
{
    strbuf *b = ctx;
    if (len > (size_t)-1 - b->n - 1) return -1;
    if (reserve((void **)&b->s, &b->cap, b->n + len + 1, 1) != 0) return -1;
    memcpy(b->s + b->n, s, len);
    b->n += len;
    b->s[b->n] = '\0';
    return 0;
}

static char *dump_ggn(const koma_ggn *g, unsigned flags, size_t *len, koma_error *err)
{
    strbuf b = { NULL, 0, 0 };
    if (koma_ggn_write(g, flags, strbuf_sink, &b, err) != 0) {
        free(b.s);
        if (err != NULL && err->code == KOMA_E_IO_WRITE) err->code = KOMA_E_MEMORY;
        if (err != NULL && err->code == KOMA_E_MEMORY)
            snprintf(err->message, sizeof err->message, "%s", koma_strerror(KOMA_E_MEMORY));
        return NULL;
    }
    if (len) *len = b.n;
    return b.s;
}

int koma_ggn_dump(const koma_ggn *g, unsigned flags, size_t *len, char **out, koma_error *err)
{
    return KOMA__MADE(out, dump_ggn(g, flags, len, err));
}
