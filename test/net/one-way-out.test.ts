// src/net is the one owner of outbound connections: no other server module calls the
// global fetch, builds its own undici agent or resolves names, so that no client can
// forget the connect-time check. The command line (a client of the notula server its
// user chose) and the pages' script (src/web/browser, run in the browser) are left out.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const SERVER = files("src").filter((f) => !/^src\/(net|cli)\/|^src\/web\/browser\//.test(f.split(path.sep).join("/")));

describe("outbound connections", () => {
  it("are opened only through src/net", () => {
    const offenders: string[] = [];
    for (const file of SERVER) {
      const lines = fs.readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        if (/(?<![.\w])fetch\(\s*[^)]/.test(line) && !/fetch\(req: Request/.test(line))
          offenders.push(`${file}:${i + 1}: the global fetch`);
        if (/from "undici"/.test(line) && !/^import type /.test(line)) offenders.push(`${file}:${i + 1}: undici`);
        if (/from "node:dns/.test(line)) offenders.push(`${file}:${i + 1}: node:dns`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
