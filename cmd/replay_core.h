/*
 * cmd/replay_core.h — replaying game records under the rules of their game,
 * shared by koma-replay and koma-validate --replay (DESIGN.md §3-§5).
 *
 * A record is replayed ply by ply with koma_engine_play, which applies every
 * rule of DESIGN.md §4 in its order. The replay stops at the first ending:
 * a rule ending (mareking, checkmate, stalemate, nomove, bareking, fourfold
 * repetition, movelimit) or an illegal ply (illegalmove, or repetition for
 * Ōgi's same-move rule: the ply is not applied and its player loses). Plies
 * after the end are reported (replay.extra). The record's own outcome is then
 * compared with the verdict (replay.outcome); a recorded resignation,
 * timelimit or agreement with no rule ending is honoured.
 *
 * Moves in a dialect (--pmn-dialect) are read against the position; a seed
 * drop `*-e5` with several kinds of the mover's in hand is resolved with the
 * rules: the kinds the game lets drop on that square (an Ōgi pawn never drops).
 *
 * Diagnostics go through cli_diag (status 1); the verdict says what the rules
 * give and how many diagnostics the record earned.
 */
#ifndef KOMA_REPLAY_CORE_H
#define KOMA_REPLAY_CORE_H

#include "cli.h"
#include "records.h"

typedef enum replay_how {
    REPLAY_UNFINISHED,                 /* no ending: result "*" */
    REPLAY_RULES,                      /* a rule ended the game (an illegal ply included) */
    REPLAY_RECORDED,                   /* the record's resignation, timelimit or agreement */
    REPLAY_RESULT_ONLY                 /* the record's result, with no status, kept */
} replay_how;

#define REPLAY_LEGAL_MAX 1024
#define REPLAY_REASON_MAX 1024

typedef struct replay_verdict {
    const koma_game *game;
    replay_how how;
    char result[8];                    /* 1-0, 0-1, 1/2-1/2, a recorded asymmetric one, or * */
    int has_status;
    koma_status status;
    int has_ply;
    size_t ply;                        /* the deciding ply (0: the setup position) */
    size_t played;                     /* plies applied */
    size_t plies;                      /* plies in the record */
    int turn;                          /* side to move in the final position */
    char feen[KOMA_FEEN_MAX_LEN + 1];  /* the final position */
    size_t extra;                      /* plies recorded after the end */

    int illegal;                       /* the deciding ply was illegal (not applied) */
    koma_code illegal_code;
    char illegal_pmn[64];              /* as written, quoted printable */
    char illegal_message[KOMA_ERROR_MESSAGE_MAX];
    char legal[REPLAY_LEGAL_MAX];      /* legal alternatives, space-separated */

    int has_recorded;                  /* the record has an outcome */
    char rec_result[8];                /* "" when absent */
    int rec_has_status;
    koma_status rec_status;
    int rec_has_ply;
    uint64_t rec_ply;

    int problems;                      /* diagnostics given: the record is disputed */
    char reason[REPLAY_REASON_MAX];    /* one sentence in plain words */
} replay_verdict;

typedef struct replay replay;

/* Called with the setup position (ply 0) and after every applied ply. */
typedef void (*replay_each_fn)(void *ctx, const replay_verdict *v, size_t ply, const char *feen,
                               size_t len);

/* A replayer. games: the caller's set (outlives it); forced: --game or NULL. */
replay *replay_new(cli *c, koma_game_set *games, const koma_game *forced,
                   koma_pmn_dialect dialect);
void replay_free(replay *r);
void replay_set_each(replay *r, replay_each_fn fn, void *ctx);

/*
 * One PCN record. Returns 0 with v filled, -1 when it cannot be replayed at all
 * (no game for its setup, a position that does not fit the game, an
 * unreadable move of a dialect: one diagnostic given, v->problems = 1), -2 on
 * trouble (memory; reported, status 2).
 */
int replay_pcn(replay *r, const koma_pcn *rec, const record_source *src, replay_verdict *v);

/*
 * A bare list of moves: begin with the setup FEEN, give each move with its
 * line number, then finish. begin returns -1 when the FEEN cannot be played
 * (diagnostic given); ply returns -1 once the record turned out unreadable
 * (later moves are ignored); finish returns what replay_pcn would.
 */
int replay_begin(replay *r, const char *feen, size_t len, const record_source *src,
                 replay_verdict *v);
int replay_ply(replay *r, const char *s, size_t len, unsigned long line);
int replay_finish(replay *r);

/* Give up the record in progress after the caller reported why (one problem). */
void replay_abandon(replay *r);

/* Write the verdict into the record's outcome (result, status, ply; members the
 * verdict does not know are removed when the rules contradict them). */
int replay_write_outcome(const replay_verdict *v, koma_pcn *rec, koma_error *err);

/* "Sente" (first player) or "Gote". */
const char *replay_side_name(int side);

#endif
