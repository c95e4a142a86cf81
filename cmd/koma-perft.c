/*
 * koma-perft — count the leaves of the legal-move tree (perft) of positions.
 *
 * Operands are FEEN strings (the game's start position when there are none);
 * "-" reads stdin: one FEEN, or DEPTH<TAB>FEEN, a line. One count a position;
 * --divide gives `PMN: count` lines sorted by PMN then `Nodes searched: N`;
 * --split K prints DEPTH<TAB>FEEN jobs whose counts sum to the perft. The game
 * comes from --game (an id or a YAML file) or from each FEEN's style letter and
 * board shape. See man/koma-perft.1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "games.h"

#define MAX_DEPTH 64u

typedef struct state {
    cli *c;
    koma_game_set *games;
    const koma_game *forced;           /* --game */
    engine_cache engines;
    unsigned depth;
    int divide;
    int split;                         /* -1: no split */
    int verbose;
    int blocks;                        /* divide blocks printed (blank line between) */
    uint64_t total;
    unsigned long positions;
    const cli_input *in;               /* stdin, while it is read */
} state;

static void usage(FILE *f)
{
    fputs("Usage: koma-perft [OPTION]... [FEEN|-]...\n"
          "Count the leaf nodes of the legal-move tree of each position (perft).\n"
          "With no FEEN, the start position of the game; '-' reads stdin: one FEEN or\n"
          "DEPTH<TAB>FEEN a line.\n"
          "\n"
          "  -g, --game GAME   the game: a built-in id or a YAML definition file;\n"
          "                    ids: " KOMA_GAME_IDS "\n"
          "                    default: from each FEEN's style letter and board shape\n"
          "                    (" DEFAULT_GAME " with no FEEN)\n"
          "  -d, --depth N     depth (default 1; a DEPTH<TAB> prefix overrides it)\n"
          "      --divide      count each root move: `PMN: count` sorted by PMN, then\n"
          "                    `Nodes searched: N`\n"
          "      --split K     print DEPTH<TAB>FEEN jobs, one per path of K plies, whose\n"
          "                    counts sum to the perft (run them with the same --game)\n"
          "      --json        one JSON object per position on stdout\n"
          "      --summary     end with the number of positions and of nodes in all\n"
          "  -v, --verbose     time and nodes per second on stderr\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "Progress goes to stderr when it is a terminal.\n"
          "Exit status: 0 all good, 1 an invalid position, 2 usage or I/O trouble.\n",
          f);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int progress_cb(void *ctx, size_t done, size_t total)
{
    cli_progress(ctx, done, total, "root moves");
    return 0;
}

typedef struct split_out {
    state *st;
} split_out;

static int split_job(void *ctx, unsigned depth, const char *feen, size_t len)
{
    split_out *so = ctx;
    cli *c = so->st->c;
    if (c->quiet) return 0;
    if (c->json) {
        printf("{\"depth\":%u,\"feen\":", depth);
        cli_json_string(stdout, feen, len);
        fputs("}\n", stdout);
    } else {
        printf("%u\t%.*s\n", depth, (int)len, feen);
    }
    return cli_stdout_broken(c) ? 1 : 0;
}

/* Run one position: FEEN s[0..len) (NULL: the game's start), at depth. */
static void run(state *st, const char *file, unsigned long line, unsigned long col0,
                const char *s, size_t len, unsigned depth)
{
    cli *c = st->c;
    koma_error err;
    koma_error_clear(&err);
    const koma_game *g = st->forced;
    koma_position pos;
    koma_position_init(&pos);
    koma_engine *e = NULL;
    if (s != NULL) {
        if (koma_game_set_open_feen(st->games, s, len, &pos, &g, &err) != 0) goto bad;
    } else if (g == NULL && koma_game_set_lookup(st->games, DEFAULT_GAME, strlen(DEFAULT_GAME), &g, &err) != 0) {
        goto bad;
    }
    if ((e = engine_cache_get(&st->engines, g, &err)) == NULL) goto bad;
    if (s != NULL ? koma_engine_set_position(e, &pos, &err) != 0 : koma_engine_set_start(e, &err) != 0)
        goto bad;
    koma_position_cleanup(&pos);
    st->positions++;

    char feen[KOMA_FEEN_MAX_LEN + 1];
    if (koma_engine_feen(e, feen, sizeof feen, NULL, &err) != 0) {
        cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
        return;
    }
    if (st->split >= 0) {
        split_out so = {st};
        if ((unsigned)st->split > depth) {
            err.line = line;
            koma_error_set(&err, KOMA_E_PERFT_DEPTH, 0, "--split %d exceeds the depth %u", st->split, depth);
            err.line = line;
            err.column = col0;
            cli_diag_error(c, CLI_DATA, file, &err, NULL);
            return;
        }
        if (koma_engine_perft_split(e, depth, (unsigned)st->split, split_job, &so, &err) < 0)
            cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
        return;
    }
    double t0 = now();
    uint64_t nodes = 0;
    koma_perft_entry *entries = NULL;
    size_t nentries = 0;
    int want_progress = c->progress && depth >= 5;
    if (st->divide || want_progress) {
        if (depth == 0) {
            nodes = 1;
        } else if (koma_engine_perft_divide(e, depth, &entries, &nentries,
                                            want_progress ? progress_cb : NULL, c, &err) != 0) {
            cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
            return;
        }
        cli_progress_end(c);
        for (size_t i = 0; i < nentries; i++) nodes += entries[i].nodes;
    } else {
        if (koma_engine_perft(e, depth, &nodes, &err) != 0) {
            cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
            return;
        }
    }
    double dt = now() - t0;
    st->total += nodes;
    if (st->verbose)
        fprintf(stderr, "koma-perft: %s depth %u: %llu nodes in %.3f s (%.2f M nodes/s)\n",
                koma_game_id(g), depth, (unsigned long long)nodes, dt,
                dt > 0 ? (double)nodes / dt / 1e6 : 0.0);
    if (!c->quiet) {
        if (c->json) {
            printf("{\"game\":\"%s\",\"feen\":", koma_game_id(g));
            cli_json_cstr(stdout, feen);
            printf(",\"depth\":%u,\"nodes\":%llu", depth, (unsigned long long)nodes);
            if (st->divide) {
                fputs(",\"divide\":{", stdout);
                for (size_t i = 0; i < nentries; i++) {
                    if (i) putchar(',');
                    cli_json_cstr(stdout, entries[i].pmn);
                    printf(":%llu", (unsigned long long)entries[i].nodes);
                }
                putchar('}');
            }
            fputs("}\n", stdout);
        } else if (st->divide) {
            if (st->blocks++) putchar('\n');
            for (size_t i = 0; i < nentries; i++)
                printf("%s: %llu\n", entries[i].pmn, (unsigned long long)entries[i].nodes);
            printf("Nodes searched: %llu\n", (unsigned long long)nodes);
        } else {
            printf("%llu\n", (unsigned long long)nodes);
        }
    }
    free(entries);
    return;
bad:
    koma_position_cleanup(&pos);
    err.line = line;
    err.column += col0 - 1;
    cli_diag_error(c, CLI_DATA, file, &err, NULL);
}

static int parse_depth(const char *s, size_t len, unsigned *out)
{
    unsigned v = 0;
    if (len == 0 || len > 3) return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v > MAX_DEPTH || (len > 1 && s[0] == '0')) return -1;
    *out = v;
    return 0;
}

/* A line of stdin: FEEN, or DEPTH<TAB>FEEN. */
static int stdin_line(void *ctx, const char *s, size_t len)
{
    state *st = ctx;
    cli *c = st->c;
    const cli_input *in = st->in;
    if (s == NULL) {
        koma_error err;
        cli_line_too_long(in, &err);
        cli_diag_error(c, CLI_DATA, in->name, &err, NULL);
        return 0;
    }
    unsigned depth = st->depth;
    const char *tab = memchr(s, '\t', len);
    unsigned long col0 = 1;
    if (tab != NULL) {
        size_t dl = (size_t)(tab - s);
        if (parse_depth(s, dl, &depth) != 0) {
            char msg[96];
            snprintf(msg, sizeof msg, "invalid depth before the tab (0 to %u)", MAX_DEPTH);
            cli_diag(c, CLI_DATA, in->name, in->line, 1, "perft.depth", msg, NULL);
            return 0;
        }
        col0 = (unsigned long)dl + 2;
        len -= dl + 1;
        s = tab + 1;
    }
    run(st, in->name, in->line, col0, s, len, depth);
    return 0;
}

static void run_stdin(state *st)
{
    cli_input in;
    if (cli_input_open(st->c, &in, "-") != 0) return;
    st->in = &in;
    cli_input_lines(st->c, &in, NULL, stdin_line, st);
    cli_input_close(&in);
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    int rc;
    cli_init(&c, "koma-perft", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;
    st.depth = 1;
    st.split = -1;
    const char *game = NULL;

    enum { OPT_DIVIDE = CLI_OPT_OWN, OPT_SPLIT };
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},
        {"depth", required_argument, NULL, 'd'},
        {"divide", no_argument, NULL, OPT_DIVIDE},
        {"split", required_argument, NULL, OPT_SPLIT},
        {"verbose", no_argument, NULL, 'v'},
        CLI_OPTION_JSON,
        CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "g:d:vqh", longopts)) != -1) {
        unsigned v;
        switch (opt) {
        case 'g': game = optarg; break;
        case 'd':
            if (parse_depth(optarg, strlen(optarg), &v) != 0)
                return cli_usage_error(&c, "invalid depth '%s' (0 to %u)", optarg, MAX_DEPTH);
            st.depth = v;
            break;
        case OPT_SPLIT:
            if (parse_depth(optarg, strlen(optarg), &v) != 0)
                return cli_usage_error(&c, "invalid --split '%s' (0 to %u)", optarg, MAX_DEPTH);
            st.split = (int)v;
            break;
        case OPT_DIVIDE: st.divide = 1; break;
        case 'v': st.verbose = 1; break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (st.divide && st.split >= 0) return cli_usage_error(&c, "--divide and --split exclude each other");
    if (c.summary && st.split >= 0) return cli_usage_error(&c, "--summary and --split exclude each other");

    if (games_open(&c, &st.games) != 0) goto done;
    if (game != NULL && games_option(&c, st.games, game, NULL, &st.forced) != 0) goto done;
    if (optind >= argc) {
        run(&st, "<start>", 1, 1, NULL, 0, st.depth);
    } else {
        for (int i = optind; i < argc; i++) {
            if (strcmp(argv[i], "-") == 0) run_stdin(&st);
            else run(&st, "<argument>", (unsigned long)(i - optind + 1), 1, argv[i], strlen(argv[i]), st.depth);
            if (cli_stdout_broken(&c)) break;
        }
    }
    if (c.summary && !c.quiet) {
        if (c.json)
            printf("{\"summary\":{\"positions\":%lu,\"nodes\":%llu}}\n", (unsigned long)st.positions,
                   (unsigned long long)st.total);
        else
            printf("%lu position%s, %llu nodes in all\n", (unsigned long)st.positions,
                   st.positions == 1 ? "" : "s", (unsigned long long)st.total);
    }
done:
    engine_cache_free(&st.engines);
    koma_game_set_free(st.games);
    return cli_finish(&c);
}
