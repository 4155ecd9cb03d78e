// Two API replicas and a worker on one PostgreSQL, under a mixed load for BENCH_REPLICA_SECONDS
// (default 300): lists, single notes, search, note writes, uploads of recordings that the
// worker transcribes, MCP sessions whose requests alternate between the replicas, and
// checks that a write through one replica is seen through the other at once (a new note
// read back, a revoked key refused). Reports throughput, latency and errors per kind of
// request; the goal is no error and no answer that depends on which replica gave it.
//
// The replicas share what separate machines would: the database, the secret key and the
// recordings' storage (one directory here, as a network file system or S3 would be). Speech
// comes from a small OpenAI-compatible server that answers at once, so that the load is
// notula's own; embeddings are off for the same reason (bench/search.mjs measures them).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createHash, randomBytes } from "node:crypto";
import { startServer, stopServer, withScratchDatabase } from "./lib.mjs";
import { seedPostgres } from "./seed-postgres.mjs";

const SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 300);
const USERS = Number(process.env.BENCH_REPLICA_USERS ?? 8);
const NOTES = Number(process.env.BENCH_REPLICA_NOTES ?? 10_000);

/** An OpenAI-compatible transcription endpoint that says how long the audio was, at once. */
function startSpeechServer() {
  const server = http.createServer(async (req, res) => {
    let size = 0;
    for await (const chunk of req) size += chunk.length;
    const seconds = Math.max(1, size / 32000);
    const text = `we agreed on the launch plan for ${seconds.toFixed(0)} seconds`;
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ text, segments: [{ id: 0, start: 0, end: seconds, text }] }));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/v1`, server })),
  );
}

/** A second of 16 kHz mono silence with a tone, as a WAV file. */
function wav(seconds = 2) {
  const samples = 16000 * seconds;
  const b = Buffer.alloc(44 + samples * 2);
  b.write("RIFF", 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write("WAVEfmt ", 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(16000, 24);
  b.writeUInt32LE(32000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36);
  b.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    b.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), 44 + 2 * i);
  return b;
}

function percentile(xs, p) {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export async function benchReplicas() {
  return withScratchDatabase("notula_replicas", async (url) => {
    const dirs = [];
    const tmp = (p) => {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), `notula-${p}-`));
      dirs.push(d);
      return d;
    };
    const speech = await startSpeechServer();
    const env = {
      NOTULA_DATABASE_URL: url,
      NOTULA_SECRET_KEY: randomBytes(32).toString("base64"),
      NOTULA_STORAGE_URL: tmp("shared-audio"),
      NOTULA_STT_URL: speech.url,
      NOTULA_EMBEDDINGS: "none",
    };
    const procs = [];
    try {
      const a = await startServer(tmp("api-a"), ["--role", "api"], env);
      procs.push(a.proc);
      const key = a.key;
      const seeded = await seedPostgres(env.NOTULA_DATABASE_URL, NOTES);
      const b = await startServer(tmp("api-b"), ["--role", "api"], env);
      procs.push(b.proc);
      const worker = await startServer(tmp("worker"), ["--role", "worker"], env);
      procs.push(worker.proc);
      const replicas = [a.url, b.url];
      console.error(
        `replicas: ${replicas.join(", ")}; worker: ${worker.url}; ${NOTES.toLocaleString("en")} notes seeded`,
      );

      const stats = new Map();
      const record = (kind, ms, error) => {
        const s = stats.get(kind) ?? { ms: [], errors: 0, examples: [] };
        s.ms.push(ms);
        if (error) {
          s.errors++;
          if (s.examples.length < 3) s.examples.push(error);
        }
        stats.set(kind, s);
      };
      const call = async (base, method, p, body, bearer = key) => {
        const res = await fetch(base + p, {
          method,
          headers: { authorization: `Bearer ${bearer}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        return { status: res.status, json: text ? JSON.parse(text) : null };
      };
      /** Runs one request of a kind, timed; anything unexpected counts as an error of that kind. */
      const timed = async (kind, fn) => {
        const t = performance.now();
        try {
          const problem = await fn();
          record(kind, performance.now() - t, problem || null);
        } catch (err) {
          record(kind, performance.now() - t, err.message);
        }
      };
      const expect200 = (r, what) =>
        r.status >= 200 && r.status < 300 ? null : `${what}: ${r.status} ${JSON.stringify(r.json)}`;

      const db = new pg.Pool({ connectionString: env.NOTULA_DATABASE_URL, max: 2 });
      const owner = (
        await db.query("SELECT user_id FROM api_keys WHERE workspace_id = $1 LIMIT 1", [seeded.workspaceId])
      ).rows[0].user_id;
      const mintKey = async () => {
        const token = `ntl_${randomBytes(32).toString("base64url")}`;
        await db.query(
          `INSERT INTO api_keys (id, workspace_id, user_id, name, display_prefix, key_hash, scopes, created_at)
         VALUES ($1, $2, $3, 'load', $4, $5, '["notes"]', $6)`,
          [
            `key_${randomBytes(12).toString("base64url")}`,
            seeded.workspaceId,
            owner,
            token.slice(0, 10),
            createHash("sha256").update(token).digest("hex"),
            Date.now(),
          ],
        );
        return token;
      };
      const uploads = [];
      const audio = wav(2);
      const ops = [
        [
          25,
          "list notes",
          (base) => timed("list notes", async () => expect200(await call(base, "GET", "/v1/notes?limit=20"), "list")),
        ],
        [
          15,
          "read a note",
          (base) =>
            timed("read a note", async () =>
              expect200(await call(base, "GET", `/v1/notes/${seeded.sampleNoteId}`), "get"),
            ),
        ],
        [
          15,
          "search",
          (base, i) =>
            timed("search", async () =>
              expect200(
                await call(base, "GET", `/v1/search?q=${i % 2 ? "roadmap" : seeded.company}&mode=fulltext`),
                "search",
              ),
            ),
        ],
        [
          10,
          "write, read elsewhere",
          (base, i) =>
            timed("write, read elsewhere", async () => {
              const made = await call(base, "POST", "/v1/notes", {
                title: `Load ${i}`,
                userWrittenNote: "Written under load.",
              });
              if (made.status !== 201 && made.status !== 200)
                return `create: ${made.status} ${JSON.stringify(made.json)}`;
              const id = made.json.noteId ?? made.json.note?.id ?? made.json.id;
              const other = replicas.find((r) => r !== base);
              const read = await call(other, "GET", `/v1/notes/${id}`);
              return read.status === 200 ? null : `read on the other replica: ${read.status}`;
            }),
        ],
        [
          5,
          "revoke, refused elsewhere",
          (base) =>
            timed("revoke, refused elsewhere", async () => {
              // A key of the first member's, made as `notula admin keys create` makes one.
              const made = await mintKey();
              const other = replicas.find((r) => r !== base);
              const before = await call(other, "GET", "/v1/notes?limit=1", null, made);
              if (before.status !== 200) return `new key on the other replica: ${before.status}`;
              const gone = await call(base, "DELETE", "/v1/me/key", null, made);
              if (gone.status !== 200) return `revoke: ${gone.status}`;
              const after = await call(other, "GET", "/v1/notes?limit=1", null, made);
              return after.status === 401 ? null : `revoked key on the other replica: ${after.status}`;
            }),
        ],
        [
          5,
          "upload a recording",
          (base) =>
            timed("upload a recording", async () => {
              const u = await call(base, "POST", "/v1/notes/from-audio/generate-upload-url", {
                fileExtension: "wav",
                duration: 2,
              });
              if (u.status !== 200) return `upload URL: ${u.status}`;
              const put = await fetch(u.json.presignedUrl, {
                method: "PUT",
                body: audio,
                headers: { "content-type": u.json.contentType },
              });
              if (put.status !== 200) return `PUT: ${put.status}`;
              const note = await call(
                replicas.find((r) => r !== base),
                "POST",
                "/v1/notes/from-audio",
                { audioUrl: u.json.audioUrl },
              );
              if (note.status >= 300) return `from-audio: ${note.status} ${JSON.stringify(note.json)}`;
              uploads.push(note.json.noteId);
              return null;
            }),
        ],
        [15, "MCP", null],
      ];
      const total = ops.reduce((n, [w]) => n + w, 0);

      /** An MCP client whose requests go to either replica in turn: its session lives in the database. */
      async function mcpClient() {
        let turn = 0;
        const client = new Client({ name: "notula-load", version: "1.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL("/mcp", a.url), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
          fetch: (input, init) => {
            const u = new URL(input instanceof URL ? input.href : typeof input === "string" ? input : input.url);
            const target = new URL(replicas[turn++ % 2]);
            u.host = target.host;
            return fetch(u, init);
          },
        });
        await client.connect(transport);
        return client;
      }

      const deadline = Date.now() + SECONDS * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: USERS }, async (_, user) => {
          let mcp = null;
          for (let i = 0; Date.now() < deadline; i++) {
            const base = replicas[(user + i) % 2];
            let pick = Math.random() * total;
            const [, kind, run] = ops.find(([w]) => (pick -= w) < 0);
            if (kind !== "MCP") {
              await run(base, i);
              continue;
            }
            await timed("MCP", async () => {
              if (!mcp || i % 20 === 0) {
                await mcp?.close().catch(() => {});
                mcp = await mcpClient();
              }
              const r = await mcp.callTool({
                name: i % 2 ? "svc_list_notes" : "svc_search_notes",
                arguments: i % 2 ? { limit: 5 } : { query: "roadmap" },
              });
              return r.isError ? `tool error: ${JSON.stringify(r.content).slice(0, 200)}` : null;
            });
          }
          await mcp?.close().catch(() => {});
        }),
      );
      const elapsed = (performance.now() - started) / 1000;

      // Every recording uploaded under load is transcribed by the worker, whichever replica
      // took it: the backlog left when the load stops is waited for (up to 15 minutes).
      const drainStarted = performance.now();
      const left = async () =>
        (await db.query("SELECT status, count(*)::int AS n FROM notes WHERE id = ANY($1) GROUP BY status", [uploads]))
          .rows;
      let states = await left();
      while (
        states.some((s) => s.status !== "completed" && s.status !== "recorded-not-summarized") &&
        performance.now() - drainStarted < 15 * 60_000
      ) {
        await new Promise((r) => setTimeout(r, 2000));
        states = await left();
      }
      const drained = (performance.now() - drainStarted) / 1000;
      const count = (status) => states.find((s) => s.status === status)?.n ?? 0;
      const transcribed = count("completed");
      const failed = count("recorded-not-summarized");
      const pending = uploads.length - transcribed - failed;

      let requests = 0;
      let errors = 0;
      console.log(
        `\nTwo API replicas and a worker on one PostgreSQL, ${USERS} clients for ${elapsed.toFixed(0)} s, ${NOTES.toLocaleString("en")} notes (same machine as the database)`,
      );
      console.log(
        `${"request".padEnd(26)} ${"count".padStart(7)} ${"per s".padStart(7)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"errors".padStart(7)}`,
      );
      for (const [kind, s] of stats) {
        requests += s.ms.length;
        errors += s.errors;
        console.log(
          `${kind.padEnd(26)} ${String(s.ms.length).padStart(7)} ${(s.ms.length / elapsed).toFixed(1).padStart(7)} ${`${percentile(s.ms, 50).toFixed(0)} ms`.padStart(8)} ${`${percentile(s.ms, 99).toFixed(0)} ms`.padStart(8)} ${String(s.errors).padStart(7)}`,
        );
        for (const e of s.examples) console.log(`    e.g. ${e}`);
      }
      console.log(
        `${"all".padEnd(26)} ${String(requests).padStart(7)} ${(requests / elapsed).toFixed(1).padStart(7)} ${"".padStart(8)} ${"".padStart(8)} ${String(errors).padStart(7)}`,
      );
      console.log(
        `recordings uploaded: ${uploads.length}, transcribed by the worker: ${transcribed}, failed: ${failed}, still waiting: ${pending}; the backlog left at the end of the load took ${drained.toFixed(0)} s to clear`,
      );
      console.log(
        errors || failed || pending
          ? "goal not met: see the errors above"
          : "goal met: no errors, every recording transcribed",
      );
      await db.end();
    } finally {
      for (const p of procs) await stopServer(p).catch(() => {});
      speech.server.close();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  });
}
