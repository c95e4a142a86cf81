/*
 * tests/fuzz/fuzz_select.c — libFuzzer harness for finding records
 * (koma/select.h): a board pattern, a material specification, a condition on
 * members and a move list read from the first four lines of the input, and a
 * PCN JSON record from the rest.
 *
 * Invariants checked (CHECK, tests/fuzz/fuzz.h):
 *  - each parser either takes its line or refuses it with its own code
 *    (select.pattern, select.material, select.meta, select.moves) at a column
 *    within the line (1..len+1) and a printable message;
 *  - a selector with everything that parsed tests the record without trouble,
 *    lists the plies where its position criteria held in increasing order, and
 *    gives the same answer and the same game key twice;
 *  - the positions the record reaches (a referee of the harness's own, up to
 *    24 of them): a selector searching for one by its FEEN finds it at that ply
 *    (among the plies listed), and by its FID too; the position's own placement,
 *    as a pattern, matches it, with its side to move; "board:*=N", N the pieces
 *    on its board, holds of it; the fuzzed pattern and material are matched
 *    against it without trouble;
 *  - the record's game key does not change when the record is written as JSON
 *    and read back, and a key set holds it once.
 */
#include <koma/koma.h>
#include "fuzz.h"

#define POSITIONS 24

static koma_game_set *games;
static koma_referee *referee;

typedef struct seen {
    char feen[POSITIONS][KOMA_FEEN_MAX_LEN + 1];
    size_t ply[POSITIONS];
    size_t n;
} seen;

static int note(seen *s, koma_referee *ref, size_t ply)
{
    koma_error err;
    if (s->n == POSITIONS) return 1;
    if (koma_referee_feen(ref, s->feen[s->n], sizeof s->feen[0], NULL, &err) != 0) return 1;
    s->ply[s->n++] = ply;
    return 0;
}

static int on_begun(void *ctx, koma_referee *ref) { return note(ctx, ref, 0); }
static int on_ply(void *ctx, koma_referee *ref, size_t i, int status, const koma_error *err)
{
    (void)err;
    if (status != KOMA_PLY_PLAYED && status != KOMA_PLY_NOTATION) return 0;
    return note(ctx, ref, i + 1);
}

/* One line s[0..n) refused or taken by a parser: the error's place and words. */
static void check_parse(int rc, const koma_error *err, koma_code code, size_t n)
{
    if (rc == 0) return;
    check_message(err);
    if (err->code == KOMA_E_MEMORY) return;
    CHECK(err->code == code || code == KOMA_E_SELECT_MOVES);
    CHECK(err->line == 1 && err->column >= 1 && err->column <= n + 1);
}

/* The next line of s[*at..size): its start and length. */
static const char *line(const char *s, size_t size, size_t *at, size_t *n)
{
    const char *p = s + *at;
    const char *e = memchr(p, '\n', size - *at);
    *n = e ? (size_t)(e - p) : size - *at;
    *at += *n + (e != NULL);
    return p;
}

static int has(const koma_selection *r, size_t ply)
{
    for (size_t i = 0; i < r->nplies; i++)
        if (r->plies[i] == ply) return 1;
    return 0;
}

static void search_by(const koma_pcn *rec, const char *feen, size_t ply)
{
    koma_select *s;
    koma_selection r;
    koma_error err;
    CHECK(koma_select_new(games, &s, &err) == 0);
    if (koma_select_position(s, feen, strlen(feen), &err) == 0) {
        CHECK(koma_select_record(s, rec, KOMA_SELECT_ALL_PLIES, &r, &err) == 0);
        CHECK(r.matched && has(&r, ply));
    }
    koma_select_free(s);
    char fid[KOMA_FID_BUF];
    koma_fid_of(feen, strlen(feen), fid);
    CHECK(koma_select_new(games, &s, &err) == 0);
    CHECK(koma_select_fid(s, fid, KOMA_FID_LEN, &err) == 0);
    CHECK(koma_select_record(s, rec, KOMA_SELECT_ALL_PLIES | KOMA_SELECT_FID, &r, &err) == 0);
    CHECK(r.matched && has(&r, ply));
    koma_select_free(s);
}

static void at_position(const char *feen, const koma_pattern *pat, const koma_material *mat)
{
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    CHECK(koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &pos, &err) == 0);
    if (pat) (void)koma_pattern_match(pat, &pos, 0);
    if (mat) (void)koma_material_match(mat, &pos, KOMA_MATCH_MARKS);
    /* its own placement, with its side to move, is a pattern of it */
    const char *sp = strchr(feen, ' ');
    char text[KOMA_FEEN_MAX_LEN + 16];
    int n = snprintf(text, sizeof text, "%.*s %s", (int)(sp - feen), feen, pos.turn == KOMA_FIRST ? "first" : "second");
    koma_pattern *own;
    if (pos.shape.ndims == 2 && koma_pattern_parse(text, (size_t)n, &own, &err) == 0) {
        CHECK(koma_pattern_match(own, &pos, KOMA_MATCH_MARKS) == 1);
        koma_pattern_free(own);
    }
    unsigned long pieces = 0;
    for (uint32_t i = 0; i < pos.shape.squares; i++) pieces += pos.board[i] != KOMA_PIECE_NONE;
    n = snprintf(text, sizeof text, "board:*=%lu", pieces);
    koma_material *m;
    CHECK(koma_material_parse(text, (size_t)n, &m, &err) == 0);
    CHECK(koma_material_match(m, &pos, 0) == 1);
    koma_material_free(m);
    koma_position_cleanup(&pos);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    koma_error err;
    if (games == NULL) {
        CHECK(koma_game_set_new(&games, &err) == 0);
        CHECK(koma_referee_new(NULL, &referee, &err) == 0);
    }
    char *s = fuzz_copy(data, size);
    if (s == NULL) return 0;
    size_t at = 0, n[4];
    const char *l[4];
    for (int i = 0; i < 4; i++) l[i] = line(s, size, &at, &n[i]);

    koma_pattern *pat = NULL;
    koma_material *mat = NULL;
    koma_meta_cond *cond = NULL;
    koma_select *sel;
    koma_error_clear(&err);
    check_parse(koma_pattern_parse(l[0], n[0], &pat, &err), &err, KOMA_E_SELECT_PATTERN, n[0]);
    koma_error_clear(&err);
    check_parse(koma_material_parse(l[1], n[1], &mat, &err), &err, KOMA_E_SELECT_MATERIAL, n[1]);
    koma_error_clear(&err);
    check_parse(koma_meta_cond_parse(l[2], n[2], &cond, &err), &err, KOMA_E_SELECT_META, n[2]);
    CHECK(koma_select_new(games, &sel, &err) == 0);
    if (pat) CHECK(koma_select_pattern(sel, l[0], n[0], &err) == 0);
    if (mat) CHECK(koma_select_material(sel, l[1], n[1], &err) == 0);
    if (cond) CHECK(koma_select_meta(sel, l[2], n[2], &err) == 0);
    koma_error_clear(&err);
    check_parse(koma_select_moves(sel, l[3], n[3], n[3] & 1, &err), &err, KOMA_E_SELECT_MOVES, n[3]);

    koma_pcn *rec = NULL;
    koma_pcn_parse(KOMA_PCN_JSON, s + at, size - at, 0, &rec, &err);
    if (rec) {
        if (cond) (void)koma_meta_cond_match(cond, rec);
        koma_selection a, b;
        unsigned fl = KOMA_SELECT_ALL_PLIES | KOMA_SELECT_KEY | KOMA_SELECT_FID;
        CHECK(koma_select_record(sel, rec, fl, &a, &err) == 0);
        for (size_t i = 1; i < a.nplies; i++) CHECK(a.plies[i - 1] < a.plies[i]);
        size_t first = a.nplies ? a.plies[0] : 0;
        int matched = a.matched, keyed = a.has_key;
        koma_game_key key = a.key;
        CHECK(koma_select_record(sel, rec, fl, &b, &err) == 0);
        CHECK(b.matched == matched && b.has_key == keyed && (b.nplies == 0 || b.plies[0] == first));
        if (keyed) CHECK(memcmp(key.b, b.key.b, sizeof key.b) == 0);

        /* the key survives a round trip through JSON, and a set holds it once */
        koma_buffer buf = {0};
        if (keyed && koma_pcn_write_json(rec, 0, &buf, &err) == 0) {
            koma_pcn *again = NULL;
            koma_pcn_parse_json(buf.data, buf.len, &again, &err);
            CHECK(again != NULL);
            CHECK(koma_select_record(sel, again, fl, &b, &err) == 0);
            CHECK(b.has_key && memcmp(key.b, b.key.b, sizeof key.b) == 0);
            koma_keyset *set;
            CHECK(koma_keyset_new(&set, &err) == 0);
            CHECK(koma_keyset_add(set, &key, &err) == 1 && koma_keyset_add(set, &b.key, &err) == 0);
            CHECK(koma_keyset_count(set) == 1);
            koma_keyset_free(set);
            koma_pcn_free(again);
        }
        koma_buffer_cleanup(&buf);

        /* the positions reached, found by FEEN and FID, and matched */
        seen *sn = calloc(1, sizeof *sn);
        if (sn) {
            koma_verdict *v = malloc(sizeof *v);
            koma_referee_hooks hooks = {on_begun, on_ply, sn};
            if (v) v->size = sizeof *v;
            if (v) (void)koma_referee_pcn(referee, games, NULL, rec, &hooks, v, &err);
            for (size_t i = 0; i < sn->n; i++) {
                at_position(sn->feen[i], pat, mat);
                if (i < 6 || i + 1 == sn->n) search_by(rec, sn->feen[i], sn->ply[i]);
            }
            free(v);
            free(sn);
        }
        koma_pcn_free(rec);
    }
    koma_select_free(sel);
    koma_pattern_free(pat);
    koma_material_free(mat);
    koma_meta_cond_free(cond);
    free(s);
    return 0;
}
