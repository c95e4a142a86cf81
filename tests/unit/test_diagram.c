/* tests/unit/test_diagram.c — positions as pictures (koma/diagram.h): golden ASCII and
 * Unicode diagrams of every game, the SVG's structure, the `diagram` section of game
 * definitions, errors, and random legal positions of every playable game drawn in
 * every form. (The SVG's look is checked on rendered pixels by tests/pictures/.) */
#include <stdlib.h>
#include "unit.h"

/* ---- helpers --------------------------------------------------------------------- */

static void parse(koma_position *pos, const char *feen)
{
    koma_error err;
    koma_error_clear(&err);
    if (koma_feen_parse(feen, strlen(feen), KOMA_FEEN_NORMALISE, pos, &err) != 0)
        fail_msg("FEEN %s: %s", feen, err.message);
}

typedef struct sink {
    char *s;
    size_t len, cap;
} sink;

static int sink_write(void *ctx, const char *data, size_t len)
{
    sink *k = ctx;
    if (k->len + len + 1 > k->cap) {
        k->cap = (k->len + len + 1) * 2;
        k->s = realloc(k->s, k->cap);
        assert_non_null(k->s);
    }
    memcpy(k->s + k->len, data, len);
    k->len += len;
    k->s[k->len] = '\0';
    return 0;
}

/* Draw a FEEN of a built-in game (found from the FEEN) in a format; the text is
 * the caller's to free. */
static char *draw(koma_diagram_format fmt, const char *feen, const char *last,
                  const char *caption)
{
    koma_position pos;
    koma_position_init(&pos);
    parse(&pos, feen);
    koma_error err;
    koma_error_clear(&err);
    koma_game_set *set;
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g = koma_game_set_find_position(set, &pos, NULL);
    koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
    o.format = fmt;
    if (last) {
        o.last_move = last;
        o.last_move_len = strlen(last);
    }
    if (caption) {
        o.caption = caption;
        o.caption_len = strlen(caption);
    }
    sink k = {NULL, 0, 0};
    if (koma_diagram_write(&pos, g, &o, sink_write, &k, &err) != 0)
        fail_msg("%s: %s: %s", feen, koma_code_name(err.code), err.message);
    koma_game_set_free(set);
    koma_position_cleanup(&pos);
    return k.s ? k.s : calloc(1, 1);
}

static void expect_text(koma_diagram_format fmt, const char *feen, const char *last,
                        const char *caption, const char *want)
{
    char *got = draw(fmt, feen, last, caption);
    if (strcmp(got, want) != 0) {
        print_error("got:\n%s\nwant:\n%s\n", got, want);
        free(got);
        fail();
    }
    free(got);
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* ---- golden text ------------------------------------------------------------------ */

#define OGI_MIDDLE "ln1k^1s1l/1r+I3b1/p1ps4/+ip1p3p/5P1P/P1N1K^N+pL/LB4R1/2SN1S2 2P/5p O/o"
#define SHOGI_7F "lnsgk^gsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGK^GSNL / s/S"
#define MINI "+S1sg1/4k^/Pb2p/3rR/K^G3 /b S/s"
#define OKISAKI "l3k^1qqsl/2sg2g1b1/1r1ppn1p1p/1pp3p3/p4p2p1/6P3/P1P2P3P/NP1PP2PPL/5RS1G1/LSBn1GK^1N1 / Q/q"
#define KOSHOGI "atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/9v9/19/19/19/19/19/9V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / K/k"

static const char shogi_ascii[] =
        "  9  8  7  6  5  4  3  2  1\n"
        "+----------------------------+\n"
        "| l  n  s  g  k^ g  s  n  l  | a  second hand: -\n"
        "| .  r  .  .  .  .  .  b  .  | b\n"
        "| p  p  p  p  p  p  p  p  p  | c\n"
        "| .  .  .  .  .  .  .  .  .  | d\n"
        "| .  .  .  .  .  .  .  .  .  | e\n"
        "| .  .  P  .  .  .  .  .  .  | f\n"
        "| P  P  .  P  P  P  P  P  P  | g\n"
        "| .  B  .  .  .  .  .  R  .  | h\n"
        "| L  N  S  G  K^ G  S  N  L  | i  first hand: -\n"
        "+----------------------------+\n"
        "second to move\n"
        "last move: c3-c4\n";

static const char shogi_unicode[] =
        "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
        "┌───────────────────────────┐\n"
        "│v香v桂v銀v金v王v金v銀v桂v香│一   ☖ hand: -\n"
        "│ ・v飛 ・ ・ ・ ・ ・v角 ・│二\n"
        "│v歩v歩v歩v歩v歩v歩v歩v歩v歩│三\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│四\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│五\n"
        "│ ・ ・ 歩 ・ ・ ・ ・ ・ ・│六\n"
        "│ 歩 歩 ・ 歩 歩 歩 歩 歩 歩│七\n"
        "│ ・ 角 ・ ・ ・ ・ ・ 飛 ・│八\n"
        "│ 香 桂 銀 金 王 金 銀 桂 香│九   ☗ hand: -\n"
        "└───────────────────────────┘\n"
        "☖ to move\n"
        "last move: c3-c4\n";

static const char ogi_ascii[] =
        "ply 40\n"
        "  +-------------------------+\n"
        "8 | l  n  .  k^ .  s  .  l  |   second hand: 5p\n"
        "7 | .  r +I  .  .  .  b  .  |\n"
        "6 | p  .  p  s  .  .  .  .  |\n"
        "5 |+i  p  .  p  .  .  .  p  |\n"
        "4 | .  .  .  .  .  P  .  P  |\n"
        "3 | P  .  N  .  K^ N +p  L  |\n"
        "2 | L  B  .  .  .  .  R  .  |\n"
        "1 | .  .  S  N  .  S  .  .  |   first hand: 2P\n"
        "  +-------------------------+\n"
        "    a  b  c  d  e  f  g  h\n"
        "first to move\n"
        "last move: g4+g3=+p/p\n";

static const char ogi_unicode[] =
        "ply 40\n"
        "   ┌────────────────────────────────────────┐\n"
        "８ │ v香  v桂   ・  v王   ・  v銀   ・  v香 │   ☖ hand: 歩×5\n"
        "７ │  ・  v飛  成姫  ・   ・   ・  v角   ・ │\n"
        "６ │ v歩   ・  v歩  v銀   ・   ・   ・   ・ │\n"
        "５ │v成姫 v歩   ・  v歩   ・   ・   ・  v歩 │\n"
        "４ │  ・   ・   ・   ・   ・   歩   ・   歩 │\n"
        "３ │  歩   ・   桂   ・   王   桂  vと   香 │\n"
        "２ │  香   角   ・   ・   ・   ・   飛   ・ │\n"
        "１ │  ・   ・   銀   桂   ・   銀   ・   ・ │   ☗ hand: 歩×2\n"
        "   └────────────────────────────────────────┘\n"
        "      ａ   ｂ   ｃ   ｄ   ｅ   ｆ   ｇ   ｈ\n"
        "☗ to move\n"
        "last move: g4+g3=+p/p\n";

static const char mini_ascii[] =
        "  5  4  3  2  1\n"
        "+----------------+\n"
        "|+S  .  s  g  .  | a  second hand: b\n"
        "| .  .  .  .  k^ | b\n"
        "| P  b  .  .  p  | c\n"
        "| .  .  .  r  R  | d\n"
        "| K^ G  .  .  .  | e  first hand: -\n"
        "+----------------+\n"
        "first to move\n"
        "last move: d4-d2\n";

static const char mini_unicode[] =
        "  ５ ４ ３ ２ １\n"
        "┌───────────────┐\n"
        "│ 全 ・v銀v金 ・│一   ☖ hand: 角\n"
        "│ ・ ・ ・ ・v王│二\n"
        "│ 歩v角 ・ ・v歩│三\n"
        "│ ・ ・ ・v飛 飛│四\n"
        "│ 王 金 ・ ・ ・│五   ☗ hand: -\n"
        "└───────────────┘\n"
        "☗ to move\n"
        "last move: d4-d2\n";

static const char okisaki_unicode[] =
        "  10 ９ ８ ７ ６ ５ ４ ３ ２ １\n"
        "┌──────────────────────────────┐\n"
        "│v香 ・ ・ ・v王 ・v妃v妃v銀v香│一   ☖ hand: -\n"
        "│ ・ ・v銀v金 ・ ・v金 ・v角 ・│二\n"
        "│ ・v飛 ・v歩v歩v跳 ・v歩 ・v歩│三\n"
        "│ ・v歩v歩 ・ ・ ・v歩 ・ ・ ・│四\n"
        "│v歩 ・ ・ ・ ・v歩 ・ ・v歩 ・│五\n"
        "│ ・ ・ ・ ・ ・ ・ 歩 ・ ・ ・│六\n"
        "│ 歩 ・ 歩 ・ ・ 歩 ・ ・ ・ 歩│七\n"
        "│ 跳 歩 ・ 歩 歩 ・ ・ 歩 歩 香│八\n"
        "│ ・ ・ ・ ・ ・ 飛 銀 ・ 金 ・│九\n"
        "│ 香 銀 角v跳 ・ 金 王 ・ 跳 ・│十   ☗ hand: -\n"
        "└──────────────────────────────┘\n"
        "☗ to move\n"
        "last move: c8-c7\n";

static const char koshogi_ascii[] =
        " 19 18 17 16 15 14 13 12 11 10  9  8  7  6  5  4  3  2  1\n"
        "+----------------------------------------------------------+\n"
        "| a  t  u  j  g' g  w  z  o  k^ i  z  w  g  g' j  u  t' a  | a  second hand: -\n"
        "| a' h  .  q' .  q  .  y  b^ m^ d  y  .  q  .  q' .  h  a' | b\n"
        "| e  c  x  l  e  c  x  l  e  f  e  l  x  c  e  l  x  c  e  | c\n"
        "| n' .  n  .  n  .  n  .  n  .  n  .  n  .  n  .  n  .  n' | d\n"
        "| .  p' .  p  .  p  .  p  .  p' .  p  .  p  .  p  .  p' .  | e\n"
        "| r' s' r  s  r  s  r  s  r  s' r  s  r  s  r  s  r  s' r' | f\n"
        "| .  .  .  .  .  .  .  .  .  v  .  .  .  .  .  .  .  .  .  | g\n"
        "| .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  | h\n"
        "| .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  | i\n"
        "| .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  | j\n"
        "| .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  | k\n"
        "| .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  | l\n"
        "| .  .  .  .  .  .  .  .  .  V  .  .  .  .  .  .  .  .  .  | m\n"
        "| R' S' R  S  R  S  R  S  R  S' R  S  R  S  R  S  R  S' R' | n\n"
        "| .  P' .  P  .  P  .  P  .  P' .  P  .  P  .  P  .  P' .  | o\n"
        "| N' .  N  .  N  .  N  .  N  .  N  .  N  .  N  .  N  .  N' | p\n"
        "| E  C  X  L  E  C  X  L  E  F  E  L  X  C  E  L  X  C  E  | q\n"
        "| A' H  .  Q' .  Q  .  Y  D  M^ B^ Y  .  Q  .  Q' .  H  A' | r\n"
        "| A  T' U  J  G' G  W  Z  I  K^ O  Z  W  G  G' J  U  T  A  | s  first hand: -\n"
        "+----------------------------------------------------------+\n"
        "first to move\n";

static const char wrap_unicode[] =
        "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
        "┌───────────────────────────┐\n"
        "│ ・ ・v王 ・ ・ ・ ・ ・ ・│一   ☖ hand: 金×4 銀×4 桂×4 香×4 歩×18 と\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│二\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│三\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│四\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│五\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│六\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│七\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・│八\n"
        "│ ・ ・ ・ ・ 王 ・ ・ ・ ・│九   ☗ hand: 飛×2 角×2 金×4 銀×4 桂×4 香×4 歩×18 と\n"
        "└───────────────────────────┘\n"
        "☗ to move\n";

static const char line_ascii[] =
        "  +-------------+\n"
        "1 | k^ .  .  K^ |   second hand: p\n"
        "  +-------------+\n"
        "                    first hand: P\n"
        "    a  b  c  d\n"
        "second to move\n";

static const char koshogi_hands[] =
        "  19 18 17 16 15 14 13 12 11 10 ９ ８ ７ ６ ５ ４ ３ ２ １\n"
        "┌─────────────────────────────────────────────────────────┐\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・v将 ・ ・ ・ ・ ・ ・ ・ ・ ・│一     ☖ hand: 中軍 旗 歩総\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│二\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│三\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│四\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│五\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│六\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│七\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│八\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│九\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十一\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十二\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十三\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十四\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十五\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十六   ☗ hand: 鼓 記室 参謀 親兵 力士 舎人 舎餘 軍吏\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十七           軍匠 高道 神僧 前衛 後衛 護兵 千総 把総\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・ ・│十八           百総 仏狼機 象 弓 弩 砲 馬兵 歩兵×3 車×2\n"
        "│ ・ ・ ・ ・ ・ ・ ・ ・ ・ 将 ・ ・ ・ ・ ・ ・ ・ ・ ・│十九           先鋒\n"
        "└─────────────────────────────────────────────────────────┘\n"
        "☗ to move\n";

static void test_golden(void **state)
{
    (void)state;
    expect_text(KOMA_DIAGRAM_ASCII, SHOGI_7F, "c3-c4", NULL, shogi_ascii);
    expect_text(KOMA_DIAGRAM_UNICODE, SHOGI_7F, "c3-c4", NULL, shogi_unicode);
    expect_text(KOMA_DIAGRAM_ASCII, OGI_MIDDLE, "g4+g3=+p/p", "ply 40", ogi_ascii);
    expect_text(KOMA_DIAGRAM_UNICODE, OGI_MIDDLE, "g4+g3=+p/p", "ply 40", ogi_unicode);
    expect_text(KOMA_DIAGRAM_ASCII, MINI, "d4-d2", NULL, mini_ascii);
    expect_text(KOMA_DIAGRAM_UNICODE, MINI, "d4-d2", NULL, mini_unicode);
    expect_text(KOMA_DIAGRAM_UNICODE, OKISAKI, "c8-c7", NULL, okisaki_unicode);
    expect_text(KOMA_DIAGRAM_ASCII, KOSHOGI, NULL, NULL, koshogi_ascii);
    /* hands wrap onto the next rows; more lines than ranks follow the board */
    expect_text(KOMA_DIAGRAM_UNICODE,
                "9k^9/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/9K^9 "
                "3P2RAA'CDEFGG'HIJLNOQQ'TT'UVWXYZ/+pm^b^ K/k", NULL, NULL, koshogi_hands);
    expect_text(KOMA_DIAGRAM_UNICODE,
                "2k^6/9/9/9/9/9/9/9/4K^4 2R2B4G4S4N4L18P+P/4g4s4n4l18p+P S/s", NULL, NULL,
                wrap_unicode);
    expect_text(KOMA_DIAGRAM_ASCII, "k^2K^ P/p s/S", NULL, NULL, line_ascii);
}

/* The Ko shogi start in Unicode: 19 files of three-character cells, ranks 一..十九. */
static void test_koshogi_unicode(void **state)
{
    (void)state;
    char *t = draw(KOMA_DIAGRAM_UNICODE, KOSHOGI, NULL, NULL);
    assert_non_null(strstr(t, "  19     18     17"));
    assert_non_null(strstr(t, "│ v前衛  v高道  v軍匠  v軍吏  v舎餘  v舎人  v力士  v親兵  v参謀   v将   v記室"));
    assert_non_null(strstr(t, "│   象     砲     弩     弓     象     砲     弩     弓     象   仏狼機   象"));
    assert_non_null(strstr(t, "前衛 │十九   ☗ hand: -\n"));
    assert_int_equal(count(t, "\n"), 1 + 1 + 19 + 1 + 1);
    free(t);
}

/* ---- SVG ---------------------------------------------------------------------------- */

typedef struct tally {
    size_t board[2], kinds[2], promoted;
} tally;

static tally tally_of(const koma_position *pos)
{
    tally t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < pos->shape.squares; i++) {
        koma_piece p = pos->board[i];
        if (p == KOMA_PIECE_NONE) continue;
        t.board[koma_piece_side(p)]++;
        if (p & KOMA_PIECE_ENHANCED) t.promoted++;
    }
    for (int s = 0; s < 2; s++) {
        t.kinds[s] = pos->hands[s].len;
        for (size_t i = 0; i < pos->hands[s].len; i++)
            if (pos->hands[s].items[i].piece & KOMA_PIECE_ENHANCED) t.promoted++;
    }
    return t;
}

/* What every SVG of pos must hold: one pentagon a piece on the board, one a kind
 * in hand, one a side's marker; the second player's turned; promoted ones in red. */
static void check_svg(const char *svg, const koma_position *pos)
{
    tally t = tally_of(pos);
    assert_memory_equal(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44);
    size_t len = strlen(svg);
    assert_true(len > 7 && strcmp(svg + len - 7, "</svg>\n") == 0);
    assert_int_equal(count(svg, "<polygon"), t.board[0] + t.board[1] + t.kinds[0] + t.kinds[1] + 2);
    assert_int_equal(count(svg, "rotate(180"), t.board[1] + t.kinds[1]);
    assert_true(count(svg, "fill=\"#c0272d\">") >= t.promoted);
    assert_int_equal(count(svg, "<svg"), 1);
    assert_int_equal(count(svg, "<g"), count(svg, "</g>"));
    assert_int_equal(count(svg, "<text"), count(svg, "</text>"));
}

/* The ASCII board rows hold one letter a piece. */
static void check_ascii(const char *text, const koma_position *pos)
{
    tally t = tally_of(pos);
    size_t letters = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (end == NULL) end = line + strlen(line);
        const char *a = memchr(line, '|', (size_t)(end - line)), *b = NULL;
        for (const char *c = end; c > line; c--)
            if (c[-1] == '|') { b = c - 1; break; }
        if (a && b && b > a)
            for (const char *c = a; c < b; c++)
                if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')) letters++;
        line = *end ? end + 1 : end;
    }
    assert_int_equal(letters, t.board[0] + t.board[1]);
}

static void test_svg(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);
    parse(&pos, OGI_MIDDLE);
    char *svg = draw(KOMA_DIAGRAM_SVG, OGI_MIDDLE, "g4+g3=+p/p", "ply 40");
    check_svg(svg, &pos);
    /* the title names the game and the position; the caption is drawn */
    assert_non_null(strstr(svg, "<title>Ogi: " OGI_MIDDLE " (last move g4+g3=+p/p)</title>"));
    assert_non_null(strstr(svg, ">ply 40</text>"));
    /* origin and destination shaded */
    assert_int_equal(count(svg, "fill=\"#f6dd9c\""), 1);
    assert_int_equal(count(svg, "fill=\"#f2b44c\""), 1);
    /* kanji from the game definition: 成姫 stacked in two text elements, in red */
    assert_int_equal(count(svg, "fill=\"#c0272d\">成</text>"), 2);
    assert_int_equal(count(svg, "fill=\"#c0272d\">姫</text>"), 2);
    assert_int_equal(count(svg, ">王</text>"), 2);
    /* the counts beside the hands: 5 pawns and 2 */
    assert_int_equal(count(svg, "text-anchor=\"start\">5</text>"), 1);
    assert_int_equal(count(svg, "text-anchor=\"start\">2</text>"), 1);
    assert_int_equal(count(svg, "text-anchor=\"start\">"), 2);
    /* the same bytes every time, and no ids */
    char *again = draw(KOMA_DIAGRAM_SVG, OGI_MIDDLE, "g4+g3=+p/p", "ply 40");
    assert_string_equal(svg, again);
    assert_null(strstr(svg, " id="));
    free(again);
    free(svg);

    /* a drop shades only its destination; Ko shogi's points, with chains */
    svg = draw(KOMA_DIAGRAM_SVG, SHOGI_7F, "P*e5", NULL);
    assert_int_equal(count(svg, "fill=\"#f6dd9c\""), 0);
    assert_int_equal(count(svg, "fill=\"#f2b44c\""), 1);
    assert_int_equal(count(svg, ">歩</text>"), 18);
    assert_int_equal(count(svg, "<circle cx"), 4 + 1);    /* star points, the turn ring */
    free(svg);
    parse(&pos, KOSHOGI);
    svg = draw(KOMA_DIAGRAM_SVG, KOSHOGI, "j7-j8,+j14", NULL);
    check_svg(svg, &pos);
    assert_int_equal(count(svg, "fill=\"#f6dd9c\""), 1);
    assert_int_equal(count(svg, "fill=\"#f2b44c\""), 2);
    assert_int_equal(count(svg, "<circle cx"), 9 + 1);
    assert_int_equal(count(svg, ">仏</text>"), 2);
    assert_non_null(strstr(svg, "<title>Koshogi: "));
    free(svg);
    /* a caption with XML characters is escaped */
    svg = draw(KOMA_DIAGRAM_SVG, MINI, NULL, "a <b> & \"c\"");
    assert_non_null(strstr(svg, ">a &lt;b&gt; &amp; &quot;c&quot;</text>"));
    free(svg);
    koma_position_cleanup(&pos);
}

/* ---- piece names and the `diagram` section ----------------------------------------------- */

static void test_kanji(void **state)
{
    (void)state;
    koma_piece p;
    koma_error err;
#define KANJI(game, epin, want)                                                           \
    do {                                                                                  \
        assert_int_equal(koma_epin_parse(epin, strlen(epin), &p, &err), 0);               \
        const char *k = koma_game_kanji(game_of(game), p);                                \
        if ((want) == NULL) assert_null(k);                                               \
        else assert_string_equal(k, (want) ? (want) : "");                                \
    } while (0)
    KANJI("ogi", "K^", "王");
    KANJI("ogi", "k^'", "玉");
    KANJI("ogi", "+i", "成姫");
    KANJI("ogi", "G", NULL);
    KANJI("shogi", "S'", "銀");       /* a marker shogi does not name */
    KANJI("shogi", "+r", "龍");
    KANJI("okisaki", "+N", "今");
    KANJI("minishogi", "N", NULL);
    KANJI("koshogi", "T", "高道");
    KANJI("koshogi", "t'", "神僧");
    KANJI("koshogi", "+T'", "聖燈");
    KANJI("koshogi", "+F", "神機車");
    KANJI("koshogi", "K^'", "将");
#undef KANJI
    assert_null(koma_game_kanji(NULL, 1));
    assert_null(koma_game_kanji(game_of("shogi"), KOMA_PIECE_NONE));
}

static void load_error(const char *diagram, koma_code code, unsigned long line, unsigned long col)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml, "id: t\nname: T\nstyle: T\nboard: {files: 3, ranks: 3}\n%s\n", diagram);
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    if (koma_game_set_load(set, yaml, strlen(yaml), "t.yaml", NULL, &err) == 0)
        fail_msg("accepted: %s", diagram);
    if (err.code != code || err.line != line || err.column != col)
        print_error("%s: %s %lu:%lu %s\n", diagram, koma_code_name(err.code), err.line, err.column,
                    err.message);
    assert_int_equal(err.code, code);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, col);
    koma_game_set_free(set);
}

static void test_definition(void **state)
{
    (void)state;
    load_error("diagram: {coordinates: chess}", KOMA_E_GAME_FIELD, 5, 24);
    load_error("diagram: {grid: hexes}", KOMA_E_GAME_FIELD, 5, 17);
    load_error("diagram: {colour: red}", KOMA_E_GAME_FIELD, 5, 11);
    load_error("diagram: [shogi]", KOMA_E_GAME_FIELD, 5, 10);
    load_error("diagram: {kanji: [歩]}", KOMA_E_GAME_FIELD, 5, 18);
    load_error("diagram: {kanji: {p: 歩}}", KOMA_E_GAME_PIECE, 5, 19);
    load_error("diagram: {kanji: {\"P''\": 歩}}", KOMA_E_GAME_PIECE, 5, 19);
    load_error("diagram: {kanji: {P: 歩, \"P\": と}}", KOMA_E_GAME_FIELD, 5, 25);   /* libyaml counts characters */
    load_error("diagram: {kanji: {P: 歩兵歩兵}}", KOMA_E_GAME_FIELD, 5, 22);
    load_error("diagram: {kanji: {P: \"\"}}", KOMA_E_GAME_FIELD, 5, 22);
    load_error("diagram: {kanji: {P: \"a\\tb\"}}", KOMA_E_GAME_FIELD, 5, 22);
    load_error("diagram: {kanji: {P: \"\\x85\"}}", KOMA_E_GAME_FIELD, 5, 22);
    load_error("diagram: {kanji: {P: [歩]}}", KOMA_E_GAME_FIELD, 5, 22);

    /* a game of one's own: shogi coordinates, names, and a piece it does not name */
    static const char yaml[] = "id: t\nname: T\nstyle: T\nboard: {files: 3, ranks: 3}\n"
                               "diagram:\n  coordinates: shogi\n  kanji: {K^: 王, Q: 后}\n";
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    assert_int_equal(koma_game_set_load(set, yaml, strlen(yaml), "t.yaml", &g, &err), 0);
    koma_position pos;
    koma_position_init(&pos);
    parse(&pos, "1k^1/1q1/K^Q1 X/ T/t");
    koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
    o.format = KOMA_DIAGRAM_UNICODE;
    char buf[1024];
    size_t len;
    assert_int_equal(koma_diagram_print(&pos, g, &o, buf, sizeof buf, &len, &err), 0);
    assert_string_equal(buf,
                        "  ３ ２ １\n"
                        "┌─────────┐\n"
                        "│ ・v王 ・│一   ☖ hand: -\n"
                        "│ ・v后 ・│二\n"
                        "│ 王 后 ・│三   ☗ hand: X\n"
                        "└─────────┘\n"
                        "☗ to move\n");
    koma_position_cleanup(&pos);
    koma_game_set_free(set);
}

/* Names keyed by QPI (Sanki): each piece named for its side's style, a state
 * marker no promotion, "'" the other side's style; one key serves both sides. */
static void test_styled_names(void **state)
{
    (void)state;
    static const char yaml[] = "id: t\nname: T\nstyle: W\nboard: {files: 3, ranks: 3}\n"
                               "diagram:\n  kanji: {\"W:K^\": \u2654, \"w:k^\": \u265a, \"W:P\": \u2659,\n"
                               "    \"J:K^\": 王, \"J:K^'\": 玉, \"J:F\": 歩, \"C:G^\": 帥, \"c:g^\": 將,\n"
                               "    P: X}\n";
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    if (koma_game_set_load(set, yaml, strlen(yaml), "t.yaml", &g, &err) != 0) fail_msg("%s", err.message);
    koma_position pos;
    koma_position_init(&pos);
    koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
    o.format = KOMA_DIAGRAM_UNICODE;
    char buf[2048];
    size_t len;
    /* chess (W) against Ogi (j): the pawn's '+' is Sanki's double step, not a
     * promotion; the Fu each side holds is Ogi's (the chess side's cannot drop it) */
    parse(&pos, "1k^1/f+P1/K^2 f/f W/j");
    assert_int_equal(koma_diagram_print(&pos, g, &o, buf, sizeof buf, &len, &err), 0);
    assert_string_equal(buf,
                        "   ┌─────────┐\n"
                        "３ │ ・v王 ・│   ☖ hand: 歩\n"
                        "２ │v歩 \u2659  ・│\n"
                        "１ │ \u2654  ・ ・│   ☗ hand: 歩\n"
                        "   └─────────┘\n"
                        "     ａ ｂ ｃ\n"
                        "☗ to move\n");
    /* "'": the other side's style (a chess king in W/j); in J/j Ogi's Jeweled King */
    parse(&pos, "1k^'1/3/K^2 / W/j");
    assert_int_equal(koma_diagram_print(&pos, g, &o, buf, sizeof buf, &len, &err), 0);
    assert_non_null(strstr(buf, "v\u265a"));
    parse(&pos, "1k^'1/3/K^2 / J/j");
    assert_int_equal(koma_diagram_print(&pos, g, &o, buf, sizeof buf, &len, &err), 0);
    assert_non_null(strstr(buf, "v玉"));
    assert_non_null(strstr(buf, " 王"));
    /* Xiongqi (C) against chess (w), and the other way round: each side's own name */
    parse(&pos, "1k^1/3/1G^1 / C/w");
    assert_int_equal(koma_diagram_print(&pos, g, &o, buf, sizeof buf, &len, &err), 0);
    assert_non_null(strstr(buf, "v\u265a"));
    assert_non_null(strstr(buf, " 帥"));
    parse(&pos, "1g^1/3/1K^1 / c/W");
    assert_int_equal(koma_diagram_print(&pos, g, &o, buf, sizeof buf, &len, &err), 0);
    assert_non_null(strstr(buf, "v將"));
    assert_non_null(strstr(buf, " \u2654"));
    /* the name of the EPIN key is for the styles no QPI key names */
    assert_string_equal(koma_game_kanji(g, koma_piece_from_letter('P')), "X");
    assert_null(koma_game_kanji(g, (koma_piece)(koma_piece_from_letter('K') | KOMA_PIECE_TERMINAL)));
    /* SVG: chess figurines and Xiongqi discs upright, in ink */
    o.format = KOMA_DIAGRAM_SVG;
    char *svg = malloc(65536);
    assert_non_null(svg);
    assert_int_equal(koma_diagram_print(&pos, g, &o, svg, 65536, &len, &err), 0);
    assert_null(strstr(svg, "rotate(180"));
    assert_non_null(strstr(svg, "<circle"));
    free(svg);
    koma_position_cleanup(&pos);
    koma_game_set_free(set);
    load_error("diagram: {kanji: {\"W:K^\": a, \"W:K^\": b}}", KOMA_E_GAME_FIELD, 5, 30);
    load_error("diagram: {kanji: {\"W:k^\": a}}", KOMA_E_GAME_PIECE, 5, 19);
}

/* ---- errors and the API's edges ------------------------------------------------------------- */

static int failing_write(void *ctx, const char *data, size_t len)
{
    (void)data;
    (void)len;
    int *calls = ctx;
    return ++*calls >= 3 ? -1 : 0;
}

static void expect_error(const char *feen, const char *last, const char *caption, size_t clen,
                         koma_code code, size_t offset)
{
    koma_position pos;
    koma_position_init(&pos);
    parse(&pos, feen);
    koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
    o.format = KOMA_DIAGRAM_SVG;
    o.last_move = last;
    o.last_move_len = last ? strlen(last) : 0;
    o.caption = caption;
    o.caption_len = clen;
    char buf[16];
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_diagram_print(&pos, NULL, &o, buf, sizeof buf, NULL, &err), -1);
    assert_int_equal(err.code, code);
    assert_int_equal(err.offset, offset);
    koma_position_cleanup(&pos);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("2/2//2/2 / S/s", NULL, NULL, 0, KOMA_E_DIAGRAM_SHAPE, 0);
    expect_error(SHOGI_7F, "c3c4", NULL, 0, KOMA_E_PMN_SYNTAX, 2);
    expect_error(SHOGI_7F, "c3-j4", NULL, 0, KOMA_E_CELL_SHAPE, 3);
    expect_error(SHOGI_7F, "c3-c4,", NULL, 0, KOMA_E_PMN_EMPTY, 6);
    expect_error(SHOGI_7F, "c3-c4,+z1", NULL, 0, KOMA_E_CELL_SHAPE, 7);
    expect_error(SHOGI_7F, "c3-c4,c4+z1", NULL, 0, KOMA_E_PMN_CHAIN_ORDER, 6);
    expect_error(SHOGI_7F, NULL, LIT("two\nlines"), KOMA_E_DIAGRAM_CAPTION, 0);
    expect_error(SHOGI_7F, NULL, LIT("\xe6\xad"), KOMA_E_DIAGRAM_CAPTION, 0);
    expect_error(SHOGI_7F, NULL, LIT("\xc0\xaf"), KOMA_E_DIAGRAM_CAPTION, 0);

    /* a failing writer: io.write, and nothing written after the failure */
    koma_position pos;
    koma_position_init(&pos);
    parse(&pos, SHOGI_7F);
    koma_error err;
    koma_error_clear(&err);
    for (int f = KOMA_DIAGRAM_ASCII; f <= KOMA_DIAGRAM_SVG; f++) {
        koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
        o.format = (koma_diagram_format)f;
        int calls = 0;
        assert_int_equal(koma_diagram_write(&pos, game_of("shogi"), &o, failing_write, &calls, &err), -1);
        assert_int_equal(err.code, KOMA_E_IO_WRITE);
        assert_int_equal(calls, 3);
    }
    /* a buffer too small: snprintf-style, the full length reported */
    char *full = draw(KOMA_DIAGRAM_ASCII, SHOGI_7F, NULL, NULL);
    char small[40];
    size_t len = 0;
    assert_int_equal(koma_diagram_print(&pos, game_of("shogi"), NULL, small, sizeof small, &len, &err), 0);
    assert_int_equal(len, strlen(full));
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, full, sizeof small - 1);
    assert_int_equal(koma_diagram_print(&pos, game_of("shogi"), NULL, NULL, 0, &len, &err), 0);
    assert_int_equal(len, strlen(full));
    free(full);
    koma_position_cleanup(&pos);

    koma_diagram_format f;
    for (int i = KOMA_DIAGRAM_ASCII; i <= KOMA_DIAGRAM_SVG; i++) {
        const char *name = koma_diagram_format_name((koma_diagram_format)i);
        assert_int_equal(koma_diagram_format_from_name(name, strlen(name), &f), 0);
        assert_int_equal(f, i);
    }
    assert_int_equal(koma_diagram_format_from_name(LIT("png"), &f), -1);
    assert_int_equal(koma_diagram_format_from_name(LIT("svgz"), &f), -1);
    assert_null(koma_diagram_format_name((koma_diagram_format)7));
}

/* ---- random positions ----------------------------------------------------------------------- */

static unsigned long rnd(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return *s >> 33;
}

static void draw_all(const koma_position *pos, const koma_game *g, const char *last)
{
    for (int f = KOMA_DIAGRAM_ASCII; f <= KOMA_DIAGRAM_SVG; f++) {
        koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
        o.format = (koma_diagram_format)f;
        o.last_move = last;
        o.last_move_len = last ? strlen(last) : 0;
        sink k = {NULL, 0, 0};
        koma_error err;
        koma_error_clear(&err);
        if (koma_diagram_write(pos, g, &o, sink_write, &k, &err) != 0)
            fail_msg("%s: %s", koma_code_name(err.code), err.message);
        if (f == KOMA_DIAGRAM_SVG) check_svg(k.s, pos);
        if (f == KOMA_DIAGRAM_ASCII) check_ascii(k.s, pos);
        free(k.s);
    }
}

/* Random legal games of every playable game, drawn after every ply in every form. */
static void test_random_games(void **state)
{
    (void)state;
    static const char *const games[] = {"ogi", "ogi-classic", "shogi", "minishogi", "okisaki"};
    koma_position pos;
    koma_position_init(&pos);
    koma_error err;
    for (size_t gi = 0; gi < sizeof games / sizeof games[0]; gi++) {
        const koma_game *g = game_of(games[gi]);
        koma_engine *e;
        assert_int_equal(koma_engine_new(g, &e, &err), 0);
        koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
        assert_non_null(moves);
        for (unsigned long seed = 1; seed <= 4; seed++) {
            unsigned long s = seed * 7919 + gi;
            assert_int_equal(koma_engine_set_start(e, &err), 0);
            for (int ply = 0; ply < 160; ply++) {
                size_t n = koma_engine_legal_moves(e, moves);
                if (n == 0) break;
                koma_emove m = moves[rnd(&s) % n];
                char pmn[KOMA_PMN_BUF];
                koma_engine_move_write(e, m, pmn);
                assert_int_equal(koma_engine_make(e, m, &err), 0);
                assert_int_equal(koma_engine_get_position(e, &pos, &err), 0);
                draw_all(&pos, g, pmn);
            }
        }
        free(moves);
        koma_engine_free(e);
    }
    koma_position_cleanup(&pos);
}

/* Random FEEN-level positions (any token, any hand, any shape up to 19×19 and the
 * 1-D boards), drawn with their game when one fits, else with none. */
static void test_random_positions(void **state)
{
    (void)state;
    static const char letters[] = "KRBGSNLPQITMAHFDEOUVWXYZJC";
    unsigned long s = 12345;
    koma_position pos;
    koma_position_init(&pos);
    koma_game_set *set;
    koma_error err;
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    for (int i = 0; i < 400; i++) {
        unsigned files = 1 + (unsigned)(rnd(&s) % 19), ranks = 1 + (unsigned)(rnd(&s) % 19);
        if (i % 4 == 0) files = ranks = 19;
        char feen[8192];
        size_t n = 0, pieces = 0;
        for (unsigned r = 0; r < ranks; r++) {
            unsigned empty = 0;
            for (unsigned f = 0; f < files; f++) {
                if (rnd(&s) % 3 != 0) { empty++; continue; }
                if (empty) n += (size_t)snprintf(feen + n, sizeof feen - n, "%u", empty);
                empty = 0;
                unsigned long v = rnd(&s);
                if (v % 5 == 0) feen[n++] = (v / 5) % 2 ? '+' : '-';
                char c = letters[(v / 10) % 26];
                feen[n++] = (v / 260) % 2 ? (char)(c - 'A' + 'a') : c;
                if ((v / 520) % 6 == 0) feen[n++] = '^';
                if ((v / 3120) % 5 == 0) feen[n++] = '\'';
                pieces++;
            }
            if (empty) n += (size_t)snprintf(feen + n, sizeof feen - n, "%u", empty);
            if (r + 1 < ranks) feen[n++] = '/';
        }
        feen[n++] = ' ';
        for (int side = 0; side < 2; side++) {
            unsigned kinds = (unsigned)(rnd(&s) % 8);
            for (unsigned k = 0; k < kinds && pieces < (size_t)files * ranks; k++) {
                unsigned long v = rnd(&s);
                unsigned cnt = 1 + (unsigned)(v % 3);
                if (pieces + cnt > (size_t)files * ranks) cnt = 1;
                pieces += cnt;
                if (cnt > 1) feen[n++] = (char)('0' + cnt);
                if (v % 4 == 0) feen[n++] = '+';
                char c = letters[(v / 4) % 26];
                feen[n++] = side ? (char)(c - 'A' + 'a') : c;
            }
            if (side == 0) feen[n++] = '/';
        }
        const char *styles[] = {" S/s", " K/k", " O/o", " q/Q"};
        n += (size_t)snprintf(feen + n, sizeof feen - n, "%s", styles[rnd(&s) % 4]);
        koma_error_clear(&err);
        if (koma_feen_parse(feen, n, KOMA_FEEN_NORMALISE, &pos, &err) != 0) {
            /* a hand a FEEN cannot hold (too many pieces, a state in hand): skip */
            continue;
        }
        const koma_game *g = koma_game_set_find_position(set, &pos, NULL);
        draw_all(&pos, g, NULL);
        draw_all(&pos, NULL, NULL);
    }
    koma_game_set_free(set);
    koma_position_cleanup(&pos);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_koshogi_unicode),
        cmocka_unit_test(test_svg),
        cmocka_unit_test(test_kanji),
        cmocka_unit_test(test_definition),
        cmocka_unit_test(test_styled_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_positions),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
