/*
 * tests/fuzz/stream_checks.h — what the record-format harnesses (fuzz_csa,
 * fuzz_usi) check on koma_format_reader: the input fed in two chunks; every record
 * is a valid PCN record; every invalid one has a located error whose message is one line of text;
 * written back in the format and read again, a record gives the same PCN.
 */
#include "fuzz.h"

static void stream_error(const koma_error *err)
{
    CHECK(err->code != KOMA_OK && err->code != KOMA_E_MEMORY);
    CHECK(err->line >= 1 && err->column >= 1);
    CHECK(err->message[0] != '\0');
    check_text(err->message);
}

/* Read all records of s[0..len) in fmt; call fn on each. Returns the count. */
static size_t stream_read(koma_hub *h, const koma_format *fmt, const char *s, size_t len,
                          void (*fn)(koma_hub *, const koma_format *, koma_pcn *))
{
    koma_error err;
    koma_error_clear(&err);
    koma_format_reader *rs = NULL;
    koma_format_reader_new(h, fmt, NULL, &rs, &err);
    CHECK(rs != NULL);
    size_t half = len / 2, count = 0;
    for (int part = 0; part < 3; part++) {
        if (part == 0) CHECK(koma_format_reader_feed(rs, s, half, &err) == 0);
        else if (part == 1) CHECK(koma_format_reader_feed(rs, s + half, len - half, &err) == 0);
        else koma_format_reader_finish(rs);
        for (;;) {
            koma_pcn *rec = NULL;
            koma_error_clear(&err);
            int rc = koma_format_reader_next(rs, &rec, &err);
            if (rc == KOMA_PCN_AGAIN || rc == KOMA_PCN_END) break;
            CHECK(rc != KOMA_PCN_FATAL);
            koma_error w;
            if (koma_format_reader_warning(rs, &w)) stream_error(&w);   /* located, one line of text */
            if (rc == KOMA_PCN_INVALID) {
                CHECK(rec == NULL);
                stream_error(&err);
                continue;
            }
            CHECK(rec != NULL);
            CHECK(koma_pcn_validate(rec, 0, NULL) == 0);
            count++;
            if (fn) fn(h, fmt, rec);
            koma_pcn_free(rec);
        }
    }
    koma_format_reader_free(rs);
    return count;
}

static koma_pcn *round_trip_first;

static void keep_first(koma_hub *h, const koma_format *fmt, koma_pcn *rec)
{
    (void)h, (void)fmt;
    if (round_trip_first == NULL) koma_pcn_copy(rec, &round_trip_first, NULL);
}

/* The differences a round trip may make: a CSA record read as V2.x (or with
 * no version line) is written back as V3.0 when it needs what only V3.0 has
 * (a time with milliseconds, read leniently from V2 text; a character
 * Shift_JIS cannot hold), and one read as UTF-8 (a declaration V2 does not
 * have, or text valid as UTF-8 only) in Shift_JIS, V2's encoding, when every
 * character fits (fmt_csa.c). Only the source's version and encoding may
 * then differ. */
static int source_form_only(void *ctx, const koma_pcn_member_diff *d)
{
    int *others = ctx;
    if (strcmp(d->pointer, "/meta/source/version") != 0 && strcmp(d->pointer, "/meta/source/encoding") != 0)
        (*others)++;
    return 0;
}

/* A record read from UTF-16 is written in UTF-8: only its source's encoding
 * may differ. */
static int source_encoding_only(void *ctx, const koma_pcn_member_diff *d)
{
    int *others = ctx;
    if (strcmp(d->pointer, "/meta/source/encoding") != 0) (*others)++;
    return 0;
}

static int same_record(const koma_pcn *a, const koma_pcn *b)
{
    if (koma_pcn_equal(a, b)) return 1;
    koma_pcn_value va;
    if (koma_pcn_get(a, "/meta/source/encoding", &va) == KOMA_PCN_STRING && strncmp(va.string, "UTF-16", 6) == 0) {
        koma_pcn_diff d;
        koma_pcn_diff_init(&d);
        int others = 0;
        int rc = koma_pcn_diff_compare(&d, a, b, source_encoding_only, &others, NULL);
        size_t ply = d.ply;
        koma_pcn_diff_cleanup(&d);
        if (rc == 1 && others == 0 && ply == 0) return 1;
    }
    if (koma_pcn_get(a, "/meta/source/version", &va) == KOMA_PCN_STRING && strncmp(va.string, "V2", 2) != 0)
        return 0; /* a V3.0 source comes back as it was; V2 or no version line may not */
    koma_pcn_diff d;
    koma_pcn_diff_init(&d);
    int others = 0;
    int rc = koma_pcn_diff_compare(&d, a, b, source_form_only, &others, NULL);
    size_t ply = d.ply;
    koma_pcn_diff_cleanup(&d);
    return rc == 1 && others == 0 && ply == 0;
}

/* Write rec in fmt, read it back: the same PCN (when it can be written). */
static void round_trip(koma_hub *h, const koma_format *fmt, koma_pcn *rec)
{
    koma_error err;
    koma_format_writer *ws = NULL;
    koma_format_writer_new(h, fmt, 0, &ws, &err);
    CHECK(ws != NULL);
    koma_buffer out = {0};
    if (koma_format_writer_record(ws, rec, &out, &err) == 0) {
        round_trip_first = NULL;
        CHECK(stream_read(h, fmt, out.data, out.len, keep_first) == 1);
        CHECK(round_trip_first != NULL);
        CHECK(same_record(rec, round_trip_first));
        koma_pcn_free(round_trip_first);
        round_trip_first = NULL;
    } else {
        CHECK(err.code != KOMA_OK && err.code != KOMA_E_MEMORY);
        CHECK(out.len == 0);
    }
    koma_buffer_cleanup(&out);
    koma_format_writer_free(ws);
}
