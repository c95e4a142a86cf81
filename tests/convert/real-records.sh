#!/bin/sh
# Every real record given (CSA, KIF, KI2, JKF; the format from the file's
# extension), through koma's tools, checked against a separate reading of the
# file's own text (kifu-text.py, which shares nothing with lib/):
#  1. it converts to PCN;
#  2. PCN -> FORMAT -> PCN gives the same PCN (byte for byte), and the text
#     written back is the file's own up to the normalisations of koma-formats(5)
#     ("Round trips": kifu-text.py applies them to both texts; JKF: the same
#     JSON documents);
#  3. SFEN -> FEEN -> SFEN: the SFEN of every position of the record (--each)
#     read back as FEEN is the FEEN koma gives for it directly, and written
#     again as SFEN is the same SFEN but for the move number;
#  4. koma-replay judges the PCN, and its result and deciding ply are compared
#     with the ending the record states (its closing line, end code or JKF
#     special, read by kifu-text.py): "agrees", "agrees (recorded)" for an
#     illegal-move ending koma-replay takes from the record (status
#     illegalmove at the stated ply, no diagnostic), or "DISPUTED" with
#     koma-replay's diagnostic codes;
#  5. that verdict is the one EXPECT (--expect FILE, real-records.expect)
#     gives the file: a line "NAME<TAB>agrees|recorded|disputed[<TAB>TEXT]",
#     TEXT a string koma-replay's diagnostics must hold (the explanation of an
#     expected dispute). A file without a line there fails.
# One line per file; exit 1 when a record fails 1-3 or 5. Run from tests/data
# with the tools on PATH: the golden test tests/cli/cases/convert/real-records
# compares the output.
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
expect=/dev/null
if [ "$1" = --expect ]; then expect=$2; shift 2; fi
for f in "$@"; do
    name=$(basename "$f")
    ext=${f##*.}
    if ! koma-convert --from "$ext" --to pcn "$f" >"$tmp/a.jsonl" 2>"$tmp/err"; then
        echo "$name: does not convert: $(cat "$tmp/err")"; status=1; continue
    fi
    n=$(grep -c . "$tmp/a.jsonl")
    # 2. back to its own format, and to PCN again
    koma-convert --from pcn --to "$ext" "$tmp/a.jsonl" >"$tmp/b.$ext" 2>>"$tmp/err" || status=1
    koma-convert --from "$ext" --to pcn "$tmp/b.$ext" >"$tmp/b.jsonl" 2>>"$tmp/err" || status=1
    if cmp -s "$tmp/a.jsonl" "$tmp/b.jsonl"; then back="same PCN"; else back="PCN DIFFERS"; status=1; fi
    # the text written back against the file's, and the ending the file states
    checked=$(python3 "$here/kifu-text.py" check "$ext" "$f" "$tmp/b.$ext") || status=1
    text=$(printf '%s\n' "$checked" | cut -f1)
    stated=$(printf '%s\n' "$checked" | cut -f2)
    # 3. SFEN -> FEEN -> SFEN on every position
    koma-convert --to sfen --each "$tmp/a.jsonl" >"$tmp/s1" 2>>"$tmp/err" || status=1
    koma-convert --to feen --each "$tmp/a.jsonl" >"$tmp/f0" 2>>"$tmp/err" || status=1
    koma-convert --from sfen --to feen "$tmp/s1" >"$tmp/f1" 2>>"$tmp/err" || status=1
    koma-convert --from feen --to sfen "$tmp/f1" >"$tmp/s2" 2>>"$tmp/err" || status=1
    cut -d' ' -f1-3 "$tmp/s1" >"$tmp/s1b"
    cut -d' ' -f1-3 "$tmp/s2" >"$tmp/s2b"
    npos=$(grep -c . "$tmp/s1")
    if [ "$npos" -gt 0 ] && cmp -s "$tmp/f0" "$tmp/f1" && cmp -s "$tmp/s1b" "$tmp/s2b"; then sfen="SFEN same ($npos positions)"
    else sfen="SFEN DIFFERS"; status=1; fi
    # 4. koma-replay's verdict against the ending the record states
    verdict=$(koma-replay "$tmp/a.jsonl" 2>"$tmp/replay" | head -n 1 | cut -f2-4 | tr '\t' ' ')
    codes=$(sed -n 's/^koma-replay: [^ ]*: \([a-z.]*\): .*/\1/p' "$tmp/replay" | sort -u | tr '\n' ' ' | sed 's/ $//')
    if [ "$(echo "$verdict" | cut -d' ' -f1,3)" = "$stated" ] && [ -z "$codes" ]; then
        if [ "$(echo "$verdict" | cut -d' ' -f2)" = illegalmove ]; then judged="agrees (recorded)"; kind=recorded
        else judged="agrees"; kind=agrees; fi
    else judged="DISPUTED${codes:+: $codes}"; kind=disputed; fi
    # 5. the expected verdict, and the explanation of an expected dispute
    want=$(awk -F '\t' -v n="$name" '$1 == n { print; exit }' "$expect")
    wkind=$(printf '%s\n' "$want" | cut -f2)
    wtext=$(printf '%s\n' "$want" | cut -s -f3)
    if [ -z "$want" ]; then judged="$judged; NO EXPECTATION"; status=1
    elif [ "$wkind" != "$kind" ]; then judged="$judged; EXPECTED $wkind"; status=1
    elif [ -n "$wtext" ] && ! grep -qF -- "$wtext" "$tmp/replay"; then
        judged="$judged; EXPLANATION MISSING: $wtext"; status=1
    elif [ -n "$wtext" ]; then judged="$judged (expected: $wtext)"
    fi
    [ -s "$tmp/err" ] && { echo "$name: $(cat "$tmp/err")"; status=1; }
    echo "$name: $n record(s); $back; $text; $sfen; states $stated; replays to $verdict; $judged"
done
exit $status
