#!/bin/sh
# tests/layers-check.sh — the layer order of libkoma, checked on the objects.
#
# lib/README.md holds the layers, lowest first at the bottom,
# between the lines `<!-- layers -->` and `<!-- /layers -->`, one a line:
#     N NAME  module module ...
# A module may call (use a symbol defined by) modules of its own layer and of
# the layers below, never one above, and the calls within a layer form no
# circle (a -> b -> ... -> a). The calls are read from the objects: each
# undefined symbol of an object (nm -P, type U) is resolved to the object of
# the library that defines it. The modules are the sources lib/*.c (and the
# generated games.c), not whatever objects lie in BUILDDIR: an object left there
# by a module since removed is not read (tests/layers-stale.sh). Every module
# must be in exactly one layer, and every module named must exist, so the
# picture cannot go stale.
# Usage: layers-check.sh BUILDDIR
b=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
readme=$root/lib/README.md
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
NM=${NM:-nm}

# module -> layer
sed -n '/^<!-- layers -->$/,/^<!-- \/layers -->$/p' "$readme" |
    awk '$1 ~ /^[0-9]+$/ { for (i = 3; i <= NF; i++) print $i, $1, $2 }' >"$tmp/layers"
if [ ! -s "$tmp/layers" ]; then
    echo "layers: no layer table in lib/README.md (<!-- layers --> ... <!-- /layers -->)" >&2
    exit 1
fi

# known circles within a layer
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$root/tests/layers-circles.txt" >"$tmp/circles" 2>/dev/null || : >"$tmp/circles"
echo "# end" >>"$tmp/circles"

# module -> defined symbols, and undefined ones: the object of each source
for src in "$root"/lib/*.c games; do
    m=$(basename "$src" .c)
    o=$b/obj/lib/$m.o
    [ "$m" = games ] && o=$b/obj/gen/games.o
    if [ ! -f "$o" ]; then
        echo "layers: no object $o for module $m (build first)" >&2
        exit 2
    fi
    echo "$m" >>"$tmp/objects"
    "$NM" -P "$o" | awk -v m="$m" '$2 ~ /^[TDBRCVWG]$/ { print $1, m, "def" } $2 == "U" { print $1, m, "use" }'
done >"$tmp/symbols"

awk -v tmp="$tmp" '
    FILENAME == tmp "/layers"  { layer[$1] = $2; lname[$1] = $3; named[$1] = 1; next }
    FILENAME == tmp "/circles" { if ($1 == "module") known[$2] = 1; else if ($1 == "layer") known_layer[$2] = 1; next }
    FILENAME == tmp "/objects" { obj[$1] = 1; next }
    $3 == "def" { def[$1] = $2; next }
    $3 == "use" { use[++n] = $2 " " $1; next }
    END {
        bad = 0; pass = 0
        for (m in obj)
            if (!(m in layer)) { printf "layers: lib/%s is in no layer of lib/README.md\n", m; bad++ }
            else pass++
        for (m in named)
            if (!(m in obj)) { printf "layers: lib/README.md names %s, which is not an object of the library\n", m; bad++ }
        for (i = 1; i <= n; i++) {
            split(use[i], u, " "); from = u[1]; sym = u[2]
            if (!(sym in def)) continue             # libc, jansson, libyaml, nettle
            to = def[sym]
            if (to == from || !(from in layer) || !(to in layer)) continue
            edge = from " -> " to
            if (edge in seen) continue
            seen[edge] = 1
            if (layer[to] + 0 > layer[from] + 0) {
                printf "layers: %s (layer %s %s) calls %s of %s (layer %s %s), a higher layer\n",
                       from, layer[from], lname[from], sym, to, layer[to], lname[to]
                bad++
            } else {
                pass++
                if (layer[to] == layer[from]) { same[from, to] = 1; members[from] = members[to] = 1 }
            }
        }
        # within a layer, calls may go either way, but never in a circle, except
        # the known ones of tests/layers-circles.txt (which must still be there)
        for (k in members) for (i in members) if ((i, k) in same)
            for (j in members) if ((k, j) in same) same[i, j] = 1
        for (m in members) {
            if (!((m, m) in same)) { pass++; continue }
            circled[m] = 1
            if ((m in known) || (lname[m] in known_layer)) { pass++; continue }
            printf "layers: %s calls itself back through a circle in layer %s %s\n", m, layer[m], lname[m]
            bad++
        }
        for (m in known)
            if (!(m in circled)) { printf "layers: tests/layers-circles.txt lists %s, which is in no circle now: remove it\n", m; bad++ }
        for (l in known_layer) {
            found = 0
            for (m in circled) if (lname[m] == l) found = 1
            if (!found) { printf "layers: tests/layers-circles.txt lists layer %s, which has no circle now: remove it\n", l; bad++ }
        }
        printf "layers: %d passed, %d failed\n", pass, bad
        exit bad > 0
    }' "$tmp/layers" "$tmp/circles" "$tmp/objects" "$tmp/symbols"
