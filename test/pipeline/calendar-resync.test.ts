// A calendar whose sync job is gone is read again: the hourly resync gives every
// calendar a sync, and one already waiting absorbs it (no calendar gets two). The resync
// is periodic: queued at start and after each run, one waiting at a time.
import { afterEach, describe, expect, it } from "vitest";
import { openRuntime, type Runtime } from "../../src/runtime/index.js";
import { calendarResyncJob } from "../../src/pipeline/calendar-resync.js";
import type { JobContext, WorkerDefinition } from "../../src/jobs/queue.js";
import { defineWorkers, startJobs } from "../../src/jobs/job.js";
import { runtimeConfig, tempDir } from "../helpers/server.js";

let rt: Runtime | undefined;
afterEach(async () => {
  await rt?.close();
  rt = undefined;
});

describe("the calendar resync", () => {
  it("queues a sync for each calendar that has none waiting, and its own next run", async () => {
    rt = await openRuntime(await runtimeConfig(tempDir()));
    const { workspace, user } = await rt.services.workspaces.create({ name: "Cal", adminEmail: "c@example.com" });
    for (const id of ["cal_lost", "cal_waiting"])
      await rt.repos.calendars.insert({
        id,
        workspaceId: workspace.id,
        userId: user.id,
        kind: "ics",
        urlEnc: rt.secrets.seal("https://calendar.example.invalid/x.ics"),
        label: "calendar.example.invalid",
        usernameEnc: null,
        passwordEnc: null,
        name: id,
        syncState: null,
        lastSyncAt: null,
        lastError: null,
        eventCount: 0,
        createdAt: rt.now(),
      });
    await rt.jobs.enqueue("calendar-sync", { calendarId: "cal_waiting" }, { delayMs: 300_000 });
    const waiting = () =>
      rt!.database.sqlite!.prepare("SELECT kind, payload FROM jobs WHERE status = 'queued' ORDER BY id").all() as {
        kind: string;
        payload: string;
      }[];
    // As the runtime defines it: a periodic job queues its next run after each.
    const defined: WorkerDefinition<Record<string, never>>[] = [];
    const deps = { repos: rt.repos, jobs: rt.jobs };
    defineWorkers({ define: (w) => void defined.push(w as never) }, rt.jobs, [calendarResyncJob], deps);
    // Started twice (two replicas, a restart): one run waits.
    for (let i = 0; i < 2; i++) await startJobs(rt.jobs, [calendarResyncJob], deps);
    for (let i = 0; i < 2; i++) await defined[0].handle({}, {} as JobContext);
    const rows = waiting().map((r) => `${r.kind} ${r.payload}`);
    expect(rows.filter((r) => r.startsWith("calendar-sync")).sort()).toEqual([
      'calendar-sync {"calendarId":"cal_lost"}',
      'calendar-sync {"calendarId":"cal_waiting"}',
    ]);
    expect(rows.filter((r) => r.startsWith("calendar-resync"))).toHaveLength(1);
  });
});
