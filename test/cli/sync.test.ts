// A folder of markdown kept in step with the notes (`notula notes sync`), against a real
// server: the first run writes a file per note under a directory per folder; a run again
// writes nothing; a change, a rename, a refiling and a deletion each show in the folder;
// a file edited in the folder is never overwritten or removed; --watch follows changes
// as they happen.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { BIN, cliEnv, run, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";
import { waitForStatus } from "../helpers/flow.js";

vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
let api: Client;
const vault = path.join(tempDir("notula-sync-"), "Meetings");
const ids: Record<string, string> = {};
let board: { id: string };

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  const me = (await api("GET", "/v1/me")).body;
  board = (await api("POST", "/v1/folders", { name: "Board: 2026", ownerUserId: me.user.id })).body.folder;
  const make = async (key: string, body: Record<string, unknown>) =>
    (ids[key] = (await api("POST", "/v1/notes", body)).body.note.id);
  await make("standup", { title: "Standup", userWrittenNote: "Ship the importer." });
  await make("budget", {
    title: "Budget review",
    folderIds: [board.id],
    participants: [{ name: "Ana Lopez", email: "ana@acme.example" }],
  });
  await make("retro", { title: "Retro", userWrittenNote: "Fewer meetings." });
  // Notes made from text are summarised in the background: the folder is compared once that is done.
  for (const id of Object.values(ids)) await waitForStatus(api, id);
});
afterAll(async () => {
  await server?.stop();
});

type Item = { noteId: string; file: string; status: string; reason: string | null };
const syncing = async (...args: string[]) => {
  const r = await run(["notes", "sync", vault, ...args, "--json"], { env: cliEnv(server) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).items as Item[];
};
const statusOf = (items: Item[]) => Object.fromEntries(items.map((x) => [x.noteId, x.status]));
const filesIn = (dir: string): string[] =>
  (fs.readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile() && !f.startsWith("."))
    .sort();
const read = (file: string) => fs.readFileSync(path.join(vault, file), "utf8");

describe("notula notes sync", () => {
  it("writes a file per note, under a directory per folder, and nothing on a run again", async () => {
    const first = await syncing("--wiki-links");
    expect(statusOf(first)).toEqual({ [ids.standup]: "written", [ids.budget]: "written", [ids.retro]: "written" });
    const today = new Date().toISOString().slice(0, 10);
    expect(filesIn(vault)).toEqual(
      [
        `Board- 2026/${today}-budget-review-${ids.budget}.md`,
        `${today}-retro-${ids.retro}.md`,
        `${today}-standup-${ids.standup}.md`,
      ].sort(),
    );
    const budget = first.find((x) => x.noteId === ids.budget)!.file;
    expect(read(budget)).toContain('participants: ["[[Ana Lopez]]"]');
    expect(read(budget)).toContain('folders: ["Board: 2026"]');
    expect(read(budget)).toContain(`link: "${server.url}/notes/${ids.budget}"`);

    const mtimes = filesIn(vault).map((f) => fs.statSync(path.join(vault, f)).mtimeMs);
    const again = await syncing("--wiki-links");
    expect(new Set(again.map((x) => x.status))).toEqual(new Set(["unchanged"]));
    expect(filesIn(vault).map((f) => fs.statSync(path.join(vault, f)).mtimeMs)).toEqual(mtimes);
  });

  it("writes a change, moves a renamed or refiled note, removes a deleted one, and keeps a file edited here", async () => {
    const before = Object.fromEntries((await syncing()).map((x) => [x.noteId, x.file]));
    await api("PATCH", `/v1/notes/${ids.standup}`, { userWrittenNote: "Ship the importer on Friday." });
    await api("PATCH", `/v1/notes/${ids.retro}`, { title: "Retrospective", folderIds: [board.id] });
    await api("DELETE", `/v1/notes/${ids.budget}`);

    const items = await syncing();
    expect(statusOf(items)).toEqual({ [ids.standup]: "written", [ids.retro]: "moved", [ids.budget]: "removed" });
    expect(read(before[ids.standup])).toContain("Ship the importer on Friday.");
    const retro = items.find((x) => x.noteId === ids.retro)!;
    expect(retro.file).toMatch(new RegExp(`^Board- 2026/\\d{4}-\\d\\d-\\d\\d-retrospective-${ids.retro}\\.md$`));
    expect(retro.reason).toBe(before[ids.retro]);
    expect(fs.existsSync(path.join(vault, before[ids.retro]))).toBe(false);
    expect(fs.existsSync(path.join(vault, before[ids.budget]))).toBe(false);
    expect(filesIn(vault)).toEqual([retro.file, before[ids.standup]].sort());

    // Someone's own lines in the vault: neither a change on the server nor a deletion takes them.
    fs.appendFileSync(path.join(vault, before[ids.standup]), "\nMy own follow-up.\n");
    await api("PATCH", `/v1/notes/${ids.standup}`, { title: "Daily standup" });
    expect(statusOf(await syncing())[ids.standup]).toBe("kept");
    await api("DELETE", `/v1/notes/${ids.standup}`);
    const kept = (await syncing()).find((x) => x.noteId === ids.standup)!;
    expect(kept).toMatchObject({ status: "kept", reason: "the note was deleted; edited in the folder" });
    expect(read(before[ids.standup])).toContain("My own follow-up.");
  });

  it("refuses a folder kept for another server, and an interval without --watch", async () => {
    const other = await run(["notes", "sync", vault, "--server", "http://127.0.0.1:9"], { env: cliEnv(server) });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`is kept in step with ${server.url}, not http://127.0.0.1:9`);
    const interval = await run(["notes", "sync", vault, "--interval", "5"], { env: cliEnv(server) });
    expect(interval.code).toBe(2);
    expect(interval.stderr).toContain("--interval is for --watch.");
  });

  it("follows changes as they happen with --watch", async () => {
    const dir = tempDir("notula-sync-watch-");
    const watcher = spawn(process.execPath, [BIN, "notes", "sync", dir, "--watch", "--interval", "1", "--json"], {
      env: { ...process.env, ...cliEnv(server) },
    });
    let out = "";
    watcher.stdout.on("data", (c: Buffer) => (out += c.toString()));
    try {
      const { note } = (await api("POST", "/v1/notes", { title: "Planning", userWrittenNote: "First draft." })).body;
      const holds = (text: string) => () =>
        filesIn(dir).some((f) => fs.readFileSync(path.join(dir, f), "utf8").includes(text));
      await until("the new note in the folder", holds("First draft."), 60_000);
      await api("PATCH", `/v1/notes/${note.id}`, { userWrittenNote: "Second draft." });
      await until("the change in the folder", holds("Second draft."), 60_000);
      await api("DELETE", `/v1/notes/${note.id}`);
      await until("the deleted note's file gone", () => !filesIn(dir).some((f) => f.includes(note.id)), 60_000);
      // Each round that changed something is one line of JSON, printed once the round is
      // done: the note written (again as its summary and the change come), then removed.
      const seenOf = () =>
        out
          .split("\n")
          .slice(0, -1) // whole lines only: the last is empty, or still being written
          .filter(Boolean)
          .flatMap((l) => JSON.parse(l).items as Item[])
          .filter((x) => x.noteId === note.id)
          .map((x) => x.status);
      const seen = await until("the removal said", () => (seenOf().includes("removed") ? seenOf() : null), 60_000);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(new Set(seen.slice(0, -1))).toEqual(new Set(["written"]));
      expect(seen.at(-1)).toBe("removed");
    } finally {
      watcher.kill();
    }
  });
});
