/*
 * lib/game.c — game definitions: YAML loading (libyaml) and validation, one
 * definition at a time (the set that holds them and finds them: game_set.c).
 *
 * The YAML layout is schemas/game.schema.json; lib/games/NAME.yaml are the
 * built-in definitions, embedded at build (lib/games_embedded.h). Unknown keys
 * are errors, so a misspelt rule is never silently ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "internal.h"
#include "game_internal.h"
#include "games_embedded.h"
#include "util_yaml.h"
#include "fx_internal.h"
#include "pcn_internal.h"

/* The YAML text a definition was read from, and the rule options chosen by the
 * caller: an effect game compiles them again (fx_def.c). */
typedef struct load_src {
    const char *text;
    size_t len;
    const char *const *options;        /* NAME=VALUE */
    size_t noptions;
    size_t *bad_option;                /* where to say which of them is at fault */
} load_src;

/* ---- game parsing --------------------------------------------------------------------- */

static const char *const top_keys[] = {
    "id", "name", "style", "board", "start", "description", "promotion", "check",
    "kings_privilege", "promoted_drops", "bare_king", "no_legal_move", "repetition",
    "move_limit", "move_cap", "illegal_ply", "termination", "defeat", "pieces", "diagram", "by_feen",
    "styles", "side_names", NULL};
/* a definition with `engine: sanki` (game_sanki.c) */
static const char *const sanki_top_keys[] = {
    "id", "name", "style", "styles", "board", "start", "description", "engine", "repetition",
    "move_limit", "move_cap", "illegal_ply", "termination", "pieces", "diagram", "by_feen",
    "side_names", NULL};
static const char *const cap_keys[] = {"plies", NULL};
static const char *const board_keys[] = {"files", "ranks", NULL};
static const char *const promotion_keys[] = {"zone", "compulsory", NULL};
static const char *const nolegal_keys[] = {"in_check", "otherwise", NULL};
static const char *const repetition_keys[] = {"rule", "count", "perpetual_check", NULL};
static const char *const limit_keys[] = {"plies", "capture_resets", NULL};
static const char *const piece_keys[] = {
    "pin", "name", "betza", "royal", "promotes_to", "must_promote_ranks",
    "resets_move_limit", "drop", NULL};
static const char *const drop_keys[] = {"never", "forbidden_ranks", "nifu", "no_mate", NULL};
static const char *const defeat_keys[] = {"royal_captured", "survival", NULL};

int koma__game_kind_of(const koma_game *g, koma_piece p)
{
    koma_piece key = (koma_piece)(p & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE | KOMA_PIECE_TERMINAL));
    for (unsigned i = 0; i < g->nkinds; i++)
        if (g->kinds[i].pin == key) return (int)i;
    return -1;
}

/* The statuses the rules end a game with (termination may map only these). */
static int decided_status(koma_status st)
{
    switch (st) {
    case KOMA_STATUS_CHECKMATE: case KOMA_STATUS_STALEMATE: case KOMA_STATUS_NOMOVE:
    case KOMA_STATUS_BAREKING: case KOMA_STATUS_MAREKING: case KOMA_STATUS_ILLEGALMOVE:
    case KOMA_STATUS_REPETITION: case KOMA_STATUS_MOVELIMIT: case KOMA_STATUS_INSUFFICIENT:
        return 1;
    default:
        return 0;
    }
}

static int parse_nolegal(koma__ydoc *y, yaml_node_t *n, const char *key, int *out)
{
    if (n == NULL) return 0;
    if (koma__y_scalar_is(n, "checkmate")) *out = KOMA__NL_CHECKMATE;
    else if (koma__y_scalar_is(n, "stalemate")) *out = KOMA__NL_STALEMATE;
    else if (koma__y_scalar_is(n, "nomove")) *out = KOMA__NL_NOMOVE;
    else
        return koma__y_error(y, n, KOMA_E_GAME_FIELD,
                             "no_legal_move.%s must be checkmate, stalemate or nomove", key);
    return 0;
}

static int parse_piece(koma__ydoc *y, koma_game *g, yaml_node_t *n, char promotes[][8])
{
    static const char *what = "piece";
    if (koma__y_check_keys(y, n, what, piece_keys) != 0) return -1;
    if (g->nkinds >= KOMA__MAX_KINDS)
        return koma__y_error(y, n, KOMA_E_GAME_LIMIT, "more than %d pieces", KOMA__MAX_KINDS);
    koma__kind *k = &g->kinds[g->nkinds];
    memset(k, 0, sizeof *k);
    char pin[8];
    yaml_node_t *pn;
    if (koma__y_get_str(y, n, "pin", pin, sizeof pin, 1, &pn) != 0) return -1;
    koma_piece p;
    koma_error e2;
    if (koma_pin_parse(pin, strlen(pin), &p, &e2) != 0) {
        char q[32];
        koma_quote(q, sizeof q, pin, strlen(pin));
        return koma__y_error(y, pn, KOMA_E_GAME_PIECE, "invalid PIN \"%s\"", q);
    }
    if (p & KOMA_PIECE_SECOND)
        return koma__y_error(y, pn, KOMA_E_GAME_PIECE,
                             "PIN \"%s\" must be written for the first player (uppercase)", pin);
    if (koma__game_kind_of(g, p) >= 0)
        return koma__y_error(y, pn, KOMA_E_GAME_PIECE, "duplicate piece \"%s\"", pin);
    k->pin = p;
    if (koma__y_get_str(y, n, "name", k->name, sizeof k->name, 0, NULL) != 0) return -1;
    yaml_node_t *bn;
    if (koma__y_get_str(y, n, "betza", k->betza, sizeof k->betza, 1, &bn) != 0) return -1;
    size_t nv;
    koma_error be;
    koma_error_clear(&be);
    if (koma_betza_parse(k->betza, strlen(k->betza), k->vec, KOMA_BETZA_MAX_VECTORS, &nv, &be) != 0) {
        koma__y_error(y, bn, be.code, "piece %s: %s", pin, be.message);
        /* point at the offending byte of a plain (unquoted, one-line) scalar */
        if (y->err && bn->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
            y->err->column += (unsigned long)be.offset;
            y->err->offset += be.offset;
        }
        return -1;
    }
    k->nvec = (uint8_t)nv;
    int royal = 0, resets = 0;
    if (koma__y_get_bool(y, n, "royal", &royal) != 0) return -1;
    if (koma__y_get_bool(y, n, "resets_move_limit", &resets) != 0) return -1;
    k->royal = (uint8_t)royal;
    k->resets_move_limit = (uint8_t)resets;
    if (royal && !(p & KOMA_PIECE_TERMINAL))
        return koma__y_error(y, pn, KOMA_E_GAME_PIECE,
                             "royal piece \"%s\" must carry the terminal marker '^'", pin);
    if (koma__y_get_str(y, n, "promotes_to", promotes[g->nkinds], 8, 0, NULL) != 0) return -1;
    unsigned mpr = 0;
    if (koma__y_get_uint(y, n, "must_promote_ranks", 0, 255, &mpr, 0) != 0) return -1;
    k->must_promote_ranks = (uint8_t)mpr;
    k->promotes_to = -1;
    k->droppable = 1;
    yaml_node_t *d = koma__y_get(y, n, "drop");
    if (d != NULL) {
        if (koma__y_check_keys(y, d, "drop", drop_keys) != 0) return -1;
        int never = 0, nifu = 0, nomate = 0;
        unsigned fr = 0;
        if (koma__y_get_bool(y, d, "never", &never) != 0 ||
            koma__y_get_bool(y, d, "nifu", &nifu) != 0 ||
            koma__y_get_bool(y, d, "no_mate", &nomate) != 0 ||
            koma__y_get_uint(y, d, "forbidden_ranks", 0, 255, &fr, 0) != 0)
            return -1;
        k->droppable = (uint8_t)!never;
        k->nifu = (uint8_t)nifu;
        k->drop_no_mate = (uint8_t)nomate;
        k->drop_forbidden_ranks = (uint8_t)fr;
    }
    if (royal) k->droppable = 0;
    g->nkinds++;
    return 0;
}

/*
 * defeat: when a side has lost (status mareking). royal_captured (default true):
 * its royal piece is in the other side's hand. survival: a list of sets of
 * pieces (first-player PINs of the game); a side whose board holds every piece
 * of none of the sets has lost. Both may be given (either defeats).
 */
static int parse_defeat(koma__ydoc *y, koma_game *g, yaml_node_t *n)
{
    g->royal_captured = 1;
    g->nsurvival = 0;
    if (n == NULL) return 0;
    if (koma__y_check_keys(y, n, "defeat", defeat_keys) != 0) return -1;
    if (koma__y_get_bool(y, n, "royal_captured", &g->royal_captured) != 0) return -1;
    yaml_node_t *sv = koma__y_get(y, n, "survival");
    if (sv == NULL) return 0;
    if (sv->type != YAML_SEQUENCE_NODE || sv->data.sequence.items.top == sv->data.sequence.items.start)
        return koma__y_error(y, sv, KOMA_E_GAME_FIELD,
                             "defeat.survival must be a non-empty list of lists of pieces");
    for (yaml_node_item_t *it = sv->data.sequence.items.start; it < sv->data.sequence.items.top; it++) {
        yaml_node_t *set = koma__y_node(y, *it);
        if (g->nsurvival >= KOMA__SURVIVAL_SETS)
            return koma__y_error(y, set, KOMA_E_GAME_LIMIT, "defeat.survival: more than %d sets",
                                 KOMA__SURVIVAL_SETS);
        if (set->type != YAML_SEQUENCE_NODE || set->data.sequence.items.top == set->data.sequence.items.start)
            return koma__y_error(y, set, KOMA_E_GAME_FIELD,
                                 "defeat.survival: each set must be a non-empty list of pieces");
        struct koma__survival_set *ss = &g->survival[g->nsurvival];
        ss->n = 0;
        for (yaml_node_item_t *pi = set->data.sequence.items.start; pi < set->data.sequence.items.top; pi++) {
            yaml_node_t *pn = koma__y_node(y, *pi);
            if (ss->n >= KOMA__SURVIVAL_SET_MAX)
                return koma__y_error(y, pn, KOMA_E_GAME_LIMIT,
                                     "defeat.survival: more than %d pieces in a set",
                                     KOMA__SURVIVAL_SET_MAX);
            koma_piece p;
            koma_error e2;
            int k = -1;
            if (koma__y_is_scalar(pn) &&
                koma_pin_parse(koma__y_sval(pn), koma__y_slen(pn), &p, &e2) == 0 &&
                !(p & KOMA_PIECE_SECOND))
                k = koma__game_kind_of(g, p);
            if (k < 0) {
                char q[32];
                int sc = koma__y_is_scalar(pn);
                koma_quote(q, sizeof q, sc ? koma__y_sval(pn) : "", sc ? koma__y_slen(pn) : 0);
                return koma__y_error(
                    y, pn, KOMA_E_GAME_PIECE,
                    "defeat.survival: \"%s\" is not a piece of the game (first-player PIN)", q);
            }
            for (unsigned j = 0; j < ss->n; j++)
                if (ss->kinds[j] == k)
                    return koma__y_error(y, pn, KOMA_E_GAME_PIECE,
                                         "defeat.survival: a piece twice in one set");
            ss->kinds[ss->n++] = (uint8_t)k;
        }
        g->nsurvival++;
    }
    return 0;
}

/* What ends a game and how, besides its moves: no legal move, repetition, the
 * move limit, the results (read for every game with rules, effect games too). */
static int parse_endings(koma__ydoc *y, koma_game *g, yaml_node_t *root)
{
    yaml_node_t *n;
    g->nolegal_check = g->check_rule ? KOMA__NL_CHECKMATE : KOMA__NL_NOMOVE;
    g->nolegal_other = g->check_rule ? KOMA__NL_STALEMATE : KOMA__NL_NOMOVE;
    if ((n = koma__y_get(y, root, "no_legal_move")) != NULL) {
        if (koma__y_check_keys(y, n, "no_legal_move", nolegal_keys) != 0) return -1;
        if (parse_nolegal(y, koma__y_get(y, n, "in_check"), "in_check", &g->nolegal_check) != 0 ||
            parse_nolegal(y, koma__y_get(y, n, "otherwise"), "otherwise", &g->nolegal_other) != 0)
            return -1;
    }
    g->repetition = KOMA__REP_NONE;
    if ((n = koma__y_get(y, root, "repetition")) != NULL) {
        if (koma__y_check_keys(y, n, "repetition", repetition_keys) != 0) return -1;
        yaml_node_t *r = koma__y_get(y, n, "rule");
        if (r == NULL) return koma__y_error(y, n, KOMA_E_GAME_FIELD, "missing \"rule\"");
        if (koma__y_scalar_is(r, "none")) g->repetition = KOMA__REP_NONE;
        else if (koma__y_scalar_is(r, "same-move")) g->repetition = KOMA__REP_SAME_MOVE;
        else if (koma__y_scalar_is(r, "fourfold")) g->repetition = KOMA__REP_FOURFOLD;
        else
            return koma__y_error(y, r, KOMA_E_GAME_FIELD,
                                 "repetition.rule must be none, same-move or fourfold");
        g->repetition_count = 4;
        if (koma__y_get_uint(y, n, "count", 2, 1000, &g->repetition_count, 0) != 0) return -1;
        yaml_node_t *pc = koma__y_get(y, n, "perpetual_check");
        if (pc != NULL) {
            if (koma__y_scalar_is(pc, "loss")) g->perpetual_check_loses = 1;
            else if (koma__y_scalar_is(pc, "none")) g->perpetual_check_loses = 0;
            else
                return koma__y_error(y, pc, KOMA_E_GAME_FIELD,
                                     "repetition.perpetual_check must be loss or none");
        }
    }
    if ((n = koma__y_get(y, root, "move_limit")) != NULL) {
        if (koma__y_check_keys(y, n, "move_limit", limit_keys) != 0) return -1;
        if (koma__y_get_uint(y, n, "plies", 0, 60000, &g->move_limit, 1) != 0) return -1;
        g->move_limit_capture_resets = 1;
        if (koma__y_get_bool(y, n, "capture_resets", &g->move_limit_capture_resets) != 0) return -1;
    }
    if ((n = koma__y_get(y, root, "illegal_ply")) != NULL) {
        if (koma__y_scalar_is(n, "rejected")) g->illegal_rejected = 1;
        else if (!koma__y_scalar_is(n, "loss"))
            return koma__y_error(y, n, KOMA_E_GAME_FIELD, "illegal_ply must be loss or rejected");
    }
    if ((n = koma__y_get(y, root, "move_cap")) != NULL) {
        if (koma__y_check_keys(y, n, "move_cap", cap_keys) != 0) return -1;
        if (koma__y_get_uint(y, n, "plies", 1, 60000, &g->move_cap, 1) != 0) return -1;
    }
    for (int i = 0; i < KOMA_STATUS_COUNT; i++) g->term[i] = -1;
    if ((n = koma__y_get(y, root, "termination")) != NULL) {
        if (n->type != YAML_MAPPING_NODE)
            return koma__y_error(y, n, KOMA_E_GAME_FIELD, "termination must be a mapping");
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            yaml_node_t *k = koma__y_node(y, p->key), *v = koma__y_node(y, p->value);
            koma_status st;
            koma_error e2;
            if (!koma__y_is_scalar(k) || koma_cgsn_parse(koma__y_sval(k), koma__y_slen(k), &st, &e2) != 0)
                return koma__y_error(y, k, KOMA_E_GAME_FIELD,
                                     "termination keys must be CGSN statuses");
            if (!decided_status(st))
                return koma__y_error(y, k, KOMA_E_GAME_FIELD,
                                     "termination: the rules never end a game with \"%s\" "
                                     "(only checkmate, stalemate, nomove, bareking, mareking, "
                                     "insufficient, illegalmove, repetition, movelimit)", koma_cgsn_name(st));
            for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++) {
                yaml_node_t *k2 = koma__y_node(y, q->key);
                koma_status st2;
                if (koma_cgsn_parse(koma__y_sval(k2), koma__y_slen(k2), &st2, &e2) == 0 && st2 == st)
                    return koma__y_error(y, k, KOMA_E_GAME_FIELD,
                                         "termination: duplicate key \"%s\"", koma_cgsn_name(st));
            }
            if (koma__y_scalar_is(v, "loss")) g->term[st] = KOMA__LOSS;
            else if (koma__y_scalar_is(v, "draw")) g->term[st] = KOMA__DRAW;
            else if (koma__y_scalar_is(v, "win")) g->term[st] = KOMA__WIN;
            else
                return koma__y_error(y, v, KOMA_E_GAME_FIELD,
                                     "termination results are loss, draw or win");
        }
    }
    return 0;
}

static int parse_rules(koma__ydoc *y, koma_game *g, yaml_node_t *root)
{
    yaml_node_t *n;
    g->zone = 0;
    if ((n = koma__y_get(y, root, "promotion")) != NULL) {
        if (koma__y_check_keys(y, n, "promotion", promotion_keys) != 0) return -1;
        if (koma__y_get_uint(y, n, "zone", 0, g->ranks, &g->zone, 1) != 0) return -1;
        if (koma__y_get_bool(y, n, "compulsory", &g->compulsory_promotion) != 0) return -1;
    }
    if (koma__y_get_bool(y, root, "check", &g->check_rule) != 0 ||
        koma__y_get_bool(y, root, "kings_privilege", &g->kings_privilege) != 0 ||
        koma__y_get_bool(y, root, "promoted_drops", &g->promoted_drops) != 0 ||
        koma__y_get_bool(y, root, "bare_king", &g->bare_king) != 0)
        return -1;
    if (parse_endings(y, g, root) != 0) return -1;
    n = koma__y_get(y, root, "pieces");
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start)
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "pieces must be a non-empty list");
    char promotes[KOMA__MAX_KINDS][8];
    yaml_node_t *pnodes[KOMA__MAX_KINDS];
    g->nkinds = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *pn = koma__y_node(y, *it);
        if (g->nkinds < KOMA__MAX_KINDS) pnodes[g->nkinds] = pn;
        if (parse_piece(y, g, pn, promotes) != 0) return -1;
    }
    /* cross references */
    for (unsigned i = 0; i < g->nkinds; i++) {
        koma__kind *k = &g->kinds[i];
        if (promotes[i][0]) {
            koma_piece p;
            koma_error e2;
            int t = -1;
            if (koma_pin_parse(promotes[i], strlen(promotes[i]), &p, &e2) == 0)
                t = koma__game_kind_of(g, p);
            if (t < 0 || (size_t)t == i) {
                char q[32];
                koma_quote(q, sizeof q, promotes[i], strlen(promotes[i]));
                return koma__y_error(y, pnodes[i], KOMA_E_GAME_PIECE,
                                     "promotes_to \"%s\" is not another piece of the game", q);
            }
            if (k->royal || g->kinds[t].royal)
                return koma__y_error(y, pnodes[i], KOMA_E_GAME_PIECE,
                                     "royal pieces do not promote here");
            k->promotes_to = (int8_t)t;
            g->kinds[t].promoted = 1;
        }
    }
    for (unsigned i = 0; i < g->nkinds; i++) {
        koma__kind *k = &g->kinds[i];
        if (k->promotes_to >= 0 && g->kinds[k->promotes_to].promotes_to >= 0)
            return koma__y_error(y, pnodes[i], KOMA_E_GAME_PIECE, "promotion chains are not supported");
        if (k->promoted && k->promotes_to >= 0)
            return koma__y_error(y, pnodes[i], KOMA_E_GAME_PIECE, "a promoted piece cannot promote");
        /* a captured piece enters the hand without its state prefix */
        koma_piece base = (koma_piece)(k->pin & ~KOMA_PIECE_STATE);
        int b = koma__game_kind_of(g, base);
        if (b < 0)
            return koma__y_error(y, pnodes[i], KOMA_E_GAME_PIECE,
                                 "piece without its state prefix is not a piece of the game");
        k->demotes_to = (int8_t)b;
        if (k->promoted && !g->promoted_drops) k->droppable = 0;
        if (k->must_promote_ranks > 0 && k->promotes_to < 0)
            return koma__y_error(y, pnodes[i], KOMA_E_GAME_PIECE,
                                 "must_promote_ranks on a piece that does not promote");
        if (k->must_promote_ranks > g->zone)
            return koma__y_error(y, pnodes[i], KOMA_E_GAME_PIECE,
                                 "must_promote_ranks exceeds the promotion zone");
    }
    return parse_defeat(y, g, koma__y_get(y, root, "defeat"));
}

static int check_start(koma__ydoc *y, koma_game *g, yaml_node_t *sn)
{
    koma_position pos;
    koma_position_init(&pos);
    koma_error fe;
    koma_error_clear(&fe);
    int rc = -1;
    if (koma_feen_parse(g->start, g->start_len, KOMA_FEEN_STRICT, &pos, &fe) != 0) {
        koma__y_error(y, sn, fe.code, "start: %s", fe.message);
        goto done;
    }
    if (pos.shape.ndims != 2 || pos.shape.size[0] != g->files || pos.shape.size[1] != g->ranks) {
        koma__y_error(y, sn, KOMA_E_GAME_FIELD, "start position is not %ux%u", g->files, g->ranks);
        goto done;
    }
    if (!koma__game_styles_fit(g, pos.style[0], pos.style[1])) {
        if (g->styles[0])
            koma__y_error(y, sn, KOMA_E_GAME_FIELD, "start position does not use the styles %s",
                          g->styles);
        else
            koma__y_error(y, sn, KOMA_E_GAME_FIELD, "start position does not use style %c/%c",
                          g->style, tolower((unsigned char)g->style));
        goto done;
    }
    /* a playable game's engine starts there: the start must fit it as any
     * position must (pieces of the game, hands, royals) */
    if (g->playable && koma__position_fits(g, &pos, &fe) != 0) {
        koma__y_error(y, sn, fe.code, "start position: %s", fe.message);
        goto done;
    }
    rc = 0;
done:
    koma_position_cleanup(&pos);
    return rc;
}

/* ---- how the game is drawn ------------------------------------------------------------ */

static const char *const diagram_keys[] = {"coordinates", "grid", "kanji", NULL};

/* Characters of a piece name: valid UTF-8, no control or space characters. Returns the
 * number of characters, or 0 when s is not such a string. */
static size_t label_chars(const char *s, size_t len)
{
    size_t i = 0, n = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        unsigned cp, need;
        if (c < 0x80) { cp = c; need = 0; }
        else if ((c & 0xE0) == 0xC0) { cp = c & 0x1Fu; need = 1; }
        else if ((c & 0xF0) == 0xE0) { cp = c & 0x0Fu; need = 2; }
        else if ((c & 0xF8) == 0xF0) { cp = c & 0x07u; need = 3; }
        else return 0;
        if (i + need >= len) return 0;
        for (unsigned k = 1; k <= need; k++) {
            unsigned char d = (unsigned char)s[i + k];
            if ((d & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        static const unsigned min[] = {0, 0x80, 0x800, 0x10000};
        if (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        if (cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0x3000 || cp == 0xFEFF) return 0;
        i += need + 1;
        n++;
    }
    return n;
}

/* A diagram.kanji key: a first-player EPIN (style 0), or a QPI with an optional
 * "'" ("W:K^", "c:g^", "J:K^'": the piece of that style and side; Sanki). */
static int label_key(const char *s, size_t len, koma_piece *pc, char *style)
{
    koma_error e2;
    *style = 0;
    if (memchr(s, ':', len) == NULL)
        return koma_epin_parse(s, len, pc, &e2) != 0 || (*pc & KOMA_PIECE_SECOND) ? -1 : 0;
    int derived = len > 0 && s[len - 1] == '\'';
    koma_qpi q;
    if (koma_qpi_parse(s, len - (size_t)derived, &q, &e2) != 0) return -1;
    *pc = (koma_piece)(q.piece | (derived ? KOMA_PIECE_DERIVED : 0));
    *style = (char)(q.style & ~0x20);
    return 0;
}

/*
 * diagram: {coordinates: cell|shogi, grid: squares|points, kanji: {EPIN: NAME, ...}}.
 * The kanji map names each first-player identity (the second player's uses the same
 * name); a key may carry "'" (Ko shogi's second alphabet, Ogi's Jeweled King). A key
 * may also be a QPI naming a piece of one style and side (Sanki: "W:K^" ♔, "w:k^" ♚);
 * diagram_layout.c says how such names are found.
 */
static int parse_diagram(koma__ydoc *y, koma_game *g, yaml_node_t *root)
{
    g->coords = KOMA__COORDS_CELL;
    g->grid = KOMA__GRID_SQUARES;
    g->nlabels = 0;
    yaml_node_t *d = koma__y_get(y, root, "diagram");
    if (d == NULL) return 0;
    if (koma__y_check_keys(y, d, "diagram", diagram_keys) != 0) return -1;
    yaml_node_t *n;
    if ((n = koma__y_get(y, d, "coordinates")) != NULL) {
        if (koma__y_scalar_is(n, "cell")) g->coords = KOMA__COORDS_CELL;
        else if (koma__y_scalar_is(n, "shogi")) g->coords = KOMA__COORDS_SHOGI;
        else return koma__y_error(y, n, KOMA_E_GAME_FIELD, "diagram.coordinates must be cell or shogi");
    }
    if ((n = koma__y_get(y, d, "grid")) != NULL) {
        if (koma__y_scalar_is(n, "squares")) g->grid = KOMA__GRID_SQUARES;
        else if (koma__y_scalar_is(n, "points")) g->grid = KOMA__GRID_POINTS;
        else return koma__y_error(y, n, KOMA_E_GAME_FIELD, "diagram.grid must be squares or points");
    }
    yaml_node_t *k = koma__y_get(y, d, "kanji");
    if (k == NULL) return 0;
    if (k->type != YAML_MAPPING_NODE)
        return koma__y_error(y, k, KOMA_E_GAME_FIELD, "diagram.kanji must be a mapping");
    for (yaml_node_pair_t *p = k->data.mapping.pairs.start; p < k->data.mapping.pairs.top; p++) {
        yaml_node_t *key = koma__y_node(y, p->key), *val = koma__y_node(y, p->value);
        if (!koma__y_is_scalar(key))
            return koma__y_error(y, key, KOMA_E_GAME_FIELD, "diagram.kanji: key must be a piece");
        koma_piece pc;
        char style;
        if (label_key(koma__y_sval(key), koma__y_slen(key), &pc, &style) != 0) {
            char q[32];
            koma_quote(q, sizeof q, koma__y_sval(key), koma__y_slen(key));
            return koma__y_error(y, key, KOMA_E_GAME_PIECE,
                                 "diagram.kanji: \"%s\" is not a first-player EPIN or a QPI", q);
        }
        for (unsigned i = 0; i < g->nlabels; i++)
            if (g->labels[i].piece == pc && g->labels[i].style == style) {
                char q[32];
                koma_quote(q, sizeof q, koma__y_sval(key), koma__y_slen(key));
                return koma__y_error(y, key, KOMA_E_GAME_FIELD, "diagram.kanji: duplicate key \"%s\"", q);
            }
        if (g->nlabels >= KOMA__MAX_LABELS)
            return koma__y_error(y, key, KOMA_E_GAME_LIMIT, "diagram.kanji: more than %d pieces",
                                 KOMA__MAX_LABELS);
        size_t nc = koma__y_is_scalar(val) ? label_chars(koma__y_sval(val), koma__y_slen(val)) : 0;
        if (nc < 1 || nc > 3 || koma__y_slen(val) >= KOMA__LABEL_MAX)
            return koma__y_error(y, val, KOMA_E_GAME_FIELD,
                                 "diagram.kanji: a name is 1 to 3 printable characters");
        koma__label *l = &g->labels[g->nlabels++];
        l->piece = pc;
        l->style = style;
        memcpy(l->text, koma__y_sval(val), koma__y_slen(val));
        l->text[koma__y_slen(val)] = '\0';
    }
    return 0;
}

/* side_names: [first, second], the players as verdict texts name them */
static int parse_side_names(koma__ydoc *y, yaml_node_t *n, koma_game *g)
{
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top - n->data.sequence.items.start != 2)
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "side_names must be a list of two names");
    for (int s = 0; s < 2; s++) {
        yaml_node_t *v = koma__y_node(y, n->data.sequence.items.start[s]);
        size_t len = v ? koma__y_slen(v) : 0;
        if (v == NULL || !koma__y_is_scalar(v) || len == 0 || len >= sizeof g->side_names[s])
            return koma__y_error(y, v ? v : n, KOMA_E_GAME_FIELD, "a side name is text of 1 to %zu bytes",
                                 sizeof g->side_names[s] - 1);
        memcpy(g->side_names[s], koma__y_sval(v), len + 1);
    }
    return 0;
}

static int parse_game(koma__ydoc *y, const load_src *src, koma_game *g)
{
    yaml_node_t *root = koma__y_root(y);
    if (root == NULL) return koma__y_error(y, NULL, KOMA_E_GAME_YAML, "empty game definition");
    /* `engine: effects`: the rules are compiled by fx_def.c, which checks the keys */
    yaml_node_t *engine = koma__y_get(y, root, "engine");
    if (engine != NULL && koma__y_scalar_is(engine, "sanki")) {
        g->sanki = 1;
        engine = NULL;                 /* the generic reader, with the Sanki pieces */
        if (koma__y_check_keys(y, root, "game definition", sanki_top_keys) != 0) return -1;
    } else if (engine != NULL && !koma__y_scalar_is(engine, "effects")) {
        return koma__y_error(y, engine, KOMA_E_GAME_FIELD, "engine must be effects or sanki");
    }
    if (engine == NULL && !g->sanki && koma__y_check_keys(y, root, "game definition", top_keys) != 0)
        return -1;
    yaml_node_t *n;
    if (koma__y_get_str(y, root, "id", g->id, sizeof g->id, 1, &n) != 0) return -1;
    if (g->id[0] == '\0') return koma__y_error(y, n, KOMA_E_GAME_FIELD, "empty id");
    g->id_offset = n->start_mark.index;
    g->id_line = (unsigned long)n->start_mark.line + 1;
    g->id_column = (unsigned long)n->start_mark.column + 1;
    for (const char *c = g->id; *c; c++)
        if (!(KOMA_IS_LOWER(*c) || KOMA_IS_DIGIT(*c) || *c == '-'))
            return koma__y_error(y, n, KOMA_E_GAME_FIELD,
                                 "id must be lowercase letters, digits and '-'");
    char name[64];
    if (koma__y_get_str(y, root, "name", name, sizeof name, 1, &n) != 0) return -1;
    koma_error e2;
    if (koma_snn_parse(name, strlen(name), g->name, &e2) != 0)
        return koma__y_error(y, n, e2.code, "name: %s", e2.message);
    char style[4];
    if (koma__y_get_str(y, root, "style", style, sizeof style, 1, &n) != 0) return -1;
    if (strlen(style) != 1 || !KOMA_IS_ALPHA(style[0]))
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "style must be one letter");
    g->style = (char)toupper((unsigned char)style[0]);
    g->styles[0] = '\0';
    if ((n = koma__y_get(y, root, "styles")) != NULL) {
        if (koma__game_styles(y, n, g->styles, sizeof g->styles) != 0) return -1;
        if (strchr(g->styles, g->style) == NULL)
            return koma__y_error(y, n, KOMA_E_GAME_FIELD, "styles must include the style %c", g->style);
    }
    if ((n = koma__y_get(y, root, "side_names")) != NULL && parse_side_names(y, n, g) != 0) return -1;
    if (g->sanki && g->styles[0] == '\0')
        return koma__y_error(y, root, KOMA_E_GAME_FIELD, "a Sanki game lists its \"styles\"");
    g->by_feen = 1;
    if (koma__y_get_bool(y, root, "by_feen", &g->by_feen) != 0) return -1;
    n = koma__y_get(y, root, "board");
    if (n == NULL) return koma__y_error(y, root, KOMA_E_GAME_FIELD, "missing \"board\"");
    if (koma__y_check_keys(y, n, "board", board_keys) != 0) return -1;
    if (koma__y_get_uint(y, n, "files", 1, KOMA_MAX_DIMENSION, &g->files, 1) != 0 ||
        koma__y_get_uint(y, n, "ranks", 2, KOMA_MAX_DIMENSION, &g->ranks, 1) != 0)
        return -1;
    if (parse_diagram(y, g, root) != 0) return -1;
    yaml_node_t *pieces = koma__y_get(y, root, "pieces");
    g->playable = pieces != NULL;
    if (engine != NULL) {
        /* an effect game: fx_def.c compiles its rules and checks its keys; the
         * endings are read here as for any game */
        if (koma__fx_def_load(src->text, src->len, y->source, src->options, src->noptions,
                              &g->fx, src->bad_option, y->err) != 0)
            return -1;
        g->playable = 1;
        g->yaml = malloc(src->len + 1);
        if (g->yaml == NULL) return koma__y_error(y, root, KOMA_E_MEMORY, "out of memory");
        memcpy(g->yaml, src->text, src->len);
        g->yaml[src->len] = '\0';
        g->yaml_len = src->len;
        if (parse_endings(y, g, root) != 0) return -1;
    } else if (g->sanki) {
        if (g->files != 8 || g->ranks != 8)
            return koma__y_error(y, n, KOMA_E_GAME_FIELD, "a Sanki game is played on an 8x8 board");
        g->playable = 1;
        if (parse_endings(y, g, root) != 0 || koma__game_sanki_pieces(y, g, root) != 0) return -1;
    } else if (g->playable) {
        if (g->files > KOMA__MAX_FILES || g->ranks > KOMA__MAX_RANKS)
            return koma__y_error(y, n, KOMA_E_GAME_LIMIT, "the rule engine plays boards up to %dx%d",
                                 KOMA__MAX_FILES, KOMA__MAX_RANKS);
        if (parse_rules(y, g, root) != 0) return -1;
    } else {
        static const char *const rule_keys[] = {
            "promotion", "check", "kings_privilege", "promoted_drops", "bare_king",
            "no_legal_move", "repetition", "move_limit", "termination", "defeat", NULL};
        for (size_t i = 0; rule_keys[i]; i++)
            if ((n = koma__y_get(y, root, rule_keys[i])) != NULL)
                return koma__y_error(y, n, KOMA_E_GAME_FIELD, "\"%s\" without \"pieces\"",
                                     rule_keys[i]);
    }
    n = koma__y_get(y, root, "start");
    if (n == NULL) {
        if (g->playable) return koma__y_error(y, root, KOMA_E_GAME_FIELD, "missing \"start\"");
        return 0;
    }
    if (!koma__y_is_scalar(n))
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "start must be a FEEN string");
    g->start = malloc(koma__y_slen(n) + 1);
    if (g->start == NULL) return koma__y_error(y, n, KOMA_E_MEMORY, "out of memory");
    memcpy(g->start, koma__y_sval(n), koma__y_slen(n));
    g->start[koma__y_slen(n)] = '\0';
    g->start_len = koma__y_slen(n);
    return check_start(y, g, n);
}

static void game_free(koma_game *g)
{
    if (g == NULL) return;
    koma__fx_def_free(g->fx);
    free(g->variant);
    free(g->yaml);
    free(g->start);
    free(g);
}

/*
 * A game definition nests at most KOMA_LIMIT_DEPTH levels
 * (game.depth). libyaml has no limit of its own and its scanner is quadratic in
 * the depth of flow nesting (200,000 '[' take minutes), so a file loaded by the
 * user is first read as events, counting the depth, and refused at the first
 * collection too deep, before the document is built. A syntax error met first
 * is left to the loader, which reports it. Aliases are not followed: the game
 * reader takes each value where it is written.
 */
static int check_depth(const char *yaml, size_t len, const char *source, koma_error *err)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (YAML parser)");
    yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
    unsigned depth = 0;
    int rc = 0, done = 0;
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            if (parser.error == YAML_MEMORY_ERROR) rc = koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
            break;
        }
        switch (ev.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth <= KOMA_LIMIT_DEPTH) break;
            rc = koma_error_set(err, KOMA_E_GAME_DEPTH, ev.start_mark.index,
                                "nesting deeper than %u levels", KOMA_LIMIT_DEPTH);
            if (err) {
                err->line = (unsigned long)ev.start_mark.line + 1;
                err->column = (unsigned long)ev.start_mark.column + 1;
                err->source = source;
            }
            done = 1;
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: depth--; break;
        case YAML_STREAM_END_EVENT: done = 1; break;
        default: break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return rc;
}

static int load_game(const char *yaml, size_t len, const char *source,
                     const char *const *options, size_t noptions, size_t *bad_option, koma_game **out,
                     koma_error *err)
{
    *out = NULL;
    if (bad_option) *bad_option = noptions;
    koma__ydoc y;
    if (koma__ydoc_load(&y, yaml, len, source, err) != 0) return -1;
    const load_src src = {yaml, len, options, noptions, bad_option};
    koma_game *g = calloc(1, sizeof *g);
    int rc = -1;
    if (g == NULL)
        koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (game)");
    else
        rc = parse_game(&y, &src, g);
    koma__ydoc_free(&y);
    if (rc != 0) {
        game_free(g);
        return -1;
    }
    *out = g;
    return 0;
}

int koma__game_load_text(const char *yaml, size_t len, const char *source, koma_game **out,
                         koma_error *err)
{
    *out = NULL;
    if (check_depth(yaml, len, source, err) != 0) return -1;
    return load_game(yaml, len, source, NULL, 0, NULL, out, err);
}

int koma__game_load_builtin(const struct koma__embedded_game *e, koma_game **out, koma_error *err)
{
    if (load_game(e->yaml, e->len, e->id, NULL, 0, NULL, out, err) != 0) return -1;
    (*out)->builtin = 1;
    return 0;
}

void koma__game_free(koma_game *g) { game_free(g); }

/* ---- rule options ----------------------------------------------------------------- */

int koma__game_variant_new(const koma_game *g, const char *const *opts, size_t n,
                           koma_game **out, size_t *bad, koma_error *err)
{
    *out = NULL;
    if (bad) *bad = n;
    if (g->fx == NULL)
        return koma_error_set(err, KOMA_E_GAME_OPTION_UNKNOWN, 0, "game %s has no rule options",
                              g->id);
    /* the key: the settings in order (the same list gives the same variant) */
    size_t klen = strlen(g->id) + 2;
    for (size_t i = 0; i < n; i++) klen += strlen(opts[i]) + 1;
    char *key = malloc(klen);
    if (key == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (games)");
    strcpy(key, g->id);
    for (size_t i = 0; i < n; i++) {
        strcat(key, i ? ";" : ":");
        strcat(key, opts[i]);
    }
    koma_game *v;
    if (load_game(g->yaml, g->yaml_len, g->id, opts, n, bad, &v, err) != 0) {
        free(key);
        return -1;
    }
    v->variant = key;
    v->builtin = 0;
    *out = v;
    return 0;
}

size_t koma_game_option_count(const koma_game *g) { return g->fx ? g->fx->noptions : 0; }

const char *koma_game_option_name(const koma_game *g, size_t i)
{
    return g->fx && i < g->fx->noptions ? g->fx->options[i].name : NULL;
}

const char *koma_game_option_value(const koma_game *g, size_t i)
{
    return g->fx && i < g->fx->noptions ? g->fx->options[i].value : NULL;
}

int koma__position_fits(const koma_game *g, const koma_position *pos, koma_error *err)
{
    return koma__position_fits_kinds(g, pos, NULL, err);
}

/* A piece's kind: by the table (kind_of[p & KOMA_PIECE_MASK]), or koma__game_kind_of. */
static int kind_by(const koma_game *g, const int8_t *kind_of, koma_piece p)
{
    return kind_of ? kind_of[p & KOMA_PIECE_MASK] : koma__game_kind_of(g, p);
}

int koma__position_fits_kinds(const koma_game *g, const koma_position *pos, const int8_t *kind_of,
                              koma_error *err)
{
    if (g->fx) return koma__fx_position_fits(g->fx, pos, err);
    if (g->sanki) return koma__sanki_position_fits(g, pos, err);
    if (pos->shape.ndims != 2 || pos->shape.size[0] != g->files || pos->shape.size[1] != g->ranks)
        return koma_error_set(err, KOMA_E_RULES_SHAPE, 0, "%s is played on a %ux%u board", g->id,
                              g->files, g->ranks);
    char lower = (char)(g->style - 'A' + 'a');
    if (pos->style[0] != g->style || pos->style[1] != lower)
        return koma_error_set(err, KOMA_E_RULES_STYLE, 0, "%s positions use the styles %c/%c",
                              g->id, g->style, lower);
    /* each piece's kind found once: unknown pieces first, then the hands, then
     * the royals counted here (check-rule games) */
    int royals[2] = {0, 0};
    for (uint32_t sq = 0; sq < pos->shape.squares; sq++) {
        koma_piece p = pos->board[sq];
        if (p == KOMA_PIECE_NONE) continue;
        int k = kind_by(g, kind_of, p);
        if (k < 0) {
            char b[KOMA_EPIN_BUF];
            koma_epin_write(p, b);
            return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" is not a piece of %s", b, g->id);
        }
        if (g->check_rule && g->kinds[k].royal) royals[koma_piece_side(p)]++;
    }
    for (int s = 0; s < 2; s++) {
        const koma_hand *h = &pos->hands[s];
        for (size_t i = 0; i < h->len; i++) {
            koma_piece p = h->items[i].piece;
            int known = kind_by(g, kind_of, p) >= 0, own = koma_piece_side(p) == s;
            if (known && own && h->items[i].count <= pos->shape.squares) continue;
            char b[KOMA_EPIN_BUF];
            koma_epin_write(p, b);
            if (!known)
                return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" in hand is not a piece of %s",
                                      b, g->id);
            if (!own)
                return koma_error_set(err, KOMA_E_RULES_HAND, 0,
                                      "\"%s\" in the %s player's hand: a hand holds its owner's pieces",
                                      b, s ? "second" : "first");
            return koma_error_set(err, KOMA_E_RULES_HAND, 0, "too many \"%s\" in hand", b);
        }
    }
    if (g->check_rule)
        for (int s = 0; s < 2; s++)
            if (royals[s] > 1)
                return koma_error_set(err, KOMA_E_RULES_ROYAL, 0, "%s: the %s player has %d royal pieces",
                                      g->id, s ? "second" : "first", royals[s]);
    return 0;
}

const char *koma_game_id(const koma_game *g) { return g->id; }
const char *koma_game_name(const koma_game *g) { return g->name; }
char koma_game_style(const koma_game *g) { return g->style; }
unsigned koma_game_files(const koma_game *g) { return g->files; }
unsigned koma_game_ranks(const koma_game *g) { return g->ranks; }
const char *koma_game_start(const koma_game *g) { return g->start; }
int koma_game_playable(const koma_game *g) { return g->playable; }

int koma_game_require_rules(const koma_game *g, koma_error *err)
{
    if (g->playable) return 0;
    return koma_error_set(err, KOMA_E_GAME_NO_RULES, 0,
                          "game %s defines no pieces, so it has no rule engine", g->id);
}
const char *koma_game_side_name(const koma_game *g, int side)
{
    if (g != NULL && g->side_names[side != KOMA_FIRST][0] != '\0') return g->side_names[side != KOMA_FIRST];
    return side == KOMA_FIRST ? "Sente" : "Gote";
}

int koma_game_survival_test(const koma_game *g)
{
    return g->fx != NULL || (g->nsurvival > 0 && !g->royal_captured);
}

const char *koma_game_kanji(const koma_game *g, koma_piece p)
{
    if (g == NULL || p == KOMA_PIECE_NONE) return NULL;
    koma_piece key = (koma_piece)(p & KOMA_PIECE_MASK & ~KOMA_PIECE_SECOND);
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < g->nlabels; i++)
            if (g->labels[i].piece == key && g->labels[i].style == 0) return g->labels[i].text;
        if (!(key & KOMA_PIECE_DERIVED)) break;
        key = (koma_piece)(key & ~KOMA_PIECE_DERIVED);    /* a marker the game does not name */
    }
    return NULL;
}

koma_result koma_game_result(const koma_game *g, koma_status status, int side)
{
    int t = g->term[status] < 0 ? KOMA__LOSS : g->term[status];
    if (t == KOMA__DRAW) return KOMA_RESULT_DRAW;
    int winner = t == KOMA__LOSS ? side ^ 1 : side;
    return winner == KOMA_FIRST ? KOMA_RESULT_FIRST : KOMA_RESULT_SECOND;
}

/* Results are read and written from the one table of lib/pcn_tree.c. */
koma_result koma_result_parse(const char *s, size_t len)
{
    int i = koma__pcn_result_index(s, len);
    return i >= 0 && i <= 2 ? (koma_result)(KOMA_RESULT_FIRST + i) : KOMA_RESULT_NONE;
}

const char *koma_result_name(koma_result r)
{
    if (r < KOMA_RESULT_FIRST || r > KOMA_RESULT_DRAW) return "*";
    return koma__pcn_result_text((int)(r - KOMA_RESULT_FIRST));
}
