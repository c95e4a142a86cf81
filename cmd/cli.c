/* cmd/cli.c — the shared command-line contract (see cli.h and DESIGN.md §5). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char stdout_buffer[1 << 16];

void cli_init(cli *c, const char *prog)
{
    memset(c, 0, sizeof *c);
    c->prog = prog;
    c->progress = isatty(STDERR_FILENO);
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
}

void cli_fail(cli *c, int status)
{
    if (status > c->status) c->status = status;
}

static void exit_quietly_on_epipe(cli *c)
{
    if (errno == EPIPE) {
        /* A reader that went away (`| head`) is not an error of ours. */
        _exit(c->status);
    }
}

int cli_stdout_broken(cli *c)
{
    if (!ferror(stdout)) return 0;
    exit_quietly_on_epipe(c);
    return 1;
}

int cli_finish(cli *c)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        exit_quietly_on_epipe(c);
        cli_trouble(c, "io.write: cannot write output: %s", strerror(errno ? errno : EIO));
    }
    return c->status;
}

void cli_json_string(FILE *f, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    putc('"', f);
    for (size_t i = 0; i < len;) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x80) {
            switch (ch) {
            case '"': fputs("\\\"", f); break;
            case '\\': fputs("\\\\", f); break;
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default:
                if (ch < 0x20 || ch == 0x7f) {
                    fputs("\\u00", f);
                    putc(hex[ch >> 4], f);
                    putc(hex[ch & 15], f);
                } else {
                    putc(ch, f);
                }
            }
            i++;
            continue;
        }
        /* Pass valid UTF-8 sequences through; anything else becomes U+FFFD. */
        size_t n = ch >= 0xf0 && ch <= 0xf4 ? 4 : ch >= 0xe0 ? 3 : ch >= 0xc2 && ch <= 0xdf ? 2 : 0;
        int ok = n > 0 && i + n <= len;
        for (size_t k = 1; ok && k < n; k++)
            if (((unsigned char)s[i + k] & 0xc0) != 0x80) ok = 0;
        if (ok && n == 3) {
            unsigned char c1 = (unsigned char)s[i + 1];
            if ((ch == 0xe0 && c1 < 0xa0) || (ch == 0xed && c1 >= 0xa0)) ok = 0;
        }
        if (ok && n == 4) {
            unsigned char c1 = (unsigned char)s[i + 1];
            if ((ch == 0xf0 && c1 < 0x90) || (ch == 0xf4 && c1 >= 0x90)) ok = 0;
        }
        if (ok) {
            fwrite(s + i, 1, n, f);
            i += n;
        } else {
            fputs("\xef\xbf\xbd", f);
            i++;
        }
    }
    putc('"', f);
}

/* File names in diagnostics are printed as given, but control bytes are escaped so
 * one diagnostic is always one line. */
static void put_name(FILE *f, const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\x%02x", *p);
        else putc(*p, f);
    }
}

void cli_diag(cli *c, int status, const char *file, unsigned long line, unsigned long col,
              const char *code, const char *message, const char *extra)
{
    cli_fail(c, status);
    if (c->quiet) return;
    if (c->json) {
        FILE *f = stdout;
        fputs("{\"file\":", f);
        cli_json_cstr(f, file);
        fprintf(f, ",\"line\":%lu,\"column\":%lu,\"code\":", line, col);
        cli_json_cstr(f, code);
        fputs(",\"message\":", f);
        cli_json_cstr(f, message);
        if (extra && *extra) {
            putc(',', f);
            fputs(extra, f);
        }
        fputs("}\n", f);
        return;
    }
    fflush(stdout);
    fprintf(stderr, "%s: ", c->prog);
    put_name(stderr, file);
    fprintf(stderr, ":%lu:%lu: %s: %s\n", line, col, code, message);
}

void cli_diag_error(cli *c, int status, const char *file, const koma_error *err,
                    const char *extra)
{
    cli_diag(c, status, file, err->line, err->column, koma_code_name(err->code), err->message,
             extra);
}

void cli_io_error(cli *c, const char *file, unsigned long line, const char *code,
                  const char *message)
{
    int quiet = c->quiet;
    if (c->json) {
        c->quiet = 0;
        cli_diag(c, CLI_TROUBLE, file, line, 1, code, message, NULL);
        c->json = 0;
        cli_diag(c, CLI_TROUBLE, file, line, 1, code, message, NULL);
        c->json = 1;
    } else {
        c->quiet = 0;
        cli_diag(c, CLI_TROUBLE, file, line, 1, code, message, NULL);
    }
    c->quiet = quiet;
}

void cli_trouble(cli *c, const char *fmt, ...)
{
    va_list ap;
    cli_fail(c, CLI_TROUBLE);
    fflush(stdout);
    fprintf(stderr, "%s: ", c->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    putc('\n', stderr);
}

int cli_usage_error(cli *c, const char *fmt, ...)
{
    va_list ap;
    cli_fail(c, CLI_TROUBLE);
    fprintf(stderr, "%s: ", c->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", c->prog);
    return CLI_TROUBLE;
}

void cli_version(const cli *c)
{
    printf("%s (koma) %s\n", c->prog, koma_version());
}

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
            cli_io_error(c, path, 1, "io.open", strerror(errno));
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
    free(in->buf);
    in->buf = NULL;
}

/* Read more bytes after in->end; 1 read something, 0 EOF, -1 error (reported). */
static int fill(cli *c, cli_input *in)
{
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

int cli_input_peek(cli *c, cli_input *in, size_t want, const char **s, size_t *len)
{
    if (want > CLI_LINE_MAX) want = CLI_LINE_MAX;
    while (!in->eof && in->end - in->pos < want)
        if (fill(c, in) < 0) return -1;
    *s = in->buf + in->pos;
    *len = in->end - in->pos;
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
