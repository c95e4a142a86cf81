/*
 * lib/cgsn.c — CGSN game statuses (koma-formats(5), CGSN): exactly the 14 current
 * lowercase names, each inferable (FEEN + rule system decide it) or
 * explicit-only (history, clocks or a declaration). Anything else, including
 * other letter cases, surrounding spaces and the older underscored names, is
 * cgsn.unknown at column 1; the message suggests the current name when the
 * input is a known variant.
 */
#include <string.h>

#include "internal.h"

static const struct {
    const char *name;
    koma_status_class cls;
} statuses[KOMA_STATUS_COUNT] = {
    [KOMA_STATUS_CHECK]        = { "check",        KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_STALE]        = { "stale",        KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_CHECKMATE]    = { "checkmate",    KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_STALEMATE]    = { "stalemate",    KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_NOMOVE]       = { "nomove",       KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_BAREKING]     = { "bareking",     KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_MAREKING]     = { "mareking",     KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_INSUFFICIENT] = { "insufficient", KOMA_STATUS_INFERABLE },
    [KOMA_STATUS_RESIGNATION]  = { "resignation",  KOMA_STATUS_EXPLICIT },
    [KOMA_STATUS_ILLEGALMOVE]  = { "illegalmove",  KOMA_STATUS_EXPLICIT },
    [KOMA_STATUS_TIMELIMIT]    = { "timelimit",    KOMA_STATUS_EXPLICIT },
    [KOMA_STATUS_MOVELIMIT]    = { "movelimit",    KOMA_STATUS_EXPLICIT },
    [KOMA_STATUS_REPETITION]   = { "repetition",   KOMA_STATUS_EXPLICIT },
    [KOMA_STATUS_AGREEMENT]    = { "agreement",    KOMA_STATUS_EXPLICIT },
};

/* Names of the specification's earlier vocabularies and their current names. */
static const struct {
    const char *old, *now;
} legacy[] = {
    { "staleturn", "nomove" },       { "bare_king", "bareking" },
    { "mare_king", "mareking" },     { "illegal_move", "illegalmove" },
    { "time_limit", "timelimit" },   { "move_limit", "movelimit" },
    { "timeout", "timelimit" },
};

static int lookup(const char *s, size_t len, int fold)
{
    for (int i = 0; i < KOMA_STATUS_COUNT; i++) {
        const char *n = statuses[i].name;
        if (strlen(n) != len) continue;
        size_t k = 0;
        for (; k < len; k++) {
            char c = s[k];
            if (fold && c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
            if (c != n[k]) break;
        }
        if (k == len) return i;
    }
    return -1;
}

int koma_cgsn_parse(const char *s, size_t len, koma_status *out, koma_error *err)
{
    char quoted[64];
    int i = lookup(s, len, 0);
    if (i >= 0) {
        if (out != NULL) *out = (koma_status)i;
        return 0;
    }
    koma_quote(quoted, sizeof quoted, s, len);
    if (len == 0) return koma_error_set(err, KOMA_E_CGSN_UNKNOWN, 0, "empty game status");
    i = lookup(s, len, 1);
    if (i >= 0)
        return koma_error_set(err, KOMA_E_CGSN_UNKNOWN, 0,
                              "unknown game status (statuses are lowercase: %s): \"%s\"",
                              statuses[i].name, quoted);
    for (size_t k = 0; k < sizeof legacy / sizeof legacy[0]; k++)
        if (strlen(legacy[k].old) == len && memcmp(legacy[k].old, s, len) == 0)
            return koma_error_set(err, KOMA_E_CGSN_UNKNOWN, 0,
                                  "unknown game status (not a current CGSN name; %s?): \"%s\"",
                                  legacy[k].now, quoted);
    return koma_error_set(err, KOMA_E_CGSN_UNKNOWN, 0, "unknown game status: \"%s\"", quoted);
}

const char *koma_cgsn_name(koma_status st)
{
    if ((unsigned)st >= KOMA_STATUS_COUNT) return NULL;
    return statuses[st].name;
}

koma_status_class koma_cgsn_class(koma_status st)
{
    if ((unsigned)st >= KOMA_STATUS_COUNT) return KOMA_STATUS_EXPLICIT;
    return statuses[st].cls;
}
