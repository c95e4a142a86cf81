/* tests/unit/test_atoms.c — SIN, SNN, PIN, EPIN, QPI and koma_piece: what a token
 * decodes to and writes back as, every token, the grammars against regular
 * expressions. The valid and invalid cases of each notation, with their codes and
 * columns, are tests/spec/{sin,snn,pin,epin,qpi}.tsv (test_spec.c). */
#include "unit.h"

#include <regex.h>

/* ---- helpers ---------------------------------------------------------------- */

static void assert_printable(const char *msg)
{
    assert_true(msg[0] != '\0');
    for (const char *p = msg; *p; p++) assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
}

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

#define P_(letter) ((koma_piece)((letter) - 'A' + 1))
#define SEC KOMA_PIECE_SECOND
#define ENH KOMA_PIECE_ENHANCED
#define DIM KOMA_PIECE_DIMINISHED
#define TER KOMA_PIECE_TERMINAL
#define DER KOMA_PIECE_DERIVED

/* ---- koma_piece helpers from atoms.h ----------------------------------------------- */

static void test_piece_helpers(void **state)
{
    (void)state;
    assert_int_equal(koma_piece_from_letter('A'), 1);
    assert_int_equal(koma_piece_from_letter('Z'), 26);
    assert_int_equal(koma_piece_from_letter('a'), 1 | SEC);
    assert_int_equal(koma_piece_from_letter('k'), 11 | SEC);
    assert_int_equal(koma_piece_from_letter('1'), KOMA_PIECE_NONE);
    assert_int_equal(koma_piece_from_letter('@'), KOMA_PIECE_NONE);
    assert_int_equal(koma_piece_from_letter('['), KOMA_PIECE_NONE);
    assert_int_equal(koma_piece_side(P_('K')), KOMA_FIRST);
    assert_int_equal(koma_piece_side(P_('K') | SEC), KOMA_SECOND);
    assert_int_equal(koma_piece_letter(P_('K') | ENH | TER), 'K');
    assert_int_equal(koma_piece_letter(P_('K') | SEC | DER), 'k');
    assert_int_equal(koma_piece_flip(P_('P') | ENH), P_('P') | SEC | ENH);
    assert_int_equal(koma_piece_flip(koma_piece_flip(P_('P') | TER)), P_('P') | TER);
}

/* ---- SIN ---------------------------------------------------------------------------- */

/* The valid and invalid SINs of the specification are cases of tests/spec/sin.tsv
 * (test_spec); here every byte. */
static void test_sin(void **state)
{
    (void)state;
    /* exactly the 52 letters */
    for (int c = 0; c < 256; c++) {
        char ch = (char)c, out = 0;
        int want = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        koma_error err;
        assert_int_equal(koma_sin_parse(&ch, 1, &out, &err), want ? 0 : -1);
        if (want) assert_int_equal(out, ch);
        else assert_error(&err, KOMA_E_SIN_LETTER, 0, "byte");
    }
}

/* ---- PIN and EPIN ---------------------------------------------------------------------- */

struct piece_case {
    const char *text;
    koma_piece piece;
};

static const struct piece_case valid_pins[] = {
    {"K", P_('K')},
    {"k", P_('K') | SEC},
    {"+R", P_('R') | ENH},
    {"-p", P_('P') | SEC | DIM},
    {"K^", P_('K') | TER},
    {"+K^", P_('K') | ENH | TER},
    {"-q^", P_('Q') | SEC | DIM | TER},
    {"A", 1},
    {"z", 26 | SEC},
    {"+z^", 26 | SEC | ENH | TER},
};

static const struct piece_case valid_epins_only[] = {
    {"K'", P_('K') | DER},
    {"+R'", P_('R') | ENH | DER},
    {"K^'", P_('K') | TER | DER},
    {"+K^'", P_('K') | ENH | TER | DER},
    {"-q^'", P_('Q') | SEC | DIM | TER | DER},
    {"k^'", P_('K') | SEC | TER | DER},
    {"p'", P_('P') | SEC | DER},
};

static void check_piece(const struct piece_case *c, int pin)
{
    koma_piece p = 0xFFFF;
    koma_error err;
    char buf[KOMA_EPIN_BUF];
    size_t len = strlen(c->text);
    koma_error_clear(&err);
    int rc = pin ? koma_pin_parse(c->text, len, &p, &err) : koma_epin_parse(c->text, len, &p, &err);
    if (rc != 0) print_error("%s: %s\n", c->text, err.message);
    assert_int_equal(rc, 0);
    assert_int_equal(p, c->piece);
    assert_int_equal(koma_epin_write(p, buf), len);
    assert_string_equal(buf, c->text);
    /* scan reads the whole token, even with something after it */
    char more[16];
    snprintf(more, sizeof more, "%s*e5", c->text);
    p = 0;
    assert_int_equal(koma_epin_scan(more, len + 3, &p), len);
    assert_int_equal(p, c->piece);
}

static void test_pin_valid(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof valid_pins / sizeof valid_pins[0]; i++) {
        check_piece(&valid_pins[i], 1);
        check_piece(&valid_pins[i], 0);              /* every PIN is an EPIN */
    }
    for (size_t i = 0; i < sizeof valid_epins_only / sizeof valid_epins_only[0]; i++)
        check_piece(&valid_epins_only[i], 0);
}

/* All 312 PINs and 624 EPINs: build the text, parse it, write it back. */
static void test_all_tokens(void **state)
{
    (void)state;
    static const char *prefixes[] = {"", "+", "-"};
    unsigned pins = 0, epins = 0;
    static char seen[KOMA_PIECE_MASK + 1];
    memset(seen, 0, sizeof seen);
    for (int c = 0; c < 52; c++) {
        char letter = (char)(c < 26 ? 'A' + c : 'a' + c - 26);
        for (size_t pf = 0; pf < 3; pf++)
            for (int t = 0; t < 2; t++)
                for (int d = 0; d < 2; d++) {
                    char text[8];
                    koma_piece p = 0, q = 0;
                    koma_error err;
                    char buf[KOMA_EPIN_BUF];
                    int n = snprintf(text, sizeof text, "%s%c%s%s", prefixes[pf], letter,
                                     t ? "^" : "", d ? "'" : "");
                    assert_int_equal(koma_epin_parse(text, (size_t)n, &p, &err), 0);
                    epins++;
                    assert_int_equal(koma_piece_letter(p), letter);
                    assert_int_equal(koma_piece_side(p), c < 26 ? KOMA_FIRST : KOMA_SECOND);
                    assert_int_equal((p & ENH) != 0, pf == 1);
                    assert_int_equal((p & DIM) != 0, pf == 2);
                    assert_int_equal((p & TER) != 0, t);
                    assert_int_equal((p & DER) != 0, d);
                    assert_int_equal(p & ~KOMA_PIECE_MASK, 0);
                    assert_int_equal(seen[p], 0);
                    seen[p] = 1;
                    assert_int_equal(koma_epin_write(p, buf), (size_t)n);
                    assert_string_equal(buf, text);
                    assert_true(n <= KOMA_EPIN_MAX_LEN);
                    int prc = koma_pin_parse(text, (size_t)n, &q, &err);
                    if (d) {
                        assert_int_equal(prc, -1);
                        assert_error(&err, KOMA_E_PIN_DERIVATION, (size_t)n - 1, text);
                    } else {
                        assert_int_equal(prc, 0);
                        assert_int_equal(q, p);
                        pins++;
                    }
                }
    }
    assert_int_equal(pins, 312);
    assert_int_equal(epins, 624);
}

static void test_epin_write_invalid(void **state)
{
    (void)state;
    char buf[KOMA_EPIN_BUF];
    static const koma_piece bad[] = {
        KOMA_PIECE_NONE, SEC, ENH | TER, 27, 31, 31 | SEC, P_('K') | ENH | DIM,
        (koma_piece)(P_('K') | 0x0400), (koma_piece)0x8001,
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(buf, 'x', sizeof buf);
        assert_int_equal(koma_epin_write(bad[i], buf), 0);
        assert_string_equal(buf, "");
    }
}

struct scan_case {
    const char *text;
    size_t len;
    size_t consumed;
    koma_piece piece;
};

#define SCAN(s, n, p) {(s), sizeof(s) - 1, (n), (p)}

static void test_epin_scan(void **state)
{
    (void)state;
    static const struct scan_case cases[] = {
        SCAN("K", 1, P_('K')),
        SCAN("+P*e5", 2, P_('P') | ENH),
        SCAN("S*e5", 1, P_('S')),
        SCAN("k^'x", 3, P_('K') | SEC | TER | DER),
        SCAN("K''", 2, P_('K') | DER),
        SCAN("K'^", 2, P_('K') | DER),
        SCAN("K^^", 2, P_('K') | TER),
        SCAN("KK", 1, P_('K')),
        SCAN("-p^'", 4, P_('P') | SEC | DIM | TER | DER),
        SCAN("P/", 1, P_('P')),
        SCAN("e4", 1, P_('E') | SEC),
        SCAN("+", 0, 0),
        SCAN("-", 0, 0),
        SCAN("+-K", 0, 0),
        SCAN("", 0, 0),
        SCAN("'K", 0, 0),
        SCAN("^K", 0, 0),
        SCAN("1K", 0, 0),
        SCAN("*e5", 0, 0),
        SCAN("\xc3\x89", 0, 0),
        SCAN("+\0", 0, 0),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_piece p = 0x1234;
        size_t n = koma_epin_scan(cases[i].text, cases[i].len, &p);
        if (n != cases[i].consumed) print_error("%s: consumed %zu\n", cases[i].text, n);
        assert_int_equal(n, cases[i].consumed);
        assert_int_equal(p, cases[i].piece);
        assert_int_equal(koma_epin_scan(cases[i].text, cases[i].len, NULL), cases[i].consumed);
    }
    /* the scan never reads past len */
    assert_int_equal(koma_epin_scan("K^'", 1, NULL), 1);
    assert_int_equal(koma_epin_scan("K^'", 2, NULL), 2);
    assert_int_equal(koma_epin_scan("+K", 1, NULL), 0);
}

/* ---- the hand order (koma-formats(5), FEEN: hands) ------------------------------------------------- */

static koma_piece epin(const char *s)
{
    koma_piece p = 0;
    koma_error err;
    assert_int_equal(koma_epin_parse(s, strlen(s), &p, &err), 0);
    return p;
}

static void test_hand_key(void **state)
{
    (void)state;
    /* pairs a < b in FEEN's hand order */
    static const char *less[][2] = {
        {"A", "B"}, {"P", "p"}, {"-P", "+P"}, {"+P", "P"}, {"-P", "P"}, {"P", "P^"},
        {"P", "P'"}, {"P'", "P^"}, {"P^", "P^'"}, {"B", "P"}, {"N", "P"}, {"b", "R"},
        {"p", "R"}, {"Z", "z"}, {"a", "B"}, {"+K^'", "K"}, {"k", "-l"}, {"P^'", "p"},
        {"-P^'", "+P"}, {"f", "r"}, {"b", "i"},
    };
    for (size_t i = 0; i < sizeof less / sizeof less[0]; i++) {
        unsigned a = koma_piece_hand_key(epin(less[i][0]));
        unsigned b = koma_piece_hand_key(epin(less[i][1]));
        if (!(a < b)) print_error("%s !< %s\n", less[i][0], less[i][1]);
        assert_true(a < b);
    }
    /* all 624 tokens, generated in canonical order, have strictly increasing keys */
    static const char *prefixes[] = {"-", "+", ""};
    unsigned prev = 0;
    int first = 1;
    for (int c = 0; c < 26; c++)
        for (int lower = 0; lower < 2; lower++)
            for (size_t pf = 0; pf < 3; pf++)
                for (int t = 0; t < 2; t++)
                    for (int d = 0; d < 2; d++) {
                        char text[8];
                        snprintf(text, sizeof text, "%s%c%s%s", prefixes[pf],
                                 (char)((lower ? 'a' : 'A') + c), t ? "^" : "", d ? "'" : "");
                        unsigned k = koma_piece_hand_key(epin(text));
                        if (!first && !(prev < k)) print_error("%s: key %u <= %u\n", text, k, prev);
                        assert_true(first || prev < k);
                        prev = k;
                        first = 0;
                    }
}

/* ---- QPI -------------------------------------------------------------------------------- */

struct qpi_case {
    const char *text;
    char style;
    koma_piece piece;
};

static void test_qpi_valid(void **state)
{
    (void)state;
    static const struct qpi_case cases[] = {
        {"C:K", 'C', P_('K')},
        {"C:+K^", 'C', P_('K') | ENH | TER},
        {"c:k", 'c', P_('K') | SEC},
        {"c:-p^", 'c', P_('P') | SEC | DIM | TER},
        {"S:+P", 'S', P_('P') | ENH},
        {"x:-c", 'x', P_('C') | SEC | DIM},
        {"O:K^", 'O', P_('K') | TER},
        {"X:G^", 'X', P_('G') | TER},
        {"z:a", 'z', P_('A') | SEC},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_qpi q;
        koma_error err;
        char buf[KOMA_QPI_BUF];
        size_t len = strlen(cases[i].text);
        memset(&q, 0, sizeof q);
        koma_error_clear(&err);
        if (koma_qpi_parse(cases[i].text, len, &q, &err) != 0)
            print_error("%s: %s\n", cases[i].text, err.message);
        assert_int_equal(koma_qpi_parse(cases[i].text, len, &q, &err), 0);
        assert_int_equal(q.style, cases[i].style);
        assert_int_equal(q.piece, cases[i].piece);
        assert_int_equal(koma_qpi_write(&q, buf), len);
        assert_string_equal(buf, cases[i].text);
        assert_int_equal(koma_qpi_parse(cases[i].text, len, NULL, NULL), 0);
    }
}

static void test_qpi_write_invalid(void **state)
{
    (void)state;
    static const koma_qpi bad[] = {
        {'C', P_('K') | SEC},             /* side mismatch */
        {'c', P_('K')},
        {'C', P_('K') | DER},             /* derived */
        {'1', P_('K')},                   /* style not a letter */
        {'\0', P_('K')},
        {'C', KOMA_PIECE_NONE},
        {'C', 27},
        {'C', P_('K') | ENH | DIM},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char buf[KOMA_QPI_BUF];
        memset(buf, 'x', sizeof buf);
        assert_int_equal(koma_qpi_write(&bad[i], buf), 0);
        assert_string_equal(buf, "");
    }
    koma_qpi big = {'c', P_('K') | SEC | DIM | TER};
    char buf[KOMA_QPI_BUF];
    assert_int_equal(koma_qpi_write(&big, buf), KOMA_QPI_MAX_LEN);
    assert_string_equal(buf, "c:-k^");
}

/* ---- differential tests against POSIX regular expressions ---------------------------------- */

struct grammar {
    const char *name;
    const char *regex;
    int (*parse)(const char *s, size_t len);
};

static int parse_pin(const char *s, size_t len) { return koma_pin_parse(s, len, NULL, NULL) == 0; }
static int parse_epin(const char *s, size_t len) { return koma_epin_parse(s, len, NULL, NULL) == 0; }
static int parse_sin(const char *s, size_t len) { return koma_sin_parse(s, len, NULL, NULL) == 0; }
static int parse_snn(const char *s, size_t len) { return koma_snn_parse(s, len, NULL, NULL) == 0; }
static int parse_qpi(const char *s, size_t len)
{
    koma_qpi q;
    char buf[KOMA_QPI_BUF];
    if (koma_qpi_parse(s, len, &q, NULL) != 0) return 0;
    /* what parses writes back identically */
    assert_int_equal(koma_qpi_write(&q, buf), len);
    assert_memory_equal(buf, s, len);
    return 1;
}

static void test_differential(void **state)
{
    (void)state;
    static const struct grammar grammars[] = {
        {"pin", "^[-+]?[A-Za-z]\\^?$", parse_pin},
        {"epin", "^[-+]?[A-Za-z]\\^?'?$", parse_epin},
        {"sin", "^[A-Za-z]$", parse_sin},
        {"snn", "^[A-Z][A-Za-z]*[0-9]*$", parse_snn},
        {"qpi", "^([A-Z]:[-+]?[A-Z]\\^?|[a-z]:[-+]?[a-z]\\^?)$", parse_qpi},
    };
    static const char alpha[] = "Kk+-^':C1 ";
    const size_t na = sizeof alpha - 1;
    for (size_t g = 0; g < sizeof grammars / sizeof grammars[0]; g++) {
        regex_t re;
        unsigned long accepted = 0;
        assert_int_equal(regcomp(&re, grammars[g].regex, REG_EXTENDED | REG_NOSUB), 0);
        for (size_t len = 0; len <= 6; len++) {
            size_t total = 1;
            for (size_t k = 0; k < len; k++) total *= na;
            for (size_t code = 0; code < total; code++) {
                char s[8];
                size_t x = code;
                for (size_t k = 0; k < len; k++) { s[k] = alpha[x % na]; x /= na; }
                s[len] = '\0';
                int want = regexec(&re, s, 0, NULL, 0) == 0;
                int got = grammars[g].parse(s, len);
                if (got != want) print_error("%s: \"%s\": got %d want %d\n", grammars[g].name, s, got, want);
                assert_int_equal(got, want);
                accepted += (unsigned long)got;
            }
        }
        regfree(&re);
        assert_true(accepted > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_piece_helpers),
        cmocka_unit_test(test_sin),
        cmocka_unit_test(test_pin_valid),
        cmocka_unit_test(test_all_tokens),
        cmocka_unit_test(test_epin_write_invalid),
        cmocka_unit_test(test_epin_scan),
        cmocka_unit_test(test_hand_key),
        cmocka_unit_test(test_qpi_valid),
        cmocka_unit_test(test_qpi_write_invalid),
        cmocka_unit_test(test_differential),
    };
    return cmocka_run_group_tests_name("atoms", tests, NULL, NULL);
}
