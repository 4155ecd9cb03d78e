// The CLI in scripts that run for hours, through the built binary against a real server:
// a storm of 429s during an export ends with every file written; past the back-off's
// budget a command exits 5 (worth a retry); an export run again goes on where it
// stopped; an upload sent again makes one note; a --wait that runs out still prints the
// note, and `notes wait` takes it up; the CI loop of docs/command-line.md, run as written.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { convert, speak } from "../helpers/audio.js";
import { client, type Client } from "../helpers/http.js";
import { refusingProxy, type RefusingProxy } from "../helpers/refusing-proxy.js";
import { BIN, ROOT, cliEnv, run, startServer, tempDir, type TestServer } from "../helpers/server.js";

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let api: Client;
const work = tempDir("notula-scripts-");
const proxies: RefusingProxy[] = [];
beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
});
afterAll(async () => {
  for (const p of proxies) await p.close();
  await server?.stop();
});

/** The CLI's environment pointed at `proxy` rather than at the server itself. */
const through = (proxy: RefusingProxy) => ({ ...cliEnv(server), NOTULA_URL: proxy.url });
const proxy = async (refuse: Parameters<typeof refusingProxy>[1]) => {
  const p = await refusingProxy(server.url, refuse);
  proxies.push(p);
  return p;
};
const titled = async (title: string) =>
  (await api("GET", `/v1/notes?search=${encodeURIComponent(title)}&limit=100`)).body.items.filter(
    (n: { title: string }) => n.title === title,
  );

describe("backing off", () => {
  it("a storm of 429s during an export ends with every file written, each said as it is", async () => {
    for (let i = 0; i < 8; i++) await api("POST", "/v1/notes", { title: `Stormy ${i}`, userWrittenNote: `Note ${i}.` });
    // Every third request refused, twice running now and then: what a busy limit looks like.
    const storm = await proxy((n) => (n % 3 === 1 || n % 7 === 2 ? { status: 429, retryAfter: "1" } : null));
    const out = path.join(work, "stormy");
    const r = await run(["notes", "export", "--search", "Stormy", "--out", out], { env: through(storm) });
    expect(r.code, r.stderr).toBe(0);
    expect(storm.refused).toBeGreaterThan(3);
    expect(fs.readdirSync(out)).toHaveLength(8);
    expect(r.stdout.trim().split("\n")).toHaveLength(8);
    expect(r.stderr).toMatch(/rate limited; retrying in 1\.\d s/);
    // Under -q the retries say nothing; the files are the same.
    const quiet = await run(["notes", "export", "--search", "Stormy", "--out", path.join(work, "q"), "-q"], {
      env: through(storm),
    });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe("");
    // A 503 (a busy server) is waited out the same way.
    const busy = await proxy((n) => (n === 0 ? { status: 503, retryAfter: "1" } : null));
    expect((await run(["notes", "list", "--json"], { env: through(busy) })).code).toBe(0);
  });

  it("past its budget a command gives up at once with exit 5, the server's reason on stderr", async () => {
    const shut = await proxy(() => ({ status: 429, retryAfter: "3600" }));
    const r = await run(["notes", "list"], { env: through(shut) });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/rate_limit_exceeded: Refused for now; retry in 3600 s\./);
    expect(shut.seen).toBe(1);
  });

  it("an export stopped by the limit goes on where it stopped when run again", async () => {
    for (let i = 0; i < 6; i++) await api("POST", "/v1/notes", { title: `Resumed ${i}`, userWrittenNote: `${i}` });
    const out = path.join(work, "resumed");
    // The list and three notes pass; then the limit shuts for an hour.
    let notes = 0;
    const shuts = await proxy((_, req) =>
      req.url?.startsWith("/v1/notes/") && ++notes > 3 ? { status: 429, retryAfter: "3600" } : null,
    );
    const stopped = await run(["notes", "export", "--search", "Resumed", "--out", out], { env: through(shuts) });
    expect(stopped.code).toBe(5);
    expect(stopped.stdout.trim().split("\n")).toHaveLength(3);
    expect(fs.readdirSync(out)).toHaveLength(3);
    const again = await run(["notes", "export", "--search", "Resumed", "--out", out], { env: cliEnv(server) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim().split("\n")).toHaveLength(3);
    expect(again.stderr).toMatch(/Exported 6 notes to .* \(3 unchanged since they were written, kept\)\./);
    expect(fs.readdirSync(out)).toHaveLength(6);
  });
});

describe("never losing an id, never making a note twice", () => {
  let recording: string;
  beforeAll(() => {
    recording = path.join(work, "standup.m4a");
    fs.copyFileSync(
      convert(speak(work, "Good morning. The launch moves to the second week of March."), "m4a"),
      recording,
    );
  });

  it("the same upload sent again answers the note it made", async () => {
    const env = cliEnv(server);
    const first = await run(["upload", recording, "--title", "Sent twice"], { env });
    expect(first.code, first.stderr).toBe(0);
    const again = await run(["upload", recording, "--title", "Sent twice"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(await titled("Sent twice")).toHaveLength(1);
    // Another title is another note; so is a key of the caller's own.
    await run(["upload", recording, "--title", "Sent twice, renamed"], { env });
    await run(["upload", recording, "--title", "Sent twice", "--idempotency-key", "take-2"], { env });
    expect(await titled("Sent twice")).toHaveLength(2);
  });

  it("a --wait that runs out prints the note with its status; notes wait takes it up", async () => {
    // A server that answers but processes nothing: the note stays queued.
    const idle = await startServer({ args: ["--no-rate-limit", "--role", "api"] });
    try {
      const env = cliEnv(idle);
      const r = await run(["upload", recording, "--title", "Never done", "--wait", "--wait-timeout", "1", "--json"], {
        env,
      });
      expect(r.code, r.stderr).toBe(5);
      const note = JSON.parse(r.stdout);
      expect(note.id).toMatch(/^not/);
      expect(note.status).toBe("postprocessing");
      expect(r.stderr).toContain(`notula notes wait ${note.id}`);
      const waited = await run(["notes", "wait", note.id, "--wait-timeout", "1", "--json"], { env });
      expect(waited.code).toBe(5);
      expect(JSON.parse(waited.stdout)).toMatchObject({ id: note.id, status: "postprocessing" });
      // Without --json, the id alone, so that a script still has it.
      const plain = await run(["notes", "wait", note.id, "--wait-timeout", "1"], { env });
      expect(plain.code).toBe(5);
    } finally {
      await idle.stop();
    }
    // A note that settles: wait prints its id and exits 0.
    const text = (await api("POST", "/v1/notes", { title: "Settled already" })).body.note.id;
    const done = await run(["notes", "wait", text], { env: cliEnv(server) });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe(`${text}\n`);
  });

  it("the CI loop of docs/command-line.md, as written, makes one note through a refusal and a lost wait", async () => {
    const doc = fs.readFileSync(path.join(ROOT, "docs", "command-line.md"), "utf8");
    const loop = /So a CI job[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)![1];
    const dir = tempDir("notula-ci-loop-");
    fs.copyFileSync(recording, path.join(dir, "meeting.m4a"));
    // The first attempt makes the note, then loses its wait to a limit shut for an hour.
    let polls = 0;
    const flaky = await proxy((_, req) =>
      req.method === "GET" && req.url?.startsWith("/v1/notes/") && ++polls === 1
        ? { status: 429, retryAfter: "3600" }
        : null,
    );
    const script = `npx() { shift; node '${BIN}' "$@"; }\nsleep() { :; }\n${loop}`;
    const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile("bash", ["-c", script], { cwd: dir, env: { ...process.env, ...through(flaky) } }, (err, _o, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    expect(result.code, result.stderr).toBe(0);
    const note = JSON.parse(fs.readFileSync(path.join(dir, "note.json"), "utf8"));
    expect(note.status).toBe("completed");
    expect(note.transcripts.map((s: { text: string }) => s.text).join(" ")).toMatch(/launch/i);
    expect(await titled("Weekly sync")).toHaveLength(1);
  });
});
