/*
 * lib/record_internal.h — what the hub (lib/record_hub.c, lib/record*.c) shares with
 * the format modules beyond koma/record.h (not installed): the hub's state
 * (record_hub.c), the origins of moves and the relative marks that tell them
 * (record_relative.c), the annotation writers ask for (record_pcn.c), and the
 * standard Shogi start positions (record_shogi.c).
 */
#ifndef KOMA_RECORD_INTERNAL_H
#define KOMA_RECORD_INTERNAL_H

#include <koma/record.h>
#include <koma/pmn.h>
#include <koma/io.h>

/* ---- the hub (record_hub.c) ------------------------------------------------------------------- */

#define KOMA__HUB_ENGINES 16           /* engines a hub keeps (the oldest goes) */

struct koma_hub {
    koma_game_set *games;
    int own_games;
    struct {
        const koma_game *game;
        koma_engine *engine;
    } engines[KOMA__HUB_ENGINES];
    size_t nengines;
    koma_position pos;                 /* scratch: the position being converted */
    int full_origins;                  /* 1: KI2's origins always from the move list (the
                                          reference tests/unit/test_record_relative.c
                                          compares the quick look-up with) */
    struct koma__origins_memo *memo;   /* the quick look-up's last board (made when first
                                          needed; NULL: none, each board read whole) */
};

/* ---- origins and relative marks (record_relative.c) ----------------------------------- */

#define KOMA__MAX_ORIGINS 64

/* Set in koma_shogi_move.relative by koma__srec_annotate when no marks tell the
 * origin apart (KI2 cannot write the move). */
#define KOMA__REL_UNTOLD 0x80u

/* The origins of the board moves of one kind of piece to one square: for each,
 * which moves exist, legal and pseudo-legal (bit 1: without promotion, bit 2:
 * promoting). */
typedef struct koma__origins {
    koma_sq sq[KOMA__MAX_ORIGINS];
    unsigned legal[KOMA__MAX_ORIGINS], pseudo[KOMA__MAX_ORIGINS];
    size_t n;
} koma__origins;

int koma__relative_collect(koma_hub *h, const koma_game *g, const koma_position *pos,
                          koma_piece kind, koma_sq to, koma__origins *o, koma_error *err);

/*
 * The one reading of relative marks, shared by readers and writers: the
 * origins with a move that keeps `promote` (KOMA_PROMOTE_*), legal ones first
 * (pseudo-legal ones only when no legal one fits, so that an illegal move a
 * record holds is still read), narrowed by the marks: 上 引 寄 直 by the
 * move's direction for the mover, then 右 左 to the rightmost or leftmost as
 * the mover sees the board (marks are ignored when one origin is left).
 * Returns the index of the origin, -1 when none fits, -2 when several do (*a
 * and *b two of them).
 */
int koma__relative_pick(const koma__origins *o, int promote, unsigned rel, koma_sq to, int turn,
                       size_t *a, size_t *b);

/* The fewest marks that make koma__relative_pick choose origin i of a move of
 * `kind` (直 is not used for a dragon or a horse); -1 when none do. */
int koma__relative_marks(const koma__origins *o, size_t i, koma_piece kind, int promote, koma_sq to,
                        int turn, unsigned *rel);

/* For writers that say more than PCN does (KI2, JKF): every move's relative
 * marks (the fewest a reader needs; KOMA__REL_UNTOLD when none suffice, 打
 * for a drop a board piece could also make) and whether promoting was a
 * choice (koma_shogi_move.promotable), replaying the record, forks too. */
int koma__srec_annotate(koma_hub *h, koma_shogi_record *r, koma_error *err);

/* ---- Shogi's standard sets (record_shogi.c) -------------------------------------------- */

/* The even game and the handicaps of Shogi, by the names KIF (手合割) and
 * JKF (initial.preset) give them. */
typedef struct koma__preset {
    const char *kif;               /* "平手", "香落ち", ... (UTF-8) */
    const char *jkf;               /* "HIRATE", "KY", ... */
} koma__preset;

const koma__preset *koma__preset_by_kif(const char *s, size_t len);
const koma__preset *koma__preset_by_jkf(const char *s, size_t len);
/* *out: the preset whose position pos is (turn included), or NULL; -1 when out
 * of memory (each preset's position is built to compare: not to be read as
 * "no preset", which writes a board instead of the handicap's name). */
int koma__preset_of(const koma_position *pos, const koma__preset **out, koma_error *err);
/* pos set to the preset's position. */
int koma__preset_position(const koma__preset *p, koma_position *pos, koma_error *err);

/* The two-letter piece codes of CSA and JKF ("FU" .. "RY"): the kind (first
 * player's case, '+' for the promoted ones), or NONE; and back (NULL when none). */
koma_piece koma__shogi_piece(const char *s, size_t len);
const char *koma__shogi_code(koma_piece kind);
/* A kind as it stands on the board for side (a king is terminal: K^). */
koma_piece koma__shogi_on_board(koma_piece kind, int side);

/* 0 when r is a Shogi record that CSA, KIF, KI2 and JKF can hold (9x9, Shogi's
 * pieces, unpromoted hands); else convert.unrepresentable naming format. */
int koma__srec_shogi_only(const koma_shogi_record *r, const char *format, koma_error *err);
/* convert.unrepresentable when the record has variations (for CSA and USI). */
int koma__srec_no_forks(const koma_shogi_record *r, const char *format, koma_error *err);
/* Leave out of r what the user asked not to write (koma-convert --drop): the
 * times of the moves and endings (KOMA_WRITE_DROP_TIMES), the variations
 * (KOMA_WRITE_DROP_VARIATIONS); other flags are ignored. */
void koma__srec_drop(koma_shogi_record *r, unsigned flags);

/* KIF's header names, which JKF's header keys are too: what one means to koma
 * (KOMA_H_OTHER: none), and the name of a key (for the sides, 下手 and 上手 in a
 * handicap game; NULL for KOMA_H_OTHER). */
koma_shogi_header_key koma__kif_header_key(const char *name, size_t len);
const char *koma__kif_header_name(koma_shogi_header_key key, int handicap);
/* KIF's dates ("2014/10/12 14:46:51", "2008/12/20(土)", "2014/07/08 9:00") as
 * ISO 8601 into out (an ISO date-time as it is): its length, 0 when v is not a
 * date. And back: "YYYY/MM/DD[ HH:MM:SS]" into buf, or iso itself when it has a
 * zone or fractions. */
size_t koma__kif_date_in(const char *v, size_t n, char out[48]);
const char *koma__kif_date_out(const char *iso, char buf[32]);

/* A header field of KIF (or JKF) into r: dates as ISO, the fields koma knows
 * by their key, 持ち時間 (and 先手持ち時間, 後手持ち時間) in koma's form as
 * periods, the others as they are. */
#define KOMA__KIF_FIRST_TIME "先手持ち時間"
#define KOMA__KIF_SECOND_TIME "後手持ち時間"
int koma__kif_header_add(koma_shogi_record *r, const char *key, size_t klen, const char *value, size_t vlen, koma_error *err);
/* Periods as a 持ち時間 text koma reads back ("各25分+秒読み30秒", each: for
 * both sides): 0, or -1 when they have no such form (or buf is too small). */
int koma__kif_periods_out(const koma_shogi_period *p, size_t n, int each, char *buf, size_t cap);
/* A 持ち時間 text in koma's form ("[各]MAIN[+1手N加算][+秒読みN]"; each: with 各,
 * for both sides) as periods: 1 when it is one (*p, *np set), else 0. */
int koma__kif_periods_in(const char *v, size_t n, int each, koma_shogi_period *p, size_t *np);
/* A 持ち時間 text in a form other programs write ("10分+30秒", "各15分切れ負け",
 * "1時間30分（秒読み60秒）", "5分+10秒(1手ごとに加算)", "60分 切れたら1分将棋";
 * koma-formats(5)) as periods: 1 when read (*p, *np set), else 0. */
int koma__kif_time_in(const char *v, size_t n, koma_shogi_period *p, size_t *np);
/* 1 when r's time control text for side (0 both, 1 first, 2 second: 持ち時間,
 * 先手持ち時間, 後手持ち時間) is not in koma's form and reads as r's periods for
 * that side: written as it is, it gives them back, and they need no line. */
int koma__kif_periods_said(const koma_shogi_record *r, int side);

/* Times of a move (or ending) of side for formats that write both the time
 * spent and the total (KIF, JKF): a missing total is the side's running total
 * plus the time, a missing time the difference of totals; run[side] is moved
 * on. Both KOMA_TIME_NONE when the move has neither. */
void koma__times_both(long long run[2], int side, long long el, long long tot, long long *oel, long long *otot);

/* ---- the hub's pieces that lib/record_pcn_text.c shares with record_pcn.c ---- */

/* The move sm (ply `ply`) resolved in pos (koma_shogi_record_to_pcn's reading:
 * its origin, promotion, capture), written as PMN into buf and applied to pos;
 * *prev_to becomes its destination. Its length; 0 with err (convert.move
 * located at the move, or memory). */
size_t koma__srec_play(koma_hub *h, const koma_game *g, koma_position *pos, const koma_shogi_move *sm,
                       koma_sq *prev_to, size_t ply, char buf[KOMA_PMN_BUF], koma_error *err);
/* The game of r (r->game, or found from its setup) and its setup as FEEN (fl
 * bytes): koma_shogi_record_to_pcn's start and its errors. */
int koma__srec_start(koma_hub *h, const koma_shogi_record *r, const koma_game **game,
                     char feen[KOMA_FEEN_MAX_LEN + 1], size_t *fl, koma_error *err);
/* 0 when s[0..n) is UTF-8; else convert.encoding quoting it from its first bad byte. */
int koma__srec_text_ok(const char *s, size_t n, koma_error *err);
/* The headers in the order PCN lists their fields: *pass and *at start at 0;
 * the next header, or NULL. */
const koma_shogi_header *koma__srec_header_next(const koma_shogi_record *r, size_t *pass, size_t *at);
/* Where a header goes (KOMA__SREC_IN_*: meta, sides.first, sides.second,
 * meta.headers) and its key there. */
enum { KOMA__SREC_IN_META, KOMA__SREC_IN_FIRST, KOMA__SREC_IN_SECOND, KOMA__SREC_IN_HEADERS };
const char *koma__srec_header_place(const koma_shogi_header *h, int *where);
/* A line's outcome as PCN writes it: the members known from the ending alone
 * (a member NULL, or has_ply 0: not written). 0 when the line has no outcome. */
typedef struct koma__srec_outcome {
    const char *result, *status;
    int has_ply;
    size_t ply;
    const char *csa, *text;
} koma__srec_outcome;
int koma__srec_outcome_of(const koma_shogi_ending *e, int mover, size_t n, koma__srec_outcome *o);
/* 1 when r reached floodgate's move limit (a CSA comment "Max_Moves:N", N plies)
 * and says no ending: a draw. */
int koma__srec_move_limit(const koma_shogi_record *r);

/* The PCN JSON text koma_shogi_record_to_pcn and koma_pcn_write (compact)
 * give for r, written straight from r (lib/record_pcn_text.c): appended to out
 * with its '\n'. 0; -1 with err, the error the tree path gives, out as it was;
 * 1 when it leaves r to the tree path (more than KOMA__SREC_TEXT_HEADERS
 * headers, forks nested deeper than KOMA__SREC_TEXT_FORKS), out as it was. */
#define KOMA__SREC_TEXT_HEADERS 64u
#define KOMA__SREC_TEXT_FORKS 100u
int koma__srec_pcn_text(koma_hub *h, const koma_shogi_record *r, koma_buffer *out, koma_error *err);

#endif
