/*
 * cmd/records.h — opening the inputs that hold game records, for koma-validate,
 * koma-replay, koma-repetition-check and koma-diff (koma-formats(5), PCN and
 * STREAMS; koma(7), COMMON CONTRACT):
 *
 *   PCN databases  JSON Lines or a YAML stream, the format given by --format or
 *                  decided record by record by the library (KOMA_PCN_AUTO: a
 *                  BOM, a broken or over-long line never loses the other
 *                  records); an input that looks like another format (CSA,
 *                  KIF, PGN...: koma_format_detect) gets one convert.format
 *                  diagnostic naming it instead; read record by record (pull:
 *                  records_next, or push: records_each), each record with its
 *                  source (file, first line, and a function that locates a
 *                  value of the record by JSON pointer, for diagnostics)
 *   --start FEEN   runs of PMN lines played from one position, a blank line
 *                  between records (records_moves); the FEEN is checked at
 *                  start-up (records_start_option; cmd/records_moves.c)
 *   --type auto    what an input holds: koma_sniff_input (koma/sniff.h), and
 *                  records_foreign for what koma does not read there
 *
 * Every record read is a step of the progress line (cli_progress_step).
 */
#ifndef KOMA_CMD_RECORDS_H
#define KOMA_CMD_RECORDS_H

#include "cli.h"

/* Where a record comes from, for diagnostics. */
typedef struct record_source {
    const char *file;
    unsigned long line;                    /* the record's first line */
    /* The position of the value at a JSON pointer of the record (PCN input),
     * or NULL (line input: the caller knows each move's line). 0 when found. */
    int (*locate)(void *ctx, const char *pointer, unsigned long *line, unsigned long *column);
    void *ctx;
} record_source;

/* Set *line, *column to the value at pointer when the source can locate it;
 * otherwise leave them as they are. */
void record_locate(const record_source *src, const char *pointer, unsigned long *line,
                   unsigned long *column);

/* ---- PCN databases ---------------------------------------------------------- */

typedef struct records_options {
    int format_given;                      /* --format */
    koma_pcn_format format;
    unsigned pcn_flags;                    /* koma_pcn_reader_new flags */
    const char *foreign_hint;              /* how the tool reads a foreign format it
                                              names ("--from %s"), or NULL */
    /* --from FORMAT|auto: records of any format koma reads (CSA, KIF, SFEN...)
     * through the hub (koma/format.h), made PCN: hub set (the tool's), from
     * the format or NULL for auto (detected from each input's start) */
    koma_hub *hub;
    const koma_format *from;
    koma_format_reader_options from_options;     /* --from: the reader's options (PCN flags,
                                              a moves format's start) */
    const char *encoding;                  /* --encoding: the text's (KIF, KI2, CSA), or NULL */
} records_options;

/* --format F: json or yaml. 0, or the exit status of a usage error (2). */
int records_format_option(cli *c, const char *arg, records_options *o);

/* A format to convert from or to, by name or alias (koma_format_find), the
 * notations koma only checks left out (KOMA_FORMAT_NOTATION: koma-validate's). */
const koma_format *records_format_find(const char *name);

/* --from F: a format koma reads (koma-convert --list), or auto; sets o->from
 * (NULL for auto) and *given. 0, or the exit status of a usage error (2). The
 * caller makes o->hub. */
int records_from_option(cli *c, const char *arg, records_options *o, int *given);

/* --encoding ENC: a text encoding koma reads (koma_encoding_name), for --from.
 * 0, or the exit status of a usage error (2). */
int records_encoding_option(cli *c, const char *arg, records_options *o);

/*
 * The format of another kind than `own` (a NULL-terminated list of format
 * names the caller reads here) that the start of an input s[0..len) surely
 * looks like (koma_format_detect, confidence 2 or more), or NULL. With one,
 * err gets its convert.format diagnostic at 1:1 ("this looks like csa (CSA
 * records ...), not PCN; ..."), naming how to read it: the tool's hint
 * (o->foreign_hint) or koma-convert.
 */
const koma_format *records_foreign(const char *s, size_t len, int at_end,
                                   const char *const *own, const char *what,
                                   const records_options *o, koma_error *err);

/*
 * koma-validate's FEEN lines (the default type): an input that looks like a
 * record format or PCN (records_foreign) is 1, with its one convert.format
 * diagnostic in err naming the tool that reads it (koma-validate --type pcn,
 * koma-convert --from kif...); 0 when its lines are to be checked; -1 when it
 * cannot be read (reported).
 */
int records_lines_foreign(cli *c, cli_input *in, const char *what, koma_error *err);

/* One record read, or an invalid one. */
typedef struct record_item {
    koma_pcn *rec;                         /* NULL when invalid (err says why) */
    koma_error err;                        /* invalid: the reader's error, not reported */
    record_source src;                     /* file, first line, locate */
    koma_pcn_format format;                /* of the record (decided per record) */
    const koma_pcn_reader *reader;         /* koma_pcn_reader_text: the record as read
                                              (NULL with --from: no PCN text) */
    unsigned long index;                   /* 1-based number of the record in its input */
    const char *text;                      /* --from: the record's bytes as read
                                              (koma_format_reader_text), or NULL */
    size_t text_len;
    const koma_format *text_format;        /* --from: the record's format */
} record_item;

typedef struct records_reader {
    cli *c;
    cli_input *in;
    koma_pcn_reader *r;
    koma_format_reader *rs;                      /* --from: any format, through the hub */
    koma_pcn_format format;
    char *chunk;                           /* a piece read (an input not mapped) */
    koma_error *feed_err;                  /* the item's, while a piece is fed */
    int done;
    int trouble;                           /* done on trouble, not at the input's end */
    int memory;                            /* that trouble, or records_open's, was a
                                              lack of memory */
    unsigned long records;
    const records_options *o;
    char head[4096];                       /* the input's start, for records_foreign */
    size_t headlen;
    int head_at_end;
} records_reader;

/* Open the records of in (an open input). -1 after reporting (memory, read). */
int records_open(cli *c, records_reader *rd, cli_input *in, const records_options *o);
void records_close(records_reader *rd);

enum { RECORDS_END, RECORDS_RECORD, RECORDS_INVALID };
/*
 * The next record into *item: RECORDS_RECORD (item->rec is the caller's to
 * free), RECORDS_INVALID (item->err, not reported), RECORDS_END (the end, or
 * trouble that stops the input: a read error, memory, an input the reader gives
 * up on; reported, status 2).
 */
int records_next(records_reader *rd, record_item *item);

/* Called for each record (item->rec freed after the call) and each invalid
 * one (item->rec NULL). Non-zero stops the input. */
typedef int (*records_fn)(void *ctx, record_item *item);

/* Every record of the input, a progress step each; stops early when stdout is
 * broken. */
void records_each(cli *c, cli_input *in, const records_options *o, records_fn fn, void *ctx);

/* Two files read in step, record i of one beside record i of the other
 * (koma-diff): each side's records_next answer and item; the loop ends when
 * both are at their end, when either stops on trouble (its end unknown: the
 * other's records are not "only in" it), or stdout is broken. fn takes both; an item's record is
 * freed after the call. Nothing is read when either file cannot be opened. */
typedef void (*records_pair_fn)(void *ctx, const int kind[2], record_item item[2],
                                const cli_input in[2], const records_reader rd[2]);
void records_in_step(cli *c, const char *const path[2], const records_options *o,
                     records_pair_fn fn, void *ctx);

/* ---- moves -------------------------------------------------------------------- */

/* --pmn-dialect D: pmn, seed or json-array. 0, or the exit status of a usage
 * error (2). */
int records_dialect_option(cli *c, const char *arg, koma_pmn_dialect *out);

/* ---- --start FEEN: runs of PMN lines ---------------------------------------- */

/*
 * --start ARG: a FEEN, or "start": the start position of *forced (Ōgi when
 * there is no --game, and *forced is then set to it). The FEEN must parse, a
 * game must play it (*forced, or the one its style and board give) and the
 * position fit that game. Copies the FEEN into feen (KOMA_FEEN_MAX_LEN + 1
 * bytes) and returns 0; otherwise reports a usage error (`--start: column N:
 * CODE: message` for a FEEN error, `--start: CODE: message` for the game;
 * norules_hint is added to game.norules) and returns 2.
 */
int records_start_option(cli *c, koma_game_set *games, const char *arg, const char *norules_hint,
                         const koma_game **forced, char *feen);

/* What a tool does with runs of moves (each returns 0 to go on, -2 to stop). */
typedef struct records_moves_fns {
    /* A record starts (src->line: its first line; src stays valid until end).
     * -1: the record cannot be played (reported): its moves are skipped. */
    int (*begin)(void *ctx, const record_source *src);
    /* A move s[0..len) at line, col0 bytes into it; s is NULL for a line over
     * CLI_LINE_MAX (the line.length diagnostic is given). */
    int (*move)(void *ctx, const char *s, size_t len, unsigned long line, size_t col0);
    /* The record ends: a blank line (spaces and tabs only) or the end of input. */
    int (*end)(void *ctx);
    /* An input without a single move is one record: the position itself. */
    int empty_is_record;
    /* A line that is a JSON array of Sanki moves ([[from, to, actor], ...]) is a
     * record of its own, each of its moves a ply (--pmn-dialect sanki). */
    int sanki_lists;
} records_moves_fns;

void records_moves(cli *c, cli_input *in, const records_moves_fns *fns, void *ctx);

/*
 * What an input holds, for --type auto: *kind from koma_sniff_input on its
 * first 64 KiB (a JSON document longer than that: on as much as a line may
 * hold). Lines that look like a format the caller does not check (records_foreign
 * with own and what), or a JSON document of another format (JKF) where a GGN one
 * is expected, are 1 with err; 0 otherwise; -1 on read trouble (reported).
 */
int records_sniff(cli *c, cli_input *in, const char *const *own, const char *what,
                  koma_input_kind *kind, koma_error *err);

#endif
