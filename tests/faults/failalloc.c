/*
 * tests/faults/failalloc.c — fault injection for the tools, linked into the
 * fault builds of every command (make faults) with
 *   -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
 * and the stdio output functions, against static libyaml, jansson and nettle: so
 * every allocation of the tool, of libkoma and of those libraries goes through
 * here, under ASan too (the real functions are ASan's). And with
 * -Wl,--wrap=koma_game_set_new,--wrap=koma__game_load_builtin: the loading of the
 * built-in games (the set, and each game compiled at its first lookup: a few
 * thousand allocations a game, the same for the same games) is told from the
 * rest, and its allocations are counted apart ("the loader"), so that a run's own points can
 * be tried without trying the loader's again each time (tests/faults/README.md,
 * "Which points").
 *
 * Environment:
 *   KOMA_FAULT_ALLOC=N   the Nth allocation (from 1) outside the loader fails
 *   KOMA_FAULT_LOADER=N  the Nth allocation (from 1) inside the loader fails
 *   KOMA_FAULT_BURST=K   the one chosen and the K-1 after it (of the same kind:
 *                        outside or inside the loader) fail: reaches recovery
 *                        paths that allocate again (default 1)
 *   KOMA_FAULT_WRITE=N   the disk is full from the Nth output call to stdout on:
 *                        standard output is pointed at /dev/full there, so that
 *                        call and every later write fails with ENOSPC
 *   KOMA_FAULT_COUNT=F   at exit, write "ALLOCATIONS OUTPUTS LOADER HASH" to the
 *                        file F: the counts of the run (allocations outside the
 *                        loader, output calls, allocations inside it) and a hash
 *                        of the loader's sequence of allocations (kind and size
 *                        of each), which tells whether two runs' loaders are the
 *                        same sequence of points
 *
 * A unit test linked with this file (tests/unit/test_oom_lib.c) chooses the
 * failing allocation itself: koma_fault_arm, koma_fault_count.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <koma/game.h>

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
static unsigned long loader_allocs, fail_loader, burst = 1;
static unsigned long long loader_hash = 1469598103934665603ULL;   /* FNV-1a */
static int configured, exiting, in_loader;

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
    fail_loader = env_number("KOMA_FAULT_LOADER");
    if (env_number("KOMA_FAULT_BURST") > 0) burst = env_number("KOMA_FAULT_BURST");
}

static void hash_in(unsigned long long v)
{
    for (int i = 0; i < 8; i++) {
        loader_hash ^= (v >> (8 * i)) & 0xff;
        loader_hash *= 1099511628211ULL;
    }
}

/* 1 when the allocation made now (kind: m, c, r, s, n; size n) is one to fail:
 * the chosen one of its counter (inside or outside the loader) or one of the
 * burst after it. */
static int alloc_fails(int kind, size_t n)
{
    configure();
    if (exiting) return 0;
    if (in_loader) {
        hash_in((unsigned long long)kind);
        hash_in((unsigned long long)n);
        ++loader_allocs;
        return fail_loader && loader_allocs >= fail_loader && loader_allocs - fail_loader < burst;
    }
    ++allocs;
    return fail_alloc && allocs >= fail_alloc && allocs - fail_alloc < burst;
}

void *__wrap_malloc(size_t n)
{
    if (alloc_fails('m', n)) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (alloc_fails('c', n * size)) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    if (alloc_fails('r', n)) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
    if (alloc_fails('s', strlen(s))) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    if (alloc_fails('n', strnlen(s, n))) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_strndup(s, n);
}

/* ---- for a unit test linked with this file (tests/unit/test_oom_lib.c) ------------ */

void koma_fault_arm(unsigned long n, unsigned long k);
unsigned long koma_fault_count(void);

/* From now on, the nth allocation outside the loader (from 1; 0: none) and the
 * k-1 after it fail. */
void koma_fault_arm(unsigned long n, unsigned long k)
{
    configure();
    allocs = 0;
    fail_alloc = n;
    burst = k ? k : 1;
}

/* The allocations outside the loader since koma_fault_arm. */
unsigned long koma_fault_count(void) { return allocs; }

/* ---- the loader of the built-in games ------------------------------------------ */

/* Every call of koma_game_set_new (cmd/games.c, lib/record_hub.c) comes here,
 * and every compiling of a built-in game at its first lookup (lib/game_set.c):
 * the loader is both. */
int __real_koma_game_set_new(koma_game_set **out, koma_error *err);
int __wrap_koma_game_set_new(koma_game_set **out, koma_error *err);
int __wrap_koma_game_set_new(koma_game_set **out, koma_error *err)
{
    configure();
    in_loader++;
    int rc = __real_koma_game_set_new(out, err);
    in_loader--;
    return rc;
}

struct koma__embedded_game;
int __real_koma__game_load_builtin(const struct koma__embedded_game *e, koma_game **out,
                                   koma_error *err);
int __wrap_koma__game_load_builtin(const struct koma__embedded_game *e, koma_game **out,
                                   koma_error *err);
int __wrap_koma__game_load_builtin(const struct koma__embedded_game *e, koma_game **out,
                                   koma_error *err)
{
    configure();
    in_loader++;
    int rc = __real_koma__game_load_builtin(e, out, err);
    in_loader--;
    return rc;
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
    char buf[128];
    int n = snprintf(buf, sizeof buf, "%lu %lu %lu %016llx\n", allocs, outputs, loader_allocs,
                     loader_allocs ? loader_hash : 0ULL);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    if (write(fd, buf, (size_t)n) != n) { /* nothing to do */ }
    close(fd);
}
