/*
 * lib/betza.c — Betza's funny notation for piece movement (the subset the
 * shogi family needs, plus the common leapers and riders).
 *
 * A description is a sequence of groups, each: optional modifier letters, one
 * atom, and an optional rider mark (the atom doubled, or a count). The groups'
 * vectors are united. See koma/game.h for the exact meaning of each modifier.
 */
#include <string.h>

#include "internal.h"
#include <koma/game.h>

typedef struct atom {
    char letter;
    int8_t x, y;                       /* the base vector (x >= y >= 0) */
    uint8_t range;                     /* 1 leap, 0 unlimited ride */
} atom;

static const atom atoms[] = {
    {'W', 1, 0, 1}, {'F', 1, 1, 1}, {'D', 2, 0, 1}, {'N', 2, 1, 1}, {'A', 2, 2, 1},
    {'H', 3, 0, 1}, {'C', 3, 1, 1}, {'Z', 3, 2, 1}, {'G', 3, 3, 1},
};

static const atom *find_atom(char c)
{
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        if (atoms[i].letter == c) return &atoms[i];
    return NULL;
}

/* Modifier selectors: a bit set over the (up to 8) vectors of an atom. */
enum shape_kind { ORTHO, DIAG, OBLIQUE };

static int is_dir(char c)
{
    return c == 'f' || c == 'b' || c == 'l' || c == 'r' || c == 'v' || c == 's';
}

/* Does vector (dx, dy) of an atom of kind k match selector sel (1 or 2 letters)? */
static int selects(enum shape_kind k, const char *sel, size_t n, int dx, int dy)
{
    int adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    if (n == 1) {
        switch (sel[0]) {
        case 'f': return dy > 0;
        case 'b': return dy < 0;
        case 'l': return dx < 0;
        case 'r': return dx > 0;
        case 'v': return k == OBLIQUE ? ady > adx : k == ORTHO ? dx == 0 : 0;
        case 's': return k == OBLIQUE ? adx > ady : k == ORTHO ? dy == 0 : 0;
        default: return 0;
        }
    }
    char a = sel[0], b = sel[1];
    if (a == b) {                      /* ff bb ll rr: oblique only */
        switch (a) {
        case 'f': return dy > 0 && ady > adx;
        case 'b': return dy < 0 && ady > adx;
        case 'l': return dx < 0 && adx > ady;
        case 'r': return dx > 0 && adx > ady;
        default: return 0;
        }
    }
    if ((a == 'f' || a == 'b') && b == 's') return (a == 'f' ? dy > 0 : dy < 0) && adx > ady;
    if ((a == 'l' || a == 'r') && b == 'v') return (a == 'l' ? dx < 0 : dx > 0) && ady > adx;
    /* quadrant pairs: fl fr bl br (also lf rf lb rb) */
    char v = (a == 'f' || a == 'b') ? a : b;
    char h = (a == 'l' || a == 'r') ? a : b;
    if ((v != 'f' && v != 'b') || (h != 'l' && h != 'r')) return 0;
    return (v == 'f' ? dy > 0 : dy < 0) && (h == 'l' ? dx < 0 : dx > 0);
}

/* Is the two-letter selector ab a pair for atoms of kind k? */
static int is_pair(enum shape_kind k, char a, char b)
{
    if (k == ORTHO) return 0;
    int quad = ((a == 'f' || a == 'b') && (b == 'l' || b == 'r')) ||
               ((a == 'l' || a == 'r') && (b == 'f' || b == 'b'));
    if (k == DIAG) return quad;
    if (quad) return 1;
    if (a == b && (a == 'f' || a == 'b' || a == 'l' || a == 'r')) return 1;
    if ((a == 'f' || a == 'b') && b == 's') return 1;
    if ((a == 'l' || a == 'r') && b == 'v') return 1;
    return 0;
}

static int add_vector(koma_betza_vector *out, size_t cap, size_t *count, int dx, int dy,
                      unsigned range, koma_error *err, size_t offset)
{
    for (size_t i = 0; i < *count; i++) {
        if (out[i].dx == dx && out[i].dy == dy) {
            /* keep the longer reach: 0 (unlimited) beats any count */
            if (out[i].range != 0 && (range == 0 || range > out[i].range))
                out[i].range = (uint8_t)range;
            return 0;
        }
    }
    if (*count >= cap)
        return koma_error_set(err, KOMA_E_BETZA_UNSUPPORTED, offset,
                              "Betza description has more than %zu vectors", cap);
    out[*count].dx = (int8_t)dx;
    out[*count].dy = (int8_t)dy;
    out[*count].range = (uint8_t)range;
    (*count)++;
    return 0;
}

/* Emit the vectors of atom a selected by the modifier string mods[0..nm). */
static int emit(const atom *a, unsigned range, const char *mods, size_t nm,
                koma_betza_vector *out, size_t cap, size_t *count, koma_error *err,
                size_t offset)
{
    enum shape_kind k = a->y == 0 ? ORTHO : a->x == a->y ? DIAG : OBLIQUE;
    int vx[8], vy[8], nv = 0;
    /* the (up to 8) symmetric images of (x, y) */
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2)
            for (int swap = 0; swap < 2; swap++) {
                int dx = (swap ? a->y : a->x) * sx, dy = (swap ? a->x : a->y) * sy;
                int dup = 0;
                for (int i = 0; i < nv; i++)
                    if (vx[i] == dx && vy[i] == dy) dup = 1;
                if (!dup) { vx[nv] = dx; vy[nv] = dy; nv++; }
            }
    for (int i = 0; i < nv; i++) {
        int take = nm == 0;
        size_t j = 0;
        while (!take && j < nm) {
            size_t n = (j + 1 < nm && is_pair(k, mods[j], mods[j + 1])) ? 2 : 1;
            if (selects(k, mods + j, n, vx[i], vy[i])) take = 1;
            j += n;
        }
        if (take && add_vector(out, cap, count, vx[i], vy[i], range, err, offset) != 0)
            return -1;
    }
    return 0;
}

int koma_betza_parse(const char *s, size_t len, koma_betza_vector *out, size_t cap,
                     size_t *count, koma_error *err)
{
    *count = 0;
    if (len == 0) return koma_error_set(err, KOMA_E_BETZA_SYNTAX, 0, "empty Betza description");
    if (len > KOMA_BETZA_MAX_LEN)
        return koma_error_set(err, KOMA_E_BETZA_SYNTAX, KOMA_BETZA_MAX_LEN,
                              "Betza description exceeds %d bytes", KOMA_BETZA_MAX_LEN);
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && is_dir(s[i])) i++;
        const char *mods = s + start;
        size_t nm = i - start;
        if (i >= len)
            return koma__error_token(err, KOMA_E_BETZA_SYNTAX, start,
                                     "Betza modifiers without an atom", s + start, len - start);
        char c = s[i];
        size_t atom_at = i;
        i++;
        if (c == 'K' || c == 'Q' || c == 'R' || c == 'B') {
            unsigned range = (c == 'K') ? 1 : 0;
            if (i < len && KOMA_IS_DIGIT(s[i]))
                return koma__error_token(err, KOMA_E_BETZA_SYNTAX, i,
                                         "count after a compound atom", s + atom_at, 2);
            int ortho = c != 'B', diag = c != 'R';
            if (ortho && emit(find_atom('W'), range, mods, nm, out, cap, count, err, atom_at))
                return -1;
            if (diag && emit(find_atom('F'), range, mods, nm, out, cap, count, err, atom_at))
                return -1;
            continue;
        }
        const atom *a = find_atom(c);
        if (a == NULL) {
            if (c == 'm' || c == 'c' || c == 'n' || c == 'j' || c == 'p' || c == 'g' ||
                c == 'i' || c == 'e' || c == 'a' || c == 'h' || c == 'o' || c == 'z' ||
                c == 'q' || c == 'x' || c == 'y' || c == 't' || c == 'u' || c == 'd' ||
                c == 'k' || c == 'w')
                return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, atom_at,
                                         "unsupported Betza modifier", s + atom_at, 1);
            return koma__error_token(err, KOMA_E_BETZA_SYNTAX, atom_at, "unknown Betza atom",
                                     s + atom_at, 1);
        }
        unsigned range = 1;
        if (i < len && s[i] == c) {    /* doubled: unlimited rider */
            range = 0;
            i++;
        } else if (i < len && KOMA_IS_DIGIT(s[i])) {
            size_t d0 = i;
            unsigned n = 0;
            while (i < len && KOMA_IS_DIGIT(s[i])) {
                n = n * 10 + (unsigned)(s[i] - '0');
                if (n > 255)
                    return koma__error_token(err, KOMA_E_BETZA_SYNTAX, d0,
                                             "Betza range exceeds 255", s + d0, i - d0 + 1);
                i++;
            }
            if (n == 0 || s[d0] == '0')
                return koma__error_token(err, KOMA_E_BETZA_SYNTAX, d0, "invalid Betza range",
                                         s + d0, i - d0);
            range = n;
        }
        if (emit(a, range, mods, nm, out, cap, count, err, atom_at) != 0) return -1;
    }
    if (*count == 0)
        return koma__error_token(err, KOMA_E_BETZA_SYNTAX, 0,
                                 "Betza description selects no move", s, len);
    return 0;
}
