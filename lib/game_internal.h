/* lib/game_internal.h — the game definition structure (a koma_game), shared by
 * the modules that read definitions: game.c (loading), game_ggn.c (export),
 * diagram.c, and the rules engine above them. Not installed, not exported. */
#ifndef KOMA_GAME_INTERNAL_H
#define KOMA_GAME_INTERNAL_H

#include <stdint.h>
#include <koma/koma.h>
#include <koma/game.h>

/* ---- game definitions ------------------------------------------------------- */

#define KOMA__MAX_KINDS 31             /* kinds per game: a board code holds kind + 1 in
                                          5 bits (KOMA__KIND_BITS), 0 being empty */
#define KOMA__MAX_FILES KOMA_LIMIT_GAME_FILES  /* boards the rule engine plays */
#define KOMA__MAX_RANKS KOMA_LIMIT_GAME_RANKS
#define KOMA__NAME_MAX (KOMA_LIMIT_PIECE_NAME + 1)
#define KOMA__SURVIVAL_SETS 16         /* defeat.survival: sets of pieces */
#define KOMA__SURVIVAL_SET_MAX 8       /* pieces in one set */

typedef struct koma__kind {
    koma_piece pin;                    /* first-player identity: letter, state, '^' */
    char name[KOMA__NAME_MAX];
    char betza[KOMA_BETZA_MAX_LEN + 1];
    koma_betza_vector vec[KOMA_BETZA_MAX_VECTORS];
    uint8_t nvec;
    uint8_t royal;
    int8_t promotes_to;                /* kind index, -1 when it does not promote */
    int8_t demotes_to;                 /* kind a capture puts in hand (itself if plain) */
    uint8_t promoted;                  /* 1 when some kind promotes to this one */
    uint8_t must_promote_ranks;        /* a move ending on the last N ranks promotes */
    uint8_t droppable;                 /* 0: never dropped */
    uint8_t drop_forbidden_ranks;      /* not dropped on the last N ranks */
    uint8_t nifu;                      /* no two unpromoted of a side on a file */
    uint8_t drop_no_mate;              /* a drop of it may not mate */
    uint8_t resets_move_limit;         /* a move of it resets the move-limit count */
    uint8_t styles;                    /* `engine: sanki`: the game's styles (bits, in the
                                          order of koma_game.styles) it has this name in */
} koma__kind;

/* How a game is drawn (the `diagram` section of a definition; lib/diagram*.c). */
#define KOMA__MAX_LABELS 160           /* kanji entries per game (Ko shogi has 65) */
#define KOMA__LABEL_MAX 16             /* bytes of one name: up to 3 characters + NUL */
enum koma__coords { KOMA__COORDS_CELL, KOMA__COORDS_SHOGI };
enum koma__grid { KOMA__GRID_SQUARES, KOMA__GRID_POINTS };
typedef struct koma__label {
    koma_piece piece;                  /* first-player EPIN (letter, state, '^', "'"); with a
                                          style, the side of the key's case */
    char style;                        /* 0: any piece; else the uppercase style letter of
                                          the pieces the name is for (a QPI key, "W:K^") */
    char text[KOMA__LABEL_MAX];        /* UTF-8, 1 to 3 characters */
} koma__label;

enum koma__nolegal { KOMA__NL_CHECKMATE, KOMA__NL_STALEMATE, KOMA__NL_NOMOVE };
enum koma__rep { KOMA__REP_NONE, KOMA__REP_SAME_MOVE, KOMA__REP_FOURFOLD };

struct koma__fx_def;

struct koma_game {
    char id[KOMA_LIMIT_GAME_ID + 1];
    /* `engine: effects` (Ko shogi): the rules are the effect engine's (fx_internal.h), compiled
     * from the YAML text kept here (rule options make variants of it) */
    struct koma__fx_def *fx;
    char *yaml;
    size_t yaml_len;
    char *variant;                     /* a variant under rule options: "id:NAME=VALUE;..." */
    char name[KOMA_SNN_MAX_LEN + 1];
    char style;                        /* uppercase */
    char styles[8];                    /* `styles`: the letters (uppercase) either side may
                                          use, any pairing; "" when each side uses `style` */
    int sanki;                         /* `engine: sanki`: the Sanki engine (sanki_*.c) */
    int illegal_rejected;              /* `illegal_ply: rejected`: an illegal ply ends no
                                          game, it makes the record invalid (Sanki) */
    unsigned move_cap;                 /* `move_cap`: plies after which the game is drawn
                                          (status movelimit), never reset; 0 none */
    char side_names[2][KOMA_GAME_SIDE_NAME_MAX + 1];            /* `side_names`: the players in verdict texts
                                          ("" for Sente and Gote) */
    int by_feen;                       /* found from a FEEN's style and board (by_feen:
                                          false: only by its id) */
    unsigned files, ranks;
    char *start;                       /* start FEEN (owned) */
    size_t start_len;
    int playable;                      /* pieces and rules present */
    int builtin;                       /* embedded in libkoma (a load may replace it) */
    size_t id_offset;                  /* where the id is in the YAML (game.duplicate) */
    unsigned long id_line, id_column;

    unsigned nkinds;
    koma__kind kinds[KOMA__MAX_KINDS];

    unsigned zone;                     /* promotion zone: the far N ranks */
    int compulsory_promotion;          /* every move touching the zone promotes */
    int check_rule;                    /* self-check illegal */
    int kings_privilege;               /* royal capturing a promoted piece may keep it */
    int promoted_drops;                /* promoted pieces in hand drop promoted */
    int bare_king;                     /* Okisaki's bare-king rule */
    /* defeat (status mareking): a side has lost when its royal piece is in the
     * other side's hand (royal_captured), or when its board holds none of the
     * survival sets (every piece of a set, at least once) */
    int royal_captured;
    unsigned nsurvival;
    struct koma__survival_set {
        uint8_t n;
        uint8_t kinds[KOMA__SURVIVAL_SET_MAX];
    } survival[KOMA__SURVIVAL_SETS];
    int nolegal_check, nolegal_other;  /* koma__nolegal for no legal move */
    int repetition;                    /* koma__rep */
    unsigned repetition_count;         /* fourfold: 4 */
    int repetition_draw;               /* fourfold: draw (else the repeater loses) */
    int perpetual_check_loses;
    unsigned move_limit;               /* plies without capture or pawn move; 0 none */
    int move_limit_capture_resets;
    signed char term[KOMA_STATUS_COUNT]; /* per status: -1 unlisted (a loss), KOMA__LOSS/DRAW/WIN */

    int coords;                        /* koma__coords: how diagrams label files and ranks */
    int grid;                          /* koma__grid: pieces on squares or on points */
    unsigned nlabels;
    koma__label labels[KOMA__MAX_LABELS]; /* the names drawn on the pieces */
};

enum { KOMA__LOSS = 0, KOMA__DRAW = 1, KOMA__WIN = 2 };

/* ---- game.c ------------------------------------------------------------------- */

/* The kind of a first-player PIN (letter, state, '^'; case and "'" ignored), -1. */
int koma__game_kind_of(const koma_game *g, koma_piece p);
/* 0 when pos fits g as an engine needs it (koma_engine_set_position): shape,
 * styles, pieces of the game, hands, at most one royal a side with the check
 * rule; else -1 with its error (rules.*). */
int koma__position_fits(const koma_game *g, const koma_position *pos, koma_error *err);
/* The same with each piece's kind read from kind_of[p & KOMA_PIECE_MASK] (an
 * engine's table of koma__game_kind_of; NULL: looked up in the game). */
int koma__position_fits_kinds(const koma_game *g, const koma_position *pos, const int8_t *kind_of,
                              koma_error *err);
/* Game g under rule options opts[0..n) ("NAME=VALUE" over the definition's own):
 * a new game, owned by the caller (koma__game_free), with g's id; its `variant`
 * names the settings. The errors of koma_game_set_variant; *bad (may be NULL)
 * the index of the setting at fault when one is (game.option.*), else n. */
int koma__game_variant_new(const koma_game *g, const char *const *opts, size_t n,
                           koma_game **out, size_t *bad, koma_error *err);
void koma__game_free(koma_game *g);
/* A definition read from YAML text (its nesting checked first), not yet in a set;
 * owned by the caller (koma__game_free). 0, or -1 with the error. */
int koma__game_load_text(const char *yaml, size_t len, const char *source, koma_game **out,
                         koma_error *err);
/* A built-in definition compiled (its `builtin` flag set): game_set.c at the first
 * lookup that needs it, and lib/games/index.c at build. 0, or -1 with the error. */
struct koma__embedded_game;
int koma__game_load_builtin(const struct koma__embedded_game *e, koma_game **out, koma_error *err);

/* ---- game_ggn_sanki.c: the Sanki family as GGN ------------------------------------- */

/* The GGN document of the Sanki variants of styles ("WJC": each letter W, J or C),
 * both sides; NULL with err (memory). */
koma_ggn *koma__game_sanki_ggn(const char *styles, koma_error *err);
/* What that document leaves to the rules, as one sentence. */
const char *koma__game_sanki_ggn_note(void);

/* ---- game_sanki.c: `styles`, `engine: sanki` ---------------------------------------------- */

#define KOMA__SANKI_HAND_MAX 24        /* distinct identities in a hand */
struct koma__ydoc;
struct yaml_node_s;
/* 1 when a position with these style letters (the first's, the second's) is
 * one of g's: both in `styles`, or the first g's style and the second its
 * lowercase. */
int koma__game_styles_fit(const koma_game *g, char first, char second);
/* The same on a game's `style` and `styles` alone (game_set.c: a built-in not
 * compiled yet is found from these). */
int koma__styles_fit(char style, const char *styles, char first, char second);
/* A `styles` list into out (uppercase, no repeat); -1 with the error at the node. */
int koma__game_styles(struct koma__ydoc *y, struct yaml_node_s *n, char *out, size_t cap);
/* The pieces of a Sanki definition (pin, name, styles, betza as a description). */
int koma__game_sanki_pieces(struct koma__ydoc *y, koma_game *g, struct yaml_node_s *root);
/* koma__position_fits for a Sanki game. */
int koma__sanki_position_fits(const koma_game *g, const koma_position *pos, koma_error *err);

#endif
