// The references in docs/reference/ (and the floors drawn in docs/architecture.md) are
// made from the code: the settings table, the command definitions, the OpenAPI
// document and the boundary rules. A change to any of them without `npm run docs`
// fails here, so the documentation cannot drift from what the program does.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedDocs, ROOT } from "../../scripts/docs/generate.js";

describe("the generated references", () => {
  it("are what `npm run docs` makes of the code now", async () => {
    const stale: string[] = [];
    for (const [file, text] of await generatedDocs()) {
      const full = path.join(ROOT, file);
      if (!fs.existsSync(full) || fs.readFileSync(full, "utf8") !== text) stale.push(file);
    }
    expect(stale, `out of date: run \`npm run docs\` and commit ${stale.join(", ")}`).toEqual([]);
  }, 60_000);

  it("link only to documents that exist", () => {
    const broken: string[] = [];
    const files = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs"), { recursive: true }).map(String)]
      .map((f) => (f === "README.md" ? f : `docs/${f}`))
      .filter((f) => f.endsWith(".md"));
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+\.(?:md|png))(?:#[^)]*)?\)/g)) {
        if (/^https?:/.test(target)) continue;
        if (!fs.existsSync(path.join(ROOT, path.dirname(file), target))) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
