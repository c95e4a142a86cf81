// tests/bench/kif-ref.cjs — the reference converter of bench-kif.sh: tsshogi
// (npm) reads each record of a file of KIF, KI2 (records start at a "#KIF" or
// "#KI2" line) or JKF records (one a line) and writes it as JSON (JKF), one a
// line, as koma-convert writes PCN.   node kif-ref.cjs kif|ki2|jkf FILE
"use strict";
const fs = require("fs");
const { importKIF, importKI2, importJKFString, exportJKFString } = require("tsshogi");
const [format, file] = process.argv.slice(2);
const text = fs.readFileSync(file, "utf8");
const importer = { kif: importKIF, ki2: importKI2, jkf: importJKFString }[format];
const records = format === "jkf" ? text.split("\n").filter((l) => l.length) : text.split(/^(?=#KI[F2] )/m);
const out = [];
let failed = 0;
for (const r of records) {
  const rec = importer(r);
  if (rec instanceof Error) failed++;
  else out.push(exportJKFString(rec).replace(/\n/g, ""));
}
process.stdout.write(out.join("\n") + "\n");
if (failed) process.stderr.write(failed + " records failed\n");
