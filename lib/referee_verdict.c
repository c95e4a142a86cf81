/*
 * lib/referee_verdict.c — the verdict: the rules' ending or the record's own,
 * what the record states against it (its status, result, ply), the disputes,
 * and the readings of records from the shogi world (a resignation after the
 * mate, an illegal-move ending taken as recorded).
 */
#include <stdlib.h>
#include <string.h>

#include "referee_internal.h"

/* A recorded resignation, time limit or agreement with no rule ending: the
 * result it gives; 0 when the recorded result fits the status. */
static int honour(const koma_referee *r, koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    koma_result given = rec->has_result ? koma_result_parse(rec->result, strlen(rec->result))
                                        : KOMA_RESULT_NONE;
    koma_result other = v->turn == KOMA_FIRST ? KOMA_RESULT_SECOND : KOMA_RESULT_FIRST;
    int ok = 1;
    switch (rec->status) {
    case KOMA_STATUS_RESIGNATION:
        v->result = given;
        if (given != KOMA_RESULT_FIRST && given != KOMA_RESULT_SECOND) {
            ok = !rec->has_result;
            v->result = other;
        }
        break;
    case KOMA_STATUS_AGREEMENT:
        ok = !rec->has_result || given == KOMA_RESULT_DRAW;
        v->result = KOMA_RESULT_DRAW;
        break;
    default: /* timelimit: any result */
        if (!rec->has_result) {
            v->result = other;
        } else {
            v->result = given;
            copy(v->result_text, sizeof v->result_text, rec->result);
            return 0;
        }
    }
    copy(v->result_text, sizeof v->result_text, koma_result_name(v->result));
    return ok ? 0 : -1;
}

/*
 * Lead ruling: a recorded resignation (or time loss) by the side that the rules
 * say has just lost, at the deciding ply (a CSA %TORYO written after a move that
 * already checkmates), is not a dispute: the verdict is the rules' ending, and
 * the recorded outcome stays in the verdict (v->recorded) as a note. So: the
 * rules end the game at v->ply with a win for one side, not by an illegal ply;
 * the record gives up for the same loser (its result, when it has one, is the
 * rules' result) at that ply (its ply, when it has one, is v->ply).
 */
static int loser_gave_up(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (!rec->has_status || v->illegal) return 0;
    if (rec->status != KOMA_STATUS_RESIGNATION && rec->status != KOMA_STATUS_TIMELIMIT) return 0;
    if (v->result != KOMA_RESULT_FIRST && v->result != KOMA_RESULT_SECOND) return 0;
    if (rec->has_result && strcmp(rec->result, v->result_text) != 0) return 0;
    return !rec->has_ply || rec->ply == v->ply;
}

/*
 * Lead ruling: the illegal-move ending of a record converted from CSA, KIF, KI2
 * or JKF (%ILLEGAL_MOVE, %+ILLEGAL_ACTION, 反則勝ち/反則負け, ...) is taken from
 * the record, recorded and not judged, since the illegal action itself is not
 * in the record: every recorded ply is legal (the rules have not ended the
 * game), the ending is at the last ply, and the result is a win. A PCN record
 * of koma's own with such an outcome stays a dispute.
 */
static int illegal_as_recorded(const koma_referee *r)
{
    const koma_recorded *rec = &r->rec;
    if (!rec->has_status || rec->status != KOMA_STATUS_ILLEGALMOVE || !rec->from_shogi_world) return 0;
    if (r->ruled || r->refused || r->played != r->index || !rec->has_result) return 0;
    koma_result given = koma_result_parse(rec->result, strlen(rec->result));
    if (given != KOMA_RESULT_FIRST && given != KOMA_RESULT_SECOND) return 0;
    return !rec->has_ply || rec->ply == r->played;
}

/*
 * Perpetual check written as a foul (反則負け, as ShogiHome and others write
 * it: Japanese rules count perpetual check among the fouls): a recorded
 * illegal-move ending of a record converted from CSA, KIF, KI2 or JKF, with
 * the same result at the same ply as the rules' perpetual-check repetition,
 * is the same ending.
 */
static int perpetual_as_foul(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (!rec->from_shogi_world || !rec->has_status || rec->status != KOMA_STATUS_ILLEGALMOVE) return 0;
    if (v->illegal || v->status != KOMA_STATUS_REPETITION || v->perpetual < 0) return 0;
    if (v->result != KOMA_RESULT_FIRST && v->result != KOMA_RESULT_SECOND) return 0;
    if (rec->has_result && strcmp(rec->result, v->result_text) != 0) return 0;
    return !rec->has_ply || rec->ply == v->ply;
}

/*
 * An illegal last ply in a record converted from CSA, KIF, KI2 or JKF that
 * states no ending (no status, result or claim; a comment such as
 * "*反則手にて終局" is all Shogi Club 24 writes): that ply is the ending the
 * record states, so the rules' illegal-move ending agrees with it. A PCN
 * record of koma's own with no outcome stays a dispute.
 */
static int illegal_last_ply(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (!v->illegal || !rec->from_shogi_world || v->extra) return 0;
    if (rec->has_status || rec->has_result || rec->claim != KOMA_CLAIM_NONE) return 0;
    return r->index == v->ply && (!rec->has_ply || rec->ply == v->ply);
}

/*
 * The same server's record of a move made after mate: the mated side's one
 * ply after the checkmate the rules find, which could not be legal (every
 * move of a mated side leaves its king attacked), is the illegal last ply the
 * record ends with; the winner is the same, so that ply is no dispute.
 */
static int move_after_mate(const koma_referee *r, const koma_verdict *v)
{
    const koma_recorded *rec = &r->rec;
    if (v->illegal || !rec->from_shogi_world || v->status != KOMA_STATUS_CHECKMATE) return 0;
    if (rec->has_status || rec->has_result || rec->claim != KOMA_CLAIM_NONE) return 0;
    return v->extra == 1 && v->extra_ply == v->ply + 1 && r->index == v->extra_ply &&
           (!rec->has_ply || rec->ply == v->extra_ply);
}

int koma__referee_finish(koma_referee *r, koma_verdict *v, koma_error *err)
{
    const koma_recorded *rec = &r->rec;
    v->game = r->g;
    v->has_status = 0;
    v->status = KOMA_STATUS_CHECK;
    v->result = KOMA_RESULT_NONE;
    strcpy(v->result_text, "*");
    v->has_ply = 0;
    v->ply = 0;
    v->mover = r->mover;
    v->turn = koma_engine_turn(r->e);
    v->played = r->played;
    v->plies = r->index;
    v->move[0] = '\0';
    if (koma_engine_feen(r->e, v->feen, sizeof v->feen, NULL, err) != 0) return -1;

    v->refused = r->refused;
    v->illegal = r->illegal;
    v->refused_ply = r->refused_ply;
    v->refused_code = r->refused_code;
    v->refused_offset = r->refused_offset;
    v->alt_drop = r->alt_drop;
    if (r->refused) {
        memcpy(v->refused_text, r->refused_text, sizeof v->refused_text);
        memcpy(v->refused_message, r->refused_message, sizeof v->refused_message);
        memcpy(v->alt_square, r->alt_square, sizeof v->alt_square);
        memcpy(v->legal, r->legal, sizeof v->legal);
    } else {
        v->refused_text[0] = v->refused_message[0] = v->alt_square[0] = v->legal[0] = '\0';
    }
    v->mate_refuted = v->mate_in_check = 0;
    v->mate_moves = v->mate_interpositions = v->mate_escapes = v->mate_captures = 0;
    v->repeats = r->repeats;
    v->cycle_first = r->cycle_first;
    v->occurrences = r->occurrences;
    v->perpetual = r->perpetual;
    v->all_threatened[0] = r->all_threatened[0];
    v->all_threatened[1] = r->all_threatened[1];
    if (r->has_repeated) {
        memcpy(v->repeated_fid, r->repeated_fid, sizeof v->repeated_fid);
        memcpy(v->repeated_feen, r->repeated_feen, sizeof v->repeated_feen);
    } else {
        v->repeated_fid[0] = v->repeated_feen[0] = '\0';
    }
    v->extra = r->extra;
    v->extra_ply = r->extra_ply;
    memcpy(v->extra_text, r->extra_text, sizeof v->extra_text);
    v->notation_faults = r->notation_faults;
    v->notation_ply = r->notation_ply;
    v->has_recorded = r->has_recorded;
    v->recorded = *rec;
    v->disputes = 0;
    v->disagrees = KOMA_MEMBER_NONE;
    v->claim = KOMA_CLAIM_NONE;
    v->claim_rule = KOMA_DECLARE_DEFAULT;
    v->declarer = -1;
    v->king_in_zone = v->king_in_check = 0;
    v->zone_pieces = v->points_needed = v->claim_failed = 0;
    v->points[0] = v->points[1] = v->handicap_points[0] = v->handicap_points[1] = 0;
    v->handicap_stated[0] = '\0';
    v->handicap_setup[0] = v->handicap_setup[1] = 0;
    v->handicap_disagrees = 0;
    v->clock = KOMA_CLOCK_NONE;
    v->clock_side = -1;
    v->clock_missing[0] = '\0';
    v->clock_left_ms = v->clock_spent_ms = 0;
    v->clock_ply = 0;

    if (r->state == UNREADABLE) {
        v->kind = KOMA_VERDICT_UNREADABLE;
        return 0;
    }
    if (r->ruled) {
        v->kind = KOMA_VERDICT_RULES;
        v->has_status = 1;
        v->status = r->end.status;
        v->result = r->end.result;
        copy(v->result_text, sizeof v->result_text, koma_result_name(v->result));
        v->has_ply = 1;
        v->ply = r->ply;
        memcpy(v->move, r->move, sizeof v->move);
        if (loser_gave_up(r, v) || perpetual_as_foul(r, v)) {
            /* the record's own word for the same ending: not a dispute */
        } else if (rec->has_status && rec->status != v->status) v->disagrees = KOMA_MEMBER_STATUS;
        else if (rec->has_result && strcmp(rec->result, v->result_text) != 0)
            v->disagrees = KOMA_MEMBER_RESULT;
        else if (rec->has_ply && rec->ply != v->ply) v->disagrees = KOMA_MEMBER_PLY;
        /* an illegal ply the record does not name as its ending */
        if (v->illegal && (v->disagrees || !rec->has_status) && !illegal_last_ply(r, v))
            v->disputes |= KOMA_DISPUTE_ILLEGAL;
    } else {
        v->ply = r->played;
        if (rec->has_status && rec->status == KOMA_STATUS_CHECKMATE && koma__referee_mate_refutation(r, v, err) != 0)
            return -1;
        if (rec->has_status && explicit_status(rec->status)) {
            v->kind = KOMA_VERDICT_RECORDED;
            v->has_status = 1;
            v->status = rec->status;
            v->has_ply = 1;
            if (honour(r, v) != 0) v->disputes |= KOMA_DISPUTE_RESULT;
            if (rec->has_ply && rec->ply > v->plies) v->disagrees = KOMA_MEMBER_PLY;
            if (rec->status == KOMA_STATUS_TIMELIMIT && r->clk.state != KOMA_CLOCK_NONE) {
                v->clock = r->clk.state;
                v->clock_side = r->clk.side;
                copy(v->clock_missing, sizeof v->clock_missing, r->clk.missing);
                v->clock_left_ms = r->clk.left;
                v->clock_spent_ms = r->clk.spent;
                v->clock_ply = r->clk.ply;
                if (v->clock == KOMA_CLOCK_TIME_LEFT || v->clock == KOMA_CLOCK_EARLIER)
                    v->disputes |= KOMA_DISPUTE_CLOCK;
            }
        } else if (rec->claim != KOMA_CLAIM_NONE && r->claims && !r->refused) {
            if (koma__referee_judge_claim(r, v, err) != 0) return -1;
        } else if (illegal_as_recorded(r)) {
            v->kind = KOMA_VERDICT_RECORDED;
            v->has_status = 1;
            v->status = KOMA_STATUS_ILLEGALMOVE;
            v->has_ply = 1;
            v->result = koma_result_parse(rec->result, strlen(rec->result));
            copy(v->result_text, sizeof v->result_text, koma_result_name(v->result));
        } else if (rec->has_result) {
            v->kind = KOMA_VERDICT_RESULT_ONLY;
            v->has_ply = 1;
            copy(v->result_text, sizeof v->result_text, rec->result);
            v->result = koma_result_parse(rec->result, strlen(rec->result));
            if (rec->has_status) v->disagrees = KOMA_MEMBER_STATUS;
            else if (rec->has_ply && rec->ply > v->plies) v->disagrees = KOMA_MEMBER_PLY;
        } else {
            v->kind = KOMA_VERDICT_UNFINISHED;
            if (rec->has_status) v->disagrees = KOMA_MEMBER_STATUS;
            else if (rec->has_ply) v->disagrees = KOMA_MEMBER_PLY;
        }
    }
    if (v->extra && !(v->kind == KOMA_VERDICT_RULES && move_after_mate(r, v)))
        v->disputes |= KOMA_DISPUTE_EXTRA;
    if (v->disagrees != KOMA_MEMBER_NONE) v->disputes |= KOMA_DISPUTE_OUTCOME;
    if (v->notation_faults) v->disputes |= KOMA_DISPUTE_NOTATION;
    return 0;
}

/* A verdict of a size this library knows: filled in directly when it is the
 * library's own; an older caller's (a prefix of it) through a whole one. The
 * caller's v->size is checked here once, never read past. */
koma_verdict *koma__referee_verdict_open(koma_verdict *v, koma_error *err)
{
    if (koma__sized_check(v->size, KOMA__VERDICT_FIRST, sizeof *v, "koma_verdict", err) != 0)
        return NULL;
    if (v->size == sizeof *v) return v;
    koma_verdict *whole = calloc(1, sizeof *whole);
    if (whole == NULL) {
        oom(err);
        return NULL;
    }
    memcpy(whole, v, v->size);
    whole->size = sizeof *whole;
    return whole;
}

int koma__referee_verdict_close(koma_verdict *v, koma_verdict *whole, int rc)
{
    if (whole != v) {
        size_t size = v->size;
        memcpy(v, whole, size);
        v->size = size;
        free(whole);
    }
    return rc;
}

int koma_referee_finish(koma_referee *r, koma_verdict *v, koma_error *err)
{
    koma_verdict *w = koma__referee_verdict_open(v, err);
    return w ? koma__referee_verdict_close(v, w, koma__referee_finish(r, w, err)) : -1;
}
