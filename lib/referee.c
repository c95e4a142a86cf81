/*
 * lib/referee.c — judging a game (koma/referee.h): the history rules
 * (same-move repetition, fourfold repetition and perpetual check, the move
 * limit), the order of koma-games(7), the record's own outcome, and the verdict.
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

#include "internal.h"
#include "game_internal.h"             /* struct koma_game: the history rules */
#include "util_json_pos.h"                   /* JSON pointers escaped */
#include "pcn_internal.h"              /* koma__pcn_ply_move */
#include "engine_backend.h"            /* KOMA__ENGINE_* (koma__engine_flags) */
#include <koma/referee.h>

#define ENGINES_MAX 8                  /* engines kept, one a game */
#define VARIANTS_MAX 32                /* games under a record's rule options, kept */
#define RULE_OPTIONS_MAX 32            /* members of a record's meta.rule_options */
#define BUCKETS 1024

enum { ON, ENDED, UNREADABLE };

typedef struct hist {
    uint64_t hash;                     /* the position after the ply */
    uint64_t key;                      /* the ply's move (same-move rule) */
    uint8_t threat;                    /* its player threatened to end the game */
    uint32_t prev;                     /* the previous position of its bucket + 1 (0: none) */
} hist;

struct koma_referee {
    koma_referee_options opt;
    koma_engine *engines[ENGINES_MAX];
    size_t nengines;
    struct variant {
        const koma_game *base;         /* the game the record's FEEN selects */
        koma_game *game;               /* it under the record's meta.rule_options */
    } variants[VARIANTS_MAX];
    size_t nvariants;
    koma_engine *e;                    /* the game in progress */
    unsigned flags;                    /* its backend's (koma__engine_flags) */
    const koma_game *g;
    koma_position pos;                 /* scratch: dialect context, stripped FEENs */
    /* the last record's setup FEEN as read, kept for the next record with the
     * same text (a database's records mostly start from one position); only
     * the position: its game is looked up each time, in the set given then */
    koma_position setup;
    char setup_text[KOMA_FEEN_MAX_LEN + 1];
    size_t setup_len;                  /* 0: none kept */
    hist *h;                           /* h[0..played] */
    size_t caph;
    uint32_t bucket[BUCKETS];
    uint32_t head[BUCKETS];            /* the bucket's latest position + 1 (0: none) */
    uint32_t limit_count;              /* plies since the move-limit count was reset */
    koma_repeats *track;               /* KOMA_REFEREE_TRACK */
    koma_emove *moves;                 /* legal moves (illegal plies only) */
    size_t capmoves;
    char *texts;                       /* their canonical texts */
    size_t captexts;

    /* the game in progress */
    int state;
    int ruled;                         /* ENDED by the rules (else by the record) */
    int setup_turn;
    size_t index;                      /* plies given */
    size_t played;
    int has_stop;                      /* a recorded ending before the last ply */
    size_t stop_at;
    koma_ending end;                   /* the rules' ending */
    size_t ply;                        /* the deciding ply */
    int mover;
    char move[KOMA_MOVE_TEXT_BUF];

    int illegal, refused;
    size_t refused_ply, refused_offset;
    koma_code refused_code;
    char refused_text[KOMA_MOVE_TEXT_BUF];
    char refused_message[KOMA_ERROR_MESSAGE_MAX];
    char alt_square[16];
    int alt_drop;
    char legal[KOMA_VERDICT_LEGAL_MAX];

    size_t repeats, cycle_first;
    unsigned long occurrences;
    int perpetual, all_threatened[2];
    int has_repeated;
    char repeated_fid[KOMA_FID_BUF];
    char repeated_feen[KOMA_FEEN_MAX_LEN + 1];

    size_t extra, extra_ply;
    char extra_text[KOMA_MOVE_TEXT_BUF];
    size_t notation_faults, notation_ply;

    int has_recorded;
    koma_recorded rec;

    /* the record's claims (koma-games(7), ENDINGS FROM THE SHOGI WORLD) */
    koma_declaration_rule rule;        /* the record's meta.rule_options.declaration */
    struct clock_check {               /* a recorded time loss against the clocks */
        int state;                     /* KOMA_CLOCK_* */
        int side;
        char missing[64];
        long long left, spent;
        size_t ply;
    } clk;
    int claims;                        /* the game judges them (Shogi) */
    unsigned handicap_points[2];       /* what a handicap removed, per side */
    struct stated_handicap {           /* the record's meta.handicap, when koma knows it */
        int known;
        int inferable;                 /* the setup's hands are empty: its missing
                                          pieces say a handicap too */
        unsigned setup[2];             /* the points the setup lacks (handicap_points
                                          before the stated handicap replaced them) */
        char name[48];
    } stated;

    /* the next ply's move, read ahead (koma_referee_pcn): when it is legal in
     * the position a ply leaves, that position has a legal move (no search for
     * one), and the next ply takes the move found */
    const koma_move *next;             /* the next ply's parsed move, or NULL */
    const koma_move *ahead_of;         /* the parsed move ahead_move was found for */
    size_t ahead_index;                /* at ply ahead_index (0-based) */
    koma_emove ahead_move;
};

/* src into dst[0..cap), cut (snprintf "%s" without its cost on every record). */
static void copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int oom(koma_error *err)
{
    return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (referee)");
}

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

static int grow_history(koma_referee *r, size_t need, koma_error *err)
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
static int track(koma_referee *r, uint64_t hash, size_t ply, koma_error *err)
{
    unsigned long count;
    if (koma_repeats_add(r->track, hash, (unsigned long)ply, &count, err) != 0) return -1;
    if (count != 2) return 0;
    char feen[KOMA_FEEN_MAX_LEN + 1], fid[KOMA_FID_BUF];
    size_t len;
    if (stripped(r, feen, sizeof feen, &len, fid, err) != 0) return -1;
    return koma_repeats_attach_feen(r->track, hash, feen, len, fid, err);
}

/* ---- the record's claims: entering-king declarations, impasse ------------------------ */

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
static void setup_claims(koma_referee *r, const koma_position *setup)
{
    r->handicap_points[0] = r->handicap_points[1] = 0;
    memset(&r->stated, 0, sizeof r->stated);
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
static void state_handicap(koma_referee *r, const koma_position *setup, const char *name, size_t len)
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
    if (grow_history(r, 1, err) != 0) return -1;
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
    if (r->track && track(r, hash, 0, err) != 0) return -1;
    setup_claims(r, setup);
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

static int explicit_status(koma_status st)
{
    return st == KOMA_STATUS_RESIGNATION || st == KOMA_STATUS_TIMELIMIT ||
           st == KOMA_STATUS_AGREEMENT;
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

/* The legal moves of the current position as canonical texts (r->texts,
 * KOMA_MOVE_TEXT_BUF bytes each); their number, or -1 (memory). */
static long legal_texts(koma_referee *r, koma_error *err)
{
    size_t max = koma_engine_max_moves(r->e);
    if (max > r->capmoves) {
        koma_emove *mv = realloc(r->moves, max * sizeof *mv);
        if (mv == NULL) return oom(err);
        r->moves = mv;
        r->capmoves = max;
    }
    size_t n = koma_engine_legal_moves(r->e, r->moves);
    if (koma__engine_trouble(r->e)) return oom(err);
    if (n > r->captexts) {
        char *t = realloc(r->texts, n * KOMA_MOVE_TEXT_BUF);
        if (t == NULL) return oom(err);
        r->texts = t;
        r->captexts = n;
    }
    for (size_t i = 0; i < n; i++)
        koma_engine_move_text(r->e, r->moves[i], r->texts + i * KOMA_MOVE_TEXT_BUF, KOMA_MOVE_TEXT_BUF);
    return (long)n;
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* r->texts[0..k) space-separated into out[KOMA_VERDICT_LEGAL_MAX] (cut at a
 * move when they do not fit); join_sorted sorts them first. */
static void join(koma_referee *r, size_t k, char *out)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        const char *t = r->texts + i * KOMA_MOVE_TEXT_BUF;
        size_t w = strlen(t);
        if (len + w + 2 >= KOMA_VERDICT_LEGAL_MAX) break;
        if (len) out[len++] = ' ';
        memcpy(out + len, t, w + 1);
        len += w;
    }
}

static void join_sorted(koma_referee *r, size_t k, char *out)
{
    qsort(r->texts, k, KOMA_MOVE_TEXT_BUF, cmp_text);
    join(r, k, out);
}

/* Whether the piece on square sq gives the only check to the side to move:
 * without it, that side is not in check. 1, 0, or -1 (memory). */
static int sole_checker(koma_referee *r, uint32_t sq, koma_error *err)
{
    koma_engine *e2;
    koma_position p;
    koma_position_init(&p);
    int rc = -1;
    if (koma_position_copy(&p, &r->pos, err) != 0) goto out;
    p.board[sq] = KOMA_PIECE_NONE;
    if (koma_engine_new(r->g, &e2, err) != 0) goto out;
    koma_error why;
    if (koma_engine_set_position(e2, &p, &why) == 0) rc = !koma_engine_in_check(e2);
    else if (why.code == KOMA_E_MEMORY) *err = why;
    else rc = 0;
    koma_engine_free(e2);
out:
    koma_position_cleanup(&p);
    return rc;
}

/* A recorded checkmate the rules do not find: what the side to move can still
 * do (koma_verdict.mate_*): its legal moves, sorted by kind (king escapes,
 * interpositions, captures of the checker), each kind sorted. */
static int mate_refutation(koma_referee *r, koma_verdict *v, koma_error *err)
{
    long n = legal_texts(r, err);
    if (n < 0) return -1;
    v->mate_refuted = 1;
    v->mate_in_check = koma_engine_in_check(r->e);
    v->mate_moves = (size_t)n;
    v->mate_interpositions = v->mate_escapes = v->mate_captures = 0;
    if (!v->mate_in_check || n == 0) {
        join_sorted(r, (size_t)n, v->legal);
        return 0;
    }
    if (koma_engine_get_position(r->e, &r->pos, err) != 0) return -1;
    unsigned char *kind = malloc((size_t)n);
    if (kind == NULL) return oom(err);
    for (long i = 0; i < n; i++) {
        koma_move m;
        uint32_t from = 0, to = 0;
        kind[i] = 1;                   /* a drop, or a move between */
        if (koma_engine_move_pmn(r->e, r->moves[i], &m) != 0 || m.kind == KOMA_MOVE_DROP ||
            m.kind == KOMA_MOVE_DROPCAP || !m.src.ndims ||
            koma_shape_square(&r->pos.shape, &m.src, &from, NULL) != 0 ||
            koma_shape_square(&r->pos.shape, &m.dst, &to, NULL) != 0)
            continue;
        int king = (r->pos.board[from] & KOMA_PIECE_TERMINAL) != 0;
        int takes = r->pos.board[to] != KOMA_PIECE_NONE;
        if (takes && !king) {
            kind[i] = 2;               /* a capture that answers check takes the checker */
        } else if (takes) {
            int c = sole_checker(r, to, err);
            if (c < 0) {
                free(kind);
                return -1;
            }
            kind[i] = c ? 2 : 0;
        } else if (king) {
            kind[i] = 0;
        }
    }
    /* grouped: escapes, interpositions, captures; each group sorted */
    char tmp[KOMA_MOVE_TEXT_BUF];
    size_t at = 0;
    for (unsigned char k = 0; k < 3; k++) {
        size_t start = at;
        for (size_t i = at; i < (size_t)n; i++) {
            if (kind[i] != k) continue;
            if (i != at) {
                memcpy(tmp, r->texts + at * KOMA_MOVE_TEXT_BUF, KOMA_MOVE_TEXT_BUF);
                memcpy(r->texts + at * KOMA_MOVE_TEXT_BUF, r->texts + i * KOMA_MOVE_TEXT_BUF, KOMA_MOVE_TEXT_BUF);
                memcpy(r->texts + i * KOMA_MOVE_TEXT_BUF, tmp, KOMA_MOVE_TEXT_BUF);
                unsigned char t = kind[at];
                kind[at] = kind[i];
                kind[i] = t;
            }
            at++;
        }
        qsort(r->texts + start * KOMA_MOVE_TEXT_BUF, at - start, KOMA_MOVE_TEXT_BUF, cmp_text);
        if (k == 0) v->mate_escapes = at - start;
        else if (k == 1) v->mate_interpositions = at - start;
        else v->mate_captures = at - start;
    }
    free(kind);
    join(r, (size_t)n, v->legal);
    return 0;
}

/* The legal moves from the origin of the illegal ply (a drop: onto its square),
 * sorted, into r->legal. */
static int alternatives(koma_referee *r, const char *canon, size_t clen, koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(canon, clen, &m, NULL) != 0) return 0;
    int drop = m.kind == KOMA_MOVE_DROP || m.kind == KOMA_MOVE_DROPCAP;
    if (drop) koma_cell_write(&m.dst, r->alt_square);
    else if (m.src.ndims) koma_cell_write(&m.src, r->alt_square);
    else return 0;
    r->alt_drop = drop;
    long n = legal_texts(r, err);
    if (n < 0) return -1;
    size_t k = 0;
    char self[KOMA_PMN_BUF];
    koma_pmn_write(&m, self);
    for (long i = 0; i < n; i++) {
        char *t = r->texts + (size_t)i * KOMA_MOVE_TEXT_BUF;
        koma_move lm;
        if (koma_pmn_parse(t, strlen(t), &lm, NULL) != 0) continue;
        int same = drop ? lm.kind == KOMA_MOVE_DROP && koma_cell_equal(&lm.dst, &m.dst)
                        : lm.kind != KOMA_MOVE_DROP && koma_cell_equal(&lm.src, &m.src);
        if (!same || strcmp(t, self) == 0) continue;   /* an Ōgi repeat is legal but refused */
        if ((size_t)i != k) memcpy(r->texts + k * KOMA_MOVE_TEXT_BUF, t, KOMA_MOVE_TEXT_BUF);
        k++;
    }
    join_sorted(r, k, r->legal);
    return 0;
}

/* An illegal ply: the game ends there, its player loses (status illegalmove, or
 * repetition for the same-move rule). */
static int illegal(koma_referee *r, size_t i, const char *s, size_t len, const char *canon,
                   size_t clen, koma_status st, const koma_error *why, koma_error *err)
{
    /* a game whose rules refuse an illegal ply (the player keeps the turn; Sanki):
     * no ending, the record is invalid data, judged no further */
    if (r->g->illegal_rejected && st == KOMA_STATUS_ILLEGALMOVE) {
        if (canon && alternatives(r, canon, clen, err) != 0) return -1;
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
    if (canon && alternatives(r, canon, clen, err) != 0) return -1;
    return KOMA_PLY_ILLEGAL;
}

static int same_piece(koma_piece a, koma_piece b)
{
    return ((a ^ b) & (koma_piece)~KOMA_PIECE_SECOND) == 0;
}

/* Whether the move m names the legal move l: the same origin (a drop: the same
 * piece) and destination, the same promotion choice, the same captured
 * identity when it is written; the case of a letter and the operator aside. */
static int names(const koma_move *m, const koma_move *l)
{
    int mb = m->kind == KOMA_MOVE_QUIET || m->kind == KOMA_MOVE_CAPTURE;
    int lb = l->kind == KOMA_MOVE_QUIET || l->kind == KOMA_MOVE_CAPTURE;
    if (mb != lb || !koma_cell_equal(&m->dst, &l->dst)) return 0;
    if (mb) {
        if (!koma_cell_equal(&m->src, &l->src)) return 0;
    } else if (m->kind != KOMA_MOVE_DROP || l->kind != KOMA_MOVE_DROP ||
               m->piece == KOMA_PIECE_NONE || !same_piece(m->piece, l->piece)) {
        return 0;
    }
    if ((m->actor != KOMA_PIECE_NONE) != (l->actor != KOMA_PIECE_NONE)) return 0;
    if (m->actor != KOMA_PIECE_NONE && !same_piece(m->actor, l->actor)) return 0;
    return m->captured == KOMA_PIECE_NONE || same_piece(m->captured, l->captured);
}

/*
 * A ply that is not a legal move as written but names exactly one legal move
 * (a notation slip): *out is that move, fixed its canonical text.
 * 1 when found, 0 when not (none or several), -1 (memory).
 */
/* A chain (Ko shogi) naming a legal move in another order or in leg form: read
 * it against the position (koma_chain_read_legs normalises it); 1 when its
 * canonical form is a legal move (*out, fixed). */
static int chain_slip(koma_referee *r, const char *text, size_t len, koma_emove *out,
                      char *fixed, size_t cap, koma_error *err)
{
    koma_chain c;
    koma_error why;
    if (koma_engine_get_position(r->e, &r->pos, err) != 0) return -1;
    if (koma_chain_read_legs(text, len, &r->pos, &c, &why) != 0) return 0;
    char t[KOMA_MOVE_TEXT_BUF];
    size_t n = koma_chain_write(&c, t, sizeof t);
    if (n == 0 || n >= sizeof t || (n == len && memcmp(t, text, len) == 0)) return 0;
    if (koma_engine_parse_move(r->e, t, n, out, &why) != 0) {
        if (why.code != KOMA_E_MEMORY) return 0;
        *err = why;
        return -1;
    }
    copy(fixed, cap, t);
    return 1;
}

static int notation_slip(koma_referee *r, const char *canon, size_t clen, koma_emove *out,
                         char *fixed, size_t cap, koma_error *err)
{
    if (memchr(canon, ',', clen) != NULL) return chain_slip(r, canon, clen, out, fixed, cap, err);
    koma_move m;
    if (koma_pmn_parse(canon, clen, &m, NULL) != 0) return 0;
    if (m.kind != KOMA_MOVE_QUIET && m.kind != KOMA_MOVE_CAPTURE && m.kind != KOMA_MOVE_DROP)
        return 0;
    long n = legal_texts(r, err);
    if (n < 0) return -1;
    long found = -1;
    for (long i = 0; i < n; i++) {
        const char *t = r->texts + (size_t)i * KOMA_MOVE_TEXT_BUF;
        koma_move lm;
        if (koma_pmn_parse(t, strlen(t), &lm, NULL) != 0 || !names(&m, &lm)) continue;
        if (found >= 0) return 0;      /* several: the text does not say which */
        found = i;
    }
    if (found < 0) return 0;
    *out = r->moves[found];
    copy(fixed, cap, r->texts + (size_t)found * KOMA_MOVE_TEXT_BUF);
    return 1;
}

/*
 * A dialect's pieceless drop (`*-e5`) that the rule-agnostic reader found
 * ambiguous (err: pmn.hand.ambiguous, r->pos the position): read it again with
 * each kind of the mover's hand alone and keep the kinds the rules let drop
 * there. One left: *m is that drop, 0. None or several: err lists them, -1.
 */
static int resolve_drop(koma_referee *r, const char *s, size_t len, koma_move *m, koma_error *err)
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
        int ok = koma_pmn_parse_dialect(r->opt.dialect, s, len, &r->pos, &cand, &why) == 0;
        *hand = saved;
        if (!ok) {
            if (unread.code == KOMA_OK) unread = why;
            continue;
        }
        char e[KOMA_EPIN_BUF], text[KOMA_PMN_BUF];
        koma_epin_write(p, e);
        koma_cell_write(&cand.dst, square);
        if (na + strlen(e) + 3 < sizeof all)
            na += (size_t)snprintf(all + na, sizeof all - na, "%s%s", na ? ", " : "", e);
        size_t tl = koma_pmn_write(&cand, text);
        if (koma_engine_parse_move(r->e, text, tl, &em, &why) != 0) continue;
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

static void after_end(koma_referee *r, size_t i, const char *s, size_t len)
{
    if (r->extra++ == 0) {
        r->extra_ply = i + 1;
        koma_quote(r->extra_text, sizeof r->extra_text, s, len);
    }
}

/* The earlier ply of the same player that made the move `key` to the position
 * `hash` (the same-move rule), or 0. n: the ply being made. */
static size_t same_move(const koma_referee *r, size_t n, uint64_t key, uint64_t hash)
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
    return same_move(r, r->played + 1, f.key, hash) == 0;
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
static int referee_ply(koma_referee *r, const char *text, size_t len, const koma_move *parsed,
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
    return referee_ply(r, text, len, NULL, err);
}

/* One ply on its way through ply(): what reading it found (read_ply), what
 * playing it made (play_ply), for the endings (ply_endings). */
typedef struct ply_ctx {
    size_t i;                          /* its index among the plies given (0-based) */
    const char *text;                  /* as given, in the referee's dialect */
    size_t len;
    const char *canon;                 /* its canonical PMN: text, or buf (a dialect) */
    size_t clen;
    char buf[KOMA_PMN_BUF];
    koma_emove m;                      /* the legal move it names */
    int slip;                          /* 1: not its canonical form (fixed is) */
    char fixed[KOMA_MOVE_TEXT_BUF];
    int mover;                         /* its player */
    size_t n;                          /* plies applied with it */
    uint64_t hash;                     /* the position it leaves */
    size_t b;                          /* hash's bucket */
} ply_ctx;

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
             resolve_drop(r, pc->text, pc->len, &mv, why) != 0)) {
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
    int slip = notation_slip(r, pc->canon, pc->clen, &pc->m, pc->fixed, sizeof pc->fixed, err);
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
    if (grow_history(r, n + 1, err) != 0) return -1;
    if (koma_engine_make(e, pc->m, err) != 0) return -1;
    uint64_t hash = pc->hash = koma_engine_hash(e);
    size_t b = pc->b = (size_t)(hash % BUCKETS);
    r->bucket[b]++;
    if (g->repetition == KOMA__REP_SAME_MOVE && r->bucket[b] > 1) {
        size_t j = same_move(r, n, f.key, hash);
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
    if (r->track && track(r, hash, n, err) != 0) return -1;
    if (pc->slip) {
        r->notation_faults++;
        if (r->notation_ply == 0) r->notation_ply = pc->i + 1;
        koma_error_set(err, KOMA_E_REPLAY_NOTATION, why->offset,
                       "not the canonical form of the move it names, \"%s\" (%s)", pc->fixed,
                       why->message);
    }
    return PLY_GO_ON;
}

static int history_endings(koma_referee *r, ply_ctx *pc, koma_error *err);

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
    return history_due(r, pc->n, pc->b) ? history_endings(r, pc, err) : 0;
}

/* After what the position decides (r->end): the fourfold rule, the move limit,
 * and the game's end when one of them ended it. 0, or -1 (memory). */
static int history_endings(koma_referee *r, ply_ctx *pc, koma_error *err)
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

/* ---- the verdict ---------------------------------------------------------------------- */

/* A recorded resignation, time limit or agreement with no rule ending: the
 * result it gives; 0 when the recorded result fits the status. */
static int honour(const koma_referee *r, koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    koma_result given = rec->has_result ? koma_result_parse(rec->result, strlen(rec->result))
                                        : KOMA_RESULT_NONE;
    koma_result other = v->turn == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
    int ok = 1;
    switch (rec->status) {
    case KOMA_STATUS_RESIGNATION:
        v->result = given;
        if (given != KOMA_RESULT_FIRST && given != KOMA_RESULT_SECOND) {
            ok = !rec->has_result;
            v->result = other;
        }
        break;
    case KOMA_STATUS_AGREEMENT:
        ok = !rec->has_result || given == KOMA_RESULT_DRAW;
        v->result = KOMA_RESULT_DRAW;
        break;
    default: /* timelimit: any result */
        if (!rec->has_result) {
            v->result = other;
        } else {
            v->result = given;
            copy(v->result_text, sizeof v->result_text, rec->result);
            return 0;
        }
    }
    copy(v->result_text, sizeof v->result_text, koma_result_name(v->result));
    return ok ? 0 : -1;
}

/*
 * Lead ruling: a recorded resignation (or time loss) by the side that the rules
 * say has just lost, at the deciding ply (a CSA %TORYO written after a move that
 * already checkmates), is not a dispute: the verdict is the rules' ending, and
 * the recorded outcome stays in the verdict (v->recorded) as a note. So: the
 * rules end the game at v->ply with a win for one side, not by an illegal ply;
 * the record gives up for the same loser (its result, when it has one, is the
 * rules' result) at that ply (its ply, when it has one, is v->ply).
 */
static int loser_gave_up(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (!rec->has_status || v->illegal) return 0;
    if (rec->status != KOMA_STATUS_RESIGNATION && rec->status != KOMA_STATUS_TIMELIMIT) return 0;
    if (v->result != KOMA_RESULT_FIRST && v->result != KOMA_RESULT_SECOND) return 0;
    if (rec->has_result && strcmp(rec->result, v->result_text) != 0) return 0;
    return !rec->has_ply || rec->ply == v->ply;
}

/*
 * Lead ruling: the illegal-move ending of a record converted from CSA, KIF, KI2
 * or JKF (%ILLEGAL_MOVE, %+ILLEGAL_ACTION, 反則勝ち/反則負け, ...) is taken from
 * the record, recorded and not judged, since the illegal action itself is not
 * in the record: every recorded ply is legal (the rules have not ended the
 * game), the ending is at the last ply, and the result is a win. A PCN record
 * of koma's own with such an outcome stays a dispute.
 */
static int illegal_as_recorded(const koma_referee *r)
{
    const koma_recorded *rec = &r->rec;
    if (!rec->has_status || rec->status != KOMA_STATUS_ILLEGALMOVE || !rec->from_shogi_world) return 0;
    if (r->ruled || r->refused || r->played != r->index || !rec->has_result) return 0;
    koma_result given = koma_result_parse(rec->result, strlen(rec->result));
    if (given != KOMA_RESULT_FIRST && given != KOMA_RESULT_SECOND) return 0;
    return !rec->has_ply || rec->ply == r->played;
}

/*
 * Perpetual check written as a foul (反則負け, as ShogiHome and others write
 * it: Japanese rules count perpetual check among the fouls): a recorded
 * illegal-move ending of a record converted from CSA, KIF, KI2 or JKF, with
 * the same result at the same ply as the rules' perpetual-check repetition,
 * is the same ending.
 */
static int perpetual_as_foul(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (!rec->from_shogi_world || !rec->has_status || rec->status != KOMA_STATUS_ILLEGALMOVE) return 0;
    if (v->illegal || v->status != KOMA_STATUS_REPETITION || v->perpetual < 0) return 0;
    if (v->result != KOMA_RESULT_FIRST && v->result != KOMA_RESULT_SECOND) return 0;
    if (rec->has_result && strcmp(rec->result, v->result_text) != 0) return 0;
    return !rec->has_ply || rec->ply == v->ply;
}

/*
 * An illegal last ply in a record converted from CSA, KIF, KI2 or JKF that
 * states no ending (no status, result or claim; a comment such as
 * "*反則手にて終局" is all Shogi Club 24 writes): that ply is the ending the
 * record states, so the rules' illegal-move ending agrees with it. A PCN
 * record of koma's own with no outcome stays a dispute.
 */
static int illegal_last_ply(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (!v->illegal || !rec->from_shogi_world || v->extra) return 0;
    if (rec->has_status || rec->has_result || rec->claim != KOMA_CLAIM_NONE) return 0;
    return r->index == v->ply && (!rec->has_ply || rec->ply == v->ply);
}

/*
 * The same server's record of a move made after mate: the mated side's one
 * ply after the checkmate the rules find, which could not be legal (every
 * move of a mated side leaves its king attacked), is the illegal last ply the
 * record ends with; the winner is the same, so that ply is no dispute.
 */
static int move_after_mate(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (v->illegal || !rec->from_shogi_world || v->status != KOMA_STATUS_CHECKMATE) return 0;
    if (rec->has_status || rec->has_result || rec->claim != KOMA_CLAIM_NONE) return 0;
    return v->extra == 1 && v->extra_ply == v->ply + 1 && r->index == v->extra_ply &&
           (!rec->has_ply || rec->ply == v->extra_ply);
}

static koma_result win_of(int side) { return side == KOMA_FIRST ? KOMA_RESULT_FIRST : KOMA_RESULT_SECOND; }

/* Try rule: whether the side to move has a legal move of its king to the square
 * the enemy king started on (5a for Sente, 5i for Gote: the middle file of the
 * last rank). 1, 0, or -1 (memory). */
static int try_move(koma_referee *r, int side, koma_error *err)
{
    uint32_t target = side == KOMA_FIRST ? 4u : 8u * 9u + 4u;
    long n = legal_texts(r, err);
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
static int judge_claim(koma_referee *r, koma_verdict *v, koma_error *err)
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

static int finish(koma_referee *r, koma_verdict *v, koma_error *err)
{
    const koma_recorded *rec = &r->rec;
    v->game = r->g;
    v->has_status = 0;
    v->status = KOMA_STATUS_CHECK;
    v->result = KOMA_RESULT_NONE;
    strcpy(v->result_text, "*");
    v->has_ply = 0;
    v->ply = 0;
    v->mover = r->mover;
    v->turn = koma_engine_turn(r->e);
    v->played = r->played;
    v->plies = r->index;
    v->move[0] = '\0';
    if (koma_engine_feen(r->e, v->feen, sizeof v->feen, NULL, err) != 0) return -1;

    v->refused = r->refused;
    v->illegal = r->illegal;
    v->refused_ply = r->refused_ply;
    v->refused_code = r->refused_code;
    v->refused_offset = r->refused_offset;
    v->alt_drop = r->alt_drop;
    if (r->refused) {
        memcpy(v->refused_text, r->refused_text, sizeof v->refused_text);
        memcpy(v->refused_message, r->refused_message, sizeof v->refused_message);
        memcpy(v->alt_square, r->alt_square, sizeof v->alt_square);
        memcpy(v->legal, r->legal, sizeof v->legal);
    } else {
        v->refused_text[0] = v->refused_message[0] = v->alt_square[0] = v->legal[0] = '\0';
    }
    v->mate_refuted = v->mate_in_check = 0;
    v->mate_moves = v->mate_interpositions = v->mate_escapes = v->mate_captures = 0;
    v->repeats = r->repeats;
    v->cycle_first = r->cycle_first;
    v->occurrences = r->occurrences;
    v->perpetual = r->perpetual;
    v->all_threatened[0] = r->all_threatened[0];
    v->all_threatened[1] = r->all_threatened[1];
    if (r->has_repeated) {
        memcpy(v->repeated_fid, r->repeated_fid, sizeof v->repeated_fid);
        memcpy(v->repeated_feen, r->repeated_feen, sizeof v->repeated_feen);
    } else {
        v->repeated_fid[0] = v->repeated_feen[0] = '\0';
    }
    v->extra = r->extra;
    v->extra_ply = r->extra_ply;
    memcpy(v->extra_text, r->extra_text, sizeof v->extra_text);
    v->notation_faults = r->notation_faults;
    v->notation_ply = r->notation_ply;
    v->has_recorded = r->has_recorded;
    v->recorded = *rec;
    v->disputes = 0;
    v->disagrees = KOMA_MEMBER_NONE;
    v->claim = KOMA_CLAIM_NONE;
    v->claim_rule = KOMA_DECLARE_DEFAULT;
    v->declarer = -1;
    v->king_in_zone = v->king_in_check = 0;
    v->zone_pieces = v->points_needed = v->claim_failed = 0;
    v->points[0] = v->points[1] = v->handicap_points[0] = v->handicap_points[1] = 0;
    v->handicap_stated[0] = '\0';
    v->handicap_setup[0] = v->handicap_setup[1] = 0;
    v->handicap_disagrees = 0;
    v->clock = KOMA_CLOCK_NONE;
    v->clock_side = -1;
    v->clock_missing[0] = '\0';
    v->clock_left_ms = v->clock_spent_ms = 0;
    v->clock_ply = 0;

    if (r->state == UNREADABLE) {
        v->kind = KOMA_VERDICT_UNREADABLE;
        return 0;
    }
    if (r->ruled) {
        v->kind = KOMA_VERDICT_RULES;
        v->has_status = 1;
        v->status = r->end.status;
        v->result = r->end.result;
        copy(v->result_text, sizeof v->result_text, koma_result_name(v->result));
        v->has_ply = 1;
        v->ply = r->ply;
        memcpy(v->move, r->move, sizeof v->move);
        if (loser_gave_up(r, v) || perpetual_as_foul(r, v)) {
            /* the record's own word for the same ending: not a dispute */
        } else if (rec->has_status && rec->status != v->status) v->disagrees = KOMA_MEMBER_STATUS;
        else if (rec->has_result && strcmp(rec->result, v->result_text) != 0)
            v->disagrees = KOMA_MEMBER_RESULT;
        else if (rec->has_ply && rec->ply != v->ply) v->disagrees = KOMA_MEMBER_PLY;
        /* an illegal ply the record does not name as its ending */
        if (v->illegal && (v->disagrees || !rec->has_status) && !illegal_last_ply(r, v))
            v->disputes |= KOMA_DISPUTE_ILLEGAL;
    } else {
        v->ply = r->played;
        if (rec->has_status && rec->status == KOMA_STATUS_CHECKMATE && mate_refutation(r, v, err) != 0)
            return -1;
        if (rec->has_status && explicit_status(rec->status)) {
            v->kind = KOMA_VERDICT_RECORDED;
            v->has_status = 1;
            v->status = rec->status;
            v->has_ply = 1;
            if (honour(r, v) != 0) v->disputes |= KOMA_DISPUTE_RESULT;
            if (rec->has_ply && rec->ply > v->plies) v->disagrees = KOMA_MEMBER_PLY;
            if (rec->status == KOMA_STATUS_TIMELIMIT && r->clk.state != KOMA_CLOCK_NONE) {
                v->clock = r->clk.state;
                v->clock_side = r->clk.side;
                copy(v->clock_missing, sizeof v->clock_missing, r->clk.missing);
                v->clock_left_ms = r->clk.left;
                v->clock_spent_ms = r->clk.spent;
                v->clock_ply = r->clk.ply;
                if (v->clock == KOMA_CLOCK_TIME_LEFT || v->clock == KOMA_CLOCK_EARLIER)
                    v->disputes |= KOMA_DISPUTE_CLOCK;
            }
        } else if (rec->claim != KOMA_CLAIM_NONE && r->claims && !r->refused) {
            if (judge_claim(r, v, err) != 0) return -1;
        } else if (illegal_as_recorded(r)) {
            v->kind = KOMA_VERDICT_RECORDED;
            v->has_status = 1;
            v->status = KOMA_STATUS_ILLEGALMOVE;
            v->has_ply = 1;
            v->result = koma_result_parse(rec->result, strlen(rec->result));
            copy(v->result_text, sizeof v->result_text, koma_result_name(v->result));
        } else if (rec->has_result) {
            v->kind = KOMA_VERDICT_RESULT_ONLY;
            v->has_ply = 1;
            copy(v->result_text, sizeof v->result_text, rec->result);
            v->result = koma_result_parse(rec->result, strlen(rec->result));
            if (rec->has_status) v->disagrees = KOMA_MEMBER_STATUS;
            else if (rec->has_ply && rec->ply > v->plies) v->disagrees = KOMA_MEMBER_PLY;
        } else {
            v->kind = KOMA_VERDICT_UNFINISHED;
            if (rec->has_status) v->disagrees = KOMA_MEMBER_STATUS;
            else if (rec->has_ply) v->disagrees = KOMA_MEMBER_PLY;
        }
    }
    if (v->extra && !(v->kind == KOMA_VERDICT_RULES && move_after_mate(r, v)))
        v->disputes |= KOMA_DISPUTE_EXTRA;
    if (v->disagrees != KOMA_MEMBER_NONE) v->disputes |= KOMA_DISPUTE_OUTCOME;
    if (v->notation_faults) v->disputes |= KOMA_DISPUTE_NOTATION;
    return 0;
}

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
static const char *comment_value(const koma_pcn *rec, const char *key, size_t *len)
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
    const char *s = comment_value(rec, key, &n);
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
static void check_clock(koma_referee *r, const koma_pcn *rec, const koma_recorded *rc, size_t n)
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

/* ---- the usual plies of a light record ---------------------------------------------- */

static void set_ahead(koma_referee *r, const koma_move *of, size_t index, koma_emove m)
{
    r->ahead_of = of;
    r->ahead_index = index;
    r->ahead_move = m;
}

/* Whether the quick loop may take the plies of the record set up: canonical PMN
 * on a backend whose moves are one PMN move each, no table of positions, not
 * KOMA_REFEREE_GENERAL. */
static int quick_record(const koma_referee *r)
{
    return r->state == ON && r->opt.dialect == KOMA_PMN_DIALECT_CANONICAL &&
           (r->flags & KOMA__ENGINE_ONE_PMN) && r->track == NULL &&
           !(r->opt.flags & KOMA_REFEREE_GENERAL);
}

/*
 * The plies of a light record from the first, each judged as ply() judges it,
 * for as long as each is the usual one: parsed by the record's pass, legal, no
 * same-move repetition, the game still on. *at: the first ply it did not take;
 * the general loop goes on from there and judges that ply from the same state
 * (a ply it refuses is reported there). 0, -1 (trouble: err), or a hook's
 * non-zero value.
 */
static int quick_plies(koma_referee *r, const koma__pcn_light *l, size_t n,
                       const koma_referee_hooks *hooks, size_t *at, koma_error *err)
{
    const koma_game *g = r->g;
    koma_engine *e = r->e;
    size_t last = n < KOMA_LIMIT_PLIES ? n : KOMA_LIMIT_PLIES;
    if (r->has_stop && r->stop_at < last) last = r->stop_at;
    int (*hook)(void *, koma_referee *, size_t, int, const koma_error *) = hooks ? hooks->ply : NULL;
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
        if (!ahead && koma_engine_find_move(e, &sp->move, &m, &why) != 0) {
            if (why.code == KOMA_E_MEMORY) {
                *err = why;
                return -1;
            }
            break;                     /* the general loop reports it */
        }
        ahead = 0;
        int mover = koma_engine_turn(e);
        koma_move_facts f = {0};
        if (need_facts) koma_engine_move_facts(e, m, &f);
        size_t np = r->played + 1;
        if ((np >= r->caph && grow_history(r, np + 1, err) != 0) || koma_engine_make(e, m, err) != 0)
            return -1;
        uint64_t hash = koma_engine_hash(e);
        size_t b = (size_t)(hash % BUCKETS);
        if (same_move_rule && r->bucket[b] > 0 && same_move(r, np, f.key, hash)) {
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
        h->threat = (uint8_t)(fourfold_rule && koma_engine_threatens(e, mover));
        if (g->move_limit)
            r->limit_count = (f.resets || (f.captures && capture_resets)) ? 0 : r->limit_count + 1;
        if (i + 1 < n && sp[1].parsed) {
            koma_error ignored;
            ahead = koma_engine_find_move(e, &sp[1].move, &m, &ignored) == 0;
        }
        koma__position_ending(e, &r->end, ahead);
        if (koma__engine_trouble(e)) return oom(err);
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
            if (history_endings(r, &pc, err) != 0) return -1;
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

/* The setup FEEN feen[0..flen) (NULL: absent) read into r->setup (not read
 * again when it is the last record's text), and its game looked up in games
 * unless *game is given. (The game is not kept from record to record: the
 * set may be another one, or have changed, by the next call.) 0, or -1 (err). */
static int read_setup(koma_referee *r, const koma_game_set *games, const char *feen, size_t flen,
                      const koma_game **game, koma_error *err)
{
    if (!(feen && r->setup_len && flen == r->setup_len && memcmp(feen, r->setup_text, flen) == 0)) {
        r->setup_len = 0;
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
        said = comment_value(rec, "handicap: ", &said_len);
    }
    if (r->claims && said) state_handicap(r, &r->setup, said, said_len);
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
        int st = referee_ply(r, s ? s : "", s ? len : 0, mv, &why);
        r->next = NULL;
        if (st < 0) {
            if (err) *err = why;
            return -1;
        }
        if (hooks && hooks->ply && (stop = hooks->ply(hooks->ctx, r, i, st, &why)) != 0) return stop;
        if (st == KOMA_PLY_UNREADABLE) break;
    }
    if (r->has_recorded) check_clock(r, rec, &r->rec, n);
    return finish(r, v, err);
}

/* ---- the caller's verdict, of the size it was built with ------------------------------ */

/* A verdict of a size this library knows: filled in directly when it is the
 * library's own; an older caller's (a prefix of it) through a whole one. The
 * caller's v->size is checked here once, never read past. */
static koma_verdict *verdict_open(koma_verdict *v, koma_error *err)
{
    if (koma__sized_check(v->size, KOMA__VERDICT_FIRST, sizeof *v, "koma_verdict", err) != 0)
        return NULL;
    if (v->size == sizeof *v) return v;
    koma_verdict *whole = calloc(1, sizeof *whole);
    if (whole == NULL) {
        oom(err);
        return NULL;
    }
    memcpy(whole, v, v->size);
    whole->size = sizeof *whole;
    return whole;
}

static int verdict_close(koma_verdict *v, koma_verdict *whole, int rc)
{
    if (whole != v) {
        size_t size = v->size;
        memcpy(v, whole, size);
        v->size = size;
        free(whole);
    }
    return rc;
}

int koma_referee_finish(koma_referee *r, koma_verdict *v, koma_error *err)
{
    koma_verdict *w = verdict_open(v, err);
    return w ? verdict_close(v, w, finish(r, w, err)) : -1;
}

int koma_referee_pcn(koma_referee *r, const koma_game_set *games, const koma_game *game,
                     const koma_pcn *rec, const koma_referee_hooks *hooks, koma_verdict *v,
                     koma_error *err)
{
    koma_verdict *w = verdict_open(v, err);
    return w ? verdict_close(v, w, judge_pcn(r, games, game, rec, hooks, w, err)) : -1;
}
