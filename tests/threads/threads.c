/*
 * tests/threads/threads.c — libkoma's thread safety (libkoma(3), THREAD SAFETY):
 * one built-in game set and the inputs in memory, shared by every thread; each
 * thread has its own referee, hub and streams. The work: a PCN database replayed
 * (each record's verdict, its reason sentence and its outcome written back), the
 * shogi-world records (KIF, KI2, CSA, JKF) converted to PCN and that PCN to CSA
 * and KIF, a diagram and the FID of each record's final position, and every game
 * exported as GGN (jansson, through the library's allocation hooks). It is done
 * once alone, then by THREADS threads at once, ROUNDS times each: every thread's
 * text must be the single-threaded one, byte for byte. The threads share a new
 * set, none of its built-in games compiled yet: their first lookups of each game
 * race to compile it (lib/game_set.c: once, published atomically). Built and run under
 * ThreadSanitizer by `make tsan`, which must report nothing.
 *
 * Usage: threads DATA-DIR (tests/data)
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <koma/koma.h>

#define THREADS 4
#define ROUNDS 2

/* An input file, read once. */
typedef struct input {
    char name[256];
    char *text;
    size_t len;
} input;

static koma_game_set *games;           /* shared: read only from now on */
static input database;                 /* pcn/games.jsonl */
static input records[64];              /* shogi-records/: KIF, KI2, CSA, JKF */
static size_t nrecords;

static int read_file(const char *path, input *in)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return -1;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *b = realloc(buf, cap *= 2);
            if (b == NULL) free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (buf == NULL) return -1;
    snprintf(in->name, sizeof in->name, "%s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    in->text = buf;
    in->len = len;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const input *)a)->name, ((const input *)b)->name);
}

static int read_inputs(const char *data)
{
    char path[512];
    snprintf(path, sizeof path, "%s/pcn/games.jsonl", data);
    if (read_file(path, &database) != 0) return -1;
    snprintf(path, sizeof path, "%s/shogi-records", data);
    DIR *d = opendir(path);
    if (d == NULL) return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && nrecords < sizeof records / sizeof records[0]) {
        const char *dot = strrchr(e->d_name, '.');
        if (dot == NULL || (strcmp(dot, ".kif") && strcmp(dot, ".ki2") && strcmp(dot, ".csa") &&
                            strcmp(dot, ".jkf")))
            continue;
        char p[768];
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        if (read_file(p, &records[nrecords]) != 0) {
            closedir(d);
            return -1;
        }
        nrecords++;
    }
    closedir(d);
    qsort(records, nrecords, sizeof records[0], by_name);
    return nrecords > 0 ? 0 : -1;
}

/* ---- one thread's work, its text in out -------------------------------------------------- */

typedef struct work {
    koma_buffer out;
    int trouble;                       /* memory, or a call that should not fail */
} work;

static void put(work *w, const char *s, size_t len)
{
    if (w->out.len + len + 1 > w->out.cap) {
        size_t cap = w->out.cap ? w->out.cap : 4096;
        while (cap < w->out.len + len + 1) cap *= 2;
        char *d = realloc(w->out.data, cap);
        if (d == NULL) {
            w->trouble = 1;
            return;
        }
        w->out.data = d;
        w->out.cap = cap;
    }
    memcpy(w->out.data + w->out.len, s, len);
    w->out.len += len;
    w->out.data[w->out.len] = '\0';
}

static void puts_(work *w, const char *s) { put(w, s, strlen(s)); }

static void put_error(work *w, const char *what, const koma_error *err)
{
    char line[KOMA_ERROR_MESSAGE_MAX + 128];
    snprintf(line, sizeof line, "%s: %s: %s\n", what, koma_code_name(err->code), err->message);
    puts_(w, line);
}

/* The final position of a verdict drawn, and its FID. */
static void position_of(work *w, const koma_verdict *v)
{
    koma_position pos;
    koma_error err;
    koma_position_init(&pos);
    if (koma_feen_parse(v->feen, strlen(v->feen), KOMA_FEEN_STRICT, &pos, &err) != 0) {
        put_error(w, "feen", &err);
        koma_position_cleanup(&pos);
        return;
    }
    char fid[KOMA_FID_BUF], pic[8192];
    if (koma_position_fid(&pos, fid, &err) == 0) {
        puts_(w, fid);
        puts_(w, "\n");
    }
    koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
    o.format = KOMA_DIAGRAM_UNICODE;
    size_t n;
    if (koma_diagram_print(&pos, v->game, &o, pic, sizeof pic, &n, &err) == 0) puts_(w, pic);
    else put_error(w, "diagram", &err);
    koma_position_cleanup(&pos);
}

/* Every record of the database replayed: verdict, reason, outcome written back. */
static void replay(work *w, koma_referee *ref)
{
    koma_verdict *v = malloc(sizeof *v);
    if (v == NULL) {
        w->trouble = 1;
        return;
    }
    v->size = sizeof *v;
    const char *p = database.text, *end = database.text + database.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        koma_error err;
        koma_pcn *rec = NULL;
        koma_pcn_parse_json(p, len, &rec, &err);
        p += len + 1;
        if (rec == NULL) {
            put_error(w, "pcn", &err);
            continue;
        }
        int rc = koma_referee_pcn(ref, games, NULL, rec, NULL, v, &err);
        if (rc != 0) {
            put_error(w, "replay", &err);
            if (rc < 0) w->trouble = 1;
            koma_pcn_free(rec);
            continue;
        }
        char line[4096];
        size_t n = koma_verdict_reason(v, line, sizeof line - 1);
        if (n >= sizeof line - 1) n = sizeof line - 2;
        line[n] = '\n';
        put(w, line, n + 1);
        koma_buffer json = {0};
        if (koma_verdict_outcome(v, rec, &err) == 0 && koma_pcn_write_json(rec, 0, &json, &err) == 0)
            put(w, json.data, json.len);
        else
            put_error(w, "outcome", &err);
        koma_buffer_cleanup(&json);
        position_of(w, v);
        koma_pcn_free(rec);
    }
    free(v);
}

/* Each shogi-world record to PCN, and the PCN to CSA and KIF. */
static void convert(work *w, koma_hub *hub)
{
    const koma_format *csa = koma_format_find("csa", 3), *kif = koma_format_find("kif", 3);
    koma_error err;
    koma_format_writer *to_csa = NULL;
    koma_format_writer_new(hub, csa, 0, &to_csa, &err);
    koma_format_writer *to_kif = NULL;
    koma_format_writer_new(hub, kif, KOMA_WRITE_UTF8, &to_kif, &err);
    if (to_csa == NULL || to_kif == NULL) w->trouble = 1;
    for (size_t i = 0; i < nrecords && to_csa && to_kif; i++) {
        puts_(w, records[i].name);
        puts_(w, "\n");
        koma_format_reader_options ro = KOMA_FORMAT_READER_OPTIONS_INIT;
        koma_format_reader *rs = NULL;
        koma_format_reader_new(hub, NULL, &ro, &rs, &err);
        if (rs == NULL) {
            w->trouble = 1;
            break;
        }
        if (koma_format_reader_feed(rs, records[i].text, records[i].len, &err) != 0) put_error(w, "feed", &err);
        koma_format_reader_finish(rs);
        koma_pcn *rec;
        int st;
        while ((st = koma_format_reader_next(rs, &rec, &err)) != KOMA_PCN_END && st != KOMA_PCN_FATAL) {
            if (st == KOMA_PCN_INVALID) put_error(w, "read", &err);
            if (st != KOMA_PCN_RECORD) continue;
            koma_buffer text = {0};
            if (koma_pcn_write_json(rec, 0, &text, &err) == 0) put(w, text.data, text.len);
            text.len = 0;
            if (koma_format_writer_record(to_csa, rec, &text, &err) == 0) put(w, text.data, text.len);
            else put_error(w, "csa", &err);
            text.len = 0;
            if (koma_format_writer_record(to_kif, rec, &text, &err) == 0) put(w, text.data, text.len);
            else put_error(w, "kif", &err);
            koma_buffer_cleanup(&text);
            koma_pcn_free(rec);
        }
        if (st == KOMA_PCN_FATAL) put_error(w, "fatal", &err);
        koma_format_reader_free(rs);
    }
    koma_format_writer_free(to_csa);
    koma_format_writer_free(to_kif);
}

/* Every game of the shared set as GGN (jansson). */
static void export_games(work *w)
{
    for (size_t i = 0; i < koma_game_set_count(games); i++) {
        const koma_game *g = koma_game_set_at(games, i);
        if (!koma_game_playable(g)) continue;
        koma_error err;
        koma_ggn *doc = NULL;
        koma_game_to_ggn(g, &doc, &err);
        if (doc == NULL) {
            put_error(w, koma_game_id(g), &err);
            continue;
        }
        size_t len;
        char *text = NULL;
        koma_ggn_dump(doc, KOMA_GGN_COMPACT, &len, &text, &err);
        if (text) put(w, text, len);
        else w->trouble = 1;
        free(text);
        koma_ggn_free(doc);
    }
}

static void *run(void *arg)
{
    work *w = arg;
    koma_error err;
    koma_referee *ref = NULL;
    koma_hub *hub = NULL;
    koma_hub_new(games, &hub, &err);
    if (hub == NULL || koma_referee_new(NULL, &ref, &err) != 0) {
        w->trouble = 1;
        koma_hub_free(hub);
        return NULL;
    }
    for (int r = 0; r < ROUNDS && !w->trouble; r++) {
        w->out.len = 0;
        replay(w, ref);
        convert(w, hub);
        export_games(w);
    }
    koma_referee_free(ref);
    koma_hub_free(hub);
    return NULL;
}

static size_t lines(const input *in)
{
    size_t n = 0;
    for (size_t i = 0; i < in->len; i++) n += in->text[i] == '\n';
    return n;
}

int main(int argc, char **argv)
{
    koma_error err;
    if (argc != 2 || read_inputs(argv[1]) != 0) {
        fprintf(stderr, "threads: usage: threads DATA-DIR (with pcn/games.jsonl and shogi-records/)\n");
        return 2;
    }
    if (koma_game_set_new(&games, &err) != 0) {
        fprintf(stderr, "threads: %s\n", err.message);
        return 2;
    }
    work alone = {{0}, 0};
    run(&alone);
    if (alone.trouble || alone.out.len == 0) {
        fprintf(stderr, "threads: the single-threaded run failed\n");
        return 2;
    }
    koma_game_set *first = games;
    if (koma_game_set_new(&games, &err) != 0) {
        fprintf(stderr, "threads: %s\n", err.message);
        return 2;
    }
    work w[THREADS];
    pthread_t t[THREADS];
    memset(w, 0, sizeof w);
    int pass = 0, fail = 0;
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, run, &w[i]) != 0) {
            fprintf(stderr, "threads: cannot start a thread\n");
            return 2;
        }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        if (!w[i].trouble && w[i].out.len == alone.out.len &&
            memcmp(w[i].out.data, alone.out.data, alone.out.len) == 0) {
            pass++;
        } else {
            fprintf(stderr, "threads: thread %d's text differs from the single-threaded run's "
                            "(%zu bytes, not %zu)%s\n", i, w[i].out.len, alone.out.len,
                    w[i].trouble ? ", and it ran into trouble" : "");
            fail++;
        }
        free(w[i].out.data);
    }
    printf("threads: %d passed, %d failed (%zu bytes a thread: %zu records replayed, %zu files "
           "converted, %zu games as GGN)\n", pass, fail, alone.out.len,
           lines(&database), nrecords, koma_game_set_count(games));
    free(alone.out.data);
    free(database.text);
    for (size_t i = 0; i < nrecords; i++) free(records[i].text);
    koma_game_set_free(games);
    koma_game_set_free(first);
    return fail ? 1 : 0;
}
