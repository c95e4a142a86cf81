/*
 * lib/format_internal.h — what a format module defines (not installed).
 *
 * A format is a const struct koma_format in its own module (lib/fmt_*.c, or
 * the module of its notation), listed in the table of lib/format.c. Every
 * callback may be NULL when the format does not do that.
 */
#ifndef KOMA_FORMAT_INTERNAL_H
#define KOMA_FORMAT_INTERNAL_H

#include <koma/koma.h>
#include <koma/format.h>
#include <koma/record.h>

#include "util_text.h"

/* Record splitting answers. */
enum { KOMA__SPLIT_MEMORY = -1, KOMA__SPLIT_MORE = 0, KOMA__SPLIT_RECORD = 1 };

struct koma_format {
    const char *name;
    const char *aliases;           /* space-separated, "" when none */
    const char *title;
    koma_format_kind kind;
    int pcn;                       /* 1 + koma_pcn_format for the PCN formats, else 0 */

    /* 0 (not this) .. 3 (sure), from the start of an input (at_end: all of it). */
    int (*detect)(const char *s, size_t len, int at_end);

    /*
     * RECORD formats: the first record of s[0..len): *rec_len bytes of it are
     * the record, *used bytes (>= rec_len) are consumed (separators). Returns
     * KOMA__SPLIT_RECORD, or KOMA__SPLIT_MORE when more input is needed (never
     * with at_end), or KOMA__SPLIT_MEMORY. NULL: the whole input is one record.
     * forced: the text's encoding when the caller gives it (KOMA__ENC_NONE: the
     * format finds each record's, as its reader does).
     */
    int (*split)(const char *s, size_t len, int at_end, koma__enc forced, size_t *rec_len, size_t *used);

    /* Per-input state of the reader (zeroed; freed with free_state). */
    size_t state_size;
    void (*free_state)(void *state);

    /* RECORD: one record's text (line: its first line in the input) into r
     * (reset by the caller); errors with line and column in the input. */
    int (*read_record)(koma_hub *h, void *state, const char *s, size_t len, unsigned long line,
                       koma_shogi_record *r, koma_error *err);
    /* RECORD: one record (index: its 0-based number in the output; flags:
     * koma_format_writer_new's). */
    int (*write_record)(koma_hub *h, const koma_shogi_record *r, size_t index, unsigned flags,
                        koma_buffer *out, koma_error *err);
    /* RECORD writers that say more than PCN (KI2's relative marks, JKF's
     * promote: false): koma__srec_annotate runs before write_record. */
    int annotate;

    /* POSITION: one line (column-based errors). */
    int (*read_position)(koma_hub *h, const char *s, size_t len, unsigned flags,
                         koma_position *pos, koma_error *err);
    /* POSITION: one position of a game; last (may be NULL) the move that led
     * to it, ply its number (0 for the setup); index as write_record. */
    int (*write_position)(koma_hub *h, const koma_position *pos, const koma_game *game,
                          const koma_move *last, size_t ply, size_t index,
                          koma_buffer *out, koma_error *err);

    /* MOVES: one move s[0..len) in pos, into canonical PMN (pieces resolved). */
    int (*read_move)(koma_hub *h, const koma_position *pos, const char *s, size_t len,
                     koma_move *out, koma_error *err);
    /* MOVES: m (canonical, legal for pos at the protocol level) as text. */
    int (*write_move)(koma_hub *h, const koma_position *pos, const koma_move *m,
                      koma_buffer *out, koma_error *err);
    /* MOVES: the default start position (NULL: none, a start is required). */
    const char *default_start;

    /* KOMA_FORMAT_CHECK: one item alone (koma_format_check), what an item is
     * called when checked, and whether an input holds one a line. */
    int (*check)(const char *s, size_t len, koma_error *err);
    const char *check_title;
    int check_lines;
    /* MOVES: a line may hold a game's moves as a Sanki list [[...], ...]
     * (koma_sanki_move_list), a record of its own. */
    int move_lists;
};

/* ---- lib/record_hub.c ---- */

/* The game of a position (the hub's set), or NULL with err (game.unknown). */
const koma_game *koma__hub_game(koma_hub *h, const koma_position *pos, koma_error *err);
/* The hub's engine for a game (made on first use). */
koma_engine *koma__hub_engine(koma_hub *h, const koma_game *g, koma_error *err);
/* Apply m to pos: koma_move_apply, or, for a move it cannot make ('~') or a game
 * whose state markers are the rules' (Sanki), the rules engine's make when m is
 * legal there. */
int koma__hub_apply(koma_hub *h, koma_position *pos, const koma_move *m, koma_error *err);

/* Formats defined in their modules. */
extern const koma_format koma__fmt_pcn_json, koma__fmt_pcn_yaml, koma__fmt_feen,
    koma__fmt_fid, koma__fmt_pmn, koma__fmt_sfen, koma__fmt_usi_move, koma__fmt_fen,
    koma__fmt_fen_move, koma__fmt_usi, koma__fmt_csa, koma__fmt_ascii, koma__fmt_unicode,
    koma__fmt_svg, koma__fmt_kif, koma__fmt_ki2, koma__fmt_jkf, koma__fmt_sanki_move;
/* lib/fmt_notation.c: the notations koma only checks */
extern const koma_format koma__fmt_ggn, koma__fmt_cell, koma__fmt_pin, koma__fmt_epin,
    koma__fmt_sin, koma__fmt_snn, koma__fmt_qpi, koma__fmt_cgsn;
/* and the checks of FEEN, FID, PMN, PCN (lib/sfen.c, lib/fmt_pcn.c use them) */
int koma__check_feen(const char *s, size_t len, koma_error *err);
int koma__check_fid(const char *s, size_t len, koma_error *err);
int koma__check_pmn(const char *s, size_t len, koma_error *err);
int koma__check_pcn(const char *s, size_t len, koma_error *err);

/* From now on, each shogi-world record rs reads is not returned as a koma_pcn
 * but appended to out as its PCN JSON text, compact, '\n'-ended (the bytes
 * koma_pcn_write gives for the record koma_format_reader_next would return):
 * koma_format_reader_next then gives KOMA_PCN_RECORD with *out NULL. Records
 * of the other formats still come as a koma_pcn. NULL: back to koma_pcn. */
void koma__format_reader_pcn_text(koma_format_reader *rs, koma_buffer *out);
/* lib/convert.c: 1 makes cv read every record as a koma_pcn and write it with
 * the writer (the general path, which the straight PCN text is tested against). */
void koma__converter_tree(koma_converter *cv, int tree);

#endif
