/*
 * koma-repetition-check — find repeated positions in game records and apply the
 * game's repetition rule (koma-games(7)).
 *
 * Positions are compared on board, hands and side to move with every "'"
 * removed. For each record: one `position` line per position that occurs more
 * than once (its FID, the FID of the stripped canonical FEEN, and the plies
 * where it occurs; ply 0 is the setup), then one `verdict` line: which rule
 * (if any) the repetition triggered — Ōgi's illegal repeat (the same move
 * producing the same position again), or a shogi-family fourfold repetition,
 * a draw unless it was perpetual check. The referee (koma/referee.h) judges and
 * keeps the table of positions (koma/repeats.h); this tool reports them, in the
 * words of the library (koma/verdict.h).
 *
 * Inputs: PCN records (JSON Lines or a YAML stream); with --start FEEN, runs of
 * PMN lines (a run ends at a blank line or the end of input) played from FEEN;
 * with --fid-only, runs of FEEN lines, no rules, any game. See
 * man/koma-repetition-check.1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "games.h"
#include "judge.h"
#include "records.h"
#include "verdict_out.h"

/* --fid-only: positions per run (a record's plies plus its setup). */
#define MAX_RUN ((size_t)KOMA_LIMIT_PLIES + 1)

typedef struct state {
    cli *c;
    int fid_only;
    const char *start;                 /* --start FEEN */
    records_options pcn;               /* --format */
    judge *jd;                         /* with KOMA_REFEREE_TRACK */
    koma_repeats *fids;                /* --fid-only */
    koma_position pos;
    const char *file;                  /* --fid-only: the run */
    unsigned long line;
    int invalid_run;
    unsigned long records, repeated, triggered, invalid;
    unsigned long n_illegal_repeat, n_fourfold, n_perpetual;
} state;

static int oom(state *st)
{
    cli_trouble(st->c, "memory: out of memory");
    return -1;
}

/* Each record under the rules: its repeated positions, then its verdict. */
static int on_record(void *ctx, const judge_record *r)
{
    state *st = ctx;
    st->records++;
    if (r->item && r->item->rec == NULL)
        cli_diag_error(st->c, CLI_DATA, r->item->src.file, &r->item->err, NULL);
    if (r->invalid) st->invalid++;
    if (r->v == NULL) return 0;
    koma_repeats *t = koma_referee_positions(judge_referee(st->jd));
    size_t nrep;
    if (verdict_print_positions(st->c, t, "plies", r->src->file, r->src->line, &nrep) != 0) return 1;
    if (nrep) st->repeated++;
    const char *rule = koma_verdict_repetition_rule(r->v);
    if (strcmp(rule, "none") != 0) {
        st->triggered++;
        cli_fail(st->c, CLI_DATA);
        if (strcmp(rule, "illegal-repeat") == 0) st->n_illegal_repeat++;
        else if (strcmp(rule, "fourfold") == 0) st->n_fourfold++;
        else st->n_perpetual++;
    }
    verdict_print_repetition(st->c, r->v, t, nrep, r->src->file, r->src->line);
    return 0;
}

/* --fid-only: runs of FEEN lines, no rules. */
static int fid_begin(void *ctx, const record_source *src)
{
    state *st = ctx;
    st->file = src->file;
    st->line = src->line;
    st->invalid_run = 0;
    st->records++;
    koma_repeats_reset(st->fids);
    return 0;
}

static int fid_line(void *ctx, const char *s, size_t len, unsigned long line, size_t col0)
{
    state *st = ctx;
    koma_error err;
    koma_error_clear(&err);
    (void)col0;
    if (s == NULL) {                   /* too long: reported */
        st->invalid++;
        return 0;
    }
    if (koma_feen_parse(s, len, KOMA_FEEN_STRICT, &st->pos, &err) != 0) {
        err.line = line;
        cli_diag_error(st->c, CLI_DATA, st->file, &err, NULL);
        st->invalid++;
        return 0;
    }
    if (koma_repeats_total(st->fids) >= MAX_RUN) {
        if (!st->invalid_run) {
            char msg[96];
            snprintf(msg, sizeof msg, "more than %zu positions in a run of FEEN lines; "
                     "the rest of the run is not checked", MAX_RUN);
            cli_diag(st->c, CLI_DATA, st->file, line, 1, koma_code_name(KOMA_E_REPETITION_LIMIT),
                     msg, NULL);
            st->invalid++;
            st->invalid_run = 1;
        }
        return 0;
    }
    if (koma_repeats_add_position(st->fids, &st->pos, line, &err) != 0) {
        oom(st);
        return -2;
    }
    return 0;
}

static int fid_end(void *ctx)
{
    state *st = ctx;
    size_t n;
    if (verdict_print_positions(st->c, st->fids, "lines", st->file, st->line, &n) != 0) return -2;
    if (n) st->repeated++;
    return 0;
}

static const records_moves_fns fid_fns = {fid_begin, fid_line, fid_end, 0, 0};

static void check_input(state *st, const char *path)
{
    cli_input in;
    if (cli_input_open(st->c, &in, path) != 0) return;
    if (st->fid_only) records_moves(st->c, &in, &fid_fns, st);
    else judge_input(st->jd, &in, &st->pcn, st->start, on_record, st);
    cli_input_close(&in);
}

/* ---- main --------------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("Usage: koma-repetition-check [OPTION]... [FILE]...\n"
          "Find repeated positions in game records (board, hands and side to move, every\n"
          "\"'\" removed) and apply the game's repetition rule: Ogi's illegal repeat (the\n"
          "same move producing the same position again: its player loses), or the\n"
          "shogi-family fourfold repetition (a draw; perpetual check loses).\n"
          "Input: PCN records (JSON Lines or a YAML stream) from each FILE (stdin when\n"
          "none or '-').\n"
          "\n"
          "  -g, --game GAME   the game: a built-in id or a YAML definition file;\n"
          "                    ids: " KOMA_GAME_IDS "\n"
          "                    default: from each setup FEEN's style letter and board\n"
          "                    shape\n"
          "      --start FEEN  the input is PMN lines played from FEEN ('start': the\n"
          "                    game's start position); a record is a run of lines\n"
          "                    ended by a blank line or the end of input\n"
          "      --pmn-dialect D  moves are in dialect D: pmn (default), seed, json-array,\n"
          "                    legs or sanki ([from, to, actor]; with --start, a line\n"
          "                    [[from, to, actor], ...] is a game)\n"
          "      --fid-only    the input is FEEN lines, runs ended by a blank line; no\n"
          "                    rules (any game): report the repeated positions only\n"
          "      --format F    PCN input is json (JSON Lines) or yaml (a YAML stream);\n"
          "                    by default each record: JSON when its line starts with {\n"
          "      --json        JSON objects on stdout (schemas/koma-repetition-check.schema.json)\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "      --summary     end with counts\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "Output, tab-separated, per record: for each repeated position\n"
          "  FILE:LINE  position  COUNT  PLIES  FID  FEEN\n"
          "(PLIES: comma-separated, 0 = the setup; line numbers with --fid-only), then\n"
          "  FILE:LINE  verdict  RULE  RESULT  PLY  FID  REASON\n"
          "with RULE none, illegal-repeat, fourfold or perpetual-check.\n"
          "Progress goes to stderr when it is a terminal.\n"
          "Exit status: 0 no rule triggered, 1 a repetition rule triggered or invalid\n"
          "data, 2 usage or I/O trouble.\n",
          f);
}

static void summary(const state *st)
{
    if (st->c->json) {
        printf("{\"summary\":{\"records\":%lu,\"repeated\":%lu,\"invalid\":%lu", st->records,
               st->repeated, st->invalid);
        if (!st->fid_only)
            printf(",\"triggered\":%lu,\"illegal_repeat\":%lu,\"fourfold\":%lu,"
                   "\"perpetual_check\":%lu",
                   st->triggered, st->n_illegal_repeat, st->n_fourfold, st->n_perpetual);
        fputs("}}\n", stdout);
    } else if (st->fid_only) {
        printf("%lu %s checked: %lu with repeated positions, %lu invalid %s\n", st->records,
               st->records == 1 ? "run" : "runs", st->repeated, st->invalid,
               st->invalid == 1 ? "line" : "lines");
    } else {
        printf("%lu %s checked: %lu with repeated positions, %lu repetition rules triggered "
               "(%lu illegal repeat, %lu fourfold, %lu perpetual check), %lu invalid\n",
               st->records, st->records == 1 ? "record" : "records", st->repeated, st->triggered,
               st->n_illegal_repeat, st->n_fourfold, st->n_perpetual, st->invalid);
    }
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    int rc;
    cli_init(&c, "koma-repetition-check", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;
    koma_position_init(&st.pos);
    const char *game = NULL, *start = NULL;
    koma_pmn_dialect dialect = KOMA_PMN_DIALECT_CANONICAL;

    enum { OPT_START = CLI_OPT_OWN, OPT_FID_ONLY, OPT_FORMAT, OPT_DIALECT };
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},
        {"start", required_argument, NULL, OPT_START},
        {"fid-only", no_argument, NULL, OPT_FID_ONLY},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"pmn-dialect", required_argument, NULL, OPT_DIALECT},
        CLI_OPTION_JSON, CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "g:qh", longopts)) != -1) {
        switch (opt) {
        case 'g': game = optarg; break;
        case OPT_START: start = optarg; break;
        case OPT_FID_ONLY: st.fid_only = 1; break;
        case OPT_FORMAT:
            if ((rc = records_format_option(&c, optarg, &st.pcn)) != 0) return rc;
            break;
        case OPT_DIALECT:
            if ((rc = records_dialect_option(&c, optarg, &dialect)) != 0) return rc;
            break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (st.fid_only && (start || game || st.pcn.format_given || dialect != KOMA_PMN_DIALECT_CANONICAL))
        return cli_usage_error(&c, "--fid-only excludes --start, --game, --format and --pmn-dialect");
    if (start && st.pcn.format_given)
        return cli_usage_error(&c, "--format is for PCN input, not with --start");
    if (dialect != KOMA_PMN_DIALECT_CANONICAL) st.pcn.pcn_flags |= KOMA_PCN_NO_PMN;
    /* a record is read only through the referee (its verdict, its table of
     * positions): no tree needed, as koma-replay's verdict lines */
    st.pcn.pcn_flags |= KOMA_PCN_LIGHT;

    koma_error err;
    koma_game_set *games = NULL;
    const koma_game *forced = NULL;
    char startbuf[KOMA_FEEN_MAX_LEN + 1];
    if (st.fid_only && koma_repeats_new(&st.fids, &err) != 0) {
        oom(&st);
        goto done;
    }
    if (!st.fid_only && games_open(&c, &games) != 0) goto done;
    if (game != NULL && games_option(&c, games, game, "(--fid-only needs none)", &forced) != 0)
        goto done;
    if (start != NULL) {
        if (records_start_option(&c, games, start, "(try --fid-only)", &forced, startbuf) != 0)
            goto done;
        st.start = startbuf;
    }
    if (!st.fid_only &&
        (st.jd = judge_new(&c, games, forced, dialect, KOMA_REFEREE_TRACK | KOMA_REFEREE_QUIET_PLAYED,
                           JUDGE_REPETITION)) == NULL) {
        oom(&st);
        goto done;
    }

    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        check_input(&st, path);
        if (cli_stdout_broken(&c)) break;
    }

    cli_progress_end(&c);
    if (c.summary && !c.quiet) summary(&st);
done:
    judge_free(st.jd);
    koma_repeats_free(st.fids);
    koma_game_set_free(games);
    koma_position_cleanup(&st.pos);
    return cli_finish(&c);
}
