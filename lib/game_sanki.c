/*
 * lib/game_sanki.c — what a game definition with `engine: sanki` holds besides
 * what every definition has (the Sanki family, koma-games(7), SANKI): the pieces
 * of the three variants with their names for each style (their movement is the
 * Sanki engine's, sanki_movegen.c; a `betza` there is a description only), and
 * which positions fit such a game.
 */
#include <ctype.h>
#include <string.h>
#include <yaml.h>

#include "internal.h"
#include "game_internal.h"
#include "util_yaml.h"

static const char *const sanki_piece_keys[] = {"pin", "name", "styles", "betza", NULL};

int koma__styles_fit(char style, const char *styles, char first, char second)
{
    char up1 = (char)toupper((unsigned char)first), up2 = (char)toupper((unsigned char)second);
    if (styles[0] == '\0') return first == style && second == (char)tolower((unsigned char)style);
    return first == up1 && second != up2 && strchr(styles, up1) && strchr(styles, up2);
}

int koma__game_styles_fit(const koma_game *g, char first, char second)
{
    return koma__styles_fit(g->style, g->styles, first, second);
}

/* A style list: a sequence of letters, each kept uppercase into out (a set). */
int koma__game_styles(koma__ydoc *y, yaml_node_t *n, char *out, size_t cap)
{
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start)
        return koma__y_error(y, n, KOMA_E_GAME_FIELD, "styles must be a non-empty list of letters");
    size_t len = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *s = koma__y_node(y, *it);
        if (!koma__y_is_scalar(s) || koma__y_slen(s) != 1 || !KOMA_IS_ALPHA(koma__y_sval(s)[0]))
            return koma__y_error(y, s, KOMA_E_GAME_FIELD, "a style is one letter");
        char c = koma__y_sval(s)[0];
        if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        if (memchr(out, c, len)) return koma__y_error(y, s, KOMA_E_GAME_FIELD, "style %c listed twice", c);
        if (len + 1 >= cap) return koma__y_error(y, s, KOMA_E_GAME_LIMIT, "more than %zu styles", cap - 1);
        out[len++] = c;
        out[len] = '\0';
    }
    return 0;
}

int koma__game_sanki_pieces(koma__ydoc *y, koma_game *g, yaml_node_t *root)
{
    yaml_node_t *n = koma__y_get(y, root, "pieces");
    if (n == NULL || n->type != YAML_SEQUENCE_NODE ||
        n->data.sequence.items.top == n->data.sequence.items.start)
        return koma__y_error(y, n ? n : root, KOMA_E_GAME_FIELD, "pieces must be a non-empty list");
    g->nkinds = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *pn = koma__y_node(y, *it);
        if (koma__y_check_keys(y, pn, "piece", sanki_piece_keys) != 0) return -1;
        if (g->nkinds >= KOMA__MAX_KINDS)
            return koma__y_error(y, pn, KOMA_E_GAME_LIMIT, "more than %d pieces", KOMA__MAX_KINDS);
        koma__kind *k = &g->kinds[g->nkinds];
        memset(k, 0, sizeof *k);
        char pin[8];
        yaml_node_t *v;
        koma_piece p;
        koma_error e2;
        if (koma__y_get_str(y, pn, "pin", pin, sizeof pin, 1, &v) != 0) return -1;
        if (koma_pin_parse(pin, strlen(pin), &p, &e2) != 0 || (p & (KOMA_PIECE_SECOND | KOMA_PIECE_STATE)))
            return koma__y_error(y, v, KOMA_E_GAME_PIECE,
                                 "a Sanki piece is an uppercase letter, with '^' for a royal");
        k->pin = p;
        k->royal = (p & KOMA_PIECE_TERMINAL) != 0;
        if (koma__y_get_str(y, pn, "name", k->name, sizeof k->name, 1, NULL) != 0 ||
            koma__y_get_str(y, pn, "betza", k->betza, sizeof k->betza, 0, NULL) != 0)
            return -1;
        char styles[8] = "";
        if ((v = koma__y_get(y, pn, "styles")) == NULL)
            return koma__y_error(y, pn, KOMA_E_GAME_FIELD, "missing \"styles\"");
        if (koma__game_styles(y, v, styles, sizeof styles) != 0) return -1;
        for (const char *c = styles; *c; c++) {
            const char *at = strchr(g->styles, *c);
            if (at == NULL) return koma__y_error(y, v, KOMA_E_GAME_FIELD, "style %c is not one of the game's", *c);
            k->styles |= (uint8_t)(1u << (at - g->styles));
        }
        k->promotes_to = -1;
        k->demotes_to = (int8_t)g->nkinds;
        g->nkinds++;
    }
    return 0;
}

/* The piece of the game (letter and '^'; the state is a marker) or -1. */
static int sanki_kind(const koma_game *g, koma_piece p)
{
    koma_piece key = (koma_piece)(p & (KOMA_PIECE_LETTER | KOMA_PIECE_TERMINAL));
    for (unsigned i = 0; i < g->nkinds; i++)
        if (g->kinds[i].pin == key) return (int)i;
    return -1;
}

int koma__sanki_position_fits(const koma_game *g, const koma_position *pos, koma_error *err)
{
    if (pos->shape.ndims != 2 || pos->shape.size[0] != g->files || pos->shape.size[1] != g->ranks)
        return koma_error_set(err, KOMA_E_RULES_SHAPE, 0, "%s is played on a %ux%u board", g->id,
                              g->files, g->ranks);
    if (!koma__game_styles_fit(g, pos->style[0], pos->style[1]))
        return koma_error_set(err, KOMA_E_RULES_STYLE, 0,
                              "%s positions use the styles %s, either side any of them", g->id,
                              g->styles);
    char b[KOMA_EPIN_BUF];
    int royals[2] = {0, 0};
    for (uint32_t i = 0; i < pos->shape.squares; i++) {
        koma_piece q = pos->board[i];
        if (q == KOMA_PIECE_NONE) continue;
        koma_epin_write(q, b);
        if (sanki_kind(g, q) < 0)
            return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" is not a piece of %s", b, g->id);
        int s = koma_piece_side(q);
        if ((q & KOMA_PIECE_TERMINAL) && ++royals[s] > 1)
            return koma_error_set(err, KOMA_E_RULES_ROYAL, 0, "%s: the %s player has %d royal pieces",
                                  g->id, s ? "second" : "first", royals[s]);
    }
    for (int s = 0; s < 2; s++) {
        const koma_hand *h = &pos->hands[s];
        if (h->len > KOMA__SANKI_HAND_MAX)
            return koma_error_set(err, KOMA_E_RULES_HAND, 0, "more than %d kinds of piece in a hand",
                                  KOMA__SANKI_HAND_MAX);
        for (size_t i = 0; i < h->len; i++) {
            koma_epin_write(h->items[i].piece, b);
            if (sanki_kind(g, h->items[i].piece) < 0)
                return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" in hand is not a piece of %s",
                                      b, g->id);
            if (h->items[i].count > pos->shape.squares)
                return koma_error_set(err, KOMA_E_RULES_HAND, 0, "too many \"%s\" in hand", b);
        }
    }
    return 0;
}
