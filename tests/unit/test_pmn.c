/* tests/unit/test_pmn.c — PMN parse, canonical write, and the checks against a
 * position (koma-formats(5), PMN; the examples of https://sashite.dev/specs/pmn/1.0.0/). */
#include "unit.h"
#include "pmn_internal.h"             /* koma__pmn_parse_grammar */

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

/* ---- helpers -------------------------------------------------------------- */

static void load(koma_position *pos, const char *feen)
{
    koma_error err;
    koma_position_init(pos);
    if (koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, pos, &err) != 0)
        fail_msg("bad test FEEN %s: %s", feen, err.message);
}

static koma_cell C(const char *s)
{
    koma_cell c;
    koma_error err;
    if (koma_cell_parse(s, strlen(s), &c, &err) != 0) fail_msg("bad test cell %s", s);
    return c;
}

static koma_piece E(const char *s)
{
    koma_piece p;
    koma_error err;
    if (koma_epin_parse(s, strlen(s), &p, &err) != 0) fail_msg("bad test EPIN %s", s);
    return p;
}

static koma_move parse_ok(const char *s)
{
    koma_move m;
    koma_error err;
    memset(&err, 0, sizeof err);
    if (koma_pmn_parse(s, strlen(s), &m, &err) != 0)
        fail_msg("\"%s\" rejected: %s %s (col %lu)", s, koma_code_name(err.code), err.message,
                 err.column);
    return m;
}

/* ---- valid examples: parse, kind, round trip ------------------------------ */

static const struct { const char *s; koma_move_kind kind; } valid[] = {
    { "...", KOMA_MOVE_PASS },
    { "e2-e4", KOMA_MOVE_QUIET },
    { "g1-f3", KOMA_MOVE_QUIET },
    { "d1+f3", KOMA_MOVE_CAPTURE },
    { "c5+d4", KOMA_MOVE_CAPTURE },
    { "e1~g1", KOMA_MOVE_SPECIAL },
    { "e1~c1", KOMA_MOVE_SPECIAL },
    { "e5~f6", KOMA_MOVE_SPECIAL },
    { "+d4", KOMA_MOVE_STATIC },
    { "P*e5", KOMA_MOVE_DROP },
    { "*d4", KOMA_MOVE_DROP },
    { "S*c3=+S", KOMA_MOVE_DROP },
    { "L.b4", KOMA_MOVE_DROPCAP },
    { ".c3", KOMA_MOVE_DROPCAP },
    { "P.e5=+P", KOMA_MOVE_DROPCAP },
    { "e4=+P", KOMA_MOVE_MUTATE },
    { "c3=k'", KOMA_MOVE_MUTATE },
    { "e7-e8=Q", KOMA_MOVE_QUIET },
    { "a7-a8=+R", KOMA_MOVE_QUIET },
    { "b7+a8=Q/r", KOMA_MOVE_CAPTURE },
    { "d4+e5/S", KOMA_MOVE_CAPTURE },
    { "c3+f6/N", KOMA_MOVE_CAPTURE },
    { "f7+f6=f/i", KOMA_MOVE_CAPTURE },
    { "N*d6", KOMA_MOVE_DROP },
    { "R*f7", KOMA_MOVE_DROP },
    { "e8-e7=k^'", KOMA_MOVE_QUIET },
    { "e7-d8=k^'", KOMA_MOVE_QUIET },
    { "f8-g8=k^'", KOMA_MOVE_QUIET },
    { "c7-e6", KOMA_MOVE_QUIET },
    { "f5-e7", KOMA_MOVE_QUIET },
    { "a1A-b2B", KOMA_MOVE_QUIET },
    { "iv256IV~iv256IV=+K^'/+K^'", KOMA_MOVE_SPECIAL },
    /* beyond the spec's list */
    { "p*e5", KOMA_MOVE_DROP },          /* lowercase EPIN drop (CELL first, then EPIN) */
    { "k^'*a1", KOMA_MOVE_DROP },
    { "+P*e5", KOMA_MOVE_DROP },         /* '+': not a static capture */
    { "+p.e5/P", KOMA_MOVE_DROPCAP },
    { "-p*a1", KOMA_MOVE_DROP },
    { "+d4/P", KOMA_MOVE_STATIC },
    { "e1~g1=K/p", KOMA_MOVE_SPECIAL },
    { ".c3=+S/p", KOMA_MOVE_DROPCAP },
    { "a1-a2B", KOMA_MOVE_QUIET },       /* greedy CELL: a 3-D destination */
    { "a-b", KOMA_MOVE_QUIET },          /* 1-D cells */
    { "iv256-a1=+K^'", KOMA_MOVE_QUIET },
};

static void test_valid_examples(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        koma_move m = parse_ok(valid[i].s);
        char buf[KOMA_PMN_BUF];
        if (m.kind != valid[i].kind) fail_msg("%s: kind %d", valid[i].s, (int)m.kind);
        size_t n = koma_pmn_write(&m, buf);
        if (n != strlen(valid[i].s) || strcmp(buf, valid[i].s) != 0)
            fail_msg("%s: written back as \"%s\"", valid[i].s, buf);
    }
}

static void test_fields(void **state)
{
    (void)state;
    koma_move m = parse_ok("b7+a8=Q/r");
    assert_int_equal(m.kind, KOMA_MOVE_CAPTURE);
    assert_true(koma_cell_equal(&m.src, &(koma_cell){ 2, { 1, 6, 0 } }));
    assert_true(koma_cell_equal(&m.dst, &(koma_cell){ 2, { 0, 7, 0 } }));
    assert_int_equal(m.piece, KOMA_PIECE_NONE);
    assert_int_equal(m.actor, E("Q"));
    assert_int_equal(m.captured, E("r"));

    m = parse_ok("e4=+P");
    assert_int_equal(m.kind, KOMA_MOVE_MUTATE);
    assert_int_equal(m.src.ndims, 0);
    assert_true(koma_cell_equal(&m.dst, &(koma_cell){ 2, { 4, 3, 0 } }));
    assert_int_equal(m.actor, KOMA_PIECE_ENHANCED | 16);
    assert_int_equal(m.captured, 0);

    m = parse_ok("*d4");
    assert_int_equal(m.kind, KOMA_MOVE_DROP);
    assert_int_equal(m.piece, KOMA_PIECE_NONE);
    assert_int_equal(m.src.ndims, 0);

    m = parse_ok("+P*e5");
    assert_int_equal(m.piece, KOMA_PIECE_ENHANCED | 16);
    m = parse_ok("+d4/P");
    assert_int_equal(m.kind, KOMA_MOVE_STATIC);
    assert_int_equal(m.captured, 16);
    assert_true(koma_cell_equal(&m.dst, &(koma_cell){ 2, { 3, 3, 0 } }));

    m = parse_ok("iv256IV~iv256IV=+K^'/+K^'");
    assert_int_equal(m.src.ndims, 3);
    assert_int_equal(m.src.idx[0], 255);
    assert_int_equal(m.src.idx[1], 255);
    assert_int_equal(m.src.idx[2], 255);
    assert_int_equal(m.actor, KOMA_PIECE_ENHANCED | KOMA_PIECE_TERMINAL | KOMA_PIECE_DERIVED | 11);

    m = parse_ok("...");
    assert_int_equal(m.kind, KOMA_MOVE_PASS);
    assert_int_equal(m.dst.ndims, 0);
}

/* The invalid moves of the specification's examples and more, with their codes and columns, are
 * tests/spec/pmn.tsv (test_spec.c), as are the moves checked against a position. */

static void test_messages(void **state)
{
    (void)state;
    koma_error err;
    assert_int_equal(koma_pmn_parse(LIT("e2e4"), NULL, &err), -1);
    assert_string_equal(err.message,
                        "expected '-', '+', '~' or '=' after the coordinate: \"e2e4\"");
    assert_int_equal(koma_pmn_parse(LIT("e0-e4"), NULL, &err), -1);
    assert_string_equal(err.message,
                        "invalid coordinate (cell.zero: rank with a leading zero): \"e0-e4\"");
    assert_int_equal(koma_pmn_parse(LIT("e2-e4/p"), NULL, &err), -1);
    assert_string_equal(err.message,
                        "a '/' suffix needs a capturing move (+, ~, . or static +): \"e2-e4/p\"");
    assert_int_equal(koma_pmn_parse(LIT("e2-e4\xff"), NULL, &err), -1);
    assert_string_equal(err.message, "non-ASCII byte in move: \"e2-e4\\xff\"");
    assert_int_equal(koma_pmn_parse("", 0, NULL, &err), -1);
    assert_string_equal(koma_code_name(err.code), "pmn.empty");
    /* err may be NULL */
    assert_int_equal(koma_pmn_parse(LIT("e2e4"), NULL, NULL), -1);
    assert_int_equal(koma_pmn_parse(LIT("e2-e4"), NULL, NULL), 0);
}

/* The length limit is checked before anything else; 25 bytes are fine. */
static void test_length_limit(void **state)
{
    (void)state;
    koma_error err;
    char s[40];
    memset(s, '#', sizeof s);
    assert_int_equal(koma_pmn_parse(s, 26, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_LENGTH);
    assert_int_equal(err.column, 26);
    assert_int_equal(koma_pmn_parse(s, 25, NULL, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_SYNTAX);
    assert_int_equal(err.column, 1);
    assert_int_equal(koma_pmn_parse(LIT("iv256IV~iv256IV=+K^'/+K^'"), NULL, &err), 0);
}

/* ---- write ---------------------------------------------------------------- */

static void test_write(void **state)
{
    (void)state;
    char buf[KOMA_PMN_BUF];
    koma_move m;
    memset(&m, 0, sizeof m);

    m.kind = KOMA_MOVE_PASS;
    assert_int_equal(koma_pmn_write(&m, buf), 3);
    assert_string_equal(buf, "...");

    m.kind = KOMA_MOVE_DROP;
    m.piece = E("S");
    m.dst = C("e5");
    assert_int_equal(koma_pmn_write(&m, buf), 4);
    assert_string_equal(buf, "S*e5");
    m.actor = E("+S");
    assert_int_equal(koma_pmn_write(&m, buf), 7);
    assert_string_equal(buf, "S*e5=+S");
    /* a drop carries no '/' suffix: not writable */
    m.captured = E("p");
    assert_int_equal(koma_pmn_write(&m, buf), 0);
    assert_string_equal(buf, "");

    memset(&m, 0, sizeof m);
    m.kind = KOMA_MOVE_CAPTURE;
    m.src = C("b7");
    m.dst = C("a8");
    m.actor = E("Q");
    m.captured = E("r");
    assert_int_equal(koma_pmn_write(&m, buf), 9);
    assert_string_equal(buf, "b7+a8=Q/r");
    m.piece = E("P");               /* a capture has no dropped piece */
    assert_int_equal(koma_pmn_write(&m, buf), 0);

    memset(&m, 0, sizeof m);
    m.kind = KOMA_MOVE_MUTATE;
    m.dst = C("e4");
    assert_int_equal(koma_pmn_write(&m, buf), 0);   /* a mutation needs its identity */
    m.actor = E("+P");
    assert_int_equal(koma_pmn_write(&m, buf), 5);
    assert_string_equal(buf, "e4=+P");
    m.src = C("e3");                 /* a mutation has no origin */
    assert_int_equal(koma_pmn_write(&m, buf), 0);

    memset(&m, 0, sizeof m);
    m.kind = KOMA_MOVE_QUIET;
    m.dst = C("e4");                 /* missing origin */
    assert_int_equal(koma_pmn_write(&m, buf), 0);
    m.src = C("e2");
    m.actor = (koma_piece)0x3ff;     /* not a valid piece (both states) */
    assert_int_equal(koma_pmn_write(&m, buf), 0);
    m.kind = (koma_move_kind)42;
    assert_int_equal(koma_pmn_write(&m, buf), 0);
    assert_int_equal(koma_pmn_write(NULL, buf), 0);
}

static void test_equal(void **state)
{
    (void)state;
    koma_move a = parse_ok("b7+a8=Q/r"), b = parse_ok("b7+a8=Q/r"), c = parse_ok("b7+a8=Q");
    assert_true(koma_move_equal(&a, &b));
    assert_false(koma_move_equal(&a, &c));
    koma_move d = parse_ok("*e5"), e = parse_ok("P*e5");
    assert_false(koma_move_equal(&d, &e));
}

/* ---- checks with a position (canonicality, preconditions): tests/spec/pmn.tsv -- */

static void test_check_messages(void **state)
{
    (void)state;
    koma_position pos;
    koma_error err;
    koma_move m;

    load(&pos, "8/8/8/8/8/8/8/8 2P+PS/ S/s");
    m = parse_ok("*e5");
    assert_int_equal(koma_pmn_check(&pos, &m, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_HAND_AMBIGUOUS);
    assert_string_equal(err.message, "several pieces in hand could be dropped (+P, P, S): \"*e5\"");
    assert_int_equal(koma_pmn_resolve(&pos, &m, &err), -1);
    assert_int_equal(m.piece, KOMA_PIECE_NONE);

    koma_position_cleanup(&pos);

    load(&pos, "8/4P3/8/8/8/8/8/8 / C/c");
    m = parse_ok("e7-e8=P");
    assert_int_equal(koma_pmn_check(&pos, &m, &err), -1);
    assert_string_equal(err.message, "'=' suffix repeats the actor's identity: \"P\"");
    m = parse_ok("e6-e8");
    assert_int_equal(koma_pmn_check(&pos, &m, &err), -1);
    assert_string_equal(err.message, "no piece to move on: \"e6\"");
    assert_int_equal(koma_pmn_check(&pos, &m, NULL), -1);
    koma_position_cleanup(&pos);
}

static void test_resolve(void **state)
{
    (void)state;
    koma_position pos;
    koma_error err;
    char buf[KOMA_PMN_BUF];

    load(&pos, "8/8/8/8/8/8/8/8 2Pp/ S/s");
    koma_move m = parse_ok("*e5");
    assert_int_equal(koma_pmn_resolve(&pos, &m, &err), 0);
    assert_int_equal(m.piece, E("P"));
    koma_pmn_write(&m, buf);
    assert_string_equal(buf, "P*e5");
    /* a move with its piece, or not a drop: unchanged */
    m = parse_ok("p*e5");
    assert_int_equal(koma_pmn_resolve(&pos, &m, &err), 0);
    assert_int_equal(m.piece, E("p"));
    m = parse_ok("e2-e4");
    assert_int_equal(koma_pmn_resolve(&pos, &m, &err), 0);
    koma_position_cleanup(&pos);

    load(&pos, "8/8/8/8/4P3/8/8/8 2Pp/ s/S");
    m = parse_ok(".e4");
    assert_int_equal(koma_pmn_resolve(&pos, &m, &err), -1);
    assert_int_equal(err.code, KOMA_E_PMN_HAND_MISSING);
    assert_string_equal(err.message,
                        "no piece of the active player's side in hand to drop: \".e4\"");
    koma_position_cleanup(&pos);

    load(&pos, "8/8/8/8/4P3/8/8/8 /k^' s/S");
    m = parse_ok(".e4");
    assert_int_equal(koma_pmn_resolve(&pos, &m, &err), 0);
    koma_pmn_write(&m, buf);
    assert_string_equal(buf, "k^'.e4");
    koma_position_cleanup(&pos);
}

static void test_capture_identity(void **state)
{
    (void)state;
    assert_int_equal(koma_capture_identity(E("+p"), KOMA_FIRST), E("P"));
    assert_int_equal(koma_capture_identity(E("-r"), KOMA_FIRST), E("R"));
    assert_int_equal(koma_capture_identity(E("k^'"), KOMA_FIRST), E("K^'"));
    assert_int_equal(koma_capture_identity(E("+K^'"), KOMA_SECOND), E("k^'"));
    assert_int_equal(koma_capture_identity(E("p"), KOMA_SECOND), E("p"));
    assert_int_equal(koma_capture_identity(KOMA_PIECE_NONE, KOMA_FIRST), KOMA_PIECE_NONE);
}

/* One text parsed three ways: koma_pmn_parse, the grammar's parsers alone and
 * the quick forms (koma__pmn_quick, and koma__pmn_quick_quoted, which the
 * record's one pass calls first, on the text closed by a quote, which must
 * agree with it):
 * the same move, or the same error; the quick forms either decline (leaving
 * the move untouched) or give the grammar's move, padding included. 1 when
 * the quick forms took it; *parsed (when not NULL) counts the valid texts. */
static unsigned long agree_quick(const char *s, size_t len, unsigned long *parsed)
{
    koma_move a, g, k;
    koma_error ea, eg;
    char q[200];
    memset(&a, 0x5a, sizeof a);
    memset(&g, 0x5a, sizeof g);
    memset(&k, 0x5a, sizeof k);
    koma_error_clear(&ea);
    koma_error_clear(&eg);
    int ra = koma_pmn_parse(s, len, &a, &ea);
    int rg = koma__pmn_parse_grammar(s, len, &g, &eg);
    int rk = koma__pmn_quick(s, len, &k);
    /* the record's pass's form: the same text closed by '"}' */
    koma_move kq;
    char quoted[200];
    memset(&kq, 0x5a, sizeof kq);
    int rq = -1;
    if (len + 2 <= sizeof quoted) {
        memcpy(quoted, s, len);
        memcpy(quoted + len, "\"}", 2);
        rq = koma__pmn_quick_quoted(quoted, len, &kq);
        if (rq != rk || memcmp(&kq, &k, sizeof k) != 0) {
            koma_quote(q, sizeof q, s, len);
            print_error("%s: quick %d, quoted %d\n", q, rk, rq);
        }
        assert_int_equal(rq, rk);
        assert_memory_equal(&kq, &k, sizeof k);
    }
    if (ra != rg || ea.code != eg.code || ea.offset != eg.offset || (rk && rg != 0) ||
        (ra == 0 && memcmp(&a, &g, sizeof a) != 0) || (rk && memcmp(&k, &g, sizeof k) != 0)) {
        koma_quote(q, sizeof q, s, len);
        print_error("%s: %d %s@%zu, grammar %d %s@%zu, quick %d\n", q, ra, koma_code_name(ea.code),
                    ea.offset, rg, koma_code_name(eg.code), eg.offset, rk);
    }
    assert_int_equal(ra, rg);
    assert_int_equal(ea.code, eg.code);
    assert_int_equal(ea.offset, eg.offset);
    assert_string_equal(ea.message, eg.message);
    if (ra == 0) assert_memory_equal(&a, &g, sizeof a);
    if (rk) {
        assert_int_equal(rg, 0);
        assert_memory_equal(&k, &g, sizeof k);
    } else {
        memset(&g, 0x5a, sizeof g);
        assert_memory_equal(&k, &g, sizeof k);
    }
    if (parsed != NULL) *parsed += ra == 0;
    return (unsigned long)rk;
}

/* koma_pmn_parse's quick forms (koma__pmn_quick) against the grammar's parsers alone: random
 * edits of common moves give the same move, or the same error (code, offset and
 * message). Each edited text is parsed both ways. */
static void test_fast_agrees(void **state)
{
    (void)state;
    static const char *const base[] = {
        "e2-e4", "e5+d4/i", "S*e2", "p*e5", "*e5", "d4+d5/P", "b7-b8=+P", "h2~h4", "e4~d5/p",
        "a10-a9", "j1+j10/+r'", "K^*e5", "+P*c3", "-p'*a1", "e2-e4=K^'", "e5+d4=+S/p", "e2A-e4",
        "aa1-ab2", "e2", "e2-", "e2-e4/p", "e5+d4/p=P", "+e5/p", "e5=P", "P.e5/p", ".e5", "...",
        "e02-e4", "e2-e4 ", "s^'*e5", "e99-e100", "z1+a1/Z",
    };
    static const char alphabet[] = "e24ab+-*~=/.P^'pAk1 \x80";
    unsigned long seed = 20261127ul, quick = 0;
    char buf[64];
    for (int round = 0; round < 40000; round++) {
        const char *b = base[(size_t)round % (sizeof base / sizeof base[0])];
        size_t len = strlen(b);
        memcpy(buf, b, len);
        for (int e = 0; e < round % 3; e++) {
            seed = seed * 6364136223846793005ul + 1442695040888963407ul;
            size_t at = (size_t)(seed >> 33) % (len + 1);
            char ch = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
            switch ((seed >> 8) % 3) {
            case 0: if (at < len) buf[at] = ch; break;
            case 1: if (len + 1 < sizeof buf) { memmove(buf + at + 1, buf + at, len - at); buf[at] = ch; len++; } break;
            default: if (at < len) { memmove(buf + at, buf + at + 1, len - at - 1); len--; }
            }
        }
        agree_quick(buf, len, &quick);
    }
    assert_true(quick > 10000);
}

/* Every "pmn": string of a file (JSON: the quoted text; YAML: the rest of the
 * line after "pmn: "). */
static unsigned long agree_file_moves(const char *path, unsigned long *moves)
{
    size_t len;
    char *t = read_whole_file(path, &len);
    unsigned long quick = 0;
    if (t == NULL) return 0;
    for (const char *p = t, *e = t + len; (p = memchr(p, 'p', (size_t)(e - p))) != NULL;) {
        if (e - p < 3 || memcmp(p, "pmn", 3) != 0) { p++; continue; }
        p += 3;
        const char *v = p, *end;
        if (v < e && *v == '"') v++;
        if (v >= e || *v != ':') continue;
        v++;
        while (v < e && *v == ' ') v++;
        if (v < e && *v == '"') {
            v++;
            end = memchr(v, '"', (size_t)(e - v));
        } else {
            end = memchr(v, '\n', (size_t)(e - v));
        }
        if (end == NULL) end = e;
        quick += agree_quick(v, (size_t)(end - v), NULL);
        ++*moves;
        p = end;
    }
    free(t);
    return quick;
}

/* The quick forms against the grammar on every move of tests/data's records,
 * every input of the pmn fuzz corpus, and every text of up to four bytes over
 * the bytes these forms look at. */
static void walk_agree(const char *dir, int whole, unsigned long *quick, unsigned long *moves)
{
    DIR *d = opendir(dir);
    if (d == NULL) return;
    struct dirent *de;
    char path[4096];
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            walk_agree(path, whole, quick, moves);
        } else if (whole) {
            size_t len;
            char *t = read_whole_file(path, &len);
            if (t == NULL) continue;
            *quick += agree_quick(t, len, NULL);
            ++*moves;
            free(t);
        } else {
            *quick += agree_file_moves(path, moves);
        }
    }
    closedir(d);
}

static void test_quick_agrees(void **state)
{
    (void)state;
    unsigned long quick = 0, moves = 0;
    walk_agree("tests/data", 0, &quick, &moves);
    assert_true(moves > 10000 && quick > moves / 2);
    unsigned long data_moves = moves;
    walk_agree("tests/fuzz/corpus/pmn", 1, &quick, &moves);
    assert_true(moves > data_moves + 400);
    static const char alphabet[] = "aez`{019:*+-~=/.AZ^'\x80";
    const size_t na = sizeof alphabet - 1;
    char buf[8];
    unsigned long short_quick = 0;
    for (size_t len = 1; len <= 4; len++)
        for (size_t n = 0, total = texts_of_len(na, len); n < total; n++) {
            text_of_code(buf, len, alphabet, na, n);
            short_quick += agree_quick(buf, len, NULL);
        }
    assert_true(short_quick > 0);
    /* the quick forms' edges, each with a byte changed or cut */
    static const char *const edges[] = {
        "a1-i9", "z9+a1/Z", "e3+e4/+p", "e3-e4=-p", "c3+e5=+b/p", "c3~e5=B/-p", "e3-e4=P^",
        "e3+e4/p'", "*e5=+P", "P*e5/p", "P*e5=p", "e3-e4=P/p", "e3+e4/p=P", "e3-e4A", "e3-e40",
        "e0-e1", "e3-e4=", "e3+e4/", "a9-a10", "+P*e5", "K^*e5", "e3-e4==P", "e3+e4//p",
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        size_t len = strlen(edges[i]);
        char e[16];
        agree_quick(edges[i], len, NULL);
        for (size_t at = 0; at < len; at++) {
            for (size_t c = 0; c < na; c++) {
                memcpy(e, edges[i], len);
                e[at] = alphabet[c];
                agree_quick(e, len, NULL);
            }
            agree_quick(edges[i], at, NULL);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_examples),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_length_limit),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_check_messages),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_capture_identity),
        cmocka_unit_test(test_fast_agrees),
        cmocka_unit_test(test_quick_agrees),
    };
    return cmocka_run_group_tests_name("pmn", tests, NULL, NULL);
}
