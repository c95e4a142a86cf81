/*
 * tests/faults/failalloc.c — fault injection for the tools, linked into the
 * fault builds of every command (make faults) with
 *   -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
 * and the stdio output functions, against static libyaml, jansson and nettle: so
 * every allocation of the tool, of libkoma and of those libraries goes through
 * here, under ASan too (the real functions are ASan's).
 *
 * Environment:
 *   KOMA_FAULT_ALLOC=N  the Nth allocation (from 1) fails, once
 *   KOMA_FAULT_WRITE=N  the disk is full from the Nth output call to stdout on:
 *                       standard output is pointed at /dev/full there, so that
 *                       call and every later write fails with ENOSPC
 *   KOMA_FAULT_COUNT=F  at exit, write "ALLOCATIONS OUTPUTS" (the counts of the
 *                       run) to the file F
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static unsigned long allocs, outputs, fail_alloc, fail_write;
static int configured, exiting;

/* Once exit() has begun, nothing fails: what runs then is not the tool's (gcov
 * writing its counts in make coverage, for one). */
static void stop_failing(void) { exiting = 1; }

static unsigned long env_number(const char *name)
{
    const char *v = getenv(name);
    return v ? strtoul(v, NULL, 10) : 0;
}

static void configure(void)
{
    if (configured) return;
    configured = 1;
    atexit(stop_failing);
    fail_alloc = env_number("KOMA_FAULT_ALLOC");
    fail_write = env_number("KOMA_FAULT_WRITE");
}

/* 1 when this allocation is the one to fail. */
static int alloc_fails(void)
{
    configure();
    return ++allocs == fail_alloc && !exiting;
}

void *__wrap_malloc(size_t n)
{
    if (alloc_fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (alloc_fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    if (alloc_fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
    if (alloc_fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    if (alloc_fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_strndup(s, n);
}

/* ---- output ------------------------------------------------------------------- */

/* One output call on f: at the chosen one, stdout becomes a full disk. */
static void output_call(FILE *f)
{
    configure();
    if (f != stdout || exiting) return;
    if (++outputs != fail_write) return;
    fflush(stdout);                    /* what came before reached the disk */
    int fd = open("/dev/full", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
}

#define WRAP(ret, name, params, args, file)                                           \
    ret __real_##name params;                                                          \
    ret __wrap_##name params;                                                          \
    ret __wrap_##name params                                                           \
    {                                                                                  \
        output_call(file);                                                             \
        return __real_##name args;                                                     \
    }

WRAP(size_t, fwrite, (const void *p, size_t size, size_t n, FILE *f), (p, size, n, f), f)
WRAP(int, fputs, (const char *s, FILE *f), (s, f), f)
WRAP(int, fputc, (int c, FILE *f), (c, f), f)
WRAP(int, putc, (int c, FILE *f), (c, f), f)
WRAP(int, puts, (const char *s), (s), stdout)
WRAP(int, putchar, (int c), (c), stdout)
WRAP(int, vfprintf, (FILE *f, const char *fmt, va_list ap), (f, fmt, ap), f)
WRAP(int, vprintf, (const char *fmt, va_list ap), (fmt, ap), stdout)

int __wrap_printf(const char *fmt, ...);
int __wrap_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    output_call(stdout);
    int n = __real_vfprintf(stdout, fmt, ap);   /* counted once, here */
    va_end(ap);
    return n;
}

int __wrap_fprintf(FILE *f, const char *fmt, ...);
int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    output_call(f);
    int n = __real_vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

/* ---- counts --------------------------------------------------------------------- */

__attribute__((destructor)) static void write_counts(void)
{
    const char *path = getenv("KOMA_FAULT_COUNT");
    if (path == NULL) return;
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%lu %lu\n", allocs, outputs);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    if (write(fd, buf, (size_t)n) != n) { /* nothing to do */ }
    close(fd);
}
