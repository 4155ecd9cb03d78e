// Summaries from any OpenAI-compatible chat-completions server (OpenAI, Ollama,
// LM Studio, vLLM, OpenRouter). A transcript longer than the model's context is
// summarized part by part (map), then the parts are combined (reduce): nothing is
// silently cut off.
import { packText } from "../pack-text.js";
import { EngineConfigError } from "../transcription/engine.js";
import type { Summarizer, SummaryInput, TranscriptLine } from "./summarizer.js";

/** About four characters a token for English text; a conservative estimate. */
const CHARS_PER_TOKEN = 3.5;

const MAP_PROMPT =
  "You take notes of meetings. Summarize this part of a meeting transcript as terse markdown bullet points (at most 150 words): key points, decisions, and action items with their owners. Keep names, numbers and dates. Do not invent anything.";
/** Reduce rounds before giving the notes as they are to the final calls. */
const MAX_REDUCE_ROUNDS = 6;
const SUMMARY_PROMPT =
  "You take notes of meetings. From the notes of a meeting below, write a summary of the whole meeting in one short paragraph (at most 120 words). Plain text, no heading.";
const ENHANCED_PROMPT =
  "You take notes of meetings. Merge the attendee's own notes with the notes of what was said into one markdown document with the sections '## Key points', '## Decisions' and '## Action items' (each action item as '- [ ] task (owner: name)'). Keep the attendee's own points, even where the meeting did not mention them. Do not invent anything.";

export function transcriptText(lines: TranscriptLine[]): string[] {
  return lines.map((l) => `[${l.at}] ${l.speaker}: ${l.text}`);
}

/** Splits lines into parts of at most `maxChars` characters, never inside a line unless a line alone is longer. */
export function splitIntoParts(lines: string[], maxChars: number): string[] {
  return packText(lines, maxChars, "\n");
}

export function createOpenAiSummarizer(opts: { url: string; apiKey?: string; model: string; contextTokens: number }): Summarizer {
  const endpoint = `${opts.url.replace(/\/+$/, "")}/chat/completions`;
  // Room for the prompt and the answer: a part uses at most half the context.
  const partChars = Math.floor((opts.contextTokens / 2) * CHARS_PER_TOKEN);

  async function chat(system: string, user: string, signal: AbortSignal): Promise<string> {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
      body: JSON.stringify({ model: opts.model, temperature: 0.2, messages: [{ role: "system", content: system }, { role: "user", content: user }] }),
      signal,
    });
    const text = await res.text();
    if (res.status === 401 || res.status === 403 || res.status === 404)
      throw new EngineConfigError(`The language model server refused the request (${res.status}): ${text.slice(0, 300)}`);
    if (!res.ok) throw new Error(`The language model server answered ${res.status}: ${text.slice(0, 300)}`);
    const content = (JSON.parse(text) as { choices?: { message?: { content?: string } }[] }).choices?.[0]?.message?.content;
    if (typeof content !== "string" || !content.trim()) throw new Error("The language model returned an empty answer.");
    return content.trim();
  }

  /**
   * Combines neighbouring notes until they fit one part. Every call combines at least
   * two notes, so each round shortens the list; after MAX_REDUCE_ROUNDS the notes go
   * on whole (a model that cannot take them then fails visibly, never by truncation).
   */
  async function reduceToFit(notes: string[], signal: AbortSignal): Promise<string> {
    let level = notes;
    for (let round = 0; round < MAX_REDUCE_ROUNDS && level.length > 1 && level.join("\n\n").length > partChars; round++) {
      const groups: string[][] = [];
      for (const note of level) {
        const last = groups[groups.length - 1];
        if (last && (last.length < 2 || last.join("\n\n").length + note.length + 2 <= partChars)) last.push(note);
        else groups.push([note]);
      }
      level = [];
      for (const g of groups)
        level.push(g.length === 1 ? g[0] : await chat(MAP_PROMPT, `Notes of consecutive parts of one meeting:\n\n${g.join("\n\n")}`, signal));
    }
    return level.join("\n\n");
  }

  return {
    name: `openai:${opts.model}`,
    async summarize(input: SummaryInput, { signal }) {
      const parts = splitIntoParts(transcriptText(input.transcript), partChars);
      const notes: string[] = [];
      for (const [i, part] of parts.entries())
        notes.push(await chat(MAP_PROMPT, `Meeting "${input.title}", part ${i + 1} of ${parts.length}:\n\n${part}`, signal));
      const combined = await reduceToFit(notes, signal);
      const summary = await chat(SUMMARY_PROMPT, `Meeting "${input.title}".\n\nNotes:\n${combined}`, signal);
      const own = input.userWrittenNote.trim() || "(none)";
      const enhancedNote = await chat(ENHANCED_PROMPT, `Meeting "${input.title}".\n\nThe attendee's own notes:\n${own}\n\nNotes of what was said:\n${combined}`, signal);
      return { summary, enhancedNote };
    },
  };
}
