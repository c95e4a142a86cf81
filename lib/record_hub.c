/*
 * lib/record_hub.c — the hub of the shogi-world formats (koma_hub, koma/record.h): the
 * set of games records are read in, and a rules engine a game, made on first use,
 * which readers ask for (KI2's origins) and record_pcn.c converts with.
 */
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"
#include "game_internal.h"
#include "internal.h"
#include "record_internal.h"

static int oom(koma_error *err) { return koma_error_set(err, KOMA_E_MEMORY, 0, NULL); }

static koma_hub *new_hub(koma_game_set *games, koma_error *err)
{
    koma_hub *h = calloc(1, sizeof *h);
    if (h == NULL) {
        oom(err);
        return NULL;
    }
    koma_position_init(&h->pos);
    if (games == NULL) {
        if (koma_game_set_new(&h->games, err) != 0) {
            free(h);
            return NULL;
        }
        h->own_games = 1;
    } else {
        h->games = games;
    }
    return h;
}

int koma_hub_new(koma_game_set *games, koma_hub **out, koma_error *err)
{
    return KOMA__MADE(out, new_hub(games, err));
}

void koma_hub_free(koma_hub *h)
{
    if (h == NULL) return;
    for (size_t i = 0; i < h->nengines; i++) koma_engine_free(h->engines[i].engine);
    if (h->own_games) koma_game_set_free(h->games);
    koma_position_cleanup(&h->pos);
    free(h->memo);
    free(h);
}

koma_game_set *koma_hub_games(koma_hub *h) { return h->games; }

const koma_game *koma__hub_game(koma_hub *h, const koma_position *pos, koma_error *err)
{
    return koma_game_set_find_position(h->games, pos, err);
}

koma_engine *koma__hub_engine(koma_hub *h, const koma_game *g, koma_error *err)
{
    for (size_t i = 0; i < h->nengines; i++)
        if (h->engines[i].game == g) return h->engines[i].engine;
    koma_engine *e;
    if (koma_engine_new(g, &e, err) != 0) return NULL;
    if (h->nengines == KOMA__HUB_ENGINES) {
        koma_engine_free(h->engines[0].engine);
        memmove(h->engines, h->engines + 1, (KOMA__HUB_ENGINES - 1) * sizeof h->engines[0]);
        h->nengines--;
    }
    h->engines[h->nengines].game = g;
    h->engines[h->nengines].engine = e;
    h->nengines++;
    return e;
}

/* A game whose FEEN state markers the rules recompose after every move (Sanki's
 * castling rights, double steps, en passant, check: koma-games(7), SANKI). */
static int rules_markers(const koma_game *g)
{
    return g->sanki;
}

int koma__hub_apply(koma_hub *h, koma_position *pos, const koma_move *m, koma_error *err)
{
    koma_error none;
    const koma_game *g = NULL;
    if (m->kind == KOMA_MOVE_SPECIAL || (g = koma__hub_game(h, pos, &none)) != NULL) {
        if (g == NULL) g = koma__hub_game(h, pos, &none);
        if (g != NULL && koma_game_playable(g) && (m->kind == KOMA_MOVE_SPECIAL || rules_markers(g))) {
            koma_engine *e = koma__hub_engine(h, g, err);
            koma_emove em;
            if (e == NULL) return -1;
            if (koma_engine_set_position(e, pos, err) != 0) return -1;
            if (koma_engine_find_move(e, m, &em, &none) == 0)
                return koma_engine_make(e, em, err) == 0 ? koma_engine_get_position(e, pos, err) : -1;
            if (none.code == KOMA_E_MEMORY) {
                *err = none;
                return -1;
            }
        }
    }
    return koma_move_apply(pos, m, err);
}
