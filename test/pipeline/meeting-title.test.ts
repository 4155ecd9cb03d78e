// A note made without a title is named for what was said; a title given, or set by a
// person later, is never replaced.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { titleOf } from "../../src/ai/summarization/meeting-title.js";
import { tone } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

const MEETING = [
  { speaker: "Sarah", text: "Good afternoon everyone, thanks for joining. Let's start with the agenda." },
  { speaker: "Sarah", text: "First item is the launch date. Marketing wants the launch date moved to May." },
  { speaker: "David", text: "If we move the launch date, the cloud costs go up for another month." },
  { speaker: "Tom", text: "The cloud costs were twenty percent over plan in March." },
  { speaker: "David", text: "I'll send a report on the cloud costs by Wednesday." },
  { speaker: "Sarah", text: "Any questions? Great, thanks everyone." },
];

describe("titleOf", () => {
  it("names the one or two topics the meeting came back to, in the order it came to them", () => {
    expect(titleOf(MEETING, ["Sarah Lee", "David", "Tom"])).toBe("Launch date and cloud costs");
  });

  it("reads no greeting, agenda talk, question or person's name as a topic", () => {
    const chatter = [
      { speaker: "A", text: "Hello everyone, welcome to the meeting. Thanks for joining." },
      { speaker: "B", text: "Thanks David. Good point, David." },
      { speaker: "A", text: "Any questions about the agenda? Does everyone agree?" },
      { speaker: "B", text: "David, are you there? David?" },
    ];
    expect(titleOf(chatter, ["David"])).toBeNull();
  });

  it("keeps a thing's capitals and writes the rest in lower case", () => {
    const lines = [
      { speaker: "A", text: "Pricing page first. The OpenShift cluster is full again." },
      { speaker: "B", text: "Then we grow the OpenShift cluster before the pricing page ships." },
      { speaker: "A", text: "The pricing page waits for the OpenShift cluster." },
    ];
    expect(titleOf(lines)).toBe("Pricing page and OpenShift cluster");
  });

  it("is null for a meeting that repeats nothing", () => {
    expect(titleOf([{ speaker: "A", text: "The nightly reports take four hours to run." }])).toBeNull();
    expect(titleOf([])).toBeNull();
  });
});

describe("an uploaded meeting's title", () => {
  let server: TestServer;
  let stt: VendorServer;
  const work = tempDir("notula-title-");
  let audio: string;
  beforeAll(async () => {
    audio = tone(work, 12);
    let t = 0;
    stt = await startTranscriptionServer({
      script: MEETING.map((l) => ({ start: t, end: (t += 2), text: l.text, speaker: l.speaker })),
    });
    server = await startServer({ args: ["--no-rate-limit", "--stt-url", stt.url] });
  });
  afterAll(async () => {
    await server?.stop();
    await stt?.close();
  });

  it("comes from what was said when none was given, and stays once a person sets one", async () => {
    const api = client(server.url, server.key);
    const id = await uploadRecording(api, audio, "wav");
    // Until it is summarized, the note is named for when it was made.
    expect((await api("GET", `/v1/notes/${id}`)).body.note.title).toMatch(/^Recording \d{4}-\d{2}-\d{2} /);
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.title).toBe("Launch date and cloud costs");
    // Found by its new title.
    const found = await api("GET", `/v1/notes?search=${encodeURIComponent("launch date")}`);
    expect(found.body.items.map((n: { id: string }) => n.id)).toContain(id);

    // A person's title is theirs: processing again does not name the note.
    expect((await api("PATCH", `/v1/notes/${id}`, { title: "Q2 launch" })).status).toBe(200);
    expect((await api("POST", `/v1/notes/${id}/reprocess`)).status).toBe(200);
    const again = await waitForStatus(api, id);
    expect(again.status, again.processingError).toBe("completed");
    expect(again.title).toBe("Q2 launch");
  });

  it("is the one given at upload", async () => {
    const api = client(server.url, server.key);
    const id = await uploadRecording(api, audio, "wav", { title: "design-review" });
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.title).toBe("design-review");
  });
});
