/*
 * lib/util_json_emit.h — a jansson tree written as compact JSON by koma
 * itself (internal to libkoma; not installed), for koma__json_dump
 * (util_json_alloc.h): the bytes json_dump_callback writes with JSON_COMPACT
 * and JSON_PRESERVE_ORDER, without its allocations (a table of the
 * containers being written, to find cycles) and with the text given to the
 * sink in pieces of some kilobytes, not token by token.
 */
#ifndef KOMA_UTIL_JSON_EMIT_H
#define KOMA_UTIL_JSON_EMIT_H

#include <jansson.h>

#include "util_json_alloc.h"

/*
 * v (objects, arrays, strings of valid UTF-8, integers, true, false, null; at
 * most KOMA__JSON_EMIT_DEPTH levels) written to sink: 0; -1 when the sink
 * failed (nothing more is given to it). 1 when v holds anything else (a real,
 * a string that is not UTF-8, deeper levels or a cycle): nothing was written,
 * and jansson writes it, or reports why it cannot.
 */
/* The escape of a byte the compact form escapes ('"', '\\', a control below
 * 0x20: \b \f \n \r \t or \u00XX) into esc; its length, 2 or 6. */
size_t koma__json_escape(unsigned char c, char esc[6]);
/* v in decimal (a '-' first when negative) into buf; its length. */
size_t koma__json_int(long long v, char buf[24]);

#define KOMA__JSON_EMIT_DEPTH 512u
int koma__json_emit_compact(const json_t *v, koma__json_sink sink, void *ctx);

#endif
