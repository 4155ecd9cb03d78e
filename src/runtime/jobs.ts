// Every kind of background job, in one place: how each is queued (its payload and
// idempotency key) and what runs it (its handler, with the attempts and concurrency the
// configuration gives). Every runtime registers them all, the server's and the command
// line's alike, so a job queued anywhere carries the same retry limits; only a runtime
// that starts its queue runs them.
import path from "node:path";
import pkg from "../../package.json" with { type: "json" };
import type { ResolvedConfig } from "../config/schema.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Metrics } from "../core/metrics.js";
import type { SecretBox } from "../core/secret-box.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import type { Repositories } from "../db/repos/index.js";
import type { JobQueue } from "../jobs/queue.js";
import type { AudioStore } from "../storage/audio-store.js";
import type { Services } from "../services/index.js";
import type { NoteLifecycle } from "../services/note-lifecycle.js";
import { processingKey } from "../services/note-lifecycle.js";
import { DELETE_RECORDING, deleteRecordingWorker, sweepWorker } from "../jobs/housekeeping.js";
import { PROCESS_NOTE, processNoteWorker } from "../pipeline/process-note.js";
import { RECORDING_WATCHDOG, recordingWatchdogWorker } from "../pipeline/recording-watchdog.js";
import { LIVE_TRANSCRIPTION, liveTranscriptionWorker } from "../pipeline/live-transcription.js";
import { ENGINE_WATCH, engineWatchWorker } from "../pipeline/engine-watch.js";
import { INDEX_PASSAGES, indexPassagesWorker } from "../pipeline/index-passages.js";
import { buildVectorIndexWorker } from "../pipeline/vector-index.js";
import { deliveryWorker } from "../webhooks/delivery.js";
import { CALENDAR_SYNC, calendarSyncWorker } from "../pipeline/calendar-sync.js";
import { SEND_MAIL, sealMail, sendMailWorker } from "../mail/send.js";
import type { Mail } from "../mail/messages.js";
import type { Net } from "../net/outbound.js";

/** How each job is queued: the one place that names its kind, payload and idempotency key. */
export function jobEnqueuers(queue: Pick<JobQueue, "enqueue">, embedder: Embedder | null, secrets: SecretBox) {
  return {
    /** A mail, sealed (it may carry a sign-in link), sent once per key. */
    sendMail: (mail: Mail, key: string, workspaceId?: string) =>
      queue.enqueue(SEND_MAIL, sealMail(secrets, mail, workspaceId), { idempotencyKey: `mail:${key}` }),
    /** Indexes a note or article for search by meaning (nothing without an embedder). */
    async indexPassages(source: "note" | "article", id: string, o: { created?: boolean } = {}) {
      if (embedder)
        await queue.enqueue(
          INDEX_PASSAGES,
          { source, id },
          { idempotencyKey: `index:${source}:${id}`, coalesce: "queued", freshKey: o.created },
        );
    },
    // Only a waiting job absorbs a new one: a running job may be past the point where it
    // would see the note's new status (it has just completed it), so it cannot stand in.
    processNote: (noteId: string, extra: Record<string, unknown> = {}, o: { created?: boolean } = {}) =>
      queue.enqueue(
        PROCESS_NOTE,
        { noteId, ...extra },
        { idempotencyKey: processingKey(noteId), coalesce: "queued", freshKey: o.created },
      ),
    watchRecording: (uploadId: string, delayMs: number) =>
      queue.enqueue(
        RECORDING_WATCHDOG,
        { uploadId },
        { idempotencyKey: `recording:${uploadId}`, delayMs, coalesce: "queued" },
      ),
    watchEngine: (workspaceId: string, delayMs: number) =>
      queue.enqueue(
        ENGINE_WATCH,
        { workspaceId },
        { idempotencyKey: `engine-watch:${workspaceId}`, delayMs, coalesce: "queued" },
      ),
    transcribeLive: (uploadId: string) =>
      queue.enqueue(LIVE_TRANSCRIPTION, { uploadId }, { idempotencyKey: `live:${uploadId}` }),
    /** The next sync of a calendar; one waits per calendar at a time. */
    syncCalendar: (calendarId: string, delayMs: number) =>
      queue.enqueue(
        CALENDAR_SYNC,
        { calendarId },
        { idempotencyKey: `calendar:${calendarId}`, delayMs, coalesce: "queued" },
      ),
    deleteRecording: (uploadId: string, key: string) =>
      queue.enqueue(DELETE_RECORDING, { uploadId, key }, { idempotencyKey: `delete-recording:${uploadId}` }),
  };
}

export type JobEnqueuers = ReturnType<typeof jobEnqueuers>;

export interface JobParts {
  config: ResolvedConfig;
  queue: JobQueue;
  enqueue: JobEnqueuers;
  repos: Repositories;
  audioStore: AudioStore;
  services: Services;
  lifecycle: NoteLifecycle;
  secrets: SecretBox;
  embedder: Embedder | null;
  metrics: Metrics;
  logger: Logger;
  now: Clock;
  net: Net;
}

/** Registers what runs each kind of job, configured as the configuration says. */
export function registerJobs(p: JobParts): void {
  const { config, queue, repos, services } = p;
  const tmpDir = path.join(config.dataDir, "tmp");
  const engines = (workspaceId: string) => services.aiConfig.engines(workspaceId);
  queue.define(
    processNoteWorker({
      repos,
      store: p.audioStore,
      tmpDir,
      lifecycle: p.lifecycle,
      engines,
      templates: services.templates,
      recordings: services.recordings,
      engineWait: services.engineWait,
      voicePrints: services.voicePrints,
      concurrency: config.pipeline.concurrency,
      maxAttempts: config.pipeline.maxAttempts,
      retryBaseMs: config.pipeline.retryBaseMs,
      leaseMs: config.pipeline.leaseMs,
      onStage: p.metrics.stage,
    }),
  );
  if (p.embedder) queue.define(indexPassagesWorker({ repos, embedder: p.embedder, queue }));
  queue.define(buildVectorIndexWorker({ repos, now: p.now }));
  queue.define(deleteRecordingWorker(repos, p.audioStore));
  queue.define(engineWatchWorker({ engineWait: services.engineWait, watch: p.enqueue.watchEngine }));
  // Always: a workspace's admins may set up its own SMTP server at any time.
  queue.define(
    sendMailWorker({
      secrets: p.secrets,
      retryBaseMs: config.mail.retryBaseMs,
      route: (workspaceId) => services.mail.route(workspaceId),
    }),
  );
  queue.define(
    calendarSyncWorker({
      calendars: services.calendars,
      schedule: p.enqueue.syncCalendar,
      everyMs: config.calendars.syncEverySec * 1000,
    }),
  );
  queue.define(recordingWatchdogWorker({ recordings: services.recordings, watch: p.enqueue.watchRecording }));
  queue.define(
    liveTranscriptionWorker({
      repos,
      store: p.audioStore,
      tmpDir,
      engines,
      now: p.now,
      logger: p.logger.child({ component: "live-transcription" }),
    }),
  );
  queue.define(
    sweepWorker({
      repos,
      store: p.audioStore,
      queue,
      now: p.now,
      logger: p.logger.child({ component: "sweep" }),
      intervalMs: config.sweepIntervalMs,
    }),
  );
  queue.define(
    deliveryWorker({
      repos,
      secrets: p.secrets,
      outbound: p.net.for("webhooks"),
      now: p.now,
      retryScheduleMs: [...config.webhooks.retryScheduleMs],
      timeoutMs: config.webhooks.timeoutMs,
      disableAfter: config.webhooks.disableAfter,
      userAgent: `notula-webhooks/${pkg.version}`,
      logger: p.logger.child({ component: "webhooks" }),
      onAttempt: p.metrics.webhookDelivery,
    }),
  );
}
