/*
 * lib/engine_mailbox.c — the mailbox engine's table of operations (engine_backend.h),
 * for every game whose definition names no other engine: its entries are the
 * functions of engine_board.c, engine_movegen.c, engine_rules.c, engine_perft.c
 * and engine_ggn.c, and the one-line accessors below. The facade (engine.c)
 * calls through it once per API call; nothing inside the mailbox engine does.
 */
#include "internal.h"
#include "engine_internal.h"

static int mb_turn(const koma_engine *e) { return e->turn; }
static uint64_t mb_hash(const koma_engine *e) { return koma__hash(e); }
static size_t mb_ply(const koma_engine *e) { return e->nundo; }
static size_t mb_max_moves(const koma_engine *e) { return e->max_moves; }
/* (nothing the mailbox engine does without an error to report allocates) */
static int mb_take_failure(koma_engine *e) { (void)e; return 0; }

const koma__engine_ops koma__mailbox_ops = {
    .name = "mailbox",
    .flags = KOMA__ENGINE_ONE_PMN | KOMA__ENGINE_NO_FAILURE,
    .create = koma__mb_create,
    .destroy = koma__mb_destroy,
    .set_position = koma__mb_set_position,
    .get_position = koma__mb_get_position,
    .feen = koma__mb_feen,
    .turn = mb_turn,
    .hash = mb_hash,
    .ply = mb_ply,
    .max_moves = mb_max_moves,
    .legal_moves = koma__gen_legal,
    .move_pmn = koma__mb_move_pmn,
    .move_write = koma__mb_move_write,
    .move_text = koma__mb_move_text,
    .move_facts = koma__mb_move_facts,
    .find_move = koma__mb_find_move,
    .parse_move = koma__mb_parse_move,
    .make = koma__mb_make,
    .unmake = koma__mb_unmake,
    .position_ending = koma__mb_position_ending,
    .in_check = koma__in_check_now,
    .threatens = koma__mb_threatens,
    .take_failure = mb_take_failure,
    .perft = koma__mb_perft,
    .perft_divide = koma__mb_perft_divide,
    .perft_split = koma__mb_perft_split,
    .ggn_moves = koma__mb_ggn_moves,
};
