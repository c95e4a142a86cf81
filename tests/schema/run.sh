#!/bin/sh
# The JSON Schemas of schemas/ and koma-validate must agree on every sample
# document (tests/data/ggn/*.json, each line of tests/data/pcn/*.jsonl), except
# the ones listed in tests/schema/disagreements.txt, where a JSON Schema cannot
# see the problem (duplicate keys, nesting depth); those must disagree exactly
# as listed, so the list cannot go stale. Then the --json output of every tool
# on the sample data must follow that tool's schema.
# Usage: run.sh BINDIR       (needs python3 with python3-jsonschema)
bindir=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c 'import jsonschema' 2>/dev/null; then
    echo "schema: python3-jsonschema is needed (apt-get install python3-jsonschema)" >&2; exit 2
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$here/../data" || exit 2

# Schema verdicts.
"$py" "$here/verdicts.py" ../../schemas/ggn.schema.json doc ggn/*.json >"$tmp/schema" || exit 2
"$py" "$here/verdicts.py" ../../schemas/pcn.schema.json lines pcn/*.jsonl >>"$tmp/schema" || exit 2

# koma verdicts, in the same NAME form.
for f in ggn/*.json; do
    if "$bindir/koma-validate" -q --type ggn "$f"; then echo "$f valid"; else echo "$f invalid"; fi
done >"$tmp/koma"
for f in pcn/*.jsonl; do
    "$bindir/koma-validate" --json --type pcn --format json "$f" |
        sed -n 's/^{"file":"\([^"]*\)","line":\([0-9]*\),.*"valid":\(true\|false\)}$/\1:\2 \3/p' |
        sed 's/ true$/ valid/; s/ false$/ invalid/'
done >>"$tmp/koma"

. "$here/../lib.sh"
sort "$tmp/schema" >"$tmp/s"; sort "$tmp/koma" >"$tmp/k"
if [ "$(cut -d' ' -f1 "$tmp/s")" != "$(cut -d' ' -f1 "$tmp/k")" ]; then
    echo "schema: the two validators did not see the same samples:"; diff "$tmp/s" "$tmp/k" | head
    fail=$((fail + 1))
fi
join "$tmp/s" "$tmp/k" >"$tmp/both"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/disagreements.txt" | awk '{ print $1 }' | sort >"$tmp/expected"
while read -r name schema koma; do
    listed=0; grep -qx "$name" "$tmp/expected" && listed=1
    if [ "$schema" = "$koma" ] && [ $listed -eq 0 ]; then
        pass=$((pass + 1))
    elif [ "$schema" != "$koma" ] && [ $listed -eq 1 ]; then
        pass=$((pass + 1))
    elif [ $listed -eq 1 ]; then
        echo "schema: $name is listed as a disagreement but both say $schema"; fail=$((fail + 1))
    else
        echo "schema: $name: the schema says $schema, koma-validate says $koma"; fail=$((fail + 1))
    fi
done <"$tmp/both"
# Every tool's --json output must follow its schema (schemas/koma-TOOL.schema.json).
# Each line below: TOOL, then the arguments of one run in tests/data/.
while read -r tool args; do
    [ -n "$tool" ] || continue
    # shellcheck disable=SC2086
    eval "\"$bindir/koma-$tool\" --json $args" >"$tmp/out" 2>/dev/null </dev/null
    if [ ! -s "$tmp/out" ]; then
        echo "schema: koma-$tool --json $args printed nothing"; fail=$((fail + 1)); continue
    fi
    "$py" "$here/verdicts.py" "../../schemas/koma-$tool.schema.json" output "$tmp/out" >"$tmp/bad" || exit 2
    if [ -s "$tmp/bad" ]; then
        echo "schema: koma-$tool --json $args: lines outside schemas/koma-$tool.schema.json:"
        head -n 5 "$tmp/bad"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done <<'RUNS'
validate --summary feen/mixed.feen feen/games.feen nosuch.feen
validate --print-fid feen/games.feen
validate --type pmn --summary replay/README.md
validate --type ggn --summary ggn/valid-empty.json ggn/invalid-qpi-side.json ggn/invalid-syntax.json
validate --type pcn --summary pcn/mixed.jsonl pcn/mixed.yaml
validate --type pcn --replay --summary replay/ogi.jsonl replay/shogi.jsonl replay/okisaki.yaml
validate --type auto --summary ggn/valid-ogi-king.json pcn/games.jsonl feen/mixed.feen
perft --depth 2
perft --depth 2 --divide --game minishogi
perft --split 1 --game minishogi --depth 3
perft 'K / C/c' 'rbsgk^/4p/5/P4/K^GSBR / S/s'
perft --summary --depth 2 --game minishogi
convert --normalise --summary feen/mixed.feen
convert --to pcn --summary convert/multi.csa shogi-records/chudan.csa convert/games.usi
convert --to sfen --summary convert/positions.sfen
convert --to csa --summary replay/ogi.jsonl convert/games.usi
replay replay/ogi.jsonl replay/shogi.jsonl replay/okisaki.yaml
replay --adjudicate --summary replay/ogi.jsonl
replay --from auto convert/world/declared-utf8-sjis-bytes.kif convert/world/euc-jp.kif
replay --from csa claims/decl27-holds.csa claims/decl27-in-check.csa claims/impasse-gote-23.csa claims/clock-agrees.csa claims/clock-earlier.csa claims/clock-no-control.csa
replay --declaration try claims/rule-options.jsonl
repetition-check --summary repetition/ogi.jsonl repetition/shogi.jsonl repetition/okisaki.yaml repetition/mixed.jsonl
repetition-check --fid-only repetition/positions.feen
diff diff/a.jsonl diff/b.jsonl
select --summary --position 'lnsgk^gsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGK^GSNL B/ s/S' convert/pair/game.kif convert/pair/game.csa pcn/mixed.jsonl
select --summary --meta 'event~.' replay/ogi.jsonl convert/multi.csa
select --count --unique convert/pair/game.kif convert/pair/game.csa convert/pair/game.jkf
diff --feen 'lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o' 'lnsik^snl/1r4b1/pppppppp/8/4P3/PPPP1PPP/1B4R1/LNSIK^SNL / o/O'
RUNS
# One record, one object: koma-validate --json prints as many
# objects, summary aside, as the records its summary counts (--replay included,
# where a disputed record has several diagnostics).
for args in "--type pcn --replay replay/ogi.jsonl replay/shogi.jsonl replay/okisaki.yaml" \
            "--type pcn pcn/mixed.jsonl pcn/mixed.yaml" "--type auto --replay replay/shogi.yaml"; do
    # shellcheck disable=SC2086
    "$bindir/koma-validate" --json --summary $args >"$tmp/out" 2>/dev/null
    objects=$(grep -vc '^{"summary"' "$tmp/out")
    records=$(sed -n 's/^{"summary":{.*"records":\([0-9]*\).*/\1/p' "$tmp/out")
    if [ -n "$records" ] && [ "$objects" -eq "$records" ] && [ "$records" -gt 0 ]; then
        pass=$((pass + 1))
    else
        echo "schema: koma-validate --json $args: $objects objects for ${records:-no} records"
        fail=$((fail + 1))
    fi
done
suite_end schema
