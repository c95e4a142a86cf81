/* tests/unit/test_game_ggn_sanki.c — the Sanki family as GGN (lib/game_ggn_sanki.c):
 * the displacements the document allows in positions of each variant, counted
 * and named by hand from the rules (koma-games(7), SANKI). */
#include <stdlib.h>
#include "unit.h"
#include "game_internal.h"

typedef struct moves {
    char text[2048];
    size_t n;
} moves;

static int collect(void *ctx, const char *pmn, size_t len, const koma_move *m)
{
    (void)m;
    moves *mv = ctx;
    size_t at = strlen(mv->text);
    if (at + len + 2 < sizeof mv->text) {
        memcpy(mv->text + at, pmn, len);
        mv->text[at + len] = ' ';
        mv->text[at + len + 1] = '\0';
    }
    mv->n++;
    return 0;
}

/* The moves of doc in feen: their count, and each of want (space-separated) among them
 * and each of unwanted not. */
static void check(const koma_ggn *doc, const char *feen, size_t count, const char *want,
                  const char *unwanted)
{
    koma_position pos;
    koma_error err;
    moves mv;
    memset(&mv, 0, sizeof mv);
    koma_position_init(&pos);
    if (koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &pos, &err) != 0) fail_msg("%s", err.message);
    assert_int_equal(koma_ggn_moves(doc, &pos, collect, &mv, &err), 0);
    char buf[256];
    for (int pass = 0; pass < 2; pass++) {
        const char *names = pass ? unwanted : want;
        if (names == NULL) continue;
        snprintf(buf, sizeof buf, "%s", names);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
            char key[32];
            snprintf(key, sizeof key, " %s ", t);
            char all[2100];
            snprintf(all, sizeof all, " %s", mv.text);
            if ((strstr(all, key) != NULL) == pass) fail_msg("%s: %s %s in %s", feen, t, pass ? "found" : "missing", mv.text);
        }
    }
    if (count != (size_t)-1 && mv.n != count) fail_msg("%s: %zu moves, not %zu: %s", feen, mv.n, count, mv.text);
    koma_position_cleanup(&pos);
}

static void test_positions(void **state)
{
    (void)state;
    koma_error err;
    koma_ggn *doc = koma__game_sanki_ggn("WJC", &err);
    if (doc == NULL) fail_msg("%s: %s", koma_code_name(err.code), err.message);
    /* chess start: 16 pawn moves (double steps from +P), 4 knight moves */
    check(doc, "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / W/w", 20,
          "e2-e4 a2-a3 g1-f3 b1-a3", "e1-g1");
    /* a pawn without its double step ('-P' just moved, 'P' spent): one step */
    check(doc, "4k^3/8/8/8/8/8/4P3/4K^3 / W/w", 5, "e2-e3", "e2-e4");
    /* en passant beside an exposed Pawn, Fu or Soldier; not beside a plain one */
    check(doc, "4k^3/8/8/3-fP-f2/8/8/8/4K^3 / W/j", (size_t)-1, "e5-d6 e5-f6 e5-e6", NULL);
    check(doc, "4k^3/8/8/3-pP3/8/8/8/4K^3 / W/w", (size_t)-1, "e5-d6", "e5-f6");
    check(doc, "4k^3/8/8/3pP3/8/8/8/4K^3 / W/w", (size_t)-1, "e5-e6", "e5-d6");
    check(doc, "4k^3/8/8/3-sP3/8/8/8/4K^3 / W/c", (size_t)-1, "e5-d6", NULL);
    /* castling: the rook holds the right (+R), the squares between empty */
    check(doc, "4k^3/8/8/8/8/8/8/+R3K^2+R / W/w", (size_t)-1, "e1-g1 e1-c1", NULL);
    check(doc, "4k^3/8/8/8/8/8/8/-R3K^2R / W/w", (size_t)-1, NULL, "e1-g1 e1-c1");
    check(doc, "4k^3/8/8/8/8/8/8/+RN2K^1N+R / W/w", (size_t)-1, NULL, "e1-g1 e1-c1");
    check(doc, "4k^3/8/8/8/8/8/8/+R3-K^2+R / W/w", (size_t)-1, NULL, "e1-g1 e1-c1");
    check(doc, "+r3k^2+r/8/8/8/8/8/8/4K^3 / w/W", (size_t)-1, "e8-g8 e8-c8", NULL);
    /* Xiongqi's General: steps quiet, captures along its lines (the flying general) */
    check(doc, "4k^3/8/8/8/8/8/8/4G^3 / C/w", (size_t)-1, "e1-d1 e1-f1 e1-e2 e1+e8", "e1-e3 d1-d2");
    check(doc, "4k^3/8/8/8/8/8/8/+R3G^2+R / C/w", (size_t)-1, "e1-g1 e1-c1", NULL);
    /* the Soldier: forward, and sideways past the river only */
    check(doc, "4k^3/8/8/8/4S3/8/8/4G^3 / C/w", (size_t)-1, "e4-e5", "e4-d4 e4-f4");
    check(doc, "4k^3/8/8/4S3/8/8/8/4G^3 / C/w", (size_t)-1, "e5-e6 e5-d5 e5-f5", NULL);
    check(doc, "4g^3/8/8/8/4s3/8/8/4K^3 / c/W", (size_t)-1, "e4-e3 e4-d4 e4-f4", NULL);
    /* the Fu captures straight, double-steps with '+'; the Tokin moves as gold */
    check(doc, "4k^3/8/8/8/4p3/4+F3/8/4K^3 / J/w", (size_t)-1, "e3+e4", "e3-e5 d3-d4");
    check(doc, "4k^3/8/8/8/8/8/4+F3/4K^3 / J/w", (size_t)-1, "e2-e3 e2-e4", NULL);
    check(doc, "4k^3/8/8/8/3t4/8/8/4K^3 / j/W", (size_t)-1, "d4-d3 d4-c3 d4-e3 d4-c4 d4-d5", "d4-c5 d4-e5");
    /* Ogi's drops: any empty square, a Fu not on its last rank nor beside its own Fu */
    check(doc, "4k^3/8/8/8/8/8/8/4K^3 F/ J/w", 56 - 1 + 5, "F*a1 F*h7", "F*a8 F*e8");
    check(doc, "4k^3/8/8/8/8/8/4F3/4K^3 F/ J/w", (size_t)-1, "F*d4", "F*e4 F*e5");
    check(doc, "4k^3/8/8/8/8/8/4T3/4K^3 F/ J/w", (size_t)-1, "F*e4", NULL);
    check(doc, "4k^3/8/8/8/8/8/8/4K^3 I/ J/w", (size_t)-1, "I*a8", NULL);
    /* a chess or Xiongqi hand never drops (the pieces stay in their owner's case) */
    check(doc, "4k^3/8/8/8/8/8/8/4K^3 p/ W/j", 5, NULL, "p*e4");
    koma_ggn_free(doc);

    /* one style only: the others' pieces have no moves */
    doc = koma__game_sanki_ggn("W", &err);
    assert_non_null(doc);
    check(doc, "4k^3/8/8/8/8/8/8/4G^3 / C/w", 0, NULL, NULL);
    assert_int_equal(koma_ggn_piece_count(doc), 22);
    koma_ggn_free(doc);
    assert_non_null(strstr(koma__game_sanki_ggn_note(), "castling"));
}

/* The document is written and read back as the same document, under 16 MiB. */
static void test_round_trip(void **state)
{
    (void)state;
    koma_error err;
    koma_ggn *doc = koma__game_sanki_ggn("WJC", &err);
    assert_non_null(doc);
    size_t n = 0;
    char *text = NULL;
    koma_ggn_dump(doc, KOMA_GGN_COMPACT, &n, &text, &err);
    assert_non_null(text);
    assert_true(n < 16u << 20);
    koma_ggn *back = NULL;
    koma_ggn_load(text, n, &back, &err);
    if (back == NULL) fail_msg("%s", err.message);
    assert_true(koma_ggn_equal(doc, back));
    assert_int_equal(koma_ggn_piece_count(doc), 2 * (11 + 12 + 11));
    free(text);
    koma_ggn_free(back);
    koma_ggn_free(doc);
}

/* ---- against the rules: every legal move is a displacement the document allows --------- */

typedef struct disp {
    char key[64][24];                  /* "a1b2" or "F*c3", the first 64 */
    size_t n;
    char all[8192];
} disp;

static void key_of(const koma_move *m, char *out, size_t cap)
{
    char a[KOMA_CELL_BUF] = "", b[KOMA_CELL_BUF];
    koma_cell_write(&m->dst, b);
    if (m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP) {
        char e[KOMA_EPIN_BUF];
        koma_epin_write((koma_piece)(m->piece & (KOMA_PIECE_LETTER | KOMA_PIECE_SECOND)), e);
        snprintf(out, cap, "%s*%s", e, b);
    } else {
        koma_cell_write(&m->src, a);
        snprintf(out, cap, "%s%s", a, b);
    }
}

static int gather(void *ctx, const char *pmn, size_t len, const koma_move *m)
{
    (void)pmn, (void)len;
    disp *d = ctx;
    char k[24];
    key_of(m, k, sizeof k);
    size_t at = strlen(d->all);
    if (at + strlen(k) + 2 < sizeof d->all) snprintf(d->all + at, sizeof d->all - at, " %s ", k);
    d->n++;
    return 0;
}

static void cross(const koma_ggn *doc, const koma_game *g, const char *start, unsigned seed)
{
    koma_engine *e;
    koma_error err;
    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_engine_new(g, &e, &err), 0);
    if (koma_engine_set_feen(e, start, strlen(start), &err) != 0) fail_msg("%s: %s", start, err.message);
    size_t max = koma_engine_max_moves(e);
    koma_emove *mv = malloc(max * sizeof *mv);
    assert_non_null(mv);
    unsigned long x = seed;
    size_t positions = 0, legal_total = 0;
    for (int ply = 0; ply < 120; ply++) {
        size_t n = koma_engine_legal_moves(e, mv);
        if (n == 0) break;
        assert_int_equal(koma_engine_get_position(e, &pos, &err), 0);
        disp d;
        memset(&d, 0, sizeof d);
        assert_int_equal(koma_ggn_moves(doc, &pos, gather, &d, &err), 0);
        for (size_t i = 0; i < n; i++) {
            koma_move m;
            char k[24], pad[28], feen[256];
            assert_int_equal(koma_engine_move_pmn(e, mv[i], &m), 0);
            key_of(&m, k, sizeof k);
            snprintf(pad, sizeof pad, " %s ", k);
            if (strstr(d.all, pad) == NULL) {
                size_t fl;
                if (koma_engine_feen(e, feen, sizeof feen, &fl, &err) != 0) feen[0] = 0;
                char t[64];
                koma_engine_move_text(e, mv[i], t, sizeof t);
                fail_msg("%s: legal %s is no displacement of the document", feen, t);
            }
        }
        positions++;
        legal_total += n;
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        assert_int_equal(koma_engine_make(e, mv[(x >> 33) % n], &err), 0);
    }
    assert_true(positions > 10 && legal_total > positions);
    free(mv);
    koma_position_cleanup(&pos);
    koma_engine_free(e);
}

static void test_against_rules(void **state)
{
    (void)state;
    static const char *const starts[] = {
        "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / W/w",
        "-rnbik^bn-r/+f+f+f+f+f+f+f+f/8/8/8/8/+F+F+F+F+F+F+F+F/-RNBIK^BN-R / J/j",
        "-rnbeg^bn-r/+s+s+s+s+s+s+s+s/8/8/8/8/+S+S+S+S+S+S+S+S/-RNBEG^BN-R / C/c",
        "-rnbik^bn-r/+f+f+f+f+f+f+f+f/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / W/j",
        "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+S+S+S+S+S+S+S+S/-RNBEG^BN-R / C/w",
        "-rnbeg^bn-r/+s+s+s+s+s+s+s+s/8/8/8/8/+F+F+F+F+F+F+F+F/-RNBIK^BN-R / J/c",
    };
    koma_game_set *set;
    koma_error err;
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g = koma_game_set_find_id(set, "sanki", 5);
    assert_non_null(g);
    koma_ggn *doc = NULL;
    koma_game_to_ggn(g, &doc, &err);
    if (doc == NULL) fail_msg("%s", err.message);
    assert_non_null(koma_game_ggn_note(g));
    assert_null(koma_game_ggn_note(koma_game_set_find_id(set, "shogi", 5)));
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        for (unsigned seed = 1; seed <= 12; seed++) cross(doc, g, starts[i], seed * 7919u + (unsigned)i);
    koma_ggn_free(doc);
    koma_game_set_free(set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_against_rules),
    };
    return cmocka_run_group_tests_name("game_ggn_sanki", tests, NULL, NULL);
}
