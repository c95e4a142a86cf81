/*
 * lib/record.c — the shogi-world record (koma/record.h): building, freeing,
 * squares, and the names of the special endings.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include <koma/format.h>
#include <koma/record.h>
#include "record_internal.h"

static int oom(koma_error *err) { return koma_error_set(err, KOMA_E_MEMORY, 0, NULL); }

void koma_shogi_move_init(koma_shogi_move *m)
{
    memset(m, 0, sizeof *m);
    m->promote = KOMA_PROMOTE_UNSAID;
    m->side = -1;
    m->elapsed_ms = KOMA_TIME_NONE;
    m->total_ms = KOMA_TIME_NONE;
}

static void send_init(koma_shogi_ending *e)
{
    memset(e, 0, sizeof *e);
    e->elapsed_ms = KOMA_TIME_NONE;
    e->total_ms = KOMA_TIME_NONE;
}

static void line_cleanup(koma_shogi_line *l);

static void move_cleanup(koma_shogi_move *m)
{
    free(m->comment);
    free(m->bookmark);
    for (size_t i = 0; i < m->nforks; i++) line_cleanup(&m->forks[i]);
    free(m->forks);
}

static void send_cleanup(koma_shogi_ending *e)
{
    free(e->text);
    free(e->csa);
    free(e->comment);
    free(e->bookmark);
    send_init(e);
}

static void line_cleanup(koma_shogi_line *l)
{
    for (size_t i = 0; i < l->len; i++) move_cleanup(&l->moves[i]);
    free(l->moves);
    send_cleanup(&l->end);
    memset(l, 0, sizeof *l);
    send_init(&l->end);
}

static void line_drop(koma_shogi_line *l, unsigned flags)
{
    for (size_t i = 0; i < l->len; i++) {
        koma_shogi_move *m = &l->moves[i];
        if (flags & KOMA_WRITE_DROP_TIMES) m->elapsed_ms = m->total_ms = KOMA_TIME_NONE;
        if (flags & KOMA_WRITE_DROP_VARIATIONS) {
            for (size_t k = 0; k < m->nforks; k++) line_cleanup(&m->forks[k]);
            free(m->forks);
            m->forks = NULL;
            m->nforks = 0;
        }
        for (size_t k = 0; k < m->nforks; k++) line_drop(&m->forks[k], flags);
    }
    if (flags & KOMA_WRITE_DROP_TIMES) l->end.elapsed_ms = l->end.total_ms = KOMA_TIME_NONE;
}

void koma__srec_drop(koma_shogi_record *r, unsigned flags) { line_drop(&r->main, flags); }

void koma_shogi_record_init(koma_shogi_record *r)
{
    memset(r, 0, sizeof *r);
    koma_position_init(&r->setup);
    send_init(&r->main.end);
}

static void srec_clear(koma_shogi_record *r, int keep)
{
    free(r->setup_comment);
    free(r->setup_bookmark);
    r->setup_comment = r->setup_bookmark = NULL;
    for (size_t i = 0; i < r->nheaders; i++) {
        free(r->headers[i].name);
        free(r->headers[i].value);
    }
    r->nheaders = 0;
    if (!keep) {
        free(r->headers);
        r->headers = NULL;
        r->capheaders = 0;
    }
    memset(r->nperiods, 0, sizeof r->nperiods);
    line_cleanup(&r->main);
    free(r->source_format);
    free(r->source_version);
    free(r->source_encoding);
    r->source_format = r->source_version = r->source_encoding = NULL;
    r->game = NULL;
    r->line = 0;
}

void koma_shogi_record_cleanup(koma_shogi_record *r)
{
    if (r == NULL) return;
    srec_clear(r, 0);
    koma_position_cleanup(&r->setup);
}

void koma_shogi_record_reset(koma_shogi_record *r)
{
    srec_clear(r, 1);
    koma_error_clear(&r->warning);
    koma_hand_clear(&r->setup.hands[0]);
    koma_hand_clear(&r->setup.hands[1]);
    r->setup.turn = KOMA_FIRST;
}

koma_shogi_move *koma_shogi_line_push(koma_shogi_line *line, const koma_shogi_move *m, koma_error *err)
{
    if (line->len == line->cap) {
        size_t cap = line->cap ? line->cap * 2 : 64;
        koma_shogi_move *p = realloc(line->moves, cap * sizeof *p);
        if (p == NULL) {
            oom(err);
            return NULL;
        }
        line->moves = p;
        line->cap = cap;
    }
    line->moves[line->len] = *m;
    return &line->moves[line->len++];
}

koma_shogi_line *koma_shogi_move_add_fork(koma_shogi_move *m, koma_error *err)
{
    koma_shogi_line *p = realloc(m->forks, (m->nforks + 1) * sizeof *p);
    if (p == NULL) {
        oom(err);
        return NULL;
    }
    m->forks = p;
    koma_shogi_line *l = &p[m->nforks++];
    memset(l, 0, sizeof *l);
    send_init(&l->end);
    return l;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d == NULL) return NULL;
    if (n) memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

int koma_shogi_record_add_header(koma_shogi_record *r, koma_shogi_header_key key, const char *name, size_t name_len,
                         const char *value, size_t value_len, koma_error *err)
{
    if (r->nheaders == r->capheaders) {
        size_t cap = r->capheaders ? r->capheaders * 2 : 8;
        koma_shogi_header *p = realloc(r->headers, cap * sizeof *p);
        if (p == NULL) return oom(err);
        r->headers = p;
        r->capheaders = cap;
    }
    koma_shogi_header *h = &r->headers[r->nheaders];
    h->key = key;
    h->name = name ? dup_n(name, name_len) : NULL;
    h->value = dup_n(value ? value : "", value ? value_len : 0);
    if ((name && h->name == NULL) || h->value == NULL) {
        free(h->name);
        free(h->value);
        return oom(err);
    }
    r->nheaders++;
    return 0;
}

const char *koma_shogi_record_header(const koma_shogi_record *r, koma_shogi_header_key key, const char *name)
{
    for (size_t i = 0; i < r->nheaders; i++) {
        const koma_shogi_header *h = &r->headers[i];
        if (h->key != key) continue;
        if (key == KOMA_H_OTHER && (name == NULL || h->name == NULL || strcmp(h->name, name) != 0))
            continue;
        return h->value;
    }
    return NULL;
}

int koma_shogi_set_text(char **dst, const char *s, size_t len, int append, koma_error *err)
{
    if (append && *dst != NULL) {
        size_t old = strlen(*dst);
        char *p = realloc(*dst, old + 1 + len + 1);
        if (p == NULL) return oom(err);
        p[old] = '\n';
        if (len) memcpy(p + old + 1, s, len);
        p[old + 1 + len] = '\0';
        *dst = p;
        return 0;
    }
    char *d = dup_n(s, len);
    if (d == NULL) return oom(err);
    free(*dst);
    *dst = d;
    return 0;
}

/* ---- endings ------------------------------------------------------------------ */

static const struct {
    koma_shogi_ending_code code;
    const char *csa;
} csa_codes[] = {
    {KOMA_SHOGI_ENDING_RESIGN, "%TORYO"},
    {KOMA_SHOGI_ENDING_INTERRUPT, "%CHUDAN"},
    {KOMA_SHOGI_ENDING_REPETITION, "%SENNICHITE"},
    {KOMA_SHOGI_ENDING_PERPETUAL_CHECK, "%OUTE_SENNICHITE"},
    {KOMA_SHOGI_ENDING_IMPASSE, "%JISHOGI"},
    {KOMA_SHOGI_ENDING_MATE, "%TSUMI"},
    {KOMA_SHOGI_ENDING_NO_MATE, "%FUZUMI"},
    {KOMA_SHOGI_ENDING_TIME_UP, "%TIME_UP"},
    {KOMA_SHOGI_ENDING_ILLEGAL_LOSS, "%ILLEGAL_MOVE"},
    {KOMA_SHOGI_ENDING_ENTERING_KING, "%KACHI"},
    {KOMA_SHOGI_ENDING_DRAW, "%HIKIWAKE"},
    {KOMA_SHOGI_ENDING_MAX_MOVES, "%MAX_MOVES"},
    {KOMA_SHOGI_ENDING_MATTA, "%MATTA"},
    {KOMA_SHOGI_ENDING_ERROR, "%ERROR"},
};

const char *koma_shogi_ending_csa(koma_shogi_ending_code code, int offender)
{
    if (code == KOMA_SHOGI_ENDING_ILLEGAL_WIN)
        return offender == KOMA_FIRST ? "%+ILLEGAL_ACTION" : "%-ILLEGAL_ACTION";
    for (size_t i = 0; i < sizeof csa_codes / sizeof csa_codes[0]; i++)
        if (csa_codes[i].code == code) return csa_codes[i].csa;
    return NULL;
}

koma_shogi_ending_code koma_shogi_ending_from_csa(const char *s, size_t len, int mover)
{
    if (len == 16 && (s[1] == '+' || s[1] == '-') && memcmp(s + 2, "ILLEGAL_ACTION", 14) == 0 &&
        s[0] == '%') {
        int offender = s[1] == '+' ? KOMA_FIRST : KOMA_SECOND;
        return offender == mover ? KOMA_SHOGI_ENDING_ILLEGAL_LOSS : KOMA_SHOGI_ENDING_ILLEGAL_WIN;
    }
    for (size_t i = 0; i < sizeof csa_codes / sizeof csa_codes[0]; i++)
        if (strlen(csa_codes[i].csa) == len && memcmp(csa_codes[i].csa, s, len) == 0)
            return csa_codes[i].code;
    return KOMA_SHOGI_ENDING_OTHER;
}

/* ---- squares ------------------------------------------------------------------ */

int koma_sq_to_square(const koma_shape *shape, koma_sq sq, uint32_t *square)
{
    if (shape->ndims != 2) return -1;
    unsigned files = shape->size[0], ranks = shape->size[1];
    if (sq.file < 1 || sq.file > files || sq.rank < 1 || sq.rank > ranks) return -1;
    /* FEEN order: row 0 is the top rank, file index 0 the leftmost file */
    *square = (uint32_t)(sq.rank - 1) * files + (files - sq.file);
    return 0;
}

koma_sq koma_sq_from_square(const koma_shape *shape, uint32_t square)
{
    koma_sq sq = {0, 0};
    unsigned files = shape->size[0];
    if (shape->ndims != 2 || files == 0 || square >= shape->squares) return sq;
    sq.rank = (uint8_t)(square / files + 1);
    sq.file = (uint8_t)(files - square % files);
    return sq;
}
