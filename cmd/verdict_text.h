/*
 * cmd/verdict_text.h — every message about a game's verdict, written from the
 * fields of a koma_verdict (koma/referee.h) in one place: the adjudication
 * reason, the diagnostics of a disputed record, koma-repetition-check's reason.
 * (The output lines and JSON objects built from them: cmd/verdict_out.c.) Nothing here decides anything: the referee
 * did; these only put its verdict into words.
 */
#ifndef KOMA_VERDICT_TEXT_H
#define KOMA_VERDICT_TEXT_H

#include <stdio.h>

#include <koma/koma.h>

/* "Sente" (the first player) or "Gote". */
const char *verdict_side(int side);

/* The verdict in one sentence (koma-replay --adjudicate, "reason" in --json). */
/* The rule a declaration or impasse was judged by: "27-point", "24-point", "try". */
const char *verdict_claim_rule(const koma_verdict *v);
/* A recorded time loss the clocks contradict (KOMA_DISPUTE_CLOCK). */
void verdict_clock_message(const koma_verdict *v, char *buf, size_t cap);
/* A judged claim's stated handicap that the setup contradicts (handicap_disagrees). */
void verdict_handicap_message(const koma_verdict *v, char *buf, size_t cap);
void verdict_reason(const koma_verdict *v, char *buf, size_t cap);

/* The JSON pointer of a recorded outcome member ("/outcome/status"), or NULL. */
const char *verdict_member_pointer(koma_outcome_member m);

/* Diagnostic messages of a disputed record (each for one KOMA_DISPUTE_* flag). */
void verdict_illegal_message(const koma_verdict *v, char *buf, size_t cap);   /* ILLEGAL */
void verdict_extra_message(const koma_verdict *v, char *buf, size_t cap);     /* EXTRA */
void verdict_outcome_message(const koma_verdict *v, char *buf, size_t cap);   /* OUTCOME */
void verdict_result_message(const koma_verdict *v, char *buf, size_t cap);    /* RESULT */
/* A ply (1-based) that cannot be read: "ply N \"TEXT\" cannot be read: MESSAGE". */
void verdict_unreadable_message(size_t ply, const char *s, size_t len, const koma_error *err,
                                char *buf, size_t cap);
/* A notation fault at ply `ply` (1-based) by `side`: from the referee's err. */
void verdict_notation_message(size_t ply, const char *text, size_t len, int side,
                              const koma_error *err, char *buf, size_t cap);

/* koma-repetition-check: the rule a verdict triggered (none, illegal-repeat,
 * fourfold, perpetual-check) and the verdict line's reason; nrep: positions
 * repeated; positions: the referee's table (KOMA_REFEREE_TRACK). */
const char *verdict_repetition_rule(const koma_verdict *v);
void verdict_repetition_reason(const koma_verdict *v, koma_repeats *positions, size_t nrep,
                               char *buf, size_t cap);

#endif
