/* tests/pictures/render.c — draw one FEEN for the picture test:
 *     render-diagram ascii|unicode|svg FEEN [LAST-MOVE [CAPTION]]
 * The diagram goes to stdout; an error is one line on stderr and status 1.
 * (koma-convert --to svg does the same for users; this keeps the picture test
 * independent of the command's options.) */
#include <stdio.h>
#include <string.h>
#include <koma/koma.h>

static int put(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, ctx) == len ? 0 : -1;
}

int main(int argc, char **argv)
{
    koma_diagram_options o;
    memset(&o, 0, sizeof o);
    if (argc < 3 || argc > 5 || koma_diagram_format_from_name(argv[1], strlen(argv[1]), &o.format) != 0) {
        fprintf(stderr, "usage: render-diagram ascii|unicode|svg FEEN [LAST-MOVE [CAPTION]]\n");
        return 2;
    }
    if (argc > 3 && argv[3][0] != '\0') {
        o.last_move = argv[3];
        o.last_move_len = strlen(argv[3]);
    }
    if (argc > 4) {
        o.caption = argv[4];
        o.caption_len = strlen(argv[4]);
    }
    koma_error err;
    koma_error_clear(&err);
    koma_game_set *set = NULL;
    koma_position pos;
    koma_position_init(&pos);
    int rc = 1;
    if (koma_game_set_new(&set, &err) == 0 &&
        koma_feen_parse(argv[2], strlen(argv[2]), KOMA_FEEN_STRICT, &pos, &err) == 0 &&
        koma_diagram_write(&pos, koma_game_set_find_position(set, &pos, NULL), &o, put, stdout,
                           &err) == 0 &&
        fflush(stdout) == 0)
        rc = 0;
    if (rc != 0) fprintf(stderr, "render-diagram: %s: %s\n", koma_code_name(err.code), err.message);
    koma_position_cleanup(&pos);
    koma_game_set_free(set);
    return rc;
}
