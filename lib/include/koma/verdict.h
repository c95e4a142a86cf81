/*
 * koma/verdict.h — a verdict (koma/referee.h) in words, and written back into
 * its record: the one place every front end takes them from, so that a
 * command, a GUI and a binding to another language say the same thing.
 * Nothing here decides anything: the referee did; these put its verdict into
 * English sentences (the tools print them: koma-replay(1), koma-validate(1),
 * koma-repetition-check(1)) and into a PCN outcome.
 *
 * The writers of text are snprintf-like: they write at most cap bytes into buf,
 * always NUL-terminated when cap > 0 (cut short when the text is longer), and
 * return the length of the whole text, so that a caller whose buffer was too
 * small can size a new one. A verdict of a size this library does not know
 * (koma_verdict.size) gives the empty text and 0, and NULL for the functions
 * that return a word.
 */
#ifndef KOMA_VERDICT_H
#define KOMA_VERDICT_H

#include <koma/referee.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "Sente" (KOMA_FIRST) or "Gote": the players' default names (a game that names
 * its own, as Sanki does, has them from koma_game_side_name; the verdict texts
 * use the game's). Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_verdict_side_name(int side);

/* The verdict in one sentence: koma-replay --adjudicate's REASON, the "reason"
 * of its --json objects ("Gote is checkmated after P*5b at ply 41; Sente wins").
 * Ownership: none. */
KOMA_API size_t koma_verdict_reason(const koma_verdict *v, char *buf, size_t cap);

/* The diagnostic message of a disputed record for one of its v->disputes flags:
 * KOMA_DISPUTE_ILLEGAL (the illegal ply, the legal moves from its origin),
 * _RESULT (a resignation or agreement with the wrong result), _EXTRA (plies
 * after the end), _CLOCK (a time loss the clocks contradict), _OUTCOME (a
 * recorded outcome member that disagrees; at koma_outcome_member_pointer of
 * v->disagrees). Another flag (or one not set in v->disputes): the empty text.
 * Ownership: none. */
KOMA_API size_t koma_verdict_dispute(const koma_verdict *v, unsigned dispute, char *buf,
                                     size_t cap);

/* The warning of a judged declaration or impasse whose stated handicap the
 * setup contradicts (v->handicap_disagrees): what each says, and that the
 * stated one is counted. Otherwise the empty text.
 * Ownership: none. */
KOMA_API size_t koma_verdict_handicap_message(const koma_verdict *v, char *buf, size_t cap);

/* The rule a declaration or impasse was judged by: "27-point", "24-point", "try".
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_verdict_claim_rule(const koma_verdict *v);

/* The JSON pointer of a recorded outcome member ("/outcome/status"), or NULL
 * for KOMA_MEMBER_NONE. Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_outcome_member_pointer(koma_outcome_member m);

/* A ply (1-based) that cannot be read, from koma_referee_ply's err:
 * "ply N \"TEXT\" cannot be read: MESSAGE" (pcn.plies.limit: its message). Ownership: none. */
KOMA_API size_t koma_ply_unreadable_message(size_t ply, const char *text, size_t len,
                                            const koma_error *err, char *buf, size_t cap);
/* A ply (1-based) by `side` not in canonical form (KOMA_PLY_NOTATION), from
 * koma_referee_ply's err: "ply N \"TEXT\" by SIDE: MESSAGE", the side named as
 * `game` names it (koma_game_side_name; NULL: the default names).
 * Ownership: none. */
KOMA_API size_t koma_ply_notation_message(size_t ply, const char *text, size_t len,
                                          const koma_game *game, int side,
                                          const koma_error *err, char *buf, size_t cap);

/* The repetition rule a verdict triggered: "none", "illegal-repeat", "fourfold"
 * or "perpetual-check" (koma-repetition-check(1)).
 * Ownership: the result is static (the library's constant data). */
KOMA_API const char *koma_verdict_repetition_rule(const koma_verdict *v);
/* koma-repetition-check's reason: which rule, at which plies; positions is the
 * referee's table (KOMA_REFEREE_TRACK, koma_referee_positions), nrep the
 * positions repeated in it. Ownership: none. */
KOMA_API size_t koma_verdict_repetition_reason(const koma_verdict *v, koma_repeats *positions,
                                               size_t nrep, char *buf, size_t cap);

/*
 * Write the verdict into rec's outcome: result, status and ply as the rules
 * (or the honoured record) give them; a declaration or impasse as its result
 * with no status (the CSA code dropped when the result changed); a result kept
 * with no status; an unfinished game: status and ply removed when the record
 * had an outcome. -1 with err on trouble (memory), or with api.size for a
 * verdict of a size this library does not know.
 * Ownership: none.
 */
KOMA_API int koma_verdict_outcome(const koma_verdict *v, koma_pcn *rec, koma_error *err);

#ifdef __cplusplus
}
#endif
#endif
