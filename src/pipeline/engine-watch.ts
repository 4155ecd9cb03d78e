// The periodic look at a workspace whose recordings wait for a speech-to-text engine:
// one job per workspace (by its key), queued again while any recording still waits.
import { z } from "zod";
import { defineJob, type Jobs } from "../jobs/job.js";
import { ENGINE_WATCH_MS } from "../services/engine-wait.js";
import type { Services } from "../services/index.js";

declare module "../jobs/job.js" {
  interface JobPayloads {
    "engine-watch": { workspaceId: string };
  }
}

export const engineWatchJob = defineJob({
  kind: "engine-watch",
  payload: z.object({ workspaceId: z.string() }),
  key: (p) => `engine-watch:${p.workspaceId}`,
  coalesce: "queued",
  worker: (d: { services: Pick<Services, "engineWait">; jobs: Jobs }) => ({
    concurrency: 1,
    leaseMs: 60_000,
    timeoutMs: 5 * 60_000,
    maxAttempts: 5,
    backoffMs: (attempt) => 10_000 * attempt,
    async handle({ workspaceId }) {
      if (await d.services.engineWait.resume(workspaceId))
        await d.jobs.enqueue("engine-watch", { workspaceId }, { delayMs: ENGINE_WATCH_MS });
    },
  }),
});
