/*
 * koma-select — find, filter and de-duplicate the records of game databases in
 * any format koma reads (koma(7), koma-formats(5)): the records that match
 * every criterion given, written as they were read (or converted with --to),
 * listed (-l), counted (-c) or described (--json); the first copy of each game
 * (--unique) or the later ones (--duplicates); grep's exit status. The
 * matching is the library's (koma/select.h); records come through
 * cmd/records.c, the output goes through cmd/select_out.c. See
 * man/koma-select.1.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "games.h"
#include "records.h"
#include "select_out.h"

enum { OUT_RECORDS, OUT_LIST, OUT_COUNT, OUT_JSON };
enum { DUP_ALL, DUP_UNIQUE, DUP_LATER };

typedef struct state {
    cli *c;
    koma_select *sel;
    records_options ro;
    select_out out;
    int mode, invert, dup, positions, stop;
    int failed;                        /* memory or output trouble: stop, no count */
    unsigned flags;                    /* koma_select_record's */
    koma_keyset *seen;
    unsigned long long records, selected, invalid, dropped;
} state;

static void usage(FILE *f)
{
    fputs("Usage: koma-select [OPTION]... [FILE]...\n"
          "Write the records of each FILE (stdin when none or '-'), in any format koma\n"
          "reads, that match every criterion given, as they were read.\n"
          "\n"
          "Input and output:\n"
          "  -f, --from FORMAT   the input format (default auto: decided for each input)\n"
          "      --start FEEN    moves formats: the position the moves start from\n"
          "  -t, --to FORMAT     convert the records written (koma-convert --list)\n"
          "  -o, --output PATTERN  write the records to files: %n the file number\n"
          "                      (%03n padded), %% a '%'\n"
          "      --split N       N records a file (-o)\n"
          "  -l, --list          print FILE:LINE of each match (:PLY where a position\n"
          "                      criterion first held)\n"
          "  -c, --count         print the number of matches\n"
          "      --json          one JSON object a match\n"
          "  -v, --invert        select the records that do not match\n"
          "\n"
          "Criteria (all given must hold):\n"
          "  -p, --position FEEN the record reaches this position (any of them)\n"
          "      --fid FID       the record reaches the position of this FID (any of them)\n"
          "      --pattern PAT   a position matches this board pattern (any of them)\n"
          "      --material SPEC a position has this material (any of them)\n"
          "      --ply N|N:M     where the position criteria may hold (0: the setup)\n"
          "  -m, --moves 'PMN...' the record starts with these plies\n"
          "      --anywhere      ... or holds them anywhere, one after the other\n"
          "      --meta COND     KEY=VALUE, KEY!=VALUE, KEY~REGEX, KEY!~REGEX, KEY<N,\n"
          "                      KEY<=N, KEY>N, KEY>=N on the record's members\n"
          "  -g, --game GAME     the record's game (any of them): an id or FILE.yaml;\n"
          "                      ids: " KOMA_GAME_IDS "\n"
          "      --result R      the rules' verdict: 1-0, 0-1, 1/2-1/2 or * (any of them)\n"
          "      --status S      the rules' verdict: a CGSN status or none (any of them)\n"
          "      --plies N|N:M   the record has that many plies\n"
          "      --disputed      the rules' verdict disagrees with the record\n"
          "\n"
          "Duplicates (the same setup and plies, whatever the format):\n"
          "  -u, --unique        keep the first copy of each game\n"
          "  -d, --duplicates    keep only the later copies\n"
          "      --same-at N     the same position at ply N makes two records copies\n"
          "\n"
          "  -q, --quiet         print nothing; stop at the first match\n"
          "      --summary       end with counts (not with records on stdout)\n"
          "  -h, --help          show this help and exit\n"
          "      --version       show the version and exit\n"
          "\n"
          "Exit status: 0 some record selected, 1 none, 2 trouble (usage, I/O, memory,\n"
          "a record that cannot be read or searched: reported, the others still read).\n",
          f);
}

/* "N", "N:M", "N:", ":M" into *lo, *hi (SIZE_MAX: no end). */
static int range(cli *c, const char *opt, const char *arg, size_t *lo, size_t *hi)
{
    char *end;
    const char *colon = strchr(arg, ':');
    *lo = 0;
    *hi = SIZE_MAX;
    if (colon != arg) {
        if (*arg < '0' || *arg > '9') goto bad;
        unsigned long long v = strtoull(arg, &end, 10);
        if (end != (colon ? colon : arg + strlen(arg)) || v > KOMA_LIMIT_PLIES) goto bad;
        *lo = (size_t)v;
        if (!colon) *hi = *lo;
    }
    if (colon && colon[1]) {
        if (colon[1] < '0' || colon[1] > '9') goto bad;
        unsigned long long v = strtoull(colon + 1, &end, 10);
        if (*end || v > KOMA_LIMIT_PLIES) goto bad;
        *hi = (size_t)v;
    }
    if (*lo > *hi) goto bad;
    return 0;
bad:
    return cli_usage_error(c, "%s %s: plies are N, N:M, N: or :M (0 to %d)", opt, arg, KOMA_LIMIT_PLIES);
}

/* A criterion's text refused by the library: a usage error naming the column. */
static int refused(cli *c, const char *opt, const koma_error *err)
{
    return cli_usage_error(c, "%s: column %lu: %s: %s", opt, err->column, koma_code_name(err->code),
                           err->message);
}

/* ---- one record ----------------------------------------------------------------------- */

static void diag_at(state *st, const record_item *it, const char *pointer, koma_code code, const char *msg)
{
    unsigned long line = it->src.line, col = 1;
    record_locate(&it->src, pointer, &line, &col);
    cli_diag(st->c, CLI_TROUBLE, it->src.file, line, col, koma_code_name(code), msg, NULL);
}

/* Each record of an input. Non-zero stops the input. */
static int on_record(state *st, record_item *it)
{
    cli *c = st->c;
    koma_error err;
    koma_error_clear(&err);
    st->records++;
    if (it->rec == NULL) {
        st->invalid++;
        if (it->err.line == 0) it->err.line = it->src.line ? it->src.line : 1;
        if (it->err.column == 0) it->err.column = 1;
        cli_diag_error(c, CLI_TROUBLE, it->src.file, &it->err, NULL);
        return 0;
    }
    koma_selection r;
    if (koma_select_record(st->sel, it->rec, st->flags, &r, &err) != 0) {
        cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
        return st->stop = st->failed = 1;
    }
    char msg[KOMA_ERROR_MESSAGE_MAX + 64];
    if (r.unjudged) {
        st->invalid++;
        snprintf(msg, sizeof msg, "cannot search this record: %s", r.problem.message);
        diag_at(st, it, r.member, r.problem.code, msg);
        return 0;
    }
    if (r.unreadable) {
        size_t ply = (size_t)strtoul(r.member + 7, NULL, 10), len = 0;
        const char *s = koma_pcn_ply_pmn(it->rec, ply, &len);
        koma_ply_unreadable_message(ply + 1, s ? s : "", s ? len : 0, &r.problem, msg, sizeof msg);
        diag_at(st, it, r.member, r.problem.code, msg);
    }
    if (r.matched == st->invert) return 0;
    if (st->dup != DUP_ALL) {
        int fresh = 1;
        if (r.has_key && (fresh = koma_keyset_add(st->seen, &r.key, &err)) < 0) {
            cli_trouble(c, "memory: out of memory");
            return st->stop = st->failed = 1;
        }
        if (fresh != (st->dup == DUP_UNIQUE)) {
            st->dropped++;
            return 0;
        }
    }
    st->selected++;
    if (c->quiet) return st->stop = 1;  /* grep -q: the answer is known */
    switch (st->mode) {
    case OUT_LIST:
        printf("%s:%lu", it->src.file, it->src.line);
        if (st->positions && !st->invert && r.nplies) printf(":%zu", r.plies[0]);
        putchar('\n');
        break;
    case OUT_JSON: select_print_json(it, &r, st->positions && !st->invert); break;
    case OUT_COUNT: break;
    default: {
        int rc = select_out_record(&st->out, it->rec, it->text, it->text_len, it->text_format, &err);
        if (rc < 0) return st->stop = st->failed = 1;
        if (rc > 0) {
            snprintf(msg, sizeof msg, "cannot write this record as %s: %s", koma_format_name(st->out.to),
                     err.message);
            diag_at(st, it, "", err.code, msg);
        }
    }
    }
    return 0;
}

static void select_input(state *st, const char *path)
{
    cli_input in;
    records_reader rd;
    record_item it;
    if (cli_input_open(st->c, &in, path) != 0) {
        if (in.cap) st->stop = st->failed = 1;   /* opened, but no memory for its buffer */
        return;
    }
    if (records_open(st->c, &rd, &in, &st->ro) == 0) {
        while (!st->stop && records_next(&rd, &it) != RECORDS_END) {
            on_record(st, &it);
            koma_pcn_free(it.rec);
            cli_progress_step(st->c, "records");
            if (cli_stdout_broken(st->c)) st->stop = 1;
        }
        records_close(&rd);
    }
    if (rd.memory) st->stop = st->failed = 1;   /* the records after would be judged wrongly */
    cli_input_close(&in);
}

/* ---- options ------------------------------------------------------------------------ */

enum { OPT_START = CLI_OPT_OWN, OPT_SPLIT, OPT_FID, OPT_PATTERN, OPT_MATERIAL, OPT_PLY, OPT_ANYWHERE,
       OPT_META, OPT_RESULT, OPT_STATUS, OPT_PLIES, OPT_DISPUTED, OPT_SAME_AT };

static const struct option longopts[] = {
    {"from", required_argument, NULL, 'f'}, {"start", required_argument, NULL, OPT_START},
    {"to", required_argument, NULL, 't'}, {"output", required_argument, NULL, 'o'},
    {"split", required_argument, NULL, OPT_SPLIT}, {"list", no_argument, NULL, 'l'},
    {"count", no_argument, NULL, 'c'}, {"invert", no_argument, NULL, 'v'},
    {"position", required_argument, NULL, 'p'}, {"fid", required_argument, NULL, OPT_FID},
    {"pattern", required_argument, NULL, OPT_PATTERN}, {"material", required_argument, NULL, OPT_MATERIAL},
    {"ply", required_argument, NULL, OPT_PLY}, {"moves", required_argument, NULL, 'm'},
    {"anywhere", no_argument, NULL, OPT_ANYWHERE}, {"meta", required_argument, NULL, OPT_META},
    {"game", required_argument, NULL, 'g'}, {"result", required_argument, NULL, OPT_RESULT},
    {"status", required_argument, NULL, OPT_STATUS}, {"plies", required_argument, NULL, OPT_PLIES},
    {"disputed", no_argument, NULL, OPT_DISPUTED}, {"unique", no_argument, NULL, 'u'},
    {"duplicates", no_argument, NULL, 'd'}, {"same-at", required_argument, NULL, OPT_SAME_AT},
    CLI_OPTION_JSON, CLI_OPTION_SUMMARY,
    CLI_OPTIONS_END,
};

/* One criterion option into the selector: 0, or the exit status to return. */
static int criterion(state *st, koma_game_set *games, int opt, const char *arg, const char *moves,
                     int anywhere)
{
    cli *c = st->c;
    koma_select *s = st->sel;
    koma_error err;
    koma_error_clear(&err);
    size_t n = strlen(arg), lo, hi;
    const koma_game *g;
    switch (opt) {
    case 'p': return koma_select_position(s, arg, n, &err) ? refused(c, "--position", &err) : 0;
    case OPT_FID: return koma_select_fid(s, arg, n, &err) ? refused(c, "--fid", &err) : 0;
    case OPT_PATTERN: return koma_select_pattern(s, arg, n, &err) ? refused(c, "--pattern", &err) : 0;
    case OPT_MATERIAL: return koma_select_material(s, arg, n, &err) ? refused(c, "--material", &err) : 0;
    case OPT_META: return koma_select_meta(s, arg, n, &err) ? refused(c, "--meta", &err) : 0;
    case OPT_RESULT: return koma_select_result(s, arg, n, &err) ? refused(c, "--result", &err) : 0;
    case OPT_STATUS: return koma_select_status(s, arg, n, &err) ? refused(c, "--status", &err) : 0;
    case 'g':
        if (games_option(c, games, arg, NULL, &g) != 0) return 2;
        return koma_select_game(s, g, &err) ? refused(c, "--game", &err) : 0;
    case OPT_PLY:
        if (range(c, "--ply", arg, &lo, &hi)) return 2;
        koma_select_window(s, lo, hi);
        return 0;
    case OPT_PLIES:
        if (range(c, "--plies", arg, &lo, &hi)) return 2;
        koma_select_length(s, lo, hi);
        return 0;
    case OPT_SAME_AT:
        if (range(c, "--same-at", arg, &lo, &hi) || lo != hi)
            return cli_usage_error(c, "--same-at %s: a ply number", arg);
        koma_select_key_at(s, lo);
        return 0;
    case OPT_DISPUTED: koma_select_disputed(s); return 0;
    case 'm': return koma_select_moves(s, moves, strlen(moves), anywhere, &err) ? refused(c, "--moves", &err) : 0;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    memset(&st, 0, sizeof st);
    cli_init(&c, "koma-select", usage);
    st.c = &c;
    st.out.c = &c;
    koma_game_set *games = NULL;
    koma_error err;
    koma_error_clear(&err);
    const char *from = "auto", *to = NULL, *moves = NULL;
    unsigned long split = 0;
    int anywhere = 0, modes = 0, rc = 0, from_given = 0, same_at = 0;
    if (games_open(&c, &games) != 0 || koma_select_new(games, &st.sel, &err) != 0 ||
        koma_hub_new(games, &st.ro.hub, &err) != 0 || !(st.out.hub = st.ro.hub)) {
        if (c.status == 0) cli_trouble(&c, "memory: out of memory");
        goto done;
    }
    int opt;
    while ((opt = cli_getopt(argc, argv, "f:t:o:lcvp:m:g:udqh", longopts)) != -1 && rc == 0) {
        switch (opt) {
        case 'f': from = optarg; break;
        case OPT_START: st.ro.from_options.start = optarg; st.ro.from_options.start_len = strlen(optarg); break;
        case 't': to = optarg; break;
        case 'o': st.out.pattern = optarg; break;
        case OPT_SPLIT: {
            char *end;
            split = strtoul(optarg, &end, 10);
            if (*end || split == 0 || *optarg < '1' || *optarg > '9')
                rc = cli_usage_error(&c, "--split %s: a number of records, 1 or more", optarg);
            break;
        }
        case 'l': st.mode = OUT_LIST; modes++; break;
        case 'c': st.mode = OUT_COUNT; modes++; break;
        case 'v': st.invert = 1; break;
        case OPT_ANYWHERE: anywhere = 1; break;
        case 'm': moves = optarg; break;
        case 'u': st.dup = st.dup == DUP_LATER ? -1 : DUP_UNIQUE; break;
        case 'd': st.dup = st.dup == DUP_UNIQUE ? -1 : DUP_LATER; break;
        case OPT_SAME_AT: same_at = 1; rc = criterion(&st, games, opt, optarg, NULL, 0); break;
        case 'p': case OPT_FID: case OPT_PATTERN: case OPT_MATERIAL: st.positions = 1;   /* fall through */
        case OPT_META: case OPT_RESULT: case OPT_STATUS: case 'g': case OPT_PLY: case OPT_PLIES: case OPT_DISPUTED:
            rc = criterion(&st, games, opt, optarg ? optarg : "", NULL, 0); break;
        default:
            if ((rc = cli_option(&c, opt, argv)) == CLI_OPTION_TAKEN) rc = 0;
            else goto done_rc;
        }
    }
    if (rc != 0) goto done_rc;
    if (moves && (rc = criterion(&st, games, 'm', "", moves, anywhere)) != 0) goto done_rc;
    if (anywhere && !moves) { rc = cli_usage_error(&c, "--anywhere goes with --moves"); goto done_rc; }
    if (c.json && st.mode == OUT_LIST) { rc = cli_usage_error(&c, "-l and --json exclude each other"); goto done_rc; }
    if (c.json && st.mode != OUT_COUNT) st.mode = OUT_JSON;
    if (modes > 1) { rc = cli_usage_error(&c, "-l and -c exclude each other"); goto done_rc; }
    if (st.dup < 0) { rc = cli_usage_error(&c, "--unique and --duplicates exclude each other"); goto done_rc; }
    if (st.mode != OUT_RECORDS && (to || st.out.pattern || split)) {
        rc = cli_usage_error(&c, "--to, -o and --split write records: not with -l, -c or --json");
        goto done_rc;
    }
    if (split && !st.out.pattern) { rc = cli_usage_error(&c, "--split needs -o PATTERN"); goto done_rc; }
    if (st.out.pattern && (rc = select_out_check(&c, st.out.pattern, split)) != 0) goto done_rc;
    if (c.summary && st.mode == OUT_RECORDS && !st.out.pattern) {
        rc = cli_usage_error(&c, "--summary: the records go to stdout (use -l, -c, --json or -o)");
        goto done_rc;
    }
    if (st.dup == DUP_ALL && same_at) {
        rc = cli_usage_error(&c, "--same-at goes with --unique or --duplicates");
        goto done_rc;
    }
    if ((rc = records_from_option(&c, from, &st.ro, &from_given)) != 0) goto done_rc;
    if (to) {
        if ((st.out.to = records_format_find(to)) == NULL ||
            !(koma_format_caps(st.out.to) & KOMA_FORMAT_WRITE)) {
            rc = cli_usage_error(&c, "--to %s: not a format koma writes (koma-convert --list)", to);
            goto done_rc;
        }
    }
    st.out.split = split;
    st.flags = (st.dup != DUP_ALL ? KOMA_SELECT_KEY : 0) |
               (st.mode == OUT_JSON ? KOMA_SELECT_FID | KOMA_SELECT_ALL_PLIES : 0);
    if (st.dup != DUP_ALL && koma_keyset_new(&st.seen, &err) != 0) {
        cli_trouble(&c, "memory: out of memory");
        goto done;
    }
    /* a record's tree only for conditions on members and for --to */
    if (!(koma_select_needs(st.sel, st.flags) & KOMA_SELECT_NEEDS_TREE) && !to)
        st.ro.from_options.pcn_flags |= KOMA_PCN_LIGHT;
    st.ro.foreign_hint = "--from %s";

    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) {
        if (st.stop) break;
        select_input(&st, path);
    }
    select_out_close(&st.out);
    cli_progress_end(&c);
    if (st.failed) goto done;           /* a count or summary would be wrong */
    if (st.mode == OUT_COUNT && !c.quiet) {
        if (c.json) printf("{\"count\":%llu}\n", st.selected);
        else printf("%llu\n", st.selected);
    }
    if (c.summary && !c.quiet) {
        if (c.json)
            printf("{\"summary\":{\"records\":%llu,\"selected\":%llu,\"duplicates\":%llu,\"invalid\":%llu}}\n",
                   st.records, st.selected, st.dropped, st.invalid);
        else
            printf("%llu record%s: %llu selected, %llu left out as copies, %llu that cannot be read or searched\n",
                   st.records, st.records == 1 ? "" : "s", st.selected, st.dropped, st.invalid);
    }
done:
    rc = cli_finish(&c);
    if (rc == 0 && st.selected == 0) rc = 1;
done_rc:
    koma_keyset_free(st.seen);
    koma_select_free(st.sel);
    koma_hub_free(st.ro.hub);
    koma_game_set_free(games);
    return rc;
}
