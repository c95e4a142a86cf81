/*
 * cmd/select_out.h — where koma-select writes the records it selects: the
 * standard output or files named by -o PATTERN (a new file every --split N
 * records), each record as it was read (its own bytes, with what its format
 * puts between two records: CSA's "/" line, a YAML document's "---", a blank
 * line between runs of moves) or converted with --to FORMAT (koma/format.h's
 * writers). A record is built whole before it is written: a lack of memory
 * never leaves half a record.
 */
#ifndef KOMA_CMD_SELECT_OUT_H
#define KOMA_CMD_SELECT_OUT_H

#include "cli.h"
#include "records.h"

typedef struct select_out {
    cli *c;
    koma_hub *hub;                     /* for --to */
    const koma_format *to;             /* --to, or NULL: as read */
    const char *pattern;               /* -o PATTERN, or NULL: stdout */
    unsigned long split;               /* --split N (0: one output) */
    /* the output being written */
    FILE *f;
    char name[4096];
    unsigned long files;               /* files opened */
    unsigned long in_file;             /* records written to the current output */
    const koma_format *last;           /* the format of the last record written as read */
    koma_format_writer *ws;                  /* --to: the current output's writer */
    koma_buffer buf;
    int failed;                        /* an output could not be written (reported) */
} select_out;

/* Check -o PATTERN: "%n" (a width allowed: "%03n") and "%%" only; "%n" needed
 * with --split. 0, or the exit status of a usage error. */
int select_out_check(cli *c, const char *pattern, unsigned long split);

/*
 * Write one selected record: rec (PCN, for --to) read from text[0..len) in
 * format fmt. 0 when written; 1 when the record cannot be written in the --to
 * format (err: convert.unrepresentable...; nothing written); -1 on trouble (a
 * file that cannot be written, memory: reported, status 2; stop).
 */
int select_out_record(select_out *o, const koma_pcn *rec, const char *text, size_t len,
                      const koma_format *fmt, koma_error *err);

/* Close the last file (reporting a failed close). */
void select_out_close(select_out *o);

/* --json: one object a selected record (schemas/koma-select.schema.json): its
 * file, line, number, format, game, the plies where the position criteria held
 * (plies 1) and a FID. */
void select_print_json(const record_item *it, const koma_selection *r, int plies);

#endif
