/*
 * lib/select_meta.c — conditions on a PCN record's members (koma/select.h):
 * KEY OP VALUE, the key a path of member names or one of the names that stand
 * for a few paths (player, first, second, date), the operator a text, regular
 * expression (POSIX extended, regcomp), number or date comparison.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { OP_EQ, OP_NE, OP_RE, OP_NRE, OP_LT, OP_LE, OP_GT, OP_GE };

#define PATHS_MAX 2                    /* "player" and "date" stand for two members */

struct koma_meta_cond {
    char *pointers[PATHS_MAX];         /* JSON pointers of the members, in order */
    size_t npointers;
    int any;                           /* player: either member; date: the first present */
    int op;
    char *value;
    size_t value_len;
    int value_number;                  /* VALUE reads as a number */
    double number;
    int value_date;                    /* VALUE reads as a date (prefix) */
    regex_t re;
    int has_re;
};

void koma_meta_cond_free(koma_meta_cond *c)
{
    if (c == NULL) return;
    for (size_t i = 0; i < c->npointers; i++) free(c->pointers[i]);
    free(c->value);
    if (c->has_re) regfree(&c->re);
    free(c);
}

/* A JSON pointer for a dotted path (each name escaped as RFC 6901 says). */
static char *pointer_of(const char *prefix, const char *key, size_t len)
{
    size_t plen = strlen(prefix), n = plen + 1;
    for (size_t i = 0; i < len; i++) n += key[i] == '~' || key[i] == '/' ? 2 : 1;
    char *p = malloc(n + 1), *o = p;
    if (p == NULL) return NULL;
    memcpy(o, prefix, plen);
    o += plen;
    *o++ = '/';
    for (size_t i = 0; i < len; i++) {
        if (key[i] == '.') *o++ = '/';
        else if (key[i] == '~') *o++ = '~', *o++ = '0';
        else if (key[i] == '/') *o++ = '~', *o++ = '1';
        else *o++ = key[i];
    }
    *o = '\0';
    return p;
}

static int add_pointer(koma_meta_cond *c, const char *prefix, const char *key, size_t len,
                       koma_error *err)
{
    char *p = pointer_of(prefix, key, len);
    if (p == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    c->pointers[c->npointers++] = p;
    return 0;
}

static int is_word(const char *s, size_t len, const char *w)
{
    return strlen(w) == len && memcmp(s, w, len) == 0;
}

static int parse_key(koma_meta_cond *c, const char *key, size_t len, koma_error *err)
{
    if (len == 0) return koma_error_set(err, KOMA_E_SELECT_META, 0, "a condition starts with a key");
    for (size_t i = 0; i < len; i++)
        if (key[i] == '.' && (i == 0 || i + 1 == len || key[i + 1] == '.'))
            return koma__error_token(err, KOMA_E_SELECT_META, i, "an empty member name in the key", key, len);
    if (memchr(key, '.', len)) return add_pointer(c, "", key, len, err);
    if (is_word(key, len, "player")) {
        c->any = 1;
        return add_pointer(c, "/sides/first", "name", 4, err) || add_pointer(c, "/sides/second", "name", 4, err);
    }
    if (is_word(key, len, "first") || is_word(key, len, "sente"))
        return add_pointer(c, "/sides/first", "name", 4, err);
    if (is_word(key, len, "second") || is_word(key, len, "gote"))
        return add_pointer(c, "/sides/second", "name", 4, err);
    if (is_word(key, len, "date"))
        return add_pointer(c, "/meta", "started_at", 10, err) ||
               add_pointer(c, "/meta", "started_at_local", 16, err);
    return add_pointer(c, "/meta", key, len, err);
}

/* A number written as JSON or C writes it, the whole text. */
static int read_number(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf) return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (!(KOMA_IS_DIGIT(buf[i]) || buf[i] == '-' || buf[i] == '+' || buf[i] == '.' || buf[i] == 'e' ||
              buf[i] == 'E'))
            return 0;
    char *end;
    *out = strtod(buf, &end);
    return *end == '\0';
}

/* YYYY, YYYY-MM, YYYY-MM-DD, then optionally THH:MM[:SS]: a date to compare by prefix. */
static int is_date(const char *s, size_t len)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    if (len != 4 && len != 7 && len != 10 && len != 16 && len != 19) return 0;
    for (size_t i = 0; i < len; i++) {
        char want = shape[i];
        if (want == 'd' ? !KOMA_IS_DIGIT(s[i]) : s[i] != want) return 0;
    }
    return 1;
}

/*
 * A regular expression that regcomp could not compile in reasonable memory:
 * glibc copies the pattern a repetition applies to ('+' twice, "{m,n}" as many
 * times as its largest count), so nested or chained repetitions multiply. The
 * size the copies could reach is bounded by the length times the product of
 * every repetition's factor; over 2^20 the expression is refused. Back
 * references (\1 ... \9) are refused too: matching with them can take
 * exponential time. 0, or the offset of the offending byte + 1.
 */
#define RE_EXPANSION_MAX (1u << 20)

static size_t regex_refused(const char *re, size_t len, const char **why)
{
    double bound = (double)(len ? len : 1);
    for (size_t i = 0; i < len; i++) {
        char c = re[i];
        if (c == '\\') {
            if (i + 1 < len && re[i + 1] >= '1' && re[i + 1] <= '9') {
                *why = "back references (\\1 ... \\9) are not allowed";
                return i + 1;
            }
            i++;
        } else if (c == '[') {
            size_t j = i + 1;
            if (j < len && re[j] == '^') j++;
            if (j < len && re[j] == ']') j++;
            while (j < len && re[j] != ']') {
                if (re[j] == '[' && j + 1 < len && (re[j + 1] == ':' || re[j + 1] == '.' || re[j + 1] == '=')) {
                    char close = re[j + 1];
                    j += 2;
                    while (j + 1 < len && !(re[j] == close && re[j + 1] == ']')) j++;
                    j++;
                }
                j++;
            }
            i = j;
        } else if (c == '+') {
            bound *= 2;
        } else if (c == '{') {
            unsigned long m = 0, n = 0;
            size_t j = i + 1;
            while (j < len && KOMA_IS_DIGIT(re[j]) && m < 100000) m = m * 10 + (unsigned long)(re[j++] - '0');
            if (j < len && re[j] == ',') {
                j++;
                while (j < len && KOMA_IS_DIGIT(re[j]) && n < 100000) n = n * 10 + (unsigned long)(re[j++] - '0');
            }
            bound *= (double)((m > n ? m : n) + 1);
        }
        if (bound > RE_EXPANSION_MAX) {
            *why = "too many repetitions: the expression would expand beyond a million copies";
            return i + 1;
        }
    }
    return 0;
}

int koma_meta_cond_parse(const char *s, size_t len, koma_meta_cond **out, koma_error *err)
{
    *out = NULL;
    if (len > KOMA_SELECT_TEXT_MAX)
        return koma_error_set(err, KOMA_E_SELECT_META, KOMA_SELECT_TEXT_MAX,
                              "a condition is at most %d bytes", KOMA_SELECT_TEXT_MAX);
    size_t k = 0;
    while (k < len && !strchr("=!~<>", s[k])) k++;
    if (k == len)
        return koma_error_set(err, KOMA_E_SELECT_META, len ? len - 1 : 0,
                              "a condition is KEY=VALUE, KEY!=VALUE, KEY~REGEX, KEY!~REGEX, KEY<N, KEY<=N, "
                              "KEY>N or KEY>=N");
    koma_meta_cond *c = calloc(1, sizeof *c);
    if (c == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    size_t v = k + 1;
    char a = s[k], b = k + 1 < len ? s[k + 1] : '\0';
    if (a == '=') c->op = OP_EQ;
    else if (a == '!' && b == '=') c->op = OP_NE, v++;
    else if (a == '!' && b == '~') c->op = OP_NRE, v++;
    else if (a == '~') c->op = OP_RE;
    else if (a == '<' && b == '=') c->op = OP_LE, v++;
    else if (a == '<') c->op = OP_LT;
    else if (a == '>' && b == '=') c->op = OP_GE, v++;
    else if (a == '>') c->op = OP_GT;
    else {
        koma__error_token(err, KOMA_E_SELECT_META, k, "'!' goes with '=' or '~'", s + k, 1);
        goto fail;
    }
    if (parse_key(c, s, k, err) != 0) goto fail;
    c->value_len = len - v;
    if ((c->value = malloc(c->value_len + 1)) == NULL) {
        koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        goto fail;
    }
    memcpy(c->value, s + v, c->value_len);
    c->value[c->value_len] = '\0';
    if (memchr(c->value, '\0', c->value_len)) {
        koma_error_set(err, KOMA_E_SELECT_META, v, "a NUL byte in the value");
        goto fail;
    }
    c->value_number = read_number(c->value, c->value_len, &c->number);
    c->value_date = is_date(c->value, c->value_len);
    if (c->op == OP_RE || c->op == OP_NRE) {
        const char *why;
        size_t bad = regex_refused(c->value, c->value_len, &why);
        if (bad) {
            koma_error_set(err, KOMA_E_SELECT_META, v + bad - 1, "not a regular expression koma takes: %s", why);
            goto fail;
        }
        int rc = regcomp(&c->re, c->value, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[128];
            regerror(rc, &c->re, msg, sizeof msg);
            koma_error_set(err, rc == REG_ESPACE ? KOMA_E_MEMORY : KOMA_E_SELECT_META, v,
                           "not a regular expression: %s", msg);
            goto fail;
        }
        c->has_re = 1;
    } else if (c->op >= OP_LT && !c->value_number && !c->value_date) {
        koma_error_set(err, KOMA_E_SELECT_META, v,
                       "'<' and '>' compare with a number or a date (2020, 2020-05, 2020-05-01)");
        goto fail;
    }
    *out = c;
    return 0;
fail:
    koma_meta_cond_free(c);
    return -1;
}

/* A date's prefix of n characters compared with the value, '/' read as '-'. */
static int date_cmp(const char *s, size_t len, const char *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i >= len) return -1;       /* shorter: before */
        char ch = s[i] == '/' ? '-' : s[i] == ' ' && i == 10 ? 'T' : s[i];
        if (ch != want[i]) return (unsigned char)ch < (unsigned char)want[i] ? -1 : 1;
    }
    return 0;
}

static int compare(int op, int cmp)
{
    switch (op) {
    case OP_LT: return cmp < 0;
    case OP_LE: return cmp <= 0;
    case OP_GT: return cmp > 0;
    default: return cmp >= 0;
    }
}

/* The condition on one member's value. */
static int test_value(const koma_meta_cond *c, const koma_pcn_value *v)
{
    char buf[64];
    const char *text;
    size_t len;
    double num = 0;
    int is_num = 0;
    switch (v->type) {
    case KOMA_PCN_STRING:
        text = v->string;
        len = v->len;
        is_num = read_number(text, len, &num);
        break;
    case KOMA_PCN_INTEGER:
        len = (size_t)snprintf(buf, sizeof buf, "%lld", v->integer);
        text = buf;
        num = (double)v->integer;
        is_num = 1;
        break;
    case KOMA_PCN_REAL:
        len = (size_t)snprintf(buf, sizeof buf, "%.17g", v->real);
        text = buf;
        num = v->real;
        is_num = 1;
        break;
    case KOMA_PCN_BOOL:
        text = v->boolean ? "true" : "false";
        len = strlen(text);
        break;
    case KOMA_PCN_NULL:
        text = "null";
        len = 4;
        break;
    default:
        return 0;                      /* absent, or an object or array */
    }
    switch (c->op) {
    case OP_EQ:
    case OP_NE: {
        int eq = (len == c->value_len && memcmp(text, c->value, len) == 0) ||
                 (is_num && c->value_number && v->type != KOMA_PCN_STRING && num == c->number);
        return c->op == OP_EQ ? eq : !eq;
    }
    case OP_RE:
    case OP_NRE: {
        if (memchr(text, '\0', len)) return 0;   /* a string holding NUL: not text */
        int hit = regexec(&c->re, text, 0, NULL, 0) == 0;
        return c->op == OP_RE ? hit : !hit;
    }
    default:
        if (c->value_number && is_num) return compare(c->op, num < c->number ? -1 : num > c->number ? 1 : 0);
        if (c->value_date && v->type == KOMA_PCN_STRING && len >= 4 && KOMA_IS_DIGIT(text[0]) &&
            KOMA_IS_DIGIT(text[1]) && KOMA_IS_DIGIT(text[2]) && KOMA_IS_DIGIT(text[3]))
            return compare(c->op, date_cmp(text, len, c->value, c->value_len));
        return 0;
    }
}

int koma_meta_cond_match(const koma_meta_cond *c, const koma_pcn *rec)
{
    for (size_t i = 0; i < c->npointers; i++) {
        koma_pcn_value v;
        if (koma_pcn_get(rec, c->pointers[i], &v) == KOMA_PCN_ABSENT) continue;
        int ok = test_value(c, &v);
        if (ok || !c->any) return ok;
    }
    return 0;
}
