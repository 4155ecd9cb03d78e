// @ts-check
// Speaker separation with nothing downloaded, on one stretch of audio, in a child
// process of its own (the server's thread never computes it). Each 10 ms frame's
// spectrum becomes its cepstrum (MFCC: 26 mel bands, 12 coefficients). Speech is cut
// into pieces at its pauses (and every 3 s), each piece a Gaussian of its frames; the
// pieces are merged bottom-up, the pair whose merging costs least by the Bayesian
// information criterion first, and the merging stops when keeping two voices apart
// explains the sound better than one voice does (ΔBIC > 0, `threshold` its penalty's
// weight), or, given the meeting's number of people, not before it is reached. The
// classic rule of speaker clustering (Chen and Gopalakrishnan, 1998). See
// docs/benchmarks.md (speakers) for the candidates measured.
//
// argv: the fft.js module's path, the most voices there can be (0: not known), the
// threshold. stdin: 16 kHz mono 16-bit (little-endian) samples. stdout:
// {"turns":[{start,end,speaker}],"voices":{speaker:[...]}}, each voice's centroid in
// the stretch's standardized space (compared across stretches by cosine).
const [fftPath, maxArg, thresholdArg] = process.argv.slice(2);
const FFT = require(fftPath);

const RATE = 16000;
const FRAME = 400; // 25 ms
const HOP = 160; // 10 ms
const NFFT = 512;
const MELS = 26;
const CEPS = 12; // c1..c12 (c0, the loudness, says little of who speaks)
const PIECE_MAX = 300; // frames: a piece of speech is at most 3 s
const PIECE_MIN = 50; // frames: a shorter piece joins the one before it
const PAUSE = 30; // frames of quiet (0.3 s) that end a piece
const maxVoices = Number(maxArg) || 0;
const threshold = Number(thresholdArg);

const mel = (f) => 2595 * Math.log10(1 + f / 700);
const hz = (m) => 700 * (10 ** (m / 2595) - 1);

/** Triangular mel filters over the FFT's bins, 20 Hz to 7.6 kHz. */
function melFilters() {
  const bins = NFFT / 2 + 1;
  const lo = mel(20);
  const hi = mel(4000);
  const points = Array.from({ length: MELS + 2 }, (_, i) =>
    Math.floor(((NFFT + 1) * hz(lo + ((hi - lo) * i) / (MELS + 1))) / RATE),
  );
  return Array.from({ length: MELS }, (_, m) => {
    const w = new Float32Array(bins);
    const [a, b, c] = [points[m], points[m + 1], points[m + 2]];
    for (let k = a; k < b; k++) w[k] = (k - a) / Math.max(1, b - a);
    for (let k = b; k < c; k++) w[k] = (c - k) / Math.max(1, c - b);
    return w;
  });
}

/**
 * Each frame's cepstrum (CEPS values) and log energy. The room's steady noise (each mel
 * band's power in the quietest fifth of the frames) is taken off each frame's bands
 * before the cepstrum, down to a floor: under noise, voices otherwise sound alike.
 */
function features(samples) {
  const n = samples.length < FRAME ? 0 : Math.floor((samples.length - FRAME) / HOP) + 1;
  const bands = new Float32Array(n * MELS);
  const energy = new Float32Array(n);
  const fft = new FFT(NFFT);
  const input = new Array(NFFT).fill(0);
  const out = fft.createComplexArray();
  const filters = melFilters();
  const hamming = Float32Array.from(
    { length: FRAME },
    (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (FRAME - 1)),
  );
  for (let f = 0; f < n; f++) {
    const at = f * HOP;
    let e = 0;
    for (let i = 0; i < FRAME; i++) {
      const x = samples[at + i] - 0.97 * (at + i > 0 ? samples[at + i - 1] : 0);
      e += samples[at + i] * samples[at + i];
      input[i] = x * hamming[i];
    }
    energy[f] = Math.log(e + 1e-10);
    fft.realTransform(out, input);
    for (let m = 0; m < MELS; m++) {
      const w = filters[m];
      let s = 0;
      for (let k = 0; k <= NFFT / 2; k++)
        if (w[k]) s += w[k] * (out[2 * k] * out[2 * k] + out[2 * k + 1] * out[2 * k + 1]);
      bands[f * MELS + m] = s;
    }
  }
  const quiet = Float32Array.from(energy).sort()[Math.floor(0.2 * Math.max(0, n - 1))];
  const noise = new Float64Array(MELS);
  let quietFrames = 0;
  for (let f = 0; f < n; f++) {
    if (energy[f] > quiet) continue;
    quietFrames++;
    for (let m = 0; m < MELS; m++) noise[m] += bands[f * MELS + m];
  }
  for (let m = 0; m < MELS; m++) noise[m] /= Math.max(1, quietFrames);
  const dct = Array.from({ length: CEPS }, (_, c) =>
    Float32Array.from({ length: MELS }, (_, m) => Math.cos((Math.PI * (c + 1) * (m + 0.5)) / MELS)),
  );
  const ceps = new Float32Array(n * CEPS);
  const logMel = new Float32Array(MELS);
  for (let f = 0; f < n; f++) {
    for (let m = 0; m < MELS; m++) {
      const b = bands[f * MELS + m];
      logMel[m] = Math.log(Math.max(b - noise[m], 0.05 * b) + 1e-10);
    }
    for (let c = 0; c < CEPS; c++) {
      let s = 0;
      for (let m = 0; m < MELS; m++) s += dct[c][m] * logMel[m];
      ceps[f * CEPS + c] = s;
    }
  }
  return { n, ceps, energy };
}

/** Which frames are speech: well above the stretch's quiet, and not far below its loudest. */
function speechFrames(energy) {
  const sorted = Float32Array.from(energy).sort();
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const floor = Math.max(at(0.1) + Math.log(10 ** 0.6), at(0.95) - Math.log(10 ** 4.5));
  return Uint8Array.from(energy, (e) => (e > floor ? 1 : 0));
}

/** A Gaussian's sufficient statistics: frames, sum, sum of outer products (CEPS × CEPS). */
function statsOf(ceps, frames) {
  const sum = new Float64Array(CEPS);
  const outer = new Float64Array(CEPS * CEPS);
  for (const f of frames)
    for (let i = 0; i < CEPS; i++) {
      const x = ceps[f * CEPS + i];
      sum[i] += x;
      for (let j = 0; j <= i; j++) outer[i * CEPS + j] += x * ceps[f * CEPS + j];
    }
  return { n: frames.length, sum, outer };
}
const joined = (a, b) => ({
  n: a.n + b.n,
  sum: a.sum.map((x, i) => x + b.sum[i]),
  outer: a.outer.map((x, i) => x + b.outer[i]),
});

/** log |Σ| of the statistics' covariance (Cholesky, lower triangle; a little floor on the diagonal). */
function logDet(st) {
  const c = new Float64Array(CEPS * CEPS);
  for (let i = 0; i < CEPS; i++)
    for (let j = 0; j <= i; j++)
      c[i * CEPS + j] = st.outer[i * CEPS + j] / st.n - (st.sum[i] / st.n) * (st.sum[j] / st.n) + (i === j ? 1e-3 : 0);
  let sum = 0;
  for (let i = 0; i < CEPS; i++)
    for (let j = 0; j <= i; j++) {
      let v = c[i * CEPS + j];
      for (let k = 0; k < j; k++) v -= c[i * CEPS + k] * c[j * CEPS + k];
      if (i === j) {
        if (v <= 1e-12) v = 1e-12;
        c[i * CEPS + i] = Math.sqrt(v);
        sum += Math.log(v);
      } else c[i * CEPS + j] = v / c[j * CEPS + j];
    }
  return sum;
}

/** What merging two voices costs by BIC: negative when one Gaussian explains both better than two. */
const PENALTY = 0.5 * (CEPS + (CEPS * (CEPS + 1)) / 2);
function deltaBic(a, b, ab) {
  const penalty = threshold * PENALTY * Math.log(ab.n);
  return { delta: 0.5 * (ab.n * ab.logDet - a.n * a.logDet - b.n * b.logDet) - penalty, penalty };
}

/** Speech cut into pieces at pauses and every PIECE_MAX frames; a piece under PIECE_MIN joins the one before. */
function pieces(speech) {
  const out = [];
  let current = [];
  let quiet = 0;
  const close = () => {
    if (!current.length) return;
    const last = out[out.length - 1];
    if (current.length < PIECE_MIN && last && last.length < PIECE_MAX * 1.5) last.push(...current);
    else out.push(current);
    current = [];
  };
  for (let f = 0; f < speech.length; f++) {
    if (!speech[f]) {
      if (++quiet === PAUSE) close();
      continue;
    }
    quiet = 0;
    current.push(f);
    if (current.length >= PIECE_MAX) close();
  }
  close();
  // A first piece too short to stand alone joins the next.
  if (out.length > 1 && out[0].length < PIECE_MIN) out[1].unshift(...out.shift());
  return out;
}

/** Each piece's voice: merged bottom-up by BIC while merging explains the sound better, and while there are more voices than people. */
function voicesOf(ceps, groups) {
  const clusters = groups.map((frames) => {
    const st = statsOf(ceps, frames);
    return { ...st, logDet: logDet(st), members: [groups.indexOf(frames)] };
  });
  const alive = clusters.map(() => true);
  const cost = new Map();
  const key = (i, j) => (i < j ? i * 100000 + j : j * 100000 + i);
  const pair = (i, j) => {
    const ab = joined(clusters[i], clusters[j]);
    const merged = { ...ab, logDet: logDet(ab) };
    return { merged, ...deltaBic(clusters[i], clusters[j], merged) };
  };
  for (let i = 0; i < clusters.length; i++)
    for (let j = i + 1; j < clusters.length; j++) cost.set(key(i, j), pair(i, j));
  let count = clusters.length;
  while (count > 1) {
    let best = null;
    for (const [k, v] of cost) if (!best || v.delta < best.v.delta) best = { k, v };
    if (!best) break;
    // Given the meeting's people, their number is reached first; below it, two voices
    // are one only where they are clearly so (at half the penalty): a meeting of four
    // people where one talked stays one voice.
    const { delta, penalty } = best.v;
    if (maxVoices ? count <= maxVoices && delta + penalty / 2 > 0 : delta > 0) break;
    const i = Math.floor(best.k / 100000);
    const j = best.k % 100000;
    clusters[i] = { ...best.v.merged, members: [...clusters[i].members, ...clusters[j].members] };
    alive[j] = false;
    count--;
    for (const k of [...cost.keys()])
      if (Math.floor(k / 100000) === j || k % 100000 === j || Math.floor(k / 100000) === i || k % 100000 === i)
        cost.delete(k);
    for (let o = 0; o < clusters.length; o++) if (alive[o] && o !== i) cost.set(key(i, o), pair(i, o));
  }
  const label = new Int32Array(groups.length);
  clusters.forEach((c, i) => {
    if (alive[i]) for (const m of c.members) label[m] = i;
  });
  return { label };
}

const parts = [];
process.stdin.on("data", (c) => parts.push(c));
process.stdin.on("end", () => {
  const bytes = Buffer.concat(parts);
  const samples = new Float32Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2) / 32768;
  const { n, ceps, energy } = features(samples);
  const speech = n ? speechFrames(energy) : new Uint8Array(0);
  const groups = pieces(speech);
  if (!groups.length) return void process.stdout.write(JSON.stringify({ turns: [], voices: {} }));
  const { label } = voicesOf(ceps, groups);
  // Turns: each piece is its voice's; a pause under half a second within one voice's speech is still its turn.
  const turns = [];
  groups.forEach((frames, g) => {
    const speaker = label[g];
    const start = (frames[0] * HOP) / RATE;
    const end = (frames[frames.length - 1] * HOP + FRAME) / RATE;
    const last = turns[turns.length - 1];
    if (last && last.speaker === speaker && start - last.end < 0.5) last.end = Math.max(last.end, end);
    else turns.push({ start, end, speaker });
  });
  turns.sort((a, b) => a.start - b.start);
  // Each voice's mean cepstrum, standardized over the stretch's speech: compared across stretches.
  const mu = new Float64Array(CEPS);
  const sq = new Float64Array(CEPS);
  let all = 0;
  for (const frames of groups)
    for (const f of frames) {
      all++;
      for (let c = 0; c < CEPS; c++) {
        mu[c] += ceps[f * CEPS + c];
        sq[c] += ceps[f * CEPS + c] ** 2;
      }
    }
  const mean = Array.from(mu, (x) => x / all);
  const sd = Array.from(sq, (x, c) => Math.sqrt(Math.max(1e-9, x / all - mean[c] ** 2)));
  const voices = {};
  for (const l of new Set(label)) {
    const frames = groups.filter((_, g) => label[g] === l).flat();
    voices[l] = mean.map((m, c) => (frames.reduce((s, f) => s + ceps[f * CEPS + c], 0) / frames.length - m) / sd[c]);
  }
  process.stdout.write(JSON.stringify({ turns: turns.filter((t) => t.end - t.start >= 0.2), voices }));
});
