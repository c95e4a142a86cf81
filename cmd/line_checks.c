/* cmd/line_checks.c — koma-validate --type pmn's options (see line_checks.h). */
#include "line_checks.h"

int line_ctx_open(line_ctx *lc, cli *c, const char *position, int legal)
{
    koma_position_init(&lc->pos);
    koma_position_init(&lc->context);
    if (position) {
        koma_error err;
        koma_error_clear(&err);
        if (koma_feen_parse(position, strlen(position), KOMA_FEEN_STRICT, &lc->context, &err) != 0)
            return cli_usage_error(c, "--position: column %lu: %s: %s", err.column, koma_code_name(err.code),
                                   err.message);
        lc->has_context = 1;
    } else if (lc->dialect != KOMA_PMN_DIALECT_CANONICAL) {
        return cli_usage_error(c, "--pmn-dialect %s needs --position FEEN", koma_pmn_dialect_name(lc->dialect));
    }
    if (legal && !position) return cli_usage_error(c, "--legal needs --position FEEN");
    return 0;
}

void line_ctx_close(line_ctx *lc)
{
    koma_engine_free(lc->engine);
    lc->engine = NULL;
    koma_position_cleanup(&lc->pos);
    koma_position_cleanup(&lc->context);
}

int line_ctx_legal(line_ctx *lc, cli *c, const koma_game_set *games, const char *position)
{
    koma_error err;
    koma_error_clear(&err);
    const koma_game *g = NULL;
    if (koma_game_set_open_feen(games, position, strlen(position), &lc->pos, &g, &err) == 0 &&
        koma_engine_new(g, &lc->engine, &err) == 0 &&
        koma_engine_set_position(lc->engine, &lc->context, &err) == 0)
        return 0;
    if (err.code == KOMA_E_MEMORY)
        cli_trouble(c, "memory: out of memory");
    else
        cli_usage_error(c, "--legal: %s: %s", koma_code_name(err.code), err.message);
    return -1;
}

/* A PMN line: one move or a chain of elements (koma/pmn.h). */
int line_check_pmn(line_ctx *lc, const char *s, size_t len, koma_error *err)
{
    koma_chain c;
    if (koma_chain_parse_dialect(lc->dialect, s, len, lc->has_context ? &lc->context : NULL, &c,
                                 err) != 0)
        return -1;
    if (lc->engine == NULL) return 0;
    koma_emove m;
    if (lc->dialect == KOMA_PMN_DIALECT_SANKI && c.len == 1 &&
        koma_engine_match_move(lc->engine, &c.el[0], &m, err) == 0)
        return 0;                      /* [from, to, actor] names a legal move */
    /* --legal: the canonical form names a legal move of the position */
    char text[KOMA_MOVE_TEXT_BUF];
    size_t n = koma_chain_write(&c, text, sizeof text);
    if (n == 0 || n >= sizeof text)
        return koma_error_set(err, KOMA_E_PMN_CHAIN_LENGTH, 0, "the move's canonical form is too long");
    if (koma_engine_parse_move(lc->engine, text, n, &m, err) != 0) {
        if (n != len || memcmp(text, s, len) != 0) {
            err->offset = 0;           /* (an offset into the canonical text) */
            err->column = 1;
        }
        return -1;
    }
    return 0;
}

