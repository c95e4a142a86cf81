#!/usr/bin/env python3
"""tests/sanki/sanki_pmn.py — a test helper: the Sashite platform's move form
[from, to, actor] (squares "e2", null for a drop's origin; actor a piece name or
null) read against a Sanki position (a FEEN) and written as koma's canonical PMN
(koma-games(7), SANKI, "Moves in PMN"). It reads the FEEN itself and knows the
rules only as far as the notation needs them (which move is a capture, castling
or en passant, what a captured piece becomes in the captor's hand, the automatic
Ogi promotion), so that the tests that use it do not take the engine's word for
the moves they check. Not the library's reader: koma-replay --pmn-dialect is.

Usage as a filter: lines "FEEN<TAB>MOVE-JSON" in, lines of PMN out ("?" when the
move names no PMN at all)."""
import json
import re
import sys

TOKEN = re.compile(r"([+-]?)([A-Za-z])(\^?)('?)")
VARIANT = {"W": "chess", "J": "ogi", "C": "xiongqi"}
PROMOTE = {"chess": {"queen": "Q", "rook": "R", "bishop": "B", "knight": "N"},
           "xiongqi": {"chariot": "R", "knight": "N", "bear": "B", "empress": "E"},
           "ogi": {"fu": "F", "rook": "R", "bishop": "B", "knight": "N", "princess": "I"}}


def parse_feen(feen):
    board_f, hands_f, styles_f = feen.split(" ")
    board = {}
    for r, row in enumerate(board_f.split("/")):
        rank, f, i = 8 - r, 0, 0
        while i < len(row):
            m = re.match(r"[1-9][0-9]*", row[i:])
            if m:
                f += int(m.group(0))
                i += len(m.group(0))
                continue
            m = TOKEN.match(row, i)
            board["abcdefgh"[f] + str(rank)] = m.group(0)
            f += 1
            i = m.end()
    hands = []
    for h in hands_f.split("/"):
        items = []
        for m in re.finditer(r"([0-9]*)([+-]?[A-Za-z]\^?'?)", h):
            items += [m.group(2)] * int(m.group(1) or 1)
        hands.append(items)
    a, b = styles_f.split("/")
    turn = 0 if a.isupper() else 1
    first, second = (a, b) if turn == 0 else (b, a)
    return board, hands, (VARIANT[first.upper()], VARIANT[second.upper()]), turn


def side_of(tok):
    return 1 if TOKEN.match(tok).group(2).islower() else 0


def letter(tok):
    return TOKEN.match(tok).group(2).upper()


def in_case(ch, side):
    return ch.lower() if side else ch.upper()


def captured_identity(victim, variants):
    """What the captor's hand receives."""
    m = TOKEN.match(victim)
    vside = side_of(victim)
    ch, royal, derived = m.group(2), m.group(3), m.group(4)
    if ch.upper() == "T":
        ch = in_case("F", vside)
    captor = 1 - vside
    if variants[captor] != "ogi":
        return ch + royal + derived
    if variants[vside] == "ogi":
        return in_case(ch, captor) + royal + derived
    return in_case("F", captor)


def to_pmn(feen, move):
    board, hands, variants, side = parse_feen(feen)
    src, dst, actor = move
    if src is None:                                    # a drop
        l = PROMOTE["ogi"].get(actor, (actor or "?")[0].upper())
        tok = next((t for t in hands[side] if letter(t) == l and side_of(t) == side), in_case(l, side))
        return tok + "*" + dst
    mover = board.get(src)
    victim = board.get(dst)
    if mover is None:
        return src + ("+" if victim else "-") + dst
    ms = side_of(mover)
    ml = letter(mover)
    fwd = 1 if ms == 0 else -1
    df = ord(dst[0]) - ord(src[0])
    dr = int(dst[1:]) - int(src[1:])
    home = "1" if ms == 0 else "8"
    if ml in "KG" and src == "e" + home and dst in ("c" + home, "g" + home) and victim is None:
        return src + "~" + dst                         # castling
    if ml in "PFS" and victim is None and abs(df) == 1 and dr in (0, fwd):
        vsq = dst[0] + str(int(dst[1:]) - fwd)
        v = board.get(vsq)
        if v and side_of(v) != ms and letter(v) in "PFS" and v.startswith("-"):
            y = captured_identity(v, variants)
            return src + "~" + dst + ("/" + y if y != v else "")   # en passant
    text = src + ("+" if victim else "-") + dst
    m = TOKEN.match(mover)
    last = "8" if ms == 0 else "1"
    if actor is not None:
        l = PROMOTE[variants[ms]].get(actor, actor[0].upper())
        text += "=" + in_case(l, ms) + m.group(4)
    elif ml in "PFS" and variants[ms] == "ogi" and dst[1:] == last and dr != 0:
        text += "=" + in_case("T", ms) + m.group(4)    # the Ogi promotion, automatic
    if victim:
        y = captured_identity(victim, variants)
        if y != victim:
            text += "/" + y
    return text


if __name__ == "__main__":
    for line in sys.stdin:
        feen, mv = line.rstrip("\n").split("\t")
        try:
            print(to_pmn(feen, json.loads(mv)))
        except (KeyError, IndexError, AttributeError, ValueError):
            print("?")
