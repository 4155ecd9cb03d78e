// What a language model is asked, to write a meeting's note: the instructions for a
// part of a long meeting (map), for combining parts' notes (reduce), and for the summary
// and the template-shaped note written from them.
import { EMPTY_SECTION, languageName } from "../templates/sections.js";
import type { TemplateSpec } from "../templates/builtin.js";

export const titles = (t: TemplateSpec) => t.sections.map((s) => s.title);
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

export function mapPrompt(t: TemplateSpec, held: boolean): string {
  return held
    ? "You take notes of meetings. Note what this part of a meeting transcript said for each of these sections of the final notes, as short items:\n\n" +
        sectionList(t, true) +
        `\n\nKeep names, numbers, dates and who said what. ${KEEP_TIMES} Do not invent anything.`
    : "You take notes of meetings. Summarize this part of a meeting transcript as terse markdown bullet points (at most 200 words), " +
        "keeping only what belongs in these sections of the final notes:\n\n" +
        sectionList(t, false) +
        `\n\nGroup the bullets under those section titles. Keep names, numbers, dates and who said what. ${KEEP_TIMES} Do not invent anything.`;
}

export const combinePrompt = (held: boolean) =>
  held
    ? "You take notes of meetings. Combine these notes of consecutive parts of one meeting into one list of short items per section. Keep names, numbers, dates and each item's [MM:SS] times. Do not invent anything."
    : "You take notes of meetings. Combine these notes of consecutive parts of one meeting into one set of terse markdown bullet points grouped by the same section titles (at most 300 words). Keep names, numbers, dates and each item's [MM:SS] times. Do not invent anything.";

export function summaryPrompt(language: string | null): string {
  return `You take notes of meetings. From the meeting below, write a summary of the whole meeting in one short paragraph (at most 120 words). Plain text, no heading.${writeIn(language)}`;
}

export function notePrompt(t: TemplateSpec, language: string | null, held: boolean): string {
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
