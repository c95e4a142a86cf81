/*
 * tests/fuzz/fuzz_pcn_json.c — libFuzzer harness for PCN records in JSON.
 *
 * A rejected input must carry a pcn.* (or memory) code, an offset inside the
 * input, the line and byte column of that offset, and a printable message.
 * An accepted record is written as compact JSON, pretty JSON and YAML; each
 * text must read back to an equal record, and JSON -> YAML -> JSON must give
 * the same bytes. The input is also read as a JSON Lines database in small
 * chunks: every record reported must be consistent with its line. Finally the
 * input read without validation (so any JSON value is a record) must give the
 * very tree jansson gives, or be refused when jansson refuses it: lib/pcn_json.c
 * has a fast path of its own for plain records.
 */

#include <jansson.h>
#include "pcn_checks.h"

/* koma's JSON reading (fast path or jansson) against jansson alone. */
static void same_as_jansson(const char *s, size_t len)
{
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn *p = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s, len, KOMA_PCN_NO_VALIDATE, &p, &err);
    json_error_t jerr;
    json_t *j = json_loadb(s, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    /* koma refuses more than jansson only for its own limits (depth 64, 16 MiB) */
    if (p == NULL && j != NULL)
        CHECK(err.code == KOMA_E_PCN_DEPTH || err.code == KOMA_E_PCN_SIZE);
    if (j == NULL) CHECK(p == NULL);
    if (p != NULL && j != NULL) {
        koma_buffer out = {0};
        CHECK(koma_pcn_write_json(p, 0, &out, &err) == 0);
        char *want = json_dumps(j, JSON_PRESERVE_ORDER | JSON_ENCODE_ANY | JSON_COMPACT);
        CHECK(want != NULL);
        size_t wl = strlen(want);
        CHECK(out.len == wl + 1 && memcmp(out.data, want, wl) == 0);
        free(want);
        koma_buffer_cleanup(&out);
    }
    json_decref(j);
    koma_pcn_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    same_as_jansson(text, size);
    read_records(KOMA_PCN_JSON, text, size, 7, 1);
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn *p = NULL;
    koma_pcn_parse_json(text, size, &p, &err);
    if (p == NULL) {
        check_error(&err, text, size);
        return 0;
    }
    CHECK(err.code == KOMA_OK);
    CHECK(koma_pcn_validate(p, 0, &err) == 0);
    CHECK(koma_pcn_setup_feen(p, NULL) != NULL);
    for (size_t i = 0; i < koma_pcn_ply_count(p); i++) CHECK(koma_pcn_ply_pmn(p, i, NULL) != NULL);

    size_t clen, plen, ylen, jlen;
    char *compact = write_text(p, KOMA_PCN_JSON, 0, &clen);
    char *pretty = write_text(p, KOMA_PCN_JSON, KOMA_PCN_PRETTY, &plen);
    char *yaml = write_text(p, KOMA_PCN_YAML, 0, &ylen);
    CHECK(memchr(compact, '\n', clen) == compact + clen - 1);
    const size_t limit = KOMA_LIMIT_RECORD;
    if (clen <= limit && plen <= limit && ylen <= limit) {
        koma_pcn *a = reread(KOMA_PCN_JSON, compact, clen);
        koma_pcn *b = reread(KOMA_PCN_JSON, pretty, plen);
        koma_pcn *c = reread(KOMA_PCN_YAML, yaml, ylen);
        CHECK(koma_pcn_equal(p, a) && koma_pcn_equal(p, b) && koma_pcn_equal(p, c));
        char *again = write_text(c, KOMA_PCN_JSON, 0, &jlen);
        CHECK(jlen == clen && memcmp(again, compact, clen) == 0);
        free(again);
        koma_pcn_free(a);
        koma_pcn_free(b);
        koma_pcn_free(c);
    }
    free(compact);
    free(pretty);
    free(yaml);
    koma_pcn_free(p);
    return 0;
}
