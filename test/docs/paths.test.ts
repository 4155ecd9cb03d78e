// The docs name code by its path ("src/services/note-lifecycle.ts", "runtime/jobs.ts");
// a path that no longer exists sends the next reader nowhere. Every path named in the
// README and docs/ must exist: written from the repository's root, or from src/.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const docs = [
  "README.md",
  ...fs
    .readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const TOP = ["src", "test", "bench", "scripts", "drizzle", "bin", "docs", ".ci"];
const FLOORS = fs.readdirSync("src").filter((f) => fs.statSync(path.join("src", f)).isDirectory());

/** Paths in a doc: a known top folder or floor, then segments, ending in a file extension. */
function pathsIn(text: string): string[] {
  const roots = [...TOP, ...FLOORS].map((r) => r.replace(".", "\\.")).join("|");
  const re = new RegExp(`(?<![\\w./<-])(?:${roots})/[\\w./-]*\\.(?:tsx?|mjs|cjs|js|sh|sql|md|json)\\b`, "g");
  return [...text.matchAll(re)].map((m) => m[0]);
}

const exists = (p: string) => fs.existsSync(p) || fs.existsSync(path.join("src", p));

describe("paths named in the docs", () => {
  it("all exist", () => {
    const missing: string[] = [];
    for (const doc of docs)
      for (const p of new Set(pathsIn(fs.readFileSync(doc, "utf8")))) if (!exists(p)) missing.push(`${doc}: ${p}`);
    expect(missing).toEqual([]);
  });

  it("are found where the docs name them (the check itself reads paths)", () => {
    expect(pathsIn("see src/services/notes.ts and runtime/jobs.ts, not <x>/y.ts")).toEqual([
      "src/services/notes.ts",
      "runtime/jobs.ts",
    ]);
  });
});
