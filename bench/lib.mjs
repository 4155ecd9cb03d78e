// Shared pieces of the benchmarks: the server under test and measurements.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function startServer(dataDir, args = [], env = {}, opts = { rateLimit: false }) {
  const proc = spawn(
    process.execPath,
    [
      // BENCH_PROFILE_DIR: each server writes a CPU profile there when it stops (open it in
      // Chrome's DevTools, or summarise it with bench/profile-summary.mjs).
      ...(process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE_DIR] : []),
      path.join(root, "bin/notula.js"),
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      ...(opts.rateLimit ? [] : ["--no-rate-limit"]),
      ...args,
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
      // Warnings only: a log line per request would be measured too, and drown the report.
      env: { NOTULA_LOG_LEVEL: "warn", ...process.env, ...env },
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const url = /notula listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ proc, url, key: /(ntl_\S+)/.exec(out)?.[1] });
    });
    proc.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
}

export function stopServer(proc) {
  return new Promise((r) => {
    proc.once("exit", r);
    proc.kill("SIGTERM");
  });
}

/** CPU seconds a process has used so far (user + system, all its threads), from /proc. */
export function cpuSeconds(pid) {
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name (which may hold spaces).
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resident memory of a process, in MB. */
export function rssMb(pid, field = "VmRSS") {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function api(server, method, p, body) {
  const res = await fetch(server.url + p, {
    method,
    headers: { authorization: `Bearer ${server.key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export const seconds = (ms) => (ms / 1000).toFixed(2);

/** Uploads a recording through the presigned flow; returns the audioUrl that makes a note of it. */
export async function uploadRecording(server, file, fileExtension, durationSec) {
  const { presignedUrl, audioUrl, contentType } = await api(
    server,
    "POST",
    "/v1/notes/from-audio/generate-upload-url",
    {
      fileExtension,
      duration: durationSec,
    },
  );
  const put = await fetch(presignedUrl, {
    method: "PUT",
    body: fs.readFileSync(file),
    headers: { "content-type": contentType },
  });
  if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);
  return audioUrl;
}

/** Polls a note until it is completed; throws with its error if processing failed. */
export async function untilCompleted(server, noteId) {
  for (;;) {
    const { note } = await api(server, "GET", `/v1/notes/${noteId}`);
    if (note.status === "completed") return note;
    if (note.status === "recorded-not-summarized") throw new Error(note.processingError);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The PostgreSQL server to benchmark on: NOTULA_BENCH_DATABASE_URL (an admin URL), else the tests' one, else 127.0.0.1. */
function adminUrl() {
  if (process.env.NOTULA_BENCH_DATABASE_URL) return process.env.NOTULA_BENCH_DATABASE_URL;
  const file = path.join(root, ".test-postgres-url");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "postgres://postgres@127.0.0.1:5432/postgres";
}

/** Runs `fn` with the URL of a fresh PostgreSQL database, dropped afterwards whatever happens. */
export async function withScratchDatabase(prefix, fn) {
  const admin = adminUrl();
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const run = async (statement) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/**
 * Gathers the planner's statistics after a bulk fill, as a running database would
 * have them (PostgreSQL's autovacuum analyzes a table that grew by a tenth within a
 * minute; SQLite's are taken by ANALYZE). Measured straight after a fill, either
 * engine plans from no statistics at all, which no long-running server does.
 */
export async function analyze(database, dataDir) {
  if (database) {
    const c = new pg.Client({ connectionString: database });
    await c.connect();
    try {
      await c.query("ANALYZE");
    } finally {
      await c.end();
    }
    return;
  }
  const db = new Database(path.join(dataDir, "notula.db"));
  try {
    db.exec("ANALYZE");
  } finally {
    db.close();
  }
}

/** One GET with the server's key, read whole: its time in ms (a non-2xx answer throws). */
export async function timed(server, p) {
  const t = performance.now();
  const res = await fetch(server.url + p, { headers: { authorization: `Bearer ${server.key}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${p}: ${res.status}`);
  return performance.now() - t;
}

/** Waits until no note is being summarised or indexed (their jobs, as /metrics counts them). */
export async function untilProcessed(server) {
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
