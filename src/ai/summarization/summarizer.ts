// Summary and enhanced note behind one interface; one file per method.
import type { TemplateSpec } from "../templates/builtin.js";

export interface TranscriptLine {
  speaker: string;
  text: string;
  /** MM:SS */
  at: string;
}

export interface SummaryInput {
  title: string;
  userWrittenNote: string;
  transcript: TranscriptLine[];
  /** The sections the enhanced note has, in order, and what belongs in each. */
  template: TemplateSpec;
  /** The language to write in (a code such as "de"), or null for the meeting's own. */
  language: string | null;
  /** The language the meeting was held in, when known. */
  meetingLanguage?: string | null;
}

export interface SummaryResult {
  summary: string;
  /** Markdown: the user's notes merged with what was said, one `## ` section per template section, in order. */
  enhancedNote: string;
  /** What the summarizer could not do fully (a part of the meeting it could not read, a language it cannot write). */
  warnings: string[];
  /** The language it wrote in when it was asked for one and could, else null (the meeting's own). */
  language: string | null;
}

export interface Summarizer {
  /** e.g. "openai:gpt-4o-mini" or "extractive"; recorded on the note. */
  readonly name: string;
  summarize(input: SummaryInput, opts: { signal: AbortSignal }): Promise<SummaryResult>;
}
