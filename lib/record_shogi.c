/*
 * lib/record_shogi.c — what the shogi-world formats share about Shogi itself:
 * the standard start positions (the even game and the handicaps, 駒落ち, by
 * the names KIF's 手合割 line and JKF's initial.preset give them), the
 * two-letter piece codes of CSA and JKF, and the test that a record is one
 * these formats can hold.
 *
 * In a handicap game the giver (上手) has the second player's pieces and moves
 * first. Only the handicaps whose pieces every source agrees on are listed; a
 * record naming another one (左七枚落ち, 右七枚落ち, ...) must give its board.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "record_internal.h"

#define EVEN_START "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"

static const struct preset_def {
    koma__preset p;
    const char *removed;           /* squares emptied (file, rank), "" for the even game */
} presets[] = {
    {{"平手", "HIRATE"}, ""},
    {{"香落ち", "KY"}, "11"},
    {{"右香落ち", "KY_R"}, "91"},
    {{"角落ち", "KA"}, "22"},
    {{"飛車落ち", "HI"}, "82"},
    {{"飛香落ち", "HIKY"}, "8211"},
    {{"二枚落ち", "2"}, "8222"},
    {{"三枚落ち", "3"}, "822211"},
    {{"四枚落ち", "4"}, "82221191"},
    {{"五枚落ち", "5"}, "8222119181"},
    {{"左五枚落ち", "5_L"}, "8222119121"},
    {{"六枚落ち", "6"}, "822211918121"},
    {{"八枚落ち", "8"}, "8222119181213171"},
    {{"十枚落ち", "10"}, "82221191812131714161"},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

const koma__preset *koma__preset_by_kif(const char *s, size_t len)
{
    for (size_t i = 0; i < NPRESETS; i++)
        if (strlen(presets[i].p.kif) == len && memcmp(presets[i].p.kif, s, len) == 0) return &presets[i].p;
    return NULL;
}

const koma__preset *koma__preset_by_jkf(const char *s, size_t len)
{
    for (size_t i = 0; i < NPRESETS; i++)
        if (strlen(presets[i].p.jkf) == len && memcmp(presets[i].p.jkf, s, len) == 0) return &presets[i].p;
    return NULL;
}

int koma__preset_position(const koma__preset *p, koma_position *pos, koma_error *err)
{
    const struct preset_def *d = (const struct preset_def *)p;
    if (koma_feen_parse(EVEN_START, strlen(EVEN_START), KOMA_FEEN_STRICT, pos, err) != 0) return -1;
    for (const char *r = d->removed; r[0] && r[1]; r += 2) {
        koma_sq sq = {(uint8_t)(r[0] - '0'), (uint8_t)(r[1] - '0')};
        uint32_t k;
        if (koma_sq_to_square(&pos->shape, sq, &k) == 0) pos->board[k] = KOMA_PIECE_NONE;
    }
    if (d->removed[0]) pos->turn = KOMA_SECOND;
    return 0;
}

int koma__preset_of(const koma_position *pos, const koma__preset **out, koma_error *err)
{
    *out = NULL;
    if (pos->shape.ndims != 2 || pos->shape.size[0] != 9 || pos->shape.size[1] != 9 ||
        pos->style[0] != 'S' || pos->style[1] != 's' || pos->hands[0].len || pos->hands[1].len)
        return 0;
    koma_position q;
    koma_position_init(&q);
    int rc = 0;
    for (size_t i = 0; i < NPRESETS && *out == NULL && rc == 0; i++) {
        rc = koma__preset_position(&presets[i].p, &q, err);
        if (rc == 0 && koma_position_equal(&q, pos)) *out = &presets[i].p;
    }
    koma_position_cleanup(&q);
    return rc;
}

/* ---- piece codes ------------------------------------------------------------------ */

static const struct {
    char code[3];
    char letter;
    int promoted;
} codes[] = {
    {"FU", 'P', 0}, {"KY", 'L', 0}, {"KE", 'N', 0}, {"GI", 'S', 0}, {"KI", 'G', 0},
    {"KA", 'B', 0}, {"HI", 'R', 0}, {"OU", 'K', 0}, {"TO", 'P', 1}, {"NY", 'L', 1},
    {"NK", 'N', 1}, {"NG", 'S', 1}, {"UM", 'B', 1}, {"RY", 'R', 1},
};
#define NCODES (sizeof codes / sizeof codes[0])

static koma_piece code_kind(size_t i)
{
    return (koma_piece)(koma_piece_from_letter(codes[i].letter) | (codes[i].promoted ? KOMA_PIECE_ENHANCED : 0));
}

koma_piece koma__shogi_piece(const char *s, size_t len)
{
    if (len != 2) return KOMA_PIECE_NONE;
    for (size_t i = 0; i < NCODES; i++)
        if (s[0] == codes[i].code[0] && s[1] == codes[i].code[1]) return code_kind(i);
    return KOMA_PIECE_NONE;
}

const char *koma__shogi_code(koma_piece kind)
{
    kind = (koma_piece)(kind & (KOMA_PIECE_LETTER | KOMA_PIECE_STATE));
    for (size_t i = 0; i < NCODES; i++)
        if (kind == code_kind(i)) return codes[i].code;
    return NULL;
}

koma_piece koma__shogi_on_board(koma_piece kind, int side)
{
    koma_piece p = kind;
    if ((kind & KOMA_PIECE_LETTER) == ('K' - 'A' + 1)) p |= KOMA_PIECE_TERMINAL;
    if (side == KOMA_SECOND) p |= KOMA_PIECE_SECOND;
    return p;
}

/* ---- records the shogi-world formats hold -------------------------------------------- */

int koma__srec_shogi_only(const koma_shogi_record *r, const char *format, koma_error *err)
{
    const koma_position *p = &r->setup;
    if (p->shape.ndims != 2 || p->shape.size[0] != 9 || p->shape.size[1] != 9 || p->style[0] != 'S' ||
        p->style[1] != 's')
        return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "%s holds Shogi records only, not %s ones",
                              format, r->game ? koma_game_name(r->game) : "other games'");
    for (uint32_t q = 0; q < 81; q++)
        if (p->board[q] && (koma__shogi_code(p->board[q]) == NULL || (p->board[q] & KOMA_PIECE_DIMINISHED)))
            return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0, "a piece %s cannot name", format);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < p->hands[s].len; i++) {
            koma_piece h = p->hands[s].items[i].piece;
            if ((h & KOMA_PIECE_STATE) || koma__shogi_code(h) == NULL || (h & KOMA_PIECE_LETTER) == ('K' - 'A' + 1))
                return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                                      "%s hands hold only unpromoted pieces other than kings", format);
        }
    return 0;
}

/* A format with no variations (CSA, USI) says so rather than drop them silently. */
int koma__srec_no_forks(const koma_shogi_record *r, const char *format, koma_error *err)
{
    size_t forks = 0;
    for (size_t i = 0; i < r->main.len; i++) forks += r->main.moves[i].nforks > 0;
    if (forks == 0) return 0;
    return koma_error_set(err, KOMA_E_CONVERT_UNREPRESENTABLE, 0,
                          "%s has no variations; this record has some at %zu pl%s (PCN, KIF, KI2 and JKF keep them; --drop variations writes the main line)",
                          format, forks, forks == 1 ? "y" : "ies");
}

/* ---- KIF's header names (JKF's header keys too) --------------------------------------- */

koma_shogi_header_key koma__kif_header_key(const char *k, size_t n)
{
    static const struct {
        const char *name;
        koma_shogi_header_key key;
    } keys[] = {
        {"開始日時", KOMA_H_START}, {"終了日時", KOMA_H_END},  {"表題", KOMA_H_NAME},
        {"棋戦", KOMA_H_EVENT},     {"場所", KOMA_H_SITE},     {"戦型", KOMA_H_OPENING},
        {"持ち時間", KOMA_H_TIME_CONTROL}, {"回戦", KOMA_H_ROUND}, {"先手", KOMA_H_FIRST_NAME},
        {"下手", KOMA_H_FIRST_NAME}, {"後手", KOMA_H_SECOND_NAME}, {"上手", KOMA_H_SECOND_NAME},
        {"手合割", KOMA_H_HANDICAP},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].name) == n && memcmp(keys[i].name, k, n) == 0) return keys[i].key;
    return KOMA_H_OTHER;
}

const char *koma__kif_header_name(koma_shogi_header_key key, int handicap)
{
    switch (key) {
    case KOMA_H_START: return "開始日時";
    case KOMA_H_END: return "終了日時";
    case KOMA_H_NAME: return "表題";
    case KOMA_H_EVENT: return "棋戦";
    case KOMA_H_SITE: return "場所";
    case KOMA_H_OPENING: return "戦型";
    case KOMA_H_TIME_CONTROL: return "持ち時間";
    case KOMA_H_ROUND: return "回戦";
    case KOMA_H_HANDICAP: return "手合割";
    case KOMA_H_FIRST_NAME: return handicap ? "下手" : "先手";
    case KOMA_H_SECOND_NAME: return handicap ? "上手" : "後手";
    default: return NULL;
    }
}

static int two(const char *s, size_t n, size_t *i, int *v)
{
    if (*i >= n || !KOMA_IS_DIGIT(s[*i])) return 0;
    *v = s[(*i)++] - '0';
    if (*i < n && KOMA_IS_DIGIT(s[*i])) *v = *v * 10 + (s[(*i)++] - '0');
    return 1;
}

size_t koma__kif_date_in(const char *v, size_t n, char out[48])
{
    size_t i = 0;
    int y = 0, mo, dd, hh = -1, mi = 0, ss = 0;
    if (n < 10 || !KOMA_IS_DIGIT(v[0]) || !KOMA_IS_DIGIT(v[1]) || !KOMA_IS_DIGIT(v[2]) || !KOMA_IS_DIGIT(v[3]))
        return 0;
    if (v[4] == '-') {
        /* ISO already (the KIF writer writes a date with a zone as it is) */
        if (n >= 48 || v[7] != '-') return 0;
        for (size_t k = 0; k < n; k++)
            if (!(KOMA_IS_DIGIT(v[k]) || v[k] == '-' || v[k] == ':' || v[k] == 'T' || v[k] == '+' ||
                  v[k] == 'Z' || v[k] == '.'))
                return 0;
        memcpy(out, v, n);
        return n;
    }
    if (v[4] != '/') return 0;
    y = (v[0] - '0') * 1000 + (v[1] - '0') * 100 + (v[2] - '0') * 10 + (v[3] - '0');
    i = 5;
    if (!two(v, n, &i, &mo) || i >= n || v[i++] != '/' || !two(v, n, &i, &dd)) return 0;
    if (i < n && v[i] == '(') {
        /* the day of the week: (土) */
        while (i < n && v[i] != ')') i++;
        if (i == n) return 0;
        i++;
    }
    if (i < n) {
        if (v[i] != ' ') return 0;
        while (i < n && v[i] == ' ') i++;
        if (!two(v, n, &i, &hh) || i >= n || v[i++] != ':' || !two(v, n, &i, &mi)) return 0;
        if (i < n && v[i] == ':') {
            i++;
            if (!two(v, n, &i, &ss)) return 0;
        }
        if (i != n) return 0;
    }
    if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 60) return 0;
    if (hh < 0) return (size_t)snprintf(out, 48, "%04d-%02d-%02d", y, mo, dd);
    return (size_t)snprintf(out, 48, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, dd, hh, mi, ss);
}

const char *koma__kif_date_out(const char *v, char buf[32])
{
    size_t n = strlen(v);
    if ((n != 10 && n != 19) || v[4] != '-' || v[7] != '-' || (n == 19 && v[10] != 'T')) return v;
    memcpy(buf, v, n + 1);
    buf[4] = buf[7] = '/';
    if (n == 19) buf[10] = ' ';
    return buf;
}

/* ---- times ------------------------------------------------------------------------ */

void koma__times_both(long long run[2], int side, long long el, long long tot, long long *oel, long long *otot)
{
    if (el == KOMA_TIME_NONE && tot == KOMA_TIME_NONE) {
        *oel = *otot = KOMA_TIME_NONE;
        return;
    }
    if (el == KOMA_TIME_NONE) el = tot >= run[side] ? tot - run[side] : 0;
    if (tot == KOMA_TIME_NONE) tot = run[side] + el;
    run[side] = tot;
    *oel = el;
    *otot = tot;
}

int koma__kif_header_add(koma_shogi_record *r, const char *k, size_t kl, const char *v, size_t vl, koma_error *err)
{
    koma_shogi_header_key key = koma__kif_header_key(k, kl);
    if (key == KOMA_H_START || key == KOMA_H_END) {
        char iso[48];
        size_t il = koma__kif_date_in(v, vl, iso);
        if (il) return koma_shogi_record_add_header(r, key, NULL, 0, iso, il, err);
        key = KOMA_H_OTHER;
    }
    /* a time control: periods (for both sides, or one) */
    int side = key == KOMA_H_TIME_CONTROL ? 0 : kl == strlen(KOMA__KIF_FIRST_TIME) && !memcmp(k, KOMA__KIF_FIRST_TIME, kl) ? 1
               : kl == strlen(KOMA__KIF_SECOND_TIME) && !memcmp(k, KOMA__KIF_SECOND_TIME, kl)                   ? 2
                                                                                                               : -1;
    if (side >= 0 && r->nperiods[side] == 0) {
        if (koma__kif_periods_in(v, vl, side == 0, r->periods[side], &r->nperiods[side])) return 0;
        /* another program's form: its periods, and the text kept as written */
        koma__kif_time_in(v, vl, r->periods[side], &r->nperiods[side]);
    }
    if (key == KOMA_H_OTHER) return koma_shogi_record_add_header(r, key, k, kl, v, vl, err);
    return koma_shogi_record_add_header(r, key, NULL, 0, v, vl, err);
}
