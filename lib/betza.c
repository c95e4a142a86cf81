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

/* ---- the extended form (betza_ex.h): modalities, Wc5, XBetza two-leg moves ---- */

#include "betza_ex.h"

/* The vectors of an atom letter (K: W then F), up to 8, in angle order from +x
 * counter-clockwise (for the relative directions of a second leg). */
static int atom_ring(char c, int vx[8], int vy[8])
{
    static const int kx[8] = {1, 1, 0, -1, -1, -1, 0, 1}, ky[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int nx[8] = {2, 1, -1, -2, -2, -1, 1, 2}, ny[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    int n = 0;
    for (int i = 0; i < 8; i++) {
        if (c == 'K' || (c == 'W' && i % 2 == 0) || (c == 'F' && i % 2 == 1)) {
            vx[n] = kx[i];
            vy[n] = ky[i];
            n++;
        } else if (c == 'N') {
            vx[n] = nx[i];
            vy[n] = ny[i];
            n++;
        }
    }
    return n;
}

/* Right-handed (hr) oblique vectors: the quarter turns of (1, 2). */
static int right_handed(int dx, int dy)
{
    int adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    return ((long)dx * dy > 0) == (ady > adx);
}

/* Split the letters of one leg into direction letters and a modality. */
typedef struct leg_mods {
    char dirs[16];
    size_t ndirs;
    int chiral;                        /* 0 none, 1 hr, -1 hl */
    uint8_t mod;                       /* KOMA__BETZA_*, 0 when none given */
} leg_mods;

static int read_leg_mods(const char *s, size_t n, size_t at, leg_mods *lm, koma_error *err)
{
    memset(lm, 0, sizeof *lm);
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == 'm') lm->mod |= KOMA__BETZA_EMPTY;
        else if (c == 'c') lm->mod |= KOMA__BETZA_ENEMY;
        else if (c == 'h') {
            if (i + 1 >= n || (s[i + 1] != 'r' && s[i + 1] != 'l'))
                return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, at + i,
                                         "'h' is supported as hr or hl only", s + i, 1);
            lm->chiral = s[i + 1] == 'r' ? 1 : -1;
            i++;
        } else if (is_dir(c)) {
            if (lm->ndirs + 1 >= sizeof lm->dirs)
                return koma__error_token(err, KOMA_E_BETZA_SYNTAX, at + i, "too many modifiers",
                                         s + i, 1);
            lm->dirs[lm->ndirs++] = c;
        } else {
            return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, at + i,
                                     "unsupported Betza modifier", s + i, 1);
        }
    }
    return 0;
}

/* Whether the absolute modifiers of lm select vector (dx, dy) of an atom of kind k. */
static int leg_selects(enum shape_kind k, const leg_mods *lm, int dx, int dy)
{
    if (lm->chiral != 0) {
        if (k != OBLIQUE) return 0;
        if ((lm->chiral > 0) != right_handed(dx, dy)) return 0;
    }
    if (lm->ndirs == 0) return 1;
    size_t j = 0;
    while (j < lm->ndirs) {
        size_t n = (j + 1 < lm->ndirs && is_pair(k, lm->dirs[j], lm->dirs[j + 1])) ? 2 : 1;
        if (selects(k, lm->dirs + j, n, dx, dy)) return 1;
        j += n;
    }
    return 0;
}

static int add_bvec(koma__bvec *out, size_t cap, size_t *count, int dx, int dy, unsigned range,
                    uint8_t mod, koma_error *err, size_t offset)
{
    for (size_t i = 0; i < *count; i++) {
        if (out[i].dx == dx && out[i].dy == dy && out[i].mod == mod) {
            if (out[i].range != 0 && (range == 0 || range > out[i].range)) out[i].range = (uint8_t)range;
            return 0;
        }
    }
    if (*count >= cap)
        return koma_error_set(err, KOMA_E_BETZA_UNSUPPORTED, offset,
                              "Betza description has more than %zu moves", cap);
    out[*count].dx = (int8_t)dx;
    out[*count].dy = (int8_t)dy;
    out[*count].range = (uint8_t)range;
    out[*count].mod = mod;
    (*count)++;
    return 0;
}

/* The second leg's relative steps (in eighths of a turn, counter-clockwise), as a
 * bit set over -3..4 (bit k + 3). */
static int relative_steps(const char *d, size_t n, size_t at, const char *s, int ring,
                          unsigned *out, koma_error *err)
{
    unsigned set = 0;
    if (n == 0) {
        for (int k = -3; k <= 3; k++)
            if (ring == 8 || k % 2 == 0) set |= 1u << (k + 3);
        *out = set;
        return 0;
    }
    size_t i = 0;
    while (i < n) {
        char a = d[i], b = i + 1 < n ? d[i + 1] : 0;
        int k1 = 99, k2 = 99;
        size_t used = 1;
        int fb = (a == 'f' || a == 'b'), lr = (b == 'l' || b == 'r');
        if ((fb && lr) || ((a == 'l' || a == 'r') && (b == 'f' || b == 'b'))) {
            char v = fb ? a : b, h = fb ? b : a;
            k1 = v == 'f' ? (h == 'l' ? 1 : -1) : (h == 'l' ? 3 : -3);
            used = 2;
        } else if (a == 'f') k1 = 0;
        else if (a == 'b') k1 = 4;
        else if (a == 'l') k1 = 2;
        else if (a == 'r') k1 = -2;
        else if (a == 'v') { k1 = 0; k2 = 4; }
        else if (a == 's') { k1 = 2; k2 = -2; }
        int ks[2] = {k1, k2};
        for (int j = 0; j < 2; j++) {
            if (ks[j] == 99) continue;
            if (ring == 4 && ks[j] % 2 != 0)
                return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, at + i,
                                         "a turn between the atom's directions", s + at + i, used);
            set |= 1u << (ks[j] + 3);
        }
        i += used;
    }
    *out = set;
    return 0;
}

static int add_pair(koma__bpair *out, size_t cap, size_t *count, int x1, int y1, int x2, int y2,
                    uint8_t m1, uint8_t m2, koma_error *err, size_t offset)
{
    for (size_t i = 0; i < *count; i++)
        if (out[i].dx1 == x1 && out[i].dy1 == y1 && out[i].dx2 == x2 && out[i].dy2 == y2 &&
            out[i].mod1 == m1 && out[i].mod2 == m2)
            return 0;
    if (*count >= cap)
        return koma_error_set(err, KOMA_E_BETZA_UNSUPPORTED, offset,
                              "Betza description has more than %zu two-leg moves", cap);
    koma__bpair *p = &out[(*count)++];
    p->dx1 = (int8_t)x1;
    p->dy1 = (int8_t)y1;
    p->dx2 = (int8_t)x2;
    p->dy2 = (int8_t)y2;
    p->mod1 = m1;
    p->mod2 = m2;
    return 0;
}

int koma__betza_parse_ex(const char *s, size_t len, koma__bvec *vecs, size_t vcap,
                         size_t *nvecs, koma__bpair *pairs, size_t pcap, size_t *npairs,
                         koma_error *err)
{
    *nvecs = 0;
    *npairs = 0;
    if (len == 0) return koma_error_set(err, KOMA_E_BETZA_SYNTAX, 0, "empty Betza description");
    if (len > KOMA_BETZA_MAX_LEN)
        return koma_error_set(err, KOMA_E_BETZA_SYNTAX, KOMA_BETZA_MAX_LEN,
                              "Betza description exceeds %d bytes", KOMA_BETZA_MAX_LEN);
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && KOMA_IS_LOWER(s[i])) i++;
        if (i >= len)
            return koma__error_token(err, KOMA_E_BETZA_SYNTAX, start,
                                     "Betza modifiers without an atom", s + start, len - start);
        size_t atom_at = i;
        char c = s[i++];
        /* the legs: the prefix split at 'a' */
        size_t cut = start;
        int legs = 1;
        for (size_t j = start; j < atom_at; j++)
            if (s[j] == 'a') {
                if (legs == 2)
                    return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, j,
                                             "more than two legs", s + j, 1);
                legs = 2;
                cut = j;
            }
        leg_mods l1, l2;
        if (legs == 1) {
            if (read_leg_mods(s + start, atom_at - start, start, &l1, err) != 0) return -1;
        } else {
            if (read_leg_mods(s + start, cut - start, start, &l1, err) != 0 ||
                read_leg_mods(s + cut + 1, atom_at - cut - 1, cut + 1, &l2, err) != 0)
                return -1;
            if (l2.chiral)
                return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, cut + 1,
                                         "hr/hl on a second leg", s + cut + 1, atom_at - cut - 1);
        }
        /* the range: doubled atom, count, or a modality and a count (Wc5) */
        unsigned range = 1;
        uint8_t through = 0;
        int compound = c == 'K' || c == 'Q' || c == 'R' || c == 'B';
        if (compound) range = c == 'K' ? 1 : 0;
        if (!compound && i < len && s[i] == c) {
            range = 0;
            i++;
        } else if (i < len && (KOMA_IS_DIGIT(s[i]) || ((s[i] == 'c' || s[i] == 'm') && i + 1 < len &&
                                                      KOMA_IS_DIGIT(s[i + 1])))) {
            if (compound)
                return koma__error_token(err, KOMA_E_BETZA_SYNTAX, i, "count after a compound atom",
                                         s + atom_at, 2);
            if (s[i] == 'c') through = KOMA__BETZA_THROUGH;
            if (!KOMA_IS_DIGIT(s[i])) i++;
            size_t d0 = i;
            unsigned n = 0;
            while (i < len && KOMA_IS_DIGIT(s[i])) {
                n = n * 10 + (unsigned)(s[i] - '0');
                if (n > 255)
                    return koma__error_token(err, KOMA_E_BETZA_SYNTAX, d0, "Betza range exceeds 255",
                                             s + d0, i - d0 + 1);
                i++;
            }
            if (n == 0 || s[d0] == '0')
                return koma__error_token(err, KOMA_E_BETZA_SYNTAX, d0, "invalid Betza range",
                                         s + d0, i - d0);
            range = n;
        }
        if (legs == 1) {
            uint8_t mod = l1.mod ? l1.mod : (KOMA__BETZA_EMPTY | KOMA__BETZA_ENEMY);
            mod |= through;
            const char parts[2] = {c == 'B' ? 'F' : (c == 'K' || c == 'Q' || c == 'R') ? 'W' : c,
                                   (c == 'K' || c == 'Q') ? 'F' : 0};
            for (int p = 0; p < 2; p++) {
                if (parts[p] == 0) continue;
                const atom *a = find_atom(parts[p]);
                if (a == NULL)
                    return koma__error_token(err, KOMA_E_BETZA_SYNTAX, atom_at, "unknown Betza atom",
                                             s + atom_at, 1);
                enum shape_kind k = a->y == 0 ? ORTHO : a->x == a->y ? DIAG : OBLIQUE;
                for (int sx = -1; sx <= 1; sx += 2)
                    for (int sy = -1; sy <= 1; sy += 2)
                        for (int swap = 0; swap < 2; swap++) {
                            int dx = (swap ? a->y : a->x) * sx, dy = (swap ? a->x : a->y) * sy;
                            if (!leg_selects(k, &l1, dx, dy)) continue;
                            if (add_bvec(vecs, vcap, nvecs, dx, dy, range, mod, err, atom_at) != 0)
                                return -1;
                        }
            }
            continue;
        }
        /* two legs */
        if (c != 'W' && c != 'F' && c != 'K' && c != 'N')
            return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, atom_at,
                                     "two-leg moves of W, F, K and N only", s + atom_at, 1);
        if (range != 1 || through)
            return koma__error_token(err, KOMA_E_BETZA_UNSUPPORTED, atom_at,
                                     "a count on a two-leg move", s + atom_at, i - atom_at);
        int vx[8], vy[8];
        int ring = atom_ring(c, vx, vy);
        unsigned steps = 0;
        if (relative_steps(l2.dirs, l2.ndirs, cut + 1, s, ring, &steps, err) != 0) return -1;
        uint8_t m1 = l1.mod ? l1.mod : KOMA__BETZA_EMPTY;
        uint8_t m2 = l2.mod ? l2.mod : (KOMA__BETZA_EMPTY | KOMA__BETZA_ENEMY);
        for (int v = 0; v < ring; v++) {
            enum shape_kind k = c == 'N' ? OBLIQUE : (vx[v] != 0 && vy[v] != 0) ? DIAG : ORTHO;
            if (!leg_selects(k, &l1, vx[v], vy[v])) continue;
            for (int kk = -3; kk <= 4; kk++) {
                if (!(steps & (1u << (kk + 3)))) continue;
                int w = ring == 8 ? v + kk : v + kk / 2;
                w = ((w % ring) + ring) % ring;
                if (add_pair(pairs, pcap, npairs, vx[v], vy[v], vx[w], vy[w], m1, m2, err,
                             atom_at) != 0)
                    return -1;
            }
        }
    }
    if (*nvecs == 0 && *npairs == 0)
        return koma__error_token(err, KOMA_E_BETZA_SYNTAX, 0, "Betza description selects no move",
                                 s, len);
    return 0;
}
