// What the machine wrote, edited by a person, on both databases: the summary and the
// enhanced note take a PATCH (their task lines become the action items, search reads
// them at once); enhancing and processing again then ask before writing them anew, and
// do it when told to, after which nothing stands in their way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { waitForStatus } from "../helpers/flow.js";

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
}, 60_000);
afterAll(() => server?.stop());

async function summarizedNote() {
  const made = await api("POST", "/v1/notes", {
    title: "Launch sync",
    transcripts: [
      { speaker: "Ana", text: "We decided to launch in March.", startTimestamp: "00:00", endTimestamp: "00:09" },
      { speaker: "Ben", text: "I'll send the cost report by Friday.", startTimestamp: "00:10", endTimestamp: "00:19" },
    ],
  });
  expect(made.status, made.text).toBe(200);
  const note = await waitForStatus(api, made.body.note.id);
  expect(note.status).toBe("completed");
  expect(note.textEditedAt).toBeNull();
  return note;
}

describe("editing what the machine wrote", () => {
  it("takes a person's summary and enhanced note, with their task lines as the action items", async () => {
    const note = await summarizedNote();
    const r = await api("PATCH", `/v1/notes/${note.id}`, {
      summary: "The launch moves to April; the zeppelin budget is approved.",
      enhancedNote: "## Action items\n- [ ] Ben sends the cost report (owner: Ben)\n- [ ] Ana books the venue",
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.note.summary).toBe("The launch moves to April; the zeppelin budget is approved.");
    expect(r.body.note.textEditedAt).toMatch(/^\d{4}-/);
    const items = (await api("GET", `/v1/action-items?noteId=${note.id}`)).body.items;
    expect(items.map((i: any) => i.text)).toEqual(["Ben sends the cost report", "Ana books the venue"]);
    const found = await api("GET", "/v1/search?q=zeppelin&mode=fulltext");
    expect(JSON.stringify(found.body)).toContain(note.id);
    // At the limit, and past it.
    expect((await api("PATCH", `/v1/notes/${note.id}`, { summary: "x".repeat(500_000) })).status).toBe(200);
    const over = await api("PATCH", `/v1/notes/${note.id}`, { summary: "x".repeat(500_001) });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/summary/);
  });

  it("enhancing and processing again ask before replacing a person's edit, and do it when told to", async () => {
    const note = await summarizedNote();
    const edited = "My own summary of the launch.";
    expect((await api("PATCH", `/v1/notes/${note.id}`, { summary: edited })).status).toBe(200);

    const enhance = await api("POST", `/v1/notes/${note.id}/enhance`, {});
    expect(enhance.status).toBe(409);
    expect(enhance.body.error.message).toMatch(/summary and enhanced note as a person edited them.*discardEdits=true/);
    const reprocess = await api("POST", `/v1/notes/${note.id}/reprocess`);
    expect(reprocess.status).toBe(409);
    expect((await api("GET", `/v1/notes/${note.id}`)).body.note.summary).toBe(edited);

    const told = await api("POST", `/v1/notes/${note.id}/enhance`, { discardEdits: true });
    expect(told.status, told.text).toBe(200);
    const again = await waitForStatus(api, note.id);
    expect(again.summary).not.toBe(edited);
    expect(again.textEditedAt).toBeNull();
    // Written anew by the machine: processing again asks nothing now.
    expect((await api("POST", `/v1/notes/${note.id}/reprocess`)).status).toBe(200);
    await waitForStatus(api, note.id);
    // A flag that is no yes or no is refused by name.
    expect((await api("POST", `/v1/notes/${note.id}/enhance`, { discardEdits: "yes" })).status).toBe(400);
  });
});
