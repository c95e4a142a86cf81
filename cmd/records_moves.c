/*
 * cmd/records_moves.c — inputs of moves (records.h): --pmn-dialect, and --start
 * FEEN's runs of PMN lines played from one position, a blank line between
 * records (records_start_option, records_moves). The PCN databases are
 * cmd/records.c's.
 */
#include <string.h>

#include "games.h"
#include "records.h"

/* ---- moves -------------------------------------------------------------------- */

int records_dialect_option(cli *c, const char *arg, koma_pmn_dialect *out)
{
    if (koma_pmn_dialect_from_name(arg, strlen(arg), out) == 0) return 0;
    return cli_usage_error(c, "unknown PMN dialect '%s' (pmn, seed, json-array, legs, sanki)", arg);
}

/* ---- --start FEEN: runs of PMN lines ---------------------------------------- */

int records_start_option(cli *c, koma_game_set *games, const char *arg, const char *norules_hint,
                         const koma_game **forced, char *feen)
{
    koma_error err;
    koma_error_clear(&err);
    const koma_game *g = *forced;
    if (strcmp(arg, "start") == 0) {
        if (g == NULL && games_lookup(c, games, DEFAULT_GAME, &g) != 0) return CLI_TROUBLE;
        *forced = g;
        arg = koma_game_start(g);
    }
    koma_position pos;
    koma_position_init(&pos);
    int rc = 0;
    /* the library's "open a position from FEEN with its game" */
    if (koma_game_set_open_feen(games, arg, strlen(arg), &pos, &g, &err) != 0) {
        const char *code = koma_code_name(err.code);
        if (err.code == KOMA_E_MEMORY) {
            cli_trouble(c, "memory: out of memory");
            rc = CLI_TROUBLE;
        } else if (strncmp(code, "feen.", 5) == 0) {
            rc = cli_usage_error(c, "--start: column %lu: %s: %s", err.column, code, err.message);
        } else {
            int norules = err.code == KOMA_E_GAME_NO_RULES && norules_hint;
            rc = cli_usage_error(c, "--start: %s: %s%s%s", code, err.message, norules ? " " : "",
                                 norules ? norules_hint : "");
        }
    }
    if (rc == 0) strcpy(feen, arg);          /* a valid FEEN fits KOMA_FEEN_MAX_LEN */
    koma_position_cleanup(&pos);
    return rc;
}

static int blank_line(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t') return 0;
    return 1;
}

/* The run of moves being read. */
typedef struct moves_run {
    cli *c;
    const cli_input *in;
    const records_moves_fns *fns;
    void *ctx;
    record_source src;
    int open, any, skip;
} moves_run;

static int moves_end(moves_run *m)
{
    m->open = 0;
    cli_progress_step(m->c, "records");
    return m->fns->end(m->ctx);
}

/* One move of a Sanki list line. */
typedef struct list_run {
    moves_run *m;
    const char *s;
    int rc;
} list_run;

static int list_move(void *ctx, size_t at, size_t len)
{
    list_run *l = ctx;
    if (l->m->skip != 0) return 0;
    l->rc = l->m->fns->move(l->m->ctx, l->s + at, len, l->m->in->line, at);
    return l->rc == -2 ? 1 : 0;
}

/* A line [[from, to, actor], ...]: a record of its own. */
static int no_move(void *ctx, size_t at, size_t len)
{
    (void)ctx, (void)at, (void)len;
    return 0;
}

static int list_line(moves_run *m, const char *s, size_t len)
{
    if (m->open && moves_end(m) == -2) return -2;
    koma_error err;
    koma_error_clear(&err);
    m->any = 1;
    if (koma_sanki_move_list(s, len, no_move, NULL, &err) < 0) {
        /* not a list of moves: no record to play */
        err.line = m->in->line;
        cli_diag_error(m->c, CLI_DATA, m->in->name, &err, NULL);
        return 0;
    }
    m->open = 1;
    m->src.line = m->in->line;
    if ((m->skip = m->fns->begin(m->ctx, &m->src)) == -2) return -2;
    list_run l = {m, s, 0};
    koma_sanki_move_list(s, len, list_move, &l, &err);
    if (l.rc == -2) return -2;
    return moves_end(m);
}

static int moves_line(void *ctx, const char *s, size_t len)
{
    moves_run *m = ctx;
    if (s != NULL && blank_line(s, len)) return m->open ? moves_end(m) : 0;
    if (s != NULL && m->fns->sanki_lists && koma_sanki_is_list(s, len)) return list_line(m, s, len);
    if (!m->open) {
        m->open = m->any = 1;
        m->src.line = m->in->line;
        if ((m->skip = m->fns->begin(m->ctx, &m->src)) == -2) return -2;
    }
    if (s == NULL) {
        koma_error err;
        cli_line_too_long(m->in, &err);
        cli_diag_error(m->c, CLI_DATA, m->in->name, &err, NULL);
    }
    return m->skip == 0 ? m->fns->move(m->ctx, s, len, m->in->line, 0) : 0;
}

void records_moves(cli *c, cli_input *in, const records_moves_fns *fns, void *ctx)
{
    moves_run m = {c, in, fns, ctx, {in->name, 1, NULL, NULL}, 0, 0, 0};
    if (cli_input_lines(c, in, NULL, moves_line, &m) != 0) return;
    if (!m.any && fns->empty_is_record) {
        /* no moves at all: the position itself */
        m.open = 1;
        if (fns->begin(ctx, &m.src) == -2) return;
    }
    if (m.open) moves_end(&m);
}
