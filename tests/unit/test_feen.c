/* tests/unit/test_feen.c — FEEN parsing, validation (code + column) and writing. */
#include "unit.h"
#include "internal.h"             /* KOMA__FEEN_CAREFUL */

#include <stdlib.h>

/* ---- helpers ---------------------------------------------------------------- */

static void assert_printable(const char *msg)
{
    assert_true(msg[0] != '\0');
    for (const char *p = msg; *p; p++) assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
}

/* The shown form of an input in failure messages (may hold NUL or high bytes). */
static const char *shown(const char *s, size_t len, char *buf, size_t cap)
{
    koma_quote(buf, cap, s, len);
    return buf;
}

/* s must parse strictly, dump to itself and re-parse to an equal position. */
static void check_valid(const char *s, size_t len)
{
    koma_position pos, back, norm;
    koma_error err;
    char q[200];
    koma_position_init(&pos);
    koma_position_init(&back);
    koma_position_init(&norm);
    koma_error_clear(&err);
    if (koma_feen_parse(s, len, KOMA_FEEN_STRICT, &pos, &err) != 0)
        print_error("valid FEEN rejected: \"%s\": %s at %zu: %s\n", shown(s, len, q, sizeof q),
                    koma_code_name(err.code), err.offset, err.message);
    assert_int_equal(err.code, KOMA_OK);

    size_t n = koma_feen_write(&pos, NULL, 0);
    assert_int_equal(n, len);
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    assert_int_equal(koma_feen_write(&pos, buf, n + 1), n);
    assert_int_equal(buf[n], '\0');
    if (memcmp(buf, s, len) != 0)
        print_error("dump differs:\n  in:  %s\n  out: %s\n", shown(s, len, q, sizeof q), buf);
    assert_memory_equal(buf, s, len);

    assert_int_equal(koma_feen_parse(buf, n, KOMA_FEEN_STRICT, &back, NULL), 0);
    assert_true(koma_position_equal(&pos, &back));
    /* the normalising mode reads a canonical FEEN the same way */
    assert_int_equal(koma_feen_parse(s, len, KOMA_FEEN_NORMALISE, &norm, NULL), 0);
    assert_true(koma_position_equal(&pos, &norm));
    /* board size = product of the dimensions */
    const koma_shape *sh = &pos.shape;
    assert_true(sh->ndims >= 1 && sh->ndims <= 3);
    assert_int_equal(sh->squares, (uint32_t)sh->size[0] * sh->size[1] * sh->size[2]);
    free(buf);
    koma_position_cleanup(&pos);
    koma_position_cleanup(&back);
    koma_position_cleanup(&norm);
}

static void check_invalid_flags(const char *s, size_t len, unsigned flags, koma_code code,
                                size_t offset)
{
    koma_position pos;
    koma_error err;
    char q[200];
    koma_position_init(&pos);
    koma_error_clear(&err);
    int rc = koma_feen_parse(s, len, flags, &pos, &err);
    if (rc != -1 || err.code != code || err.offset != offset)
        print_error("\"%s\" (flags %u): got %s at %zu (%s), want %s at %zu\n",
                    shown(s, len, q, sizeof q), flags, rc == 0 ? "success" : koma_code_name(err.code),
                    err.offset, err.message, koma_code_name(code), offset);
    assert_int_equal(rc, -1);
    assert_int_equal(err.code, code);
    assert_int_equal(err.offset, offset);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, offset + 1);
    assert_printable(err.message);
    /* a failed parse leaves an empty position */
    assert_int_equal(pos.shape.squares, 0);
    assert_int_equal(pos.hands[0].len, 0);
    assert_int_equal(pos.hands[1].len, 0);
    /* and err may be NULL */
    assert_int_equal(koma_feen_parse(s, len, flags, &pos, NULL), -1);
    koma_position_cleanup(&pos);
}

/* Invalid in both modes, unless the code is about hand aggregation or order. */
static void check_invalid(const char *s, size_t len, koma_code code, size_t offset)
{
    check_invalid_flags(s, len, KOMA_FEEN_STRICT, code, offset);
    if (code != KOMA_E_FEEN_HAND_AGGREGATE && code != KOMA_E_FEEN_HAND_ORDER)
        check_invalid_flags(s, len, KOMA_FEEN_NORMALISE, code, offset);
}

/* The valid and invalid FEENs of the specification, with their codes and columns
 * (checked as check_valid and check_invalid do), are tests/spec/feen.tsv
 * (test_spec.c); here what the parser builds, the limits, the writer. */

/* ---- what the parser builds --------------------------------------------------- */

#define PC(c) koma_piece_from_letter(c)

static void test_shape_and_board(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);

    /* Ōgi start: 8x8, first rank written = rank 8 */
    assert_int_equal(koma_feen_parse(LIT("lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"),
                                     0, &pos, NULL), 0);
    assert_int_equal(pos.shape.ndims, 2);
    assert_int_equal(pos.shape.size[0], 8);
    assert_int_equal(pos.shape.size[1], 8);
    assert_int_equal(pos.shape.size[2], 1);
    assert_int_equal(pos.shape.squares, 64);
    assert_int_equal(pos.board[0], PC('l'));
    assert_int_equal(pos.board[4], PC('k') | KOMA_PIECE_TERMINAL);
    assert_int_equal(pos.board[8], KOMA_PIECE_NONE);
    assert_int_equal(pos.board[9], PC('r'));
    assert_int_equal(pos.board[14], PC('b'));
    assert_int_equal(pos.board[24], KOMA_PIECE_NONE);
    assert_int_equal(pos.board[63], PC('L'));
    assert_int_equal(pos.board[60], PC('K') | KOMA_PIECE_TERMINAL);
    assert_int_equal(pos.style[0], 'O');
    assert_int_equal(pos.style[1], 'o');
    assert_int_equal(pos.turn, KOMA_FIRST);
    assert_int_equal(pos.hands[0].len, 0);
    assert_int_equal(pos.hands[1].len, 0);

    /* 1-D */
    assert_int_equal(koma_feen_parse(LIT("K2Q3R / C/s"), 0, &pos, NULL), 0);
    assert_int_equal(pos.shape.ndims, 1);
    assert_int_equal(pos.shape.size[0], 8);
    assert_int_equal(pos.shape.size[1], 1);
    assert_int_equal(pos.shape.size[2], 1);
    assert_int_equal(pos.shape.squares, 8);
    assert_int_equal(pos.board[0], PC('K'));
    assert_int_equal(pos.board[1], 0);
    assert_int_equal(pos.board[3], PC('Q'));
    assert_int_equal(pos.board[7], PC('R'));
    assert_int_equal(pos.style[0], 'C');
    assert_int_equal(pos.style[1], 's');

    /* 3-D: files, ranks, layers; FEEN order */
    assert_int_equal(koma_feen_parse(LIT("a/b//c/d//e/f / G/g"), 0, &pos, NULL), 0);
    assert_int_equal(pos.shape.ndims, 3);
    assert_int_equal(pos.shape.size[0], 1);
    assert_int_equal(pos.shape.size[1], 2);
    assert_int_equal(pos.shape.size[2], 3);
    assert_int_equal(pos.shape.squares, 6);
    for (int i = 0; i < 6; i++) assert_int_equal(pos.board[i], PC((char)('a' + i)));

    assert_int_equal(koma_feen_parse(LIT("1+K^'1/3//3/-q'2 / c/C"), 0, &pos, NULL), 0);
    assert_int_equal(pos.shape.size[0], 3);
    assert_int_equal(pos.shape.size[1], 2);
    assert_int_equal(pos.shape.size[2], 2);
    assert_int_equal(pos.board[1], PC('K') | KOMA_PIECE_ENHANCED | KOMA_PIECE_TERMINAL |
                                       KOMA_PIECE_DERIVED);
    assert_int_equal(pos.board[9], PC('q') | KOMA_PIECE_DIMINISHED | KOMA_PIECE_DERIVED);
    assert_int_equal(pos.turn, KOMA_SECOND);
    assert_int_equal(pos.style[0], 'C');
    assert_int_equal(pos.style[1], 'c');

    /* cross style, second to move */
    assert_int_equal(koma_feen_parse(LIT("K / m/C"), 0, &pos, NULL), 0);
    assert_int_equal(pos.turn, KOMA_SECOND);
    assert_int_equal(pos.style[0], 'C');
    assert_int_equal(pos.style[1], 'm');

    /* hands */
    assert_int_equal(koma_feen_parse(LIT("8/8/8/8/8/8/8/8 3B2PNR/2qp C/c"), 0, &pos, NULL), 0);
    assert_int_equal(pos.hands[0].len, 4);
    assert_int_equal(koma_hand_count(&pos.hands[0], PC('B')), 3);
    assert_int_equal(koma_hand_count(&pos.hands[0], PC('P')), 2);
    assert_int_equal(koma_hand_count(&pos.hands[0], PC('N')), 1);
    assert_int_equal(koma_hand_count(&pos.hands[0], PC('R')), 1);
    assert_int_equal(koma_hand_count(&pos.hands[0], PC('p')), 0);
    assert_int_equal(koma_hand_total(&pos.hands[0]), 7);
    assert_int_equal(koma_hand_count(&pos.hands[1], PC('q')), 2);
    assert_int_equal(koma_hand_count(&pos.hands[1], PC('p')), 1);
    /* items are kept in hand-key order */
    for (size_t h = 0; h < 2; h++)
        for (size_t i = 1; i < pos.hands[h].len; i++)
            assert_true(koma_piece_hand_key(pos.hands[h].items[i - 1].piece) <
                        koma_piece_hand_key(pos.hands[h].items[i].piece));

    /* any case in any hand */
    assert_int_equal(koma_feen_parse(LIT("4k^3/8/8/8/8/8/8/4K^3 /P W/w"), 0, &pos, NULL), 0);
    assert_int_equal(koma_hand_count(&pos.hands[1], PC('P')), 1);
    assert_int_equal(koma_hand_count(&pos.hands[0], PC('P')), 0);

    koma_position_cleanup(&pos);
}

/* ---- normalising mode ---------------------------------------------------------- */

static void test_normalise(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"8/8/8/8/8/8/8/8 PpP/p C/c", "8/8/8/8/8/8/8/8 2Pp/p C/c"},
        {"K PP/ C/c", NULL},                             /* cardinality still applies */
        {"2 PP/ C/c", "2 2P/ C/c"},
        {"8/8/8/8/8/8/8/8 PB/ C/c", "8/8/8/8/8/8/8/8 BP/ C/c"},
        {"8/8/8/8/8/8/8/8 2P3B/ C/c", "8/8/8/8/8/8/8/8 3B2P/ C/c"},
        {"8/8/8/8/8/8/8/8 P2P/ C/c", "8/8/8/8/8/8/8/8 3P/ C/c"},
        {"8/8/8/8/8/8/8/8 pP/ C/c", "8/8/8/8/8/8/8/8 Pp/ C/c"},
        {"8/8/8/8/8/8/8/8 P^P/ C/c", "8/8/8/8/8/8/8/8 PP^/ C/c"},
        {"8/8/8/8/8/8/8/8 PBP/bpbBb C/c", "8/8/8/8/8/8/8/8 2PB/3bBp C/c"},
        {"8/8/8/8/8/8/8/8 RN2PB3B/ C/c", "8/8/8/8/8/8/8/8 4B2PNR/ C/c"},
        {"8/8/8/8/8/8/8/8 +P-PP+P-P/ C/c", "8/8/8/8/8/8/8/8 2-P2+PP/ C/c"},
        {"8/8/8/8/8/8/8/8 3B2PNR/2qp C/c", "8/8/8/8/8/8/8/8 3B2PNR/2qp C/c"},
    };
    koma_position pos, strict;
    koma_position_init(&pos);
    koma_position_init(&strict);
    char buf[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len = strlen(cases[i].in);
        koma_error err;
        int rc = koma_feen_parse(cases[i].in, len, KOMA_FEEN_NORMALISE, &pos, &err);
        if (cases[i].out == NULL) {
            assert_int_equal(rc, -1);
            assert_int_equal(err.code, KOMA_E_FEEN_CARDINALITY);
            continue;
        }
        if (rc != 0) print_error("%s: %s\n", cases[i].in, err.message);
        assert_int_equal(rc, 0);
        size_t n = koma_feen_write(&pos, buf, sizeof buf);
        assert_string_equal(buf, cases[i].out);
        assert_int_equal(n, strlen(cases[i].out));
        assert_int_equal(koma_feen_parse(buf, n, KOMA_FEEN_STRICT, &strict, NULL), 0);
        assert_true(koma_position_equal(&pos, &strict));
    }
    /* what the normalising mode still refuses: tests/spec/feen.tsv, mode=normalise */
    koma_position_cleanup(&pos);
    koma_position_cleanup(&strict);
}

/* ---- limits ------------------------------------------------------------------- */

/* Append the text to a growing buffer (test helper). */
struct sbuf {
    char *p;
    size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}

/* count copies of item joined by sep, then tail */
static struct sbuf repeat(const char *item, const char *sep, unsigned count, const char *tail)
{
    struct sbuf b = {NULL, 0, 0};
    sb_add(&b, "");
    for (unsigned i = 0; i < count; i++) {
        if (i > 0) sb_add(&b, sep);
        sb_add(&b, item);
    }
    sb_add(&b, tail);
    return b;
}

static void test_length_limit(void **state)
{
    (void)state;
    /* exactly 4096 bytes: 4 ranks of 255 squares with 7 single empties, and the
     * 7 missing pieces in hand (pieces == squares) */
    struct sbuf b = {NULL, 0, 0};
    sb_add(&b, "");
    for (int r = 0; r < 4; r++) {
        if (r > 0) sb_add(&b, "/");
        sb_add(&b, "1");
        for (int i = 0; i < (r < 3 ? 253 : 254); i++) sb_add(&b, "+K^'");
        if (r < 3) sb_add(&b, "1");
    }
    sb_add(&b, " +A^'+B^'+C^'+D^'/+e^'+f^'+g^' C/c");
    assert_int_equal(b.len, 4096);
    check_valid(b.p, b.len);

    /* 4097 bytes: feen.length at offset 4096, before anything else */
    sb_add(&b, " ");
    check_invalid(b.p, b.len, KOMA_E_FEEN_LENGTH, 4096);
    free(b.p);

    char *junk = malloc(10000);
    assert_non_null(junk);
    memset(junk, 0xff, 10000);
    check_invalid(junk, 4097, KOMA_E_FEEN_LENGTH, 4096);
    check_invalid(junk, 10000, KOMA_E_FEEN_LENGTH, 4096);
    check_invalid(junk, 4096, KOMA_E_FEEN_ASCII, 0);
    free(junk);
}

static void test_dimension_limits(void **state)
{
    (void)state;
    struct sbuf b;

    /* 255 ranks: valid; 256: feen.placement.size at the first token of rank 256 */
    b = repeat("1", "/", 255, " / C/c");
    check_valid(b.p, b.len);
    free(b.p);
    b = repeat("1", "/", 256, " / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SIZE, 510);
    free(b.p);

    /* 255 layers of 2 ranks: valid; 256: size at the first token of layer 256 */
    b = repeat("1/1", "//", 255, " / C/c");
    check_valid(b.p, b.len);
    free(b.p);
    b = repeat("1/1", "//", 256, " / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SIZE, 255 * 5);
    free(b.p);

    /* 255 ranks in a layer of a 3-D board; 256 */
    b = repeat("1", "/", 255, "//");
    struct sbuf c = repeat("1", "/", 255, " / C/c");
    sb_add(&b, c.p);
    check_valid(b.p, b.len);
    free(b.p);
    free(c.p);
    b = repeat("1", "/", 256, "//1/1 / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SIZE, 510);
    free(b.p);

    /* 255 x 255 = 65025 squares: valid */
    b = repeat("255", "/", 255, " / C/c");
    check_valid(b.p, b.len);
    free(b.p);
    /* with one piece on every square of a rank, and 255 pieces in hand... */
    b = repeat("255", "/", 254, "/");
    for (int i = 0; i < 255; i++) sb_add(&b, "K");
    sb_add(&b, " 255P/ C/c");
    check_valid(b.p, b.len);
    free(b.p);

    /* 3-D: 255 x 3 x 85 = 65025: valid; 86 layers: squares at the first token of layer 86 */
    b = repeat("255/255/255", "//", 85, " / C/c");
    check_valid(b.p, b.len);
    free(b.p);
    b = repeat("255/255/255", "//", 86, " / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SQUARES, 85 * 13);
    free(b.p);
    /* 255 x 2 x 128 = 65280: the second rank of layer 128 crosses 65025 */
    b = repeat("255/255", "//", 128, " / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SQUARES, 127 * 9 + 4);
    free(b.p);
    /* the crossing token is a piece, or a count after a piece */
    b = repeat("255/255/255", "//", 85, "//K254/255/255 / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SQUARES, 85 * 13);
    free(b.p);
    b = repeat("255/255/255", "//", 85, "//1K253/255/255 / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SQUARES, 85 * 13);
    free(b.p);
    /* a 3-D board is checked for squares before its layers are complete */
    b = repeat("255/255/255", "//", 85, "//255 / C/c");
    check_invalid(b.p, b.len, KOMA_E_FEEN_PLACEMENT_SQUARES, 85 * 13);
    free(b.p);
}

/* (the odd bytes, NUL and non-ASCII ones, are cases of tests/spec/feen.tsv) */
static void test_no_terminator(void **state)
{
    (void)state;
    /* no NUL terminator is needed: a prefix of a longer buffer */
    check_valid("K / C/cXYZ", 7);
}

/* ---- the writer ------------------------------------------------------------------ */

static void test_write_truncation(void **state)
{
    (void)state;
    static const char feen[] = "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o";
    size_t len = sizeof feen - 1;
    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(feen, len, 0, &pos, NULL), 0);
    assert_int_equal(koma_feen_write(&pos, NULL, 0), len);
    char buf[128];
    for (size_t cap = 1; cap <= len + 2; cap++) {
        memset(buf, 'X', sizeof buf);
        assert_int_equal(koma_feen_write(&pos, buf, cap), len);
        size_t written = cap - 1 < len ? cap - 1 : len;
        assert_memory_equal(buf, feen, written);
        assert_int_equal(buf[written], '\0');
        assert_int_equal(buf[cap], 'X');
    }
    memset(buf, 'X', sizeof buf);
    assert_int_equal(koma_feen_write(&pos, buf, 0), len);
    assert_int_equal(buf[0], 'X');
    koma_position_cleanup(&pos);
}

/* A position built with the API dumps canonically and parses back to itself. */
static void test_write_built(void **state)
{
    (void)state;
    koma_position pos, back;
    koma_position_init(&pos);
    koma_position_init(&back);
    koma_shape shape = {2, {3, 3, 1}, 9};
    assert_int_equal(koma_position_reset(&pos, &shape, NULL), 0);
    pos.board[1] = PC('k') | KOMA_PIECE_TERMINAL;
    pos.board[4] = PC('P') | KOMA_PIECE_ENHANCED;
    pos.board[8] = PC('K') | KOMA_PIECE_TERMINAL | KOMA_PIECE_DERIVED;
    pos.style[0] = 'S';
    pos.style[1] = 's';
    pos.turn = KOMA_SECOND;
    assert_int_equal(koma_hand_add(&pos.hands[0], PC('P'), 2, NULL), 0);
    assert_int_equal(koma_hand_add(&pos.hands[0], PC('B'), 1, NULL), 0);
    assert_int_equal(koma_hand_add(&pos.hands[0], PC('G'), 2, NULL), 0);
    assert_int_equal(koma_hand_add(&pos.hands[1], PC('r') | KOMA_PIECE_DIMINISHED, 1, NULL), 0);
    char buf[64];
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, "1k^1/1+P1/2K^' 2G2PB/-r s/S");
    assert_int_equal(koma_feen_parse(buf, strlen(buf), 0, &back, NULL), 0);
    assert_true(koma_position_equal(&pos, &back));

    /* an empty 3-D board */
    koma_shape cube = {3, {2, 2, 3}, 12};
    assert_int_equal(koma_position_reset(&pos, &cube, NULL), 0);
    pos.turn = KOMA_FIRST;
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, "2/2//2/2//2/2 / S/s");
    assert_int_equal(koma_feen_parse(buf, strlen(buf), 0, &back, NULL), 0);
    assert_true(koma_position_equal(&pos, &back));

    /* 1-D, runs of empties split by pieces */
    koma_shape line = {1, {12, 1, 1}, 12};
    assert_int_equal(koma_position_reset(&pos, &line, NULL), 0);
    pos.board[10] = PC('a');
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, "10a1 / S/s");
    koma_position_cleanup(&pos);
    koma_position_cleanup(&back);
}

/* ---- buffer reuse ------------------------------------------------------------------ */

static void test_buffer_reuse(void **state)
{
    (void)state;
    koma_position pos;
    koma_position_init(&pos);
    struct sbuf big = repeat("255", "/", 255, " 3B2PNR/2qp C/c");
    static const char small[] = "lnsgk^gsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGK^GSNL P/p S/s";
    assert_int_equal(koma_feen_parse(big.p, big.len, 0, &pos, NULL), 0);
    koma_piece *board = pos.board;
    koma_hand_item *h0 = pos.hands[0].items, *h1 = pos.hands[1].items;
    size_t cap = pos.board_cap;
    assert_true(cap >= 65025);
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(koma_feen_parse(LIT(small), 0, &pos, NULL), 0);
        assert_int_equal(koma_feen_parse(big.p, big.len, 0, &pos, NULL), 0);
        assert_int_equal(koma_feen_parse(LIT("K@ / C/c"), 0, &pos, NULL), -1);
    }
    assert_ptr_equal(pos.board, board);
    assert_ptr_equal(pos.hands[0].items, h0);
    assert_ptr_equal(pos.hands[1].items, h1);
    assert_int_equal(pos.board_cap, cap);
    /* a failed parse leaves a usable position */
    assert_int_equal(koma_feen_parse(LIT(small), 0, &pos, NULL), 0);
    char buf[128];
    koma_feen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, small);
    free(big.p);
    koma_position_cleanup(&pos);
}

static void test_null_arguments(void **state)
{
    (void)state;
    koma_error err;
    assert_int_equal(koma_feen_parse(LIT("K / C/c"), 0, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_feen_parse(NULL, 0, 0, &pos, &err), -1);
    assert_int_equal(err.code, KOMA_E_FEEN_FIELDS);
    assert_int_equal(err.offset, 0);
    koma_position_cleanup(&pos);
}

/* Inputs whose only space is the one before a style-like ending ("K C/c": two
 * fields), parsed from a heap copy of exactly their size: the fast path read its
 * hands past the end of the input (make sanitize: ASan; found by fuzz_feen). */
static void test_two_fields_no_overread(void **state)
{
    (void)state;
    static const char *const inputs[] = {"K C/c", "K C/c ", "8/8 C/c", "K2 P/p", "KK C/C", "K  C/c"};
    koma_position pos;
    koma_position_init(&pos);
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        size_t len = strlen(inputs[i]);
        char *copy = malloc(len);
        assert_non_null(copy);
        memcpy(copy, inputs[i], len);
        for (unsigned flags = 0; flags < 4; flags++) {
            koma_error err;
            koma_error_clear(&err);
            assert_int_equal(koma_feen_parse(copy, len, flags, &pos, &err), -1);
            assert_true(err.code >= KOMA_E_FEEN_LENGTH && err.code <= KOMA_E_FEEN_CARDINALITY);
        }
        free(copy);
    }
    koma_position_cleanup(&pos);
}

/* ---- the fast path agrees with the careful parser ------------------------------ */

/* Random edits of valid FEENs (bytes that matter to the grammar), each parsed
 * with and without lib/feen.c's fast paths (parse_fast; check_sse2 under
 * KOMA_FEEN_CHECK_ONLY): same result, same error, same position. */
/* feen.cardinality names the count it saw: the total when every count fits in
 * 32 bits, and a count past 2^32-1 as such (never the saturated total) */
static void test_cardinality_message(void **state)
{
    (void)state;
    static const struct { const char *feen, *says; } cases[] = {
        {"K 4294967295P/ C/c", "(4294967296 pieces, 1 square)"},
        {"K 4294967296P/ C/c", "(a hand count past 4294967295, 1 square)"},
        {"K 99999999999999999999P/ C/c", "(a hand count past 4294967295, 1 square)"},
        {"K 2P/3p C/c", "(6 pieces, 1 square)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        koma_position pos;
        koma_error err;
        koma_position_init(&pos);
        assert_int_equal(koma_feen_parse(cases[i].feen, strlen(cases[i].feen), KOMA_FEEN_STRICT,
                                         &pos, &err), -1);
        assert_int_equal(err.code, KOMA_E_FEEN_CARDINALITY);
        if (strstr(err.message, cases[i].says) == NULL)
            fail_msg("%s: \"%s\" does not say %s", cases[i].feen, err.message, cases[i].says);
        koma_position_cleanup(&pos);
    }
    /* merged counts (normalise) that pass 2^32-1 together */
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    const char *merged = "K 4294967295PP/ C/c";
    assert_int_equal(koma_feen_parse(merged, strlen(merged), KOMA_FEEN_NORMALISE, &pos, &err), -1);
    assert_int_equal(err.code, KOMA_E_FEEN_CARDINALITY);
    assert_non_null(strstr(err.message, "a hand count past 4294967295"));
    koma_position_cleanup(&pos);
}

static void test_fast_path_agrees(void **state)
{
    (void)state;
    static const char *const base[] = {
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
        "l6nl/5+P1gk^/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bK^L GR/5pgns s/S",
        "R8/2K^1S1SSk^/4B4/9/9/9/9/9/1L1L1L3 BGLNPRS/17p3g3n S/s",
        "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / C/c",
        "3ik^'b2/2+f1+f3/2n5/1N6/8/4I3/8/4K^3 /14f4r3b2n J/j",
        "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSNL / Q/q",
        "a/b//c/d / G/g", "k^+p4+PK^ / C/c", "K / C/c", "2/2 2P/ C/c", "K1 P/ s/C",
        "255 / A/b", "K254/256 / A/b", "1K/K1 +P'/-p^ C/c", "12/12 12P/ C/c",
        "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL 2P/p S/s",
        "9/9/9/9/9/9/9/9/9 18P2L/18p2l s/S", "19/19/19 3P/ K/k",
        "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp / C/c",
        "ppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp / C/c", "12/12 12P/ C/c",
        "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL 2P/p S/s",
        "9/9/9/9/9/9/9/9/9 18P2L/18p2l s/S", "19/19/19 3P/ K/k",
        /* lib/feen_quick.c's edges: ranks past 255 squares made of counts, a placement
         * past 64 and 128 bytes, two-digit counts at a block's end, items of one
         * letter in other states, hands at the window's end */
        "99K99K99K / C/c", "99K99K57 / C/c", "99K99K56 / C/c", "90/90 180P/ C/c", "K/1 / C/c",
        "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R 2+P+p'P/-p^p C/c",
        "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSNL / Q/q",
        "+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P/16/16 / C/c",
        "+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P/16/16/16 / C/c",
        "pppppppppppppppppppppppppppppp12/pppppppppppppppppppppppppppppp12 / C/c",
        "K/P 2P+P-PP^P'/ C/c", "K/P P+P/ C/c", "8/8/8/8/8/8/8/8 PP/ C/c", "8/8 10P/ C/c",
        "8/8 2P10B/ C/c", "8/8 10P2B/ C/c", "8/8 1P/ C/c", "8/8 0P/ C/c", "8/8 100P/ C/c",
        "K^/8 / C/c", "8/K^ / C/c",
        /* 3-D boards, which the AVX2 checker reads too (layers_check): layers of equal
         * rank counts, a "//" across a 32-byte block, counts and hands beside them */
        "a/b//c/d//e/f / G/g", "2/ab//1a/b1 3A/ G/g", "10/10//10/10//9K/10 2P/p C/c",
        "pppppppppp/pppppppppp//pppppppppp/pppppppppp//1p8/10 / C/c",
        "ppppppppppppppp/ppppppppppppppp//1pppppppppppppp/ppppppppppppppp / C/c",
        "K^2/3/3//3/3/2k^ 2P/ C/c", "a/b//c/d/e//f/g/h / G/g",
        /* the AVX-512 checker's 3-D boards by the exact running sum (T < 256, at
         * most 16 ranks) and past it: layers of other rank counts (first, middle,
         * last), a rank of another length after a "//", 16 and 18 ranks, T past 255 */
        "a/b/c//d/e/f / G/g", "a/b/c//d/e / G/g", "a/b//c/d//e/f/g / G/g", "a/b//c/d/e//f/g / G/g",
        "ab/c//de/fg / G/g", "ab/cd//e/fg / G/g", "a/b//c/d/ / G/g", "1/1/1/1/1/1/1/1//1/1/1/1/1/1/1/1 / A/a",
        "1/1/1/1//1/1/1/1//1/1/1/1//1/1/1/1 2P/p A/a", "1/1/1/1/1//1/1/1//1/1/1/1//1/1/1/1 / A/a",
        "1/1/1/1/1/1/1/1/1//1/1/1/1/1/1/1/1/1 / A/a", "99K99K55/99K99K55//99K99K55/99K99K55 / C/c",
        /* the AVX-512 checker's edges: T of 256 and more (the running sum mod 256),
         * 16 and 17 ranks, a placement of 61 and 62 bytes, one letter twice in a
         * hand at other counts, the first item's order word 0, 16-byte hands */
        "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 / A/a", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / A/a",
        "1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1 / A/a", "1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1 / A/a",
        "pppppppppppppppppppppppppppppp/pppppppppppppppppppppppppppppp / C/c",
        "ppppppppppppppppppppppppppppppp/pppppppppppppppppppppppppppppp1 / C/c",
        "8/8 3P2P/ C/c", "8/8 2P3P/ C/c", "8/8 3P2+P/ C/c", "10/10/10/10/10/10/10/10/10/10 99A/ C/c", "8/8 2A2a/2a2A C/c",
        "9/9/9/9/9/9/9/9/9 BGLNPRS/17p3g3n C/c", "9/9/9/9/9/9/9/9/9 2B2G2L2N2P2R2S/p C/c",
        /* its identity test (keys turned round by 1 to 8 places): one letter twice, 7
         * and 1 items apart, in either hand; 16 items; 15 distinct ones */
        "8/8/8/8/8/8/8/8 2A2B2C2D2E2F2GA/ C/c", "8/8/8/8/8/8/8/8 /2a2b2c2d2e2f2ga C/c",
        "8/8/8/8/8/8/8/8 3A2B2C2D2E2F2GH/ C/c", "8/8/8/8/8/8/8/8 ABCDEFGHIJKLMNO/ C/c",
        "8/8/8/8/8/8/8/8 ABCDEFGH/abcdefg C/c", "8/8/8/8/8/8/8/8 2AA/ C/c",
        /* with at most 7 items (keys turned round by 1 to 4 places in 8 lanes): one
         * letter twice, 3 to 6 items apart, in either hand; 7 distinct ones */
        "8/8/8/8/8/8/8/8 2A2B2CA/ C/c", "8/8/8/8/8/8/8/8 2A2B2C2DA/ C/c", "8/8/8/8/8/8/8/8 2A2B2C2D2EA/ C/c",
        "8/8/8/8/8/8/8/8 2A2B2C2D2E2FA/ C/c", "8/8/8/8/8/8/8/8 P/2a2b2c2da C/c", "8/8/8/8/8/8/8/8 ABCDEFG/ C/c",
        /* and the pieces in hand (the counts' sum in the low 8 lanes): the 7th
         * item's count one past the squares, and not */
        "13 2A2B2C2D2E2F2G/ C/c", "14 2A2B2C2D2E2F2G/ C/c", "13 /2a2b2c2d2e2f2g C/c", "14 P/2a2b2c2d2e2f C/c",
        "13 P/2a2b2c2d2e2f C/c",
        /* the AVX-512 checker's placements of 62 to 126 bytes (two vectors, 128-bit
         * masks): a token across the 64th byte (a sign, '^', '\'', a two-digit
         * count, a '/'), hands of a few and of more than 16 bytes, T past 255, a
         * 3-D board, a line of 127 bytes */
        "ppppppppppppppppppppppppppppppp+p/pppppppppppppppppppppppppppppppp / C/c",
        "pppppppppppppppppppppppppppppppk^/pppppppppppppppppppppppppppppppp / C/c",
        "ppppppppppppppppppppppppppppppk^'p/pppppppppppppppppppppppppppppppp / C/c",
        "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp12/74 / C/c",
        "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp/pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp / C/c",
        "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSN1 L/ Q/q",
        "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GS2 2B2G2L2N2P2R2S/ Q/q",
        "99K99P/99K99P/99K99P/99K99P/99K99P/99K99P/99K99P/99K99P/99K99P/99K99P/99K99P / C/c",
        "pppppppppppppppppppppppppppppp/pppppppppppppppppppppppppppppp//pppppppppppppppppppppppppppppp/30 / C/c",
        "+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P+P/-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p-p / C/c",
        "1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1 / A/a",
        /* the hands' counts read from the placement's running sum when that sum is
         * only known mod 256 (T past 255) */
        "99K99K55/99K99K55 3P2B/p C/c", "99K99K55/99K99K55 /12p C/c",
        /* the AVX-512 checker's T from each 8-byte group's sum narrowed to a byte:
         * a group past 255 whose low byte is small (ranks of 300 and 44 squares,
         * equal mod 256), T of exactly 255 */
        "99a99a99a/44 / C/c", "44/99a99a99a / C/c", "99K99K55 / C/c", "99K99K55 2P/ C/c",
        /* its placements past 62 bytes with T < 255 and at most 16 ranks (the exact
         * running sums at the rank ends of both vectors side by side): T of 254,
         * 256, 255 and 252, 16 and 17 ranks, a rank end at the 64th byte, a rank
         * of another length in either vector */
        "ppppppppppppppppppppppppppppppppppp92/ppppppppppppppppppppppppppppppppppp92 / C/c", "ppppppppppppppppppppppppppppppppppp92/ppppppppppppppppppppppppppppppppppp92 2P/p C/c",
        "pppppppppppppppppppppppppppppppppppp92/pppppppppppppppppppppppppppppppppppp92 / C/c", "pppppppppppppppppppppppppppppp55/pppppppppppppppppppppppppppppp55/pppppppppppppppppppppppppppppp55 / C/c",
        "pppppppppppppppppppppppppppppp54/pppppppppppppppppppppppppppppp54/pppppppppppppppppppppppppppppp54 / C/c", "ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp / C/c",
        "ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp / C/c", "ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/ppp/pppp / C/c",
        "ppppppppppppppp/ppppppppppppppp/ppppppppppppppp/ppppppppppppppp/ppppppppppppppp/ppppppppppppppp / C/c", "ppppppppppppppp/ppppppppppppppp/ppppppppppppppp/ppppppppppppppp/ppppppppppppppp/pppppppppppppppp / C/c",
        "ppppppppppppppp/ppppppppppppppp/ppppppppppppppp/pppppppppppppppp/ppppppppppppppp/ppppppppppppppp / C/c",
    };
    static const char alphabet[] = " /+-^'0123456789KkPpBbSs\x80";
    koma_position fast, careful;
    koma_position_init(&fast);
    koma_position_init(&careful);
    unsigned long seed = 20261125ul, accepted = 0, checked[KOMA__FEEN_LEVEL_AVX512 + 1] = {0};
    char buf[512], q[600];
    for (int round = 0; round < 60000; round++) {
        const char *b = base[(size_t)round % (sizeof base / sizeof base[0])];
        size_t len = strlen(b);
        memcpy(buf, b, len);
        int edits = round % 4;                 /* a quarter stay unedited */
        for (int e = 0; e < edits; e++) {
            seed = seed * 6364136223846793005ul + 1442695040888963407ul;
            size_t at = (size_t)(seed >> 33) % (len + 1);
            char ch = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
            switch ((seed >> 8) % 3) {
            case 0: if (at < len) buf[at] = ch; break;                 /* replace */
            case 1:                                                     /* insert */
                if (len + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = ch;
                    len++;
                }
                break;
            default:                                                    /* delete */
                if (at < len) {
                    memmove(buf + at, buf + at + 1, len - at - 1);
                    len--;
                }
            }
        }
        koma_error ef, ec;
        koma_error_clear(&ef);
        koma_error_clear(&ec);
        int rf = koma_feen_parse(buf, len, KOMA_FEEN_STRICT, &fast, &ef);
        int rc = koma_feen_parse(buf, len, KOMA__FEEN_CAREFUL, &careful, &ec);
        if (rf != rc || ef.code != ec.code || ef.offset != ec.offset ||
            (rf == 0 && !koma_position_equal(&fast, &careful)))
            print_error("%s: fast %d %s@%zu, careful %d %s@%zu\n", shown(buf, len, q, sizeof q),
                        rf, koma_code_name(ef.code), ef.offset, rc, koma_code_name(ec.code),
                        ec.offset);
        assert_int_equal(rf, rc);
        assert_int_equal(ef.code, ec.code);
        assert_int_equal(ef.offset, ec.offset);
        /* the verdict alone (lib/feen.c check_sse2): the same */
        koma_error ek;
        koma_error_clear(&ek);
        koma_position scratch;
        koma_position_init(&scratch);
        int rk = koma_feen_parse(buf, len, KOMA_FEEN_CHECK_ONLY, &scratch, &ek);
        koma_position_cleanup(&scratch);
        if (rk != rc || ek.code != ec.code || ek.offset != ec.offset)
            print_error("%s: check-only %d %s@%zu, careful %d %s@%zu\n",
                        shown(buf, len, q, sizeof q), rk, koma_code_name(ek.code), ek.offset, rc,
                        koma_code_name(ec.code), ec.offset);
        assert_int_equal(rk, rc);
        assert_int_equal(ek.code, ec.code);
        assert_int_equal(ek.offset, ec.offset);
        /* each checker of lib/feen_quick.c accepts only valid lines */
        for (int level = KOMA__FEEN_LEVEL_NONE; level <= KOMA__FEEN_LEVEL_AVX512; level++) {
            int yes = koma__feen_check_at(buf, len, level);
            if (yes && rc != 0)
                print_error("%s: level %d accepts, careful %s@%zu\n", shown(buf, len, q, sizeof q),
                            level, koma_code_name(ec.code), ec.offset);
            assert_false(yes && rc != 0);
            checked[level] += yes;
        }
        if (rf == 0) {
            assert_true(koma_position_equal(&fast, &careful));
            accepted++;
        }
    }
    assert_true(accepted > 12000);             /* most of the unedited quarter */
    /* the checkers decide most valid lines themselves (when the machine has them) */
    fprintf(stderr, "checked %lu %lu %lu accepted %lu\n", checked[1], checked[2], checked[3], accepted);
    assert_int_equal(checked[KOMA__FEEN_LEVEL_NONE], 0);
    /* (SSE2 leaves 3-D boards and placements past 64 bytes to the parser) */
    if (koma__feen_level() >= KOMA__FEEN_LEVEL_SSE2) assert_true(checked[1] > 7000);
    if (koma__feen_level() >= KOMA__FEEN_LEVEL_AVX2) assert_true(checked[2] > 12000);
    if (koma__feen_level() >= KOMA__FEEN_LEVEL_AVX512) assert_true(checked[3] > 12000);
    /* (the AVX-512 checker decides every line the AVX2 one does: its placements of
     * 62 to 126 bytes too) */
    if (koma__feen_level() >= KOMA__FEEN_LEVEL_AVX512) assert_true(checked[3] >= checked[2]);
    koma_position_cleanup(&fast);
    koma_position_cleanup(&careful);
}

/* koma_feen_valid_lines at every level: over a buffer of valid and invalid lines
 * (edits of valid ones), it takes whole lines only, each one valid, and stops at
 * the first line it cannot take; resumed after that line, it ends at the end. The
 * buffer is allocated to its size: ASan (make sanitize) sees any read past it. */
static void test_valid_lines(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
        "l6nl/5+P1gk^/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bK^L GR/5pgns s/S",
        "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / C/c",
        "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSNL / Q/q",
        "3ik^'b2/2+f1+f3/2n5/1N6/8/4I3/8/4K^3 /14f4r3b2n J/j", "a/b//c/d / G/g",
        "k^+p4+PK^ / C/c", "K / C/c", "R8/2K^1S1SSk^/4B4/9/9/9/9/9/1L1L1L3 BGLNPRS/17p3g3n S/s",
        "K / C/c\r", "K /  C/c", "\xef\xbb\xbfK / C/c", "K/K1 / C/c", "99K99K99K / C/c",
        "a/b//c/d//e/f / G/g", "a/b///c/d / G/g", "a//b / G/g", "a/b//c/d/e / G/g",
        "a/b/c//d/e/f 2A/ G/g", "ab/cd//e/fg / G/g", "1/1/1/1//1/1/1/1//1/1/1/1//1/1/1/1 / A/a",
        "1/1/1/1/1/1/1/1/1//1/1/1/1/1/1/1/1/1 / A/a", "99K99K55/99K99K55//99K99K55/99K99K55 / C/c",
        "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 / A/a", "8/8 3P2P/ C/c", "8/8 2A2a/2a2A C/c",
        "9/9/9/9/9/9/9/9/9 BGLNPRS/17p3g3n C/c", "1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1 / A/a",
        /* a line past 127 bytes (its '\n' two blocks on); hands ending at byte 63 */
        "+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P/"
        "+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P/+P+P+P+P+P+P+P+P / C/c",
        "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL 2P/ S/s",
        "99K99K55/99K99K55 3P2B/p C/c",
        /* one letter twice 4 items apart (at most 7 items: the 8-lane identity test) */
        "8/8/8/8/8/8/8/8 2A2B2C2DA/ C/c", "8/8/8/8/8/8/8/8 P/2a2b2c2da C/c",
        /* 7 items whose last count decides the pieces against the squares */
        "13 2A2B2C2D2E2F2G/ C/c", "14 2A2B2C2D2E2F2G/ C/c", "13 P/2a2b2c2d2e2f C/c",
    };
    const size_t nbase = sizeof lines / sizeof lines[0];
    unsigned long seed = 20261127ul;
    size_t cap = 1 << 16, n = 0, count = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    while (n + 200 < cap) {
        seed = seed * 6364136223846793005ul + 1442695040888963407ul;
        const char *b = lines[(seed >> 33) % nbase];
        size_t len = strlen(b);
        memcpy(text + n, b, len);
        if ((seed >> 20) % 5 == 0) text[n + (seed >> 40) % len] = "/ 1K0^'+\n"[(seed >> 8) % 9];
        n += len;
        text[n++] = '\n';
        count++;
    }
    char *buf = malloc(n);                     /* exactly the lines: no byte after */
    assert_non_null(buf);
    memcpy(buf, text, n);
    free(text);
    count = 0;                                 /* (an edit may have made two lines of one) */
    for (size_t i = 0; i < n; i++) count += buf[i] == '\n';
    koma_position pos;
    koma_position_init(&pos);
    for (int level = KOMA__FEEN_LEVEL_NONE; level <= KOMA__FEEN_LEVEL_AVX512; level++) {
        size_t at = 0, bulk = 0, one = 0;
        while (at < n) {
            size_t k = 12345;
            size_t took = koma__feen_valid_lines_at(buf + at, n - at, &k, level);
            assert_true(took <= n - at);
            /* whole lines, each valid */
            size_t seen = 0;
            for (size_t i = 0; i < took;) {
                const char *nl = memchr(buf + at + i, '\n', took - i);
                assert_non_null(nl);
                size_t e = (size_t)(nl - buf) - at;
                assert_int_equal(koma_feen_parse(buf + at + i, e - i, KOMA__FEEN_CAREFUL, &pos, NULL), 0);
                i = e + 1;
                seen++;
            }
            assert_int_equal(seen, k);
            bulk += k;
            at += took;
            if (at == n) break;
            const char *nl = memchr(buf + at, '\n', n - at);    /* the line it left */
            at = nl ? (size_t)(nl - buf) + 1 : n;
            one++;
        }
        assert_int_equal(bulk + one, count);     /* (every line ends in '\n') */
        /* (about half the lines are valid, all within AVX2's reach) */
        if (level >= KOMA__FEEN_LEVEL_AVX2 && koma__feen_level() >= level)
            assert_true(bulk > count * 2 / 5);
    }
    koma_position_cleanup(&pos);
    free(buf);
}

/* Lines of 64 to 127 bytes (their '\n' past the first 64) are taken in bulk too,
 * at each level the machine has: every copy that starts WINDOW + 64 bytes or more
 * before the buffer's end (226 bytes: lib/feen_quick.c reads that far ahead). */
static void test_valid_lines_long(void **state)
{
    (void)state;
    static const char *const longer[] = {
        "l6nl/5+P1gk^/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bK^L GR/5pgns s/S",
        "lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GS2 2B2G2L2N2P2R2S/ Q/q",
        "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp/"
        "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp / C/c",
    };
    for (size_t i = 0; i < sizeof longer / sizeof longer[0]; i++) {
        size_t len = strlen(longer[i]), n = 0;
        char *buf = malloc(40 * (len + 1));
        assert_non_null(buf);
        for (int k = 0; k < 40; k++) {
            memcpy(buf + n, longer[i], len);
            n += len;
            buf[n++] = '\n';
        }
        for (int level = KOMA__FEEN_LEVEL_AVX2; level <= KOMA__FEEN_LEVEL_AVX512; level++) {
            if (koma__feen_level() < level) continue;
            size_t lines = 0;
            size_t took = koma__feen_valid_lines_at(buf, n, &lines, level);
            assert_int_equal(took, lines * (len + 1));
            assert_true(took + 226 + len + 1 > n);
        }
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_and_board),
        cmocka_unit_test(test_normalise),
        cmocka_unit_test(test_length_limit),
        cmocka_unit_test(test_dimension_limits),
        cmocka_unit_test(test_no_terminator),
        cmocka_unit_test(test_write_truncation),
        cmocka_unit_test(test_write_built),
        cmocka_unit_test(test_buffer_reuse),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_fast_path_agrees),
        cmocka_unit_test(test_cardinality_message),
        cmocka_unit_test(test_valid_lines),
        cmocka_unit_test(test_valid_lines_long),
        cmocka_unit_test(test_two_fields_no_overread),
    };
    return cmocka_run_group_tests_name("feen", tests, NULL, NULL);
}
