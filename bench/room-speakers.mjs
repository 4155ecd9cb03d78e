// Who said what in a room, on one microphone: the built-in speaker separation
// (src/ai/programs/voices-child.cjs) on generated meetings of 2 to 5 of flite's voices,
// half of them under noise at 10 dB, a quarter of the turns talking over the one before;
// then on meetings made of real people's recordings (Debian's pocketsphinx-testdata: a
// LibriVox reader and the speaker of the `cards` set). Each meeting is separated with its
// number of people given, and without it. Reported: the diarization error rate (DER:
// missed speech, false alarm and confusion over the reference speech, overlap counted,
// 0.25 s collar around each reference boundary), the share of meetings whose number of
// voices came out right, and the cost as × the audio's length.
// Goals (given the count / not): DER ≤ 12 % / 20 % on flite, ≤ 25 % / 35 % on real
// voices; count right in ≥ 80 %; cost ≤ 0.1×.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MEETING_LINES } from "./meeting-lines.mjs";

const RATE = 16000;
const VOICES = ["slt", "awb", "rms", "kal16", "kal"];
const REAL = "/usr/share/pocketsphinx/test/data";

function random(seed) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** A WAV or raw 16 kHz file's samples as floats. */
function samplesOf(file, dir) {
  const out = path.join(dir, `s-${path.basename(file)}.pcm`);
  const input = file.endsWith(".raw") ? ["-f", "s16le", "-ar", "16000", "-ac", "1", "-i", file] : ["-i", file];
  execFileSync("ffmpeg", ["-v", "error", "-y", ...input, "-ar", "16000", "-ac", "1", "-f", "s16le", out]);
  const b = fs.readFileSync(out);
  return Float32Array.from({ length: b.length >> 1 }, (_, i) => b.readInt16LE(i * 2) / 32768);
}

/** Turns laid end to end (a pause between, or talking over the one before), noise added; the mix and the reference. */
function mix(clips, r, o) {
  const turns = [];
  for (const c of clips) {
    const prev = turns[turns.length - 1];
    const over = prev && r() < o.overlapShare ? 0.4 + r() * 0.6 : 0;
    const start = !prev ? 0.3 : over ? Math.max(prev.start, prev.end - over) : prev.end + 0.3 + r() * 0.4;
    turns.push({ start, end: start + c.samples.length / RATE, voice: c.voice, samples: c.samples });
  }
  const pcm = new Float32Array(Math.ceil((Math.max(...turns.map((t) => t.end)) + 0.5) * RATE));
  for (const t of turns) {
    const off = Math.floor(t.start * RATE);
    for (let i = 0; i < t.samples.length; i++) pcm[off + i] += t.samples[i];
  }
  if (o.snrDb !== null) {
    const speech =
      turns.reduce((s, t) => s + t.samples.reduce((a, x) => a + x * x, 0), 0) /
      turns.reduce((s, t) => s + t.samples.length, 0);
    const noise = Math.sqrt(speech / 10 ** (o.snrDb / 10));
    const n = random(99);
    for (let i = 0; i < pcm.length; i++)
      pcm[i] += noise * Math.sqrt(-2 * Math.log(n() + 1e-12)) * Math.cos(2 * Math.PI * n());
  }
  const bytes = Buffer.alloc(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++)
    bytes.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(pcm[i] * 32767))), i * 2);
  return { bytes, seconds: pcm.length / RATE, turns: turns.map(({ samples: _s, ...t }) => t) };
}

/** DER over 10 ms frames, with the best one-to-one mapping of found voices to true ones. */
function der(ref, hyp, seconds) {
  const step = 0.01;
  const refVoices = [...new Set(ref.map((t) => t.voice))];
  const hypVoices = [...new Set(hyp.map((t) => t.voice))];
  const near = (t) => ref.some((x) => Math.abs(x.start - t) < 0.25 || Math.abs(x.end - t) < 0.25);
  const overlap = refVoices.map(() => hypVoices.map(() => 0));
  let worst = 0;
  let total = 0;
  for (let t = 0; t < seconds; t += step) {
    if (near(t)) continue;
    const r = refVoices
      .map((v, i) => (ref.some((x) => x.voice === v && x.start <= t && t < x.end) ? i : -1))
      .filter((i) => i >= 0);
    const h = hypVoices
      .map((v, j) => (hyp.some((x) => x.voice === v && x.startSec <= t && t < x.endSec) ? j : -1))
      .filter((j) => j >= 0);
    total += r.length;
    worst += Math.max(r.length, h.length);
    for (const i of r) for (const j of h) overlap[i][j]++;
  }
  // The mapping that agrees most: each true voice to a different found one, or to none.
  const bestFrom = (i, used) => {
    if (i === refVoices.length) return 0;
    let best = bestFrom(i + 1, used);
    hypVoices.forEach((_, j) => {
      if (!used.has(j)) best = Math.max(best, overlap[i][j] + bestFrom(i + 1, new Set([...used, j])));
    });
    return best;
  };
  return { errors: worst - bestFrom(0, new Set()), total };
}

/** Voices that spoke a second or more: the people found. */
const found = (turns) => {
  const spoke = new Map();
  for (const t of turns) spoke.set(t.voice, (spoke.get(t.voice) ?? 0) + t.endSec - t.startSec);
  return [...spoke.values()].filter((s) => s >= 1).length;
};

async function scoreSet(kit, dir, meetings) {
  const rows = { given: { errors: 0, total: 0, right: 0 }, estimated: { errors: 0, total: 0, right: 0 } };
  let ms = 0;
  let audio = 0;
  for (const [i, m] of meetings.entries()) {
    const file = path.join(dir, `room-${i}.pcm`);
    fs.writeFileSync(file, m.bytes);
    const people = new Set(m.turns.map((t) => t.voice)).size;
    for (const [name, maxVoices] of [
      ["given", people],
      ["estimated", undefined],
    ]) {
      const started = performance.now();
      const { turns } = await kit.diarizePcm(file, {
        models: null,
        maxVoices,
        ...(process.env.BENCH_ROOM_PENALTY ? { threshold: Number(process.env.BENCH_ROOM_PENALTY) } : {}),
      });
      ms += performance.now() - started;
      audio += m.seconds;
      const d = der(m.turns, turns, m.seconds);
      rows[name].errors += d.errors;
      rows[name].total += d.total;
      rows[name].right += found(turns) === people ? 1 : 0;
      if (process.env.BENCH_ROOM_VERBOSE)
        console.log(
          `  meeting ${i} (${name}): ${people} voices, found ${found(turns)}, DER ${((100 * d.errors) / d.total).toFixed(1)} %`,
        );
    }
  }
  return { rows, cost: ms / 1000 / audio, n: meetings.length };
}

export async function benchRoomSpeakers(kit, dir) {
  const flite = (voice, text, i) => {
    const wav = path.join(dir, `f-${voice}-${i}.wav`);
    execFileSync("flite", ["-voice", voice, "-t", text, "-o", wav]);
    return { voice, samples: samplesOf(wav, dir) };
  };
  const n = Number(process.env.BENCH_ROOM_MEETINGS ?? 20);
  const fliteMeetings = Array.from({ length: n }, (_, i) => {
    const r = random(500 + i);
    const voices = VOICES.slice(0, 2 + (i % 4));
    const turns = 6 + Math.floor(r() * 7);
    const clips = Array.from({ length: turns }, (_, k) =>
      flite(
        voices[k < voices.length ? k : Math.floor(r() * voices.length)],
        MEETING_LINES[Math.floor(r() * MEETING_LINES.length)],
        `${i}-${k}`,
      ),
    );
    return mix(clips, r, { overlapShare: 0.25, snrDb: i % 2 ? 10 : null });
  });
  const flited = await scoreSet(kit, dir, fliteMeetings);
  let real = null;
  if (fs.existsSync(REAL)) {
    const reader = fs
      .readdirSync(`${REAL}/librivox`)
      .filter((f) => f.endsWith(".wav"))
      .map((f) => ({ voice: "reader", samples: samplesOf(`${REAL}/librivox/${f}`, dir) }));
    const cards = fs
      .readdirSync(`${REAL}/cards`)
      .filter((f) => f.endsWith(".wav"))
      .map((f) => ({ voice: "cards", samples: samplesOf(`${REAL}/cards/${f}`, dir) }));
    const realMeetings = Array.from({ length: 10 }, (_, i) => {
      const r = random(900 + i);
      const clips = [...reader, ...cards].sort(() => r() - 0.5);
      return mix(clips, r, { overlapShare: 0, snrDb: i % 2 ? 10 : null });
    });
    real = await scoreSet(kit, dir, realMeetings);
  }
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  console.log(`\nOne microphone, the built-in separation (nothing downloaded)`);
  console.log("| meetings | DER, count given (goal) | DER, count estimated (goal) | count right | cost × audio |");
  console.log("|---|---:|---:|---:|---:|");
  const line = (name, s, goals) =>
    console.log(
      `| ${name} (${s.n}) | ${pct(s.rows.given.errors / s.rows.given.total)} (≤ ${goals[0]} %) | ${pct(s.rows.estimated.errors / s.rows.estimated.total)} (≤ ${goals[1]} %) | ${s.rows.estimated.right} of ${s.n} (given: ${s.rows.given.right}) | ${s.cost.toFixed(4)} |`,
    );
  line("flite, 2–5 voices, half at 10 dB, a quarter of turns overlapping", flited, [12, 20]);
  if (real) line("real voices (LibriVox reader, cards speaker), half at 10 dB", real, [25, 35]);
  else console.log("(real voices: install Debian's pocketsphinx-testdata for them)");
}
