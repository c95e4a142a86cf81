/*
 * koma-replay — replay game records under the rules of their game and report,
 * per record, how the game ended (DESIGN.md §4, §5).
 *
 * Input: PCN records (JSON Lines or a YAML stream), or with --start FEEN bare
 * lists of moves, one per line, a blank line between records. Output, one line
 * a record: SOURCE, RESULT, STATUS, PLY, FEEN (DESIGN.md §5), then PLAYED and
 * FID; --adjudicate: SOURCE, RESULT, STATUS, PLY, REASON; --each: the FEEN
 * after every ply; --write-outcome: the records with their outcome filled in;
 * --json: one object a record (schemas/koma-replay.schema.json).
 * The rules themselves are in cmd/replay_core.c. See man/koma-replay.1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay_core.h"

enum { MODE_LINE, MODE_ADJUDICATE, MODE_EACH, MODE_WRITE };

typedef struct state {
    cli *c;
    replay *rp;
    int mode;
    const char *start;                 /* --start FEEN (canonical), or NULL */
    size_t start_len;
    int pcn_format_given;
    koma_pcn_format pcn_format;
    unsigned pcn_flags;
    const char *file;                  /* the input being read (for --each) */
    unsigned long line;
    int each_open;                     /* --each printed positions of this record */
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
          "  -g, --game GAME   the game: an id (ogi, ogi-classic, shogi, minishogi,\n"
          "                    okisaki) or a YAML definition file; default: from each\n"
          "                    setup FEEN's style letter and board shape\n"
          "      --start FEEN  the input is moves, one PMN a line, from FEEN ('start':\n"
          "                    the game's start position); a blank line ends a record\n"
          "      --pmn-dialect D  moves are in dialect D: pmn (default), seed or json-array\n"
          "      --format F    PCN input is json (JSON Lines) or yaml (a YAML stream);\n"
          "                    by default the first bytes decide\n"
          "      --adjudicate  one verdict a record: SOURCE RESULT STATUS PLY REASON\n"
          "      --each        the FEEN of the setup and after every ply, a blank line\n"
          "                    after each record\n"
          "      --write-outcome  write the records back (same format) with\n"
          "                    outcome.result, .status and .ply filled in\n"
          "      --json        one JSON object a record on stdout\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "      --summary     end with counts\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "Diagnostics: koma-replay: FILE:LINE:COL: CODE: message (codes: koma-formats(5)).\n"
          "Exit status: 0 every record replayed and agreeing with the rules, 1 an illegal\n"
          "ply, a wrong recorded outcome, plies after the end or an unreadable record,\n"
          "2 usage or I/O trouble.\n",
          f);
}

/* ---- output ----------------------------------------------------------------------- */

static void put_status(const replay_verdict *v)
{
    fputs(v->has_status ? koma_cgsn_name(v->status) : "-", stdout);
}

static void put_ply(const replay_verdict *v)
{
    if (v->has_ply) printf("%zu", v->ply);
    else putchar('-');
}

static void json_verdict(const replay_verdict *v, const replay_source *src, const char *fid)
{
    FILE *f = stdout;
    fputs("{\"file\":", f);
    cli_json_cstr(f, src->file);
    fprintf(f, ",\"line\":%lu,\"game\":", src->line);
    cli_json_cstr(f, koma_game_id(v->game));
    fputs(",\"result\":", f);
    cli_json_cstr(f, v->result);
    fputs(",\"status\":", f);
    if (v->has_status) cli_json_cstr(f, koma_cgsn_name(v->status));
    else fputs("null", f);
    if (v->has_ply) fprintf(f, ",\"ply\":%zu", v->ply);
    else fputs(",\"ply\":null", f);
    fprintf(f, ",\"played\":%zu,\"plies\":%zu,\"feen\":", v->played, v->plies);
    cli_json_cstr(f, v->feen);
    fprintf(f, ",\"fid\":\"%s\",\"reason\":", fid);
    cli_json_cstr(f, v->reason);
    fprintf(f, ",\"disputed\":%s", v->problems ? "true" : "false");
    if (v->illegal) {
        fprintf(f, ",\"illegal\":{\"ply\":%zu,\"pmn\":", v->ply);
        cli_json_cstr(f, v->illegal_pmn);
        fputs(",\"code\":", f);
        cli_json_cstr(f, koma_code_name(v->illegal_code));
        fputs(",\"message\":", f);
        cli_json_cstr(f, v->illegal_message);
        fputs(",\"legal\":[", f);
        const char *p = v->legal;
        int first = 1;
        while (*p) {
            const char *e = strchr(p, ' ');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            if (!first) putc(',', f);
            cli_json_string(f, p, n);
            first = 0;
            p += n;
            if (*p == ' ') p++;
        }
        fputs("]}", f);
    }
    if (v->extra) fprintf(f, ",\"extra\":%zu", v->extra);
    if (v->has_recorded) {
        fputs(",\"recorded\":{", f);
        int any = 0;
        if (v->rec_result[0]) {
            fputs("\"result\":", f);
            cli_json_cstr(f, v->rec_result);
            any = 1;
        }
        if (v->rec_has_status) {
            fprintf(f, "%s\"status\":", any ? "," : "");
            cli_json_cstr(f, koma_cgsn_name(v->rec_status));
            any = 1;
        }
        if (v->rec_has_ply) fprintf(f, "%s\"ply\":%llu", any ? "," : "", (unsigned long long)v->rec_ply);
        putc('}', f);
    }
    fputs("}\n", f);
}

static void print_verdict(state *st, const replay_verdict *v, const replay_source *src)
{
    cli *c = st->c;
    st->plies += v->played;
    if (v->problems) st->disputed++;
    else if (v->how == REPLAY_UNFINISHED) st->unfinished++;
    else st->finished++;
    if (c->quiet || st->mode == MODE_EACH || st->mode == MODE_WRITE) return;
    if (c->json) {
        char fid[KOMA_FID_BUF];
        koma_fid_of(v->feen, strlen(v->feen), fid);
        json_verdict(v, src, fid);
        return;
    }
    fputs(src->file, stdout);
    printf(":%lu\t%s\t", src->line, v->result);
    put_status(v);
    putchar('\t');
    put_ply(v);
    if (st->mode == MODE_ADJUDICATE) {
        printf("\t%s\n", v->reason);
        return;
    }
    char fid[KOMA_FID_BUF];
    koma_fid_of(v->feen, strlen(v->feen), fid);
    printf("\t%s\t%zu\t%s\n", v->feen, v->played, fid);
}

/* --each: the FEEN of the setup and after every ply. */
static void each_cb(void *ctx, const replay_verdict *v, size_t ply, const char *feen, size_t len)
{
    state *st = ctx;
    cli *c = st->c;
    (void)v;
    if (c->quiet) return;
    st->each_open = 1;
    if (c->json) {
        fputs("{\"file\":", stdout);
        cli_json_cstr(stdout, st->file);
        printf(",\"line\":%lu,\"ply\":%zu,\"feen\":", st->line, ply);
        cli_json_string(stdout, feen, len);
        fputs("}\n", stdout);
    } else {
        fwrite(feen, 1, len, stdout);
        putchar('\n');
    }
}

/* After a record with --each: a blank line (text output) when it printed any. */
static void each_end(state *st)
{
    if (st->each_open && !st->c->json) putchar('\n');
    st->each_open = 0;
}

static void progress(state *st)
{
    if (st->c->progress && st->records % 4096 == 0) {
        fprintf(stderr, "\rkoma-replay: %lu records", st->records);
        fflush(stderr);
    }
}

/* ---- PCN input --------------------------------------------------------------------- */

/* --write-outcome: a record that could not be replayed goes through as it was. */
static void pass_through(state *st, koma_pcn_reader *r, koma_pcn_format fmt)
{
    size_t len;
    const char *text = koma_pcn_reader_text(r, &len);
    if (text == NULL || st->c->quiet) return;
    if (fmt == KOMA_PCN_YAML) {
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

static void pcn_input(state *st, cli_input *in)
{
    cli *c = st->c;
    const char *head;
    size_t headlen;
    koma_error err;
    koma_error_clear(&err);
    if (cli_input_peek(c, in, 1 << 16, &head, &headlen) != 0) return;
    koma_pcn_format fmt = st->pcn_format_given ? st->pcn_format : replay_sniff_format(head, headlen);
    koma_pcn_reader *r = koma_pcn_reader_new(fmt, st->pcn_flags, NULL, NULL, &err);
    char *chunk = malloc(1 << 16);
    if (r == NULL || chunk == NULL) {
        koma_pcn_reader_free(r);
        free(chunk);
        cli_trouble(c, "memory: out of memory");
        return;
    }
    int done = 0;
    while (!done) {
        koma_pcn *rec = NULL;
        koma_error_clear(&err);
        int k = koma_pcn_reader_next(r, &rec, &err);
        switch (k) {
        case KOMA_PCN_AGAIN: {
            long n = cli_input_read(c, in, chunk, 1 << 16);
            if (n < 0) done = 1;
            else if (n == 0) koma_pcn_reader_finish(r);
            else if (koma_pcn_reader_feed(r, chunk, (size_t)n, &err) != 0) {
                cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
                done = 1;
            }
            break;
        }
        case KOMA_PCN_RECORD: {
            replay_source src = {in->name, koma_pcn_reader_line(r), replay_reader_locate, r};
            replay_verdict v;
            st->records++;
            st->file = in->name;
            st->line = src.line;
            int rc = replay_pcn(st->rp, rec, &src, &v);
            if (rc == -2) {
                done = 1;
            } else if (rc == -1) {
                st->invalid++;
                if (st->mode == MODE_WRITE) pass_through(st, r, fmt);
            } else {
                print_verdict(st, &v, &src);
                if (st->mode == MODE_WRITE && !c->quiet) {
                    if (replay_write_outcome(&v, rec, &err) != 0 ||
                        koma_pcn_fwrite(rec, fmt, 0, stdout, &err) != 0) {
                        if (err.code == KOMA_E_MEMORY) {
                            cli_trouble(c, "memory: out of memory");
                            done = 1;
                        }
                    }
                }
            }
            each_end(st);
            koma_pcn_free(rec);
            progress(st);
            break;
        }
        case KOMA_PCN_INVALID:
            st->records++;
            st->invalid++;
            cli_diag_error(c, CLI_DATA, in->name, &err, NULL);
            if (st->mode == MODE_WRITE) pass_through(st, r, fmt);
            progress(st);
            break;
        case KOMA_PCN_END:
            done = 1;
            break;
        default:
            if (err.code == KOMA_E_MEMORY) cli_trouble(c, "memory: out of memory");
            else cli_diag_error(c, CLI_TROUBLE, in->name, &err, NULL);
            done = 1;
        }
        if (cli_stdout_broken(c)) done = 1;
    }
    free(chunk);
    koma_pcn_reader_free(r);
}

/* ---- move lists (--start) ------------------------------------------------------------- */

static int blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t') return 0;
    return 1;
}

/* Finish the open record; 0, or -2 on trouble. */
static int lines_finish(state *st, const replay_source *src, replay_verdict *v, int begun)
{
    int rc = begun == 0 ? replay_finish(st->rp) : begun;
    if (rc == -2) return -2;
    if (rc == -1) st->invalid++;
    else print_verdict(st, v, src);
    each_end(st);
    progress(st);
    return 0;
}

static void lines_input(state *st, cli_input *in)
{
    cli *c = st->c;
    const char *s;
    size_t len;
    int k, open = 0, any = 0, begun = 0;
    replay_source src = {in->name, 1, NULL, NULL};
    replay_verdict v;
    st->file = in->name;
    while ((k = cli_input_line(c, in, &s, &len)) != CLI_LINE_EOF) {
        if (k == CLI_LINE_ERROR) break;
        if (k == CLI_LINE_OK && blank(s, len)) {
            if (open && lines_finish(st, &src, &v, begun) != 0) return;
            open = 0;
            continue;
        }
        if (!open) {
            open = any = 1;
            src.line = st->line = in->line;
            st->records++;
            begun = replay_begin(st->rp, st->start, st->start_len, &src, &v);
            if (begun == -2) return;
        }
        if (begun != 0) continue;
        if (k == CLI_LINE_TOO_LONG) {
            char msg[80];
            snprintf(msg, sizeof msg, "line exceeds %u bytes", CLI_LINE_MAX);
            cli_diag(c, CLI_DATA, in->name, in->line, (unsigned long)CLI_LINE_MAX + 1,
                     "line.length", msg, NULL);
            replay_abandon(st->rp);
            continue;
        }
        if (replay_ply(st->rp, s, len, in->line) == -2) return;
        if (cli_stdout_broken(c)) return;
    }
    if (!open && !any) {
        /* no moves at all: the setup position itself */
        open = 1;
        src.line = st->line = 1;
        st->records++;
        begun = replay_begin(st->rp, st->start, st->start_len, &src, &v);
        if (begun == -2) return;
    }
    if (open) lines_finish(st, &src, &v, begun);
}

static void replay_input(state *st, const char *path)
{
    cli_input in;
    if (cli_input_open(st->c, &in, path) != 0) return;
    if (st->start) lines_input(st, &in);
    else pcn_input(st, &in);
    cli_input_close(&in);
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    int summary = 0, rc = 0;
    cli_init(&c, "koma-replay");
    memset(&st, 0, sizeof st);
    st.c = &c;
    st.mode = MODE_LINE;
    const char *game = NULL, *start = NULL;
    koma_pmn_dialect dialect = KOMA_PMN_DIALECT_CANONICAL;
    int modes = 0;

    enum { OPT_JSON = 256, OPT_SUMMARY, OPT_VERSION, OPT_START, OPT_DIALECT, OPT_FORMAT,
           OPT_ADJUDICATE, OPT_EACH, OPT_WRITE };
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},
        {"start", required_argument, NULL, OPT_START},
        {"pmn-dialect", required_argument, NULL, OPT_DIALECT},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"adjudicate", no_argument, NULL, OPT_ADJUDICATE},
        {"each", no_argument, NULL, OPT_EACH},
        {"write-outcome", no_argument, NULL, OPT_WRITE},
        {"json", no_argument, NULL, OPT_JSON},
        {"quiet", no_argument, NULL, 'q'},
        {"summary", no_argument, NULL, OPT_SUMMARY},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int opt;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "g:qh", longopts, NULL)) != -1) {
        switch (opt) {
        case 'g': game = optarg; break;
        case OPT_START: start = optarg; break;
        case OPT_DIALECT:
            if (koma_pmn_dialect_from_name(optarg, strlen(optarg), &dialect) != 0)
                return cli_usage_error(&c, "unknown PMN dialect '%s' (pmn, seed, json-array)",
                                       optarg);
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "json") == 0) st.pcn_format = KOMA_PCN_JSON;
            else if (strcmp(optarg, "yaml") == 0) st.pcn_format = KOMA_PCN_YAML;
            else return cli_usage_error(&c, "unknown format '%s' (json, yaml)", optarg);
            st.pcn_format_given = 1;
            break;
        case OPT_ADJUDICATE: st.mode = MODE_ADJUDICATE; modes++; break;
        case OPT_EACH: st.mode = MODE_EACH; modes++; break;
        case OPT_WRITE: st.mode = MODE_WRITE; modes++; break;
        case OPT_JSON: c.json = 1; break;
        case 'q': c.quiet = 1; break;
        case OPT_SUMMARY: summary = 1; break;
        case 'h': usage(stdout); return cli_finish(&c);
        case OPT_VERSION: cli_version(&c); return cli_finish(&c);
        default:
            if (optopt && optopt < 256) return cli_usage_error(&c, "invalid option '-%c'", optopt);
            return cli_usage_error(&c, "invalid option '%s'", argv[optind - 1]);
        }
    }
    if (modes > 1)
        return cli_usage_error(&c, "--adjudicate, --each and --write-outcome exclude each other");
    if (st.mode == MODE_WRITE && start)
        return cli_usage_error(&c, "--write-outcome needs PCN records, not --start");
    if (st.mode == MODE_WRITE && c.json)
        return cli_usage_error(&c, "--write-outcome writes records: no --json");
    if (st.mode == MODE_WRITE && summary)
        return cli_usage_error(&c, "--write-outcome writes records: no --summary");
    if (st.pcn_format_given && start) return cli_usage_error(&c, "--format is for PCN input, not --start");
    if (dialect != KOMA_PMN_DIALECT_CANONICAL) st.pcn_flags |= KOMA_PCN_NO_PMN;

    koma_error err;
    koma_error_clear(&err);
    koma_game_set *games = NULL;
    const koma_game *forced = NULL;
    char startbuf[KOMA_FEEN_MAX_LEN + 1];
    koma_position pos;
    koma_position_init(&pos);
    if (koma_game_set_new(&games, &err) != 0) {
        cli_trouble(&c, "built-in games: %s", err.message);
        return cli_finish(&c);
    }
    if (game != NULL) {
        int k = replay_find_game(&c, games, game, &forced);
        if (k != 0) {
            rc = k > 0 ? k : 0;
            goto done;
        }
    }
    if (start != NULL) {
        /* check the start position now: a bad one is a usage error */
        if (strcmp(start, "start") == 0) {
            const koma_game *g = forced ? forced : koma_game_set_find_id(games, "ogi", 3);
            snprintf(startbuf, sizeof startbuf, "%s", koma_game_start(g));
            if (forced == NULL) forced = g;
        } else {
            snprintf(startbuf, sizeof startbuf, "%s", start);
        }
        const koma_game *g = forced;
        koma_engine *e = NULL;
        if (koma_feen_parse(startbuf, strlen(startbuf), KOMA_FEEN_STRICT, &pos, &err) != 0 ||
            (g == NULL && (g = koma_game_set_find_position(games, &pos, &err)) == NULL) ||
            (!koma_game_playable(g) &&
             koma_error_set(&err, KOMA_E_GAME_NO_RULES, 0, "game %s has no rule engine yet",
                            koma_game_id(g))) ||
            koma_engine_new(g, &e, &err) != 0 || koma_engine_set_position(e, &pos, &err) != 0) {
            koma_engine_free(e);
            rc = cli_usage_error(&c, "--start: %s: %s", koma_code_name(err.code), err.message);
            goto done;
        }
        koma_engine_free(e);
        st.start = startbuf;
        st.start_len = strlen(startbuf);
    }
    st.rp = replay_new(&c, games, forced, dialect);
    if (st.rp == NULL) {
        cli_trouble(&c, "memory: out of memory");
        goto done;
    }
    if (st.mode == MODE_EACH) replay_set_each(st.rp, each_cb, &st);

    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        replay_input(&st, path);
        if (cli_stdout_broken(&c)) break;
    }
    if (c.progress && st.records >= 4096) fputs("\r\033[K", stderr);

    if (summary && !c.quiet) {
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
    replay_free(st.rp);
    koma_position_cleanup(&pos);
    koma_game_set_free(games);
    if (rc) return rc;
    return cli_finish(&c);
}
