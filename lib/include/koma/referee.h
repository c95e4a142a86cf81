/* koma/referee.h — judging a game: the one place a record is replayed under every
 * rule of its game (koma-games(7)) and given a structured verdict.
 *
 * Use: koma_referee_begin with the game and its setup position, koma_referee_expect
 * with the record's own outcome (optional), koma_referee_ply for each ply's text
 * in order, then koma_referee_finish for the koma_verdict. A referee is reused
 * from record to record (its engines, one a game, and its buffers are kept).
 *
 * What the referee decides, in the order of koma-games(7) (several endings on
 * one ply): an illegal ply (not applied; its player loses: illegalmove), and a
 * same-move repetition (repetition.rule same-move, Ōgi: the ply repeats an
 * earlier ply of the same player that produced the same position: not applied,
 * its player loses); then what the position decides (the engine: a defeated
 * side — mareking —, no legal move, a bare king); then the count-th occurrence
 * of a position (repetition.rule fourfold: a draw, unless every move of one side
 * in the cycle threatened to end the game — perpetual check —: that side loses);
 * then the move limit. The results come from the game's termination table.
 * Then it compares the record's own outcome with that: a recorded resignation,
 * time limit or agreement (or a bare result) with no rule ending is honoured.
 */
#ifndef KOMA_REFEREE_H
#define KOMA_REFEREE_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>
#include <koma/position.h>
#include <koma/feen.h>
#include <koma/pmn.h>
#include <koma/cgsn.h>
#include <koma/game.h>
#include <koma/engine.h>
#include <koma/repeats.h>
#include <koma/pcn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest move text a verdict keeps (a Ko shogi PMN chain: 256 bytes). */
#define KOMA_MOVE_TEXT_MAX 256
#define KOMA_MOVE_TEXT_BUF (KOMA_MOVE_TEXT_MAX + 1)
/* Plies a record may have (counted while replaying). */
#define KOMA_REFEREE_MAX_PLIES 65536u
/* Bytes of legal alternatives a verdict lists for an illegal ply. */
#define KOMA_VERDICT_LEGAL_MAX 1024
#define KOMA_VERDICT_POINTER_MAX 160   /* koma_verdict.unjudged_member, NUL included */

typedef struct koma_referee koma_referee;

/* koma_referee_options.flags */
#define KOMA_REFEREE_TRACK 1u          /* keep every position's occurrences, and the
                                          FEEN of each repeated one (koma_referee_repeats) */

typedef struct koma_referee_options {
    koma_pmn_dialect dialect;          /* how plies are written (default: canonical PMN) */
    unsigned flags;
} koma_referee_options;

/* A referee (opt may be NULL: canonical PMN, no tracking). */
KOMA_API int koma_referee_new(const koma_referee_options *opt, koma_referee **out,
                              koma_error *err);
KOMA_API void koma_referee_free(koma_referee *ref);

/*
 * Begin a game of `game` from `setup` (copied). -1 with err when it cannot be
 * judged: a game without rules (game.norules), a position that does not fit the
 * game (rules.*), memory. The setup may already be final (a king in a hand, no
 * legal move): the verdict then has ply 0.
 */
KOMA_API int koma_referee_begin(koma_referee *ref, const koma_game *game,
                                const koma_position *setup, koma_error *err);

/* What a record says about its own end (a PCN outcome). */
typedef struct koma_recorded {
    int has_result;
    char result[8];                    /* as recorded: 1-0 0-1 1/2-1/2 1/2-0 0-1/2 1-1/2 1/2-1 */
    int has_status;
    koma_status status;
    int has_ply;
    uint64_t ply;
    int from_shogi_world;              /* converted from CSA, KIF, KI2 or JKF (meta.source):
                                          an illegal-move ending at its last ply is taken
                                          as recorded (the illegal action is not in it) */
} koma_recorded;

/*
 * The record's own outcome, given after begin and before the first ply. A
 * recorded resignation, time limit or agreement, or a result without a status,
 * at a ply before the last ends the judging there: the later plies count as
 * plies after the end.
 */
KOMA_API void koma_referee_expect(koma_referee *ref, const koma_recorded *rec);

/* What koma_referee_ply did with a ply. */
typedef enum koma_ply_status {
    KOMA_PLY_PLAYED = 0,               /* applied (the game may have ended with it) */
    KOMA_PLY_NOTATION,                 /* applied, but the text is not the canonical form
                                          of the one legal move it names: err is
                                          replay.notation with the canonical form */
    KOMA_PLY_ILLEGAL,                  /* not a legal move (or a same-move repetition):
                                          not applied, the game ends; err says why */
    KOMA_PLY_UNREADABLE,               /* not a move at all: the record cannot be judged
                                          further; err says why (pmn.*, pcn.plies.limit) */
    KOMA_PLY_AFTER_END,                /* the game had ended: counted, not read */
    KOMA_PLY_IGNORED                   /* after an unreadable ply: not read */
} koma_ply_status;

/*
 * The next ply, text[0..len) in the referee's dialect. Returns a
 * koma_ply_status, or -1 with err on trouble (memory). err's offset points
 * into text.
 */
KOMA_API int koma_referee_ply(koma_referee *ref, const char *text, size_t len, koma_error *err);

/* 1 when koma_referee_ply would apply the ply text[0..len) now (a legal move
 * in canonical form that no history rule refuses), 0 when it would not (or the
 * game is over), -1 on trouble (memory). Nothing changes. */
KOMA_API int koma_referee_allows(koma_referee *ref, const char *text, size_t len, koma_error *err);

/* The next ply could not even be read (a line over the line limit): like an
 * unreadable ply with why's code and message (after the end: a ply after the end). */
KOMA_API void koma_referee_ply_unreadable(koma_referee *ref, const koma_error *why);

/* Whether the game has ended (by the rules, an illegal ply, or the record's own
 * ending reached), and the plies applied so far. */
KOMA_API int koma_referee_over(const koma_referee *ref);
KOMA_API size_t koma_referee_played(const koma_referee *ref);
/* The side to move in the current position. */
KOMA_API int koma_referee_turn(const koma_referee *ref);

/* The engine of the game in progress (from koma_referee_begin on): for reading
 * the position between plies (koma_engine_hash, koma_engine_get_position,
 * koma_engine_feen, koma_engine_game: the game played, a variant when the
 * record names rule options); NULL before the first begin. */
KOMA_API const koma_engine *koma_referee_engine(const koma_referee *ref);

/* The current position as FEEN (koma_engine_feen). */
KOMA_API KOMA_NODISCARD int koma_referee_feen(const koma_referee *ref, char *buf, size_t cap,
                                              size_t *len, koma_error *err);

/* How the verdict was reached. */
typedef enum koma_verdict_kind {
    KOMA_VERDICT_UNFINISHED,           /* no ending: result "*" */
    KOMA_VERDICT_RULES,                /* a rule ended the game (an illegal ply included) */
    KOMA_VERDICT_RECORDED,             /* the record's resignation, time limit or agreement,
                                          or a shogi-world record's illegal-move ending */
    KOMA_VERDICT_RESULT_ONLY,          /* the record's result, with no status, kept */
    KOMA_VERDICT_UNREADABLE            /* a ply is not a move: the record cannot be judged */
} koma_verdict_kind;

/* koma_verdict.disputes: why the record disagrees with the rules */
#define KOMA_DISPUTE_ILLEGAL  1u       /* an illegal ply the record does not name as its end */
#define KOMA_DISPUTE_EXTRA    2u       /* plies recorded after the end */
#define KOMA_DISPUTE_OUTCOME  4u       /* a member of the recorded outcome (disagrees) */
#define KOMA_DISPUTE_RESULT   8u       /* a recorded resignation not won by the other side,
                                          or an agreement that is not a draw */
#define KOMA_DISPUTE_NOTATION 16u      /* plies not in canonical form (notation_faults) */

/* The first member of the recorded outcome that disagrees. */
typedef enum koma_outcome_member {
    KOMA_MEMBER_NONE,
    KOMA_MEMBER_RESULT,                /* /outcome/result */
    KOMA_MEMBER_STATUS,                /* /outcome/status */
    KOMA_MEMBER_PLY                    /* /outcome/ply */
} koma_outcome_member;

typedef struct koma_verdict {
    const koma_game *game;
    koma_verdict_kind kind;
    int has_status;
    koma_status status;                /* how the game ended (rules, or the record's) */
    koma_result result;                /* KOMA_RESULT_NONE when unfinished or asymmetric */
    char result_text[8];               /* 1-0 0-1 1/2-1/2 *, or a recorded asymmetric result */
    int has_ply;
    size_t ply;                        /* the deciding ply (1-based; 0: the setup) */
    int mover;                         /* the player of the deciding ply (the setup: the
                                          side not to move) */
    int turn;                          /* the side to move in the final position */
    size_t played;                     /* plies applied */
    size_t plies;                      /* plies given (koma_referee_ply calls) */
    char feen[KOMA_FEEN_MAX_LEN + 1];  /* the final position */
    char move[KOMA_MOVE_TEXT_BUF];     /* canonical text of the deciding ply when applied,
                                          and of a same-move repetition (refused) */

    /* the ply that was not applied: an illegal one (kind RULES) or an unreadable
     * one (kind UNREADABLE) */
    int refused;                       /* 1 when there is one */
    int illegal;                       /* 1: the deciding ply was illegal (not applied) */
    size_t refused_ply;                /* its number (1-based) */
    koma_code refused_code;
    size_t refused_offset;             /* where in its text the problem is */
    char refused_text[KOMA_MOVE_TEXT_BUF]; /* the text as written, quoted printable */
    char refused_message[KOMA_ERROR_MESSAGE_MAX];
    /* the legal moves from the illegal ply's origin (a drop: onto its square),
     * canonical, sorted, space-separated; alt_square "" when the ply named none */
    char alt_square[16];
    int alt_drop;
    char legal[KOMA_VERDICT_LEGAL_MAX];

    /* a recorded checkmate the rules do not find: the side to move's legal moves
     * (in legal, sorted; alt_square ""), how many, whether it is in check, and
     * how many of them are interpositions (a drop, or a non-capturing move of a
     * piece other than the king): a tsume problem's futile interpositions */
    int mate_refuted;
    int mate_in_check;
    size_t mate_moves;
    size_t mate_interpositions;

    /* repetition endings */
    size_t repeats;                    /* same-move: the earlier ply repeated */
    size_t cycle_first;                /* fourfold: the ply after which the position first
                                          occurred (0: the setup) */
    unsigned long occurrences;         /* fourfold: how often it occurred */
    int perpetual;                     /* the side that threatened with every move of the
                                          cycle and lost by it, or -1 */
    int all_threatened[2];             /* per side: every move of it in the cycle threatened
                                          (and it moved in the cycle) */
    char repeated_fid[KOMA_FID_BUF];   /* the repeated position, every "'" removed (kept
                                          where "'" is part of a position's identity:
                                          Ko shogi) */
    char repeated_feen[KOMA_FEEN_MAX_LEN + 1];

    /* plies after the end */
    size_t extra;                      /* how many */
    size_t extra_ply;                  /* the first one (1-based) */
    char extra_text[KOMA_MOVE_TEXT_BUF]; /* its text, quoted printable */

    /* plies applied that were not in canonical form */
    size_t notation_faults;
    size_t notation_ply;               /* the first one */

    /* the record's own outcome */
    int has_recorded;
    koma_recorded recorded;
    unsigned disputes;                 /* KOMA_DISPUTE_* */
    koma_outcome_member disagrees;

    /* koma_referee_pcn's record that cannot be judged: the JSON pointer (escaped)
     * of the member at fault: "/setup/feen", or for a rule option
     * "/meta/rule_options/NAME" ("/meta/rule_options" when no one member is) */
    char unjudged_member[KOMA_VERDICT_POINTER_MAX];
} koma_verdict;

/* The verdict of the game given so far. -1 with err on trouble (memory: the
 * final FEEN could not be written): nothing in v is then to be printed. */
KOMA_API KOMA_NODISCARD int koma_referee_finish(koma_referee *ref, koma_verdict *v,
                                                koma_error *err);

/* What a caller of koma_referee_pcn sees while a record is judged (each may be NULL). */
typedef struct koma_referee_hooks {
    /* the setup position is in place (before the first ply) */
    int (*begun)(void *ctx, koma_referee *ref);
    /* after plies[index]: what koma_referee_ply returned, and its err */
    int (*ply)(void *ctx, koma_referee *ref, size_t index, int status, const koma_error *err);
    void *ctx;                         /* (a non-zero return stops the record: -1) */
} koma_referee_hooks;

/*
 * Judge a whole PCN record: open its setup FEEN with its game
 * (koma_game_set_open_feen: `game`, or the one the FEEN gives from `games`),
 * begin, expect its outcome (when it has one), every ply, finish. Returns 0 with
 * v; 1 when the record cannot be judged: its setup or its meta.rule_options
 * (err; *v untouched but v->game, the game when known, and v->unjudged_member,
 * the member at fault); -1 on trouble (memory) or when a hook stopped
 * it (err). After an unreadable ply the later plies are not read (v->kind
 * KOMA_VERDICT_UNREADABLE).
 */
KOMA_API int koma_referee_pcn(koma_referee *ref, const koma_game_set *games,
                              const koma_game *game, const koma_pcn *rec,
                              const koma_referee_hooks *hooks, koma_verdict *v,
                              koma_error *err);

/* With KOMA_REFEREE_TRACK: the table of the positions of the game so far (keys
 * are engine hashes, where = the ply after which the position occurs; every
 * repeated position has its FEEN and FID, every "'" removed). NULL otherwise. */
KOMA_API koma_repeats *koma_referee_positions(const koma_referee *ref);

#ifdef __cplusplus
}
#endif
#endif
