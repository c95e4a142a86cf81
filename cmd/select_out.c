/* cmd/select_out.c — koma-select's record output (see select_out.h). */
#include "select_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int select_out_check(cli *c, const char *pattern, unsigned long split)
{
    int has_n = 0;
    for (const char *p = pattern; *p; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        const char *q = p + 1;
        while (*q >= '0' && *q <= '9') q++;
        if (*q != 'n' || q - p > 4)
            return cli_usage_error(c, "-o %s: a pattern holds %%n (the file number, \"%%03n\" padded) and %%%% only",
                                   pattern);
        has_n = 1;
        p = q;
    }
    if (split && !has_n) return cli_usage_error(c, "-o %s: --split needs %%n in the pattern", pattern);
    if (*pattern == '\0') return cli_usage_error(c, "-o: an empty file name");
    return 0;
}

static int io_error(select_out *o, const char *what, int e)
{
    cli_trouble(o->c, "%s: io.write: cannot %s: %s", o->name, what, strerror(e));
    o->failed = 1;
    return -1;
}

void select_out_close(select_out *o)
{
    if (o->f && o->f != stdout && fclose(o->f) != 0 && !o->failed) io_error(o, "write", errno);
    if (o->f != stdout) o->f = NULL;
    koma_format_writer_free(o->ws);
    o->ws = NULL;
    koma_buffer_cleanup(&o->buf);
    o->in_file = 0;
    o->last = NULL;
}

/* The output for the next record: stdout, or the file it falls in. */
static int next_output(select_out *o, koma_error *err)
{
    if (o->f && (o->split == 0 || o->in_file < o->split)) return 0;
    select_out_close(o);
    if (o->pattern == NULL) {
        o->f = stdout;
        snprintf(o->name, sizeof o->name, "<stdout>");
    } else {
        const unsigned long number = ++o->files;
        if (cli_file_name(o->pattern, "n", &number, o->name, sizeof o->name) != 0) {
            cli_trouble(o->c, "-o %s: the file name exceeds %zu bytes", o->pattern, sizeof o->name - 1);
            o->failed = 1;
            return -1;
        }
        if ((o->f = fopen(o->name, "w")) == NULL) return io_error(o, "open", errno);
    }
    if (o->to && koma_format_writer_new(o->hub, o->to, 0, &o->ws, err) != 0) {
        cli_trouble(o->c, "%s: %s", koma_code_name(err->code), err->message);
        o->failed = 1;
        return -1;
    }
    return 0;
}

static int append(koma_buffer *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *d = realloc(b->data, cap);
        if (d == NULL) return -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

/* Does the YAML text hold its own document marker line? */
static int has_marker(const char *t, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++)
        if ((i == 0 || t[i - 1] == '\n') && memcmp(t + i, "---", 3) == 0 &&
            (i + 3 == n || t[i + 3] == ' ' || t[i + 3] == '\t' || t[i + 3] == '\n' || t[i + 3] == '\r'))
            return 1;
    return 0;
}

/* A record as read, with what its format puts before it. */
static int as_read(select_out *o, const char *t, size_t n, const koma_format *fmt)
{
    koma_buffer *b = &o->buf;
    const char *name = fmt ? koma_format_name(fmt) : "";
    int r = 0;
    if (o->in_file > 0) {
        if (n >= 3 && memcmp(t, "\xef\xbb\xbf", 3) == 0) t += 3, n -= 3;   /* a BOM starts a file only */
        if (strcmp(name, "csa") == 0 && o->last == fmt) r |= append(b, "/\n", 2);
        if (fmt && koma_format_kind_of(fmt) == KOMA_FORMAT_MOVES) r |= append(b, "\n", 1);
    }
    if (strcmp(name, "yaml") == 0 && !has_marker(t, n)) r |= append(b, "---\n", 4);
    r |= append(b, t, n);
    if (n == 0 || t[n - 1] != '\n') r |= append(b, "\n", 1);
    return r;
}

int select_out_record(select_out *o, const koma_pcn *rec, const char *text, size_t len,
                      const koma_format *fmt, koma_error *err)
{
    if (o->failed) return -1;
    if (next_output(o, err) != 0) return -1;
    o->buf.len = 0;
    if (o->to) {
        if (koma_format_writer_record(o->ws, rec, &o->buf, err) != 0) {
            if (err->code != KOMA_E_MEMORY) return 1;
            cli_trouble(o->c, "memory: out of memory");
            return -1;
        }
    } else if (as_read(o, text ? text : "", text ? len : 0, fmt) != 0) {
        cli_trouble(o->c, "memory: out of memory");
        return -1;
    }
    if (o->buf.len && fwrite(o->buf.data, 1, o->buf.len, o->f) != o->buf.len) {
        if (o->f == stdout) {
            cli_stdout_broken(o->c);   /* cli_finish reports a write error */
            o->failed = 1;
            return -1;
        }
        return io_error(o, "write", errno);
    }
    o->in_file++;
    o->last = fmt;
    return 0;
}

void select_print_json(const record_item *it, const koma_selection *r, int plies)
{
    printf("{\"file\":");
    cli_json_cstr(stdout, it->src.file);
    printf(",\"line\":%lu,\"record\":%lu,\"format\":", it->src.line, it->index);
    cli_json_cstr(stdout, it->text_format ? koma_format_name(it->text_format) : "pcn");
    printf(",\"game\":");
    if (r->game) cli_json_cstr(stdout, koma_game_id(r->game));
    else fputs("null", stdout);
    if (plies) {
        fputs(",\"plies\":[", stdout);
        for (size_t i = 0; i < r->nplies; i++) printf("%s%zu", i ? "," : "", r->plies[i]);
        putchar(']');
    }
    fputs(",\"fid\":", stdout);
    if (r->fid[0]) printf("\"%s\"", r->fid);
    else fputs("null", stdout);
    fputs("}\n", stdout);
}
