// The client commands' own logic, called as tests call any function: each verb's
// run(input, deps) against a fake API client that records what it is asked and
// answers what the server would. The spawned-binary tests (client.test.ts and
// others) cover the wiring to a real server; this covers every branch cheaply.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import type { EndpointName } from "../../src/shared/api/endpoints.js";
import type { ApiClient } from "../../src/cli/lib/api-client.js";
import { CliError, EXIT } from "../../src/cli/exit.js";
import { under, type Deps } from "../../src/cli/lib/command.js";
import * as foldersUpdate from "../../src/cli/commands/folders/update.js";
import * as foldersDelete from "../../src/cli/commands/folders/delete.js";
import * as invitesCreate from "../../src/cli/commands/invites/create.js";
import * as notesList from "../../src/cli/commands/notes/list.js";
import * as notesUpdate from "../../src/cli/commands/notes/update.js";
import * as notesDelete from "../../src/cli/commands/notes/delete.js";
import * as notesShare from "../../src/cli/commands/notes/share.js";
import * as notesSpeakers from "../../src/cli/commands/notes/speakers.js";
import * as notesExport from "../../src/cli/commands/notes/export.js";
import * as notesGet from "../../src/cli/commands/notes/get.js";
import * as webhooksRedeliver from "../../src/cli/commands/webhooks/redeliver.js";
import * as uploadFile from "../../src/cli/commands/upload/file.js";

type Answer = (input: Record<string, unknown> | undefined) => unknown;

/** An API client that answers from `answers` and records every call; an unexpected call fails the test. */
function fakeApi(answers: Partial<Record<EndpointName, Answer>>) {
  const calls: { name: EndpointName; input: Record<string, unknown> | undefined }[] = [];
  const api = {
    baseUrl: "http://notula.test",
    async call(name: EndpointName, input?: Record<string, unknown>) {
      calls.push({ name, input });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected call ${name}`);
      return answer(input);
    },
  } as unknown as ApiClient;
  const deps: Deps = { api, server: "http://notula.test", json: false };
  return { deps, calls };
}

/** The usage error `fn` throws (at once, or as its promise's rejection), or a failure if it throws none. */
async function usageError(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).code).toBe(EXIT.usage);
    return (err as Error).message;
  }
  throw new Error("expected a usage error");
}

const note = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  title: `Note ${id}`,
  createdAt: "2026-11-02T10:00:00.000Z",
  updatedAt: "2026-11-02T10:00:00.000Z",
  status: "completed",
  tags: [],
  transcripts: [],
  summary: "",
  totalDurationSec: 0,
  shareUrl: null,
  ...over,
});

describe("client commands, run against a fake API", () => {
  it("notes list --all walks every page, 100 at a time, from the offset given", async () => {
    const pages: Record<string, { items: unknown[]; nextOffset: number | null }> = {
      "5": { items: [note("a"), note("b")], nextOffset: 105 },
      "105": { items: [note("c")], nextOffset: null },
    };
    const { deps, calls } = fakeApi({
      listNotes: (input) => {
        const q = input!.query as { offset: string; limit: string };
        expect(q.limit).toBe("100");
        const page = pages[q.offset];
        return { items: page.items, pagination: { limit: 100, nextOffset: page.nextOffset, isLast: !page.nextOffset } };
      },
    });
    const r = await notesList.run({ all: true, offset: "5", status: "completed", folder: ["f1"] }, deps);
    expect(r.items.map((n) => n.id)).toEqual(["a", "b", "c"]);
    expect(r.pagination).toEqual({ limit: 100, nextOffset: null, isLast: true });
    expect(calls).toHaveLength(2);
    expect(calls[0].input!.query).toMatchObject({ status: "completed", folderIds: ["f1"] });
  });

  it("notes update sends only what was given; --no-folders empties them; nothing given is a usage error", async () => {
    const { deps, calls } = fakeApi({ updateNote: () => ({ note: note("n1") }) });
    await notesUpdate.run({ id: "n1", title: "New", folders: false }, deps);
    expect(calls[0].input).toEqual({ params: { id: "n1" }, body: { title: "New", folderIds: [] } });
    expect(await usageError(() => notesUpdate.run({ id: "n1" }, deps))).toMatch(/Nothing to change/);
    expect(calls).toHaveLength(1);
  });

  it("notes delete asks nothing with --yes, and names what is lost otherwise (refusing without a terminal)", async () => {
    const { deps, calls } = fakeApi({
      deleteNote: () => ({ message: "deleted" }),
      getNote: () => ({ note: note("n1", { summary: "S", totalDurationSec: 30 }) }),
    });
    await notesDelete.run({ id: "n1", yes: true }, deps);
    expect(calls.map((c) => c.name)).toEqual(["deleteNote"]);
    const message = await usageError(() => notesDelete.run({ id: "n1" }, deps));
    expect(message).toMatch(/Delete "Note n1" \(2026-11-02 10:00\)\? Its summary, recording will be lost/);
    expect(message).toMatch(/--yes/);
    expect(calls.map((c) => c.name)).toEqual(["deleteNote", "getNote"]);
  });

  it("notes share prints a public note's link, makes it public on request, and explains a private one", async () => {
    const { deps, calls } = fakeApi({
      getNote: () => ({ note: note("n1") }),
      updateNote: () => ({ note: note("n1", { shareUrl: "http://notula.test/s/abc" }) }),
    });
    expect(await usageError(() => notesShare.run({ id: "n1" }, deps))).toMatch(/--make-public/);
    expect(await notesShare.run({ id: "n1", makePublic: true }, deps)).toEqual({
      id: "n1",
      shareUrl: "http://notula.test/s/abc",
    });
    expect(calls[1].input).toEqual({ params: { id: "n1" }, body: { visibility: "public" } });
  });

  it("notes speakers lists, renames with a name of several words or an email, clears, and refuses the rest", async () => {
    const { deps, calls } = fakeApi({
      listSpeakers: () => ({ speakers: [] }),
      renameSpeaker: () => ({ speakers: [] }),
    });
    await notesSpeakers.run({ id: "n1" }, deps);
    await notesSpeakers.run({ id: "n1", action: "rename", label: "A", name: ["Ana", "Silva"] }, deps);
    await notesSpeakers.run({ id: "n1", action: "rename", label: "B", email: "b@x.org" }, deps);
    await notesSpeakers.run({ id: "n1", action: "rename", label: "C", clear: true }, deps);
    expect(calls.map((c) => c.input!.body)).toEqual([
      undefined,
      { label: "A", name: "Ana Silva" },
      { label: "B", email: "b@x.org" },
      { label: "C", name: null },
    ]);
    expect(await usageError(() => notesSpeakers.run({ id: "n1", action: "merge" }, deps))).toMatch(
      /only one is rename/,
    );
    expect(await usageError(() => notesSpeakers.run({ id: "n1", action: "rename" }, deps))).toMatch(/speaker label/);
    expect(await usageError(() => notesSpeakers.run({ id: "n1", action: "rename", label: "A" }, deps))).toMatch(
      /name, --email or --clear/,
    );
  });

  it("notes export writes one file per note the filters match, or returns them for standard output", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-export-"));
    const { deps } = fakeApi({
      listNotes: () => ({
        items: [note("a"), note("b")],
        pagination: { limit: 100, nextOffset: null, isLast: true },
      }),
      getNote: (input) => ({ note: note((input!.params as { id: string }).id) }),
    });
    const written = await notesExport.run({ out: dir, format: "json", folder: ["f1"] }, deps);
    expect("files" in written && written.files.map((f) => path.basename(f))).toHaveLength(2);
    for (const file of "files" in written ? written.files : [])
      expect(JSON.parse(fs.readFileSync(file, "utf8")).id).toMatch(/^[ab]$/);
    const printed = await notesExport.run({ id: "a", out: "-", format: "markdown" }, deps);
    expect("notes" in printed && printed.notes.map((n) => n.id)).toEqual(["a"]);
    expect(await usageError(() => notesExport.run({ out: dir, format: "pdf" }, deps))).toMatch(
      /--format: one of markdown, txt, vtt, srt, json; got "pdf"/,
    );
  });

  it("checks --format before connecting: a bad one is a usage error even without credentials", async () => {
    expect(await usageError(() => notesGet.validate({ id: "n1", format: "yaml", pager: false }))).toMatch(
      /one of text, markdown, json/,
    );
    expect(await usageError(() => uploadFile.validate({ file: "/nonexistent.m4a" }))).toMatch(/No file/);
    const txt = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "notula-up-")), "notes.txt");
    fs.writeFileSync(txt, "x");
    expect(await usageError(() => uploadFile.validate({ file: txt }))).toMatch(/extension must be one of/);
  });

  it("folders update refuses contradictions and empty changes, and takes --template none as the default", async () => {
    const { deps, calls } = fakeApi({ updateFolder: () => ({ folder: { id: "f1" } }) });
    expect(await usageError(() => foldersUpdate.run({ id: "f1", private: true, shared: true }, deps))).toMatch(
      /not both/,
    );
    expect(await usageError(() => foldersUpdate.run({ id: "f1" }, deps))).toMatch(/Nothing to change/);
    await foldersUpdate.run({ id: "f1", template: "none", root: true }, deps);
    expect(calls).toHaveLength(1);
    expect(calls[0].input!.body).toMatchObject({ templateId: null, parentFolderId: null });
  });

  it("invites create needs an email or --link, and sends a link invite with no email", async () => {
    const { deps, calls } = fakeApi({ createInvite: () => ({ invite: { id: "inv_1" } }) });
    expect(await usageError(() => invitesCreate.run({ role: "member" }, deps))).toMatch(/--email, or --link/);
    await invitesCreate.run({ role: "admin", link: true, folder: ["f1"] }, deps);
    expect(calls[0].input!.body).toEqual({ email: null, role: "admin", isUrlInvite: true, folderIds: ["f1"] });
  });
});

describe("the command kit", () => {
  it("gives a verb its named arguments and flags as one input, runs it with its deps and renders the result", async () => {
    const { deps, calls } = fakeApi({
      renameSpeaker: () => ({ speakers: [] }),
      deleteFolder: () => ({ message: "ok" }),
      redeliverWebhook: () => ({ message: "queued" }),
    });
    const program = new Command().exitOverride().option("--json");
    under(program.command("notes"), () => deps, [notesSpeakers]);
    under(program.command("folders"), () => deps, [foldersDelete]);
    under(program.command("webhooks"), () => deps, [webhooksRedeliver]);
    const rendered: unknown[] = [];
    const write = process.stdout.write;
    const errWrite = process.stderr.write;
    process.stdout.write = ((s: string) => rendered.push(s) > 0) as typeof process.stdout.write;
    process.stderr.write = ((s: string) => rendered.push(s) > 0) as typeof process.stderr.write;
    try {
      await program.parseAsync(["notes", "speakers", "n1", "rename", "SPEAKER_00", "Ana", "Silva"], { from: "user" });
      await program.parseAsync(["folders", "delete", "f9", "--yes"], { from: "user" });
      await program.parseAsync(["webhooks", "redeliver", "dlv_1"], { from: "user" });
      await program.parseAsync(["--json", "webhooks", "redeliver", "dlv_2"], { from: "user" });
    } finally {
      process.stdout.write = write;
      process.stderr.write = errWrite;
    }
    expect(calls.map((c) => c.input)).toEqual([
      { params: { id: "n1" }, body: { label: "SPEAKER_00", name: "Ana Silva" } },
      { params: { id: "f9" } },
      { params: { id: "dlv_1" } },
      { params: { id: "dlv_2" } },
    ]);
    expect(rendered).toContain("Deleted f9.\n");
    expect(rendered.some((s) => String(s).includes("Queued dlv_1 for delivery"))).toBe(true);
    // Under --json the result itself is printed, not the sentence.
    expect(rendered).toContain(JSON.stringify({ message: "queued" }, null, 2) + "\n");
  });
});
