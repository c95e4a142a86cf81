/* tests/unit/test_koshogi_setup.c — Ko shogi notation: the built-in definition's
 * start is exactly the FEEN koma(7) prints (SUPPORTED GAMES), and that FEEN is the
 * setup the sources agree on: 90 pieces a side (the counts below), each side the
 * other's 180° turn, the files of the first rank as the setup table has them. */
#include "unit.h"

/* the start FEEN, copied by hand from koma(7), SUPPORTED GAMES */
static const char start_10_2[] =
    "atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/"
    "n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/9v9/19/19/19/"
    "19/19/9V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/"
    "ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / K/k";

/* the setup's counts per side, by token (koma-formats(5), GAME DEFINITIONS, Ko shogi) */
static const struct { const char *token; unsigned n; } counts[] = {
    {"K^", 1}, {"I", 1}, {"O", 1}, {"T", 1}, {"T'", 1}, {"M^", 1}, {"D", 1}, {"B^", 1},
    {"F", 1}, {"V", 1}, {"Z", 2}, {"W", 2}, {"G", 2}, {"G'", 2}, {"J", 2}, {"U", 2},
    {"A", 2}, {"Y", 2}, {"Q", 2}, {"Q'", 2}, {"H", 2}, {"A'", 2}, {"N'", 2}, {"R'", 2},
    {"P'", 3}, {"S'", 3}, {"L", 4}, {"X", 4}, {"C", 4}, {"E", 6}, {"P", 6}, {"S", 6},
    {"N", 8}, {"R", 8},
};

static void test_start(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g = koma_game_set_find_id(set, "koshogi", 7);
    assert_non_null(g);
    assert_string_equal(koma_game_start(g), start_10_2);
    assert_int_equal(strlen(start_10_2), 308);

    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(start_10_2, strlen(start_10_2), KOMA_FEEN_STRICT, &pos, &err), 0);
    assert_int_equal(pos.shape.size[0], 19);
    assert_int_equal(pos.shape.size[1], 19);
    assert_ptr_equal(koma_game_set_find_position(set, &pos, &err), g);

    unsigned total[2] = {0, 0}, sum = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        koma_piece p;
        assert_int_equal(koma_epin_parse(counts[i].token, strlen(counts[i].token), &p, &err), 0);
        unsigned n[2] = {0, 0};
        for (uint32_t sq = 0; sq < pos.shape.squares; sq++) {
            if (pos.board[sq] == p) n[0]++;
            if (pos.board[sq] == koma_piece_flip(p)) n[1]++;
        }
        assert_int_equal(n[0], counts[i].n);
        assert_int_equal(n[1], counts[i].n);
        sum += counts[i].n;
    }
    assert_int_equal(sum, 90);
    for (uint32_t sq = 0; sq < pos.shape.squares; sq++) {
        koma_piece p = pos.board[sq], q = pos.board[pos.shape.squares - 1 - sq];
        if (p) total[koma_piece_side(p)]++;
        /* the second player's army is the first player's turned by 180° */
        assert_int_equal(p, q ? koma_piece_flip(q) : 0);
    }
    assert_int_equal(total[0], 90);
    assert_int_equal(total[1], 90);

    /* rank 1 of the first player, files a..s: advance guard, monk, engineer,
     * chief of staff, staff, aide, wrestler, aide de camp, clerk, general, staff
     * officer, aide de camp, wrestler, aide, staff, chief of staff, engineer,
     * priest, advance guard */
    static const char *const rank1[19] = {"A", "T'", "U", "J", "G'", "G", "W", "Z", "I", "K^",
                                          "O", "Z", "W", "G", "G'", "J", "U", "T", "A"};
    for (unsigned f = 0; f < 19; f++) {
        koma_cell c = {2, {(uint8_t)f, 0, 0}};
        uint32_t sq;
        koma_piece p;
        assert_int_equal(koma_shape_square(&pos.shape, &c, &sq, &err), 0);
        assert_int_equal(koma_epin_parse(rank1[f], strlen(rank1[f]), &p, &err), 0);
        assert_int_equal(pos.board[sq], p);
    }
    koma_position_cleanup(&pos);
    koma_game_set_free(set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
