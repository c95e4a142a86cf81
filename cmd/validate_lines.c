/*
 * cmd/validate_lines.c — koma-validate's line-oriented inputs (FEEN, PMN, the
 * identifiers...): each line checked by the registry's check (or
 * cmd/line_checks.c's PMN options), counted and reported; with --print-fid each
 * valid FEEN's FID printed. FEEN lines valid at a glance are taken in bulk.
 */
#include <stdio.h>

#include "validate.h"

/* The JSON object of one valid line. */
static void json_valid(validate_state *st, const char *file, unsigned long line, const char *fid)
{
    fputs("{\"file\":", stdout);
    cli_json_cstr(stdout, file);
    fprintf(stdout, ",\"line\":%lu,\"type\":\"%s\",\"valid\":true", line, validate_type_name(st));
    if (fid) fprintf(stdout, ",\"fid\":\"%s\"", fid);
    fputs("}\n", stdout);
}

void validate_record_result(validate_state *st, const char *file, unsigned long line,
                            const koma_error *err, int valid)
{
    cli *c = st->c;
    st->records++;
    if (!valid) {
        char extra[64];
        st->invalid++;
        snprintf(extra, sizeof extra, "\"type\":\"%s\",\"valid\":false", validate_type_name(st));
        cli_diag_error(c, CLI_DATA, file, err, extra);
        return;
    }
    st->valid++;
    if (c->json && !c->quiet) json_valid(st, file, line, NULL);
}

static void check_line(validate_state *st, const char *file, unsigned long line, const char *s,
                       size_t len)
{
    koma_error err;
    cli *c = st->c;
    /* every failing parser sets the error; a valid line (the common case) never reads
     * it, so it is not cleared in full (koma_error_clear) for each line */
    err.code = KOMA_OK;
    err.message[0] = '\0';
    err.source = NULL;
    const koma_format *f = st->auto_line ? koma_format_of_line(s, len) : st->fmt;
    int rc = validate_is(f, "pmn") && !st->auto_line ? line_check_pmn(&st->lc, s, len, &err)
                                            : koma_format_check(f, s, len, &err);
    if (rc != 0) {
        err.line = line;
        validate_record_result(st, file, line, &err, 0);
        return;
    }
    if (!st->print_fid) {
        validate_record_result(st, file, line, &err, 1);
        return;
    }
    st->records++;
    st->valid++;
    if (c->quiet) return;
    char fid[KOMA_FID_BUF];
    koma_fid_of(s, len, fid);          /* a valid strict FEEN is canonical: hash the line */
    if (c->json) json_valid(st, file, line, fid);
    else printf("%s\n", fid);
}

static int validate_line(void *ctx, const char *s, size_t len)
{
    validate_state *st = ctx;
    const cli_input *in = st->in;
    if (s == NULL) {
        koma_error err;
        cli_line_too_long(in, &err);
        validate_record_result(st, in->name, in->line, &err, 0);
    } else {
        check_line(st, in->name, in->line, s, len);
    }
    return 0;
}

/* FEEN lines valid at a glance are taken in bulk (koma_feen_valid_lines: no call
 * per line); the rest, and every line when each valid one prints something, one
 * by one. */
static size_t validate_feen_bulk(void *ctx, const char *s, size_t n, size_t *lines)
{
    validate_state *st = ctx;
    size_t took = koma_feen_valid_lines(s, n, lines);
    st->records += *lines;
    st->valid += *lines;
    return took;
}

void validate_lines(validate_state *st, cli_input *in)
{
    st->in = in;
    int bulk = validate_is(st->fmt, "feen") && !st->print_fid && !(st->c->json && !st->c->quiet);
    cli_input_map(in);                 /* a file's lines read from its mapping: no copy */
    cli_input_lines_bulk(st->c, in, "lines", bulk ? validate_feen_bulk : NULL, validate_line, st);
}

