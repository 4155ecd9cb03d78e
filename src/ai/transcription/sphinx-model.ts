// What pocketsphinx is given and what it says: the models of a language as Debian lays
// them out, and its words with their times read as phrases. Both ways of hearing it use
// these (a window at a time, sphinx.ts; a live stream, sphinx-stream.ts).
import fs from "node:fs";
import { EngineConfigError, SINGLE_SPEAKER, type TimedWord, type TranscriptSegment } from "./engine.js";

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
