# koma-convert: 100,000 PCN records from JSON Lines to a YAML stream and back
# (beside PyYAML with libyaml's C loader/dumper), and many CSA records to PCN
# (beside tsshogi under node reading the same CSA and writing JKF JSON).
#   BENCH_PCN_RECORDS=100000  BENCH_CSA_RECORDS=20000
# Rates and ratios are per CPU second (user + system), which a loaded, shared machine
# disturbs far less than elapsed time; measure prints both.
n=${BENCH_PCN_RECORDS:-100000}
data=$here/../data/pcn
jl=$work/pcn-$n.jsonl
if [ ! -s "$jl" ]; then
    per=$(grep -c . "$data/games.jsonl"); reps=$(( (n + per - 1) / per ))
    : >"$jl.tmp"; i=0
    while [ $i -lt "$reps" ]; do cat "$data/games.jsonl" >>"$jl.tmp"; i=$((i + 1)); done
    head -n "$n" "$jl.tmp" >"$jl"; rm -f "$jl.tmp"
fi
echo "  input: $n PCN records, $(wc -c <"$jl") bytes of JSON Lines"
measure "koma-convert JSONL -> YAML" koma-convert --from pcn --to yaml --summary "$jl"; k1=$cpu; r1=$rss_kb
koma-convert --from pcn --to yaml "$jl" >"$work/conv.yaml"
measure "koma-convert YAML -> JSONL" koma-convert --from yaml --to pcn "$work/conv.yaml"; k2=$cpu; r2=$rss_kb
koma-convert --from yaml --to pcn "$work/conv.yaml" | cmp -s - "$jl" && echo "  round trip: the same bytes"
echo "  koma: JSONL->YAML $(rate "$n" "$k1") records/s (peak RSS $r1 KiB), YAML->JSONL $(rate "$n" "$k2") records/s (peak RSS $r2 KiB)"
if python3 -c 'import yaml' 2>/dev/null; then
    measure "PyYAML (C) JSONL -> YAML" python3 "$here/convert-ref.py" to-yaml <"$jl"; p1=$cpu
    measure "PyYAML (C) YAML -> JSONL" python3 "$here/convert-ref.py" to-json <"$work/conv.yaml"; p2=$cpu
    echo "  PyYAML: $(rate "$n" "$p1") and $(rate "$n" "$p2") records/s; koma is $(ratio "$p1" "$k1")x and $(ratio "$p2" "$k2")x as fast"
else
    echo "  (PyYAML not installed: no reference)"
fi

# CSA: random legal Shogi games written as one multi-record CSA file.
c=${BENCH_CSA_RECORDS:-20000}
csa=$work/games-$c.csa
if [ ! -s "$csa" ]; then
    cc -std=c11 -O2 -I"$here/../../lib/include" -o "$work/gen-usi" "$here/../convert/gen-usi.c" \
        "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm || return 0
    "$work/gen-usi" 7 "$c" 150 | koma-convert --from usi --to csa >"$csa"
fi
echo "  input: $c CSA records, $(wc -c <"$csa") bytes"
measure "koma-convert CSA -> PCN" koma-convert --from csa --to pcn "$csa"; k3=$cpu; r3=$rss_kb
echo "  koma: $(rate "$c" "$k3") CSA records/s, peak RSS $r3 KiB"
cache=${KOMA_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/koma/npm}
if need node && [ -d "$cache/node_modules/tsshogi" ]; then
    export NODE_PATH="$cache/node_modules"
    measure "tsshogi CSA -> JKF (node)" node "$here/convert-ref.cjs" "$csa"; t3=$cpu
    echo "  tsshogi: $(rate "$c" "$t3") records/s; koma is $(ratio "$t3" "$k3")x as fast"
    target "koma-convert CSA -> PCN vs tsshogi (records/s)" "$(ratio "$t3" "$k3")" 12 20 \
        "tsshogi CSA -> JKF under node; RSS $r3 KiB"
else
    echo "  (tsshogi not installed in $cache: run make check first; no reference)"
fi
