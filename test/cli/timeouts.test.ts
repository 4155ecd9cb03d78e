// Every request the CLI makes has a time limit (--timeout, NOTULA_TIMEOUT, 30 s by
// default), and --wait has its own (--wait-timeout, NOTULA_WAIT_TIMEOUT, an hour): a CI
// job against a server that accepts connections and never answers, or a note that
// never settles, fails with a message naming the limit and exit code 5, which a
// script can retry on. An address that is not a notula server is exit 6, not "not found".
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, tempDir } from "../helpers/server.js";

const KEY = `ntl_${"a".repeat(43)}`;
let silent: net.Server;
let stuck: http.Server;
const sockets = new Set<net.Socket>();
let silentUrl = "";
let stuckUrl = "";

beforeAll(async () => {
  // Accepts every connection and never says a word.
  silent = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
  });
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  // Answers at once, with a note that is never done.
  stuck = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ note: { id: "note_stuck", status: "summarizing", progress: null } }));
  });
  await new Promise<void>((r) => stuck.listen(0, "127.0.0.1", r));
  stuckUrl = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent?.close(r));
  await new Promise((r) => stuck?.close(r));
});

const env = () => ({ XDG_CONFIG_HOME: tempDir("notula-timeouts-"), NOTULA_API_KEY: KEY, NOTULA_URL: "", CI: "1" });

describe("time limits", () => {
  it("a server that accepts and never answers fails the command within --timeout, naming the limit", async () => {
    const r = await run(["notes", "list", "--server", silentUrl, "--timeout", "1"], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /did not answer GET \/v1\/notes within 1 s; raise the limit with --timeout or NOTULA_TIMEOUT/,
    );
    const fromEnv = await run(["me", "--server", silentUrl], { env: { ...env(), NOTULA_TIMEOUT: "0.5" } });
    expect(fromEnv.code).toBe(5);
    expect(fromEnv.stderr).toMatch(/within 0\.5 s/);
  });

  it("--wait gives up at --wait-timeout on a note that never settles, exit 5; --timeout is each request's alone", async () => {
    const r = await run(
      ["notes", "enhance", "note_stuck", "--wait", "--server", stuckUrl, "--timeout", "30", "--wait-timeout", "2"],
      { env: env() },
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /note_stuck is still summarizing after 2 s; follow it again with `notula notes wait note_stuck`, or wait longer with --wait-timeout/,
    );
    const fromEnv = await run(["notes", "enhance", "note_stuck", "--wait", "--server", stuckUrl], {
      env: { ...env(), NOTULA_WAIT_TIMEOUT: "1" },
    });
    expect(fromEnv.code).toBe(5);
    expect(fromEnv.stderr).toMatch(/after 1 s/);
  });

  it("an address that is not a notula server is exit 6, apart from a note that is not found (3)", async () => {
    const other = http.createServer((req, res) => {
      if (req.url?.startsWith("/v1/notes/note_gone")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "not_found", message: "Note note_gone not found." } }));
      } else if (req.url?.startsWith("/v1/notes")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "Not Found" }));
      } else res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>");
    });
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const html = await run(["me", "--server", url], { env: env() });
      expect(html.code).toBe(6);
      expect(html.stderr).toMatch(/it is not a notula server; check --server/);
      const json = await run(["notes", "list", "--server", url], { env: env() });
      expect(json.code).toBe(6);
      expect(json.stderr).toMatch(/without notula's error: it is not a notula server/);
      const gone = await run(["notes", "get", "note_gone", "--server", url], { env: env() });
      expect(gone.code).toBe(3);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it("a limit that is not a number of seconds is a usage error naming where it came from", async () => {
    for (const bad of ["abc", "0", "-5", "1e3"]) {
      const r = await run(["notes", "list", "--server", silentUrl, "--timeout", bad], { env: env() });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--timeout: seconds, more than 0/);
    }
    const r = await run(["notes", "list", "--server", silentUrl], { env: { ...env(), NOTULA_TIMEOUT: "soon" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/NOTULA_TIMEOUT: seconds/);
    const wait = await run(["notes", "list", "--server", silentUrl, "--wait-timeout", "0"], { env: env() });
    expect(wait.code).toBe(2);
    expect(wait.stderr).toMatch(/--wait-timeout: seconds, more than 0/);
  });
});
