// Pipeline overhead: a 10-minute recording through upload → completed, against
// running the same engine directly on the same file (ffmpeg decode + pocketsphinx).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { api, seconds, startServer, stopServer, untilCompleted, uploadRecording } from "./lib.mjs";

const MINUTES = Number(process.env.BENCH_PIPELINE_MINUTES ?? 10);
const SENTENCE =
  "We reviewed the quarterly budget and the hiring plan for the design team, then agreed to move the launch of the pricing page to next month. Maria will send the revised slides by Friday.";

function makeRecording(dir) {
  // flite speaks about 3.5 words a second.
  const words = SENTENCE.split(" ").length;
  const text = Array.from({ length: Math.ceil((MINUTES * 60 * 3.5) / words) }, () => SENTENCE).join(" ");
  fs.writeFileSync(path.join(dir, "speech.txt"), text);
  execFileSync("flite", ["-voice", "slt", "-f", path.join(dir, "speech.txt"), "-o", path.join(dir, "speech.wav")]);
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-i",
    path.join(dir, "speech.wav"),
    "-t",
    String(MINUTES * 60),
    "-c:a",
    "libmp3lame",
    "-b:a",
    "64k",
    path.join(dir, "speech.mp3"),
  ]);
  return path.join(dir, "speech.mp3");
}

function direct(file, dir) {
  const t = performance.now();
  const wav = path.join(dir, "direct.wav");
  execFileSync("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", file, "-ac", "1", "-ar", "16000", wav]);
  const r = spawnSync("pocketsphinx_continuous", ["-infile", wav, "-time", "yes", "-logfn", "/dev/null"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error("pocketsphinx failed");
  return performance.now() - t;
}

async function throughPipeline(file, dir) {
  const server = await startServer(path.join(dir, "data"), ["--stt-engine", "sphinx"]);
  try {
    const audioUrl = await uploadRecording(server, file, "mp3", MINUTES * 60);
    const t = performance.now();
    const { noteId } = await api(server, "POST", "/v1/notes/from-audio", { audioUrl });
    const note = await untilCompleted(server, noteId);
    return { ms: performance.now() - t, segments: note.transcripts.length };
  } finally {
    await stopServer(server.proc);
  }
}

export async function benchPipeline() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-pipeline-"));
  try {
    const file = makeRecording(dir);
    const directMs = direct(file, dir);
    const pipe = await throughPipeline(file, dir);
    const overhead = pipe.ms / directMs - 1;
    console.log(`\nPipeline on a ${MINUTES}-minute recording (pocketsphinx engine, extractive summary)`);
    console.log(`engine directly (baseline)   ${seconds(directMs).padStart(8)} s`);
    console.log(
      `from-audio → completed       ${seconds(pipe.ms).padStart(8)} s   overhead ${(overhead * 100).toFixed(1)}%  (${pipe.segments} segments)`,
    );
    console.log(`goal: overhead < 10%: ${overhead < 0.1 ? "met" : "not met"}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
