// tests/bench/gen-chess.js — random legal chess games as PGN, for the replay
// benchmark: pgn-extract validates them beside koma-replay on Ōgi records.
//
//   node gen-chess.js PLIES [SEED [MAXPLIES [DISTINCT]]]  > games.pgn
//
// Run it where chess.js is installed (`npm install chess.js`). Games are drawn
// with chess.js: every ply a legal move chosen uniformly by a seeded PRNG
// (mulberry32), so the output depends only on the arguments. A game ends when
// it is over (mate, stalemate, insufficient material, threefold repetition,
// fifty moves: result 1-0, 0-1 or 1/2-1/2) or after MAXPLIES plies (default
// 300, result *).
//
// chess.js makes about 17,000 plies a second, so a ten-million-ply database
// would take ten minutes: games are drawn until they hold DISTINCT plies
// (default 500,000), then written again in turn (each with its own Round)
// until the plies add up to exactly PLIES; the last game is cut short (result
// *). Every game is legal and pgn-extract checks every one. Totals go to stderr.
'use strict';
const { createRequire } = require('module');
const { Chess } = createRequire(process.cwd() + '/')('chess.js');

const target = parseInt(process.argv[2], 10);
let seed = (parseInt(process.argv[3] || '1', 10) >>> 0) || 1;
const maxPlies = parseInt(process.argv[4] || '300', 10);
const distinct = Math.min(target, parseInt(process.argv[5] || '500000', 10));
if (!(target > 0) || !(maxPlies > 0) || !(distinct > 0)) {
    process.stderr.write('usage: node gen-chess.js PLIES [SEED [MAXPLIES [DISTINCT]]]\n');
    process.exit(2);
}

function random() {                     // mulberry32
    seed = (seed + 0x6D2B79F5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// chess.js builds the SAN of every legal move on moves(); its internal move
// list (1.x) is much faster, and only the chosen move needs its SAN.
const fast = typeof new Chess()._moves === 'function';

function randomGame(limit) {
    const chess = new Chess();
    const sans = [];
    for (;;) {
        if (fast) {
            const moves = chess._moves();
            if (moves.length === 0)
                return { sans, result: chess.isCheck() ? (chess.turn() === 'w' ? '0-1' : '1-0') : '1/2-1/2' };
            if (chess.isDrawByFiftyMoves() || chess.isInsufficientMaterial() ||
                chess.isThreefoldRepetition())
                return { sans, result: '1/2-1/2' };
            if (sans.length >= limit) return { sans, result: '*' };
            const m = moves[Math.floor(random() * moves.length)];
            sans.push(chess._moveToSan(m, moves));
            chess._makeMove(m);
            chess._incPositionCount();
        } else {
            if (chess.isGameOver())
                return { sans, result: chess.isCheckmate() ? (chess.turn() === 'w' ? '0-1' : '1-0') : '1/2-1/2' };
            if (sans.length >= limit) return { sans, result: '*' };
            const moves = chess.moves();
            const san = moves[Math.floor(random() * moves.length)];
            chess.move(san);
            sans.push(san);
        }
    }
}

const out = [];
let round = 0;
function write(sans, result) {
    round++;
    let text = '[Event "koma bench"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "' + round +
        '"]\n[White "random"]\n[Black "random"]\n[Result "' + result + '"]\n\n';
    let line = '';
    for (let i = 0; i < sans.length; i++) {
        const tok = (i % 2 === 0 ? (i / 2 + 1) + '. ' : '') + sans[i];
        if (line && line.length + tok.length + 1 > 79) { text += line + '\n'; line = ''; }
        line += (line ? ' ' : '') + tok;
    }
    if (line && line.length + result.length + 1 > 79) { text += line + '\n'; line = ''; }
    text += (line ? line + ' ' : '') + result + '\n\n';
    out.push(text);
    if (out.length >= 256) { process.stdout.write(out.join('')); out.length = 0; }
}

const pool = [];
let drawn = 0;
while (drawn < distinct) {
    const g = randomGame(Math.min(maxPlies, distinct - drawn));
    if (g.sans.length === 0) continue;
    pool.push(g);
    drawn += g.sans.length;
}
let total = 0;
for (let i = 0; total < target; i = (i + 1) % pool.length) {
    const g = pool[i];
    const left = target - total;
    if (g.sans.length <= left) write(g.sans, g.result);
    else write(g.sans.slice(0, left), '*');
    total += Math.min(g.sans.length, left);
}
process.stdout.write(out.join(''));
process.stderr.write('gen-chess: ' + round + ' games (' + pool.length + ' distinct), ' + total +
    ' plies\n');
