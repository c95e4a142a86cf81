/* tests/unit/test_game.c — game definitions: built-ins, look-up, YAML errors. */
#include <stdlib.h>
#include "unit.h"

static void test_builtins(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    assert_int_equal(koma_game_set_count(set), 7);
    static const struct {
        const char *id, *name;
        char style;
        unsigned files, ranks;
        int playable;
    } want[] = {
        {"ogi", "Ogi", 'O', 8, 8, 1},
        {"ogi-classic", "Ogi", 'O', 8, 8, 1},
        {"shogi", "Shogi", 'S', 9, 9, 1},
        {"minishogi", "Shogi", 'S', 5, 5, 1},
        {"okisaki", "Okisaki", 'Q', 10, 10, 1},
        {"koshogi", "Koshogi", 'K', 19, 19, 1},
        {"sanki", "Sanki", 'W', 8, 8, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const koma_game *g = koma_game_set_find_id(set, want[i].id, strlen(want[i].id));
        assert_non_null(g);
        assert_string_equal(koma_game_id(g), want[i].id);
        assert_string_equal(koma_game_name(g), want[i].name);
        assert_int_equal(koma_game_style(g), want[i].style);
        assert_int_equal(koma_game_files(g), want[i].files);
        assert_int_equal(koma_game_ranks(g), want[i].ranks);
        assert_int_equal(koma_game_playable(g), want[i].playable);
    }
    assert_null(koma_game_set_find_id(set, "chess", 5));
    assert_string_equal(koma_game_start(koma_game_set_find_id(set, "shogi", 5)),
                        "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s");
    assert_non_null(koma_game_start(koma_game_set_find_id(set, "koshogi", 7)));   /* test_koshogi_setup.c */

    /* by style letter and shape: O 8x8 is ogi (never ogi-classic) */
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'O', 8, 8)), "ogi");
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'o', 8, 8)), "ogi");
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'S', 9, 9)), "shogi");
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 's', 5, 5)), "minishogi");
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'Q', 10, 10)), "okisaki");
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'K', 19, 19)), "koshogi");
    assert_null(koma_game_set_find_style(set, 'S', 8, 8));
    assert_null(koma_game_set_find_style(set, 'X', 8, 8));
    /* Sanki: W, J and C, either side any of them */
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'C', 8, 8)), "sanki");
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'j', 8, 8)), "sanki");
    assert_null(koma_game_set_find_style(set, 'J', 9, 9));

    /* by position */
    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(LIT("rbsgk^/4p/5/P4/K^GSBR / s/S"), 0, &pos, &err), 0);
    assert_string_equal(koma_game_id(koma_game_set_find_position(set, &pos, &err)), "minishogi");
    assert_int_equal(koma_feen_parse(LIT("19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 / K/k"), 0, &pos, &err), 0);
    assert_string_equal(koma_game_id(koma_game_set_find_position(set, &pos, &err)), "koshogi");
    static const char *const sanki[] = {"8/8/8/8/8/8/8/8 / C/c", "8/8/8/8/8/8/8/8 / W/j",
                                        "8/8/8/8/8/8/8/8 / j/W", "8/8/8/8/8/8/8/8 / c/J",
                                        "8/8/8/8/8/8/8/8 / C/w"};
    for (size_t i = 0; i < sizeof sanki / sizeof sanki[0]; i++) {
        assert_int_equal(koma_feen_parse(sanki[i], strlen(sanki[i]), 0, &pos, &err), 0);
        assert_string_equal(koma_game_id(koma_game_set_find_position(set, &pos, &err)), "sanki");
    }
    /* a Sanki letter against another game's, and a Sanki pairing on another board */
    static const char *const none[] = {"8/8/8/8/8/8/8/8 / W/o",
                                       "9/9/9/9/9/9/9/9/9 / J/w", "8/8/8/8/8/8/8/8 / X/x"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        assert_int_equal(koma_feen_parse(none[i], strlen(none[i]), 0, &pos, &err), 0);
        assert_null(koma_game_set_find_position(set, &pos, &err));
        assert_int_equal(err.code, KOMA_E_GAME_UNKNOWN);
    }
    koma_position_cleanup(&pos);

    /* Ko shogi's engine (the effect engine behind koma/engine.h) starts at the start */
    koma_engine *e;
    assert_int_equal(koma_engine_new(koma_game_set_find_id(set, "koshogi", 7), &e, &err), 0);
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t flen;
    assert_int_equal(koma_engine_feen(e, feen, sizeof feen, &flen, &err), 0);
    assert_string_equal(feen, koma_game_start(koma_game_set_find_id(set, "koshogi", 7)));
    koma_engine_free(e);
    koma_game_set_free(set);
}

static const char minimal[] =
    "id: tiny\n"
    "name: Tiny\n"
    "style: T\n"
    "board: {files: 3, ranks: 3}\n"
    "start: \"k^2/3/2K^ / T/t\"\n"
    "check: true\n"
    "pieces:\n"
    "  - {pin: \"K^\", betza: K, royal: true}\n";

static void test_load(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    assert_int_equal(koma_game_set_load(set, LIT(minimal), "tiny.yaml", &g, &err), 0);
    assert_string_equal(koma_game_id(g), "tiny");
    assert_int_equal(koma_game_set_count(set), 8);
    assert_ptr_equal(koma_game_set_find_style(set, 'T', 3, 3), g);
    koma_engine *e;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    /* kings a3 and c1 on 3x3: the first king c1 has b1 c2 (b2 touches a3's king) */
    uint64_t nodes;
    assert_int_equal(koma_engine_perft(e, 1, &nodes, &err), 0);
    assert_int_equal(nodes, 2);
    assert_int_equal(koma_engine_perft(e, 0, &nodes, &err), 0);
    assert_int_equal(nodes, 1);
    koma_engine_free(e);
    /* loading the same id again is game.duplicate, at the id; the set is unchanged */
    const koma_game *g2 = NULL;
    assert_int_equal(koma_game_set_load(set, LIT(minimal), "again.yaml", &g2, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_DUPLICATE);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 5);
    assert_int_equal(err.offset, 4);
    assert_string_equal(err.source, "again.yaml");
    assert_null(g2);
    assert_int_equal(koma_game_set_count(set), 8);
    assert_ptr_equal(koma_game_set_find_id(set, "tiny", 4), g);
    koma_game_set_free(set);
}

/* A definition with a built-in's id replaces the built-in (--game FILE); the
 * built-in stays valid for whoever holds it; a second such load is an error. */
static const char mini5[] =
    "id: minishogi\n"
    "name: Shogi\n"
    "style: S\n"
    "board: {files: 5, ranks: 5}\n"
    "start: \"4k^/5/5/5/K^4 / S/s\"\n"
    "check: true\n"
    "pieces:\n"
    "  - {pin: \"K^\", betza: K, royal: true}\n";

static void test_replace_builtin(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *old = koma_game_set_find_id(set, "minishogi", 9), *g;
    assert_non_null(old);
    koma_engine *e;
    assert_int_equal(koma_engine_new(old, &e, &err), 0);
    assert_int_equal(koma_game_set_load(set, LIT(mini5), "mini5.yaml", &g, &err), 0);
    assert_true(g != old);
    assert_int_equal(koma_game_set_count(set), 7);
    assert_ptr_equal(koma_game_set_find_id(set, "minishogi", 9), g);
    assert_ptr_equal(koma_game_set_find_style(set, 'S', 5, 5), g);
    assert_string_equal(koma_game_start(g), "4k^/5/5/5/K^4 / S/s");
    /* the engine of the built-in still plays the built-in (14 moves at the start) */
    assert_ptr_equal(koma_engine_game(e), old);
    assert_string_equal(koma_game_start(old), "rbsgk^/4p/5/P4/K^GSBR / S/s");
    uint64_t nodes;
    assert_int_equal(koma_engine_perft(e, 1, &nodes, &err), 0);
    assert_int_equal(nodes, 14);
    koma_engine_free(e);
    /* the replacement is no built-in: loading the id once more is an error */
    assert_int_equal(koma_game_set_load(set, LIT(mini5), "mini5.yaml", NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_DUPLICATE);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 5);
    assert_ptr_equal(koma_game_set_find_id(set, "minishogi", 9), g);
    assert_int_equal(koma_game_set_count(set), 7);
    koma_game_set_free(set);
}

/* A new set compiles a built-in game at its first lookup, once; the index it finds
 * games by before compiling them (written at build) finds what the compiled games
 * would. */
static void test_lazy_builtins(void **state)
{
    (void)state;
    koma_game_set *set, *all;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    assert_int_equal(koma_game_set_new(&all, &err), 0);
    assert_int_equal(koma_game_set_load_all(all, &err), 0);
    const koma_game *g, *again;
    assert_int_equal(koma_game_set_lookup(set, "okisaki", 7, &g, &err), 0);
    assert_non_null(g);
    assert_int_equal(koma_game_set_lookup(set, "okisaki", 7, &again, &err), 0);
    assert_ptr_equal(g, again);
    assert_int_equal(koma_game_set_lookup(set, "nosuch", 6, &g, &err), 0);
    assert_null(g);
    assert_int_equal(koma_game_set_count(set), koma_game_set_count(all));
    for (size_t i = 0; i < koma_game_set_count(all); i++) {
        const koma_game *a = koma_game_set_at(all, i);
        koma_game_set *fresh;
        assert_int_equal(koma_game_set_new(&fresh, &err), 0);
        const koma_game *f = koma_game_set_find_style(fresh, koma_game_style(a), koma_game_files(a),
                                                      koma_game_ranks(a));
        const koma_game *c = koma_game_set_find_style(all, koma_game_style(a), koma_game_files(a),
                                                      koma_game_ranks(a));
        assert_true((f == NULL) == (c == NULL));
        if (f) assert_string_equal(koma_game_id(f), koma_game_id(c));
        /* its start position finds the same game, in a set that compiled nothing */
        koma_position pos;
        koma_position_init(&pos);
        const koma_game *fp = NULL, *cp = NULL;
        koma_error e1, e2;
        koma_error_clear(&e1);
        koma_error_clear(&e2);
        int r1 = koma_game_set_open_feen(fresh, koma_game_start(a), strlen(koma_game_start(a)), &pos,
                                         &fp, &e1);
        int r2 = koma_game_set_open_feen(all, koma_game_start(a), strlen(koma_game_start(a)), &pos,
                                         &cp, &e2);
        assert_int_equal(r1, r2);
        assert_string_equal(e1.message, e2.message);
        if (r1 == 0) assert_string_equal(koma_game_id(fp), koma_game_id(cp));
        assert_string_equal(koma_game_id(koma_game_set_at(fresh, i)), koma_game_id(a));
        koma_position_cleanup(&pos);
        koma_game_set_free(fresh);
    }
    /* a built-in never compiled, replaced by a definition: the definition is found */
    assert_int_equal(koma_game_set_load(set, LIT(mini5), "mini5.yaml", &g, &err), 0);
    assert_ptr_equal(koma_game_set_find_id(set, "minishogi", 9), g);
    assert_ptr_equal(koma_game_set_find_style(set, 'S', 5, 5), g);
    assert_int_equal(koma_game_set_count(set), 7);
    koma_game_set_free(set);
    koma_game_set_free(all);
}

static void expect_load_error(const char *yaml, koma_code code, unsigned long line,
                              unsigned long column)
{
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    int rc = koma_game_set_load(set, yaml, strlen(yaml), "bad.yaml", NULL, &err);
    if (rc == 0 || err.code != code || err.line != line || err.column != column)
        print_error("got %s at %lu:%lu (%s)\n", koma_code_name(err.code), err.line, err.column,
                    err.message);
    assert_int_equal(rc, -1);
    assert_int_equal(err.code, code);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, column);
    assert_string_equal(err.source, "bad.yaml");
    koma_game_set_free(set);
}

static void test_errors(void **state)
{
    (void)state;
    expect_load_error("id: [\n", KOMA_E_GAME_YAML, 2, 1);
    expect_load_error("id: x\nname: X\nstyle: X\n", KOMA_E_GAME_FIELD, 1, 1); /* no board */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\ncolour: red\n",
                      KOMA_E_GAME_FIELD, 5, 1);
    expect_load_error("id: X\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\n",
                      KOMA_E_GAME_FIELD, 1, 5);
    expect_load_error("id: x\nname: x\nstyle: X\nboard: {files: 3, ranks: 3}\n",
                      KOMA_E_SNN_START, 2, 7);
    expect_load_error("id: x\nname: X\nstyle: XY\nboard: {files: 3, ranks: 3}\n",
                      KOMA_E_GAME_FIELD, 3, 8);
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 0, ranks: 3}\n",
                      KOMA_E_GAME_FIELD, 4, 16);
    /* a start that is not the board's shape */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"3/3 / X/x\"\n",
                      KOMA_E_GAME_FIELD, 5, 8);
    /* a bad Betza description, at its node */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
                      "pieces:\n  - {pin: \"K^\", betza: KX, royal: true}\n",
                      KOMA_E_BETZA_SYNTAX, 7, 25);
    /* a start piece the game does not know */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/1P1/2K^ / X/x\"\n"
                      "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n",
                      KOMA_E_RULES_PIECE, 5, 8);
    /* promotes_to an unknown piece */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
                      "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n  - {pin: P, betza: fW, promotes_to: \"+P\"}\n",
                      KOMA_E_GAME_PIECE, 8, 5);
    /* a royal without '^' */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
                      "pieces:\n  - {pin: K, betza: K, royal: true}\n",
                      KOMA_E_GAME_PIECE, 7, 11);
    /* two documents */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\n---\nid: y\n",
                      KOMA_E_GAME_YAML, 6, 1);
    /* royal_capture is no key (a game without check allows capturing a royal) */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
                      "royal_capture: true\npieces:\n  - {pin: \"K^\", betza: K, royal: true}\n",
                      KOMA_E_GAME_FIELD, 6, 1);
    /* termination: only the statuses the rules decide, each once */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
                      "termination: {checkmate: loss, resignation: loss}\n"
                      "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n",
                      KOMA_E_GAME_FIELD, 6, 32);
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
                      "termination:\n  movelimit: draw\n  checkmate: loss\n  movelimit: loss\n"
                      "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n",
                      KOMA_E_GAME_FIELD, 9, 3);
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
                      "termination: {checkmate: lose}\n"
                      "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n",
                      KOMA_E_GAME_FIELD, 6, 26);
}

/* Defeat by survival, termination, promotions and the start, refused at their
 * node; the limits of pieces and of survival sets. */
#define HEAD "id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / X/x\"\n"
#define KING "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n"

static void test_errors_defeat_and_pieces(void **state)
{
    (void)state;
    expect_load_error(HEAD "defeat: {survival: []}\n" KING, KOMA_E_GAME_FIELD, 6, 20);
    expect_load_error(HEAD "defeat: {survival: [[]]}\n" KING, KOMA_E_GAME_FIELD, 6, 21);
    expect_load_error(HEAD "defeat: {survival: [[Q]]}\n" KING, KOMA_E_GAME_PIECE, 6, 22);
    expect_load_error(HEAD "defeat: {survival: [[\"K^\", \"K^\"]]}\n" KING, KOMA_E_GAME_PIECE, 6, 28);
    /* 17 sets (16 at most), 9 pieces in a set (8 at most) */
    char y[4096];
    char *o = y + sprintf(y, "%sdefeat: {survival: [", HEAD);
    for (int i = 0; i < 17; i++) o += sprintf(o, "%s[\"K^\"]", i ? "," : "");
    sprintf(o, "]}\n%s", KING);
    expect_load_error(y, KOMA_E_GAME_LIMIT, 6, 133);
    o = y + sprintf(y, "%sdefeat: {survival: [[\"K^\", A, B, C, D, E, F, G, H]]}\n%s", HEAD, KING);
    for (const char *c = "ABCDEFGH"; *c; c++) o += sprintf(o, "  - {pin: %c, betza: W}\n", *c);
    expect_load_error(y, KOMA_E_GAME_LIMIT, 6, 49);
    /* 32 pieces (31 at most) */
    o = y + sprintf(y, "%s%s", HEAD, KING);
    for (const char *c = "ABCDEFGHIJLMNOPQRSTUVWXYZ"; *c; c++)
        o += sprintf(o, "  - {pin: %c, betza: W}\n  - {pin: \"+%c\", betza: W}\n", *c, *c);
    expect_load_error(y, KOMA_E_GAME_LIMIT, 38, 5);
    expect_load_error(HEAD "termination: 5\n" KING, KOMA_E_GAME_FIELD, 6, 14);
    /* a promoted piece that promotes; a promoted piece whose base is not in the game */
    expect_load_error(HEAD KING "  - {pin: \"+P\", betza: K, promotes_to: R}\n  - {pin: R, betza: R}\n"
                      "  - {pin: P, betza: fW, promotes_to: \"+P\"}\n", KOMA_E_GAME_PIECE, 8, 5);
    expect_load_error(HEAD KING "  - {pin: \"+Q\", betza: K}\n", KOMA_E_GAME_PIECE, 8, 5);
    /* a start in other styles */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nstart: \"k^2/3/2K^ / Y/y\"\n" KING,
                      KOMA_E_GAME_FIELD, 5, 8);
}
#undef HEAD
#undef KING

/* Rule options: the games without them, Ko shogi's with their defaults, and
 * variants, the same settings giving the same variant. */
static size_t option_index(const koma_game *g, const char *name)
{
    for (size_t i = 0; i < koma_game_option_count(g); i++)
        if (strcmp(koma_game_option_name(g, i), name) == 0) return i;
    fail_msg("no option %s", name);
    return 0;
}

static void test_variants(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *shogi = koma_game_set_find_id(set, LIT("shogi")), *ko = koma_game_set_find_id(set, LIT("koshogi"));
    assert_non_null(shogi);
    assert_non_null(ko);
    const koma_game *v;
    assert_int_equal(koma_game_option_count(shogi), 0);
    assert_null(koma_game_option_name(shogi, 0));
    assert_null(koma_game_option_value(shogi, 0));
    assert_int_equal(koma_game_set_variant(set, shogi, NULL, 0, &v, &err), 0);
    assert_ptr_equal(v, shogi);
    static const char *const gat5[] = {"gatling.range=5"};
    assert_int_equal(koma_game_set_variant(set, shogi, gat5, 1, &v, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_OPTION_UNKNOWN);
    assert_string_equal(err.message, "game shogi has no rule options");

    size_t n = koma_game_option_count(ko);
    assert_true(n > 20);
    assert_null(koma_game_option_name(ko, n));
    assert_null(koma_game_option_value(ko, n));
    size_t gi = option_index(ko, "gatling.range");
    assert_string_equal(koma_game_option_value(ko, gi), "7");
    assert_string_equal(koma_game_option_value(ko, option_index(ko, "setup")), "consensus");
    const koma_game *v5;
    assert_int_equal(koma_game_set_variant(set, ko, gat5, 1, &v5, &err), 0);
    assert_ptr_not_equal(v5, ko);
    assert_string_equal(koma_game_id(v5), "koshogi");
    assert_string_equal(koma_game_option_value(v5, gi), "5");
    assert_string_equal(koma_game_option_value(ko, gi), "7");      /* the game is unchanged */
    /* more variants than the set first makes room for; the first found again */
    static const char *const others[][1] = {{"shoot.when=in-place"}, {"shoot.when=both"},
                                            {"fog.revert=line-5-clear"}, {"thunderclap.path=any"},
                                            {"tiger-wing=double-ferz"}};
    const koma_game *vs[5];
    for (size_t i = 0; i < 5; i++) {
        if (koma_game_set_variant(set, ko, others[i], 1, &vs[i], &err) != 0) fail_msg("%s: %s", others[i][0], err.message);
        assert_ptr_not_equal(vs[i], v5);
        for (size_t j = 0; j < i; j++) assert_ptr_not_equal(vs[i], vs[j]);
    }
    assert_int_equal(koma_game_set_variant(set, ko, gat5, 1, &v, &err), 0);
    assert_ptr_equal(v, v5);
    assert_int_equal(koma_game_set_variant(set, ko, others[3], 1, &v, &err), 0);
    assert_ptr_equal(v, vs[3]);
    assert_ptr_equal(koma_game_set_find_id(set, LIT("koshogi")), ko);   /* variants are not found by id */
    /* refused settings */
    static const char *const unknown[] = {"gatling.ranges=5"}, *const value[] = {"gatling.range=6"},
                             *const unsupported[] = {"hand=shogi"};
    assert_int_equal(koma_game_set_variant(set, ko, unknown, 1, &v, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_OPTION_UNKNOWN);
    assert_int_equal(koma_game_set_variant(set, ko, value, 1, &v, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_OPTION_VALUE);
    assert_int_equal(koma_game_set_variant(set, ko, unsupported, 1, &v, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_OPTION_UNSUPPORTED);
    koma_game_set_free(set);
}

/* As expect_load_error, and the exact message. */
static void expect_load_message(const char *yaml, size_t len, koma_code code, unsigned long line,
                                unsigned long column, const char *message)
{
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    int rc = koma_game_set_load(set, yaml, len, "bad.yaml", NULL, &err);
    if (rc == 0 || err.code != code || err.line != line || err.column != column ||
        strcmp(err.message, message) != 0)
        print_error("got %s at %lu:%lu (%s)\n", koma_code_name(err.code), err.line, err.column,
                    err.message);
    assert_int_equal(rc, -1);
    assert_int_equal(err.code, code);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, column);
    assert_string_equal(err.source, "bad.yaml");
    assert_string_equal(err.message, message);
    assert_int_equal(koma_game_set_count(set), 7);
    koma_game_set_free(set);
}

#define HEAD "id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\n"
#define KING "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n"

/* Definitions the fuzz_game harness found wrongly accepted or wrongly reported
 * (tests/fuzz/corpus/game keeps the inputs). */
/* by_feen: false keeps a game out of the lookup by FEEN (ogi-classic, loaded
 * before ogi: its file name sorts first), not out of the lookup by id. */
static void test_by_feen(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    assert_string_equal(koma_game_id(koma_game_set_find_style(set, 'O', 8, 8)), "ogi");
    assert_non_null(koma_game_set_find_id(set, "ogi-classic", 11));
    static const char hidden[] = "id: hidden\nname: Hidden\nstyle: H\nby_feen: false\n"
                                 "board: {files: 3, ranks: 3}\n";
    const koma_game *g;
    assert_int_equal(koma_game_set_load(set, LIT(hidden), "hidden.yaml", &g, &err), 0);
    assert_null(koma_game_set_find_style(set, 'H', 3, 3));
    assert_ptr_equal(koma_game_set_find_id(set, "hidden", 6), g);
    static const char shown[] = "id: shown\nname: Shown\nstyle: H\nby_feen: true\n"
                                "board: {files: 3, ranks: 3}\n";
    assert_int_equal(koma_game_set_load(set, LIT(shown), "shown.yaml", &g, &err), 0);
    assert_ptr_equal(koma_game_set_find_style(set, 'H', 3, 3), g);
    static const char bad[] = "id: bad\nname: Bad\nstyle: B\nby_feen: maybe\n"
                              "board: {files: 3, ranks: 3}\n";
    assert_int_equal(koma_game_set_load(set, LIT(bad), "bad.yaml", &g, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_FIELD);
    assert_int_equal(err.line, 4);
    koma_game_set_free(set);
}

static void test_errors_found_by_fuzzing(void **state)
{
    (void)state;
    /* A start position the engine refuses was accepted, and `--game FILE` then
     * failed to make an engine: a hand piece the game does not have, a hand
     * piece of the other side's case, two royals a side with the check rule. */
    expect_load_message(LIT(HEAD "start: \"k^2/3/2K^ X/ X/x\"\n" KING), KOMA_E_RULES_PIECE, 5, 8,
                        "start position: \"X\" in hand is not a piece of x");
    expect_load_message(LIT(HEAD "start: \"k^2/3/2K^ /K^ X/x\"\n" "check: true\n" KING),
                        KOMA_E_RULES_HAND, 5, 8,
                        "start position: \"K^\" in the second player's hand: a hand holds its "
                        "owner's pieces");
    expect_load_message(LIT(HEAD "start: \"k^1k^/3/2K^ / X/x\"\n" "check: true\n" KING),
                        KOMA_E_RULES_ROYAL, 5, 8,
                        "start position: x: the second player has 2 royal pieces");
    /* without the check rule two royals are fine */
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const char *two = HEAD "start: \"k^1k^/3/2K^ / X/x\"\n" KING;
    assert_int_equal(koma_game_set_load(set, two, strlen(two), "two.yaml", NULL, &err), 0);
    koma_game_set_free(set);

    /* Messages are printable ASCII: the bytes of an invalid PIN are escaped. */
    expect_load_message(LIT(HEAD "start: \"k^2/3/2K^ / X/x\"\n"
                            "pieces:\n  - {pin: \"K\xc3\xa9\", betza: K, royal: true}\n"),
                        KOMA_E_GAME_PIECE, 7, 11, "invalid PIN \"K\xc3\xa9\"");
    expect_load_message(LIT(HEAD "start: \"k^2/3/2K^ / X/x\"\n" KING
                            "  - {pin: P, betza: fW, promotes_to: \"\\t\"}\n"),
                        KOMA_E_GAME_PIECE, 8, 5,
                        "promotes_to \"\\x09\" is not another piece of the game");
    /* A NUL ("\0") cut a string short: "K^\0x" was read as the PIN K^. */
    expect_load_message(LIT(HEAD "start: \"k^2/3/2K^ / X/x\"\n"
                            "pieces:\n  - {pin: \"K^\\0x\", betza: K, royal: true}\n"),
                        KOMA_E_GAME_FIELD, 7, 11, "\"pin\" contains a NUL character");
    expect_load_message(LIT("id: \"x\\0y\"\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\n"),
                        KOMA_E_GAME_FIELD, 1, 5, "\"id\" contains a NUL character");
    /* A YAML error after the first document had no line, column or source. */
    expect_load_message(LIT(HEAD "---\n["), KOMA_E_GAME_YAML, 7, 1,
                        "did not find expected node content");
}

#undef HEAD
#undef KING

static void test_result_names(void **state)
{
    (void)state;
    assert_string_equal(koma_result_name(KOMA_RESULT_FIRST), "1-0");
    assert_string_equal(koma_result_name(KOMA_RESULT_SECOND), "0-1");
    assert_string_equal(koma_result_name(KOMA_RESULT_DRAW), "1/2-1/2");
    assert_string_equal(koma_result_name(KOMA_RESULT_NONE), "*");
    /* parsed from the same table PCN validates outcome.result against */
    assert_int_equal(koma_result_parse(LIT("1-0")), KOMA_RESULT_FIRST);
    assert_int_equal(koma_result_parse(LIT("0-1")), KOMA_RESULT_SECOND);
    assert_int_equal(koma_result_parse(LIT("1/2-1/2")), KOMA_RESULT_DRAW);
    assert_int_equal(koma_result_parse(LIT("1/2-0")), KOMA_RESULT_NONE);   /* valid PCN, no winner */
    assert_int_equal(koma_result_parse(LIT("*")), KOMA_RESULT_NONE);
    assert_int_equal(koma_result_parse(LIT("1-0 ")), KOMA_RESULT_NONE);
}

/* The legal moves of the engine's position, sorted, joined by spaces. */
static void legal_text(koma_engine *e, char *out, size_t cap)
{
    koma_perft_entry *entries;
    size_t count;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_perft_divide(e, 1, &entries, &count, NULL, NULL, &err), 0);
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? " " : "", entries[i].pmn);
    assert_true(n < cap);
    free(entries);
}

/* Two vectors reaching one square (fuzz_game found "RD": the W rider and the D
 * leap both go two squares): one move, not two equal PMN (perft counted it
 * twice, and the GGN-driven generator disagreed). */
static void test_overlapping_vectors(void **state)
{
    (void)state;
    static const char def[] =
        "id: overlap\nname: Overlap\nstyle: X\nboard: {files: 5, ranks: 5}\n"
        "start: \"4k^/5/2X2/5/K^4 / X/x\"\n"
        "pieces:\n"
        "  - {pin: \"K^\", betza: K, royal: true}\n"
        "  - {pin: X, betza: RD}\n"
        "  - {pin: Y, betza: W2WWfD}\n"
        "  - {pin: P, betza: fW}\n";
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    assert_int_equal(koma_game_set_load(set, LIT(def), "overlap.yaml", &g, &err), 0);
    koma_engine *e;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    char got[1024];
    uint64_t nodes;
    legal_text(e, got, sizeof got);
    assert_string_equal(got, "a1-a2 a1-b1 a1-b2 c3-a3 c3-b3 c3-c1 c3-c2 c3-c4 c3-c5 c3-d3 c3-e3");
    assert_int_equal(koma_engine_perft(e, 1, &nodes, &err), 0);
    assert_int_equal(nodes, 11);
    /* blocked on c4, the rook's c5 is still the D leap's: once */
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^/5/2P2/2X2/K^4 / X/x"), &err), 0);
    legal_text(e, got, sizeof got);
    assert_string_equal(got, "a1-a2 a1-b1 a1-b2 c2-a2 c2-b2 c2-c1 c2-c4 c2-d2 c2-e2 c3-c4");
    /* W2, a W rider and a forward D: every square once; an enemy on c4 is
     * captured once, and stops the ride */
    assert_int_equal(koma_engine_set_feen(e, LIT("4k^/5/2p2/2Y2/K^4 / X/x"), &err), 0);
    legal_text(e, got, sizeof got);
    assert_string_equal(got, "a1-a2 a1-b1 a1-b2 c2+c3/P c2-a2 c2-b2 c2-c1 c2-c4 c2-d2 c2-e2");
    assert_int_equal(koma_engine_perft(e, 1, &nodes, &err), 0);
    assert_int_equal(nodes, 10);
    koma_engine_free(e);
    koma_game_set_free(set);
}

/* side_names: the players as the verdicts name them; Sente and Gote without it */
static void test_side_names(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    static const char named[] = "id: named\nname: Named\nstyle: N\nboard: {files: 3, ranks: 3}\n"
                                "side_names: [White, Black]\n";
    assert_int_equal(koma_game_set_load(set, named, sizeof named - 1, "named.yaml", &g, &err), 0);
    assert_string_equal(koma_game_side_name(g, KOMA_FIRST), "White");
    assert_string_equal(koma_game_side_name(g, KOMA_SECOND), "Black");
    const koma_game *shogi = koma_game_set_find_id(set, "shogi", 5);
    assert_non_null(shogi);
    assert_string_equal(koma_game_side_name(shogi, KOMA_FIRST), "Sente");
    assert_string_equal(koma_game_side_name(NULL, KOMA_SECOND), "Gote");
    const koma_game *sanki = koma_game_set_find_id(set, "sanki", 5);
    assert_non_null(sanki);
    assert_string_equal(koma_game_side_name(sanki, KOMA_SECOND), "the second player");
    koma_game_set_free(set);
    /* one name, three names, an empty one, one past the longest: game.field at the node */
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nside_names: [A]\n",
                      KOMA_E_GAME_FIELD, 5, 13);
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nside_names: [A, B, C]\n",
                      KOMA_E_GAME_FIELD, 5, 13);
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nside_names: [A, \"\"]\n",
                      KOMA_E_GAME_FIELD, 5, 17);
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\n"
                      "side_names: [A, abcdefghijklmnopqrstuvwx]\n",
                      KOMA_E_GAME_FIELD, 5, 17);
    expect_load_error("id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\nside_names: white\n",
                      KOMA_E_GAME_FIELD, 5, 13);
}

/* Both sides bare: a draw, whatever termination says. */
static void test_bare_both(void **state)
{
    (void)state;
    static const char *const variants[] = {"loss", "draw", "win"};
    for (int v = 0; v < 3; v++) {
        char yaml[512];
        snprintf(yaml, sizeof yaml,
                 "id: bare\nname: Bare\nstyle: X\nboard: {files: 3, ranks: 3}\n"
                 "start: \"k^2/3/2K^ / X/x\"\ncheck: true\nbare_king: true\n"
                 "termination: {bareking: %s}\n"
                 "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n", variants[v]);
        koma_game_set *set;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_game_set_new(&set, &err), 0);
        const koma_game *g;
        assert_int_equal(koma_game_set_load(set, yaml, strlen(yaml), "bare.yaml", &g, &err), 0);
        koma_engine *e;
        assert_int_equal(koma_engine_new(g, &e, &err), 0);
        koma_ending end;
        koma_engine_position_ending(e, &end);
        assert_int_equal(end.over, 1);
        assert_int_equal(end.status, KOMA_STATUS_BAREKING);
        assert_int_equal(end.result, KOMA_RESULT_DRAW);
        koma_engine_free(e);
        koma_game_set_free(set);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_errors_defeat_and_pieces),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_by_feen),
        cmocka_unit_test(test_errors_found_by_fuzzing),
        cmocka_unit_test(test_result_names),
        cmocka_unit_test(test_replace_builtin),
        cmocka_unit_test(test_lazy_builtins),
        cmocka_unit_test(test_overlapping_vectors),
        cmocka_unit_test(test_bare_both),
        cmocka_unit_test(test_side_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
