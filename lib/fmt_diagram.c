/*
 * lib/fmt_diagram.c — the diagrams of koma/diagram.h as koma-convert output
 * formats: ascii, unicode, svg. A record gives its last position (every
 * position with --each, the move that led to it named and shaded, captioned
 * "ply N"); text diagrams are separated by a blank line.
 */
#include <stdio.h>
#include <string.h>

#include "format_internal.h"

static int sink(void *ctx, const char *data, size_t len)
{
    return koma__buf_put(ctx, data, len, NULL);
}

static int draw(koma_diagram_format f, const koma_position *pos, const koma_game *game,
                const koma_move *last, size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    koma_diagram_options o = KOMA_DIAGRAM_OPTIONS_INIT;
    o.format = f;
    char pmn[KOMA_PMN_BUF], cap[32];
    if (last != NULL) {
        o.last_move = pmn;
        o.last_move_len = koma_pmn_write(last, pmn);
        o.caption = cap;
        o.caption_len = (size_t)snprintf(cap, sizeof cap, "ply %zu", ply);
    }
    if (f != KOMA_DIAGRAM_SVG && (index > 0 || out->len > 0) && koma__buf_put(out, "\n", 1, err))
        return -1;
    if (koma_diagram_write(pos, game, &o, sink, out, err) != 0) {
        if (err && err->code == KOMA_E_IO_WRITE) koma_error_set(err, KOMA_E_MEMORY, 0, NULL);
        return -1;
    }
    return 0;
}

static int write_ascii(koma_hub *h, const koma_position *pos, const koma_game *g, const koma_move *last,
                       size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    (void)h;
    return draw(KOMA_DIAGRAM_ASCII, pos, g, last, ply, index, out, err);
}

static int write_unicode(koma_hub *h, const koma_position *pos, const koma_game *g, const koma_move *last,
                         size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    (void)h;
    return draw(KOMA_DIAGRAM_UNICODE, pos, g, last, ply, index, out, err);
}

static int write_svg(koma_hub *h, const koma_position *pos, const koma_game *g, const koma_move *last,
                     size_t ply, size_t index, koma_buffer *out, koma_error *err)
{
    (void)h;
    return draw(KOMA_DIAGRAM_SVG, pos, g, last, ply, index, out, err);
}

const koma_format koma__fmt_ascii = {
    .name = "ascii", .aliases = "", .title = "a text diagram of each position (write only)",
    .kind = KOMA_FORMAT_POSITION, .write_position = write_ascii,
};
const koma_format koma__fmt_unicode = {
    .name = "unicode", .aliases = "", .title = "a Unicode diagram with kanji pieces (write only)",
    .kind = KOMA_FORMAT_POSITION, .write_position = write_unicode,
};
const koma_format koma__fmt_svg = {
    .name = "svg", .aliases = "", .title = "an SVG picture of each position (write only)",
    .kind = KOMA_FORMAT_POSITION, .write_position = write_svg,
};
