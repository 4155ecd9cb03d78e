// What people are told about the engine that transcribes their recordings, said the same
// way by the start banner, `notula serve`'s offer, the first-run screen and Settings →
// Speech-to-text. pocketsphinx is the fallback: the figures are the word error rates that
// `npm run bench -- transcription` measured (docs/benchmarks.md).
export const MEASURED_WER = {
  sphinx: { clean: "9.4 %", noisy: "92.0 %" },
  whisperBaseEn: { clean: "3.7 %", noisy: "26.5 %" },
} as const;

/** "whisper (ggml-base.en.bin)", "pocketsphinx", "openai:whisper-1": an engine's name as a person reads it. */
export function engineLabel(name: string): string {
  if (name.startsWith("sphinx:")) return "pocketsphinx";
  if (name.startsWith("whisper:")) return `whisper (${name.slice("whisper:".length)})`;
  return name;
}

/** Why a person would want another engine than this one, or null when there is none to want. */
export function engineCaveat(name: string): string | null {
  if (!name.startsWith("sphinx:")) return null;
  const { sphinx, whisperBaseEn: whisper } = MEASURED_WER;
  return `pocketsphinx is an English-only fallback of lower accuracy: on the benchmark's meetings it got ${sphinx.clean} of the words wrong on clean speech and ${sphinx.noisy} under noise, where whisper base.en got ${whisper.clean} and ${whisper.noisy}.`;
}
