/* cmd/cli_input.c — the inputs of the command-line contract (see cli.h): files and
 * stdin opened, read line by line (1 MiB lines, a first-line BOM skipped), peeked
 * at for sniffing, read in chunks or whole. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- input ------------------------------------------------------------------ */

#define READ_CHUNK (1u << 16)

int cli_input_open(cli *c, cli_input *in, const char *path)
{
    memset(in, 0, sizeof *in);
    in->fd = -1;
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
        in->name = "<stdin>";
    } else {
        in->name = path;
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            cli_io_error(c, path, 0, "io.open", strerror(errno));   /* no position */
            return -1;
        }
    }
    in->cap = CLI_LINE_MAX + 2 * READ_CHUNK;
    in->buf = malloc(in->cap);
    if (in->buf == NULL) {
        cli_trouble(c, "memory: out of memory");
        if (in->fd != STDIN_FILENO) close(in->fd);
        in->fd = -1;
        return -1;
    }
    return 0;
}

void cli_input_close(cli_input *in)
{
    if (in->fd >= 0 && in->fd != STDIN_FILENO) close(in->fd);
    in->fd = -1;
    cli__input_unmap(in);
    free(in->map_on ? in->heap : in->buf);
    in->buf = in->heap = NULL;
    in->map_on = 0;
}

/* Read more bytes after in->end; 1 read something, 0 EOF, -1 error (reported). */
static int fill(cli *c, cli_input *in)
{
    if (in->map_on) {
        int r = cli__input_map_fill(c, in);
        if (r != -2) return r;         /* -2: not mapped after all, read on */
    }
    if (in->pos > 0 && in->end + READ_CHUNK > in->cap) {
        memmove(in->buf, in->buf + in->pos, in->end - in->pos);
        in->end -= in->pos;
        in->pos = 0;
    }
    for (;;) {
        ssize_t n = read(in->fd, in->buf + in->end, in->cap - in->end);
        if (n > 0) {
            in->end += (size_t)n;
            return 1;
        }
        if (n == 0) {
            in->eof = 1;
            return 0;
        }
        if (errno == EINTR) continue;
        cli_io_error(c, in->name, in->line + 1, "io.read", strerror(errno));
        in->eof = 1;
        return -1;
    }
}

int cli_input_line(cli *c, cli_input *in, const char **s, size_t *len)
{
    size_t scanned = in->pos;
    for (;;) {
        char *nl = memchr(in->buf + scanned, '\n', in->end - scanned);
        if (nl != NULL) {
            size_t start = in->pos, stop = (size_t)(nl - in->buf);
            in->pos = stop + 1;
            in->line++;
            if (stop - start > CLI_LINE_MAX) return CLI_LINE_TOO_LONG;
            if (stop > start && in->buf[stop - 1] == '\r') stop--;
            if (in->line == 1) start += koma_bom_len(in->buf + start, stop - start);
            *s = in->buf + start;
            *len = stop - start;
            return CLI_LINE_OK;
        }
        if (in->end - in->pos > CLI_LINE_MAX) {
            /* Too long: drop what we have and skip to the end of the line. */
            in->line++;
            for (;;) {
                in->pos = in->end = 0;
                int r = fill(c, in);
                if (r < 0) return CLI_LINE_ERROR;
                if (r == 0) return CLI_LINE_TOO_LONG;
                nl = memchr(in->buf, '\n', in->end);
                if (nl != NULL) {
                    in->pos = (size_t)(nl - in->buf) + 1;
                    return CLI_LINE_TOO_LONG;
                }
            }
        }
        scanned = in->end;
        if (in->eof) {
            if (in->end == in->pos) return CLI_LINE_EOF;
            size_t start = in->pos, stop = in->end;
            in->pos = in->end;
            in->line++;
            if (stop > start && in->buf[stop - 1] == '\r') stop--;
            if (in->line == 1) start += koma_bom_len(in->buf + start, stop - start);
            *s = in->buf + start;
            *len = stop - start;
            return CLI_LINE_OK;
        }
        size_t before = in->pos;
        int r = fill(c, in);
        if (r < 0) return CLI_LINE_ERROR;
        scanned -= before - in->pos;       /* fill() may have moved the data down */
    }
}

void cli_line_too_long(const cli_input *in, koma_error *err)
{
    koma_error_clear(err);
    err->code = KOMA_E_LINE_LENGTH;
    err->line = in->line;
    err->column = (unsigned long)CLI_LINE_MAX + 1;
    snprintf(err->message, sizeof err->message, "line exceeds %zu bytes", CLI_LINE_MAX);
}

int cli_input_lines(cli *c, cli_input *in, const char *noun,
                    int (*fn)(void *ctx, const char *s, size_t len), void *ctx)
{
    return cli_input_lines_bulk(c, in, noun, NULL, fn, ctx);
}

int cli_input_lines_bulk(cli *c, cli_input *in, const char *noun, cli_bulk_fn bulk,
                         int (*fn)(void *ctx, const char *s, size_t len), void *ctx)
{
    return in->map_on ? cli__input_map_lines(c, in, noun, bulk, fn, ctx)
                      : cli__input_lines(c, in, noun, bulk, fn, ctx);
}

int cli__input_lines(cli *c, cli_input *in, const char *noun, cli_bulk_fn bulk,
                     int (*fn)(void *ctx, const char *s, size_t len), void *ctx)
{
    const char *s;
    size_t len;
    int k;
    for (;;) {
        if (bulk && in->line > 0 && in->pos < in->end) {
            size_t lines = 0;
            size_t took = bulk(ctx, in->buf + in->pos, in->end - in->pos, &lines);
            if (lines > 0) {
                in->pos += took;
                in->line += lines;
                if (noun) cli_progress_steps(c, noun, lines);
            }
        }
        if ((k = cli_input_line(c, in, &s, &len)) == CLI_LINE_EOF || k == CLI_LINE_ERROR) break;
        int rc = k == CLI_LINE_TOO_LONG ? fn(ctx, NULL, 0) : fn(ctx, s, len);
        if (rc != 0) return rc;
        if (noun) cli_progress_step(c, noun);
        if (cli_stdout_broken(c)) break;
    }
    return 0;
}

int cli_input_peek(cli *c, cli_input *in, size_t want, const char **s, size_t *len)
{
    if (want > CLI_LINE_MAX) want = CLI_LINE_MAX;
    while (!in->eof && in->end - in->pos < want)
        if (fill(c, in) < 0) return -1;
    *s = in->buf + in->pos;
    *len = in->end - in->pos;
    return 0;
}

int cli_input_look(cli *c, cli_input *in, size_t want, const char **s, size_t *len, int *at_end)
{
    if (cli_input_peek(c, in, want, s, len) != 0) return -1;
    *at_end = in->eof && *len <= want;
    if (*len > want) *len = want;
    return 0;
}

long cli_input_read(cli *c, cli_input *in, char *buf, size_t cap)
{
    if (in->end > in->pos) {
        size_t k = in->end - in->pos;
        if (k > cap) k = cap;
        memcpy(buf, in->buf + in->pos, k);
        in->pos += k;
        return (long)k;
    }
    if (in->eof) return 0;
    for (;;) {
        ssize_t n = read(in->fd, buf, cap);
        if (n >= 0) {
            if (n == 0) in->eof = 1;
            return (long)n;
        }
        if (errno == EINTR) continue;
        cli_io_error(c, in->name, in->line + 1, "io.read", strerror(errno));
        in->eof = 1;
        return -1;
    }
}

int cli_input_slurp(cli *c, cli_input *in, size_t limit, const char *code, char **data,
                    size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        cli_trouble(c, "memory: out of memory");
        return -1;
    }
    /* Whatever the line reader already buffered comes first. */
    if (in->buf && in->end > in->pos) {
        size_t k = in->end - in->pos;
        if (k + 1 > cap) {
            char *nb = realloc(buf, k + 1);
            if (nb == NULL) { free(buf); cli_trouble(c, "memory: out of memory"); return -1; }
            buf = nb;
            cap = k + 1;
        }
        memcpy(buf, in->buf + in->pos, k);
        n = k;
        in->pos = in->end;
    }
    while (!in->eof) {
        if (n == cap) {
            size_t ncap = cap * 2;
            char *nb = realloc(buf, ncap);
            if (nb == NULL) { free(buf); cli_trouble(c, "memory: out of memory"); return -1; }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(in->fd, buf + n, cap - n);
        if (r > 0) {
            n += (size_t)r;
            if (n > limit) {
                cli_diag(c, CLI_DATA, in->name, 1, 1, code, "input exceeds the record size limit",
                         NULL);
                free(buf);
                return -1;
            }
        } else if (r == 0) {
            in->eof = 1;
        } else if (errno != EINTR) {
            cli_io_error(c, in->name, 1, "io.read", strerror(errno));
            free(buf);
            return -1;
        }
    }
    *data = buf;
    *len = n;
    return 0;
}
