// A note as plain text: for a mail, a ticket or a text editor. Headings are underlined
// rather than marked up; the transcript is one "[MM:SS] Speaker: words" line each.
import type { NoteDto } from "../schemas/notes.js";
import { sectionBody } from "./markdown.js";
import { rewriteCitations } from "../note-links.js";

const heading = (title: string) => `${title}\n${"=".repeat(title.length)}`;

export function noteToText(n: NoteDto, opts: { url?: string } = {}): string {
  const facts = [
    `Date: ${n.createdAt.slice(0, 16).replace("T", " ")} UTC`,
    n.participants.length ? `Participants: ${n.participants.map((p) => p.name || p.email).join(", ")}` : null,
    n.tags.length ? `Folders: ${n.tags.map((t) => t.name).join(", ")}` : null,
    opts.url ? `Link: ${opts.url}` : null,
  ].filter((x): x is string => x !== null);
  const parts = [heading(n.title), facts.join("\n")];
  const section = (title: string, text: string) => {
    // A point's moment as its time: "(00:42)".
    const body = sectionBody(
      rewriteCitations(text, () => null),
      title,
      n.title,
    )
      .replace(/^#{1,6}\s+(.*)$/gm, (_, h: string) => `${h}:`)
      .replace(/\*\*(.+?)\*\*/g, "$1");
    if (body) parts.push(`${title}\n${"-".repeat(title.length)}\n${body}`);
  };
  section("Summary", n.summary);
  section("Enhanced note", n.enhancedNote);
  section("Your notes", n.userWrittenNote);
  if (n.transcripts.length)
    parts.push(
      `Transcript\n----------\n${n.transcripts.map((s) => `[${s.startTimestamp}] ${s.speaker ? `${s.speaker}: ` : ""}${s.text}`).join("\n")}`,
    );
  return parts.join("\n\n") + "\n";
}
