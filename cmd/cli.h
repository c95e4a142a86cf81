/*
 * cmd/cli.h — what every koma command shares: the contract of koma(7),
 * COMMON CONTRACT.
 *
 *   diagnostics  prog: FILE:LINE:COL: CODE: message        (stderr, one per line)
 *   exit status  0 all good, 1 invalid data / difference / rule triggered,
 *                2 usage, I/O or memory trouble (2 wins over 1); never 126+
 *   stdout       data only; a closed pipe ends the program quietly
 *   input        FILE operands, none or "-" = stdin (named "<stdin>")
 *   options      -q, --json, --summary, -h/--help, --version (cli_option)
 *   progress     on stderr when it is a terminal, never otherwise (cli_progress)
 */
#ifndef KOMA_CLI_H
#define KOMA_CLI_H

#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <koma/koma.h>

#include "game_ids.h"                /* KOMA_GAME_IDS, generated from lib/games/ */

enum { CLI_OK = 0, CLI_DATA = 1, CLI_TROUBLE = 2 };

#define CLI_LINE_MAX KOMA_LIMIT_LINE       /* 1 MiB: longest line of a line format */
#define CLI_RECORD_MAX KOMA_LIMIT_RECORD   /* 16 MiB: largest record */

/* The state of the progress line (cli_progress). */
typedef struct cli_meter {
    unsigned long long count;              /* items counted by cli_progress_step */
    unsigned long stride, pending;         /* the clock is read every `stride` calls */
    double start, checked, shown;          /* first call, last clock reading, last line */
    int on_screen;                         /* a progress line is on the terminal */
} cli_meter;

typedef struct cli {
    const char *prog;                      /* "koma-validate" */
    void (*usage)(FILE *);                 /* the tool's --help text */
    int status;                            /* worst status so far */
    int quiet;                             /* -q: no data output, no data diagnostics */
    int json;                              /* --json: diagnostics as JSON Lines on stdout */
    FILE *json_diag;                       /* --json: where diagnostics go instead of stdout
                                              (a tool gathering one object an item), or NULL */
    int summary;                           /* --summary: end with counts */
    int progress;                          /* stderr is a terminal: progress allowed */
    cli_meter meter;
} cli;

/* Set up: ignore SIGPIPE (so a closed pipe is an EPIPE we handle), buffer stdout.
 * usage prints the tool's --help text. */
void cli_init(cli *c, const char *prog, void (*usage)(FILE *));

/* Raise the exit status (2 wins over 1). */
void cli_fail(cli *c, int status);

/* Finish: clear the progress line, flush stdout; a write error other than EPIPE
 * -> io.write, status 2. Returns the exit status to return from main. */
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

/*
 * A warning: a data diagnostic that fails nothing (the exit status stays as it
 * is), about something a reader noticed and got past, such as a declared
 * encoding the bytes contradict: `prog: FILE:LINE:COL: CODE: warning: message`
 * on stderr, or with --json the diagnostic object with "severity":"warning".
 * Silent with -q.
 */
void cli_warning(cli *c, const char *file, const koma_error *w);

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

/* ---- options ------------------------------------------------------------------ */

/* Long options every tool spells the same way; a tool's own long options take
 * values from CLI_OPT_OWN on. */
enum { CLI_OPT_JSON = 0x100, CLI_OPT_SUMMARY, CLI_OPT_VERSION, CLI_OPT_OWN };
#define CLI_OPTION_JSON {"json", no_argument, NULL, CLI_OPT_JSON}
#define CLI_OPTION_SUMMARY {"summary", no_argument, NULL, CLI_OPT_SUMMARY}
/* -q, -h, --version and the end of the table: the last entries of every table. */
#define CLI_OPTIONS_END                                                                   \
    {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},                  \
    {"version", no_argument, NULL, CLI_OPT_VERSION}, {NULL, 0, NULL, 0}

/* getopt_long, quiet (opterr = 0): cli_option reports what it does not know. */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

enum { CLI_OPTION_TAKEN = -1 };
/*
 * An option of getopt_long that the tool does not handle itself: -q, --json,
 * --summary (set in c), -h (c->usage on stdout), --version, or an invalid one
 * (a usage error). Returns CLI_OPTION_TAKEN when parsing goes on, otherwise the
 * exit status for main to return (0 after --help or --version, 2 on error).
 */
int cli_option(cli *c, int opt, char **argv);

/* ---- progress ----------------------------------------------------------------- */

/*
 * Progress of a long run on stderr (koma(7), COMMON CONTRACT), only when stderr is a
 * terminal, and not with -q (which prints nothing): one line,
 * `prog: 12345 records, 20500/s` (`prog: 3/30 root moves` when the total is
 * known), rewritten in place at most four times a second and first shown a
 * quarter of a second into the run; cheap to call for every item (the clock
 * is read only every so many calls). The line is cleared before any
 * diagnostic, by cli_progress_end and by cli_finish. When stdout is a terminal
 * too, stdout is flushed first and the cursor left at the start of the line,
 * so data overwrites the progress rather than following it.
 */
void cli_progress(cli *c, unsigned long long done, unsigned long long total, const char *noun);
/* One more item done (counted across inputs): cli_progress with that count. */
void cli_progress_step(cli *c, const char *noun);
/* n items at once (lines taken in bulk) */
void cli_progress_steps(cli *c, const char *noun, unsigned long long n);
/* Clear the progress line, if one is shown. */
void cli_progress_end(cli *c);

/* ---- JSON output ------------------------------------------------------------ */

/* Write s[0..len) as a JSON string (quotes included); invalid UTF-8 -> U+FFFD. */
void cli_json_string(FILE *f, const char *s, size_t len);
static inline void cli_json_cstr(FILE *f, const char *s) { cli_json_string(f, s, s ? strlen(s) : 0); }
/* Write the value at pointer of a PCN record as compact JSON (numbers as
 * koma_pcn_get gives them; "(absent)" when the pointer does not resolve).
 * 0, or -1 when out of memory. */
int cli_json_pcn(FILE *f, const koma_pcn *p, const char *pointer);

/* ---- input ------------------------------------------------------------------ */

typedef struct cli_input {
    int fd;
    const char *name;                      /* display name: the path or "<stdin>" */
    char *buf;
    size_t cap, pos, end;
    unsigned long line;                    /* number of the line last returned */
    int eof;
    /* cli_input_map: buf points into a window of the file's mapping */
    int map_on;
    char *heap;                            /* the read buffer meanwhile */
    char *map;                             /* the window mapped, map_len bytes */
    size_t map_len;
    unsigned long long foff;               /* the file's offset of buf[end] */
} cli_input;

/* Open path ("-" = stdin). On failure: io.open diagnostic, status 2, returns -1. */
int cli_input_open(cli *c, cli_input *in, const char *path);
void cli_input_close(cli_input *in);

enum { CLI_LINE_EOF = 0, CLI_LINE_OK = 1, CLI_LINE_TOO_LONG = 2, CLI_LINE_ERROR = -1 };
/*
 * Next line without its "\n" and without one trailing "\r" (nor, on line 1, a
 * UTF-8 byte-order mark: koma_bom_len). CLI_LINE_TOO_LONG:
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

/*
 * As cli_input_peek, but *len is at most `want`: what a format is sniffed from
 * is the same bounded look whatever was buffered (a read() of 1 MiB, a mapped
 * window of 8 MiB). *at_end: 1 when *s holds the rest of the input.
 */
int cli_input_look(cli *c, cli_input *in, size_t want, const char **s, size_t *len, int *at_end);

/* Read up to cap bytes: first what is buffered, then from the file. Returns the
 * count, 0 at the end, -1 on a read error (reported). */
long cli_input_read(cli *c, cli_input *in, char *buf, size_t cap);

/*
 * Read the whole input (up to `limit` bytes) into a malloc'd buffer.
 * Returns 0, or -1 after reporting (io.read, or a size diagnostic with `code`).
 */
int cli_input_slurp(cli *c, cli_input *in, size_t limit, const char *code, char **data,
                    size_t *len);

/* A line over CLI_LINE_MAX (CLI_LINE_TOO_LONG): fill err with its line.length
 * error (line in->line, the column after the limit). */
void cli_line_too_long(const cli_input *in, koma_error *err);

/*
 * Every line of in: fn(ctx, s, len), in->line being its number; s is NULL for
 * a line over CLI_LINE_MAX (skipped; the caller reports it, cli_line_too_long).
 * Each line is a progress step when noun is not NULL ("lines"). Stops at the
 * end, at a read error (reported), when stdout is broken, or when fn returns
 * non-zero: that value is returned (0 otherwise).
 */
int cli_input_lines(cli *c, cli_input *in, const char *noun,
                    int (*fn)(void *ctx, const char *s, size_t len), void *ctx);

/* cli_input_lines, where before each line (after the first, which may start with
 * a BOM) bulk may take any number of whole lines at once from the bytes read so
 * far, s[0..n): it returns the bytes they take, *lines gets how many. They are
 * counted (line numbers, the progress meter) but not handed to fn. */
typedef size_t (*cli_bulk_fn)(void *ctx, const char *s, size_t n, size_t *lines);
int cli_input_lines_bulk(cli *c, cli_input *in, const char *noun, cli_bulk_fn bulk,
                         int (*fn)(void *ctx, const char *s, size_t len), void *ctx);

/*
 * From here on, read a regular file (not stdin, not a pipe) from a mapping of it,
 * window by window (cmd/cli_input_map.c), instead of copying it with read(): the
 * line functions (cli_input_line, cli_input_lines, cli_input_lines_bulk),
 * cli_input_peek and cli_input_piece give the same bytes, without the copy.
 * cli_input_read and cli_input_slurp must not follow. If the file shrinks meanwhile,
 * cli_input_lines, cli_input_lines_bulk and cli_input_piece report io.read
 * (status 2) and stop; cli_input_line and cli_input_peek do not catch it (the
 * signal would end the process): read a mapped input through the others.
 * Returns 1 when mapped, 0 when the input is read as before.
 */
int cli_input_map(cli_input *in);

/*
 * The next piece of the input, at most cap bytes, handed to fn(ctx, s, n), for a
 * reader that copies what it is given into a buffer of its own: from a mapped
 * input (cli_input_map) s points into the mapping (no copy; a file that shrinks
 * under it is caught around fn: io.read, status 2), otherwise the bytes are
 * read into buf. Returns the bytes handed to fn (*rc: fn's value), 0 at the end
 * (fn not called), -1 on a read error (reported).
 */
typedef int (*cli_piece_fn)(void *ctx, const char *s, size_t n);
long cli_input_piece(cli *c, cli_input *in, char *buf, size_t cap, cli_piece_fn fn, void *ctx,
                     int *rc);
/* (cli_input.c and cli_input_map.c between them) */
int cli__input_map_fill(cli *c, cli_input *in);
void cli__input_unmap(cli_input *in);
int cli__input_lines(cli *c, cli_input *in, const char *noun, cli_bulk_fn bulk,
                     int (*fn)(void *ctx, const char *s, size_t len), void *ctx);
int cli__input_map_lines(cli *c, cli_input *in, const char *noun, cli_bulk_fn bulk,
                         int (*fn)(void *ctx, const char *s, size_t len), void *ctx);

/* Iterate over operands: argv[first..argc), or "-" when there are none. */
#define CLI_FOREACH_OPERAND(i, argc, argv, first, path)                                   \
    for (int i = (first), i##_none = ((first) >= (argc));                                 \
         i##_none ? (i == (first)) : (i < (argc)); i++)                                   \
        for (const char *path = i##_none ? "-" : (argv)[i]; path; path = NULL)

/* A file name from an output pattern (-o) of the tools that write one file a
 * record, a position or a share: "%[0][WIDTH]X" is values[i] for the letter X =
 * letters[i] (a letter not in letters: the last value; the tool checked the
 * pattern first), "%%" a '%'. 0, or -1 when the name does not fit in buf[cap]. */
int cli_file_name(const char *pat, const char *letters, const unsigned long *values, char *buf, size_t cap);

#endif
