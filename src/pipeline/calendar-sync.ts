// The periodic sync of each connected calendar: one job per calendar (by its key),
// queued again after each run while the calendar exists. A sync's error is kept on the
// calendar for its owner to see; the job itself only fails on what is ours to retry.
import { z } from "zod";
import type { ResolvedConfig } from "../config/schema.js";
import { defineJob, type Jobs } from "../jobs/job.js";
import type { Services } from "../services/index.js";

declare module "../jobs/job.js" {
  interface JobPayloads {
    "calendar-sync": { calendarId: string };
  }
}

export const calendarSyncJob = defineJob({
  kind: "calendar-sync",
  payload: z.object({ calendarId: z.string() }),
  // One waits per calendar at a time.
  key: (p) => `calendar:${p.calendarId}`,
  coalesce: "queued",
  worker: (d: { services: Pick<Services, "calendars">; jobs: Jobs; config: Pick<ResolvedConfig, "calendars"> }) => ({
    concurrency: 2,
    leaseMs: 3 * 60_000,
    timeoutMs: 2 * 60_000,
    maxAttempts: 3,
    backoffMs: (attempt) => 30_000 * attempt,
    async handle({ calendarId }) {
      if (await d.services.calendars.syncById(calendarId))
        await d.jobs.enqueue("calendar-sync", { calendarId }, { delayMs: d.config.calendars.syncEverySec * 1000 });
    },
  }),
});
