/* tests/unit/test_betza_ex.c — the Betza reader's extended form (lib/betza_ex.h):
 * m/c modalities, limited and through-rides (W5, Wc5), and XBetza two-leg moves
 * with relative second-leg directions and knight handedness (hr/hl). */
#include "unit.h"

#include "betza_ex.h"

typedef struct parsed {
    koma__bvec v[64];
    size_t nv;
    koma__bpair p[256];
    size_t np;
} parsed;

static void parse(const char *s, parsed *out)
{
    koma_error err;
    memset(&err, 0, sizeof err);
    if (koma__betza_parse_ex(s, strlen(s), out->v, 64, &out->nv, out->p, 256, &out->np, &err) != 0)
        fail_msg("\"%s\": %s %s", s, koma_code_name(err.code), err.message);
}

static int has_vec(const parsed *p, int dx, int dy, int range, int mod)
{
    for (size_t i = 0; i < p->nv; i++)
        if (p->v[i].dx == dx && p->v[i].dy == dy && p->v[i].range == range && p->v[i].mod == mod)
            return 1;
    return 0;
}

static int has_pair(const parsed *p, int x1, int y1, int x2, int y2)
{
    for (size_t i = 0; i < p->np; i++)
        if (p->p[i].dx1 == x1 && p->p[i].dy1 == y1 && p->p[i].dx2 == x2 && p->p[i].dy2 == y2)
            return 1;
    return 0;
}

#define MC (KOMA__BETZA_EMPTY | KOMA__BETZA_ENEMY)

static void test_modalities(void **state)
{
    (void)state;
    parsed p;
    parse("mF", &p);                    /* long bow: diagonal step, non-capturing */
    assert_int_equal(p.nv, 4);
    assert_true(has_vec(&p, 1, 1, 1, KOMA__BETZA_EMPTY));
    assert_true(has_vec(&p, -1, -1, 1, KOMA__BETZA_EMPTY));
    parse("cW", &p);
    assert_true(has_vec(&p, 0, 1, 1, KOMA__BETZA_ENEMY));
    parse("mcK", &p);
    assert_int_equal(p.nv, 8);
    assert_true(has_vec(&p, 1, -1, 1, MC));
    parse("mW5", &p);                   /* gun carriage: 1-5 orthogonal, non-capturing */
    assert_int_equal(p.nv, 4);
    assert_true(has_vec(&p, -1, 0, 5, KOMA__BETZA_EMPTY));
    parse("fW5", &p);                   /* vanguard */
    assert_int_equal(p.nv, 1);
    assert_true(has_vec(&p, 0, 1, 5, MC));
    parse("Wc5", &p);                   /* roaming assault: captures all it passes */
    assert_int_equal(p.nv, 4);
    assert_true(has_vec(&p, 0, -1, 5, MC | KOMA__BETZA_THROUGH));
    parse("BsR", &p);                   /* imperial base */
    assert_int_equal(p.nv, 6);
    assert_true(has_vec(&p, 1, 0, 0, MC));
    assert_false(has_vec(&p, 0, 1, 0, MC));
    parse("KvR", &p);                   /* town brigade: K merged with the vertical rook */
    assert_int_equal(p.nv, 8);
    assert_true(has_vec(&p, 0, 1, 0, MC));
    assert_true(has_vec(&p, 1, 0, 1, MC));
    parse("FfsW", &p);                  /* aide de camp: no straight back */
    assert_int_equal(p.nv, 7);
    assert_false(has_vec(&p, 0, -1, 1, MC));
    parse("hrN", &p);                   /* XBetza's chiral knight: f6 g3 d2 c5 from e4 */
    assert_int_equal(p.nv, 4);
    assert_true(has_vec(&p, 1, 2, 1, MC));
    assert_true(has_vec(&p, 2, -1, 1, MC));
    assert_true(has_vec(&p, -1, -2, 1, MC));
    assert_true(has_vec(&p, -2, 1, 1, MC));
    parse("hlN", &p);
    assert_true(has_vec(&p, -1, 2, 1, MC));
    assert_false(has_vec(&p, 1, 2, 1, MC));
}

static void test_two_legs(void **state)
{
    (void)state;
    parsed p;
    /* the sumo wrestler (a double mover): a king step, then one more in any direction (back too) */
    parse("KmcaKmcabK", &p);
    assert_int_equal(p.nv, 8);
    assert_int_equal(p.np, 64);
    assert_true(has_pair(&p, 1, 0, 1, 0));
    assert_true(has_pair(&p, 1, 0, -1, 0));      /* back: igui or a pass */
    assert_true(has_pair(&p, 1, 1, 0, 1));
    for (size_t i = 0; i < p.np; i++) {
        assert_int_equal(p.p[i].mod1, MC);
        assert_int_equal(p.p[i].mod2, MC);
    }
    /* without a modality the first leg only moves */
    parse("aK", &p);
    assert_int_equal(p.np, 56);                  /* 8 x 7: not straight back */
    assert_false(has_pair(&p, 1, 0, -1, 0));
    assert_int_equal(p.p[0].mod1, KOMA__BETZA_EMPTY);
    /* war hawk: straight on or back only */
    parse("BWmcafWmcabW", &p);
    assert_int_equal(p.np, 8);
    assert_true(has_pair(&p, 0, 1, 0, 1));
    assert_true(has_pair(&p, 0, 1, 0, -1));
    assert_false(has_pair(&p, 0, 1, 1, 0));
    /* tiger wing: second ferz step any way; a diagonal turn of W is refused */
    parse("FmcaFmcabF", &p);
    assert_int_equal(p.np, 16);
    assert_true(has_pair(&p, 1, 1, 1, -1));
    /* cavalry: the same heading (straight on or mirrored) or back */
    parse("NmcafNmcabNhrmcaflNhlmcafrN", &p);
    assert_int_equal(p.np, 24);
    assert_true(has_pair(&p, 1, 2, 1, 2));      /* (2,4) */
    assert_true(has_pair(&p, 1, 2, -1, 2));     /* (0,4) */
    assert_true(has_pair(&p, 2, 1, 2, -1));     /* (4,0) */
    assert_true(has_pair(&p, -2, -1, -2, 1));   /* (-4,0) */
    assert_true(has_pair(&p, 1, -2, -1, -2));   /* (0,-4) */
    assert_true(has_pair(&p, 1, 2, -1, -2));    /* back */
    assert_false(has_pair(&p, 1, 2, 2, 1));     /* (3,3): another heading */
    assert_false(has_pair(&p, 2, 1, 1, 2));
    /* relative letters */
    parse("WmcasW", &p);
    assert_int_equal(p.np, 8);
    assert_true(has_pair(&p, 0, 1, 1, 0));
    assert_true(has_pair(&p, 0, 1, -1, 0));
}

static void bad(const char *s, koma_code code, size_t offset)
{
    parsed p;
    koma_error err;
    memset(&err, 0, sizeof err);
    if (koma__betza_parse_ex(s, strlen(s), p.v, 64, &p.nv, p.p, 256, &p.np, &err) == 0)
        fail_msg("\"%s\" accepted", s);
    if (err.code != code || err.offset != offset)
        fail_msg("\"%s\": %s at %zu, expected %s at %zu (%s)", s, koma_code_name(err.code),
                 err.offset, koma_code_name(code), offset, err.message);
}

static void test_errors(void **state)
{
    (void)state;
    bad("WaflW", KOMA_E_BETZA_UNSUPPORTED, 2);   /* a diagonal turn of a W leg */
    bad("KaaK", KOMA_E_BETZA_UNSUPPORTED, 2);    /* three legs */
    bad("QmcaQ", KOMA_E_BETZA_UNSUPPORTED, 4);   /* two legs of a rider */
    bad("WmcaW3", KOMA_E_BETZA_UNSUPPORTED, 4);  /* a count on two legs */
    bad("WmcahrN", KOMA_E_BETZA_UNSUPPORTED, 4); /* handedness of a second leg */
    bad("hW", KOMA_E_BETZA_UNSUPPORTED, 0);
    bad("xW", KOMA_E_BETZA_UNSUPPORTED, 0);
    bad("mc", KOMA_E_BETZA_SYNTAX, 0);
    bad("W0", KOMA_E_BETZA_SYNTAX, 1);
    bad("Wc", KOMA_E_BETZA_SYNTAX, 1);
    bad("hrW", KOMA_E_BETZA_SYNTAX, 0);          /* selects no move */
    bad("", KOMA_E_BETZA_SYNTAX, 0);
    bad("hxW", KOMA_E_BETZA_UNSUPPORTED, 0);      /* 'h' without r or l */
    bad("ffffffffffffffffW", KOMA_E_BETZA_SYNTAX, 15);   /* too many direction letters */
    bad("W300", KOMA_E_BETZA_SYNTAX, 1);          /* range past 255 */
    bad("Wc300", KOMA_E_BETZA_SYNTAX, 2);
    bad("R5", KOMA_E_BETZA_SYNTAX, 1);            /* a count after a compound atom */
    char longb[80];
    memset(longb, 'W', 65);
    longb[65] = '\0';
    bad(longb, KOMA_E_BETZA_SYNTAX, 64);
    /* more moves or two-leg moves than there is room for */
    parsed p;
    koma_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(koma__betza_parse_ex(LIT("WFN"), p.v, 8, &p.nv, p.p, 256, &p.np, &err), -1);
    assert_int_equal(err.code, KOMA_E_BETZA_UNSUPPORTED);
    assert_int_equal(err.offset, 2);
    assert_int_equal(koma__betza_parse_ex(LIT("NmcaN"), p.v, 64, &p.nv, p.p, 4, &p.np, &err), -1);
    assert_int_equal(err.code, KOMA_E_BETZA_UNSUPPORTED);
    assert_int_equal(err.offset, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modalities),
        cmocka_unit_test(test_two_legs),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
