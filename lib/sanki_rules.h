/*
 * lib/sanki_rules.h — the Sanki engine's rules (sanki_rules.c), above its moves
 * (sanki_movegen.h). Not installed, not exported.
 */
#ifndef KOMA_SANKI_RULES_H
#define KOMA_SANKI_RULES_H

#include "sanki_movegen.h"

/* The canonical PMN of move m of the current position. */
void koma__sk_move_pmn(const koma__sk *sk, uint32_t m, koma_move *out);
/* The legal move whose canonical PMN is m, or -1 with the reason (rules.*). */
int koma__sk_find(koma__sk *sk, const koma_move *m, uint32_t *out, koma_error *err);
/* 1 when the material left is a dead position for the pairing of variants. */
int koma__sk_dead(const koma__sk *sk);
/* The ending the position decides: *over 0 (the game goes on), or 1 with
 * checkmate, stalemate, nomove (no move at all, even leaving the royal
 * attacked) or insufficient (a dead position, the side to move having a move). */
koma_status koma__sk_ending(koma__sk *sk, int *over);
int koma__sk_perft(koma__sk *sk, unsigned depth, uint64_t *nodes, koma_error *err);

#endif
