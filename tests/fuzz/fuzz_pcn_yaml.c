/*
 * tests/fuzz/fuzz_pcn_yaml.c — libFuzzer harness for PCN records in YAML.
 *
 * A rejected input must carry a pcn.* (or memory) code, an offset inside the
 * input, the line and byte column of that offset, and a printable message.
 * An accepted record is written as YAML and as JSON; each text must read back
 * to an equal record, and JSON -> YAML -> JSON must give the same bytes. The
 * input is also read as a YAML stream in small chunks: record lines increase
 * and every error lies inside the input.
 */

#include "pcn_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    read_records(KOMA_PCN_YAML, text, size, 5, 0);
    koma_error err;
    memset(&err, 0, sizeof err);
    koma_pcn *p = NULL;
    koma_pcn_parse_yaml(text, size, &p, &err);
    if (p == NULL) {
        check_error(&err, text, size);
        return 0;
    }
    CHECK(err.code == KOMA_OK);
    CHECK(koma_pcn_validate(p, 0, &err) == 0);

    size_t ylen, jlen, j2len, j3len;
    char *yaml = write_text(p, KOMA_PCN_YAML, 0, &ylen);
    char *json = write_text(p, KOMA_PCN_JSON, 0, &jlen);
    /* aliases may expand a small input: re-read only what fits the record limit */
    if (ylen <= KOMA_LIMIT_RECORD && jlen <= KOMA_LIMIT_RECORD) {
        koma_pcn *a = reread(KOMA_PCN_YAML, yaml, ylen);
        koma_pcn *b = reread(KOMA_PCN_JSON, json, jlen);
        CHECK(koma_pcn_equal(p, a) && koma_pcn_equal(p, b));
        char *j2 = write_text(a, KOMA_PCN_JSON, 0, &j2len);
        CHECK(j2len == jlen && memcmp(j2, json, jlen) == 0);
        char *y2 = write_text(b, KOMA_PCN_YAML, 0, &j3len);
        CHECK(j3len == ylen && memcmp(y2, yaml, ylen) == 0);
        free(j2);
        free(y2);
        koma_pcn_free(a);
        koma_pcn_free(b);
    }
    free(yaml);
    free(json);
    koma_pcn_free(p);
    return 0;
}
