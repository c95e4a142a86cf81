/* lib/verdict_text.c — a verdict in words (koma/verdict.h). */
#include <koma/verdict.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game_internal.h"
#include "internal.h"

/* Append to buf[0..cap) (always NUL-terminated, cut at cap); need counts the
 * whole text, written or not. */
typedef struct text {
    char *buf;
    size_t cap, len, need;
} text;

static void add(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void add(text *t, const char *fmt, ...)
{
    size_t room = t->cap > t->len ? t->cap - t->len : 0;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (w <= 0) return;
    t->need += (size_t)w;
    if (room) t->len += (size_t)w < room ? (size_t)w : room - 1;
}

static text text_at(char *buf, size_t cap)
{
    text t = {buf, cap, 0, 0};
    if (cap) buf[0] = '\0';
    return t;
}

/* A verdict of a size this library knows (koma_verdict.size); a member appended
 * after the first layout is read only when KOMA_SIZED_HAS says the caller's holds it. */
static int known(const koma_verdict *v)
{
    return koma__sized_check(v->size, KOMA__VERDICT_FIRST, sizeof *v, "koma_verdict", NULL) == 0;
}

const char *koma_verdict_side_name(int side) { return koma_game_side_name(NULL, side); }

static const char *plies_word(size_t n) { return n == 1 ? "ply" : "plies"; }

/* A player as the verdict's game names it (its side_names; Sente and Gote by default). */
static const char *side_word(const koma_verdict *v, int side) { return koma_game_side_name(v->game, side); }

/* "Sente wins", "draw": the result in words (a value, so that it can be an argument). */
typedef struct { char s[KOMA_GAME_SIDE_NAME_MAX + 8]; } result_words;
static result_words winner_text(const koma_verdict *v)
{
    result_words w;
    if (v->result == KOMA_RESULT_FIRST || v->result == KOMA_RESULT_SECOND)
        snprintf(w.s, sizeof w.s, "%s wins", side_word(v, v->result == KOMA_RESULT_FIRST ? KOMA_FIRST : KOMA_SECOND));
    else snprintf(w.s, sizeof w.s, "%s", v->result == KOMA_RESULT_DRAW ? "draw" : "no result");
    return w;
}

/* The side that lost by a decisive result ("Gote" when Sente won). */
static const char *loser_of(const koma_verdict *v)
{
    return side_word(v, v->result == KOMA_RESULT_FIRST ? KOMA_SECOND : KOMA_FIRST);
}

static const char *ordinal(unsigned long n)
{
    static const char *const nth[] = {"first", "second", "third", "fourth", "fifth",
                                      "sixth", "seventh", "eighth", "ninth", "tenth"};
    return n >= 1 && n <= 10 ? nth[n - 1] : NULL;
}

static void add_ordinal(text *t, unsigned long n)
{
    const char *o = ordinal(n);
    if (o) add(t, "%s", o);
    else add(t, "%luth", n);
}

/* "after ply 12", "before the first ply" */
static void add_after(text *t, size_t ply)
{
    if (ply == 0) add(t, "before the first ply");
    else add(t, "after ply %zu", ply);
}

/* A rule ending in plain words. */
static void rules_reason(const koma_verdict *v, text *t)
{
    const char *mover = side_word(v, v->mover), *loser = side_word(v, v->mover ^ 1);
    const char *win = winner_text(v).s;
    char at[KOMA_MOVE_TEXT_BUF + 64];
    if (v->ply == 0) snprintf(at, sizeof at, "in the setup position");
    else snprintf(at, sizeof at, "after %s at ply %zu", v->move, v->ply);
    if (v->illegal) {
        if (v->status == KOMA_STATUS_REPETITION && v->repeats)
            add(t, "%s's ply %zu \"%s\" repeats ply %zu, the same move to the same position "
                "(illegal repetition); %s", mover, v->ply, v->refused_text, v->repeats, win);
        else if (v->status == KOMA_STATUS_REPETITION)
            add(t, "%s's ply %zu \"%s\" is an illegal repetition; %s", mover, v->ply,
                v->refused_text, win);
        else
            add(t, "%s's ply %zu \"%s\" is illegal (%s); %s", mover, v->ply, v->refused_text,
                v->refused_message, win);
        return;
    }
    /* the side that has just moved is v->mover; the side to move is the other */
    switch (v->status) {
    case KOMA_STATUS_MAREKING:
        if (v->game && koma_game_survival_test(v->game)) {
            /* Ko shogi: no general, no governor, not both middle troop and banner */
            if (v->ply == 0)
                add(t, "%s fails the survival test in the setup position; %s", loser_of(v), win);
            else
                add(t, "%s fails the survival test after %s at ply %zu; %s",
                    loser_of(v), v->move, v->ply, win);
        } else if (v->ply == 0)
            add(t, "%s's king is already captured in the setup position; %s", loser_of(v), win);
        else
            add(t, "%s's king captured by %s at ply %zu; %s", loser, v->move, v->ply, win);
        break;
    case KOMA_STATUS_CHECKMATE:
        add(t, "%s is checkmated %s; %s", loser, at, win);
        break;
    case KOMA_STATUS_STALEMATE:
        add(t, "%s has no legal move and is not in check %s (stalemate); %s", loser, at, win);
        break;
    case KOMA_STATUS_NOMOVE:
        add(t, "%s has no legal move %s; %s", loser, at, win);
        break;
    case KOMA_STATUS_BAREKING:
        if (v->result == KOMA_RESULT_DRAW) add(t, "both kings are bare %s; draw", at);
        else add(t, "%s is left with a bare king %s; %s", loser_of(v), at, win);
        break;
    case KOMA_STATUS_REPETITION:
        add(t, "the position %s occurs for the ", at);
        add_ordinal(t, v->occurrences);
        if (v->cycle_first == 0) add(t, " time (first in the setup position)");
        else add(t, " time (first after ply %zu)", v->cycle_first);
        if (v->result == KOMA_RESULT_DRAW)
            add(t, "; draw");
        else
            add(t, " and every %s move since gave check (perpetual check); %s", loser_of(v), win);
        break;
    case KOMA_STATUS_MOVELIMIT:
        if (v->game && v->game->move_cap && v->ply >= v->game->move_cap)
            add(t, "the cap of %u plies is reached %s; %s", v->game->move_cap, at, win);
        else add(t, "the move limit (plies without a capture or a pawn move) is reached %s; %s", at, win);
        break;
    case KOMA_STATUS_INSUFFICIENT:
        add(t, "neither side has the material left to checkmate %s (dead position); %s", at, win);
        break;
    default:
        add(t, "%s %s; %s", koma_cgsn_name(v->status), at, win);
    }
}

/* "31 s": a clock time in whole seconds */
static long long secs(long long ms) { return ms / 1000; }

/* How a recorded time loss stands against the record's clocks. */
static void add_clock(const koma_verdict *v, text *t)
{
    const char *side = side_word(v, v->clock_side);
    switch (v->clock) {
    case KOMA_CLOCK_UNCHECKED:
        add(t, " (recorded; the clock is not checked: the record lacks %s)", v->clock_missing);
        break;
    case KOMA_CLOCK_AGREES:
        add(t, " (recorded; the clock agrees: %s had %llds left and thought %llds)", side,
            secs(v->clock_left_ms), secs(v->clock_spent_ms));
        break;
    case KOMA_CLOCK_TIME_LEFT:
        add(t, " (recorded, but %s's clock shows time left: %llds left, %llds spent on its last "
            "think)", side, secs(v->clock_left_ms), secs(v->clock_spent_ms));
        break;
    case KOMA_CLOCK_EARLIER:
        add(t, " (recorded, but %s's clock ran out earlier, on ply %zu: %llds left, %llds spent)",
            side, v->clock_ply, secs(v->clock_left_ms), secs(v->clock_spent_ms));
        break;
    default:
        add(t, " (recorded)");
    }
}

static size_t clock_message(const koma_verdict *v, char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    const koma_recorded *rec = &v->recorded;
    add(&t, "recorded %s timelimit", rec->has_result ? rec->result : v->result_text);
    if (rec->has_ply) add(&t, " at ply %llu", (unsigned long long)rec->ply);
    const char *side = side_word(v, v->clock_side);
    if (v->clock == KOMA_CLOCK_EARLIER)
        add(&t, ", but %s's clock ran out earlier, on ply %zu (%llds left, %llds spent)", side,
            v->clock_ply, secs(v->clock_left_ms), secs(v->clock_spent_ms));
    else
        add(&t, ", but %s's clock shows time left: %llds left when its last think began, "
            "%llds spent", side, secs(v->clock_left_ms), secs(v->clock_spent_ms));
    return t.need;
}

/* A recorded resignation, time limit, agreement or illegal-move ending in plain words. */
static void recorded_reason(const koma_verdict *v, text *t)
{
    switch (v->status) {
    case KOMA_STATUS_RESIGNATION:
        add(t, "%s resigned ", loser_of(v));
        add_after(t, v->ply);
        add(t, " (recorded); %s", winner_text(v).s);
        break;
    case KOMA_STATUS_ILLEGALMOVE:
        add(t, "%s lost by an illegal move or action ", loser_of(v));
        add_after(t, v->ply);
        add(t, " (recorded, not judged: it is not in the record); %s", winner_text(v).s);
        break;
    case KOMA_STATUS_AGREEMENT:
        add(t, "the players agreed to a draw ");
        add_after(t, v->ply);
        add(t, " (recorded); draw");
        break;
    default: /* timelimit */
        if (v->result == KOMA_RESULT_FIRST || v->result == KOMA_RESULT_SECOND) {
            add(t, "%s ran out of time ", loser_of(v));
            add_after(t, v->ply);
            add_clock(v, t);
            add(t, "; %s", winner_text(v).s);
        } else {
            add(t, "a clock ran out ");
            add_after(t, v->ply);
            add_clock(v, t);
            add(t, "; result %s", v->result_text);
        }
    }
}

const char *koma_verdict_claim_rule(const koma_verdict *v)
{
    if (!known(v)) return NULL;
    switch (v->claim_rule) {
    case KOMA_DECLARE_24: return "24-point";
    case KOMA_DECLARE_TRY: return "try";
    default: return "27-point";
    }
}

size_t koma_verdict_handicap_message(const koma_verdict *v, char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    if (!known(v) || v->kind != KOMA_VERDICT_CLAIM || !v->handicap_disagrees) return t.need;
    unsigned n = v->handicap_points[KOMA_SECOND];
    add(&t, "the stated handicap %s removes %u point%s of Gote's pieces, but the setup lacks %u of Sente's "
        "and %u of Gote's; the stated handicap is counted", v->handicap_stated, n, n == 1 ? "" : "s",
        v->handicap_setup[KOMA_FIRST], v->handicap_setup[KOMA_SECOND]);
    return t.need;
}

/* A declaration or impasse judged, in plain words: what was counted, what failed. */
static void claim_reason(const koma_verdict *v, text *t)
{
    const char *d = side_word(v, v->declarer);
    if (v->claim == KOMA_CLAIM_IMPASSE) {
        add(t, "impasse ");
        add_after(t, v->ply);
        add(t, " (24-point rule): %s %u points, %s %u points", side_word(v, KOMA_FIRST), v->points[0],
            side_word(v, KOMA_SECOND), v->points[1]);
        for (int s = 0; s < 2; s++)
            if (v->handicap_points[s])
                add(t, " (%s's with %u a handicap removed)", side_word(v, s), v->handicap_points[s]);
        if (v->result == KOMA_RESULT_DRAW && !v->claim_failed) add(t, ", both 24 or more; draw");
        else if (v->result == KOMA_RESULT_DRAW) add(t, ", both fewer than 24; draw");
        else add(t, ", %s fewer than 24; %s", loser_of(v), winner_text(v).s);
        return;
    }
    if (v->claim_rule == KOMA_DECLARE_TRY) {
        add(t, "%s declares a try ", d);
        add_after(t, v->ply);
        add(t, " (try rule): ");
        if (v->claim_failed) add(t, "its king has no legal move to %s; the declaration fails: %s",
                                 v->declarer == KOMA_FIRST ? "5a" : "5i", winner_text(v).s);
        else add(t, "its king can move to %s; %s", v->declarer == KOMA_FIRST ? "5a" : "5i",
                 winner_text(v).s);
        return;
    }
    unsigned f = v->claim_failed;
    unsigned pts = v->points[v->declarer], hc = v->handicap_points[v->declarer];
    add(t, "%s declares an entering king ", d);
    add_after(t, v->ply);
    add(t, " (%s rule): king %s the enemy's three ranks, %u %s there (10 needed), %u %s "
        "there and in hand", koma_verdict_claim_rule(v), v->king_in_zone ? "in" : "outside",
        v->zone_pieces, v->zone_pieces == 1 ? "piece" : "pieces", pts, pts == 1 ? "point" : "points");
    if (hc) add(t, " with %u a handicap removed", hc);
    add(t, " (%u needed), %s", v->points_needed, v->king_in_check ? "in check" : "not in check");
    if (f == 0) {
        add(t, "; the declaration holds: %s", winner_text(v).s);
        return;
    }
    if (f == KOMA_CLAIM_FAIL_POINTS && v->result == KOMA_RESULT_DRAW) {
        add(t, "; 24 to 30 points: draw");
        return;
    }
    add(t, "; the declaration fails (");
    const char *sep = "";
    if (f & KOMA_CLAIM_FAIL_ZONE) { add(t, "%sthe king is not in the zone", sep); sep = ", "; }
    if (f & KOMA_CLAIM_FAIL_PIECES) { add(t, "%sfewer than 10 pieces there", sep); sep = ", "; }
    if (f & KOMA_CLAIM_FAIL_CHECK) { add(t, "%sthe king is in check", sep); sep = ", "; }
    if (f & KOMA_CLAIM_FAIL_POINTS) add(t, "%sfewer than %u points", sep, v->points_needed);
    add(t, "): %s", winner_text(v).s);
}

static void reason(const koma_verdict *v, text *t)
{
    switch (v->kind) {
    case KOMA_VERDICT_RULES:
        rules_reason(v, t);
        break;
    case KOMA_VERDICT_RECORDED:
        recorded_reason(v, t);
        break;
    case KOMA_VERDICT_RESULT_ONLY:
        add(t, "the rules do not end the game ");
        add_after(t, v->ply);
        add(t, "; the recorded result %s is kept", v->result_text);
        break;
    case KOMA_VERDICT_UNREADABLE:
        add(t, "ply %zu \"%s\" cannot be read", v->refused_ply, v->refused_text);
        break;
    case KOMA_VERDICT_CLAIM:
        claim_reason(v, t);
        break;
    default:
        add(t, "the game is not over after %zu %s; %s to move", v->played, plies_word(v->played),
            side_word(v, v->turn));
    }
}

size_t koma_verdict_reason(const koma_verdict *v, char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    if (!known(v)) return 0;
    reason(v, &t);
    return t.need;
}

const char *koma_outcome_member_pointer(koma_outcome_member m)
{
    switch (m) {
    case KOMA_MEMBER_RESULT: return "/outcome/result";
    case KOMA_MEMBER_STATUS: return "/outcome/status";
    case KOMA_MEMBER_PLY: return "/outcome/ply";
    default: return NULL;
    }
}

/* "1-0 checkmate at ply 40" from the parts present. */
static void add_described(text *t, const char *result, int has_status, koma_status st, int has_ply,
                          uint64_t ply)
{
    size_t start = t->need;
    if (result && *result) add(t, "%s", result);
    if (has_status) add(t, "%s%s", t->need > start ? " " : "", koma_cgsn_name(st));
    if (has_ply) add(t, "%sat ply %llu", t->need > start ? " " : "", (unsigned long long)ply);
}

static size_t illegal_message(const koma_verdict *v, char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    add(&t, "ply %zu \"%s\" by %s: %s", v->ply, v->refused_text, side_word(v, v->mover),
        v->refused_message);
    if (v->alt_square[0]) {
        add(&t, "; %s %s: ", v->alt_drop ? "legal drops on" : "legal from", v->alt_square);
        if (!v->legal[0]) add(&t, "none");
        for (const char *l = v->legal; *l; l++) {
            if (*l == ' ') add(&t, ", ");
            else add(&t, "%c", *l);
        }
    }
    add(&t, "; the rules give %s (%s)", v->result_text, koma_cgsn_name(v->status));
    return t.need;
}

static size_t extra_message(const koma_verdict *v, char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    add(&t, "ply %zu \"%s\"", v->extra_ply, v->extra_text);
    if (v->extra > 1) add(&t, " and %zu more %s", v->extra - 1, plies_word(v->extra - 1));
    add(&t, " recorded after the game ended (");
    add_described(&t, NULL, v->has_status, v->status, 1, v->ply);
    add(&t, ")");
    return t.need;
}

/* n moves of the list *l (space-separated), comma-separated; *l moved past
 * them (the list may be cut short). */
static void add_moves(text *t, const char **l, size_t n)
{
    const char *p = *l;
    for (size_t i = 0; i < n && *p; i++) {
        const char *end = strchr(p, ' ');
        size_t w = end ? (size_t)(end - p) : strlen(p);
        add(t, "%s%.*s", i ? ", " : "", (int)w, p);
        p += w;
        if (*p == ' ') p++;
    }
    *l = p;
}

/* What the side to move can still do after a recorded checkmate the rules do
 * not find (a tsume problem's futile interpositions, say): each legal move
 * named for what it is, a king escape, an interposition or a capture of the
 * checker. */
static void mate_refutation(const koma_verdict *v, text *t)
{
    const char *side = side_word(v, v->turn);
    if (!v->mate_in_check) {
        add(t, ": %s is not in check", side);
        return;
    }
    const char *l = v->legal;
    if (v->mate_moves > 0 && v->mate_interpositions == v->mate_moves) {
        add(t, ": %s is in check but can interpose, %zu legal %s, all interpositions (futile ones, "
            "which a tsume problem ignores, are legal moves under the rules)", side, v->mate_moves,
            v->mate_moves == 1 ? "move" : "moves");
        if (*l) {
            add(t, ": ");
            add_moves(t, &l, v->mate_moves);
        }
        return;
    }
    add(t, ": %s is in check but has %zu legal %s", side, v->mate_moves, v->mate_moves == 1 ? "move" : "moves");
    const char *sep = ": ";
    if (v->mate_escapes && *l) {
        add(t, "%s%zu king %s (", sep, v->mate_escapes, v->mate_escapes == 1 ? "escape" : "escapes");
        add_moves(t, &l, v->mate_escapes);
        add(t, ")");
        sep = "; ";
    }
    if (v->mate_interpositions && *l) {
        add(t, "%s%zu %s (", sep, v->mate_interpositions,
            v->mate_interpositions == 1 ? "interposition" : "interpositions");
        add_moves(t, &l, v->mate_interpositions);
        add(t, ")");
        sep = "; ";
    }
    if (v->mate_captures && *l) {
        add(t, "%s%zu %s of the checker (", sep, v->mate_captures,
            v->mate_captures == 1 ? "capture" : "captures");
        add_moves(t, &l, v->mate_captures);
        add(t, ")");
    }
}

static size_t outcome_message(const koma_verdict *v, char *buf, size_t cap)
{
    const koma_recorded *rec = &v->recorded;
    text t = text_at(buf, cap);
    add(&t, "recorded ");
    add_described(&t, rec->has_result ? rec->result : NULL, rec->has_status, rec->status,
                  rec->has_ply, rec->ply);
    if (v->kind == KOMA_VERDICT_RULES) {
        add(&t, ", but the rules give ");
        add_described(&t, v->result_text, 1, v->status, 1, v->ply);
    } else if (v->kind == KOMA_VERDICT_CLAIM) {
        add(&t, ", but the rules give ");
        add_described(&t, v->result_text, 0, v->status, 1, v->ply);
        add(&t, ": ");
        reason(v, &t);
    } else if (v->disagrees == KOMA_MEMBER_PLY && rec->has_ply && rec->ply > v->plies) {
        add(&t, ", but the record has %zu %s", v->plies, plies_word(v->plies));
    } else {
        add(&t, ", but the rules do not end the game ");
        add_after(&t, v->played);
        if (v->mate_refuted) mate_refutation(v, &t);
    }
    return t.need;
}

static size_t result_message(const koma_verdict *v, char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    add(&t, "recorded %s %s, but %s", v->recorded.result,
             koma_cgsn_name(v->recorded.status),
             v->recorded.status == KOMA_STATUS_RESIGNATION
                 ? "a resignation is a win for the other side (1-0 or 0-1)"
                 : "an agreement is a draw (1/2-1/2)");
    return t.need;
}

size_t koma_verdict_dispute(const koma_verdict *v, unsigned dispute, char *buf, size_t cap)
{
    if (!known(v) || !(v->disputes & dispute)) dispute = 0;
    switch (dispute) {
    case KOMA_DISPUTE_ILLEGAL: return illegal_message(v, buf, cap);
    case KOMA_DISPUTE_RESULT: return result_message(v, buf, cap);
    case KOMA_DISPUTE_EXTRA: return extra_message(v, buf, cap);
    case KOMA_DISPUTE_CLOCK: return clock_message(v, buf, cap);
    case KOMA_DISPUTE_OUTCOME: return outcome_message(v, buf, cap);
    default: return text_at(buf, cap).need;
    }
}

size_t koma_ply_unreadable_message(size_t ply, const char *s, size_t len, const koma_error *err,
                                   char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    if (err->code == KOMA_E_PCN_PLIES_LIMIT) {
        add(&t, "%s", err->message);
        return t.need;
    }
    char q[64];
    koma_quote(q, sizeof q, s, len);
    add(&t, "ply %zu \"%s\" cannot be read: %s", ply, q, err->message);
    return t.need;
}

size_t koma_ply_notation_message(size_t ply, const char *s, size_t len, const koma_game *game,
                                 int side, const koma_error *err, char *buf, size_t cap)
{
    char q[KOMA_MOVE_TEXT_BUF];
    koma_quote(q, sizeof q, s, len);
    text t = text_at(buf, cap);
    add(&t, "ply %zu \"%s\" by %s: %s", ply, q, koma_game_side_name(game, side), err->message);
    return t.need;
}

/* ---- koma-repetition-check ---------------------------------------------------------- */

static int triggered(const koma_verdict *v)
{
    return v->kind == KOMA_VERDICT_RULES && v->status == KOMA_STATUS_REPETITION;
}

static int loser(const koma_verdict *v)
{
    if (v->result == KOMA_RESULT_FIRST) return KOMA_SECOND;
    if (v->result == KOMA_RESULT_SECOND) return KOMA_FIRST;
    return -1;
}

const char *koma_verdict_repetition_rule(const koma_verdict *v)
{
    if (!known(v)) return NULL;
    if (!triggered(v)) return "none";
    if (v->illegal) return "illegal-repeat";
    return v->perpetual >= 0 && v->perpetual == loser(v) ? "perpetual-check" : "fourfold";
}

/* "plies 0, 4 and 8": the occurrences of r but the last */
static void add_occurrences(text *t, const koma_repeats *positions, koma_repeat *r)
{
    unsigned long total = r->count - 1, m = 0, where;
    while (m < total && koma_repeats_where(positions, r, &where)) {
        const char *sep = m == 0 ? (total > 1 ? "plies " : "ply ") : m + 1 == total ? " and " : ", ";
        add(t, "%s%lu", sep, where);
        m++;
    }
}

size_t koma_verdict_repetition_reason(const koma_verdict *v, koma_repeats *positions, size_t nrep,
                                      char *buf, size_t cap)
{
    text t = text_at(buf, cap);
    const char *rule = koma_verdict_repetition_rule(v);
    if (rule == NULL) return 0;
    if (strcmp(rule, "illegal-repeat") == 0) {
        add(&t, "ply %zu (%s) by %s repeats ply %zu: the same move to the same position; %s loses",
            v->ply, v->move, side_word(v, v->mover), v->repeats, side_word(v, v->mover));
    } else if (triggered(v)) {
        koma_repeat r;
        int found = 0;
        for (size_t i = 0; i < nrep && !found; i++) {
            koma_repeats_at(positions, i, &r);
            found = r.last == v->ply;
        }
        add(&t, "the position of ");
        if (found) add_occurrences(&t, positions, &r);
        add(&t, " occurs a ");
        add_ordinal(&t, found ? r.count : 0);
        add(&t, " time at ply %zu", v->ply);
        int lost = loser(v);
        if (strcmp(rule, "perpetual-check") == 0) {
            size_t from = v->cycle_first + 1;
            int setup_turn = v->turn ^ (int)(v->played & 1);
            if ((setup_turn ^ (int)((from - 1) & 1)) != lost) from++;
            add(&t, " and every move of %s from ply %zu to ply %zu gave check (perpetual check): "
                "%s loses", side_word(v, lost), from, v->ply, side_word(v, lost));
        } else if (lost >= 0) {
            add(&t, ": %s loses", side_word(v, lost));
        } else if (v->all_threatened[0] && v->all_threatened[1]) {
            add(&t, " and both sides gave check with every move: a draw");
        } else {
            add(&t, ": a draw");
        }
    } else {
        if (nrep == 0)
            add(&t, "no repeated position in %zu %s", v->played, plies_word(v->played));
        else
            add(&t, "%zu %s repeated in %zu %s; the repetition rule was not triggered", nrep,
                nrep == 1 ? "position" : "positions", v->played, plies_word(v->played));
        if (v->refused)
            add(&t, "; ply %zu is illegal (%s)", v->refused_ply, koma_code_name(v->refused_code));
        else if (v->kind == KOMA_VERDICT_RULES && v->ply == 0)
            add(&t, "; the setup position is already final (%s, %s)", koma_cgsn_name(v->status),
                v->result_text);
        else if (v->kind == KOMA_VERDICT_RULES)
            add(&t, "; the game ended at ply %zu (%s, %s)", v->ply, koma_cgsn_name(v->status),
                v->result_text);
    }
    if (v->extra) add(&t, "; %zu later %s not checked", v->extra, plies_word(v->extra));
    return t.need;
}
