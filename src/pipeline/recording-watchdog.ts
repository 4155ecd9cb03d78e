// The server's side of a recording nobody stops: a job per live recording that looks
// at it again before its deadline, stopping it once no piece has come for the quiet
// period (a closed tab, a killed recorder) or at the 4-hour limit, with what arrived.
import { z } from "zod";
import { defineJob, renamedField, type Jobs } from "../jobs/job.js";
import type { Services } from "../services/index.js";

declare module "../jobs/job.js" {
  interface JobPayloads {
    "recording-watchdog": { recordingId: string };
  }
}

export const recordingWatchdogJob = defineJob({
  kind: "recording-watchdog",
  // Queued as { uploadId } before recordings had a name of their own.
  payload: renamedField(z.object({ recordingId: z.string() }), "uploadId", "recordingId"),
  // The next look has the same key: a waiting one absorbs it.
  key: (p) => `recording:${p.recordingId}`,
  coalesce: "queued",
  worker: (d: { services: Pick<Services, "recordings">; jobs: Jobs }) => ({
    concurrency: 2,
    leaseMs: 60_000,
    timeoutMs: 5 * 60_000,
    maxAttempts: 5,
    backoffMs: (attempt) => 5_000 * attempt,
    async handle({ recordingId }) {
      const again = await d.services.recordings.check(recordingId);
      if (again !== null) await d.jobs.enqueue("recording-watchdog", { recordingId }, { delayMs: again });
    },
  }),
});
