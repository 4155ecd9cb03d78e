// Stopping the job queue while a claim is on its way to the database: the claim
// finishes before stop() returns (so the database can close after it), and a job it
// took is handed back untouched instead of being started by a stopping server.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createLogger } from "../../src/core/logger.js";
import { openDatabase } from "../../src/db/open.js";
import { createRepositories } from "../../src/db/repos/index.js";
import { createJobQueue } from "../../src/jobs/queue.js";
import { tempDir } from "../helpers/server.js";

describe("the job queue stopping during a claim", () => {
  it("waits for the claim, hands the job back and logs no error", async () => {
    const file = `${tempDir()}/q.db`;
    const opened = openDatabase(file);
    const repos = createRepositories(opened.db);
    const lines: { level: number; msg: string }[] = [];
    const logger = createLogger({
      level: "info",
      destination: new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    });
    // The real claim, held at the gate until the queue has been told to stop.
    let claimStarted!: () => void;
    const claiming = new Promise<void>((r) => (claimStarted = r));
    let openGate!: () => void;
    const gate = new Promise<void>((r) => (openGate = r));
    const jobs = {
      ...repos.jobs,
      async claim(...args: Parameters<typeof repos.jobs.claim>) {
        claimStarted();
        await gate;
        return repos.jobs.claim(...args);
      },
    };
    const queue = createJobQueue({ ...repos, jobs }, { now: Date.now, logger });
    let handled = 0;
    queue.define({
      kind: "work",
      payload: z.object({}),
      concurrency: 1,
      leaseMs: 60_000,
      timeoutMs: 60_000,
      maxAttempts: 3,
      backoffMs: () => 1000,
      async handle() {
        handled++;
      },
    });
    const id = await queue.enqueue("work", {});
    queue.start();
    await claiming;

    let stopped = false;
    const stopping = queue.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    openGate();
    await stopping;
    opened.close();

    expect(handled).toBe(0);
    const reopened = openDatabase(file);
    expect(await createRepositories(reopened.db).jobs.get(id)).toMatchObject({
      status: "queued",
      attempts: 0,
    });
    reopened.close();
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
