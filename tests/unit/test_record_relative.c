/*
 * tests/unit/test_record_relative.c — KI2's origins (lib/record_relative.c) found the
 * quick way (the pieces that reach the square, read from the board:
 * lib/engine_origins.c) and the full way (every pseudo-legal move generated and
 * tested: a hub with full_origins set) give the same everything:
 *
 *   - the origins themselves, for every kind of piece and a sample of squares of
 *     the positions of random games (crowded ones: golds, dragons, pieces in
 *     hand), and every reading of them (koma__relative_pick for each promotion
 *     word and each set of marks; koma__relative_marks);
 *   - the PCN (or the located error) of every KI2 and JKF record of tests/data
 *     and of the fuzz corpora (tests/fuzz/corpus/ki2, .../jkf), and each record
 *     written back as KI2 and as JKF (the writers' marks);
 *   - the same for random games written as KI2, and for those records with
 *     their marks edited at random (marks removed, added, swapped: ambiguous
 *     moves, moves nothing fits, 打 where a board piece also reaches).
 */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "unit.h"
#include "engine_internal.h"
#include "format_internal.h"
#include "record_internal.h"
#include "util_text.h"

static koma_hub *quick, *full;

static int hubs_setup(void **state)
{
    (void)state;
    koma_hub_new(NULL, &quick, NULL);
    koma_hub_new(NULL, &full, NULL);
    if (quick == NULL || full == NULL) return -1;
    full->full_origins = 1;
    return 0;
}

static int hubs_teardown(void **state)
{
    (void)state;
    koma_hub_free(quick);
    koma_hub_free(full);
    return 0;
}

static unsigned long long seed = 20261128;

static unsigned rnd(unsigned n) { return rnd_next(&seed, n); }

static void puts_buf(koma_buffer *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void puts_buf(koma_buffer *b, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    koma_error err;
    assert_int_equal(koma__buf_put(b, line, strlen(line), &err), 0);
}

/* ---- whole records ---------------------------------------------------------------- */

/* rec written as `name` through hub h, into the trace. */
static void trace_write(koma_hub *h, const char *name, const koma_pcn *rec, koma_buffer *t)
{
    koma_format_writer *ws = NULL;
    koma_error err;
    koma_format_writer_new(h, koma_format_find(name, strlen(name)), KOMA_WRITE_UTF8, &ws, &err);
    assert_non_null(ws);
    koma_buffer out = {0};
    if (koma_format_writer_record(ws, rec, &out, &err) == 0) {
        assert_int_equal(koma__buf_put(t, out.data ? out.data : "", out.len, &err), 0);
    } else {
        puts_buf(t, "%s: %s: %s\n", name, koma_code_name(err.code), err.message);
    }
    koma_buffer_cleanup(&out);
    koma_format_writer_free(ws);
}

/* Everything hub h makes of text in format `name`: each record's PCN or error
 * (code, line, column, message), each record written back as KI2 and JKF. */
static void trace(koma_hub *h, const char *name, const char *text, size_t len, koma_buffer *t,
                  size_t *records)
{
    koma_error err;
    koma_format_reader *rs = NULL;
    koma_format_reader_new(h, koma_format_find(name, strlen(name)), NULL, &rs, &err);
    assert_non_null(rs);
    t->len = 0;
    if (koma_format_reader_feed(rs, text, len, &err) != 0) {
        puts_buf(t, "feed: %s: %s\n", koma_code_name(err.code), err.message);
        koma_format_reader_free(rs);
        return;
    }
    koma_format_reader_finish(rs);
    for (;;) {
        koma_pcn *rec = NULL;
        koma_error_clear(&err);
        int rc = koma_format_reader_next(rs, &rec, &err);
        if (rc == KOMA_PCN_END) break;
        if (rc != KOMA_PCN_RECORD) {
            puts_buf(t, "%d %s %lu:%lu %s\n", rc, koma_code_name(err.code), err.line, err.column, err.message);
            if (rc == KOMA_PCN_FATAL || rc == KOMA_PCN_AGAIN) break;
            continue;
        }
        (*records)++;
        koma_buffer b = {0};
        assert_int_equal(koma_pcn_write(rec, KOMA_PCN_JSON, 0, &b, &err), 0);
        assert_int_equal(koma__buf_put(t, b.data, b.len, &err), 0);
        koma_buffer_cleanup(&b);
        trace_write(h, "ki2", rec, t);
        trace_write(h, "jkf", rec, t);
        koma_pcn_free(rec);
    }
    koma_format_reader_free(rs);
}

static unsigned long compared, records_read;

/* The quick and the full hub make the same of text. */
static void same_both_ways(const char *name, const char *what, const char *text, size_t len)
{
    koma_buffer a = {0}, b = {0};
    size_t ra = 0, rb = 0;
    trace(quick, name, text, len, &a, &ra);
    trace(full, name, text, len, &b, &rb);
    if (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len) != 0))
        fail_msg("%s: the quick origins differ from the full ones:\n--- quick\n%.*s\n--- full\n%.*s", what,
                 (int)a.len, a.data ? a.data : "", (int)b.len, b.data ? b.data : "");
    compared++;
    records_read += ra;
    koma_buffer_cleanup(&a);
    koma_buffer_cleanup(&b);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) return NULL;
    koma_buffer b = {0};
    koma_error err;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) assert_int_equal(koma__buf_put(&b, chunk, n, &err), 0);
    fclose(fp);
    assert_int_equal(koma__buf_put(&b, "", 1, &err), 0);
    *len = b.len - 1;
    return b.data;
}

/* Every file under dir (recursively) whose name ends in suffix ("" any), read as `name`. */
typedef struct walk_ctx {
    const char *suffix, *name;
} walk_ctx;

static void same_for_file(const char *path, const char *fname, void *ctx)
{
    const walk_ctx *w = ctx;
    size_t l = strlen(fname), k = strlen(w->suffix);
    if (l < k || strcmp(fname + l - k, w->suffix) != 0) return;
    size_t len;
    char *text = slurp(path, &len);
    if (text == NULL) return;
    same_both_ways(w->name, path, text, len);
    free(text);
}

static void same_for_files(const char *dir, const char *suffix, const char *name)
{
    walk_ctx w = {suffix, name};
    walk_files(dir, same_for_file, &w);
}

static void sample_records(void **state)
{
    (void)state;
    unsigned long before = compared;
    same_for_files("tests/data", ".ki2", "ki2");
    same_for_files("tests/data", ".jkf", "jkf");
    print_message("tests/data: %lu files, the same both ways\n", compared - before);
    assert_true(compared - before >= 8);
}

static void fuzz_corpora(void **state)
{
    (void)state;
    unsigned long before = compared, rb = records_read;
    same_for_files("tests/fuzz/corpus/ki2", "", "ki2");
    same_for_files("tests/fuzz/corpus/jkf", "", "jkf");
    print_message("fuzz corpora: %lu inputs (%lu records), the same both ways\n", compared - before,
                  records_read - rb);
    assert_true(compared - before >= 1000);
}

/* ---- random games ----------------------------------------------------------------- */

static const char *const starts[] = {
    "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s",
    "4k^4/9/9/9/9/9/9/9/3GGG1K^1 2G2S/2g2s S/s",                      /* golds, and more in hand */
    "k^8/9/9/9/9/9/9/9/8K^ 4G4L4N4S2B2R/18p S/s",                  /* everything to drop */
    "4k^4/9/9/9/9/9/9/8K^/+R7+R 2B2G/2g S/s",                         /* dragons, horses to come */
    "4k^4/9/9/9/4g4/9/4G4/9/3GK^G3 GS/gs S/s",                         /* golds around a king: pins */
};
#define NSTARTS (sizeof starts / sizeof starts[0])

/* A random legal game from feen: its positions (before each ply, *npos of them,
 * at most cap) and the game as PCN. */
static koma_pcn *random_game(const char *feen, size_t plies, koma_position *pos, size_t cap, size_t *npos)
{
    return random_legal_game(koma_hub_games(quick), feen, plies, &seed, pos, cap, npos);
}

static const unsigned rels[] = {0,
                                KOMA_REL_RIGHT,
                                KOMA_REL_LEFT,
                                KOMA_REL_STRAIGHT,
                                KOMA_REL_UP,
                                KOMA_REL_DOWN,
                                KOMA_REL_SIDEWAYS,
                                KOMA_REL_RIGHT | KOMA_REL_UP,
                                KOMA_REL_LEFT | KOMA_REL_UP,
                                KOMA_REL_RIGHT | KOMA_REL_DOWN,
                                KOMA_REL_LEFT | KOMA_REL_DOWN,
                                KOMA_REL_RIGHT | KOMA_REL_SIDEWAYS,
                                KOMA_REL_LEFT | KOMA_REL_SIDEWAYS,
                                KOMA_REL_RIGHT | KOMA_REL_STRAIGHT,
                                KOMA_REL_UP | KOMA_REL_DOWN};

/* The two collections of the origins of kind to `to` in pos agree, and so does
 * every reading of them. */
static unsigned long memo_answers, memo_unfit;

/* koma__mb_origins with the hub's memo of the last board (only the squares that
 * changed counted again) and without (the board read whole): the same answer. */
static void same_with_memo(const koma_game *g, const koma_position *pos, koma_piece kind, koma_sq to)
{
    koma_error err;
    uint32_t tosq;
    if (koma_sq_to_square(&pos->shape, to, &tosq) != 0) return;
    koma_engine *e = koma__hub_engine(quick, g, &err);
    assert_non_null(e);
    assert_non_null(quick->memo);
    uint32_t fa[KOMA__MAX_ORIGINS], fb[KOMA__MAX_ORIGINS];
    unsigned ma[KOMA__MAX_ORIGINS], mb[KOMA__MAX_ORIGINS];
    int na = koma__mb_origins(e, pos, kind, tosq, fa, ma, KOMA__MAX_ORIGINS, quick->memo);
    int nb = koma__mb_origins(e, pos, kind, tosq, fb, mb, KOMA__MAX_ORIGINS, NULL);
    assert_int_equal(na, nb);
    for (int i = 0; i < na && i < KOMA__MAX_ORIGINS; i++) {
        assert_int_equal(fa[i], fb[i]);
        assert_int_equal(ma[i], mb[i]);
    }
    memo_answers++;
    memo_unfit += na < 0;
}

static void same_origins(const koma_game *g, const koma_position *pos, koma_piece kind, koma_sq to,
                         unsigned long *multi)
{
    koma__origins a, b;
    koma_error ea, eb;
    int ra = koma__relative_collect(quick, g, pos, kind, to, &a, &ea);
    int rb = koma__relative_collect(full, g, pos, kind, to, &b, &eb);
    same_with_memo(g, pos, kind, to);
    assert_int_equal(ra, rb);
    assert_int_equal(a.n, b.n);
    if (a.n > 1) (*multi)++;
    for (size_t i = 0; i < a.n; i++) {
        assert_int_equal(a.sq[i].file, b.sq[i].file);
        assert_int_equal(a.sq[i].rank, b.sq[i].rank);
        assert_int_equal(a.pseudo[i], b.pseudo[i]);
        if (a.n > 1) assert_int_equal(a.legal[i], b.legal[i]);
    }
    static const int promotes[] = {KOMA_PROMOTE_UNSAID, KOMA_PROMOTE_YES, KOMA_PROMOTE_NO};
    for (size_t p = 0; p < 3; p++) {
        for (size_t r = 0; r < sizeof rels / sizeof rels[0]; r++) {
            size_t a1 = 9, a2 = 9, b1 = 9, b2 = 9;
            assert_int_equal(koma__relative_pick(&a, promotes[p], rels[r], to, pos->turn, &a1, &a2),
                             koma__relative_pick(&b, promotes[p], rels[r], to, pos->turn, &b1, &b2));
            assert_int_equal(a1, b1);
            assert_int_equal(a2, b2);
        }
        for (size_t i = 0; i < a.n; i++) {
            unsigned qa = 0, qb = 0;
            assert_int_equal(koma__relative_marks(&a, i, kind, promotes[p], to, pos->turn, &qa),
                             koma__relative_marks(&b, i, kind, promotes[p], to, pos->turn, &qb));
            assert_int_equal(qa, qb);
        }
    }
}

static void origins_of_positions(void **state)
{
    (void)state;
    static const char *const kinds[] = {"P", "L", "N", "S", "G", "B", "R", "K^", "+P", "+L", "+N", "+S", "+B", "+R"};
    enum { GAMES = 4, CAP = 90 };
    koma_position *pos = calloc(CAP, sizeof *pos);
    for (size_t i = 0; i < CAP; i++) koma_position_init(&pos[i]);
    unsigned long asked = 0, multi = 0;
    for (size_t s = 0; s < NSTARTS; s++)
        for (int game = 0; game < GAMES; game++) {
            size_t npos;
            koma_pcn *p = random_game(starts[s], CAP, pos, CAP, &npos);
            koma_pcn_free(p);
            koma_error err;
            const koma_game *g = koma_game_set_find_position(koma_hub_games(quick), &pos[0], &err);
            assert_non_null(g);
            for (size_t i = 0; i < npos; i++)
                for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
                    koma_piece kind;
                    assert_int_equal(koma_epin_parse(kinds[k], strlen(kinds[k]), &kind, &err), 0);
                    kind = (koma_piece)(kind & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE));
                    /* every square of one position in eight, eight others */
                    for (unsigned j = 0; j < (i % 8 == 0 ? 81u : 8u); j++) {
                        koma_sq to = {i % 8 == 0 ? 1 + j % 9 : 1 + rnd(9), i % 8 == 0 ? 1 + j / 9 : 1 + rnd(9)};
                        same_origins(g, &pos[i], kind, to, &multi);
                        asked++;
                    }
                    /* the board spoilt on a square or two (a second king, a piece
                     * not of the game), asked, then put back: the memo follows */
                    if (rnd(4) == 0) {
                        static const char *const odd[] = {"K^", "k^", "Q", "q", "P", "+g", "R"};
                        uint32_t sq1 = rnd(81), sq2 = rnd(81);
                        koma_piece k1 = pos[i].board[sq1], k2 = pos[i].board[sq2], p1, p2;
                        const char *o1 = odd[rnd(7)], *o2 = odd[rnd(7)];
                        assert_int_equal(koma_epin_parse(o1, strlen(o1), &p1, &err), 0);
                        assert_int_equal(koma_epin_parse(o2, strlen(o2), &p2, &err), 0);
                        pos[i].board[sq1] = p1;
                        if (rnd(2)) pos[i].board[sq2] = rnd(2) ? p2 : KOMA_PIECE_NONE;
                        koma_sq to = {1 + rnd(9), 1 + rnd(9)};
                        same_with_memo(g, &pos[i], kind, to);
                        pos[i].board[sq2] = k2;
                        pos[i].board[sq1] = k1;
                    }
                }
        }
    for (size_t i = 0; i < CAP; i++) koma_position_cleanup(&pos[i]);
    free(pos);
    print_message("origins: %lu questions (%lu with several origins), the same both ways; with the memo of the "
                  "last board and without: %lu answers (%lu boards that do not fit), the same\n",
                  asked, multi, memo_answers, memo_unfit);
    assert_true(multi > 300);
    assert_true(memo_unfit > 500 && memo_answers - memo_unfit > 100000);
}

/* KI2's marks and the characters they follow (UTF-8). */
static const char *const marks[] = {"右", "左", "直", "上", "引", "寄", "打", "成", "不成"};
static const char *const pieces[] = {"歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "馬", "龍"};

/* text with one random edit of its marks: one removed, one added after a piece
 * name, or 右 and 左 (上 and 引) swapped. */
static void edit_marks(koma_buffer *t)
{
    koma_error err;
    for (int tries = 0; tries < 8; tries++) {
        const char *m = marks[rnd(sizeof marks / sizeof marks[0])];
        size_t ml = strlen(m);
        /* a random occurrence, from a random point on */
        size_t from = rnd((unsigned)t->len);
        const char *hit = NULL;
        switch (rnd(3)) {
        case 0:                        /* remove a mark */
            hit = strstr(t->data + from, m);
            if (hit == NULL) continue;
            memmove((char *)hit, hit + ml, t->len - (size_t)(hit - t->data) - ml + 1);
            t->len -= ml;
            return;
        case 1: {                      /* add one after a piece name */
            const char *pc = pieces[rnd(sizeof pieces / sizeof pieces[0])];
            hit = strstr(t->data + from, pc);
            if (hit == NULL) continue;
            size_t at = (size_t)(hit - t->data) + strlen(pc);
            assert_int_equal(koma__buf_put(t, m, ml, &err), 0);   /* room, then move */
            memmove(t->data + at + ml, t->data + at, t->len - ml - at);
            memcpy(t->data + at, m, ml);
            t->data[t->len] = '\0';
            return;
        }
        default: {                     /* swap right and left, up and down */
            static const char *const pairs[][2] = {{"右", "左"}, {"左", "右"}, {"上", "引"}, {"引", "上"}};
            size_t k = rnd(4);
            hit = strstr(t->data + from, pairs[k][0]);
            if (hit == NULL) continue;
            memcpy((char *)hit, pairs[k][1], 3);
            return;
        }
        }
    }
}

static void random_ki2_records(void **state)
{
    (void)state;
    enum { GAMES = 12, EDITS = 6 };
    koma_position pos[1];
    koma_position_init(&pos[0]);
    unsigned long before = compared;
    for (size_t s = 0; s < NSTARTS; s++)
        for (int game = 0; game < GAMES; game++) {
            size_t npos;
            koma_pcn *p = random_game(starts[s], 30 + rnd(120), pos, 1, &npos);
            koma_format_writer *ws = NULL;
            koma_error err;
            koma_format_writer_new(full, koma_format_find("ki2", 3), KOMA_WRITE_UTF8, &ws, &err);
            assert_non_null(ws);
            koma_buffer text = {0};
            assert_int_equal(koma_format_writer_record(ws, p, &text, &err), 0);
            koma_format_writer_free(ws);
            koma_pcn_free(p);
            same_both_ways("ki2", "a random game", text.data, text.len);
            for (int k = 0; k < EDITS; k++) {
                edit_marks(&text);
                same_both_ways("ki2", "a random game with its marks edited", text.data, text.len);
            }
            koma_buffer_cleanup(&text);
        }
    koma_position_cleanup(&pos[0]);
    print_message("random KI2 records: %lu texts, the same both ways\n", compared - before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(origins_of_positions),
        cmocka_unit_test(random_ki2_records),
        cmocka_unit_test(sample_records),
        cmocka_unit_test(fuzz_corpora),
    };
    return cmocka_run_group_tests(tests, hubs_setup, hubs_teardown);
}
