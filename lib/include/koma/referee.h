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
 * time limit or agreement (or a bare result) with no rule ending is honoured;
 * a Shogi record's entering-king declaration or impasse (outcome.csa %KACHI,
 * %JISHOGI) is judged on the final position (KOMA_VERDICT_CLAIM).
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

/* A move text a verdict keeps: KOMA_MOVE_TEXT_BUF (koma/pmn.h). Plies a record
 * may have (counted while replaying): KOMA_LIMIT_PLIES (koma/limits.h). */
/* Bytes of legal alternatives a verdict lists for an illegal ply. */
#define KOMA_VERDICT_LEGAL_MAX 1024
#define KOMA_VERDICT_POINTER_MAX 160   /* koma_verdict.unjudged_member, NUL included */

typedef struct koma_referee koma_referee;

/* koma_referee_options.flags */
#define KOMA_REFEREE_TRACK 1u          /* keep every position's occurrences, and the
                                          FEEN of each repeated one (koma_referee_repeats) */
#define KOMA_REFEREE_GENERAL 2u        /* koma_referee_pcn judges every ply of a record
                                          read light (KOMA_PCN_LIGHT) one by one as
                                          koma_referee_ply does, without its quick loop
                                          for the usual plies (the same verdicts and
                                          hooks; the reference of the tests) */
#define KOMA_REFEREE_QUIET_PLAYED 4u   /* koma_referee_pcn calls hooks->ply only for
                                          the plies not played as usual (a status other
                                          than KOMA_PLY_PLAYED): for a caller with
                                          nothing to do after a played ply */

/* How an entering-king declaration (CSA %KACHI, KIF 入玉勝ち) is judged
 * (koma-games(7), ENDINGS FROM THE SHOGI WORLD). */
typedef enum koma_declaration_rule {
    KOMA_DECLARE_DEFAULT = 0,          /* the record's meta.rule_options.declaration, else 27 */
    KOMA_DECLARE_27,                   /* 27-point rule: 28 (Sente) or 27 (Gote) points win,
                                          fewer lose */
    KOMA_DECLARE_24,                   /* 24-point rule: 31 or more win, 24 to 30 draw,
                                          23 or fewer lose */
    KOMA_DECLARE_TRY                   /* try rule: the king can move legally to the square
                                          the enemy king started on */
} koma_declaration_rule;

/* Options of a referee: a sized struct (koma/version.h), set up with
 * KOMA_REFEREE_OPTIONS_INIT. */
typedef struct koma_referee_options {
    size_t size;                       /* sizeof(koma_referee_options), by the _INIT macro */
    koma_pmn_dialect dialect;          /* how plies are written (default: canonical PMN) */
    unsigned flags;
    koma_declaration_rule declaration; /* for every record of the run (a record's own
                                          meta.rule_options.declaration still wins) */
} koma_referee_options;
#define KOMA_REFEREE_OPTIONS_INIT {.size = sizeof(koma_referee_options)}

/* The counts an entering-king declaration or an impasse is judged by, for one
 * side of a Shogi position (9x9, FEEN order, the first player's camp at the
 * bottom): a rook or bishop, promoted or not, 5 points, every other piece but
 * the king 1. */
typedef struct koma_entering_count {
    int king_in_zone;                  /* its king stands in the enemy's three ranks */
    unsigned zone_pieces;              /* its pieces there, the king not counted */
    unsigned zone_points;              /* the points of those pieces and of its hand */
    unsigned total_points;             /* the points of all its pieces, board and hand */
} koma_entering_count;

/* Count side's pieces in pos (koma_entering_count). -1 when pos is not a 9x9 board.
 * Ownership: none. */
KOMA_API int koma_entering_count_side(const koma_position *pos, int side,
                                      koma_entering_count *out);

/* A referee (opt may be NULL: canonical PMN, no tracking; api.size when
 * opt->size is not a size of koma_referee_options this library knows).
 * Ownership: the caller frees *out with koma_referee_free. */
KOMA_API int koma_referee_new(const koma_referee_options *opt, koma_referee **out,
                              koma_error *err);
/* The declaration rule of the run (koma_referee_options.declaration), from now on.
 * Ownership: none. */
KOMA_API void koma_referee_set_declaration(koma_referee *ref, koma_declaration_rule rule);
/* Ownership: frees ref and what it owns. */
KOMA_API void koma_referee_free(koma_referee *ref);

/*
 * Begin a game of `game` from `setup` (copied). -1 with err when it cannot be
 * judged: a game without rules (game.norules), a position that does not fit the
 * game (rules.*), memory. The setup may already be final (a king in a hand, no
 * legal move): the verdict then has ply 0.
 * Ownership: game is borrowed while this game is judged (its set must outlive it).
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
                                          as recorded (the illegal action is not in it),
                                          and with no ending recorded, an illegal last
                                          ply is the ending it states */
    int claim;                         /* KOMA_CLAIM_*: an ending the position can check */
} koma_recorded;

/* koma_recorded.claim, koma_verdict.claim */
#define KOMA_CLAIM_NONE 0
#define KOMA_CLAIM_DECLARATION 1       /* an entering-king declaration by the side to move
                                          (outcome.csa %KACHI: CSA %KACHI, KIF 入玉勝ち) */
#define KOMA_CLAIM_IMPASSE 2           /* an impasse (outcome.csa %JISHOGI: 持将棋) */

/* koma_verdict.claim_failed: the conditions of a declaration not met */
#define KOMA_CLAIM_FAIL_ZONE   1u      /* the declarer's king is not in the enemy's ranks */
#define KOMA_CLAIM_FAIL_PIECES 2u      /* fewer than 10 of its pieces there */
#define KOMA_CLAIM_FAIL_CHECK  4u      /* its king is in check */
#define KOMA_CLAIM_FAIL_POINTS 8u      /* too few points (24-point rule: fewer than 31, a
                                          draw from 24 on; an impasse: a side below 24) */
#define KOMA_CLAIM_FAIL_TRY    16u     /* try rule: no legal king move to the try square */

/*
 * The record's own outcome, given after begin and before the first ply. A
 * recorded resignation, time limit or agreement, or a result without a status,
 * at a ply before the last ends the judging there: the later plies count as
 * plies after the end.
 * Ownership: none.
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
 * Ownership: none.
 */
KOMA_API int koma_referee_ply(koma_referee *ref, const char *text, size_t len, koma_error *err);

/* 1 when koma_referee_ply would apply the ply text[0..len) now (a legal move
 * in canonical form that no history rule refuses), 0 when it would not (or the
 * game is over), -1 on trouble (memory). Nothing changes. Ownership: none. */
KOMA_API int koma_referee_allows(koma_referee *ref, const char *text, size_t len, koma_error *err);

/* The next ply could not even be read (a line over the line limit): like an
 * unreadable ply with why's code and message (after the end: a ply after the end).
 * Ownership: none. */
KOMA_API void koma_referee_ply_unreadable(koma_referee *ref, const koma_error *why);

/* Whether the game has ended (by the rules, an illegal ply, or the record's own
 * ending reached), and the plies applied so far. Ownership: none. */
KOMA_API int koma_referee_over(const koma_referee *ref);
/* Ownership: none. */
KOMA_API size_t koma_referee_played(const koma_referee *ref);
/* The side to move in the current position. Ownership: none. */
KOMA_API int koma_referee_turn(const koma_referee *ref);

/* The engine of the game in progress (from koma_referee_begin on): for reading
 * the position between plies (koma_engine_hash, koma_engine_get_position,
 * koma_engine_feen, koma_engine_game: the game played, a variant when the
 * record names rule options); NULL before the first begin.
 * Ownership: the result is borrowed from ref until the next koma_referee_begin or
 * koma_referee_free. */
KOMA_API const koma_engine *koma_referee_engine(const koma_referee *ref);

/* The current position as FEEN (koma_engine_feen). Ownership: none. */
KOMA_API KOMA_NODISCARD int koma_referee_feen(const koma_referee *ref, char *buf, size_t cap,
                                              size_t *len, koma_error *err);

/* How the verdict was reached. */
typedef enum koma_verdict_kind {
    KOMA_VERDICT_UNFINISHED,           /* no ending: result "*" */
    KOMA_VERDICT_RULES,                /* a rule ended the game (an illegal ply included) */
    KOMA_VERDICT_RECORDED,             /* the record's resignation, time limit or agreement,
                                          or a shogi-world record's illegal-move ending */
    KOMA_VERDICT_RESULT_ONLY,          /* the record's result, with no status, kept */
    KOMA_VERDICT_UNREADABLE,           /* a ply is not a move: the record cannot be judged */
    KOMA_VERDICT_CLAIM                 /* the record's declaration or impasse, judged on the
                                          final position (koma_verdict.claim...) */
} koma_verdict_kind;

/* koma_verdict.disputes: why the record disagrees with the rules */
#define KOMA_DISPUTE_ILLEGAL  1u       /* an illegal ply the record does not name as its end */
#define KOMA_DISPUTE_EXTRA    2u       /* plies recorded after the end */
#define KOMA_DISPUTE_OUTCOME  4u       /* a member of the recorded outcome (disagrees) */
#define KOMA_DISPUTE_RESULT   8u       /* a recorded resignation not won by the other side,
                                          or an agreement that is not a draw */
#define KOMA_DISPUTE_NOTATION 16u      /* plies not in canonical form (notation_faults) */
#define KOMA_DISPUTE_CLOCK    32u      /* a recorded time loss the clocks contradict
                                          (koma_verdict.clock) */

/* koma_verdict.clock: a recorded time loss checked against the record's clocks */
#define KOMA_CLOCK_NONE      0         /* not a recorded time loss */
#define KOMA_CLOCK_UNCHECKED 1         /* the record lacks what is needed (clock_missing) */
#define KOMA_CLOCK_AGREES    2         /* the loser's last think ran past its time left */
#define KOMA_CLOCK_TIME_LEFT 3         /* its clock still shows time left: a dispute */
#define KOMA_CLOCK_EARLIER   4         /* its clock ran out at an earlier ply (clock_ply) */

/* The first member of the recorded outcome that disagrees. */
typedef enum koma_outcome_member {
    KOMA_MEMBER_NONE,
    KOMA_MEMBER_RESULT,                /* /outcome/result */
    KOMA_MEMBER_STATUS,                /* /outcome/status */
    KOMA_MEMBER_PLY                    /* /outcome/ply */
} koma_outcome_member;

/*
 * A verdict: caller-allocated, and a sized struct (koma/version.h) so that it
 * can grow: set it up with KOMA_VERDICT_INIT (or size = sizeof(koma_verdict)
 * before the first use). The library fills in the members the caller's size
 * holds, and refuses a size it does not know (api.size). New members are
 * appended at the end only.
 */
typedef struct koma_verdict {
    size_t size;                       /* sizeof(koma_verdict) as the caller was built */
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
     * (in legal; alt_square ""), how many, whether it is in check, and when it
     * is, how many are king escapes (a king move not taking the checker),
     * interpositions (a drop, or a non-capturing move of a piece other than the
     * king: a tsume problem's futile interpositions) and captures of the
     * checker; legal lists them in that order, each kind sorted (not in check:
     * all sorted, the three counts 0) */
    int mate_refuted;
    int mate_in_check;
    size_t mate_moves;
    size_t mate_interpositions;
    size_t mate_escapes;
    size_t mate_captures;

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

    /* a declaration or impasse judged (kind KOMA_VERDICT_CLAIM) */
    int claim;                         /* KOMA_CLAIM_* */
    koma_declaration_rule claim_rule;  /* the rule used (KOMA_DECLARE_27, _24, _TRY; an
                                          impasse: _24) */
    int declarer;                      /* the side to move that declares */
    int king_in_zone;                  /* the declarer's king in the enemy's three ranks */
    int king_in_check;
    unsigned zone_pieces;              /* the declarer's pieces there, the king aside */
    unsigned points[2];                /* per side: a declaration, the points of the pieces
                                          in the zone and in hand; an impasse, of all */
    unsigned handicap_points[2];       /* per side: the points of the pieces a handicap
                                          removed, counted in points[] for the upper player */
    char handicap_stated[48];          /* the record's meta.handicap when koma knows it
                                          (its KIF name; its points are handicap_points),
                                          else "" */
    unsigned handicap_setup[2];        /* then: the points the setup lacks, per side (an
                                          upper player with all 27 points, the other
                                          fewer, both hands empty) */
    int handicap_disagrees;            /* then: the setup's hands are empty and its
                                          missing points are not the stated handicap's */
    unsigned points_needed;            /* a declaration: the points to win (28 or 27; 31) */
    unsigned claim_failed;             /* KOMA_CLAIM_FAIL_* */

    /* a recorded time loss and the clocks (koma_referee_pcn; kind KOMA_VERDICT_RECORDED,
     * status timelimit): main time and increment (periods[0]), byo-yomi (periods[1]
     * of one ply), each ply's elapsed_ms and the last think's (outcome.elapsed_ms),
     * in whole seconds, rounded down (a CSA record: at least one second a move) */
    int clock;                         /* KOMA_CLOCK_* */
    int clock_side;                    /* the side that lost on time (EARLIER: the side
                                          whose clock ran out, either) */
    char clock_missing[64];            /* UNCHECKED: what the record lacks, in words */
    long long clock_left_ms;           /* its main time left plus byo-yomi when its last
                                          think began (EARLIER: when ply clock_ply began) */
    long long clock_spent_ms;          /* that think */
    size_t clock_ply;                  /* EARLIER: the ply it ran out on */

    /* koma_referee_pcn's record that cannot be judged: the JSON pointer (escaped)
     * of the member at fault: "/setup/feen", or for a rule option
     * "/meta/rule_options/NAME" ("/meta/rule_options" when no one member is) */
    char unjudged_member[KOMA_VERDICT_POINTER_MAX];
} koma_verdict;
#define KOMA_VERDICT_INIT {.size = sizeof(koma_verdict)}

/* The verdict of the game given so far. -1 with err on trouble (memory: the
 * final FEEN could not be written; api.size: v->size is not a size of
 * koma_verdict this library knows): nothing in v is then to be printed. Ownership: none. */
KOMA_API KOMA_NODISCARD int koma_referee_finish(koma_referee *ref, koma_verdict *v,
                                                koma_error *err);

/* What a caller of koma_referee_pcn sees while a record is judged (each may be NULL). */
typedef struct koma_referee_hooks {
    /* the setup position is in place (before the first ply) */
    int (*begun)(void *ctx, koma_referee *ref);
    /* after plies[index]: what koma_referee_ply returned, and its err */
    int (*ply)(void *ctx, koma_referee *ref, size_t index, int status, const koma_error *err);
    void *ctx;                         /* (a non-zero return stops the record, and
                                          koma_referee_pcn returns it) */
} koma_referee_hooks;

/*
 * Judge a whole PCN record: open its setup FEEN with its game
 * (koma_game_set_open_feen: `game`, or the one the FEEN gives from `games`),
 * begin, expect its outcome (when it has one), every ply, finish. Returns 0 with
 * v; 1 when the record cannot be judged: its setup or its meta.rule_options
 * (err; *v untouched but v->game, the game when known, and v->unjudged_member,
 * the member at fault); -1 on trouble (memory, api.size as koma_referee_finish);
 * a hook's non-zero value when it stopped the record. After an unreadable ply
 * the later plies are not read (v->kind KOMA_VERDICT_UNREADABLE).
 * Ownership: none.
 */
KOMA_API int koma_referee_pcn(koma_referee *ref, const koma_game_set *games,
                              const koma_game *game, const koma_pcn *rec,
                              const koma_referee_hooks *hooks, koma_verdict *v,
                              koma_error *err);

/* With KOMA_REFEREE_TRACK: the table of the positions of the game so far (keys
 * are engine hashes, where = the ply after which the position occurs; every
 * repeated position has its FEEN and FID, every "'" removed). NULL otherwise.
 * Ownership: the result is borrowed from ref until ref is freed. */
KOMA_API koma_repeats *koma_referee_positions(const koma_referee *ref);

#ifdef __cplusplus
}
#endif
#endif
