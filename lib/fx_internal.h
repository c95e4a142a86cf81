/*
 * lib/fx_internal.h — the effect engine: a second rules backend for games whose moves have
 * several effects (Ko shogi: shots, burns, multi-captures, promotions of other
 * pieces). Not installed, not exported.
 *
 * A game definition that says `engine: effects` is compiled by fx_def.c into a
 * koma__fx_def: identities (tokens), their movement families, and the rules that
 * act after a move, all from the YAML. Nothing here knows a game: every piece,
 * class and rule is data.
 *
 * The engine (fx_state.c, fx_movegen.c) keeps a padded board of 16-bit codes, hands
 * as counts, per-code counts on the board, piece lists and a Zobrist hash. A move
 * is an effect record (the actor's displacement, removals, identity changes), the
 * canonical PMN chain of koma/pmn.h written from it; generated moves live in a
 * per-ply store, and a koma_emove is an index into the store of its ply.
 *
 * Modules: fx_def.c (definition), fx_state.c (state, make/unmake, the engine
 * API, perft), fx_movegen.c (moves: movement, shots, the after-move rules, records).
 */
#ifndef KOMA_FX_INTERNAL_H
#define KOMA_FX_INTERNAL_H

#include <stdint.h>
#include <koma/koma.h>
#include "betza_ex.h"

/* ---- limits -------------------------------------------------------------------- */

#define KOMA__FX_MAX_IDS 96            /* identities of a game, one side (Ko shogi 65) */
#define KOMA__FX_MAX_CLASSES 32        /* named classes */
#define KOMA__FX_MAX_VECS 64           /* single-leg vectors of an identity */
#define KOMA__FX_MAX_PAIRS 256         /* two-leg vector pairs of an identity */
#define KOMA__FX_MAX_COND 4            /* conditional movement groups of an identity */
#define KOMA__FX_MAX_RULES 8           /* entries of each rule list */
#define KOMA__FX_MAX_SURVIVAL 8        /* survival sets */
#define KOMA__FX_MAX_OPTIONS 32
#define KOMA__FX_MAX_FILES 26
#define KOMA__FX_MAX_RANKS 26
#define KOMA__FX_NAME_MAX 48

typedef uint64_t koma__fx_ids[2];      /* a set of identity indices (< 128) */

static inline int koma__fx_has(const koma__fx_ids s, unsigned id)
{
    return (int)((s[id >> 6] >> (id & 63)) & 1u);
}
static inline void koma__fx_add(koma__fx_ids s, unsigned id) { s[id >> 6] |= 1ull << (id & 63); }

/* ---- movement ------------------------------------------------------------------- */

/* Single-leg and two-leg moves are the extended Betza reader's (betza_ex.h). */
typedef koma__bvec koma__fx_vec;
typedef koma__bpair koma__fx_pair;
#define KOMA__FX_EMPTY   KOMA__BETZA_EMPTY     /* m: an empty point */
#define KOMA__FX_ENEMY   KOMA__BETZA_ENEMY     /* c: an enemy, captured */
#define KOMA__FX_THROUGH KOMA__BETZA_THROUGH   /* a ride captures the enemies it passes */

/* The thunderclap's path: exactly `steps` steps (or up to), each to an empty point
 * or an enemy (captured). */
enum { KOMA__FX_REVISIT_NONE, KOMA__FX_REVISIT_ANY, KOMA__FX_REVISIT_NO_REVERSAL };

typedef struct koma__fx_path {
    uint8_t steps;                     /* 0: no path move */
    uint8_t revisit;                   /* KOMA__FX_REVISIT_* */
    uint8_t nvec;
    int8_t dx[8], dy[8];
} koma__fx_path;

typedef struct koma__fx_shot {
    uint8_t count;                     /* shots after the move: 0 none, 1 or 2 */
    uint8_t range;                     /* points from the shooter */
    uint8_t over;                      /* 1: not blocked by pieces in between (cannon) */
    uint8_t with_move;                 /* 1: always after the move (shoot_when does not apply) */
} koma__fx_shot;

/* Movement that exists only while the side has a piece of a set on the board. */
typedef struct koma__fx_cond {
    koma__fx_ids if_own;
    uint8_t nvec;
    koma__fx_vec vec[8];
} koma__fx_cond;

typedef struct koma__fx_id {
    koma_piece token;                  /* first player's EPIN (case: first player) */
    char name[KOMA__FX_NAME_MAX];
    uint8_t nvec;
    koma__fx_vec vec[KOMA__FX_MAX_VECS];
    uint16_t npair;
    koma__fx_pair pair[KOMA__FX_MAX_PAIRS];
    uint8_t pair_shoot_each;           /* a shot may follow each leg of the pairs */
    koma__fx_path path;
    uint8_t ncond;
    koma__fx_cond cond[KOMA__FX_MAX_COND];
    int capture_class;                 /* -1: any enemy; else only members of that class are
                                          captured by landing (the others: empty only) */
    uint8_t capture_none;              /* displacement captures nothing */
    koma__fx_shot shot;
    uint8_t burns;                     /* removes the enemies around its final point */
    int16_t promotes_to;               /* identity index, -1 */
    int16_t demotes_to;                /* the identity that promotes to it, -1 */
    uint64_t classes;                  /* class membership bits */
} koma__fx_id;

/* ---- rules --------------------------------------------------------------------- */

enum { KOMA__FX_TRIGGER_ORIGIN_OR_FINAL, KOMA__FX_TRIGGER_FINAL, KOMA__FX_TRIGGER_ANY_LANDING };
enum { KOMA__FX_SHOOT_AFTER_MOVE, KOMA__FX_SHOOT_IN_PLACE, KOMA__FX_SHOOT_BOTH };
enum { KOMA__FX_GEOM_LINES, KOMA__FX_GEOM_BOX };

/* Promotion blocked unless a condition holds. */
typedef struct koma__fx_require {
    koma__fx_ids pieces;               /* the pieces it applies to */
    uint8_t zone_only;                 /* only zone promotion is blocked (capture is not) */
    uint8_t own_on_board;              /* needs an own piece of `own` on the board */
    uint8_t in_zone;                   /* needs own pieces of `own` in the zone: */
    uint8_t all;                       /*   every one on the board (vacuous when none), else one */
    koma__fx_ids own;
} koma__fx_require;

typedef struct koma__fx_cascade {
    koma__fx_ids on;                   /* when a piece of this set promotes */
    koma__fx_ids promote_own;          /* own pieces of this set promote (where they stand) */
    koma__fx_ids remove_enemy;         /* enemy pieces of this set are removed */
} koma__fx_cascade;

typedef struct koma__fx_reversion {
    koma__fx_ids pieces;               /* these revert to the identity that promotes to them */
    uint8_t kind;                      /* 0: unless own `other` on board; 1: near `other` */
    koma__fx_ids other;
    uint8_t within;                    /* kind 1: distance in points */
    uint8_t geometry;                  /* KOMA__FX_GEOM_* */
    uint8_t clear;                     /* lines: the points between must be empty */
    uint8_t enemy_only;                /* `other` must belong to the other side */
} koma__fx_reversion;

typedef struct koma__fx_option {
    char name[48];
    char value[48];                    /* the value in force */
} koma__fx_option;

typedef struct koma__fx_def {
    unsigned files, ranks;
    char style;                        /* the SIN letter, uppercase */
    unsigned nids;
    koma__fx_id ids[KOMA__FX_MAX_IDS];
    unsigned nclasses;
    char class_name[KOMA__FX_MAX_CLASSES][32];

    /* promotion */
    unsigned zone;
    uint8_t promotion_optional;
    uint8_t trigger;                   /* KOMA__FX_TRIGGER_* */
    uint8_t shot_is_capture;
    /* capture promotion: trig[captor] = the victims that make it promote */
    koma__fx_ids trig[KOMA__FX_MAX_IDS];
    unsigned nrequire;
    koma__fx_require require[KOMA__FX_MAX_RULES];
    unsigned ncascade;
    koma__fx_cascade cascade[KOMA__FX_MAX_RULES];
    unsigned nreversion;
    koma__fx_reversion reversion[KOMA__FX_MAX_RULES];

    /* shots and captures: shot_min[shooter][target] is the least distance a shot may
     * come from (0 any, 255 never); no_displace[mover] the targets it cannot land on */
    uint8_t shot_min[KOMA__FX_MAX_IDS][KOMA__FX_MAX_IDS];
    koma__fx_ids no_displace[KOMA__FX_MAX_IDS];

    uint8_t double_move_pass;          /* passes are moves: back on the origin, nothing
                                          captured nor shot (a promotion in place too) */
    uint8_t shoot_when;                /* KOMA__FX_SHOOT_* */
    uint8_t arrival_burn;

    /* defeat: a side survives while its board holds every piece of one set */
    uint8_t royal_captured;
    unsigned nsurvival;
    uint8_t survival_n[KOMA__FX_MAX_SURVIVAL];
    uint8_t survival[KOMA__FX_MAX_SURVIVAL][8];

    unsigned noptions;
    koma__fx_option options[KOMA__FX_MAX_OPTIONS];
} koma__fx_def;

/* fx_def.c: compile the effect rules of a game definition from its YAML text (the
 * whole document; the keys that game.c reads are skipped). `overrides` (may be
 * NULL) lists n option settings NAME=VALUE applied over the definition's own.
 * *out is malloc'd (koma__fx_def_free). Errors: game.* codes with YAML line and
 * column, betza.* codes; *bad (may be NULL) the index of the setting at fault
 * when one of them is (game.option.*), else n. */
int koma__fx_def_load(const char *yaml, size_t len, const char *source,
                      const char *const *overrides, size_t n, koma__fx_def **out,
                      size_t *bad, koma_error *err);
void koma__fx_def_free(koma__fx_def *d);
/* The identity index of a token (any case: the side is ignored), -1 when none. */
int koma__fx_id_of(const koma__fx_def *d, koma_piece p);

/* ---- engine ------------------------------------------------------------------------ */

typedef struct koma__fx koma__fx;

int koma__fx_new(const koma__fx_def *def, koma__fx **out, koma_error *err);
void koma__fx_free(koma__fx *fx);
int koma__fx_set_position(koma__fx *fx, const koma_position *pos, koma_error *err);
int koma__fx_get_position(const koma__fx *fx, koma_position *pos, koma_error *err);
/* Whether pos fits the definition (shape, pieces). */
int koma__fx_position_fits(const koma__fx_def *def, const koma_position *pos, koma_error *err);
int koma__fx_turn(const koma__fx *fx);
uint64_t koma__fx_hash(const koma__fx *fx);

/* The legal moves of the current position: handles into the store of this ply,
 * 0..n-1 (the order is deterministic). (size_t)-1 when memory ran out. */
size_t koma__fx_generate(koma__fx *fx, koma_error *err);
/* The canonical chain text of move m of the last generation at this ply;
 * snprintf-style. */
size_t koma__fx_move_text(const koma__fx *fx, uint32_t m, char *buf, size_t cap);
void koma__fx_move_chain(const koma__fx *fx, uint32_t m, koma_chain *out);
/* The legal move whose canonical chain is c (after generating), or -1 with err. */
int koma__fx_find(koma__fx *fx, const koma_chain *c, uint32_t *out, koma_error *err);
int koma__fx_make(koma__fx *fx, uint32_t m, koma_error *err);
int koma__fx_unmake(koma__fx *fx);
size_t koma__fx_ply(const koma__fx *fx);

/* -1 while both sides survive; else the side that lost (the side to move when both
 * fail, since the last mover's captures resolve first). */
int koma__fx_defeated(const koma__fx *fx);
/* 1 when `side` has a move that would make the other side fail the survival test. */
int koma__fx_threatens(koma__fx *fx, int side, koma_error *err);
/* Perft (distinct canonical chains are distinct moves; a finished position has none). */
int koma__fx_perft(koma__fx *fx, unsigned depth, uint64_t *nodes, koma_error *err);

#endif
