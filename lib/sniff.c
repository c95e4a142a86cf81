/* lib/sniff.c — what an input holds (koma/sniff.h). */
#include <string.h>

#include "internal.h"

size_t koma_bom_len(const char *s, size_t len)
{
    return len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

/* Whether the JSON text starting with '{' at s[i] has a top-level "setup" key;
 * *ended: the text ends within s. Only strings and nesting are followed: this
 * is a guess about the input, the parsers judge it. */
static int json_has_setup(const char *s, size_t len, size_t i, int *ended)
{
    int depth = 0, want_key = 0;
    *ended = 0;
    for (; i < len; i++) {
        char ch = s[i];
        if (ch == '"') {
            size_t start = ++i;
            while (i < len && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
            if (i >= len) return 0;
            if (depth == 1 && want_key) {
                if (i - start == 5 && memcmp(s + start, "setup", 5) == 0) return 1;
                want_key = 0;
            }
        } else if (ch == '{' || ch == '[') {
            if (++depth == 1) want_key = 1;
        } else if (ch == '}' || ch == ']') {
            if (--depth == 0) {
                *ended = 1;
                return 0;
            }
        } else if (ch == ',' && depth == 1) {
            want_key = 1;
        }
    }
    return 0;
}

/* `key:` or `key: value` at the start of the line s[0..len). */
static int yaml_key_line(const char *s, size_t len)
{
    if (len == 0 || s[0] == ' ' || s[0] == '\t' || s[0] == ':') return 0;
    const char *colon = memchr(s, ':', len);
    if (colon == NULL) return 0;
    size_t k = (size_t)(colon - s) + 1;
    return k == len || s[k] == ' ' || s[k] == '\t';
}

koma_input_kind koma_sniff_input(const char *s, size_t len, int at_end)
{
    size_t i = koma_bom_len(s, len);
    for (;;) {
        if (i >= len) return KOMA_INPUT_LINES;
        const char *nl = memchr(s + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - s) : len, j = i;
        while (j < end && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r')) j++;
        int directive = s[i] == '%' && !(end - i >= 5 && memcmp(s + i, "%YAML", 5) == 0);
        if (j < end && s[j] != '#' && !directive) break;
        if (nl == NULL) return KOMA_INPUT_LINES;
        i = end + 1;
    }
    /* s[i..]: the first significant line */
    const char *nl = memchr(s + i, '\n', len - i);
    size_t end = nl ? (size_t)(nl - s) : len;
    if (end > i && s[end - 1] == '\r') end--;
    size_t first = i;
    while (s[first] == ' ' || s[first] == '\t') first++;
    if (s[first] == '{') {
        int ended;
        if (json_has_setup(s, len, first, &ended)) return KOMA_INPUT_PCN;
        /* JSON Lines whose first line is broken: any record line decides */
        for (size_t l = end; l < len; l++) {
            if (s[l] != '\n') continue;
            size_t k = l + 1, e = k;
            k += koma_bom_len(s + k, len - k);
            while (e < len && s[e] != '\n') e++;
            if (k < e && s[k] == '{' && json_has_setup(s, e, k, &ended)) return KOMA_INPUT_PCN;
            l = e - 1;
        }
        return ended || at_end ? KOMA_INPUT_JSON : KOMA_INPUT_MORE;
    }
    if ((end - i >= 3 && memcmp(s + i, "---", 3) == 0) ||
        (end - i >= 5 && memcmp(s + i, "%YAML", 5) == 0) || yaml_key_line(s + i, end - i))
        return KOMA_INPUT_PCN;
    return KOMA_INPUT_LINES;
}
