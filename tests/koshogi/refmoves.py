#!/usr/bin/env python3
"""tests/koshogi/refmoves.py — `refgen.py moves` for many positions in one process
(compare-engine.sh): reads one FEEN a line on stdin and prints, for each, its legal
moves as canonical chains (byte order), then an empty line. A FEEN refgen.py rejects
gets the line "! MESSAGE" instead of moves."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen  # noqa: E402  (the generator itself: nothing is re-implemented here)


def main():
    for line in sys.stdin:
        feen = line.rstrip("\n")
        if not feen:
            continue
        try:
            for chain in sorted(refgen.legal_moves(refgen.parse_feen(feen))):
                print(chain)
        except refgen.KoError as e:
            print("! %s" % e)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
