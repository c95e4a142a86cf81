/* cmd/cli.c — the shared command-line contract (see cli.h and koma(7), COMMON CONTRACT); the
 * inputs are cmd/cli_input.c's. */
#define _GNU_SOURCE                    /* fopencookie */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char stdout_buffer[1 << 16];

/* Standard output goes through out_write, which keeps the errno of the first
 * write(2) that failed: stdio drops the buffer of a failed write and keeps only
 * its error flag, so the reason ("No space left on device") is otherwise lost
 * by the time the failure is reported. */
static int stdout_errno;

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (stdout_errno == 0) stdout_errno = w < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static void track_stdout(void)
{
    static const cookie_io_functions_t io = { .write = out_write };
    FILE *f = fopencookie(NULL, "w", io);
    if (f != NULL) stdout = f;         /* glibc: stdout is a variable one may set */
}

/* errno of the failed write(2) on standard output, else the current one, else EIO. */
static int stdout_error(void)
{
    return stdout_errno ? stdout_errno : errno ? errno : EIO;
}

void cli_init(cli *c, const char *prog, void (*usage)(FILE *))
{
    memset(c, 0, sizeof *c);
    c->prog = prog;
    c->usage = usage;
    c->progress = isatty(STDERR_FILENO);
    signal(SIGPIPE, SIG_IGN);
    track_stdout();
    setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
}

void cli_fail(cli *c, int status)
{
    if (status > c->status) c->status = status;
}

static void exit_quietly_on_epipe(cli *c)
{
    if (stdout_error() == EPIPE) {
        /* A reader that went away (`| head`) is not an error of ours. */
        cli_progress_end(c);
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
    cli_progress_end(c);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        exit_quietly_on_epipe(c);
        cli_trouble(c, "io.write: cannot write output: %s", strerror(stdout_error()));
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

/* One node of a value (koma_pcn_walk), for cli_json_pcn. */
static int json_node(void *ctx, const koma_pcn_node *n)
{
    FILE *f = ctx;
    const koma_pcn_value *v = &n->value;
    if (n->step != KOMA_PCN_CLOSE && n->depth > 0) {
        if (n->index) putc(',', f);
        if (n->key) {
            cli_json_string(f, n->key, n->key_len);
            putc(':', f);
        }
    }
    switch (v->type) {
    case KOMA_PCN_ABSENT: fputs("(absent)", f); break;
    case KOMA_PCN_NULL: fputs("null", f); break;
    case KOMA_PCN_BOOL: fputs(v->boolean ? "true" : "false", f); break;
    case KOMA_PCN_INTEGER: fprintf(f, "%lld", v->integer); break;
    case KOMA_PCN_REAL: fprintf(f, "%.17g", v->real); break;
    case KOMA_PCN_STRING: cli_json_string(f, v->string, v->len); break;
    case KOMA_PCN_ARRAY: putc(n->step == KOMA_PCN_OPEN ? '[' : ']', f); break;
    case KOMA_PCN_OBJECT: putc(n->step == KOMA_PCN_OPEN ? '{' : '}', f); break;
    }
    return 0;
}

int cli_json_pcn(FILE *f, const koma_pcn *p, const char *pointer)
{
    koma_error err;
    return koma_pcn_walk(p, pointer, json_node, f, &err) == 0 ? 0 : -1;
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
        FILE *f = c->json_diag ? c->json_diag : stdout;
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
    cli_progress_end(c);
    fflush(stdout);
    fprintf(stderr, "%s: ", c->prog);
    put_name(stderr, file);
    fprintf(stderr, ":%lu:%lu: %s: %s\n", line, col, code, message);
}

void cli_diag_error(cli *c, int status, const char *file, const koma_error *err,
                    const char *extra)
{
    /* Out of memory says nothing about the data: trouble, as an I/O error is. */
    if (err->code == KOMA_E_MEMORY) {
        cli_io_error(c, file, err->line, koma_code_name(err->code), "out of memory");
        return;
    }
    cli_diag(c, status, file, err->line, err->column, koma_code_name(err->code), err->message,
             extra);
}

void cli_warning(cli *c, const char *file, const koma_error *w)
{
    if (c->json) {
        cli_diag(c, CLI_OK, file, w->line, w->column, koma_code_name(w->code), w->message,
                 "\"severity\":\"warning\"");
        return;
    }
    char msg[KOMA_ERROR_MESSAGE_MAX + 16];
    snprintf(msg, sizeof msg, "warning: %s", w->message);
    cli_diag(c, CLI_OK, file, w->line, w->column, koma_code_name(w->code), msg, NULL);
}

void cli_io_error(cli *c, const char *file, unsigned long line, const char *code,
                  const char *message)
{
    /* line 0: no position (a file not opened): line and column 0 in JSON, while
     * the text form keeps FILE:1:1 for editors (koma-validate(1)) */
    int quiet = c->quiet;
    c->quiet = 0;
    if (c->json) {
        cli_diag(c, CLI_TROUBLE, file, line, line ? 1 : 0, code, message, NULL);
        c->json = 0;
        cli_diag(c, CLI_TROUBLE, file, line ? line : 1, 1, code, message, NULL);
        c->json = 1;
    } else {
        cli_diag(c, CLI_TROUBLE, file, line ? line : 1, 1, code, message, NULL);
    }
    c->quiet = quiet;
}

void cli_trouble(cli *c, const char *fmt, ...)
{
    va_list ap;
    cli_fail(c, CLI_TROUBLE);
    cli_progress_end(c);
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
    cli_progress_end(c);
    fprintf(stderr, "%s: ", c->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", c->prog);
    return CLI_TROUBLE;
}

void cli_version(const cli *c)
{
    printf("%s (koma) %s\n", c->prog, koma_version_string());
}

/* ---- options ------------------------------------------------------------------ */

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    opterr = 0;
    return getopt_long(argc, argv, shortopts, longopts, NULL);
}

int cli_option(cli *c, int opt, char **argv)
{
    switch (opt) {
    case 'q': c->quiet = 1; return CLI_OPTION_TAKEN;
    case CLI_OPT_JSON: c->json = 1; return CLI_OPTION_TAKEN;
    case CLI_OPT_SUMMARY: c->summary = 1; return CLI_OPTION_TAKEN;
    case 'h':
        if (c->usage) c->usage(stdout);
        return cli_finish(c);
    case CLI_OPT_VERSION:
        cli_version(c);
        return cli_finish(c);
    default:
        if (optopt && optopt < 256) return cli_usage_error(c, "invalid option '-%c'", optopt);
        return cli_usage_error(c, "invalid option '%s'", argv[optind - 1]);
    }
}

/* ---- progress ----------------------------------------------------------------- */

#define PROGRESS_FIRST 0.25                /* seconds into the run before the first line */
#define PROGRESS_EVERY 0.25                /* seconds between two lines */
#define PROGRESS_STRIDE_MAX 256ul          /* calls between two clock readings, at most */

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress(cli *c, unsigned long long done, unsigned long long total, const char *noun)
{
    cli_meter *m = &c->meter;
    if (!c->progress || c->quiet || ++m->pending < m->stride) return;
    m->pending = 0;
    double t = seconds();
    if (m->stride == 0) {                  /* the first call */
        m->start = m->checked = t;
        m->shown = t - PROGRESS_EVERY + PROGRESS_FIRST;
        m->stride = 1;
        return;
    }
    /* Read the clock about every 10 ms, however fast the items come. */
    if (t - m->checked < 0.01 && m->stride < PROGRESS_STRIDE_MAX) m->stride *= 2;
    else if (t - m->checked > 0.05 && m->stride > 1) m->stride /= 2;
    m->checked = t;
    if (t - m->shown < PROGRESS_EVERY) return;
    m->shown = t;
    if (isatty(STDOUT_FILENO)) fflush(stdout);   /* the data so far comes first */
    if (total)
        fprintf(stderr, "\r%s: %llu/%llu %s\033[K", c->prog, done, total, noun);
    else
        fprintf(stderr, "\r%s: %llu %s, %.0f/s\033[K", c->prog, done, noun,
                (double)done / (t - m->start));
    /* Data written to the same terminal starts over the line, not after it. */
    if (isatty(STDOUT_FILENO)) putc('\r', stderr);
    fflush(stderr);
    m->on_screen = 1;
}

void cli_progress_step(cli *c, const char *noun)
{
    c->meter.count++;
    cli_progress(c, c->meter.count, 0, noun);
}

void cli_progress_steps(cli *c, const char *noun, unsigned long long n)
{
    c->meter.count += n;
    cli_progress(c, c->meter.count, 0, noun);
}

void cli_progress_end(cli *c)
{
    if (!c->meter.on_screen) return;
    c->meter.on_screen = 0;
    fputs("\r\033[K", stderr);
    fflush(stderr);
}

int cli_file_name(const char *pat, const char *letters, const unsigned long *values, char *buf, size_t cap)
{
    size_t n = 0, last = strlen(letters) - 1;
    for (const char *p = pat; *p; p++) {
        char piece[32];
        size_t len = 1;
        piece[0] = *p;
        if (*p == '%' && p[1] == '%') {
            p++;
        } else if (*p == '%') {
            int width = 0, zero = p[1] == '0';
            for (p++; *p >= '0' && *p <= '9'; p++) width = width * 10 + (*p - '0');
            const char *at = *p ? strchr(letters, *p) : NULL;
            unsigned long v = values[at ? (size_t)(at - letters) : last];
            len = (size_t)snprintf(piece, sizeof piece, zero ? "%0*lu" : "%*lu", width, v);
        }
        if (n + len >= cap) return -1;
        memcpy(buf + n, piece, len);
        n += len;
    }
    if (cap == 0) return -1;
    buf[n] = '\0';
    return 0;
}
