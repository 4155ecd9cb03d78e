// The runtime: the service's object graph over one configuration, shared by
// `notula serve`, `notula admin` and `notula mcp`.
import { createLocalLlm } from "../ai/llm/local-llama.js";
import { createWhisperHost } from "../ai/transcription/whisper-host.js";
import { databaseTarget } from "../db/target.js";
import { ConfigError } from "../core/errors.js";
import type { Config, ResolvedConfig } from "../config/schema.js";
import { createJobQueue } from "../jobs/queue.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import { selectEmbedder } from "../ai/select.js";
import { createServices } from "../services/index.js";
import { databaseCounters, memoryCounters } from "../services/counters.js";
import { createNoteLifecycle } from "../services/note-lifecycle.js";
import { loadSecretBox } from "../core/secret-box.js";
import { systemClock, type Clock } from "../core/clock.js";
import { silentLogger, type Logger } from "../core/logger.js";
import { createMetrics, type Metrics } from "../core/metrics.js";
import { openAudioStore } from "../storage/open.js";
import { createEventEmitter } from "../webhooks/events.js";
import { createJobs, defineWorkers, startJobs } from "../jobs/job.js";
import { openDatabaseHandle } from "./database.js";
import { createNet, type Resolve } from "../net/outbound.js";
import { createFinalWindows } from "../pipeline/final-pass.js";
import { JOBS, jobsOff, type JobParts } from "./jobs.js";

/** What a runtime is given besides its configuration. */
export interface RuntimeDeps {
  /** The clock every decision below reads; the system's unless given (tests move their own). */
  clock?: Clock;
  /** Where the queue, workers and services log; silent unless given. */
  logger?: Logger;
  /** Where jobs and requests are counted; a fresh registry unless given. */
  metrics?: Metrics;
  /** The embedding engine; the configuration's (embeddings.*) unless given, null for none. */
  embedder?: Embedder | null;
  /** How host names are resolved for outbound connections; the system's unless given. */
  resolve?: Resolve;
}

export type { DatabaseHandle } from "./database.js";

/**
 * Builds the service's object graph for a resolved configuration: database,
 * repositories, audio store, the job queue with every kind of job registered
 * (runtime/jobs.ts), the note life cycle and the services. The server, the admin
 * commands and `notula mcp` on a local data dir all open one; only the server starts
 * its queue.
 */
export async function openRuntime(config: ResolvedConfig, deps: RuntimeDeps = {}) {
  const { dataDir } = config;
  // Checked before anything is opened: a bad key or URL leaves nothing behind.
  let secrets;
  try {
    secrets = loadSecretBox(dataDir, config.secretKey);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const storage = openAudioStore(config.storage, dataDir);
  const target = databaseTarget(config.database, dataDir);
  const { handle: database, repos } = await openDatabaseHandle(target, {
    vectorIndexAt: config.embeddings.indexAt,
    poolSize: config.databasePool.size,
    jobPoolSize: config.databasePool.jobs,
  });
  const now = deps.clock ?? systemClock;
  const audioStore = storage.store;
  const logger = deps.logger ?? silentLogger();
  const metrics = deps.metrics ?? createMetrics({ processMetrics: false });
  const queue = createJobQueue(repos, { now, logger, onAttempt: metrics.job });
  const net = createNet({
    allowPrivate: {
      webhooks: config.allowPrivateWebhooks,
      calendars: config.allowPrivateCalendars,
      mail: config.allowPrivateSmtp,
      ai: config.allowPrivateAiUrls,
      speech: config.allowPrivateAiUrls,
    },
    resolve: deps.resolve,
  });
  const embedder =
    deps.embedder !== undefined ? deps.embedder : selectEmbedder(config.embeddings, net.for("embeddings", "operator"));
  const off = jobsOff(embedder);
  const jobs = createJobs(queue, JOBS, off);
  // The local language model is loaded on its first request and kept until close.
  const localLlm = createLocalLlm({
    dataDir,
    contextTokens: config.summarization.localContextTokens,
    threads: config.summarization.localThreads,
    maxTokens: config.summarization.localMaxTokens,
  });
  // The whisper engine's child process is started on the first window and kept until close.
  const whisperHost = createWhisperHost({ nice: config.transcription.whisperNice });
  const lifecycle = createNoteLifecycle({
    repos,
    publicUrl: config.publicUrl,
    now,
    emit: createEventEmitter(repos, jobs, now),
    jobs,
  });
  const services = createServices(repos, {
    secrets,
    net,
    jobs,
    mail: { smtpUrl: config.mail.smtpUrl, from: config.mail.from },
    audioStore,
    publicUrl: config.publicUrl,
    lifecycle,
    embedder,
    // One process counts in memory; replicas share a PostgreSQL database and count there.
    counters: database.dialect === "postgres" ? databaseCounters(repos) : memoryCounters(now),
    ai: {
      transcription: config.transcription as Config["transcription"],
      summarization: config.summarization as Config["summarization"],
      workspaceLocalModels: config.workspaceLocalModels,
      dataDir,
      localLlm,
      whisperHost,
    },
    logger,
    now,
    config,
  });
  const parts: JobParts = {
    config,
    repos,
    store: audioStore,
    services,
    lifecycle,
    jobs,
    secrets,
    embedder,
    net,
    metrics,
    logger,
    now,
    finalWindows: createFinalWindows(),
  };
  defineWorkers(queue, jobs, JOBS, parts, off);
  metrics.readAtScrape({ jobCounts: () => repos.jobs.depth(), database: database.figures });
  return {
    config,
    database,
    repos,
    audioStore,
    storage,
    queue,
    services,
    lifecycle,
    jobs,
    /** What each job does when a working server starts its queue (jobs/job.ts atStart). */
    startJobs: () => startJobs(jobs, JOBS, parts, off),
    secrets,
    now,
    embedder,
    logger,
    metrics,
    localLlm,
    close: async () => {
      await localLlm.close();
      await whisperHost.close();
      await database.close();
    },
  };
}

export type Runtime = Awaited<ReturnType<typeof openRuntime>>;
