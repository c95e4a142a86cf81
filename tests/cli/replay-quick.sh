#!/bin/sh
# The referee's quick loop against its general path: koma_referee_pcn takes
# the usual plies of a light record (koma-replay's verdict lines) in a loop of
# its own, and every other ply one by one as koma_referee_ply does; with
# KOMA_REFEREE_GENERAL in the environment every ply goes the general way.
# koma-replay must give the same bytes either way (stdout, stderr, exit
# status) for each of its output modes, and koma-repetition-check (the loop
# fills the referee's table of positions) for each of its own, on
# replay-quick.jsonl beside it, on
# every record of tests/data (PCN JSON Lines and YAML streams; other files
# give their diagnostics, the same way twice) and on the fuzz corpora of whole
# records (replay, pcn_json, pcn_yaml), each corpus in one run.
# Usage: replay-quick.sh BINDIR
bindir=$(cd "$1" && pwd) || exit 2
root=$(pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
replay=$bindir/koma-replay
repcheck=$bindir/koma-repetition-check

# compare NAME ARGS...: the run with the quick loop and the general one (of
# $tool: koma-replay unless set)
compare() {
    name=$1
    shift
    run=${tool:-$replay}
    "$run" "$@" >"$tmp/q.out" 2>"$tmp/q.err"
    echo $? >"$tmp/q.st"
    KOMA_REFEREE_GENERAL=1 "$run" "$@" >"$tmp/g.out" 2>"$tmp/g.err"
    echo $? >"$tmp/g.st"
    for f in out err st; do
        if ! cmp -s "$tmp/q.$f" "$tmp/g.$f"; then
            suite_fail "replay-quick: $name: std$f differs from the general path:"
            diff "$tmp/g.$f" "$tmp/q.$f" | head -n 10 >&2
            return
        fi
    done
    # a comparison of two empty runs proves nothing
    if [ ! -s "$tmp/q.out" ] && [ ! -s "$tmp/q.err" ]; then
        suite_fail "replay-quick: $name: no output at all"
        return
    fi
    suite_pass
}

modes() {   # modes NAME FILE...: each output mode of koma-replay
    name=$1
    shift
    compare "$name" "$@"
    compare "$name --adjudicate" --adjudicate "$@"
    compare "$name --json --summary" --json --summary "$@"
    compare "$name --adjudicate --json" --adjudicate --json "$@"
    compare "$name --summary" --summary "$@"
    compare "$name --each" --each "$@"
    compare "$name --write-outcome" --write-outcome "$@"
    tool=$repcheck
    compare "$name: koma-repetition-check" "$@"
    compare "$name: koma-repetition-check --json --summary" --json --summary "$@"
    tool=
}

cd "$root/tests/data" || exit 2
for f in $(find . -type f \( -name '*.jsonl' -o -name '*.yaml' -o -name '*.pcn' \) | LC_ALL=C sort); do
    modes "tests/data/${f#./}" "$f"
done
# a whole directory's records at once (the referee reused from record to record)
modes "tests/data/replay + repetition" replay/*.jsonl repetition/*.jsonl
# endings the quick loop hands on or decides (tests/cli/replay-quick.jsonl): a
# perpetual check (Sente's rook, four times; then plies after it, a wrong
# recorded outcome), a mate by pawn drop (illegal) and a pawn drop that is no mate
modes "tests/cli/replay-quick.jsonl" "$root/tests/cli/replay-quick.jsonl"

cd "$root/tests/fuzz/corpus" || exit 2
for c in replay pcn_json pcn_yaml; do
    ls "$c"/* >/dev/null 2>&1 || { suite_fail "replay-quick: no corpus $c"; continue; }
    compare "corpus $c" "$c"/*
    compare "corpus $c --adjudicate" --adjudicate "$c"/*
    tool=$repcheck
    compare "corpus $c: koma-repetition-check" "$c"/*
    tool=
done
suite_end replay-quick
