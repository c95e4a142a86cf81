#!/bin/sh
# `make install` into a scratch DESTDIR, then build a small program against the
# installed headers and library through pkg-config, link it statically and
# dynamically, and run both: the FID of the Ōgi start position must come out,
# equal to the SHA-256 sha256sum(1) gives for its FEEN.
set -u
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
prefix=/opt/koma
${MAKE:-make} --no-print-directory -s install DESTDIR="$tmp" PREFIX=$prefix B="$1" >"$tmp/log" 2>&1 || {
    cat "$tmp/log"; echo "install: 0 passed, 1 failed"; exit 1; }
cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <koma/koma.h>
int main(int argc, char **argv)
{
    koma_position pos;
    koma_error err;
    char fid[KOMA_FID_BUF];
    koma_position_init(&pos);
    koma_error_clear(&err);
    if (argc < 2 || koma_feen_parse(argv[1], strlen(argv[1]), KOMA_FEEN_STRICT, &pos, &err) != 0) {
        fprintf(stderr, "%s: %s\n", koma_code_name(err.code), err.message);
        return 1;
    }
    koma_position_fid(&pos, fid, &err);
    puts(fid);
    koma_position_cleanup(&pos);
    return 0;
}
PROG
root=$tmp$prefix
# Rewrite the installed .pc for the scratch root (DESTDIR is not known to pkg-config).
sed "s|^prefix=.*|prefix=$root|; s|=$prefix/|=$root/|" "$root/lib/pkgconfig/koma.pc" >"$tmp/koma.pc"
export PKG_CONFIG_PATH=$tmp
. "$(dirname "$0")/lib.sh"
feen='lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o'
# The FID is the SHA-256 of the canonical FEEN: computed here by coreutils, not koma.
want=$(printf '%s' "$feen" | sha256sum | cut -d' ' -f1)
[ ${#want} -eq 64 ] || { echo "install: sha256sum is needed" >&2; exit 2; }
out=
if command -v pkg-config >/dev/null 2>&1; then
    cflags=$(pkg-config --cflags koma) libs=$(pkg-config --libs --static koma)
else
    cflags="-I$root/include" libs="-L$root/lib -lkoma -lyaml -ljansson -lnettle"
fi
for mode in dynamic static; do
    extra=""
    [ $mode = static ] && extra="-Wl,-Bstatic -lkoma -Wl,-Bdynamic"
    # shellcheck disable=SC2086
    if cc -std=c11 $cflags "$tmp/prog.c" -o "$tmp/prog-$mode" $extra $libs -lyaml -ljansson -lnettle 2>"$tmp/cc.log" &&
        out=$(LD_LIBRARY_PATH=$root/lib "$tmp/prog-$mode" "$feen") && [ "$out" = "$want" ]; then
        pass=$((pass + 1))
    else
        cat "$tmp/cc.log"; echo "install: $mode link or run failed (FID '${out:-}', want $want)"; fail=$((fail + 1))
    fi
done
# The Python package: importable from where it was installed, the same FID; and
# where make install puts it for PREFIX=/usr and /usr/local, Debian's python3 looks.
py=${PYTHON:-python3}
pydir=$(${MAKE:-make} --no-print-directory -s python-dir PREFIX=$prefix B="$1")
out=$(cd "$tmp" && PYTHONPATH=$tmp$pydir "$py" -c 'import sys, koma; print(koma.Position(sys.argv[1]).fid)' "$feen" 2>&1)
if [ "$out" = "$want" ]; then pass=$((pass + 1)); else
    echo "install: the Python package in $pydir: '$out', want $want"; fail=$((fail + 1)); fi
for p in /usr /usr/local; do
    d=$(${MAKE:-make} --no-print-directory -s python-dir PREFIX=$p B="$1")
    if "$py" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$d"; then pass=$((pass + 1)); else
        echo "install: PREFIX=$p puts the Python package in $d, not on $py's path"; fail=$((fail + 1)); fi
done
for f in bin/koma bin/koma-validate include/koma/koma.h lib/libkoma.a lib/libkoma.so share/man/man1/koma-validate.1; do
    if [ -e "$root/$f" ]; then pass=$((pass + 1)); else echo "install: missing $f"; fail=$((fail + 1)); fi
done
suite_end install
