#!/usr/bin/env python3
"""tests/sanki/convert.py — writes legality.tsv from the reference's conformance
vectors (tests/conformance/legality.json of sashite/sanki-engine.rs, Apache-2.0),
or differential.tsv from its differential corpus (tests/corpus/differential.tsv):
one line a vector, ID<TAB>POSITION<TAB>MOVE (JSON)<TAB>LEGAL (1/0)<TAB>RESULT<TAB>STATUS
(RESULT and STATUS "-" when the vector gives none).
Usage: convert.py legality.json > legality.tsv
       convert.py differential.tsv > differential.tsv"""
import json
import sys

if sys.argv[1].endswith(".tsv"):
    print("# Converted by tests/sanki/convert.py from tests/corpus/differential.tsv of")
    print("# sashite/sanki-engine.rs, Apache-2.0; see README.md. Do not edit by hand.")
    n = 0
    for line in open(sys.argv[1], encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        feen, move, result, status = line.rstrip("\n").split("\t")
        n += 1
        rejected = status == "rejected"
        print("\t".join(["differential.%d" % n, feen, move, "0" if rejected else "1",
                         "-" if rejected else result, "-" if rejected else status]))
    sys.exit(0)
d = json.load(open(sys.argv[1], encoding="utf-8"))
print("# Converted by tests/sanki/convert.py from legality.json (version %d) of" % d["version"])
print("# sashite/sanki-engine.rs, Apache-2.0; see README.md. Do not edit by hand.")
for v in d["vectors"]:
    print("\t".join([v["id"], v["position"], json.dumps(v["move"], separators=(",", ":")),
                     "1" if v["legal"] else "0", v.get("result") or "-", v.get("status") or "-"]))
