# koma-validate on a large file of FEEN lines, beside `wc -l` on the same file.
mb=${BENCH_MB:-1024}
f=$work/feen-${mb}MB.feen
if [ ! -s "$f" ]; then
    echo "  generating $f ($mb MB of FEEN lines from tests/data/feen/games.feen)"
    seed=$work/seed.feen
    : >"$seed"
    i=0; while [ $i -lt 500 ]; do cat "$here/../data/feen/games.feen" >>"$seed"; i=$((i + 1)); done
    target=$((mb * 1024 * 1024))
    size=0
    : >"$f.tmp"
    seedsize=$(wc -c <"$seed")
    while [ "$size" -lt "$target" ]; do cat "$seed" >>"$f.tmp"; size=$((size + seedsize)); done
    mv "$f.tmp" "$f"
fi
bytes=$(wc -c <"$f"); lines=$(wc -l <"$f")
echo "  input: $bytes bytes, $lines lines"
tenth=$work/feen-${mb}MB-tenth.feen
[ -s "$tenth" ] || head -n $((lines / 10)) "$f" >"$tenth"
measure "koma-validate (1/10 of it)" koma-validate "$tenth"; small_rss=$rss_kb
measure "wc -l" wc -l "$f"; wc_secs=$secs; wc_cpu=$cpu
measure "koma-validate" koma-validate "$f"; kv_secs=$secs; kv_cpu=$cpu; kv_rss=$rss_kb
measure "koma-validate --print-fid" koma-validate --print-fid "$f"; fid_secs=$secs
echo "  koma-validate: $(rate $((bytes / 1048576)) "$kv_secs") MB/s, $(rate "$lines" "$kv_secs") lines/s, peak RSS $kv_rss KiB (a tenth of the lines: $small_rss KiB; flat: $(flat "$small_rss" "$kv_rss"))"
echo "  wc -l:         $(rate $((bytes / 1048576)) "$wc_secs") MB/s"
echo "  koma-validate takes $(ratio "$kv_secs" "$wc_secs")x the time of wc -l; with --print-fid (SHA-256 per line) $(ratio "$fid_secs" "$wc_secs")x"
target "koma-validate --type feen vs wc -l (throughput)" "$(ratio "$wc_cpu" "$kv_cpu")" 0.2 0.2 \
    "wall $(ratio "$wc_secs" "$kv_secs")x; RSS flat: $(flat "$small_rss" "$kv_rss")"
