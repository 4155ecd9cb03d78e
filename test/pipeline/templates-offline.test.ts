// Templates shape notes without a language model: the extractive path fills each
// section with transcript sentences chosen by the bundled sentence-embedding model.
// Also: folder defaults, enhancing with another template, the note.updated event,
// speaker names over REST and MCP, and the transcription language reaching pocketsphinx.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speak } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { connectMcp } from "../helpers/mcp.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";

const work = tempDir("notula-templates-");
let server: TestServer;
let api: Client;
let userId: string;
const events: any[] = [];
let receiver: http.Server;

const STANDUP = [
  { speaker: "Ana", text: "Yesterday I finished the login page and fixed the password reset bug." },
  { speaker: "Bo", text: "Yesterday I reviewed the payment pull request and wrote the release notes." },
  { speaker: "Ana", text: "Today I will work on the signup form validation." },
  { speaker: "Bo", text: "Today I am going to deploy the payment service to staging." },
  { speaker: "Ana", text: "I am blocked on the design for the error states, I need the mockups from Cy." },
  { speaker: "Bo", text: "The staging database is down, which blocks my deployment." },
  { speaker: "Cy", text: "We decided to ship the payment service on Thursday." },
  { speaker: "Cy", text: "The customer said the budget for next year is fifty thousand euros." },
];
const at = (i: number) => `00:${String(i * 5).padStart(2, "0")}`;
const transcripts = STANDUP.map((l, i) => ({ ...l, startTimestamp: at(i), endTimestamp: at(i + 1) }));

const headings = (md: string) => [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
/** The lines of one section of an enhanced note. */
const section = (md: string, title: string) => md.split(`## ${title}\n`)[1]?.split(/\n## /)[0].trim() ?? "";

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
  // The bundled embedding model, as a server without an LLM uses it.
  server = await startServer({
    args: ["--no-rate-limit", "--stt-engine", "sphinx", "--allow-private-webhooks"],
    env: { NOTULA_EMBEDDINGS: "local" },
  });
  api = client(server.url, server.key);
  userId = (await api("GET", "/v1/me")).body.user.id;
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await api("POST", "/v1/integrations/automation/webhook", { hookUrl: hook })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  receiver?.close();
});

async function waitForEvent(type: string, noteId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const e = events.find((x) => x.type === type && x.payload.note.id === noteId);
    if (e) return e;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${type} event for ${noteId}`);
}

describe("templates on the offline path", () => {
  it("a note filed in a folder is enhanced with the folder's default template", async () => {
    const folder = (
      await api("POST", "/v1/folders", {
        name: "Daily stand-up",
        ownerUserId: userId,
        templateId: "tpl_builtin_stand-up",
      })
    ).body.folder;
    const speech = speak(
      work,
      "Yesterday I finished the login page. Today I will write the tests. I am blocked by the build server.",
    );
    const id = await uploadRecording(api, speech, "wav", { title: "Stand-up", folderId: folder.id });
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.template).toEqual({ id: "tpl_builtin_stand-up", name: "Stand-up" });
    expect(headings(note.enhancedNote)).toEqual(["Yesterday", "Today", "Blockers"]);
    // A note outside the folder gets the workspace default.
    const other = await waitForStatus(api, await uploadRecording(api, speech, "wav", { title: "Unfiled" }));
    expect(other.template.id).toBe("tpl_builtin_general");
    expect(headings(other.enhancedNote)).toEqual(["Key points", "Decisions", "Action items"]);
  }, 90_000);

  it("fills each section with the transcript sentences closest to it", async () => {
    const id = (await api("POST", "/v1/notes", { title: "Stand-up 2", transcripts })).body.note.id;
    await waitForStatus(api, id);
    const note = (await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_builtin_stand-up" })).body.note;
    expect(note.status).toBe("summarizing");
    const done = await waitForStatus(api, id);
    expect(done.status, done.processingError).toBe("completed");
    expect(headings(done.enhancedNote)).toEqual(["Yesterday", "Today", "Blockers"]);
    const said = new Set(STANDUP.map((l) => l.text));
    const bullets = (title: string) =>
      section(done.enhancedNote, title)
        .split("\n")
        .filter((l) => l.startsWith("- "))
        .map((l) => l.slice(2));
    for (const title of ["Yesterday", "Today", "Blockers"]) {
      expect(bullets(title).length, title).toBeGreaterThan(0);
      for (const b of bullets(title)) {
        // Each point is a sentence said, citing the moment it was said.
        const [, text, time, seconds] = /^(.*) \[(\d\d:\d\d)\]\(\/notes\/[^#]+#t=(\d+)\)$/.exec(b) ?? [];
        expect(said.has(text), `${title}: ${b}`).toBe(true);
        const line = STANDUP.findIndex((l) => l.text === text);
        expect([time, Number(seconds)], b).toEqual([at(line), line * 5]);
      }
    }
    expect(bullets("Yesterday").join(" ")).toMatch(/Yesterday I finished the login page/);
    expect(bullets("Today").join(" ")).toMatch(/Today I will work on the signup form/);
    expect(bullets("Blockers").join(" ")).toMatch(/block/);
  }, 60_000);

  it("enhance with two templates gives two differently sectioned notes, and announces note.updated", async () => {
    const id = (
      await api("POST", "/v1/notes", { title: "Customer call", transcripts, userWrittenNote: "Ask about renewal." })
    ).body.note.id;
    await waitForStatus(api, id);
    await waitForEvent("note.completed", id);

    await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_builtin_general" });
    const general = await waitForStatus(api, id);
    expect(general.template.id).toBe("tpl_builtin_general");
    expect(headings(general.enhancedNote)).toEqual(["Your notes", "Key points", "Decisions", "Action items"]);
    expect(section(general.enhancedNote, "Decisions")).toMatch(/We decided to ship the payment service on Thursday/);

    await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_builtin_sales-call" });
    const sales = await waitForStatus(api, id);
    expect(sales.template).toEqual({ id: "tpl_builtin_sales-call", name: "Sales call" });
    expect(headings(sales.enhancedNote)).toEqual([
      "Your notes",
      "Company and contact",
      "Pain points",
      "Current solution",
      "Budget",
      "Decision makers",
      "Timeline",
      "Objections",
      "Next steps",
    ]);
    expect(section(sales.enhancedNote, "Budget")).toMatch(/budget for next year is fifty thousand euros/);
    expect(sales.enhancedNote).not.toEqual(general.enhancedNote);
    const updated = await waitForEvent("note.updated", id);
    expect(updated.payload.note.status).toBe("completed");
  }, 90_000);

  it("enhance refuses unknown templates, notes being processed, and notes with nothing to enhance", async () => {
    const id = (await api("POST", "/v1/notes", { title: "T", transcripts })).body.note.id;
    await waitForStatus(api, id);
    const unknown = await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_nope" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^templateId: /);
    expect((await api("POST", `/v1/notes/${id}/enhance`, { templateId: "tpl_builtin_general", extra: 1 })).status).toBe(
      400,
    );
    expect((await api("POST", `/v1/notes/${id}/enhance`, {})).status).toBe(200);
    await waitForStatus(api, id);
    const empty = (await api("POST", "/v1/notes", { title: "Empty" })).body.note.id;
    expect((await api("POST", `/v1/notes/${empty}/enhance`, {})).status).toBe(400);
    expect((await api("POST", "/v1/notes/not_a_note/enhance", {})).status).toBe(404);
  }, 60_000);
});

describe("speakers", () => {
  it("renames a label over REST and MCP, by name or by participant email, and keeps it through reprocessing", async () => {
    const id = (
      await api("POST", "/v1/notes", {
        title: "Planning",
        participants: [{ name: "Ana Silva", email: "ana@example.com" }],
        transcripts: [
          {
            speaker: "SPEAKER_00",
            text: "I will send the revised budget numbers by Friday.",
            startTimestamp: "00:00",
            endTimestamp: "00:20",
          },
          {
            speaker: "SPEAKER_01",
            text: "We decided to hire two engineers.",
            startTimestamp: "00:20",
            endTimestamp: "00:25",
          },
          {
            speaker: "SPEAKER_00",
            text: "The office move is planned for March.",
            startTimestamp: "00:25",
            endTimestamp: "00:40",
          },
        ],
      })
    ).body.note.id;
    await waitForStatus(api, id);

    const before = (await api("GET", `/v1/notes/${id}/speakers`)).body.speakers;
    expect(before).toEqual([
      { label: "SPEAKER_00", name: "SPEAKER_00", email: null, suggested: false, talkTimeSec: 35, segments: 2 },
      { label: "SPEAKER_01", name: "SPEAKER_01", email: null, suggested: false, talkTimeSec: 5, segments: 1 },
    ]);
    const byEmail = await api("PATCH", `/v1/notes/${id}/speakers`, { label: "SPEAKER_00", email: "ANA@example.com" });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.speakers[0]).toEqual({
      label: "SPEAKER_00",
      name: "Ana Silva",
      email: "ana@example.com",
      suggested: false,
      talkTimeSec: 35,
      segments: 2,
    });
    expect((await api("PATCH", `/v1/notes/${id}/speakers`, { label: "SPEAKER_01", name: "Bo" })).status).toBe(200);

    const note = (await api("GET", `/v1/notes/${id}`)).body.note;
    expect(note.transcripts.map((s: any) => s.speaker)).toEqual(["Ana Silva", "Bo", "Ana Silva"]);
    expect(note.speakers.map((s: any) => [s.label, s.name])).toEqual([
      ["SPEAKER_00", "Ana Silva"],
      ["SPEAKER_01", "Bo"],
    ]);

    const { client: mcp } = await connectMcp(server.url, server.key);
    try {
      const r: any = await mcp.callTool({ name: "svc_get_note", arguments: { id } });
      expect(r.structuredContent.note.transcripts.map((s: any) => s.speaker)).toEqual(["Ana Silva", "Bo", "Ana Silva"]);
      expect(r.structuredContent.note.speakers[0].name).toBe("Ana Silva");
      expect(r.content[0].text).toContain("Ana Silva: I will send the revised budget numbers by Friday.");
      expect(r.content[0].text).toMatch(/Speakers: Ana Silva \(0:35\), Bo \(0:05\)/);
      expect(r.content[0].text).toContain("Template: General meeting");
    } finally {
      await mcp.close();
    }

    // Summarizing again uses the names: the action item's owner is Ana, not a label.
    await api("POST", `/v1/notes/${id}/reprocess`);
    const again = await waitForStatus(api, id);
    expect(again.enhancedNote).toMatch(/I will send the revised budget numbers by Friday\. \(owner: Ana Silva\)/);
    expect(again.transcripts[1].speaker).toBe("Bo");

    // null gives the label back; unknown labels and strangers are refused by name.
    expect(
      (await api("PATCH", `/v1/notes/${id}/speakers`, { label: "SPEAKER_01", name: null })).body.speakers[1].name,
    ).toBe("SPEAKER_01");
    const unknown = await api("PATCH", `/v1/notes/${id}/speakers`, { label: "SPEAKER_09", name: "X" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^label: .*SPEAKER_00, SPEAKER_01/);
    const stranger = await api("PATCH", `/v1/notes/${id}/speakers`, {
      label: "SPEAKER_00",
      email: "nobody@example.com",
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toMatch(/^email: /);
    expect((await api("PATCH", `/v1/notes/${id}/speakers`, { label: "SPEAKER_00" })).status).toBe(400);
  }, 60_000);
});

describe("the transcription language reaches pocketsphinx", () => {
  it("a language it has no model for fails the note with a message naming it; English works and is recorded", async () => {
    const speech = speak(work, "Good morning everyone, the budget review starts now.");
    expect((await api("PATCH", "/v1/ai-config", { transcription: { language: "fr" } })).status).toBe(200);
    const fr = await waitForStatus(api, await uploadRecording(api, speech, "wav", { title: "French" }));
    expect(fr.status).toBe("recorded-not-summarized");
    expect(fr.processingError).toMatch(/pocketsphinx has no model for the language "fr" \(installed: .*en-us/);

    expect((await api("PATCH", "/v1/ai-config", { transcription: { language: "en" } })).status).toBe(200);
    const en = await waitForStatus(api, await uploadRecording(api, speech, "wav", { title: "English" }));
    expect(en.status, en.processingError).toBe("completed");
    expect(en.inputLanguage).toBe("en");
    await api("PATCH", "/v1/ai-config", { transcription: { language: null } });
  }, 90_000);
});
