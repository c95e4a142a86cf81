/*
 * koma/pcn.h — PCN game records (koma-formats(5), PCN; the limits: koma(7), LIMITS).
 *
 * A record is a JSON object with the sections meta, links, periods, sides,
 * setup (required: setup.feen), plies and outcome. koma reads and writes it as
 * JSON and as YAML (the same tree: YAML plain scalars are resolved by the YAML
 * 1.2 core schema, quoted scalars stay strings). Unknown keys are kept, in
 * their order, on every round trip. The tree behind a koma_pcn is opaque.
 *
 * Validation (koma_pcn_parse* and koma_pcn_validate):
 *   - the record is an object; every known section has its type;
 *   - meta.name, .event, .site, .round: strings; meta.started_at: an RFC 3339
 *     date-time string;
 *   - links[]: objects whose rel and href are strings;
 *   - periods[]: objects with duration_ms (required), increment_ms and plies,
 *     each a non-negative integer;
 *   - sides.first / sides.second: objects; name and variant strings, elo an
 *     integer;
 *   - setup: an object with feen, a valid (canonical) FEEN string;
 *   - plies: at most 65,536 objects, each with pmn (a valid PMN string),
 *     elapsed_ms a non-negative integer, assessment and comment strings, check
 *     and mate booleans;
 *   - outcome.result one of 1-0 0-1 1/2-1/2 1/2-0 0-1/2 1-1/2 1/2-1;
 *     outcome.status a CGSN status; outcome.ply a non-negative integer (the
 *     1-based number of the ply that ended the game, 0 for the setup position).
 * An "integer" is a JSON number with no fractional part (1 or 1.0), as in JSON
 * Schema. schemas/pcn.schema.json states the same rules.
 *
 * Limits (each with its own code): a record is at most 16 MiB (pcn.size),
 * nests at most 64 levels (pcn.depth; the record object is level 1; checked
 * before jansson sees the text, and counted while YAML is read, aliases
 * included), has at most 65,536 plies (pcn.plies.limit); YAML aliases are
 * expanded, but never beyond 16 MiB (of JSON text, and of what the expansions
 * add counted with 32 bytes per node: pcn.size). Duplicate keys are rejected in
 * both formats (pcn.duplicate).
 *
 * Errors: line and byte column of the offending value (of the containing object
 * for a missing key), and a message naming its JSON pointer, e.g.
 *   pcn.ply.pmn  invalid PMN "e2e4" at /plies/17/pmn: pmn.syntax: ...
 * For a FEEN or PMN error the column is the start of the string value (its
 * opening quote in JSON), not the byte inside the string. Every function here
 * leaves err->source as the caller set it.
 */
#ifndef KOMA_PCN_H
#define KOMA_PCN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <koma/error.h>
#include <koma/io.h>
#include <koma/limits.h>
#include <koma/feen.h>
#include <koma/position.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A record's limits are koma/limits.h's: KOMA_LIMIT_RECORD, KOMA_LIMIT_DEPTH,
 * KOMA_LIMIT_PLIES, KOMA_LIMIT_TREE (what one record's tree of values may take
 * in memory while it is read, pcn.memory.limit). */

typedef struct koma_pcn koma_pcn;

typedef enum koma_pcn_format {
    KOMA_PCN_JSON,                 /* one JSON text; a database is JSON Lines */
    KOMA_PCN_YAML                  /* one YAML document; a database is a YAML stream */
} koma_pcn_format;

/* Parse flags (0 = everything checked). */
#define KOMA_PCN_FEEN_NORMALISE 0x1u   /* setup.feen may have non-canonical hands */
#define KOMA_PCN_NO_PMN         0x2u   /* do not check plies[].pmn syntax (another
                                          dialect, checked by the caller) */
#define KOMA_PCN_NO_VALIDATE    0x4u   /* syntax, limits and duplicates only */
#define KOMA_PCN_AUTO           0x8u   /* koma_pcn_reader_new: JSON or YAML decided
                                          per record (see "databases" below) */
#define KOMA_PCN_CHECK_ONLY     0x10u  /* a validator's read: a valid JSON record may
                                          come back as an empty object (its tree not
                                          built); errors as without the flag */
#define KOMA_PCN_LIGHT          0x20u  /* the caller reads the record only with
                                          koma_pcn_setup_feen, koma_pcn_ply_count,
                                          koma_pcn_ply_pmn, koma_pcn_has_outcome and
                                          koma_pcn_outcome_*: a valid JSON record may
                                          come back without its tree (any other
                                          function sees an empty record; a record
                                          with meta.rule_options keeps its tree, as
                                          the referee reads them); errors as
                                          without the flag */

/*
 * Parse and validate one record from s[0..len) into *out; -1 (*out NULL) with err
 * set on error
 * (err->line and err->column are positions in s). koma_pcn_parse_json and
 * koma_pcn_parse_yaml are koma_pcn_parse with flags 0. A YAML text must hold
 * exactly one document (pcn.yaml.documents otherwise; use koma_pcn_reader for
 * a stream).
 * Ownership: the caller frees *out with koma_pcn_free.
 */
KOMA_API int koma_pcn_parse(koma_pcn_format fmt, const char *s, size_t len, unsigned flags,
                            koma_pcn **out, koma_error *err);
/* Ownership: the caller frees *out with koma_pcn_free. */
KOMA_API int koma_pcn_parse_json(const char *s, size_t len, koma_pcn **out, koma_error *err);
/* Ownership: the caller frees *out with koma_pcn_free. */
KOMA_API int koma_pcn_parse_yaml(const char *s, size_t len, koma_pcn **out, koma_error *err);

/* A new record {"setup":{"feen":FEEN}}; the FEEN is validated (strictly).
 * Ownership: the caller frees *out with koma_pcn_free. */
KOMA_API int koma_pcn_new(const char *feen, size_t len, koma_pcn **out, koma_error *err);
/* Ownership: the caller frees *out with koma_pcn_free. */
KOMA_API int koma_pcn_copy(const koma_pcn *p, koma_pcn **out, koma_error *err);
/* Ownership: frees p and what it owns. */
KOMA_API void koma_pcn_free(koma_pcn *p);

/*
 * Validate a record again (after edits, or one parsed with NO_VALIDATE).
 * There is no text, so err->line, column and offset are 0; the message names
 * the JSON pointer.
 * Ownership: none.
 */
KOMA_API int koma_pcn_validate(const koma_pcn *p, unsigned flags, koma_error *err);

/* 1 when both records hold the same tree (same keys in the same order, same values).
 * Ownership: none. */
KOMA_API int koma_pcn_equal(const koma_pcn *a, const koma_pcn *b);

/* ---- accessors ------------------------------------------------------------
 * Strings returned point into the record and stay valid until it is changed
 * or freed; *len (when len is not NULL) gets the length. Accessors are safe on
 * records that were not validated: a missing value or one of another type
 * reads as absent.
 */

/* setup.feen, or NULL. Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_setup_feen(const koma_pcn *p, size_t *len);
/* Number of plies (0 when there is no plies array). Ownership: none. */
KOMA_API size_t koma_pcn_ply_count(const koma_pcn *p);
/* plies[i].pmn, or NULL.
 * Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_ply_pmn(const koma_pcn *p, size_t i, size_t *len);
/* plies[i].elapsed_ms: 1 with *ms set when present, 0 when absent. Ownership: none. */
KOMA_API int koma_pcn_ply_elapsed_ms(const koma_pcn *p, size_t i, uint64_t *ms);
/* A string member of plies[i] ("comment", "assessment", ...), or NULL.
 * Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_ply_string(const koma_pcn *p, size_t i, const char *key,
                                         size_t *len);
/* A boolean member of plies[i] ("check", "mate"): 1 true, 0 false, -1 absent.
 * Ownership: none. */
KOMA_API int koma_pcn_ply_flag(const koma_pcn *p, size_t i, const char *key);

/* 1 when the record has an outcome object. Ownership: none. */
KOMA_API int koma_pcn_has_outcome(const koma_pcn *p);
/* outcome.result / outcome.status, or NULL.
 * Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_outcome_result(const koma_pcn *p);
/* Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_outcome_status(const koma_pcn *p);
/* outcome.ply: 1 with *ply set when present, 0 when absent. Ownership: none. */
KOMA_API int koma_pcn_outcome_ply(const koma_pcn *p, uint64_t *ply);

/* A string member of meta ("name", "event", ...), or NULL.
 * Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_meta(const koma_pcn *p, const char *key, size_t *len);
/* A string member of sides.first (side KOMA_FIRST = 0) or sides.second (1), or NULL.
 * Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_side(const koma_pcn *p, int side, const char *key, size_t *len);

/* Any value, by RFC 6901 JSON pointer ("" is the record, "/sides/first/elo"). */
typedef enum koma_pcn_type {
    KOMA_PCN_ABSENT,               /* the pointer does not resolve */
    KOMA_PCN_NULL,
    KOMA_PCN_BOOL,                 /* boolean */
    KOMA_PCN_INTEGER,              /* integer */
    KOMA_PCN_REAL,                 /* real (a number written with '.' or an exponent) */
    KOMA_PCN_STRING,               /* string, len */
    KOMA_PCN_ARRAY,                /* len = number of elements */
    KOMA_PCN_OBJECT                /* len = number of members */
} koma_pcn_type;

typedef struct koma_pcn_value {
    koma_pcn_type type;
    const char *string;            /* STRING: NUL-terminated, but may hold NUL bytes: use len */
    size_t len;                    /* STRING, ARRAY, OBJECT */
    long long integer;             /* INTEGER */
    double real;                   /* REAL */
    int boolean;                   /* BOOL */
} koma_pcn_value;

/* Ownership: none. */
KOMA_API koma_pcn_type koma_pcn_get(const koma_pcn *p, const char *pointer, koma_pcn_value *out);
/* The name of member i (0-based, in document order) of the object at pointer, or NULL.
 * Ownership: the result is borrowed from p until p is changed or freed. */
KOMA_API const char *koma_pcn_key(const koma_pcn *p, const char *pointer, size_t i, size_t *len);

/* ---- walking the members (pcn_walk.c) --------------------------------------
 * koma_pcn_walk visits the value at pointer and everything below it, depth first
 * in document order: a scalar is one LEAF; an array or object is OPEN, then its
 * elements or members, then CLOSE. A pointer that does not resolve gives one
 * LEAF of type KOMA_PCN_ABSENT. Each node carries its JSON pointer, built and
 * escaped ("~0", "~1") by the library: never escape member names yourself.
 */
typedef enum koma_pcn_step {
    KOMA_PCN_LEAF,                 /* a scalar (or the absent value) */
    KOMA_PCN_OPEN,                 /* an array or object: its elements follow */
    KOMA_PCN_CLOSE                 /* the end of the array or object */
} koma_pcn_step;

typedef struct koma_pcn_node {
    koma_pcn_step step;
    koma_pcn_value value;          /* OPEN, CLOSE: ARRAY or OBJECT with its len */
    const char *pointer;           /* the node's JSON pointer, NUL-terminated */
    size_t pointer_len;
    const char *key;               /* its member name (raw) in an object, else NULL */
    size_t key_len;
    size_t index;                  /* its member or element number in its parent */
    size_t depth;                  /* 0 for the value at the walk's pointer */
} koma_pcn_node;

/* Return 0 to go on; any other value stops the walk and is returned. */
typedef int (*koma_pcn_walk_fn)(void *ctx, const koma_pcn_node *node);

/* 0 when the walk ends; fn's non-zero value; -1 with err (memory). Ownership: none. */
KOMA_API int koma_pcn_walk(const koma_pcn *p, const char *pointer, koma_pcn_walk_fn fn,
                           void *ctx, koma_error *err);

/* ---- comparing two records (pcn_diff.c) ------------------------------------
 * Key by key and ply by ply, as koma-diff(1) shows it: every member outside
 * the plies (in a's member order, then b's members a lacks; arrays element by
 * element; a value present in one record only differs), then the plies the two
 * move lists share — the same move (PMN compared as moves, a pieceless drop
 * resolved against the position) compares its other members, and the first
 * ply where the moves differ, or one list ends, is where the lists part.
 */

/* A member that differs (valid during the callback). */
typedef struct koma_pcn_member_diff {
    const char *pointer;           /* its JSON pointer (escaped), NUL-terminated */
    size_t pointer_len;
    koma_pcn_type type[2];         /* its type in a and in b (ABSENT: not there) */
    /* "/setup/feen" when both are valid (strict) FEEN: the two positions, for
     * koma_position_diff_walk; NULL otherwise */
    const koma_position *setup[2];
} koma_pcn_member_diff;

/* Return 0 to go on; any other value stops the comparison and is returned. */
typedef int (*koma_pcn_diff_fn)(void *ctx, const koma_pcn_member_diff *d);

/* Caller storage, reusable from one pair of records to the next. */
typedef struct koma_pcn_diff {
    size_t members;                /* differing members reported */
    size_t plies[2];               /* the ply counts of a and b */
    size_t ply;                    /* 1-based first ply where the move lists part; 0: none */
    const char *pmn[2];            /* its PMN in a and b (NULL past a list's end), */
    size_t pmn_len[2];             /* pointing into the records */
    koma_position before[2];       /* the position before that ply in a and b, */
    int known[2];                  /* when known (a valid setup, every ply applied), */
    char feen[2][KOMA_FEEN_MAX_LEN + 1];   /* and as FEEN ("" when not known) */
    int same_position;             /* both known and equal */
    void *priv_;                   /* private */
} koma_pcn_diff;

/* Ownership: none; the caller releases it with koma_pcn_diff_cleanup. */
KOMA_API void koma_pcn_diff_init(koma_pcn_diff *d);
/* Ownership: frees what d owns (not d itself). */
KOMA_API void koma_pcn_diff_cleanup(koma_pcn_diff *d);
/* Compare a with b, calling fn (may be NULL) for each differing member in the
 * order above. 1 when they differ (members or ply), 0 when not, -1 with err
 * (memory); fn's non-zero value when it stopped the comparison. Ownership: none. */
KOMA_API int koma_pcn_diff_compare(koma_pcn_diff *d, const koma_pcn *a, const koma_pcn *b,
                                   koma_pcn_diff_fn fn, void *ctx, koma_error *err);

/* ---- setters --------------------------------------------------------------
 * The outcome object is created (as the record's last member) when missing.
 * Values are validated: result against the list above (pcn.outcome.result),
 * status as CGSN (pcn.outcome.status). A NULL string removes the member.
 * Existing members keep their place; new ones are appended.
 * Ownership: none.
 */
KOMA_API int koma_pcn_set_outcome_result(koma_pcn *p, const char *result, size_t len,
                                         koma_error *err);
/* Ownership: none. */
KOMA_API int koma_pcn_set_outcome_status(koma_pcn *p, const char *status, size_t len,
                                         koma_error *err);
/* Ownership: none. */
KOMA_API int koma_pcn_set_outcome_ply(koma_pcn *p, uint64_t ply, koma_error *err);
/* Ownership: none. */
KOMA_API int koma_pcn_unset_outcome_ply(koma_pcn *p);
/* Remove outcome.csa (the CSA end code kept when result and status do not say it).
 * Ownership: none. */
KOMA_API int koma_pcn_unset_outcome_csa(koma_pcn *p);
/* Append {"pmn": PMN} to plies (created when missing); PMN syntax is checked.
 * Ownership: none. */
KOMA_API int koma_pcn_append_ply(koma_pcn *p, const char *pmn, size_t len, koma_error *err);

/* ---- writers --------------------------------------------------------------
 * Writers append to a growable heap buffer (zero-initialise it; reset len to 0
 * to reuse it for the next record; free data with koma_buffer_cleanup: koma/io.h).
 * The text is always NUL-terminated (data[len] == '\0') and ends with '\n'.
 *   JSON: compact, one line (a JSON Lines line) by default; KOMA_PCN_PRETTY
 *         indents by 2. Keys in record order, UTF-8 kept, "/" not escaped.
 *   YAML: one document starting with "---", block style, 2-space indent, no
 *         line folding. Strings that a YAML 1.2 core (or 1.1) reader would take
 *         for something else (null, true, 12, 1-0, 0x1f, .inf, 2024-05-01...)
 *         are single-quoted; strings with control or line-break characters are
 *         double-quoted. Concatenated documents form a YAML stream.
 * Parsing what a writer wrote gives the same tree; JSON -> YAML -> JSON is
 * byte-identical in JSON.
 */
#define KOMA_PCN_PRETTY 0x1u


/* Ownership: none. */
KOMA_API int koma_pcn_write_json(const koma_pcn *p, unsigned flags, koma_buffer *out,
                                 koma_error *err);
/* Ownership: none. */
KOMA_API int koma_pcn_write_yaml(const koma_pcn *p, unsigned flags, koma_buffer *out,
                                 koma_error *err);
/* Ownership: none. */
KOMA_API int koma_pcn_write(const koma_pcn *p, koma_pcn_format fmt, unsigned flags,
                            koma_buffer *out, koma_error *err);
/* The same into a stdio stream (io.write on a write error). Ownership: none. */
KOMA_API int koma_pcn_fwrite(const koma_pcn *p, koma_pcn_format fmt, unsigned flags, FILE *f,
                             koma_error *err);

/* ---- databases --------------------------------------------------------------
 * A reader yields the records of a JSON Lines file or a YAML stream one at a
 * time, in bounded memory (about one record plus one read chunk).
 *
 * JSON Lines: one record per line ('\n'; a trailing '\r' is JSON white space);
 * blank lines (spaces, tabs, '\r' only) are skipped. A line longer than 16 MiB
 * is reported (pcn.size, at the byte past the limit) and skipped.
 * YAML stream: the reader itself splits the input into documents at lines that
 * start with "---" or "..." followed by white space or the end of the line —
 * YAML forbids such lines inside content, so this is exact — and gives each
 * document to libyaml on its own. Comment, blank and directive lines before a
 * "---" belong to the next document. A document with no content (only
 * comments, or a "---" followed by another "---") is skipped. After any error,
 * a syntax error included, reading resumes at the next document marker; a
 * document longer than 16 MiB is reported once and skipped to that marker.
 * A UTF-8 byte-order mark at the start of the input, or of a JSON line, is
 * skipped (columns on that line are then counted after it). Input must be UTF-8.
 *
 * With the flag KOMA_PCN_AUTO (fmt is then ignored) the format is decided per
 * record, so that nothing decided about one record can lose the others
 * (koma(7), COMMON CONTRACT): outside a YAML document, a line whose first byte (after a
 * BOM) is '{' starts a JSON record, any other content line a YAML document.
 * The JSON record is that one line (JSON Lines), unless the line is '{' alone:
 * a pretty-printed JSON text then goes on over the following lines up to a
 * line starting with '}', or before the next line starting with '{' or a
 * document marker. A line starting with '{' also ends a YAML document that has
 * content (a flow mapping cannot follow a document's content at column 1):
 * JSON Lines may follow YAML documents. koma_pcn_reader_format tells which
 * format the record last returned was in.
 *
 * Errors carry the line and column in the whole input and the offset from the
 * start of the input.
 */
typedef struct koma_pcn_reader koma_pcn_reader;

/* A koma_read_fn for a stdio stream (ctx is the FILE *). Ownership: none. */
KOMA_API long koma_pcn_read_stdio(void *file, char *buf, size_t cap);

/*
 * read NULL: push mode — give input with koma_pcn_reader_feed (in chunks of
 * any size; feed a chunk, then call next until it answers KOMA_PCN_AGAIN) and
 * call koma_pcn_reader_finish at the end of input.
 * flags: the parse flags above, for every record.
 * Ownership: the caller frees *out with koma_pcn_reader_free; read and ctx are kept until then.
 */
KOMA_API int koma_pcn_reader_new(koma_pcn_format fmt, unsigned flags, koma_read_fn read,
                                 void *ctx, koma_pcn_reader **out, koma_error *err);
/* Ownership: frees r and what it owns. */
KOMA_API void koma_pcn_reader_free(koma_pcn_reader *r);
/* Ownership: none. */
KOMA_API int koma_pcn_reader_feed(koma_pcn_reader *r, const char *data, size_t len,
                                  koma_error *err);
/* Ownership: none. */
KOMA_API void koma_pcn_reader_finish(koma_pcn_reader *r);

enum {
    KOMA_PCN_FATAL = -1,           /* read error or out of memory: err set; stop */
    KOMA_PCN_END = 0,              /* no more records */
    KOMA_PCN_RECORD = 1,           /* *out is a valid record (the caller frees it) */
    KOMA_PCN_INVALID = 2,          /* an invalid record: err set, *out NULL; go on */
    KOMA_PCN_AGAIN = 3             /* push mode: feed more input (or finish) */
};

/* Ownership: the caller frees *out with koma_pcn_free. */
KOMA_API int koma_pcn_reader_next(koma_pcn_reader *r, koma_pcn **out, koma_error *err);
/* First line (1-based) of the record last returned (RECORD or INVALID): the
 * JSON line, or the YAML document's "---" line (its first content line when it
 * has no marker). Ownership: none. */
KOMA_API unsigned long koma_pcn_reader_line(const koma_pcn_reader *r);
/* Its raw text (valid until the next call on r); NULL after an over-long record.
 * Ownership: the result is borrowed from r until the next call on r. */
KOMA_API const char *koma_pcn_reader_text(const koma_pcn_reader *r, size_t *len);
/* Its format (with KOMA_PCN_AUTO, the one decided for it). Ownership: none. */
KOMA_API koma_pcn_format koma_pcn_reader_format(const koma_pcn_reader *r);
/*
 * Where the value at an RFC 6901 JSON pointer ("/plies/17/pmn") of the record
 * last returned starts in the whole input: 1-based line and byte column, as
 * errors give them (a string's opening quote in JSON, the scalar's first byte
 * in YAML). Returns 0; -1 when there is no record text (line and column 0) or,
 * for JSON, when the pointer does not resolve (the position is then that of the
 * deepest value found on the way; YAML always gives that position). It scans
 * the record's text again: meant for diagnostics, not for every value.
 * Ownership: none.
 */
KOMA_API int koma_pcn_reader_locate(const koma_pcn_reader *r, const char *pointer,
                                    unsigned long *line, unsigned long *column);

#ifdef __cplusplus
}
#endif
#endif
