/* cmd/judge.c — records judged by the referee, with their diagnostics (see judge.h). */
#include "judge.h"

#include <stdlib.h>
#include <string.h>


struct judge {
    cli *c;
    const koma_game_set *games;
    const koma_game *forced;
    koma_pmn_dialect dialect;
    int style;
    koma_referee *ref;
    koma_position pos;
    koma_verdict *v;
    judge_each_fn each;
    void *each_ctx;
    judge_fn fn;
    void *ctx;
    const char *start;                 /* --start FEEN */

    /* the record in progress */
    const record_source *src;
    const koma_pcn *rec;
    int begun, abandoned, invalid;
    size_t lines;                      /* plies given (line input) */
    unsigned long illegal_line, illegal_col;   /* line input: where the illegal ply is */
    unsigned long extra_line;
};

judge *judge_new(cli *c, const koma_game_set *games, const koma_game *forced,
                 koma_pmn_dialect dialect, unsigned flags, int style)
{
    judge *j = calloc(1, sizeof *j);
    if (j == NULL) return NULL;
    koma_referee_options opt = KOMA_REFEREE_OPTIONS_INIT;
    opt.dialect = dialect;
    opt.flags = flags;
    /* every ply through the referee's general path (the differential tests) */
    if (getenv("KOMA_REFEREE_GENERAL") != NULL) opt.flags |= KOMA_REFEREE_GENERAL;
    if ((j->v = calloc(1, sizeof *j->v)) == NULL || koma_referee_new(&opt, &j->ref, NULL) != 0) {
        free(j->v);
        free(j);
        return NULL;
    }
    j->v->size = sizeof *j->v;
    j->c = c;
    j->games = games;
    j->forced = forced;
    j->dialect = dialect;
    j->style = style;
    koma_position_init(&j->pos);
    return j;
}

int judge_declaration_option(cli *c, const char *word, koma_declaration_rule *out)
{
    if (strcmp(word, "27") == 0) *out = KOMA_DECLARE_27;
    else if (strcmp(word, "24") == 0) *out = KOMA_DECLARE_24;
    else if (strcmp(word, "try") == 0) *out = KOMA_DECLARE_TRY;
    else return cli_usage_error(c, "--declaration: 27, 24 or try, not \"%s\"", word);
    return 0;
}

void judge_set_declaration(judge *j, koma_declaration_rule rule)
{
    koma_referee_set_declaration(j->ref, rule);
}

void judge_free(judge *j)
{
    if (j == NULL) return;
    koma_referee_free(j->ref);
    koma_position_cleanup(&j->pos);
    free(j->v);
    free(j);
}

void judge_set_each(judge *j, judge_each_fn fn, void *ctx)
{
    j->each = fn;
    j->each_ctx = ctx;
}

koma_referee *judge_referee(judge *j) { return j->ref; }

static int trouble(judge *j, const koma_error *err)
{
    if (err->code == KOMA_E_MEMORY) cli_trouble(j->c, "memory: out of memory");
    else cli_trouble(j->c, "%s: %s", koma_code_name(err->code), err->message);
    return -1;
}

/* A diagnostic about the record at a JSON pointer (PCN) or at line/col (lines). */
static void diag(judge *j, const char *pointer, unsigned long line, unsigned long col,
                 koma_code code, const char *msg, const char *extra)
{
    const record_source *src = j->src;
    if (line == 0) record_locate(src, pointer, &line, &col);
    if (line == 0) {
        line = src->line;
        col = 1;
    }
    cli_diag(j->c, CLI_DATA, src->file, line, col, koma_code_name(code), msg, extra);
}

static void ply_pointer(char *buf, size_t cap, size_t ply)
{
    snprintf(buf, cap, "/plies/%zu/pmn", ply - 1);
}

/* --each: the FEEN of the current position. */
static int emit_each(judge *j)
{
    if (j->each == NULL) return 0;
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t len;
    koma_error err;
    if (koma_referee_feen(j->ref, feen, sizeof feen, &len, &err) != 0) return trouble(j, &err);
    j->each(j->each_ctx, j->src, koma_referee_played(j->ref), feen, len);
    return 0;
}

/* koma-repetition-check's report of a ply that is not played. */
static void refused_ply(judge *j, size_t index, const koma_error *err, const char *s, size_t len,
                        unsigned long line)
{
    char msg[KOMA_ERROR_MESSAGE_MAX + 160], q[64], ptr[48];
    koma_quote(q, sizeof q, s, len);
    if (j->start) {
        snprintf(msg, sizeof msg, "ply %zu \"%s\": %s", index + 1, q, err->message);
        diag(j, NULL, line, err->offset + 1, err->code, msg, NULL);
    } else {
        ply_pointer(ptr, sizeof ptr, index + 1);
        snprintf(msg, sizeof msg, "%s \"%s\" (ply %zu): %s", ptr, q, index + 1, err->message);
        diag(j, ptr, 0, 0, err->code, msg, NULL);
    }
    j->invalid = 1;
}

/* After a ply s[0..len) (plies[index]; line: its line, 0 for PCN; s NULL for
 * PCN: looked up when needed): its diagnostic when it has one now; where it
 * is, for the verdict's. -1 on trouble. */
static int after_ply(judge *j, size_t index, int status, const koma_error *err, const char *s,
                     size_t len, unsigned long line)
{
    if (status == KOMA_PLY_PLAYED) return emit_each(j);   /* the usual case: nothing to say */
    char msg[KOMA_ERROR_MESSAGE_MAX + 2 * KOMA_MOVE_TEXT_BUF + 64], ptr[48];
    /* line input: the column in the text itself (a dialect's converted text
     * gives column 1 unless the dialect reader found the error) */
    unsigned long col = line ? err->offset + 1 : 0;
    ply_pointer(ptr, sizeof ptr, index + 1);
    if (s == NULL && (s = koma_pcn_ply_pmn(j->rec, index, &len)) == NULL) {
        s = "";
        len = 0;
    }
    switch (status) {
    case KOMA_PLY_NOTATION:
        koma_ply_notation_message(index + 1, s, len, koma_engine_game(koma_referee_engine(j->ref)),
                                  koma_referee_turn(j->ref) ^ 1, err, msg, sizeof msg);
        diag(j, ptr, line, col, err->code, msg, NULL);
        if (j->style == JUDGE_REPETITION) j->invalid = 1;
        return emit_each(j);
    case KOMA_PLY_ILLEGAL:
        j->illegal_line = line;
        j->illegal_col = col;
        if (j->style == JUDGE_REPETITION && err->code != KOMA_E_RULES_REPETITION)
            refused_ply(j, index, err, s, len, line);
        return 0;
    case KOMA_PLY_AFTER_END:
        if (j->extra_line == 0) j->extra_line = line;
        return 0;
    case KOMA_PLY_UNREADABLE:
        if (j->style == JUDGE_REPETITION) {
            refused_ply(j, index, err, s, len, line);
            return 0;
        }
        koma_ply_unreadable_message(index + 1, s, len, err, msg, sizeof msg);
        if (err->code == KOMA_E_PCN_PLIES_LIMIT) diag(j, NULL, line, line ? 1 : 0, err->code, msg, NULL);
        else diag(j, ptr, line, col, err->code, msg, NULL);
        j->invalid = 1;
        return 0;
    default:
        return 0;
    }
}

/* A record that cannot be judged (err) because of its member at pointer (its
 * setup, or a rule option): reported. */
static void setup_refused(judge *j, const koma_error *err, const char *pointer)
{
    char msg[KOMA_ERROR_MESSAGE_MAX + KOMA_VERDICT_POINTER_MAX + 64];
    if (j->style == JUDGE_REPLAY)
        snprintf(msg, sizeof msg, "cannot replay this record: %s", err->message);
    else
        snprintf(msg, sizeof msg, "%s: %s%s", j->start ? "--start" : pointer, err->message,
                 err->code == KOMA_E_GAME_NO_RULES ? ": use --fid-only with its positions" : "");
    diag(j, pointer, 0, 0, err->code, msg, NULL);
    j->invalid = 1;
}

/* The verdict's own diagnostics (JUDGE_REPLAY), in the order: the deciding
 * illegal ply or the recorded result, the plies after the end, the outcome. */
static void verdict_diagnostics(judge *j, const koma_verdict *v)
{
    char msg[2048], ptr[48], extra[32];
    if (v->disputes & KOMA_DISPUTE_ILLEGAL) {
        koma_verdict_dispute(v, KOMA_DISPUTE_ILLEGAL, msg, sizeof msg);
        ply_pointer(ptr, sizeof ptr, v->ply);
        snprintf(extra, sizeof extra, "\"ply\":%zu", v->ply);
        diag(j, ptr, j->illegal_line, j->illegal_col, v->refused_code, msg, extra);
    }
    if (v->disputes & KOMA_DISPUTE_RESULT) {
        koma_verdict_dispute(v, KOMA_DISPUTE_RESULT, msg, sizeof msg);
        diag(j, "/outcome/result", 0, 0, KOMA_E_REPLAY_OUTCOME, msg, NULL);
    }
    if (v->disputes & KOMA_DISPUTE_EXTRA) {
        koma_verdict_dispute(v, KOMA_DISPUTE_EXTRA, msg, sizeof msg);
        ply_pointer(ptr, sizeof ptr, v->extra_ply);
        snprintf(extra, sizeof extra, "\"ply\":%zu", v->extra_ply);
        diag(j, ptr, j->extra_line, 1, KOMA_E_REPLAY_EXTRA, msg, extra);
    }
    if (v->disputes & KOMA_DISPUTE_CLOCK) {
        koma_verdict_dispute(v, KOMA_DISPUTE_CLOCK, msg, sizeof msg);
        diag(j, "/outcome/status", 0, 0, KOMA_E_REPLAY_OUTCOME, msg, NULL);
    }
    if (v->disputes & KOMA_DISPUTE_OUTCOME) {
        koma_verdict_dispute(v, KOMA_DISPUTE_OUTCOME, msg, sizeof msg);
        diag(j, koma_outcome_member_pointer(v->disagrees), 0, 0, KOMA_E_REPLAY_OUTCOME, msg, NULL);
    }
    if (v->kind == KOMA_VERDICT_CLAIM && v->handicap_disagrees) {
        /* a warning: the claim is judged with the stated handicap */
        koma_error w;
        memset(&w, 0, sizeof w);
        w.code = KOMA_E_REPLAY_HANDICAP;
        record_locate(j->src, "/meta/handicap", &w.line, &w.column);
        if (w.line == 0) {
            w.line = j->src->line;
            w.column = 1;
        }
        koma_verdict_handicap_message(v, w.message, sizeof w.message);
        cli_warning(j->c, j->src->file, &w);
    }
}

static void record_start(judge *j, const record_source *src)
{
    j->src = src;
    j->begun = j->abandoned = j->invalid = 0;
    j->lines = 0;
    j->illegal_line = j->illegal_col = j->extra_line = 0;
}

/* The record is judged (a verdict in j->v when judged): to the tool. */
static int record_done(judge *j, const record_item *item, int judged)
{
    koma_verdict *v = judged ? j->v : NULL;
    if (v && v->kind == KOMA_VERDICT_UNREADABLE && j->style == JUDGE_REPLAY) v = NULL;
    if (v && j->style == JUDGE_REPLAY) verdict_diagnostics(j, v);
    judge_record r = {j->src, item, v, j->invalid};
    return j->fn(j->ctx, &r);
}

/* ---- PCN records ---------------------------------------------------------------------- */

static int pcn_begun(void *ctx, koma_referee *ref)
{
    (void)ref;
    return emit_each(ctx);
}

static int pcn_ply(void *ctx, koma_referee *ref, size_t index, int status, const koma_error *err)
{
    (void)ref;
    judge *j = ctx;
    if (status == KOMA_PLY_PLAYED && j->each == NULL) return 0;     /* the usual ply */
    return after_ply(j, index, status, err, NULL, 0, 0);
}

static int pcn_item(void *ctx, record_item *item)
{
    judge *j = ctx;
    koma_error err;
    koma_error_clear(&err);
    record_start(j, &item->src);
    if (item->rec == NULL) {           /* the reader refused it: the tool reports it */
        j->invalid = 1;
        return record_done(j, item, 0);
    }
    j->rec = item->rec;
    koma_referee_hooks hooks = {pcn_begun, pcn_ply, j};
    int rc = koma_referee_pcn(j->ref, j->games, j->forced, item->rec, &hooks, j->v, &err);
    if (rc < 0) {
        if (j->c->status != CLI_TROUBLE) trouble(j, &err);
        return 1;
    }
    if (rc > 0) setup_refused(j, &err, j->v->unjudged_member);
    return record_done(j, item, rc == 0);
}

/* ---- runs of move lines (--start) -------------------------------------------------------- */

static int moves_begin(void *ctx, const record_source *src)
{
    judge *j = ctx;
    koma_error err;
    koma_error_clear(&err);
    record_start(j, src);
    const koma_game *g = j->forced;
    if (koma_game_set_open_feen(j->games, j->start, strlen(j->start), &j->pos, &g, &err) != 0 ||
        koma_referee_begin(j->ref, g, &j->pos, &err) != 0) {
        if (err.code == KOMA_E_MEMORY) {
            trouble(j, &err);
            return -2;
        }
        setup_refused(j, &err, "/setup/feen");
        return -1;
    }
    j->begun = 1;
    return emit_each(j) != 0 ? -2 : 0;
}

static int moves_move(void *ctx, const char *s, size_t len, unsigned long line, size_t col0)
{
    judge *j = ctx;
    koma_error err;
    koma_error_clear(&err);
    if (!j->begun || j->abandoned) return 0;
    if (s == NULL) {                   /* a line too long (reported) */
        if (j->style == JUDGE_REPLAY) {
            j->abandoned = j->invalid = 1;
        } else if (!koma_referee_over(j->ref)) {
            koma_error_set(&err, KOMA_E_LINE_LENGTH, 0, "line too long");
            koma_referee_ply_unreadable(j->ref, &err);
            j->invalid = 1;
        }
        return 0;
    }
    int st = koma_referee_ply(j->ref, s, len, &err);
    if (st < 0) {
        trouble(j, &err);
        return -2;
    }
    err.offset += col0;                /* a move of a list: its place in the line */
    return after_ply(j, j->lines++, st, &err, s, len, line) != 0 ? -2 : 0;
}

static int moves_end(void *ctx)
{
    judge *j = ctx;
    koma_error err;
    int judged = j->begun && !j->abandoned;
    if (judged && koma_referee_finish(j->ref, j->v, &err) != 0) {
        trouble(j, &err);
        return -2;
    }
    return record_done(j, NULL, judged) != 0 ? -2 : 0;
}

void judge_input(judge *j, cli_input *in, const records_options *o, const char *start,
                 judge_fn fn, void *ctx)
{
    j->fn = fn;
    j->ctx = ctx;
    j->start = start;
    j->rec = NULL;
    if (start == NULL) {
        records_each(j->c, in, o, pcn_item, j);
        return;
    }
    records_moves_fns fns = {moves_begin, moves_move, moves_end, j->style == JUDGE_REPLAY,
                             j->dialect == KOMA_PMN_DIALECT_SANKI};
    records_moves(j->c, in, &fns, j);
}
