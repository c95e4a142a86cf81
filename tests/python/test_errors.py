"""Errors: every case of tests/spec (the notations' valid and invalid inputs, with
the code, line and column koma must give) through koma.validate; koma.Error's
members; errors while reading a database, as errors= says."""
import glob
import os
import sys

import pytest

import koma
from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "tests", "spec"))
import run as spec  # noqa: E402  (tests/spec/run.py: its reader of the tables)

TABLES = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(ROOT, "tests", "spec", "*.tsv")))


def cases(name):
    for row in spec.read_table(os.path.join(ROOT, "tests", "spec", name + ".tsv")):
        # what koma.validate reads: the notation alone (no normalising mode, no
        # dialect, no position: those are the library's options for other calls)
        if row["mode"] or row["dialect"] or row["position"] or row["parse"]:
            continue
        yield row


@pytest.mark.parametrize("name", TABLES)
def test_spec_tables(name):
    n = 0
    for row in cases(name):
        n += 1
        where = "tests/spec/%s.tsv:%d" % (name, row["at"])
        notation = name if name != "pcn" else "pcn-yaml" if row["format"] == b"yaml" else "pcn-json"
        if row["code"] == "ok":
            koma.validate(row["input"], notation)
            assert koma.is_valid(row["input"], notation), where
            continue
        with pytest.raises(koma.Error) as e:
            koma.validate(row["input"], notation)
        got = (e.value.code, e.value.line, e.value.column)
        assert got == (row["code"], row["line"], row["column"]), where
        assert row["message"].decode() in e.value.message, where
        assert not koma.is_valid(row["input"], notation)
    assert n > 0


def test_error_members():
    feen = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL S/s"
    with pytest.raises(koma.Error) as e:
        koma.validate(feen)
    err = e.value
    assert isinstance(err, Exception) and err.code.startswith("feen.")
    assert err.line == 1 and err.column == err.offset + 1 and err.message and err.source is None
    assert str(err) == "%d:%d: %s: %s" % (err.line, err.column, err.code, err.message)
    assert koma.code_text(err.code)
    with pytest.raises(ValueError):
        koma.code_text("no.such.code")
    with pytest.raises(ValueError):
        koma.validate("x", "no-such-notation")
    with pytest.raises(TypeError):
        koma.validate(42)


def test_move_against_a_position():
    start = koma.Position.start("shogi")
    koma.validate("g3-g4", "pmn", position=start)
    koma.validate("g3-g4", "pmn", position=start.feen)
    with pytest.raises(koma.Error) as e:
        koma.validate("g3-g5", "pmn", position=start)
    assert e.value.code.startswith("rules.")
    with pytest.raises(ValueError):
        koma.validate("g3-g4", "pmn", position="not a feen")


def test_database_errors():
    path = "tests/data/pcn/mixed.jsonl"
    with pytest.raises(koma.Error) as e:
        list(koma.read(path))
    assert e.value.source == path and e.value.line >= 1 and e.value.code
    both = list(koma.read(path, errors="yield"))
    errors = [x for x in both if isinstance(x, koma.Error)]
    records = [x for x in both if isinstance(x, koma.Record)]
    assert errors and records and len(both) == len(errors) + len(records)
    assert list(koma.read(path, errors="skip")) == records
    assert [(x.line, x.code) for x in errors] == sorted((x.line, x.code) for x in errors)
    with pytest.raises(ValueError):
        koma.read(path, errors="ignore")


def test_not_a_format_koma_reads():
    with pytest.raises(koma.Error) as e:
        list(koma.read(b"[Event \"x\"]\n1. e4 e5 *\n"))
    assert e.value.code == "convert.format" and "PGN" in e.value.message
    with pytest.raises(ValueError):
        koma.read("tests/data/replay/ogi.jsonl", "no-such-format")
    with pytest.raises(ValueError):
        koma.parse(b"")


def test_io_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        koma.read(tmp_path / "missing.jsonl")
    with pytest.raises(IsADirectoryError):
        list(koma.read(str(tmp_path)))
