/*
 * tests/fuzz/fuzz_sfen.c — libFuzzer harness for the SFEN, Fairy-Stockfish FEN
 * and USI / Fairy-Stockfish move readers (koma/sfen.h).
 *
 * The first line is read as an SFEN and as a Fairy-Stockfish FEN; what is
 * accepted is written back, read again to the same position (SFEN: written
 * again to the same text), and its FEEN is canonical. Errors carry a code of
 * their family, an offset inside the input and a printable message. Every
 * further line is read as a USI move and as a Fairy-Stockfish move in the
 * position: an accepted move is canonical PMN the protocol applier accepts,
 * and writes back to the same text.
 */
#include "fuzz.h"

static void check_error(const koma_error *err, size_t len)
{
    CHECK(err->code != KOMA_OK);
    CHECK(err->offset <= len);
    CHECK(err->message[0] != '\0');
    check_text(err->message);
}

static void check_feen(const koma_position *pos)
{
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t n = koma_feen_write(pos, feen, sizeof feen);
    CHECK(n < sizeof feen);
    koma_position back;
    koma_position_init(&back);
    CHECK(koma_feen_parse(feen, n, KOMA_FEEN_STRICT, &back, NULL) == 0);
    CHECK(koma_position_equal(pos, &back));
    koma_position_cleanup(&back);
}

static void moves(const koma_position *start, const char *s, size_t len, int fen)
{
    koma_position pos;
    koma_position_init(&pos);
    CHECK(koma_position_copy(&pos, start, NULL) == 0);
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
        koma_move m;
        koma_error err;
        koma_error_clear(&err);
        int rc = fen ? koma_fen_move_parse(&pos, s + i, n, &m, &err)
                     : koma_usi_move_parse(&pos, s + i, n, &m, &err);
        if (rc == 0) {
            char buf[KOMA_PMN_BUF], back[32];
            CHECK(koma_pmn_write(&m, buf) > 0);
            CHECK(koma_pmn_check(&pos, &m, NULL) == 0);
            size_t k = fen ? koma_fen_move_write(&pos, &m, back, sizeof back, NULL)
                           : koma_usi_move_write(&pos, &m, back, sizeof back, NULL);
            CHECK(k > 0);
            if (!fen) CHECK(k == n && memcmp(back, s + i, n) == 0);
            CHECK(koma_move_apply(&pos, &m, NULL) == 0);
        } else {
            check_error(&err, n);
        }
        if (!nl) break;
        i += n + 1;
    }
    koma_position_cleanup(&pos);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size ? size : 1);
    if (s == NULL) return 0;
    if (size) memcpy(s, data, size);
    const char *nl = memchr(s, '\n', size);
    size_t first = nl ? (size_t)(nl - s) : size;
    const char *rest = nl ? nl + 1 : s + size;
    size_t restlen = size - (size_t)(rest - s);

    koma_position pos, back;
    koma_position_init(&pos);
    koma_position_init(&back);
    koma_error err;
    koma_error_clear(&err);
    if (koma_sfen_parse(s, first, &pos, &err) == 0) {
        check_feen(&pos);
        char out[1024], again[1024];
        koma_error werr;
        size_t n = koma_sfen_write(&pos, 7, out, sizeof out, &werr);
        if (n > 0) {
            CHECK(n < sizeof out);
            CHECK(koma_sfen_parse(out, n, &back, NULL) == 0);
            CHECK(koma_position_equal(&pos, &back));
            CHECK(koma_sfen_write(&back, 7, again, sizeof again, NULL) == n && memcmp(out, again, n) == 0);
        } else {
            check_error(&werr, 0);
        }
        moves(&pos, rest, restlen, 0);
    } else {
        check_error(&err, first);
    }
    koma_error_clear(&err);
    if (koma_fen_parse(s, first, &pos, &err) == 0) {
        check_feen(&pos);
        char out[2048];
        size_t n = koma_fen_write(&pos, 1, out, sizeof out, NULL);
        if (n > 0) {
            CHECK(n < sizeof out);
            CHECK(koma_fen_parse(out, n, &back, NULL) == 0);
            CHECK(koma_position_equal(&pos, &back));
        }
        moves(&pos, rest, restlen, 1);
    } else {
        check_error(&err, first);
    }
    koma_position_cleanup(&pos);
    koma_position_cleanup(&back);
    free(s);
    return 0;
}
