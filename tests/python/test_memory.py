"""References and memory: 100,000 calls of each kind do not grow the process
(its RSS, and tracemalloc's count of the Python objects left behind; the total
reference count too under a debug build of Python)."""
import gc
import sys
import tracemalloc

import pytest

import koma

N = 100000
START = koma.Position.start("shogi")
REC = next(iter(koma.read("tests/data/replay/shogi.jsonl", errors="skip")))
BAD = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL S/s"


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def raises():
    try:
        koma.validate(BAD)
    except koma.Error as e:
        return e.code


CALLS = {
    "fid": lambda: START.fid,
    "validate": lambda: koma.validate(START.feen),
    "error": raises,
    "play": lambda: START.play("g3-g4"),
    "legal_moves": lambda: START.legal_moves(),
    "position": lambda: koma.Position(START.feen),
    "verdict": lambda: REC.verdict(),
    "record_to": lambda: REC.to("csa"),
}
# the heavier calls run fewer times (each judges or writes a whole game)
TIMES = {"verdict": N // 20, "record_to": N // 20}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_no_growth(name):
    call, n = CALLS[name], TIMES.get(name, N)
    for _ in range(1000):              # warm up: caches, free lists, the referee kept
        call()
    gc.collect()
    refs = getattr(sys, "gettotalrefcount", lambda: 0)()
    rss = rss_kib()
    for _ in range(n):
        call()
    gc.collect()
    assert rss_kib() - rss < 2048, "%s: RSS grew by %d KiB over %d calls" % (name, rss_kib() - rss, n)
    if refs:
        assert getattr(sys, "gettotalrefcount")() - refs < 100
    # the Python objects left behind, over a tenth of the calls (tracemalloc slows
    # every allocation): a leak of one object a call leaves n / 10 blocks
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(n // 10):
        call()
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.count_diff for s in after.compare_to(before, "filename") if s.count_diff > 0)
    assert grown < 100, "%s: %d Python blocks left after %d calls" % (name, grown, n // 10)
