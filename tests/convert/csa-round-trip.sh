#!/bin/sh
# Every CSA record given: CSA -> PCN -> CSA -> PCN gives the same PCN (the
# round trip, up to the normalisations of README.md), and the PCN replays with
# koma-replay. Prints, per file: its name, "same" or "DIFFERS", the end code the
# file states (its last % line), and koma-replay's RESULT STATUS PLY, then its
# diagnostic codes. Run from tests/data with the tools on PATH (a golden test
# compares the output: tests/cli/cases/convert/csa-real-records).
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
    name=$(basename "$f")
    if ! koma-convert --from csa --to pcn "$f" >"$tmp/a.jsonl" 2>"$tmp/err"; then
        echo "$name: does not convert: $(cat "$tmp/err")"; status=1; continue
    fi
    koma-convert --from pcn --to csa "$tmp/a.jsonl" >"$tmp/b.csa" 2>>"$tmp/err" || status=1
    koma-convert --from csa --to pcn "$tmp/b.csa" >"$tmp/b.jsonl" 2>>"$tmp/err" || status=1
    if cmp -s "$tmp/a.jsonl" "$tmp/b.jsonl"; then same=same; else same=DIFFERS; status=1; fi
    stated=$(LC_ALL=C grep -a '^%' "$f" | tail -n 1 | cut -d, -f1 | tr -d '\r')
    verdict=$(koma-replay "$tmp/a.jsonl" 2>"$tmp/replay" | cut -f2-4 | tr '\t' ' ')
    codes=$(sed -n 's/^koma-replay: [^ ]*: \([a-z.]*\): .*/\1/p' "$tmp/replay" | tr '\n' ' ')
    echo "$name: $same; states ${stated:-nothing}; replays to $verdict${codes:+; $codes}"
done
exit $status
