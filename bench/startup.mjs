// CLI start-up: `notula --version`, `notula notes list --json` and a Tab (what the
// completion scripts ask: the first word, a flag under a command, a profile name)
// against `node -e 0`, the floor of any Node.js program, measured in the same run
// (median of N).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root, startServer, stopServer } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 20);

/** The Tabs timed: what a shell asks `notula __complete` at the first word, under a command, for a profile. */
const TABS = [
  ["Tab: the first word", ["--describe", ""]],
  ["Tab: notes list --st", ["--describe", "notes", "list", "--st"]],
  ["Tab: --profile", ["--profile", ""]],
];

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
    const tabs = TABS.map(([label, words]) => [label, median(process.execPath, [bin, "__complete", ...words], env)]);
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
    for (const [label, ms] of tabs)
      console.log(`${label.padEnd(31)}${ms.toFixed(0).padStart(5)} ms   ratio ${(ms / floor).toFixed(2)}`);
    console.log(`goal: --version at most 1.5 times the baseline: ${version / floor <= 1.5 ? "met" : "not met"}`);
    const slowest = Math.max(...tabs.map(([, ms]) => ms));
    console.log(
      `goal: a Tab at most 1.5 times the baseline and under 100 ms: ${slowest / floor <= 1.5 && slowest < 100 ? "met" : "not met"}`,
    );
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
