/*
 * tests/fuzz/fuzz_ggn.c — libFuzzer harness for GGN documents.
 *
 * A rejected input must carry a ggn.* (or memory) code, an offset inside the
 * input, the line and byte column of that offset, and a printable message.
 * An accepted input is written (compact and pretty), each text reloads to an
 * equal document, and writing the reloaded document gives the same text again.
 * The move query runs on a few fixed positions: every move it emits is a PMN
 * string that koma_pmn_parse accepts and koma_pmn_write gives back unchanged,
 * equal to the move record it came with. The raw-text scanners of util_json_pos.h
 * run on rejected inputs too.
 */

#include <koma/koma.h>
#include "fuzz.h"
#include "util_json_pos.h"

static void check_error(const koma_error *err, const char *text, size_t len)
{
    CHECK(err->code == KOMA_E_MEMORY ||
          (err->code >= KOMA_E_GGN_SIZE && err->code <= KOMA_E_GGN_LCN_VALUE));
    check_located(err, text, len);
}

static int count_entry(void *ctx, const koma_ggn_entry *e)
{
    size_t *n = ctx;
    CHECK(e->count == 0 || e->index < e->count);
    CHECK(!(e->source.hand && e->destination.hand));
    if (e->count > 0) (*n)++;
    return 0;
}

static int check_move(void *ctx, const char *pmn, size_t len, const koma_move *m)
{
    (void)ctx;
    CHECK(len > 0 && len <= KOMA_PMN_MAX_LEN && strlen(pmn) == len);
    koma_move parsed;
    koma_error err;
    CHECK(koma_pmn_parse(pmn, len, &parsed, &err) == 0);
    char buf[KOMA_PMN_BUF];
    CHECK(koma_pmn_write(&parsed, buf) == len && memcmp(buf, pmn, len) == 0);
    CHECK(koma_pmn_write(m, buf) == len && memcmp(buf, pmn, len) == 0);
    return 0;
}

static const char *const positions[] = {
    "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o",
    "8/8/4k^3/4+P3/8/8/8/p7 2RP'p/s C/s",
    "3/1P'1/r2 Pp/2r c/C",
    "K^2 / C/c",
    "2/R1//2/r1 / G/g",
};

static void run_moves(const koma_ggn *g)
{
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        koma_position pos;
        koma_error err;
        koma_position_init(&pos);
        CHECK(koma_feen_parse(positions[i], strlen(positions[i]), 0, &pos, &err) == 0);
        CHECK(koma_ggn_moves(g, &pos, check_move, NULL, &err) == 0);
        koma_position_cleanup(&pos);
    }
}

static char *dump(const koma_ggn *g, unsigned flags, size_t *len)
{
    koma_error err;
    char *s = NULL;
    koma_ggn_dump(g, flags, len, &s, &err);
    CHECK(s != NULL);
    CHECK(strlen(s) == *len && *len > 0 && s[*len - 1] == '\n');
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_ggn *g = NULL;
    koma_ggn_load(text, size, &g, &err);
    if (g == NULL) {
        check_error(&err, text, size);
        /* The raw-text scanners on arbitrary bytes: no crash, a bounded answer. */
        char ptr[64];
        size_t plen = koma__json_pointer_at(text, size, err.offset, ptr, sizeof ptr);
        CHECK(plen < sizeof ptr && ptr[plen] == '\0' && strlen(ptr) <= plen);
        size_t off = 0;
        koma__json_locate(text, size, ptr, &off);
        CHECK(off <= size);
        koma__json_locate_key(text, size, "/C:P/e2/0/must", &off);
        CHECK(off <= size);
        return 0;
    }
    CHECK(err.code == KOMA_OK);
    size_t n = 0;
    CHECK(koma_ggn_foreach(g, count_entry, &n) == 0);
    CHECK(n == koma_ggn_possibility_count(g));

    size_t clen, plen, clen2;
    char *compact = dump(g, KOMA_GGN_COMPACT, &clen);
    char *pretty = dump(g, KOMA_GGN_PRETTY, &plen);
    CHECK(memchr(compact, '\n', clen) == compact + clen - 1);

    /* Writing adds the missing must/deny and the pretty form adds indentation:
     * reload only what stays within the 16 MiB record limit. */
    const size_t limit = (size_t)16 * 1024 * 1024;
    if (clen > limit || plen > limit) {
        free(compact);
        free(pretty);
        koma_ggn_free(g);
        return 0;
    }
    koma_ggn *h = NULL;
    koma_ggn_load(compact, clen, &h, &err);
    if (h == NULL) {
        fprintf(stderr, "fuzz_ggn: reload failed: %s %s\n", koma_code_name(err.code), err.message);
        abort();
    }
    CHECK(koma_ggn_equal(g, h) && koma_ggn_equal(h, g));
    char *again = dump(h, KOMA_GGN_COMPACT, &clen2);
    CHECK(clen2 == clen && memcmp(again, compact, clen) == 0);

    koma_ggn *k = NULL;
    koma_ggn_load(pretty, plen, &k, &err);
    CHECK(k != NULL);
    CHECK(koma_ggn_equal(g, k));

    run_moves(g);

    free(compact);
    free(pretty);
    free(again);
    koma_ggn_free(g);
    koma_ggn_free(h);
    koma_ggn_free(k);
    return 0;
}
