// Who speaks when, by voice: sherpa-onnx's pyannote segmentation and speaker embeddings,
// run on a 16 kHz mono PCM file in stretches of ten minutes, each in a child process
// (worker-script.ts says why). The voices of one stretch are matched to those of the
// others by their embeddings, so a meeting of any length is diarized in bounded memory
// and one person keeps one number from start to end.
import { spawn } from "node:child_process";
import fsp from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { BYTES_PER_SECOND } from "../audio.js";
import type { SpeakerModelPaths } from "./models.js";
import { programPath } from "../programs/index.js";

/** A stretch of one voice, in seconds of the recording; `voice` counts from 0 in order of first speech. */
export interface VoiceTurn {
  startSec: number;
  endSec: number;
  voice: number;
}

export interface Diarization {
  turns: VoiceTurn[];
  /** Each voice's embedding (the mean over the stretches it spoke in, unit length), by voice. */
  embeddings: number[][];
}

/** The models could not be used: missing, corrupt or not what sherpa-onnx expects. */
export class DiarizationError extends Error {}

export interface DiarizeOptions {
  /** sherpa-onnx's models; without them, the built-in separation (programs/voices-child.cjs). */
  models: SpeakerModelPaths | null;
  /** The most voices there can be (the meeting's people, when known): the built-in separation stops there. */
  maxVoices?: number;
  signal?: AbortSignal;
  /** Seconds per stretch: what one child holds in memory (10 minutes: 19 MB of samples). */
  stretchSec?: number;
  /** sherpa-onnx's clustering threshold inside a stretch; for the built-in separation, its BIC penalty's weight. */
  threshold?: number;
  /** The cosine similarity above which voices of two stretches are one person. */
  sameVoice?: number;
  threads?: number;
}

interface StretchResult {
  turns: { start: number; end: number; speaker: number }[];
  voices: Record<string, number[]>;
}

const sherpaModule = () => createRequire(import.meta.url).resolve("sherpa-onnx-node");

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

const unit = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / n);
};

/** What sherpa-onnx said on its way down, without the server's paths. */
function reasonOf(stderr: string, code: number | null, signal: NodeJS.Signals | null): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const loadFailed = lines.find((l) => /Load model from .* failed/.test(l));
  if (loadFailed) {
    // onnxruntime says where in its own source it gave up, and the C++ signature: neither helps anyone.
    const why = loadFailed
      .replace(/^.*?failed:\s*/, "")
      .replace(/^\/\S+:\d+\s+/, "")
      .replace(/^[\w:~<>]+\(.*\)\s+/, "")
      .trim();
    return `a model file could not be loaded (${why.replace(/\.$/, "")})`;
  }
  const meta = lines.find((l) => /does not exist in the metadata|Please check your config|Errors in config/.test(l));
  if (meta)
    return `a model file is not a sherpa-onnx speaker model (${meta.replace(/^\/\S+:\s*/, "").replace(/\/\S*\//g, "")})`;
  const last = lines[lines.length - 1]?.replace(/\/\S*\//g, "");
  return last ? last : `the speaker engine stopped (${signal ?? `exit ${code}`})`;
}

/**
 * The built-in separation's BIC penalty weight, measured on the speakers benchmark's
 * one-microphone meetings (docs/benchmarks.md): one voice stays one, and four stay four.
 */
export const BUILTIN_PENALTY = 3;

/** The program that diarizes one stretch, and its arguments. */
function stretchProgram(o: DiarizeOptions): string[] {
  if (!o.models)
    return [
      programPath("voices-child.cjs"),
      createRequire(import.meta.url).resolve("fft.js"),
      String(o.maxVoices ?? 0),
      String(o.threshold ?? BUILTIN_PENALTY),
    ];
  return [
    programPath("diarize-child.cjs"),
    sherpaModule(),
    o.models.segmentation,
    o.models.embedding,
    String(o.threads ?? 1),
    String(o.threshold ?? 0.5),
  ];
}

function runStretch(pcm: Buffer, o: DiarizeOptions): Promise<StretchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, stretchProgram(o), { stdio: ["pipe", "pipe", "pipe"], signal: o.signal });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c) => (stderr = (stderr + c).slice(-4000)));
    child.stdin.on("error", () => {}); // a child that died early: its exit says why
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (o.signal?.aborted) return reject(o.signal.reason ?? new Error("aborted"));
      if (code !== 0) return reject(new DiarizationError(reasonOf(stderr, code, signal)));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString("utf8")) as StretchResult);
      } catch {
        reject(new DiarizationError("the speaker engine's answer could not be read"));
      }
    });
    child.stdin.end(pcm);
  });
}

/** Diarizes a 16 kHz mono s16le PCM file. */
export async function diarizePcm(pcmFile: string, o: DiarizeOptions): Promise<Diarization> {
  for (const f of o.models ? [o.models.segmentation, o.models.embedding] : [])
    await fsp.access(f).catch(() => {
      throw new DiarizationError(`the model ${path.basename(f)} is missing`);
    });
  const stretchBytes = Math.round((o.stretchSec ?? 600) * BYTES_PER_SECOND);
  const sameVoice = o.sameVoice ?? 0.5;
  const sums: number[][] = [];
  const turns: VoiceTurn[] = [];
  const file = await fsp.open(pcmFile, "r");
  try {
    const buf = Buffer.alloc(stretchBytes);
    for (let offset = 0; ; offset += stretchBytes) {
      const { bytesRead } = await file.read(buf, 0, stretchBytes, offset);
      if (bytesRead < BYTES_PER_SECOND) break;
      const r = await runStretch(buf.subarray(0, bytesRead), o);
      const startSec = offset / BYTES_PER_SECOND;
      // This stretch's voices as the meeting's: the closest known voice, else a new one.
      const voiceOf = new Map<number, number>();
      for (const [key, embedding] of Object.entries(r.voices)) {
        const e = unit(embedding);
        let best = -1;
        let bestScore = sameVoice;
        sums.forEach((s, i) => {
          const score = cosine(s, e);
          if (score >= bestScore && ![...voiceOf.values()].includes(i)) [best, bestScore] = [i, score];
        });
        if (best < 0) best = sums.push(e.slice()) - 1;
        else sums[best] = sums[best].map((x, i) => x + e[i]);
        voiceOf.set(Number(key), best);
      }
      for (const t of r.turns) {
        let voice = voiceOf.get(t.speaker);
        if (voice === undefined) voiceOf.set(t.speaker, (voice = sums.push([]) - 1)); // too short to embed
        turns.push({ startSec: startSec + t.start, endSec: startSec + t.end, voice });
      }
      if (bytesRead < stretchBytes) break;
    }
  } finally {
    await file.close();
  }
  // Numbered in order of first speech.
  turns.sort((a, b) => a.startSec - b.startSec);
  const order = new Map<number, number>();
  for (const t of turns) if (!order.has(t.voice)) order.set(t.voice, order.size);
  const embeddings: number[][] = [];
  for (const [old, now] of order) embeddings[now] = sums[old].length ? unit(sums[old]) : [];
  return { turns: turns.map((t) => ({ ...t, voice: order.get(t.voice)! })), embeddings };
}
