// Speech-to-text behind one interface; one file per engine.

export interface TranscriptSegment {
  /** The engine's speaker label, or a single honest label when it cannot tell speakers apart. */
  speaker: string;
  text: string;
  /** Seconds from the start of the audio given to the engine. */
  start: number;
  end: number;
}

export interface SpeechToText {
  /** e.g. "openai:whisper-1", "sphinx:en-us"; recorded on the note. */
  readonly name: string;
  /** Windows of about this many seconds are sent at a time. */
  readonly windowSec: number;
  /** Transcribes one 16 kHz mono WAV file. */
  transcribe(wavFile: string, opts: { signal: AbortSignal; language?: string }): Promise<TranscriptSegment[]>;
}

/** A failure that a retry cannot fix (bad key, missing model): the note says why at once. */
export class EngineConfigError extends Error {}

export const SINGLE_SPEAKER = "Speaker";
