/* tests/unit/test_cell.c — CELL coordinates, HAND, locations and board shapes. The
 * invalid coordinates, HAND tokens and locations, with their codes and columns, are
 * tests/spec/cell.tsv (test_spec.c). */
#include "unit.h"

#include <regex.h>

/* ---- helpers ---------------------------------------------------------------- */

static void assert_printable(const char *msg)
{
    assert_true(msg[0] != '\0');
    for (const char *p = msg; *p; p++) assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
}

/* err must carry exactly code at offset (line 1, column offset + 1). */
static void assert_error(const koma_error *err, koma_code code, size_t offset, const char *what)
{
    if (err->code != code || err->offset != offset) {
        print_error("%s: got %s at %zu, want %s at %zu (%s)\n", what, koma_code_name(err->code),
                    err->offset, koma_code_name(code), offset, err->message);
    }
    assert_int_equal(err->code, code);
    assert_int_equal(err->offset, offset);
    assert_int_equal(err->line, 1);
    assert_int_equal(err->column, offset + 1);
    assert_printable(err->message);
}

static koma_cell mk(unsigned ndims, unsigned a, unsigned b, unsigned c)
{
    koma_cell cell;
    memset(&cell, 0, sizeof cell);
    cell.ndims = (uint8_t)ndims;
    cell.idx[0] = (uint8_t)a;
    cell.idx[1] = (uint8_t)b;
    cell.idx[2] = (uint8_t)c;
    return cell;
}

static void assert_cell(const koma_cell *got, const koma_cell *want, const char *what)
{
    if (!koma_cell_equal(got, want))
        print_error("%s: got ndims %u [%u,%u,%u]\n", what, got->ndims, got->idx[0], got->idx[1],
                    got->idx[2]);
    assert_int_equal(got->ndims, want->ndims);
    for (unsigned d = 0; d < want->ndims; d++) assert_int_equal(got->idx[d], want->idx[d]);
}

/* ---- valid coordinates (koma-formats(5), CELL, and edge cases) --------------------- */

struct valid_case {
    const char *text;
    unsigned ndims, idx[3];
};

static const struct valid_case valid_cells[] = {
    /* the specification's examples */
    {"a", 1, {0, 0, 0}},
    {"z", 1, {25, 0, 0}},
    {"aa", 1, {26, 0, 0}},
    {"az", 1, {51, 0, 0}},
    {"ba", 1, {52, 0, 0}},
    {"iv", 1, {255, 0, 0}},
    {"a1", 2, {0, 0, 0}},
    {"e4", 2, {4, 3, 0}},
    {"h8", 2, {7, 7, 0}},
    {"a256", 2, {0, 255, 0}},
    {"aa10", 2, {26, 9, 0}},
    {"a1A", 3, {0, 0, 0}},
    {"e4B", 3, {4, 3, 1}},
    {"c3C", 3, {2, 2, 2}},
    {"a1AA", 3, {0, 0, 26}},
    {"iv256IV", 3, {255, 255, 255}},
    {"aa27AA", 3, {26, 26, 26}},
};

/* Edge cases of our own. */
static const struct valid_case valid_edges[] = {
    {"bz", 1, {77, 0, 0}},
    {"ca", 1, {78, 0, 0}},
    {"hz", 1, {233, 0, 0}},
    {"ia", 1, {234, 0, 0}},
    {"iu", 1, {254, 0, 0}},
    {"a9", 2, {0, 8, 0}},
    {"a10", 2, {0, 9, 0}},
    {"a99", 2, {0, 98, 0}},
    {"a100", 2, {0, 99, 0}},
    {"a255", 2, {0, 254, 0}},
    {"z26Z", 3, {25, 25, 25}},
    {"a1IV", 3, {0, 0, 255}},
    {"iv1A", 3, {255, 0, 0}},
    {"s19S", 3, {18, 18, 18}},
    {"e2", 2, {4, 1, 0}},
};

static void check_valid(const struct valid_case *v)
{
    koma_cell cell, want = mk(v->ndims, v->idx[0], v->idx[1], v->idx[2]);
    koma_error err;
    char buf[KOMA_CELL_BUF];
    size_t len = strlen(v->text);

    memset(&cell, 0xAA, sizeof cell);
    koma_error_clear(&err);
    if (koma_cell_parse(v->text, len, &cell, &err) != 0)
        print_error("%s: %s\n", v->text, err.message);
    assert_int_equal(koma_cell_parse(v->text, len, &cell, &err), 0);
    assert_cell(&cell, &want, v->text);
    /* write is the inverse */
    assert_int_equal(koma_cell_write(&cell, buf), len);
    assert_string_equal(buf, v->text);
    /* scan consumes all of it, also when something follows */
    memset(&cell, 0, sizeof cell);
    assert_int_equal(koma_cell_scan(v->text, len, &cell, &err), len);
    assert_cell(&cell, &want, v->text);
    char more[16];
    snprintf(more, sizeof more, "%s-x", v->text);
    assert_int_equal(koma_cell_scan(more, len + 2, &cell, &err), len);
    assert_cell(&cell, &want, more);
    /* and as a location */
    koma_location loc;
    assert_int_equal(koma_location_parse(v->text, len, &loc, &err), 0);
    assert_int_equal(loc.hand, 0);
    assert_cell(&loc.cell, &want, v->text);
}

static void test_valid_cells(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof valid_cells / sizeof valid_cells[0]; i++)
        check_valid(&valid_cells[i]);
    for (size_t i = 0; i < sizeof valid_edges / sizeof valid_edges[0]; i++)
        check_valid(&valid_edges[i]);
}

static void test_error_message(void **state)
{
    (void)state;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_cell_parse(LIT("a\x01" "0"), NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_CELL_CHAR);
    assert_non_null(strstr(err.message, "\"a\\x010\""));
    assert_string_equal(koma_code_name(err.code), "cell.char");
    koma_error_clear(&err);
    assert_int_equal(koma_cell_parse(LIT("a\"1"), NULL, &err), -1);
    assert_non_null(strstr(err.message, "\"a\\\"1\""));
    /* codes by name */
    assert_int_equal(koma_code_from_name("cell.empty"), KOMA_E_CELL_EMPTY);
    assert_int_equal(koma_code_from_name("cell.length"), KOMA_E_CELL_LENGTH);
    assert_int_equal(koma_code_from_name("cell.start"), KOMA_E_CELL_START);
    assert_int_equal(koma_code_from_name("cell.zero"), KOMA_E_CELL_ZERO);
    assert_int_equal(koma_code_from_name("cell.dimensions"), KOMA_E_CELL_DIMENSIONS);
    assert_int_equal(koma_code_from_name("cell.index"), KOMA_E_CELL_INDEX);
    assert_int_equal(koma_code_from_name("cell.shape"), KOMA_E_CELL_SHAPE);
    assert_int_equal(koma_code_from_name("hand.token"), KOMA_E_HAND_TOKEN);
}

/* ---- scan ------------------------------------------------------------------------ */

struct scan_case {
    const char *text;
    size_t len;
    size_t consumed;                   /* 0: error */
    unsigned ndims, idx[3];
    koma_code code;
    size_t offset;
};

#define SCAN_OK(s, n, nd, a, b, c) {(s), sizeof(s) - 1, (n), (nd), {(a), (b), (c)}, KOMA_OK, 0}
#define SCAN_BAD(s, code, off) {(s), sizeof(s) - 1, 0, 0, {0, 0, 0}, KOMA_E_##code, (off)}

static const struct scan_case scan_cases[] = {
    SCAN_OK("e2-e4", 2, 2, 4, 1, 0),
    SCAN_OK("e2e4", 2, 2, 4, 1, 0),
    SCAN_OK("e7+d8=+P/p", 2, 2, 4, 6, 0),
    SCAN_OK("a1A-b2B", 3, 3, 0, 0, 0),
    SCAN_OK("a1A", 3, 3, 0, 0, 0),
    SCAN_OK("aA", 1, 1, 0, 0, 0),
    SCAN_OK("a-", 1, 1, 0, 0, 0),
    SCAN_OK("iv256IV~", 7, 3, 255, 255, 255),
    SCAN_OK("a10*", 3, 2, 0, 9, 0),
    SCAN_OK("h8=K", 2, 2, 7, 7, 0),
    SCAN_OK("a1A1", 3, 3, 0, 0, 0),
    SCAN_OK("a1 ", 2, 2, 0, 0, 0),
    SCAN_OK("a1\0", 2, 2, 0, 0, 0),
    SCAN_OK("z\xc3\xa9", 1, 1, 25, 0, 0),
    SCAN_BAD("", CELL_EMPTY, 0),
    SCAN_BAD("-e4", CELL_START, 0),
    SCAN_BAD("E2-e4", CELL_START, 0),
    SCAN_BAD("7g-7f", CELL_START, 0),
    SCAN_BAD("a1Aa-b1", CELL_DIMENSIONS, 3),
    SCAN_BAD("e0-e4", CELL_ZERO, 1),
    SCAN_BAD("a257-a1", CELL_INDEX, 3),
    SCAN_BAD("aaa1", CELL_INDEX, 2),
    SCAN_BAD("iw1", CELL_INDEX, 1),
    SCAN_BAD("a1000000000000", CELL_INDEX, 4),
    SCAN_BAD("a1IW-", CELL_INDEX, 3),
};

static void test_scan(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof scan_cases / sizeof scan_cases[0]; i++) {
        const struct scan_case *c = &scan_cases[i];
        koma_cell cell = mk(1, 9, 9, 9);
        koma_error err;
        char what[64];
        koma_quote(what, sizeof what, c->text, c->len);
        koma_error_clear(&err);
        size_t n = koma_cell_scan(c->text, c->len, &cell, &err);
        if (n != c->consumed) print_error("%s: consumed %zu\n", what, n);
        assert_int_equal(n, c->consumed);
        if (c->consumed > 0) {
            koma_cell want = mk(c->ndims, c->idx[0], c->idx[1], c->idx[2]);
            assert_int_equal(err.code, KOMA_OK);
            assert_cell(&cell, &want, what);
        } else {
            koma_cell keep = mk(1, 9, 9, 9);
            assert_error(&err, c->code, c->offset, what);
            assert_cell(&cell, &keep, what);
            assert_int_equal(koma_cell_scan(c->text, c->len, NULL, NULL), 0);
        }
    }
}

/* ---- write ------------------------------------------------------------------------ */

static void test_write(void **state)
{
    (void)state;
    char buf[KOMA_CELL_BUF];
    koma_cell c = mk(3, 255, 255, 255);
    assert_int_equal(koma_cell_write(&c, buf), 7);
    assert_string_equal(buf, "iv256IV");
    c = mk(2, 26, 99, 0);
    assert_int_equal(koma_cell_write(&c, buf), 5);
    assert_string_equal(buf, "aa100");
    c = mk(1, 51, 7, 7);                        /* unused indices are ignored */
    assert_int_equal(koma_cell_write(&c, buf), 2);
    assert_string_equal(buf, "az");
    c = mk(0, 1, 1, 1);
    memset(buf, 'x', sizeof buf);
    assert_int_equal(koma_cell_write(&c, buf), 0);
    assert_string_equal(buf, "");
    c = mk(4, 1, 1, 1);
    assert_int_equal(koma_cell_write(&c, buf), 0);
    assert_string_equal(buf, "");
}

static void test_equal(void **state)
{
    (void)state;
    koma_cell a = mk(2, 4, 3, 0), b = mk(2, 4, 3, 9), c = mk(3, 4, 3, 0), d = mk(2, 4, 2, 0);
    assert_true(koma_cell_equal(&a, &b));       /* idx[2] unused */
    assert_false(koma_cell_equal(&a, &c));
    assert_false(koma_cell_equal(&a, &d));
    assert_true(koma_cell_equal(&c, &c));
}

/* Every 1-D and 2-D coordinate and a grid of 3-D ones: write, parse back, same. */
static void round_trip(const koma_cell *c)
{
    char buf[KOMA_CELL_BUF], pad[KOMA_CELL_BUF + 2];
    koma_cell back;
    koma_error err;
    size_t n = koma_cell_write(c, buf);
    assert_true(n >= 1 && n <= KOMA_CELL_MAX_LEN);
    assert_int_equal(strlen(buf), n);
    if (koma_cell_parse(buf, n, &back, &err) != 0) print_error("%s: %s\n", buf, err.message);
    assert_int_equal(koma_cell_parse(buf, n, &back, &err), 0);
    assert_cell(&back, c, buf);
    /* a trailing operator does not change what scan reads */
    memcpy(pad, buf, n);
    pad[n] = '-';
    assert_int_equal(koma_cell_scan(pad, n + 1, &back, &err), n);
    assert_cell(&back, c, buf);
}

static void test_round_trip(void **state)
{
    (void)state;
    static const unsigned edge[] = {0, 1, 8, 9, 25, 26, 27, 51, 52, 98, 99, 100, 233, 234, 254, 255};
    const size_t ne = sizeof edge / sizeof edge[0];
    for (unsigned f = 0; f < 256; f++) {
        koma_cell c = mk(1, f, 0, 0);
        round_trip(&c);
        for (unsigned r = 0; r < 256; r++) {
            c = mk(2, f, r, 0);
            round_trip(&c);
        }
        for (size_t i = 0; i < ne; i++)
            for (size_t j = 0; j < ne; j++) {
                c = mk(3, f, edge[i], edge[j]);
                round_trip(&c);
            }
    }
}

/*
 * Differential test: every string up to 5 bytes over a small alphabet is parsed
 * and compared with a POSIX regex of the CELL grammar plus an independent
 * computation of the indices.
 */
static unsigned ref_letters(const char *s, size_t n, char base)
{
    unsigned v = 0, off = 0, pw = 1;
    for (size_t i = 0; i < n; i++) v = v * 26u + (unsigned)(s[i] - base);
    for (size_t i = 1; i < n; i++) { pw *= 26u; off += pw; }
    return v + off;
}

static void test_differential(void **state)
{
    (void)state;
    static const char alpha[] = "abivwzAIVWZ01259-";
    const size_t na = sizeof alpha - 1;
    regex_t re;
    assert_int_equal(regcomp(&re, "^([a-z]+)(([1-9][0-9]*)([A-Z]+)?)?$", REG_EXTENDED), 0);
    char s[8];
    unsigned long accepted = 0;
    for (size_t len = 1; len <= 5; len++) {
        for (size_t code = 0, total = texts_of_len(na, len); code < total; code++) {
            text_of_code(s, len, alpha, na, code);
            s[len] = '\0';
            regmatch_t m[5];
            int want = 0;
            unsigned idx[3] = {0, 0, 0}, nd = 0;
            if (regexec(&re, s, 5, m, 0) == 0) {
                want = 1;
                size_t fl = (size_t)(m[1].rm_eo - m[1].rm_so);
                if (fl > 2) want = 0;
                else idx[0] = ref_letters(s, fl, 'a');
                nd = 1;
                if (m[3].rm_so >= 0) {
                    nd = 2;
                    size_t rl = (size_t)(m[3].rm_eo - m[3].rm_so);
                    unsigned long r = 0;
                    for (size_t k = 0; k < rl; k++) r = r * 10 + (unsigned long)(s[m[3].rm_so + (regoff_t)k] - '0');
                    if (rl > 3 || r > 256) want = 0;
                    else idx[1] = (unsigned)r - 1;
                }
                if (m[4].rm_so >= 0) {
                    nd = 3;
                    size_t ll = (size_t)(m[4].rm_eo - m[4].rm_so);
                    if (ll > 2) want = 0;
                    else idx[2] = ref_letters(s + m[4].rm_so, ll, 'A');
                }
                for (unsigned d = 0; d < 3; d++) if (idx[d] > 255) want = 0;
            }
            koma_cell c;
            koma_error err;
            koma_error_clear(&err);
            int got = koma_cell_parse(s, len, &c, &err) == 0;
            if (got != want) print_error("%s: got %d want %d (%s)\n", s, got, want, err.message);
            assert_int_equal(got, want);
            if (got) {
                koma_cell w = mk(nd, idx[0], idx[1], idx[2]);
                assert_cell(&c, &w, s);
                accepted++;
            } else {
                assert_true(err.offset < len || err.code == KOMA_E_CELL_EMPTY);
                assert_true(err.code >= KOMA_E_CELL_EMPTY && err.code <= KOMA_E_CELL_INDEX);
            }
        }
    }
    regfree(&re);
    assert_true(accepted > 1000);
}

/* ---- HAND and locations ------------------------------------------------------------ */

static void test_hand_token(void **state)
{
    (void)state;
    koma_error err;
    assert_int_equal(koma_hand_token_parse(LIT("*"), &err), 0);
    assert_int_equal(koma_hand_token_parse(LIT("*"), NULL), 0);
    /* the invalid ones: tests/spec/cell.tsv, parse=hand */
}

static void test_location(void **state)
{
    (void)state;
    koma_location loc;
    koma_error err;
    memset(&loc, 0x55, sizeof loc);
    assert_int_equal(koma_location_parse(LIT("*"), &loc, &err), 0);
    assert_int_equal(loc.hand, 1);
    memset(&loc, 0x55, sizeof loc);
    assert_int_equal(koma_location_parse(LIT("e4"), &loc, &err), 0);
    assert_int_equal(loc.hand, 0);
    koma_cell e4 = mk(2, 4, 3, 0);
    assert_cell(&loc.cell, &e4, "e4");
    assert_int_equal(koma_location_parse(LIT("*"), NULL, NULL), 0);

    /* the invalid ones: tests/spec/cell.tsv, parse=location */
}

/* ---- shapes ----------------------------------------------------------------------- */

static koma_shape shape_of(unsigned ndims, unsigned files, unsigned ranks, unsigned layers)
{
    koma_shape s;
    memset(&s, 0, sizeof s);
    s.ndims = (uint8_t)ndims;
    s.size[0] = (uint16_t)files;
    s.size[1] = (uint16_t)ranks;
    s.size[2] = (uint16_t)layers;
    s.squares = files * ranks * layers;
    return s;
}

struct square_case {
    const char *cell;
    long square;                        /* -1: cell.shape */
};

static void check_squares(const koma_shape *shape, const struct square_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        koma_cell c, back;
        koma_error err;
        uint32_t sq = 12345;
        assert_int_equal(koma_cell_parse(cases[i].cell, strlen(cases[i].cell), &c, &err), 0);
        koma_error_clear(&err);
        int rc = koma_shape_square(shape, &c, &sq, &err);
        if (cases[i].square < 0) {
            assert_int_equal(rc, -1);
            assert_error(&err, KOMA_E_CELL_SHAPE, 0, cases[i].cell);
            assert_non_null(strstr(err.message, cases[i].cell));
            assert_int_equal(sq, 12345);
            assert_int_equal(koma_shape_square(shape, &c, NULL, NULL), -1);
        } else {
            if (rc != 0) print_error("%s: %s\n", cases[i].cell, err.message);
            assert_int_equal(rc, 0);
            assert_int_equal(sq, (uint32_t)cases[i].square);
            koma_shape_cell(shape, sq, &back);
            assert_cell(&back, &c, cases[i].cell);
        }
    }
}

static void test_shape_2d(void **state)
{
    (void)state;
    koma_shape s = shape_of(2, 8, 8, 1);
    static const struct square_case cases[] = {
        {"a8", 0}, {"h8", 7}, {"a7", 8}, {"a1", 56}, {"h1", 63}, {"e1", 60}, {"e4", 36},
        {"e2", 52}, {"i1", -1}, {"a9", -1}, {"iv256", -1}, {"a", -1}, {"a1A", -1},
    };
    check_squares(&s, cases, sizeof cases / sizeof cases[0]);

    koma_shape shogi = shape_of(2, 9, 9, 1);
    static const struct square_case sc[] = {
        {"a9", 0}, {"i9", 8}, {"a1", 72}, {"i1", 80}, {"e5", 40}, {"j1", -1}, {"a10", -1},
    };
    check_squares(&shogi, sc, sizeof sc / sizeof sc[0]);

    koma_shape wide = shape_of(2, 10, 3, 1);     /* not square: files != ranks */
    static const struct square_case wc[] = {
        {"a3", 0}, {"j3", 9}, {"a2", 10}, {"a1", 20}, {"j1", 29}, {"k1", -1}, {"a4", -1},
    };
    check_squares(&wide, wc, sizeof wc / sizeof wc[0]);
}

static void test_shape_1d_3d(void **state)
{
    (void)state;
    koma_shape line = shape_of(1, 5, 1, 1);
    static const struct square_case lc[] = {
        {"a", 0}, {"c", 2}, {"e", 4}, {"f", -1}, {"a1", -1}, {"a1A", -1},
    };
    check_squares(&line, lc, sizeof lc / sizeof lc[0]);

    /* 3 files, 2 ranks, 2 layers: square = (layer * 2 + (1 - rank)) * 3 + file */
    koma_shape cube = shape_of(3, 3, 2, 2);
    static const struct square_case cc[] = {
        {"a2A", 0}, {"c2A", 2}, {"a1A", 3}, {"c1A", 5}, {"a2B", 6}, {"b2B", 7}, {"c2B", 8},
        {"a1B", 9}, {"c1B", 11}, {"a1C", -1}, {"d1A", -1}, {"a3A", -1}, {"a1", -1}, {"a", -1},
    };
    check_squares(&cube, cc, sizeof cc / sizeof cc[0]);

    /* the 3x3x3 example of FEEN-style boards */
    koma_shape c3 = shape_of(3, 3, 3, 3);
    static const struct square_case c3c[] = {
        {"a3A", 0}, {"a1A", 6}, {"c1A", 8}, {"a3B", 9}, {"c1C", 26}, {"b2B", 13},
    };
    check_squares(&c3, c3c, sizeof c3c / sizeof c3c[0]);
}

/* Every square of several shapes maps to a distinct cell and back. */
static void test_shape_bijection(void **state)
{
    (void)state;
    const koma_shape shapes[] = {
        shape_of(1, 1, 1, 1), shape_of(1, 255, 1, 1), shape_of(2, 8, 8, 1),
        shape_of(2, 5, 5, 1), shape_of(2, 19, 19, 1), shape_of(2, 255, 255, 1),
        shape_of(2, 1, 7, 1), shape_of(3, 3, 3, 3), shape_of(3, 4, 2, 5), shape_of(3, 40, 40, 40),
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const koma_shape *s = &shapes[i];
        for (uint32_t sq = 0; sq < s->squares; sq++) {
            koma_cell c;
            koma_error err;
            uint32_t back = UINT32_MAX;
            koma_shape_cell(s, sq, &c);
            assert_int_equal(c.ndims, s->ndims);
            for (unsigned d = 0; d < s->ndims; d++) assert_true(c.idx[d] < s->size[d]);
            assert_int_equal(koma_shape_square(s, &c, &back, &err), 0);
            assert_int_equal(back, sq);
        }
        /* one past the end is no square */
        koma_cell c = mk(2, 1, 1, 1);
        koma_shape_cell(s, s->squares, &c);
        assert_int_equal(c.ndims, 0);
        koma_shape_cell(s, UINT32_MAX, &c);
        assert_int_equal(c.ndims, 0);
    }
    /* a shape with no dimension */
    koma_shape none = shape_of(0, 8, 8, 1);
    koma_cell c = mk(2, 0, 0, 0);
    koma_error err;
    uint32_t sq;
    assert_int_equal(koma_shape_square(&none, &c, &sq, &err), -1);
    assert_int_equal(err.code, KOMA_E_CELL_SHAPE);
    koma_shape_cell(&none, 0, &c);
    assert_int_equal(c.ndims, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_cells),
        cmocka_unit_test(test_error_message),
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_differential),
        cmocka_unit_test(test_hand_token),
        cmocka_unit_test(test_location),
        cmocka_unit_test(test_shape_2d),
        cmocka_unit_test(test_shape_1d_3d),
        cmocka_unit_test(test_shape_bijection),
    };
    return cmocka_run_group_tests_name("cell", tests, NULL, NULL);
}
