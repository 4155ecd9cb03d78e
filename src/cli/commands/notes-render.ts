// How a note reads on a terminal, and as a markdown file with front matter.
import type { NoteDto } from "../../shared/schemas/notes.js";
import { bold, dim } from "../lib/output.js";

export function renderNote(n: NoteDto): string {
  const out: string[] = [];
  out.push(bold(n.title), "");
  const meta: [string, string][] = [
    ["id", n.id],
    ["status", n.status + (n.processingError ? ` (${n.processingError})` : "")],
    ["created", n.createdAt],
    ["duration", n.totalDurationSec ? `${Math.round(n.totalDurationSec / 60)} min` : "-"],
    ["visibility", n.visibility],
    ["folders", n.tags.map((t) => t.name).join(", ") || "-"],
    ["participants", n.participants.map((p) => (p.email ? `${p.name} <${p.email}>` : p.name)).join(", ") || "-"],
  ];
  if (n.template) meta.push(["template", n.template.name ?? n.template.id]);
  if (n.speakers?.length)
    meta.push(["speakers", n.speakers.map((s) => `${s.name} (${Math.floor(s.talkTimeSec / 60)}:${String(s.talkTimeSec % 60).padStart(2, "0")})`).join(", ")]);
  for (const w of n.processingWarnings ?? []) meta.push(["warning", w]);
  for (const [k, v] of meta) out.push(`${dim(k.padEnd(13))}${v}`);
  const section = (title: string, body: string) => {
    if (body.trim()) out.push("", bold(`## ${title}`), "", body.trim());
  };
  section("Summary", n.summary);
  section("Enhanced note", n.enhancedNote);
  section("Your notes", n.userWrittenNote);
  if (n.transcripts.length) {
    out.push("", bold("## Transcript"), "");
    for (const s of n.transcripts) out.push(`${dim(`[${s.startTimestamp}]`)} ${s.speaker ? `${s.speaker}: ` : ""}${s.text}`);
  }
  return out.join("\n") + "\n";
}

const yamlString = (s: string) => JSON.stringify(s);

export function noteToMarkdown(n: NoteDto): string {
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
    `participants: [${n.participants.map((p) => yamlString(p.email || p.name)).join(", ")}]`,
    "---",
    "",
    `# ${n.title}`,
  ];
  const body: string[] = [];
  const section = (title: string, text: string) => {
    if (text.trim()) body.push("", `## ${title}`, "", text.trim());
  };
  section("Summary", n.summary);
  section("Enhanced note", n.enhancedNote);
  section("Your notes", n.userWrittenNote);
  if (n.transcripts.length) body.push("", "## Transcript", "", ...n.transcripts.map((s) => `- [${s.startTimestamp}] ${s.speaker ? `**${s.speaker}:** ` : ""}${s.text}`));
  return [...fm, ...body, ""].join("\n");
}

export function exportFileName(n: NoteDto, ext: string): string {
  const slug = n.title.toLowerCase().normalize("NFKD").replace(/[^\w\s-]/g, "").trim().replace(/[\s_]+/g, "-").slice(0, 60) || "note";
  return `${n.createdAt.slice(0, 10)}-${slug}-${n.id}.${ext}`;
}
