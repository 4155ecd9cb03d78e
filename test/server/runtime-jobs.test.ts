// Every runtime registers every kind of job (src/runtime/jobs.ts), so a job queued by
// the command line (an admin command, `notula mcp` on a data dir) carries the retry
// limits the configuration gives, as one queued by the server does.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openRuntime, type Runtime } from "../../src/runtime/index.js";
import { JOBS } from "../../src/runtime/jobs.js";
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
    await rt.jobs.enqueue("process-note", { noteId: "note_cli" });
    await rt.jobs.enqueue("delete-recording", { audioId: "upl_cli", key: "audio/upl_cli.webm" });
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

  it("declares each kind once, and queues only declared kinds, only through jobs.enqueue", () => {
    const kinds = JOBS.map((j) => j.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const queued = new Set<string>();
    const direct: string[] = [];
    for (const file of files("src").filter((f) => /\.tsx?$/.test(f))) {
      const text = fs.readFileSync(file, "utf8");
      for (const m of text.matchAll(/jobs\.enqueue\(\s*"([^"]+)"/g)) queued.add(m[1]);
      if (/queue\.enqueue\(/.test(text) && !file.endsWith(path.join("jobs", "job.ts"))) direct.push(file);
    }
    expect([...queued].filter((k) => !kinds.includes(k))).toEqual([]);
    expect(direct).toEqual([]);
  });

  it("reads a job queued before its payload's field was renamed", () => {
    const spec = (kind: string) => JOBS.find((j) => j.kind === kind)!;
    expect(spec("recording-watchdog").payload.parse({ uploadId: "rec_1" })).toEqual({ recordingId: "rec_1" });
    expect(spec("live-transcription").payload.parse({ uploadId: "rec_1" })).toEqual({ recordingId: "rec_1" });
    expect(spec("delete-recording").payload.parse({ uploadId: "upl_1", key: "k" })).toEqual({
      audioId: "upl_1",
      key: "k",
    });
    expect(spec("recording-watchdog").payload.parse({ recordingId: "rec_2" })).toEqual({ recordingId: "rec_2" });
  });
});
