#!/bin/sh
# One record file through koma-convert and back, for the golden cases of
# tests/cli/cases/convert/world-*: FILE -> PCN -> FORMAT -> PCN.
#   round-trip.sh FILE FORMAT [OPTION]...
# OPTIONs go to the first koma-convert (--from). Prints the PCN records read,
# the text written back in FORMAT (after a line naming the encoding its
# declaration gives, shown as UTF-8) and "same PCN" when that text reads back
# as the same records (or what differs).
# The exit status is the first koma-convert's.
f=$1 to=$2
shift 2
pcn=$(koma-convert "$@" --to pcn "$f")
status=$?
printf '%s\n' "$pcn"
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
printf '%s\n' "$pcn" | koma-convert --from pcn --to "$to" >"$tmp" || status=$?
enc=$(head -c 1000 "$tmp" | LC_ALL=C grep -a -o 'encoding=[A-Za-z0-9_-]*' | head -n 1 | cut -d = -f 2)
case $enc in
'' | UTF-8) echo "written: ${enc:-no declaration}"; cat "$tmp" ;;
EUC-JP) echo "written: EUC-JP (shown as UTF-8)"; iconv -f EUC-JP-MS -t UTF-8 "$tmp" ;;
SHIFT_JIS | Shift_JIS) echo "written: $enc (shown as UTF-8)"; iconv -f CP932 -t UTF-8 "$tmp" ;;
*) echo "written: $enc"; cat "$tmp" ;;
esac
back=$(koma-convert --from "$to" --to pcn "$tmp")
src_of() { LC_ALL=C grep -a -o '"source":{[^}]*}'; }
strip() { LC_ALL=C sed 's/"source":{[^}]*}//'; }
if [ "$pcn" = "$back" ]; then
    echo "same PCN"
elif [ "$(printf '%s\n' "$pcn" | strip)" = "$(printf '%s\n' "$back" | strip)" ]; then
    echo "same PCN but meta.source: $(printf '%s\n' "$pcn" | src_of | tr '\n' ' ')->" \
        "$(printf '%s\n' "$back" | src_of | tr '\n' ' ')"
else
    echo "read back differently:"
    printf '%s\n' "$back"
fi
exit $status
