// The server's side of a recording nobody stops: a job per live recording that looks
// at it again before its deadline, stopping it once no piece has come for the quiet
// period (a closed tab, a killed recorder) or at the 4-hour limit, with what arrived.
import { z } from "zod";
import type { WorkerDefinition } from "../jobs/queue.js";
import type { RecordingService } from "../services/recordings.js";

export const RECORDING_WATCHDOG = "recording-watchdog";

const payload = z.object({ uploadId: z.string() });

export function recordingWatchdogWorker(d: {
  recordings: Pick<RecordingService, "check">;
  /** Queues the next look (the same key: a waiting one absorbs it). */
  watch: (uploadId: string, delayMs: number) => Promise<unknown>;
}): WorkerDefinition<z.infer<typeof payload>> {
  return {
    kind: RECORDING_WATCHDOG,
    payload,
    concurrency: 2,
    leaseMs: 60_000,
    timeoutMs: 5 * 60_000,
    maxAttempts: 5,
    backoffMs: (attempt) => 5_000 * attempt,
    async handle({ uploadId }) {
      const again = await d.recordings.check(uploadId);
      if (again !== null) await d.watch(uploadId, again);
    },
  };
}
