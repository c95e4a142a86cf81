/*
 * lib/sanki_state.h — the Sanki engine (games whose definition says `engine:
 * sanki`; koma-games(7), SANKI): chess (style W), Ōgi on 8×8 (J) and Xiongqi
 * (C), each side playing the variant of its own style letter, on one 8×8
 * board. Its layers: sanki_state.c (the board as 64-bit bitboards and pieces,
 * attacks, make/unmake with the recomposition of the FEEN state markers, hash)
 * < sanki_movegen.c (moves of each variant, drops, mate by foot-soldier drop)
 * < sanki_rules.c (canonical PMN, "is this move legal here", the endings a
 * position decides, perft) < sanki_backend.c (its table of operations,
 * engine_backend.h). Not installed, not exported.
 *
 * Squares are numbered rank * 8 + file (a1 = 0, h1 = 7, a8 = 56), not in FEEN
 * order. A piece is its koma_piece (EPIN) as written in FEEN: the letter fixes
 * how it moves (a foot soldier's P, F or S: as its owner's variant says), the
 * state prefix carries the transient markers (`+` castling right performable /
 * double step allowed, `-` right held but blocked / capturable en passant /
 * royal in check), `^` a royal, "'" kept untouched.
 */
#ifndef KOMA_SANKI_STATE_H
#define KOMA_SANKI_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <koma/koma.h>
#include "game_internal.h"

enum { KOMA__SK_CHESS, KOMA__SK_OGI, KOMA__SK_XIONGQI };

/* movement classes (the letter's; every foot soldier is one class) */
enum {
    KOMA__SK_K, KOMA__SK_G, KOMA__SK_Q, KOMA__SK_R, KOMA__SK_B, KOMA__SK_N,
    KOMA__SK_I, KOMA__SK_E, KOMA__SK_T, KOMA__SK_FOOT, KOMA__SK_NCLASS
};

#define KOMA__SK_HAND_MAX KOMA__SANKI_HAND_MAX /* distinct identities in one hand */
#define KOMA__SK_MAX_MOVES 2048        /* moves of any position: at most 27 a piece on
                                          the board (64 * 27), and 5 kinds dropped on
                                          at most 64 squares */

/* Move encoding (koma_emove): from in bits 0-5 (unused for a drop), to in bits
 * 6-11, the type in bits 12-13, and in bits 16-25 a piece: the promoted
 * identity of a promoting move, the dropped identity of a drop. */
#define KOMA__SK_M_FROM(m) ((int)((m) & 63u))
#define KOMA__SK_M_TO(m) ((int)(((m) >> 6) & 63u))
#define KOMA__SK_M_TYPE(m) ((int)(((m) >> 12) & 3u))
#define KOMA__SK_M_PIECE(m) ((koma_piece)(((m) >> 16) & 0x3FFu))
#define KOMA__SK_MOVE(from, to, type, piece) \
    ((uint32_t)(from) | ((uint32_t)(to) << 6) | ((uint32_t)(type) << 12) | ((uint32_t)(piece) << 16))
enum { KOMA__SK_BOARD, KOMA__SK_CASTLE, KOMA__SK_EP, KOMA__SK_DROP };

typedef struct koma__sk_item {
    koma_piece p;
    uint32_t n;
} koma__sk_item;

/* One position: what make copies on the undo stack. */
typedef struct koma__sk_pos {
    koma_piece sq[64];
    uint64_t occ[2];                   /* each side's pieces */
    uint64_t bb[2][KOMA__SK_NCLASS];   /* each side's pieces of each class */
    koma__sk_item hand[2][KOMA__SK_HAND_MAX]; /* sorted by koma_piece_hand_key */
    uint8_t nhand[2];
    int8_t royal[2];                   /* the square of each side's royal, -1 none */
    uint8_t turn;
} koma__sk_pos;

typedef struct koma__sk {
    uint8_t var[2];                    /* each side's variant (KOMA__SK_*) */
    char style[2];
    koma__sk_pos cur;
    koma__sk_pos *undo;                /* the positions before each ply made */
    size_t nundo, cap;
    int failed;                        /* memory trouble a call could not report */
    /* attack tables */
    uint64_t ray[8][64];
    uint64_t knight[64], king[64], orth1[64];
    uint64_t gold[2][64], goldrev[2][64];
    uint64_t foot[3][2][64], footrev[3][2][64]; /* a foot soldier's attacks, and the
                                                   squares attacking a square */
} koma__sk;

/* ---- sanki_state.c ----------------------------------------------------------------- */

int koma__sk_class_of(koma_piece p);   /* KOMA__SK_* class, -1 for a letter no variant has */
int koma__sk_variant_of_style(char style); /* -1 for a style no variant has */
int koma__sk_forward(int side);        /* +8 or -8 */
int koma__sk_last_rank(int side);
int koma__sk_crossed_river(int side, int sq);

int koma__sk_new(koma__sk **out, koma_error *err);
void koma__sk_free(koma__sk *sk);
/* Set the position, which fits the game (koma__position_fits, game_sanki.c:
 * an 8x8 board, styles W, J or C, the family's pieces, hands of at most
 * KOMA__SK_HAND_MAX identities); the undo stack is cleared. */
void koma__sk_set(koma__sk *sk, const koma_position *pos);
int koma__sk_get(const koma__sk *sk, koma_position *pos, koma_error *err);
uint64_t koma__sk_hash(const koma__sk *sk);

uint64_t koma__sk_rook(const koma__sk *sk, int sq, uint64_t occ);
uint64_t koma__sk_bishop(const koma__sk *sk, int sq, uint64_t occ);
/* 1 when a piece of `by` (its pieces on `excl` left out) attacks target with
 * the squares of occ occupied. */
int koma__sk_attacked(const koma__sk *sk, const koma__sk_pos *p, int target, int by, uint64_t occ,
                      uint64_t excl);
int koma__sk_in_check(const koma__sk *sk, const koma__sk_pos *p, int side);
/* The square of the piece an en passant move from `from` to `to` by `side`
 * takes (the variant's geometry, a `-` foot soldier of the other side behind
 * `to`), or -1. */
int koma__sk_ep_victim(const koma__sk *sk, const koma__sk_pos *p, int side, int from, int to);
/* 1 when side's royal is not attacked after the move from (-1: a drop) -> to,
 * the piece on ep (-1: none) taken; royal: the mover is side's royal. */
int koma__sk_safe_after(const koma__sk *sk, const koma__sk_pos *p, int side, int from, int to,
                        int ep, int royal);
/* 1 when side may castle now with its royal from its e square to `to` (c or g of
 * its home rank): the rules of koma-games(7), SANKI, castling; rook_enhanced:
 * count the rook as `+R` (the marker's own recomposition asks so). */
int koma__sk_can_castle(const koma__sk *sk, const koma__sk_pos *p, int side, int to,
                        int rook_enhanced);
/* The identity a piece captured by `captor` takes in its hand. */
koma_piece koma__sk_captured_identity(const koma__sk *sk, koma_piece victim, int captor);
/* Play move m of the current position (a legal one), the markers recomposed;
 * -1 on memory (nothing made) / take the last one back. */
int koma__sk_make(koma__sk *sk, uint32_t m, koma_error *err);
void koma__sk_unmake(koma__sk *sk);
uint32_t koma__sk_hand_count(const koma__sk_pos *p, int side, koma_piece q);
/* Put a piece on an empty square / take the piece of a square, bitboards and
 * royals kept (the look-ahead of a drop). */
void koma__sk_put(koma__sk_pos *p, int sq, koma_piece q);
koma_piece koma__sk_take(koma__sk_pos *p, int sq);

#endif
