/* cmd/verdict_out.c — verdicts on stdout (see verdict_out.h). */
#include "verdict_out.h"

#include <string.h>


/* n in decimal at p; past it. */
static char *put_number(char *p, unsigned long long n)
{
    char d[24];
    size_t k = 0;
    do d[k++] = (char)('0' + n % 10); while ((n /= 10) != 0);
    while (k) *p++ = d[--k];
    return p;
}

/* s at p (its length known to fit); past it. */
static char *put_text(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static void replay_json(FILE *f, const koma_verdict *v, const char *file, unsigned long line,
                        const char *fid)
{
    char reason[1024];
    koma_verdict_reason(v, reason, sizeof reason);
    fputs("{\"file\":", f);
    cli_json_cstr(f, file);
    fprintf(f, ",\"line\":%lu,\"game\":", line);
    cli_json_cstr(f, koma_game_id(v->game));
    fputs(",\"result\":", f);
    cli_json_cstr(f, v->result_text);
    fputs(",\"status\":", f);
    if (v->has_status) cli_json_cstr(f, koma_cgsn_name(v->status));
    else fputs("null", f);
    if (v->has_ply) fprintf(f, ",\"ply\":%zu", v->ply);
    else fputs(",\"ply\":null", f);
    fprintf(f, ",\"played\":%zu,\"plies\":%zu,\"feen\":", v->played, v->plies);
    cli_json_cstr(f, v->feen);
    fprintf(f, ",\"fid\":\"%s\",\"reason\":", fid);
    cli_json_cstr(f, reason);
    fprintf(f, ",\"disputed\":%s", v->disputes ? "true" : "false");
    if (v->illegal) {
        fprintf(f, ",\"illegal\":{\"ply\":%zu,\"pmn\":", v->ply);
        cli_json_cstr(f, v->refused_text);
        fputs(",\"code\":", f);
        cli_json_cstr(f, koma_code_name(v->refused_code));
        fputs(",\"message\":", f);
        cli_json_cstr(f, v->refused_message);
        fputs(",\"legal\":[", f);
        for (const char *p = v->legal; *p;) {
            const char *e = strchr(p, ' ');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            if (p != v->legal) putc(',', f);
            cli_json_string(f, p, n);
            p += n;
            if (*p == ' ') p++;
        }
        fputs("]}", f);
    }
    if (v->kind == KOMA_VERDICT_CLAIM) {
        fprintf(f, ",\"claim\":{\"kind\":\"%s\",\"rule\":\"%s\"",
                v->claim == KOMA_CLAIM_IMPASSE ? "impasse" : "declaration", koma_verdict_claim_rule(v));
        if (v->claim == KOMA_CLAIM_DECLARATION)
            fprintf(f, ",\"declarer\":\"%s\",\"king_in_zone\":%s,\"in_check\":%s,"
                    "\"zone_pieces\":%u", v->declarer == KOMA_FIRST ? "first" : "second",
                    v->king_in_zone ? "true" : "false", v->king_in_check ? "true" : "false",
                    v->zone_pieces);
        fprintf(f, ",\"points\":{\"first\":%u,\"second\":%u},\"handicap_points\":{\"first\":%u,"
                "\"second\":%u}", v->points[0], v->points[1], v->handicap_points[0], v->handicap_points[1]);
        /* the stated handicap (a name of koma's table: nothing to escape) */
        if (v->handicap_stated[0])
            fprintf(f, ",\"handicap_stated\":\"%s\",\"handicap_setup\":{\"first\":%u,\"second\":%u}",
                    v->handicap_stated, v->handicap_setup[0], v->handicap_setup[1]);
        fprintf(f, ",\"needed\":%u,\"failed\":[", v->points_needed);
        static const char *const words[] = {"zone", "pieces", "check", "points", "try"};
        const char *sep = "";
        for (unsigned b = 0; b < 5; b++)
            if (v->claim_failed & (1u << b)) {
                fprintf(f, "%s\"%s\"", sep, words[b]);
                sep = ",";
            }
        fputs("]}", f);
    }
    if (v->clock != KOMA_CLOCK_NONE) {
        static const char *const states[] = {"", "unchecked", "agrees", "time-left", "earlier"};
        fprintf(f, ",\"clock\":{\"checked\":%s,\"state\":\"%s\",\"side\":\"%s\"",
                v->clock == KOMA_CLOCK_UNCHECKED ? "false" : "true", states[v->clock],
                v->clock_side == KOMA_FIRST ? "first" : "second");
        if (v->clock == KOMA_CLOCK_UNCHECKED) {
            fputs(",\"missing\":", f);
            cli_json_cstr(f, v->clock_missing);
        } else {
            fprintf(f, ",\"left_ms\":%lld,\"spent_ms\":%lld", v->clock_left_ms, v->clock_spent_ms);
            if (v->clock == KOMA_CLOCK_EARLIER) fprintf(f, ",\"ply\":%zu", v->clock_ply);
        }
        putc('}', f);
    }
    if (v->extra) fprintf(f, ",\"extra\":%zu", v->extra);
    if (v->notation_faults) fprintf(f, ",\"notation\":%zu", v->notation_faults);
    if (v->has_recorded) {
        const koma_recorded *rec = &v->recorded;
        fputs(",\"recorded\":{", f);
        const char *sep = "";
        if (rec->has_result) {
            fputs("\"result\":", f);
            cli_json_cstr(f, rec->result);
            sep = ",";
        }
        if (rec->has_status) {
            fprintf(f, "%s\"status\":", sep);
            cli_json_cstr(f, koma_cgsn_name(rec->status));
            sep = ",";
        }
        if (rec->has_ply) fprintf(f, "%s\"ply\":%llu", sep, (unsigned long long)rec->ply);
        putc('}', f);
    }
    fputs("}\n", f);
}

void verdict_print_replay(const cli *c, const koma_verdict *v, const char *file,
                          unsigned long line, int adjudicate)
{
    char fid[KOMA_FID_BUF];
    koma_fid_of(v->feen, strlen(v->feen), fid);
    if (c->json) {
        replay_json(stdout, v, file, line, fid);
        return;
    }
    /* the line put together here and written once (printf's cost on every record) */
    char out[sizeof v->feen + sizeof v->result_text + KOMA_FID_BUF + 128], *p = out;
    fputs(file, stdout);
    *p++ = ':';
    p = put_number(p, line);
    *p++ = '\t';
    p = put_text(p, v->result_text);
    *p++ = '\t';
    p = put_text(p, v->has_status ? koma_cgsn_name(v->status) : "-");
    *p++ = '\t';
    if (v->has_ply) p = put_number(p, v->ply);
    else *p++ = '-';
    if (adjudicate) {
        char reason[1024];
        koma_verdict_reason(v, reason, sizeof reason);
        fwrite(out, 1, (size_t)(p - out), stdout);
        printf("\t%s\n", reason);
        return;
    }
    *p++ = '\t';
    p = put_text(p, v->feen);
    *p++ = '\t';
    p = put_number(p, v->played);
    *p++ = '\t';
    p = put_text(p, fid);
    *p++ = '\n';
    fwrite(out, 1, (size_t)(p - out), stdout);
}

int verdict_print_positions(cli *c, koma_repeats *t, const char *noun, const char *file,
                            unsigned long line, size_t *n)
{
    koma_error err;
    if (koma_repeats_list(t, n, &err) != 0) {
        cli_trouble(c, "memory: out of memory");
        return -1;
    }
    for (size_t i = 0; i < *n && !c->quiet; i++) {
        koma_repeat r;
        unsigned long where;
        koma_repeats_at(t, i, &r);
        if (c->json) {
            fputs("{\"file\":", stdout);
            cli_json_cstr(stdout, file);
            printf(",\"line\":%lu,\"type\":\"position\",\"count\":%lu,\"%s\":[", line, r.count, noun);
        } else {
            printf("%s:%lu\tposition\t%lu\t", file, line, r.count);
        }
        for (int m = 0; koma_repeats_where(t, &r, &where); m++) printf("%s%lu", m ? "," : "", where);
        if (c->json) {
            printf("],\"fid\":\"%s\",\"feen\":", r.fid);
            cli_json_cstr(stdout, r.feen);
            fputs("}\n", stdout);
        } else {
            printf("\t%s\t%s\n", r.fid, r.feen);
        }
    }
    return 0;
}

void verdict_print_repetition(const cli *c, const koma_verdict *v, koma_repeats *positions,
                              size_t nrep, const char *file, unsigned long line)
{
    const char *rule = koma_verdict_repetition_rule(v);
    int trig = strcmp(rule, "none") != 0;
    char reason[1024];
    if (c->quiet) return;
    koma_verdict_repetition_reason(v, positions, nrep, reason, sizeof reason);
    if (!c->json) {
        if (trig)
            printf("%s:%lu\tverdict\t%s\t%s\t%zu\t%s\t%s\n", file, line, rule, v->result_text,
                   v->ply, v->repeated_fid, reason);
        else
            printf("%s:%lu\tverdict\tnone\t*\t-\t-\t%s\n", file, line, reason);
        return;
    }
    fputs("{\"file\":", stdout);
    cli_json_cstr(stdout, file);
    printf(",\"line\":%lu,\"type\":\"verdict\",\"game\":\"%s\",\"plies\":%zu,\"repeated\":%zu,"
           "\"rule\":\"%s\",\"triggered\":%s", line, koma_game_id(v->game), v->played, nrep, rule,
           trig ? "true" : "false");
    if (trig) {
        printf(",\"result\":\"%s\",\"status\":\"repetition\",\"ply\":%zu", v->result_text, v->ply);
        if (v->illegal) {
            printf(",\"repeats\":%zu,\"pmn\":", v->repeats);
            cli_json_cstr(stdout, v->move);
        } else {
            printf(",\"first\":%zu", v->cycle_first);
        }
        if (v->result != KOMA_RESULT_DRAW)
            printf(",\"loser\":\"%s\"", v->result == KOMA_RESULT_FIRST ? "second" : "first");
        printf(",\"fid\":\"%s\",\"feen\":", v->repeated_fid);
        cli_json_cstr(stdout, v->repeated_feen);
    } else if (v->refused) {
        printf(",\"illegal\":{\"ply\":%zu,\"code\":\"%s\"}", v->refused_ply,
               koma_code_name(v->refused_code));
    } else if (v->kind == KOMA_VERDICT_RULES) {
        printf(",\"ended\":{\"ply\":%zu,\"status\":\"%s\",\"result\":\"%s\"}", v->ply,
               koma_cgsn_name(v->status), v->result_text);
    }
    if (v->extra) printf(",\"unchecked\":%zu", v->extra);
    fputs(",\"reason\":", stdout);
    cli_json_cstr(stdout, reason);
    fputs("}\n", stdout);
}
