/*
 * cmd/judge.h — the records of an input judged by the referee (koma/referee.h),
 * for koma-replay, koma-validate --replay and koma-repetition-check: PCN
 * databases record by record (cmd/records.c), or with --start runs of move
 * lines played from one position. The referee judges; this module puts the
 * diagnostics of each record where they belong (FILE:LINE:COL, the JSON
 * pointer of a PCN value), with the words of the library (koma/verdict.h), and hands each
 * verdict to the tool.
 *
 * Two styles of diagnostics, as the tools always gave them:
 *   JUDGE_REPLAY      (koma-replay, koma-validate --replay) a setup that cannot
 *                     be played ("cannot replay this record") or a ply that
 *                     cannot be read makes the record invalid (no verdict);
 *                     an illegal ply the record does not name as its end, a
 *                     recorded resignation or agreement with the wrong result,
 *                     plies after the end (replay.extra) and a recorded
 *                     outcome that disagrees (replay.outcome) make it disputed
 *   JUDGE_REPETITION  (koma-repetition-check) every illegal or unreadable ply
 *                     is reported and makes the record invalid, which still
 *                     gets its verdict; the setup message names its place
 *                     ("/setup/feen: ", "--start: ")
 * Both report a ply written in a non-canonical form (replay.notation): the
 * record is invalid (koma-replay: disputed).
 */
#ifndef KOMA_CMD_JUDGE_H
#define KOMA_CMD_JUDGE_H

#include "cli.h"
#include "records.h"

enum { JUDGE_REPLAY, JUDGE_REPETITION };

typedef struct judge judge;

/* One record of the input, judged or not. */
typedef struct judge_record {
    const record_source *src;
    const record_item *item;           /* PCN input: the record as read (item->rec NULL:
                                          the reader refused it, item->err says why: not
                                          reported yet); NULL: --start */
    koma_verdict *v;                   /* the verdict; NULL when the record was not judged */
    int invalid;                       /* a diagnostic made the record invalid */
} judge_record;

/* A tool's handling of each record; non-zero stops the input. */
typedef int (*judge_fn)(void *ctx, const judge_record *r);

/* Called with the FEEN of the setup and after every applied ply (--each). */
typedef void (*judge_each_fn)(void *ctx, const record_source *src, size_t ply, const char *feen,
                              size_t len);

/* games: the caller's set (outlives it); forced: --game or NULL; flags:
 * koma_referee_options.flags. NULL when out of memory. */
judge *judge_new(cli *c, const koma_game_set *games, const koma_game *forced,
                 koma_pmn_dialect dialect, unsigned flags, int style);
void judge_free(judge *j);
void judge_set_each(judge *j, judge_each_fn fn, void *ctx);
/* --declaration WORD: 27, 24 or try into *out; else a usage error (its status). */
int judge_declaration_option(cli *c, const char *word, koma_declaration_rule *out);
/* The declaration rule for every record (a record's own rule option wins). */
void judge_set_declaration(judge *j, koma_declaration_rule rule);
/* The referee (koma_referee_positions, with KOMA_REFEREE_TRACK). */
koma_referee *judge_referee(judge *j);

/* Every record of in: PCN records read with o, or (start not NULL) runs of
 * move lines played from the FEEN start, a blank line between records. */
void judge_input(judge *j, cli_input *in, const records_options *o, const char *start,
                 judge_fn fn, void *ctx);

#endif
