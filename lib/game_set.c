/*
 * lib/game_set.c — the caller-owned set of games, looked up by id or by style
 * letter + board shape.
 *
 * A new set holds the built-in games uncompiled: their ids, styles and boards
 * (koma__games_index, read from the definitions at build time) are all a lookup
 * reads, and a game is compiled (game.c) the first time a lookup returns it. A
 * tool replaying one record compiles the one game it plays, not all seven.
 * Compiling is done once per set and game whatever the threads: the first to
 * finish publishes its game with an atomic compare-and-swap, a thread that
 * lost the race frees its copy and takes the published one (libkoma(3), THREAD
 * SAFETY: a set is read by any number of threads at once).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "game_internal.h"
#include "games_embedded.h"

typedef struct slot {
    koma_game *game;                   /* read and set atomically; NULL: a built-in not
                                          compiled yet */
    int builtin;                       /* index in koma__embedded_games, -1: loaded */
    struct koma__game_key key;         /* what lookups read (key.id: the game's or the
                                          index's) */
} slot;

struct koma_game_set {
    slot *slots;
    size_t len, cap;
    koma_game **retired;               /* built-ins replaced by a load, variants: kept
                                          until the end */
    size_t nretired, capretired;
};

static void key_of(struct koma__game_key *k, const koma_game *g)
{
    k->id = g->id;
    k->style = g->style;
    memcpy(k->styles, g->styles, sizeof k->styles);
    k->files = g->files;
    k->ranks = g->ranks;
    k->by_feen = g->by_feen;
}

/* The game of slot i, compiled now if it is a built-in not compiled yet; NULL
 * with err (memory) when it cannot be. */
static const koma_game *slot_game(const koma_game_set *set, size_t i, koma_error *err)
{
    slot *s = &set->slots[i];
    koma_game *g = __atomic_load_n(&s->game, __ATOMIC_ACQUIRE);
    if (g != NULL) return g;
    koma_game *fresh;
    if (koma__game_load_builtin(&koma__embedded_games[s->builtin], &fresh, err) != 0) return NULL;
    koma_game *seen = NULL;
    if (__atomic_compare_exchange_n(&s->game, &seen, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return fresh;
    koma__game_free(fresh);            /* another thread compiled it first */
    return seen;
}

static int retire(koma_game_set *set, koma_game *g, koma_error *err)
{
    if (set->nretired == set->capretired) {
        size_t cap = set->capretired ? set->capretired * 2 : 4;
        koma_game **r = realloc(set->retired, cap * sizeof *r);
        if (r == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (games)");
        set->retired = r;
        set->capretired = cap;
    }
    set->retired[set->nretired++] = g;
    return 0;
}

static int grow(koma_game_set *set, size_t need, koma_error *err)
{
    if (need <= set->cap) return 0;
    size_t cap = set->cap ? set->cap * 2 : 8;
    if (cap < need) cap = need;
    slot *s = realloc(set->slots, cap * sizeof *s);
    if (s == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (games)");
    set->slots = s;
    set->cap = cap;
    return 0;
}

/*
 * Add g to the set. A game with the id of a built-in replaces it (the built-in,
 * if compiled, is kept, unlisted, until the set is freed, so a pointer to it
 * stays valid); a game with the id of one loaded before is game.duplicate, at
 * the id in the YAML of g (source names it).
 */
static int set_add(koma_game_set *set, koma_game *g, const char *source, koma_error *err)
{
    for (size_t i = 0; i < set->len; i++) {
        slot *s = &set->slots[i];
        if (strcmp(s->key.id, g->id) != 0) continue;
        if (s->builtin < 0) {
            if (err) {
                koma_error_set(err, KOMA_E_GAME_DUPLICATE, g->id_offset,
                               "a game with id \"%s\" is already loaded (only a built-in game "
                               "can be replaced)", g->id);
                err->line = g->id_line;
                err->column = g->id_column;
                err->source = source;
            }
            return -1;
        }
        if (s->game != NULL && retire(set, s->game, err) != 0) return -1;
        s->game = g;
        s->builtin = -1;
        key_of(&s->key, g);
        return 0;
    }
    if (grow(set, set->len + 1, err) != 0) return -1;
    slot *s = &set->slots[set->len++];
    s->game = g;
    s->builtin = -1;
    key_of(&s->key, g);
    return 0;
}

int koma_game_set_new(koma_game_set **out, koma_error *err)
{
    *out = NULL;
    koma_game_set *set = calloc(1, sizeof *set);
    if (set == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (games)");
    size_t n = 0;
    while (koma__embedded_games[n].id) n++;
    if (grow(set, n, err) != 0) {
        free(set);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        set->slots[i] = (slot){NULL, (int)i, koma__games_index[i]};
    set->len = n;
    *out = set;
    return 0;
}

int koma_game_set_load_all(const koma_game_set *set, koma_error *err)
{
    for (size_t i = 0; i < set->len; i++)
        if (slot_game(set, i, err) == NULL) return -1;
    return 0;
}

void koma_game_set_free(koma_game_set *set)
{
    if (set == NULL) return;
    for (size_t i = 0; i < set->len; i++) koma__game_free(set->slots[i].game);
    for (size_t i = 0; i < set->nretired; i++) koma__game_free(set->retired[i]);
    free(set->slots);
    free(set->retired);
    free(set);
}

int koma_game_set_load(koma_game_set *set, const char *yaml, size_t len, const char *source,
                       const koma_game **out, koma_error *err)
{
    koma_game *g;
    if (out) *out = NULL;
    if (koma__game_load_text(yaml, len, source, &g, err) != 0) return -1;
    if (set_add(set, g, source, err) != 0) {
        koma__game_free(g);
        return -1;
    }
    if (out) *out = g;
    return 0;
}

#define GAME_FILE_MAX KOMA_LIMIT_GAME_FILE

int koma_game_set_load_file(koma_game_set *set, const char *path, const koma_game **out,
                            koma_error *err)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        char why[128];
        koma_error_set(err, KOMA_E_IO_OPEN, 0, "cannot open %s: %s", path, koma__strerror(errno, why, sizeof why));
        if (err) err->source = path;
        return -1;
    }
    char *buf = malloc(GAME_FILE_MAX + 1);
    if (buf == NULL) {
        fclose(f);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory");
    }
    size_t n = fread(buf, 1, GAME_FILE_MAX + 1, f);
    int bad = ferror(f);
    fclose(f);
    int rc;
    if (bad) {
        rc = koma_error_set(err, KOMA_E_IO_READ, 0, "cannot read %s", path);
        if (err) err->source = path;
    } else if (n > GAME_FILE_MAX) {
        rc = koma_error_set(err, KOMA_E_GAME_LIMIT, 0, "game definition exceeds 1 MiB");
        if (err) err->source = path;
    } else {
        rc = koma_game_set_load(set, buf, n, path, out, err);
    }
    free(buf);
    return rc;
}

size_t koma_game_set_count(const koma_game_set *set) { return set ? set->len : 0; }

const koma_game *koma_game_set_at(const koma_game_set *set, size_t i)
{
    return (set && i < set->len) ? slot_game(set, i, NULL) : NULL;
}

int koma_game_set_variant(koma_game_set *set, const koma_game *g, const char *const *opts,
                          size_t n, const koma_game **out, koma_error *err)
{
    *out = NULL;
    if (g->fx == NULL) {
        if (n == 0) {
            *out = g;
            return 0;
        }
        return koma_error_set(err, KOMA_E_GAME_OPTION_UNKNOWN, 0, "game %s has no rule options",
                              g->id);
    }
    koma_game *v;
    if (koma__game_variant_new(g, opts, n, &v, NULL, err) != 0) return -1;
    for (size_t i = 0; i < set->nretired; i++)
        if (set->retired[i]->variant && strcmp(set->retired[i]->variant, v->variant) == 0) {
            koma__game_free(v);
            *out = set->retired[i];
            return 0;
        }
    if (retire(set, v, err) != 0) {
        koma__game_free(v);
        return -1;
    }
    *out = v;
    return 0;
}

/* The slot of id[0..len), or -1. */
static long find_id(const koma_game_set *set, const char *id, size_t len)
{
    for (size_t i = 0; set && i < set->len; i++) {
        const char *k = set->slots[i].key.id;
        if (strlen(k) == len && memcmp(k, id, len) == 0) return (long)i;
    }
    return -1;
}

int koma_game_set_lookup(const koma_game_set *set, const char *id, size_t len,
                         const koma_game **out, koma_error *err)
{
    long i = find_id(set, id, len);
    *out = NULL;
    if (i < 0) return 0;
    return (*out = slot_game(set, (size_t)i, err)) != NULL ? 0 : -1;
}

const koma_game *koma_game_set_find_id(const koma_game_set *set, const char *id, size_t len)
{
    const koma_game *g;
    koma_game_set_lookup(set, id, len, &g, NULL);
    return g;
}

/* The slot of a game that plays style letter c (either case) on a files x ranks
 * board, found from a FEEN; second (0: any) the second player's letter; -1. */
static long find_style(const koma_game_set *set, char c, char second, unsigned files,
                       unsigned ranks)
{
    if (set == NULL) return -1;
    char up = (char)toupper((unsigned char)c);
    for (size_t i = 0; i < set->len; i++) {
        const struct koma__game_key *k = &set->slots[i].key;
        if (!k->by_feen || k->files != files || k->ranks != ranks) continue;
        if (k->styles[0] == '\0' ? k->style == up
                                 : strchr(k->styles, up) &&
                                       (second == 0 || koma__styles_fit(k->style, k->styles, up, second)))
            return (long)i;
    }
    return -1;
}

const koma_game *koma_game_set_find_style(const koma_game_set *set, char style, unsigned files,
                                          unsigned ranks)
{
    long i = find_style(set, style, 0, files, ranks);
    return i < 0 ? NULL : slot_game(set, (size_t)i, NULL);
}

const koma_game *koma_game_set_find_position(const koma_game_set *set, const koma_position *pos,
                                             koma_error *err)
{
    long i = -1;
    if (pos->shape.ndims == 2)
        i = find_style(set, pos->style[0], pos->style[1], pos->shape.size[0], pos->shape.size[1]);
    if (i >= 0) return slot_game(set, (size_t)i, err);
    const struct koma__game_key *half = NULL;  /* a game of the first letter, not of the pair */
    if (pos->shape.ndims == 2) {
        long h = find_style(set, pos->style[0], 0, pos->shape.size[0], pos->shape.size[1]);
        if (h >= 0) half = &set->slots[h].key;
    }
    if (half && half->styles[0]) {
        char list[32] = "";            /* "W, J or C" */
        size_t n = strlen(half->styles);
        for (size_t j = 0; j < n; j++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%c",
                     j == 0 ? "" : j + 1 == n ? " or " : ", ", half->styles[j]);
        koma_error_set(err, KOMA_E_GAME_UNKNOWN, 0,
                       "no game with the styles %c/%c on a %ux%u board (%s: %s, either side "
                       "any of them)", pos->style[0], pos->style[1], (unsigned)pos->shape.size[0],
                       (unsigned)pos->shape.size[1], half->id, list);
    } else if (pos->shape.ndims == 2)
        koma_error_set(err, KOMA_E_GAME_UNKNOWN, 0, "no game with style %c on a %ux%u board",
                       pos->style[0], (unsigned)pos->shape.size[0], (unsigned)pos->shape.size[1]);
    else
        koma_error_set(err, KOMA_E_GAME_UNKNOWN, 0, "no game on a %u-dimensional board",
                       (unsigned)pos->shape.ndims);
    return NULL;
}

int koma_game_set_open_feen(const koma_game_set *set, const char *feen, size_t len,
                            koma_position *pos, const koma_game **game, koma_error *err)
{
    if (koma_feen_parse(feen, len, KOMA_FEEN_STRICT, pos, err) != 0) return -1;
    if (*game == NULL && (*game = koma_game_set_find_position(set, pos, err)) == NULL) return -1;
    if (koma_game_require_rules(*game, err) != 0) return -1;
    return koma__position_fits(*game, pos, err);
}
