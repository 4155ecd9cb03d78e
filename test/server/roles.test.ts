// `notula serve --role api|worker`: an API process answers requests and queues jobs
// without running them; a worker process runs them and answers only health checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";
import { tone } from "../helpers/audio.js";

describe("serve --role", () => {
  let stt: VendorServer;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    stt = await startTranscriptionServer({ echo: true });
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await stt?.close();
  });
  const start = async (args: string[], dataDir?: string) => {
    const s = await startServer({ args: ["--no-rate-limit", "--stt-url", stt.url, ...args], dataDir });
    servers.push(s);
    return s;
  };

  it("a worker on a new data dir creates no workspace and serves only health checks", async () => {
    const dir = tempDir();
    const worker = await start(["--role", "worker"], dir);
    expect(worker.key).toBe("");
    const anon = client(worker.url);
    expect((await anon("GET", "/healthz")).status).toBe(200);
    expect((await anon("GET", "/readyz")).body).toMatchObject({ status: "ready" });
    expect((await anon("GET", "/v1/notes")).status).toBe(404);
    expect((await anon("GET", "/sign-in")).status).toBe(404);
  });

  it("the API role queues processing without running it; a worker on the same data dir completes it", async () => {
    const api = await start(["--role", "api"]);
    expect(api.key).toMatch(/^ntl_/);
    const c = client(api.url, api.key);
    const id = await uploadRecording(c, tone(tempDir(), 2), "wav", { title: "Queued on the API" }, 2);
    await sleep(1500);
    expect((await c("GET", `/v1/notes/${id}`)).body.note.status).toBe("postprocessing");
    expect(stt.calls.length).toBe(0);

    await start(["--role", "worker"], api.dataDir);
    const note = await waitForStatus(c, id);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.transcripts[0].text).toMatch(/window of 2\.\d seconds/);
    expect(stt.calls.length).toBe(1);
  });

  it("/readyz answers 503 while the job queue cannot be read, and 200 once it can", async () => {
    const worker = await start(["--role", "worker"], tempDir());
    const anon = client(worker.url);
    await storeQuery(worker.dataDir, "ALTER TABLE jobs RENAME TO jobs_away");
    const down = await anon("GET", "/readyz");
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      status: "unavailable",
      queue: "unreadable",
      error: { code: "service_unavailable" },
    });
    await storeQuery(worker.dataDir, "ALTER TABLE jobs_away RENAME TO jobs");
    expect((await anon("GET", "/readyz")).body).toEqual({
      status: "ready",
      database: "ok",
      migrations: "applied",
      queue: "ok",
      storage: "ok",
    });
  });

  it("an unknown role is a configuration error", async () => {
    await expect(startServer({ args: ["--role", "both"] })).rejects.toThrow(/role/);
  });
});
