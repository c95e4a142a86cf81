/*
 * lib/position_diff.c — what differs between two positions, item by item: the
 * board shape, each square (in FEEN order over the smallest board holding both,
 * so a square only one board has is reported as off the other), each hand count
 * (hands merged in koma_piece_hand_key order), each style, the side to move.
 * Nothing is allocated: every difference goes to a callback, in that order.
 */
#include <stdio.h>
#include <string.h>

#include <koma/position.h>

static int shapes_equal(const koma_shape *a, const koma_shape *b)
{
    if (a->ndims != b->ndims) return 0;
    for (unsigned i = 0; i < a->ndims; i++)
        if (a->size[i] != b->size[i]) return 0;
    return 1;
}

/* The piece on cell c of pos: 1 with *p set, 0 when c is off the board. */
static int piece_at(const koma_position *pos, const koma_cell *c, koma_piece *p)
{
    uint32_t sq;
    if (koma_shape_square(&pos->shape, c, &sq, NULL) != 0) return 0;
    *p = pos->board[sq];
    return 1;
}

typedef struct walker {
    koma_position_diff_fn fn;
    void *ctx;
    size_t count;
    int stop;                          /* fn's non-zero return */
} walker;

static void shape_text(const koma_shape *s, char *buf)
{
    if (s->ndims == 1) snprintf(buf, KOMA_DIFF_TEXT, "%u", (unsigned)s->size[0]);
    else if (s->ndims == 2)
        snprintf(buf, KOMA_DIFF_TEXT, "%ux%u", (unsigned)s->size[0], (unsigned)s->size[1]);
    else
        snprintf(buf, KOMA_DIFF_TEXT, "%ux%ux%u", (unsigned)s->size[0], (unsigned)s->size[1],
                 (unsigned)s->size[2]);
}

static const char *const side_word[2] = {"first", "second"};

/* The text fields of d. */
static void render(koma_position_diff *d)
{
    for (int k = 0; k < 2; k++) {
        char *t = d->text[k];
        switch (d->kind) {
        case KOMA_DIFF_BOARD: shape_text(d->shape[k], t); break;
        case KOMA_DIFF_SQUARE:
            if (!d->on_board[k]) strcpy(t, "off");
            else if (d->piece[k] == KOMA_PIECE_NONE) strcpy(t, ".");
            else koma_epin_write(d->piece[k], t);
            break;
        case KOMA_DIFF_HAND: snprintf(t, KOMA_DIFF_TEXT, "%lu", (unsigned long)d->count[k]); break;
        case KOMA_DIFF_STYLE: snprintf(t, KOMA_DIFF_TEXT, "%c", d->style[k]); break;
        case KOMA_DIFF_TURN: strcpy(t, side_word[d->turn[k] ? 1 : 0]); break;
        }
    }
    if (d->kind == KOMA_DIFF_SQUARE) koma_cell_write(&d->cell, d->what);
    else if (d->kind == KOMA_DIFF_HAND) koma_epin_write(d->piece[0], d->what);
    switch (d->kind) {
    case KOMA_DIFF_BOARD: strcpy(d->label, "board"); break;
    case KOMA_DIFF_SQUARE: strcpy(d->label, d->what); break;
    case KOMA_DIFF_HAND:
        snprintf(d->label, sizeof d->label, "%s hand %s", side_word[d->side ? 1 : 0], d->what);
        break;
    case KOMA_DIFF_STYLE:
        snprintf(d->label, sizeof d->label, "%s style", side_word[d->side ? 1 : 0]);
        break;
    case KOMA_DIFF_TURN: strcpy(d->label, "side to move"); break;
    }
}

static int report(walker *w, koma_position_diff *d)
{
    render(d);
    w->count++;
    if (w->fn != NULL) w->stop = w->fn(w->ctx, d);
    return w->stop;
}

static void diff_squares(const koma_position *a, const koma_position *b, walker *w)
{
    koma_shape u = a->shape;           /* the smallest board holding both */
    u.squares = 1;
    for (unsigned i = 0; i < u.ndims; i++) {
        if (b->shape.size[i] > u.size[i]) u.size[i] = b->shape.size[i];
        u.squares *= u.size[i];
    }
    for (uint32_t sq = 0; sq < u.squares; sq++) {
        koma_position_diff d;
        memset(&d, 0, sizeof d);
        d.kind = KOMA_DIFF_SQUARE;
        koma_shape_cell(&u, sq, &d.cell);
        d.piece[0] = d.piece[1] = KOMA_PIECE_NONE;
        d.on_board[0] = piece_at(a, &d.cell, &d.piece[0]);
        d.on_board[1] = piece_at(b, &d.cell, &d.piece[1]);
        if (d.on_board[0] && d.on_board[1] ? d.piece[0] == d.piece[1]
                                           : (d.on_board[0] ? d.piece[0] : d.piece[1]) ==
                                                 KOMA_PIECE_NONE)
            continue;                  /* the same, or an empty square off the other board */
        if (report(w, &d)) return;
    }
}

static void diff_hand(const koma_hand *ha, const koma_hand *hb, int side, walker *w)
{
    size_t i = 0, j = 0;
    /* Both hands are sorted by koma_piece_hand_key: merge them. */
    while (i < ha->len || j < hb->len) {
        koma_position_diff d;
        memset(&d, 0, sizeof d);
        d.kind = KOMA_DIFF_HAND;
        d.side = side;
        if (j == hb->len || (i < ha->len && koma_piece_hand_key(ha->items[i].piece) <
                                                koma_piece_hand_key(hb->items[j].piece))) {
            d.piece[0] = ha->items[i].piece;
            d.count[0] = ha->items[i++].count;
        } else if (i == ha->len || koma_piece_hand_key(hb->items[j].piece) <
                                       koma_piece_hand_key(ha->items[i].piece)) {
            d.piece[0] = hb->items[j].piece;
            d.count[1] = hb->items[j++].count;
        } else {
            d.piece[0] = ha->items[i].piece;
            d.count[0] = ha->items[i++].count;
            d.count[1] = hb->items[j++].count;
        }
        d.piece[1] = d.piece[0];
        if (d.count[0] != d.count[1] && report(w, &d)) return;
    }
}

int koma_position_diff_walk(const koma_position *a, const koma_position *b,
                            koma_position_diff_fn fn, void *ctx, size_t *count)
{
    walker w = { fn, ctx, 0, 0 };
    koma_position_diff d;
    if (!shapes_equal(&a->shape, &b->shape)) {
        memset(&d, 0, sizeof d);
        d.kind = KOMA_DIFF_BOARD;
        d.shape[0] = &a->shape;
        d.shape[1] = &b->shape;
        if (report(&w, &d)) goto out;
    }
    if (a->shape.ndims == b->shape.ndims) {
        diff_squares(a, b, &w);
        if (w.stop) goto out;
    }
    for (int s = 0; s < 2; s++) {
        diff_hand(&a->hands[s], &b->hands[s], s, &w);
        if (w.stop) goto out;
    }
    for (int s = 0; s < 2; s++) {
        if (a->style[s] == b->style[s]) continue;
        memset(&d, 0, sizeof d);
        d.kind = KOMA_DIFF_STYLE;
        d.side = s;
        d.style[0] = a->style[s];
        d.style[1] = b->style[s];
        if (report(&w, &d)) goto out;
    }
    if (a->turn != b->turn) {
        memset(&d, 0, sizeof d);
        d.kind = KOMA_DIFF_TURN;
        d.turn[0] = a->turn;
        d.turn[1] = b->turn;
        report(&w, &d);
    }
out:
    if (count) *count = w.count;
    return w.stop;
}
