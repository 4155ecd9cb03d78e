// A meeting too long for a model's context, read part by part: each part's notes for
// the template's sections (map), then the parts' notes combined until they fit (reduce).
// Every part is read: a part that fails twice or comes back cut short is named in the
// note's warnings, never silently left out.
//
// While a meeting is recorded its finished parts are read ahead, and what the model
// noted is kept by a digest of everything it was given (PartMemo): once the meeting
// stops, the note finds those parts and combinations kept and reads only what is new.
// Parts are cut the same way from the start of the transcript however long it has
// grown, so a part finished during the meeting is the same part afterwards.
import { createHash } from "node:crypto";
import { packText } from "../pack-text.js";
import type { ChatCallOptions } from "../llm/chat.js";
import { EngineConfigError } from "../transcription/engine.js";
import { combinePrompt, mapPrompt, titles } from "./chat-prompts.js";
import type { PartMemo, SummaryInput, TranscriptLine } from "./summarizer.js";

/** Reduce rounds before giving the notes as they are to the final calls. */
const MAX_REDUCE_ROUNDS = 6;

export const transcriptText = (lines: TranscriptLine[]): string[] =>
  lines.map((l) => `[${l.at}] ${l.speaker}: ${l.text}`);

export interface Part {
  text: string;
  /** MM:SS of its first and last line. */
  from: string;
  to: string;
}

/** The transcript in parts of at most `maxChars`, never cut inside a line unless a line alone is longer. */
export function partsOf(lines: TranscriptLine[], maxChars: number): Part[] {
  const parts: Part[] = [];
  let current: { lines: string[]; size: number; from: string; to: string } | null = null;
  const flush = () => {
    if (current) parts.push({ text: current.lines.join("\n"), from: current.from, to: current.to });
    current = null;
  };
  for (const line of lines) {
    for (const piece of packText(transcriptText([line]), maxChars, "")) {
      if (current && current.size + piece.length + 1 > maxChars) flush();
      current ??= { lines: [], size: 0, from: line.at, to: line.at };
      current.lines.push(piece);
      current.size += piece.length + 1;
      current.to = line.at;
    }
  }
  flush();
  return parts;
}

export type Chat = (
  system: string,
  user: string,
  signal: AbortSignal,
  opts?: ChatCallOptions,
) => Promise<{ content: string; cutShort: boolean }>;

export function createPartReader(o: { model: string; held: boolean; chat: Chat }) {
  const digestOf = (system: string, user: string) =>
    createHash("sha256").update(`${o.model}\n${system}\n${user}`).digest("base64url");

  /**
   * The model's answer, or the one kept for the same question. An answer cut short is
   * not kept: asked again after the meeting, its warning is given where it belongs.
   */
  async function ask(system: string, user: string, signal: AbortSignal, opts: ChatCallOptions, memo?: PartMemo) {
    const digest = memo && digestOf(system, user);
    const kept = digest ? await memo!.get(digest) : null;
    if (kept !== null) return { content: kept, cutShort: false };
    const answer = await o.chat(system, user, signal, opts);
    if (digest && !answer.cutShort) await memo!.put(digest, answer.content);
    return answer;
  }

  /** One part's notes; a failed call is tried once more, then named in the warnings (`total` parts in all). */
  async function mapPart(
    input: SummaryInput,
    part: Part,
    i: number,
    total: number | null,
    warnings: string[],
    signal: AbortSignal,
    memo?: PartMemo,
  ): Promise<string | null> {
    const where = `Part ${i + 1}${total === null ? "" : ` of ${total}`} (${part.from}–${part.to})`;
    let lastError: Error | null = null;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        // The part's place, not the count of parts: a meeting still recorded has no count yet.
        const { content, cutShort } = await ask(
          mapPrompt(input.template, o.held),
          `Meeting "${input.title}", part ${i + 1} (${part.from}–${part.to}):\n\n${part.text}`,
          signal,
          { sections: titles(input.template) },
          memo,
        );
        if (cutShort)
          warnings.push(
            `${where} of the meeting was cut short by the model's answer limit; its notes may be incomplete.`,
          );
        return content;
      } catch (err) {
        if (err instanceof EngineConfigError || signal.aborted) throw err;
        lastError = err as Error;
      }
    }
    warnings.push(
      `${where} of the meeting could not be read by the model (${lastError!.message}); nothing from it is in the note.`,
    );
    return null;
  }

  /** Every part's notes, labelled with where it was said; the parts none could be read of are in the warnings. */
  async function mapAll(
    input: SummaryInput,
    parts: Part[],
    total: number | null,
    warnings: string[],
    signal: AbortSignal,
    memo?: PartMemo,
  ): Promise<string[]> {
    const notes: string[] = [];
    for (const [i, part] of parts.entries()) {
      const note = await mapPart(input, part, i, total, warnings, signal, memo);
      if (note !== null) notes.push(`Part ${i + 1} (${part.from}–${part.to}):\n${note}`);
    }
    return notes;
  }

  /**
   * Combines neighbouring notes until they fit one part. Every call combines at least
   * two notes, so each round shortens the list; after MAX_REDUCE_ROUNDS the notes go
   * on whole (a model that cannot take them then fails visibly, never by truncation).
   * Groups are made from the first note on, so a longer meeting's first groups are a
   * shorter one's: what was combined while it was recorded is found kept.
   */
  async function reduceToFit(
    notes: string[],
    partChars: number,
    sections: string[],
    signal: AbortSignal,
    memo?: PartMemo,
  ): Promise<string> {
    let level = notes;
    for (
      let round = 0;
      round < MAX_REDUCE_ROUNDS && level.length > 1 && level.join("\n\n").length > partChars;
      round++
    ) {
      const groups: string[][] = [];
      for (const note of level) {
        const last = groups[groups.length - 1];
        if (last && (last.length < 2 || last.join("\n\n").length + note.length + 2 <= partChars)) last.push(note);
        else groups.push([note]);
      }
      level = [];
      for (const g of groups)
        level.push(
          g.length === 1
            ? g[0]
            : (
                await ask(
                  combinePrompt(o.held),
                  `Notes of consecutive parts of one meeting:\n\n${g.join("\n\n")}`,
                  signal,
                  { sections },
                  memo,
                )
              ).content,
        );
    }
    return level.join("\n\n");
  }

  return { mapAll, reduceToFit };
}
