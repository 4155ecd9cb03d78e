// GET /v1/search: the moment something was said, by words (and by meaning in
// test/mcp/semantic.test.ts), with every filter, pagination by cursor, bad input at
// its edges, and two workspaces that share words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speak } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { admin, startServer, tempDir, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let other: Client;
let userId: string;
const ids: Record<string, string> = {};
const work = tempDir("notula-search-");

const seg = (speaker: string, text: string, start: string, end: string) => ({
  speaker,
  text,
  startTimestamp: start,
  endTimestamp: end,
});
const search = (params: Record<string, string | number>) =>
  api(
    "GET",
    `/v1/search?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`,
  );

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx"] });
  api = client(server.url, server.key);
  userId = (await api("GET", "/v1/me")).body.user.id;
  const folder = (await api("POST", "/v1/folders", { name: "Finance", ownerUserId: userId })).body.folder;
  ids.folder = folder.id;
  const make = async (key: string, body: Record<string, unknown>) =>
    (ids[key] = (await api("POST", "/v1/notes", { summary: "-", enhancedNote: "-", ...body })).body.note.id);
  await make("plan", {
    title: "Quarterly planning",
    createdAt: "2026-03-02T10:00:00Z",
    folderIds: [folder.id],
    participants: [{ name: "Ana", email: "ana@example.com" }],
    transcripts: [
      seg("Ana", "Welcome everyone to the planning meeting.", "00:00", "00:05"),
      seg("Bo", "Revenue next quarter should grow by ten percent.", "00:05", "00:12"),
      seg("Ana", "The hiring budget stays flat until the summer.", "12:30", "12:40"),
    ],
  });
  await make("retro", {
    title: "Retro",
    createdAt: "2026-03-05T10:00:00Z",
    transcripts: [
      seg("Cy", "Next we talk about the quarter that went badly.", "00:00", "00:05"),
      seg("Cy", "Revenue was low.", "01:00", "01:05"),
    ],
  });
  await make("written", {
    title: "Budget memo",
    userWrittenNote: "The budget for the offsite is approved.",
    createdAt: "2026-03-07T10:00:00Z",
  });
  for (let i = 0; i < 7; i++)
    await make(`many${i}`, {
      title: `Standup ${i}`,
      createdAt: `2026-04-0${i + 1}T10:00:00Z`,
      transcripts: [seg("Dee", `Standup number ${i} about deployments.`, "00:00", "00:04")],
    });
  // Another workspace says the same words; none of its notes may ever appear here.
  const second = await admin(server.dataDir, ["workspaces", "create", "--name", "Other"]);
  other = client(server.url, second.key);
  ids.foreign = (
    await other("POST", "/v1/notes", {
      title: "Quarterly planning elsewhere",
      transcripts: [seg("Zed", "Revenue next quarter is secret.", "00:00", "00:05")],
    })
  ).body.note.id;
});
afterAll(() => server?.stop());

describe("GET /v1/search", () => {
  it("finds the moment: the note, the segment, when and by whom, the words marked", async () => {
    const r = await search({ q: "hiring budget", mode: "fulltext" });
    expect(r.status).toBe(200);
    expect(r.body.mode).toBe("fulltext");
    const hit = r.body.results[0];
    expect(hit.note).toEqual({ id: ids.plan, title: "Quarterly planning", createdAt: "2026-03-02T10:00:00.000Z" });
    expect(hit.matches[0]).toEqual({
      text: "The «hiring» «budget» stays flat until the summer.",
      segment: 2,
      startTimestamp: "12:30",
      speaker: "Ana",
    });
    // A match in the notes rather than the transcript has no time.
    const memo = r.body.results.find((x: any) => x.note.id === ids.written);
    expect(memo.matches[0]).toMatchObject({ segment: null, startTimestamp: null, speaker: null });
    // The memo's own words (its title or its notes), never another note's that say "budget".
    expect(memo.matches[0].text).toMatch(/«budget»/i);
    expect(memo.matches[0].text).toMatch(/memo|offsite/);
    expect(memo.matches[0].text).not.toMatch(/hiring|summer/);
    // Found by the start of a word, and its moment by that start too.
    const typed = (await search({ q: "standu", mode: "fulltext", limit: 50 })).body.results;
    expect(typed).toHaveLength(7);
    for (const t of typed) {
      expect(t.matches[0]).toMatchObject({ segment: 0, startTimestamp: "00:00", speaker: "Dee" });
      expect(t.matches[0].text).toContain("«Standup»");
    }
  });

  it("ranks notes holding every word above notes holding some, and matches phrases as written", async () => {
    const both = (await search({ q: "revenue quarter", mode: "fulltext" })).body.results.map((x: any) => x.note.id);
    expect(both.slice(0, 2).sort()).toEqual([ids.plan, ids.retro].sort());
    const phrase = await search({ q: '"next quarter"', mode: "fulltext" });
    expect(phrase.body.results.map((x: any) => x.note.id)).toEqual([ids.plan]);
    expect(phrase.body.results[0].matches[0]).toMatchObject({ segment: 1, startTimestamp: "00:05", speaker: "Bo" });
    // SQLite marks the phrase as one, PostgreSQL word by word.
    expect(phrase.body.results[0].matches[0].text).toMatch(/«next( »«|» «| )quarter»/);
    // Prefixes and stems: "standu" finds "Standup", "deployment" finds "deployments".
    expect((await search({ q: "standu", mode: "fulltext", limit: 50 })).body.results).toHaveLength(7);
    expect((await search({ q: "deployment", mode: "fulltext", limit: 50 })).body.results).toHaveLength(7);
  });

  it("orders by how the note was found, says so on each result, and answers a query nothing matches with nothing", async () => {
    // "hiring budget" said as such, then notes with both words apart, then with one.
    const r = (await search({ q: "hiring budget", mode: "fulltext" })).body.results;
    expect(r.map((x: any) => [x.note.id, x.foundBy])).toEqual([
      [ids.plan, "phrase"],
      [ids.written, "some-words"],
    ]);
    const apart = (await search({ q: "budget offsite", mode: "fulltext" })).body.results;
    expect(apart.map((x: any) => [x.note.id, x.foundBy])).toEqual([
      [ids.written, "words"],
      [ids.plan, "some-words"],
    ]);
    // Every word that says something: "which" is in neither note, and the
    // note that says "budget" and "offsite" holds every word of the question still.
    const asked = (await search({ q: "which offsite budget for", mode: "fulltext" })).body.results;
    expect(asked.map((x: any) => [x.note.id, x.foundBy])).toEqual([
      [ids.written, "words"],
      [ids.plan, "some-words"],
    ]);
    for (const q of ["zebra xylophone", "xylophone", '"budget zebra"', "会議 予算", "Überweisung"]) {
      const none = await search({ q, mode: "fulltext" });
      expect(none.status, q).toBe(200);
      expect(none.body.results, q).toEqual([]);
    }
  });

  it("says what would find something when a search finds nothing: no quotes, or no filters", async () => {
    const quoted = await search({ q: '"budget hiring"', mode: "fulltext" });
    expect(quoted.body.results).toEqual([]);
    expect(quoted.body.suggestion).toMatch(/search without the quotes/);
    const filtered = await search({ q: "deployments", mode: "fulltext", folderIds: ids.folder });
    expect(filtered.body.results).toEqual([]);
    expect(filtered.body.suggestion).toMatch(/search without the filters/);
    const nothing = await search({ q: "zebra", mode: "fulltext", folderIds: ids.folder });
    expect(nothing.body.suggestion).toBeNull();
    expect((await search({ q: "budget", mode: "fulltext" })).body.suggestion).toBeNull();
  });

  it("refuses a query of nothing but common words, which would match every meeting, and keeps quoted phrases of them", async () => {
    for (const q of ["the", "the of and", "what was it", "  to  be  or  not  "]) {
      const r = await search({ q });
      expect(r.status, q).toBe(400);
      expect(r.body.error.message, q).toMatch(/^q: .* too common to search for/);
    }
    const phrase = await search({ q: '"to be or not to be"' });
    expect(phrase.status).toBe(200);
    expect(phrase.body.results).toEqual([]);
    // One real word among them is enough.
    expect((await search({ q: "what about the revenue" })).body.results.length).toBeGreaterThan(0);
  });

  it("applies folder, date, participant and speaker filters", async () => {
    const ids_ = async (params: Record<string, string>) =>
      (await search({ q: "revenue", mode: "fulltext", ...params })).body.results.map((x: any) => x.note.id);
    expect(await ids_({})).toEqual(expect.arrayContaining([ids.plan, ids.retro]));
    expect(await ids_({ folderIds: ids.folder })).toEqual([ids.plan]);
    expect(await ids_({ fromDate: "2026-03-03" })).toEqual([ids.retro]);
    expect(await ids_({ toDate: "2026-03-03" })).toEqual([ids.plan]);
    expect(await ids_({ participantEmail: "ANA@example.com" })).toEqual([ids.plan]);
    expect(await ids_({ speaker: "cy" })).toEqual([ids.retro]);
    // The speaker filter applies to the moments too: Ana never said "revenue".
    expect(await ids_({ speaker: "Ana" })).toEqual([]);
    // A name given to a label counts as the speaker.
    await api("PATCH", `/v1/notes/${ids.retro}/speakers`, { label: "Cy", name: "Cyrus" });
    const named = await search({ q: "revenue", mode: "fulltext", speaker: "Cyrus" });
    expect(named.body.results.map((x: any) => x.note.id)).toEqual([ids.retro]);
    expect(named.body.results[0].matches[0].speaker).toBe("Cyrus");
  });

  it("pages with a cursor that only works for the same search", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: any = await search({ q: "standup", mode: "fulltext", limit: 3, ...(cursor ? { cursor } : {}) });
      expect(r.status).toBe(200);
      seen.push(...r.body.results.map((x: any) => x.note.id));
      cursor = r.body.pagination.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toHaveLength(7);

    const first = (await search({ q: "standup", mode: "fulltext", limit: 3 })).body.pagination.nextCursor;
    for (const bad of [
      await search({ q: "deployments", mode: "fulltext", limit: 3, cursor: first }),
      await search({ q: "standup", mode: "fulltext", limit: 4, cursor: first }),
      await other("GET", `/v1/search?q=standup&mode=fulltext&limit=3&cursor=${first}`),
      await search({ q: "standup", cursor: "not-a-cursor" }),
    ]) {
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/^cursor: /);
    }
  });

  it("reads a summary's citations as where its points came from, not as words the note says", async () => {
    // Points cite their moments as links ("[00:42](/notes/nt_…#t=42)"); an index that kept
    // the link's words found every cited note for "notes" or its id.
    const cited = (
      await api("POST", "/v1/notes", {
        title: "Venue review",
        summary: "The venue is booked for June [00:42](/notes/nt_AbC123#t=42).",
        enhancedNote: "## Decisions\n- The caterer is chosen [01:05](/notes/nt_AbC123#t=65)\n- Parking is free",
      })
    ).body.note.id;
    for (const mode of ["fulltext", "hybrid"])
      for (const q of ["notes", "nt_AbC123", "AbC123", "42"]) {
        const r = await search({ q, mode, limit: 50 });
        expect(r.body.results?.map((x: any) => x.note.id) ?? [], `${mode} "${q}"`).not.toContain(cited);
      }
    const found = (await search({ q: "caterer", mode: "fulltext" })).body.results;
    expect(found.map((x: any) => x.note.id)).toEqual([cited]);
    expect(found[0].matches[0].text).toMatch(/«caterer»/);
    expect(found[0].matches[0].text).not.toMatch(/notes\/|#t=/);
    // What it says is still found, the time beside it and all.
    expect(
      (await search({ q: '"booked for june"', mode: "fulltext" })).body.results.map((x: any) => x.note.id),
    ).toEqual([cited]);
    await api("DELETE", `/v1/notes/${cited}`);
  });

  it("never shows another workspace's notes, though they share the words", async () => {
    for (const q of ["revenue", "quarterly planning", '"next quarter"', "secret"]) {
      const r = await search({ q, mode: "fulltext", limit: 50 });
      expect(r.body.results.map((x: any) => x.note.id)).not.toContain(ids.foreign);
    }
    expect((await other("GET", "/v1/search?q=revenue&mode=fulltext")).body.results.map((x: any) => x.note.id)).toEqual([
      ids.foreign,
    ]);
  });

  it("answers bad input with a 400 naming the parameter, and query syntax is just text", async () => {
    for (const [params, field] of [
      [{}, "q"],
      [{ q: "" }, "q"],
      [{ q: "   " }, "q"],
      [{ q: "x".repeat(501) }, "q"],
      [{ q: '"*()^: -- ""' }, "q"],
      [{ q: "budget", mode: "magic" }, "mode"],
      [{ q: "budget", limit: 0 }, "limit"],
      [{ q: "budget", limit: 51 }, "limit"],
      [{ q: "budget", fromDate: "yesterday" }, "fromDate"],
      [{ q: "budget", mode: "semantic" }, "mode"], // this server has no embedding model
    ] as [Record<string, string | number>, string][]) {
      const r = await search(params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(errorCode(r)).toBe("bad_request");
      expect(r.body.error.message, JSON.stringify(params)).toMatch(new RegExp(`^${field}\\b`));
    }
    expect((await search({ q: "x".repeat(500) })).status).toBe(200);
    // FTS5 and tsquery syntax in a query is searched as words, never run.
    for (const q of [
      "budget* OR (NEAR",
      'hiring" AND "budget',
      "revenue:* | !x",
      "col:budget",
      "^budget",
      "a\u0000b",
    ]) {
      const r = await search({ q, mode: "fulltext" });
      expect(r.status, q).toBe(200);
    }
    expect((await search({ q: "budget* OR (NEAR", mode: "fulltext" })).body.results.length).toBeGreaterThan(0);
    // Without an embedding model, hybrid is full-text and says so.
    expect((await search({ q: "budget" })).body.mode).toBe("fulltext");
    // The notes scope is needed.
    const foldersOnly = client(
      server.url,
      (await admin(server.dataDir, ["keys", "create", "--name", "f", "--scopes", "folders"])).key,
    );
    expect((await foldersOnly("GET", "/v1/search?q=budget")).status).toBe(403);
  });

  it("finds the words said in a recording, with the time they were said", async () => {
    const speech = speak(work, "Please schedule a meeting with the design team for Tuesday afternoon.");
    const id = await uploadRecording(api, speech, "wav", { title: "Recorded call" });
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    const r = await search({ q: "design team", mode: "fulltext" });
    const hit = r.body.results.find((x: any) => x.note.id === id);
    expect(hit.matches[0]).toMatchObject({ segment: 0, speaker: "Speaker" });
    expect(hit.matches[0].startTimestamp).toMatch(/^00:0\d$/);
    expect(hit.matches[0].text).toMatch(/«design» «team»/);
    expect(hit.matches[0].startTimestamp).toBe(note.transcripts[0].startTimestamp);
  }, 60_000);
});
