/* lib/engine_internal.h — the game definition and engine structures, shared by
 * game.c, engine.c, movegen.c and perft.c. Not installed, not exported. */
#ifndef KOMA_ENGINE_INTERNAL_H
#define KOMA_ENGINE_INTERNAL_H

#include <stdint.h>
#include <koma/koma.h>
#include <koma/game.h>
#include <koma/engine.h>

/* ---- game definitions ------------------------------------------------------- */

#define KOMA__MAX_KINDS 31             /* kinds per game (board codes use 5 bits) */
#define KOMA__MAX_FILES 26
#define KOMA__MAX_RANKS 26
#define KOMA__MAX_BOARD 1024           /* padded board squares (koma_engine.size) */
#define KOMA__NAME_MAX 48
#define KOMA__SURVIVAL_SETS 16         /* defeat.survival: sets of pieces */
#define KOMA__SURVIVAL_SET_MAX 8       /* pieces in one set */

typedef struct koma__kind {
    koma_piece pin;                    /* first-player identity: letter, state, '^' */
    char name[KOMA__NAME_MAX];
    char betza[KOMA_BETZA_MAX_LEN + 1];
    koma_betza_vector vec[KOMA_BETZA_MAX_VECTORS];
    uint8_t nvec;
    uint8_t royal;
    int8_t promotes_to;                /* kind index, -1 when it does not promote */
    int8_t demotes_to;                 /* kind a capture puts in hand (itself if plain) */
    uint8_t promoted;                  /* 1 when some kind promotes to this one */
    uint8_t must_promote_ranks;        /* a move ending on the last N ranks promotes */
    uint8_t droppable;                 /* 0: never dropped */
    uint8_t drop_forbidden_ranks;      /* not dropped on the last N ranks */
    uint8_t nifu;                      /* no two unpromoted of a side on a file */
    uint8_t drop_no_mate;              /* a drop of it may not mate */
    uint8_t resets_move_limit;         /* a move of it resets the move-limit count */
} koma__kind;

/* How a game is drawn (the `diagram` section of a definition; lib/diagram*.c). */
#define KOMA__MAX_LABELS 160           /* kanji entries per game (Ko shogi has 65) */
#define KOMA__LABEL_MAX 16             /* bytes of one name: up to 3 characters + NUL */
enum koma__coords { KOMA__COORDS_CELL, KOMA__COORDS_SHOGI };
enum koma__grid { KOMA__GRID_SQUARES, KOMA__GRID_POINTS };
typedef struct koma__label {
    koma_piece piece;                  /* first-player EPIN (letter, state, '^', "'") */
    char text[KOMA__LABEL_MAX];        /* UTF-8, 1 to 3 characters */
} koma__label;

enum koma__nolegal { KOMA__NL_CHECKMATE, KOMA__NL_STALEMATE, KOMA__NL_NOMOVE };
enum koma__rep { KOMA__REP_NONE, KOMA__REP_SAME_MOVE, KOMA__REP_FOURFOLD };

struct koma_game {
    char id[KOMA_GAME_ID_MAX + 1];
    char name[KOMA_SNN_MAX_LEN + 1];
    char style;                        /* uppercase */
    unsigned files, ranks;
    char *start;                       /* start FEEN (owned) */
    size_t start_len;
    int playable;                      /* pieces and rules present */
    int builtin;                       /* embedded in libkoma (a load may replace it) */
    size_t id_offset;                  /* where the id is in the YAML (game.duplicate) */
    unsigned long id_line, id_column;

    unsigned nkinds;
    koma__kind kinds[KOMA__MAX_KINDS];

    unsigned zone;                     /* promotion zone: the far N ranks */
    int compulsory_promotion;          /* every move touching the zone promotes */
    int check_rule;                    /* self-check illegal */
    int kings_privilege;               /* royal capturing a promoted piece may keep it */
    int promoted_drops;                /* promoted pieces in hand drop promoted */
    int bare_king;                     /* Okisaki's bare-king rule */
    /* defeat (status mareking): a side has lost when its royal piece is in the
     * other side's hand (royal_captured), or when its board holds none of the
     * survival sets (every piece of a set, at least once) */
    int royal_captured;
    unsigned nsurvival;
    struct koma__survival_set {
        uint8_t n;
        uint8_t kinds[KOMA__SURVIVAL_SET_MAX];
    } survival[KOMA__SURVIVAL_SETS];
    int nolegal_check, nolegal_other;  /* koma__nolegal for no legal move */
    int repetition;                    /* koma__rep */
    unsigned repetition_count;         /* fourfold: 4 */
    int repetition_draw;               /* fourfold: draw (else the repeater loses) */
    int perpetual_check_loses;
    unsigned move_limit;               /* plies without capture or pawn move; 0 none */
    int move_limit_capture_resets;
    signed char term[KOMA_STATUS_COUNT]; /* per status: -1 unlisted (a loss), KOMA__LOSS/DRAW/WIN */

    int coords;                        /* koma__coords: how diagrams label files and ranks */
    int grid;                          /* koma__grid: pieces on squares or on points */
    unsigned nlabels;
    koma__label labels[KOMA__MAX_LABELS]; /* the names drawn on the pieces */
};

enum { KOMA__LOSS = 0, KOMA__DRAW = 1, KOMA__WIN = 2 };

/* ---- engine ------------------------------------------------------------------ */

/* Board codes: 0 empty; bits 0-4 kind + 1; bit 5 second player; bit 6 "'" marker. */
#define KOMA__EMPTY   0x00u
#define KOMA__OFF     0x80u
#define KOMA__SIDE    0x20u
#define KOMA__DERIVED 0x40u
#define KOMA__CODE(kind, side) ((uint8_t)((unsigned)(kind) + 1u + ((unsigned)(side) << 5)))
#define KOMA__KIND(c) ((int)((c) & 0x1Fu) - 1)
#define KOMA__SIDE_OF(c) ((int)(((c) >> 5) & 1u))
#define KOMA__MOVER(c) ((c) & 0x3Fu)   /* kind + side: what the movement depends on */

/* Move encoding (koma_emove). */
#define KOMA__M_TO(m)    ((int)((m) & 0x3FFu))
#define KOMA__M_FROM(m)  ((int)(((m) >> 10) & 0x3FFu))  /* drop: hand slot */
#define KOMA__M_DROP     (1u << 20)
#define KOMA__M_PROMOTE  (1u << 21)
#define KOMA__M_KEEP     (1u << 22)                     /* King's privilege: kept promoted */
#define KOMA__MOVE(from, to) (((uint32_t)(from) << 10) | (uint32_t)(to))

#define KOMA__M_FROM_SHIFT 10

/* Hand slots: kind + KOMA__SLOT_DERIVED for a piece with the "'" marker. */
#define KOMA__SLOT_DERIVED 32
#define KOMA__SLOT_KIND(slot) ((slot) & (KOMA__SLOT_DERIVED - 1))
#define KOMA__SLOTS (2 * KOMA__SLOT_DERIVED)
#define KOMA__SCRATCH_LEVELS 4         /* nested legality look-ahead (pawn-drop mate) */

typedef struct koma__ride {
    int16_t off;
    uint8_t range;                     /* 0 unlimited */
} koma__ride;

/* Per mover code (kind + side): movement as padded-board offsets. */
typedef struct koma__movement {
    int16_t leap[KOMA_BETZA_MAX_VECTORS];
    koma__ride ride[KOMA_BETZA_MAX_VECTORS];
    uint8_t nleap, nride;
} koma__movement;

/* Attack probes of one side: from a target square t, look at t - off. */
typedef struct koma__probe {
    int16_t off;
    uint64_t mask;                     /* mover codes that move by off */
    uint8_t limited;                   /* some of them ride with a limited range */
} koma__probe;

typedef struct koma__undo {
    koma_emove move;
    uint8_t captured;                  /* board code taken (0 none) */
    uint8_t moved;                     /* board code that moved (drop: the dropped code) */
    uint64_t hash_board, hash_hand;    /* hashes before the ply */
} koma__undo;

struct koma_engine {
    const koma_game *game;
    int files, ranks, pad, stride, size, base;
    uint8_t *board;                    /* size bytes, KOMA__OFF outside */
    int16_t *sq_index;                 /* koma square -> padded index */
    int16_t *index_sq;                 /* padded index -> koma square or -1 */
    uint8_t *file_of;                  /* padded index -> file */
    uint8_t *last_dist[2];             /* padded index -> ranks from the side's last rank */
    uint8_t *in_zone[2];               /* padded index -> in the side's promotion zone */
    koma_shape shape;
    int nsquares;

    koma__movement mv[64];
    koma__probe leap_probe[2][KOMA_BETZA_MAX_VECTORS * 2];
    koma__probe ride_probe[2][KOMA_BETZA_MAX_VECTORS * 2];
    int nleap_probe[2], nride_probe[2];
    uint8_t ride_range[64][KOMA_BETZA_MAX_VECTORS * 2]; /* per mover, per ride probe */
    /* per mover, per ride of mv[]: the step in files and in rows (row 0 is the top
     * rank), for koma__reaches */
    int8_t ride_step[64][KOMA_BETZA_MAX_VECTORS][2];
    uint8_t promote_code[64];          /* mover code -> promoted mover code (0: none) */
    uint8_t royal_code[64];            /* 1 when the code's kind is royal */
    uint8_t must_rank[64];             /* a move ending nearer the last rank must promote */
    uint8_t privilege_code[64];        /* royal with the King's privilege */
    uint8_t promoted_code[64];         /* a promoted kind (privilege keeps it) */
    uint8_t overlap[64];               /* two of the code's vectors reach one square */
    uint8_t drop_slots[KOMA__SLOTS];   /* hand slots that may be dropped */
    int ndrop_slots;

    /* state */
    int turn;
    uint16_t hand[2][KOMA__SLOTS];
    int royal_sq[2];                   /* padded index of the royal, -1 none */
    int nroyal[2];                     /* royals on the board */
    int royal_in_hand;                 /* royals held in hands (a captured king) */
    int material[2];                   /* non-royal pieces on board and in hand */
    uint8_t *nifu;                     /* [side][kind][file] unpromoted counts */
    uint64_t hash_board, hash_hand;
    uint8_t royal_captured;            /* the game's defeat.royal_captured */
    uint8_t survival;                  /* the game has defeat.survival sets */

    /* Zobrist keys */
    uint64_t *zboard;                  /* [mover code 64][size] */
    uint64_t zhand[2][KOMA__SLOTS];
    uint64_t zturn;

    /* the plies made since the position was set, for unmake */
    koma__undo *undo;
    size_t nundo, cap_undo;

    /* move buffers for perft and search, one per ply */
    size_t max_moves;
    koma_emove *movebuf;
    unsigned movebuf_depth;
    koma_emove *scratch;               /* 2 x max_moves: legality look-ahead */
};

/* ---- shared helpers ------------------------------------------------------------ */

/* game.c */
int koma__game_kind_of(const koma_game *g, koma_piece p);   /* first-player pin -> kind, -1 */

/* movegen.c */
size_t koma__gen_pseudo(koma_engine *e, koma_emove *moves);
size_t koma__gen_legal(koma_engine *e, koma_emove *moves);
/* The rule-system moves of one board displacement of the side to move (at most 2). */
size_t koma__board_variants(const koma_engine *e, int from, int to, koma_emove *out);
int koma__attacked(const koma_engine *e, int sq, int by_side);
int koma__in_check(const koma_engine *e, int side);
int koma__has_legal_move(koma_engine *e);
/* 1 when the pseudo-legal move m of the side to move is legal (the check rule,
 * mate by a no-mate drop); 0 in a finished position (a royal in a hand). */
int koma__legal_pseudo(koma_engine *e, koma_emove m);
/* 1 when dropping the hand slot's piece on `to` is pseudo-legal for the side to
 * move: held, droppable, an empty square, not a forbidden rank, no nifu. */
int koma__drop_pseudo(const koma_engine *e, int slot, int to);
/* 1 when moving code from `from` could reach `to` on an empty board / now. */
int koma__reaches(const koma_engine *e, uint8_t code, int from, int to, int ignore_blockers);

/* engine.c */
void koma__make(koma_engine *e, koma_emove m, koma__undo *u);
void koma__unmake(koma_engine *e, const koma__undo *u);
/* The sides the game's defeat rules say have lost (status mareking): bit
 * 1 << KOMA_FIRST, bit 1 << KOMA_SECOND. */
int koma__defeated_sides(const koma_engine *e);
/* A finished position for move generation and perft: a side defeated, or
 * (bare-king games) the side that has just moved bare. */
int koma__finished(const koma_engine *e);
int koma__bare(const koma_engine *e, int side);   /* the king alone, nothing in hand */
int koma__movebuf(koma_engine *e, unsigned depth, koma_error *err);
/* 0 when pos fits g as koma_engine_set_position requires, else -1 with its error. */
int koma__position_fits(const koma_game *g, const koma_position *pos, koma_error *err);

/* A side is defeated: no move is legal any more (a royal captured, a failed
 * survival test). Cheap when nothing is in question. */
static inline int koma__over(const koma_engine *e)
{
    return (e->royal_in_hand > 0 && e->royal_captured) ||
           (e->survival && koma__defeated_sides(e) != 0);
}

static inline uint64_t koma__hash(const koma_engine *e)
{
    return e->hash_board ^ e->hash_hand ^ (e->turn ? e->zturn : 0);
}

#endif
