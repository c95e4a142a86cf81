#!/bin/sh
# Scale-out (koma(7), COMMON CONTRACT): every record is independent, so a database split by
# GNU parallel (`parallel --pipe -k`) and replayed by several koma-replay processes
# must give what one process gives. Run from tests/data/ with koma-replay on PATH,
# by the golden case tests/cli/cases/replay/scale-out; one line a check.
#
# The SOURCE field (FILE:LINE) names each part's own lines, so it is left out of
# the comparison (cut -f 2-); everything else must be byte for byte the same.
command -v parallel >/dev/null 2>&1 || { echo "replay-parallel: GNU parallel is needed" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
fail=0

check() {   # check NAME: compare $tmp/one and $tmp/many
    if cmp -s "$tmp/one" "$tmp/many"; then
        echo "$1: the same"
    else
        echo "$1: DIFFERENT"; diff "$tmp/one" "$tmp/many" | head -n 10; fail=1
    fi
}

# JSON Lines: 167 records, cut into parts of about 20 kB at line ends.
cat pcn/games.jsonl replay/ogi.jsonl replay/shogi.jsonl replay/okisaki.jsonl >"$tmp/db.jsonl"
jobs=$(parallel --will-cite --pipe -k --block 20k 'wc -l' <"$tmp/db.jsonl" | wc -l)
koma-replay <"$tmp/db.jsonl" 2>/dev/null | cut -f 2- >"$tmp/one"
parallel --will-cite --pipe -k --block 20k koma-replay <"$tmp/db.jsonl" 2>/dev/null |
    cut -f 2- >"$tmp/many"
echo "JSON Lines: $(wc -l <"$tmp/one") records, $jobs parts"
check "verdicts"

# The same with --adjudicate.
koma-replay --adjudicate <"$tmp/db.jsonl" 2>/dev/null | cut -f 2- >"$tmp/one"
parallel --will-cite --pipe -k --block 20k koma-replay --adjudicate <"$tmp/db.jsonl" 2>/dev/null |
    cut -f 2- >"$tmp/many"
check "adjudication"

# --write-outcome has no source field: the records must be identical.
koma-replay --write-outcome <"$tmp/db.jsonl" 2>/dev/null >"$tmp/one"
parallel --will-cite --pipe -k --block 20k koma-replay --write-outcome <"$tmp/db.jsonl" \
    2>/dev/null >"$tmp/many"
check "records written back"

# A YAML stream, cut at document markers.
cat replay/ogi.yaml replay/shogi.yaml replay/okisaki.yaml >"$tmp/db.yaml"
jobs=$(parallel --will-cite --pipe -k --recstart '---' --block 8k 'wc -l' <"$tmp/db.yaml" | wc -l)
koma-replay --format yaml <"$tmp/db.yaml" 2>/dev/null | cut -f 2- >"$tmp/one"
parallel --will-cite --pipe -k --recstart '---' --block 8k koma-replay --format yaml \
    <"$tmp/db.yaml" 2>/dev/null | cut -f 2- >"$tmp/many"
echo "YAML stream: $(wc -l <"$tmp/one") records, $jobs parts"
check "verdicts"
exit $fail
