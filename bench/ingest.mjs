// Reads while the server is busy writing notes, on SQLite and on PostgreSQL, in one run:
// BENCH_INGEST_NOTES meetings (default 3,000) are made through POST /v1/notes, each with
// a ten-line transcript (so each is summarised and indexed in the background), and the
// reads are timed in three states:
//   after:  as soon as the last create returned (the background still catching up);
//   idle:   once every note is processed;
//   ingest: while notes keep coming at BENCH_INGEST_RATE a second (default 5).
// Each state times BENCH_INGEST_REQUESTS (default 300) of each read, one after another:
// a page of 20, one note, a search for a rare word and one for a common word. The
// after state is each database's own; idle and ingest take the two databases in turns,
// BENCH_INGEST_ROUNDS (default 5) rounds of each, so the machine's drift falls on both. The
// report is each read's p50 and p99 on both databases, and PostgreSQL's p50 as a ratio
// to SQLite's (goal: at most 2).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { api, startServer, stopServer, timed, untilProcessed, withScratchDatabase } from "./lib.mjs";
import { steadyIngest, transcriptMeeting as meeting } from "./meeting-lines.mjs";

const NOTES = Number(process.env.BENCH_INGEST_NOTES ?? 3000);
const REQUESTS = Number(process.env.BENCH_INGEST_REQUESTS ?? 300);
/** Turns of the two databases in the idle and ingest states (REQUESTS of each read in all). */
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 5);
const RATE = Number(process.env.BENCH_INGEST_RATE ?? 5);
/**
 * The request limits on, as a server runs by default (a limit high enough never to
 * refuse): each request also counts itself, in memory on SQLite and in the database on
 * PostgreSQL, where replicas share the count. BENCH_INGEST_RATE_LIMIT=off leaves them out.
 */
const RATE_LIMIT = process.env.BENCH_INGEST_RATE_LIMIT !== "off";
/**
 * What the reads could wait on, sampled every 250 ms while they run (more often, the
 * sampling itself weighs on the server): requests waiting for a connection of the
 * server's pools and connections made meanwhile (its /metrics), and, on PostgreSQL,
 * reads of the server's waiting on a lock (pg_stat_activity). Stop it for the counts.
 */
function watchWaits(server, database) {
  let stop = false;
  const seen = { samples: 0, poolWaiting: 0, lockedReads: 0, connectionsMade: 0 };
  let madeBefore = null;
  const client = database ? new pg.Client({ connectionString: database }) : null;
  const done = (async () => {
    if (client) await client.connect();
    while (!stop) {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      for (const m of text.matchAll(/^notula_database\{figure="(\w*pool_waiting)"\} (\d+)/gm))
        seen.poolWaiting = Math.max(seen.poolWaiting, Number(m[2]));
      const made = [...text.matchAll(/^notula_database\{figure="\w*pool_connections_made"\} (\d+)/gm)]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
      madeBefore ??= made;
      seen.connectionsMade = made - madeBefore;
      if (client) {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE application_name = 'notula' AND wait_event_type = 'Lock' AND query ILIKE 'select%' AND query NOT ILIKE '%for update%'`,
        );
        seen.lockedReads += rows[0].n;
      }
      seen.samples++;
      await new Promise((r) => setTimeout(r, 250));
    }
    await client?.end();
  })();
  return async () => {
    stop = true;
    await done;
    return seen;
  };
}

const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

/** The reads, each `times` times one after another: each read's times in ms, and what they could have waited on (watchWaits). */
async function reads(server, someId, database, times) {
  const stopWatching = watchWaits(server, database);
  const shapes = {
    "list, page of 20": "/v1/notes?limit=20",
    "one note": `/v1/notes/${someId}`,
    "search, rare word": "/v1/search?q=zeppelin",
    "search, common word": "/v1/search?q=budget",
  };
  const out = {};
  for (const [name, p] of Object.entries(shapes)) {
    out[name] = [];
    for (let i = 0; i < times; i++) out[name].push(await timed(server, p));
  }
  return { times: out, waits: await stopWatching() };
}

/** Each read's p50 and p99 over the rounds' times, and the most any round waited on. */
function summarize(rounds) {
  const out = {};
  for (const name of Object.keys(rounds[0].times)) {
    const times = rounds.flatMap((r) => r.times[name]).sort((a, b) => a - b);
    out[name] = { p50: pct(times, 0.5), p99: pct(times, 0.99) };
  }
  const waits = { samples: 0, poolWaiting: 0, lockedReads: 0, connectionsMade: 0 };
  for (const { waits: w } of rounds) {
    waits.samples += w.samples;
    waits.lockedReads += w.lockedReads;
    waits.connectionsMade += w.connectionsMade;
    waits.poolWaiting = Math.max(waits.poolWaiting, w.poolWaiting);
  }
  return { ...out, waits };
}

/** Creates `count` notes, `parallel` at a time; their ids. */
async function create(server, from, count, parallel = 8) {
  const ids = [];
  let next = from;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < from + count) ids.push((await api(server, "POST", "/v1/notes", meeting(next++))).note.id);
    }),
  );
  return ids;
}

/**
 * A server with NOTES meetings made through the API, its reads timed as soon as the last
 * create returned (the background still catching up), and left once all are processed.
 */
async function filled(label, database) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `notula-bench-ingest-${label}-`));
  const server = await startServer(
    path.join(dir, "data"),
    ["--metrics", ...(database ? ["--database", database] : [])],
    { NOTULA_RATE_LIMIT_ENTERPRISE: "1000000" },
    { rateLimit: RATE_LIMIT },
  );
  const close = async () => {
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const began = performance.now();
    const ids = await create(server, 0, NOTES);
    const createdSec = (performance.now() - began) / 1000;
    const someId = ids[Math.floor(ids.length / 2)];
    const after = summarize([await reads(server, someId, database, REQUESTS)]);
    await untilProcessed(server);
    // The background's pace: every note summarised and indexed, from the first create.
    const processedPerSec = NOTES / ((performance.now() - began) / 1000);
    return { server, someId, database, after, createdSec, processedPerSec, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The idle and ingest states, measured in ROUNDS turns of both databases, so that the
 * machine's drift over minutes (its speed here moves by half from one minute to the
 * next) weighs on both alike. In an ingest round, notes come at RATE a second while
 * that database's reads run; then its background finishes them before the other's
 * round, which they would otherwise slow.
 */
async function inTurns(backends) {
  const rounds = backends.map(() => ({ idle: [], ingest: [], rates: [] }));
  const each = Math.ceil(REQUESTS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, b] of backends.entries()) rounds[i].idle.push(await reads(b.server, b.someId, b.database, each));
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, b] of backends.entries()) {
      const stopIngest = steadyIngest(b.server, RATE, NOTES + (round + 1) * 100_000);
      rounds[i].ingest.push(await reads(b.server, b.someId, b.database, each));
      rounds[i].rates.push(await stopIngest());
      await untilProcessed(b.server);
    }
  return rounds.map((r) => ({
    idle: summarize(r.idle),
    ingest: summarize(r.ingest),
    rate: r.rates.reduce((a, x) => a + x, 0) / r.rates.length,
  }));
}

export async function benchIngest() {
  const lite = await filled("sqlite");
  let sqlite, postgres;
  try {
    await withScratchDatabase("notula_bench_ingest", async (url) => {
      const pgServer = await filled("pg", url);
      try {
        const [s, p] = await inTurns([lite, pgServer]);
        sqlite = { ...lite, ...s };
        postgres = { ...pgServer, ...p };
      } finally {
        await pgServer.close();
      }
    });
  } finally {
    await lite.close();
  }
  const ms = (x) => x.toFixed(1).padStart(6);
  console.log(`\nReads while notes are written: ${NOTES} meetings made through POST /v1/notes (ten-line transcripts),`);
  console.log(
    `${REQUESTS} of each read one after another (idle and ingest: in ${ROUNDS} turns of the two); ingest at ${RATE} notes/s; request limits ${RATE_LIMIT ? "on" : "off"}`,
  );
  console.log(
    `(measured ingest: SQLite ${sqlite.rate.toFixed(1)} notes/s, PostgreSQL ${postgres.rate.toFixed(1)} notes/s)`,
  );
  for (const [name, r] of [
    ["SQLite", sqlite],
    ["PostgreSQL", postgres],
  ])
    console.log(
      `${name}: ${NOTES} made in ${r.createdSec.toFixed(0)} s; all summarised and indexed at ${r.processedPerSec.toFixed(2)} notes/s`,
    );
  console.log("");
  console.log("| state | read | SQLite p50 | SQLite p99 | PostgreSQL p50 | PostgreSQL p99 | p50 ratio (goal ≤ 2) |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  let met = true;
  for (const state of ["after", "idle", "ingest"])
    for (const read of Object.keys(sqlite[state]).filter((k) => k !== "waits")) {
      const s = sqlite[state][read];
      const p = postgres[state][read];
      const ratio = p.p50 / s.p50;
      if (ratio > 2) met = false;
      console.log(
        `| ${state} | ${read} | ${ms(s.p50)} ms | ${ms(s.p99)} ms | ${ms(p.p50)} ms | ${ms(p.p99)} ms | ${ratio.toFixed(2)} |`,
      );
    }
  console.log("\nWhat PostgreSQL's reads could wait on, sampled every 250 ms while they ran:");
  for (const state of ["after", "idle", "ingest"]) {
    const w = postgres[state].waits;
    console.log(
      `- ${state}: most requests waiting for a pool's connection at once ${w.poolWaiting}; connections made ${w.connectionsMade}; reads seen waiting on a lock ${w.lockedReads} (of ${w.samples} samples)`,
    );
  }
  console.log(
    `\ngoal: PostgreSQL's p50 at most twice SQLite's for every read in every state: ${met ? "met" : "not met"}`,
  );
}
