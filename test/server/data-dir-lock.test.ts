// One single-box server per data directory: a second `notula serve` on the same
// directory exits at once naming the first; one that crashed leaves a lock the next
// start takes over; split roles (API and worker replicas) are not held back.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run, startServer, startServerProcess, tempDir, type ProcessTestServer } from "../helpers/server.js";

const started: ProcessTestServer[] = [];
afterAll(async () => {
  for (const s of started) await s.kill9();
});

describe("the data directory lock", () => {
  it("refuses a second server on the same data dir, naming the first; a crashed one's lock is taken over", async () => {
    const first = await startServerProcess({ args: ["--no-rate-limit"] });
    started.push(first);
    const lock = JSON.parse(fs.readFileSync(path.join(first.dataDir, "notula.lock"), "utf8"));
    expect(lock).toMatchObject({ pid: first.proc.pid, url: first.url });

    const second = await run(["serve", "--port", "0", "--data-dir", first.dataDir]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`Another notula server (pid ${first.proc.pid}`);
    expect(second.stderr).toContain(`listening on ${first.url}`);
    // The first is untouched.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    // kill -9 leaves the lock behind; its holder is gone, so a new start takes it.
    await first.kill9();
    expect(fs.existsSync(path.join(first.dataDir, "notula.lock"))).toBe(true);
    await first.restart();
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(first.dataDir, "notula.lock"), "utf8")).pid).toBe(first.proc.pid);

    // A clean stop removes it.
    await first.stop();
    expect(fs.existsSync(path.join(first.dataDir, "notula.lock")), first.output().slice(-3000)).toBe(false);
  }, 60_000);

  it("holds in one process too, and is released when the server stops", async () => {
    const dir = tempDir();
    const a = await startServer({ dataDir: dir, args: ["--no-rate-limit"] });
    await expect(startServer({ dataDir: dir, args: ["--no-rate-limit"] })).rejects.toThrow(/Another notula server/);
    await a.stop();
    const b = await startServer({ dataDir: dir, args: ["--no-rate-limit"] });
    await b.stop();
  });

  it("does not hold back split roles", async () => {
    const dir = tempDir();
    const api = await startServer({ dataDir: dir, args: ["--no-rate-limit", "--role", "api"] });
    const worker = await startServer({ dataDir: dir, args: ["--no-rate-limit", "--role", "worker"] });
    expect(fs.existsSync(path.join(dir, "notula.lock"))).toBe(false);
    await worker.stop();
    await api.stop();
  });
});
