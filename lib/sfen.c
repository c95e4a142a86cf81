/*
 * lib/sfen.c — SFEN and USI moves, Fairy-Stockfish FEN and moves (koma/sfen.h),
 * and the line formats of koma-convert built on them and on FEEN and PMN:
 * feen, fid, pmn, sfen, usi-move, fen, fen-move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"
#include "internal.h"
#include <koma/sfen.h>

/* ---- shared: the board field of SFEN and Fairy-Stockfish FEN ----------------------- */

static int shape_of(unsigned files, unsigned ranks, koma_shape *shape)
{
    memset(shape, 0, sizeof *shape);
    shape->ndims = 2;
    shape->size[0] = (uint16_t)files;
    shape->size[1] = (uint16_t)ranks;
    shape->size[2] = 1;
    shape->squares = files * ranks;
    return 0;
}

/* The style letter of a board shape (fen: the Fairy-Stockfish games too). */
static char style_of(unsigned files, unsigned ranks, int fen)
{
    if (files == ranks && (files == 9 || files == 5)) return 'S';
    if (fen && files == 10 && ranks == 10) return 'Q';
    if (fen && files == 8 && ranks == 8) return 'O';
    return 0;
}

static int promotable(char upper) { return strchr("RBSNLPI", upper) != NULL && upper != '\0'; }

/*
 * Parse a board "r/r/..." of pieces (letters, `+X`; `~` after a piece is
 * skipped when fen) and empty counts (one digit for SFEN, any for FEN).
 * Fills pos (reset to the shape found). code: the error code.
 */
static int parse_board(const char *s, size_t len, int fen, koma_code code, koma_position *pos,
                       koma_error *err)
{
    /* first pass: the shape */
    unsigned ranks = 1, files = 0, cur = 0;
    size_t i = 0;
    koma_piece cells[400];
    size_t ncell = 0;
    while (i < len) {
        char c = s[i];
        if (c == '/') {
            if (ranks == 1) files = cur;
            else if (cur != files) return koma__error_token(err, code, i, "ranks of different lengths", s, i);
            if (cur == 0) return koma_error_set(err, code, i, "empty rank");
            ranks++;
            cur = 0;
            i++;
            continue;
        }
        if (KOMA_IS_DIGIT(c)) {
            size_t j = i;
            unsigned n = 0;
            while (j < len && KOMA_IS_DIGIT(s[j]) && (fen || j == i)) n = n * 10 + (unsigned)(s[j++] - '0');
            if (n == 0 || n > 19) return koma__error_token(err, code, i, "invalid empty-square count", s + i, j - i);
            for (unsigned k = 0; k < n; k++) {
                if (ncell == sizeof cells / sizeof cells[0]) return koma_error_set(err, code, i, "board too large");
                cells[ncell++] = KOMA_PIECE_NONE;
            }
            cur += n;
            i = j;
            continue;
        }
        int plus = 0;
        size_t at = i;
        if (c == '+') {
            plus = 1;
            if (++i >= len) return koma_error_set(err, code, at, "'+' at the end of the board");
            c = s[i];
        }
        if (!KOMA_IS_ALPHA(c)) return koma__error_token(err, code, at, "invalid piece", s + at, 1);
        koma_piece p = koma_piece_from_letter(c);
        char up = (char)(c & ~0x20);
        if (plus) {
            if (!promotable(up)) return koma__error_token(err, code, at, "this piece does not promote", s + at, 2);
            p |= KOMA_PIECE_ENHANCED;
        }
        if (up == 'K') p |= KOMA_PIECE_TERMINAL;
        i++;
        if (fen && i < len && s[i] == '~') i++;
        if (ncell == sizeof cells / sizeof cells[0]) return koma_error_set(err, code, at, "board too large");
        cells[ncell++] = p;
        cur++;
    }
    if (ranks == 1) files = cur;
    else if (cur != files) return koma_error_set(err, code, len ? len - 1 : 0, "ranks of different lengths");
    if (files == 0) return koma_error_set(err, code, 0, "empty board");
    char style = style_of(files, ranks, fen);
    if (style == 0)
        return koma_error_set(err, KOMA_E_SFEN_GAME, 0, "a %ux%u board is no game %s reads", files, ranks,
                              fen ? "Fairy-Stockfish FEN" : "SFEN");
    koma_shape shape;
    shape_of(files, ranks, &shape);
    if (koma_position_reset(pos, &shape, err) != 0) return -1;
    memcpy(pos->board, cells, ncell * sizeof cells[0]);
    pos->style[0] = style;
    pos->style[1] = (char)(style | 0x20);
    return 0;
}

/* The kinds a hand may hold, in SFEN's written order. */
static const char sfen_hand_order[] = "RBGSNLP";
/* Fairy-Stockfish's own order of hand pieces, per game (its piece types' order). */
static const char *fen_hand_order(char style)
{
    switch (style) {
    case 'Q': return "GLPSQRBN";       /* okisaki (the variants file) */
    case 'O': return "NLPISRB";        /* ogi (the variants file) */
    default: return "GNLPSRB";         /* shogi, minishogi */
    }
}

static int check_hand_piece(const koma_hand_item *it, koma_error *err, const char *what)
{
    koma_piece p = it->piece;
    if ((p & (KOMA_PIECE_STATE | KOMA_PIECE_TERMINAL)) != 0)
        return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                              "%s hands hold only unpromoted pieces other than kings", what);
    return 0;
}

/* Write the board of pos (SFEN and FEN alike). */
static int write_board(const koma_position *pos, koma_buffer *b, const char *what, koma_error *err)
{
    unsigned files = pos->shape.size[0], ranks = pos->shape.size[1];
    for (unsigned r = 0; r < ranks; r++) {
        unsigned empty = 0;
        if (r && koma__buf_put(b, "/", 1, err)) return -1;
        for (unsigned f = 0; f < files; f++) {
            koma_piece p = pos->board[r * files + f];
            if (p == KOMA_PIECE_NONE) {
                empty++;
                continue;
            }
            if (empty && koma__buf_printf(b, err, "%u", empty)) return -1;
            empty = 0;
            if (p & KOMA_PIECE_DIMINISHED)
                return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "%s has no '-' state", what);
            char up = (char)(koma_piece_letter(p) & ~0x20);
            if ((p & KOMA_PIECE_TERMINAL) && up != 'K')
                return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "%s marks only kings royal", what);
            char t[3];
            size_t n = 0;
            if (p & KOMA_PIECE_ENHANCED) t[n++] = '+';
            t[n++] = koma_piece_letter(p);
            if (koma__buf_put(b, t, n, err)) return -1;
        }
        if (empty && koma__buf_printf(b, err, "%u", empty)) return -1;
    }
    return 0;
}

static int game_check(const koma_position *pos, int fen, koma_error *err)
{
    if (pos->shape.ndims != 2 ||
        style_of(pos->shape.size[0], pos->shape.size[1], fen) != (pos->style[0] & ~0x20) ||
        pos->style[1] != (pos->style[0] | 0x20))
        return koma_error_set(err, KOMA_E_SFEN_GAME, 0, "%s writes only %s positions",
                              fen ? "Fairy-Stockfish FEN" : "SFEN",
                              fen ? "Shogi, Minishogi, Okisaki and Ogi" : "Shogi and Minishogi");
    return 0;
}

/* ---- SFEN --------------------------------------------------------------------------- */

/* A position koma holds is a valid FEEN: its pieces, on the board and in the
 * hands, are at most its squares (FEEN's cardinality rule). */
static int pieces_fit(const koma_position *pos, koma_code code, size_t off, koma_error *err)
{
    unsigned long long total = 0;
    for (uint32_t sq = 0; sq < pos->shape.squares; sq++)
        if (pos->board[sq] != KOMA_PIECE_NONE) total++;
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; i < pos->hands[side].len; i++) total += pos->hands[side].items[i].count;
    if (total <= pos->shape.squares) return 0;
    return koma_error_set(err, code, off, "too many pieces for the board (%llu pieces, %lu squares)", total,
                          (unsigned long)pos->shape.squares);
}

int koma_sfen_parse(const char *s, size_t len, koma_position *pos, koma_error *err)
{
    const char *f[5];
    size_t fl[5], nf = 0, i = 0;
    while (i <= len && nf < 5) {
        size_t j = i;
        while (j < len && s[j] != ' ') j++;
        if (j == i) return koma_error_set(err, KOMA_E_SFEN_FIELDS, i, "empty field (two spaces?)");
        f[nf] = s + i;
        fl[nf++] = j - i;
        i = j + 1;
    }
    if (i <= len || nf < 3)
        return koma_error_set(err, KOMA_E_SFEN_FIELDS, nf < 3 ? len : i - 1,
                              "SFEN needs 3 or 4 fields: board side hands [number]");
    if (parse_board(f[0], fl[0], 0, KOMA_E_SFEN_BOARD, pos, err) != 0) return -1;
    size_t off = (size_t)(f[1] - s);
    if (fl[1] != 1 || (f[1][0] != 'b' && f[1][0] != 'w'))
        return koma__error_token(err, KOMA_E_SFEN_SIDE, off, "side to move must be b or w", f[1], fl[1]);
    pos->turn = f[1][0] == 'b' ? KOMA_FIRST : KOMA_SECOND;
    off = (size_t)(f[2] - s);
    if (!(fl[2] == 1 && f[2][0] == '-')) {
        for (size_t k = 0; k < fl[2];) {
            size_t at = k;
            unsigned n = 0;
            while (k < fl[2] && KOMA_IS_DIGIT(f[2][k]) && k - at < 3) n = n * 10 + (unsigned)(f[2][k++] - '0');
            if (k > at && (n == 0 || f[2][at] == '0'))
                return koma__error_token(err, KOMA_E_SFEN_HAND, off + at, "invalid count", f[2] + at, k - at);
            if (k == at) n = 1;
            if (k >= fl[2] || !strchr(sfen_hand_order, f[2][k] & ~0x20) || !KOMA_IS_ALPHA(f[2][k]))
                return koma__error_token(err, KOMA_E_SFEN_HAND, off + k, "invalid piece in hand",
                                         f[2] + k, k < fl[2] ? 1 : 0);
            koma_piece p = koma_piece_from_letter(f[2][k]);
            if (koma_hand_add(&pos->hands[koma_piece_side(p)], p, n, err) != 0) return -1;
            k++;
        }
    }
    if (pieces_fit(pos, KOMA_E_SFEN_HAND, off, err) != 0) return -1;
    if (nf == 4) {
        off = (size_t)(f[3] - s);
        if (fl[3] > 9 || f[3][0] == '0') return koma__error_token(err, KOMA_E_SFEN_NUMBER, off, "invalid move number", f[3], fl[3]);
        for (size_t k = 0; k < fl[3]; k++)
            if (!KOMA_IS_DIGIT(f[3][k]))
                return koma__error_token(err, KOMA_E_SFEN_NUMBER, off, "invalid move number", f[3], fl[3]);
    }
    return 0;
}

static int sfen_put(const koma_position *pos, unsigned long number, koma_buffer *b, koma_error *err)
{
    if (game_check(pos, 0, err) != 0) return -1;
    if (write_board(pos, b, "SFEN", err) != 0) return -1;
    if (koma__buf_puts(b, pos->turn == KOMA_FIRST ? " b " : " w ", err)) return -1;
    int any = 0;
    for (int side = 0; side < 2; side++) {
        const koma_hand *h = &pos->hands[side];
        for (size_t i = 0; i < h->len; i++)
            if (check_hand_piece(&h->items[i], err, "SFEN") != 0) return -1;
        for (const char *o = sfen_hand_order; *o; o++) {
            koma_piece p = koma_piece_from_letter(side ? (char)(*o | 0x20) : *o);
            uint32_t n = koma_hand_count(h, p);
            if (n == 0) continue;
            any = 1;
            if (n > 1 && koma__buf_printf(b, err, "%u", (unsigned)n)) return -1;
            char c = koma_piece_letter(p);
            if (koma__buf_put(b, &c, 1, err)) return -1;
        }
        for (size_t i = 0; i < h->len; i++)
            if (!strchr(sfen_hand_order, koma_piece_letter(h->items[i].piece) & ~0x20))
                return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "SFEN hands hold only R B G S N L P");
    }
    if (!any && koma__buf_put(b, "-", 1, err)) return -1;
    return koma__buf_printf(b, err, " %lu", number);
}

size_t koma_sfen_write(const koma_position *pos, unsigned long number, char *buf, size_t cap,
                       koma_error *err)
{
    koma_buffer b = {0};
    size_t n = 0;
    if (sfen_put(pos, number, &b, err) == 0) {
        n = b.len;
        if (cap) {
            size_t k = n < cap ? n : cap - 1;
            memcpy(buf, b.data, k);
            buf[k] = '\0';
        }
    }
    koma_buffer_cleanup(&b);
    return n;
}

/* ---- moves: USI and Fairy-Stockfish ---------------------------------------------------- */

/* The capture or quiet move from src to dst in pos, promoting or not. */
static int board_move(const koma_position *pos, uint32_t src, uint32_t dst, int promote, koma_code code,
                      const char *s, size_t len, koma_move *m, koma_error *err)
{
    memset(m, 0, sizeof *m);
    koma_piece actor = pos->board[src];
    if (actor == KOMA_PIECE_NONE) return koma__error_token(err, code, 0, "no piece on the origin", s, len);
    if (src == dst) return koma__error_token(err, code, 0, "origin and destination are the same", s, len);
    koma_shape_cell(&pos->shape, src, &m->src);
    koma_shape_cell(&pos->shape, dst, &m->dst);
    if (promote) {
        if (actor & KOMA_PIECE_STATE) return koma__error_token(err, code, len - 1, "the piece is already promoted", s, len);
        m->actor = (koma_piece)(actor | KOMA_PIECE_ENHANCED);
    }
    koma_piece target = pos->board[dst];
    if (target == KOMA_PIECE_NONE) {
        m->kind = KOMA_MOVE_QUIET;
    } else {
        m->kind = KOMA_MOVE_CAPTURE;
        koma_piece cap = koma_capture_identity(target, pos->turn);
        if (cap != target) m->captured = cap;
    }
    return 0;
}

static int drop_move(const koma_position *pos, char letter, uint32_t dst, koma_code code, const char *s,
                     size_t len, koma_move *m, koma_error *err)
{
    memset(m, 0, sizeof *m);
    koma_piece p = koma_piece_from_letter(pos->turn == KOMA_FIRST ? letter : (char)(letter | 0x20));
    if (koma_hand_count(&pos->hands[pos->turn], p) == 0)
        return koma__error_token(err, code, 0, "the piece is not in the mover's hand", s, len);
    if (pos->board[dst] != KOMA_PIECE_NONE)
        return koma__error_token(err, code, 0, "drop onto an occupied square", s, len);
    m->kind = KOMA_MOVE_DROP;
    m->piece = p;
    koma_shape_cell(&pos->shape, dst, &m->dst);
    return 0;
}

/* USI square "7g" -> square number. */
static int usi_square(const koma_position *pos, const char *s, uint32_t *sq)
{
    koma_sq q = {(uint8_t)(s[0] - '0'), (uint8_t)(s[1] - 'a' + 1)};
    if (!KOMA_IS_DIGIT(s[0]) || !KOMA_IS_LOWER(s[1])) return -1;
    return koma_sq_to_square(&pos->shape, q, sq);
}

int koma_usi_move_parse(const koma_position *pos, const char *s, size_t len, koma_move *out,
                        koma_error *err)
{
    uint32_t a, b;
    if (len == 4 && s[1] == '*') {
        char up = s[0];
        if (!KOMA_IS_UPPER(up) || !strchr("RBGSNLP", up))
            return koma__error_token(err, KOMA_E_USI_MOVE, 0, "invalid piece to drop", s, 1);
        if (usi_square(pos, s + 2, &b) != 0)
            return koma__error_token(err, KOMA_E_USI_MOVE, 2, "invalid square", s + 2, 2);
        return drop_move(pos, up, b, KOMA_E_USI_MOVE, s, len, out, err);
    }
    if ((len != 4 && len != 5) || (len == 5 && s[4] != '+'))
        return koma__error_token(err, KOMA_E_USI_MOVE, 0, "not a USI move", s, len);
    if (usi_square(pos, s, &a) != 0) return koma__error_token(err, KOMA_E_USI_MOVE, 0, "invalid square", s, 2);
    if (usi_square(pos, s + 2, &b) != 0)
        return koma__error_token(err, KOMA_E_USI_MOVE, 2, "invalid square", s + 2, 2);
    return board_move(pos, a, b, len == 5, KOMA_E_USI_MOVE, s, len, out, err);
}

/* Origin and destination squares of a board move or drop of pos. */
static int move_squares(const koma_position *pos, const koma_move *m, uint32_t *src, uint32_t *dst,
                        const char *what, koma_error *err)
{
    if (m->kind != KOMA_MOVE_QUIET && m->kind != KOMA_MOVE_CAPTURE && m->kind != KOMA_MOVE_DROP)
        return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "%s has no such move", what);
    if (koma_shape_square(&pos->shape, &m->dst, dst, err) != 0) return -1;
    if (m->kind != KOMA_MOVE_DROP && koma_shape_square(&pos->shape, &m->src, src, err) != 0) return -1;
    if (m->kind == KOMA_MOVE_DROP && (m->actor != KOMA_PIECE_NONE || (m->piece & KOMA_PIECE_STATE)))
        return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "%s has no promoted drop", what);
    return 0;
}

static int promotes(const koma_position *pos, const koma_move *m, uint32_t src)
{
    return m->kind != KOMA_MOVE_DROP && m->actor != KOMA_PIECE_NONE &&
           (m->actor & KOMA_PIECE_ENHANCED) && !(pos->board[src] & KOMA_PIECE_ENHANCED);
}

static size_t copy_out(const char *t, size_t n, char *buf, size_t cap)
{
    if (cap) {
        size_t k = n < cap ? n : cap - 1;
        memcpy(buf, t, k);
        buf[k] = '\0';
    }
    return n;
}

size_t koma_usi_move_write(const koma_position *pos, const koma_move *m, char *buf, size_t cap,
                           koma_error *err)
{
    uint32_t src = 0, dst;
    if (move_squares(pos, m, &src, &dst, "USI", err) != 0) return 0;
    char t[8];
    koma_sq d = koma_sq_from_square(&pos->shape, dst);
    if (d.file > 9) {
        koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "USI squares have one digit");
        return 0;
    }
    if (m->kind == KOMA_MOVE_DROP) {
        snprintf(t, sizeof t, "%c*%u%c", koma_piece_letter(m->piece) & ~0x20, d.file, 'a' + d.rank - 1);
        return copy_out(t, 4, buf, cap);
    }
    koma_sq o = koma_sq_from_square(&pos->shape, src);
    int n = snprintf(t, sizeof t, "%u%c%u%c%s", o.file, 'a' + o.rank - 1, d.file, 'a' + d.rank - 1,
                     promotes(pos, m, src) ? "+" : "");
    return copy_out(t, (size_t)n, buf, cap);
}

int koma_fen_move_parse(const koma_position *pos, const char *s, size_t len, koma_move *out,
                        koma_error *err)
{
    koma_cell c1, c2;
    uint32_t a, b;
    if (len >= 3 && s[1] == '@') {
        if (!KOMA_IS_UPPER(s[0])) return koma__error_token(err, KOMA_E_FEN_MOVE, 0, "invalid piece to drop", s, 1);
        size_t n = koma_cell_scan(s + 2, len - 2, &c2, NULL);
        if (n == 0 || n != len - 2 || koma_shape_square(&pos->shape, &c2, &b, NULL) != 0)
            return koma__error_token(err, KOMA_E_FEN_MOVE, 2, "invalid square", s + 2, len - 2);
        return drop_move(pos, s[0], b, KOMA_E_FEN_MOVE, s, len, out, err);
    }
    size_t n1 = koma_cell_scan(s, len, &c1, NULL);
    if (n1 == 0 || c1.ndims != 2 || koma_shape_square(&pos->shape, &c1, &a, NULL) != 0)
        return koma__error_token(err, KOMA_E_FEN_MOVE, 0, "invalid square", s, len);
    size_t n2 = koma_cell_scan(s + n1, len - n1, &c2, NULL);
    if (n2 == 0 || c2.ndims != 2 || koma_shape_square(&pos->shape, &c2, &b, NULL) != 0)
        return koma__error_token(err, KOMA_E_FEN_MOVE, n1, "invalid square", s + n1, len - n1);
    size_t rest = len - n1 - n2;
    int promote = rest == 1 && s[len - 1] == '+';
    if (rest > 1 || (rest == 1 && s[len - 1] != '+' && s[len - 1] != '='))
        return koma__error_token(err, KOMA_E_FEN_MOVE, n1 + n2, "unexpected suffix", s + n1 + n2, rest);
    return board_move(pos, a, b, promote, KOMA_E_FEN_MOVE, s, len, out, err);
}

size_t koma_fen_move_write(const koma_position *pos, const koma_move *m, char *buf, size_t cap,
                           koma_error *err)
{
    uint32_t src = 0, dst;
    if (move_squares(pos, m, &src, &dst, "Fairy-Stockfish", err) != 0) return 0;
    char t[32], a[KOMA_CELL_BUF], b[KOMA_CELL_BUF];
    koma_cell_write(&m->dst, b);
    int n;
    if (m->kind == KOMA_MOVE_DROP) {
        n = snprintf(t, sizeof t, "%c@%s", koma_piece_letter(m->piece) & ~0x20, b);
    } else {
        koma_cell_write(&m->src, a);
        n = snprintf(t, sizeof t, "%s%s%s", a, b, promotes(pos, m, src) ? "+" : "");
    }
    return copy_out(t, (size_t)n, buf, cap);
}

/* ---- Fairy-Stockfish FEN ------------------------------------------------------------ */

int koma_fen_parse(const char *s, size_t len, koma_position *pos, koma_error *err)
{
    const char *lb = memchr(s, '[', len);
    const char *sp = memchr(s, ' ', len);
    if (lb == NULL || (sp && sp < lb))
        return koma_error_set(err, KOMA_E_FEN_SYNTAX, sp ? (size_t)(sp - s) : len,
                              "the hands must follow the board in brackets: board[hands]");
    size_t bl = (size_t)(lb - s);
    if (parse_board(s, bl, 1, KOMA_E_FEN_SYNTAX, pos, err) != 0) return -1;
    const char *rb = memchr(lb, ']', len - bl);
    if (rb == NULL) return koma_error_set(err, KOMA_E_FEN_SYNTAX, len, "no ']' closing the hands");
    for (const char *p = lb + 1; p < rb; p++) {
        if (*p == '-' && rb - lb == 2) break;
        if (!KOMA_IS_ALPHA(*p) || (*p & ~0x20) == 'K')
            return koma__error_token(err, KOMA_E_FEN_SYNTAX, (size_t)(p - s), "invalid piece in hand", p, 1);
        koma_piece q = koma_piece_from_letter(*p);
        if (koma_hand_add(&pos->hands[koma_piece_side(q)], q, 1, err) != 0) return -1;
    }
    if (pieces_fit(pos, KOMA_E_FEN_SYNTAX, bl + 1, err) != 0) return -1;
    size_t i = (size_t)(rb - s) + 1;
    if (i >= len || s[i] != ' ' || i + 1 >= len || (s[i + 1] != 'w' && s[i + 1] != 'b') ||
        (i + 2 < len && s[i + 2] != ' '))
        return koma_error_set(err, KOMA_E_FEN_SYNTAX, i < len ? i + 1 : len, "side to move must be w or b");
    pos->turn = s[i + 1] == 'w' ? KOMA_FIRST : KOMA_SECOND;
    /* the rest (castling, en passant, clocks) is not used */
    for (size_t k = i + 2; k < len; k++)
        if ((unsigned char)s[k] < 0x20 || (unsigned char)s[k] > 0x7e)
            return koma_error_set(err, KOMA_E_FEN_SYNTAX, k, "unexpected byte");
    return 0;
}

static int fen_put(const koma_position *pos, unsigned long fullmove, koma_buffer *b, koma_error *err)
{
    if (game_check(pos, 1, err) != 0) return -1;
    if (write_board(pos, b, "Fairy-Stockfish FEN", err) != 0) return -1;
    if (koma__buf_put(b, "[", 1, err)) return -1;
    const char *order = fen_hand_order(pos->style[0]);
    for (int side = 0; side < 2; side++) {
        const koma_hand *h = &pos->hands[side];
        for (size_t i = 0; i < h->len; i++) {
            if (check_hand_piece(&h->items[i], err, "Fairy-Stockfish") != 0) return -1;
            if (!strchr(order, koma_piece_letter(h->items[i].piece) & ~0x20))
                return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "no Fairy-Stockfish hand piece %c",
                                      koma_piece_letter(h->items[i].piece));
        }
        for (const char *o = order; *o; o++) {
            koma_piece p = koma_piece_from_letter(side ? (char)(*o | 0x20) : *o);
            uint32_t n = koma_hand_count(h, p);
            char c = koma_piece_letter(p);
            for (uint32_t k = 0; k < n; k++)
                if (koma__buf_put(b, &c, 1, err)) return -1;
        }
    }
    return koma__buf_printf(b, err, "] %c - - 0 %lu", pos->turn == KOMA_FIRST ? 'w' : 'b', fullmove);
}

size_t koma_fen_write(const koma_position *pos, unsigned long fullmove, char *buf, size_t cap,
                      koma_error *err)
{
    koma_buffer b = {0};
    size_t n = 0;
    if (fen_put(pos, fullmove, &b, err) == 0) n = copy_out(b.data, b.len, buf, cap);
    koma_buffer_cleanup(&b);
    return n;
}

/* ---- the line formats --------------------------------------------------------------------- */

static int line_has(const char *s, size_t len, size_t lines, int (*fn)(const char *, size_t))
{
    size_t i = 0, seen = 0, ok = 0;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) i = 3;
    while (i < len && seen < lines) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
        if (!nl && len - i > 4000) break;
        size_t m = n;
        if (m && s[i + m - 1] == '\r') m--;
        int blank = 1;
        for (size_t k = 0; k < m; k++)
            if (s[i + k] != ' ' && s[i + k] != '\t') blank = 0;
        if (!blank && s[i] != '#') {
            seen++;
            if (fn(s + i, m)) ok++;
            else return 0;
        }
        if (!nl) break;
        i += n + 1;
    }
    return seen > 0 && ok == seen;
}

static int is_feen_line(const char *s, size_t n)
{
    size_t sp = 0;
    for (size_t i = 0; i < n; i++) sp += s[i] == ' ';
    return sp == 2 && n > 4 && s[n - 2] == '/' && KOMA_IS_ALPHA(s[n - 1]) && KOMA_IS_ALPHA(s[n - 3]);
}

static int is_sfen_line(const char *s, size_t n)
{
    const char *sp = memchr(s, ' ', n);
    if (sp == NULL || sp + 2 >= s + n || (sp[1] != 'b' && sp[1] != 'w') || sp[2] != ' ') return 0;
    size_t slashes = 0;
    for (const char *p = s; p < sp; p++) slashes += *p == '/';
    return slashes == 8 || slashes == 4;
}

static int is_fen_line(const char *s, size_t n)
{
    const char *lb = memchr(s, '[', n);
    const char *sp = memchr(s, ' ', n);
    return lb && sp && lb < sp && sp[-1] == ']';
}

static int is_usi_move(const char *s, size_t n)
{
    return (n == 4 || n == 5) && ((KOMA_IS_DIGIT(s[0]) && KOMA_IS_LOWER(s[1]) && KOMA_IS_DIGIT(s[2]) &&
                                   KOMA_IS_LOWER(s[3]) && (n == 4 || s[4] == '+')) ||
                                  (n == 4 && KOMA_IS_UPPER(s[0]) && s[1] == '*'));
}

static int is_pmn_line(const char *s, size_t n)
{
    koma_move m;
    return koma_pmn_parse(s, n, &m, NULL) == 0;
}

static int is_fen_move(const char *s, size_t n)
{
    if (n >= 3 && s[1] == '@' && KOMA_IS_UPPER(s[0])) return 1;
    if (n < 4 || !KOMA_IS_LOWER(s[0]) || !KOMA_IS_DIGIT(s[1])) return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '-' || s[i] == '*' || s[i] == ' ') return 0;
    return 1;
}

static int detect_feen(const char *s, size_t len, int at_end) { (void)at_end; return line_has(s, len, 4, is_feen_line) ? 3 : 0; }
static int detect_sfen(const char *s, size_t len, int at_end) { (void)at_end; return line_has(s, len, 4, is_sfen_line) ? 3 : 0; }
static int detect_fen(const char *s, size_t len, int at_end) { (void)at_end; return line_has(s, len, 4, is_fen_line) ? 3 : 0; }
static int detect_usi_move(const char *s, size_t len, int at_end) { (void)at_end; return line_has(s, len, 8, is_usi_move) ? 2 : 0; }
static int detect_pmn(const char *s, size_t len, int at_end) { (void)at_end; return line_has(s, len, 8, is_pmn_line) ? 1 : 0; }
static int detect_fen_move(const char *s, size_t len, int at_end) { (void)at_end; return line_has(s, len, 8, is_fen_move) ? 1 : 0; }

static int read_feen(koma_hub *h, const char *s, size_t len, unsigned flags, koma_position *pos, koma_error *err)
{
    (void)h;
    return koma_feen_parse(s, len, flags, pos, err);
}

static int read_sfen(koma_hub *h, const char *s, size_t len, unsigned flags, koma_position *pos, koma_error *err)
{
    (void)h;
    (void)flags;
    return koma_sfen_parse(s, len, pos, err);
}

static int read_fen(koma_hub *h, const char *s, size_t len, unsigned flags, koma_position *pos, koma_error *err)
{
    (void)h;
    (void)flags;
    return koma_fen_parse(s, len, pos, err);
}

static int write_feen(koma_hub *h, const koma_position *pos, const koma_game *g, const koma_move *last,
                      size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    (void)h, (void)g, (void)last, (void)ply, (void)index;
    char buf[KOMA_FEEN_MAX_LEN + 1];
    size_t n = koma_feen_write(pos, buf, sizeof buf);
    if (n >= sizeof buf) return koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, "FEEN exceeds 4096 bytes");
    buf[n++] = '\n';
    return koma__buf_put(out, buf, n, err);
}

static int write_fid(koma_hub *h, const koma_position *pos, const koma_game *g, const koma_move *last,
                     size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    (void)h, (void)g, (void)last, (void)ply, (void)index;
    char fid[KOMA_FID_BUF];
    if (koma_position_fid(pos, fid, err) != 0) return -1;
    fid[KOMA_FID_LEN] = '\n';
    return koma__buf_put(out, fid, KOMA_FID_LEN + 1, err);
}

static int write_sfen(koma_hub *h, const koma_position *pos, const koma_game *g, const koma_move *last,
                      size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    (void)h, (void)g, (void)last, (void)index;
    if (sfen_put(pos, (unsigned long)ply + 1, out, err) != 0) return -1;
    return koma__buf_put(out, "\n", 1, err);
}

static int write_fen(koma_hub *h, const koma_position *pos, const koma_game *g, const koma_move *last,
                     size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    (void)h, (void)g, (void)last, (void)index;
    if (fen_put(pos, (unsigned long)(ply / 2 + 1), out, err) != 0) return -1;
    return koma__buf_put(out, "\n", 1, err);
}

static int read_pmn(koma_hub *h, const koma_position *pos, const char *s, size_t len, koma_move *out,
                    koma_error *err)
{
    (void)h;
    if (koma_pmn_parse(s, len, out, err) != 0) return -1;
    if (koma_pmn_resolve(pos, out, err) != 0) return -1;
    return koma_pmn_check(pos, out, err);
}

static int read_usi_move(koma_hub *h, const koma_position *pos, const char *s, size_t len, koma_move *out,
                         koma_error *err)
{
    (void)h;
    return koma_usi_move_parse(pos, s, len, out, err);
}

static int read_fen_move(koma_hub *h, const koma_position *pos, const char *s, size_t len, koma_move *out,
                         koma_error *err)
{
    (void)h;
    return koma_fen_move_parse(pos, s, len, out, err);
}

static int write_pmn(koma_hub *h, const koma_position *pos, const koma_move *m, koma_buffer *out,
                     koma_error *err)
{
    (void)h, (void)pos;
    char buf[KOMA_PMN_BUF];
    size_t n = koma_pmn_write(m, buf);
    return koma__buf_put(out, buf, n, err);
}

static int write_usi_move(koma_hub *h, const koma_position *pos, const koma_move *m, koma_buffer *out,
                          koma_error *err)
{
    (void)h;
    char buf[16];
    size_t n = koma_usi_move_write(pos, m, buf, sizeof buf, err);
    return n ? koma__buf_put(out, buf, n, err) : -1;
}

static int write_fen_move(koma_hub *h, const koma_position *pos, const koma_move *m, koma_buffer *out,
                          koma_error *err)
{
    (void)h;
    char buf[32];
    size_t n = koma_fen_move_write(pos, m, buf, sizeof buf, err);
    return n ? koma__buf_put(out, buf, n, err) : -1;
}

#define SHOGI_START "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"

const koma_format koma__fmt_feen = {
    .name = "feen", .aliases = "", .title = "FEEN positions, one a line", .kind = KOMA_FORMAT_POSITION,
    .detect = detect_feen, .read_position = read_feen, .write_position = write_feen,
    .check = koma__check_feen, .check_title = "FEEN positions", .check_lines = 1,
};
const koma_format koma__fmt_fid = {
    .name = "fid", .aliases = "", .title = "FID fingerprints of positions (write only)",
    .kind = KOMA_FORMAT_POSITION, .write_position = write_fid,
    .check = koma__check_fid, .check_title = "FID position fingerprints", .check_lines = 1,
};
const koma_format koma__fmt_sfen = {
    .name = "sfen", .aliases = "", .title = "SFEN positions (Shogi, Minishogi), one a line",
    .kind = KOMA_FORMAT_POSITION, .detect = detect_sfen, .read_position = read_sfen,
    .write_position = write_sfen,
};
const koma_format koma__fmt_fen = {
    .name = "fen", .aliases = "fsf", .title = "Fairy-Stockfish FEN with [hands], one a line",
    .kind = KOMA_FORMAT_POSITION, .detect = detect_fen, .read_position = read_fen,
    .write_position = write_fen,
};
const koma_format koma__fmt_pmn = {
    .name = "pmn", .aliases = "", .title = "PMN moves, one a line (from --start)",
    .kind = KOMA_FORMAT_MOVES, .detect = detect_pmn, .read_move = read_pmn, .write_move = write_pmn,
    .check = koma__check_pmn, .check_title = "PMN moves", .check_lines = 1,
};
const koma_format koma__fmt_usi_move = {
    .name = "usi-move", .aliases = "", .title = "USI moves, one a line (from --start, else the shogi start)",
    .kind = KOMA_FORMAT_MOVES, .detect = detect_usi_move, .read_move = read_usi_move,
    .write_move = write_usi_move, .default_start = SHOGI_START,
};
const koma_format koma__fmt_fen_move = {
    .name = "fen-move", .aliases = "fsf-move uci-move",
    .title = "Fairy-Stockfish UCI moves, one a line (from --start, else the shogi start)",
    .kind = KOMA_FORMAT_MOVES, .detect = detect_fen_move, .read_move = read_fen_move,
    .write_move = write_fen_move, .default_start = SHOGI_START,
};
