/*
 * lib/util_json_pos.c — byte positions inside raw JSON text (see util_json_pos.h).
 *
 * Everything here works on the raw bytes with no allocation and no recursion:
 * values are skipped by counting brackets outside strings, member names are
 * compared with the pointer's reference tokens while both are being decoded.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util_json_alloc.h"
#include "util_json_pos.h"

/* i at a string's opening quote; returns the offset just past its closing quote
 * (len when the string is unterminated). */
static size_t string_end(const char *t, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (t[i] == '\\') i++;
        else if (t[i] == '"') return i + 1;
    }
    return len;
}

/* ---- depth pre-scan ------------------------------------------------------ */

int koma__json_depth(const char *text, size_t len, size_t limit, size_t *offset_of_violation)
{
    size_t depth = 0;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (c == '"') {
            i = string_end(text, len, i);
            continue;
        }
        if (c == '[' || c == '{') {
            if (++depth > limit) {
                if (offset_of_violation) *offset_of_violation = i;
                return 1;
            }
        } else if (c == ']' || c == '}') {
            if (depth > 0) depth--;
        }
        i++;
    }
    return 0;
}

int koma__json_limit_first(const char *text, size_t offset, size_t *stop)
{
    json_error_t jerr;
    json_t *v = json_loadb(text, offset, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (stop) *stop = offset;
    if (v != NULL) {                   /* a whole value before it: jansson says more */
        json_decref(v);
        return 0;
    }
    if (koma__json_budget_hit() || json_error_code(&jerr) == json_error_out_of_memory) {
        if (stop && jerr.position > 0 && (size_t)jerr.position < offset)
            *stop = (size_t)jerr.position;
        return 1;
    }
    return json_error_code(&jerr) == json_error_premature_end_of_input;
}

/* ---- scanning primitives -------------------------------------------------- */

static size_t skip_ws(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    return i;
}

/* i at a value's first byte; returns the offset just past the value. */
static size_t skip_value(const char *t, size_t len, size_t i)
{
    if (i >= len) return len;
    char c = t[i];
    if (c == '"') return string_end(t, len, i);
    if (c == '{' || c == '[') {
        size_t depth = 0;
        while (i < len) {
            c = t[i];
            if (c == '"') { i = string_end(t, len, i); continue; }
            if (c == '{' || c == '[') depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0) return i + 1;
            }
            i++;
        }
        return len;
    }
    /* number, true, false, null */
    while (i < len) {
        c = t[i];
        if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' ||
            c == '\r' || c == ':')
            break;
        i++;
    }
    return i;
}

/* ---- decoding iterators --------------------------------------------------- */

/* Yields the UTF-8 bytes of a JSON string's content, escapes decoded. */
typedef struct jstr_iter {
    const char *t;
    size_t i, len;
    unsigned char pend[4];
    int npend, ipend;
} jstr_iter;

static int hex4(const char *t, size_t len, size_t i, unsigned *out)
{
    if (i + 4 > len) return -1;
    unsigned v = 0;
    for (size_t k = 0; k < 4; k++) {
        char c = t[i + k];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* Next byte: 0..255, -1 at the closing quote (end), -2 on malformed text. */
static int jstr_next(jstr_iter *it)
{
    if (it->ipend < it->npend) return it->pend[it->ipend++];
    if (it->i >= it->len) return -2;
    unsigned char c = (unsigned char)it->t[it->i];
    if (c == '"') return -1;
    if (c != '\\') { it->i++; return c; }
    if (it->i + 1 >= it->len) return -2;
    char e = it->t[it->i + 1];
    it->i += 2;
    switch (e) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'u': break;
    default: return -2;
    }
    unsigned cp;
    if (hex4(it->t, it->len, it->i, &cp) != 0) return -2;
    it->i += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF && it->i + 6 <= it->len && it->t[it->i] == '\\' &&
        it->t[it->i + 1] == 'u') {
        unsigned lo;
        if (hex4(it->t, it->len, it->i + 2, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF) {
            it->i += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
    }
    it->npend = 0;
    it->ipend = 0;
    if (cp < 0x80) {
        it->pend[it->npend++] = (unsigned char)cp;
    } else if (cp < 0x800) {
        it->pend[it->npend++] = (unsigned char)(0xC0 | (cp >> 6));
        it->pend[it->npend++] = (unsigned char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        it->pend[it->npend++] = (unsigned char)(0xE0 | (cp >> 12));
        it->pend[it->npend++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        it->pend[it->npend++] = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        it->pend[it->npend++] = (unsigned char)(0xF0 | (cp >> 18));
        it->pend[it->npend++] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        it->pend[it->npend++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        it->pend[it->npend++] = (unsigned char)(0x80 | (cp & 0x3F));
    }
    return it->pend[it->ipend++];
}

/* Next byte of a pointer reference token ("~0" -> '~', "~1" -> '/'): 0..255,
 * -1 at its end ('/' or NUL), -2 on a bad escape. */
static int ptok_next(const char **p)
{
    unsigned char c = (unsigned char)**p;
    if (c == '\0' || c == '/') return -1;
    if (c == '~') {
        char e = (*p)[1];
        if (e == '0') { *p += 2; return '~'; }
        if (e == '1') { *p += 2; return '/'; }
        return -2;
    }
    (*p)++;
    return c;
}

/* Does the JSON string at t[i] (opening quote) equal the reference token at tok? */
static int key_matches(const char *t, size_t len, size_t i, const char *tok)
{
    jstr_iter it = { t, i + 1, len, { 0, 0, 0, 0 }, 0, 0 };
    const char *p = tok;
    for (;;) {
        int a = jstr_next(&it);
        int b = ptok_next(&p);
        if (a == -2 || b == -2) return 0;
        if (a != b) return 0;
        if (a == -1) return 1;
    }
}

/* Parse an array-index reference token: digits, no leading zero; -1 otherwise. */
static int ptok_index(const char *tok, size_t *out)
{
    size_t v = 0, n = 0;
    while (tok[n] != '\0' && tok[n] != '/') {
        char c = tok[n];
        if (c < '0' || c > '9') return -1;
        if (n > 0 && tok[0] == '0') return -1;
        if (v > ((size_t)-1 - 9) / 10) return -1;
        v = v * 10 + (size_t)(c - '0');
        n++;
    }
    if (n == 0) return -1;
    *out = v;
    return 0;
}

/*
 * Walk the pointer. *value = offset of the deepest resolved value; *key = offset
 * of the member name that led to it (or the element itself for arrays).
 */
static int locate(const char *t, size_t len, const char *pointer, size_t *value, size_t *key)
{
    size_t i = skip_ws(t, len, 0);
    *value = i < len ? i : len;
    *key = *value;
    const char *p = pointer;
    while (*p != '\0') {
        if (*p != '/') return -1;
        const char *tok = p + 1;
        const char *next = tok;
        while (*next != '\0' && *next != '/') next++;
        if (i >= len) return -1;
        size_t found_key = 0, found = (size_t)-1;
        if (t[i] == '{') {
            size_t j = skip_ws(t, len, i + 1);
            if (j < len && t[j] == '}') return -1;
            for (;;) {
                if (j >= len || t[j] != '"') return -1;
                size_t kstart = j;
                int match = key_matches(t, len, j, tok);
                j = skip_ws(t, len, string_end(t, len, j));
                if (j >= len || t[j] != ':') return -1;
                j = skip_ws(t, len, j + 1);
                if (j >= len) return -1;
                if (match) { found_key = kstart; found = j; break; }
                j = skip_ws(t, len, skip_value(t, len, j));
                if (j >= len || t[j] != ',') return -1;
                j = skip_ws(t, len, j + 1);
            }
        } else if (t[i] == '[') {
            size_t want;
            if (ptok_index(tok, &want) != 0) return -1;
            size_t j = skip_ws(t, len, i + 1);
            if (j < len && t[j] == ']') return -1;
            for (size_t k = 0;; k++) {
                if (j >= len) return -1;
                if (k == want) { found_key = j; found = j; break; }
                j = skip_ws(t, len, skip_value(t, len, j));
                if (j >= len || t[j] != ',') return -1;
                j = skip_ws(t, len, j + 1);
            }
        } else {
            return -1;
        }
        i = found;
        *value = found;
        *key = found_key;
        p = next;
    }
    return 0;
}

int koma__json_locate(const char *text, size_t len, const char *pointer, size_t *offset)
{
    size_t v, k;
    int rc = locate(text, len, pointer ? pointer : "", &v, &k);
    if (offset) *offset = v;
    return rc;
}

int koma__json_locate_key(const char *text, size_t len, const char *pointer, size_t *offset)
{
    size_t v, k;
    int rc = locate(text, len, pointer ? pointer : "", &v, &k);
    if (offset) *offset = rc == 0 ? k : v;
    return rc;
}

/* ---- lines and columns ---------------------------------------------------- */

void koma__offset_to_linecol(const char *text, size_t len, size_t offset,
                             unsigned long *line, unsigned long *column)
{
    if (offset > len) offset = len;
    unsigned long ln = 1;
    size_t start = 0, i = 0;
    while (i < offset) {
        const char *nl = memchr(text + i, '\n', offset - i);
        if (nl == NULL) break;
        ln++;
        i = (size_t)(nl - text) + 1;
        start = i;
    }
    if (line) *line = ln;
    if (column) *column = (unsigned long)(offset - start) + 1;
}

int koma__json_error_at(koma_error *err, koma_code code, const char *text, size_t len,
                        size_t offset, const char *fmt, ...)
{
    if (err == NULL) return -1;
    if (offset > len) offset = len;
    va_list ap;
    va_start(ap, fmt);
    koma__error_vset(err, code, offset, fmt, ap);
    va_end(ap);
    koma__offset_to_linecol(text, len, offset, &err->line, &err->column);
    return -1;
}

/* ---- jansson errors ------------------------------------------------------- */

/* Copy s into dst as koma_quote shows text (valid UTF-8 as it is, other bytes
 * and controls as \xNN), truncating. */
static void printable(char *dst, size_t cap, const char *s)
{
    koma__quote_text(dst, cap, s, strlen(s), 0);
}

/* Start of the JSON string that ends just before offset end (a '"'), or end. */
static size_t string_start_before(const char *t, size_t end)
{
    if (end == 0 || t[end - 1] != '"') return end;
    size_t i = end - 1;
    while (i > 0) {
        i--;
        if (t[i] != '"') continue;
        size_t bs = 0;
        while (bs < i && t[i - 1 - bs] == '\\') bs++;
        if (bs % 2 == 0) return i;
    }
    return end;
}

int koma__json_error(koma_error *err, koma_code code, const char *text, size_t len,
                     const json_error_t *jerr)
{
    if (err == NULL) return -1;
    size_t pos = jerr->position > 0 ? (size_t)jerr->position : 0;
    if (pos > len) pos = len;
    enum json_error_code jc = json_error_code(jerr);
    const char *msg = jerr->text;

    /*
     * jansson reports most errors just after the token it complains about. A
     * lexical error ("invalid token", a control character, bad UTF-8, premature
     * end) is already at the first invalid byte; for the others (an unexpected
     * but well-formed token, a duplicate key, a number overflow) the token
     * itself is the offender, so move back to its start.
     */
    const char *near = strstr(msg, " near '");
    size_t mlen = strlen(msg);
    const char *tok = NULL;
    size_t tlen = 0;
    if (near != NULL && mlen > 0 && msg[mlen - 1] == '\'') {
        tok = near + 7;
        tlen = (size_t)(msg + mlen - 1 - tok);
    }
    int back = 1;
    if (jc == json_error_invalid_utf8 || jc == json_error_premature_end_of_input ||
        strncmp(msg, "control character", 17) == 0)
        back = 0;
    /*
     * "invalid token near 'T'": a number stops at its first bad byte already
     * ("01", "1."); a word (t, f, n) is read whole, so point at the first byte
     * where it leaves "true", "false" or "null" ("tx" at 'x', "tru}" at '}');
     * anything else cannot start a value at all (a stray 'x', a BOM): its start.
     */
    if (strncmp(msg, "invalid token", 13) == 0 && tlen > 0 && tlen <= pos &&
        memcmp(text + pos - tlen, tok, tlen) == 0) {
        back = 0;
        if (tok[0] == 't' || tok[0] == 'f' || tok[0] == 'n') {
            const char *word = tok[0] == 't' ? "true" : tok[0] == 'f' ? "false" : "null";
            size_t k = 0;
            while (k < tlen && word[k] != '\0' && tok[k] == word[k]) k++;
            pos = pos - tlen + k;
        } else if (!strchr("-0123456789", tok[0])) {
            pos -= tlen;
        }
    }
    char own[KOMA_ERROR_MESSAGE_MAX];
    if (jc == json_error_numeric_overflow && tok == NULL) {
        /* "too big integer" comes after the number, with no token: its start,
         * and the number in the message, as the YAML reader words it */
        size_t end = pos;
        while (pos > 0 && strchr("0123456789-", text[pos - 1]) != NULL) pos--;
        char q[64];
        koma_quote(q, sizeof q, text + pos, end - pos);
        snprintf(own, sizeof own, "integer %s does not fit in 64 bits", q);
        msg = own;
        back = 0;
    }
    if (back) {
        if (tok != NULL) {
            if (tlen > 0 && tlen <= pos && memcmp(text + pos - tlen, tok, tlen) == 0)
                pos -= tlen;
        } else if (jc == json_error_duplicate_key || jc == json_error_null_character ||
                   jc == json_error_null_byte_in_key) {
            pos = string_start_before(text, pos);
        }
    }
    char buf[KOMA_ERROR_MESSAGE_MAX];
    printable(buf, sizeof buf, msg);
    koma__json_error_at(err, code, text, len, pos, "%s", buf);
    if (jc != json_error_out_of_memory) {
        /* Name the JSON pointer of what is at the error (a duplicate key's
         * member, the container a syntax error is in), when it is not the root. */
        char ptr[128], shown[160];
        size_t plen = koma__json_pointer_at(text, len, err->offset, ptr, sizeof ptr);
        size_t used = strlen(err->message);
        if (plen > 0) {
            koma_quote(shown, sizeof shown, ptr, plen);
            snprintf(err->message + used, sizeof err->message - used, " at %s", shown);
        }
    }
    return -1;
}

/* ---- building pointers ---------------------------------------------------- */

static int pointer_put(char *buf, size_t cap, size_t *plen, char c)
{
    if (*plen + 1 >= cap) return -1;
    buf[(*plen)++] = c;
    buf[*plen] = '\0';
    return 0;
}

static int pointer_truncated(char *buf, size_t cap, size_t *plen)
{
    if (cap == 0) return -1;
    size_t keep = cap >= 4 ? cap - 4 : 0;
    if (*plen > keep) *plen = keep;
    const char *dots = "...";
    while (*plen + 1 < cap && *dots) buf[(*plen)++] = *dots++;
    buf[*plen] = '\0';
    return -1;
}

int koma__json_pointer_push(char *buf, size_t cap, size_t *plen, const char *tok, size_t toklen)
{
    if (cap == 0) return -1;
    if (pointer_put(buf, cap, plen, '/') != 0) return pointer_truncated(buf, cap, plen);
    for (size_t i = 0; i < toklen; i++) {
        int rc;
        if (tok[i] == '~')
            rc = pointer_put(buf, cap, plen, '~') || pointer_put(buf, cap, plen, '0');
        else if (tok[i] == '/')
            rc = pointer_put(buf, cap, plen, '~') || pointer_put(buf, cap, plen, '1');
        else
            rc = pointer_put(buf, cap, plen, tok[i]);
        if (rc != 0) return pointer_truncated(buf, cap, plen);
    }
    return 0;
}

int koma__json_pointer_index(char *buf, size_t cap, size_t *plen, size_t index)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%zu", index);
    return koma__json_pointer_push(buf, cap, plen, num, (size_t)n);
}

/* ---- the pointer at an offset ------------------------------------------------------ */

typedef struct pframe {
    char type;                 /* '{' or '[' */
    int has_key;               /* object: a member name has been read */
    size_t kstart;             /* object: offset of the current member name */
    size_t index;              /* array: index of the current element */
} pframe;

/* Append a JSON string's decoded content (t[kstart] is its quote) as a token. */
static int pointer_push_json_string(char *buf, size_t cap, size_t *plen, const char *t,
                                    size_t len, size_t kstart)
{
    if (pointer_put(buf, cap, plen, '/') != 0) return pointer_truncated(buf, cap, plen);
    jstr_iter it = { t, kstart + 1, len, { 0, 0, 0, 0 }, 0, 0 };
    for (;;) {
        int c = jstr_next(&it);
        if (c < 0) return 0;
        int rc;
        if (c == '~') rc = pointer_put(buf, cap, plen, '~') || pointer_put(buf, cap, plen, '0');
        else if (c == '/') rc = pointer_put(buf, cap, plen, '~') || pointer_put(buf, cap, plen, '1');
        else rc = pointer_put(buf, cap, plen, (char)c);
        if (rc != 0) return pointer_truncated(buf, cap, plen);
    }
}

static size_t pointer_of_stack(const char *t, size_t len, const pframe *st, size_t n,
                               char *buf, size_t cap)
{
    size_t plen = 0;
    if (cap == 0) return 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int rc;
        if (st[i].type == '[') rc = koma__json_pointer_index(buf, cap, &plen, st[i].index);
        else if (st[i].has_key) rc = pointer_push_json_string(buf, cap, &plen, t, len, st[i].kstart);
        else break;
        if (rc != 0) break;
    }
    return plen;
}

size_t koma__json_pointer_at(const char *text, size_t len, size_t offset, char *buf, size_t cap)
{
    enum { VALUE, KEY, AFTER } state = VALUE;
    pframe st[KOMA_JSON_DEPTH_MAX];
    size_t n = 0;
    if (offset > len) offset = len;
    size_t i = skip_ws(text, len, 0);
    while (i < len && i <= offset) {
        char c = text[i];
        pframe *top = n > 0 ? &st[n - 1] : NULL;
        if (state == KEY) {
            if (c == '}') goto close;
            if (c != '"' || top == NULL) break;
            top->has_key = 1;
            top->kstart = i;
            size_t end = string_end(text, len, i);
            if (offset < end) break;               /* the member name */
            i = skip_ws(text, len, end);
            if (i >= len || text[i] != ':') break;
            i = skip_ws(text, len, i + 1);
            state = VALUE;
            continue;
        }
        if (state == VALUE) {
            if (c == ']') goto close;              /* an empty array */
            if (c == '{' || c == '[') {
                if (offset == i || n == KOMA_JSON_DEPTH_MAX) break;
                st[n].type = c;
                st[n].has_key = 0;
                st[n].kstart = 0;
                st[n].index = 0;
                n++;
                i = skip_ws(text, len, i + 1);
                state = c == '{' ? KEY : VALUE;
                continue;
            }
            size_t end = skip_value(text, len, i);
            if (offset < end || end == i) break;   /* this scalar */
            i = skip_ws(text, len, end);
            state = AFTER;
            continue;
        }
        /* AFTER a value */
        if (c == ',' && top != NULL) {
            if (offset == i) break;                /* the value just read */
            if (top->type == '[') {
                top->index++;
                state = VALUE;
            } else {
                top->has_key = 0;
                state = KEY;
            }
            i = skip_ws(text, len, i + 1);
            continue;
        }
        if (c != '}' && c != ']') break;
    close:
        if (n == 0) break;
        n--;                                       /* the container ends here */
        if (offset == i) break;
        i = skip_ws(text, len, i + 1);
        state = AFTER;
    }
    return pointer_of_stack(text, len, st, n, buf, cap);
}

/* ---- plies pre-scan ------------------------------------------------------ */

int koma__json_plies(const char *text, size_t len, size_t limit, size_t *offset)
{
    size_t i = skip_ws(text, len, 0);
    if (i >= len || text[i] != '{') return 0;
    for (i = skip_ws(text, len, i + 1); i < len && text[i] == '"';) {
        size_t k = i + 1, ke = string_end(text, len, i);
        i = skip_ws(text, len, ke);
        if (i >= len || text[i] != ':') return 0;
        i = skip_ws(text, len, i + 1);
        if (ke - k == 6 && memcmp(text + k, "plies\"", 6) == 0 && i < len && text[i] == '[') {
            size_t n = 0;
            for (i = skip_ws(text, len, i + 1); i < len && text[i] != ']';) {
                if (++n > limit) {
                    *offset = i;
                    return 1;
                }
                size_t e = skip_value(text, len, i);
                if (e == i) return 0;
                i = skip_ws(text, len, e);
                if (i >= len || text[i] != ',') break;
                i = skip_ws(text, len, i + 1);
            }
            return 0;                  /* one "plies" is all (a duplicate is an error) */
        }
        i = skip_ws(text, len, skip_value(text, len, i));
        if (i >= len || text[i] != ',') return 0;
        i = skip_ws(text, len, i + 1);
    }
    return 0;
}
