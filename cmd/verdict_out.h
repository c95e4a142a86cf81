/*
 * cmd/verdict_out.h — the verdicts as the tools print them (stdout): koma-replay's
 * line and JSON object, koma-repetition-check's position and verdict lines
 * (text or JSON; schemas/koma-*.schema.json). The sentences in them come from
 * the library (koma/verdict.h).
 */
#ifndef KOMA_VERDICT_OUT_H
#define KOMA_VERDICT_OUT_H

#include "cli.h"

/* koma-replay: the record at file:line. adjudicate: the REASON form. */
void verdict_print_replay(const cli *c, const koma_verdict *v, const char *file,
                          unsigned long line, int adjudicate);

/* koma-repetition-check: the repeated positions of table t (where = plies, or
 * line numbers: noun "lines") of the record at file:line; their count into *n.
 * -1 (memory: reported). */
int verdict_print_positions(cli *c, koma_repeats *t, const char *noun, const char *file,
                            unsigned long line, size_t *n);
/* koma-repetition-check: the verdict line; nrep: positions repeated. */
void verdict_print_repetition(const cli *c, const koma_verdict *v, koma_repeats *positions,
                              size_t nrep, const char *file, unsigned long line);

#endif
