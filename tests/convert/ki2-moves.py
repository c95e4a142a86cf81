"""Exit 0 when two KI2 texts (UTF-8) hold the same moves, token by token:
side mark, square or 同, piece, relative marks, 成/不成/打 (a space after 同
aside). So the KI2 writer's relative marks can be checked against those of
real records. 1 otherwise, with the first difference on stderr."""
import re
import sys

MOVE = re.compile("[▲△][^\\s▲△]+(?:\u3000[^\\s▲△]+)?")


def moves(path):
    return [m.replace("\u3000", "") for m in MOVE.findall(open(path, encoding="utf-8").read())]


a, b = moves(sys.argv[1]), moves(sys.argv[2])
if a == b:
    sys.exit(0)
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        sys.stderr.write("move %d: %s against %s\n" % (i + 1, x, y))
        sys.exit(1)
sys.stderr.write("%d moves against %d\n" % (len(a), len(b)))
sys.exit(1)
