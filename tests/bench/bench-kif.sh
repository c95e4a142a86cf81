# koma-convert: 10,000 KIF records to PCN, from one input (record by record:
# memory stays that of one record), beside tsshogi (npm) under node reading the
# same KIF and writing JKF; the same for KI2 (origins found with the move
# generator from the relative marks) and JKF. Peak RSS is also measured on a
# tenth of the input: bounded memory means the same peak for both.
#   BENCH_KIF_RECORDS=10000
# Rates and ratios are per CPU second (user + system), which a loaded, shared machine
# disturbs far less than elapsed time; measure prints both.
nk=${BENCH_KIF_RECORDS:-10000}
usi=$work/kif-games-$nk.usi
if [ ! -s "$usi" ]; then
    cc -std=c11 -O2 -I"$here/../../lib/include" -o "$work/gen-usi" "$here/../convert/gen-usi.c" \
        "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm || return 0
    "$work/gen-usi" 11 "$nk" 150 >"$usi"
fi
tenth=$((nk / 10))
head -n "$tenth" "$usi" >"$work/kif-tenth.usi"
for fmt in kif ki2 jkf; do
    koma-convert --from usi --to "$fmt" "$usi" >"$work/games.$fmt"
    koma-convert --from usi --to "$fmt" "$work/kif-tenth.usi" >"$work/tenth.$fmt"
done
koma-convert --from usi --to kif --encoding shift_jis "$usi" >"$work/games-sjis.kif"
echo "  input: $nk random games of up to 150 plies: KIF $(wc -c <"$work/games.kif") bytes (UTF-8)," \
    "KI2 $(wc -c <"$work/games.ki2"), JKF $(wc -c <"$work/games.jkf")"
cache=${KOMA_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/koma/npm}
have_ts=0
if need node && [ -d "$cache/node_modules/tsshogi" ]; then
    export NODE_PATH="$cache/node_modules"
    have_ts=1
else
    echo "  (tsshogi not installed in $cache: run make check first; no reference)"
fi
# Each of koma's two runs and tsshogi's is timed three times, in turn, and the
# least CPU time and the least peak RSS of each kept: on a shared virtual machine
# a run's CPU time moves with its neighbours and the host, and a 3 MiB process's
# peak RSS by a few hundred KiB from run to run (where the kernel places its
# mappings), more than a tenth of it.
for fmt in kif ki2 jkf; do
    s1=; r1=; r10=; x10=; s2=; x2=
    for run in 1 2 3; do
        measure "koma-convert $fmt -> PCN ($run)" koma-convert --from "$fmt" --to pcn "$work/games.$fmt"
        keep_least s1 r1
        measure "  (a tenth of it) ($run)" koma-convert --from "$fmt" --to pcn "$work/tenth.$fmt"
        keep_least x10 r10
        if [ $have_ts -eq 1 ]; then
            measure "tsshogi $fmt -> JKF ($run)" node "$here/kif-ref.cjs" "$fmt" "$work/games.$fmt"
            keep_least s2 x2
        fi
    done
    echo "  koma: $(rate "$nk" "$s1") $fmt records/s, peak RSS $r1 KiB ($r10 KiB for a tenth; least of 3 each)"
    if [ "$fmt" = kif ]; then
        measure "koma-convert kif (Shift_JIS)" koma-convert --from kif --to pcn "$work/games-sjis.kif"; s3=$cpu
        echo "  koma: $(rate "$nk" "$s3") Shift_JIS KIF records/s (iconv included)"
    fi
    if [ $have_ts -eq 1 ]; then
        echo "  tsshogi: $(rate "$nk" "$s2") records/s; koma is $(ratio "$s2" "$s1")x as fast (least CPU of 3 each: $s1 s, $s2 s)"
        target "koma-convert $(echo "$fmt" | tr a-z A-Z) -> PCN vs tsshogi (records/s)" "$(ratio "$s2" "$s1")" \
            12 20 "tsshogi $fmt -> JKF under node; least CPU of 3 runs each, in turn; RSS flat: $(flat "$r10" "$r1")"
    fi
done
