/*
 * tests/unit/test_version.c — the version (koma/version.h) and the ABI's sized
 * structs (libkoma(3), Conventions): koma_version() is the header's numbers; a
 * koma_verdict or an options struct of a size the library does not know is
 * refused (api.size), one it knows is served without a byte written past the
 * caller's size, and an older caller's shorter struct is read with defaults
 * for the members it does not know.
 */
#include "unit.h"

#include <stdlib.h>

#include "internal.h"

static void test_version(void **state)
{
    (void)state;
    char want[32];
    assert_int_equal(koma_version(), KOMA_VERSION_NUMBER);
    assert_int_equal(KOMA_VERSION_NUMBER,
                     KOMA_VERSION_MAJOR * 10000L + KOMA_VERSION_MINOR * 100L + KOMA_VERSION_PATCH);
    snprintf(want, sizeof want, "%d.%d.%d", KOMA_VERSION_MAJOR, KOMA_VERSION_MINOR, KOMA_VERSION_PATCH);
    assert_string_equal(koma_version_string(), want);
    assert_string_equal(KOMA_VERSION, want);
}

/* A short Minishogi record whose verdict has a dispute: an illegal ply. */
#define RECORD "{\"setup\":{\"feen\":\"rbsgk^/4p/5/P4/K^GSBR / S/s\"},\"plies\":[{\"pmn\":\"e1-e5\"}]}"

/* Judge RECORD into v (of v->size bytes): koma_referee_pcn's result, err's code. */
static int judge(koma_verdict *v, koma_code *code)
{
    koma_error err;
    koma_error_clear(&err);
    koma_referee *ref;
    assert_int_equal(koma_referee_new(NULL, &ref, &err), 0);
    koma_pcn *rec = NULL;
    koma_pcn_parse_json(LIT(RECORD), &rec, &err);
    assert_non_null(rec);
    int rc = koma_referee_pcn(ref, games_set(), NULL, rec, NULL, v, &err);
    *code = err.code;
    koma_pcn_free(rec);
    koma_referee_free(ref);
    return rc;
}

#define GUARD 64

/* A verdict as a caller built against a header of `size` bytes holds it, with
 * guard bytes after it. */
static koma_verdict *verdict_of(size_t size)
{
    unsigned char *p = malloc(sizeof(koma_verdict) + GUARD);
    assert_non_null(p);
    memset(p, 0xA5, sizeof(koma_verdict) + GUARD);
    koma_verdict *v = (koma_verdict *)p;
    v->size = size;
    return v;
}

static void guard_intact(const koma_verdict *v, size_t size)
{
    const unsigned char *p = (const unsigned char *)v;
    for (size_t i = size; i < sizeof(koma_verdict) + GUARD; i++) assert_int_equal(p[i], 0xA5);
}

/* Sizes the library does not know: refused, nothing written but the error. */
static void test_verdict_refused(void **state)
{
    (void)state;
    size_t bad[] = {0, sizeof(size_t), KOMA__VERDICT_FIRST - 1, sizeof(koma_verdict) + 8};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        koma_verdict *v = verdict_of(bad[i]);
        koma_code code;
        assert_int_equal(judge(v, &code), -1);
        assert_int_equal(code, KOMA_E_API_SIZE);
        assert_int_equal(v->size, bad[i]);
        guard_intact(v, sizeof v->size);
        /* the words and the outcome writer refuse it too */
        char buf[64] = "x";
        assert_int_equal(koma_verdict_reason(v, buf, sizeof buf), 0);
        assert_string_equal(buf, "");
        assert_null(koma_verdict_repetition_rule(v));
        koma_error err;
        koma_pcn *rec = NULL;
        koma_pcn_parse_json(LIT(RECORD), &rec, &err);
        assert_int_equal(koma_verdict_outcome(v, rec, &err), -1);
        assert_int_equal(err.code, KOMA_E_API_SIZE);
        koma_pcn_free(rec);
        free(v);
    }
}

/* Every size the library knows, from the first layout of this SONAME to its
 * own: served, never written past, the same verdict as the library's own. */
static void test_verdict_served(void **state)
{
    (void)state;
    /* the same bytes under both, for the members the referee leaves alone */
    koma_verdict *whole = verdict_of(sizeof(koma_verdict));
    koma_code code;
    assert_int_equal(judge(whole, &code), 0);
    char want[512], got[512];
    koma_verdict_reason(whole, want, sizeof want);
    size_t sizes[] = {KOMA__VERDICT_FIRST, sizeof(koma_verdict)};
    for (size_t i = 0; i < 2; i++) {
        koma_verdict *v = verdict_of(sizes[i]);
        assert_int_equal(judge(v, &code), 0);
        assert_int_equal(v->size, sizes[i]);
        guard_intact(v, sizes[i]);
        assert_true(KOMA_SIZED_HAS(v, koma_verdict, unjudged_member));
        assert_int_equal(memcmp((char *)v + sizeof v->size, (char *)whole + sizeof whole->size,
                                sizes[i] - sizeof v->size), 0);
        koma_verdict_reason(v, got, sizeof got);
        assert_string_equal(got, want);
        free(v);
    }
    free(whole);
}

/* The mechanism every sized struct goes through, on a struct that has grown:
 * a caller of the first layout (size, a) is read with b at its default (0); a
 * caller of the grown one, whole; a size outside the two, refused. */
typedef struct grown {
    size_t size;
    int a;
    int b;                             /* appended after the first layout */
} grown;

static void test_sized_read(void **state)
{
    (void)state;
    size_t first = offsetof(grown, b);
    unsigned char old[sizeof(grown)];
    memset(old, 0xA5, sizeof old);     /* what lies past an older caller's struct */
    grown head = {first, 7, 0};
    memcpy(old, &head, first);
    grown out;
    koma_error err;
    assert_int_equal(koma__sized_read(&out, sizeof out, old, first, "grown", &err), 0);
    assert_int_equal(out.size, sizeof out);
    assert_int_equal(out.a, 7);
    assert_int_equal(out.b, 0);
    grown now = {sizeof now, 1, 2};
    assert_int_equal(koma__sized_read(&out, sizeof out, &now, first, "grown", &err), 0);
    assert_int_equal(out.b, 2);
    assert_int_equal(koma__sized_read(&out, sizeof out, NULL, first, "grown", &err), 0);
    assert_int_equal(out.a, 0);
    grown bad = {first - 1, 1, 2};
    assert_int_equal(koma__sized_read(&out, sizeof out, &bad, first, "grown", &err), -1);
    assert_int_equal(err.code, KOMA_E_API_SIZE);
    bad.size = sizeof bad + 1;
    assert_int_equal(koma__sized_read(&out, sizeof out, &bad, first, "grown", &err), -1);
}

/* The options structs: the _INIT macro's size served, no size refused. */
static void test_options(void **state)
{
    (void)state;
    koma_error err;
    koma_referee *ref = NULL;
    koma_referee_options ro = KOMA_REFEREE_OPTIONS_INIT;
    assert_int_equal(koma_referee_new(&ro, &ref, &err), 0);
    koma_referee_free(ref);
    ro.size = 0;
    assert_int_equal(koma_referee_new(&ro, &ref, &err), -1);
    assert_int_equal(err.code, KOMA_E_API_SIZE);
    assert_null(ref);

    koma_hub *hub = NULL;
    koma_hub_new(NULL, &hub, &err);
    assert_non_null(hub);
    koma_format_reader_options so = KOMA_FORMAT_READER_OPTIONS_INIT;
    koma_format_reader *rs = NULL;
    koma_format_reader_new(hub, NULL, &so, &rs, &err);
    assert_non_null(rs);
    koma_format_reader_free(rs);
    so.size = sizeof so + 4;
    assert_int_equal(koma_format_reader_new(hub, NULL, &so, &(koma_format_reader *){NULL}, &err), -1);
    assert_int_equal(err.code, KOMA_E_API_SIZE);
    koma_hub_free(hub);

    koma_convert_options co = KOMA_CONVERT_OPTIONS_INIT;
    co.to = koma_format_find(LIT("pcn"));
    assert_int_equal(koma_convert_check(&co, &err), 0);
    co.size = 0;
    assert_int_equal(koma_convert_check(&co, &err), KOMA_CONVERT_UNFIT_SIZE);
    assert_int_equal(err.code, KOMA_E_API_SIZE);
    assert_int_equal(koma_converter_new(&co, &(koma_converter *){NULL}, &err), -1);

    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(LIT("k^/K^ / S/s"), KOMA_FEEN_STRICT, &pos, &err), 0);
    koma_diagram_options d = KOMA_DIAGRAM_OPTIONS_INIT;
    char buf[512];
    assert_int_equal(koma_diagram_print(&pos, NULL, &d, buf, sizeof buf, NULL, &err), 0);
    d.size = 1;
    assert_int_equal(koma_diagram_print(&pos, NULL, &d, buf, sizeof buf, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_API_SIZE);
    koma_position_cleanup(&pos);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_verdict_refused),
        cmocka_unit_test(test_verdict_served),
        cmocka_unit_test(test_sized_read),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
