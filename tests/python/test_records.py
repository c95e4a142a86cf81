"""Records: read from a path, a file object or bytes in every format koma reads;
written in every format it writes; the positions of a game."""
import io
import json

import pytest

import koma
from conftest import tool

SAMPLES = {
    "pcn": "tests/data/replay/shogi.jsonl",
    "yaml": "tests/data/replay/shogi.yaml",
    "csa": "tests/data/convert/multi.csa",
    "kif": "tests/data/shogi-records/20081220kyoochi.kif",
    "ki2": "tests/data/shogi-records/20091203.ki2",
    "usi": "tests/data/convert/games.usi",
    "sfen": "tests/data/convert/positions.sfen",
    "feen": "tests/data/feen/games.feen",
}


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_read_any_format(fmt):
    path = SAMPLES[fmt]
    recs = list(koma.read(path, errors="skip"))
    assert recs and all(isinstance(r, koma.Record) for r in recs)
    assert {r.format for r in recs} <= {fmt, "pcn", "yaml"}
    assert all(r.source == path and r.line >= 1 for r in recs)
    # the same records from a file object and from bytes, and with the format named
    with open(path, "rb") as f:
        assert list(koma.read(f, errors="skip")) == recs
    assert list(koma.read(open(path, "rb").read(), errors="skip")) == recs
    assert list(koma.read(path, fmt, errors="skip")) == recs
    # as koma-convert --to pcn reads them
    status, out, _ = tool("koma-convert", "--from", "auto", "--to", "pcn", path)
    assert [koma.parse(line, "pcn") for line in out.splitlines() if line] == recs


def test_record_members():
    rec = next(iter(koma.read(SAMPLES["kif"])))
    assert rec.feen.startswith("lnsgk^gsn1/") and len(rec) == len(rec.plies) == 142
    assert rec.outcome == {"result": "1-0", "status": "resignation"}
    assert rec.feen in repr(rec)
    d = rec.as_dict()
    assert d["setup"]["feen"] == rec.feen and len(d["plies"]) == 142
    positions = rec.positions()
    assert len(positions) == 143 and positions[0].feen == rec.feen
    assert positions[-1].feen == rec.verdict().feen
    assert positions[1] == positions[0].play(rec.plies[0])


def test_new_record():
    rec = koma.Record(koma.Position.start("shogi").feen)
    rec.append("g3-g4")
    rec.append("c7-c6")
    assert rec.plies == ["g3-g4", "c7-c6"]
    assert rec.verdict().result == "*" and rec.verdict().played == 2
    assert koma.parse(rec.to("pcn")) == rec
    assert rec.to("usi").strip() == "position startpos moves 3g3f 7c7d"
    with pytest.raises(koma.Error):
        rec.append("not a move at all")


@pytest.mark.parametrize("fmt", ["pcn", "yaml", "csa", "kif", "ki2", "usi", "jkf"])
def test_write_and_read_back(fmt):
    recs = list(koma.read(SAMPLES["kif"])) + list(koma.read(SAMPLES["csa"]))
    text = koma.write(recs, fmt, times=fmt != "ki2")
    data = text if isinstance(text, bytes) else text.encode()
    back = list(koma.read(data, fmt))
    assert [r.plies for r in back] == [r.plies for r in recs]
    assert [r.feen for r in back] == [r.feen for r in recs]
    # one at a time (Record.to) and as the tool writes them
    assert recs[0].to(fmt, times=False) == koma.write(recs[0], fmt, times=False)


def test_write_targets(tmp_path):
    recs = list(koma.read(SAMPLES["pcn"]))
    want = koma.write(recs, "pcn")
    assert want == "".join(r.to("pcn") for r in recs)
    koma.write(recs, "pcn", tmp_path / "a.jsonl")
    assert (tmp_path / "a.jsonl").read_text() == want
    buf = io.BytesIO()
    koma.write(recs, "pcn", buf)
    assert buf.getvalue().decode() == want
    sio = io.StringIO()
    koma.write(recs, "pcn", sio)
    assert sio.getvalue() == want
    assert json.loads(recs[0].to("pcn", pretty=True)) == recs[0].as_dict()
    assert isinstance(recs[0].to("kif", encoding="shift_jis"), bytes)
    with pytest.raises(ValueError):
        recs[0].to("no-such-format")
    with pytest.raises(koma.Error) as e:
        koma.Record(koma.Position.start("ogi").feen).to("csa")
    assert e.value.code == "convert.unrepresentable"


def test_positions_formats():
    rec = next(iter(koma.read(SAMPLES["pcn"])))
    feens = rec.to("feen", each=True).split("\n")
    assert feens[:-1] == [p.feen for p in rec.positions()]
    assert rec.to("feen").strip() == rec.verdict().feen


def test_formats_listed():
    fm = {f["name"]: f for f in koma.formats()}
    assert fm["csa"]["read"] and fm["csa"]["write"] and fm["csa"]["kind"] == "record"
    assert fm["feen"]["kind"] == "position"
    assert not fm["pgn"]["read"]
    # every kind has its name: the notations checked only (koma-validate) too
    assert fm["cgsn"]["kind"] == "notation" and fm["ggn"]["kind"] == "notation"
    assert {f["kind"] for f in fm.values()} <= {"position", "moves", "record", "detect", "notation"}


@pytest.mark.parametrize("path", ["tests/data/replay/shogi.jsonl", "tests/data/replay/ogi.yaml"])
def test_with_outcome_as_write_outcome(path):
    fmt = "yaml" if path.endswith(".yaml") else "pcn"
    status, out, _ = tool("koma-replay", "--write-outcome", path)
    want = list(koma.read(out.encode(), fmt, errors="skip"))
    got = []
    for rec in koma.read(path, errors="skip"):
        try:
            got.append(rec.with_outcome())
        except koma.Error:
            got.append(rec)            # --write-outcome passes it through as it was
    assert got == want and any(g != r for g, r in zip(got, koma.read(path, errors="skip")))
    assert all(g.outcome is None or "result" in g.outcome for g in got)
