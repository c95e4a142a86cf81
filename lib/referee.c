/*
 * lib/referee.c — judging a game ply by ply (koma/referee.h): the referee
 * made and set up, each ply read, played and followed by the endings in the
 * order of koma-games(7), the history rules (same-move repetition, fourfold
 * repetition and perpetual check, the move limit). The record's other parts
 * are judged by the modules lib/referee_internal.h lists.
 *
 * Everything about positions and moves is asked of the engine through its
 * facade (koma/engine.h; lib/engine_backend.h says what the referee asks and
 * what a backend answers), never of a backend; the game definition gives the
 * history rules and the termination table.
 *
 * History: h[0] is the setup, h[i] the position after ply i (its hash, the
 * ply's move key, and whether its player threatened to end the game). The
 * fourfold and same-move rules look through the history only when the bucket
 * of the new position's hash (hash mod BUCKETS) holds enough positions, so a
 * ply costs O(1) unless positions repeat.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_backend.h"            /* KOMA__ENGINE_* (koma__engine_flags) */
#include "referee_internal.h"

int koma_referee_new(const koma_referee_options *opt, koma_referee **out, koma_error *err)
{
    koma_referee *r = calloc(1, sizeof *r);
    *out = NULL;
    if (r == NULL) return oom(err);
    if (koma__sized_read(&r->opt, sizeof r->opt, opt, KOMA__REFEREE_OPTIONS_FIRST,
                         "koma_referee_options", err) != 0) {
        free(r);
        return -1;
    }
    koma_position_init(&r->pos);
    koma_position_init(&r->setup);
    if ((r->opt.flags & KOMA_REFEREE_TRACK) && koma_repeats_new(&r->track, err) != 0) {
        free(r);
        return -1;
    }
    *out = r;
    return 0;
}

void koma_referee_free(koma_referee *r)
{
    if (r == NULL) return;
    for (size_t i = 0; i < r->nengines; i++) koma_engine_free(r->engines[i]);
    for (size_t i = 0; i < r->nvariants; i++) koma__game_free(r->variants[i].game);
    koma_position_cleanup(&r->pos);
    koma_position_cleanup(&r->setup);
    koma_repeats_free(r->track);
    free(r->h);
    free(r->moves);
    free(r->texts);
    free(r);
}

koma_repeats *koma_referee_positions(const koma_referee *r) { return r->track; }
void koma_referee_set_declaration(koma_referee *r, koma_declaration_rule rule) { r->opt.declaration = rule; }
int koma_referee_over(const koma_referee *r) { return r->state != ON; }
const koma_engine *koma_referee_engine(const koma_referee *r) { return r->e; }
size_t koma_referee_played(const koma_referee *r) { return r->played; }
int koma_referee_turn(const koma_referee *r) { return koma_engine_turn(r->e); }

int koma_referee_feen(const koma_referee *r, char *buf, size_t cap, size_t *len, koma_error *err)
{
    return koma_engine_feen(r->e, buf, cap, len, err);
}

/* The engine of game g (made on first use; the oldest goes when a ninth is needed). */
static koma_engine *engine_for(koma_referee *r, const koma_game *g, koma_error *err)
{
    for (size_t i = 0; i < r->nengines; i++)
        if (koma_engine_game(r->engines[i]) == g) return r->engines[i];
    koma_engine *e;
    if (koma_engine_new(g, &e, err) != 0) return NULL;
    if (r->nengines == ENGINES_MAX) {
        koma_engine_free(r->engines[0]);
        memmove(r->engines, r->engines + 1, (ENGINES_MAX - 1) * sizeof r->engines[0]);
        r->nengines--;
    }
    r->engines[r->nengines++] = e;
    return e;
}

int koma__referee_grow_history(koma_referee *r, size_t need, koma_error *err)
{
    if (need <= r->caph) return 0;
    size_t cap = r->caph ? r->caph : 256;
    while (cap < need) cap *= 2;
    hist *h = realloc(r->h, cap * sizeof *h);
    if (h == NULL) return oom(err);
    r->h = h;
    r->caph = cap;
    return 0;
}

/* FEEN and FID of the current position with every "'" removed (kept when the
 * backend's positions tell "'" apart, KOMA__ENGINE_MARKED_IDENTITY: in Ko shogi
 * "'" is a second alphabet, part of the identity). */
static int stripped(koma_referee *r, char *feen, size_t cap, size_t *len, char fid[KOMA_FID_BUF],
                    koma_error *err)
{
    if (koma_engine_get_position(r->e, &r->pos, err) != 0 ||
        (!(r->flags & KOMA__ENGINE_MARKED_IDENTITY) && koma_position_strip_derived(&r->pos, err) != 0))
        return -1;
    size_t n = koma_feen_write(&r->pos, feen, cap);
    if (n == 0 || n >= cap) {
        if (cap) feen[0] = '\0';
        return koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, "the position's FEEN needs %zu bytes", n + 1);
    }
    koma_fid_of(feen, n, fid);
    *len = n;
    return 0;
}

/* Note the current position as occurring after ply `ply` (KOMA_REFEREE_TRACK). */
int koma__referee_track(koma_referee *r, uint64_t hash, size_t ply, koma_error *err)
{
    unsigned long count;
    if (koma_repeats_add(r->track, hash, (unsigned long)ply, &count, err) != 0) return -1;
    if (count != 2) return 0;
    char feen[KOMA_FEEN_MAX_LEN + 1], fid[KOMA_FID_BUF];
    size_t len;
    if (stripped(r, feen, sizeof feen, &len, fid, err) != 0) return -1;
    return koma_repeats_attach_feen(r->track, hash, feen, len, fid, err);
}

int koma_referee_begin(koma_referee *r, const koma_game *g, const koma_position *setup,
                       koma_error *err)
{
    r->state = UNREADABLE;             /* until the game is set up */
    r->ruled = 0;
    r->index = r->played = 0;
    r->has_stop = 0;
    r->has_recorded = 0;
    memset(&r->rec, 0, sizeof r->rec);
    memset(&r->end, 0, sizeof r->end);
    r->end.side = -1;
    r->ply = 0;
    r->move[0] = '\0';
    r->illegal = r->refused = 0;
    r->refused_ply = r->refused_offset = 0;
    r->refused_code = KOMA_OK;
    r->refused_text[0] = r->refused_message[0] = '\0';
    r->alt_square[0] = r->legal[0] = '\0';
    r->alt_drop = 0;
    r->repeats = r->cycle_first = 0;
    r->occurrences = 0;
    r->perpetual = -1;
    r->all_threatened[0] = r->all_threatened[1] = 0;
    r->has_repeated = 0;
    r->repeated_fid[0] = r->repeated_feen[0] = '\0';
    r->extra = r->extra_ply = 0;
    r->extra_text[0] = '\0';
    r->notation_faults = r->notation_ply = 0;
    r->limit_count = 0;
    r->ahead_of = NULL;
    memset(&r->clk, 0, sizeof r->clk);
    r->g = g;
    if (r->track) koma_repeats_reset(r->track);
    if ((r->e = engine_for(r, g, err)) == NULL) return -1;
    r->flags = koma__engine_flags(r->e);
    if (koma_engine_set_position(r->e, setup, err) != 0) return -1;
    if (koma__referee_grow_history(r, 1, err) != 0) return -1;
    uint64_t hash = koma_engine_hash(r->e);
    r->h[0].hash = hash;
    r->h[0].key = 0;
    r->h[0].threat = 0;
    memset(r->bucket, 0, sizeof r->bucket);
    memset(r->head, 0, sizeof r->head);
    r->bucket[hash % BUCKETS] = 1;
    r->head[hash % BUCKETS] = 1;
    r->h[0].prev = 0;
    r->setup_turn = koma_engine_turn(r->e);
    if (r->track && koma__referee_track(r, hash, 0, err) != 0) return -1;
    koma__referee_setup_claims(r, setup);
    r->state = ON;
    koma_engine_position_ending(r->e, &r->end);
    if (koma__engine_trouble(r->e)) return oom(err);
    if (r->end.over) {
        r->state = ENDED;
        r->ruled = 1;
        r->ply = 0;
        r->mover = r->setup_turn ^ 1;
    }
    return 0;
}

void koma_referee_expect(koma_referee *r, const koma_recorded *rec)
{
    r->has_recorded = 1;
    r->rec = *rec;
    /* a recorded resignation (or a bare result) before the last ply: the rest
     * comes after the end */
    if (rec->has_ply && ((rec->has_status && explicit_status(rec->status)) ||
                         (!rec->has_status && rec->has_result))) {
        r->has_stop = 1;
        r->stop_at = rec->ply > SIZE_MAX ? SIZE_MAX : (size_t)rec->ply;
    }
}

/* pmn.* codes that say the text is not a move at all (as opposed to a move that
 * does not fit the position). */
static int unreadable_code(koma_code code)
{
    switch (code) {
    case KOMA_E_PMN_EMPTY: case KOMA_E_PMN_LENGTH: case KOMA_E_PMN_ASCII:
    case KOMA_E_PMN_SYNTAX: case KOMA_E_PMN_END: case KOMA_E_PMN_CELL: case KOMA_E_PMN_EPIN:
    case KOMA_E_PMN_SUFFIX: case KOMA_E_PMN_JSON_SYNTAX: case KOMA_E_PMN_JSON_LENGTH:
    case KOMA_E_PMN_JSON_LOCATION: case KOMA_E_PMN_JSON_PIECE: case KOMA_E_PMN_JSON_HAND:
    case KOMA_E_PMN_JSON_UNSUPPORTED: case KOMA_E_PMN_CONTEXT:
        return 1;
    default:
        return 0;
    }
}

/* ---- plies -------------------------------------------------------------------------- */

static void refuse(koma_referee *r, size_t i, const char *s, size_t len, const koma_error *why)
{
    r->refused = 1;
    r->refused_ply = i + 1;
    r->refused_code = why->code;
    r->refused_offset = why->offset;
    koma_quote(r->refused_text, sizeof r->refused_text, s, len);
    copy(r->refused_message, sizeof r->refused_message, why->message);
}

static int unreadable(koma_referee *r, size_t i, const char *s, size_t len, const koma_error *why)
{
    refuse(r, i, s, len, why);
    r->state = UNREADABLE;
    return KOMA_PLY_UNREADABLE;
}

/* An illegal ply: the game ends there, its player loses (status illegalmove, or
 * repetition for the same-move rule). */
static int illegal(koma_referee *r, size_t i, const char *s, size_t len, const char *canon,
                   size_t clen, koma_status st, const koma_error *why, koma_error *err)
{
    /* a game whose rules refuse an illegal ply (the player keeps the turn; Sanki):
     * no ending, the record is invalid data, judged no further */
    if (r->g->illegal_rejected && st == KOMA_STATUS_ILLEGALMOVE) {
        if (canon && koma__referee_alternatives(r, canon, clen, err) != 0) return -1;
        return unreadable(r, i, s, len, why);
    }
    refuse(r, i, s, len, why);
    r->illegal = 1;
    r->mover = koma_engine_turn(r->e);
    r->end.over = 1;
    r->end.status = st;
    r->end.side = r->mover;
    r->end.result = koma_game_result(r->g, st, r->mover);
    r->state = ENDED;
    r->ruled = 1;
    r->ply = i + 1;
    if (canon && koma__referee_alternatives(r, canon, clen, err) != 0) return -1;
    return KOMA_PLY_ILLEGAL;
}

static void after_end(koma_referee *r, size_t i, const char *s, size_t len)
{
    if (r->extra++ == 0) {
        r->extra_ply = i + 1;
        koma_quote(r->extra_text, sizeof r->extra_text, s, len);
    }
}

/* The earlier ply of the same player that made the move `key` to the position
 * `hash` (the same-move rule), or 0. n: the ply being made. */
size_t koma__referee_same_move(const koma_referee *r, size_t n, uint64_t key, uint64_t hash)
{
    /* the positions of the hash's bucket, latest first; only the plies of the
     * same player can match (the key holds the mover's side): the earliest */
    size_t found = 0;
    for (uint32_t at = r->head[hash % BUCKETS]; at; at = r->h[at - 1].prev) {
        size_t j = at - 1;
        if (j > 0 && j < n && (j & 1) == (n & 1) && r->h[j].key == key && r->h[j].hash == hash)
            found = j;
    }
    return found;
}

int koma_referee_allows(koma_referee *r, const char *text, size_t len, koma_error *err)
{
    if (r->state != ON || (r->has_stop && r->index >= r->stop_at) ||
        r->index >= KOMA_LIMIT_PLIES || r->opt.dialect != KOMA_PMN_DIALECT_CANONICAL)
        return 0;
    koma_emove m;
    koma_error why;
    if (koma_engine_parse_move(r->e, text, len, &m, &why) != 0) {
        if (why.code != KOMA_E_MEMORY) return 0;
        if (err) *err = why;
        return -1;
    }
    if (r->g->repetition != KOMA__REP_SAME_MOVE) return 1;
    koma_move_facts f;
    koma_engine_move_facts(r->e, m, &f);
    if (koma_engine_make(r->e, m, err) != 0) return -1;
    uint64_t hash = koma_engine_hash(r->e);
    koma_engine_unmake(r->e);
    if (r->bucket[hash % BUCKETS] == 0) return 1;
    return koma__referee_same_move(r, r->played + 1, f.key, hash) == 0;
}

void koma_referee_ply_unreadable(koma_referee *r, const koma_error *why)
{
    size_t i = r->index++;
    if (r->state == ON) unreadable(r, i, "", 0, why);
    else if (r->state == ENDED) after_end(r, i, "", 0);
}

/* The fourfold rule at the position after ply n (its hash h). */
static void fourfold(koma_referee *r, size_t n, uint64_t h, int mover)
{
    const koma_game *g = r->g;
    unsigned long seen = 0;
    size_t first = 0;
    for (size_t i = 0; i <= n; i++)
        if (r->h[i].hash == h) {
            if (seen == 0) first = i;
            seen++;
        }
    if (seen < g->repetition_count) return;
    r->end.over = 1;
    r->end.status = KOMA_STATUS_REPETITION;
    r->end.side = mover;               /* the player of the ply that completes it */
    r->end.result = koma_game_result(g, KOMA_STATUS_REPETITION, mover);
    r->cycle_first = first;
    r->occurrences = seen;
    /* plies first+1 .. n; ply i was made by the side to move after ply i-1 */
    int all[2] = {1, 1}, any[2] = {0, 0};
    for (size_t i = first + 1; i <= n; i++) {
        int side = r->setup_turn ^ (int)((i - 1) & 1);
        any[side] = 1;
        if (!r->h[i].threat) all[side] = 0;
    }
    for (int side = 0; side < 2; side++) r->all_threatened[side] = any[side] && all[side];
    if (g->perpetual_check_loses)
        for (int side = 0; side < 2; side++)
            if (r->all_threatened[side] && !r->all_threatened[side ^ 1]) {
                r->perpetual = side;
                r->end.result = side == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
            }
}

/* The repeated position (the current one) for the verdict. */
static int note_repeated(koma_referee *r, koma_error *err)
{
    size_t len;
    if (stripped(r, r->repeated_feen, sizeof r->repeated_feen, &len, r->repeated_fid, err) != 0)
        return -1;
    r->has_repeated = 1;
    return 0;
}

static int ply(koma_referee *r, const char *text, size_t len, const koma_move *parsed,
               koma_error *why, koma_error *err);

/* A ply; parsed (may be NULL): text already parsed as canonical PMN. */
int koma__referee_ply(koma_referee *r, const char *text, size_t len, const koma_move *parsed,
                       koma_error *err)
{
    koma_error why;
    why.code = KOMA_OK;                /* (cleared only when set: the usual ply sets nothing) */
    int rc = ply(r, text, len, parsed, &why, err);
    /* err says why a ply was refused (or is a notation slip: already set) */
    if ((rc == KOMA_PLY_ILLEGAL || rc == KOMA_PLY_UNREADABLE) && err) *err = why;
    return rc;
}

int koma_referee_ply(koma_referee *r, const char *text, size_t len, koma_error *err)
{
    return koma__referee_ply(r, text, len, NULL, err);
}

#define PLY_GO_ON (-2)                 /* read_ply, play_ply: the ply goes on */

/* Read the ply: the legal move it names (pc->m; pc->slip for a notation slip
 * naming one legal move), PLY_GO_ON; or what ply() returns (an unreadable or
 * illegal ply, -1). */
static int read_ply(koma_referee *r, ply_ctx *pc, const koma_move *parsed, koma_error *why,
                    koma_error *err)
{
    koma_engine *e = r->e;
    size_t i = pc->i;
    pc->canon = pc->text;
    pc->clen = pc->len;
    pc->slip = 0;
    if (r->opt.dialect != KOMA_PMN_DIALECT_CANONICAL) {
        koma_move mv;
        if (koma_engine_get_position(e, &r->pos, err) != 0) return -1;
        if (koma_pmn_parse_dialect(r->opt.dialect, pc->text, pc->len, &r->pos, &mv, why) != 0 &&
            (why->code != KOMA_E_PMN_HAND_AMBIGUOUS ||
             koma__referee_resolve_drop(r, pc->text, pc->len, &mv, why) != 0)) {
            if (unreadable_code(why->code)) return unreadable(r, i, pc->text, pc->len, why);
            return illegal(r, i, pc->text, pc->len, NULL, 0, KOMA_STATUS_ILLEGALMOVE, why, err);
        }
        pc->clen = koma_pmn_write(&mv, pc->buf);
        pc->canon = pc->buf;
        if (r->opt.dialect == KOMA_PMN_DIALECT_SANKI) {
            /* [from, to, actor] names a legal move by its squares and choice */
            koma_error miss;
            if (koma_engine_match_move(e, &mv, &pc->m, &miss) == 0) {
                pc->clen = koma_engine_move_text(e, pc->m, pc->fixed, sizeof pc->fixed);
                pc->canon = pc->fixed;
                r->ahead_of = NULL;
                return PLY_GO_ON;
            }
            if (miss.code == KOMA_E_MEMORY) {
                *err = miss;
                return -1;
            }
        }
    }
    /* a backend whose moves are one PMN move each parses a text as koma_pmn_parse
     * then find_move: a move the record's pass parsed is not parsed again */
    int found;
    if (parsed && pc->canon == pc->text && (r->flags & KOMA__ENGINE_ONE_PMN)) {
        if (r->ahead_of == parsed && r->ahead_index == i) {
            pc->m = r->ahead_move;     /* found legal when the previous ply was made */
            found = 0;
        } else {
            found = koma_engine_find_move(e, parsed, &pc->m, why);
        }
    } else {
        found = koma_engine_parse_move(e, pc->canon, pc->clen, &pc->m, why);
    }
    r->ahead_of = NULL;
    if (found == 0) return PLY_GO_ON;
    if (why->code == KOMA_E_MEMORY) {
        *err = *why;
        return -1;
    }
    if (unreadable_code(why->code)) return unreadable(r, i, pc->text, pc->len, why);
    if (pc->canon != pc->text) why->offset = 0; /* (an offset into the converted text) */
    int slip = koma__referee_notation_slip(r, pc->canon, pc->clen, &pc->m, pc->fixed, sizeof pc->fixed, err);
    if (slip < 0) return -1;
    if (!slip)
        return illegal(r, i, pc->text, pc->len, pc->canon, pc->clen, KOMA_STATUS_ILLEGALMOVE, why, err);
    pc->slip = 1;
    return PLY_GO_ON;
}

/* Play it: make the move, refuse a same-move repetition (what ply() returns
 * then), note the position in the history, and whether its player threatened
 * to end the game; PLY_GO_ON. */
static int play_ply(koma_referee *r, ply_ctx *pc, koma_error *why, koma_error *err)
{
    const koma_game *g = r->g;
    koma_engine *e = r->e;
    pc->mover = koma_engine_turn(e);
    koma_move_facts f;
    koma_engine_move_facts(e, pc->m, &f);
    size_t n = pc->n = r->played + 1;
    if (koma__referee_grow_history(r, n + 1, err) != 0) return -1;
    if (koma_engine_make(e, pc->m, err) != 0) return -1;
    uint64_t hash = pc->hash = koma_engine_hash(e);
    size_t b = pc->b = (size_t)(hash % BUCKETS);
    r->bucket[b]++;
    if (g->repetition == KOMA__REP_SAME_MOVE && r->bucket[b] > 1) {
        size_t j = koma__referee_same_move(r, n, f.key, hash);
        if (j) {
            if (note_repeated(r, err) != 0) return -1;
            r->bucket[b]--;
            koma_engine_unmake(e);
            char t[KOMA_MOVE_TEXT_BUF];
            koma_engine_move_text(e, pc->m, t, sizeof t);
            koma_error_set(why, KOMA_E_RULES_REPETITION, 0, "\"%s\" repeats ply %zu and its position",
                           t, j);
            r->repeats = j;
            copy(r->move, sizeof r->move, t);
            return illegal(r, pc->i, pc->text, pc->len, pc->canon, pc->clen, KOMA_STATUS_REPETITION,
                           why, err);
        }
    }
    r->played = n;
    r->h[n].hash = hash;
    r->h[n].prev = r->head[b];
    r->head[b] = (uint32_t)n + 1;
    r->h[n].key = f.key;
    r->h[n].threat = (uint8_t)(g->repetition == KOMA__REP_FOURFOLD && koma_engine_threatens(e, pc->mover));
    r->limit_count = (f.resets || (f.captures && g->move_limit_capture_resets)) ? 0 : r->limit_count + 1;
    if (r->track && koma__referee_track(r, hash, n, err) != 0) return -1;
    if (pc->slip) {
        r->notation_faults++;
        if (r->notation_ply == 0) r->notation_ply = pc->i + 1;
        koma_error_set(err, KOMA_E_REPLAY_NOTATION, why->offset,
                       "not the canonical form of the move it names, \"%s\" (%s)", pc->fixed,
                       why->message);
    }
    return PLY_GO_ON;
}

/* Whether history_endings has anything to do after ply n (its position's
 * bucket b): the game ended, or one of the history rules may end it. */
static inline int history_due(const koma_referee *r, size_t n, size_t b)
{
    const koma_game *g = r->g;
    return r->end.over ||
           (g->repetition == KOMA__REP_FOURFOLD && r->bucket[b] >= g->repetition_count) ||
           (g->move_limit && r->limit_count >= g->move_limit) || (g->move_cap && n >= g->move_cap);
}

/* The endings after the ply, in the order of koma-games(7): what the position
 * decides (the engine), the fourfold rule, the move limit. The next ply's
 * move, when it is legal here, shows a legal move. 0, or -1 (memory). */
static int ply_endings(koma_referee *r, ply_ctx *pc, koma_error *err)
{
    koma_engine *e = r->e;
    int moves = 0;
    if (r->next && (r->flags & KOMA__ENGINE_ONE_PMN) && r->opt.dialect == KOMA_PMN_DIALECT_CANONICAL) {
        koma_error ignored;
        if (koma_engine_find_move(e, r->next, &r->ahead_move, &ignored) == 0) {
            moves = 1;
            r->ahead_of = r->next;
            r->ahead_index = pc->i + 1;
        }
    }
    koma__position_ending(e, &r->end, moves);
    if (koma__engine_trouble(e)) return oom(err);    /* the threat or the ending unknown */
    return history_due(r, pc->n, pc->b) ? koma__referee_history_endings(r, pc, err) : 0;
}

/* After what the position decides (r->end): the fourfold rule, the move limit,
 * and the game's end when one of them ended it. 0, or -1 (memory). */
int koma__referee_history_endings(koma_referee *r, ply_ctx *pc, koma_error *err)
{
    const koma_game *g = r->g;
    size_t n = pc->n;
    if (!r->end.over && g->repetition == KOMA__REP_FOURFOLD && r->bucket[pc->b] >= g->repetition_count) {
        fourfold(r, n, pc->hash, pc->mover);
        if (r->end.over && note_repeated(r, err) != 0) return -1;
    }
    if (!r->end.over && g->move_limit && r->limit_count >= g->move_limit) {
        r->end.over = 1;
        r->end.status = KOMA_STATUS_MOVELIMIT;
        r->end.side = pc->mover;       /* the player of the ply reaching the limit */
        r->end.result = koma_game_result(g, KOMA_STATUS_MOVELIMIT, pc->mover);
    }
    if (!r->end.over && g->move_cap && n >= g->move_cap) {
        /* the absolute cap (Sanki's 300 moves): counted from the setup, never reset */
        r->end.over = 1;
        r->end.status = KOMA_STATUS_MOVELIMIT;
        r->end.side = pc->mover;
        r->end.result = koma_game_result(g, KOMA_STATUS_MOVELIMIT, pc->mover);
    }
    if (r->end.over) {
        r->state = ENDED;
        r->ruled = 1;
        r->ply = n;
        r->mover = pc->mover;
        if (pc->slip) copy(r->move, sizeof r->move, pc->fixed);
        else if (pc->canon == pc->text && pc->len < sizeof r->move) {
            memcpy(r->move, pc->text, pc->len);
            r->move[pc->len] = '\0';
        } else {
            snprintf(r->move, sizeof r->move, "%.*s", (int)pc->clen, pc->canon);
        }
    }
    return 0;
}

/* A ply judged: read, played, the endings after it. */
static int ply(koma_referee *r, const char *text, size_t len, const koma_move *parsed,
               koma_error *why, koma_error *err)
{
    if (r->state == UNREADABLE) {
        r->index++;
        return KOMA_PLY_IGNORED;
    }
    size_t i = r->index++;
    if (i >= KOMA_LIMIT_PLIES) {
        koma_error_set(why, KOMA_E_PCN_PLIES_LIMIT, 0, "more than %u plies in a record",
                       KOMA_LIMIT_PLIES);
        return unreadable(r, i, text, len, why);
    }
    if (r->state == ON && r->has_stop && i >= r->stop_at) r->state = ENDED;
    if (r->state == ENDED) {
        after_end(r, i, text, len);
        return KOMA_PLY_AFTER_END;
    }
    ply_ctx pc;
    pc.i = i;
    pc.text = text;
    pc.len = len;
    int rc = read_ply(r, &pc, parsed, why, err);
    if (rc != PLY_GO_ON) return rc;
    rc = play_ply(r, &pc, why, err);
    if (rc != PLY_GO_ON) return rc;
    if (ply_endings(r, &pc, err) != 0) return -1;
    return pc.slip ? KOMA_PLY_NOTATION : KOMA_PLY_PLAYED;
}
