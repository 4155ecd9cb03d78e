// Summaries and template-shaped notes from a language model: an OpenAI-compatible
// chat-completions server (OpenAI, Ollama, LM Studio, vLLM, OpenRouter) or the local one.
//
// A meeting that fits the model's context goes to it whole. A longer one is read part
// by part (map: each part's notes for the template's sections), then the parts' notes
// are combined (reduce) and the note is written from them. Every part is read: a part
// that fails twice or comes back cut short is named in the note's warnings, never
// silently left out.
import { packText } from "../pack-text.js";
import { assembleNote, EMPTY_SECTION, languageName, sectionsOf } from "../templates/sections.js";
import type { TemplateSpec } from "../templates/builtin.js";
import { EngineConfigError } from "../transcription/engine.js";
import type { ChatCallOptions, ChatModel } from "../llm/chat.js";
import { citeLines } from "./citations.js";
import { weaveOwnNotes, withoutOwnTasks } from "./own-notes.js";
import { ModelAnswerError, type Summarizer, type SummaryInput, type TranscriptLine } from "./summarizer.js";
/** Reduce rounds before giving the notes as they are to the final calls. */
const MAX_REDUCE_ROUNDS = 6;

const titles = (t: TemplateSpec) => t.sections.map((s) => s.title);
/**
 * The sections and what goes in each: as `## ` headings for the answer to copy, or as a
 * list for a model held to them by a grammar (its answer's shape is given by the grammar).
 */
const sectionList = (t: TemplateSpec, held: boolean) =>
  t.sections
    .map((s) =>
      held
        ? `- ${s.title}: ${s.instructions || "what belongs under this title"}`
        : `## ${s.title}\n${s.instructions || "(what belongs under this title)"}`,
    )
    .join(held ? "\n" : "\n\n");
const writeIn = (language: string | null) =>
  language ? ` Write in ${languageName(language)}.` : " Write in the language of the meeting.";

/** Each point names the transcript lines it comes from by their times, so the note can link to them (citations.ts). */
const KEEP_TIMES =
  "End each item with the time of the transcript line it comes from, in square brackets as the transcript gives it, for example [01:05].";

/** The attendee's lines head the note as written (own-notes.ts): the sections go around them, never repeat them. */
const OWN_NOTES_SHOWN =
  "The attendee's own notes head the final note as they wrote them: use them to know what mattered, and do not repeat them or their tasks.";

function mapPrompt(t: TemplateSpec, held: boolean): string {
  return held
    ? "You take notes of meetings. Note what this part of a meeting transcript said for each of these sections of the final notes, as short items:\n\n" +
        sectionList(t, true) +
        `\n\nKeep names, numbers, dates and who said what. ${KEEP_TIMES} Do not invent anything.`
    : "You take notes of meetings. Summarize this part of a meeting transcript as terse markdown bullet points (at most 200 words), " +
        "keeping only what belongs in these sections of the final notes:\n\n" +
        sectionList(t, false) +
        `\n\nGroup the bullets under those section titles. Keep names, numbers, dates and who said what. ${KEEP_TIMES} Do not invent anything.`;
}

const combinePrompt = (held: boolean) =>
  held
    ? "You take notes of meetings. Combine these notes of consecutive parts of one meeting into one list of short items per section. Keep names, numbers, dates and each item's [MM:SS] times. Do not invent anything."
    : "You take notes of meetings. Combine these notes of consecutive parts of one meeting into one set of terse markdown bullet points grouped by the same section titles (at most 300 words). Keep names, numbers, dates and each item's [MM:SS] times. Do not invent anything.";

function summaryPrompt(language: string | null): string {
  return `You take notes of meetings. From the meeting below, write a summary of the whole meeting in one short paragraph (at most 120 words). Plain text, no heading.${writeIn(language)}`;
}

function notePrompt(t: TemplateSpec, language: string | null, held: boolean): string {
  return (
    (held
      ? `You write meeting notes with the "${t.name}" template: for each of these sections, a list of short items from what was said and from the attendee's own notes:\n\n` +
        sectionList(t, true) +
        `\n\n${OWN_NOTES_SHOWN} ${KEEP_TIMES} Do not invent anything.`
      : `You write meeting notes with the "${t.name}" template. Write a markdown document with exactly these sections, in this order, ` +
        "each starting with its '## ' heading line as given, followed by what its instructions ask for:\n\n" +
        sectionList(t, false) +
        `\n\nFill each section from what was said. ${OWN_NOTES_SHOWN} ` +
        `${KEEP_TIMES} Under a section the meeting said nothing about, write "${EMPTY_SECTION}". Do not invent anything. No text before the first heading.`) +
    writeIn(language) +
    (t.context ? `\n\nContext about these meetings:\n${t.context}` : "")
  );
}

export const transcriptText = (lines: TranscriptLine[]): string[] =>
  lines.map((l) => `[${l.at}] ${l.speaker}: ${l.text}`);

interface Part {
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

export function createChatSummarizer(client: ChatModel): Summarizer {
  const held = client.heldToSections === true;
  const chat = (system: string, user: string, signal: AbortSignal, opts?: ChatCallOptions) =>
    client.once(
      [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      signal,
      opts,
    );

  /** One part's notes; a failed call is tried once more, then named in the warnings. */
  async function mapPart(
    input: SummaryInput,
    part: Part,
    i: number,
    total: number,
    warnings: string[],
    signal: AbortSignal,
  ): Promise<string | null> {
    const where = `Part ${i + 1} of ${total} (${part.from}–${part.to})`;
    let lastError: Error | null = null;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const { content, cutShort } = await chat(
          mapPrompt(input.template, held),
          `Meeting "${input.title}", part ${i + 1} of ${total}:\n\n${part.text}`,
          signal,
          { sections: titles(input.template) },
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

  /**
   * Combines neighbouring notes until they fit one part. Every call combines at least
   * two notes, so each round shortens the list; after MAX_REDUCE_ROUNDS the notes go
   * on whole (a model that cannot take them then fails visibly, never by truncation).
   */
  async function reduceToFit(
    notes: string[],
    partChars: number,
    sections: string[],
    signal: AbortSignal,
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
                await chat(
                  combinePrompt(held),
                  `Notes of consecutive parts of one meeting:\n\n${g.join("\n\n")}`,
                  signal,
                  {
                    sections,
                  },
                )
              ).content,
        );
    }
    return level.join("\n\n");
  }

  return {
    name: client.name,
    async summarize(input: SummaryInput, { signal }) {
      const warnings: string[] = [];
      const sample = transcriptText(input.transcript.slice(0, 200)).join("\n");
      // Room for the answer: a part and the instructions read with it take at most half
      // the context, counted in this model's tokens of this meeting's words.
      const context = await client.contextTokens();
      const perToken = await client.charsPerToken(sample);
      const instructions = Math.max(
        mapPrompt(input.template, held).length,
        notePrompt(input.template, input.language, held).length,
      );
      const partChars = Math.floor((context / 2) * perToken) - instructions - input.userWrittenNote.length - 200;
      if (partChars < 200)
        throw new EngineConfigError(
          `The language model's context (${context} tokens) is too small to read a meeting with the "${input.template.name}" template's instructions.`,
        );
      const parts = partsOf(input.transcript, partChars);
      let said: string;
      if (parts.length <= 1) said = `Transcript:\n${parts[0]?.text ?? "(no transcript)"}`;
      else {
        const notes: string[] = [];
        for (const [i, part] of parts.entries()) {
          const note = await mapPart(input, part, i, parts.length, warnings, signal);
          if (note !== null) notes.push(`Part ${i + 1} (${part.from}–${part.to}):\n${note}`);
        }
        if (notes.length === 0)
          throw new ModelAnswerError(
            `The language model could not read any of the meeting's ${parts.length} parts: ${warnings[0] ?? ""}`,
          );
        said = `Notes of what was said:\n${await reduceToFit(notes, partChars, titles(input.template), signal)}`;
      }
      const own = input.userWrittenNote.trim() || "(none)";
      const meeting = `Meeting "${input.title}".\n\nThe attendee's own notes:\n${own}\n\n${said}`;
      const summary = await chat(summaryPrompt(input.language), meeting, signal);
      if (summary.cutShort) warnings.push("The summary was cut short by the model's answer limit.");
      const answer = await chat(notePrompt(input.template, input.language, held), meeting, signal, {
        sections: titles(input.template),
      });
      const bodies = sectionsOf(answer.content, input.template);
      // Each point's times become links to its moments where the line said then supports it.
      const citations = { cited: 0, uncited: 0, dropped: 0 };
      for (const [k, body] of bodies) {
        const { markdown, count } = citeLines(body, input.transcript, input.noteId);
        bodies.set(k, markdown);
        citations.cited += count.cited;
        citations.uncited += count.uncited;
        citations.dropped += count.dropped;
      }
      // An answer that follows none of the template is not a note: fail, and the note keeps what it had.
      if (bodies.size === 0)
        throw new ModelAnswerError(
          `The language model's answer does not follow the template "${input.template.name}": none of its sections came back.`,
        );
      const missing = input.template.sections.filter((_, i) => !bodies.has(i)).map((s) => s.title);
      if (missing.length)
        warnings.push(
          `The model left out the section${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")}.`,
        );
      if (answer.cutShort)
        warnings.push(
          "The enhanced note was cut short by the model's answer limit; its last section may be incomplete.",
        );
      const woven = weaveOwnNotes(input);
      if (woven) for (const [k, body] of bodies) bodies.set(k, withoutOwnTasks(body, woven));
      return {
        summary: summary.content,
        enhancedNote: assembleNote(input.template, bodies, { ownNotes: woven?.markdown }),
        warnings,
        language: input.language,
        citations,
      };
    },
  };
}
