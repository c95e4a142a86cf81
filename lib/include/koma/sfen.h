/*
 * koma/sfen.h — the engine-protocol notations of the shogi world:
 * SFEN positions and USI moves, and Fairy-Stockfish's FEN (`board[hand] side
 * - - 0 N`) and UCI-style moves (`g3g4`, `h2b8+`, `P@e5`), converted to and
 * from FEEN and PMN with the position as context.
 *
 * SFEN is read and written for Shogi (9x9) and Minishogi (5x5): ranks from
 * the top, files from the left (9 to 1), `+` before a promoted piece, `b` =
 * the first player (Sente) to move, hands `-` or `[count]letter` items, Sente's
 * first, written R B G S N L P; the move number is read and ignored (FEEN has
 * none) and written as 1 + the plies played from the record's setup. The
 * king is `K^` in FEEN; the Jeweled King's `'` has no SFEN form and is not
 * written. A hand holding a promoted piece or a king has no SFEN form
 * (convert.unrepresentable).
 *
 * Fairy-Stockfish FEN: the board as FEEN's (ranks from the top, files from
 * the left, counts of empty squares, `+X` promoted), the hands in brackets
 * as repeated letters (Sente's first, in Fairy-Stockfish's own order: G N L P S
 * R B for shogi and minishogi, G L P S Q R B N for okisaki, N L P I S R B for
 * ogi), `w` = Sente to move (as chess's White), then
 * `- - 0 N` (no castling, no en passant, halfmove clock 0, the full-move
 * number). Games by board shape: 9x9 shogi, 5x5 minishogi, and the games of
 * tests/data/fsf/variants.ini, 10x10 okisaki and 8x8 ogi. Moves use FEEN's own
 * cells (file letter from the left, rank number from the bottom).
 */
#ifndef KOMA_SFEN_H
#define KOMA_SFEN_H

#include <stddef.h>
#include <koma/error.h>
#include <koma/position.h>
#include <koma/pmn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parse an SFEN (the sfen part of a USI position command: 3 or 4 fields). Ownership: none. */
KOMA_API int koma_sfen_parse(const char *s, size_t len, koma_position *pos, koma_error *err);
/* Write pos as SFEN with move number `number` (>= 1), snprintf-style; 0 with
 * err (sfen.game, convert.unrepresentable) when pos has no SFEN form. Ownership: none. */
KOMA_API size_t koma_sfen_write(const koma_position *pos, unsigned long number, char *buf,
                                size_t cap, koma_error *err);

/* A USI move (`7g7f`, `8h2b+`, `P*5e`) in pos, into canonical PMN. Ownership: none. */
KOMA_API int koma_usi_move_parse(const koma_position *pos, const char *s, size_t len,
                                 koma_move *out, koma_error *err);
/* m (canonical, of pos) as a USI move; 0 when it has no USI form. Ownership: none. */
KOMA_API size_t koma_usi_move_write(const koma_position *pos, const koma_move *m, char *buf,
                                    size_t cap, koma_error *err);

/* Fairy-Stockfish FEN and moves. Ownership: none. */
KOMA_API int koma_fen_parse(const char *s, size_t len, koma_position *pos, koma_error *err);
/* Ownership: none. */
KOMA_API size_t koma_fen_write(const koma_position *pos, unsigned long fullmove, char *buf,
                               size_t cap, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_fen_move_parse(const koma_position *pos, const char *s, size_t len,
                                 koma_move *out, koma_error *err);
/* Ownership: none. */
KOMA_API size_t koma_fen_move_write(const koma_position *pos, const koma_move *m, char *buf,
                                    size_t cap, koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
