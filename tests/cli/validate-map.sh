#!/bin/sh
# A regular file given by name is read from a mapping of it (cmd/cli_input_map.c),
# anything else with read(): koma-validate must say the same of both, byte for
# byte. Each input is given once as a file and once as a named pipe of the same
# name (so the diagnostics name the same file). Run from tests/data/ with
# koma-validate on PATH, by the golden case tests/cli/cases/validate/mapped-file;
# one line a check. The big input crosses the mapping's 8 MiB windows with lines
# of every kind (valid, invalid, one over the line length limit, CRLF) around each
# window's edge; the last check shrinks a file while it is read.
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
data=$(pwd)
mkdir "$tmp/f" "$tmp/p"
fail=0
. ../cli/cut-while-read.sh

# same NAME FILE OPTIONS...: FILE given by name, then through a pipe, with OPTIONS
same() {
    name=$1; file=$2; shift 2
    cp "$file" "$tmp/f/in"
    (cd "$tmp/f" && koma-validate "$@" in >"$tmp/f.out" 2>"$tmp/f.err"; echo "status $?" >>"$tmp/f.out")
    rm -f "$tmp/p/in"; mkfifo "$tmp/p/in" || exit 2
    cat "$file" >"$tmp/p/in" &
    (cd "$tmp/p" && koma-validate "$@" in >"$tmp/p.out" 2>"$tmp/p.err"; echo "status $?" >>"$tmp/p.out")
    wait
    if cmp -s "$tmp/f.out" "$tmp/p.out" && cmp -s "$tmp/f.err" "$tmp/p.err"; then
        [ -n "$quiet" ] || echo "$name $*: the same ($(tail -n 1 "$tmp/f.out"), $(wc -l <"$tmp/f.err") diagnostics)"
    else
        echo "$name $*: DIFFERENT"; diff "$tmp/f.out" "$tmp/p.out" | head -n 5
        diff "$tmp/f.err" "$tmp/p.err" | head -n 5; fail=1
    fi
}

# the sample files, each option that changes the lines' path
for o in "" --summary --print-fid --json "--json --quiet" "--type auto"; do
    same feen/games.feen feen/games.feen $o
    same feen/mixed.feen feen/mixed.feen $o
done
same repetition/shogi.pmn repetition/shogi.pmn --type pmn --summary
same "PMN lines as FEEN" repetition/shogi.pmn --summary
: >"$tmp/empty"; same "an empty file" "$tmp/empty" --summary
printf 'K / C/c\nK / C/C' >"$tmp/nonl"; same "no final newline" "$tmp/nonl" --summary
printf '\357\273\277K / C/c\r\nK / C/c\r\n' >"$tmp/bom"; same "a BOM, CRLF" "$tmp/bom" --summary
# a format is sniffed from the same bounded look (the first line, then 64 KiB),
# whatever one read() buffered or one window mapped: another format's mark (a
# KIF move-list header) 70 KB on is not seen, by name or through a pipe
{ echo "not a position"; awk 'BEGIN { for (i = 0; i < 1200; i++) print "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }'
  printf '\346\211\213\346\225\260----\346\214\207\346\211\213----\n'; } >"$tmp/mark"
same "a KIF mark past the look" "$tmp/mark" --summary
same "a KIF mark past the look" "$tmp/mark" --type auto --summary

# each input of the FEEN fuzz corpus alone (no final newline, bytes of every kind)
n=0; quiet=1   # (a line only for a difference)
for f in ../fuzz/corpus/feen/*; do same "$f" "$f" --summary; n=$((n + 1)); done
quiet=
[ "$n" -gt 100 ] && echo "the FEEN fuzz corpus: each of its inputs the same"
cat ../fuzz/corpus/feen/* >"$tmp/corpus"
quiet=1; same "the FEEN fuzz corpus in one" "$tmp/corpus" --summary; quiet=
echo "the FEEN fuzz corpus: all its inputs in one the same"

# The windows' edges: ~18 MB of lines (the sample files), each
# followed by a line of 1 to 211 bytes (valid at 7, invalid otherwise), so that
# lines of every length and kind cross wherever the windows' edges fall (the
# first mapped byte is past the ~1.2 MB read to sniff the input, then every
# 8 MiB); every seventh line ends in CRLF; from 9 MB a line over the length limit
# (2 MiB) crosses the first window's edge (~9.6 MB).
awk -v out="$tmp/big" 'FNR == 1 { f++ } { line[f, FNR] = $0; n[f] = FNR }
    END {
        size = 0; k = 0; long = 0; pad = sprintf("%0211d", 0)
        while (size < 18 * 1048576) {
            for (g = 1; g <= f; g++) for (i = 1; i <= n[g]; i++) {
                s = line[g, i]
                if (!long && size > 9000000) {
                    for (s = "0"; length(s) < 1100000; ) s = s s
                    long = 1
                }
                t = substr("K / C/c" pad, 1, 1 + k % 211)
                if (++k % 7 == 0) s = s "\r"
                print s > out; print t > out; size += length(s) + length(t) + 2
            }
        }
    }' feen/games.feen feen/mixed.feen repetition/shogi.pmn || exit 2
same "18 MB across the windows" "$tmp/big" --summary
same "18 MB across the windows" "$tmp/big" --summary --print-fid --quiet

# A file cut while it is read (--print-fid writes a line a valid one; 25,000 of
# them taken: koma-validate is then past the first 1.2 MB, which it reads to sniff
# the input)
i=0; while [ $i -lt 60000 ]; do echo 'lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o'; i=$((i + 1)); done \
    >"$tmp/cut"
cut_while_read 25000 "$tmp/cut" koma-validate --print-fid
exit $fail
