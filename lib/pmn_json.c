/*
 * lib/pmn_json.c — the JSON pieces of the moves written as JSON arrays (the
 * json-array dialect, pmn_dialect.c; the sanki dialect, pmn_sanki.c): strings
 * read with their place, errors placed at a line and column of the JSON text.
 */
#include "pmn_internal.h"

/* Rewrite err's line and column for the (possibly multi-line) JSON text. */
int koma__pmn_json_place(koma_error *err, const char *s, size_t len)
{
    if (err == NULL) return -1;
    size_t off = err->offset < len ? err->offset : len;
    unsigned long line = 1;
    size_t start = 0;
    for (size_t k = 0; k < off; k++)
        if (s[k] == '\n') { line++; start = k + 1; }
    err->line = line;
    err->column = (unsigned long)(off - start) + 1;
    return -1;
}

int koma__pmn_json_fail(koma_error *err, koma_code code, size_t off, const char *what,
                        const char *s, size_t len)
{
    size_t q = off < len ? len - off : 0;
    if (q > 24) q = 24;
    koma__error_token(err, code, off, what, s + off, q);
    return koma__pmn_json_place(err, s, len);
}

size_t koma__pmn_json_ws(const char *s, size_t len, size_t i)
{
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    return i;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A JSON string at s[*i] == '"'. Non-ASCII characters are kept as 0xff bytes
 * (no location or piece contains one). */
int koma__pmn_json_string(const char *s, size_t len, size_t *i, koma__pmn_jitem *it,
                          koma_code syntax, koma_error *err)
{
    size_t k = *i + 1;
    it->off = *i;
    it->len = 0;
    for (;;) {
        if (k >= len) return koma__pmn_json_fail(err, syntax, k, "unterminated string", s, len);
        unsigned char c = (unsigned char)s[k];
        char out;
        if (c == '"') { k++; break; }
        if (c < 0x20)
            return koma__pmn_json_fail(err, syntax, k, "control character in string", s, len);
        if (c == '\\') {
            if (k + 1 >= len)
                return koma__pmn_json_fail(err, syntax, k + 1, "unterminated string", s, len);
            char e = s[k + 1];
            k += 2;
            switch (e) {
            case '"': out = '"'; break;
            case '\\': out = '\\'; break;
            case '/': out = '/'; break;
            case 'b': out = '\b'; break;
            case 'f': out = '\f'; break;
            case 'n': out = '\n'; break;
            case 'r': out = '\r'; break;
            case 't': out = '\t'; break;
            case 'u': {
                long v = 0;
                for (int d = 0; d < 4; d++) {
                    int h = k < len ? hexval(s[k]) : -1;
                    if (h < 0)
                        return koma__pmn_json_fail(err, syntax, k, "invalid \\u escape", s,
                                     len);
                    v = v * 16 + h;
                    k++;
                }
                out = v < 0x80 ? (char)v : (char)0xff;
                break;
            }
            default:
                return koma__pmn_json_fail(err, syntax, k - 1, "invalid escape", s, len);
            }
        } else {
            out = c < 0x80 ? (char)c : (char)0xff;
            k++;
        }
        if (it->len < KOMA__PMN_JITEM_MAX) it->text[it->len] = out;
        it->len++;
    }
    it->text[it->len < KOMA__PMN_JITEM_MAX ? it->len : KOMA__PMN_JITEM_MAX] = '\0';
    *i = k;
    return 0;
}
