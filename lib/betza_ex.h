/* lib/betza_ex.h — the Betza reader's extended form (betza.c), for the effect
 * engine: m/c modalities, the range modality of Betza 2.0 (`Wc5`: a ride that
 * captures every enemy it passes), and XBetza two-leg moves (`a`). Not
 * installed, not exported. */
#ifndef KOMA_BETZA_EX_H
#define KOMA_BETZA_EX_H

#include <stddef.h>
#include <stdint.h>
#include <koma/error.h>

/* What a landing may hold. */
#define KOMA__BETZA_EMPTY   1u         /* m */
#define KOMA__BETZA_ENEMY   2u         /* c */
#define KOMA__BETZA_THROUGH 4u         /* a ride that captures the enemies it passes */

/* A one-leg move: first player's frame, dy > 0 forwards. range 1 a leap, 0 an
 * unlimited ride, n a ride of at most n steps. */
typedef struct koma__bvec {
    int8_t dx, dy;
    uint8_t range;
    uint8_t mod;                       /* KOMA__BETZA_* */
} koma__bvec;

/* A two-leg move: leap (dx1, dy1), then optionally leap (dx2, dy2) from there. */
typedef struct koma__bpair {
    int8_t dx1, dy1, dx2, dy2;
    uint8_t mod1, mod2;
} koma__bpair;

/*
 * Parse s[0..len) (koma_betza_parse's grammar, plus):
 *   m c      before an atom (after its direction letters): the move only moves
 *            (m) or only captures (c); both or neither: either.
 *   W5 Wc5   after the atom, a count: a ride of at most that many steps; with c
 *            before the count, the ride captures every enemy on its way (Betza
 *            2.0's range modality) and may stop on any point of it.
 *   hr hl    (first leg of an oblique atom) its right- or left-handed vectors:
 *            hrN = (1,2) (2,-1) (-1,-2) (-2,1).
 *   X..aY..A one leg, then another: the letters before `a` shape the first leg
 *            (absolute directions; modality m by default), those after it the
 *            second, with directions relative to the first leg in the 8-fold
 *            K system: f straight on, b straight back, l r a quarter turn, fl fr
 *            bl br the turns between, v = f b, s = l r; none: every direction of
 *            the atom except straight back. The second leg's modality is m c by
 *            default. Atoms W F K N; a turn the atom does not have
 *            (a diagonal turn of W) is betza.unsupported.
 * Single-leg moves go to vecs (same vector and modality: the longer range kept),
 * two-leg moves to pairs. Errors as koma_betza_parse (betza.syntax,
 * betza.unsupported), offsets into s.
 */
int koma__betza_parse_ex(const char *s, size_t len, koma__bvec *vecs, size_t vcap,
                         size_t *nvecs, koma__bpair *pairs, size_t pcap, size_t *npairs,
                         koma_error *err);

#endif
