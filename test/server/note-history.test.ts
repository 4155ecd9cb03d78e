// A note's history: what people wrote and what the machine wrote anew, each with who
// and when; a person's saves minutes apart are one version, on the injected clock; any
// text version restored (the restore kept as an edit), a line's correction undone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { waitForStatus } from "../helpers/flow.js";

let server: TestServer;
let api: Client;
/** The server's clock: moved on by a test, never the wall's. */
let now = Date.UTC(2026, 11, 3, 10);

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"], clock: () => now });
  api = client(server.url, server.key);
});
afterAll(() => server?.stop());

const TRANSCRIPT = [
  {
    speaker: "Ana",
    text: "We will deploy the new cluster on Tuesday.",
    startTimestamp: "00:00",
    endTimestamp: "00:05",
  },
  { speaker: "Ben", text: "Ben will send the cost report by Friday.", startTimestamp: "00:05", endTimestamp: "00:10" },
];

type Version = {
  id: string;
  part: string;
  writtenBy: string;
  byPerson: boolean;
  content: string | null;
  restorable: boolean;
  line: { change: string; before: { text: string }; after: { text: string } | null } | null;
};
const historyOf = async (id: string): Promise<Version[]> => (await api("GET", `/v1/notes/${id}/history`)).body.items;

describe("a note's history", () => {
  it("keeps what the machine wrote and what a person wrote over it, and restores either", async () => {
    const made = await api("POST", "/v1/notes", { title: "Platform sync", transcripts: TRANSCRIPT });
    const id = made.body.note.id;
    const written = await waitForStatus(api, id, undefined, 60_000);
    let history = await historyOf(id);
    const machine = history.find((v) => v.part === "summary")!;
    expect(machine).toMatchObject({ byPerson: false, writtenBy: "extractive", content: written.summary });
    expect(history.find((v) => v.part === "enhancedNote")?.content).toBe(written.enhancedNote);

    const edited = await api("PATCH", `/v1/notes/${id}`, { summary: "The cluster goes live on Tuesday." });
    expect(edited.status, edited.text).toBe(200);
    history = await historyOf(id);
    expect(history[0]).toMatchObject({ part: "summary", byPerson: true, content: "The cluster goes live on Tuesday." });
    expect(history[0].writtenBy).not.toBe("extractive");
    // The machine's version, restored: the note's summary again, kept as the person's edit.
    const back = await api("POST", `/v1/notes/${id}/history/${machine.id}/restore`);
    expect(back.status, back.text).toBe(200);
    expect(back.body.note.summary).toBe(written.summary);
    history = await historyOf(id);
    expect(history[0]).toMatchObject({ part: "summary", byPerson: true, content: written.summary });
  });

  it("keeps a person's saves of one part minutes apart as one version, and a later one as the next", async () => {
    const made = await api("POST", "/v1/notes", { title: "Notes only", userWrittenNote: "- first" });
    const id = made.body.note.id;
    for (const text of ["- first\n- second", "- first\n- second\n- third"])
      expect((await api("PATCH", `/v1/notes/${id}`, { userWrittenNote: text })).status).toBe(200);
    let mine = (await historyOf(id)).filter((v) => v.part === "userWrittenNote");
    // As it was before the first edit, then the person's saves as one.
    expect(mine.map((v) => v.content)).toEqual(["- first\n- second\n- third", "- first"]);
    // Nine minutes on, still the same version; eleven after that save, a new one.
    now += 9 * 60_000;
    expect((await api("PATCH", `/v1/notes/${id}`, { userWrittenNote: "- nine minutes on" })).status).toBe(200);
    expect((await historyOf(id)).filter((v) => v.part === "userWrittenNote")).toHaveLength(2);
    now += 11 * 60_000;
    expect((await api("PATCH", `/v1/notes/${id}`, { userWrittenNote: "- later" })).status).toBe(200);
    mine = (await historyOf(id)).filter((v) => v.part === "userWrittenNote");
    expect(mine.map((v) => v.content)).toEqual(["- later", "- nine minutes on", "- first"]);
    expect(mine).toHaveLength(3);
  });

  it("keeps each line's correction, and undoes each: an edit, a deletion, a split", async () => {
    const made = await api("POST", "/v1/notes", {
      title: "Corrections",
      transcripts: TRANSCRIPT,
      summary: "Written.",
      enhancedNote: "## Notes\n- written",
    });
    const id = made.body.note.id;
    const lines = made.body.note.transcripts;
    const fixed = await api("PATCH", `/v1/notes/${id}/transcript/${lines[0].id}`, {
      version: 0,
      text: "We will deploy the Kubernetes cluster on Tuesday.",
    });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await api("DELETE", `/v1/notes/${id}/transcript/${lines[1].id}?version=0`)).status).toBe(200);
    const history = await historyOf(id);
    const [deleted, edit] = history;
    expect(deleted.line).toMatchObject({ change: "delete", after: null });
    expect(deleted.restorable).toBe(true);
    expect(edit.line).toMatchObject({
      change: "edit",
      before: { text: "We will deploy the new cluster on Tuesday." },
      after: { text: "We will deploy the Kubernetes cluster on Tuesday." },
    });
    const undone = await api("POST", `/v1/notes/${id}/history/${edit.id}/restore`);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.note.transcripts[0].text).toBe("We will deploy the new cluster on Tuesday.");
    // The deleted line comes back where its time puts it, with its id; search finds it again.
    const back = await api("POST", `/v1/notes/${id}/history/${deleted.id}/restore`);
    expect(back.status, back.text).toBe(200);
    expect(back.body.note.transcripts.map((l: { id: string; text: string }) => [l.id, l.text])).toEqual([
      [lines[0].id, "We will deploy the new cluster on Tuesday."],
      [lines[1].id, "Ben will send the cost report by Friday."],
    ]);
    expect((await historyOf(id))[0]).toMatchObject({ line: { change: "restore" }, restorable: false });
    const found = await api("GET", "/v1/search?q=%22cost%20report%22&mode=fulltext");
    expect(found.body.results.map((r: { note: { id: string } }) => r.note.id)).toContain(id);
    // Put back twice: the line is there already.
    expect((await api("POST", `/v1/notes/${id}/history/${deleted.id}/restore`)).status).toBe(409);

    // A split line is joined again, as it was, while its parts are as the split left them.
    const split = await api("POST", `/v1/notes/${id}/transcript/${lines[1].id}/split`, { version: 1, atWord: 3 });
    expect(split.status, split.text).toBe(200);
    const [splitV] = await historyOf(id);
    expect(splitV).toMatchObject({ line: { change: "split" }, restorable: true });
    const joined = await api("POST", `/v1/notes/${id}/history/${splitV.id}/restore`);
    expect(joined.status, joined.text).toBe(200);
    expect(
      joined.body.note.transcripts.map((l: { text: string; endTimestamp: string }) => [l.text, l.endTimestamp]),
    ).toEqual([
      ["We will deploy the new cluster on Tuesday.", "00:05"],
      ["Ben will send the cost report by Friday.", "00:10"],
    ]);
    // Split again and one part corrected: the join would lose the correction, and is refused.
    const again = await api("POST", `/v1/notes/${id}/transcript/${lines[1].id}/split`, { version: 3, atWord: 3 });
    expect(again.status, again.text).toBe(200);
    const [, rest] = again.body.lines;
    expect(
      (
        await api("PATCH", `/v1/notes/${id}/transcript/${rest.id}`, {
          version: rest.version,
          text: "send the budget by Friday.",
        })
      ).status,
    ).toBe(200);
    const [, againV] = await historyOf(id);
    expect(againV.line?.change).toBe("split");
    const conflict = await api("POST", `/v1/notes/${id}/history/${againV.id}/restore`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toMatch(/corrected since/);
    expect((await api("POST", `/v1/notes/${id}/history/nv_nosuch/restore`)).status).toBe(404);
    expect((await api("GET", `/v1/notes/${id}/history?limit=0`)).status).toBe(400);
    expect((await api("GET", `/v1/notes/nt_nosuch/history`)).status).toBe(404);
  });
});
