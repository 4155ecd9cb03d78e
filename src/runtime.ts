// Builds the service's object graph over a data dir: database, repositories, audio
// store, job queue and services. Shared by `notula serve` and `notula admin`.
import path from "node:path";
import { createRepositories } from "./db/repos/index.js";
import { openDatabase } from "./db/open.js";
import { createJobQueue } from "./jobs/queue.js";
import { PROCESS_NOTE } from "./pipeline/process-note.js";
import { INDEX_PASSAGES } from "./pipeline/index-passages.js";
import type { Embedder } from "./ai/embeddings/embedder.js";
import { createServices } from "./services/index.js";
import { processingKey } from "./services/notes.js";
import { loadSecretBox } from "./core/secret-box.js";
import { systemClock } from "./core/clock.js";
import { createFsAudioStore } from "./storage/fs-audio-store.js";
import { createEventEmitter } from "./webhooks/events.js";

export interface RuntimeOptions {
  /** The embedding engine for meaning-based search; null or absent turns it off. */
  embedder?: Embedder | null;
  allowPrivateWebhooks?: boolean;
  maxUploadBytes?: number;
  publicUrl?: () => string;
}


export function openRuntime(dataDir: string, options: RuntimeOptions = {}) {
  const database = openDatabase(path.join(dataDir, "notula.db"));
  const repos = createRepositories(database.db);
  const now = systemClock;
  const secrets = loadSecretBox(dataDir);
  const audioStore = createFsAudioStore(path.join(dataDir, "audio"));
  const queue = createJobQueue(repos, { now });
  const emit = createEventEmitter(repos, queue, now);
  const services = createServices(repos, {
    secrets,
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    audioStore,
    maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 ** 3,
    publicUrl: options.publicUrl ?? (() => "http://127.0.0.1:8787"),
    emit,
    embedder: options.embedder ?? null,
    enqueueIndexing: (source, id) => {
      if (options.embedder) queue.enqueue(INDEX_PASSAGES, { source, id }, { idempotencyKey: `index:${source}:${id}`, coalesce: "queued" });
    },
    enqueueProcessing: (noteId) => queue.enqueue(PROCESS_NOTE, { noteId }, { idempotencyKey: processingKey(noteId) }),
    now,
  });
  return { database, repos, audioStore, queue, services, emit, secrets, now, close: () => database.close() };
}

export type Runtime = ReturnType<typeof openRuntime>;
