#!/bin/sh
# Every man page must be clean under `mandoc -Tlint` (style warnings included),
# koma-formats.5 must list every diagnostic code of lib/include/koma/codes.def,
# and its generated code table must be up to date (`sh man/codes.sh --check`).
#
# Cross-references (.Xr) between koma pages are checked against a temporary
# manual tree that holds the pages of man/ (and its mandoc.db, made by
# makewhatis), so `.Xr koma-formats 5` resolves before anything is installed.
# References to manuals outside man/ are reported as not found: koma pages
# name other programs without .Xr.
command -v mandoc >/dev/null 2>&1 || { echo "man: mandoc is needed (apt-get install mandoc)" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"

tree=$(mktemp -d) || exit 2
trap 'rm -rf "$tree"' EXIT HUP INT TERM
for m in man/*.[1-9]; do
    [ -f "$m" ] || continue
    s=${m##*.}
    mkdir -p "$tree/man$s" && cp "$m" "$tree/man$s/"
done
makewhatis=$(command -v makewhatis 2>/dev/null || { [ -x /usr/sbin/makewhatis ] && echo /usr/sbin/makewhatis; })
if [ -n "$makewhatis" ]; then
    "$makewhatis" "$tree" 2>/dev/null || makewhatis=""
fi
if [ -z "$makewhatis" ]; then
    echo "man: makewhatis not found; cross-references are not checked"
fi

for m in "$@"; do
    if [ -n "$makewhatis" ]; then
        out=$(MANPATH=$tree mandoc -Tlint -W style "$m" 2>&1)
    else
        out=$(mandoc -Tlint -W style "$m" 2>&1 | grep -v -e 'referenced manual not found' -e 'mandoc\.db')
    fi
    if [ -z "$out" ]; then
        pass=$((pass + 1))
    else
        echo "man: $m:"; echo "$out"; fail=$((fail + 1))
    fi
done
codes=$(sed -n 's/^KOMA_CODE([A-Z_0-9]*, *"\([^"]*\)".*/\1/p' lib/include/koma/codes.def)
for code in $codes; do
    if grep -q "^\.It Li $code\$" man/koma-formats.5; then
        pass=$((pass + 1))
    else
        echo "man: koma-formats.5 does not list code $code"; fail=$((fail + 1))
    fi
done
if sh man/codes.sh --check; then
    pass=$((pass + 1))
else
    echo "man: the code table of man/koma-formats.5 is not up to date (run sh man/codes.sh)"
    fail=$((fail + 1))
fi
suite_end man
