// The offline engine that runs anywhere Debian's pocketsphinx is installed (CMU
// Sphinx, English). Less accurate than whisper, but needs no model download.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { EngineConfigError, SINGLE_SPEAKER, type SpeechToText, type TranscriptSegment } from "./engine.js";

export const SPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

export function sphinxAvailable(): boolean {
  return fs.existsSync(SPHINX_MODEL_DIR) && (process.env.PATH ?? "").split(":").some((d) => fs.existsSync(`${d}/pocketsphinx_continuous`));
}

/** Words with times, as `-time yes` prints them, grouped into phrases at pauses. */
export function phrasesFromWordTimes(output: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let words: string[] = [];
  let start = 0;
  let end = 0;
  const flush = () => {
    if (words.length) segments.push({ speaker: SINGLE_SPEAKER, text: words.join(" "), start, end });
    words = [];
  };
  for (const line of output.split("\n")) {
    const m = /^(\S+) (\d+\.\d+) (\d+\.\d+) [\d.]+$/.exec(line.trim());
    if (!m) continue;
    const [, token, s, e] = m;
    if (token === "<sil>" || token === "</s>" || token === "<s>") {
      if (token !== "<s>" && Number(e) - Number(s) >= 0.3) flush();
      continue;
    }
    if (token.startsWith("[") || token.startsWith("++")) continue; // noise markers
    if (!words.length) start = Number(s);
    words.push(token.replace(/\(\d+\)$/, ""));
    end = Number(e);
  }
  flush();
  return segments;
}

export function createSphinxTranscriber(): SpeechToText {
  return {
    name: "sphinx:en-us",
    // pocketsphinx segments long audio itself; long windows save its 0.6 s start-up per window.
    windowSec: 300,
    transcribe(wavFile, { signal }) {
      return new Promise((resolve, reject) => {
        const child = spawn("pocketsphinx_continuous", ["-infile", wavFile, "-time", "yes", "-logfn", "/dev/null"], {
          stdio: ["ignore", "pipe", "pipe"],
          signal,
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (err = (err + d).slice(-1000)));
        child.on("error", (e: NodeJS.ErrnoException) =>
          reject(e.code === "ENOENT" ? new EngineConfigError("pocketsphinx is not installed (Debian: apt-get install pocketsphinx pocketsphinx-en-us).") : e),
        );
        child.on("close", (code) => (code === 0 ? resolve(phrasesFromWordTimes(out)) : reject(new Error(`pocketsphinx failed (${code}): ${err.trim()}`))));
      });
    },
  };
}
