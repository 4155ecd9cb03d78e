// `notula admin migrate-data`: a single-box installation (notes with transcripts,
// folders, keys, a webhook, a processed recording, search vectors) moves to PostgreSQL
// and S3 with matching counts, and a server on the new backends serves it: the same
// key, the same notes, the recording, and new writes.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { S3_CREDENTIALS, startS3, type TestS3 } from "../helpers/s3.js";
import { run, startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";
import { tone } from "../helpers/audio.js";

describe("notula admin migrate-data", () => {
  let database: TestDatabase;
  let s3: TestS3;
  let stt: VendorServer;
  let moved: TestServer | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    s3 = await startS3();
    stt = await startTranscriptionServer({ echo: true });
  });
  afterAll(async () => {
    await moved?.stop();
    await stt?.close();
    await s3?.stop();
    await database?.drop();
  });

  it("copies a seeded installation with matching counts, and a server on PostgreSQL and S3 serves it", async () => {
    // The single box, with meaning-based search on so that it has vectors to carry.
    const box = await startServer({
      args: ["--no-rate-limit", "--stt-url", stt.url],
      env: { NOTULA_EMBEDDINGS: "local" },
    });
    const api = client(box.url, box.key);
    const me = (await api("GET", "/v1/me")).body;
    const folder = (await api("POST", "/v1/folders", { name: "Clients", ownerUserId: me.user.id })).body.folder;
    for (const title of ["Budget review", "Design sync", "Hiring loop"])
      expect(
        (
          await api("POST", "/v1/notes", {
            title,
            userWrittenNote: `About ${title.toLowerCase()}.`,
            folderIds: [folder.id],
          })
        ).status,
      ).toBe(200);
    expect(
      (await api("POST", "/v1/integrations/automation/webhook", { hookUrl: "https://hooks.example/notula" })).status,
    ).toBe(200);
    const recorded = await uploadRecording(api, tone(tempDir(), 1), "wav", { title: "Recorded call" }, 1);
    expect((await waitForStatus(api, recorded)).status).toBe("completed");
    const before = (await api("GET", "/v1/notes?limit=50")).body.items.map((n: { id: string; title: string }) => [
      n.id,
      n.title,
    ]);
    for (let i = 0; i < 100; i++) {
      const [{ n }] = await storeQuery(box.dataDir, "SELECT count(DISTINCT source_id) AS n FROM passages");
      if (n >= 4) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await box.stop();

    const storage = `s3://${s3.bucket}/moved?endpoint=${s3.endpoint}`;
    const aws = {
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    };
    const r = await run(
      ["admin", "migrate-data", "--data-dir", box.dataDir, "--to", database.url, "--storage", storage, "--json"],
      { env: aws },
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(true);
    for (const t of report.tables) expect(t.target, t.table).toBe(t.source);
    const counts = Object.fromEntries(report.tables.map((t: { table: string; source: number }) => [t.table, t.source]));
    expect(counts).toMatchObject({ workspaces: 1, notes: 4, folders: 1, webhooks: 1, audio_uploads: 1 });
    expect(counts.api_keys).toBeGreaterThanOrEqual(1);
    expect(counts.transcript_segments).toBeGreaterThanOrEqual(1);
    expect(report.vectors.source).toBeGreaterThan(0);
    expect(report.vectors.target).toBe(report.vectors.source);
    // Each with what meaning search without pgvector screens by: its workspace, model and bits.
    {
      const { default: pg } = await import("pg");
      const c = new pg.Client({ connectionString: database.url });
      await c.connect();
      const { rows } = await c.query(
        `SELECT count(*)::int AS n FROM passage_vectors v JOIN passages p ON p.id = v.passage_id
         WHERE v.workspace_id = p.workspace_id AND v.model = p.model AND length(v.code) = p.dims`,
      );
      await c.end();
      expect(rows[0].n).toBe(report.vectors.source);
    }
    expect(report.recordings).toEqual({ copied: 1, missing: 0 });
    expect(s3.objectKeys().filter((k) => k.startsWith("moved/"))).toHaveLength(1);

    // Into a database that holds a workspace already: refused.
    const again = await run(["admin", "migrate-data", "--data-dir", box.dataDir, "--to", database.url], { env: aws });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/empty database/);

    // A new machine: its own data dir, the old secret key, the new backends.
    const secretKey = fs.readFileSync(path.join(box.dataDir, "secret.key"), "utf8").trim();
    moved = await startServer({
      dataDir: tempDir(),
      args: ["--no-rate-limit", "--database", database.url, "--storage", storage],
      env: { ...aws, NOTULA_SECRET_KEY: secretKey, NOTULA_EMBEDDINGS: "none" },
    });
    const api2 = client(moved.url, box.key);
    expect(
      (await api2("GET", "/v1/notes?limit=50")).body.items.map((n: { id: string; title: string }) => [n.id, n.title]),
    ).toEqual(before);
    const note = (await api2("GET", `/v1/notes/${recorded}`)).body.note;
    expect(note.transcripts[0].text).toMatch(/window of 1\.\d seconds/);
    expect((await api2("GET", "/v1/notes?search=budg")).body.items.map((n: { title: string }) => n.title)).toEqual([
      "Budget review",
    ]);
    const hooks = (await api2("GET", "/v1/integrations/automation/webhook")).body.webhooks;
    expect(hooks.map((h: { hookUrl: string }) => h.hookUrl)).toEqual(["https://hooks.example/notula"]);
    // New writes continue after the copied ids.
    const fresh = await api2("POST", "/v1/notes", { title: "Written after the move" });
    expect(fresh.status, fresh.text).toBe(200);
    expect((await api2("GET", "/v1/notes?limit=50")).body.items).toHaveLength(5);
  }, 120_000);
});
