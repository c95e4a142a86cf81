/*
 * tests/fuzz/jkf_both.h — JKF's two readers on one record's text
 * (lib/fmt_jkf.h): the one-pass reader must give the tree reader's record
 * (every field, every move's place), or read nothing and leave the record
 * reset. Shared by the fuzz harness (fuzz_jkf.c) and the unit test
 * (tests/unit/test_fmt_jkf_quick.c).
 */
#ifndef KOMA_JKF_BOTH_H
#define KOMA_JKF_BOTH_H

#include <string.h>
#include <koma/koma.h>
#include "fmt_jkf.h"
#include "format_internal.h"

static inline int jkf_same_text(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static inline int jkf_same_line(const koma_shogi_line *a, const koma_shogi_line *b)
{
    if (a->len != b->len) return 0;
    for (size_t i = 0; i < a->len; i++) {
        const koma_shogi_move *x = &a->moves[i], *y = &b->moves[i];
        if (x->drop != y->drop || x->from.file != y->from.file || x->from.rank != y->from.rank ||
            x->to.file != y->to.file || x->to.rank != y->to.rank || x->same != y->same || x->piece != y->piece ||
            x->after != y->after || x->promote != y->promote || x->relative != y->relative || x->side != y->side ||
            x->captured != y->captured || x->elapsed_ms != y->elapsed_ms || x->total_ms != y->total_ms ||
            !jkf_same_text(x->comment, y->comment) || !jkf_same_text(x->bookmark, y->bookmark) ||
            x->promotable != y->promotable || x->nforks != y->nforks || x->line != y->line ||
            x->column != y->column)
            return 0;
        for (size_t k = 0; k < x->nforks; k++)
            if (!jkf_same_line(&x->forks[k], &y->forks[k])) return 0;
    }
    const koma_shogi_ending *e = &a->end, *f = &b->end;
    return e->code == f->code && jkf_same_text(e->text, f->text) && jkf_same_text(e->csa, f->csa) &&
           e->elapsed_ms == f->elapsed_ms && e->total_ms == f->total_ms && jkf_same_text(e->comment, f->comment) &&
           jkf_same_text(e->bookmark, f->bookmark) && e->line == f->line && e->column == f->column;
}

static inline int jkf_same_record(const koma_shogi_record *a, const koma_shogi_record *b)
{
    if (!koma_position_equal(&a->setup, &b->setup) || !jkf_same_text(a->setup_comment, b->setup_comment) ||
        !jkf_same_text(a->setup_bookmark, b->setup_bookmark) || a->nheaders != b->nheaders ||
        !jkf_same_text(a->source_format, b->source_format) || !jkf_same_text(a->source_version, b->source_version) ||
        a->line != b->line || memcmp(a->nperiods, b->nperiods, sizeof a->nperiods) != 0)
        return 0;
    for (size_t i = 0; i < a->nheaders; i++)
        if (a->headers[i].key != b->headers[i].key || !jkf_same_text(a->headers[i].name, b->headers[i].name) ||
            !jkf_same_text(a->headers[i].value, b->headers[i].value))
            return 0;
    for (int s = 0; s < 3; s++)
        for (size_t i = 0; i < a->nperiods[s]; i++)
            if (a->periods[s][i].duration_ms != b->periods[s][i].duration_ms ||
                a->periods[s][i].increment_ms != b->periods[s][i].increment_ms ||
                a->periods[s][i].plies != b->periods[s][i].plies)
                return 0;
    return jkf_same_line(&a->main, &b->main);
}

/* 1: both read the same record; 0: the one-pass reader left it to the tree
 * (the record reset); -1: they differ. */
static inline int jkf_both(const char *s, size_t len, unsigned long line)
{
    koma_shogi_record q, t;
    koma_shogi_record_init(&q);
    koma_shogi_record_init(&t);
    q.line = t.line = line;
    koma_error eq, et;
    koma_error_clear(&eq);
    koma_error_clear(&et);
    int rq = koma__jkf_read_quick(s, len, line, &q, &eq);
    int rt = koma__jkf_read_tree(s, len, line, &t, &et);
    int rc = rq == 1 ? (rt == 0 && jkf_same_record(&q, &t) ? 1 : -1)
             : rq == 0 ? (q.main.len == 0 && q.nheaders == 0 && q.line == line && q.setup_comment == NULL ? 0 : -1)
                       : -1;
    koma_shogi_record_cleanup(&q);
    koma_shogi_record_cleanup(&t);
    return rc;
}

/* Each record of a text, split as the format splits its input, given to fn
 * with its first line. */
static inline void jkf_each_record(const char *s, size_t len, void (*fn)(const char *, size_t, unsigned long, void *),
                                   void *ctx)
{
    size_t off = 0;
    unsigned long line = 1;
    while (off < len) {
        size_t rec_len = 0, used = 0;
        if (koma__fmt_jkf.split(s + off, len - off, 1, 0, &rec_len, &used) != KOMA__SPLIT_RECORD || used == 0) break;
        fn(s + off, rec_len, line, ctx);
        for (size_t i = 0; i < used; i++)
            if (s[off + i] == '\n') line++;
        off += used;
    }
}

#endif
