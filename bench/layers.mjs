// Where a request's time goes, layer by layer, on SQLite and on PostgreSQL side by
// side: the same meetings written through the REST routes into each, then a list, a
// note read and a full-text search, one request at a time, timed whole (over a socket
// to the app listening as the server does, and through the app without one) and in
// their parts: the key lookup,
// the caller's access facts, the statement(s), shaping the answer and writing its
// JSON. What is left of the whole is the framework's: routing, validation, middleware
// and the request log. Each figure is a median of BENCH_LAYER_RUNS runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { analyze, withScratchDatabase } from "./lib.mjs";

const NOTES = Number(process.env.BENCH_LAYER_NOTES ?? 3_000);
const RUNS = Number(process.env.BENCH_LAYER_RUNS ?? 300);
const WORDS = [
  "budget",
  "hiring",
  "roadmap",
  "pricing",
  "launch",
  "customers",
  "lisbon",
  "office",
  "quarter",
  "design",
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Median milliseconds of `fn` over the runs, after a warm-up. */
async function time(fn) {
  for (let i = 0; i < 20; i++) await fn();
  const out = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(out);
}

function meeting(i) {
  const pick = (k) => WORDS[(i * 7 + k * 3) % WORDS.length];
  return {
    title: `Meeting ${i} about ${pick(0)} and ${pick(1)}`,
    userWrittenNote: `Notes on ${pick(2)}.`,
    summary: `We discussed ${pick(3)} and ${pick(4)}.`,
    participants: [{ name: "Ana", email: `ana${i % 50}@example.com` }],
    transcripts: Array.from({ length: 8 }, (_, k) => ({
      speaker: k % 2 ? "Ben" : "Ana",
      text: `The ${pick(k)} plan for the ${pick(k + 1)} needs a decision on ${pick(k + 2)} before the ${pick(k + 3)} review.`,
      startTimestamp: `${String(k).padStart(2, "0")}:00`,
      endTimestamp: `${String(k).padStart(2, "0")}:30`,
    })),
  };
}

async function measureOn(kit, database) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-layers-"));
  const config = kit.resolveConfig(
    kit.loadConfig(
      { dataDir, database },
      { NOTULA_EMBEDDINGS: "none", NOTULA_RATE_LIMIT: "off", NOTULA_LOG_LEVEL: "info" },
    ),
    { address: "127.0.0.1", family: "IPv4", port: 8787 },
  );
  // The request log writes as a server's does, to a file here so the figures stay readable.
  const logFile = fs.createWriteStream(path.join(dataDir, "requests.log"));
  const logger = kit.createLogger({ level: "info", destination: logFile });
  const lines = [];
  const { app, runtime } = await kit.assemble(config, { version: "bench", out: (l) => lines.push(l), logger });
  try {
    const key = /Admin API key[^:]*: (ntl_\S+)/.exec(lines.join("\n"))[1];
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const call = (method, p, body) =>
      app.request(`${config.publicUrl}${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const ids = [];
    for (let i = 0; i < NOTES; i++) {
      const r = await call("POST", "/v1/notes", meeting(i));
      if (r.status !== 200) throw new Error(`writing a note: ${r.status} ${await r.text()}`);
      ids.push((await r.json()).note.id);
    }
    await runtime.queue.idle?.();
    await analyze(database, dataDir);
    const { services, repos } = runtime;
    const principal = await services.authentication.apiKey(key);
    const view = await services.access.view(principal);
    const noteId = ids[Math.floor(ids.length / 2)];
    const listQuery = { limit: 20, offset: 0, sortBy: "createdAt", sortOrder: "desc" };
    const searchQuery = { q: "lisbon office", mode: "fulltext", limit: 10 };
    const ops = {
      list: {
        path: "/v1/notes?limit=20",
        statement: () => repos.notes.listJson(view, listQuery),
        service: () => services.notes.listJson(principal, listQuery),
        json: (result) => `{"items":[${result.items.join(",")}],"pagination":${JSON.stringify(result.pagination)}}`,
      },
      note: {
        path: `/v1/notes/${noteId}`,
        statement: () => repos.notes.getWithParts(view, noteId),
        service: () => services.notes.get(principal, noteId),
        json: (result) => JSON.stringify({ note: result }),
      },
      search: {
        path: "/v1/search?q=lisbon%20office&mode=fulltext&limit=10",
        // A search is several statements and their fusion: the service is its statements here.
        statement: null,
        service: () => services.search.search(principal, searchQuery),
        json: (result) => JSON.stringify(result),
      },
    };
    // The same app on a socket, as `notula serve` listens: what a client one request at a
    // time sees, with HTTP's own cost, the same for both databases, included.
    const { serve } = await import("@hono/node-server");
    const listening = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) =>
        resolve({ s, url: `http://127.0.0.1:${info.port}` }),
      );
    });
    const out = {};
    for (const [name, op] of Object.entries(ops)) {
      const http = await time(() => fetch(listening.url + op.path, { headers }).then((r) => r.text()));
      const request = await time(() => call("GET", op.path).then((r) => r.text()));
      const auth = await time(() => services.authentication.apiKey(key));
      const facts = await time(() => services.access.view(principal));
      const service = await time(op.service);
      const statement = op.statement ? await time(op.statement) : null;
      const sample = await op.service();
      const json = await time(() => op.json(sample));
      out[name] = {
        http,
        request,
        auth,
        facts,
        statement,
        // What the service does besides its facts and statements: shaping the answer.
        shaping: statement === null ? null : Math.max(0, service - facts - statement),
        service,
        json,
        framework: Math.max(0, request - auth - service - json),
      };
    }
    await new Promise((resolve) => listening.s.close(resolve));
    return out;
  } finally {
    await runtime.close();
    logFile.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchLayers() {
  const kit = await import("./.kit/kit.js");
  const sqlite = await measureOn(kit, undefined);
  const postgres = await withScratchDatabase("notula_layers", (url) => measureOn(kit, url));
  const f = (v) => (v === null ? "—" : v.toFixed(2));
  console.log(`\nWhere a request's time goes, ${NOTES.toLocaleString("en")} meetings, median ms of ${RUNS} runs`);
  const layers = ["http", "request", "auth", "service", "facts", "statement", "shaping", "json", "framework"];
  for (const op of ["list", "note", "search"]) {
    console.log(`\n${op}`);
    console.log(
      `${"layer".padEnd(11)} ${"SQLite".padStart(8)} ${"PostgreSQL".padStart(11)} ${"PG/SQLite".padStart(10)}`,
    );
    for (const layer of layers) {
      const a = sqlite[op][layer];
      const b = postgres[op][layer];
      const ratio = a && b ? (b / a).toFixed(2) : "—";
      console.log(`${layer.padEnd(11)} ${f(a).padStart(8)} ${f(b).padStart(11)} ${ratio.padStart(10)}`);
    }
  }
  console.log(
    "\nhttp: the whole, over a socket to the app listening as the server does (a kept-alive connection, one request at a time); request: the whole, through the app; auth: the key lookup; service: the service's call, which holds facts, statement and shaping; facts: the caller's access facts; statement: the store's read; shaping: the rest of the service; json: writing the answer; framework: what is left (routing, validation, middleware, request log). A search's statements are not timed apart from its service.",
  );
}
