// What people are told about the engine that transcribes their recordings, said the same
// way by the start banner, `notula serve`'s offer, the first-run screen and Settings →
// Speech-to-text. pocketsphinx is the fallback: the figures are the word error rates that
// `npm run bench -- transcription` measured (docs/benchmarks.md).
export const MEASURED_WER = { sphinx: "48.6 %", whisperBaseEn: "13.0 %" } as const;

/** "whisper (ggml-base.en.bin)", "pocketsphinx", "openai:whisper-1": an engine's name as a person reads it. */
export function engineLabel(name: string): string {
  if (name.startsWith("sphinx:")) return "pocketsphinx";
  if (name.startsWith("whisper:")) return `whisper (${name.slice("whisper:".length)})`;
  return name;
}

/** Why a person would want another engine than this one, or null when there is none to want. */
export function engineCaveat(name: string): string | null {
  if (!name.startsWith("sphinx:")) return null;
  return `pocketsphinx is an English-only fallback of lower accuracy: on the benchmark's meetings it got ${MEASURED_WER.sphinx} of the words wrong, where whisper base.en got ${MEASURED_WER.whisperBaseEn}.`;
}
