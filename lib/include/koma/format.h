/*
 * koma/format.h — the format registry and record streams of koma-convert:
 * every format koma reads or writes, by name; what an input
 * looks like; reading any of them record by record as PCN, and writing PCN
 * records in any of them.
 *
 * Kinds of formats:
 *   POSITION  one position a line (feen, sfen, fen) or a picture (write only):
 *             read as a record with no plies; a record written in one is its
 *             final position (every position with KOMA_WRITE_EACH)
 *   MOVES     one move a line (pmn, usi-move, fen-move), played from a start
 *             position (koma_format_reader_options.start), a blank line between
 *             records
 *   RECORD    game records (pcn, pcn-yaml, usi, csa, ...): the shogi-world
 *             ones go through koma/record.h
 *   DETECT    formats koma recognises but does not read (so a diagnostic can
 *             name them: "this looks like a PGN file")
 *   NOTATION  notations koma only checks (koma-validate --type): one token a
 *             line (CELL, PIN, EPIN, SIN, SNN, QPI, CGSN), or a GGN document
 *
 * Every format that can check one item alone has KOMA_FORMAT_CHECK: the
 * NOTATIONs, and FEEN, FID, PMN and PCN; the one registry serves converting,
 * checking (koma-validate --type) and detection.
 *
 * Adding a format is one module lib/fmt_NAME.c defining a struct koma_format
 * (lib/format_internal.h) and one line in the table of lib/format.c.
 */
#ifndef KOMA_FORMAT_H
#define KOMA_FORMAT_H

#include <stddef.h>
#include <koma/error.h>
#include <koma/pcn.h>
#include <koma/record.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct koma_format koma_format;

typedef enum koma_format_kind {
    KOMA_FORMAT_POSITION,
    KOMA_FORMAT_MOVES,
    KOMA_FORMAT_RECORD,
    KOMA_FORMAT_DETECT,
    KOMA_FORMAT_NOTATION
} koma_format_kind;

/* Capabilities. */
#define KOMA_FORMAT_READ  0x1u
#define KOMA_FORMAT_WRITE 0x2u
#define KOMA_FORMAT_CHECK 0x4u     /* koma_format_check checks one item alone */

/* By name or alias ("csa", "yaml", "json"...), exactly; NULL when unknown.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const koma_format *koma_format_find(const char *name, size_t len);
/* Ownership: none. */
KOMA_API size_t koma_format_count(void);
/* Ownership: the result is static (the library's constant data). */
KOMA_API const koma_format *koma_format_at(size_t i);
/* Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_format_name(const koma_format *f);
/* Space-separated aliases, or "".
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_format_aliases(const koma_format *f);
/* A short description: "CSA records (V2.2, V3.0)".
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_format_title(const koma_format *f);
/* Ownership: none. */
KOMA_API koma_format_kind koma_format_kind_of(const koma_format *f);
/* Ownership: none. */
KOMA_API unsigned koma_format_caps(const koma_format *f);
/* What one item of a KOMA_FORMAT_CHECK format is called when it is checked
 * ("FEEN positions", "CELL coordinates"); NULL for the others.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_format_check_title(const koma_format *f);
/* 1 when a checked input holds one item a line (FEEN, CELL, PMN...), 0 when it
 * is read whole or as a stream of records (GGN, PCN). Ownership: none. */
KOMA_API int koma_format_check_lines(const koma_format *f);
/* Check one item s[0..len): a line of a line notation (FEEN strictly, PMN
 * canonical, one move or a chain), a GGN document, one PCN record (JSON). 0,
 * or -1 with err (the notation's codes; memory). A format without
 * KOMA_FORMAT_CHECK: -1 with internal. Ownership: none. */
KOMA_API int koma_format_check(const koma_format *f, const char *s, size_t len, koma_error *err);
/* The format of one line of FEEN or PMN, sniffed: FEEN when the line has
 * exactly two spaces, PMN otherwise (koma-validate --type auto's lines).
 * Ownership: the result is static (the library's constant data). */
KOMA_API const koma_format *koma_format_of_line(const char *s, size_t len);

/* For the PCN formats: their koma_pcn_format (1); 0 for the others. Ownership: none. */
KOMA_API int koma_format_pcn(const koma_format *f, koma_pcn_format *out);

/*
 * What the start of an input s[0..len) looks like: the format that claims it
 * most surely, with *confidence (may be NULL) 1 (might be), 2 (likely) or 3
 * (sure); NULL (confidence 0) when none does. DETECT formats take part.
 * at_end: s is the whole input.
 * Ownership: the result is static (the library's constant data).
 */
KOMA_API const koma_format *koma_format_detect(const char *s, size_t len, int at_end,
                                               int *confidence);

/* The name koma gives a text encoding it reads ("EUC-JP" for "eucjp"): UTF-8,
 * Shift_JIS, EUC-JP, UTF-16LE, UTF-16BE, UTF-16 (see koma_format_reader_options);
 * NULL when it reads no such encoding.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_encoding_name(const char *name, size_t len);

/* ---- reading --------------------------------------------------------------------- */

/* A sized struct (koma/version.h): set up with KOMA_FORMAT_READER_OPTIONS_INIT. */
typedef struct koma_format_reader_options {
    size_t size;                   /* sizeof(koma_format_reader_options), by the _INIT macro */
    const char *start;             /* MOVES: the start FEEN (NULL: the format's default,
                                      the shogi start for USI moves) */
    size_t start_len;
    unsigned pcn_flags;            /* PCN formats: koma_pcn_reader_new flags */
    unsigned feen_flags;           /* feen: KOMA_FEEN_NORMALISE accepts loose hands */
    const char *encoding;          /* KIF, KI2, CSA: the text's encoding, which the
                                      records' own marks, declarations and bytes then do
                                      not decide: UTF-8, Shift_JIS (SJIS, CP932), EUC-JP
                                      (EUCJP), UTF-16LE, UTF-16BE or UTF-16 (its byte
                                      order mark says which, else LE), any case; NULL:
                                      found per record. UTF-16 input of any format is
                                      made UTF-8 first (found by its byte order mark when
                                      NULL); koma_format_reader_new refuses another name
                                      (convert.encoding). */
} koma_format_reader_options;
#define KOMA_FORMAT_READER_OPTIONS_INIT {.size = sizeof(koma_format_reader_options)}

typedef struct koma_format_reader koma_format_reader;

/*
 * A reader of one input in format fmt (NULL: detected from the first bytes; an
 * input that looks like nothing koma reads is one convert.format diagnostic).
 * With an explicit format, an input whose first record does not parse but
 * that looks like another format gets convert.format naming it ("looks like
 * CSA, not PCN YAML") instead of the parser's error, and the rest of that
 * input is not read. Push mode, as koma_pcn_reader: feed chunks, call next
 * until KOMA_PCN_AGAIN, finish at the end of the input. Records are at most
 * 16 MiB (convert.size otherwise, the record skipped).
 * Ownership: the caller frees *out with koma_format_reader_free; h is borrowed until then.
 */
KOMA_API int koma_format_reader_new(koma_hub *h, const koma_format *fmt,
                                    const koma_format_reader_options *opt,
                                    koma_format_reader **out, koma_error *err);
/* Ownership: frees rs and what it owns. */
KOMA_API void koma_format_reader_free(koma_format_reader *rs);
/* Ownership: none. */
KOMA_API int koma_format_reader_feed(koma_format_reader *rs, const char *data, size_t len,
                                     koma_error *err);
/* Ownership: none. */
KOMA_API void koma_format_reader_finish(koma_format_reader *rs);
/* KOMA_PCN_RECORD (*out: the caller frees), KOMA_PCN_INVALID (err: line and
 * column in the whole input), KOMA_PCN_AGAIN, KOMA_PCN_END, KOMA_PCN_FATAL.
 * Ownership: the caller frees *out with koma_pcn_free. */
KOMA_API int koma_format_reader_next(koma_format_reader *rs, koma_pcn **out, koma_error *err);
/* The first line of the record last returned. Ownership: none. */
KOMA_API unsigned long koma_format_reader_line(const koma_format_reader *rs);
/*
 * The text of the record last returned (KOMA_PCN_RECORD or KOMA_PCN_INVALID):
 * its bytes as read, without what separates it from the next record (CSA's
 * "/" line, the blank line after a run of moves, a line's line feed); for the
 * PCN formats koma_pcn_reader_text. *fmt (may be NULL) gets the record's
 * format (a PCN input read record by record as JSON or YAML: that record's).
 * NULL when there is no text (an over-long record). Valid until the next call
 * on rs.
 * Ownership: the result is borrowed from rs until the next call on rs; *fmt is static.
 */
KOMA_API const char *koma_format_reader_text(const koma_format_reader *rs, size_t *len,
                                       const koma_format **fmt);

/* 1 when the record last returned (or found invalid) came with a warning:
 * something its reader noticed without refusing it, such as a declared
 * encoding its bytes contradict (convert.encoding; located as errors are),
 * copied into *out; else 0. Ownership: none. */
KOMA_API int koma_format_reader_warning(const koma_format_reader *rs, koma_error *out);
/* The format being read (after detection; NULL before it).
 * Ownership: the result is static (the library's constant data). */
KOMA_API const koma_format *koma_format_reader_format(const koma_format_reader *rs);
/* Where the value at a JSON pointer of the last record is in the input: for
 * PCN formats as koma_pcn_reader_locate; for the shogi-world records, a ply
 * ("/plies/N...") is its move's line and column and "/outcome..." the
 * ending's, when the reader noted them; -1 otherwise. Ownership: none. */
KOMA_API int koma_format_reader_locate(const koma_format_reader *rs, const char *pointer,
                                 unsigned long *line, unsigned long *column);

/* ---- writing --------------------------------------------------------------------- */

#define KOMA_WRITE_EACH   0x1u     /* POSITION formats: every position of a record */
#define KOMA_WRITE_PRETTY 0x2u     /* pcn: indented JSON */
#define KOMA_WRITE_SHIFT_JIS 0x4u  /* kif, ki2: Shift_JIS (default: UTF-8, or the encoding
                                      of a record read from a Shift_JIS or EUC-JP KIF or
                                      KI2) */
#define KOMA_WRITE_UTF8   0x8u     /* kif, ki2: UTF-8 always */
#define KOMA_WRITE_DROP_TIMES      0x10u  /* shogi-world record formats: leave the times out */
#define KOMA_WRITE_DROP_VARIATIONS 0x20u  /* shogi-world record formats: the main line only */

typedef struct koma_format_writer koma_format_writer;

/* Ownership: the caller frees *out with koma_format_writer_free; h is borrowed until then. */
KOMA_API int koma_format_writer_new(koma_hub *h, const koma_format *fmt, unsigned flags,
                                    koma_format_writer **out, koma_error *err);
/* Ownership: frees ws and what it owns. */
KOMA_API void koma_format_writer_free(koma_format_writer *ws);
/*
 * Append one record's text to out. A record the format cannot hold (an Ōgi
 * record as CSA, a pass as a USI move) is convert.unrepresentable, naming
 * what; out is then unchanged. The text of several records, in order, is a
 * valid file of the format (CSA records are separated by "/" lines).
 */
/*
 * One output a position (position formats; koma-convert -o): from now on the
 * positions koma_format_writer_record writes (the last of each record, or every one
 * with KOMA_WRITE_EACH) go to fn one at a time instead of to out, each written
 * as if it stood alone (no separator before it): its ply number (0 the setup),
 * its text. fn returns 0, or any other value to stop the record
 * (koma_format_writer_record then returns that value, err io.write; positions
 * already given stay given). NULL fn: back to out.
 */
typedef int (*koma_format_writer_position_fn)(void *ctx, size_t ply, const char *text, size_t len);
/* Ownership: fn and ctx are kept until changed or ws is freed. */
KOMA_API void koma_format_writer_each_position(koma_format_writer *ws,
                                               koma_format_writer_position_fn fn, void *ctx);

/* Ownership: none. */
KOMA_API int koma_format_writer_record(koma_format_writer *ws, const koma_pcn *rec, koma_buffer *out,
                                 koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
