/* cmd/replay_core.c — replaying records under the rules (see replay_core.h). */
#include "replay_core.h"

#include <stdlib.h>
#include <string.h>

#include "games.h"

enum { PLAYING, ENDED, STOPPED, INVALID };

struct replay {
    cli *c;
    koma_game_set *games;
    const koma_game *forced;
    koma_pmn_dialect dialect;
    engine_cache engines;
    koma_position pos;                 /* scratch: setup FEEN, dialect context */
    uint64_t *hashes;                  /* hashes[j]: the position after ply j */
    size_t caphash;
    koma_emove *moves;                 /* legal moves, for the alternatives */
    size_t capmoves;
    char (*pmns)[KOMA_PMN_BUF];
    replay_each_fn each;
    void *each_ctx;

    /* the record in progress */
    koma_engine *e;
    const record_source *src;
    replay_verdict *v;
    int state;
    int has_stop;                      /* a recorded ending before the last ply */
    size_t stop_at;
    size_t index;                      /* plies seen */
    koma_ending end;                   /* the rules' ending (state ENDED) */
    char move[KOMA_PMN_BUF];           /* canonical PMN of the deciding ply */
    int mover;                         /* its player */
    unsigned long ill_line, ill_col;   /* line input: where the illegal ply is */
    size_t ill_index;
    char alt_square[KOMA_CELL_BUF];    /* the illegal ply's origin (a drop: its target) */
    int alt_drop;
    size_t extra_index;                /* the first ply after the end */
    unsigned long extra_line;
    char extra_pmn[64];
};

const char *replay_side_name(int side) { return side == KOMA_FIRST ? "Sente" : "Gote"; }

replay *replay_new(cli *c, koma_game_set *games, const koma_game *forced,
                   koma_pmn_dialect dialect)
{
    replay *r = calloc(1, sizeof *r);
    if (r == NULL) return NULL;
    r->c = c;
    r->games = games;
    r->forced = forced;
    r->dialect = dialect;
    koma_position_init(&r->pos);
    return r;
}

void replay_free(replay *r)
{
    if (r == NULL) return;
    engine_cache_free(&r->engines);
    koma_position_cleanup(&r->pos);
    free(r->hashes);
    free(r->moves);
    free(r->pmns);
    free(r);
}

void replay_set_each(replay *r, replay_each_fn fn, void *ctx)
{
    r->each = fn;
    r->each_ctx = ctx;
}

/* ---- helpers --------------------------------------------------------------------- */

static void trouble_memory(replay *r)
{
    cli_trouble(r->c, "memory: out of memory");
}

/* A diagnostic about the record at a JSON pointer (PCN) or at line/col (lines). */
static void diag(replay *r, const char *pointer, unsigned long line, unsigned long col,
                 koma_code code, const char *msg, const char *extra)
{
    const record_source *src = r->src;
    if (line == 0) record_locate(src, pointer, &line, &col);
    if (line == 0) {
        line = src->line;
        col = 1;
    }
    cli_diag(r->c, CLI_DATA, src->file, line, col, koma_code_name(code), msg, extra);
    r->v->problems++;
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

static int explicit_status(koma_status st)
{
    return st == KOMA_STATUS_RESIGNATION || st == KOMA_STATUS_TIMELIMIT ||
           st == KOMA_STATUS_AGREEMENT;
}

static int grow_hashes(replay *r, size_t need)
{
    if (need <= r->caphash) return 0;
    size_t cap = r->caphash ? r->caphash : 256;
    while (cap < need) cap *= 2;
    uint64_t *h = realloc(r->hashes, cap * sizeof *h);
    if (h == NULL) return -1;
    r->hashes = h;
    r->caphash = cap;
    return 0;
}

static int cmp_pmn(const void *a, const void *b) { return strcmp(a, b); }

/* The legal moves from the origin of m (a drop: onto its square), sorted, into
 * v->legal; "" when none. */
static int alternatives(replay *r, const koma_move *m)
{
    koma_engine *e = r->e;
    size_t max = koma_engine_max_moves(e);
    if (max > r->capmoves) {
        koma_emove *mv = realloc(r->moves, max * sizeof *mv);
        if (mv == NULL) return -1;
        r->moves = mv;
        char (*p)[KOMA_PMN_BUF] = realloc(r->pmns, max * sizeof *p);
        if (p == NULL) return -1;
        r->pmns = p;
        r->capmoves = max;
    }
    size_t n = koma_engine_legal_moves(e, r->moves), k = 0;
    int drop = m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP;
    char self[KOMA_PMN_BUF];
    koma_pmn_write(m, self);
    for (size_t i = 0; i < n; i++) {
        koma_move lm;
        koma_engine_move_pmn(e, r->moves[i], &lm);
        int same = drop ? lm.kind == KOMA_MOVE_DROP && koma_cell_equal(&lm.dst, &m->dst)
                        : lm.kind != KOMA_MOVE_DROP && m->src.ndims && koma_cell_equal(&lm.src, &m->src);
        if (!same) continue;
        koma_pmn_write(&lm, r->pmns[k]);
        if (strcmp(r->pmns[k], self) != 0) k++;      /* an Ōgi repeat is legal but refused */
    }
    qsort(r->pmns, k, sizeof r->pmns[0], cmp_pmn);
    replay_verdict *v = r->v;
    size_t len = 0;
    v->legal[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        size_t w = strlen(r->pmns[i]);
        if (len + w + 2 >= sizeof v->legal) break;
        if (len) v->legal[len++] = ' ';
        memcpy(v->legal + len, r->pmns[i], w + 1);
        len += w;
    }
    return 0;
}

/* ---- the record -------------------------------------------------------------------- */

static void emit_each(replay *r)
{
    if (r->each == NULL) return;
    size_t n = koma_engine_feen(r->e, r->v->feen, sizeof r->v->feen);
    r->each(r->each_ctx, r->v, r->v->played, r->v->feen, n);
}

int replay_begin(replay *r, const char *feen, size_t len, const record_source *src,
                 replay_verdict *v)
{
    koma_error err;
    koma_error_clear(&err);
    memset(v, 0, sizeof *v);
    strcpy(v->result, "*");
    r->src = src;
    r->v = v;
    r->e = NULL;
    r->state = INVALID;
    r->has_stop = 0;
    r->index = 0;
    r->move[0] = '\0';
    r->ill_line = r->ill_col = 0;
    r->extra_line = 0;
    r->extra_pmn[0] = '\0';
    memset(&r->end, 0, sizeof r->end);
    const koma_game *g = r->forced;
    char msg[KOMA_ERROR_MESSAGE_MAX + 64];
    if (koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &r->pos, &err) != 0) goto bad;
    if (g == NULL && (g = koma_game_set_find_position(r->games, &r->pos, &err)) == NULL) goto bad;
    v->game = g;
    if ((r->e = engine_cache_get(&r->engines, g, &err)) == NULL) {
        if (err.code == KOMA_E_MEMORY) {
            trouble_memory(r);
            return -2;
        }
        goto bad;
    }
    if (koma_engine_set_position(r->e, &r->pos, &err) != 0) {
        if (err.code == KOMA_E_MEMORY) {
            trouble_memory(r);
            return -2;
        }
        goto bad;
    }
    if (grow_hashes(r, 1) != 0) {
        trouble_memory(r);
        return -2;
    }
    r->hashes[0] = koma_engine_hash(r->e);
    r->state = PLAYING;
    koma_engine_position_ending(r->e, &r->end);
    if (r->end.over) {
        r->state = ENDED;
        v->ply = 0;
        r->mover = koma_engine_turn(r->e) ^ 1;
    }
    emit_each(r);
    return 0;
bad:
    snprintf(msg, sizeof msg, "cannot replay this record: %s", err.message);
    diag(r, "/setup/feen", 0, 0, err.code, msg, NULL);
    return -1;
}

/* A ply that cannot be played: the game ends there, its player loses. */
static int illegal_ply(replay *r, size_t i, const char *s, size_t len, const koma_move *m,
                       const koma_error *err, const koma_ending *end, unsigned long line,
                       unsigned long col)
{
    replay_verdict *v = r->v;
    v->illegal = 1;
    v->illegal_code = err->code;
    koma_quote(v->illegal_pmn, sizeof v->illegal_pmn, s, len);
    snprintf(v->illegal_message, sizeof v->illegal_message, "%s", err->message);
    r->mover = koma_engine_turn(r->e);
    if (end) {
        r->end = *end;
    } else {
        r->end.over = 1;
        r->end.status = KOMA_STATUS_ILLEGALMOVE;
        r->end.result = r->mover == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
    }
    r->alt_square[0] = '\0';
    if (m) {
        r->alt_drop = m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP;
        if (r->alt_drop) koma_cell_write(&m->dst, r->alt_square);
        else if (m->src.ndims) koma_cell_write(&m->src, r->alt_square);
        if (alternatives(r, m) != 0) {
            trouble_memory(r);
            return -2;
        }
    }
    r->state = ENDED;
    v->ply = i + 1;
    r->ill_index = i;
    r->ill_line = line;
    r->ill_col = col;
    return 0;
}

static void unreadable(replay *r, size_t i, const char *s, size_t len, const koma_error *err,
                       unsigned long line, unsigned long col)
{
    char q[64], msg[KOMA_ERROR_MESSAGE_MAX + 128], ptr[48];
    koma_quote(q, sizeof q, s, len);
    snprintf(msg, sizeof msg, "ply %zu \"%s\" cannot be read: %s", i + 1, q, err->message);
    snprintf(ptr, sizeof ptr, "/plies/%zu/pmn", i);
    diag(r, ptr, line, col, err->code, msg, NULL);
    r->state = INVALID;
}

/*
 * A dialect's pieceless drop (`*-e5`) that the rule-agnostic reader found
 * ambiguous (err: pmn.hand.ambiguous, r->pos the position): read it again with
 * each kind of the mover's hand alone and keep the kinds the rules let drop
 * there. One left: *m is that drop, 0. None or several: err lists them, -1.
 */
static int resolve_drop(replay *r, const char *s, size_t len, koma_move *m, koma_error *err)
{
    koma_hand *hand = &r->pos.hands[r->pos.turn];
    const koma_hand saved = *hand;
    char kept[160] = "", all[160] = "", square[KOMA_CELL_BUF] = "";
    size_t nkept = 0, nk = 0, na = 0;
    koma_error unread;                 /* why the first kind could not be read there */
    koma_error_clear(&unread);
    for (size_t i = 0; i < saved.len; i++) {
        koma_piece p = saved.items[i].piece;
        if (koma_piece_side(p) != r->pos.turn) continue;
        koma_move cand;
        koma_emove em;
        koma_error why;
        koma_error_clear(&why);
        hand->items = &saved.items[i];
        hand->len = 1;
        int ok = koma_pmn_parse_dialect(r->dialect, s, len, &r->pos, &cand, &why) == 0;
        *hand = saved;
        if (!ok) {
            if (unread.code == KOMA_OK) unread = why;
            continue;
        }
        char e[KOMA_EPIN_BUF];
        koma_epin_write(p, e);
        koma_cell_write(&cand.dst, square);
        if (na + strlen(e) + 3 < sizeof all)
            na += (size_t)snprintf(all + na, sizeof all - na, "%s%s", na ? ", " : "", e);
        if (koma_engine_find_move(r->e, &cand, &em, &why) != 0) continue;
        if (nk + strlen(e) + 3 < sizeof kept)
            nk += (size_t)snprintf(kept + nk, sizeof kept - nk, "%s%s", nk ? ", " : "", e);
        if (nkept++ == 0) *m = cand;
    }
    if (nkept == 1) return 0;
    if (square[0] == '\0') {
        /* no kind can be read there (an occupied square...): that is the error */
        if (unread.code != KOMA_OK) *err = unread;
        return -1;
    }
    char q[64];
    koma_quote(q, sizeof q, s, len);
    if (nkept == 0)
        koma_error_set(err, KOMA_E_PMN_HAND_AMBIGUOUS, err->offset,
                       "none of the pieces in hand (%s) can be dropped on %s: \"%s\"", all,
                       square, q);
    else
        koma_error_set(err, KOMA_E_PMN_HAND_AMBIGUOUS, err->offset,
                       "several pieces in hand could be dropped on %s (%s): \"%s\"", square,
                       kept, q);
    return -1;
}

int replay_ply(replay *r, const char *s, size_t len, unsigned long line)
{
    replay_verdict *v = r->v;
    if (r->state == INVALID) return -1;
    size_t i = r->index++;
    v->plies = r->index;
    koma_error err;
    koma_error_clear(&err);
    if (i >= KOMA_PCN_MAX_PLIES) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %u plies in a record", KOMA_PCN_MAX_PLIES);
        diag(r, NULL, line, 1, KOMA_E_PCN_PLIES_LIMIT, msg, NULL);
        r->state = INVALID;
        return -1;
    }
    if (r->state == PLAYING && r->has_stop && i >= r->stop_at) r->state = STOPPED;
    if (r->state != PLAYING) {
        if (v->extra++ == 0) {
            r->extra_index = i;
            r->extra_line = line;
            koma_quote(r->extra_pmn, sizeof r->extra_pmn, s, len);
        }
        return 0;
    }
    koma_move m;
    /* line input: columns of the text itself; PCN: the string value (located later) */
    unsigned long col = 0;
    if (r->dialect == KOMA_PMN_DIALECT_CANONICAL) {
        if (koma_pmn_parse(s, len, &m, &err) != 0) {
            unreadable(r, i, s, len, &err, line, line ? err.offset + 1 : 0);
            return -1;
        }
    } else {
        if (koma_engine_get_position(r->e, &r->pos, &err) != 0) {
            trouble_memory(r);
            return -2;
        }
        if (koma_pmn_parse_dialect(r->dialect, s, len, &r->pos, &m, &err) != 0 &&
            (err.code != KOMA_E_PMN_HAND_AMBIGUOUS || resolve_drop(r, s, len, &m, &err) != 0)) {
            if (unreadable_code(err.code)) {
                unreadable(r, i, s, len, &err, line, line ? err.offset + 1 : 0);
                return -1;
            }
            return illegal_ply(r, i, s, len, NULL, &err, NULL, line, line ? err.offset + 1 : 0);
        }
    }
    koma_ending end;
    int mover = koma_engine_turn(r->e);
    int rc = koma_engine_play(r->e, &m, &end, &err);
    if (rc < 0) {
        if (err.code == KOMA_E_MEMORY) {
            trouble_memory(r);
            return -2;
        }
        unreadable(r, i, s, len, &err, line, line ? 1 : 0);
        return -1;
    }
    if (rc == 1) {
        if (line) col = r->dialect == KOMA_PMN_DIALECT_CANONICAL ? err.offset + 1 : 1;
        return illegal_ply(r, i, s, len, &m, &err, &end, line, col);
    }
    v->played++;
    if (grow_hashes(r, v->played + 1) != 0) {
        trouble_memory(r);
        return -2;
    }
    r->hashes[v->played] = koma_engine_hash(r->e);
    emit_each(r);
    if (end.over) {
        r->end = end;
        r->state = ENDED;
        v->ply = i + 1;
        r->mover = mover;
        koma_pmn_write(&m, r->move);
    }
    return 0;
}

/* ---- verdict --------------------------------------------------------------------------- */

/* "1-0 checkmate at ply 40" from the parts present. */
static void describe(char *buf, size_t cap, const char *result, int has_status, koma_status st,
                     int has_ply, uint64_t ply)
{
    size_t n = 0;
    buf[0] = '\0';
    if (result && *result) n += (size_t)snprintf(buf + n, cap - n, "%s", result);
    if (has_status && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", koma_cgsn_name(st));
    if (has_ply && n < cap)
        snprintf(buf + n, cap - n, "%sat ply %llu", n ? " " : "", (unsigned long long)ply);
}

static const char *winner_text(koma_result res)
{
    switch (res) {
    case KOMA_RESULT_FIRST: return "Sente wins";
    case KOMA_RESULT_SECOND: return "Gote wins";
    case KOMA_RESULT_DRAW: return "draw";
    default: return "no result";
    }
}

static koma_result result_of(const char *s)
{
    if (strcmp(s, "1-0") == 0) return KOMA_RESULT_FIRST;
    if (strcmp(s, "0-1") == 0) return KOMA_RESULT_SECOND;
    if (strcmp(s, "1/2-1/2") == 0) return KOMA_RESULT_DRAW;
    return KOMA_RESULT_NONE;
}

/* The rules' ending in plain words. */
static void rules_reason(replay *r)
{
    replay_verdict *v = r->v;
    char *out = v->reason;
    size_t cap = sizeof v->reason;
    const char *loser = replay_side_name(r->mover ^ 1), *mover = replay_side_name(r->mover);
    const char *win = winner_text(r->end.result);
    char at[KOMA_PMN_BUF + 64];
    if (v->ply == 0) snprintf(at, sizeof at, "in the setup position");
    else snprintf(at, sizeof at, "after %s at ply %zu", r->move, v->ply);
    if (v->illegal) {
        if (v->status == KOMA_STATUS_REPETITION) {
            const char *p = strstr(v->illegal_message, "repeats ply ");
            unsigned long of = p ? strtoul(p + 12, NULL, 10) : 0;
            if (of)
                snprintf(out, cap, "%s's ply %zu \"%s\" repeats ply %lu, the same move to the same position (illegal repetition); %s",
                         mover, v->ply, v->illegal_pmn, of, win);
            else
                snprintf(out, cap, "%s's ply %zu \"%s\" is an illegal repetition; %s", mover, v->ply,
                         v->illegal_pmn, win);
        } else {
            snprintf(out, cap, "%s's ply %zu \"%s\" is illegal (%s); %s", mover, v->ply,
                     v->illegal_pmn, v->illegal_message, win);
        }
        return;
    }
    /* the side that has just moved is r->mover; the side to move is the other */
    switch (v->status) {
    case KOMA_STATUS_MAREKING:
        if (v->ply == 0)
            snprintf(out, cap, "%s's king is already captured in the setup position; %s",
                     r->end.result == KOMA_RESULT_FIRST ? "Gote" : "Sente", win);
        else
            snprintf(out, cap, "%s's king captured by %s at ply %zu; %s", loser, r->move, v->ply, win);
        break;
    case KOMA_STATUS_CHECKMATE:
        snprintf(out, cap, "%s is checkmated %s; %s", loser, at, win);
        break;
    case KOMA_STATUS_STALEMATE:
        snprintf(out, cap, "%s has no legal move and is not in check %s (stalemate); %s", loser,
                 at, win);
        break;
    case KOMA_STATUS_NOMOVE:
        snprintf(out, cap, "%s has no legal move %s; %s", loser, at, win);
        break;
    case KOMA_STATUS_BAREKING:
        if (r->end.result == KOMA_RESULT_DRAW)
            snprintf(out, cap, "both kings are bare %s; draw", at);
        else
            snprintf(out, cap, "%s is left with a bare king %s; %s",
                     r->end.result == KOMA_RESULT_FIRST ? "Gote" : "Sente", at, win);
        break;
    case KOMA_STATUS_REPETITION: {
        size_t first = 0;
        while (first < v->played && r->hashes[first] != r->hashes[v->played]) first++;
        char firsttext[48];
        if (first == 0) snprintf(firsttext, sizeof firsttext, "first in the setup position");
        else snprintf(firsttext, sizeof firsttext, "first after ply %zu", first);
        if (r->end.result == KOMA_RESULT_DRAW)
            snprintf(out, cap, "the position %s occurs for the fourth time (%s); draw", at,
                     firsttext);
        else
            snprintf(out, cap, "the position %s occurs for the fourth time (%s) and every %s move since gave check (perpetual check); %s",
                     at, firsttext, r->end.result == KOMA_RESULT_FIRST ? "Gote" : "Sente", win);
        break;
    }
    case KOMA_STATUS_MOVELIMIT:
        snprintf(out, cap, "the move limit (plies without a capture or a pawn move) is reached %s; %s",
                 at, win);
        break;
    default:
        snprintf(out, cap, "%s %s; %s", koma_cgsn_name(v->status), at, win);
    }
}

static void after_text(char *buf, size_t cap, size_t ply)
{
    if (ply == 0) snprintf(buf, cap, "before the first ply");
    else snprintf(buf, cap, "after ply %zu", ply);
}

/* A recorded resignation, timelimit or agreement: result and reason. 0 when the
 * recorded result fits the status. */
static int honour(replay *r)
{
    replay_verdict *v = r->v;
    char *out = v->reason;
    size_t cap = sizeof v->reason;
    char after[48];
    after_text(after, sizeof after, v->ply);
    int tomove = v->turn;
    koma_result given = v->rec_result[0] ? result_of(v->rec_result) : KOMA_RESULT_NONE;
    koma_result res;
    int ok = 1;
    switch (v->status) {
    case KOMA_STATUS_RESIGNATION:
        res = given;
        if (res != KOMA_RESULT_FIRST && res != KOMA_RESULT_SECOND) {
            ok = v->rec_result[0] == '\0';
            res = tomove == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
        }
        strcpy(v->result, koma_result_name(res));
        snprintf(out, cap, "%s resigned %s (recorded); %s",
                 res == KOMA_RESULT_FIRST ? "Gote" : "Sente", after, winner_text(res));
        break;
    case KOMA_STATUS_AGREEMENT:
        ok = v->rec_result[0] == '\0' || given == KOMA_RESULT_DRAW;
        strcpy(v->result, "1/2-1/2");
        snprintf(out, cap, "the players agreed to a draw %s (recorded); draw", after);
        break;
    default: /* timelimit: any result */
        if (v->rec_result[0] == '\0') {
            res = tomove == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
            strcpy(v->result, koma_result_name(res));
        } else {
            snprintf(v->result, sizeof v->result, "%s", v->rec_result);
            res = given;
        }
        if (res == KOMA_RESULT_FIRST || res == KOMA_RESULT_SECOND)
            snprintf(out, cap, "%s ran out of time %s (recorded); %s",
                     res == KOMA_RESULT_FIRST ? "Gote" : "Sente", after, winner_text(res));
        else
            snprintf(out, cap, "a clock ran out %s (recorded); result %s", after, v->result);
    }
    return ok ? 0 : -1;
}

int replay_finish(replay *r)
{
    replay_verdict *v = r->v;
    if (r->state == INVALID) return -1;
    char msg[REPLAY_REASON_MAX + 256], rec[96], ver[96], ptr[48], extra[32];
    rec[0] = ver[0] = '\0';
    v->turn = koma_engine_turn(r->e);
    koma_engine_feen(r->e, v->feen, sizeof v->feen);
    const char *mismatch = NULL;       /* pointer of the first recorded member that disagrees */

    if (r->state == ENDED) {
        v->how = REPLAY_RULES;
        v->has_status = 1;
        v->status = r->end.status;
        v->has_ply = 1;
        strcpy(v->result, koma_result_name(r->end.result));
        rules_reason(r);
        if (v->rec_has_status && v->rec_status != v->status) mismatch = "/outcome/status";
        else if (v->rec_result[0] && strcmp(v->rec_result, v->result) != 0) mismatch = "/outcome/result";
        else if (v->rec_has_ply && v->rec_ply != v->ply) mismatch = "/outcome/ply";
        if (v->illegal && (mismatch || !v->rec_has_status)) {
            /* an illegal ply the record does not name as its ending */
            char alt[REPLAY_LEGAL_MAX + 64] = "";
            if (r->alt_square[0]) {
                size_t n = (size_t)snprintf(alt, sizeof alt, "; %s %s: ",
                                            r->alt_drop ? "legal drops on" : "legal from",
                                            r->alt_square);
                const char *l = v->legal[0] ? v->legal : "none";
                for (; *l && n + 3 < sizeof alt; l++) {
                    if (*l == ' ') alt[n++] = ',';
                    alt[n++] = *l;
                }
                alt[n] = '\0';
            }
            snprintf(msg, sizeof msg, "ply %zu \"%s\" by %s: %s%s; the rules give %s (%s)", v->ply,
                     v->illegal_pmn, replay_side_name(r->mover), v->illegal_message, alt, v->result,
                     koma_cgsn_name(v->status));
            snprintf(ptr, sizeof ptr, "/plies/%zu/pmn", r->ill_index);
            snprintf(extra, sizeof extra, "\"ply\":%zu", v->ply);
            diag(r, ptr, r->ill_line, r->ill_col, v->illegal_code, msg, extra);
        }
    } else {
        size_t endply = v->played;
        v->ply = endply;
        if (v->rec_has_status && explicit_status(v->rec_status)) {
            v->how = REPLAY_RECORDED;
            v->has_status = 1;
            v->status = v->rec_status;
            v->has_ply = 1;
            if (honour(r) != 0) {
                snprintf(msg, sizeof msg, "recorded %s %s, but %s", v->rec_result,
                         koma_cgsn_name(v->rec_status),
                         v->rec_status == KOMA_STATUS_RESIGNATION
                             ? "a resignation is a win for the other side (1-0 or 0-1)"
                             : "an agreement is a draw (1/2-1/2)");
                diag(r, "/outcome/result", 0, 0, KOMA_E_REPLAY_OUTCOME, msg, NULL);
            }
            if (v->rec_has_ply && v->rec_ply > v->plies) mismatch = "/outcome/ply";
        } else if (v->rec_result[0]) {
            v->how = REPLAY_RESULT_ONLY;
            v->has_ply = 1;
            snprintf(v->result, sizeof v->result, "%s", v->rec_result);
            char after[48];
            after_text(after, sizeof after, endply);
            snprintf(v->reason, sizeof v->reason,
                     "the rules do not end the game %s; the recorded result %s is kept", after,
                     v->result);
            if (v->rec_has_status) mismatch = "/outcome/status";
            else if (v->rec_has_ply && v->rec_ply > v->plies) mismatch = "/outcome/ply";
        } else {
            v->how = REPLAY_UNFINISHED;
            snprintf(v->reason, sizeof v->reason, "the game is not over after %zu pl%s; %s to move",
                     endply, endply == 1 ? "y" : "ies", replay_side_name(v->turn));
            if (v->rec_has_status) mismatch = "/outcome/status";
            else if (v->rec_has_ply) mismatch = "/outcome/ply";
        }
    }
    if (v->extra) {
        char end[64], more[48] = "";
        describe(end, sizeof end, NULL, v->has_status, v->status, 1, v->ply);
        if (v->extra > 1)
            snprintf(more, sizeof more, " and %zu more pl%s", v->extra - 1, v->extra == 2 ? "y" : "ies");
        snprintf(msg, sizeof msg, "ply %zu \"%s\"%s recorded after the game ended (%s)",
                 r->extra_index + 1, r->extra_pmn, more, end);
        snprintf(ptr, sizeof ptr, "/plies/%zu/pmn", r->extra_index);
        snprintf(extra, sizeof extra, "\"ply\":%zu", r->extra_index + 1);
        diag(r, ptr, r->extra_line, 1, KOMA_E_REPLAY_EXTRA, msg, extra);
    }
    if (mismatch) {
        describe(rec, sizeof rec, v->rec_result, v->rec_has_status, v->rec_status, v->rec_has_ply,
                 v->rec_ply);
        if (v->how == REPLAY_RULES) {
            describe(ver, sizeof ver, v->result, 1, v->status, 1, v->ply);
            snprintf(msg, sizeof msg, "recorded %s, but the rules give %s", rec, ver);
        } else if (v->rec_has_ply && v->rec_ply > v->plies && strcmp(mismatch, "/outcome/ply") == 0) {
            snprintf(msg, sizeof msg, "recorded %s, but the record has %zu pl%s", rec, v->plies,
                     v->plies == 1 ? "y" : "ies");
        } else {
            char after[48];
            after_text(after, sizeof after, v->played);
            snprintf(msg, sizeof msg, "recorded %s, but the rules do not end the game %s", rec, after);
        }
        diag(r, mismatch, 0, 0, KOMA_E_REPLAY_OUTCOME, msg, NULL);
    }
    return 0;
}

int replay_pcn(replay *r, const koma_pcn *rec, const record_source *src, replay_verdict *v)
{
    size_t flen;
    const char *feen = koma_pcn_setup_feen(rec, &flen);
    int rc = replay_begin(r, feen ? feen : "", feen ? flen : 0, src, v);
    if (rc != 0) return rc;
    size_t n = koma_pcn_ply_count(rec);
    if (koma_pcn_has_outcome(rec)) {
        v->has_recorded = 1;
        const char *res = koma_pcn_outcome_result(rec);
        if (res) snprintf(v->rec_result, sizeof v->rec_result, "%s", res);
        const char *st = koma_pcn_outcome_status(rec);
        if (st && koma_cgsn_parse(st, strlen(st), &v->rec_status, NULL) == 0) v->rec_has_status = 1;
        v->rec_has_ply = koma_pcn_outcome_ply(rec, &v->rec_ply);
        /* a recorded resignation (or a bare result) before the last ply: the rest is extra */
        if (v->rec_has_ply && v->rec_ply < n &&
            ((v->rec_has_status && explicit_status(v->rec_status)) ||
             (!v->rec_has_status && v->rec_result[0]))) {
            r->has_stop = 1;
            r->stop_at = (size_t)v->rec_ply;
        }
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = koma_pcn_ply_pmn(rec, i, &len);
        rc = replay_ply(r, s ? s : "", s ? len : 0, 0);
        if (rc == -2) return -2;
        if (rc == -1) return -1;
    }
    v->plies = n;
    return replay_finish(r);
}

void replay_abandon(replay *r)
{
    if (r->state != INVALID) r->v->problems++;
    r->state = INVALID;
}

int replay_write_outcome(const replay_verdict *v, koma_pcn *rec, koma_error *err)
{
    switch (v->how) {
    case REPLAY_RULES:
    case REPLAY_RECORDED:
        if (koma_pcn_set_outcome_result(rec, v->result, strlen(v->result), err) != 0) return -1;
        if (koma_pcn_set_outcome_status(rec, koma_cgsn_name(v->status), strlen(koma_cgsn_name(v->status)), err) != 0)
            return -1;
        return koma_pcn_set_outcome_ply(rec, v->ply, err);
    case REPLAY_RESULT_ONLY:
        if (koma_pcn_set_outcome_status(rec, NULL, 0, err) != 0) return -1;
        return koma_pcn_set_outcome_ply(rec, v->ply, err);
    default:
        if (!v->has_recorded) return 0;
        if (koma_pcn_set_outcome_status(rec, NULL, 0, err) != 0) return -1;
        koma_pcn_unset_outcome_ply(rec);
        return 0;
    }
}
