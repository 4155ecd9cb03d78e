// Flags are checked before anything connects: a bad date, choice or limit is exit 2
// naming the flag (the same schema the server uses decides); a server address without
// a scheme is refused with the fix, or taken as http:// on loopback; a copied API base
// (".../v1") is the server's address.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { run, tempDir } from "../helpers/server.js";

// Many runs of the CLI, a process each: minutes on a busy machine, not the default 30 s.
vi.setConfig({ testTimeout: 180_000 });

const KEY = `ntl_${"a".repeat(43)}`;
/** Nothing listens there: a command that tried to connect would exit 1, not 2. */
const NOWHERE = "http://127.0.0.1:9";
const env = () => ({ XDG_CONFIG_HOME: tempDir("notula-flags-"), NOTULA_API_KEY: KEY, NOTULA_URL: "", CI: "1" });

let fake: http.Server;
let port = 0;
const paths: string[] = [];
beforeAll(async () => {
  fake = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ user: { email: "a@x.org" }, workspace: { name: "W" }, scopes: [] }));
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  port = (fake.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => fake?.close(r)));

describe("flags checked before anything connects", () => {
  it("each bad list filter is exit 2 naming its flag", async () => {
    const cases: [string[], RegExp][] = [
      [["--from", "yesterday"], /^notula: --from: must be a real day in ISO 8601, such as 2026-03-01/],
      [["--from", "2026-02-30"], /^notula: --from: must be a real day in ISO 8601.*got "2026-02-30"/],
      [["--to", "2026-13-45"], /^notula: --to: /],
      [["--sort", "size"], /^notula: --sort: must be one of createdAt, updatedAt, title/],
      [["--order", "up"], /^notula: --order: must be one of asc, desc/],
      [["--status", "weird"], /^notula: --status: must be one of /],
      [["--kind", "phone"], /^notula: --kind: must be one of /],
      [["--limit", "500"], /^notula: --limit: must be between 1 and 100/],
      [["--limit", "0"], /^notula: --limit: must be between 1 and 100/],
      [["--offset", "-1"], /^notula: --offset: /],
    ];
    for (const [flags, message] of cases) {
      const r = await run(["notes", "list", "--server", NOWHERE, ...flags], { env: env() });
      expect(r.code, flags.join(" ")).toBe(2);
      expect(r.stderr, flags.join(" ")).toMatch(message);
    }
    // At the edges the values pass, and the command goes on to connect (and fails to: exit 1).
    for (const flags of [
      ["--limit", "100"],
      ["--limit", "1"],
      ["--from", "2026-01-01"],
      ["--sort", "title"],
    ]) {
      const r = await run(["notes", "list", "--server", NOWHERE, ...flags], { env: env() });
      expect(r.code, flags.join(" ")).toBe(1);
      expect(r.stderr).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9/);
    }
  });

  it("every other command's bad flag is exit 2 naming it, before anything connects", async () => {
    const cases: [string[], RegExp][] = [
      [["notes", "search", "budget", "--mode", "fuzzy"], /^notula: --mode: must be one of hybrid, fulltext, semantic/],
      [["notes", "search", "budget", "--limit", "101"], /^notula: --limit: /],
      [["notes", "search", "budget", "--from", "last week"], /^notula: --from: /],
      [["members", "list", "--limit", "0"], /^notula: --limit: must be between 1 and 100/],
      [["invites", "list", "--offset", "-1"], /^notula: --offset: /],
      [["webhooks", "deliveries", "--limit", "1000"], /^notula: --limit: /],
      [["notes", "create", "--title", "T", "--visibility", "secret"], /^notula: --visibility: must be one of only-me/],
      [["notes", "update", "note_x", "--visibility", "secret"], /^notula: --visibility: /],
      [
        ["invites", "create", "--email", "a@example.com", "--role", "owner"],
        /^notula: --role: must be one of admin, member/,
      ],
      [["notes", "export", "--format", "pdf"], /^notula: --format: one of markdown, txt, vtt, srt, json/],
      [["notes", "list", "--json", "id", "--jq", ".items["], /^notula: --jq: /],
    ];
    for (const [args, message] of cases) {
      const r = await run([...args, "--server", NOWHERE], { env: env() });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
    }
  });

  it("a server address without a scheme is refused with the fix, or taken as http:// on loopback; a /v1 suffix is the server", async () => {
    const noScheme = await run(["me", "--server", "notes.example.com"], { env: env() });
    expect(noScheme.code).toBe(2);
    expect(noScheme.stderr).toMatch(
      /--server: "notes\.example\.com" has no scheme; write https:\/\/notes\.example\.com/,
    );
    const other = await run(["me", "--server", "ftp://notes.example.com"], { env: env() });
    expect(other.code).toBe(2);
    const fromEnv = await run(["me"], { env: { ...env(), NOTULA_URL: "notes.example.com" } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/NOTULA_URL: "notes\.example\.com" has no scheme/);

    paths.length = 0;
    for (const server of [`127.0.0.1:${port}`, `http://127.0.0.1:${port}/v1`, `http://127.0.0.1:${port}/v1/`]) {
      const r = await run(["me", "--json", "--server", server], { env: env() });
      expect(r.code, `${server}: ${r.stderr}`).toBe(0);
    }
    const viaEnv = await run(["me", "--json"], { env: { ...env(), NOTULA_URL: `http://127.0.0.1:${port}/v1` } });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(paths).toEqual(["/v1/me", "/v1/me", "/v1/me", "/v1/me"]);
  });
  it("answers a mistake in two lines, not the whole help, with exit 2; help for no such command is a mistake too", async () => {
    const cases: [string[], string][] = [
      [["notes", "lsit"], 'notula: unknown command "lsit"; did you mean "list"?'],
      [["nots"], 'notula: unknown command "nots"; did you mean "notes"?'],
      [["notes", "list", "--nosuch"], 'notula: unknown option "--nosuch"'],
      [["help", "nosuchcommand"], 'notula: no command "nosuchcommand"; run "notula help" for the list.'],
      [["help", "notes", "lsit"], 'notula: no command "lsit" under "notes"; run "notula help notes" for the list.'],
    ];
    for (const [args, first] of cases) {
      const r = await run(args, { env: env() });
      expect(r.code, args.join(" ")).toBe(2);
      const lines = r.stderr.trim().split("\n");
      expect(lines[0], args.join(" ")).toBe(first);
      expect(lines.length, r.stderr).toBeLessThanOrEqual(3);
      expect(r.stdout).toBe("");
    }
    // Help for a command that exists is still help, exit 0.
    const help = await run(["help", "notes", "list"], { env: env() });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: notula notes list/);
  });
});
