// Builds the service's object graph over a data dir: database, repositories, audio
// store, job queue, the note life cycle and the services. Shared by `notula serve`,
// `notula admin` and `notula mcp`.
import path from "node:path";
import { createRepositories } from "./db/repos/index.js";
import { openDatabase } from "./db/open.js";
import { databaseTarget } from "./db/target.js";
import { ConfigError } from "./config/load.js";
import { createJobQueue } from "./jobs/queue.js";
import { PROCESS_NOTE } from "./pipeline/process-note.js";
import { INDEX_PASSAGES } from "./pipeline/index-passages.js";
import type { Embedder } from "./ai/embeddings/embedder.js";
import { createServices } from "./services/index.js";
import { createNoteLifecycle, processingKey } from "./services/note-lifecycle.js";
import { loadSecretBox } from "./core/secret-box.js";
import { systemClock } from "./core/clock.js";
import { silentLogger, type Logger } from "./core/logger.js";
import { openAudioStore, type StorageSettings } from "./storage/open.js";
import { createEventEmitter, createRedelivery } from "./webhooks/events.js";

export interface RuntimeOptions {
  /** The server's public base URL, resolved once (see config/public-url.ts). */
  publicUrl: string;
  /** The embedding engine for meaning-based search; null or absent turns it off. */
  embedder?: Embedder | null;
  allowPrivateWebhooks?: boolean;
  maxUploadBytes?: number;
  /** The shared secret key of replicas (NOTULA_SECRET_KEY); else the data dir's. */
  secretKey?: string;
  /** sqlite:PATH or postgres://…; <data dir>/notula.db unless configured. */
  database?: string;
  /** Where recordings live; <data dir>/audio unless configured. */
  storage?: StorageSettings;
  /** Where the queue, workers and services log; silent unless given. */
  logger?: Logger;
}

export function openRuntime(dataDir: string, options: RuntimeOptions) {
  // Checked before anything is opened: a bad key or URL leaves nothing behind.
  let secrets;
  try {
    secrets = loadSecretBox(dataDir, options.secretKey);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const storage = openAudioStore(options.storage ?? {}, dataDir);
  const target = databaseTarget(options.database, dataDir);
  if (target.dialect === "postgres")
    throw new ConfigError(
      "This version keeps its data on SQLite only: the PostgreSQL schema and migrations are ready (`notula migrate --database postgres://…`), but serving from PostgreSQL is not.",
    );
  const database = openDatabase(target.file);
  const repos = createRepositories(database.db);
  const now = systemClock;
  const audioStore = storage.store;
  const logger = options.logger ?? silentLogger();
  const queue = createJobQueue(repos, { now, logger });
  const emit = createEventEmitter(repos, queue, now);
  const embedder = options.embedder ?? null;
  const enqueueIndexing = async (source: "note" | "article", id: string) => {
    if (embedder) await queue.enqueue(INDEX_PASSAGES, { source, id }, { idempotencyKey: `index:${source}:${id}`, coalesce: "queued" });
  };
  const lifecycle = createNoteLifecycle({
    repos,
    publicUrl: options.publicUrl,
    now,
    emit,
    enqueueIndexing,
    enqueueProcessing: (noteId) => queue.enqueue(PROCESS_NOTE, { noteId }, { idempotencyKey: processingKey(noteId) }),
  });
  const services = createServices(repos, {
    secrets,
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    audioStore,
    maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 ** 3,
    publicUrl: options.publicUrl,
    lifecycle,
    embedder,
    enqueueIndexing,
    redeliverWebhook: createRedelivery(queue),
    now,
  });
  return { database, repos, audioStore, storage, queue, services, lifecycle, secrets, now, embedder, logger, close: () => database.close() };
}

export type Runtime = ReturnType<typeof openRuntime>;
