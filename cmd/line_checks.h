/*
 * cmd/line_checks.h — one line of a line format checked, for koma-validate
 * --type (koma-formats(5)): FEEN, CELL, PIN, EPIN, SIN, SNN, QPI, FID, PMN (with
 * --pmn-dialect and --position; with --legal a legal move there), CGSN, and --type auto's lines (a FEEN when the
 * line has exactly two spaces, a PMN move or chain otherwise). Each returns 0
 * for a valid line, -1 with err set.
 */
#ifndef KOMA_CMD_LINE_CHECKS_H
#define KOMA_CMD_LINE_CHECKS_H

#include "cli.h"

typedef struct line_ctx {
    koma_position pos;                 /* scratch */
    koma_pmn_dialect dialect;          /* --pmn-dialect */
    int has_context;                   /* --position given */
    koma_position context;             /* --position: PMN lines are checked against it */
    koma_engine *engine;               /* --legal: the rules of the position's game */
} line_ctx;

/* Set up lc for --position (a FEEN; NULL: none), --pmn-dialect (lc->dialect,
 * which needs a position unless canonical) and --legal (which needs a position):
 * 0, or the status of a usage error (reported). line_ctx_close frees lc. */
int line_ctx_open(line_ctx *lc, cli *c, const char *position, int legal);
void line_ctx_close(line_ctx *lc);

/* --legal: the rules of the game of --position (lc->context, from the FEEN
 * position) into lc->engine. 0, or a usage error reported (-1). */
int line_ctx_legal(line_ctx *lc, cli *c, const koma_game_set *games, const char *position);

typedef int (*line_check_fn)(line_ctx *lc, const char *s, size_t len, koma_error *err);

int line_check_feen(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_cell(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_pin(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_epin(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_sin(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_snn(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_qpi(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_fid(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_pmn(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_cgsn(line_ctx *lc, const char *s, size_t len, koma_error *err);
int line_check_auto(line_ctx *lc, const char *s, size_t len, koma_error *err);

#endif
