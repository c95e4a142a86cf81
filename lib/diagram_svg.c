/*
 * lib/diagram_svg.c — a position as an SVG picture (koma/diagram.h).
 *
 *   [second's hand] [coords] [   board   ] [coords] [first's hand]
 *
 * The second player's stand is on the upper left and the first player's on the
 * lower right (each player's right-hand side, as on a Japanese board); each starts
 * with a marker (a black piece for the first player, a white one for the second,
 * ringed in red for the side to move) and lists the pieces in the game's order,
 * wrapping into further columns away from the board. Coordinates go where
 * koma/diagram.h says. The last move's origin is shaded lightly, its destination
 * strongly.
 *
 * Everything is integer pixels (the output never depends on the locale's decimal
 * point) and the document has no ids, so pictures can be compared byte for byte
 * and embedded side by side in one HTML page.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "diagram_internal.h"

enum {
    SQ = 44,                           /* square */
    PAD = 12,                          /* outer margin */
    BAND = 26,                         /* coordinate band */
    THIN = 8,                          /* a side without coordinates */
    GAP = 10,                          /* between the hands and the board block */
    HAND_COL = SQ + 24,                /* one column of a stand: piece and count */
    HAND_PIECE = SQ * 86 / 100,        /* a piece in hand */
    COORD_FS = 16,
    COUNT_FS = 16,
    CAPTION_FS = 16,
    CAPTION_H = 30
};

#define FONTS "IPAMincho, IPAexMincho, 'Noto Serif CJK JP', 'Source Han Serif JP', serif"
#define CAPTION_FONTS "IPAPMincho, IPAexMincho, 'Noto Serif CJK JP', 'Source Han Serif JP', serif"
#define C_BOARD "#edc987"
#define C_LINE "#5a4226"
#define C_FROM "#f6dd9c"
#define C_TO "#f2b44c"
#define C_PIECE "#fbe6bb"
#define C_EDGE "#6e5530"
#define C_INK "#1a1a1a"
#define C_PROMOTED "#c0272d"

/* XML text: escape & < > " and nothing else (names and captions are valid UTF-8). */
static int put_escaped(koma__dgm_out *o, const char *s, size_t len)
{
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        default: break;
        }
        if (rep == NULL) continue;
        if (koma__dgm_put(o, s + from, i - from) != 0 || koma__dgm_puts(o, rep) != 0) return -1;
        from = i + 1;
    }
    return koma__dgm_put(o, s + from, len - from);
}

/* The byte length of the first UTF-8 character of s. */
static size_t char_len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
    for (size_t k = 1; k < n; k++)
        if (s[k] == '\0') return k;
    return n;
}

/* A text element centred on x with its em box centred on cy. */
static int text_at(koma__dgm_out *o, int x, int cy, int fs, const char *fill, const char *s,
                   size_t len)
{
    if (koma__dgm_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"%s\">", x,
                         cy + fs * 37 / 100, fs, fill) != 0 ||
        put_escaped(o, s, len) != 0)
        return -1;
    return koma__dgm_puts(o, "</text>\n");
}

/* A Sanki piece whose name is keyed by the style of chess (W) or Xiongqi (C): a
 * figurine with no shape, or the name on a round disc; upright for both players,
 * whose names differ (♔ ♚, 帥 將). 1 when drawn, 0 when p is not such a piece. */
static int upright(koma__dgm_out *o, char style, const char *name, int cx, int cy, int size)
{
    if (style != 'W' && style != 'C') return 0;
    size_t n = koma__dgm_chars(name, strlen(name));
    int fs = size * (style == 'W' ? 80 : n <= 1 ? 50 : 34) / 100;
    if (style == 'C' &&
        koma__dgm_printf(o, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"" C_PIECE "\" stroke=\""
                            C_EDGE "\" stroke-width=\"1.5\"/>\n", cx, cy, size * 40 / 100) != 0)
        return -1;
    return text_at(o, cx, cy, fs, C_INK, name, strlen(name)) != 0 ? -1 : 1;
}

/*
 * A piece of the given size centred on (cx, cy): the pentagon, then its name,
 * stacked top to bottom when it is kanji (two or three characters for Ko shogi),
 * on one line when it is an EPIN token. Turned by 180° for the second player.
 * A Sanki piece named by its style (a QPI key) is drawn in ink whatever its
 * state marker, which is no promotion there; chess and Xiongqi pieces upright.
 */
static int piece(const koma__dgm *d, koma__dgm_out *o, koma_piece p, int cx, int cy, int size)
{
    char style = 0;
    const char *kanji = koma__dgm_kanji(d, p, &style);
    if (kanji != NULL) {
        int u = upright(o, style, kanji, cx, cy, size);
        if (u != 0) return u < 0 ? -1 : 0;
    }
    int second = (p & KOMA_PIECE_SECOND) != 0;
    if (second && koma__dgm_printf(o, "<g transform=\"rotate(180 %d %d)\">\n", cx, cy) != 0)
        return -1;
    static const int shape[5][2] = {{0, -44}, {28, -31}, {35, 44}, {-35, 44}, {-28, -31}};
    if (koma__dgm_printf(o, "<polygon fill=\"" C_PIECE "\" stroke=\"" C_EDGE
                            "\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"") != 0)
        return -1;
    for (int i = 0; i < 5; i++)
        if (koma__dgm_printf(o, "%s%d,%d", i ? " " : "", cx + shape[i][0] * size / 100,
                             cy + shape[i][1] * size / 100) != 0)
            return -1;
    if (koma__dgm_puts(o, "\"/>\n") != 0) return -1;

    const char *fill = (p & KOMA_PIECE_ENHANCED) && style == 0 ? C_PROMOTED : C_INK;
    int mid = cy + size * 6 / 100;     /* the writing sits a little below the centre */
    if (kanji != NULL) {
        size_t n = koma__dgm_chars(kanji, strlen(kanji));
        int fs = size * (n <= 1 ? 54 : n == 2 ? 36 : 27) / 100;
        int top = mid - (int)n * fs / 2;
        const char *c = kanji;
        for (size_t i = 0; i < n && *c; i++) {
            size_t cl = char_len(c);
            if (text_at(o, cx, top + fs * (int)i + fs / 2, fs, fill, c, cl) != 0) return -1;
            c += cl;
        }
    } else {
        char tok[KOMA_EPIN_BUF];
        size_t n = koma_epin_write((koma_piece)(p & ~KOMA_PIECE_SECOND), tok);
        int fs = size * (n <= 1 ? 50 : n == 2 ? 38 : n == 3 ? 29 : 24) / 100;
        if (text_at(o, cx, mid, fs, fill, tok, n) != 0) return -1;
    }
    return second ? koma__dgm_puts(o, "</g>\n") : 0;
}

/* The marker of a side: a small black (first) or white (second) piece, ringed
 * when that side is to move. */
static int marker(const koma__dgm *d, koma__dgm_out *o, int side, int cx, int cy)
{
    if (d->pos->turn == side &&
        koma__dgm_printf(o, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" stroke=\"" C_PROMOTED
                            "\" stroke-width=\"3\"/>\n", cx, cy, SQ * 40 / 100) != 0)
        return -1;
    static const int shape[5][2] = {{0, -44}, {28, -31}, {35, 44}, {-35, 44}, {-28, -31}};
    int size = SQ * 52 / 100;
    if (koma__dgm_printf(o, "<polygon fill=\"%s\" stroke=\"" C_INK
                            "\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"",
                         side == KOMA_FIRST ? C_INK : "#ffffff") != 0)
        return -1;
    for (int i = 0; i < 5; i++)
        if (koma__dgm_printf(o, "%s%d,%d", i ? " " : "", cx + shape[i][0] * size / 100,
                             cy + shape[i][1] * size / 100) != 0)
            return -1;
    return koma__dgm_puts(o, "\"/>\n");
}

typedef struct geom {
    int width, height;
    int bx, by;                        /* board top-left */
    int bw, bh;                        /* board size */
    int slots;                         /* hand slots per column */
    int left_x, right_x;               /* the hands' areas */
    int cols[2];                       /* columns of each hand */
    int band_left, band_right, band_top, band_bottom;
} geom;

static int columns(size_t items, int slots)
{
    size_t n = items + 1;              /* the marker takes the first slot */
    return (int)((n + (size_t)slots - 1) / (size_t)slots);
}

static void layout(const koma__dgm *d, geom *g)
{
    g->bw = (int)d->files * SQ;
    g->bh = (int)d->ranks * SQ;
    g->slots = (int)d->ranks > 0 ? (int)d->ranks : 1;
    g->cols[0] = columns(d->nhand[0], g->slots);
    g->cols[1] = columns(d->nhand[1], g->slots);
    if (d->shogi) {
        char lab[KOMA__DGM_LABEL];
        size_t widest = 1;
        for (unsigned r = 0; r < d->ranks; r++) {
            koma__dgm_rank_label(d, r, 1, lab);
            size_t n = koma__dgm_chars(lab, strlen(lab));
            if (n > widest) widest = n;
        }
        g->band_left = THIN;
        g->band_right = (int)widest * COORD_FS + 10 > BAND ? (int)widest * COORD_FS + 10 : BAND;
        g->band_top = BAND;
        g->band_bottom = THIN;
    } else {
        char lab[KOMA__DGM_LABEL];
        size_t widest = 1;
        for (unsigned r = 0; r < d->ranks; r++) {
            koma__dgm_rank_label(d, r, 0, lab);
            if (strlen(lab) > widest) widest = strlen(lab);
        }
        g->band_left = (int)widest * COORD_FS * 6 / 10 + 14 > BAND ? (int)widest * COORD_FS * 6 / 10 + 14
                                                                   : BAND;
        g->band_right = THIN;
        g->band_top = THIN;
        g->band_bottom = BAND;
    }
    g->left_x = PAD;
    g->bx = PAD + g->cols[KOMA_SECOND] * HAND_COL + GAP + g->band_left;
    g->by = PAD + g->band_top;
    g->right_x = g->bx + g->bw + g->band_right + GAP;
    g->width = g->right_x + g->cols[KOMA_FIRST] * HAND_COL + PAD;
    g->height = g->by + g->bh + g->band_bottom + (d->opt->caption ? CAPTION_H : 0) + PAD;
}

/* The centre of slot k (0 = the marker) of a side's stand. */
static void slot_centre(const koma__dgm *d, const geom *g, int side, int k, int *cx, int *cy)
{
    (void)d;
    int col = k / g->slots, row = k % g->slots;
    if (side == KOMA_SECOND) {         /* upper left, columns going away from the board */
        *cx = g->left_x + (g->cols[KOMA_SECOND] - 1 - col) * HAND_COL + SQ / 2;
        *cy = g->by + row * SQ + SQ / 2;
    } else {                           /* lower right, from the bottom up */
        *cx = g->right_x + col * HAND_COL + SQ / 2;
        *cy = g->by + g->bh - row * SQ - SQ / 2;
    }
}

static int hand(const koma__dgm *d, koma__dgm_out *o, const geom *g, int side)
{
    int cx, cy;
    slot_centre(d, g, side, 0, &cx, &cy);
    if (marker(d, o, side, cx, cy) != 0) return -1;
    for (size_t i = 0; i < d->nhand[side]; i++) {
        const koma_hand_item *it = &d->hand[side][i];
        /* both stands read top-down in the game's order: the second player's from
         * its marker at the top, the first player's down to its marker at the bottom */
        int k = side == KOMA_SECOND ? (int)i + 1 : (int)(d->nhand[side] - i);
        slot_centre(d, g, side, k, &cx, &cy);
        if (piece(d, o, it->piece, cx, cy, HAND_PIECE) != 0) return -1;
        if (it->count > 1 &&
            koma__dgm_printf(o, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"" C_INK
                                "\" text-anchor=\"start\">%lu</text>\n",
                             cx + SQ * 40 / 100, cy + SQ * 40 / 100, COUNT_FS,
                             (unsigned long)it->count) != 0)
            return -1;
    }
    return 0;
}

/* Star points: shogi's four on a 9×9 (every board divisible in thirds), the go
 * board's nine on a Ko shogi board. */
static int stars(const koma__dgm *d, koma__dgm_out *o, const geom *g)
{
    unsigned at[2][3];
    unsigned n = 0;
    int on_points = d->points;
    if (on_points) {
        if (d->files != d->ranks || d->files < 13 || d->files % 2 == 0) return 0;
        for (int a = 0; a < 2; a++) {
            at[a][0] = 3;
            at[a][1] = d->files / 2;
            at[a][2] = d->files - 4;
        }
        n = 3;
    } else {
        if (d->files % 3 || d->ranks % 3 || d->files < 6 || d->ranks < 6) return 0;
        at[0][0] = d->files / 3;
        at[0][1] = 2 * d->files / 3;
        at[1][0] = d->ranks / 3;
        at[1][1] = 2 * d->ranks / 3;
        n = 2;
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            int x = g->bx + (int)at[0][i] * SQ + (on_points ? SQ / 2 : 0);
            int y = g->by + (int)at[1][j] * SQ + (on_points ? SQ / 2 : 0);
            if (koma__dgm_printf(o, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"" C_LINE "\"/>\n", x, y) != 0)
                return -1;
        }
    return 0;
}

static int board(const koma__dgm *d, koma__dgm_out *o, const geom *g)
{
    if (koma__dgm_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"" C_BOARD "\"/>\n",
                         g->bx, g->by, g->bw, g->bh) != 0)
        return -1;
    for (unsigned r = 0; r < d->ranks; r++)
        for (unsigned f = 0; f < d->files; f++) {
            int m = koma__dgm_mark(d, (uint32_t)r * d->files + f);
            if (m == KOMA__MARK_NONE) continue;
            if (koma__dgm_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                                 g->bx + (int)f * SQ, g->by + (int)r * SQ, SQ, SQ,
                                 m == KOMA__MARK_TO ? C_TO : C_FROM) != 0)
                return -1;
        }
    /* the grid: lines between the squares, or through the points */
    int off = d->points ? SQ / 2 : 0;
    unsigned nv = d->points ? d->files : d->files + 1, nh = d->points ? d->ranks : d->ranks + 1;
    if (koma__dgm_puts(o, "<path stroke=\"" C_LINE "\" stroke-width=\"1\" fill=\"none\" d=\"") != 0)
        return -1;
    for (unsigned i = 0; i < nv; i++)
        if (koma__dgm_printf(o, "M%d %dV%d", g->bx + off + (int)i * SQ, g->by + off,
                             g->by + g->bh - off) != 0)
            return -1;
    for (unsigned i = 0; i < nh; i++)
        if (koma__dgm_printf(o, "M%d %dH%d", g->bx + off, g->by + off + (int)i * SQ,
                             g->bx + g->bw - off) != 0)
            return -1;
    if (koma__dgm_puts(o, "\"/>\n") != 0) return -1;
    if (koma__dgm_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\""
                            C_LINE "\" stroke-width=\"2\"/>\n", g->bx, g->by, g->bw, g->bh) != 0)
        return -1;
    if (stars(d, o, g) != 0) return -1;
    for (unsigned r = 0; r < d->ranks; r++)
        for (unsigned f = 0; f < d->files; f++) {
            koma_piece p = koma__dgm_at(d, f, r);
            if (p != KOMA_PIECE_NONE &&
                piece(d, o, p, g->bx + (int)f * SQ + SQ / 2, g->by + (int)r * SQ + SQ / 2, SQ) != 0)
                return -1;
        }
    return 0;
}

static int coordinates(const koma__dgm *d, koma__dgm_out *o, const geom *g)
{
    char lab[KOMA__DGM_LABEL];
    if (koma__dgm_printf(o, "<g font-size=\"%d\" fill=\"" C_LINE "\">\n", COORD_FS) != 0) return -1;
    for (unsigned f = 0; f < d->files; f++) {
        koma__dgm_file_label(d, f, 0, lab);
        int x = g->bx + (int)f * SQ + SQ / 2;
        int y = d->shogi ? g->by - g->band_top / 2 : g->by + g->bh + g->band_bottom / 2;
        if (koma__dgm_printf(o, "<text x=\"%d\" y=\"%d\">%s</text>\n", x, y + COORD_FS * 37 / 100, lab) != 0)
            return -1;
    }
    for (unsigned r = 0; r < d->ranks; r++) {
        koma__dgm_rank_label(d, r, d->shogi, lab);
        int y = g->by + (int)r * SQ + SQ / 2 + COORD_FS * 37 / 100;
        int x = d->shogi ? g->bx + g->bw + g->band_right / 2 : g->bx - g->band_left / 2;
        if (koma__dgm_printf(o, "<text x=\"%d\" y=\"%d\">%s</text>\n", x, y, lab) != 0) return -1;
    }
    return koma__dgm_puts(o, "</g>\n");
}

static int title(const koma__dgm *d, koma__dgm_out *o)
{
    char small[512];
    size_t n = koma_feen_write(d->pos, small, sizeof small);
    char *feen = small;
    if (n >= sizeof small) {
        feen = malloc(n + 1);
        if (feen == NULL) return koma_error_set(o->err, KOMA_E_MEMORY, 0, "out of memory (diagram)");
        koma_feen_write(d->pos, feen, n + 1);
    }
    int rc = koma__dgm_puts(o, "<title>");
    if (rc == 0 && d->g != NULL) {
        rc = koma__dgm_puts(o, koma_game_name(d->g));
        if (rc == 0) rc = koma__dgm_puts(o, ": ");
    }
    if (rc == 0) rc = put_escaped(o, feen, n);
    if (rc == 0 && d->opt->last_move != NULL) {
        rc = koma__dgm_puts(o, " (last move ");
        if (rc == 0) rc = put_escaped(o, d->opt->last_move, d->opt->last_move_len);
        if (rc == 0) rc = koma__dgm_puts(o, ")");
    }
    if (rc == 0) rc = koma__dgm_puts(o, "</title>\n");
    if (feen != small) free(feen);
    return rc;
}

int koma__dgm_svg(const koma__dgm *d, koma__dgm_out *o)
{
    geom g;
    layout(d, &g);
    if (koma__dgm_printf(o,
                         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                         "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
                         "height=\"%d\" viewBox=\"0 0 %d %d\">\n",
                         g.width, g.height, g.width, g.height) != 0 ||
        title(d, o) != 0 ||
        koma__dgm_printf(o, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", g.width, g.height) != 0 ||
        koma__dgm_puts(o, "<g font-family=\"" FONTS "\" text-anchor=\"middle\">\n") != 0 ||
        board(d, o, &g) != 0 || coordinates(d, o, &g) != 0 || hand(d, o, &g, KOMA_SECOND) != 0 ||
        hand(d, o, &g, KOMA_FIRST) != 0)
        return -1;
    if (d->opt->caption != NULL) {
        int y = g.by + g.bh + g.band_bottom + CAPTION_H / 2;
        if (koma__dgm_puts(o, "<g font-family=\"" CAPTION_FONTS "\">\n") != 0 ||
            text_at(o, g.bx + g.bw / 2, y, CAPTION_FS, C_INK, d->opt->caption, d->opt->caption_len) != 0 ||
            koma__dgm_puts(o, "</g>\n") != 0)
            return -1;
    }
    return koma__dgm_puts(o, "</g>\n</svg>\n");
}
