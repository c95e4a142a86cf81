/*
 * tests/fuzz/fuzz_csa.c — libFuzzer harness for the CSA record reader and
 * writer through koma_format_reader / koma_format_writer (see stream_checks.h): records are
 * valid PCN, errors are located, and what is written back reads the same.
 */
#include "stream_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static koma_hub *hub;
    if (hub == NULL) koma_hub_new(NULL, &hub, NULL);
    CHECK(hub != NULL);
    char *s = malloc(size ? size : 1);
    if (s == NULL) return 0;
    if (size) memcpy(s, data, size);
    const koma_format *fmt = koma_format_find("csa", 3);
    CHECK(fmt != NULL);
    stream_read(hub, fmt, s, size, round_trip);
    free(s);
    return 0;
}
