// The same REST scenarios (lists, a note, search, writes) on SQLite and on PostgreSQL, in one run, at
// BENCH_NOTES meetings (default 100,000): each backend's figures as ratios to its own
// server's GET /healthz, PostgreSQL's throughput as a ratio to SQLite's, and the search
// latencies against their goals (p50 <= 50 ms, p99 <= 150 ms on PostgreSQL). The database
// is NOTULA_BENCH_DATABASE_URL's server (an admin URL; a fresh database is made and
// dropped), else the tests' one, else 127.0.0.1. Each meeting has one passage with a
// vector (BENCH_PASSAGES of them, the newest), for search by meaning and hybrid search:
// through SQLite's cells, and on PostgreSQL through pgvector where the server has it,
// else through the same cells, in PostgreSQL's tables.
import autocannon from "autocannon";
import Database from "better-sqlite3";
import pg from "pg";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer, stopServer, withScratchDatabase } from "./lib.mjs";
import { seed } from "./seed.mjs";
import { seedPostgres } from "./seed-postgres.mjs";
import { seedVectorsPostgres, seedVectorsSqlite } from "./seed-vectors.mjs";
import { embeddingPool } from "./vectors.mjs";
import { steadyIngest } from "./meeting-lines.mjs";

const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
/** Seconds of each measurement; each scenario is measured twice on each backend. */
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PASSAGES = Number(process.env.BENCH_PASSAGES ?? NOTES);
/** Notes a second made while the list and one note are timed under ingest. */
const INGEST_RATE = Number(process.env.BENCH_INGEST_RATE ?? 5);
/** The reads whose p99 one at a time has a goal (under 20 ms on PostgreSQL), idle and under ingest. */
const ALONE = ["list, page of 20", "one note"];

async function measure(url, key, p, method = "GET", body, connections = CONNECTIONS) {
  const r = await autocannon({
    url: url + p,
    method,
    body,
    connections,
    duration: DURATION,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
  });
  if (r.non2xx + r.errors + r.timeouts) throw new Error(`${p}: ${r.non2xx + r.errors + r.timeouts} failed requests`);
  if (!r.requests.total) throw new Error(`${p}: no request was answered within the run`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

/** Seeds one backend and starts its server (with the paths of the scenarios for its data). */
async function prepare(backend, env, pool, dataDir) {
  let server = await startServer(dataDir, [], env);
  const key = server.key;
  await stopServer(server.proc);
  const t0 = Date.now();
  const seeded =
    backend === "postgres"
      ? await seedPostgres(env.NOTULA_DATABASE_URL, NOTES)
      : seed(path.join(dataDir, "notula.db"), NOTES);
  const passages =
    backend === "postgres"
      ? await seedVectorsPostgres(env.NOTULA_DATABASE_URL, pool, PASSAGES)
      : await seedVectorsSqlite(path.join(dataDir, "notula.db"), pool, PASSAGES);
  console.error(
    `${backend}: seeded ${NOTES.toLocaleString("en")} notes and ${passages.toLocaleString("en")} passage vectors in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  server = await startServer(dataDir, [], env);
  // The embedding model loads on the first search by meaning: not part of any scenario.
  const warm = await fetch(`${server.url}/v1/search?q=warm&mode=semantic`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (!warm.ok) throw new Error(`search by meaning: ${warm.status} ${await warm.text()}`);
  const scenarios = [
    ["list, page of 20", "/v1/notes?limit=20"],
    ["list, title search", `/v1/notes?limit=20&search=${seeded.company}`],
    [
      "list, folder + dates",
      `/v1/notes?limit=20&folderIds=${seeded.folders[1].id}&fromDate=2025-06-01&toDate=2026-06-01`,
    ],
    ["list, by title", "/v1/notes?limit=20&sortBy=title&sortOrder=asc"],
    ["one note", `/v1/notes/${seeded.sampleNoteId}`],
    // What was said: a company named in one meeting of 500, a topic in one of 10.
    ["search, rare word", `/v1/search?q=${seeded.company}&mode=fulltext`],
    ["search, common word", "/v1/search?q=roadmap&mode=fulltext"],
    // A phrase said in one meeting of 10, and two words that must both be there.
    ["search, phrase", `/v1/search?q=${encodeURIComponent('"security review"')}&mode=fulltext`],
    ["search, two words", `/v1/search?q=budget+${seeded.company}&mode=fulltext`],
    // The query embedded by the bundled model, then the nearest passages (and, hybrid, the words too).
    ["search, by meaning", "/v1/search?q=planning+the+budget+for+next+quarter&mode=semantic"],
    ["search, hybrid", "/v1/search?q=roadmap&mode=hybrid"],
    [
      "create a note",
      "/v1/notes",
      "POST",
      JSON.stringify({ title: "Bench note", userWrittenNote: "Written during the benchmark." }),
    ],
    [
      "upload URL",
      "/v1/notes/from-audio/generate-upload-url",
      "POST",
      JSON.stringify({ fileExtension: "wav", duration: 60 }),
    ],
  ];
  // BENCH_SCENARIOS: only the scenarios whose names hold one of these (comma-separated).
  const only = process.env.BENCH_SCENARIOS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return { server, key, scenarios: only ? scenarios.filter(([n]) => only.some((o) => n.includes(o))) : scenarios };
}

const UNFINISHED_JOBS = "SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running') AND kind <> 'sweep'";

/**
 * Waits until a server's background jobs (a created note's indexing) are done, so that
 * one backend's work does not run during the other's measurement.
 */
async function settle(backend, dataDir, url) {
  const count =
    backend === "postgres"
      ? async () => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          try {
            return Number((await c.query(UNFINISHED_JOBS)).rows[0].n);
          } finally {
            await c.end();
          }
        }
      : async () => {
          const db = new Database(path.join(dataDir, "notula.db"), { readonly: true });
          try {
            return Number(db.prepare(UNFINISHED_JOBS).get().n);
          } finally {
            db.close();
          }
        };
  for (let waited = 0; (await count()) > 0; waited += 200) {
    if (waited > 300_000) throw new Error(`${backend}: background jobs still running after 5 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Both servers run at once, and each scenario is measured on SQLite and then at once on
 * PostgreSQL: on a shared machine whose speed drifts over minutes, the ratio of two
 * measurements taken seconds apart holds better than that of two taken ten minutes apart.
 */
async function run(url, pool) {
  const dirs = { sqlite: fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-sqlite-")) };
  dirs.postgres = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-postgres-"));
  const env = { NOTULA_EMBEDDINGS: "local" };
  const backends = {};
  try {
    backends.sqlite = await prepare("sqlite", env, pool, dirs.sqlite);
    backends.postgres = await prepare("postgres", { ...env, NOTULA_DATABASE_URL: url }, pool, dirs.postgres);
    const out = { sqlite: { results: {} }, postgres: { results: {} } };
    for (const b of ["sqlite", "postgres"]) await measure(backends[b].server.url, null, "/healthz");
    for (const b of ["sqlite", "postgres"]) out[b].health = await measure(backends[b].server.url, null, "/healthz");
    for (let i = 0; i < backends.sqlite.scenarios.length; i++) {
      const runs = { sqlite: [], postgres: [] };
      // SQLite, PostgreSQL, PostgreSQL, SQLite: a drift of the machine's speed during the
      // four measurements weighs on both backends alike.
      for (const b of ["sqlite", "postgres", "postgres", "sqlite"]) {
        const { server, key, scenarios } = backends[b];
        const [name, p, method, body] = scenarios[i];
        const r = await measure(server.url, key, p, method, body);
        // A search's own latency, one at a time, besides its latency under the load above.
        if ((name.startsWith("search") || ALONE.includes(name)) && !runs[b].length)
          r.alone = await measure(server.url, key, p, method, body, 1);
        runs[b].push(r);
        if (method) await settle(b, dirs[b], url);
      }
      const name = backends.sqlite.scenarios[i][0];
      for (const b of ["sqlite", "postgres"]) {
        const [first, second] = runs[b];
        out[b].results[name] = {
          rps: (first.rps + second.rps) / 2,
          p50: Math.max(first.p50, second.p50),
          p99: Math.max(first.p99, second.p99),
          alone: first.alone,
        };
      }
    }
    // The list and one note again, one at a time, while notes keep coming (each
    // summarised and indexed in the background), on each backend in turn.
    for (const b of ["sqlite", "postgres"]) {
      const { server, key, scenarios } = backends[b];
      const stopIngest = steadyIngest({ url: server.url, key }, INGEST_RATE, NOTES);
      out[b].ingest = {};
      for (const [name, p] of scenarios.filter(([n]) => ALONE.includes(n)))
        out[b].ingest[name] = await measure(server.url, key, p, undefined, undefined, 1);
      out[b].ingestRate = await stopIngest();
      // Its background at 100,000 meetings (the vector cells rebuilt) can outlast minutes:
      // the server stops, so that none of it runs beside the other backend's timing.
      await stopServer(backends[b].server.proc);
      delete backends[b];
    }
    return out;
  } finally {
    for (const b of Object.values(backends)) await stopServer(b.server.proc);
    for (const d of Object.values(dirs)) fs.rmSync(d, { recursive: true, force: true });
  }
}

export async function benchPostgres() {
  return withScratchDatabase("notula_bench", async (url) => {
    process.stderr.write("embedding a pool of 500 sentences with the bundled model…\n");
    const pool = await embeddingPool(500);
    const { sqlite: lite, postgres: pgr } = await run(url, pool);
    console.log(
      `\nREST on SQLite and PostgreSQL, ${NOTES.toLocaleString("en")} notes, ${CONNECTIONS} connections, twice ${DURATION} s each (in the order SQLite, PostgreSQL, PostgreSQL, SQLite; the mean rate, the higher latencies; same machine as the database)`,
    );
    console.log(
      `${"scenario".padEnd(22)} ${"SQLite req/s".padStart(12)} ${"ratio".padStart(6)} ${"PG req/s".padStart(10)} ${"ratio".padStart(6)} ${"p50 PG".padStart(7)} ${"p99 PG".padStart(7)} ${"PG/SQLite".padStart(9)}`,
    );
    const row = (n, a, b, ra, rb) =>
      `${n.padEnd(22)} ${a.rps.toFixed(0).padStart(12)} ${ra.padStart(6)} ${b.rps.toFixed(0).padStart(10)} ${rb.padStart(6)} ${`${b.p50} ms`.padStart(7)} ${`${b.p99} ms`.padStart(7)} ${(b.rps / a.rps).toFixed(2).padStart(9)}`;
    console.log(row("GET /healthz", lite.health, pgr.health, "1.00", "1.00"));
    for (const n of Object.keys(lite.results))
      console.log(
        row(
          n,
          lite.results[n],
          pgr.results[n],
          (lite.results[n].rps / lite.health.rps).toFixed(2),
          (pgr.results[n].rps / pgr.health.rps).toFixed(2),
        ),
      );
    console.log(`\nSearch latency, one request at a time (p50 / p99, ms):`);
    for (const n of Object.keys(pgr.results).filter((n) => n.startsWith("search")))
      console.log(
        `  ${n.padEnd(22)} SQLite ${lite.results[n].alone.p50} / ${lite.results[n].alone.p99}   PostgreSQL ${pgr.results[n].alone.p50} / ${pgr.results[n].alone.p99}`,
      );
    console.log(
      `\nList and one note, one request at a time (p50 / p99, ms), idle and while notes are made at ${INGEST_RATE} a second (measured: SQLite ${lite.ingestRate.toFixed(1)}, PostgreSQL ${pgr.ingestRate.toFixed(1)}):`,
    );
    for (const n of ALONE.filter((n) => pgr.results[n]))
      console.log(
        `  ${n.padEnd(22)} idle: SQLite ${lite.results[n].alone.p50} / ${lite.results[n].alone.p99}   PostgreSQL ${pgr.results[n].alone.p50} / ${pgr.results[n].alone.p99}   ingest: SQLite ${lite.ingest[n].p50} / ${lite.ingest[n].p99}   PostgreSQL ${pgr.ingest[n].p50} / ${pgr.ingest[n].p99}`,
      );
    for (const n of ALONE.filter((n) => pgr.results[n])) {
      const worst = Math.max(pgr.results[n].alone.p99, pgr.ingest[n].p99);
      console.log(
        `  ${n.padEnd(22)} ${worst < 20 ? "met    " : "not met"}  PostgreSQL p99 < 20 ms, idle and under ingest: ${worst} ms`,
      );
    }
    console.log(`\nGoals on PostgreSQL (search latency one at a time; throughput under ${CONNECTIONS} connections):`);
    for (const n of Object.keys(pgr.results)) {
      const r = pgr.results[n];
      const ratio = r.rps / lite.results[n].rps;
      const write = n.startsWith("create") || n.startsWith("upload");
      const checks = [
        write ? `writes >= 1.0 of SQLite: ${ratio.toFixed(2)}` : `reads >= 0.5 of SQLite: ${ratio.toFixed(2)}`,
        ...(n.startsWith("search, rare") || n.startsWith("search, common")
          ? [`p50 ${r.alone.p50} ms <= 50`, `p99 ${r.alone.p99} ms <= 150`]
          : []),
      ];
      const met =
        (write ? ratio >= 1 : ratio >= 0.5) && (checks.length < 2 || (r.alone.p50 <= 50 && r.alone.p99 <= 150));
      console.log(`  ${n.padEnd(22)} ${met ? "met    " : "not met"}  ${checks.join(", ")}`);
    }
  });
}
