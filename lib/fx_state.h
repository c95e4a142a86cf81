/* lib/fx_state.h — the effect engine's state, shared by fx_state.c and fx_movegen.c
 * (see fx_internal.h). Not installed, not exported. */
#ifndef KOMA_FX_STATE_H
#define KOMA_FX_STATE_H

#include "fx_internal.h"

/* Board codes: 0 empty; (id + 1) | side << 7 a piece; KOMA__FX_OFF outside. */
#define KOMA__FX_OFF 0x8000u
#define KOMA__FX_CODES 256
#define FX_CODE(id, side) ((uint16_t)(((unsigned)(id) + 1u) | ((unsigned)(side) << 7)))
#define FX_ID(c) ((int)(((c) & 0x7Fu) - 1))
#define FX_SIDE(c) ((int)(((c) >> 7) & 1u))
#define FX_PIECE(c) ((c) != 0 && !((c) & KOMA__FX_OFF))

/* Limits of a generation: moves of one position, removals and changes of one move. */
#define KOMA__FX_MAX_MOVES (1u << 18)
#define KOMA__FX_MAX_EFFECTS 64

/* A move: the canonical chain's content (koma/pmn.h). Element 1 when from != to:
 * the piece on from goes to `to` (capturing what stands there: cap) and becomes
 * `actor`; then every removal (squares), then every change (square, code). The
 * removals and changes are in the store's pool from `off`, squares ascending. */
typedef struct fx_rec {
    uint16_t from, to;
    uint16_t actor;
    uint8_t cap;
    uint8_t nrem, nchg;
    uint32_t off;
    uint64_t key;
} fx_rec;

/* The moves of one ply. */
typedef struct fx_store {
    fx_rec *rec;
    size_t n, cap;
    uint32_t *pool;                    /* removals (square), changes (square << 16 | code) */
    size_t npool, cappool;
    uint32_t *table;                   /* dedupe: record index + 1, 0 empty */
    size_t tcap;                       /* a power of two */
    int valid;                         /* a ply's store: the moves of the position at
                                          that ply (koma__fx_generate; cleared by a make
                                          into that ply and by set_position) */
} fx_store;

/* A move's effects in its store's pool: NULL while the pool is empty (no move of
 * the ply had effects), never NULL + 0, which C leaves undefined. */
static inline const uint32_t *fx_effects(const fx_store *st, const fx_rec *r)
{
    return st->pool != NULL ? st->pool + r->off : NULL;
}

/* Per code: the movement as padded-board offsets. */
typedef struct fx_move_tab {
    uint8_t nvec;
    int16_t off[KOMA__FX_MAX_VECS];
    uint8_t range[KOMA__FX_MAX_VECS];
    uint8_t mod[KOMA__FX_MAX_VECS];
    uint16_t npair;
    int16_t off1[KOMA__FX_MAX_PAIRS], off2[KOMA__FX_MAX_PAIRS];
    uint8_t mod1[KOMA__FX_MAX_PAIRS], mod2[KOMA__FX_MAX_PAIRS];
    uint8_t npath;
    int16_t path[8];
    uint8_t ncond;
    uint8_t cond_n[KOMA__FX_MAX_COND];
    int16_t cond_off[KOMA__FX_MAX_COND][8];
    uint8_t cond_range[KOMA__FX_MAX_COND][8];
    uint8_t cond_mod[KOMA__FX_MAX_COND][8];
} fx_move_tab;

typedef struct fx_undo {
    size_t nlog;                       /* entries of the log before this ply */
    uint64_t hash_board, hash_hand;
} fx_undo;

/* One logged change: a square's old code, or a hand increment (sq = 0xFFFF). */
typedef struct fx_log {
    uint16_t sq;
    uint16_t code;
} fx_log;

struct koma__fx {
    const koma__fx_def *def;
    int files, ranks, pad, stride, size, base;
    int nsq;
    uint16_t *board;
    int16_t *sq_index;                 /* square (FEEN order) -> padded index */
    int16_t *index_sq;                 /* padded index -> FEEN square, -1 off */
    uint8_t *rank_of, *file_of;        /* padded index -> rank (0 = rank 1), file */
    uint8_t *in_zone[2];
    koma_shape shape;

    fx_move_tab *mv;                   /* [KOMA__FX_CODES] */
    int16_t king[8];                   /* the 8 neighbour offsets */
    int16_t line[8];                   /* the 8 line directions */
    int8_t line_dx[8], line_dy[8];
    uint64_t burner_codes[2][4];       /* per side: codes that burn (bit set over 256) */

    /* state */
    int turn;
    uint32_t hand[2][KOMA__FX_CODES];
    uint16_t cnt[KOMA__FX_CODES];      /* pieces on the board per code */
    uint64_t hash_board;               /* XOR of the pieces' keys */
    uint64_t hash_hand;                /* sum of the hand pieces' keys (counts add) */
    uint64_t *zboard;                  /* [code][size] */
    uint64_t zhand[2][KOMA__FX_CODES];
    uint64_t zturn;

    /* history */
    fx_undo *undo;
    size_t nundo, capundo;
    fx_log *log;
    size_t nlog, caplog;

    /* moves: one store per ply (index nundo), and a scratch one */
    fx_store *stores;
    size_t nstores;
    fx_store scratch;
    uint32_t *scratch_pool_unused;
    int failed;                        /* memory ran out in a generation */
};

/* fx_movegen.c */
/* Generate the moves of side `side` into st (reset first); -1 on memory or limit
 * trouble (err). */
int koma__fx_gen(koma__fx *fx, int side, fx_store *st, koma_error *err);
void koma__fx_store_free(fx_store *st);

/* fx_state.c: board primitives used by the generator's temporary changes */
uint64_t koma__fx_zb(const koma__fx *fx, unsigned code, int idx);
/* A side's survival test on the current board counts. */
int koma__fx_survives(const koma__fx *fx, int side);

static inline int fx_is_burner(const koma__fx *fx, int side, unsigned code)
{
    return (int)((fx->burner_codes[side][code >> 6] >> (code & 63)) & 1u);
}

#endif
