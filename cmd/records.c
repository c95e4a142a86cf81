/* cmd/records.c — reading game records: PCN databases and sniffing what an input
 * holds (see records.h); --start move lines are cmd/records_moves.c's. */
#include "records.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << 16)                   /* bytes read at a time */
#define SNIFF (1u << 16)                   /* bytes looked at to sniff a format */

void record_locate(const record_source *src, const char *pointer, unsigned long *line,
                   unsigned long *column)
{
    unsigned long l, col;
    if (src->locate && pointer && src->locate(src->ctx, pointer, &l, &col) == 0) {
        *line = l;
        *column = col;
    }
}

/* ---- PCN databases ---------------------------------------------------------- */

int records_format_option(cli *c, const char *arg, records_options *o)
{
    if (strcmp(arg, "json") == 0) o->format = KOMA_PCN_JSON;
    else if (strcmp(arg, "yaml") == 0) o->format = KOMA_PCN_YAML;
    else return cli_usage_error(c, "unknown format '%s' (json, yaml)", arg);
    o->format_given = 1;
    return 0;
}

const koma_format *records_format_find(const char *name)
{
    const koma_format *f = koma_format_find(name, strlen(name));
    return f && koma_format_kind_of(f) != KOMA_FORMAT_NOTATION ? f : NULL;
}

int records_from_option(cli *c, const char *arg, records_options *o, int *given)
{
    *given = 1;
    o->from = NULL;
    if (strcmp(arg, "auto") == 0) return 0;
    const koma_format *f = records_format_find(arg);
    if (f == NULL) return cli_usage_error(c, "unknown format '%s' (koma-convert --list)", arg);
    if (!(koma_format_caps(f) & KOMA_FORMAT_READ))
        return cli_usage_error(c, "koma does not read %s (%s)", koma_format_name(f), koma_format_title(f));
    o->from = f;
    return 0;
}

int records_encoding_option(cli *c, const char *arg, records_options *o)
{
    o->encoding = koma_encoding_name(arg, strlen(arg));
    if (o->encoding == NULL)
        return cli_usage_error(c, "--encoding: '%s' is not utf-8, shift_jis, euc-jp, utf-16le, utf-16be or utf-16",
                               arg);
    return 0;
}

static const char *const pcn_formats[] = {"pcn", "yaml", NULL};

const koma_format *records_foreign(const char *s, size_t len, int at_end,
                                   const char *const *own, const char *what,
                                   const records_options *o, koma_error *err)
{
    int conf;
    const koma_format *f = koma_format_detect(s, len, at_end, &conf);
    if (f == NULL || conf < 2) return NULL;
    for (size_t i = 0; own[i]; i++)
        if (strcmp(koma_format_name(f), own[i]) == 0) return NULL;
    char how[96] = "";
    if (!o && (!strcmp(koma_format_name(f), "pcn") || !strcmp(koma_format_name(f), "yaml"))) {
        strcpy(how, "; koma-validate --type pcn checks it");
    } else if (koma_format_caps(f) & KOMA_FORMAT_READ) {
        if (o && o->foreign_hint) {
            strcpy(how, "; try ");
            snprintf(how + 6, sizeof how - 6, o->foreign_hint, koma_format_name(f));
        } else {
            snprintf(how, sizeof how, "; koma-convert --from %s converts it", koma_format_name(f));
        }
    }
    koma_error_clear(err);
    koma_error_set(err, KOMA_E_CONVERT_FORMAT, 0, "this looks like %s (%s), not %s%s",
                   koma_format_name(f), koma_format_title(f), what, how);
    err->line = err->column = 1;
    return f;
}

int records_lines_foreign(cli *c, cli_input *in, const char *what, koma_error *err)
{
    static const char *const own[] = {"feen", NULL};
    const char *head;
    size_t len, want = 256;
    int conf, end;
    /* the first line first: FEEN lines are checked as they come (a pipe is not
     * held up for the whole look); anything else gets the whole look */
    for (;;) {
        if (cli_input_look(c, in, want, &head, &len, &end) != 0) return -1;
        if (end || len >= SNIFF || memchr(head, '\n', len)) break;
        want *= 2;
    }
    const koma_format *f = koma_format_detect(head, len, end, &conf);
    if (f && conf >= 2 && strcmp(koma_format_name(f), "feen") == 0) return 0;
    if (cli_input_look(c, in, SNIFF, &head, &len, &end) != 0) return -1;
    return records_foreign(head, len, end, own, what, NULL, err) != NULL;
}

static int reader_locate(void *reader, const char *pointer, unsigned long *line,
                         unsigned long *column)
{
    return koma_pcn_reader_locate(reader, pointer, line, column);
}

int records_open(cli *c, records_reader *rd, cli_input *in, const records_options *o)
{
    koma_error err;
    koma_error_clear(&err);
    memset(rd, 0, sizeof *rd);
    rd->c = c;
    rd->in = in;
    const char *head;
    size_t headlen;
    if (cli_input_peek(c, in, SNIFF, &head, &headlen) != 0) return -1;
    rd->o = o;
    rd->headlen = headlen < sizeof rd->head ? headlen : sizeof rd->head;
    memcpy(rd->head, head, rd->headlen);
    rd->head_at_end = in->eof && headlen == rd->headlen;
    cli_input_map(in);                     /* a file's pieces fed from its mapping: no copy */
    rd->format = o->format_given ? o->format : KOMA_PCN_YAML;
    rd->chunk = malloc(CHUNK);
    if (o->hub) {                          /* --from */
        koma_format_reader_options ro = o->from_options;
        ro.size = sizeof ro;
        if (o->encoding != NULL) ro.encoding = o->encoding;
        koma_format_reader_new(o->hub, o->from, &ro, &rd->rs, &err);
        if (rd->rs == NULL && err.code != KOMA_E_MEMORY) {
            cli_trouble(c, "%s: %s", koma_code_name(err.code), err.message);
            free(rd->chunk);
            rd->chunk = NULL;
            return -1;
        }
        if (rd->rs && rd->chunk) return 0;
        records_close(rd);
        cli_trouble(c, "memory: out of memory");
        rd->memory = 1;
        return -1;
    }
    koma_pcn_reader_new(rd->format, o->pcn_flags | (o->format_given ? 0 : KOMA_PCN_AUTO),
                                NULL, NULL, &rd->r, &err);
    if (rd->r == NULL || rd->chunk == NULL) {
        records_close(rd);
        cli_trouble(c, "memory: out of memory");
        rd->memory = 1;
        return -1;
    }
    return 0;
}

void records_close(records_reader *rd)
{
    koma_pcn_reader_free(rd->r);
    koma_format_reader_free(rd->rs);
    rd->rs = NULL;
    free(rd->chunk);
    rd->r = NULL;
    rd->chunk = NULL;
}

static int rstream_locate(void *rs, const char *pointer, unsigned long *line,
                          unsigned long *column)
{
    return koma_format_reader_locate(rs, pointer, line, column);
}

/* The input's next piece given to the reader (cli_input_piece: from the file's
 * mapping, or a chunk read). */
static int feed_pcn(void *ctx, const char *s, size_t n)
{
    records_reader *rd = ctx;
    return koma_pcn_reader_feed(rd->r, s, n, rd->feed_err);
}

static int feed_stream(void *ctx, const char *s, size_t n)
{
    records_reader *rd = ctx;
    return koma_format_reader_feed(rd->rs, s, n, rd->feed_err);
}

/* records_next through the hub (--from). */
static int rstream_next(records_reader *rd, record_item *item)
{
    cli *c = rd->c;
    for (;;) {
        koma_error *err = &item->err;
        koma_error_clear(err);
        koma_pcn *p = NULL;
        switch (koma_format_reader_next(rd->rs, &p, err)) {
        case KOMA_PCN_AGAIN: {
            int fed;
            rd->feed_err = err;
            long n = cli_input_piece(c, rd->in, rd->chunk, CHUNK, feed_stream, rd, &fed);
            if (n < 0) break;              /* reported */
            if (n == 0) koma_format_reader_finish(rd->rs);
            else if (fed != 0) {
                cli_trouble(c, "%s: %s", koma_code_name(err->code), err->message);
                rd->memory = err->code == KOMA_E_MEMORY;
                break;
            }
            continue;
        }
        case KOMA_PCN_RECORD: {
            koma_error w;
            if (koma_format_reader_warning(rd->rs, &w)) cli_warning(c, rd->in->name, &w);
            /* written back (--write-outcome) as PCN: in its own PCN format, JSON otherwise */
            koma_pcn_format pf = KOMA_PCN_JSON;
            const koma_format *f = koma_format_reader_format(rd->rs);
            item->format = f && koma_format_pcn(f, &pf) ? pf : KOMA_PCN_JSON;
            item->rec = p;
            item->index = ++rd->records;
            item->src.file = rd->in->name;
            item->src.line = koma_format_reader_line(rd->rs);
            item->src.locate = rstream_locate;
            item->src.ctx = rd->rs;
            item->text = koma_format_reader_text(rd->rs, &item->text_len, &item->text_format);
            return RECORDS_RECORD;
        }
        case KOMA_PCN_INVALID: {
            koma_error w;
            if (koma_format_reader_warning(rd->rs, &w)) cli_warning(c, rd->in->name, &w);
            item->index = ++rd->records;
            item->src.file = rd->in->name;
            item->src.line = err->line;
            return RECORDS_INVALID;
        }
        case KOMA_PCN_END:
            rd->done = 1;
            return RECORDS_END;
        default:
            if ((rd->memory = err->code == KOMA_E_MEMORY)) cli_trouble(c, "memory: out of memory");
            else cli_diag_error(c, CLI_TROUBLE, rd->in->name, err, NULL);
        }
        rd->done = rd->trouble = 1;
        return RECORDS_END;
    }
}

int records_next(records_reader *rd, record_item *item)
{
    cli *c = rd->c;
    memset(item, 0, sizeof *item);
    item->format = rd->format;
    item->reader = rd->r;
    if (rd->done) return RECORDS_END;
    if (rd->rs) return rstream_next(rd, item);
    for (;;) {
        koma_error *err = &item->err;
        koma_error_clear(err);
        switch (koma_pcn_reader_next(rd->r, &item->rec, err)) {
        case KOMA_PCN_AGAIN: {
            int fed;
            rd->feed_err = err;
            long n = cli_input_piece(c, rd->in, rd->chunk, CHUNK, feed_pcn, rd, &fed);
            if (n < 0) break;              /* reported */
            if (n == 0) koma_pcn_reader_finish(rd->r);
            else if (fed != 0) {
                cli_trouble(c, "%s: %s", koma_code_name(err->code), err->message);
                rd->memory = err->code == KOMA_E_MEMORY;
                break;
            }
            continue;
        }
        case KOMA_PCN_RECORD:
            item->index = ++rd->records;
            item->format = koma_pcn_reader_format(rd->r);
            item->src.file = rd->in->name;
            item->src.line = koma_pcn_reader_line(rd->r);
            item->src.locate = reader_locate;
            item->src.ctx = rd->r;
            return RECORDS_RECORD;
        case KOMA_PCN_INVALID:
            item->index = ++rd->records;
            item->format = koma_pcn_reader_format(rd->r);
            item->src.file = rd->in->name;
            item->src.line = err->line;
            /* a first record that is not PCN at all, in an input that looks
             * like another format: say so once, and read no further */
            if (item->index == 1 &&
                records_foreign(rd->head, rd->headlen, rd->head_at_end, pcn_formats, "PCN", rd->o,
                                err) != NULL) {
                item->src.line = 1;
                rd->done = 1;
            }
            return RECORDS_INVALID;
        case KOMA_PCN_END:
            rd->done = 1;
            return RECORDS_END;
        default:
            if ((rd->memory = err->code == KOMA_E_MEMORY)) cli_trouble(c, "memory: out of memory");
            else cli_diag_error(c, CLI_TROUBLE, rd->in->name, err, NULL);
        }
        rd->done = rd->trouble = 1;
        return RECORDS_END;
    }
}

void records_each(cli *c, cli_input *in, const records_options *o, records_fn fn, void *ctx)
{
    records_reader rd;
    record_item item;
    if (records_open(c, &rd, in, o) != 0) return;
    int k;
    while ((k = records_next(&rd, &item)) != RECORDS_END) {
        int stop = fn(ctx, &item);
        koma_pcn_free(item.rec);
        cli_progress_step(c, "records");
        if (stop || cli_stdout_broken(c)) break;
    }
    records_close(&rd);
}

void records_in_step(cli *c, const char *const path[2], const records_options *o,
                     records_pair_fn fn, void *ctx)
{
    cli_input in[2];
    records_reader rd[2];
    int ready = 0;                         /* inputs open, with their records */
    for (; ready < 2; ready++) {
        if (cli_input_open(c, &in[ready], path[ready]) != 0) break;
        if (records_open(c, &rd[ready], &in[ready], o) != 0) {
            cli_input_close(&in[ready]);
            break;
        }
    }
    while (ready == 2) {
        record_item item[2];
        int kind[2];
        for (int i = 0; i < 2; i++) kind[i] = records_next(&rd[i], &item[i]);
        if ((kind[0] == RECORDS_END && kind[1] == RECORDS_END) || rd[0].trouble || rd[1].trouble) {
            koma_pcn_free(item[0].rec);
            koma_pcn_free(item[1].rec);
            break;
        }
        fn(ctx, kind, item, in, rd);
        koma_pcn_free(item[0].rec);
        koma_pcn_free(item[1].rec);
        cli_progress_step(c, "record pairs");
        if (cli_stdout_broken(c)) break;
    }
    for (int i = 0; i < ready; i++) {
        records_close(&rd[i]);
        cli_input_close(&in[i]);
    }
}

/* ---- --type auto ------------------------------------------------------------- */

int records_sniff(cli *c, cli_input *in, const char *const *own, const char *what,
                  koma_input_kind *kind, koma_error *err)
{
    const char *head;
    size_t len;
    int end;
    if (cli_input_look(c, in, SNIFF, &head, &len, &end) != 0) return -1;
    *kind = koma_sniff_input(head, len, end);
    if (*kind == KOMA_INPUT_MORE) {
        /* a JSON document longer than the first look: as much as a line may hold */
        if (cli_input_look(c, in, CLI_LINE_MAX, &head, &len, &end) != 0) return -1;
        *kind = koma_sniff_input(head, len, 1);
    }
    if (*kind == KOMA_INPUT_LINES && records_foreign(head, len, end, own, what, NULL, err)) return 1;
    /* a JSON document that is not PCN is taken for GGN, unless it is another
     * format's JSON (JKF): that is named, not checked as a GGN gone wrong */
    static const char *const own_json[] = {"ggn", "pcn", "yaml", NULL};
    if (*kind == KOMA_INPUT_JSON &&
        records_foreign(head, len, 1, own_json, "a PCN or GGN document", NULL, err))
        return 1;
    return 0;
}
