// The periodic sync of each connected calendar: one job per calendar (by its key),
// queued again after each run while the calendar exists. A sync's error is kept on the
// calendar for its owner to see; the job itself only fails on what is ours to retry.
import { z } from "zod";
import type { WorkerDefinition } from "../jobs/queue.js";
import type { CalendarService } from "../services/calendars.js";

export const CALENDAR_SYNC = "calendar-sync";

const payload = z.object({ calendarId: z.string() });

export function calendarSyncWorker(d: {
  calendars: Pick<CalendarService, "syncById">;
  schedule: (calendarId: string, delayMs: number) => Promise<unknown>;
  /** calendars.syncEverySec, in ms. */
  everyMs: number;
}): WorkerDefinition<z.infer<typeof payload>> {
  return {
    kind: CALENDAR_SYNC,
    payload,
    concurrency: 2,
    leaseMs: 3 * 60_000,
    timeoutMs: 2 * 60_000,
    maxAttempts: 3,
    backoffMs: (attempt) => 30_000 * attempt,
    async handle({ calendarId }) {
      if (await d.calendars.syncById(calendarId)) await d.schedule(calendarId, d.everyMs);
    },
  };
}
