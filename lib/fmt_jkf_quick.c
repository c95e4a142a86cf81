/*
 * lib/fmt_jkf_quick.c — a JKF record read in one pass over its text, with no
 * tree (fmt_jkf.h): the tokens from util_json_scan.h, each value put in the
 * record as it is met. The record is the one fmt_jkf.c's tree reader makes,
 * each move with the line and column of its entry as that reader finds them.
 *
 * Read here: the plain JSON forms util_json_scan.h reads, a preset start
 * position ("initial" absent or {"preset": "HIRATE"}, not OTHER), "type" a
 * string, and the members of koma's and other writers' JKF with no null
 * value; an entry's "forks" after its "move". Anything else (another form,
 * an unknown or repeated member, a null, a value out of range, any rule the
 * tree reader enforces) gives 0: the record is reset and left to the tree
 * reader, which reads it or reports its first error. So this pass reports
 * nothing itself, and the order of its checks does not matter.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt_jkf.h"
#include "internal.h"
#include "record_internal.h"
#include "util_json_scan.h"

#define QJ_DEPTH 32u                       /* nesting read here (the limit is 64) */
#define QJ_POINTER 200u                    /* a JSON pointer the tree reader holds whole (256) */

enum { Q_OK = 0, Q_NO = 1, Q_MEM = -1 };

typedef struct qj {
    const char *p, *end, *start;
    unsigned long line;                    /* the record's first line in the input */
    koma_shogi_record *r;
    koma_error *err;
    /* the line of a byte, counted on from the last one asked */
    size_t at;                             /* counted up to here */
    unsigned long ln;                      /* lines before at */
    const char *nl;                        /* the last '\n' before at (start - 1: none) */
} qj;

#define QJ_EXPECT(q, c) ((q)->p < (q)->end && *(q)->p == (c))

static void ws(qj *q) { q->p = koma__jscan_ws(q->p, q->end); }

/* The line and byte column of q->p, as the tree reader gives a move's. */
static void place_of(qj *q, unsigned long *line, unsigned long *col)
{
    size_t off = (size_t)(q->p - q->start);
    if (off < q->at) {
        q->at = 0;
        q->ln = 0;
        q->nl = q->start - 1;
    }
    const char *s = q->start + q->at, *e = q->p;
    while (s < e) {
        const char *n = memchr(s, '\n', (size_t)(e - s));
        if (n == NULL) break;
        q->ln++;
        q->nl = n;
        s = n + 1;
    }
    q->at = off;
    *line = q->ln + q->line;
    *col = (unsigned long)(q->p - q->nl);
}

/* An object's members: *key the next one's name, q->p at its value. 1 while
 * there is one, 0 at the end (q->p past '}'), -1 when the text is not plain. */
static int member(qj *q, int first, const char **key, size_t *n)
{
    ws(q);
    if (first) {
        if (!QJ_EXPECT(q, '{')) return -1;
        q->p++;
        ws(q);
        if (QJ_EXPECT(q, '}')) {
            q->p++;
            return 0;
        }
    } else {
        if (QJ_EXPECT(q, '}')) {
            q->p++;
            return 0;
        }
        if (!QJ_EXPECT(q, ',')) return -1;
        q->p++;
        ws(q);
    }
    if (!QJ_EXPECT(q, '"') || !koma__jscan_string(&q->p, q->end, key, n)) return -1;
    ws(q);
    if (!QJ_EXPECT(q, ':')) return -1;
    q->p++;
    ws(q);
    return 1;
}

/* An array's elements: 1 with q->p at the next one, 0 at the end (q->p past
 * ']'), -1 when the text is not plain. */
static int element(qj *q, int first)
{
    ws(q);
    if (first) {
        if (!QJ_EXPECT(q, '[')) return -1;
        q->p++;
        ws(q);
    } else if (!QJ_EXPECT(q, ']')) {
        if (!QJ_EXPECT(q, ',')) return -1;
        q->p++;
        ws(q);
        return 1;
    }
    if (QJ_EXPECT(q, ']')) {
        q->p++;
        return 0;
    }
    return first ? 1 : -1;
}

#define IS(k, n, lit) ((n) == sizeof(lit) - 1 && memcmp((k), (lit), (n)) == 0)

/* A member name and its length. */
typedef struct qname {
    const char *s;
    size_t n;
} qname;
#define QN(lit) {lit, sizeof(lit) - 1}

/* The index of a member's name in names (at most 16, ended by {NULL, 0}), its
 * bit set in *mask; -1 when it is unknown or repeated. */
static int seen(unsigned *mask, const char *k, size_t n, const qname *names)
{
    for (unsigned i = 0; names[i].s; i++)
        if (names[i].n == n && names[i].s[0] == k[0] && memcmp(names[i].s, k, n) == 0) {
            if (*mask & (1u << i)) return -1;
            *mask |= 1u << i;
            return (int)i;
        }
    return -1;
}

static int str(qj *q, const char **s, size_t *n) { return QJ_EXPECT(q, '"') && koma__jscan_string(&q->p, q->end, s, n); }

static int uint_in(qj *q, uint64_t lo, uint64_t hi, uint64_t *v)
{
    return koma__jscan_uint(&q->p, q->end, v) && *v >= lo && *v <= hi;
}

static int boolean(qj *q, int *b)
{
    char c;
    if (!koma__jscan_word(&q->p, q->end, &c) || c == 'n') return 0;
    *b = c == 't';
    return 1;
}

/* An object of integers: each member one of names, v[i] from lo[i] to hi[i];
 * the members of the mask `required` there. */
static int uints(qj *q, const qname *names, const uint64_t *lo, const uint64_t *hi, unsigned required, uint64_t *v)
{
    unsigned mask = 0;
    const char *k;
    size_t n;
    int more;
    for (int first = 1; (more = member(q, first, &k, &n)) == 1; first = 0) {
        int i = seen(&mask, k, n, names);
        if (i < 0 || !uint_in(q, lo[i], hi[i], &v[i])) return 0;
    }
    return more == 0 && (mask & required) == required;
}

/* {"x": 1-9, "y": 1-9} */
static int square(qj *q, koma_sq *sq)
{
    /* the common form, {"x":D,"y":D} with no space, at once */
    const char *p = q->p;
    if (q->end - p >= 13 && memcmp(p, "{\"x\":", 5) == 0 && p[5] >= '1' && p[5] <= '9' &&
        memcmp(p + 6, ",\"y\":", 5) == 0 && p[11] >= '1' && p[11] <= '9' && p[12] == '}') {
        sq->file = (uint8_t)(p[5] - '0');
        sq->rank = (uint8_t)(p[11] - '0');
        q->p = p + 13;
        return 1;
    }
    static const qname names[] = {QN("x"), QN("y"), {NULL, 0}};
    static const uint64_t lo[] = {1, 1}, hi[] = {9, 9};
    uint64_t v[2];
    if (!uints(q, names, lo, hi, 3u, v)) return 0;
    sq->file = (uint8_t)v[0];
    sq->rank = (uint8_t)v[1];
    return 1;
}

/* {"h": H, "m": M, "s": S} in ms (h may be left out) */
static int clock_of(qj *q, long long *ms)
{
    static const qname names[] = {QN("h"), QN("m"), QN("s"), {NULL, 0}};
    static const uint64_t lo[] = {0, 0, 0}, hi[] = {1000000, 60000000, 59};
    uint64_t v[3] = {0, 0, 0};
    if (!uints(q, names, lo, hi, 6u, v)) return 0;
    *ms = (long long)(((v[0] * 60 + v[1]) * 60 + v[2]) * 1000);
    return 1;
}

/* {"now": {...}, "total": {...}}, both */
static int time_of(qj *q, long long *elapsed, long long *total)
{
    static const qname names[] = {QN("now"), QN("total"), {NULL, 0}};
    unsigned mask = 0;
    const char *k;
    size_t n;
    int more;
    for (int first = 1; (more = member(q, first, &k, &n)) == 1; first = 0) {
        int i = seen(&mask, k, n, names);
        if (i < 0 || !clock_of(q, i == 0 ? elapsed : total)) return 0;
    }
    return more == 0 && mask == 3u;
}

/* ["line", ...] joined into *dst */
static int comments(qj *q, char **dst)
{
    int more;
    for (int first = 1; (more = element(q, first)) == 1; first = 0) {
        const char *s;
        size_t n;
        if (!str(q, &s, &n)) return Q_NO;
        if (koma_shogi_set_text(dst, s, n, 1, q->err) != 0) return Q_MEM;
    }
    return more == 0 ? Q_OK : Q_NO;
}

static const char rel_letters[] = "RLCUDMH";          /* the bits of KOMA_REL_*, in order */

static int move_of(qj *q, koma_shogi_move *m)
{
    static const qname names[] = {QN("color"), QN("from"), QN("to"), QN("piece"), QN("same"),
                                  QN("promote"), QN("capture"), QN("relative"), {NULL, 0}};
    unsigned mask = 0;
    const char *k, *s;
    size_t n, sn;
    int more, b;
    uint64_t v;
    for (int first = 1; (more = member(q, first, &k, &n)) == 1; first = 0) {
        switch (seen(&mask, k, n, names)) {
        case 0:
            if (!uint_in(q, 0, 1, &v)) return 0;
            m->side = v == 0 ? KOMA_FIRST : KOMA_SECOND;
            break;
        case 1: if (!square(q, &m->from)) return 0; break;
        case 2: if (!square(q, &m->to)) return 0; break;
        case 3:
        case 6: {
            if (!str(q, &s, &sn)) return 0;
            koma_piece pc = koma__shogi_piece(s, sn);
            if (pc == KOMA_PIECE_NONE) return 0;
            if (n == 5) m->piece = pc;
            else m->captured = pc;
            break;
        }
        case 4:
            if (!boolean(q, &b)) return 0;
            m->same = b;
            break;
        case 5:
            if (!boolean(q, &b)) return 0;
            m->promote = b ? KOMA_PROMOTE_YES : KOMA_PROMOTE_NO;
            break;
        case 7:
            if (!str(q, &s, &sn)) return 0;
            for (size_t i = 0; i < sn; i++) {
                const char *c = memchr(rel_letters, s[i], sizeof rel_letters - 1);
                unsigned bit = c ? 1u << (c - rel_letters) : 0;
                if (bit == 0 || (m->relative & bit)) return 0;
                m->relative |= bit;
            }
            break;
        default: return 0;
        }
    }
    /* color and piece; to, or same */
    if (more != 0 || (mask & 9u) != 9u || (!(mask & 4u) && !m->same)) return 0;
    if (mask & 2u) {
        if (m->relative & KOMA_REL_DROP) return 0;
    } else if (m->relative == 0 || (m->relative & KOMA_REL_DROP)) {
        if (m->promote == KOMA_PROMOTE_YES) return 0;
        m->drop = 1;
        m->promote = KOMA_PROMOTE_NO;
    }
    return 1;
}

static int read_line(qj *q, koma_shogi_line *line, int top, unsigned depth, size_t plen);

static size_t digits(size_t i)
{
    size_t n = 1;
    while (i >= 10) i /= 10, n++;
    return n;
}

/* Each entry's members as met; what they make is put in the record at its end. */
typedef struct entry {
    const char *special, *ending, *bookmark;
    size_t special_len, ending_len, bookmark_len;
    char *comment;
    long long elapsed, total;
    int has_move, has_time, has_forks;
    size_t stored;                         /* the move's index in its line, once stored */
    koma_shogi_move m;
} entry;

static const qname entry_names[] = {QN("comments"), QN("move"),     QN("time"),   QN("special"),
                                    QN("forks"),    QN("bookmark"), QN("ending"), {NULL, 0}};

/* "forks": [[entries], ...], the move stored first */
static int forks(qj *q, koma_shogi_line *line, entry *e, unsigned depth, size_t plen)
{
    if (e->has_move != 1 || e->special || e->ending || depth + 4 > QJ_DEPTH) return Q_NO;
    e->m.comment = NULL;
    e->m.bookmark = NULL;
    if (koma_shogi_line_push(line, &e->m, q->err) == NULL) return Q_MEM;
    e->stored = line->len - 1;
    e->has_move = 2;
    int more;
    size_t k = 0;
    for (int first = 1; (more = element(q, first)) == 1; first = 0, k++) {
        /* the tree reader finds the places of a fork's moves from its JSON
         * pointer ("/forks/K" after the entry's): only while that is whole */
        size_t fplen = plen + 7 + digits(k);
        if (fplen > QJ_POINTER) return Q_NO;
        koma_shogi_line *fl = koma_shogi_move_add_fork(&line->moves[e->stored], q->err);
        if (fl == NULL) return Q_MEM;
        int rc = read_line(q, fl, 0, depth + 2, fplen);
        if (rc != Q_OK) return rc;
        if (fl->len == 0) return Q_NO;
    }
    return more == 0 ? Q_OK : Q_NO;
}

/* One entry of a line (q->p at its '{'). */
static int read_entry(qj *q, koma_shogi_line *line, int top, size_t i, unsigned depth, size_t plen)
{
    entry e;
    memset(&e, 0, sizeof e);
    koma_shogi_move_init(&e.m);
    place_of(q, &e.m.line, &e.m.column);
    unsigned mask = 0;
    const char *k;
    size_t n;
    int more, rc = Q_NO;
    for (int first = 1; (more = member(q, first, &k, &n)) == 1; first = 0) {
        switch (seen(&mask, k, n, entry_names)) {
        case 0: rc = comments(q, &e.comment); break;
        case 1: e.has_move = 1; rc = move_of(q, &e.m) ? Q_OK : Q_NO; break;
        case 2: e.has_time = 1; rc = time_of(q, &e.elapsed, &e.total) ? Q_OK : Q_NO; break;
        case 3: rc = str(q, &e.special, &e.special_len) ? Q_OK : Q_NO; break;
        case 4: e.has_forks = 1; rc = forks(q, line, &e, depth, plen); break;
        case 5: rc = str(q, &e.bookmark, &e.bookmark_len) ? Q_OK : Q_NO; break;
        case 6: rc = str(q, &e.ending, &e.ending_len) && e.ending_len > 0 ? Q_OK : Q_NO; break;
        default: rc = Q_NO;
        }
        if (rc != Q_OK) goto out;
    }
    rc = Q_NO;
    if (more != 0) goto out;
    int has_end = e.special != NULL || e.ending != NULL;
    if (top && i == 0) {
        /* the setup's comments and bookmark only */
        if (e.has_move || has_end || e.has_forks || e.has_time) goto out;
        q->r->setup_comment = e.comment;
        e.comment = NULL;
        if (e.bookmark && koma_shogi_set_text(&q->r->setup_bookmark, e.bookmark, e.bookmark_len, 0, q->err) != 0)
            rc = Q_MEM;
        else
            rc = Q_OK;
        goto out;
    }
    if (line->end.code != KOMA_SHOGI_ENDING_NONE || (e.has_move != 0) == has_end) goto out;
    if (has_end) {
        koma_shogi_ending *end = &line->end;
        if (e.has_forks) goto out;
        int mover = line->len ? 1 - line->moves[line->len - 1].side : q->r->setup.turn;
        if (e.special) {
            char code[40];
            if (e.special_len + 2 > sizeof code) goto out;
            code[0] = '%';
            memcpy(code + 1, e.special, e.special_len);
            end->code = koma_shogi_ending_from_csa(code, e.special_len + 1, mover);
            if (end->code == KOMA_SHOGI_ENDING_OTHER) goto out;
        } else {
            end->code = KOMA_SHOGI_ENDING_OTHER;
            if (koma_shogi_set_text(&end->text, e.ending, e.ending_len, 0, q->err) != 0) {
                rc = Q_MEM;
                goto out;
            }
        }
        end->line = q->line;
        end->column = 1;
        if (e.has_time) {
            end->elapsed_ms = e.elapsed;
            end->total_ms = e.total;
        }
        end->comment = e.comment;
        e.comment = NULL;
        rc = e.bookmark && koma_shogi_set_text(&end->bookmark, e.bookmark, e.bookmark_len, 0, q->err) != 0 ? Q_MEM
                                                                                                         : Q_OK;
        goto out;
    }
    koma_shogi_move *m = &e.m;
    if (e.has_move == 2) {
        m = &line->moves[e.stored];
    } else {
        e.m.comment = NULL;
        e.m.bookmark = NULL;
        if (koma_shogi_line_push(line, &e.m, q->err) == NULL) {
            rc = Q_MEM;
            goto out;
        }
        m = &line->moves[line->len - 1];
    }
    if (e.has_time) {
        m->elapsed_ms = e.elapsed;
        m->total_ms = e.total;
    }
    m->comment = e.comment;
    e.comment = NULL;
    rc = e.bookmark && koma_shogi_set_text(&m->bookmark, e.bookmark, e.bookmark_len, 0, q->err) != 0 ? Q_MEM : Q_OK;
out:
    free(e.comment);
    return rc;
}

/* The entries of a line of play (top: the record's moves, whose first entry is the setup's). */
static int read_line(qj *q, koma_shogi_line *line, int top, unsigned depth, size_t plen)
{
    int more;
    size_t i = 0;
    for (int first = 1; (more = element(q, first)) == 1; first = 0, i++) {
        if (!QJ_EXPECT(q, '{')) return Q_NO;
        int rc = read_entry(q, line, top, i, depth + 1, plen + 1 + digits(i));
        if (rc != Q_OK) return rc;
    }
    return more == 0 ? Q_OK : Q_NO;
}

/* {"preset": "HIRATE" ...}: not OTHER, no "data" */
static int initial(qj *q, const koma__preset **ps)
{
    const char *k, *s;
    size_t n, sn;
    int more, have = 0;
    for (int first = 1; (more = member(q, first, &k, &n)) == 1; first = 0) {
        if (!IS(k, n, "preset") || have || !str(q, &s, &sn) || IS(s, sn, "OTHER")) return 0;
        have = 1;
        *ps = koma__preset_by_jkf(s, sn);
        if (*ps == NULL) return 0;
    }
    return more == 0 && have;
}

#define QJ_HEADERS 64u                     /* header fields read here */

static int header(qj *q)
{
    const char *k, *v, *keys[QJ_HEADERS];
    size_t n, vn, lens[QJ_HEADERS], nkeys = 0;
    int more;
    for (int first = 1; (more = member(q, first, &k, &n)) == 1; first = 0) {
        if (!str(q, &v, &vn) || nkeys == QJ_HEADERS) return Q_NO;
        for (size_t i = 0; i < nkeys; i++)
            if (lens[i] == n && memcmp(keys[i], k, n) == 0) return Q_NO;      /* repeated */
        keys[nkeys] = k;
        lens[nkeys++] = n;
        if (koma__kif_header_add(q->r, k, n, v, vn, q->err) != 0) return Q_MEM;
    }
    return more == 0 ? Q_OK : Q_NO;
}

/* The record's members as met: "initial" (or the even start) must come before
 * "moves", the one member whose reading needs the start position (the side to
 * move when a line ends at once); the tree reader reads the header, then
 * "initial", then "moves", which gives the same record. */
static int root(qj *q)
{
    static const qname names[] = {QN("header"), QN("initial"), QN("moves"), QN("type"), {NULL, 0}};
    unsigned mask = 0;
    const char *k, *s;
    size_t n, sn;
    int more, rc;
    koma_shogi_record *r = q->r;
    if (koma_shogi_set_text(&r->source_format, "jkf", 3, 0, q->err) != 0) return Q_MEM;
    for (int first = 1; (more = member(q, first, &k, &n)) == 1; first = 0) {
        const koma__preset *ps = koma__preset_by_jkf("HIRATE", 6);
        switch (seen(&mask, k, n, names)) {
        case 0:
            if ((rc = header(q)) != Q_OK) return rc;
            break;
        case 1:
            if ((mask & 4u) || !initial(q, &ps)) return Q_NO;
            if (koma__preset_position(ps, &r->setup, q->err) != 0) return Q_MEM;
            break;
        case 2:
            if (!(mask & 2u) && koma__preset_position(ps, &r->setup, q->err) != 0) return Q_MEM;
            if ((rc = read_line(q, &r->main, 1, 2, 6)) != Q_OK) return rc;
            break;
        case 3:
            if (!str(q, &s, &sn)) return Q_NO;
            break;
        default: return Q_NO;
        }
    }
    ws(q);
    return more == 0 && q->p == q->end && (mask & 4u) ? Q_OK : Q_NO;
}

int koma__jkf_read_quick(const char *s, size_t len, unsigned long line, koma_shogi_record *r, koma_error *err)
{
    size_t skip = len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    qj q = {s + skip, s + len, s + skip, line, r, err, 0, 0, s + skip - 1};
    ws(&q);
    int rc = root(&q);
    if (rc == Q_OK) return 1;
    unsigned long first = r->line;
    koma_shogi_record_reset(r);
    r->line = first;
    return rc == Q_MEM ? -1 : 0;
}
