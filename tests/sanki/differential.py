#!/usr/bin/env python3
"""tests/sanki/differential.py — random games of every pairing of the Sanki
variants, played by koma and checked ply by ply against the test helpers' own
reading: the move koma writes must be what sanki_pmn.py makes of the platform's
[from, to, actor] form of the same move, and the FEEN koma gives after it must
be the one sanki_apply.py computes. The moves are chosen among those koma lists
(koma-perft --divide), by a fixed pseudo-random sequence, so a run is the same
every time.
Usage: differential.py BINDIR [PLIES]"""
import subprocess
import sys

from sanki_pmn import PROMOTE, to_pmn
from sanki_apply import apply

bindir = sys.argv[1]
plies = int(sys.argv[2]) if len(sys.argv) > 2 else 60
HALF = {"W": ("-RNBQK^BN-R", "+P+P+P+P+P+P+P+P"), "J": ("-RNBIK^BN-R", "+F+F+F+F+F+F+F+F"),
        "C": ("-RNBEG^BN-R", "+S+S+S+S+S+S+S+S")}
VARIANT = {"W": "chess", "J": "ogi", "C": "xiongqi"}


def start(a, b):
    back, foot = HALF[a]
    bback, bfoot = HALF[b.upper()]
    return "/".join([bback.lower(), bfoot.lower(), "8", "8", "8", "8", foot, back]) + " / " + a + "/" + b


def koma(args, stdin=""):
    return subprocess.run([bindir + "/" + args[0]] + args[1:], input=stdin, capture_output=True,
                          text=True, check=False).stdout


def platform(pmn, feen):
    """The platform's [from, to, actor] of a PMN move (names from the variant tables)."""
    styles = feen.split(" ")[2]
    side_style = styles.split("/")[0].upper()
    names = {v: k for k, v in PROMOTE[VARIANT[side_style]].items()}
    if "*" in pmn:
        tok, dst = pmn.split("*")
        return [None, dst, names[tok.lstrip("+-")[0].upper()]]
    src, dst = pmn[:2], pmn[3:5]
    actor = None
    if "=" in pmn and VARIANT[side_style] != "ogi":
        actor = names[pmn.split("=")[1].split("/")[0][0].upper()]
    return [src, dst, actor]


fails = checked = 0
kinds = {"castling or en passant": 0, "drops": 0, "promotions": 0, "captures": 0}
seed = 2026
pairs = ["W/w", "J/j", "C/c", "W/j", "J/w", "C/w", "W/c", "J/c", "C/j"]
# and positions with castling rights held and foot soldiers near each other
more = ["+r3k^2+r/+p1+p+pq+pb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/+P+P+PBB+P+P+P/+R3K^2+R / W/w",
        "-r3g^2-r/+s+s+s2+s+s+s/8/3S4/4s3/8/+P+P+P2+P+P+P/+R3K^2+R / W/c",
        "-r3k^2-r/+f+f+f2+f+f+f/8/3s4/4S3/8/+F+F+F2+F+F+F/-R3G^2-R / C/j"]
for pair in pairs + more:
    feen = start(*pair.split("/")) if len(pair) == 3 else pair
    for n in range(plies):
        moves = sorted(l.split(":")[0] for l in koma(["koma-perft", "--divide", "--depth", "1", "--", feen]).splitlines()
                       if ":" in l and not l.startswith("Nodes"))
        if not moves:
            break
        seed = (seed * 1103515245 + 12345) % (1 << 31)
        special = [m for m in moves if "~" in m]     # castling and en passant, when there are
        pmn = special[seed % len(special)] if special and seed % 3 == 0 else moves[seed % len(moves)]
        out = koma(["koma-replay", "--start", feen], pmn + "\n").split("\t")
        if len(out) < 5:
            print("differential: %s ply %d: koma refused %s in %s" % (pair, n + 1, pmn, feen))
            fails += 1
            break
        checked += 1
        kinds["castling or en passant"] += "~" in pmn
        kinds["drops"] += "*" in pmn
        kinds["promotions"] += "=" in pmn
        kinds["captures"] += "+" in pmn[1:]
        mine = to_pmn(feen, platform(pmn, feen))
        theirs = apply(feen, pmn)
        if mine != pmn or theirs != out[4]:
            fails += 1
            print("differential: %s ply %d in %s:\n  koma %s -> %s\n  here %s -> %s" %
                  (pair, n + 1, feen, pmn, out[4], mine, theirs))
            break
        feen = out[4]
        if out[2] != "-":
            break                                     # the game ended
print("sanki-differential: %d plies checked in %d games (%s), %d failed" %
      (checked, len(pairs) + len(more), ", ".join("%d %s" % (v, k) for k, v in kinds.items()), fails))
sys.exit(1 if fails or checked == 0 else 0)
