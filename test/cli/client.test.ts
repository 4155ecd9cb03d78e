// The built CLI as a user runs it, against a real server: tables and --json,
// standard input, paging, export, exit codes, credentials.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bursts, convert, speak } from "../helpers/audio.js";
import { startTranscriptionServer } from "../helpers/vendors.js";
import { client, type Client } from "../helpers/http.js";
import { admin, run, startServer, tempDir, type TestServer, cliEnv } from "../helpers/server.js";

// Each test runs the CLI dozens of times, a process each: on a busy machine that takes
// minutes, not the suite's default 30 s. Waits poll; only this ceiling is raised.
vi.setConfig({ testTimeout: 240_000 });

let server: TestServer;
let api: Client;
let env: Record<string, string>;
const work = tempDir("notula-cli-");

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx", "--allow-private-webhooks"] });
  api = client(server.url, server.key);
  // Each test run gets its own config dir; no keychain unless a test asks for one.
  env = cliEnv(server);
});
afterAll(() => server?.stop());

const cli = (args: string[], input?: string, extra: Record<string, string> = {}) =>
  run(args, { input, env: { ...env, ...extra } });
const json = async (args: string[], input?: string) => {
  const r = await cli([...args, "--json"], input);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe("notes", () => {
  it("create from stdin, get, update, list, search, delete", async () => {
    const created = await cli(
      ["notes", "create", "--title", "Pricing review", "--note-file", "-"],
      "- tiers are confusing\n",
    );
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^note_/);

    const shown = await cli(["notes", "get", id]);
    expect(shown.stdout).toContain("Pricing review");
    expect(shown.stdout).toContain("## Your notes");
    expect(shown.stdout).toContain("- tiers are confusing");

    const notePath = path.join(work, "note.md");
    fs.writeFileSync(notePath, "# New notes\n");
    const updated = await json(["notes", "update", id, "--visibility", "private", "--note-file", notePath]);
    expect(updated).toMatchObject({ id, visibility: "only-me", userWrittenNote: "# New notes\n" });

    // Not a terminal: tab-separated rows, no header, parseable with cut.
    const listed = await cli(["notes", "list", "--search", "pricing"]);
    expect(listed.stdout.split("\n")[0].split("\t")[0]).toBe(id);
    // Piped rows are whole: a long title is not cut to the terminal's column.
    const long = "Quarterly planning review with the marketing and sales teams, second half";
    const longId = (await cli(["notes", "create", "--title", long])).stdout.trim();
    const row = (await cli(["notes", "list", "--search", "quarterly"])).stdout
      .split("\n")
      .map((l) => l.split("\t"))
      .find((cells) => cells[0] === longId)!;
    expect(row[1]).toBe(long);
    expect((await cli(["notes", "delete", longId, "--yes"])).code).toBe(0);
    const listedJson = await json(["notes", "list", "--search", "pricing"]);
    expect(Object.keys(listedJson)).toEqual(["items", "pagination"]);
    expect(listedJson.items[0].id).toBe(id);
    const searched = await json(["notes", "search", "pricing"]);
    expect(searched.items.map((r: { note: { id: string } }) => r.note.id)).toEqual([id]);

    const refused = await cli(["notes", "delete", id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect((await cli(["notes", "delete", id, "--yes"])).code).toBe(0);
    const gone = await cli(["notes", "get", id]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/not_found: Note .* not found/);
  });

  it("--all walks every page of 250 notes", async () => {
    const folder = (
      await api("POST", "/v1/folders", { name: "Bulk", ownerUserId: (await api("GET", "/v1/me")).body.user.id })
    ).body.folder;
    for (let i = 0; i < 250; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          api("POST", "/v1/notes", { title: `Bulk ${i + j}`, folderIds: [folder.id] }),
        ),
      );
    const all = await json(["notes", "list", "--all", "--folder", folder.id]);
    expect(all.items).toHaveLength(250);
    expect(new Set(all.items.map((n: { id: string }) => n.id)).size).toBe(250);
    const tsv = await cli(["notes", "list", "--all", "--folder", folder.id]);
    expect(tsv.stdout.trim().split("\n")).toHaveLength(250);
  });

  it("export writes markdown with front matter, or JSON, that read back", async () => {
    const { note } = (
      await api("POST", "/v1/notes", {
        title: "Export me: Q3/Q4",
        summary: "All good.",
        participants: [{ name: "Ana", email: "ana@example.com" }],
        transcripts: [{ speaker: "Ana", text: "Hello there.", startTimestamp: "00:05", endTimestamp: "00:07" }],
      })
    ).body;
    const out = path.join(work, "export");
    const r = await cli(["notes", "export", note.id, "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const file = r.stdout.trim();
    expect(path.basename(file)).toBe(`${note.createdAt.slice(0, 10)}-export-me-q3q4-${note.id}.md`);
    const md = fs.readFileSync(file, "utf8");
    const front = md.split("---")[1];
    expect(front).toContain(`id: "${note.id}"`);
    expect(front).toContain('title: "Export me: Q3/Q4"');
    expect(front).toContain('participants: ["ana@example.com"]');
    expect(md).toContain("## Summary\n\nAll good.");
    expect(md).toContain("- [00:05] **Ana:** Hello there.");
    const j = await json([
      "notes",
      "export",
      "--search",
      "export",
      "--format",
      "json",
      "--out",
      path.join(work, "json"),
    ]);
    expect(j.items).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(j.items[0], "utf8")).id).toBe(note.id);
  });
});

describe("share links", () => {
  it("notes share prints the link of a public note; a private one needs --make-public", async () => {
    const id = (await api("POST", "/v1/notes", { title: "Shareable" })).body.note.id;
    const refused = await cli(["notes", "share", id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--make-public/);
    const made = await cli(["notes", "share", id, "--make-public"]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout.trim()).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{22}$`));
    expect(await json(["notes", "share", id])).toEqual({ id, shareUrl: made.stdout.trim() });
    expect((await fetch(made.stdout.trim())).status).toBe(200);
  });
});

describe("exit codes", () => {
  it("0 ok, 1 API error, 2 usage, 3 not found, 4 authentication", async () => {
    expect((await cli(["me"])).code).toBe(0);
    // A value the CLI can check is a usage error before anything is sent…
    const bad = await cli(["notes", "update", "note_x", "--visibility", "everyone"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^notula: --visibility: must be one of only-me, workspace, public/);
    // …and what only the server refuses is an API error.
    const invalid = await cli(["notes", "create", "--title", "x".repeat(501)]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/bad_request: title/);
    const usage = await cli(["notes", "create"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Missing --title/);
    expect((await cli(["notes", "frobnicate"])).code).toBe(2);
    expect((await cli(["members", "get", "mem_nope"])).code).toBe(3);
    const auth = await cli(["me"], undefined, { NOTULA_API_KEY: "ntl_" + "x".repeat(43) });
    expect(auth.code).toBe(4);
    // Said with where the key came from: here the environment.
    expect(auth.stderr).toMatch(/The key in NOTULA_API_KEY was refused/);
    const none = await cli(["me"], undefined, { NOTULA_API_KEY: "" });
    expect(none.code).toBe(4);
    const down = await cli(["me"], undefined, { NOTULA_URL: "http://127.0.0.1:9" });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Cannot reach/);
  });
});

describe("workspace resources", () => {
  it("folders, tags, groups, members", async () => {
    const id = (await cli(["folders", "create", "--name", "Clients", "--color", "#0EA5E9"])).stdout.trim();
    expect(id).toMatch(/^fld_/);
    expect((await cli(["folders", "update", id, "--name", "Customers"])).code).toBe(0);
    const folders = await json(["folders", "list"]);
    expect(folders.items.find((f: { id: string }) => f.id === id).name).toBe("Customers");
    expect((await cli(["folders", "delete", id, "--yes"])).code).toBe(0);
    await api("POST", "/v1/workspace/tags", { name: "urgent" });
    expect((await cli(["tags", "list"])).stdout).toContain("urgent");
    const group = (await api("POST", "/v1/workspace/groups", { name: "Sales" })).body.userGroup;
    expect((await cli(["groups", "list"])).stdout).toContain("Sales");
    const members = await json(["members", "list"]);
    const member = members.items[0];
    const set = await json(["members", "set-groups", member.id, "--group", group.id]);
    expect(set.groups).toEqual([{ id: group.id, name: "Sales" }]);
    expect((await cli(["members", "get", member.id])).stdout).toContain("groups   Sales");

    // A folder shown whole, with who is in it.
    const board = (await cli(["folders", "create", "--name", "Board", "--private"])).stdout.trim();
    const shown = await json(["folders", "get", board]);
    expect(shown).toMatchObject({ id: board, name: "Board", isPrivate: true, memberCount: 1 });
    expect(shown.members.map((m: { email: string }) => m.email)).toEqual([member.email]);
    expect((await cli(["folders", "get", board])).stdout).toMatch(/^Board \(fld_.+\)\naccess {4}private/);
    expect((await cli(["folders", "get", "fld_nope"])).code).toBe(3);

    // A member removed: asked first, or --yes; their key stops working at once.
    const leaving = await admin(server.dataDir, [
      "users",
      "create",
      "--workspace",
      (await api("GET", "/v1/me")).body.workspace.id,
      "--email",
      "leaving@example.com",
      "--name",
      "Leaving Soon",
      "--role",
      "member",
    ]);
    const { key: leavingKey } = await admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      "l",
      "--user",
      leaving.user.id,
    ]);
    const leavingId = (await json(["members", "list", "--search", "leaving@"])).items[0].id;
    const unasked = await cli(["members", "remove", leavingId]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toMatch(/--yes/);
    const removed = await cli(["members", "remove", leavingId, "--yes"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain("Removed Leaving Soon <leaving@example.com>.");
    expect((await cli(["members", "get", leavingId])).code).toBe(3);
    expect((await client(server.url, leavingKey)("GET", "/v1/me")).status).toBe(401);
  });

  it("invites in both shapes", async () => {
    const link = await cli(["invites", "create", "--link"]);
    expect(link.stdout.trim()).toMatch(new RegExp(`^${server.url}/invite/[A-Za-z0-9_-]+$`));
    const legacy = await json(["invites", "create", "--email", "old@example.com", "--legacy"]);
    expect(legacy.email).toBe("old@example.com");
    // The JSON holds the link the text prints.
    expect(legacy.url).toBe(`${server.url}/invite/${legacy.code}`);
    const listed = await json(["invites", "list", "--legacy"]);
    expect(listed.items.find((i: { id: string }) => i.id === legacy.id).groups).toEqual([]);
    expect((await cli(["invites", "delete", legacy.id, "--yes"])).code).toBe(0);
    expect((await cli(["invites", "create"])).code).toBe(2);
  });

  it("webhooks", async () => {
    // Created: its id, as every create prints it, then its signing secret.
    const [hookId, secret] = (await cli(["webhooks", "register", "http://127.0.0.1:9/hook"])).stdout.trim().split("\n");
    expect(hookId).toMatch(/^whk_/);
    expect(secret).toMatch(/^whsec_/);
    // Registering again keeps the one registration: --json shows it whole.
    expect(await json(["webhooks", "register", "http://127.0.0.1:9/hook"])).toEqual({
      id: hookId,
      hookUrl: "http://127.0.0.1:9/hook",
      secret,
    });
    expect((await cli(["webhooks", "list"])).stdout).toContain("http://127.0.0.1:9/hook");
    await api("POST", "/v1/notes", { title: "Fires a hook" });
    const deliveries = await json(["webhooks", "deliveries"]);
    expect(deliveries.items[0]).toMatchObject({ type: "note.created", hookUrl: "http://127.0.0.1:9/hook" });
    expect((await cli(["webhooks", "remove", "http://127.0.0.1:9/hook", "--yes"])).code).toBe(0);
    // By the id `webhooks list` shows, too; an unknown id is not found.
    await cli(["webhooks", "register", "http://127.0.0.1:9/other"]);
    const other = (await json(["webhooks", "list"])).items.find(
      (w: { hookUrl: string }) => w.hookUrl === "http://127.0.0.1:9/other",
    );
    const byId = await cli(["webhooks", "remove", other.id, "--yes"]);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stderr).toContain("Removed http://127.0.0.1:9/other.");
    expect((await json(["webhooks", "list"])).items).toEqual([]);
    expect((await cli(["webhooks", "remove", "whk_nope", "--yes"])).code).toBe(3);
  });
});

describe("every read command", () => {
  // [command, the API read it shows, how --json holds it (a list's key, moved to `items`;
  // a single resource's key, unwrapped; or null: as the API gives it), a value its plain
  // output must name, and for a read that changes by itself (deliveries being retried)
  // what stays put]
  type Shape = { list: string } | { one: string } | null;
  type Case = [string[], string, Shape, (api: any) => string, ((r: any) => unknown)?];
  let cases: Case[];
  beforeAll(async () => {
    const me = (await api("GET", "/v1/me")).body;
    await api("POST", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:9/read-case" });
    const folder = (await api("POST", "/v1/folders", { name: "Read cases", ownerUserId: me.user.id })).body.folder;
    const note = (await api("POST", "/v1/notes", { title: "Read case note", folderIds: [folder.id] })).body.note;
    await api("POST", "/v1/workspace/tags", { name: "read-case-tag" });
    await api("POST", "/v1/workspace/groups", { name: "Read case group" });
    await api("POST", "/v1/invites", { email: "reader@example.com", role: "member", isUrlInvite: false });
    const member = (await api("GET", "/v1/workspace/members")).body.items[0];
    cases = [
      [["notes", "list"], "/v1/notes", { list: "items" }, (r) => r.items[0].id],
      [["notes", "get", note.id], `/v1/notes/${note.id}`, { one: "note" }, (r) => r.note.title],
      [
        ["notes", "search", "read"],
        "/v1/search?q=read",
        { list: "results" },
        (r) => r.results.find((x: any) => x.note.id === note.id).note.id,
      ],
      [
        ["folders", "list"],
        "/v1/folders",
        { list: "folders" },
        (r) => r.folders.find((f: any) => f.id === folder.id).name,
      ],
      [
        ["folders", "get", folder.id],
        `/v1/folders/${folder.id}`,
        { one: "folder" },
        (r) => r.folder.name,
        // The CLI adds who is in the folder (GET /v1/folders/{id}/members).
        ({ members: _members, ...folder }) => folder,
      ],
      [
        ["tags", "list"],
        "/v1/workspace/tags",
        { list: "tags" },
        (r) => r.tags.find((t: any) => t.name === "read-case-tag").id,
      ],
      [
        ["groups", "list"],
        "/v1/workspace/groups",
        { list: "userGroups" },
        (r) => r.userGroups.find((g: any) => g.name === "Read case group").id,
      ],
      [["members", "list"], "/v1/workspace/members", { list: "items" }, (r) => r.items[0].email],
      [["members", "get", member.id], `/v1/workspace/members/${member.id}`, { one: "member" }, (r) => r.member.email],
      [
        ["invites", "list"],
        "/v1/invites",
        { list: "items" },
        (r) => r.items.find((i: any) => i.email === "reader@example.com").id,
      ],
      [
        ["invites", "list", "--legacy"],
        "/v1/workspace/invites",
        { list: "items" },
        (r) => r.items.find((i: any) => i.email === "reader@example.com").id,
      ],
      [
        ["webhooks", "list"],
        "/v1/integrations/automation/webhook",
        { list: "webhooks" },
        (r) => r.webhooks.find((w: any) => w.hookUrl.endsWith("/read-case")).hookUrl,
      ],
      [
        ["webhooks", "deliveries"],
        "/v1/integrations/automation/deliveries",
        { list: "items" },
        (r) => r.items[0].id,
        (r) => r.items.map((d: any) => d.id),
      ],
      [["templates", "list"], "/v1/templates", { list: "templates" }, (r) => r.templates[0].id],
      [["me"], "/v1/me", null, (r) => r.user.email],
      [["workspace"], "/v1/workspace", { one: "workspace" }, (r) => r.workspace.name],
    ];
  });

  /** The API's answer as the CLI's --json holds it. */
  const asCli = (body: any, shape: Shape) => {
    if (!shape) return body;
    if ("one" in shape) return body[shape.one];
    const { [shape.list]: items, ...rest } = body;
    return { items, ...rest };
  };

  it("--json prints the API's answer in the one shape (every list as { items }, one resource as itself); plain output names what it shows", async () => {
    for (const [args, path, shape, named, stable = (r: unknown) => r] of cases) {
      const expected = (await api("GET", path)).body;
      const printed = await json(args);
      if (shape && "list" in shape) expect(Array.isArray(printed.items), args.join(" ")).toBe(true);
      expect(stable(printed), args.join(" ")).toEqual(stable(asCli(expected, shape)));
      const plain = await cli(args);
      expect(plain.code, args.join(" ")).toBe(0);
      expect(plain.stdout, args.join(" ")).toContain(named(expected));
      expect(() => JSON.parse(plain.stdout), args.join(" ")).toThrow();
    }
  });

  it("--json FIELDS keeps those fields of each item (or of the one resource), --jq filters, and an unknown field is named", async () => {
    const page = JSON.parse((await cli(["notes", "list", "--json", "id,title"])).stdout);
    expect(page.items.length).toBeGreaterThan(0);
    for (const item of page.items) expect(Object.keys(item)).toEqual(["id", "title"]);
    expect(Object.keys(page)).toEqual(["items", "pagination"]);
    const [, noteId] = cases[1][1].match(/notes\/(.+)$/)!;
    // Before the id or after it: a field list is read as one only where no argument is due.
    expect(await json(["notes", "get", "--json", noteId])).toMatchObject({ id: noteId, title: "Read case note" });
    expect(JSON.parse((await cli(["notes", "get", noteId, "--json", "id,title"])).stdout)).toEqual({
      id: noteId,
      title: "Read case note",
    });
    expect(JSON.parse((await cli(["--json", "notes", "get", noteId])).stdout).id).toBe(noteId);

    const titles = await cli(["notes", "list", "--jq", ".items[].title"]);
    expect(titles.code).toBe(0);
    expect(titles.stdout.split("\n")).toContain("Read case note");
    expect(
      (
        await cli([
          "notes",
          "list",
          "--json",
          "id,title",
          "--jq",
          '.items[] | select(.title == "Read case note") | .id',
        ])
      ).stdout,
    ).toBe(`${noteId}\n`);

    const unknown = await cli(["notes", "list", "--json", "id,colour"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--json: unknown field "colour"; the fields are .*\btitle\b/);
    const broken = await cli(["notes", "list", "--jq", ".items["]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^notula: --jq: /);
  });

  it("lists are aligned tables with a header on a terminal", async () => {
    const { openTerminal } = await import("../helpers/tmux.js");
    const { BIN } = await import("../helpers/server.js");
    for (const [args, header] of [
      [["tags", "list"], /ID\s+NAME\s+COLOR/],
      [["groups", "list"], /ID\s+NAME\s+MEMBERS/],
      [["folders", "list"], /ID\s+NAME/],
      [["members", "list"], /ID\s+NAME\s+EMAIL\s+ROLE/],
    ] as const) {
      const t = openTerminal(`${process.execPath} ${BIN} ${args.join(" ")}`, { ...env, CI: "" });
      try {
        expect(await t.exitCode()).toBe(0);
        const lines = t.screen().split("\n");
        const head = lines.findIndex((l) => header.test(l));
        expect(head, t.screen()).toBeGreaterThanOrEqual(0);
        // Every row's second column starts where the header's NAME does.
        const col = lines[head].indexOf("NAME");
        for (const row of lines.slice(head + 1).filter((l) => /^\S+_\S+\s/.test(l)))
          expect(row[col - 1], row).toBe(" ");
      } finally {
        t.close();
      }
    }
  });
});

describe("upload", () => {
  it("uploads a real recording and follows it to completed with --wait", async () => {
    const file = convert(speak(work, "The design review is moved to Tuesday afternoon."), "m4a");
    const r = await cli(["upload", file, "--title", "Design review", "--wait"]);
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    expect(r.stderr).toMatch(/Uploading: 100%/);
    expect(r.stderr).toMatch(new RegExp(`${id}: completed`));
    const note = (await api("GET", `/v1/notes/${id}`)).body.note;
    expect(note.title).toBe("Design review");
    expect(note.transcripts.map((s: { text: string }) => s.text).join(" ")).toMatch(/design|review|tuesday/i);

    // notes search finds the words said, with when they were said and by whom.
    const word =
      note.transcripts[0].text.split(" ").find((w: string) => w.length > 4) ?? note.transcripts[0].text.split(" ")[0];
    const found = await cli(["notes", "search", word, "--mode", "fulltext"]);
    expect(found.code, found.stderr).toBe(0);
    const row = found.stdout
      .split("\n")
      .map((l) => l.split("\t"))
      .find((cells) => cells[0] === id)!;
    expect(row[1]).toBe("words");
    expect(row[2]).toBe(note.transcripts[0].startTimestamp);
    expect(row[3]).toBe("Speaker");
    // Piped: the match is plain, its highlight marks are for people at a terminal.
    expect(row[5]).not.toMatch(/[«»]/);
    expect(row[5].toLowerCase()).toContain(word.toLowerCase());
    const parsed = await json(["notes", "search", word, "--mode", "fulltext"]);
    expect(parsed.items.find((x: { note: { id: string } }) => x.note.id === id).matches[0]).toMatchObject({
      segment: 0,
      startTimestamp: note.transcripts[0].startTimestamp,
    });
  });

  it("--wait shows each stage and how far transcription has come, window by window", async () => {
    // A 25-minute recording is three 10-minute windows for the OpenAI-compatible engine,
    // whose stand-in takes 0.8 s per window: each third shows.
    const stt = await startTranscriptionServer({ echo: true, delayMs: 800 });
    const slow = await startServer({ args: ["--no-rate-limit", "--stt-url", stt.url] });
    try {
      const file = await bursts(work, 25 * 60, "mp3");
      const r = await cli(["upload", file, "--wait"], undefined, { NOTULA_URL: slow.url, NOTULA_API_KEY: slow.key });
      expect(r.code, r.stderr).toBe(0);
      const id = r.stdout.trim();
      const lines = r.stderr
        .split("\n")
        .filter((l) => l.startsWith(`${id}: `))
        .map((l) => l.slice(id.length + 2));
      expect(lines).toEqual(expect.arrayContaining(["transcribing 33%", "transcribing 66%", "completed"]));
      expect(lines.indexOf("transcribing 33%")).toBeLessThan(lines.indexOf("transcribing 66%"));
      // Read while it runs, the note says the same; once done, progress is null.
      expect((await client(slow.url, slow.key)("GET", `/v1/notes/${id}`)).body.note.progress).toBeNull();
    } finally {
      await slow.stop();
      await stt.close();
    }
  });

  it("refuses other file types, and exits 1 with the processing error when processing fails", async () => {
    fs.writeFileSync(path.join(work, "notes.txt"), "x");
    expect((await cli(["upload", path.join(work, "notes.txt")])).code).toBe(2);
    const failing = await startServer({ args: ["--no-rate-limit", "--stt-engine", "openai"] });
    try {
      const file = convert(speak(work, "Short."), "mp3");
      const r = await cli(["upload", file, "--wait"], undefined, {
        NOTULA_URL: failing.url,
        NOTULA_API_KEY: failing.key,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/notula: Waiting for a speech-to-text engine; the recording is kept .*NOTULA_STT_URL/);
    } finally {
      await failing.stop();
    }
  });
});

describe("login, profiles, logout", () => {
  it("stores the key in a 0600 file with a notice when there is no keychain, then uses it", async () => {
    const cfg = tempDir("notula-login-");
    const base = { XDG_CONFIG_HOME: cfg, NOTULA_API_KEY: "", NOTULA_URL: "" };
    // A key of its own, given to notula: logout forgets it and never revokes it.
    const { key } = await admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      "laptop",
      "--scopes",
      "notes,users",
      "--json",
    ]);
    const login = await cli(["login", server.url, "--with-token"], `${key}\n`, base);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(
      /Notice: no system keychain is available, so the key is stored in .*credentials\.json/,
    );
    const file = path.join(cfg, "notula", "credentials.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const me = await cli(["me", "--json"], undefined, base);
    expect(JSON.parse(me.stdout).user.email).toBe("admin@notula.local");
    // gh's names: `auth token` prints the key commands use; `auth login` is `login`.
    const token = await cli(["auth", "token"], undefined, base);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout).toBe(`${key}\n`);
    const profiles = await cli(["profiles", "list", "--json"], undefined, base);
    expect(JSON.parse(profiles.stdout).items).toEqual([{ name: "default", server: server.url, active: true }]);
    expect(
      (await cli(["login", "http://127.0.0.1:9", "--with-token", "--profile", "dead"], "ntl_x\n", base)).code,
    ).toBe(1);
    expect((await cli(["profiles", "use", "nope"], undefined, base)).code).toBe(3);
    // An address or a profile nobody signed in to: an error, and nothing is touched.
    // "No such profile" is one exit code (3, not found) wherever it is said.
    const unknown = await cli(["logout", "http://127.0.0.1:9999"], undefined, base);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/No profile is for http:\/\/127\.0\.0\.1:9999/);
    expect((await cli(["logout", "--profile", "nope"], undefined, base)).code).toBe(3);
    expect((await cli(["profiles", "remove", "nope"], undefined, base)).code).toBe(3);
    expect((await cli(["me"], undefined, base)).code).toBe(0);
    const logout = await cli(["auth", "logout", "--json"], undefined, base);
    expect(logout.code, logout.stderr).toBe(0);
    expect(JSON.parse(logout.stdout)).toEqual({
      profile: "default",
      server: server.url,
      removed: true,
      keyRevoked: null,
      oauthRevoked: null,
      keyKept: true,
      active: "default",
    });
    expect((await cli(["me"], undefined, base)).code).toBe(4);
    // Forgotten here, and still valid on the server: it may be in use elsewhere.
    expect((await client(server.url, key)("GET", "/v1/me")).status).toBe(200);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({});
  });

  it("keeps a credential per profile: two profiles on one server, --profile and NOTULA_PROFILE select, explicit keys win, a key never goes to another server", async () => {
    const cfg = tempDir("notula-profiles-");
    const base = { XDG_CONFIG_HOME: cfg, NOTULA_API_KEY: "", NOTULA_URL: "", NOTULA_PROFILE: "" };
    const ws = (await client(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
    const created = await admin(server.dataDir, [
      "users",
      "create",
      "--workspace",
      ws,
      "--email",
      "member2@example.com",
      "--name",
      "Member Two",
      "--role",
      "member",
    ]);
    const { key: memberKey } = await admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      "member laptop",
      "--user",
      created.user.id,
      "--scopes",
      "notes",
    ]);
    const { key: adminKey } = await admin(server.dataDir, ["keys", "create", "--name", "admin laptop", "--json"]);
    expect((await cli(["login", server.url, "--with-token"], `${adminKey}\n`, base)).code).toBe(0);
    const work = await cli(["login", server.url, "--with-token", "--profile", "work"], `${memberKey}\n`, base);
    expect(work.code, work.stderr).toBe(0);
    expect(work.stderr).toMatch(/profile "work" is active/);
    const email = async (args: string[], env: Record<string, string> = {}) => {
      const r = await cli([...args, "me", "--json"], undefined, { ...base, ...env });
      return r.code === 0 ? JSON.parse(r.stdout).user.email : `exit ${r.code}: ${r.stderr.trim()}`;
    };
    // The second sign-in did not overwrite the first: each profile answers as its own user.
    expect(await email([])).toBe("member2@example.com");
    expect(await email(["--profile", "default"])).toBe("admin@notula.local");
    expect(await email([], { NOTULA_PROFILE: "default" })).toBe("admin@notula.local");
    // An explicit key wins over any profile; NOTULA_API_KEY too.
    expect(await email(["--profile", "work", "--api-key", adminKey])).toBe("admin@notula.local");
    expect(await email([], { NOTULA_API_KEY: adminKey })).toBe("admin@notula.local");
    // Another server: the profile's key is not sent there.
    const elsewhere = await email(["--server", "http://127.0.0.1:9"]);
    expect(elsewhere).toMatch(
      /^exit 4: notula: Profile "work" is for .*, not http:\/\/127\.0\.0\.1:9, and its key is never sent elsewhere/,
    );
    expect(await email(["--profile", "nope"])).toMatch(/^exit 4: notula: No profile "nope": `notula profiles list`/);

    const status = await cli(["auth", "status", "--json"], undefined, base);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({
      items: [
        {
          name: "default",
          server: server.url,
          active: false,
          selected: false,
          signedIn: true,
          method: "api-key",
          apiKey: "file",
          oauth: null,
        },
        {
          name: "work",
          server: server.url,
          active: true,
          selected: true,
          signedIn: true,
          method: "api-key",
          apiKey: "file",
          oauth: null,
        },
      ],
      selected: "work",
      // The credential in use is checked on the server, as gh checks its token.
      using: { source: 'profile "work"', server: server.url, valid: true, user: expect.stringContaining("Member Two") },
    });
    const withEnv = JSON.parse(
      (await cli(["auth", "status", "--json"], undefined, { ...base, NOTULA_API_KEY: adminKey })).stdout,
    );
    expect(withEnv.using).toMatchObject({ source: "NOTULA_API_KEY", server: server.url, valid: true });
    const table = await cli(["auth", "status"], undefined, base);
    expect(table.stdout).toMatch(/\*\s+work\s+http:\/\/127\.0\.0\.1:\d+\s+api-key\s+file\s+-/);
    expect(table.stderr).toMatch(/Commands use profile "work" for/);

    // Logging out of one profile forgets its key only, and revokes nothing it was given.
    // Signing out of the active profile makes the other one for that server, still signed in, active.
    const out = await cli(["logout", "--profile", "work", "--json"], undefined, base);
    expect(JSON.parse(out.stdout)).toMatchObject({
      profile: "work",
      removed: true,
      keyRevoked: null,
      keyKept: true,
      active: "default",
    });
    expect(await email([])).toBe("admin@notula.local");
    const after = JSON.parse((await cli(["auth", "status", "--json"], undefined, base)).stdout);
    expect(
      after.items.map((p: { name: string; signedIn: boolean; method: string | null; active: boolean }) => [
        p.name,
        p.signedIn,
        p.method,
        p.active,
      ]),
    ).toEqual([
      ["default", true, "api-key", true],
      ["work", false, null, false],
    ]);
    expect((await cli(["auth", "status", "--profile", "work"], undefined, base)).stdout).toMatch(
      /work\s+\S+\s+signed out/,
    );
    expect((await client(server.url, memberKey)("GET", "/v1/me")).status).toBe(200);
    expect(await email(["--profile", "default"])).toBe("admin@notula.local");
    expect(await email(["--profile", "work"])).toMatch(/^exit 4/);
    // Signed out, `auth status` says so and fails, as gh's does.
    const signedOut = await cli(["auth", "status", "--profile", "work"], undefined, base);
    expect(signedOut.code).toBe(4);
    expect(signedOut.stderr).toMatch(/Not signed in to http/);
    // A key revoked on the server is not "fine": the server is asked.
    const { key: doomed, id: doomedId } = await admin(server.dataDir, ["keys", "create", "--name", "doomed"]);
    const live = await cli(["auth", "status"], undefined, { ...base, NOTULA_API_KEY: doomed });
    expect(live.code, live.stderr).toBe(0);
    await admin(server.dataDir, ["keys", "revoke", doomedId]);
    const revoked = await cli(["auth", "status"], undefined, { ...base, NOTULA_API_KEY: doomed });
    expect(revoked.code).toBe(4);
    expect(revoked.stderr).toMatch(/does not work on http.*: the server refuses it/);
    // A profile removed is forgotten with its key; another becomes active.
    const removed = await cli(["profiles", "remove", "default", "--json"], undefined, base);
    expect(removed.code, removed.stderr).toBe(0);
    // Its key was given to notula (--with-token): forgotten, not revoked.
    expect(JSON.parse(removed.stdout)).toMatchObject({
      removedProfile: "default",
      keyRevoked: null,
      keyKept: true,
      active: "work",
    });
    expect(JSON.parse((await cli(["profiles", "list", "--json"], undefined, base)).stdout).items).toEqual([
      { name: "work", server: server.url, active: true },
    ]);
    expect(await email(["--profile", "default"])).toMatch(/^exit 4/);
    expect((await client(server.url, adminKey)("GET", "/v1/me")).status).toBe(200);
    expect((await cli(["profiles", "remove", "default"], undefined, base)).code).toBe(3);
  });

  it("two profiles on two servers never cross: each command goes to its profile's server with its profile's key", async () => {
    const other = await startServer({ args: ["--no-rate-limit"] });
    try {
      const cfg = tempDir("notula-two-servers-");
      const base = { XDG_CONFIG_HOME: cfg, NOTULA_API_KEY: "", NOTULA_URL: "", NOTULA_PROFILE: "" };
      expect((await cli(["login", server.url, "--with-token", "--profile", "a"], `${server.key}\n`, base)).code).toBe(
        0,
      );
      expect((await cli(["login", other.url, "--with-token", "--profile", "b"], `${other.key}\n`, base)).code).toBe(0);
      const workspaceOf = async (profile: string) =>
        JSON.parse((await cli(["me", "--json", "--profile", profile], undefined, base)).stdout).workspace.id;
      const [wsA, wsB] = [
        (await client(server.url, server.key)("GET", "/v1/me")).body.workspace.id,
        (await client(other.url, other.key)("GET", "/v1/me")).body.workspace.id,
      ];
      expect(await workspaceOf("a")).toBe(wsA);
      expect(await workspaceOf("b")).toBe(wsB);
      // Profile a pointed at b's server: a's key is not sent there.
      const crossed = await cli(["me", "--profile", "a", "--server", other.url], undefined, base);
      expect(crossed.code).toBe(4);
      // An address with no profile named finds the profile for it: b is active, yet
      // --server (or NOTULA_URL) with a's address answers as a, with a's key.
      const byAddress = async (args: string[], env: Record<string, string> = {}) => {
        const r = await cli(["me", "--json", ...args], undefined, { ...base, ...env });
        return r.code === 0 ? JSON.parse(r.stdout).workspace.id : `exit ${r.code}: ${r.stderr.trim()}`;
      };
      expect(await byAddress(["--server", server.url])).toBe(wsA);
      expect(await byAddress([], { NOTULA_URL: server.url })).toBe(wsA);
      expect(await byAddress([])).toBe(wsB);
      // Signing in to a second server without naming a profile makes a second profile
      // (named for its host), and leaves the first alone.
      const fresh = { ...base, XDG_CONFIG_HOME: tempDir("notula-two-servers-unnamed-") };
      expect((await cli(["login", server.url, "--with-token"], `${server.key}\n`, fresh)).code).toBe(0);
      expect((await cli(["login", other.url, "--with-token"], `${other.key}\n`, fresh)).code).toBe(0);
      const listed = JSON.parse((await cli(["profiles", "list", "--json"], undefined, fresh)).stdout).items;
      expect(listed).toEqual([
        { name: "default", server: server.url, active: false },
        { name: new URL(other.url).host, server: other.url, active: true },
      ]);
      const emailOf = async (profile: string) =>
        JSON.parse((await cli(["me", "--json", "--profile", profile], undefined, fresh)).stdout).workspace.id;
      expect(await emailOf("default")).toBe(wsA);
      expect(await emailOf(new URL(other.url).host)).toBe(wsB);
      // Signing in again to the first server goes to its own profile.
      expect((await cli(["login", server.url, "--with-token"], `${server.key}\n`, fresh)).stderr).toMatch(
        /profile "default" is active/,
      );
      expect(crossed.stderr).toContain(`Profile "a" is for ${server.url}, not ${other.url}`);
    } finally {
      await other.stop();
    }
  });

  it("moves a key stored by server address (earlier versions) to the profile of that server", async () => {
    const cfg = tempDir("notula-legacy-");
    const base = { XDG_CONFIG_HOME: cfg, NOTULA_API_KEY: "", NOTULA_URL: "", NOTULA_PROFILE: "" };
    fs.mkdirSync(path.join(cfg, "notula"), { recursive: true });
    fs.writeFileSync(
      path.join(cfg, "notula", "profiles.json"),
      JSON.stringify({ active: "default", profiles: { default: { server: server.url } } }),
    );
    fs.writeFileSync(path.join(cfg, "notula", "credentials.json"), JSON.stringify({ [server.url]: server.key }), {
      mode: 0o600,
    });
    const me = await cli(["me", "--json"], undefined, base);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(cfg, "notula", "credentials.json"), "utf8"))).toEqual({
      "profile:default": server.key,
    });
  });

  it("without a terminal, login needs --with-token", async () => {
    const r = await cli(["login", server.url], "", { NOTULA_API_KEY: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-token/);
  });
});
