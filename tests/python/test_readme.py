"""The worked example of lib/python/README.md: run, and its output compared with
the one the README shows."""
import os
import re
import subprocess
import sys

from conftest import ROOT


def test_worked_example():
    text = open(os.path.join(ROOT, "lib", "python", "README.md"), encoding="utf-8").read()
    section = text[text.index("## A worked example"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    want = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == want
