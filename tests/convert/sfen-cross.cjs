// tests/convert/sfen-cross.cjs — the other side of the SFEN cross-test: reads USI
// position commands (startpos moves ...) on stdin and prints, for each, the SFEN
// tsshogi writes for the start and after every move (the move number being
// 1 + the plies played). A move tsshogi refuses as
// illegal is printed as "ILLEGAL <move>" (koma found it legal: a disagreement).
"use strict";
const { Position, InitialPositionSFEN } = require("tsshogi");
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.length);
let out = [];
for (const line of lines) {
  const words = line.split(" ");
  const at = words.indexOf("moves");
  const pos = new Position();
  pos.resetBySFEN(InitialPositionSFEN.STANDARD);
  out.push(pos.getSFEN(1));
  const moves = at < 0 ? [] : words.slice(at + 1);
  moves.forEach((usi, i) => {
    const move = pos.createMoveByUSI(usi);
    if (!move || !pos.doMove(move)) {
      out.push("ILLEGAL " + usi);
      return;
    }
    out.push(pos.getSFEN(i + 2));
  });
}
process.stdout.write(out.join("\n") + "\n");
