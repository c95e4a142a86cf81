/* tests/unit/unit.h — what every cmocka unit test includes. */
#ifndef KOMA_UNIT_H
#define KOMA_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <koma/koma.h>

#define LIT(s) (s), (sizeof(s) - 1)   /* a string literal as (pointer, length) */

/* ---- shared helpers (tests/unit/helpers.c) ---------------------------------------- */

/* A growing list of strings (move texts); start with LIST_INIT. */
typedef struct list {
    char **m;
    size_t n, cap;
} list;
#define LIST_INIT {NULL, 0, 0}
void list_add(list *l, const char *s);
void list_addf(list *l, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void list_add_all(list *l, const char *const *ms);   /* a NULL-terminated array */
void list_sort(list *l);
void list_free(list *l);
/* Drops of `piece` (EPIN text) on every square of a files x ranks board except the
 * cells of `occupied` (space separated), ranks ex_lo..ex_hi (0 0: none) and the
 * file skip_file (0: none). */
void drop_list(list *l, const char *piece, int files, int ranks, const char *occupied,
               int ex_lo, int ex_hi, char skip_file);

/* The built-in games, as a group fixture: cmocka_run_group_tests(t, games_setup,
 * games_teardown); game_of(id) then finds one (failing the test when unknown). */
int games_setup(void **state);
int games_teardown(void **state);
const koma_game *game_of(const char *id);
const koma_game_set *games_set(void);  /* the set itself */

/* A new engine of a built-in game set to a FEEN (fails the test when refused). */
koma_engine *engine_at(const char *game, const char *feen);
/* The legal moves of the position are exactly `want` (in any order, no duplicates),
 * and every listed move is found back from its text; frees want. */
void expect_moves(const char *game, const char *feen, list *want);
void expect_list(const char *game, const char *feen, const char *const *ms);
void expect_count(const char *game, const char *feen, size_t count);
void expect_legal(const char *game, const char *feen, const char *pmn);
/* The move is refused with this code (at this 0-based offset of its text). */
void expect_illegal(const char *game, const char *feen, const char *pmn, koma_code code);
void expect_illegal_at(const char *game, const char *feen, const char *pmn, koma_code code,
                       size_t offset);
/* The position's ending; a finished position has no moves (perft(1) = 0). */
void expect_ending(const char *game, const char *feen, int over, koma_status st,
                   koma_result res);

/* A random legal game of at most `plies` plies from feen (a game of `set`), as
 * PCN; each move drawn with the LCG of *seed (rnd_next). The positions before
 * each ply go into pos[0 .. *npos) (at most cap of them; pos may be NULL with
 * cap 0). */
unsigned rnd_next(unsigned long long *seed, unsigned n);
koma_pcn *random_legal_game(const koma_game_set *set, const char *feen, size_t plies,
                            unsigned long long *seed, koma_position *pos, size_t cap,
                            size_t *npos);

/* A read function over memory (the read callback of koma_pcn_reader and
 * koma_converter_input), in pieces of at most `chunk` bytes. */
typedef struct mem_src {
    const char *s;
    size_t len, pos, chunk;
} mem_src;
long mem_read(void *ctx, char *buf, size_t cap);
/* A whole file read into a buffer the caller frees; NULL when it cannot be opened. */
char *read_whole_file(const char *path, size_t *len);
/* Each file under dir, recursively (names beginning with '.' left out): fn with
 * its path and name. Fails the test when dir cannot be opened. */
void walk_files(const char *dir, void (*fn)(const char *path, const char *name, void *ctx), void *ctx);

/* The texts of len bytes over the na bytes of alphabet, numbered 0 to
 * texts_of_len(na, len) - 1: text_of_code writes the code-th into buf (no NUL). */
size_t texts_of_len(size_t na, size_t len);
void text_of_code(char *buf, size_t len, const char *alphabet, size_t na, size_t code);

/* The C library's heap (glibc, mallopt): on, each new block that no free chunk
 * holds goes on pages of its own (no padding or slack at the top of the heap,
 * which is trimmed now); off, the defaults again. Blocks whose size the budget
 * of lib/util_json_alloc.c cannot read back, for its table. */
void heap_map_new_blocks(int on);

#endif
