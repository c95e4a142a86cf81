/*
 * koma — run a koma tool by its short name, as git does: `koma validate ARGS`
 * runs `koma-validate ARGS`. The tool is looked for first beside this program,
 * then on PATH. `koma --help` lists the tools it finds.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define MAX_TOOLS 64

/* The directory this program lives in ("" when unknown). */
static void self_dir(const char *argv0, char *out, size_t cap)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    out[0] = '\0';
    if (n > 0) {
        buf[n] = '\0';
    } else if (strchr(argv0, '/') != NULL && strlen(argv0) < sizeof buf) {
        strcpy(buf, argv0);
    } else {
        return;
    }
    char *slash = strrchr(buf, '/');
    if (slash == NULL) return;
    *slash = '\0';
    snprintf(out, cap, "%s", buf[0] ? buf : "/");
}

static int is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* A tool name is letters, digits and '-' only (no path tricks). */
static int valid_tool_name(const char *name)
{
    if (*name == '\0' || *name == '-') return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) return 0;
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect koma-* executables of dir into names (deduplicated). */
static void scan_dir(const char *dir, char **names, size_t *n)
{
    DIR *d = opendir(dir);
    if (d == NULL) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && *n < MAX_TOOLS) {
        if (strncmp(e->d_name, "koma-", 5) != 0 || !valid_tool_name(e->d_name + 5)) continue;
        char path[PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path) continue;
        if (!is_executable(path)) continue;
        int seen = 0;
        for (size_t i = 0; i < *n; i++)
            if (strcmp(names[i], e->d_name + 5) == 0) seen = 1;
        if (!seen) {
            char *copy = strdup(e->d_name + 5);
            if (copy) names[(*n)++] = copy;
        }
    }
    closedir(d);
}

static void usage(FILE *f, const char *self)
{
    char *names[MAX_TOOLS];
    size_t n = 0;
    fputs("Usage: koma TOOL [ARG]...\n"
          "       koma --help | --version\n"
          "Run koma-TOOL with the given arguments. Tools are Unix filters for board-game\n"
          "records in the Game Protocol notations (FEEN, PMN, GGN, CGSN, PCN); see koma(7).\n\n"
          "Tools found:\n",
          f);
    if (self[0]) scan_dir(self, names, &n);
    const char *path = getenv("PATH");
    if (path) {
        char *copy = strdup(path);
        for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
             dir = strtok_r(NULL, ":", &save))
            scan_dir(*dir ? dir : ".", names, &n);
        free(copy);
    }
    qsort(names, n, sizeof names[0], cmp_str);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "  %s\n", names[i]);
        free(names[i]);
    }
    if (n == 0) fputs("  (none)\n", f);
    fputs("\n'koma TOOL --help' describes one tool.\n", f);
}

int main(int argc, char **argv)
{
    cli c;
    char self[PATH_MAX];
    cli_init(&c, "koma", NULL);
    self_dir(argv[0], self, sizeof self);

    if (argc < 2) {
        usage(stderr, self);
        return CLI_TROUBLE;
    }
    const char *tool = argv[1];
    if (strcmp(tool, "-h") == 0 || strcmp(tool, "--help") == 0 || strcmp(tool, "help") == 0) {
        usage(stdout, self);
        return cli_finish(&c);
    }
    if (strcmp(tool, "--version") == 0) {
        cli_version(&c);
        return cli_finish(&c);
    }
    if (tool[0] == '-') return cli_usage_error(&c, "invalid option '%s'", tool);
    if (!valid_tool_name(tool)) return cli_usage_error(&c, "'%s' is not a koma tool", tool);

    char name[NAME_MAX + 1];
    if ((size_t)snprintf(name, sizeof name, "koma-%s", tool) >= sizeof name)
        return cli_usage_error(&c, "'%s' is not a koma tool", tool);
    argv[1] = name;
    if (self[0]) {
        char path[PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", self, name) < sizeof path &&
            is_executable(path)) {
            execv(path, argv + 1);
            cli_trouble(&c, "cannot run %s: %s", path, strerror(errno));
            return CLI_TROUBLE;
        }
    }
    execvp(name, argv + 1);
    if (errno == ENOENT)
        return cli_usage_error(&c, "'%s' is not a koma tool (no %s beside koma or on PATH)", tool,
                               name);
    cli_trouble(&c, "cannot run %s: %s", name, strerror(errno));
    return CLI_TROUBLE;
}
