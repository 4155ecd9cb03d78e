// CLI start-up: `notula --version` and `notula notes list --json` against `node -e 0`,
// the floor of any Node.js program, measured in the same run (median of N).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root, startServer, stopServer } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 20);

function median(cmd, args, env) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    times.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function benchStartup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-startup-"));
  const server = await startServer(path.join(dir, "data"));
  try {
    const bin = path.join(root, "bin/notula.js");
    const env = { NOTULA_URL: server.url, NOTULA_API_KEY: server.key, XDG_CONFIG_HOME: dir };
    const base = median(process.execPath, ["-e", "0"], env);
    const version = median(process.execPath, [bin, "--version"], env);
    const list = median(process.execPath, [bin, "notes", "list", "--json"], env);
    const base2 = median(process.execPath, ["-e", "0"], env);
    const floor = (base + base2) / 2;
    console.log(`\nCLI start-up, median of ${RUNS} runs`);
    console.log(`node -e 0 (baseline)           ${floor.toFixed(0).padStart(5)} ms`);
    console.log(
      `notula --version               ${version.toFixed(0).padStart(5)} ms   ratio ${(version / floor).toFixed(2)}`,
    );
    console.log(
      `notula notes list --json       ${list.toFixed(0).padStart(5)} ms   ratio ${(list / floor).toFixed(2)}`,
    );
    console.log(`goal: --version at most 1.5 times the baseline: ${version / floor <= 1.5 ? "met" : "not met"}`);
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
