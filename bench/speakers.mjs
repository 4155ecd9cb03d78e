// Who said what, by channel: 20 generated two-source meetings with known turns (the
// person on channel 0 with the call bleeding into their microphone at -30 to -12 dB,
// two or three others on channel 1, some turns talking over the one before), each
// attributed twice:
//   - on the turns themselves (perfect segments): the attribution alone;
//   - on pocketsphinx's segments (with its word times): what a note gets;
// and, against that, each channel transcribed apart by pocketsphinx (a segment of
// channel 0 is the person's, of channel 1 the others'), the other way the pipeline could
// have gone: it pays a second transcription, and hears the call in the microphone.
// Reported: the share of speech time put on the wrong side (goal at most 5%), the
// share left unattributed, and the cost per hour of audio (decoding the levels and
// attributing), against the pipeline's decode of the same audio. Then the levels of a
// four-hour recording: their memory and time. With BENCH_SPEAKER_MODELS (a folder
// holding the two speaker models), the others' channel is also split by voice with
// sherpa-onnx and scored against the true voices.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MEETING_LINES } from "./meeting-lines.mjs";
import { benchRoomSpeakers } from "./room-speakers.mjs";

const MEETINGS = Number(process.env.BENCH_SPEAKERS_MEETINGS ?? 20);
const OTHER_VOICES = ["awb", "rms", "kal16"];

/** A deterministic sequence for the meetings' shapes. */
function random(seed) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function meetingTurns(i) {
  const r = random(1000 + i);
  const voices = OTHER_VOICES.slice(0, 2 + (i % 2));
  const turns = [];
  let last = "";
  for (let k = 0; k < 6 + (i % 4); k++) {
    const side = k === 0 ? (i % 2 ? "me" : "others") : r() < 0.45 ? "me" : "others";
    const voice = side === "me" ? "slt" : voices[Math.floor(r() * voices.length)];
    const overlapSec = k > 0 && side !== last && r() < 0.25 ? 0.6 + r() * 0.8 : 0;
    turns.push({ side, voice, text: MEETING_LINES[Math.floor(r() * MEETING_LINES.length)], overlapSec });
    last = side;
  }
  return { turns, bleedDb: -30 + Math.round(r() * 18) };
}

/**
 * Speech time on the wrong side, and unattributed, over 20 ms frames of the turns:
 * `sidesAt` says which sides the attribution claims at a moment. Wrong when one of them
 * is not speaking, unattributed when none is.
 */
function frameScore(turns, sidesAt) {
  const step = 0.02;
  let speech = 0;
  let wrong = 0;
  let missed = 0;
  const end = Math.max(...turns.map((t) => t.endSec));
  for (let t = 0; t < end; t += step) {
    const speaking = new Set(turns.filter((x) => x.startSec <= t && t < x.endSec).map((x) => x.side));
    if (!speaking.size) continue;
    speech += step;
    const claimed = sidesAt(t);
    if (!claimed.size) missed += step;
    else if ([...claimed].some((side) => !speaking.has(side))) wrong += step;
  }
  return { speech, wrong, missed };
}

/** One transcript's segments, each with its side: the one covering a moment claims it. */
const score = (turns, segments) =>
  frameScore(turns, (t) => {
    const seg = segments.find((s) => s.startSec <= t && t < s.endSec);
    return new Set(seg ? [seg.side] : []);
  });

/** Each channel transcribed apart: every segment covering a moment claims it for its channel's side. */
const claimScore = (turns, segments) =>
  frameScore(turns, (t) => new Set(segments.filter((s) => s.startSec <= t && t < s.endSec).map((s) => s.side)));

/**
 * The others' speech given to the wrong voice: each found voice stands for the true
 * voice it overlaps most, and every 20 ms of an others' turn is checked against it.
 */
function voiceScore(turns, found) {
  const overlap = new Map();
  for (const f of found)
    for (const t of turns) {
      const o = Math.min(f.endSec, t.endSec) - Math.max(f.startSec, t.startSec);
      if (o > 0) overlap.set(`${f.voice}|${t.voice}`, (overlap.get(`${f.voice}|${t.voice}`) ?? 0) + o);
    }
  const standsFor = new Map();
  for (const [key, sec] of [...overlap].sort((a, b) => b[1] - a[1])) {
    const [v, who] = key.split("|");
    if (!standsFor.has(v)) standsFor.set(v, { who, sec });
  }
  let speech = 0;
  let wrong = 0;
  for (const t of turns)
    for (let x = t.startSec; x < t.endSec; x += 0.02) {
      speech += 0.02;
      const f = found.find((y) => y.startSec <= x && x < y.endSec);
      if (!f || standsFor.get(String(f.voice))?.who !== t.voice) wrong += 0.02;
    }
  return { speech, wrong };
}

/** ffmpeg, quiet, overwriting its output. */
const ffmpeg = (...args) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);
/** One channel of `file` at 16 kHz mono (`format` args before the output, e.g. raw samples). */
const oneChannel = (file, channel, out, ...format) =>
  ffmpeg("-i", file, "-af", `pan=mono|c0=c${channel}`, "-ar", "16000", ...format, out);

const pct = (x) => `${(100 * x).toFixed(1)}%`;

export async function benchSpeakers() {
  const kit = await import("./.kit/kit.js");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-speakers-"));
  // BENCH_SPEAKERS_ONLY=room: the one-microphone meetings alone.
  if (process.env.BENCH_SPEAKERS_ONLY !== "room") await benchChannels(kit, dir);
  await benchRoomSpeakers(kit, dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

async function benchChannels(kit, dir) {
  const sphinx = kit.sphinxAvailable() ? kit.createSphinxTranscriber() : null;
  const names = { meName: "me", othersName: "others" };
  const totals = {
    perfect: { speech: 0, wrong: 0, missed: 0 },
    sphinx: { speech: 0, wrong: 0, missed: 0 },
    perChannel: { speech: 0, wrong: 0, missed: 0 },
  };
  let mixedMs = 0;
  let perChannelMs = 0;
  const speakerModels = process.env.BENCH_SPEAKER_MODELS
    ? {
        segmentation: path.join(process.env.BENCH_SPEAKER_MODELS, "pyannote-segmentation-3-0.onnx"),
        embedding: path.join(process.env.BENCH_SPEAKER_MODELS, "nemo_en_titanet_small.onnx"),
      }
    : null;
  const voices = { speech: 0, wrong: 0 };
  let voiceMs = 0;
  let audioSec = 0;
  let attributeMs = 0;
  let decodeMs = 0;
  for (let i = 0; i < MEETINGS; i++) {
    const shape = meetingTurns(i);
    const m = kit.twoSourceMeeting(path.join(dir, `m${i}`), shape.turns, { bleedDb: shape.bleedDb, seed: i + 3 });
    audioSec += m.durationSec;
    // The baseline: the pipeline's own decode of the same file to 16 kHz mono.
    let t = performance.now();
    ffmpeg("-i", m.file, "-ac", "1", "-ar", "16000", "-f", "s16le", path.join(dir, "mono.pcm"));
    decodeMs += performance.now() - t;
    t = performance.now();
    const meter = await kit.decodeLevels(m.file);
    const perfect = kit.attributeByChannel(
      meter,
      m.turns.map((x) => ({ startSec: x.startSec, endSec: x.endSec, speaker: "", text: x.text })),
      names,
    );
    attributeMs += performance.now() - t;
    const p = score(
      m.turns,
      perfect.map((s) => ({ ...s, side: s.speaker })),
    );
    for (const k of Object.keys(p)) totals.perfect[k] += p[k];
    if (sphinx) {
      const wav = path.join(dir, `m${i}.mono.wav`);
      ffmpeg("-i", m.file, "-ac", "1", "-ar", "16000", wav);
      let t1 = performance.now();
      const heard = await sphinx.transcribe(wav, { signal: AbortSignal.timeout(120_000) });
      mixedMs += performance.now() - t1;
      const segs = heard.segments.map((s) => ({
        startSec: s.start,
        endSec: s.end,
        speaker: s.speaker,
        text: s.text,
        words: s.words,
      }));
      const named = kit.attributeByChannel(meter, segs, names);
      const q = score(
        m.turns,
        named.map((s) => ({ ...s, side: s.speaker })),
      );
      for (const k of Object.keys(q)) totals.sphinx[k] += q[k];
      // The other way: each channel transcribed on its own.
      const claims = [];
      for (const [channel, side] of [
        [0, "me"],
        [1, "others"],
      ]) {
        const one = path.join(dir, `m${i}.c${channel}.wav`);
        oneChannel(m.file, channel, one);
        t1 = performance.now();
        const h = await sphinx.transcribe(one, { signal: AbortSignal.timeout(120_000) });
        perChannelMs += performance.now() - t1;
        claims.push(
          ...h.segments.filter((x) => x.text.trim()).map((x) => ({ startSec: x.start, endSec: x.end, side })),
        );
      }
      const c = claimScore(m.turns, claims);
      for (const k of Object.keys(c)) totals.perChannel[k] += c[k];
    }
    if (speakerModels) {
      // The others' channel split by voice: each frame of an others' turn against the voice found there.
      const pcm = path.join(dir, "others.pcm");
      oneChannel(m.file, 1, pcm, "-f", "s16le");
      t = performance.now();
      const d = await kit.diarizePcm(pcm, { models: speakerModels });
      voiceMs += performance.now() - t;
      const v = voiceScore(
        m.turns.filter((x) => x.side === "others"),
        d.turns,
      );
      voices.speech += v.speech;
      voices.wrong += v.wrong;
    }
    fs.rmSync(path.join(dir, `m${i}`), { recursive: true, force: true });
  }
  const hours = audioSec / 3600;
  console.log(
    `\n${MEETINGS} two-source meetings, ${(audioSec / 60).toFixed(1)} min of audio, bleed -30 to -12 dB, some turns overlapping`,
  );
  console.log("segments            speech on the wrong side   unattributed   (goal: wrong ≤ 5%)");
  const line = (label, s) =>
    console.log(`${label.padEnd(20)}${pct(s.wrong / s.speech).padEnd(27)}${pct(s.missed / s.speech)}`);
  line("the turns (perfect)", totals.perfect);
  if (sphinx) {
    line("pocketsphinx's", totals.sphinx);
    line("each channel apart", totals.perChannel);
    console.log(
      `transcription: ${(mixedMs / 1000 / hours).toFixed(1)} s per hour of audio for the mixed sound (plus the levels below), ${(perChannelMs / 1000 / hours).toFixed(1)} s for each channel apart (${(perChannelMs / mixedMs).toFixed(2)}×)`,
    );
  } else console.log("pocketsphinx's      (not installed: apt-get install pocketsphinx pocketsphinx-en-us)");
  if (speakerModels)
    console.log(
      `sherpa-onnx voices on the others' side: ${pct(voices.wrong / voices.speech)} of their speech given to the wrong voice (or none), ${(voiceMs / 1000 / hours).toFixed(1)} s per hour of audio`,
    );
  else
    console.log(
      "sherpa-onnx voices  (no speaker models: set BENCH_SPEAKER_MODELS to a folder with pyannote-segmentation-3-0.onnx and nemo_en_titanet_small.onnx)",
    );
  console.log(
    `cost: ${(attributeMs / 1000 / hours).toFixed(1)} s per hour of audio to read the levels and attribute, ${(attributeMs / decodeMs).toFixed(2)}× the pipeline's own decode of the same audio (${(decodeMs / 1000 / hours).toFixed(1)} s per hour)`,
  );

  // Four hours: the levels are all that is kept (two numbers per 20 ms).
  const long = path.join(dir, "four-hours.ogg");
  ffmpeg(
    "-f",
    "lavfi",
    "-i",
    "anoisesrc=d=14400:c=pink:r=16000:a=0.05",
    "-f",
    "lavfi",
    "-i",
    "sine=f=220:d=14400:r=16000",
    "-filter_complex",
    "[0:a][1:a]amerge=inputs=2",
    "-c:a",
    "libopus",
    "-b:a",
    "16k",
    long,
  );
  const before = process.memoryUsage();
  const t = performance.now();
  const meter = await kit.decodeLevels(long);
  const ms = performance.now() - t;
  kit.channelProfile(meter);
  const after = process.memoryUsage();
  console.log(
    `four hours: ${meter.frames} frames of levels, ${(meter.levels().byteLength / 1e6).toFixed(1)} MB kept, heap +${((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1e6).toFixed(1)} MB, ${(ms / 1000).toFixed(1)} s to read`,
  );
}
