// Operating the server: what it logs (and never logs), the Prometheus metrics, and a
// graceful stop that drains requests and hands running jobs back to the queue.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { startServer, startServerProcess, storeQuery, tempDir, type ProcessTestServer } from "../helpers/server.js";
import { fileBytes, tone, wavBytes } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { startEmbeddingServer, startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";
import { until } from "../helpers/until.js";

/** The server's log lines, parsed (stderr is not a terminal, so JSON). */
function logLines(server: ProcessTestServer): Record<string, any>[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

async function startReceiver() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/s3cr3t-path`,
    close: () => new Promise((r) => server.close(r)),
  };
}

const exitOf = (server: ProcessTestServer) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    server.proc.once("exit", (code, signal) => r({ code, signal })),
  );

describe("logs and metrics", () => {
  let server: ProcessTestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServerProcess({ args: ["--no-rate-limit", "--allow-private-webhooks", "--metrics-port", "0"] });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("says at start which engines it found and why others were skipped, and where metrics are", async () => {
    const config = logLines(server).find((l) => l.msg === "configuration");
    expect(config).toBeDefined();
    expect(config!.dataDir).toBe(server.dataDir);
    expect(config!.publicUrl).toBe(server.url);
    expect(config!.engines.transcription.using).toMatch(/^(sphinx|whisper|none)/);
    expect(config!.engines.transcription.skipped).toContain("openai: no --stt-url");
    expect(config!.engines.summaries).toEqual({
      using: "extractive (offline)",
      skipped: ["openai: no --llm-url", "local: no model set up (Settings → AI, or notula models pull llm)"],
    });
    expect(config!.rateLimit).toBe("off");
    expect(config!.metrics).toMatch(/^port \d+$/);
  });

  it("logs one line per request with route, status, duration, request id and workspace, never a key or a body", async () => {
    const api = client(server.url, server.key);
    const made = await api(
      "POST",
      "/v1/notes",
      { title: "Acquisition of Initech" },
      { "x-request-id": "req-ops-0001" },
    );
    expect(made.status).toBe(200);
    expect(made.headers.get("x-request-id")).toBe("req-ops-0001");
    const read = await api("GET", `/v1/notes/${made.body.note.id}?shareToken=abc`);
    const generated = read.headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const denied = await client(server.url, "ntl_not_a_real_key")("GET", "/v1/notes");
    expect(denied.status).toBe(401);

    const requests = await until("the request lines", () => {
      const lines = logLines(server).filter((l) => l.msg === "request");
      return lines.some((l) => l.status === 401) ? lines : null;
    });
    const post = requests.find((l) => l.requestId === "req-ops-0001")!;
    expect(post).toMatchObject({ method: "POST", route: "/v1/notes", status: 200, component: "http" });
    expect(post.workspaceId).toMatch(/^ws_/);
    expect(post.durationMs).toBeGreaterThan(0);
    // The route pattern, not the path: ids and query strings stay out.
    expect(requests.find((l) => l.requestId === generated)).toMatchObject({
      method: "GET",
      route: "/v1/notes/:id",
      status: 200,
    });
    // Refused before routing: named by the pattern that refused it.
    expect(requests.find((l) => l.status === 401)).toMatchObject({ route: "/v1/*" });
    // The log (stderr); stdout carries the one-time bootstrap notice with the admin key on purpose.
    const everything = logLines(server)
      .map((l) => JSON.stringify(l))
      .join("\n");
    expect(everything).not.toContain(server.key);
    expect(everything).not.toContain("ntl_not_a_real_key");
    expect(everything).not.toContain("Acquisition of Initech");
    expect(everything).not.toContain(made.body.note.id);
    expect(everything).not.toContain("shareToken");
  });

  it("logs job transitions and webhook attempts (host only, never the hook's secret path), and counts them in /metrics", async () => {
    const api = client(server.url, server.key);
    expect((await api("POST", "/v1/integrations/automation/webhook", { hookUrl: receiver.url })).status).toBe(200);
    expect((await api("POST", "/v1/notes", { title: "Weekly sync" })).status).toBe(200);
    const attempt = await until("a webhook attempt", () => logLines(server).find((l) => l.msg === "webhook attempt"));
    expect(attempt).toMatchObject({ outcome: "delivered", status: 200, attempt: 1, host: new URL(receiver.url).host });
    expect(attempt.event).toMatch(/^evt_/);
    // The job's own lines: the attempt is logged inside it, its success just after.
    await until("the delivery job's lines", () => {
      const jobLines = logLines(server)
        .filter((l) => l.kind === "deliver-webhook")
        .map((l) => l.msg);
      return jobLines.includes("job started") && jobLines.includes("job succeeded");
    });
    expect(server.output()).not.toContain("s3cr3t-path");

    const metricsUrl = logLines(server).find((l) => l.msg === "metrics served on their own port")!.url as string;
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toMatch(/^notula_http_requests_total\{method="POST",route="\/v1\/notes",status="200"\} [2-9]/m);
    expect(text).toMatch(
      /^notula_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v1\/notes\/:id"\} \d+/m,
    );
    expect(text).toMatch(/^notula_webhook_deliveries_total\{outcome="delivered"\} [1-9]/m);
    expect(text).toMatch(/^notula_job_duration_seconds_count\{kind="deliver-webhook",outcome="succeeded"\} [1-9]/m);
    const postgres = process.env.NOTULA_TEST_BACKEND === "postgres";
    expect(text).toMatch(
      postgres ? /^notula_database\{figure="pool_total"\} [1-9]/m : /^notula_database\{figure="wal_bytes"\} \d+/m,
    );
    expect(text).toMatch(/^notula_process_resident_memory_bytes \d+/m);
    // Not on the main port when they have their own.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});

describe("--metrics serves them on the main port", () => {
  it("is off by default and on with the flag", async () => {
    const off = await startServerProcess({ args: ["--no-rate-limit"] });
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    } finally {
      await off.stop();
    }
    const on = await startServerProcess({ args: ["--no-rate-limit", "--metrics"] });
    try {
      const res = await fetch(`${on.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await res.text()).toMatch(/^notula_jobs\b|# TYPE notula_jobs gauge/m);
    } finally {
      await on.stop();
    }
  });
});

describe("graceful stop", () => {
  let stt: VendorServer;
  beforeAll(async () => {
    stt = await startTranscriptionServer({ echo: true });
  });
  afterAll(() => stt?.close());

  it("SIGTERM finishes the request in flight, hands the running job back, and exits 0 within 10 s", async () => {
    const server = await startServerProcess({ args: ["--no-rate-limit", "--stt-url", stt.url] });
    const api = client(server.url, server.key);
    // A recording being transcribed by a speech server that takes a minute.
    stt.set({ delayMs: 60_000 });
    const wav = tone(tempDir(), 2);
    const noteId = await uploadRecording(api, wav, "wav", {}, 2);
    await waitForStatus(api, noteId, ["transcript-processing"], 20_000);
    await new Promise((r) => setTimeout(r, 1000)); // the recording is on its way to the speech server

    // An upload in flight: the body arrives in two halves, 1.5 s apart.
    const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 2 });
    const bytes = fileBytes(wav);
    let sendRest!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 1000));
        sendRest = () => {
          controller.enqueue(bytes.subarray(1000));
          controller.close();
        };
      },
    });
    const put = fetch(u.body.presignedUrl, {
      method: "PUT",
      body,
      headers: { "content-type": "audio/wav", "content-length": String(bytes.length) },
      duplex: "half",
    } as RequestInit);
    await new Promise((r) => setTimeout(r, 300));

    const exited = exitOf(server);
    const signalled = Date.now();
    server.proc.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1500));
    // New connections are refused while the old one drains.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    sendRest();
    expect((await put).status).toBe(200);
    const { code } = await exited;
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(logLines(server).some((l) => l.msg === "job handed back: the server is stopping")).toBe(true);

    // Back in the queue, the interrupted attempt not counted; the next start finishes it.
    const [job] = await storeQuery(
      server.dataDir,
      "SELECT status, attempts FROM jobs WHERE idempotency_key = ?",
      `process-note:${noteId}`,
    );
    expect(job).toEqual({ status: "queued", attempts: 0 });
    stt.set({ delayMs: 0 });
    await server.restart();
    const note = await waitForStatus(client(server.url, server.key), noteId, ["completed"]);
    expect(note.transcripts[0].text).toMatch(/window of 2\.\d seconds/);
    // The upload that finished while draining is usable.
    const made = await client(server.url, server.key)("POST", "/v1/notes/from-audio", { audioUrl: u.body.audioUrl });
    expect(made.status, made.text).toBe(200);
    await server.stop();
  });

  it("waits for a request whose caller has gone before it closes the database", async () => {
    // A search by meaning waits 1.5 s for its query's vector, then reads the database.
    const embeddings = await startEmbeddingServer({ delayMs: 1_500 });
    const logLines: string[] = [];
    const server = await startServer({
      args: ["--no-rate-limit"],
      env: {
        NOTULA_EMBEDDINGS: "openai",
        NOTULA_EMBEDDINGS_URL: embeddings.url,
        NOTULA_EMBEDDINGS_DIMENSIONS: "8",
      },
      logLines,
    });
    try {
      const gone = new AbortController();
      const search = fetch(`${server.url}/v1/search?q=budget&mode=semantic`, {
        headers: { authorization: `Bearer ${server.key}` },
        signal: gone.signal,
      }).catch(() => null);
      await until("the query sent for its vector", () => embeddings.arrived() === 1, 10_000);
      const asked = Date.now();
      // The caller hangs up: its connection closes, its request is still running.
      gone.abort();
      await search;
      await server.stop();
      const stopped = Date.now();
      // Until well after the answer came: the request has ended either way.
      await new Promise((r) => setTimeout(r, Math.max(0, asked + 2_500 - Date.now())));
      const errors = logLines.map((l) => JSON.parse(l)).filter((l) => l.level >= 50);
      expect(errors).toEqual([]);
      // The stop waited for the request to end, which it could not before the answer came.
      expect(stopped - asked).toBeGreaterThan(1_200);
    } finally {
      await server.stop();
      await embeddings.close();
    }
  });

  it("a second signal exits at once", async () => {
    const server = await startServerProcess({ args: ["--no-rate-limit"] });
    const api = client(server.url, server.key);
    const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 2 });
    // An upload that never finishes holds the drain open.
    const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(wavBytes(1000)) });
    const put = fetch(u.body.presignedUrl, {
      method: "PUT",
      body,
      headers: { "content-type": "audio/wav", "content-length": "100000" },
      duplex: "half",
    } as RequestInit).catch(() => null);
    await new Promise((r) => setTimeout(r, 300));
    const exited = exitOf(server);
    server.proc.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    const second = Date.now();
    server.proc.kill("SIGTERM");
    const { code } = await exited;
    expect(code).toBe(143);
    expect(Date.now() - second).toBeLessThan(1_000);
    await put;
  });
});
