/*
 * koma-diff — compare two positions or two game-record databases, like diff(1).
 *
 *   koma-diff --feen A B    the squares, hand counts, styles and side to move
 *                           that differ between two FEEN positions
 *   koma-diff FILE1 FILE2   PCN records compared pairwise (record 1 with record 1,
 *                           ...): every key outside the plies (meta, sides, setup,
 *                           outcome, unknown keys), the annotations of the plies
 *                           both records share, and the first ply where the move
 *                           lists diverge, with the position there
 *
 * Exit status: 0 no difference, 1 a difference, 2 trouble (usage, I/O, an
 * invalid FEEN or record). See man/koma-diff.1.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "records.h"

/* ---- position differences --------------------------------------------------------------- */

enum { D_BOARD, D_SQUARE, D_HAND, D_STYLE, D_TURN };

typedef struct pdiff {
    int type;
    char name[KOMA_CELL_BUF];          /* D_SQUARE: the cell */
    int side;                          /* D_HAND, D_STYLE */
    char piece[KOMA_EPIN_BUF];         /* D_HAND */
    char a[24], b[24];                 /* texts: piece, ".", "off", shape, style, side */
    uint32_t ca, cb;                   /* D_HAND counts */
} pdiff;

typedef struct pdiffs {
    pdiff *items;
    size_t len, cap;
    int failed;                        /* out of memory */
} pdiffs;

static const char *const side_word[2] = {"first", "second"};

static pdiff *pd_add(pdiffs *d, int type)
{
    if (d->len == d->cap) {
        size_t ncap = d->cap ? d->cap * 2 : 32;
        pdiff *ni = realloc(d->items, ncap * sizeof *ni);
        if (ni == NULL) {
            d->failed = 1;
            return NULL;
        }
        d->items = ni;
        d->cap = ncap;
    }
    pdiff *p = &d->items[d->len++];
    memset(p, 0, sizeof *p);
    p->type = type;
    return p;
}

static void shape_text(const koma_shape *s, char *buf, size_t cap)
{
    if (s->ndims == 1) snprintf(buf, cap, "%u", (unsigned)s->size[0]);
    else if (s->ndims == 2) snprintf(buf, cap, "%ux%u", (unsigned)s->size[0], (unsigned)s->size[1]);
    else snprintf(buf, cap, "%ux%ux%u", (unsigned)s->size[0], (unsigned)s->size[1], (unsigned)s->size[2]);
}

static void piece_text(koma_piece p, char *buf)
{
    if (p == KOMA_PIECE_NONE) strcpy(buf, ".");
    else koma_epin_write(p, buf);
}

static int shapes_equal(const koma_shape *a, const koma_shape *b)
{
    if (a->ndims != b->ndims) return 0;
    for (unsigned i = 0; i < a->ndims; i++)
        if (a->size[i] != b->size[i]) return 0;
    return 1;
}

/* The piece on cell c of pos: 1 with *p set, 0 when c is off the board. */
static int piece_at(const koma_position *pos, const koma_cell *c, koma_piece *p)
{
    uint32_t sq;
    if (koma_shape_square(&pos->shape, c, &sq, NULL) != 0) return 0;
    *p = pos->board[sq];
    return 1;
}

static void diff_positions(const koma_position *a, const koma_position *b, pdiffs *d)
{
    pdiff *p;
    if (!shapes_equal(&a->shape, &b->shape)) {
        if ((p = pd_add(d, D_BOARD)) == NULL) return;
        shape_text(&a->shape, p->a, sizeof p->a);
        shape_text(&b->shape, p->b, sizeof p->b);
    }
    if (a->shape.ndims == b->shape.ndims) {
        /* Squares, in FEEN order of the smallest board holding both. */
        koma_shape u = a->shape;
        u.squares = 1;
        for (unsigned i = 0; i < u.ndims; i++) {
            if (b->shape.size[i] > u.size[i]) u.size[i] = b->shape.size[i];
            u.squares *= u.size[i];
        }
        for (uint32_t sq = 0; sq < u.squares; sq++) {
            koma_cell c;
            koma_piece pa = KOMA_PIECE_NONE, pb = KOMA_PIECE_NONE;
            koma_shape_cell(&u, sq, &c);
            int ina = piece_at(a, &c, &pa), inb = piece_at(b, &c, &pb);
            if (ina && inb ? pa == pb : (ina ? pa : pb) == KOMA_PIECE_NONE) continue;
            if ((p = pd_add(d, D_SQUARE)) == NULL) return;
            koma_cell_write(&c, p->name);
            if (ina) piece_text(pa, p->a);
            else strcpy(p->a, "off");
            if (inb) piece_text(pb, p->b);
            else strcpy(p->b, "off");
        }
    }
    for (int s = 0; s < 2; s++) {
        const koma_hand *ha = &a->hands[s], *hb = &b->hands[s];
        size_t i = 0, j = 0;
        /* Both hands are sorted by koma_piece_hand_key: merge them. */
        while (i < ha->len || j < hb->len) {
            koma_piece pc;
            uint32_t ca = 0, cb = 0;
            if (j == hb->len ||
                (i < ha->len && koma_piece_hand_key(ha->items[i].piece) < koma_piece_hand_key(hb->items[j].piece))) {
                pc = ha->items[i].piece;
                ca = ha->items[i++].count;
            } else if (i == ha->len ||
                       koma_piece_hand_key(hb->items[j].piece) < koma_piece_hand_key(ha->items[i].piece)) {
                pc = hb->items[j].piece;
                cb = hb->items[j++].count;
            } else {
                pc = ha->items[i].piece;
                ca = ha->items[i++].count;
                cb = hb->items[j++].count;
            }
            if (ca == cb) continue;
            if ((p = pd_add(d, D_HAND)) == NULL) return;
            p->side = s;
            koma_epin_write(pc, p->piece);
            p->ca = ca;
            p->cb = cb;
        }
    }
    for (int s = 0; s < 2; s++) {
        if (a->style[s] == b->style[s]) continue;
        if ((p = pd_add(d, D_STYLE)) == NULL) return;
        p->side = s;
        snprintf(p->a, sizeof p->a, "%c", a->style[s]);
        snprintf(p->b, sizeof p->b, "%c", b->style[s]);
    }
    if (a->turn != b->turn) {
        if ((p = pd_add(d, D_TURN)) == NULL) return;
        snprintf(p->a, sizeof p->a, "%s", side_word[a->turn]);
        snprintf(p->b, sizeof p->b, "%s", side_word[b->turn]);
    }
}

static int only_turn(const pdiffs *d)
{
    return d->len == 1 && d->items[0].type == D_TURN;
}

static void print_pdiffs_text(const pdiffs *d, const char *indent)
{
    for (size_t i = 0; i < d->len; i++) {
        const pdiff *p = &d->items[i];
        fputs(indent, stdout);
        switch (p->type) {
        case D_BOARD: printf("board: %s -> %s\n", p->a, p->b); break;
        case D_SQUARE: printf("%s: %s -> %s\n", p->name, p->a, p->b); break;
        case D_HAND:
            printf("%s hand %s: %lu -> %lu\n", side_word[p->side], p->piece, (unsigned long)p->ca,
                   (unsigned long)p->cb);
            break;
        case D_STYLE: printf("%s style: %s -> %s\n", side_word[p->side], p->a, p->b); break;
        default: printf("side to move: %s -> %s\n", p->a, p->b); break;
        }
    }
    if (only_turn(d)) printf("%sonly the side to move differs\n", indent);
}

static void print_pdiffs_json(const pdiffs *d)
{
    static const char *const type_name[] = {"board", "square", "hand", "style", "turn"};
    putchar('[');
    for (size_t i = 0; i < d->len; i++) {
        const pdiff *p = &d->items[i];
        printf("%s{\"type\":\"%s\"", i ? "," : "", type_name[p->type]);
        if (p->type == D_SQUARE) printf(",\"square\":\"%s\"", p->name);
        if (p->type == D_HAND || p->type == D_STYLE) printf(",\"side\":\"%s\"", side_word[p->side]);
        if (p->type == D_HAND) {
            printf(",\"piece\":\"%s\",\"a\":%lu,\"b\":%lu}", p->piece, (unsigned long)p->ca,
                   (unsigned long)p->cb);
            continue;
        }
        printf(",\"a\":\"%s\",\"b\":\"%s\"}", p->a, p->b);
    }
    putchar(']');
}

/* ---- state ---------------------------------------------------------------------------------- */

typedef struct state {
    cli *c;
    records_options pcn;               /* --format */
    koma_position pa, pb;              /* scratch positions */
    pdiffs pd;
    char *ptr;                         /* JSON pointer being walked */
    size_t ptrlen, ptrcap;
    /* the pair being compared */
    const char *name[2];
    unsigned long line[2];
    unsigned long record;
    int header;                        /* text header printed for this pair */
    int differs;
    int json_items;                    /* keys printed in the JSON object */
    /* counts */
    unsigned long pairs, same, different, only[2], invalid;
} state;

static int oom(state *st)
{
    cli_trouble(st->c, "memory: out of memory");
    return -1;
}

/* ---- FEEN operands ------------------------------------------------------------------------- */

static int diff_feen(state *st, const char *a, const char *b)
{
    cli *c = st->c;
    const char *arg[2] = {a, b};
    koma_position *pos[2] = {&st->pa, &st->pb};
    for (int i = 0; i < 2; i++) {
        koma_error err;
        koma_error_clear(&err);
        if (koma_feen_parse(arg[i], strlen(arg[i]), KOMA_FEEN_STRICT, pos[i], &err) != 0) {
            err.line = (unsigned long)i + 1;
            cli_diag_error(c, CLI_TROUBLE, "<argument>", &err, NULL);
            return 0;
        }
    }
    st->pd.len = 0;
    diff_positions(&st->pa, &st->pb, &st->pd);
    if (st->pd.failed) return oom(st);
    if (st->pd.len) cli_fail(c, CLI_DATA);
    if (c->quiet) return 0;
    if (c->json) {
        fputs("{\"a\":", stdout);
        cli_json_cstr(stdout, a);
        fputs(",\"b\":", stdout);
        cli_json_cstr(stdout, b);
        printf(",\"same\":%s,\"only_turn\":%s,\"differences\":", st->pd.len ? "false" : "true",
               only_turn(&st->pd) ? "true" : "false");
        print_pdiffs_json(&st->pd);
        fputs("}\n", stdout);
    } else {
        print_pdiffs_text(&st->pd, "");
    }
    return 0;
}

/* ---- records: keys ---------------------------------------------------------------------------- */

static int ptr_push(state *st, const char *key, size_t len, size_t *saved)
{
    size_t need = st->ptrlen + 1 + 2 * len + 1;
    if (need > st->ptrcap) {
        size_t ncap = st->ptrcap ? st->ptrcap : 256;
        while (ncap < need) ncap *= 2;
        char *np = realloc(st->ptr, ncap);
        if (np == NULL) return -1;
        st->ptr = np;
        st->ptrcap = ncap;
    }
    *saved = st->ptrlen;
    st->ptr[st->ptrlen++] = '/';
    for (size_t i = 0; i < len; i++) {
        if (key[i] == '~') { st->ptr[st->ptrlen++] = '~'; st->ptr[st->ptrlen++] = '0'; }
        else if (key[i] == '/') { st->ptr[st->ptrlen++] = '~'; st->ptr[st->ptrlen++] = '1'; }
        else st->ptr[st->ptrlen++] = key[i];
    }
    st->ptr[st->ptrlen] = '\0';
    return 0;
}

static void ptr_pop(state *st, size_t saved)
{
    st->ptrlen = saved;
    st->ptr[saved] = '\0';
}

static int ptr_index(state *st, size_t i, size_t *saved)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%zu", i);
    return ptr_push(st, num, (size_t)n, saved);
}

/* The value at st->ptr of p, as compact JSON. */
static void print_value(state *st, const koma_pcn *p)
{
    koma_pcn_value v;
    switch (koma_pcn_get(p, st->ptr, &v)) {
    case KOMA_PCN_ABSENT: fputs("(absent)", stdout); break;
    case KOMA_PCN_NULL: fputs("null", stdout); break;
    case KOMA_PCN_BOOL: fputs(v.boolean ? "true" : "false", stdout); break;
    case KOMA_PCN_INTEGER: printf("%lld", v.integer); break;
    case KOMA_PCN_REAL: printf("%.17g", v.real); break;
    case KOMA_PCN_STRING: cli_json_string(stdout, v.string, v.len); break;
    case KOMA_PCN_ARRAY: {
        size_t n = v.len, saved;
        putchar('[');
        for (size_t i = 0; i < n; i++) {
            if (i) putchar(',');
            if (ptr_index(st, i, &saved) != 0) break;
            print_value(st, p);
            ptr_pop(st, saved);
        }
        putchar(']');
        break;
    }
    case KOMA_PCN_OBJECT: {
        size_t n = v.len, saved, klen;
        putchar('{');
        for (size_t i = 0; i < n; i++) {
            const char *k = koma_pcn_key(p, st->ptr, i, &klen);
            if (k == NULL) break;
            if (i) putchar(',');
            cli_json_string(stdout, k, klen);
            putchar(':');
            if (ptr_push(st, k, klen, &saved) != 0) break;
            print_value(st, p);
            ptr_pop(st, saved);
        }
        putchar('}');
        break;
    }
    }
}

static void pair_header(state *st)
{
    st->differs = 1;
    if (st->c->quiet || st->c->json || st->header) return;
    st->header = 1;
    printf("--- %s:%lu\n+++ %s:%lu\n", st->name[0], st->line[0], st->name[1], st->line[1]);
}

/* One differing value at st->ptr. */
static void report_key(state *st, const koma_pcn *a, const koma_pcn *b, const pdiffs *setup)
{
    cli *c = st->c;
    koma_pcn_value v;
    pair_header(st);
    if (c->quiet) return;
    if (c->json) {
        fputs(st->json_items++ ? "," : "", stdout);
        fputs("{\"pointer\":", stdout);
        cli_json_cstr(stdout, st->ptr);
        if (koma_pcn_get(a, st->ptr, &v) != KOMA_PCN_ABSENT) {
            fputs(",\"a\":", stdout);
            print_value(st, a);
        }
        if (koma_pcn_get(b, st->ptr, &v) != KOMA_PCN_ABSENT) {
            fputs(",\"b\":", stdout);
            print_value(st, b);
        }
        if (setup) {
            fputs(",\"differences\":", stdout);
            print_pdiffs_json(setup);
        }
        putchar('}');
        return;
    }
    printf("%s: ", st->ptr);
    print_value(st, a);
    fputs(" -> ", stdout);
    print_value(st, b);
    putchar('\n');
    if (setup) print_pdiffs_text(setup, "  ");
}

static int scalar_equal(const koma_pcn_value *x, koma_pcn_type tx, const koma_pcn_value *y,
                        koma_pcn_type ty)
{
    if (tx != ty) return 0;
    switch (tx) {
    case KOMA_PCN_ABSENT:
    case KOMA_PCN_NULL: return 1;
    case KOMA_PCN_BOOL: return !x->boolean == !y->boolean;
    case KOMA_PCN_INTEGER: return x->integer == y->integer;
    case KOMA_PCN_REAL: return x->real == y->real;
    case KOMA_PCN_STRING: return x->len == y->len && memcmp(x->string, y->string, x->len) == 0;
    default: return x->len == 0 && y->len == 0;   /* empty containers */
    }
}

/* Compare the values at st->ptr key by key; `skip` (may be NULL) is a member name
 * of this object left out. Returns -1 when out of memory. */
static int walk(state *st, const koma_pcn *a, const koma_pcn *b, const char *skip)
{
    koma_pcn_value va, vb;
    koma_pcn_type ta = koma_pcn_get(a, st->ptr, &va), tb = koma_pcn_get(b, st->ptr, &vb);
    size_t saved, klen;
    int obj = (ta == KOMA_PCN_OBJECT || ta == KOMA_PCN_ABSENT) &&
              (tb == KOMA_PCN_OBJECT || tb == KOMA_PCN_ABSENT) &&
              ((ta == KOMA_PCN_OBJECT && va.len) || (tb == KOMA_PCN_OBJECT && vb.len));
    int arr = (ta == KOMA_PCN_ARRAY || ta == KOMA_PCN_ABSENT) &&
              (tb == KOMA_PCN_ARRAY || tb == KOMA_PCN_ABSENT) &&
              ((ta == KOMA_PCN_ARRAY && va.len) || (tb == KOMA_PCN_ARRAY && vb.len));
    if (obj) {
        /* A's members in A's order, then B's members A lacks (order is ignored). */
        for (int side = 0; side < 2; side++) {
            const koma_pcn *p = side ? b : a;
            koma_pcn_type tp = side ? tb : ta;
            size_t n = tp == KOMA_PCN_OBJECT ? (side ? vb.len : va.len) : 0;
            for (size_t i = 0; i < n; i++) {
                const char *k = koma_pcn_key(p, st->ptr, i, &klen);
                if (k == NULL) continue;
                if (skip && strlen(skip) == klen && memcmp(skip, k, klen) == 0) continue;
                if (ptr_push(st, k, klen, &saved) != 0) return -1;
                koma_pcn_value tmp;
                int seen = side && koma_pcn_get(a, st->ptr, &tmp) != KOMA_PCN_ABSENT;
                int r = seen ? 0 : walk(st, a, b, NULL);
                ptr_pop(st, saved);
                if (r != 0) return r;
            }
        }
        return 0;
    }
    if (arr) {
        size_t n = ta == KOMA_PCN_ARRAY ? va.len : 0;
        if (tb == KOMA_PCN_ARRAY && vb.len > n) n = vb.len;
        for (size_t i = 0; i < n; i++) {
            if (ptr_index(st, i, &saved) != 0) return -1;
            int r = walk(st, a, b, NULL);
            ptr_pop(st, saved);
            if (r != 0) return r;
        }
        return 0;
    }
    if (scalar_equal(&va, ta, &vb, tb)) return 0;
    /* setup.feen: say what differs in the positions too */
    if (strcmp(st->ptr, "/setup/feen") == 0 && ta == KOMA_PCN_STRING && tb == KOMA_PCN_STRING &&
        koma_feen_parse(va.string, va.len, KOMA_FEEN_STRICT, &st->pa, NULL) == 0 &&
        koma_feen_parse(vb.string, vb.len, KOMA_FEEN_STRICT, &st->pb, NULL) == 0) {
        st->pd.len = 0;
        diff_positions(&st->pa, &st->pb, &st->pd);
        if (st->pd.failed) return -1;
        report_key(st, a, b, &st->pd);
        return 0;
    }
    report_key(st, a, b, NULL);
    return 0;
}

/* ---- records: plies ------------------------------------------------------------------------- */

typedef struct line_pos {
    koma_position *pos;
    int ok;                            /* the position is known */
} line_pos;

static int set_setup(const koma_pcn *p, line_pos *lp)
{
    size_t len;
    const char *feen = koma_pcn_setup_feen(p, &len);
    lp->ok = feen && koma_feen_parse(feen, len, KOMA_FEEN_STRICT, lp->pos, NULL) == 0;
    return lp->ok;
}

/* Parse ply i of p against lp's position (a pieceless drop resolved); 0 or -1. */
static int ply_move(const koma_pcn *p, size_t i, const line_pos *lp, koma_move *m)
{
    size_t len;
    const char *s = koma_pcn_ply_pmn(p, i, &len);
    if (s == NULL || koma_pmn_parse(s, len, m, NULL) != 0) return -1;
    if (lp->ok && (m->kind == KOMA_MOVE_DROP || m->kind == KOMA_MOVE_DROPCAP) &&
        m->piece == KOMA_PIECE_NONE)
        koma_pmn_resolve(lp->pos, m, NULL);
    return 0;
}

static void print_feen_json(const line_pos *lp)
{
    if (!lp->ok) {
        fputs("null", stdout);
        return;
    }
    char buf[KOMA_FEEN_MAX_LEN + 1];
    koma_feen_write(lp->pos, buf, sizeof buf);
    cli_json_cstr(stdout, buf);
}

static void print_feen_text(const line_pos *lp)
{
    char buf[KOMA_FEEN_MAX_LEN + 1];
    if (!lp->ok) {
        fputs("(unknown)", stdout);
        return;
    }
    koma_feen_write(lp->pos, buf, sizeof buf);
    fputs(buf, stdout);
}

typedef struct divergence {
    size_t na, nb;                     /* ply counts */
    size_t ply;                        /* 1-based first differing ply; 0 when none */
    const char *s[2];                  /* its PMN in each record (NULL past the end) */
    size_t l[2];
    line_pos pos[2];                   /* the position before it */
} divergence;

/* Compare the move lists (and the annotations of the plies both share). */
static int diff_plies(state *st, const koma_pcn *a, const koma_pcn *b, divergence *dv)
{
    memset(dv, 0, sizeof *dv);
    dv->na = koma_pcn_ply_count(a);
    dv->nb = koma_pcn_ply_count(b);
    line_pos *la = &dv->pos[0], *lb = &dv->pos[1];
    la->pos = &st->pa;
    lb->pos = &st->pb;
    set_setup(a, la);
    set_setup(b, lb);
    size_t i = 0, saved, saved2;
    for (; i < dv->na && i < dv->nb; i++) {
        koma_move ma, mb;
        int ra = ply_move(a, i, la, &ma), rb = ply_move(b, i, lb, &mb);
        int same;
        if (ra == 0 && rb == 0) {
            same = koma_move_equal(&ma, &mb);
        } else {
            size_t l1, l2;
            const char *s1 = koma_pcn_ply_pmn(a, i, &l1), *s2 = koma_pcn_ply_pmn(b, i, &l2);
            same = s1 && s2 && l1 == l2 && memcmp(s1, s2, l1) == 0;
        }
        if (!same) break;
        /* the same move: compare its other members (elapsed_ms, comment, ...) */
        if (ptr_push(st, "plies", 5, &saved) != 0 || ptr_index(st, i, &saved2) != 0) return -1;
        int r = walk(st, a, b, "pmn");
        ptr_pop(st, saved);
        if (r != 0) return r;
        if (la->ok && (ra != 0 || koma_move_apply(la->pos, &ma, NULL) != 0)) la->ok = 0;
        if (lb->ok && (rb != 0 || koma_move_apply(lb->pos, &mb, NULL) != 0)) lb->ok = 0;
    }
    if (i == dv->na && i == dv->nb) return 0;
    dv->ply = i + 1;
    if (i < dv->na) dv->s[0] = koma_pcn_ply_pmn(a, i, &dv->l[0]);
    if (i < dv->nb) dv->s[1] = koma_pcn_ply_pmn(b, i, &dv->l[1]);
    pair_header(st);
    return 0;
}

static int same_position(const divergence *dv)
{
    return dv->pos[0].ok && dv->pos[1].ok && koma_position_equal(dv->pos[0].pos, dv->pos[1].pos);
}

static void print_divergence_text(const divergence *dv)
{
    if (dv->na != dv->nb) printf("plies: %zu -> %zu\n", dv->na, dv->nb);
    if (dv->ply == 0) return;
    printf("ply %zu: ", dv->ply);
    for (int k = 0; k < 2; k++) {
        if (k) fputs(" -> ", stdout);
        if (dv->s[k]) fwrite(dv->s[k], 1, dv->l[k], stdout);
        else fputs("(end)", stdout);
    }
    fputs("\nposition: ", stdout);
    print_feen_text(&dv->pos[0]);
    if (!same_position(dv)) {
        fputs(" -> ", stdout);
        print_feen_text(&dv->pos[1]);
    }
    putchar('\n');
}

static void print_divergence_json(const divergence *dv)
{
    printf(",\"plies\":{\"a\":%zu,\"b\":%zu", dv->na, dv->nb);
    if (dv->ply) {
        printf(",\"diverge\":{\"ply\":%zu", dv->ply);
        for (int k = 0; k < 2; k++) {
            printf(",\"%s\":", k ? "b" : "a");
            if (dv->s[k]) cli_json_string(stdout, dv->s[k], dv->l[k]);
            else fputs("null", stdout);
        }
        fputs(",\"position\":{\"a\":", stdout);
        print_feen_json(&dv->pos[0]);
        fputs(",\"b\":", stdout);
        print_feen_json(&dv->pos[1]);
        printf("},\"same_position\":%s}", same_position(dv) ? "true" : "false");
    }
    putchar('}');
}

static void json_pair_open(state *st)
{
    printf("{\"record\":%lu,\"a\":{\"file\":", st->record);
    cli_json_cstr(stdout, st->name[0]);
    printf(",\"line\":%lu},\"b\":{\"file\":", st->line[0]);
    cli_json_cstr(stdout, st->name[1]);
    printf(",\"line\":%lu},\"keys\":[", st->line[1]);
}

static void diff_records(state *st, const koma_pcn *a, const koma_pcn *b)
{
    cli *c = st->c;
    divergence dv;
    st->header = 0;
    st->differs = 0;
    st->json_items = 0;
    size_t dummy;
    st->ptrlen = 0;
    if (ptr_push(st, "", 0, &dummy) != 0) {
        oom(st);
        return;
    }
    ptr_pop(st, 0);                    /* "" : the record */
    int json = c->json && !c->quiet;
    if (json) json_pair_open(st);
    int r = walk(st, a, b, "plies");
    if (r == 0) r = diff_plies(st, a, b, &dv);
    if (r != 0) {
        if (json) fputs("]}\n", stdout);
        oom(st);
        return;
    }
    if (json) {
        putchar(']');
        print_divergence_json(&dv);
        printf(",\"same\":%s}\n", st->differs ? "false" : "true");
    } else if (!c->quiet && st->differs) {
        print_divergence_text(&dv);
    }
    if (st->differs) {
        st->different++;
        cli_fail(c, CLI_DATA);
    } else {
        st->same++;
    }
}

/* ---- records: streams ------------------------------------------------------------------------ */

typedef struct stream {
    cli_input in;
    records_reader rd;
    int open, reading;
} stream;

static int stream_open(state *st, stream *s, const char *path)
{
    if (cli_input_open(st->c, &s->in, path) != 0) return -1;
    s->open = 1;
    if (records_open(st->c, &s->rd, &s->in, &st->pcn) != 0) return -1;
    s->reading = 1;
    return 0;
}

static void stream_close(stream *s)
{
    if (s->reading) records_close(&s->rd);
    if (s->open) cli_input_close(&s->in);
    s->open = s->reading = 0;
}

/* The next record of s: RECORDS_RECORD (item->rec), RECORDS_INVALID (reported:
 * an invalid record is trouble here), RECORDS_END. */
static int stream_next(state *st, stream *s, record_item *item)
{
    int k = records_next(&s->rd, item);
    if (k == RECORDS_INVALID) cli_diag_error(st->c, CLI_TROUBLE, s->in.name, &item->err, NULL);
    return k;
}

static void only_in(state *st, int side, const stream *s, unsigned long line)
{
    cli *c = st->c;
    st->only[side]++;
    cli_fail(c, CLI_DATA);
    if (c->quiet) return;
    if (c->json) {
        printf("{\"record\":%lu,\"%s\":{\"file\":", s->rd.records, side ? "b" : "a");
        cli_json_cstr(stdout, s->in.name);
        printf(",\"line\":%lu},\"%s\":null,\"same\":false}\n", line, side ? "a" : "b");
    } else {
        printf("only in %s: record %lu (line %lu)\n", s->in.name, s->rd.records, line);
    }
}

static void diff_files(state *st, const char *p1, const char *p2)
{
    cli *c = st->c;
    stream s[2];
    memset(s, 0, sizeof s);
    if (stream_open(st, &s[0], p1) != 0 || stream_open(st, &s[1], p2) != 0) {
        stream_close(&s[0]);
        stream_close(&s[1]);
        return;
    }
    for (;;) {
        record_item item[2];
        int k[2];
        for (int i = 0; i < 2; i++) k[i] = stream_next(st, &s[i], &item[i]);
        if (k[0] == RECORDS_END && k[1] == RECORDS_END) break;
        st->record = s[0].rd.records > s[1].rd.records ? s[0].rd.records : s[1].rd.records;
        if (k[0] == RECORDS_END || k[1] == RECORDS_END) {
            int side = k[0] == RECORDS_END ? 1 : 0;
            if (k[side] == RECORDS_INVALID) st->invalid++;
            else only_in(st, side, &s[side], item[side].src.line);
        } else if (k[0] == RECORDS_INVALID || k[1] == RECORDS_INVALID) {
            st->invalid++;
        } else {
            st->pairs++;
            st->name[0] = s[0].in.name;
            st->name[1] = s[1].in.name;
            st->line[0] = item[0].src.line;
            st->line[1] = item[1].src.line;
            diff_records(st, item[0].rec, item[1].rec);
        }
        koma_pcn_free(item[0].rec);
        koma_pcn_free(item[1].rec);
        cli_progress_step(c, "record pairs");
        if (cli_stdout_broken(c)) break;
    }
    stream_close(&s[0]);
    stream_close(&s[1]);
}

/* ---- main -------------------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("Usage: koma-diff [OPTION]... FILE1 FILE2\n"
          "       koma-diff [OPTION]... --feen FEEN1 FEEN2\n"
          "Compare two positions, or two PCN databases record by record (record 1 of\n"
          "FILE1 with record 1 of FILE2, and so on; '-' is stdin for one of them).\n"
          "\n"
          "  --feen            the operands are two FEEN strings: print the squares\n"
          "                    (`e4: P -> .`), hand counts (`first hand P: 2 -> 1`),\n"
          "                    styles and side to move that differ\n"
          "  --format F        PCN input is json (JSON Lines) or yaml (a YAML stream);\n"
          "                    by default the first bytes of each file decide\n"
          "  --json            JSON objects on stdout (schemas/koma-diff.schema.json)\n"
          "  -q, --quiet       print nothing; the exit status tells\n"
          "  --summary         end with counts (records)\n"
          "  -h, --help        show this help and exit\n"
          "  --version         show the version and exit\n"
          "\n"
          "Records: each differing pair prints `--- FILE1:LINE` and `+++ FILE2:LINE`, one\n"
          "`/json/pointer: A -> B` line per differing key (plies aside; (absent) when\n"
          "missing), and where the move lists part: `plies: N -> M`, `ply K: PMN -> PMN`\n"
          "((end) past a list's end) and `position: FEEN` before ply K.\n"
          "Progress goes to stderr when it is a terminal.\n"
          "Exit status: 0 no difference, 1 differences, 2 trouble (usage, I/O, invalid\n"
          "input).\n",
          f);
}

int main(int argc, char **argv)
{
    cli c;
    state st;
    int feen = 0, rc;
    cli_init(&c, "koma-diff", usage);
    memset(&st, 0, sizeof st);
    st.c = &c;

    enum { OPT_FEEN = CLI_OPT_OWN, OPT_FORMAT };
    static const struct option longopts[] = {
        {"feen", no_argument, NULL, OPT_FEEN},
        {"format", required_argument, NULL, OPT_FORMAT},
        CLI_OPTION_JSON, CLI_OPTION_SUMMARY,
        CLI_OPTIONS_END,
    };
    int opt;
    while ((opt = cli_getopt(argc, argv, "qh", longopts)) != -1) {
        switch (opt) {
        case OPT_FEEN: feen = 1; break;
        case OPT_FORMAT:
            if ((rc = records_format_option(&c, optarg, &st.pcn)) != 0) return rc;
            break;
        default:
            if ((rc = cli_option(&c, opt, argv)) != CLI_OPTION_TAKEN) return rc;
        }
    }
    koma_position_init(&st.pa);
    koma_position_init(&st.pb);
    rc = 0;
    if (argc - optind != 2) {
        rc = cli_usage_error(&c, "expected two %s, got %d", feen ? "FEEN strings" : "files",
                             argc - optind);
    } else if (feen && st.pcn.format_given) {
        rc = cli_usage_error(&c, "--format is for PCN files, not with --feen");
    } else if (!feen && strcmp(argv[optind], "-") == 0 && strcmp(argv[optind + 1], "-") == 0) {
        rc = cli_usage_error(&c, "only one of the files can be the standard input");
    } else if (feen) {
        diff_feen(&st, argv[optind], argv[optind + 1]);
    } else {
        diff_files(&st, argv[optind], argv[optind + 1]);
        cli_progress_end(&c);
        if (c.summary && !c.quiet) {
            if (c.json)
                printf("{\"summary\":{\"pairs\":%lu,\"same\":%lu,\"different\":%lu,\"only_a\":%lu,"
                       "\"only_b\":%lu,\"invalid\":%lu}}\n",
                       st.pairs, st.same, st.different, st.only[0], st.only[1], st.invalid);
            else
                printf("%lu record %s compared: %lu same, %lu different; %lu only in the first "
                       "file, %lu only in the second; %lu invalid\n",
                       st.pairs, st.pairs == 1 ? "pair" : "pairs", st.same, st.different,
                       st.only[0], st.only[1], st.invalid);
        }
    }
    free(st.pd.items);
    free(st.ptr);
    koma_position_cleanup(&st.pa);
    koma_position_cleanup(&st.pb);
    if (rc) return rc;
    return cli_finish(&c);
}
