#!/bin/sh
# make check-python: the Python package koma (lib/python), built in BUILD/python,
# through its pytest suites (tests/python/test_*.py) with Debian's python3-pytest.
#   tests/python/run.sh BUILD [PYTEST-ARGS...]     (PYTHON: the interpreter)
b=$(cd "$1" && pwd) || exit 2
shift
py=${PYTHON:-python3}
if [ ! -f "$b/python/koma/__init__.py" ]; then
    echo "check-python: the package is not built in $b/python (make python)" >&2
    exit 1
fi
if ! "$py" -c 'import pytest' 2>/dev/null; then
    echo "check-python: $py has no pytest: install python3-pytest (make deps)" >&2
    exit 1
fi
PYTHONPATH=$b/python KOMA_BIN=$b/bin KOMA_ROOT=$(pwd) PYTHONDONTWRITEBYTECODE=1 \
    "$py" -m pytest -q -p no:cacheprovider "$@" tests/python
