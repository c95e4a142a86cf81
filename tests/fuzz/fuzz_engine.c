/*
 * tests/fuzz/fuzz_engine.c — libFuzzer harness for the rules engine under
 * arbitrary positions and move texts.
 *
 * Input: a FEEN line, then PMN lines (canonical PMN, or the seed dialect when
 * canonical PMN does not read). The game is the one the FEEN names (its style
 * and shape; of several, e.g. ogi and ogi-classic, the first byte picks), or,
 * when none fits, a built-in playable game picked by the first byte; when the
 * engine refuses the FEEN, play starts from that game's start position.
 *
 * On the set-up position and after every ply: every invariant of
 * engine_checks.h (legal moves, their PMN read back, make/unmake restoring FEEN
 * and hash, the incremental hash equal to a fresh set-up's, the ending, perft(1),
 * and the GGN-driven generator fed the game's exported document giving the
 * built-in list). On the set-up position, when small: perft(2) equals the sum of
 * the divided perft and of the split jobs (each job's FEEN set up afresh).
 * For each move text, as koma-replay plays it:
 *  - koma_engine_find_move accepts exactly the moves of the legal list (its
 *    canonical PMN in the list; refused: not in the list), with a rules.* or
 *    cell.* error whose message is printable;
 *  - the referee (koma/referee.h), given the same text, applies the ply
 *    exactly when find_move accepts it (or refuses it as an illegal
 *    repetition), or takes a refused text as a notation slip for one legal
 *    move; its position is then the engine's; it ends the game with a status
 *    and a result, and counts every ply after the end as after the end; after
 *    the end (or a slip) the plies go on through koma_engine_make alone;
 *  - at the end, unmaking every ply gives back the set-up FEEN and hash.
 */

#include <koma/koma.h>
#include "fuzz.h"
#include "engine_internal.h"
#include "engine_checks.h"

#define MAX_GAMES 16
#define PERFT2_MAX 120u                /* set-up moves for perft(2) */
#define SPLIT_MAX 40u                  /* set-up moves for the split */

typedef struct slot {
    const koma_game *game;
    koma_engine *e;
    koma_referee *ref;
    koma_ggn *ggn;
    checker c;
} slot;

static koma_game_set *games;
static slot slots[MAX_GAMES];
static size_t nslots;

static void init(void)
{
    koma_error err;
    CHECK(koma_game_set_new(&games, &err) == 0);
    for (size_t i = 0; i < koma_game_set_count(games) && nslots < MAX_GAMES; i++) {
        const koma_game *g = koma_game_set_at(games, i);
        if (!koma_game_playable(g)) continue;
        slot *s = &slots[nslots];
        s->game = g;
        koma_game_to_ggn(g, &s->ggn, &err);
        /* a game GGN cannot express (Ko shogi: shots, burns, PMN chains) has its
         * own checks (fuzz_chain, tests/unit/test_koshogi_games.c); Sanki
         * (castling, en passant, FEEN markers) is checked here without GGN */
        if (s->ggn == NULL && err.code == KOMA_E_GAME_GGN && !g->sanki) continue;
        CHECK(s->ggn != NULL || g->sanki);
        if (koma_game_ggn_note(g) != NULL) {
            /* Sanki's GGN says less than its rules (castling's rook, en passant's
             * victim, the markers): no move list to compare with; that every legal
             * move is one of its displacements is tests/unit/test_game_ggn_sanki.c's */
            koma_ggn_free(s->ggn);
            s->ggn = NULL;
        }
        CHECK(koma_engine_new(g, &s->e, &err) == 0);
        CHECK(koma_referee_new(NULL, &s->ref, &err) == 0);
        CHECK(checker_init(&s->c, s->e, s->ggn) == 0);
        nslots++;
    }
    CHECK(nslots > 0);
}

static uint64_t split_sum;             /* the split jobs' perfts, summed */

static int split_job(void *ctx, unsigned depth, const char *feen, size_t len)
{
    slot *s = ctx;
    koma_error err;
    uint64_t nodes;
    CHECK(strlen(feen) == len);
    if (koma_engine_set_feen(s->c.fresh, feen, len, &err) != 0) {
        fprintf(stderr, "split job FEEN refused: %s: %s %s\n", feen, koma_code_name(err.code),
                err.message);
        abort();
    }
    CHECK(koma_engine_perft(s->c.fresh, depth, &nodes, &err) == 0);
    split_sum += nodes;
    return 0;
}

/* perft(2) three ways, when the position is small. */
static void check_perft(slot *s)
{
    koma_error err;
    uint64_t nodes, n1;
    /* perft(1): the legal moves, none in a finished position (a bare king) */
    CHECK(koma_engine_perft(s->e, 1, &n1, &err) == 0);
    if (n1 == 0 || n1 > PERFT2_MAX) return;
    CHECK(koma_engine_perft(s->e, 2, &nodes, &err) == 0);
    koma_perft_entry *entries;
    size_t count;
    CHECK(koma_engine_perft_divide(s->e, 2, &entries, &count, NULL, NULL, &err) == 0);
    uint64_t sum = 0;
    for (size_t i = 0; i < count; i++) {
        sum += entries[i].nodes;
        CHECK(in_list(&s->c.a, entries[i].pmn));
        if (i > 0) CHECK(strcmp(entries[i - 1].pmn, entries[i].pmn) < 0);
    }
    free(entries);
    CHECK(count == n1);
    CHECK(sum == nodes);
    if (n1 > SPLIT_MAX) return;
    split_sum = 0;
    CHECK(koma_engine_perft_split(s->e, 2, 1, split_job, s, &err) == 0);
    CHECK(split_sum == nodes);
}

/* The next line of text[0..size) from *at: its start and length. */
static int next_line(const char *text, size_t size, size_t *at, const char **line, size_t *len)
{
    if (*at >= size) return 0;
    const char *p = text + *at, *nl = memchr(p, '\n', size - *at);
    size_t n = nl ? (size_t)(nl - p) : size - *at;
    *line = p;
    *len = n;
    *at += n + (nl != NULL);
    if (n > 0 && p[n - 1] == '\r') (*len)--;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (games == NULL) init();
    const char *text = (const char *)data;
    size_t at = 0;
    const char *line;
    size_t len;
    if (!next_line(text, size, &at, &line, &len)) return 0;
    unsigned pick = size ? data[0] : 0;

    /* the game: the FEEN's (of several, the first byte picks), else by the first byte */
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    int have_pos = koma_feen_parse(line, len, KOMA_FEEN_STRICT, &pos, &err) == 0;
    slot *s = NULL;
    if (have_pos) {
        const koma_game *g = koma_game_set_find_position(games, &pos, &err);
        if (g == NULL) CHECK(err.code == KOMA_E_GAME_UNKNOWN);
        size_t fits[MAX_GAMES], nfits = 0;
        for (size_t i = 0; g != NULL && i < nslots; i++)
            if (koma_game_style(slots[i].game) == koma_game_style(g) &&
                koma_game_files(slots[i].game) == koma_game_files(g) &&
                koma_game_ranks(slots[i].game) == koma_game_ranks(g))
                fits[nfits++] = i;
        if (nfits > 0) s = &slots[fits[pick % nfits]];
    }
    if (s == NULL) s = &slots[pick % nslots];
    koma_engine *e = s->e;
    checker *c = &s->c;
    if (!have_pos || koma_engine_set_position(e, &pos, &err) != 0) {
        if (have_pos) check_message(&err);
        CHECK(koma_engine_set_start(e, &err) == 0);
    }
    koma_position_cleanup(&pos);
    CHECK(koma_engine_ply(e) == 0);

    char setup[KOMA_FEEN_MAX_LEN + 1], feen[KOMA_FEEN_MAX_LEN + 1];
    engine_feen(e, setup);
    uint64_t setup_hash = koma_engine_hash(e);
    check_position(c);
    check_perft(s);

    /* the referee judges the same plies from the same setup */
    int ended = 0;                     /* the referee is over (or no longer followed) */
    koma_position ctx;
    koma_position_init(&ctx);
    CHECK(koma_engine_get_position(e, &ctx, &err) == 0);
    CHECK(koma_referee_begin(s->ref, s->game, &ctx, &err) == 0);
    ended = koma_referee_over(s->ref);
    while (next_line(text, size, &at, &line, &len)) {
        koma_move m;
        if (koma_pmn_parse(line, len, &m, &err) != 0) {
            check_message(&err);
            /* the seed dialect needs the position (as koma-replay reads it) */
            if (koma_engine_get_position(e, &ctx, &err) != 0) break;
            if (koma_pmn_parse_dialect(KOMA_PMN_DIALECT_SEED, line, len, &ctx, &m, &err) != 0) {
                check_message(&err);
                continue;
            }
        }
        char want[KOMA_PMN_BUF], got[KOMA_PMN_BUF];
        size_t wlen = koma_pmn_write(&m, want);
        CHECK(wlen > 0 && wlen <= KOMA_PMN_MAX_LEN);
        int pieceless = m.kind == KOMA_MOVE_DROP && m.piece == KOMA_PIECE_NONE;
        koma_emove em;
        int found = koma_engine_find_move(e, &m, &em, &err) == 0;
        if (found) {
            koma_engine_move_write(e, em, got);
            if (!in_list(&c->a, got)) {
                fprintf(stderr, "find_move accepts %s (%s), not a legal move of %s\n", want, got,
                        setup);
                abort();
            }
            if (!pieceless) CHECK(strcmp(want, got) == 0);
        } else {
            check_message(&err);
            CHECK(err.offset <= wlen);
            if (!pieceless && in_list(&c->a, want)) {
                engine_feen(e, feen);
                fprintf(stderr, "find_move refuses the legal move %s in %s: %s %s\n", want, feen,
                        koma_code_name(err.code), err.message);
                abort();
            }
        }

        if (!ended) {
            koma_error why;
            size_t ply = koma_referee_played(s->ref);
            int rc = koma_referee_ply(s->ref, want, wlen, &why);
            CHECK(rc >= 0);
            if (rc == KOMA_PLY_ILLEGAL) {
                check_message(&why);
                CHECK(koma_referee_played(s->ref) == ply && koma_referee_over(s->ref));
                if (found) CHECK(why.code == KOMA_E_RULES_REPETITION);
                else CHECK(why.code != KOMA_E_RULES_REPETITION);
                ended = 1;
            } else if (rc == KOMA_PLY_UNREADABLE) {
                /* a game whose rules refuse an illegal ply (Sanki): the record is
                 * invalid, judged no further */
                CHECK(!found && s->game->illegal_rejected);
                check_message(&why);
                CHECK(koma_referee_played(s->ref) == ply);
                ended = 1;
            } else if (rc == KOMA_PLY_NOTATION) {
                CHECK(!found && why.code == KOMA_E_REPLAY_NOTATION);
                check_message(&why);
                ended = 1;             /* (the engine would need the named move) */
                continue;
            } else {
                CHECK(rc == KOMA_PLY_PLAYED && found);
                CHECK(koma_referee_played(s->ref) == ply + 1);
                CHECK(koma_engine_make(e, em, &err) == 0);
                char rf[KOMA_FEEN_MAX_LEN + 1];
                CHECK(koma_referee_feen(s->ref, rf, sizeof rf, NULL, &err) == 0);
                engine_feen(e, feen);
                CHECK(strcmp(rf, feen) == 0);
                if (koma_referee_over(s->ref)) {
                    koma_verdict *v = malloc(sizeof *v);
                    CHECK(v != NULL);
                    v->size = sizeof *v;
                    CHECK(koma_referee_finish(s->ref, v, &err) == 0);
                    CHECK(v->kind == KOMA_VERDICT_RULES && v->result != KOMA_RESULT_NONE);
                    CHECK(v->status == KOMA_STATUS_MAREKING || v->status == KOMA_STATUS_CHECKMATE ||
                          v->status == KOMA_STATUS_STALEMATE || v->status == KOMA_STATUS_NOMOVE ||
                          v->status == KOMA_STATUS_BAREKING ||
                          v->status == KOMA_STATUS_INSUFFICIENT ||
                          v->status == KOMA_STATUS_REPETITION ||
                          v->status == KOMA_STATUS_MOVELIMIT);
                    free(v);
                    /* every later ply is after the end */
                    CHECK(koma_referee_ply(s->ref, want, wlen, &why) == KOMA_PLY_AFTER_END);
                    ended = 1;
                }
                check_position(c);
                continue;
            }
        }
        /* after the end: the ply alone, without the history rules */
        if (!found) continue;
        if (koma_engine_make(e, em, &err) != 0) {
            CHECK(err.code == KOMA_E_RULES_ILLEGAL || err.code == KOMA_E_MEMORY);
            break;
        }
        check_position(c);
    }
    koma_position_cleanup(&ctx);

    while (koma_engine_ply(e) > 0) CHECK(koma_engine_unmake(e) == 0);
    CHECK(koma_engine_unmake(e) == -1);
    engine_feen(e, feen);
    if (strcmp(feen, setup) != 0 || koma_engine_hash(e) != setup_hash) {
        fprintf(stderr, "unmaking every ply: %s -> %s\n", setup, feen);
        abort();
    }
    return 0;
}
