/*
 * koma/convert.h — converting inputs from one format to another, for any front
 * end: which reader and writer settings fit together (as flags), FEEN lines
 * versus records, start positions, and one input converted record by record
 * (koma_format_reader in, koma_format_writer out) with an event for each record. The
 * caller opens inputs, prints and counts; the words of a command line (option
 * names, usage texts, file-name patterns) are the command's (koma-convert(1),
 * lib/README.md).
 */
#ifndef KOMA_CONVERT_H
#define KOMA_CONVERT_H

#include <koma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A sized struct (koma/version.h): set up with KOMA_CONVERT_OPTIONS_INIT. */
typedef struct koma_convert_options {
    size_t size;                   /* sizeof(koma_convert_options), by the _INIT macro */
    const koma_format *from;       /* NULL: detected from each input's first bytes */
    const koma_format *to;         /* the output format (not NULL) */
    unsigned write;                /* koma_format_writer_new's KOMA_WRITE_* flags */
    int normalise;                 /* FEEN in: hands not aggregated or not in order
                                      accepted (KOMA_FEEN_NORMALISE) */
    const char *start;             /* MOVES in: the start position, FEEN or SFEN
                                      (NULL: the format's default) */
    int split;                     /* position formats: one output a position, given
                                      to koma_converter_each_position's function */
    const char *encoding;          /* the input's text encoding (KIF, KI2, CSA:
                                      koma_format_reader_options.encoding); NULL: found per
                                      record */
} koma_convert_options;
#define KOMA_CONVERT_OPTIONS_INIT {.size = sizeof(koma_convert_options)}

/* What does not fit in a koma_convert_options (koma_convert_check's bits). */
#define KOMA_CONVERT_UNFIT_TO          0x001u  /* koma does not write `to` */
#define KOMA_CONVERT_UNFIT_FROM        0x002u  /* koma does not read `from` */
#define KOMA_CONVERT_UNFIT_NORMALISE   0x004u  /* normalise, but neither format is FEEN */
#define KOMA_CONVERT_UNFIT_WRITE       0x008u  /* write has flags the writer of `to` does
                                                  not take (koma_convert_write_flags) */
#define KOMA_CONVERT_UNFIT_SPLIT       0x010u  /* split, but `to` is not a position format */
#define KOMA_CONVERT_UNFIT_JOINED      0x020u  /* SVG with KOMA_WRITE_EACH, not split: SVG
                                                  documents cannot be concatenated */
#define KOMA_CONVERT_UNFIT_START       0x040u  /* start is neither FEEN nor SFEN */
#define KOMA_CONVERT_UNFIT_NO_START    0x080u  /* no start, and `from` has no default one
                                                  (pmn) */
#define KOMA_CONVERT_UNFIT_START_UNUSED 0x100u /* start, but `from` is not a MOVES format
                                                  (or is detected) */
#define KOMA_CONVERT_UNFIT_SIZE        0x200u  /* o->size is not a size of koma_convert_options
                                                  this library knows (err: api.size; the
                                                  only bit then) */

/*
 * 0 when the options fit together; else the KOMA_CONVERT_UNFIT_* bits of every
 * misfit, so that a front end can name each in its own words. With
 * KOMA_CONVERT_UNFIT_START, err (may be NULL) says why the start is not a
 * position (koma_convert_start's error); err is cleared otherwise.
 * Ownership: none.
 */
KOMA_API unsigned koma_convert_check(const koma_convert_options *o, koma_error *err);

/* The KOMA_WRITE_* flags the writer of `to` takes: EACH for the position formats,
 * PRETTY for the PCN formats (YAML is indented anyway) and JKF, UTF8 and
 * SHIFT_JIS for KIF and KI2, DROP_TIMES and DROP_VARIATIONS for the shogi-world
 * record formats (every RECORD format but PCN's); 0 for a format koma does not
 * write. Ownership: none. */
KOMA_API unsigned koma_convert_write_flags(const koma_format *to);

/* 1 when the input is converted FEEN line by FEEN line (FEEN out, FEEN or
 * detected in, no KOMA_WRITE_EACH, not split, no start); 0 when record by record.
 * Ownership: none. */
KOMA_API int koma_convert_feen_lines(const koma_convert_options *o);
/* With koma_convert_feen_lines and no `from`: 1 when an input starting with
 * s[0..len) (at_end: all of it) stays on the FEEN line path (it looks like FEEN,
 * or like nothing koma knows); 0 when it is another format, read as records.
 * Ownership: none. */
KOMA_API int koma_convert_input_is_feen(const char *s, size_t len, int at_end);

/* A start position, FEEN or SFEN, as canonical FEEN into feen[cap] (NUL-terminated;
 * *len_out its length). On error, err is the FEEN parser's (memory: either's).
 * Ownership: none. */
KOMA_API int koma_convert_start(const char *s, size_t len, char *feen, size_t cap, size_t *len_out,
                                koma_error *err);

/* ---- the converter ------------------------------------------------------------------ */

typedef struct koma_converter koma_converter;

/* What happened to one record. */
typedef enum koma_convert_event_kind {
    KOMA_CONVERT_RECORD,           /* converted: text[0..len) is its output (may be empty
                                      when its positions went to koma_converter_each_position) */
    KOMA_CONVERT_INVALID,          /* it could not be read: err (line and column in the input) */
    KOMA_CONVERT_UNWRITABLE,       /* read, but not written: err (its line, column 1) */
    KOMA_CONVERT_FATAL             /* the input cannot be read further: err */
} koma_convert_event_kind;

typedef struct koma_convert_event {
    koma_convert_event_kind kind;
    unsigned long line;            /* the record's first line in the input */
    const char *text;              /* KOMA_CONVERT_RECORD */
    size_t len;
    const koma_error *err;         /* the other kinds */
    const koma_error *warning;     /* RECORD, INVALID: what the reader noticed without
                                      refusing the record (koma_format_reader_warning), or NULL */
} koma_convert_event;

/* Called for each record, in order; return 0 to go on, any other value to stop
 * the input (koma_converter_input then returns it). */
typedef int (*koma_convert_fn)(void *ctx, const koma_convert_event *ev);

/* A converter, into *out, for options that koma_convert_check finds fitting; -1 with err
 * (memory, a start that is not a position, or the writer cannot be made).
 * Ownership: the caller frees *out with koma_converter_free. */
KOMA_API int koma_converter_new(const koma_convert_options *o, koma_converter **out,
                                koma_error *err);
/* Ownership: frees cv and what it owns. */
KOMA_API void koma_converter_free(koma_converter *cv);

/* One output a position (as koma_format_writer_each_position; options with split), with
 * the number of the record (1-based, counted over every input, unreadable records
 * included). NULL fn: positions back in the record's text. */
typedef int (*koma_convert_position_fn)(void *ctx, unsigned long record, size_t ply,
                                        const char *text, size_t len);
/* Ownership: fn and ctx are kept until changed or cv is freed. */
KOMA_API void koma_converter_each_position(koma_converter *cv, koma_convert_position_fn fn,
                                           void *ctx);

/*
 * Convert one input, read through rd, record by record, calling fn for each
 * (progress: fn is called once a record). Returns 0 when the input ended: read
 * to its end, rd failed, or a KOMA_CONVERT_FATAL event; fn's non-zero value
 * when fn stopped it; -1 with err when it could not be converted (memory, a
 * reader that cannot be made, a chunk the reader refuses).
 * Ownership: none.
 */
KOMA_API int koma_converter_input(koma_converter *cv, koma_read_fn rd, void *rd_ctx,
                                  koma_convert_fn fn, void *ctx, koma_error *err);

/*
 * One FEEN line of an input on the FEEN line path (koma_convert_feen_lines): its
 * canonical FEEN and a newline told to fn as KOMA_CONVERT_RECORD, or the parser's
 * error (at `line`) as KOMA_CONVERT_INVALID. s NULL: a line that could not be
 * read, *bad says why (KOMA_CONVERT_INVALID with it). Returns fn's answer.
 * Ownership: none.
 */
KOMA_API int koma_converter_line(koma_converter *cv, const char *s, size_t len, unsigned long line,
                                 const koma_error *bad, koma_convert_fn fn, void *ctx);

/* What a converter met so far, over every input. */
typedef struct koma_convert_counts {
    unsigned long records;         /* records read (unreadable ones included) */
    unsigned long lines;           /* FEEN lines read (koma_converter_line) */
    unsigned long converted;       /* records and lines converted */
    unsigned long failed;          /* records unreadable or unwritable */
    unsigned long invalid;         /* FEEN lines invalid */
} koma_convert_counts;
/* Ownership: none. */
KOMA_API void koma_converter_counts(const koma_converter *cv, koma_convert_counts *out);

#ifdef __cplusplus
}
#endif
#endif
