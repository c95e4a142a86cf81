/*
 * lib/convert.c — converting inputs between formats (koma/convert.h): which
 * reader and writer settings fit, FEEN lines versus records, start positions,
 * and the converter of one input (a koma_format_reader feeding a koma_format_writer), above
 * the format registry.
 */
#include <stdlib.h>
#include <string.h>

#include <koma/koma.h>
#include <koma/convert.h>

#include "format_internal.h"
#include "internal.h"

#define CHUNK (1 << 16)

static int is(const koma_format *f, const char *name) { return f && strcmp(koma_format_name(f), name) == 0; }

unsigned koma_convert_write_flags(const koma_format *to)
{
    if (!(koma_format_caps(to) & KOMA_FORMAT_WRITE)) return 0;
    unsigned flags = 0;
    koma_format_kind kind = koma_format_kind_of(to);
    int pcn = koma_format_pcn(to, NULL);
    if (kind == KOMA_FORMAT_POSITION) flags |= KOMA_WRITE_EACH;
    if (pcn || is(to, "jkf")) flags |= KOMA_WRITE_PRETTY;
    if (is(to, "kif") || is(to, "ki2")) flags |= KOMA_WRITE_UTF8 | KOMA_WRITE_SHIFT_JIS;
    if (kind == KOMA_FORMAT_RECORD && !pcn) flags |= KOMA_WRITE_DROP_TIMES | KOMA_WRITE_DROP_VARIATIONS;
    return flags;
}

unsigned koma_convert_check(const koma_convert_options *opt, koma_error *err)
{
    koma_convert_options own, *o = &own;
    if (koma__sized_read(&own, sizeof own, opt, KOMA__CONVERT_OPTIONS_FIRST, "koma_convert_options",
                         err) != 0)
        return KOMA_CONVERT_UNFIT_SIZE;
    const koma_format *to = o->to, *from = o->from;
    int position = koma_format_kind_of(to) == KOMA_FORMAT_POSITION;
    unsigned bad = 0;
    koma_error_clear(err);
    if (!(koma_format_caps(to) & KOMA_FORMAT_WRITE)) bad |= KOMA_CONVERT_UNFIT_TO;
    if (from && !(koma_format_caps(from) & KOMA_FORMAT_READ)) bad |= KOMA_CONVERT_UNFIT_FROM;
    if (o->normalise && !is(to, "feen") && !is(from, "feen")) bad |= KOMA_CONVERT_UNFIT_NORMALISE;
    if (o->write & ~koma_convert_write_flags(to)) bad |= KOMA_CONVERT_UNFIT_WRITE;
    if (o->split && !position) bad |= KOMA_CONVERT_UNFIT_SPLIT;
    if (!o->split && (o->write & KOMA_WRITE_EACH) && is(to, "svg")) bad |= KOMA_CONVERT_UNFIT_JOINED;
    if (o->start) {
        char feen[KOMA_FEEN_MAX_LEN + 1];
        size_t n;
        if (koma_convert_start(o->start, strlen(o->start), feen, sizeof feen, &n, err) != 0)
            bad |= KOMA_CONVERT_UNFIT_START;
        if (from == NULL || koma_format_kind_of(from) != KOMA_FORMAT_MOVES) bad |= KOMA_CONVERT_UNFIT_START_UNUSED;
    } else if (is(from, "pmn")) {
        bad |= KOMA_CONVERT_UNFIT_NO_START;
    }
    return bad;
}

int koma_convert_feen_lines(const koma_convert_options *opt)
{
    koma_convert_options own, *o = &own;
    if (koma__sized_read(&own, sizeof own, opt, KOMA__CONVERT_OPTIONS_FIRST, "koma_convert_options",
                         NULL) != 0)
        return 0;
    return is(o->to, "feen") && !(o->write & KOMA_WRITE_EACH) && !o->split &&
           (o->from == NULL || is(o->from, "feen")) && o->start == NULL;
}

int koma_convert_input_is_feen(const char *s, size_t len, int at_end)
{
    int conf = 0;
    const koma_format *f = koma_format_detect(s, len, at_end, &conf);
    return f == NULL || is(f, "feen");
}

int koma_convert_start(const char *s, size_t len, char *feen, size_t cap, size_t *len_out, koma_error *err)
{
    koma_position pos;
    koma_position_init(&pos);
    koma_error e1, e2;
    koma_error_clear(err);
    koma_error_clear(&e1);
    koma_error_clear(&e2);
    int rc = -1;
    /* out of memory is not "not FEEN": no SFEN is tried then, and the SFEN
     * parser's is reported, not the FEEN one's syntax error */
    int ok = koma_feen_parse(s, len, KOMA_FEEN_STRICT, &pos, &e1) == 0;
    if (!ok && e1.code != KOMA_E_MEMORY) {
        ok = koma_sfen_parse(s, len, &pos, &e2) == 0;
        if (!ok && e2.code == KOMA_E_MEMORY) e1 = e2;
    }
    if (!ok) {
        if (err) *err = e1;
    } else {
        size_t n = koma_feen_write(&pos, feen, cap);
        if (n < cap) {
            *len_out = n;
            rc = 0;
        } else {
            koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, "the start position's FEEN exceeds %zu bytes", cap - 1);
        }
    }
    koma_position_cleanup(&pos);
    return rc;
}

/* ---- the converter ------------------------------------------------------------------- */

struct koma_converter {
    koma_convert_options o;
    char start[KOMA_FEEN_MAX_LEN + 1];
    size_t start_len;
    koma_hub *hub;
    koma_format_writer *ws;
    koma_buffer out;
    koma_convert_position_fn position;
    void *position_ctx;
    koma_position pos;                 /* a FEEN line */
    koma_convert_counts n;
    int tree;                          /* koma__converter_tree: no PCN text written straight */
};

void koma__converter_tree(koma_converter *cv, int tree) { cv->tree = tree; }

/* 1 when a shogi-world record's PCN text is written straight from the record
 * (compact PCN JSON out): the same bytes as its tree through the writer. */
static int pcn_text(const koma_converter *cv)
{
    koma_pcn_format pf;
    return !cv->tree && koma_format_pcn(cv->o.to, &pf) && pf == KOMA_PCN_JSON && !(cv->o.write & KOMA_WRITE_PRETTY);
}

static koma_converter *new_converter(const koma_convert_options *o, koma_error *err)
{
    koma_converter *cv = calloc(1, sizeof *cv);
    if (cv == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    koma_position_init(&cv->pos);
    if (koma__sized_read(&cv->o, sizeof cv->o, o, KOMA__CONVERT_OPTIONS_FIRST, "koma_convert_options",
                         err) != 0) {
        koma_converter_free(cv);
        return NULL;
    }
    o = &cv->o;
    if (o->start && koma_convert_start(o->start, strlen(o->start), cv->start, sizeof cv->start,
                                       &cv->start_len, err) != 0) {
        koma_converter_free(cv);
        return NULL;
    }
    koma_hub_new(NULL, &cv->hub, err);
    if (cv->hub == NULL || koma_format_writer_new(cv->hub, o->to, o->write, &cv->ws, err) != 0) {
        koma_converter_free(cv);
        return NULL;
    }
    return cv;
}

int koma_converter_new(const koma_convert_options *o, koma_converter **out, koma_error *err)
{
    return KOMA__MADE(out, new_converter(o, err));
}

void koma_converter_free(koma_converter *cv)
{
    if (cv == NULL) return;
    koma_format_writer_free(cv->ws);
    koma_hub_free(cv->hub);
    koma_buffer_cleanup(&cv->out);
    koma_position_cleanup(&cv->pos);
    free(cv);
}

static int position_out(void *ctx, size_t ply, const char *text, size_t len)
{
    koma_converter *cv = ctx;
    return cv->position(cv->position_ctx, cv->n.records, ply, text, len);
}

void koma_converter_each_position(koma_converter *cv, koma_convert_position_fn fn, void *ctx)
{
    cv->position = fn;
    cv->position_ctx = ctx;
    koma_format_writer_each_position(cv->ws, fn ? position_out : NULL, fn ? cv : NULL);
}

void koma_converter_counts(const koma_converter *cv, koma_convert_counts *out) { *out = cv->n; }

int koma_converter_line(koma_converter *cv, const char *s, size_t len, unsigned long line, const koma_error *bad,
                        koma_convert_fn fn, void *ctx)
{
    koma_error err;
    koma_error_clear(&err);
    koma_convert_event ev = {KOMA_CONVERT_INVALID, line, NULL, 0, &err, NULL};
    cv->n.lines++;
    if (s == NULL) {
        err = *bad;
    } else if (koma_feen_parse(s, len, cv->o.normalise ? KOMA_FEEN_NORMALISE : KOMA_FEEN_STRICT, &cv->pos,
                               &err) == 0) {
        char buf[KOMA_FEEN_MAX_LEN + 2];
        size_t n = koma_feen_write(&cv->pos, buf, sizeof buf - 1);
        if (n < sizeof buf - 1) {
            /* n >= cap cannot happen: a normalised hand is never longer than the one read */
            buf[n] = '\n';
            cv->n.converted++;
            ev.kind = KOMA_CONVERT_RECORD;
            ev.text = buf;
            ev.len = n + 1;
            ev.err = NULL;
            return fn(ctx, &ev);
        }
        koma_error_set(&err, KOMA_E_FEEN_LENGTH, 0, "canonical FEEN exceeds 4096 bytes");
        err.column = 1;
    }
    err.line = line;
    cv->n.invalid++;
    return fn(ctx, &ev);
}

/* One record read: written in the target format, then told to fn. */
static int write_record(koma_converter *cv, unsigned long line, const koma_pcn *rec, const koma_error *warning,
                        koma_convert_fn fn, void *ctx)
{
    koma_error err;
    koma_error_clear(&err);
    koma_convert_event ev = {KOMA_CONVERT_RECORD, line, NULL, 0, NULL, warning};
    cv->n.records++;
    /* (cv->out was emptied before the record was read; rec NULL: its PCN text is
     * there already, written straight by the reader) */
    if (rec != NULL && koma_format_writer_record(cv->ws, rec, &cv->out, &err) != 0) {
        cv->n.failed++;
        if (err.code != KOMA_E_MEMORY) {
            err.line = line;
            err.column = 1;
        }
        ev.kind = KOMA_CONVERT_UNWRITABLE;
        ev.err = &err;
        return fn(ctx, &ev);
    }
    cv->n.converted++;
    ev.text = cv->out.data ? cv->out.data : "";
    ev.len = cv->out.len;
    return fn(ctx, &ev);
}

int koma_converter_input(koma_converter *cv, koma_read_fn rd, void *rd_ctx, koma_convert_fn fn,
                         void *ctx, koma_error *err)
{
    koma_format_reader_options opt = KOMA_FORMAT_READER_OPTIONS_INIT;
    opt.start = cv->o.start ? cv->start : NULL;
    opt.start_len = cv->o.start ? cv->start_len : 0;
    opt.feen_flags = cv->o.normalise ? KOMA_FEEN_NORMALISE : KOMA_FEEN_STRICT;
    opt.encoding = cv->o.encoding;
    koma_format_reader *rs = NULL;
    koma_format_reader_new(cv->hub, cv->o.from, &opt, &rs, err);
    if (rs == NULL) return -1;
    if (pcn_text(cv)) koma__format_reader_pcn_text(rs, &cv->out);
    char *chunk = malloc(CHUNK);
    if (chunk == NULL) {
        koma_format_reader_free(rs);
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    }
    int rc = 0, done = 0;
    while (!done) {
        long n = rd(rd_ctx, chunk, CHUNK);
        if (n < 0) break;
        if (n == 0) koma_format_reader_finish(rs);
        else if (koma_format_reader_feed(rs, chunk, (size_t)n, err) != 0) {
            rc = -1;
            break;
        }
        for (;;) {
            koma_pcn *rec = NULL;
            koma_error e;
            koma_error_clear(&e);
            cv->out.len = 0;           /* (the text of a record written straight) */
            int r = koma_format_reader_next(rs, &rec, &e);
            if (r == KOMA_PCN_AGAIN) break;
            if (r == KOMA_PCN_END) {
                done = 1;
                break;
            }
            koma_error w;
            koma_convert_event ev = {KOMA_CONVERT_INVALID, koma_format_reader_line(rs), NULL, 0, &e,
                                     koma_format_reader_warning(rs, &w) ? &w : NULL};
            if (r == KOMA_PCN_FATAL) {
                ev.kind = KOMA_CONVERT_FATAL;
                fn(ctx, &ev);
                done = 1;
                break;
            }
            int stop;
            if (r == KOMA_PCN_INVALID) {
                cv->n.records++;
                cv->n.failed++;
                stop = fn(ctx, &ev);
            } else {
                stop = write_record(cv, koma_format_reader_line(rs), rec, ev.warning, fn, ctx);
                koma_pcn_free(rec);
            }
            if (stop != 0) {
                rc = stop;
                done = 1;
                break;
            }
        }
        if (n == 0) break;
    }
    free(chunk);
    koma_format_reader_free(rs);
    return rc;
}
