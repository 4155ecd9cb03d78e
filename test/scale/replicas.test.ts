// Scale-out end to end: two API servers and two workers, each with its own data dir
// as on separate machines, on one PostgreSQL and one S3-compatible bucket. Twenty
// recordings go in through either API server while a worker is killed mid-job; every
// note completes exactly once, every webhook event carries one id however often it is
// sent, and what one API server writes the other reads at once.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startServerProcess, tempDir, type ProcessTestServer } from "../helpers/server.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { S3_CREDENTIALS, startS3, type TestS3 } from "../helpers/s3.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";
import { fileBytes, tone } from "../helpers/audio.js";
import { until } from "../helpers/until.js";

const RECORDINGS = 20;

interface Received {
  type: string;
  eventId: string;
  noteId: string;
}

async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    received.push({ type: body.type, eventId: body.eventId, noteId: body.payload?.note?.id });
    res.writeHead(200).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe("two API servers and two workers on PostgreSQL and S3", () => {
  let database: TestDatabase;
  let s3: TestS3;
  let stt: VendorServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const servers: ProcessTestServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    s3 = await startS3();
    stt = await startTranscriptionServer({ echo: true, delayMs: 1500 });
    receiver = await startReceiver();
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.kill9().catch(() => {});
    await receiver?.close();
    await stt?.close();
    await s3?.stop();
    await database?.drop();
  });

  it("completes every recording exactly once, delivers each event under one id, and reads one replica's writes through another", async () => {
    const env = {
      NOTULA_DATABASE_URL: database.url,
      NOTULA_STORAGE_URL: `s3://${s3.bucket}/recordings?endpoint=${s3.endpoint}`,
      NOTULA_SECRET_KEY: randomBytes(32).toString("base64"),
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      NOTULA_PIPELINE_LEASE_MS: "3000",
      NOTULA_PIPELINE_CONCURRENCY: "2",
      NOTULA_STT_URL: stt.url,
    };
    const start = async (role: "api" | "worker", first = false) => {
      const s = await startServerProcess({
        dataDir: first ? undefined : tempDir(),
        args: ["--role", role, "--no-rate-limit", "--allow-private-webhooks"],
        env,
      });
      servers.push(s);
      return s;
    };
    const api1 = await start("api", true);
    const api2 = await start("api");
    const w1 = await start("worker");
    const c1 = client(api1.url, api1.key);
    const c2 = client(api2.url, api1.key);
    expect((await c1("POST", "/v1/integrations/automation/webhook", { hookUrl: receiver.url })).status).toBe(200);

    const wav = fileBytes(tone(tempDir(), 1));
    const ids: string[] = [];
    for (let i = 0; i < RECORDINGS; i++) {
      const [writer, reader]: Client[] = i % 2 ? [c2, c1] : [c1, c2];
      const u = await writer("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 1 });
      expect(u.status, u.text).toBe(200);
      expect(new URL(u.body.presignedUrl).origin).toBe(s3.endpoint);
      const put = await fetch(u.body.presignedUrl, {
        method: "PUT",
        body: wav,
        headers: { "content-type": "audio/wav" },
      });
      expect(put.status).toBe(200);
      const made = await writer("POST", "/v1/notes/from-audio", { audioUrl: u.body.audioUrl, title: `Recording ${i}` });
      expect(made.status, made.text).toBe(200);
      ids.push(made.body.noteId);
      // Written through one API server, read through the other at once.
      const read = await reader("GET", `/v1/notes/${made.body.noteId}`);
      expect(read.status).toBe(200);
      expect(read.body.note.title).toBe(`Recording ${i}`);
    }

    // The first worker dies with a recording in hand (the speech server has its request
    // and takes 1.5 s to answer), after a second worker has joined; the dead worker's
    // jobs are taken up when their leases run out.
    await until("a recording being transcribed", async () => stt.calls.length >= 1, 90_000);
    await start("worker");
    await w1.kill9();

    const notes = await until(
      "every note completed",
      async () => {
        const all = await Promise.all(ids.map(async (id) => (await c2("GET", `/v1/notes/${id}`)).body.note));
        return all.every((n) => n.status === "completed") ? all : null;
      },
      90_000,
    );
    for (const n of notes) expect(n.transcripts[0].text).toMatch(/window of 1\.\d seconds/);

    // A delivery the killed worker held waits out its lease (30 s), then maybe a retry (30 s).
    const completed = await until(
      "a note.completed event for every note",
      async () => {
        const events = receiver.received.filter((r) => r.type === "note.completed");
        return new Set(events.map((e) => e.noteId)).size === RECORDINGS ? events : null;
      },
      120_000,
    ).catch(async (err) => {
      // Say where each missing event is: never written, or written and stuck in delivery.
      const seen = new Set(receiver.received.filter((r) => r.type === "note.completed").map((e) => e.noteId));
      const missing = ids.filter((id) => !seen.has(id));
      const pg = await import("pg");
      const db = new pg.default.Client({ connectionString: database.url });
      await db.connect();
      const { rows } = await db.query(
        `SELECT e.body::json->'payload'->'note'->>'id' AS note, d.status, d.attempts, d.last_error, j.status AS job, j.attempts AS job_attempts, j.lease_until, j.available_at
           FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id LEFT JOIN jobs j ON j.idempotency_key = d.id
          WHERE e.type = 'note.completed' AND e.body::json->'payload'->'note'->>'id' = ANY($1)`,
        [missing],
      );
      await db.end();
      throw new Error(
        `${(err as Error).message}; missing ${missing.join(", ")}; outbox at ${Date.now()}: ${JSON.stringify(rows)}`,
      );
    });
    for (const id of ids) {
      const forNote = completed.filter((e) => e.noteId === id);
      // Sent once, or again after a worker died mid-delivery: always the same event id.
      expect(new Set(forNote.map((e) => e.eventId)).size, id).toBe(1);
    }
    const created = receiver.received.filter((r) => r.type === "note.created");
    expect(new Set(created.map((e) => e.noteId))).toEqual(new Set(ids));
    for (const id of ids) expect(new Set(created.filter((e) => e.noteId === id).map((e) => e.eventId)).size).toBe(1);

    // One processing job per note, each finished once; the recordings are in the bucket.
    const pg = await import("pg");
    const db = new pg.default.Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query(
      "SELECT idempotency_key, status, count(*)::int AS n, max(attempts)::int AS attempts FROM jobs WHERE kind = 'process-note' GROUP BY 1, 2",
    );
    await db.end();
    expect(rows.length).toBe(RECORDINGS);
    expect(rows.every((r) => r.status === "succeeded" && r.n === 1)).toBe(true);
    // The killed worker's recording was taken up again, as a second attempt.
    expect(rows.some((r) => r.attempts >= 2)).toBe(true);
    expect(s3.objectKeys().filter((k) => k.startsWith("recordings/")).length).toBe(RECORDINGS);
  }, 300_000);
});
