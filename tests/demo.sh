#!/bin/sh
# make demo: show what koma does on the bundled sample data (tests/data/).
# Each step prints the command it runs, then its output.
bindir=$(cd "$1" && pwd) || exit 2
PATH="$bindir:$PATH"
export PATH
cd tests/data || exit 2

step() {
    printf '\n\033[1m$ %s\033[0m\n' "$*" 2>/dev/null || printf '\n$ %s\n' "$*"
    sh -c "$*"
    echo "(exit status $?)"
}
plain_step() {
    printf '\n$ %s\n' "$*"
    sh -c "$*"
    echo "(exit status $?)"
}
[ -t 1 ] || step() { plain_step "$@"; }

echo "koma demo — tools in $bindir"
echo "== FEEN positions: validate a file of game positions =="
step "koma validate --summary feen/games.feen"
echo
echo "== Fingerprints (FID) of the Ōgi start and the published tsume puzzles =="
step "head -n 1 feen/games.feen | koma-validate --print-fid"
step "sed -n '11,13p' feen/games.feen | koma-validate --print-fid"
echo
echo "== A database with mistakes: one diagnostic per bad line, file:line:column =="
step "koma-validate --summary feen/mixed.feen"
echo
echo "== The same as JSON Lines, for scripts =="
step "koma-validate --json feen/mixed.feen | head -n 3"
echo
echo "== The atoms: coordinates, pieces, styles =="
step "printf 'e4\na1A\niv256IV\na0\n' | koma-validate --type cell"
step "printf 'K^\n+p\nK^^\n' | koma-validate --type pin"
step "printf 'O:K^\nC:k\n' | koma-validate --type qpi"
