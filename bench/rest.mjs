// REST API throughput and latency at 100,000 notes, each reported as a ratio to
// GET /healthz of the same server in the same run (the no-op baseline).
import autocannon from "autocannon";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startServer, stopServer } from "./lib.mjs";
import { seed } from "./seed.mjs";
import { benchLayers } from "./layers.mjs";

const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Turns of the list and the bare query, each DURATION long. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function measure(url, key, p) {
  const result = await autocannon({
    url: url + p,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  const bad = result.non2xx + result.errors;
  if (bad) throw new Error(`${p}: ${bad} failed requests`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function benchRest() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-"));
  try {
    // First start creates the schema and the workspace; then seed with the server stopped.
    let server = await startServer(dataDir);
    const key = server.key;
    await stopServer(server.proc);
    const t0 = Date.now();
    const seeded = seed(path.join(dataDir, "notula.db"), NOTES);
    console.error(`seeded ${NOTES.toLocaleString("en")} notes in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer(dataDir);

    const folder = seeded.folders[1].id;
    const scenarios = [
      ["GET /v1/notes (page of 20)", "/v1/notes?limit=20"],
      ["GET /v1/notes search", `/v1/notes?limit=20&search=${seeded.company}`],
      [
        "GET /v1/notes folderIds + dates",
        `/v1/notes?limit=20&folderIds=${folder}&fromDate=2025-06-01&toDate=2026-06-01`,
      ],
      ["GET /v1/notes sortBy=title", "/v1/notes?limit=20&sortBy=title&sortOrder=asc"],
      ["GET /v1/notes/{id}", `/v1/notes/${seeded.sampleNoteId}`],
    ];
    // Warm up caches and JIT, then take the baseline before and after, and average.
    await measure(server.url, null, "/healthz");
    const before = await measure(server.url, null, "/healthz");
    const rows = [];
    for (const [name, p] of scenarios) rows.push([name, await measure(server.url, key, p)]);
    const after = await measure(server.url, null, "/healthz");
    const baseline = {
      rps: (before.rps + after.rps) / 2,
      p50: (before.p50 + after.p50) / 2,
      p99: Math.max(before.p99, after.p99),
    };
    // The same stack serving a bare 20-row query: what this machine allows at all. The
    // list and it are measured in turns, ROUNDS times, so that a machine whose speed
    // drifts over a minute slows both sides of each round's ratio alike.
    const bare = spawn(
      process.execPath,
      [path.join(path.dirname(fileURLToPath(import.meta.url)), "bare-server.mjs"), path.join(dataDir, "notula.db")],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const bareUrl = await new Promise((resolve) => bare.stdout.once("data", (d) => resolve(String(d).trim())));
    await measure(bareUrl, null, "/healthz");
    const bareHealth = await measure(bareUrl, null, "/healthz");
    await measure(bareUrl, null, "/bare");
    const turns = [];
    for (let i = 0; i < ROUNDS; i++) {
      const list = await measure(server.url, key, scenarios[0][1]);
      const query = await measure(bareUrl, null, "/bare");
      turns.push({ list, query, ratio: list.rps / query.rps });
    }
    bare.kill();
    await stopServer(server.proc);
    const byRatio = [...turns].sort((a, b) => a.ratio - b.ratio);
    const middle = byRatio[Math.floor(byRatio.length / 2)];

    const line = (name, r, ratio) =>
      `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(6)} ${String(r.p99).padStart(6)} ${ratio.padStart(8)}`;
    console.log(
      `\nnotula REST API at ${NOTES.toLocaleString("en")} notes, ${CONNECTIONS} connections, ${DURATION} s each`,
    );
    console.log(
      `${"scenario".padEnd(34)} ${"req/s".padStart(8)} ${"p50 ms".padStart(6)} ${"p99 ms".padStart(6)} ${"ratio".padStart(8)}`,
    );
    console.log(line("GET /healthz (baseline)", baseline, "1.00"));
    let ok = true;
    for (const [name, r] of rows) {
      const ratio = r.rps / baseline.rps;
      const pass = ratio >= 0.25 && r.p99 < 10;
      if (!pass) ok = false;
      console.log(line(name, r, ratio.toFixed(2)) + (pass ? "" : "  (below goal)"));
    }
    console.log(
      `\ngoal: every list query >= 0.25 of the baseline's throughput and p99 < 10 ms: ${ok ? "met" : "not met"}`,
    );
    console.log(
      `reference: a bare 20-row SELECT * on the same stack, no auth or shaping: ${middle.query.rps.toFixed(0)} req/s, ` +
        `${(middle.query.rps / bareHealth.rps).toFixed(2)} of its own /healthz (${bareHealth.rps.toFixed(0)} req/s).`,
    );
    console.log(
      `GET /v1/notes against that bare query, ${ROUNDS} rounds in turns: ${turns.map((t) => t.ratio.toFixed(2)).join(", ")}; ` +
        `median ${middle.ratio.toFixed(2)} (${middle.list.rps.toFixed(0)} against ${middle.query.rps.toFixed(0)} req/s; goal >= 0.8: ${middle.ratio >= 0.8 ? "met" : "not met"}).`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  // Then where each request's time goes, on both databases (bench/layers.mjs).
  await benchLayers();
}
