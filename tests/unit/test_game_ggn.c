/*
 * tests/unit/test_game_ggn.c — game definitions exported as GGN (koma_game_to_ggn)
 * and the GGN-driven generator (koma_engine_ggn_moves, koma_ggn_generate).
 *
 * 1. Exact fragments of the export: the Ōgi king on e4, knight on b1, lance,
 *    rook and bishop as the Ōgi rule system writes their GGN
 *    (https://sashite.dev/rules/ogi/), the second player's pieces, drops with
 *    their forbidden ranks, Shogi's pawn drop with nifu as the GGN examples
 *    write it, Okisaki's N and fbR; counts.
 * 2. The generator on small positions: it follows the document (a made-up
 *    document gives made-up moves), and the rule system adds promotions, the
 *    King's privilege pair, self-check and mate by pawn drop.
 * 3. The cross-check: for every playable game, thousands of positions (random
 *    playouts from the start with a fixed seed, and random positions with
 *    promoted pieces, hands and "'" markers) where the GGN-driven generator,
 *    fed the exported document after a JSON round trip, and the built-in one
 *    give exactly the same sorted PMN lists.
 */
#include <stdlib.h>
#include "unit.h"

static koma_ggn *export(const char *id)
{
    koma_error err;
    koma_error_clear(&err);
    koma_ggn *g = NULL;
    koma_game_to_ggn(game_of(id), &g, &err);
    if (g == NULL) print_error("%s: %s\n", id, err.message);
    assert_non_null(g);
    return g;
}

/* ---- fragments ------------------------------------------------------------------ */

typedef struct frag {
    koma_ggn *out;
    koma_qpi piece;
    koma_location src, dst;
    int has_dst;
} frag;

static int loc_eq(const koma_location *a, const koma_location *b)
{
    if (a->hand || b->hand) return a->hand && b->hand;
    return koma_cell_equal(&a->cell, &b->cell);
}

static int frag_fn(void *ctx, const koma_ggn_entry *en)
{
    frag *f = ctx;
    if (en->piece.style != f->piece.style || en->piece.piece != f->piece.piece) return 0;
    if (!loc_eq(&en->source, &f->src)) return 0;
    if (f->has_dst && !loc_eq(&en->destination, &f->dst)) return 0;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_ggn_add(f->out, &en->piece, &en->source, &en->destination, en->must,
                                  en->nmust, en->deny, en->ndeny, &err), 0);
    return 0;
}

/* The part of g under piece -> src (-> dst when not NULL), as a new document. */
static koma_ggn *fragment(const koma_ggn *g, const char *piece, const char *src, const char *dst)
{
    frag f;
    koma_error err;
    koma_error_clear(&err);
    memset(&f, 0, sizeof f);
    koma_ggn_new(&f.out, &err);
    assert_non_null(f.out);
    assert_int_equal(koma_qpi_parse(piece, strlen(piece), &f.piece, &err), 0);
    assert_int_equal(koma_location_parse(src, strlen(src), &f.src, &err), 0);
    if (dst) {
        assert_int_equal(koma_location_parse(dst, strlen(dst), &f.dst, &err), 0);
        f.has_dst = 1;
    }
    assert_int_equal(koma_ggn_foreach(g, frag_fn, &f), 0);
    return f.out;
}

/* The fragment's compact JSON must be exactly `want` (without the final newline). */
static void expect_fragment(const koma_ggn *g, const char *piece, const char *src,
                            const char *dst, const char *want)
{
    koma_ggn *f = fragment(g, piece, src, dst);
    koma_error err;
    size_t len;
    char *s = NULL;
    koma_ggn_dump(f, KOMA_GGN_COMPACT, &len, &s, &err);
    assert_non_null(s);
    assert_true(len > 0 && s[len - 1] == '\n');
    s[len - 1] = '\0';
    if (strcmp(s, want) != 0) print_error("got  %s\nwant %s\n", s, want);
    assert_string_equal(s, want);
    free(s);
    koma_ggn_free(f);
}

/* The fragment must equal the document `text` (key order free, missing deny = {}). */
static void expect_same(const koma_ggn *g, const char *piece, const char *src, const char *dst,
                        const char *text)
{
    koma_error err;
    koma_error_clear(&err);
    koma_ggn *want = NULL;
    koma_ggn_load(text, strlen(text), &want, &err);
    if (want == NULL) print_error("%s\n", err.message);
    assert_non_null(want);
    koma_ggn *f = fragment(g, piece, src, dst);
    assert_true(koma_ggn_equal(f, want));
    koma_ggn_free(f);
    koma_ggn_free(want);
}

typedef struct counter {
    koma_qpi piece;
    int hand;                          /* 1: count drops only; 0: board sources only */
    size_t poss, dsts, srcs;
    koma_location last_src;
} counter;

static int count_fn(void *ctx, const koma_ggn_entry *en)
{
    counter *c = ctx;
    if (en->piece.style != c->piece.style || en->piece.piece != c->piece.piece) return 0;
    if (en->source.hand != c->hand) return 0;
    c->poss++;
    if (en->index == 0) c->dsts++;
    if (c->srcs == 0 || !loc_eq(&c->last_src, &en->source)) {
        c->srcs++;
        c->last_src = en->source;
    }
    return 0;
}

static counter count(const koma_ggn *g, const char *piece, int hand)
{
    counter c;
    koma_error err;
    memset(&c, 0, sizeof c);
    c.hand = hand;
    assert_int_equal(koma_qpi_parse(piece, strlen(piece), &c.piece, &err), 0);
    koma_ggn_foreach(g, count_fn, &c);
    return c;
}

#define Q(cell) "\"" cell "\":[{\"must\":{\"" cell "\":\"empty\"},\"deny\":{}},{\"must\":{\"" cell \
                "\":\"enemy\"},\"deny\":{}}]"

static void test_ogi_fragments(void **state)
{
    (void)state;
    koma_ggn *g = export("ogi");
    assert_int_equal(koma_ggn_piece_count(g), 30);

    /* King from e4: one step in every direction, file by file */
    expect_fragment(g, "O:K^", "e4", NULL,
                    "{\"O:K^\":{\"e4\":{" Q("d3") "," Q("d4") "," Q("d5") "," Q("e3") "," Q("e5") ","
                    Q("f3") "," Q("f4") "," Q("f5") "}}}");
    expect_same(g, "O:K^", "e4", NULL,
                "{\"O:K^\":{\"e4\":{"
                "\"d3\":[{\"must\":{\"d3\":\"empty\"}},{\"must\":{\"d3\":\"enemy\"}}],"
                "\"d4\":[{\"must\":{\"d4\":\"empty\"}},{\"must\":{\"d4\":\"enemy\"}}],"
                "\"d5\":[{\"must\":{\"d5\":\"empty\"}},{\"must\":{\"d5\":\"enemy\"}}],"
                "\"e3\":[{\"must\":{\"e3\":\"empty\"}},{\"must\":{\"e3\":\"enemy\"}}],"
                "\"e5\":[{\"must\":{\"e5\":\"empty\"}},{\"must\":{\"e5\":\"enemy\"}}],"
                "\"f3\":[{\"must\":{\"f3\":\"empty\"}},{\"must\":{\"f3\":\"enemy\"}}],"
                "\"f4\":[{\"must\":{\"f4\":\"empty\"}},{\"must\":{\"f4\":\"enemy\"}}],"
                "\"f5\":[{\"must\":{\"f5\":\"empty\"}},{\"must\":{\"f5\":\"enemy\"}}]}}}");
    /* the king from a corner */
    expect_fragment(g, "O:K^", "a1", NULL, "{\"O:K^\":{\"a1\":{" Q("a2") "," Q("b1") "," Q("b2") "}}}");

    /* Knight from b1: forward jumps only */
    expect_fragment(g, "O:N", "b1", NULL, "{\"O:N\":{\"b1\":{" Q("a3") "," Q("c3") "}}}");
    expect_same(g, "O:N", "b1", NULL,
                "{\"O:N\":{\"b1\":{\"a3\":[{\"must\":{\"a3\":\"empty\"}},{\"must\":{\"a3\":\"enemy\"}}],"
                "\"c3\":[{\"must\":{\"c3\":\"empty\"}},{\"must\":{\"c3\":\"enemy\"}}]}}}");
    /* no knight move from the last two ranks */
    assert_int_equal(count(g, "O:N", 0).srcs, 48);

    /* Lance from a1 to a4: the path a2 a3 empty */
    const char *lance_a4 =
        "{\"O:L\":{\"a1\":{\"a4\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\"},\"deny\":{}},"
        "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"enemy\"},\"deny\":{}}]}}}";
    expect_fragment(g, "O:L", "a1", "a4", lance_a4);
    expect_same(g, "O:L", "a1", "a4",
                "{\"O:L\":{\"a1\":{\"a4\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\"}},"
                "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"enemy\"}}]}}}");
    expect_fragment(g, "O:L", "a6", NULL,
                    "{\"O:L\":{\"a6\":{" Q("a7") ",\"a8\":[{\"must\":{\"a7\":\"empty\",\"a8\":\"empty\"},"
                    "\"deny\":{}},{\"must\":{\"a7\":\"empty\",\"a8\":\"enemy\"},\"deny\":{}}]}}}");
    counter lance = count(g, "O:L", 0);
    assert_int_equal(lance.srcs, 56);            /* not from rank 8 */
    assert_int_equal(lance.dsts, 8 * 28);        /* 7+6+...+1 a file */

    /* Rook a1 -> a4, Bishop c1 -> f4 */
    expect_same(g, "O:R", "a1", "a4",
                "{\"O:R\":{\"a1\":{\"a4\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\"}},"
                "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"enemy\"}}]}}}");
    expect_same(g, "O:B", "c1", "f4",
                "{\"O:B\":{\"c1\":{\"f4\":[{\"must\":{\"d2\":\"empty\",\"e3\":\"empty\",\"f4\":\"empty\"}},"
                "{\"must\":{\"d2\":\"empty\",\"e3\":\"empty\",\"f4\":\"enemy\"}}]}}}");
    /* Princess d4: the diagonal b2 through c3, and a knight jump */
    expect_same(g, "O:I", "d4", "b2",
                "{\"O:I\":{\"d4\":{\"b2\":[{\"must\":{\"c3\":\"empty\",\"b2\":\"empty\"}},"
                "{\"must\":{\"c3\":\"empty\",\"b2\":\"enemy\"}}]}}}");
    expect_same(g, "O:I", "d4", "c2",
                "{\"O:I\":{\"d4\":{\"c2\":[{\"must\":{\"c2\":\"empty\"}},{\"must\":{\"c2\":\"enemy\"}}]}}}");
    assert_int_equal(count(g, "O:I", 0).dsts, 560 + 336);   /* bishop + knight moves on 8x8 */
    /* Silver and promoted Silver from d4 */
    expect_fragment(g, "O:S", "d4", NULL,
                    "{\"O:S\":{\"d4\":{" Q("c3") "," Q("c5") "," Q("d5") "," Q("e3") "," Q("e5") "}}}");
    expect_fragment(g, "O:+S", "d4", NULL,
                    "{\"O:+S\":{\"d4\":{" Q("c4") "," Q("c5") "," Q("d3") "," Q("d5") "," Q("e4") ","
                    Q("e5") "}}}");
    /* Pawn e4 -> e5; the second player's pawn goes down */
    expect_fragment(g, "O:P", "e4", NULL, "{\"O:P\":{\"e4\":{" Q("e5") "}}}");
    expect_fragment(g, "o:p", "e4", NULL, "{\"o:p\":{\"e4\":{" Q("e3") "}}}");
    expect_fragment(g, "o:n", "b8", NULL, "{\"o:n\":{\"b8\":{" Q("a6") "," Q("c6") "}}}");
    expect_fragment(g, "o:+p", "d4", NULL,
                    "{\"o:+p\":{\"d4\":{" Q("c3") "," Q("c4") "," Q("d3") "," Q("d5") "," Q("e3") ","
                    Q("e4") "}}}");

    /* 420 king moves on an 8x8 board, two possibilities each */
    counter king = count(g, "O:K^", 0);
    assert_int_equal(king.srcs, 64);
    assert_int_equal(king.dsts, 420);
    assert_int_equal(king.poss, 840);

    /* drops: never a king or an unpromoted pawn; +P anywhere */
    assert_int_equal(count(g, "O:K^", 1).poss, 0);
    assert_int_equal(count(g, "O:P", 1).poss, 0);
    assert_int_equal(count(g, "o:p", 1).poss, 0);
    expect_fragment(g, "O:+P", "*", "e5",
                    "{\"O:+P\":{\"*\":{\"e5\":[{\"must\":{\"e5\":\"empty\"},\"deny\":{}}]}}}");
    assert_int_equal(count(g, "O:+P", 1).dsts, 64);
    assert_int_equal(count(g, "O:+R", 1).dsts, 64);
    assert_int_equal(count(g, "O:I", 1).dsts, 64);
    /* lance: not on the last rank; knight: not on the last two */
    assert_int_equal(count(g, "O:L", 1).dsts, 56);
    assert_int_equal(count(g, "O:N", 1).dsts, 48);
    assert_int_equal(count(g, "o:l", 1).dsts, 56);
    assert_int_equal(count(g, "O:L", 1).poss, 56);
    expect_fragment(g, "O:L", "*", "a8", "{}");
    expect_fragment(g, "O:L", "*", "a7",
                    "{\"O:L\":{\"*\":{\"a7\":[{\"must\":{\"a7\":\"empty\"},\"deny\":{}}]}}}");
    expect_fragment(g, "o:l", "*", "a1", "{}");
    expect_fragment(g, "O:N", "*", "c7", "{}");
    expect_fragment(g, "o:n", "*", "c2", "{}");
    expect_fragment(g, "o:n", "*", "c3",
                    "{\"o:n\":{\"*\":{\"c3\":[{\"must\":{\"c3\":\"empty\"},\"deny\":{}}]}}}");

    /* the document equals itself after a JSON round trip, pretty or compact */
    koma_error err;
    koma_error_clear(&err);
    for (unsigned fl = 0; fl < 2; fl++) {
        size_t len;
        char *s = NULL;
        koma_ggn_dump(g, fl ? KOMA_GGN_PRETTY : KOMA_GGN_COMPACT, &len, &s, &err);
        assert_non_null(s);
        koma_ggn *back = NULL;
        koma_ggn_load(s, len, &back, &err);
        assert_non_null(back);
        assert_true(koma_ggn_equal(g, back));
        assert_int_equal(koma_ggn_possibility_count(back), koma_ggn_possibility_count(g));
        koma_ggn_free(back);
        free(s);
    }
    koma_ggn_free(g);
}

static void test_shogi_fragments(void **state)
{
    (void)state;
    koma_ggn *g = export("shogi");
    assert_int_equal(koma_ggn_piece_count(g), 28);
    /* the GGN examples' shogi pawn drop on e4 with nifu (https://github.com/sashite/ggn.rb) */
    expect_same(g, "S:P", "*", "e4",
                "{\"S:P\":{\"*\":{\"e4\":[{\"must\":{\"e4\":\"empty\"},\"deny\":{\"e1\":\"S:P\",\"e2\":\"S:P\","
                "\"e3\":\"S:P\",\"e5\":\"S:P\",\"e6\":\"S:P\",\"e7\":\"S:P\",\"e8\":\"S:P\",\"e9\":\"S:P\"}}]}}}");
    expect_fragment(g, "s:p", "*", "a9",
                    "{\"s:p\":{\"*\":{\"a9\":[{\"must\":{\"a9\":\"empty\"},\"deny\":{\"a1\":\"s:p\",\"a2\":\"s:p\","
                    "\"a3\":\"s:p\",\"a4\":\"s:p\",\"a5\":\"s:p\",\"a6\":\"s:p\",\"a7\":\"s:p\",\"a8\":\"s:p\"}}]}}}");
    expect_fragment(g, "S:P", "*", "e9", "{}");
    expect_fragment(g, "s:p", "*", "e1", "{}");
    assert_int_equal(count(g, "S:P", 1).dsts, 72);
    assert_int_equal(count(g, "S:N", 1).dsts, 63);
    assert_int_equal(count(g, "S:L", 1).dsts, 72);
    assert_int_equal(count(g, "S:G", 1).dsts, 81);
    /* promoted pieces and kings are never dropped in shogi */
    assert_int_equal(count(g, "S:+P", 1).poss, 0);
    assert_int_equal(count(g, "S:+R", 1).poss, 0);
    assert_int_equal(count(g, "s:k^", 1).poss, 0);
    /* a dragon: rook rides and diagonal steps */
    expect_fragment(g, "S:+R", "a1", NULL,
                    "{\"S:+R\":{\"a1\":{" Q("a2") ",\"a3\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"a2\":\"empty\",\"a3\":\"enemy\"},\"deny\":{}}],"
                    "\"a4\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"enemy\"},\"deny\":{}}],"
                    "\"a5\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"enemy\"},\"deny\":{}}],"
                    "\"a6\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"enemy\"},\"deny\":{}}],"
                    "\"a7\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"empty\",\"a7\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"empty\",\"a7\":\"enemy\"},\"deny\":{}}],"
                    "\"a8\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"empty\",\"a7\":\"empty\",\"a8\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"empty\",\"a7\":\"empty\",\"a8\":\"enemy\"},\"deny\":{}}],"
                    "\"a9\":[{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"empty\",\"a7\":\"empty\",\"a8\":\"empty\",\"a9\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"a2\":\"empty\",\"a3\":\"empty\",\"a4\":\"empty\",\"a5\":\"empty\",\"a6\":\"empty\",\"a7\":\"empty\",\"a8\":\"empty\",\"a9\":\"enemy\"},\"deny\":{}}],"
                    "\"b1\":[{\"must\":{\"b1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"enemy\"},\"deny\":{}}],"
                    "\"b2\":[{\"must\":{\"b2\":\"empty\"},\"deny\":{}},{\"must\":{\"b2\":\"enemy\"},\"deny\":{}}],"
                    "\"c1\":[{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"empty\",\"c1\":\"enemy\"},\"deny\":{}}],"
                    "\"d1\":[{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"enemy\"},\"deny\":{}}],"
                    "\"e1\":[{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"enemy\"},\"deny\":{}}],"
                    "\"f1\":[{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"enemy\"},\"deny\":{}}],"
                    "\"g1\":[{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"empty\",\"g1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"empty\",\"g1\":\"enemy\"},\"deny\":{}}],"
                    "\"h1\":[{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"empty\",\"g1\":\"empty\",\"h1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"empty\",\"g1\":\"empty\",\"h1\":\"enemy\"},\"deny\":{}}],"
                    "\"i1\":[{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"empty\",\"g1\":\"empty\",\"h1\":\"empty\",\"i1\":\"empty\"},\"deny\":{}},{\"must\":{\"b1\":\"empty\",\"c1\":\"empty\",\"d1\":\"empty\",\"e1\":\"empty\",\"f1\":\"empty\",\"g1\":\"empty\",\"h1\":\"empty\",\"i1\":\"enemy\"},\"deny\":{}}]}}}");
    koma_ggn_free(g);

    /* Minishogi: the pawn drop's nifu file has 4 other squares; no drop on rank 5 */
    g = export("minishogi");
    assert_int_equal(koma_ggn_piece_count(g), 20);
    expect_fragment(g, "S:P", "*", "c3",
                    "{\"S:P\":{\"*\":{\"c3\":[{\"must\":{\"c3\":\"empty\"},\"deny\":{\"c1\":\"S:P\",\"c2\":\"S:P\","
                    "\"c4\":\"S:P\",\"c5\":\"S:P\"}}]}}}");
    assert_int_equal(count(g, "S:P", 1).dsts, 20);
    assert_int_equal(count(g, "s:p", 1).dsts, 20);
    koma_ggn_free(g);
}

static void test_okisaki_fragments(void **state)
{
    (void)state;
    koma_ggn *g = export("okisaki");
    assert_int_equal(koma_ggn_piece_count(g), 30);
    /* the chess knight: eight jumps */
    expect_fragment(g, "Q:N", "e5", NULL,
                    "{\"Q:N\":{\"e5\":{" Q("c4") "," Q("c6") "," Q("d3") "," Q("d7") "," Q("f3") ","
                    Q("f7") "," Q("g4") "," Q("g6") "}}}");
    /* the lance: forwards and backwards */
    expect_fragment(g, "Q:L", "c9", NULL,
                    "{\"Q:L\":{\"c9\":{\"c1\":[{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\","
                    "\"c4\":\"empty\",\"c3\":\"empty\",\"c2\":\"empty\",\"c1\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\",\"c4\":\"empty\","
                    "\"c3\":\"empty\",\"c2\":\"empty\",\"c1\":\"enemy\"},\"deny\":{}}],"
                    "\"c2\":[{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\",\"c4\":\"empty\","
                    "\"c3\":\"empty\",\"c2\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\",\"c4\":\"empty\","
                    "\"c3\":\"empty\",\"c2\":\"enemy\"},\"deny\":{}}],"
                    "\"c3\":[{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\",\"c4\":\"empty\","
                    "\"c3\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\",\"c4\":\"empty\","
                    "\"c3\":\"enemy\"},\"deny\":{}}],"
                    "\"c4\":[{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\",\"c4\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\",\"c4\":\"enemy\"},\"deny\":{}}],"
                    "\"c5\":[{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\",\"c5\":\"enemy\"},\"deny\":{}}],"
                    "\"c6\":[{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\",\"c6\":\"enemy\"},\"deny\":{}}],"
                    "\"c7\":[{\"must\":{\"c8\":\"empty\",\"c7\":\"empty\"},\"deny\":{}},"
                    "{\"must\":{\"c8\":\"empty\",\"c7\":\"enemy\"},\"deny\":{}}],"
                    Q("c8") "," Q("c10") "}}}");
    /* knights and lances drop anywhere; pawns not on the last rank; the queen anywhere */
    assert_int_equal(count(g, "Q:N", 1).dsts, 100);
    assert_int_equal(count(g, "Q:L", 1).dsts, 100);
    assert_int_equal(count(g, "Q:Q", 1).dsts, 100);
    assert_int_equal(count(g, "Q:P", 1).dsts, 90);
    expect_fragment(g, "q:p", "*", "a1", "{}");
    koma_ggn_free(g);
}

static void test_export_errors(void **state)
{
    (void)state;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_game_to_ggn(game_of("koshogi"), &(koma_ggn *){NULL}, &err), -1);
    /* GGN v1 cannot express shots, burns or several captures */
    assert_int_equal(err.code, KOMA_E_GAME_GGN);
    assert_non_null(strstr(err.message, "GGN cannot express the moves of koshogi"));
    koma_error_clear(&err);
    assert_int_equal(koma_game_to_ggn(NULL, &(koma_ggn *){NULL}, &err), -1);
    assert_int_equal(err.code, KOMA_E_INTERNAL);
    /* ogi and ogi-classic have the same patterns: the differences are rules */
    koma_ggn *a = export("ogi"), *b = export("ogi-classic");
    assert_true(koma_ggn_equal(a, b));
    koma_ggn_free(a);
    koma_ggn_free(b);

    /* A user definition of a 26x26 board with one piece riding every atom made
     * a document of 661288 possibilities (61 MB of JSON that koma_ggn_load
     * refuses; with 30 such pieces, 19 million possibilities and gigabytes of
     * memory): refused, counted before anything is built. */
    static const char huge[] =
        "id: huge\nname: Huge\nstyle: X\nboard: {files: 26, ranks: 26}\n"
        "start: \"26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/K^25 / X/x\"\n"
        "check: true\n"
        "pieces:\n"
        "  - {pin: \"K^\", betza: K, royal: true}\n"
        "  - {pin: A, betza: WWFFDDNNAAHHCCZZGG}\n";
    koma_game_set *set;
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g;
    assert_int_equal(koma_game_set_load(set, huge, strlen(huge), "huge.yaml", &g, &err), 0);
    koma_error_clear(&err);
    assert_int_equal(koma_game_to_ggn(g, &(koma_ggn *){NULL}, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_LIMIT);
    assert_string_equal(err.message, "the GGN document of huge would have 661288 possibilities "
                                     "(at most 479349: a GGN document is at most 16 MiB)");
    koma_game_set_free(set);
}

/* ---- the generator on small positions ----------------------------------------------- */

#define MAXM 4096

typedef struct mlist {
    char m[MAXM][KOMA_PMN_BUF];
    size_t n;
} mlist;

static int cmp_pmn(const void *a, const void *b) { return strcmp(a, b); }

static int collect(void *ctx, const char *pmn, size_t len, const koma_move *move)
{
    mlist *l = ctx;
    char b[KOMA_PMN_BUF];
    assert_true(l->n < MAXM);
    assert_true(len < KOMA_PMN_BUF);
    /* the koma_move is the same move as the text */
    assert_int_equal(koma_pmn_write(move, b), len);
    assert_memory_equal(b, pmn, len);
    memcpy(l->m[l->n], pmn, len);
    l->m[l->n][len] = '\0';
    l->n++;
    return 0;
}

static void position_of(const char *feen, koma_position *pos)
{
    koma_error err;
    koma_error_clear(&err);
    koma_position_init(pos);
    assert_int_equal(koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, pos, &err), 0);
}

/* koma_ggn_generate with the document ggn on a position: sorted list == want. */
static void expect_generate(const koma_ggn *ggn, const char *id, const char *feen,
                            const char *const *want)
{
    static mlist got;
    koma_position pos;
    koma_error err;
    koma_error_clear(&err);
    position_of(feen, &pos);
    got.n = 0;
    int rc = koma_ggn_generate(ggn, game_of(id), &pos, collect, &got, &err);
    if (rc != 0) print_error("%s: %s\n", feen, err.message);
    assert_int_equal(rc, 0);
    qsort(got.m, got.n, sizeof got.m[0], cmp_pmn);
    size_t n = 0;
    while (want[n]) n++;
    int same = n == got.n;
    for (size_t i = 0; same && i < n; i++) same = strcmp(got.m[i], want[i]) == 0;
    if (!same) {
        print_error("%s\n  got %zu:", feen, got.n);
        for (size_t i = 0; i < got.n; i++) print_error(" %s", got.m[i]);
        print_error("\n");
    }
    assert_true(same);
    koma_position_cleanup(&pos);
}

static int has_move(const koma_ggn *ggn, const char *id, const char *feen, const char *move)
{
    static mlist got;
    koma_position pos;
    koma_error err;
    koma_error_clear(&err);
    position_of(feen, &pos);
    got.n = 0;
    assert_int_equal(koma_ggn_generate(ggn, game_of(id), &pos, collect, &got, &err), 0);
    koma_position_cleanup(&pos);
    for (size_t i = 0; i < got.n; i++)
        if (strcmp(got.m[i], move) == 0) return 1;
    return 0;
}

static void test_generate_follows_document(void **state)
{
    (void)state;
    koma_error err;
    koma_error_clear(&err);
    /* a made-up document: the king jumps to c3, the pawn captures the rook on a5.
     * The rule system adds the forced promotion and the captured identity. */
    const char *doc =
        "{\"S:K^\":{\"a1\":{\"c3\":[{\"must\":{\"c3\":\"empty\"}}]}},"
        " \"S:P\":{\"a2\":{\"a5\":[{\"must\":{\"a5\":\"enemy\"}}]}}}";
    koma_ggn *g = NULL;
    koma_ggn_load(doc, strlen(doc), &g, &err);
    assert_non_null(g);
    static const char *const want[] = {"a1-c3", "a2+a5=+P/R", NULL};
    expect_generate(g, "minishogi", "rbsgk^/4p/5/P4/K^GSBR / S/s", want);
    /* the second player has nothing in this document */
    static const char *const none[] = {NULL};
    expect_generate(g, "minishogi", "rbsgk^/4p/5/P4/K^GSBR / s/S", none);
    koma_ggn_free(g);

    /* the empty document: no moves at all */
    koma_ggn_load("{}", 2, &g, &err);
    assert_non_null(g);
    expect_generate(g, "ogi", "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o", none);
    koma_ggn_free(g);

    /* a drop the document allows onto an occupied square, a capture of one's own
     * piece and a move to the hand are no moves of the rule system */
    const char *odd =
        "{\"S:G\":{\"*\":{\"a1\":[{}],\"c3\":[{}]},\"b1\":{\"c1\":[{}],\"*\":[{}]}}}";
    koma_ggn_load(odd, strlen(odd), &g, &err);
    assert_non_null(g);
    static const char *const odd_want[] = {"G*c3", NULL};
    expect_generate(g, "minishogi", "rbsgk^/4p/5/P4/K^GSBR G/ S/s", odd_want);
    koma_ggn_free(g);
}

static void test_generate_rules(void **state)
{
    (void)state;
    koma_ggn *ogi = export("ogi"), *classic = export("ogi-classic"), *shogi = export("shogi");

    /* Ōgi: the King's privilege as two moves; no check rule */
    static const char *const privilege[] = {"e4+e5/+P", "e4+e5/P", "e4-d3", "e4-d4", "e4-d5",
                                            "e4-e3", "e4-f3", "e4-f4", "e4-f5", NULL};
    expect_generate(ogi, "ogi", "4k^3/8/8/4+p3/4K^3/8/8/8 / O/o", privilege);
    /* a king already captured: the game is over, no moves */
    static const char *const none[] = {NULL};
    expect_generate(ogi, "ogi", "8/8/8/8/4K^3/8/8/8 K^/ o/O", none);

    /* Ōgi: optional promotion of a pawn reaching rank 7, forced on rank 8 */
    static const char *const pawn[] = {"a1-a2", "a1-b1", "a1-b2", "c6-c7", "c6-c7=+P",
                                       "d7-d8=+P", NULL};
    expect_generate(ogi, "ogi", "7k^/3P4/2P5/8/8/8/8/K^7 / O/o", pawn);
    /* ogi-classic: promotion compulsory in the zone, and the check rule (the h8
     * king is attacked by the lance on h1 and cannot stay on the file) */
    static const char *const classic_pawn[] = {"h8-g7", "h8-g8", NULL};
    expect_generate(classic, "ogi-classic", "7k^/3P4/2P5/8/8/8/8/K^6L / o/O", classic_pawn);
    static const char *const classic_first[] = {"a1-a2", "a1-b1", "a1-b2", "c6-c7=+P",
                                                "d7-d8=+P", "g1-g2", "g1-g3", "g1-g4", "g1-g5",
                                                "g1-g6=+L", "g1-g7=+L", "g1-g8=+L", NULL};
    expect_generate(classic, "ogi-classic", "7k^/3P4/2P5/8/8/8/8/K^5L1 / O/o", classic_first);
    /* the same in ogi: the lance chooses on g6 and g7 */
    static const char *const ogi_first[] = {"a1-a2", "a1-b1", "a1-b2", "c6-c7", "c6-c7=+P",
                                            "d7-d8=+P", "g1-g2", "g1-g3", "g1-g4", "g1-g5",
                                            "g1-g6", "g1-g6=+L", "g1-g7", "g1-g7=+L", "g1-g8=+L",
                                            NULL};
    expect_generate(ogi, "ogi", "7k^/3P4/2P5/8/8/8/8/K^5L1 / O/o", ogi_first);

    /* Shogi: mate by pawn drop. The king on a9 is held by the gold on a7 (a8,
     * b8) and the bishop on e6 (b9); P*a8 would mate, so it is not a move. */
    const char *mate = "k^8/9/G8/4B4/9/9/9/9/4K^4 P/ S/s";
    assert_false(has_move(shogi, "shogi", mate, "P*a8"));
    assert_true(has_move(shogi, "shogi", mate, "P*b8"));
    /* without the bishop b9 is free: P*a8 only checks, and is a move */
    assert_true(has_move(shogi, "shogi", "k^8/9/G8/9/9/9/9/9/4K^4 P/ S/s", "P*a8"));
    /* the built-in engine agrees on why */
    koma_engine *e;
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_new(game_of("shogi"), &e, &err), 0);
    assert_int_equal(koma_engine_set_feen(e, mate, strlen(mate), &err), 0);
    koma_emove m;
    assert_int_equal(koma_engine_parse_move(e, LIT("P*a8"), &m, &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_DROP_MATE);
    koma_engine_free(e);
    /* nifu: no pawn drop on the file of one's own unpromoted pawn; a tokin is no pawn */
    assert_false(has_move(shogi, "shogi", "k^8/9/9/9/9/9/P8/9/4K^4 P/ S/s", "P*a5"));
    assert_true(has_move(shogi, "shogi", "k^8/9/9/9/9/9/P8/9/4K^4 P/ S/s", "P*b5"));
    assert_true(has_move(shogi, "shogi", "k^8/9/9/9/9/9/+P8/9/4K^4 P/ S/s", "P*a5"));
    /* self-check: the pinned silver may not leave the file */
    assert_false(has_move(shogi, "shogi", "4r4/9/9/9/9/9/9/4S4/4K^4 / S/s", "e2-d3"));
    assert_true(has_move(shogi, "shogi", "4r4/9/9/9/9/9/9/4S4/4K^4 / S/s", "e2-e3"));

    /* the position must fit the game */
    koma_position pos;
    position_of("rbsgk^/4p/5/P4/K^GSBR / S/s", &pos);
    static mlist got;
    koma_error_clear(&err);
    assert_int_equal(koma_ggn_generate(shogi, game_of("shogi"), &pos, collect, &got, &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_SHAPE);
    koma_error_clear(&err);
    koma_position_cleanup(&pos);
    /* Ko shogi: no GGN-driven generation */
    const koma_game *ko = game_of("koshogi");
    position_of(koma_game_start(ko), &pos);
    koma_error_clear(&err);
    assert_int_equal(koma_ggn_generate(shogi, ko, &pos, collect, &got, &err), -1);
    assert_int_equal(err.code, KOMA_E_GAME_GGN);
    koma_position_cleanup(&pos);

    koma_ggn_free(ogi);
    koma_ggn_free(classic);
    koma_ggn_free(shogi);
}

static int stop_after_one(void *ctx, const char *pmn, size_t len, const koma_move *move)
{
    (void)pmn;
    (void)len;
    (void)move;
    (*(int *)ctx)++;
    return 1;
}

static void test_generate_stop(void **state)
{
    (void)state;
    koma_ggn *g = export("minishogi");
    koma_position pos;
    position_of("rbsgk^/4p/5/P4/K^GSBR / S/s", &pos);
    koma_error err;
    koma_error_clear(&err);
    int calls = 0;
    assert_int_equal(koma_ggn_generate(g, game_of("minishogi"), &pos, stop_after_one, &calls, &err), 1);
    assert_int_equal(calls, 1);
    koma_position_cleanup(&pos);
    koma_ggn_free(g);
}

/* ---- the cross-check ------------------------------------------------------------------ */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned below(rng *r, unsigned n) { return (unsigned)(next(r) % n); }

typedef struct cross {
    koma_engine *e;
    const koma_ggn *ggn;
    koma_emove *buf;
    mlist *a, *b, *raw;
    int count_mates;
    koma_piece kinds[32], royal;
    size_t nkinds;
    unsigned long positions, moves, drops, promotions, captures, privilege, mates_refused;
} cross;

static int in_sorted(const mlist *l, const char *s)
{
    return bsearch(s, l->m, l->n, sizeof l->m[0], cmp_pmn) != NULL;
}

/* The pawn drops that the GGN document allows here but the rule system refuses
 * as mate by pawn drop (the engine says why): they show the rule at work. */
static void count_mates(cross *x)
{
    koma_error err;
    koma_error_clear(&err);
    koma_position pos;
    koma_position_init(&pos);
    assert_int_equal(koma_engine_get_position(x->e, &pos, &err), 0);
    int pawns = 0;
    const koma_hand *h = &pos.hands[pos.turn];
    for (size_t i = 0; i < h->len; i++)
        if (koma_piece_letter(h->items[i].piece) == (pos.turn ? 'p' : 'P') &&
            !(h->items[i].piece & KOMA_PIECE_STATE))
            pawns = 1;
    if (!pawns) {
        koma_position_cleanup(&pos);
        return;
    }
    x->raw->n = 0;
    assert_int_equal(koma_ggn_moves(x->ggn, &pos, collect, x->raw, &err), 0);
    koma_position_cleanup(&pos);
    for (size_t i = 0; i < x->raw->n; i++) {
        const char *s = x->raw->m[i];
        if ((s[0] != 'P' && s[0] != 'p') || (s[1] != '*' && s[1] != '\'') || in_sorted(x->a, s))
            continue;
        koma_emove m;
        if (koma_engine_parse_move(x->e, s, strlen(s), &m, &err) != 0 &&
            err.code == KOMA_E_RULES_DROP_MATE)
            x->mates_refused++;
    }
}

/* Both generators on the engine's position: the same sorted PMN lists.
 * Leaves the built-in list, sorted, in x->a. */
static void compare(cross *x)
{
    koma_error err;
    koma_error_clear(&err);
    size_t n = koma_engine_legal_moves(x->e, x->buf);
    assert_true(n < MAXM);
    x->a->n = 0;
    for (size_t i = 0; i < n; i++) koma_engine_move_write(x->e, x->buf[i], x->a->m[x->a->n++]);
    x->b->n = 0;
    assert_int_equal(koma_engine_ggn_moves(x->e, x->ggn, collect, x->b, &err), 0);
    qsort(x->a->m, x->a->n, sizeof x->a->m[0], cmp_pmn);
    qsort(x->b->m, x->b->n, sizeof x->b->m[0], cmp_pmn);
    int same = x->a->n == x->b->n;
    for (size_t i = 0; same && i < x->a->n; i++) same = strcmp(x->a->m[i], x->b->m[i]) == 0;
    if (!same) {
        char feen[KOMA_FEEN_MAX_LEN + 1];
        if (koma_engine_feen(x->e, feen, sizeof feen, NULL, &err) != 0) feen[0] = '\0';
        print_error("%s: %s\n  built-in %zu:", koma_game_id(koma_engine_game(x->e)), feen, x->a->n);
        for (size_t i = 0; i < x->a->n; i++) print_error(" %s", x->a->m[i]);
        print_error("\n  ggn %zu:", x->b->n);
        for (size_t i = 0; i < x->b->n; i++) print_error(" %s", x->b->m[i]);
        print_error("\n");
    }
    assert_true(same);
    for (size_t i = 1; i < x->b->n; i++) assert_true(strcmp(x->b->m[i - 1], x->b->m[i]) != 0);
    x->positions++;
    x->moves += x->a->n;
    if (x->count_mates) count_mates(x);
    for (size_t i = 0; i < x->a->n; i++) {
        const char *s = x->a->m[i];
        if (strchr(s, '*')) x->drops++;
        if (strchr(s, '=')) x->promotions++;
        if (strchr(s, '+') && s[0] != '+') x->captures++;
        if (strstr(s, "/+")) x->privilege++;
    }
}

/* A random playout of up to `plies` plies from the start, comparing at each
 * position. The move is drawn from the sorted list, so the playout depends on
 * the rules only, not on the engine's move order. */
static void playout(cross *x, rng *r, unsigned plies)
{
    koma_error err;
    koma_error_clear(&err);
    assert_int_equal(koma_engine_set_start(x->e, &err), 0);
    for (unsigned p = 0; p <= plies; p++) {
        compare(x);
        if (x->a->n == 0) break;
        const char *pick = x->a->m[below(r, (unsigned)x->a->n)];
        koma_emove m;
        assert_int_equal(koma_engine_parse_move(x->e, pick, strlen(pick), &m, &err), 0);
        assert_int_equal(koma_engine_make(x->e, m, &err), 0);
    }
}

/* The piece identities of game g for random positions: the first player's
 * pieces of the start position and their promoted forms that the game has
 * (the engine accepts them), and the royal. */
static void game_kinds(cross *x, const koma_game *g)
{
    koma_error err;
    koma_error_clear(&err);
    unsigned files = koma_game_files(g), ranks = koma_game_ranks(g);
    koma_shape shape;
    memset(&shape, 0, sizeof shape);
    shape.ndims = 2;
    shape.size[0] = (uint16_t)files;
    shape.size[1] = (uint16_t)ranks;
    shape.size[2] = 1;
    shape.squares = files * ranks;
    koma_piece *kinds = x->kinds, royal = 0;
    size_t nk = 0;
    /* the game's pieces, from its start position and their promoted forms */
    koma_position start;
    koma_position_init(&start);
    const char *sf = koma_game_start(g);
    assert_int_equal(koma_feen_parse(sf, strlen(sf), KOMA_FEEN_STRICT, &start, &err), 0);
    for (uint32_t i = 0; i < start.shape.squares; i++) {
        koma_piece p = start.board[i];
        if (p == KOMA_PIECE_NONE || koma_piece_side(p) != KOMA_FIRST) continue;
        p &= (koma_piece)~KOMA_PIECE_DERIVED;
        if (p & KOMA_PIECE_TERMINAL) {
            royal = p;
            continue;
        }
        koma_piece forms[2] = {p, (koma_piece)(p | KOMA_PIECE_ENHANCED)};
        for (int f = 0; f < 2; f++) {
            int known = 0;
            for (size_t k = 0; k < nk; k++) known |= kinds[k] == forms[f];
            /* a promoted form is kept below when the engine accepts it */
            if (!known && nk < 32) kinds[nk++] = forms[f];
        }
    }
    koma_position_cleanup(&start);
    assert_true(royal != 0);

    koma_engine *e = x->e;
    /* keep only the identities the game has (the engine says so) */
    size_t nkeep = 0;
    for (size_t k = 0; k < nk; k++) {
        koma_position probe;
        koma_position_init(&probe);
        assert_int_equal(koma_position_reset(&probe, &shape, &err), 0);
        probe.style[0] = koma_game_style(g);
        probe.style[1] = (char)(koma_game_style(g) - 'A' + 'a');
        probe.board[0] = kinds[k];
        if (koma_engine_set_position(e, &probe, &err) == 0) kinds[nkeep++] = kinds[k];
        koma_position_cleanup(&probe);
    }
    nk = nkeep;

    x->nkinds = nk;
    x->royal = royal;
}

/*
 * A random position of game g: one royal a side (rarely none for the side not
 * to move), random pieces of every kind (promoted ones included) on random
 * squares, random hands (own case only, mostly unpromoted pieces), random "'"
 * markers, either side to move.
 */
static void random_position(cross *x, rng *r, const koma_game *g, koma_position *pos)
{
    const koma_piece *kinds = x->kinds, royal = x->royal;
    size_t nk = x->nkinds;
    koma_error err;
    koma_error_clear(&err);
    unsigned files = koma_game_files(g), ranks = koma_game_ranks(g);
    koma_shape shape;
    memset(&shape, 0, sizeof shape);
    shape.ndims = 2;
    shape.size[0] = (uint16_t)files;
    shape.size[1] = (uint16_t)ranks;
    shape.size[2] = 1;
    shape.squares = files * ranks;
    assert_int_equal(koma_position_reset(pos, &shape, &err), 0);
    pos->style[0] = koma_game_style(g);
    pos->style[1] = (char)(koma_game_style(g) - 'A' + 'a');
    pos->turn = (int)below(r, 2);

    uint32_t squares = shape.squares;
    /* royals */
    for (int side = 0; side < 2; side++) {
        unsigned roll = below(r, 40);
        if (roll == 0 && side != pos->turn) continue;          /* no royal (tsume style) */
        koma_piece k = (koma_piece)(royal | (side ? KOMA_PIECE_SECOND : 0));
        if (below(r, 4) == 0) k |= KOMA_PIECE_DERIVED;
        uint32_t sq;
        do sq = below(r, squares); while (pos->board[sq] != KOMA_PIECE_NONE);
        pos->board[sq] = k;
    }
    /* pieces on the board */
    unsigned npieces = below(r, squares / 2);
    for (unsigned i = 0; i < npieces; i++) {
        koma_piece p = kinds[below(r, (unsigned)nk)];
        if (below(r, 2)) p |= KOMA_PIECE_SECOND;
        if (below(r, 12) == 0) p |= KOMA_PIECE_DERIVED;
        uint32_t sq = below(r, squares);
        if (pos->board[sq] == KOMA_PIECE_NONE) pos->board[sq] = p;
    }
    /* hands */
    for (int side = 0; side < 2; side++) {
        unsigned nh = below(r, 6);
        for (unsigned i = 0; i < nh; i++) {
            koma_piece p = kinds[below(r, (unsigned)nk)];
            if (below(r, 3)) p &= (koma_piece)~KOMA_PIECE_STATE;   /* mostly unpromoted */
            if (side) p |= KOMA_PIECE_SECOND;
            if (below(r, 12) == 0) p |= KOMA_PIECE_DERIVED;
            assert_int_equal(koma_hand_add(&pos->hands[side], p, 1 + below(r, 2), &err), 0);
        }
    }
}

static void cross_check(const char *id, int check_rule, unsigned nplayouts, unsigned plies,
                        unsigned nrandom, const unsigned long want[9])
{
    const koma_game *g = game_of(id);
    koma_error err;
    koma_error_clear(&err);
    /* the exported document, through its JSON text */
    koma_ggn *exported = NULL;
    koma_game_to_ggn(g, &exported, &err);
    assert_non_null(exported);
    size_t len;
    char *text = NULL;
    koma_ggn_dump(exported, KOMA_GGN_COMPACT, &len, &text, &err);
    assert_non_null(text);
    koma_ggn *ggn = NULL;
    koma_ggn_load(text, len, &ggn, &err);
    assert_non_null(ggn);
    free(text);
    assert_true(koma_ggn_equal(exported, ggn));
    koma_ggn_free(exported);

    cross x;
    memset(&x, 0, sizeof x);
    x.ggn = ggn;
    assert_int_equal(koma_engine_new(g, &x.e, &err), 0);
    x.buf = malloc(koma_engine_max_moves(x.e) * sizeof *x.buf);
    x.a = malloc(sizeof *x.a);
    x.b = malloc(sizeof *x.b);
    x.raw = malloc(sizeof *x.raw);
    assert_non_null(x.raw);
    x.count_mates = check_rule;
    game_kinds(&x, g);
    assert_non_null(x.buf);
    assert_non_null(x.a);
    assert_non_null(x.b);
    rng r = {0x6B6F6D61ull ^ (uint64_t)strlen(id)};
    for (unsigned i = 0; i < nplayouts; i++) playout(&x, &r, plies);
    unsigned long from_playouts = x.positions;

    koma_position pos;
    koma_position_init(&pos);
    unsigned done = 0, rejected = 0;
    while (done < nrandom) {
        random_position(&x, &r, g, &pos);
        /* With the check rule, a position whose side not to move is in check
         * cannot arise in play (the mover would take the king): skip it. */
        pos.turn ^= 1;
        assert_int_equal(koma_engine_set_position(x.e, &pos, &err), 0);
        int bad = check_rule && koma_engine_in_check(x.e);
        pos.turn ^= 1;
        assert_int_equal(koma_engine_set_position(x.e, &pos, &err), 0);
        if (bad) {
            rejected++;
            continue;
        }
        compare(&x);
        done++;
    }
    koma_position_cleanup(&pos);
    printf("[ ggn-cross ] %-11s %5lu positions (%lu playout, %u random, %u skipped): %lu moves "
           "identical (%lu drops, %lu promotions, %lu captures, %lu kept by privilege; "
           "%lu pawn-drop mates refused)\n",
           id, x.positions, from_playouts, done, rejected, x.moves, x.drops, x.promotions,
           x.captures, x.privilege, x.mates_refused);
    fflush(stdout);
    unsigned long got[9] = {x.positions, from_playouts, x.moves, x.drops, x.promotions, x.captures,
                            x.privilege, rejected, x.mates_refused};
    for (int i = 0; i < 9; i++) {
        if (got[i] != want[i]) print_error("%s: count %d is %lu, expected %lu\n", id, i, got[i], want[i]);
        assert_int_equal(got[i], want[i]);
    }
    free(x.buf);
    free(x.a);
    free(x.b);
    free(x.raw);
    koma_engine_free(x.e);
    koma_ggn_free(ggn);
}

/* Expected counts (fixed seed; they change only when the rules or the seed do):
 * positions, of them from playouts, moves, drops, promotions, captures, King's
 * privilege keeps, random positions skipped (side not to move in check),
 * pawn drops refused as mate by pawn drop. */
static void test_cross_ogi(void **state)
{
    (void)state;
    static const unsigned long want[9] = {3875, 2375, 308537, 148834, 17210, 43018, 832, 0, 0};
    cross_check("ogi", 0, 25, 150, 1500, want);
}

static void test_cross_ogi_classic(void **state)
{
    (void)state;
    static const unsigned long want[9] = {4762, 3262, 241700, 113075, 13789, 31024, 293, 1512, 0};
    cross_check("ogi-classic", 1, 25, 150, 1500, want);
}

static void test_cross_shogi(void **state)
{
    (void)state;
    static const unsigned long want[9] = {5275, 3775, 307323, 141023, 9961, 33466, 0, 1367, 0};
    cross_check("shogi", 1, 25, 150, 1500, want);
}

static void test_cross_minishogi(void **state)
{
    (void)state;
    static const unsigned long want[9] = {5864, 3864, 137837, 68710, 4857, 16288, 0, 1958, 15};
    cross_check("minishogi", 1, 50, 100, 2000, want);
}

static void test_cross_okisaki(void **state)
{
    (void)state;
    static const unsigned long want[9] = {5275, 3775, 374196, 155335, 8023, 26936, 0, 1703, 2};
    cross_check("okisaki", 1, 25, 150, 1500, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ogi_fragments),
        cmocka_unit_test(test_shogi_fragments),
        cmocka_unit_test(test_okisaki_fragments),
        cmocka_unit_test(test_export_errors),
        cmocka_unit_test(test_generate_follows_document),
        cmocka_unit_test(test_generate_rules),
        cmocka_unit_test(test_generate_stop),
        cmocka_unit_test(test_cross_ogi),
        cmocka_unit_test(test_cross_ogi_classic),
        cmocka_unit_test(test_cross_shogi),
        cmocka_unit_test(test_cross_minishogi),
        cmocka_unit_test(test_cross_okisaki),
    };
    return cmocka_run_group_tests(tests, games_setup, games_teardown);
}
