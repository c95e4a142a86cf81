/*
 * tests/unit/test_spec.c — every case of tests/spec/NAME.tsv checked against the
 * library's parser of its notation: the code, the line, the column and the byte
 * offset of each invalid input, the canonical form of each valid one
 * (tests/spec/README.md describes the files and what is checked here).
 *
 * The files are read from tests/spec/ under the current directory (the unit
 * tests run from the repository root, as tests/run-unit.sh does), or from the
 * directory named by KOMA_SPEC_DIR. Each notation is one test; a wrong row is
 * reported with its file and line, and every row of the file is still checked.
 */
#include "unit.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>

/* ---- the files ---------------------------------------------------------------- */

enum { C_INPUT, C_CODE, C_COLUMN, C_LINE, C_MESSAGE, C_PARSE, C_MODE, C_FID, C_DIALECT,
       C_POSITION, C_CANONICAL, C_FORMAT, C_CLI, C_COUNT };

static const char *const column_names[C_COUNT] = {
    "input", "code", "column", "line", "message", "parse", "mode", "fid", "dialect",
    "position", "canonical", "format", "cli",
};

/* A field: its bytes (unescaped, NUL-terminated for convenience) and length. */
typedef struct field {
    char *s;
    size_t len;
} field;

typedef struct row {
    const char *file;
    unsigned long at;                  /* line of the row in its file */
    field f[C_COUNT];
    koma_code code;                    /* KOMA_OK: a valid input */
    unsigned long line, column;        /* 0: not given */
} row;

/* What went wrong with a row: the first failed check, kept for the report. */
typedef struct verdict {
    char why[512];
    int failed;
} verdict;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void wrong(verdict *v, const char *fmt, ...)
{
    if (v->failed++) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->why, sizeof v->why, fmt, ap);
    va_end(ap);
}

static const char *spec_dir(void)
{
    const char *d = getenv("KOMA_SPEC_DIR");
    return d && *d ? d : "tests/spec";
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    assert_non_null(buf);
    while ((got = fread(buf + n, 1, cap - n - 1, fp)) > 0) {
        n += got;
        if (n + 1 == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    fclose(fp);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Unescape s[0..n) (\t \n \r \\ \xHH) into a new field; -1 on a bad escape. */
static int unescape(const char *s, size_t n, field *out)
{
    char *d = malloc(n + 1);
    assert_non_null(d);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            d[k++] = s[i];
            continue;
        }
        if (++i == n) goto bad;
        switch (s[i]) {
        case 't': d[k++] = '\t'; break;
        case 'n': d[k++] = '\n'; break;
        case 'r': d[k++] = '\r'; break;
        case '\\': d[k++] = '\\'; break;
        case 'x': {
            if (i + 2 >= n) goto bad;
            int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
            if (hi < 0 || lo < 0) goto bad;
            d[k++] = (char)(hi * 16 + lo);
            i += 2;
            break;
        }
        default: goto bad;
        }
    }
    d[k] = '\0';
    out->s = d;
    out->len = k;
    return 0;
bad:
    free(d);
    return -1;
}

static int parse_number(const field *f, unsigned long *out)
{
    if (f->len == 0) {
        *out = 0;
        return 0;
    }
    char *end;
    unsigned long v = strtoul(f->s, &end, 10);
    if (end != f->s + f->len || f->s[0] < '0' || f->s[0] > '9' || v == 0) return -1;
    *out = v;
    return 0;
}

typedef struct table {
    row *rows;
    size_t n;
    int has[C_COUNT];
    int broken;                        /* a line of the file itself is wrong */
} table;

static void table_free(table *t)
{
    for (size_t i = 0; i < t->n; i++)
        for (int c = 0; c < C_COUNT; c++) free(t->rows[i].f[c].s);
    free(t->rows);
}

/* Read tests/spec/NAME.tsv: '#' lines and blank lines are skipped, the first other
 * line names the columns, each next one is a row. */
static int table_read(const char *name, table *t, char *path, size_t cap)
{
    memset(t, 0, sizeof *t);
    snprintf(path, cap, "%s/%s.tsv", spec_dir(), name);
    size_t len;
    char *text = slurp(path, &len);
    if (text == NULL) {
        print_error("%s: cannot be read (the unit tests run from the repository root; "
                    "KOMA_SPEC_DIR names another directory)\n", path);
        return -1;
    }
    int cols[C_COUNT], ncols = 0;
    size_t cap_rows = 0;
    unsigned long at = 0;
    for (char *p = text; p < text + len;) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        char *end = nl ? nl : text + len;
        at++;
        if (end > p && end[-1] == '\r') {
            print_error("%s:%lu: a carriage return ends the line (write \\r)\n", path, at);
            t->broken++;
        }
        if (end == p || *p == '#') {
            p = end + 1;
            continue;
        }
        /* split at tabs */
        const char *fs[C_COUNT + 1];
        size_t fl[C_COUNT + 1];
        int nf = 0, over = 0;
        for (char *q = p;;) {
            char *tab = memchr(q, '\t', (size_t)(end - q));
            char *fe = tab ? tab : end;
            if (nf < C_COUNT + 1) {
                fs[nf] = q;
                fl[nf] = (size_t)(fe - q);
                nf++;
            } else {
                over = 1;
            }
            if (tab == NULL) break;
            q = tab + 1;
        }
        p = end + 1;
        if (ncols == 0) {                    /* the header */
            for (int i = 0; i < nf; i++) {
                int c = 0;
                while (c < C_COUNT && (strlen(column_names[c]) != fl[i] ||
                                       memcmp(column_names[c], fs[i], fl[i]) != 0))
                    c++;
                if (c == C_COUNT || t->has[c]) {
                    print_error("%s:%lu: unknown or repeated column \"%.*s\"\n", path, at,
                                (int)fl[i], fs[i]);
                    t->broken++;
                    c = -1;
                } else {
                    t->has[c] = 1;
                }
                cols[ncols++] = c;
            }
            if (ncols < 3 || cols[0] != C_INPUT || cols[1] != C_CODE || cols[2] != C_COLUMN) {
                print_error("%s:%lu: the header must start with input, code, column\n", path, at);
                t->broken++;
            }
            continue;
        }
        if (nf > ncols || over) {
            print_error("%s:%lu: more fields than columns\n", path, at);
            t->broken++;
            continue;
        }
        if (t->n == cap_rows) {
            cap_rows = cap_rows ? 2 * cap_rows : 256;
            t->rows = realloc(t->rows, cap_rows * sizeof *t->rows);
            assert_non_null(t->rows);
        }
        row *r = &t->rows[t->n];
        memset(r, 0, sizeof *r);
        r->file = name;
        r->at = at;
        int ok = 1;
        for (int i = 0; i < nf; i++)
            if (cols[i] >= 0 && unescape(fs[i], fl[i], &r->f[cols[i]]) != 0) {
                print_error("%s:%lu: bad escape in column %s\n", path, at, column_names[cols[i]]);
                ok = 0;
            }
        for (int c = 0; c < C_COUNT; c++)
            if (r->f[c].s == NULL) unescape("", 0, &r->f[c]);
        if (strcmp(r->f[C_CODE].s, "ok") == 0) {
            r->code = KOMA_OK;
        } else {
            r->code = koma_code_from_name(r->f[C_CODE].s);
            if (r->code == KOMA_OK) {
                print_error("%s:%lu: unknown code \"%s\"\n", path, at, r->f[C_CODE].s);
                ok = 0;
            }
        }
        if (parse_number(&r->f[C_COLUMN], &r->column) != 0 ||
            parse_number(&r->f[C_LINE], &r->line) != 0) {
            print_error("%s:%lu: column and line are numbers from 1\n", path, at);
            ok = 0;
        }
        if (r->code != KOMA_OK && r->column == 0) {
            print_error("%s:%lu: an invalid input needs its column\n", path, at);
            ok = 0;
        }
        if (r->code == KOMA_OK && r->column != 0) {
            print_error("%s:%lu: a valid input has no column\n", path, at);
            ok = 0;
        }
        if (r->line == 0) r->line = 1;
        t->n++;
        if (!ok) t->broken++;
    }
    free(text);
    if (ncols == 0) {
        print_error("%s: no header line\n", path);
        t->broken++;
    }
    return 0;
}

/* ---- the checks shared by every notation ----------------------------------------- */

/* The byte offset of line:column in s (columns count bytes from 1). */
static size_t offset_of(const field *in, unsigned long line, unsigned long column)
{
    size_t at = 0;
    for (unsigned long l = 1; l < line && at < in->len; at++)
        if (in->s[at] == '\n') l++;
    return at + column - 1;
}

static void check_message(const row *r, const koma_error *err, verdict *v)
{
    if (err->message[0] == '\0') wrong(v, "the message is empty");
    /* UTF-8 text on one line: the user's own characters are quoted as text,
     * controls and bytes that are not UTF-8 as \xNN (koma(7), Diagnostics) */
    for (const unsigned char *p = (const unsigned char *)err->message; *p;) {
        size_t n = *p < 0x80 ? 1 : *p >= 0xc2 && *p <= 0xdf ? 2 : *p >= 0xe0 && *p <= 0xef ? 3
                 : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0;
        int ok = n != 0 && *p >= 0x20 && *p != 0x7f;
        for (size_t k = 1; ok && k < n; k++) ok = (p[k] & 0xc0) == 0x80;
        if (!ok) {
            wrong(v, "the message is not UTF-8 text on one line: \"%s\"", err->message);
            break;
        }
        p += n;
    }
    if (r->f[C_MESSAGE].len && strstr(err->message, r->f[C_MESSAGE].s) == NULL)
        wrong(v, "the message \"%s\" does not hold \"%s\"", err->message, r->f[C_MESSAGE].s);
}

/* rc == -1 with exactly the row's code, line and column, and the offset they name
 * (a byte-order mark before line 1 is counted by the offset, not by the column). */
static void expect_error(const row *r, int rc, const koma_error *err, verdict *v)
{
    if (rc == 0) {
        wrong(v, "accepted, want %s at %lu:%lu", koma_code_name(r->code), r->line, r->column);
        return;
    }
    if (err->code != r->code || err->line != r->line || err->column != r->column) {
        wrong(v, "got %s at %lu:%lu, want %s at %lu:%lu (%s)", koma_code_name(err->code),
              err->line, err->column, koma_code_name(r->code), r->line, r->column, err->message);
        return;
    }
    size_t want = offset_of(&r->f[C_INPUT], r->line, r->column);
    int bom = r->line == 1 && r->f[C_INPUT].len >= 3 && memcmp(r->f[C_INPUT].s, "\xef\xbb\xbf", 3) == 0;
    if (err->offset != want && !(bom && err->offset == want + 3))
        wrong(v, "offset %zu, want %zu (line %lu, column %lu)", err->offset, want, r->line,
              r->column);
    check_message(r, err, v);
}

static void expect_ok(const row *r, int rc, const koma_error *err, verdict *v)
{
    (void)r;
    if (rc != 0) wrong(v, "refused: %s at %lu:%lu (%s)", koma_code_name(err->code), err->line,
                       err->column, err->message);
}

/* A valid input written back by the library is itself. */
static void expect_written(const row *r, const char *buf, size_t n, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    if (n != in->len || memcmp(buf, in->s, n) != 0) wrong(v, "written back as \"%s\"", buf);
}

/* ---- one notation each ------------------------------------------------------------- */

static void check_sin(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    char out = '?';
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_sin_parse(in->s, in->len, &out, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        if (rc == 0) expect_written(r, &out, 1, v);
        return;
    }
    expect_error(r, rc, &err, v);
    if (out != '?') wrong(v, "the output was written on error");
    if (koma_sin_parse(in->s, in->len, NULL, NULL) != -1) wrong(v, "accepted without err");
}

static void check_snn(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    char out[KOMA_SNN_MAX_LEN + 1] = "keep";
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_snn_parse(in->s, in->len, out, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        if (rc == 0) expect_written(r, out, strlen(out), v);
        if (koma_snn_parse(in->s, in->len, NULL, NULL) != 0) wrong(v, "refused without err");
        return;
    }
    expect_error(r, rc, &err, v);
    if (strcmp(out, "keep") != 0) wrong(v, "the output was written on error");
    if (koma_snn_parse(in->s, in->len, NULL, NULL) != -1) wrong(v, "accepted without err");
}

static void check_piece(const row *r, verdict *v, int pin)
{
    const field *in = &r->f[C_INPUT];
    koma_piece p = 0x1234;
    koma_error err;
    koma_error_clear(&err);
    int rc = pin ? koma_pin_parse(in->s, in->len, &p, &err) : koma_epin_parse(in->s, in->len, &p, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        if (rc != 0) return;
        char buf[KOMA_EPIN_BUF];
        expect_written(r, buf, koma_epin_write(p, buf), v);
        return;
    }
    expect_error(r, rc, &err, v);
    if (p != 0x1234) wrong(v, "the output was written on error");
    rc = pin ? koma_pin_parse(in->s, in->len, NULL, NULL) : koma_epin_parse(in->s, in->len, NULL, NULL);
    if (rc != -1) wrong(v, "accepted without err");
}

static void check_pin(const row *r, verdict *v) { check_piece(r, v, 1); }
static void check_epin(const row *r, verdict *v) { check_piece(r, v, 0); }

static void check_qpi(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    koma_qpi q = {'?', 0x1234};
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_qpi_parse(in->s, in->len, &q, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        if (rc != 0) return;
        char buf[KOMA_QPI_BUF];
        expect_written(r, buf, koma_qpi_write(&q, buf), v);
        return;
    }
    expect_error(r, rc, &err, v);
    if (q.style != '?' || q.piece != 0x1234) wrong(v, "the output was written on error");
    if (koma_qpi_parse(in->s, in->len, NULL, NULL) != -1) wrong(v, "accepted without err");
}

/* parse: cell (the default), location (a CELL or "*") or hand (the HAND token). */
static void check_cell(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    const char *parse = r->f[C_PARSE].len ? r->f[C_PARSE].s : "cell";
    koma_error err;
    koma_error_clear(&err);
    if (strcmp(parse, "hand") == 0) {
        int rc = koma_hand_token_parse(in->s, in->len, &err);
        if (r->code == KOMA_OK) {
            expect_ok(r, rc, &err, v);
            return;
        }
        expect_error(r, rc, &err, v);
        if (koma_hand_token_parse(in->s, in->len, NULL) != -1) wrong(v, "accepted without err");
        return;
    }
    koma_location loc;
    memset(&loc, 0, sizeof loc);
    loc.hand = 7;
    if (strcmp(parse, "location") == 0) {
        int rc = koma_location_parse(in->s, in->len, &loc, &err);
        if (r->code == KOMA_OK) {
            expect_ok(r, rc, &err, v);
            return;
        }
        expect_error(r, rc, &err, v);
        if (loc.hand != 7) wrong(v, "the output was written on error");
        return;
    }
    if (strcmp(parse, "cell") != 0) {
        wrong(v, "unknown parse \"%s\" (cell, location or hand)", parse);
        return;
    }
    koma_cell cell, keep;
    memset(&cell, 0, sizeof cell);
    cell.ndims = 2;
    cell.idx[0] = cell.idx[1] = cell.idx[2] = 9;
    keep = cell;
    int rc = koma_cell_parse(in->s, in->len, &cell, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        if (rc != 0) return;
        char buf[KOMA_CELL_BUF];
        expect_written(r, buf, koma_cell_write(&cell, buf), v);
        /* scan reads all of it; the location is the same cell */
        koma_cell back;
        if (koma_cell_scan(in->s, in->len, &back, &err) != in->len || !koma_cell_equal(&back, &cell))
            wrong(v, "scan does not read the whole cell");
        if (koma_location_parse(in->s, in->len, &loc, &err) != 0 || loc.hand != 0 ||
            !koma_cell_equal(&loc.cell, &cell))
            wrong(v, "not the same cell as a location");
        return;
    }
    expect_error(r, rc, &err, v);
    if (!koma_cell_equal(&cell, &keep) || cell.ndims != keep.ndims) wrong(v, "the output was written on error");
    if (koma_cell_parse(in->s, in->len, NULL, NULL) != -1) wrong(v, "accepted without err");
    /* a location that is not "*..." fails the same way */
    if (in->len == 0 || in->s[0] != '*') {
        koma_error_clear(&err);
        rc = koma_location_parse(in->s, in->len, &loc, &err);
        verdict lv = {"", 0};
        expect_error(r, rc, &err, &lv);
        if (lv.failed) wrong(v, "as a location: %s", lv.why);
    }
}

static void check_fid(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_fid_parse(in->s, in->len, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        return;
    }
    expect_error(r, rc, &err, v);
    if (koma_fid_parse(in->s, in->len, NULL) != -1) wrong(v, "accepted without err");
}

static void check_cgsn(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    koma_status st = KOMA_STATUS_AGREEMENT;
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_cgsn_parse(in->s, in->len, &st, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        if (rc == 0) {
            const char *name = koma_cgsn_name(st);
            expect_written(r, name, strlen(name), v);
        }
        return;
    }
    expect_error(r, rc, &err, v);
    if (st != KOMA_STATUS_AGREEMENT) wrong(v, "the output was written on error");
}

/* One FEEN parse with these flags: the row's error, and an empty position after it. */
static void feen_invalid(const row *r, unsigned flags, const char *mode, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    koma_error_clear(&err);
    int rc = koma_feen_parse(in->s, in->len, flags, &pos, &err);
    verdict mv = {"", 0};
    expect_error(r, rc, &err, &mv);
    if (mv.failed) wrong(v, "%s: %s", mode, mv.why);
    if (pos.shape.squares != 0 || pos.hands[0].len != 0 || pos.hands[1].len != 0)
        wrong(v, "%s: a failed parse leaves a position", mode);
    if (koma_feen_parse(in->s, in->len, flags, &pos, NULL) != -1) wrong(v, "%s: accepted without err", mode);
    koma_position_cleanup(&pos);
}

/* mode: strict (the default) or normalise. A valid FEEN is canonical: written back
 * as itself, read the same way normalised, and its FID (fid) the SHA-256 of it. An
 * invalid one fails the same way with the verdict alone (KOMA_FEEN_CHECK_ONLY, what
 * koma-validate asks), and normalised unless it is about the hands' aggregation or
 * order, which the normalising mode repairs. */
static void check_feen(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    const char *mode = r->f[C_MODE].len ? r->f[C_MODE].s : "strict";
    int normalise = strcmp(mode, "normalise") == 0;
    if (!normalise && strcmp(mode, "strict") != 0) {
        wrong(v, "unknown mode \"%s\" (strict or normalise)", mode);
        return;
    }
    if (r->code != KOMA_OK) {
        if (r->f[C_FID].len) wrong(v, "an invalid FEEN has no FID");
        if (normalise) {
            feen_invalid(r, KOMA_FEEN_NORMALISE, "normalise", v);
            return;
        }
        feen_invalid(r, KOMA_FEEN_STRICT, "strict", v);
        feen_invalid(r, KOMA_FEEN_STRICT | KOMA_FEEN_CHECK_ONLY, "check-only", v);
        if (r->code != KOMA_E_FEEN_HAND_AGGREGATE && r->code != KOMA_E_FEEN_HAND_ORDER)
            feen_invalid(r, KOMA_FEEN_NORMALISE, "normalise", v);
        return;
    }
    koma_position pos, back, norm;
    koma_error err;
    koma_position_init(&pos);
    koma_position_init(&back);
    koma_position_init(&norm);
    koma_error_clear(&err);
    int rc = koma_feen_parse(in->s, in->len, normalise ? KOMA_FEEN_NORMALISE : KOMA_FEEN_STRICT, &pos, &err);
    expect_ok(r, rc, &err, v);
    if (rc == 0) {
        size_t n = koma_feen_write(&pos, NULL, 0);
        char *buf = malloc(n + 1);
        assert_non_null(buf);
        koma_feen_write(&pos, buf, n + 1);
        if (!normalise) expect_written(r, buf, n, v);
        if (koma_feen_parse(buf, n, KOMA_FEEN_STRICT, &back, NULL) != 0 || !koma_position_equal(&pos, &back))
            wrong(v, "what is written back does not read back the same");
        if (koma_feen_parse(in->s, in->len, KOMA_FEEN_NORMALISE, &norm, NULL) != 0 ||
            !koma_position_equal(&pos, &norm))
            wrong(v, "the normalising mode reads another position");
        if (koma_feen_parse(in->s, in->len, KOMA_FEEN_STRICT | KOMA_FEEN_CHECK_ONLY, &norm, &err) != 0)
            wrong(v, "the verdict alone refuses it: %s", err.message);
        const koma_shape *sh = &pos.shape;
        if (sh->ndims < 1 || sh->ndims > 3 || sh->squares != (uint32_t)sh->size[0] * sh->size[1] * sh->size[2])
            wrong(v, "the board's size is not the product of its dimensions");
        if (r->f[C_FID].len) {
            char fid[KOMA_FID_BUF];
            koma_fid_of(buf, n, fid);
            if (strcmp(fid, r->f[C_FID].s) != 0) wrong(v, "FID %s, want %s", fid, r->f[C_FID].s);
            if (koma_position_fid(&pos, fid, &err) != 0 || strcmp(fid, r->f[C_FID].s) != 0)
                wrong(v, "the position's FID %s, want %s", fid, r->f[C_FID].s);
            if (koma_fid_parse(r->f[C_FID].s, r->f[C_FID].len, &err) != 0) wrong(v, "the FID is not one");
        }
        free(buf);
    }
    koma_position_cleanup(&pos);
    koma_position_cleanup(&back);
    koma_position_cleanup(&norm);
}

/* dialect: pmn (the default), seed, json-array or legs; position: a FEEN the move
 * is read against (checks and resolution); canonical: the canonical form of a
 * valid input, when given. The input is read as koma-validate reads it
 * (koma_chain_parse_dialect); a single move (any input of the seed and json-array
 * dialects, a canonical one without ',' within a chain's length) also with koma_pmn_parse_dialect, which
 * must agree. */
static void check_pmn(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    koma_pmn_dialect d = KOMA_PMN_DIALECT_CANONICAL;
    if (r->f[C_DIALECT].len && koma_pmn_dialect_from_name(r->f[C_DIALECT].s, r->f[C_DIALECT].len, &d) != 0) {
        wrong(v, "unknown dialect \"%s\"", r->f[C_DIALECT].s);
        return;
    }
    koma_position pos;
    koma_position_init(&pos);
    koma_error err;
    koma_error_clear(&err);
    const koma_position *ctx = NULL;
    if (r->f[C_POSITION].len) {
        if (koma_feen_parse(r->f[C_POSITION].s, r->f[C_POSITION].len, KOMA_FEEN_STRICT, &pos, &err) != 0) {
            wrong(v, "the position is no FEEN: %s", err.message);
            koma_position_cleanup(&pos);
            return;
        }
        ctx = &pos;
    }
    koma_chain chain;
    koma_error_clear(&err);
    int rc = koma_chain_parse_dialect(d, in->s, in->len, ctx, &chain, &err);
    char buf[KOMA_MOVE_TEXT_BUF];
    if (r->code == KOMA_OK) {
        expect_ok(r, rc, &err, v);
        if (rc == 0 && r->f[C_CANONICAL].len) {
            size_t n = koma_chain_write(&chain, buf, sizeof buf);
            if (n != r->f[C_CANONICAL].len || strcmp(buf, r->f[C_CANONICAL].s) != 0)
                wrong(v, "canonical \"%s\", want \"%s\"", buf, r->f[C_CANONICAL].s);
        }
    } else {
        if (r->f[C_CANONICAL].len) wrong(v, "an invalid move has no canonical form");
        expect_error(r, rc, &err, v);
    }
    int single = d == KOMA_PMN_DIALECT_SEED || d == KOMA_PMN_DIALECT_JSON_ARRAY ||
                 (d == KOMA_PMN_DIALECT_CANONICAL && memchr(in->s, ',', in->len) == NULL &&
                  in->len <= KOMA_LIMIT_MOVE_TEXT);
    if (single) {
        koma_move m;
        memset(&m, 0x5a, sizeof m);
        koma_error_clear(&err);
        int rm = koma_pmn_parse_dialect(d, in->s, in->len, ctx, &m, &err);
        verdict mv = {"", 0};
        if (r->code == KOMA_OK) {
            expect_ok(r, rm, &err, &mv);
            if (rm == 0) {
                char mb[KOMA_PMN_BUF];
                size_t n = koma_pmn_write(&m, mb);
                if (r->f[C_CANONICAL].len && (n != r->f[C_CANONICAL].len || strcmp(mb, r->f[C_CANONICAL].s) != 0))
                    wrong(&mv, "canonical \"%s\", want \"%s\"", mb, r->f[C_CANONICAL].s);
                /* the result passes the canonical checks of its position */
                if (ctx && koma_pmn_check(ctx, &m, &err) != 0)
                    wrong(&mv, "\"%s\" fails the check: %s", mb, err.message);
            }
        } else {
            expect_error(r, rm, &err, &mv);
            if (((unsigned char *)&m)[0] != 0x5a) wrong(&mv, "the output was written on error");
        }
        if (mv.failed) wrong(v, "as one move: %s", mv.why);
    }
    koma_position_cleanup(&pos);
}

static void check_ggn(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    koma_error err;
    koma_error_clear(&err);
    koma_ggn *g = NULL;
    koma_ggn_load(in->s, in->len, &g, &err);
    if (r->code == KOMA_OK) expect_ok(r, g ? 0 : -1, &err, v);
    else expect_error(r, g ? 0 : -1, &err, v);
    koma_ggn_free(g);
}

/* format: json (the default) or yaml; one record, parsed and validated. */
static void check_pcn(const row *r, verdict *v)
{
    const field *in = &r->f[C_INPUT];
    const char *format = r->f[C_FORMAT].len ? r->f[C_FORMAT].s : "json";
    koma_pcn_format fmt;
    if (strcmp(format, "json") == 0) fmt = KOMA_PCN_JSON;
    else if (strcmp(format, "yaml") == 0) fmt = KOMA_PCN_YAML;
    else {
        wrong(v, "unknown format \"%s\" (json or yaml)", format);
        return;
    }
    koma_error err;
    koma_error_clear(&err);
    err.source = "src";
    koma_pcn *p = NULL;
    koma_pcn_parse(fmt, in->s, in->len, 0, &p, &err);
    if (r->code == KOMA_OK) {
        expect_ok(r, p ? 0 : -1, &err, v);
        if (p && koma_pcn_validate(p, 0, &err) != 0) wrong(v, "read, but not valid: %s", err.message);
    } else {
        expect_error(r, p ? 0 : -1, &err, v);
        if (err.source == NULL || strcmp(err.source, "src") != 0) wrong(v, "the error's source was changed");
    }
    koma_pcn_free(p);
}

/* ---- the tests ------------------------------------------------------------------- */

typedef void (*check_fn)(const row *r, verdict *v);

static const struct notation {
    const char *name;
    check_fn check;
} notations[] = {
    {"sin", check_sin}, {"snn", check_snn}, {"pin", check_pin}, {"epin", check_epin},
    {"qpi", check_qpi}, {"cell", check_cell}, {"fid", check_fid}, {"cgsn", check_cgsn},
    {"feen", check_feen}, {"pmn", check_pmn}, {"ggn", check_ggn}, {"pcn", check_pcn},
};

static void run_notation(void **state)
{
    const struct notation *nt = *state;
    table t;
    char path[512];
    if (table_read(nt->name, &t, path, sizeof path) != 0) fail();
    size_t bad = 0, valid = 0;
    for (size_t i = 0; i < t.n; i++) {
        const row *r = &t.rows[i];
        verdict v = {"", 0};
        nt->check(r, &v);
        valid += r->code == KOMA_OK;
        if (v.failed) {
            char q[120];
            koma_quote(q, sizeof q, r->f[C_INPUT].s, r->f[C_INPUT].len);
            print_error("%s:%lu: \"%s\": %s\n", path, r->at, q, v.why);
            bad++;
        }
    }
    print_message("%s: %zu rows (%zu valid, %zu invalid), %zu wrong\n", path, t.n, valid,
                  t.n - valid, bad);
    size_t n = t.n;
    int broken = t.broken;
    table_free(&t);
    assert_int_equal(broken, 0);
    assert_true(n > 0);                      /* a file without rows tests nothing */
    assert_int_equal(bad, 0);
}

/* Every file of tests/spec/ is one of the notations above: none is left unread. */
static void test_every_file_read(void **state)
{
    (void)state;
    DIR *dp = opendir(spec_dir());
    if (dp == NULL) fail_msg("cannot open %s (run from the repository root)", spec_dir());
    struct dirent *de;
    int unknown = 0;
    size_t files = 0;
    while ((de = readdir(dp)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".tsv") != 0) continue;
        files++;
        size_t k = 0;
        while (k < sizeof notations / sizeof notations[0] &&
               (strlen(notations[k].name) != l - 4 || memcmp(notations[k].name, de->d_name, l - 4) != 0))
            k++;
        if (k == sizeof notations / sizeof notations[0]) {
            print_error("%s/%s: no notation of this name is checked\n", spec_dir(), de->d_name);
            unknown++;
        }
    }
    closedir(dp);
    assert_int_equal(unknown, 0);
    assert_int_equal(files, sizeof notations / sizeof notations[0]);
}

int main(void)
{
    enum { N = sizeof notations / sizeof notations[0] };
    struct CMUnitTest tests[N + 1];
    for (size_t i = 0; i < N; i++) {
        struct CMUnitTest t = {notations[i].name, run_notation, NULL, NULL, (void *)&notations[i]};
        tests[i] = t;
    }
    struct CMUnitTest every = cmocka_unit_test(test_every_file_read);
    tests[N] = every;
    return cmocka_run_group_tests_name("spec", tests, NULL, NULL);
}
