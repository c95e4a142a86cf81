/*
 * koma-validate — check that every item of the input is valid notation.
 *
 * Line formats (one item per line): feen, cell, pin, epin, sin, snn, qpi, fid.
 * Valid lines are silent; each invalid line gets one diagnostic. See
 * man/koma-validate.1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct validator validator;

typedef struct state {
    cli *c;
    const validator *v;
    int print_fid;
    koma_position pos;
    unsigned long records, valid, invalid;
} state;

/* Validate one item; 0 valid, -1 invalid (err set). */
typedef int (*validate_fn)(state *st, const char *s, size_t len, koma_error *err);

struct validator {
    const char *name;
    validate_fn fn;
    const char *what;
};

static int v_feen(state *st, const char *s, size_t len, koma_error *err)
{
    return koma_feen_parse(s, len, KOMA_FEEN_STRICT, &st->pos, err);
}
static int v_cell(state *st, const char *s, size_t len, koma_error *err)
{
    koma_cell cell;
    (void)st;
    return koma_cell_parse(s, len, &cell, err);
}
static int v_pin(state *st, const char *s, size_t len, koma_error *err)
{
    koma_piece p;
    (void)st;
    return koma_pin_parse(s, len, &p, err);
}
static int v_epin(state *st, const char *s, size_t len, koma_error *err)
{
    koma_piece p;
    (void)st;
    return koma_epin_parse(s, len, &p, err);
}
static int v_sin(state *st, const char *s, size_t len, koma_error *err)
{
    char ch;
    (void)st;
    return koma_sin_parse(s, len, &ch, err);
}
static int v_snn(state *st, const char *s, size_t len, koma_error *err)
{
    char name[KOMA_SNN_MAX_LEN + 1];
    (void)st;
    return koma_snn_parse(s, len, name, err);
}
static int v_qpi(state *st, const char *s, size_t len, koma_error *err)
{
    koma_qpi q;
    (void)st;
    return koma_qpi_parse(s, len, &q, err);
}
static int v_fid(state *st, const char *s, size_t len, koma_error *err)
{
    (void)st;
    return koma_fid_parse(s, len, err);
}

static const validator validators[] = {
    {"feen", v_feen, "FEEN positions"},
    {"cell", v_cell, "CELL coordinates"},
    {"pin", v_pin, "PIN piece identifiers"},
    {"epin", v_epin, "EPIN piece identifiers"},
    {"sin", v_sin, "SIN style identifiers"},
    {"snn", v_snn, "SNN style names"},
    {"qpi", v_qpi, "QPI qualified piece identifiers"},
    {"fid", v_fid, "FID position fingerprints"},
};

static const validator *find_validator(const char *name)
{
    for (size_t i = 0; i < sizeof validators / sizeof validators[0]; i++)
        if (strcmp(validators[i].name, name) == 0) return &validators[i];
    return NULL;
}

static void usage(FILE *f)
{
    fputs("Usage: koma-validate [OPTION]... [FILE]...\n"
          "Check that every line of each FILE (stdin when none or '-') is valid notation.\n"
          "\n"
          "  -t, --type TYPE   what each line holds (default feen):\n",
          f);
    for (size_t i = 0; i < sizeof validators / sizeof validators[0]; i++)
        fprintf(f, "                      %-5s %s\n", validators[i].name, validators[i].what);
    fputs("      --print-fid   print the FID of each valid FEEN line on stdout\n"
          "      --json        one JSON object per input line on stdout\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "      --summary     end with counts\n"
          "  -h, --help        show this help and exit\n"
          "      --version     show the version and exit\n"
          "\n"
          "Diagnostics: koma-validate: FILE:LINE:COL: CODE: message (codes: koma-formats(5)).\n"
          "Exit status: 0 all valid, 1 some invalid, 2 usage or I/O trouble.\n",
          f);
}

/* The JSON object of one valid line. */
static void json_valid(state *st, const char *file, unsigned long line, const char *fid)
{
    fputs("{\"file\":", stdout);
    cli_json_cstr(stdout, file);
    fprintf(stdout, ",\"line\":%lu,\"type\":\"%s\",\"valid\":true", line, st->v->name);
    if (fid) fprintf(stdout, ",\"fid\":\"%s\"", fid);
    fputs("}\n", stdout);
}

static void check_line(state *st, const char *file, unsigned long line, const char *s, size_t len)
{
    koma_error err;
    cli *c = st->c;
    koma_error_clear(&err);
    st->records++;
    if (st->v->fn(st, s, len, &err) != 0) {
        char extra[64];
        st->invalid++;
        err.line = line;
        snprintf(extra, sizeof extra, "\"type\":\"%s\",\"valid\":false", st->v->name);
        cli_diag_error(c, CLI_DATA, file, &err, extra);
        return;
    }
    st->valid++;
    if (c->quiet) return;
    char fid[KOMA_FID_BUF];
    const char *fidp = NULL;
    if (st->print_fid) {
        /* A valid strict FEEN is canonical: hash the line itself. */
        koma_fid_of(s, len, fid);
        fidp = fid;
    }
    if (c->json) json_valid(st, file, line, fidp);
    else if (fidp) printf("%s\n", fidp);
}

static void validate_input(state *st, const char *path)
{
    cli_input in;
    cli *c = st->c;
    if (cli_input_open(c, &in, path) != 0) return;
    const char *s;
    size_t len;
    int r;
    while ((r = cli_input_line(c, &in, &s, &len)) != CLI_LINE_EOF) {
        if (r == CLI_LINE_ERROR) break;
        if (r == CLI_LINE_TOO_LONG) {
            st->records++;
            st->invalid++;
            char msg[80];
            snprintf(msg, sizeof msg, "line exceeds %u bytes", CLI_LINE_MAX);
            cli_diag(c, CLI_DATA, in.name, in.line, (unsigned long)CLI_LINE_MAX + 1,
                     "line.length", msg, NULL);
        } else {
            check_line(st, in.name, in.line, s, len);
        }
        if (cli_stdout_broken(c)) break;
    }
    cli_input_close(&in);
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    int summary = 0;
    cli_init(&c, "koma-validate");
    memset(&st, 0, sizeof st);
    st.c = &c;
    st.v = &validators[0];
    koma_position_init(&st.pos);

    enum { OPT_JSON = 256, OPT_SUMMARY, OPT_VERSION, OPT_PRINT_FID };
    static const struct option longopts[] = {
        {"type", required_argument, NULL, 't'},
        {"json", no_argument, NULL, OPT_JSON},
        {"quiet", no_argument, NULL, 'q'},
        {"summary", no_argument, NULL, OPT_SUMMARY},
        {"print-fid", no_argument, NULL, OPT_PRINT_FID},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int opt;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "t:qh", longopts, NULL)) != -1) {
        switch (opt) {
        case 't':
            st.v = find_validator(optarg);
            if (st.v == NULL) return cli_usage_error(&c, "unknown type '%s'", optarg);
            break;
        case 'q': c.quiet = 1; break;
        case OPT_JSON: c.json = 1; break;
        case OPT_SUMMARY: summary = 1; break;
        case OPT_PRINT_FID: st.print_fid = 1; break;
        case 'h': usage(stdout); return cli_finish(&c);
        case OPT_VERSION: cli_version(&c); return cli_finish(&c);
        default:
            if (optopt && optopt < 256) return cli_usage_error(&c, "invalid option '-%c'", optopt);
            return cli_usage_error(&c, "invalid option '%s'", argv[optind - 1]);
        }
    }
    if (st.print_fid && strcmp(st.v->name, "feen") != 0)
        return cli_usage_error(&c, "--print-fid needs --type feen");

    CLI_FOREACH_OPERAND(i, argc, argv, optind, path) validate_input(&st, path);

    if (summary && !c.quiet) {
        if (c.json)
            printf("{\"summary\":{\"type\":\"%s\",\"records\":%lu,\"valid\":%lu,\"invalid\":%lu}}\n",
                   st.v->name, st.records, st.valid, st.invalid);
        else
            printf("%lu %s checked: %lu valid, %lu invalid\n", st.records,
                   st.records == 1 ? "line" : "lines", st.valid, st.invalid);
    }
    koma_position_cleanup(&st.pos);
    return cli_finish(&c);
}
