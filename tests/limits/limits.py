#!/usr/bin/env python3
"""tests/limits/limits.py BINDIR — every limit of koma(7) LIMITS, at the limit and past it.

Each row is a limit with its code: an input exactly at the limit, which must not
give that code, and the same input one step past it, which must (at the byte,
level, ply or item the row names, when it names one). Rows whose limit is a
cost rather than a count (memory, YAML aliases) use an input well inside it and
one well past it. The table in man/koma.7 (between LIMITS TABLE markers) must
list exactly the codes tested here, so the manual and the tests cannot drift
apart. Run by make check; nothing is timed.
"""
import os
import re
import subprocess
import sys
import tempfile

MIB = 1024 * 1024
FEEN = "lnsik^snl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIK^SNL / O/o"
HEAD = '{"setup":{"feen":"%s"},' % FEEN


def record_of_size(n):
    """A PCN JSON record of exactly n bytes (no newline)."""
    pad = n - len(HEAD) - len('"x":""}')
    return HEAD + '"x":"' + "a" * pad + '"}'


def nested(levels):
    """A record whose deepest value is `levels` deep (the record itself is level 1)."""
    return HEAD + '"x":' + "[" * (levels - 1) + "]" * (levels - 1) + "}"


def plies(n):
    return HEAD + '"plies":[' + ",".join(['{"pmn":"e3-e4"}'] * n) + "]}"


def game_nested(levels):
    return "id: deep\nnested: " + "[" * (levels - 1) + "]" * (levels - 1) + "\n"


def game_file_of_size(n):
    head = "# padding\n"
    body = "id: line\n"
    return head + "#" * (n - len(head) - len(body) - 1) + "\n" + body


def game(files=9, ranks=9, id_len=4, name_len=4, piece_name_len=4):
    """A game with rules: kings on a files x ranks board, its id, name and piece
    name of the lengths given."""
    placement = ["k^%d" % (files - 1)] + ["%d" % files] * (ranks - 2) + ["K^%d" % (files - 1)]
    return ("id: %s\nname: %s\nstyle: G\nboard: {files: %d, ranks: %d}\n"
            "start: \"%s / G/g\"\npieces:\n  - {pin: \"K^\", name: %s, betza: K, royal: true}\n"
            % ("g" * id_len, "N" * name_len, files, ranks, "/".join(placement), "k" * piece_name_len))


def ggn_nested(levels):
    return "[" * levels + "]" * levels


def chain(elements, each="e3-e4"):
    return ",".join([each] * elements)


def alias_bomb(levels):
    """Each level an anchored sequence of 64 aliases of the one before: 64**levels x's."""
    s = "setup: {feen: 'k/K / K/k'}\na0: &a0 [" + ",".join(["x"] * 64) + "]\n"
    for i in range(1, levels):
        s += "a%d: &a%d [%s]\n" % (i, i, ",".join(["*a%d" % (i - 1)] * 64))
    return s


ROWS = []


def row(code, what, tool, at, past):
    ROWS.append((code, what, tool, at, past))


def rows():
    row("line.length", "a line of a line format: 1 MiB (1048576 bytes)",
        ["koma-validate"], "a" * MIB + "\n", "a" * (MIB + 1) + "\n")
    row("feen.length", "a FEEN: 4096 bytes",
        ["koma-validate"], "k" + "1" * 4089 + " / K/k\n", "k" + "1" * 4090 + " / K/k\n")
    row("feen.placement.size", "a board dimension: 255 squares",
        ["koma-validate"], "k254 / K/k\n", "k255 / K/k\n")
    row("feen.placement.dimensions", "board dimensions: 3",
        ["koma-validate"], "k1/2//2/2 / K/k\n", "k1/2//2/2///2/2//2/2 / K/k\n")
    row("feen.placement.squares", "squares of a board: 65025",
        ["koma-validate"], "k254" + "/255" * 254 + " / K/k\n",
        "k254" + "/255" * 254 + "//255" + "/255" * 254 + " / K/k\n")
    row("cell.length", "a coordinate: 7 bytes",
        ["koma-validate", "--type", "cell"], "iv255IV\n", "iv255IVa\n")
    row("cell.dimensions", "coordinate dimensions: 3",
        ["koma-validate", "--type", "cell"], "a1A\n", "a1Aa\n")
    row("cell.index", "a coordinate index: 255 (0-based: rank 256, file iv)",
        ["koma-validate", "--type", "cell"], "iv256\n", "a257\n")
    row("snn.length", "a style name: 32 bytes",
        ["koma-validate", "--type", "snn"], "A" * 32 + "\n", "A" * 33 + "\n")
    row("pmn.length", "a move: 25 bytes",
        ["koma-validate", "--type", "pmn"], "iv255IV+iv254IV=+K^'/+K^'\n",
        "iv255IV+iv254IV=+K^'/+K^'x\n")
    row("pmn.chain.elements", "elements of a move chain: 16",
        ["koma-validate", "--type", "pmn"], chain(16) + "\n", chain(17) + "\n")
    long = "iv255IV-iv254IV"
    row("pmn.chain.length", "a move chain: 256 bytes",
        ["koma-validate", "--type", "pmn"], chain(16, long) + "A\n", chain(16, long) + "AB\n")
    row("pcn.size", "a record: 16 MiB (16777216 bytes)",
        ["koma-validate", "--type", "pcn", "--format", "json"],
        record_of_size(16 * MIB) + "\n", record_of_size(16 * MIB + 1) + "\n")
    row("pcn.depth", "nesting of a record: 64 levels",
        ["koma-validate", "--type", "pcn", "--format", "json"], nested(64) + "\n", nested(65) + "\n")
    row("pcn.plies.limit", "plies of a record: 65536",
        ["koma-validate", "--type", "pcn", "--format", "json"], plies(65536) + "\n",
        plies(65537) + "\n")
    row("pcn.memory.limit", "memory of a record's values while it is read: 48 MiB",
        ["koma-convert", "--from", "pcn", "--to", "yaml"],
        HEAD + '"x":[' + ",".join(["{}"] * 150000) + "]}\n",
        HEAD + '"x":[' + ",".join(["{}"] * 400000) + "]}\n")
    row("pcn.memory.limit", "the same, where koma-validate reads the record without a tree",
        ["koma-validate", "--type", "pcn", "--format", "json"],
        HEAD + '"x":[' + ",".join(["{}"] * 150000) + "]}\n",
        HEAD + '"x":[' + ",".join(["{}"] * (16 * MIB // 3 - 100)) + "]}\n")
    row("game.depth", "nesting of a game definition: 64 levels",
        ["koma-convert", "--to", "ggn", "--game", "@FILE.yaml"], game_nested(64), game_nested(65))
    row("game.limit", "a game definition file: 1 MiB",
        ["koma-convert", "--to", "ggn", "--game", "@FILE.yaml"], game_file_of_size(MIB),
        game_file_of_size(MIB + 1))
    ggn_game = ["koma-convert", "--to", "ggn", "--game", "@FILE.yaml"]
    row("game.limit", "files of a game with rules: 26", ggn_game, game(files=26, ranks=26),
        game(files=27, ranks=26))
    row("game.limit", "ranks of a game with rules: 26", ggn_game, game(files=26, ranks=26),
        game(files=26, ranks=27))
    row("game.field", "a game's id: 32 bytes", ggn_game, game(id_len=32), game(id_len=33))
    row("snn.length", "a game's name (a style name): 32 bytes", ggn_game, game(name_len=32),
        game(name_len=33))
    row("game.field", "a piece's name: 47 bytes", ggn_game, game(piece_name_len=47),
        game(piece_name_len=48))
    row("ggn.depth", "nesting of a GGN document: 64 levels",
        ["koma-validate", "--type", "ggn"], ggn_nested(64) + "\n", ggn_nested(65) + "\n")
    row("repetition.limit", "positions in a run of FEEN lines: 65537",
        ["koma-repetition-check", "--fid-only"], (FEEN + "\n") * 65537, (FEEN + "\n") * 65538)
    row("ggn.size", "a GGN document: 16 MiB",
        ["koma-validate", "--type", "ggn"], "{}" + " " * (16 * MIB - 2), "{}" + " " * (16 * MIB - 1))
    csa = "V2.2\nPI\n+\n"
    row("convert.size", "a shogi-world record (CSA, KIF, ...): 16 MiB",
        ["koma-convert", "--from", "csa", "--to", "pcn"],
        "'" + "a" * (16 * MIB - len(csa) - 2) + "\n" + csa,
        "'" + "a" * (16 * MIB - len(csa) - 1) + "\n" + csa)
    row("pcn.size", "YAML aliases: what they add counts towards 16 MiB",
        ["koma-validate", "--type", "pcn", "--format", "yaml"], alias_bomb(3), alias_bomb(4))


def run(bindir, tool, text, tmp):
    argv = list(tool)
    stdin = text.encode()
    for i, a in enumerate(argv):
        if a.startswith("@FILE"):
            path = os.path.join(tmp, "input" + a[5:])
            with open(path, "w") as f:
                f.write(text)
            argv[i] = path
            stdin = b""
    argv[0] = os.path.join(bindir, argv[0])
    p = subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode(errors="replace")


def man_codes(path):
    text = open(path).read()
    m = re.search(r"BEGIN LIMITS TABLE(.*?)END LIMITS TABLE", text, re.S)
    if not m:
        return None
    return re.findall(r"\bLi ([a-z][a-z0-9.]*[a-z0-9])", m.group(1))


def main():
    bindir = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rows()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for code, what, tool, at, past in ROWS:
            for kind, text in (("at the limit", at), ("past it", past)):
                if text is None:
                    print("limits: %s: no input %s" % (code, kind), file=sys.stderr)
                    failed += 1
                    continue
                status, err = run(bindir, tool, text, tmp)
                has = (": %s: " % code) in err
                why = None
                if status >= 128 or status < 0:
                    why = "crashed (%d)" % status
                elif kind == "past it" and not has:
                    why = "no %s: %s" % (code, err.strip()[:160])
                elif kind == "at the limit" and has:
                    why = "%s already: %s" % (code, err.strip()[:160])
                if why:
                    print("limits: %s (%s) %s: %s" % (code, what, kind, why), file=sys.stderr)
                    failed += 1
                else:
                    passed += 1
    codes = man_codes(os.path.join(root, "man", "koma.7"))
    tested = [r[0] for r in ROWS]
    if codes is None:
        print("limits: man/koma.7 has no LIMITS TABLE", file=sys.stderr)
        failed += 1
    else:
        for c in codes:
            if c not in tested:
                print("limits: koma(7) lists %s, which no row tests" % c, file=sys.stderr)
                failed += 1
        for c in tested:
            if c not in codes:
                print("limits: %s is tested but not in koma(7) LIMITS" % c, file=sys.stderr)
                failed += 1
    print("limits: %d passed, %d failed" % (passed, failed))
    if passed + failed == 0:
        print("limits: FAILED: nothing was run", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
