// How far the live transcript trails the speech: a meeting of flite's voices (about 1 s
// pauses between sentences) streamed at its real pace in 2-second pieces, as the browser
// recorder sends them, while GET /v1/notes/{id} is read four times a second. A second of
// speech counts as shown once a segment that covers it is there; its lag is the wall
// time from when it was spoken (the piece holding it was sent) to then. Meanwhile
// GET /healthz is asked four times a second: its p99 says whether the server answers
// while the engine works.
// With the OpenAI-compatible stand-in (answers at once), with pocketsphinx, and with
// whisper base.en. For the local engines also: stop → completed against the same audio
// uploaded (upload → completed, the baseline of the same run), the finished transcript's
// word error rate against the upload's, and three meetings recorded at once.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { api, startServer, stopServer, untilCompleted, uploadRecording } from "./lib.mjs";
import { MEETING_LINES } from "./meeting-lines.mjs";
import { wer } from "./transcription.mjs";

const PIECE_SEC = 2;
/** Words said this long before the stop or earlier are the live lag's (the goal's p95). */
const LIVE_WINDOW_MS = 15_000;

/** About `seconds` of speech, sentences with a second of quiet between them, as Ogg/Opus; and when speech is heard. */
export function speech(dir, seconds) {
  fs.mkdirSync(dir, { recursive: true });
  const parts = [];
  let total = 0;
  const spoken = [];
  const text = [];
  for (let i = 0; total < seconds; i++) {
    const wav = path.join(dir, `line-${i}.wav`);
    text.push(MEETING_LINES[i % MEETING_LINES.length]);
    execFileSync("flite", ["-voice", i % 2 ? "awb" : "slt", "-t", MEETING_LINES[i % MEETING_LINES.length], "-o", wav]);
    const d = Number(
      execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", wav]),
    );
    spoken.push([total, total + d]);
    parts.push(wav);
    total += d + 1;
  }
  const list = path.join(dir, "lines.txt");
  const silence = path.join(dir, "quiet.wav");
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "1", silence]);
  fs.writeFileSync(list, parts.map((p) => `file '${p}'\nfile '${silence}'`).join("\n"));
  const out = path.join(dir, "speech.ogg");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "concat",
    "-safe",
    "0",
    "-i",
    list,
    "-ar",
    "16000",
    "-ac",
    "1",
    "-c:a",
    "libopus",
    "-b:a",
    "24k",
    "-page_duration",
    "200000",
    out,
  ]);
  return { file: out, spoken, seconds: total, text: text.join(" ") };
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

export async function lagOf(server, meeting) {
  const bytes = fs.readFileSync(meeting.file);
  const count = Math.ceil(meeting.seconds / PIECE_SEC);
  const size = Math.ceil(bytes.length / count);
  const { note } = await api(server, "POST", "/v1/recordings", { format: "ogg", title: "Lag" });
  // Each second of speech, by when it was said (ms from the start) and when it was first shown.
  const seconds = [];
  for (const [a, b] of meeting.spoken) for (let t = Math.ceil(a); t < b; t++) seconds.push({ t, shown: null });
  const start = performance.now();
  let done = false;
  let stopped = null;
  let finished = null;
  const health = [];
  const healthWatch = (async () => {
    while (!done) {
      const t = performance.now();
      await fetch(`${server.url}/healthz`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  // Read until the note is finished: the last words said show after the stop.
  const watch = (async () => {
    while (!done) {
      const { note: n } = await api(server, "GET", `/v1/notes/${note.id}`);
      const now = performance.now() - start;
      const toSec = (ts) => ts.split(":").reduce((acc, x) => acc * 60 + Number(x), 0);
      for (const s of seconds)
        if (
          s.shown === null &&
          n.transcripts.some((x) => toSec(x.startTimestamp) <= s.t && s.t < toSec(x.endTimestamp) + 1)
        )
          s.shown = now;
      if (stopped !== null && (n.status === "completed" || n.status === "recorded-not-summarized")) {
        finished = performance.now();
        done = true;
      } else await new Promise((r) => setTimeout(r, stopped === null ? 250 : 100));
    }
  })();
  for (let seq = 0; seq < count; seq++) {
    // A piece leaves when its last second has been spoken.
    const due = start + (seq + 1) * PIECE_SEC * 1000;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    const r = await fetch(`${server.url}/v1/recordings/${note.id}/pieces/${seq}?durationMs=${PIECE_SEC * 1000}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
      body: bytes.subarray(seq * size, (seq + 1) * size),
    });
    if (r.status !== 200) throw new Error(`piece ${seq}: ${r.status}`);
  }
  // The meeting stops as its last piece is sent, as someone clicks stop at the end.
  stopped = performance.now();
  await api(server, "POST", `/v1/recordings/${note.id}/stop`);
  await watch;
  await healthWatch;
  const stoppedAt = stopped - start;
  // The live lag of what was said while the meeting went on: the last 15 s (the goal's
  // p95) before the stop could not all show before it, and are stop → completed's.
  const lags = seconds
    .filter((s) => s.shown !== null && s.t * 1000 <= stoppedAt - LIVE_WINDOW_MS)
    .map((s) => (s.shown - s.t * 1000) / 1000);
  const firstWords = seconds.find((s) => s.shown !== null);
  return {
    noteId: note.id,
    stopped,
    finished,
    healthP99: percentile(health, 0.99),
    p50: percentile(lags, 0.5),
    p95: percentile(lags, 0.95),
    shown: seconds.filter((s) => s.shown !== null && s.shown <= stoppedAt).length,
    of: seconds.length,
    first: firstWords ? firstWords.shown / 1000 : null,
  };
}

const heardText = (note) => note.transcripts.map((x) => x.text).join(" ");

/** The local engines' meeting, in seconds (BENCH_LAG_SECONDS); the stand-in and the three at once take 90 s. */
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 90);

export async function benchLiveLag(dir, standInUrl) {
  const short = speech(path.join(dir, "lag"), 90);
  const meeting = LAG_SECONDS === 90 ? short : speech(path.join(dir, "lag-long"), LAG_SECONDS);
  // A short meeting too: what a fresh install (pocketsphinx) shows in its first minute.
  const minute = speech(path.join(dir, "lag-minute"), 60);
  const kit = await import("./.kit/kit.js");
  await kit.ensureTestModels();
  const whisperModel = process.env.BENCH_WHISPER_MODEL ?? kit.testModelPath("whisperBaseEn");
  console.log(
    `\nLive transcript lag: a ${meeting.seconds.toFixed(0)} s meeting (the stand-in: ${short.seconds.toFixed(0)} s) streamed at its own pace in ${PIECE_SEC} s pieces; seconds from a word being said (15 s or more before the stop) to it showing in GET /v1/notes/{id} (goal: p50 ≤ 8 s, p95 ≤ 15 s), and GET /healthz's p99 meanwhile`,
  );
  const engines = [
    ["OpenAI-compatible stand-in", ["--stt-url", standInUrl], { NOTULA_STT_API_KEY: "bench" }],
    ["pocketsphinx", ["--stt-engine", "sphinx"], {}],
    ["pocketsphinx, one minute", ["--stt-engine", "sphinx"], {}, minute],
    ["whisper base.en", ["--stt-engine", "whisper", "--model-path", whisperModel], {}],
  ];
  // BENCH_LAG_ENGINES: only the engines whose labels hold one of these (comma-separated).
  const only = process.env.BENCH_LAG_ENGINES?.split(",").map((x) => x.trim().toLowerCase());
  const finished = [];
  for (const [label, args, env, own] of engines.filter(
    ([l]) => !only || only.some((o) => l.toLowerCase().includes(o)),
  )) {
    const heard = own ?? (label.startsWith("OpenAI") ? short : meeting);
    const server = await startServer(path.join(dir, `lag-${label.replace(/\W+/g, "-")}`), args, env);
    try {
      const r = await lagOf(server, heard);
      console.log(
        `${label.padEnd(28)} p50 ${r.p50.toFixed(1).padStart(5)} s   p95 ${r.p95.toFixed(1).padStart(5)} s   first words at ${r.first?.toFixed(1) ?? "—"} s   ${r.shown} of ${r.of} seconds shown before the stop   /healthz p99 ${r.healthP99.toFixed(1)} ms`,
      );
      if (label.startsWith("OpenAI")) continue;
      const recorded = await untilCompleted(server, r.noteId);
      const stopToDone = r.finished - r.stopped;
      const audioUrl = await uploadRecording(server, heard.file, "ogg", Math.ceil(heard.seconds));
      const t = performance.now();
      const { noteId } = await api(server, "POST", "/v1/notes/from-audio", { audioUrl });
      const uploaded = await untilCompleted(server, noteId);
      const uploadToDone = performance.now() - t;
      const w = (note) => {
        const e = wer(heard.text, heardText(note));
        return e.errors / e.words;
      };
      finished.push({ label, stopToDone, uploadToDone, recordedWer: w(recorded), uploadedWer: w(uploaded) });
    } finally {
      await stopServer(server.proc);
    }
  }
  console.log(
    "\nThe finished note of that recording, against the same audio uploaded after the meeting (goals: stop → completed ≤ 0.1 of upload → completed; the recording's WER ≤ 1.1 × the upload's)",
  );
  console.log(
    "| engine | upload → completed (baseline) | stop → completed | ratio | WER uploaded | WER recorded | ratio |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const f of finished)
    console.log(
      `| ${f.label} | ${(f.uploadToDone / 1000).toFixed(1)} s | ${(f.stopToDone / 1000).toFixed(1)} s | ${(f.stopToDone / f.uploadToDone).toFixed(2)} | ${(100 * f.uploadedWer).toFixed(1)} % | ${(100 * f.recordedWer).toFixed(1)} % | ${f.uploadedWer ? (f.recordedWer / f.uploadedWer).toFixed(2) : "—"} |`,
    );

  // Three meetings at once on one server with whisper: the engine takes one window at a
  // time, drafts first; the server answers throughout.
  if (only && !only.some((o) => "whisper base.en".includes(o))) return;
  const whisper = engines.find(([label]) => label.startsWith("whisper"));
  const server = await startServer(path.join(dir, "lag-three"), whisper[1], {});
  try {
    const three = await Promise.all([0, 1, 2].map(() => lagOf(server, short)));
    const all = three.map((r) => r.healthP99);
    console.log(
      `\nThree meetings recorded at once, whisper base.en: lag p50 ${three.map((r) => r.p50.toFixed(1)).join(" / ")} s, p95 ${three.map((r) => r.p95.toFixed(1)).join(" / ")} s; GET /healthz p99 ${Math.max(...all).toFixed(1)} ms`,
    );
  } finally {
    await stopServer(server.proc);
  }
}
