/*
 * lib/fx_def.c — compiling the rules of an effect game (`engine: effects`) from
 * its YAML definition into a koma__fx_def (fx_internal.h). The layout is in
 * schemas/game.schema.json and koma-formats(5); lib/games/koshogi.yaml is the
 * example. This module knows the shape of the data, never a game: identities
 * are EPIN tokens, sets of them are lists or named classes, and every rule is an
 * entry of a list the engine evaluates.
 *
 * Parameters and rule options: any value may be written `$name`, the value of
 * parameters.name. `options` lists each rule option with its values in order,
 * the first being the default; a value is a mapping of parameters it sets, or
 * `unsupported`. The values in force are the defaults, then the definition's own
 * `rule_options`, then the overrides of the caller (a record's rule options).
 * Choosing an unsupported value is game.option.unsupported, an unknown option
 * game.option.unknown, an unknown value game.option.value: never ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fx_internal.h"
#include "util_yaml.h"

typedef struct param {
    const char *name;                  /* points into the document */
    size_t len;
    yaml_node_t *node;
} param;

#define MAX_PARAMS 128

typedef struct defctx {
    koma__ydoc y;
    koma__fx_def *d;
    yaml_node_t *root;
    param params[MAX_PARAMS];          /* later entries win */
    size_t nparams;
    yaml_node_t *class_nodes[KOMA__FX_MAX_CLASSES];
    size_t bad;                        /* the caller's option at fault (its index) */
} defctx;

#define ERR(c, n, code, ...) koma__y_error(&(c)->y, (n), (code), __VA_ARGS__)

/* ---- parameters -------------------------------------------------------------------- */

static int add_param(defctx *c, yaml_node_t *key, yaml_node_t *value)
{
    if (c->nparams == MAX_PARAMS) return ERR(c, key, KOMA_E_GAME_LIMIT, "more than %d parameter settings", MAX_PARAMS);
    c->params[c->nparams].name = koma__y_sval(key);
    c->params[c->nparams].len = koma__y_slen(key);
    c->params[c->nparams].node = value;
    c->nparams++;
    return 0;
}

/* n, or the parameter it names ($name). NULL stays NULL. */
static yaml_node_t *val(defctx *c, yaml_node_t *n, int *bad)
{
    if (!koma__y_is_scalar(n) || koma__y_slen(n) < 2 || koma__y_sval(n)[0] != '$' ||
        n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return n;
    const char *name = koma__y_sval(n) + 1;
    size_t len = koma__y_slen(n) - 1;
    for (size_t i = c->nparams; i-- > 0;)
        if (c->params[i].len == len && memcmp(c->params[i].name, name, len) == 0)
            return c->params[i].node;
    char q[64];
    koma_quote(q, sizeof q, name, len);
    ERR(c, n, KOMA_E_GAME_FIELD, "unknown parameter \"%s\"", q);
    *bad = 1;
    return NULL;
}

/* The value of key in map, parameters resolved; *bad set on an unknown parameter. */
static yaml_node_t *get(defctx *c, yaml_node_t *map, const char *key, int *bad)
{
    yaml_node_t *n = koma__y_get(&c->y, map, key);
    return n ? val(c, n, bad) : NULL;
}

#define GET(c, map, key, out)                                                             \
    do {                                                                                  \
        int bad_ = 0;                                                                     \
        (out) = get((c), (map), (key), &bad_);                                            \
        if (bad_) return -1;                                                              \
    } while (0)

/* ---- identities and sets ----------------------------------------------------------- */

int koma__fx_id_of(const koma__fx_def *d, koma_piece p)
{
    koma_piece key = (koma_piece)(p & ~KOMA_PIECE_SECOND);
    for (unsigned i = 0; i < d->nids; i++)
        if (d->ids[i].token == key) return (int)i;
    return -1;
}

static int class_of(const defctx *c, const yaml_node_t *n)
{
    if (!koma__y_is_scalar(n)) return -1;
    for (unsigned i = 0; i < c->d->nclasses; i++)
        if (koma__y_scalar_is(n, c->d->class_name[i])) return (int)i;
    return -1;
}

static int read_set_depth(defctx *c, yaml_node_t *n, const char *what, koma__fx_ids out, int depth);

/* One item of a set: a class name (its members) or a first-player token. */
static int read_set_item(defctx *c, yaml_node_t *n, const char *what, koma__fx_ids out, int depth)
{
    int bad = 0;
    n = val(c, n, &bad);
    if (bad) return -1;
    int k = class_of(c, n);
    if (k >= 0) {
        if (depth > 4) return ERR(c, n, KOMA_E_GAME_FIELD, "%s: classes nest too deep", what);
        return read_set_depth(c, c->class_nodes[k], what, out, depth + 1);
    }
    koma_piece p;
    if (!koma__y_is_scalar(n) || koma_epin_parse(koma__y_sval(n), koma__y_slen(n), &p, NULL) != 0 ||
        (p & KOMA_PIECE_SECOND)) {
        char q[32];
        koma_quote(q, sizeof q, koma__y_is_scalar(n) ? koma__y_sval(n) : "", koma__y_is_scalar(n) ? koma__y_slen(n) : 0);
        return ERR(c, n, KOMA_E_GAME_PIECE, "%s: \"%s\" is neither a class nor a first-player token", what, q);
    }
    int id = koma__fx_id_of(c->d, p);
    if (id < 0) {
        char q[32];
        koma_quote(q, sizeof q, koma__y_sval(n), koma__y_slen(n));
        return ERR(c, n, KOMA_E_GAME_PIECE, "%s: \"%s\" is not a piece of the game", what, q);
    }
    koma__fx_add(out, (unsigned)id);
    return 0;
}

static int read_set_depth(defctx *c, yaml_node_t *n, const char *what, koma__fx_ids out, int depth)
{
    int bad = 0;
    n = val(c, n, &bad);
    if (bad) return -1;
    if (n == NULL) return ERR(c, c->root, KOMA_E_GAME_FIELD, "%s: missing", what);
    if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            if (read_set_item(c, koma__y_node(&c->y, *it), what, out, depth) != 0) return -1;
        return 0;
    }
    return read_set_item(c, n, what, out, depth);
}

/* A set: a list of tokens and class names, or one of them. */
static int read_set(defctx *c, yaml_node_t *n, const char *what, koma__fx_ids out)
{
    out[0] = out[1] = 0;
    return read_set_depth(c, n, what, out, 0);
}

/* An optional set member of a mapping. */
static int get_set(defctx *c, yaml_node_t *map, const char *key, koma__fx_ids out, int *present)
{
    yaml_node_t *n;
    GET(c, map, key, n);
    out[0] = out[1] = 0;
    if (present) *present = n != NULL;
    if (n == NULL) return 0;
    return read_set(c, n, key, out);
}

static int get_bool(defctx *c, yaml_node_t *map, const char *key, int dflt, int *out)
{
    yaml_node_t *n;
    GET(c, map, key, n);
    *out = dflt;
    if (n == NULL) return 0;
    return koma__y_bool(&c->y, n, key, out);
}

static int get_uint(defctx *c, yaml_node_t *map, const char *key, unsigned lo, unsigned hi,
                    unsigned dflt, unsigned *out)
{
    yaml_node_t *n;
    GET(c, map, key, n);
    *out = dflt;
    if (n == NULL) return 0;
    return koma__y_uint(&c->y, n, key, lo, hi, out);
}

/* A scalar among names (NULL-terminated) into *out (its index). */
static int get_enum(defctx *c, yaml_node_t *map, const char *key, const char *const *names,
                    int dflt, int *out)
{
    yaml_node_t *n;
    GET(c, map, key, n);
    *out = dflt;
    if (n == NULL) return 0;
    for (int i = 0; names[i]; i++)
        if (koma__y_scalar_is(n, names[i])) {
            *out = i;
            return 0;
        }
    char list[160] = "";
    for (int i = 0; names[i]; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    return ERR(c, n, KOMA_E_GAME_FIELD, "%s must be one of %s", key, list);
}

/* ---- options -------------------------------------------------------------------------- */

/* Apply the parameter settings of an option value node (a mapping) or fail for
 * `unsupported`. at: the node an error points at. */
static int apply_value(defctx *c, yaml_node_t *setting, yaml_node_t *at, const char *opt,
                       const char *value)
{
    if (koma__y_scalar_is(setting, "unsupported"))
        return ERR(c, at, KOMA_E_GAME_OPTION_UNSUPPORTED,
                   "rule option %s: %s is not supported by koma", opt, value);
    if (setting->type != YAML_MAPPING_NODE)
        return ERR(c, setting, KOMA_E_GAME_FIELD,
                   "options: a value is a mapping of parameters, or unsupported");
    for (yaml_node_pair_t *p = setting->data.mapping.pairs.start; p < setting->data.mapping.pairs.top; p++) {
        yaml_node_t *k = koma__y_node(&c->y, p->key);
        if (!koma__y_is_scalar(k)) return ERR(c, k, KOMA_E_GAME_FIELD, "options: a parameter name must be a scalar");
        if (koma__y_get(&c->y, koma__y_get(&c->y, c->root, "parameters"), koma__y_sval(k)) == NULL) {
            char q[64];
            koma_quote(q, sizeof q, koma__y_sval(k), koma__y_slen(k));
            return ERR(c, k, KOMA_E_GAME_FIELD, "options: unknown parameter \"%s\"", q);
        }
        if (add_param(c, k, koma__y_node(&c->y, p->value)) != 0) return -1;
    }
    return 0;
}

static koma__fx_option *option_named(koma__fx_def *d, const char *name, size_t len)
{
    for (unsigned i = 0; i < d->noptions; i++)
        if (strlen(d->options[i].name) == len && memcmp(d->options[i].name, name, len) == 0)
            return &d->options[i];
    return NULL;
}

/* The value node `value` of option `o` (its mapping), or NULL. */
static yaml_node_t *option_value(defctx *c, yaml_node_t *o, const char *value, size_t len,
                                 yaml_node_t **key)
{
    for (yaml_node_pair_t *p = o->data.mapping.pairs.start; p < o->data.mapping.pairs.top; p++) {
        yaml_node_t *k = koma__y_node(&c->y, p->key);
        if (koma__y_is_scalar(k) && koma__y_slen(k) == len && memcmp(koma__y_sval(k), value, len) == 0) {
            if (key) *key = k;
            return koma__y_node(&c->y, p->value);
        }
    }
    return NULL;
}

/* Choose `value` for option `name` (len-counted strings); at: where errors point
 * (NULL: the caller's override, offset 0). */
static int choose(defctx *c, const char *name, size_t nlen, const char *value, size_t vlen,
                  yaml_node_t *at)
{
    koma__fx_def *d = c->d;
    char qn[64], qv[64];
    koma_quote(qn, sizeof qn, name, nlen);
    koma_quote(qv, sizeof qv, value, vlen);
    koma__fx_option *o = option_named(d, name, nlen);
    if (o == NULL) {
        if (at) return ERR(c, at, KOMA_E_GAME_OPTION_UNKNOWN, "no rule option \"%s\"", qn);
        return koma_error_set(c->y.err, KOMA_E_GAME_OPTION_UNKNOWN, 0, "no rule option \"%s\"", qn);
    }
    yaml_node_t *opts = koma__y_get(&c->y, c->root, "options");
    yaml_node_t *on = koma__y_get(&c->y, opts, o->name);
    if (option_value(c, on, value, vlen, NULL) == NULL) {
        if (at) return ERR(c, at, KOMA_E_GAME_OPTION_VALUE, "rule option %s has no value \"%s\"", qn, qv);
        return koma_error_set(c->y.err, KOMA_E_GAME_OPTION_VALUE, 0,
                              "rule option %s has no value \"%s\"", qn, qv);
    }
    if (vlen + 1 > sizeof o->value) return ERR(c, at, KOMA_E_GAME_LIMIT, "option value too long");
    memcpy(o->value, value, vlen);
    o->value[vlen] = '\0';
    return 0;
}

static int read_options(defctx *c, const char *const *overrides, size_t nover)
{
    koma__fx_def *d = c->d;
    yaml_node_t *params = koma__y_get(&c->y, c->root, "parameters");
    if (params != NULL) {
        if (params->type != YAML_MAPPING_NODE) return ERR(c, params, KOMA_E_GAME_FIELD, "parameters must be a mapping");
        for (yaml_node_pair_t *p = params->data.mapping.pairs.start; p < params->data.mapping.pairs.top; p++) {
            yaml_node_t *k = koma__y_node(&c->y, p->key);
            if (!koma__y_is_scalar(k)) return ERR(c, k, KOMA_E_GAME_FIELD, "parameters: names must be scalars");
            if (add_param(c, k, koma__y_node(&c->y, p->value)) != 0) return -1;
        }
    }
    yaml_node_t *opts = koma__y_get(&c->y, c->root, "options");
    if (opts != NULL) {
        if (opts->type != YAML_MAPPING_NODE) return ERR(c, opts, KOMA_E_GAME_FIELD, "options must be a mapping");
        for (yaml_node_pair_t *p = opts->data.mapping.pairs.start; p < opts->data.mapping.pairs.top; p++) {
            yaml_node_t *k = koma__y_node(&c->y, p->key), *v = koma__y_node(&c->y, p->value);
            if (!koma__y_is_scalar(k) || koma__y_slen(k) + 1 > sizeof d->options[0].name)
                return ERR(c, k, KOMA_E_GAME_FIELD, "options: an option name is a short scalar");
            if (v->type != YAML_MAPPING_NODE || v->data.mapping.pairs.top == v->data.mapping.pairs.start)
                return ERR(c, v, KOMA_E_GAME_FIELD, "options: an option maps its values to parameters");
            if (d->noptions == KOMA__FX_MAX_OPTIONS)
                return ERR(c, k, KOMA_E_GAME_LIMIT, "more than %d rule options", KOMA__FX_MAX_OPTIONS);
            koma__fx_option *o = &d->options[d->noptions++];
            memcpy(o->name, koma__y_sval(k), koma__y_slen(k) + 1);
            yaml_node_t *first = koma__y_node(&c->y, v->data.mapping.pairs.start->key);
            if (!koma__y_is_scalar(first) || koma__y_slen(first) + 1 > sizeof o->value)
                return ERR(c, first, KOMA_E_GAME_FIELD, "options: a value is a short scalar");
            memcpy(o->value, koma__y_sval(first), koma__y_slen(first) + 1);
            if (koma__y_scalar_is(koma__y_node(&c->y, v->data.mapping.pairs.start->value), "unsupported"))
                return ERR(c, first, KOMA_E_GAME_FIELD, "options: the default of %s must be supported", o->name);
        }
    }
    /* the definition's own choices, then the caller's */
    yaml_node_t *ro = koma__y_get(&c->y, c->root, "rule_options");
    if (ro != NULL) {
        if (ro->type != YAML_MAPPING_NODE) return ERR(c, ro, KOMA_E_GAME_FIELD, "rule_options must be a mapping");
        for (yaml_node_pair_t *p = ro->data.mapping.pairs.start; p < ro->data.mapping.pairs.top; p++) {
            yaml_node_t *k = koma__y_node(&c->y, p->key), *v = koma__y_node(&c->y, p->value);
            if (!koma__y_is_scalar(k) || !koma__y_is_scalar(v))
                return ERR(c, k, KOMA_E_GAME_FIELD, "rule_options: option: value");
            if (choose(c, koma__y_sval(k), koma__y_slen(k), koma__y_sval(v), koma__y_slen(v), v) != 0)
                return -1;
        }
    }
    for (size_t i = 0; i < nover; i++) {
        const char *eq = strchr(overrides[i], '=');
        if (eq == NULL) {
            c->bad = i;
            return koma_error_set(c->y.err, KOMA_E_GAME_OPTION_VALUE, 0,
                                  "a rule option is NAME=VALUE: \"%s\"", overrides[i]);
        }
        if (choose(c, overrides[i], (size_t)(eq - overrides[i]), eq + 1, strlen(eq + 1), NULL) != 0) {
            c->bad = i;
            return -1;
        }
    }
    /* the parameters each chosen value sets */
    for (unsigned i = 0; i < d->noptions; i++) {
        yaml_node_t *on = koma__y_get(&c->y, opts, d->options[i].name), *key = NULL;
        yaml_node_t *setting = option_value(c, on, d->options[i].value, strlen(d->options[i].value), &key);
        if (apply_value(c, setting, key, d->options[i].name, d->options[i].value) != 0) {
            if (c->y.err && c->y.err->code == KOMA_E_GAME_OPTION_UNSUPPORTED) {
                /* point at the choice: the definition's rule_options, or the caller */
                yaml_node_t *chosen = koma__y_get(&c->y, ro, d->options[i].name);
                if (chosen) ERR(c, chosen, KOMA_E_GAME_OPTION_UNSUPPORTED,
                                "rule option %s: %s is not supported by koma", d->options[i].name,
                                d->options[i].value);
                else {
                    koma_error_set(c->y.err, KOMA_E_GAME_OPTION_UNSUPPORTED, 0,
                                   "rule option %s: %s is not supported by koma",
                                   d->options[i].name, d->options[i].value);
                    c->y.err->source = c->y.source;
                    /* the caller's last setting of it is the one that counts */
                    size_t nl = strlen(d->options[i].name);
                    for (size_t k = 0; k < nover; k++)
                        if (strncmp(overrides[k], d->options[i].name, nl) == 0 && overrides[k][nl] == '=')
                            c->bad = k;
                }
            }
            return -1;
        }
    }
    return 0;
}

/* ---- pieces ------------------------------------------------------------------------- */

static const char *const piece_keys[] = {
    "token", "name", "betza", "promotes_to", "captures", "shoot", "legs", "path", "burns",
    "also", NULL};

/* Pass 1: the tokens (so that sets can name them). */
static int read_tokens(defctx *c, yaml_node_t *pieces)
{
    koma__fx_def *d = c->d;
    if (pieces == NULL || pieces->type != YAML_SEQUENCE_NODE ||
        pieces->data.sequence.items.top == pieces->data.sequence.items.start)
        return ERR(c, pieces ? pieces : c->root, KOMA_E_GAME_FIELD, "pieces must be a non-empty list");
    for (yaml_node_item_t *it = pieces->data.sequence.items.start; it < pieces->data.sequence.items.top; it++) {
        yaml_node_t *n = koma__y_node(&c->y, *it);
        if (koma__y_check_keys(&c->y, n, "piece", piece_keys) != 0) return -1;
        if (d->nids == KOMA__FX_MAX_IDS) return ERR(c, n, KOMA_E_GAME_LIMIT, "more than %d pieces", KOMA__FX_MAX_IDS);
        yaml_node_t *t;
        GET(c, n, "token", t);
        if (t == NULL) return ERR(c, n, KOMA_E_GAME_FIELD, "piece: missing \"token\"");
        koma_piece p;
        if (!koma__y_is_scalar(t) || koma_epin_parse(koma__y_sval(t), koma__y_slen(t), &p, NULL) != 0 ||
            (p & KOMA_PIECE_SECOND))
            return ERR(c, t, KOMA_E_GAME_PIECE, "piece: the token is a first-player EPIN (\"K^\", \"+T'\")");
        if (koma__fx_id_of(d, p) >= 0) return ERR(c, t, KOMA_E_GAME_PIECE, "duplicate piece token");
        koma__fx_id *id = &d->ids[d->nids++];
        memset(id, 0, sizeof *id);
        id->token = p;
        id->promotes_to = -1;
        id->demotes_to = -1;
        id->capture_class = -1;
        yaml_node_t *nm;
        GET(c, n, "name", nm);
        if (nm && koma__y_str(&c->y, nm, "name", id->name, sizeof id->name) != 0) return -1;
    }
    return 0;
}

/* Movement of a Betza string into the identity's vectors and pairs. */
static int read_betza(defctx *c, yaml_node_t *n, koma__fx_vec *vecs, uint8_t *nv, size_t vcap,
                      koma__fx_pair *pairs, uint16_t *np, size_t pcap)
{
    char s[KOMA_BETZA_MAX_LEN + 1];
    if (koma__y_str(&c->y, n, "betza", s, sizeof s) != 0) return -1;
    koma_error be;
    koma_error_clear(&be);
    size_t a = 0, b = 0;
    koma__fx_vec tv[KOMA__FX_MAX_VECS];
    koma__fx_pair tp[KOMA__FX_MAX_PAIRS];
    if (koma__betza_parse_ex(s, strlen(s), tv, KOMA__FX_MAX_VECS, &a, tp, KOMA__FX_MAX_PAIRS, &b, &be) != 0) {
        ERR(c, n, be.code, "betza \"%s\": %s", s, be.message);
        if (c->y.err && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
            c->y.err->column += (unsigned long)be.offset;
            c->y.err->offset += be.offset;
        }
        return -1;
    }
    for (size_t i = 0; i < a; i++) {
        if (*nv >= vcap) return ERR(c, n, KOMA_E_GAME_LIMIT, "too many moves");
        vecs[(*nv)++] = tv[i];
    }
    for (size_t i = 0; i < b; i++) {
        if (pairs == NULL || *np >= pcap) return ERR(c, n, pairs ? KOMA_E_GAME_LIMIT : KOMA_E_BETZA_UNSUPPORTED,
                                                     pairs ? "too many two-leg moves" : "two-leg moves are not allowed here");
        pairs[(*np)++] = tp[i];
    }
    return 0;
}

/* legs: {first: BETZA, then: BETZA, shoot: each}: every second leap from every first. */
static int read_legs(defctx *c, koma__fx_id *id, yaml_node_t *n)
{
    static const char *const keys[] = {"first", "then", "shoot", NULL};
    if (koma__y_check_keys(&c->y, n, "legs", keys) != 0) return -1;
    yaml_node_t *f, *t, *sh;
    GET(c, n, "first", f);
    GET(c, n, "then", t);
    GET(c, n, "shoot", sh);
    if (f == NULL || t == NULL) return ERR(c, n, KOMA_E_GAME_FIELD, "legs: first and then are required");
    koma__fx_vec v1[KOMA__FX_MAX_VECS], v2[KOMA__FX_MAX_VECS];
    uint8_t n1 = 0, n2 = 0;
    uint16_t np = 0;
    if (read_betza(c, f, v1, &n1, KOMA__FX_MAX_VECS, NULL, &np, 0) != 0 ||
        read_betza(c, t, v2, &n2, KOMA__FX_MAX_VECS, NULL, &np, 0) != 0)
        return -1;
    for (unsigned i = 0; i < n1; i++)
        for (unsigned j = 0; j < n2; j++) {
            if (v1[i].range != 1 || v2[j].range != 1)
                return ERR(c, n, KOMA_E_BETZA_UNSUPPORTED, "legs: leaps only");
            if (id->npair >= KOMA__FX_MAX_PAIRS) return ERR(c, n, KOMA_E_GAME_LIMIT, "too many two-leg moves");
            koma__fx_pair *p = &id->pair[id->npair++];
            p->dx1 = v1[i].dx;
            p->dy1 = v1[i].dy;
            p->dx2 = v2[j].dx;
            p->dy2 = v2[j].dy;
            p->mod1 = v1[i].mod;
            p->mod2 = v2[j].mod;
        }
    if (sh != NULL) {
        if (!koma__y_scalar_is(sh, "each")) return ERR(c, sh, KOMA_E_GAME_FIELD, "legs.shoot must be \"each\"");
        id->pair_shoot_each = 1;
    }
    return 0;
}

static int read_piece(defctx *c, koma__fx_id *id, yaml_node_t *n)
{
    koma__fx_def *d = c->d;
    yaml_node_t *v;
    GET(c, n, "betza", v);
    if (v && read_betza(c, v, id->vec, &id->nvec, KOMA__FX_MAX_VECS, id->pair, &id->npair, KOMA__FX_MAX_PAIRS) != 0)
        return -1;
    GET(c, n, "legs", v);
    if (v && read_legs(c, id, v) != 0) return -1;
    GET(c, n, "path", v);
    if (v) {
        static const char *const keys[] = {"betza", "steps", "revisit", NULL};
        static const char *const revisit[] = {"no-revisit", "any", "no-reversal", NULL};
        if (koma__y_check_keys(&c->y, v, "path", keys) != 0) return -1;
        yaml_node_t *b;
        GET(c, v, "betza", b);
        if (b == NULL) return ERR(c, v, KOMA_E_GAME_FIELD, "path: missing betza");
        koma__fx_vec pv[KOMA__FX_MAX_VECS];
        uint8_t npv = 0;
        uint16_t np = 0;
        if (read_betza(c, b, pv, &npv, KOMA__FX_MAX_VECS, NULL, &np, 0) != 0) return -1;
        if (npv > 8) return ERR(c, b, KOMA_E_BETZA_UNSUPPORTED, "path: at most 8 step directions");
        for (unsigned i = 0; i < npv; i++) {
            if (pv[i].range != 1) return ERR(c, b, KOMA_E_BETZA_UNSUPPORTED, "path: steps only");
            id->path.dx[i] = pv[i].dx;
            id->path.dy[i] = pv[i].dy;
        }
        id->path.nvec = npv;
        unsigned steps;
        int rv;
        if (get_uint(c, v, "steps", 1, 16, 1, &steps) != 0 ||
            get_enum(c, v, "revisit", revisit, 0, &rv) != 0)
            return -1;
        id->path.steps = (uint8_t)steps;
        id->path.revisit = (uint8_t)rv;
    }
    GET(c, n, "captures", v);
    if (v) {
        if (koma__y_scalar_is(v, "none")) {
            id->capture_none = 1;
        } else {
            int k = class_of(c, v);
            if (k < 0) return ERR(c, v, KOMA_E_GAME_FIELD, "captures: a class name, or none");
            id->capture_class = k;
        }
    }
    GET(c, n, "shoot", v);
    if (v) {
        static const char *const keys[] = {"range", "count", "over", "with_move", NULL};
        if (koma__y_check_keys(&c->y, v, "shoot", keys) != 0) return -1;
        unsigned range, count;
        int over, with_move;
        if (get_uint(c, v, "range", 1, 32, 1, &range) != 0 || get_uint(c, v, "count", 1, 2, 1, &count) != 0 ||
            get_bool(c, v, "over", 0, &over) != 0 || get_bool(c, v, "with_move", 0, &with_move) != 0)
            return -1;
        id->shot.range = (uint8_t)range;
        id->shot.count = (uint8_t)count;
        id->shot.over = (uint8_t)over;
        id->shot.with_move = (uint8_t)with_move;
    }
    int burns;
    if (get_bool(c, n, "burns", 0, &burns) != 0) return -1;
    id->burns = (uint8_t)burns;
    GET(c, n, "also", v);
    if (v) {
        if (v->type != YAML_SEQUENCE_NODE) return ERR(c, v, KOMA_E_GAME_FIELD, "also must be a list");
        for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
            yaml_node_t *e = koma__y_node(&c->y, *it);
            static const char *const keys[] = {"betza", "if_own", NULL};
            if (koma__y_check_keys(&c->y, e, "also", keys) != 0) return -1;
            if (id->ncond == KOMA__FX_MAX_COND) return ERR(c, e, KOMA_E_GAME_LIMIT, "too many conditional moves");
            koma__fx_cond *cd = &id->cond[id->ncond++];
            yaml_node_t *b;
            GET(c, e, "betza", b);
            if (b == NULL) return ERR(c, e, KOMA_E_GAME_FIELD, "also: missing betza");
            uint16_t np = 0;
            if (read_betza(c, b, cd->vec, &cd->nvec, 8, NULL, &np, 0) != 0) return -1;
            int present;
            if (get_set(c, e, "if_own", cd->if_own, &present) != 0) return -1;
            if (!present) return ERR(c, e, KOMA_E_GAME_FIELD, "also: missing if_own");
        }
    }
    GET(c, n, "promotes_to", v);
    if (v) {
        koma_piece p;
        if (!koma__y_is_scalar(v) || koma_epin_parse(koma__y_sval(v), koma__y_slen(v), &p, NULL) != 0 ||
            koma__fx_id_of(d, p) < 0)
            return ERR(c, v, KOMA_E_GAME_PIECE, "promotes_to: not a piece of the game");
        id->promotes_to = (int16_t)koma__fx_id_of(d, p);
    }
    if (id->nvec == 0 && id->npair == 0 && id->path.steps == 0)
        return ERR(c, n, KOMA_E_GAME_FIELD, "piece: no movement (betza, legs or path)");
    return 0;
}

/* ---- rules ----------------------------------------------------------------------------- */

static int read_list(defctx *c, const char *key, yaml_node_t **out, size_t *n)
{
    yaml_node_t *v;
    GET(c, c->root, key, v);
    *n = 0;
    if (v == NULL) return 0;
    if (v->type != YAML_SEQUENCE_NODE) return ERR(c, v, KOMA_E_GAME_FIELD, "%s must be a list", key);
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        if (*n == KOMA__FX_MAX_RULES) return ERR(c, v, KOMA_E_GAME_LIMIT, "%s: more than %d entries", key, KOMA__FX_MAX_RULES);
        out[(*n)++] = koma__y_node(&c->y, *it);
    }
    return 0;
}

static int read_rules(defctx *c)
{
    koma__fx_def *d = c->d;
    yaml_node_t *items[KOMA__FX_MAX_RULES];
    size_t n;

    /* immunities */
    if (read_list(c, "immunities", items, &n) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        static const char *const keys[] = {"target", "shots_by", "shots_within", "displaced_by", NULL};
        if (koma__y_check_keys(&c->y, items[i], "immunities", keys) != 0) return -1;
        koma__fx_ids target, by, disp;
        int has_by, has_disp;
        if (get_set(c, items[i], "target", target, NULL) != 0 ||
            get_set(c, items[i], "shots_by", by, &has_by) != 0 ||
            get_set(c, items[i], "displaced_by", disp, &has_disp) != 0)
            return -1;
        unsigned within;
        if (get_uint(c, items[i], "shots_within", 0, 254, 0, &within) != 0) return -1;
        for (unsigned t = 0; t < d->nids; t++) {
            if (!koma__fx_has(target, t)) continue;
            for (unsigned s = 0; s < d->nids; s++) {
                if (koma__fx_has(by, s)) d->shot_min[s][t] = 255;
                if (within && d->shot_min[s][t] < within + 1) d->shot_min[s][t] = (uint8_t)(within + 1);
                if (koma__fx_has(disp, s)) koma__fx_add(d->no_displace[s], t);
            }
        }
    }
    /* capture promotion */
    if (read_list(c, "capture_promotion", items, &n) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        static const char *const keys[] = {"captors", "victims", NULL};
        if (koma__y_check_keys(&c->y, items[i], "capture_promotion", keys) != 0) return -1;
        koma__fx_ids captors, victims;
        int has_captors;
        if (get_set(c, items[i], "captors", captors, &has_captors) != 0 ||
            get_set(c, items[i], "victims", victims, NULL) != 0)
            return -1;
        for (unsigned a = 0; a < d->nids; a++)
            if (!has_captors || koma__fx_has(captors, a)) {
                d->trig[a][0] |= victims[0];
                d->trig[a][1] |= victims[1];
            }
    }
    /* promotion requirements */
    if (read_list(c, "promotion_requires", items, &n) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        static const char *const keys[] = {"pieces", "zone_only", "own_on_board", "own_in_zone", NULL};
        if (koma__y_check_keys(&c->y, items[i], "promotion_requires", keys) != 0) return -1;
        koma__fx_require *r = &d->require[d->nrequire];
        memset(r, 0, sizeof *r);
        int zo, has_board;
        if (get_set(c, items[i], "pieces", r->pieces, NULL) != 0 ||
            get_bool(c, items[i], "zone_only", 0, &zo) != 0 ||
            get_set(c, items[i], "own_on_board", r->own, &has_board) != 0)
            return -1;
        r->zone_only = (uint8_t)zo;
        r->own_on_board = (uint8_t)has_board;
        yaml_node_t *z;
        GET(c, items[i], "own_in_zone", z);
        if (z != NULL && !koma__y_scalar_is(z, "none")) {
            static const char *const zk[] = {"all", "any", NULL};
            if (has_board) return ERR(c, z, KOMA_E_GAME_FIELD, "own_on_board and own_in_zone exclude each other");
            if (koma__y_check_keys(&c->y, z, "own_in_zone", zk) != 0) return -1;
            int has_all, has_any;
            koma__fx_ids any;
            if (get_set(c, z, "all", r->own, &has_all) != 0 || get_set(c, z, "any", any, &has_any) != 0)
                return -1;
            if (has_all == has_any) return ERR(c, z, KOMA_E_GAME_FIELD, "own_in_zone: all or any");
            if (has_any) memcpy(r->own, any, sizeof any);
            r->in_zone = 1;
            r->all = (uint8_t)has_all;
        }
        if (r->own_on_board || r->in_zone) d->nrequire++;
    }
    /* cascades */
    if (read_list(c, "cascades", items, &n) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        static const char *const keys[] = {"on", "promote_own", "remove_enemy", NULL};
        if (koma__y_check_keys(&c->y, items[i], "cascades", keys) != 0) return -1;
        koma__fx_cascade *k = &d->cascade[d->ncascade++];
        if (get_set(c, items[i], "on", k->on, NULL) != 0 ||
            get_set(c, items[i], "promote_own", k->promote_own, NULL) != 0 ||
            get_set(c, items[i], "remove_enemy", k->remove_enemy, NULL) != 0)
            return -1;
    }
    /* reversions */
    if (read_list(c, "reversions", items, &n) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        static const char *const keys[] = {"pieces", "unless_own", "near", "within", "geometry",
                                           "clear", "near_side", NULL};
        static const char *const geom[] = {"lines", "box", NULL};
        static const char *const side[] = {"any", "enemy", NULL};
        if (koma__y_check_keys(&c->y, items[i], "reversions", keys) != 0) return -1;
        koma__fx_reversion *r = &d->reversion[d->nreversion];
        memset(r, 0, sizeof *r);
        int has_unless, has_near, g, cl, sd;
        koma__fx_ids near;
        unsigned within;
        if (get_set(c, items[i], "pieces", r->pieces, NULL) != 0 ||
            get_set(c, items[i], "unless_own", r->other, &has_unless) != 0 ||
            get_set(c, items[i], "near", near, &has_near) != 0 ||
            get_uint(c, items[i], "within", 1, 32, 1, &within) != 0 ||
            get_enum(c, items[i], "geometry", geom, 0, &g) != 0 ||
            get_bool(c, items[i], "clear", 0, &cl) != 0 || get_enum(c, items[i], "near_side", side, 0, &sd) != 0)
            return -1;
        if (has_unless == has_near) return ERR(c, items[i], KOMA_E_GAME_FIELD, "reversions: unless_own or near");
        for (unsigned p = 0; p < d->nids; p++)
            if (koma__fx_has(r->pieces, p) && d->ids[p].demotes_to < 0)
                return ERR(c, items[i], KOMA_E_GAME_PIECE, "reversions: %s is not a promoted piece",
                           d->ids[p].name);
        if (has_near) {
            memcpy(r->other, near, sizeof near);
            r->kind = 1;
        }
        r->within = (uint8_t)within;
        r->geometry = (uint8_t)g;
        r->clear = (uint8_t)cl;
        r->enemy_only = (uint8_t)sd;
        d->nreversion++;
    }
    /* defeat */
    yaml_node_t *df;
    GET(c, c->root, "defeat", df);
    d->royal_captured = 0;
    if (df != NULL) {
        static const char *const keys[] = {"royal_captured", "survival", NULL};
        if (koma__y_check_keys(&c->y, df, "defeat", keys) != 0) return -1;
        int rc;
        if (get_bool(c, df, "royal_captured", 0, &rc) != 0) return -1;
        if (rc) return ERR(c, df, KOMA_E_GAME_FIELD, "defeat.royal_captured: an effect game has no royal in hand (use survival)");
        yaml_node_t *sv;
        GET(c, df, "survival", sv);
        if (sv != NULL) {
            if (sv->type != YAML_SEQUENCE_NODE) return ERR(c, sv, KOMA_E_GAME_FIELD, "defeat.survival must be a list of lists of pieces");
            for (yaml_node_item_t *it = sv->data.sequence.items.start; it < sv->data.sequence.items.top; it++) {
                if (d->nsurvival == KOMA__FX_MAX_SURVIVAL) return ERR(c, sv, KOMA_E_GAME_LIMIT, "defeat.survival: too many sets");
                koma__fx_ids set;
                yaml_node_t *sn = koma__y_node(&c->y, *it);
                if (sn->type != YAML_SEQUENCE_NODE) return ERR(c, sn, KOMA_E_GAME_FIELD, "defeat.survival: each set is a list of pieces");
                if (read_set(c, sn, "defeat.survival", set) != 0) return -1;
                unsigned m = 0;
                for (unsigned p = 0; p < d->nids; p++)
                    if (koma__fx_has(set, p)) {
                        if (m == 8) return ERR(c, sn, KOMA_E_GAME_LIMIT, "defeat.survival: a set of more than 8");
                        d->survival[d->nsurvival][m++] = (uint8_t)p;
                    }
                if (m == 0) return ERR(c, sn, KOMA_E_GAME_FIELD, "defeat.survival: an empty set");
                d->survival_n[d->nsurvival++] = (uint8_t)m;
            }
        }
    }
    return 0;
}

/* ---- the whole ------------------------------------------------------------------------- */

static const char *const top_keys[] = {
    /* read by game.c */
    "id", "name", "style", "board", "start", "description", "diagram", "repetition",
    "termination", "move_limit", "no_legal_move", "by_feen",
    /* read here */
    "engine", "hands", "promotion", "double_move_pass", "shoot_when", "arrival_burn", "classes",
    "pieces", "immunities", "capture_promotion", "promotion_requires", "cascades", "reversions",
    "defeat", "parameters", "options", "rule_options", NULL};

static int compile(defctx *c, const char *const *overrides, size_t nover)
{
    koma__fx_def *d = c->d;
    c->root = koma__y_root(&c->y);
    if (c->root == NULL) return ERR(c, NULL, KOMA_E_GAME_YAML, "empty game definition");
    if (koma__y_check_keys(&c->y, c->root, "game definition", top_keys) != 0) return -1;
    if (!koma__y_scalar_is(koma__y_get(&c->y, c->root, "engine"), "effects"))
        return ERR(c, c->root, KOMA_E_GAME_FIELD, "not an effect game (engine: effects)");
    yaml_node_t *board = koma__y_get(&c->y, c->root, "board");
    if (board == NULL) return ERR(c, c->root, KOMA_E_GAME_FIELD, "missing \"board\"");
    if (koma__y_uint(&c->y, koma__y_get(&c->y, board, "files"), "board.files", 1, KOMA__FX_MAX_FILES, &d->files) != 0 ||
        koma__y_uint(&c->y, koma__y_get(&c->y, board, "ranks"), "board.ranks", 2, KOMA__FX_MAX_RANKS, &d->ranks) != 0)
        return -1;
    yaml_node_t *st = koma__y_get(&c->y, c->root, "style");
    if (!koma__y_is_scalar(st) || koma__y_slen(st) != 1 || !KOMA_IS_ALPHA(koma__y_sval(st)[0]))
        return ERR(c, st ? st : c->root, KOMA_E_GAME_FIELD, "style must be one letter");
    d->style = (char)(KOMA_IS_LOWER(koma__y_sval(st)[0]) ? koma__y_sval(st)[0] - 'a' + 'A' : koma__y_sval(st)[0]);
    if (read_options(c, overrides, nover) != 0) return -1;

    yaml_node_t *v;
    GET(c, c->root, "hands", v);
    if (v != NULL && !koma__y_scalar_is(v, "inert"))
        return ERR(c, v, KOMA_E_GAME_FIELD, "hands: inert (removed pieces go to the mover's hand, never dropped)");
    yaml_node_t *pieces;
    GET(c, c->root, "pieces", pieces);
    if (read_tokens(c, pieces) != 0) return -1;
    /* classes (they name tokens and other classes) */
    yaml_node_t *cls;
    GET(c, c->root, "classes", cls);
    if (cls != NULL) {
        if (cls->type != YAML_MAPPING_NODE) return ERR(c, cls, KOMA_E_GAME_FIELD, "classes must be a mapping");
        for (yaml_node_pair_t *p = cls->data.mapping.pairs.start; p < cls->data.mapping.pairs.top; p++) {
            yaml_node_t *k = koma__y_node(&c->y, p->key);
            if (!koma__y_is_scalar(k) || koma__y_slen(k) + 1 > sizeof d->class_name[0])
                return ERR(c, k, KOMA_E_GAME_FIELD, "classes: a name is a short scalar");
            if (class_of(c, k) >= 0) return ERR(c, k, KOMA_E_GAME_FIELD, "classes: duplicate name");
            if (d->nclasses == KOMA__FX_MAX_CLASSES) return ERR(c, k, KOMA_E_GAME_LIMIT, "too many classes");
            memcpy(d->class_name[d->nclasses], koma__y_sval(k), koma__y_slen(k) + 1);
            c->class_nodes[d->nclasses++] = koma__y_node(&c->y, p->value);
        }
        for (unsigned i = 0; i < d->nclasses; i++) {
            koma__fx_ids set;
            if (read_set(c, c->class_nodes[i], d->class_name[i], set) != 0) return -1;
            for (unsigned p = 0; p < d->nids; p++)
                if (koma__fx_has(set, p)) d->ids[p].classes |= 1ull << i;
        }
    }
    unsigned i = 0;
    for (yaml_node_item_t *it = pieces->data.sequence.items.start; it < pieces->data.sequence.items.top; it++, i++)
        if (read_piece(c, &d->ids[i], koma__y_node(&c->y, *it)) != 0) return -1;
    for (i = 0; i < d->nids; i++) {
        int t = d->ids[i].promotes_to;
        if (t < 0) continue;
        if (d->ids[t].promotes_to >= 0)
            return ERR(c, pieces, KOMA_E_GAME_PIECE, "%s: a promoted piece does not promote again", d->ids[t].name);
        if (d->ids[t].demotes_to >= 0)
            return ERR(c, pieces, KOMA_E_GAME_PIECE, "%s: two pieces promote to it", d->ids[t].name);
        d->ids[t].demotes_to = (int16_t)i;
    }
    /* promotion */
    yaml_node_t *pr;
    GET(c, c->root, "promotion", pr);
    if (pr != NULL) {
        static const char *const keys[] = {"zone", "optional", "trigger", "shot_is_capture", NULL};
        static const char *const trig[] = {"origin-or-final", "final", "any-landing", NULL};
        if (koma__y_check_keys(&c->y, pr, "promotion", keys) != 0) return -1;
        int opt, t, sic;
        if (get_uint(c, pr, "zone", 0, d->ranks, 0, &d->zone) != 0 ||
            get_bool(c, pr, "optional", 1, &opt) != 0 || get_enum(c, pr, "trigger", trig, 0, &t) != 0 ||
            get_bool(c, pr, "shot_is_capture", 1, &sic) != 0)
            return -1;
        d->promotion_optional = (uint8_t)opt;
        d->trigger = (uint8_t)t;
        d->shot_is_capture = (uint8_t)sic;
    }
    int pass, arrive, when;
    static const char *const shoot_when[] = {"after-move", "in-place", "both", NULL};
    if (get_bool(c, c->root, "double_move_pass", 1, &pass) != 0 ||
        get_bool(c, c->root, "arrival_burn", 0, &arrive) != 0 ||
        get_enum(c, c->root, "shoot_when", shoot_when, 0, &when) != 0)
        return -1;
    d->double_move_pass = (uint8_t)pass;
    d->arrival_burn = (uint8_t)arrive;
    d->shoot_when = (uint8_t)when;
    return read_rules(c);
}

/* A position the definition's engine can play: its board, styles, pieces and
 * hands (also a definition's start position, game.c). */
int koma__fx_position_fits(const koma__fx_def *d, const koma_position *pos, koma_error *err)
{
    if (pos->shape.ndims != 2 || pos->shape.size[0] != d->files || pos->shape.size[1] != d->ranks)
        return koma_error_set(err, KOMA_E_RULES_SHAPE, 0, "the game is played on a %ux%u board",
                              d->files, d->ranks);
    char lower = (char)(d->style - 'A' + 'a');
    if (pos->style[0] != d->style || pos->style[1] != lower)
        return koma_error_set(err, KOMA_E_RULES_STYLE, 0, "the game's positions use the styles %c/%c",
                              d->style, lower);
    for (uint32_t sq = 0; sq < pos->shape.squares; sq++) {
        koma_piece p = pos->board[sq];
        if (p != KOMA_PIECE_NONE && koma__fx_id_of(d, p) < 0) {
            char b[KOMA_EPIN_BUF];
            koma_epin_write(p, b);
            return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" is not a piece of the game", b);
        }
    }
    /* hands: any piece of the game, of either case (removed pieces keep their token) */
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < pos->hands[s].len; i++) {
            koma_piece p = pos->hands[s].items[i].piece;
            if (koma__fx_id_of(d, p) < 0) {
                char b[KOMA_EPIN_BUF];
                koma_epin_write(p, b);
                return koma_error_set(err, KOMA_E_RULES_PIECE, 0, "\"%s\" in hand is not a piece of the game", b);
            }
            if (pos->hands[s].items[i].count > 2u * pos->shape.squares)
                return koma_error_set(err, KOMA_E_RULES_HAND, 0, "too many pieces in hand");
        }
    return 0;
}

int koma__fx_def_load(const char *yaml, size_t len, const char *source,
                      const char *const *overrides, size_t n, koma__fx_def **out,
                      size_t *bad, koma_error *err)
{
    *out = NULL;
    if (bad) *bad = n;
    defctx *c = calloc(1, sizeof *c);
    if (c == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (game)");
    c->bad = n;
    c->d = calloc(1, sizeof *c->d);
    if (c->d == NULL) {
        free(c);
        return koma_error_set(err, KOMA_E_MEMORY, 0, "out of memory (game)");
    }
    int rc = -1;
    if (koma__ydoc_load(&c->y, yaml, len, source, err) == 0) {
        rc = compile(c, overrides, n);
        koma__ydoc_free(&c->y);
    }
    if (rc == 0) *out = c->d;
    else free(c->d);
    if (bad) *bad = c->bad;
    free(c);
    return rc;
}

void koma__fx_def_free(koma__fx_def *d) { free(d); }
