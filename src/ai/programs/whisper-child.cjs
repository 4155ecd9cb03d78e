// @ts-check
// The program that runs whisper.cpp (through @napi-rs/whisper) in a child process of its
// own. whisper.cpp's `full` holds the thread it runs on for seconds at a time, so it
// never runs in the server: a child keeps every request answered, its log lines out of
// the server's, and a cancelled transcription is stopped by ending the child, which
// gives the engine back at once.
//
// It is plain CommonJS, a file of its own (checked by tsc with checkJs, copied beside
// the bundle by the build); the binding's path comes from the parent.
//
// argv: the binding's entry file, the model file. It loads the model once and says
// {ready, multilingual}, or {refused: reason} and exits 2. Then, one message at a time:
// {id, wav, language, prompt, draft, threads} → {id, segments: [{text, start, end}], language}
// with times in seconds, or {id, error}.
const fs = require("node:fs");
const [bindingPath, modelPath] = process.argv.slice(2);
const W = require(bindingPath);
let whisper = null;
try {
  whisper = new W.Whisper(modelPath, { useGpu: false });
  process.send({ ready: true, multilingual: Boolean(whisper.isMultilingual) });
} catch (err) {
  process.send({ refused: String((err && err.message) || err) }, () => process.exit(2));
}

function samplesOf(file) {
  const bytes = fs.readFileSync(file);
  // A WAV written by notula: 16 kHz mono s16le after a 44-byte header.
  const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + 44, (bytes.length - 44) >> 1);
  const samples = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) samples[i] = pcm[i] / 32768;
  return samples;
}

/** @typedef {{ id: number, wav: string, language: string, prompt?: string, draft?: boolean, threads: number }} Job */

process.on("message", (/** @type {Job} */ job) => {
  if (!whisper) return;
  try {
    const p = new W.WhisperFullParams(W.WhisperSamplingStrategy.Greedy);
    p.nThreads = job.threads;
    p.language = job.language;
    p.translate = false;
    p.printProgress = false;
    p.printRealtime = false;
    p.printTimestamps = false;
    p.printSpecial = false;
    if (job.prompt) p.initialPrompt = job.prompt;
    const samples = samplesOf(job.wav);
    // 1500 positions are 30 s of audio; a draft reads its own length and 5 s more. Measured
    // on drafts of a live meeting: a third of the time of a full window; with only 1.3 s
    // more, whisper fell into repeating itself (four times slower, words said twice); on
    // whole windows under noise a cut context costs words, so the final pass reads all 1500.
    if (job.draft) p.audioCtx = Math.min(1500, Math.ceil((samples.length / 16000 / 30) * 1500) + 256);
    const segments = [];
    // The binding hands each segment to a callback queued on this thread, which runs in
    // a later turn of the loop than full() returns in: the reply waits until the
    // segments add up to the text full() returned.
    p.onNewSegment = (s) => segments.push({ text: s.text, start: s.start / 100, end: s.end / 100 });
    const text = whisper.full(p, samples);
    const bare = (t) => t.replace(/\s+/g, "");
    const started = Date.now();
    const reply = () => {
      if (bare(segments.map((s) => s.text).join("")) !== bare(text) && Date.now() - started < 5000)
        return setTimeout(reply, 2);
      const id = whisper.fullLangId;
      process.send({ id: job.id, segments, language: id >= 0 ? W.Whisper.lang(id) : null });
    };
    reply();
  } catch (err) {
    process.send({ id: job.id, error: String((err && err.message) || err) });
  }
});
process.on("disconnect", () => process.exit(0));
