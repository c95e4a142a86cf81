/*
 * lib/referee_claims.c — the record's claims, checked where the record holds
 * the data for them (koma-games(7), ENDINGS FROM THE SHOGI WORLD): an
 * entering-king declaration or an impasse on the final position, with the
 * handicap the setup or the record states; a time loss against the record's
 * clocks.
 */
#include <stdlib.h>
#include <string.h>

#include "referee_internal.h"

/* A rook or bishop, promoted or not: 5; the king: 0; every other piece: 1. */
static unsigned piece_points(koma_piece p)
{
    if (p & KOMA_PIECE_TERMINAL) return 0;
    unsigned l = p & KOMA_PIECE_LETTER;
    return l == (unsigned)('R' - 'A' + 1) || l == (unsigned)('B' - 'A' + 1) ? 5u : 1u;
}

int koma_entering_count_side(const koma_position *pos, int side, koma_entering_count *out)
{
    memset(out, 0, sizeof *out);
    if (pos->shape.ndims != 2 || pos->shape.size[0] != 9 || pos->shape.size[1] != 9) return -1;
    for (unsigned i = 0; i < 81; i++) {
        koma_piece p = pos->board[i];
        if (p == KOMA_PIECE_NONE || koma_piece_side(p) != side) continue;
        unsigned row = i / 9;          /* 0: the rank written first, the second player's camp */
        int zone = side == KOMA_FIRST ? row < 3 : row >= 6;
        unsigned pts = piece_points(p);
        out->total_points += pts;
        if (p & KOMA_PIECE_TERMINAL) out->king_in_zone = zone;
        else if (zone) {
            out->zone_pieces++;
            out->zone_points += pts;
        }
    }
    const koma_hand *h = &pos->hands[side];
    for (size_t i = 0; i < h->len; i++) {
        unsigned pts = piece_points(h->items[i].piece) * h->items[i].count;
        out->zone_points += pts;
        out->total_points += pts;
    }
    return 0;
}

/* Whether r's game judges the claims (Shogi), and the handicap of the setup: when
 * both hands are empty and one side has all its 27 points, the points the other
 * side lacks were removed by a handicap and count for that side (the upper
 * player). */
static void setup_claims(koma_referee *r, const koma_position *setup);

void koma__referee_setup_claims(koma_referee *r, const koma_position *setup)
{
    memset(&r->stated, 0, sizeof r->stated);
    /* the last record's setup, read from the same text, under the same game:
     * what was found then (koma_referee_pcn) */
    if (setup == &r->setup && r->setup_claims_of == r->g) {
        r->claims = r->setup_claims;
        r->handicap_points[0] = r->setup_points[0];
        r->handicap_points[1] = r->setup_points[1];
        return;
    }
    setup_claims(r, setup);
    r->setup_claims_of = setup == &r->setup ? r->g : NULL;
    r->setup_claims = r->claims;
    r->setup_points[0] = r->handicap_points[0];
    r->setup_points[1] = r->handicap_points[1];
}

static void setup_claims(koma_referee *r, const koma_position *setup)
{
    r->handicap_points[0] = r->handicap_points[1] = 0;
    r->claims = strcmp(r->g->id, "shogi") == 0 && r->g->files == 9 && r->g->ranks == 9;
    if (!r->claims) return;
    koma_entering_count c[2];
    if (koma_entering_count_side(setup, KOMA_FIRST, &c[0]) != 0 ||
        koma_entering_count_side(setup, KOMA_SECOND, &c[1]) != 0) {
        r->claims = 0;
        return;
    }
    if (setup->hands[0].len || setup->hands[1].len) return;
    for (int s = 0; s < 2; s++)
        if (c[s ^ 1].total_points == 27 && c[s].total_points < 27)
            r->handicap_points[s] = 27 - c[s].total_points;
}

/* The handicaps by the names KIF's 手合割 and JKF's initial.preset give them (as
 * meta.handicap keeps them), and the points of the pieces each removes from the
 * upper player, who has Gote's pieces (koma-formats(5), SHOGI-WORLD FORMATS). */
static const struct {
    const char *kif, *jkf;
    unsigned points;
} stated_handicaps[] = {
    {"平手", "HIRATE", 0},  {"香落ち", "KY", 1},     {"右香落ち", "KY_R", 1},  {"角落ち", "KA", 5},
    {"飛車落ち", "HI", 5},  {"飛香落ち", "HIKY", 6}, {"二枚落ち", "2", 10},    {"三枚落ち", "3", 11},
    {"四枚落ち", "4", 12},  {"五枚落ち", "5", 13},   {"左五枚落ち", "5_L", 13}, {"六枚落ち", "6", 14},
    {"八枚落ち", "8", 16},  {"十枚落ち", "10", 18},
};

/* The record's stated handicap (meta.handicap), when it names one koma knows:
 * its points count for the upper player, in place of those the setup lacks. */
void koma__referee_state_handicap(koma_referee *r, const koma_position *setup, const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof stated_handicaps / sizeof stated_handicaps[0]; i++) {
        const char *k = stated_handicaps[i].kif, *j = stated_handicaps[i].jkf;
        if (!((strlen(k) == len && memcmp(k, name, len) == 0) || (strlen(j) == len && memcmp(j, name, len) == 0)))
            continue;
        r->stated.known = 1;
        r->stated.inferable = setup->hands[0].len == 0 && setup->hands[1].len == 0;
        memcpy(r->stated.setup, r->handicap_points, sizeof r->stated.setup);
        copy(r->stated.name, sizeof r->stated.name, k);
        r->handicap_points[KOMA_FIRST] = 0;
        r->handicap_points[KOMA_SECOND] = stated_handicaps[i].points;
        return;
    }
}

static koma_result win_of(int side) { return side == KOMA_FIRST ? KOMA_RESULT_FIRST : KOMA_RESULT_SECOND; }

/* Try rule: whether the side to move has a legal move of its king to the square
 * the enemy king started on (5a for Sente, 5i for Gote: the middle file of the
 * last rank). 1, 0, or -1 (memory). */
static int try_move(koma_referee *r, int side, koma_error *err)
{
    uint32_t target = side == KOMA_FIRST ? 4u : 8u * 9u + 4u;
    long n = koma__referee_legal_texts(r, err);
    if (n < 0) return -1;
    for (long i = 0; i < n; i++) {
        koma_move m;
        uint32_t from, to;
        if (koma_engine_move_pmn(r->e, r->moves[i], &m) != 0 || m.kind == KOMA_MOVE_DROP ||
            m.kind == KOMA_MOVE_DROPCAP || !m.src.ndims ||
            koma_shape_square(&r->pos.shape, &m.src, &from, NULL) != 0 ||
            koma_shape_square(&r->pos.shape, &m.dst, &to, NULL) != 0)
            continue;
        if (to == target && (r->pos.board[from] & KOMA_PIECE_TERMINAL)) return 1;
    }
    return 0;
}

/*
 * The record's entering-king declaration or impasse judged on the final
 * position (koma-games(7), ENDINGS FROM THE SHOGI WORLD). Declaration: the side
 * to move declares; its king in the enemy's three ranks, at least 10 other
 * pieces there, not in check, and its points (the pieces there and in hand;
 * a rook or bishop 5, others 1) at least 28 for Sente or 27 for Gote (27-point
 * rule: else it loses), or 31 (24-point rule: 24 to 30 a draw, fewer a loss);
 * the try rule: a legal king move to the enemy king's starting square. Impasse:
 * all of each side's pieces counted, a side below 24 loses, else a draw.
 * Points removed by a handicap count for the upper player.
 */
int koma__referee_judge_claim(koma_referee *r, koma_verdict *v, koma_error *err)
{
    const koma_recorded *rec = &r->rec;
    if (koma_engine_get_position(r->e, &r->pos, err) != 0) return -1;
    koma_entering_count c[2];
    if (koma_entering_count_side(&r->pos, KOMA_FIRST, &c[0]) != 0 ||
        koma_entering_count_side(&r->pos, KOMA_SECOND, &c[1]) != 0)
        return 0;                      /* (begin checked the shape) */
    int d = koma_engine_turn(r->e);
    v->kind = KOMA_VERDICT_CLAIM;
    v->claim = rec->claim;
    v->declarer = d;
    v->king_in_zone = c[d].king_in_zone;
    v->king_in_check = koma_engine_in_check(r->e);
    v->zone_pieces = c[d].zone_pieces;
    v->handicap_points[0] = r->handicap_points[0];
    v->handicap_points[1] = r->handicap_points[1];
    if (r->stated.known) {
        copy(v->handicap_stated, sizeof v->handicap_stated, r->stated.name);
        v->handicap_setup[0] = r->stated.setup[0];
        v->handicap_setup[1] = r->stated.setup[1];
        v->handicap_disagrees = r->stated.inferable && (r->stated.setup[0] != r->handicap_points[0] ||
                                                        r->stated.setup[1] != r->handicap_points[1]);
    }
    v->has_ply = 1;
    v->ply = r->played;
    unsigned fail = 0;
    if (rec->claim == KOMA_CLAIM_IMPASSE) {
        v->claim_rule = KOMA_DECLARE_24;
        v->points_needed = 24;
        for (int s = 0; s < 2; s++) v->points[s] = c[s].total_points + r->handicap_points[s];
        int short0 = v->points[0] < 24, short1 = v->points[1] < 24;
        if (short0 || short1) fail |= KOMA_CLAIM_FAIL_POINTS;
        v->result = short0 == short1 ? KOMA_RESULT_DRAW : win_of(short0 ? KOMA_SECOND : KOMA_FIRST);
    } else {
        koma_declaration_rule rule = r->rule != KOMA_DECLARE_DEFAULT ? r->rule
                                     : r->opt.declaration != KOMA_DECLARE_DEFAULT ? r->opt.declaration
                                     : KOMA_DECLARE_27;
        v->claim_rule = rule;
        for (int s = 0; s < 2; s++) v->points[s] = c[s].zone_points + r->handicap_points[s];
        if (rule == KOMA_DECLARE_TRY) {
            int t = try_move(r, d, err);
            if (t < 0) return -1;
            if (!t) fail |= KOMA_CLAIM_FAIL_TRY;
            v->result = win_of(t ? d : d ^ 1);
        } else {
            v->points_needed = rule == KOMA_DECLARE_24 ? 31 : d == KOMA_FIRST ? 28 : 27;
            if (!v->king_in_zone) fail |= KOMA_CLAIM_FAIL_ZONE;
            if (v->zone_pieces < 10) fail |= KOMA_CLAIM_FAIL_PIECES;
            if (v->king_in_check) fail |= KOMA_CLAIM_FAIL_CHECK;
            if (v->points[d] < v->points_needed) fail |= KOMA_CLAIM_FAIL_POINTS;
            if (fail == 0) v->result = win_of(d);
            else if (fail == KOMA_CLAIM_FAIL_POINTS && rule == KOMA_DECLARE_24 && v->points[d] >= 24)
                v->result = KOMA_RESULT_DRAW;
            else v->result = win_of(d ^ 1);
        }
    }
    v->claim_failed = fail;
    copy(v->result_text, sizeof v->result_text, koma_result_name(v->result));
    if (rec->has_result && strcmp(rec->result, v->result_text) != 0) v->disagrees = KOMA_MEMBER_RESULT;
    else if (rec->has_ply && rec->ply != v->ply) v->disagrees = KOMA_MEMBER_PLY;
    return 0;
}

/* An integer member at pointer (0 when absent or not an integer: *ok 0). */
static long long int_at(const koma_pcn *rec, const char *pointer, int *ok)
{
    koma_pcn_value v;
    *ok = koma_pcn_get(rec, pointer, &v) == KOMA_PCN_INTEGER && v.integer >= 0;
    return *ok ? v.integer : 0;
}

/* A think in whole seconds, rounded down; a CSA record counts at least one. */
static long long whole_seconds(long long ms, int csa)
{
    long long s = ms / 1000 * 1000;
    return csa && s < 1000 ? 1000 : s;
}

/* The time control of side: its periods, else the record's: the main time and
 * its increment, then a byo-yomi of one ply (none: 0), in whole seconds. 0, or
 * with *why: -1, no time control; -2, one of another shape. */
static int read_control(const koma_pcn *rec, int side, long long t[3], const char **why)
{
    koma_pcn_value v;
    const char *periods = side == KOMA_FIRST ? "/sides/first/periods" : "/sides/second/periods";
    if (koma_pcn_get(rec, periods, &v) != KOMA_PCN_ARRAY) periods = "/periods";
    if (koma_pcn_get(rec, periods, &v) != KOMA_PCN_ARRAY || v.len == 0) {
        /* a text koma does not read as periods (koma-formats(5)) is not one */
        *why = koma_pcn_get(rec, "/meta/time_control", &v) == KOMA_PCN_STRING
                   ? "a time control koma reads (koma-formats(5) lists the forms)"
                   : "the time control";
        return -1;                     /* none */
    }
    char ptr[96];
    int ok, has;
    snprintf(ptr, sizeof ptr, "%s/0/duration_ms", periods);
    t[0] = int_at(rec, ptr, &ok);
    snprintf(ptr, sizeof ptr, "%s/0/plies", periods);
    int_at(rec, ptr, &has);
    int shape = ok && !has && v.len <= 2;
    snprintf(ptr, sizeof ptr, "%s/0/increment_ms", periods);
    t[1] = int_at(rec, ptr, &has);
    t[2] = 0;
    if (v.len == 2) {
        snprintf(ptr, sizeof ptr, "%s/1/duration_ms", periods);
        t[2] = int_at(rec, ptr, &ok);
        snprintf(ptr, sizeof ptr, "%s/1/plies", periods);
        shape = shape && ok && int_at(rec, ptr, &has) == 1;
        snprintf(ptr, sizeof ptr, "%s/1/increment_ms", periods);
        int_at(rec, ptr, &has);
        shape = shape && !has;
    }
    if (!shape) {
        *why = "a time control of main time, increment and byo-yomi";
        return -2;
    }
    for (int i = 0; i < 3; i++) t[i] = t[i] / 1000 * 1000;
    return 0;
}

/* The text after "KEY" on a line of its own of the setup's comment (a CSA
 * record's comments before the first move: floodgate's 'Increment:10, koma's
 * 'handicap: 角落ち), or NULL. */
const char *koma__referee_comment_value(const koma_pcn *rec, const char *key, size_t *len)
{
    koma_pcn_value v;
    if (koma_pcn_get(rec, "/setup/comment", &v) != KOMA_PCN_STRING) return NULL;
    size_t kl = strlen(key);
    for (size_t i = 0; i < v.len;) {
        const char *l = v.string + i, *e = memchr(l, '\n', v.len - i);
        size_t n = e ? (size_t)(e - l) : v.len - i;
        if (n > kl && memcmp(l, key, kl) == 0) {
            *len = n - kl;
            return l + kl;
        }
        i += n + 1;
    }
    return NULL;
}

/* The number N of a comment line "KEY:N" (comment_value), or -1. */
static long long comment_number(const koma_pcn *rec, const char *key)
{
    size_t n, k = 0;
    const char *s = koma__referee_comment_value(rec, key, &n);
    long long x = 0;
    if (s == NULL || n > 9) return -1;
    while (k < n && KOMA_IS_DIGIT(s[k])) x = x * 10 + (s[k++] - '0');
    return k == n ? x : -1;
}

/* The time control of a CSA server's game name in meta.event, when the record
 * states none: "EVENT+NAME-TOTAL-BYOYOMI+..." ("wdoor+floodgate-600-10F+..."),
 * seconds, F: the second number is an increment (Fischer). 1 with t, else 0. */
static int server_control(const koma_pcn *rec, long long t[3])
{
    koma_pcn_value v;
    if (koma_pcn_get(rec, "/meta/event", &v) != KOMA_PCN_STRING) return 0;
    const char *s = v.string, *end = s + v.len, *f = memchr(s, '+', v.len);
    if (f == NULL) return 0;
    const char *e = memchr(f + 1, '+', (size_t)(end - f - 1));
    if (e == NULL) return 0;
    /* from the field's end: [F] digits '-' digits '-' */
    const char *p = e;
    int fischer = p[-1] == 'F';
    if (fischer) p--;
    long long num[2] = {0, 0};
    for (int k = 1; k >= 0; k--) {
        const char *q = p;
        while (q > f + 1 && KOMA_IS_DIGIT(q[-1]) && p - q < 7) q--;
        if (q == p || q <= f + 1 || q[-1] != '-') return 0;
        for (const char *d = q; d < p; d++) num[k] = num[k] * 10 + (*d - '0');
        p = q - 1;
    }
    t[0] = num[0] * 1000;
    t[1] = fischer ? num[1] * 1000 : 0;
    t[2] = fischer ? 0 : num[1] * 1000;
    return 1;
}

/*
 * A recorded time loss checked against the record's clocks (koma_verdict.clock):
 * each side's main time and increment, its byo-yomi (read_control), the
 * elapsed_ms of each ply up to the recorded end, and the loser's last think
 * (outcome.elapsed_ms). A clock: each think t is taken from the main time;
 * past it, the byo-yomi covers what is over; a think over both runs out (t
 * greater than the time left: a think of exactly the time left is in time, as
 * the CSA server counts); the increment is added after every move in time.
 * The loser's clock must be complete; the winner's is followed as far as the
 * record gives it. A clock that ran out before the end (either side's) is
 * EARLIER; else the loser's last think must run out.
 */
void koma__referee_check_clock(koma_referee *r, const koma_pcn *rec, const koma_recorded *rc, size_t n)
{
    struct clock_check *k = &r->clk;
    memset(k, 0, sizeof *k);
    if (!rc->has_status || rc->status != KOMA_STATUS_TIMELIMIT) return;
    size_t end = rc->has_ply && rc->ply <= n ? (size_t)rc->ply : n;
    int loser = (r->setup_turn ^ (int)(end & 1));
    if (rc->has_result && strcmp(rc->result, "1-0") == 0) loser = KOMA_SECOND;
    else if (rc->has_result && strcmp(rc->result, "0-1") == 0) loser = KOMA_FIRST;
    k->side = loser;
    k->state = KOMA_CLOCK_UNCHECKED;
    koma_pcn_value src;
    int csa = koma_pcn_get(rec, "/meta/source/format", &src) == KOMA_PCN_STRING && src.len == 3 &&
              memcmp(src.string, "csa", 3) == 0;
    long long t[2][3];
    int follow[2];
    const char *why = NULL, *w = NULL;
    /* a CSA server's record: its game name's time control when the record has
     * none, floodgate's 'Increment:N when the time control has no increment */
    long long named[3], inc = csa ? comment_number(rec, "Increment:") : -1;
    int has_named = csa && server_control(rec, named);
    for (int s = 0; s < 2; s++) {
        int got = read_control(rec, s, t[s], &w);
        follow[s] = got == 0;
        if (got == -1 && has_named) {
            memcpy(t[s], named, sizeof named);
            follow[s] = 1;
        }
        if (follow[s] && t[s][1] == 0 && inc > 0) t[s][1] = inc * 1000;
        if (!follow[s] && s == loser) why = w;
    }
    char ptr[96];
    int ok;
    for (size_t i = 0; i < end && (follow[0] || follow[1]); i++) {
        int s = r->setup_turn ^ (int)(i & 1);
        if (!follow[s]) continue;
        snprintf(ptr, sizeof ptr, "/plies/%zu/elapsed_ms", i);
        long long e = int_at(rec, ptr, &ok);
        if (!ok) {
            follow[s] = 0;
            if (s == loser) {
                snprintf(k->missing, sizeof k->missing, "the time of ply %zu", i + 1);
                why = k->missing;
            }
            continue;
        }
        e = whole_seconds(e, csa);
        if (e > t[s][0] + t[s][2]) {
            k->state = KOMA_CLOCK_EARLIER;
            k->side = s;
            k->ply = i + 1;
            k->left = t[s][0] + t[s][2];
            k->spent = e;
            return;
        }
        t[s][0] = e > t[s][0] ? 0 : t[s][0] - e;
        t[s][0] += t[s][1];
    }
    long long last = int_at(rec, "/outcome/elapsed_ms", &ok);
    if (why == NULL && !ok) why = "the time of the last think (outcome.elapsed_ms)";
    if (why != NULL) {
        if (why != k->missing) copy(k->missing, sizeof k->missing, why);
        return;
    }
    k->left = t[loser][0] + t[loser][2];
    k->spent = whole_seconds(last, csa);
    k->state = k->spent > k->left ? KOMA_CLOCK_AGREES : KOMA_CLOCK_TIME_LEFT;
}
