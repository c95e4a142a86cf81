#!/bin/sh
# Every option a tool's --help lists must appear in its man page (man/TOOL.1)
# twice: in the SYNOPSIS, and as an item of the options list (an `.It Fl ...`
# line); and every option the SYNOPSIS shows must be one --help knows.
# Options are read from --help's option lines (`  -t, --type TYPE  ...`) and
# usage lines, and from the mdoc source's Fl macros (`Fl t`, `Fl -json`,
# `Fl h | -help | -version`).
# Usage: man-options.sh BINDIR
. "$(dirname "$0")/lib.sh"
bindir=$1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# mdoc_flags FILE: the flags of the Fl macros on the lines of FILE, one a line.
mdoc_flags() {
    awk '/^\./ {
        fl = 0
        for (i = 1; i <= NF; i++) {
            t = $i
            if (t == ".Fl" || t == "Fl") { fl = 1; continue }
            if (t ~ /^\.?[A-Z][a-z][a-z]?$/) { fl = 0; continue }
            if (!fl || t == "|" || t == "," || t == "-") continue
            sub(/[,;:.)]+$/, "", t)
            if (t ~ /^[A-Za-z0-9][A-Za-z0-9]+$/)          # Fl qv: -q and -v
                for (j = 1; j <= length(t); j++) print "-" substr(t, j, 1)
            else if (t != "") print "-" t
        }
    }' "$1" | sort -u
}

for bin in "$bindir"/koma-*; do
    [ -x "$bin" ] || continue
    tool=$(basename "$bin")
    page=man/$tool.1
    if [ ! -f "$page" ]; then suite_fail "man-options: $tool has no man page $page"; continue; fi
    "$bin" --help >"$tmp/help" 2>&1 || { suite_fail "man-options: $tool --help failed"; continue; }
    # One option a line, with its other spelling if any ("-q --quiet"): from the
    # option lines (leading blanks, then "-x, --long ARG" or "--long ARG") and
    # the usage lines (every word that is an option).
    {
        sed -n 's/^ \{1,\}\(-[A-Za-z0-9]\)\{0,1\}\(, \)\{0,1\}\(--[a-z][a-z0-9-]*\)\{0,1\}.*/\1 \3/p' "$tmp/help"
        sed -n '/^Usage:/,/^$/p' "$tmp/help" | grep -v '^ *-' | tr ' |[]' '\n\n\n\n' |
            grep -E '^--?[A-Za-z0-9][a-z0-9-]*$'
    } | sed 's/^ *//; s/ *$//' | grep -E '^--?[A-Za-z0-9]' | sort -u >"$tmp/groups"
    tr ' ' '\n' <"$tmp/groups" | sort -u >"$tmp/opts"
    [ -s "$tmp/opts" ] || { suite_fail "man-options: no option found in $tool --help"; continue; }
    sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$page" >"$tmp/synopsis"
    grep '^\.It Fl' "$page" >"$tmp/items"
    mdoc_flags "$tmp/synopsis" >"$tmp/syn"
    mdoc_flags "$tmp/items" >"$tmp/list"
    # The SYNOPSIS shows one spelling of each option (-q or --quiet); the options
    # list names every spelling.
    while read -r o1 o2; do
        ok=1
        if ! grep -qxF -- "$o1" "$tmp/syn" && ! grep -qxF -- "${o2:-$o1}" "$tmp/syn"; then
            suite_fail "man-options: $page: $o1${o2:+ ($o2)} (in $tool --help) is not in the SYNOPSIS"; ok=0
        fi
        for o in $o1 $o2; do
            grep -qxF -- "$o" "$tmp/list" && continue
            suite_fail "man-options: $page: $o (in $tool --help) has no .It Fl item in the options list"; ok=0
        done
        [ $ok -eq 1 ] && suite_pass
    done <"$tmp/groups"
    while read -r o; do
        grep -qxF -- "$o" "$tmp/opts" ||
            suite_fail "man-options: $page: the SYNOPSIS shows $o, which $tool --help does not list"
    done <"$tmp/syn"
done
suite_end man-options
