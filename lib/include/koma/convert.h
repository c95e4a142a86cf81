/*
 * koma/convert.h — koma-convert's dispatch, as a library: which options fit
 * which reader and writer, FEEN lines versus records, and one input converted
 * record by record (koma_rstream in, koma_wstream out) with an event for each
 * record. The command opens inputs, prints and counts; the messages of
 * koma_convert_check name koma-convert's options.
 */
#ifndef KOMA_CONVERT_H
#define KOMA_CONVERT_H

#include <koma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct koma_convert_options {
    const koma_format *from;       /* NULL: detected from each input's first bytes */
    const koma_format *to;         /* the output format (not NULL) */
    unsigned write;                /* koma_wstream_new's KOMA_WRITE_* flags: --each,
                                      --pretty, --encoding, --drop */
    int normalise;                 /* FEEN in: hands not aggregated or not in order
                                      accepted (KOMA_FEEN_NORMALISE) */
    const char *start;             /* MOVES in: the start position, FEEN or SFEN
                                      (NULL: the format's default) */
    const char *output;            /* one output a position, named by this pattern
                                      (koma_convert_output_name); NULL: none */
} koma_convert_options;

/*
 * 0 when the options fit together; else -1 with a message (NUL-terminated,
 * truncated to cap) saying what does not, in this order: a format koma does not
 * write or read, --normalise without FEEN, --each or an output pattern with a
 * format that is not a position format, an output pattern with --each but no %p,
 * SVG --each without one, --pretty but not PCN or JKF, an encoding but not KIF
 * or KI2, --drop but not a shogi-world record format, a start that is neither
 * FEEN nor SFEN, PMN moves without a start, a start without a moves format.
 */
KOMA_API int koma_convert_check(const koma_convert_options *o, char *msg, size_t cap);

/* 1 when the input is converted FEEN line by FEEN line (FEEN out, FEEN or
 * detected in, no --each, no output pattern, no start); 0 when record by record. */
KOMA_API int koma_convert_feen_lines(const koma_convert_options *o);
/* With koma_convert_feen_lines and no --from: 1 when an input starting with
 * s[0..len) (at_end: all of it) stays on the FEEN line path (it looks like FEEN,
 * or like nothing koma knows); 0 when it is another format, read as records. */
KOMA_API int koma_convert_input_is_feen(const char *s, size_t len, int at_end);

/* A start position, FEEN or SFEN, as canonical FEEN into feen[cap] (NUL-terminated;
 * *len its length). On error, err is the FEEN parser's (memory: either's). */
KOMA_API int koma_convert_start(const char *s, size_t len, char *feen, size_t cap, size_t *len_out,
                                koma_error *err);

/*
 * Output patterns (koma-convert -o): %r the record number, %p the ply (0: the
 * setup), %% a '%'; %r and %p may have a width of one or two digits, a leading
 * 0 pads with zeros (%03p). koma_convert_output_pattern: 0 and which of %r, %p
 * the pattern has, or -1 when it holds another '%' sequence.
 * koma_convert_output_name: the name into buf[cap], or -1 when it does not fit.
 */
KOMA_API int koma_convert_output_pattern(const char *pattern, int *has_r, int *has_p);
KOMA_API int koma_convert_output_name(const char *pattern, unsigned long record, size_t ply,
                                      char *buf, size_t cap);

/* --drop's words (comma-separated: times, variations) as KOMA_WRITE_DROP_*
 * flags; -1 with *bad, *bad_len the word that is neither. */
KOMA_API int koma_convert_drop_flags(const char *words, unsigned *flags, const char **bad,
                                     size_t *bad_len);
/* --encoding's name (utf-8, utf8; shift_jis, sjis, cp932; any case) as
 * KOMA_WRITE_UTF8 or KOMA_WRITE_SHIFT_JIS; 0 when it is neither. */
KOMA_API unsigned koma_convert_encoding_flag(const char *name);

/* The formats, one a line (name, rw/r/w/-, kind, title, aliases), GGN last: the
 * text of koma-convert --list into buf[cap] (NUL-terminated, truncated); its length. */
KOMA_API size_t koma_convert_list(char *buf, size_t cap);

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
} koma_convert_event;

/* Called for each record, in order; return 0 to go on, -1 to stop the input. */
typedef int (*koma_convert_fn)(void *ctx, const koma_convert_event *ev);
/* Reads up to cap bytes of the input into buf: the count, 0 at its end, -1 on an
 * error (which the reader reports). */
typedef long (*koma_convert_read_fn)(void *ctx, char *buf, size_t cap);

/* A converter for options that pass koma_convert_check; NULL with err (memory, or
 * the writer cannot be made). */
KOMA_API koma_converter *koma_converter_new(const koma_convert_options *o, koma_error *err);
KOMA_API void koma_converter_free(koma_converter *cv);

/* One output a position (as koma_wstream_each_position), with the number of the
 * record (1-based, counted over every input, unreadable records included). */
typedef int (*koma_convert_position_fn)(void *ctx, unsigned long record, size_t ply,
                                        const char *text, size_t len);
KOMA_API void koma_converter_each_position(koma_converter *cv, koma_convert_position_fn fn,
                                           void *ctx);

/*
 * Convert one input, read through rd, record by record, calling fn for each
 * (progress: fn is called once a record). Returns 0 when the input ended: read
 * to its end, stopped by fn, rd failed, or a KOMA_CONVERT_FATAL event; -1 with
 * err when it could not be converted (memory, a reader that cannot be made, a
 * chunk the reader refuses).
 */
KOMA_API int koma_converter_input(koma_converter *cv, koma_convert_read_fn rd, void *rd_ctx,
                                  koma_convert_fn fn, void *ctx, koma_error *err);

/*
 * One FEEN line of an input on the FEEN line path (koma_convert_feen_lines): its
 * canonical FEEN and a newline told to fn as KOMA_CONVERT_RECORD, or the parser's
 * error (at `line`) as KOMA_CONVERT_INVALID. s NULL: a line that could not be
 * read, *bad says why (KOMA_CONVERT_INVALID with it). Returns fn's answer.
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
KOMA_API void koma_converter_counts(const koma_converter *cv, koma_convert_counts *out);

#ifdef __cplusplus
}
#endif
#endif
