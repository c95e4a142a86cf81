"""The GIL is released around the long calls (perft, reading and judging a
database): another thread runs meanwhile, and threads judging databases at the
same time give the verdicts one thread gives."""
import sys
import threading
import time

import pytest

import koma

DB = ["tests/data/replay/shogi.jsonl", "tests/data/replay/ogi.jsonl", "tests/data/replay/okisaki.jsonl",
      "tests/data/koshogi/games.jsonl"]


def repeat_beside(work, enough, cap=30.0):
    """Run work() over and over in a thread until enough() holds (or cap seconds
    have passed), while the main thread counts how often it runs; returns that
    count and work's results. The switch interval is set far beyond the test's
    length, so the main thread runs beside the worker only when a C call releases
    the GIL: the count does not hang on the machine's load, only on that."""
    done = threading.Event()
    ticks = [0]
    results = []

    def run():
        deadline = time.monotonic() + cap
        while not enough(ticks[0]) and time.monotonic() < deadline:
            results.append(work())
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t = threading.Thread(target=run)
        t.start()
        while not done.is_set():
            done.wait(0.001)
            ticks[0] += 1
        t.join()
    finally:
        sys.setswitchinterval(old)
    return ticks[0], results


def test_perft_releases_the_gil():
    p = koma.Position.start("shogi")
    ticks, nodes = repeat_beside(lambda: p.perft(4), lambda n: n >= 5)
    assert set(nodes) == {719731}
    # the main thread ran beside the perft calls, again and again
    assert ticks >= 5


def test_a_position_in_use_elsewhere():
    p = koma.Position.start("shogi")
    errors = []

    def deep():
        deadline = time.monotonic() + 30
        while not errors and time.monotonic() < deadline:
            p.perft(5)

    t = threading.Thread(target=deep)
    t.start()
    while t.is_alive() and not errors:
        try:
            p.legal_moves()
        except RuntimeError as e:
            errors.append(e)
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
    ticks, counts = repeat_beside(lambda: sum(1 for _ in koma.replay(data, errors="skip")), lambda n: n >= 5)
    assert counts and counts[0] > 0 and set(counts) == {counts[0]}
    assert ticks >= 5
