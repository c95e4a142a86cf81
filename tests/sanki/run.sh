#!/bin/sh
# The Sanki conformance vectors (tests/sanki/legality.tsv and differential.tsv,
# converted from the reference implementation's; README.md): each move, translated from the
# platform's [from, to, actor] into canonical PMN by sanki_pmn.py (which reads the
# FEEN itself), is replayed by koma-replay from the vector's position. A legal
# vector must be applied, give the resulting FEEN byte for byte and the status
# named (ongoing: no ending); an illegal one must be refused with a rules.*
# (or pmn.*) reason and no verdict line: the record is invalid, no game is lost;
# and it must not be among the legal moves koma-perft --divide lists. (One
# vector's position, two lone kings, is a dead position already: koma ends the
# game at the setup, so its ply comes after the end, replay.extra, and only the
# second test applies.)
# Usage: run.sh BINDIR
bindir=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
LC_ALL=C
export LC_ALL
tab=$(printf '\t')
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
cat "$here/legality.tsv" "$here/differential.tsv" | grep -v '^#' >"$tmp/vectors"
cut -f2,3 "$tmp/vectors" | python3 "$here/sanki_pmn.py" >"$tmp/pmn" || exit 2
paste "$tmp/vectors" "$tmp/pmn" >"$tmp/all"
while IFS="$tab" read -r id feen move legal result status pmn; do
    printf '%s\n' "$pmn" | "$bindir/koma-replay" --start "$feen" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$legal" = 0 ]; then
        "$bindir/koma-perft" --divide --depth 1 -- "$feen" | cut -d: -f1 >"$tmp/legal"
        if grep -qxF -- "$pmn" "$tmp/legal"; then
            suite_fail "sanki: $id: $move ($pmn) is among the legal moves"
        elif [ "$rc" -ne 0 ] && [ ! -s "$tmp/out" ] && grep -q ': \(rules\|pmn\)\.[a-z.]*: ' "$tmp/err"; then
            suite_pass
        elif grep -q 'replay.extra: .* at ply 0)$' "$tmp/err"; then
            suite_pass
        else
            suite_fail "sanki: $id: $move ($pmn) should be refused: $(cat "$tmp/out" "$tmp/err")"
        fi
        continue
    fi
    got_status=$(cut -f3 "$tmp/out")
    got_feen=$(cut -f5 "$tmp/out")
    [ "$got_status" = - ] && got_status=ongoing
    if [ "$rc" -eq 0 ] && [ "$got_feen" = "$result" ] && { [ "$status" = - ] || [ "$got_status" = "$status" ]; }; then
        suite_pass
    else
        suite_fail "sanki: $id: $move ($pmn): want $result ($status), got $(cat "$tmp/out" "$tmp/err")"
    fi
done <"$tmp/all"
# Random games of every pairing against the helpers' own reading of each ply.
if (cd "$here" && python3 differential.py "$bindir" 60); then suite_pass; else suite_fail "sanki: the differential games"; fi
suite_end sanki
