// Who said what on a two-source recording: the person recording on channel 0 (flite's
// slt, with the call bleeding into the microphone), two others alternating on channel 1
// (awb and rms), once talking over the person. Through an upload and through
// `notula record --input`, transcribed by pocketsphinx, each segment lands on the side
// that spoke it, named for the person and for the meeting's one other attendee. The
// bad input: a stereo file whose channels are one signal stays unattributed, and a
// recording whose other side is silent is all the person's.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { until } from "../helpers/until.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, run, startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { client, type Client } from "../helpers/http.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { twoSourceMeeting, type SpokenTurn, type Turn } from "../helpers/two-sources.js";

const TURNS: Turn[] = [
  { side: "me", voice: "slt", text: "Good morning everyone, let us look at the budget for the Lisbon office." },
  { side: "others", voice: "awb", text: "Thanks. The quarterly revenue grew by twelve percent compared to last year." },
  { side: "others", voice: "rms", text: "I think we should hire two more engineers before the summer." },
  {
    side: "me",
    voice: "slt",
    text: "Please schedule a meeting with the design team for Tuesday afternoon.",
    overlapSec: 1,
  },
  { side: "others", voice: "awb", text: "I will send the contract on Friday, after the review." },
];

let server: TestServer;
let api: Client;
const work = tempDir("notula-channels-");

interface Segment {
  startSec: number;
  endSec: number;
  speaker: string;
  text: string;
}

/** The side that spoke most of a segment's time, by the known turns. */
function truthOf(turns: SpokenTurn[], s: Segment): "me" | "others" | null {
  const spoke = { me: 0, others: 0 };
  for (const t of turns) spoke[t.side] += Math.max(0, Math.min(t.endSec, s.endSec) - Math.max(t.startSec, s.startSec));
  if (spoke.me === 0 && spoke.others === 0) return null;
  return spoke.me >= spoke.others ? "me" : "others";
}

/** A note's segments with their times to the millisecond (the API gives whole seconds). */
const segmentsOf = async (noteId: string) =>
  (
    await storeQuery(
      server.dataDir,
      "SELECT start_sec, end_sec, speaker, text FROM transcript_segments WHERE note_id = ? ORDER BY position",
      noteId,
    )
  ).map((r) => ({ startSec: Number(r.start_sec), endSec: Number(r.end_sec), speaker: r.speaker, text: r.text }));

/**
 * Each segment of the note whose truth the turns tell lands on its side (at least
 * `atLeast` of them), named "Admin" or `others`; the segments judged.
 */
async function expectSides(turns: SpokenTurn[], noteId: string, others: string, atLeast: number) {
  const read = sides(turns, await segmentsOf(noteId), { me: "Admin", others });
  const judged = read.filter((r) => r.truth);
  expect(judged.length, JSON.stringify(read)).toBeGreaterThanOrEqual(atLeast);
  expect(
    judged.filter((r) => r.heard !== r.truth),
    JSON.stringify(read),
  ).toEqual([]);
  return judged;
}

/** Each segment's side as the transcript names it, against the turns. */
function sides(turns: SpokenTurn[], segments: Segment[], names: { me: string; others: string }) {
  return segments.map((s) => ({
    at: s.startSec,
    said: s.text,
    heard: s.speaker === names.me ? "me" : s.speaker === names.others ? "others" : `? ${s.speaker}`,
    truth: truthOf(turns, s),
  }));
}

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx"] });
  api = client(server.url, server.key);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("two channels: the person recording and the others", () => {
  it("attributes each segment of an upload to the side that spoke it, by name", async () => {
    const meeting = twoSourceMeeting(`${work}/upload`, TURNS);
    const noteId = await uploadRecording(
      api,
      meeting.file,
      "wav",
      {
        title: "Budget call",
        channels: ["me", "others"],
        participants: [{ name: "Nia Vale", email: "nia@partner.example" }],
      },
      Math.ceil(meeting.durationSec),
    );
    const note = await waitForStatus(api, noteId, ["completed", "recorded-not-summarized", "failed"], 120_000);
    expect(note.status, note.processingError ?? "").not.toBe("failed");
    const judged = await expectSides(meeting.turns, noteId, "Nia Vale", 4);
    // Both sides are there, each under its name.
    expect(new Set(judged.map((r) => r.heard))).toEqual(new Set(["me", "others"]));
  }, 180_000);

  it("does the same through notula record --input --channels me,others", async () => {
    const meeting = twoSourceMeeting(`${work}/record`, TURNS.slice(0, 3));
    const rec = await run(["record", "--input", meeting.file, "--channels", "me,others", "--json"], {
      env: cliEnv(server),
    });
    expect(rec.code, rec.stderr).toBe(0);
    const noteId = JSON.parse(rec.stdout).id as string;
    await waitForStatus(api, noteId, ["completed", "recorded-not-summarized", "failed"], 120_000);
    await expectSides(meeting.turns, noteId, "Others", 2);
  }, 180_000);

  it("leaves a stereo file whose channels are one signal unattributed, and a silent side empty", async () => {
    const mono = twoSourceMeeting(`${work}/same`, [TURNS[0], TURNS[1]], { bleedDb: null });
    const same = `${work}/same/same.wav`;
    // Both channels the same mix.
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", mono.file, "-ac", "1", "-ar", "16000", `${same}.mono.wav`]);
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", `${same}.mono.wav`, "-ac", "2", same]);
    const sameId = await uploadRecording(api, same, "wav", { channels: ["me", "others"] }, 12);
    const sameNote = await waitForStatus(api, sameId, ["completed", "recorded-not-summarized", "failed"], 120_000);
    expect(sameNote.transcripts.length).toBeGreaterThan(0);
    expect(sameNote.transcripts.every((s: Segment) => s.speaker !== "Admin" && s.speaker !== "Others")).toBe(true);

    // Only the person speaks: everything is theirs, nothing is "Others".
    const alone = twoSourceMeeting(
      `${work}/alone`,
      [TURNS[0], TURNS[3]].map((t) => ({ ...t, overlapSec: 0 })),
    );
    const aloneId = await uploadRecording(api, alone.file, "wav", { channels: ["me", "others"] }, 12);
    const aloneNote = await waitForStatus(api, aloneId, ["completed", "recorded-not-summarized", "failed"], 120_000);
    expect(aloneNote.transcripts.length).toBeGreaterThan(0);
    expect(aloneNote.transcripts.map((s: Segment) => s.speaker)).toEqual(aloneNote.transcripts.map(() => "Admin"));
  }, 180_000);

  it("attributes the live transcript too, while the meeting is recorded", async () => {
    // About 45 seconds: enough for live windows before it stops.
    const meeting = twoSourceMeeting(
      `${work}/live`,
      [...TURNS, ...TURNS.slice(0, 4)].map((t) => ({ ...t, overlapSec: 0 })),
    );
    const ogg = `${work}/live/stream.ogg`;
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-i",
      meeting.file,
      "-c:a",
      "libopus",
      "-b:a",
      "48k",
      "-f",
      "ogg",
      ogg,
    ]);
    const bytes = fs.readFileSync(ogg);
    const n = 12;
    const size = Math.ceil(bytes.length / n);
    const durationMs = Math.round((meeting.durationSec * 1000) / n);
    const started = await api("POST", "/v1/recordings", { format: "ogg", channels: ["me", "others"] });
    expect(started.status, started.text).toBe(200);
    const noteId = started.body.note.id as string;
    for (let seq = 0; seq < n; seq++) {
      const put = await fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}?durationMs=${durationMs}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
        body: bytes.subarray(seq * size, (seq + 1) * size),
      });
      expect(put.status).toBe(200);
    }
    const live = await until(
      "a live transcript",
      async () => {
        const note = (await api("GET", `/v1/notes/${noteId}`)).body.note;
        return note.status === "recording" && note.transcripts.length >= 2 ? note : null;
      },
      // Generous: pocketsphinx on a loaded two-core machine is slow, and this waits for its words.
      180_000,
    );
    expect(live.status).toBe("recording");
    await expectSides(meeting.turns, noteId, "Others", 2);
    await api("POST", `/v1/recordings/${noteId}/stop`);
  }, 300_000);

  it("refuses channels it does not know, by name", async () => {
    const res = await api("POST", "/v1/recordings", { format: "ogg", channels: ["others", "me"] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("channels");
    const cli = await run(["record", "--input", "x.wav", "--channels", "left,right"], { env: cliEnv(server) });
    expect(cli.code).toBe(2);
  });
});
