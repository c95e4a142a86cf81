#!/bin/sh
# Every KIF, KI2 and JKF record given: FORMAT -> PCN -> FORMAT -> PCN gives the
# same PCN (the round trip, up to the normalisations of README.md, which PCN
# does not see), and the PCN replays with koma-replay. Prints, per file: its
# name; "same" or "DIFFERS"; for KI2, whether the moves written back are the
# file's own, relative marks included ("moves as written"); for JKF, whether
# the JSON written back is the file's ("json as written"); the ending the file
# states (its first "まで" line, or the last special of JKF's main line); and
# koma-replay's RESULT STATUS PLY with its diagnostic codes. Run from
# tests/data with the tools on PATH (the golden test
# tests/cli/cases/convert/kif-real-records compares the output).
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
# the text of a file in UTF-8 (KIF and KI2 files are often Shift_JIS)
utf8() { if iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then cat "$1"; else iconv -f CP932 -t UTF-8 "$1"; fi; }
for f in "$@"; do
    name=$(basename "$f")
    ext=${f##*.}
    if ! koma-convert --from "$ext" --to pcn "$f" >"$tmp/a.jsonl" 2>"$tmp/err"; then
        echo "$name: does not convert: $(cat "$tmp/err")"; status=1; continue
    fi
    koma-convert --from pcn --to "$ext" "$tmp/a.jsonl" >"$tmp/b.$ext" 2>>"$tmp/err" || status=1
    koma-convert --from "$ext" --to pcn "$tmp/b.$ext" >"$tmp/b.jsonl" 2>>"$tmp/err" || status=1
    if python3 "$(dirname "$0")/json-same.py" "$tmp/a.jsonl" "$tmp/b.jsonl"; then same=same; else same=DIFFERS; status=1; fi
    extra=
    case $ext in
    ki2)
        utf8 "$f" >"$tmp/orig.ki2"
        utf8 "$tmp/b.ki2" >"$tmp/back.ki2"
        if python3 "$(dirname "$0")/ki2-moves.py" "$tmp/orig.ki2" "$tmp/back.ki2"; then extra="; moves as written"
        else extra="; moves NOT as written"; status=1; fi
        stated=$(grep '^まで' "$tmp/orig.ki2" | head -n 1 | tr -d '\r') ;;
    jkf)
        if python3 "$(dirname "$0")/json-same.py" "$f" "$tmp/b.jkf"; then extra="; json as written"
        else extra="; json NOT as written"; status=1; fi
        stated=$(python3 -c 'import json,sys
m=json.load(open(sys.argv[1]))["moves"]
s=[e["special"] for e in m if e.get("special")]
print(s[-1] if s else "")' "$f") ;;
    *)
        stated=$(utf8 "$f" | grep '^まで' | head -n 1 | tr -d '\r') ;;
    esac
    verdict=$(koma-replay "$tmp/a.jsonl" 2>"$tmp/replay" | cut -f2-4 | tr '\t' ' ')
    codes=$(sed -n 's/^koma-replay: [^ ]*: \([a-z.]*\): .*/\1/p' "$tmp/replay" | tr '\n' ' ')
    echo "$name: $same$extra; states ${stated:-nothing}; replays to $verdict${codes:+; $codes}"
done
exit $status
