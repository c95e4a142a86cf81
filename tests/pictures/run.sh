#!/bin/sh
# The picture test: draw each input tests/pictures/NAME.feen or
# NAME.pcn.jsonl as SVG with `koma-convert --to svg` (the last position of the
# record, its last move shaded), rasterise it with rsvg-convert and compare the
# pixels with the reference picture tests/data/pictures/NAME.png (tests/pictures/compare.py: a small
# tolerance for antialiasing, none for a missing piece, a wrong name or a lost
# highlight). Rendering is pinned: only the fonts of Debian's fonts-ipafont-mincho
# are visible (a fontconfig file of our own), with hinting off, so other installed
# fonts or a user's settings cannot change the result.
#
# Usage: run.sh BINDIR OUTDIR
#   BINDIR  where koma-convert is
#   OUTDIR  where the pictures drawn now (and the differences, on failure) are kept
# UPDATE=1 rewrites the references from the pictures drawn now: look at every one
# of them before committing it.
. "$(dirname "$0")/../lib.sh"
bindir=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
refs=$here/../data/pictures
command -v rsvg-convert >/dev/null 2>&1 || { echo "pictures: SKIPPED: rsvg-convert not found (apt-get install librsvg2-bin)"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "pictures: SKIPPED: python3 not found"; exit 0; }
font=$(dpkg -L fonts-ipafont-mincho 2>/dev/null | grep '/ipam\.ttf$' | head -n 1)
[ -n "$font" ] || font=$(fc-match -f '%{file}' IPAMincho 2>/dev/null)
case $font in
    */ipam.ttf) ;;
    *) echo "pictures: SKIPPED: the IPAMincho font is not installed (apt-get install fonts-ipafont-mincho)"; exit 0 ;;
esac
mkdir -p "$out" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
cat >"$tmp/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>$(dirname "$font")</dir>
  <cachedir>$tmp/cache</cachedir>
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>false</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
  </match>
</fontconfig>
CONF
FONTCONFIG_FILE=$tmp/fonts.conf
export FONTCONFIG_FILE
unset FONTCONFIG_PATH

for input in "$here"/*.feen "$here"/*.pcn.jsonl; do
    [ -f "$input" ] || continue
    name=$(basename "$input"); name=${name%.feen}; name=${name%.pcn.jsonl}
    svg=$out/$name.svg png=$out/$name.png
    rm -f "$out/$name-diff.png"
    if ! "$bindir/koma-convert" --to svg "$input" >"$svg" 2>"$tmp/err"; then
        suite_fail "pictures: $name: koma-convert failed: $(cat "$tmp/err")"; continue
    fi
    # the same position gives the same bytes
    if ! "$bindir/koma-convert" --to svg "$input" 2>/dev/null | cmp -s - "$svg"; then
        suite_fail "pictures: $name: two drawings of one position differ"; continue
    fi
    if ! rsvg-convert -o "$png" "$svg" 2>"$tmp/err"; then
        suite_fail "pictures: $name: rsvg-convert failed: $(cat "$tmp/err")"; continue
    fi
    if [ -n "${UPDATE:-}" ]; then
        cp "$png" "$refs/$name.png" && echo "pictures: $name: reference written ($refs/$name.png)"
        suite_pass; continue
    fi
    if [ ! -f "$refs/$name.png" ]; then
        suite_fail "pictures: $name: no reference picture $refs/$name.png (UPDATE=1 writes it)"; continue
    fi
    if msg=$(python3 "$here/compare.py" --diff "$out/$name-diff.png" "$refs/$name.png" "$png"); then
        suite_pass
    else
        suite_fail "pictures: $name: $msg (drawn now: $png)"
    fi
done
suite_end pictures
