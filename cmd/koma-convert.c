/*
 * koma-convert — convert between the notations of koma.
 *
 *   --to ggn --game GAME     the pseudo-legal move patterns of a game definition
 *                            as a GGN document (pretty JSON; --compact: one line)
 *   --to feen [--normalise]  FEEN lines (FILE operands or stdin) written
 *                            canonically; --normalise accepts hands that are not
 *                            aggregated or not in canonical order (DESIGN.md §3);
 *                            --normalise alone means --to feen
 *   --json, --summary        as every tool (DESIGN.md §5); schemas/koma-convert.schema.json
 *
 * Each output format is one entry of `targets`, so more conversions (records,
 * PMN dialects) slot in beside these. See man/koma-convert.1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "games.h"

typedef struct state {
    cli *c;
    const char *game;                  /* --game */
    int compact;                       /* --compact */
    int normalise;                     /* --normalise */
    koma_position pos;
    unsigned long lines, converted, invalid;
    const cli_input *in;               /* the input being converted */
} state;

static void usage(FILE *f)
{
    fputs("Usage: koma-convert --to ggn --game GAME [--compact | --json]\n"
          "  or:  koma-convert --to feen [--normalise] [--json] [--summary] [FILE]...\n"
          "Convert between the notations of koma.\n"
          "\n"
          "  -t, --to FORMAT   the output format:\n"
          "                      ggn   the move patterns of the game (--game) as a GGN\n"
          "                            document; reads no input\n"
          "                      feen  each FEEN line of the input, written canonically\n"
          "  -g, --game GAME   the game (--to ggn): an id (ogi, ogi-classic, shogi,\n"
          "                    minishogi, okisaki) or a YAML definition file\n"
          "      --compact     the GGN document on one line (default: pretty-printed)\n"
          "  -n, --normalise   (--to feen) also accept hands that are not aggregated or\n"
          "                    not in canonical order; alone, it means --to feen\n"
          "      --json        JSON Lines: --to feen, one object per line ({file, line,\n"
          "                    feen} or a diagnostic); --to ggn, the document on one line\n"
          "      --summary     (--to feen) end with counts\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "With no FILE, or when FILE is -, read standard input.\n"
          "Exit status: 0 all good, 1 invalid input, 2 usage or I/O trouble.\n",
          f);
}

/* ---- --to ggn ---------------------------------------------------------------- */

static int stdout_sink(const char *s, size_t len, void *ctx)
{
    cli *c = ctx;
    if (len && fwrite(s, 1, len, stdout) != len) {
        cli_stdout_broken(c);              /* a closed pipe exits quietly here */
        return -1;
    }
    return 0;
}

static void to_ggn(state *st)
{
    cli *c = st->c;
    koma_error err;
    koma_error_clear(&err);
    koma_game_set *games;
    const koma_game *g;
    if (games_open(c, &games) != 0) return;
    if (games_option(c, games, st->game, NULL, &g) == 0) {
        koma_ggn *ggn = koma_game_to_ggn(g, &err);
        if (ggn == NULL) {
            cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
        } else {
            if (!c->quiet &&
                koma_ggn_write(ggn, st->compact || c->json ? KOMA_GGN_COMPACT : KOMA_GGN_PRETTY,
                               stdout_sink, c,
                               &err) != 0)
                cli_stdout_broken(c);      /* cli_finish reports a write error */
            koma_ggn_free(ggn);
        }
    }
    koma_game_set_free(games);
}

/* ---- --to feen --------------------------------------------------------------- */

static void feen_line(state *st, const char *file, unsigned long line, const char *s, size_t len)
{
    cli *c = st->c;
    koma_error err;
    koma_error_clear(&err);
    st->lines++;
    unsigned flags = st->normalise ? KOMA_FEEN_NORMALISE : KOMA_FEEN_STRICT;
    if (koma_feen_parse(s, len, flags, &st->pos, &err) != 0) {
        st->invalid++;
        err.line = line;
        cli_diag_error(c, CLI_DATA, file, &err, NULL);
        return;
    }
    st->converted++;
    if (c->quiet) return;
    char buf[KOMA_FEEN_MAX_LEN + 1];
    size_t n = koma_feen_write(&st->pos, buf, sizeof buf);
    if (n >= sizeof buf) {
        /* cannot happen: a normalised hand is never longer than the one read */
        cli_diag(c, CLI_DATA, file, line, 1, "feen.length", "canonical FEEN exceeds 4096 bytes", NULL);
        return;
    }
    if (c->json) {
        fputs("{\"file\":", stdout);
        cli_json_cstr(stdout, file);
        fprintf(stdout, ",\"line\":%lu,\"feen\":", line);
        cli_json_string(stdout, buf, n);
        fputs("}\n", stdout);
        return;
    }
    buf[n] = '\n';
    fwrite(buf, 1, n + 1, stdout);
}

static int feen_input_line(void *ctx, const char *s, size_t len)
{
    state *st = ctx;
    const cli_input *in = st->in;
    if (s != NULL) {
        feen_line(st, in->name, in->line, s, len);
        return 0;
    }
    koma_error err;
    cli_line_too_long(in, &err);
    st->lines++;
    st->invalid++;
    cli_diag_error(st->c, CLI_DATA, in->name, &err, NULL);
    return 0;
}

static void to_feen(state *st, const char *path)
{
    cli_input in;
    if (cli_input_open(st->c, &in, path) != 0) return;
    st->in = &in;
    cli_input_lines(st->c, &in, NULL, feen_input_line, st);
    cli_input_close(&in);
}

/* ---- main ---------------------------------------------------------------------- */

enum target { T_NONE, T_GGN, T_FEEN };

static const struct {
    const char *name;
    enum target t;
} targets[] = {
    {"ggn", T_GGN},
    {"feen", T_FEEN},
};

int main(int argc, char **argv)
{
    cli c;
    state st;
    cli_init(&c, "koma-convert", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;
    enum target to = T_NONE;
    int rc;

    enum { OPT_COMPACT = CLI_OPT_OWN };
    static const struct option longopts[] = {
        {"to", required_argument, NULL, 't'},
        {"game", required_argument, NULL, 'g'},
        {"compact", no_argument, NULL, OPT_COMPACT},
        {"normalise", no_argument, NULL, 'n'},
        {"normalize", no_argument, NULL, 'n'},
        CLI_OPTION_JSON,
        CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "t:g:nqh", longopts)) != -1) {
        switch (opt) {
        case 't':
            to = T_NONE;
            for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
                if (strcmp(optarg, targets[i].name) == 0) to = targets[i].t;
            if (to == T_NONE) return cli_usage_error(&c, "unknown format '%s' (ggn, feen)", optarg);
            break;
        case 'g': st.game = optarg; break;
        case OPT_COMPACT: st.compact = 1; break;
        case 'n': st.normalise = 1; break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (to == T_NONE && st.normalise) to = T_FEEN;
    if (to == T_NONE) return cli_usage_error(&c, "missing --to FORMAT (ggn, feen)");
    if (to == T_GGN) {
        if (st.game == NULL) return cli_usage_error(&c, "--to ggn needs --game GAME");
        if (st.normalise) return cli_usage_error(&c, "--normalise needs --to feen");
        if (optind < argc) return cli_usage_error(&c, "--to ggn reads no input: '%s'", argv[optind]);
        if (c.summary) return cli_usage_error(&c, "--summary needs --to feen");
        to_ggn(&st);
        return cli_finish(&c);
    }
    if (st.game != NULL) return cli_usage_error(&c, "--game needs --to ggn");
    if (st.compact) return cli_usage_error(&c, "--compact needs --to ggn");
    koma_position_init(&st.pos);
    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        to_feen(&st, path);
        if (cli_stdout_broken(&c)) break;
    }
    if (c.summary && !c.quiet) {
        if (c.json)
            printf("{\"summary\":{\"lines\":%lu,\"converted\":%lu,\"invalid\":%lu}}\n", st.lines,
                   st.converted, st.invalid);
        else
            printf("%lu %s read: %lu converted, %lu invalid\n", st.lines,
                   st.lines == 1 ? "line" : "lines", st.converted, st.invalid);
    }
    koma_position_cleanup(&st.pos);
    return cli_finish(&c);
}
