/*
 * lib/engine_rules.c — the rules layer of the mailbox engine: the canonical PMN of a
 * move, "is this PMN move legal here" (koma__mb_find_move: the one move the text
 * names, built and tested without the legal list, with the reason when it is
 * not legal), and the endings the position decides (in the order of
 * koma-games(7): a side defeated, no legal move, a bare king) and the threat
 * the perpetual-check rule asks about. Built on engine_board.c and
 * engine_movegen.c; reached through the mailbox table (engine_mailbox.c); the
 * history rules are the referee's (referee.c).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine_internal.h"

/* ---- PMN ------------------------------------------------------------------------------- */

int koma__mb_move_pmn(const koma_engine *e, koma_emove m, koma_move *out)
{
    memset(out, 0, sizeof *out);
    int to = KOMA__M_TO(m);
    koma_shape_cell(&e->shape, (uint32_t)e->index_sq[to], &out->dst);
    if (m & KOMA__M_DROP) {
        out->kind = KOMA_MOVE_DROP;
        out->piece = koma__piece_of_slot(e, e->turn, KOMA__M_FROM(m));
        return 0;
    }
    int from = KOMA__M_FROM(m);
    koma_shape_cell(&e->shape, (uint32_t)e->index_sq[from], &out->src);
    unsigned p = e->board[from], c = e->board[to];
    out->kind = c == KOMA__EMPTY ? KOMA_MOVE_QUIET : KOMA_MOVE_CAPTURE;
    if (m & KOMA__M_PROMOTE)
        out->actor = koma__piece_of_code(e, e->promote_code[KOMA__MOVER(p)] | (p & KOMA__DERIVED));
    if (c != KOMA__EMPTY) {
        int ck = KOMA__KIND(c);
        int hk = (m & KOMA__M_KEEP) ? ck : e->game->kinds[ck].demotes_to;
        out->captured = koma__piece_of_code(e, KOMA__CODE(hk, e->turn) | (c & KOMA__DERIVED));
    }
    return 0;
}

size_t koma__mb_move_write(const koma_engine *e, koma_emove m, char buf[KOMA_PMN_BUF])
{
    koma_move mv;
    koma__mb_move_pmn(e, m, &mv);
    return koma_pmn_write(&mv, buf);
}

size_t koma__mb_move_text(const koma_engine *e, koma_emove m, char *buf, size_t cap)
{
    char b[KOMA_PMN_BUF];
    size_t n = koma__mb_move_write(e, m, b);
    if (cap) {
        size_t k = n < cap ? n : cap - 1;
        memcpy(buf, b, k);
        buf[k] = '\0';
    }
    return n;
}

/* Offsets of the parts of the canonical text of m. */
typedef struct pmn_parts {
    size_t src, dst, actor, captured;
} pmn_parts;

static void parts_of(const koma_move *m, pmn_parts *pp)
{
    char cb[KOMA_CELL_BUF], eb[KOMA_EPIN_BUF];
    size_t pos = 0;
    pp->src = 0;
    if (m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP) {
        pos = m->piece ? koma_epin_write(m->piece, eb) : 0;
        pos += 1;
    } else if (m->kind == KOMA_MOVE_STATIC) {
        pos = 1;
    } else if (m->src.ndims) {
        pos = koma_cell_write(&m->src, cb) + 1;
    }
    pp->dst = pos;
    pos += m->dst.ndims ? koma_cell_write(&m->dst, cb) : 0;
    pp->actor = pos;
    if (m->actor) pos += 1 + koma_epin_write(m->actor, eb);
    pp->captured = pos;
}

/* The offset of one part of the canonical text of m (computed for errors only). */
enum { PART_DST, PART_ACTOR, PART_CAPTURED };

static size_t part_offset(const koma_move *m, int part)
{
    pmn_parts pp;
    parts_of(m, &pp);
    return part == PART_DST ? pp.dst : part == PART_ACTOR ? pp.actor : pp.captured;
}

/* cell_index for a cell koma_shape_square refuses or other shapes: the error's
 * offset is that of the part (the origin: 0). */
static int cell_index_shape(const koma_engine *e, const koma_move *m, const koma_cell *c,
                            int part, int *idx, koma_error *err)
{
    uint32_t sq;
    if (koma_shape_square(&e->shape, c, &sq, err) != 0) {
        if (err) {
            size_t offset = part < 0 ? 0 : part_offset(m, part);
            koma_error_shift(err, offset - err->offset);
        }
        return -1;
    }
    *idx = e->sq_index[sq];
    return 0;
}

/* The padded index of the cell c of m (a 2-D cell on the board: the mailbox's
 * boards are 2-D, e->cell_base). */
static inline int cell_index(const koma_engine *e, const koma_move *m, const koma_cell *c,
                             int part, int *idx, koma_error *err)
{
    unsigned f = c->idx[0], r = c->idx[1];
    if (c->ndims == 2 && f < (unsigned)e->files && r < (unsigned)e->ranks) {
        *idx = e->cell_base + (int)f - (int)r * e->stride;
        return 0;
    }
    return cell_index_shape(e, m, c, part, idx, err);
}

static int drop_reason(koma_engine *e, int slot, int to, size_t off_piece, size_t off_dst,
                       koma_error *err)
{
    const koma_game *g = e->game;
    const koma__kind *k = &g->kinds[KOMA__SLOT_KIND(slot)];
    int s = e->turn;
    if (e->board[to] != KOMA__EMPTY)
        return koma_error_set(err, KOMA_E_RULES_DROP_OCCUPIED, off_dst, "drop onto an occupied square");
    if (!k->droppable)
        return koma_error_set(err, KOMA_E_RULES_DROP_PIECE, off_piece, "%s %s may not be dropped",
                              k->promoted ? "a promoted" : "this", k->name[0] ? k->name : "piece");
    if (e->last_dist[s][to] < k->drop_forbidden_ranks)
        return koma_error_set(err, KOMA_E_RULES_DROP_RANK, off_dst,
                              "a %s dropped there would have no further move", k->name);
    if (k->nifu && *koma__nifu_at(e, s, KOMA__SLOT_KIND(slot), to))
        return koma_error_set(err, KOMA_E_RULES_DROP_NIFU, off_dst,
                              "a second unpromoted %s on this file (nifu)", k->name);
    koma__undo u;
    koma__make(e, KOMA__M_DROP | KOMA__MOVE(slot, to), &u);
    int self = g->check_rule && koma__in_check(e, s);
    int mate = !self && k->drop_no_mate && g->check_rule && koma__in_check(e, s ^ 1) &&
               !koma__has_legal_move(e);
    koma__unmake(e, &u);
    if (self)
        return koma_error_set(err, KOMA_E_RULES_CHECK, off_dst, "the drop leaves the king attacked");
    if (mate)
        return koma_error_set(err, KOMA_E_RULES_DROP_MATE, off_dst, "mate by %s drop",
                              k->name[0] ? k->name : "pawn");
    return koma_error_set(err, KOMA_E_RULES_ILLEGAL, off_dst, "illegal drop");
}

/*
 * The recorded move is looked for without generating the legal list: the checks
 * below make the move that koma__gen_pseudo would generate for this origin (or
 * hand slot) and destination, with the promotion and privilege choice the text
 * names, and then one legality test decides (koma__legal_pseudo, the same test
 * koma__gen_legal applies). So the move is found exactly when it is in
 * koma_engine_legal_moves.
 */
int koma__mb_find_move(koma_engine *e, const koma_move *m, koma_emove *out, koma_error *err)
{
    const koma_game *g = e->game;
    int s = e->turn;
    if (koma__over(e))
        return koma_error_set(err, KOMA_E_RULES_OVER, 0, koma__defeated_sides(e) && e->royal_in_hand ?
                              "the game is over (a king was captured)" : "the game is over");
    int to;
    if (m->kind == KOMA_MOVE_DROP) {
        if (cell_index(e, m, &m->dst, PART_DST, &to, err) != 0) return -1;
        int slot = -1;
        if (m->piece == KOMA_PIECE_NONE) {
            /* `*e5`: the one droppable kind in hand */
            int found = 0;
            for (int sl = 0; sl < KOMA__SLOTS; sl++)
                if (e->hand[s][sl] && g->kinds[KOMA__SLOT_KIND(sl)].droppable) {
                    found++;
                    slot = sl;
                }
            if (found != 1)
                return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, found ?
                                      "more than one kind in hand could be dropped: write the piece" :
                                      "nothing droppable in hand");
        } else {
            int k = e->kind_of_pin[m->piece & KOMA_PIECE_MASK];
            if (k < 0 || koma_piece_side(m->piece) != s) {
                char b[KOMA_EPIN_BUF];
                koma_epin_write(m->piece, b);
                return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, "\"%s\" is not in the mover's hand", b);
            }
            slot = k + ((m->piece & KOMA_PIECE_DERIVED) ? KOMA__SLOT_DERIVED : 0);
            if (e->hand[s][slot] == 0) {
                char b[KOMA_EPIN_BUF];
                koma_epin_write(m->piece, b);
                return koma_error_set(err, KOMA_E_RULES_DROP_HAND, 0, "\"%s\" is not in the mover's hand", b);
            }
        }
        if (m->actor != KOMA_PIECE_NONE)
            return koma_error_set(err, KOMA_E_RULES_PROMOTION, part_offset(m, PART_ACTOR),
                                  "a drop does not promote");
        koma_emove em = KOMA__M_DROP | KOMA__MOVE(slot, to);
        if (koma__drop_pseudo(e, slot, to) && koma__legal_pseudo(e, em)) {
            if (g->check_rule) koma__proved(e, em);
            *out = em;
            return 0;
        }
        return drop_reason(e, slot, to, 0, part_offset(m, PART_DST), err);
    }
    if (m->kind != KOMA_MOVE_QUIET && m->kind != KOMA_MOVE_CAPTURE)
        return koma_error_set(err, KOMA_E_RULES_FORM, 0, "%s uses quiet moves, captures and drops only",
                              g->id);
    int from;
    if (cell_index(e, m, &m->src, -1, &from, err) != 0) return -1;
    if (cell_index(e, m, &m->dst, PART_DST, &to, err) != 0) return -1;
    unsigned p = e->board[from], c = e->board[to];
    if (p == KOMA__EMPTY) return koma_error_set(err, KOMA_E_RULES_EMPTY, 0, "no piece on the origin square");
    if (KOMA__SIDE_OF(p) != s)
        return koma_error_set(err, KOMA_E_RULES_OWNER, 0, "the piece on the origin belongs to the other side");
    if (c != KOMA__EMPTY && KOMA__SIDE_OF(c) == s)
        return koma_error_set(err, KOMA_E_RULES_OCCUPIED, part_offset(m, PART_DST),
                              "the destination holds a piece of the mover");
    if ((c == KOMA__EMPTY) != (m->kind == KOMA_MOVE_QUIET))
        return koma_error_set(err, KOMA_E_RULES_OPERATOR, part_offset(m, PART_DST) - 1,
                              c == KOMA__EMPTY ? "capture onto an empty square (write '-')"
                                               : "move onto an enemy piece (write '+')");
    if (!koma__reaches_in(e, (uint8_t)p, from, to, 0)) {
        if (!koma__reaches(e, (uint8_t)p, from, to, 1))
            return koma_error_set(err, KOMA_E_RULES_PATTERN, part_offset(m, PART_DST),
                                  "the %s cannot move that way", g->kinds[KOMA__KIND(p)].name);
        return koma_error_set(err, KOMA_E_RULES_BLOCKED, part_offset(m, PART_DST), "the path is blocked");
    }
    koma_emove em = KOMA__MOVE(from, to);
    int can_promote = e->promote_code[KOMA__MOVER(p)] && (e->in_zone[s][from] || e->in_zone[s][to]);
    if (m->actor != KOMA_PIECE_NONE) {
        koma_piece want = can_promote ? koma__piece_of_code(e, e->promote_code[KOMA__MOVER(p)] | (p & KOMA__DERIVED)) : 0;
        if (!can_promote || m->actor != want)
            return koma_error_set(err, KOMA_E_RULES_PROMOTION, part_offset(m, PART_ACTOR), can_promote ?
                                  "wrong promoted identity" : "this move cannot promote");
        em |= KOMA__M_PROMOTE;
    } else if (can_promote && (g->compulsory_promotion ||
                               e->last_dist[s][to] < g->kinds[KOMA__KIND(p)].must_promote_ranks)) {
        return koma_error_set(err, KOMA_E_RULES_MUSTPROMOTE, part_offset(m, PART_ACTOR),
                              "the move must promote");
    }
    if (c != KOMA__EMPTY) {
        int ck = KOMA__KIND(c);
        koma_piece plain = koma__piece_of_code(e, KOMA__CODE(g->kinds[ck].demotes_to, s) | (c & KOMA__DERIVED));
        int privilege = g->kings_privilege && e->royal_code[KOMA__MOVER(p)] && g->kinds[ck].promoted;
        if (m->captured == plain) {
            /* reverted */
        } else if (privilege && m->captured == koma__piece_of_code(e, KOMA__CODE(ck, s) | (c & KOMA__DERIVED))) {
            em |= KOMA__M_KEEP;
        } else {
            char b[KOMA_EPIN_BUF];
            koma_epin_write(plain, b);
            return koma_error_set(err, KOMA_E_RULES_CAPTURED, part_offset(m, PART_CAPTURED),
                                  "the captured piece enters the hand as \"%s\"%s", b,
                                  privilege ? " (or kept promoted)" : "");
        }
    } else if (m->captured != KOMA_PIECE_NONE) {
        return koma_error_set(err, KOMA_E_RULES_CAPTURED, part_offset(m, PART_CAPTURED),
                              "nothing is captured");
    }
    /* em is now the pseudo-legal move koma__gen_pseudo makes for this text
     * (the game is not over: koma__legal_pseudo's first test) */
    if (!g->check_rule) {
        *out = em;
        return 0;
    }
    if (koma__free_mover(e, from) || koma__legal_pseudo(e, em)) {
        koma__proved(e, em);
        *out = em;
        return 0;
    }
    if (g->check_rule) {
        koma__undo u;
        koma__make(e, em, &u);
        int self = koma__in_check(e, s);
        koma__unmake(e, &u);
        if (self)
            return koma_error_set(err, KOMA_E_RULES_CHECK, part_offset(m, PART_DST),
                                  "the move leaves the king attacked");
    }
    return koma_error_set(err, KOMA_E_RULES_ILLEGAL, 0, "illegal move");
}

int koma__mb_parse_move(koma_engine *e, const char *s, size_t len, koma_emove *out,
                        koma_error *err)
{
    koma_move m;
    if (koma_pmn_parse(s, len, &m, err) != 0) return -1;
    return koma__mb_find_move(e, &m, out, err);
}

/* ---- endings ------------------------------------------------------------------------ */

static void set_ending(const koma_game *g, koma_ending *out, koma_status st, int side)
{
    out->over = 1;
    out->status = st;
    out->side = side;
    out->result = koma_game_result(g, st, side);
}

/* koma__mb_position_ending's tests in full (out: cleared, not over). */
static __attribute__((noinline)) void ending_of(koma_engine *e, koma_ending *out, int has_move)
{
    const koma_game *g = e->game;
    int s = e->turn;
    int lost = koma__defeated_sides(e);
    if (lost) {
        /* both sides defeated: the side that has just moved resolved its
         * captures first, so the side to move lost */
        int victim = lost == 3 ? s : (lost & (1 << KOMA_FIRST)) ? KOMA_FIRST : KOMA_SECOND;
        set_ending(g, out, KOMA_STATUS_MAREKING, victim);
        return;
    }
    if (!has_move && !koma__has_legal_move(e)) {
        int in_check = koma__in_check_now(e);
        int kind = in_check ? g->nolegal_check : g->nolegal_other;
        koma_status st = kind == KOMA__NL_CHECKMATE ? KOMA_STATUS_CHECKMATE
                       : kind == KOMA__NL_STALEMATE ? KOMA_STATUS_STALEMATE : KOMA_STATUS_NOMOVE;
        set_ending(g, out, st, s);
        return;
    }
    if (g->bare_king && koma__bare(e, s ^ 1)) {
        set_ending(g, out, KOMA_STATUS_BAREKING, s ^ 1);
        if (koma__bare(e, s)) out->result = KOMA_RESULT_DRAW;
    }
}

void koma__mb_position_ending(koma_engine *e, koma_ending *out, int has_move)
{
    memset(out, 0, sizeof *out);
    out->side = -1;
    if (koma__mb_ending_none(e, has_move)) return;   /* the usual ply */
    ending_of(e, out, has_move);
}

/* A piece of the other side of `side` whose capture would fail its survival
 * test is attacked by `side` (out of line: koma__mb_threatens asks it of the
 * games with a survival test only). */
static __attribute__((noinline)) int threatens_survival(koma_engine *e, int side)
{
    const koma_game *g = e->game;
    int other = side ^ 1;
    uint16_t count[KOMA__MAX_KINDS];
    memset(count, 0, sizeof count);
    for (int sq = 0; sq < e->nsquares; sq++) {
        unsigned c = e->board[e->sq_index[sq]];
        if (c != KOMA__EMPTY && KOMA__SIDE_OF(c) == other) count[KOMA__KIND(c)]++;
    }
    for (int sq = 0; sq < e->nsquares; sq++) {
        int idx = e->sq_index[sq];
        unsigned c = e->board[idx];
        if (c == KOMA__EMPTY || KOMA__SIDE_OF(c) != other) continue;
        int k = KOMA__KIND(c), survives = 0;
        count[k]--;
        for (unsigned i = 0; i < g->nsurvival && !survives; i++) {
            const struct koma__survival_set *set = &g->survival[i];
            unsigned j = 0;
            while (j < set->n && count[set->kinds[j]]) j++;
            survives = j == set->n;
        }
        count[k]++;
        if (!survives && koma__attacked(e, idx, side)) return 1;
    }
    return 0;
}

/* koma__mb_threatens in full (out of line: the usual question, the side that
 * has just moved, saves no registers). */
static __attribute__((noinline)) int threatens(koma_engine *e, int side)
{
    /* a royal of the other side attacked (check) */
    if (side != e->turn ? koma__in_check_now(e) : koma__in_check(e, side ^ 1)) return 1;
    return e->survival && threatens_survival(e, side);
}

int koma__mb_threatens(koma_engine *e, int side)
{
    /* the side that has just moved, its check found by the ply (KOMA__Q_CHECK) */
    if (koma__mb_threat_known(e, side)) return e->check_on;
    return threatens(e, side);
}
