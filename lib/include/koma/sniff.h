/*
 * koma/sniff.h — what an input holds, from its first bytes (koma-formats(5),
 * STREAMS).
 *
 * Format detection never loses records: a UTF-8 byte-order mark is skipped
 * wherever an input or a record may start, and a PCN database is not sniffed
 * once for the whole input but record by record (the KOMA_PCN_AUTO flag of
 * koma_pcn_reader_new, koma/pcn.h: a record whose first line starts with '{'
 * is JSON, any other a YAML document), so one malformed or over-long line, or
 * a BOM, cannot turn the rest of a database into something else. Which of the
 * foreign formats (CSA, KIF, PGN, ...) an input looks like is
 * koma_format_detect's (koma/format.h).
 */
#ifndef KOMA_SNIFF_H
#define KOMA_SNIFF_H

#include <stddef.h>
#include <koma/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 3 when s[0..len) starts with a UTF-8 byte-order mark (EF BB BF), else 0. Ownership: none. */
KOMA_API size_t koma_bom_len(const char *s, size_t len);

typedef enum koma_input_kind {
    KOMA_INPUT_LINES,              /* line formats (FEEN, PMN) */
    KOMA_INPUT_PCN,                /* PCN: YAML, or JSON with a top-level "setup" */
    KOMA_INPUT_JSON,               /* another JSON document (GGN) */
    KOMA_INPUT_MORE                /* the first JSON text goes on past s: look further */
} koma_input_kind;

/*
 * What an input holds, from its start s[0..len) (a BOM skipped). The first
 * significant line (blank lines, '#' comment lines and '%' directive lines
 * other than %YAML skipped) decides: `---`, `%YAML` or a YAML mapping key
 * (`key:` or `key: value`; FEEN and PMN lines never hold ':') is PCN in YAML;
 * '{' starts JSON, PCN when its first JSON text (the first line of JSON Lines,
 * or the whole document) has a top-level "setup" key, another document
 * otherwise; anything else is lines. KOMA_INPUT_MORE when that JSON text does
 * not end within s and the input is longer (at_end 0): call again with more of
 * it; with at_end the keys seen so far decide.
 * Ownership: none.
 */
KOMA_API koma_input_kind koma_sniff_input(const char *s, size_t len, int at_end);

#ifdef __cplusplus
}
#endif
#endif
