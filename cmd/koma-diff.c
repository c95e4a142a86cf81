/* koma-diff — compare two FEEN positions (--feen A B), or two PCN databases record by
 * record, like diff(1) (man/koma-diff.1). The comparing is the library's
 * (koma_position_diff_walk, koma_pcn_diff_compare); this file prints what differs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "records.h"

typedef struct state {
    cli *c;
    records_options pcn;               /* --format */
    koma_position pos[2];              /* the --feen positions */
    koma_pcn_diff diff;                /* the pair of records being compared */
    const koma_pcn *rec[2];            /* the pair: its records, files, lines, number */
    const char *name[2];
    unsigned long line[2], record;
    int header, json_items;            /* text header printed; keys in the JSON object */
    FILE *out;                         /* its output, kept until it is whole, */
    int oom;                           /* unless memory ran out while printing it */
    unsigned long pairs, same, different, only[2], invalid;   /* counts */
} state;

/* ---- position differences (koma_position_diff_walk) ----------------------------------------- */

typedef struct pdout {
    FILE *f;
    int json;
    const char *indent;                /* text */
    size_t n;                          /* JSON: items printed */
} pdout;

/* One difference: `LABEL: A -> B`, or a JSON object. */
static int pdiff(void *ctx, const koma_position_diff *d)
{
    static const char *const type_name[] = {"board", "square", "hand", "style", "turn"};
    pdout *o = ctx;
    int hand = d->kind == KOMA_DIFF_HAND;
    if (!o->json)
        return fprintf(o->f, "%s%s: %s -> %s\n", o->indent, d->label, d->text[0], d->text[1]) < 0;
    fprintf(o->f, "%s{\"type\":\"%s\"", o->n++ ? "," : "", type_name[d->kind]);
    if (d->kind == KOMA_DIFF_SQUARE) fprintf(o->f, ",\"square\":\"%s\"", d->what);
    if (hand || d->kind == KOMA_DIFF_STYLE)
        fprintf(o->f, ",\"side\":\"%s\"", d->side ? "second" : "first");
    if (hand) fprintf(o->f, ",\"piece\":\"%s\"", d->what);
    fprintf(o->f, hand ? ",\"a\":%s,\"b\":%s}" : ",\"a\":\"%s\",\"b\":\"%s\"}", d->text[0],
            d->text[1]);
    return 0;
}

/* The differences of a and b, as text lines or a JSON array, on f. */
static void print_pdiffs(FILE *f, const koma_position *a, const koma_position *b, int json,
                         const char *indent)
{
    pdout o = { f, json, indent, 0 };
    if (json) fputc('[', f);
    size_t n;
    koma_position_diff_walk(a, b, pdiff, &o, &n);
    if (json) fputc(']', f);
    else if (n == 1 && a->turn != b->turn) fprintf(f, "%sonly the side to move differs\n", indent);
}

static void diff_feen(state *st, char **arg)
{
    cli *c = st->c;
    for (int i = 0; i < 2; i++) {
        koma_error err;
        koma_error_clear(&err);
        if (koma_feen_parse(arg[i], strlen(arg[i]), KOMA_FEEN_STRICT, &st->pos[i], &err) != 0) {
            err.line = (unsigned long)i + 1;
            cli_diag_error(c, CLI_DATA, "<argument>", &err, NULL);
            return;
        }
    }
    size_t n;
    koma_position_diff_walk(&st->pos[0], &st->pos[1], NULL, NULL, &n);
    if (n) cli_fail(c, CLI_DATA);
    if (c->quiet) return;
    for (int k = 0; k < 2 && c->json; k++) {
        fputs(k ? ",\"b\":" : "{\"a\":", stdout);
        cli_json_cstr(stdout, arg[k]);
    }
    if (c->json)
        printf(",\"same\":%s,\"only_turn\":%s,\"differences\":", n ? "false" : "true",
               n == 1 && st->pos[0].turn != st->pos[1].turn ? "true" : "false");
    print_pdiffs(stdout, &st->pos[0], &st->pos[1], c->json, "");
    if (c->json) fputs("}\n", stdout);
}

/* ---- records (koma_pcn_diff_compare) ------------------------------------------------------ */

static void pair_header(state *st)
{
    if (st->c->quiet || st->c->json || st->header) return;
    st->header = 1;
    fprintf(st->out, "--- %s:%lu\n+++ %s:%lu\n", st->name[0], st->line[0], st->name[1],
            st->line[1]);
}

/* One differing member: `/pointer: A -> B`, or a JSON object in "keys". */
static int report_member(void *ctx, const koma_pcn_member_diff *d)
{
    state *st = ctx;
    FILE *o = st->out;
    int json = st->c->json;
    pair_header(st);
    if (st->c->quiet) return 0;
    if (json) fputs(st->json_items++ ? ",{\"pointer\":" : "{\"pointer\":", o);
    if (json) cli_json_string(o, d->pointer, d->pointer_len);
    else fprintf(o, "%s: ", d->pointer);
    for (int k = 0; k < 2; k++) {
        if (json && d->type[k] == KOMA_PCN_ABSENT) continue;
        fputs(json ? (k ? ",\"b\":" : ",\"a\":") : (k ? " -> " : ""), o);
        if (cli_json_pcn(o, st->rec[k], d->pointer) != 0) st->oom = 1;
    }
    fputs(json ? (d->setup[0] ? ",\"differences\":" : "") : "\n", o);
    if (d->setup[0]) print_pdiffs(o, d->setup[0], d->setup[1], json, "  ");
    if (json) fputc('}', o);
    return 0;
}

/* Where the move lists part: `plies: N -> M`, `ply K: A -> B`, `position: FEEN`. */
static void print_divergence(FILE *o, const koma_pcn_diff *d, int json)
{
    if (json) fprintf(o, ",\"plies\":{\"a\":%zu,\"b\":%zu", d->plies[0], d->plies[1]);
    else if (d->plies[0] != d->plies[1])
        fprintf(o, "plies: %zu -> %zu\n", d->plies[0], d->plies[1]);
    if (d->ply) {
        fprintf(o, json ? ",\"diverge\":{\"ply\":%zu" : "ply %zu: ", d->ply);
        for (int k = 0; k < 2; k++) {
            if (json) fprintf(o, ",\"%s\":", k ? "b" : "a");
            else if (k) fputs(" -> ", o);
            if (d->pmn[k] && json) cli_json_string(o, d->pmn[k], d->pmn_len[k]);
            else if (d->pmn[k]) fwrite(d->pmn[k], 1, d->pmn_len[k], o);
            else fputs(json ? "null" : "(end)", o);
        }
        fputs(json ? ",\"position\":{" : "\nposition: ", o);
        for (int k = 0; k < 2 && (json || k == 0 || !d->same_position); k++) {
            fputs(json ? (k ? ",\"b\":" : "\"a\":") : (k ? " -> " : ""), o);
            if (d->known[k] && json) cli_json_cstr(o, d->feen[k]);
            else fputs(d->known[k] ? d->feen[k] : json ? "null" : "(unknown)", o);
        }
        if (json) fprintf(o, "},\"same_position\":%s}", d->same_position ? "true" : "false");
        else fputc('\n', o);
    }
    if (json) fputc('}', o);
}

static void diff_records(state *st)
{
    cli *c = st->c;
    koma_error err;
    int json = c->json && !c->quiet;
    char *text = NULL;
    size_t len = 0;
    st->header = st->json_items = st->oom = 0;
    FILE *o = st->out = open_memstream(&text, &len);
    if (o == NULL) {
        cli_trouble(c, "memory: out of memory");
        return;
    }
    for (int k = 0; k < 2 && json; k++) {  /* {"record":R,"a":{"file":F,"line":L},"b":... */
        if (k == 0) fprintf(o, "{\"record\":%lu,\"a\":{\"file\":", st->record);
        else fprintf(o, ",\"line\":%lu},\"b\":{\"file\":", st->line[0]);
        cli_json_cstr(o, st->name[k]);
    }
    if (json) fprintf(o, ",\"line\":%lu},\"keys\":[", st->line[1]);
    int differs = koma_pcn_diff_compare(&st->diff, st->rec[0], st->rec[1], report_member, st, &err);
    if (differs > 0) pair_header(st);
    if (json) fputc(']', o);
    if (json || (!c->quiet && differs > 0)) print_divergence(o, &st->diff, json);
    if (json) fprintf(o, ",\"same\":%s}\n", differs ? "false" : "true");
    /* the pair's lines go out whole, or not at all */
    if (fclose(o) != 0 || differs < 0 || st->oom) cli_trouble(c, "memory: out of memory");
    else fwrite(text, 1, len, stdout);
    free(text);
    if (differs < 0 || st->oom) return;
    if (differs) cli_fail(c, CLI_DATA);
    st->different += differs != 0;
    st->same += differs == 0;
}

/* ---- records: two databases in step ---------------------------------------------------------- */

/* One step of the two databases (records_in_step). */
static void diff_step(void *ctx, const int k[2], record_item item[2], const cli_input in[2],
                      const records_reader rd[2])
{
    state *st = ctx;
    cli *c = st->c;
    for (int i = 0; i < 2; i++) {      /* an invalid record is invalid data (status 1) */
        if (k[i] == RECORDS_INVALID)
            cli_diag_error(c, CLI_DATA, in[i].name, &item[i].err, NULL);
        st->name[i] = in[i].name;
        st->line[i] = item[i].src.line;
        st->rec[i] = item[i].rec;
    }
    st->record = rd[0].records > rd[1].records ? rd[0].records : rd[1].records;
    int side = k[0] == RECORDS_END;    /* the one not at its end */
    if (k[0] == RECORDS_INVALID || k[1] == RECORDS_INVALID) {
        st->invalid++;
    } else if (k[0] == RECORDS_END || k[1] == RECORDS_END) {
        st->only[side]++;
        cli_fail(c, CLI_DATA);
        if (!c->quiet && !c->json)
            printf("only in %s: record %lu (line %lu)\n", in[side].name, rd[side].records,
                   st->line[side]);
        if (c->quiet || !c->json) return;
        printf("{\"record\":%lu,\"%s\":{\"file\":", rd[side].records, side ? "b" : "a");
        cli_json_cstr(stdout, in[side].name);
        printf(",\"line\":%lu},\"%s\":null,\"same\":false}\n", st->line[side], side ? "a" : "b");
    } else {
        st->pairs++;
        diff_records(st);
    }
}

/* ---- main ------------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fputs("Usage: koma-diff [OPTION]... FILE1 FILE2\n"
          "       koma-diff [OPTION]... --feen FEEN1 FEEN2\n"
          "Compare two positions, or two PCN databases record by record (record 1 of\n"
          "FILE1 with record 1 of FILE2, and so on; '-' is stdin for one of them).\n"
          "\n"
          "  --feen            the operands are two FEEN strings: print the squares\n"
          "                    (`e4: P -> .`), hand counts (`first hand P: 2 -> 1`),\n"
          "                    styles and side to move that differ\n"
          "  --format F        PCN input is json (JSON Lines) or yaml (a YAML stream);\n"
          "                    by default the first bytes of each file decide\n"
          "  --json            JSON objects on stdout (schemas/koma-diff.schema.json)\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "  --summary         end with counts (records)\n"
          "  -h, --help        show this help and exit\n"
          "  --version         show the version and exit\n"
          "\n"
          "Records: each differing pair prints `--- FILE1:LINE` and `+++ FILE2:LINE`, one\n"
          "`/json/pointer: A -> B` line per differing key (plies aside; (absent) when\n"
          "missing), and where the move lists part: `plies: N -> M`, `ply K: PMN -> PMN`\n"
          "((end) past a list's end) and `position: FEEN` before ply K.\n"
          "Progress goes to stderr when it is a terminal.\n"
          "Exit status: 0 no difference, 1 differences or invalid input, 2 trouble\n"
          "(usage, I/O, memory).\n",
          f);
}

static void summary(const state *st)
{
    if (st->c->json)
        printf("{\"summary\":{\"pairs\":%lu,\"same\":%lu,\"different\":%lu,\"only_a\":%lu,"
               "\"only_b\":%lu,\"invalid\":%lu}}\n",
               st->pairs, st->same, st->different, st->only[0], st->only[1], st->invalid);
    else
        printf("%lu record %s compared: %lu same, %lu different; %lu only in the first file, %lu "
               "only in the second; %lu invalid\n", st->pairs, st->pairs == 1 ? "pair" : "pairs",
               st->same, st->different, st->only[0], st->only[1], st->invalid);
}

int main(int argc, char **argv)
{
    enum { OPT_FEEN = CLI_OPT_OWN, OPT_FORMAT };
    static const struct option longopts[] = {
        {"feen", no_argument, NULL, OPT_FEEN},
        {"format", required_argument, NULL, OPT_FORMAT},
        CLI_OPTION_JSON, CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    cli c;
    state st = { .c = &c };
    int feen = 0, rc, opt;
    cli_init(&c, "koma-diff", usage);
    while ((opt = cli_getopt(argc, argv, "qh", longopts)) != -1) {
        if (opt == OPT_FEEN) feen = 1;
        else if (opt == OPT_FORMAT && (rc = records_format_option(&c, optarg, &st.pcn)) != 0)
            return rc;
        else if (opt != OPT_FORMAT && (rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN)
            return rc;
    }
    if (argc - optind != 2)
        return cli_usage_error(&c, "expected two %s, got %d", feen ? "FEEN strings" : "files",
                               argc - optind);
    if (feen && st.pcn.format_given)
        return cli_usage_error(&c, "--format is for PCN files, not with --feen");
    if (!feen && strcmp(argv[optind], "-") == 0 && strcmp(argv[optind + 1], "-") == 0)
        return cli_usage_error(&c, "only one of the files can be the standard input");
    for (int k = 0; k < 2; k++) koma_position_init(&st.pos[k]);
    koma_pcn_diff_init(&st.diff);
    if (feen) {
        diff_feen(&st, argv + optind);
    } else {
        records_in_step(&c, (const char *const *)argv + optind, &st.pcn, diff_step, &st);
        cli_progress_end(&c);
        if (c.summary && !c.quiet) summary(&st);
    }
    koma_pcn_diff_cleanup(&st.diff);
    for (int k = 0; k < 2; k++) koma_position_cleanup(&st.pos[k]);
    return cli_finish(&c);
}
