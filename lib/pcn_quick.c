/*
 * lib/pcn_quick.c — is a JSON record a valid PCN record? One pass over the text,
 * no tree (for validators: koma_pcn_parse with KOMA_PCN_CHECK_ONLY).
 *
 * The pass reads the JSON the way pcn_json.c's fast path does, its tokens from
 * util_json_scan.h (strings without escapes or control bytes, valid UTF-8;
 * non-negative integers of at most 18 digits without a leading zero; true,
 * false, null; at most QUICK_MAX_KEYS keys an object and QUICK_MAX_DEPTH levels)
 * and applies pcn_validate.c's rules to the members it knows, calling the same
 * parsers (FEEN, PMN, CGSN, result, date-time).
 * It answers 1 only when every rule holds; anything it does not read, and every
 * fault, gives 0, and the record then takes the full path (jansson, the tree,
 * koma__pcn_check), which decides and reports the first error (so a record's
 * diagnostic does not depend on this pass).
 * So the order of its checks does not matter: on a valid record all of them pass.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"
#include "util_json_alloc.h"
#include "util_json_scan.h"
#include "pcn_internal.h"
#include "pmn_internal.h"
#include <koma/cgsn.h>
#include <koma/feen.h>
#include <koma/pmn.h>

#define QUICK_MAX_KEYS 32
#define QUICK_MAX_DEPTH 32u                /* below KOMA_LIMIT_DEPTH */

typedef struct quick {
    const char *p, *end, *start;
    unsigned depth;
    unsigned flags;
    koma_position *pos;
    koma__pcn_light *light;        /* NULL: nothing collected */
    size_t cost;                   /* what the tree would take (tree_cost) */
    size_t longest;                /* the longest string or key */
    size_t widest;                 /* the most items of an array */
    int parsed;                    /* move: the last PMN read, parsed (light only) */
    koma_move move;
} quick;

/*
 * What the full path's tree would cost under its budget (KOMA_LIMIT_TREE,
 * pcn.memory.limit): the budget counts each block jansson holds at
 * koma__json_block_cost (util_json_alloc.h), so the pass adds up, for each
 * value, an upper bound of jansson 2.x's blocks: an object's struct and hash
 * buckets (8, doubling past the keys) and a pair a key; an array's struct and
 * table (8 items, doubling); a string's struct and copy; an integer's struct;
 * true, false and null are shared. A record whose bound passes the budget is
 * left to the full path, which measures it (without this bound the pass would
 * call valid a record of 16 MiB of {} that the tree refuses with
 * pcn.memory.limit).
 */
static size_t chunk(size_t n) { return koma__json_block_cost(n); }

static size_t pow2_at_least(size_t n)
{
    size_t p = 8;
    while (p < n) p *= 2;
    return p;
}

static void cost_add(quick *q, size_t bytes)
{
    q->cost = bytes > SIZE_MAX - q->cost ? SIZE_MAX : q->cost + bytes;
}

/* An object's struct and its 8 buckets; a member's pair (its key n bytes); a
 * string's struct and copy (n bytes). The walk and the quick ply form add these. */
static void cost_object(quick *q) { cost_add(q, chunk(96) + chunk(16 * 8)); }

static void cost_pair(quick *q, size_t n)
{
    cost_add(q, chunk(64 + n));
    if (n > q->longest) q->longest = n;
}

static void cost_string(quick *q, size_t n)
{
    cost_add(q, chunk(48) + chunk(n + 1));
    if (n > q->longest) q->longest = n;
}

/* Blocks held only while the tree is built: an array's old table as it grows,
 * the lexer's buffer (twice the longest token), the old buckets as a hash
 * grows (at most 32 keys) and some slack. */
static size_t transient_cost(const quick *q)
{
    return chunk(8 * pow2_at_least(q->widest) / 2) + 2 * chunk(q->longest + 3) +
           chunk(16 * pow2_at_least(QUICK_MAX_KEYS) / 2) + 4096;
}

/* What a member's value must be (pcn_validate.c's check_* functions). */
typedef enum want {
    W_ANY, W_STRING, W_UINT, W_INT, W_BOOL, W_DATETIME, W_FEEN, W_PMN, W_RESULT, W_STATUS,
    W_META, W_LINKS, W_LINK, W_PERIODS, W_PERIOD, W_SIDES, W_SIDE, W_SETUP, W_PLIES, W_PLY,
    W_OUTCOME, W_ROOT, W_OUTCOME_PLY
} want;

static void ws(quick *q) { q->p = koma__jscan_ws(q->p, q->end); }

/* q->p at '"': the string's bytes (util_json_scan.h); q->p past the closing
 * quote. 0 when the string is not of that kind. */
static int string(quick *q, const char **s, size_t *n) { return koma__jscan_string(&q->p, q->end, s, n); }

static int value(quick *q, want w);
static int string_ok(quick *q, want w, const char *s, size_t n);
static int collect(quick *q, want w, const char *s, size_t n);

/* q->p at '{': each member's value is read as member_want(w, key) asks. */
static want member_want(want w, const char *k, size_t n)
{
#define IS(lit) (n == sizeof(lit) - 1 && memcmp(k, lit, n) == 0)
    switch (w) {
    case W_ROOT:
        if (IS("meta")) return W_META;
        if (IS("links")) return W_LINKS;
        if (IS("periods")) return W_PERIODS;
        if (IS("sides")) return W_SIDES;
        if (IS("setup")) return W_SETUP;
        if (IS("plies")) return W_PLIES;
        if (IS("outcome")) return W_OUTCOME;
        return W_ANY;
    case W_META:
        if (IS("name") || IS("event") || IS("site") || IS("round")) return W_STRING;
        if (IS("started_at")) return W_DATETIME;
        return W_ANY;
    case W_LINK: return IS("rel") || IS("href") ? W_STRING : W_ANY;
    case W_PERIOD: return IS("duration_ms") || IS("increment_ms") || IS("plies") ? W_UINT : W_ANY;
    case W_SIDES: return IS("first") || IS("second") ? W_SIDE : W_ANY;
    case W_SIDE:
        if (IS("name") || IS("variant")) return W_STRING;
        return IS("elo") ? W_INT : W_ANY;
    case W_SETUP: return IS("feen") ? W_FEEN : W_ANY;
    case W_PLY:
        if (IS("pmn")) return W_PMN;
        if (IS("elapsed_ms")) return W_UINT;
        if (IS("assessment") || IS("comment")) return W_STRING;
        return IS("check") || IS("mate") ? W_BOOL : W_ANY;
    case W_OUTCOME:
        if (IS("result")) return W_RESULT;
        if (IS("status")) return W_STATUS;
        return IS("ply") ? W_OUTCOME_PLY : W_ANY;
    default: return W_ANY;
    }
#undef IS
}

/* The key an object of kind w must have (NULL: none). */
static const char *required_key(want w)
{
    switch (w) {
    case W_ROOT: return "setup";
    case W_PERIOD: return "duration_ms";
    case W_SETUP: return "feen";
    case W_PLY: return "pmn";
    default: return NULL;
    }
}

static int object(quick *q, want w)
{
    const char *keys[QUICK_MAX_KEYS];
    size_t lens[QUICK_MAX_KEYS], nkeys = 0;
    const char *req = required_key(w);
    int have_req = req == NULL;
    cost_object(q);
    q->p++;
    ws(q);
    if (q->p < q->end && *q->p == '}') {
        q->p++;
        return have_req;
    }
    for (;;) {
        const char *k;
        size_t n;
        if (q->p >= q->end || *q->p != '"' || nkeys == QUICK_MAX_KEYS || !string(q, &k, &n))
            return 0;
        for (size_t i = 0; i < nkeys; i++)
            if (lens[i] == n && memcmp(keys[i], k, n) == 0) return 0;     /* duplicate */
        keys[nkeys] = k;
        lens[nkeys++] = n;
        cost_pair(q, n);
        /* the referee reads meta.rule_options with koma_pcn_get: such a record
         * keeps its tree (KOMA_PCN_LIGHT) */
        if (w == W_META && q->light && n == 12 && memcmp(k, "rule_options", 12) == 0)
            q->light->tree_needed = 1;
        if (w == W_META && q->light && n == 6 && memcmp(k, "source", 6) == 0) q->light->has_source = 1;
        /* a claim the referee checks (outcome.csa: %KACHI, %JISHOGI): such a
         * record keeps its tree */
        if (w == W_OUTCOME && q->light && n == 3 && memcmp(k, "csa", 3) == 0) q->light->tree_needed = 1;
        if (req && !have_req && strlen(req) == n && memcmp(req, k, n) == 0) have_req = 1;
        ws(q);
        if (q->p >= q->end || *q->p != ':') return 0;
        q->p++;
        ws(q);
        if (!value(q, member_want(w, k, n))) return 0;
        ws(q);
        if (q->p >= q->end) return 0;
        if (*q->p == '}') break;
        if (*q->p != ',') return 0;
        q->p++;
        ws(q);
    }
    q->p++;
    if (nkeys > 8) cost_add(q, chunk(16 * pow2_at_least(nkeys)));   /* grown buckets */
    return have_req;
}

/* The next entry of the light record's ply table (grown), NULL out of memory. */
/* The table's first size from the text's length (a ply takes at least 14 bytes,
 * {"pmn":"*e5"},) within 128 and 4,096 plies: a usual record's plies fit it at
 * once, with no copy as it grows. 0, or -1 (no memory). */
static int ply_grow(koma__pcn_light *l, size_t text_len)
{
    size_t first = text_len / 14 + 1;
    first = first < 128 ? 128 : first > 4096 ? 4096 : first;
    size_t cap = l->cap ? l->cap * 2 : first;
    struct koma__pcn_span *v = realloc(l->plies, cap * sizeof *v);
    if (v == NULL) return -1;
    l->plies = v;
    l->cap = cap;
    return 0;
}

static inline struct koma__pcn_span *ply_slot(koma__pcn_light *l, size_t text_len)
{
    if (l->nplies == l->cap && ply_grow(l, text_len) != 0) return NULL;
    return &l->plies[l->nplies];
}

/* What object() and value() add for a ply {"pmn":"..."} (its PMN n bytes):
 * cost_object, cost_pair(3), cost_string(n). */
static inline size_t ply_cost(size_t n)
{
    return chunk(96) + chunk(16 * 8) + chunk(64 + 3) + chunk(48) + chunk(n + 1);
}

/*
 * A light record's ply whose PMN is s[0..n) (closed by a quote) kept in its ply
 * table: the move parsed (the usual forms inline, then the others read up to
 * the quote, then the grammar), a chain (a ',', which no move holds) read as a
 * chain. 1, or -1 when it is not valid or out of memory (the full path then
 * decides, and reports).
 */
/* A move of another form than the usual ones (out of line: the loop's
 * registers are the usual moves') */
static __attribute__((noinline)) int parse_other(const char *s, size_t n, koma_move *m)
{
    return koma__pmn_quick_quoted_rest(s, n, m) || koma__pmn_parse_grammar(s, n, m, NULL) == 0;
}

static inline __attribute__((always_inline)) int keep_ply(koma__pcn_light *l, const char *start, size_t text_len, const char *s, size_t n)
{
    struct koma__pcn_span *sp = ply_slot(l, text_len);
    if (sp == NULL) return -1;
    sp->off = (size_t)(s - start);
    sp->len = n;
    sp->parsed = koma__pmn_quick_usual((const unsigned char *)s, n, &sp->move) || parse_other(s, n, &sp->move);
    if (!sp->parsed && (memchr(s, ',', n) == NULL || koma_chain_parse(s, n, NULL, NULL) != 0)) return -1;
    l->nplies++;
    return 1;
}

/*
 * A ply written {"pmn":"..."} (no space, an ASCII string without escapes): the
 * common form, read without the object's walk. 1 read and checked (q->p past
 * it), 0 when it is not of that form (nothing consumed: the walk reads it), -1
 * when the PMN is not valid. A light record's move is parsed straight into its
 * ply table (what string_ok and collect do for it, in one step: keep_ply).
 */
static int ply_pmn_only(quick *q)
{
    const char *p = q->p, *end = q->end;
    if (end - p < 11 || memcmp(p, "{\"pmn\":\"", 8) != 0) return 0;
    const char *s = p + 8, *e = s;
    /* printable ASCII (0x20-0x7F) but the quote and the backslash, up to the quote */
#ifdef __SSE2__
    if (end - s >= 16) {
        /* the usual short move: its closing quote among the next 16 bytes */
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
        unsigned quote = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
        unsigned bad = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        if (quote) {
            unsigned at = (unsigned)__builtin_ctz(quote);
            if (bad & ((1u << at) - 1u)) return 0;
            e = s + at;
            goto closed;
        }
    }
#endif
    while (e < end && (unsigned char)(*e - 0x20) < 0x60 && *e != '"' && *e != '\\') e++;
    if (e == end || *e != '"') return 0;
#ifdef __SSE2__
closed:
#endif
    if (end - e < 2 || e[1] != '}') return 0;
    size_t n = (size_t)(e - s);
    cost_add(q, ply_cost(n));
    size_t most = n > 3 ? n : 3;
    if (most > q->longest) q->longest = most;
    koma__pcn_light *l = q->light;
    if (l && !(q->flags & KOMA_PCN_NO_PMN)) {
        /* one move (no chain: the same verdict), kept for the referee */
        if (keep_ply(l, q->start, (size_t)(q->end - q->start), s, n) < 0) return -1;
    } else if (!string_ok(q, W_PMN, s, n) || (l && !collect(q, W_PMN, s, n))) {
        return -1;
    }
    q->p = e + 2;
    return 1;
}

/*
 * A light record's plies from q->p (an item's first byte), for as long as each
 * is of ply_pmn_only's form with its closing quote among its first 16 bytes:
 * what ply_pmn_only and array's loop do for each, with the running figures
 * (where the pass is, its cost, the longest string, the items) in locals.
 * 0 (not valid: array's 0), 1 at the array's ']' (q->p there), or 2 at an
 * item of another form (q->p at its first byte: array's loop reads it and the
 * rest). *n counts the items read.
 */
static int light_plies(quick *q, size_t *n, size_t max_items)
{
    koma__pcn_light *l = q->light;
    const char *p = q->p, *end = q->end, *start = q->start;
    size_t add = 0, longest = q->longest, count = *n;
    int at = 2;
    for (;;) {
        /* {"pmn":" and 17 bytes: the quote among the first 16, a '}' after it */
        if (end - p < 8 + 17 || memcmp(p, "{\"pmn\":\"", 8) != 0) break;
        const char *s = p + 8;
        size_t len;
#ifdef __SSE2__
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
        unsigned quote = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
        unsigned bad = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        if (!quote) break;
        len = (size_t)__builtin_ctz(quote);
        if (bad & ((1u << len) - 1u)) break;
#else
        len = 0;
        while (len < 16 && (unsigned char)(s[len] - 0x20) < 0x60 && s[len] != '"' && s[len] != '\\') len++;
        if (len == 16 || s[len] != '"') break;
#endif
        if (s[len + 1] != '}') break;
        /* what ply_pmn_only adds and keeps for it */
        add += ply_cost(len);
        size_t most = len > 3 ? len : 3;
        if (most > longest) longest = most;
        if (keep_ply(l, start, (size_t)(end - start), s, len) < 0) {
            at = 0;
            break;
        }
        p = s + len + 2;
        /* array's loop: the item counted, then what follows it */
        if (++count > max_items) {
            at = 0;
            break;
        }
        if (end - p >= 2 && p[0] == ',' && p[1] == '{') {
            p++;                       /* (the usual: the next ply straight after) */
            continue;
        }
        p = koma__jscan_ws(p, end);
        if (p >= end) {
            at = 0;
            break;
        }
        if (*p == ']') {
            at = 1;
            break;
        }
        if (*p != ',') {
            at = 0;
            break;
        }
        p = koma__jscan_ws(p + 1, end);
    }
    q->p = p;
    cost_add(q, add);
    q->longest = longest;
    *n = count;
    return at;
}

static int array(quick *q, want item, size_t max_items)
{
    size_t n = 0;
    cost_add(q, chunk(64));                            /* the struct */
    q->p++;
    ws(q);
    if (q->p < q->end && *q->p == ']') {
        q->p++;
        cost_add(q, chunk(8 * 8));
        return 1;
    }
    int run = item == W_PLY && q->light && !(q->flags & KOMA_PCN_NO_PMN) && q->depth < QUICK_MAX_DEPTH
                  ? light_plies(q, &n, max_items) : 2;
    if (run == 0) return 0;
    for (; run == 2;) {
        int quick_ply = item == W_PLY && q->depth < QUICK_MAX_DEPTH ? ply_pmn_only(q) : 0;
        if (quick_ply < 0) return 0;
        if (++n > max_items || (!quick_ply && !value(q, item))) return 0;
        ws(q);
        if (q->p >= q->end) return 0;
        if (*q->p == ']') break;
        if (*q->p != ',') return 0;
        q->p++;
        ws(q);
    }
    q->p++;
    cost_add(q, chunk(8 * pow2_at_least(n)));          /* the table */
    if (n > q->widest) q->widest = n;
    return 1;
}

/* The last FEEN this thread's pass found valid, and under which FEEN flags (a
 * database's records mostly start from one position: read once, not again for
 * each record; whether a text is valid depends on the text and flags alone). */
#define FEEN_MEMO_MAX 160
static _Thread_local char feen_memo[FEEN_MEMO_MAX];
static _Thread_local size_t feen_memo_len;          /* 0: none */
static _Thread_local unsigned feen_memo_flags;

static int feen_ok(quick *q, const char *s, size_t n)
{
    unsigned fl = (q->flags & KOMA_PCN_FEEN_NORMALISE) ? KOMA_FEEN_NORMALISE : KOMA_FEEN_STRICT;
    if (n > 0 && n == feen_memo_len && fl == feen_memo_flags && memcmp(s, feen_memo, n) == 0) return 1;
    if (koma_feen_parse(s, n, fl, q->pos, NULL) != 0) return 0;
    if (n > 0 && n <= FEEN_MEMO_MAX) {
        memcpy(feen_memo, s, n);
        feen_memo_len = n;
        feen_memo_flags = fl;
    }
    return 1;
}

/* A string checked by one of the notation parsers. */
static int string_ok(quick *q, want w, const char *s, size_t n)
{
    switch (w) {
    case W_STRING: return 1;
    case W_DATETIME: return koma__pcn_datetime_ok(s, n);
    case W_FEEN: return feen_ok(q, s, n);
    case W_PMN: {
        if (q->flags & KOMA_PCN_NO_PMN) return 1;
        q->parsed = 0;
        if (q->light) {
            /* one move (no chain: the same verdict), kept for the referee; a
             * chain (a ',', which no move holds) is read as a chain */
            if (koma_pmn_parse(s, n, &q->move, NULL) == 0) {
                q->parsed = 1;
                return 1;
            }
            if (memchr(s, ',', n) == NULL) return 0;
        }
        return koma_chain_parse(s, n, NULL, NULL) == 0;
    }
    case W_RESULT: return koma__pcn_result_ok(s, n);
    case W_STATUS: {
        koma_status st;
        return koma_cgsn_parse(s, n, &st, NULL) == 0;
    }
    case W_ANY: return 1;
    default: return 0;                     /* a string where a container is due */
    }
}

/* Keep what the light accessors return (setup.feen, each ply's PMN, the outcome). */
static int collect(quick *q, want w, const char *s, size_t n)
{
    koma__pcn_light *l = q->light;
    size_t off = (size_t)(s - q->start);
    switch (w) {
    case W_FEEN: l->has_feen = 1; l->feen_off = off; l->feen_len = n; return 1;
    case W_RESULT: l->has_result = 1; l->result_off = off; l->result_len = n; return 1;
    case W_STATUS: l->has_status = 1; l->status_off = off; l->status_len = n; return 1;
    case W_PMN: {
        struct koma__pcn_span *sp = ply_slot(l, (size_t)(q->end - q->start));
        if (sp == NULL) return 0;              /* the full path decides (and reports) */
        sp->off = off;
        sp->len = n;
        sp->parsed = q->parsed;
        if (q->parsed) sp->move = q->move;
        l->nplies++;
        return 1;
    }
    default: return 1;
    }
}

static int value(quick *q, want w)
{
    if (q->p >= q->end) return 0;
    char c = *q->p;
    if (c == '"') {
        const char *s;
        size_t n;
        if (!string(q, &s, &n)) return 0;
        cost_string(q, n);
        return string_ok(q, w, s, n) && (!q->light || collect(q, w, s, n));
    }
    if (c == '{' || c == '[') {
        if (++q->depth > QUICK_MAX_DEPTH) return 0;
        int ok;
        if (c == '{') {
            switch (w) {
            case W_ANY: case W_META: case W_LINK: case W_PERIOD: case W_SIDES: case W_SIDE:
            case W_SETUP: case W_PLY: case W_OUTCOME: case W_ROOT:
                ok = object(q, w);
                if (ok && w == W_OUTCOME && q->light) q->light->has_outcome = 1;
                break;
            default: ok = 0;
            }
        } else {
            switch (w) {
            case W_ANY: ok = array(q, W_ANY, (size_t)-1); break;
            case W_LINKS: ok = array(q, W_LINK, (size_t)-1); break;
            case W_PERIODS: ok = array(q, W_PERIOD, (size_t)-1); break;
            case W_PLIES: ok = array(q, W_PLY, KOMA_LIMIT_PLIES); break;
            default: ok = 0;
            }
        }
        q->depth--;
        return ok;
    }
    if (c == 't' || c == 'f' || c == 'n') {
        if (!koma__jscan_word(&q->p, q->end, &c)) return 0;
        return w == W_ANY || (w == W_BOOL && c != 'n');
    }
    /* a non-negative integer (util_json_scan.h): an integer, a non-negative one */
    uint64_t v;
    if (!koma__jscan_uint(&q->p, q->end, &v)) return 0;
    cost_add(q, chunk(32));
    if (w == W_OUTCOME_PLY && q->light) {
        q->light->has_ply = 1;
        q->light->ply = v;
    }
    return w == W_ANY || w == W_UINT || w == W_INT || w == W_OUTCOME_PLY;
}

int koma__pcn_quick_check(const char *s, size_t len, unsigned flags, koma_position *scratch,
                          koma__pcn_light *light)
{
    if (len > KOMA_LIMIT_RECORD || scratch == NULL ||
        (flags & ~(KOMA_PCN_FEEN_NORMALISE | KOMA_PCN_NO_PMN | KOMA_PCN_AUTO | KOMA_PCN_CHECK_ONLY |
                   KOMA_PCN_LIGHT)))
        return 0;
    quick q = { s, s + len, s, 0, flags, scratch, light, 0, 0, 0, 0, {0} };
    ws(&q);
    if (q.p >= q.end || *q.p != '{') return 0;
    q.depth = 1;
    if (!object(&q, W_ROOT)) return 0;
    ws(&q);
    if (q.p != q.end) return 0;
    /* past the budget (or near it): the full path measures the tree */
    size_t t = transient_cost(&q);
    if (q.cost > KOMA_LIMIT_TREE || t > KOMA_LIMIT_TREE - q.cost) return 0;
    if (light == NULL) return 1;
    if (light->tree_needed) return 0;      /* the full path builds the tree */
    /* a shogi-world record's illegal-move ending: the referee reads meta.source */
    if (light->has_source && light->has_status && light->status_len == 11 &&
        memcmp(s + light->status_off, "illegalmove", 11) == 0)
        return 0;
    /* a time loss: the referee reads the clocks (periods, each ply's elapsed_ms) */
    if (light->has_status && light->status_len == 9 && memcmp(s + light->status_off, "timelimit", 9) == 0)
        return 0;
    /* the light record's text: a copy with each kept string NUL-ended (at its
     * closing quote) */
    light->text = malloc(len + 1);
    if (light->text == NULL) return 0;
    memcpy(light->text, s, len);
    light->text[len] = '\0';
    for (size_t i = 0; i < light->nplies; i++)
        light->text[light->plies[i].off + light->plies[i].len] = '\0';
    if (light->has_feen) {
        light->text[light->feen_off + light->feen_len] = '\0';
        light->feen = light->text + light->feen_off;
    }
    if (light->has_result) {
        light->text[light->result_off + light->result_len] = '\0';
        light->result = light->text + light->result_off;
    }
    if (light->has_status) {
        light->text[light->status_off + light->status_len] = '\0';
        light->status = light->text + light->status_off;
    }
    return 1;
}
