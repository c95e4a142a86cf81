/* cmd/cli_input_map.c — a regular file's lines read straight from a mapping of
 * it (cli_input_map, see cli.h): windows of MAP_WINDOW bytes mapped in turn, no
 * copy into a read buffer. A window is unmapped before the next one is mapped, so
 * the memory stays flat in the file's size. A file that shrinks under the
 * mapping (its pages gone: SIGBUS) is a read error, not a crash. */
#include "cli.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* 8 MiB: more than a line of CLI_LINE_MAX and a page, so that each window
 * reaches past the last one's end */
#define MAP_WINDOW ((size_t)8 << 20)

int cli_input_map(cli_input *in)
{
    struct stat st;
    if (in->fd < 0 || in->fd == STDIN_FILENO || in->map_on) return 0;
    /* (a regular file of size 0 may still have bytes to read: /proc) */
    if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return 0;
    off_t at = lseek(in->fd, 0, SEEK_CUR);
    if (at < 0) return 0;
    in->foff = (unsigned long long)at;
    in->heap = in->buf;
    in->map_on = 1;
    return 1;
}

void cli__input_unmap(cli_input *in)
{
    if (in->map != NULL) munmap(in->map, in->map_len);
    in->map = NULL;
    in->map_len = 0;
}

/* Back to read(), from the file's offset keep (the bytes not taken, read again).
 * 0, or -1 (errno set). */
static int map_stop(cli_input *in, unsigned long long keep)
{
    if (lseek(in->fd, (off_t)keep, SEEK_SET) < 0) return -1;
    cli__input_unmap(in);
    in->buf = in->heap;
    in->heap = NULL;
    in->pos = in->end = 0;
    in->map_on = 0;
    return 0;
}

int cli__input_map_fill(cli *c, cli_input *in)
{
    struct stat st;
    const unsigned long long keep = in->foff - (in->end - in->pos);   /* the offset of buf[pos] */
    if (fstat(in->fd, &st) != 0) {
        cli_io_error(c, in->name, in->line + 1, "io.read", strerror(errno));
        in->eof = 1;
        return -1;
    }
    if ((unsigned long long)st.st_size <= in->foff) {
        in->eof = 1;
        return 0;
    }
    const unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE);
    const unsigned long long at = keep - keep % page;
    size_t len = (unsigned long long)st.st_size - at < MAP_WINDOW ? (size_t)((unsigned long long)st.st_size - at)
                                                                 : MAP_WINDOW;
    cli__input_unmap(in);              /* (its bytes from keep on are mapped again) */
    char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, in->fd, (off_t)at);
    if (m == MAP_FAILED) {
        /* (a file system that cannot map it, no address space left): read it */
        if (map_stop(in, keep) != 0) {
            cli_io_error(c, in->name, in->line + 1, "io.read", strerror(errno));
            in->eof = 1;
            return -1;
        }
        return -2;
    }
    in->map = m;
    in->map_len = len;
    in->buf = m + (keep - at);
    in->pos = 0;
    in->end = len - (size_t)(keep - at);
    in->foff = at + len;
    return 1;
}

/* ---- a file that shrinks under the mapping --------------------------------------------- */

static sigjmp_buf *volatile bus_jump;

static void on_bus(int sig)
{
    if (bus_jump != NULL) siglongjmp(*bus_jump, 1);
    signal(sig, SIG_DFL);              /* not ours: as if never caught */
    raise(sig);
}

/* run(arg) under the SIGBUS catch: 1; 0 when the file shrank under the mapping
 * meanwhile (reported: io.read, the input at its end). Where the catch cannot be
 * set, run is called as is (a read of a mapping that would then end the process). */
static int caught(cli *c, cli_input *in, void (*run)(void *arg), void *arg)
{
    sigjmp_buf jump;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_bus;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &old) != 0) {
        run(arg);
        return 1;
    }
    int ok = 1;
    if (sigsetjmp(jump, 1) == 0) {
        bus_jump = &jump;
        run(arg);
    } else {
        cli_io_error(c, in->name, in->line + 1, "io.read", "the file shrank while it was read");
        in->eof = 1;
        in->pos = in->end = 0;
        ok = 0;
    }
    bus_jump = NULL;
    sigaction(SIGBUS, &old, NULL);
    return ok;
}

struct lines_call {
    cli *c;
    cli_input *in;
    const char *noun;
    cli_bulk_fn bulk;
    int (*fn)(void *ctx, const char *s, size_t len);
    void *ctx;
    int rc;
};

static void run_lines(void *arg)
{
    struct lines_call *a = arg;
    a->rc = cli__input_lines(a->c, a->in, a->noun, a->bulk, a->fn, a->ctx);
}

int cli__input_map_lines(cli *c, cli_input *in, const char *noun, cli_bulk_fn bulk,
                         int (*fn)(void *ctx, const char *s, size_t len), void *ctx)
{
    struct lines_call a = {c, in, noun, bulk, fn, ctx, 0};
    caught(c, in, run_lines, &a);
    return a.rc;
}

/* ---- pieces of the input, for a reader that keeps its own buffer ------------------- */

struct piece_call {
    cli_piece_fn fn;
    void *ctx;
    const char *s;
    size_t n;
    int rc;
};

static void run_piece(void *arg)
{
    struct piece_call *a = arg;
    a->rc = a->fn(a->ctx, a->s, a->n);
}

long cli_input_piece(cli *c, cli_input *in, char *buf, size_t cap, cli_piece_fn fn, void *ctx,
                     int *rc)
{
    *rc = 0;
    if (in->map_on && in->pos == in->end && !in->eof) {
        int r = cli__input_map_fill(c, in);
        if (r == -1) return -1;        /* reported */
        /* 0: the end; -2: not mapped after all, read on */
    }
    if (!in->map_on) {
        long n = cli_input_read(c, in, buf, cap);
        if (n > 0) *rc = fn(ctx, buf, (size_t)n);
        return n;
    }
    if (in->pos == in->end) return 0;
    size_t n = in->end - in->pos < cap ? in->end - in->pos : cap;
    struct piece_call a = {fn, ctx, in->buf + in->pos, n, 0};
    in->pos += n;
    int ok = caught(c, in, run_piece, &a);
    *rc = a.rc;
    return ok ? (long)n : -1;
}
