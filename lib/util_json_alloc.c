/*
 * lib/util_json_alloc.c — jansson's allocations (see util_json_alloc.h): failures
 * counted per thread, the budget of the record being read, and the blocks
 * whose cost the C library cannot tell back.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util_json_alloc.h"
#include "util_json_emit.h"

#include <koma/koma.h>

/* The allocator jansson had before ours (set once); whether its blocks have a
 * usable size to read (it is the C library's malloc); this thread's count of
 * its failures. */
static json_malloc_t jansson_malloc;
static json_free_t jansson_free;
static int usable_known;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;
static _Thread_local unsigned long jansson_failures;

/* The budget of the record being read in this thread (koma__json_budget_start). */
static _Thread_local size_t budget_left, budget_max;
static _Thread_local int budget_on, budget_hit;
/* The text jansson reads under a budget, fed in small pieces so that the
 * offset reached when the budget ran out is known (budget_at). */
typedef struct feed {
    const char *text;
    size_t len, pos;
} feed;
#define FEED_PIECE 64
static _Thread_local const feed *budget_feed;
static _Thread_local size_t budget_at;

#define CHUNK_HEADER sizeof(size_t)    /* the C library's size word beside each block */

/* ---- blocks whose cost must be remembered --------------------------------------------- */

/*
 * A block allocated under a budget gives back its cost when freed. For nearly
 * every block the C library's usable size tells it (usable size and size word
 * = koma__json_block_cost of the size asked for); the others (a larger chunk
 * than the model's, any block of an allocator whose usable size is unknown)
 * are kept here, this thread's, with their cost, until they are freed. There
 * are few with the C library's malloc: a few dozen in a 16 MiB record.
 * Open addressing, linear probing, deletion by backward shift; the table is
 * the C library's memory, outside the budget, and goes when it is empty
 * outside a budget.
 */
typedef struct odd_block {
    const void *p;
    size_t cost;
} odd_block;
static _Thread_local odd_block *odd;
static _Thread_local size_t odd_cap, odd_count;     /* odd_cap: 0 or a power of two */

static size_t odd_home(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p >> 4;
    h *= UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h ^ (h >> 31)) & (cap - 1);
}

/* Put p's cost in the table t of cap slots; 1 when p was not there yet. */
static int odd_place(odd_block *t, size_t cap, const void *p, size_t cost)
{
    size_t i = odd_home(p, cap);
    while (t[i].p != NULL && t[i].p != p) i = (i + 1) & (cap - 1);
    int added = t[i].p == NULL;
    t[i].p = p;
    t[i].cost = cost;
    return added;
}

/* The table goes when nothing is in it (and no budget is on to refill it). */
static void odd_release(void)
{
    free(odd);
    odd = NULL;
    odd_cap = 0;
}

/* Remember p's cost; -1 when the table cannot grow. */
static int odd_put(const void *p, size_t cost)
{
    if ((odd_count + 1) * 2 > odd_cap) {
        size_t cap = odd_cap ? odd_cap * 2 : 64;
        if (cap > SIZE_MAX / 2 / sizeof *odd) return -1;
        odd_block *t = calloc(cap, sizeof *t);
        if (t == NULL) return -1;
        for (size_t i = 0; i < odd_cap; i++)
            if (odd[i].p != NULL) odd_place(t, cap, odd[i].p, odd[i].cost);
        free(odd);
        odd = t;
        odd_cap = cap;
    }
    odd_count += (size_t)odd_place(odd, odd_cap, p, cost);
    return 0;
}

/* 1 with *cost when p was remembered (it is forgotten), else 0. */
static int odd_take(const void *p, size_t *cost)
{
    if (odd_count == 0) return 0;
    size_t mask = odd_cap - 1, i = odd_home(p, odd_cap);
    while (odd[i].p != p) {
        if (odd[i].p == NULL) return 0;
        i = (i + 1) & mask;
    }
    *cost = odd[i].cost;
    /* close the gap: an entry further on moves back into it unless its home
     * lies (cyclically) after the gap, up to where it is */
    for (size_t j = (i + 1) & mask; odd[j].p != NULL; j = (j + 1) & mask) {
        size_t home = odd_home(odd[j].p, odd_cap);
        int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (stays) continue;
        odd[i] = odd[j];
        i = j;
    }
    odd[i].p = NULL;
    if (--odd_count == 0 && !budget_on) odd_release();
    return 1;
}

/* ---- the allocator jansson calls ------------------------------------------------------ */

static void *refuse(void)
{
    if (!budget_hit) budget_at = budget_feed ? budget_feed->pos : 0;
    budget_hit = 1;
    return NULL;
}

static void *counting_malloc(size_t n)
{
    size_t cost = koma__json_block_cost(n);
    if (budget_on && cost > budget_left) return refuse();
    void *p = jansson_malloc(n);
    if (p == NULL) {
        jansson_failures++;
        return NULL;
    }
    if (budget_on) {
        size_t stale;
        if (!usable_known || malloc_usable_size(p) + CHUNK_HEADER != cost) {
            if (odd_put(p, cost) != 0) {
                jansson_free(p);
                jansson_failures++;
                return NULL;
            }
        } else {
            /* an entry left by a block freed in another thread */
            (void)odd_take(p, &stale);
        }
        budget_left -= cost;
    }
    return p;
}

static void counting_free(void *p)
{
    if (p == NULL) return;
    size_t cost = 0;
    int known = odd_take(p, &cost);
    if (budget_on) {
        if (!known && usable_known) cost = malloc_usable_size(p) + CHUNK_HEADER;
        budget_left = cost > budget_max - budget_left ? budget_max : budget_left + cost;
    }
    jansson_free(p);
}

static void hook_install(void)
{
    json_get_alloc_funcs(&jansson_malloc, &jansson_free);
    if (jansson_malloc == NULL || jansson_free == NULL) {
        jansson_malloc = malloc;
        jansson_free = free;
    }
    usable_known = jansson_malloc == malloc && jansson_free == free;
    json_set_alloc_funcs(counting_malloc, counting_free);
}

void koma_json_init(void) { pthread_once(&hook_once, hook_install); }

/* ---- the budget ----------------------------------------------------------------------- */

void koma__json_budget_start(size_t bytes)
{
    koma_json_init();
    budget_left = budget_max = bytes;
    budget_hit = 0;
    budget_on = 1;
}

int koma__json_budget_hit(void) { return budget_hit; }

size_t koma__json_budget_left(void) { return budget_left; }

size_t koma__json_budget_where(void) { return budget_at; }

int koma__json_budget_stop(void)
{
    budget_on = 0;
    if (odd_count == 0) odd_release();
    return budget_hit;
}

/* ---- reading and writing -------------------------------------------------------------- */

static size_t feed_piece(void *buf, size_t n, void *data)
{
    feed *f = data;
    size_t k = f->len - f->pos;
    if (k > FEED_PIECE) k = FEED_PIECE;
    if (k > n) k = n;
    memcpy(buf, f->text + f->pos, k);
    f->pos += k;
    return k;
}

json_t *koma__json_loadb(const char *text, size_t len, size_t flags, json_error_t *jerr, int *oom)
{
    koma_json_init();
    unsigned long before = jansson_failures;
    json_t *v;
    if (budget_on) {
        feed f = { text, len, 0 };
        budget_feed = &f;
        v = json_load_callback(feed_piece, &f, flags, jerr);
        budget_feed = NULL;
    } else {
        v = json_loadb(text, len, flags, jerr);
    }
    *oom = jansson_failures != before ||
           (v == NULL && !budget_hit && json_error_code(jerr) == json_error_out_of_memory);
    if (*oom && v != NULL) {
        json_decref(v);
        v = NULL;
    }
    return v;
}

typedef struct sticky {
    koma__json_sink sink;
    void *ctx;
    int failed;
} sticky;

static int sticky_piece(const char *data, size_t len, void *ctx)
{
    sticky *s = ctx;
    if (s->failed) return -1;
    if (s->sink(s->ctx, data, len) != 0) s->failed = 1;
    return s->failed ? -1 : 0;
}

int koma__json_dump(const json_t *v, size_t flags, koma__json_sink sink, void *ctx,
                    int *sink_failed)
{
#if JANSSON_VERSION_HEX >= 0x020e00
    /* the compact form, ordered: written here (util_json_emit.h), the same bytes */
    size_t other = JSON_INDENT(31) | JSON_SORT_KEYS | JSON_ENSURE_ASCII | JSON_ESCAPE_SLASH | JSON_EMBED;
    if ((flags & JSON_COMPACT) && (flags & JSON_PRESERVE_ORDER) && !(flags & other) &&
        (v == NULL || (flags & JSON_ENCODE_ANY) || json_is_object(v) || json_is_array(v))) {
        int rc = koma__json_emit_compact(v, sink, ctx);
        if (rc <= 0) {
            if (sink_failed) *sink_failed = rc != 0;
            return rc;
        }
    }
#endif
    koma_json_init();
    unsigned long before = jansson_failures;
    sticky s = { sink, ctx, 0 };
    int rc = json_dump_callback(v, sticky_piece, &s, flags);
    if (sink_failed) *sink_failed = s.failed;
    return rc != 0 || s.failed || jansson_failures != before ? -1 : 0;
}
