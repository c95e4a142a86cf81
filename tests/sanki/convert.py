#!/usr/bin/env python3
"""tests/sanki/convert.py — writes legality.tsv from the reference's conformance
vectors (tests/conformance/legality.json of sashite/sanki-engine.rs, Apache-2.0):
one line a vector, ID<TAB>POSITION<TAB>MOVE (JSON)<TAB>LEGAL (1/0)<TAB>RESULT<TAB>STATUS
(RESULT and STATUS "-" when the vector gives none).
Usage: convert.py legality.json > legality.tsv"""
import json
import sys

d = json.load(open(sys.argv[1], encoding="utf-8"))
print("# Converted by tests/sanki/convert.py from legality.json (version %d) of" % d["version"])
print("# sashite/sanki-engine.rs, Apache-2.0; see README.md. Do not edit by hand.")
for v in d["vectors"]:
    print("\t".join([v["id"], v["position"], json.dumps(v["move"], separators=(",", ":")),
                     "1" if v["legal"] else "0", v.get("result") or "-", v.get("status") or "-"]))
