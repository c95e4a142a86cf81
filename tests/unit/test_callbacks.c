/* tests/unit/test_callbacks.c — libkoma(3), CONVENTIONS: every callback takes its
 * context first, and a callback's non-zero return stops the call, which returns
 * that very value (here 42, or -7: a value no call returns of its own). Each call
 * that takes a callback is stopped at its first call-back. */
#include "unit.h"

#include <stdlib.h>

#define STOP 42

typedef struct seen {
    int calls;                         /* how many times the callback ran */
    int value;                         /* what it returns */
} seen;

/* Every callback below: one more call, and the value it was told to return. */
static int hit(void *ctx)
{
    seen *s = ctx;
    s->calls++;
    return s->value;
}

static int on_move(void *ctx, const char *pmn, size_t len, const koma_move *move)
{
    (void)pmn, (void)len, (void)move;
    return hit(ctx);
}

static int on_progress(void *ctx, size_t done, size_t total)
{
    (void)done, (void)total;
    return hit(ctx);
}

static int on_job(void *ctx, unsigned depth, const char *feen, size_t len)
{
    (void)depth, (void)feen, (void)len;
    return hit(ctx);
}

static int on_node(void *ctx, const koma_pcn_node *n)
{
    (void)n;
    return hit(ctx);
}

static int on_member(void *ctx, const koma_pcn_member_diff *d)
{
    (void)d;
    return hit(ctx);
}

static int on_entry(void *ctx, const koma_ggn_entry *e)
{
    (void)e;
    return hit(ctx);
}

static int on_write(void *ctx, const char *data, size_t len)
{
    (void)data, (void)len;
    return hit(ctx);
}

static int on_position(void *ctx, size_t ply, const char *text, size_t len)
{
    (void)ply, (void)text, (void)len;
    return hit(ctx);
}

static int on_begun(void *ctx, koma_referee *ref)
{
    (void)ref;
    return hit(ctx);
}

static const char start_pcn[] =
    "{\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"},"
    "\"plies\":[{\"pmn\":\"c3-c4\"}]}";

static koma_pcn *record(const char *text)
{
    koma_pcn *p = NULL;
    koma_error err;
    assert_int_equal(koma_pcn_parse_json(text, strlen(text), &p, &err), 0);
    assert_non_null(p);
    return p;
}

static void test_moves(void **state)
{
    (void)state;
    koma_error err;
    koma_ggn *ggn = NULL;
    assert_int_equal(koma_game_to_ggn(game_of("shogi"), &ggn, &err), 0);
    koma_engine *e = engine_at("shogi", koma_game_start(game_of("shogi")));
    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(koma_game_start(game_of("shogi")),
                                     strlen(koma_game_start(game_of("shogi"))), KOMA_FEEN_STRICT,
                                     &pos, &err), 0);
    for (int v = 0; v < 2; v++) {
        int value = v ? -7 : STOP;
        seen a = {0, value}, b = {0, value}, c = {0, value};
        assert_int_equal(koma_ggn_moves(ggn, &pos, on_move, &a, &err), value);
        assert_int_equal(a.calls, 1);
        assert_int_equal(koma_engine_ggn_moves(e, ggn, on_move, &b, &err), value);
        assert_int_equal(b.calls, 1);
        assert_int_equal(koma_ggn_generate(ggn, game_of("shogi"), &pos, on_move, &c, &err), value);
        assert_int_equal(c.calls, 1);
    }
    seen all = {0, 0};
    assert_int_equal(koma_ggn_moves(ggn, &pos, on_move, &all, &err), 0);
    assert_true(all.calls > 1);
    seen f = {0, STOP};
    assert_int_equal(koma_ggn_foreach(ggn, on_entry, &f), STOP);
    assert_int_equal(f.calls, 1);
    seen w = {0, STOP};
    assert_int_equal(koma_ggn_write(ggn, KOMA_GGN_COMPACT, on_write, &w, &err), STOP);
    assert_int_equal(err.code, KOMA_E_IO_WRITE);
    assert_int_equal(w.calls, 1);
    koma_position_cleanup(&pos);
    koma_engine_free(e);
    koma_ggn_free(ggn);
}

static void test_perft(void **state)
{
    (void)state;
    koma_error err;
    koma_engine *e = engine_at("shogi", koma_game_start(game_of("shogi")));
    seen p = {0, STOP};
    koma_perft_entry *entries = NULL;
    size_t n = 0;
    assert_int_equal(koma_engine_perft_divide(e, 1, &entries, &n, on_progress, &p, &err), STOP);
    assert_int_equal(p.calls, 1);
    assert_null(entries);
    seen j = {0, -7};
    assert_int_equal(koma_engine_perft_split(e, 2, 1, on_job, &j, &err), -7);
    assert_int_equal(j.calls, 1);
    koma_engine_free(e);
    /* Ko shogi's effect engine keeps the same rule */
    e = engine_at("koshogi", koma_game_start(game_of("koshogi")));
    seen q = {0, STOP}, k = {0, STOP};
    assert_int_equal(koma_engine_perft_divide(e, 1, &entries, &n, on_progress, &q, &err), STOP);
    assert_int_equal(q.calls, 1);
    assert_int_equal(koma_engine_perft_split(e, 1, 1, on_job, &k, &err), STOP);
    assert_int_equal(k.calls, 1);
    koma_engine_free(e);
}

static void test_records(void **state)
{
    (void)state;
    koma_error err;
    koma_pcn *a = record(start_pcn);
    koma_pcn *b = record("{\"setup\":{\"feen\":\"4k^4/9/9/9/9/9/9/9/4K^4 / S/s\"}}");
    seen w = {0, STOP};
    assert_int_equal(koma_pcn_walk(a, "", on_node, &w, &err), STOP);
    assert_int_equal(w.calls, 1);
    koma_pcn_diff d;
    koma_pcn_diff_init(&d);
    seen m = {0, -7};
    assert_int_equal(koma_pcn_diff_compare(&d, a, b, on_member, &m, &err), -7);
    assert_int_equal(m.calls, 1);
    koma_pcn_diff_cleanup(&d);

    /* a position format's positions, one at a time */
    koma_hub *hub = NULL;
    assert_int_equal(koma_hub_new(NULL, &hub, &err), 0);
    koma_format_writer *ws = NULL;
    assert_int_equal(koma_format_writer_new(hub, koma_format_find(LIT("feen")), KOMA_WRITE_EACH, &ws,
                                            &err), 0);
    seen p = {0, STOP};
    koma_format_writer_each_position(ws, on_position, &p);
    koma_buffer out = {0};
    assert_int_equal(koma_format_writer_record(ws, a, &out, &err), STOP);
    assert_int_equal(err.code, KOMA_E_IO_WRITE);
    assert_int_equal(p.calls, 1);
    koma_buffer_cleanup(&out);
    koma_format_writer_free(ws);
    koma_hub_free(hub);

    /* the referee's hooks */
    koma_game_set *games = NULL;
    koma_referee *ref = NULL;
    assert_int_equal(koma_game_set_new(&games, &err), 0);
    assert_int_equal(koma_referee_new(NULL, &ref, &err), 0);
    koma_verdict v = KOMA_VERDICT_INIT;
    seen h = {0, STOP};
    koma_referee_hooks hooks = {on_begun, NULL, &h};
    assert_int_equal(koma_referee_pcn(ref, games, NULL, a, &hooks, &v, &err), STOP);
    assert_int_equal(h.calls, 1);
    koma_referee_free(ref);
    koma_game_set_free(games);
    koma_pcn_free(a);
    koma_pcn_free(b);
}

static void test_diagram(void **state)
{
    (void)state;
    koma_error err;
    koma_position pos;
    koma_position_init(&pos);
    const char *start = koma_game_start(game_of("shogi"));
    assert_int_equal(koma_feen_parse(start, strlen(start), KOMA_FEEN_STRICT, &pos, &err), 0);
    koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
    seen w = {0, STOP};
    assert_int_equal(koma_diagram_write(&pos, game_of("shogi"), &o, on_write, &w, &err), STOP);
    assert_int_equal(err.code, KOMA_E_IO_WRITE);
    assert_int_equal(w.calls, 1);
    koma_position_cleanup(&pos);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_diagram),
    };
    return cmocka_run_group_tests(t, games_setup, games_teardown);
}
