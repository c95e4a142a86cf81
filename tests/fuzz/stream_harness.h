/*
 * tests/fuzz/stream_harness.h — the whole harness of a record format read and
 * written through koma_format_reader / koma_format_writer: define FUZZ_FORMAT (its name in
 * the format registry) and include this. The checks are stream_checks.h's:
 * records are valid PCN, errors are located, and what is written back reads
 * the same. A harness may define FUZZ_EXTRA(data, size), more checks on the input.
 */
#include "stream_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static koma_hub *hub;
    if (hub == NULL) koma_hub_new(NULL, &hub, NULL);
    CHECK(hub != NULL);
    char *s = fuzz_copy(data, size);
    if (s == NULL) return 0;
    const koma_format *fmt = koma_format_find(FUZZ_FORMAT, strlen(FUZZ_FORMAT));
    CHECK(fmt != NULL);
    stream_read(hub, fmt, s, size, round_trip);
#ifdef FUZZ_EXTRA
    FUZZ_EXTRA(s, size);
#endif
    free(s);
    return 0;
}
