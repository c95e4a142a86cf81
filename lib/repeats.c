/*
 * lib/repeats.c — the table of positions seen (koma/repeats.h): an open-addressing
 * hash table of positions (each slot: key, occurrence count, first and last
 * occurrence), and per occurrence its `where` and the index of the next
 * occurrence of the same position, so each position's occurrences form a chain.
 * A generation number lets a reset forget every slot without clearing the table.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include <koma/repeats.h>
#include <koma/position.h>
#include <koma/feen.h>

#define NO_NEXT UINT32_MAX
#define SMALL_TABLE 4096               /* slots kept across a reset */

typedef struct slot {
    uint64_t key;
    uint32_t gen;                      /* the record it belongs to (0: never used) */
    uint32_t first, last, count;       /* occurrence indexes */
    int32_t info;                      /* index into infos, or -1 */
} slot;

typedef struct info {
    char fid[65];
    char *feen;
} info;

struct koma_repeats {
    slot *slots;
    size_t cap, used;                  /* cap: a power of two */
    uint32_t gen;
    uint32_t *next;                    /* per occurrence: the next of the same position */
    unsigned long *where;              /* per occurrence */
    size_t n, ncap;                    /* occurrences */
    info *infos;
    size_t ninfos, infocap;
    slot **listed;                     /* koma_repeats_list */
    size_t nlisted, listcap;
};

static int oom(koma_error *err)
{
    return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (positions)");
}

int koma_repeats_new(koma_repeats **out, koma_error *err)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL) return oom(err);
    (*out)->gen = 1;
    return 0;
}

static void free_infos(koma_repeats *t)
{
    for (size_t i = 0; i < t->ninfos; i++) free(t->infos[i].feen);
    t->ninfos = 0;
}

void koma_repeats_free(koma_repeats *t)
{
    if (t == NULL) return;
    free_infos(t);
    free(t->infos);
    free(t->slots);
    free(t->next);
    free(t->where);
    free(t->listed);
    free(t);
}

void koma_repeats_reset(koma_repeats *t)
{
    free_infos(t);
    t->n = 0;
    t->used = 0;
    t->nlisted = 0;
    if (t->cap > SMALL_TABLE) {
        /* a big record is gone: give the memory back */
        free(t->slots);
        t->slots = NULL;
        t->cap = 0;
    }
    if (++t->gen == 0) {
        if (t->slots) memset(t->slots, 0, t->cap * sizeof *t->slots);
        t->gen = 1;
    }
}

static size_t slot_find(const koma_repeats *t, uint64_t key)
{
    size_t mask = t->cap - 1, i = (size_t)(key ^ (key >> 29)) & mask;
    while (t->slots[i].gen == t->gen && t->slots[i].key != key) i = (i + 1) & mask;
    return i;
}

static int grow_table(koma_repeats *t)
{
    size_t ncap = t->cap ? t->cap * 2 : 64, ocap = t->cap;
    slot *old = t->slots, *ns = calloc(ncap, sizeof *ns);
    if (ns == NULL) return -1;
    t->slots = ns;
    t->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].gen == t->gen) t->slots[slot_find(t, old[i].key)] = old[i];
    free(old);
    return 0;
}

static int grow_occurrences(koma_repeats *t)
{
    size_t ncap = t->ncap ? t->ncap * 2 : 256;
    uint32_t *nx = realloc(t->next, ncap * sizeof *nx);
    if (nx == NULL) return -1;
    t->next = nx;
    unsigned long *w = realloc(t->where, ncap * sizeof *w);
    if (w == NULL) return -1;
    t->where = w;
    t->ncap = ncap;
    return 0;
}

int koma_repeats_add(koma_repeats *t, uint64_t key, unsigned long where, unsigned long *count,
                     koma_error *err)
{
    if (t->n >= UINT32_MAX - 1) return koma_error_set(err, KOMA_E_MEMORY, 0, "too many positions");
    if (t->n == t->ncap && grow_occurrences(t) != 0) return oom(err);
    if ((t->used + 1) * 2 > t->cap && grow_table(t) != 0) return oom(err);
    slot *sl = &t->slots[slot_find(t, key)];
    uint32_t idx = (uint32_t)t->n;
    if (sl->gen != t->gen) {
        sl->gen = t->gen;
        sl->key = key;
        sl->first = sl->last = idx;
        sl->count = 1;
        sl->info = -1;
        t->used++;
    } else {
        t->next[sl->last] = idx;
        sl->last = idx;
        sl->count++;
    }
    t->next[idx] = NO_NEXT;
    t->where[idx] = where;
    t->n++;
    if (count) *count = sl->count;
    return 0;
}

size_t koma_repeats_total(const koma_repeats *t) { return t->n; }

static slot *lookup(const koma_repeats *t, uint64_t key)
{
    if (t->cap == 0) return NULL;
    slot *sl = &t->slots[slot_find(t, key)];
    return sl->gen == t->gen ? sl : NULL;
}

int koma_repeats_attach_feen(koma_repeats *t, uint64_t key, const char *feen, size_t len,
                          const char *fid, koma_error *err)
{
    slot *sl = lookup(t, key);
    if (sl == NULL || sl->info >= 0) return 0;
    if (t->ninfos == t->infocap) {
        size_t ncap = t->infocap ? t->infocap * 2 : 16;
        info *ni = realloc(t->infos, ncap * sizeof *ni);
        if (ni == NULL) return oom(err);
        t->infos = ni;
        t->infocap = ncap;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) return oom(err);
    memcpy(copy, feen, len);
    copy[len] = '\0';
    info *in = &t->infos[t->ninfos];
    memcpy(in->fid, fid, 64);
    in->fid[64] = '\0';
    in->feen = copy;
    sl->info = (int32_t)t->ninfos++;
    return 0;
}

static void fill(const koma_repeats *t, const slot *sl, koma_repeat *out)
{
    out->key = sl->key;
    out->count = sl->count;
    out->first = t->where[sl->first];
    out->last = t->where[sl->last];
    out->feen = sl->info >= 0 ? t->infos[sl->info].feen : NULL;
    out->fid = sl->info >= 0 ? t->infos[sl->info].fid : NULL;
    out->cursor_ = sl->first;
}

static int cmp_first(const void *a, const void *b)
{
    const slot *x = *(const slot *const *)a, *y = *(const slot *const *)b;
    return x->first < y->first ? -1 : x->first > y->first;
}

int koma_repeats_list(koma_repeats *t, size_t *n, koma_error *err)
{
    size_t k = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].gen == t->gen && t->slots[i].count > 1 && t->slots[i].info >= 0) k++;
    if (k > t->listcap) {
        slot **l = realloc(t->listed, k * sizeof *l);
        if (l == NULL) return oom(err);
        t->listed = l;
        t->listcap = k;
    }
    k = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].gen == t->gen && t->slots[i].count > 1 && t->slots[i].info >= 0)
            t->listed[k++] = &t->slots[i];
    if (k) qsort(t->listed, k, sizeof *t->listed, cmp_first);
    t->nlisted = k;
    *n = k;
    return 0;
}

void koma_repeats_at(const koma_repeats *t, size_t i, koma_repeat *out)
{
    fill(t, t->listed[i], out);
}

int koma_repeats_find(const koma_repeats *t, uint64_t key, koma_repeat *out)
{
    const slot *sl = lookup(t, key);
    if (sl == NULL) return 0;
    fill(t, sl, out);
    return 1;
}

int koma_repeats_where(const koma_repeats *t, koma_repeat *r, unsigned long *where)
{
    if (r->cursor_ == NO_NEXT || r->cursor_ >= t->n) return 0;
    *where = t->where[r->cursor_];
    r->cursor_ = t->next[r->cursor_];
    return 1;
}

int koma_repeats_add_position(koma_repeats *t, koma_position *pos, unsigned long where,
                              koma_error *err)
{
    char feen[KOMA_FEEN_MAX_LEN + 1], fid[KOMA_FID_BUF];
    if (koma_position_strip_derived(pos, err) != 0) return -1;
    size_t len = koma_feen_write(pos, feen, sizeof feen);
    if (len == 0 || len >= sizeof feen)
        return koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, "the position's FEEN needs %zu bytes", len + 1);
    koma_fid_of(feen, len, fid);
    uint64_t key = 0;                  /* the FID's first 64 bits */
    for (int i = 0; i < 16; i++)
        key = (key << 4) | (uint64_t)(fid[i] <= '9' ? fid[i] - '0' : fid[i] - 'a' + 10);
    unsigned long count;
    if (koma_repeats_add(t, key, where, &count, err) != 0) return -1;
    return count == 2 ? koma_repeats_attach_feen(t, key, feen, len, fid, err) : 0;
}
