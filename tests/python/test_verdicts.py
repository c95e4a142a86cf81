"""Verdicts: koma.replay and Record.verdict give what koma-replay --json gives, on
every sample database (the PCN ones as koma-replay reads them, the foreign
records with --from auto); records that cannot be judged are koma.Errors at the
same line and column with the same code."""
import glob
import io
import json

import pytest

import koma
from conftest import ROOT, tool_json

PCN = sorted(glob.glob("tests/data/*/*.jsonl", root_dir=ROOT) + glob.glob("tests/data/*/*.yaml", root_dir=ROOT))
PCN = [p for p in PCN if "/games/" not in p and "/ggn/" not in p and "options.yaml" not in p]
FOREIGN = sorted(p for ext in ("csa", "kif", "ki2", "jkf", "usi", "kifu")
                 for p in glob.glob("tests/data/*/*." + ext, root_dir=ROOT))


def split(objects):
    verdicts = [o for o in objects if "result" in o]
    diags = {(o["line"], o["column"], o["code"]) for o in objects if "code" in o}
    return verdicts, diags


def python_side(path, **kw):
    verdicts, errors = [], []
    for v in koma.replay(path, errors="yield", **kw):
        (errors if isinstance(v, koma.Error) else verdicts).append(v)
    return [v.as_dict() for v in verdicts], errors


def check_same(path, cli_args):
    cli_verdicts, cli_diags = split(tool_json("koma-replay", *cli_args, path))
    verdicts, errors = python_side(path)
    assert verdicts == cli_verdicts
    for e in errors:
        assert (e.line, e.column, e.code) in cli_diags, (e, sorted(cli_diags))
    return len(verdicts), len(errors)


@pytest.mark.parametrize("path", PCN)
def test_pcn_database(path):
    check_same(path, [])


@pytest.mark.parametrize("path", FOREIGN)
def test_foreign_records(path):
    check_same(path, ["--from", "auto"])


def test_the_samples_are_there():
    assert len(PCN) >= 10 and len(FOREIGN) >= 20
    n = sum(check_same(p, [])[0] for p in ["tests/data/replay/shogi.jsonl", "tests/data/replay/ogi.yaml"])
    assert n > 10


def test_record_verdict_is_replay():
    path = "tests/data/replay/okisaki.jsonl"
    one = [r.verdict().as_dict() for r in koma.read(path, errors="skip")]
    assert one == [v.as_dict() for v in koma.replay(path, errors="skip")]


def test_verdict_members():
    v = next(iter(koma.replay("tests/data/replay/shogi.jsonl", errors="skip")))
    assert v.file == "tests/data/replay/shogi.jsonl" and v.line >= 1
    assert v.result in ("1-0", "0-1", "1/2-1/2", "*") and isinstance(v.reason, str) and v.reason
    assert len(v.fid) == 64 and v.feen in repr(v)
    assert set(v.as_dict()) <= set(dir(v))
    with pytest.raises(AttributeError):
        v.no_such_member


def test_sources_and_options():
    path = "tests/data/replay/ogi.jsonl"
    want = [v.as_dict() for v in koma.replay(path, errors="skip")]
    with open(path, "rb") as f:
        from_file = [v.as_dict() for v in koma.replay(f, errors="skip")]
    data = open(path, "rb").read()
    from_bytes = [v.as_dict() for v in koma.replay(data, errors="skip", name=path)]
    assert from_file == want == from_bytes
    # game= and declaration= as koma-replay's --game and --declaration
    for args, kw in ((["--declaration", "24"], {"declaration": "24"}),):
        p = "tests/data/claims/decl24-30points.csa"
        cli, _ = split(tool_json("koma-replay", "--from", "auto", *args, p))
        assert [v.as_dict() for v in koma.replay(p, **kw)] == cli
    with pytest.raises(ValueError):
        koma.replay(path, declaration="25")
    with pytest.raises(koma.Error):
        koma.replay(path, game="chess")


def test_text_file_object_refused():
    with pytest.raises(TypeError):
        list(koma.replay(io.StringIO("{}")))
    with pytest.raises(TypeError):
        koma.replay(42)
