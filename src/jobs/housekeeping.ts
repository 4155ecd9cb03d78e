// Housekeeping as jobs, so that it survives restarts and runs once however many
// workers there are: removing a deleted note's recording (retried until the store
// lets go of it), and a periodic sweep of what has expired or been orphaned.
import { z } from "zod";
import type { Repositories } from "../db/repos/index.js";
import type { AudioStore } from "../storage/audio-store.js";
import { pieceKey } from "../storage/audio-key.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { ResolvedConfig } from "../config/schema.js";
import { defineJob, renamedField } from "./job.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** An upload URL never used (or cut off) is forgotten an hour after it expired. */
const PENDING_GRACE_MS = HOUR;
/** A recording sent but never made into a note is removed a day after its URL expired. */
const UNUSED_GRACE_MS = DAY;
/** A file with no upload behind it is left alone this long (it may be mid-rename). */
const ORPHAN_MIN_AGE_MS = HOUR;
const FINISHED_JOBS_KEPT_MS = 7 * DAY;
const WEBHOOK_EVENTS_KEPT_MS = 30 * DAY;
/** OAuth clients that never got a token, after a day. */
const UNUSED_CLIENT_KEPT_MS = DAY;

/** A deleted note's audio, of either kind (queued as { uploadId } before they had names of their own). */
const recordingPayload = renamedField(z.object({ audioId: z.string(), key: z.string() }), "uploadId", "audioId");
const sweepPayload = z.object({}).strict();

declare module "./job.js" {
  interface JobPayloads {
    "delete-recording": z.infer<typeof recordingPayload>;
    sweep: z.infer<typeof sweepPayload>;
  }
}

/** Deletes a deleted note's recording (and a live recording's pieces), then its upload record; retried with backoff while the store refuses. */
export const deleteRecordingJob = defineJob({
  kind: "delete-recording",
  payload: recordingPayload,
  key: (p) => `delete-recording:${p.audioId}`,
  worker: ({ repos, store }: { repos: Repositories; store: AudioStore }) => ({
    concurrency: 2,
    leaseMs: 60_000,
    timeoutMs: 5 * 60_000,
    maxAttempts: 10,
    backoffMs: (attempt) => Math.min(HOUR, 1000 * 5 ** (attempt - 1)),
    async handle({ audioId, key }) {
      await store.delete(key);
      // The id names an upload or a recording; a note deleted while it was being recorded leaves pieces too.
      const recording = await repos.recordings.get(audioId);
      if (recording) {
        for (const piece of await repos.recordingPieces.list(audioId))
          await store.delete(pieceKey(recording, piece.seq));
        await repos.recordings.delete(audioId);
      } else await repos.maintenance.deleteUpload(audioId, "used");
    },
  }),
});

/** The uploads' id from a store key (workspace/upl_….ext). */
const uploadIdOf = (key: string) => /\/([^/]+)\.[a-z0-9]+$/.exec(key)?.[1] ?? null;

export interface SweepDeps {
  repos: Repositories;
  store: AudioStore;
  now: Clock;
  logger: Logger;
}

export async function sweepOnce(d: SweepDeps): Promise<Record<string, number>> {
  const { repos, store, now } = d;
  const t = now();
  const removed: Record<string, number> = {
    sharedState: await repos.sharedState.sweep(t),
    ...(await repos.maintenance.deleteExpired(t)),
  };
  let uploads = 0;
  let recordings = 0;
  for (const u of await repos.maintenance.staleUploads(t, PENDING_GRACE_MS, UNUSED_GRACE_MS)) {
    // The file first: a row without its file is retried next time; a file without its row would be lost track of.
    if (u.status === "uploaded") {
      await store.delete(`${u.workspaceId}/${u.id}.${u.extension}`);
      recordings++;
    }
    if (await repos.maintenance.deleteUpload(u.id, u.status)) uploads++;
  }
  let orphans = 0;
  if (store.list) {
    let batch: { key: string; modifiedAt: number }[] = [];
    const flush = async () => {
      const known = await repos.maintenance.existingUploadIds(batch.map((f) => uploadIdOf(f.key)!).filter(Boolean));
      for (const f of batch) {
        const id = uploadIdOf(f.key);
        if (id && !known.has(id)) {
          await store.delete(f.key);
          orphans++;
        }
      }
      batch = [];
    };
    for await (const f of store.list()) {
      if (t - f.modifiedAt < ORPHAN_MIN_AGE_MS) continue;
      batch.push(f);
      if (batch.length >= 500) await flush();
    }
    await flush();
  }
  removed.staleUploads = uploads;
  removed.unusedRecordings = recordings;
  removed.orphanFiles = orphans;
  removed.finishedJobs = await repos.maintenance.deleteFinishedJobs(t - FINISHED_JOBS_KEPT_MS);
  removed.webhookEvents = await repos.maintenance.deleteOldEvents(t - WEBHOOK_EVENTS_KEPT_MS);
  removed.oauthClients = await repos.maintenance.deleteUnusedClients(t - UNUSED_CLIENT_KEPT_MS);
  return removed;
}

type SweepParts = SweepDeps & { config: Pick<ResolvedConfig, "sweepIntervalMs"> };

/** The periodic sweep: one at a time across all workers. */
export const sweepJob = defineJob({
  kind: "sweep",
  payload: sweepPayload,
  // The first sweep soon after start, then one every interval.
  every: (d: SweepParts) => ({
    firstInMs: Math.min(d.config.sweepIntervalMs, 60_000),
    everyMs: d.config.sweepIntervalMs,
  }),
  worker: (parts: SweepParts) => {
    const d = { ...parts, logger: parts.logger.child({ component: "sweep" }) };
    return {
      concurrency: 1,
      leaseMs: 5 * 60_000,
      timeoutMs: 30 * 60_000,
      maxAttempts: 3,
      backoffMs: () => 60_000,
      async handle() {
        const removed = await sweepOnce(d);
        const total = Object.values(removed).reduce((s, n) => s + n, 0);
        if (total) d.logger.info({ removed }, "sweep removed expired and orphaned data");
      },
    };
  },
});
