/*
 * koma-convert — convert between the notations of koma.
 *
 *   --to ggn --game GAME     the pseudo-legal move patterns of a game definition
 *                            as a GGN document (pretty JSON; --compact: one line)
 *   --to feen [--normalise]  FEEN lines (FILE operands or stdin) written
 *                            canonically; --normalise accepts hands that are not
 *                            aggregated or not in canonical order (DESIGN.md §3);
 *                            --normalise alone means --to feen
 *   --from F --to F          any format of the registry (koma/format.h) to any
 *                            other, record by record: PCN JSON/YAML, USI, CSA,
 *                            SFEN, Fairy-Stockfish FEN, moves...; the input format
 *                            is detected unless --from names it
 *   --to svg|ascii|unicode   pictures of positions (koma/diagram.h); -o PATTERN
 *                            writes each position to its own file (%r record, %p ply)
 *   --json, --summary        as every tool (DESIGN.md §5); schemas/koma-convert.schema.json
 *
 * The conversions themselves are the library's (koma_rstream, koma_wstream);
 * this command opens inputs, reports and counts. See man/koma-convert.1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    const koma_format *from, *to;      /* --from (NULL: detect), --to */
    koma_hub *hub;
    koma_wstream *ws;
    koma_pcn_buffer out;
    const char *start;                 /* --start */
    size_t start_len;
    char start_feen[KOMA_FEEN_MAX_LEN + 1];
    int each, pretty;
    unsigned encoding;                 /* --encoding: KOMA_WRITE_SHIFT_JIS or KOMA_WRITE_UTF8 */
    unsigned drop;                     /* --drop: KOMA_WRITE_DROP_* */
    unsigned long records, failed;
    const char *output;                /* -o PATTERN: one file a position */
    int output_r;                      /* PATTERN has %r */
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
          "                    svg, ascii, unicode (pictures of positions)\n"
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
                               &err) != 0 && err.code != KOMA_E_IO_WRITE)
                cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
            /* a write error: cli_finish reports it, with its reason */
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


/* ---- any format to any format ------------------------------------------------------- */

static void diag_err(state *st, const char *file, koma_error *err)
{
    if (err->line == 0) err->line = 1;
    if (err->column == 0) err->column = 1;
    cli_diag_error(st->c, err->code == KOMA_E_MEMORY ? CLI_TROUBLE : CLI_DATA, file, err, NULL);
}

/* ---- -o PATTERN: one file a position ----------------------------------------------------- */

/* %r (record), %p (ply), %% ('%'), the first two with an optional width of one or
 * two digits. -1 when PATTERN holds another '%' sequence. */
static int output_pattern(const char *p, int *has_r, int *has_p)
{
    for (; *p; p++) {
        if (*p != '%') continue;
        if (*++p == '%') continue;
        for (int digits = 0; *p >= '0' && *p <= '9'; p++)
            if (++digits > 2) return -1;
        if (*p == 'r') *has_r = 1;
        else if (*p == 'p') *has_p = 1;
        else return -1;
    }
    return 0;
}

static int output_name(const char *pat, unsigned long record, size_t ply, char *buf, size_t cap)
{
    size_t n = 0;
    for (const char *p = pat; *p; p++) {
        char piece[32];
        size_t len = 1;
        piece[0] = *p;
        if (*p == '%' && p[1] == '%') {
            p++;
        } else if (*p == '%') {
            int width = 0, zero = p[1] == '0';
            for (p++; *p >= '0' && *p <= '9'; p++) width = width * 10 + (*p - '0');
            unsigned long v = *p == 'r' ? record : (unsigned long)ply;
            len = (size_t)snprintf(piece, sizeof piece, zero ? "%0*lu" : "%*lu", width, v);
        }
        if (n + len >= cap) return -1;
        memcpy(buf + n, piece, len);
        n += len;
    }
    buf[n] = '\0';
    return 0;
}

static int position_file(void *ctx, size_t ply, const char *text, size_t len)
{
    state *st = ctx;
    cli *c = st->c;
    char name[4096];
    if (!st->output_r && st->records > 1) {
        cli_trouble(c, "-o %s: record %lu would overwrite the files of record 1 (add %%r to the pattern)",
                    st->output, st->records);
        st->stop = 1;
        return -1;
    }
    if (output_name(st->output, st->records, ply, name, sizeof name) != 0) {
        cli_trouble(c, "-o %s: the file name exceeds %zu bytes", st->output, sizeof name - 1);
        st->stop = 1;
        return -1;
    }
    FILE *f = fopen(name, "w");
    int ok = f != NULL && fwrite(text, 1, len, f) == len;
    int e = errno;
    if (f != NULL && fclose(f) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (!ok) {
        cli_trouble(c, "%s: io.write: cannot write: %s", name, strerror(e));
        st->stop = 1;
        return -1;
    }
    return 0;
}

/* One record read: write it in the target format. */
static void convert_record(state *st, const char *file, unsigned long line, koma_pcn *rec)
{
    cli *c = st->c;
    koma_error err;
    koma_error_clear(&err);
    st->out.len = 0;
    st->records++;
    if (koma_wstream_record(st->ws, rec, &st->out, &err) != 0) {
        st->failed++;
        if (st->stop) return;          /* a file of -o: reported */
        if (err.code == KOMA_E_MEMORY) {
            cli_trouble(c, "%s:%lu: %s: %s", file, line, koma_code_name(err.code), err.message);
            return;
        }
        err.line = line;
        err.column = 1;
        diag_err(st, file, &err);
        return;
    }
    st->converted++;
    if (c->quiet) return;
    if (c->json) {
        size_t n = st->out.len;
        while (n && st->out.data[n - 1] == '\n') n--;
        fputs("{\"file\":", stdout);
        cli_json_cstr(stdout, file);
        fprintf(stdout, ",\"line\":%lu,\"", line);
        fputs(koma_format_name(st->to), stdout);
        fputs("\":", stdout);
        koma_pcn_format pf;
        if (koma_format_pcn(st->to, &pf) && pf == KOMA_PCN_JSON) fwrite(st->out.data, 1, n, stdout);
        else cli_json_string(stdout, st->out.data, n);
        fputs("}\n", stdout);
        return;
    }
    /* SVG documents cannot be concatenated: one picture on stdout, more need -o */
    if (st->out.len && strcmp(koma_format_name(st->to), "svg") == 0 && ++st->pictures > 1) {
        cli_trouble(c, "%s:%lu: a second SVG picture: write one file a picture with -o PATTERN "
                    "(%%r the record number)", file, line);
        st->stop = 1;
        return;
    }
    if (st->out.len && fwrite(st->out.data, 1, st->out.len, stdout) != st->out.len) cli_stdout_broken(c);
}

/* Convert an open input (what was peeked is read again) and close it: takes over *inp. */
static void convert_open_input(state *st, cli_input *inp)
{
    cli *c = st->c;
    cli_input in = *inp;
    koma_error err;
    koma_error_clear(&err);
    koma_rstream_options opt = {0};
    opt.start = st->start;
    opt.start_len = st->start_len;
    opt.feen_flags = st->normalise ? KOMA_FEEN_NORMALISE : KOMA_FEEN_STRICT;
    koma_rstream *rs = koma_rstream_new(st->hub, st->from, &opt, &err);
    if (rs == NULL) {
        cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
        cli_input_close(&in);
        return;
    }
    char *chunk = malloc(1 << 16);
    if (chunk == NULL) {
        cli_trouble(c, "memory: out of memory");
        koma_rstream_free(rs);
        cli_input_close(&in);
        return;
    }
    int done = 0;
    while (!done) {
        long n = cli_input_read(c, &in, chunk, 1 << 16);
        if (n < 0) break;
        if (n == 0) koma_rstream_finish(rs);
        else if (koma_rstream_feed(rs, chunk, (size_t)n, &err) != 0) {
            cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
            break;
        }
        for (;;) {
            koma_pcn *rec = NULL;
            koma_error_clear(&err);
            int rc = koma_rstream_next(rs, &rec, &err);
            if (rc == KOMA_PCN_AGAIN) break;
            if (rc == KOMA_PCN_END) {
                done = 1;
                break;
            }
            if (rc == KOMA_PCN_FATAL) {
                if (err.code == KOMA_E_MEMORY) cli_trouble(c, "%s: memory: out of memory", in.name);
                else diag_err(st, in.name, &err);
                cli_fail(c, CLI_TROUBLE);
                done = 1;
                break;
            }
            cli_progress_step(c, "records");
            if (rc == KOMA_PCN_INVALID) {
                st->records++;
                st->failed++;
                diag_err(st, in.name, &err);
                continue;
            }
            convert_record(st, in.name, koma_rstream_line(rs), rec);
            koma_pcn_free(rec);
            if (cli_stdout_broken(c) || st->stop) {
                done = 1;
                break;
            }
        }
        if (n == 0) break;
    }
    free(chunk);
    koma_rstream_free(rs);
    cli_input_close(&in);
}

static void convert_input(state *st, const char *path)
{
    cli_input in;
    if (cli_input_open(st->c, &in, path) != 0) return;
    convert_open_input(st, &in);
}

static void list_formats(void)
{
    static const char *kinds[] = {"position", "moves", "record", "recognised only"};
    for (size_t i = 0; i < koma_format_count(); i++) {
        const koma_format *f = koma_format_at(i);
        unsigned caps = koma_format_caps(f);
        printf("%-9s %-5s %-8s %s", koma_format_name(f),
               caps == (KOMA_FORMAT_READ | KOMA_FORMAT_WRITE) ? "rw" : caps & KOMA_FORMAT_READ ? "r" :
               caps & KOMA_FORMAT_WRITE ? "w" : "-",
               kinds[koma_format_kind_of(f)], koma_format_title(f));
        if (koma_format_aliases(f)[0]) printf(" (also %s)", koma_format_aliases(f));
        putchar('\n');
    }
    printf("%-9s %-5s %-8s %s\n", "ggn", "w", "game", "the move patterns of a game (--game), as GGN");
}

/* ---- main ---------------------------------------------------------------------- */

/* --start: a FEEN, or an SFEN made a FEEN. 0, or the status of a usage error. */
static int start_option(state *st, const char *arg)
{
    koma_position pos;
    koma_position_init(&pos);
    koma_error e1, e2;
    koma_error_clear(&e1);
    koma_error_clear(&e2);
    size_t n = strlen(arg);
    int rc = 0;
    if (koma_feen_parse(arg, n, KOMA_FEEN_STRICT, &pos, &e1) != 0 && koma_sfen_parse(arg, n, &pos, &e2) != 0) {
        rc = cli_usage_error(st->c, "--start: column %lu: %s: %s", e1.column, koma_code_name(e1.code),
                             e1.message);
    } else {
        size_t fl = koma_feen_write(&pos, st->start_feen, sizeof st->start_feen);
        st->start = st->start_feen;
        st->start_len = fl;
    }
    koma_position_cleanup(&pos);
    return rc;
}

static const koma_format *format_option(cli *c, const char *arg, int *status)
{
    const koma_format *f = koma_format_find(arg, strlen(arg));
    *status = 0;
    if (f == NULL) *status = cli_usage_error(c, "unknown format '%s' (koma-convert --list shows them)", arg);
    return f;
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    cli_init(&c, "koma-convert", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;
    int ggn = 0, list = 0, rc;
    const char *from_name = NULL, *to_name = NULL;

    enum { OPT_COMPACT = CLI_OPT_OWN, OPT_START, OPT_EACH, OPT_PRETTY, OPT_LIST, OPT_ENCODING, OPT_DROP };
    int has_r = 0, has_p = 0;
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
        CLI_OPTION_JSON,
        CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    const char *start_arg = NULL;
    while ((opt = cli_getopt(argc, argv, "t:f:g:no:qh", longopts)) != -1) {
        switch (opt) {
        case 't':
            to_name = optarg;
            ggn = strcmp(optarg, "ggn") == 0;
            if (!ggn && (st.to = format_option(&c, optarg, &rc)) == NULL) return rc;
            break;
        case 'f':
            from_name = optarg;
            st.from = NULL;
            if (strcmp(optarg, "auto") != 0 && (st.from = format_option(&c, optarg, &rc)) == NULL) return rc;
            break;
        case 'g': st.game = optarg; break;
        case OPT_COMPACT: st.compact = 1; break;
        case 'n': st.normalise = 1; break;
        case OPT_START: start_arg = optarg; break;
        case OPT_EACH: st.each = 1; break;
        case OPT_PRETTY: st.pretty = 1; break;
        case OPT_LIST: list = 1; break;
        case 'o':
            st.output = optarg;
            if (output_pattern(optarg, &has_r, &has_p) != 0)
                return cli_usage_error(&c, "-o %s: only %%r (record), %%p (ply) and %%%% may follow '%%'", optarg);
            st.output_r = has_r;
            break;
        case OPT_DROP:
            for (const char *p = optarg, *e; *p; p = *e ? e + 1 : e) {
                e = strchr(p, ',');
                if (e == NULL) e = p + strlen(p);
                size_t n = (size_t)(e - p);
                if (n == 5 && strncmp(p, "times", 5) == 0) st.drop |= KOMA_WRITE_DROP_TIMES;
                else if (n == 10 && strncmp(p, "variations", 10) == 0) st.drop |= KOMA_WRITE_DROP_VARIATIONS;
                else return cli_usage_error(&c, "--drop: '%.*s' is not times or variations", (int)n, p);
            }
            break;
        case OPT_ENCODING:
            if (strcasecmp(optarg, "utf-8") == 0 || strcasecmp(optarg, "utf8") == 0) st.encoding = KOMA_WRITE_UTF8;
            else if (strcasecmp(optarg, "shift_jis") == 0 || strcasecmp(optarg, "sjis") == 0 ||
                     strcasecmp(optarg, "cp932") == 0)
                st.encoding = KOMA_WRITE_SHIFT_JIS;
            else return cli_usage_error(&c, "--encoding: '%s' is not utf-8 or shift_jis", optarg);
            break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    if (list) {
        list_formats();
        return cli_finish(&c);
    }
    if (to_name == NULL && st.normalise) st.to = koma_format_find("feen", 4);
    if (to_name == NULL && st.to == NULL) return cli_usage_error(&c, "missing --to FORMAT (--list shows them)");
    if (ggn) {
        if (st.game == NULL) return cli_usage_error(&c, "--to ggn needs --game GAME");
        if (st.normalise) return cli_usage_error(&c, "--normalise needs --to feen");
        if (optind < argc) return cli_usage_error(&c, "--to ggn reads no input: '%s'", argv[optind]);
        if (c.summary) return cli_usage_error(&c, "--summary needs an input to convert");
        if (from_name) return cli_usage_error(&c, "--to ggn reads no input: --from %s", from_name);
        to_ggn(&st);
        return cli_finish(&c);
    }
    if (st.game != NULL) return cli_usage_error(&c, "--game needs --to ggn");
    if (st.compact) return cli_usage_error(&c, "--compact needs --to ggn");
    if (!(koma_format_caps(st.to) & KOMA_FORMAT_WRITE))
        return cli_usage_error(&c, "koma does not write %s (%s)", koma_format_name(st.to), koma_format_title(st.to));
    if (st.from && !(koma_format_caps(st.from) & KOMA_FORMAT_READ))
        return cli_usage_error(&c, "koma does not read %s (%s)", koma_format_name(st.from),
                               koma_format_title(st.from));
    if (st.normalise && strcmp(koma_format_name(st.to), "feen") != 0 &&
        (st.from == NULL || strcmp(koma_format_name(st.from), "feen") != 0))
        return cli_usage_error(&c, "--normalise needs --to feen or --from feen");
    if (st.each && koma_format_kind_of(st.to) != KOMA_FORMAT_POSITION)
        return cli_usage_error(&c, "--each needs a position format (--to svg, ascii, unicode, feen, sfen, fen, fid)");
    if (st.output && koma_format_kind_of(st.to) != KOMA_FORMAT_POSITION)
        return cli_usage_error(&c, "-o needs a position format (--to svg, ascii, unicode, feen, sfen, fen, fid)");
    if (st.output && c.json) return cli_usage_error(&c, "-o writes files: --json cannot describe them");
    if (st.output && st.each && !has_p)
        return cli_usage_error(&c, "-o %s with --each: add %%p (the ply) to name one file a position", st.output);
    if (!st.output && st.each && strcmp(koma_format_name(st.to), "svg") == 0)
        return cli_usage_error(&c, "--to svg --each draws one picture a position: name their files with "
                                   "-o PATTERN (%%p the ply, %%r the record)");
    if (st.pretty && !koma_format_pcn(st.to, NULL) && strcmp(koma_format_name(st.to), "jkf") != 0)
        return cli_usage_error(&c, "--pretty needs --to pcn or jkf");
    if (st.encoding && strcmp(koma_format_name(st.to), "kif") != 0 && strcmp(koma_format_name(st.to), "ki2") != 0)
        return cli_usage_error(&c, "--encoding needs --to kif or ki2");
    if (st.drop && (koma_format_kind_of(st.to) != KOMA_FORMAT_RECORD || koma_format_pcn(st.to, NULL)))
        return cli_usage_error(&c, "--drop needs --to csa, usi, kif, ki2 or jkf (PCN keeps everything)");
    if (start_arg && (rc = start_option(&st, start_arg)) != 0) return rc;
    if (st.from && koma_format_kind_of(st.from) == KOMA_FORMAT_MOVES && start_arg == NULL &&
        strcmp(koma_format_name(st.from), "pmn") == 0)
        return cli_usage_error(&c, "--from pmn needs --start POSITION (the moves' start)");
    if (start_arg && (st.from == NULL || koma_format_kind_of(st.from) != KOMA_FORMAT_MOVES))
        return cli_usage_error(&c, "--start needs --from pmn, usi-move or fen-move");

    koma_position_init(&st.pos);
    /* FEEN lines to FEEN: the line-by-line path of old, with its counts */
    int feen_lines = strcmp(koma_format_name(st.to), "feen") == 0 && !st.each && !st.output &&
                     (st.from == NULL || strcmp(koma_format_name(st.from), "feen") == 0) && start_arg == NULL;
    koma_error err;
    koma_error_clear(&err);
    st.hub = koma_hub_new(NULL, &err);
    if (st.hub == NULL || (st.ws = koma_wstream_new(st.hub, st.to,
                                                    (st.each ? KOMA_WRITE_EACH : 0) |
                                                        (st.pretty ? KOMA_WRITE_PRETTY : 0) | st.encoding | st.drop,
                                                    &err)) == NULL) {
        cli_trouble(&c, "%s: %s", koma_code_name(err.code), err.message);
        koma_hub_free(st.hub);
        return cli_finish(&c);
    }
    if (st.output) koma_wstream_each_position(st.ws, position_file, &st);
    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        int lines = feen_lines;
        if (lines && st.from == NULL) {
            /* detect: FEEN lines (or nothing recognisable) keep the FEEN path */
            cli_input in;
            if (cli_input_open(&c, &in, path) != 0) continue;
            const char *s;
            size_t n;
            int conf = 0;
            const koma_format *f = NULL;
            if (cli_input_peek(&c, &in, 4096, &s, &n) == 0) f = koma_format_detect(s, n, n < 4096, &conf);
            lines = f == NULL || strcmp(koma_format_name(f), "feen") == 0;
            if (lines) {
                st.in = &in;
                cli_input_lines(&c, &in, NULL, feen_input_line, &st);
                cli_input_close(&in);
            } else {
                /* another format: converted from the same input (stdin cannot be opened twice) */
                convert_open_input(&st, &in);
            }
            if (cli_stdout_broken(&c)) break;
            continue;
        }
        if (lines) to_feen(&st, path);
        else convert_input(&st, path);
        if (cli_stdout_broken(&c) || st.stop) break;
    }
    if (c.summary && !c.quiet) {
        if (st.records == 0 && (st.lines > 0 || feen_lines)) {
            if (c.json)
                printf("{\"summary\":{\"lines\":%lu,\"converted\":%lu,\"invalid\":%lu}}\n", st.lines,
                       st.converted, st.invalid);
            else
                printf("%lu %s read: %lu converted, %lu invalid\n", st.lines,
                       st.lines == 1 ? "line" : "lines", st.converted, st.invalid);
        } else {
            unsigned long total = st.records + st.lines;
            if (c.json)
                printf("{\"summary\":{\"records\":%lu,\"converted\":%lu,\"failed\":%lu}}\n", total,
                       st.converted, st.failed + st.invalid);
            else
                printf("%lu %s read: %lu converted, %lu failed\n", total, total == 1 ? "record" : "records",
                       st.converted, st.failed + st.invalid);
        }
    }
    koma_wstream_free(st.ws);
    koma_hub_free(st.hub);
    koma_pcn_buffer_cleanup(&st.out);
    koma_position_cleanup(&st.pos);
    return cli_finish(&c);
}
