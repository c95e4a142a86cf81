/*
 * tests/unit/test_select.c — finding records (koma/select.h; lib/select*.c):
 * board patterns (syntax, errors at their byte, classes, the side to move,
 * the shape, "'" ignored or compared), material specifications (counts on the
 * board, in hand, summed, compared with numbers and with each other), conditions
 * on a record's members (text, regular expressions, numbers, dates, the names
 * that stand for paths), game keys (the Jeweled King's "'" ignored but in Ko
 * shogi, one ply changed) and the key set's memory, and the selector: a
 * position reached by transposition, by FID, the ply window, a pattern and a
 * material at one ply, moves at the start and anywhere, the game, the verdict
 * (result, status the record does not say, disputes), the length, the key of
 * a position, and records that cannot be replayed.
 */
#include <stdlib.h>

#include "unit.h"

#define SHOGI "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"
#define OGI "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"
#define OGI_JEWEL "lnsik^'snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"

static koma_position at(const char *feen)
{
    koma_position p;
    koma_error err;
    koma_position_init(&p);
    assert_int_equal(koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &p, &err), 0);
    return p;
}

/* Patterns are written with '.' for '?' (C reads "??/" as a trigraph). */
static const char *q(const char *pat)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s", pat);
    for (char *c = buf; *c; c++)
        if (*c == '.') *c = '?';
    return buf;
}

static int pattern_matches(const char *text, const char *feen, unsigned flags)
{
    koma_pattern *p;
    koma_error err;
    koma_error_clear(&err);
    const char *pat = q(text);
    int rc = koma_pattern_parse(pat, strlen(pat), &p, &err);
    if (rc != 0) print_error("%s: %s\n", pat, err.message);
    assert_int_equal(rc, 0);
    koma_position pos = at(feen);
    int m = koma_pattern_match(p, &pos, flags);
    koma_position_cleanup(&pos);
    koma_pattern_free(p);
    return m;
}

static void pattern_error(const char *text, size_t column)
{
    const char *pat = q(text);
    koma_pattern *p = (koma_pattern *)1;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_pattern_parse(pat, strlen(pat), &p, &err), -1);
    assert_null(p);
    assert_int_equal(err.code, KOMA_E_SELECT_PATTERN);
    if (err.column != column) print_error("%s: column %lu: %s\n", pat, err.column, err.message);
    assert_int_equal(err.column, column);
}

static void test_pattern(void **state)
{
    (void)state;
    /* a FEEN placement is a pattern of itself */
    assert_true(pattern_matches("lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL", SHOGI, 0));
    assert_false(pattern_matches("lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSN1", SHOGI, 0));
    /* wildcards: any square, empty, any piece, classes */
    assert_true(pattern_matches("........./........./........./........./........./........./........./........./....K^....", SHOGI, 0));
    assert_true(pattern_matches("*********/_r_____b_/[a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z]/9/9/9/........./........./.........", SHOGI, 0));
    assert_false(pattern_matches("*********/*r_____b_/........./9/9/9/........./........./.........", SHOGI, 0));
    assert_true(pattern_matches("[A-Z_]......../........./........./........./........./........./........./........./[LN]........", SHOGI, 0) == 0);
    assert_true(pattern_matches("[a-z]......../9/........./9/9/9/........./........./[^_]........", SHOGI, 0) == 0);
    assert_true(pattern_matches("[a-z]......../........./........./9/9/9/........./........./[^_p]........", SHOGI, 0));
    assert_true(pattern_matches("[+A-Z_]......../........./........./........./........./........./........./........./.........", SHOGI, 0) == 0);
    /* the side to move */
    assert_true(pattern_matches("........./........./........./........./........./........./........./........./......... first", SHOGI, 0));
    assert_false(pattern_matches("........./........./........./........./........./........./........./........./......... second", SHOGI, 0));
    assert_false(pattern_matches("........./........./........./........./........./........./........./........./......... s/S", SHOGI, 0));
    /* another shape never matches */
    assert_false(pattern_matches("......../......../......../......../......../......../......../........", SHOGI, 0));
    assert_true(pattern_matches("......../......../......../......../......../......../......../........", OGI, 0));
    /* "'": ignored unless compared */
    assert_true(pattern_matches("....k^.../8/8/8/8/8/8/8", OGI_JEWEL, 0) == 0);   /* ranks 2-8 are not empty */
    assert_true(pattern_matches("....k^.../......../......../......../......../......../......../........", OGI_JEWEL, 0));
    assert_false(pattern_matches("....k^.../......../......../......../......../......../......../........", OGI_JEWEL, KOMA_MATCH_MARKS));
    assert_true(pattern_matches("....k^'.../......../......../......../......../......../......../........", OGI_JEWEL, KOMA_MATCH_MARKS));
    /* errors at their byte */
    pattern_error("", 1);
    pattern_error("9/8", 3);
    pattern_error("..x!/....", 4);
    pattern_error("0/1", 1);
    pattern_error("[a-z/1", 1);
    pattern_error("[]/.", 1);
    pattern_error("[z-a]", 2);
    pattern_error("..//..", 3);
    pattern_error(".. third", 4);
}

static int material(const char *spec, const char *feen)
{
    koma_material *m;
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_material_parse(spec, strlen(spec), &m, &err);
    if (rc != 0) print_error("%s: %s\n", spec, err.message);
    assert_int_equal(rc, 0);
    koma_position pos = at(feen);
    int r = koma_material_match(m, &pos, 0);
    koma_position_cleanup(&pos);
    koma_material_free(m);
    return r;
}

static void material_error(const char *spec, size_t column)
{
    koma_material *m;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_material_parse(spec, strlen(spec), &m, &err), -1);
    assert_int_equal(err.code, KOMA_E_SELECT_MATERIAL);
    if (err.column != column) print_error("%s: column %lu: %s\n", spec, err.column, err.message);
    assert_int_equal(err.column, column);
}

static void test_material(void **state)
{
    (void)state;
    /* a middle game: Sente holds R and 2P, Gote b */
    const char *mid = "lnsgk^gsnl/1r5b1/ppppp1ppp/9/9/9/PP1PPPP1P/1B7/LNSGK^GSNL 2PR/p S/s";
    assert_true(material("hand:R", mid));
    assert_false(material("hand:r", mid));
    assert_true(material("hand:p", mid));
    assert_true(material("hand:P=2", mid));
    assert_true(material("board:P<8", mid));
    assert_true(material("board:P=7", mid));
    assert_true(material("P=9", mid));              /* board and hand */
    assert_true(material("board:Pp=15", mid));
    assert_true(material("board:Pp < 16, hand:R", mid));
    assert_false(material("board:Pp<15", mid));
    assert_true(material("Rr=2", mid));
    assert_true(material("R=r", mid));
    assert_false(material("R>r", mid));
    assert_true(material("hand:[A-Z]>hand:[a-z]", mid));
    assert_true(material("hand:*=4", mid));
    assert_true(material("board:K^k^=2", mid));
    assert_true(material("board:+R+r=0", mid));
    assert_true(material("board:[+A-Z]==0", mid));
    assert_true(material("board:P!=8", mid));
    assert_true(material("board:*=36", mid));
    assert_false(material("board:*>36", mid));
    material_error("", 1);
    material_error("hand:", 5);
    material_error("R>=", 3);
    material_error("R?2", 2);
    material_error("R=2;P", 4);
    material_error("[^P]", 1);
}

/* ---- members ---- */

static const char record_text[] =
    "{\"meta\":{\"event\":\"第80期名人戦\",\"round\":\"7\",\"started_at_local\":\"2022-05-31T09:00:00\","
    "\"headers\":{\"戦型\":\"矢倉\"}},\"sides\":{\"first\":{\"name\":\"Fujii\",\"elo\":2050},"
    "\"second\":{\"name\":\"Saito\"}},\"setup\":{\"feen\":\"" SHOGI "\"},"
    "\"plies\":[{\"pmn\":\"c3-c4\"}]}";

static int meta(const char *cond)
{
    koma_meta_cond *c;
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_meta_cond_parse(cond, strlen(cond), &c, &err);
    if (rc != 0) print_error("%s: %s\n", cond, err.message);
    assert_int_equal(rc, 0);
    koma_pcn *rec = NULL;
    koma_pcn_parse_json(record_text, strlen(record_text), &rec, &err);
    assert_non_null(rec);
    int r = koma_meta_cond_match(c, rec);
    koma_pcn_free(rec);
    koma_meta_cond_free(c);
    return r;
}

static void meta_error(const char *cond, size_t column)
{
    koma_meta_cond *c;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_meta_cond_parse(cond, strlen(cond), &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_SELECT_META);
    if (err.column != column) print_error("%s: column %lu: %s\n", cond, err.column, err.message);
    assert_int_equal(err.column, column);
}

static void test_meta(void **state)
{
    (void)state;
    assert_true(meta("event=第80期名人戦"));
    assert_false(meta("event=名人戦"));
    assert_true(meta("event~名人戦"));
    assert_true(meta("event!~竜王"));
    assert_false(meta("event!=第80期名人戦"));
    assert_true(meta("meta.headers.戦型=矢倉"));
    assert_true(meta("player=Saito"));
    assert_true(meta("player~^Fuj"));
    assert_false(meta("player=Habu"));
    assert_true(meta("first=Fujii"));
    assert_true(meta("gote=Saito"));
    assert_true(meta("sides.first.elo>2000"));
    assert_true(meta("sides.first.elo=2050"));
    assert_true(meta("sides.first.elo=2050.0"));
    assert_false(meta("sides.first.elo<=2049.5"));
    assert_true(meta("round>=7"));              /* a string holding a number */
    assert_true(meta("round<10"));
    assert_true(meta("date<2023"));
    assert_true(meta("date>=2022-05"));
    assert_true(meta("date>=2022-05-31"));
    assert_false(meta("date>2022-05-31"));
    assert_true(meta("date<=2022-05-31T09:00"));
    assert_false(meta("date<2022"));
    /* absent members fail, even != and !~ */
    assert_false(meta("site=x"));
    assert_false(meta("site!=x"));
    assert_false(meta("site!~x"));
    assert_false(meta("sides.second.elo<3000"));
    meta_error("event", 5);
    meta_error("=x", 1);
    meta_error("event~(", 7);
    meta_error("date<soon", 6);
    meta_error("a..b=1", 2);
    meta_error("event!x", 6);
    /* expressions regcomp would blow up, or match slowly, are refused */
    meta_error("event~a++++++++++++++++++++++++", 23);
    meta_error("event~((a{200}){200}){200}", 22);
    meta_error("event~(a)\\1", 10);
    assert_true(meta("event~^(第[0-9]+期)+名人戦$"));
    assert_true(meta("event~[+]*名{1,3}"));
}

/* ---- keys ---- */

static koma_game_key key_of(const char *feen, const char *const *plies, int marks)
{
    koma_game_key_ctx k;
    koma_game_key out;
    koma_error err;
    assert_int_equal(koma_game_key_begin(&k, feen, strlen(feen), marks, &err), 0);
    for (size_t i = 0; plies[i]; i++) koma_game_key_ply(&k, plies[i], strlen(plies[i]));
    koma_game_key_end(&k, &out);
    return out;
}

static void test_keys(void **state)
{
    (void)state;
    static const char *const a[] = {"e3-e4", "e6-e5", NULL};
    static const char *const b[] = {"e3-e4", "d6-d5", NULL};
    koma_game_key k1 = key_of(OGI, a, 0), k2 = key_of(OGI_JEWEL, a, 0), k3 = key_of(OGI, b, 0),
                  k4 = key_of(OGI_JEWEL, a, 1);
    assert_memory_equal(k1.b, k2.b, KOMA_GAME_KEY_BYTES);      /* "'" ignored */
    assert_memory_not_equal(k1.b, k3.b, KOMA_GAME_KEY_BYTES);  /* a ply changed */
    assert_memory_not_equal(k1.b, k4.b, KOMA_GAME_KEY_BYTES);  /* "'" compared (Ko shogi) */
    /* hand items that "'" alone told apart are merged: the same position */
    static const char *const none[] = {NULL};
    koma_game_key h1 = key_of("k^3/4/4/3K^ PP'/ O/o", none, 0), h2 = key_of("k^3/4/4/3K^ 2P/ O/o", none, 0);
    assert_memory_equal(h1.b, h2.b, KOMA_GAME_KEY_BYTES);

    koma_keyset *set;
    koma_error err;
    assert_int_equal(koma_keyset_new(&set, &err), 0);
    assert_int_equal(koma_keyset_add(set, &k1, &err), 1);
    assert_int_equal(koma_keyset_add(set, &k2, &err), 0);
    assert_int_equal(koma_keyset_add(set, &k3, &err), 1);
    koma_game_key zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(koma_keyset_add(set, &zero, &err), 1);
    assert_int_equal(koma_keyset_add(set, &zero, &err), 0);
    assert_int_equal(koma_keyset_count(set), 3);
    /* many keys: every one found again, at most 43 bytes a key */
    for (uint32_t i = 0; i < 200000; i++) {
        koma_game_key k;
        koma_game_key_ctx c;
        char t[16];
        snprintf(t, sizeof t, "%u", i);
        assert_int_equal(koma_game_key_begin(&c, t, strlen(t), 1, &err), 0);
        koma_game_key_end(&c, &k);
        assert_int_equal(koma_keyset_add(set, &k, &err), 1);
        if (i % 1000 == 0) assert_int_equal(koma_keyset_add(set, &k, &err), 0);
    }
    assert_int_equal(koma_keyset_count(set), 200003);
    assert_true(koma_keyset_bytes(set) <= 43 * koma_keyset_count(set));
    koma_keyset_free(set);
}

/* ---- the selector ---- */

static koma_pcn *record(const char *json)
{
    koma_error err;
    koma_error_clear(&err);
    koma_pcn *p = NULL;
    koma_pcn_parse_json(json, strlen(json), &p, &err);
    if (p == NULL) print_error("%s: %s\n", json, err.message);
    assert_non_null(p);
    return p;
}

/* The plies where sel finds rec ("" none, "3 5" ...), all of them. */
static void expect(koma_select *sel, const char *json, int matched, const char *plies)
{
    koma_pcn *rec = record(json);
    koma_selection out;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_select_record(sel, rec, KOMA_SELECT_ALL_PLIES, &out, &err), 0);
    char got[256] = "";
    size_t k = 0;
    for (size_t i = 0; i < out.nplies; i++) k += (size_t)snprintf(got + k, sizeof got - k, "%s%zu", i ? " " : "", out.plies[i]);
    if (out.matched != matched || strcmp(got, plies) != 0)
        print_error("%s: matched %d, plies \"%s\"\n", json, out.matched, got);
    assert_int_equal(out.matched, matched);
    assert_string_equal(got, plies);
    koma_pcn_free(rec);
}

#define REC(plies) "{\"setup\":{\"feen\":\"" SHOGI "\"},\"plies\":[" plies "]}"
#define P(m) "{\"pmn\":\"" m "\"}"

/* The FEEN after plies of the shogi start. */
static void feen_after(const char *const *plies, char *out)
{
    koma_error err;
    koma_engine *e;
    const koma_game *g = koma_game_set_find_id(games_set(), "shogi", 5);
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    assert_int_equal(koma_engine_set_start(e, &err), 0);
    for (size_t i = 0; plies[i]; i++) {
        koma_emove m;
        assert_int_equal(koma_engine_parse_move(e, plies[i], strlen(plies[i]), &m, &err), 0);
        assert_int_equal(koma_engine_make(e, m, &err), 0);
    }
    assert_int_equal(koma_engine_feen(e, out, KOMA_FEEN_MAX_LEN + 1, NULL, &err), 0);
    koma_engine_free(e);
}

static void test_positions(void **state)
{
    (void)state;
    koma_select *sel;
    koma_error err;
    koma_error_clear(&err);
    char feen[KOMA_FEEN_MAX_LEN + 1];
    static const char *const line[] = {"c3-c4", "g7-g6", "b3-b4", NULL};
    feen_after(line, feen);
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    assert_int_equal(koma_select_needs(sel, 0), 0);
    assert_int_equal(koma_select_position(sel, feen, strlen(feen), &err), 0);
    assert_int_equal(koma_select_needs(sel, 0), KOMA_SELECT_NEEDS_RULES);
    /* the line itself, and a transposition */
    expect(sel, REC(P("c3-c4") "," P("g7-g6") "," P("b3-b4") "," P("a7-a6")), 1, "3");
    expect(sel, REC(P("b3-b4") "," P("g7-g6") "," P("c3-c4")), 1, "3");
    expect(sel, REC(P("b3-b4") "," P("g7-g6")), 0, "");
    /* reached twice: both plies (a rook's shuttle away and back) */
    expect(sel, REC(P("c3-c4") "," P("g7-g6") "," P("b3-b4") "," P("b8-c8") "," P("h2-g2") "," P("c8-b8") "," P("g2-h2")), 1, "3 7");
    /* an illegal ply ends the game: what follows is not reached */
    expect(sel, REC(P("c3-c4") "," P("g7-g6") "," P("b3-b5") "," P("a7-a6") "," P("b3-b4")), 0, "");
    /* the window */
    koma_select_window(sel, 4, 10);
    expect(sel, REC(P("c3-c4") "," P("g7-g6") "," P("b3-b4") "," P("b8-c8") "," P("h2-g2") "," P("c8-b8") "," P("g2-h2")), 1, "7");
    koma_select_window(sel, 0, 5);
    expect(sel, REC(P("c3-c4") "," P("g7-g6") "," P("b3-b4") "," P("b8-c8") "," P("h2-g2") "," P("c8-b8") "," P("g2-h2")), 1, "3");
    koma_select_free(sel);

    /* the start by FID (the setup is ply 0), and a FEEN refused */
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    char fid[KOMA_FID_BUF];
    koma_fid_of(SHOGI, strlen(SHOGI), fid);
    assert_int_equal(koma_select_fid(sel, fid, strlen(fid), &err), 0);
    expect(sel, REC(P("c3-c4")), 1, "0");
    expect(sel, "{\"setup\":{\"feen\":\"" OGI "\"}}", 0, "");
    assert_int_equal(koma_select_fid(sel, "abc", 3, &err), -1);
    assert_int_equal(koma_select_position(sel, LIT("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR / C/c"), &err), -1);
    assert_int_equal(koma_select_position(sel, LIT("9/9 / S/s"), &err), -1);
    koma_select_free(sel);

    /* the Jeweled King: "'" ignored in Ōgi */
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    assert_int_equal(koma_select_position(sel, LIT(OGI), &err), 0);
    expect(sel, "{\"setup\":{\"feen\":\"" OGI_JEWEL "\"}}", 1, "0");
    koma_select_free(sel);

    /* a pattern and a material at one ply: Sente's bishop exchanged, a bishop in
     * each hand, with Gote to move */
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    assert_int_equal(koma_select_pattern(sel, q("........./........./........./........./........./........./........./........./......... second"), 89, &err), 0);
    assert_int_equal(koma_select_material(sel, LIT("hand:B=1,hand:b=1"), &err), 0);
    expect(sel, REC(P("c3-c4") "," P("g7-g6") "," P("b2+h8=+B/B") "," P("g9+h8/b") "," P("B*f5")), 1, "4");
    koma_select_free(sel);
}

static void test_text_criteria(void **state)
{
    (void)state;
    koma_select *sel;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    assert_int_equal(koma_select_moves(sel, LIT("c3-c4 g7-g6"), 0, &err), 0);
    assert_int_equal(koma_select_needs(sel, 0), 0);
    expect(sel, REC(P("c3-c4") "," P("g7-g6") "," P("b3-b4")), 1, "");
    expect(sel, REC(P("b3-b4") "," P("c3-c4") "," P("g7-g6")), 0, "");
    assert_int_equal(koma_select_moves(sel, LIT("c3-c4 g7-g6"), 1, &err), 0);
    expect(sel, REC(P("b3-b4") "," P("c3-c4") "," P("g7-g6")), 1, "");
    expect(sel, REC(P("c3-c4")), 0, "");
    assert_int_equal(koma_select_moves(sel, LIT("  "), 0, &err), -1);
    assert_int_equal(err.code, KOMA_E_SELECT_MOVES);
    assert_int_equal(koma_select_moves(sel, LIT("c3-c4 e2e4"), 0, &err), -1);
    assert_int_equal(err.column, 9);
    koma_select_free(sel);

    /* length, members and game */
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    koma_select_length(sel, 2, 3);
    expect(sel, REC(P("c3-c4") "," P("g7-g6")), 1, "");
    expect(sel, REC(P("c3-c4")), 0, "");
    assert_int_equal(koma_select_game(sel, koma_game_set_find_id(games_set(), "ogi", 3), &err), 0);
    expect(sel, REC(P("c3-c4") "," P("g7-g6")), 0, "");
    assert_int_equal(koma_select_game(sel, koma_game_set_find_id(games_set(), "shogi", 5), &err), 0);
    expect(sel, REC(P("c3-c4") "," P("g7-g6")), 1, "");
    assert_int_equal(koma_select_meta(sel, LIT("event~Meijin"), &err), 0);
    assert_int_equal(koma_select_needs(sel, 0), KOMA_SELECT_NEEDS_TREE);
    expect(sel, REC(P("c3-c4") "," P("g7-g6")), 0, "");
    expect(sel, "{\"meta\":{\"event\":\"Meijin 7\"},\"setup\":{\"feen\":\"" SHOGI "\"},\"plies\":[" P("c3-c4") "," P("g7-g6") "]}", 1, "");
    koma_select_free(sel);
}

static void test_verdict(void **state)
{
    (void)state;
    koma_select *sel;
    koma_error err;
    koma_error_clear(&err);
    /* the fool's mate of Minishogi? a one-move mate of shogi's tsume form */
    const char *mate = "{\"setup\":{\"feen\":\"4k^4/9/4P4/9/9/9/9/9/4K^4 G/ S/s\"},\"plies\":[" P("G*e8") "]}";
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    assert_int_equal(koma_select_status(sel, LIT("checkmate"), &err), 0);
    expect(sel, mate, 1, "");                   /* the record says nothing */
    expect(sel, REC(P("c3-c4")), 0, "");
    assert_int_equal(koma_select_status(sel, LIT("mate"), &err), -1);
    assert_int_equal(err.code, KOMA_E_SELECT_STATUS);
    koma_select_free(sel);

    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    assert_int_equal(koma_select_result(sel, LIT("*"), &err), 0);
    assert_int_equal(koma_select_status(sel, LIT("none"), &err), 0);
    expect(sel, REC(P("c3-c4")), 1, "");
    expect(sel, mate, 0, "");
    assert_int_equal(koma_select_result(sel, LIT("2-0"), &err), -1);
    koma_select_free(sel);

    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    koma_select_disputed(sel);
    expect(sel, REC(P("c3-c4")), 0, "");
    expect(sel, "{\"setup\":{\"feen\":\"" SHOGI "\"},\"plies\":[" P("c3-c4") "],\"outcome\":{\"result\":\"1-0\",\"status\":\"checkmate\"}}", 1, "");
    koma_select_free(sel);
}

static void test_key_and_problems(void **state)
{
    (void)state;
    koma_select *sel;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_select_new(games_set(), &sel, &err), 0);
    koma_select_key_at(sel, 3);
    assert_int_equal(koma_select_needs(sel, KOMA_SELECT_KEY), KOMA_SELECT_NEEDS_RULES);
    koma_selection a, b;
    koma_pcn *r1 = record(REC(P("c3-c4") "," P("g7-g6") "," P("b3-b4") "," P("a7-a6")));
    koma_pcn *r2 = record(REC(P("b3-b4") "," P("g7-g6") "," P("c3-c4")));
    koma_pcn *r3 = record(REC(P("b3-b4") "," P("g7-g6")));
    assert_int_equal(koma_select_record(sel, r1, KOMA_SELECT_KEY, &a, &err), 0);
    assert_int_equal(koma_select_record(sel, r2, KOMA_SELECT_KEY, &b, &err), 0);
    assert_true(a.matched && a.has_key && b.has_key);
    assert_memory_equal(a.key.b, b.key.b, KOMA_GAME_KEY_BYTES);
    assert_int_equal(koma_select_record(sel, r3, KOMA_SELECT_KEY, &b, &err), 0);
    assert_false(b.has_key);
    /* the whole game's key */
    koma_select_key_at(sel, SIZE_MAX);
    assert_int_equal(koma_select_needs(sel, KOMA_SELECT_KEY), 0);
    assert_int_equal(koma_select_record(sel, r1, KOMA_SELECT_KEY, &a, &err), 0);
    assert_int_equal(koma_select_record(sel, r2, KOMA_SELECT_KEY, &b, &err), 0);
    assert_memory_not_equal(a.key.b, b.key.b, KOMA_GAME_KEY_BYTES);
    koma_pcn_free(r1);
    koma_pcn_free(r2);
    koma_pcn_free(r3);

    /* a record no rules play, one with a ply that is no move */
    assert_int_equal(koma_select_status(sel, LIT("checkmate"), &err), 0);
    koma_pcn *chess = record("{\"setup\":{\"feen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR / C/c\"}}");
    assert_int_equal(koma_select_record(sel, chess, 0, &a, &err), 0);
    assert_true(a.unjudged);
    assert_false(a.matched);
    assert_string_equal(a.member, "/setup/feen");
    koma_pcn_free(chess);
    koma_select_free(sel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern),
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_meta),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_text_criteria),
        cmocka_unit_test(test_verdict),
        cmocka_unit_test(test_key_and_problems),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
