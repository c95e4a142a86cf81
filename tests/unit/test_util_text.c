/* tests/unit/test_util_text.c — the helpers the format modules share (lib/util_text.c):
 * output buffers (appending, lines with a prefix, printf past the small stack
 * buffer), UTF-8 validation (each kind of invalid sequence found at its byte),
 * CP932 <-> UTF-8 through iconv (a byte or character the other side cannot hold
 * found at its offset, an encoding iconv does not know, input larger than one
 * growth of the buffer), searching, located errors, and koma_quote's text. */
#include <stdlib.h>

#include "unit.h"
#include "format_internal.h"

static void test_buffers(void **state)
{
    (void)state;
    koma_buffer b = {0};
    koma_error err;
    assert_int_equal(koma__buf_put(&b, "", 0, &err), 0);
    assert_non_null(b.data);
    assert_string_equal(b.data, "");
    assert_int_equal(koma__buf_puts(&b, "ab", &err), 0);
    assert_int_equal(koma__buf_put(&b, "cdef", 2, &err), 0);
    assert_string_equal(b.data, "abcd");
    assert_int_equal(b.len, 4);
    /* growth keeps what was there, always NUL-terminated */
    char big[5000];
    memset(big, 'x', sizeof big);
    assert_int_equal(koma__buf_put(&b, big, sizeof big, &err), 0);
    assert_int_equal(b.len, 4 + sizeof big);
    assert_true(b.cap > b.len);
    assert_memory_equal(b.data, "abcdxxx", 7);
    assert_int_equal(b.data[b.len], '\0');

    b.len = 0;
    assert_int_equal(koma__buf_lines(&b, "# ", "one\ntwo", &err), 0);
    assert_string_equal(b.data, "# one\n# two\n");
    b.len = 0;
    assert_int_equal(koma__buf_lines(&b, "*", "end\n", &err), 0);   /* a last empty line too */
    assert_string_equal(b.data, "*end\n*\n");
    koma_buffer_cleanup(&b);
}

static void test_printf(void **state)
{
    (void)state;
    koma_buffer b = {0};
    koma_error err;
    assert_int_equal(koma__buf_printf(&b, &err, "%d-%s", 42, "x"), 0);
    assert_string_equal(b.data, "42-x");
    /* 255, 256 and 1000 characters: the stack buffer holds 255 and its NUL */
    static const size_t lens[] = {255, 256, 1000};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        char want[1100];
        memset(want, 'a' + (int)k, lens[k]);
        want[lens[k]] = '\0';
        b.len = 0;
        assert_int_equal(koma__buf_printf(&b, &err, "[%s]", want), 0);
        assert_int_equal(b.len, lens[k] + 2);
        assert_int_equal(b.data[0], '[');
        assert_memory_equal(b.data + 1, want, lens[k]);
        assert_string_equal(b.data + 1 + lens[k], "]");
    }
    /* appended, not overwritten */
    assert_int_equal(koma__buf_printf(&b, &err, "%s", "!"), 0);
    assert_int_equal(b.len, 1003);
    assert_int_equal(b.data[1002], '!');
    koma_buffer_cleanup(&b);
}

static void expect_utf8(const char *s, size_t len, int valid, size_t bad_at)
{
    size_t bad = 12345;
    int v = koma__utf8_valid(s, len, &bad);
    if (v != valid) fail_msg("utf8_valid(\"%.*s\") = %d", (int)len, s, v);
    if (!valid && bad != bad_at) fail_msg("utf8_valid(\"%.*s\"): bad at %zu, not %zu", (int)len, s, bad, bad_at);
    if (valid) assert_int_equal(bad, 12345);   /* untouched */
}

static void test_utf8(void **state)
{
    (void)state;
    expect_utf8(LIT(""), 1, 0);
    expect_utf8(LIT("plain"), 1, 0);
    expect_utf8(LIT("\xc2\x80 \xdf\xbf \xe0\xa0\x80 \xef\xbf\xbf \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf"), 1, 0);
    expect_utf8(LIT("\xe5\xb0\x86\xe6\xa3\x8b"), 1, 0);    /* 将棋 */
    expect_utf8(LIT("ab\x80"), 0, 2);                       /* a continuation byte alone */
    expect_utf8(LIT("a\xc0\x80"), 0, 1);                    /* overlong NUL */
    expect_utf8(LIT("a\xc1\xbf"), 0, 1);
    expect_utf8(LIT("ab\xe0\x9f\xbf"), 0, 2);               /* overlong, three bytes */
    expect_utf8(LIT("\xf0\x8f\xbf\xbf"), 0, 0);             /* overlong, four bytes */
    expect_utf8(LIT("x\xed\xa0\x80"), 0, 1);                /* a surrogate */
    expect_utf8(LIT("x\xed\xbf\xbf"), 0, 1);
    expect_utf8(LIT("\xf4\x90\x80\x80"), 0, 0);             /* past U+10FFFF */
    expect_utf8(LIT("\xf5\x80\x80\x80"), 0, 0);
    expect_utf8(LIT("\xff"), 0, 0);
    expect_utf8(LIT("ok\xe5\xb0"), 0, 2);                   /* cut at the end */
    expect_utf8(LIT("ok\xe5\xb0x"), 0, 2);                  /* a bad continuation */
    expect_utf8("a\0b", 3, 1, 0);                           /* NUL is valid UTF-8 */
    assert_int_equal(koma__utf8_valid(LIT("\xff"), NULL), 0);
}

/* The reference: each sequence decoded, then its code point checked. */
static int utf8_decoded(const unsigned char *p, size_t len, size_t *bad)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i], min, n;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) n = 1, min = 0x80;
        else if (c >= 0xe0 && c <= 0xef) n = 2, min = 0x800;
        else if (c >= 0xf0 && c <= 0xf4) n = 3, min = 0x10000;
        else break;
        if (len - i <= n) break;
        unsigned cp = c & (0x3fu >> n), k;
        for (k = 1; k <= n && (p[i + k] & 0xc0) == 0x80; k++) cp = (cp << 6) | (p[i + k] & 0x3f);
        if (k <= n || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) break;
        i += n + 1;
    }
    *bad = i;
    return i == len;
}

/* koma__utf8_valid (byte ranges, ASCII by words) against the reference on random
 * texts: ASCII runs, sequences of each length, and their bytes spoilt at random. */
static void test_utf8_random(void **state)
{
    (void)state;
    unsigned long long seed = 20261129ull;
    static const char *const pieces[] = {"a", "plain ascii text", "\xc3\xa9", "\xe5\xb0\x86", "\xed\x9f\xbf", "\xee\x80\x80",
                                         "\xf0\x9f\x80\x84", "\xf4\x8f\xbf\xbf", "\n", "\x7f"};
    unsigned long invalid = 0;
    for (int t = 0; t < 200000; t++) {
        unsigned char buf[64];
        size_t len = 0;
        while (len < 40) {
            const char *q = pieces[rnd_next(&seed, sizeof pieces / sizeof pieces[0])];
            size_t n = strlen(q);
            memcpy(buf + len, q, n);
            len += n;
        }
        len -= rnd_next(&seed, 4);
        for (unsigned k = rnd_next(&seed, 3); k > 0; k--) buf[rnd_next(&seed, (unsigned)len)] = (unsigned char)rnd_next(&seed, 256);
        size_t want_bad = 0, bad = 99;
        int want = utf8_decoded(buf, len, &want_bad), got = koma__utf8_valid((const char *)buf, len, &bad);
        if (got != want || (!want && bad != want_bad))
            fail_msg("utf8_valid of %zu bytes: %d at %zu, the reference %d at %zu", len, got, bad, want, want_bad);
        invalid += !want;
    }
    assert_true(invalid > 50000 && invalid < 150000);
}

static void test_iconv(void **state)
{
    (void)state;
    koma_buffer out = {0};
    size_t bad = 99;
    /* 将棋 in CP932, after what out already held */
    assert_int_equal(koma__buf_puts(&out, ">", NULL), 0);
    assert_int_equal(koma__to_utf8("CP932", LIT("\x8f\xab\x8a\xfb"), &out, &bad), 0);
    assert_string_equal(out.data, ">\xe5\xb0\x86\xe6\xa3\x8b");
    out.len = 0;
    assert_int_equal(koma__from_utf8("CP932", LIT("a\xe5\xb0\x86\xe6\xa3\x8b"), &out, &bad), 0);
    assert_int_equal(out.len, 5);
    assert_memory_equal(out.data, "a\x8f\xab\x8a\xfb", 5);
    koma_buffer_cleanup(&out);

    /* nothing to convert: an empty string, not NULL */
    assert_int_equal(koma__to_utf8("CP932", "", 0, &out, &bad), 0);
    assert_non_null(out.data);
    assert_string_equal(out.data, "");
    koma_buffer_cleanup(&out);

    /* a lead byte with no trail byte: found at its offset */
    bad = 99;
    assert_int_equal(koma__to_utf8("CP932", LIT("ab\x8f"), &out, &bad), -1);
    assert_int_equal(bad, 2);
    /* a character CP932 cannot hold (U+1F600) */
    out.len = 0;
    bad = 99;
    assert_int_equal(koma__from_utf8("CP932", LIT("\xe6\xa3\x8b\xf0\x9f\x98\x80"), &out, &bad), -1);
    assert_int_equal(bad, 3);
    /* an encoding iconv does not know: -1 at offset 0 */
    bad = 99;
    assert_int_equal(koma__to_utf8("NO-SUCH-ENCODING", LIT("abc"), &out, &bad), -1);
    assert_int_equal(bad, 0);
    koma_buffer_cleanup(&out);

    /* more than one growth of the buffer: every character converted */
    enum { N = 20000 };
    char *sj = malloc(2 * N);
    assert_non_null(sj);
    for (size_t i = 0; i < N; i++) memcpy(sj + 2 * i, "\x8a\xfb", 2);   /* 棋 */
    assert_int_equal(koma__to_utf8("CP932", sj, 2 * N, &out, &bad), 0);
    assert_int_equal(out.len, 3 * N);
    for (size_t i = 0; i < N; i++)
        if (memcmp(out.data + 3 * i, "\xe6\xa3\x8b", 3) != 0) fail_msg("character %zu", i);
    assert_int_equal(out.data[out.len], '\0');
    free(sj);
    koma_buffer_cleanup(&out);
}

static void test_contains(void **state)
{
    (void)state;
    assert_true(koma__contains(LIT("{\"moves\":[]}"), "\"moves\""));
    assert_false(koma__contains(LIT("{\"move\":[]}"), "\"moves\""));
    assert_true(koma__contains(LIT("abc"), "abc"));
    assert_false(koma__contains(LIT("ab"), "abc"));
    assert_false(koma__contains("abcd", 3, "cd"));   /* only within len */
    assert_true(koma__contains(LIT("aab"), "ab"));
}

static void test_error_at(void **state)
{
    (void)state;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma__error_at(&err, KOMA_E_CSA_LINE, 7, 3, 120, "bad %s", "line"), -1);
    assert_int_equal(err.code, KOMA_E_CSA_LINE);
    assert_int_equal(err.line, 7);
    assert_int_equal(err.column, 3);
    assert_int_equal(err.offset, 120);
    assert_string_equal(err.message, "bad line");
    assert_int_equal(koma__error_at(NULL, KOMA_E_CSA_LINE, 1, 1, 0, "x"), -1);
}

/* The encodings of the shogi world's text: names, validity, detection (UTF-8,
 * then EUC-JP, then Shift_JIS), decoding. */
static void test_encodings(void **state)
{
    (void)state;
    assert_int_equal(koma__enc_find(LIT("utf8")), KOMA__ENC_UTF8);
    assert_int_equal(koma__enc_find(LIT("windows-31j")), KOMA__ENC_SJIS);
    assert_int_equal(koma__enc_find(LIT("EUCJP-MS")), KOMA__ENC_EUCJP);
    assert_int_equal(koma__enc_find(LIT("utf-16be")), KOMA__ENC_UTF16BE);
    assert_int_equal(koma__enc_find(LIT("UTF-8 ")), KOMA__ENC_NONE);
    assert_string_equal(koma__enc_name(KOMA__ENC_EUCJP), "EUC-JP");
    assert_string_equal(koma__enc_iconv(KOMA__ENC_SJIS), "CP932");
    assert_true(koma__enc_utf16(KOMA__ENC_UTF16) && !koma__enc_utf16(KOMA__ENC_EUCJP));
    size_t bad = 99;
    koma__enc best;
    /* 将棋 in each: ASCII is UTF-8 first */
    assert_int_equal(koma__enc_detect(LIT("abc"), &bad, &best), KOMA__ENC_UTF8);
    assert_int_equal(koma__enc_detect(LIT("\xe5\xb0\x86\xe6\xa3\x8b"), &bad, &best), KOMA__ENC_UTF8);
    assert_int_equal(koma__enc_detect(LIT("\xbe\xad\xb4\xfd"), &bad, &best), KOMA__ENC_EUCJP);
    assert_int_equal(koma__enc_detect(LIT("\x8f\xab\x8a\xfb"), &bad, &best), KOMA__ENC_SJIS);
    /* て (Shift_JIS 82 C4) is no EUC-JP */
    assert_int_equal(koma__enc_detect(LIT("\x82\xc4"), &bad, &best), KOMA__ENC_SJIS);
    /* valid in none: the longest valid start */
    assert_int_equal(koma__enc_detect(LIT("abc\xe5\xb0\x86\xff"), &bad, &best), KOMA__ENC_NONE);
    assert_int_equal(bad, 6);
    assert_int_equal(best, KOMA__ENC_UTF8);
    assert_false(koma__enc_valid(KOMA__ENC_EUCJP, LIT("ab\x82\xc4"), &bad));
    assert_int_equal(bad, 2);
    koma_buffer out = {0};
    const char *t;
    size_t tl;
    assert_int_equal(koma__enc_decode(KOMA__ENC_EUCJP, LIT("\xbe\xad\xb4\xfd"), &out, &t, &tl, &bad), 0);
    assert_int_equal(tl, 6);
    assert_memory_equal(t, "\xe5\xb0\x86\xe6\xa3\x8b", 6);
    assert_int_equal(koma__enc_decode(KOMA__ENC_UTF8, LIT("ok"), &out, &t, &tl, &bad), 0);
    assert_memory_equal(t, "ok", 2);
    assert_int_equal(koma__enc_decode(KOMA__ENC_UTF8, LIT("o\xff"), &out, &t, &tl, &bad), -1);
    assert_int_equal(bad, 1);
    koma_buffer_cleanup(&out);
}

static void expect_quote(const char *s, size_t len, size_t cap, const char *want)
{
    char buf[128];
    assert_true(cap <= sizeof buf);
    size_t n = koma_quote(buf, cap, s, len);
    if (strcmp(buf, want) != 0) fail_msg("koma_quote: \"%s\", not \"%s\"", buf, want);
    assert_int_equal(n, strlen(want));
}

/* koma_quote (lib/error.c): valid UTF-8 as text; invalid bytes, controls,
 * line separators and direction marks as \xNN; quotes and backslashes escaped;
 * truncation never inside a character. */
static void test_quote(void **state)
{
    (void)state;
    expect_quote(LIT("7g7f"), 64, "7g7f");
    expect_quote(LIT("\xe5\xbe\x8c\xe6\x89\x8b\xe3\x81\xae\xe5\x8b\x9d\xe3\x81\xa1"), 64,
                 "\xe5\xbe\x8c\xe6\x89\x8b\xe3\x81\xae\xe5\x8b\x9d\xe3\x81\xa1");   /* 後手の勝ち */
    expect_quote(LIT("a\"b\\c"), 64, "a\\\"b\\\\c");
    expect_quote(LIT("\t\n\x7f"), 64, "\\x09\\x0a\\x7f");
    expect_quote(LIT("\xc2\x85"), 64, "\\xc2\\x85");                 /* C1: NEL */
    expect_quote(LIT("\xc3\xa9"), 64, "\xc3\xa9");                     /* é */
    expect_quote(LIT("x\xe2\x80\xa8y"), 64, "x\\xe2\\x80\\xa8y");     /* U+2028 */
    expect_quote(LIT("\xe2\x80\xae"), 64, "\\xe2\\x80\\xae");          /* U+202E */
    expect_quote(LIT("\xe2\x81\xa6"), 64, "\\xe2\\x81\\xa6");          /* U+2066 */
    expect_quote(LIT("\xef\xbb\xbf{"), 64, "\\xef\\xbb\\xbf{");         /* a byte order mark */
    expect_quote(LIT("\x8e\xe8"), 64, "\\x8e\\xe8");                   /* Shift_JIS bytes */
    expect_quote(LIT("\xe5\xbe"), 64, "\\xe5\\xbe");                   /* cut short */
    expect_quote(LIT("\xed\xa0\x80"), 64, "\\xed\\xa0\\x80");          /* a surrogate */
    expect_quote(LIT("\xf0\x9f\x98\x80"), 64, "\xf0\x9f\x98\x80");      /* U+1F600 */
    /* room for "..." and the NUL: a character fits whole or not at all */
    expect_quote(LIT("ab\xe5\xbe\x8c"), 8, "ab...");
    expect_quote(LIT("ab\xe5\xbe\x8c"), 9, "ab\xe5\xbe\x8c");
    expect_quote(LIT("ab\xe5\xbe\x8c" "c"), 9, "ab\xe5\xbe\x8c...");
    expect_quote(LIT("abc"), 1, "");
    char one[1];
    assert_int_equal(koma_quote(one, 0, "abc", 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffers),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_utf8_random),
        cmocka_unit_test(test_iconv),
        cmocka_unit_test(test_contains),
        cmocka_unit_test(test_error_at),
        cmocka_unit_test(test_quote),
        cmocka_unit_test(test_encodings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
