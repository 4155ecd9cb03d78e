// A note as a markdown file: front matter (title, date, participants, folders, its
// link) and its summary, enhanced note, the attendee's own notes and the transcript,
// each under a heading of its own. `notula notes export`, `notes get --format markdown`
// and GET /v1/notes/{id}/export write it alike.
import type { NoteDto } from "../schemas/notes.js";
import { noteUrl, rewriteCitations } from "../note-links.js";

/**
 * A section's markdown under its own "## Title" heading: a heading that repeats the
 * section's (or the note's) title is dropped, and the others move one level down, so
 * that the enhanced note's "## Decisions" reads as part of "## Enhanced note".
 */
export function sectionBody(text: string, ...titles: string[]): string {
  const same = new Set(titles.map((t) => t.trim().toLowerCase()));
  const lines = text.trim().split("\n");
  const first = /^#{1,6}\s+(.*)$/.exec(lines[0] ?? "");
  if (first && same.has(first[1].trim().toLowerCase())) lines.shift();
  return lines
    .map((l) => l.replace(/^(#{1,5})(\s)/, "#$1$2"))
    .join("\n")
    .trim();
}

const yamlString = (s: string) => JSON.stringify(s);

/** A person as an Obsidian link to their page: the characters a link cannot hold are left out. */
const wikiLink = (name: string) => `[[${name.replace(/[[\]|#^]/g, "").trim()}]]`;

/**
 * The note as markdown; `url`, when given, is its address, kept in the front matter.
 * With `wikiLinks`, participants are [[links]] to a page per person (by name).
 */
export function noteToMarkdown(n: NoteDto, opts: { url?: string; wikiLinks?: boolean } = {}): string {
  const fm = [
    "---",
    `id: ${yamlString(n.id)}`,
    `title: ${yamlString(n.title)}`,
    `status: ${yamlString(n.status)}`,
    `createdAt: ${yamlString(n.createdAt)}`,
    `updatedAt: ${yamlString(n.updatedAt)}`,
    `durationSec: ${n.totalDurationSec}`,
    `visibility: ${yamlString(n.visibility)}`,
    `folders: [${n.tags.map((t) => yamlString(t.name)).join(", ")}]`,
    `participants: [${n.participants
      .map((p) => yamlString(opts.wikiLinks ? wikiLink(p.name || p.email) : p.email || p.name))
      .join(", ")}]`,
    ...(opts.url ? [`link: ${yamlString(opts.url)}`] : []),
    "---",
    "",
    `# ${n.title}`,
  ];
  const body: string[] = [];
  // A point's moment links to the note on its server, where the file says which that is.
  const base = opts.url?.replace(/\/notes\/[^/]+$/, "");
  const cited = (text: string) => (base ? rewriteCitations(text, (id, at) => noteUrl(base, id, at)) : text);
  const section = (title: string, text: string) => {
    const kept = sectionBody(cited(text), title, n.title);
    if (kept) body.push("", `## ${title}`, "", kept);
  };
  section("Summary", n.summary);
  section("Enhanced note", n.enhancedNote);
  section("Your notes", n.userWrittenNote);
  if (n.transcripts.length)
    body.push(
      "",
      "## Transcript",
      "",
      ...n.transcripts.map((s) => `- [${s.startTimestamp}] ${s.speaker ? `**${s.speaker}:** ` : ""}${s.text}`),
    );
  return [...fm, ...body, ""].join("\n");
}
