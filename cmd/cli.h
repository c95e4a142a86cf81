/*
 * cmd/cli.h — what every koma command shares: the contract of DESIGN.md §5.
 *
 *   diagnostics  prog: FILE:LINE:COL: CODE: message        (stderr, one per line)
 *   exit status  0 all good, 1 invalid data / difference / rule triggered,
 *                2 usage, I/O or memory trouble (2 wins over 1); never 126+
 *   stdout       data only; a closed pipe ends the program quietly
 *   input        FILE operands, none or "-" = stdin (named "<stdin>")
 */
#ifndef KOMA_CLI_H
#define KOMA_CLI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <koma/koma.h>

enum { CLI_OK = 0, CLI_DATA = 1, CLI_TROUBLE = 2 };

#define CLI_LINE_MAX (1u << 20)            /* 1 MiB: longest line of a line format */
#define CLI_RECORD_MAX (16u << 20)         /* 16 MiB: largest record */

typedef struct cli {
    const char *prog;                      /* "koma-validate" */
    int status;                            /* worst status so far */
    int quiet;                             /* -q: no data output, no data diagnostics */
    int json;                              /* --json: diagnostics as JSON Lines on stdout */
    int progress;                          /* stderr is a terminal: progress allowed */
} cli;

/* Set up: ignore SIGPIPE (so a closed pipe is an EPIPE we handle), buffer stdout. */
void cli_init(cli *c, const char *prog);

/* Raise the exit status (2 wins over 1). */
void cli_fail(cli *c, int status);

/* Finish: flush stdout; a write error other than EPIPE -> io.write, status 2.
 * Returns the exit status to return from main. */
int cli_finish(cli *c);

/* True when stdout has failed (closed pipe or other error): stop producing output.
 * A closed pipe exits quietly right away with the status so far. */
int cli_stdout_broken(cli *c);

/*
 * A data diagnostic: `prog: FILE:LINE:COL: CODE: message` on stderr, or a JSON
 * object {"file","line","column","code","message"} (plus extra pre-encoded
 * members `extra`, may be NULL) on stdout with --json. Silent with -q.
 * Raises the status to `status`.
 */
void cli_diag(cli *c, int status, const char *file, unsigned long line, unsigned long col,
              const char *code, const char *message, const char *extra);
/* Same with a koma_error (its line/column are used as given). */
void cli_diag_error(cli *c, int status, const char *file, const koma_error *err,
                    const char *extra);

/* An I/O problem with a file (io.open, io.read): `prog: FILE:LINE:1: CODE: message`
 * on stderr even with -q, and also as a JSON diagnostic on stdout with --json.
 * Raises the status to 2. */
void cli_io_error(cli *c, const char *file, unsigned long line, const char *code,
                  const char *message);

/* Trouble that is not about the data (usage, I/O): always printed on stderr,
 * never silenced by -q. `prog: message`. Raises the status to 2. */
void cli_trouble(cli *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A usage error: message, a hint to --help, exit status 2. */
int cli_usage_error(cli *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Print the version line `prog (koma) X.Y.Z`. */
void cli_version(const cli *c);

/* ---- JSON output ------------------------------------------------------------ */

/* Write s[0..len) as a JSON string (quotes included); invalid UTF-8 -> U+FFFD. */
void cli_json_string(FILE *f, const char *s, size_t len);
static inline void cli_json_cstr(FILE *f, const char *s) { cli_json_string(f, s, s ? strlen(s) : 0); }

/* ---- input ------------------------------------------------------------------ */

typedef struct cli_input {
    int fd;
    const char *name;                      /* display name: the path or "<stdin>" */
    char *buf;
    size_t cap, pos, end;
    unsigned long line;                    /* number of the line last returned */
    int eof;
} cli_input;

/* Open path ("-" = stdin). On failure: io.open diagnostic, status 2, returns -1. */
int cli_input_open(cli *c, cli_input *in, const char *path);
void cli_input_close(cli_input *in);

enum { CLI_LINE_EOF = 0, CLI_LINE_OK = 1, CLI_LINE_TOO_LONG = 2, CLI_LINE_ERROR = -1 };
/*
 * Next line without its "\n" and without one trailing "\r". CLI_LINE_TOO_LONG:
 * the line exceeded CLI_LINE_MAX; it has been skipped (in->line is its number).
 * CLI_LINE_ERROR: a read error (reported as io.read, status 2).
 */
int cli_input_line(cli *c, cli_input *in, const char **s, size_t *len);

/*
 * Buffer the start of the input without consuming it (at least `want` bytes
 * unless the input is shorter): *s, *len get what is buffered. 0, or -1 on a
 * read error (reported).
 */
int cli_input_peek(cli *c, cli_input *in, size_t want, const char **s, size_t *len);

/* Read up to cap bytes: first what is buffered, then from the file. Returns the
 * count, 0 at the end, -1 on a read error (reported). */
long cli_input_read(cli *c, cli_input *in, char *buf, size_t cap);

/*
 * Read the whole input (up to `limit` bytes) into a malloc'd buffer.
 * Returns 0, or -1 after reporting (io.read, or a size diagnostic with `code`).
 */
int cli_input_slurp(cli *c, cli_input *in, size_t limit, const char *code, char **data,
                    size_t *len);

/* Iterate over operands: argv[first..argc), or "-" when there are none. */
#define CLI_FOREACH_OPERAND(i, argc, argv, first, path)                                   \
    for (int i = (first), i##_none = ((first) >= (argc));                                 \
         i##_none ? (i == (first)) : (i < (argc)); i++)                                   \
        for (const char *path = i##_none ? "-" : (argv)[i]; path; path = NULL)

#endif
