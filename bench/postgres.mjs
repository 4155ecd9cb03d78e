// The same REST scenarios (lists, a note, search, writes) on SQLite and on PostgreSQL, in one run: each backend's
// figures as ratios to its own server's GET /healthz, and PostgreSQL's throughput as
// a ratio to SQLite's. The database is NOTULA_BENCH_DATABASE_URL's server (an admin
// URL; a fresh database is made and dropped), else the tests' one, else 127.0.0.1.
import autocannon from "autocannon";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { root, startServer, stopServer } from "./lib.mjs";
import { seed } from "./seed.mjs";
import { seedPostgres } from "./seed-postgres.mjs";

const NOTES = Number(process.env.BENCH_NOTES ?? 20_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function adminUrl() {
  if (process.env.NOTULA_BENCH_DATABASE_URL) return process.env.NOTULA_BENCH_DATABASE_URL;
  const file = path.join(root, ".test-postgres-url");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "postgres://postgres@127.0.0.1:5432/postgres";
}

async function measure(url, key, p, method = "GET", body) {
  const r = await autocannon({
    url: url + p,
    method,
    body,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
  });
  if (r.non2xx + r.errors) throw new Error(`${p}: ${r.non2xx + r.errors} failed requests`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

async function run(backend, env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `notula-bench-${backend}-`));
  try {
    let server = await startServer(dataDir, [], env);
    const key = server.key;
    await stopServer(server.proc);
    const t0 = Date.now();
    const seeded =
      backend === "postgres"
        ? await seedPostgres(env.NOTULA_DATABASE_URL, NOTES)
        : seed(path.join(dataDir, "notula.db"), NOTES);
    console.error(
      `${backend}: seeded ${NOTES.toLocaleString("en")} notes in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    server = await startServer(dataDir, [], env);
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
    await measure(server.url, null, "/healthz");
    const health = await measure(server.url, null, "/healthz");
    const results = {};
    for (const [name, p, method, body] of scenarios) results[name] = await measure(server.url, key, p, method, body);
    await stopServer(server.proc);
    return { health, results };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchPostgres() {
  const admin = adminUrl();
  const name = `notula_bench_${randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    const lite = await run("sqlite", {});
    const pgr = await run("postgres", { NOTULA_DATABASE_URL: url.toString() });
    console.log(
      `\nREST on SQLite and PostgreSQL, ${NOTES.toLocaleString("en")} notes, ${CONNECTIONS} connections, ${DURATION} s each (same machine as the database)`,
    );
    console.log(
      `${"scenario".padEnd(22)} ${"SQLite req/s".padStart(12)} ${"ratio".padStart(6)} ${"PG req/s".padStart(10)} ${"ratio".padStart(6)} ${"p99 PG".padStart(7)} ${"PG/SQLite".padStart(9)}`,
    );
    const row = (n, a, b, ra, rb) =>
      `${n.padEnd(22)} ${a.rps.toFixed(0).padStart(12)} ${ra.padStart(6)} ${b.rps.toFixed(0).padStart(10)} ${rb.padStart(6)} ${`${b.p99} ms`.padStart(7)} ${(b.rps / a.rps).toFixed(2).padStart(9)}`;
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
  } finally {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await d.end();
  }
}
