#!/bin/sh
# Run the EXAMPLES of the man pages: in every `.Bd -literal` block of an EXAMPLES
# section that holds lines starting with "$ ", those lines are commands (run in one
# shell, from the top of the source tree, with the built tools first on PATH) and
# the other lines are their expected output (stdout and stderr together).
# A literal block with no "$ " line that holds "#include" is an example C program:
# it is compiled against the built static library, and the blocks that run it as
# ./NAME run in a scratch folder where NAME is that program.
# A command line ending in "|", "\\" or "&&" continues on the next line.
# Usage: man-examples.sh BINDIR PAGE...
bindir=$(cd "$1" && pwd) || exit 2
shift
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
for page in "$@"; do
    rm -f "$tmp"/block.*
    awk -v dir="$tmp" '
        function unescape(s) { gsub(/\\e/, "\\", s); gsub(/\\\(aq/, "\047", s); gsub(/\\-/, "-", s); gsub(/\\&/, "", s); return s }
        /^\.Sh / { inex = ($2 == "EXAMPLES") }
        inex && /^\.Bd -literal/ { inblock = 1; n++; hascmd = 0; cont = 0; isprog = 0; prog = ""; next }
        inblock && /^\.Ed/ { inblock = 0; if (hascmd) print n > (dir "/block." n ".ok"); else if (isprog) printf "%s", prog > (dir "/prog.c"); prog = ""; next }
        inblock {
            line = unescape($0)
            if (!hascmd && line !~ /^\$ /) { prog = prog line "\n"; if (line ~ /^#include/) isprog = 1 }
            if (!isprog) prog = ""
            if (substr(line, 1, 2) == "$ ") { hascmd = 1; cont = (line ~ /(\||\\|&&)[ \t]*$/); print substr(line, 3) > (dir "/block." n ".sh") }
            else if (cont) { cont = (line ~ /(\||\\|&&)[ \t]*$/); print line > (dir "/block." n ".sh") }
            else if (hascmd) print line > (dir "/block." n ".out")
        }' "$page"
    rm -rf "$tmp/work"; mkdir -p "$tmp/work"
    if [ -f "$tmp/prog.c" ]; then
        if ! cc -std=c11 -I"$bindir/../../lib/include" -Ilib/include "$tmp/prog.c" -o "$tmp/work/prog" \
            "$bindir/../lib/libkoma.a" -lyaml -ljansson -lnettle -lm 2>"$tmp/cc.log"; then
            fail=$((fail + 1)); echo "man-examples: $page: example program does not compile:"; cat "$tmp/cc.log"
        fi
        rm -f "$tmp/prog.c"
    fi
    for ok in "$tmp"/block.*.ok; do
        [ -f "$ok" ] || continue
        b=${ok%.ok}
        [ -f "$b.out" ] || : >"$b.out"
        wd=.
        for name in $(grep -o '\./[A-Za-z0-9_-]*' "$b.sh" | sort -u); do
            ln -sf prog "$tmp/work/${name#./}"; wd=$tmp/work
        done
        (cd "$wd" && PATH="$bindir:$PATH" LC_ALL=C sh "$b.sh" >"$b.got" 2>&1 </dev/null)
        if cmp -s "$b.out" "$b.got"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "man-examples: $page: example failed:"; sed 's/^/  $ /' "$b.sh"; diff -u "$b.out" "$b.got" | head -20
        fi
    done
done
suite_end man-examples
