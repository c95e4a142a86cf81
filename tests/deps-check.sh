#!/bin/sh
# `make` rebuilds exactly what a header change touches: for every header of the
# tree, the objects `make -n -W HEADER` would recompile must be exactly the
# objects whose source includes that header, directly or through other headers
# (worked out here from the #include lines, independently of the compiler's .d
# files). Run on an up-to-date build tree.
# Usage: deps-check.sh BUILD-DIR
. "$(dirname "$0")/lib.sh"
b=$1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
stale=$(${MAKE:-make} --no-print-directory -n B="$b" all tests 2>/dev/null | grep -c -- ' -c ')
[ "$stale" -eq 0 ] || { echo "deps: $b is not up to date ($stale objects to build); run make first" >&2; exit 2; }
headers=$(ls lib/*.h lib/include/koma/*.h lib/include/koma/*.def cmd/*.h tests/unit/*.h tests/fuzz/*.h \
    lib/python/src/*.h 2>/dev/null)
# The objects each header should rebuild, one "HEADER OBJECT..." line each.
"$py" - "$b" $headers >"$tmp/want" <<'PY' || exit 2
import os, re, sys
b, headers = sys.argv[1], sys.argv[2:]
inc_dirs = ["lib/include", "lib", b + "/gen"]
def objects():
    for d, pat, out in (("lib", r".*\.c$", b + "/obj/lib/"), ("cmd", r".*\.c$", b + "/obj/cmd/"),
                        ("tests/unit", r".*\.c$", b + "/obj/tests/unit/"),
                        ("tests/fuzz", r"(fuzz_.*|replay)\.c$", b + "/obj/tests/fuzz/"),
                        ("tests/faults", r"failalloc\.c$", b + "/obj/tests/faults/"),
                        ("lib/python/src", r".*\.c$", b + "/obj/python/")):
        for f in sorted(os.listdir(d)):
            if re.match(pat, f):
                yield d + "/" + f, out + f[:-2] + ".o"
    yield b + "/gen/games.c", b + "/obj/gen/games.o"
    yield b + "/gen/games_index.c", b + "/obj/gen/games_index.o"
rx = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
memo = {}
def includes(path):
    """Every file of the tree that path includes, transitively."""
    if path in memo:
        return memo[path]
    memo[path] = set()
    found = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = rx.match(line)
            if not m:
                continue
            dirs = ([os.path.dirname(path)] if m.group(1) == '"' else []) + inc_dirs
            for d in dirs:
                cand = os.path.normpath(os.path.join(d, m.group(2)))
                if os.path.isfile(cand):
                    found.add(cand)
                    found |= includes(cand)
                    break
    memo[path] = found
    return found
objs = list(objects())
for h in headers:
    h = os.path.normpath(h)
    print(h, " ".join(sorted(o for src, o in objs if os.path.exists(src) and h in includes(src))))
PY
while read -r h want; do
    got=$(${MAKE:-make} --no-print-directory -n -W "$h" B="$b" all tests 2>/dev/null |
          sed -n 's/.* -c [^ ]* -o \([^ ]*\.o\).*/\1/p' | sort -u | tr '\n' ' ')
    got=${got% }
    if [ "$got" = "$want" ]; then
        suite_pass
    else
        suite_fail "deps: touching $h would rebuild [$got], its includers are [$want]"
    fi
done <"$tmp/want"
suite_end deps
