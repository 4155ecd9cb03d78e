// MCP reads built for agents: transcript windows within a size budget and a cursor
// to read on, incremental sync by updatedAfter, and search hits that say when and by
// whom something was said.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { connectMcp } from "../helpers/mcp.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let longId: string;
const mmss = (sec: number) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  // Four hours, one segment a minute... twice: 480 segments of about 100 characters.
  const transcripts = Array.from({ length: 480 }, (_, i) => ({
    speaker: i % 2 ? "Bo" : "Ana",
    text: `Segment ${i} says something about item ${i} of the long agenda, at some length to fill the line.`,
    startTimestamp: mmss(i * 30),
    endTimestamp: mmss(i * 30 + 29),
  }));
  longId = (
    await api("POST", "/v1/notes", { title: "All-day workshop", summary: "Long.", enhancedNote: "Long.", transcripts })
  ).body.note.id;
});
afterAll(() => server?.stop());

async function tool(name: string, args: Record<string, unknown>) {
  const { client: c } = await connectMcp(server.url, server.key);
  try {
    return (await c.callTool({ name, arguments: args })) as any;
  } finally {
    await c.close();
  }
}

describe("svc_get_note for agents", () => {
  it("advertises the window, budget and cursor in its input schema", async () => {
    const { client: c } = await connectMcp(server.url, server.key);
    const tools = (await c.listTools()).tools;
    await c.close();
    const get = tools.find((t) => t.name === "svc_get_note")!;
    expect(Object.keys(get.inputSchema.properties!)).toEqual(
      expect.arrayContaining(["id", "fromTimestamp", "toTimestamp", "fromSegment", "toSegment", "maxChars", "cursor"]),
    );
    expect(Object.keys((get.outputSchema as any).properties)).toEqual(
      expect.arrayContaining(["note", "transcriptWindow"]),
    );
    const list = tools.find((t) => t.name === "svc_list_notes")!;
    expect(Object.keys(list.inputSchema.properties!)).toContain("updatedAfter");
  });

  it("never floods: the default budget, then the cursor reads on, each segment exactly once", async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const r = await tool("svc_get_note", { id: longId, maxChars: 10_000, ...(cursor ? { cursor } : {}) });
      expect(r.isError).toBeFalsy();
      const { note, transcriptWindow: w } = r.structuredContent;
      expect(JSON.stringify(note.transcripts).length).toBeLessThanOrEqual(10_000);
      expect(w.totalSegments).toBe(480);
      for (const s of note.transcripts) seen.push(Number(/Segment (\d+)/.exec(s.text)![1]));
      expect(seen.at(-1)).toBe(w.toSegment);
      cursor = w.nextCursor ?? undefined;
      if (cursor) expect(r.content[0].text).toContain(`cursor "${cursor}"`);
      calls++;
    } while (cursor && calls < 20);
    expect(calls).toBeGreaterThan(3);
    expect(seen).toEqual(Array.from({ length: 480 }, (_, i) => i));

    const whole = await tool("svc_get_note", { id: longId });
    expect(whole.structuredContent.note.transcripts.length).toBeLessThan(480);
    expect(whole.structuredContent.transcriptWindow.nextCursor).toBeTruthy();
  });

  it("reads a window by time or by segment", async () => {
    const byTime = (await tool("svc_get_note", { id: longId, fromTimestamp: "60:00", toTimestamp: "62:00" }))
      .structuredContent;
    expect(byTime.note.transcripts.map((s: any) => s.startTimestamp)).toEqual(["60:00", "60:30", "61:00", "61:30"]);
    expect(byTime.transcriptWindow).toMatchObject({ fromSegment: 120, toSegment: 123, nextCursor: null });
    const bySegment = (await tool("svc_get_note", { id: longId, fromSegment: 470, toSegment: 479 })).structuredContent;
    expect(bySegment.note.transcripts).toHaveLength(10);
    expect(bySegment.note.transcripts[0].text).toMatch(/^Segment 470 /);
    // Past the end is empty, not an error.
    const past = (await tool("svc_get_note", { id: longId, fromTimestamp: "999:00" })).structuredContent;
    expect(past.note.transcripts).toEqual([]);
    expect(past.transcriptWindow).toMatchObject({ fromSegment: null, toSegment: null, nextCursor: null });
  });

  it("refuses a bad window or another note's cursor with a tool error", async () => {
    const cursor = (await tool("svc_get_note", { id: longId, maxChars: 1000 })).structuredContent.transcriptWindow
      .nextCursor;
    const other = (await api("POST", "/v1/notes", { title: "Short" })).body.note.id;
    const wrong = await tool("svc_get_note", { id: other, cursor });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0].text).toMatch(/^cursor: /);
    for (const args of [{ fromTimestamp: "1h" }, { maxChars: 10 }, { fromSegment: -1 }]) {
      const r = await tool("svc_get_note", { id: longId, ...args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
    }
  });
});

describe("svc_list_notes updatedAfter", () => {
  it("returns what changed since a sync, and the REST list takes it too", async () => {
    const a = (await api("POST", "/v1/notes", { title: "Sync A" })).body.note;
    await new Promise((r) => setTimeout(r, 20));
    const b = (await api("POST", "/v1/notes", { title: "Sync B" })).body.note;
    const since = a.updatedAt;
    const first = (
      await tool("svc_list_notes", { updatedAfter: since, sortBy: "updatedAt", sortOrder: "asc" })
    ).structuredContent.notes.map((n: any) => n.id);
    expect(first).toEqual([b.id]);
    await new Promise((r) => setTimeout(r, 20));
    await api("PATCH", `/v1/notes/${a.id}`, { title: "Sync A, renamed" });
    const second = (
      await tool("svc_list_notes", { updatedAfter: b.updatedAt, sortBy: "updatedAt" })
    ).structuredContent.notes.map((n: any) => n.id);
    expect(second).toEqual([a.id]);
    const rest = await api("GET", `/v1/notes?updatedAfter=${encodeURIComponent(b.updatedAt)}`);
    expect(rest.body.items.map((n: any) => n.id)).toEqual([a.id]);
    expect((await api("GET", "/v1/notes?updatedAfter=soon")).status).toBe(400);
  });
});

describe("search hits carry the moment", () => {
  it("svc_search_notes and svc_search_knowledge give the timestamp and speaker to cite", async () => {
    const notes = (await tool("svc_search_notes", { query: '"item 301"' })).structuredContent.notes;
    expect(notes[0]).toMatchObject({ id: longId, timestamp: "150:30", speaker: "Bo" });
    const knowledge = (await tool("svc_search_knowledge", { query: "segment 7 item 7" })).structuredContent.results;
    const hit = knowledge.find((r: any) => r.id === longId);
    expect(hit.timestamp).toMatch(/^\d{2,}:\d{2}$/);
    expect(["Ana", "Bo"]).toContain(hit.speaker);
  });
});
