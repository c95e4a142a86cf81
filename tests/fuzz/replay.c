/*
 * tests/fuzz/replay.c — a plain main for a libFuzzer harness: feeds every file
 * named on the command line (directories are walked one level) to
 * LLVMFuzzerTestOneInput, so `make check` replays the corpus with any compiler.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path, unsigned long *count)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) { perror(path); return -1; }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (buf == NULL) { fclose(f); return -1; }
    size_t n;
    while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (nb == NULL) { free(buf); fclose(f); return -1; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    (*count)++;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long count = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { perror(argv[i]); status = 1; continue; }
        if (!S_ISDIR(st.st_mode)) { if (run_file(argv[i], &count)) status = 1; continue; }
        DIR *d = opendir(argv[i]);
        if (d == NULL) { perror(argv[i]); status = 1; continue; }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (run_file(path, &count)) status = 1;
        }
        closedir(d);
    }
    printf("%lu inputs replayed\n", count);
    return status;
}
