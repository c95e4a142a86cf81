/*
 * koma/record.h — the shogi-world record: one intermediate form for every
 * foreign record format (USI, CSA, KIF, KI2, JKF, ...), and the one place that
 * converts it to and from PCN (koma-formats(5), SHOGI-WORLD FORMATS).
 *
 * A reader of a foreign format fills a koma_shogi_record with what its text says, in
 * the shogi world's own terms: squares numbered as shogi players number them,
 * moves as "from, to, piece, promotes?" (or only part of that: a USI move does
 * not name its piece, a KI2 move has no origin, a CSA move names the piece
 * after the move), times, comments, forks and the special ending (投了,
 * %TORYO, ...). koma_shogi_record_to_pcn then makes the PCN record with the position
 * as context: the origin of a move that has none (the move generator), the
 * captured piece, promotion, the end code as outcome.result + CGSN status.
 * A writer does the reverse: koma_shogi_record_from_pcn fills a koma_shogi_record from a PCN
 * record with every field known, and the writer prints what its format holds.
 * So each format module only parses and prints its own syntax.
 *
 * Squares: file counted from the first player's right (1 = the rightmost file
 * as Sente sees the board, files - 1 more to the left), rank counted from the
 * top (1 = the second player's back rank). On a 9x9 board this is the usual
 * 7g = {7, 7}; FEEN cell a9 is {9, 1} and i1 is {1, 9}.
 *
 * Pieces are koma_piece values of the first player's case (uppercase), with
 * the state prefix (+P for a promoted pawn) and without the terminal or
 * derivation markers: `K` for a king, which is `K^` on the board. Promotion
 * is the '+' state in every game koma plays.
 *
 * Extension keys (what PCN has no member for) are documented in README.md
 * ("Shogi-world records") and koma-formats(5); the hub writes and reads them:
 *   meta.started_at_local, meta.ended_at_local  local date-times (no zone)
 *   meta.opening, meta.time_control, meta.handicap, meta.headers{KEY: text}
 *   meta.source {format, version, encoding}
 *   sides.first/second.periods              per-side time controls
 *   setup.comment                           comment on the setup position
 *   setup.bookmark, plies[i].bookmark,      KIF/KI2 bookmarks (&name lines)
 *   outcome.bookmark
 *   plies[i].total_ms                       cumulative time (KIF, JKF)
 *   plies[i].variations [{plies, outcome}]   forks: lines replacing ply i
 *   outcome.csa                             the CSA end code, when result and
 *                                           status do not say it (%KACHI ...)
 *   outcome.text                            an ending word with no code (封じ手)
 *   outcome.comment, outcome.elapsed_ms,    on the ending itself
 *   outcome.total_ms
 */
#ifndef KOMA_RECORD_H
#define KOMA_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>
#include <koma/atoms.h>
#include <koma/position.h>
#include <koma/game.h>
#include <koma/pcn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A square in shogi-world numbering (see above); {0, 0}: none. */
typedef struct koma_sq {
    uint8_t file, rank;
} koma_sq;

/* Times: milliseconds, or KOMA_TIME_NONE. */
#define KOMA_TIME_NONE (-1LL)

/* Promotion as the move says it. */
enum { KOMA_PROMOTE_UNSAID = -1, KOMA_PROMOTE_NO = 0, KOMA_PROMOTE_YES = 1 };

/* KI2 relative marks (a bit set): 右 左 直 上 引 寄 打. */
#define KOMA_REL_RIGHT    0x01u
#define KOMA_REL_LEFT     0x02u
#define KOMA_REL_STRAIGHT 0x04u
#define KOMA_REL_UP       0x08u
#define KOMA_REL_DOWN     0x10u
#define KOMA_REL_SIDEWAYS 0x20u
#define KOMA_REL_DROP     0x40u

typedef struct koma_shogi_line koma_shogi_line;

/*
 * One move. Readers set what their text says and leave the rest at the values
 * koma_shogi_move_init gives (NONE, UNSAID, -1); koma_shogi_record_from_pcn sets all.
 */
typedef struct koma_shogi_move {
    int drop;                      /* 1: from the hand */
    koma_sq from;                  /* {0,0} for a drop, or not given (KI2) */
    koma_sq to;                    /* {0,0} when same = 1 */
    int same;                      /* the previous move's destination (同) */
    koma_piece piece;              /* the piece moved or dropped, before the move; NONE: not given */
    koma_piece after;              /* the piece after the move (CSA); NONE: not given */
    int promote;                   /* KOMA_PROMOTE_* */
    unsigned relative;             /* KOMA_REL_* (KI2) */
    int side;                      /* KOMA_FIRST, KOMA_SECOND, or -1: not given */
    koma_piece captured;           /* the piece taken: set by koma_shogi_record_from_pcn; a reader
                                      may set it (JKF), and the hub checks it (NONE: unsaid) */
    long long elapsed_ms;          /* time spent on the move */
    long long total_ms;            /* the mover's total so far (KIF) */
    char *comment;                 /* lines joined by '\n', or NULL (owned) */
    char *bookmark;                /* a KIF/KI2 bookmark (&name), or NULL (owned) */
    int promotable;                /* set by koma__srec_annotate: promoting was a choice */
    koma_shogi_line *forks;             /* lines that replace this move (owned) */
    size_t nforks;
    unsigned long line, column;    /* where the move was read (diagnostics) */
} koma_shogi_move;

/* The special ending of a line of play, relative to the side to move when it
 * is written ("mover" below). */
typedef enum koma_shogi_ending_code {
    KOMA_SHOGI_ENDING_NONE = 0,            /* no ending written */
    KOMA_SHOGI_ENDING_RESIGN,              /* %TORYO 投了: the mover resigns */
    KOMA_SHOGI_ENDING_INTERRUPT,           /* %CHUDAN 中断: no result */
    KOMA_SHOGI_ENDING_REPETITION,          /* %SENNICHITE 千日手: draw by repetition */
    KOMA_SHOGI_ENDING_PERPETUAL_CHECK,     /* %OUTE_SENNICHITE: the checking side (not the mover) loses */
    KOMA_SHOGI_ENDING_IMPASSE,             /* %JISHOGI 持将棋: draw by impasse */
    KOMA_SHOGI_ENDING_MATE,                /* %TSUMI 詰み: the mover is checkmated */
    KOMA_SHOGI_ENDING_NO_MATE,             /* %FUZUMI 不詰: no mate (problems); no result */
    KOMA_SHOGI_ENDING_TIME_UP,             /* %TIME_UP 切れ負け: the mover lost on time */
    KOMA_SHOGI_ENDING_ILLEGAL_LOSS,        /* %ILLEGAL_MOVE 反則負け: the mover loses (illegal move) */
    KOMA_SHOGI_ENDING_ILLEGAL_WIN,         /* %±ILLEGAL_ACTION 反則勝ち: the other side did, the mover wins */
    KOMA_SHOGI_ENDING_ENTERING_KING,       /* %KACHI 入玉勝ち: the mover declares and wins */
    KOMA_SHOGI_ENDING_DRAW,                /* %HIKIWAKE 引き分け */
    KOMA_SHOGI_ENDING_MAX_MOVES,           /* %MAX_MOVES: draw at the move limit */
    KOMA_SHOGI_ENDING_MATTA,               /* %MATTA 待った */
    KOMA_SHOGI_ENDING_ERROR,               /* %ERROR */
    KOMA_SHOGI_ENDING_OTHER                /* another word: text says which */
} koma_shogi_ending_code;

typedef struct koma_shogi_ending {
    koma_shogi_ending_code code;
    char *text;                    /* the word as written (KOMA_SHOGI_ENDING_OTHER), or NULL */
    char *csa;                     /* the exact CSA code read or to write ("%KACHI"), or NULL */
    long long elapsed_ms;
    long long total_ms;            /* the mover's total time with it (KIF, JKF) */
    char *comment;
    char *bookmark;
    unsigned long line, column;
} koma_shogi_ending;

/* A line of play: the main line, or a fork. */
struct koma_shogi_line {
    koma_shogi_move *moves;
    size_t len, cap;
    koma_shogi_ending end;
};

/* Header fields with a meaning every format shares; KOMA_H_OTHER keeps the
 * format's own key. */
typedef enum koma_shogi_header_key {
    KOMA_H_OTHER = 0,
    KOMA_H_NAME,                   /* meta.name (a title of the game) */
    KOMA_H_EVENT,                  /* meta.event ($EVENT, 棋戦) */
    KOMA_H_SITE,                   /* meta.site ($SITE, 場所) */
    KOMA_H_ROUND,                  /* meta.round */
    KOMA_H_START,                  /* meta.started_at(_local) ($START_TIME, 開始日時) */
    KOMA_H_END,                    /* meta.ended_at_local ($END_TIME, 終了日時) */
    KOMA_H_OPENING,                /* meta.opening ($OPENING, 戦型) */
    KOMA_H_TIME_CONTROL,           /* meta.time_control, text ($TIME_LIMIT, 持ち時間) */
    KOMA_H_HANDICAP,               /* meta.handicap (手合割) */
    KOMA_H_FIRST_NAME,             /* sides.first.name (N+, 先手) */
    KOMA_H_SECOND_NAME             /* sides.second.name (N-, 後手) */
} koma_shogi_header_key;

typedef struct koma_shogi_header {
    koma_shogi_header_key key;
    char *name;                    /* KOMA_H_OTHER: the key as the format writes it */
    char *value;
} koma_shogi_header;

/* Dates read as date-times: "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SS[.fff]", with
 * a zone ("Z", "+09:00") only when the source gave one. */

/* Periods (time control), as PCN has them. */
typedef struct koma_shogi_period {
    long long duration_ms, increment_ms;   /* increment KOMA_TIME_NONE when absent */
    long long plies;                       /* 0 when absent */
} koma_shogi_period;

#define KOMA_SHOGI_MAX_PERIODS 8

typedef struct koma_shogi_record {
    const koma_game *game;         /* NULL: found from the setup position */
    koma_position setup;           /* the initial position (always set by a reader) */
    char *setup_comment;
    char *setup_bookmark;
    koma_shogi_header *headers;
    size_t nheaders, capheaders;
    koma_shogi_period periods[3][KOMA_SHOGI_MAX_PERIODS];   /* [0] both sides, [1] first, [2] second */
    size_t nperiods[3];
    koma_shogi_line main;
    char *source_format, *source_version, *source_encoding;
    unsigned long line;            /* first line of the record in its input */
    /* Reading, set by the caller and kept by koma_shogi_record_reset: the text's encoding
     * when the caller knows it ("EUC-JP", not owned; NULL: the reader finds it),
     * and, with transcoded, the encoding the input had before it was made the
     * UTF-8 text the reader gets (UTF-16). */
    const char *encoding;
    int transcoded;
    /* Reading: what the reader noticed without refusing the record, located as
     * its errors are (code KOMA_OK: nothing); the first such thing. */
    koma_error warning;
} koma_shogi_record;

/* ---- building and freeing ---------------------------------------------------- */

/* Ownership: none; the caller releases it with koma_shogi_record_cleanup. */
KOMA_API void koma_shogi_record_init(koma_shogi_record *r);
/* Ownership: frees what r owns (not r itself). */
KOMA_API void koma_shogi_record_cleanup(koma_shogi_record *r);
/* Empty r for the next record (buffers kept). Ownership: none. */
KOMA_API void koma_shogi_record_reset(koma_shogi_record *r);

/* A move with nothing said: drop 0, squares {0,0}, pieces NONE, promote UNSAID,
 * side -1, times KOMA_TIME_NONE. Ownership: none. */
KOMA_API void koma_shogi_move_init(koma_shogi_move *m);
/* Append a copy of m to line (m's owned pointers move into the line). NULL on
 * memory trouble (err set); else the stored move.
 * Ownership: the result is borrowed from line until line grows or is freed; m's owned pointers
 * move into line. */
KOMA_API koma_shogi_move *koma_shogi_line_push(koma_shogi_line *line, const koma_shogi_move *m,
                                               koma_error *err);
/* A new empty fork of m (appended to its forks).
 * Ownership: the result is borrowed from m until its line grows or is freed. */
KOMA_API koma_shogi_line *koma_shogi_move_add_fork(koma_shogi_move *m, koma_error *err);

/* Add a header field (copies of name and value; name may be NULL). Ownership: none. */
KOMA_API int koma_shogi_record_add_header(koma_shogi_record *r, koma_shogi_header_key key, const char *name,
                                  size_t name_len, const char *value, size_t value_len,
                                  koma_error *err);
/* The value of the first field with key (KOMA_H_OTHER: and name), or NULL.
 * Ownership: the result is borrowed from r until r is reset or cleaned up. */
KOMA_API const char *koma_shogi_record_header(const koma_shogi_record *r,
                                              koma_shogi_header_key key, const char *name);

/* Set *dst (freed first) to a copy of s[0..len); append with a '\n' between
 * lines when append is 1 and *dst is not NULL.
 * Ownership: *dst is the caller's (freed first, then a new copy the caller frees with free()). */
KOMA_API int koma_shogi_set_text(char **dst, const char *s, size_t len, int append,
                                 koma_error *err);

/* The CSA code of an ending ("%TORYO"; ILLEGAL_WIN needs the offender's side),
 * and back: the code and, for %+ILLEGAL_ACTION / %-ILLEGAL_ACTION, which is
 * relative to the mover. Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_shogi_ending_csa(koma_shogi_ending_code code, int offender);
/* Ownership: none. */
KOMA_API koma_shogi_ending_code koma_shogi_ending_from_csa(const char *s, size_t len, int mover);

/* ---- squares ------------------------------------------------------------------ */

/* shogi-world square <-> board square number (koma_shape numbering); -1 off board.
 * Ownership: none. */
KOMA_API int koma_sq_to_square(const koma_shape *shape, koma_sq sq, uint32_t *square);
/* Ownership: none. */
KOMA_API koma_sq koma_sq_from_square(const koma_shape *shape, uint32_t square);

/* ---- the hub -------------------------------------------------------------------- */

/*
 * A converter: the game set, a rules engine per game (made when first needed),
 * scratch positions. One per thread; reused for every record.
 */
typedef struct koma_hub koma_hub;

/* games: the caller's (it must outlive the hub), or NULL for the built-in set.
 * Ownership: the caller frees *out with koma_hub_free; games is borrowed until then (NULL: the
 * hub's own set). */
KOMA_API int koma_hub_new(koma_game_set *games, koma_hub **out, koma_error *err);
/* Ownership: frees h and what it owns. */
KOMA_API void koma_hub_free(koma_hub *h);
/* Ownership: the result is borrowed from h until h is freed. */
KOMA_API koma_game_set *koma_hub_games(koma_hub *h);

/*
 * A shogi-world record to PCN. Moves are resolved in their position: the piece
 * on the origin (a move whose origin is not given is found with the move
 * generator among the legal moves of that piece to that square, narrowed by
 * the relative marks), promotion from `promote` or `after`, the captured
 * piece from the board. Moves are applied as PMN says (the protocol level),
 * not judged: an illegal move that PMN can write is kept (koma-replay judges
 * it). A move PMN cannot write (no piece on the origin, a piece the move does
 * not name, a drop of a piece not in hand, the wrong side to move) is an error
 * (convert.move) located at the move's line and column. The ending becomes
 * outcome.result, .status (CGSN), .ply and, when those do not say it,
 * outcome.csa.
 * Ownership: the caller frees *out with koma_pcn_free.
 */
KOMA_API int koma_shogi_record_to_pcn(koma_hub *h, const koma_shogi_record *r, koma_pcn **out,
                                      koma_error *err);

/*
 * PCN to a shogi-world record, every move field known (from, to, piece,
 * after, promote, side, captured, same). Errors: the record's FEEN or a
 * ply that does not apply (pcn.*, pmn.*), a PMN move no shogi-world format
 * writes (a pass, a static capture, ...: convert.unrepresentable).
 * Ownership: none.
 */
KOMA_API int koma_shogi_record_from_pcn(koma_hub *h, const koma_pcn *p, koma_shogi_record *r,
                                        koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
