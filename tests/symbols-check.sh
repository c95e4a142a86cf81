#!/bin/sh
# Only koma_* leaves the library (lib/README.md, library conventions):
#   - libkoma.so exports (dynamic symbol table, defined) only koma_ names, none of
#     them a koma__ internal, and each is declared in a public header;
#   - every global symbol libkoma.a defines starts with koma_ (the koma__ internals
#     cross modules inside the static library, so they are global there).
# Usage: symbols-check.sh BUILD-DIR
. "$(dirname "$0")/lib.sh"
b=$1
so=$b/lib/libkoma.so a=$b/lib/libkoma.a
command -v nm >/dev/null 2>&1 || { echo "symbols: nm is needed (binutils)" >&2; exit 2; }
[ -f "$so" ] && [ -f "$a" ] || { echo "symbols: build $so and $a first" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/so"
nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/a"
cat lib/include/koma/*.h >"$tmp/headers"
[ -s "$tmp/so" ] || suite_fail "symbols: $so exports nothing"
[ -s "$tmp/a" ] || suite_fail "symbols: $a defines nothing"
while read -r sym; do
    case $sym in
        koma__*) suite_fail "symbols: libkoma.so exports the internal $sym" ;;
        koma_*)
            if grep -qw -- "$sym" "$tmp/headers"; then suite_pass
            else suite_fail "symbols: libkoma.so exports $sym, which no public header declares"; fi ;;
        *) suite_fail "symbols: libkoma.so exports $sym (not koma_*)" ;;
    esac
done <"$tmp/so"
bad=$(grep -v '^koma_' "$tmp/a")
if [ -z "$bad" ]; then suite_pass
else suite_fail "symbols: libkoma.a defines global symbols outside koma_*: $(echo $bad)"; fi
suite_end symbols
