/*
 * tests/fuzz/fuzz_pmn.c — libFuzzer harness for PMN and its dialects.
 *
 * Invariants checked (CHECK, tests/fuzz/fuzz.h):
 *  - koma_pmn_parse: a valid input is written back byte for byte
 *    (write(parse(s)) == s; a pieceless drop keeps piece 0 and is written back
 *    as `*e5` — the piece is only written once a position resolved it), and the
 *    written text parses to an equal move; an error has line 1 and a column in
 *    1..len+1 (offset = column - 1).
 *  - every dialect, against two fixed Ōgi positions (the start, and a middle
 *    game with both hands filled): a move read is writable, passes
 *    koma_pmn_check, reads back identically as canonical PMN, and (unless it
 *    is a '~' move) applies; a refused apply leaves the position unchanged.
 *    Error columns of the one-line dialects stay within 1..len+1, and every
 *    JSON error offset within the input.
 *  - koma_pmn_parse's quick forms change nothing: the grammar's parsers alone
 *    (koma__pmn_parse_grammar) give the same move, or the same error.
 */

#include <koma/koma.h>
#include "pmn_internal.h"              /* koma__pmn_parse_grammar */
#include "fuzz.h"

static const char *const positions[] = {
    "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
    "lnsi1snl/1r4b1/ppp1pppp/3+P4/4k^'3/PPPP1PPP/1B4R1/LNSIK^SNL 2PS/+pp o/O",
};

static void check_error(const koma_error *err, size_t size, int one_line)
{
    CHECK(err->code != KOMA_OK && err->code < KOMA_CODE_COUNT);
    CHECK(err->offset <= size);
    if (one_line) {
        CHECK(err->line == 1 && err->column >= 1 && err->column <= size + 1);
        CHECK(err->offset == err->column - 1);
    } else {
        CHECK(err->line >= 1 && err->column >= 1);
    }
    check_message(err);
}

static void check_dialect(koma_pmn_dialect d, const koma_position *pos, const char *s,
                          size_t size)
{
    koma_move m, again;
    koma_error err;
    char buf[KOMA_PMN_BUF];

    memset(&err, 0, sizeof err);
    if (koma_pmn_parse_dialect(d, s, size, pos, &m, &err) != 0) {
        if (err.code == KOMA_E_MEMORY) return;
        check_error(&err, size, d != KOMA_PMN_DIALECT_JSON_ARRAY);
        return;
    }
    size_t n = koma_pmn_write(&m, buf);
    CHECK(n > 0 && n <= KOMA_PMN_MAX_LEN);
    /* with a position, a pieceless drop is always resolved */
    CHECK(!((m.kind == KOMA_MOVE_DROP || m.kind == KOMA_MOVE_DROPCAP) && m.piece == KOMA_PIECE_NONE));
    CHECK(koma_pmn_check(pos, &m, &err) == 0);
    CHECK(koma_pmn_parse_dialect(KOMA_PMN_DIALECT_CANONICAL, buf, n, pos, &again, &err) == 0);
    CHECK(koma_move_equal(&m, &again));

    koma_position copy;
    koma_position_init(&copy);
    if (koma_position_copy(&copy, pos, &err) == 0) {
        int rc = koma_move_apply(&copy, &m, &err);
        if (m.kind == KOMA_MOVE_SPECIAL) {
            CHECK(rc == -1 && err.code == KOMA_E_PMN_SPECIAL);
            CHECK(koma_position_equal(&copy, pos));
        } else if (rc != 0) {
            CHECK(err.code == KOMA_E_MEMORY);
        } else {
            CHECK(copy.turn != pos->turn);
        }
    }
    koma_position_cleanup(&copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    koma_move m, again;
    koma_error err;
    char buf[KOMA_PMN_BUF];

    memset(&err, 0, sizeof err);
    if (koma_pmn_parse(s, size, &m, &err) == 0) {
        size_t n = koma_pmn_write(&m, buf);
        CHECK(n == size && memcmp(buf, s, size) == 0);
        CHECK(koma_pmn_parse(buf, n, &again, NULL) == 0);
        CHECK(koma_move_equal(&m, &again) && memcmp(&m, &again, sizeof m) == 0);
    } else {
        check_error(&err, size, 1);
        CHECK(strncmp(koma_code_name(err.code), "pmn.", 4) == 0);
    }
    {
        koma_move g;
        koma_error gerr;
        memset(&gerr, 0, sizeof gerr);
        int rg = koma__pmn_parse_grammar(s, size, &g, &gerr);
        if (rg == 0) CHECK(err.code == KOMA_OK && memcmp(&m, &g, sizeof m) == 0);
        else CHECK(gerr.code == err.code && gerr.offset == err.offset &&
                   strcmp(gerr.message, err.message) == 0);
    }

    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        koma_position pos;
        koma_position_init(&pos);
        CHECK(koma_feen_parse(positions[i], strlen(positions[i]), KOMA_FEEN_STRICT, &pos, &err) == 0);
        check_dialect(KOMA_PMN_DIALECT_CANONICAL, &pos, s, size);
        check_dialect(KOMA_PMN_DIALECT_SEED, &pos, s, size);
        check_dialect(KOMA_PMN_DIALECT_JSON_ARRAY, &pos, s, size);
        koma_position_cleanup(&pos);
    }
    return 0;
}
