/*
 * koma-validate — check that every item of the input is valid notation. The
 * types are the library's registry's (koma/format.h, KOMA_FORMAT_CHECK: the
 * formats it checks, each with what its items are called): lines (feen, cell,
 * pin, epin, sin, snn, qpi, fid, pmn, cgsn; pmn's --pmn-dialect, --position and
 * --legal are cmd/line_checks.c's), documents (ggn, one per input), records
 * (pcn, JSON Lines or a YAML stream), or auto (koma_sniff_input, then
 * koma_format_of_line for lines). Valid items are silent, an invalid one gets
 * one diagnostic. The line-oriented path is cmd/validate_lines.c.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "validate.h"

/* Validate a whole input (documents and record streams). */
typedef void (*validate_input_fn)(validate_state *st, cli_input *in);

/* GGN: the whole input is one JSON document. */
static void v_ggn_input(validate_state *st, cli_input *in)
{
    char *text;
    size_t len;
    koma_error err;
    koma_error_clear(&err);
    if (cli_input_slurp(st->c, in, CLI_RECORD_MAX, "ggn.size", &text, &len) != 0) {
        st->records++;
        st->invalid++;
        return;
    }
    size_t bom = koma_bom_len(text, len);  /* skipped, as everywhere */
    int valid = koma_format_check(st->fmt, text + bom, len - bom, &err) == 0;
    free(text);
    validate_record_result(st, in->name, valid ? 1 : err.line, &err, valid);
}

/* PCN: a JSON Lines database or a YAML stream (cmd/records.c). */
static int pcn_record(void *ctx, record_item *item)
{
    validate_state *st = ctx;
    if (item->rec == NULL)
        validate_record_result(st, item->src.file, item->err.line, &item->err, 0);
    else
        validate_record_result(st, item->src.file, item->src.line, &item->err, 1);
    return 0;
}

/* --replay: each valid record is also judged under its game's rules (cmd/judge.c,
 * which gives the diagnostics of a record that is not valid under them). */
static int replay_record(void *ctx, const judge_record *r)
{
    validate_state *st = ctx;
    const record_item *item = r->item;
    /* its diagnostics were gathered (--json): one object */
    long n = diag_gather_take(&st->gather);
    if (n < 0) return 1;
    diag_gather_hold(&st->gather, 0);
    if (item->rec == NULL) {
        validate_record_result(st, item->src.file, item->err.line, &item->err, 0);
    } else if (r->v == NULL || r->invalid || r->v->disputes || n > 0) {
        st->records++;
        st->invalid++;
        if (n > 0) diag_gather_print(&st->gather, (size_t)n, validate_type_name(st));
    } else {
        koma_error none;
        koma_error_clear(&none);
        validate_record_result(st, item->src.file, item->src.line, &none, 1);
    }
    if (n > 0) return diag_gather_restart(&st->gather) != 0;
    diag_gather_hold(&st->gather, 1);
    return 0;
}

static void v_pcn_input(validate_state *st, cli_input *in)
{
    if (st->jd == NULL) {
        records_each(st->c, in, &st->pcn, pcn_record, st);
        return;
    }
    if (st->c->json && !st->c->quiet && diag_gather_start(&st->gather, st->c) != 0) return;
    judge_input(st->jd, in, &st->pcn, NULL, replay_record, st);
    long n = diag_gather_take(&st->gather);   /* left over: I/O diagnostics, as they are */
    if (n > 0) fwrite(st->gather.buf, 1, (size_t)n, stdout);
    diag_gather_end(&st->gather);
}

/* --type auto (koma_sniff_input, koma-formats(5), STREAMS): PCN (YAML, or JSON with a
 * top-level "setup"), GGN (another JSON document), or lines, each a FEEN when
 * it has exactly two spaces and a PMN move otherwise; lines that look like a
 * format koma-validate does not check (CSA, KIF, SFEN, PGN...) are one
 * convert.format diagnostic naming it. */
static void v_auto_input(validate_state *st, cli_input *in)
{
    static const char *const line_formats[] = {"feen", "pmn", "fid", "pcn", "yaml", NULL};
    koma_input_kind kind;
    koma_error err;
    int rc = records_sniff(st->c, in, line_formats, "FEEN or PMN lines", &kind, &err);
    if (rc != 0) {
        if (rc > 0) validate_record_result(st, in->name, 1, &err, 0);
        return;
    }
    st->fmt = koma_format_find(kind == KOMA_INPUT_PCN ? "pcn" : "ggn", 3);
    st->auto_line = kind == KOMA_INPUT_LINES;
    if (st->auto_line) validate_lines(st, in);
    else if (kind == KOMA_INPUT_PCN) v_pcn_input(st, in);
    else v_ggn_input(st, in);
    st->fmt = NULL;
    st->auto_line = 0;
}

/* How an input of the type is read: whole (auto, documents, records), or NULL:
 * line by line. */
static validate_input_fn input_fn(const koma_format *f)
{
    if (f == NULL) return v_auto_input;
    if (koma_format_pcn(f, NULL)) return v_pcn_input;
    return koma_format_check_lines(f) ? NULL : v_ggn_input;
}

/* What --summary counts. */
static const char *noun(const koma_format *f)
{
    if (f == NULL) return "item";
    if (koma_format_pcn(f, NULL)) return "record";
    return koma_format_check_lines(f) ? "line" : "document";
}

/* --type NAME: a format of the registry it checks (its own name, not an alias). */
static int find_type(const char *name, const koma_format **out)
{
    *out = NULL;
    if (strcmp(name, "auto") == 0) return 0;
    const koma_format *f = koma_format_find(name, strlen(name));
    if (f == NULL || !(koma_format_caps(f) & KOMA_FORMAT_CHECK) || !validate_is(f, name)) return -1;
    *out = f;
    return 0;
}

/* The types in --help: the registry's, line formats first, then auto. */
static void list_types(FILE *f)
{
    for (int lines = 1; lines >= 0; lines--)
        for (size_t i = 0; i < koma_format_count(); i++) {
            const koma_format *t = koma_format_at(i);
            if (!(koma_format_caps(t) & KOMA_FORMAT_CHECK) || koma_format_check_lines(t) != lines) continue;
            fprintf(f, "                      %-5s %s%s\n", koma_format_name(t), koma_format_check_title(t),
                    validate_is(t, "pmn") ? " (see --pmn-dialect, --position)" : "");
        }
    fprintf(f, "                      %-5s %s\n", "auto", "sniff each input: PCN, GGN, or FEEN/PMN lines");
}

static void usage(FILE *f)
{
    fputs("Usage: koma-validate [OPTION]... [FILE]...\n"
          "Check that every line of each FILE (stdin when none or '-') is valid notation.\n"
          "\n"
          "  -t, --type TYPE   what each line holds (default feen):\n",
          f);
    list_types(f);
    fputs("      --pmn-dialect D  PMN lines are in dialect D: pmn (default), seed\n"
          "                    (e7-e8/+P, *-e5), json-array ([\"e2\",\"e4\",\"C:P\"]),\n"
          "                    legs (chains in leg form: e5+e6,e6+f7, e5e6,e6f7+, e6xh6)\n"
          "                    or sanki ([\"e7\",\"e8\",\"queen\"], [null,\"h7\",\"fu\"])\n"
          "      --position FEEN  check each PMN line against this position too\n"
          "                    (canonical suffixes and chains, squares, hand); seed,\n"
          "                    json-array, legs and sanki need it\n"
          "      --legal       with --position: each PMN line must also be a legal\n"
          "                    move of the position under its game's rules\n"
          "      --format F    PCN input is json (JSON Lines) or yaml (a YAML stream);\n"
          "                    by default each record: JSON when its line starts with {\n"
          "      --replay      PCN records are also replayed under their game's rules:\n"
          "                    illegal plies, plies after the end and recorded outcomes\n"
          "                    that disagree make a record invalid (as koma-replay)\n"
          "      --declaration R  with --replay: judge Shogi's entering-king\n"
          "                    declarations by rule R: 27 (default), 24 or try\n"
          "      --print-fid   print the FID of each valid FEEN line on stdout\n"
          "      --json        one JSON object per input line on stdout\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "      --summary     end with counts\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "Diagnostics: koma-validate: FILE:LINE:COL: CODE: message (codes: koma-formats(5)).\n"
          "Progress goes to stderr when it is a terminal.\n"
          "Exit status: 0 all valid, 1 some invalid, 2 usage or I/O trouble.\n",
          f);
}

static void validate_input(validate_state *st, const char *path)
{
    cli_input in;
    koma_error err;
    if (cli_input_open(st->c, &in, path) != 0) return;
    validate_input_fn fn = input_fn(st->fmt);
    if (fn) fn(st, &in);
    else if (validate_is(st->fmt, "feen") &&
             records_lines_foreign(st->c, &in, "FEEN lines", &err) > 0)
        validate_record_result(st, in.name, 1, &err, 0);    /* KIF, CSA, PCN...: named, once */
    else validate_lines(st, &in);
    cli_input_close(&in);
}

int main(int argc, char **argv)
{
    cli c;
    validate_state st;
    int rc;
    cli_init(&c, "koma-validate", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;
    st.fmt = koma_format_find("feen", 4);

    enum { OPT_PRINT_FID = CLI_OPT_OWN, OPT_DIALECT, OPT_POSITION, OPT_FORMAT, OPT_REPLAY, OPT_LEGAL,
           OPT_DECLARATION };
    koma_declaration_rule declaration = KOMA_DECLARE_DEFAULT;
    int want_replay = 0, want_legal = 0, dialect_given = 0;
    const char *position = NULL;
    static const struct option longopts[] = {
        {"type", required_argument, NULL, 't'},
        {"print-fid", no_argument, NULL, OPT_PRINT_FID},
        {"pmn-dialect", required_argument, NULL, OPT_DIALECT},
        {"position", required_argument, NULL, OPT_POSITION},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"replay", no_argument, NULL, OPT_REPLAY},
        {"legal", no_argument, NULL, OPT_LEGAL},
        {"declaration", required_argument, NULL, OPT_DECLARATION},
        CLI_OPTION_JSON, CLI_OPTION_SUMMARY, CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "t:qh", longopts)) != -1) {
        switch (opt) {
        case 't':
            if (find_type(optarg, &st.fmt) != 0) return cli_usage_error(&c, "unknown type '%s'", optarg);
            break;
        case OPT_PRINT_FID: st.print_fid = 1; break;
        case OPT_DIALECT:
            if ((rc = records_dialect_option(&c, optarg, &st.lc.dialect)) != 0) return rc;
            dialect_given = 1;
            break;
        case OPT_POSITION: position = optarg; break;
        case OPT_REPLAY: want_replay = 1; break;
        case OPT_LEGAL: want_legal = 1; break;
        case OPT_DECLARATION:
            if ((rc = judge_declaration_option(&c, optarg, &declaration)) != 0) return rc;
            break;
        case OPT_FORMAT:
            if ((rc = records_format_option(&c, optarg, &st.pcn)) != 0) return rc;
            break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (st.print_fid && !validate_is(st.fmt, "feen"))
        return cli_usage_error(&c, "--print-fid needs --type feen");
    if (st.pcn.format_given && input_fn(st.fmt) != v_pcn_input)
        return cli_usage_error(&c, "--format needs --type pcn");
    if (declaration != KOMA_DECLARE_DEFAULT && !want_replay)
        return cli_usage_error(&c, "--declaration needs --replay");
    if (want_replay && input_fn(st.fmt) != v_pcn_input && input_fn(st.fmt) != v_auto_input)
        return cli_usage_error(&c, "--replay needs --type pcn (or auto)");
    if ((dialect_given || position) && !validate_is(st.fmt, "pmn"))
        return cli_usage_error(&c, "--pmn-dialect and --position need --type pmn");
    if ((rc = line_ctx_open(&st.lc, &c, position, want_legal)) != 0) {
        line_ctx_close(&st.lc);
        return rc;
    }
    /* without --replay a record is only checked: its tree need not be built */
    if (!want_replay) st.pcn.pcn_flags |= KOMA_PCN_CHECK_ONLY;
    else st.pcn.pcn_flags |= KOMA_PCN_LIGHT;       /* the referee's accessors only */
    koma_game_set *games = NULL;
    if ((want_legal || want_replay) && games_open(&c, &games) != 0) goto done;
    if (want_legal && line_ctx_legal(&st.lc, &c, games, position) != 0) goto done;
    if (want_replay) {
        if ((st.jd = judge_new(&c, games, NULL, KOMA_PMN_DIALECT_CANONICAL, KOMA_REFEREE_QUIET_PLAYED,
                               JUDGE_REPLAY)) == NULL) {
            cli_trouble(&c, "memory: out of memory");
            goto done;
        }
        judge_set_declaration(st.jd, declaration);
    }

    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) validate_input(&st, path);

    cli_progress_end(&c);
    if (c.summary && !c.quiet) {
        if (c.json)
            printf("{\"summary\":{\"type\":\"%s\",\"records\":%lu,\"valid\":%lu,\"invalid\":%lu}}\n",
                   st.fmt ? koma_format_name(st.fmt) : "auto", st.records, st.valid, st.invalid);
        else
            printf("%lu %s%s checked: %lu valid, %lu invalid\n", st.records, noun(st.fmt),
                   st.records != 1 ? "s" : "", st.valid, st.invalid);
    }
done:
    line_ctx_close(&st.lc);
    judge_free(st.jd);
    koma_game_set_free(games);
    return cli_finish(&c);
}
