// kill -9 of the server while a note's job runs, then a restart on the same data, with
// the clock held at the moment of the kill: the dead process's lease has a minute to
// run. The single-box server (it holds the data dir's lock) knows that no worker holds
// it and runs the job at once. A worker beside others (split roles) may not know that:
// it waits for the lease to run out (the clock moved on), then takes the job.
import { afterAll, describe, expect, it } from "vitest";
import { speakRepeated } from "../helpers/audio.js";
import { uploadRecording, FINAL } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import {
  startServer,
  startServerProcess,
  storeQuery,
  tempDir,
  type InProcessTestServer,
  type ProcessTestServer,
} from "../helpers/server.js";
import { until } from "../helpers/until.js";

const ARGS = ["--no-rate-limit", "--stt-engine", "sphinx"];
let dead: ProcessTestServer | undefined;
let restarted: InProcessTestServer | undefined;
afterAll(async () => {
  await restarted?.stop();
  await dead?.stop();
});

type JobRow = { id: number; status: string; attempts: number; lease_until: number | null };
const jobOf = async (dataDir: string) =>
  (
    await storeQuery<JobRow>(
      dataDir,
      "SELECT id, status, attempts, lease_until FROM jobs WHERE kind = 'process-note' ORDER BY id DESC LIMIT 1",
    )
  )[0];

describe("a restart after kill -9", () => {
  for (const role of ["all", "worker"] as const)
    it(
      role === "all"
        ? "of the single-box server runs the dead process's job at once, its lease unexpired"
        : "of a worker keeps the dead process's lease, and takes its job once the lease has run out",
      async () => {
        dead = await startServerProcess({ args: ARGS });
        const api = client(dead.url, dead.key);
        const noteId = await uploadRecording(
          api,
          // Long enough that its transcription is still under way when the process is killed.
          speakRepeated(tempDir("notula-crash-"), "We agreed to launch in March. David sends the cost report.", 4),
          "wav",
        );
        const running = await until(
          "the note's job running",
          async () => {
            const job = await jobOf(dead!.dataDir);
            return job?.status === "running" && job;
          },
          60_000,
          5,
        );
        await dead.kill9();
        // Killed while it ran (the read above and the kill are apart by a few milliseconds).
        expect(await jobOf(dead.dataDir)).toMatchObject({ id: running.id, status: "running" });
        const leaseEnds = Number(running.lease_until);
        // The clock as the dead process last read it, a second after its claim.
        let clock = leaseEnds - 60_000 + 1_000;
        restarted = await startServer({
          dataDir: dead.dataDir,
          args: [...ARGS, ...(role === "worker" ? ["--role", "worker"] : [])],
          clock: () => clock,
        });
        // A worker answers no API: the note is read from the store.
        const settled = async () =>
          FINAL.includes(
            (await storeQuery<{ status: string }>(dead!.dataDir, "SELECT status FROM notes WHERE id = ?", noteId))[0]
              .status,
          );

        if (role === "all") {
          // Released at start, before the server listened: taken again on a clock the lease outlasts.
          await until("the note settled", settled, 120_000, 100);
          expect(clock).toBeLessThan(leaseEnds);
          const job = await jobOf(restarted.dataDir);
          expect(job).toMatchObject({ id: running.id, status: "succeeded", attempts: 2 });
          await restarted.stop();
          return;
        }
        // Started: the job is still the dead process's, as a live replica's would be.
        expect(await jobOf(restarted.dataDir)).toMatchObject({ id: running.id, status: "running", attempts: 1 });
        expect(await settled()).toBe(false);
        // The lease runs out: the queue (polling each second) takes it.
        clock = leaseEnds + 1;
        await until("the note settled", settled, 120_000, 100);
        expect(await jobOf(restarted.dataDir)).toMatchObject({ id: running.id, status: "succeeded", attempts: 2 });
        await restarted.stop();
      },
    );
});
