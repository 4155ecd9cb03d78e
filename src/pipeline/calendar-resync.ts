// A calendar whose sync chain broke (its job's attempts used up by a fault of ours, a
// job row lost in a restore) would never be read again. Once an hour every calendar is
// given a sync: one already waiting absorbs it (calendar-sync's key), so only the
// calendars with none get one.
import { z } from "zod";
import type { Repositories } from "../db/repos/index.js";
import { defineJob, type Jobs } from "../jobs/job.js";

const HOUR = 3_600_000;
const payload = z.object({}).strict();

declare module "../jobs/job.js" {
  interface JobPayloads {
    "calendar-resync": z.infer<typeof payload>;
  }
}

export const calendarResyncJob = defineJob({
  kind: "calendar-resync",
  payload,
  every: () => ({ firstInMs: HOUR, everyMs: HOUR }),
  worker: (d: { repos: Repositories; jobs: Jobs }) => ({
    concurrency: 1,
    leaseMs: 5 * 60_000,
    timeoutMs: 10 * 60_000,
    maxAttempts: 3,
    backoffMs: () => 60_000,
    async handle() {
      for (const calendarId of await d.repos.calendars.allIds()) await d.jobs.enqueue("calendar-sync", { calendarId });
    },
  }),
});
