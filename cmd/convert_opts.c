/*
 * cmd/convert_opts.c — koma-convert's own option handling (convert_opts.h): the
 * library says what does not fit in data (koma_convert_check's bits); the
 * option words and the messages naming them are here.
 */
#include "convert_opts.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- -o PATTERN ---------------------------------------------------------------------- */

int convert_output_pattern(const char *p, int *has_r, int *has_p)
{
    for (; *p; p++) {
        if (*p != '%') continue;
        if (*++p == '%') continue;
        for (int digits = 0; *p >= '0' && *p <= '9'; p++)
            if (++digits > 2) return -1;
        if (*p == 'r') *has_r = 1;
        else if (*p == 'p') *has_p = 1;
        else return -1;
    }
    return 0;
}

int convert_output_name(const char *pat, unsigned long record, size_t ply, char *buf, size_t cap)
{
    const unsigned long values[] = {record, (unsigned long)ply};
    return cli_file_name(pat, "rp", values, buf, cap);
}

/* ---- --drop, --encoding -------------------------------------------------------------- */

int convert_drop_flags(const char *words, unsigned *flags, const char **bad, size_t *bad_len)
{
    for (const char *p = words, *e; *p; p = *e ? e + 1 : e) {
        e = strchr(p, ',');
        if (e == NULL) e = p + strlen(p);
        size_t n = (size_t)(e - p);
        if (n == 5 && strncmp(p, "times", 5) == 0) *flags |= KOMA_WRITE_DROP_TIMES;
        else if (n == 10 && strncmp(p, "variations", 10) == 0) *flags |= KOMA_WRITE_DROP_VARIATIONS;
        else {
            *bad = p;
            *bad_len = n;
            return -1;
        }
    }
    return 0;
}

unsigned convert_encoding_flag(const char *name)
{
    if (strcasecmp(name, "utf-8") == 0 || strcasecmp(name, "utf8") == 0) return KOMA_WRITE_UTF8;
    if (strcasecmp(name, "shift_jis") == 0 || strcasecmp(name, "sjis") == 0 || strcasecmp(name, "cp932") == 0)
        return KOMA_WRITE_SHIFT_JIS;
    return 0;
}

/* ---- --list ---------------------------------------------------------------------------- */

static void list_line(FILE *f, const char *name, const char *caps, const char *kind, const char *title,
                      const char *aliases)
{
    fprintf(f, "%-9s %-5s %-8s %s%s%s%s\n", name, caps, kind, title, aliases[0] ? " (also " : "", aliases,
            aliases[0] ? ")" : "");
}

void convert_list(FILE *f)
{
    static const char *kinds[] = {"position", "moves", "record", "recognised only"};
    for (size_t i = 0; i < koma_format_count(); i++) {
        const koma_format *fmt = koma_format_at(i);
        unsigned caps = koma_format_caps(fmt) & (KOMA_FORMAT_READ | KOMA_FORMAT_WRITE);
        if (koma_format_kind_of(fmt) == KOMA_FORMAT_NOTATION) continue;   /* checked only */
        list_line(f, koma_format_name(fmt),
                  caps == (KOMA_FORMAT_READ | KOMA_FORMAT_WRITE) ? "rw" : caps & KOMA_FORMAT_READ ? "r" :
                  caps & KOMA_FORMAT_WRITE ? "w" : "-",
                  kinds[koma_format_kind_of(fmt)], koma_format_title(fmt), koma_format_aliases(fmt));
    }
    list_line(f, "ggn", "w", "game", "the move patterns of a game (--game), as GGN", "");
}

/* ---- options that do not fit ------------------------------------------------------------ */

#define FAIL(...) do { snprintf(msg, cap, __VA_ARGS__); return -1; } while (0)

int convert_check(const koma_convert_options *o, const char *output, char *msg, size_t cap)
{
    const koma_format *to = o->to, *from = o->from;
    koma_error err;
    unsigned bad = koma_convert_check(o, &err);
    unsigned unfit = o->write & ~koma_convert_write_flags(to);
    int each = (o->write & KOMA_WRITE_EACH) != 0, has_r = 0, has_p = 0;
    if (output && convert_output_pattern(output, &has_r, &has_p) != 0)
        FAIL("-o %s: only %%r (record), %%p (ply) and %%%% may follow '%%'", output);
    if (bad & KOMA_CONVERT_UNFIT_TO)
        FAIL("koma does not write %s (%s)", koma_format_name(to), koma_format_title(to));
    if (bad & KOMA_CONVERT_UNFIT_FROM)
        FAIL("koma does not read %s (%s)", koma_format_name(from), koma_format_title(from));
    if (bad & KOMA_CONVERT_UNFIT_NORMALISE) FAIL("--normalise needs --to feen or --from feen");
    if (unfit & KOMA_WRITE_EACH)
        FAIL("--each needs a position format (--to svg, ascii, unicode, feen, sfen, fen, fid)");
    if (bad & KOMA_CONVERT_UNFIT_SPLIT)
        FAIL("-o needs a position format (--to svg, ascii, unicode, feen, sfen, fen, fid)");
    if (output && each && !has_p) FAIL("-o %s with --each: add %%p (the ply) to name one file a position", output);
    if (bad & KOMA_CONVERT_UNFIT_JOINED)
        FAIL("--to svg --each draws one picture a position: name their files with "
             "-o PATTERN (%%p the ply, %%r the record)");
    if (unfit & KOMA_WRITE_PRETTY) FAIL("--pretty needs --to pcn or jkf");
    if (unfit & (KOMA_WRITE_UTF8 | KOMA_WRITE_SHIFT_JIS)) FAIL("--encoding needs --to kif or ki2");
    if (unfit & (KOMA_WRITE_DROP_TIMES | KOMA_WRITE_DROP_VARIATIONS))
        FAIL("--drop needs --to csa, usi, kif, ki2 or jkf (PCN keeps everything)");
    if (bad & KOMA_CONVERT_UNFIT_START)
        FAIL("--start: column %lu: %s: %s", err.column, koma_code_name(err.code), err.message);
    if (bad & KOMA_CONVERT_UNFIT_NO_START) FAIL("--from pmn needs --start POSITION (the moves' start)");
    if (bad & KOMA_CONVERT_UNFIT_START_UNUSED) FAIL("--start needs --from pmn, usi-move or fen-move");
    if (cap) msg[0] = '\0';
    return 0;
}
