/*
 * tests/fuzz/fuzz_feen.c — libFuzzer harness for FEEN and FID.
 *
 * Strict parse: an accepted input must be canonical (dump == input, byte for
 * byte), re-parse to an equal position and hash to the same FID either way; a
 * rejection must carry a feen.* code, an offset inside the input (<= length) and
 * a printable message, and leave the position empty.
 * Normalising parse: whatever it accepts dumps to a FEEN the strict parser
 * accepts, to an equal position; it accepts everything the strict parser does,
 * and fails exactly like it on every error that is not about hand aggregation
 * or order.
 * The verdict alone (KOMA_FEEN_CHECK_ONLY) is the strict parse's: result, code
 * and offset; each checker of lib/feen_quick.c, and koma_feen_valid_lines over
 * the input as lines (allocated to their size), accepts only a valid input.
 */

#include <koma/koma.h>
#include "internal.h"                  /* koma__feen_check_at, koma__feen_valid_lines_at */
#include "fuzz.h"

/* The input as a few lines in a buffer of exactly their size, through the bulk
 * checker at level: each line it takes is valid (rc == 0 for the input). */
static void check_bulk(const char *s, size_t size, int rc, int level)
{
    size_t copies = 3 + 400 / (size + 1), n = copies * (size + 1);
    char *buf = malloc(n);
    CHECK(buf != NULL);
    for (size_t i = 0; i < copies; i++) {
        memcpy(buf + i * (size + 1), s, size);
        buf[i * (size + 1) + size] = '\n';
    }
    size_t lines = 0;
    size_t took = koma__feen_valid_lines_at(buf, n, &lines, level);
    CHECK(took <= n);
    if (lines > 0) {
        CHECK(buf[took - 1] == '\n');
        if (memchr(s, '\n', size) == NULL) CHECK(rc == 0 && took == lines * (size + 1));
    } else {
        CHECK(took == 0);
    }
    free(buf);
}

static void check_error(const koma_error *err, size_t len)
{
    CHECK(err->code >= KOMA_E_FEEN_LENGTH && err->code <= KOMA_E_FEEN_CARDINALITY);
    CHECK(err->offset <= len);
    CHECK(err->line == 1 && err->column == err->offset + 1);
    check_message(err);
    if (len > KOMA_FEEN_MAX_LEN) CHECK(err->code == KOMA_E_FEEN_LENGTH && err->offset == 4096);
}

/* Dump pos into a fresh buffer (caller frees); *len gets its length. */
static char *dump(const koma_position *pos, size_t *len)
{
    size_t n = koma_feen_write(pos, NULL, 0);
    char *buf = malloc(n + 1);
    CHECK(buf != NULL);
    CHECK(koma_feen_write(pos, buf, n + 1) == n);
    CHECK(buf[n] == '\0');
    /* snprintf semantics on a short buffer: same prefix, NUL-terminated */
    if (n > 0) {
        char *half = malloc(n / 2 + 1);
        CHECK(half != NULL);
        CHECK(koma_feen_write(pos, half, n / 2 + 1) == n);
        CHECK(memcmp(half, buf, n / 2) == 0 && half[n / 2] == '\0');
        free(half);
    }
    *len = n;
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_copy(data, size);
    if (s == NULL) return 0;

    koma_position pos, back, norm;
    koma_position_init(&pos);
    koma_position_init(&back);
    koma_position_init(&norm);
    koma_error err, nerr;
    koma_error_clear(&err);
    koma_error_clear(&nerr);

    int rc = koma_feen_parse(s, size, KOMA_FEEN_STRICT, &pos, &err);
    if (rc == 0) {
        CHECK(err.code == KOMA_OK);
        CHECK(size <= KOMA_FEEN_MAX_LEN);
        CHECK(pos.shape.squares >= 1 && pos.shape.squares <= KOMA_MAX_SQUARES);
        CHECK(pos.shape.squares ==
              (uint32_t)pos.shape.size[0] * pos.shape.size[1] * pos.shape.size[2]);
        size_t n;
        char *buf = dump(&pos, &n);
        CHECK(n == size && memcmp(buf, s, size) == 0);
        CHECK(koma_feen_parse(buf, n, KOMA_FEEN_STRICT, &back, NULL) == 0);
        CHECK(koma_position_equal(&pos, &back));
        char f1[KOMA_FID_BUF], f2[KOMA_FID_BUF];
        koma_fid_of(s, size, f1);
        CHECK(koma_position_fid(&pos, f2, NULL) == 0);
        CHECK(strcmp(f1, f2) == 0);
        CHECK(koma_fid_parse(f1, KOMA_FID_LEN, NULL) == 0);
        free(buf);
    } else {
        CHECK(rc == -1);
        check_error(&err, size);
        CHECK(pos.shape.squares == 0 && pos.hands[0].len == 0 && pos.hands[1].len == 0);
    }

    int nrc = koma_feen_parse(s, size, KOMA_FEEN_NORMALISE, &norm, &nerr);
    if (nrc == 0) {
        size_t n;
        char *buf = dump(&norm, &n);
        CHECK(koma_feen_parse(buf, n, KOMA_FEEN_STRICT, &back, NULL) == 0);
        CHECK(koma_position_equal(&norm, &back));
        if (rc == 0) CHECK(koma_position_equal(&pos, &norm));
        else CHECK(err.code == KOMA_E_FEEN_HAND_AGGREGATE || err.code == KOMA_E_FEEN_HAND_ORDER);
        free(buf);
    } else {
        CHECK(rc == -1);
        check_error(&nerr, size);
        if (err.code != KOMA_E_FEEN_HAND_AGGREGATE && err.code != KOMA_E_FEEN_HAND_ORDER)
            CHECK(nerr.code == err.code && nerr.offset == err.offset);
    }

    /* the verdict alone */
    koma_position scratch;
    koma_position_init(&scratch);
    koma_error kerr;
    koma_error_clear(&kerr);
    int krc = koma_feen_parse(s, size, KOMA_FEEN_CHECK_ONLY, &scratch, &kerr);
    CHECK(krc == rc && kerr.code == err.code && kerr.offset == err.offset);
    koma_position_cleanup(&scratch);
    for (int level = KOMA__FEEN_LEVEL_NONE; level <= KOMA__FEEN_LEVEL_AVX512; level++) {
        if (koma__feen_check_at(s, size, level)) CHECK(rc == 0);
        check_bulk(s, size, rc, level);
    }

    /* the FID syntax check never reads past the input either */
    koma_error_clear(&err);
    if (koma_fid_parse(s, size, &err) == 0) CHECK(size == KOMA_FID_LEN);
    else CHECK((err.code == KOMA_E_FID_LENGTH || err.code == KOMA_E_FID_CHAR) && err.offset <= size);

    koma_position_cleanup(&pos);
    koma_position_cleanup(&back);
    koma_position_cleanup(&norm);
    free(s);
    return 0;
}
