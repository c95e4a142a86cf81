/*
 * lib/fmt_jkf.h — JKF's two readers (internal to libkoma; not installed):
 * one pass over the text with no tree (fmt_jkf_quick.c), and jansson's tree
 * (fmt_jkf.c), which reads every record the first leaves and reports every
 * error. The format's reader tries the first, then the second.
 */
#ifndef KOMA_FMT_JKF_H
#define KOMA_FMT_JKF_H

#include <stddef.h>
#include <koma/error.h>
#include <koma/record.h>

/*
 * One JKF record s[0..len) (its first line `line` in the input) read into r
 * as the tree reader reads it: the same record, the same places of its moves.
 * 1: read; 0: not of the plain forms this pass reads, or not a valid JKF
 * record (r is then reset, keeping r->line, for the tree reader, which
 * decides and reports); -1: out of memory (err set).
 */
int koma__jkf_read_quick(const char *s, size_t len, unsigned long line, koma_shogi_record *r,
                         koma_error *err);

/* The same through jansson's tree: 0, or -1 with err located in the input. */
int koma__jkf_read_tree(const char *s, size_t len, unsigned long line, koma_shogi_record *r,
                        koma_error *err);

#endif
