// Speech-to-text behind one interface; one file per engine.

export interface TranscriptSegment {
  /** The engine's speaker label, or a single honest label when it cannot tell speakers apart. */
  speaker: string;
  text: string;
  /** Seconds from the start of the audio given to the engine. */
  start: number;
  end: number;
  /** Each word's times, where the engine gives them: a segment is split where its speaker changes. */
  words?: TimedWord[];
}

export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

export interface TranscribeOptions {
  signal: AbortSignal;
  /** A language code such as "en"; unset lets the engine detect it. */
  language?: string;
  /** Names and terms the engine should expect (its prompt or hotwords). */
  vocabulary?: string[];
  /** What was said just before this audio (a live window's predecessor), to carry the sentence on. */
  previousText?: string;
  /**
   * A live recording's draft, which someone is waiting to read: it goes before other work
   * waiting for the engine, which may trade a little accuracy for speed (the finished
   * transcript comes from windows of the final pass).
   */
  draft?: boolean;
}

/** The prompt an engine that takes one is given: the glossary, then what was said just before. */
export function promptOf(o: Pick<TranscribeOptions, "vocabulary" | "previousText">): string | undefined {
  const parts = [
    ...(o.vocabulary?.length ? [`Glossary: ${o.vocabulary.join(", ")}.`] : []),
    ...(o.previousText ? [o.previousText.slice(-400)] : []),
  ];
  return parts.length ? parts.join(" ") : undefined;
}

export interface Transcription {
  segments: TranscriptSegment[];
  /** The language code the engine used or detected, when it says. */
  language?: string;
}

export interface SpeechToText {
  /** e.g. "openai:whisper-1", "sphinx:en-us"; recorded on the note. */
  readonly name: string;
  /** Windows of about this many seconds are sent at a time. */
  readonly windowSec: number;
  /**
   * While a recording goes on, the finished transcript is made behind the live drafts in
   * windows of this many seconds (whisper's 30: the context it reads at once); null
   * where the live windows are kept as they are (an engine billed by the minute).
   */
  readonly finalWindowSec: number | null;
  /**
   * Seconds of the audio before a window the engine is given to settle on, where it adapts
   * to the voices and the room as it listens: a window it hears cold loses its first
   * sentence. What it heard in them belongs to the window before and is dropped.
   */
  readonly leadInSec?: number;
  /** Transcribes one 16 kHz mono WAV file. */
  transcribe(wavFile: string, opts: TranscribeOptions): Promise<Transcription>;
  /**
   * A recognizer fed a live recording's audio as it comes, saying each phrase when the
   * speaker pauses: its drafts, where the engine has one (pocketsphinx); others draft
   * in windows.
   */
  stream?(o: { language?: string; offsetSec: number; onPhrase?: () => void }): SpeechStream;
  /**
   * Resolves once the engine can transcribe (a local model loads); rejects with an
   * EngineConfigError saying why it cannot. Engines with nothing to load have none.
   */
  ready?(signal?: AbortSignal): Promise<void>;
}

/** A failure that a retry cannot fix (bad key, missing model): the note says why at once. */
export class EngineConfigError extends Error {}

export const SINGLE_SPEAKER = "Speaker";

/** "english" → "en": OpenAI's verbose_json names the language in English; codes pass through. */
export function languageCode(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  if (/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/.test(v) && v.length <= 3) return v;
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  for (const code of ISO_639_1) if (names.of(code)?.toLowerCase() === v) return code;
  return undefined;
}

const ISO_639_1 =
  "af am ar as az be bg bn bo br bs ca cs cy da de el en es et eu fa fi fo fr gl gu ha he hi hr ht hu hy id is it ja jw ka kk km kn ko la lb ln lo lt lv mg mi mk ml mn mr ms mt my ne nl nn no oc pa pl ps pt ro ru sa sd si sk sl sn so sq sr su sv sw ta te tg th tk tl tr tt uk ur uz vi yi yo zh".split(
    " ",
  );

/** Most terms sent to an engine: a whisper prompt holds about 224 tokens. */
const MOST_TERMS = 40;

/**
 * The workspace's vocabulary with the meeting's people: the attendees' names are what a
 * recogniser most often mishears, and the calendar says who will be talking. The
 * workspace's own terms come first; a name already there is not repeated.
 */
export function meetingVocabulary(vocabulary: string[], people: { name: string }[]): string[] {
  const seen = new Set(vocabulary.map((v) => v.toLowerCase()));
  const names = people
    .map((p) => p.name.trim())
    .filter((n) => n && !n.includes("@") && !seen.has(n.toLowerCase()) && (seen.add(n.toLowerCase()), true));
  return [...vocabulary, ...names].slice(0, MOST_TERMS);
}

/** A live recording heard as it comes (SpeechToText.stream). */
export interface SpeechStream {
  /** Feeds 16 kHz mono s16le PCM, in order. */
  write(pcm: Buffer): void;
  /** The phrases heard since the last take, on the recording's timeline. */
  take(): TranscriptSegment[];
  /** How many phrases wait to be taken. */
  readonly pending: number;
  /** Where on the recording's timeline the audio fed so far ends. */
  readonly fedSec: number;
  /** Where the last phrase the recognizer closed ends (the stream's start before any). */
  readonly heardSec: number;
  /** Ends the stream: the phrase under way is said, then the process exits. */
  finish(): Promise<void>;
  /** Stops at once, saying nothing more. */
  kill(): void;
  readonly exited: boolean;
}
