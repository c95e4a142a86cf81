/*
 * lib/select.c — the selector of koma/select.h: every criterion of a record
 * at once. The criteria that read no ply through the rules (length, moves,
 * members, game) are tested first; those that need the rules (positions,
 * patterns, material, the verdict, the key of a position) replay the record
 * once with the referee (koma/referee.h), whose hooks see every position
 * reached. A position is tested first by the engine's incremental hash
 * (koma_engine_hash: board, hands, side to move, as repetition compares
 * them, koma-games(7)) against each target's hash in that game, the targets'
 * hashes worked out once a game on an engine of the selector's own; a hash
 * that agrees is confirmed on the positions themselves. No FEEN is written a
 * ply, except for targets given by FID (a FID names a position only through
 * its FEEN): their answers are kept by hash in a small table, so a position
 * common to many records (an opening) is hashed with SHA-256 once.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "game_internal.h"

#define CACHE_GAMES 16                 /* games whose targets' hashes are kept */
#define FID_MEMO 4096u                 /* positions whose FID test is remembered */
#define RESULTS_MAX 8
#define STATUS_NONE 31u                /* the bit of "no status" */

typedef struct game_cache {
    const koma_game *g;
    koma_engine *e;                    /* the selector's own engine of g */
    uint64_t *hash;                    /* each target's hash in g */
    uint8_t *fits;                     /* the target is a position of g */
    unsigned long used;                /* for eviction: the last record that used it */
} game_cache;

typedef struct fid_memo {
    uint64_t hash;
    const koma_game *g;
    uint8_t valid, hit;
} fid_memo;

typedef struct text {
    char *s;
    size_t len;
} text;

struct koma_select {
    const koma_game_set *games;
    /* position criteria */
    koma_position *targets;            /* as given */
    koma_position *stripped;           /* every "'" removed */
    size_t ntargets;
    char (*fids)[KOMA_FID_BUF];
    size_t nfids;
    koma_pattern **patterns;
    size_t npatterns;
    koma_material **materials;
    size_t nmaterials;
    size_t win_first, win_last;
    /* text criteria */
    text *moves;
    size_t nmoves;
    int anywhere;
    koma_meta_cond **metas;
    size_t nmetas;
    const koma_game **glist;
    size_t ngames;
    size_t len_min, len_max;
    int has_length;
    /* verdict criteria */
    char results[RESULTS_MAX][8];
    size_t nresults;
    uint32_t statuses;                 /* a bit a koma_status; STATUS_NONE */
    int disputed;
    size_t key_ply;                    /* SIZE_MAX: the whole game */
    /* state */
    koma_referee *ref;
    koma_verdict *v;
    game_cache cache[CACHE_GAMES];
    size_t ncache;
    unsigned long records;
    fid_memo *memo;
    koma_position pos, setup;
    size_t *plies;
    size_t nplies, cap;
};

/* ---- building ---------------------------------------------------------------------- */

int koma_select_new(const koma_game_set *games, koma_select **out, koma_error *err)
{
    koma_select *s = calloc(1, sizeof *s);
    *out = NULL;
    if (s == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    s->games = games;
    s->win_last = SIZE_MAX;
    s->len_max = SIZE_MAX;
    s->key_ply = SIZE_MAX;
    koma_position_init(&s->pos);
    koma_position_init(&s->setup);
    if (koma_referee_new(NULL, &s->ref, err) != 0 || (s->v = calloc(1, sizeof *s->v)) == NULL) {
        koma_select_free(s);
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    }
    s->v->size = sizeof *s->v;
    *out = s;
    return 0;
}

void koma_select_free(koma_select *s)
{
    if (s == NULL) return;
    for (size_t i = 0; i < s->ntargets; i++) {
        koma_position_cleanup(&s->targets[i]);
        koma_position_cleanup(&s->stripped[i]);
    }
    free(s->targets);
    free(s->stripped);
    free(s->fids);
    for (size_t i = 0; i < s->npatterns; i++) koma_pattern_free(s->patterns[i]);
    free(s->patterns);
    for (size_t i = 0; i < s->nmaterials; i++) koma_material_free(s->materials[i]);
    free(s->materials);
    for (size_t i = 0; i < s->nmoves; i++) free(s->moves[i].s);
    free(s->moves);
    for (size_t i = 0; i < s->nmetas; i++) koma_meta_cond_free(s->metas[i]);
    free(s->metas);
    free(s->glist);
    for (size_t i = 0; i < s->ncache; i++) {
        koma_engine_free(s->cache[i].e);
        free(s->cache[i].hash);
        free(s->cache[i].fits);
    }
    free(s->memo);
    koma_referee_free(s->ref);
    free(s->v);
    koma_position_cleanup(&s->pos);
    koma_position_cleanup(&s->setup);
    free(s->plies);
    free(s);
}

/* Room for one more element of an array of n elements of size sz. */
static int room(void *arrp, size_t n, size_t sz, koma_error *err)
{
    void **arr = arrp;
    void *p = realloc(*arr, (n + 1) * sz);
    if (p == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    *arr = p;
    return 0;
}

/* The target caches are made for the targets known: a new target forgets them. */
static void forget_caches(koma_select *s)
{
    for (size_t i = 0; i < s->ncache; i++) {
        koma_engine_free(s->cache[i].e);
        free(s->cache[i].hash);
        free(s->cache[i].fits);
    }
    s->ncache = 0;
}

int koma_select_position(koma_select *s, const char *feen, size_t len, koma_error *err)
{
    koma_position pos, st;
    koma_position_init(&pos);
    koma_position_init(&st);
    const koma_game *g = NULL;
    /* a position some built-in game plays (koma_select_game may still name another) */
    if (koma_game_set_open_feen(s->games, feen, len, &pos, &g, err) != 0 ||
        koma_position_copy(&st, &pos, err) != 0 || koma_position_strip_derived(&st, err) != 0 ||
        room(&s->targets, s->ntargets, sizeof *s->targets, err) != 0 ||
        room(&s->stripped, s->ntargets, sizeof *s->stripped, err) != 0) {
        koma_position_cleanup(&pos);
        koma_position_cleanup(&st);
        return -1;
    }
    forget_caches(s);
    s->targets[s->ntargets] = pos;
    s->stripped[s->ntargets++] = st;
    return 0;
}

int koma_select_fid(koma_select *s, const char *fid, size_t len, koma_error *err)
{
    if (koma_fid_parse(fid, len, err) != 0) return -1;
    if (s->memo == NULL && (s->memo = calloc(FID_MEMO, sizeof *s->memo)) == NULL)
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    if (room(&s->fids, s->nfids, sizeof *s->fids, err) != 0) return -1;
    memcpy(s->fids[s->nfids], fid, KOMA_FID_LEN);
    s->fids[s->nfids++][KOMA_FID_LEN] = '\0';
    memset(s->memo, 0, FID_MEMO * sizeof *s->memo);
    return 0;
}

int koma_select_pattern(koma_select *s, const char *pat, size_t len, koma_error *err)
{
    koma_pattern *p;
    if (koma_pattern_parse(pat, len, &p, err) != 0) return -1;
    if (room(&s->patterns, s->npatterns, sizeof *s->patterns, err) != 0) {
        koma_pattern_free(p);
        return -1;
    }
    s->patterns[s->npatterns++] = p;
    return 0;
}

int koma_select_material(koma_select *s, const char *spec, size_t len, koma_error *err)
{
    koma_material *m;
    if (koma_material_parse(spec, len, &m, err) != 0) return -1;
    if (room(&s->materials, s->nmaterials, sizeof *s->materials, err) != 0) {
        koma_material_free(m);
        return -1;
    }
    s->materials[s->nmaterials++] = m;
    return 0;
}

void koma_select_window(koma_select *s, size_t first, size_t last)
{
    s->win_first = first;
    s->win_last = last;
}

int koma_select_moves(koma_select *s, const char *moves, size_t len, int anywhere, koma_error *err)
{
    if (len > KOMA_SELECT_TEXT_MAX)
        return koma_error_set(err, KOMA_E_SELECT_MOVES, KOMA_SELECT_TEXT_MAX, "a move list is at most %d bytes",
                              KOMA_SELECT_TEXT_MAX);
    for (size_t i = 0; i < s->nmoves; i++) free(s->moves[i].s);
    s->nmoves = 0;
    s->anywhere = anywhere;
    for (size_t i = 0; i < len;) {
        if (moves[i] == ' ' || moves[i] == '\t') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && moves[j] != ' ' && moves[j] != '\t') j++;
        koma_chain ch;
        koma_error e;
        koma_error_clear(&e);
        if (koma_chain_parse(moves + i, j - i, &ch, &e) != 0)
            return koma_error_set(err, KOMA_E_SELECT_MOVES, i + e.offset, "not a PMN move: %s: %s",
                                  koma_code_name(e.code), e.message);
        if (room(&s->moves, s->nmoves, sizeof *s->moves, err) != 0) return -1;
        text *t = &s->moves[s->nmoves];
        if ((t->s = malloc(j - i + 1)) == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        memcpy(t->s, moves + i, j - i);
        t->s[j - i] = '\0';
        t->len = j - i;
        s->nmoves++;
        i = j;
    }
    if (s->nmoves == 0) return koma_error_set(err, KOMA_E_SELECT_MOVES, 0, "no move given");
    return 0;
}

int koma_select_meta(koma_select *s, const char *cond, size_t len, koma_error *err)
{
    koma_meta_cond *c;
    if (koma_meta_cond_parse(cond, len, &c, err) != 0) return -1;
    if (room(&s->metas, s->nmetas, sizeof *s->metas, err) != 0) {
        koma_meta_cond_free(c);
        return -1;
    }
    s->metas[s->nmetas++] = c;
    return 0;
}

int koma_select_game(koma_select *s, const koma_game *game, koma_error *err)
{
    if (room(&s->glist, s->ngames, sizeof *s->glist, err) != 0) return -1;
    s->glist[s->ngames++] = game;
    return 0;
}

int koma_select_result(koma_select *s, const char *result, size_t len, koma_error *err)
{
    static const char *const ok[] = {"1-0", "0-1", "1/2-1/2", "*", "1/2-0", "0-1/2", "1-1/2", "1/2-1", NULL};
    for (size_t i = 0; ok[i]; i++) {
        if (strlen(ok[i]) != len || memcmp(ok[i], result, len) != 0) continue;
        if (s->nresults < RESULTS_MAX) strcpy(s->results[s->nresults++], ok[i]);
        return 0;
    }
    return koma__error_token(err, KOMA_E_SELECT_RESULT, 0,
                             "not a result (1-0, 0-1, 1/2-1/2, *, or 1/2-0, 0-1/2, 1-1/2, 1/2-1)", result, len);
}

int koma_select_status(koma_select *s, const char *status, size_t len, koma_error *err)
{
    koma_status st;
    if (len == 4 && memcmp(status, "none", 4) == 0) {
        s->statuses |= 1u << STATUS_NONE;
        return 0;
    }
    if (koma_cgsn_parse(status, len, &st, NULL) != 0)
        return koma__error_token(err, KOMA_E_SELECT_STATUS, 0, "not a CGSN status, nor none", status, len);
    s->statuses |= 1u << (unsigned)st;
    return 0;
}

void koma_select_length(koma_select *s, size_t min, size_t max)
{
    s->has_length = 1;
    s->len_min = min;
    s->len_max = max;
}

void koma_select_disputed(koma_select *s) { s->disputed = 1; }
void koma_select_key_at(koma_select *s, size_t ply) { s->key_ply = ply; }

static int has_positions(const koma_select *s)
{
    return s->ntargets || s->nfids || s->npatterns || s->nmaterials;
}

static int has_verdict(const koma_select *s) { return s->nresults || s->statuses || s->disputed; }

unsigned koma_select_needs(const koma_select *s, unsigned flags)
{
    unsigned n = s->nmetas ? KOMA_SELECT_NEEDS_TREE : 0;
    if (has_positions(s) || has_verdict(s) || ((flags & KOMA_SELECT_KEY) && s->key_ply != SIZE_MAX) ||
        (flags & KOMA_SELECT_FID))
        n |= KOMA_SELECT_NEEDS_RULES;
    return n;
}

/* ---- the criteria read as text ------------------------------------------------------------ */

static int ply_is(const koma_pcn *rec, size_t i, const text *t)
{
    size_t n;
    const char *p = koma_pcn_ply_pmn(rec, i, &n);
    return p && n == t->len && memcmp(p, t->s, n) == 0;
}

static int moves_match(const koma_select *s, const koma_pcn *rec)
{
    size_t n = koma_pcn_ply_count(rec), m = s->nmoves;
    if (n < m) return 0;
    size_t last = s->anywhere ? n - m : 0;
    for (size_t at = 0; at <= last; at++) {
        size_t i = 0;
        while (i < m && ply_is(rec, at + i, &s->moves[i])) i++;
        if (i == m) return 1;
    }
    return 0;
}

/* The game of koma_select_game's list the record's setup fits, in the order given (*g: NULL when
 * none fits). -1 on memory trouble. */
static int game_fit(koma_select *s, const koma_pcn *rec, const koma_game **g, koma_error *err)
{
    size_t len;
    const char *feen = koma_pcn_setup_feen(rec, &len);
    *g = NULL;
    if (feen == NULL) return 0;
    for (size_t i = 0; i < s->ngames && *g == NULL; i++) {
        const koma_game *t = s->glist[i];
        koma_error e;
        koma_error_clear(&e);
        if (koma_game_set_open_feen(s->games, feen, len, &s->setup, &t, &e) == 0) *g = t;
        else if (e.code == KOMA_E_MEMORY) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    }
    return 0;
}

/* The key of the whole game, from its text. */
static int game_key(koma_select *s, const koma_pcn *rec, const koma_game *g, koma_game_key *out,
                    koma_error *err)
{
    size_t len;
    const char *feen = koma_pcn_setup_feen(rec, &len);
    if (feen == NULL) return 1;
    int marks = 1;
    if (memchr(feen, '\'', len)) {
        /* is "'" part of the pieces' identity here (an effect game, Ko shogi)? */
        koma_error e;
        koma_error_clear(&e);
        if (g == NULL && koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &s->setup, &e) == 0)
            g = koma_game_set_find_position(s->games, &s->setup, &e);
        if (e.code == KOMA_E_MEMORY) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        marks = g && g->fx;
    }
    koma_game_key_ctx k;
    if (koma_game_key_begin(&k, feen, len, marks, err) != 0) return err->code == KOMA_E_MEMORY ? -1 : 1;
    size_t n = koma_pcn_ply_count(rec);
    for (size_t i = 0; i < n; i++) {
        size_t pl;
        const char *p = koma_pcn_ply_pmn(rec, i, &pl);
        koma_game_key_ply(&k, p ? p : "", p ? pl : 0);
    }
    koma_game_key_end(&k, out);
    return 0;
}

/* ---- the replay ------------------------------------------------------------------------ */

/* The cache of game g: each target's hash in g (made when first needed; the
 * least recently used goes when all are taken). NULL on memory trouble. */
static game_cache *cache_for(koma_select *s, const koma_game *g, koma_error *err)
{
    for (size_t i = 0; i < s->ncache; i++)
        if (s->cache[i].g == g) {
            s->cache[i].used = s->records;
            return &s->cache[i];
        }
    game_cache *c;
    if (s->ncache < CACHE_GAMES) {
        c = &s->cache[s->ncache++];
    } else {
        c = &s->cache[0];
        for (size_t i = 1; i < CACHE_GAMES; i++)
            if (s->cache[i].used < c->used) c = &s->cache[i];
        koma_engine_free(c->e);
        free(c->hash);
        free(c->fits);
    }
    memset(c, 0, sizeof *c);
    c->g = g;
    c->used = s->records;
    size_t n = s->ntargets ? s->ntargets : 1;
    c->hash = calloc(n, sizeof *c->hash);
    c->fits = calloc(n, 1);
    if (c->hash == NULL || c->fits == NULL || (s->ntargets && koma_engine_new(g, &c->e, err) != 0)) {
        free(c->hash);
        free(c->fits);
        s->ncache--;
        if (c != &s->cache[s->ncache]) *c = s->cache[s->ncache];
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    for (size_t t = 0; t < s->ntargets; t++) {
        koma_error e;
        koma_error_clear(&e);
        if (koma_engine_set_position(c->e, &s->targets[t], &e) == 0) {
            c->fits[t] = 1;
            c->hash[t] = koma_engine_hash(c->e);
        } else if (e.code == KOMA_E_MEMORY) {
            koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            return NULL;
        }
    }
    return c;
}

typedef struct run {
    koma_select *s;
    koma_selection *out;
    unsigned flags;
    game_cache *gc;
    int marks;                         /* "'" is part of the identity (Ko shogi) */
    int need_verdict;                  /* the replay goes to the end for the verdict */
    int positions_done, key_done, stopped, trouble;
    koma_error err;
} run;

/* The current position of the engine into s->pos (stripped unless marks). */
static int current(run *r, const koma_engine *e)
{
    if (koma_engine_get_position(e, &r->s->pos, &r->err) != 0) return -1;
    if (!r->marks && koma_position_strip_derived(&r->s->pos, &r->err) != 0) return -1;
    return 0;
}

static int fid_hit(run *r, const koma_engine *e, int *hit)
{
    koma_select *s = r->s;
    uint64_t h = koma_engine_hash(e);
    const koma_game *g = koma_engine_game(e);
    fid_memo *m = &s->memo[(size_t)(h ^ (h >> 29)) & (FID_MEMO - 1)];
    if (m->valid && m->hash == h && m->g == g) {
        *hit = m->hit;
        return 0;
    }
    char feen[KOMA_FEEN_MAX_LEN + 1], fid[2][KOMA_FID_BUF];
    size_t len;
    if (koma_engine_feen(e, feen, sizeof feen, &len, &r->err) != 0) return -1;
    koma_fid_of(feen, len, fid[0]);
    int forms = 1;
    if (memchr(feen, '\'', len)) {
        if (koma_engine_get_position(e, &s->pos, &r->err) != 0 ||
            koma_position_strip_derived(&s->pos, &r->err) != 0 ||
            koma_position_fid(&s->pos, fid[1], &r->err) != 0)
            return -1;
        forms = 2;
    }
    *hit = 0;
    for (size_t i = 0; i < s->nfids && !*hit; i++)
        for (int f = 0; f < forms; f++)
            if (memcmp(s->fids[i], fid[f], KOMA_FID_LEN) == 0) *hit = 1;
    m->valid = 1;
    m->hash = h;
    m->g = g;
    m->hit = (uint8_t)*hit;
    return 0;
}

/* Do the position criteria hold of the engine's position? */
static int position_holds(run *r, const koma_engine *e, int *holds)
{
    koma_select *s = r->s;
    int got = 0;                       /* s->pos holds the current position */
    *holds = 0;
    if (s->ntargets) {
        uint64_t h = koma_engine_hash(e);
        int hit = 0;
        for (size_t t = 0; t < s->ntargets && !hit; t++) {
            if (!r->gc->fits[t] || r->gc->hash[t] != h) continue;
            if (!got && current(r, e) != 0) return -1;
            got = 1;
            hit = koma_position_equal(&s->pos, r->marks ? &s->targets[t] : &s->stripped[t]);
        }
        if (!hit) return 0;
    }
    if (s->nfids) {
        int hit;
        if (fid_hit(r, e, &hit) != 0) return -1;
        if (!hit) return 0;
    }
    if (s->npatterns || s->nmaterials) {
        if (koma_engine_get_position(e, &s->pos, &r->err) != 0) return -1;
        unsigned fl = r->marks ? KOMA_MATCH_MARKS : 0;
        int hit = s->npatterns == 0;
        for (size_t i = 0; i < s->npatterns && !hit; i++) hit = koma_pattern_match(s->patterns[i], &s->pos, fl);
        if (!hit) return 0;
        hit = s->nmaterials == 0;
        for (size_t i = 0; i < s->nmaterials && !hit; i++) hit = koma_material_match(s->materials[i], &s->pos, fl);
        if (!hit) return 0;
    }
    *holds = 1;
    return 0;
}

static int note_ply(koma_select *s, size_t ply, koma_error *err)
{
    if (s->nplies == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        size_t *p = realloc(s->plies, cap * sizeof *p);
        if (p == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        s->plies = p;
        s->cap = cap;
    }
    s->plies[s->nplies++] = ply;
    return 0;
}

/* The FID of the engine's position, as written. */
static int fid_now(run *r, const koma_engine *e)
{
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t len;
    if (koma_engine_feen(e, feen, sizeof feen, &len, &r->err) != 0) return -1;
    koma_fid_of(feen, len, r->out->fid);
    return 0;
}

/* The key of the position at the key's ply. */
static int position_key(run *r, const koma_engine *e)
{
    char feen[KOMA_FEEN_MAX_LEN + 1];
    if (current(r, e) != 0) return -1;
    size_t n = koma_feen_write(&r->s->pos, feen, sizeof feen);
    if (n >= sizeof feen) return koma_error_set(&r->err, KOMA_E_FEEN_LENGTH, 0, NULL);
    koma_game_key_ctx k;
    if (koma_game_key_begin(&k, feen, n, 1, &r->err) != 0) return -1;
    koma_game_key_end(&k, &r->out->key);
    r->out->has_key = 1;
    return 0;
}

/* A position is reached at ply (0: the setup). Non-zero stops the replay. */
static int reached(run *r, koma_referee *ref, size_t ply)
{
    koma_select *s = r->s;
    const koma_engine *e = koma_referee_engine(ref);
    if (r->gc == NULL) {
        const koma_game *g = koma_engine_game(e);
        r->marks = g->fx != NULL;
        r->out->game = g;
        if ((r->gc = cache_for(s, g, &r->err)) == NULL) goto trouble;
    }
    if (!r->key_done && ply == s->key_ply) {
        if (position_key(r, e) != 0) goto trouble;
        r->key_done = 1;
    }
    if (!r->positions_done && ply >= s->win_first) {
        int holds;
        if (position_holds(r, e, &holds) != 0) goto trouble;
        if (holds) {
            if (s->nplies == 0 && (r->flags & KOMA_SELECT_FID) && fid_now(r, e) != 0) goto trouble;
            if (note_ply(s, ply, &r->err) != 0) goto trouble;
            if (!(r->flags & KOMA_SELECT_ALL_PLIES)) r->positions_done = 1;
        }
    }
    if (ply >= s->win_last) r->positions_done = 1;
    if (ply >= s->key_ply) r->key_done = 1;
    if (r->positions_done && r->key_done && !r->need_verdict) {
        r->stopped = 1;
        return -1;
    }
    return 0;
trouble:
    r->trouble = 1;
    return -1;
}

static int hook_begun(void *ctx, koma_referee *ref) { return reached(ctx, ref, 0); }

static int hook_ply(void *ctx, koma_referee *ref, size_t index, int status, const koma_error *why)
{
    run *r = ctx;
    if (status == KOMA_PLY_PLAYED || status == KOMA_PLY_NOTATION) return reached(r, ref, index + 1);
    if (status == KOMA_PLY_UNREADABLE && !r->out->unreadable) {
        r->out->unreadable = 1;
        r->out->problem = *why;
        snprintf(r->out->member, sizeof r->out->member, "/plies/%zu/pmn", index);
    }
    if (koma_referee_over(ref)) {
        /* no position comes after the end */
        r->positions_done = r->key_done = 1;
        if (!r->need_verdict) {
            r->stopped = 1;
            return -1;
        }
    }
    return 0;
}

static int verdict_holds(const koma_select *s, const koma_verdict *v)
{
    if (s->nresults) {
        int ok = 0;
        for (size_t i = 0; i < s->nresults && !ok; i++) ok = strcmp(s->results[i], v->result_text) == 0;
        if (!ok) return 0;
    }
    if (s->statuses) {
        unsigned bit = v->has_status ? (unsigned)v->status : STATUS_NONE;
        if (!(s->statuses & (1u << bit))) return 0;
    }
    if (s->disputed && v->disputes == 0) return 0;
    return 1;
}

int koma_select_record(koma_select *s, const koma_pcn *rec, unsigned flags, koma_selection *out,
                       koma_error *err)
{
    memset(out, 0, sizeof *out);
    s->records++;
    s->nplies = 0;
    int want_key = (flags & KOMA_SELECT_KEY) != 0;
    /* the criteria read as text, first */
    int ok = 1;
    const koma_game *forced = NULL;
    if (s->has_length) {
        size_t n = koma_pcn_ply_count(rec);
        ok = n >= s->len_min && n <= s->len_max;
    }
    if (ok && s->nmoves) ok = moves_match(s, rec);
    for (size_t i = 0; ok && i < s->nmetas; i++) ok = koma_meta_cond_match(s->metas[i], rec);
    if (ok && s->ngames) {
        if (game_fit(s, rec, &forced, err) != 0) return -1;
        ok = forced != NULL;
        out->game = forced;
    }
    int whole_key = want_key && s->key_ply == SIZE_MAX;
    if (whole_key) {
        int rc = game_key(s, rec, forced, &out->key, err);
        if (rc < 0) return -1;
        out->has_key = rc == 0;
    }
    int replay = ok && (has_positions(s) || has_verdict(s) || (flags & KOMA_SELECT_FID));
    if (want_key && !whole_key) replay = 1;
    if (!replay) {
        out->matched = ok;
        return 0;
    }
    run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.out = out;
    r.flags = ok ? flags : flags & ~(unsigned)(KOMA_SELECT_FID | KOMA_SELECT_ALL_PLIES);
    r.positions_done = !ok || !has_positions(s);
    r.key_done = !want_key || whole_key;
    r.need_verdict = ok && (has_verdict(s) || ((flags & KOMA_SELECT_FID) && !has_positions(s)));
    koma_error_clear(&r.err);
    koma_referee_hooks hooks = {hook_begun, hook_ply, &r};
    koma_error e;
    koma_error_clear(&e);
    int rc = koma_referee_pcn(s->ref, s->games, forced, rec, &hooks, s->v, &e);
    if (r.trouble) {
        *err = r.err;
        return -1;
    }
    if (rc < 0 && !r.stopped) {
        *err = e;
        return -1;
    }
    out->plies = s->plies;
    out->nplies = s->nplies;
    if (rc > 0) {
        out->unjudged = 1;
        out->problem = e;
        out->game = s->v->game;
        snprintf(out->member, sizeof out->member, "%s", s->v->unjudged_member);
        out->has_key = whole_key && out->has_key;
        return 0;
    }
    if (rc == 0) {
        out->verdict = s->v;
        out->game = s->v->game;
    }
    if (!ok) return 0;
    if (has_positions(s) && s->nplies == 0) return 0;
    if (has_verdict(s) && (rc != 0 || !verdict_holds(s, s->v))) return 0;
    if ((flags & KOMA_SELECT_FID) && !has_positions(s) && rc == 0) {
        size_t n = strlen(s->v->feen);
        koma_fid_of(s->v->feen, n, out->fid);
    }
    out->matched = 1;
    return 0;
}
