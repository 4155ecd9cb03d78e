// Builds the service's object graph over a data dir: database, repositories, audio
// store, job queue, the note life cycle and the services. Shared by `notula serve`,
// `notula admin` and `notula mcp`.
import fs from "node:fs";
import { createRepositories } from "./db/repos/index.js";
import type Database from "better-sqlite3";
import { migrationsApplied, openDatabase, type Db } from "./db/open.js";
import { databaseTarget, type DatabaseTarget } from "./db/target.js";
import { createPgRepositories } from "./db/pg/repos.js";
import { openPostgres, pgMigrationsApplied, redactUrl } from "./db/pg/open.js";
import type { Repositories } from "./db/repos/index.js";
import { ConfigError } from "./core/errors.js";
import { configSchema, type Config } from "./config/schema.js";
import { createJobQueue } from "./jobs/queue.js";
import { DELETE_RECORDING } from "./jobs/housekeeping.js";
import { PROCESS_NOTE } from "./pipeline/process-note.js";
import { RECORDING_WATCHDOG } from "./pipeline/recording-watchdog.js";
import { LIVE_TRANSCRIPTION } from "./pipeline/live-transcription.js";
import { ENGINE_WATCH } from "./pipeline/engine-watch.js";
import { INDEX_PASSAGES } from "./pipeline/index-passages.js";
import type { Embedder } from "./ai/embeddings/embedder.js";
import { createServices } from "./services/index.js";
import { databaseCounters, memoryCounters } from "./services/counters.js";
import { createNoteLifecycle, processingKey } from "./services/note-lifecycle.js";
import { loadSecretBox } from "./core/secret-box.js";
import { systemClock } from "./core/clock.js";
import { silentLogger, type Logger } from "./core/logger.js";
import { createMetrics, type Metrics } from "./core/metrics.js";
import { openAudioStore, type StorageSettings } from "./storage/open.js";
import { createEventEmitter, createRedelivery } from "./webhooks/events.js";

export interface RuntimeOptions {
  /** The server's public base URL, resolved once (see config/public-url.ts). */
  publicUrl: string;
  /** The embedding engine for meaning-based search; null or absent turns it off. */
  embedder?: Embedder | null;
  allowPrivateWebhooks?: boolean;
  maxUploadBytes?: number;
  /** A live recording with no piece for this long is stopped by the server. */
  recordingQuietMs?: number;
  /** The shared secret key of replicas (NOTULA_SECRET_KEY); else the data dir's. */
  secretKey?: string;
  /** sqlite:PATH or postgres://…; <data dir>/notula.db unless configured. */
  database?: string;
  /** Where recordings live; <data dir>/audio unless configured. */
  storage?: StorageSettings;
  /** Where the queue, workers and services log; silent unless given. */
  logger?: Logger;
  /** Passages of a workspace from which its vectors are partitioned into cells (SQLite); 20,000 unless given. */
  vectorIndexAt?: number;
  /** Where jobs and requests are counted; a fresh registry unless given. */
  metrics?: Metrics;
  /** The server's AI settings (engines, languages), the defaults under each workspace's; the built-in defaults unless given. */
  ai?: { transcription: Config["transcription"]; summarization: Config["summarization"]; allowPrivateUrls?: boolean };
}

/** The database the runtime opened, whichever it is. */
export interface DatabaseHandle {
  dialect: "sqlite" | "postgres";
  /** For logs: the file or the server, never a password. */
  describe: string;
  /** PostgreSQL: whether meaning-based search has pgvector's index, and why not. */
  vectorIndex?: { enabled: boolean; detail: string };
  /** For /readyz: reachable, and every migration applied. */
  check(): Promise<"ok" | "unreachable" | "pending">;
  /** For metrics: pool connections on PostgreSQL, file sizes on SQLite. */
  figures(): Record<string, number>;
  close(): Promise<void>;
  /** SQLite only: the connection, for the admin tools and tests that speak to it directly. */
  sqlite?: Database.Database;
  db?: Db;
}

async function openDatabaseHandle(
  target: DatabaseTarget,
  opts: { vectorIndexAt?: number } = {},
): Promise<{ handle: DatabaseHandle; repos: Repositories }> {
  if (target.dialect === "postgres") {
    const pg = await openPostgres(target.url);
    return {
      repos: createPgRepositories(pg.db, {
        vectorIndex: pg.vectorIndex.enabled,
        prepared: pg.prepared,
        vectorIndexAt: opts.vectorIndexAt,
      }),
      handle: {
        dialect: "postgres",
        describe: redactUrl(target.url),
        vectorIndex: pg.vectorIndex,
        async check() {
          try {
            await pg.pool.query("SELECT 1");
          } catch {
            return "unreachable";
          }
          return (await pgMigrationsApplied(pg.pool)) ? "ok" : "pending";
        },
        figures: () => ({
          pool_total: pg.pool.totalCount,
          pool_idle: pg.pool.idleCount,
          pool_waiting: pg.pool.waitingCount,
        }),
        close: () => pg.close(),
      },
    };
  }
  const opened = openDatabase(target.file);
  return {
    repos: createRepositories(opened.db, { vectorIndexAt: opts.vectorIndexAt }),
    handle: {
      dialect: "sqlite",
      describe: target.file,
      async check() {
        try {
          opened.sqlite.prepare("SELECT 1").get();
        } catch {
          return "unreachable";
        }
        return migrationsApplied(opened.sqlite) ? "ok" : "pending";
      },
      figures: () => ({ file_bytes: fileSize(target.file), wal_bytes: fileSize(`${target.file}-wal`) }),
      close: async () => opened.close(),
      sqlite: opened.sqlite,
      db: opened.db,
    },
  };
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function aiDefaults(dataDir: string, given: RuntimeOptions["ai"]) {
  const builtIn = configSchema.parse({ dataDir });
  return {
    transcription: given?.transcription ?? builtIn.transcription,
    summarization: given?.summarization ?? builtIn.summarization,
    allowPrivateUrls: given?.allowPrivateUrls ?? false,
    dataDir,
  };
}

export async function openRuntime(dataDir: string, options: RuntimeOptions) {
  // Checked before anything is opened: a bad key or URL leaves nothing behind.
  let secrets;
  try {
    secrets = loadSecretBox(dataDir, options.secretKey);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const storage = openAudioStore(options.storage ?? {}, dataDir);
  const target = databaseTarget(options.database, dataDir);
  const { handle: database, repos } = await openDatabaseHandle(target, { vectorIndexAt: options.vectorIndexAt });
  const now = systemClock;
  const audioStore = storage.store;
  const logger = options.logger ?? silentLogger();
  const metrics = options.metrics ?? createMetrics({ processMetrics: false });
  const queue = createJobQueue(repos, { now, logger, onAttempt: metrics.job });
  const emit = createEventEmitter(repos, queue, now);
  const embedder = options.embedder ?? null;
  const enqueueIndexing = async (source: "note" | "article", id: string, o: { created?: boolean } = {}) => {
    if (embedder)
      await queue.enqueue(
        INDEX_PASSAGES,
        { source, id },
        { idempotencyKey: `index:${source}:${id}`, coalesce: "queued", freshKey: o.created },
      );
  };
  const lifecycle = createNoteLifecycle({
    repos,
    publicUrl: options.publicUrl,
    now,
    emit,
    enqueueIndexing,
    // Only a waiting job absorbs a new one: a running job may be past the point where it
    // would see the note's new status (it has just completed it), so it cannot stand in.
    enqueueProcessing: (noteId, extra, o = {}) =>
      queue.enqueue(
        PROCESS_NOTE,
        { noteId, ...extra },
        { idempotencyKey: processingKey(noteId), coalesce: "queued", freshKey: o.created },
      ),
  });
  const watchRecording = (uploadId: string, delayMs: number) =>
    queue.enqueue(
      RECORDING_WATCHDOG,
      { uploadId },
      { idempotencyKey: `recording:${uploadId}`, delayMs, coalesce: "queued" },
    );
  const watchEngine = (workspaceId: string, delayMs: number) =>
    queue.enqueue(
      ENGINE_WATCH,
      { workspaceId },
      { idempotencyKey: `engine-watch:${workspaceId}`, delayMs, coalesce: "queued" },
    );
  const transcribeLive = (uploadId: string) =>
    queue.enqueue(LIVE_TRANSCRIPTION, { uploadId }, { idempotencyKey: `live:${uploadId}` });
  const services = createServices(repos, {
    secrets,
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    audioStore,
    maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 ** 3,
    recordingQuietMs: options.recordingQuietMs,
    publicUrl: options.publicUrl,
    lifecycle,
    embedder,
    enqueueIndexing,
    redeliverWebhook: createRedelivery(queue),
    watchRecording,
    watchEngine,
    transcribeLive,
    enqueueRecordingDeletion: (uploadId, key) =>
      queue.enqueue(DELETE_RECORDING, { uploadId, key }, { idempotencyKey: `delete-recording:${uploadId}` }),
    // One process counts in memory; replicas share a PostgreSQL database and count there.
    counters: database.dialect === "postgres" ? databaseCounters(repos) : memoryCounters(now),
    ai: aiDefaults(dataDir, options.ai),
    logger,
    now,
  });
  metrics.readAtScrape({ jobCounts: () => repos.jobs.depth(), database: database.figures });
  return {
    database,
    repos,
    audioStore,
    storage,
    queue,
    services,
    lifecycle,
    watchRecording,
    watchEngine,
    secrets,
    now,
    embedder,
    logger,
    metrics,
    close: () => database.close(),
  };
}

export type Runtime = Awaited<ReturnType<typeof openRuntime>>;
