"""The GIL is released around the long calls (perft, reading and judging a
database): another thread runs meanwhile, and threads judging databases at the
same time give the verdicts one thread gives."""
import threading

import pytest

import koma

DB = ["tests/data/replay/shogi.jsonl", "tests/data/replay/ogi.jsonl", "tests/data/replay/okisaki.jsonl",
      "tests/data/koshogi/games.jsonl"]


def ticks_during(work):
    """How often the main thread ran Python code while work ran in a thread."""
    done = threading.Event()
    result = []

    def run():
        result.append(work())
        done.set()

    t = threading.Thread(target=run)
    ticks = 0
    t.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.001)
    t.join()
    return ticks, result[0]


def test_perft_releases_the_gil():
    p = koma.Position.start("shogi")
    ticks, nodes = ticks_during(lambda: p.perft(5))
    assert nodes == 19861490
    # a few tenths of a second of perft: the main thread ran all along, not once
    assert ticks > 20


def test_a_position_in_use_elsewhere():
    p = koma.Position.start("shogi")
    started = threading.Event()
    errors = []

    def deep():
        started.set()
        p.perft(5)

    t = threading.Thread(target=deep)
    t.start()
    started.wait()
    for _ in range(200):
        try:
            p.legal_moves()
        except RuntimeError as e:
            errors.append(e)
            break
        threading.Event().wait(0.001)
    t.join()
    assert errors, "the engine in use by perft was not refused to a second thread"
    assert len(p.legal_moves()) == 30


def test_threads_judge_as_one():
    want = {path: [v.as_dict() for v in koma.replay(path, errors="skip")] for path in DB}
    got = {}

    def judge(path):
        got[path] = [v.as_dict() for v in koma.replay(path, errors="skip")]

    threads = [threading.Thread(target=judge, args=(p,)) for p in DB * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


def test_reading_releases_the_gil():
    data = open("tests/data/replay/shogi.jsonl", "rb").read() * 40
    ticks, n = ticks_during(lambda: sum(1 for _ in koma.replay(data, errors="skip")))
    assert n > 0 and ticks > 1
