// The enhanced note's shape: one `## ` section per template section, in the
// template's order, whatever order or heading style a model answered in.
import type { TemplateSpec } from "./builtin.js";

export const EMPTY_SECTION = "_Nothing in this meeting for this section._";

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Splits a model's markdown at headings that name a template section (any level,
 * case and punctuation aside). Other headings stay inside the section they follow;
 * text before the first section (a preamble such as "Here are the notes") is dropped.
 */
export function sectionsOf(markdown: string, template: TemplateSpec): Map<number, string> {
  const titles = template.sections.map((s) => norm(s.title));
  const found = new Map<number, string[]>();
  let current: number | null = null;
  for (const line of markdown.split("\n")) {
    const heading = /^\s{0,3}#{1,4}\s+(.+?)\s*#*\s*$/.exec(line) ?? /^\s*\*\*(.+?)\*\*:?\s*$/.exec(line);
    const index = heading ? titles.indexOf(norm(heading[1])) : -1;
    if (index >= 0 && !found.has(index)) {
      current = index;
      found.set(index, []);
      continue;
    }
    if (current !== null) found.get(current)!.push(line);
  }
  return new Map([...found].map(([i, lines]) => [i, lines.join("\n").trim()]));
}

/** The enhanced note: the attendee's own notes first (when asked), then every section in order. */
export function assembleNote(
  template: TemplateSpec,
  bodies: Map<number, string>,
  opts: { ownNotes?: string } = {},
): string {
  const parts: string[] = [];
  if (opts.ownNotes?.trim()) parts.push("## Your notes", "", opts.ownNotes.trim(), "");
  for (const [i, s] of template.sections.entries())
    parts.push(`## ${s.title}`, "", bodies.get(i)?.trim() || EMPTY_SECTION, "");
  return parts.join("\n").trimEnd() + "\n";
}

/** English name of a language code, for prompts ("de" → "German"); the code itself if unknown. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}
