// `notula admin backup` of a running server under write load, and `notula admin
// restore` into a fresh directory: the restored server is ready with every note, key,
// webhook and recording of the snapshot; damaged archives and occupied directories are
// refused without touching the target.
import fs from "node:fs";
import path from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { run, startServerProcess, storeQuery, tempDir, type ProcessTestServer } from "../helpers/server.js";
import { fileBytes, tone } from "../helpers/audio.js";

let server: ProcessTestServer;
const work = tempDir("notula-backup-");
const archive = path.join(work, "backups", "notula.tar.gz");
let uploadedKey: string;
let wav: Buffer;
let backup: any;
let writesDuringBackup = 0;

beforeAll(async () => {
  server = await startServerProcess({ args: ["--no-rate-limit", "--allow-private-webhooks"] });
  const api = client(server.url, server.key);
  for (const title of ["Board meeting", "Design review", "Hiring sync"])
    expect((await api("POST", "/v1/notes", { title })).status).toBe(200);
  expect(
    (await api("POST", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:9/hooks/restored" })).status,
  ).toBe(200);
  // A recording, uploaded and stored (not processed: that is not what is backed up here).
  wav = fileBytes(tone(work, 1));
  const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 1 });
  expect(
    (await fetch(u.body.presignedUrl, { method: "PUT", body: wav, headers: { "content-type": "audio/wav" } })).status,
  ).toBe(200);
  const [row] = await storeQuery(
    server.dataDir,
    "SELECT workspace_id AS w, id, extension AS e FROM audio_uploads WHERE status = 'uploaded'",
  );
  uploadedKey = `${row.w}/${row.id}.${row.e}`;

  // Notes keep arriving while the backup runs.
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const r = await api("POST", "/v1/notes", { title: `Written during the backup ${i}` });
      expect(r.status).toBe(200);
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const before = (await storeQuery(server.dataDir, "SELECT count(*) AS n FROM notes"))[0].n;
  const result = await run(["admin", "backup", "--data-dir", server.dataDir, "--out", archive, "--json"]);
  const after = (await storeQuery(server.dataDir, "SELECT count(*) AS n FROM notes"))[0].n;
  writing = false;
  await writer;
  expect(result.code, result.stderr).toBe(0);
  backup = JSON.parse(result.stdout);
  writesDuringBackup = after - before;
}, 60_000);
afterAll(() => server?.stop());

describe("backup of a running server", () => {
  it("writes an archive with a manifest of checksums and the snapshot's counts, while notes keep being written", async () => {
    expect(writesDuringBackup).toBeGreaterThan(0);
    expect(backup.out).toBe(archive);
    expect(backup.counts.notes).toBeGreaterThanOrEqual(3);
    expect(backup.counts.webhooks).toBe(1);
    expect(backup.counts.api_keys).toBeGreaterThanOrEqual(1);
    expect(backup.missingRecordings).toBe(0);
    const listed: string[] = [];
    await tar.list({ file: archive, onReadEntry: (e) => void listed.push(e.path) });
    expect(listed.sort()).toEqual(["audio/" + uploadedKey, "manifest.json", "notula.db", "secret.key"].sort());
    // Staging and partial files are gone.
    expect(fs.readdirSync(path.dirname(archive))).toEqual(["notula.tar.gz"]);
  });
});

describe("restore", () => {
  it("restores into an empty directory; the server there is ready with every note, key, webhook and recording of the snapshot", async () => {
    const target = path.join(tempDir(), "restored");
    const result = await run(["admin", "restore", archive, "--data-dir", target, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).counts).toEqual(backup.counts);
    expect(fs.readFileSync(path.join(target, "audio", uploadedKey))).toEqual(wav);
    expect(fs.readFileSync(path.join(target, "secret.key"))).toEqual(
      fs.readFileSync(path.join(server.dataDir, "secret.key")),
    );

    const restored = await startServerProcess({ dataDir: target, args: ["--no-rate-limit"] });
    try {
      const ready = await fetch(`${restored.url}/readyz`);
      expect(ready.status).toBe(200);
      // The admin key of the original server works: keys are in the snapshot.
      const api = client(restored.url, server.key);
      const notes: any[] = [];
      for (let offset = 0; ;) {
        const page: any = await api("GET", `/v1/notes?limit=100&offset=${offset}`);
        expect(page.status).toBe(200);
        notes.push(...page.body.items);
        if (page.body.pagination.isLast) break;
        offset = page.body.pagination.nextOffset;
      }
      expect(notes.length).toBe(backup.counts.notes);
      expect(notes.map((n) => n.title)).toEqual(
        expect.arrayContaining(["Board meeting", "Design review", "Hiring sync"]),
      );
      for (const table of Object.keys(backup.counts))
        expect((await storeQuery(target, `SELECT count(*) AS n FROM ${table}`))[0].n, table).toBe(backup.counts[table]);
      // The webhook's secret was sealed with the data dir's key, which came along.
      const hooks = await api("GET", "/v1/integrations/automation/webhook");
      expect(hooks.status).toBe(200);
      expect(hooks.body.webhooks.map((w: any) => w.hookUrl)).toEqual(["http://127.0.0.1:9/hooks/restored"]);
    } finally {
      await restored.stop();
    }
  });

  it("refuses a directory that is not empty unless --force, and --force while a server runs there", async () => {
    const occupied = tempDir();
    fs.writeFileSync(path.join(occupied, "something.txt"), "keep me");
    const refused = await run(["admin", "restore", archive, "--data-dir", occupied]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not empty: restore into an empty directory, or pass --force/);
    expect(fs.readdirSync(occupied)).toEqual(["something.txt"]);

    const forced = await run(["admin", "restore", archive, "--data-dir", occupied, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.existsSync(path.join(occupied, "something.txt"))).toBe(false);
    expect(fs.existsSync(path.join(occupied, "notula.db"))).toBe(true);

    const live = await run(["admin", "restore", archive, "--data-dir", server.dataDir, "--force"]);
    expect(live.code).toBe(1);
    expect(live.stderr).toMatch(new RegExp(`Another notula server \\(pid ${server.proc.pid}`));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it("refuses an altered or damaged archive and leaves the target untouched", async () => {
    // Altered: a recording changed, the manifest kept.
    const unpacked = tempDir();
    await tar.extract({ file: archive, cwd: unpacked });
    fs.appendFileSync(path.join(unpacked, "audio", uploadedKey), Buffer.from([1]));
    const altered = path.join(work, "altered.tar.gz");
    await tar.create({ gzip: true, file: altered, cwd: unpacked }, fs.readdirSync(unpacked));
    const target = path.join(tempDir(), "target");
    const r1 = await run(["admin", "restore", altered, "--data-dir", target]);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain(`audio/${uploadedKey} does not match its checksum`);
    expect(fs.existsSync(path.join(target, "notula.db"))).toBe(false);

    // An extra file smuggled in beside the listed ones.
    fs.copyFileSync(path.join(unpacked, "audio", uploadedKey), path.join(unpacked, "extra.bin"));
    const smuggled = path.join(work, "smuggled.tar.gz");
    await tar.create({ gzip: true, file: smuggled, cwd: unpacked }, fs.readdirSync(unpacked));
    const r2 = await run(["admin", "restore", smuggled, "--data-dir", target]);
    expect(r2.stderr).toMatch(/holds extra\.bin, which its manifest does not list/);

    // Damaged: bytes flipped in the middle of the compressed stream.
    const bytes = fs.readFileSync(archive);
    for (let i = 0; i < 16; i++) bytes[Math.floor(bytes.length / 2) + i] ^= 0xff;
    const damaged = path.join(work, "damaged.tar.gz");
    fs.writeFileSync(damaged, bytes);
    const r3 = await run(["admin", "restore", damaged, "--data-dir", target]);
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(/cannot be read|does not match its checksum|no valid manifest/);
    expect(fs.existsSync(path.join(target, "notula.db"))).toBe(false);

    // Not a backup at all.
    const r4 = await run(["admin", "restore", path.join(work, "nope.tar.gz"), "--data-dir", target]);
    expect(r4.stderr).toMatch(/No archive at/);
  });

  it("says what it cannot back up: PostgreSQL and S3-compatible storage have their own tools", async () => {
    const pg = await run(["admin", "backup", "--data-dir", tempDir(), "--out", path.join(work, "x.tar.gz")], {
      env: { NOTULA_DATABASE_URL: "postgres://127.0.0.1/none" },
    });
    expect(pg.code).toBe(2);
    expect(pg.stderr).toMatch(/pg_dump/);
    const s3 = await run(["admin", "backup", "--data-dir", server.dataDir, "--out", path.join(work, "x.tar.gz")], {
      env: { NOTULA_STORAGE_URL: "s3://bucket/prefix" },
    });
    expect(s3.code).toBe(2);
    expect(s3.stderr).toMatch(/versioning or replication/);
  });
});
