# tests/convert/fen-cross.py — the Fairy-Stockfish side of fen-cross.sh: reads games
# (moves in Fairy-Stockfish notation, one a line, a blank line after each) and
# prints, for each game, the first two fields of the FEN Fairy-Stockfish gives for
# the start and after each move ("board[hands] side"). When Fairy-Stockfish does
# not play a move (its rules differ: see tests/bench/fsf-variants.ini), the game's
# remaining positions are printed as "STOP".
#   python3 fen-cross.py FAIRY-STOCKFISH VARIANTS-INI VARIANT < games
import subprocess, sys

exe, ini, variant = sys.argv[1:4]
games, cur = [], []
for line in sys.stdin:
    line = line.strip()
    if line: cur.append(line)
    else:
        games.append(cur); cur = []
if cur: games.append(cur)

script = ["uci", "setoption name VariantPath value " + ini, "setoption name UCI_Variant value " + variant]
for g in games:
    for k in range(len(g) + 1):
        script.append("position startpos moves " + " ".join(g[:k]) if k else "position startpos")
        script.append("d")
script.append("quit")
out = subprocess.run([exe], input="\n".join(script) + "\n", capture_output=True, text=True).stdout
fens = [l[5:].split(" ")[:2] for l in out.splitlines() if l.startswith("Fen: ")]
i = 0
for g in games:
    stopped = False
    prev = None
    for k in range(len(g) + 1):
        f = " ".join(fens[i]); i += 1
        if k and f == prev: stopped = True
        print("STOP" if stopped else f)
        prev = f
