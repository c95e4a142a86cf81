/* koma/diagram.h — a position as a picture: ASCII text, Unicode text or SVG.
 *
 * A diagram shows the board from the first player's side (the second player's
 * pieces at the top), the two hands beside it, coordinates in the game's own
 * style and, when given, the squares of the move that led to the position.
 * What a game looks like comes from its definition (koma/game.h): the names
 * written on the pieces (`diagram.kanji`), the coordinate style
 * (`diagram.coordinates`) and whether pieces stand on squares or on the points
 * of a go board (`diagram.grid`). Without a game (NULL), or for a piece the game
 * does not name, the piece's EPIN token is drawn instead.
 *
 * Coordinates:
 *   cell   (Ogi, and every game that does not say otherwise) CELL names: files
 *          a, b, ... from the left at the bottom, ranks 1, 2, ... from the
 *          bottom on the left.
 *   shogi  (Shogi, Minishogi, Okisaki, Ko shogi) as Japanese boards are
 *          labelled: files numbered from the right (9 .. 1) at the top, ranks
 *          counted from the top on the right, in kanji numerals in the Unicode
 *          form and the SVG (一 .. 九, 十, 十一 ..) and as letters in ASCII (a .. i,
 *          as USI and SFEN write them). CELL a1 is shogi 9九 (ASCII 9i).
 *
 * Formats:
 *   ASCII    the board in EPIN tokens (lowercase: the second player), "." for an
 *            empty square, a +--+ frame; hands beside the top rank (second player)
 *            and the bottom rank (first player) as "second hand: R B 3P" (FEEN
 *            counts); then "first to move" / "second to move" and, when given,
 *            "last move: PMN". Nothing is lost: board, hands and turn can be
 *            read back.
 *   Unicode  the Japanese diagram (BOD) layout: a box-drawing frame, one name
 *            per square, the second player's pieces marked "v", "・" for an empty
 *            square; hands as "☖ hand: 飛 角 歩×3" beside the top rank and
 *            "☗ hand: -" beside the bottom rank; then "☗ to move" and the last
 *            move. Cells are as wide as the widest name on the board (2
 *            terminal columns per CJK character).
 *   SVG      a standalone SVG 1.1 document: the board, pentagonal pieces with
 *            their names (promoted pieces in red, the second player's turned by
 *            180°), the second player's hand on the upper left and the first
 *            player's on the lower right (as on a Japanese board: each player's
 *            stand at their right), counts beside the pieces in hand, a marker
 *            for the side to move, coordinates, and the last move's origin and
 *            destination squares shaded. Integer geometry, no ids, no
 *            timestamps: the same position gives the same bytes. Names use the
 *            font families "IPAMincho", "IPAexMincho", "Noto Serif CJK JP",
 *            "Source Han Serif JP", then any serif.
 * A caption (one UTF-8 line, e.g. "ply 12") is printed first in text forms and
 * drawn under the board in SVG.
 *
 * Boards of one or two dimensions are drawn; a 3-D board is diagram.shape.
 */
#ifndef KOMA_DIAGRAM_H
#define KOMA_DIAGRAM_H

#include <stddef.h>
#include <koma/error.h>
#include <koma/io.h>
#include <koma/position.h>
#include <koma/game.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum koma_diagram_format {
    KOMA_DIAGRAM_ASCII,
    KOMA_DIAGRAM_UNICODE,
    KOMA_DIAGRAM_SVG
} koma_diagram_format;

/* A sized struct (koma/version.h): set up with KOMA_DIAGRAM_OPTIONS_INIT. */
typedef struct koma_diagram_options {
    size_t size;                   /* sizeof(koma_diagram_options), by the _INIT macro */
    koma_diagram_format format;
    /* The move that led to the position, as PMN (a chain of elements joined by
     * ',' for Ko shogi's multi-action moves), or NULL. Its origin and
     * destination squares are shaded in SVG and it is named in the text forms. */
    const char *last_move;
    size_t last_move_len;
    /* One line of UTF-8 text (no line breaks), or NULL. An empty caption or
     * last move is the same as none. */
    const char *caption;
    size_t caption_len;
} koma_diagram_options;
#define KOMA_DIAGRAM_OPTIONS_INIT {.size = sizeof(koma_diagram_options)}

/*
 * Draw pos (its game g may be NULL) through write. Errors: diagram.shape (a 3-D
 * board), diagram.caption (a caption with a control character or invalid UTF-8),
 * pmn.* and cell.shape (a last move that is not PMN or not on the board),
 * memory, io.write (write returned non-zero: nothing more is written, and the
 * call returns write's value).
 * Ownership: none.
 */
KOMA_API int koma_diagram_write(const koma_position *pos, const koma_game *g,
                                const koma_diagram_options *opt,
                                koma_write_fn write, void *ctx, koma_error *err);

/*
 * The same into buf, snprintf-style: at most cap bytes including a NUL are
 * written, *len (may be NULL) receives the full length; the output is complete
 * when *len < cap.
 * Ownership: none.
 */
KOMA_API int koma_diagram_print(const koma_position *pos, const koma_game *g,
                                const koma_diagram_options *opt, char *buf, size_t cap,
                                size_t *len, koma_error *err);

/* "ascii", "unicode", "svg" (what koma-convert --to takes) and back; -1 when unknown.
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_diagram_format_name(koma_diagram_format f);
/* Ownership: none. */
KOMA_API int koma_diagram_format_from_name(const char *s, size_t len, koma_diagram_format *out);

#ifdef __cplusplus
}
#endif
#endif
