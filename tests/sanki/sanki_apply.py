#!/usr/bin/env python3
"""tests/sanki/sanki_apply.py — a test helper: the position a Sanki move leaves,
computed on its own (no koma code): the move's effects (a capture into the
captor's hand as the family's capture model says, en passant, castling,
promotion, drops) and then the FEEN markers recomposed as koma-games(7), SANKI,
"FEEN markers" states them (the check marker, the double step, the en passant
marker with its look-ahead, the castling rights). It does not generate moves:
the differential test (differential.sh) gives it the moves koma lists and
compares its FEEN with koma's.
Usage as a filter: lines "FEEN<TAB>PMN" in, the resulting FEEN out."""
import re
import sys

from sanki_pmn import TOKEN, parse_feen, captured_identity, side_of, letter

FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def sq(f, r):
    return FILES[f] + str(r + 1) if 0 <= f < 8 and 0 <= r < 8 else None


def fr(s):
    return FILES.index(s[0]), int(s[1:]) - 1


def state(tok):
    return TOKEN.match(tok).group(1)


def with_state(tok, st):
    m = TOKEN.match(tok)
    return st + m.group(2) + m.group(3) + m.group(4)


def fwd(side):
    return 1 if side == 0 else -1


def crossed(side, s):
    return fr(s)[1] >= 4 if side == 0 else fr(s)[1] <= 3


def slides(board, a, t, dirs):
    (af, ar), (tf, tr) = fr(a), fr(t)
    for df, dr in dirs:
        f, r = af + df, ar + dr
        while 0 <= f < 8 and 0 <= r < 8:
            if (f, r) == (tf, tr):
                return True
            if sq(f, r) in board:
                break
            f, r = f + df, r + dr
    return False


def attacks(board, a, t, variants):
    tok = board[a]
    s, l = side_of(tok), letter(tok)
    (af, ar), (tf, tr) = fr(a), fr(t)
    d = (tf - af, tr - ar)
    orth, diag = KING[:4], KING[4:]
    if l == "K":
        return d in KING
    if l in "GR":
        return slides(board, a, t, orth)
    if l == "Q":
        return slides(board, a, t, KING)
    if l == "B":
        return slides(board, a, t, diag)
    if l == "N":
        return d in KNIGHT
    if l == "I":
        return d in KNIGHT or slides(board, a, t, diag)
    if l == "E":
        return d in KNIGHT or slides(board, a, t, orth)
    if l == "T":
        return d in [(1, 0), (-1, 0), (0, 1), (0, -1), (-1, fwd(s)), (1, fwd(s))]
    v = variants[s]                                   # a foot soldier
    if v == "chess":
        return d in [(-1, fwd(s)), (1, fwd(s))]
    if d == (0, fwd(s)):
        return True
    return v == "xiongqi" and crossed(s, a) and d in [(-1, 0), (1, 0)]


def attacked(board, t, by, variants):
    return any(side_of(tok) == by and attacks(board, a, t, variants) for a, tok in board.items())


def royal(board, side):
    return next((a for a, tok in board.items() if side_of(tok) == side and "^" in tok), None)


def in_check(board, side, variants):
    r = royal(board, side)
    return r is not None and attacked(board, r, 1 - side, variants)


def can_castle(board, side, rook_sq, variants):
    home = 0 if side == 0 else 7
    k = board.get(sq(4, home))
    if not k or side_of(k) != side or letter(k) != ("G" if variants[side] == "xiongqi" else "K"):
        return False
    kingside = fr(rook_sq)[0] == 7
    between = [5, 6] if kingside else [1, 2, 3]
    path = [4, 5, 6] if kingside else [4, 3, 2]
    if any(sq(f, home) in board for f in between):
        return False
    return not any(attacked(board, sq(f, home), 1 - side, variants) for f in path)


def apply(feen, pmn):
    board, hands, variants, side = parse_feen(feen)
    arrived, king_moved, double = set(), None, None
    m = re.match(r"^([+-]?[A-Za-z]\^?'?)?([*])([a-h][1-8])$", pmn)
    if m:                                             # a drop
        tok = m.group(1)
        hands[side].remove(tok)
        board[m.group(3)] = tok
        arrived.add(m.group(3))
    else:
        m = re.match(r"^([a-h][1-8])([-+~])([a-h][1-8])(?:=([^/]+))?(?:/(.+))?$", pmn)
        a, op, b, actor = m.group(1), m.group(2), m.group(3), m.group(4)
        mover = board.pop(a)
        (af, ar), (bf, br) = fr(a), fr(b)
        if op == "~" and letter(mover) in "KG" and abs(bf - af) == 2:     # castling
            rf, rt = (7, 5) if bf == 6 else (0, 3)
            board[b] = mover
            board[sq(rt, ar)] = board.pop(sq(rf, ar))
            arrived |= {b, sq(rt, ar)}
            king_moved = side
        else:
            victim_sq = sq(bf, br - fwd(side)) if op == "~" else (b if op == "+" else None)
            if victim_sq:
                hands[side].append(captured_identity(board.pop(victim_sq), variants))
            placed = actor if actor else mover
            board[b] = placed
            arrived.add(b)
            if letter(placed) in "KG":
                king_moved = side
            if op == "-" and letter(placed) in "PFS" and af == bf and abs(br - ar) == 2:
                double = (a, b)
    side = 1 - side
    # the markers, in the rule system's order
    for t in (0, 1):
        r = royal(board, t)
        if r:
            board[r] = with_state(board[r], "-" if attacked(board, r, 1 - t, variants) else "")
    for a, tok in list(board.items()):
        if letter(tok) in "PFS" and state(tok) == "+" and fr(a)[1] != (1 if side_of(tok) == 0 else 6):
            board[a] = with_state(tok, "")
    flagged = None
    if double:
        a, b = double
        mover = 1 - side
        skipped = sq(fr(a)[0], (fr(a)[1] + fr(b)[1]) // 2)
        for c, tok in list(board.items()):
            if side_of(tok) != side or letter(tok) not in "PFS":
                continue
            (cf, cr), (sf, sr) = fr(c), fr(skipped)
            v = variants[side]
            ok = (v == "chess" and abs(sf - cf) == 1 and sr - cr == fwd(side)) or \
                 (v == "xiongqi" and abs(sf - cf) == 1 and sr == cr and crossed(side, c))
            if not ok or skipped in board:
                continue
            post = dict(board)
            post.pop(c)
            post.pop(b)
            post[skipped] = tok
            if not in_check(post, side, variants):
                flagged = b
                break
    for a, tok in list(board.items()):
        if letter(tok) in "PFS":
            if a == flagged:
                board[a] = with_state(tok, "-")
            elif state(tok) == "-":
                board[a] = with_state(tok, "")
    for a, tok in list(board.items()):
        if letter(tok) != "R" or state(tok) == "":
            continue
        t = side_of(tok)
        home = 0 if t == 0 else 7
        k = board.get(sq(4, home))
        lost = a not in (sq(0, home), sq(7, home)) or a in arrived or king_moved == t or \
            not (k and side_of(k) == t and letter(k) in "KG")
        if lost:
            board[a] = with_state(tok, "")
        else:
            board[a] = with_state(tok, "+" if can_castle(board, t, a, variants) else "-")
    return write_feen(board, hands, variants, side, feen)


def hand_key(tok):
    m = TOKEN.match(tok)
    return (m.group(2).upper(), m.group(2).islower(), {"-": 0, "+": 1, "": 2}[m.group(1)],
            m.group(3) != "", m.group(4) != "")


def write_feen(board, hands, variants, side, old):
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            tok = board.get(sq(f, r))
            if tok is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += tok
        rows.append(row + (str(empty) if empty else ""))
    hs = []
    for h in hands:
        counts = {}
        for tok in h:
            counts[tok] = counts.get(tok, 0) + 1
        items = sorted(counts.items(), key=lambda kv: (-kv[1], hand_key(kv[0])))
        hs.append("".join((str(n) if n > 1 else "") + tok for tok, n in items))
    a, b = old.split(" ")[2].split("/")
    first, second = (a, b) if a.isupper() else (b, a)
    styles = first + "/" + second if side == 0 else second + "/" + first
    return "/".join(rows) + " " + "/".join(hs) + " " + styles


if __name__ == "__main__":
    for line in sys.stdin:
        feen, pmn = line.rstrip("\n").split("\t")
        print(apply(feen, pmn))
