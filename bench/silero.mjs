// Silero VAD (through sherpa-onnx, already a dependency for speaker voices) as the rule
// for where speech may be in a window, so that the transcription benchmark can measure it
// against notula's level rule on the same windows: 1 for each 100 ms frame that a speech
// stretch Silero found touches.
import fs from "node:fs";
import { createRequire } from "node:module";

const RATE = 16000;
const FRAME = 0.1;
const VAD_WINDOW = 512;

export function sileroFrames(modelPath, { threshold = 0.5 } = {}) {
  const sherpa = createRequire(import.meta.url)("sherpa-onnx-node");
  let busyMs = 0;
  let vad = null;
  const voice = async (pcmFile, w) => {
    const t = performance.now();
    const start = Math.round(w.startSec * RATE) * 2;
    const end = Math.round(w.endSec * RATE) * 2;
    const fd = fs.openSync(pcmFile, "r");
    const buf = Buffer.alloc(Math.max(0, end - start));
    const got = fs.readSync(fd, buf, 0, buf.length, start);
    fs.closeSync(fd);
    const samples = new Float32Array(got >> 1);
    for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(i * 2) / 32768;
    const frames = new Uint8Array(Math.ceil(samples.length / RATE / FRAME));
    // Loaded once; each window is heard from a fresh state.
    vad ??= new sherpa.Vad(
      {
        sileroVad: {
          model: modelPath,
          threshold,
          minSpeechDuration: 0.25,
          minSilenceDuration: 0.3,
          windowSize: VAD_WINDOW,
          maxSpeechDuration: 60,
        },
        sampleRate: RATE,
        numThreads: 1,
        debug: 0,
      },
      120,
    );
    vad.reset();
    const mark = () => {
      while (!vad.isEmpty()) {
        const s = vad.front(false);
        const from = Math.floor(s.start / RATE / FRAME);
        const to = Math.ceil((s.start + s.samples.length) / RATE / FRAME);
        for (let f = Math.max(0, from); f < Math.min(frames.length, to); f++) frames[f] = 1;
        vad.pop();
      }
    };
    for (let i = 0; i + VAD_WINDOW <= samples.length; i += VAD_WINDOW) {
      vad.acceptWaveform(samples.subarray(i, i + VAD_WINDOW));
      mark();
    }
    vad.flush();
    mark();
    busyMs += performance.now() - t;
    return frames;
  };
  return { voice, busyMs: () => busyMs };
}
