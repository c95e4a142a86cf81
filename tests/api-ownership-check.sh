#!/bin/sh
# Every function libkoma's public headers declare says who owns what
# (libkoma(3), CONVENTIONS): the comment that ends on the line right above its
# declaration has an "Ownership:" line (none; the caller frees *out with
# koma_X_free; borrowed from X until Y; static; frees X).
# Usage: api-ownership-check.sh [HEADER...]   (default: lib/include/koma/*.h)
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || set -- lib/include/koma/*.h
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
# one line a declaration: "ok NAME", or "missing FILE:LINE: NAME"
awk '
    FNR == 1 { last = -1; incomment = 0 }
    /^[ \t]*\/\*/ { incomment = 1; block = "" }
    incomment { block = block $0 "\n" }
    incomment && /\*\// { incomment = 0; last = FNR; owned = (block ~ /Ownership: /) }
    /^KOMA_API/ {
        name = $0
        sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
        if (last == FNR - 1 && owned) print "ok " name
        else print "missing " FILENAME ":" FNR ": " name
    }' "$@" >"$tmp"
while read -r what rest; do
    if [ "$what" = ok ]; then suite_pass
    else suite_fail "api-ownership: $rest: no Ownership: line in the comment right above it"; fi
done <"$tmp"
suite_end api-ownership
