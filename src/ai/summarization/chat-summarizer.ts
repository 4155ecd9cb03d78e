// Summaries and template-shaped notes from a language model: an OpenAI-compatible
// chat-completions server (OpenAI, Ollama, LM Studio, vLLM, OpenRouter) or the local one.
//
// A meeting that fits the model's context goes to it whole. A longer one is read part
// by part (parts.ts), then the note is written from the parts' notes. While a meeting
// is recorded, its finished parts are read ahead (readAhead), so that once it stops
// only the rest is left to read.
import { assembleNote, sectionsOf } from "../templates/sections.js";
import { EngineConfigError } from "../transcription/engine.js";
import type { ChatCallOptions, ChatModel } from "../llm/chat.js";
import { mapPrompt, notePrompt, summaryPrompt, titles } from "./chat-prompts.js";
import { citeLines } from "./citations.js";
import { weaveOwnNotes, withoutOwnTasks } from "./own-notes.js";
import { createPartReader, partsOf, transcriptText } from "./parts.js";
import { ModelAnswerError, type Summarizer, type SummaryInput } from "./summarizer.js";

/** How much of the transcript the model's characters per token are measured on: its start, which a growing meeting keeps. */
const SAMPLE_CHARS = 4_000;
/** Parts are cut to a multiple of this, so that a slightly other measure of the same words cuts them the same. */
const PART_STEP = 50;

/** The transcript's first SAMPLE_CHARS characters, as the model reads them. */
function sampleOf(input: SummaryInput): string {
  const lines: string[] = [];
  let size = 0;
  for (const line of transcriptText(input.transcript)) {
    if (size >= SAMPLE_CHARS) break;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n").slice(0, SAMPLE_CHARS);
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

  const reader = createPartReader({ model: client.name, held, chat });

  /**
   * How long a part may be: the meeting and the instructions read with it take at most
   * half the context, counted in this model's tokens of this meeting's words, leaving
   * the rest for the answer. `partChars` is what the final calls may read beside the
   * attendee's notes (the whole meeting, or the parts' notes once combined); `mapChars`
   * what a part's call reads, which carries no attendee's notes (they may still be
   * written while the meeting is recorded) and is cut to a step.
   */
  async function budget(input: SummaryInput): Promise<{ partChars: number; mapChars: number }> {
    const context = await client.contextTokens();
    const perToken = await client.charsPerToken(sampleOf(input));
    const instructions = Math.max(
      mapPrompt(input.template, held).length,
      notePrompt(input.template, input.language, held).length,
    );
    const room = Math.floor((context / 2) * perToken) - instructions - 200;
    const partChars = room - input.userWrittenNote.length;
    if (partChars < 200)
      throw new EngineConfigError(
        `The language model's context (${context} tokens) is too small to read a meeting with the "${input.template.name}" template's instructions.`,
      );
    return { partChars, mapChars: Math.max(200, Math.floor(room / PART_STEP) * PART_STEP) };
  }

  return {
    name: client.name,
    /**
     * Reads the finished parts of a meeting still recorded, and combines their notes,
     * keeping each answer in `memo`; the last part may still grow and is left for the
     * note. A part that fails is left too: the note asks for it again, and names it.
     */
    async readAhead(input: SummaryInput, { signal, memo }) {
      const { partChars, mapChars } = await budget(input);
      if (partsOf(input.transcript, partChars).length <= 1) return { parts: 0 };
      const finished = partsOf(input.transcript, mapChars).slice(0, -1);
      const notes = await reader.mapAll(input, finished, null, [], signal, memo);
      if (notes.length === finished.length && notes.length > 1)
        await reader.reduceToFit(notes, partChars, titles(input.template), signal, memo);
      return { parts: notes.length };
    },
    async summarize(input: SummaryInput, { signal, memo }) {
      const warnings: string[] = [];
      const { partChars, mapChars } = await budget(input);
      let said: string;
      if (partsOf(input.transcript, partChars).length <= 1)
        said = `Transcript:\n${partsOf(input.transcript, partChars)[0]?.text ?? "(no transcript)"}`;
      else {
        const parts = partsOf(input.transcript, mapChars);
        const notes = await reader.mapAll(input, parts, parts.length, warnings, signal, memo);
        if (notes.length === 0)
          throw new ModelAnswerError(
            `The language model could not read any of the meeting's ${parts.length} parts: ${warnings[0] ?? ""}`,
          );
        said = `Notes of what was said:\n${await reader.reduceToFit(notes, partChars, titles(input.template), signal, memo)}`;
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
