// Long recordings: cut into windows at quiet moments, processed in bounded memory.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm, planWindows } from "../../src/ai/audio.js";
import { bursts } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startServerProcess, tempDir, type ProcessTestServer } from "../helpers/server.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

const work = tempDir("notula-long-");
let recording: string;

beforeAll(async () => {
  recording = await bursts(work, 3600);
}, 300_000);

describe("planWindows", () => {
  it("covers the whole recording with contiguous windows cut in the silences", async () => {
    const pcm = path.join(work, "long.pcm");
    const duration = await decodeToPcm(recording, pcm);
    expect(duration).toBeCloseTo(3600, 0);
    // Looking back 10 s from each target point always reaches one of the 2 s silences.
    const windows = await planWindows(pcm, 95, 10);
    expect(windows[0].startSec).toBe(0);
    expect(windows[windows.length - 1].endSec).toBeCloseTo(duration, 0);
    for (let i = 1; i < windows.length; i++) expect(windows[i].startSec).toBe(windows[i - 1].endSec);
    for (const w of windows.slice(0, -1)) {
      expect(w.endSec - w.startSec).toBeLessThanOrEqual(95);
      // Sound runs 0–8 s of every 10; each cut lands in the 2 s of silence.
      expect(w.endSec % 10).toBeGreaterThanOrEqual(8);
    }
    fs.rmSync(pcm);
  });

  it("decodes no more than it is asked to: a file past the length limit is known without decoding it all", async () => {
    const pcm = path.join(work, "capped.pcm");
    expect(await decodeToPcm(recording, pcm, { maxSec: 601 })).toBeCloseTo(601, 1);
    expect(fs.statSync(pcm).size).toBe(601 * 16000 * 2);
    // From a point on, as a recording transcribed while it went on is finished.
    expect(await decodeToPcm(recording, pcm, { fromSec: 3000, maxSec: 1000 })).toBeCloseTo(600, 0);
    fs.rmSync(pcm);
  });
});

describe("a one-hour recording through the pipeline", () => {
  let server: ProcessTestServer;
  let stt: VendorServer;
  beforeAll(async () => {
    stt = await startTranscriptionServer({ echo: true });
    server = await startServerProcess({ args: ["--no-rate-limit", "--stt-url", stt.url] });
  });
  afterAll(async () => {
    await server?.stop();
    await stt?.close();
  });

  it("is sent in windows of at most 10 minutes, timestamps run past 59:00, memory stays bounded", async () => {
    const api = client(server.url, server.key);
    const rssKb = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${server.proc.pid}/status`, "utf8"))![1]);
    // A half-hour recording first: its peak is what processing costs at all, full
    // 10-minute windows (and the garbage they leave for the collector) included.
    const half = await uploadRecording(api, await bursts(work, 1800), "mp3", {}, 1800);
    expect((await waitForStatus(api, half, undefined, 120_000)).status).toBe("completed");
    const halfPeakKb = rssKb("VmHWM");
    const id = await uploadRecording(api, recording, "mp3", {}, 3600);
    const note = await waitForStatus(api, id, undefined, 120_000);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.totalDurationSec).toBe(3600);
    expect(note.transcripts.length).toBeGreaterThanOrEqual(6);
    for (const s of note.transcripts) expect(Number(s.text.match(/of ([\d.]+) seconds/)![1])).toBeLessThanOrEqual(600);
    const last = note.transcripts[note.transcripts.length - 1];
    expect(Number(last.endTimestamp.split(":")[0])).toBeGreaterThanOrEqual(59);
    // Twice the audio costs no more memory: the recording is streamed through
    // windows, never held whole. Holding it would add the 57 MB that the second
    // half hour decodes to (16 kHz, 16-bit). The bound leaves room for the garbage
    // collector's timing on a loaded machine: up to 38 MB was seen there with
    // PostgreSQL, 0 MB usually.
    const peakKb = rssKb("VmHWM");
    console.log(
      `server peak memory: ${Math.round(halfPeakKb / 1024)} MB after 30 min of audio, ${Math.round(peakKb / 1024)} MB after 60 min`,
    );
    expect((peakKb - halfPeakKb) / 1024).toBeLessThan(45);
    // Bounded by its two waits, not by how fast this machine decodes an hour and a half of audio.
  }, 300_000);
});
