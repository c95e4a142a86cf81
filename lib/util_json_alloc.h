/*
 * lib/util_json_alloc.h — jansson's allocations (internal to libkoma; not installed):
 * reading and writing with out of memory told apart from bad JSON, and the
 * memory budget of one record (koma(7), LIMITS: pcn.memory.limit).
 */
#ifndef KOMA_UTIL_JSON_ALLOC_H
#define KOMA_UTIL_JSON_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

/*
 * json_loadb, with out of memory told apart from invalid JSON. jansson reports
 * an allocation that failed inside its parser as a syntax error ("invalid
 * token"), or not at all, and may even lose bytes of a string it could not
 * grow; so every allocation jansson makes goes through a wrapper of the
 * allocator it had (installed once, process-wide, by the first call), which
 * counts failures per thread. *oom is 1 when any allocation failed during this
 * call: the result is then NULL whatever jansson returned.
 */
json_t *koma__json_loadb(const char *text, size_t len, size_t flags, json_error_t *jerr, int *oom);

/*
 * json_dump_callback, with a failure that sticks: jansson ignores what its
 * callback returns in places (a key of an object written with
 * JSON_PRESERVE_ORDER), so a sink that failed once (a buffer that could not
 * grow, a full disk) would see the next pieces written after a gap, a record
 * with a key left out presented as valid. Here, once sink fails every later
 * piece fails too and the dump fails. Returns 0, or -1 with *sink_failed (if
 * not NULL) 1 when the sink failed, 0 when jansson itself ran out of memory.
 */
typedef int (*koma__json_sink)(void *ctx, const char *data, size_t len);
int koma__json_dump(const json_t *v, size_t flags, koma__json_sink sink, void *ctx,
                    int *sink_failed);

/*
 * What the budget charges for a block of n bytes that jansson asks for: the
 * chunk the GNU C library's malloc takes for it on a 64-bit system (n and a
 * size word, rounded up to 16 bytes, 32 at least). It is a model, not a
 * reading: the chunk a malloc really hands out may be larger, depending on
 * what the heap held before (a remainder too small to split off, a block
 * mapped on pages of its own), and a count of real chunks would make where a
 * record passes its budget depend on the heap's history. pcn_quick.c adds up
 * the same costs.
 */
static inline size_t koma__json_block_cost(size_t n)
{
    if (n > SIZE_MAX - 23) return SIZE_MAX;
    return n + 23 < 32 ? 32 : (n + 23) & ~(size_t)15;
}

/*
 * The memory one record's tree may take (koma(7), LIMITS): between
 * koma__json_budget_start(bytes) and koma__json_budget_stop(), this thread's
 * jansson blocks are counted at koma__json_block_cost of their size when
 * allocated and given back at the same cost when freed, so the count is the
 * cost of the blocks the record holds, a function of the record alone; an
 * allocation that would pass the budget fails without being counted as out
 * of memory. koma__json_budget_hit() and koma__json_budget_stop() say whether
 * one did. A block allocated before the budget started and freed under it
 * gives back what it holds (the count never goes below zero).
 */
void koma__json_budget_start(size_t bytes);
int koma__json_budget_hit(void);
int koma__json_budget_stop(void);
/* What the budget has left now (for tests: a tree built and freed under a
 * budget gives all of it back). */
size_t koma__json_budget_left(void);
/* Under a budget, koma__json_loadb feeds jansson the text 64 bytes at a time:
 * the offset it had been given when the budget ran out (0 if unknown). */
size_t koma__json_budget_where(void);

#endif
