"""Positions: FEEN, FID, SFEN, legal moves, a move made, perft, against the tools."""
import pytest

import koma
from conftest import tool

SHOGI = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"


def test_start_and_repr():
    p = koma.Position.start("shogi")
    assert p.feen == SHOGI and str(p) == SHOGI
    assert repr(p) == "Position(%r)" % SHOGI
    assert p.game == "shogi" and p.turn == "first" and not p.in_check and p.ending is None
    assert p == koma.Position(SHOGI) and hash(p) == hash(koma.Position(SHOGI))
    assert set(koma.games()) >= {"ogi", "shogi", "minishogi", "okisaki", "koshogi"}


@pytest.mark.parametrize("game", ["ogi", "shogi", "minishogi", "okisaki"])
def test_fid_as_the_tools(game):
    p = koma.Position.start(game)
    status, out, _ = tool("koma-validate", "--print-fid", stdin=(p.feen + "\n").encode())
    assert status == 0 and out.strip() == p.fid


def test_sfen_both_ways():
    p = koma.Position.start("shogi")
    assert p.sfen == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert koma.Position.from_sfen(p.sfen) == p
    q = p.play("g3-g4")
    status, out, _ = tool("koma-convert", "--to", "sfen", stdin=(q.feen + "\n").encode())
    assert status == 0 and out.strip() == q.sfen


def test_legal_moves_and_play():
    p = koma.Position.start("shogi")
    moves = p.legal_moves()
    assert len(moves) == 30 == p.perft(1) and moves == sorted(moves)
    q = p.play(moves[0])
    assert q.turn == "second" and q != p and p.feen == SHOGI   # p unchanged
    with pytest.raises(koma.Error) as e:
        p.play("e1-e5")
    assert e.value.code.startswith("rules.")
    with pytest.raises(koma.Error) as e:
        p.play("nonsense")
    assert e.value.code.startswith("pmn.")


@pytest.mark.parametrize("game,depth", [("shogi", 3), ("ogi", 3), ("minishogi", 4), ("okisaki", 2)])
def test_perft_as_koma_perft(game, depth):
    status, out, _ = tool("koma-perft", "--game", game, "--depth", str(depth))
    assert status == 0
    assert koma.perft(game, depth) == int(out.split()[0])
    divided = koma.Position.start(game).perft(depth, divide=True)
    assert sum(divided.values()) == int(out.split()[0])
    assert sorted(divided) == sorted(koma.Position.start(game).legal_moves())


def test_ending_and_check():
    # a position decided: the first player's king in the second's hand
    mate = koma.Position("4k^4/9/9/9/9/9/9/9/9 K^/ S/s")
    assert mate.ending is not None and mate.ending[0] == "mareking"
    assert mate.legal_moves() == []


def test_bad_positions():
    with pytest.raises(koma.Error) as e:
        koma.Position("lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSN / S/s")
    assert e.value.code.startswith("feen.") or e.value.code.startswith("rules.")
    with pytest.raises(koma.Error) as e:
        koma.Position.start("chess")
    assert e.value.code == "game.unknown"
    with pytest.raises(koma.Error):
        koma.Position.from_sfen("not an sfen")
