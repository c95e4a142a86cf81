#!/bin/sh
# tests/layers-stale.sh — tests/layers-check.sh reads the objects of the modules
# lib/*.c has, whatever else lies in the build tree: an object left behind by a
# module since removed or renamed (a rules.o defining what engine_rules.o
# defines, say) changes nothing, while the objects of the real modules still count
# (one swapped for a module of a higher layer fails) and a missing one is
# trouble (build first).
# Usage: layers-stale.sh BUILDDIR
b=$(cd "${1:-build}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# a build tree of links to the real objects
mirror() {
    rm -rf "$tmp/b" && mkdir -p "$tmp/b/obj/lib" "$tmp/b/obj/gen" || exit 2
    for o in "$b"/obj/lib/*.o; do ln -s "$o" "$tmp/b/obj/lib/"; done
    ln -s "$b/obj/gen/games.o" "$tmp/b/obj/gen/"
}
check() {   # WANT-STATUS WHAT
    sh "$root/tests/layers-check.sh" "$tmp/b" >"$tmp/out" 2>&1
    st=$?
    if [ "$st" -eq "$1" ]; then
        suite_pass
    else
        suite_fail "layers-stale: $2: layers-check.sh exited $st, not $1:"
        sed 's/^/  /' "$tmp/out" >&2
    fi
}
mirror
check 0 "the build tree as it is"
# stale objects: one named as no module is, defining symbols a real module
# defines too (an old rules.o: the rules calls, now engine_rules.c's), and one that
# calls every layer
# (names no module has: a copy onto a real module's link would write through it
# into the build tree)
for n in rules zz_old; do
    if [ -e "$root/lib/$n.c" ]; then
        suite_fail "layers-stale: lib/$n.c exists: choose another stale name"; exit 1
    fi
done
cp "$b/obj/lib/engine_rules.o" "$tmp/b/obj/lib/rules.o"
cp "$b/obj/lib/convert.o" "$tmp/b/obj/lib/zz_old.o"
check 0 "stale objects of removed modules"
# the real modules' objects are what is read: base's error.o swapped for the
# referee's (which calls the layers above base) is a call against the order
mirror
rm "$tmp/b/obj/lib/error.o" && cp "$b/obj/lib/referee.o" "$tmp/b/obj/lib/error.o"
check 1 "a module's object calling a higher layer"
# a module without its object: build first
mirror
rm "$tmp/b/obj/lib/cell.o"
check 2 "a module without its object"
suite_end layers-stale
