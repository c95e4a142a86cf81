/*
 * tests/fuzz/fuzz_chain.c — libFuzzer harness for PMN chains (koma/pmn.h,
 * koma-formats(5), PMN, Chains) and the leg forms.
 *
 * Invariants checked (abort() on violation):
 *  - koma_chain_parse: a valid input is written back byte for byte and parses
 *    again to an equal chain; an error has line 1, a column in 1..len+1
 *    (offset = column - 1) and a pmn.* code.
 *  - against two fixed Ko shogi positions (the start, and a middle game with
 *    promoted pieces, flames and full hands), for a chain that parses:
 *    koma_chain_canonical gives a chain that parses, passes koma_chain_check,
 *    is its own canonical form, and applies to the same position as the input;
 *    koma_chain_check accepts the input exactly when it equals that form (and
 *    applies); a refused apply leaves the position unchanged.
 *  - the legs dialect: a move read is canonical (parses, passes the check) and
 *    applies; errors stay within the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <koma/koma.h>

static const char *const positions[] = {
    "atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/"
    "n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/9v9/19/19/19/"
    "19/19/9V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/"
    "ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / K/k",
    "a1ujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/"
    "n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/4+u4v9/19/19/"
    "8+d10/6+T'12/4W14/3+U5V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/"
    "N'1N3N1N1N1N1N1N1N'/ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA "
    "2cpt'/PS k/K",
};

static void check_error(const koma_error *err, size_t size)
{
    if (err->code == KOMA_OK || err->code >= KOMA_CODE_COUNT) abort();
    if (err->offset > size) abort();
    if (err->line != 1 || err->column < 1 || err->column > size + 1) abort();
    if (err->offset != err->column - 1) abort();
    if (memchr(err->message, '\0', sizeof err->message) == NULL) abort();
}

static int applied(const koma_position *pos, const koma_chain *c, koma_position *out)
{
    koma_position_init(out);
    if (koma_position_copy(out, pos, NULL) != 0) return -1;
    koma_error err;
    if (koma_chain_apply(out, c, &err) != 0) {
        if (err.code != KOMA_E_MEMORY && !koma_position_equal(out, pos)) abort();
        return -1;
    }
    if (out->turn == pos->turn) abort();
    return 0;
}

/* c is canonical in pos: parses back, passes the check, is a fixed point. */
static void check_canonical(const koma_position *pos, const koma_chain *c)
{
    char text[KOMA_MOVE_TEXT_BUF];
    koma_chain again, fixed;
    koma_error err;
    size_t n = koma_chain_write(c, text, sizeof text);
    if (n == 0 || n > KOMA_LIMIT_MOVE_TEXT) abort();
    if (koma_chain_parse(text, n, &again, &err) != 0) abort();
    if (!koma_chain_equal(c, &again)) abort();
    if (koma_chain_check(pos, &again, &err) != 0 && err.code != KOMA_E_MEMORY) abort();
    if (koma_chain_canonical(pos, &again, &fixed, &err) == 0 && !koma_chain_equal(&fixed, c))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    koma_chain c, again;
    koma_error err;
    char buf[KOMA_MOVE_TEXT_BUF];
    int parsed;

    memset(&err, 0, sizeof err);
    parsed = koma_chain_parse(s, size, &c, &err) == 0;
    if (parsed) {
        size_t n = koma_chain_write(&c, buf, sizeof buf);
        if (n != size || memcmp(buf, s, size) != 0) abort();
        if (koma_chain_parse(buf, n, &again, NULL) != 0 || !koma_chain_equal(&c, &again)) abort();
    } else {
        check_error(&err, size);
        if (koma_code_name(err.code)[0] != 'p') abort();      /* a pmn.* code */
    }

    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        koma_position pos;
        koma_position_init(&pos);
        if (koma_feen_parse(positions[i], strlen(positions[i]), KOMA_FEEN_STRICT, &pos, &err) != 0)
            abort();
        if (parsed) {
            koma_chain canon;
            koma_position a, b;
            int ok_apply = applied(&pos, &c, &a) == 0;
            if (koma_chain_canonical(&pos, &c, &canon, &err) == 0) {
                if (!ok_apply) abort();
                check_canonical(&pos, &canon);
                if (applied(&pos, &canon, &b) != 0) abort();
                if (!koma_position_equal(&a, &b)) abort();
                koma_position_cleanup(&b);
                int is_canon = koma_chain_equal(&c, &canon);
                int checked = koma_chain_check(&pos, &c, &err) == 0;
                /* canonical text can still fail an element's own canonical-suffix rule
                 * (a redundant suffix) only if it is not the canonical form */
                if (checked && !is_canon && c.len > 1) abort();
            } else if (err.code != KOMA_E_MEMORY && koma_chain_check(&pos, &c, &err) == 0 && c.len > 1) {
                abort();
            }
            koma_position_cleanup(&a);
        }
        memset(&err, 0, sizeof err);
        koma_chain legs;
        if (koma_chain_read_legs(s, size, &pos, &legs, &err) == 0) {
            koma_position a;
            check_canonical(&pos, &legs);
            if (applied(&pos, &legs, &a) != 0) abort();
            koma_position_cleanup(&a);
        } else {
            check_error(&err, size);
        }
        koma_position_cleanup(&pos);
    }
    return 0;
}
