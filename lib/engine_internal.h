/* lib/engine_internal.h — the engine object (struct koma_engine: the backend's table
 * of operations, engine_backend.h, and the state of the backend it names) and the
 * mailbox engine's structures (a padded mailbox board, hands as counts, Zobrist
 * hashes), shared by its layers: engine_board.c (positions, make/unmake) <
 * engine_movegen.c (moves, attacks) < engine_rules.c (legality of a named move,
 * endings), engine_perft.c, engine_ggn.c < engine_mailbox.c (its table) <
 * engine.c (the facade). Not installed, not exported. */
#ifndef KOMA_ENGINE_INTERNAL_H
#define KOMA_ENGINE_INTERNAL_H

#include <stdint.h>
#include <koma/koma.h>
#include <koma/game.h>
#include <koma/engine.h>
#include "game_internal.h"
#include "engine_backend.h"

/* ---- the board --------------------------------------------------------------- */

#define KOMA__MAX_BOARD 1024           /* padded board squares (koma_engine.size): fits
                                          KOMA__M_SQUARE_BITS */

/* Board codes, one byte a square: 0 empty; bits 0-4 kind + 1; bit 5 the second
 * player; bit 6 the "'" marker; KOMA__OFF outside the board. Bits 0-5 together
 * ("the mover code", kind and side) are what movement depends on: tables
 * indexed by it have KOMA__MOVERS entries. */
#define KOMA__EMPTY      0x00u
#define KOMA__KIND_BITS  0x1Fu
#define KOMA__SIDE_SHIFT 5
#define KOMA__SIDE       (1u << KOMA__SIDE_SHIFT)
#define KOMA__MOVER_BITS (KOMA__KIND_BITS | KOMA__SIDE)
#define KOMA__MOVERS     (KOMA__MOVER_BITS + 1u)
#define KOMA__DERIVED    0x40u
#define KOMA__OFF        0x80u
#define KOMA__CODE(kind, side) ((uint8_t)((unsigned)(kind) + 1u + ((unsigned)(side) << KOMA__SIDE_SHIFT)))
#define KOMA__KIND(c) ((int)((c) & KOMA__KIND_BITS) - 1)
#define KOMA__SIDE_OF(c) ((int)(((c) >> KOMA__SIDE_SHIFT) & 1u))
#define KOMA__MOVER(c) ((c) & KOMA__MOVER_BITS)   /* kind + side: what the movement depends on */

/* Move encoding (koma_emove): the target square's padded index in bits 0-9,
 * the origin's (a drop: the hand slot) in bits 10-19, then three flags. */
#define KOMA__M_SQUARE_BITS 10
#define KOMA__M_SQUARE_MASK ((1u << KOMA__M_SQUARE_BITS) - 1u)
#define KOMA__M_FROM_SHIFT KOMA__M_SQUARE_BITS
#define KOMA__M_TO(m)    ((int)((m) & KOMA__M_SQUARE_MASK))
#define KOMA__M_FROM(m)  ((int)(((m) >> KOMA__M_FROM_SHIFT) & KOMA__M_SQUARE_MASK))
#define KOMA__M_DROP     (1u << 20)
#define KOMA__M_PROMOTE  (1u << 21)
#define KOMA__M_KEEP     (1u << 22)                     /* King's privilege: kept promoted */
#define KOMA__MOVE(from, to) (((uint32_t)(from) << KOMA__M_FROM_SHIFT) | (uint32_t)(to))

/* Hand slots: kind + KOMA__SLOT_DERIVED for a piece with the "'" marker. */
#define KOMA__SLOT_DERIVED 32
#define KOMA__SLOT_KIND(slot) ((slot) & (KOMA__SLOT_DERIVED - 1))
#define KOMA__SLOTS (2 * KOMA__SLOT_DERIVED)
_Static_assert(KOMA__MAX_KINDS <= KOMA__KIND_BITS && KOMA__MAX_KINDS < KOMA__SLOT_DERIVED,
               "a kind + 1 fits the board code's kind bits, a kind fits a hand slot");
_Static_assert(KOMA__MAX_BOARD <= KOMA__M_SQUARE_MASK + 1, "a padded square fits a move");
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

/* Bitboards (boards of at most 128 squares): bit i is koma square i (row-major
 * from the top rank, as e->sq_index), so a ray's squares have increasing bits
 * when its padded offset is positive. The mailbox stays the board of record;
 * the bitboards (each side's occupied squares) follow it in make/unmake, and
 * tables compiled from the game's Betza vectors serve the counting at perft's
 * last ply (engine_movegen.c). */
#if defined(__SIZEOF_INT128__)
#define KOMA__HAVE_BB 1
__extension__ typedef unsigned __int128 koma__bb;
#else
#define KOMA__HAVE_BB 0
typedef struct { uint64_t w[2]; } koma__bb;
#endif
#define KOMA__BB_SQUARES 128
#define KOMA__BB_DIRS 32               /* distinct ride offsets (and their reverses) */
/* the sets of squares of set_bb: 0 holds nothing (a code in fewer than two sets) */
#define KOMA__SET_ROYAL(s) (1 + (s))
#define KOMA__SET_PIECES(s) (3 + (s))
#define KOMA__SET_RIDERS(s) (5 + (s))
#define KOMA__SET_CLASS(s, j) (7 + (s) * KOMA__MAX_KINDS + (j))
#define KOMA__BB_SETS (7 + 2 * KOMA__MAX_KINDS)

/* A mover code on a square: its leap destinations, and the destinations where a
 * move from this square makes two moves (promote or not). */
typedef struct koma__bbsq {
    koma__bb step, two;
} koma__bbsq;

/* One leap of a class of leapers, applied to all the class's pieces at once: the
 * destinations are the pieces' bitboard shifted by `shift` bits, on `valid`
 * (squares whose origin is on the board: no wrap across ranks). */
typedef struct koma__bbstep {
    int shift;                         /* bit of the destination - bit of the origin */
    koma__bb valid;
    koma__bb two;                      /* destinations where the move is two (promote or not) */
} koma__bbstep;

/* Mover codes of one side that only leap, the same leaps and promotion rule. */
typedef struct koma__bbclass {
    uint64_t codes;
    int step, nstep;                   /* e->lstep[step .. step + nstep) */
} koma__bbclass;

/* board codes with a FEEN text: kind, side and KOMA__DERIVED (below KOMA__OFF) */
#define KOMA__FEEN_CODES 0x80u

typedef struct koma__undo {
    koma_emove move;
    uint8_t captured;                  /* board code taken (0 none) */
    uint8_t moved;                     /* board code that moved (drop: the dropped code) */
    uint64_t hash_board, hash_hand;    /* hashes before the ply */
} koma__undo;

struct koma__fx;
struct koma__sk;

/* The side to move's one royal and what threatens it in the position as it is
 * (koma__royal_state, engine_movegen.c): found once and used by every question the
 * referee asks of that position (in check, a legal move left, the next ply's
 * legality); make, unmake and setting a position forget it. */
#define KOMA__PINS_MAX 16
typedef struct koma__royal_info {
    int ksq;                           /* its padded square; -1: no single royal (test in full) */
    int in_check;
    int npins;                         /* -1: more than KOMA__PINS_MAX (test every move); 0 in check */
    int pins[KOMA__PINS_MAX];          /* own pieces pinned to it (not in check) */
} koma__royal_info;

/* The facts of koma_engine's `quick`: */
#define KOMA__Q_PROVED 1u   /* `proved` is legal here by the check rule, the mover's one royal on the board
                               (koma__mb_find_move) */
#define KOMA__Q_SAFE 2u     /* the side not to move has one royal, not attacked (its ply was proved;
                               only on an engine with `lines`) */
#define KOMA__Q_CHECK 4u    /* check_ksq and check_on are this position's: after a ply from a position
                               with KOMA__Q_SAFE, found from that ply alone (koma__mb_make) */

/* An engine: ops and game are every backend's; fx is the effect backend's state
 * (fx_backend.c; NULL in a mailbox engine); the rest is the mailbox engine's
 * (unused by the effect backend). */
struct koma_engine {
    const koma__engine_ops *ops;       /* its backend (engine.c chose it at creation) */
    const koma_game *game;
    struct koma__fx *fx;               /* the effect engine (fx_backend.c); NULL otherwise */
    struct koma__sk *sk;               /* the Sanki engine (sanki_backend.c); NULL otherwise */
    int files, ranks, pad, stride, size, base;
    int cell_base;                     /* the padded index of the cell (0, 0), file a of
                                          the first rank: cell (f, r) is
                                          cell_base + f - r * stride */
    uint8_t *board;                    /* size bytes, KOMA__OFF outside */
    int16_t *sq_index;                 /* koma square -> padded index */
    int16_t *index_sq;                 /* padded index -> koma square or -1 */
    uint8_t *file_of;                  /* padded index -> file */
    uint8_t *last_dist[2];             /* padded index -> ranks from the side's last rank */
    uint8_t *in_zone[2];               /* padded index -> in the side's promotion zone */
    koma_shape shape;
    int nsquares;

    koma__movement mv[KOMA__MOVERS];
    koma__probe leap_probe[2][KOMA_BETZA_MAX_VECTORS * 2];
    koma__probe ride_probe[2][KOMA_BETZA_MAX_VECTORS * 2];
    int nleap_probe[2], nride_probe[2];
    uint8_t ride_range[KOMA__MOVERS][KOMA_BETZA_MAX_VECTORS * 2]; /* per mover, per ride probe */
    /* per mover, per ride of mv[]: the step in files and in rows (row 0 is the top
     * rank), for koma__reaches */
    int8_t ride_step[KOMA__MOVERS][KOMA_BETZA_MAX_VECTORS][2];
    uint8_t promote_code[KOMA__MOVERS];          /* mover code -> promoted mover code (0: none) */
    uint8_t royal_code[KOMA__MOVERS];            /* 1 when the code's kind is royal */
    uint8_t must_rank[KOMA__MOVERS];             /* a move ending nearer the last rank must promote */
    uint8_t privilege_code[KOMA__MOVERS];        /* royal with the King's privilege */
    uint8_t promoted_code[KOMA__MOVERS];         /* a promoted kind (privilege keeps it) */
    uint8_t overlap[KOMA__MOVERS];               /* two of the code's vectors reach one square */
    int8_t kind_of_pin[KOMA_PIECE_MASK + 1];   /* koma__game_kind_of by table (-1 none) */
    uint8_t drop_slots[KOMA__SLOTS];   /* hand slots that may be dropped */
    int ndrop_slots;
    uint64_t drop_mask;                /* the same as bits */

    /* bitboard tables (use_bb: the board fits and every table was built) */
    int use_bb;
    int popcnt;                        /* the CPU has POPCNT (chosen at run time) */
    koma__bb *bit;                     /* [size]: padded index -> its square's bit (0 off the board) */
    koma__bbsq *sq_bb;                 /* [KOMA__MOVERS][nsquares]: leaps, two-move squares */
    koma__bb *full_bb;                 /* [KOMA__MOVERS][nsquares]: reach on an empty board */
    koma__bb *ray_bb;                  /* [ndirs][nsquares]: the squares of a direction, to the edge */
    int16_t dir_off[KOMA__BB_DIRS];    /* padded offset of each direction */
    int ndirs;
    uint8_t bb_rides[KOMA__MOVERS];    /* every ride unlimited: movement from the tables */
    uint8_t bb_side[2];                /* bb_rides of every code of the side */
    uint8_t ride_dir[KOMA__MOVERS][KOMA_BETZA_MAX_VECTORS];      /* direction of mv[].ride[i] */
    /* per mover, per direction: 0 no ride that way, else the most steps of its
     * rides that way (0xFF unlimited: a range of 0), for koma__reaches */
    uint8_t dir_reach[KOMA__MOVERS][KOMA__BB_DIRS];
    uint8_t probe_dir[2][KOMA_BETZA_MAX_VECTORS * 2];             /* walk of ride_probe[][i] */
    /* the royal scan from the attackers (engine_movegen_bb.inc royal_scan_bb): */
    int8_t probe_of[2][KOMA__BB_DIRS]; /* ride_probe[s] index walking direction d, -1 none */
    uint8_t *dir_to;                   /* [nsquares][nsquares]: the direction whose ray from the
                                          first square holds the second; 0xFF none (NULL: some
                                          pair has two, then the probes are walked) */
    koma__bb *probe_lines;             /* [2][nsquares]: the squares of ride_probe[s]'s rays */
    koma__bb *leap_from;               /* [2][nsquares]: the squares from which a piece of side
                                          s may leap to the square */
    uint64_t *leap_by;                 /* [2][2 * leap_span + 1]: the mover codes of side s
                                          that leap by the padded offset d (at d + leap_span) */
    int leap_span;
    const uint64_t *leap_mid[2];       /* leap_by of side s at offset 0 (index by d) */
    koma__bb drop_bb[2][KOMA__MAX_KINDS];   /* squares a kind may be dropped on (ranks) */
    koma__bb file_bb[KOMA__MAX_FILES];
    koma__bbclass lclass[2][KOMA__MAX_KINDS];     /* leaper classes of each side */
    int nlclass[2];
    koma__bbstep *lstep;
    /* each mover code's piece is in (at most) two sets of squares, kept by
     * make/unmake: its side's royals, leaper class or other pieces (moved piece
     * by piece), and its side's riders (the rays worth looking along) */
    uint8_t set_of[KOMA__MOVERS][2];
    koma__bb occ[2];                   /* state: each side's occupied squares */
    koma__bb set_bb[KOMA__BB_SETS];    /* state: the sets */

    /* state */
    int turn;
    uint16_t hand[2][KOMA__SLOTS];
    uint64_t held[2];                  /* bit slot: hand[s][slot] > 0 */
    int royal_sq[2];                   /* padded index of the royal, -1 none */
    int nroyal[2];                     /* royals on the board */
    int royal_in_hand;                 /* royals held in hands (a captured king) */
    int royal_known;                   /* `royal` is this position's (koma__royal_state) */
    koma__royal_info royal;
    /* what the plies that led here tell (KOMA__Q_*; koma__mb_make and
     * koma__mb_find_move set them, every other change of the position clears
     * them): the side to move's check found from the last ply alone */
    unsigned quick;
    koma_emove proved;                 /* KOMA__Q_PROVED: the move found legal here */
    int check_ksq, check_on;           /* KOMA__Q_CHECK: the one royal's square, in check */
    uint8_t lines;                     /* the bitboards and dir_to: a check or a pin on one line */
    int material[2];                   /* non-royal pieces on board and in hand */
    uint8_t *nifu;                     /* [side][kind][file] unpromoted counts */
    uint64_t hash_board, hash_hand;
    uint8_t royal_captured;            /* the game's defeat.royal_captured */
    uint8_t survival;                  /* the game has defeat.survival sets */
    uint8_t plain_end;                 /* neither survival sets nor a bare king rule */

    /* Zobrist keys */
    uint64_t *zboard;                  /* [KOMA__MOVERS mover codes][size] */
    uint64_t zhand[2][KOMA__SLOTS];
    uint64_t zturn;

    /* the last position set and the state it gave (engine_board.c), set again
     * by a copy when the next one is the same (a database's records mostly
     * start from one position); NULL until a position is set */
    struct koma__mb_setup *setup;

    /* the plies made since the position was set, for unmake */
    koma__undo *undo;
    size_t nundo, cap_undo;

    /* each board code's FEEN text (koma__mb_feen: up to 4 bytes, feen_len of them;
     * 0: no piece) and its identity's hand key (koma_piece_hand_key) */
    char feen_text[KOMA__FEEN_CODES][4];
    uint8_t feen_len[KOMA__FEEN_CODES];
    unsigned feen_key[KOMA__FEEN_CODES];

    /* move buffers for perft and search, one per ply */
    size_t max_moves;
    koma_emove *movebuf;
    unsigned movebuf_depth;
    koma_emove *scratch;               /* 2 x max_moves: legality look-ahead */
};

/* ---- the mailbox engine's operations (its table: engine_mailbox.c) -------------- */

/* engine_board.c */
int koma__mb_create(const koma_game *g, koma_engine **out, koma_error *err);
void koma__mb_destroy(koma_engine *e);
int koma__mb_set_position(koma_engine *e, const koma_position *pos, koma_error *err);
int koma__mb_get_position(const koma_engine *e, koma_position *pos, koma_error *err);
/* engine_feen.c: the table of each code's FEEN text (at creation), and the
 * position as FEEN into buf[cap] straight from the board (koma_engine_feen):
 * its length, or 0 when cap may be too small (the caller then writes it
 * through koma__mb_get_position and koma_feen_write, the same bytes). */
void koma__mb_feen_table(koma_engine *e);
size_t koma__mb_feen(const koma_engine *e, char *buf, size_t cap);
void koma__mb_move_facts(const koma_engine *e, koma_emove m, koma_move_facts *out);
int koma__mb_make(koma_engine *e, koma_emove m, koma_error *err);
int koma__mb_unmake(koma_engine *e);
/* engine_rules.c (legal_moves is engine_movegen.c's koma__gen_legal, in_check its
 * koma__in_check_now) */
int koma__mb_move_pmn(const koma_engine *e, koma_emove m, koma_move *out);
size_t koma__mb_move_write(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF]);
size_t koma__mb_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap);
int koma__mb_find_move(koma_engine *e, const koma_move *m, koma_emove *out, koma_error *err);
int koma__mb_parse_move(koma_engine *e, const char *s, size_t len, koma_emove *out,
                        koma_error *err);
void koma__mb_position_ending(koma_engine *e, koma_ending *out, int has_move);
int koma__mb_threatens(koma_engine *e, int side);
/* engine_perft.c */
int koma__mb_perft(koma_engine *e, unsigned depth, uint64_t *nodes, koma_error *err);
int koma__mb_perft_divide(koma_engine *e, unsigned depth, koma_perft_entry **out, size_t *count,
                          koma_perft_progress_fn progress, void *ctx,
                          koma_error *err);
int koma__mb_perft_split(koma_engine *e, unsigned depth, unsigned plies,
                         koma_perft_job_fn job,
                         void *ctx, koma_error *err);
/* engine_ggn.c */
int koma__mb_ggn_moves(koma_engine *e, const koma_ggn *ggn,
                       koma_move_fn emit,
                       void *ctx, koma_error *err);

/* ---- shared helpers, by layer ---------------------------------------------------- */

/* engine_board.c: the position and its changes */
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
/* Identities of board codes and hand slots (side s). (A board code's, inline:
 * find_move asks it of every capture and promotion.) */
static inline koma_piece koma__piece_of_code(const koma_engine *e, unsigned c)
{
    koma_piece p = e->game->kinds[KOMA__KIND(c)].pin;
    if (c & KOMA__SIDE) p |= KOMA_PIECE_SECOND;
    if (c & KOMA__DERIVED) p |= KOMA_PIECE_DERIVED;
    return p;
}
koma_piece koma__piece_of_slot(const koma_engine *e, int s, int slot);

/* The unpromoted pieces of kind k of side s on the file of idx (nifu). */
static inline uint8_t *koma__nifu_at(koma_engine *e, int s, int k, int idx)
{
    return &e->nifu[((size_t)s * e->game->nkinds + (size_t)k) * (size_t)e->files + e->file_of[idx]];
}

/* engine_movegen.c: moves and attacks */
size_t koma__gen_pseudo(koma_engine *e, koma_emove *moves);
size_t koma__gen_legal(koma_engine *e, koma_emove *moves);
/* The number koma__gen_legal returns, mostly without the list (perft's last ply). */
size_t koma__count_legal(koma_engine *e, koma_emove *buf);
/* The sum of koma__count_legal after each of moves[0 .. n) (perft's last two plies;
 * positions where koma__finished are not counted). */
uint64_t koma__count_children(koma_engine *e, const koma_emove *moves, size_t n, koma_emove *buf);
/* The rule-system moves of one board displacement of the side to move (at most 2). */
size_t koma__board_variants(const koma_engine *e, int from, int to, koma_emove *out);
int koma__attacked(const koma_engine *e, int sq, int by_side);
int koma__in_check(const koma_engine *e, int side);
int koma__has_legal_move(koma_engine *e);
/* The side to move's royal state found now (koma__royal_state: unless known). */
const koma__royal_info *koma__royal_scan(koma_engine *e);
/* The side to move's royal state (found now unless known for this position). */
static inline const koma__royal_info *koma__royal_state(koma_engine *e)
{
    return e->royal_known ? &e->royal : koma__royal_scan(e);
}
/* The side to move's one royal's square (-1: not one on the board) and *on, 1
 * when it is in check: as the last ply found it (KOMA__Q_CHECK), else from the
 * royal state. */
static inline int koma__check_state(koma_engine *e, int *on)
{
    if (e->quick & KOMA__Q_CHECK) {
        *on = e->check_on;
        return e->check_ksq;
    }
    const koma__royal_info *st = koma__royal_state(e);
    *on = st->in_check;
    return st->ksq;
}
/* koma__in_check(e, e->turn) through koma__check_state. */
static inline int koma__in_check_now(koma_engine *e)
{
    int on, ksq = koma__check_state(e, &on);
    return ksq >= 0 ? on : koma__in_check(e, e->turn);
}
/* 1 when the pseudo-legal move m of the side to move is legal (the check rule,
 * mate by a no-mate drop); 0 in a finished position (a royal in a hand). */
int koma__legal_pseudo(koma_engine *e, koma_emove m);
/* 1 when dropping the hand slot's piece on `to` is pseudo-legal for the side to
 * move: held, droppable, an empty square, not a forbidden rank, no nifu. */
int koma__drop_pseudo(const koma_engine *e, int slot, int to);
/* 1 when moving code from `from` could reach `to` on an empty board / now. */
int koma__reaches(const koma_engine *e, uint8_t code, int from, int to, int ignore_blockers);
/* koma__reaches's rides walked square by square (an engine without the tables
 * koma__reaches_in reads; the leaps also looked at when there is no leap_by). */
int koma__reaches_walk(const koma_engine *e, uint8_t code, int from, int to, int ignore_blockers);

/* koma__reaches, inline (koma__mb_find_move's test of every board move): the
 * leaps from one table (no loop to mispredict), a ride from the one direction
 * from `from` to `to` and the squares up to it on the bitboards. */
static inline int koma__reaches_in(const koma_engine *e, uint8_t code, int from, int to, int ignore_blockers)
{
    if (!e->leap_by) return koma__reaches_walk(e, code, from, to, ignore_blockers);
    int d = to - from, span = e->leap_span;
    if (d >= -span && d <= span && ((e->leap_mid[KOMA__SIDE_OF(code)][d] >> KOMA__MOVER(code)) & 1u))
        return 1;
#if KOMA__HAVE_BB
    if (e->dir_to) {                   /* (dir_reach: 0 for a code without rides) */
        size_t n = (size_t)e->nsquares, fb = (size_t)e->index_sq[from], tb = (size_t)e->index_sq[to];
        int dir = e->dir_to[fb * n + tb];
        if (dir == 0xFF) return 0;
        /* the rides that way (one table look-up: the most steps of any of them) */
        unsigned most = e->dir_reach[KOMA__MOVER(code)][dir];
        if (most == 0) return 0;
        koma__bb upto = e->ray_bb[(size_t)dir * n + fb] & ~e->ray_bb[(size_t)dir * n + tb];
        if (most != 0xFF && (unsigned)(__builtin_popcountll((uint64_t)upto) +
                                       __builtin_popcountll((uint64_t)(upto >> 64))) > most)
            return 0;
        return ignore_blockers || !(upto & ~e->bit[to] & (e->occ[0] | e->occ[1]));
    }
#endif
    if (e->mv[KOMA__MOVER(code)].nride == 0) return 0;
    return koma__reaches_walk(e, code, from, to, ignore_blockers);
}

/* The own piece on `from` is pinned to the royal (st: not in check). */
static inline int koma__pinned(const koma__royal_info *st, int from)
{
    for (int i = 0; i < st->npins; i++)
        if (st->pins[i] == from) return 1;
    return 0;
}

#if KOMA__HAVE_BB
/* A check or a pin on one line (e->lines), on the 128-bit tables: the squares
 * of direction d from bit sq to the edge; the bit of blk (not empty, on such a
 * ray) nearest its start; the piece on bit a, the first from bit kb along d,
 * a rider of side o that reaches kb (ride probe i of o walks d). */
static inline koma__bb koma__ray(const koma_engine *e, int d, int sq)
{
    return e->ray_bb[(size_t)d * (size_t)e->nsquares + (size_t)sq];
}
static inline int koma__ray_first(const koma_engine *e, int d, koma__bb blk)
{
    uint64_t lo = (uint64_t)blk, hi = (uint64_t)(blk >> 64);
    if (e->dir_off[d] > 0) return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);
}
static inline int koma__line_rider(const koma_engine *e, int o, int i, int d, int kb, int a)
{
    const koma__probe *pr = &e->ride_probe[o][i];
    unsigned c = KOMA__MOVER(e->board[e->sq_index[a]]);
    if (!((pr->mask >> c) & 1u)) return 0;
    if (!pr->limited) return 1;
    unsigned r = e->ride_range[c][i];
    koma__bb upto = koma__ray(e, d, kb) & ~koma__ray(e, d, a);
    return r == 0 || (unsigned)(__builtin_popcountll((uint64_t)upto) +
                                __builtin_popcountll((uint64_t)(upto >> 64))) <= r;
}

/* After a ply of the other side from `from` (-1: a drop) to `to`, the side to
 * move's royal on ksq, not attacked before the ply, is attacked: only the
 * piece on `to` may give check, by a leap or a ride, or a rider by the line
 * the ply opened from `from` (a capture or a drop opens none). The royal
 * scan's leaps and rides (royal_scan_bb), for those two squares. */
static inline int koma__checked_by(const koma_engine *e, int ksq, int from, int to)
{
    int o = e->turn ^ 1, span = e->leap_span, away = ksq - to, d, i;
    unsigned c = KOMA__MOVER(e->board[to]);
    if (away >= -span && away <= span && ((e->leap_mid[o][away] >> c) & 1u)) return 1;
    int kb = e->index_sq[ksq];
    const uint8_t *dt = e->dir_to + (size_t)kb * (size_t)e->nsquares;
    koma__bb occ = e->occ[0] | e->occ[1];
    if (e->mv[c].nride) {
        int tb = e->index_sq[to];
        if ((d = dt[tb]) != 0xFF && (i = e->probe_of[o][d]) >= 0 &&
            !(koma__ray(e, d, kb) & ~koma__ray(e, d, tb) & occ & ~e->bit[to]) &&
            koma__line_rider(e, o, i, d, kb, tb))
            return 1;
    }
    if (from < 0 || (d = dt[e->index_sq[from]]) == 0xFF || (i = e->probe_of[o][d]) < 0) return 0;
    koma__bb blk = koma__ray(e, d, kb) & occ;
    if (!(blk & e->set_bb[KOMA__SET_RIDERS(o)])) return 0;
    return koma__line_rider(e, o, i, d, kb, koma__ray_first(e, d, blk));
}

/* The own piece on `from` is pinned to the side to move's royal on ksq: the
 * first piece from the royal on the one line between them, and the next one
 * beyond it a rider of the other side that reaches the royal along it (the
 * royal scan's pins, for one piece). */
static inline int koma__pinned_line(const koma_engine *e, int ksq, int from)
{
    int o = e->turn ^ 1, kb = e->index_sq[ksq], fb = e->index_sq[from];
    int d = e->dir_to[(size_t)kb * (size_t)e->nsquares + (size_t)fb], i;
    if (d == 0xFF || (i = e->probe_of[o][d]) < 0) return 0;
    koma__bb blk = koma__ray(e, d, kb) & (e->occ[0] | e->occ[1]);
    if (!(blk & e->set_bb[KOMA__SET_RIDERS(o)]) || koma__ray_first(e, d, blk) != fb) return 0;
    blk &= koma__ray(e, d, fb);
    return blk && koma__line_rider(e, o, i, d, kb, koma__ray_first(e, d, blk));
}
#endif

/* The own piece on `from` may be pinned to the side to move's one royal on ksq
 * (not in check): by the royal state's pins (1 when there were too many to
 * list), by its line (e->lines), or by the royal state found now
 * (koma__pinned_find). */
int koma__pinned_find(koma_engine *e, int from);
static inline int koma__pinned_now(koma_engine *e, int ksq, int from)
{
    if (e->royal_known) return e->royal.npins < 0 || koma__pinned(&e->royal, from);
#if KOMA__HAVE_BB
    if (e->lines) return koma__pinned_line(e, ksq, from);
#endif
    (void)ksq;
    return koma__pinned_find(e, from);
}

/* 1 when every pseudo-legal board move from `from` of the side to move is
 * legal by the check and the pins alone, as koma__legal_pseudo decides it:
 * not in check, one royal that is not on `from`, the piece not pinned (0: ask
 * koma__legal_pseudo). In a check-rule game only; not in a finished position. */
static inline int koma__free_mover(koma_engine *e, int from)
{
    int on, ksq = koma__check_state(e, &on);
    return ksq >= 0 && !on && from != ksq && !koma__pinned_now(e, ksq, from);
}

/* koma__mb_find_move found m legal by the check rule: noted for koma__mb_make
 * when the side to move has one royal (its state known, as it is after the
 * test), so that the next position knows that royal safe (on an engine with
 * the lines only: the next ply's check is found on them). */
static inline void koma__proved(koma_engine *e, koma_emove m)
{
    if (e->lines && ((e->quick & KOMA__Q_CHECK) || (e->royal_known && e->royal.ksq >= 0))) {
        e->proved = m;
        e->quick |= KOMA__Q_PROVED;
    }
}

/* What koma__mb_origins last read of a board, kept by its caller (one a stream of
 * positions, e.g. a record's plies): the board, and what the fit asks of it (the
 * royals of each side, the squares holding a piece not of the game), so that the
 * next board is checked again only where it differs. e NULL: nothing known. */
#define KOMA__MEMO_SQUARES 128           /* boards of up to 128 squares: where[] kept */
typedef struct koma__origins_memo {
    const koma_engine *e;
    uint32_t nsquares;
    int royals[2];
    int unknown;
    koma_piece board[KOMA__MAX_BOARD];
    /* the squares holding each piece (letter, state and side: the low byte), a bit
     * a square, for a board of at most KOMA__MEMO_SQUARES squares */
    uint64_t where[256][KOMA__MEMO_SQUARES / 64];
} koma__origins_memo;

/* engine_origins.c: the squares of the pieces of `kind` (letter and state) of the
 * side to move of pos that have a board move to square `to` (pos's numbering), in
 * koma__gen_pseudo's order, each with its moves' promotion choices (bit 1: a move
 * without promotion, bit 2: a promoting one), read from pos with the engine's
 * tables (its state untouched). Writes min(count, cap) of them; returns the count,
 * or -1 when pos would not fit the game (koma_engine_set_position says why) or the
 * engine is not the mailbox engine. memo (or NULL): the last board read, updated. */
int koma__mb_origins(const koma_engine *e, const koma_position *pos, koma_piece kind, uint32_t to,
                     uint32_t *from, unsigned *moves, size_t cap, koma__origins_memo *memo);

/* A side is defeated: no move is legal any more (a royal captured, a failed
 * survival test). Cheap when nothing is in question. */
static inline int koma__over(const koma_engine *e)
{
    return (e->royal_in_hand > 0 && e->royal_captured) ||
           (e->survival && koma__defeated_sides(e) != 0);
}

#if KOMA__HAVE_BB
/* The board code c comes or goes on the square of bit bb: its sets follow. */
static inline void koma__set_flip(koma_engine *e, unsigned c, koma__bb bb)
{
    const uint8_t *set = e->set_of[KOMA__MOVER(c)];
    e->set_bb[set[0]] ^= bb;
    e->set_bb[set[1]] ^= bb;
}
#endif

static inline uint64_t koma__hash(const koma_engine *e)
{
    return e->hash_board ^ e->hash_hand ^ (e->turn ? e->zturn : 0);
}

/* koma__mb_move_facts (inline: the referee's quick loop asks it of every ply
 * in a game with a same-move rule or a move limit). */
static inline void koma__mb_facts(const koma_engine *e, koma_emove m, koma_move_facts *out)
{
    /* the identity for a same-move rule: mover (no "'"), origin or hand slot
     * (no "'"), target, promotion and privilege flags */
    uint32_t mm = m;
    unsigned mover;
    if (m & KOMA__M_DROP) {
        mm &= ~((uint32_t)KOMA__SLOT_DERIVED << KOMA__M_FROM_SHIFT);
        mover = (unsigned)KOMA__SLOT_KIND(KOMA__M_FROM(m)) + 1;
        out->captures = 0;
        out->resets = 0;
    } else {
        unsigned p = e->board[KOMA__M_FROM(m)];
        mover = KOMA__MOVER(p);
        out->captures = e->board[KOMA__M_TO(m)] != KOMA__EMPTY;
        out->resets = e->game->kinds[KOMA__KIND(p)].resets_move_limit;
    }
    out->key = ((uint64_t)mover << 32) | mm;
}

/* Whether koma__mb_threatens(e, side) is e->check_on: the side that has just
 * moved, its check found by the ply (KOMA__Q_CHECK), no survival test. */
static inline int koma__mb_threat_known(const koma_engine *e, int side)
{
    return side != e->turn && (e->quick & KOMA__Q_CHECK) && !e->survival;
}

/* Whether koma__mb_position_ending(e, out, has_move) decides nothing before
 * its tests in full: a legal move known, no royal in a hand (koma__defeated_sides's
 * own first test), no survival test, no bare king. */
static inline int koma__mb_ending_none(const koma_engine *e, int has_move)
{
    return has_move && !(e->royal_captured && e->royal_in_hand > 0) &&
           (e->plain_end || (!e->survival && !(e->game->bare_king && koma__bare(e, e->turn ^ 1))));
}

#endif
