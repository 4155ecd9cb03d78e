// Smaller things people at a terminal ran into: exports to standard output, members
// found however they are known, folder privacy, what to do about a plan, and a typo in
// the config file.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { admin, run, startServer, tempDir, type TestServer, cliEnv } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let env: Record<string, string>;
const work = tempDir("notula-reading-");

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  env = cliEnv(server);
});
afterAll(() => server?.stop());

const cli = (args: string[], extra: Record<string, string> = {}) => run(args, { env: { ...env, ...extra } });

describe("the CLI for people at a terminal", () => {
  it("exports to standard output with --out -, as markdown or one JSON document", async () => {
    const a = (await api("POST", "/v1/notes", { title: "Stdout one", userWrittenNote: "First." })).body.note.id;
    const b = (await api("POST", "/v1/notes", { title: "Stdout two", userWrittenNote: "Second." })).body.note.id;
    const md = await cli(["notes", "export", a, "--out", "-"]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^---\n/);
    expect(md.stdout).toContain("First.");
    expect(fs.existsSync("-")).toBe(false);
    const json = await cli(["notes", "export", "--search", "stdout", "--out", "-", "--format", "json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(
      JSON.parse(json.stdout)
        .items.map((n: { id: string }) => n.id)
        .sort(),
    ).toEqual([a, b].sort());
  });

  it("notes get: local times, the enhanced note's headings under its own, --format markdown and json", async () => {
    const made = await api("POST", "/v1/notes", {
      title: "Quarterly planning",
      createdAt: "2026-01-02T03:04:05.000Z",
      enhancedNote:
        "## Enhanced note\n\n## Decisions\n\n- Ship the beta in March.\n\n## Action items\n\n- Ana drafts the launch post.",
      summary: "## Summary\n\nThe team agreed on a March beta.",
      transcripts: [
        { speaker: "Ana", text: "Let us ship the beta in March.", startTimestamp: "00:05", endTimestamp: "00:09" },
      ],
    });
    const id = made.body.note.id;
    const text = await cli(["notes", "get", id], { TZ: "America/New_York" });
    expect(text.code, text.stderr).toBe(0);
    // 03:04 UTC on 2 January is the evening before in New York.
    expect(text.stdout).toMatch(/^created\s+Thu, 1 Jan 2026, 22:04$/m);
    // Each heading once; the enhanced note's own sections one level down.
    expect(text.stdout.match(/^## Enhanced note$/gm)).toHaveLength(1);
    expect(text.stdout.match(/^## Summary$/gm)).toHaveLength(1);
    expect(text.stdout).toMatch(/^### Decisions$/m);
    expect(text.stdout).toMatch(/^\[00:05\] Ana: Let us ship the beta in March\.$/m);

    const md = await cli(["notes", "get", id, "--format", "markdown"]);
    expect(md.stdout).toBe((await cli(["notes", "export", id, "--out", "-"])).stdout);
    expect(md.stdout.match(/^## Enhanced note$/gm)).toHaveLength(1);
    expect(JSON.parse((await cli(["notes", "get", id, "--format", "json"])).stdout).id).toBe(id);
    const bad = await cli(["notes", "get", id, "--format", "pdf"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format: one of text, markdown, json/);
  });

  it("notes get at a terminal: wrapped to its width, long notes in the pager", async () => {
    const long = Array.from(
      { length: 60 },
      (_, i) => `Point ${i + 1}: ${"the budget for the next quarter needs another look ".repeat(3).trim()}`,
    ).join("\n\n");
    const id = (await api("POST", "/v1/notes", { title: "A long note", userWrittenNote: long })).body.note.id;
    const { openTerminal } = await import("../helpers/tmux.js");
    const term = openTerminal(`node ${JSON.stringify(path.resolve("bin/notula.js"))} notes get ${id}`, {
      ...env,
      PAGER: "less -RFX",
      COLUMNS: "",
    });
    try {
      // less shows the first screen and waits: wrapped to the 120-column terminal.
      const screen = await term.waitFor(/Point 1: the budget/);
      const lines = screen.split("\n");
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(120);
      // Each point is longer than the terminal is wide: its rest is on a line of its own.
      expect(lines.some((l) => l.startsWith("budget for the next quarter needs another look"))).toBe(true);
      // The pager's prompt, waiting for a key.
      expect(lines.filter((l) => l.trim()).at(-1)).toBe(":");
      expect(screen).not.toContain("Point 60");
      term.type("q");
      expect(await term.exitCode()).toBe(0);
    } finally {
      term.close();
    }
    // NOTULA_PAGER wins over PAGER; set to cat, the note is written whole, with no pager to quit.
    const unpaged = openTerminal(`node ${JSON.stringify(path.resolve("bin/notula.js"))} notes get ${id}`, {
      ...env,
      PAGER: "less -RFX",
      NOTULA_PAGER: "cat",
      COLUMNS: "",
    });
    try {
      expect(await unpaged.exitCode()).toBe(0);
      expect(await unpaged.waitFor(/Point 60: the budget/)).not.toMatch(/^:$/m);
    } finally {
      unpaged.close();
    }
  });

  it("finds a member by member id, user id or email", async () => {
    const me = (await api("GET", "/v1/me")).body;
    const byEmail = JSON.parse((await cli(["members", "get", me.user.email, "--json"])).stdout);
    const byUser = JSON.parse((await cli(["members", "get", me.user.id, "--json"])).stdout);
    const byId = JSON.parse((await cli(["members", "get", byEmail.id, "--json"])).stdout);
    expect(byUser).toEqual(byEmail);
    expect(byId).toEqual(byEmail);
    const other = await admin(server.dataDir, ["workspaces", "create", "--name", "Elsewhere"]);
    expect((await client(server.url, other.key)("GET", `/v1/workspace/members/${me.user.id}`)).status).toBe(404);
    expect((await cli(["members", "get", "nobody@example.com"])).code).toBe(3);
  });

  it("shows folder privacy and the folder's template, and changes them", async () => {
    const me = (await api("GET", "/v1/me")).body;
    const folder = (await api("POST", "/v1/folders", { name: "Board", ownerUserId: me.user.id })).body.folder;
    expect(
      (await cli(["folders", "update", folder.id, "--private", "--template", "tpl_builtin_one-to-one"])).code,
    ).toBe(0);
    const row = (await cli(["folders", "list"])).stdout
      .split("\n")
      .map((l) => l.split("\t"))
      .find((r) => r[0] === folder.id)!;
    expect(row.slice(4, 6)).toEqual(["private", "tpl_builtin_one-to-one"]);
    expect((await cli(["folders", "update", folder.id, "--shared", "--template", "none"])).code).toBe(0);
    const listed = (await api("GET", "/v1/folders")).body.folders.find((f: { id: string }) => f.id === folder.id);
    expect(listed).toMatchObject({ isPrivate: false, templateId: null });
    expect((await cli(["folders", "update", folder.id, "--private", "--shared"])).code).toBe(2);
  });

  it("says what to do when the plan refuses", async () => {
    const free = await admin(server.dataDir, ["workspaces", "create", "--name", "Free", "--plan", "free"]);
    const file = path.join(work, "a.wav");
    fs.writeFileSync(file, Buffer.alloc(100));
    const r = await cli(["upload", file, "--duration", "5"], { NOTULA_API_KEY: free.key });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Enterprise plan/);
    expect(r.stderr).toMatch(/notula admin workspaces set-plan --workspace <id> --plan enterprise/);
  });

  it("refuses a config file with an unknown key, naming the known ones", async () => {
    const config = path.join(work, "config.json");
    fs.writeFileSync(
      config,
      JSON.stringify({ port: 0, transcriptoin: { engine: "sphinx" }, transcription: { langauge: "de" } }),
    );
    const r = await run(["serve", "--config", config, "--data-dir", path.join(work, "data")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown key "transcriptoin" \(known: dataDir, host, role, port/);
    expect(r.stderr).toMatch(
      /unknown key "transcription\.langauge" \(known in transcription: engine, url, apiKey, model, modelPath, modelsUrl, whisperNice, language\)/,
    );
  });
});
