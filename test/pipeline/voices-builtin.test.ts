// Speakers told apart on one microphone with nothing downloaded: a meeting of flite's
// voices in a room, uploaded, comes out with a speaker per voice, the number bounded by
// the meeting's people when it names them and estimated when it does not; one voice
// stays one speaker. The speech server is a stand-in that gives the lines (with their
// times) and no speakers, as whisper or pocketsphinx do; the voices are notula's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { roomMeeting, type RoomTurn } from "../helpers/room.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

const work = tempDir("notula-voices-");
const LINES = [
  "Good morning everyone, let us look at the budget for the Lisbon office.",
  "The quarterly revenue grew by twelve percent compared to last year.",
  "I think we should hire two more engineers before the summer.",
  "Please schedule a meeting with the design team for Tuesday afternoon.",
  "I will send the contract on Friday, after the review.",
  "Can we move the launch to the second week of March?",
  "The customer asked for a discount on the annual plan.",
  "Let us ask legal to look at the new terms first.",
  "We are still waiting for the numbers from the sales team.",
  "That sounds good to me, let us decide next week.",
  "Our cloud costs went up again in the last quarter.",
  "Who can take the action item for the hiring plan?",
];

/** Who said each line as the note tells it, and as it was said: the same partition of the lines? */
function samePeople(noteLines: { speaker: string; startTimestamp: string; endTimestamp: string }[], turns: RoomTurn[]) {
  // Times are whole seconds: a line is the turn said at its middle.
  const secOf = (t: string) => t.split(":").reduce((s, p) => s * 60 + Number(p), 0);
  const pairs = noteLines.map((l) => {
    const at = (secOf(l.startTimestamp) + secOf(l.endTimestamp)) / 2;
    const turn = turns.reduce((best, t) =>
      Math.abs((t.start + t.end) / 2 - at) < Math.abs((best.start + best.end) / 2 - at) ? t : best,
    );
    return [l.speaker, turn.voice] as const;
  });
  const byNote = new Map<string, Set<string>>();
  const byVoice = new Map<string, Set<string>>();
  for (const [s, v] of pairs) {
    byNote.set(s, (byNote.get(s) ?? new Set()).add(v));
    byVoice.set(v, (byVoice.get(v) ?? new Set()).add(s));
  }
  return [...byNote.values(), ...byVoice.values()].every((x) => x.size === 1);
}

describe("speakers told apart on one microphone, with nothing downloaded", () => {
  let server: TestServer;
  let api: Client;
  let stt: VendorServer;
  const meetings: Record<string, { file: string; turns: RoomTurn[] }> = {};
  beforeAll(async () => {
    const voices = ["slt", "awb", "rms", "kal16"];
    meetings.four = roomMeeting(
      `${work}/four`,
      LINES.map((text, i) => ({ voice: voices[(i * 3 + Math.floor(i / 4)) % 4], text })),
    );
    meetings.one = roomMeeting(
      `${work}/one`,
      LINES.slice(0, 8).map((text) => ({ voice: "slt", text })),
    );
    stt = await startTranscriptionServer();
    server = await startServer({ args: ["--no-rate-limit", "--stt-url", stt.url] });
    api = client(server.url, server.key);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await stt?.close();
  });

  /** Uploads a meeting whose lines the stand-in gives as said (one a turn, no speakers). */
  async function upload(m: { file: string; turns: RoomTurn[] }, extra: Record<string, unknown> = {}) {
    stt.set({ script: m.turns.map((t) => ({ start: t.start, end: t.end, text: t.text })) });
    const id = await uploadRecording(api, m.file, "wav", extra, Math.ceil(m.turns.at(-1)!.end));
    const note = await waitForStatus(api, id);
    expect(note.status, note.processingError).toBe("completed");
    return note;
  }

  it("gives each voice of a four-person meeting its own speaker, with the meeting's people and without", async () => {
    const people = ["Ana", "Ben", "Cleo", "Dee"].map((name) => ({ name, email: `${name.toLowerCase()}@acme.example` }));
    for (const extra of [{ participants: people }, {}]) {
      const note = await upload(meetings.four, extra);
      const speakers = new Set(note.transcripts.map((l: { speaker: string }) => l.speaker));
      expect(speakers.size, JSON.stringify(extra)).toBe(4);
      expect(samePeople(note.transcripts, meetings.four.turns)).toBe(true);
      expect(note.processingInfo.speakers).toBe("built-in");
    }
  });

  it("keeps one voice one speaker, and a meeting of two people at most two", async () => {
    const note = await upload(meetings.one);
    expect(new Set(note.transcripts.map((l: { speaker: string }) => l.speaker))).toEqual(new Set(["Speaker"]));
    // Four people invited, one of them talked: still one voice, no person invented.
    const invited = ["Ana", "Ben", "Cleo", "Dee"].map((name) => ({ name }));
    const alone = await upload(meetings.one, { participants: invited });
    expect(new Set(alone.transcripts.map((l: { speaker: string }) => l.speaker))).toEqual(new Set(["Speaker"]));
    const two = await upload(meetings.four, { participants: [{ name: "Ana" }, { name: "Ben" }] });
    expect(new Set(two.transcripts.map((l: { speaker: string }) => l.speaker)).size).toBeLessThanOrEqual(2);
  });
});
