/*
 * lib/fmt_pcn.c — PCN as koma-convert formats: JSON (a database is JSON Lines)
 * and YAML (a YAML stream). Reading and writing are koma/pcn.h's; this module
 * only names them and says what their inputs look like.
 */
#include <string.h>

#include "format_internal.h"
#include "internal.h"

/* The first significant line of s (blank and '#' lines skipped). */
static const char *first_line(const char *s, size_t len, size_t *n)
{
    size_t i = 0;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) i = 3;
    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t m = nl ? (size_t)(nl - (s + i)) : len - i;
        size_t k = 0;
        while (k < m && (s[i + k] == ' ' || s[i + k] == '\t' || s[i + k] == '\r')) k++;
        if (k < m && s[i + k] != '#') {
            *n = m - k;
            return s + i + k;
        }
        if (!nl) break;
        i += m + 1;
    }
    *n = 0;
    return NULL;
}

static int contains(const char *s, size_t len, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, w, n) == 0) return 1;
    return 0;
}

static int detect_json(const char *s, size_t len, int at_end)
{
    size_t n;
    const char *l = first_line(s, len, &n);
    if (l == NULL || l[0] != '{') return 0;
    if (!at_end && l + n == s + len) return contains(l, n, "\"setup\"") ? 3 : 2;   /* a long first line */
    while (n && (l[n - 1] == ' ' || l[n - 1] == '\r' || l[n - 1] == '\t')) n--;
    if (n < 2 || l[n - 1] != '}') return 0;       /* pretty JSON: read as YAML */
    return contains(l, n, "\"setup\"") ? 3 : 1;
}

static int detect_yaml(const char *s, size_t len, int at_end)
{
    (void)at_end;
    size_t n;
    const char *l = first_line(s, len, &n);
    if (l == NULL) return 0;
    if ((n >= 3 && memcmp(l, "---", 3) == 0) || (n >= 5 && memcmp(l, "%YAML", 5) == 0))
        return contains(s, len, "setup:") || contains(s, len, "\"setup\"") ? 3 : 2;
    if (l[0] == '{') return contains(s, len, "\"setup\"") && !contains(s, len, "\"moves\"") ? 2 : 0;
    /* a mapping key at the start of the line */
    size_t k = 0;
    while (k < n && (KOMA_IS_ALNUM(l[k]) || l[k] == '_')) k++;
    if (k > 0 && k < n && l[k] == ':' && (k + 1 == n || l[k + 1] == ' '))
        return contains(s, len, "setup:") ? 3 : 1;
    return 0;
}

const koma_format koma__fmt_pcn_json = {
    .name = "pcn", .aliases = "json jsonl pcn-json", .title = "PCN records as JSON (JSON Lines)",
    .kind = KOMA_FORMAT_RECORD, .pcn = 1 + KOMA_PCN_JSON, .detect = detect_json,
    .check = koma__check_pcn, .check_title = "PCN records (JSON Lines or a YAML stream)",
};
const koma_format koma__fmt_pcn_yaml = {
    .name = "yaml", .aliases = "pcn-yaml yml", .title = "PCN records as YAML (a YAML stream)",
    .kind = KOMA_FORMAT_RECORD, .pcn = 1 + KOMA_PCN_YAML, .detect = detect_yaml,
};
