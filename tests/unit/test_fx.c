/* tests/unit/test_fx.c — the effect engine (lib/fx_*.c) on Ko shogi's built-in
 * definition: the compiled definition, the hand-written move lists of
 * tests/koshogi/movelists (every list exactly), perft from the start, the rule
 * options (each supported value changes what it says, the others are refused),
 * definition errors, and random playouts: make/unmake restore everything, the
 * hash is the position's, every move's chain found back from its text, and the
 * rule-agnostic chain applier (koma_chain_apply) reaches the engine's position. */
#include "unit.h"

#include <dirent.h>
#include <stdlib.h>

#include "engine_internal.h"
#include "fx_internal.h"
#include "fx_state.h"

static const char start[] =
    "atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/"
    "n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/9v9/19/19/19/"
    "19/19/9V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/"
    "ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / K/k";

static char *yaml_text;
static size_t yaml_len;

static int setup(void **state)
{
    (void)state;
    FILE *f = fopen("lib/games/koshogi.yaml", "rb");
    if (f == NULL) return -1;
    yaml_text = malloc(1 << 20);
    yaml_len = fread(yaml_text, 1, 1 << 20, f);
    fclose(f);
    return yaml_len > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(yaml_text);
    return 0;
}

/* A definition with options (NAME=VALUE, NULL-terminated), and its engine at feen. */
static koma__fx *engine(const char *const *opts, const char *feen, koma__fx_def **def)
{
    koma_error err;
    size_t n = 0;
    while (opts && opts[n]) n++;
    memset(&err, 0, sizeof err);
    if (koma__fx_def_load(yaml_text, yaml_len, "koshogi.yaml", opts, n, def, NULL, &err) != 0)
        fail_msg("load: %s %s", koma_code_name(err.code), err.message);
    koma__fx *fx;
    if (koma__fx_new(*def, &fx, &err) != 0) fail_msg("new: %s", err.message);
    koma_position pos;
    koma_position_init(&pos);
    if (koma_feen_parse(feen, strlen(feen), KOMA_FEEN_STRICT, &pos, &err) != 0 ||
        koma__fx_set_position(fx, &pos, &err) != 0)
        fail_msg("position %s: %s", feen, err.message);
    koma_position_cleanup(&pos);
    return fx;
}

static void done(koma__fx *fx, koma__fx_def *def)
{
    koma__fx_free(fx);
    koma__fx_def_free(def);
}

/* The moves of the position as sorted texts. */
static void moves_of(koma__fx *fx, list *out)
{
    koma_error err;
    size_t n = koma__fx_generate(fx, &err);
    if (n == (size_t)-1) fail_msg("generate: %s", err.message);
    for (size_t i = 0; i < n; i++) {
        char t[KOMA_MOVE_TEXT_BUF];
        koma__fx_move_text(fx, (uint32_t)i, t, sizeof t);
        list_add(out, t);
    }
    list_sort(out);
}

static int has(const list *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->m[i], s) == 0) return 1;
    return 0;
}

/* ---- the definition ----------------------------------------------------------------- */

static void test_definition(void **state)
{
    (void)state;
    koma_game_set *set;
    koma_error err;
    assert_int_equal(koma_game_set_new(&set, &err), 0);
    const koma_game *g = koma_game_set_find_id(set, "koshogi", 7);
    assert_non_null(g);
    const koma__fx_def *d = g->fx;
    assert_non_null(d);
    assert_int_equal(d->nids, 65);                 /* 34 native and 31 promoted identities */
    unsigned promotable = 0;
    for (unsigned i = 0; i < d->nids; i++) {
        const koma__fx_id *a = &d->ids[i];
        if (a->promotes_to >= 0) {
            promotable++;
            /* Ko shogi's tokens: X promotes to +X */
            assert_int_equal(d->ids[a->promotes_to].token, a->token | KOMA_PIECE_ENHANCED);
            assert_int_equal(d->ids[a->promotes_to].demotes_to, (int)i);
        } else if (!(a->token & KOMA_PIECE_ENHANCED)) {
            /* general, wrestler, elephant never promote */
            char t[KOMA_EPIN_BUF];
            koma_epin_write(a->token, t);
            assert_true(strcmp(t, "K^") == 0 || strcmp(t, "W") == 0 || strcmp(t, "E") == 0);
        }
    }
    assert_int_equal(promotable, 31);
    assert_int_equal(d->zone, 6);
    assert_int_equal(d->nsurvival, 4);
    koma_game_set_free(set);
}

static void test_perft_start(void **state)
{
    (void)state;
    koma__fx_def *d;
    koma__fx *fx = engine(NULL, start, &d);
    koma_error err;
    uint64_t n;
    assert_int_equal(koma__fx_perft(fx, 1, &n, &err), 0);
    assert_int_equal(n, 223);
    assert_int_equal(koma__fx_perft(fx, 2, &n, &err), 0);
    assert_int_equal(n, 49593);
    done(fx, d);
}

/* ---- the hand-written move lists ---------------------------------------------------- */

/* A list's position is played under the rule options of its "# options: NAME=VALUE,
 * ..." line (none: the defaults). */
static int check_list_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) fail_msg("cannot open %s", path);
    char line[2048], feen[2048] = "", options[2048] = "";
    const char *opts[16] = {NULL};
    size_t nopt = 0;
    list want = LIST_INIT;
    int in_moves = 0;
    long declared = -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "# options: ", 11) == 0) {
            snprintf(options, sizeof options, "%s", line + 11);
            for (char *o = strtok(options, ", "); o != NULL && nopt < 15; o = strtok(NULL, ", "))
                opts[nopt++] = o;
        } else if (strncmp(line, "feen: ", 6) == 0) snprintf(feen, sizeof feen, "%s", line + 6);
        else if (strncmp(line, "moves: ", 7) == 0) {
            declared = strtol(line + 7, NULL, 10);
            in_moves = 1;
        } else if (in_moves && line[0]) list_add(&want, line);
    }
    fclose(f);
    assert_int_equal((long)want.n, declared);
    list_sort(&want);
    koma__fx_def *d;
    koma__fx *fx = engine(nopt ? opts : NULL, feen, &d);
    list got = LIST_INIT;
    moves_of(fx, &got);
    int diff = 0;
    size_t i = 0, j = 0;
    while (i < got.n || j < want.n) {
        int c = i >= got.n ? 1 : j >= want.n ? -1 : strcmp(got.m[i], want.m[j]);
        if (c < 0) print_error("%s: the engine has %s\n", path, got.m[i++]);
        else if (c > 0) print_error("%s: the engine lacks %s\n", path, want.m[j++]);
        else {
            i++;
            j++;
            continue;
        }
        diff++;
    }
    list_free(&got);
    list_free(&want);
    done(fx, d);
    return diff;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_movelists(void **state)
{
    (void)state;
    const char *dir = "tests/koshogi/movelists";
    DIR *dp = opendir(dir);
    if (dp == NULL) fail_msg("no %s", dir);
    char *names[256];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL && n < 256) {
        size_t l = strlen(de->d_name);
        if (l > 4 && strcmp(de->d_name + l - 4, ".txt") == 0) names[n++] = strdup(de->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof names[0], name_cmp);
    assert_true(n >= 20);                          /* at least 20 positions */
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        bad += check_list_file(path) != 0;
        free(names[i]);
    }
    print_message("movelists: %zu positions, %d differ\n", n, bad);
    assert_int_equal(bad, 0);
}


/* A fog whose only jump is to j12 and back: one jump and a shot, then it stops
 * (the priest family: a shot after each jump; one jump or two). */
static void test_fog_one_jump(void **state)
{
    (void)state;
    koma__fx_def *d;
    koma__fx *fx = engine(NULL, "18k^/19/19/19/19/7E1E1E7/10p8/7E3E7/19/7E1+T1S7/19/7S1S1S7/19/19/19/19/19/19/K^18 / K/k", &d);
    list l = LIST_INIT;
    moves_of(fx, &l);
    assert_true(has(&l, "j10-j12"));
    assert_true(has(&l, "j10-j12,+k13"));
    assert_true(has(&l, "+k13"));                  /* out and back, shooting */
    assert_true(has(&l, "..."));
    list_free(&l);
    done(fx, d);
}

/* ---- rule options ------------------------------------------------------------------- */

/* Positions for the options: each is a small board, a few pieces; K^ a1 and k^ s19. */
#define EMPTY19 "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19"

static void expect_option(const char *opt, const char *feen, const char *in_default,
                          const char *in_option)
{
    const char *opts[2] = {opt, NULL};
    koma__fx_def *d1, *d2;
    koma__fx *a = engine(NULL, feen, &d1), *b = engine(opts, feen, &d2);
    list la = LIST_INIT, lb = LIST_INIT;
    moves_of(a, &la);
    moves_of(b, &lb);
    if (in_default && (!has(&la, in_default) || has(&lb, in_default)))
        fail_msg("%s: \"%s\" should be a move only by default", opt, in_default);
    if (in_option && (has(&la, in_option) || !has(&lb, in_option)))
        fail_msg("%s: \"%s\" should be a move only with the option", opt, in_option);
    list_free(&la);
    list_free(&lb);
    done(a, d1);
    done(b, d2);
}

static void test_options(void **state)
{
    (void)state;
    /* a long bow j10 steps to k11 and shoots the middle troop j12: a capture
     * promotion by a shot (a shot counts as a capture); or shoots it from where it stands */
    static const char bow[] = "18k^/19/19/19/19/19/19/9m^1b^7/19/9L9/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("promotion.shot-counts-as-capture=false", bow, "j10-k11=+L,+j12", "j10-k11,+j12");
    expect_option("shoot.when=in-place", bow, "j10-k11=+L,+j12", "+j12,j10=+L");
    expect_option("shoot.when=both", bow, NULL, "+j12,j10=+L");
    /* a gatling on g7: a target 7 points from h8 */
    static const char gat[] = "18k^/19/19/19/7p11/19/19/19/19/19/19/19/6F12/19/19/19/19/19/K^18 / K/k";
    expect_option("gatling.range=5", gat, "g7-h8,+h15", NULL);
    /* zone promotion optional / forced / on entering only */
    static const char zone[] = "18k^/19/19/19/19/9G9/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("promotion.optional=false", zone, "j14-j15", NULL);
    expect_option("promotion.trigger=enter", zone, "j14-j13=+G", NULL);
    /* start-or-land: a first landing in the zone counts (a cavalry out and back) */
    static const char cav[] = "18k^/19/19/19/19/19/19/10N'8/19/19/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("promotion.trigger=start-or-land", cav, NULL, "k12=+N'");
    /* commanding pieces with the drum: an aide taking the drum promotes */
    static const char drum[] = "18k^/19/19/19/19/19/19/19/9d9/9G9/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("promotion.commanding=with-drum", drum, "j10+j11", "j10+j11=+G");
    /* step movers per ja (the cannon among them): a cannon shooting a wrestler */
    static const char wr[] = "18k^/19/19/19/19/10w8/19/19/19/9C9/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("promotion.step-movers=ja", wr, "j10-k11,+k14", "j10-k11=+C,+k14");
    /* priests without jump captures */
    static const char pr[] = "18k^/19/19/19/19/19/19/19/9t9/19/9T9/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("priest.jump-capture=none", pr, "j9+j11", NULL);
    /* burned on arrival, or not */
    static const char fl[] = "18k^/19/19/19/19/19/19/19/11+u7/19/9G9/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("burn.on-arrival-of-enemy=nothing", fl, "j9-k10,+k10", "j9-k10");
    /* double movers may not pass */
    static const char ws[] = "18k^/19/19/19/19/19/19/19/19/9W9/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("double-movers.pass=false", ws, "...", NULL);
    /* nor pass promoting in place: a cavalry j15 in its zone, out and back with
     * nothing taken; its igui of the pawn k17 (with or without the promotion) stays */
    static const char cz[] = "18k^/19/10p8/19/9N'9/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("double-movers.pass=false", cz, "j15=+N'", NULL);
    expect_option("double-movers.pass=false", cz, "...", NULL);
    {
        const char *nopass[2] = {"double-movers.pass=false", NULL};
        koma__fx_def *d;
        koma__fx *fx = engine(nopass, cz, &d);
        list l = LIST_INIT;
        moves_of(fx, &l);
        assert_true(has(&l, "+k17"));
        assert_true(has(&l, "+k17,j15=+N'"));
        list_free(&l);
        done(fx, d);
        /* the start: the wrestlers' pass gone, 222 moves (223 by default) */
        fx = engine(nopass, start, &d);
        koma_error err;
        uint64_t n;
        assert_int_equal(koma__fx_perft(fx, 1, &n, &err), 0);
        assert_int_equal(n, 222);
        done(fx, d);
    }
    /* war hawk turning after a capture; tiger wing without the rook */
    static const char hk[] = "18k^/19/19/19/19/19/19/19/9p9/9+H9/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("war-hawk.double=any-turn", hk, NULL, "j10-k11,+j11");
    static const char tw[] = "18k^/19/19/19/19/19/19/19/19/9+Q'9/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("tiger-wing=double-ferz", tw, "j10-j15", NULL);
    /* a thunderclap shut in a 2x2 box of its own pawns: without revisits it has no
     * move; it may go round (no-reversal) or back and forth (any) */
    static const char th[] = "18k^/19/19/19/19/19/19/9PP8/8P2P7/8P+D1P7/9PP8/19/19/19/19/19/19/19/K^T17 / K/k";
    expect_option("thunderclap.path=any", th, NULL, "j10-j11");
    expect_option("thunderclap.path=no-reversal", th, NULL, "j10-j11");
    /* the clerk in the zone with a guard outside it */
    static const char ck[] = "18k^/19/19/19/19/9I9/19/19/19/19/19/19/19/19/19/19/19/19/AK^17 / K/k";
    expect_option("clerk.zone-condition=none", ck, NULL, "j14-i15=+I,a1=+A");
    expect_option("clerk.zone-condition=promoted-guard-in-zone", ck, NULL, NULL);
    /* banner: when the roaming assault does not count, middle troop and roaming
     * assault do not keep the second player alive: the position is over */
    static const char ra[] = "17t+b^/18m^/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/T18/K^18 / K/k";
    expect_option("banner.roaming-assault-counts=false", ra, "a1-b1", NULL);
    /* the fog's reversion: a pawn between the fog and the light, or no enemy light */
    static const char fg[] = "18k^/19/19/19/19/19/19/19/19/9+T2P+T'5/19/19/19/19/19/19/19/19/K^18 / K/k";
    expect_option("fog.revert=line-5-clear", fg, "a1-a2,j10=T", "a1-a2");
    expect_option("fog.revert=box-5-enemy-only", fg, "a1-a2,j10=T", "a1-a2");
}


/* ---- random playouts ------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Check move m of the current position: its text is found back as m, the rule-
 * agnostic applier gets the engine's position, make/unmake restore all. */
static void check_move(koma__fx *fx, koma__fx *scratch, uint32_t m)
{
    koma_error err;
    char text[KOMA_MOVE_TEXT_BUF];
    koma__fx_move_text(fx, m, text, sizeof text);
    koma_chain c;
    if (koma_chain_parse(text, strlen(text), &c, &err) != 0)
        fail_msg("\"%s\" does not parse: %s", text, err.message);
    koma_position before, after, applied;
    koma_position_init(&before);
    koma_position_init(&after);
    koma_position_init(&applied);
    assert_int_equal(koma__fx_get_position(fx, &before, &err), 0);
    if (koma_chain_check(&before, &c, &err) != 0)
        fail_msg("\"%s\" is not canonical: %s", text, err.message);
    uint64_t h = koma__fx_hash(fx);
    assert_int_equal(koma__fx_make(fx, m, &err), 0);
    assert_int_equal(koma__fx_get_position(fx, &after, &err), 0);
    assert_int_equal(koma_position_copy(&applied, &before, &err), 0);
    if (koma_chain_apply(&applied, &c, &err) != 0) fail_msg("\"%s\" does not apply: %s", text, err.message);
    if (!koma_position_equal(&applied, &after)) fail_msg("\"%s\": the applier and the engine differ", text);
    /* the hash is the position's (computed afresh by another engine) */
    assert_int_equal(koma__fx_set_position(scratch, &after, &err), 0);
    assert_true(koma__fx_hash(scratch) == koma__fx_hash(fx));
    assert_int_equal(koma__fx_unmake(fx), 0);
    assert_true(koma__fx_hash(fx) == h);
    /* found back from its text (the store of this ply is regenerated) */
    uint32_t found;
    if (koma__fx_find(fx, &c, &found, &err) != 0) fail_msg("\"%s\" not found: %s", text, err.message);
    assert_int_equal(found, m);
    assert_int_equal(koma__fx_make(fx, m, &err), 0);
    assert_int_equal(koma__fx_unmake(fx), 0);
    assert_true(koma__fx_hash(fx) == h);
    koma_position_cleanup(&before);
    koma_position_cleanup(&after);
    koma_position_cleanup(&applied);
}

static void test_playouts(void **state)
{
    (void)state;
    koma__fx_def *d;
    koma__fx *fx = engine(NULL, start, &d), *scratch;
    assert_int_equal(koma__fx_new(d, &scratch, NULL), 0);
    koma_position setup;
    koma_error err;
    koma_position_init(&setup);
    assert_int_equal(koma_feen_parse(LIT(start), KOMA_FEEN_STRICT, &setup, &err), 0);
    enum { GAMES = 2000, CAP = 200 };
    unsigned ended = 0, nomove = 0, capped = 0, checked = 0;
    size_t plies = 0;
    for (int game = 0; game < GAMES; game++) {
        assert_int_equal(koma__fx_set_position(fx, &setup, &err), 0);
        int ply;
        for (ply = 0; ply < CAP; ply++) {
            if (koma__fx_defeated(fx) >= 0) break;
            size_t n = koma__fx_generate(fx, &err);
            if (n == (size_t)-1) fail_msg("generate: %s", err.message);
            if (n == 0) {
                nomove++;
                break;
            }
            const fx_store *st = &fx->stores[fx->nundo];
            /* mostly a capture, when there is one */
            uint32_t m = (uint32_t)(rnd() % n);
            if (rnd() % 4 != 0)
                for (int tries = 0; tries < 32; tries++) {
                    uint32_t k = (uint32_t)(rnd() % n);
                    if (st->rec[k].nrem || st->rec[k].cap) {
                        m = k;
                        break;
                    }
                }
            if (game % 50 == 0) {
                check_move(fx, scratch, m);
                checked++;
            }
            assert_int_equal(koma__fx_make(fx, m, &err), 0);
        }
        plies += (size_t)ply;
        if (koma__fx_defeated(fx) >= 0) ended++;
        else if (ply == CAP) capped++;
        /* take every ply back: the setup again */
        while (koma__fx_ply(fx) > 0) assert_int_equal(koma__fx_unmake(fx), 0);
        koma_position back;
        koma_position_init(&back);
        assert_int_equal(koma__fx_get_position(fx, &back, &err), 0);
        assert_true(koma_position_equal(&back, &setup));
        koma_position_cleanup(&back);
    }
    print_message("playouts: %d games, %zu plies: %u ended by the survival test, %u without a move, "
                  "%u at the cap of %d plies; %u moves checked in full\n",
                  GAMES, plies, ended, nomove, capped, CAP, checked);
    assert_int_equal(ended + nomove + capped, GAMES);
    assert_true(ended > 0);
    koma_position_cleanup(&setup);
    koma__fx_free(scratch);
    done(fx, d);
}

static void option_error(const char *opt, koma_code code)
{
    const char *opts[2] = {opt, NULL};
    koma__fx_def *d;
    koma_error err;
    memset(&err, 0, sizeof err);
    if (koma__fx_def_load(yaml_text, yaml_len, "koshogi.yaml", opts, 1, &d, NULL, &err) == 0)
        fail_msg("%s accepted", opt);
    if (err.code != code) fail_msg("%s: %s (%s)", opt, koma_code_name(err.code), err.message);
}

static void test_option_errors(void **state)
{
    (void)state;
    option_error("setup=dagaz", KOMA_E_GAME_OPTION_UNSUPPORTED);
    option_error("fog.protection=area-within-5", KOMA_E_GAME_OPTION_UNSUPPORTED);
    option_error("pawn.forward=lost-forever", KOMA_E_GAME_OPTION_UNSUPPORTED);
    option_error("nets.immobilize=true", KOMA_E_GAME_OPTION_UNSUPPORTED);
    option_error("hand=shogi", KOMA_E_GAME_OPTION_UNSUPPORTED);
    option_error("gatling.range=6", KOMA_E_GAME_OPTION_VALUE);
    option_error("gatling.range", KOMA_E_GAME_OPTION_VALUE);
    option_error("no.such=1", KOMA_E_GAME_OPTION_UNKNOWN);
}

/* ---- errors in a definition -------------------------------------------------------- */

/* Ko shogi's definition with one edit (the first `from` replaced by `to`, or `to`
 * added at the end when from is NULL), loaded with the rule option `option`
 * (NAME=VALUE, or NULL), is refused with code, at the edited line (at_edit 0:
 * anywhere), with a message holding `says`. */
static void definition_error_with(const char *from, const char *to, const char *option, koma_code code,
                                  int at_edit, const char *says)
{
    size_t cap = yaml_len + strlen(to) + 2;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t at = yaml_len, n;
    if (from) {
        const char *p = strstr(yaml_text, from);
        if (p == NULL) fail_msg("no \"%s\" in koshogi.yaml", from);
        at = (size_t)(p - yaml_text);
        memcpy(t, yaml_text, at);
        n = at + (size_t)sprintf(t + at, "%s", to);
        memcpy(t + n, p + strlen(from), yaml_len - at - strlen(from));
        n += yaml_len - at - strlen(from);
    } else {
        memcpy(t, yaml_text, yaml_len);
        n = yaml_len + (size_t)sprintf(t + yaml_len, "%s", to);
    }
    unsigned long line = 1;
    for (size_t i = 0; i < at; i++) line += t[i] == '\n';
    koma__fx_def *d = NULL;
    koma_error err;
    memset(&err, 0, sizeof err);
    if (koma__fx_def_load(t, n, "edited.yaml", option ? &option : NULL, option ? 1 : 0, &d, NULL, &err) == 0) {
        koma__fx_def_free(d);
        fail_msg("\"%s\" -> \"%s\" accepted", from ? from : "(end)", to);
    }
    if (err.code != code || strstr(err.message, says) == NULL || (at_edit && err.line != line))
        fail_msg("\"%s\" -> \"%s\": %s %lu:%lu %s (wanted %s at line %lu, \"%s\")", from ? from : "(end)",
                 to, koma_code_name(err.code), err.line, err.column, err.message, koma_code_name(code),
                 line, says);
    free(t);
}

static void definition_error(const char *from, const char *to, koma_code code, int at_edit,
                             const char *says)
{
    definition_error_with(from, to, NULL, code, at_edit, says);
}

static void test_definition_errors(void **state)
{
    (void)state;
    definition_error("engine: effects", "engine: classic", KOMA_E_GAME_FIELD, 0, "not an effect game");
    definition_error("style: K\n", "style: KK\n", KOMA_E_GAME_FIELD, 1, "style must be one letter");
    definition_error("hands: inert", "hands: shogi", KOMA_E_GAME_FIELD, 1, "hands: inert");
    definition_error("  setup: {consensus: {}, dagaz: unsupported, seed: unsupported}",
                     "  [setup]: {consensus: {}}", KOMA_E_GAME_FIELD, 1, "an option name is a short scalar");
    definition_error("  gatling.range: {\"7\": {}, \"5\": {gatling_range: 5}}", "  gatling.range: [7, 5]",
                     KOMA_E_GAME_FIELD, 1, "maps its values to parameters");
    definition_error("  setup: {consensus: {}, dagaz: unsupported, seed: unsupported}",
                     "  setup: {[consensus]: {}}", KOMA_E_GAME_FIELD, 1, "a value is a short scalar");
    definition_error("  setup: {consensus: {}, dagaz: unsupported, seed: unsupported}",
                     "  setup: {dagaz: unsupported, consensus: {}}", KOMA_E_GAME_FIELD, 1,
                     "the default of setup must be supported");
    definition_error(NULL, "rule_options: 5\n", KOMA_E_GAME_FIELD, 1, "rule_options must be a mapping");
    definition_error("  - {token: \"+D\", name: Thunderclap, path: {betza: W, steps: 5, revisit: $thunderclap_path}}",
                     "  - {token: \"+D\", name: Thunderclap}", KOMA_E_GAME_FIELD, 1, "no movement");
    definition_error("betza: FD, legs: {first: FD, then: FD}", "betza: FD, legs: {first: R, then: FD}",
                     KOMA_E_BETZA_UNSUPPORTED, 1, "legs: leaps only");
    definition_error("{token: \"+R\", name: Promoted chariot, betza: R}",
                     "{token: \"+R\", name: Promoted chariot, betza: \"R!\"}", KOMA_E_BETZA_SYNTAX, 1,
                     "betza \"R!\"");
    definition_error("  bows: [L, X, \"+L\", \"+X\"]", "  [bows]: [L, X, \"+L\", \"+X\"]", KOMA_E_GAME_FIELD, 1,
                     "classes: a name is a short scalar");
    definition_error("  - {pieces: [\"+D\", \"+B^\"], unless_own: [T, \"+T\"]}",
                     "  - {pieces: [D, \"+B^\"], unless_own: [T, \"+T\"]}", KOMA_E_GAME_PIECE, 1,
                     "is not a promoted piece");
    definition_error("  - {token: \"K^\", name: General, betza: K}", "  - {token: \"k^\", name: General, betza: K}",
                     KOMA_E_GAME_PIECE, 1, "first-player EPIN");
    /* parameters, sets, enumerations */
    definition_error("  optional: $promotion_optional", "  optional: $promotion_optionally", KOMA_E_GAME_FIELD, 1,
                     "unknown parameter \"promotion_optionally\"");
    definition_error("  bows: [L, X, \"+L\", \"+X\"]", "  bows: [L, x, \"+L\", \"+X\"]", KOMA_E_GAME_PIECE, 1,
                     "bows: \"x\" is neither a class nor a first-player token");
    definition_error("  bows: [L, X, \"+L\", \"+X\"]", "  bows: [L, \"X'\", \"+L\", \"+X\"]", KOMA_E_GAME_PIECE, 1,
                     "bows: \"X'\" is not a piece of the game");
    definition_error("  shoot_when: after-move", "  shoot_when: before-move", KOMA_E_GAME_FIELD, 1,
                     "shoot_when must be one of after-move, in-place, both");
    definition_error("promotes_to: \"+I\"}", "promotes_to: \"+K\"}", KOMA_E_GAME_PIECE, 1,
                     "promotes_to: not a piece of the game");
    definition_error("  - {token: \"+Z\", name: Promoted aide de camp, betza: RF}",
                     "  - {token: \"+Z\", name: Promoted aide de camp, betza: RF, promotes_to: E}", KOMA_E_GAME_PIECE,
                     0, "Promoted aide de camp: a promoted piece does not promote again");
    definition_error("  - {token: E, name: Elephant, betza: B}", "  - {token: E, name: Elephant, betza: B, promotes_to: \"+I\"}",
                     KOMA_E_GAME_PIECE, 0, "Master at arms: two pieces promote to it");
    /* (the list kept under a key the engine does not read) */
    definition_error("\npieces:\n", "\npieces: []\ndescription:\n", KOMA_E_GAME_FIELD, 0,
                     "pieces must be a non-empty list");
    /* options: the values of an option, the definition's own choices */
    definition_error_with("  gatling.range: {\"7\": {}, \"5\": {gatling_range: 5}}",
                          "  gatling.range: {\"7\": {}, \"5\": 5}", "gatling.range=5", KOMA_E_GAME_FIELD, 1,
                          "a value is a mapping of parameters, or unsupported");
    definition_error_with("  gatling.range: {\"7\": {}, \"5\": {gatling_range: 5}}",
                          "  gatling.range: {\"7\": {}, \"5\": {gatling_ranges: 5}}", "gatling.range=5",
                          KOMA_E_GAME_FIELD, 1, "options: unknown parameter \"gatling_ranges\"");
    definition_error(NULL, "rule_options: {gatling.range: [5]}\n", KOMA_E_GAME_FIELD, 1, "rule_options: option: value");
    definition_error(NULL, "rule_options: {gatling.ranges: \"5\"}\n", KOMA_E_GAME_OPTION_UNKNOWN, 1,
                     "no rule option \"gatling.ranges\"");
    definition_error(NULL, "rule_options: {gatling.range: \"6\"}\n", KOMA_E_GAME_OPTION_VALUE, 1,
                     "rule option gatling.range has no value \"6\"");
    /* the YAML reader's checks (lib/util_yaml.c) */
    definition_error(NULL, "rule_options: [\n", KOMA_E_GAME_YAML, 0, "");
    definition_error("  - {pieces: [\"+T\"], near: [\"+T'\"]", "  - {pieces: [\"+T\"], pieces: [\"+T'\"]",
                     KOMA_E_GAME_FIELD, 1, "reversions: duplicate key \"pieces\"");
    definition_error("  royal_captured: false\n  survival: $survival", "  - $survival", KOMA_E_GAME_FIELD, 0,
                     "defeat must be a mapping");
    definition_error("  zone: 6 ", "  zone: six ", KOMA_E_GAME_FIELD, 1, "zone must be an integer");
    definition_error("  zone: 6 ", "  zone: 20 ", KOMA_E_GAME_FIELD, 1, "zone must be between 0 and 19");
    definition_error("  arrival_burn: true", "  arrival_burn: yes", KOMA_E_GAME_FIELD, 1,
                     "arrival_burn must be true or false");
    definition_error("name: General,", "name: \"Gen\\0eral\",", KOMA_E_GAME_FIELD, 1, "name contains a NUL character");
    definition_error("name: General,",
                     "name: General of the armies of the east and of the west and of the north and of the south,",
                     KOMA_E_GAME_FIELD, 1, "name exceeds");
}

/* A position the engine cannot play is refused before any move: board, styles,
 * pieces, hands. */
static void test_position_fits(void **state)
{
    (void)state;
    koma__fx_def *d = NULL;
    koma_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(koma__fx_def_load(yaml_text, yaml_len, "koshogi.yaml", NULL, 0, &d, NULL, &err), 0);
    static const struct {
        const char *feen;
        koma_code code;
        const char *says;
    } cases[] = {
        {"lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s", KOMA_E_RULES_SHAPE,
         "the game is played on a 19x19 board"},
        {"k^18/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / S/s", KOMA_E_RULES_STYLE,
         "the game's positions use the styles K/k"},
        {"k^18/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^17B / K/k", KOMA_E_RULES_PIECE,
         "\"B\" is not a piece of the game"},
        {"k^18/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 B/ K/k", KOMA_E_RULES_PIECE,
         "\"B\" in hand is not a piece of the game"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        koma_position pos;
        koma_position_init(&pos);
        if (koma_feen_parse(cases[i].feen, strlen(cases[i].feen), 0, &pos, &err) != 0)
            fail_msg("%s: %s", cases[i].feen, err.message);
        koma_error_clear(&err);
        assert_int_equal(koma__fx_position_fits(d, &pos, &err), -1);
        if (err.code != cases[i].code || strcmp(err.message, cases[i].says) != 0)
            fail_msg("%s: %s: %s", cases[i].feen, koma_code_name(err.code), err.message);
        koma_position_cleanup(&pos);
    }
    /* the start fits, with pieces of the game in either hand */
    koma_position pos;
    koma_position_init(&pos);
    static const char fits[] = "k^18/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 2P'/z K/k";
    assert_int_equal(koma_feen_parse(fits, strlen(fits), 0, &pos, &err), 0);
    assert_int_equal(koma__fx_position_fits(d, &pos, &err), 0);
    /* more in hand than twice the squares (no FEEN says that: it counts the
     * pieces against the squares) */
    koma_piece pawn;
    assert_int_equal(koma_epin_parse(LIT("P"), &pawn, NULL), 0);
    assert_int_equal(koma_hand_add(&pos.hands[0], pawn, 2 * 361 + 1, &err), 0);
    assert_int_equal(koma__fx_position_fits(d, &pos, &err), -1);
    assert_int_equal(err.code, KOMA_E_RULES_HAND);
    assert_string_equal(err.message, "too many pieces in hand");
    koma_position_cleanup(&pos);
    koma__fx_def_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_definition),
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_movelists),
        cmocka_unit_test(test_fog_one_jump),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_definition_errors),
        cmocka_unit_test(test_position_fits),
        cmocka_unit_test(test_playouts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
