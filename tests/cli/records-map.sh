#!/bin/sh
# Records in a regular file given by name are fed to the PCN reader straight
# from a mapping of the file (cmd/records.c through cli_input_piece), anything
# else through read(): koma-replay and koma-select must say the same of both,
# byte for byte. Each input is given once as a file and once as a named pipe of
# the same name (so the diagnostics name the same file). Run from tests/data/
# with the tools on PATH, by the golden case tests/cli/cases/replay/mapped-file;
# one line a check. The big input crosses the mapping's 8 MiB windows with
# records of every kind; the last check cuts a file while it is read.
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
mkdir "$tmp/f" "$tmp/p"
fail=0
. ../cli/cut-while-read.sh

# same NAME FILE TOOL OPTIONS...: FILE given by name, then through a pipe
same() {
    name=$1; file=$2; shift 2
    cp "$file" "$tmp/f/in"
    (cd "$tmp/f" && "$@" in >"$tmp/f.out" 2>"$tmp/f.err"; echo "status $?" >>"$tmp/f.out")
    rm -f "$tmp/p/in"; mkfifo "$tmp/p/in" || exit 2
    cat "$file" >"$tmp/p/in" &
    (cd "$tmp/p" && "$@" in >"$tmp/p.out" 2>"$tmp/p.err"; echo "status $?" >>"$tmp/p.out")
    wait
    if [ ! -s "$tmp/f.err" ] && [ "$(wc -l <"$tmp/f.out")" -le 1 ]; then
        echo "$name $*: no output at all"; fail=1       # (proves nothing)
    elif cmp -s "$tmp/f.out" "$tmp/p.out" && cmp -s "$tmp/f.err" "$tmp/p.err"; then
        [ -n "$quiet" ] || echo "$name $*: the same ($(tail -n 1 "$tmp/f.out"), $(wc -l <"$tmp/f.out") lines out, $(wc -l <"$tmp/f.err") diagnostics)"
    else
        echo "$name $*: DIFFERENT"; diff "$tmp/f.out" "$tmp/p.out" | head -n 5
        diff "$tmp/f.err" "$tmp/p.err" | head -n 5; fail=1
    fi
}

# every record file of tests/data, in the modes that read records differently
quiet=1; n=0
for f in $(find . -type f \( -name '*.jsonl' -o -name '*.yaml' -o -name '*.pcn' \) | LC_ALL=C sort); do
    same "$f" "$f" koma-replay
    same "$f" "$f" koma-replay --each --json
    same "$f" "$f" koma-select --list
    n=$((n + 1))
done
quiet=
[ "$n" -gt 20 ] && [ "$fail" = 0 ] && echo "tests/data: each of its $n record files the same"

# each fuzz corpus of whole records in one file (an input a line or more)
for c in replay pcn_json pcn_yaml; do
    for f in ../fuzz/corpus/$c/*; do cat "$f"; echo; done >"$tmp/$c"
    same "the $c fuzz corpus in one" "$tmp/$c" koma-replay --summary
done

# The windows' edges: ~20 MB of the sample records (JSON Lines), so that
# records of every length cross wherever the windows' edges fall (the first
# mapped byte is past the 64 KiB read to sniff the input, then every 8 MiB).
for f in replay/*.jsonl repetition/*.jsonl; do cat "$f"; done >"$tmp/seed"
size=0; : >"$tmp/big"
while [ "$size" -lt 20971520 ]; do cat "$tmp/seed" "$tmp/seed" "$tmp/seed" "$tmp/seed" >>"$tmp/big"; size=$(wc -c <"$tmp/big"); done
same "20 MB across the windows" "$tmp/big" koma-replay --summary
same "20 MB across the windows" "$tmp/big" koma-select --count

# A file cut while it is read (koma-replay writes a line a record; 4,000 of them
# taken: it is then within its first window)
cut_while_read 4000 "$tmp/big" koma-replay
exit $fail
