/* tests/unit/test_fid.c — FID: SHA-256 of canonical FEEN, and FID syntax. */
#include "unit.h"

#include <stdlib.h>

/* FIDs published by https://tsume.ogi.page/, which names each puzzle by its FID */
static const struct {
    const char *fid, *feen;
} vectors[] = {
    {"0fc44d456c0a418ac6af998e4ac7efee8536d36444f20c007c22f747649d1e0a",
     "3ik^'b2/2+f1+f3/2n5/1N6/8/4I3/8/4K^3 /14f4r3b2n J/j"},
    {"5b42586be8e54f2df0e8289e6bbba4c4a252c5db4ab6506fedb0952bbcb9f1d2",
     "2k^'5/3b1I2/8/8/8/8/8/4K^3 B/16f4n4r2bi J/j"},
    {"145bd7252b41a3a4657a3841695e295802df190d6c492c7c1ec7111b74451322",
     "4k^'b2/3+f1+f2/4I3/8/8/2N5/8/4K^3 /14f4r3b3ni J/j"},
    {"4bcccf6a6593dd49e205747473ada0baef504768fc94b45b726e7d9c7c2cc0e0",
     "3ik^'b2/3+f+f+f2/5n2/8/B7/2I5/8/4K^3 /13f4r3n2b J/j"},
    {"969e68839d72de8ed7dcf58c705873ad5e9b4d99af2d5879cc1a713f07daf61b",
     "5k^'1r/5+f1+f/2I5/8/8/8/8/4K^3 N/14f4b3n3ri J/j"},
    {"981687ee75adedb6a91ae8b8ea81249d34505123422b4330bab2c810350ceb9b",
     "4r3/4k^'3/3f4/8/2B5/8/8/6K^1 IR/15f4n3b2ri J/j"},
    {"adf95c38decb86e80fb8701f8b1990a7262682529d0c72e20faad18559987ba2",
     "N2k^'4/3+f1+f2/8/8/8/8/8/4K^3 NR/14f4b3r2i2n J/j"},
    {"b6c281a8b16504dd5eec941fc0b51db644c7557a794e4321f8d29a56f755199e",
     "5k^'1r/2N2+f1+f/2B5/5I2/8/8/8/4K^3 /14f3b3n3ri J/j"},
    /* computed independently (Python hashlib) */
    {"4cdd98a8991d9a220cfc11d423bd050ceb7de1c080f67e370e3ea5b596277abb",
     "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"},
};

static void test_vectors(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);
    for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++) {
        char out[KOMA_FID_BUF];
        const char *feen = vectors[i].feen;
        memset(out, 'X', sizeof out);
        koma_fid_of(feen, strlen(feen), out);
        assert_string_equal(out, vectors[i].fid);

        koma_error err;
        assert_int_equal(koma_feen_parse(feen, strlen(feen), 0, &pos, &err), 0);
        memset(out, 'X', sizeof out);
        assert_int_equal(koma_position_fid(&pos, out, &err), 0);
        assert_string_equal(out, vectors[i].fid);
        assert_int_equal(koma_fid_parse(vectors[i].fid, KOMA_FID_LEN, &err), 0);
    }
    koma_position_cleanup(&pos);
}

static void test_known_digests(void **state)
{
    (void)state;
    char out[KOMA_FID_BUF];
    koma_fid_of("", 0, out);
    assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    koma_fid_of(NULL, 0, out);
    assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    koma_fid_of("abc", 3, out);
    assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* only the given bytes are hashed */
    koma_fid_of("abcdef", 3, out);
    assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* The same position normalised or not has one FID; a changed marker another. */
static void test_fid_identity(void **state)
{
    (void)state;
    koma_position a, b;
    koma_position_init(&a);
    koma_position_init(&b);
    char fa[KOMA_FID_BUF], fb[KOMA_FID_BUF];
    assert_int_equal(koma_feen_parse(LIT("8/8/8/8/8/8/8/8 PpP/p C/c"), KOMA_FEEN_NORMALISE, &a, NULL), 0);
    assert_int_equal(koma_feen_parse(LIT("8/8/8/8/8/8/8/8 2Pp/p C/c"), 0, &b, NULL), 0);
    assert_int_equal(koma_position_fid(&a, fa, NULL), 0);
    assert_int_equal(koma_position_fid(&b, fb, NULL), 0);
    assert_string_equal(fa, fb);
    assert_int_equal(koma_feen_parse(LIT("8/8/8/8/8/8/8/8 2Pp/p c/C"), 0, &b, NULL), 0);
    assert_int_equal(koma_position_fid(&b, fb, NULL), 0);
    assert_string_not_equal(fa, fb);
    koma_position_cleanup(&a);
    koma_position_cleanup(&b);
}

/* A built position whose FEEN is longer than 4096 bytes still has a FID. */
static void test_long_position(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);
    koma_shape shape = {2, {255, 255, 1}, 65025};
    assert_int_equal(koma_position_reset(&pos, &shape, NULL), 0);
    for (uint32_t i = 0; i < shape.squares; i++)
        pos.board[i] = (koma_piece)(koma_piece_from_letter((char)('A' + i % 26)) |
                                    KOMA_PIECE_ENHANCED | KOMA_PIECE_TERMINAL | KOMA_PIECE_DERIVED);
    pos.style[0] = 'C';
    pos.style[1] = 'c';
    size_t n = koma_feen_write(&pos, NULL, 0);
    assert_int_equal(n, 65025u * 4 + 254 + 6);
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    koma_feen_write(&pos, buf, n + 1);
    char want[KOMA_FID_BUF], got[KOMA_FID_BUF];
    koma_fid_of(buf, n, want);
    assert_int_equal(koma_position_fid(&pos, got, NULL), 0);
    assert_string_equal(got, want);
    free(buf);
    koma_position_cleanup(&pos);
}

static void test_fid_parse(void **state)
{
    (void)state;
    static const char good[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    koma_error err;
    assert_int_equal(koma_fid_parse(good, 64, &err), 0);
    assert_int_equal(koma_fid_parse(good, 64, NULL), 0);

    static const struct {
        const char *s;
        size_t len;
        koma_code code;
        size_t offset;
    } bad[] = {
        {"", 0, KOMA_E_FID_LENGTH, 0},
        {"0123456789abcdef", 16, KOMA_E_FID_LENGTH, 16},
        {good, 63, KOMA_E_FID_LENGTH, 63},
        {"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0", 65,
         KOMA_E_FID_LENGTH, 64},
        {"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef", 64,
         KOMA_E_FID_CHAR, 10},
        {"0123456789abcdeg0123456789abcdef0123456789abcdef0123456789abcdef", 64,
         KOMA_E_FID_CHAR, 15},
        {"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde ", 64,
         KOMA_E_FID_CHAR, 63},
        {"x", 1, KOMA_E_FID_CHAR, 0},
        {"abc\n", 4, KOMA_E_FID_CHAR, 3},
        {"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefXYZ", 67,
         KOMA_E_FID_LENGTH, 64},
        {"0123\x00" "56789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", 64,
         KOMA_E_FID_CHAR, 4},
        {"0123\xc3\xa9" "6789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", 64,
         KOMA_E_FID_CHAR, 4},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        koma_error_clear(&err);
        assert_int_equal(koma_fid_parse(bad[i].s, bad[i].len, &err), -1);
        if (err.code != bad[i].code || err.offset != bad[i].offset)
            print_error("case %zu: got %s at %zu\n", i, koma_code_name(err.code), err.offset);
        assert_int_equal(err.code, bad[i].code);
        assert_int_equal(err.offset, bad[i].offset);
        assert_int_equal(err.column, bad[i].offset + 1);
        assert_int_equal(err.line, 1);
        for (const char *p = err.message; *p; p++) assert_true(*p >= 0x20 && *p < 0x7f);
        assert_int_equal(koma_fid_parse(bad[i].s, bad[i].len, NULL), -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_known_digests),
        cmocka_unit_test(test_fid_identity),
        cmocka_unit_test(test_long_position),
        cmocka_unit_test(test_fid_parse),
    };
    return cmocka_run_group_tests_name("fid", tests, NULL, NULL);
}
