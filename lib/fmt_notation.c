/*
 * lib/fmt_notation.c — the notations koma checks one item at a time, in the
 * format registry (koma/format.h, KOMA_FORMAT_CHECK): the NOTATIONs of one
 * token a line (CELL, PIN, EPIN, SIN, SNN, QPI, CGSN) and GGN documents, and
 * the checks of FEEN, FID, PMN and PCN, whose entries are their modules'.
 */
#include <stdlib.h>

#include "format_internal.h"

int koma__check_feen(const char *s, size_t len, koma_error *err)
{
    /* the verdict alone: most valid lines are checked without building a position
     * (lib/feen_quick.c); an invalid line gets the same error as without the flag */
    koma_position pos;
    koma_position_init(&pos);
    int rc = koma_feen_parse(s, len, KOMA_FEEN_STRICT | KOMA_FEEN_CHECK_ONLY, &pos, err);
    koma_position_cleanup(&pos);
    return rc;
}

int koma__check_fid(const char *s, size_t len, koma_error *err) { return koma_fid_parse(s, len, err); }

int koma__check_pmn(const char *s, size_t len, koma_error *err)
{
    koma_chain c;
    return koma_chain_parse(s, len, &c, err);
}

int koma__check_pcn(const char *s, size_t len, koma_error *err)
{
    koma_pcn *rec = NULL;
    koma_pcn_parse_json(s, len, &rec, err);
    koma_pcn_free(rec);
    return rec ? 0 : -1;
}

static int check_ggn(const char *s, size_t len, koma_error *err)
{
    koma_ggn *g = NULL;
    koma_ggn_load(s, len, &g, err);
    koma_ggn_free(g);
    return g ? 0 : -1;
}

static int check_cell(const char *s, size_t len, koma_error *err)
{
    koma_cell cell;
    return koma_cell_parse(s, len, &cell, err);
}

static int check_pin(const char *s, size_t len, koma_error *err)
{
    koma_piece p;
    return koma_pin_parse(s, len, &p, err);
}

static int check_epin(const char *s, size_t len, koma_error *err)
{
    koma_piece p;
    return koma_epin_parse(s, len, &p, err);
}

static int check_sin(const char *s, size_t len, koma_error *err)
{
    char ch;
    return koma_sin_parse(s, len, &ch, err);
}

static int check_snn(const char *s, size_t len, koma_error *err)
{
    char name[KOMA_SNN_MAX_LEN + 1];
    return koma_snn_parse(s, len, name, err);
}

static int check_qpi(const char *s, size_t len, koma_error *err)
{
    koma_qpi q;
    return koma_qpi_parse(s, len, &q, err);
}

static int check_cgsn(const char *s, size_t len, koma_error *err)
{
    koma_status st;
    return koma_cgsn_parse(s, len, &st, err);
}

#define NOTATION(id, nm, ttl, fn, lines)                                                      \
    const koma_format id = {.name = nm, .aliases = "", .title = ttl, .kind = KOMA_FORMAT_NOTATION, \
                            .check = fn, .check_title = ttl, .check_lines = lines}

NOTATION(koma__fmt_cell, "cell", "CELL coordinates", check_cell, 1);
NOTATION(koma__fmt_pin, "pin", "PIN piece identifiers", check_pin, 1);
NOTATION(koma__fmt_epin, "epin", "EPIN piece identifiers", check_epin, 1);
NOTATION(koma__fmt_sin, "sin", "SIN style identifiers", check_sin, 1);
NOTATION(koma__fmt_snn, "snn", "SNN style names", check_snn, 1);
NOTATION(koma__fmt_qpi, "qpi", "QPI qualified piece identifiers", check_qpi, 1);
NOTATION(koma__fmt_cgsn, "cgsn", "CGSN game statuses", check_cgsn, 1);
NOTATION(koma__fmt_ggn, "ggn", "GGN documents (one JSON document per file)", check_ggn, 0);
