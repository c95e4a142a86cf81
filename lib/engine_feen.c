/*
 * lib/engine_feen.c — the mailbox engine's position written as FEEN straight
 * from its board and hands (koma_engine_feen: every judged record's final
 * position), without a koma_position made, filled and freed on the way: each
 * board code's text is a table made at the engine's creation. The bytes are
 * koma__mb_get_position's and koma_feen_write's (tests/unit/test_engine_feen.c
 * compares the two on random games of every playable game), which stay the
 * path when the buffer may be too small.
 */
#include <string.h>

#include "internal.h"
#include "engine_internal.h"

void koma__mb_feen_table(koma_engine *e)
{
    for (unsigned c = 0; c < KOMA__FEEN_CODES; c++) {
        int k = KOMA__KIND(c);
        e->feen_len[c] = 0;
        e->feen_key[c] = 0;
        if (k < 0 || (unsigned)k >= e->game->nkinds) continue;
        koma_piece p = koma__piece_of_code(e, c);
        char *w = e->feen_text[c];
        uint8_t n = 0;
        if (p & KOMA_PIECE_STATE) w[n++] = (p & KOMA_PIECE_ENHANCED) ? '+' : '-';
        w[n++] = koma_piece_letter(p);
        if (p & KOMA_PIECE_TERMINAL) w[n++] = '^';
        if (p & KOMA_PIECE_DERIVED) w[n++] = '\'';
        e->feen_len[c] = n;
        e->feen_key[c] = koma_piece_hand_key(p);
    }
}

/* A hand's items: one a piece identity, in hand key order (koma_hand's). */
typedef struct held_item {
    unsigned code, key;
    uint32_t count;
} held_item;

/* The held slots of side s as items in key order (slots of one identity as one
 * item, as koma_hand_add makes them); their number. */
static size_t held_items(const koma_engine *e, int s, held_item *it)
{
    size_t n = 0;
    for (uint64_t w = e->held[s]; w; w &= w - 1) {
        int slot = __builtin_ctzll(w);
        unsigned c = KOMA__CODE(KOMA__SLOT_KIND(slot), s) | ((slot & KOMA__SLOT_DERIVED) ? KOMA__DERIVED : 0u);
        unsigned key = e->feen_key[c];
        uint32_t count = e->hand[s][slot];
        size_t i = n;
        while (i > 0 && it[i - 1].key > key) i--;
        if (i > 0 && it[i - 1].key == key) {
            it[i - 1].count += count;
            continue;
        }
        memmove(it + i + 1, it + i, (n - i) * sizeof *it);
        it[i].code = c;
        it[i].key = key;
        it[i].count = count;
        n++;
    }
    return n;
}

static char *put_text(const koma_engine *e, char *w, unsigned c)
{
    memcpy(w, e->feen_text[c], 4);
    return w + e->feen_len[c];
}

static char *put_count(char *w, uint32_t v)
{
    char tmp[10];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10u); v /= 10u; } while (v != 0);
    while (n > 0) *w++ = tmp[--n];
    return w;
}

/* The items by count descending, equal counts in key order (koma_feen_write's). */
static char *put_hand(const koma_engine *e, char *w, const held_item *it, size_t n)
{
    uint64_t bound = (uint64_t)UINT32_MAX + 1u;
    for (;;) {
        uint32_t best = 0;
        for (size_t i = 0; i < n; i++)
            if (it[i].count < bound && it[i].count > best) best = it[i].count;
        if (best == 0) return w;
        for (size_t i = 0; i < n; i++) {
            if (it[i].count != best) continue;
            if (best >= 2) w = put_count(w, best);
            w = put_text(e, w, it[i].code);
        }
        bound = best;
    }
}

size_t koma__mb_feen(const koma_engine *e, char *buf, size_t cap)
{
    const koma_shape *sh = &e->shape;
    unsigned files = sh->size[0];
    unsigned ranks = sh->ndims >= 2 ? sh->size[1] : 1;
    unsigned layers = sh->ndims >= 3 ? sh->size[2] : 1;
    held_item it[2][KOMA__SLOTS];
    size_t nit[2] = { held_items(e, 0, it[0]), held_items(e, 1, it[1]) };
    /* the board at most 4 bytes a square and 2 a rank, 3 more for a text's
     * 4-byte copy; an item at most 10 digits and 4 bytes; 6 separators */
    size_t bound = (size_t)files * ranks * layers * 4u + (size_t)ranks * layers * 2u + 3u +
                   (nit[0] + nit[1]) * 14u + 8u;
    if (buf == NULL || cap <= bound || (size_t)e->nsquares != (size_t)files * ranks * layers)
        return 0;
    char *w = buf;
    int sq = 0;
    /* (in locals: the bytes written through w might otherwise be the engine's
     * pointers, read again each square) */
    const uint8_t *board = e->board;
    const int16_t *index = e->sq_index;
    const char (*text)[4] = e->feen_text;
    const uint8_t *tlen = e->feen_len;
    for (unsigned g = 0; g < layers; g++) {
        if (g > 0) {
            *w++ = '/';
            *w++ = '/';
        }
        for (unsigned r = 0; r < ranks; r++) {
            if (r > 0) *w++ = '/';
            uint32_t run = 0;
            if (files <= 9) {
                /* a run is one digit: each square written without a branch (an
                 * empty one's text is no byte; the digit stays when a piece
                 * follows the run) */
                for (unsigned f = 0; f < files; f++) {
                    unsigned c = board[index[sq++]] & (KOMA__FEEN_CODES - 1);
                    *w = (char)('0' + run);
                    w += c != KOMA__EMPTY && run > 0;
                    memcpy(w, text[c], 4);
                    w += tlen[c];
                    run = c == KOMA__EMPTY ? run + 1 : 0;
                }
                if (run > 0) *w++ = (char)('0' + run);
                continue;
            }
            for (unsigned f = 0; f < files; f++) {
                unsigned c = board[index[sq++]];
                if (c == KOMA__EMPTY) {
                    run++;
                    continue;
                }
                if (run > 0) {
                    w = put_count(w, run);
                    run = 0;
                }
                w = put_text(e, w, c & (KOMA__FEEN_CODES - 1));
            }
            if (run > 0) w = put_count(w, run);
        }
    }
    *w++ = ' ';
    w = put_hand(e, w, it[0], nit[0]);
    *w++ = '/';
    w = put_hand(e, w, it[1], nit[1]);
    *w++ = ' ';
    char style = e->game->style, other = (char)(style - 'A' + 'a');
    *w++ = e->turn == KOMA_FIRST ? style : other;
    *w++ = '/';
    *w++ = e->turn == KOMA_FIRST ? other : style;
    *w = '\0';
    return (size_t)(w - buf);
}
