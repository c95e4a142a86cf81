#!/usr/bin/env python3
"""tests/limits/memory.py BINDIR — the memory one record may take (koma(7), LIMITS).

Each shape below is one PCN record within the 16 MiB record limit, built to cost
as much memory as its kind can: the worst for the tree of values (empty objects,
which once took 1.29 GB), for strings (one 16 MiB string, plain,
escaped, in YAML), for plies (a million; 65,536 with a comment and a clock
each), keys, nesting, YAML aliases. Each is read by koma-validate, and the
largest pairs by koma-diff (two records held at once); koma-convert, which
builds every record's tree, must give the expected code. The peak resident size
of each run (getrusage of the child) must stay under the documented bound:
96 MB for one record, twice that for koma-diff. The expected diagnostic code
(or none) is checked too, so a shape that stops being read as meant fails.
No time is measured. Run by make check (not under ASan, whose RSS differs).
"""
import os
import resource
import subprocess
import sys
import tempfile

MIB = 1024 * 1024
RECORD = 16 * MIB          # KOMA_LIMIT_RECORD
BOUND_KB = 96 * 1000       # the documented bound (koma(7), tests/limits/README.md), per record

FEEN = "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"
HEAD = '{"setup":{"feen":"%s"},' % FEEN


def fill(prefix, item, suffix, sep=","):
    """prefix + item (sep item)... + suffix, as long as it stays under RECORD."""
    n = (RECORD - 64 - len(prefix) - len(suffix)) // (len(item) + len(sep))
    return prefix + sep.join([item] * n) + suffix


def shapes():
    yield ("json-empty-objects", fill(HEAD + '"x":[', "{}", "]}") + "\n", "json", "pcn.memory.limit")
    yield ("json-empty-arrays", fill(HEAD + '"x":[', "[]", "]}") + "\n", "json", "pcn.memory.limit")
    yield ("json-short-strings", fill(HEAD + '"x":[', '""', "]}") + "\n", "json", "pcn.memory.limit")
    yield ("json-many-keys", HEAD + ",".join('"k%d":0' % i for i in range(RECORD // 14)) + "}\n",
           "json", "pcn.memory.limit")
    yield ("json-string", HEAD + '"x":"' + "a" * (RECORD - 200) + '"}\n', "json", None)
    yield ("json-escaped-string", HEAD + '"x":"\\n' + "a" * (RECORD - 200) + '"}\n', "json", None)
    yield ("json-million-plies", fill(HEAD + '"plies":[', '{"pmn":"e3-e4"}', "]}") + "\n", "json",
           "pcn.plies.limit")
    ply = '{"pmn":"e3-e4","comment":"a move of the kind one writes about","time_ms":12000}'
    yield ("json-max-plies-annotated",
           HEAD + '"plies":[' + ",".join([ply] * 65536) + "]}\n", "json", None)
    deep = "[" * 62 + ",".join(["0"] * 1000) + "]" * 62   # 64 levels with the record and x
    yield ("json-deep-wide", fill(HEAD + '"x":[', deep, "]}") + "\n", "json", "pcn.memory.limit")
    yield ("yaml-empty-objects", fill("setup: {feen: '%s'}\nx: [" % FEEN, "{}", "]") + "\n", "yaml",
           "pcn.memory.limit")
    yield ("yaml-string", "setup: {feen: '%s'}\nx: '" % FEEN + "a" * (RECORD - 200) + "'\n", "yaml",
           None)
    bomb = "setup: {feen: '%s'}\na0: &a0 [" % FEEN + ",".join(["x"] * 64) + "]\n"
    for i in range(1, 12):
        bomb += "a%d: &a%d [%s]\n" % (i, i, ",".join(["*a%d" % (i - 1)] * 64))
    yield ("yaml-alias-bomb", bomb, "yaml", "pcn.size")


def main():
    bindir = sys.argv[1]
    validate = os.path.join(bindir, "koma-validate")
    diff = os.path.join(bindir, "koma-diff")
    convert = os.path.join(bindir, "koma-convert")
    passed = failed = 0
    worst = (0, "")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, fmt, code in shapes():
            if len(text.encode()) > RECORD:
                print("memory: %s: the shape is %d bytes, over the record limit" % (name, len(text)),
                      file=sys.stderr)
                failed += 1
                continue
            path = os.path.join(tmp, name + "." + ("jsonl" if fmt == "json" else "yaml"))
            with open(path, "w") as f:
                f.write(text)
            # koma-validate may check a record without building its tree; koma-convert
            # builds it (and says which limit it met)
            runs = [("validate", [sys.executable, __file__, "--child", validate, "--type", "pcn",
                                  "--format", fmt, path], BOUND_KB),
                    ("convert", [sys.executable, __file__, "--child", convert, "--from",
                                 "pcn" if fmt == "json" else "yaml",
                                 "--to", "yaml" if fmt == "json" else "pcn", path],
                     BOUND_KB)]
            if name in ("json-empty-objects", "json-max-plies-annotated", "json-string"):
                runs.append(("diff", [sys.executable, __file__, "--child", diff, "--format", fmt,
                                      "-q", path, path], 2 * BOUND_KB))
            for tool, argv, bound in runs:
                p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                try:
                    status, kb = (int(x) for x in p.stdout.split())
                except ValueError:
                    print("memory: %s %s: no measure (%s)" % (tool, name, p.stderr.decode()[:200]),
                          file=sys.stderr)
                    failed += 1
                    continue
                err = p.stderr.decode(errors="replace")
                why = None
                if status >= (128 if tool == "diff" else 2):   # diff: invalid records are 2
                    why = "exit %d: %s" % (status, err.strip()[:200])
                elif kb > bound:
                    why = "peak %d kB, over the bound of %d kB" % (kb, bound)
                elif tool == "convert" and code is None and status != 0:
                    why = "refused (exit %d): %s" % (status, err.strip()[:200])
                elif tool == "convert" and code is not None and code not in err:
                    why = "expected %s, got: %s" % (code, err.strip()[:200])
                print("memory: %-8s %-26s %7d kB%s" % (tool, name, kb, "  " + why if why else ""))
                if why:
                    failed += 1
                else:
                    passed += 1
                if tool != "diff" and kb > worst[0]:
                    worst = (kb, name)
    print("memory: the largest peak of one record: %d kB (%s); bound %d kB" % (worst[0], worst[1],
                                                                            BOUND_KB))
    print("memory: %d passed, %d failed" % (passed, failed))
    if passed + failed == 0:
        print("memory: FAILED: nothing was run", file=sys.stderr)
        return 1
    return 1 if failed else 0


def child(argv):
    """Run argv (stderr kept, stdout dropped) and print its status and peak RSS (kB)."""
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sys.stderr.write(p.stderr.decode(errors="replace")[:4000])
    kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(p.returncode if p.returncode >= 0 else 128 - p.returncode, kb)
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        sys.exit(child(sys.argv[2:]))
    sys.exit(main())
