// What the pipeline needs for one workspace's notes: its engines, resolved when a job
// runs (services/ai-config.ts), and the languages and vocabulary it works in.
import type { Answerer } from "../ai/ask/answerers.js";
import type { SpeakerModelPaths } from "../ai/diarization/models.js";
import type { Summarizer } from "../ai/summarization/summarizer.js";
import type { SpeechToText } from "../ai/transcription/engine.js";

/** What the pipeline needs for one workspace's notes. */
export interface WorkspaceEngines {
  transcriber: () => SpeechToText;
  summarizer: () => Summarizer;
  /** What answers questions about the workspace's meetings. */
  answerer: () => Answerer;
  /** A language code, or undefined to let the engine detect it. */
  language: string | undefined;
  vocabulary: string[];
  /** The language notes are written in (translation first), or null for the meeting's own. */
  outputLanguage: string | null;
  translationLanguage: string | null;
  /** The local speaker models when the workspace splits recordings into voices, else null. */
  speakerModels: SpeakerModelPaths | null;
  /** Keeps why the workspace's last recording could not be split into voices (null: it could). */
  speakerProblem: (message: string | null) => Promise<void>;
}
