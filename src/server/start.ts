// `notula serve`: listens, opens the data dir with the address it got, bootstraps an
// empty one, and starts the workers.
import { serve, type ServerType } from "@hono/node-server";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { selectEmbedder } from "../ai/select.js";
import { indexPassagesWorker } from "../pipeline/index-passages.js";
import { PROCESS_NOTE, processNoteWorker } from "../pipeline/process-note.js";
import { deliveryWorker } from "../webhooks/delivery.js";
import { createWebhookAgent } from "../webhooks/guarded-fetch.js";
import type { Config, ResolvedConfig } from "../config/schema.js";
import { resolveConfig } from "../config/resolve.js";
import { createLogger, type Logger } from "../core/logger.js";
import { openRuntime, type Runtime } from "../runtime.js";
import { createApp } from "./app.js";
import { healthRoutes } from "./routes/health.js";
import { lockDataDir, type DataDirLock } from "./data-dir-lock.js";

export interface RunningServer {
  url: string;
  config: ResolvedConfig;
  runtime: Runtime;
  close(): Promise<void>;
}

export interface StartOptions {
  version: string;
  /** Where the one-time bootstrap notice and the listening line go. */
  out?: (line: string) => void;
  logger?: Logger;
}

function defineWorkers(runtime: Runtime, config: ResolvedConfig, version: string, logger: Logger) {
  const embedder = runtime.embedder;
  runtime.queue.define(
    processNoteWorker({
      repos: runtime.repos,
      store: runtime.audioStore,
      tmpDir: path.join(config.dataDir, "tmp"),
      lifecycle: runtime.lifecycle,
      engines: (workspaceId) => runtime.services.aiConfig.engines(workspaceId),
      templates: runtime.services.templates,
      concurrency: config.pipeline.concurrency,
      maxAttempts: config.pipeline.maxAttempts,
      retryBaseMs: config.pipeline.retryBaseMs,
      leaseMs: config.pipeline.leaseMs,
    }),
  );
  if (embedder) runtime.queue.define(indexPassagesWorker({ repos: runtime.repos, embedder }));
  runtime.queue.define(
    deliveryWorker({
      repos: runtime.repos,
      secrets: runtime.secrets,
      agent: createWebhookAgent(config.allowPrivateWebhooks),
      now: runtime.now,
      retryScheduleMs: [...config.webhooks.retryScheduleMs],
      timeoutMs: config.webhooks.timeoutMs,
      disableAfter: config.webhooks.disableAfter,
      userAgent: `notula-webhooks/${version}`,
      logger: logger.child({ component: "webhooks" }),
    }),
  );
}

function listen(server: ServerType): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("listening", () => resolve(server.address() as AddressInfo));
    server.once("error", reject);
  });
}

export async function startServer(rawConfig: Config, opts: StartOptions): Promise<RunningServer> {
  const out = opts.out ?? ((line: string) => process.stdout.write(line + "\n"));
  const logger = opts.logger ?? createLogger();
  // Listen first: the public URL, and so every link the services sign, may depend on
  // the port the system hands out. Until the app is built nothing knows the address.
  let handle: (req: Request) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const server = serve({ fetch: (req) => handle(req), hostname: rawConfig.host, port: rawConfig.port });
  const address = await listen(server);
  const config = resolveConfig(rawConfig, address);
  let lock: DataDirLock | null = null;
  try {
    // The single-box role restarts half-done work at start: it must be alone on its data dir.
    if (config.role === "all") lock = lockDataDir(config.dataDir, urlOf(address));
  } catch (err) {
    server.close();
    throw err;
  }

  let runtime: Runtime;
  try {
    runtime = await openRuntime(config.dataDir, {
      publicUrl: config.publicUrl,
      embedder: selectEmbedder(config.embeddings),
      allowPrivateWebhooks: config.allowPrivateWebhooks,
      maxUploadBytes: config.maxUploadBytes,
      storage: config.storage,
      database: config.database,
      secretKey: config.secretKey,
      logger,
      ai: {
        transcription: config.transcription as Config["transcription"],
        summarization: config.summarization as Config["summarization"],
        allowPrivateUrls: config.allowPrivateAiUrls,
      },
    });
  } catch (err) {
    lock?.release();
    server.close();
    throw err;
  }
  const serving = config.role !== "worker";
  const working = config.role !== "api";
  // The single-box server knows nothing else is running: whatever a crash left
  // half-received starts over. Split roles may share the database with live
  // replicas, so they leave that to the upload's expiry.
  if (config.role === "all") {
    await runtime.repos.audioUploads.resetReceiving();
    runtime.storage.sweep();
  }
  try {
    await runtime.audioStore.check();
    logger.info({ database: runtime.database.describe, storage: runtime.storage.describe }, "database and audio storage ready");
  } catch (err) {
    // Not fatal: the store may come up after the server (/readyz says 503 meanwhile).
    logger.warn({ storage: runtime.storage.describe, reason: (err as Error).message }, "audio storage cannot be reached yet");
  }
  if (runtime.database.dialect === "postgres" && runtime.embedder)
    logger.warn(
      { database: runtime.database.describe },
      "meaning-based search on PostgreSQL compares every passage of a workspace (exact search; no pgvector index is used yet): fine for thousands of meetings, slow for hundreds of thousands",
    );
  if (working) fs.rmSync(path.join(config.dataDir, "tmp"), { recursive: true, force: true });
  // Defined in every role: an API replica queues jobs with the workers' retry limits.
  defineWorkers(runtime, config, opts.version, logger);

  if (serving && (await runtime.services.workspaces.isEmpty())) {
    const created = await runtime.services.workspaces.create({ name: "My Workspace", plan: "enterprise", adminEmail: "admin@notula.local", adminName: "Admin" });
    out(`Created workspace "${created.workspace.name}" (${created.workspace.id}) with admin ${created.user.email}.`);
    out(`Admin API key (shown once; store it now): ${created.key}`);
    const setup = await runtime.services.accounts.issueLink(created.user.id, "setup");
    out(`Set the admin's password for the web app (one-time link, valid 7 days): ${config.publicUrl}/account/password/${setup}`);
  }

  // The queue is its table: readable means jobs can be queued and claimed.
  const queue = { check: () => runtime.repos.jobs.nextAvailableAt(PROCESS_NOTE) };
  const app = serving
    ? createApp({ services: runtime.services, audioStore: runtime.audioStore, config, database: runtime.database, queue, version: opts.version, logger })
    : healthRoutes(runtime.database, runtime.audioStore, queue);
  handle = app.fetch;
  out(`notula listening on ${urlOf(address)}${config.role === "all" ? "" : ` (role: ${config.role})`}`);
  if (working) {
    // On a single box, jobs left by a previous run resume at once: nothing else runs
    // them, so one still marked running lost its worker with that run. With several
    // workers, a job whose worker died is taken up when its lease runs out.
    if (config.role === "all") await runtime.repos.jobs.requeueRunning(runtime.now());
    runtime.queue.start();
  }

  return {
    url: urlOf(address),
    config,
    runtime,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          void runtime.queue
            .stop()
            .then(() => runtime.close())
            .then(() => lock?.release())
            .then(() => resolve());
        });
        // Idle keep-alive sockets would otherwise hold the close open; open event
        // streams (MCP) never end by themselves, so they get two seconds to finish.
        const http = server as unknown as { closeIdleConnections?: () => void; closeAllConnections?: () => void };
        http.closeIdleConnections?.();
        setTimeout(() => http.closeAllConnections?.(), 2000).unref();
      }),
  };
}

/** The address the server listens on, as a URL (not the public URL, which may differ). */
function urlOf(a: AddressInfo): string {
  return `http://${a.family === "IPv6" ? `[${a.address}]` : a.address}:${a.port}`;
}
