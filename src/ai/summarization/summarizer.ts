// Summary and enhanced note behind one interface; one file per method.

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
}

export interface SummaryResult {
  summary: string;
  /** Markdown: the user's notes merged with what was said (key points, decisions, action items with owners). */
  enhancedNote: string;
}

export interface Summarizer {
  /** e.g. "openai:gpt-4o-mini" or "extractive"; recorded on the note. */
  readonly name: string;
  summarize(input: SummaryInput, opts: { signal: AbortSignal }): Promise<SummaryResult>;
}
