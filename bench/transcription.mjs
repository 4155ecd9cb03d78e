// Speech to text, per engine, on a fixed corpus: 20 meetings of flite's voices (three or
// four people each, sentences with names and numbers), every other one under white
// noise at 10 dB SNR. Each meeting is cut into windows and transcribed as the pipeline
// does it (transcribeWindows), by:
//   - pocketsphinx (Debian's, the fallback);
//   - whisper base.en through the server's engine (@napi-rs/whisper in its child process);
//   - the OpenAI-compatible client against a local stand-in that answers at once: the
//     client's own cost (writing windows, the request), no words.
// Reported per engine: the word error rate against the spoken text (numbers written as
// words on both sides), clean and noisy, and the real-time factor (transcription time /
// audio time). Then the whisper bindings on the same model, audio and threads, in one
// run: @napi-rs/whisper (what notula runs) against @fugood/whisper.node (what it ran
// before), on the first BENCH_BINDING_MEETINGS meetings.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { MEETING_LINES } from "./meeting-lines.mjs";
import { sileroFrames } from "./silero.mjs";

const MEETINGS = Number(process.env.BENCH_TRANSCRIPTION_MEETINGS ?? 20);
const BINDING_MEETINGS = Number(process.env.BENCH_BINDING_MEETINGS ?? 2);
const VOICES = ["slt", "awb", "rms", "kal16"];
const NAMED = [
  "Siobhan will move the Kubernetes cluster to the new data center in April.",
  "Marcus said the invoice of four thousand two hundred euros is still open.",
  "Priya wants the report on the third of June, not the fifth.",
  "Ask Daniel whether the seventy five licenses are enough for the team.",
  "The board meets at nine thirty on Thursday with Elena and Tom.",
];
const LINES = [...MEETING_LINES, ...NAMED];

function random(seed) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

// --- word error rate -------------------------------------------------------------

const ONES =
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(
    " ",
  );
const TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
function numberWords(n) {
  if (n < 20) return ONES[n];
  if (n < 100) return `${TENS[Math.floor(n / 10)]}${n % 10 ? ` ${ONES[n % 10]}` : ""}`;
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${numberWords(n % 100)}` : ""}`;
  if (n < 1_000_000)
    return `${numberWords(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${numberWords(n % 1000)}` : ""}`;
  return String(n);
}
const ORDINAL = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

/** Lowercase words, digits spelled out ("12%" → "twelve percent", "3rd" → "third", "9:30" → "nine thirty"). */
export function normalWords(text) {
  return (
    text
      .toLowerCase()
      .replace(/(\d+):(\d+)/g, (_, h, m) => `${numberWords(Number(h))} ${Number(m) ? numberWords(Number(m)) : ""}`)
      .replace(/(\d[\d,]*)(st|nd|rd|th)\b/g, (_, d) => {
        const words = numberWords(Number(d.replace(/,/g, ""))).split(" ");
        const last = words.pop();
        return [...words, ORDINAL[last] ?? `${last.replace(/y$/, "ie")}th`].join(" ");
      })
      .replace(/\d[\d,]*/g, (d) => numberWords(Number(d.replace(/,/g, ""))))
      .replace(/%/g, " percent")
      .replace(/-/g, " ")
      .match(/[a-z']+/g)
      ?.map((w) => w.replace(/'s$/, "").replace(/'/g, "")) ?? []
  );
}

/** Word-level edit distance / reference length. */
export function wer(reference, heard) {
  const r = normalWords(reference);
  const h = normalWords(heard);
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const row = [i];
    for (let j = 1; j <= h.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = row;
  }
  return { errors: prev[h.length], words: r.length };
}

// --- the corpus ------------------------------------------------------------------

const ffmpeg = (...args) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);

/** A meeting: 8 to 11 lines by three or four voices with a short pause after each, as 16 kHz mono PCM; noisy ones at 10 dB SNR. */
export function meeting(dir, i) {
  const r = random(7000 + i);
  const voices = VOICES.slice(0, 3 + (i % 2));
  const lines = [];
  const parts = [];
  for (let k = 0; k < 8 + (i % 4); k++) {
    const text = LINES[Math.floor(r() * LINES.length)];
    const wav = path.join(dir, `m${i}-${k}.wav`);
    execFileSync("flite", ["-voice", voices[Math.floor(r() * voices.length)], "-t", text, "-o", wav]);
    lines.push(text);
    parts.push(wav);
  }
  const pcm = path.join(dir, `m${i}.pcm`);
  ffmpeg(
    ...parts.flatMap((p) => ["-i", p]),
    "-filter_complex",
    `${parts.map((_, k) => `[${k}:a]aresample=16000,apad=pad_dur=0.6[a${k}]`).join(";")};${parts.map((_, k) => `[a${k}]`).join("")}concat=n=${parts.length}:v=0:a=1`,
    "-ac",
    "1",
    "-f",
    "s16le",
    pcm,
  );
  const noisy = i % 2 === 1;
  if (noisy) addNoise(pcm, 10, random(9000 + i));
  return { pcm, text: lines.join(" "), seconds: fs.statSync(pcm).size / 32000, noisy };
}

/** White noise at `snrDb` below the speech's power, added in place. */
function addNoise(pcm, snrDb, r) {
  const buf = fs.readFileSync(pcm);
  const samples = new Int16Array(buf.buffer, buf.byteOffset, buf.length / 2);
  let power = 0;
  let voiced = 0;
  for (const s of samples)
    if (Math.abs(s) > 300) {
      power += s * s;
      voiced++;
    }
  const noiseRms = Math.sqrt(power / Math.max(1, voiced) / 10 ** (snrDb / 10));
  for (let k = 0; k < samples.length; k++) {
    // The sum of 12 uniforms is close to a normal variable of variance 1.
    let g = -6;
    for (let n = 0; n < 12; n++) g += r();
    samples[k] = Math.max(-32768, Math.min(32767, Math.round(samples[k] + g * noiseRms)));
  }
  fs.writeFileSync(pcm, buf);
}

// --- the engines -----------------------------------------------------------------

/** An OpenAI-compatible transcription server that answers every window at once, with no words. */
function standIn() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: "", segments: [] })),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1` })),
  );
}

async function transcribeAll(kit, engine, meetings, work, voice) {
  let errors = 0;
  let words = 0;
  const noisy = { errors: 0, words: 0 };
  let busy = 0;
  let audio = 0;
  for (const [i, m] of meetings.entries()) {
    const windows = await kit.planWindows(m.pcm, engine.windowSec);
    const started = performance.now();
    const heard = await kit.transcribeWindows(engine, m.pcm, windows, {
      signal: new AbortController().signal,
      workDir: work,
      prefix: `w${i}`,
      voice,
    });
    busy += performance.now() - started;
    audio += m.seconds;
    const w = wer(m.text, heard.segments.map((s) => s.text).join(" "));
    if (m.noisy) {
      noisy.errors += w.errors;
      noisy.words += w.words;
    }
    errors += w.errors;
    words += w.words;
  }
  const clean = { errors: errors - noisy.errors, words: words - noisy.words };
  return {
    wer: errors / words,
    clean: clean.errors / clean.words,
    noisy: noisy.errors / noisy.words,
    rtf: busy / 1000 / audio,
  };
}

/** @fugood/whisper.node on the same windows, model and threads: the binding notula used before. */
async function fugood(model, meetings, work, threads) {
  const { initWhisper } = createRequire(import.meta.url)("@fugood/whisper.node");
  // Its native work does not keep Node's loop alive by itself.
  const alive = setInterval(() => {}, 1000);
  const ctx = await initWhisper({ filePath: model, useGpu: false });
  const kit = await import("./.kit/kit.js");
  let busy = 0;
  let audio = 0;
  let errors = 0;
  let words = 0;
  for (const [i, m] of meetings.entries()) {
    const windows = await kit.planWindows(m.pcm, 30);
    const texts = [];
    for (const [k, w] of windows.entries()) {
      const wav = path.join(work, `f${i}-${k}.wav`);
      ffmpeg(
        "-f",
        "s16le",
        "-ar",
        "16000",
        "-ac",
        "1",
        "-ss",
        String(w.startSec),
        "-t",
        String(w.endSec - w.startSec),
        "-i",
        m.pcm,
        wav,
      );
      const started = performance.now();
      const { promise } = ctx.transcribe(wav, { language: "en", maxThreads: threads });
      const result = await promise;
      busy += performance.now() - started;
      texts.push(result.segments.map((s) => s.text).join(" "));
    }
    audio += m.seconds;
    const e = wer(m.text, texts.join(" "));
    errors += e.errors;
    words += e.words;
  }
  await ctx.release?.();
  clearInterval(alive);
  return { rtf: busy / 1000 / audio, wer: errors / words };
}

export async function benchTranscription() {
  const kit = await import("./.kit/kit.js");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-stt-"));
  const threads = os.availableParallelism();
  await kit.ensureTestModels();
  const model = process.env.BENCH_WHISPER_MODEL ?? kit.testModelPath("whisperBaseEn");
  const meetings = Array.from({ length: MEETINGS }, (_, i) => meeting(dir, i));
  const audio = meetings.reduce((s, m) => s + m.seconds, 0);
  console.log(
    `\nSpeech to text on ${MEETINGS} flite meetings (${(audio / 60).toFixed(1)} min; every other one under white noise at 10 dB SNR), ${threads} cores`,
  );
  const host = kit.createWhisperHost();
  const stand = await standIn();
  const rows = [];
  try {
    const engines = [
      ["pocketsphinx", kit.createSphinxTranscriber()],
      [
        `whisper ${path.basename(model)} (@napi-rs/whisper, ${threads} threads)`,
        kit.createWhisperTranscriber({ modelPath: model, host }),
      ],
      [
        "OpenAI-compatible client, stand-in server (its overhead alone)",
        kit.createOpenAiTranscriber({
          url: stand.url,
          model: "whisper-1",
          outbound: kit.createNet().for("speech", "operator"),
        }),
      ],
    ];
    for (const [name, engine] of engines) rows.push([name, await transcribeAll(kit, engine, meetings, dir)]);
  } finally {
    await host.close();
    stand.server.close();
  }
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  console.log("| engine | WER | WER clean | WER noisy (10 dB) | real-time factor |");
  console.log("|---|---|---|---|---|");
  for (const [name, r] of rows)
    console.log(
      `| ${name} | ${name.startsWith("OpenAI") ? "—" : pct(r.wer)} | ${name.startsWith("OpenAI") ? "—" : pct(r.clean)} | ${name.startsWith("OpenAI") ? "—" : pct(r.noisy)} | ${r.rtf.toFixed(3)} |`,
    );

  // The bindings, on the same model, windows and threads, in this run.
  const first = meetings.slice(0, BINDING_MEETINGS);
  const host2 = kit.createWhisperHost();
  let napi;
  try {
    napi = await transcribeAll(kit, kit.createWhisperTranscriber({ modelPath: model, host: host2 }), first, dir);
  } finally {
    await host2.close();
  }
  const before = await fugood(model, first, dir, threads);
  const fastest = Math.min(napi.rtf, before.rtf);
  console.log(
    `\nwhisper bindings on the first ${first.length} meetings (${(first.reduce((s, m) => s + m.seconds, 0) / 60).toFixed(1)} min), ${path.basename(model)}, ${threads} threads`,
  );
  console.log("| binding | real-time factor | × the fastest | WER |");
  console.log("|---|---|---|---|");
  console.log(
    `| @napi-rs/whisper 0.0.4 (notula's) | ${napi.rtf.toFixed(3)} | ${(napi.rtf / fastest).toFixed(2)} | ${pct(napi.wer)} |`,
  );
  console.log(
    `| @fugood/whisper.node 1.1.3 | ${before.rtf.toFixed(3)} | ${(before.rtf / fastest).toFixed(2)} | ${pct(before.wer)} |`,
  );
  const vad = await benchVoiceRules(kit, model, meetings, dir);
  const invented = await benchNonSpeech(kit, model, dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return { rows, bindings: { napi, fugood: before }, vad, invented };
}

/**
 * Where speech may be, which decides what is sent and which segments are kept: notula's
 * level rule (a 100 ms frame above -50 dBFS) against Silero VAD v6, whisper on the same
 * meetings and windows. Silero's own time is counted in its real-time factor.
 */
async function benchVoiceRules(kit, model, meetings, dir) {
  const silero = sileroFrames(kit.testModelPath("sileroVad"));
  const host = kit.createWhisperHost();
  const rows = [];
  try {
    const engine = kit.createWhisperTranscriber({ modelPath: model, host });
    rows.push(["level (notula's rule)", await transcribeAll(kit, engine, meetings, dir)]);
    rows.push(["Silero VAD v6 (sherpa-onnx)", await transcribeAll(kit, engine, meetings, dir, silero.voice)]);
  } finally {
    await host.close();
  }
  const audio = meetings.reduce((s, m) => s + m.seconds, 0);
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  console.log(`\nWhere speech may be, whisper base.en on the same ${meetings.length} meetings`);
  console.log("| rule | WER | WER clean | WER noisy (10 dB) | real-time factor | the rule's own time |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, r] of rows)
    console.log(
      `| ${name} | ${pct(r.wer)} | ${pct(r.clean)} | ${pct(r.noisy)} | ${r.rtf.toFixed(3)} | ${name.startsWith("Silero") ? `${(silero.busyMs() / 1000 / audio).toFixed(4)} × the audio` : "—"} |`,
    );
  return rows;
}

/**
 * Words written where nobody spoke: 30 s of silence, of pink noise, of music (a chord),
 * and a meeting with 25 s of silence between two sentences. whisper alone (each clip as
 * one window, as the engine gets it) against notula's path (windows without sound are
 * not sent, annotations are not words, segments over silence are dropped).
 */
export async function benchNonSpeech(kit, model, dir) {
  const clip = (name, ...input) => {
    const out = path.join(dir, `${name}.wav`);
    ffmpeg(...input, "-t", "30", "-ar", "16000", "-ac", "1", out);
    return out;
  };
  const a = path.join(dir, "line-a.wav");
  const b = path.join(dir, "line-b.wav");
  execFileSync("flite", ["-voice", "slt", "-t", LINES[0], "-o", a]);
  execFileSync("flite", ["-voice", "awb", "-t", LINES[1], "-o", b]);
  const paused = path.join(dir, "paused.wav");
  ffmpeg(
    "-i",
    a,
    "-f",
    "lavfi",
    "-t",
    "25",
    "-i",
    "anullsrc=r=16000:cl=mono",
    "-i",
    b,
    "-filter_complex",
    "[0:a]aresample=16000[x];[2:a]aresample=16000[y];[x][1:a][y]concat=n=3:v=0:a=1",
    "-ac",
    "1",
    paused,
  );
  const clips = [
    ["30 s of silence", clip("silence", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono"), ""],
    ["30 s of pink noise", clip("noise", "-f", "lavfi", "-i", "anoisesrc=r=16000:c=pink:a=0.05"), ""],
    [
      "30 s of music (a chord)",
      clip(
        "music",
        "-f",
        "lavfi",
        "-i",
        "sine=f=262:r=16000",
        "-f",
        "lavfi",
        "-i",
        "sine=f=330:r=16000",
        "-f",
        "lavfi",
        "-i",
        "sine=f=392:r=16000",
        "-filter_complex",
        "amix=inputs=3,volume=0.5",
      ),
      "",
    ],
    ["two sentences 25 s apart", paused, `${LINES[0]} ${LINES[1]}`],
  ];
  const host = kit.createWhisperHost();
  const engine = kit.createWhisperTranscriber({ modelPath: model, host });
  const silero = sileroFrames(kit.testModelPath("sileroVad"));
  // Words said that the transcript lacks (the pause's two sentences).
  const missed = (said, text) => {
    const heard = new Set(normalWords(text));
    return normalWords(said).filter((w) => !heard.has(w)).length;
  };
  const rows = [];
  try {
    for (const [name, wav, said] of clips) {
      const pcm = path.join(dir, `${path.basename(wav)}.pcm`);
      await kit.decodeToPcm(wav, pcm);
      const raw = await host.transcribe({
        modelPath: model,
        wav,
        language: "en",
        signal: new AbortController().signal,
      });
      const windows = await kit.planWindows(pcm, engine.windowSec);
      const ours = await kit.transcribeWindows(engine, pcm, windows, {
        signal: new AbortController().signal,
        workDir: dir,
        prefix: "ns",
      });
      const gated = await kit.transcribeWindows(engine, pcm, windows, {
        signal: new AbortController().signal,
        workDir: dir,
        prefix: "ns-vad",
        voice: silero.voice,
      });
      const extra = (text) => Math.max(0, normalWords(text).length - normalWords(said).length);
      rows.push([
        name,
        extra(raw.segments.map((x) => x.text).join(" ")),
        extra(ours.segments.map((x) => x.text).join(" ")),
        extra(gated.segments.map((x) => x.text).join(" ")),
        missed(said, ours.segments.map((x) => x.text).join(" ")),
        missed(said, gated.segments.map((x) => x.text).join(" ")),
        raw.segments
          .map((x) => x.text)
          .join(" ")
          .slice(0, 60),
      ]);
    }
  } finally {
    await host.close();
  }
  console.log("\nWords written where nobody spoke, whisper base.en");
  console.log(
    "| audio | whisper alone: words not said | notula, level rule: not said / said but missed | notula, Silero VAD: not said / said but missed | what whisper alone wrote |",
  );
  console.log("|---|---|---|---|---|");
  for (const [name, raw, ours, gated, lostOurs, lostGated, text] of rows)
    console.log(
      `| ${name} | ${raw} | ${ours} / ${lostOurs} | ${gated} / ${lostGated} | ${text.replace(/\|/g, "/") || "—"} |`,
    );
  return rows;
}
