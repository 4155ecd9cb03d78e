// The offline engine that runs anywhere Debian's pocketsphinx is installed (CMU
// Sphinx, English). Less accurate than whisper, but needs no model download.
import { spawn } from "node:child_process";
import fs from "node:fs";
import {
  EngineConfigError,
  SINGLE_SPEAKER,
  type SpeechToText,
  type TimedWord,
  type TranscriptSegment,
} from "./engine.js";
import { programDirs } from "../../config/environment.js";

export const SPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

const MODEL_ROOT = "/usr/share/pocketsphinx/model";

/**
 * The acoustic model, language model and dictionary for a language, as Debian lays
 * them out (model/<code>/<code>, <code>.lm.bin, cmudict-<code>.dict); "en" means en-us.
 */
export function sphinxModelFor(language: string | undefined): { code: string; args: string[] } {
  const wanted = !language || language === "en" ? "en-us" : language.toLowerCase();
  const dir = `${MODEL_ROOT}/${wanted}`;
  if (!fs.existsSync(`${dir}/${wanted}`)) {
    const installed = fs.existsSync(MODEL_ROOT) ? fs.readdirSync(MODEL_ROOT).join(", ") : "none";
    throw new EngineConfigError(
      `pocketsphinx has no model for the language "${language}" (installed: ${installed}); set the workspace's transcription language to one of those or "auto", or use whisper or an OpenAI-compatible server.`,
    );
  }
  const args = ["-hmm", `${dir}/${wanted}`];
  if (fs.existsSync(`${dir}/${wanted}.lm.bin`)) args.push("-lm", `${dir}/${wanted}.lm.bin`);
  if (fs.existsSync(`${dir}/cmudict-${wanted}.dict`)) args.push("-dict", `${dir}/cmudict-${wanted}.dict`);
  return { code: wanted === "en-us" ? "en" : wanted, args };
}

export function sphinxAvailable(): boolean {
  return fs.existsSync(SPHINX_MODEL_DIR) && programDirs().some((d) => fs.existsSync(`${d}/pocketsphinx_continuous`));
}

/** Words with times, as `-time yes` prints them, grouped into phrases at pauses. */
export function phrasesFromWordTimes(output: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let words: TimedWord[] = [];
  const flush = () => {
    if (words.length)
      segments.push({
        speaker: SINGLE_SPEAKER,
        text: words.map((w) => w.text).join(" "),
        start: words[0].start,
        end: words[words.length - 1].end,
        words,
      });
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
    words.push({ text: token.replace(/\(\d+\)$/, ""), start: Number(s), end: Number(e) });
  }
  flush();
  return segments;
}

export function createSphinxTranscriber(): SpeechToText {
  return {
    name: "sphinx:en-us",
    // pocketsphinx segments long audio itself; long windows save its 0.6 s start-up per window.
    windowSec: 300,
    // Windows cut at pauses every 30 s, rather than 8, leave fewer words cut in two.
    finalWindowSec: 30,
    // pocketsphinx estimates the noise and the channel from what it has heard: measured on
    // clean flite meetings, 30 s windows heard cold wrote 10.9 % of the words wrong against
    // 8.9 % for the whole file (8.2 % with the lead-in), nearly all in each window's first sentence.
    leadInSec: 3,
    transcribe(wavFile, { signal, language }) {
      // pocketsphinx cannot detect a language: auto means its English model.
      const model = sphinxModelFor(language);
      return new Promise((resolve, reject) => {
        const child = spawn(
          "pocketsphinx_continuous",
          ["-infile", wavFile, "-time", "yes", "-logfn", "/dev/null", ...model.args],
          {
            stdio: ["ignore", "pipe", "pipe"],
            signal,
          },
        );
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (err = (err + d).slice(-1000)));
        child.on("error", (e: NodeJS.ErrnoException) =>
          reject(
            e.code === "ENOENT"
              ? new EngineConfigError(
                  "pocketsphinx is not installed (Debian: apt-get install pocketsphinx pocketsphinx-en-us).",
                )
              : e,
          ),
        );
        child.on("close", (code) =>
          code === 0
            ? resolve({ segments: phrasesFromWordTimes(out), language: model.code })
            : reject(new Error(`pocketsphinx failed (${code}): ${err.trim()}`)),
        );
      });
    },
  };
}
