# koma-validate --type pcn on a database of 100,000 PCN records, as JSON Lines
# (beside `jq -c . >/dev/null` on the same file) and as a YAML stream.
#   BENCH_PCN_RECORDS=100000
n=${BENCH_PCN_RECORDS:-100000}
data=$here/../data/pcn
jl=$work/pcn-$n.jsonl
ym=$work/pcn-$n.yaml
if [ ! -s "$jl" ] || [ ! -s "$ym" ]; then
    echo "  generating $n records from tests/data/pcn/games.{jsonl,yaml}"
    per=$(grep -c . "$data/games.jsonl")
    reps=$(( (n + per - 1) / per ))
    : >"$jl.tmp"; : >"$ym.tmp"
    i=0; while [ $i -lt "$reps" ]; do
        cat "$data/games.jsonl" >>"$jl.tmp"; cat "$data/games.yaml" >>"$ym.tmp"; i=$((i + 1)); done
    head -n "$n" "$jl.tmp" >"$jl"; rm -f "$jl.tmp"
    # Cut the YAML stream after its n-th document.
    awk -v n="$n" '/^---/ { d++ } d > n { exit } { print }' "$ym.tmp" >"$ym"; rm -f "$ym.tmp"
fi
bytes=$(wc -c <"$jl"); ybytes=$(wc -c <"$ym")
echo "  input: $n records; JSON Lines $bytes bytes, YAML $ybytes bytes"
tenth=$work/pcn-$n-tenth.jsonl
[ -s "$tenth" ] || head -n $((n / 10)) "$jl" >"$tenth"
measure "koma-validate (1/10, JSONL)" koma-validate --type pcn "$tenth"; small_rss=$rss_kb
if need jq; then
    measure "jq -c ." jq -c . "$jl"; jq_secs=$secs; jq_cpu=$cpu
fi
measure "koma-validate --type pcn (JSONL)" koma-validate --type pcn "$jl"; kv_secs=$secs; kv_cpu=$cpu; kv_rss=$rss_kb
measure "koma-validate --type pcn (YAML)" koma-validate --type pcn "$ym"; ky_secs=$secs; ky_rss=$rss_kb
echo "  JSON Lines: $(rate "$n" "$kv_secs") records/s, $(rate $((bytes / 1048576)) "$kv_secs") MB/s, peak RSS $kv_rss KiB"
echo "  YAML:       $(rate "$n" "$ky_secs") records/s, $(rate $((ybytes / 1048576)) "$ky_secs") MB/s, peak RSS $ky_rss KiB"
echo "  peak RSS: a tenth of the records $small_rss KiB, all $kv_rss KiB (flat: $(flat "$small_rss" "$kv_rss"))"
if [ -n "${jq_secs:-}" ]; then
    echo "  jq -c . takes $(ratio "$jq_secs" "$kv_secs")x the time koma-validate takes on the JSON Lines file"
    target "koma-validate --type pcn vs jq -c ." "$(ratio "$jq_cpu" "$kv_cpu")" 4 5 \
        "wall $(ratio "$jq_secs" "$kv_secs")x; RSS flat: $(flat "$small_rss" "$kv_rss")"
fi
