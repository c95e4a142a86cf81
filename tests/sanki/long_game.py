#!/usr/bin/env python3
"""tests/sanki/long_game.py — writes the plies of a long Sanki game that no earlier
rule ends, for the golden cases of the move limit and of the 600-ply cap
(tests/cli/cases/replay/sanki-*). It asks koma for the legal moves of each
position (koma-perft --divide --depth 1) and for the position a ply leaves
(koma-replay --start), and picks, by a fixed pseudo-random sequence, a move that
neither repeats a position a third time, nor captures, nor (for `limit`) moves a
foot soldier, nor ends the game; for `cap` a foot soldier moves (or a piece is
taken) at least every 60 plies, so that the 100-ply limit never comes.
Usage: long_game.py BINDIR limit|cap > plies"""
import subprocess
import sys

bindir, mode = sys.argv[1], sys.argv[2]
START = {"limit": "4k^3/1r6/8/8/8/8/6R1/4K^3 / W/w",
         "cap": "-rnbqk^bn-r/+p+p+p+p+p+p+p+p/8/8/8/8/+P+P+P+P+P+P+P+P/-RNBQK^BN-R / W/w"}[mode]
PLIES = {"limit": 100, "cap": 600}[mode]


def run(args, stdin=""):
    return subprocess.run([bindir + "/" + args[0]] + args[1:], input=stdin, capture_output=True,
                          text=True, check=False).stdout


seed = 12345
feen, seen, plies, quiet = START, {START: 1}, [], 0
while len(plies) < PLIES:
    moves = [l.split(":")[0] for l in run(["koma-perft", "--divide", "--depth", "1", "--", feen]).splitlines()
             if ":" in l and not l.startswith("Nodes")]
    board = feen.split(" ")[0]
    def foot(m):
        src = m[:2]
        f, r = ord(src[0]) - 97, int(src[1])
        rows = board.split("/")
        row, i, col = rows[8 - r], 0, 0
        import re
        for t in re.findall(r"[1-9]|[+-]?[A-Za-z]\^?'?", row):
            if t.isdigit():
                col += int(t)
                continue
            if col == f:
                return t.lstrip("+-")[0] in "PpFfSs"
            col += 1
        return False
    want_foot = mode == "cap" and quiet >= 59
    def kind(m):
        if "+" in m[1:] or "~" in m or "=" in m:
            return "capture"
        return "foot" if foot(m) else "quiet"
    if mode == "limit":
        prefs = [["quiet"]]
    elif want_foot:
        prefs = [["foot"], ["capture"]]
    else:
        prefs = [["quiet"], ["foot", "capture"]]
    ok = None
    for pref in prefs:
        cands = [m for m in moves if kind(m) in pref]
        for k in range(len(cands)):
            seed = (seed * 1103515245 + 12345) % (1 << 31)
            m = cands[seed % len(cands)]
            out = run(["koma-replay", "--start", feen], m + "\n").split("\t")
            if len(out) > 4 and out[2] == "-" and seen.get(out[4], 0) < 2:
                ok = (m, out[4], kind(m))
                break
        if ok:
            break
    if ok is None:
        sys.exit("long_game: stuck at ply %d: %s" % (len(plies), feen))
    m, feen, k = ok
    seen[feen] = seen.get(feen, 0) + 1
    quiet = 0 if k != "quiet" else quiet + 1
    plies.append(m)
print(START)
for m in plies:
    print(m)
