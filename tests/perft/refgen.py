#!/usr/bin/env python3
"""tests/perft/refgen.py — an independent, deliberately simple reference move
generator for the games of koma (ogi, ogi-classic, shogi, minishogi, okisaki),
written from the rules (koma-games(7)), sharing no code or tables with libkoma.
It cross-checks the C engine: perft counts and full legal-move lists of random
positions. Slow (pure Python); not run by `make check`.

  refgen.py perft GAME DEPTH [FEEN]        print perft(DEPTH)
  refgen.py moves GAME FEEN                print the legal moves (PMN), sorted
  refgen.py random GAME N PLIES SEED       print N FEENs from random games
  refgen.py compare GAME N PLIES SEED BIN  compare move lists with BIN/koma-perft
  refgen.py scatter GAME N SEED BIN        the same on random scattered positions
                                           (random pieces, promoted ones, hands)
"""
import json
import random
import subprocess
import sys

# Piece movement in the first player's frame (dy > 0 is forwards):
# a list of (dx, dy, slides).
def steps(vecs, slide=False):
    return [(dx, dy, slide) for dx, dy in vecs]

ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
KNIGHT_ALL = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1)]
GOLD = ORTH + [(1, 1), (-1, 1)]
SILVER = DIAG + [(0, 1)]

KING = steps(ORTH + DIAG)
ROOK = steps(ORTH, True)
BISHOP = steps(DIAG, True)

GAMES = {
    "ogi": dict(files=8, ranks=8, style="O", zone=3, check=False, compulsory=False,
                privilege=True,
                start="lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"),
    "ogi-classic": dict(files=8, ranks=8, style="O", zone=3, check=True, compulsory=True,
                        privilege=True,
                        start="lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"),
    "shogi": dict(files=9, ranks=9, style="S", zone=3, check=True, compulsory=False,
                  privilege=False,
                  start="lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"),
    "minishogi": dict(files=5, ranks=5, style="S", zone=1, check=True, compulsory=False,
                      privilege=False, start="rbsgk^/4p/5/P4/K^GSBR / S/s"),
    "okisaki": dict(files=10, ranks=10, style="Q", zone=3, check=True, compulsory=False,
                    privilege=False,
                    start="lnsgk^qgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQK^GSNL / Q/q"),
}


def movement(game, name):
    """name: the piece without side: 'K^', 'P', '+P', ..."""
    ogi = game.startswith("ogi")
    oki = game == "okisaki"
    table = {
        "K^": KING, "R": ROOK, "B": BISHOP, "G": steps(GOLD),
        "+R": ROOK + steps(DIAG), "+B": BISHOP + steps(ORTH),
        "S": steps(SILVER), "+S": steps(GOLD), "+N": steps(GOLD), "+L": steps(GOLD),
        "+P": steps(GOLD), "P": steps([(0, 1)]),
    }
    if ogi:
        table["I"] = BISHOP + steps(KNIGHT_ALL)
        table["+I"] = BISHOP + steps(KNIGHT_ALL) + steps(ORTH)
    if oki:
        table["Q"] = ROOK + BISHOP
        table["N"] = steps(KNIGHT_ALL)
        table["L"] = steps([(0, 1), (0, -1)], True)
    else:
        table["N"] = steps([(1, 2), (-1, 2)])
        table["L"] = steps([(0, 1)], True)
    return table[name]


PROMOTES = {"R", "B", "S", "N", "L", "P", "I"}


def must_promote_rank(game, base):
    """How many last ranks force promotion of a move ending there."""
    if game == "okisaki":
        return 1 if base == "P" else 0
    return {"P": 1, "L": 1, "N": 2}.get(base, 0)


def drop_forbidden(game, base):
    if game.startswith("ogi"):
        if base == "P":
            return None  # never
        return {"L": 1, "N": 2}.get(base, 0)
    if game == "okisaki":
        return 1 if base == "P" else 0
    return {"P": 1, "L": 1, "N": 2}.get(base, 0)


# ---- positions -------------------------------------------------------------

class Pos:
    def __init__(self, game, feen):
        self.game = game
        g = GAMES[game]
        self.F, self.R = g["files"], g["ranks"]
        placement, hands, turn = feen.split(" ")
        self.board = {}
        rows = placement.split("/")
        assert len(rows) == self.R
        for i, row in enumerate(rows):
            rank = self.R - i
            f = 0
            j = 0
            while j < len(row):
                if row[j].isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    f += int(row[j:k])
                    j = k
                    continue
                k = j
                if row[k] in "+-":
                    k += 1
                k += 1
                if k < len(row) and row[k] == "^":
                    k += 1
                if k < len(row) and row[k] == "'":
                    k += 1
                self.board[(f, rank)] = row[j:k]
                f += 1
                j = k
            assert f == self.F
        self.hands = [{}, {}]
        h1, h2 = hands.split("/")
        for side, h in enumerate((h1, h2)):
            j = 0
            while j < len(h):
                k = j
                while k < len(h) and h[k].isdigit():
                    k += 1
                n = int(h[j:k]) if k > j else 1
                j = k
                if h[k] in "+-":
                    k += 1
                k += 1
                if k < len(h) and h[k] == "^":
                    k += 1
                if k < len(h) and h[k] == "'":
                    k += 1
                self.hands[side][h[j:k]] = n
                j = k
        self.turn = 0 if turn[0].isupper() else 1

    def copy(self):
        p = Pos.__new__(Pos)
        p.game, p.F, p.R = self.game, self.F, self.R
        p.board = dict(self.board)
        p.hands = [dict(self.hands[0]), dict(self.hands[1])]
        p.turn = self.turn
        return p

    def feen(self):
        rows = []
        for rank in range(self.R, 0, -1):
            s, empty = "", 0
            for f in range(self.F):
                pc = self.board.get((f, rank))
                if pc is None:
                    empty += 1
                else:
                    if empty:
                        s += str(empty)
                        empty = 0
                    s += pc
            if empty:
                s += str(empty)
            rows.append(s)
        hs = []
        for side in (0, 1):
            items = [(n, p) for p, n in self.hands[side].items() if n > 0]

            def key(it):
                n, p = it
                letter = p.lstrip("+-")[0]
                state = 0 if p[0] == "-" else 1 if p[0] == "+" else 2
                return (-n, letter.lower(), letter.islower(), state, "^" in p, "'" in p)
            items.sort(key=key)
            hs.append("".join((str(n) if n > 1 else "") + p for n, p in items))
        st = GAMES[self.game]["style"]
        turn = st + "/" + st.lower() if self.turn == 0 else st.lower() + "/" + st
        return "/".join(rows) + " " + "/".join(hs) + " " + turn


def side_of(pc):
    letter = pc.lstrip("+-")[0]
    return 0 if letter.isupper() else 1


def norm(pc):
    """Piece name for the movement table: first-player case, no "'"."""
    return pc.replace("'", "").upper()


def cell(sq):
    return "abcdefghijklmnopqrstuvwxyz"[sq[0]] + str(sq[1])


def dist_last(p, side, rank):
    return p.R - rank if side == 0 else rank - 1


def in_zone(p, side, rank):
    return dist_last(p, side, rank) < GAMES[p.game]["zone"]


def targets(p, sq, pc):
    """Squares the piece on sq attacks / may move to (not own pieces)."""
    side = side_of(pc)
    sgn = 1 if side == 0 else -1
    out = []
    for dx, dy, slide in movement(p.game, norm(pc)):
        dx, dy = dx * sgn, dy * sgn
        f, r = sq[0] + dx, sq[1] + dy
        while 0 <= f < p.F and 1 <= r <= p.R:
            t = p.board.get((f, r))
            if t is None:
                out.append((f, r))
            else:
                if side_of(t) != side:
                    out.append((f, r))
                break
            if not slide:
                break
            f, r = f + dx, r + dy
    return out


def attacked(p, sq, by):
    for s2, pc in p.board.items():
        if side_of(pc) == by and sq in targets(p, s2, pc):
            return True
    return False


def in_check(p, side):
    for sq, pc in p.board.items():
        if side_of(pc) == side and "^" in pc and attacked(p, sq, side ^ 1):
            return True
    return False


def to_side(pc, side):
    return pc.upper() if side == 0 else pc.lower()


def pseudo(p):
    """(pmn, new position) pairs."""
    g = GAMES[p.game]
    side = p.turn
    if any("^" in k and n > 0 for h in p.hands for k, n in h.items()):
        return []
    if p.game == "okisaki":
        # bare king: the side that has just moved has its king alone (nothing
        # else on the board or in hand): the game is over, no moves
        other = side ^ 1
        if (not any(n for n in p.hands[other].values()) and
                all("^" in pc for pc in p.board.values() if side_of(pc) == other) and
                any("^" in pc for pc in p.board.values() if side_of(pc) == other)):
            return []
    res = []
    for sq, pc in list(p.board.items()):
        if side_of(pc) != side:
            continue
        base = norm(pc)
        for t in targets(p, sq, pc):
            victim = p.board.get(t)
            choices = []  # (promote, captured identity)
            can_prom = base in PROMOTES and (in_zone(p, side, sq[1]) or in_zone(p, side, t[1]))
            caps = [None]
            if victim is not None:
                vb = victim.lstrip("+-")
                plain = to_side(vb, side)
                caps = [plain]
                if g["privilege"] and "^" in pc and victim[0] == "+":
                    caps = [to_side(victim, side), plain]
            proms = [False]
            if can_prom:
                forced = g["compulsory"] or dist_last(p, side, t[1]) < must_promote_rank(p.game, base)
                proms = [True] if forced else [True, False]
            for pr in proms:
                for cap in caps:
                    q = p.copy()
                    del q.board[sq]
                    newpc = ("+" + pc) if pr else pc
                    q.board[t] = newpc
                    s = cell(sq) + ("+" if victim else "-") + cell(t)
                    if pr:
                        s += "=" + newpc
                    if cap is not None:
                        s += "/" + cap
                        q.hands[side][cap] = q.hands[side].get(cap, 0) + 1
                    q.turn ^= 1
                    res.append((s, q, None))
    for hp, n in list(p.hands[side].items()):
        if n == 0 or side_of(hp) != side:
            continue
        base = norm(hp)
        if "^" in hp:
            continue
        if hp.startswith("+"):
            if not g["privilege"]:
                continue
            forb = 0
        else:
            forb = drop_forbidden(p.game, base)
            if forb is None:
                continue
        for f in range(p.F):
            for r in range(1, p.R + 1):
                if (f, r) in p.board or dist_last(p, side, r) < forb:
                    continue
                if base == "P" and not p.game.startswith("ogi"):
                    if any(p.board.get((f, rr)) == to_side("P", side) for rr in range(1, p.R + 1)):
                        continue
                q = p.copy()
                q.board[(f, r)] = hp
                q.hands[side][hp] -= 1
                q.turn ^= 1
                res.append((hp + "*" + cell((f, r)), q, "pawn" if base == "P" else None))
    return res


def legal(p):
    g = GAMES[p.game]
    out = []
    for s, q, tag in pseudo(p):
        if g["check"]:
            if in_check(q, p.turn):
                continue
            if tag == "pawn" and p.game != "ogi" and in_check(q, q.turn) and not legal(q):
                continue
        out.append((s, q))
    return out


def perft(p, d):
    if d == 0:
        return 1
    ms = legal(p)
    if d == 1:
        return len(ms)
    return sum(perft(q, d - 1) for _, q in ms)


def main():
    cmd = sys.argv[1]
    game = sys.argv[2]
    if cmd == "perft":
        feen = sys.argv[4] if len(sys.argv) > 4 else GAMES[game]["start"]
        print(perft(Pos(game, feen), int(sys.argv[3])))
    elif cmd == "moves":
        for s in sorted(s for s, _ in legal(Pos(game, sys.argv[3]))):
            print(s)
    elif cmd in ("random", "compare"):
        n, plies, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        rng = random.Random(seed)
        feens = []
        while len(feens) < n:
            p = Pos(game, GAMES[game]["start"])
            for _ in range(plies):
                ms = legal(p)
                if not ms:
                    break
                feens.append(p.feen())
                # prefer captures and drops so hands fill and promotions happen
                caps = [m for m in ms if "+" in m[0][2:] or "*" in m[0]]
                s, p = rng.choice(caps if caps and rng.random() < 0.5 else ms)
            feens.append(p.feen())
        feens = feens[:n]
        if cmd == "random":
            for f in feens:
                print(f)
            return
        compare(game, feens, sys.argv[6])
    elif cmd == "scatter":
        n, seed = int(sys.argv[3]), int(sys.argv[4])
        compare(game, scatter(game, n, random.Random(seed)), sys.argv[5])


def piece_names(game):
    ogi = game.startswith("ogi")
    base = ["R", "B", "S", "N", "L", "P"] + (["I"] if ogi else ["G"])
    if game == "okisaki":
        base.append("Q")
    if game == "minishogi":
        base = ["R", "B", "S", "G", "P"]
    prom = ["+" + b for b in base if b in PROMOTES]
    return base, prom


def scatter(game, n, rng):
    g = GAMES[game]
    base, prom = piece_names(game)
    out = []
    while len(out) < n:
        p = Pos(game, g["start"])
        p.board = {}
        p.hands = [{}, {}]
        squares = [(f, r) for f in range(p.F) for r in range(1, p.R + 1)]
        rng.shuffle(squares)
        for side in (0, 1):
            p.board[squares.pop()] = to_side("K^", side)
        for _ in range(rng.randint(2, len(squares) // 3)):
            pc = to_side(rng.choice(base + prom), rng.randint(0, 1))
            sq = squares.pop()
            side = side_of(pc)
            b = norm(pc)
            if b in ("P", "L", "N") and dist_last(p, side, sq[1]) < must_promote_rank(game, b):
                continue
            p.board[sq] = pc
        for side in (0, 1):
            for _ in range(rng.randint(0, 4)):
                pool = base + (prom if g["privilege"] else [])
                pc = to_side(rng.choice(pool), side)
                p.hands[side][pc] = p.hands[side].get(pc, 0) + 1
        p.turn = rng.randint(0, 1)
        if g["check"] and in_check(p, p.turn ^ 1):
            continue
        out.append(p.feen())
    return out


def compare(game, feens, binary):
    """Compare the legal moves of each FEEN with koma-perft --divide -d 1."""
    out = subprocess.run([binary + "/koma-perft", "--game", game, "--json", "--divide", "-d", "1", "-"],
                         input="".join(f + "\n" for f in feens), capture_output=True, text=True)
    results = [json.loads(line) for line in out.stdout.splitlines()]
    bad = 0
    if len(results) != len(feens):
        print("koma-perft answered", len(results), "of", len(feens), out.stderr)
        sys.exit(1)
    total = 0
    for f, r in zip(feens, results):
        ref = sorted(s for s, _ in legal(Pos(game, f)))
        got = sorted(r["divide"].keys())
        total += len(ref)
        if got != ref:
            bad += 1
            print("MISMATCH", f)
            print("  only koma:", sorted(set(got) - set(ref)))
            print("  only ref: ", sorted(set(ref) - set(got)))
    print(f"{game}: {len(feens)} positions, {total} moves, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
