// Data hygiene: deleting a note removes everything of it (the recording retried until
// the store lets go), and the periodic sweep removes expired sign-in state, uploads
// nobody finished or used, and recordings no upload refers to. Time is moved on by
// writing expiry times into the past.
import { wavBytes } from "../helpers/audio.js";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

let server: TestServer;
let api: Client;
const rows = (sql: string, ...params: unknown[]) => storeQuery(server.dataDir, sql, ...params);

async function upload(bytes = 4000) {
  const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 5 });
  expect(u.status).toBe(200);
  const put = await fetch(u.body.presignedUrl, {
    method: "PUT",
    body: wavBytes(bytes, 3),
    headers: { "content-type": "audio/wav" },
  });
  expect(put.status).toBe(200);
  const id = u.body.audioUrl.split("/").pop() as string;
  const [row] = await rows("SELECT workspace_id AS w, extension AS e FROM audio_uploads WHERE id = ?", id);
  return { ...u.body, id, file: path.join(server.dataDir, "audio", row.w, `${id}.${row.e}`) };
}

beforeAll(async () => {
  // Processing is not what is tested: recordings stay unprocessed (no engine matters).
  server = await startServer({
    args: ["--no-rate-limit", "--stt-engine", "openai", "--stt-url", "http://127.0.0.1:9/v1"],
    env: { NOTULA_SWEEP_INTERVAL_MS: "200", NOTULA_PIPELINE_MAX_ATTEMPTS: "1" },
  });
  api = client(server.url, server.key);
});
afterAll(() => server?.stop());

describe("deleting a note", () => {
  it("removes its transcript, passages and recording, and the upload record once the file is gone", async () => {
    const u = await upload();
    const made = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl, title: "To be deleted" });
    expect(made.status).toBe(200);
    const noteId = made.body.noteId;
    expect(fs.existsSync(u.file)).toBe(true);
    expect((await api("DELETE", `/v1/notes/${noteId}`)).status).toBe(200);
    expect(fs.existsSync(u.file)).toBe(false);
    for (const table of ["transcript_segments", "note_speakers", "note_folders"])
      expect((await rows(`SELECT count(*) AS n FROM ${table} WHERE note_id = ?`, noteId))[0].n, table).toBe(0);
    expect((await rows("SELECT count(*) AS n FROM passages WHERE source_id = ?", noteId))[0].n).toBe(0);
    await until(
      "the upload record removed",
      async () => (await rows("SELECT id FROM audio_uploads WHERE id = ?", u.id)).length === 0,
    );
  });

  it("a recording the store will not remove at once is retried until it goes", async () => {
    const u = await upload();
    const made = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(made.status).toBe(200);
    // A directory where the file was: removal fails until it is cleared.
    fs.rmSync(u.file);
    fs.mkdirSync(u.file);
    fs.writeFileSync(path.join(u.file, "blocker"), "x");
    expect((await api("DELETE", `/v1/notes/${made.body.noteId}`)).status).toBe(200);
    const [job] = await until("a failed removal attempt", async () => {
      const found = await rows(
        "SELECT status, attempts, last_error FROM jobs WHERE idempotency_key = ?",
        `delete-recording:${u.id}`,
      );
      return found[0]?.last_error ? found : null;
    });
    expect(job.status).toBe("queued");
    expect((await rows("SELECT status FROM audio_uploads WHERE id = ?", u.id))[0].status).toBe("used");
    fs.rmSync(u.file, { recursive: true });
    fs.writeFileSync(u.file, "the recording, back in place");
    // The next attempt (a second later) removes it, then the record.
    await until(
      "the retried removal",
      async () =>
        !fs.existsSync(u.file) && (await rows("SELECT id FROM audio_uploads WHERE id = ?", u.id)).length === 0,
    );
    expect(
      (await rows("SELECT status FROM jobs WHERE idempotency_key = ?", `delete-recording:${u.id}`))[0].status,
    ).toBe("succeeded");
  });
});

describe("the periodic sweep", () => {
  it("removes uploads never sent, recordings never used, orphaned files and expired sign-in state; keeps what is live", async () => {
    const hour = 3_600_000;
    // Never sent, its URL expired two hours ago.
    const never = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 5 });
    const neverId = never.body.audioUrl.split("/").pop();
    await rows("UPDATE audio_uploads SET expires_at = ? WHERE id = ?", Date.now() - 2 * hour, neverId);
    // Sent, never made into a note, for more than a day.
    const unused = await upload();
    await rows("UPDATE audio_uploads SET expires_at = ? WHERE id = ?", Date.now() - 25 * hour, unused.id);
    // Sent an hour ago and not used yet: kept (a client may still make its note).
    const recent = await upload();
    await rows("UPDATE audio_uploads SET expires_at = ? WHERE id = ?", Date.now() - hour, recent.id);
    // Files no upload refers to: one old (removed), one new (it may be mid-upload: kept).
    const wsDir = path.dirname(recent.file);
    const oldOrphan = path.join(wsDir, "upl_orphanedold.wav");
    const newOrphan = path.join(wsDir, "upl_orphanednew.wav");
    fs.writeFileSync(oldOrphan, "lost");
    fs.writeFileSync(newOrphan, "arriving");
    const twoHoursAgo = new Date(Date.now() - 2 * hour);
    fs.utimesSync(oldOrphan, twoHoursAgo, twoHoursAgo);
    // The admin's password link (made at start), now expired; the API key stays.
    expect((await rows("SELECT count(*) AS n FROM account_tokens"))[0].n).toBeGreaterThan(0);
    await rows("UPDATE account_tokens SET expires_at = ?", Date.now() - 1000);

    await until(
      "the sweep",
      async () => !fs.existsSync(oldOrphan) && (await rows("SELECT count(*) AS n FROM account_tokens"))[0].n === 0,
    );
    await until(
      "stale uploads removed",
      async () => (await rows("SELECT id FROM audio_uploads WHERE id IN (?, ?)", neverId, unused.id)).length === 0,
    );
    expect(fs.existsSync(unused.file)).toBe(false);
    expect(fs.existsSync(recent.file)).toBe(true);
    expect(fs.existsSync(newOrphan)).toBe(true);
    expect((await rows("SELECT status FROM audio_uploads WHERE id = ?", recent.id))[0].status).toBe("uploaded");
    expect((await api("GET", "/v1/me")).status).toBe(200);
    // One sweep waits at a time.
    expect(
      (await rows("SELECT count(*) AS n FROM jobs WHERE kind = 'sweep' AND status = 'queued'"))[0].n,
    ).toBeLessThanOrEqual(1);
  });

  it("removes OAuth clients that never got a token after a day; keeps new ones and those in use", async () => {
    const hour = 3_600_000;
    const reg = async () =>
      (
        (await (
          await fetch(`${server.url}/mcp/oauth/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:5/cb"] }),
          })
        ).json()) as { client_id: string }
      ).client_id;
    const abandoned = await reg();
    const fresh = await reg();
    const used = await reg();
    // The token first: a sweep between the two writes must not find the used client tokenless.
    await rows(
      "INSERT INTO oauth_refresh_tokens (token_hash, family_id, client_id, user_id, workspace_id, scope, resource, expires_at, created_at) VALUES ('h1', 'f1', ?, 'u', 'w', 'read', 'r', ?, ?)",
      used,
      Date.now() + 24 * hour,
      Date.now(),
    );
    await rows("UPDATE oauth_clients SET created_at = ? WHERE id IN (?, ?)", Date.now() - 25 * hour, abandoned, used);
    await until(
      "the abandoned client removed",
      async () => (await rows("SELECT id FROM oauth_clients WHERE id = ?", abandoned)).length === 0,
    );
    expect((await rows("SELECT id FROM oauth_clients WHERE id IN (?, ?) ORDER BY id", fresh, used)).length).toBe(2);
  });
});
