/*
 * lib/feen.c — FEEN: strict parser and canonical writer (koma-formats(5), FEEN).
 *
 * The parser checks every rule of FEEN in the order of koma-formats(5), FEEN,
 * "Order of checks", and reports the first
 * failure with its feen.* code:
 *
 *   1. length > 4096                       feen.length at offset 4096
 *   2. a byte >= 0x80 anywhere             feen.ascii at the first such byte
 *   3. field split (exactly two spaces, no empty field)
 *   4. placement   5. hands   6. style-turn   7. cardinality
 *
 * Inside each field the scan runs left to right and stops at the first
 * failure, so an earlier fault in a field wins over a later one.
 *
 * COLUMN RULE. The offset (column - 1) is the byte where the input stops being
 * valid, i.e. the first byte such that no continuation of the input before it
 * can be valid; the end of a field (the space after it, or the end of the input)
 * when the field stops too early. For semantic errors (a fault that only shows
 * once a whole token, rank or layer is known) it is the start of the offending
 * token. Precisely:
 *
 *   feen.fields          "" -> 0; "K", "K /" (a field missing) -> end of input;
 *                        "K  / C/c" -> the second space (an empty field);
 *                        "K / " (empty last field) -> end of input;
 *                        a third space (trailing space, 4th field) -> that space.
 *   feen.placement.empty the input starts with a space (empty first field) -> 0.
 *   feen.placement.start the leading '/' (offset 0).
 *   feen.placement.end   the end of the placement field (the space after the
 *                        trailing separator run).
 *   feen.placement.dimensions  the third '/' of a run of three or more.
 *   feen.placement.count the '0' that starts an empty-square count ("0", "01").
 *   feen.placement.piece the byte where no EPIN token can continue: the byte
 *                        itself for "@", "^", "'"; the byte after a lone '+'/'-'
 *                        ("+@" -> the '@', "K+ " -> the space); "K'^" -> the '^'
 *                        (the token "K'" is complete, '^' cannot start one).
 *   feen.placement.size  the token that makes a rank longer than 255 squares,
 *                        or the first token of the 256th rank of a layer (of the
 *                        board in 2-D), or of the 256th layer.
 *   feen.placement.squares  the token that brings the board past 65025 squares.
 *   feen.placement.irregular  the first token of the first rank whose length
 *                        differs from the first rank's (checked when the rank ends).
 *   feen.placement.coherence  the first token of the offending layer: a layer
 *                        with a single rank, or whose rank count differs from
 *                        the first layer's (checked when the layer ends).
 *   feen.hand.delimiter  checked before the items, over the whole field (as
 *                        feen.rb does, so "PP" is a delimiter error): no '/' ->
 *                        the end of the field; a second '/' -> that '/'.
 *   feen.hand.count      the first byte of the count: "0P", "02P", "1P", and a
 *                        count followed by no piece ("2/", "P2").
 *   feen.hand.piece      as feen.placement.piece.
 *   feen.hand.aggregate  the start (count included) of the item repeating an
 *                        identity already in the same hand ("PP" -> the second P,
 *                        "2PBP" -> the last P); checked before the order.
 *   feen.hand.order      the start of the first item that is not after its
 *                        predecessor in canonical order ("2P3B" -> "3B", "pP" -> "P").
 *   feen.style.*         left to right over "X/y": a non-letter where a letter is
 *                        due -> feen.style.token at it (also an empty token);
 *                        byte 1 not '/': feen.style.token at 1 when a '/' follows
 *                        later ("CC/c": first token too long), else
 *                        feen.style.delimiter at 1 ("Cc", "C"); a second '/' ->
 *                        feen.style.delimiter at it; a 4th byte -> feen.style.token
 *                        at it ("C/cc"); same case -> feen.style.case at offset 2
 *                        of the field (the second letter).
 *   feen.cardinality     the hand item whose count brings board pieces + hand
 *                        pieces (first hand, then second, in input order) past
 *                        the number of squares (board pieces alone never can).
 *
 * Counts saturate (no overflow): a huge empty-square count gives
 * feen.placement.size, a huge hand count feen.cardinality, whose message then
 * says a count is past 2^32-1 rather than give the saturated total.
 *
 * With KOMA_FEEN_NORMALISE, repeated identities in a hand are merged (counts
 * added, saturating) and the order of items is free; every other rule, including
 * the count syntax ("1P" stays invalid), stays strict.
 *
 * The position's buffers are reused: a parse allocates only when the board or a
 * hand is bigger than any seen before in that position. On error the position
 * is left empty (no squares, empty hands) but keeps its buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NO_OFFSET ((size_t)-1)

/* ---- errors ----------------------------------------------------------------- */

/* End of a token for quoting in messages: up to a separator or 16 bytes. */
static size_t quote_end(const char *s, size_t from, size_t to)
{
    size_t i = from;
    while (i < to && i - from < 16 && s[i] != ' ' && s[i] != '/') i++;
    return i;
}

static int fail(koma_position *pos, koma_error *err, koma_code code, size_t offset,
                const char *text, const char *s, size_t tok, size_t tok_end)
{
    pos->shape.ndims = 0;
    pos->shape.size[0] = pos->shape.size[1] = pos->shape.size[2] = 0;
    pos->shape.squares = 0;
    pos->hands[0].len = 0;
    pos->hands[1].len = 0;
    if (err == NULL) return -1;
    if (tok_end > tok)
        return koma__error_token(err, code, offset, text, s + tok, tok_end - tok);
    return koma_error_set(err, code, offset, "%s", text ? text : koma_strerror(code));
}

/* ---- EPIN scanning -------------------------------------------------------- */

/*
 * Every field but the last is followed by a space, which no token contains: the
 * placement and hands scanners use it as a sentinel and read s[n] instead of
 * testing i < n before each byte.
 */
#define U_(c) [c] = (koma_piece)((c) - 'A' + 1)
#define L_(c) [c] = (koma_piece)(((c) - 'a' + 1) | KOMA_PIECE_SECOND)
static const koma_piece letter_piece[256] = {
    U_('A'), U_('B'), U_('C'), U_('D'), U_('E'), U_('F'), U_('G'), U_('H'), U_('I'),
    U_('J'), U_('K'), U_('L'), U_('M'), U_('N'), U_('O'), U_('P'), U_('Q'), U_('R'),
    U_('S'), U_('T'), U_('U'), U_('V'), U_('W'), U_('X'), U_('Y'), U_('Z'),
    L_('a'), L_('b'), L_('c'), L_('d'), L_('e'), L_('f'), L_('g'), L_('h'), L_('i'),
    L_('j'), L_('k'), L_('l'), L_('m'), L_('n'), L_('o'), L_('p'), L_('q'), L_('r'),
    L_('s'), L_('t'), L_('u'), L_('v'), L_('w'), L_('x'), L_('y'), L_('z'),
};
#undef U_
#undef L_

/*
 * Scan one EPIN token at s[i] (s[n] is the sentinel space): [+-]? letter ^? '?
 * (greedy). Returns the end of the token, or NO_OFFSET with *bad set to the
 * byte where it fails.
 */
static inline size_t scan_epin(const char *s, size_t i, koma_piece *out, size_t *bad)
{
    unsigned char c = (unsigned char)s[i];
    koma_piece p = letter_piece[c];
    if (p == 0) {
        if (c != '+' && c != '-') { *bad = i; return NO_OFFSET; }
        p = letter_piece[(unsigned char)s[i + 1]];
        if (p == 0) { *bad = i + 1; return NO_OFFSET; }
        p |= c == '+' ? KOMA_PIECE_ENHANCED : KOMA_PIECE_DIMINISHED;
        i++;
    }
    i++;
    if (s[i] == '^') { p |= KOMA_PIECE_TERMINAL; i++; }
    if (s[i] == '\'') { p |= KOMA_PIECE_DERIVED; i++; }
    *out = p;
    return i;
}

/* ---- buffers ---------------------------------------------------------------- */

static int board_grow(koma_position *pos, size_t need)
{
    size_t cap = pos->board_cap ? pos->board_cap * 2 : 128;
    if (cap < need) cap = need;
    if (cap > KOMA_MAX_SQUARES) cap = need > KOMA_MAX_SQUARES ? need : KOMA_MAX_SQUARES;
    koma_piece *b = realloc(pos->board, cap * sizeof *b);
    if (b == NULL) return -1;
    pos->board = b;
    pos->board_cap = cap;
    return 0;
}

static int hand_grow(koma_hand *hand)
{
    size_t cap = hand->cap ? hand->cap * 2 : 8;
    koma_hand_item *items = realloc(hand->items, cap * sizeof *items);
    if (items == NULL) return -1;
    hand->items = items;
    hand->cap = cap;
    return 0;
}

/* ---- placement -------------------------------------------------------------- */

/*
 * Parse s[0..n) (n > 0, s[n] == ' ') into pos->board and pos->shape; *pieces
 * gets the number of pieces on the board.
 */
static int parse_placement(const char *s, size_t n, koma_position *pos, uint32_t *pieces,
                           koma_error *err)
{
    koma_piece *board = pos->board;
    /*
     * lim: squares the buffer can take now (at most 65025). rank_lim: the index
     * at which the current rank or the buffer is full; below it a square is
     * stored with no other check. cur (squares in the rank) = total - rank_base.
     */
    uint32_t lim = pos->board_cap < KOMA_MAX_SQUARES ? (uint32_t)pos->board_cap : KOMA_MAX_SQUARES;
    uint32_t total = 0, rank_base = 0, files = 0, empties = 0;
    uint32_t rank_lim = lim < KOMA_MAX_DIMENSION ? lim : KOMA_MAX_DIMENSION;
    unsigned ranks = 1, rpl = 0, layers = 1, dim = 1;
    size_t rank_start = 0, layer_start = 0, i = 0;

    if (s[0] == '/')
        return fail(pos, err, KOMA_E_FEEN_PLACEMENT_START, 0, NULL, s, 0, 0);

    for (;;) {
        unsigned char c = (unsigned char)s[i];
        koma_piece p = letter_piece[c];
        size_t t = i;
        if (p != 0 || c == '+' || c == '-') {
            /* a piece: the common case */
            if (p != 0) {
                i++;
                if (s[i] == '^') { p |= KOMA_PIECE_TERMINAL; i++; }
                if (s[i] == '\'') { p |= KOMA_PIECE_DERIVED; i++; }
            } else {
                size_t bad = 0;
                i = scan_epin(s, i, &p, &bad);
                if (i == NO_OFFSET)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_PIECE, bad, NULL, s, t,
                                bad < n ? quote_end(s, bad + 1, n) : n);
            }
            if (total >= rank_lim) {
                if (total - rank_base >= KOMA_MAX_DIMENSION)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_SIZE, t,
                                "rank exceeds 255 squares", s, t, i);
                if (total >= KOMA_MAX_SQUARES)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_SQUARES, t, NULL, s, t, i);
                if (board_grow(pos, (size_t)total + 1) != 0)
                    return fail(pos, err, KOMA_E_MEMORY, t, NULL, s, 0, 0);
                board = pos->board;
                lim = pos->board_cap < KOMA_MAX_SQUARES ? (uint32_t)pos->board_cap
                                                         : KOMA_MAX_SQUARES;
                rank_lim = rank_base + KOMA_MAX_DIMENSION < lim ? rank_base + KOMA_MAX_DIMENSION
                                                                : lim;
            }
            board[total++] = p;
        } else if (c >= '1' && c <= '9') {
            uint32_t v = (uint32_t)(c - '0');
            for (i++; KOMA_IS_DIGIT(s[i]); i++)
                if (v < 1000000u) v = v * 10u + (uint32_t)(s[i] - '0');
            if (total - rank_base + v > KOMA_MAX_DIMENSION)
                return fail(pos, err, KOMA_E_FEEN_PLACEMENT_SIZE, t,
                            "rank exceeds 255 squares", s, t, i);
            if (total + v > lim) {
                if (total + v > KOMA_MAX_SQUARES)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_SQUARES, t, NULL, s, t, i);
                if (board_grow(pos, (size_t)total + v) != 0)
                    return fail(pos, err, KOMA_E_MEMORY, t, NULL, s, 0, 0);
                board = pos->board;
                lim = pos->board_cap < KOMA_MAX_SQUARES ? (uint32_t)pos->board_cap
                                                         : KOMA_MAX_SQUARES;
                rank_lim = rank_base + KOMA_MAX_DIMENSION < lim ? rank_base + KOMA_MAX_DIMENSION
                                                                : lim;
            }
            if (v <= 8 && total + 8 <= lim) {
                /* one 16-byte store; the squares past v are overwritten later */
                static const koma_piece zero8[8] = {0};
                memcpy(board + total, zero8, sizeof zero8);
            } else {
                memset(board + total, 0, v * sizeof *board);
            }
            total += v;
            empties += v;
        } else if (c == '/') {
            i++;
            unsigned run = 1;
            if (s[i] == '/') {
                run = 2;
                i++;
                if (s[i] == '/')
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_DIMENSIONS, i,
                                "board exceeds 3 dimensions (a run of 3 '/')", s, 0, 0);
            }
            if (i == n)
                return fail(pos, err, KOMA_E_FEEN_PLACEMENT_END, n, NULL, s, 0, 0);
            uint32_t cur = total - rank_base;
            if (files == 0) files = cur;
            else if (cur != files)
                return fail(pos, err, KOMA_E_FEEN_PLACEMENT_IRREGULAR, rank_start,
                            "rank length differs from the first rank's", s, rank_start,
                            quote_end(s, rank_start, n));
            rank_base = total;
            rank_lim = rank_base + KOMA_MAX_DIMENSION < lim ? rank_base + KOMA_MAX_DIMENSION : lim;
            if (run == 1) {
                if (dim < 2) dim = 2;
                if (++ranks > KOMA_MAX_DIMENSION)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_SIZE, i,
                                "more than 255 ranks", s, i, quote_end(s, i, n));
            } else {
                if (ranks < 2)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_COHERENCE, layer_start,
                                "layer with a single rank", s, layer_start,
                                quote_end(s, layer_start, n));
                if (rpl == 0) rpl = ranks;
                else if (ranks != rpl)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_COHERENCE, layer_start,
                                "layer rank count differs from the first layer's", s,
                                layer_start, quote_end(s, layer_start, n));
                dim = 3;
                ranks = 1;
                layer_start = i;
                if (++layers > KOMA_MAX_DIMENSION)
                    return fail(pos, err, KOMA_E_FEEN_PLACEMENT_SIZE, i,
                                "more than 255 layers", s, i, quote_end(s, i, n));
            }
            rank_start = i;
        } else if (i == n) {
            break;
        } else if (c == '0') {
            size_t e = i + 1;
            while (KOMA_IS_DIGIT(s[e])) e++;
            return fail(pos, err, KOMA_E_FEEN_PLACEMENT_COUNT, i,
                        e == i + 1 ? "zero empty-square count"
                                   : "empty-square count with a leading zero",
                        s, i, e);
        } else {
            return fail(pos, err, KOMA_E_FEEN_PLACEMENT_PIECE, i, NULL, s, i,
                        quote_end(s, i + 1, n));
        }
    }

    uint32_t cur = total - rank_base;
    if (files == 0) files = cur;
    else if (cur != files)
        return fail(pos, err, KOMA_E_FEEN_PLACEMENT_IRREGULAR, rank_start,
                    "rank length differs from the first rank's", s, rank_start,
                    quote_end(s, rank_start, n));
    if (dim == 3) {
        if (ranks < 2)
            return fail(pos, err, KOMA_E_FEEN_PLACEMENT_COHERENCE, layer_start,
                        "layer with a single rank", s, layer_start, quote_end(s, layer_start, n));
        if (ranks != rpl)
            return fail(pos, err, KOMA_E_FEEN_PLACEMENT_COHERENCE, layer_start,
                        "layer rank count differs from the first layer's", s, layer_start,
                        quote_end(s, layer_start, n));
    }

    pos->shape.ndims = (uint8_t)dim;
    pos->shape.size[0] = (uint16_t)files;
    pos->shape.size[1] = (uint16_t)(dim == 1 ? 1 : dim == 2 ? ranks : rpl);
    pos->shape.size[2] = (uint16_t)(dim == 3 ? layers : 1);
    pos->shape.squares = total;
    *pieces = total - empties;
    return 0;
}

/* ---- hands ------------------------------------------------------------------ */

/*
 * Parse the hands field s[from..to) (s[to] == ' '). *total enters with the number of board
 * pieces and leaves with all pieces (saturating); card[0..1) gets the first item
 * that brings it past squares, whole (cardinality is reported last).
 */
static int parse_hands(const char *s, size_t from, size_t to, unsigned flags,
                       koma_position *pos, uint64_t *total, uint32_t squares,
                       size_t card[2], int *huge, koma_error *err)
{
    const int strict = !(flags & KOMA_FEEN_NORMALISE);
    size_t i = from;
    koma_hand *hand = &pos->hands[0];
    uint32_t prev_count = 0;
    unsigned prev_key = 0;
    int have_prev = 0;
    uint64_t sum = *total;

    /* The delimiter first (the order of checks puts it first): exactly one '/'. */
    const char *slash = memchr(s + from, '/', to - from);
    if (slash == NULL)
        return fail(pos, err, KOMA_E_FEEN_HAND_DELIMITER, to,
                    "hands field needs exactly one '/' (none found)", s, from, to);
    size_t cut = (size_t)(slash - s);
    const char *slash2 = memchr(slash + 1, '/', to - cut - 1);
    if (slash2 != NULL)
        return fail(pos, err, KOMA_E_FEEN_HAND_DELIMITER, (size_t)(slash2 - s),
                    "hands field needs exactly one '/' (second '/')", s, from, to);

    for (;;) {
        if (i == to) break;
        char c = s[i];
        if (c == '/') {
            hand = &pos->hands[1];
            have_prev = 0;
            i++;
            continue;
        }
        size_t t = i;
        uint32_t v = 1;
        if (KOMA_IS_DIGIT(c)) {
            v = (uint32_t)(c - '0');
            for (i++; KOMA_IS_DIGIT(s[i]); i++) {
                uint32_t d = (uint32_t)(s[i] - '0');
                if (v > (UINT32_MAX - d) / 10u) *huge = 1;
                v = v > (UINT32_MAX - d) / 10u ? UINT32_MAX : v * 10u + d;
            }
            if (c == '0')
                return fail(pos, err, KOMA_E_FEEN_HAND_COUNT, t,
                            i == t + 1 ? "hand count of zero" : "hand count with a leading zero",
                            s, t, quote_end(s, t, to));
            if (v == 1)
                return fail(pos, err, KOMA_E_FEEN_HAND_COUNT, t,
                            "hand count 1 must be implicit", s, t, quote_end(s, t, to));
            if (i == to || s[i] == '/')
                return fail(pos, err, KOMA_E_FEEN_HAND_COUNT, t, "hand count without a piece",
                            s, t, i);
        }
        size_t bad = 0;
        koma_piece p = 0;
        size_t e = scan_epin(s, i, &p, &bad);
        if (e == NO_OFFSET)
            return fail(pos, err, KOMA_E_FEEN_HAND_PIECE, bad, NULL, s, i,
                        bad < to ? quote_end(s, bad + 1, to) : to);
        i = e;
        unsigned key = koma__hand_key(p);

        /* Binary search of the identity in the hand (kept sorted by key). */
        size_t lo = 0, hi = hand->len;
        int found = 0;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            unsigned k = koma__hand_key(hand->items[mid].piece);
            if (k == key) { found = 1; lo = mid; break; }
            if (k < key) lo = mid + 1;
            else hi = mid;
        }
        if (found) {
            if (strict)
                return fail(pos, err, KOMA_E_FEEN_HAND_AGGREGATE, t,
                            "hand items not aggregated", s, t, i);
            uint32_t old = hand->items[lo].count;
            if (old > UINT32_MAX - v) *huge = 1;
            hand->items[lo].count = old > UINT32_MAX - v ? UINT32_MAX : old + v;
        } else {
            if (strict && have_prev &&
                !(v < prev_count || (v == prev_count && key > prev_key)))
                return fail(pos, err, KOMA_E_FEEN_HAND_ORDER, t,
                            "hand items not in canonical order", s, t, i);
            if (hand->len == hand->cap && hand_grow(hand) != 0)
                return fail(pos, err, KOMA_E_MEMORY, t, NULL, s, 0, 0);
            if (lo < hand->len)
                memmove(hand->items + lo + 1, hand->items + lo,
                        (hand->len - lo) * sizeof *hand->items);
            hand->items[lo].piece = p;
            hand->items[lo].count = v;
            hand->len++;
        }
        prev_count = v;
        prev_key = key;
        have_prev = 1;
        sum += v;
        if (sum > squares && card[0] == NO_OFFSET) {
            card[0] = t;
            card[1] = i;
        }
    }
    *total = sum;
    return 0;
}

/* ---- style-turn ------------------------------------------------------------- */

static int parse_style(const char *s, size_t from, size_t to, koma_position *pos,
                       koma_error *err)
{
    size_t n = to - from;
    const char *f = s + from;
    if (!KOMA_IS_ALPHA(f[0]))
        return fail(pos, err, KOMA_E_FEEN_STYLE_TOKEN, from, "style token must be one letter",
                    s, from, to);
    if (n < 2)
        return fail(pos, err, KOMA_E_FEEN_STYLE_DELIMITER, to, NULL, s, from, to);
    if (f[1] != '/') {
        int slash_later = memchr(f + 2, '/', n - 2) != NULL;
        return fail(pos, err, slash_later ? KOMA_E_FEEN_STYLE_TOKEN : KOMA_E_FEEN_STYLE_DELIMITER,
                    from + 1, slash_later ? "style token must be one letter" : NULL, s, from, to);
    }
    if (n < 3)
        return fail(pos, err, KOMA_E_FEEN_STYLE_TOKEN, to, "empty style token", s, from, to);
    if (f[2] == '/')
        return fail(pos, err, KOMA_E_FEEN_STYLE_DELIMITER, from + 2, NULL, s, from, to);
    if (!KOMA_IS_ALPHA(f[2]))
        return fail(pos, err, KOMA_E_FEEN_STYLE_TOKEN, from + 2, "style token must be one letter",
                    s, from, to);
    if (n > 3)
        return fail(pos, err, f[3] == '/' ? KOMA_E_FEEN_STYLE_DELIMITER : KOMA_E_FEEN_STYLE_TOKEN,
                    from + 3, f[3] == '/' ? NULL : "style token must be one letter", s, from, to);
    int up0 = KOMA_IS_UPPER(f[0]), up2 = KOMA_IS_UPPER(f[2]);
    if (up0 == up2)
        return fail(pos, err, KOMA_E_FEEN_STYLE_CASE, from + 2, NULL, s, from, to);
    pos->turn = up0 ? KOMA_FIRST : KOMA_SECOND;
    pos->style[0] = up0 ? f[0] : f[2];
    pos->style[1] = up0 ? f[2] : f[0];
    return 0;
}

/* ---- fast path ---------------------------------------------------------------- */

#define FAST_SQUARES 1024u             /* boards up to this size take the fast path */

/*
 * One pass over a FEEN that is valid in the common way: a 1-D or 2-D board of at
 * most FAST_SQUARES squares, counts below 1000, strict hands. Returns 1 with pos
 * filled exactly as the careful parser would fill it, or 0 when the input is not
 * of that kind or not valid: the careful parser then decides (and gives the first
 * error in the order of checks). It only accepts what every rule accepts, so the
 * order of the checks does not matter here.
 */
static int parse_fast(const char *s, size_t len, koma_position *pos)
{
    /* style-turn: the last four bytes are " X/y", letters of different case */
    if (len < 5 || s[len - 4] != ' ' || s[len - 2] != '/') return 0;
    char f0 = s[len - 3], f2 = s[len - 1];
    if (!KOMA_IS_ALPHA(f0) || !KOMA_IS_ALPHA(f2) || KOMA_IS_UPPER(f0) == KOMA_IS_UPPER(f2))
        return 0;
    if (s[0] == '/' || s[0] == ' ') return 0;
    /* room for FAST_SQUARES and a 16-square store past the last */
    if (pos->board_cap < FAST_SQUARES + 16 && board_grow(pos, FAST_SQUARES + 16) != 0) return 0;

    /* placement, up to the first space (s[len - 4] is one: every loop stops) */
    koma_piece *board = pos->board;
    uint32_t total = 0, rank_base = 0, files = 0, ranks = 1, pieces = 0;
    size_t i = 0;
    for (;;) {
        unsigned char c = (unsigned char)s[i];
        koma_piece p = letter_piece[c];
        if (p != 0) {
            i++;
        } else if ((unsigned)(c - '1') < 9u) {
            uint32_t v = (uint32_t)(c - '0');
            i++;
            if (KOMA_IS_DIGIT(s[i])) {
                v = v * 10u + (uint32_t)(s[i++] - '0');
                if (KOMA_IS_DIGIT(s[i])) return 0;
            }
            if (v > 16 || total + v > FAST_SQUARES) return 0;
            /* fixed-size stores (no memset call); squares past v are written later */
            static const koma_piece zero16[16] = {0};
            memcpy(board + total, zero16, sizeof zero16);
            total += v;
            continue;
        } else if (c == '/') {
            i++;
            if (s[i] == '/') return 0;                  /* 3-D: the careful parser */
            uint32_t cur = total - rank_base;
            if (files == 0) files = cur;
            else if (cur != files) return 0;
            rank_base = total;
            ranks++;
            continue;
        } else if (c == ' ') {
            break;
        } else if (c == '+' || c == '-') {
            p = letter_piece[(unsigned char)s[i + 1]];
            if (p == 0) return 0;
            p |= c == '+' ? KOMA_PIECE_ENHANCED : KOMA_PIECE_DIMINISHED;
            i += 2;
        } else {
            return 0;
        }
        if (s[i] == '^') { p |= KOMA_PIECE_TERMINAL; i++; }
        if (s[i] == '\'') { p |= KOMA_PIECE_DERIVED; i++; }
        if (total >= FAST_SQUARES) return 0;
        board[total++] = p;
        pieces++;
    }
    uint32_t cur = total - rank_base;
    if (files == 0) files = cur;
    else if (cur != files) return 0;
    if (files == 0 || files > KOMA_MAX_DIMENSION || ranks > KOMA_MAX_DIMENSION) return 0;
    /* the placement's space is the one before the style ("K C/c": two fields): no
     * space ends the hands before the end of the input */
    if (i >= len - 4) return 0;

    /* hands, up to the next space, which must be the one before the style */
    koma_hand *hand = &pos->hands[0];
    pos->hands[0].len = 0;
    pos->hands[1].len = 0;
    uint64_t sum = pieces;
    uint32_t prev_count = 0;
    unsigned prev_key = 0, slashes = 0;
    int have_prev = 0;
    for (i++;;) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ') break;
        if (c == '/') {
            if (slashes++) return 0;
            hand = &pos->hands[1];
            have_prev = 0;
            i++;
            continue;
        }
        uint32_t v = 1;
        if ((unsigned)(c - '1') < 9u) {
            v = (uint32_t)(c - '0');
            for (i++; KOMA_IS_DIGIT(s[i]); i++) {
                if (v >= 100000u) return 0;
                v = v * 10u + (uint32_t)(s[i] - '0');
            }
            if (v == 1) return 0;
        }
        size_t bad;
        koma_piece p = 0;
        size_t e = scan_epin(s, i, &p, &bad);
        if (e == NO_OFFSET) return 0;
        i = e;
        unsigned key = koma__hand_key(p);
        if (have_prev && !(v < prev_count || (v == prev_count && key > prev_key))) return 0;
        /* insert in key order; a key already there is an aggregate fault */
        size_t lo = 0, hi = hand->len;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            unsigned k = koma__hand_key(hand->items[mid].piece);
            if (k == key) return 0;
            if (k < key) lo = mid + 1;
            else hi = mid;
        }
        if (hand->len == hand->cap && hand_grow(hand) != 0) return 0;
        if (lo < hand->len)
            memmove(hand->items + lo + 1, hand->items + lo, (hand->len - lo) * sizeof *hand->items);
        hand->items[lo].piece = p;
        hand->items[lo].count = v;
        hand->len++;
        prev_count = v;
        prev_key = key;
        have_prev = 1;
        sum += v;
    }
    if (i != len - 4 || slashes != 1 || sum > total) return 0;

    int up0 = KOMA_IS_UPPER(f0);
    pos->shape.ndims = (uint8_t)(ranks > 1 ? 2 : 1);
    pos->shape.size[0] = (uint16_t)files;
    pos->shape.size[1] = (uint16_t)ranks;
    pos->shape.size[2] = 1;
    pos->shape.squares = total;
    pos->turn = up0 ? KOMA_FIRST : KOMA_SECOND;
    pos->style[0] = up0 ? f0 : f2;
    pos->style[1] = up0 ? f2 : f0;
    return 1;
}

/* ---- parse ------------------------------------------------------------------ */

/* Offset of the first byte >= 0x80, or len. */
static size_t first_non_ascii(const char *s, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & UINT64_C(0x8080808080808080)) break;
    }
    for (; i < len; i++)
        if ((unsigned char)s[i] & 0x80u) return i;
    return len;
}

int koma_feen_parse(const char *s, size_t len, unsigned flags, koma_position *pos,
                    koma_error *err)
{
    if (pos == NULL)
        return koma_error_set(err, KOMA_E_INTERNAL, 0, "koma_feen_parse: NULL position");
    if (len > KOMA_FEEN_MAX_LEN)
        return fail(pos, err, KOMA_E_FEEN_LENGTH, KOMA_FEEN_MAX_LEN, NULL, s, 0, 0);
    if (len == 0 || s == NULL)
        return fail(pos, err, KOMA_E_FEEN_FIELDS, 0, "empty FEEN", s, 0, 0);
    if (!(flags & (KOMA_FEEN_NORMALISE | KOMA__FEEN_CAREFUL))) {
        if ((flags & KOMA_FEEN_CHECK_ONLY) && koma__feen_check(s, len)) return 0;
        if (parse_fast(s, len, pos)) return 0;
    }

    size_t bad = first_non_ascii(s, len);
    if (bad < len)
        return fail(pos, err, KOMA_E_FEEN_ASCII, bad, NULL, s, bad, bad + 1);

    /* Field split: exactly two spaces, no empty field. */
    const char *p1 = memchr(s, ' ', len);
    if (p1 == NULL)
        return fail(pos, err, KOMA_E_FEEN_FIELDS, len, "FEEN has 1 field, needs 3", s, 0, 0);
    size_t a = (size_t)(p1 - s);
    if (a == 0)
        return fail(pos, err, KOMA_E_FEEN_PLACEMENT_EMPTY, 0, NULL, s, 0, 0);
    const char *p2 = memchr(s + a + 1, ' ', len - a - 1);
    if (p2 == NULL)
        return fail(pos, err, KOMA_E_FEEN_FIELDS, len, "FEEN has 2 fields, needs 3", s, 0, 0);
    size_t b = (size_t)(p2 - s);
    if (b == a + 1)
        return fail(pos, err, KOMA_E_FEEN_FIELDS, b, "empty field (double space)", s, 0, 0);
    if (b + 1 == len)
        return fail(pos, err, KOMA_E_FEEN_FIELDS, len, "empty style-turn field", s, 0, 0);
    const char *p3 = memchr(s + b + 1, ' ', len - b - 1);
    if (p3 != NULL)
        return fail(pos, err, KOMA_E_FEEN_FIELDS, (size_t)(p3 - s),
                    "FEEN has more than 3 fields (extra space)", s, 0, 0);

    uint32_t board_pieces = 0;
    pos->hands[0].len = 0;
    pos->hands[1].len = 0;
    if (parse_placement(s, a, pos, &board_pieces, err) != 0) return -1;

    uint64_t total = board_pieces;
    size_t card[2] = { NO_OFFSET, NO_OFFSET };
    int huge = 0;                      /* a hand count saturated past UINT32_MAX */
    if (parse_hands(s, a + 1, b, flags, pos, &total, pos->shape.squares, card, &huge, err) != 0)
        return -1;
    if (parse_style(s, b + 1, len, pos, err) != 0) return -1;
    if (card[0] != NO_OFFSET) {
        char msg[128];
        if (huge)                      /* the saturated total would be a wrong number */
            snprintf(msg, sizeof msg,
                     "too many pieces for board size (a hand count past %lu, %lu square%s)",
                     (unsigned long)UINT32_MAX, (unsigned long)pos->shape.squares,
                     pos->shape.squares == 1 ? "" : "s");
        else
            snprintf(msg, sizeof msg, "too many pieces for board size (%llu piece%s, %lu square%s)",
                     (unsigned long long)total, total == 1 ? "" : "s",
                     (unsigned long)pos->shape.squares, pos->shape.squares == 1 ? "" : "s");
        return fail(pos, err, KOMA_E_FEEN_CARDINALITY, card[0], msg, s, card[0], card[1]);
    }
    return 0;
}

/* ---- write ------------------------------------------------------------------ */

struct out {
    char *buf;
    size_t cap, len;
};

static inline void put(struct out *o, char c)
{
    if (o->len + 1 < o->cap) o->buf[o->len] = c;
    o->len++;
}

static void put_uint(struct out *o, uint32_t v)
{
    char tmp[10];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10u); v /= 10u; } while (v != 0);
    while (n > 0) put(o, tmp[--n]);
}

static void put_piece(struct out *o, koma_piece p)
{
    if (p & KOMA_PIECE_ENHANCED) put(o, '+');
    else if (p & KOMA_PIECE_DIMINISHED) put(o, '-');
    put(o, koma_piece_letter(p));
    if (p & KOMA_PIECE_TERMINAL) put(o, '^');
    if (p & KOMA_PIECE_DERIVED) put(o, '\'');
}

/* Unchecked writers for the board, used when the buffer is known to be big enough. */
static char *raw_uint(char *w, uint32_t v)
{
    if (v < 10) { *w++ = (char)('0' + v); return w; }
    char tmp[10];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10u); v /= 10u; } while (v != 0);
    while (n > 0) *w++ = tmp[--n];
    return w;
}

static inline char *raw_piece(char *w, koma_piece p)
{
    if (p & KOMA_PIECE_STATE) *w++ = (p & KOMA_PIECE_ENHANCED) ? '+' : '-';
    *w++ = koma_piece_letter(p);
    if (p & KOMA_PIECE_TERMINAL) *w++ = '^';
    if (p & KOMA_PIECE_DERIVED) *w++ = '\'';
    return w;
}

/* The placement field: ranks joined by '/', layers by "//", runs of empties as counts. */
#define WRITE_BOARD(PIECE, UINT, BYTE)                                    \
    do {                                                                  \
        for (unsigned g = 0; g < layers; g++) {                           \
            if (g > 0) { BYTE('/'); BYTE('/'); }                          \
            for (unsigned r = 0; r < ranks; r++) {                        \
                if (r > 0) BYTE('/');                                     \
                uint32_t run = 0;                                         \
                for (unsigned f = 0; f < files; f++) {                    \
                    koma_piece p = *sq++;                                 \
                    if (p == KOMA_PIECE_NONE) { run++; continue; }        \
                    if (run > 0) { UINT(run); run = 0; }                  \
                    PIECE(p);                                             \
                }                                                         \
                if (run > 0) UINT(run);                                   \
            }                                                             \
        }                                                                 \
    } while (0)

/* Items by count descending; equal counts keep the stored (hand key) order. */
static void put_hand(struct out *o, const koma_hand *hand)
{
    uint64_t bound = (uint64_t)UINT32_MAX + 1u;
    for (;;) {
        uint32_t best = 0;
        for (size_t i = 0; i < hand->len; i++) {
            uint32_t c = hand->items[i].count;
            if (c < bound && c > best) best = c;
        }
        if (best == 0) break;
        for (size_t i = 0; i < hand->len; i++) {
            if (hand->items[i].count != best) continue;
            if (best >= 2) put_uint(o, best);
            put_piece(o, hand->items[i].piece);
        }
        bound = best;
    }
}

size_t koma_feen_write(const koma_position *pos, char *buf, size_t cap)
{
    struct out o = { buf, buf ? cap : 0, 0 };
    const koma_shape *sh = &pos->shape;
    unsigned files = sh->size[0];
    unsigned ranks = sh->ndims >= 2 ? sh->size[1] : 1;
    unsigned layers = sh->ndims >= 3 ? sh->size[2] : 1;
    const koma_piece *sq = pos->board;

    if (sh->squares > 0 && sq != NULL) {
        /* at most 4 bytes a square (a run of k empties takes at most k bytes), 2 per rank */
        size_t bound = (size_t)files * ranks * layers * 4u + (size_t)ranks * layers * 2u;
        if (o.cap > bound) {
            char *w = buf;
#define RAW_PIECE(p) (w = raw_piece(w, (p)))
#define RAW_UINT(v) (w = raw_uint(w, (v)))
#define RAW_BYTE(c) (*w++ = (c))
            WRITE_BOARD(RAW_PIECE, RAW_UINT, RAW_BYTE);
#undef RAW_PIECE
#undef RAW_UINT
#undef RAW_BYTE
            o.len = (size_t)(w - buf);
        } else {
#define OUT_PIECE(p) put_piece(&o, (p))
#define OUT_UINT(v) put_uint(&o, (v))
#define OUT_BYTE(c) put(&o, (c))
            WRITE_BOARD(OUT_PIECE, OUT_UINT, OUT_BYTE);
#undef OUT_PIECE
#undef OUT_UINT
#undef OUT_BYTE
        }
    }
    put(&o, ' ');
    put_hand(&o, &pos->hands[0]);
    put(&o, '/');
    put_hand(&o, &pos->hands[1]);
    put(&o, ' ');
    int first = pos->turn == KOMA_FIRST;
    put(&o, pos->style[first ? 0 : 1]);
    put(&o, '/');
    put(&o, pos->style[first ? 1 : 0]);
    if (o.cap > 0) o.buf[o.len < o.cap ? o.len : o.cap - 1] = '\0';
    return o.len;
}
