// The periodic look at a workspace whose recordings wait for a speech-to-text engine:
// one job per workspace (by its key), queued again while any recording still waits.
import { z } from "zod";
import type { WorkerDefinition } from "../jobs/queue.js";
import { ENGINE_WATCH_MS, type EngineWait } from "../services/engine-wait.js";

export const ENGINE_WATCH = "engine-watch";

const payload = z.object({ workspaceId: z.string() });

export function engineWatchWorker(d: {
  engineWait: Pick<EngineWait, "resume">;
  watch: (workspaceId: string, delayMs: number) => Promise<unknown>;
}): WorkerDefinition<z.infer<typeof payload>> {
  return {
    kind: ENGINE_WATCH,
    payload,
    concurrency: 1,
    leaseMs: 60_000,
    timeoutMs: 5 * 60_000,
    maxAttempts: 5,
    backoffMs: (attempt) => 10_000 * attempt,
    async handle({ workspaceId }) {
      if (await d.engineWait.resume(workspaceId)) await d.watch(workspaceId, ENGINE_WATCH_MS);
    },
  };
}
