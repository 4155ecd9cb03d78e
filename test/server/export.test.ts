// One note exported as files other tools read: GET /v1/notes/{id}/export as markdown
// with front matter, plain text, and WebVTT and SRT subtitles with speakers (read back
// with a subtitle parser), the same bytes from the note page's download menu and from
// `notula notes export`; and who may, and what is refused.
import { parseSync } from "subtitle";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminBrowser } from "../helpers/admin-browser.js";
import { client, type Client } from "../helpers/http.js";
import { addMember } from "../helpers/members.js";
import { cliEnv, run, startServer, type TestServer } from "../helpers/server.js";
import { waitForStatus } from "../helpers/flow.js";

let server: TestServer;
let api: Client;
let noteId: string;

const line = (speaker: string, text: string, start: string, end: string) => ({
  speaker,
  text,
  startTimestamp: start,
  endTimestamp: end,
});

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  const made = await api("POST", "/v1/notes", {
    title: "Office planning: Lisbon & Porto",
    userWrittenNote: "- Ask **legal** about the lease",
    participants: [{ name: "Ana Lopez", email: "ana@acme.example" }],
    transcripts: [
      line("Ana", "We decided to open the Lisbon office in March.", "00:05", "00:11"),
      line("Ben", "The budget is <200k> & rising.", "00:11", "00:18"),
      line("Ana", "An hour later: the lease is signed.", "61:05", "61:09"),
    ],
  });
  expect(made.status, made.text).toBe(200);
  noteId = made.body.note.id;
  // Its transcript is summarised in the background: the exports compared are of the note once that is done.
  await waitForStatus(api, noteId);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const exported = (format: string, key = server.key) =>
  fetch(`${server.url}/v1/notes/${noteId}/export?format=${format}`, { headers: { authorization: `Bearer ${key}` } });

describe("GET /v1/notes/{id}/export", () => {
  it("writes WebVTT with each line's speaker as a voice, and SRT with the name before the words", async () => {
    const vtt = await exported("vtt");
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(vtt.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="\\d{4}-\\d\\d-\\d\\d-office-planning-lisbon-porto-${noteId}\\.vtt"`),
    );
    const vttText = await vtt.text();
    expect(vttText.startsWith("WEBVTT\n")).toBe(true);
    const cues = parseSync(vttText).filter((n) => n.type === "cue");
    expect(cues.map((c) => c.data)).toEqual([
      expect.objectContaining({
        start: 5_000,
        end: 11_000,
        text: "<v Ana>We decided to open the Lisbon office in March.",
      }),
      expect.objectContaining({ start: 11_000, end: 18_000, text: "<v Ben>The budget is &lt;200k> &amp; rising." }),
      expect.objectContaining({ start: 3_665_000, end: 3_669_000, text: "<v Ana>An hour later: the lease is signed." }),
    ]);
    expect(vttText).toContain("01:01:05.000 --> 01:01:09.000");

    const srt = await (await exported("srt")).text();
    expect(srt).toContain("1\n00:00:05,000 --> 00:00:11,000\nAna: We decided to open the Lisbon office in March.");
    expect(srt).toContain("Ben: The budget is <200k> & rising.");
    expect(parseSync(srt).filter((n) => n.type === "cue")).toHaveLength(3);
  });

  it("writes markdown with front matter, the default, and plain text with the link", async () => {
    const md = await exported("md");
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await md.text();
    expect(text).toMatch(/^---\nid: "note_/);
    expect(text).toContain('title: "Office planning: Lisbon & Porto"');
    expect(text).toContain('participants: ["ana@acme.example"]');
    expect(text).toMatch(new RegExp(`link: "http[^"]+/notes/${noteId}"`));
    expect(text).toContain("- [61:05] **Ana:** An hour later: the lease is signed.");
    const byDefault = await fetch(`${server.url}/v1/notes/${noteId}/export`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(await byDefault.text()).toBe(text);

    const txt = await (await exported("txt")).text();
    expect(txt).toMatch(
      /^Office planning: Lisbon & Porto\n=+\n\nDate: \d{4}-\d\d-\d\d \d\d:\d\d UTC\nParticipants: Ana Lopez\n/,
    );
    expect(txt).toContain("Your notes\n----------\n- Ask legal about the lease");
    expect(txt).toContain("[00:11] Ben: The budget is <200k> & rising.");
  });

  it("refuses a format it does not know and a field it does not know, by name, and a note the caller may not read", async () => {
    const pdf = await exported("pdf");
    expect(pdf.status).toBe(400);
    expect(((await pdf.json()) as { error: { message: string } }).error.message).toMatch(/format/);
    const extra = await fetch(`${server.url}/v1/notes/${noteId}/export?format=md&color=red`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(extra.status).toBe(400);
    expect(((await extra.json()) as { error: { message: string } }).error.message).toMatch(/color/);
    const secret = await api("POST", "/v1/notes", { title: "Board only", visibility: "private" });
    const member = await addMember(server, { name: "mo" });
    const hidden = await fetch(`${server.url}/v1/notes/${secret.body.note.id}/export?format=md`, {
      headers: { authorization: `Bearer ${member.key}` },
    });
    expect(hidden.status).toBe(404);
    expect((await exported("md", member.key)).status).toBe(200);
  });

  it("gives the same files from the note page's download menu and from notula notes export", async () => {
    const a = await adminBrowser(server, "admin");
    const page = (await a.page(`/notes/${noteId}`)).html;
    expect(page).toContain('id="downloads"');
    for (const f of ["md", "txt", "vtt", "srt"]) expect(page).toContain(`href="/notes/${noteId}/export?format=${f}"`);
    const fromPage = await a.page(`/notes/${noteId}/export?format=srt`);
    expect(fromPage.status).toBe(200);
    expect(fromPage.html).toBe(await (await exported("srt")).text());
    expect((await a.page(`/notes/${noteId}/export?format=pdf`)).status).toBe(400);

    const cli = await run(["notes", "export", noteId, "--format", "vtt", "--out", "-"], { env: cliEnv(server) });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toBe(await (await exported("vtt")).text());
  });
});
