// Every kind of background job, by its declaration (jobs/job.ts): the runtime queues
// and runs exactly these. Adding a job is its own module and a line in JOBS. Every
// runtime defines them all, the server's and the command line's alike, so a job queued
// anywhere carries the same retry limits; only a runtime that starts its queue runs them.
import type { ResolvedConfig } from "../config/schema.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Metrics } from "../core/metrics.js";
import type { SecretBox } from "../core/secret-box.js";
import type { Net } from "../net/outbound.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import type { Repositories } from "../db/repos/index.js";
import type { AnyJobSpec, Jobs } from "../jobs/job.js";
import type { AudioStore } from "../storage/audio-store.js";
import type { Services } from "../services/index.js";
import type { NoteLifecycle } from "../services/note-lifecycle.js";
import { deleteRecordingJob, sweepJob } from "../jobs/housekeeping.js";
import { sendMailJob } from "../mail/send.js";
import { deliverWebhookJob } from "../webhooks/delivery.js";
import { processNoteJob } from "../pipeline/process-note.js";
import { liveTranscriptionJob } from "../pipeline/live-transcription.js";
import { recordingWatchdogJob } from "../pipeline/recording-watchdog.js";
import { engineWatchJob } from "../pipeline/engine-watch.js";
import { indexPassagesJob } from "../pipeline/index-passages.js";
import { buildVectorIndexJob } from "../pipeline/vector-index.js";
import { calendarSyncJob } from "../pipeline/calendar-sync.js";
import { calendarResyncJob } from "../pipeline/calendar-resync.js";
import { noteReadyJob } from "../pipeline/note-ready.js";
import { readAheadJob } from "../pipeline/read-ahead.js";
import type { FinalWindows } from "../pipeline/final-pass.js";

/** What the runtime gives every job's worker; each takes the parts it names. */
export interface JobParts {
  config: ResolvedConfig;
  repos: Repositories;
  store: AudioStore;
  services: Services;
  lifecycle: NoteLifecycle;
  jobs: Jobs;
  secrets: SecretBox;
  embedder: Embedder | null;
  net: Net;
  metrics: Metrics;
  logger: Logger;
  now: Clock;
  /** A live recording's final window under way, shared by live transcription and the pipeline. */
  finalWindows: FinalWindows;
}

export const JOBS: readonly AnyJobSpec<JobParts>[] = [
  processNoteJob,
  liveTranscriptionJob,
  recordingWatchdogJob,
  engineWatchJob,
  indexPassagesJob,
  buildVectorIndexJob,
  noteReadyJob,
  readAheadJob,
  sendMailJob,
  deliverWebhookJob,
  calendarSyncJob,
  calendarResyncJob,
  deleteRecordingJob,
  sweepJob,
];

/** The kinds a runtime switches off: without an embedder, nothing is indexed by meaning. */
export const jobsOff = (embedder: Embedder | null): ReadonlySet<string> =>
  new Set(embedder ? [] : [indexPassagesJob.kind]);
