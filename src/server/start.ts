// `notula serve`: opens the data dir, bootstraps an empty one, and listens.
import { serve, type ServerType } from "@hono/node-server";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { selectEmbedder, selectSummarizer, selectTranscriber } from "../ai/select.js";
import { INDEX_PASSAGES, indexPassagesWorker } from "../pipeline/index-passages.js";
import { processNoteWorker } from "../pipeline/process-note.js";
import { deliveryWorker } from "../webhooks/delivery.js";
import { createWebhookAgent } from "../webhooks/guarded-fetch.js";
import type { Config } from "../config/schema.js";
import { openRuntime } from "../runtime.js";
import { createApp } from "./app.js";

/** Builds the engine once, on first use (a whisper model stays loaded between notes); a failure is retried next time. */
function memoize<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  version: string;
  /** Where the one-time bootstrap notice and the listening line go. */
  out?: (line: string) => void;
}

export async function startServer(config: Config, opts: StartOptions): Promise<RunningServer> {
  const out = opts.out ?? ((line: string) => process.stdout.write(line + "\n"));
  const embedder = selectEmbedder(config.embeddings);
  const runtime = openRuntime(config.dataDir, {
    embedder,
    allowPrivateWebhooks: config.allowPrivateWebhooks,
    maxUploadBytes: config.maxUploadBytes,
    publicUrl: () => config.publicUrl!,
  });
  // Whatever a crash left half-received starts over.
  runtime.repos.audioUploads.resetReceiving();
  runtime.audioStore.sweepIncoming();
  const tmpDir = path.join(config.dataDir, "tmp");
  fs.rmSync(tmpDir, { recursive: true, force: true });
  runtime.queue.define(
    processNoteWorker({
      repos: runtime.repos,
      store: runtime.audioStore,
      tmpDir,
      now: runtime.now,
      transcriber: memoize(() => selectTranscriber(config.transcription, config.dataDir)),
      summarizer: () => selectSummarizer(config.summarization),
      concurrency: config.pipeline.concurrency,
      maxAttempts: config.pipeline.maxAttempts,
      retryBaseMs: config.pipeline.retryBaseMs,
      onFinished: (note) =>
        runtime.repos.transaction(() => {
          runtime.emit(note.workspaceId, "note.completed", { note: runtime.services.notes.snapshot(note.id) });
          if (embedder) runtime.queue.enqueue(INDEX_PASSAGES, { source: "note", id: note.id }, { idempotencyKey: `index:note:${note.id}`, coalesce: "queued" });
        }),
    }),
  );
  if (embedder) runtime.queue.define(indexPassagesWorker({ repos: runtime.repos, embedder }));
  runtime.queue.define(
    deliveryWorker({
      repos: runtime.repos,
      secrets: runtime.secrets,
      agent: createWebhookAgent(config.allowPrivateWebhooks),
      now: runtime.now,
      retryScheduleMs: config.webhooks.retryScheduleMs,
      timeoutMs: config.webhooks.timeoutMs,
      disableAfter: config.webhooks.disableAfter,
      userAgent: `notula-webhooks/${opts.version}`,
    }),
  );

  if (runtime.services.workspaces.isEmpty()) {
    const created = runtime.services.workspaces.create({ name: "My Workspace", plan: "enterprise", adminEmail: "admin@notula.local", adminName: "Admin" });
    out(`Created workspace "${created.workspace.name}" (${created.workspace.id}) with admin ${created.user.email}.`);
    out(`Admin API key (shown once; store it now): ${created.key}`);
  }

  let server: ServerType;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    const app = createApp({ services: runtime.services, repos: runtime.repos, config, sqlite: runtime.database.sqlite, version: opts.version });
    server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => resolve(info));
    server.once("error", reject);
  });
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  if (!config.publicUrl) config.publicUrl = url;
  out(`notula listening on ${url}`);
  // Jobs left by a previous run resume now: one server runs per data dir, so a job
  // still marked running lost its worker with that run.
  runtime.repos.jobs.requeueRunning(runtime.now());
  runtime.queue.start();

  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          void runtime.queue.stop().then(() => {
            runtime.close();
            resolve();
          });
        });
        // Idle keep-alive sockets would otherwise hold the close open; open event
        // streams (MCP) never end by themselves, so they get two seconds to finish.
        const http = server as unknown as { closeIdleConnections?: () => void; closeAllConnections?: () => void };
        http.closeIdleConnections?.();
        setTimeout(() => http.closeAllConnections?.(), 2000).unref();
      }),
  };
}
