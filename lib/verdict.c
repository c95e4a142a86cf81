/* lib/verdict.c — a verdict written back into its record's outcome (koma/verdict.h). */
#include <koma/verdict.h>

#include <string.h>

#include "internal.h"

int koma_verdict_outcome(const koma_verdict *v, koma_pcn *rec, koma_error *err)
{
    if (koma__sized_check(v->size, KOMA__VERDICT_FIRST, sizeof *v, "koma_verdict", err) != 0) return -1;
    switch (v->kind) {
    case KOMA_VERDICT_RULES:
    case KOMA_VERDICT_RECORDED: {
        const char *st = koma_cgsn_name(v->status);
        if (koma_pcn_set_outcome_result(rec, v->result_text, strlen(v->result_text), err) != 0 ||
            koma_pcn_set_outcome_status(rec, st, strlen(st), err) != 0)
            return -1;
        return koma_pcn_set_outcome_ply(rec, v->ply, err);
    }
    case KOMA_VERDICT_RESULT_ONLY:
        if (koma_pcn_set_outcome_status(rec, NULL, 0, err) != 0) return -1;
        return koma_pcn_set_outcome_ply(rec, v->ply, err);
    case KOMA_VERDICT_CLAIM:
        /* the rules' result of the declaration or impasse (no CGSN status names it);
         * a result other than the recorded one drops the CSA code, which said it */
        if (v->recorded.has_result && strcmp(v->recorded.result, v->result_text) != 0)
            koma_pcn_unset_outcome_csa(rec);
        if (koma_pcn_set_outcome_result(rec, v->result_text, strlen(v->result_text), err) != 0 ||
            koma_pcn_set_outcome_status(rec, NULL, 0, err) != 0)
            return -1;
        return koma_pcn_set_outcome_ply(rec, v->ply, err);
    default:
        if (!v->has_recorded) return 0;
        if (koma_pcn_set_outcome_status(rec, NULL, 0, err) != 0) return -1;
        koma_pcn_unset_outcome_ply(rec);
        return 0;
    }
}
