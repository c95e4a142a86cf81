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
    assert_int_equal(koma_game_set_count(set), 6);
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
        {"koshogi", "Koshogi", 'K', 19, 19, 0},
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
    assert_null(koma_game_set_find_style(set, 'C', 8, 8));

    /* by position */
    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(LIT("rbsgk^/4p/5/P4/K^GSBR / s/S"), 0, &pos, &err), 0);
    assert_string_equal(koma_game_id(koma_game_set_find_position(set, &pos, &err)), "minishogi");
    assert_int_equal(koma_feen_parse(LIT("19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 / K/k"), 0, &pos, &err), 0);
    assert_string_equal(koma_game_id(koma_game_set_find_position(set, &pos, &err)), "koshogi");
    assert_int_equal(koma_feen_parse(LIT("8/8/8/8/8/8/8/8 / C/c"), 0, &pos, &err), 0);
    assert_null(koma_game_set_find_position(set, &pos, &err));
    assert_int_equal(err.code, KOMA_E_GAME_UNKNOWN);
    koma_position_cleanup(&pos);

    /* no engine for a recognised-only game */
    koma_engine *e;
    assert_int_equal(koma_engine_new(koma_game_set_find_id(set, "koshogi", 7), &e, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_NO_RULES);
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
    assert_int_equal(koma_game_set_count(set), 7);
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
    assert_int_equal(koma_game_set_count(set), 7);
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
    assert_int_equal(koma_game_set_count(set), 6);
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
    assert_int_equal(koma_game_set_count(set), 6);
    koma_game_set_free(set);
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
    assert_int_equal(koma_game_set_count(set), 6);
    koma_game_set_free(set);
}

#define HEAD "id: x\nname: X\nstyle: X\nboard: {files: 3, ranks: 3}\n"
#define KING "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n"

/* Definitions the fuzz_game harness found wrongly accepted or wrongly reported
 * (tests/fuzz/corpus/game keeps the inputs). */
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
                        KOMA_E_GAME_PIECE, 7, 11, "invalid PIN \"K\\xc3\\xa9\"");
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
}

/* The move-limit and repetition mechanics on a tiny custom game. */
static const char shuffle[] =
    "id: shuffle\n"
    "name: Shuffle\n"
    "style: X\n"
    "board: {files: 4, ranks: 4}\n"
    "start: \"k^3/4/4/2PK^ / X/x\"\n"
    "check: true\n"
    "repetition: {rule: fourfold, count: 3}\n"
    "move_limit: {plies: 6}\n"
    "termination: {movelimit: draw, repetition: draw}\n"
    "pieces:\n"
    "  - {pin: \"K^\", betza: K, royal: true}\n"
    "  - {pin: P, betza: fW, resets_move_limit: true}\n";

static void test_history_rules(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    assert_int_equal(koma_game_set_load(set, LIT(shuffle), "shuffle.yaml", &g, &err), 0);
    koma_engine *e;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    koma_ending end;
    /* six plies without a capture or a pawn move: movelimit, a draw */
    static const char *const walk[] = {"d1-d2", "a4-b4", "d2-d1", "b4-a4", "d1-d2", "a4-b4"};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(play(e, walk[i], &end), 0);
        assert_int_equal(end.over, i == 5);
    }
    assert_int_equal(end.status, KOMA_STATUS_MOVELIMIT);
    assert_int_equal(end.result, KOMA_RESULT_DRAW);
    /* a pawn move (ply 3) resets the count: the limit comes at ply 9 */
    assert_int_equal(koma_engine_set_start(e, &err), 0);
    static const char *const walk2[] = {"d1-d2", "a4-b4", "c1-c2", "b4-a4", "d2-d1",
                                        "a4-b4", "d1-d2", "b4-a4", "d2-d1"};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(play(e, walk2[i], &end), 0);
        assert_int_equal(end.over, i == 8);
    }
    assert_int_equal(end.status, KOMA_STATUS_MOVELIMIT);
    koma_engine_free(e);
    /* without the move limit, the third occurrence of the setup (plies 0, 4, 8)
     * is a repetition: a draw */
    char nolimit[sizeof shuffle];
    memcpy(nolimit, shuffle, sizeof shuffle);
    char *six = strstr(nolimit, "plies: 6");
    assert_non_null(six);
    six[7] = '0';
    koma_game_set_free(set);           /* (a second "shuffle" in one set: game.duplicate) */
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    assert_int_equal(koma_game_set_load(set, nolimit, strlen(nolimit), "shuffle.yaml", &g, &err), 0);
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(play(e, walk[i % 4], &end), 0);
        assert_int_equal(end.over, i == 7);
    }
    assert_int_equal(end.status, KOMA_STATUS_REPETITION);
    assert_int_equal(end.result, KOMA_RESULT_DRAW);
    koma_engine_free(e);
    koma_game_set_free(set);
}

/*
 * termination: for every status the rules decide, "loss", "draw" and "win" are
 * that result for the side concerned, and a status not listed is a loss.
 */
static const char *const walk4[] = {"c1-c2", "a3-a2", "c2-c1", "a2-a3"};

static void check_termination(const char *rules, const char *status, const char *feen,
                              const char *const *plies, size_t nplies, int last_refused,
                              koma_status want, int concerned)
{
    static const char *const variants[] = {"loss", "draw", "win", NULL};
    koma_result lose = concerned == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
    koma_result win = concerned == KOMA_FIRST ? KOMA_RESULT_FIRST : KOMA_RESULT_SECOND;
    const koma_result expect[] = {lose, KOMA_RESULT_DRAW, win, lose};
    for (int v = 0; v < 4; v++) {
        char yaml[1024], term[64] = "";
        if (variants[v]) snprintf(term, sizeof term, "termination: {%s: %s}\n", status, variants[v]);
        snprintf(yaml, sizeof yaml,
                 "id: term\nname: Term\nstyle: X\nboard: {files: 3, ranks: 3}\n"
                 "start: \"k^2/3/2K^ / X/x\"\n%s%s"
                 "pieces:\n  - {pin: \"K^\", betza: K, royal: true}\n  - {pin: R, betza: R}\n"
                 "  - {pin: P, betza: fW, drop: {never: true}}\n",
                 rules, term);
        koma_game_set *set;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_game_set_new(&set, &err), 0);
        const koma_game *g;
        int rc = koma_game_set_load(set, yaml, strlen(yaml), "term.yaml", &g, &err);
        if (rc != 0) print_error("%s\n", err.message);
        assert_int_equal(rc, 0);
        koma_engine *e;
        assert_int_equal(koma_engine_new(g, &e, &err), 0);
        assert_int_equal(koma_engine_set_feen(e, feen, strlen(feen), &err), 0);
        koma_ending end;
        memset(&end, 0, sizeof end);
        if (nplies == 0) koma_engine_position_ending(e, &end);
        for (size_t i = 0; i < nplies; i++) {
            int prc = play(e, plies[i], &end);
            if (i + 1 < nplies) {
                assert_int_equal(prc, 0);
                assert_int_equal(end.over, 0);
            } else {
                assert_int_equal(prc, last_refused);
            }
        }
        if (!end.over || end.status != want || end.result != expect[v])
            print_error("%s %s: over %d status %s result %s\n", status,
                        variants[v] ? variants[v] : "(unlisted)", end.over,
                        koma_cgsn_name(end.status), koma_result_name(end.result));
        assert_int_equal(end.over, 1);
        assert_int_equal(end.status, want);
        assert_int_equal(end.result, expect[v]);
        koma_engine_free(e);
        koma_game_set_free(set);
    }
}

/* The game koma_engine_play ended stays over when a ply made after the end is
 * taken back (fuzz_engine found play going on again after a make + unmake);
 * taking back the deciding ply lets play go on. */
static void test_play_after_end(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    assert_int_equal(koma_game_set_load(set, LIT(shuffle), "shuffle.yaml", &g, &err), 0);
    koma_engine *e;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    koma_ending end;
    static const char *const walk[] = {"d1-d2", "a4-b4", "d2-d1", "b4-a4", "d1-d2", "a4-b4"};
    for (int i = 0; i < 6; i++) assert_int_equal(play(e, walk[i], &end), 0);
    assert_true(end.over);
    assert_int_equal(end.status, KOMA_STATUS_MOVELIMIT);
    assert_int_equal(play(e, "d2-d1", &end), -1);
    /* a ply after the end, made and taken back: still over */
    koma_emove m;
    assert_int_equal(koma_engine_parse_move(e, LIT("d2-d1"), &m, &err), 0);
    assert_int_equal(koma_engine_make(e, m, &err), 0);
    assert_int_equal(koma_engine_unmake(e), 0);
    assert_int_equal(koma_engine_ply(e), 6);
    err.code = KOMA_OK;
    assert_int_equal(play(e, "d2-d1", &end), -1);
    assert_int_equal(koma_engine_play(e, &(koma_move){0}, &end, &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_OVER);
    /* the deciding ply taken back: the game goes on, and ends there again */
    assert_int_equal(koma_engine_unmake(e), 0);
    assert_int_equal(play(e, "a4-b4", &end), 0);
    assert_true(end.over);
    assert_int_equal(end.status, KOMA_STATUS_MOVELIMIT);
    /* an illegal ply ends the game where it was refused */
    assert_int_equal(koma_engine_unmake(e), 0);
    assert_int_equal(play(e, "a4-a2", &end), 1);
    assert_int_equal(end.status, KOMA_STATUS_ILLEGALMOVE);
    assert_int_equal(play(e, "a4-b4", &end), -1);
    assert_int_equal(koma_engine_unmake(e), 0);      /* ply 5 taken back */
    assert_int_equal(play(e, "d1-d2", &end), 0);
    assert_false(end.over);
    koma_engine_free(e);
    koma_game_set_free(set);
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

static void test_termination(void **state)
{
    (void)state;
    static const char *const capture[] = {"a2+a3/K^"};
    static const char *const illegal[] = {"c1-a1"};
    static const char *const same[] = {"c1-c2", "a3-a2", "c2-c1", "a2-a3", "c1-c2"};
    const char *eight[8];
    for (int i = 0; i < 8; i++) eight[i] = walk4[i % 4];
    /* the side whose royal was captured */
    check_termination("", "mareking", "k^2/K^2/3 / X/x", capture, 1, 0, KOMA_STATUS_MAREKING,
                      KOMA_SECOND);
    /* the side to move */
    check_termination("", "nomove", "2K^/p2/p2 / x/X", NULL, 0, 0, KOMA_STATUS_NOMOVE,
                      KOMA_SECOND);
    check_termination("check: true\n", "checkmate", "k^1R/3/K^2 / x/X", NULL, 0, 0,
                      KOMA_STATUS_CHECKMATE, KOMA_SECOND);
    check_termination("check: true\n", "stalemate", "k^2/3/K^R1 / x/X", NULL, 0, 0,
                      KOMA_STATUS_STALEMATE, KOMA_SECOND);
    /* the bare side (the side that has just moved) */
    check_termination("check: true\nbare_king: true\n", "bareking", "k^p1/3/K^2 / x/X", NULL, 0,
                      0, KOMA_STATUS_BAREKING, KOMA_FIRST);
    /* the player of the ply */
    check_termination("", "illegalmove", "k^2/3/2K^ / X/x", illegal, 1, 1,
                      KOMA_STATUS_ILLEGALMOVE, KOMA_FIRST);
    check_termination("repetition: {rule: same-move}\n", "repetition", "k^2/3/2K^ / X/x", same,
                      5, 1, KOMA_STATUS_REPETITION, KOMA_FIRST);
    /* the player of the ply completing the repetition (the third occurrence of
     * the setup, at ply 8) or reaching the move limit (ply 4) */
    check_termination("check: true\nrepetition: {rule: fourfold, count: 3}\n", "repetition",
                      "k^2/3/2K^ / X/x", eight, 8, 0, KOMA_STATUS_REPETITION, KOMA_SECOND);
    check_termination("move_limit: {plies: 4}\n", "movelimit", "k^2/3/2K^ / X/x", walk4, 4, 0,
                      KOMA_STATUS_MOVELIMIT, KOMA_SECOND);
    check_termination("move_limit: {plies: 3}\n", "movelimit", "k^2/3/2K^ / X/x", walk4, 3, 0,
                      KOMA_STATUS_MOVELIMIT, KOMA_FIRST);
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
        cmocka_unit_test(test_errors_found_by_fuzzing),
        cmocka_unit_test(test_result_names),
        cmocka_unit_test(test_history_rules),
        cmocka_unit_test(test_replace_builtin),
        cmocka_unit_test(test_play_after_end),
        cmocka_unit_test(test_overlapping_vectors),
        cmocka_unit_test(test_termination),
        cmocka_unit_test(test_bare_both),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
