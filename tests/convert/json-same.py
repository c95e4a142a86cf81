"""Exit 0 when two files hold the same JSON documents (JSON Lines, or one
pretty document each), whatever the order of object keys; 1 otherwise, with
the first difference on stderr. Used by the KIF/KI2/JKF round-trip test."""
import json
import sys


def documents(path):
    text = open(path, encoding="utf-8").read()
    dec = json.JSONDecoder()
    out, i = [], 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i == len(text):
            return out
        doc, i = dec.raw_decode(text, i)
        out.append(doc)


def first_difference(a, b, where=""):
    if type(a) is not type(b):
        return where or "/"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return where + "/" + k
            d = first_difference(a[k], b[k], where + "/" + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s/%d" % (where, i))
            if d:
                return d
        return None if len(a) == len(b) else where + "/(length)"
    return None if a == b else where or "/"


a, b = documents(sys.argv[1]), documents(sys.argv[2])
if a == b:
    sys.exit(0)
if len(a) != len(b):
    sys.stderr.write("%d documents against %d\n" % (len(a), len(b)))
else:
    for i, (x, y) in enumerate(zip(a, b)):
        d = first_difference(x, y)
        if d:
            sys.stderr.write("document %d differs at %s\n" % (i + 1, d))
            break
sys.exit(1)
