// What a read costs on PostgreSQL, statement by statement: for each hot read, the
// statements it sends (each one round trip), the server's own time for them split into
// parse, bind (where a statement is planned) and execute, and the rest of the request
// (HTTP, the app, the driver and the round trips themselves), against the same read on
// SQLite in the same run.
//
// The server's time comes from PostgreSQL's own log: the scratch database is set to log
// every statement with its duration (log_min_duration_statement = 0), and the log is read
// where Debian's cluster writes it (BENCH_PG_LOG to name another). The reads are timed on
// a server with `--role api`, so that no background job's statement is counted with them;
// the notes were made and processed by a server of role all beforehand.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { api, startServer, stopServer, timed, untilProcessed, withScratchDatabase } from "./lib.mjs";
import { transcriptMeeting } from "./meeting-lines.mjs";

const NOTES = Number(process.env.BENCH_STATEMENTS_NOTES ?? 1000);
const REQUESTS = Number(process.env.BENCH_STATEMENTS_REQUESTS ?? 200);
const LOG = process.env.BENCH_PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Makes NOTES meetings and lets the background summarise and index them; one note's id. */
async function fill(dataDir, database) {
  const server = await startServer(dataDir, ["--metrics", ...(database ? ["--database", database] : [])]);
  try {
    let next = 0;
    const ids = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < NOTES) ids.push((await api(server, "POST", "/v1/notes", transcriptMeeting(next++))).note.id);
      }),
    );
    await untilProcessed(server);
    return { id: ids[Math.floor(ids.length / 2)], key: server.key };
  } finally {
    await stopServer(server.proc);
  }
}

const shapesFor = (id) => ({
  "list, page of 20": "/v1/notes?limit=20",
  "one note": `/v1/notes/${id}`,
  "search, rare word": "/v1/search?q=zeppelin",
  "search, common word": "/v1/search?q=budget",
});

/** The log's statement lines written while `fn` ran, by phase. */
async function logged(fn) {
  const from = fs.statSync(LOG).size;
  await fn();
  // The server writes its log line as the statement ends; a moment lets the last ones land.
  await new Promise((r) => setTimeout(r, 300));
  const to = fs.statSync(LOG).size;
  const buf = Buffer.alloc(to - from);
  const fd = fs.openSync(LOG, "r");
  fs.readSync(fd, buf, 0, buf.length, from);
  fs.closeSync(fd);
  const phases = { parse: 0, bind: 0, execute: 0, statements: 0 };
  for (const m of buf.toString().matchAll(/duration: ([\d.]+) ms\s+(parse|bind|execute|statement)\b/g)) {
    const phase = m[2] === "statement" ? "execute" : m[2];
    phases[phase] += Number(m[1]);
    // A statement is one execute (or one simple-protocol statement): one round trip.
    if (phase === "execute") phases.statements++;
  }
  return phases;
}

async function onBackend(label, database) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `notula-bench-statements-${label}-`));
  const dataDir = path.join(dir, "data");
  try {
    const { id, key } = await fill(dataDir, database);
    const server = await startServer(
      dataDir,
      ["--role", "api", ...(database ? ["--database", database] : [])],
      {
        NOTULA_RATE_LIMIT_ENTERPRISE: "1000000",
      },
      { rateLimit: true },
    );
    // The key is printed when the workspace is made, by the first server.
    server.key = key;
    try {
      const out = {};
      for (const [name, p] of Object.entries(shapesFor(id))) {
        // Warm: each connection of the pool has parsed and planned its named statements.
        for (let i = 0; i < 50; i++) await timed(server, p);
        const times = [];
        const run = async () => {
          for (let i = 0; i < REQUESTS; i++) times.push(await timed(server, p));
        };
        const phases = database ? await logged(run) : (await run(), null);
        out[name] = { p50: median(times), mean: times.reduce((a, b) => a + b, 0) / times.length, phases };
      }
      return out;
    } finally {
      await stopServer(server.proc);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStatements() {
  try {
    fs.accessSync(LOG, fs.constants.R_OK);
  } catch {
    console.log(`PostgreSQL's log is not readable at ${LOG} (set BENCH_PG_LOG): nothing measured.`);
    return;
  }
  const sqlite = await onBackend("sqlite");
  const postgres = await withScratchDatabase("notula_bench_statements", async (url) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET log_min_duration_statement = 0`);
    await c.end();
    return onBackend("pg", url);
  });
  const f = (x, d = 2) => x.toFixed(d);
  console.log(
    `\nWhat a read costs, statement by statement: ${NOTES} meetings, ${REQUESTS} of each read one at a time,`,
  );
  console.log(
    "request limits on, on a server of role api (no background jobs); times in ms, means per request but the p50s.\n",
  );
  console.log(
    "| read | SQLite p50 | PostgreSQL p50 | ratio | statements | parse | bind (plan) | execute | rest of PostgreSQL's request | over SQLite's |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const name of Object.keys(sqlite)) {
    const s = sqlite[name];
    const p = postgres[name];
    const per = (x) => x / REQUESTS;
    const server = per(p.phases.parse + p.phases.bind + p.phases.execute);
    console.log(
      `| ${name} | ${f(s.p50)} | ${f(p.p50)} | ${f(p.p50 / s.p50)} | ${f(per(p.phases.statements), 1)} | ${f(per(p.phases.parse))} | ${f(per(p.phases.bind))} | ${f(per(p.phases.execute))} | ${f(p.mean - server)} | ${f(p.mean - server - s.mean)} |`,
    );
  }
  console.log(
    "\nrest of PostgreSQL's request: its mean time less the server's parse, bind and execute; over SQLite's: that less SQLite's mean time (the round trips and the driver, for the most part).",
  );
}
