/*
 * tests/fuzz/fuzz_sanki.c — libFuzzer harness for the Sanki move form
 * [from, to, actor] (koma-formats(5), PMN, Input dialects, sanki) and its lists.
 *
 * Invariants checked (CHECK, tests/fuzz/fuzz.h), against Sanki positions of each
 * variant and pairing (chess against Ogi, Ogi against Ogi with hands, Xiongqi
 * against chess, a position of another style):
 *  - a move read passes koma_pmn_check, is writable as PMN, and, written back
 *    with koma_sanki_move_write, reads back to a move of the same squares (the
 *    same move when the piece choice has a word); an error is located within
 *    the input (line >= 1, offset <= size) with a one-line message.
 *  - koma_sanki_move_list: every move's byte range lies inside the input, starts
 *    with '[' and ends with ']', the ranges follow one another, and the count
 *    returned is the number of calls; an error has an offset within the input.
 */

#include <koma/koma.h>
#include "fuzz.h"

static const char *const positions[] = {
    "rnbqk^bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK^BNR / W/j",
    "3ik^'b2/3+f+f+f2/5n2/8/B7/2I5/8/4K^3 2FN/13f4r3n2b j/J",
    "4g^3/1P2S3/8/8/8/8/3s4/4K^3 r/S C/w",
    "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
};

static void check_error(const koma_error *err, size_t size)
{
    CHECK(err->code != KOMA_OK && err->code < KOMA_CODE_COUNT);
    CHECK(err->offset <= size);
    CHECK(err->line >= 1 && err->column >= 1);
    check_message(err);
}

static void check_move(const koma_position *pos, const char *s, size_t size)
{
    koma_move m, back;
    koma_error err;
    char pmn[KOMA_PMN_BUF], text[300];

    memset(&err, 0, sizeof err);
    if (koma_pmn_parse_dialect(KOMA_PMN_DIALECT_SANKI, s, size, pos, &m, &err) != 0) {
        if (err.code != KOMA_E_MEMORY) check_error(&err, size);
        return;
    }
    CHECK(koma_pmn_write(&m, pmn) > 0);
    CHECK(koma_pmn_check(pos, &m, &err) == 0);
    size_t n = koma_sanki_move_write(pos, &m, text, sizeof text, &err);
    if (n == 0) {
        CHECK(err.code == KOMA_E_CONVERT_UNREPRESENTABLE || err.code == KOMA_E_PMN_SANKI_STYLE);
        return;
    }
    CHECK(n < sizeof text && strlen(text) == n);
    CHECK(koma_pmn_parse_dialect(KOMA_PMN_DIALECT_SANKI, text, n, pos, &back, &err) == 0);
    CHECK(back.kind == m.kind && koma_cell_equal(&back.dst, &m.dst));
    if (m.kind != KOMA_MOVE_DROP) CHECK(koma_cell_equal(&back.src, &m.src));
}

typedef struct ranges {
    const char *s;
    size_t size, next;
    long calls;
} ranges;

static int one(void *ctx, size_t at, size_t len)
{
    ranges *r = ctx;
    CHECK(at >= r->next && len >= 2 && at + len <= r->size);
    CHECK(r->s[at] == '[' && r->s[at + len - 1] == ']');
    r->next = at + len;
    r->calls++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    koma_error err;
    memset(&err, 0, sizeof err);
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        koma_position pos;
        koma_position_init(&pos);
        CHECK(koma_feen_parse(positions[i], strlen(positions[i]), KOMA_FEEN_STRICT, &pos, &err) == 0);
        check_move(&pos, s, size);
        koma_position_cleanup(&pos);
    }
    ranges r = {s, size, 0, 0};
    long n = koma_sanki_move_list(s, size, one, &r, &err);
    if (n < 0) check_error(&err, size);
    else CHECK(n == r.calls);
    if (n >= 0) CHECK(koma_sanki_is_list(s, size));
    return 0;
}
