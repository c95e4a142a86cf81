/*
 * lib/pcn_stream.c — PCN databases: JSON Lines and YAML streams, one record at
 * a time, in memory bounded by the record limit (see koma/pcn.h).
 *
 * The reader keeps one buffer holding the bytes it still needs: the current
 * (partial) line, and for YAML the current document. Input is scanned line by
 * line once (memchr); the buffer is compacted when it fills, and grows only up
 * to one record plus one read chunk. A YAML stream is split into documents at
 * its document-marker lines ("---", "..." at column 1 followed by white space
 * or the end of the line), which YAML forbids inside content, so every
 * document is parsed on its own and an error never stops the stream.
 * With KOMA_PCN_AUTO the format is decided per record (auto_line): a line
 * starting with '{' outside a YAML document starts a JSON record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_json_pos.h"
#include "pcn_internal.h"

#define CHUNK ((size_t)64 * 1024)
#define MAX_READ ((size_t)1024 * 1024)

enum { CONTINUE = -2 };

struct koma_pcn_reader {
    koma_pcn_format fmt;           /* KOMA_PCN_AUTO: the format of the current record */
    int autodetect;                /* KOMA_PCN_AUTO */
    int in_json;                   /* auto: a multi-line JSON record is open (doc_start,
                                      doc_line) */
    koma_pcn_format rec_fmt;       /* the format of the record last returned */
    unsigned flags;
    koma_read_fn read;         /* NULL: push mode */
    void *ctx;
    int eof;                       /* no more input will come */
    int fatal;                     /* KOMA_OK or the code of a fatal error */

    char *buf;
    size_t cap, end;               /* buf[0..end) holds input */
    size_t ls;                     /* start of the current (partial) line */
    size_t scan;                   /* where to look for the next '\n' */
    size_t base;                   /* input offset of buf[0] */
    unsigned long line;            /* number of the line starting at ls */
    int bom_checked;

    int skipping;                  /* dropping an over-long record */
    int midline;                   /* skipping: the current line started before ls */

    /* YAML documents */
    int in_doc;                    /* a document is open */
    int has_content;
    int have_prefix;               /* comment/directive lines wait for a document */
    size_t doc_start;              /* buffer offset of the document (or prefix) text */
    unsigned long doc_line;        /* line of doc_start */
    unsigned long doc_first;       /* the document's "---" line or first content line */

    /* the record last returned */
    unsigned long rec_line;
    const char *rec_text;
    size_t rec_len;
    unsigned long rec_text_line;   /* line of rec_text[0] */

    koma_position pos;             /* scratch for setup.feen */
};

long koma_pcn_read_stdio(void *file, char *buf, size_t cap)
{
    FILE *f = file;
    size_t n = fread(buf, 1, cap, f);
    if (n == 0 && ferror(f)) return -1;
    return (long)n;
}

static koma_pcn_reader *new_pcn_reader(koma_pcn_format fmt, unsigned flags, koma_read_fn read,
                                     void *ctx, koma_error *err)
{
    koma_pcn_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    r->autodetect = (flags & KOMA_PCN_AUTO) != 0;
    r->fmt = r->rec_fmt = r->autodetect ? KOMA_PCN_YAML : fmt;
    r->flags = flags & ~KOMA_PCN_AUTO;
    r->read = read;
    r->ctx = ctx;
    r->line = 1;
    r->cap = 2 * CHUNK;
    r->buf = malloc(r->cap);
    if (r->buf == NULL) {
        free(r);
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return NULL;
    }
    koma_position_init(&r->pos);
    return r;
}

int koma_pcn_reader_new(koma_pcn_format fmt, unsigned flags, koma_read_fn read, void *ctx,
                        koma_pcn_reader **out, koma_error *err)
{
    return KOMA__MADE(out, new_pcn_reader(fmt, flags, read, ctx, err));
}

void koma_pcn_reader_free(koma_pcn_reader *r)
{
    if (r == NULL) return;
    koma_position_cleanup(&r->pos);
    free(r->buf);
    free(r);
}

/* First byte still needed. */
static size_t hold(const koma_pcn_reader *r)
{
    if (r->in_json) return r->doc_start;
    if (r->fmt == KOMA_PCN_YAML && !r->skipping && (r->in_doc || r->have_prefix))
        return r->doc_start;
    return r->ls;
}

/* Make room for at least `want` more bytes: compact, then grow. */
static int reserve(koma_pcn_reader *r, size_t want)
{
    size_t keep = hold(r);
    if (r->cap - r->end >= want) return 0;
    if (keep > 0) {
        memmove(r->buf, r->buf + keep, r->end - keep);
        r->end -= keep;
        r->ls -= keep;
        r->scan -= keep;
        if (r->doc_start >= keep) r->doc_start -= keep;
        else r->doc_start = 0;
        r->base += keep;
        if (r->cap - r->end >= want) return 0;
    }
    size_t cap = r->cap;
    while (cap - r->end < want) {
        if (cap > ((size_t)-1) / 2) return -1;
        cap *= 2;
    }
    char *nb = realloc(r->buf, cap);
    if (nb == NULL) return -1;
    r->buf = nb;
    r->cap = cap;
    return 0;
}

int koma_pcn_reader_feed(koma_pcn_reader *r, const char *data, size_t len, koma_error *err)
{
    if (len == 0) return 0;
    if (r->skipping && r->midline && r->end == 0 && r->fmt == KOMA_PCN_JSON) {
        /* dropping an over-long line: keep only what follows its end */
        const char *nl = memchr(data, '\n', len);
        if (nl == NULL) {
            r->base += len;
            return 0;
        }
        size_t drop = (size_t)(nl - data);
        r->base += drop;
        data += drop;
        len -= drop;
    }
    if (reserve(r, len)) {
        r->fatal = KOMA_E_MEMORY;
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    }
    memcpy(r->buf + r->end, data, len);
    r->end += len;
    return 0;
}

void koma_pcn_reader_finish(koma_pcn_reader *r)
{
    if (r) r->eof = 1;
}

unsigned long koma_pcn_reader_line(const koma_pcn_reader *r)
{
    return r ? r->rec_line : 0;
}

koma_pcn_format koma_pcn_reader_format(const koma_pcn_reader *r)
{
    return r ? r->rec_fmt : KOMA_PCN_JSON;
}

const char *koma_pcn_reader_text(const koma_pcn_reader *r, size_t *len)
{
    if (r == NULL || r->rec_text == NULL) return NULL;
    if (len) *len = r->rec_len;
    return r->rec_text;
}

int koma_pcn_reader_locate(const koma_pcn_reader *r, const char *pointer, unsigned long *line,
                           unsigned long *column)
{
    *line = *column = 0;
    if (r == NULL || r->rec_text == NULL || pointer == NULL) return -1;
    size_t off = 0;
    int rc = 0;
    if (r->rec_fmt == KOMA_PCN_YAML) off = koma__pcn_yaml_locate(r->rec_text, r->rec_len, pointer);
    else rc = koma__json_locate(r->rec_text, r->rec_len, pointer, &off);
    koma__offset_to_linecol(r->rec_text, r->rec_len, off, line, column);
    *line += r->rec_text_line - 1;
    return rc == 0 ? 0 : -1;
}

/* Pull more input; 1 got some, 0 end of input, -1 fatal (err set). */
static int fill(koma_pcn_reader *r, koma_error *err)
{
    if (reserve(r, CHUNK)) {
        r->fatal = KOMA_E_MEMORY;
        return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    }
    size_t room = r->cap - r->end;
    if (room > MAX_READ) room = MAX_READ;
    long n = r->read(r->ctx, r->buf + r->end, room);
    if (n < 0) {
        r->fatal = KOMA_E_IO_READ;
        char why[128];
        return koma_error_set(err, KOMA_E_IO_READ, 0, "cannot read input: %s",
                              koma__strerror(errno, why, sizeof why));
    }
    if (n == 0) {
        r->eof = 1;
        return 0;
    }
    r->end += (size_t)n;
    return 1;
}

/* Position err (relative to a record starting at buffer offset `at`, line `line`). */
static void place(koma_pcn_reader *r, koma_error *err, size_t at, unsigned long line)
{
    if (err == NULL) return;
    err->offset += r->base + at;
    if (err->line == 0) err->line = 1;
    err->line += line - 1;
}

static int record(koma_pcn_reader *r, const char *text, size_t len, unsigned long first_line,
                  size_t at, unsigned long text_line, koma_pcn **out, koma_error *err)
{
    r->rec_line = first_line;
    r->rec_text = text;
    r->rec_len = len;
    r->rec_text_line = text_line;
    r->rec_fmt = r->fmt;
    koma_pcn *p = r->fmt == KOMA_PCN_YAML
                    ? koma__pcn_parse_yaml(text, len, r->flags, &r->pos, err)
                    : koma__pcn_parse_json(text, len, r->flags, &r->pos, err);
    if (p == NULL) {
        if (err && err->code == KOMA_E_MEMORY) {
            r->fatal = KOMA_E_MEMORY;
            return KOMA_PCN_FATAL;
        }
        place(r, err, at, text_line);
        return KOMA_PCN_INVALID;
    }
    *out = p;
    return KOMA_PCN_RECORD;
}

/* Report a record that grew past the limit at buffer offset `at` (line `line`, starting at ls). */
static int oversize(koma_pcn_reader *r, unsigned long first_line, size_t line_start,
                    unsigned long line, size_t at, koma_error *err)
{
    r->rec_line = first_line;
    r->rec_text = NULL;
    r->rec_len = 0;
    r->rec_fmt = r->fmt;
    if (err) {
        err->code = KOMA_E_PCN_SIZE;
        err->offset = r->base + at;
        err->line = line;
        err->column = (unsigned long)(at - line_start) + 1;
        snprintf(err->message, sizeof err->message, "record exceeds 16 MiB (%s)",
                 r->in_json ? "JSON text too long"
                 : r->fmt == KOMA_PCN_JSON ? "line too long" : "YAML document too long");
    }
    r->skipping = 1;
    r->in_doc = 0;
    r->have_prefix = 0;
    return KOMA_PCN_INVALID;
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return 0;
    return 1;
}

/* "---" or "..." at column 1, then white space or the end of the line. */
static int marker(const char *s, size_t n, char c)
{
    if (n < 3 || s[0] != c || s[1] != c || s[2] != c) return 0;
    return n == 3 || s[3] == ' ' || s[3] == '\t' || s[3] == '\r';
}

/* Blank or comment-only. */
static int no_content(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    return i == n || s[i] == '#';
}

/* ---- JSON Lines ------------------------------------------------------------------- */

static int json_line(koma_pcn_reader *r, size_t ls, size_t le, unsigned long lno,
                     koma_pcn **out, koma_error *err)
{
    if (r->skipping) {
        r->skipping = 0;
        r->midline = 0;
        return CONTINUE;
    }
    if (le - ls > KOMA_LIMIT_RECORD) {
        int rc = oversize(r, lno, ls, lno, ls + KOMA_LIMIT_RECORD, err);
        r->skipping = 0;             /* the whole line is already consumed */
        return rc;
    }
    if (blank(r->buf + ls, le - ls)) return CONTINUE;
    ls += koma_bom_len(r->buf + ls, le - ls);  /* a BOM at the start of a line (cat a b) */
    return record(r, r->buf + ls, le - ls, lno, ls, lno, out, err);
}

/* ---- YAML streams ----------------------------------------------------------------- */

/* Parse the document buf[doc_start..stop), or skip it when it has no content. */
static int yaml_emit(koma_pcn_reader *r, size_t stop, unsigned long first_line,
                     koma_pcn **out, koma_error *err)
{
    if (!r->has_content) return CONTINUE;
    return record(r, r->buf + r->doc_start, stop - r->doc_start, first_line, r->doc_start,
                  r->doc_line, out, err);
}

static void yaml_open(koma_pcn_reader *r, size_t ls, unsigned long lno, int content)
{
    if (!r->have_prefix) {
        r->doc_start = ls;
        r->doc_line = lno;
    }
    r->have_prefix = 0;
    r->in_doc = 1;
    r->has_content = content;
    r->doc_first = lno;
}

static int yaml_line(koma_pcn_reader *r, size_t ls, size_t le, unsigned long lno,
                     koma_pcn **out, koma_error *err)
{
    const char *s = r->buf + ls;
    size_t n = le - ls;
    int start = marker(s, n, '-'), stop = marker(s, n, '.');
    if (r->skipping) {
        if (r->midline) {
            r->midline = 0;
            return CONTINUE;
        }
        if (!start && !stop) return CONTINUE;
        r->skipping = 0;
        if (stop) return CONTINUE;
        yaml_open(r, ls, lno, !no_content(s + 3, n - 3));
        return CONTINUE;
    }
    if (!r->in_doc) {
        if (start) {
            yaml_open(r, ls, lno, !no_content(s + 3, n - 3));
        } else if (stop) {
            r->have_prefix = 0;          /* a stray "..." ends nothing */
        } else if (no_content(s, n) || s[0] == '%') {
            if (!r->have_prefix) {
                r->have_prefix = 1;
                r->doc_start = ls;
                r->doc_line = lno;
            }
            if (le + 1 - r->doc_start > KOMA_LIMIT_RECORD) r->have_prefix = 0;
        } else {
            yaml_open(r, ls, lno, 1);
        }
        if (r->in_doc && le + 1 - r->doc_start > KOMA_LIMIT_RECORD)
            return oversize(r, r->doc_first, ls, lno, r->doc_start + KOMA_LIMIT_RECORD, err);
        return CONTINUE;
    }
    if (start) {
        int rc = yaml_emit(r, ls, r->doc_first, out, err);
        yaml_open(r, ls, lno, !no_content(s + 3, n - 3));
        if (rc == CONTINUE && le + 1 - r->doc_start > KOMA_LIMIT_RECORD)
            return oversize(r, lno, ls, lno, r->doc_start + KOMA_LIMIT_RECORD, err);
        return rc;
    }
    if (le + 1 - r->doc_start > KOMA_LIMIT_RECORD)
        return oversize(r, r->doc_first, ls, lno, r->doc_start + KOMA_LIMIT_RECORD, err);
    if (stop) {
        r->in_doc = 0;
        return yaml_emit(r, le < r->end ? le + 1 : le, r->doc_first, out, err);
    }
    if (!r->has_content && !no_content(s, n)) r->has_content = 1;
    return CONTINUE;
}

/* ---- one record at a time, JSON or YAML (KOMA_PCN_AUTO) --------------------------- */

/* Read the line at ls (number lno) again on the next turn of the loop. */
static void again(koma_pcn_reader *r, size_t ls, unsigned long lno)
{
    r->ls = r->scan = ls;
    r->line = lno;
}

/* The multi-line JSON record buf[doc_start..stop). */
static int json_emit(koma_pcn_reader *r, size_t stop, koma_pcn **out, koma_error *err)
{
    r->in_json = 0;
    return record(r, r->buf + r->doc_start, stop - r->doc_start, r->doc_line, r->doc_start,
                  r->doc_line, out, err);
}

/* A multi-line JSON record over the limit: reported, the rest of it skipped
 * as a YAML document is (up to the next record line or marker). */
static int json_oversize(koma_pcn_reader *r, size_t line_start, unsigned long line, size_t at,
                         koma_error *err)
{
    if (at < line_start) at = line_start;
    int rc = oversize(r, r->doc_line, line_start, line, at, err);
    r->in_json = 0;
    r->fmt = KOMA_PCN_YAML;
    return rc;
}

/* A line whose first byte, after a BOM, is '{'. */
static int brace_line(const char *s, size_t n)
{
    size_t b = koma_bom_len(s, n);
    return n > b && s[b] == '{';
}

/* The line is '{' alone (white space after it aside): the first line of a
 * pretty-printed JSON text (jq, json.dumps(indent=...), JSON.stringify(v, null, 2)),
 * never a whole JSON Lines record. */
static int open_line(const char *s, size_t n)
{
    size_t b = koma_bom_len(s, n) + 1;
    while (n > b && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    return n == b;
}

static int auto_line(koma_pcn_reader *r, size_t ls, size_t le, unsigned long lno,
                     koma_pcn **out, koma_error *err)
{
    const char *s = r->buf + ls;
    size_t n = le - ls;
    int brace = brace_line(s, n);
    if (r->in_json) {
        if (brace || marker(s, n, '-') || marker(s, n, '.')) {
            again(r, ls, lno);         /* the next record starts here */
            return json_emit(r, ls, out, err);
        }
        if (le + 1 - r->doc_start > KOMA_LIMIT_RECORD)
            return json_oversize(r, ls, lno, r->doc_start + KOMA_LIMIT_RECORD, err);
        if (n > 0 && s[0] == '}') return json_emit(r, le < r->end ? le + 1 : le, out, err);
        return CONTINUE;
    }
    if (r->skipping) {
        if (!(r->fmt == KOMA_PCN_YAML && !r->midline && brace))
            return r->fmt == KOMA_PCN_YAML ? yaml_line(r, ls, le, lno, out, err)
                                           : json_line(r, ls, le, lno, out, err);
        r->skipping = 0;               /* a record line ends the skipped document */
    }
    if (r->fmt == KOMA_PCN_YAML && r->in_doc) {
        if (!brace || !r->has_content) return yaml_line(r, ls, le, lno, out, err);
        r->in_doc = 0;                 /* a JSON record follows the document */
        again(r, ls, lno);
        return yaml_emit(r, ls, r->doc_first, out, err);
    }
    if (!brace) {
        r->fmt = KOMA_PCN_YAML;
        return yaml_line(r, ls, le, lno, out, err);
    }
    r->have_prefix = 0;                /* comment lines before it were YAML's */
    r->fmt = KOMA_PCN_JSON;
    if (!open_line(s, n)) return json_line(r, ls, le, lno, out, err);
    r->in_json = 1;
    r->doc_start = ls + koma_bom_len(s, n);
    r->doc_line = lno;
    if (le + 1 - r->doc_start > KOMA_LIMIT_RECORD)
        return json_oversize(r, ls, lno, r->doc_start + KOMA_LIMIT_RECORD, err);
    return CONTINUE;
}

static int on_line(koma_pcn_reader *r, size_t ls, size_t le, unsigned long lno, koma_pcn **out,
                   koma_error *err)
{
    if (r->autodetect) return auto_line(r, ls, le, lno, out, err);
    return r->fmt == KOMA_PCN_YAML ? yaml_line(r, ls, le, lno, out, err)
                                   : json_line(r, ls, le, lno, out, err);
}

/* auto: a line not complete yet at a record's start decides the record's format
 * (for the size limit of the partial line). */
static void auto_partial(koma_pcn_reader *r)
{
    if (!r->autodetect || r->in_json || r->end <= r->ls) return;
    int brace = brace_line(r->buf + r->ls, r->end - r->ls);
    if (r->skipping) {
        if (r->fmt == KOMA_PCN_YAML && !r->midline && brace) {
            r->skipping = 0;
            r->fmt = KOMA_PCN_JSON;
        }
        return;
    }
    if (r->fmt == KOMA_PCN_YAML && r->in_doc && !(brace && r->has_content)) return;
    if (brace && !(r->fmt == KOMA_PCN_YAML && r->in_doc)) {
        r->have_prefix = 0;
        r->fmt = KOMA_PCN_JSON;
    } else if (!brace) {
        r->fmt = KOMA_PCN_YAML;
    }
}

/* ---- the loop --------------------------------------------------------------------- */

int koma_pcn_reader_next(koma_pcn_reader *r, koma_pcn **out, koma_error *err)
{
    koma_pcn *dummy;
    if (out == NULL) out = &dummy;
    *out = NULL;
    if (err != NULL) {                 /* keep the caller's source name */
        const char *source = err->source;
        koma_error_clear(err);
        err->source = source;
    }
    if (r->fatal != KOMA_OK) {
        koma_error_set(err, (koma_code)r->fatal, 0, NULL);
        return KOMA_PCN_FATAL;
    }
    for (;;) {
        if (!r->bom_checked) {
            if (r->end < 3 && !r->eof) {
                if (r->read == NULL) return KOMA_PCN_AGAIN;
                if (fill(r, err) < 0) return KOMA_PCN_FATAL;
                continue;
            }
            r->bom_checked = 1;
            if (r->end >= 3 && memcmp(r->buf, "\xef\xbb\xbf", 3) == 0) r->ls = r->scan = 3;
        }
        char *nl = r->scan < r->end ? memchr(r->buf + r->scan, '\n', r->end - r->scan) : NULL;
        if (nl != NULL) {
            size_t ls = r->ls, le = (size_t)(nl - r->buf);
            unsigned long lno = r->line;
            r->ls = r->scan = le + 1;
            r->line++;
            int rc = on_line(r, ls, le, lno, out, err);
            if (rc != CONTINUE) return rc;
            continue;
        }
        r->scan = r->end;
        /* no complete line in the buffer */
        auto_partial(r);
        if (r->in_json) {
            if (r->end - r->doc_start > KOMA_LIMIT_RECORD) {
                int rc = json_oversize(r, r->ls, r->line, r->doc_start + KOMA_LIMIT_RECORD, err);
                r->midline = 1;
                r->base += r->end;
                r->end = r->ls = r->scan = 0;
                return rc;
            }
        } else if (r->skipping) {
            if (r->fmt == KOMA_PCN_JSON || r->end - r->ls >= 4) {
                /* this line cannot become a document marker: drop it */
                r->midline = 1;
                r->base += r->end;
                r->end = r->ls = r->scan = 0;
            }
        } else if (r->fmt == KOMA_PCN_JSON) {
            if (r->end - r->ls > KOMA_LIMIT_RECORD) {
                int rc = oversize(r, r->line, r->ls, r->line, r->ls + KOMA_LIMIT_RECORD, err);
                r->midline = 1;
                r->base += r->end;
                r->end = r->ls = r->scan = 0;
                return rc;
            }
        } else {
            size_t from = (r->in_doc || r->have_prefix) ? r->doc_start : r->ls;
            if (r->end - from > KOMA_LIMIT_RECORD) {
                unsigned long first = r->in_doc ? r->doc_first : r->line;
                size_t at = from + KOMA_LIMIT_RECORD;
                if (at < r->ls) at = r->ls;
                int rc = oversize(r, first, r->ls, r->line, at, err);
                r->midline = 1;
                r->base += r->end;
                r->end = r->ls = r->scan = 0;
                return rc;
            }
        }
        if (r->eof) {
            if (r->ls < r->end && !(r->skipping && r->midline)) {
                /* a last line without '\n' */
                size_t ls = r->ls, le = r->end;
                unsigned long lno = r->line;
                r->ls = r->scan = r->end;
                r->line++;
                int rc = on_line(r, ls, le, lno, out, err);
                if (rc != CONTINUE) return rc;
                continue;
            }
            r->ls = r->scan = r->end;
            if (r->in_json) return json_emit(r, r->end, out, err);
            if (r->fmt == KOMA_PCN_YAML && r->in_doc && !r->skipping) {
                r->in_doc = 0;
                int rc = yaml_emit(r, r->end, r->doc_first, out, err);
                if (rc != CONTINUE) return rc;
            }
            return KOMA_PCN_END;
        }
        if (r->read == NULL) return KOMA_PCN_AGAIN;
        if (fill(r, err) < 0) return KOMA_PCN_FATAL;
    }
}
