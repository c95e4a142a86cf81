/* tests/unit/test_pmn_chain.c — PMN chains (koma-formats(5), PMN, Chains): parse and its
 * context-free order rules, write, the rule-agnostic applier, the canonical
 * form of a chain's effects, the leg forms (PMN legs, XBoard, koengine) and the
 * dialect entry. The positions are Ko shogi ones (its tokens, 19x19). */
#include "unit.h"

#include <stdlib.h>

/* A 19x19 Ko shogi position: the given pieces on an empty board (first player
 * to move unless turn is 1). */
static void ko_pos(koma_position *pos, const char *const *placements, int turn)
{
    koma_shape shape = {2, {19, 19, 1}, 361};
    koma_error err;
    koma_position_init(pos);
    if (koma_position_reset(pos, &shape, &err) != 0) fail_msg("reset: %s", err.message);
    pos->style[0] = 'K';
    pos->style[1] = 'k';
    pos->turn = turn;
    for (size_t i = 0; placements[i]; i += 2) {
        koma_cell c;
        koma_piece p;
        uint32_t sq;
        if (koma_cell_parse(placements[i], strlen(placements[i]), &c, &err) != 0 ||
            koma_shape_square(&shape, &c, &sq, &err) != 0)
            fail_msg("bad cell %s", placements[i]);
        if (koma_epin_parse(placements[i + 1], strlen(placements[i + 1]), &p, &err) != 0)
            fail_msg("bad piece %s", placements[i + 1]);
        pos->board[sq] = p;
    }
}

static koma_piece at(const koma_position *pos, const char *cell)
{
    koma_cell c;
    uint32_t sq;
    koma_cell_parse(cell, strlen(cell), &c, NULL);
    if (koma_shape_square(&pos->shape, &c, &sq, NULL) != 0) fail_msg("bad cell %s", cell);
    return pos->board[sq];
}

static koma_piece E(const char *s)
{
    koma_piece p;
    if (koma_epin_parse(s, strlen(s), &p, NULL) != 0) fail_msg("bad EPIN %s", s);
    return p;
}

static void parse_ok(const char *s, koma_chain *c)
{
    koma_error err;
    memset(&err, 0, sizeof err);
    if (koma_chain_parse(s, strlen(s), c, &err) != 0)
        fail_msg("\"%s\" rejected: %s %s (col %lu)", s, koma_code_name(err.code), err.message,
                 err.column);
}

/* ---- parse and write ---------------------------------------------------------- */

static void test_parse_valid(void **state)
{
    (void)state;
    /* the valid and invalid chains, with their codes and columns: tests/spec/pmn.tsv */
    koma_chain c;
    parse_ok("j3-k4,+k10,+k11", &c);
    assert_int_equal(c.len, 3);
    assert_int_equal(c.el[0].kind, KOMA_MOVE_QUIET);
    assert_int_equal(c.el[1].kind, KOMA_MOVE_STATIC);
    assert_int_equal(c.at[1], 6);
    assert_int_equal(c.at[2], 11);
}

static void test_write_limits(void **state)
{
    (void)state;
    koma_chain c;
    char small[8];
    parse_ok("j3-k4,+k10,+k11", &c);
    /* snprintf-style: the full length, a truncated NUL-terminated text */
    assert_int_equal(koma_chain_write(&c, small, sizeof small), 15);
    assert_string_equal(small, "j3-k4,+");
    memset(&c, 0, sizeof c);
    assert_int_equal(koma_chain_write(&c, small, sizeof small), 0);
    c.len = 1;
    c.el[0].kind = (koma_move_kind)99;
    assert_int_equal(koma_chain_write(&c, small, sizeof small), 0);
}

/* ---- applier -------------------------------------------------------------------- */

static void test_apply(void **state)
{
    (void)state;
    static const char *const place[] = {
        "i12", "I", "j13", "b^", "q9", "+u", "a1", "A", "s1", "A", "a2", "A'", "s2", "A'",
        NULL};
    koma_position pos;
    koma_chain c;
    koma_error err;
    ko_pos(&pos, place, KOMA_FIRST);
    parse_ok("i12+j13=+I,+q9,a1=+A,s1=+A,a2=+A',s2=+A'", &c);
    if (koma_chain_apply(&pos, &c, &err) != 0) fail_msg("apply: %s", err.message);
    assert_int_equal(at(&pos, "j13"), E("+I"));
    assert_int_equal(at(&pos, "i12"), KOMA_PIECE_NONE);
    assert_int_equal(at(&pos, "q9"), KOMA_PIECE_NONE);
    assert_int_equal(at(&pos, "a1"), E("+A"));
    assert_int_equal(at(&pos, "s2"), E("+A'"));
    /* victims enter the mover's hand unchanged; the turn passes once */
    assert_int_equal(koma_hand_count(&pos.hands[KOMA_FIRST], E("b^")), 1);
    assert_int_equal(koma_hand_count(&pos.hands[KOMA_FIRST], E("+u")), 1);
    assert_int_equal(pos.turn, KOMA_SECOND);
    char feen[KOMA_FEEN_MAX_LEN + 1];
    koma_feen_write(&pos, feen, sizeof feen);
    koma_position_cleanup(&pos);

    /* a failing element leaves the position unchanged; its offset is in the chain */
    static const char *const place2[] = {"e5", "W", "e6", "p", NULL};
    ko_pos(&pos, place2, KOMA_FIRST);
    parse_ok("e5+e6,+e7", &c);
    assert_int_equal(koma_chain_apply(&pos, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_SQUARE_EMPTY);
    assert_int_equal(err.column, 8);
    assert_int_equal(at(&pos, "e5"), E("W"));
    assert_int_equal(at(&pos, "e6"), E("p"));
    assert_int_equal(pos.turn, KOMA_FIRST);
    /* the burned actor: moves, then is removed into its own player's hand */
    parse_ok("e5+e6,+e6", &c);
    if (koma_chain_apply(&pos, &c, &err) != 0) fail_msg("apply: %s", err.message);
    assert_int_equal(at(&pos, "e6"), KOMA_PIECE_NONE);
    assert_int_equal(koma_hand_count(&pos.hands[KOMA_FIRST], E("W")), 1);
    assert_int_equal(koma_hand_count(&pos.hands[KOMA_FIRST], E("p")), 1);
    koma_position_cleanup(&pos);
}

/* ---- canonical form and check --------------------------------------------------- */

static const char *const wrestler_place[] = {
    "d4", "W", "e5", "p", "f6", "p", "c3", "P", "d5", "+u", NULL};

static void expect_canonical(const koma_position *pos, const char *legs, const char *want)
{
    koma_chain c, out;
    koma_error err;
    char buf[KOMA_MOVE_TEXT_BUF];
    memset(&err, 0, sizeof err);
    if (koma_chain_read_legs(legs, strlen(legs), pos, &c, &err) != 0)
        fail_msg("\"%s\": %s %s", legs, koma_code_name(err.code), err.message);
    koma_chain_write(&c, buf, sizeof buf);
    if (strcmp(buf, want) != 0) fail_msg("\"%s\" -> \"%s\", expected \"%s\"", legs, buf, want);
    /* the canonical form is a fixed point, and has the same effects */
    if (koma_chain_canonical(pos, &c, &out, &err) != 0) fail_msg("canonical: %s", err.message);
    assert_true(koma_chain_equal(&c, &out));
    if (koma_chain_check(pos, &c, &err) != 0)
        fail_msg("check \"%s\": %s %s", buf, koma_code_name(err.code), err.message);
}

static void test_legs(void **state)
{
    (void)state;
    koma_position pos;
    ko_pos(&pos, wrestler_place, KOMA_FIRST);
    /* PMN legs */
    expect_canonical(&pos, "d4+e5,e5+f6", "d4+f6,+e5");
    expect_canonical(&pos, "d4-e4,e4+e5", "d4+e5");
    expect_canonical(&pos, "d4+e5,e5-d4", "+e5");                  /* igui */
    expect_canonical(&pos, "d4-e4,e4-d4", "...");                  /* a pass */
    expect_canonical(&pos, "d4+e5,e5-e6", "d4-e6,+e5");
    expect_canonical(&pos, "+f6,d4+e5", "d4+e5,+f6");               /* any order */
    expect_canonical(&pos, "d4+e5,+e5", "d4+e5,+e5");               /* burned on arrival */
    expect_canonical(&pos, "d4-e4=+W,+e4", "d4-e4=+W,+e4");         /* what enters the hand */
    expect_canonical(&pos, "d4+e5,e5-d4,d4=+W", "+e5,d4=+W");       /* back, changed in place */
    expect_canonical(&pos, "c3=+P,+f6,d4+e5", "d4+e5,+f6,c3=+P");
    expect_canonical(&pos, "d5=u,d5=+u", "...");                    /* no net change */
    expect_canonical(&pos, "+e5/P", "+e5/P");
    /* XBoard legs and koengine shots */
    expect_canonical(&pos, "d4e5,e5f6", "d4+f6,+e5");
    expect_canonical(&pos, "d4e4,e4e5+", "d4+e5=+W");
    expect_canonical(&pos, "c3xe5xf6", "+e5,+f6");
    expect_canonical(&pos, "c3xf6xe5+", "+e5,+f6,c3=+P");
    expect_canonical(&pos, "c3c4,c4xe5", "c3-c4,+e5");
    expect_canonical(&pos, "@@@@", "...");
    koma_position_cleanup(&pos);
}

static void test_legs_invalid(void **state)
{
    (void)state;
    /* the refused leg forms (on this file's wrestler position, as a FEEN):
     * tests/spec/pmn.tsv, dialect=legs; here the context they need */
    koma_chain c;
    koma_error err;
    assert_int_equal(koma_chain_read_legs(LIT("d4e5"), NULL, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CONTEXT);
}

static void test_check(void **state)
{
    (void)state;
    koma_position pos;
    koma_chain c;
    koma_error err;
    ko_pos(&pos, wrestler_place, KOMA_FIRST);
    parse_ok("d4+f6,+e5", &c);
    assert_int_equal(koma_chain_check(&pos, &c, &err), 0);
    /* preconditions, and element canonicality where it stands */
    parse_ok("d4+f6,+e6", &c);
    assert_int_equal(koma_chain_check(&pos, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_SQUARE_EMPTY);
    assert_int_equal(err.column, 8);
    parse_ok("d4+f6=W,+e5", &c);
    assert_int_equal(koma_chain_check(&pos, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CANONICAL_ACTOR);
    parse_ok("d4+f6,+e5/p", &c);
    assert_int_equal(koma_chain_check(&pos, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CANONICAL_CAPTURED);
    assert_int_equal(err.column, 11);
    /* the form is not the canonical one of its effects */
    parse_ok("d4-e4,+d5,d5=u", &c);          /* the mutation undoes nothing: it is gone */
    assert_int_equal(koma_chain_check(&pos, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_SQUARE_EMPTY);
    /* a pass inside a chain (made by hand: the parser refuses it) */
    parse_ok("d4+f6,+e5", &c);
    koma_chain bad = c;
    bad.el[1].kind = KOMA_MOVE_PASS;
    assert_int_equal(koma_chain_check(&pos, &bad, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CHAIN_ELEMENT);
    assert_int_equal(koma_chain_apply(&pos, &bad, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CHAIN_ELEMENT);
    /* no position or no move */
    koma_chain none = c;
    none.len = 0;
    assert_int_equal(koma_chain_check(&pos, &none, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    assert_int_equal(koma_chain_check(NULL, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    assert_int_equal(koma_chain_apply(NULL, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    koma_chain out;
    assert_int_equal(koma_chain_canonical(&pos, &none, &out, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    assert_int_equal(koma_chain_parse(NULL, 3, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    assert_int_equal(koma_chain_read_legs(NULL, 3, &pos, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    /* at most 16 legs */
    char legs[128] = "d4e4";
    for (int i = 0; i < 16; i++) strcat(legs, i % 2 ? ",d4e4" : ",e4d4");
    assert_int_equal(koma_chain_read_legs(legs, strlen(legs), &pos, &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CHAIN_ELEMENTS);
    legs[strlen(legs) - 5] = '\0';                   /* 16: read */
    if (koma_chain_read_legs(legs, strlen(legs), &pos, &c, &err) != 0) fail_msg("%s: %s", legs, err.message);
    koma_position_cleanup(&pos);
}

/* ---- dialects -------------------------------------------------------------------- */

static void test_dialects(void **state)
{
    (void)state;
    koma_position pos;
    koma_chain c;
    koma_move m;
    koma_error err;
    char buf[KOMA_MOVE_TEXT_BUF];
    ko_pos(&pos, wrestler_place, KOMA_FIRST);
    koma_pmn_dialect d;
    assert_int_equal(koma_pmn_dialect_from_name(LIT("legs"), &d), 0);
    assert_int_equal(d, KOMA_PMN_DIALECT_LEGS);
    assert_string_equal(koma_pmn_dialect_name(KOMA_PMN_DIALECT_LEGS), "legs");
    assert_int_equal(koma_chain_parse_dialect(KOMA_PMN_DIALECT_LEGS, LIT("d4e5,e5f6"), &pos, &c,
                                              &err), 0);
    koma_chain_write(&c, buf, sizeof buf);
    assert_string_equal(buf, "d4+f6,+e5");
    assert_int_equal(koma_chain_parse_dialect(KOMA_PMN_DIALECT_CANONICAL, LIT("d4+f6,+e5"), &pos,
                                              &c, &err), 0);
    assert_int_equal(koma_chain_parse_dialect(KOMA_PMN_DIALECT_CANONICAL, LIT("d4+f6,+e5"), NULL,
                                              &c, &err), 0);
    assert_int_equal(koma_chain_parse_dialect(KOMA_PMN_DIALECT_CANONICAL, LIT("d4+f6,+e6"), &pos,
                                              &c, &err), -1);
    assert_int_equal(koma_chain_parse_dialect(KOMA_PMN_DIALECT_CANONICAL, LIT("d4-e4=W"), &pos,
                                              &c, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CANONICAL_ACTOR);
    /* the move dialect entry: one element only */
    assert_int_equal(koma_pmn_parse_dialect(KOMA_PMN_DIALECT_LEGS, LIT("d4e4,e4e5"), &pos, &m,
                                            &err), 0);
    koma_pmn_write(&m, buf);
    assert_string_equal(buf, "d4+e5");
    assert_int_equal(koma_pmn_parse_dialect(KOMA_PMN_DIALECT_LEGS, LIT("d4e5,e5f6"), &pos, &m,
                                            &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_CHAIN_ELEMENTS);
    koma_position_cleanup(&pos);
}

/* Apply one XBoard token by hand (the test's own reading): a leg moves the
 * piece (capturing what stands there), a shot removes the target. 0, or -1
 * when the token does not apply. */
static int hand_apply(koma_position *pos, const koma_cell *from, const koma_cell *to, int shot)
{
    koma_move m;
    memset(&m, 0, sizeof m);
    uint32_t sf, st;
    if (koma_shape_square(&pos->shape, from, &sf, NULL) != 0 ||
        koma_shape_square(&pos->shape, to, &st, NULL) != 0)
        return -1;
    if (pos->board[sf] == KOMA_PIECE_NONE) return -1;
    if (shot) {
        if (pos->board[st] == KOMA_PIECE_NONE) return -1;
        m.kind = KOMA_MOVE_STATIC;
        m.dst = *to;
    } else {
        if (sf == st) return -1;
        m.kind = pos->board[st] != KOMA_PIECE_NONE ? KOMA_MOVE_CAPTURE : KOMA_MOVE_QUIET;
        m.src = *from;
        m.dst = *to;
    }
    int turn = pos->turn;
    if (koma_move_apply(pos, &m, NULL) != 0) return -1;
    pos->turn = turn;
    return 0;
}

/* Random legs on random positions: the canonical form has the same effects as
 * the legs applied one by one, parses back, and passes koma_chain_check. */
static void test_canonical_random(void **state)
{
    (void)state;
    static const char *const pieces[] = {"W", "p", "P", "+u", "K^", "b^", "+A'", "t'"};
    uint64_t rng = 12345;
    int checked = 0;
    for (int round = 0; round < 3000; round++) {
        const char *place[64];
        char cells[32][8];
        size_t np = 0;
        for (int i = 0; i < 12; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            snprintf(cells[i], sizeof cells[i], "%c%d", 'a' + (int)((rng >> 33) % 5),
                     1 + (int)((rng >> 40) % 5));
            place[np++] = cells[i];
            place[np++] = pieces[(rng >> 50) % 8];
        }
        place[np] = NULL;
        koma_position pos, by_hand;
        ko_pos(&pos, place, (int)(rng >> 60) & 1);
        koma_position_init(&by_hand);
        koma_position_copy(&by_hand, &pos, NULL);
        /* the piece on the first occupied square walks and shoots */
        koma_cell cur;
        int have = 0;
        for (int i = 0; i < 5 && !have; i++)
            for (int j = 0; j < 5 && !have; j++) {
                char cb[8];
                snprintf(cb, sizeof cb, "%c%d", 'a' + j, 1 + i);
                if (at(&pos, cb) != KOMA_PIECE_NONE) {
                    koma_cell_parse(cb, strlen(cb), &cur, NULL);
                    have = 1;
                }
            }
        char legs[200] = "";
        int ok = have;
        for (int leg = 0; ok && leg < 4; leg++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            char from[8], to[8];
            koma_cell target;
            int shot = (int)((rng >> 55) & 1);
            koma_cell_write(&cur, from);
            snprintf(to, sizeof to, "%c%d", 'a' + (int)((rng >> 33) % 5), 1 + (int)((rng >> 40) % 5));
            koma_cell_parse(to, strlen(to), &target, NULL);
            size_t l = strlen(legs);
            snprintf(legs + l, sizeof legs - l, "%s%s%s%s", l ? "," : "", from, shot ? "x" : "", to);
            if (hand_apply(&by_hand, &cur, &target, shot) != 0) ok = 0;
            if (!shot) cur = target;
        }
        koma_chain c, again;
        koma_error err;
        int rc = have ? koma_chain_read_legs(legs, strlen(legs), &pos, &c, &err) : -1;
        if (ok && rc != 0) fail_msg("\"%s\" refused: %s", legs, err.message);
        if (rc == 0) {
            if (!ok) fail_msg("\"%s\" accepted, but it does not apply", legs);
            koma_position a;
            koma_position_init(&a);
            koma_position_copy(&a, &pos, NULL);
            if (koma_chain_apply(&a, &c, &err) != 0) fail_msg("apply canonical %s: %s", legs, err.message);
            by_hand.turn ^= 1;
            if (!koma_position_equal(&a, &by_hand)) {
                char text[KOMA_MOVE_TEXT_BUF];
                koma_chain_write(&c, text, sizeof text);
                fail_msg("\"%s\" -> \"%s\": different effects", legs, text);
            }
            char text[KOMA_MOVE_TEXT_BUF];
            koma_chain_write(&c, text, sizeof text);
            if (koma_chain_parse(text, strlen(text), &again, &err) != 0)
                fail_msg("canonical \"%s\" (from %s) does not parse: %s", text, legs, err.message);
            if (koma_chain_check(&pos, &again, &err) != 0)
                fail_msg("canonical \"%s\" (from %s) not canonical: %s", text, legs, err.message);
            koma_position_cleanup(&a);
            checked++;
        }
        koma_position_cleanup(&pos);
        koma_position_cleanup(&by_hand);
    }
    assert_true(checked > 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_valid),
        cmocka_unit_test(test_write_limits),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_legs),
        cmocka_unit_test(test_legs_invalid),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_dialects),
        cmocka_unit_test(test_canonical_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
