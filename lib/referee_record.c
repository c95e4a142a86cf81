/*
 * lib/referee_record.c — a PCN record judged (koma_referee_pcn): the game
 * under its meta.rule_options, its setup (kept from the last record when the
 * text is the same), its outcome as what the record expects, and its plies:
 * a light record's usual plies in a quick loop with the per-ply state in
 * locals (a copy of that loop for the mailbox engine calls its functions
 * directly, the facade's for the other backends), every other ply (and
 * anything unusual) through the general path of referee.c, which
 * KOMA_REFEREE_GENERAL keeps for every ply.
 */
#include <stdlib.h>
#include <string.h>

#include "util_json_pos.h"             /* JSON pointers escaped */
#include "engine_backend.h"            /* KOMA__ENGINE_* (koma__engine_flags) */
#include "engine_internal.h"           /* the mailbox engine's calls, for its quick loop */

#define RULE_OPTIONS_MAX 32            /* members of a record's meta.rule_options */
#include "referee_internal.h"

/*
 * The game a record is played under: *g, or *g under the rule options of the
 * record's meta.rule_options (an object, NAME: VALUE, values strings, booleans
 * or integers; koma-games(7), KO SHOGI, Rule options), a variant the referee keeps. 0, or -1 with err
 * (game.option.*: no such option, not one of its values, a value koma does not
 * play, a game without options; game.limit: too many different settings).
 */
/* at: the pointer of the member of meta.rule_options named name[0..nl) (escaped;
 * the object itself when it cannot be written). */
static void option_member(char at[KOMA_VERDICT_POINTER_MAX], const char *name, size_t nl)
{
    size_t len = strlen(at);
    if (memchr(name, '\0', nl) != NULL ||
        koma__json_pointer_push(at, KOMA_VERDICT_POINTER_MAX, &len, name, nl) != 0)
        at[strlen("/meta/rule_options")] = '\0';
}

static int record_rules(koma_referee *r, const koma_pcn *rec, const koma_game **g,
                        char at[KOMA_VERDICT_POINTER_MAX], koma_error *err)
{
    static const char where[] = "/meta/rule_options";
    koma_pcn_value val;
    koma_pcn_type t = koma_pcn_get(rec, where, &val);
    if (t == KOMA_PCN_ABSENT) return 0;
    strcpy(at, where);
    if (t != KOMA_PCN_OBJECT)
        return koma_error_set(err, KOMA_E_GAME_OPTION_VALUE, 0,
                              "meta.rule_options must be an object of option: value");
    if (val.len > RULE_OPTIONS_MAX)
        return koma_error_set(err, KOMA_E_GAME_OPTION_VALUE, 0,
                              "meta.rule_options: more than %d options", RULE_OPTIONS_MAX);
    char text[RULE_OPTIONS_MAX][96];
    const char *opts[RULE_OPTIONS_MAX], *names[RULE_OPTIONS_MAX];
    size_t lens[RULE_OPTIONS_MAX];
    size_t n = 0;
    for (size_t k = 0; k < val.len; k++) {
        size_t i = n, nl;
        const char *name = koma_pcn_key(rec, where, k, &nl);
        char ptr[160];
        if (name != NULL) option_member(at, name, nl);
        if (name == NULL || nl > 64 || memchr(name, '/', nl) || memchr(name, '~', nl) ||
            memchr(name, '\0', nl))
            return koma_error_set(err, KOMA_E_GAME_OPTION_UNKNOWN, 0,
                                  "meta.rule_options: no option of that name");
        snprintf(ptr, sizeof ptr, "%s/%.*s", where, (int)nl, name);
        koma_pcn_value ov;
        if (nl == 11 && memcmp(name, "declaration", 11) == 0 && strcmp((*g)->id, "shogi") == 0) {
            /* the referee's own: how an entering-king declaration is judged */
            koma_pcn_type ot = koma_pcn_get(rec, ptr, &ov);
            char word[8] = "";
            if (ot == KOMA_PCN_STRING && ov.len < sizeof word) memcpy(word, ov.string, ov.len);
            else if (ot == KOMA_PCN_INTEGER && (ov.integer == 27 || ov.integer == 24))
                snprintf(word, sizeof word, "%lld", ov.integer);
            if (strcmp(word, "27") == 0) r->rule = KOMA_DECLARE_27;
            else if (strcmp(word, "24") == 0) r->rule = KOMA_DECLARE_24;
            else if (strcmp(word, "try") == 0) r->rule = KOMA_DECLARE_TRY;
            else
                return koma_error_set(err, KOMA_E_GAME_OPTION_VALUE, 0,
                                      "meta.rule_options.declaration: 27, 24 or try");
            at[sizeof where - 1] = '\0';
            continue;
        }
        switch (koma_pcn_get(rec, ptr, &ov)) {
        case KOMA_PCN_STRING:
            if (ov.len > 24 || memchr(ov.string, '\0', ov.len))
                return koma_error_set(err, KOMA_E_GAME_OPTION_VALUE, 0,
                                      "meta.rule_options.%.*s: not a value of the option", (int)nl, name);
            snprintf(text[i], sizeof text[i], "%.*s=%.*s", (int)nl, name, (int)ov.len, ov.string);
            break;
        case KOMA_PCN_BOOL:
            snprintf(text[i], sizeof text[i], "%.*s=%s", (int)nl, name, ov.boolean ? "true" : "false");
            break;
        case KOMA_PCN_INTEGER:
            snprintf(text[i], sizeof text[i], "%.*s=%lld", (int)nl, name, ov.integer);
            break;
        default:
            return koma_error_set(err, KOMA_E_GAME_OPTION_VALUE, 0,
                                  "meta.rule_options.%.*s: a string, boolean or integer", (int)nl, name);
        }
        opts[i] = text[i];
        names[i] = name;
        lens[i] = nl;
        n++;
        at[sizeof where - 1] = '\0';
    }
    if (n == 0) return 0;
    koma_game *v;
    size_t bad;
    if (koma__game_variant_new(*g, opts, n, &v, &bad, err) != 0) {
        if (bad < n) option_member(at, names[bad], lens[bad]);
        return -1;
    }
    for (size_t i = 0; i < r->nvariants; i++)
        if (r->variants[i].base == *g && strcmp(r->variants[i].game->variant, v->variant) == 0) {
            koma__game_free(v);
            *g = r->variants[i].game;
            return 0;
        }
    if (r->nvariants == VARIANTS_MAX) {
        koma__game_free(v);
        return koma_error_set(err, KOMA_E_GAME_LIMIT, 0,
                              "more than %d different meta.rule_options in one run", VARIANTS_MAX);
    }
    r->variants[r->nvariants].base = *g;
    r->variants[r->nvariants++].game = v;
    *g = v;
    return 0;
}

static void set_ahead(koma_referee *r, const koma_move *of, size_t index, koma_emove m)
{
    r->ahead_of = of;
    r->ahead_index = index;
    r->ahead_move = m;
}

/* Whether the quick loop may take the plies of the record set up: canonical PMN
 * on a backend whose moves are one PMN move each, not KOMA_REFEREE_GENERAL. */
static int quick_record(const koma_referee *r)
{
    return r->state == ON && r->opt.dialect == KOMA_PMN_DIALECT_CANONICAL &&
           (r->flags & KOMA__ENGINE_ONE_PMN) && !(r->opt.flags & KOMA_REFEREE_GENERAL);
}

/*
 * The engine's calls of the quick loop: through the facade, or with mb (a
 * constant in each of the loop's two copies) the mailbox engine's own, called
 * directly, its turn, hash, threat and usual ending read inline.
 */
static inline int q_find(koma_engine *e, int mb, const koma_move *mv, koma_emove *m, koma_error *err)
{
    return mb ? koma__mb_find_move(e, mv, m, err) : koma_engine_find_move(e, mv, m, err);
}

static inline int q_make(koma_engine *e, int mb, koma_emove m, koma_error *err)
{
    return mb ? koma__mb_make(e, m, err) : koma_engine_make(e, m, err);
}

static inline void q_facts(koma_engine *e, int mb, koma_emove m, koma_move_facts *f)
{
    if (mb) koma__mb_facts(e, m, f);
    else koma_engine_move_facts(e, m, f);
}

static inline int q_threat(koma_engine *e, int mb, int side)
{
    if (!mb) return koma_engine_threatens(e, side);
    return koma__mb_threat_known(e, side) ? e->check_on : koma__mb_threatens(e, side);
}

static inline void q_ending(koma_engine *e, int mb, koma_ending *out, int has_move)
{
    if (!mb) koma__position_ending(e, out, has_move);
    else if (koma__mb_ending_none(e, has_move)) *out = (koma_ending){.side = -1};
    else koma__mb_position_ending(e, out, has_move);
}

/*
 * The plies of a light record from the first, each judged as ply() judges it,
 * for as long as each is the usual one: parsed by the record's pass, legal, no
 * same-move repetition, the game still on. *at: the first ply it did not take;
 * the general loop goes on from there and judges that ply from the same state
 * (a ply it refuses is reported there). 0, -1 (trouble: err), or a hook's
 * non-zero value.
 */
static inline __attribute__((always_inline)) int
quick_loop(koma_referee *r, const koma__pcn_light *l, size_t n, const koma_referee_hooks *hooks,
           size_t *at, koma_error *err, int mb)
{
    const koma_game *g = r->g;
    koma_engine *e = r->e;
    size_t last = n < KOMA_LIMIT_PLIES ? n : KOMA_LIMIT_PLIES;
    if (r->has_stop && r->stop_at < last) last = r->stop_at;
    /* (every ply here is played: no call when the caller wants none for those) */
    int (*hook)(void *, koma_referee *, size_t, int, const koma_error *) =
        hooks && !(r->opt.flags & KOMA_REFEREE_QUIET_PLAYED) ? hooks->ply : NULL;
    int same_move_rule = g->repetition == KOMA__REP_SAME_MOVE;
    int fourfold_rule = g->repetition == KOMA__REP_FOURFOLD;
    /* history_due's tests, each a comparison that never holds when its rule is absent */
    uint32_t rep_at = fourfold_rule ? (uint32_t)g->repetition_count : UINT32_MAX;
    uint32_t limit_at = g->move_limit ? (uint32_t)g->move_limit : UINT32_MAX;
    size_t cap_at = g->move_cap ? g->move_cap : SIZE_MAX;
    int capture_resets = g->move_limit_capture_resets;
    /* the move's facts serve the same-move rule (its key) and the move limit
     * alone (its count, read by nothing else): a game with neither (Shogi's
     * fourfold rule) leaves them 0 */
    int need_facts = same_move_rule || g->move_limit;
    /* (a backend whose threats and endings never run out of memory is not asked) */
    int may_fail = !(r->flags & KOMA__ENGINE_NO_FAILURE);
    koma_error why;
    why.code = KOMA_OK;                /* (the hook's err for a played ply: nothing set) */
    size_t i = r->index;
    /* the move of ply i when the previous ply found it ahead */
    int ahead = r->ahead_of != NULL && r->ahead_index == i && i < n && r->ahead_of == &l->plies[i].move;
    koma_emove m = ahead ? r->ahead_move : 0;
    r->ahead_of = NULL;
    for (; i < last && r->state == ON; i++) {
        const struct koma__pcn_span *sp = &l->plies[i];
        if (!sp->parsed) break;
        if (!ahead && q_find(e, mb, &sp->move, &m, &why) != 0) {
            if (why.code == KOMA_E_MEMORY) {
                *err = why;
                return -1;
            }
            break;                     /* the general loop reports it */
        }
        ahead = 0;
        int mover = mb ? e->turn : koma_engine_turn(e);
        koma_move_facts f = {0};
        if (need_facts) q_facts(e, mb, m, &f);
        size_t np = r->played + 1;
        if ((np >= r->caph && koma__referee_grow_history(r, np + 1, err) != 0) || q_make(e, mb, m, err) != 0)
            return -1;
        uint64_t hash = mb ? koma__hash(e) : koma_engine_hash(e);
        size_t b = (size_t)(hash % BUCKETS);
        if (same_move_rule && r->bucket[b] > 0 && koma__referee_same_move(r, np, f.key, hash)) {
            koma_engine_unmake(e);     /* the general loop refuses it */
            break;
        }
        r->bucket[b]++;
        r->index = i + 1;
        r->played = np;
        hist *h = &r->h[np];
        h->hash = hash;
        h->prev = r->head[b];
        r->head[b] = (uint32_t)np + 1;
        h->key = f.key;
        h->threat = (uint8_t)(fourfold_rule && q_threat(e, mb, mover));
        if (g->move_limit)
            r->limit_count = (f.resets || (f.captures && capture_resets)) ? 0 : r->limit_count + 1;
        if (r->track && koma__referee_track(r, hash, np, err) != 0) return -1;
        if (i + 1 < n && sp[1].parsed) {
            koma_error ignored;
            ahead = q_find(e, mb, &sp[1].move, &m, &ignored) == 0;
        }
        q_ending(e, mb, &r->end, ahead);
        if (!mb && may_fail && koma__engine_trouble(e)) return oom(err);
        if (r->end.over || r->bucket[b] >= rep_at || r->limit_count >= limit_at || np >= cap_at) {
            ply_ctx pc;                /* (history_endings: what it reads of a ply) */
            pc.i = i;
            pc.text = pc.canon = l->text + sp->off;
            pc.len = pc.clen = sp->len;
            pc.slip = 0;
            pc.mover = mover;
            pc.n = np;
            pc.hash = hash;
            pc.b = b;
            if (koma__referee_history_endings(r, &pc, err) != 0) return -1;
        }
        int stop;
        if (hook && (stop = hook(hooks->ctx, r, i, KOMA_PLY_PLAYED, &why)) != 0) {
            if (ahead) set_ahead(r, &sp[1].move, i + 1, m);
            return stop;
        }
    }
    /* the general loop takes the next ply's move found ahead as read_ply does */
    if (ahead) set_ahead(r, &l->plies[i].move, i, m);
    *at = i;
    return 0;
}

/* The quick loop for r's engine: the mailbox engine's copy, or the facade's. */
static int quick_plies(koma_referee *r, const koma__pcn_light *l, size_t n,
                       const koma_referee_hooks *hooks, size_t *at, koma_error *err)
{
    if (r->e->ops == &koma__mailbox_ops) return quick_loop(r, l, n, hooks, at, err, 1);
    return quick_loop(r, l, n, hooks, at, err, 0);
}

/* The setup FEEN feen[0..flen) (NULL: absent) read into r->setup (not read
 * again when it is the last record's text), and its game looked up in games
 * unless *game is given. (The game is not kept from record to record: the
 * set may be another one, or have changed, by the next call.) 0, or -1 (err). */
static int read_setup(koma_referee *r, const koma_game_set *games, const char *feen, size_t flen,
                      const koma_game **game, koma_error *err)
{
    if (!(feen && r->setup_len && flen == r->setup_len && memcmp(feen, r->setup_text, flen) == 0)) {
        r->setup_len = 0;
        r->setup_claims_of = NULL;
        if (koma_feen_parse(feen ? feen : "", feen ? flen : 0, KOMA_FEEN_STRICT, &r->setup, err) != 0)
            return -1;
        if (feen && flen > 0 && flen < sizeof r->setup_text) {
            memcpy(r->setup_text, feen, flen);
            r->setup_len = flen;
        }
    }
    if (*game == NULL && (*game = koma_game_set_find_position(games, &r->setup, err)) == NULL) return -1;
    return 0;
}

static int judge_pcn(koma_referee *r, const koma_game_set *games, const koma_game *game,
                     const koma_pcn *rec, const koma_referee_hooks *hooks, koma_verdict *v,
                     koma_error *err)
{
    size_t flen;
    const char *feen = koma_pcn_setup_feen(rec, &flen);
    v->game = game;
    strcpy(v->unjudged_member, "/setup/feen");
    /* koma_game_set_open_feen without its fit test: koma_referee_begin sets the
     * position on the engine, which makes the same test */
    int rc = read_setup(r, games, feen, flen, &game, err);
    if (rc == 0) rc = koma_game_require_rules(game, err);
    v->game = game;
    r->rule = KOMA_DECLARE_DEFAULT;
    if (rc == 0) rc = record_rules(r, rec, &game, v->unjudged_member, err);
    if (rc == 0) {
        strcpy(v->unjudged_member, "/setup/feen");   /* the position must fit the game */
        rc = koma_referee_begin(r, game, &r->setup, err);
    }
    if (rc != 0) return err && err->code == KOMA_E_MEMORY ? -1 : 1;
    int shogi_world = 0, from_csa = 0;
    koma_pcn_value src;
    if (koma_pcn_get(rec, "/meta/source/format", &src) == KOMA_PCN_STRING)
        for (const char *const *f = (const char *const[]){"csa", "kif", "ki2", "jkf", NULL}; *f; f++)
            if (src.len == strlen(*f) && memcmp(src.string, *f, src.len) == 0) {
                shogi_world = 1;
                from_csa = **f == 'c';
            }
    /* the stated handicap: meta.handicap (KIF's 手合割, JKF's preset), or in a CSA
     * record the comment koma's CSA writer gives it */
    koma_pcn_value hc;
    const char *said = NULL;
    size_t said_len = 0;
    if (koma_pcn_get(rec, "/meta/handicap", &hc) == KOMA_PCN_STRING) {
        said = hc.string;
        said_len = hc.len;
    } else if (from_csa) {
        said = koma__referee_comment_value(rec, "handicap: ", &said_len);
    }
    if (r->claims && said) koma__referee_state_handicap(r, &r->setup, said, said_len);
    /* with no outcome, only where the record comes from (an illegal last ply
     * is then its ending) */
    r->rec.from_shogi_world = shogi_world;
    if (koma_pcn_has_outcome(rec)) {
        koma_recorded expect;
        memset(&expect, 0, sizeof expect);
        const char *res = koma_pcn_outcome_result(rec);
        if (res) {
            expect.has_result = 1;
            copy(expect.result, sizeof expect.result, res);
        }
        const char *st = koma_pcn_outcome_status(rec);
        if (st && koma_cgsn_parse(st, strlen(st), &expect.status, NULL) == 0) expect.has_status = 1;
        expect.has_ply = koma_pcn_outcome_ply(rec, &expect.ply);
        expect.from_shogi_world = shogi_world;
        /* a claim the final position can check: an entering-king declaration or
         * an impasse (outcome.csa, as CSA, KIF and JKF endings are kept) */
        koma_pcn_value csa;
        if (koma_pcn_get(rec, "/outcome/csa", &csa) == KOMA_PCN_STRING && !expect.has_status) {
            if (csa.len == 6 && memcmp(csa.string, "%KACHI", 6) == 0) expect.claim = KOMA_CLAIM_DECLARATION;
            else if (csa.len == 8 && memcmp(csa.string, "%JISHOGI", 8) == 0) expect.claim = KOMA_CLAIM_IMPASSE;
        }
        koma_referee_expect(r, &expect);
    }
    int stop;
    if (hooks && hooks->begun && (stop = hooks->begun(hooks->ctx, r)) != 0) return stop;
    size_t n = koma_pcn_ply_count(rec);
    const koma__pcn_light *l = rec->light;   /* (a light record: its table read directly) */
    size_t i = 0;
    if (l && quick_record(r) && (stop = quick_plies(r, l, n, hooks, &i, err)) != 0) return stop;
    for (; i < n; i++) {
        size_t len = 0;
        const char *s;
        const koma_move *mv;
        if (l) {
            s = l->text + l->plies[i].off;
            len = l->plies[i].len;
            mv = l->plies[i].parsed ? &l->plies[i].move : NULL;
            r->next = i + 1 < n && l->plies[i + 1].parsed ? &l->plies[i + 1].move : NULL;
        } else {
            s = koma_pcn_ply_pmn(rec, i, &len);
            mv = s ? koma__pcn_ply_move(rec, i) : NULL;
            r->next = i + 1 < n ? koma__pcn_ply_move(rec, i + 1) : NULL;
        }
        koma_error why;
        why.code = KOMA_OK;
        int st = koma__referee_ply(r, s ? s : "", s ? len : 0, mv, &why);
        r->next = NULL;
        if (st < 0) {
            if (err) *err = why;
            return -1;
        }
        if (hooks && hooks->ply && !(st == KOMA_PLY_PLAYED && (r->opt.flags & KOMA_REFEREE_QUIET_PLAYED)) &&
            (stop = hooks->ply(hooks->ctx, r, i, st, &why)) != 0)
            return stop;
        if (st == KOMA_PLY_UNREADABLE) break;
    }
    if (r->has_recorded) koma__referee_check_clock(r, rec, &r->rec, n);
    return koma__referee_finish(r, v, err);
}

int koma_referee_pcn(koma_referee *r, const koma_game_set *games, const koma_game *game,
                     const koma_pcn *rec, const koma_referee_hooks *hooks, koma_verdict *v,
                     koma_error *err)
{
    koma_verdict *w = koma__referee_verdict_open(v, err);
    return w ? koma__referee_verdict_close(v, w, judge_pcn(r, games, game, rec, hooks, w, err)) : -1;
}
