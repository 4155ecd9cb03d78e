// notula notes transcript, against a real server: the lines with their ids, a line's
// words and speaker corrected, a line split and deleted; a stale --version refused with
// the reason.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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
  const made = await api("POST", "/v1/notes", {
    title: "Menu review",
    transcripts: [
      ["Ana", "The menu from Jon Snow is ready."],
      ["Ana", "Thank you for watching."],
      ["Speaker 2", "I will test it on Friday and then we ship it."],
    ].map(([speaker, text], i) => ({
      speaker,
      text,
      startTimestamp: `00:0${i * 3}`,
      endTimestamp: `00:0${i * 3 + 2}`,
    })),
  });
  noteId = made.body.note.id;
  expect((await waitForStatus(api, noteId)).status).toBe("completed");
});
afterAll(() => server?.stop());

const cli = (args: string[]) => run(args, { env });
/** The lines a command printed under --json. */
const json = async (args: string[]) => {
  const r = await cli([...args, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).items;
};

describe("notula notes transcript", () => {
  it("lists the lines with their ids, and corrects, splits and deletes them", async () => {
    const table = await cli(["notes", "transcript", noteId]);
    expect(table.code, table.stderr).toBe(0);
    // Piped, one line per row, tab-separated: id, time, speaker, words.
    expect(table.stdout.trim().split("\n")[0]).toMatch(/^seg_\S+\t00:00\tAna\tThe menu from Jon Snow is ready\.$/);
    const lines = await json(["notes", "transcript", noteId]);
    expect(lines.map((l: any) => l.text)).toEqual([
      "The menu from Jon Snow is ready.",
      "Thank you for watching.",
      "I will test it on Friday and then we ship it.",
    ]);
    const [menu, invented, test] = lines;

    const edited = await json([
      "notes",
      "transcript",
      noteId,
      "edit",
      menu.id,
      "--text",
      "The menu from John Snow is ready.",
    ]);
    expect(edited).toEqual([
      expect.objectContaining({ id: menu.id, version: 1, text: "The menu from John Snow is ready." }),
    ]);
    const given = await json(["notes", "transcript", noteId, "edit", test.id, "--speaker", "Tom"]);
    expect(given[0]).toMatchObject({ speaker: "Tom" });
    const split = await json(["notes", "transcript", noteId, "split", test.id, "--at-word", "6"]);
    expect(split.map((l: any) => l.text)).toEqual(["I will test it on Friday", "and then we ship it."]);
    const gone = await cli(["notes", "transcript", noteId, "delete", invented.id]);
    expect(gone.code, gone.stderr).toBe(0);

    const now = await json(["notes", "transcript", noteId]);
    expect(now.map((l: any) => `${l.speaker}: ${l.text}`)).toEqual([
      "Ana: The menu from John Snow is ready.",
      "Tom: I will test it on Friday",
      "Tom: and then we ship it.",
    ]);
    // Search finds the corrected name.
    const found = await json(["notes", "search", "John", "--mode", "fulltext"]);
    expect(JSON.stringify(found)).toContain(noteId);
  });

  it("refuses a stale --if-version with the reason, and names bad flags", async () => {
    const [line] = await json(["notes", "transcript", noteId]);
    const stale = await cli(["notes", "transcript", noteId, "edit", line.id, "--text", "Old.", "--if-version", "0"]);
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toMatch(/changed since version 0/);
    for (const [args, message] of [
      [["edit", line.id], /--text, --speaker/],
      [["split", line.id], /--at-word/],
      [["split", line.id, "--at-word", "x"], /--at-word must be a whole number/],
      [["fix", line.id], /Unknown action "fix"/],
      [["edit"], /Name the line/],
    ] as [string[], RegExp][]) {
      const r = await cli(["notes", "transcript", noteId, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const missing = await cli(["notes", "transcript", noteId, "delete", "seg_nosuch"]);
    expect(missing.code).toBe(3);
  });
});

describe("notula notes edit and update, for what the machine wrote", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "notula-cli-edit-"));
  /** An editor that rewrites the file it is given, as a person would, and says what it saw. */
  const editor = (script: string) => {
    const file = path.join(work, `editor-${Math.random().toString(36).slice(2)}.sh`);
    fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return file;
  };

  it("opens the part in $EDITOR and saves what it leaves there; nothing changed, nothing saved", async () => {
    const seen = path.join(work, "seen.md");
    const ed = editor(`cp "$1" ${seen}; printf '## Decisions\\n- Ship on Friday\\n' > "$1"`);
    const r = await run(["notes", "edit", noteId, "--part", "enhanced"], { env: { ...env, EDITOR: ed, VISUAL: "" } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Saved note_/);
    const note = (await api("GET", `/v1/notes/${noteId}`)).body.note;
    expect(note.enhancedNote).toBe("## Decisions\n- Ship on Friday\n");
    expect(note.textEditedAt).not.toBeNull();
    // VISUAL over EDITOR, with arguments of its own; an editor that leaves the text as it was saves nothing.
    const same = await run(["notes", "edit", noteId, "--part", "summary"], {
      env: { ...env, VISUAL: `${editor('test "$1" = "$2"')} "$1"`, EDITOR: "false" },
    });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toMatch(/No change/);
    // An editor that fails saves nothing, and says so.
    const failed = await run(["notes", "edit", noteId], { env: { ...env, EDITOR: "false", VISUAL: "" } });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/exited with 1: nothing was saved/);
    expect(await cli(["notes", "edit", noteId, "--part", "title"])).toMatchObject({ code: 2 });
  });

  it("replaces the summary and the enhanced note from files, or from standard input", async () => {
    const file = path.join(work, "summary.md");
    fs.writeFileSync(file, "We ship on Friday.");
    const r = await cli(["notes", "update", noteId, "--summary-file", file]);
    expect(r.code, r.stderr).toBe(0);
    const piped = await run(["notes", "update", noteId, "--enhanced-file", "-"], {
      env,
      input: "## Notes\n- from stdin",
    });
    expect(piped.code, piped.stderr).toBe(0);
    const note = (await api("GET", `/v1/notes/${noteId}`)).body.note;
    expect([note.summary, note.enhancedNote]).toEqual(["We ship on Friday.", "## Notes\n- from stdin"]);
  });
});
