// Asking one's meetings over REST, with the OpenAI-compatible model replaced by a local
// stand-in that speaks its streaming protocol and records what it was sent: the answer
// cites real segments of notes the asker may see and reads nothing else; nothing found
// asks no model; a follow-up carries its thread; time words become dates; the answer
// streams as server-sent events, and a model that stops mid-answer ends it with an
// error while keeping what it wrote; without a model the moments are quoted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTRACTIVE_LEAD } from "../../src/ai/ask/answerers.js";
import { readTime } from "../../src/ai/ask/time-words.js";
import { client, type Client } from "../helpers/http.js";
import { addMember } from "../helpers/members.js";
import { cliEnv, run, startServer, type TestServer } from "../helpers/server.js";
import { startChatServer, type VendorServer } from "../helpers/vendors.js";
import { waitForStatus } from "../helpers/flow.js";

let llm: VendorServer;
let server: TestServer;
let admin: Client;
let member: Client;
const DAY = 86_400_000;
const ids: Record<string, string> = {};

const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString();
const line = (speaker: string, text: string, start: string, end: string) => ({
  speaker,
  text,
  startTimestamp: start,
  endTimestamp: end,
});

/** The calls the asking made (the stand-in also writes the notes' summaries, in the background). */
const askCalls = () =>
  llm.calls.filter((c) =>
    /answer questions about the user's meetings|read numbered moments/.test(c.body.messages[0].content),
  );

/** The events of a server-sent event stream, in order. */
async function events(res: Response): Promise<{ event: string; data: any }[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((b) => b.trim())
    .map((b) => ({
      event: /^event: (.+)$/m.exec(b)?.[1] ?? "message",
      data: JSON.parse(/^data: (.+)$/m.exec(b)?.[1] ?? "null"),
    }));
}

beforeAll(async () => {
  llm = await startChatServer();
  server = await startServer({ args: ["--no-rate-limit", "--llm-url", llm.url, "--llm-model", "test-model"] });
  admin = client(server.url, server.key);
  member = client(server.url, (await addMember(server, { name: "mia" })).key);
  const make = async (name: string, body: Record<string, unknown>, by = admin) => {
    const r = await by("POST", "/v1/notes", body);
    expect(r.status, r.text).toBe(200);
    ids[name] = r.body.note?.id ?? r.body.id;
  };
  await make("lisbon", {
    title: "Office planning",
    createdAt: at(2),
    transcripts: [
      line("Ana", "Good morning, let us start with the agenda.", "00:00", "00:05"),
      line("Ana", "We decided to open the Lisbon office in March with six people.", "00:05", "00:12"),
      line("Ben", "The budget for Lisbon is two hundred thousand euros.", "00:12", "00:20"),
      line("Ana", "Thanks everyone.", "00:20", "00:23"),
    ],
  });
  await make("secret", {
    title: "Board only",
    visibility: "private",
    createdAt: at(1),
    transcripts: [line("Cy", "The Lisbon office lease hides a penalty clause of ninety thousand.", "00:00", "00:09")],
  });
  await make("old", {
    title: "Earlier planning",
    createdAt: at(20),
    transcripts: [line("Ben", "An office in Lisbon is too early for us this year.", "00:00", "00:08")],
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await llm?.close();
});

describe("POST /v1/ask", () => {
  it("answers from the moments the asker may see, citing real segments, and sends the model nothing else", async () => {
    const before = askCalls().length;
    const r = await member(
      "POST",
      "/v1/ask",
      { question: "What did we decide about the Lisbon office?" },
      {
        accept: "application/json",
      },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.found).toBe(true);
    expect(r.body.engine).toBe("openai:test-model");
    const cited = r.body.citations.map((c: { noteId: string }) => c.noteId);
    expect(cited).toContain(ids.lisbon);
    expect(cited).not.toContain(ids.secret);
    const decided = r.body.citations.find((c: { quote: string }) => /decided to open/.test(c.quote));
    expect(decided).toMatchObject({
      noteId: ids.lisbon,
      title: "Office planning",
      startSec: 5,
      speaker: "Ana",
      quote: "We decided to open the Lisbon office in March with six people.",
    });
    expect(decided.url).toBe(`${server.url}/notes/${ids.lisbon}#t=5`);
    // The citation is a real segment of the note.
    const note = (await member("GET", `/v1/notes/${ids.lisbon}`)).body.note;
    expect(note.transcripts.map((s: { text: string }) => s.text)).toContain(decided.quote);
    // What the model read: the note's moments, never the private one.
    const sent = askCalls()
      .slice(before)
      .map((c) => JSON.stringify(c.body.messages));
    expect(sent.length).toBe(1);
    expect(sent.join("\n")).toContain("decided to open the Lisbon office");
    expect(sent.join("\n")).not.toContain("penalty clause");
    expect(r.body.answer).toMatch(/^From the meetings: .+ \[\d+\]/);
    // The admin, who may see the private note, gets it too.
    const a = await admin(
      "POST",
      "/v1/ask",
      { question: "What about the Lisbon office lease?" },
      {
        accept: "application/json",
      },
    );
    expect(a.body.citations.map((c: { noteId: string }) => c.noteId)).toContain(ids.secret);
  });

  it("says nothing was found, and what was searched, without asking the model", async () => {
    const before = askCalls().length;
    const r = await member(
      "POST",
      "/v1/ask",
      { question: "What about the quantum zebra migration?" },
      {
        accept: "application/json",
      },
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ found: false, citations: [], engine: "none" });
    expect(r.body.answer).toMatch(
      /^Nothing found: searched for "the quantum zebra migration" in the meetings you can see/,
    );
    expect(askCalls().length).toBe(before);
  });

  it("keeps a thread: a follow-up carries the questions before it, and the thread is its asker's alone", async () => {
    const first = await member(
      "POST",
      "/v1/ask",
      { question: "What is the Lisbon budget?" },
      { accept: "application/json" },
    );
    const before = askCalls().length;
    const follow = await member(
      "POST",
      "/v1/ask",
      { question: "And when does the Lisbon office open?", threadId: first.body.threadId },
      { accept: "application/json" },
    );
    expect(follow.status, follow.text).toBe(200);
    expect(follow.body.threadId).toBe(first.body.threadId);
    const messages = askCalls()[before].body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(messages[1].content).toBe("What is the Lisbon budget?");
    const thread = (await member("GET", `/v1/ask/threads/${first.body.threadId}`)).body.thread;
    expect(thread.turns.map((t: { question: string }) => t.question)).toEqual([
      "What is the Lisbon budget?",
      "And when does the Lisbon office open?",
    ]);
    expect((await member("GET", "/v1/ask/threads")).body.threads[0]).toMatchObject({
      id: first.body.threadId,
      questions: 2,
    });
    // Not the admin's to read, follow up or delete.
    expect((await admin("GET", `/v1/ask/threads/${first.body.threadId}`)).status).toBe(404);
    expect(
      (
        await admin(
          "POST",
          "/v1/ask",
          { question: "Lisbon?", threadId: first.body.threadId },
          { accept: "application/json" },
        )
      ).status,
    ).toBe(404);
    expect((await admin("DELETE", `/v1/ask/threads/${first.body.threadId}`)).status).toBe(404);
    expect((await member("DELETE", `/v1/ask/threads/${first.body.threadId}`)).status).toBe(200);
    expect((await member("GET", `/v1/ask/threads/${first.body.threadId}`)).status).toBe(404);
  });

  it("turns time words into dates", async () => {
    const r = await member(
      "POST",
      "/v1/ask",
      { question: "What was said about the Lisbon office in the last 7 days?" },
      {
        accept: "application/json",
      },
    );
    expect(r.body.searched).toMatch(/the last 7 days \(\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\)/);
    const cited = new Set(r.body.citations.map((c: { noteId: string }) => c.noteId));
    expect(cited.has(ids.lisbon)).toBe(true);
    expect(cited.has(ids.old)).toBe(false);
    // The reading itself, against a fixed day (a Thursday).
    const now = Date.parse("2026-11-26T15:00:00Z");
    expect(readTime("what did we decide last week?", now)).toMatchObject({
      rest: "what did we decide?",
      window: { fromDate: Date.parse("2026-11-16"), toDate: Date.parse("2026-11-23") },
    });
    expect(readTime("anything in yesterday's stand-up", now)).toMatchObject({
      rest: "anything stand-up",
      window: { fromDate: Date.parse("2026-11-25"), toDate: Date.parse("2026-11-26") },
    });
    expect(readTime("what changed since the offsite?", now)).toMatchObject({ sinceMeeting: "offsite", window: null });
  });

  it("streams the answer as server-sent events, ending with the citations", async () => {
    const res = await fetch(`${server.url}/v1/ask`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ question: "What did we decide about the Lisbon office?", noteId: ids.lisbon }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const all = await events(res);
    const texts = all.filter((e) => e.event === "text").map((e) => e.data.text);
    expect(texts.length).toBeGreaterThan(3);
    const done = all[all.length - 1];
    expect(done.event).toBe("done");
    expect(done.data.answer).toBe(texts.join(""));
    expect(done.data.citations.every((c: { noteId: string }) => c.noteId === ids.lisbon)).toBe(true);
    expect(done.data.searched).toContain('in the meeting "Office planning"');
  });

  it("ends an answer the model stopped mid-way with an error, keeping what it wrote", async () => {
    llm.set({ stopStreamAfter: 3 });
    try {
      const res = await fetch(`${server.url}/v1/ask`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body: JSON.stringify({ question: "What is the Lisbon budget?" }),
      });
      const all = await events(res);
      expect(all.map((e) => e.event)).toEqual(["text", "text", "text", "error", "done"]);
      expect(all[3].data.message).toBe("The language model's answer stopped before it was finished.");
      expect(all[4].data.answer).toBe(
        all
          .slice(0, 3)
          .map((e) => e.data.text)
          .join(""),
      );
      expect(all[4].data.error).toBe(all[3].data.message);
    } finally {
      llm.set({ stopStreamAfter: undefined });
    }
  });

  it("cites every meeting that answers a question before a second line of any, searching for its subject alone", async () => {
    const r = await member(
      "POST",
      "/v1/ask",
      { question: "What was said about the office in Lisbon?" },
      { accept: "application/json" },
    );
    expect(r.status, r.text).toBe(200);
    // The first citations are one per meeting, the best of each; the private one is never read.
    const first = r.body.citations.slice(0, 2).map((c: { noteId: string }) => c.noteId);
    expect(new Set(first)).toEqual(new Set([ids.lisbon, ids.old]));
    expect(r.body.citations.map((c: { noteId: string }) => c.noteId)).not.toContain(ids.secret);
    expect(r.body.searched).toMatch(/^"the office in Lisbon" in the meetings you can see/);
  });

  it("finds a meeting's typed note, whatever form the question's words take", async () => {
    const typed = await admin("POST", "/v1/notes", {
      title: "Incident review",
      userWrittenNote:
        "Attendees: Ana, Ben\n\n- The database outage on Tuesday lasted forty minutes.\n- Backups were fine.",
    });
    expect(typed.status, typed.text).toBe(200);
    const noteId = typed.body.note?.id ?? typed.body.id;
    const r = await admin(
      "POST",
      "/v1/ask",
      { question: "How long did the outage last?", noteId },
      { accept: "application/json" },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.found).toBe(true);
    expect(r.body.citations.map((c: { quote: string }) => c.quote)).toEqual([
      "The database outage on Tuesday lasted forty minutes.",
    ]);
    expect(r.body.citations[0]).toMatchObject({ noteId, startSec: null, speaker: null });
  });

  it("refuses bad input before anything streams, and bounds the asks running at once", async () => {
    expect((await member("POST", "/v1/ask", { question: "" })).status).toBe(400);
    const long = await member("POST", "/v1/ask", { question: "x".repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/question.*longer than 2000 characters/);
    expect(
      (await member("POST", "/v1/ask", { question: `${"x".repeat(1990)} Lisbon` }, { accept: "application/json" }))
        .status,
    ).toBe(200);
    expect((await member("POST", "/v1/ask", { question: "Lisbon?", noteId: ids.secret })).status).toBe(404);
    expect((await member("POST", "/v1/ask", { question: "Lisbon?", threadId: "ask_nope" })).status).toBe(404);

    // Two slow answers at once for one person; a third waits its turn.
    llm.set({ streamDelayMs: 2000 });
    const slow = [0, 1].map(() =>
      fetch(`${server.url}/v1/ask`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body: JSON.stringify({ question: "What is the Lisbon budget?" }),
      }),
    );
    const started = await Promise.all(slow);
    const third = await admin("POST", "/v1/ask", { question: "What is the Lisbon budget?" });
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBeTruthy();
    llm.set({ streamDelayMs: 0 });
    for (const r of started) expect((await events(r)).pop()?.event).toBe("done");
  });
});

describe("notula ask", () => {
  it("streams the answer to the terminal, then its sources with links; --json gives it as one object", async () => {
    const r = await run(["ask", "What did we decide about the Lisbon office?"], { env: cliEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^From the meetings: .+ \[\d+\]/);
    expect(r.stdout).toContain(
      `Office planning, 00:05, Ana: "We decided to open the Lisbon office in March with six people."\n    ${server.url}/notes/${ids.lisbon}#t=5`,
    );
    const thread = /Thread (ask_\S+):/.exec(r.stderr)?.[1];
    expect(thread).toBeTruthy();
    const follow = await run(["ask", "And the budget for Lisbon?", "--thread", thread!, "--json"], {
      env: cliEnv(server),
    });
    expect(follow.code, follow.stderr).toBe(0);
    const answer = JSON.parse(follow.stdout);
    expect(answer).toMatchObject({ threadId: thread, found: true, error: null });
    expect(answer.citations.some((c: { quote: string }) => /two hundred thousand/.test(c.quote))).toBe(true);
    const bad = await run(["ask", "Lisbon?", "--since", "last tuesday"], { env: cliEnv(server) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since/);
  });
});

describe("without a language model", () => {
  it("quotes the moments found, labelled as quotes", async () => {
    const plain = await startServer({ args: ["--no-rate-limit"] });
    try {
      const api = client(plain.url, plain.key);
      const made = await api("POST", "/v1/notes", {
        title: "Hiring sync",
        createdAt: "2026-11-27T10:00:00Z",
        transcripts: [
          line("Dee", "Good afternoon everyone, thanks for joining the hiring sync.", "00:00", "00:04"),
          line("Dee", "We will hire two engineers before the summer.", "00:04", "00:10"),
          line("Eli", "The recruiter starts on Monday.", "00:10", "00:14"),
          line("Dee", "So again: we will hire two engineers before the summer.", "00:14", "00:20"),
          line("Eli", "We will hire two engineers before the summer.", "00:20", "00:24"),
          line("Dee", "Thanks everyone, bye!", "00:24", "00:26"),
        ],
      });
      expect(made.status, made.text).toBe(200);
      const r = await api(
        "POST",
        "/v1/ask",
        { question: "How many engineers will we hire?" },
        { accept: "application/json" },
      );
      expect(r.body.engine).toBe("extractive");
      expect(r.body.answer.startsWith(EXTRACTIVE_LEAD)).toBe(true);
      // Each quote says where it is in the meeting, once; the greeting and the goodbye are never quoted.
      expect(r.body.answer).toContain(
        '[1] Dee at 0:04 in Hiring sync, 27 Nov 2026: "We will hire two engineers before the summer."',
      );
      expect(r.body.citations[0]).toMatchObject({ speaker: "Dee", startSec: 4 });
      const quotes = r.body.citations.map((c: { quote: string }) => c.quote.toLowerCase());
      expect(new Set(quotes).size).toBe(quotes.length);
      expect(quotes.filter((q: string) => q === "we will hire two engineers before the summer.")).toHaveLength(1);
      expect(r.body.answer).not.toMatch(/Good afternoon|bye!/);
    } finally {
      await plain.stop();
    }
  });
});

describe("a JSON answer from a model too slow for the request's time limit", () => {
  it("is stopped before the limit, says so, points to the stream, and frees the asker's place", async () => {
    const slow = await startChatServer();
    const short = await startServer({
      args: ["--no-rate-limit", "--llm-url", slow.url, "--llm-model", "test-model"],
      env: { NOTULA_REQUEST_TIMEOUT_MS: "4000", NOTULA_ASK_PER_PERSON: "1" },
    });
    try {
      const api = client(short.url, short.key);
      const made = await api("POST", "/v1/notes", {
        title: "Office planning",
        transcripts: [line("Ana", "We decided to open the Lisbon office in March.", "00:00", "00:06")],
      });
      await waitForStatus(api, made.body.note?.id ?? made.body.id, ["completed"]);
      // From now on the model takes ten minutes to begin.
      slow.set({ delayMs: 600_000 });
      for (let i = 0; i < 2; i++) {
        const r = await api("POST", "/v1/ask", { question: "When does Lisbon open?" }, { accept: "application/json" });
        expect(r.status, r.text).toBe(504);
        expect(r.body.error).toEqual({
          code: "timeout",
          message:
            "The model did not finish its answer within 2 s, so it was stopped. Ask for the answer as it is written: send Accept: text/event-stream (what `notula ask` and the web app do).",
        });
      }
      // One question at a time for this person: the second was not refused (429), so the first gave its place back.
    } finally {
      await short.stop();
      await slow.close();
    }
  }, 120_000);
});
