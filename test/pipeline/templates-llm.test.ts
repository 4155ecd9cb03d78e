// Templates with a language model, against local stand-ins that speak the OpenAI
// chat-completions and transcription protocols: what the prompts carry, long meetings
// read part by part with nothing silently dropped, answers that follow no template,
// and the workspace's language, vocabulary and speakers reaching the engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speak } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { startChatServer, startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

const work = tempDir("notula-llm-templates-");
let llm: VendorServer;
let stt: VendorServer;

const headings = (md: string) => [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
const mmss = (sec: number) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;
const lines = (n: number, every = 10) =>
  Array.from({ length: n }, (_, i) => ({
    speaker: `S${i % 3}`,
    text: `Line ${i} marker${i} about the migration plan and its budget.`,
    startTimestamp: mmss(i * every),
    endTimestamp: mmss(i * every + every - 1),
  }));
const systemOf = (c: VendorServer["calls"][number]) => c.body.messages[0].content as string;
const userOf = (c: VendorServer["calls"][number]) => c.body.messages[1].content as string;

beforeAll(async () => {
  llm = await startChatServer();
  stt = await startTranscriptionServer({ diarize: true });
});
afterAll(async () => {
  await llm?.close();
  await stt?.close();
});

describe("enhanced notes from templates, with a language model", () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startServer({
      args: ["--no-rate-limit", "--llm-url", llm.url, "--llm-model", "test-model", "--stt-url", stt.url],
      env: { NOTULA_PIPELINE_RETRY_BASE_MS: "20", NOTULA_LLM_TIMEOUT_MS: "1000" },
    });
    api = client(server.url, server.key);
  });
  afterAll(() => server?.stop());

  it("the prompt carries the template's sections, context and language; the note has the sections in order", async () => {
    const template = (
      await api("POST", "/v1/templates", {
        name: "Retro",
        sections: [
          { title: "Went well", instructions: "What the team was happy with." },
          { title: "To improve", instructions: "What should change, and why." },
          { title: "Actions", instructions: "Each as '- [ ] task (owner: name)'." },
        ],
        context: "A team of five that ships every Tuesday.",
        language: "de",
      })
    ).body.template;
    const id = (
      await api("POST", "/v1/notes", {
        title: "Sprint retro",
        transcripts: lines(12),
        userWrittenNote: "Mention the flaky tests.",
      })
    ).body.note.id;
    await waitForStatus(api, id);
    const before = llm.calls.length;
    expect((await api("POST", `/v1/notes/${id}/enhance`, { templateId: template.id })).status).toBe(200);
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.template).toEqual({ id: template.id, name: "Retro" });

    const calls = llm.calls.slice(before);
    const noteCall = calls.find((c) => /You write meeting notes with the "Retro" template/.test(systemOf(c)))!;
    expect(noteCall).toBeDefined();
    const system = systemOf(noteCall);
    expect(system).toContain(
      "## Went well\nWhat the team was happy with.\n\n## To improve\nWhat should change, and why.\n\n## Actions\n",
    );
    expect(system).toContain("Write in German.");
    expect(system).toContain("A team of five that ships every Tuesday.");
    // The user's own notes and every line of this short meeting go to the model whole.
    expect(userOf(noteCall)).toContain("Mention the flaky tests.");
    for (let i = 0; i < 12; i++) expect(userOf(noteCall)).toContain(`marker${i} `);
    expect(systemOf(calls.find((c) => /summary of the whole meeting/.test(systemOf(c)))!)).toContain(
      "Write in German.",
    );

    // The person's notes head the note once, as written; the model's sections follow.
    expect(headings(note.enhancedNote)).toEqual(["Your notes", "Went well", "To improve", "Actions"]);
    expect(note.enhancedNote.split("Mention the flaky tests.")).toHaveLength(2);
    // Asked to, the model ends each point with its line's time, which becomes a link to that moment.
    expect(system).toContain("End each item with the time of the transcript line it comes from");
    expect(note.enhancedNote).toContain(
      `- [German] S0: Line 0 marker0 about the migration plan and its budget. [00:00](/notes/${id}#t=0)`,
    );
    expect(note.enhancedNote).toContain(`marker8 about the migration plan and its budget. [01:20](/notes/${id}#t=80)`);
    expect(note.summary).toMatch(/^\[German\] Summary by the model/);
    expect(note.processingWarnings).toBeNull();
  });

  it("two templates give two differently sectioned notes", async () => {
    const id = (await api("POST", "/v1/notes", { title: "Call", transcripts: lines(6) })).body.note.id;
    await waitForStatus(api, id);
    await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_builtin_chat-recap" });
    const recap = await waitForStatus(api, id);
    await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_builtin_interview" });
    const interview = await waitForStatus(api, id);
    expect(headings(recap.enhancedNote)).toEqual(["TL;DR", "Highlights", "To do"]);
    expect(headings(interview.enhancedNote)).toEqual([
      "Candidate background",
      "Skills and experience",
      "Questions and answers",
      "Candidate's questions",
      "Strengths and concerns",
      "Next steps",
    ]);
  });

  it("a translation target writes the note in that language and says so on the note", async () => {
    await api("PATCH", "/v1/ai-config", { translationLanguage: "fr" });
    try {
      const id = (await api("POST", "/v1/notes", { title: "Traduit", transcripts: lines(4) })).body.note.id;
      const note = await waitForStatus(api, id);
      expect(note.translationLanguage).toBe("fr");
      expect(note.summary).toMatch(/^\[French\]/);
      expect(note.enhancedNote).toContain("[French]");
    } finally {
      await api("PATCH", "/v1/ai-config", { translationLanguage: null });
    }
  });

  it("409 while a note is being enhanced", async () => {
    const id = (await api("POST", "/v1/notes", { title: "Busy", transcripts: lines(4) })).body.note.id;
    await waitForStatus(api, id);
    llm.set({ delayMs: 600 });
    try {
      expect((await api("POST", `/v1/notes/${id}/enhance`, {})).body.note.status).toBe("summarizing");
      const again = await api("POST", `/v1/notes/${id}/enhance`, {});
      expect(again.status).toBe(409);
      expect((await api("POST", `/v1/notes/${id}/reprocess`)).status).toBe(409);
    } finally {
      llm.set({ delayMs: 0 });
    }
    expect((await waitForStatus(api, id)).status).toBe("completed");
  });

  it("a first answer that follows no template still leaves a note: the extract, saying why and what wrote it", async () => {
    llm.set({ garbage: true });
    try {
      const id = (await api("POST", "/v1/notes", { title: "Never empty", transcripts: lines(4) })).body.note.id;
      const note = await waitForStatus(api, id);
      expect(note.status).toBe("completed");
      expect(note.summary.trim()).not.toBe("");
      expect(headings(note.enhancedNote)).toEqual(["Key points", "Decisions", "Action items"]);
      expect(note.processingInfo.summary).toBe("extractive");
      expect(note.processingWarnings.join(" ")).toMatch(
        /does not follow the template "General meeting".*This note was written offline instead\./,
      );
    } finally {
      llm.set({ garbage: false });
    }
  });

  it("an answer that follows no template leaves the previous enhanced note in place and says why", async () => {
    const id = (await api("POST", "/v1/notes", { title: "Kept", transcripts: lines(4) })).body.note.id;
    const first = await waitForStatus(api, id);
    expect(headings(first.enhancedNote)).toEqual(["Key points", "Decisions", "Action items"]);
    llm.set({ garbage: true });
    try {
      await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_builtin_stand-up" });
      const after = await waitForStatus(api, id);
      expect(after.status).toBe("completed");
      expect(after.enhancedNote).toBe(first.enhancedNote);
      expect(after.template.id).toBe("tpl_builtin_general");
      expect(after.processingError).toMatch(
        /^Enhancing failed, so the note keeps its previous enhanced note: .*does not follow the template "Stand-up"/,
      );
    } finally {
      llm.set({ garbage: false });
    }
    // A model that does not answer in time (1 s here) fails the same way...
    llm.set({ delayMs: 1500 });
    try {
      await api("POST", `/v1/notes/${id}/enhance`, {});
      const slow = await waitForStatus(api, id, undefined, 30_000);
      expect(slow.enhancedNote).toBe(first.enhancedNote);
      expect(slow.processingError).toMatch(/did not answer within 1 s/);
    } finally {
      llm.set({ delayMs: 0 });
    }
    // ...and so does one that is down.
    llm.set({ failFirst: 1_000_000 });
    try {
      await api("POST", `/v1/notes/${id}/enhance`, {});
      const down = await waitForStatus(api, id);
      expect(down.enhancedNote).toBe(first.enhancedNote);
      expect(down.processingError).toMatch(/answered 500/);
    } finally {
      llm.set({ failFirst: 0 });
    }
  });

  it("the workspace's language and vocabulary reach the transcription server; its speaker labels are kept", async () => {
    const speech = speak(
      work,
      "Good morning. The Lisbon office budget is approved. Notula will record the next meeting.",
    );
    await api("PATCH", "/v1/ai-config", { transcription: { language: "de", vocabulary: ["Notula", "Lisbon"] } });
    try {
      const before = stt.calls.length;
      const note = await waitForStatus(api, await uploadRecording(api, speech, "wav", { title: "Sprache" }));
      expect(note.status, note.processingError).toBe("completed");
      const sent = stt.calls.slice(before).map((c) => c.body);
      expect(sent.length).toBeGreaterThan(0);
      for (const body of sent) {
        expect(body.language).toBe("de");
        expect(body.prompt).toBe("Glossary: Notula, Lisbon.");
      }
      expect(note.inputLanguage).toBe("de");
      // The meeting's people join the vocabulary: processed again with participants, their names are sent too.
      await api("PATCH", `/v1/notes/${note.id}`, {
        participants: [
          { name: "Ana Lima", email: "ana@acme.example" },
          { email: "bo@acme.example" },
          { name: "Lisbon" },
        ],
      });
      const again = stt.calls.length;
      await api("POST", `/v1/notes/${note.id}/reprocess`);
      expect((await waitForStatus(api, note.id)).status).toBe("completed");
      const resent = stt.calls.slice(again).map((c) => c.body);
      expect(resent.length).toBeGreaterThan(0);
      // A name the vocabulary holds is not repeated; a participant known by address alone is named by it.
      for (const body of resent) expect(body.prompt).toBe("Glossary: Notula, Lisbon, Ana Lima, bo.");
      // The diarizing model's labels, each with its talk time.
      expect(note.transcripts.map((s: any) => s.speaker)).toEqual(["A", "B"]);
      expect(note.speakers.map((s: any) => s.label).sort()).toEqual(["A", "B"]);
      const renamed = await api("PATCH", `/v1/notes/${note.id}/speakers`, { label: "B", name: "Bea" });
      expect(renamed.body.speakers.find((s: any) => s.label === "B").name).toBe("Bea");
      expect((await api("GET", `/v1/notes/${note.id}`)).body.note.transcripts.map((s: any) => s.speaker)).toEqual([
        "A",
        "Bea",
      ]);
    } finally {
      await api("PATCH", "/v1/ai-config", { transcription: { language: null, vocabulary: [] } });
    }
    // Auto: the engine detects the language and the note records its code.
    const before = stt.calls.length;
    const auto = await waitForStatus(api, await uploadRecording(api, speech, "wav", { title: "Auto" }));
    expect(stt.calls.slice(before).every((c) => c.body.language === undefined && c.body.prompt === undefined)).toBe(
      true,
    );
    expect(auto.inputLanguage).toBe("en");
  }, 60_000);
});

describe("a four-hour meeting with a small model", () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startServer({
      args: ["--no-rate-limit", "--llm-url", llm.url],
      env: { NOTULA_LLM_CONTEXT_TOKENS: "1024" },
    });
    api = client(server.url, server.key);
  });
  afterAll(() => server?.stop());

  it("is read part by part, every part reaches the model, and a part that fails or is cut short is named", async () => {
    // 1,440 lines, one every 10 s: four hours.
    const transcripts = lines(1440);
    expect(transcripts.at(-1)!.startTimestamp).toBe("239:50");
    llm.set({ failWhen: /marker700 /, cutShortWhen: /marker1000 / });
    try {
      const before = llm.calls.length;
      const id = (await api("POST", "/v1/notes", { title: "All-hands", transcripts })).body.note.id;
      const note = await waitForStatus(api, id, undefined, 120_000);
      expect(note.status, note.processingError).toBe("completed");
      const calls = llm.calls.slice(before);
      const maps = calls.filter((c) => /Summarize this part/.test(systemOf(c)));
      // The map prompt asks for the template's sections.
      expect(systemOf(maps[0])).toContain("## Key points");
      // Every part was sent, each once (the failing one twice), by its place: 1, 2, … with none left out.
      const sentParts = maps.map((c) => Number(/part (\d+) \(/.exec(userOf(c))![1]));
      const parts = Math.max(...sentParts);
      expect(parts).toBeGreaterThan(40);
      expect(new Set(sentParts).size).toBe(parts);
      expect(sentParts).toHaveLength(parts + 1);
      const sent = maps.map(userOf).join("\n");
      for (let i = 0; i < 1440; i++) expect(sent).toContain(`marker${i} `);
      for (const c of calls) expect(userOf(c).length / 3.5).toBeLessThan(1024);

      expect(note.processingWarnings).toHaveLength(2);
      const [failed, cut] = [
        note.processingWarnings.find((w: string) => /could not be read/.test(w)),
        note.processingWarnings.find((w: string) => /cut short/.test(w)),
      ];
      // Line 700 was said at 116:40, line 1000 at 166:40: each warning names its part and when it was said.
      expect(failed).toMatch(
        /^Part \d+ of \d+ \((\d+):\d{2}–(\d+):\d{2}\) of the meeting could not be read by the model \(.*answered 500.*\); nothing from it is in the note\.$/,
      );
      const [, from, to] = /\((\d+):\d{2}–(\d+):\d{2}\)/.exec(failed)!.map(Number);
      expect(from).toBeLessThanOrEqual(116);
      expect(to).toBeGreaterThanOrEqual(116);
      expect(cut).toMatch(/^Part \d+ of \d+ \(16\d:\d{2}–16\d:\d{2}\) of the meeting was cut short/);
      expect(headings(note.enhancedNote)).toEqual(["Key points", "Decisions", "Action items"]);
    } finally {
      llm.set({ failWhen: undefined, cutShortWhen: undefined });
    }
  }, 180_000);
});
