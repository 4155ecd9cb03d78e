// notula actions, as a person at a terminal and a script run it, against a real server:
// the action items of the meetings listed (mine, open, a note's), ticked done and open
// again, given to someone with a day; --json for scripts, bad flags named.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { run, startServer, type TestServer, cliEnv } from "../helpers/server.js";
import { waitForStatus } from "../helpers/flow.js";

let server: TestServer;
let api: Client;
let env: Record<string, string>;
let noteId: string;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  env = cliEnv(server);
  const me = (await api("GET", "/v1/me")).body.user;
  const made = await api("POST", "/v1/notes", {
    title: "Launch sync",
    participants: [{ name: me.name, email: me.email }],
    transcripts: [
      { speaker: "Ana", text: "We decided to launch in March.", startTimestamp: "00:00", endTimestamp: "00:09" },
      {
        speaker: me.name,
        text: "I'll send the cost report by Friday.",
        startTimestamp: "00:10",
        endTimestamp: "00:19",
      },
      { speaker: "Ana", text: "Tom will fix the login bug.", startTimestamp: "00:20", endTimestamp: "00:29" },
    ],
  });
  noteId = made.body.note.id;
  expect((await waitForStatus(api, noteId)).status).toBe("completed");
});
afterAll(() => server?.stop());

const cli = (args: string[]) => run(args, { env });
const json = async (args: string[]) => {
  const r = await cli([...args, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe("notula actions", () => {
  it("lists the meetings' action items as a table, and as JSON for scripts", async () => {
    const table = await cli(["actions", "list"]);
    expect(table.code, table.stderr).toBe(0);
    const rows = table.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t").slice(1));
    expect(rows).toEqual([
      [
        "open",
        "I'll send the cost report by Friday.",
        expect.any(String),
        expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        "Launch sync",
      ],
      ["open", "Tom will fix the login bug.", "Tom", "", "Launch sync"],
    ]);
    const mine = await json(["actions", "list", "--mine", "--open"]);
    expect(mine.items.map((i: { text: string }) => i.text)).toEqual(["I'll send the cost report by Friday."]);
    expect((await json(["actions", "list", "--note", noteId])).items).toHaveLength(2);
  });

  it("ticks one done and open again, and gives one to someone with a day", async () => {
    const [report, bug] = (await json(["actions", "list", "--note", noteId])).items;
    const done = await cli(["actions", "done", report.id]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr + done.stdout).toContain("Done: I'll send the cost report by Friday.");
    expect((await json(["actions", "list", "--open"])).items.map((i: { id: string }) => i.id)).toEqual([bug.id]);
    expect((await json(["actions", "list", "--done"])).items.map((i: { id: string }) => i.id)).toEqual([report.id]);
    expect((await cli(["actions", "reopen", report.id])).code).toBe(0);
    const given = await json(["actions", "assign", bug.id, "--owner", "Ana Silva", "--due", "2026-12-09"]);
    expect(given.actionItem).toMatchObject({ owner: { name: "Ana Silva" }, due: "2026-12-09", done: false });
    const cleared = await json(["actions", "assign", bug.id, "--nobody", "--no-due"]);
    expect(cleared.actionItem).toMatchObject({ owner: null, due: null });
    // The note's line says the same.
    expect((await api("GET", `/v1/notes/${noteId}`)).body.note.enhancedNote).toMatch(
      /^- \[ \] Tom will fix the login bug\. \[00:20\]/m,
    );
  });

  it("names a bad flag, and an item that is not there", async () => {
    const bad = await cli(["actions", "list", "--due-before", "friday"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--due-before");
    const missing = await cli(["actions", "done", "ai_nosuchitem"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/ai_nosuchitem not found/);
  });
});
