/*
 * koma-convert — convert between the notations of koma: any format of the
 * registry (koma/format.h) to any other, record by record (PCN JSON/YAML, CSA,
 * KIF, KI2, JKF, USI, SFEN, Fairy-Stockfish FEN, moves, pictures); FEEN lines
 * written canonically (--normalise: loose hands); a game's move patterns as GGN
 * (--to ggn --game GAME). Which settings fit which formats, FEEN lines versus
 * records and the converter of one input are the library's (koma/convert.h);
 * the option words, -o PATTERN, --list and the usage messages are the command's
 * (convert_opts.c); this file reads the options, opens inputs, prints and
 * reports. See man/koma-convert.1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "convert_opts.h"
#include "games.h"
#include "records.h"

typedef struct state {
    cli *c;
    const char *game;                  /* --game */
    int compact;                       /* --compact */
    koma_convert_options o;            /* --from, --to, --normalise, --start, ... */
    const char *output;                /* -o PATTERN (o.split), or NULL */
    int lines;                         /* on the FEEN line path */
    cli_input *in;                     /* the input being converted */
    koma_converter *cv;
    int output_r;                      /* -o PATTERN has %r */
    int stop;                          /* a file could not be written (reported) */
    unsigned long pictures;            /* SVG documents written to stdout */
} state;

static void usage(FILE *f)
{
    fputs("Usage: koma-convert [--from FORMAT|auto] --to FORMAT [OPTION]... [FILE]...\n"
          "  or:  koma-convert --to ggn --game GAME [--compact | --json]\n"
          "  or:  koma-convert --list\n"
          "Convert records, positions and moves between formats, record by record.\n"
          "\n"
          "  -f, --from FORMAT the input format (default auto: detected from the first bytes)\n"
          "  -t, --to FORMAT   the output format: pcn (JSON Lines), yaml, csa, usi, sfen,\n"
          "                    fen (Fairy-Stockfish), feen, fid, pmn, usi-move, fen-move,\n"
          "                    sanki-move ([from, to, actor]), svg, ascii, unicode\n"
          "                    (pictures of positions)\n"
          "                    (--list for all), or:\n"
          "                      ggn   the move patterns of the game (--game) as a GGN\n"
          "                            document; reads no input\n"
          "                      feen  also: each FEEN line of the input, written canonically\n"
          "      --start POS   moves formats: the position the moves start from (FEEN or\n"
          "                    SFEN; default: the Shogi start for usi-move and fen-move)\n"
          "      --each        position formats: every position of each record (the\n"
          "                    setup and after each ply), not only the last\n"
          "  -o, --output PATTERN  position formats: each position to a file of its own,\n"
          "                    named by PATTERN: %r the record number, %p the ply (0: the\n"
          "                    setup), %% a '%'; a width pads with zeros (%03p)\n"
          "      --pretty      pcn, jkf: indented JSON\n"
          "      --encoding ENC  kif, ki2: write utf-8 or shift_jis (default: UTF-8, or\n"
          "                    Shift_JIS for a record read from a Shift_JIS KIF or KI2)\n"
          "      --from-encoding ENC  kif, ki2, csa input: its text is in ENC (utf-8,\n"
          "                    shift_jis, euc-jp, utf-16le, utf-16be, utf-16)\n"
          "      --drop WHAT   csa, usi, kif, ki2, jkf: leave out what the format cannot\n"
          "                    hold instead of refusing the record: times, variations\n"
          "                    (comma-separated)\n"
          "      --list        list the formats and exit\n"
          "  -g, --game GAME   the game (--to ggn): a built-in id or a YAML definition\n"
          "                    file; ids: " KOMA_GAME_IDS "\n"
          "      --compact     the GGN document on one line (default: pretty-printed)\n"
          "  -n, --normalise   (--to feen) also accept hands that are not aggregated or\n"
          "                    not in canonical order; alone, it means --to feen\n"
          "      --json        JSON Lines: --to feen, one object per line ({file, line,\n"
          "                    feen} or a diagnostic); --to ggn, the document on one line\n"
          "      --summary     end with counts (records read, converted, failed)\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "With no FILE, or when FILE is -, read standard input.\n"
          "Exit status: 0 all good, 1 invalid input, 2 usage or I/O trouble.\n",
          f);
}

/* ---- --to ggn ---------------------------------------------------------------- */

static void to_ggn(state *st)
{
    cli *c = st->c;
    koma_error err;
    koma_game_set *games;
    const koma_game *g;
    koma_error_clear(&err);
    if (games_open(c, &games) != 0) return;
    if (games_option(c, games, st->game, NULL, &g) == 0) {
        koma_ggn *ggn = NULL;
        koma_game_to_ggn(g, &ggn, &err);
        const char *note = koma_game_ggn_note(g);
        if (ggn != NULL && note != NULL) {
            /* what the document cannot say: a warning, the export stands */
            koma_error w;
            FILE *saved = c->json_diag;
            koma_error_set(&w, KOMA_E_GAME_GGN, 0, "%s", note);
            c->json_diag = stderr;     /* stdout holds the document alone */
            cli_warning(c, "--game", &w);
            c->json_diag = saved;
        }
        size_t n = 0;
        char *text = NULL;
        if (ggn != NULL && !c->quiet)
            koma_ggn_dump(ggn, st->compact || c->json ? KOMA_GGN_COMPACT : KOMA_GGN_PRETTY, &n,
                          &text, &err);
        if (ggn == NULL || (text == NULL && !c->quiet))
            cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
        else if (n && fwrite(text, 1, n, stdout) != n)
            cli_stdout_broken(c);      /* cli_finish reports a write error, with its reason */
        free(text);
        koma_ggn_free(ggn);
    }
    koma_game_set_free(games);
}

/* ---- any format to any format ------------------------------------------------------- */

static void diag_err(state *st, const char *file, koma_error *err)
{
    if (err->line == 0) err->line = 1;
    if (err->column == 0) err->column = 1;
    cli_diag_error(st->c, err->code == KOMA_E_MEMORY ? CLI_TROUBLE : CLI_DATA, file, err, NULL);
}

/* ---- -o PATTERN: one file a position ----------------------------------------------------- */

static int position_file(void *ctx, unsigned long record, size_t ply, const char *text, size_t len)
{
    state *st = ctx;
    char name[4096];
    if (!st->output_r && record > 1) {
        cli_trouble(st->c, "-o %s: record %lu would overwrite the files of record 1 (add %%r to the pattern)",
                    st->output, record);
    } else if (convert_output_name(st->output, record, ply, name, sizeof name) != 0) {
        cli_trouble(st->c, "-o %s: the file name exceeds %zu bytes", st->output, sizeof name - 1);
    } else {
        FILE *f = fopen(name, "w");
        int ok = f != NULL && fwrite(text, 1, len, f) == len, e = errno;
        if (f != NULL && fclose(f) != 0 && ok) ok = 0, e = errno;
        if (ok) return 0;
        cli_trouble(st->c, "%s: io.write: cannot write: %s", name, strerror(e));
    }
    st->stop = 1;
    return -1;
}

/* One record of the input: its output, or its diagnostic. -1 stops the input. */
static int on_record(void *ctx, const koma_convert_event *ev)
{
    state *st = ctx;
    cli *c = st->c;
    const char *file = st->in->name;
    koma_error err = ev->err ? *ev->err : (koma_error){0};
    if (ev->warning) cli_warning(c, file, ev->warning);
    if (ev->kind == KOMA_CONVERT_FATAL) {
        if (err.code == KOMA_E_MEMORY) cli_trouble(c, "%s: memory: out of memory", file);
        else diag_err(st, file, &err);
        cli_fail(c, CLI_TROUBLE);
        return -1;
    }
    if (!st->lines) cli_progress_step(c, "records");
    if (ev->kind == KOMA_CONVERT_INVALID) {
        diag_err(st, file, &err);
        return 0;
    }
    if (ev->kind == KOMA_CONVERT_UNWRITABLE) {
        if (st->stop) return -1;       /* a file of -o: reported */
        if (err.code == KOMA_E_MEMORY)
            cli_trouble(c, "%s:%lu: %s: %s", file, ev->line, koma_code_name(err.code), err.message);
        else diag_err(st, file, &err);
        return cli_stdout_broken(c) ? -1 : 0;
    }
    if (c->quiet) {
        /* nothing printed */
    } else if (c->json) {
        size_t n = ev->len;
        while (n && ev->text[n - 1] == '\n') n--;
        fputs("{\"file\":", stdout);
        cli_json_cstr(stdout, file);
        fprintf(stdout, ",\"line\":%lu,\"", ev->line);
        fputs(koma_format_name(st->o.to), stdout);
        fputs("\":", stdout);
        koma_pcn_format pf;
        if (koma_format_pcn(st->o.to, &pf) && pf == KOMA_PCN_JSON) fwrite(ev->text, 1, n, stdout);
        else cli_json_string(stdout, ev->text, n);
        fputs("}\n", stdout);
    } else if (ev->len && strcmp(koma_format_name(st->o.to), "svg") == 0 && ++st->pictures > 1) {
        /* SVG documents cannot be concatenated: one picture on stdout, more need -o */
        cli_trouble(c, "%s:%lu: a second SVG picture: write one file a picture with -o PATTERN "
                    "(%%r the record number)", file, ev->line);
        st->stop = 1;
    } else if (ev->len && fwrite(ev->text, 1, ev->len, stdout) != ev->len) {
        cli_stdout_broken(c);
    }
    return cli_stdout_broken(c) || st->stop ? -1 : 0;
}

static long read_input(void *ctx, char *buf, size_t cap)
{
    state *st = ctx;
    return cli_input_read(st->c, st->in, buf, cap);
}

/* Convert an open input (what was peeked is read again) and close it. */
static void convert_open_input(state *st, cli_input *in)
{
    koma_error err;
    koma_error_clear(&err);
    st->in = in;
    /* (on_record's own -1 stops the input and leaves err clear) */
    if (koma_converter_input(st->cv, read_input, st, on_record, st, &err) != 0 && err.code != KOMA_OK)
        cli_trouble(st->c, "%s: %s", koma_code_name(err.code), err.message);
    cli_input_close(in);
}

/* --to feen: each FEEN line of the input, written canonically */
static int feen_input_line(void *ctx, const char *s, size_t len)
{
    state *st = ctx;
    koma_error err;
    if (s == NULL) cli_line_too_long(st->in, &err);
    return koma_converter_line(st->cv, s, len, st->in->line, &err, on_record, st);
}

static void to_feen(state *st, cli_input *in)
{
    st->in = in;
    st->lines = 1;
    cli_input_lines(st->c, in, NULL, feen_input_line, st);
    st->lines = 0;
    cli_input_close(in);
}

/* ---- main ---------------------------------------------------------------------- */

static const koma_format *format_option(cli *c, const char *arg, int *status)
{
    const koma_format *f = records_format_find(arg);
    *status = 0;
    if (f == NULL) *status = cli_usage_error(c, "unknown format '%s' (koma-convert --list shows them)", arg);
    return f;
}

static void summary(const state *st)
{
    koma_convert_counts n;
    koma_converter_counts(st->cv, &n);
    if (n.records == 0 && (n.lines > 0 || koma_convert_feen_lines(&st->o))) {
        if (st->c->json)
            printf("{\"summary\":{\"lines\":%lu,\"converted\":%lu,\"invalid\":%lu}}\n", n.lines, n.converted,
                   n.invalid);
        else
            printf("%lu %s read: %lu converted, %lu invalid\n", n.lines, n.lines == 1 ? "line" : "lines",
                   n.converted, n.invalid);
        return;
    }
    unsigned long total = n.records + n.lines;
    if (st->c->json)
        printf("{\"summary\":{\"records\":%lu,\"converted\":%lu,\"failed\":%lu}}\n", total, n.converted,
               n.failed + n.invalid);
    else
        printf("%lu %s read: %lu converted, %lu failed\n", total, total == 1 ? "record" : "records", n.converted,
               n.failed + n.invalid);
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    cli_init(&c, "koma-convert", usage);
    memset(&st, 0, sizeof st);
    st.o.size = sizeof st.o;
    st.c = &c;
    int ggn = 0, list = 0, rc, has_p = 0;
    const char *from_name = NULL, *to_name = NULL, *bad;
    size_t bad_len;

    enum { OPT_COMPACT = CLI_OPT_OWN, OPT_START, OPT_EACH, OPT_PRETTY, OPT_LIST, OPT_ENCODING, OPT_DROP,
           OPT_FROM_ENCODING };
    static const struct option longopts[] = {
        {"to", required_argument, NULL, 't'},
        {"from", required_argument, NULL, 'f'},
        {"game", required_argument, NULL, 'g'},
        {"compact", no_argument, NULL, OPT_COMPACT},
        {"normalise", no_argument, NULL, 'n'},
        {"normalize", no_argument, NULL, 'n'},
        {"start", required_argument, NULL, OPT_START},
        {"each", no_argument, NULL, OPT_EACH},
        {"pretty", no_argument, NULL, OPT_PRETTY},
        {"list", no_argument, NULL, OPT_LIST},
        {"output", required_argument, NULL, 'o'},
        {"encoding", required_argument, NULL, OPT_ENCODING},
        {"drop", required_argument, NULL, OPT_DROP},
        {"from-encoding", required_argument, NULL, OPT_FROM_ENCODING},
        CLI_OPTION_JSON,
        CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "t:f:g:no:qh", longopts)) != -1) {
        switch (opt) {
        case 't':
            to_name = optarg;
            ggn = strcmp(optarg, "ggn") == 0;
            if (!ggn && (st.o.to = format_option(&c, optarg, &rc)) == NULL) return rc;
            break;
        case 'f':
            from_name = optarg;
            st.o.from = NULL;
            if (strcmp(optarg, "auto") != 0 && (st.o.from = format_option(&c, optarg, &rc)) == NULL) return rc;
            break;
        case 'g': st.game = optarg; break;
        case OPT_COMPACT: st.compact = 1; break;
        case 'n': st.o.normalise = 1; break;
        case OPT_START: st.o.start = optarg; break;
        case OPT_EACH: st.o.write |= KOMA_WRITE_EACH; break;
        case OPT_PRETTY: st.o.write |= KOMA_WRITE_PRETTY; break;
        case OPT_LIST: list = 1; break;
        case 'o':
            st.output = optarg;
            st.o.split = 1;
            if (convert_output_pattern(optarg, &st.output_r, &has_p) != 0)
                return cli_usage_error(&c, "-o %s: only %%r (record), %%p (ply) and %%%% may follow '%%'", optarg);
            break;
        case OPT_FROM_ENCODING:
            if ((st.o.encoding = koma_encoding_name(optarg, strlen(optarg))) == NULL)
                return cli_usage_error(&c, "--from-encoding: '%s' is not utf-8, shift_jis, euc-jp or utf-16", optarg);
            break;
        case OPT_DROP:
            if (convert_drop_flags(optarg, &st.o.write, &bad, &bad_len) != 0)
                return cli_usage_error(&c, "--drop: '%.*s' is not times or variations", (int)bad_len, bad);
            break;
        case OPT_ENCODING:
            st.o.write &= ~(KOMA_WRITE_UTF8 | KOMA_WRITE_SHIFT_JIS);
            if ((rc = (int)convert_encoding_flag(optarg)) == 0)
                return cli_usage_error(&c, "--encoding: '%s' is not utf-8 or shift_jis", optarg);
            st.o.write |= (unsigned)rc;
            break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (list) {
        convert_list(stdout);
        return cli_finish(&c);
    }
    if (to_name == NULL && st.o.normalise) st.o.to = koma_format_find("feen", 4);
    if (to_name == NULL && st.o.to == NULL) return cli_usage_error(&c, "missing --to FORMAT (--list shows them)");
    if (ggn) {
        if (st.game == NULL) return cli_usage_error(&c, "--to ggn needs --game GAME");
        if (st.o.normalise) return cli_usage_error(&c, "--normalise needs --to feen");
        if (optind < argc) return cli_usage_error(&c, "--to ggn reads no input: '%s'", argv[optind]);
        if (c.summary) return cli_usage_error(&c, "--summary needs an input to convert");
        if (from_name) return cli_usage_error(&c, "--to ggn reads no input: --from %s", from_name);
        to_ggn(&st);
        return cli_finish(&c);
    }
    if (st.game != NULL) return cli_usage_error(&c, "--game needs --to ggn");
    if (st.compact) return cli_usage_error(&c, "--compact needs --to ggn");
    char msg[8192];
    if (convert_check(&st.o, st.output, msg, sizeof msg) != 0) return cli_usage_error(&c, "%s", msg);
    if (st.output && c.json) return cli_usage_error(&c, "-o writes files: --json cannot describe them");

    int feen_lines = koma_convert_feen_lines(&st.o);
    koma_error err;
    koma_error_clear(&err);
    if (koma_converter_new(&st.o, &st.cv, &err) != 0) {
        cli_trouble(&c, "%s: %s", koma_code_name(err.code), err.message);
        return cli_finish(&c);
    }
    if (st.output) koma_converter_each_position(st.cv, position_file, &st);
    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        cli_input in;
        const char *s;
        size_t n;
        int end;
        if (cli_input_open(&c, &in, path) != 0) continue;
        /* FEEN lines, or, detected, FEEN (or nothing recognisable) keep the FEEN line
         * path; another format is converted from the same input (stdin cannot be
         * opened twice) */
        if (feen_lines && (st.o.from != NULL || cli_input_look(&c, &in, 4096, &s, &n, &end) != 0 ||
                           koma_convert_input_is_feen(s, n, end)))
            to_feen(&st, &in);
        else
            convert_open_input(&st, &in);
        if (cli_stdout_broken(&c) || st.stop) break;
    }
    if (c.summary && !c.quiet) summary(&st);
    koma_converter_free(st.cv);
    return cli_finish(&c);
}
