// Action items as things of their own, on both databases: made from a note's task
// lines (by the offline summary here), each with its owner (a member where the name is
// a participant's whose address is a member's), due date and moment; listed across
// meetings (mine, open or done, due before a day, a note's, a page at a time); ticked
// and reassigned, the note's line following; kept through a reprocess, and 404 once
// a rewrite removes them; carried by the note.completed webhook.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, errorCode, type Client } from "../helpers/http.js";
import { addMember, type AddedMember } from "../helpers/members.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { waitForStatus } from "../helpers/flow.js";
import { until } from "../helpers/until.js";

let server: TestServer;
let api: Client;
let david: AddedMember;
let davidApi: Client;
let receiver: http.Server;
const events: { type: string; payload: any }[] = [];
/** Wednesday 2 December 2026, 10:00: what the server's clock says. */
let now = Date.parse("2026-12-02T10:00:00Z");

const transcripts = [
  ["Sarah", "Good afternoon everyone, thanks for joining."],
  ["David", "The cloud costs went up by forty percent last month."],
  ["Sarah", "We decided to move the launch to March."],
  ["David", "I'll send the cost report by Friday."],
  ["Sarah", "Tom, can you fix the login bug before the launch?"],
  ["Sarah", "Thanks everyone, bye."],
].map(([speaker, text], i) => ({
  speaker,
  text,
  startTimestamp: `00:${String(i * 10).padStart(2, "0")}`,
  endTimestamp: `00:${String(i * 10 + 9).padStart(2, "0")}`,
}));

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      events.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  server = await startServer({ args: ["--no-rate-limit", "--allow-private-webhooks"], clock: () => now });
  api = client(server.url, server.key);
  david = await addMember(server, { name: "David Chen", email: "david@example.com" });
  davidApi = client(server.url, david.key);
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await api("POST", "/v1/integrations/automation/webhook", { hookUrl: hook })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  receiver?.close();
});

async function meeting(title: string) {
  const made = await api("POST", "/v1/notes", {
    title,
    transcripts,
    participants: [
      { name: "David Chen", email: "david@example.com" },
      { name: "Tom Baker", email: "tom@customer.example" },
    ],
  });
  expect(made.status, made.text).toBe(200);
  const note = await waitForStatus(api, made.body.note.id);
  expect(note.status, note.processingError).toBe("completed");
  return note;
}
const itemsOf = async (noteId: string, who: Client = api) =>
  (await who("GET", `/v1/action-items?noteId=${noteId}`)).body.items as any[];

describe("action items", () => {
  it("are the note's tasks, each with its owner, due date and moment, the owner tied to a member by address", async () => {
    const note = await meeting("Weekly sync");
    const items = await itemsOf(note.id);
    expect(items.map((i) => [i.text, i.owner, i.due, i.at, i.done])).toEqual([
      ["I'll send the cost report by Friday.", { name: "David", userId: david.userId }, "2026-12-04", 30, false],
      // Tom is a participant whose address is no member's: named, not tied to anyone.
      ["Tom, can you fix the login bug before the launch?", { name: "Tom", userId: null }, null, 40, false],
    ]);
    expect(items[0].url).toBe(`/notes/${note.id}#t=30`);
    expect(items[0].noteTitle).toBe("Weekly sync");
    // David's own list: assignee=me.
    const mine = (await davidApi("GET", "/v1/action-items?assignee=me")).body.items;
    expect(mine.map((i: any) => i.id)).toEqual([items[0].id]);
    // Exported, a point's moment is a link to the note on this server (Markdown), or its time (text).
    const md = await fetch(`${server.url}/v1/notes/${note.id}/export?format=md`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(await md.text()).toContain(
      `by Friday. (owner: David) (due: 2026-12-04) [00:30](${server.url}/notes/${note.id}#t=30)`,
    );
    const txt = await fetch(`${server.url}/v1/notes/${note.id}/export?format=txt`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(await txt.text()).toContain("by Friday. (owner: David) (due: 2026-12-04) (00:30)");
    // The webhook carries them.
    const completed = await until("note.completed delivered", () =>
      events.find((e) => e.type === "note.completed" && e.payload.note.id === note.id),
    );
    expect(completed.payload.actionItems.map((i: any) => i.id)).toEqual(items.map((i) => i.id));
  });

  it("are ticked done and given to someone else, the note's lines following, and kept so through a reprocess", async () => {
    const note = await meeting("Sync two");
    const [report, bug] = await itemsOf(note.id);
    now += 60_000;
    const ticked = await davidApi("PATCH", `/v1/action-items/${report.id}`, { done: true });
    expect(ticked.status, ticked.text).toBe(200);
    expect(ticked.body.actionItem).toMatchObject({
      done: true,
      doneBy: david.userId,
      doneAt: new Date(now).toISOString(),
    });
    // A day in the past is kept (shown as overdue), never refused.
    const moved = await api("PATCH", `/v1/action-items/${bug.id}`, { owner: "David Chen", due: "2026-11-30" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.actionItem.owner).toEqual({ name: "David Chen", userId: david.userId });
    const lines = (await api("GET", `/v1/notes/${note.id}`)).body.note.enhancedNote.split("\n");
    expect(lines).toContain(
      `- [x] I'll send the cost report by Friday. (owner: David) (due: 2026-12-04) [00:30](/notes/${note.id}#t=30)`,
    );
    expect(lines).toContain(
      `- [ ] Tom, can you fix the login bug before the launch? (owner: David Chen) (due: 2026-11-30) [00:40](/notes/${note.id}#t=40)`,
    );
    // Open and done, due before a day.
    const open = (await api("GET", `/v1/action-items?noteId=${note.id}&status=open`)).body.items;
    expect(open.map((i: any) => i.id)).toEqual([bug.id]);
    const done = (await api("GET", `/v1/action-items?noteId=${note.id}&status=done`)).body.items;
    expect(done.map((i: any) => i.id)).toEqual([report.id]);
    const overdue = (await api("GET", `/v1/action-items?noteId=${note.id}&dueBefore=2026-12-02`)).body.items;
    expect(overdue.map((i: any) => i.id)).toEqual([bug.id]);

    // Processed again: the same items, as they were left.
    expect((await api("POST", `/v1/notes/${note.id}/reprocess`)).status).toBe(200);
    const again = await waitForStatus(api, note.id);
    expect(again.status, again.processingError).toBe("completed");
    const after = await itemsOf(note.id);
    // The soonest due first.
    expect(after.map((i) => [i.id, i.done, i.owner?.name, i.due])).toEqual([
      [bug.id, false, "David Chen", "2026-11-30"],
      [report.id, true, "David", "2026-12-04"],
    ]);
    expect(again.enhancedNote).toMatch(/^- \[x\] I'll send the cost report by Friday\./m);

    // Ticked open again.
    const reopened = await api("PATCH", `/v1/action-items/${report.id}`, { done: false });
    expect(reopened.body.actionItem).toMatchObject({ done: false, doneAt: null, doneBy: null });
    expect((await api("GET", `/v1/notes/${note.id}`)).body.note.enhancedNote).toMatch(
      /^- \[ \] I'll send the cost report by Friday\./m,
    );
  });

  it("an item a rewrite removed is 404, and a change it cannot take is refused by name", async () => {
    const note = await meeting("Sync three");
    const [report] = await itemsOf(note.id);
    for (const [body, field] of [
      [{}, "done, owner or due"],
      [{ done: "yes" }, "done"],
      [{ due: "Friday" }, "due"],
      [{ done: true, colour: "red" }, "colour"],
    ] as const) {
      const r = await api("PATCH", `/v1/action-items/${report.id}`, body);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.message).toContain(field);
    }
    // Written again with a template that has no tasks: the note has none now.
    expect((await api("POST", `/v1/notes/${note.id}/enhance`, { templateId: "tpl_builtin_stand-up" })).status).toBe(
      200,
    );
    expect((await waitForStatus(api, note.id)).status).toBe("completed");
    expect(await itemsOf(note.id)).toEqual([]);
    const gone = await api("PATCH", `/v1/action-items/${report.id}`, { done: true });
    expect(gone.status).toBe(404);
    expect(errorCode(gone)).toBe("not_found");
    expect(gone.body.error.message).toMatch(/removed when its note was written again/);
  });

  it("are seen only where their note is: a private note's items are its maker's alone", async () => {
    const made = await api("POST", "/v1/notes", {
      title: "Salary review",
      visibility: "private",
      summary: "## Action items\n\n- [ ] Raise David's salary (owner: David Chen)\n",
    });
    expect(made.status, made.text).toBe(200);
    const [item] = await itemsOf(made.body.note.id);
    expect(item.owner).toEqual({ name: "David Chen", userId: david.userId });
    // Given to David, but on a note he may not read: he does not see it, nor may he tick it.
    expect((await davidApi("GET", "/v1/action-items?assignee=me")).body.items.map((i: any) => i.id)).not.toContain(
      item.id,
    );
    expect(JSON.stringify((await davidApi("GET", "/v1/action-items?limit=100")).body)).not.toContain("salary");
    expect((await davidApi("PATCH", `/v1/action-items/${item.id}`, { done: true })).status).toBe(404);
    // A key without the notes scope opens no list.
    const scoped = await addMember(server, { name: "Keeper", email: "keeper@example.com", scopes: "folders" });
    expect((await client(server.url, scoped.key)("GET", "/v1/action-items")).status).toBe(403);
  });

  it("page like the other lists", async () => {
    const page = await api("GET", "/v1/action-items?limit=1");
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.pagination).toEqual({ limit: 1, nextOffset: 1, isLast: false });
    const second = await api("GET", "/v1/action-items?limit=1&offset=1");
    expect(second.body.items[0].id).not.toBe(page.body.items[0].id);
    expect((await api("GET", "/v1/action-items?status=later")).status).toBe(400);
    expect((await api("GET", "/v1/action-items?dueBefore=soon")).status).toBe(400);
  });
});
