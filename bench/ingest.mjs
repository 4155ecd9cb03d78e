// Reads while the server is busy writing notes, on SQLite and on PostgreSQL, in one run:
// BENCH_INGEST_NOTES meetings (default 3,000) are made through POST /v1/notes, each with
// a ten-line transcript (so each is summarised and indexed in the background), and the
// reads are timed in three states:
//   after:  as soon as the last create returned (the background still catching up);
//   idle:   once every note is processed;
//   ingest: while notes keep coming at BENCH_INGEST_RATE a second (default 5).
// Each state times BENCH_INGEST_REQUESTS (default 300) of each read, one after another:
// a page of 20, one note, a search for a rare word and one for a common word. The
// report is each read's p50 and p99 on both databases, and PostgreSQL's p50 as a ratio
// to SQLite's (goal: at most 2).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { api, startServer, stopServer, withScratchDatabase } from "./lib.mjs";
import { MEETING_LINES } from "./meeting-lines.mjs";

const NOTES = Number(process.env.BENCH_INGEST_NOTES ?? 3000);
const REQUESTS = Number(process.env.BENCH_INGEST_REQUESTS ?? 300);
const RATE = Number(process.env.BENCH_INGEST_RATE ?? 5);
/**
 * The request limits on, as a server runs by default (a limit high enough never to
 * refuse): each request also counts itself, in memory on SQLite and in the database on
 * PostgreSQL, where replicas share the count. BENCH_INGEST_RATE_LIMIT=off leaves them out.
 */
const RATE_LIMIT = process.env.BENCH_INGEST_RATE_LIMIT !== "off";
const VOICES = ["Ana Lopez", "Ben Ode", "Cyrus Park", "Dee Lang"];
const mmss = (sec) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;

/** Meeting i, ten lines; one meeting in a hundred says the rare word. */
const meeting = (i) => ({
  title: `Meeting ${i}`,
  transcripts: Array.from({ length: 10 }, (_, j) => ({
    speaker: VOICES[(i + j) % VOICES.length],
    text: `${MEETING_LINES[(i + j) % MEETING_LINES.length]}${i % 100 === 0 && j === 3 ? " The zeppelin arrives." : ""}`,
    startTimestamp: mmss(j * 5),
    endTimestamp: mmss(j * 5 + 5),
  })),
});

async function timed(server, p) {
  const t = performance.now();
  const res = await fetch(server.url + p, { headers: { authorization: `Bearer ${server.key}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${p}: ${res.status}`);
  return performance.now() - t;
}

const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

/** Each read, REQUESTS times: p50 and p99 in ms. */
async function reads(server, someId) {
  const shapes = {
    "list, page of 20": "/v1/notes?limit=20",
    "one note": `/v1/notes/${someId}`,
    "search, rare word": "/v1/search?q=zeppelin",
    "search, common word": "/v1/search?q=budget",
  };
  const out = {};
  for (const [name, p] of Object.entries(shapes)) {
    const times = [];
    for (let i = 0; i < REQUESTS; i++) times.push(await timed(server, p));
    times.sort((a, b) => a - b);
    out[name] = { p50: pct(times, 0.5), p99: pct(times, 0.99) };
  }
  return out;
}

/** Waits until no note is being summarised or indexed (their jobs, as /metrics counts them). */
async function untilProcessed(server) {
  for (;;) {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const waiting = [...text.matchAll(/^notula_jobs\{([^}]*)\} (\d+)/gm)]
      .filter(
        ([, labels]) => /kind="(process-note|index-passages)"/.test(labels) && /status="(queued|running)"/.test(labels),
      )
      .map((m) => Number(m[2]))
      .reduce((a, b) => a + b, 0);
    if (waiting === 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
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

async function measureBackend(label, database) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `notula-bench-ingest-${label}-`));
  const server = await startServer(
    path.join(dir, "data"),
    ["--metrics", ...(database ? ["--database", database] : [])],
    { NOTULA_RATE_LIMIT_ENTERPRISE: "1000000" },
    { rateLimit: RATE_LIMIT },
  );
  try {
    const ids = await create(server, 0, NOTES);
    const someId = ids[Math.floor(ids.length / 2)];
    const after = await reads(server, someId);
    await untilProcessed(server);
    const idle = await reads(server, someId);
    // Steady ingest: a note every 1/RATE s, for as long as the reads take.
    let stop = false;
    let made = 0;
    const writer = (async () => {
      for (let i = NOTES; !stop; i++) {
        const t = performance.now();
        await api(server, "POST", "/v1/notes", meeting(i));
        made++;
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 / RATE - (performance.now() - t))));
      }
    })();
    const started = performance.now();
    const ingest = await reads(server, someId);
    stop = true;
    await writer;
    const rate = made / ((performance.now() - started) / 1000);
    return { after, idle, ingest, rate };
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchIngest() {
  const sqlite = await measureBackend("sqlite");
  // Said as soon as it is known: the other database takes as long again.
  console.log(`SQLite: ${JSON.stringify(sqlite)}`);
  const postgres = await withScratchDatabase("notula_bench_ingest", (url) => measureBackend("pg", url));
  const ms = (x) => x.toFixed(1).padStart(6);
  console.log(`\nReads while notes are written: ${NOTES} meetings made through POST /v1/notes (ten-line transcripts),`);
  console.log(
    `${REQUESTS} of each read one after another; ingest at ${RATE} notes/s; request limits ${RATE_LIMIT ? "on" : "off"}`,
  );
  console.log(
    `(measured ingest: SQLite ${sqlite.rate.toFixed(1)} notes/s, PostgreSQL ${postgres.rate.toFixed(1)} notes/s)\n`,
  );
  console.log("| state | read | SQLite p50 | SQLite p99 | PostgreSQL p50 | PostgreSQL p99 | p50 ratio (goal ≤ 2) |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  let met = true;
  for (const state of ["after", "idle", "ingest"])
    for (const read of Object.keys(sqlite[state])) {
      const s = sqlite[state][read];
      const p = postgres[state][read];
      const ratio = p.p50 / s.p50;
      if (ratio > 2) met = false;
      console.log(
        `| ${state} | ${read} | ${ms(s.p50)} ms | ${ms(s.p99)} ms | ${ms(p.p50)} ms | ${ms(p.p99)} ms | ${ratio.toFixed(2)} |`,
      );
    }
  console.log(
    `\ngoal: PostgreSQL's p50 at most twice SQLite's for every read in every state: ${met ? "met" : "not met"}`,
  );
}
