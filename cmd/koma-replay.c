/*
 * koma-replay — replay game records under the rules of their game and report,
 * per record, how the game ended (the rules: koma-games(7); the output line:
 * koma(7), COMMON CONTRACT).
 *
 * Input: PCN records (JSON Lines or a YAML stream), with --from the records of
 * any format koma reads (CSA, USI, SFEN, KIF...: made PCN by the hub of
 * koma/format.h, so a KIF is judged without converting it first), or with
 * --start FEEN bare lists of moves, one per line, a blank line between records. Output, one line
 * a record: SOURCE, RESULT, STATUS, PLY, FEEN (koma(7), COMMON CONTRACT), then PLAYED and
 * FID; --adjudicate: SOURCE, RESULT, STATUS, PLY, REASON; --each: the FEEN
 * after every ply; --write-outcome: the records with their outcome filled in;
 * --json: one object a record (schemas/koma-replay.schema.json).
 * The judging is the referee's (koma/referee.h, through cmd/judge.c); the
 * words are the library's (koma/verdict.h). See man/koma-replay.1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "games.h"
#include "judge.h"
#include "records.h"
#include "verdict_out.h"

enum { MODE_LINE, MODE_ADJUDICATE, MODE_EACH, MODE_WRITE };

typedef struct state {
    cli *c;
    judge *jd;
    int mode;
    const char *start;                 /* --start FEEN (canonical), or NULL */
    records_options pcn;               /* --format; no PMN check with a dialect */
    int each_open;                     /* --each printed positions of this record */
    koma_buffer out;               /* --write-outcome: a record, written whole */
    unsigned long records, finished, unfinished, disputed, invalid;
    unsigned long long plies;
} state;

static void usage(FILE *f)
{
    fputs("Usage: koma-replay [OPTION]... [FILE]...\n"
          "Replay every record of each FILE (stdin when none or '-') under the rules of its\n"
          "game and print one line a record:\n"
          "  SOURCE<TAB>RESULT<TAB>STATUS<TAB>PLY<TAB>FEEN<TAB>PLAYED<TAB>FID\n"
          "(FILE:LINE, 1-0 0-1 1/2-1/2 or *, the CGSN status or -, the deciding ply or -,\n"
          "the final position, the plies played, its FID).\n"
          "\n"
          "  -g, --game GAME   the game: a built-in id or a YAML definition file;\n"
          "                    ids: " KOMA_GAME_IDS "\n"
          "                    default: from each setup FEEN's style letter and board\n"
          "                    shape\n"
          "      --start FEEN  the input is moves, one PMN a line, from FEEN ('start':\n"
          "                    the game's start position); a blank line ends a record\n"
          "      --pmn-dialect D  moves are in dialect D: pmn (default), seed, json-array,\n"
          "                    legs or sanki ([from, to, actor]; with --start, a line\n"
          "                    [[from, to, actor], ...] is a game)\n"
          "      --from F      the input is records in format F (csa, usi, sfen, ...:\n"
          "                    koma-convert --list), or auto: detected from each input\n"
          "      --encoding E  with --from: KIF, KI2 and CSA text is in E (utf-8,\n"
          "                    shift_jis, euc-jp, utf-16le, utf-16be, utf-16)\n"
          "      --format F    PCN input is json (JSON Lines) or yaml (a YAML stream);\n"
          "                    by default each record: JSON when its line starts with {\n"
          "      --adjudicate  one verdict a record: SOURCE RESULT STATUS PLY REASON\n"
          "      --each        the FEEN of the setup and after every ply, a blank line\n"
          "                    after each record\n"
          "      --write-outcome  write the records back (same format) with\n"
          "                    outcome.result, .status and .ply filled in\n"
          "      --declaration R  judge Shogi's entering-king declarations (CSA %KACHI,\n"
          "                    KIF's entering-king win) by rule R: 27 (default), 24 or\n"
          "                    try; a record's meta.rule_options.declaration wins\n"
          "      --json        one JSON object a record on stdout\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "      --summary     end with counts\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "Diagnostics: koma-replay: FILE:LINE:COL: CODE: message (codes: koma-formats(5)).\n"
          "Progress goes to stderr when it is a terminal.\n"
          "Exit status: 0 every record replayed and agreeing with the rules, 1 an illegal\n"
          "ply, a wrong recorded outcome, plies after the end or an unreadable record,\n"
          "2 usage or I/O trouble.\n",
          f);
}

/* ---- output ----------------------------------------------------------------------- */

/* --each: the FEEN of the setup and after every ply. */
static void each_cb(void *ctx, const record_source *src, size_t ply, const char *feen, size_t len)
{
    state *st = ctx;
    if (st->c->quiet) return;
    st->each_open = 1;
    if (st->c->json) {
        fputs("{\"file\":", stdout);
        cli_json_cstr(stdout, src->file);
        printf(",\"line\":%lu,\"ply\":%zu,\"feen\":", src->line, ply);
        cli_json_string(stdout, feen, len);
        fputs("}\n", stdout);
    } else {
        fwrite(feen, 1, len, stdout);
        putchar('\n');
    }
}

/* --write-outcome: a record that could not be replayed goes through as it was. */
static void pass_through(state *st, const record_item *item)
{
    size_t len;
    const char *text = koma_pcn_reader_text(item->reader, &len);
    if (text == NULL || st->c->quiet) return;
    if (item->format == KOMA_PCN_YAML) {
        /* keep the stream's documents apart: the text must hold its own "---" */
        int marked = 0;
        for (size_t i = 0; i + 3 <= len && !marked; i++)
            if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, "---", 3) == 0 &&
                (i + 3 == len || text[i + 3] == ' ' || text[i + 3] == '\t' ||
                 text[i + 3] == '\n' || text[i + 3] == '\r'))
                marked = 1;
        if (!marked) fputs("---\n", stdout);
    }
    fwrite(text, 1, len, stdout);
    if (len == 0 || text[len - 1] != '\n') putchar('\n');
}

/* Each record: its verdict line (or object), or the record with its outcome. */
static int on_record(void *ctx, const judge_record *r)
{
    state *st = ctx;
    cli *c = st->c;
    const koma_verdict *v = r->v;
    int stop = 0;
    st->records++;
    if (r->item && r->item->rec == NULL)
        cli_diag_error(c, CLI_DATA, r->item->src.file, &r->item->err, NULL);
    if (v == NULL) {
        st->invalid++;
        if (st->mode == MODE_WRITE && r->item) pass_through(st, r->item);
    } else {
        st->plies += v->played;
        if (v->disputes) st->disputed++;
        else if (v->kind == KOMA_VERDICT_UNFINISHED) st->unfinished++;
        else st->finished++;
        koma_error err;
        koma_error_clear(&err);
        if (st->mode == MODE_LINE || st->mode == MODE_ADJUDICATE) {
            if (!c->quiet)
                verdict_print_replay(c, v, r->src->file, r->src->line, st->mode == MODE_ADJUDICATE);
        } else if (st->mode == MODE_WRITE && !c->quiet) {
            /* the record is printed whole or not at all */
            st->out.len = 0;
            if (koma_verdict_outcome(v, r->item->rec, &err) != 0 ||
                koma_pcn_write(r->item->rec, r->item->format, 0, &st->out, &err) != 0) {
                cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
                stop = 1;
            } else {
                fwrite(st->out.data, 1, st->out.len, stdout);
            }
        }
    }
    if (st->each_open && !c->json) putchar('\n');  /* --each: a blank line after a record */
    st->each_open = 0;
    return stop;
}

static void replay_input(state *st, const char *path)
{
    cli_input in;
    if (cli_input_open(st->c, &in, path) != 0) return;
    judge_input(st->jd, &in, &st->pcn, st->start, on_record, st);
    cli_input_close(&in);
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    int rc;
    cli_init(&c, "koma-replay", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;
    st.mode = MODE_LINE;
    const char *game = NULL, *start = NULL;
    koma_pmn_dialect dialect = KOMA_PMN_DIALECT_CANONICAL;
    int modes = 0;

    enum { OPT_START = CLI_OPT_OWN, OPT_DIALECT, OPT_FORMAT, OPT_FROM, OPT_ADJUDICATE, OPT_EACH,
           OPT_WRITE, OPT_ENCODING, OPT_DECLARATION };
    koma_declaration_rule declaration = KOMA_DECLARE_DEFAULT;
    int from_given = 0;
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},
        {"start", required_argument, NULL, OPT_START},
        {"pmn-dialect", required_argument, NULL, OPT_DIALECT},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"from", required_argument, NULL, OPT_FROM},
        {"encoding", required_argument, NULL, OPT_ENCODING},
        {"adjudicate", no_argument, NULL, OPT_ADJUDICATE},
        {"each", no_argument, NULL, OPT_EACH},
        {"write-outcome", no_argument, NULL, OPT_WRITE},
        {"declaration", required_argument, NULL, OPT_DECLARATION},
        CLI_OPTION_JSON, CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "g:qh", longopts)) != -1) {
        switch (opt) {
        case 'g': game = optarg; break;
        case OPT_START: start = optarg; break;
        case OPT_DIALECT:
            if ((rc = records_dialect_option(&c, optarg, &dialect)) != 0) return rc;
            break;
        case OPT_FORMAT:
            if ((rc = records_format_option(&c, optarg, &st.pcn)) != 0) return rc;
            break;
        case OPT_FROM:
            if ((rc = records_from_option(&c, optarg, &st.pcn, &from_given)) != 0) return rc;
            break;
        case OPT_ENCODING:
            if ((rc = records_encoding_option(&c, optarg, &st.pcn)) != 0) return rc;
            break;
        case OPT_ADJUDICATE: st.mode = MODE_ADJUDICATE; modes++; break;
        case OPT_EACH: st.mode = MODE_EACH; modes++; break;
        case OPT_WRITE: st.mode = MODE_WRITE; modes++; break;
        case OPT_DECLARATION:
            if ((rc = judge_declaration_option(&c, optarg, &declaration)) != 0) return rc;
            break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (modes > 1)
        return cli_usage_error(&c, "--adjudicate, --each and --write-outcome exclude each other");
    if (st.mode == MODE_WRITE && start)
        return cli_usage_error(&c, "--write-outcome needs PCN records, not --start");
    if (st.mode == MODE_WRITE && c.json)
        return cli_usage_error(&c, "--write-outcome writes records: no --json");
    if (st.mode == MODE_WRITE && c.summary)
        return cli_usage_error(&c, "--write-outcome writes records: no --summary");
    if (st.pcn.format_given && start) return cli_usage_error(&c, "--format is for PCN input, not --start");
    if (from_given && (start || st.pcn.format_given))
        return cli_usage_error(&c, "--from excludes --start and --format");
    if (st.pcn.encoding && !from_given) return cli_usage_error(&c, "--encoding needs --from");
    st.pcn.foreign_hint = "--from %s";
    if (dialect != KOMA_PMN_DIALECT_CANONICAL) st.pcn.pcn_flags |= KOMA_PCN_NO_PMN;
    /* verdict lines read a record only through the referee's accessors: no tree
     * needed (--write and --each keep the whole record) */
    if (st.mode == MODE_LINE || st.mode == MODE_ADJUDICATE) st.pcn.pcn_flags |= KOMA_PCN_LIGHT;

    koma_game_set *games = NULL;
    const koma_game *forced = NULL;
    char startbuf[KOMA_FEEN_MAX_LEN + 1];
    if (games_open(&c, &games) != 0) goto done;
    if (from_given && koma_hub_new(games, &st.pcn.hub, NULL) != 0) {
        cli_trouble(&c, "memory: out of memory");
        goto done;
    }
    if (game != NULL && games_option(&c, games, game, NULL, &forced) != 0) goto done;
    if (start != NULL) {
        /* check the start position now: a bad one is a usage error */
        if (records_start_option(&c, games, start, NULL, &forced, startbuf) != 0) goto done;
        st.start = startbuf;
    }
    /* (the judge has something to do after a played ply only with --each) */
    st.jd = judge_new(&c, games, forced, dialect, st.mode == MODE_EACH ? 0 : KOMA_REFEREE_QUIET_PLAYED,
                      JUDGE_REPLAY);
    if (st.jd == NULL) {
        cli_trouble(&c, "memory: out of memory");
        goto done;
    }
    if (st.mode == MODE_EACH) judge_set_each(st.jd, each_cb, &st);
    judge_set_declaration(st.jd, declaration);

    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        replay_input(&st, path);
        if (cli_stdout_broken(&c)) break;
    }

    cli_progress_end(&c);
    if (c.summary && !c.quiet) {
        if (c.json)
            printf("{\"summary\":{\"records\":%lu,\"plies\":%llu,\"finished\":%lu,\"unfinished\":%lu,"
                   "\"disputed\":%lu,\"invalid\":%lu}}\n",
                   st.records, st.plies, st.finished, st.unfinished, st.disputed, st.invalid);
        else
            printf("%lu record%s, %llu plies: %lu finished, %lu unfinished, %lu disputed, %lu invalid\n",
                   st.records, st.records == 1 ? "" : "s", st.plies, st.finished, st.unfinished,
                   st.disputed, st.invalid);
    }
done:
    koma_buffer_cleanup(&st.out);
    judge_free(st.jd);
    koma_hub_free(st.pcn.hub);
    koma_game_set_free(games);
    return cli_finish(&c);
}
