"""Shared fixtures of the Python package's tests (run by tests/python/run.sh:
KOMA_ROOT the repository, KOMA_BIN the tools, PYTHONPATH the built package)."""
import json
import os
import subprocess

import pytest

ROOT = os.environ.get("KOMA_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
BIN = os.environ.get("KOMA_BIN", os.path.join(ROOT, "build", "bin"))
DATA = os.path.join(ROOT, "tests", "data")


def data(*parts):
    return os.path.join(DATA, *parts)


def tool(name, *args, stdin=None):
    """Run a koma tool from the repository's root: (status, stdout, stderr)."""
    p = subprocess.run([os.path.join(BIN, name), *args], cwd=ROOT, input=stdin, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), p.stderr.decode("utf-8", "surrogateescape")


def tool_json(name, *args):
    status, out, _ = tool(name, "--json", *args)
    return [json.loads(line) for line in out.splitlines() if line]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    """Paths in the tests are relative to the repository, as the tools' are."""
    monkeypatch.chdir(ROOT)
