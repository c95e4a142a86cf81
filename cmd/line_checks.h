/*
 * cmd/line_checks.h — koma-validate --type pmn's own options: PMN lines in a
 * dialect (--pmn-dialect), checked against a position (--position), legal
 * there (--legal). Every other line is checked by the library's registry
 * (koma_format_check). Returns 0 for a valid line, -1 with err set.
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

int line_check_pmn(line_ctx *lc, const char *s, size_t len, koma_error *err);

#endif
