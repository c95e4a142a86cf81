/*
 * cmd/convert_opts.h — koma-convert's own option handling, on top of the
 * library's data (koma/convert.h, koma/format.h): the words of --drop and
 * --encoding, the -o PATTERN syntax and the names it gives, the text of
 * --list, and the usage message for options that do not fit together.
 */
#ifndef KOMA_CMD_CONVERT_OPTS_H
#define KOMA_CMD_CONVERT_OPTS_H

#include "cli.h"

/*
 * -o PATTERN: %r the record number, %p the ply (0: the setup), %% a '%'; %r and
 * %p may have a width of one or two digits, a leading 0 pads with zeros (%03p).
 * convert_output_pattern: 0 and which of %r, %p the pattern has (sets *has_r,
 * *has_p to 1, leaves them otherwise), or -1 when it holds another '%' sequence.
 * convert_output_name: the name into buf[cap], or -1 when it does not fit.
 */
int convert_output_pattern(const char *pattern, int *has_r, int *has_p);
int convert_output_name(const char *pattern, unsigned long record, size_t ply, char *buf, size_t cap);

/* --drop's words (comma-separated: times, variations) added to *flags as
 * KOMA_WRITE_DROP_*; -1 with *bad, *bad_len the word that is neither. */
int convert_drop_flags(const char *words, unsigned *flags, const char **bad, size_t *bad_len);
/* --encoding's name (utf-8, utf8; shift_jis, sjis, cp932; any case) as
 * KOMA_WRITE_UTF8 or KOMA_WRITE_SHIFT_JIS; 0 when it is neither. */
unsigned convert_encoding_flag(const char *name);

/* The text of --list on f: the formats of the registry, one a line (name,
 * rw/r/w/-, kind, title, aliases), then GGN (--to ggn, not a registry format). */
void convert_list(FILE *f);

/*
 * The options o (o->split: -o PATTERN given, `output` the pattern) checked with
 * koma_convert_check: 0 when they fit; else -1 with the message of the first
 * misfit into msg[cap] (NUL-terminated), in this order: a format koma does not
 * write or read, --normalise without FEEN, --each or -o with a format that is
 * not a position format, -o with --each but no %p, SVG --each without -o,
 * --pretty but not PCN or JKF, --encoding but not KIF or KI2, --drop but not a
 * shogi-world record format, a start that is neither FEEN nor SFEN, --from pmn
 * without --start, --start without a moves format.
 */
int convert_check(const koma_convert_options *o, const char *output, char *msg, size_t cap);

#endif
