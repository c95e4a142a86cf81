/*
 * lib/sanki_movegen.h — the Sanki engine's moves (sanki_movegen.c), above its
 * board (sanki_state.h). Not installed, not exported.
 */
#ifndef KOMA_SANKI_MOVEGEN_H
#define KOMA_SANKI_MOVEGEN_H

#include "sanki_state.h"

/* readings of "a move" */
enum {
    KOMA__SK_PSEUDO,                   /* the royal may be left attacked */
    KOMA__SK_PLAIN,                    /* legal, a mating Fu drop included */
    KOMA__SK_LEGAL                     /* legal */
};

/* The moves of `side` in the current position (whoever is to move) into out
 * (NULL: only counted; at most KOMA__SK_MAX_MOVES), in a fixed order; first:
 * stop at the first one. */
size_t koma__sk_generate(koma__sk *sk, int side, int mode, uint32_t *out, int first);
/* 1 when side's drop of q on the empty square `to` would mate (a Fu only). */
int koma__sk_uchifuzume(koma__sk *sk, int side, koma_piece q, int to);

#endif
