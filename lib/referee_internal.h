/*
 * lib/referee_internal.h — what the referee's modules share: the referee
 * itself (struct koma_referee), its history, a ply on its way through the
 * general path, and the calls between the modules. Only lib/referee*.c
 * include it.
 *
 *   referee.c          a game judged ply by ply: begin, the general path of a
 *                      ply, the history rules (same-move, fourfold, move limit)
 *   referee_record.c   a PCN record judged (koma_referee_pcn): its rule
 *                      options and setup, the quick loop of a light record's
 *                      usual plies, then the general path
 *   referee_explain.c  what an illegal ply or a refuted mate is told with: the
 *                      legal moves, notation slips, an ambiguous dialect drop
 *   referee_claims.c   the record's claims: entering-king declarations,
 *                      impasse, handicaps, a time loss against the clocks
 *   referee_verdict.c  the verdict, in the order of koma-games(7)
 */
#ifndef KOMA_REFEREE_INTERNAL_H
#define KOMA_REFEREE_INTERNAL_H

#include <string.h>

#include "internal.h"
#include "game_internal.h"             /* struct koma_game: the history rules */
#include "pcn_internal.h"              /* koma__pcn_light */
#include <koma/referee.h>

#define ENGINES_MAX 8                  /* engines kept, one a game */
#define VARIANTS_MAX 32                /* games under a record's rule options, kept */
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
    /* what koma__referee_setup_claims found of that setup, and for which game
     * (NULL: nothing kept; read_setup forgets it when it reads another text) */
    const koma_game *setup_claims_of;
    int setup_claims;
    unsigned setup_points[2];
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

/* src into dst[0..cap), cut (snprintf "%s" without its cost on every record). */
static inline void copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static inline int oom(koma_error *err)
{
    return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (referee)");
}

/* A recorded ending the rules do not decide: resignation, time limit, agreement. */
static inline int explicit_status(koma_status st)
{
    return st == KOMA_STATUS_RESIGNATION || st == KOMA_STATUS_TIMELIMIT ||
           st == KOMA_STATUS_AGREEMENT;
}

/* referee.c */
int koma__referee_grow_history(koma_referee *r, size_t need, koma_error *err);
int koma__referee_track(koma_referee *r, uint64_t hash, size_t ply, koma_error *err);
size_t koma__referee_same_move(const koma_referee *r, size_t n, uint64_t key, uint64_t hash);
int koma__referee_ply(koma_referee *r, const char *text, size_t len, const koma_move *parsed,
                      koma_error *err);
int koma__referee_history_endings(koma_referee *r, ply_ctx *pc, koma_error *err);

/* referee_explain.c */
long koma__referee_legal_texts(koma_referee *r, koma_error *err);
int koma__referee_mate_refutation(koma_referee *r, koma_verdict *v, koma_error *err);
int koma__referee_alternatives(koma_referee *r, const char *canon, size_t clen, koma_error *err);
int koma__referee_notation_slip(koma_referee *r, const char *canon, size_t clen, koma_emove *out,
                                char *fixed, size_t cap, koma_error *err);
int koma__referee_resolve_drop(koma_referee *r, const char *s, size_t len, koma_move *m,
                               koma_error *err);

/* referee_claims.c */
void koma__referee_setup_claims(koma_referee *r, const koma_position *setup);
void koma__referee_state_handicap(koma_referee *r, const koma_position *setup, const char *name,
                                  size_t len);
int koma__referee_judge_claim(koma_referee *r, koma_verdict *v, koma_error *err);
const char *koma__referee_comment_value(const koma_pcn *rec, const char *key, size_t *len);
void koma__referee_check_clock(koma_referee *r, const koma_pcn *rec, const koma_recorded *rc,
                               size_t n);

/* referee_verdict.c */
int koma__referee_finish(koma_referee *r, koma_verdict *v, koma_error *err);
koma_verdict *koma__referee_verdict_open(koma_verdict *v, koma_error *err);
int koma__referee_verdict_close(koma_verdict *v, koma_verdict *whole, int rc);

#endif
