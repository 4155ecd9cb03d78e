// Small rooms: no source file grows past 400 lines. A file that would is holding more
// than one thing; split it along what it holds before it becomes the file nobody opens.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/server.js";

const LIMIT = 400;

describe("source files", () => {
  it(`are at most ${LIMIT} lines each`, () => {
    const src = path.join(ROOT, "src");
    const over = fs
      .readdirSync(src, { recursive: true })
      .map(String)
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => ({ f, lines: fs.readFileSync(path.join(src, f), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > LIMIT)
      .map(({ f, lines }) => `src/${f}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
