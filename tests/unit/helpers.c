/*
 * tests/unit/helpers.c — helpers shared by the unit tests (declared in unit.h),
 * linked into every test binary: growing lists of move texts, the built-in games
 * as a cmocka group fixture, and the rules-engine expectations used by the move
 * generation tests (a complete legal-move list, a refused move and its code, an
 * ending).
 */
#include <dirent.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "unit.h"

void list_add(list *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **m = realloc(l->m, cap * sizeof *m);
        assert_non_null(m);
        l->m = m;
        l->cap = cap;
    }
    l->m[l->n] = strdup(s);
    assert_non_null(l->m[l->n]);
    l->n++;
}

void list_addf(list *l, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof buf);
    list_add(l, buf);
}

void list_add_all(list *l, const char *const *ms)
{
    for (size_t i = 0; ms[i]; i++) list_add(l, ms[i]);
}

void list_free(list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->m[i]);
    free(l->m);
    l->m = NULL;
    l->n = l->cap = 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void list_sort(list *l)
{
    if (l->n > 1) qsort(l->m, l->n, sizeof l->m[0], cmp_str);
}

/* Is cell (e.g. "c2") one of the space-separated cells of `cells`? */
static int cell_in(const char *cells, const char *cell)
{
    size_t n = strlen(cell);
    for (const char *p = cells; (p = strstr(p, cell)) != NULL; p += n)
        if ((p == cells || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

void drop_list(list *l, const char *piece, int files, int ranks, const char *occupied,
               int ex_lo, int ex_hi, char skip_file)
{
    for (int r = 1; r <= ranks; r++) {
        if (ex_lo && r >= ex_lo && r <= ex_hi) continue;
        for (char f = 'a'; f < 'a' + files; f++) {
            if (f == skip_file) continue;
            char cell[16];
            snprintf(cell, sizeof cell, "%c%d", f, r);
            if (cell_in(occupied, cell)) continue;
            list_addf(l, "%s*%s", piece, cell);
        }
    }
}

/* ---- the built-in games ------------------------------------------------------------ */

static koma_game_set *games;

const koma_game_set *games_set(void) { return games; }

int games_setup(void **state)
{
    (void)state;
    koma_error err;
    koma_error_clear(&err);
    return koma_game_set_new(&games, &err);
}

int games_teardown(void **state)
{
    (void)state;
    koma_game_set_free(games);
    games = NULL;
    return 0;
}

const koma_game *game_of(const char *id)
{
    assert_non_null(games);
    const koma_game *g = koma_game_set_find_id(games, id, strlen(id));
    if (g == NULL) print_error("no built-in game %s\n", id);
    assert_non_null(g);
    return g;
}

koma_engine *engine_at(const char *game, const char *feen)
{
    koma_engine *e;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_new(game_of(game), &e, &err), 0);
    if (koma_engine_set_feen(e, feen, strlen(feen), &err) != 0) {
        print_error("FEEN %s: %s\n", feen, err.message);
        fail();
    }
    return e;
}

/* ---- engine expectations ------------------------------------------------------------- */

void expect_moves(const char *game, const char *feen, list *want)
{
    koma_engine *e = engine_at(game, feen);
    koma_emove *mv = malloc(koma_engine_max_moves(e) * sizeof *mv);
    assert_non_null(mv);
    size_t n = koma_engine_legal_moves(e, mv);
    list got = LIST_INIT;
    for (size_t i = 0; i < n; i++) {
        char b[KOMA_PMN_BUF];
        koma_engine_move_write(e, mv[i], b);
        list_add(&got, b);
    }
    list_sort(&got);
    list_sort(want);
    int same = got.n == want->n;
    for (size_t i = 0; same && i < got.n; i++) same = strcmp(got.m[i], want->m[i]) == 0;
    if (!same) {
        print_error("%s %s\n  got %zu:", game, feen, got.n);
        for (size_t i = 0; i < got.n; i++) print_error(" %s", got.m[i]);
        print_error("\n  want %zu:", want->n);
        for (size_t i = 0; i < want->n; i++) print_error(" %s", want->m[i]);
        print_error("\n");
    }
    for (size_t i = 1; i < got.n; i++) assert_true(strcmp(got.m[i - 1], got.m[i]) != 0);
    assert_true(same);
    /* every listed move is found back from its text */
    for (size_t i = 0; i < want->n; i++) {
        koma_emove m;
        koma_error err;
        koma_error_clear(&err);
        assert_int_equal(koma_engine_parse_move(e, want->m[i], strlen(want->m[i]), &m, &err), 0);
        char b[KOMA_PMN_BUF];
        koma_engine_move_write(e, m, b);
        assert_string_equal(b, want->m[i]);
    }
    list_free(&got);
    list_free(want);
    free(mv);
    koma_engine_free(e);
}

void expect_list(const char *game, const char *feen, const char *const *ms)
{
    list want = LIST_INIT;
    list_add_all(&want, ms);
    expect_moves(game, feen, &want);
}

void expect_count(const char *game, const char *feen, size_t count)
{
    koma_engine *e = engine_at(game, feen);
    koma_emove *mv = malloc(koma_engine_max_moves(e) * sizeof *mv);
    assert_non_null(mv);
    assert_int_equal(koma_engine_legal_moves(e, mv), count);
    free(mv);
    koma_engine_free(e);
}

void expect_legal(const char *game, const char *feen, const char *pmn)
{
    koma_engine *e = engine_at(game, feen);
    koma_emove m;
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_engine_parse_move(e, pmn, strlen(pmn), &m, &err);
    if (rc != 0) print_error("%s: %s refused: %s\n", feen, pmn, err.message);
    assert_int_equal(rc, 0);
    koma_engine_free(e);
}

static void refused(const char *game, const char *feen, const char *pmn, koma_code code,
                    size_t offset, int any_offset)
{
    koma_engine *e = engine_at(game, feen);
    koma_emove m;
    koma_error err;
    koma_error_clear(&err);
    int rc = koma_engine_parse_move(e, pmn, strlen(pmn), &m, &err);
    if (rc == 0 || err.code != code || (!any_offset && err.offset != offset))
        print_error("%s %s: %s -> %s at %zu (%s), want %s at %zu\n", game, feen, pmn,
                    rc == 0 ? "legal" : koma_code_name(err.code), err.offset, err.message,
                    koma_code_name(code), offset);
    assert_int_equal(rc, -1);
    assert_int_equal(err.code, code);
    if (!any_offset) assert_int_equal(err.offset, offset);
    koma_engine_free(e);
}

void expect_illegal(const char *game, const char *feen, const char *pmn, koma_code code)
{
    refused(game, feen, pmn, code, 0, 1);
}

void expect_illegal_at(const char *game, const char *feen, const char *pmn, koma_code code,
                       size_t offset)
{
    refused(game, feen, pmn, code, offset, 0);
}

void expect_ending(const char *game, const char *feen, int over, koma_status st,
                   koma_result res)
{
    koma_engine *e = engine_at(game, feen);
    koma_ending end;
    koma_engine_position_ending(e, &end);
    assert_int_equal(end.over, over);
    if (over) {
        assert_int_equal(end.status, st);
        assert_int_equal(end.result, res);
        /* a finished position has no moves (perft's convention) */
        uint64_t nodes = 99;
        koma_error err;
        assert_int_equal(koma_engine_perft(e, 1, &nodes, &err), 0);
        assert_int_equal(nodes, 0);
    }
    koma_engine_free(e);
}

long mem_read(void *ctx, char *buf, size_t cap)
{
    mem_src *m = ctx;
    size_t n = m->len - m->pos;
    if (n > cap) n = cap;
    if (n > m->chunk) n = m->chunk;
    memcpy(buf, m->s + m->pos, n);
    m->pos += n;
    return (long)n;
}

char *read_whole_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, r;
    do {
        if (n + 65536 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
    } while (r > 0);
    fclose(f);
    *len = n;
    return buf;
}

void heap_map_new_blocks(int on)
{
    mallopt(M_TOP_PAD, on ? 0 : 128 << 10);
    mallopt(M_TRIM_THRESHOLD, on ? 0 : 128 << 10);
    mallopt(M_MMAP_THRESHOLD, on ? 0 : 128 << 10);
    if (on) malloc_trim(0);
}

unsigned rnd_next(unsigned long long *seed, unsigned n)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((*seed >> 33) % n);
}

koma_pcn *random_legal_game(const koma_game_set *set, const char *feen, size_t plies,
                            unsigned long long *seed, koma_position *pos, size_t cap,
                            size_t *npos)
{
    koma_error err;
    koma_position start;
    koma_position_init(&start);
    assert_int_equal(koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &start, &err), 0);
    const koma_game *g = koma_game_set_find_position(set, &start, &err);
    assert_non_null(g);
    koma_engine *e;
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    assert_int_equal(koma_engine_set_position(e, &start, &err), 0);
    koma_position_cleanup(&start);
    koma_pcn *p = NULL;
    koma_pcn_new(feen, strlen(feen), &p, &err);
    assert_non_null(p);
    koma_emove *moves = malloc(koma_engine_max_moves(e) * sizeof *moves);
    assert_non_null(moves);
    size_t n_pos = 0;
    for (size_t i = 0; i < plies; i++) {
        if (n_pos < cap) assert_int_equal(koma_engine_get_position(e, &pos[n_pos++], &err), 0);
        size_t n = koma_engine_legal_moves(e, moves);
        if (n == 0) break;
        koma_emove m = moves[rnd_next(seed, (unsigned)n)];
        char buf[KOMA_PMN_BUF];
        size_t len = koma_engine_move_write(e, m, buf);
        assert_int_equal(koma_pcn_append_ply(p, buf, len, &err), 0);
        assert_int_equal(koma_engine_make(e, m, &err), 0);
    }
    free(moves);
    koma_engine_free(e);
    if (npos) *npos = n_pos;
    return p;
}

size_t texts_of_len(size_t na, size_t len)
{
    size_t total = 1;
    for (size_t i = 0; i < len; i++) total *= na;
    return total;
}

void text_of_code(char *buf, size_t len, const char *alphabet, size_t na, size_t code)
{
    for (size_t i = 0; i < len; i++) {
        buf[i] = alphabet[code % na];
        code /= na;
    }
}

void walk_files(const char *dir, void (*fn)(const char *path, const char *name, void *ctx), void *ctx)
{
    DIR *dp = opendir(dir);
    if (dp == NULL) fail_msg("no %s (the unit tests run from the repository root)", dir);
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) walk_files(path, fn, ctx);
        else fn(path, de->d_name, ctx);
    }
    closedir(dp);
}
