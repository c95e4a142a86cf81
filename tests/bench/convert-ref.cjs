// tests/bench/convert-ref.cjs — the reference converter of bench-convert.sh for
// CSA records: tsshogi (npm) reads each record of a multi-record CSA file (records
// separated by "/" lines) and writes it as JSON (JKF), one a line.
"use strict";
const { importCSA, exportJKFString } = require("tsshogi");
const text = require("fs").readFileSync(process.argv[2], "utf8");
const out = [];
let failed = 0;
for (const rec of text.split(/\r?\n\/\r?\n/)) {
  const r = importCSA(rec);
  if (r instanceof Error) failed++;
  else out.push(exportJKFString(r).replace(/\n/g, ""));
}
process.stdout.write(out.join("\n") + "\n");
if (failed) process.stderr.write(failed + " records failed\n");
