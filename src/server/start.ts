// `notula serve`: listens, opens the data dir with the address it got, bootstraps an
// empty one, and starts the workers.
import { serve, type ServerType } from "@hono/node-server";
import fs from "node:fs";
import https from "node:https";
import { Hono } from "hono";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describeEngines } from "../ai/select.js";
import { engineCaveat, engineLabel } from "../ai/transcription/engine-notes.js";
import type { Clock } from "../core/clock.js";
import { createMetrics, type Metrics } from "../core/metrics.js";
import { metricsRoutes } from "./routes/metrics.js";
import { requestLog } from "../http/request-log.js";
import type { Config, ResolvedConfig } from "../config/schema.js";
import { ConfigError } from "../core/errors.js";
import { resolveConfig } from "../config/resolve.js";
import { createLogger, type Logger } from "../core/logger.js";
import { openRuntime, type Runtime } from "../runtime/index.js";
import { createApp } from "./app.js";
import { healthRoutes } from "./routes/health.js";
import { createFolderWatch } from "../pipeline/watch-folder.js";
import { lockDataDir, type DataDirLock } from "../storage/data-dir-lock.js";

export interface RunningServer {
  url: string;
  /** Where /metrics is served when it has a port of its own. */
  metricsUrl?: string;
  config: ResolvedConfig;
  runtime: Runtime;
  /**
   * Stops gracefully: no new connections, requests in flight get `drainMs` to finish,
   * running jobs are aborted and handed back to the queue, then the database closes.
   */
  close(opts?: { drainMs?: number }): Promise<void>;
}

export interface StartOptions {
  version: string;
  /** Where the one-time bootstrap notice and the listening line go. */
  out?: (line: string) => void;
  logger?: Logger;
  /** The time every service and job reads (tests move it; else the system's). */
  clock?: Clock;
}

export interface Assembled {
  runtime: Runtime;
  /** The API, web app and MCP (or, for a worker, health and metrics only). */
  app: {
    fetch(req: Request, env?: object): Response | Promise<Response>;
    request(input: string | Request, init?: RequestInit): Response | Promise<Response>;
  };
  metrics: Metrics;
}

/**
 * Opens the data dir for a resolved configuration and builds the app over it: the
 * runtime, the workers' definitions, the bootstrap of an empty data dir, the routes.
 * It neither listens nor starts the workers: `startServer` does, and tests that call
 * routes through `app.request()` use this alone.
 */
export async function assemble(
  config: ResolvedConfig,
  { version, out, logger, clock }: { version: string; out: (line: string) => void; logger: Logger; clock?: Clock },
): Promise<Assembled> {
  const metrics: Metrics = createMetrics();
  const runtime = await openRuntime(config, { metrics, logger, clock });
  const serving = config.role !== "worker";
  // A server alone on its data knows nothing else is running: whatever a crash left
  // half-received starts over. Others may share the database with live replicas, so
  // they leave that to the upload's expiry.
  if (aloneOnData(config)) {
    await runtime.repos.audioUploads.resetReceiving();
    runtime.storage.sweep();
  }
  logger.info(
    {
      role: config.role,
      dataDir: config.dataDir,
      publicUrl: config.publicUrl,
      database: runtime.database.describe,
      storage: runtime.storage.describe,
      engines: describeEngines(config),
      rateLimit: config.rateLimit.enabled ? config.rateLimit.perMinute : "off",
      metrics: metricsOn(config)
        ? config.metrics.port !== undefined
          ? `port ${config.metrics.port}`
          : "/metrics"
        : "off",
      pipelineConcurrency: config.pipeline.concurrency,
    },
    "configuration",
  );
  try {
    await runtime.audioStore.check();
    logger.info(
      { database: runtime.database.describe, storage: runtime.storage.describe },
      "database and audio storage ready",
    );
  } catch (err) {
    // Not fatal: the store may come up after the server (/readyz says 503 meanwhile).
    logger.warn(
      { storage: runtime.storage.describe, reason: (err as Error).message },
      "audio storage cannot be reached yet",
    );
  }
  const vectors = runtime.database.vectorIndex;
  if (vectors && runtime.embedder) {
    if (vectors.enabled)
      logger.info(
        { database: runtime.database.describe, vectors: vectors.detail },
        "meaning-based search uses pgvector's HNSW index",
      );
    else
      logger.warn(
        { database: runtime.database.describe, reason: vectors.detail },
        "meaning-based search on PostgreSQL without pgvector: a workspace's vectors are partitioned into cells in the background, and each search screens the cells nearest its query by their bits; pgvector's HNSW index reads fewer",
      );
  }
  if (config.role !== "api") fs.rmSync(path.join(config.dataDir, "tmp"), { recursive: true, force: true });

  if (serving && (await runtime.services.workspaces.isEmpty())) {
    const created = await runtime.services.workspaces.create({
      name: "My Workspace",
      plan: "enterprise",
      adminEmail: "admin@notula.local",
      adminName: "Admin",
    });
    out(`Created workspace "${created.workspace.name}" (${created.workspace.id}) with admin ${created.user.email}.`);
    out(`Admin API key (shown once; store it now): ${created.key}`);
    const setup = await runtime.services.accounts.issueLink(created.user.id, "setup");
    out(
      `Set the admin's password for the web app (one-time link, valid 7 days): ${config.publicUrl}/account/password/${setup}`,
    );
  }

  // The queue is its table: readable means jobs can be queued and claimed.
  const queue = { check: () => runtime.repos.jobs.nextAvailableAt("process-note") };
  const log = requestLog(logger, metrics.request);
  // /metrics on the main port only when asked for and given no port of its own.
  const metricsHere = metricsOn(config) && config.metrics.port === undefined ? metrics : undefined;
  const app = serving
    ? createApp({
        services: runtime.services,
        audioStore: runtime.audioStore,
        config,
        database: runtime.database,
        queue,
        version: version,
        logger,
        requestLog: log,
        metrics: metricsHere,
        // The runtime's clock: the rate limiter and the sessions read the one the services do.
        now: runtime.now,
      })
    : workerApp(runtime, queue, log, metricsHere);
  return { runtime, app, metrics };
}

/**
 * Whether this server is the only one working on its data: the single-box role holds
 * the data dir's lock and runs its own jobs; split roles (an API beside workers) may
 * share the database with live replicas, whose jobs and uploads are theirs.
 */
const aloneOnData = (config: ResolvedConfig) => config.role === "all";

function listen(server: ServerType): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("listening", () => resolve(server.address() as AddressInfo));
    server.once("error", reject);
  });
}

export async function startServer(rawConfig: Config, opts: StartOptions): Promise<RunningServer> {
  const out = opts.out ?? ((line: string) => process.stdout.write(line + "\n"));
  const logger = opts.logger ?? createLogger({ level: rawConfig.logLevel });
  // Listen first: the public URL, and so every link the services sign, may depend on
  // the port the system hands out. Until the app is built nothing knows the address.
  let handle: (req: Request, env: unknown) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const server = serve({
    // The Node bindings (the raw request and socket) go through: uploads stream from
    // the socket, and the peer's address comes from it.
    fetch: (req, env) => handle(req, env),
    hostname: rawConfig.host,
    port: rawConfig.port,
    // Headers must arrive within 30 s (slow-header clients hold sockets otherwise). The
    // whole request is not bounded here: an upload of a long recording may take an
    // hour; it is bounded by its idle timeout, and API answers by the request timeout.
    serverOptions: { headersTimeout: 30_000, requestTimeout: 0, ...tlsFiles(rawConfig) },
    ...(rawConfig.tls.certFile ? { createServer: https.createServer } : {}),
  });
  // An idle connection is closed by the client first (undici after 4 s, load balancers
  // after 60 s): a server that closes first races a request sent on the closing socket,
  // which the client sees as a reset.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;
  const address = await listen(server);
  const config = resolveConfig(rawConfig, address);
  let lock: DataDirLock | null = null;
  try {
    // The single-box role restarts half-done work at start: it must be alone on its data dir.
    if (config.role === "all")
      lock = lockDataDir(config.dataDir, urlOf(address, config.tls.certFile ? "https" : "http"), config.publicUrl);
  } catch (err) {
    server.close();
    throw err;
  }

  let assembled: Assembled;
  try {
    assembled = await assemble(config, { version: opts.version, out, logger, clock: opts.clock });
  } catch (err) {
    lock?.release();
    server.close();
    throw err;
  }
  const { runtime, app, metrics } = assembled;
  const working = config.role !== "api";
  // Requests being handled. A caller that hangs up closes its connection, not its
  // request: the stop waits for these too, or they would run on a closed database.
  const inFlight = new Set<Promise<unknown>>();
  handle = (req, env) => {
    const answer = app.fetch(req, env as object);
    if (!(answer instanceof Promise)) return answer;
    inFlight.add(answer);
    const done = () => inFlight.delete(answer);
    answer.then(done, done);
    return answer;
  };
  let metricsServer: ServerType | undefined;
  let metricsUrl: string | undefined;
  if (metricsOn(config) && config.metrics.port !== undefined) {
    metricsServer = serve({ fetch: metricsRoutes(metrics).fetch, hostname: config.host, port: config.metrics.port });
    metricsUrl = `${urlOf(await listen(metricsServer))}/metrics`;
    logger.info({ url: metricsUrl }, "metrics served on their own port");
  }
  if (working) {
    // Alone on its data, jobs left by a previous run resume at once: nothing else runs
    // them, so one still marked running lost its worker with that run. Beside other
    // workers (split roles), a job whose worker died is taken up when its lease runs
    // out: it may be a live replica's.
    if (aloneOnData(config)) {
      const released = await runtime.repos.jobs.requeueRunning(runtime.now());
      if (released) logger.info({ jobs: released }, "resumed the jobs a previous run left unfinished");
    }
    runtime.queue.start();
    runtime.database.keepStatistics((err) =>
      logger.warn({ err }, "could not bring the planner's statistics up to date"),
    );
    // What each job does at start: the first of a periodic one, work left due.
    await runtime.startJobs();
  }
  const watch =
    working && config.watch.dir
      ? createFolderWatch(
          { services: runtime.services, repos: runtime.repos, logger, now: runtime.now },
          { dir: config.watch.dir, user: config.watch.user, workspace: config.watch.workspace },
        )
      : null;
  if (watch) {
    watch.start(config.watch.everySec * 1000);
    out(`Watching ${watch.dir}: recordings and transcripts dropped there become notes.`);
  }
  if (working) {
    // Which engine transcribes, said where the operator looks: pocketsphinx is a fallback.
    const speech = describeEngines(config).transcription.using;
    const caveat = speech.startsWith("sphinx:") ? engineCaveat("sphinx:") : null;
    out(
      `Speech-to-text: ${speech === "none" ? "none (recordings wait for an engine)" : engineLabel(speech)}${caveat ? `. ${caveat} Set up whisper: notula models pull base.en, or Settings → Speech-to-text.` : ""}`,
    );
  }
  // Said last: once this line is out, the server is whole (and `notula serve` handles signals).
  const scheme = config.tls.certFile ? "https" : "http";
  out(`notula listening on ${urlOf(address, scheme)}${config.role === "all" ? "" : ` (role: ${config.role})`}`);

  return {
    url: urlOf(address, scheme),
    config,
    runtime,
    metricsUrl,
    async close(o = {}) {
      const drainMs = o.drainMs ?? 5_000;
      const until = Date.now() + drainMs;
      // Stop accepting; idle keep-alive connections close now, busy ones once their
      // request is answered. After the drain bound, whatever is left (an open MCP event
      // stream, a slow upload) is cut.
      const http = server as unknown as { closeIdleConnections?: () => void; closeAllConnections?: () => void };
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      http.closeIdleConnections?.();
      const idleSweep = setInterval(() => http.closeIdleConnections?.(), 100).unref();
      const cut = setTimeout(() => http.closeAllConnections?.(), drainMs).unref();
      await drained;
      clearInterval(idleSweep);
      clearTimeout(cut);
      // Connections are closed; requests whose callers left may still be running.
      if (inFlight.size) {
        let bound: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inFlight]),
          new Promise((r) => (bound = setTimeout(r, Math.max(0, until - Date.now())))),
        ]);
        clearTimeout(bound);
        if (inFlight.size) logger.warn({ requests: inFlight.size }, "stopping with requests still running");
      }
      metricsServer?.close();
      (metricsServer as unknown as typeof http | undefined)?.closeAllConnections?.();
      await watch?.stop();
      // Running jobs are told to stop; what does not settle in time is handed back.
      await runtime.queue.stop({ graceMs: 3_000 });
      await runtime.close();
      lock?.release();
      logger.info("stopped");
    },
  };
}

function metricsOn(config: ResolvedConfig): boolean {
  return config.metrics.enabled || config.metrics.port !== undefined;
}

/** A worker serves no API: health, readiness and (when on) metrics. */
function workerApp(
  runtime: Runtime,
  queue: { check(): Promise<unknown> },
  log: ReturnType<typeof requestLog>,
  metrics?: Metrics,
) {
  const app = new Hono();
  app.use("*", log);
  app.route("/", healthRoutes(runtime.database, runtime.audioStore, queue));
  if (metrics) app.route("/", metricsRoutes(metrics));
  return app;
}

/** The address the server listens on, as a URL (not the public URL, which may differ). */
function urlOf(a: AddressInfo, scheme = "http"): string {
  return `${scheme}://${a.family === "IPv6" ? `[${a.address}]` : a.address}:${a.port}`;
}

/** The certificate and key to serve https with, read once at start (a clear error if unreadable). */
function tlsFiles(config: Config): { cert?: Buffer; key?: Buffer } {
  const { certFile, keyFile } = config.tls;
  if (!certFile || !keyFile) return {};
  const read = (file: string, what: string) => {
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new ConfigError(`Cannot read the TLS ${what} ${file}: ${(err as Error).message}`);
    }
  };
  return { cert: read(certFile, "certificate"), key: read(keyFile, "key") };
}
