/* koma/koma.h — everything libkoma exports. */
#ifndef KOMA_KOMA_H
#define KOMA_KOMA_H

#include <koma/version.h>
#include <koma/limits.h>
#include <koma/error.h>
#include <koma/io.h>
#include <koma/cell.h>
#include <koma/atoms.h>
#include <koma/position.h>
#include <koma/feen.h>
#include <koma/pmn.h>
#include <koma/cgsn.h>
#include <koma/game.h>
#include <koma/engine.h>
#include <koma/ggn.h>
#include <koma/pcn.h>
#include <koma/sniff.h>
#include <koma/diagram.h>
#include <koma/record.h>
#include <koma/format.h>
#include <koma/sfen.h>
#include <koma/repeats.h>
#include <koma/referee.h>
#include <koma/verdict.h>
#include <koma/select.h>
#include <koma/convert.h>

/*
 * jansson's allocation functions are process-wide (json_set_alloc_funcs).
 * libkoma wraps those jansson has with its own (out of memory told apart from
 * bad JSON, a record's memory budget) once, at its first JSON read or write,
 * or now. A program that uses jansson itself from other threads calls this
 * before starting them; one that sets its own functions does so before its
 * first libkoma call, never after (libkoma(3), THREAD SAFETY).
 * Ownership: none.
 */
KOMA_API void koma_json_init(void);

#endif
