// tests/convert/select-cross.cjs — the other side of the position-search
// cross-test (select-cross.sh): reads random Shogi games as USI position
// commands (one a line, on stdin), plays each in tsshogi and notes every
// position reached (its SFEN without the move number: board, side to move,
// hands), then chooses the positions to search for and prints, for each, the
// SFEN and the numbers (1-based lines) of the games that reach it:
//   SFEN<TAB>N N N...
// The positions: the 60 reached by the most games (the openings, where
// transpositions meet), then one position of each of 40 games spread over the
// input, at plies 10 to 88 (most of them reached by that game alone). A move
// tsshogi refuses stops with an error (koma's generator made it: a disagreement).
"use strict";
const { Position, InitialPositionSFEN } = require("tsshogi");
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.length);
const games = new Map();               // SFEN -> Set of game numbers
const byGame = [];                     // positions of each game, in order
const key = (pos) => pos.getSFEN(1).split(" ").slice(0, 3).join(" ");
lines.forEach((line, g) => {
  const words = line.split(" ");
  const at = words.indexOf("moves");
  const pos = new Position();
  pos.resetBySFEN(InitialPositionSFEN.STANDARD);
  const seen = [key(pos)];
  for (const usi of at < 0 ? [] : words.slice(at + 1)) {
    const move = pos.createMoveByUSI(usi);
    if (!move || !pos.doMove(move)) {
      process.stderr.write(`select-cross: tsshogi refuses ${usi} in game ${g + 1}\n`);
      process.exit(1);
    }
    seen.push(key(pos));
  }
  byGame.push(seen);
  for (const k of seen) {
    if (!games.has(k)) games.set(k, new Set());
    games.get(k).add(g + 1);
  }
});
const chosen = [];
const taken = new Set();
const take = (k) => { if (!taken.has(k)) { taken.add(k); chosen.push(k); } };
[...games.keys()]
  .sort((a, b) => games.get(b).size - games.get(a).size || (a < b ? -1 : a > b ? 1 : 0))
  .slice(0, 60).forEach(take);
for (let i = 0; i < 40; i++) {
  const seen = byGame[Math.floor((i * byGame.length) / 40)];
  take(seen[Math.min(seen.length - 1, 10 + 2 * i)]);
}
process.stdout.write(chosen.map((k) => k + "\t" + [...games.get(k)].sort((a, b) => a - b).join(" ")).join("\n") + "\n");
