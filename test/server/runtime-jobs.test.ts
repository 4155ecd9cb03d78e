// Every runtime registers every kind of job (src/runtime/jobs.ts), so a job queued by
// the command line (an admin command, `notula mcp` on a data dir) carries the retry
// limits the configuration gives, as one queued by the server does.
import { afterEach, describe, expect, it } from "vitest";
import { openRuntime, type Runtime } from "../../src/runtime/index.js";
import { runtimeConfig, tempDir } from "../helpers/server.js";

let rt: Runtime | undefined;
afterEach(async () => {
  await rt?.close();
  rt = undefined;
});

describe("the runtime's jobs", () => {
  it("a runtime that never starts its queue still queues with the configured attempts", async () => {
    rt = await openRuntime(
      await runtimeConfig(tempDir(), { env: { NOTULA_PIPELINE_MAX_ATTEMPTS: "7", NOTULA_EMBEDDINGS: "none" } }),
    );
    await rt.enqueue.processNote("note_cli");
    await rt.enqueue.deleteRecording("upl_cli", "audio/upl_cli.webm");
    const rows = rt.database
      .sqlite!.prepare("SELECT kind, max_attempts AS maxAttempts FROM jobs ORDER BY id")
      .all() as { kind: string; maxAttempts: number }[];
    expect(rows).toEqual([
      { kind: "process-note", maxAttempts: 7 },
      // A kind the configuration says nothing of keeps its own module's attempts, not the queue's fallback.
      { kind: "delete-recording", maxAttempts: expect.any(Number) },
    ]);
    expect(rows[1].maxAttempts).not.toBe(5);
  });

  it("the clock given at the top is the one below it", async () => {
    const t = Date.UTC(2031, 0, 2, 3, 4, 5);
    rt = await openRuntime(await runtimeConfig(tempDir()), { clock: () => t });
    const created = await rt.services.workspaces.create({ name: "Clocked" });
    expect(created.workspace.createdAt).toBe(new Date(t).toISOString());
    expect(rt.now()).toBe(t);
  });
});
