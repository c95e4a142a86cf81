/*
 * cmd/validate.h — koma-validate's state, shared by its main file and the path
 * of its line-oriented inputs (validate_lines.c: each line checked, counted and
 * reported; FEEN lines valid at a glance taken in bulk).
 */
#ifndef KOMA_CMD_VALIDATE_H
#define KOMA_CMD_VALIDATE_H

#include <string.h>

#include "cli.h"
#include "diag_gather.h"
#include "judge.h"
#include "line_checks.h"
#include "records.h"

typedef struct validate_state {
    cli *c;
    const koma_format *fmt;            /* --type: a format the registry checks; NULL: auto */
    int auto_line;                     /* auto, an input of lines: each FEEN or PMN */
    int print_fid;
    line_ctx lc;                       /* --pmn-dialect, --position; scratch */
    records_options pcn;               /* --format */
    judge *jd;                         /* --replay: PCN records are judged too */
    diag_gather gather;                /* --replay --json: one object a record */
    const cli_input *in;               /* the input of validate_lines */
    unsigned long records, valid, invalid;
} validate_state;

static inline const char *validate_type_name(const validate_state *st)
{
    return st->fmt == NULL || st->auto_line ? "auto" : koma_format_name(st->fmt);
}

static inline int validate_is(const koma_format *f, const char *name)
{
    return f && strcmp(koma_format_name(f), name) == 0;
}

/* Count one item and report it: a diagnostic when invalid, a JSON object with
 * --json when valid. */
void validate_record_result(validate_state *st, const char *file, unsigned long line,
                            const koma_error *err, int valid);

/* Every line of in, checked as st's type (or each line's, auto). */
void validate_lines(validate_state *st, cli_input *in);

#endif
