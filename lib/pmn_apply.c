/*
 * lib/pmn_apply.c — the protocol-level move applier: each form's direct effects,
 * whatever the game.
 *
 *     ...            nothing
 *     a-b[=X]        board a -> board b (the actor becomes X if given)
 *     a+b[=X][/Y]    board b -> active hand (as Y if given, else unchanged),
 *                    then board a -> board b
 *     +b[/Y]         board b -> active hand
 *     [P]*b[=X]      active hand P -> board b
 *     [P].b[=X][/Y]  board b -> active hand, then hand P -> board b
 *     b=X            the piece on b becomes X
 *     a~b...         refused (pmn.special): its implicit actions are the rule
 *                    system's business
 * then the side to move toggles. The preconditions are checked first and
 * nothing is changed on error (the only fallible step, adding to a hand, comes
 * before every other change).
 */
#include <string.h>

#include "pmn_internal.h"

int koma_move_apply(koma_position *pos, const koma_move *m, koma_error *err)
{
    koma__pmn_spans sp;
    koma_piece drop = KOMA_PIECE_NONE;
    uint32_t a = 0, b = 0;

    if (pos == NULL || m == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_move_apply: no position or move");
    if (m->kind == KOMA_MOVE_SPECIAL) {
        char text[KOMA_PMN_BUF];
        size_t n = koma_pmn_write(m, text);
        koma__pmn_spans_of(m, &sp);
        return koma__error_token(err, KOMA_E_PMN_SPECIAL, sp.op,
                                 "a '~' move needs a rule system to be applied", text, n);
    }
    /* the spans of the move's text locate an error only: checked without them
     * first, then again with them when the check fails */
    koma_error quiet;
    memset(&sp, 0, sizeof sp);
    if (koma__pmn_check_at(pos, m, &sp, 0u, &drop, &quiet) != 0) {
        koma__pmn_spans_of(m, &sp);
        koma__pmn_check_at(pos, m, &sp, 0u, &drop, err);
        return -1;
    }

    int side = pos->turn == KOMA_SECOND ? KOMA_SECOND : KOMA_FIRST;
    koma_hand *hand = &pos->hands[side];
    koma_piece *board = pos->board;

    if (m->kind != KOMA_MOVE_PASS) koma__pmn_square(pos, &m->dst, &b, 0, NULL);
    if (m->kind == KOMA_MOVE_QUIET || m->kind == KOMA_MOVE_CAPTURE)
        koma__pmn_square(pos, &m->src, &a, 0, NULL);

    switch (m->kind) {
    case KOMA_MOVE_PASS:
    case KOMA_MOVE_SPECIAL:
        break;
    case KOMA_MOVE_QUIET:
        board[b] = m->actor != KOMA_PIECE_NONE ? m->actor : board[a];
        board[a] = KOMA_PIECE_NONE;
        break;
    case KOMA_MOVE_CAPTURE:
        if (koma_hand_add(hand, m->captured != KOMA_PIECE_NONE ? m->captured : board[b], 1,
                          err) != 0)
            return -1;
        board[b] = m->actor != KOMA_PIECE_NONE ? m->actor : board[a];
        board[a] = KOMA_PIECE_NONE;
        break;
    case KOMA_MOVE_STATIC:
        if (koma_hand_add(hand, m->captured != KOMA_PIECE_NONE ? m->captured : board[b], 1,
                          err) != 0)
            return -1;
        board[b] = KOMA_PIECE_NONE;
        break;
    case KOMA_MOVE_DROP:
        if (koma_hand_remove(hand, drop, 1) != 0)
            return koma_error_set(err, KOMA_E_INTERNAL, 0, "dropped piece vanished from hand");
        board[b] = m->actor != KOMA_PIECE_NONE ? m->actor : drop;
        break;
    case KOMA_MOVE_DROPCAP:
        /* the capture first: it may fail (memory); the drop then cannot */
        if (koma_hand_add(hand, m->captured != KOMA_PIECE_NONE ? m->captured : board[b], 1,
                          err) != 0)
            return -1;
        if (koma_hand_remove(hand, drop, 1) != 0)
            return koma_error_set(err, KOMA_E_INTERNAL, 0, "dropped piece vanished from hand");
        board[b] = m->actor != KOMA_PIECE_NONE ? m->actor : drop;
        break;
    case KOMA_MOVE_MUTATE:
        board[b] = m->actor;
        break;
    }
    pos->turn = side == KOMA_FIRST ? KOMA_SECOND : KOMA_FIRST;
    return 0;
}
