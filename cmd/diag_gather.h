/*
 * cmd/diag_gather.h — one JSON object an item, however many diagnostics it
 * gets (never one object a diagnostic): while gathering, the --json diagnostics of the
 * tool (cli_diag) go into a buffer instead of stdout (cli.json_diag); the tool
 * then prints the item's object with them, or lets them through as they are.
 */
#ifndef KOMA_CMD_DIAG_GATHER_H
#define KOMA_CMD_DIAG_GATHER_H

#include "cli.h"

typedef struct diag_gather {
    cli *c;
    FILE *f;                           /* NULL: not gathering */
    char *buf;                         /* the diagnostic objects, one a line */
    size_t len;
} diag_gather;

/* Start gathering c's diagnostics. 0, or -1 after reporting (memory). */
int diag_gather_start(diag_gather *g, cli *c);
/* Stop (what was gathered is dropped) and free. */
void diag_gather_end(diag_gather *g);
/* What was gathered so far: its length in g->buf; -1 after reporting. */
long diag_gather_take(diag_gather *g);
/* Diagnostics to stdout again (0), or into the buffer (1), for a while. */
void diag_gather_hold(diag_gather *g, int on);
/* Drop what was gathered and go on gathering. 0, or -1 after reporting. */
int diag_gather_restart(diag_gather *g);
/*
 * Print the item's object from g->buf[0..len): its first diagnostic's
 * members, then "type":TYPE, "valid":false and "diagnostics": all of them.
 */
void diag_gather_print(const diag_gather *g, size_t len, const char *type);

#endif
