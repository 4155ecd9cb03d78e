// The offline engine that runs anywhere Debian's pocketsphinx is installed (CMU
// Sphinx, English). Less accurate than whisper, but needs no model download.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { EngineConfigError, type SpeechToText } from "./engine.js";
import { phrasesFromWordTimes, SPHINX_MODEL_DIR, sphinxModelFor } from "./sphinx-model.js";
import { programDirs } from "../../config/environment.js";
import { startSphinxStream } from "./sphinx-stream.js";

export function sphinxAvailable(): boolean {
  return fs.existsSync(SPHINX_MODEL_DIR) && programDirs().some((d) => fs.existsSync(`${d}/pocketsphinx_continuous`));
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
    stream: (o) => startSphinxStream(o),
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
