// The web app's pages against the REST API serving the same data: the notes list
// (25 notes, as HTML) against GET /v1/notes?limit=25, and one note's page against
// GET /v1/notes/{id}, on the same server in the same run. Goal: each page at least
// 0.7 of its API twin's throughput.
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root, startServer, stopServer } from "./lib.mjs";
import { seed } from "./seed.mjs";

const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PASSWORD = "bench password 1";

async function measure(url, headers) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx + r.errors) throw new Error(`${url}: ${r.non2xx + r.errors} failed requests`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

/** Signs in through the form, as a browser would, and returns the session cookie. */
async function signIn(url) {
  const form = await fetch(`${url}/sign-in`);
  const formCookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())[1];
  const res = await fetch(`${url}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: formCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, next: "/notes", email: "admin@notula.local", password: PASSWORD }).toString(),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("notula_session="));
  if (!session) throw new Error(`sign-in failed: ${res.status}`);
  return session.split(";")[0];
}

export async function benchWeb() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-web-"));
  try {
    let server = await startServer(dataDir);
    const key = server.key;
    await stopServer(server.proc);
    const seeded = seed(path.join(dataDir, "notula.db"), NOTES);
    execFileSync(
      process.execPath,
      [
        path.join(root, "bin/notula.js"),
        "admin",
        "users",
        "set-password",
        "--email",
        "admin@notula.local",
        "--data-dir",
        dataDir,
      ],
      { input: PASSWORD },
    );
    server = await startServer(dataDir);
    const cookie = await signIn(server.url);
    const page = { cookie };
    const bearer = { authorization: `Bearer ${key}` };
    const pairs = [
      ["notes list (25)", `/notes`, `/v1/notes?limit=25`],
      ["one note", `/notes/${seeded.sampleNoteId}`, `/v1/notes/${seeded.sampleNoteId}`],
    ];
    await measure(`${server.url}/v1/notes?limit=25`, bearer); // warm-up
    console.log(
      `\nweb pages against the API serving the same data, ${NOTES.toLocaleString("en")} notes, ${CONNECTIONS} connections, ${DURATION} s each`,
    );
    console.log(
      `${"page".padEnd(18)} ${"HTML req/s".padStart(11)} ${"API req/s".padStart(10)} ${"p99 HTML".padStart(9)} ${"ratio".padStart(7)}`,
    );
    // Rounds alternate page and API, and the ratio is each round's, reported as the
    // median: a noisy machine then slows both sides of a ratio alike.
    const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    let ok = true;
    for (const [name, html, json] of pairs) {
      const rounds = [];
      for (let i = 0; i < ROUNDS; i++) {
        const h = await measure(server.url + html, page);
        const j = await measure(server.url + json, bearer);
        rounds.push({ h, j, ratio: h.rps / j.rps });
      }
      const ratio = median(rounds.map((r) => r.ratio));
      const mid = rounds.find((r) => r.ratio === ratio);
      if (ratio < 0.7) ok = false;
      console.log(
        `${name.padEnd(18)} ${mid.h.rps.toFixed(0).padStart(11)} ${mid.j.rps.toFixed(0).padStart(10)} ${`${mid.h.p99} ms`.padStart(9)} ${ratio.toFixed(2).padStart(7)}  (rounds: ${rounds.map((r) => r.ratio.toFixed(2)).join(", ")})`,
      );
    }
    console.log(`goal: every page at least 0.70 of its API twin: ${ok ? "met" : "not met"}`);
    await stopServer(server.proc);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
