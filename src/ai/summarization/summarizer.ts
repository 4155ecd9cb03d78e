// Summary and enhanced note behind one interface; one file per method.
import type { TemplateSpec } from "../templates/builtin.js";
import type { CitationCount } from "./citations.js";

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
  /** The note's id: points cite their moments as links to it (`/notes/{id}#t=SECONDS`). */
  noteId?: string;
  /** When the meeting was held (ms since the epoch): due dates said as "by Friday" are resolved against it. */
  meetingAt?: number;
  /** The names of the meeting's people (its participants), who tasks may be given to. */
  people?: string[];
}

export interface SummaryResult {
  summary: string;
  /** Markdown: the user's notes merged with what was said, one `## ` section per template section, in order. */
  enhancedNote: string;
  /** What the summarizer could not do fully (a part of the meeting it could not read, a language it cannot write). */
  warnings: string[];
  /** The language it wrote in when it was asked for one and could, else null (the meeting's own). */
  language: string | null;
  /** What wrote it when that is not the summarizer named (a model that failed, then the offline method). */
  writtenBy?: string;
  /** A model's points: how many cite a line, how many cite none, how many citations were dropped as unsupported. */
  citations?: CitationCount;
}

/** What a model noted of parts and combinations read before, by a digest of what it was given. */
export interface PartMemo {
  get(digest: string): Promise<string | null>;
  put(digest: string, notes: string): Promise<void>;
}

/** A language model's answer that is no note (none of the template's sections, no part of the meeting read). */
export class ModelAnswerError extends Error {}

/**
 * A model's summarizer that never leaves a note without a summary: when the model's
 * answer is not a note, the offline method writes it instead, and the note says why.
 * A model that cannot be reached is not this: its job is retried.
 */
export function withOfflineFallback(model: Summarizer, offline: Summarizer): Summarizer {
  return {
    name: model.name,
    ...(model.readAhead ? { readAhead: model.readAhead.bind(model) } : {}),
    async summarize(input, opts) {
      try {
        return await model.summarize(input, opts);
      } catch (err) {
        if (!(err instanceof ModelAnswerError) || opts.offlineOnBadAnswer === false) throw err;
        const r = await offline.summarize(input, opts);
        return {
          ...r,
          writtenBy: offline.name,
          warnings: [`${err.message} This note was written offline instead.`, ...r.warnings],
        };
      }
    },
  };
}

export interface SummarizeOptions {
  signal: AbortSignal;
  /**
   * False when the note already has what a failed answer would replace (writing its
   * enhanced note again): the failure is then reported and the note keeps its text.
   */
  offlineOnBadAnswer?: boolean;
  /** What was read ahead of this meeting while it was recorded: kept answers are taken rather than asked again. */
  memo?: PartMemo;
}

export interface Summarizer {
  /** e.g. "openai:gpt-4o-mini" or "extractive"; recorded on the note. */
  readonly name: string;
  summarize(input: SummaryInput, opts: SummarizeOptions): Promise<SummaryResult>;
  /**
   * A model's summarizer reads a meeting's finished parts while it is still recorded,
   * keeping what it noted in `memo` for summarize; a method with nothing to gain (the
   * offline one, instant) has none. Returns how many parts are kept.
   */
  readAhead?(input: SummaryInput, opts: { signal: AbortSignal; memo: PartMemo }): Promise<{ parts: number }>;
}
