// tests/convert/kif-cross.cjs — tsshogi's side of the KIF/KI2/JKF cross-test
// (kif-cross.sh):
//   node kif-cross.cjs read kif|ki2|jkf FILE...   each record of each FILE (KIF
//       and KI2 records start at a "#KIF"/"#KI2" line when there are several,
//       JKF ones are one a line) read by tsshogi and printed as its USI
//       position command (the main line), "ERROR <message>" when it refuses it;
//   node kif-cross.cjs write kif|ki2|jkf < USI   each USI position command on
//       stdin written by tsshogi in that format, records one after another.
"use strict";
const fs = require("fs");
const { Record, importKIF, importKI2, importJKFString, exportKIF, exportKI2, exportJKFString } = require("tsshogi");

const [mode, format, ...files] = process.argv.slice(2);
const out = [];
if (mode === "read") {
  const importer = { kif: importKIF, ki2: importKI2, jkf: importJKFString }[format];
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    let records;
    if (format === "jkf") records = text.split("\n").filter((l) => l.trim().length);
    else records = text.split(/^(?=#KI[F2] )/m).filter((r) => r.trim().length);
    if (format === "jkf" && records.length > 1 && !records[0].trim().endsWith("}")) records = [text];
    for (const r of records) {
      const rec = importer(r);
      out.push(rec instanceof Error ? "ERROR " + rec.message.split("\n")[0] : rec.getUSI({ allMoves: true }));
    }
  }
} else {
  const exporter = { kif: exportKIF, ki2: exportKI2, jkf: exportJKFString }[format];
  for (const line of fs.readFileSync(0, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const rec = Record.newByUSI(line);
    if (rec instanceof Error) {
      out.push("ERROR " + rec.message);
      continue;
    }
    out.push(format === "jkf" ? exporter(rec).replace(/\n/g, "") : exporter(rec));
  }
}
process.stdout.write(out.join("\n") + "\n");
