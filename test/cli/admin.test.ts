// `notula admin …` on a data dir while the server runs.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { admin, run, startServer, tempDir, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
});
afterAll(() => server?.stop());

describe("notula admin", () => {
  it("workspaces create: an isolated workspace whose key works at once on the running server", async () => {
    const out = await admin(server.dataDir, ["workspaces", "create", "--name", "Acme", "--plan", "pro"]);
    expect(out.workspace).toMatchObject({ name: "Acme", plan: "pro", id: expect.stringMatching(/^ws_/) });
    expect(out.user).toMatchObject({ id: expect.stringMatching(/^usr_/), email: expect.any(String) });
    expect(out.key).toMatch(/^ntl_/);
    const me = await client(server.url, out.key)("GET", "/v1/me");
    expect(me.body.workspace).toEqual({ id: out.workspace.id, name: "Acme", plan: "pro" });
    expect(me.body.scopes).toEqual(["notes", "folders", "users", "templates"]);
  });

  it("keys create with scopes prints {key, id, scopes}", async () => {
    const out = await admin(server.dataDir, ["keys", "create", "--name", "ci", "--scopes", "notes,folders"]);
    expect(out).toMatchObject({
      key: expect.stringMatching(/^ntl_/),
      id: expect.stringMatching(/^key_/),
      scopes: ["notes", "folders"],
    });
    const me = await client(server.url, out.key)("GET", "/v1/me");
    expect(me.body.scopes).toEqual(["notes", "folders"]);
    const list = await admin(server.dataDir, ["keys", "list"]);
    expect(list.items.map((k: { id: string }) => k.id)).toContain(out.id);
    expect(JSON.stringify(list)).not.toContain(out.key);
    // As text for a program: a tab-separated row per key, nothing truncated.
    const { registerAdmin } = await import("../../src/cli/commands/admin/index.js");
    const { Command } = await import("commander");
    let text = "";
    const program = new Command().exitOverride();
    registerAdmin(program, { write: (t) => void (text += t), readInput: async () => "", terminal: false });
    await program.parseAsync(["admin", "keys", "list", "--data-dir", server.dataDir], { from: "user" });
    const row = text
      .trim()
      .split("\n")
      .map((l) => l.split("\t"))
      .find((cells) => cells[0] === out.id)!;
    expect(row).toHaveLength(5);
    expect(row[3]).toBe("notes,folders");
    expect(row[4]).toBe("live");
  });

  it("set-plan changes what the running server enforces", async () => {
    const ws = await admin(server.dataDir, ["workspaces", "create", "--name", "Plan", "--plan", "free"]);
    await admin(server.dataDir, ["workspaces", "set-plan", "--workspace", ws.workspace.id, "--plan", "enterprise"]);
    const me = await client(server.url, ws.key)("GET", "/v1/me");
    expect(me.body.workspace.plan).toBe("enterprise");
  });

  it("users create reads the password from stdin and stores only a scrypt hash", async () => {
    const ws = (await client(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
    const out = await admin(
      server.dataDir,
      [
        "users",
        "create",
        "--workspace",
        ws,
        "--email",
        "Ana@Example.com",
        "--name",
        "Ana",
        "--password-stdin",
        "--role",
        "admin",
      ],
      "correct horse battery\n",
    );
    expect(out).toMatchObject({ user: { email: "ana@example.com", name: "Ana" }, member: { role: "admin" } });
    const db = new Database(`${server.dataDir}/notula.db`, { readonly: true });
    const row = db.prepare("SELECT password_hash FROM users WHERE email = ?").get("ana@example.com") as {
      password_hash: string;
    };
    db.close();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain("correct horse");
    const members = await client(server.url, server.key)("GET", "/v1/workspace/members?search=ana@");
    expect(members.body.items[0]).toMatchObject({ email: "ana@example.com", role: "admin" });
  });

  it("exit codes: 3 for an unknown workspace, 2 for bad usage, with a message on stderr", async () => {
    const unknown = await run([
      "admin",
      "workspaces",
      "set-plan",
      "--data-dir",
      server.dataDir,
      "--workspace",
      "ws_nope",
      "--plan",
      "pro",
    ]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/ws_nope/);
    const badPlan = await run([
      "admin",
      "workspaces",
      "create",
      "--data-dir",
      server.dataDir,
      "--name",
      "X",
      "--plan",
      "gold",
    ]);
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toMatch(/--plan/);
    const badScope = await run([
      "admin",
      "keys",
      "create",
      "--data-dir",
      server.dataDir,
      "--name",
      "x",
      "--scopes",
      "notes,admin",
    ]);
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toMatch(/admin/);
    const missing = await run(["admin", "keys", "create", "--data-dir", server.dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--name/);
    const dup = await run([
      "admin",
      "users",
      "create",
      "--data-dir",
      server.dataDir,
      "--workspace",
      (await client(server.url, server.key)("GET", "/v1/me")).body.workspace.id,
      "--email",
      "admin@notula.local",
      "--name",
      "x",
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already a member/);
  });

  it("works on an empty data dir with no server", async () => {
    const dir = tempDir();
    const out = await admin(dir, ["workspaces", "create", "--name", "Fresh"]);
    expect(out.workspace.plan).toBe("enterprise");
    const listed = await admin(dir, ["workspaces", "list"]);
    expect(listed.items).toHaveLength(1);
  });

  it("--version and --help exit 0; an unknown command exits 2", async () => {
    const v = await run(["--version"]);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await run(["--help"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/Exit codes/);
    const bad = await run(["frobnicate"]);
    expect(bad.code).toBe(2);
  });

  it("bare notula prints the help and exits 0; help environment lists every variable notula reads", async () => {
    const bare = await run([]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(/Usage: notula/);
    expect(bare.stdout).toContain("notula help environment");
    const env = await run(["help", "environment"]);
    expect(env.code).toBe(0);
    const listed = new Set(env.stdout.split("\n").map((l) => /^ {2}(\S+) {2}/.exec(l)?.[1]));
    const { CLI_ENVIRONMENT } = await import("../../src/config/environment.js");
    const { entries } = await import("../../src/config/setting.js");
    const { SETTINGS } = await import("../../src/config/settings.js");
    const declared = [
      ...Object.values(CLI_ENVIRONMENT).map((v) => v.name),
      ...entries(SETTINGS).flatMap((e) => e.setting.env ?? []),
    ];
    expect(declared.length).toBeGreaterThan(40);
    expect(declared.filter((name) => !listed.has(name))).toEqual([]);
    expect(env.stdout).toMatch(/NOTULA_URL +The server client commands talk to/);
  });
});
