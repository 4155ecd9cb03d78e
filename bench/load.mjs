// The server under a team's mixed load: 50 clients at once for a minute (BENCH_LOAD_SEC),
// each sending one request after another, drawn from what a team's people, scripts and
// assistants send: the notes list, title searches, new notes (a tenth), folders,
// /v1/me, and MCP tool calls on long-lived sessions and on new ones. The baseline of
// the same run: the same 50 clients against a bare hono + better-sqlite3 server that
// answers the same list from the same database file (bench/bare-server.mjs).
// Reported: throughput, p50 and p99, per kind and for the reads; requests with no
// answer within 5 s. Goals: reads ≥ 0.5 of the bare server's throughput, p99 ≤ 150 ms,
// none unanswered.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { api, cpuSeconds, startServer, stopServer, untilProcessed } from "./lib.mjs";

const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_LOAD_SEC ?? 60);
const SEEDED = 300;
const UNANSWERED_MS = 5_000;
const WORDS = ["budget", "launch", "hiring", "pricing", "roadmap", "review", "design", "customer"];

const percentile = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

/**
 * Each client's requests, by weight: what it sends and whether it only reads.
 * BENCH_LOAD_ONLY (kinds by name, comma-separated) keeps only those, to take the mix apart.
 */
function mix(server, folderId) {
  const only = process.env.BENCH_LOAD_ONLY?.split(",").map((k) => k.trim());
  return allKinds(server, folderId).filter(([name]) => !only || only.includes(name));
}

function allKinds(server, folderId) {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const get = (p) => () => fetch(server.url + p, { headers, signal: AbortSignal.timeout(UNANSWERED_MS) });
  let n = 0;
  return [
    ["list", 25, true, get("/v1/notes?limit=20")],
    ["title search", 15, true, () => get(`/v1/notes?limit=20&search=${WORDS[n++ % WORDS.length]}`)()],
    [
      "create",
      10,
      false,
      () =>
        fetch(server.url + "/v1/notes", {
          method: "POST",
          headers,
          body: JSON.stringify({ title: `Load ${n++} ${WORDS[n % WORDS.length]}`, folderIds: [folderId] }),
          signal: AbortSignal.timeout(UNANSWERED_MS),
        }),
    ],
    ["folders", 10, true, get("/v1/folders")],
    ["me", 15, true, get("/v1/me")],
    ["mcp (session kept)", 15, true, null],
    ["mcp (new session)", 10, true, null],
  ];
}

// One validator for every client: each SDK client makes an Ajv of its own otherwise, a cost
// of the load generator (which shares the machine's cores with the server), not the server's.
const validator = new AjvJsonSchemaValidator();

async function mcpClient(server) {
  const client = new Client({ name: "bench-load", version: "1.0.0" }, { jsonSchemaValidator: validator });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", server.url), {
    requestInit: { headers: { authorization: `Bearer ${server.key}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

const withTimeout = (p) =>
  Promise.race([
    p,
    new Promise((_, reject) => setTimeout(() => reject(new Error("unanswered")), UNANSWERED_MS).unref()),
  ]);

/**
 * CLIENTS clients for SECONDS, each drawing its next request from `kinds`. Also says how
 * much CPU the load generator and the server used meanwhile: on one machine they share
 * its cores, and a generator that takes one whole core bounds what can be measured.
 */
async function drive(kinds, server, serverPid) {
  const total = kinds.reduce((a, k) => a + k[1], 0);
  const stats = new Map(kinds.map(([name]) => [name, { ms: [], unanswered: 0, failed: 0 }]));
  const deadline = performance.now() + SECONDS * 1000;
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const client = async () => {
    let kept = null;
    while (performance.now() < deadline) {
      let r = random() * total;
      const [name, , , send] = kinds.find((k) => (r -= k[1]) < 0) ?? kinds[0];
      const s = stats.get(name);
      const t = performance.now();
      try {
        if (name === "mcp (session kept)") {
          kept ??= await withTimeout(mcpClient(server));
          await withTimeout(kept.client.callTool({ name: "svc_list_notes", arguments: { limit: 10 } }));
        } else if (name === "mcp (new session)") {
          const fresh = await withTimeout(mcpClient(server));
          await withTimeout(fresh.client.callTool({ name: "svc_get_workspace", arguments: {} }));
          await fresh.transport.terminateSession().catch(() => {});
          await fresh.client.close();
        } else {
          const res = await send();
          await res.arrayBuffer();
          if (res.status >= 400) s.failed++;
        }
        s.ms.push(performance.now() - t);
      } catch (err) {
        if (err.name === "TimeoutError" || err.message === "unanswered") s.unanswered++;
        else s.failed++;
        // A session the server ended (one credential keeps 16 at most): the client opens another.
        if (name === "mcp (session kept)") kept = null;
      }
    }
    await kept?.client.close();
  };
  const cpu0 = process.cpuUsage();
  const server0 = cpuSeconds(serverPid);
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const used = process.cpuUsage(cpu0);
  const cpu = {
    generator: (used.user + used.system) / 1e6 / SECONDS,
    server: (cpuSeconds(serverPid) - server0) / SECONDS,
  };
  return { stats, cpu };
}

function row(name, ms, seconds, s = { failed: 0, unanswered: 0 }) {
  return `| ${name} | ${(ms.length / seconds).toFixed(0)} | ${percentile(ms, 0.5).toFixed(1)} | ${percentile(ms, 0.99).toFixed(1)} | ${s.failed} | ${s.unanswered} |`;
}

export async function benchLoad() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-load-"));
  // As a new install runs: its default engines, meaning-based search on.
  const server = await startServer(dataDir);
  let bare;
  try {
    const me = await api(server, "GET", "/v1/me");
    const { folder } = await api(server, "POST", "/v1/folders", { name: "Load", ownerUserId: me.user.id });
    for (let i = 0; i < SEEDED; i++)
      await api(server, "POST", "/v1/notes", {
        title: `Seeded ${i} ${WORDS[i % WORDS.length]}`,
        userWrittenNote: `About the ${WORDS[(i * 3) % WORDS.length]} and the ${WORDS[(i * 5) % WORDS.length]}.`,
        folderIds: [folder.id],
      });
    // The seeded notes' summaries and indexing finish first: left running, they would
    // share the cores with whichever of the two runs came first.
    await untilProcessed(server);
    bare = spawn(
      process.execPath,
      [path.join(path.dirname(fileURLToPath(import.meta.url)), "bare-server.mjs"), path.join(dataDir, "notula.db")],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const bareUrl = await new Promise((resolve) => bare.stdout.once("data", (d) => resolve(String(d).trim())));
    const { stats: bareStats, cpu: bareCpu } = await drive(
      [["bare list", 1, true, () => fetch(`${bareUrl}/bare`, { signal: AbortSignal.timeout(UNANSWERED_MS) })]],
      server,
      bare.pid,
    );
    const { stats, cpu } = await drive(mix(server, folder.id), server, server.proc.pid);
    const bareMs = bareStats.get("bare list").ms;
    const cpuLine = (what, c) =>
      `${what}: the load generator used ${c.generator.toFixed(2)} of a core, the server ${c.server.toFixed(2)} (all its threads)`;
    const reads = [...stats].filter(([name]) => mix(server, folder.id).find((k) => k[0] === name)[2]);
    const readMs = reads.flatMap(([, s]) => s.ms);
    const allMs = [...stats.values()].flatMap((s) => s.ms);
    const unanswered = [...stats.values()].reduce((a, s) => a + s.unanswered, 0);
    const failed = [...stats.values()].reduce((a, s) => a + s.failed, 0);
    console.log(
      `\nMixed load: ${CLIENTS} clients for ${SECONDS} s on ${SEEDED}+ notes (goals: reads ≥ 0.5 of the bare server's throughput, p99 ≤ 150 ms, none unanswered within 5 s)`,
    );
    console.log("| requests | per second | p50 ms | p99 ms | failed | unanswered |");
    console.log("|---|---:|---:|---:|---:|---:|");
    console.log(
      row("bare hono + better-sqlite3, the same list (baseline)", bareMs, SECONDS, bareStats.get("bare list")),
    );
    for (const [name, s] of stats) console.log(row(name, s.ms, SECONDS, s));
    console.log(row("**reads**", readMs, SECONDS));
    console.log(row("**all**", allMs, SECONDS));
    console.log(`\n${cpuLine("baseline", bareCpu)}\n${cpuLine("mix", cpu)}`);
    const perRequest = (c, n) => ((1000 * c.server * SECONDS) / n).toFixed(2);
    console.log(
      `server CPU per request: baseline ${perRequest(bareCpu, bareMs.length)} ms, mix ${perRequest(cpu, allMs.length)} ms`,
    );
    console.log(
      `\nreads / bare throughput ${(readMs.length / bareMs.length).toFixed(2)}; all p99 ${percentile(allMs, 0.99).toFixed(1)} ms; unanswered within 5 s: ${unanswered}; failed: ${failed}`,
    );
  } finally {
    bare?.kill();
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
