/*
 * koma-repetition-check — find repeated positions in game records and apply the
 * game's repetition rule (DESIGN.md §4).
 *
 * Positions are compared on board, hands and side to move with every "'"
 * removed. For each record: one `position` line per position that occurs more
 * than once (its FID, the FID of the stripped canonical FEEN, and the plies
 * where it occurs; ply 0 is the setup), then one `verdict` line: which rule
 * (if any) the repetition triggered — Ōgi's illegal repeat (the same move
 * producing the same position again), or a shogi-family fourfold repetition,
 * a draw unless it was perpetual check. The rules are the engine's
 * (koma_engine_play); this tool only reports what happened and where.
 *
 * Inputs: PCN records (JSON Lines or a YAML stream); with --start FEEN, runs of
 * PMN lines (a run ends at a blank line or the end of input) played from FEEN;
 * with --fid-only, runs of FEEN lines, no rules, any game. See
 * man/koma-repetition-check.1.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "games.h"
#include "records.h"

#define NO_NEXT UINT32_MAX
/* --fid-only: positions per run (a record's plies plus its setup). */
#define MAX_RUN ((size_t)KOMA_PCN_MAX_PLIES + 1)

static const char *const side_name[2] = {"Sente", "Gote"};

/* ---- the positions of one record --------------------------------------------------- */

typedef struct slot {
    uint64_t key;                      /* engine hash, or the FID's first 64 bits */
    uint32_t gen;                      /* the record it belongs to (0: never used) */
    uint32_t first, last, count;       /* occurrence indexes (ply, or run line number) */
    int32_t info;                      /* index into infos once seen twice, else -1 */
} slot;

typedef struct pos_info {
    char fid[KOMA_FID_BUF];
    char *feen;                        /* stripped canonical FEEN */
} pos_info;

typedef struct tracker {
    slot *slots;
    size_t cap, used;                  /* cap: a power of two */
    uint32_t gen;
    uint32_t *next;                    /* per occurrence: the next of the same position */
    unsigned long *where;              /* per occurrence: ply or line number */
    uint8_t *check;                    /* per ply: the mover gave check */
    char (*pmn)[KOMA_PMN_BUF];         /* per ply: canonical PMN, "'" removed */
    size_t n, ncap;                    /* occurrences */
    pos_info *infos;
    size_t ninfos, infocap;
} tracker;

typedef struct verdict {
    const char *rule;                  /* none, illegal-repeat, fourfold, perpetual-check */
    int triggered;
    koma_result result;
    unsigned long ply;                 /* the deciding ply */
    unsigned long first;               /* fourfold: first occurrence; Ōgi: repeated ply */
    int loser;                         /* -1 none */
    int both_checked;                  /* fourfold: both sides checked throughout */
    char pmn[KOMA_PMN_BUF];            /* Ōgi: the refused ply */
    char fid[KOMA_FID_BUF];            /* the position concerned */
    char *feen;                        /* the same (owned) */
    /* how the record stopped otherwise */
    int ended;                         /* 1: the game ended by another rule */
    koma_status ended_status;
    koma_result ended_result;
    unsigned long ended_ply;
    int illegal;                       /* an illegal ply (not a repetition) */
    unsigned long illegal_ply;
    char illegal_code[48];
    unsigned long unchecked;           /* plies after the end */
} verdict;

typedef struct state {
    cli *c;
    koma_game_set *games;
    const koma_game *forced;           /* --game */
    engine_cache engines;
    int fid_only;
    const char *start;                 /* --start FEEN */
    char startbuf[KOMA_FEEN_MAX_LEN + 1];
    records_options pcn;               /* --format */
    koma_position scratch;
    tracker t;

    /* the record being checked */
    const record_source *src;          /* where it comes from (PCN: locates values) */
    const char *file;
    unsigned long line;
    koma_engine *e;
    const koma_game *game;
    int active;                        /* a record is open */
    int stopped;                       /* no more plies are checked */
    int setup_turn;
    unsigned long plies;               /* plies applied */
    verdict v;

    /* counts */
    unsigned long records, repeated, triggered, invalid;
    unsigned long n_illegal_repeat, n_fourfold, n_perpetual;
    int record_invalid;
    int fid_full;                      /* --fid-only: the run has too many positions */
} state;

static int oom(state *st)
{
    cli_trouble(st->c, "memory: out of memory");
    return -1;
}

static void tracker_free(tracker *t)
{
    free(t->slots);
    free(t->next);
    free(t->where);
    free(t->check);
    free(t->pmn);
    for (size_t i = 0; i < t->ninfos; i++) free(t->infos[i].feen);
    free(t->infos);
    memset(t, 0, sizeof *t);
}

/* Start a new record: forget the previous one without clearing the table. */
static void tracker_reset(tracker *t)
{
    for (size_t i = 0; i < t->ninfos; i++) free(t->infos[i].feen);
    t->ninfos = 0;
    t->n = 0;
    t->used = 0;
    if (t->cap > 4096) {
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

static size_t slot_find(const tracker *t, uint64_t key)
{
    size_t mask = t->cap - 1, i = (size_t)(key ^ (key >> 29)) & mask;
    while (t->slots[i].gen == t->gen && t->slots[i].key != key) i = (i + 1) & mask;
    return i;
}

static int tracker_grow_table(tracker *t)
{
    size_t ncap = t->cap ? t->cap * 2 : 64;
    slot *old = t->slots, *ns = calloc(ncap, sizeof *ns);
    size_t ocap = t->cap;
    if (ns == NULL) return -1;
    t->slots = ns;
    t->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (old[i].gen != t->gen) continue;
        t->slots[slot_find(t, old[i].key)] = old[i];
    }
    free(old);
    return 0;
}

static int tracker_grow_occurrences(tracker *t, int plies)
{
    size_t ncap = t->ncap ? t->ncap * 2 : 256;
    uint32_t *nx = realloc(t->next, ncap * sizeof *nx);
    if (nx == NULL) return -1;
    t->next = nx;
    unsigned long *w = realloc(t->where, ncap * sizeof *w);
    if (w == NULL) return -1;
    t->where = w;
    if (plies) {
        uint8_t *ch = realloc(t->check, ncap * sizeof *ch);
        if (ch == NULL) return -1;
        t->check = ch;
        char (*p)[KOMA_PMN_BUF] = realloc(t->pmn, ncap * sizeof *p);
        if (p == NULL) return -1;
        t->pmn = p;
    }
    t->ncap = ncap;
    return 0;
}

/* Record occurrence number t->n (at `where`) of the position `key`; *s gets its
 * slot. -1 when out of memory. */
static int tracker_add(tracker *t, uint64_t key, unsigned long where, int plies, slot **s)
{
    if (t->n == t->ncap && tracker_grow_occurrences(t, plies) != 0) return -1;
    if ((t->used + 1) * 2 > t->cap && tracker_grow_table(t) != 0) return -1;
    size_t i = slot_find(t, key);
    slot *sl = &t->slots[i];
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
    if (plies) {
        t->check[idx] = 0;
        t->pmn[idx][0] = '\0';
    }
    t->n++;
    *s = sl;
    return 0;
}

static slot *tracker_lookup(tracker *t, uint64_t key)
{
    if (t->cap == 0) return NULL;
    slot *sl = &t->slots[slot_find(t, key)];
    return sl->gen == t->gen ? sl : NULL;
}

/* Attach the FEEN and FID of a position seen for the second time. */
static int tracker_set_info(tracker *t, slot *sl, const char *feen, size_t len, const char *fid)
{
    if (t->ninfos == t->infocap) {
        size_t ncap = t->infocap ? t->infocap * 2 : 16;
        pos_info *ni = realloc(t->infos, ncap * sizeof *ni);
        if (ni == NULL) return -1;
        t->infos = ni;
        t->infocap = ncap;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) return -1;
    memcpy(copy, feen, len);
    copy[len] = '\0';
    pos_info *pi = &t->infos[t->ninfos];
    memcpy(pi->fid, fid, KOMA_FID_BUF);
    pi->feen = copy;
    sl->info = (int32_t)t->ninfos++;
    return 0;
}

static uint64_t fid_key(const char *fid)
{
    uint64_t k = 0;
    for (int i = 0; i < 16; i++) {
        char ch = fid[i];
        k = (k << 4) | (uint64_t)(ch <= '9' ? ch - '0' : ch - 'a' + 10);
    }
    return k;
}

/*
 * The stripped canonical FEEN of feen[0..len) (valid FEEN): every "'" removed,
 * hands aggregated and sorted again. out holds KOMA_FEEN_MAX_LEN + 1 bytes.
 */
static int strip_feen(state *st, const char *feen, size_t len, char *out, size_t *outlen)
{
    char tmp[KOMA_FEEN_MAX_LEN + 1];
    size_t n = 0;
    int had = 0;
    for (size_t i = 0; i < len && n < KOMA_FEEN_MAX_LEN; i++) {
        if (feen[i] == '\'') had = 1;
        else tmp[n++] = feen[i];
    }
    if (!had) {
        memcpy(out, feen, len);
        out[len] = '\0';
        *outlen = len;
        return 0;
    }
    koma_error err;
    koma_error_clear(&err);
    if (koma_feen_parse(tmp, n, KOMA_FEEN_NORMALISE, &st->scratch, &err) != 0) return -1;
    size_t w = koma_feen_write(&st->scratch, out, KOMA_FEEN_MAX_LEN + 1);
    if (w > KOMA_FEEN_MAX_LEN) return -1;
    *outlen = w;
    return 0;
}

/* FEEN and FID of the engine's current position, stripped. */
static int engine_stripped(state *st, char *feen, size_t *len, char fid[KOMA_FID_BUF])
{
    char raw[KOMA_FEEN_MAX_LEN + 1];
    size_t n = koma_engine_feen(st->e, raw, sizeof raw);
    if (n > KOMA_FEEN_MAX_LEN || strip_feen(st, raw, n, feen, len) != 0) return -1;
    koma_fid_of(feen, *len, fid);
    return 0;
}

/* ---- output ------------------------------------------------------------------------- */

static int cmp_first(const void *a, const void *b)
{
    const slot *x = *(const slot *const *)a, *y = *(const slot *const *)b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The position lines of the record; returns how many positions repeat. */
static unsigned long print_positions(state *st)
{
    cli *c = st->c;
    tracker *t = &st->t;
    size_t n = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].gen == t->gen && t->slots[i].count > 1 && t->slots[i].info >= 0) n++;
    if (n == 0 || c->quiet) return n;
    slot **list = malloc(n * sizeof *list);
    if (list == NULL) {
        oom(st);
        return n;
    }
    size_t k = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].gen == t->gen && t->slots[i].count > 1 && t->slots[i].info >= 0)
            list[k++] = &t->slots[i];
    qsort(list, n, sizeof *list, cmp_first);
    for (size_t i = 0; i < n; i++) {
        const slot *sl = list[i];
        const pos_info *pi = &t->infos[sl->info];
        if (c->json) {
            fputs("{\"file\":", stdout);
            cli_json_cstr(stdout, st->file);
            printf(",\"line\":%lu,\"type\":\"position\",\"count\":%lu,\"%s\":[", st->line,
                   (unsigned long)sl->count, st->fid_only ? "lines" : "plies");
            for (uint32_t j = sl->first, m = 0; j != NO_NEXT; j = t->next[j], m++)
                printf("%s%lu", m ? "," : "", t->where[j]);
            printf("],\"fid\":\"%s\",\"feen\":", pi->fid);
            cli_json_cstr(stdout, pi->feen);
            fputs("}\n", stdout);
        } else {
            printf("%s:%lu\tposition\t%lu\t", st->file, st->line, (unsigned long)sl->count);
            for (uint32_t j = sl->first, m = 0; j != NO_NEXT; j = t->next[j], m++)
                printf("%s%lu", m ? "," : "", t->where[j]);
            printf("\t%s\t%s\n", pi->fid, pi->feen);
        }
    }
    free(list);
    return n;
}

/* "plies 0, 4 and 8" */
static void plies_phrase(char *buf, size_t cap, const tracker *t, const slot *sl, size_t limit)
{
    size_t len = 0, m = 0, total = 0;
    for (uint32_t j = sl->first; j != NO_NEXT && total < limit; j = t->next[j]) total++;
    for (uint32_t j = sl->first; j != NO_NEXT && m < total; j = t->next[j], m++) {
        const char *sep = m == 0 ? (total > 1 ? "plies " : "ply ") : m + 1 == total ? " and " : ", ";
        int w = snprintf(buf + len, cap - len, "%s%lu", sep, t->where[j]);
        if (w < 0 || (size_t)w >= cap - len) break;
        len += (size_t)w;
    }
}

static void verdict_reason(state *st, unsigned long nrep, char *buf, size_t cap)
{
    verdict *v = &st->v;
    size_t len = 0;
#define ADD(...)                                                                          \
    do {                                                                                  \
        int w_ = snprintf(buf + len, cap - len, __VA_ARGS__);                             \
        if (w_ > 0) len += (size_t)w_ < cap - len ? (size_t)w_ : cap - len - 1;           \
    } while (0)
    buf[0] = '\0';
    if (strcmp(v->rule, "illegal-repeat") == 0) {
        int mover = st->setup_turn ^ (int)((v->ply - 1) & 1);
        ADD("ply %lu (%s) by %s repeats ply %lu: the same move to the same position; %s loses",
            v->ply, v->pmn, side_name[mover], v->first, side_name[mover]);
    } else if (strcmp(v->rule, "fourfold") == 0 || strcmp(v->rule, "perpetual-check") == 0) {
        char phrase[160];
        slot *sl = NULL;
        for (size_t i = 0; i < st->t.cap && sl == NULL; i++)
            if (st->t.slots[i].gen == st->t.gen && st->t.where[st->t.slots[i].last] == v->ply)
                sl = &st->t.slots[i];
        phrase[0] = '\0';
        static const char *const nth[] = {"first", "second", "third", "fourth", "fifth",
                                          "sixth", "seventh", "eighth", "ninth", "tenth"};
        char ord[24];
        if (sl) plies_phrase(phrase, sizeof phrase, &st->t, sl, sl->count - 1);
        if (sl && sl->count >= 1 && sl->count <= 10) snprintf(ord, sizeof ord, "%s", nth[sl->count - 1]);
        else snprintf(ord, sizeof ord, "%luth", sl ? (unsigned long)sl->count : 0UL);
        ADD("the position of %s occurs a %s time at ply %lu", phrase, ord, v->ply);
        if (strcmp(v->rule, "perpetual-check") == 0) {
            unsigned long from = v->first + 1;
            if ((st->setup_turn ^ (int)((from - 1) & 1)) != v->loser) from++;
            ADD(" and every move of %s from ply %lu to ply %lu gave check (perpetual check): "
                "%s loses", side_name[v->loser], from, v->ply, side_name[v->loser]);
        } else if (v->loser >= 0) {
            ADD(": %s loses", side_name[v->loser]);
        } else if (v->both_checked) {
            ADD(" and both sides gave check with every move: a draw");
        } else {
            ADD(": a draw");
        }
    } else {
        if (nrep == 0) ADD("no repeated position in %lu %s", st->plies, st->plies == 1 ? "ply" : "plies");
        else ADD("%lu %s repeated in %lu %s; the repetition rule was not triggered", nrep,
                 nrep == 1 ? "position" : "positions", st->plies, st->plies == 1 ? "ply" : "plies");
        if (v->illegal)
            ADD("; ply %lu is illegal (%s)", v->illegal_ply, v->illegal_code);
        if (v->ended && v->ended_ply == 0)
            ADD("; the setup position is already final (%s, %s)", koma_cgsn_name(v->ended_status),
                koma_result_name(v->ended_result));
        else if (v->ended)
            ADD("; the game ended at ply %lu (%s, %s)", v->ended_ply, koma_cgsn_name(v->ended_status),
                koma_result_name(v->ended_result));
    }
    if (v->unchecked)
        ADD("; %lu later %s not checked", v->unchecked, v->unchecked == 1 ? "ply" : "plies");
#undef ADD
}

static void print_verdict(state *st, unsigned long nrep)
{
    cli *c = st->c;
    verdict *v = &st->v;
    char reason[512];
    if (c->quiet) return;
    verdict_reason(st, nrep, reason, sizeof reason);
    if (c->json) {
        fputs("{\"file\":", stdout);
        cli_json_cstr(stdout, st->file);
        printf(",\"line\":%lu,\"type\":\"verdict\",\"game\":\"%s\",\"plies\":%lu,\"repeated\":%lu,"
               "\"rule\":\"%s\",\"triggered\":%s",
               st->line, koma_game_id(st->game), st->plies, nrep, v->rule,
               v->triggered ? "true" : "false");
        if (v->triggered) {
            printf(",\"result\":\"%s\",\"status\":\"repetition\",\"ply\":%lu", koma_result_name(v->result),
                   v->ply);
            if (strcmp(v->rule, "illegal-repeat") == 0) {
                printf(",\"repeats\":%lu,\"pmn\":", v->first);
                cli_json_cstr(stdout, v->pmn);
            } else {
                printf(",\"first\":%lu", v->first);
            }
            if (v->loser >= 0) printf(",\"loser\":\"%s\"", v->loser ? "second" : "first");
            printf(",\"fid\":\"%s\",\"feen\":", v->fid);
            cli_json_cstr(stdout, v->feen);
        }
        if (v->ended)
            printf(",\"ended\":{\"ply\":%lu,\"status\":\"%s\",\"result\":\"%s\"}", v->ended_ply,
                   koma_cgsn_name(v->ended_status), koma_result_name(v->ended_result));
        if (v->illegal) printf(",\"illegal\":{\"ply\":%lu,\"code\":\"%s\"}", v->illegal_ply, v->illegal_code);
        if (v->unchecked) printf(",\"unchecked\":%lu", v->unchecked);
        fputs(",\"reason\":", stdout);
        cli_json_cstr(stdout, reason);
        fputs("}\n", stdout);
    } else if (v->triggered) {
        printf("%s:%lu\tverdict\t%s\t%s\t%lu\t%s\t%s\n", st->file, st->line, v->rule,
               koma_result_name(v->result), v->ply, v->fid, reason);
    } else {
        printf("%s:%lu\tverdict\tnone\t*\t-\t-\t%s\n", st->file, st->line, reason);
    }
}

/* ---- records under the rules ---------------------------------------------------------- */

static void verdict_clear(verdict *v)
{
    free(v->feen);
    memset(v, 0, sizeof *v);
    v->rule = "none";
    v->loser = -1;
}

/* Note the position now on the engine as occurrence `ply`. */
static int note_position(state *st, unsigned long ply, const char *pmn, int gave_check)
{
    slot *sl;
    if (tracker_add(&st->t, koma_engine_hash(st->e), ply, 1, &sl) != 0) return oom(st);
    size_t idx = st->t.n - 1;
    st->t.check[idx] = (uint8_t)gave_check;
    if (pmn) {
        size_t k = 0;
        for (const char *p = pmn; *p && k < KOMA_PMN_MAX_LEN; p++)
            if (*p != '\'') st->t.pmn[idx][k++] = *p;
        st->t.pmn[idx][k] = '\0';
    }
    if (sl->count == 2) {
        char feen[KOMA_FEEN_MAX_LEN + 1], fid[KOMA_FID_BUF];
        size_t len;
        if (engine_stripped(st, feen, &len, fid) != 0) {
            cli_trouble(st->c, "cannot write the position of ply %lu", ply);
            return -1;
        }
        if (tracker_set_info(&st->t, sl, feen, len, fid) != 0) return oom(st);
    }
    return 0;
}

/*
 * Open a record whose setup is FEEN s[0..len), from src (which stays valid
 * until record_end). Diagnostics name the FEEN as "/setup/feen" or "--start".
 * 0, or -1 when the record cannot be checked (reported).
 */
static int record_begin(state *st, const record_source *src, const char *s, size_t len)
{
    cli *c = st->c;
    koma_error err;
    koma_error_clear(&err);
    st->src = src;
    st->file = src->file;
    st->line = src->line;
    st->active = 0;
    st->stopped = 0;
    st->plies = 0;
    st->record_invalid = 0;
    verdict_clear(&st->v);
    tracker_reset(&st->t);
    const koma_game *g = st->forced;
    if (koma_feen_parse(s, len, KOMA_FEEN_STRICT, &st->scratch, &err) != 0) goto bad;
    if (g == NULL && (g = koma_game_set_find_position(st->games, &st->scratch, &err)) == NULL) goto bad;
    if (!koma_game_playable(g)) {
        koma_error_set(&err, KOMA_E_GAME_NO_RULES, 0,
                       "game %s has no rule engine yet: use --fid-only with its positions",
                       koma_game_id(g));
        goto bad;
    }
    if ((st->e = engine_cache_get(&st->engines, g, &err)) == NULL) {
        if (err.code == KOMA_E_MEMORY) return oom(st);
        goto bad;
    }
    if (koma_engine_set_position(st->e, &st->scratch, &err) != 0) goto bad;
    st->game = g;
    st->setup_turn = koma_engine_turn(st->e);
    st->records++;
    st->active = 1;
    if (note_position(st, 0, NULL, 0) != 0) return -1;
    koma_ending pe;
    koma_engine_position_ending(st->e, &pe);
    if (pe.over) {
        st->stopped = 1;
        st->v.ended = 1;
        st->v.ended_ply = 0;
        st->v.ended_status = pe.status;
        st->v.ended_result = pe.result;
    }
    return 0;
bad:
    st->records++;
    st->invalid++;
    {
        char msg[KOMA_ERROR_MESSAGE_MAX + 32];
        unsigned long l = src->line, col = 1;
        record_locate(src, "/setup/feen", &l, &col);
        snprintf(msg, sizeof msg, "%s%s", st->start ? "--start: " : "/setup/feen: ", err.message);
        cli_diag(c, CLI_DATA, src->file, l, col, koma_code_name(err.code), msg, NULL);
    }
    return -1;
}

/* Report a bad ply. line/col: where (PMN lines) or the record's line, column 1. */
static void ply_diag(state *st, unsigned long ply, unsigned long line, unsigned long col,
                     const char *text, size_t len, const koma_error *err)
{
    char msg[KOMA_ERROR_MESSAGE_MAX + 160], q[64];
    koma_quote(q, sizeof q, text, len);
    if (st->start) {
        snprintf(msg, sizeof msg, "ply %lu \"%s\": %s", ply, q, err->message);
    } else {
        char pointer[48];
        snprintf(pointer, sizeof pointer, "/plies/%lu/pmn", ply - 1);
        record_locate(st->src, pointer, &line, &col);
        snprintf(msg, sizeof msg, "%s \"%s\" (ply %lu): %s", pointer, q, ply, err->message);
    }
    cli_diag(st->c, CLI_DATA, st->file, line, col, koma_code_name(err->code), msg, NULL);
    if (!st->record_invalid) {
        st->record_invalid = 1;
        st->invalid++;
    }
}

/* The Ōgi illegal repeat refused by the engine: which earlier ply it repeats. */
static int illegal_repeat(state *st, koma_emove em, const char *canon, const koma_ending *out,
                          const koma_error *why)
{
    verdict *v = &st->v;
    unsigned long ply = st->plies + 1;
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t len;
    koma_error err;
    koma_error_clear(&err);
    /* The position it would produce (the engine refused it: play it here and take it back). */
    if (koma_engine_make(st->e, em, &err) != 0) return err.code == KOMA_E_MEMORY ? oom(st) : -1;
    uint64_t key = koma_engine_hash(st->e);
    int r = engine_stripped(st, feen, &len, v->fid);
    koma_engine_unmake(st->e);
    if (r != 0) return -1;
    v->feen = malloc(len + 1);
    if (v->feen == NULL) return oom(st);
    memcpy(v->feen, feen, len + 1);
    v->rule = "illegal-repeat";
    v->triggered = 1;
    v->result = out->result;
    v->ply = ply;
    v->loser = st->setup_turn ^ (int)((ply - 1) & 1);
    size_t k = 0;
    for (const char *p = canon; *p && k < KOMA_PMN_MAX_LEN; p++)
        if (*p != '\'') v->pmn[k++] = *p;
    v->pmn[k] = '\0';
    slot *sl = tracker_lookup(&st->t, key);
    for (uint32_t j = sl ? sl->first : NO_NEXT; j != NO_NEXT; j = st->t.next[j]) {
        if (st->t.where[j] == 0) continue;
        if (strcmp(st->t.pmn[j], v->pmn) == 0) {
            v->first = st->t.where[j];
            break;
        }
    }
    if (v->first == 0) {
        /* not found by its PMN: take the engine's word for it */
        const char *p = strstr(why->message, "repeats ply ");
        if (p) v->first = strtoul(p + 12, NULL, 10);
    }
    /* Report the move in canonical PMN, with its "'" */
    snprintf(v->pmn, sizeof v->pmn, "%s", canon);
    return 0;
}

/* The fourfold repetition the engine decided at the ply just played. */
static void fourfold(state *st, const koma_ending *out)
{
    verdict *v = &st->v;
    tracker *t = &st->t;
    slot *sl = tracker_lookup(t, koma_engine_hash(st->e));
    v->triggered = 1;
    v->ply = st->plies;
    v->result = out->result;
    v->first = sl ? t->where[sl->first] : 0;
    if (sl && sl->info >= 0) {
        const pos_info *pi = &t->infos[sl->info];
        memcpy(v->fid, pi->fid, KOMA_FID_BUF);
        v->feen = strdup(pi->feen);
    }
    /* Who gave check with every move from the first occurrence to this one. */
    int all[2] = {1, 1}, any[2] = {0, 0};
    for (unsigned long p = v->first + 1; p <= v->ply; p++) {
        int side = st->setup_turn ^ (int)((p - 1) & 1);
        any[side] = 1;
        if (!t->check[p]) all[side] = 0;
    }
    int perpetual = -1;
    for (int side = 0; side < 2; side++)
        if (any[side] && all[side] && !(any[side ^ 1] && all[side ^ 1])) perpetual = side;
    v->both_checked = any[0] && all[0] && any[1] && all[1];
    if (out->result != KOMA_RESULT_DRAW)
        v->loser = out->result == KOMA_RESULT_FIRST ? KOMA_SECOND : KOMA_FIRST;
    v->rule = v->loser >= 0 && v->loser == perpetual ? "perpetual-check" : "fourfold";
}

/* Play one recorded ply s[0..len); line/col locate it for diagnostics. */
static int record_ply(state *st, const char *s, size_t len, unsigned long line, unsigned long col)
{
    if (!st->active) return 0;
    if (st->stopped) {
        st->v.unchecked++;
        return 0;
    }
    koma_error err;
    koma_error_clear(&err);
    unsigned long ply = st->plies + 1;
    koma_move m;
    koma_emove em;
    char canon[KOMA_PMN_BUF];
    if (koma_pmn_parse(s, len, &m, &err) != 0) {
        ply_diag(st, ply, line, st->start ? err.column : col, s, len, &err);
        goto illegal;
    }
    canon[0] = '\0';
    if (koma_engine_find_move(st->e, &m, &em, &err) == 0) koma_engine_move_write(st->e, em, canon);
    koma_ending out;
    koma_error_clear(&err);
    int r = koma_engine_play(st->e, &m, &out, &err);
    if (r < 0) {
        if (err.code == KOMA_E_MEMORY) return oom(st);
        ply_diag(st, ply, line, st->start ? err.column : col, s, len, &err);
        goto illegal;
    }
    if (r == 1) {
        if (err.code == KOMA_E_RULES_REPETITION && out.status == KOMA_STATUS_REPETITION) {
            if (illegal_repeat(st, em, canon, &out, &err) != 0) return -1;
            st->stopped = 1;
            return 0;
        }
        ply_diag(st, ply, line, st->start ? err.column : col, s, len, &err);
        goto illegal;
    }
    st->plies = ply;
    if (note_position(st, ply, canon, koma_engine_in_check(st->e)) != 0) return -1;
    if (out.over) {
        st->stopped = 1;
        if (out.status == KOMA_STATUS_REPETITION) {
            fourfold(st, &out);
        } else {
            st->v.ended = 1;
            st->v.ended_ply = ply;
            st->v.ended_status = out.status;
            st->v.ended_result = out.result;
        }
    }
    return 0;
illegal:
    st->stopped = 1;
    st->v.illegal = 1;
    st->v.illegal_ply = ply;
    snprintf(st->v.illegal_code, sizeof st->v.illegal_code, "%s", koma_code_name(err.code));
    return 0;
}

static void record_end(state *st)
{
    if (!st->active) return;
    st->active = 0;
    unsigned long nrep = print_positions(st);
    if (nrep) st->repeated++;
    if (st->v.triggered) {
        st->triggered++;
        cli_fail(st->c, CLI_DATA);
        if (strcmp(st->v.rule, "illegal-repeat") == 0) st->n_illegal_repeat++;
        else if (strcmp(st->v.rule, "fourfold") == 0) st->n_fourfold++;
        else st->n_perpetual++;
    }
    print_verdict(st, nrep);
}

/* ---- inputs ----------------------------------------------------------------------------- */

/* PCN: JSON Lines or a YAML stream (cmd/records.c). */
static int check_pcn(void *ctx, record_item *item)
{
    state *st = ctx;
    if (item->rec == NULL) {
        st->records++;
        st->invalid++;
        cli_diag_error(st->c, CLI_DATA, item->src.file, &item->err, NULL);
        return 0;
    }
    size_t flen;
    const char *feen = koma_pcn_setup_feen(item->rec, &flen);
    if (record_begin(st, &item->src, feen, flen) != 0) return 0;
    size_t n = koma_pcn_ply_count(item->rec);
    for (size_t i = 0; i < n; i++) {
        size_t plen;
        const char *pmn = koma_pcn_ply_pmn(item->rec, i, &plen);
        if (record_ply(st, pmn, plen, item->src.line, 1) != 0) break;
    }
    record_end(st);
    return 0;
}

/* --start FEEN: runs of PMN lines (cmd/records.c). */
static int pmn_begin(void *ctx, const record_source *src)
{
    state *st = ctx;
    if (record_begin(st, src, st->start, strlen(st->start)) == 0) return 0;
    /* only when out of memory: the FEEN was checked at start-up */
    return st->c->status == CLI_TROUBLE ? -2 : -1;
}

static int pmn_move(void *ctx, const char *s, size_t len, unsigned long line)
{
    state *st = ctx;
    if (s != NULL) return record_ply(st, s, len, line, 1) != 0 ? -2 : 0;
    /* a line too long (reported): the record stops being checked there */
    if (st->active && !st->stopped) {
        st->stopped = 1;
        st->v.illegal = 1;
        st->v.illegal_ply = st->plies + 1;
        snprintf(st->v.illegal_code, sizeof st->v.illegal_code, "%s",
                 koma_code_name(KOMA_E_LINE_LENGTH));
        if (!st->record_invalid) {
            st->record_invalid = 1;
            st->invalid++;
        }
    }
    return 0;
}

static int pmn_end(void *ctx)
{
    record_end(ctx);
    return 0;
}

static const records_moves_fns pmn_fns = {pmn_begin, pmn_move, pmn_end, 0};

/* --fid-only: runs of FEEN lines, no rules. */
static int fid_begin(void *ctx, const record_source *src)
{
    state *st = ctx;
    st->fid_full = 0;
    st->file = src->file;
    st->line = src->line;
    st->records++;
    tracker_reset(&st->t);
    return 0;
}

static int fid_line(void *ctx, const char *s, size_t len, unsigned long line)
{
    state *st = ctx;
    cli *c = st->c;
    char feen[KOMA_FEEN_MAX_LEN + 1];
    if (s == NULL) {                   /* too long: reported */
        st->invalid++;
        return 0;
    }
    koma_error err;
    koma_error_clear(&err);
    if (koma_feen_parse(s, len, KOMA_FEEN_STRICT, &st->scratch, &err) != 0) {
        err.line = line;
        cli_diag_error(c, CLI_DATA, st->file, &err, NULL);
        st->invalid++;
        return 0;
    }
    if (st->t.n >= MAX_RUN) {
        if (!st->fid_full) {
            char msg[96];
            snprintf(msg, sizeof msg, "more than %zu positions in a run of FEEN lines; "
                     "the rest of the run is not checked", MAX_RUN);
            cli_diag(c, CLI_DATA, st->file, line, 1, koma_code_name(KOMA_E_REPETITION_LIMIT), msg,
                     NULL);
            st->invalid++;
            st->fid_full = 1;
        }
        return 0;
    }
    size_t flen;
    char fid[KOMA_FID_BUF];
    if (strip_feen(st, s, len, feen, &flen) != 0) {
        cli_trouble(c, "cannot strip the FEEN of line %lu", line);
        return 0;
    }
    koma_fid_of(feen, flen, fid);
    slot *sl;
    if (tracker_add(&st->t, fid_key(fid), line, 0, &sl) != 0 ||
        (sl->count == 2 && tracker_set_info(&st->t, sl, feen, flen, fid) != 0)) {
        oom(st);
        return -2;
    }
    return 0;
}

static int fid_end(void *ctx)
{
    state *st = ctx;
    if (print_positions(st)) st->repeated++;
    return 0;
}

static const records_moves_fns fid_fns = {fid_begin, fid_line, fid_end, 0};

static void check_input(state *st, const char *path)
{
    cli_input in;
    if (cli_input_open(st->c, &in, path) != 0) return;
    if (st->fid_only) records_moves(st->c, &in, &fid_fns, st);
    else if (st->start) records_moves(st->c, &in, &pmn_fns, st);
    else records_each(st->c, &in, &st->pcn, check_pcn, st);
    cli_input_close(&in);
}

/* ---- main --------------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("Usage: koma-repetition-check [OPTION]... [FILE]...\n"
          "Find repeated positions in game records (board, hands and side to move, every\n"
          "\"'\" removed) and apply the game's repetition rule: Ogi's illegal repeat (the\n"
          "same move producing the same position again: its player loses), or the\n"
          "shogi-family fourfold repetition (a draw; perpetual check loses).\n"
          "Input: PCN records (JSON Lines or a YAML stream) from each FILE (stdin when\n"
          "none or '-').\n"
          "\n"
          "  -g, --game GAME   the game: an id (ogi, ogi-classic, shogi, minishogi,\n"
          "                    okisaki) or a YAML definition file; default: from each\n"
          "                    setup FEEN's style letter and board shape\n"
          "      --start FEEN  the input is PMN lines played from FEEN ('start': the\n"
          "                    game's start position); a record is a run of lines\n"
          "                    ended by a blank line or the end of input\n"
          "      --fid-only    the input is FEEN lines, runs ended by a blank line; no\n"
          "                    rules (any game): report the repeated positions only\n"
          "      --format F    PCN input is json (JSON Lines) or yaml (a YAML stream);\n"
          "                    by default the first bytes decide\n"
          "      --json        JSON objects on stdout (schemas/koma-repetition-check.schema.json)\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "      --summary     end with counts\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "Output, tab-separated, per record: for each repeated position\n"
          "  FILE:LINE  position  COUNT  PLIES  FID  FEEN\n"
          "(PLIES: comma-separated, 0 = the setup; line numbers with --fid-only), then\n"
          "  FILE:LINE  verdict  RULE  RESULT  PLY  FID  REASON\n"
          "with RULE none, illegal-repeat, fourfold or perpetual-check.\n"
          "Progress goes to stderr when it is a terminal.\n"
          "Exit status: 0 no rule triggered, 1 a repetition rule triggered or invalid\n"
          "data, 2 usage or I/O trouble.\n",
          f);
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    int rc;
    cli_init(&c, "koma-repetition-check", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;
    koma_position_init(&st.scratch);
    verdict_clear(&st.v);
    const char *game = NULL, *start = NULL;

    enum { OPT_START = CLI_OPT_OWN, OPT_FID_ONLY, OPT_FORMAT };
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},
        {"start", required_argument, NULL, OPT_START},
        {"fid-only", no_argument, NULL, OPT_FID_ONLY},
        {"format", required_argument, NULL, OPT_FORMAT},
        CLI_OPTION_JSON, CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "g:qh", longopts)) != -1) {
        switch (opt) {
        case 'g': game = optarg; break;
        case OPT_START: start = optarg; break;
        case OPT_FID_ONLY: st.fid_only = 1; break;
        case OPT_FORMAT:
            if ((rc = records_format_option(&c, optarg, &st.pcn)) != 0) return rc;
            break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (st.fid_only && (start || game || st.pcn.format_given))
        return cli_usage_error(&c, "--fid-only excludes --start, --game and --format");
    if (start && st.pcn.format_given)
        return cli_usage_error(&c, "--format is for PCN input, not with --start");

    if (!st.fid_only && games_open(&c, &st.games) != 0) goto done;
    if (game != NULL && games_option(&c, st.games, game, "(--fid-only needs none)", &st.forced) != 0)
        goto done;
    if (start != NULL) {
        if (records_start_option(&c, st.games, start, "(try --fid-only)", &st.forced, st.startbuf) != 0)
            goto done;
        st.start = st.startbuf;
    }

    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        check_input(&st, path);
        if (cli_stdout_broken(&c)) break;
    }

    cli_progress_end(&c);
    if (c.summary && !c.quiet) {
        if (c.json) {
            printf("{\"summary\":{\"records\":%lu,\"repeated\":%lu,\"invalid\":%lu", st.records,
                   st.repeated, st.invalid);
            if (!st.fid_only)
                printf(",\"triggered\":%lu,\"illegal_repeat\":%lu,\"fourfold\":%lu,"
                       "\"perpetual_check\":%lu",
                       st.triggered, st.n_illegal_repeat, st.n_fourfold, st.n_perpetual);
            fputs("}}\n", stdout);
        } else if (st.fid_only) {
            printf("%lu %s checked: %lu with repeated positions, %lu invalid %s\n", st.records,
                   st.records == 1 ? "run" : "runs", st.repeated, st.invalid,
                   st.invalid == 1 ? "line" : "lines");
        } else {
            printf("%lu %s checked: %lu with repeated positions, %lu repetition rules triggered "
                   "(%lu illegal repeat, %lu fourfold, %lu perpetual check), %lu invalid\n",
                   st.records, st.records == 1 ? "record" : "records", st.repeated, st.triggered,
                   st.n_illegal_repeat, st.n_fourfold, st.n_perpetual, st.invalid);
        }
    }
done:
    engine_cache_free(&st.engines);
    koma_game_set_free(st.games);
    tracker_free(&st.t);
    verdict_clear(&st.v);
    koma_position_cleanup(&st.scratch);
    return cli_finish(&c);
}
