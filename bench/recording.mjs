// Live recordings. (1) How long a note takes from *stop* to completed when it was
// recorded live (transcribed as it went), against the same audio uploaded as a file
// after the meeting (upload → completed): the baseline of the same run. The
// transcription server is a local stand-in of an OpenAI-compatible one that takes
// 1 s per 50 s of audio, as a hosted model roughly does. The meeting is played at 10×
// its real pace (BENCH_RECORDING_SPEED) so that 30 minutes take 3.
// (2) The server's memory while 10 recordings stream at once, against its memory idle.
// (3) How far the live transcript trails the speech (bench/live-lag.mjs).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { api, rssMb, seconds, startServer, stopServer, untilCompleted, uploadRecording } from "./lib.mjs";
import { benchLiveLag } from "./live-lag.mjs";

const MINUTES = Number(process.env.BENCH_RECORDING_MINUTES ?? 30);
const SPEED = Number(process.env.BENCH_RECORDING_SPEED ?? 10);
const PIECE_SEC = 5;
const STREAMS = Number(process.env.BENCH_RECORDING_STREAMS ?? 10);
/** BENCH_RECORDING_LAG_ONLY=1 runs (3) alone, as for a long meeting on the local engines (BENCH_LAG_SECONDS). */
const LAG_ONLY = process.env.BENCH_RECORDING_LAG_ONLY === "1";

/** An OpenAI-compatible transcription server that answers each window with its length, after length/50 seconds. */
function standIn() {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (d) => chunks.push(d));
    req.on("end", () => {
      const bytes = Buffer.concat(chunks).length;
      const sec = Math.max(0, (bytes - 44) / 32000);
      const text = `window of ${sec.toFixed(1)} seconds`;
      setTimeout(
        () =>
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ text, segments: [{ id: 0, start: 0, end: sec, text }] })),
        (sec / 50) * 1000,
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1` })),
  );
}

/** `minutes` of tone bursts (8 s of sound, 2 s of quiet) as one Ogg/Opus stream. */
function meeting(dir, minutes) {
  const unit = path.join(dir, "unit.wav");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:duration=8",
    "-f",
    "lavfi",
    "-i",
    "anullsrc=r=16000:cl=mono",
    "-filter_complex",
    "[1]atrim=duration=2[q];[0][q]concat=n=2:v=0:a=1",
    "-ar",
    "16000",
    "-ac",
    "1",
    unit,
  ]);
  const out = path.join(dir, "meeting.ogg");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-stream_loop",
    String(minutes * 6 - 1),
    "-i",
    unit,
    "-c:a",
    "libopus",
    "-b:a",
    "24k",
    "-page_duration",
    "500000",
    "-f",
    "ogg",
    out,
  ]);
  return out;
}

async function putPiece(server, noteId, seq, body, durationMs) {
  const r = await fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}?durationMs=${durationMs}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
    body,
  });
  if (r.status !== 200) throw new Error(`piece ${seq}: ${r.status} ${await r.text()}`);
}

/** The stream cut into pieces of about PIECE_SEC of audio (by bytes: the bitrate is steady). */
function piecesOf(file, minutes) {
  const bytes = fs.readFileSync(file);
  const count = Math.ceil((minutes * 60) / PIECE_SEC);
  const size = Math.ceil(bytes.length / count);
  return Array.from({ length: count }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

async function uploaded(server, file, minutes) {
  const audioUrl = await uploadRecording(server, file, "ogg", minutes * 60);
  const t = performance.now();
  const { noteId } = await api(server, "POST", "/v1/notes/from-audio", { audioUrl });
  await untilCompleted(server, noteId);
  return performance.now() - t;
}

async function recorded(server, file, minutes) {
  const { note } = await api(server, "POST", "/v1/recordings", { format: "ogg", title: "Benchmark meeting" });
  const pieces = piecesOf(file, minutes);
  const start = performance.now();
  for (const [seq, body] of pieces.entries()) {
    // At SPEED times the meeting's own pace.
    const due = start + (seq * PIECE_SEC * 1000) / SPEED;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    await putPiece(server, note.id, seq, body, PIECE_SEC * 1000);
  }
  const { note: during } = await api(server, "GET", `/v1/notes/${note.id}`);
  const t = performance.now();
  await api(server, "POST", `/v1/recordings/${note.id}/stop`);
  const done = await untilCompleted(server, note.id);
  return { ms: performance.now() - t, liveSegments: during.transcripts.length, segments: done.transcripts.length };
}

async function memory(dir, file, stt) {
  const server = await startServer(path.join(dir, "memory"), ["--stt-url", stt.url], { NOTULA_STT_API_KEY: "bench" });
  try {
    await new Promise((r) => setTimeout(r, 2000));
    const idle = rssMb(server.proc.pid);
    const pieces = piecesOf(file, 2);
    let peak = idle;
    const sample = setInterval(() => (peak = Math.max(peak, rssMb(server.proc.pid))), 100);
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, i) => {
        const { note } = await api(server, "POST", "/v1/recordings", { format: "ogg", title: `Stream ${i}` });
        const start = performance.now();
        for (const [seq, body] of pieces.entries()) {
          const due = start + (seq * PIECE_SEC * 1000) / 4;
          if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
          await putPiece(server, note.id, seq, body, PIECE_SEC * 1000);
        }
      }),
    );
    clearInterval(sample);
    return { idle, peak };
  } finally {
    await stopServer(server.proc);
  }
}

export async function benchRecording() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-recording-"));
  const stt = await standIn();
  try {
    if (LAG_ONLY) return await benchLiveLag(dir, stt.url);
    const file = meeting(dir, MINUTES);
    const server = await startServer(path.join(dir, "data"), ["--stt-url", stt.url], { NOTULA_STT_API_KEY: "bench" });
    let upload, live;
    try {
      upload = await uploaded(server, file, MINUTES);
      live = await recorded(server, file, MINUTES);
    } finally {
      await stopServer(server.proc);
    }
    const ratio = live.ms / upload;
    console.log(
      `\nLive recording of a ${MINUTES}-minute meeting (OpenAI-compatible stand-in at 50× real time; the meeting played at ${SPEED}×)`,
    );
    console.log(`uploaded after the meeting: upload → completed (baseline)   ${seconds(upload).padStart(8)} s`);
    console.log(
      `recorded live: stop → completed                            ${seconds(live.ms).padStart(8)} s   ratio ${ratio.toFixed(3)}  (${live.liveSegments} of ${live.segments} segments written while recording)`,
    );
    console.log(`goal: ratio ≤ 0.1: ${ratio <= 0.1 ? "met" : "not met"}`);
    const mem = await memory(dir, file, stt);
    console.log(
      `\nServer memory while ${STREAMS} recordings stream at once (each piece stored, each recording decoded live)`,
    );
    console.log(`idle (baseline)   ${mem.idle.toFixed(0).padStart(6)} MB`);
    console.log(`peak              ${mem.peak.toFixed(0).padStart(6)} MB   +${(mem.peak - mem.idle).toFixed(0)} MB`);
    console.log(`goal: under 100 MB above idle: ${mem.peak - mem.idle < 100 ? "met" : "not met"}`);
    await benchLiveLag(dir, stt.url);
  } finally {
    stt.server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
