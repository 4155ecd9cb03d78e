// How a note reads on a terminal, and as a markdown file with front matter.
import wrapAnsi from "wrap-ansi";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { bold, dim } from "../../lib/output.js";
import { sectionBody } from "../../../shared/export/markdown.js";
import { rewriteCitations } from "../../../shared/note-links.js";

export interface RenderOptions {
  /** Wrap to this many columns (the terminal's width); unset, lines are left as they are. */
  width?: number;
  /** Show times in this zone (default: the system's, or TZ). */
  timeZone?: string;
}

/** "Mon 23 Nov 2026, 18:42" in the reader's zone: not the stored UTC instant. */
export function localTime(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
  }).format(d);
}

const minutes = (sec: number) => `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;

/** Wraps each line to `width`, list items and quoted lines with a hanging indent. */
function wrap(text: string, width: number | undefined): string {
  if (!width) return text;
  return text
    .split("\n")
    .map((line) => {
      const indent = /^(\s*(?:[-*+]|\d+[.)])\s+|\s*>\s?|\s+)/.exec(line)?.[0] ?? "";
      if (line.length <= width || indent.length >= width / 2) return line;
      const pad = " ".repeat(indent.length);
      return wrapAnsi(line.slice(indent.length), width - indent.length, { hard: true, trim: true })
        .split("\n")
        .map((l, i) => (i === 0 ? indent : pad) + l)
        .join("\n");
    })
    .join("\n");
}

export function renderNote(n: NoteDto, opts: RenderOptions = {}): string {
  const out: string[] = [];
  out.push(bold(n.title), "");
  const meta: [string, string][] = [
    ["id", n.id],
    [
      "status",
      (n.progress
        ? `${n.status} (${n.progress.stage}${n.progress.percent !== null ? ` ${n.progress.percent}%` : ""})`
        : n.status) + (n.processingError ? ` — ${n.processingError}` : ""),
    ],
    ["created", localTime(n.createdAt, opts.timeZone)],
    ["duration", n.totalDurationSec ? minutes(n.totalDurationSec) : "-"],
    ["visibility", n.visibility],
    ["folders", n.tags.map((t) => t.name).join(", ") || "-"],
    ["participants", n.participants.map((p) => (p.email ? `${p.name} <${p.email}>` : p.name)).join(", ") || "-"],
  ];
  if (n.updatedAt !== n.createdAt) meta.splice(3, 0, ["updated", localTime(n.updatedAt, opts.timeZone)]);
  if (n.template) meta.push(["template", n.template.name ?? n.template.id]);
  if (n.speakers?.length)
    meta.push(["speakers", n.speakers.map((s) => `${s.name} (${minutes(s.talkTimeSec)})`).join(", ")]);
  for (const w of n.processingWarnings ?? []) meta.push(["warning", w]);
  const label = 13;
  for (const [k, v] of meta) {
    const value = opts.width
      ? wrapAnsi(v, Math.max(20, opts.width - label), { hard: true }).replace(/\n/g, `\n${" ".repeat(label)}`)
      : v;
    out.push(`${dim(k.padEnd(label))}${value}`);
  }
  const section = (title: string, body: string) => {
    // A point's moment as its time, "(00:42)": the transcript below has the line said then.
    const text = sectionBody(
      rewriteCitations(body, () => null),
      title,
      n.title,
    );
    if (text) out.push("", bold(`## ${title}`), "", wrap(text, opts.width));
  };
  section("Summary", n.summary);
  section("Enhanced note", n.enhancedNote);
  section("Your notes", n.userWrittenNote);
  if (n.transcripts.length) {
    out.push("", bold("## Transcript"), "");
    for (const s of n.transcripts) {
      const lead = `[${s.startTimestamp}] ${s.speaker ? `${s.speaker}: ` : ""}`;
      const body =
        opts.width && lead.length < opts.width / 2
          ? wrapAnsi(s.text, opts.width - lead.length, { hard: true }).replace(/\n/g, `\n${" ".repeat(lead.length)}`)
          : s.text;
      out.push(`${dim(`[${s.startTimestamp}]`)} ${s.speaker ? `${s.speaker}: ` : ""}${body}`);
    }
  }
  return out.join("\n") + "\n";
}
