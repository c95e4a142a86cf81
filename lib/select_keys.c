/*
 * lib/select_keys.c — game keys and sets of them (koma/select.h): the first
 * 128 bits of a SHA-256 (nettle) of a game's setup FEEN and plies, and an
 * open-addressing table of such keys for finding duplicates in bounded memory.
 */
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "internal.h"

_Static_assert(sizeof(struct sha256_ctx) <= sizeof(((koma_game_key_ctx *)0)->state_),
               "koma_game_key_ctx holds a SHA-256 context");

static struct sha256_ctx *sha(koma_game_key_ctx *k) { return (struct sha256_ctx *)(void *)k->state_; }

/* Hash s[0..len) with every "'" left out (marks 0), then a line feed. */
static void put(koma_game_key_ctx *k, const char *s, size_t len)
{
    if (k->marks) {
        if (len) sha256_update(sha(k), len, (const uint8_t *)s);
    } else {
        size_t from = 0;
        for (size_t i = 0; i <= len; i++) {
            if (i < len && s[i] != '\'') continue;
            if (i > from) sha256_update(sha(k), i - from, (const uint8_t *)s + from);
            from = i + 1;
        }
    }
    sha256_update(sha(k), 1, (const uint8_t *)"\n");
}

int koma_game_key_begin(koma_game_key_ctx *k, const char *feen, size_t len, int marks,
                        koma_error *err)
{
    k->marks = marks;
    sha256_init(sha(k));
    if (marks || memchr(feen, '\'', len) == NULL) {
        /* a canonical FEEN (a record's setup is one) without "'": itself */
        k->marks = 1;
        put(k, feen, len);
        k->marks = marks;
        return 0;
    }
    /* every "'" removed, then written canonically again (hand items merge) */
    koma_position pos;
    koma_position_init(&pos);
    char buf[KOMA_FEEN_MAX_LEN + 1];
    int rc = koma_feen_parse(feen, len, KOMA_FEEN_STRICT, &pos, err);
    if (rc == 0) rc = koma_position_strip_derived(&pos, err);
    if (rc == 0) {
        size_t n = koma_feen_write(&pos, buf, sizeof buf);
        if (n >= sizeof buf) rc = koma_error_set(err, KOMA_E_FEEN_LENGTH, 0, NULL);
        else {
            k->marks = 1;
            put(k, buf, n);
            k->marks = marks;
        }
    }
    koma_position_cleanup(&pos);
    return rc;
}

void koma_game_key_ply(koma_game_key_ctx *k, const char *ply, size_t len) { put(k, ply, len); }

void koma_game_key_end(koma_game_key_ctx *k, koma_game_key *out)
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(sha(k), SHA256_DIGEST_SIZE, digest);
    memcpy(out->b, digest, KOMA_GAME_KEY_BYTES);
}

/* ---- the set ------------------------------------------------------------------------ */

struct koma_keyset {
    koma_game_key *slots;              /* an all-zero slot is free */
    size_t cap, count;                 /* cap: a power of two */
    int zero;                          /* the all-zero key itself was added */
};

#define KEYSET_FIRST 1024u

int koma_keyset_new(koma_keyset **out, koma_error *err)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    return 0;
}

void koma_keyset_free(koma_keyset *s)
{
    if (s == NULL) return;
    free(s->slots);
    free(s);
}

static uint64_t slot_hash(const koma_game_key *k)
{
    uint64_t h;
    memcpy(&h, k->b, sizeof h);        /* SHA-256 bits: already uniform */
    return h;
}

static int is_zero(const koma_game_key *k)
{
    static const koma_game_key zero;
    return memcmp(k->b, zero.b, sizeof zero.b) == 0;
}

/* Where k is, or the free slot where it would go. */
static koma_game_key *probe(koma_game_key *slots, size_t cap, const koma_game_key *k)
{
    size_t i = (size_t)slot_hash(k) & (cap - 1);
    for (;;) {
        koma_game_key *s = &slots[i];
        if (is_zero(s) || memcmp(s->b, k->b, sizeof k->b) == 0) return s;
        i = (i + 1) & (cap - 1);
    }
}

static int grow(koma_keyset *s, koma_error *err)
{
    size_t cap = s->cap ? 2 * s->cap : KEYSET_FIRST;
    if (cap > SIZE_MAX / sizeof(koma_game_key)) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    koma_game_key *slots = calloc(cap, sizeof *slots);
    if (slots == NULL) return koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
    for (size_t i = 0; i < s->cap; i++)
        if (!is_zero(&s->slots[i])) *probe(slots, cap, &s->slots[i]) = s->slots[i];
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return 0;
}

int koma_keyset_add(koma_keyset *s, const koma_game_key *key, koma_error *err)
{
    if (is_zero(key)) {
        if (s->zero) return 0;
        s->zero = 1;
        s->count++;
        return 1;
    }
    if (s->cap && !is_zero(probe(s->slots, s->cap, key))) return 0;
    size_t held = s->count - (size_t)s->zero;
    if ((s->cap == 0 || (held + 1) * 4 > s->cap * 3) && grow(s, err) != 0) return -1;
    *probe(s->slots, s->cap, key) = *key;
    s->count++;
    return 1;
}

size_t koma_keyset_count(const koma_keyset *s) { return s->count; }
size_t koma_keyset_bytes(const koma_keyset *s) { return s->cap * sizeof(koma_game_key) + sizeof *s; }
