/*
 * lib/feen_quick.c — the verdict alone: is a line a valid strict FEEN?
 * (KOMA_FEEN_CHECK_ONLY, koma_feen_valid_lines). For validators.
 *
 * Each checker here answers 1 only when every rule of FEEN holds
 * (the line is a valid strict FEEN) and 0 when it cannot tell; lib/feen.c's
 * parsers then decide and report the first error in the order of checks
 * (koma-formats(5), FEEN). So the
 * order of the checks does not matter: on a valid line all of them pass, and a
 * checker that leaves out a rare form (a count of three digits, a line past its
 * window, a 3-D board for SSE2) only sends that line to the parser.
 *
 * Four levels, chosen at run time (__builtin_cpu_supports):
 *
 *   AVX-512  a line whose placement fits 62 bytes: the classification 64 bytes
 *         at once, the token grammar by two table look-ups (each byte's class,
 *         then each pair of neighbours' verdict), the ranks' running sum exact
 *         and compared rank by rank, the hand items in one vector (within the
 *         first 64 bytes: from the same classes and running sum); a placement
 *         of 62 to 126 bytes: two vectors, 128-bit masks; a 3-D board's ranks
 *         and layers from the same exact running sum (T < 256, at most 16
 *         ranks), else as AVX2's.
 *   AVX2  a line of at most 127 bytes (its '\n' in a 64- or 128-byte window)
 *         is classified 32 bytes at a time into one bit a byte (letters,
 *         digits, '/', ' ', '^', '\'', signs, anything else). The token grammar
 *         is a few mask tests (a '^' follows a letter, a '\'' a letter or '^', a
 *         sign precedes a letter, a '0' follows a digit, no "//", ...). The rank
 *         lengths need no loop: each byte weighs what it adds to its rank (1 a
 *         letter, a digit its value, ten times it before another digit), the
 *         placement's total T comes from one sum of absolute differences, and
 *         with F = T / ranks, a '/' weighing -F, the running (prefix) sum of the
 *         weights mod 256 must be 0 at every '/': every rank's length is then F
 *         mod 256, their sum T = ranks x F, so all are F exactly (F <= 255).
 *         A 3-D board (a "//" in the placement) has its ranks and layers read
 *         one byte at a time instead (layers_check). Only the hand items are
 *         read one by one (their order and identity).
 *   SSE2  a line whose placement fits 64 bytes: the same classification, 16
 *         bytes at a time, and a loop over the ranks.
 *   none  0: lib/feen.c's one-pass parser decides.
 *
 * The bulk entry, koma_feen_valid_lines, runs the AVX-512 or AVX2 checker over a
 * buffer of lines: the '\n' is found by the same loads (AVX2) or a 64-byte block
 * at a time (AVX-512), so a line costs no memchr and no call per line.
 */
#include <string.h>

#include "internal.h"

/* letter*2 + second, the high part of koma__hand_key (0: not a letter): the bytes
 * 64 to 127 (the others 0); also kvec's K_L2 rows */
#define L2_LETTERS                                                                     \
     0,  2,  4,  6,  8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,                    \
    32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52,  0,  0,  0,  0,  0,                    \
     0,  3,  5,  7,  9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31,                    \
    33, 35, 37, 39, 41, 43, 45, 47, 49, 51, 53,  0,  0,  0,  0,  0
static const uint8_t l2_of[256] = { [64] = L2_LETTERS };

static inline unsigned letter_l2(unsigned c) { return l2_of[c & 0xffu]; }

/*
 * The hands field s[from..to) (s[to] is a space): exactly one '/', each item a
 * count of one or two digits (not "1") or none, then an EPIN piece; canonical
 * order in each hand (count descending, then koma__hand_key ascending), no
 * identity twice. Returns the number of pieces in hand, or -1 when the field is
 * not known to be valid (a fault, a count of three digits, or two items of the
 * same letter and side: the parser decides).
 */
static __attribute__((always_inline)) inline long hands_check(const char *s, size_t from, size_t to)
{
    long sum = 0;
    unsigned prev = 0, slashes = 0;    /* prev: (127 - count) << 10 | key, strictly increasing */
    uint64_t seen = 0;                 /* letter*2 + second of the items of this hand */
    size_t i = from;
    while (i < to) {
        unsigned c = (unsigned char)s[i];
        if (c == '/') {
            if (slashes++) return -1;
            prev = 0;
            seen = 0;
            i++;
            continue;
        }
        unsigned v = 1;
        if (c - '1' < 9u) {
            v = c - '0';
            c = (unsigned char)s[++i];
            if (c - '0' < 10u) {
                v = v * 10u + (c - '0');
                c = (unsigned char)s[++i];
            }
            if (v == 1) return -1;
        }
        unsigned state = 2;
        if (c == '+' || c == '-') {
            state = c == '-' ? 0u : 1u;
            c = (unsigned char)s[++i];
        }
        unsigned l2 = letter_l2(c);
        if (l2 == 0) return -1;
        i++;
        unsigned key = l2 * 16u + state * 4u;
        if (s[i] == '^') { key += 2; i++; }
        if (s[i] == '\'') { key += 1; i++; }
        uint64_t bit = (uint64_t)1 << (l2 & 63u);
        unsigned ord = ((127u - v) << 10) | key;
        if (ord <= prev || (seen & bit)) return -1;
        prev = ord;
        seen |= bit;
        sum += (long)v;
    }
    return i == to && slashes == 1 ? sum : -1;
}

/*
 * A 3-D placement s[0..a) (it has a "//"; s[a] is its space) whose tokens the
 * vector tests passed (each '/' followed by a piece, a count or one more '/',
 * counts of at most two digits): every rank F squares, every layer the same
 * number of ranks R >= 2, no "///". Returns the squares, or 0 when the
 * placement is not known to be valid.
 */
static uint32_t layers_check(const char *s, size_t a)
{
    uint32_t cur = 0, files = 0, ranks = 0, per = 0, layers = 0;
    for (size_t i = 0; i <= a; i++) {
        unsigned c = (unsigned char)s[i];
        if (c - '0' < 10u) {
            uint32_t v = c - '0';
            unsigned d = (unsigned char)s[i + 1];
            if (d - '0' < 10u) {
                v = v * 10u + (d - '0');
                i++;
            }
            cur += v;
        } else if (letter_l2(c)) {
            cur++;
        } else if (c == '/' || i == a) {   /* a rank ends */
            if (ranks == 0 && layers == 0) files = cur;
            else if (cur != files) return 0;
            cur = 0;
            ranks++;
            if (i == a || s[i + 1] == '/') {   /* and a layer */
                if (i < a && s[++i + 1] == '/') return 0;
                if (layers++ == 0) per = ranks;
                else if (ranks != per) return 0;
                ranks = 0;
            }
        }
    }
    if (files == 0 || files > 255 || per < 2) return 0;
    return files * per * layers;
}

/* The style-turn field: the line ends in " X/y", letters of different case (l2: l2_of
 * or a copy of it). */
static inline int style_ok_in(const char *s, size_t len, const uint8_t *l2)
{
    if (len < 5) return 0;
    unsigned c1 = (unsigned char)s[len - 3], c3 = (unsigned char)s[len - 1];
    return s[len - 4] == ' ' && s[len - 2] == '/' && l2[c1] && l2[c3] && ((c1 ^ c3) & 0x20u);
}

static inline int style_ok(const char *s, size_t len) { return style_ok_in(s, len, l2_of); }

/* ---- AVX2 ------------------------------------------------------------------------ */

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_AVX2_CHECK 1
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,popcnt,bmi,bmi2")))
#define INLINE __attribute__((always_inline)) inline
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi,avx512vbmi2,avx2,popcnt,bmi,bmi2")))

/* floor(2^20 / r) + 1: T / r = (T * recip[r]) >> 20 for every T < 2^13 */
static const uint32_t recip[65] = {
    0, 1048577, 524289, 349526, 262145, 209716, 174763, 149797, 131073, 116509, 104858, 95326,
    87382, 80660, 74899, 69906, 65537, 61681, 58255, 55189, 52429, 49933, 47663, 45591, 43691,
    41944, 40330, 38837, 37450, 36158, 34953, 33826, 32769, 31776, 30841, 29960, 29128, 28340,
    27595, 26887, 26215, 25576, 24967, 24386, 23832, 23302, 22796, 22311, 21846, 21400, 20972,
    20561, 20165, 19785, 19419, 19066, 18725, 18397, 18079, 17773, 17477, 17191, 16914, 16645,
    16385,
};

#define MOVEMASK2(x0, x1) \
    ((uint64_t)(uint32_t)_mm256_movemask_epi8(x0) | (uint64_t)(uint32_t)_mm256_movemask_epi8(x1) << 32)
#define LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define SET1(c) _mm256_set1_epi8((char)(c))
/* The constant vectors are read from memory, as an operand of the instruction
 * that uses them: GCC builds each _mm256_set1_epi8 in a register (three
 * instructions) at every use, or spills it. Each row is 64 bytes (its 32 twice),
 * so that the AVX-512 code reads the whole row as it is, not a broadcast of it
 * (one instruction less at each use). */
#define C16(c) c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c
#define K32(c) { C16(c), C16(c), C16(c), C16(c) }
#define R4(...) { __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__ }   /* a 16-byte row */
enum { K_LET_LIM, K_0X20, K_LET_OFF, K_DIG_LIM, K_DIG_OFF, K_PLUS, K_MINUS, K_SLASH, K_CARET, K_QUOTE,
       K_SPACE, K_ZERO, K_0X0F, K_ONE, K_FIFTEEN, K_NL, K_A, K_26, K_TEN, K_TENS, K_25, K_9, K_99, K_DIGIT1,
       K_52, K_FF, K_IOTA80, K_BYTE7, K_100, K_63, K_NOT1, K_ROT8,
       K_ROT, K_GRAM = K_ROT + 3, K_L2 = K_GRAM + 5, K_COUNT = K_L2 + 4 };   /* (K_ROT, K_GRAM: the AVX-512 tables) */
static const uint8_t kvec[K_COUNT][64] __attribute__((aligned(64)));   /* (defined with the AVX-512 tables) */
#define ROT8(r) (r) & 7, (r + 1) & 7, (r + 2) & 7, (r + 3) & 7, (r + 4) & 7, (r + 5) & 7, (r + 6) & 7, (r + 7) & 7
#define KVEC_ROWS \
    K32(0x80 + 26), K32(0x20), K32(128 - 'a'), K32(0x80 + 10), K32(128 - '0'), K32('+'), K32('-'), \
    K32('/'), K32('^'), K32('\''), K32(' '), K32('0'), K32(0x0f), K32(1), K32(15), K32('\n'),      \
    K32('a'), K32(26), K32(10),                                                                    \
    R4(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0, 0, 0, 0),                                   \
    K32(25), K32(9), K32(99), K32('1'), K32(52), K32(0xff),                                        \
    R4(128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143),             \
    R4(7, 7, 7, 7, 7, 7, 7, 7, 15, 15, 15, 15, 15, 15, 15, 15),                                    \
    K32(100), K32(63), { 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, /* (K_NOT1: a mask, all but bit 0) */ \
    { ROT8(1), ROT8(2), ROT8(3), ROT8(4) }   /* (K_ROT8: in each 8 bytes g, byte i takes i + g + 1, mod 8) */
/* kv: kvec, hidden from the compiler in each function (KVEC_HIDE) so that it reads
 * the vectors where they are used */
#define KVEC_HIDE const uint8_t(*kv)[64] = kvec; __asm__("" : "+r"(kv))
typedef const uint8_t (*kvec_t)[64];   /* kv handed to a function inlined in the loop */
#define KV(i) _mm256_load_si256((const __m256i *)(const void *)kv[i])
#define KV16(i) _mm_load_si128((const __m128i *)(const void *)kv[i])
/* (v | 0x20) - 'a' < 26 unsigned, as a signed compare after a shift by 128 */
#define IS_LETTER(v) _mm256_cmpgt_epi8(KV(K_LET_LIM), _mm256_add_epi8(_mm256_or_si256(v, KV(K_0X20)), KV(K_LET_OFF)))
#define IS_DIGIT(v) _mm256_cmpgt_epi8(KV(K_DIG_LIM), _mm256_add_epi8(v, KV(K_DIG_OFF)))
#define IS_SIGN(v) _mm256_or_si256(_mm256_cmpeq_epi8(v, KV(K_PLUS)), _mm256_cmpeq_epi8(v, KV(K_MINUS)))
#define ISK(v, k) _mm256_cmpeq_epi8(v, KV(k))

/* Running sum of the bytes of x (mod 256) within each 128-bit lane, then across. */
AVX2 static INLINE __m256i prefix32(__m256i x)
{
    KVEC_HIDE;
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 1));
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 2));
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 4));
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 8));
    __m256i t = _mm256_shuffle_epi8(x, KV(K_FIFTEEN));                   /* each lane's last byte */
    return _mm256_add_epi8(x, _mm256_permute2x128_si256(t, t, 0x08)); /* the low lane's into the high */
}

#define BLOCKS 4                       /* the placement ends in the first 128 bytes */
#define WINDOW (32 * BLOCKS + 2 + 32)  /* the bytes read from a line's start */

/*
 * The line s[0..len), s readable to s[WINDOW - 1]: 1 valid, 0 not known.
 * The placement is read 32 bytes at a time up to its end (the first space). Each
 * byte is judged with the next two (loaded again one and two bytes on), so the
 * token grammar needs no shift across blocks: a '^' must follow a letter, a '\''
 * a letter or '^', a '0' a digit; a sign must precede a letter, a '/' a letter,
 * digit or sign; no three digits in a row.
 */
AVX2 static INLINE int check_window(const char *s, size_t len)
{
    if (!style_ok(s, len)) return 0;
    unsigned c0 = (unsigned char)s[0];
    if (!letter_l2(c0) && c0 != '+' && c0 != '-' && c0 - '1' >= 9u) return 0;
    const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                          17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const __m256i ten = _mm256_setr_epi8(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0, 0, 0, 0,
                                         0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0, 0, 0, 0);
    __m256i w[BLOCKS], sls[BLOCKS], err = _mm256_setzero_si256(), sad = _mm256_setzero_si256();
    __m256i dbl = _mm256_setzero_si256();
    uint32_t slashes[BLOCKS];
    unsigned nslash = 0, pieces = 0, nb = 0;
    size_t a = 0;
    for (unsigned k = 0; k < BLOCKS; k++) {
        KVEC_HIDE;
        const char *p = s + 32 * k;
        const __m256i v = LOAD(p), n = LOAD(p + 1), n2 = LOAD(p + 2);
        const __m256i l = IS_LETTER(v), d = IS_DIGIT(v), sl = ISK(v, K_SLASH), c = ISK(v, K_CARET);
        const __m256i nl = IS_LETTER(n), nd = IS_DIGIT(n);
        __m256i keep = _mm256_set1_epi8(-1);
        uint32_t sp = (uint32_t)_mm256_movemask_epi8(ISK(v, K_SPACE));
        if (sp) {
            unsigned at = (unsigned)__builtin_ctz(sp);
            a = 32 * k + at;
            keep = _mm256_cmpgt_epi8(SET1(at), iota);
        }
        __m256i lc = _mm256_or_si256(l, c);
        __m256i good = _mm256_or_si256(_mm256_or_si256(lc, d),
                                       _mm256_or_si256(_mm256_or_si256(sl, ISK(v, K_QUOTE)), IS_SIGN(v)));
        __m256i e = _mm256_andnot_si256(good, keep);
        e = _mm256_or_si256(e, _mm256_andnot_si256(l, ISK(n, K_CARET)));
        e = _mm256_or_si256(e, _mm256_andnot_si256(lc, ISK(n, K_QUOTE)));
        e = _mm256_or_si256(e, _mm256_andnot_si256(d, ISK(n, K_ZERO)));
        e = _mm256_or_si256(e, _mm256_andnot_si256(nl, IS_SIGN(v)));
        e = _mm256_or_si256(e, _mm256_and_si256(_mm256_and_si256(d, nd), IS_DIGIT(n2)));
        const __m256i nsl = ISK(n, K_SLASH);       /* "//": a 3-D board (layers_check) */
        e = _mm256_or_si256(e, _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(nl, nd),
                                                                   _mm256_or_si256(IS_SIGN(n), nsl)), sl));
        dbl = _mm256_or_si256(dbl, _mm256_and_si256(_mm256_and_si256(sl, nsl), keep));
        err = _mm256_or_si256(err, _mm256_and_si256(e, keep));
        /* each byte's weight in its rank: 1 a letter, a digit its value, ten times
         * its value before another digit */
        __m256i x = _mm256_and_si256(v, KV(K_0X0F));
        __m256i wk = _mm256_blendv_epi8(_mm256_and_si256(d, x), _mm256_shuffle_epi8(ten, x),
                                        _mm256_and_si256(d, nd));
        wk = _mm256_and_si256(_mm256_or_si256(wk, _mm256_and_si256(l, KV(K_ONE))), keep);
        w[k] = wk;
        sad = _mm256_add_epi64(sad, _mm256_sad_epu8(wk, _mm256_setzero_si256()));
        sls[k] = _mm256_and_si256(sl, keep);
        slashes[k] = (uint32_t)_mm256_movemask_epi8(sls[k]);
        nslash += (unsigned)__builtin_popcount(slashes[k]);
        pieces += (unsigned)__builtin_popcount((uint32_t)_mm256_movemask_epi8(_mm256_and_si256(l, keep)));
        if (sp) {
            nb = k + 1;
            break;
        }
    }
    size_t b = len - 4;
    if (nb == 0 || a >= b || !_mm256_testz_si256(err, err)) return 0;
    uint32_t total;
    if (!_mm256_testz_si256(dbl, dbl)) {
        /* a 3-D board (rare): its ranks and layers read one byte at a time */
        total = layers_check(s, a);
        if (total == 0) return 0;
    } else {
        /* the ranks: T squares in all, F = T / ranks each */
        __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(sad), _mm256_extracti128_si256(sad, 1));
        total = (uint32_t)_mm_cvtsi128_si32(_mm_add_epi64(s2, _mm_unpackhi_epi64(s2, s2)));
        unsigned ranks = 1 + nslash;
        uint32_t files = (uint32_t)(((uint64_t)total * recip[ranks]) >> 20);
        if (files == 0 || files > 255 || files * ranks != total) return 0;
        if (ranks > 1) {
            /* a '/' weighs -F: the running sum is 0 (mod 256) at every '/' */
            const __m256i f = SET1(files);
            __m256i carry = _mm256_setzero_si256();
            for (unsigned k = 0; k < nb; k++) {
                __m256i r = _mm256_add_epi8(prefix32(_mm256_sub_epi8(w[k], _mm256_and_si256(sls[k], f))),
                                            carry);
                uint32_t z = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, _mm256_setzero_si256()));
                if (slashes[k] & ~z) return 0;
                KVEC_HIDE;
                __m256i t = _mm256_shuffle_epi8(r, KV(K_FIFTEEN));
                carry = _mm256_permute2x128_si256(t, t, 0x11);
            }
        }
    }
    /* the hand items: order, identities, and the pieces against the squares */
    long inhand = 0;
    if (b - a != 2 || s[a + 1] != '/') {
        inhand = hands_check(s, a + 1, b);
        if (inhand < 0) return 0;
    }
    return (unsigned long)pieces + (unsigned long)inhand <= (unsigned long)total;
}

/*
 * The line at s (up to the first '\n'; s readable to s[WINDOW - 1]): 1 valid, 0 not known;
 * *len gets the line's length without the '\n', or 128 when no '\n' is in the
 * first 128 bytes.
 */
AVX2 static INLINE int check_line_avx2(const char *s, size_t *len)
{
    KVEC_HIDE;
    const __m256i v0 = _mm256_loadu_si256((const __m256i *)(const void *)s);
    const __m256i v1 = _mm256_loadu_si256((const __m256i *)(const void *)(s + 32));
    const __m256i nl = KV(K_NL);
    uint64_t m = MOVEMASK2(_mm256_cmpeq_epi8(v0, nl), _mm256_cmpeq_epi8(v1, nl));
    if (m == 0) {
        const __m256i v2 = _mm256_loadu_si256((const __m256i *)(const void *)(s + 64));
        const __m256i v3 = _mm256_loadu_si256((const __m256i *)(const void *)(s + 96));
        m = MOVEMASK2(_mm256_cmpeq_epi8(v2, nl), _mm256_cmpeq_epi8(v3, nl));
        if (m == 0) {
            *len = 128;
            return 0;
        }
        *len = 64 + (size_t)__builtin_ctzll(m);
    } else {
        *len = (size_t)__builtin_ctzll(m);
    }
    return check_window(s, *len);
}

AVX2 static int check_avx2(const char *s, size_t len)
{
    if (len > 127) return 0;
    char buf[WINDOW];
    memcpy(buf, s, len);
    memset(buf + len, '\n', sizeof buf - len);
    size_t n;
    return check_line_avx2(buf, &n) && n == len;
}

AVX2 static size_t lines_avx2(const char *s, size_t len, size_t *lines)
{
    size_t pos = 0, count = 0;
    while (len - pos >= WINDOW) {
        size_t n;
        if (!check_line_avx2(s + pos, &n)) break;
        pos += n + 1;
        count++;
    }
    *lines = count;
    return pos;
}

/* ---- AVX-512 --------------------------------------------------------------------- */

/*
 * AVX-512 (F, BW, VL, DQ, VBMI, VBMI2): a line whose placement and its space fit
 * the first 62 bytes is classified 64 bytes at once: each byte's class by a
 * table look-up (vpermi2b; its letters and digits as masks from the class's
 * bits), the token grammar by a second look-up of each pair of neighbours'
 * classes (the K_GRAM rows, pairs512, verdicts512, broken512), the spaces and
 * '/' by compares. The ranks: check_window's weights and T (each 8 bytes' sum
 * narrowed to a byte, then summed); with T < 255 and at most 16 ranks the
 * exact running sum (shifts and adds within each 8 bytes, then the 8-byte groups
 * before) at each '/' and at the space, compressed side by side, each rank the
 * difference of two neighbours and all the first's; else check_window's running
 * sum mod 256 with '/' weighing -F. The hand items in one vector: the line's own
 * vector, pairs and running sum when the hands end within its 64 bytes
 * (hands_line512: each count the difference of the sums at two letters), else
 * their 16 bytes loaded (hands_avx512). A longer placement (up to 126 bytes) is
 * check_long512's; a 3-D board's ranks and layers are layers512's (the exact
 * running sum at each rank's end, or layers_check), after the same grammar.
 */
#define HAVE_AVX512_CHECK 1
#define KZ(i) _mm512_load_si512((const void *)kv[i])

/* The K_ROT rows: vpshufb rows for hands_avx512 (in each 16-byte lane j of the
 * first row, byte i takes byte i + j + 1 (mod 16); in the second, i + j + 5), and
 * pairs512's byte before each byte */
#define ROT16(r) (r) & 15, (r + 1) & 15, (r + 2) & 15, (r + 3) & 15, (r + 4) & 15, (r + 5) & 15, \
    (r + 6) & 15, (r + 7) & 15, (r + 8) & 15, (r + 9) & 15, (r + 10) & 15, (r + 11) & 15,        \
    (r + 12) & 15, (r + 13) & 15, (r + 14) & 15, (r + 15) & 15
#define IOTA16(r) r, r + 1, r + 2, r + 3, r + 4, r + 5, r + 6, r + 7, r + 8, r + 9, r + 10, r + 11, \
    r + 12, r + 13, r + 14, r + 15
/* (the third: i - 1, mod 64 as vpermb reads it) */
#define KROT_ROWS                                                                                      \
    { ROT16(1), ROT16(2), ROT16(3), ROT16(4) }, { ROT16(5), ROT16(6), ROT16(7), ROT16(8) },             \
    { 63, IOTA16(0), IOTA16(16), IOTA16(32), 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62 }

/*
 * The token grammar of a placement by two table look-ups (vpermi2b) instead of a
 * compare a class: each byte's class as the current byte (low 4 bits: 0 other,
 * 1 letter, 2 '/', 3 '^', 4 '\'', 5 sign, 6 space, 8 digit 1-9, 9 '0': bit 3 a
 * digit), as the byte before the next one (bits 4-6: 0 the line's start, 1
 * other, 2 letter, 3 digit, 4 '/', 5 '^', 6 '\'', 7 sign) and bit 7 a letter
 * (the letters' and digits' masks come from these bits, vpmovb2m, not from
 * compares); then each (before, current) pair looked up in the K_GRAM rows 2-3:
 * bit 7 set when the pair breaks a rule of a placement, bit 6 one of the hands
 * (one look-up for both fields). A byte of 128 and more is other by its own bit 7. The
 * placement's rules (check_window512's): every byte a token, '^' after a letter,
 * '\'' after a letter or '^', '0' after a digit, a sign before a letter, a '/'
 * before a letter, a digit, a sign or '/', the first byte a letter, a sign or
 * 1-9, a '/' or a sign not last. The hands' (hands_line512's, from the space
 * before them to the one after): every byte a token, '^', '\'', '0' and a sign
 * as in the placement, a digit before a digit, a sign or a letter, no "//", the
 * first byte a digit, a sign, a letter or '/' (a space inside the hands, a count
 * of three digits or of "1" are the caller's to find).
 */
enum { G_START, G_OTHER, G_LETTER, G_DIGIT, G_SLASH, G_CARET, G_QUOTE, G_SIGN };   /* before */
enum { C_OTHER, C_LETTER, C_SLASH, C_CARET, C_QUOTE, C_SIGN, C_SPACE, C_DIGIT = 8, C_ZERO }; /* current */
#define C_NONE(cur) ((cur) == C_OTHER || (cur) == 7 || (cur) > C_ZERO)    /* (7, 10-15: no byte's) */
#define GC(cur, before) ((cur) | (before) << 4)
#define GL (GC(C_LETTER, G_LETTER) | 0x80)
#define GD GC(C_DIGIT, G_DIGIT)
#define GO GC(C_OTHER, G_OTHER)
/* a pair's verdict: 0x80 when the byte (current) may not follow the one before */
#define BAD_AFTER(before, cur)                                                               \
    ((C_NONE(cur) || ((cur) == C_CARET && (before) != G_LETTER) ||                           \
      ((cur) == C_QUOTE && (before) != G_LETTER && (before) != G_CARET) ||                  \
      ((cur) == C_ZERO && (before) != G_DIGIT) || ((before) == G_SIGN && (cur) != C_LETTER) || \
      ((before) == G_SLASH && (cur) != C_LETTER && (cur) != C_DIGIT && (cur) != C_ZERO &&  \
       (cur) != C_SIGN && (cur) != C_SLASH) ||                                               \
      ((before) == G_START && (cur) != C_LETTER && (cur) != C_DIGIT && (cur) != C_SIGN))    \
         ? 0x80 : 0)
#define BAD_IN_HANDS(before, cur)                                                            \
    ((C_NONE(cur) || ((cur) == C_CARET && (before) != G_LETTER) ||                           \
      ((cur) == C_QUOTE && (before) != G_LETTER && (before) != G_CARET) ||                  \
      ((cur) == C_ZERO && (before) != G_DIGIT) || ((before) == G_SIGN && (cur) != C_LETTER) || \
      ((before) == G_DIGIT && (cur) != C_LETTER && (cur) != C_DIGIT && (cur) != C_ZERO &&  \
       (cur) != C_SIGN) ||                                                                   \
      ((before) == G_OTHER && (cur) != C_LETTER && (cur) != C_DIGIT && (cur) != C_SIGN &&  \
       (cur) != C_SLASH) ||                                                                  \
      ((before) == G_SLASH && (cur) == C_SLASH) || (before) == G_START)                     \
         ? 0x80 : 0)
#define ROW16(f, b) f(b, 0), f(b, 1), f(b, 2), f(b, 3), f(b, 4), f(b, 5), f(b, 6), f(b, 7), f(b, 8), f(b, 9), \
    f(b, 10), f(b, 11), f(b, 12), f(b, 13), f(b, 14), f(b, 15)
#define BAD_EITHER(before, cur) (BAD_AFTER(before, cur) | BAD_IN_HANDS(before, cur) >> 1)
#define BAD16(b) ROW16(BAD_EITHER, b)
#define GO8 GO, GO, GO, GO, GO, GO, GO, GO
#define GL8 GL, GL, GL, GL, GL, GL, GL, GL
/* kvec: the constant rows (K_...), then the K_ROT and K_GRAM rows, so that one
 * pointer (KVEC_HIDE) reaches them all (a pointer a table took registers or was
 * made again at each use) */
static const uint8_t kvec[K_COUNT][64] __attribute__((aligned(64))) = {
    KVEC_ROWS,
    KROT_ROWS,
    /* rows 0-1: the classes of the bytes 0-127 */
    { GO8, GO8, GO8, GO8,
      GC(C_SPACE, G_OTHER), GO, GO, GO, GO, GO, GO, GC(C_QUOTE, G_QUOTE),
      GO, GO, GO, GC(C_SIGN, G_SIGN), GO, GC(C_SIGN, G_SIGN), GO, GC(C_SLASH, G_SLASH),
      GC(C_ZERO, G_DIGIT), GD, GD, GD, GD, GD, GD, GD, GD, GD, GO, GO, GO, GO, GO, GO },
    { GO, GL, GL, GL, GL, GL, GL, GL, GL8, GL8, GL, GL, GL, GO, GO, GO, GC(C_CARET, G_CARET), GO,
      GO, GL, GL, GL, GL, GL, GL, GL, GL8, GL8, GL, GL, GL, GO, GO, GO, GO, GO },
    /* rows 2-3: the pairs (before << 4 | current): bit 7 in a placement, bit 6 in the hands */
    { BAD16(0), BAD16(1), BAD16(2), BAD16(3) },
    { BAD16(4), BAD16(5), BAD16(6), BAD16(7) },
    /* row 4: 63 + i, the byte before each of a second vector's (pairs2_512) */
    { 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84,
      85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105,
      106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123,
      124, 125, 126 },
    /* the K_L2 rows: l2_of, read by style_ok_in from the pointer the loop holds */
    { 0 }, { L2_LETTERS }, { 0 }, { 0 },
};
#undef KVEC_ROWS
#undef KROT_ROWS
#undef ROT16
#undef ROT8
#undef IOTA16
#undef C16
#undef R4
#undef GC
#undef GL
#undef GD
#undef GO
#undef BAD_AFTER
#undef BAD16
#undef BAD_IN_HANDS
#undef BAD_EITHER
#undef ROW16
#undef C_NONE
#undef GO8
#undef GL8

/* Each byte of v (a line from its first byte) with the one before it: its
 * current class in the low 4 bits, the one before's in bits 4-6 (see the K_GRAM rows);
 * *cls gets each byte's own row 0-1 entry (bit 7 a letter, bit 3 a digit). */
AVX512 static INLINE __m512i pairs512(__m512i v, __m512i *cls_out)
{
    KVEC_HIDE;
    const __m512i cls = _mm512_permutex2var_epi8(KZ(K_GRAM), v, KZ(K_GRAM + 1));
    /* each byte's "before" class from the byte before it (0, the start, at byte 0) */
    const __m512i prev = _mm512_maskz_permutexvar_epi8(_load_mask64((__mmask64 *)(void *)kv[K_NOT1]), KZ(K_ROT + 2), cls);
    *cls_out = cls;
    return _mm512_ternarylogic_epi32(cls, prev, KZ(K_0X0F), 0xe4);   /* cls's low 4 bits, prev's high */
}

/* As pairs512, for the 128 bytes v0, v1 (a line from its first byte): the pairs
 * of v0 in *p0, of v1 in *p1 (its first byte's before class from v0's last), the
 * bytes' own entries in *k0, *k1. */
AVX512 static INLINE void pairs2_512(__m512i v0, __m512i v1, __m512i *p0, __m512i *p1, __m512i *k0, __m512i *k1)
{
    KVEC_HIDE;
    const __m512i c0 = _mm512_permutex2var_epi8(KZ(K_GRAM), v0, KZ(K_GRAM + 1));
    const __m512i c1 = _mm512_permutex2var_epi8(KZ(K_GRAM), v1, KZ(K_GRAM + 1));
    const __m512i b0 = _mm512_maskz_permutexvar_epi8(~1ull, KZ(K_ROT + 2), c0);
    const __m512i b1 = _mm512_permutex2var_epi8(c0, KZ(K_GRAM + 4), c1);
    *p0 = _mm512_ternarylogic_epi32(c0, b0, KZ(K_0X0F), 0xe4);
    *p1 = _mm512_ternarylogic_epi32(c1, b1, KZ(K_0X0F), 0xe4);
    *k0 = c0;
    *k1 = c1;
}

/* The verdicts of the pairs (pairs512): the K_GRAM rows 2-3 looked up, bit 7 set
 * where a pair breaks a placement's rules, bit 6 the hands'. */
AVX512 static INLINE __m512i verdicts512(__m512i pair)
{
    KVEC_HIDE;
    return _mm512_permutex2var_epi8(KZ(K_GRAM + 2), pair, KZ(K_GRAM + 3));
}

/* The bytes of v that break the token grammar, as a mask, from their verdicts
 * (verdicts512): a placement's rules (hands 0) or the hands' (1); the caller
 * keeps the bits of the field it asks about. */
AVX512 static INLINE uint64_t broken512(__m512i v, __m512i verdict, int hands)
{
    return _mm512_movepi8_mask(_mm512_or_si512(hands ? _mm512_add_epi8(verdict, verdict) : verdict, v));
}

/*
 * The hands field s[from..to) of at most 16 bytes (s readable 16 bytes from
 * s[from]), as hands_check: the pieces in hand, or -1 when not known valid.
 * The 16 bytes are classified at once and the token grammar is mask tests (all
 * tokens, one '/', '^' after a letter, '\'' after a letter or '^', a sign before
 * a letter, a count of one or two digits, not "1" nor with a leading '0', before
 * a sign or a letter). At each item's letter, its count is read from the bytes
 * before it; the items' order words (hand, 99 - count, letter*2 + second),
 * side by side (compressed), must increase: the items of each hand in canonical
 * order. That compares letters where koma__hand_key compares the whole key, so
 * no letter and side may come twice in a hand (else the parser decides): no two
 * items of the same letter*2 + second (+ 52 in the opponent's hand), found by
 * comparing the keys side by side with themselves turned round by 1 to 8 places
 * (vpconflictd would do it in one instruction, but it costs ~40 micro-operations
 * on Intel's cores).
 */
AVX512 static INLINE long hands_avx512(const char *s, size_t from, size_t to)
{
    KVEC_HIDE;
    const unsigned hl = (unsigned)(to - from);
    const uint32_t all = (1u << hl) - 1;
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i ten = _mm_setr_epi8(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0, 0, 0, 0);
    const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + from));
    const __m128i li = _mm_sub_epi8(_mm_or_si128(x, KV16(K_0X20)), KV16(K_A));
    const __m128i lt = _mm_cmpeq_epi8(_mm_min_epu8(li, KV16(K_25)), li);
    const __m128i dv = _mm_sub_epi8(x, KV16(K_ZERO));
    const __m128i dg = _mm_cmpeq_epi8(_mm_min_epu8(dv, KV16(K_9)), dv);
    const __m128i sg = _mm_or_si128(_mm_cmpeq_epi8(x, KV16(K_PLUS)), _mm_cmpeq_epi8(x, KV16(K_MINUS)));
#define M16(v) ((uint32_t)_mm_movemask_epi8(v) & all)
    const uint32_t l = M16(lt), d = M16(dg), g = M16(sg), c = M16(_mm_cmpeq_epi8(x, KV16(K_CARET)));
    const uint32_t q = M16(_mm_cmpeq_epi8(x, KV16(K_QUOTE))), sl = M16(_mm_cmpeq_epi8(x, KV16(K_SLASH)));
    const uint32_t z = M16(_mm_cmpeq_epi8(x, KV16(K_ZERO))), one = M16(_mm_cmpeq_epi8(x, KV16(K_DIGIT1)));
#undef M16
    uint32_t bad = (l | d | g | c | q | sl) ^ all;
    bad |= (c & ~(l << 1)) | (q & ~((l | c) << 1)) | ((g << 1) & ~l);
    bad |= (d & (d << 1) & (d << 2)) | (z & ~(d << 1)) | ((d << 1) & ~(d | g | l)) | (one & ~(d << 1) & ~(d >> 1));
    if (bad || (sl & (sl - 1)) || !sl) return -1;
    /* each item's count, at its letter: units one or two bytes before (after a sign), tens one more */
    const __m128i dd = _mm_and_si128(dv, dg), sp = _mm_slli_si128(sg, 1);
    const __m128i d1 = _mm_slli_si128(dd, 1), d2 = _mm_slli_si128(dd, 2), d3 = _mm_slli_si128(dd, 3);
    const __m128i g1 = _mm_slli_si128(dg, 1), g2 = _mm_slli_si128(dg, 2), g3 = _mm_slli_si128(dg, 3);
    const __m128i units = _mm_blendv_epi8(d1, d2, sp), tens = _mm_blendv_epi8(d2, d3, sp);
    const __m128i has_units = _mm_blendv_epi8(g1, g2, sp), has_tens = _mm_blendv_epi8(g2, g3, sp);
    const __m128i count = _mm_blendv_epi8(KV16(K_ONE),
                                          _mm_add_epi8(units, _mm_and_si128(_mm_shuffle_epi8(ten, tens), has_tens)),
                                          has_units);
    const __m128i item = _mm_and_si128(lt, _mm_cmpgt_epi8(_mm_set1_epi8((char)hl), iota));
    const __m128i opp = _mm_cmpgt_epi8(iota, _mm_set1_epi8((char)__builtin_ctz(sl)));
    const __m128i lw = _mm_cmpeq_epi8(_mm_and_si128(x, KV16(K_0X20)), KV16(K_0X20));
    const __m128i l2 = _mm_sub_epi8(_mm_add_epi8(li, li), lw);      /* letter*2 + second, 0..51 */
    /* the order words, 0 between items; each above the running maximum before it */
    __m256i w = _mm256_or_si256(_mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm_sub_epi8(KV16(K_99), count)), 6),
                                _mm256_cvtepu8_epi16(l2));
    w = _mm256_or_si256(w, _mm256_and_si256(_mm256_cvtepi8_epi16(opp), _mm256_set1_epi16(0x2000)));
    const __m256i items = _mm256_cvtepi8_epi16(item);
    w = _mm256_and_si256(w, items);
    /* the items' words side by side: each above the one before */
    const __mmask16 at = (__mmask16)l;
    const unsigned n = (unsigned)__builtin_popcount(l);
    const __mmask16 first = (__mmask16)((1u << n) - 1);
    const __m256i cw = _mm256_maskz_compress_epi16(at, w);
    const __m256i prev = _mm256_maskz_permutexvar_epi16((__mmask16)0xfffe,
        _mm256_setr_epi16(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14), cw);
    if (_mm256_mask_cmpgt_epu16_mask(first, cw, prev) != first) return -1;
    /* no letter and side twice in a hand: no two items of the same l2 (+ 52 in the opponent's) */
    /* (the keys side by side, then 128 + i at each place i past them: all distinct
     * unless two items share a key; each key beside the ones 1 to 8 places on,
     * round the 16: any two places are 1 to 8 apart one way or the other) */
    const __m128i key = _mm_mask_compress_epi8(KV16(K_IOTA80), at,
                                               _mm_add_epi8(l2, _mm_and_si128(opp, KV16(K_52))));
    const __m512i k4 = _mm512_broadcast_i32x4(key);
    if (_mm512_cmpeq_epi8_mask(k4, _mm512_shuffle_epi8(k4, KZ(K_ROT))) |
        _mm512_cmpeq_epi8_mask(k4, _mm512_shuffle_epi8(k4, KZ(K_ROT + 1))))
        return -1;
    const __m128i sum = _mm_sad_epu8(_mm_and_si128(count, item), _mm_setzero_si128());
    return (long)(uint32_t)_mm_cvtsi128_si32(sum) + (long)_mm_extract_epi16(sum, 4);   /* (not negative) */
}


/*
 * The hands field of a line s[a+1..b) within the 64 bytes v already classified
 * (b < 64; kv the constant rows (KVEC_HIDE); verdict its pairs' verdicts
 * (verdicts512), l, d, sp and sl its letters, digits, spaces and '/'; run the
 * running sum mod 256 of its weights, where a hand's digits weigh as a
 * placement's and its letters 0): as hands_avx512, without loading or
 * classifying the bytes again. The running sum at the space before the hands and
 * at each item's letter, side by side (compressed): each item's count written is
 * the difference of two neighbours (0: none, so 1). The items then as
 * hands_avx512's, with A = count (+ 100 in the hand before the '/') and the
 * letter*2 + second K: A decreasing, K increasing at equal A, no K twice in a
 * hand. More than 15 items: hands_check.
 */
AVX512 static INLINE long hands_line512(const kvec_t kv, const char *s, __m512i v, __m512i verdict, __m512i run,
                                        uint64_t l, uint64_t d, uint64_t sp, uint64_t sl, unsigned a, unsigned b)
{
    const uint64_t hm = ((1ull << b) - 1) & ~((2ull << a) - 1);   /* s[a+1..b) */
    const uint64_t at = l & hm, sh = sl & hm;
    const unsigned n = (unsigned)__builtin_popcountll(at);
    if (n > 15) return hands_check(s, a + 1, b);
    /* the token grammar (as hands_avx512's; s[a] and s[b] are spaces): the pairs
     * (broken512), no space inside, no count of three digits (nor of "1", below) */
    const uint64_t bad = (broken512(v, verdict, 1) & (hm | (1ull << b))) | (sp & hm) | (d & (d << 1) & (d << 2) & hm);
    if (bad || __builtin_popcountll(sh) != 1) return -1;
    /* lane 0: the sum at the space; lane j: at item j's letter, and its count */
    const uint64_t pick = at | (1ull << a);
    const __m128i c = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(pick, run));
    const __m128i cnt = _mm_sub_epi8(c, _mm_bslli_si128(c, 1));
    const __mmask16 items = (__mmask16)((2u << n) - 2);
    if (_mm_mask_cmpeq_epi8_mask(items, cnt, KV16(K_ONE))) return -1;       /* "1" written */
    const __m128i count = _mm_max_epu8(cnt, KV16(K_ONE));
    /* the items of the hand before the '/', as lanes: their letters' bits picked
     * out of all the items' (pext), one lane on */
    const __mmask16 own = (__mmask16)(_pext_u64(at & (sh - 1), at) << 1);
    const __m128i A = _mm_mask_add_epi8(count, own, count, KV16(K_100));
    /* each letter's letter*2 + second + 2 (l2_of: the K_L2 rows, one look-up) */
    const __m512i l2 = _mm512_permutexvar_epi8(v, KZ(K_L2 + 1));
    /* (128 + i in the lanes past the items: K_IOTA80) */
    const __m128i ck = _mm512_castsi512_si128(_mm512_mask_compress_epi8(KZ(K_IOTA80), pick, l2));
    const __mmask16 rest = (__mmask16)(items & ~2u);                  /* the items after the first */
    const __m128i pa = _mm_bslli_si128(A, 1), pk = _mm_bslli_si128(ck, 1);
    const __mmask16 up = _kor_mask16(_mm_cmpgt_epu8_mask(pa, A), _mm_mask_cmplt_epu8_mask(_mm_cmpeq_epi8_mask(pa, A), pk, ck));
    if (_kandn_mask16(up, rest)) return -1;
    /* no letter and side twice in a hand (as hands_avx512; 128 + i in the lanes
     * past the items, 0 in lane 0: the space, no letter); with at most 7 items,
     * the lanes 0-7 only: their 8 keys in each 8 bytes of 32, each beside the
     * ones 1 to 4 places on, round the 8 (one 256-bit vpshufb, and a compare
     * into a vector and vpmovmskb, not into a mask: none of the three 512-bit
     * operations on port 5 that the 16 lanes take twice) */
    const __m128i key = _mm_mask_add_epi8(ck, own, ck, KV16(K_52));
    if (n < 8) {
        const __m256i k8 = _mm256_broadcastq_epi64(key);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(k8, _mm256_shuffle_epi8(k8, KV(K_ROT8))))) return -1;
        /* the pieces: the sum of the counts, all in the low 8 lanes */
        return (long)(uint32_t)_mm_cvtsi128_si32(_mm_sad_epu8(_mm_maskz_mov_epi8(items, count), _mm_setzero_si128()));
    } else {
        const __m512i k4 = _mm512_broadcast_i32x4(key);
        if (!_kortestz_mask64_u8(_mm512_cmpeq_epi8_mask(k4, _mm512_shuffle_epi8(k4, KZ(K_ROT))),
                                 _mm512_cmpeq_epi8_mask(k4, _mm512_shuffle_epi8(k4, KZ(K_ROT + 1)))))
            return -1;
    }
    /* the pieces: the sum of the counts */
    const __m128i sum = _mm_sad_epu8(_mm_maskz_mov_epi8(items, count), _mm_setzero_si128());
    return (long)(uint32_t)_mm_cvtsi128_si32(sum) + (long)_mm_extract_epi16(sum, 4);   /* (not negative) */
}

/* The running sum of the bytes of r mod 256 (within each 16-byte lane, then each
 * lane's sum into the lanes after it). */
AVX512 static INLINE __m512i prefix512(__m512i r)
{
    KVEC_HIDE;
    r = _mm512_add_epi8(r, _mm512_bslli_epi128(r, 1));
    r = _mm512_add_epi8(r, _mm512_bslli_epi128(r, 2));
    r = _mm512_add_epi8(r, _mm512_bslli_epi128(r, 4));
    r = _mm512_add_epi8(r, _mm512_bslli_epi128(r, 8));
    __m512i t = _mm512_alignr_epi64(_mm512_shuffle_epi8(r, KZ(K_FIFTEEN)), _mm512_setzero_si512(), 6);
    t = _mm512_add_epi8(t, _mm512_alignr_epi64(t, _mm512_setzero_si512(), 6));
    t = _mm512_add_epi8(t, _mm512_alignr_epi64(t, _mm512_setzero_si512(), 4));
    return _mm512_add_epi8(r, t);
}

/* The weights of a placement's bytes in their ranks (check_window's): 1 a letter,
 * a digit its value (dp: the digits), ten times it before another (tens). */
AVX512 static INLINE __m512i weights512(__m512i x, uint64_t dp, uint64_t tens, uint64_t lp)
{
    KVEC_HIDE;
    __m512i w = _mm512_maskz_mov_epi8(dp & ~tens, x);
    w = _mm512_mask_mov_epi8(w, tens, _mm512_shuffle_epi8(KZ(K_TENS), x));
    return _mm512_mask_mov_epi8(w, lp, KZ(K_ONE));
}

/* The running sum of the weights w mod 256 (exact while below 256): within each
 * 8 bytes, then each 8 bytes' sum added to the groups after it. */
AVX512 static INLINE __m512i run_exact512(const kvec_t kv, __m512i w)
{
    const __m512i zero = _mm512_setzero_si512();
    __m512i p = _mm512_add_epi8(w, _mm512_slli_epi64(w, 8));   /* within each 8 bytes */
    p = _mm512_add_epi8(p, _mm512_slli_epi64(p, 16));
    p = _mm512_add_epi8(p, _mm512_slli_epi64(p, 32));
    /* each 8 bytes' sum in all its bytes, added to the 8-byte groups after it */
    __m512i t = _mm512_alignr_epi64(_mm512_shuffle_epi8(p, KZ(K_BYTE7)), zero, 7);
    t = _mm512_add_epi8(t, _mm512_alignr_epi64(t, zero, 7));
    t = _mm512_add_epi8(t, _mm512_alignr_epi64(t, zero, 6));
    t = _mm512_add_epi8(t, _mm512_alignr_epi64(t, zero, 4));
    return _mm512_add_epi8(p, t);
}

/* The running sums at the ends of the first `ranks` ranks, side by side (e):
 * each rank's squares the difference of two neighbours, all the first rank's.
 * 1 when they are. */
AVX512 static INLINE int squares_equal(__m128i e, unsigned ranks)
{
    const __m128i sq = _mm_sub_epi8(e, _mm_bslli_si128(e, 1));
    return !_mm_mask_cmpneq_epi8_mask((__mmask16)_bzhi_u32(~0u, ranks), sq, _mm_broadcastb_epi8(sq));
}

/* With T < 256 and at most 16 ranks: the running sum of the weights w (exact)
 * in *run; at each rank's end (at: each '/' that ends one, and the placement's
 * space), side by side, each rank's squares the difference of two neighbours,
 * all the first rank's (at least 1: the first byte is a letter, a sign or 1-9).
 * 1 when they are. */
AVX512 static INLINE int ranks_exact512(const kvec_t kv, __m512i w, uint64_t at, unsigned ranks, __m512i *run)
{
    *run = run_exact512(kv, w);
    return squares_equal(_mm512_castsi512_si128(_mm512_maskz_compress_epi8(at, *run)), ranks);
}

/*
 * A 3-D placement s[0..a) (a "//" in its '/', sl; pm its bytes; w the weights of
 * the line's bytes; s[a] its space) whose tokens the vector tests passed, as
 * layers_check: its squares, or 0 when not known valid. With T < 256 and at most
 * 16 ranks, the ranks by ranks_exact512 at each rank's end (each '/' not after a
 * '/', and the space), and the layers from the same ends: no "///"; bit j of le
 * set when rank j ends a layer (at a "//" or at the space), its bits R - 1,
 * 2R - 1, ..., ranks - 1 (R >= 2), each R after the one before. Else (rare) its
 * ranks and layers read one byte at a time (layers_check). Out of line: a 2-D
 * board's code around it is compiled as before.
 */
AVX512 static __attribute__((noinline)) uint32_t layers512(const char *s, unsigned a, __m512i w, uint64_t pm,
                                                           uint64_t sl)
{
    __m512i run;
    const uint32_t total =
        (uint32_t)_mm512_reduce_add_epi64(_mm512_sad_epu8(_mm512_maskz_mov_epi8(pm, w), _mm512_setzero_si512()));
    const uint64_t dbl = sl & (sl << 1);           /* the second '/' of each "//" */
    const uint64_t at = (sl & ~dbl) | (1ull << a);  /* each rank's end */
    const unsigned ranks = (unsigned)__builtin_popcountll(at);
    if (total < 256 && ranks <= 16) {
        KVEC_HIDE;
        if (!ranks_exact512(kv, w, at, ranks, &run)) return 0;
        const uint64_t le = _pext_u64((dbl >> 1) | (1ull << a), at);
        const unsigned r = (unsigned)__builtin_ctzll(le) + 1;
        if ((dbl & (sl << 2)) || r < 2 || ((le << r) | (1ull << (r - 1))) != (le | (1ull << (ranks - 1 + r))))
            return 0;
        return total;
    }
    return layers_check(s, a);
}

/*
 * A line whose placement ends past its 62nd byte (its space at 62..126; len <=
 * 127, s readable to s[WINDOW - 1]): check_window512's classes and grammar over
 * two vectors, each mask in two words (0: the first vector's bytes, 1: the
 * second's; GCC handles a 128-bit integer's shifts and masks in many more
 * moves); the ranks, with T < 255 and at most 16 ranks, as check_window512's
 * (the exact running sums at the rank ends of both vectors side by side), else
 * by the running sum mod 256 with a '/' weighing -F; in both, the second
 * vector's sums carried from the first's last byte; the hands as check_window512's past the 64th byte; a 3-D board's
 * ranks and layers by layers_check.
 */
AVX512 static __attribute__((noinline)) int check_long512(const char *s, size_t len, __m512i v0, uint64_t sp0)
{
    KVEC_HIDE;
    const __m512i v1 = _mm512_loadu_si512((const void *)(s + 64));
    const uint64_t sp1 = _mm512_cmpeq_epi8_mask(v1, KZ(K_SPACE));
    const unsigned a = sp0 ? (unsigned)__builtin_ctzll(sp0) : 64 + (unsigned)__builtin_ctzll(sp1 | (1ull << 63));
    const size_t b = len - 4;
    if (a >= 127 || !style_ok_in(s, len, (const uint8_t *)(const void *)kv + 64 * K_L2) || a >= b) return 0;
    __m512i pair0, pair1, cls0, cls1;
    pairs2_512(v0, v1, &pair0, &pair1, &cls0, &cls1);
    /* the placement s[0..a), a >= 62 */
    const uint64_t pm0 = _bzhi_u64(~0ull, a), pm1 = a > 64 ? _bzhi_u64(~0ull, a - 64) : 0;
    const uint64_t lp0 = _mm512_movepi8_mask(cls0) & pm0, lp1 = _mm512_movepi8_mask(cls1) & pm1;
    const uint64_t dp0 = _mm512_movepi8_mask(_mm512_slli_epi16(cls0, 4)) & pm0;
    const uint64_t dp1 = _mm512_movepi8_mask(_mm512_slli_epi16(cls1, 4)) & pm1;
    const uint64_t sl0 = _mm512_cmpeq_epi8_mask(v0, KZ(K_SLASH)) & pm0, sl1 = _mm512_cmpeq_epi8_mask(v1, KZ(K_SLASH)) & pm1;
    /* the token grammar over the placement and its space (broken512 on both
     * vectors), no count of three digits (each word's shifts with the first's
     * top bits carried into the second) */
    const uint64_t bad0 = broken512(v0, verdicts512(pair0), 0) & ((pm0 << 1) | 1);
    const uint64_t bad1 = broken512(v1, verdicts512(pair1), 0) & ((pm1 << 1) | (pm0 >> 63));
    const uint64_t three0 = dp0 & (dp0 << 1) & (dp0 << 2);
    const uint64_t three1 = dp1 & ((dp1 << 1) | (dp0 >> 63)) & ((dp1 << 2) | (dp0 >> 62));
    if (bad0 | bad1 | three0 | three1) return 0;
    uint32_t total;
    if ((sl0 & (sl0 << 1)) | (sl1 & ((sl1 << 1) | (sl0 >> 63)))) {
        /* "//": a 3-D board, its ranks and layers read one byte at a time */
        total = layers_check(s, a);
        if (total == 0) return 0;
    } else {
        const uint64_t tens0 = dp0 & ((dp0 >> 1) | (dp1 << 63)), tens1 = dp1 & (dp1 >> 1);
        const __m512i w0 = weights512(_mm512_and_si512(v0, KZ(K_0X0F)), dp0, tens0, lp0);
        const __m512i w1 = weights512(_mm512_and_si512(v1, KZ(K_0X0F)), dp1, tens1, lp1);
        const __m512i zero = _mm512_setzero_si512();
        const __m512i groups = _mm512_add_epi64(_mm512_sad_epu8(w0, zero), _mm512_sad_epu8(w1, zero));
        const unsigned ranks = 1 + (unsigned)__builtin_popcountll(sl0) + (unsigned)__builtin_popcountll(sl1);
        /* T as check_window512's (exact below 255) */
        total = (uint32_t)_mm_cvtsi128_si32(_mm_sad_epu8(_mm512_cvtusepi64_epi8(groups), _mm_setzero_si128()));
        if (total < 255 && ranks <= 16) {
            /* the exact running sums of both vectors (the second's carried from
             * the first's last byte), at each rank's end side by side: the
             * second vector's ends expanded into the lanes after the first's */
            const __m512i r0 = run_exact512(kv, w0);
            const __m512i r1 = _mm512_add_epi8(run_exact512(kv, w1), _mm512_permutexvar_epi8(KZ(K_63), r0));
            const uint64_t at0 = sl0 | (a < 64 ? 1ull << (a & 63) : 0), at1 = sl1 | (a >= 64 ? 1ull << (a & 63) : 0);
            const unsigned n0 = (unsigned)__builtin_popcountll(at0);
            const __m128i e0 = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(at0, r0));
            const __m128i e1 = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(at1, r1));
            const __mmask16 later = (__mmask16)(_bzhi_u32(~0u, ranks) & ~_bzhi_u32(~0u, n0));
            if (!squares_equal(_mm_mask_expand_epi8(e0, later, e1), ranks)) return 0;
        } else {
            total = (uint32_t)_mm512_reduce_add_epi64(groups);
            const uint32_t files = (uint32_t)(((uint64_t)total * recip[ranks < 65 ? ranks : 0]) >> 20);
            if (ranks > 64 || files == 0 || files > 255 || files * ranks != total) return 0;
            if (ranks > 1) {
                /* a '/' weighs -F: the running sum is 0 (mod 256) at every '/' */
                const __m512i f = _mm512_set1_epi8((char)-(int)files);
                const __m512i r0 = prefix512(_mm512_mask_mov_epi8(w0, sl0, f));
                const __m512i last = _mm512_permutexvar_epi8(KZ(K_63), r0);     /* its byte 63 in all */
                const __m512i r1 = _mm512_add_epi8(prefix512(_mm512_mask_mov_epi8(w1, sl1, f)), last);
                if ((sl0 & ~_mm512_cmpeq_epi8_mask(r0, zero)) | (sl1 & ~_mm512_cmpeq_epi8_mask(r1, zero))) return 0;
            }
        }
    }
    if (b - a == 2 && s[b - 1] == '/') return 1;   /* (no pieces in hand: as check_window512) */
    const long inhand = b - a - 1 <= 16 ? hands_avx512(s, a + 1, b) : hands_check(s, a + 1, b);
    const unsigned pieces = (unsigned)__builtin_popcountll(lp0) + (unsigned)__builtin_popcountll(lp1);
    return inhand >= 0 && (unsigned long)pieces + (unsigned long)inhand <= (unsigned long)total;
}

AVX512 static INLINE int check_window512(const char *s, size_t len)
{
    KVEC_HIDE;
    const __m512i v = _mm512_loadu_si512((const void *)s);
    const uint64_t sp = _mm512_cmpeq_epi8_mask(v, KZ(K_SPACE));
    const unsigned a = (unsigned)_tzcnt_u64(sp);   /* (64 when none) */
    if (a > 61) return check_long512(s, len, v, sp);
    /* the space before the hands, s[b], after the placement's (so len >= 5) */
    if ((size_t)a + 4 >= len || !style_ok_in(s, len, (const uint8_t *)(const void *)kv + 64 * K_L2)) return 0;
    const size_t b = len - 4;
    const uint64_t pm = (1ull << a) - 1;           /* the placement s[0..a) */
    __m512i cls;
    const __m512i pair = pairs512(v, &cls);
    /* (a byte of 128 and more may count as a letter here: the grammar below finds
     * it); the digits by a compare of the bytes themselves (not from cls: one step
     * less before the weights) */
    const uint64_t l = _mm512_movepi8_mask(cls);
    const uint64_t d = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, KZ(K_ZERO)), KZ(K_TEN));
    const uint64_t sla = _mm512_cmpeq_epi8_mask(v, KZ(K_SLASH));
    const uint64_t sl = sla & pm;
    const uint64_t dp = d & pm, lp = l & pm;
    /* the token grammar over the placement and its space (broken512), no count of
     * three digits */
    const __m512i verdict = verdicts512(pair);
    if ((broken512(v, verdict, 0) & ((pm << 1) | 1)) | (dp & (dp << 1) & (dp << 2))) return 0;
    const __m512i x = _mm512_and_si512(v, KZ(K_0X0F));
    /* the weights of the placement, and of the digits after it (the hands' counts:
     * hands_line512), the letters there 0 */
    const uint64_t tens = d & (d >> 1);
    const __m512i w = weights512(x, d, tens, lp);
    __m512i run;                       /* the running sum of w, mod 256 */
    uint32_t total;
    if (sl & (sl << 1)) {
        /* "//": a 3-D board */
        total = layers512(s, a, w, pm, sl);
        if (total == 0) return 0;
        run = prefix512(w);
    } else {
        /* T: the 8-byte groups' sums (vpsadbw), each narrowed to a byte (at most
         * 255: vpmovusqb) and summed again; below 255, no group's was cut and
         * T is exact (fewer steps than adding the eight 64-bit sums) */
        const __m512i groups = _mm512_sad_epu8(_mm512_maskz_mov_epi8(pm, w), _mm512_setzero_si512());
        total = (uint32_t)_mm_cvtsi128_si32(_mm_sad_epu8(_mm512_cvtusepi64_epi8(groups), _mm_setzero_si128()));
        const unsigned ranks = 1 + (unsigned)__builtin_popcountll(sl);
        if (total < 255 && ranks <= 16) {
            if (!ranks_exact512(kv, w, sl | (1ull << a), ranks, &run)) return 0;
        } else {
            total = (uint32_t)_mm512_reduce_add_epi64(groups);
            const uint32_t files = (uint32_t)(((uint64_t)total * recip[ranks]) >> 20);
            if (files == 0 || files > 255 || files * ranks != total) return 0;
            /* a '/' weighs -F: the running sum is 0 (mod 256) at every '/' */
            run = prefix512(_mm512_mask_mov_epi8(w, sl, _mm512_set1_epi8((char)-(int)files)));
            if (sl & ~_mm512_cmpeq_epi8_mask(run, _mm512_setzero_si512())) return 0;
        }
    }
    /* the hand items: order, identities, and the pieces against the squares */
    /* (with no pieces in hand, the placement's pieces fit: each letter is one of
     * its T squares) */
    if (b - a == 2 && s[b - 1] == '/') return 1;
    const long inhand = b < 64 ? hands_line512(kv, s, v, verdict, run, l, d, sp, sla, a, (unsigned)b)
                      : b - a - 1 <= 16 ? hands_avx512(s, a + 1, b) : hands_check(s, a + 1, b);
    return inhand >= 0 && (unsigned long)__builtin_popcountll(lp) + (unsigned long)inhand <= (unsigned long)total;
}

/* As check_line_avx2. */
AVX512 static INLINE int check_line512(const char *s, size_t *len)
{
    KVEC_HIDE;
    uint64_t m = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)s), KZ(K_NL));
    if (m == 0) {
        m = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(s + 64)), KZ(K_NL));
        if (m == 0) {
            *len = 128;
            return 0;
        }
        *len = 64 + (size_t)__builtin_ctzll(m);
    } else {
        *len = (size_t)__builtin_ctzll(m);
    }
    return check_window512(s, *len);
}

AVX512 static int check_avx512(const char *s, size_t len)
{
    if (len > 127) return 0;
    char buf[WINDOW];
    memcpy(buf, s, len);
    memset(buf + len, '\n', sizeof buf - len);
    size_t n;
    return check_line512(buf, &n) && n == len;
}

/*
 * The lines of s[0..len) in bulk: each line's '\n' is found from its start, in
 * its first 128 bytes (a compare of the first 64, the first '\n' by tzcnt; of the
 * next 64 only when none is there), while WINDOW + 64 bytes are left from its
 * start. Each line asks for the bytes AHEAD
 * on (prefetch; never a fault, even past the end): a file read from its mapping
 * arrives from memory, not from the cache where read() would have copied it, and
 * the processor's own prefetching stops at each 4 KiB page. (A 64-byte block's
 * '\n' taken in turn, the next line's start not waiting on a load from this
 * one's, took ~20 more instructions a line and was no faster.)
 */
#define AHEAD 2048                     /* bytes: what is asked for in advance (see above) */
AVX512 static size_t lines_avx512(const char *s, size_t len, size_t *lines)
{
    KVEC_HIDE;
    size_t count = 0;
    const char *p = s;
    if (len < WINDOW + 64) {
        *lines = 0;
        return 0;
    }
    const char *const last = s + (len - (WINDOW + 64));   /* the last line start with its window */
#define NL64(q) _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(q)), KZ(K_NL))
    while (p <= last) {
        const uint64_t m0 = NL64(p), m1 = NL64(p + 64);
        _mm_prefetch(p + AHEAD, _MM_HINT_T0);
        size_t n = (size_t)_tzcnt_u64(m0);                 /* 64 when none */
        if (n == 64) {
            n += (size_t)_tzcnt_u64(m1);                   /* 128 when none */
            if (n > 127) break;
        }
        if (!check_window512(p, n)) break;
        p += n + 1;
        count++;
    }
#undef NL64
    *lines = count;
    return (size_t)(p - s);
}
#endif

/* ---- SSE2 ------------------------------------------------------------------------ */

#if defined(__SSE2__)
#define HAVE_SSE2_CHECK 1
#include <emmintrin.h>

static inline unsigned popcount64(uint64_t x)
{
#if defined(__POPCNT__)
    return (unsigned)__builtin_popcountll(x);
#else
    /* without -mpopcnt the builtin is a libgcc call */
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline __m128i in_range(__m128i v, char lo, char hi)
{
    return _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8((char)(lo - 1))),
                         _mm_cmplt_epi8(v, _mm_set1_epi8((char)(hi + 1))));
}

#define MASK16(m) ((uint64_t)(unsigned)_mm_movemask_epi8(m))

/*
 * A line whose placement field fits the first 64 bytes (a 1-D or 2-D board,
 * counts of at most two digits): the 64 bytes classified 16 at a time, the
 * token grammar as mask tests, a loop over the ranks (letters' popcount plus
 * counts), the hands read byte by byte.
 */
static int check_sse2(const char *s, size_t len)
{
    if (len < 5 || s[len - 4] != ' ' || s[len - 2] != '/') return 0;
    char f0 = s[len - 3], f2 = s[len - 1];
    if (!KOMA_IS_ALPHA(f0) || !KOMA_IS_ALPHA(f2) || KOMA_IS_UPPER(f0) == KOMA_IS_UPPER(f2))
        return 0;
    char buf[64];
    const char *p = s;
    if (len < 64) {
        memcpy(buf, s, len);
        memset(buf + len, 0, 64 - len);
        p = buf;
    }
    uint64_t letter = 0, digit = 0, zero = 0, slash = 0, caret = 0, quote = 0, sign = 0, space = 0;
    for (unsigned c = 0; c < 4; c++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * c));
        unsigned sh = 16 * c;
        letter |= MASK16(_mm_or_si128(in_range(v, 'A', 'Z'), in_range(v, 'a', 'z'))) << sh;
        digit |= MASK16(in_range(v, '1', '9')) << sh;
        zero |= MASK16(_mm_cmpeq_epi8(v, _mm_set1_epi8('0'))) << sh;
        slash |= MASK16(_mm_cmpeq_epi8(v, _mm_set1_epi8('/'))) << sh;
        caret |= MASK16(_mm_cmpeq_epi8(v, _mm_set1_epi8('^'))) << sh;
        quote |= MASK16(_mm_cmpeq_epi8(v, _mm_set1_epi8('\''))) << sh;
        sign |= MASK16(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('+')),
                                    _mm_cmpeq_epi8(v, _mm_set1_epi8('-')))) << sh;
        space |= MASK16(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))) << sh;
    }
    if (space == 0) return 0;                        /* the placement is longer */
    unsigned a = (unsigned)__builtin_ctzll(space);
    if (a == 0 || a + 4 > len) return 0;

    /* placement s[0..a): the token grammar */
    uint64_t pm = (1ull << a) - 1;                   /* (a < 64: a space was found) */
    letter &= pm; digit &= pm; zero &= pm; slash &= pm; caret &= pm; quote &= pm; sign &= pm;
    uint64_t dig = digit | zero;
    if (pm & ~(letter | dig | slash | caret | quote | sign)) return 0;
    if (caret & ~(letter << 1)) return 0;
    if (quote & ~((letter | caret) << 1)) return 0;
    if (sign & ~(letter >> 1)) return 0;
    if (zero & ~(dig << 1)) return 0;
    if (dig & (dig << 1) & (dig << 2)) return 0;              /* 3-digit counts */
    if (slash & ((slash << 1) | 1u | (1ull << (a - 1)))) return 0; /* "//", leading, trailing */

    /* ranks: letters + counts, all the same length */
    uint64_t starts = dig & ~(dig << 1), two = dig & (dig >> 1);
    uint64_t ends = slash | (1ull << a), done = 0;
    uint32_t files = 0, ranks = 0, total = 0;
    while (ends) {
        unsigned e = (unsigned)__builtin_ctzll(ends);
        uint64_t upto = (1ull << e) - 1, seg = upto & ~done;
        uint32_t n = popcount64(letter & seg);
        for (uint64_t d = starts & seg; d; d &= d - 1) {
            unsigned i = (unsigned)__builtin_ctzll(d);
            uint32_t v = (uint32_t)(s[i] - '0');
            if ((two >> i) & 1u) v = v * 10u + (uint32_t)(s[i + 1] - '0');
            n += v;
        }
        if (ranks++ == 0) files = n;
        else if (n != files) return 0;
        total += n;
        done = upto | (1ull << e);
        ends &= ends - 1;
    }
    if (files == 0 || files > 255) return 0;

    /* hands s[a+1..len-4) (s[len - 4] is a space) */
    long inhand = hands_check(s, a + 1, len - 4);
    if (inhand < 0) return 0;
    return (uint64_t)popcount64(letter) + (uint64_t)inhand <= total;
}
#undef MASK16
#endif

/* ---- the level, chosen once ----------------------------------------------------------- */

static int cpu_level(void)
{
    static int level = -1;             /* (a race only stores the same value) */
    int l = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (l >= 0) return l;
    l = KOMA__FEEN_LEVEL_NONE;
#if defined(HAVE_SSE2_CHECK)
    l = KOMA__FEEN_LEVEL_SSE2;
#endif
#if defined(HAVE_AVX2_CHECK)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
        __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")) {
        l = KOMA__FEEN_LEVEL_AVX2;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2"))
            l = KOMA__FEEN_LEVEL_AVX512;
    }
#endif
    __atomic_store_n(&level, l, __ATOMIC_RELAXED);
    return l;
}

int koma__feen_level(void) { return cpu_level(); }

int koma__feen_check_at(const char *s, size_t len, int level)
{
    if (level > cpu_level()) level = cpu_level();
    switch (level) {
#if defined(HAVE_AVX512_CHECK)
    case KOMA__FEEN_LEVEL_AVX512: return check_avx512(s, len);
#endif
#if defined(HAVE_AVX2_CHECK)
    case KOMA__FEEN_LEVEL_AVX2: return check_avx2(s, len);
#endif
#if defined(HAVE_SSE2_CHECK)
    case KOMA__FEEN_LEVEL_SSE2: return check_sse2(s, len);
#endif
    default: return 0;
    }
}

int koma__feen_check(const char *s, size_t len)
{
    return koma__feen_check_at(s, len, cpu_level());
}

size_t koma__feen_valid_lines_at(const char *s, size_t len, size_t *lines, int level)
{
    size_t pos = 0, count = 0;
    if (level > cpu_level()) level = cpu_level();
#if defined(HAVE_AVX512_CHECK)
    if (level == KOMA__FEEN_LEVEL_AVX512) return lines_avx512(s, len, lines);
#endif
#if defined(HAVE_AVX2_CHECK)
    if (level == KOMA__FEEN_LEVEL_AVX2) return lines_avx2(s, len, lines);
#endif
    if (level != KOMA__FEEN_LEVEL_NONE) {
        /* SSE2: memchr for each line */
        for (;;) {
            const char *nl = memchr(s + pos, '\n', len - pos);
            if (nl == NULL || !koma__feen_check_at(s + pos, (size_t)(nl - s) - pos, level)) break;
            pos = (size_t)(nl - s) + 1;
            count++;
        }
    }
    *lines = count;
    return pos;
}

size_t koma_feen_valid_lines(const char *s, size_t len, size_t *lines)
{
    return koma__feen_valid_lines_at(s, len, lines, cpu_level());
}
