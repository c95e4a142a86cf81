/*
 * tests/unit/test_fmt_notation.c — the one registry of notations and formats
 * (koma/format.h) as a checker: which formats check one item alone
 * (KOMA_FORMAT_CHECK), in which order koma-validate lists them, each one's
 * check on a valid and an invalid item, the NOTATIONs neither read nor written,
 * and the sniffing of FEEN and PMN lines.
 */
#include "unit.h"

static const koma_format *fmt(const char *name)
{
    const koma_format *f = koma_format_find(name, strlen(name));
    assert_non_null(f);
    return f;
}

/* The formats that check, line formats first, as koma-validate --help lists them. */
static void test_order(void **state)
{
    (void)state;
    char got[256] = "";
    for (int lines = 1; lines >= 0; lines--)
        for (size_t i = 0; i < koma_format_count(); i++) {
            const koma_format *f = koma_format_at(i);
            if (!(koma_format_caps(f) & KOMA_FORMAT_CHECK) || koma_format_check_lines(f) != lines) continue;
            strcat(got, koma_format_name(f));
            strcat(got, " ");
        }
    assert_string_equal(got, "feen cell pin epin sin snn qpi fid pmn cgsn ggn pcn ");
}

typedef struct item {
    const char *format, *good, *bad;
    koma_code code;                    /* the bad item's */
} item;

static void test_checks(void **state)
{
    (void)state;
    static const item items[] = {
        {"feen", "k^/K^ / S/s", "k^/K^ S/s", KOMA_E_FEEN_FIELDS},
        {"cell", "e4", "E4", KOMA_E_CELL_START},
        {"pin", "+K^", "KK", KOMA_OK},
        {"epin", "K^'", "", KOMA_OK},
        {"sin", "S", "SS", KOMA_E_SIN_LENGTH},
        {"snn", "Shogi", "", KOMA_OK},
        {"qpi", "S:K^", "S", KOMA_OK},
        {"fid", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "0123", KOMA_OK},
        {"pmn", "e2-e4", "e2-", KOMA_OK},
        {"cgsn", "checkmate", "mate", KOMA_OK},
        {"ggn", "{}", "[", KOMA_OK},
        {"pcn", "{\"setup\":{\"feen\":\"k^/K^ / S/s\"}}", "{\"setup\":1}", KOMA_OK},
    };
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        const koma_format *f = fmt(items[i].format);
        koma_error err;
        assert_true(koma_format_caps(f) & KOMA_FORMAT_CHECK);
        assert_non_null(koma_format_check_title(f));
        if (koma_format_check(f, items[i].good, strlen(items[i].good), &err) != 0)
            print_error("%s: %s: %s\n", items[i].format, items[i].good, err.message);
        assert_int_equal(koma_format_check(f, items[i].good, strlen(items[i].good), &err), 0);
        assert_int_equal(koma_format_check(f, items[i].bad, strlen(items[i].bad), &err), -1);
        if (items[i].code != KOMA_OK) assert_int_equal(err.code, items[i].code);
    }
}

/* The NOTATIONs are only checked: neither read nor written, never detected;
 * a format that does not check says so. */
static void test_notation_only(void **state)
{
    (void)state;
    const char *names[] = {"cell", "pin", "epin", "sin", "snn", "qpi", "cgsn", "ggn"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const koma_format *f = fmt(names[i]);
        assert_int_equal(koma_format_kind_of(f), KOMA_FORMAT_NOTATION);
        assert_int_equal(koma_format_caps(f), KOMA_FORMAT_CHECK);
    }
    int conf;
    assert_null(koma_format_detect(LIT("e4\n"), 1, &conf));
    koma_error err;
    assert_null(koma_format_check_title(fmt("csa")));
    assert_int_equal(koma_format_check(fmt("csa"), LIT("PI"), &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
}

static void test_of_line(void **state)
{
    (void)state;
    assert_ptr_equal(koma_format_of_line(LIT("k^/K^ / S/s")), fmt("feen"));
    assert_ptr_equal(koma_format_of_line(LIT("e2-e4")), fmt("pmn"));
    assert_ptr_equal(koma_format_of_line(LIT("a b c d")), fmt("pmn"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_notation_only),
        cmocka_unit_test(test_of_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
