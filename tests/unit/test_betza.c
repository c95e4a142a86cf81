/* tests/unit/test_betza.c — the Betza movement parser: exact vector sets. */
#include <stdlib.h>
#include "unit.h"

static int vcmp(const void *a, const void *b)
{
    const koma_betza_vector *x = a, *y = b;
    if (x->dy != y->dy) return y->dy - x->dy;      /* forwards first */
    if (x->dx != y->dx) return x->dx - y->dx;
    return (int)x->range - (int)y->range;
}

/* Render as "dx,dy[*|:n] ..." sorted (dy descending, then dx): "*" unlimited ride. */
static void render(const char *betza, char *out, size_t cap)
{
    koma_betza_vector v[KOMA_BETZA_MAX_VECTORS];
    size_t n;
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_betza_parse(betza, strlen(betza), v, KOMA_BETZA_MAX_VECTORS, &n, &err);
    if (rc != 0) print_error("%s: %s\n", betza, err.message);
    assert_int_equal(rc, 0);
    qsort(v, n, sizeof v[0], vcmp);
    size_t pos = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char r[8] = "";
        if (v[i].range == 0) snprintf(r, sizeof r, "*");
        else if (v[i].range > 1) snprintf(r, sizeof r, ":%u", v[i].range);
        pos += (size_t)snprintf(out + pos, cap - pos, "%s%d,%d%s", i ? " " : "", v[i].dx, v[i].dy, r);
    }
}

static void expect(const char *betza, const char *want)
{
    char got[2048];
    render(betza, got, sizeof got);
    if (strcmp(got, want) != 0) print_error("%s:\n  got  %s\n  want %s\n", betza, got, want);
    assert_string_equal(got, want);
}

static void test_atoms(void **state)
{
    (void)state;
    expect("W", "0,1 -1,0 1,0 0,-1");
    expect("F", "-1,1 1,1 -1,-1 1,-1");
    expect("K", "-1,1 0,1 1,1 -1,0 1,0 -1,-1 0,-1 1,-1");
    expect("N", "-1,2 1,2 -2,1 2,1 -2,-1 2,-1 -1,-2 1,-2");
    expect("D", "0,2 -2,0 2,0 0,-2");
    expect("A", "-2,2 2,2 -2,-2 2,-2");
}

static void test_riders(void **state)
{
    (void)state;
    expect("R", "0,1* -1,0* 1,0* 0,-1*");
    expect("B", "-1,1* 1,1* -1,-1* 1,-1*");
    expect("Q", "-1,1* 0,1* 1,1* -1,0* 1,0* -1,-1* 0,-1* 1,-1*");
    expect("WW", "0,1* -1,0* 1,0* 0,-1*");
    expect("W2", "0,1:2 -1,0:2 1,0:2 0,-1:2");
    expect("fNN", "-1,2* 1,2* -2,1* 2,1*");
}

static void test_shogi_family(void **state)
{
    (void)state;
    expect("fW", "0,1");                                     /* pawn */
    expect("fR", "0,1*");                                    /* lance */
    expect("fbR", "0,1* 0,-1*");                             /* Okisaki lance */
    expect("ffN", "-1,2 1,2");                               /* shogi knight */
    expect("FfW", "-1,1 0,1 1,1 -1,-1 1,-1");                /* silver */
    expect("WfF", "-1,1 0,1 1,1 -1,0 1,0 0,-1");             /* gold */
    expect("RF", "-1,1 0,1* 1,1 -1,0* 1,0* -1,-1 0,-1* 1,-1"); /* dragon */
    expect("BW", "-1,1* 0,1 1,1* -1,0 1,0 -1,-1* 0,-1 1,-1*"); /* horse */
    expect("BN", "-1,2 1,2 -2,1 -1,1* 1,1* 2,1 -2,-1 -1,-1* 1,-1* 2,-1 -1,-2 1,-2");
    expect("BNW", "-1,2 1,2 -2,1 -1,1* 0,1 1,1* 2,1 -1,0 1,0 -2,-1 -1,-1* 0,-1 1,-1* 2,-1 -1,-2 1,-2");
    /* a vector given as a leap and as a ride keeps the ride */
    expect("WR", "0,1* -1,0* 1,0* 0,-1*");
}

static void test_modifiers(void **state)
{
    (void)state;
    expect("fsN", "-2,1 2,1");                    /* forward wide */
    expect("fN", "-1,2 1,2 -2,1 2,1");
    expect("bN", "-2,-1 2,-1 -1,-2 1,-2");
    expect("vN", "-1,2 1,2 -1,-2 1,-2");          /* narrow */
    expect("sN", "-2,1 2,1 -2,-1 2,-1");          /* wide */
    expect("flN", "-1,2 -2,1");
    expect("llN", "-2,1 -2,-1");
    expect("rvN", "1,2 1,-2");
    expect("vR", "0,1* 0,-1*");
    expect("sR", "-1,0* 1,0*");
    expect("fsW", "0,1 -1,0 1,0");                /* orthogonal: f + s */
    expect("flF", "-1,1");
    expect("lF", "-1,1 -1,-1");
    expect("fK", "-1,1 0,1 1,1");
    expect("bB", "-1,-1* 1,-1*");
}

static void expect_error(const char *betza, koma_code code, size_t offset)
{
    koma_betza_vector v[KOMA_BETZA_MAX_VECTORS];
    size_t n;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_betza_parse(betza, strlen(betza), v, KOMA_BETZA_MAX_VECTORS, &n, &err), -1);
    if (err.code != code || err.offset != offset)
        print_error("%s: %s at %zu (%s)\n", betza, koma_code_name(err.code), err.offset, err.message);
    assert_int_equal(err.code, code);
    assert_int_equal(err.offset, offset);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", KOMA_E_BETZA_SYNTAX, 0);
    expect_error("f", KOMA_E_BETZA_SYNTAX, 0);
    expect_error("WX", KOMA_E_BETZA_SYNTAX, 1);
    expect_error("mW", KOMA_E_BETZA_UNSUPPORTED, 0);
    expect_error("W0", KOMA_E_BETZA_SYNTAX, 1);
    expect_error("W256", KOMA_E_BETZA_SYNTAX, 1);
    expect_error("vF", KOMA_E_BETZA_SYNTAX, 0);   /* selects nothing */
    expect_error("K2", KOMA_E_BETZA_SYNTAX, 1);
    /* longer than 64 bytes, at byte 64 */
    char longb[80];
    memset(longb, 'W', 65);
    longb[65] = '\0';
    expect_error(longb, KOMA_E_BETZA_SYNTAX, 64);
    /* more vectors than the caller has room for: at the atom that passes */
    koma_betza_vector v[8];
    size_t n;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_betza_parse(LIT("WF"), v, 8, &n, &err), 0);
    assert_int_equal(n, 8);                    /* W and F: four each */
    assert_int_equal(koma_betza_parse(LIT("WFN"), v, 8, &n, &err), -1);
    assert_int_equal(err.code, KOMA_E_BETZA_UNSUPPORTED);
    assert_int_equal(err.offset, 2);
    assert_int_equal(koma_betza_parse(LIT("K"), v, 4, &n, &err), -1);      /* K: W and F */
    assert_int_equal(err.code, KOMA_E_BETZA_UNSUPPORTED);
    assert_int_equal(err.offset, 0);
    /* the same vector twice keeps the longer reach */
    assert_int_equal(koma_betza_parse(LIT("W2R"), v, 4, &n, &err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(v[0].range, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atoms),
        cmocka_unit_test(test_riders),
        cmocka_unit_test(test_shogi_family),
        cmocka_unit_test(test_modifiers),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
