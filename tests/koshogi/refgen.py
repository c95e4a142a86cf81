#!/usr/bin/env python3
"""tests/koshogi/refgen.py -- a second, deliberately simple Ko shogi move generator.

Written straight from the rules (koma-games(7), KO SHOGI, every rule option at its
default but double-movers.pass, which -o may set; the tokens of koma-formats(5), GAME DEFINITIONS, Ko shogi; PMN chains of
koma-formats(5), PMN, Chains), as tests/koshogi/README.md states them as readings,
cited here by their names ("burned on arrival"), and independently of the C engine
in lib/.
It is written for obviousness, not speed: a board is a dict {(file, rank): token},
every piece's movement is spelled out below, and every move is resolved by one
function (`resolve`) that applies the rules in the order the text gives them.

  refgen.py start                    the start FEEN (built from the setup table)
  refgen.py moves FEEN               every legal move as a canonical chain, sorted
  refgen.py apply FEEN CHAIN         the FEEN after that legal move
  refgen.py perft FEEN DEPTH [--divide]
  refgen.py random SEED N            N FEENs reached by seeded, biased random play
  refgen.py -o double-movers.pass=false COMMAND ...
                                     the same under that rule option (no pass)

Coordinates: files a..s (index 0..18), ranks 1..19 from the first player's side.
A FEEN that is not a legal Ko shogi position, or an illegal chain, is reported on
stderr with exit status 1; a usage error exits 2.  Python 3 standard library only.
"""

import random
import re
import sys

SIZE = 19
FILES = "abcdefghijklmnopqrs"
FIRST, SECOND = 0, 1          # the first player (uppercase) moves towards rank 19


class KoError(Exception):
    """Bad input: not a Ko shogi position, or not a legal move."""


# ---------------------------------------------------------------------------
# Identities (Ko shogi's tokens).  A "kind" is the first player's token
# (uppercase); the second player's token is the same in lowercase.

NATIVE = [
    "K^", "M^", "B^", "D", "I", "O", "Z", "W", "G", "G'", "J", "U", "T", "T'",
    "A", "A'", "Y", "Q", "Q'", "H", "F", "E", "L", "X", "C", "N", "N'", "P",
    "P'", "S", "S'", "R", "R'", "V",
]
NEVER_PROMOTE = {"K^", "W", "E"}                       # general, wrestler, elephant
PROMOTABLE = [k for k in NATIVE if k not in NEVER_PROMOTE]
KINDS = set(NATIVE) | {"+" + k for k in PROMOTABLE}    # 34 + 31 = 65 identities
assert len(NATIVE) == 34 and len(KINDS) == 65

COMMANDING = {"K^", "M^", "+M^", "B^", "+B^"}         # commanding pieces: every ^ token
# Step movers (unpromoted) and the victims that promote them.
STEP_MOVERS = {"K^", "Z", "G", "G'", "J", "U", "M^", "D", "B^", "Y", "F", "L", "X", "S", "P"}
STEP_MOVER_VICTIMS = {"W", "+Q", "+B^", "+D"}
PRIEST_FAMILY = {"T", "T'", "+T", "+T'"}
BOWS = {"L", "X", "+L", "+X"}

# The rule options refgen plays besides the defaults (-o NAME=VALUE): only
# double-movers.pass, "true" (the default) or "false".
OPTIONS = {"double-movers.pass": "true"}


def token_for(k, side):
    return k if side == FIRST else k.lower()


# Lookup tables instead of string surgery (speed only): token -> kind, token -> side.
KIND = {token_for(k, s): k for k in KINDS for s in (FIRST, SECOND)}
SIDE = {token_for(k, s): s for k in KINDS for s in (FIRST, SECOND)}


def kind(token):
    return KIND[token] if token in KIND else token.upper()


def side_of(token):
    return SIDE[token] if token in SIDE else (FIRST if token.lstrip("+-")[0].isupper() else SECOND)


def promoted(k):
    return "+" + k


# ---------------------------------------------------------------------------
# The setup (first player; the second player is the 180-degree rotation).

ABBREV = {
    "General": "K^", "Clerk": "I", "StOff": "O", "AdC": "Z", "Wr": "W", "Aide": "G",
    "Staff": "G'", "CoS": "J", "Eng": "U", "Priest": "T", "Monk": "T'", "AG": "A",
    "MT": "M^", "Drum": "D", "Banner": "B^", "Sen": "Y", "Mil": "Q", "QM": "Q'",
    "Cent": "H", "RG": "A'", "Gatling": "F", "El": "E", "LB": "L", "XB": "X",
    "Can": "C", "Cm": "N", "Cav": "N'", "P": "P", "PU": "P'", "Sh": "S", "ShU": "S'",
    "Ch": "R", "ChU": "R'", "Vanguard": "V",
}
# rank -> the 19 points a..s ("" = empty), copied from the setup table of the sources.
SETUP_TABLE = {
    7: ["", "", "", "", "", "", "", "", "", "Vanguard", "", "", "", "", "", "", "", "", ""],
    6: ["ChU", "ShU", "Ch", "Sh", "Ch", "Sh", "Ch", "Sh", "Ch", "ShU", "Ch", "Sh", "Ch",
        "Sh", "Ch", "Sh", "Ch", "ShU", "ChU"],
    5: ["", "PU", "", "P", "", "P", "", "P", "", "PU", "", "P", "", "P", "", "P", "",
        "PU", ""],
    4: ["Cav", "", "Cm", "", "Cm", "", "Cm", "", "Cm", "", "Cm", "", "Cm", "", "Cm", "",
        "Cm", "", "Cav"],
    3: ["El", "Can", "XB", "LB", "El", "Can", "XB", "LB", "El", "Gatling", "El", "LB",
        "XB", "Can", "El", "LB", "XB", "Can", "El"],
    2: ["RG", "Cent", "", "QM", "", "Mil", "", "Sen", "Drum", "MT", "Banner", "Sen", "",
        "Mil", "", "QM", "", "Cent", "RG"],
    1: ["AG", "Monk", "Eng", "CoS", "Staff", "Aide", "Wr", "AdC", "Clerk", "General",
        "StOff", "AdC", "Wr", "Aide", "Staff", "CoS", "Eng", "Priest", "AG"],
}
# The start FEEN koma(7) prints (SUPPORTED GAMES); `start` must reproduce it from the
# table above.
START_FEEN_DOC = (
    "atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/"
    "n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/9v9/19/19/"
    "19/19/19/9V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/"
    "ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / K/k"
)


def start_board():
    board = {}
    for rank, row in SETUP_TABLE.items():
        for f, name in enumerate(row):
            if name:
                k = ABBREV[name]
                board[(f, rank)] = token_for(k, FIRST)
                board[(SIZE - 1 - f, SIZE + 1 - rank)] = token_for(k, SECOND)
    return board


def stone(k):
    """The native type of the physical stone showing identity k."""
    return k[1:] if k.startswith("+") else k


SETUP_COUNT = {}
for _t in start_board().values():
    if side_of(_t) == FIRST:
        SETUP_COUNT[kind(_t)] = SETUP_COUNT.get(kind(_t), 0) + 1
assert sum(SETUP_COUNT.values()) == 90 and len(SETUP_COUNT) == 34


# ---------------------------------------------------------------------------
# Positions and FEEN (koma-formats(5), FEEN).

class Position:
    def __init__(self, board, side, hands):
        self.board = board          # {(file, rank): token}
        self.side = side            # FIRST or SECOND: the side to move
        self.hands = hands          # [dict token->count of the first player, of the second]


def cell(sq):
    return FILES[sq[0]] + str(sq[1])


def square_key(sq):
    """Ascending CELL order, rank-major from a1 (canonical chains)."""
    return (sq[1], sq[0])


TOKEN_RE = r"[+-]?[A-Za-z]\^?'?"


def hand_key(token, count):
    """Canonical hand order of koma-formats(5), FEEN, Hands."""
    state = {"-": 0, "+": 1}.get(token[0], 2)
    letter = token.lstrip("+-")[0]
    return (-count, letter.upper(), 0 if letter.isupper() else 1, state,
            1 if "^" in token else 0, 1 if "'" in token else 0)


def parse_hand(text):
    items = []
    pos = 0
    while pos < len(text):
        m = re.compile(r"([1-9][0-9]*)?(" + TOKEN_RE + ")").match(text, pos)
        if not m:
            raise KoError("invalid hand item at %r" % text[pos:])
        count = int(m.group(1)) if m.group(1) else 1
        if m.group(1) and count < 2:
            raise KoError("hand count 1 is written without a number: %r" % m.group(0))
        items.append((m.group(2), count))
        pos = m.end()
    hand = {}
    for token, count in items:
        if kind(token) not in KINDS:
            raise KoError("%r in a hand is not a Ko shogi piece" % token)
        if token in hand:
            raise KoError("hand items not aggregated: %r" % token)
        hand[token] = count
    keys = [hand_key(t, c) for t, c in items]
    if keys != sorted(keys):
        raise KoError("hand items not in canonical order: %r" % text)
    return hand


def parse_feen(text):
    fields = text.split(" ")
    if len(fields) != 3 or not all(fields):
        raise KoError("a FEEN has three fields separated by single spaces")
    placement, hands_text, turn = fields
    if turn == "K/k":
        side = FIRST
    elif turn == "k/K":
        side = SECOND
    else:
        raise KoError("style-turn must be K/k or k/K for Ko shogi, not %r" % turn)
    rows = placement.split("/")
    if len(rows) != SIZE:
        raise KoError("Ko shogi has 19 ranks, this FEEN has %d" % len(rows))
    board = {}
    for i, row in enumerate(rows):
        rank = SIZE - i
        if re.fullmatch(r"(?:[1-9][0-9]*|" + TOKEN_RE + ")+", row) is None:
            raise KoError("rank %d: malformed %r" % (rank, row))
        f = 0
        for m in re.finditer(r"([1-9][0-9]*)|(" + TOKEN_RE + ")", row):
            if m.group(1):
                f += int(m.group(1))
                continue
            token = m.group(2)
            if kind(token) not in KINDS:
                raise KoError("rank %d: %r is not a Ko shogi piece" % (rank, token))
            if f < SIZE:
                board[(f, rank)] = token
            f += 1
        if f != SIZE:
            raise KoError("rank %d has %d points, not 19" % (rank, f))
    if hands_text.count("/") != 1:
        raise KoError("the hands field needs exactly one '/'")
    h1, h2 = hands_text.split("/")
    hands = [parse_hand(h1), parse_hand(h2)]
    # Choice (open in the documents): a legal Ko shogi position has per side no more
    # stones of a native type than the setup (board + both hands; a token counts for the
    # side its case names, a promoted piece for its native type).  No general is legal
    # (such a position is terminal: survival).
    counts = [{}, {}]
    for token in list(board.values()):
        s = counts[side_of(token)]
        s[stone(kind(token))] = s.get(stone(kind(token)), 0) + 1
    for hand in hands:
        for token, c in hand.items():
            s = counts[side_of(token)]
            s[stone(kind(token))] = s.get(stone(kind(token)), 0) + c
    for s in (FIRST, SECOND):
        for k, c in counts[s].items():
            if c > SETUP_COUNT[k]:
                raise KoError("%s has %d stones %s, the setup has only %d"
                              % (("first player", "second player")[s], c,
                                 token_for(k, s), SETUP_COUNT[k]))
    return Position(board, side, hands)


def write_hand(hand):
    items = sorted(hand.items(), key=lambda tc: hand_key(tc[0], tc[1]))
    return "".join((str(c) if c > 1 else "") + t for t, c in items)


def write_feen(pos):
    rows = []
    for rank in range(SIZE, 0, -1):
        row, empty = "", 0
        for f in range(SIZE):
            token = pos.board.get((f, rank))
            if token is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += token
        if empty:
            row += str(empty)
        rows.append(row)
    turn = "K/k" if pos.side == FIRST else "k/K"
    return "/".join(rows) + " " + write_hand(pos.hands[0]) + "/" + write_hand(pos.hands[1]) + " " + turn


# ---------------------------------------------------------------------------
# Directions, in the mover's frame: (df, dr) with dr > 0 towards the opponent.

W = [(0, 1), (0, -1), (1, 0), (-1, 0)]           # orthogonal step
F = [(1, 1), (-1, 1), (1, -1), (-1, -1)]         # diagonal step
K = W + F
fW, bW, sW = [(0, 1)], [(0, -1)], [(1, 0), (-1, 0)]
vW = fW + bW
fF, bF = [(1, 1), (-1, 1)], [(1, -1), (-1, -1)]
DAB = [(2 * a, 2 * b) for a, b in W]             # jump to the 2nd point orthogonally
ALF = [(2 * a, 2 * b) for a, b in F]             # jump to the 2nd point diagonally
N = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1)]

# Each piece's move as a list of parts (double movers, promoted natives, non-capturing
# movers):
#   ("leap", offsets)        step or jump to one point: empty, or an enemy captured
#   ("slide", dirs, limit)   range along a line (limit None = unlimited), capture stops it
#   ("mleap", offsets) / ("mslide", dirs, limit)   the same but never capturing
#   ("pawn",)                orthogonal step, forward only while the own drum lives (pawn and drum)
#   ("double", offsets, second)   two-leg mover (double movers); second(o1) = allowed second legs
#   ("priest", jumps)        priest family: 1 or 2 jumps with an adjacent shot after each
#   ("thunderclap",) / ("roaming",)   thunderclap / roaming assault
# Shooters move without capturing, then shoot (SHOOTERS below; shooting).


def second_any(offsets):
    return lambda o1: offsets


def second_cavalry(o1):
    """Cavalry / promoted cavalryman: the second leap keeps the first one's orthogonal
    heading (the direction of its long component), or goes straight back."""
    def heading(o):
        a, b = o
        return (0, 1 if b > 0 else -1) if abs(b) > abs(a) else (1 if a > 0 else -1, 0)
    return [o for o in N if heading(o) == heading(o1)] + [(-o1[0], -o1[1])]


def second_straight(o1):
    """War hawk: straight on, or straight back to the origin (`straight`)."""
    return [o1, (-o1[0], -o1[1])]


WRESTLER = ("double", K, second_any(K))
CAVALRY = ("double", N, second_cavalry)

MOVES = {
    "K^": [("leap", K)],                                    # general
    "M^": [("leap", K)],                                    # middle troop
    "+M^": [("leap", K)],                                   # governor
    "I": [("leap", F + DAB)],                               # clerk (kirin)
    "+I": [("double", F + DAB, second_any(F + DAB))],       # master at arms
    "O": [("leap", W + ALF)],                               # staff officer (phoenix)
    "+O": [("double", W + ALF, second_any(W + ALF))],       # banner and drums
    "Z": [("leap", F + fW + sW)],                           # aide de camp (drunk elephant)
    "+Z": [("slide", W, None), ("leap", F)],                # moves as quartermaster
    "W": [WRESTLER],                                        # sumo wrestler
    "G": [("leap", W + fF)],                                # aide (gold)
    "+G": [("leap", K), ("slide", vW, None)],               # town brigade
    "G'": [("leap", F + fW)],                               # staff (silver)
    "+G'": [("leap", K), ("slide", sW, None)],              # village brigade
    "J": [("leap", F + vW)],                                # chief of staff (leopard)
    "+J": [("slide", F + fW, None)],                        # vice commander
    "U": [("leap", vW + fF)],                               # engineer (copper)
    "+U": [("leap", vW + fF)],                              # poison flame (+ burning)
    "T": [("priest", 1)],                                   # Taoist priest
    "T'": [("priest", 1)],                                  # spiritual monk
    "+T": [("priest", 2)],                                  # five-li fog
    "+T'": [("priest", 2)],                                 # immaculate light
    "A": [("slide", fW, None), ("leap", bW)],               # advance guard
    "+A": [("slide", fF + sW, None), ("leap", bW)],         # heaven's vengeance
    "A'": [("slide", bW, None), ("leap", fW)],              # rear guard
    "+A'": [("slide", bF + sW, None), ("leap", fW)],        # earth's vengeance
    "D": [("leap", F + sW)],                                # drum
    "+D": [("thunderclap",)],                               # thunderclap
    "B^": [("leap", F + sW)],                               # banner
    "+B^": [("roaming",)],                                  # roaming assault
    "Y": [("leap", F + bW + sW)],                           # sentry (blind tiger)
    "+Y": [("slide", F, None), ("leap", W)],                # moves as centuria
    "Q": [("slide", K, None)],                              # millenary (queen)
    "+Q": [("slide", K, None), WRESTLER],                   # dragon ascending
    "Q'": [("slide", W, None), ("leap", F)],                # quartermaster (dragon king)
    "+Q'": [("slide", W, None), ("double", F, second_any(F))],   # tiger wing
    "H": [("slide", F, None), ("leap", W)],                 # centuria (dragon horse)
    "+H": [("slide", F, None), ("double", W, second_straight)],  # war hawk
    "F": [("mleap", F)],                                    # gatling gun (+ 2 shots)
    "+F": [("mslide", W, 5)],                               # chariot of the gods (+ 2 shots)
    "E": [("slide", F, None)],                              # elephant (bishop)
    "L": [("mleap", F)],                                    # long bow (+ shot 3)
    "+L": [("mleap", N)],                                   # longbow cavalryman
    "X": [("mleap", F)],                                    # crossbow (+ shot 5)
    "+X": [("mleap", N)],                                   # crossbow cavalryman
    "C": [("mleap", F)],                                    # cannon (+ unblocked shot 5)
    "+C": [("mslide", W, 5)],                               # gun carriage
    "N": [("leap", N)],                                     # cavalryman (knight)
    "+N": [CAVALRY],                                        # moves as cavalry
    "N'": [CAVALRY],                                        # cavalry
    "+N'": [("double", N, second_any(N))],                  # winged horse
    "P": [("pawn",)],                                       # pawn
    "+P": [("slide", vW, None), ("leap", sW)],              # moves as patrol unit
    "P'": [("slide", vW, None), ("leap", sW)],              # patrol unit (vertical mover)
    "+P'": [("slide", F + vW, None)],                       # commissar (flying ox)
    "S": [("leap", F)],                                     # shield
    "+S": [("slide", sW, None), ("leap", F)],               # moves as shield unit
    "S'": [("slide", sW, None), ("leap", F)],               # shield unit
    "+S'": [("slide", F + sW, None)],                       # imperial base (free boar)
    "R": [("slide", W, 5)],                                 # chariot
    "+R": [("slide", W, None)],                             # moves as chariot unit
    "R'": [("slide", W, None)],                             # chariot unit (rook)
    "+R'": [("slide", K, None)],                            # moves as millenary
    "V": [("slide", fW, 5)],                                # vanguard
    "+V": [("slide", F + vW, None)],                        # commissar
}
assert set(MOVES) == KINDS

# kind -> (range, blocked, number of shots): shooting, shot range
SHOOTERS = {
    "L": (3, True, 1), "+L": (3, True, 1),
    "X": (5, True, 1), "+X": (5, True, 1),
    "C": (5, False, 1), "+C": (5, False, 1),
    "F": (7, True, 2), "+F": (7, True, 2),
}


def shot_immune(shooter, target, distance):
    """The immunity table (immunities, promoted natives)."""
    if target == "S":
        return shooter in BOWS
    if target in ("S'", "+S"):
        return shooter in BOWS | {"C", "F"}
    if target == "+S'":
        return shooter in BOWS | {"C", "+C", "F", "+F"}
    if target in ("R", "R'", "+R", "+C"):
        return shooter in BOWS
    if target == "+T":        # the fog (not the light): only the gatling family, from 6 or 7
        return not (shooter in ("F", "+F") and distance >= 6)
    return False


def can_displace(actor, target):
    """Displacement immunity: the imperial base cannot be taken by R, R', +R (immunities)."""
    return not (target == "+S'" and actor in ("R", "R'", "+R"))


# ---------------------------------------------------------------------------
# Small board helpers.

def on_board(sq):
    return 0 <= sq[0] < SIZE and 1 <= sq[1] <= SIZE


def step(sq, d, side, times=1):
    """The point `times` steps from sq in direction d of side's frame."""
    fwd = 1 if side == FIRST else -1
    return (sq[0] + d[0] * times, sq[1] + d[1] * fwd * times)


def neighbours(sq):
    return [n for n in (step(sq, d, FIRST) for d in K) if on_board(n)]


def in_zone(sq, side):
    """The promotion zone: the six farthest ranks."""
    return sq[1] >= 14 if side == FIRST else sq[1] <= 6


def pieces_of(board, side):
    return [(sq, t) for sq, t in board.items() if side_of(t) == side]


def has_any(board, side, kinds):
    """Whether side has a piece of one of these kinds on the board."""
    present = set(board.values())
    return any(token_for(k, side) in present for k in kinds)


def survives(board, side):
    """Survival: a side survives iff it has the general, or the governor, or the middle
    troop together with the banner (or the roaming assault)."""
    return (has_any(board, side, ["K^", "+M^"])
            or (has_any(board, side, ["M^"]) and has_any(board, side, ["B^", "+B^"])))


def has_priest(board, side):
    """Priest loss: a side has its priest iff T or +T stands on the board (the monk does not count)."""
    return has_any(board, side, ["T", "+T"])


def has_drum(board, side):
    """Pawn and drum: pawns step forward while the side has D or +D on the board."""
    return has_any(board, side, ["D", "+D"])


# ---------------------------------------------------------------------------
# Candidate moves.  A candidate is (origin, final, removed): the actor goes from origin
# to final (equal for igui and passes) and `removed` is the frozenset of points whose
# enemy pieces the actor itself took (displacement on any leg, or shots).  `resolve`
# then applies promotion, burns, cascades and reversions.

def leaps(board, sq, side, offsets, capture=True):
    actor = kind(board[sq])
    out = []
    for o in offsets:
        to = step(sq, o, side)
        if not on_board(to):
            continue
        target = board.get(to)
        if target is None:
            out.append((sq, to, frozenset()))
        elif capture and side_of(target) != side and can_displace(actor, kind(target)):
            out.append((sq, to, frozenset([to])))
    return out


def slides(board, sq, side, dirs, limit, capture=True):
    actor = kind(board[sq])
    out = []
    for d in dirs:
        n = 1
        while limit is None or n <= limit:
            to = step(sq, d, side, n)
            if not on_board(to):
                break
            target = board.get(to)
            if target is None:
                out.append((sq, to, frozenset()))
            else:
                if capture and side_of(target) != side and can_displace(actor, kind(target)):
                    out.append((sq, to, frozenset([to])))
                break
            n += 1
    return out


def pawn_moves(board, sq, side):
    dirs = W if has_drum(board, side) else bW + sW
    return leaps(board, sq, side, dirs)


def double_moves(board, sq, side, firsts, second):
    """Double movers: the first landing is empty or an enemy (captured), never friendly; an
    optional second leg from there lands on an empty point, an enemy (captured) or the
    origin (igui, or a pass when nothing was taken).  Legs are single points."""
    actor = kind(board[sq])
    out = []

    def enterable(to):
        if not on_board(to):
            return False
        t = board.get(to)
        return t is None or (side_of(t) != side and can_displace(actor, kind(t)))

    for o1 in firsts:
        p1 = step(sq, o1, side)
        if not enterable(p1):
            continue
        took1 = {p1} if board.get(p1) else set()
        out.append((sq, p1, frozenset(took1)))
        for o2 in second(o1):
            p2 = step(p1, o2, side)
            if p2 == sq:
                out.append((sq, sq, frozenset(took1)))
            elif enterable(p2):
                took2 = {p2} if board.get(p2) else set()
                out.append((sq, p2, frozenset(took1 | took2)))
    return out


def shot_targets(board, shooter, side, frm, rng, blocked):
    """Enemies `shooter` (a kind) standing on frm may shoot (shooting, shot range, immunities)."""
    out = []
    for d in K:
        for n in range(1, rng + 1):
            p = step(frm, d, side, n)
            if not on_board(p):
                break
            t = board.get(p)
            if t is None:
                continue
            if side_of(t) != side and not shot_immune(shooter, kind(t), n):
                out.append(p)
            if blocked:
                break            # an immune piece, or a friend, blocks too
    return out


def moved(board, frm, to):
    b = dict(board)
    b[to] = b.pop(frm)
    return b


def shooter_moves(board, sq, side):
    """Shooting: a shooter makes its non-capturing move, then shoots 0..1 times (gatling
    family 0..2 times; the second target is chosen after the first is removed)."""
    k = kind(board[sq])
    rng, blocked, shots = SHOOTERS[k]
    out = []
    for _, to, _ in plain_moves(board, sq, side, MOVES[k]):
        b = moved(board, sq, to)
        out.append((sq, to, frozenset()))
        for t1 in shot_targets(b, k, side, to, rng, blocked):
            out.append((sq, to, frozenset([t1])))
            if shots == 2:
                b2 = dict(b)
                del b2[t1]
                for t2 in shot_targets(b2, k, side, to, rng, blocked):
                    out.append((sq, to, frozenset([t1, t2])))
    return out


def priest_moves(board, sq, side, jumps):
    """Priest jumps: priest / monk: one jump to the 2nd point in any of 8 directions, leaping,
    onto an empty point or an enemy of the priest family (captured); then an optional
    shot at one adjacent enemy.  Fog / light: one or two such jumps, a shot allowed after
    each; the second jump may return to the origin."""
    k = kind(board[sq])
    out = []

    def jump_then_shoot(b, frm, took, jumps_left):
        for d in K:
            to = step(frm, d, side, 2)
            if not on_board(to):
                continue
            t = b.get(to)
            if t is not None and not (side_of(t) != side and kind(t) in PRIEST_FAMILY):
                continue
            b1 = moved(b, frm, to)
            took1 = took | ({to} if t is not None else set())
            for shot in [None] + shot_targets(b1, k, side, to, 1, True):
                b2 = dict(b1)
                took2 = set(took1)
                if shot is not None:
                    del b2[shot]
                    took2.add(shot)
                out.append((sq, to, frozenset(took2)))
                if jumps_left > 1:
                    jump_then_shoot(b2, to, took2, jumps_left - 1)

    jump_then_shoot(board, sq, set(), jumps)
    return out


def thunderclap_moves(board, sq, side):
    """Thunderclap: exactly five orthogonal steps, each onto an empty point or an enemy
    (captured), never revisiting a point (the origin included)."""
    actor = kind(board[sq])
    out = []

    def walk(at, visited, took, steps_done):
        if steps_done == 5:
            out.append((sq, at, frozenset(took)))
            return
        for d in W:
            to = step(at, d, side)
            if not on_board(to) or to in visited:
                continue
            t = board.get(to)
            if t is not None and (side_of(t) == side or not can_displace(actor, kind(t))):
                continue
            walk(to, visited | {to}, took | ({to} if t is not None else set()), steps_done + 1)

    walk(sq, {sq}, set(), 0)
    return out


def roaming_moves(board, sq, side):
    """Roaming assault: 1..5 steps along one orthogonal line, taking every enemy on the way,
    stopped before a friendly piece; it may stop on any point of the path."""
    actor = kind(board[sq])
    out = []
    for d in W:
        took = set()
        for n in range(1, 6):
            to = step(sq, d, side, n)
            if not on_board(to):
                break
            t = board.get(to)
            if t is not None:
                if side_of(t) == side or not can_displace(actor, kind(t)):
                    break
                took.add(to)
            out.append((sq, to, frozenset(took)))
    return out


def plain_moves(board, sq, side, parts):
    out = []
    for part in parts:
        what = part[0]
        if what == "leap":
            out += leaps(board, sq, side, part[1])
        elif what == "mleap":
            out += leaps(board, sq, side, part[1], capture=False)
        elif what == "slide":
            out += slides(board, sq, side, part[1], part[2])
        elif what == "mslide":
            out += slides(board, sq, side, part[1], part[2], capture=False)
        elif what == "pawn":
            out += pawn_moves(board, sq, side)
        elif what == "double":
            out += double_moves(board, sq, side, part[1], part[2])
        elif what == "priest":
            out += priest_moves(board, sq, side, part[1])
        elif what == "thunderclap":
            out += thunderclap_moves(board, sq, side)
        elif what == "roaming":
            out += roaming_moves(board, sq, side)
        else:
            raise AssertionError(what)
    return out


def candidates(board, sq, side):
    k = kind(board[sq])
    if k in SHOOTERS:
        return shooter_moves(board, sq, side)
    return plain_moves(board, sq, side, MOVES[k])


# ---------------------------------------------------------------------------
# Resolving a candidate: everything that happens after the actor has moved.

def promotion_choices(board, side, origin, final, actor, victims):
    """The actor's possible final identities (zone promotion, capture promotion, step
    movers, priest loss, clerk)."""
    if actor not in PROMOTABLE:                     # already promoted, or never promotes
        return [actor]
    if actor in ("D", "B^") and not has_priest(board, side):    # priest loss
        return [actor]
    for v in victims:                               # forced capture promotion
        if (v in COMMANDING
                or (actor in STEP_MOVERS and v in STEP_MOVER_VICTIMS)
                or (actor == "N" and v == "F")):
            return [promoted(actor)]
    if in_zone(origin, side) or in_zone(final, side):            # zone promotion: optional
        if actor == "I":                            # clerk: all own guards in the zone
            guards = [sq for sq, t in pieces_of(board, side)
                      if kind(t) in ("A", "A'", "+A", "+A'")]
            if not all(in_zone(g, side) for g in guards):
                return [actor]
        return [actor, promoted(actor)]
    return [actor]


def after_every_move(board):
    """Priest loss, then fog reversion; both sides.  Choice: in a hand-made
    position a +D/+B^ without priest, or a fog already near a light, moves as what it
    is and reverts here, after its move."""
    for s in (FIRST, SECOND):
        if has_any(board, s, ["+D", "+B^"]) and not has_priest(board, s):
            for sq, t in pieces_of(board, s):
                if kind(t) in ("+D", "+B^"):
                    board[sq] = token_for(kind(t)[1:], s)
    if not (has_any(board, FIRST, ["+T"]) or has_any(board, SECOND, ["+T"])):
        return
    fogs = [sq for sq, t in board.items() if kind(t) == "+T"]
    lights = [sq for sq, t in board.items() if kind(t) == "+T'"]
    for fog in fogs:
        for light in lights:
            df, dr = light[0] - fog[0], light[1] - fog[1]
            on_line = df == 0 or dr == 0 or abs(df) == abs(dr)
            if on_line and max(abs(df), abs(dr)) <= 5:
                board[fog] = token_for("T", side_of(board[fog]))
                break


def canonical_chain(before, after, origin, final, survived):
    """Canonical chains: displacement first (`a+b` iff b held an enemy, `=X` iff the surviving
    actor changed), then every other removal `+c`, then every other identity change
    `c=X`, each group in ascending CELL order; `...` when nothing changed."""
    # The final point can only have been emptied by the actor landing there (a shot
    # never hits the final point: shooters do not move after shooting, and a fog's
    # second jump lands 2 points from the first landing, its shot 1 point away), so
    # "b held an enemy" is "b was occupied before the move".
    elements = []
    skip = {origin}
    if final != origin:
        skip.add(final)
        head = cell(origin) + ("+" if final in before else "-") + cell(final)
        if survived and after[final] != before[origin]:
            head += "=" + after[final]
        elements.append(head)
    if final == origin:
        skip = set()                     # the actor's own identity change is in group 3
    differ = [sq for sq, t in before.items() if after.get(sq) != t and sq not in skip]
    removals = [sq for sq in differ if sq not in after]
    if final != origin and not survived:
        removals.append(final)           # the actor burned on arrival
    for sq in sorted(removals, key=square_key):
        elements.append("+" + cell(sq))
    changes = [sq for sq in differ if sq in after]
    for sq in sorted(changes, key=square_key):
        elements.append(cell(sq) + "=" + after[sq])
    return ",".join(elements) if elements else "..."


def resolve(pos, origin, final, removed):
    """All results (chain, next position) of one candidate: one, or two when the
    promotion is optional.  Order (a choice where the text is silent): the actor's
    captures, the flame's burn, burned on arrival, promotion with the clerk's cascade,
    then the priest-loss and fog reversions.  So a clerk burned on arrival never
    promotes and never triggers its cascade (burned on arrival: "so it is not promoted"),
    and a burned actor enters the hand with its token from before the move."""
    before = pos.board
    side = pos.side
    enemy = 1 - side
    actor_token = before[origin]
    actor = kind(actor_token)
    b = dict(before)
    taken = []                                  # tokens for the mover's hand (inert hands)
    victims = []
    for sq in removed:
        victims.append(kind(b[sq]))
        taken.append(b.pop(sq))
    del b[origin]
    b[final] = actor_token
    if actor == "+U":                           # burning: the flame burns where it lands
        for n in neighbours(final):
            t = b.get(n)
            if t is not None and side_of(t) == enemy:
                taken.append(b.pop(n))
    survived = True
    if final != origin:                         # burned on arrival
        if any(b.get(n) is not None and side_of(b[n]) == enemy and kind(b[n]) == "+U"
               for n in neighbours(final)):
            taken.append(b.pop(final))
            survived = False
    choices = promotion_choices(b, side, origin, final, actor, victims) if survived else [None]
    results = []
    for choice in choices:
        after = dict(b)
        hand_add = list(taken)
        if choice is not None and choice != actor:
            after[final] = token_for(choice, side)
            if actor == "I":                    # the clerk's cascade
                for sq, t in pieces_of(after, side):
                    if kind(t) in ("A", "A'"):
                        after[sq] = token_for("+" + kind(t), side)
                for sq, t in pieces_of(after, enemy):
                    if kind(t) == "+U":
                        hand_add.append(after.pop(sq))
        after_every_move(after)
        chain = canonical_chain(before, after, origin, final, survived)
        hands = [dict(pos.hands[0]), dict(pos.hands[1])]
        for t in hand_add:
            hands[side][t] = hands[side].get(t, 0) + 1
        results.append((chain, Position(after, enemy, hands)))
    return results


def is_terminal(pos):
    """Survival: a position where either side fails the survival test has no moves."""
    return not (survives(pos.board, FIRST) and survives(pos.board, SECOND))


def legal_moves(pos):
    """{canonical chain: next position} for the side to move.  Moves with identical
    chains have identical effects and are one move (canonical chains)."""
    if is_terminal(pos):
        return {}
    moves = {}
    passes = OPTIONS["double-movers.pass"] == "true"
    for sq, t in sorted(pieces_of(pos.board, pos.side)):
        for origin, final, removed in candidates(pos.board, sq, pos.side):
            if final == origin and not removed and not passes:
                # double movers, double-movers.pass false: back on the origin having
                # taken nothing is a pass, which is no move, whatever follows from it
                # (a promotion in place in the zone)
                continue
            for chain, nxt in resolve(pos, origin, final, removed):
                if chain in moves:
                    # Same chain, same effects: a check that the chain is canonical.
                    assert moves[chain].board == nxt.board, chain
                else:
                    moves[chain] = nxt
    return moves


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(nxt, depth - 1) for nxt in moves.values())


# ---------------------------------------------------------------------------
# Seeded random play for cross-checks.

DOUBLE_MOVERS = {"W", "+Q", "+Q'", "+H", "N'", "+N", "+N'", "+I", "+O", "+T", "+T'"}


def features(pos):
    """Which features a position shows (for `random`): "flame" (a poison flame on the
    board), "double" (a double mover with an enemy one first leg away), "shooter" (a
    shooter of the side to move with a shot among its moves), "promotable" (an
    unpromoted promotable piece in its zone or within two ranks of it)."""
    board = pos.board
    found = set()
    if any(kind(t) == "+U" for t in board.values()):
        found.add("flame")
    for sq, t in board.items():
        k = kind(t)
        s = side_of(t)
        if k in DOUBLE_MOVERS:
            reach = N if k in ("N'", "+N", "+N'") else K
            if any(on_board(step(sq, o, s)) and board.get(step(sq, o, s)) is not None
                   and side_of(board[step(sq, o, s)]) != s for o in reach):
                found.add("double")
        if k in SHOOTERS and s == pos.side:
            for _, _, removed in shooter_moves(board, sq, s):
                if removed:
                    found.add("shooter")
                    break
        if k in PROMOTABLE:
            near = sq[1] >= 12 if s == FIRST else sq[1] <= 8
            if near:
                found.add("promotable")
    return found


def random_positions(seed, count):
    """`count` distinct positions from seeded random games.  The play is biased: moves
    that promote or capture are preferred, pieces advance, and each game favours the
    engineers (so that poison flames appear) and two other kinds of piece (shooters,
    double movers ...).  A position (every third ply from ply 20 on) is kept when it
    shows all four features of `features` (at most 10 per game), or, with a small
    probability, the three others without a poison flame (at most 3 per game)."""
    rng = random.Random(seed)
    out, seen = [], set()
    favourites = ["F", "L", "X", "C", "W", "N'", "I", "O", "Q", "Q'", "H", "T", "T'", "D", "B^"]
    while len(out) < count:
        pos = Position(start_board(), FIRST, [{}, {}])
        favour = {"U"} | set(rng.sample(favourites, 2))
        kept = {True: 0, False: 0}          # with a flame / without
        for ply in range(500):
            moves = legal_moves(pos)
            if not moves:
                break
            if ply >= 20 and ply % 3 == 0:
                feats = features(pos)
                flame = "flame" in feats
                if ((flame and len(feats) == 4 and kept[True] < 10)
                        or (not flame and len(feats) == 3 and kept[False] < 3
                            and rng.random() < 0.1)):
                    feen = write_feen(pos)
                    if feen not in seen:
                        seen.add(feen)
                        out.append(feen)
                        kept[flame] += 1
                        if len(out) == count:
                            break
            chains = sorted(moves)
            weights = []
            for chain in chains:
                w = 1.0
                if "=" in chain:
                    w += 30
                if "+" in chain:
                    w += 8
                m = re.match(r"([a-s])([0-9]+)[-+]([a-s])([0-9]+)", chain)
                if m:
                    frm = (FILES.index(m.group(1)), int(m.group(2)))
                    to = (FILES.index(m.group(3)), int(m.group(4)))
                    gain = (to[1] - frm[1]) * (1 if pos.side == FIRST else -1)
                    if gain > 0:
                        w += 3 * gain
                        if kind(pos.board[frm]).lstrip("+") in favour:
                            w += 100
                weights.append(w)
            pos = moves[rng.choices(chains, weights)[0]]
    return out


# ---------------------------------------------------------------------------
# Command line.

def main(argv):
    usage = ("usage: refgen.py [-o double-movers.pass=true|false] start | moves FEEN |"
             " apply FEEN CHAIN | perft FEEN DEPTH [--divide] | random SEED N")
    while len(argv) >= 2 and argv[0] == "-o":
        name, _, value = argv[1].partition("=")
        if name not in OPTIONS or value not in ("true", "false"):
            print("refgen.py: unsupported rule option %r" % argv[1], file=sys.stderr)
            return 2
        OPTIONS[name] = value
        argv = argv[2:]
    if not argv:
        print(usage, file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    try:
        if cmd == "start" and not args:
            print(write_feen(Position(start_board(), FIRST, [{}, {}])))
        elif cmd == "moves" and len(args) == 1:
            for chain in sorted(legal_moves(parse_feen(args[0]))):
                print(chain)
        elif cmd == "apply" and len(args) == 2:
            moves = legal_moves(parse_feen(args[0]))
            if args[1] not in moves:        # canonical chains only (no leg forms)
                raise KoError("%r is not a legal move (canonical chain) here" % args[1])
            print(write_feen(moves[args[1]]))
        elif cmd == "perft" and len(args) in (2, 3):
            divide = "--divide" in args
            rest = [a for a in args if a != "--divide"]
            if len(rest) != 2 or not rest[1].isdigit():
                print(usage, file=sys.stderr)
                return 2
            pos, depth = parse_feen(rest[0]), int(rest[1])
            if divide:
                total = 0
                moves = legal_moves(pos) if depth > 0 else {}
                for chain in sorted(moves):
                    n = perft(moves[chain], depth - 1)
                    total += n
                    print("%s: %d" % (chain, n))
                if depth == 0:
                    total = 1
                print("Nodes searched: %d" % total)
            else:
                print(perft(pos, depth))
        elif cmd == "random" and len(args) == 2 and all(a.isdigit() for a in args):
            for feen in random_positions(int(args[0]), int(args[1])):
                print(feen)
        else:
            print(usage, file=sys.stderr)
            return 2
    except KoError as e:
        print("refgen.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
