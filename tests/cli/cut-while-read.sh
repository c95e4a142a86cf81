# tests/cli/cut-while-read.sh — sourced by records-map.sh and validate-map.sh (in
# $tmp, with $fail): a file cut while a tool reads it from its mapping must give
# io.read, status 2, and no crash.
#   cut_while_read KEEP FILE TOOL OPTIONS...
# FILE is copied to $tmp/f/shrinks; TOOL OPTIONS shrinks writes a line an item
# into a pipe whose reader takes KEEP of them (the tool is then past the bytes it
# reads to sniff the input, waiting within its mapping), cuts the file, then reads
# the rest. One line of output: the verdict.
cut_while_read() {
    keep=$1; cp "$2" "$tmp/f/shrinks" || exit 2; tool=$3; shift 3
    (cd "$tmp/f" && { "$tool" "$@" shrinks 2>"$tmp/shrinks.err"; echo $? >"$tmp/shrinks.st"; } |
        { head -n "$keep" >/dev/null; : >shrinks; cat >/dev/null; })
    if [ "$(cat "$tmp/shrinks.st")" = 2 ] &&
        grep -q "^$tool: shrinks:[0-9]*:1: io.read: the file shrank while it was read\$" "$tmp/shrinks.err"; then
        echo "a file cut while read: io.read, status 2"
    else
        echo "a file cut while read: status $(cat "$tmp/shrinks.st")"; head -n 3 "$tmp/shrinks.err"; fail=1
    fi
}
