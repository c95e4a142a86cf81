/*
 * tests/unit/test_kifu.c — KIF, KI2 and JKF (lib/fmt_kakinoki.c, lib/fmt_kif.c,
 * lib/fmt_ki2.c, lib/fmt_jkf.c, lib/record_relative.c): random games written in
 * each format read back as the same PCN (KI2's origins found again from the
 * relative marks the writer chose), the handicaps, the encodings (EUC-JP and
 * UTF-16 too, a declaration the bytes contradict) and the columns of Shift_JIS
 * text, the relative marks of hand-made positions, the
 * ending words.
 */
#include <iconv.h>
#include <stdlib.h>

#include "unit.h"

static koma_hub *hub;

static int hub_setup(void **state)
{
    (void)state;
    koma_hub_new(NULL, &hub, NULL);
    return hub ? 0 : -1;
}

static int hub_teardown(void **state)
{
    (void)state;
    koma_hub_free(hub);
    return 0;
}

/* All records of text in format name; *n records; errors into errs (may be NULL). */
static koma_pcn **read_all(const char *name, const char *text, size_t len, size_t *n, koma_error *errs, size_t *nerr)
{
    koma_error err;
    koma_format_reader *rs = NULL;
    koma_format_reader_new(hub, koma_format_find(name, strlen(name)), NULL, &rs, &err);
    assert_non_null(rs);
    assert_int_equal(koma_format_reader_feed(rs, text, len, &err), 0);
    koma_format_reader_finish(rs);
    koma_pcn **out = NULL;
    *n = 0;
    if (nerr) *nerr = 0;
    for (;;) {
        koma_pcn *rec = NULL;
        koma_error_clear(&err);
        int rc = koma_format_reader_next(rs, &rec, &err);
        if (rc == KOMA_PCN_END) break;
        assert_int_not_equal(rc, KOMA_PCN_FATAL);
        assert_int_not_equal(rc, KOMA_PCN_AGAIN);
        if (rc == KOMA_PCN_INVALID) {
            if (errs) errs[(*nerr)++] = err;
            else fail_msg("%s: %lu:%lu: %s: %s", name, err.line, err.column, koma_code_name(err.code), err.message);
            continue;
        }
        out = realloc(out, (*n + 1) * sizeof *out);
        out[(*n)++] = rec;
    }
    koma_format_reader_free(rs);
    return out;
}

static koma_pcn *read_one(const char *name, const char *text)
{
    size_t n;
    koma_pcn **all = read_all(name, text, strlen(text), &n, NULL, NULL);
    assert_int_equal(n, 1);
    koma_pcn *p = all[0];
    free(all);
    return p;
}

/* rec written in format name (flags), into out (cleared first); 0 or -1 with err. */
static int write_as(const char *name, const koma_pcn *rec, unsigned flags, koma_buffer *out, koma_error *err)
{
    koma_format_writer *ws = NULL;
    koma_format_writer_new(hub, koma_format_find(name, strlen(name)), flags, &ws, err);
    assert_non_null(ws);
    out->len = 0;
    int rc = koma_format_writer_record(ws, rec, out, err);
    koma_format_writer_free(ws);
    return rc;
}

/* The moves, setup and ending of a record, as text. */
static void game_text(const koma_pcn *p, char *buf, size_t cap)
{
    size_t len, k = 0;
    const char *feen = koma_pcn_setup_feen(p, &len);
    k += (size_t)snprintf(buf + k, cap - k, "%.*s", (int)len, feen);
    for (size_t i = 0; i < koma_pcn_ply_count(p) && k < cap; i++) {
        const char *s = koma_pcn_ply_pmn(p, i, &len);
        k += (size_t)snprintf(buf + k, cap - k, " %.*s", (int)len, s);
    }
    koma_buffer b = {0};
    koma_error err;
    assert_int_equal(koma_pcn_write(p, KOMA_PCN_JSON, 0, &b, &err), 0);
    const char *o = strstr(b.data, "\"outcome\":");
    if (k < cap) snprintf(buf + k, cap - k, " %s", o ? o : "");
    koma_buffer_cleanup(&b);
}

/* rec written in a format and read back: the same game; written and read
 * again: the same PCN (what the format adds, such as meta.source, included). */
static void expect_round_trip(const char *name, const koma_pcn *rec)
{
    koma_buffer out = {0};
    koma_error err;
    if (write_as(name, rec, 0, &out, &err) != 0) fail_msg("%s: %s: %s", name, koma_code_name(err.code), err.message);
    koma_pcn *back = read_one(name, out.data);
    static char a[1 << 16], b[1 << 16];
    game_text(rec, a, sizeof a);
    game_text(back, b, sizeof b);
    if (strcmp(a, b) != 0) fail_msg("%s does not read back:\n%s\n%s\n%s", name, out.data, a, b);
    if (write_as(name, back, 0, &out, &err) != 0) fail_msg("%s: %s: %s", name, koma_code_name(err.code), err.message);
    koma_pcn *again = read_one(name, out.data);
    if (!koma_pcn_equal(back, again)) fail_msg("%s does not read back the same PCN:\n%s", name, out.data);
    koma_pcn_free(again);
    koma_pcn_free(back);
    koma_buffer_cleanup(&out);
}

/* ---- random games ------------------------------------------------------------------- */

static unsigned long long seed = 20261125;

static unsigned rnd(unsigned n) { return rnd_next(&seed, n); }

/* A random legal game of at most plies plies from feen, as PCN. */
static koma_pcn *random_game(const char *feen, size_t plies)
{
    return random_legal_game(koma_hub_games(hub), feen, plies, &seed, NULL, 0, NULL);
}

static void random_games_read_back(void **state)
{
    (void)state;
    static const char *const starts[] = {
        "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s",
        "lnsgk^gsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S",       /* 香落ち */
        "lnsgk^gsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S",           /* 二枚落ち */
        "4k^4/9/9/9/9/9/9/9/4K^4 2G2S/2b2r S/s",                                   /* a board diagram */
    };
    for (int game = 0; game < 48; game++) {
        koma_pcn *p = random_game(starts[game % 4], 40 + rnd(160));
        expect_round_trip("kif", p);
        expect_round_trip("ki2", p);
        expect_round_trip("jkf", p);
        koma_pcn_free(p);
    }
}

/* ---- handicaps ---------------------------------------------------------------------- */

static void handicaps(void **state)
{
    (void)state;
    static const struct {
        const char *name, *feen;
    } cases[] = {
        {"平手", "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"},
        {"香落ち", "lnsgk^gsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"右香落ち", "1nsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"角落ち", "lnsgk^gsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"飛車落ち", "lnsgk^gsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"飛香落ち", "lnsgk^gsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"二枚落ち", "lnsgk^gsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"三枚落ち", "lnsgk^gsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"四枚落ち", "1nsgk^gsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"五枚落ち", "2sgk^gsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"左五枚落ち", "1nsgk^gs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"六枚落ち", "2sgk^gs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"八枚落ち", "3gk^g3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
        {"十枚落ち", "4k^4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / s/S"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "手合割：%s\n手数----指手--\n", cases[i].name);
        koma_pcn *p = read_one("kif", text);
        size_t len;
        const char *feen = koma_pcn_setup_feen(p, &len);
        assert_int_equal(len, strlen(cases[i].feen));
        assert_memory_equal(feen, cases[i].feen, len);
        /* written back: the name, no diagram */
        koma_buffer out = {0};
        koma_error err;
        assert_int_equal(write_as("kif", p, KOMA_WRITE_UTF8, &out, &err), 0);
        *strchr(text, '\n') = '\0';
        assert_non_null(strstr(out.data, text));
        assert_null(strstr(out.data, "持駒"));
        koma_buffer_cleanup(&out);
        koma_pcn_free(p);
    }
    /* a handicap with no position koma knows needs a diagram */
    koma_error errs[2];
    size_t n, nerr;
    koma_pcn **none = read_all("kif", LIT("手合割：左七枚落ち\n手数----指手--\n"), &n, errs, &nerr);
    assert_int_equal(n, 0);
    assert_int_equal(nerr, 1);
    assert_int_equal(errs[0].code, KOMA_E_KIF_HANDICAP);
    free(none);
}

/* ---- encodings ---------------------------------------------------------------------- */

static char *to_enc(const char *enc, const char *utf8, size_t *len)
{
    iconv_t cd = iconv_open(enc, "UTF-8");
    assert_true(cd != (iconv_t)-1);
    size_t in_left = strlen(utf8), out_left = in_left * 2 + 16;
    char *out = malloc(out_left), *o = out, *in = (char *)utf8;
    assert_true(iconv(cd, &in, &in_left, &o, &out_left) != (size_t)-1);
    iconv_close(cd);
    *len = (size_t)(o - out);
    return out;
}

static char *to_sjis(const char *utf8, size_t *len)
{
    iconv_t cd = iconv_open("CP932", "UTF-8");
    assert_true(cd != (iconv_t)-1);
    size_t in_left = strlen(utf8), out_left = in_left * 2 + 1;
    char *out = malloc(out_left), *o = out, *in = (char *)utf8;
    assert_true(iconv(cd, &in, &in_left, &o, &out_left) != (size_t)-1);
    iconv_close(cd);
    *len = (size_t)(o - out);
    return out;
}

static const char sample[] = "開始日時：2014/10/12 14:46:51\n先手：羽生善治\n手数----指手---------消費時間--\n"
                             "   1 ７六歩(77)   ( 0:02/00:00:02)\n   2 ３四歩(33)   ( 0:05/00:00:05)\n"
                             "   3 投了         ( 0:03/00:00:05)\nまで2手で後手の勝ち\n";

static void encodings(void **state)
{
    (void)state;
    size_t n, sl;
    koma_pcn *utf8 = read_one("kif", sample);
    char bom[sizeof sample + 3] = "\xef\xbb\xbf";
    strcat(bom, sample);
    koma_pcn *withbom = read_one("kif", bom);
    assert_true(koma_pcn_equal(utf8, withbom));
    char *sj = to_sjis(sample, &sl);
    koma_pcn **all = read_all("kif", sj, sl, &n, NULL, NULL);
    assert_int_equal(n, 1);
    /* the same record, but for where it came from */
    koma_buffer a = {0}, b = {0};
    koma_error err;
    assert_int_equal(koma_pcn_write(utf8, KOMA_PCN_JSON, 0, &a, &err), 0);
    assert_int_equal(koma_pcn_write(all[0], KOMA_PCN_JSON, 0, &b, &err), 0);
    assert_non_null(strstr(a.data, "\"encoding\":\"UTF-8\""));
    assert_non_null(strstr(b.data, "\"encoding\":\"Shift_JIS\""));
    char *p = strstr(b.data, "Shift_JIS");
    memcpy(p, "UTF-8\"}}", 8);
    memmove(p + 5, p + 9, strlen(p + 9) + 1);
    assert_string_equal(a.data, b.data);
    /* written back: Shift_JIS for the record read from Shift_JIS */
    koma_buffer out = {0};
    assert_int_equal(write_as("kif", all[0], 0, &out, &err), 0);
    assert_non_null(strstr(out.data, "encoding=Shift_JIS"));
    assert_int_equal(write_as("kif", all[0], KOMA_WRITE_UTF8, &out, &err), 0);
    assert_non_null(strstr(out.data, "先手：羽生善治"));
    koma_buffer_cleanup(&out);
    koma_buffer_cleanup(&a);
    koma_buffer_cleanup(&b);
    koma_pcn_free(all[0]);
    free(all);
    free(sj);
    koma_pcn_free(utf8);
    koma_pcn_free(withbom);
}

/* A stream of text in format name fed chunk bytes at a time, with options;
 * its records (*n) and the warning of the first one (code KOMA_OK: none). */
static koma_pcn **read_chunks(const char *name, const char *text, size_t len, size_t chunk,
                              const koma_format_reader_options *opt, size_t *n, koma_error *warning)
{
    koma_error err;
    koma_format_reader *rs = NULL;
    koma_format_reader_new(hub, koma_format_find(name, strlen(name)), opt, &rs, &err);
    assert_non_null(rs);
    koma_pcn **out = NULL;
    *n = 0;
    koma_error_clear(warning);
    for (size_t at = 0;; at += chunk) {
        if (at < len) assert_int_equal(koma_format_reader_feed(rs, text + at, len - at < chunk ? len - at : chunk, &err), 0);
        else koma_format_reader_finish(rs);
        for (;;) {
            koma_pcn *rec = NULL;
            int rc = koma_format_reader_next(rs, &rec, &err);
            if (rc == KOMA_PCN_END || rc == KOMA_PCN_AGAIN) break;
            if (rc != KOMA_PCN_RECORD) fail_msg("%s: %lu:%lu: %s", name, err.line, err.column, err.message);
            if (*n == 0) koma_format_reader_warning(rs, warning);
            out = realloc(out, (*n + 1) * sizeof *out);
            out[(*n)++] = rec;
        }
        if (at >= len) break;
    }
    koma_format_reader_free(rs);
    return out;
}

static void expect_source(const koma_pcn *p, const char *encoding)
{
    koma_pcn_value v;
    assert_int_equal(koma_pcn_get(p, "/meta/source/encoding", &v), KOMA_PCN_STRING);
    assert_string_equal(v.string, encoding);
}

static void free_all(koma_pcn **all, size_t n)
{
    for (size_t i = 0; i < n; i++) koma_pcn_free(all[i]);
    free(all);
}

/* EUC-JP and UTF-16 read as the UTF-8 text is, fed whole or a byte at a time;
 * a declaration the bytes contradict is not followed, and warned of; the
 * caller's encoding decides; unknown names are refused. */
static void more_encodings(void **state)
{
    (void)state;
    koma_pcn *utf8 = read_one("kif", sample);
    static const struct {
        const char *iconv, *bom, *source;
    } encs[] = {{"EUC-JP", "", "EUC-JP"}, {"UTF-16LE", "\xff\xfe", "UTF-16LE"}, {"UTF-16BE", "\xfe\xff", "UTF-16BE"}};
    for (size_t k = 0; k < sizeof encs / sizeof encs[0]; k++) {
        size_t tl, bl = strlen(encs[k].bom), n;
        char *t = to_enc(encs[k].iconv, sample, &tl);
        char *text = malloc(tl + bl);
        memcpy(text, encs[k].bom, bl);
        memcpy(text + bl, t, tl);
        for (size_t chunk = 1; chunk <= tl + bl; chunk = chunk < 8 ? chunk + 1 : tl + bl) {
            koma_error w;
            koma_pcn **all = read_chunks("kif", text, tl + bl, chunk, NULL, &n, &w);
            assert_int_equal(n, 1);
            assert_int_equal(w.code, KOMA_OK);
            expect_source(all[0], encs[k].source);
            koma_pcn_value a, b;
            assert_int_equal(koma_pcn_get(all[0], "/sides/first/name", &a), KOMA_PCN_STRING);
            assert_int_equal(koma_pcn_get(utf8, "/sides/first/name", &b), KOMA_PCN_STRING);
            assert_string_equal(a.string, b.string);
            assert_int_equal(koma_pcn_ply_count(all[0]), koma_pcn_ply_count(utf8));
            free_all(all, n);
            if (chunk == tl + bl) break;
        }
        /* detected too: --from auto */
        koma_format_reader *rs = NULL;
        koma_format_reader_new(hub, NULL, NULL, &rs, NULL);
        koma_error err;
        koma_pcn *rec = NULL;
        assert_int_equal(koma_format_reader_feed(rs, text, tl + bl, &err), 0);
        koma_format_reader_finish(rs);
        assert_int_equal(koma_format_reader_next(rs, &rec, &err), KOMA_PCN_RECORD);
        assert_string_equal(koma_format_name(koma_format_reader_format(rs)), "kif");
        koma_pcn_free(rec);
        koma_format_reader_free(rs);
        free(text);
        free(t);
    }
    /* declared UTF-8, Shift_JIS bytes: read as Shift_JIS, with a warning at the name */
    static const char declared[] = "#KIF version=2.0 encoding=UTF-8\n";
    char both[sizeof declared + sizeof sample];
    snprintf(both, sizeof both, "%s%s", declared, sample);
    size_t sl, n;
    char *sj = to_sjis(both, &sl);
    koma_error w;
    koma_pcn **all = read_chunks("kif", sj, sl, sl, NULL, &n, &w);
    assert_int_equal(n, 1);
    expect_source(all[0], "Shift_JIS");
    assert_int_equal(w.code, KOMA_E_CONVERT_ENCODING);
    assert_int_equal(w.line, 1);
    assert_int_equal(w.column, 27);
    assert_string_equal(w.message, "the record declares UTF-8, but its bytes are Shift_JIS: read as Shift_JIS");
    free_all(all, n);
    /* the caller's encoding decides: the same bytes as Shift_JIS, no warning */
    koma_format_reader_options opt = KOMA_FORMAT_READER_OPTIONS_INIT;
    opt.encoding = "cp932";
    all = read_chunks("kif", sj, sl, 3, &opt, &n, &w);
    assert_int_equal(n, 1);
    assert_int_equal(w.code, KOMA_OK);
    expect_source(all[0], "Shift_JIS");
    free_all(all, n);
    free(sj);
    /* a UTF-8 byte order mark against a declaration */
    char bom[sizeof sample + 64];
    snprintf(bom, sizeof bom, "\xef\xbb\xbf#KIF encoding=Shift_JIS\n%s", sample);
    all = read_chunks("kif", bom, strlen(bom), strlen(bom), NULL, &n, &w);
    assert_int_equal(n, 1);
    expect_source(all[0], "UTF-8");
    assert_int_equal(w.column, 3 + 15);
    assert_string_equal(w.message, "the record declares Shift_JIS, but its byte order mark says UTF-8: read as UTF-8");
    free_all(all, n);
    /* a lone surrogate in UTF-16 (on line 4, a comment): U+FFFD, and a warning there */
    {
        size_t tl;
        char *t = to_enc("UTF-16LE", "手数----指手--\n   1 ７六歩(77)\n   2 投了\n*x", &tl);
        char *text = malloc(tl + 8);
        memcpy(text, "\xff\xfe", 2);
        memcpy(text + 2, t, tl);
        memcpy(text + 2 + tl, "\x00\xd8\n\x00", 4);
        all = read_chunks("kif", text, tl + 6, 5, NULL, &n, &w);
        assert_int_equal(n, 1);
        assert_int_equal(w.code, KOMA_E_CONVERT_ENCODING);
        assert_int_equal(w.line, 4);
        assert_string_equal(w.message, "a unit that is not UTF-16LE, read as U+FFFD");
        koma_pcn_value v;
        assert_int_equal(koma_pcn_get(all[0], "/outcome/comment", &v), KOMA_PCN_STRING);
        assert_string_equal(v.string, "x\xef\xbf\xbd");
        free_all(all, n);
        free(text);
        free(t);
    }
    /* names */
    assert_string_equal(koma_encoding_name("eucjp", 5), "EUC-JP");
    assert_string_equal(koma_encoding_name("SJIS", 4), "Shift_JIS");
    assert_string_equal(koma_encoding_name("utf-16", 6), "UTF-16");
    assert_null(koma_encoding_name("latin1", 6));
    koma_error err;
    opt.encoding = "latin1";
    assert_int_equal(koma_format_reader_new(hub, NULL, &opt, &(koma_format_reader *){NULL}, &err), -1);
    assert_int_equal(err.code, KOMA_E_CONVERT_ENCODING);
    koma_pcn_free(utf8);
}

/* Columns count the input's bytes: 2 a kanji in Shift_JIS, 3 in UTF-8. */
static void columns(void **state)
{
    (void)state;
    static const char bad[] = "手数----指手--\n   1 ７六歩（77）\n";
    koma_error errs[1];
    size_t n, nerr, sl;
    koma_pcn **none = read_all("kif", bad, strlen(bad), &n, errs, &nerr);
    assert_int_equal(nerr, 1);
    assert_int_equal(errs[0].line, 2);
    assert_int_equal(errs[0].column, 6 + 9);
    free(none);
    char *sj = to_sjis(bad, &sl);
    none = read_all("kif", sj, sl, &n, errs, &nerr);
    assert_int_equal(nerr, 1);
    assert_int_equal(errs[0].code, KOMA_E_KIF_MOVE);
    assert_int_equal(errs[0].line, 2);
    assert_int_equal(errs[0].column, 6 + 6);
    free(none);
    free(sj);
}

/* ---- relative marks ------------------------------------------------------------------ */

/* KI2 text from a FEEN (as a KIF diagram is tedious to type): the plies it
 * reads to, joined by spaces, or the error code's name. */
static void expect_ki2(const char *feen, const char *moves, const char *want)
{
    koma_error err;
    koma_pcn *p = NULL;
    koma_pcn_new(feen, strlen(feen), &p, &err);
    assert_non_null(p);
    koma_buffer bod = {0};
    assert_int_equal(write_as("ki2", p, KOMA_WRITE_UTF8, &bod, &err), 0);
    koma_pcn_free(p);
    char text[4096];
    snprintf(text, sizeof text, "%s%s\n", bod.data, moves);
    koma_buffer_cleanup(&bod);
    koma_error errs[1];
    size_t n, nerr;
    koma_pcn **all = read_all("ki2", text, strlen(text), &n, errs, &nerr);
    char got[512] = "";
    if (nerr) {
        snprintf(got, sizeof got, "%s", koma_code_name(errs[0].code));
    } else {
        assert_int_equal(n, 1);
        for (size_t i = 0; i < koma_pcn_ply_count(all[0]); i++) {
            size_t len;
            const char *s = koma_pcn_ply_pmn(all[0], i, &len);
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%.*s", i ? " " : "", (int)len, s);
        }
        /* and the writer says the same marks again */
        koma_buffer out = {0};
        assert_int_equal(write_as("ki2", all[0], KOMA_WRITE_UTF8, &out, &err), 0);
        const char *m = strstr(out.data, moves[2] == '\xb2' ? "▲" : "△");
        assert_non_null(m);
        char line[512];
        snprintf(line, sizeof line, "%s", m);
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        for (char *c = line; *c; c++)
            if (*c == ' ') memmove(c, c + 1, strlen(c));
        char want_line[512];
        snprintf(want_line, sizeof want_line, "%s", moves);
        for (char *c = want_line; *c; c++)
            if (*c == ' ') memmove(c, c + 1, strlen(c));
        assert_string_equal(line, want_line);
        koma_buffer_cleanup(&out);
        koma_pcn_free(all[0]);
    }
    free(all);
    assert_string_equal(got, want);
}

static void relative_marks(void **state)
{
    (void)state;
    /* three golds behind 5h: 右 直 左, and none is ambiguous */
    const char *golds = "4k^4/9/9/9/9/9/9/9/3GGG1K^1 / S/s";
    expect_ki2(golds, "▲５八金右", "f1-e2");
    expect_ki2(golds, "▲５八金直", "e1-e2");
    expect_ki2(golds, "▲５八金左", "d1-e2");
    expect_ki2(golds, "▲５八金", "convert.move");
    /* 上 寄 引: golds coming up (6i), sideways (4h) and down (5g) to 5h */
    const char *ways = "4k^4/9/9/9/9/9/4G4/5G3/3G4K^ / S/s";
    expect_ki2(ways, "▲５八金上", "d1-e2");
    expect_ki2(ways, "▲５八金寄", "f2-e2");
    expect_ki2(ways, "▲５八金引", "e3-e2");
    /* the second player's right is the first player's left */
    const char *gote = "k^2ggg3/9/9/9/9/9/9/9/8K^ / s/S";
    expect_ki2(gote, "△５二金右", "d9-e8");
    expect_ki2(gote, "△５二金左", "f9-e8");
    expect_ki2(gote, "△５二金直", "e9-e8");
    /* two dragons: 右 and 左, never 直 */
    const char *dragons = "4k^4/9/9/9/9/9/9/8K^/+R7+R / S/s";
    expect_ki2(dragons, "▲５九龍左", "a1-e1");
    expect_ki2(dragons, "▲５九龍右", "i1-e1");
    expect_ki2(dragons, "▲５九龍", "convert.move");
    /* 打: a gold in hand and one on the board that can go there too */
    const char *drop = "4k^4/9/9/9/9/9/9/4G4/8K^ G/ S/s";
    expect_ki2(drop, "▲５七金打", "G*e3");
    expect_ki2(drop, "▲５七金", "e2-e3");
    expect_ki2(drop, "▲１一金", "G*i9");
}

/* ---- endings ------------------------------------------------------------------------ */

static void expect_end(const char *tail, const char *want)
{
    char text[512];
    snprintf(text, sizeof text, "手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n%s", tail);
    koma_error errs[1];
    size_t n, nerr;
    koma_pcn **all = read_all("kif", text, strlen(text), &n, errs, &nerr);
    char got[256];
    if (nerr) {
        snprintf(got, sizeof got, "%s", koma_code_name(errs[0].code));
    } else {
        koma_buffer b = {0};
        koma_error err;
        assert_int_equal(koma_pcn_write(all[0], KOMA_PCN_JSON, 0, &b, &err), 0);
        const char *o = strstr(b.data, "\"outcome\":");
        snprintf(got, sizeof got, "%s", o ? o + 10 : "none");
        got[strlen(got) - (o ? 2 : 0)] = '\0';
        koma_buffer_cleanup(&b);
        expect_round_trip("kif", all[0]);
        expect_round_trip("ki2", all[0]);
        koma_pcn_free(all[0]);
    }
    free(all);
    assert_string_equal(got, want);
}

static void endings(void **state)
{
    (void)state;
    expect_end("   3 投了\n", "{\"result\":\"0-1\",\"status\":\"resignation\",\"ply\":2}");
    expect_end("まで2手で後手の勝ち\n", "{\"result\":\"0-1\",\"status\":\"resignation\",\"ply\":2}");
    expect_end("まで2手で先手の勝ち\n", "kif.end");
    expect_end("   3 反則負け\n", "{\"result\":\"0-1\",\"status\":\"illegalmove\",\"ply\":2}");
    expect_end("まで2手で先手の反則負け\n", "{\"result\":\"0-1\",\"status\":\"illegalmove\",\"ply\":2}");
    expect_end("まで2手で後手の反則負け\n", "{\"result\":\"1-0\",\"status\":\"illegalmove\",\"ply\":2}");
    expect_end("   3 反則勝ち\n", "{\"result\":\"1-0\",\"status\":\"illegalmove\",\"ply\":2}");
    expect_end("   3 切れ負け\n", "{\"result\":\"0-1\",\"status\":\"timelimit\",\"ply\":2}");
    expect_end("まで2手で時間切れにより後手の勝ち\n", "{\"result\":\"0-1\",\"status\":\"timelimit\",\"ply\":2}");
    expect_end("   3 千日手\n", "{\"result\":\"1/2-1/2\",\"status\":\"repetition\",\"ply\":2}");
    expect_end("   3 持将棋\n", "{\"result\":\"1/2-1/2\",\"ply\":2,\"csa\":\"%JISHOGI\"}");
    expect_end("   3 入玉勝ち\n", "{\"result\":\"1-0\",\"ply\":2,\"csa\":\"%KACHI\"}");
    expect_end("   3 詰み\n", "{\"result\":\"0-1\",\"status\":\"checkmate\",\"ply\":2}");
    expect_end("   3 中断\n", "{\"csa\":\"%CHUDAN\"}");
    expect_end("   3 封じ手\n", "{\"text\":\"封じ手\"}");
    expect_end("   3 投了\nまで2手で中断\n", "kif.end");
    expect_end("   3 投了\nまで3手で後手の勝ち\n", "kif.end");
    expect_end("   4 ７六歩(77)\n", "kif.number");
}

/* Time control periods: in koma's 持ち時間 form, else not representable. */
static void periods(void **state)
{
    (void)state;
    koma_error err;
    koma_pcn *p = read_one("pcn", "{\"periods\":[{\"duration_ms\":1500000,\"increment_ms\":10000},{\"duration_ms\":30000,"
                                  "\"plies\":1}],\"sides\":{\"first\":{\"periods\":[{\"duration_ms\":3661000}]}},"
                                  "\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"}}\n");
    koma_buffer out = {0};
    assert_int_equal(write_as("kif", p, 0, &out, &err), 0);
    assert_non_null(strstr(out.data, "持ち時間：各25分+1手10秒加算+秒読み30秒\n"));
    assert_non_null(strstr(out.data, "先手持ち時間：1時間1分1秒\n"));
    koma_pcn *back = read_one("kif", out.data);
    koma_buffer a = {0}, b = {0};
    assert_int_equal(koma_pcn_write(p, KOMA_PCN_JSON, 0, &a, &err), 0);
    assert_int_equal(koma_pcn_write(back, KOMA_PCN_JSON, 0, &b, &err), 0);
    assert_non_null(strstr(b.data, "\"periods\":[{\"duration_ms\":1500000,\"increment_ms\":10000},{\"duration_ms\":30000,\"plies\":1}]"));
    assert_non_null(strstr(b.data, "\"first\":{\"periods\":[{\"duration_ms\":3661000}]}"));
    expect_round_trip("jkf", p);
    koma_pcn_free(back);
    koma_pcn_free(p);
    /* a period of 40 plies has no such form */
    p = read_one("pcn", "{\"periods\":[{\"duration_ms\":60000,\"plies\":40}],"
                        "\"setup\":{\"feen\":\"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s\"}}\n");
    assert_int_equal(write_as("kif", p, 0, &out, &err), -1);
    assert_int_equal(err.code, KOMA_E_CONVERT_UNREPRESENTABLE);
    assert_int_equal(write_as("jkf", p, 0, &out, &err), -1);
    assert_int_equal(err.code, KOMA_E_CONVERT_UNREPRESENTABLE);
    koma_pcn_free(p);
    koma_buffer_cleanup(&a);
    koma_buffer_cleanup(&b);
    koma_buffer_cleanup(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games_read_back),
        cmocka_unit_test(handicaps),
        cmocka_unit_test(encodings),
        cmocka_unit_test(more_encodings),
        cmocka_unit_test(columns),
        cmocka_unit_test(relative_marks),
        cmocka_unit_test(endings),
        cmocka_unit_test(periods),
    };
    return cmocka_run_group_tests(tests, hub_setup, hub_teardown);
}
