/* tests/unit/test_fid.c — FID: SHA-256 of canonical FEEN, and FID syntax. */
#include "unit.h"

#include <stdlib.h>

/* The FID vectors (published puzzle FIDs, and the Ogi start position hashed
 * independently) are the fid column of tests/spec/feen.tsv, and the FID syntax cases
 * are tests/spec/fid.tsv (test_spec.c). */

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_digests),
        cmocka_unit_test(test_fid_identity),
        cmocka_unit_test(test_long_position),
    };
    return cmocka_run_group_tests_name("fid", tests, NULL, NULL);
}
