/* cmd/diag_gather.c — one JSON object an item (see diag_gather.h). */
#include "diag_gather.h"

#include <stdlib.h>

int diag_gather_start(diag_gather *g, cli *c)
{
    g->c = c;
    g->buf = NULL;
    g->len = 0;
    g->f = open_memstream(&g->buf, &g->len);
    if (g->f == NULL) {
        cli_trouble(c, "memory: out of memory");
        return -1;
    }
    c->json_diag = g->f;
    return 0;
}

void diag_gather_end(diag_gather *g)
{
    if (g->f) fclose(g->f);
    free(g->buf);
    if (g->c) g->c->json_diag = NULL;
    g->f = NULL;
    g->buf = NULL;
    g->len = 0;
}

long diag_gather_take(diag_gather *g)
{
    if (g->f == NULL) return 0;
    if (fflush(g->f) != 0 || ferror(g->f)) {
        cli_trouble(g->c, "memory: out of memory");
        return -1;
    }
    return (long)g->len;
}

void diag_gather_hold(diag_gather *g, int on)
{
    if (g->c) g->c->json_diag = on ? g->f : NULL;
}

int diag_gather_restart(diag_gather *g)
{
    cli *c = g->c;
    diag_gather_end(g);
    return diag_gather_start(g, c);
}

void diag_gather_print(const diag_gather *g, size_t len, const char *type)
{
    const char *b = g->buf;
    while (len > 0 && b[len - 1] == '\n') len--;
    if (len < 2) return;
    const char *nl = memchr(b, '\n', len);
    size_t first = nl ? (size_t)(nl - b) : len;
    fwrite(b, 1, first - 1, stdout);   /* the first diagnostic without its '}' */
    printf(",\"type\":\"%s\",\"valid\":false,\"diagnostics\":[", type);
    for (size_t i = 0; i < len; i++) putchar(b[i] == '\n' ? ',' : b[i]);
    fputs("]}\n", stdout);
}
