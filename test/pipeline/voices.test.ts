// Several voices on one side, split by the local speaker models (sherpa-onnx): the split
// of a transcript by the turns a diarization found; the engine refusing a file it
// cannot load without taking the server down; the models' setup from Settings →
// Speech-to-text (download from a local host, checksum, refusal of a file that is no
// model); and a note whose models broke on disk, which keeps its two sides, says why
// it has no more, and puts the reason on the settings page.
//
// No real speaker model can be downloaded here, so the separation itself runs only where
// NOTULA_TEST_SPEAKER_MODELS names a folder holding pyannote-segmentation-3-0.onnx and
// nemo_en_titanet_small.onnx; otherwise that one test is skipped, saying so.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diarizePcm, DiarizationError } from "../../src/ai/diarization/diarize.js";
import { splitByVoice } from "../../src/ai/diarization/split.js";
import { adminBrowser, type SetupState } from "../helpers/admin-browser.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startModelHost } from "../helpers/model-host.js";
import { startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { twoSourceMeeting, type Turn } from "../helpers/two-sources.js";
import { until } from "../helpers/until.js";
import { execFileSync } from "node:child_process";

const work = tempDir("notula-voices-");
const label = (v: number) => `Speaker ${v + 1}`;
const seg = (startSec: number, endSec: number, speaker: string, text = "words") => ({
  startSec,
  endSec,
  speaker,
  text,
});

describe("a side split by voice", () => {
  const turns = [
    { startSec: 0, endSec: 4, voice: 0 },
    { startSec: 4.5, endSec: 9, voice: 1 },
    { startSec: 9.5, endSec: 12, voice: 0 },
  ];

  it("gives each picked line to the voice heard most while it was said, and leaves the rest", () => {
    const out = splitByVoice(
      [seg(0, 4, "Others"), seg(4, 9, "Others"), seg(9, 12, "Admin"), seg(10, 12, "Others")],
      turns,
      { split: (s) => s.speaker !== "Admin", label },
    );
    expect(out.map((s) => s.speaker)).toEqual(["Speaker 1", "Speaker 2", "Admin", "Speaker 1"]);
  });

  it("cuts a line whose timed words change voice into one line per voice", () => {
    const words = [
      { text: "thanks", start: 3.0, end: 3.5 },
      { text: "everyone", start: 3.5, end: 3.9 },
      { text: "my", start: 4.6, end: 4.8 },
      { text: "turn", start: 4.8, end: 5.3 },
    ];
    const out = splitByVoice([{ ...seg(3, 6, "Others", "thanks everyone my turn"), words }], turns, {
      split: () => true,
      label,
    });
    expect(out.map((s) => [s.speaker, s.text])).toEqual([
      ["Speaker 1", "thanks everyone"],
      ["Speaker 2", "my turn"],
    ]);
  });

  it("changes nothing when only one person spoke (a second voice under a second is a cough)", () => {
    const lines = [seg(0, 4, "Others"), seg(4, 9, "Others")];
    const one = [
      { startSec: 0, endSec: 9, voice: 0 },
      { startSec: 9, endSec: 9.6, voice: 1 },
    ];
    expect(splitByVoice(lines, one, { split: () => true, label })).toBe(lines);
  });
});

describe("the speaker engine", () => {
  let pcm: string;
  beforeAll(() => {
    pcm = path.join(work, "two-seconds.pcm");
    fs.writeFileSync(pcm, Buffer.alloc(64_000));
  });

  it("refuses a model file it cannot load with the reason, in a child process that dies alone", async () => {
    const dir = path.join(work, "corrupt");
    fs.mkdirSync(dir, { recursive: true });
    const models = { segmentation: path.join(dir, "seg.onnx"), embedding: path.join(dir, "emb.onnx") };
    fs.writeFileSync(models.segmentation, Buffer.from("not an onnx model at all, only text"));
    fs.writeFileSync(models.embedding, Buffer.from("neither is this"));
    const err = await diarizePcm(pcm, { models }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiarizationError);
    expect((err as Error).message).toMatch(/^a model file could not be loaded \(.*Protobuf parsing failed/);
    // The server's paths stay out of what is said.
    expect((err as Error).message).not.toContain(dir);
  });

  it("says which model is missing", async () => {
    const models = { segmentation: path.join(work, "none.onnx"), embedding: path.join(work, "none2.onnx") };
    await expect(diarizePcm(pcm, { models })).rejects.toThrow(/^the model none\.onnx is missing$/);
  });

  const real = process.env.NOTULA_TEST_SPEAKER_MODELS;
  it.skipIf(!real)(
    "tells two voices apart on one microphone (skipped: NOTULA_TEST_SPEAKER_MODELS names no folder of speaker models)",
    async () => {
      const models = {
        segmentation: path.join(real!, "pyannote-segmentation-3-0.onnx"),
        embedding: path.join(real!, "nemo_en_titanet_small.onnx"),
      };
      const turns: Turn[] = [
        { side: "others", voice: "awb", text: "The quarterly revenue grew by twelve percent compared to last year." },
        { side: "others", voice: "slt", text: "Please schedule a meeting with the design team for Tuesday afternoon." },
        { side: "others", voice: "awb", text: "I will send the contract on Friday, after the review." },
        {
          side: "others",
          voice: "slt",
          text: "Good morning everyone, let us look at the budget for the Lisbon office.",
        },
      ];
      const meeting = twoSourceMeeting(path.join(work, "real"), turns, { bleedDb: null });
      const mono = path.join(work, "real.pcm");
      execFileSync("ffmpeg", [
        "-v",
        "error",
        "-y",
        "-i",
        meeting.file,
        "-af",
        "pan=mono|c0=c1",
        "-ar",
        "16000",
        "-f",
        "s16le",
        mono,
      ]);
      const d = await diarizePcm(mono, { models });
      const voiceOf = (t: (typeof meeting.turns)[number]) =>
        d.turns
          .map((x) => ({ v: x.voice, o: Math.min(x.endSec, t.endSec) - Math.max(x.startSec, t.startSec) }))
          .sort((a, b) => b.o - a.o)[0]?.v;
      const found = meeting.turns.map(voiceOf);
      expect(found[0]).not.toBe(found[1]);
      expect(found[0]).toBe(found[2]);
      expect(found[1]).toBe(found[3]);
    },
    120_000,
  );
});

describe("the speaker models, set up from Settings → Speech-to-text", () => {
  let server: TestServer;
  const notAModel = Buffer.from("x".repeat(300_000));
  const files = { "pyannote-segmentation-3-0.onnx": notAModel, "nemo_en_titanet_small.onnx": notAModel };
  const speakersDir = () => path.join(server.dataDir, "models", "speakers");
  const finished = (a: { status(at?: string): Promise<SetupState> }) =>
    until(
      "the speaker setup to finish",
      async () => {
        const s = await a.status("/settings/speech/speakers/status");
        return s.phase === "done" || s.phase === "failed" ? s : null;
      },
      60_000,
    );

  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a download whose checksum is wrong, and a file that is no speaker model, keeping neither", async () => {
    const wrong = await startModelHost(0, { files, wrongChecksum: true });
    const right = await startModelHost(0, { files });
    try {
      server = await startServer({
        args: ["--no-rate-limit", "--stt-engine", "sphinx"],
        env: { NOTULA_MODELS_URL: wrong.url },
      });
      const a = await adminBrowser(server, "admin");
      // Not set up: switching it on over the API is refused, naming the field.
      const on = await a.api("PATCH", "/v1/ai-config", { speakerSeparation: "local" });
      expect(on.status).toBe(400);
      expect(on.body.error.message).toMatch(/^speakerSeparation: the speaker models are not on this server/);
      expect((await a.page("/settings/speech")).html).toContain("Off: each side of a recording is one speaker.");

      expect((await a.post("/settings/speech/speakers/setup", {})).status).toBe(303);
      const failed = await finished(a);
      expect(failed.phase).toBe("failed");
      expect(failed.error).toMatch(/Checksum mismatch for pyannote-segmentation-3-0\.onnx/);
      expect(fs.existsSync(speakersDir()) ? fs.readdirSync(speakersDir()) : []).toEqual([]);
      expect((await a.page("/settings/speech")).html).toContain(
        "Setting up the speaker models failed: Checksum mismatch",
      );

      // A member may not start it.
      const m = await adminBrowser(server, "member");
      expect((await m.post("/settings/speech/speakers/setup", {})).status).toBe(403);
      expect((await m.page("/settings/speech/speakers/status")).status).toBe(403);
    } finally {
      await wrong.close();
      await server?.stop();
    }
    try {
      server = await startServer({
        args: ["--no-rate-limit", "--stt-engine", "sphinx"],
        env: { NOTULA_MODELS_URL: right.url },
      });
      const a = await adminBrowser(server, "admin");
      expect((await a.post("/settings/speech/speakers/setup", {})).status).toBe(303);
      const refused = await finished(a);
      // Both downloads arrived whole and verified; sherpa-onnx could not load them, so they went.
      expect(refused.received).toBe(2 * notAModel.length);
      expect(refused.error).toMatch(/a model file could not be loaded \(.*\); the files were removed/);
      expect(fs.readdirSync(speakersDir())).toEqual([]);
      expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.speakerSeparation).toMatchObject({
        engine: "off",
        ready: false,
      });
      expect(right.requests).toBe(2);
    } finally {
      await right.close();
    }
  }, 120_000);

  it("gives a note without the split when the models broke on disk, says why on the note and the settings page", async () => {
    // The server of the test before, whose models are now files on disk that are no models
    // (as a disk fault or an interrupted copy would leave them).
    fs.mkdirSync(speakersDir(), { recursive: true });
    for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(speakersDir(), name), body);
    const api = client(server.url, server.key);
    const on = await api("PATCH", "/v1/ai-config", { speakerSeparation: "local" });
    expect(on.status, on.text).toBe(200);
    expect(on.body.aiConfig.speakerSeparation).toMatchObject({ engine: "local", ready: true, problem: null });

    const meeting = twoSourceMeeting(path.join(work, "broken"), [
      { side: "me", voice: "slt", text: "Good morning everyone, let us look at the budget for the Lisbon office." },
      { side: "others", voice: "awb", text: "The quarterly revenue grew by twelve percent compared to last year." },
    ]);
    const id = await uploadRecording(
      api,
      meeting.file,
      "wav",
      { channels: ["me", "others"] },
      Math.ceil(meeting.durationSec),
    );
    const note = await waitForStatus(api, id, ["completed", "recorded-not-summarized", "failed"], 120_000);
    expect(note.status, note.processingError ?? "").toBe("completed");
    expect(note.processingWarnings).toEqual([
      "Voices were not separated: a model file could not be loaded (ModelProto does not have a graph).",
    ]);
    // The two sides are still told apart by channel.
    const speakers = await storeQuery(
      server.dataDir,
      "SELECT DISTINCT speaker FROM transcript_segments WHERE note_id = ? ORDER BY speaker",
      id,
    );
    expect(speakers.map((r) => r.speaker)).toEqual(["Admin", "Others"]);

    const config = (await api("GET", "/v1/ai-config")).body.aiConfig.speakerSeparation;
    expect(config.problem).toMatch(
      /^The last recording could not be split into voices: a model file could not be loaded/,
    );
    const a = await adminBrowser(server, "admin");
    const page = (await a.page("/settings/speech")).html;
    expect(page).toContain('id="speakers-problem"');
    expect(page).toContain("The last recording could not be split into voices");
    // Switching it off is one button.
    expect((await a.post("/settings/speech/speakers/off", {})).status).toBe(303);
    expect((await api("GET", "/v1/ai-config")).body.aiConfig.speakerSeparation).toMatchObject({
      engine: "off",
      problem: null,
    });
  }, 180_000);
});
