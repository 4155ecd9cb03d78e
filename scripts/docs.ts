// npm run docs: writes the generated references (scripts/docs/generate.ts).
import fs from "node:fs";
import path from "node:path";
import { generatedDocs, ROOT } from "./docs/generate.js";

for (const [file, text] of await generatedDocs()) {
  const full = path.join(ROOT, file);
  const before = fs.existsSync(full) ? fs.readFileSync(full, "utf8") : "";
  if (before !== text) {
    fs.writeFileSync(full, text);
    process.stderr.write(`wrote ${file}\n`);
  }
}
